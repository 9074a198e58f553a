"""The words of a small ring's channel list and a fixed clock, for tests of the request parse
that must not depend on the configured list or on the time they run at."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from osprey_desktop.language.request import Request, Vocabulary, parse_request

WORDS = Vocabulary(
    device_prefixes=frozenset({"hcm", "vcm", "qf", "qd", "bpm", "id", "ig"}),
    channel_words=frozenset(
        {"beam", "current", "lifetime", "tune", "gap", "vacuum", "pressure", "voltage"}
    ),
)
#: a Thursday afternoon
NOW = datetime(2026, 11, 26, 15, 30, tzinfo=ZoneInfo("UTC"))


def parse(text: str) -> Request:
    """``text`` parsed with these words, at ``NOW``."""
    return parse_request(text, WORDS, NOW)
