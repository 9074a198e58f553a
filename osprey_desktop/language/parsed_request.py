"""What the parse of a request holds: its intent, slots and words (``Request``), its time
(``TimeSlot``), and the facility's words it was read with (``Vocabulary``).

Plain records with no parsing in them, so the pieces of the parse, the planners and the
capabilities can share them without importing the parse itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from osprey_desktop.language.quantities import Quantity
from osprey_desktop.language.references import Reference

Intent = Literal[
    "read",
    "history",
    "plot",
    "statistic",
    "compare",
    "write",
    "copy",
    "restore",
    "state",
    "knowledge",
    "conversation",
    "unknown",
]
#: Intents that change the machine.
CHANGE_INTENTS = frozenset({"write", "copy", "restore", "state"})


@dataclass(frozen=True)
class Vocabulary:
    """The facility's words, given by the caller (built from its channel list)."""

    #: Lower-case letters that start a device name ("hcm" for HCM01, "qd" for QD08).
    device_prefixes: frozenset[str] = frozenset()
    #: Lower-case words of the channels' descriptions and synonyms ("lifetime", "gap").
    channel_words: frozenset[str] = frozenset()


@dataclass(frozen=True)
class TimeSlot:
    kind: Literal["moment", "since", "range", "words"]
    words: str
    canonical: str


@dataclass(frozen=True)
class Request:
    """One request, parsed. ``canonical`` is what the capabilities are given to read."""

    text: str
    intent: Intent
    targets: tuple[str, ...] = ()
    quantity: Quantity | None = None
    time: TimeSlot | None = None
    reference: Reference | None = None
    state: str | None = None
    verb: str | None = None
    used: tuple[str, ...] = ()
    unused: tuple[str, ...] = ()
    canonical: str = ""
    refers_back: bool = False
    #: a clause that reads or asks comes before the change ("look at HCM3 and set it to 0")
    reads_first: bool = False
    #: a clause that reads comes after the change ("set HCM27 to 0.3 A, then show me the orbit")
    reads_after: bool = False

    @property
    def changes(self) -> bool:
        return self.intent in CHANGE_INTENTS

    def explain(self) -> dict[str, object]:
        """The parse as plain data (``ask --explain``, the chat-model planner's schema)."""
        return {
            "intent": self.intent,
            "targets": list(self.targets),
            "quantity": self.quantity.describe() if self.quantity else None,
            "time": self.time.canonical if self.time else None,
            "reference": f"{self.reference.kind}: {self.reference.words}"
            if self.reference
            else None,
            "state": self.state,
            "verb": self.verb,
            "unused_words": list(self.unused),
            "canonical": self.canonical,
        }
