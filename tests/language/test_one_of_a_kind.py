"""One device named by its kind alone, and the answer to the question of which one."""

from __future__ import annotations

import pytest

from osprey_desktop.language.one_of_a_kind import device_kind_named
from osprey_desktop.language.which_answers import answer_to_which
from tests.support.request_words import WORDS, parse


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("what's the undulator gap", "undulator"),
        ("give me the horizontal corrector current please", "corrector"),
        ("our wiggler field?", "wiggler"),
        ("the HCM reading", "hcm"),
    ],
)
def test_a_definite_singular_kind_names_one_device(text, kind):
    assert device_kind_named(text, frozenset({"HCM", "QF"})) == kind


@pytest.mark.parametrize(
    "text",
    [
        "the undulator gaps",  # every one of them
        "the correctors in sector 3",  # a place
        "the undulator in sector 9",
        "ID 9 gap",  # a number
        "the last undulator",  # an order
        "all the undulator gap",  # a quantifier
        "the worst gauge",  # a superlative across them all
        "the vacuum",  # no countable device
        "an undulator gap",  # not definite
        "the quad and the corrector",  # two kinds
    ],
)
def test_no_one_device_of_a_kind(text):
    assert device_kind_named(text, WORDS.device_prefixes, WORDS.channel_words) is None


@pytest.mark.parametrize(
    ("asked", "answer", "canonical"),
    [
        ("set the undulator gap to 14 mm", "ID 9", "set ID9 gap to 14 mm"),
        ("set the undulator gap to 14 mm", "9 please", "set undulator 9 gap to 14 mm"),
        ("set the undulator gap to 14 mm", "all of them", "set all undulator gap to 14 mm"),
        (
            "nudge the corrector current down by 0.1 A",
            "the one in sector 4",
            "nudge the corrector current in sector 4 down by 0.1 A",
        ),
        ("what's the wiggler gap", "ID 11", "what's ID11 gap"),
    ],
)
def test_the_answer_names_the_device_of_the_request_asked_about(asked, answer, canonical):
    answered = answer_to_which(parse(asked), parse(answer), WORDS)

    assert answered is not None
    assert answered.canonical == canonical


@pytest.mark.parametrize(
    ("asked", "answer"),
    [
        ("set the undulator gap to 14 mm", "read the beam current"),  # a request of its own
        ("set the undulator gap to 14 mm", "0.3 then"),
        ("set ID 9 gap to 14 mm", "ID 11"),  # nothing was left open
        ("show me the vacuum", "IG 4"),
    ],
)
def test_an_answer_that_is_a_request_of_its_own_is_left_alone(asked, answer):
    assert answer_to_which(parse(asked), parse(answer), WORDS) is None
