"""Value kinds every connector shares: enum states, arrays, and checks before a write."""

from __future__ import annotations

import json

import numpy as np
import pytest

from osprey_desktop.connectors.base import (
    ChannelMetadata,
    ChannelValue,
    ChannelWriteResult,
    format_value,
    jsonable,
    to_float,
)
from osprey_desktop.connectors.values import EnumState, EnumValueError, resolve_enum
from osprey_desktop.connectors.write_support import WriteRefused, prepare_write

STATES = ("Closed", "Open", "Fault")


def test_an_enum_state_is_its_name_and_converts_to_its_index() -> None:
    state = EnumState("Open", 1)
    assert state == "Open" and str(state) == "Open" and state.enum_index == 1
    assert to_float(state) == 1.0 and int(state) == 1
    assert json.dumps(jsonable({"v": state})) == '{"v": "Open"}'
    assert type(jsonable(state)) is str
    assert format_value(state, 3, "") == "Open"


@pytest.mark.parametrize(
    ("asked", "index"), [("Open", 1), ("open", 1), (" FAULT ", 2), (0, 0), ("2", 2), (1.0, 1)]
)
def test_a_state_is_named_or_numbered(asked, index) -> None:
    state = resolve_enum("V", asked, STATES)
    assert state.enum_index == index and state == STATES[index]


@pytest.mark.parametrize("asked", ["Half", 3, -1, 0.5, True, None, [1]])
def test_anything_else_is_refused_naming_the_states(asked) -> None:
    with pytest.raises(EnumValueError, match="0 'Closed', 1 'Open', 2 'Fault'"):
        resolve_enum("V", asked, STATES)


def test_metadata_resolves_states_for_the_planner() -> None:
    md = ChannelMetadata(name="V", enum_strings=STATES, native_type="enum")
    assert md.enum_value("fault") == EnumState("Fault", 2)
    with pytest.raises(EnumValueError, match="not an enum"):
        ChannelMetadata(name="X").enum_value("Open")


def test_an_array_reading_is_summarised() -> None:
    value = ChannelValue("WF", np.array([3.0, 1.0, 2.0, np.nan]), 0.0, ChannelMetadata("WF"))
    assert value.kind == "waveform"
    summary = value.summary()
    assert (summary["count"], summary["min"], summary["max"], summary["mean"]) == (4, 1, 3, 2)
    assert summary["first"][:3] == [3.0, 1.0, 2.0]
    as_dict = value.to_dict()
    assert as_dict["summary"]["min"] == 1.0 and as_dict["value"][3] is None
    text = format_value(list(range(10)), 1, "mm")
    assert text == "10 values, min 0.0, max 9.0, mean 4.5 mm; first 0, 1, 2, 3, 4, …"
    assert format_value([], 1, "mm") == "empty array mm"


def test_scalar_readings_keep_their_dict_shape() -> None:
    value = ChannelValue("X", 1.5, 0.0, ChannelMetadata("X", units="A"))
    assert value.to_dict()["kind"] == "number" and "summary" not in value.to_dict()
    assert value.summary() is None and value.enum_index is None


def test_write_results_say_what_went_on_the_wire_and_whether_it_was_clamped() -> None:
    result = ChannelWriteResult("V", "verified", EnumState("Open", 1), value_sent=1)
    assert result.to_dict()["value_written"] == "Open" and result.to_dict()["value_sent"] == 1
    assert result.to_dict()["clamped"] is False


@pytest.mark.parametrize(
    ("kind", "value", "fragment"),
    [
        ("number", "two amps", "is not a finite number"),
        ("number", float("nan"), "is not a finite number"),
        ("number", 12.0, "outside the control range"),
        ("integer", 2.5, "holds whole numbers"),
        ("string", ["a"], "holds text"),
        ("waveform", ["x", 1], "array of numbers"),
        ("enum", "Half", "no state 'Half'"),
    ],
)
def test_a_value_the_channel_cannot_hold_is_refused_before_the_put(kind, value, fragment):
    with pytest.raises(WriteRefused, match=fragment) as caught:
        prepare_write("C", value, kind, STATES, (-10.0, 10.0), "A")
    assert str(caught.value).endswith("nothing was sent.")


def test_prepared_writes_carry_what_is_sent_and_compared() -> None:
    enum = prepare_write("V", "open", "enum", STATES)
    assert (enum.value, enum.payload, enum.number, enum.sent) == ("Open", 1, 1.0, 1)
    integer = prepare_write("N", 3.0, "integer")
    assert integer.payload == 3 and isinstance(integer.payload, int)
    text = prepare_write("S", "manual", "string")
    assert (text.payload, text.number) == ("manual", None)
