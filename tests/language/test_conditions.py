"""A change with a condition said in another order or shape is said the way the writer reads
it: "if <condition>, <change>" (``language.conditions``), and the writer checks the condition
on the channel it names."""

from __future__ import annotations

import pytest

from osprey_desktop.language.conditions import condition_and_change, condition_said_first
from osprey_desktop.language.request import Vocabulary, parse_request

WORDS = Vocabulary(
    device_prefixes=frozenset({"hcm", "vcm", "qf", "qd", "bpm", "id", "ig"}),
    channel_words=frozenset(
        {"beam", "current", "lifetime", "tune", "vertical", "rf", "voltage", "gap", "vacuum"}
    ),
)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (
            "set HCM 16 to 0.2 A, but only if the lifetime is above 8 h",
            "if the lifetime is above 8 h, set HCM 16 to 0.2 A",
        ),
        (
            "put VCM 4 at 0.3 A as long as the current stays over 400 mA",
            "if the current stays over 400 mA, put VCM 4 at 0.3 A",
        ),
        (
            "current above 495 mA? then take the ID 02 gap to 16 mm",
            "if current is above 495 mA, take the ID 02 gap to 16 mm",
        ),
        (
            "is the lifetime over 8 h? -> lower QF 3 by 0.2 A",
            "if the lifetime is over 8 h, lower QF 3 by 0.2 A",
        ),
    ],
)
def test_a_condition_said_last_or_asked_first_is_said_first(text, said):
    assert condition_said_first(text) == said


@pytest.mark.parametrize(
    "text",
    [
        # a second request after the change, not its condition
        "set HCM02 to 3 A; if the step's too big, tell me",
        "set HCM02 to 3 A, and if the step is too big, tell me",
        # a refusal keeps its shape
        "don't set HCM 16 to 0.2 A if the lifetime is above 8 h",
        # a read with an "if" that is no condition of a change
        "show the lifetime if it is above 8 h",
    ],
)
def test_what_is_no_condition_after_a_change_keeps_its_order(text):
    assert condition_said_first(text) == text


def test_the_condition_and_the_change_after_it():
    assert condition_and_change("if the tune stays under 8.4, then for QD 48 make 95.5 A") == (
        "if the tune stays under 8.4",
        "for QD 48 make 95.5 A",
    )
    assert condition_and_change("set QD 48 to 95.5 A") is None


def test_a_change_in_another_word_order_after_its_condition_is_said_the_writers_way():
    request = parse_request(
        "If the vertical tune stays under 8.4, then for QD 48 make 95.5 A.", WORDS
    )
    assert request.intent == "write"
    assert request.canonical.startswith("If the vertical tune stays under 8.4, set QD48 to 95.5")


def test_a_condition_said_last_is_a_conditional_write():
    request = parse_request("set HCM 16 to 0.2 A, but only if the lifetime is above 8 h", WORDS)
    assert request.intent == "write"
    assert request.canonical == "if the lifetime is above 8 h, set HCM16 to 0.2 A"


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        (
            "read VCM25's setpoint and set VCM26 to that value plus 0.1 A",
            "set VCM26 to the same value as VCM25 plus 0.1 A",
        ),
        ("read HCM 3 and set HCM 4 to the same", "set HCM4 to the same value as HCM3"),
    ],
)
def test_a_change_to_the_value_just_read_is_a_copy_of_it(text, canonical):
    request = parse_request(text, WORDS)
    assert request.intent in ("copy", "write") and request.canonical == canonical


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        (
            "take QD32's setpoint, subtract 1 A, and put the result into QD30",
            "set QD30 to the same value as QD32 minus 1 A",
        ),
        (
            "read HCM 5, add 0.1 A and write it to HCM 6",
            "set HCM6 to the same value as HCM5 plus 0.1 A",
        ),
    ],
)
def test_a_recipe_of_a_value_read_and_an_amount_added_is_a_copy_with_an_offset(text, canonical):
    assert parse_request(text, WORDS).canonical == canonical
