"""Where a number came from: the channels, the window, the samples, the method, the gaps."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, tzinfo
from typing import Any


def clock_text(t: float, zone: tzinfo | None = None, with_date: bool = True) -> str:
    """An epoch time as the operator's clock reads it (``zone``: the facility's; None: this
    computer's)."""
    fmt = "%Y-%m-%d %H:%M:%S" if with_date else "%H:%M:%S"
    moment = datetime.fromtimestamp(t, zone) if zone else datetime.fromtimestamp(t).astimezone()
    return moment.strftime(fmt)


@dataclass(frozen=True)
class Provenance:
    """What a result rests on; ``not_checked`` names what it did not look at."""

    channels: tuple[str, ...]
    start: float
    end: float
    samples: int
    method: str
    not_checked: tuple[str, ...] = field(default_factory=tuple)

    def line(self, zone: tzinfo | None = None) -> str:
        """One sentence for the answer ("Based on ...")."""
        shown = ", ".join(self.channels[:4])
        if len(self.channels) > 4:
            shown += f" and {len(self.channels) - 4} more"
        text = (
            f"Based on {self.samples:,} archived samples of {shown} from "
            f"{clock_text(self.start, zone)} to {clock_text(self.end, zone)}; "
            f"method: {self.method}."
        )
        if self.not_checked:
            text += " Not checked: " + "; ".join(self.not_checked) + "."
        return text

    def to_dict(self) -> dict[str, Any]:
        return {
            "channels": list(self.channels),
            "start": self.start,
            "end": self.end,
            "samples": self.samples,
            "method": self.method,
            "not_checked": list(self.not_checked),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Provenance:
        return cls(
            channels=tuple(data.get("channels") or ()),
            start=float(data["start"]),
            end=float(data["end"]),
            samples=int(data.get("samples") or 0),
            method=str(data.get("method") or ""),
            not_checked=tuple(data.get("not_checked") or ()),
        )
