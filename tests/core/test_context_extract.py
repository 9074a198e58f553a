"""ContextManager.extract_from_step: the spec's examples and every error it names."""

import pytest

from osprey_desktop.context import CapabilityContext, ContextManager, RawContext
from osprey_desktop.context import base as context_base


@pytest.fixture
def cm(no_registry):
    """A context holding the spec example types; classes registered for one test only."""
    saved = dict(context_base._CONTEXT_CLASSES)

    def simple(context_type, name):
        def get_access_details(self, key):
            return {"access_pattern": f"context.{context_type}.{key}"}

        namespace = {
            "CONTEXT_TYPE": context_type,
            "__annotations__": {"name": str},
            "get_access_details": get_access_details,
        }
        return type(name, (CapabilityContext,), namespace)

    for context_type, name in [
        ("PV_ADDRESSES", "PVAddresses"),
        ("TIME_RANGE", "TimeRange"),
        ("CHANNEL_ADDRESSES", "ChannelAddresses"),
        ("ARCHIVER_DATA", "ArchiverData"),
        ("PV_VALUES", "PVValues"),
    ]:
        simple(context_type, name)
    data = {
        "PV_ADDRESSES": {"pvs_a": {"name": "a"}, "pvs_b": {"name": "b"}},
        "TIME_RANGE": {"last_hour": {"name": "1h"}},
        "CHANNEL_ADDRESSES": {"ch": {"name": "SR:CURRENT"}},
        "ARCHIVER_DATA": {"d1": {"name": "d1"}, "d2": {"name": "d2"}},
        "PV_VALUES": {"now": {"name": "500 mA"}},
        "BAD_DATA": {"k": {"unexpected": 1}},
    }
    yield ContextManager({"capability_context_data": data})
    context_base._CONTEXT_CLASSES.clear()
    context_base._CONTEXT_CLASSES.update(saved)


def step(*inputs):
    return {"context_key": "analysis", "capability": "archiver_retrieval", "inputs": list(inputs)}


STATE = {}


def test_spec_example_simple_extraction_without_constraints(cm):
    contexts = cm.extract_from_step(step({"PV_ADDRESSES": "pvs_a"}), STATE)
    assert contexts["PV_ADDRESSES"].name == "a"


def test_several_instances_of_one_type_come_back_as_a_list_in_input_order(cm):
    contexts = cm.extract_from_step(
        step({"PV_ADDRESSES": "pvs_b"}, {"PV_ADDRESSES": "pvs_a"}, {"TIME_RANGE": "last_hour"}),
        STATE,
    )
    assert [c.name for c in contexts["PV_ADDRESSES"]] == ["b", "a"]
    assert contexts["TIME_RANGE"].name == "1h"


def test_the_same_input_listed_twice_counts_once(cm):
    contexts = cm.extract_from_step(step({"PV_ADDRESSES": "pvs_a"}, {"PV_ADDRESSES": "pvs_a"}), {})
    assert contexts["PV_ADDRESSES"].name == "a"


def test_one_input_dict_may_name_several_types(cm):
    contexts = cm.extract_from_step(step({"PV_ADDRESSES": "pvs_a", "TIME_RANGE": "last_hour"}), {})
    assert set(contexts) == {"PV_ADDRESSES", "TIME_RANGE"}


def test_spec_example_hard_single_constraints_give_single_objects(cm):
    contexts = cm.extract_from_step(
        step({"PV_ADDRESSES": "pvs_a"}, {"TIME_RANGE": "last_hour"}),
        STATE,
        constraints=[("PV_ADDRESSES", "single"), ("TIME_RANGE", "single")],
        constraint_mode="hard",
    )
    assert contexts["PV_ADDRESSES"].name == "a"
    assert contexts["TIME_RANGE"].name == "1h"


def test_spec_example_mixed_constraints_accept_any_cardinality_for_plain_names(cm):
    contexts = cm.extract_from_step(
        step({"CHANNEL_ADDRESSES": "ch"}, {"ARCHIVER_DATA": "d1"}, {"ARCHIVER_DATA": "d2"}),
        STATE,
        constraints=[("CHANNEL_ADDRESSES", "single"), "ARCHIVER_DATA"],
    )
    assert contexts["CHANNEL_ADDRESSES"].name == "SR:CURRENT"
    assert [c.name for c in contexts["ARCHIVER_DATA"]] == ["d1", "d2"]


def test_spec_example_soft_constraints_need_only_one_type(cm):
    contexts = cm.extract_from_step(
        step({"ARCHIVER_DATA": "d1"}),
        STATE,
        constraints=["PV_VALUES", "ARCHIVER_DATA"],
        constraint_mode="soft",
    )
    assert set(contexts) == {"ARCHIVER_DATA"}


def test_multiple_cardinality_accepts_a_list(cm):
    contexts = cm.extract_from_step(
        step({"ARCHIVER_DATA": "d1"}, {"ARCHIVER_DATA": "d2"}),
        STATE,
        constraints=[("ARCHIVER_DATA", "multiple")],
    )
    assert len(contexts["ARCHIVER_DATA"]) == 2


def test_no_inputs_and_no_constraints_give_nothing(cm):
    assert cm.extract_from_step({"capability": "respond"}, STATE) == {}
    assert cm.extract_from_step(step(), STATE) == {}


def test_unknown_type_inputs_come_back_raw():
    manager = ContextManager({"capability_context_data": {"ELSEWHERE": {"k": {"v": 3}}}})
    contexts = manager.extract_from_step(step({"ELSEWHERE": "k"}), STATE)
    assert isinstance(contexts["ELSEWHERE"], RawContext)
    assert contexts["ELSEWHERE"].v == 3


# ----- errors --------------------------------------------------------------------------


def test_missing_input_context_names_type_key_and_what_is_stored(cm):
    with pytest.raises(
        ValueError, match=r"Context PV_ADDRESSES\.pvs_z not found; stored keys of PV_ADDRESSES: "
    ):
        cm.extract_from_step(step({"PV_ADDRESSES": "pvs_z"}), STATE)


def test_hard_mode_names_the_missing_type(cm):
    with pytest.raises(ValueError, match=r"Missing required context types: \['TIME_RANGE'\]$"):
        cm.extract_from_step(
            step({"PV_ADDRESSES": "pvs_a"}),
            STATE,
            constraints=["PV_ADDRESSES", ("TIME_RANGE", "single")],
        )


def test_hard_constraint_on_a_step_without_inputs_names_the_missing_type(cm):
    with pytest.raises(
        ValueError,
        match=r"Missing required context types: \['PV_ADDRESSES'\] \(the step lists no inputs\)",
    ):
        cm.extract_from_step(step(), STATE, constraints=["PV_ADDRESSES"])


def test_soft_mode_with_none_found_lists_the_types(cm):
    with pytest.raises(
        ValueError,
        match=r"None of the required context types found: \['PV_VALUES', 'ARCHIVER_DATA'\]",
    ):
        cm.extract_from_step(
            step({"TIME_RANGE": "last_hour"}),
            STATE,
            constraints=["PV_VALUES", "ARCHIVER_DATA"],
            constraint_mode="soft",
        )


def test_soft_constraint_on_a_step_without_inputs_fails_too(cm):
    with pytest.raises(ValueError, match=r"None of the required.*\(the step lists no inputs\)"):
        cm.extract_from_step(step(), STATE, constraints=["PV_VALUES"], constraint_mode="soft")


def test_single_cardinality_breach_says_how_many_were_found(cm):
    with pytest.raises(
        ValueError,
        match="Context type 'PV_ADDRESSES' expected single instance but got 2 instances",
    ):
        cm.extract_from_step(
            step({"PV_ADDRESSES": "pvs_a"}, {"PV_ADDRESSES": "pvs_b"}),
            STATE,
            constraints=[("PV_ADDRESSES", "single")],
        )


def test_multiple_cardinality_breach_is_reported(cm):
    with pytest.raises(
        ValueError,
        match="Context type 'TIME_RANGE' expected multiple instances but got single instance",
    ):
        cm.extract_from_step(
            step({"TIME_RANGE": "last_hour"}), STATE, constraints=[("TIME_RANGE", "multiple")]
        )


def test_soft_mode_still_checks_cardinality_of_what_was_found(cm):
    with pytest.raises(ValueError, match="'ARCHIVER_DATA' expected single instance but got 2"):
        cm.extract_from_step(
            step({"ARCHIVER_DATA": "d1"}, {"ARCHIVER_DATA": "d2"}),
            STATE,
            constraints=["PV_VALUES", ("ARCHIVER_DATA", "single")],
            constraint_mode="soft",
        )


def test_invalid_cardinality_is_refused(cm):
    with pytest.raises(
        ValueError, match="Invalid cardinality 'several' for PV_ADDRESSES. Must be 'single' or"
    ):
        cm.extract_from_step(
            step({"PV_ADDRESSES": "pvs_a"}), STATE, constraints=[("PV_ADDRESSES", "several")]
        )


def test_invalid_constraint_mode_is_refused_before_anything_else(cm):
    with pytest.raises(ValueError, match="Invalid constraint_mode: strict. Use 'hard' or 'soft'"):
        cm.extract_from_step(step(), STATE, constraints=["PV_ADDRESSES"], constraint_mode="strict")


@pytest.mark.parametrize("constraint", [42, ("PV_ADDRESSES",), ("", "single")])
def test_malformed_constraints_are_refused(cm, constraint):
    with pytest.raises(ValueError, match="Invalid constraint"):
        cm.extract_from_step(step({"PV_ADDRESSES": "pvs_a"}), STATE, constraints=[constraint])


def test_inputs_that_are_not_a_list_are_refused(cm):
    with pytest.raises(ValueError, match="'analysis' inputs must be a list"):
        cm.extract_from_step({"context_key": "analysis", "inputs": {"PV_ADDRESSES": "a"}}, STATE)


def test_an_input_that_is_not_a_dict_is_refused(cm):
    with pytest.raises(ValueError, match=r"input 'PV_ADDRESSES' must be a \{context_type"):
        cm.extract_from_step(step("PV_ADDRESSES"), STATE)


def test_a_step_that_is_not_a_dict_is_refused(cm):
    with pytest.raises(ValueError, match="A step must be a dict"):
        cm.extract_from_step(["PV_ADDRESSES"], STATE)


def test_stored_data_that_does_not_validate_is_an_error_for_a_step(cm):
    saved = dict(context_base._CONTEXT_CLASSES)

    class BadData(CapabilityContext):
        CONTEXT_TYPE = "BAD_DATA"
        required_field: float

        def get_access_details(self, key):
            return {}

    try:
        with pytest.raises(
            ValueError, match=r"Context BAD_DATA\.k does not match BadData: required_field"
        ):
            cm.extract_from_step(step({"BAD_DATA": "k"}), STATE)
    finally:
        context_base._CONTEXT_CLASSES.clear()
        context_base._CONTEXT_CLASSES.update(saved)
