"""Units: the words an operator types for them, and conversion between them through pint.

Two vocabularies, on purpose. What an operator *types* ("250 mA", "twenty millimetres", "5
kW", "300 K") is read from a curated table of the units a control room uses, with their
spellings; a word outside it ("5 furlongs") is not taken for a unit, so a slip never turns
into a plausible number. What a *channel* reports (an IOC's EGU, a channel list's ``units``)
is read by pint, which knows nearly every unit a facility uses ("degC", "T/m", "mbar").

Conversion goes through pint and only between compatible units: a length never becomes a
current, and pint's dimensionless units are kept apart (an angle is not a percentage, and a
count is not either). Temperatures convert as values (20 degC is 293.15 K) or as changes (a
rise of 2 degC is a rise of 2 K), as asked. A unit pint does not know ("counts", "a.u.")
compares as plain text: the same text is accepted unchanged, anything else is an error.

pint is imported on the first conversion that needs it (~0.4 s), never by parsing a request.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

__all__ = [
    "UnitConversionError",
    "canonical_unit",
    "convert",
    "dimension_of",
    "converts",
    "lookup_unit",
    "quantity_word",
    "same_unit",
    "spoken_names",
]


class UnitConversionError(ValueError):
    """A value cannot be expressed in the unit asked for; the message says why and what to do."""


# ----- the typed vocabulary ------------------------------------------------------------------
#: spelling -> (pint name, base symbol, scale to the base). The base symbol groups units that
#: convert into each other ("s" for times and "%" for percentages matter to the request parser).
_TYPED: dict[str, tuple[str, str, float]] = {}


def _spell(pint_name: str, base: str, scale: float, *spellings: str) -> None:
    for spelling in spellings:
        _TYPED[spelling] = (pint_name, base, scale)


_spell("ampere", "A", 1.0, "a", "amp", "amps", "ampere", "amperes")
_spell("milliampere", "A", 1e-3, "ma", "milliamp", "milliamps", "milliampere", "milliamperes")
_spell("microampere", "A", 1e-6, "ua", "µa", "microamp", "microamps", "microampere")
_spell("microampere", "A", 1e-6, "microamperes")
_spell("kiloampere", "A", 1e3, "ka", "kiloamp", "kiloamps", "kiloampere", "kiloamperes")
_spell("meter", "m", 1.0, "m", "meter", "meters", "metre", "metres")
_spell("millimeter", "m", 1e-3, "mm", "millimeter", "millimeters", "millimetre", "millimetres")
_spell("micrometer", "m", 1e-6, "um", "µm", "micron", "microns", "micrometer", "micrometers")
_spell("micrometer", "m", 1e-6, "micrometre", "micrometres")
_spell("nanometer", "m", 1e-9, "nm", "nanometer", "nanometers", "nanometre", "nanometres")
_spell("centimeter", "m", 1e-2, "cm", "centimeter", "centimeters", "centimetre", "centimetres")
_spell("hertz", "Hz", 1.0, "hz", "hertz")
_spell("kilohertz", "Hz", 1e3, "khz", "kilohertz")
_spell("megahertz", "Hz", 1e6, "mhz", "megahertz")
_spell("gigahertz", "Hz", 1e9, "ghz", "gigahertz")
_spell("volt", "V", 1.0, "v", "volt", "volts")
_spell("kilovolt", "V", 1e3, "kv", "kilovolt", "kilovolts")
_spell("megavolt", "V", 1e6, "MV", "megavolt", "megavolts")
_spell("millivolt", "V", 1e-3, "mV", "millivolt", "millivolts")
_spell("electron_volt", "eV", 1.0, "ev", "electronvolt", "electronvolts")
_spell("kiloelectron_volt", "eV", 1e3, "kev")
_spell("megaelectron_volt", "eV", 1e6, "mev")
_spell("gigaelectron_volt", "eV", 1e9, "gev")
_spell("second", "s", 1.0, "s", "sec", "secs", "second", "seconds")
_spell("millisecond", "s", 1e-3, "ms", "millisecond", "milliseconds")
_spell("minute", "s", 60.0, "min", "mins", "minute", "minutes")
_spell("hour", "s", 3600.0, "h", "hr", "hrs", "hour", "hours")
_spell("torr", "Torr", 1.0, "torr")
_spell("millibar", "Torr", 0.750062, "mbar", "millibar", "millibars")
_spell("pascal", "Torr", 0.00750062, "pa", "pascal", "pascals")
_spell("radian", "rad", 1.0, "rad", "radian", "radians")
_spell("milliradian", "rad", 1e-3, "mrad", "milliradian", "milliradians")
_spell("microradian", "rad", 1e-6, "urad", "µrad", "microradian", "microradians")
_spell("degree", "rad", 0.0174532925, "deg", "degree", "degrees")
_spell("percent", "%", 1.0, "%", "percent")
_spell("watt", "W", 1.0, "w", "watt", "watts")
_spell("kilowatt", "W", 1e3, "kw", "kilowatt", "kilowatts")
_spell("milliwatt", "W", 1e-3, "mW", "milliwatt", "milliwatts")
_spell("megawatt", "W", 1e6, "MW", "megawatt", "megawatts")
_spell("kelvin", "K", 1.0, "K", "kelvin", "kelvins")
_spell("degree_Celsius", "K", 1.0, "degC", "°C", "℃", "celsius", "centigrade")
_spell("degree_Fahrenheit", "K", 5.0 / 9.0, "degF", "°F", "fahrenheit")
_spell("tesla", "T", 1.0, "T", "tesla", "teslas")
_spell("millitesla", "T", 1e-3, "mT", "millitesla", "milliteslas")
_spell("coulomb", "C", 1.0, "coulomb", "coulombs")
_spell("nanocoulomb", "C", 1e-9, "nC", "nanocoulomb", "nanocoulombs")
_spell("picocoulomb", "C", 1e-12, "pC", "picocoulomb", "picocoulombs")
_spell("joule", "J", 1.0, "J", "joule", "joules")

#: Words no operator means as a unit, although a unit table might know them.
_NOT_TYPED_UNITS = frozenset({"at", "in", "on", "or", "to", "by", "of", "as", "are"})


def lookup_unit(unit: str) -> tuple[str, float] | None:
    """(base symbol, scale to the base) of a unit as an operator typed it, or None.

    The exact spelling first ("MV" and "mV" keep their case), then in lower case ("MHZ").
    """
    found = _typed(unit)
    return None if found is None else (found[1], found[2])


@lru_cache(maxsize=256)
def spoken_names(unit: str) -> tuple[str, ...]:
    """The words a unit is said with, spelt out ("mA" -> milliamp, milliamps, milliampere,
    milliamperes): how "how many milliamps are stored" names the channels measured in mA.
    Symbols and short spellings ("ma", "h") are left out: they are other words too."""
    found = _typed(unit) if unit else None
    if found is None:
        return ()
    return tuple(
        spelling
        for spelling, typed in _TYPED.items()
        if typed[0] == found[0] and len(spelling) > 4 and spelling.isalpha()
    )


def _typed(unit: str) -> tuple[str, str, float] | None:
    unit = unit.strip()
    if not unit or unit.lower() in _NOT_TYPED_UNITS:
        return None
    return _TYPED.get(unit) or _TYPED.get(unit.lower())


# ----- pint ----------------------------------------------------------------------------------
@lru_cache(maxsize=1)
def _registry() -> Any:
    import pint

    return pint.UnitRegistry(autoconvert_offset_to_baseunit=False)


#: A channel's unit pint may read: symbols, products and quotients, powers. Anything with a dot,
#: a comma or a space between words ("a.u.", "arb. units") is a label, not a unit expression.
_SYMBOL = r"[A-Za-zµμΩ°%℃][A-Za-z0-9µμΩ°%℃]*"
_UNIT_TEXT = re.compile(rf"^(?:1\s*/\s*)?{_SYMBOL}(?:\s*(?:[*/^]|\*\*)\s*(?:{_SYMBOL}|\d+))*$")
#: pint names that are physical constants or pure numbers, never a channel's unit.
_NOT_CHANNEL_UNITS = ("constant", "speed_of_light", "elementary_charge", "pi", "year")


@lru_cache(maxsize=512)
def _pint_unit(text: str) -> Any:
    """The pint unit of a unit text, or None when pint does not read it as a plain unit."""
    typed = _typed(text)
    if typed is not None:
        return _registry().Unit(typed[0])
    compact = text.strip()
    if compact.lower() == "torr":
        compact = "torr"
    if not _UNIT_TEXT.match(compact):
        return None
    import pint

    try:
        unit = _registry().parse_units(compact)
    except (pint.errors.PintError, ValueError, TypeError, AttributeError, SyntaxError):
        return None
    name = str(unit)
    if not name or any(part in name for part in _NOT_CHANNEL_UNITS):
        return None
    return unit


def canonical_unit(text: str) -> str | None:
    """pint's name of a unit text ("mA" -> "milliampere"), or None when pint does not know it."""
    unit = _pint_unit(text) if text and text.strip() else None
    return None if unit is None else str(unit)


def _family(unit: Any) -> str:
    """What a unit measures, keeping pint's dimensionless units apart."""
    dimensionality = unit.dimensionality
    if dimensionality:
        return str(dimensionality)
    name = str(unit)
    if name.endswith(("radian", "degree", "arcminute", "arcsecond")) or name == "turn":
        return "[angle]"
    if name in ("percent", "permille", "ppm", "dimensionless"):
        return "[fraction]"
    return f"[{name}]"  # counts only convert to counts


_FAMILY_WORDS: tuple[tuple[str, str], ...] = (
    ("ampere", "a current"),
    ("meter", "a length"),
    ("hertz", "a frequency"),
    ("second", "a time"),
    ("volt", "a voltage"),
    ("electron_volt", "an energy"),
    ("torr", "a pressure"),
    ("kelvin", "a temperature"),
    ("watt", "a power"),
    ("tesla", "a magnetic field"),
    ("coulomb", "a charge"),
    ("gram", "a mass"),
    ("radian", "an angle"),
    ("percent", "a fraction"),
)


def _describe(unit: Any) -> str:
    family = _family(unit)
    for name, words in _FAMILY_WORDS:
        if _family(_registry().Unit(name)) == family:
            return words
    simple = re.fullmatch(r"\[(\w+)\]", family)
    return f"a {simple.group(1)}" if simple else f"a quantity of dimension {family}"


def dimension_of(text: str) -> str | None:
    """What a unit text measures ("[current]" for "mA"), or None for a unit unknown."""
    unit = _pint_unit(text)
    return _family(unit) if unit is not None else None


#: a unit of each quantity a channel list names, and the usual word for that quantity
_QUANTITY_UNITS = (("A", "current"), ("V", "voltage"), ("mm", "gap"), ("Hz", "frequency"))


@lru_cache(maxsize=1)
def _quantity_of_a_dimension() -> dict[str, str]:
    return {dimension_of(unit) or "": word for unit, word in _QUANTITY_UNITS}


def quantity_word(unit: str) -> str:
    """The word a channel list names the quantity a unit measures with ("MV" -> "voltage",
    "kHz" -> "frequency"), or "" for a quantity it has no word for."""
    return _quantity_of_a_dimension().get(dimension_of(unit) or "", "")


def converts(unit: str, channel_unit: str) -> bool:
    """Whether an amount in ``unit`` can be written to a channel counted in ``channel_unit``."""
    try:
        convert(1.0, unit, channel_unit)
    except (UnitConversionError, ValueError):
        return False
    return True


def same_unit(a: str, b: str) -> bool:
    """Whether two unit texts name the same unit ("mA" and "milliampere"; "counts" and "counts")."""
    if a.strip() == b.strip():
        return True
    ua, ub = _pint_unit(a), _pint_unit(b)
    return ua is not None and ub is not None and ua == ub


def convert(amount: float, unit: str | None, channel_unit: str, *, delta: bool = False) -> float:
    """``amount`` given in ``unit`` (as typed), expressed in ``channel_unit``.

    ``delta``: the amount is a change ("by 2 degC"), so offsets do not apply. No unit: the
    amount is already in the channel's unit.
    """
    if not unit:
        return amount
    if not channel_unit or not channel_unit.strip():
        raise UnitConversionError(
            f"the channel has no units, so '{unit}' cannot be converted: give the bare number"
        )
    if unit.strip() == channel_unit.strip():
        return amount

    def refuse(why: str) -> UnitConversionError:
        return UnitConversionError(
            f"'{unit}' cannot be converted to the channel's unit '{channel_unit}' ({why}): "
            f"give the value in {channel_unit}"
        )

    if _typed(unit) is None:
        # only the typed vocabulary converts: "5 furlongs" is a slip, not 1005.8 m
        if same_unit(unit, channel_unit):
            return amount
        raise refuse(f"'{unit}' is not a unit I know")
    source, target = _pint_unit(unit), _pint_unit(channel_unit)
    if target is None:
        raise refuse(f"'{channel_unit}' is not a unit I know, so only the same unit is accepted")
    if source == target:
        return amount
    if _family(source) != _family(target):
        raise refuse(f"{unit} is {_describe(source)}, {channel_unit} {_describe(target)}")
    registry = _registry()
    if delta:
        # a change: the size of one degree, not the temperature scale's offset
        one = registry.Quantity(1.0, source).to(target) - registry.Quantity(0.0, source).to(target)
        return float(amount * one.magnitude)
    return float(registry.Quantity(amount, source).to(target).magnitude)
