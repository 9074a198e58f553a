"""Reading the values of a write request, and converting them to a channel's units."""

from __future__ import annotations

import pytest

from osprey_desktop.capabilities.control_room.write_parsing import (
    MissingWriteValue,
    UnitMismatch,
    convert_units,
    parse_write_request,
)

VCM04 = "SR02C:VCM04:Current:SP"


def specs(text: str) -> list[tuple[str, str, float, str | None]]:
    return [(s.target, s.mode, s.amount, s.unit) for s in parse_write_request(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("set HCM01 to 1.5 A", [("HCM01", "absolute", 1.5, "A")]),
        ("put VCM03 at 0.3 A", [("VCM03", "absolute", 0.3, "A")]),
        ("HCM01 -> 1.2 A", [("HCM01", "absolute", 1.2, "A")]),
        ("set HCM01 to minus 0.4 A", [("HCM01", "absolute", -0.4, "A")]),
        ("set HCM05 to zero", [("HCM05", "absolute", 0.0, None)]),
        ("zero HCM05", [("HCM05", "absolute", 0.0, None)]),
        ("increase HCM01 by 0.2 A", [("HCM01", "delta", 0.2, "A")]),
        ("decrease the ID04 gap by 1 mm", [("ID04 gap", "delta", -1.0, "mm")]),
        ("bump HCM07 up by 100 mA", [("HCM07", "delta", 100.0, "mA")]),
        ("lower HCM3 by 0.2", [("HCM3", "delta", -0.2, None)]),
        ("increase the RF voltage by 5%", [("RF voltage", "percent", 5.0, "%")]),
        ("write 0.1 to SR02C:VCM04:Current:SP", [(VCM04, "absolute", 0.1, None)]),
        ("add 0.1 A to HCM01", [("HCM01", "delta", 0.1, "A")]),
        ("set the ID04 gap to 20mm.", [("ID04 gap", "absolute", 20.0, "mm")]),
        (
            "set HCM01 to 1.5 A and HCM02 to -0.3 A",
            [("HCM01", "absolute", 1.5, "A"), ("HCM02", "absolute", -0.3, "A")],
        ),
        ("read HCM01 and then set it to 1.0 A", [("", "absolute", 1.0, "A")]),
        ("set HCM01 to 1.5 A at 10:00", [("HCM01", "absolute", 1.5, "A")]),
        (
            "set HCM01 to 2 and HCM02 to 3",
            [("HCM01", "absolute", 2.0, None), ("HCM02", "absolute", 3.0, None)],
        ),
        ("set HCM01 to 5 furlongs", [("HCM01", "absolute", 5.0, "furlongs")]),
    ],
)
def test_values_are_read_as_the_operator_meant_them(text, expected):
    assert specs(text) == expected


@pytest.mark.parametrize("text", ["set HCM01", "increase the ID04 gap", "change the RF frequency"])
def test_a_change_without_a_value_is_reported_as_missing(text):
    with pytest.raises(MissingWriteValue, match="needs a value"):
        parse_write_request(text)


@pytest.mark.parametrize(
    ("amount", "unit", "channel_unit", "expected"),
    [
        (1500.0, "mA", "A", 1.5),
        (2.0, "amps", "A", 2.0),
        (0.05, "MV", "MV", 0.05),
        (50.0, "kV", "MV", 0.05),
        (499654.0, "kHz", "MHz", 499.654),
        (250.0, "um", "mm", 0.25),
        (1.5, None, "A", 1.5),
    ],
)
def test_units_convert_to_the_channels_own(amount, unit, channel_unit, expected):
    assert convert_units(amount, unit, channel_unit) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("unit", "channel_unit", "fragment"),
    [("mm", "A", "give the value in A"), ("A", "", "has no units"), ("furlongs", "mm", "mm")],
)
def test_a_unit_that_does_not_fit_the_channel_is_an_error(unit, channel_unit, fragment):
    with pytest.raises(UnitMismatch, match=fragment):
        convert_units(1.0, unit, channel_unit)
