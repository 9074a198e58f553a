"""ContextManager: construction, typed storage and reads, dot notation, descriptions."""

import pytest

from osprey_desktop.context import (
    CapabilityContext,
    ContextManager,
    ContextNamespace,
    RawContext,
)


@pytest.fixture
def kinds(restore_context_classes):
    """Context classes named as in the spec, registered for one test only."""

    class PVAddresses(CapabilityContext):
        CONTEXT_TYPE = "PV_ADDRESSES"
        CONTEXT_CATEGORY = "METADATA"
        pvs: list[str]
        description: str = ""

        def get_access_details(self, key):
            return {"pvs": self.pvs, "access_pattern": f"context.PV_ADDRESSES.{key}.pvs"}

        def get_summary(self):
            return {"type": "PV Addresses", "total_pvs": len(self.pvs), "pv_list": self.pvs}

    class Weather(CapabilityContext):
        CONTEXT_TYPE = "CURRENT_WEATHER"
        location: str
        temp: float

        def get_access_details(self, key):
            return {"access_pattern": f"context.CURRENT_WEATHER.{key}.temp"}

        def get_summary(self):
            return {"type": "Current Weather", "location": self.location, "temp": self.temp}

    class Broken(CapabilityContext):
        CONTEXT_TYPE = "BROKEN_SUMMARY"
        x: int = 0

        def get_access_details(self, key):
            raise RuntimeError("details exploded")

        def get_summary(self):
            raise RuntimeError("summary exploded")

    class Kinds:
        pass

    Kinds.PVAddresses, Kinds.Weather, Kinds.Broken = PVAddresses, Weather, Broken
    return Kinds


def _manager(data=None):
    return ContextManager({"capability_context_data": {} if data is None else data})


# ----- construction --------------------------------------------------------------------


def test_non_dict_state_raises_type_error():
    with pytest.raises(TypeError, match="expects an AgentState dictionary, got list"):
        ContextManager([("capability_context_data", {})])


def test_state_without_context_data_raises_value_error():
    with pytest.raises(ValueError, match="must contain a 'capability_context_data' key"):
        ContextManager({"messages": []})


def test_none_context_data_is_an_empty_context():
    assert ContextManager({"capability_context_data": None}).get_all() == {}


def test_context_data_of_the_wrong_type_raises_type_error():
    with pytest.raises(TypeError, match="capability_context_data must be a dict"):
        ContextManager({"capability_context_data": ["x"]})


# ----- set / get -------------------------------------------------------------------------


def test_set_then_get_rebuilds_the_typed_object(kinds):
    cm = _manager()
    cm.set_context("PV_ADDRESSES", "step_1", kinds.PVAddresses(pvs=["SR:C01:MAG:1"]))
    got = cm.get_context("PV_ADDRESSES", "step_1")
    assert isinstance(got, kinds.PVAddresses)
    assert got.pvs == ["SR:C01:MAG:1"]
    assert got.context_type == "PV_ADDRESSES"
    assert cm.get_raw_data() == {
        "PV_ADDRESSES": {"step_1": {"pvs": ["SR:C01:MAG:1"], "description": ""}}
    }


def test_missing_context_is_none(kinds):
    cm = _manager({"PV_ADDRESSES": {"a": {"pvs": []}}})
    assert cm.get_context("PV_ADDRESSES", "b") is None
    assert cm.get_context("NO_SUCH_TYPE", "a") is None


def test_rebuilt_objects_are_cached_until_the_entry_changes(kinds):
    cm = _manager({"PV_ADDRESSES": {"a": {"pvs": ["X"]}}})
    first = cm.get_context("PV_ADDRESSES", "a")
    assert cm.get_context("PV_ADDRESSES", "a") is first
    cm.set_context("PV_ADDRESSES", "a", kinds.PVAddresses(pvs=["Y"]))
    assert cm.get_context("PV_ADDRESSES", "a").pvs == ["Y"]


def test_writes_never_touch_the_state_the_manager_was_given(kinds):
    untouched_branch = {"w": {"location": "Berkeley", "temp": 15.0}}
    data = {"PV_ADDRESSES": {"a": {"pvs": ["X"]}}, "CURRENT_WEATHER": untouched_branch}
    state = {"capability_context_data": data}
    cm = ContextManager(state)
    cm.set_context("PV_ADDRESSES", "b", kinds.PVAddresses(pvs=["Y"]))
    assert state["capability_context_data"] is data
    assert data == {"PV_ADDRESSES": {"a": {"pvs": ["X"]}}, "CURRENT_WEATHER": untouched_branch}
    raw = cm.get_raw_data()
    assert set(raw["PV_ADDRESSES"]) == {"a", "b"}
    assert raw["CURRENT_WEATHER"] is untouched_branch


def test_unknown_type_is_refused_with_the_known_types_listed(kinds):
    with pytest.raises(ValueError, match=r"Unknown context type: NOPE\..*PV_ADDRESSES"):
        _manager().set_context("NOPE", "k", kinds.PVAddresses(pvs=[]))


def test_value_of_the_wrong_class_is_refused(kinds):
    with pytest.raises(ValueError, match="PV_ADDRESSES expects PVAddresses, got Weather"):
        _manager().set_context("PV_ADDRESSES", "k", kinds.Weather(location="x", temp=1))


def test_skip_validation_stores_under_any_type(kinds):
    cm = _manager()
    cm.set_context("SCRATCH", "k", kinds.Weather(location="x", temp=1), skip_validation=True)
    assert cm.get_raw_data()["SCRATCH"]["k"] == {"location": "x", "temp": 1.0}


def test_non_context_values_are_refused_even_without_validation():
    with pytest.raises(TypeError, match="must be a CapabilityContext, got dict"):
        _manager().set_context("PV_ADDRESSES", "k", {"pvs": []}, skip_validation=True)


@pytest.mark.parametrize("context_type,key", [("", "k"), ("PV_ADDRESSES", " "), (None, "k")])
def test_empty_names_are_refused(kinds, context_type, key):
    with pytest.raises(ValueError, match="must be a non-empty string"):
        _manager().set_context(context_type, key, kinds.PVAddresses(pvs=[]))


def test_get_all_of_type_and_get_all(kinds):
    cm = _manager(
        {
            "PV_ADDRESSES": {"a": {"pvs": ["X"]}, "b": {"pvs": ["Y"]}},
            "CURRENT_WEATHER": {"sf": {"location": "San Francisco", "temp": 15.0}},
        }
    )
    of_type = cm.get_all_of_type("PV_ADDRESSES")
    assert {k: v.pvs for k, v in of_type.items()} == {"a": ["X"], "b": ["Y"]}
    assert cm.get_all_of_type("NOTHING") == {}
    assert set(cm.get_all()) == {"PV_ADDRESSES.a", "PV_ADDRESSES.b", "CURRENT_WEATHER.sf"}
    assert cm.get_all()["CURRENT_WEATHER.sf"].location == "San Francisco"


# ----- data without a class, or that no longer validates ---------------------------------


def test_unknown_type_from_elsewhere_stays_readable_by_attribute():
    cm = _manager({"FOREIGN_TYPE": {"k": {"samples": [{"t": 1, "v": 2.5}], "unit": "mA"}}})
    raw = cm.FOREIGN_TYPE.k
    assert isinstance(raw, RawContext)
    assert raw.unit == "mA"
    assert raw.samples[0].v == 2.5
    assert raw["unit"] == "mA"
    assert raw.context_type == "FOREIGN_TYPE"
    assert "no context class" in raw.load_problem
    with pytest.raises(AttributeError, match="no field 'missing'; available fields"):
        _ = raw.missing
    with pytest.raises(AttributeError, match="read-only"):
        raw.unit = "A"


def test_data_that_no_longer_validates_is_read_raw_with_the_reason(kinds, caplog):
    cm = _manager({"PV_ADDRESSES": {"old": {"pvs": "not a list"}}})
    raw = cm.get_context("PV_ADDRESSES", "old")
    assert isinstance(raw, RawContext)
    assert raw.pvs == "not a list"
    assert "does not match PVAddresses: pvs" in raw.load_problem
    assert "does not match PVAddresses" in caplog.text


def test_a_raw_context_can_be_stored_back_without_validation():
    source = _manager({"FOREIGN_TYPE": {"k": {"v": 1}}})
    target = _manager()
    target.set_context("FOREIGN_TYPE", "k", source.FOREIGN_TYPE.k, skip_validation=True)
    assert target.get_raw_data() == {"FOREIGN_TYPE": {"k": {"v": 1}}}


def test_entries_that_are_not_dicts_read_as_none(caplog):
    cm = _manager({"FOREIGN_TYPE": {"k": [1, 2]}})
    assert cm.get_context("FOREIGN_TYPE", "k") is None
    assert "stored as list" in caplog.text


# ----- dot notation ------------------------------------------------------------------------


def test_spec_example_dot_notation_reads(kinds):
    cm = _manager({"PV_ADDRESSES": {"step_1": {"pvs": ["SR:C01"]}}})
    assert isinstance(cm.PV_ADDRESSES, ContextNamespace)
    assert cm.PV_ADDRESSES.step_1.pvs == ["SR:C01"]
    assert cm.PV_ADDRESSES["step_1"].pvs == ["SR:C01"]
    assert "step_1" in cm.PV_ADDRESSES
    assert list(cm.PV_ADDRESSES) == ["step_1"]
    assert len(cm.PV_ADDRESSES) == 1


def test_dot_notation_write_stores_through_set_context(kinds):
    cm = _manager()
    cm.PV_ADDRESSES.step_2 = kinds.PVAddresses(pvs=["SR:C02"])
    assert cm.get_raw_data()["PV_ADDRESSES"]["step_2"]["pvs"] == ["SR:C02"]
    assert cm.PV_ADDRESSES.step_2.pvs == ["SR:C02"]
    cm.PV_ADDRESSES["step_3"] = kinds.PVAddresses(pvs=[])
    assert cm.PV_ADDRESSES.keys() == ["step_2", "step_3"]


def test_dot_notation_write_is_validated(kinds):
    cm = _manager()
    with pytest.raises(ValueError, match="expects PVAddresses, got Weather"):
        cm.PV_ADDRESSES.step_1 = kinds.Weather(location="x", temp=0)
    with pytest.raises(AttributeError, match="may not start with an underscore"):
        cm.PV_ADDRESSES._private = kinds.PVAddresses(pvs=[])


def test_missing_key_and_type_raise_attribute_errors_that_list_what_exists(kinds):
    cm = _manager({"PV_ADDRESSES": {"step_1": {"pvs": []}}})
    with pytest.raises(AttributeError, match=r"has no key 'step_9'; available keys: \['step_1'\]"):
        _ = cm.PV_ADDRESSES.step_9
    with pytest.raises(KeyError):
        cm.PV_ADDRESSES["step_9"]
    with pytest.raises(AttributeError, match=r"No context of type 'NOPE'; stored types"):
        _ = cm.NOPE
    assert not hasattr(cm, "_private_thing")


# ----- descriptions and summaries ----------------------------------------------------------


def test_access_description_lists_every_context_with_its_details(kinds):
    cm = _manager(
        {
            "PV_ADDRESSES": {"step_1": {"pvs": ["SR:C01"]}},
            "CURRENT_WEATHER": {"sf": {"location": "SF", "temp": 15.0}},
        }
    )
    text = cm.get_context_access_description()
    assert text.startswith("The agent context is available via the 'context' object")
    assert "- context.PV_ADDRESSES:" in text
    assert "context.PV_ADDRESSES.step_1.pvs" in text
    assert "context.CURRENT_WEATHER.sf.temp" in text


def test_access_description_honours_the_filter(kinds):
    cm = _manager(
        {
            "PV_ADDRESSES": {"step_1": {"pvs": []}},
            "CURRENT_WEATHER": {"sf": {"location": "SF", "temp": 15.0}},
        }
    )
    text = cm.get_context_access_description([{"CURRENT_WEATHER": "sf"}])
    assert "CURRENT_WEATHER" in text and "PV_ADDRESSES" not in text
    assert cm.get_context_access_description([{"PV_ADDRESSES": "nope"}]) == (
        "No relevant context data available for the specified context filter."
    )
    assert _manager().get_context_access_description() == "No context data available."


def test_access_description_survives_a_failing_context(kinds):
    cm = _manager({"BROKEN_SUMMARY": {"b": {"x": 1}}})
    assert "details failed: details exploded" in cm.get_context_access_description()


def test_spec_example_summaries_of_all_contexts(kinds):
    cm = _manager(
        {
            "PV_ADDRESSES": {"p": {"pvs": ["A", "B", "C", "D", "E"]}},
            "CURRENT_WEATHER": {
                "sf": {"location": "San Francisco", "temp": 15.0},
                "ny": {"location": "New York", "temp": 20.0},
            },
        }
    )
    assert cm.get_summaries() == [
        {"type": "PV Addresses", "total_pvs": 5, "pv_list": ["A", "B", "C", "D", "E"]},
        {"type": "Current Weather", "location": "San Francisco", "temp": 15.0},
        {"type": "Current Weather", "location": "New York", "temp": 20.0},
    ]


def test_summaries_for_a_step_cover_only_its_existing_inputs(kinds):
    cm = _manager(
        {
            "PV_ADDRESSES": {"p": {"pvs": ["A"]}},
            "CURRENT_WEATHER": {"sf": {"location": "SF", "temp": 15.0}},
        }
    )
    step = {"inputs": [{"CURRENT_WEATHER": "sf"}, {"CURRENT_WEATHER": "gone"}]}
    assert cm.get_summaries(step) == [{"type": "Current Weather", "location": "SF", "temp": 15.0}]
    assert cm.get_summaries({"inputs": []}) == []


def test_a_failing_summary_becomes_an_error_entry(kinds):
    cm = _manager({"BROKEN_SUMMARY": {"b": {"x": 1}}, "FOREIGN": {"f": {"v": 1}}})
    assert cm.get_summaries() == [
        {"type": "BROKEN_SUMMARY", "key": "b", "error": "summary failed: summary exploded"},
        {"type": "FOREIGN", "v": 1},
    ]
