"""A question of understanding said the way operators talk ("why they ...", "X vs Y —
difference?", "how are they related?", "A → B. why?", "I don't understand ...") is answered
in words, even when it names the words of channels; a question of the machine's own state (a
device's number, a time, an event, what happens now, a command) stays a reading
(``language.understanding``)."""

from __future__ import annotations

import pytest

from osprey_desktop.language.questions import is_knowledge_question
from osprey_desktop.language.request import Vocabulary, parse_request

WORDS = Vocabulary(
    device_prefixes=frozenset({"hcm", "vcm", "qf", "qd", "bpm", "id", "ig", "sf", "sd"}),
    channel_words=frozenset(
        {"beam", "current", "lifetime", "tune", "rf", "voltage", "gap", "orbit", "vacuum"}
    ),
)


@pytest.mark.parametrize(
    "text",
    [
        # "why" in another order, or after the topic
        "the sextupoles, why they sit next to the quadrupoles?",
        "Why the lifetime gets shorter when the bunches are smaller?",
        "why the RF voltage must be higher than the energy loss per turn",
        "top-up and decay mode, why the users prefer top-up?",
        # a law, then "why?" or "how come?"
        "gap closes → vertical tune shifts. why?",
        "kicker pulses → injected bunch oscillates, why?",
        "vacuum worse → lifetime shorter, how come?",
        "the orbit moves when a gap closes, why is that?",
        # how two things are related, or what tells them apart
        "chromaticity and tune spread: how are they related?",
        "how does the vertical emittance relate to the coupling?",
        "coupling vs vertical emittance — difference?",
        "SP vs RB: which is which?",
        "wigglers and undulators — difference?",
        "a booster and a storage ring, same thing?",
        "horizontal vs vertical correctors, what's what",
        "ok, and what is the difference between a kicker and a septum?",
        "how do a wiggler and an undulator differ?",
        # not understanding, explaining, how one thing acts on another
        "I still don't understand how the sextupoles fix chromaticity",
        "I'm a bit confused about dispersion and the orbit",
        "dynamic aperture - explain please",
        "can u explain the synchrotron tune briefly",
        "how does the undulator gap affect the vertical orbit?",
        "how would a stronger QF change the beam size?",
        "what does the RF voltage do to the bunch length?",
        "pressure ↑ → lifetime ↓ → more injections?",
        # "how" in another order, a relation or a difference said short, what each one does
        "the ion pump, how it tells the pressure from its current?",
        "how the sextupoles make the chromaticity positive?",
        "coupling and vertical beam size - linked how?",
        "what is link between dispersion and energy spread?",
        "difference wiggler and undulator?",
        "kickers and septa: what does each one do?",
        "why wigglers? why not only undulators?",
        "for what reason the tune moves with the beam current?",
        "I never understood what a harmonic number is",
        # "why" asked after a verb of knowing
        "no idea why the vertical tune follows the gaps when they close",
        "the reason why a light source needs both QF and QD?",
    ],
)
def test_questions_of_understanding_are_answered_in_words(text):
    assert is_knowledge_question(text)
    # "I'm confused about ..." is also a statement: either way answered, nothing read
    assert parse_request(text, WORDS).intent in ("knowledge", "conversation")


@pytest.mark.parametrize(
    "text",
    [
        # a device's number, a value or a clock
        "VCM 14 jumps around a lot, why?",
        "QF7 vs QF9 - what's the difference?",
        "why did IG 3 go up at 2 am?",
        # a device's name typed with a space, in the forms of a general question
        "why is HCM 22 so high?",
        "explain the VCM 6 readback",
        "how does QD 40 work",
        "why vcm twelve",
        "how the orbit looks in the arcs?",
        # a time word
        "why is the orbit noisy this morning?",
        "lifetime vs beam current over the last hour",
        "how are the tunes related to yesterday's?",
        # an event, what happens now, a state of the machine
        "the vertical tune jumped, why?",
        "why has the lifetime gone down",
        "the beam was lost, I don't understand why",
        "the vacuum keeps rising, how come?",
        "the orbit is drifting. why?",
        "the vacuum in the arc - why is it so bad?",
        # a command leads a clause
        "plot the lifetime vs the current and explain",
        "show both tunes and tell me how they are related",
        # a write said with an arrow
        "ID gap → closed?",
        "QD → 118 A",
        "why not",
    ],
)
def test_questions_of_the_machines_state_stay_readings(text):
    assert not is_knowledge_question(text)
    assert parse_request(text, WORDS).intent not in ("knowledge", "conversation")


def test_a_device_named_with_a_number_word_in_a_supposed_change_is_supposed_not_read():
    assert is_knowledge_question("what would the orbit do if we bumped vcm seven by one amp?")
    assert not is_knowledge_question("why is vcm seven so high?")


def test_a_count_or_an_amount_after_a_word_names_no_device():
    assert is_knowledge_question("why does a ring need 2 kinds of quadrupoles?")
    assert is_knowledge_question("in general, is a 12 h lifetime at 400 mA considered good?")


def test_a_reading_compared_with_vs_is_no_question_of_a_difference():
    request = parse_request("vertical tune vs horizontal tune since 8", WORDS)
    assert request.intent != "knowledge"
    assert request.time is not None


@pytest.mark.parametrize(
    "text",
    [
        "how does the BPM pick up the beam position without touching it",
        "what's the RF frequency got to do with the beam energy",
        "I'm curious how an ion gauge measures the pressure; would you mind explaining?",
    ],
)
def test_how_a_thing_works_and_what_it_has_to_do_with_another_is_explained(text):
    assert is_knowledge_question(text)
