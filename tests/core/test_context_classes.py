"""CapabilityContext: constants, abstract access details, self-registration by CONTEXT_TYPE."""

import logging
from datetime import datetime
from enum import Enum

import pydantic
import pytest

from osprey_desktop.context import (
    AttributeView,
    CapabilityContext,
    get_context_class,
    get_context_classes,
    get_context_types,
)
from osprey_desktop.context import base as context_base


@pytest.fixture(autouse=True)
def isolated_registry():
    saved = dict(context_base._CONTEXT_CLASSES)
    yield
    context_base._CONTEXT_CLASSES.clear()
    context_base._CONTEXT_CLASSES.update(saved)


class Mode(Enum):
    READ = "read"
    WRITE = "write"


def _define(context_type="TEST_READING", name="Reading", base=CapabilityContext):
    def get_access_details(self, key):
        return {"access_pattern": f"context.{self.CONTEXT_TYPE}.{key}"}

    return type(
        name,
        (base,),
        {
            "CONTEXT_TYPE": context_type,
            "CONTEXT_CATEGORY": "MEASUREMENT",
            "__annotations__": {"value": float, "taken_at": datetime | None, "mode": Mode},
            "taken_at": None,
            "mode": Mode.READ,
            "get_access_details": get_access_details,
        },
    )


def test_defining_a_subclass_makes_its_type_known():
    reading = _define()
    assert get_context_class("TEST_READING") is reading
    assert "TEST_READING" in get_context_types()
    assert get_context_classes()["TEST_READING"] is reading


def test_constants_and_context_type_property():
    reading = _define()(value=1.5)
    assert reading.CONTEXT_TYPE == "TEST_READING"
    assert reading.CONTEXT_CATEGORY == "MEASUREMENT"
    assert reading.context_type == "TEST_READING"
    assert "CONTEXT_TYPE" not in type(reading).model_fields


def test_stored_form_is_plain_json():
    reading = _define()(value=2, taken_at=datetime(2024, 5, 1, 8, 0), mode=Mode.WRITE)
    assert reading.model_dump(mode="json") == {
        "value": 2.0,
        "taken_at": "2024-05-01T08:00:00",
        "mode": "write",
    }


def test_fields_are_validated_on_construction_and_assignment():
    reading_class = _define()
    with pytest.raises(pydantic.ValidationError):
        reading_class(value="not a number")
    reading = reading_class(value=1.0)
    with pytest.raises(pydantic.ValidationError):
        reading.value = "still not a number"


def test_access_details_are_abstract():
    class NoDetails(CapabilityContext):
        CONTEXT_TYPE = "TEST_NO_DETAILS"
        x: int = 0

    with pytest.raises(TypeError, match="abstract"):
        NoDetails()


def test_default_summary_is_the_type_and_the_fields():
    assert _define()(value=3.0).get_summary() == {
        "type": "TEST_READING",
        "value": 3.0,
        "taken_at": None,
        "mode": "read",
    }


def test_a_base_without_type_is_not_registered_but_its_subclass_is():
    class Intermediate(CapabilityContext):
        unit: str = "mA"

    before = get_context_types()
    assert set(get_context_types()) == set(before)
    child = _define("TEST_CHILD", "Child", base=Intermediate)
    assert get_context_class("TEST_CHILD") is child
    assert child(value=1.0).unit == "mA"


def test_a_subclass_inheriting_the_type_does_not_replace_its_parent():
    parent = _define()

    class Specialised(parent):
        extra: int = 0

    assert get_context_class("TEST_READING") is parent


def test_redeclaring_a_type_warns_and_the_newest_class_wins(caplog):
    first = _define(name="First")
    with caplog.at_level(logging.WARNING):
        second = _define(name="Second")
    assert get_context_class("TEST_READING") is second is not first
    assert "TEST_READING" in caplog.text and "the latter wins" in caplog.text


def test_non_string_type_is_refused_at_class_definition():
    with pytest.raises(TypeError, match="CONTEXT_TYPE must be a string, got int"):
        _define(context_type=42)


@pytest.mark.parametrize("bad", ["A.B", " PADDED"])
def test_type_names_that_break_dot_notation_are_refused(bad):
    with pytest.raises(ValueError, match="may not contain dots or surrounding spaces"):
        _define(context_type=bad)


def test_attribute_view_reads_nested_data_without_changing_it():
    data = {"a": {"b": [{"c": 1}, 2]}, "n": None}
    view = AttributeView(data)
    assert view.a.b[0].c == 1
    assert view.a.b[1] == 2
    assert view.get("n") is None and view.get("zzz", 5) == 5
    assert sorted(view.keys()) == ["a", "n"] and len(view) == 2
    assert "a" in view and list(view) == ["a", "n"]
    assert view.to_dict() == data and view.to_dict() is not data
    assert view == AttributeView({"a": {"b": [{"c": 1}, 2]}, "n": None})
    assert [k for k, _ in view.items()] == ["a", "n"] and len(view.values()) == 2
    assert "a" in dir(view)


def test_stored_fields_win_over_view_methods_of_the_same_name():
    view = AttributeView({"values": [1.0, 2.0], "keys": "k"})
    assert view.values == [1.0, 2.0]
    assert view.keys == "k"
    assert view["values"] == [1.0, 2.0]
