"""``time_range_parsing``: the time range a request names -> TIME_RANGE.

Deterministic (``language.time_parsing``), in the machine's time zone: ``machine.timezone`` from the
config, or this computer's zone when that is null. A range that could be read two ways, or
none at all, becomes a question to the operator (``ClarificationRequired``) with unambiguous
rephrasings; an impossible one (reversed, in the future) is explained the same way.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from osprey_desktop.base.errors import ClarificationRequired, MissingBeforeStep
from osprey_desktop.capabilities.control_room.common import ControlRoomCapability
from osprey_desktop.capabilities.control_room.contexts import TimeRangeContext
from osprey_desktop.language.time_parsing import (
    MOMENT_LOOKBACK,
    AmbiguousTimeRange,
    NoTimeRange,
    ParsedTimeRange,
    TimeRangeError,
    local_timezone,
    names_last_change,
    parse_moment,
    parse_time_range,
)


def range_suggestions(zone: str | None = None) -> list[str]:
    """Offered when a request names no usable range: one of each form the parser reads,
    the dated one on yesterday's date (a fixed date could lie in the future)."""
    tz = ZoneInfo(zone) if zone else local_timezone()[0]
    yesterday = datetime.now(tz).date() - timedelta(days=1)
    return ["the last 2 hours", "since 08:00", "yesterday", f"from {yesterday} 10:00 to 12:00"]


class TimeRangeParsingCapability(ControlRoomCapability):
    """Turn "last 2 hours", "since 8:00", "yesterday" into a start and end time."""

    name = "time_range_parsing"
    description = (
        "Work out the time range a request refers to (last 2 hours, since 8:00, yesterday, "
        "from 10:00 to 12:00) as a start and end date"
    )
    provides = ["TIME_RANGE"]
    requires: list[Any] = []
    keywords = [
        "last hour",
        "past hour",
        "last week",
        "last night",
        "overnight",
        "this morning",
        "since",
        "yesterday",
        "today",
        "ago",
        "between",
        "seconds",
        "minutes",
        "min",
        "hours",
        "days",
        "weeks",
        "24h",
        "time range",
    ]
    examples = [
        "over the last 2 hours",
        "since 8:00",
        "from 2026-11-20 10:00 to 12:00",
        "between 10:00 and 11:30 yesterday",
    ]
    parameters = {"query": "the words naming the range (default: the step objective)"}

    @classmethod
    def mentioned_in(cls, text: str) -> bool | None:
        """Only when the time parser finds an expression: "the second dipole" is no range."""
        from osprey_desktop.language.time_parsing import strip_time_expressions

        # "now" names the present, which a read answers: no range
        text = _PRESENT.sub(" ", text.lower())
        if " ".join(text.split()) != " ".join(strip_time_expressions(text).split()):
            return True
        try:  # "now vs at 10" when 10:00 and 22:00 have both passed: a time, to be asked
            parse_time_range(text, tz=configured_timezone(), shifts=configured_shifts())
        except AmbiguousTimeRange:
            return True
        except TimeRangeError:
            return False
        return False

    def missing_information(self, request: str, state: Mapping[str, Any]) -> str | None:
        """A range read two ways ("lifetime between 9 and 11", "at 2" when 02:00 and 14:00
        have both passed) is asked as the request is planned, once its channels are found:
        no archive is read for a time not yet known. A restore's moment is the write's."""
        from osprey_desktop.capabilities.control_room.write_derivation import parse_derivation

        derivation = parse_derivation(request)
        if derivation is not None and derivation.kind == "restore":
            return None
        try:
            parse_time_range(request, tz=configured_timezone(), shifts=configured_shifts())
        except AmbiguousTimeRange as exc:
            said = " or ".join(f"“{s}”" for s in exc.suggestions)
            offer = f" You could say {said}." if said else ""
            return MissingBeforeStep(
                f"Which time do you mean? {exc.reason[0].upper()}{exc.reason[1:]}.{offer}",
                stops_before=self.name,
            )
        except TimeRangeError:
            return None  # no range, or one the step explains when it runs
        return None

    async def execute(self) -> dict[str, Any]:
        try:
            parsed = self._parse()
        except AmbiguousTimeRange as exc:
            reason = f"{exc.reason[0].upper()}{exc.reason[1:]}"
            raise ClarificationRequired(
                f"Which time range do you mean? {reason}.", exc.suggestions
            ) from exc
        except NoTimeRange as exc:
            raise ClarificationRequired(
                "Which time range should I use?", range_suggestions(configured_timezone())
            ) from exc
        except TimeRangeError as exc:
            raise ClarificationRequired(
                f"I cannot use that time range: {str(exc).rstrip('.')}. Which range should I "
                "use instead?",
                range_suggestions(configured_timezone())[:3],
            ) from exc
        return self.store_output_context(
            TimeRangeContext(
                start_date=parsed.start,
                end_date=parsed.end,
                timezone_name=parsed.timezone_name,
                expression=parsed.expression,
                moment=parsed.moment,
            )
        )

    def _parse(self) -> ParsedTimeRange:
        """The step's words first; the whole task, then the earlier request, when they name
        no time ("for the last hour" follow-ups name one, "do it again" does not)."""
        texts = self.candidate_texts()
        zone = configured_timezone()
        for text in texts:
            restored = _restore_moment(text, zone)
            if restored is not None:
                return restored
        for text in texts[:-1]:
            try:
                return parse_time_range(text, tz=zone, shifts=configured_shifts())
            except NoTimeRange:
                continue
        try:
            return parse_time_range(texts[-1] if texts else "", tz=zone, shifts=configured_shifts())
        except NoTimeRange:
            if not any(_PLOT_ASKED.search(text) for text in texts):
                raise
        # "plot it", "trend of IG 4": a plot that names no time shows the last hour, and says so
        return parse_time_range(
            "the last hour", tz=zone, shifts=configured_shifts()
        ).with_expression(DEFAULT_PLOT_WINDOW)


#: what a plot that names no time shows, as its answer says it
DEFAULT_PLOT_WINDOW = "the last hour (no time was named)"
_PLOT_ASKED = re.compile(r"\b(?:plot|trend|graph|chart)\b", re.I)


def _restore_moment(text: str, zone: str | None) -> ParsedTimeRange | None:
    """ "restore QF11 to its value from 09:30": the moment 09:30 (with the lookback before
    it), not the range since 09:30 that "from 09:30" means in a history request; "from this
    morning": the period itself (the write step restores the value held all of it)."""
    from osprey_desktop.capabilities.control_room.write_derivation import parse_derivation

    derivation = parse_derivation(text)
    if derivation is None or derivation.kind != "restore" or not derivation.moment:
        return None
    if names_last_change(derivation.moment):
        # the moment is found in the audit log by the write step; the history shown is the
        # last hour
        return parse_time_range("the last hour", tz=zone)
    period = restore_period(derivation.moment, zone)
    if period is not None:
        return period
    moment = parse_moment(derivation.moment, tz=zone)
    return ParsedTimeRange(
        moment - MOMENT_LOOKBACK,
        moment,
        zone or local_timezone()[1],
        derivation.moment,
        moment=moment,
    )


#: What leads into a restore's moment ("from 09:30", "as of this morning"); ``parse_moment``
#: drops the same words, so an instant and a period are told apart on the same text.
_RESTORE_MOMENT_LEAD = re.compile(r"^\s*(?:(?:from|at|as\s+of|on|of)\s+)+", re.I)


def restore_period(
    words: str, zone: str | None, now: datetime | None = None
) -> ParsedTimeRange | None:
    """The period a restore's moment words name ("this morning", "yesterday", "this shift",
    "between 09:00 and 10:00"), or None when they name an instant ("09:30", "an hour ago") or
    cannot be read (``parse_moment`` then says why, as for any instant)."""
    text = _RESTORE_MOMENT_LEAD.sub("", " ".join(words.split()))
    try:
        parsed = parse_time_range(text, now=now, tz=zone, shifts=configured_shifts())
    except TimeRangeError:
        return None
    return parsed if parsed.moment is None else None


_PRESENT = re.compile(r"\b(?:right\s+)?now\b|\bat\s+(?:the\s+|this\s+)?(?:moment|present)\b")


def configured_timezone() -> str | None:
    """``machine.timezone`` (an IANA name, validated when the config loads), or None for
    this computer's zone. Read per step, so a replaced config applies at once."""
    from osprey_desktop.config import get_config_value

    zone = get_config_value("machine.timezone", None)
    return str(zone) if zone else None


def configured_shifts() -> tuple[time, ...] | None:
    """``machine.shifts``: when the facility's shifts start, or None (a shift is asked about)."""
    from osprey_desktop.config import get_config_value
    from osprey_desktop.language.time_parsing import shift_starts

    return shift_starts(get_config_value("machine.shifts", None))


__all__ = [
    "TimeRangeParsingCapability",
    "configured_shifts",
    "configured_timezone",
    "range_suggestions",
    "restore_period",
]
