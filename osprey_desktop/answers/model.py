"""The structured answer of a turn: text blocks and tables, with Markdown and a JSON form.

The window renders an ``Answer`` with colours (alarm severity, write outcome, refusals); the
command line prints ``to_markdown()``; the answer travels between them as ``to_dict()`` in the
answer message's ``additional_kwargs`` (plain JSON, so the checkpoint stores it as is).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

ANSWER_KEY = "osprey_answer"
"""Key of the structured answer in the answer message's ``additional_kwargs``."""

#: How a whole answer reads at a glance.
Tone = Literal["info", "success", "refused", "failed"]
#: What a text block is: a stated outcome, the planner's words, or something that went wrong.
TextKind = Literal["fact", "text", "problem"]
#: Alarm states, the way operator displays name them (EPICS severities plus disconnected).
ALARM_SEVERITIES = ("MINOR", "MAJOR", "INVALID", "DISCONNECTED")
#: How a write outcome reads in colour: ``good``, ``warning``, ``refused`` or ``bad``.
OutcomeLook = Literal["", "good", "warning", "refused", "bad"]


@dataclass
class Cell:
    """One table cell: its text and what colours it (an alarm or a write outcome)."""

    text: str
    severity: str = ""  # MINOR / MAJOR / INVALID / DISCONNECTED, else ""
    look: str = ""  # an OutcomeLook for write outcomes
    numeric: bool = False  # right-aligned
    hint: str = ""  # tooltip in the window

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"text": self.text}
        for name in ("severity", "look", "hint"):
            if getattr(self, name):
                data[name] = getattr(self, name)
        if self.numeric:
            data["numeric"] = True
        return data

    @classmethod
    def from_dict(cls, data: Any) -> Cell:
        if not isinstance(data, Mapping):
            return cls(str(data))
        return cls(
            text=str(data.get("text", "")),
            severity=str(data.get("severity") or ""),
            look=str(data.get("look") or ""),
            numeric=bool(data.get("numeric")),
            hint=str(data.get("hint") or ""),
        )

    def markdown(self) -> str:
        text = self.text
        if self.severity and self.severity not in text:
            text = f"{text} ({self.severity})"
        return _escape_cell(text) or "—"


@dataclass
class TextBlock:
    """Markdown text: facts (outcomes said word for word), the planner's words, problems."""

    markdown: str
    kind: TextKind = "text"

    def to_dict(self) -> dict[str, Any]:
        return {"block": "text", "markdown": self.markdown, "kind": self.kind}

    def to_markdown(self) -> str:
        return self.markdown


@dataclass
class Table:
    """A table of values, history statistics or write results.

    ``markdown_lines``, when set, is what the command line prints instead of a Markdown table:
    write results keep their fact lines word for word there.
    """

    kind: str  # "values", "history" or "writes"
    title: str
    columns: list[str]
    rows: list[list[Cell]]
    notes: list[str] = field(default_factory=list)
    source: tuple[str, str] | None = None  # (context type, key): "details" in the window
    markdown_lines: list[str] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "block": "table",
            "kind": self.kind,
            "title": self.title,
            "columns": list(self.columns),
            "rows": [[c.to_dict() for c in row] for row in self.rows],
            "notes": list(self.notes),
            "source": list(self.source) if self.source else None,
            "markdown_lines": self.markdown_lines,
        }

    def to_markdown(self) -> str:
        if self.markdown_lines is not None:
            return "\n".join(self.markdown_lines)
        lines = [f"**{self.title}**", ""] if self.title else []
        lines.append("| " + " | ".join(_escape_cell(c) for c in self.columns) + " |")
        lines.append(
            "|"
            + "|".join(
                " ---: " if self._numeric_column(i) else " --- " for i in range(len(self.columns))
            )
            + "|"
        )
        for row in self.rows:
            lines.append("| " + " | ".join(cell.markdown() for cell in row) + " |")
        if self.notes:
            lines.append("")
            lines.extend(self.notes)
        return "\n".join(lines)

    def _numeric_column(self, index: int) -> bool:
        cells = [row[index] for row in self.rows if index < len(row)]
        return bool(cells) and all(c.numeric for c in cells)


Block = TextBlock | Table


@dataclass
class Answer:
    """What the operator is told at the end of a turn."""

    blocks: list[Block] = field(default_factory=list)
    tone: Tone = "info"
    headline: str = ""  # for refusals and failures: one line that says so
    answered_at: float = field(default_factory=time.time)
    started_at: float | None = None  # when the turn started (the request's time)

    def to_markdown(self) -> str:
        parts: list[str] = []
        previous: Block | None = None
        for block in self.blocks:
            text = block.to_markdown()
            if not text.strip():
                continue
            # consecutive outcome lines stay one paragraph, as the facts always read
            glue = "\n" if _is_fact(previous) and _is_fact(block) else "\n\n"
            parts.append((glue if parts else "") + text)
            previous = block
        return "".join(parts)

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": 1,
            "tone": self.tone,
            "headline": self.headline,
            "answered_at": self.answered_at,
            "started_at": self.started_at,
            "blocks": [b.to_dict() for b in self.blocks],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Answer:
        """Read back a stored answer; unknown blocks are skipped, never fatal."""
        blocks: list[Block] = []
        for raw in data.get("blocks") or []:
            if not isinstance(raw, Mapping):
                continue
            if raw.get("block") == "text":
                kind = raw.get("kind") if raw.get("kind") in ("fact", "text", "problem") else "text"
                blocks.append(TextBlock(str(raw.get("markdown") or ""), kind))  # type: ignore[arg-type]
            elif raw.get("block") == "table":
                source = raw.get("source")
                lines = raw.get("markdown_lines")
                blocks.append(
                    Table(
                        kind=str(raw.get("kind") or ""),
                        title=str(raw.get("title") or ""),
                        columns=[str(c) for c in raw.get("columns") or []],
                        rows=[[Cell.from_dict(c) for c in row] for row in raw.get("rows") or []],
                        notes=[str(n) for n in raw.get("notes") or []],
                        source=(str(source[0]), str(source[1]))
                        if isinstance(source, Sequence) and len(source) == 2
                        else None,
                        markdown_lines=[str(x) for x in lines] if isinstance(lines, list) else None,
                    )
                )
        tone = data.get("tone")
        started = data.get("started_at")
        return cls(
            blocks=blocks,
            tone=tone if tone in ("info", "success", "refused", "failed") else "info",
            headline=str(data.get("headline") or ""),
            answered_at=_float(data.get("answered_at"), time.time()),
            started_at=_float(started, None) if started is not None else None,
        )

    def tables(self, kind: str | None = None) -> list[Table]:
        return [b for b in self.blocks if isinstance(b, Table) and (kind is None or b.kind == kind)]


def answer_of_message(message: Any) -> Answer | None:
    """The structured answer a stored message carries (LangChain message or dict), if any."""
    if isinstance(message, Mapping):
        extra = message.get("additional_kwargs") or {}
    else:
        extra = getattr(message, "additional_kwargs", None) or {}
    data = extra.get(ANSWER_KEY) if isinstance(extra, Mapping) else None
    if not isinstance(data, Mapping):
        return None
    try:
        return Answer.from_dict(data)
    except (TypeError, ValueError):
        return None


def _is_fact(block: Block | None) -> bool:
    if isinstance(block, TextBlock):
        return block.kind == "fact"
    return isinstance(block, Table) and block.markdown_lines is not None


def _escape_cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _float(value: Any, default: Any) -> Any:
    try:
        return float(value)
    except (TypeError, ValueError):
        return default


__all__ = [
    "ALARM_SEVERITIES",
    "ANSWER_KEY",
    "Answer",
    "Block",
    "Cell",
    "Table",
    "TextBlock",
    "answer_of_message",
]
