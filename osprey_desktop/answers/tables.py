"""Tables of live values and of write results, built from the stored context objects.

Values: channel, description, value (the channel's precision and units), alarm, age.
Writes: channel, requested, before, readback, outcome, note — coloured by outcome; the
command line keeps printing the write facts word for word (``markdown_lines``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from osprey_desktop.answers.model import Cell, Table
from osprey_desktop.answers.numbers import format_age, format_fixed, format_reading, is_number

NO_ALARM = ("", "NO_ALARM", "NONE", "OK")
#: Statuses that mean the value never arrived, whatever the severity says.
DISCONNECTED_STATUSES = ("DISCONNECTED", "COMM", "TIMEOUT", "LINK", "UDF")

#: Colour key of each write outcome (see ``Cell.look``).
OUTCOME_LOOK: dict[str, str] = {
    "verified": "good",
    "verified_with_alarm": "warning",
    "sent_unverified": "warning",
    "readback_failed": "bad",
    "verification_failed": "bad",
    "in_doubt": "bad",
    "blocked": "refused",
    "rejected": "refused",
    "not_sent": "refused",
}
#: Outcomes that mean nothing reached the channel.
NOT_SENT = ("blocked", "rejected", "not_sent")


def alarm_cell(severity: str, status: str = "") -> Cell:
    """The alarm column: ``OK``, or the severity in its colour with the status as detail."""
    severity = (severity or "").upper()
    status = (status or "").upper()
    if severity in NO_ALARM:
        return Cell("OK")
    if severity == "INVALID" and status in DISCONNECTED_STATUSES[:3]:
        return Cell("DISCONNECTED", severity="DISCONNECTED", hint=f"INVALID alarm: {status}")
    text = severity if not status or status in NO_ALARM else f"{severity} · {status}"
    known = severity if severity in ("MINOR", "MAJOR", "INVALID", "DISCONNECTED") else "INVALID"
    return Cell(text, severity=known, hint=f"{severity} alarm{': ' + status if status else ''}")


def values_table(
    context: Any,
    descriptions: Mapping[str, str],
    answered_at: float,
    source: tuple[str, str] | None = None,
) -> Table:
    """A CHANNEL_VALUES context (``channel_values``, ``errors``) as one row per channel."""
    rows: list[list[Cell]] = []
    for name, reading in context.channel_values.items():
        alarm = alarm_cell(reading.alarm_severity, reading.alarm_status)
        value = format_reading(reading.value, reading.precision, reading.units)
        stamp = reading.timestamp.timestamp()
        rows.append(
            [
                Cell(name),
                Cell(descriptions.get(name, "")),
                Cell(value, severity=alarm.severity, numeric=is_number(reading.value)),
                alarm,
                Cell(
                    format_age(answered_at - stamp),
                    numeric=True,
                    hint=f"read at {reading.timestamp:%Y-%m-%d %H:%M:%S}",
                ),
            ]
        )
    for name, error in (getattr(context, "errors", None) or {}).items():
        rows.append(
            [
                Cell(name),
                Cell(descriptions.get(name, "")),
                Cell(f"not read: {error}", severity="DISCONNECTED"),
                Cell("DISCONNECTED", severity="DISCONNECTED", hint=str(error)),
                Cell("—"),
            ]
        )
    count = len(rows)
    title = "Value" if count == 1 else f"{count} values"
    alarms = [r for r in rows if r[3].severity]
    if alarms:
        title += f" — {len(alarms)} in alarm or disconnected"
    return Table(
        kind="values",
        title=title,
        columns=["Channel", "Description", "Value", "Alarm", "Age"],
        rows=rows,
        source=source,
    )


def write_table(context: Any, facts: list[str], source: tuple[str, str] | None = None) -> Table:
    """A CHANNEL_WRITE_RESULTS context: one row per operation, coloured by its outcome."""
    rows: list[list[Cell]] = []
    for result in context.results:
        units = result.units or ""
        rows.append(
            [
                Cell(result.channel),
                Cell(_plain(result.requested_value, units), numeric=True),
                Cell(_plain(result.previous_value, units), numeric=True),
                Cell(_plain(result.readback, units, digits=4), numeric=True),
                Cell(
                    result.outcome.replace("_", " "),
                    look=OUTCOME_LOOK.get(result.outcome, ""),
                ),
                Cell(result.message or ""),
            ]
        )
    headline = context.headline() if hasattr(context, "headline") else ""
    return Table(
        kind="writes",
        title=headline.replace("**", ""),
        columns=["Channel", "Requested", "Before", "Readback", "Outcome", "Note"],
        rows=rows,
        source=source,
        markdown_lines=list(facts),
    )


def write_tone(context: Any) -> tuple[str, str]:
    """(tone, headline) of a write step: refused when nothing was sent, failed when a sent
    write was not confirmed, else success."""
    outcomes = [r.outcome for r in context.results]
    if outcomes and all(o in NOT_SENT for o in outcomes):
        return "refused", "Refused"
    if any(OUTCOME_LOOK.get(o) == "bad" for o in outcomes):
        return "failed", "Not confirmed"
    if any(o in NOT_SENT for o in outcomes):
        return "refused", "Partly refused"
    return "success", ""


def _plain(value: Any, units: str, digits: int | None = None) -> str:
    """A requested or read-back value: 1.5 A, 1.4525 A; '—' when there is none."""
    if value is None:
        return "—"
    if not is_number(value):
        return f"{value} {units}".strip()
    if digits is not None:
        text = f"{value:.{digits}f}".rstrip("0").rstrip(".")
        return f"{text} {units}".strip()
    return (
        format_fixed(value, None, units)
        if abs(value) and abs(value) < 1e-4
        else (f"{value:g} {units}".strip())
    )


__all__ = ["alarm_cell", "values_table", "write_table", "write_tone"]
