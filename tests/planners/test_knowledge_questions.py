"""Questions about concepts and about the assistant are told apart from requests for values
and answered from the knowledge file, the vocabulary and the facility's own channel list."""

from __future__ import annotations

import pytest

from osprey_desktop.connectors import get_configured_channel_database
from osprey_desktop.knowledge import answer_question, configured_abbreviations, topics_from
from osprey_desktop.language.questions import asks_for_help, is_knowledge_question, is_thanks


@pytest.mark.parametrize(
    "text",
    [
        "what is a DCCT?",
        "why does a readback differ from its setpoint?",
        "can you change anything without my approval?",
        "explain what a BPM is",
        "can you please explain to me why the lifetime drops right after an injection?",
        "how does top-up work?",
        "what means lifetime exactly?",
        "for what are the quadrupoles?",
        "how works the top-up injection?",
        "is normal that the lifetime decreases with more current?",
        "why the vacuum go up when current is high?",
        "what is the use of the correctors?",
        "what happens with the orbit if I change a corrector?",
        "I was wondering why the lifetime is lower after injection, could you explain that?",
        "how do I set a corrector?",
        "what would happen if I set HCM01 to 5 A?",
        "what does HCM stand for",
        "how does an undulator work",
        "what is the difference between a setpoint and a readback",
        "hi, quick question: what is a BPM?",
        "why do correctors have readbacks?",
        "do you write anything on your own?",
    ],
)
def test_questions_about_concepts_and_the_assistant_are_recognised(text):
    assert is_knowledge_question(text)


@pytest.mark.parametrize(
    "text",
    [
        "what is the beam current",
        "what is HCM01",
        "what's the lifetime now",
        "why is the beam current dropping",
        "can you read the beam current",
        "can you check the RF frequency for me",
        "what was the lifetime at 06:30",
        "what is the ID04 gap",
        "what are the corrector setpoints",
        "explain SR:DCCT:Current",
        "set HCM01 to 1.5 A",
    ],
)
def test_requests_for_values_are_not_questions_of_knowledge(text):
    assert not is_knowledge_question(text)


def test_a_device_kind_is_explained_with_the_facilitys_own_channels(isolated_config):
    answer = answer_question(
        "what is a DCCT?",
        database=get_configured_channel_database(),
        abbreviations=configured_abbreviations(),
    )
    assert answer.startswith("**DCCT** stands for dc current transformer.")
    assert "stored beam current" in answer
    assert "`SR:DCCT:Current`" in answer and "Nothing was read or changed" in answer


def test_the_approval_question_is_answered_no(isolated_config):
    answer = answer_question("can you change anything without my approval?")
    assert answer.startswith("**No.**") and "exactly once" in answer


def test_a_facility_topic_replaces_the_shipped_one_with_the_same_id():
    own = topics_from([{"id": "dcct", "terms": ["dcct"], "answer": "Our DCCT is in cell 7."}])
    assert answer_question("what is a DCCT?", topics=own).startswith("Our DCCT is in cell 7.")


def test_an_unknown_concept_says_so_and_offers_what_can_be_done():
    answer = answer_question("what is a flux capacitor?", topics=[])
    assert answer.startswith("I have no explanation of that.")


@pytest.mark.parametrize("text", ["what can you do?", "help", "hi, how can you help?"])
def test_a_question_about_what_the_assistant_does_is_help(text):
    assert asks_for_help(text) and is_knowledge_question(text)


@pytest.mark.parametrize(
    ("text", "thanks"),
    [
        ("thanks!", True),
        ("ok thanks, that's all", True),
        ("thanks, now read HCM01", True),
        ("read the beam current", False),
    ],
)
def test_thanks_are_told_apart(text, thanks):
    assert is_thanks(text) is thanks


@pytest.mark.parametrize(
    "text", ["ok cool", "perfect", "understood", "great, thank you very much", "never mind"]
)
def test_a_short_acknowledgement_is_answered_as_one(text):
    assert is_thanks(text)


@pytest.mark.parametrize("text", ["ok, read HCM01", "perfect, now the lifetime", "no, 0.55 A"])
def test_an_acknowledgement_before_a_request_is_no_acknowledgement(text):
    assert not is_thanks(text)
