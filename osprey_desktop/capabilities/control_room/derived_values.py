"""The value of a derived write, from the steps before it: a read, an archive lookup.

``write_derivation`` reads what the operator asked ("make VCM08 the same as VCM07"); this
module finds the number: the source channel's reading, the archived sample at the moment, or
the reading a condition is checked against. Each value carries its origin (channel, value,
units, time), which the approval and the answer show. Nothing here writes.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from osprey_desktop.base.errors import ClarificationRequired
from osprey_desktop.capabilities.control_room.write_derivation import Condition, Derivation
from osprey_desktop.capabilities.control_room.write_operations import named_by
from osprey_desktop.capabilities.control_room.write_origins import clock_with_date
from osprey_desktop.channels.addresses import channel_key
from osprey_desktop.channels.database import ChannelDatabase
from osprey_desktop.channels.query import READBACK_WORDS, SETPOINT_WORDS
from osprey_desktop.connectors.base import ConnectorError, to_float
from osprey_desktop.language.time_parsing import ParsedTimeRange
from osprey_desktop.language.units import UnitConversionError, convert
from osprey_desktop.language.write_parsing import ValueSpec


class ConditionNotMet(Exception):
    """A conditional write whose condition does not hold: nothing is asked or written."""

    def __init__(self, message: str, origin: dict[str, Any]) -> None:
        super().__init__(message)
        self.origin = origin


@dataclass
class DerivedValues:
    """Which channels get which value, and where each value came from."""

    assignments: list[tuple[str, ValueSpec]] = field(default_factory=list)
    origins: dict[str, dict[str, Any]] = field(default_factory=dict)

    def add(
        self,
        channel: str,
        words: str,
        origin: dict[str, Any],
        text: str,
        derivation: Derivation | None = None,
    ) -> None:
        """``channel`` gets the value of ``origin`` (in its units), said as ``text``, plus the
        offset ``derivation`` asks ("QD10 minus 0.5 A"), kept in the origin as its own fact."""
        units = str(origin.get("units") or "") or None
        value = float(origin["value"])
        if derivation is not None and derivation.factor != 1.0:
            # "half the ID09 gap": the source's value scaled, kept in the origin too
            value *= derivation.factor
            origin = {**origin, "factor": derivation.factor}
            text = f"{derivation.factor:g} times {text}"
        if derivation is not None and derivation.offset:
            offset = (
                value * derivation.offset / 100.0  # "QF17 plus 1 %": of the source's value
                if (derivation.offset_unit or "").strip().lower() in ("%", "percent", "pct")
                else _offset_in(derivation, units or "")
            )
            origin = {**origin, "offset": offset}
            value += offset
            text = f"{text}{derivation.offset_words()}"
        spec = ValueSpec(words, "absolute", value, units, text)
        self.assignments.append((channel, spec))
        self.origins[channel] = origin


def _offset_in(derivation: Derivation, units: str) -> float:
    """The offset of ``derivation`` in the channel's ``units`` (asked about when it cannot be
    converted: "plus 2 mm" to a current)."""
    try:
        return convert(derivation.offset, derivation.offset_unit, units, delta=True)
    except UnitConversionError as exc:
        raise ClarificationRequired(f"The offset{derivation.offset_words()}: {exc}.") from exc


#: the words of a channel's role (the channel query's), and the roles they name
_ROLES = {
    **dict.fromkeys(SETPOINT_WORDS, ("setpoint",)),
    **dict.fromkeys(READBACK_WORDS, ("readback", "monitor")),
}


#: an ordinal and a sector pick one device among a sector's ("the first ... of sector 4")
_PICKED_BY_PLACE = re.compile(
    r"\b(?:first|second|third|fourth|fifth|sixth|last|middle)\b.*\bsector\s+\d", re.I
)


def named_among(database: Any, words: str, channels: Sequence[str]) -> list[str]:
    """The channels among ``channels`` that ``words`` name (device or PV names first, then
    the ranked search restricted to ``channels``)."""
    if _PICKED_BY_PLACE.search(words):
        # "the second defocusing quad of sector 4": which of a sector's devices, by the finder
        from osprey_desktop.channels.finding import configured_finder

        picked = configured_finder(database).find(words).names
        among = [c for c in channels if any(_same_device(database, c, p) for p in picked)]
        if among:
            return among
    pieces = [w.strip("'’") for w in words.replace(",", " ").split()]
    # a device or PV name ("VCM07") says more than a field word ("setpoint") beside it
    devices = [w for w in pieces if any(ch.isdigit() for ch in w)]
    found = named_by(database, " ".join(devices or pieces), channels)
    role = next((_ROLES[w.lower()] for w in pieces if w.lower() in _ROLES), None)
    if role is not None and len(found) > 1:
        # "the HCM15 readback": of the device's channels, the one in that role
        found = [c for c in found if getattr(database.get(c), "role", None) in role] or found
    if found or not words.strip():
        return found
    ranked = {m.name for m in database.top_matches(words)}
    return [c for c in channels if c in ranked]


def copied_values(
    derivation: Derivation,
    channels: Sequence[str],
    readings: Mapping[str, Any],
    database: Any,
) -> DerivedValues:
    """ "make VCM08 the same as VCM07": VCM08's setpoint gets VCM07's setpoint reading."""
    if derivation.mean:
        return _mean_values(derivation, channels, readings, database)
    sources, targets = _copy_sides(derivation, channels, database)
    if not sources or not targets:
        missing = derivation.source if not sources else derivation.target
        raise ClarificationRequired(
            f"I could not tell which channel '{missing}' is among {', '.join(channels)}. "
            "Name both channels, e.g. 'make VCM08 the same as VCM07'."
        )
    out = DerivedValues()
    for target in targets:
        source = _counterpart(target, sources, database)
        origin = _read_origin(readings, source, f"to copy to {target}")
        out.add(target, derivation.target, origin, f"= {source}", derivation)
    return out


def _copy_sides(
    derivation: Derivation, channels: Sequence[str], database: Any
) -> tuple[list[str], list[str]]:
    """(the channels a copy reads, the setpoints it writes) among ``channels``."""
    sources = named_among(database, derivation.source, channels)
    targets = [
        c
        for c in named_among(database, derivation.target, channels)
        if c not in sources and getattr(database.get(c), "writable", False)
    ]
    return sources, targets


def _mean_values(
    derivation: Derivation,
    channels: Sequence[str],
    readings: Mapping[str, Any],
    database: Any,
) -> DerivedValues:
    """ "set VCM31 to the average of VCM30 and VCM32": the mean of the sources' readings, each
    one read and shown; a source without a numeric reading, or in other units, is asked."""
    sources, targets = _copy_sides(derivation, channels, database)
    if len(sources) < 2 or not targets:
        missing = derivation.source if len(sources) < 2 else derivation.target
        raise ClarificationRequired(
            f"I could not tell which channels '{missing}' are among {', '.join(channels)}; "
            "nothing was asked. Name them, e.g. 'set VCM31 to the average of VCM30 and VCM32'."
        )
    parts = [_read_origin(readings, source, "to average") for source in sources]
    if len({p["units"] for p in parts}) > 1:
        raise ClarificationRequired(
            f"{derivation.source} are read in different units; nothing was asked."
        )
    mean = sum(p["value"] for p in parts) / len(parts)
    origin = {
        "kind": "mean",
        "channel": ", ".join(sources),
        "sources": parts,
        "value": mean,
        "units": parts[0]["units"],
        "precision": parts[0]["precision"],
        "timestamp": min((p["timestamp"] for p in parts if p["timestamp"]), default=None),
    }
    out = DerivedValues()
    for target in targets:
        # "... the average of VCM 25 and VCM 27 plus 0.05 A": its offset too
        out.add(target, derivation.target, origin, f"= mean of {', '.join(sources)}", derivation)
    return out


def reference_values(
    derivation: Derivation,
    channels: Sequence[str],
    readings: Mapping[str, Any],
    database: Any,
) -> DerivedValues:
    """Each setpoint gets ("set dipole 4 current to its golden value") the reading of its own
    device's reference channel (a channel that says the reference word, "GOLDEN"); a nominal
    or design value the channel list states stands in when the list has no such channel."""
    word = derivation.source.split()[-1].lower()
    targets = [c for c in channels if getattr(database.get(c), "writable", False)]
    sources = [c for c in channels if c not in targets and _says(database.get(c), word)]
    if not targets:
        raise ClarificationRequired(
            f"Which setpoint should get its {word} value? None was found; nothing was asked."
        )
    out = DerivedValues()
    for target in targets:
        source = next((s for s in sources if _same_device(database, s, target)), None)
        reading = readings.get(source) if source else None
        value = to_float(getattr(reading, "value", None)) if reading is not None else None
        if value is not None and math.isfinite(value):
            origin = _copied(source, reading, value)
        else:
            record = database.get(target)
            nominal = getattr(record, "nominal", None) if word in _LISTED_WORDS else None
            if nominal is None:
                raise ClarificationRequired(
                    f"I found no {word} value for {target}; nothing was asked. Which value "
                    "should I write?"
                )
            origin = {
                "kind": "listed",
                "channel": target,
                "value": float(nominal),
                "units": str(getattr(record, "units", "") or ""),
                "word": word,
            }
        out.add(target, derivation.target, origin, f"{word} value", derivation)
    return out


#: Reference words a channel list's own ``nominal`` value answers when no channel holds it.
_LISTED_WORDS = frozenset({"nominal", "design", "default"})


def _says(record: Any, word: str) -> bool:
    """Whether a channel names ``word`` (in its PV name or its own description)."""
    if record is None:
        return False
    return word in record.name.lower() or word in (record.description or "").lower()


def _same_device(database: Any, one: str, other: str) -> bool:
    """Whether two channels belong to one device: the same listed device, else the same PV
    name up to its last segment ("MAG:DIPOLE[B04]:CURRENT:GOLDEN" and "...:CURRENT:SP")."""
    a, b = database.get(one), database.get(other)
    if a is not None and b is not None and a.device and a.device == b.device:
        return True
    return one.rsplit(":", 1)[0] == other.rsplit(":", 1)[0]


def restore_moment(derivation: Derivation, now: datetime | None = None) -> datetime:
    """The instant a restore names ("from 09:30", "a minute ago", "yesterday at 14:00"), in
    facility time; a range, an unreadable or a future moment is asked about instead."""
    from osprey_desktop.capabilities.control_room.time_range_parsing import configured_timezone
    from osprey_desktop.language.time_parsing import (
        TimeRangeError,
        parse_moment,
    )

    try:
        return parse_moment(derivation.moment, now=now, tz=configured_timezone())
    except TimeRangeError as exc:
        raise ClarificationRequired(
            f"Which moment should {derivation.target} be restored to? {str(exc).rstrip('.')}; "
            "nothing was asked.",
            ["its value from 09:30 today", "its value 10 minutes ago", "yesterday at 14:00"],
        ) from exc


def restore_period(derivation: Derivation, now: datetime | None = None) -> ParsedTimeRange | None:
    """The period a restore names ("this morning", "yesterday", "this shift"), in facility
    time; None for an instant, which ``restore_moment`` reads (or asks about)."""
    from osprey_desktop.capabilities.control_room import time_range_parsing

    zone = time_range_parsing.configured_timezone()
    return time_range_parsing.restore_period(derivation.moment, zone, now)


async def period_restored_values(
    derivation: Derivation,
    channels: Sequence[str],
    period: ParsedTimeRange,
    archiver: Any,
    database: Any,
) -> DerivedValues:
    """ "restore QD8 to its value from this morning": the one value QD8 held all of this
    morning. A channel that held several is asked about with each value and when it began;
    which of them was meant is the operator's to say, never a guess."""
    from osprey_desktop.capabilities.control_room.held_values import (
        describe_held,
        moments_inside,
        values_held,
    )
    from osprey_desktop.capabilities.control_room.write_origins import held_during
    from osprey_desktop.connectors.archiver_base import ArchiverError

    targets = named_among(database, derivation.target, channels) or list(channels)
    during = held_during(period.expression, period.start.timestamp(), period.end.timestamp())
    try:
        held = await values_held(archiver, targets, period.start, period.end)
    except (ArchiverError, ConnectorError, OSError) as exc:
        raise ClarificationRequired(
            f"The archive cannot be asked what {', '.join(targets)} held {during} ({exc}); "
            "nothing was asked."
        ) from exc
    unsettled = [held[t] for t in targets if held[t].single is None]
    if unsettled:
        said = "; ".join(
            f"{p.channel} held {describe_held(p)}"
            if p.held
            else f"{p.channel} has no archived value then"
            for p in unsettled
        )
        suggestions = [f"its value from {m}" for p in unsettled for m in moments_inside(p)]
        raise ClarificationRequired(
            f"Which moment should {derivation.target} be restored to? It did not hold one "
            f"value {during}: {said}. Nothing was asked.",
            suggestions or ["its value from 09:30 today", "its value 10 minutes ago"],
        )
    out = DerivedValues()
    for target in targets:
        values = held[target]
        single = values.single
        assert single is not None
        origin = {
            "kind": "archive",
            "channel": target,
            "value": single.value,
            "units": values.units,
            "precision": values.precision,
            "timestamp": single.since,
            "moment": values.start,
            # what execution needs to ask the archive again over the same period
            "period": {"start": values.start, "end": values.end, "words": period.expression},
        }
        out.add(target, derivation.target, origin, f"held {during}")
    return out


#: Outcomes of a put that left (the audit log's words, the current and the earlier ones).
_SENT = frozenset(
    {
        "verified",
        "verified_with_alarm",
        "sent_unverified",
        "readback_failed",
        "verification_failed",
        "in_doubt",
        "written",
    }
)


async def last_change_moment(derivation: Derivation, channels: Sequence[str]) -> datetime:
    """Right before the operator's own latest write to the channels a restore names ("restore
    QF11 to before my change"): the time of that write's intent, from the audit log."""
    import asyncio

    from osprey_desktop.safety.audit import (
        AuditError,
        audit_log_of_running_graph,
        current_operator,
    )

    database = _channel_database_of(channels)
    targets = set(named_among(database, derivation.target, channels) or channels)
    audit = audit_log_of_running_graph()
    try:
        entries = await asyncio.to_thread(audit.entries, 5000)
    except AuditError as exc:
        raise ClarificationRequired(
            f"I cannot read the audit log to find your last change ({exc}); nothing was asked."
        ) from exc
    me = current_operator()
    keys = {channel_key(t) for t in targets}  # pva://X and X are one channel
    sent = {
        (e.approval_id, e.key)
        for e in entries
        if e.outcome in _SENT and e.key in keys and e.operator == me
    }
    intents = [e for e in entries if e.outcome == "intent" and (e.approval_id, e.key) in sent]
    if not intents:
        raise ClarificationRequired(
            f"The audit log holds no write of yours to {', '.join(sorted(targets))}; nothing "
            "was asked. Which moment should I restore?",
            ["its value from 09:30 today", "its value 10 minutes ago"],
        )
    return datetime.fromtimestamp(intents[-1].time - 0.001, UTC)


def _channel_database_of(channels: Sequence[str]) -> Any:
    from osprey_desktop.connectors import get_configured_channel_database

    return get_configured_channel_database()


async def restored_values(
    derivation: Derivation,
    channels: Sequence[str],
    moment: datetime,
    archiver: Any,
    database: Any,
) -> DerivedValues:
    """QF11's own archived sample in force at 09:30, for "restore QF11 to its value from
    09:30": asked of the archive itself (the history a plot shows may be reduced to bin means,
    which are not a value the channel ever held)."""
    from osprey_desktop.connectors.archiver_base import ArchiverError

    targets = named_among(database, derivation.target, channels) or list(channels)
    try:
        samples = await archiver.values_at(targets, moment)
    except (ArchiverError, ConnectorError, OSError) as exc:
        raise ClarificationRequired(
            f"The archive cannot be asked for {', '.join(targets)} at {clock_with_date(moment)} "
            f"({exc}); nothing was asked."
        ) from exc
    out = DerivedValues()
    for target in targets:
        sample = samples.get(target)
        value = to_float(getattr(sample, "value", None))
        if sample is None or value is None or not math.isfinite(value):
            raise ClarificationRequired(
                f"The archive has no value of {target} at or before {clock_with_date(moment)}; "
                "nothing was asked. Which value should I write?"
            )
        origin = {
            "kind": "archive",
            "channel": target,
            "value": value,
            "units": str(sample.units or ""),
            "precision": sample.precision,
            "timestamp": float(sample.timestamp),
            "moment": moment.timestamp(),
        }
        out.add(target, derivation.target, origin, f"archived at {clock_with_date(moment)}")
    return out


async def checked_condition(
    derivation: Derivation,
    targets: Sequence[str],
    readings: Mapping[str, Any],
    database: Any,
    connector: Any,
) -> dict[str, Any]:
    """The reading a condition is about, checked; raises ``ConditionNotMet`` when false.

    The subject is the channel the condition names ("if the HCM20 setpoint is below ..."),
    or the write's own target when it says "it"; a reading from the plan's read step is used,
    else the channel is read now.
    """
    condition = derivation.condition
    assert condition is not None
    subject = (
        targets[0]
        if not condition.subject
        else _subject_channel(condition.subject, readings, database, targets)
    )
    if subject is None:
        raise ClarificationRequired(
            f"Which channel does '{condition.subject}' mean? I need it to check the condition "
            "before writing; nothing was asked."
        )
    reading = readings.get(subject)
    if reading is None:
        try:
            reading = await connector.read_channel(subject)
        except ConnectorError as exc:
            raise ClarificationRequired(
                f"I cannot read {subject} to check the condition ({exc}); nothing was asked."
            ) from exc
    value = to_float(getattr(reading, "value", None))
    units = str(
        getattr(reading, "units", None)
        or getattr(getattr(reading, "metadata", None), "units", "")
        or ""
    )
    if value is None:
        raise ClarificationRequired(
            f"{subject} has no numeric reading to compare; nothing was asked."
        )
    threshold = _in_units(condition.threshold, condition.unit, units)
    origin = {
        "kind": "condition",
        "channel": subject,
        "value": value,
        "units": units,
        "timestamp": _epoch(getattr(reading, "timestamp", None)),
        "condition": condition.describe(),
        # what execution needs to check the verdict again (write_rederivation)
        "comparison": condition.comparison,
        "threshold": threshold,
    }
    shown = f"{value:g} {units}".strip()
    check = type(condition)(condition.subject, condition.comparison, threshold, None, "")
    if not check.holds(value):
        raise ConditionNotMet(
            f"{subject} reads {shown}, {_not(condition)}: the condition does not hold, "
            "so nothing was asked or written",
            origin,
        )
    return origin


def _read_origin(readings: Mapping[str, Any], source: str, why: str) -> dict[str, Any]:
    """The origin of ``source``'s reading among ``readings``; asked about when it has no
    numeric value (``why``: what the value was read for, "to average")."""
    reading = readings.get(source)
    value = to_float(getattr(reading, "value", None))
    if reading is None or value is None or not math.isfinite(value):
        raise ClarificationRequired(f"{source} has no numeric reading {why}; nothing was asked.")
    return _copied(source, reading, value)


def _copied(source: str | None, reading: Any, value: float) -> dict[str, Any]:
    """The origin of a value read from ``source``."""
    return {
        "kind": "copy",
        "channel": source,
        "value": value,
        "units": str(getattr(reading, "units", "") or ""),
        "precision": _precision(reading),
        "timestamp": _epoch(getattr(reading, "timestamp", None)),
    }


def _precision(reading: Any) -> int | None:
    """A reading's display precision (a read step's reading, or a connector's)."""
    precision = getattr(reading, "precision", None)
    if precision is None:
        precision = getattr(getattr(reading, "metadata", None), "precision", None)
    return precision if isinstance(precision, int) else None


def _counterpart(target: str, sources: Sequence[str], database: Any) -> str:
    """The source channel that matches ``target``'s kind (setpoint for a setpoint)."""
    if len(sources) == 1:
        return sources[0]
    wanted = getattr(database.get(target), "role", None)
    same = [s for s in sources if getattr(database.get(s), "role", None) == wanted]
    if len(same) == 1:
        return same[0]
    raise ClarificationRequired(
        f"Which of {', '.join(sources)} should {target} copy? Name one; nothing was asked."
    )


def _subject_channel(
    words: str, readings: Mapping[str, Any], database: Any, targets: Sequence[str] = ()
) -> str | None:
    among = named_among(database, words, list(readings))
    if len(among) > 1:
        # "put VCM4 at 0.3 A if the current stays over 400 mA": a condition that names no
        # device is not about the written device (that would be "its current")
        written = {_device_of(database, t) for t in targets} - {None}
        among = [c for c in among if _device_of(database, c) not in written] or among
    if len(among) == 1:
        return among[0]
    matches = database.top_matches(words)
    if len(matches) == 1 or (matches and len(among) == 0 and _single_device(matches)):
        return matches[0].name
    return _read_for_words(words, readings, database) if not among else None


def _read_for_words(words: str, readings: Mapping[str, Any], database: Any) -> str | None:
    """The one reading the finder finds for ``words`` read as the list's shorthand ("LT" the
    lifetime, "vac" the vacuum), which the plan read for the condition; else None."""
    from osprey_desktop.channels.finding import configured_finder

    if not isinstance(database, ChannelDatabase):
        return None  # a list the finder cannot search
    found = configured_finder(database).find(words).names
    read = [name for name in found if name in readings]
    return read[0] if len(read) == 1 else None


def _device_of(database: Any, name: str) -> str | None:
    record = database.get(name) if hasattr(database, "get") else None
    return getattr(record, "device", None)


def _single_device(matches: Sequence[Any]) -> bool:
    return len({getattr(m.channel, "device", None) or m.name for m in matches}) == 1


def _in_units(amount: float, unit: str | None, channel_units: str) -> float:
    if not unit:
        return amount
    from osprey_desktop.language.write_parsing import convert_units

    return convert_units(amount, unit, channel_units)


def _epoch(value: Any) -> float | None:
    if isinstance(value, datetime):
        return value.timestamp()
    number = to_float(value)
    return number


__all__ = [
    "ConditionNotMet",
    "DerivedValues",
    "checked_condition",
    "copied_values",
    "last_change_moment",
    "named_among",
    "period_restored_values",
    "reference_values",
    "restore_moment",
    "restore_period",
    "restored_values",
]


def _not(condition: Condition) -> str:
    """ "not above 1 A"; for "not equal to 0" the plain "equal to 0", never "not not"."""
    said = condition.describe()
    return said[len("not ") :] if said.startswith("not ") else f"not {said}"
