"""Moments said with what happened then, with chat's marks, or with a part of the day before
the hour (``language.time_words``, ``language.times``, ``language.symbols``)."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from osprey_desktop.language.request import Vocabulary, parse_request
from osprey_desktop.language.symbols import pictographs_dropped
from osprey_desktop.language.time_words import hours_of_past_moments

WORDS = Vocabulary(
    device_prefixes=frozenset({"hcm", "vcm", "qf", "qd", "id", "bpm"}),
    channel_words=frozenset({"current", "lifetime", "gap", "dcct", "vacuum", "energy"}),
)
NOW = datetime(2026, 3, 4, 9, 30, tzinfo=ZoneInfo("Europe/Berlin"))


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("the energy right before the RF trip at 01:55", "the energy at 01:55"),
        ("BPM 4 x at the time of the 23:20 interlock", "BPM 4 x at 23:20"),
        ("the gap at 05:10, shortly after the refill", "the gap at 05:10"),
        ("vacuum just prior to the 02:05 beam dump?", "vacuum at 02:05?"),
        ("lifetime @ 08:45", "lifetime at 08:45"),
        ("QF 3 07:15 yesterday", "QF 3 at 07:15 yesterday"),
    ],
)
def test_a_moment_named_by_its_event_or_its_marks_is_its_clock_time(text, said):
    assert hours_of_past_moments(text) == said


@pytest.mark.parametrize(
    "text",
    [
        "what happened before the trip?",  # no clock time: the event itself is asked about
        "from 07:15 today",  # a range word reads its own day
        "set QF 3 to 121 A",
    ],
)
def test_other_words_around_a_time_stay(text):
    assert hours_of_past_moments(text) == text


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        (
            "plot the vacuum from yesterday evening 9 o'clock until midnight",
            "03-03 21:00",
            "03-04 00:00",
        ),
        ("the current from 7 yesterday evening till midnight", "03-03 19:00", "03-04 00:00"),
        ("the energy between 11 pm and midnight", "03-03 23:00", "03-04 00:00"),
    ],
)
def test_a_range_to_midnight_ends_at_the_midnight_after_its_start(text, start, end):
    request = parse_request(text, WORDS, now=NOW)
    assert request.time is not None
    assert f"-{start} " in request.time.canonical or request.time.canonical.endswith(start)
    assert f"2026-{end}" in request.time.canonical


def test_a_part_of_the_day_before_the_hour_of_a_since_qualifies_it():
    request = parse_request("the lifetime since yesterday afternoon at 3", WORDS, now=NOW)
    assert request.time is not None and "2026-03-03 15:00" in request.time.canonical
    assert request.targets == ("the lifetime",)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("👉 lt + curr? thx 🙏", "lt + curr? thx"),
        ("HCM 4 ⬆ a touch 👍🏽", "HCM 4 ⬆ a touch"),  # the arrow stays, the thumb and its tone go
        ("QF 3 → 121 A ✅", "QF 3 → 121 A"),
        ("vacuum s3?", "vacuum s3?"),
    ],
)
def test_pictographs_are_dropped_and_arrows_kept(text, said):
    assert pictographs_dropped(text) == said
