"""``time_range_parsing``: the time range a request names -> TIME_RANGE.

Deterministic (``time_parsing``), in the computer's time zone. A range that could be read two
ways, or none at all, becomes a question to the operator with unambiguous rephrasings; an
impossible one (reversed, in the future) is explained the same way.
"""

from __future__ import annotations

from typing import Any

from osprey_desktop.capabilities.control_room.common import ControlRoomCapability
from osprey_desktop.capabilities.control_room.contexts import TimeRangeContext
from osprey_desktop.capabilities.control_room.time_parsing import (
    AmbiguousTimeRange,
    NoTimeRange,
    ParsedTimeRange,
    TimeRangeError,
    parse_time_range,
)


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

    async def execute(self) -> dict[str, Any]:
        try:
            parsed = self._parse()
        except AmbiguousTimeRange as exc:
            hints = " or ".join(f"'{s}'" for s in exc.suggestions)
            question = f"Which time range do you mean? {exc.reason[0].upper()}{exc.reason[1:]}."
            if hints:
                question += f" You could say {hints}."
            return self.hand_off_to_clarify(question)
        except NoTimeRange:
            return self.hand_off_to_clarify(
                "Which time range should I use? For example 'the last 2 hours', "
                "'since 08:00', 'yesterday' or 'from 2026-11-20 10:00 to 12:00'."
            )
        except TimeRangeError as exc:
            return self.hand_off_to_clarify(f"I cannot use that time range: {exc}")
        return self.store_output_context(
            TimeRangeContext(
                start_date=parsed.start,
                end_date=parsed.end,
                timezone_name=parsed.timezone_name,
                expression=parsed.expression,
            )
        )

    def _parse(self) -> ParsedTimeRange:
        """The step's words first; the whole task, then the earlier request, when they name
        no time ("for the last hour" follow-ups name one, "do it again" does not)."""
        texts = self.candidate_texts()
        for text in texts[:-1]:
            try:
                return parse_time_range(text)
            except NoTimeRange:
                continue
        return parse_time_range(texts[-1] if texts else "")


__all__ = ["TimeRangeParsingCapability"]
