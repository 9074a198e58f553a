"""A trainee's hedges: a change asked about is answered, never proposed; a change asked about
and then asked for is proposed; a thanks that praises is a thanks; a change held for someone's
word is not proposed now."""

from __future__ import annotations

import pytest

from osprey_desktop.language.follow_ups import follow_up
from osprey_desktop.language.later_changes import later_moment
from tests.support.request_words import WORDS, parse


@pytest.mark.parametrize(
    "text",
    [
        "would it hurt to put HCM 4 at 0.3 A?",
        "would it be a problem to set QF 5 to 122?",
        "is it ok if I set HCM 3 to 0.2?",
        "is it ok if I lower VCM 7 by 0.1 A?",
        "how would I set the ID 9 gap to 15 mm?",
        "how do I change HCM 3 to 0.4?",
        "is 0.3 A too much for HCM 4?",
    ],
)
def test_a_change_asked_about_is_a_question_for_the_write_policy(text):
    request = parse(text)
    assert request.intent == "knowledge" and not request.changes


def test_a_change_asked_about_then_asked_for_is_the_change():
    request = parse("should I maybe lower VCM 25 by 0.1? actually yes, please do it")
    assert request.changes and request.targets == ("VCM25",)
    assert request.quantity is not None and request.quantity.value == -0.1


def test_the_limits_of_it_are_those_of_the_device_just_read():
    merged = follow_up(parse("HCM 4 readback?"), parse("is 0.3 A too much for it?"), WORDS)
    assert merged is not None and merged.intent == "knowledge"
    assert "HCM 4" in merged.canonical or "HCM4" in merged.canonical


@pytest.mark.parametrize(
    "text",
    [
        "thanks, that helps a lot",
        "thank you, very useful",
        "morning! thanks for the help last night",
    ],
)
def test_a_thanks_that_praises_is_a_thanks(text):
    assert parse(text).intent == "conversation"


def test_a_thanks_before_a_request_is_only_its_lead():
    request = parse("thanks, now plot the lifetime")
    assert request.intent == "plot" and request.targets == ("the lifetime",)


@pytest.mark.parametrize(
    ("text", "held"),
    [
        ("Bob wants HCM 18 at 0.4 A but wait for his ok before anything moves", "wait for his ok"),
        ("set QF 3 to 121 A once she says so", "once she says so"),
    ],
)
def test_a_change_held_backs_word_is_for_later(text, held):
    assert later_moment(text) == held


@pytest.mark.parametrize(
    "text",
    [
        "per the handover, HCM05 was moved to 0.35 A by the previous shift",
        "QF 3 has been set to 121 A",
    ],
)
def test_a_change_reported_as_done_is_taken_in(text):
    assert parse(text).intent == "conversation"


def test_a_change_held_for_a_sign_off_said_before_it_is_for_later():
    from osprey_desktop.language.later_changes import held_back

    text = "the shift leader has to OK it first, but I want to set QF25 to 121.5 A"
    assert held_back(text) == "has to OK it first"


@pytest.mark.parametrize(
    ("text", "targets", "when"),
    [
        ("yesterday evening: plot the lifetime", ("the lifetime",), "yesterday evening"),
        ("this morning - what was the max current?", ("current",), "this morning"),
    ],
)
def test_a_time_said_first_is_the_time_of_the_request(text, targets, when):
    request = parse(text)
    assert request.targets == targets and request.time is not None
    assert request.time.words == when


def test_how_a_thing_behaved_asks_its_history():
    request = parse("how did the lifetime behave yesterday evening?")
    assert request.intent in ("history", "statistic") and request.targets == ("the lifetime",)


def test_ty_is_thanks_alone_and_nothing_else_beside_other_words():
    assert parse("ok ty").intent == "conversation"
    assert parse("ty at 06:48").intent != "conversation"


def test_what_can_you_do_after_a_greeting_asks_for_help():
    assert parse("hi! first shift today, what can you do?").intent == "conversation"


@pytest.mark.parametrize(
    "text",
    ["do NOT touch QD 48 today. Acknowledge.", "Note to self: do NOT touch QD 48 today."],
)
def test_a_refusal_noted_and_acknowledged_is_taken_in(text):
    assert parse(text).intent == "conversation"


def test_record_the_values_reads_them():
    request = parse("Step 4: record the set values of QF 1 and QD 2")
    assert request.intent == "read" and not request.changes
