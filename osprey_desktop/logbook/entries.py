"""Logbook entries: what an operator logs, composed from their words and the thread's facts.

An entry is plain data (it travels in the approval interrupt, the ledger and the store). Its
``status`` says how far it got: ``draft`` (shown for confirmation, editable), ``local`` (in
the local logbook), ``published`` (also on the Olog service, ``remote_id`` set),
``not_published`` (Olog refused or was down: ``publish_error`` says why; retried on request)
and ``discarded`` (the operator said no).
"""

from __future__ import annotations

import base64
import hashlib
import re
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

STATUSES = ("draft", "local", "published", "not_published", "discarded")

#: Words that introduce the entry's own text: "make a logbook entry: <text>", "log this: ...".
_LEAD = re.compile(
    r"^\s*(?:please\s+|can you\s+|could you\s+)?"
    r"(?:(?:make|create|add|write|post|open)\s+(?:a\s+|an\s+|the\s+)?"
    r"(?:new\s+)?(?:e-?log(?:book)?|log(?:book)?)\s+entry"
    r"|log\s+(?:this|that|it)|log\s+the\s+[\w\s-]*?(?:plot|chart|orbit|values?|writes?)"
    r"|(?:put|note|record)\s+(?:this|that|it)\s+in\s+the\s+(?:e-?)?log(?:book)?"
    r"|log(?:book)?\s+entry)\s*",
    re.I,
)
_NOTE = re.compile(r"\b(?:with\s+(?:a\s+|the\s+)?note|saying|that says|note)\s*[:,-]?\s*", re.I)
_SCREENSHOT = re.compile(r"\bscreen\s*shot\b|\bscreen\s*capture\b|\bsnapshot of the window\b", re.I)
_MAX_TITLE = 80


@dataclass(frozen=True)
class Attachment:
    """A file attached to an entry (a plot or a screenshot as PNG)."""

    filename: str
    content_type: str
    data: bytes

    @property
    def size(self) -> int:
        return len(self.data)

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.data).hexdigest()[:16]

    def to_json(self) -> dict[str, Any]:
        """JSON form with the bytes as base64 (for the ledger and the interrupt)."""
        return {
            "filename": self.filename,
            "content_type": self.content_type,
            "data": base64.b64encode(self.data).decode("ascii"),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Attachment:
        return cls(
            filename=str(data["filename"]),
            content_type=str(data.get("content_type") or "application/octet-stream"),
            data=base64.b64decode(str(data.get("data") or "")),
        )


@dataclass(frozen=True)
class Fact:
    """One line of what the thread knows: a value with its time, a write with its outcome."""

    kind: str  # "value", "write", "history", "note"
    text: str
    when: float | None = None
    channels: tuple[str, ...] = ()


@dataclass(frozen=True)
class LogbookEntry:
    """One logbook entry (``id`` is 0 until it is stored)."""

    title: str
    text: str
    logbook: str
    tags: tuple[str, ...] = ()
    author: str = ""
    created_at: float = field(default_factory=time.time)
    thread_id: str | None = None
    channels: tuple[str, ...] = ()
    attachments: tuple[Attachment, ...] = ()
    status: str = "draft"
    remote_id: str | None = None
    publish_error: str | None = None
    approval_id: str | None = None
    id: int = 0

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"entry status must be one of {', '.join(STATUSES)}")
        if not self.title.strip():
            raise ValueError("a logbook entry needs a title")

    def with_changes(self, **changes: Any) -> LogbookEntry:
        return replace(self, **changes)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["tags"] = list(self.tags)
        data["channels"] = list(self.channels)
        data["attachments"] = [a.to_json() for a in self.attachments]
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> LogbookEntry:
        fields = dict(data)
        fields["tags"] = tuple(fields.get("tags") or ())
        fields["channels"] = tuple(fields.get("channels") or ())
        fields["attachments"] = tuple(
            Attachment.from_json(a) for a in fields.get("attachments") or ()
        )
        known = cls.__dataclass_fields__
        return cls(**{k: v for k, v in fields.items() if k in known})

    def describe(self) -> str:
        """Markdown of the whole entry, as the confirmation shows it."""
        lines = [f"**{self.title}**", "", self.text.strip(), ""]
        lines.append(
            f"Logbook: {self.logbook}" + (f" · tags: {', '.join(self.tags)}" if self.tags else "")
        )
        if self.attachments:
            lines.append(
                "Attachments: "
                + ", ".join(f"{a.filename} ({_size(a.size)})" for a in self.attachments)
            )
        return "\n".join(lines)


def _size(n: int) -> str:
    return f"{n / 1024:.0f} KB" if n >= 1024 else f"{n} B"


def operator_words(request: str) -> str:
    """The operator's own text for the entry: the request without "make a logbook entry:"."""
    text = _LEAD.sub("", request.strip(), count=1)
    text = _NOTE.sub("", text, count=1) if _NOTE.match(text) else text
    return text.strip(" \t:,-").strip()


def wants_screenshot(request: str) -> bool:
    return bool(_SCREENSHOT.search(request))


def make_title(words: str, facts: Sequence[Fact]) -> str:
    """The first sentence of the operator's words, else what the facts are about."""
    first = re.split(r"(?<=[.!?])\s|\n", words.strip(), maxsplit=1)[0].strip()
    if not first:
        channels = list(dict.fromkeys(c for f in facts for c in f.channels))
        kinds = {f.kind for f in facts}
        what = "Writes" if "write" in kinds else "Values" if facts else "Note"
        first = f"{what}: {', '.join(channels[:4])}" if channels else f"{what} from the assistant"
    if len(first) > _MAX_TITLE:
        first = first[: _MAX_TITLE - 1].rstrip() + "…"
    return first[0].upper() + first[1:]


def compose_entry(
    request: str,
    facts: Iterable[Fact],
    *,
    logbook: str,
    tags: Sequence[str] = (),
    author: str = "",
    thread_id: str | None = None,
    attachments: Sequence[Attachment] = (),
    now: float | None = None,
) -> LogbookEntry:
    """A draft entry: title and text from the operator's words, the thread's facts below."""
    facts = list(facts)
    words = operator_words(request)
    lines = [words] if words else []
    if facts:
        if lines:
            lines.append("")
        lines.append("From the assistant's thread:")
        for fact in facts:
            when = f" ({_clock(fact.when)})" if fact.when else ""
            lines.append(f"- {fact.text}{when}")
    if thread_id and lines:
        # where to read the whole conversation (osprey-desktop ask --thread ID, or the window)
        lines += ["", f"Osprey Desktop thread {thread_id}"]
    channels = tuple(dict.fromkeys(c for f in facts for c in f.channels))
    return LogbookEntry(
        title=make_title(words, facts),
        text="\n".join(lines) or "(no text)",
        logbook=logbook,
        tags=tuple(tags),
        author=author,
        created_at=time.time() if now is None else now,
        thread_id=thread_id,
        channels=channels,
        attachments=tuple(attachments),
    )


def _clock(when: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(when))


__all__ = [
    "STATUSES",
    "Attachment",
    "Fact",
    "LogbookEntry",
    "compose_entry",
    "make_title",
    "operator_words",
    "wants_screenshot",
]
