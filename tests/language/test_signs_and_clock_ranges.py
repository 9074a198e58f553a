"""Signs and dashes as keyboards and phones type them: a minus sign (U+2212) or a dash before a
digit is the sign of the value, and two clock times joined by a dash are a range
(``language.numbers``, ``language.time_words``)."""

from __future__ import annotations

import pytest

from osprey_desktop.language.numbers import minus_signs_typed_plainly
from osprey_desktop.language.request import Vocabulary, parse_request
from osprey_desktop.language.time_words import spoken_times

WORDS = Vocabulary(
    device_prefixes=frozenset({"hcm", "vcm", "qf", "qd", "id"}),
    channel_words=frozenset({"current", "lifetime", "gap", "dcct"}),
)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("VCM 30 \u22120.25 A", "VCM 30 -0.25 A"),  # the minus sign of a math keyboard
        ("HCM 2 \u2013.4A", "HCM 2 -.4A"),  # an en dash a phone made of a hyphen
        ("set QD 6 to \u2212 1.5 A", "set QD 6 to -1.5 A"),  # the sign set apart after "to"
        ("HCM 9 = - 0.05", "HCM 9 = -0.05"),
        ("the lifetime 21:10\u201322:40", "the lifetime 21:10-22:40"),
    ],
)
def test_a_minus_sign_or_a_dash_before_a_digit_is_the_hyphen_minus(text, said):
    assert minus_signs_typed_plainly(text) == said


@pytest.mark.parametrize(
    "text",
    [
        "the A\u2013B difference",  # no digit after it
        "QF 3 - 0.5 A",  # a sign apart after a name: left for the parse to weigh
        "vacuum 2 \u2014 it looks fine",  # a dash between words
    ],
)
def test_other_dashes_stay_as_typed(text):
    assert minus_signs_typed_plainly(text) == text


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("VCM 30 \u22120.25 A", -0.25),
        ("set QD 6 to \u2212 1.5 A", -1.5),
        ("put HCM 12 at \u2013 0.3 A", -0.3),
    ],
)
def test_the_sign_reaches_the_value_written(text, value):
    request = parse_request(text, WORDS)
    assert request.intent == "write"
    assert request.quantity is not None and request.quantity.value == pytest.approx(value)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("DCCT 09:15-10:45 yesterday", "DCCT from 09:15 to 10:45 yesterday"),
        ("lifetime 22:00 - 23:30", "lifetime from 22:00 to 23:30"),
        ("from 08:00-09:00", "from 08:00-09:00"),  # a range word already leads it
    ],
)
def test_two_clock_times_joined_by_a_dash_are_a_range(text, said):
    assert spoken_times(text) == said


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("close the ID04 gap 0.5 mm more", -0.5),  # further the verb's way
        ("open the ID04 gap 2 mm further", 2.0),
        ("lower QD 6 1 A more", -1.0),
    ],
)
def test_more_after_an_amount_goes_the_verbs_way(text, value):
    request = parse_request(text, WORDS)
    assert request.quantity is not None and request.quantity.value == pytest.approx(value)


@pytest.mark.parametrize("text", ["VCM 30 -0.2 A down", "HCM 2 \u22120.1 A up"])
def test_a_negative_amount_and_a_direction_together_are_asked(text):
    request = parse_request(text, WORDS)
    assert request.quantity is not None and request.quantity.value is None
