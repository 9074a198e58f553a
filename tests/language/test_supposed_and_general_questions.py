"""Questions about a supposed change, what is usual in general, the assistant itself, and a
value's limits are answered in words; nothing is read or written (``language.questions``)."""

from __future__ import annotations

import pytest

from osprey_desktop.language.follow_ups import follow_up
from osprey_desktop.language.questions import asks_for_limits, is_knowledge_question
from osprey_desktop.language.request import Vocabulary, parse_request

WORDS = Vocabulary(
    device_prefixes=frozenset({"hcm", "vcm", "qf", "qd", "bpm", "id", "ig"}),
    channel_words=frozenset({"beam", "current", "lifetime", "tune", "rf", "voltage", "gap"}),
)


@pytest.mark.parametrize(
    "text",
    [
        "If we shut the ID 4 gap down to 9 mm, what would that do to the lifetime?",
        "if QF 12 went up by 2 A, would the tune move a lot?",
        "Hypothetically, if HCM 7 were at 4 A, would the orbit in sector 3 change much?",
        "what would -0.5 A on VCM 20 do to the vertical orbit?",
        "what does the injection efficiency mean for the users?",
        "what does the BPM sum signal really measure",
        "why did you ask before writing?",
        "you won't change anything without me, right?",
        "generally speaking, is 2e-9 Torr considered high for a storage ring?",
        "what orbit drift is typical for a light source over a day?",
        "and what the sextupoles are used for",
        "rookie question - BPM = what?",
        "just wondering: why does the vertical orbit move when a gap closes?",
        "tune shifts when the gap closes - why?",
    ],
)
def test_supposed_general_and_assistant_questions_are_answered_in_words(text):
    assert is_knowledge_question(text)


@pytest.mark.parametrize(
    "text",
    [
        "just wondering, what's the lifetime now?",
        "beam current = ?",
        "if the lifetime is above 8 h, set HCM16 to 0.2 A",
        "if current is above 495 mA, take the ID02 gap to 16 mm",
        "plot the lifetime: why did it drop?",
        "is the lifetime normal?",
        "what is the vertical tune",
        "the vacuum in sector 9 - why is it high?",
    ],
)
def test_readings_and_changes_are_no_questions_of_knowledge(text):
    assert not is_knowledge_question(text)
    assert not asks_for_limits(text)


@pytest.mark.parametrize(
    "text",
    [
        "HCM20 at -6 A: within limits?",
        "QF 3 to 131 A - is that within the limits?",
        "I was going to ask you to set the ID 5 gap to 8 mm. Is that OK for the machine?",
        "we're thinking of raising the RF voltage to 3.2 MV, would that be allowed?",
    ],
)
def test_a_value_asked_against_the_limits_is_a_question_for_the_write_policy(text):
    assert asks_for_limits(text)
    assert parse_request(text, WORDS).intent == "knowledge"


@pytest.mark.parametrize(
    "text", ["is the orbit within limits?", "set HCM20 to -6 A if it's within limits"]
)
def test_alarm_limits_and_conditions_are_not_the_write_policys(text):
    assert not asks_for_limits(text)


def test_another_kind_of_device_after_a_question_of_knowledge_is_the_same_question():
    merged = follow_up(
        parse_request("what is a DCCT?", WORDS), parse_request("and a BPM?", WORDS), WORDS
    )
    assert merged is not None and merged.intent == "knowledge"
    assert merged.canonical.lower().startswith("what is a bpm")


def test_another_kind_after_a_reading_is_no_question_of_knowledge():
    merged = follow_up(
        parse_request("what is the lifetime", WORDS), parse_request("and a BPM?", WORDS), WORDS
    )
    assert merged is None or merged.intent != "knowledge"


def test_what_a_quantity_depends_on_and_a_value_ok_for_a_device_are_answered_in_words():
    assert is_knowledge_question("what does the lifetime actually depend on?")
    assert asks_for_limits("is 0.8 A ok for HCM5?")
    assert not asks_for_limits("is HCM5 ok?")
