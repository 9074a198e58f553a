"""A reading checked against a threshold: the channels are found without the check, and the
check is kept for the answer (``language.checks``)."""

from __future__ import annotations

import pytest

from osprey_desktop.language.checks import check_asked, without_check
from osprey_desktop.language.request import Vocabulary, parse_request

WORDS = Vocabulary(
    device_prefixes=frozenset({"hcm", "vcm", "qf", "qd", "bpm", "id", "ig"}),
    channel_words=frozenset(
        {"beam", "current", "lifetime", "tune", "tunes", "vertical", "orbit", "vacuum", "gauge"}
    ),
)


@pytest.mark.parametrize(
    ("text", "kind", "op", "amount", "unit", "rest"),
    [
        ("are both tunes within 0.01 of nominal?", "band", "within", 0.01, None, "are both tunes?"),
        (
            "vertical orbit sector 2 - anything beyond +/-0.1 mm?",
            "beyond",
            "outside",
            0.1,
            "mm",
            "vertical orbit sector 2?",
        ),
        (
            "was the sector 7 vacuum above 5e-9 at any point yesterday?",
            "level",
            ">",
            5e-9,
            None,
            "was the sector 7 vacuum yesterday?",
        ),
        ("is the lifetime under 8 h?", "level", "<", 8.0, "h", "is the lifetime?"),
        ("IG13 over 1e-8 or not?", "level", ">", 1e-8, None, "IG13 or not?"),
    ],
)
def test_a_check_is_told_apart_from_what_it_checks(text, kind, op, amount, unit, rest):
    check = check_asked(text)
    assert check is not None
    assert (check.kind, check.op, check.amount, check.unit) == (kind, op, amount, unit)
    assert without_check(text) == rest


def test_a_ranking_word_before_a_kind_of_device_is_a_check():
    check = check_asked("worst vacuum gauge in the ring right now?")
    assert check is not None and (check.kind, check.op) == ("rank", "worst")
    assert without_check("worst vacuum gauge in the ring right now?") == (
        "vacuum gauge in the ring right now?"
    )


@pytest.mark.parametrize(
    "text", ["plot the lifetime over the last hour", "what's the best way to read the tune?"]
)
def test_a_window_or_a_question_of_manner_is_no_check(text):
    assert check_asked(text) is None


@pytest.mark.parametrize(
    ("text", "targets"),
    [
        ("are both tunes within 0.01 of nominal?", ("both tunes",)),
        ("vertical orbit sector 2 - anything beyond +/-0.1 mm?", ("vertical orbit sector 2",)),
        ("was any HCM in sector 10 above 1 A at midnight?", ("any HCM in sector 10",)),
    ],
)
def test_the_targets_of_a_checked_reading_are_what_it_reads(text, targets):
    request = parse_request(text, WORDS)
    assert request.targets == targets and not request.changes


def test_a_condition_of_a_change_is_no_check():
    request = parse_request("if the lifetime is above 8 h, set HCM16 to 0.2 A", WORDS)
    assert request.intent == "write" and "above 8 h" in request.canonical


def test_near_a_value_is_a_check_but_around_a_clock_time_is_a_time():
    check = check_asked("is the x tune still near 14.22 or did it drift?")
    assert check is not None and (check.kind, check.amount) == ("near", 14.22)
    assert without_check("is the x tune still near 14.22 or did it drift?") == "is the x tune?"
    for text in ("lifetime around 10:00", "lifetime around 10 am", "current around 2 hours ago"):
        assert check_asked(text) is None


def test_at_or_from_the_nominal_value_is_a_check_of_the_distance():
    check = check_asked("how far is HCM 9 from its nominal?")
    assert check is not None and (check.kind, check.reference) == ("band", "nominal")
    assert without_check("is the RF frequency still at nominal?") == "is the RF frequency?"


@pytest.mark.parametrize("text", ["plot the lifetime over 2 hours", "show the vacuum over 24 h"])
def test_a_window_said_with_over_is_no_threshold(text):
    assert check_asked(text) is None
    assert parse_request(text, WORDS).time is not None


def test_a_duration_asked_as_a_threshold_is_one():
    check = check_asked("is the lifetime over 8 h?")
    assert check is not None and (check.op, check.amount, check.unit) == (">", 8.0, "h")


@pytest.mark.parametrize(
    "text",
    [
        "how often did the beam current go above 505 mA since 8?",
        "how many times was the lifetime under 9 h overnight",
        "number of times the IG 3 pressure was over 2e-9 yesterday",
    ],
)
def test_how_often_a_level_was_passed_is_counted(text):
    check = check_asked(text)
    assert check is not None and check.kind == "level" and check.counted


def test_below_a_duration_is_a_level_even_when_no_question_mark_says_so():
    check = check_asked("how many times was the lifetime below 10 h in the last 2 hours")
    assert check is not None and (check.op, check.amount, check.unit) == ("<", 10.0, "h")
    assert not check_asked("was the lifetime above 8 h").counted


@pytest.mark.parametrize(
    ("text", "amount", "unit"),
    [
        ("is HCM 12 set to 0.5 A?", 0.5, "A"),
        ("is the RF frequency setpoint 499.654 MHz?", 499.654, "MHz"),
        ("HCM 12 is at 0.5 A right?", 0.5, "A"),
        ("qf 9 at 121 now?", 121.0, None),
        ("QF 9 = 121?", 121.0, None),
    ],
)
def test_whether_a_value_is_the_one_named_is_a_check(text, amount, unit):
    check = check_asked(text)
    assert check is not None and (check.kind, check.op) == ("near", "at")
    assert (check.amount, check.unit) == (amount, unit)


@pytest.mark.parametrize(
    "text", ["lifetime at 7?", "what was the lifetime at 7.5?", "set QF 9 at 121"]
)
def test_an_hour_or_a_change_is_no_check_of_a_value(text):
    assert check_asked(text) is None
