"""Shorthand read by a list's own words: starts of words, consonant skeletons, and when not."""

from __future__ import annotations

import pytest

from osprey_desktop.language.device_names import is_channel_word
from osprey_desktop.language.parsed_request import Vocabulary
from osprey_desktop.language.shortenings import MAX_MEANINGS, Shortenings

RING_WORDS = frozenset(
    [
        "beam",
        "current",
        "lifetime",
        "pressure",
        "vacuum",
        "voltage",
        "frequency",
        "horizontal",
        "vertical",
        "corrector",
        "quadrupole",
        "gap",
        "position",
        "setpoint",
        "readback",
        "sector",
        "gauge",
    ]
)


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("lt", ("lifetime",)),  # consonants in order from the first letter
        ("crnt", ("current",)),
        ("vlt", ("voltage",)),
        ("frq", ("frequency",)),
        ("vac", ("vacuum",)),  # the start of a word
        ("pres", ("pressure",)),
        ("hor", ("horizontal",)),
        ("quad", ("quadrupole",)),
    ],
)
def test_a_shortening_means_the_list_words_it_shortens(typed, meant):
    assert Shortenings(RING_WORDS).meanings(typed) == meant


@pytest.mark.parametrize(
    "typed",
    [
        "beam",  # a word of the list is no shortening
        "lit",  # a vowel after the first letter: an English word, not a skeleton
        "xyz",  # shortens nothing
        "v",  # one letter says nothing
        "quadrupoles",  # longer than any shortening
        "lt2",  # not letters only
    ],
)
def test_what_is_not_read_as_a_shortening(typed):
    found = Shortenings(RING_WORDS).meanings(typed)
    assert found == () or typed in RING_WORDS


def test_a_shortening_of_too_many_words_says_nothing():
    words = frozenset(f"pa{letter}tion" for letter in "bcdefgh")
    assert len(words) > MAX_MEANINGS
    assert Shortenings(words).meanings("pa") == ()
    assert Shortenings(words).meanings("pab") == ("pabtion",)


def test_words_run_together_are_no_meanings_of_their_own():
    words = frozenset({"horiz", "corr", "horizcorr", "horizontal"})
    assert set(Shortenings(words).meanings("hor")) == {"horiz", "horizontal"}


def test_the_parse_places_shortened_channel_words_but_never_grammar_words():
    vocabulary = Vocabulary(frozenset({"hcm"}), RING_WORDS)
    assert is_channel_word("lt", vocabulary)
    assert is_channel_word("pres", vocabulary)
    assert not is_channel_word("set", vocabulary)  # a verb, though "setpoint" starts so
    assert not is_channel_word("mm", vocabulary)  # a unit
    assert not is_channel_word("lt", Vocabulary())  # no list: nothing is shortened
