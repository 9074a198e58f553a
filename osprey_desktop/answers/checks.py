"""The check a request asked of what it read, answered first: "are both tunes within 0.01 of
nominal?" → "Yes: both are within 0.01 of nominal", with each channel's value and distance.

The check itself is the parse's (``language.checks``); here it is applied to the readings of
the turn (a live value each) or to its histories (every archived sample: "above 5e-9 at any
point yesterday" holds when one sample is). A threshold in other units than the channel's is
converted; a band around the nominal value uses the channel list's ``nominal``; a channel
without one is named, never guessed.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from osprey_desktop.language.checks import Check, check_asked
from osprey_desktop.language.rewordings import said_plainly

__all__ = ["Observed", "check_facts", "checked_facts", "observed_values"]


def _fmt(value: float) -> str:
    """A value as the check says it: four significant digits, no trailing noise."""
    return f"{value:.4g}"


_PRESSURE_UNITS = frozenset({"torr", "mbar", "pa", "bar"})


@dataclass(frozen=True)
class Observed:
    """What was seen of one channel: its values (one when read live, every sample of a
    history) and its units."""

    channel: str
    values: Sequence[float]
    units: str = ""


def _in_units(amount: float, unit: str | None, channel_units: str) -> float | None:
    if not unit or not channel_units or unit.lower() == channel_units.lower():
        return amount
    from osprey_desktop.language.write_parsing import UnitMismatch, convert_units

    try:
        return convert_units(amount, unit, channel_units)
    except (UnitMismatch, ValueError):
        return None


def _said(value: float, units: str) -> str:
    """A reading with the digits that tell it from its neighbours (499.6542 MHz, not 499.7)."""
    return f"{value:.7g} {units}".rstrip()


def _jitter(values: Sequence[float]) -> float:
    """A signal's own jitter: twice the median step between its samples."""
    steps = sorted(abs(b - a) for a, b in zip(values, values[1:], strict=False))
    return 2 * steps[len(steps) // 2] if steps else 0.0


def _each_limit(check: Check, seen: Sequence[Observed]) -> list[tuple[Observed, float]]:
    """Each channel seen with values, and the check's amount in its units (skipping a channel
    whose units the amount does not convert to)."""
    assert check.amount is not None
    pairs = []
    for obs in seen:
        limit = _in_units(check.amount, check.unit, obs.units)
        if limit is not None and obs.values:
            pairs.append((obs, limit))
    return pairs


def _how_many(times: int) -> str:
    """ " once", " 3 times", or "" for never (said by the verb)."""
    return "" if times == 0 else " once" if times == 1 else f" {times} times"


def _times_past(values: Sequence[float], limit: float, above: bool) -> int:
    """How many separate times ``values`` went past ``limit``: a run of samples past it is
    one time, and it ends only when the value is back by more than the signal's own jitter
    (twice the median step between samples), so noise on the threshold is not counted as
    many times. A window that starts past the limit counts that run."""
    jitter = _jitter(values)
    sign = 1.0 if above else -1.0
    times, past_before = 0, False
    for value in values:
        beyond = sign * (value - limit)
        past = beyond > 0 or (past_before and beyond > -jitter)
        times += past and not past_before
        past_before = past
    return times


def _times_crossed(values: Sequence[float], limit: float) -> int:
    """How many times ``values`` crossed ``limit``, either way (jitter on it is no crossing:
    a crossing is counted when the other side is reached by more than the jitter)."""
    jitter = _jitter(values)
    side, times = 0, 0
    for value in values:
        now = 1 if value > limit + jitter else -1 if value < limit - jitter else 0
        if now and side and now != side:
            times += 1
        side = now or side
    return times


def _how_often(check: Check, seen: Sequence[Observed]) -> list[str]:
    """ "how often did the current go above 505 mA today?": the times each channel crossed."""
    assert check.amount is not None
    if check.op == "x":
        return _crossings(check, seen)
    above = check.op == ">"
    word = "above" if above else "below"
    threshold = f"{_fmt(check.amount)} {check.unit or ''}".rstrip()
    lines = []
    for obs, limit in _each_limit(check, seen):
        times = _times_past(obs.values, limit, above)
        extreme = max(obs.values) if above else min(obs.values)
        lines.append(
            f"{obs.channel} {'never went' if times == 0 else 'went'} {word} {threshold}"
            f"{_how_many(times)} ({'highest' if above else 'lowest'}: "
            f"{_said(extreme, obs.units)})"
        )
    if not lines:
        return []
    head = f"**{lines[0]}**" if len(lines) == 1 else f"**How often {word} {threshold}:**"
    body = "" if len(lines) == 1 else " " + "; ".join(lines)
    samples = sum(len(obs.values) for obs in seen)
    return [f"{head}{body}, counted over the window's {samples} samples."]


def _crossings(check: Check, seen: Sequence[Observed]) -> list[str]:
    """ "how often did the lifetime cross 9 h?": the crossings of each channel, either way."""
    assert check.amount is not None
    threshold = f"{_fmt(check.amount)} {check.unit or ''}".rstrip()
    lines = []
    for obs, limit in _each_limit(check, seen):
        times = _times_crossed(obs.values, limit)
        lines.append(
            f"{obs.channel} {'never crossed' if times == 0 else 'crossed'} {threshold}"
            f"{_how_many(times)} "
            f"(from {_said(min(obs.values), obs.units)} "
            f"to {_said(max(obs.values), obs.units)})"
        )
    return [f"**{'; '.join(lines)}**."] if lines else []


def _level(check: Check, seen: Sequence[Observed], history: bool, at: str = "") -> list[str]:
    assert check.amount is not None
    if check.op == "x":
        return _crossings(check, seen) if history else []
    if history and check.counted:
        return _how_often(check, seen)
    above = check.op == ">"
    word = "above" if above else "below"
    hits: list[str] = []
    extremes: list[tuple[float, str]] = []
    for obs in seen:
        limit = _in_units(check.amount, check.unit, obs.units)
        if limit is None or not obs.values:
            continue
        extreme = max(obs.values) if above else min(obs.values)
        extremes.append((extreme, f"{obs.channel} {_said(extreme, obs.units)}"))
        if (extreme > limit) if above else (extreme < limit):
            hits.append(
                f"{obs.channel} ({'peak' if above else 'lowest'} " if history else obs.channel
            )
            if history:
                hits[-1] += f"{_said(extreme, obs.units)})"
            else:
                hits[-1] += f" at {_said(extreme, obs.units)}"
    if not extremes:
        return []
    threshold = f"{_fmt(check.amount)} {check.unit or ''}".rstrip()
    when = " at any point in the window" if history else f" at {at}" if at else ""
    history = history or bool(at)
    if not hits:
        closest = (max if above else min)(extremes)[1]
        verb = "was" if history else "is"
        said = f"it {verb} not" if len(extremes) == 1 else f"none of the {len(extremes)} {verb}"
        return [
            f"**No: {said} {word} {threshold}{when}** "
            f"({'highest' if above else 'lowest'}: {closest})."
        ]
    count = "it" if len(extremes) == 1 else f"{len(hits)} of {len(extremes)}"
    verb = ("was" if history else "is") if len(hits) == 1 else ("were" if history else "are")
    return [
        f"**Yes: {count} {verb} {word} {threshold}{when}**: "
        f"{', '.join(hits[:8])}{' …' if len(hits) > 8 else ''}."
    ]


def _band(
    check: Check, seen: Sequence[Observed], nominal: Callable[[str], float | None]
) -> list[str]:
    assert check.amount is not None
    reference = check.reference or "nominal"
    inside, outside, missing = [], [], []
    for obs in seen:
        centre = (
            nominal(obs.channel)
            if reference in ("nominal", "golden", "design", "reference")
            else 0.0
        )
        width = _in_units(check.amount, check.unit, obs.units)
        if centre is None or width is None or not obs.values:
            missing.append(obs.channel)
            continue
        worst = max(obs.values, key=lambda v: abs(v - centre))
        off = worst - centre
        sign = "+" if off >= 0 else ""
        line = f"{obs.channel} {_said(worst, obs.units)} ({sign}{_fmt(off)} from {centre:.7g})"
        (inside if abs(off) <= width else outside).append(line)
    if not inside and not outside:
        return (
            [
                f"I could not check the band: the channel list gives no {reference} value for "
                f"{', '.join(missing)}."
            ]
            if missing
            else []
        )
    band = f"{_fmt(check.amount)} {check.unit or ''}".rstrip() + f" of {reference}"
    if check.op == "outside":
        verdict = "Yes" if outside else "No"
        lines = [f"**{verdict}: {len(outside)} of {len(inside) + len(outside)} outside {band}**"]
    else:
        verdict = "Yes" if not outside else "No"
        every = "both" if len(inside) + len(outside) == 2 else "all"
        lines = [f"**{verdict}: {every if not outside else f'{len(outside)} not'} within {band}**"]
    lines[0] += ": " + "; ".join(outside + inside) + "."
    if missing:
        lines.append(f"No {reference} value in the channel list for {', '.join(missing)}.")
    return lines


def _from_reference(
    check: Check, seen: Sequence[Observed], nominal: Callable[[str], float | None]
) -> list[str]:
    """ "is the RF frequency still at nominal?": each value's distance from the reference."""
    reference = check.reference or "nominal"
    lines, missing = [], []
    for obs in seen:
        centre = nominal(obs.channel)
        if centre is None or not obs.values:
            missing.append(obs.channel)
            continue
        off = obs.values[-1] - centre
        sign = "+" if off >= 0 else ""
        said = _said(obs.values[-1], obs.units)
        lines.append(f"{obs.channel} {said} ({sign}{_fmt(off)} from {centre:.7g})")
    out = [f"**Distance from {reference}:** " + "; ".join(lines) + "."] if lines else []
    if missing:
        out.append(f"No {reference} value in the channel list for {', '.join(missing)}.")
    return out


def _beyond(check: Check, seen: Sequence[Observed]) -> list[str]:
    assert check.amount is not None
    hits, total = [], 0
    for obs in seen:
        limit = _in_units(check.amount, check.unit, obs.units)
        if limit is None or not obs.values:
            continue
        total += 1
        worst = max(obs.values, key=abs)
        if abs(worst) > limit:
            hits.append(f"{obs.channel} {_said(worst, obs.units)}")
    if not total:
        return []
    band = f"±{_fmt(check.amount)} {check.unit or ''}".rstrip()
    if not hits:
        return [f"**No: none of the {total} beyond {band}.**"]
    return [f"**Yes: {len(hits)} of {total} beyond {band}**: {', '.join(hits[:8])}."]


def _typed(check: Check) -> str:
    """The amount as it was typed ("0.0", "499.654")."""
    digits = re.search(r"[-+−]?\d*\.?\d+(?:e[-+−]?\d+)?", check.words, re.I)
    return digits[0] if digits else _fmt(check.amount or 0.0)


def _typed_tolerance(typed: str) -> float:
    """Half a unit of the last digit typed: "0.0" is 0.05, "499.654" is 0.0005, "121" 0.5."""
    mantissa, _, exponent = typed.lower().replace("−", "-").partition("e")
    decimals = len(mantissa.partition(".")[2])
    return 0.5 * 10.0 ** (-decimals + (int(exponent) if exponent else 0))


def _is_at(check: Check, seen: Sequence[Observed]) -> list[str]:
    """ "is HCM 3 at 0.0?": yes when each value is the one named, to the digits typed (in
    the channel's units when the amount came in others)."""
    assert check.amount is not None
    typed = _typed(check)
    tolerance = _typed_tolerance(typed)
    lines, off = [], 0
    for obs, target in _each_limit(check, seen):
        value = obs.values[-1]
        miss = value - target
        scale = abs(target / check.amount) if check.amount else 1.0  # mA asked of an A channel
        off += abs(miss) > tolerance * scale
        sign = "+" if miss >= 0 else ""
        lines.append(f"{obs.channel} {_said(value, obs.units)} ({sign}{_fmt(miss)})")
    if not lines:
        return []
    named = f"{typed} {check.unit or ''}".rstrip()
    if not off:
        verdict = f"**Yes: {'it is' if len(lines) == 1 else 'all are'} at {named}**"
    else:
        not_at = "it is not" if len(lines) == 1 else f"{off} of {len(lines)} are not"
        verdict = f"**No: {not_at} at {named}**"
    return [f"{verdict}: " + "; ".join(lines) + "."]


def _near(check: Check, seen: Sequence[Observed]) -> list[str]:
    assert check.amount is not None
    if check.op == "at":
        return _is_at(check, seen)
    lines = []
    for obs, target in _each_limit(check, seen):
        value = obs.values[-1]
        off = value - target
        sign = "+" if off >= 0 else ""
        lines.append(
            f"{obs.channel} {_said(value, obs.units)} ({sign}{_fmt(off)} from {_fmt(target)})"
        )
    return [f"**How near {_fmt(check.amount)}:** " + "; ".join(lines) + "."] if lines else []


def _rank(check: Check, seen: Sequence[Observed]) -> list[str]:
    ranked = [(obs, obs.values[-1]) for obs in seen if obs.values]
    if len(ranked) < 2:
        return []
    pressure = any(obs.units.lower() in _PRESSURE_UNITS for obs, _ in ranked)
    if check.op in ("highest", "largest", "biggest"):
        key, word = (lambda item: item[1]), check.op
    elif check.op in ("lowest", "smallest"):
        key, word = (lambda item: -item[1]), check.op
    elif pressure:  # the worst vacuum is the highest pressure
        key, word = (
            ((lambda item: item[1]) if check.op == "worst" else (lambda item: -item[1])),
            check.op,
        )
    else:  # the worst orbit or corrector is the farthest from zero
        key, word = (
            ((lambda item: abs(item[1])) if check.op == "worst" else (lambda item: -abs(item[1]))),
            check.op,
        )
    obs, value = max(ranked, key=key)
    return [
        f"**{word.capitalize()}: {obs.channel} at {_said(value, obs.units)}** (of {len(ranked)})."
    ]


def check_facts(
    check: Check | None,
    seen: Sequence[Observed],
    nominal: Callable[[str], float | None],
    history: bool = False,
    at: str = "",
) -> list[str]:
    """The answer to ``check`` from what was seen (every sample of a history, or the value
    in force at the moment ``at`` names), or [] when there is nothing to check."""
    seen = [
        Observed(
            o.channel,
            [v for v in o.values if isinstance(v, int | float) and math.isfinite(v)],
            o.units,
        )
        for o in seen
    ]
    if check is None or not seen:
        return []
    if check.kind == "level" and check.amount is not None:
        return _level(check, seen, history, at)
    if check.kind == "band" and check.amount is not None:
        return _band(check, seen, nominal)
    if check.kind == "band":
        return _from_reference(check, seen, nominal)
    if check.kind == "beyond" and check.amount is not None:
        return _beyond(check, seen)
    if check.kind == "near" and check.amount is not None:
        return _near(check, seen)
    if check.kind == "rank":
        return _rank(check, seen)
    return []


def observed_values(channel_values: Mapping[str, object]) -> list[Observed]:
    """The live readings of a CHANNEL_VALUES context, as seen values."""
    out = []
    for name, reading in channel_values.items():
        value = getattr(reading, "value", None)
        if isinstance(value, int | float) and not isinstance(value, bool):
            out.append(Observed(name, [float(value)], str(getattr(reading, "units", "") or "")))
    return out


def checked_facts(
    state: Mapping[str, Any],
    context_of: Callable[[str, str], Any],
    kinds: Sequence[str] = ("CHANNEL_VALUES", "ARCHIVER_DATA"),
) -> list[str]:
    """The verdict of the check the request asked of what this turn read or retrieved
    (``context_of(type, key)``: the stored context object)."""
    task = str(state.get("task_current_task") or "")
    # "confirm hcm 3 = 0.0": the check as the parse reads the request ("is hcm 3 at 0.0?")
    check = check_asked(task) or check_asked(said_plainly(task))
    if check is None:
        return []
    seen, history, at = [], False, ""
    for context_type, by_key in (state.get("capability_context_data") or {}).items():
        if context_type not in kinds:
            continue
        for key in by_key:
            context = context_of(context_type, key)
            if context_type == "CHANNEL_VALUES" and getattr(context, "channel_values", None):
                seen += observed_values(context.channel_values)
            elif context_type == "ARCHIVER_DATA" and getattr(context, "time_series_data", None):
                moment = getattr(context, "moment", None)
                history = history or moment is None
                if moment is not None:
                    at = _clock(moment, getattr(context, "timezone_name", "UTC"))
                seen += [
                    Observed(
                        name,
                        values if moment is None else _at(context, name, moment.timestamp()),
                        str((context.units or {}).get(name, "")),
                    )
                    for name, values in context.time_series_data.items()
                ]
    if history and any(len(o.values) == 1 for o in seen) and len({len(o.values) for o in seen}) > 1:
        return []  # a reading beside a history ("higher than at 07:00?"): the comparison says it
    return check_facts(check, seen, _nominal_of, history=history and not at, at=at)


def _clock(moment: Any, zone_name: str) -> str:
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        return moment.astimezone(ZoneInfo(zone_name)).strftime("%H:%M")
    except (ZoneInfoNotFoundError, ValueError):
        return moment.strftime("%H:%M")


def _at(context: Any, name: str, moment: float) -> list[Any]:
    """The sample of ``name`` in force at ``moment`` (the last one at or before it)."""
    times = (context.timestamps or {}).get(name) or []
    values = context.time_series_data.get(name) or []
    before = [v for t, v in zip(times, values, strict=False) if t <= moment]
    return before[-1:] if before else values[:1]


def _nominal_of(channel: str) -> float | None:
    """The channel list's nominal value of ``channel``, when the list gives one."""
    from osprey_desktop.connectors import get_configured_channel_database

    try:
        record = get_configured_channel_database().get(channel)
    except Exception:  # noqa: BLE001 - no list, no nominal: the check says so
        return None
    if record is None or "nominal" not in record.model_fields_set:
        return None
    return float(record.nominal)
