"""Fuzzy ranking of the command palette."""

from __future__ import annotations

from osprey_desktop.ui.command_palette import PaletteEntry, fuzzy_score, rank


def entry(title: str) -> PaletteEntry:
    return PaletteEntry(title, "action", lambda: None)


def test_subsequence_matches_and_word_starts_rank_first():
    entries = [entry("Show context browser"), entry("Open in archive viewer"), entry("Quit")]
    assert [e.title for e in rank("oarch", entries)] == ["Open in archive viewer"]
    assert rank("arv", entries)[0].title == "Open in archive viewer"
    assert fuzzy_score("xyz", "Quit") is None


def test_empty_query_keeps_every_entry_in_order():
    entries = [entry("b"), entry("a")]
    assert [e.title for e in rank("", entries)] == ["b", "a"]
