"""Numbers spelled out read the same in the time parser and the channel finder (one table)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from osprey_desktop.channels.database import ChannelDatabase
from osprey_desktop.language.numbers import NUMBER_WORDS
from osprey_desktop.language.time_parsing import parse_time_range

NOW = datetime(2026, 11, 21, 14, 30, tzinfo=UTC)


@pytest.mark.parametrize("word", ["seven", "twelve", "twenty-four", "forty-five"])
def test_a_spelled_out_duration_is_read_like_its_digits(word: str) -> None:
    spelled = parse_time_range(f"last {word} hours", now=NOW, tz=UTC)
    digits = parse_time_range(f"last {NUMBER_WORDS[word]} hours", now=NOW, tz=UTC)
    assert (spelled.start, spelled.end) == (digits.start, digits.end)
    assert spelled.end - spelled.start == timedelta(hours=NUMBER_WORDS[word])


@pytest.mark.parametrize("word", ["three", "twelve", "twenty-four"])
def test_a_spelled_out_sector_filters_like_its_digits(database: ChannelDatabase, word: str) -> None:
    spelled = database.top_matches(f"vertical orbit sector {word}")
    digits = database.top_matches(f"vertical orbit sector {NUMBER_WORDS[word]}")
    assert [m.name for m in spelled] == [m.name for m in digits]
    if NUMBER_WORDS[word] <= 12:  # the simulated ring has twelve sectors
        assert spelled and all(m.name.startswith(f"SR{NUMBER_WORDS[word]:02d}C") for m in spelled)
