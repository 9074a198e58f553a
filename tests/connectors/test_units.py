"""Units: the operator's words, pint's conversions, and what never converts."""

from __future__ import annotations

import pytest

from osprey_desktop.language.units import (
    UnitConversionError,
    canonical_unit,
    convert,
    lookup_unit,
    same_unit,
)


@pytest.mark.parametrize(
    ("amount", "unit", "channel_unit", "expected"),
    [
        (300.0, "K", "degC", 26.85),
        (20.0, "degC", "K", 293.15),
        (5.0, "kW", "W", 5000.0),
        (20.0, "W", "W", 20.0),
        (2.0, "mbar", "Pa", 200.0),
        (250.0, "mA", "uA", 250_000.0),
        (10.0, "mT", "T", 0.01),
        (3.0, "counts", "counts", 3.0),
        (0.5, "a.u.", "a.u.", 0.5),
        (1.0, "MHz", "kHz", 1000.0),
    ],
)
def test_compatible_units_convert_through_pint(amount, unit, channel_unit, expected) -> None:
    assert convert(amount, unit, channel_unit) == pytest.approx(expected)


def test_a_temperature_change_converts_without_the_offset() -> None:
    assert convert(2.0, "degC", "K", delta=True) == pytest.approx(2.0)
    assert convert(9.0, "degF", "degC", delta=True) == pytest.approx(5.0)
    assert convert(9.0, "degF", "degC") == pytest.approx(-12.7778, abs=1e-4)


@pytest.mark.parametrize(
    ("unit", "channel_unit", "why"),
    [
        ("mm", "A", "mm is a length, A a current"),
        ("W", "degC", "W is a power, degC a temperature"),
        ("%", "mrad", "% is a fraction, mrad an angle"),
        ("furlongs", "mm", "'furlongs' is not a unit I know"),
        ("W", "counts", "W is a power, counts a count"),
        ("mm", "a.u.", "'a.u.' is not a unit I know, so only the same unit is accepted"),
    ],
)
def test_incompatible_or_unknown_units_say_why(unit, channel_unit, why) -> None:
    with pytest.raises(UnitConversionError) as caught:
        convert(1.0, unit, channel_unit)
    message = str(caught.value)
    assert f"'{unit}' cannot be converted to the channel's unit '{channel_unit}'" in message
    assert why in message and message.endswith(f"give the value in {channel_unit}")


def test_typed_words_come_from_the_vocabulary_not_all_of_pint() -> None:
    assert lookup_unit("milliamps") == ("A", 1e-3)
    assert lookup_unit("MV") == ("V", 1e6) and lookup_unit("mV") == ("V", 1e-3)
    assert lookup_unit("kw") == ("W", 1e3) and lookup_unit("celsius") == ("K", 1.0)
    for english in ("in", "at", "are", "as", "furlongs", "sector"):
        assert lookup_unit(english) is None, english


def test_channel_units_are_read_by_pint_but_labels_are_not() -> None:
    assert canonical_unit("T/m") == "tesla / meter"
    assert canonical_unit("1/m") == "1 / meter"
    assert canonical_unit("Torr") == "torr"
    assert canonical_unit("a.u.") is None and canonical_unit("arb. units") is None
    assert same_unit("mA", "milliampere") and not same_unit("mA", "A")
