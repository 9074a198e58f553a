"""The parse of a handover's items held for later, reasons and expectations around a change,
numbers and words of other languages' habits."""

from __future__ import annotations

import pytest

from osprey_desktop.language.later_changes import held_items_set_aside
from tests.support.request_words import parse


@pytest.mark.parametrize(
    ("text", "asked", "noted"),
    [
        (
            "Plan: (a) set QF 2 to 121 A; (b) QF 4 +0.5 A is for the morning shift, not now",
            "Plan: (a) set QF 2 to 121 A",
            ["(b) QF 4 +0.5 A is for the morning shift, not now"],
        ),
        (
            "1) lifetime 2) VCM 3 -> 0.1 A 3) HCM 9 will need -0.2 A later, only note that one",
            "1) lifetime 2) VCM 3 -> 0.1 A",
            ["3) HCM 9 will need -0.2 A later, only note that one"],
        ),
        (
            "tunes; gap of ID 4. For the record: ID 7 goes to 12 mm tonight.",
            "tunes; gap of ID 4.",
            ["For the record: ID 7 goes to 12 mm tonight."],
        ),
    ],
)
def test_an_item_held_for_later_is_set_aside_and_the_rest_is_asked(text, asked, noted):
    assert held_items_set_aside(text) == (asked, noted)


@pytest.mark.parametrize(
    "text",
    [
        "set HCM 3 to 0.2 A. Not now.",  # the hold names no device of its own: all held
        "set HCM 3 to 0.2 A and HCM 4 to 0.1 A, but not now",  # one item
        "QF 4 +0.5 A is for the morning shift; not yet",
    ],
)
def test_a_hold_said_apart_holds_the_whole_message(text):
    assert held_items_set_aside(text) == (text, [])


@pytest.mark.parametrize(
    ("text", "target", "value"),
    [
        # a reason first speaks of the device "it" stands for
        ("For the chromaticity study QF 9 has to go up, so please set it to 121.5 A", "QF9", 121.5),
        # the effect wanted on another device after the value is no target
        ("set VCM 4 to 0.15 A so that BPM 11 y comes back to zero", "VCM4", 0.15),
        # what the change is expected to do, after it
        ("put the ID 5 gap to 14 mm; expect the lifetime to drop a bit", "ID5 gap", 14.0),
        # "of" for "as", and the hundreds without their "one"
        ("set QD 8 at hundred and two amps", "QD8", 102.0),
    ],
)
def test_the_change_is_read_apart_from_its_reasons(text, target, value):
    request = parse(text)

    assert request.changes and target in request.targets[0].replace("the ", "")
    assert request.quantity.value == pytest.approx(value)


def test_the_same_value_of_another_device_is_a_copy():
    assert parse("put VCM 8 at the same value of VCM 7").intent == "copy"


@pytest.mark.parametrize(
    "text", ["HCM 12 needs a few more mA", "QF 3 a few amps lower", "can we close it some?"]
)
def test_a_vague_amount_is_a_change_whose_amount_is_asked(text):
    request = parse(text)

    assert request.changes and request.quantity.kind == "comparative"
    assert request.quantity.value is None


def test_the_effect_wanted_after_a_vague_change_is_no_target():
    request = parse("VCM 5 should come down a little to lower the orbit at BPM 9")

    assert request.targets == ("VCM5",) and request.quantity.kind == "comparative"


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("please control the lifetime", "check the lifetime"),  # "control": to check
        ("adn the tunes", "and the tunes"),
    ],
)
def test_words_of_other_habits_are_read_as_meant(text, canonical):
    assert canonical in parse(text).canonical


@pytest.mark.parametrize(
    ("text", "target", "value"),
    [
        # what happened, told after the change
        ("set the ID 9 gap to 21 mm, the users changed the photon energy", "the ID9 gap", 21.0),
        # a purpose after a value said in words
        ("set HCM 7 to zero to start from a clean orbit", "HCM7", 0.0),
    ],
)
def test_what_is_told_after_a_change_is_no_part_of_it(text, target, value):
    request = parse(text)

    assert request.changes and request.targets == (target,)
    assert request.quantity.value == pytest.approx(value)


def test_a_refusal_beside_a_check_asks_the_check():
    request = parse(
        "please do not touch the RF - just confirm the voltage setpoint is still 2.5 MV"
    )

    assert not request.changes and request.intent == "read"
    assert request.quantity.value == pytest.approx(2.5)


def test_an_answer_and_a_refusal_ask_nothing():
    assert parse("no, don't touch the gap, thanks").intent == "conversation"


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("1) lifetime 2) ID 5 gap -> 14 mm", "read lifetime, then set ID 5 gap to 14 mm"),
        ("read energy, HCM 9 = 0.1 A", "read energy, then set HCM 9 to 0.1 A"),
        ("the tunes; QD 4 to 95 A", "read the tunes, then set QD 4 to 95 A"),
    ],
)
def test_items_to_read_beside_a_change_are_read_then_the_change_is_asked(text, said):
    from osprey_desktop.language.item_lists import reads_and_changes_in_order

    assert reads_and_changes_in_order(text, _CHANNEL_WORDS) == said


_CHANNEL_WORDS = frozenset(
    {"lifetime", "energy", "tune", "current", "gap", "corrector", "readback"}
)


@pytest.mark.parametrize(
    "text",
    [
        "HCM 3, HCM 4 to 0.2 A",  # a group written, its first member named alone
        "plot the lifetime, HCM 3 to 0.2",  # an item with a verb of its own
        "set HCM 3 to 0.2, HCM 4 to 0.3",  # changes only
        "set HCM 5 to 0.2, nope, cancel",  # taken back: no reading
        "vertical correctors 10 to 12, readbacks only",  # a range of devices, no value
        "QF 8 to 121.5 A, tune scan",  # what the change is for
        "check the current, and if it is over 450 mA set VCM 30 to 0.2 A",  # a condition
    ],
)
def test_a_list_not_of_readings_and_changes_is_left_as_typed(text):
    from osprey_desktop.language.item_lists import reads_and_changes_in_order

    assert reads_and_changes_in_order(text, _CHANNEL_WORDS) == text


def test_taking_over_a_shift_is_a_greeting_not_a_time():
    from osprey_desktop.language.words import is_greeting

    assert is_greeting("morning! taking over from the late shift")
    request = parse("evening, taking over from the day shift - current?")
    assert request.intent == "read" and request.time is None


@pytest.mark.parametrize(
    "text",
    ["if the beam current is above 400 mA, raise HCM 3", "when the lifetime passes 9 h, open it"],
)
def test_a_condition_s_threshold_is_never_the_change_s_amount(text):
    request = parse(text)

    assert request.changes and (request.quantity is None or request.quantity.value is None)
