"""Two turns parsed on a small ring's vocabulary at a fixed moment, for follow-up tests."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from osprey_desktop.language.follow_ups import follow_up
from osprey_desktop.language.request import Vocabulary, parse_request

WORDS = Vocabulary(
    device_prefixes=frozenset({"hcm", "vcm", "qf", "qd", "bpm", "id", "ig"}),
    channel_words=frozenset(
        {"beam", "current", "lifetime", "tune", "horizontal", "vertical", "rf", "voltage"}
        | {"gap", "vacuum", "pressure", "orbit", "corrector", "correctors"}
    ),
)
NOW = datetime(2026, 11, 26, 15, 30, tzinfo=ZoneInfo("Europe/Berlin"))


def parse(text: str):
    return parse_request(text, WORDS, NOW)


def merged(previous: str, new: str):
    """The second turn read as a follow-up of the first (None when it stands on its own)."""
    return follow_up(parse(previous), parse(new), WORDS)
