"""The contexts of the investigation capabilities: what is in alarm, and an investigation's
findings. Their summaries carry ``facts`` (repeated word for word in the answer, whichever
planner writes the rest), tables as Markdown, and the provenance of every number.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import Field

from osprey_desktop.context import CapabilityContext


def markdown_table(columns: list[str], rows: list[list[Any]]) -> list[str]:
    """A Markdown table (cells as given, ``|`` escaped)."""

    def cell(value: Any) -> str:
        return str(value).replace("|", "\\|")

    lines = ["| " + " | ".join(cell(c) for c in columns) + " |"]
    lines.append("| " + " | ".join("---" for _ in columns) + " |")
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return lines


class AlarmOverviewContext(CapabilityContext):
    """Every channel of the list (or of the part asked about) in alarm or disconnected now."""

    CONTEXT_TYPE: ClassVar[str] = "ALARM_OVERVIEW"
    CONTEXT_CATEGORY: ClassVar[str] = "LIVE_DATA"

    #: ``investigate.AlarmRow.to_dict()`` rows, worst first.
    rows: list[dict[str, Any]] = Field(default_factory=list)
    checked: int = 0
    scope: str = "the whole channel list"
    read_at: float = 0.0
    control_system: str = ""
    clock: str = ""
    #: Each row's "since" as the operator's clock reads it, per channel.
    since_text: dict[str, str] = Field(default_factory=dict)
    value_text: dict[str, str] = Field(default_factory=dict)

    def get_access_details(self, key: str) -> dict[str, Any]:
        return {
            "rows": self.rows,
            "access_pattern": f"context.{self.CONTEXT_TYPE}.{key}.rows",
            "data_structure": "list of {channel, severity, status, value, units, since}",
        }

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for row in self.rows:
            out[row["severity"]] = out.get(row["severity"], 0) + 1
        return out

    def get_summary(self) -> dict[str, Any]:
        where = f" on {self.control_system}" if self.control_system else ""
        if not self.rows:
            facts = [
                f"**Nothing in alarm** in {self.scope}: all {self.checked} channels read at "
                f"{self.clock}{where} are OK (no MINOR, MAJOR, INVALID or disconnected).",
                "",
                self.provenance_line(),
            ]
            return {"type": "Alarm Overview", "facts": facts, "in_alarm": 0}
        counts = ", ".join(f"{n} {severity}" for severity, n in self.counts().items())
        facts = [
            f"**{len(self.rows)} of {self.checked} channels in alarm** in {self.scope} "
            f"(read at {self.clock}{where}): {counts}. Worst first:",
            "",
        ]
        table = [
            [
                row["channel"],
                row["severity"],
                row["status"],
                self.value_text.get(row["channel"], ""),
                self.since_text.get(row["channel"], ""),
            ]
            for row in self.rows[:40]
        ]
        facts += markdown_table(["channel", "severity", "status", "value", "since"], table)
        if len(self.rows) > 40:
            facts.append(f"… and {len(self.rows) - 40} more (the Alarms panel lists all).")
        facts += ["", self.provenance_line()]
        return {"type": "Alarm Overview", "facts": facts, "in_alarm": len(self.rows)}

    def provenance_line(self) -> str:
        return (
            f"*Read now: the severity each of the {self.checked} channels reports itself, in "
            "batches; since = when the archive shows the severity starting (else the reading's "
            "time). Not checked: channels outside the list, alarms that latched and cleared "
            "(an alarm server's history).*"
        )


class InvestigationContext(CapabilityContext):
    """An investigation's findings: facts, tables, provenance, the channels worth plotting."""

    CONTEXT_TYPE: ClassVar[str] = "INVESTIGATION"
    CONTEXT_CATEGORY: ClassVar[str] = "COMPUTATIONAL_DATA"

    kind: str
    question: str
    facts: list[str] = Field(default_factory=list)
    #: ``{"title", "columns", "rows"}`` each.
    tables: list[dict[str, Any]] = Field(default_factory=list)
    provenance: list[str] = Field(default_factory=list)
    #: Machine-readable results (numbers as computed, epoch times) for tests and follow-ups.
    results: dict[str, Any] = Field(default_factory=dict)
    plot_channels: list[str] = Field(default_factory=list)
    start: float | None = None
    end: float | None = None

    def get_access_details(self, key: str) -> dict[str, Any]:
        return {
            "results": self.results,
            "access_pattern": f"context.{self.CONTEXT_TYPE}.{key}.results",
            "data_structure": "dict of the computed numbers, with provenance",
        }

    def get_summary(self) -> dict[str, Any]:
        lines = list(self.facts)
        for table in self.tables:
            lines += ["", f"*{table['title']}*", ""] if table.get("title") else [""]
            lines += markdown_table(list(table["columns"]), [list(r) for r in table["rows"]])
        if self.provenance:
            lines += ["", "**Where these numbers come from:**"]
            lines += [f"- {line}" for line in self.provenance]
        return {"type": "Investigation", "facts": lines, "kind": self.kind}


__all__ = ["AlarmOverviewContext", "InvestigationContext", "markdown_table"]
