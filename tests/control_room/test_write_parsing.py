"""Reading the values of a write request, and converting them to a channel's units."""

from __future__ import annotations

import pytest

from osprey_desktop.language.write_parsing import (
    AmbiguousWriteValue,
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


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # an assignment sign, with or without spaces
        ("VCM03 -> 0.25", [("VCM03", "absolute", 0.25, None)]),
        ("HCM22=-0.1", [("HCM22", "absolute", -0.1, None)]),
        ("HCM22 = -0.1 A", [("HCM22", "absolute", -0.1, "A")]),
        ("ID05 gap: 21.5 mm", [("ID05 gap", "absolute", 21.5, "mm")]),
        ("HCM01: 1.5 A", [("HCM01", "absolute", 1.5, "A")]),
        ("RF frequency := 499.66 MHz", [("RF frequency", "absolute", 499.66, "MHz")]),
        # "to" after a name, without a verb
        ("QF07 to 119 A", [("QF07", "absolute", 119.0, "A")]),
        ("the ID04 gap to 24 mm please", [("ID04 gap", "absolute", 24.0, "mm")]),
        ("HCM01 and HCM02 to 0.5 A", [("HCM01 and HCM02", "absolute", 0.5, "A")]),
        # a value with a unit right after a device named with its number
        ("HCM01 1.5 A", [("HCM01", "absolute", 1.5, "A")]),
        ("VCM02 -150 mA", [("VCM02", "absolute", -150.0, "mA")]),
        ("QF05 setpoint 121 A", [("QF05 setpoint", "absolute", 121.0, "A")]),
        ("set ID05 gap 21.5mm", [("ID05 gap", "absolute", 21.5, "mm")]),
        ("could you put QF07 119 A", [("QF07", "absolute", 119.0, "A")]),
        (
            "HCM01 1.5 A and HCM02 -0.3 A",
            [("HCM01", "absolute", 1.5, "A"), ("HCM02", "absolute", -0.3, "A")],
        ),
        # a bare number after a device is a value once a change verb asks for one
        ("set HCM01 1.5", [("HCM01", "absolute", 1.5, None)]),
        # a direction word without "to" or "by" is a change, as with "by"
        ("raise HCM03 200 mA", [("HCM03", "delta", 200.0, "mA")]),
        ("lower the ID02 gap 1 mm", [("ID02 gap", "delta", -1.0, "mm")]),
        ("HCM02 up 0.1 A", [("HCM02", "delta", 0.1, "A")]),
    ],
)
def test_a_value_needs_no_verb_or_to_when_its_cue_is_clear(text, expected):
    assert specs(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "HCM01 1.5",  # no unit, no sign, no verb: could be anything
        "HCM05 at 1.2 A",  # states a value, asks for none
        "HCM01 was 1.5 A",
        "HCM01 jumped 0.5 A",
        "read HCM01 1.5 A",  # led by another verb
        "horizontal orbit in sectors 2 to 4",  # a range
        "trend of BPM13 X from 2026-11-20 10:00 to 12:00",
        "HCM01 2 hours",  # a time unit after a name is a time range
        "beam lifetime 50%",
        "HCM01 to 3 decimals",  # not a unit: without a verb, no value
        "read SR01C:BPM:1:X",  # a number inside a channel name
        "first three quadrupole focusing magnet currents",
        "set the correctors in sector 3",
        "nudge HCM07 a little",
        "set the quads in sector 3 to their usual values",
    ],
)
def test_numbers_that_give_no_value_are_not_read_as_one(text):
    with pytest.raises(MissingWriteValue):
        parse_write_request(text)


@pytest.mark.parametrize("text", ["open the ID04 gap 2 mm", "close ID07 gap 3 mm"])
def test_open_or_close_with_a_bare_amount_asks_whether_to_or_by(text):
    with pytest.raises(AmbiguousWriteValue, match="could mean to .* or by"):
        parse_write_request(text)


@pytest.mark.parametrize(
    ("text", "amount", "unit"),
    [
        ("set HCM06 to two point five amps", 2.5, "amps"),
        ("set VCM08 to minus three hundred milliamps", -300.0, "milliamps"),
        ("open the ID02 gap to twenty millimetres", 20.0, "millimetres"),
        ("put HCM12 at one and a half amps", 1.5, "amps"),
        ("HCM15 to half an amp", 0.5, "amp"),
        ("set HCM18 to zero point two five", 0.25, None),
        ("VCM10 to negative 0.1 A", -0.1, "A"),
        ("set QF07 to one hundred and nineteen amperes", 119.0, "amperes"),
        ("set the RF voltage to three megavolts", 3.0, "megavolts"),
        ("HCM04 to three quarters of an ampere", 0.75, "ampere"),
        ("set the ID09 gap to twenty-two point five millimeters", 22.5, "millimeters"),
        ("set HCM05 to zero", 0.0, None),
    ],
)
def test_numbers_and_units_in_words_are_read_like_digits(text, amount, unit):
    ((_, mode, read, typed),) = specs(text)
    assert (mode, read, typed) == ("absolute", pytest.approx(amount), unit)


@pytest.mark.parametrize(
    ("text", "mode", "amount", "unit"),
    [
        ("lower VCM06 by a quarter of an amp", "delta", -0.25, "amp"),
        ("increase HCM01 by two hundred milliamps", "delta", 200.0, "milliamps"),
        ("increase the RF voltage by five percent", "percent", 5.0, "percent"),
    ],
)
def test_changes_in_words_keep_their_direction(text, mode, amount, unit):
    ((_, read_mode, read, typed),) = specs(text)
    assert (read_mode, read, typed) == (mode, pytest.approx(amount), unit)


@pytest.mark.parametrize(
    ("text", "channel_unit", "expected"),
    [
        ("set VCM08 to minus three hundred milliamps", "A", -0.3),
        ("open the ID02 gap to twenty millimetres", "mm", 20.0),
        ("set the RF frequency to four hundred and ninety nine megahertz", "MHz", 499.0),
        ("set the RF voltage to fifty kilovolts", "MV", 0.05),
        ("HCM15 to half an amp", "A", 0.5),
    ],
)
def test_spelled_units_convert_like_their_symbols(text, channel_unit, expected):
    (spec,) = parse_write_request(text)
    assert convert_units(spec.amount, spec.unit, channel_unit) == pytest.approx(expected)


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


@pytest.mark.parametrize(
    ("text", "amount", "unit"),
    [
        ("set HCM01 to 1.5 A, no wait, 1.2 A", 1.2, "A"),
        ("set the ID04 gap to 20 mm, actually 21 mm", 21.0, "mm"),
        ("set HCM01 to 1.5, I mean 1.7", 1.7, None),
    ],
)
def test_a_value_corrected_while_typing_is_the_correction(text, amount, unit):
    (spec,) = parse_write_request(text)
    assert (spec.amount, spec.unit) == (amount, unit)


@pytest.mark.parametrize(
    ("text", "said"),
    [("make the gap on ID07 a bit smaller", "smaller"), ("lower HCM3 a little", "lower")],
)
def test_a_change_with_a_vague_amount_is_asked_in_its_own_word(text, said):
    with pytest.raises(MissingWriteValue, match=f"“{said}” says no amount"):
        parse_write_request(text)
