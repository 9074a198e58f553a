"""What a reader makes of one channel: the file's statements, and its problems.

``ChannelDraft`` holds what the file states about a channel and ``None`` for what it does not
say; ``listing.finish`` settles the rest. ``ListProblem`` is one thing a reader skipped or read
the safe way, with where it is in the file ("line 12", "entry 3", "SR > BPM > X").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from osprey_desktop.channels.formats.naming import humanize, role_marker
from osprey_desktop.channels.records import Role

_CAMEL_CASE = re.compile(r"[a-z][A-Z]")


@dataclass(frozen=True)
class ListProblem:
    """Something in the list that was skipped or read the safe way, and where it is."""

    where: str
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}" if self.where else self.message

    def to_dict(self) -> dict[str, str]:
        return {"where": self.where, "message": self.message}


@dataclass(slots=True)
class ChannelDraft:
    """One channel as a file states it; ``None`` means the file does not say."""

    name: str
    where: str
    description: str = ""
    synonyms: list[str] = field(default_factory=list)
    aliases: list[str] = field(default_factory=list)  # other names the list gives the channel
    family: str = ""
    device: str | None = None
    sector: int | None = None
    position: float | None = None  # s along the beam path
    units: str = ""
    precision: int | None = None
    role: Role | None = None
    writable: bool | None = None
    texts: list[str] | None = None  # the descriptions to read a role from, most specific first
    readback: str | None = None
    setpoint: str | None = None
    limits: dict[str, Any] | None = None
    nominal: float | None = None
    markers: list[tuple[str, str]] | None = None  # (role, stem) of each name that has a role word
    kept_read_only: bool = False  # the reader made it read-only and said why

    def record_fields(self) -> dict[str, Any]:
        synonyms = self.synonyms
        if self.aliases:
            synonyms = list(dict.fromkeys(s for s in [*synonyms, *self._alias_words()] if s))
        out: dict[str, Any] = {
            "name": self.name,
            "description": self.description,
            "synonyms": synonyms,
            "family": self.family,
            "device": self.device,
            "sector": self.sector,
            "position": self.position,
            "role": self.role or "monitor",
            "units": self.units,
            "writable": bool(self.writable),
            "readback": self.readback,
            "setpoint": self.setpoint,
        }
        if self.precision is not None:
            out["precision"] = self.precision
        if self.limits:
            out["limits"] = self.limits
        if self.nominal is not None:
            out["nominal"] = self.nominal
        return out

    def _alias_words(self) -> list[str]:
        """Each alias, and its words when it runs them together ("TerminalVoltageReadBack")."""
        out: list[str] = []
        for alias in self.aliases:
            if alias and alias != self.name:
                out.append(alias)
                if _CAMEL_CASE.search(alias):
                    out.append(humanize(alias))
        return out

    def role_markers(self) -> list[tuple[str, str]]:
        """(role, stem) of the channel's names that carry a role word, the PV name first."""
        if self.markers is None:
            found = (role_marker(n) for n in (self.name, *self.aliases))
            self.markers = [m for m in found if m is not None]
        return self.markers
