"""Slips an operator makes on a phone or in a hurry: a device prefix with two letters swapped,
a short verb with a letter doubled, the grammar's short words typed wrong. Each is read as
meant only where nothing else could be meant; a word of the facility's list never is.

The facility's words come from a channel list built here with the channels API (what the
planner hands the parse), not from a table: the rules must hold for any list.
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from osprey_desktop.channels import ChannelDatabase, ChannelRecord
from osprey_desktop.language.device_prefix_slips import device_prefix_respelled
from osprey_desktop.language.parsed_request import Vocabulary
from osprey_desktop.language.request import facility_words, parse_request
from osprey_desktop.language.spelling import slips_respelled
from osprey_desktop.planners.channel_words import vocabulary_of
from tests.support.records import magnet_pair

NOW = datetime(2026, 11, 26, 15, 30, tzinfo=ZoneInfo("Europe/Berlin"))


def _ring(*extra: ChannelRecord) -> ChannelDatabase:
    """Correctors and quadrupoles by number, a DCCT, and what a test adds."""
    records: list[ChannelRecord] = []
    for n in range(1, 25):
        sector = (n + 2) // 3
        records += magnet_pair(f"HCM{n:02d}", "horizontal corrector", sector)
        records += magnet_pair(f"VCM{n:02d}", "vertical corrector", sector)
        records += magnet_pair(f"QF{n:02d}", "focusing quadrupole", sector)
        records += magnet_pair(f"QD{n:02d}", "defocusing quadrupole", sector)
    records.append(
        ChannelRecord(name="SR:DCCT:Current", description="stored beam current", units="mA")
    )
    return ChannelDatabase([*records, *extra], source="slips")


RING = vocabulary_of(_ring())


def parse(text: str, vocabulary: Vocabulary = RING):
    return parse_request(text, vocabulary, NOW)


def same_parse(typed: str, meant: str, vocabulary: Vocabulary = RING) -> None:
    """A request with a slip parses as the request typed right (all but the text)."""
    slipped, right = parse(typed, vocabulary), parse(meant, vocabulary)
    assert slipped.canonical == right.canonical
    assert (slipped.intent, slipped.targets, slipped.quantity, slipped.reference) == (
        right.intent,
        right.targets,
        right.quantity,
        right.reference,
    )
    assert slipped.unused == right.unused


# -- 1. a device prefix with two neighbouring letters swapped ----------------------------


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("set vmc 7 to 0.2", "set vcm 7 to 0.2"),
        ("HMC21 to -0.3 A", "HCM21 to -0.3 A"),
        ("read chm 4 readback", "read hcm 4 readback"),
        ("DQ04 to 96 A", "QD04 to 96 A"),
        ("lower hmc-12 by 0.1 A", "lower hcm-12 by 0.1 A"),
    ],
)
def test_a_device_prefix_with_two_letters_swapped_is_the_lists_prefix(typed, meant):
    same_parse(typed, meant)


def test_the_swapped_prefix_is_read_as_a_device_of_the_list():
    request = parse("set vmc 7 to 0.2")
    assert request.intent == "write" and request.targets == ("VCM7",)
    assert request.canonical == "set VCM7 to 0.2"


@pytest.mark.parametrize(
    "text",
    [
        "set mcv 7 to 0.2",  # two letters moved apart: not one swap
        "set qfd 3 to 96 A",  # a letter more: QF or QD?
        "the vmc readings",  # no device number follows
        "lifetime fr 8 to 10",  # two letters apart from a number: a word, not DQ8
        "vmc 7 mA",  # a number with a unit is an amount
    ],
)
def test_letters_that_are_no_single_swap_before_a_device_number_stay(text):
    assert slips_respelled(text, facility_words(RING)) == text


def test_a_prefix_of_the_list_is_never_respelled_as_another():
    both = vocabulary_of(_ring(*magnet_pair("HMC01", "harmonic cavity tuner", 1)))
    assert "hmc" in both.device_prefixes and "hcm" in both.device_prefixes
    assert parse("set hmc 1 to 0.2", both).targets == ("HMC1",)


def test_a_slip_as_close_to_two_prefixes_is_left_as_typed():
    # "cvm" is VCM with its first two letters swapped and CMV with its last two
    two = vocabulary_of(_ring(*magnet_pair("CMV01", "cavity mode voltage", 1)))
    assert slips_respelled("set cvm 1 to 0.2", facility_words(two)) == "set cvm 1 to 0.2"
    assert device_prefix_respelled("cvm 1", two.device_prefixes) == "cvm 1"


def test_a_word_of_the_list_is_never_respelled_as_a_prefix():
    # a list with ion pumps IP01... and an RF cavity's "pi mode": "pi 2" stays its own
    pumps = [
        ChannelRecord(name=f"SR01C:IP{n:02d}:Pressure", description="ion pump", device=f"IP{n:02d}")
        for n in range(1, 4)
    ]
    cavity = ChannelRecord(name="SR:RF:PiMode2", description="cavity pi mode 2 frequency")
    words = vocabulary_of(_ring(*pumps, cavity))
    assert "pi" in words.channel_words and "ip" in words.device_prefixes
    assert slips_respelled("PI2 frequency", facility_words(words)) == "PI2 frequency"
    assert device_prefix_respelled(
        "PI2", words.device_prefixes, words.channel_words.__contains__
    ) == ("PI2")
    assert device_prefix_respelled("PI2", words.device_prefixes) == "IP2"


def test_the_given_prefixes_are_the_only_ones_read():
    assert device_prefix_respelled("set vmc 7 to 0.2", frozenset({"vcm"})) == "set vcm 7 to 0.2"
    assert device_prefix_respelled("set vmc 7 to 0.2", frozenset({"hcm"})) == "set vmc 7 to 0.2"
    assert device_prefix_respelled("HMC21", frozenset({"hcm"})) == "HCM21"


# -- 2. a short verb with a letter doubled -----------------------------------------------


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("seet QD18 to 96.2 A", "set QD18 to 96.2 A"),
        ("sett VCM3 to -0.6 A", "set VCM3 to -0.6 A"),
        ("please reead QF3", "please read QF3"),
        (
            "can you plott the beam current for the last hour",
            "can you plot the beam current for the last hour",
        ),
        ("read QF3, then putt QF4 at 96 A", "read QF3, then put QF4 at 96 A"),
    ],
)
def test_a_short_verb_with_a_letter_doubled_leading_its_clause_is_that_verb(typed, meant):
    same_parse(typed, meant)


@pytest.mark.parametrize(
    "text",
    [
        "the seet value of QF3",  # not leading its clause
        "droop of the orbit in sector 3",  # a word of its own
        "sat QD18 to 96 A",  # a letter wrong, not doubled: a short word has too many neighbours
    ],
)
def test_a_doubled_letter_elsewhere_or_another_slip_stays(text):
    assert slips_respelled(text, facility_words(RING)) == text


def test_a_word_of_the_list_with_a_doubled_letter_stays():
    putts = ChannelRecord(name="SR:GOLF:Putt", description="putt counter")
    words = vocabulary_of(_ring(putts))
    assert slips_respelled("putt counter now", facility_words(words)) == "putt counter now"


# -- 3. the grammar's short words typed in a hurry ---------------------------------------


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("HCM4 too 0.3", "HCM4 to 0.3"),
        ("VCM 5 too -0.2", "VCM 5 to -0.2"),
        ("ramp QF 2 from 118 too 120 A", "ramp QF 2 from 118 to 120 A"),
        ("whats teh lifetime", "whats the lifetime"),
        ("qd22 abit lower pls", "qd22 a bit lower pls"),
        ("can u put qf 11 back to were it was at 10", "can u put qf 11 back to where it was at 10"),
        ("what dose the dcct measure", "what does the dcct measure"),
        ("how dose QF3 look", "how does QF3 look"),
        ("actualy read QF9", "actually read QF9"),
        ("actully read QF9", "actually read QF9"),
        ("do QF 9 insted", "do QF 9 instead"),
    ],
)
def test_a_grammar_word_typed_in_a_hurry_is_that_word(typed, meant):
    same_parse(typed, meant)


@pytest.mark.parametrize(
    "text",
    [
        "is QF3 too high?",  # "too" before no value
        "HCM4 too, please",
        "were the correctors at zero?",  # "were" leading a question
        "they were at 0.2 A before",
        "a dose of 5",  # "dose" after no question word
    ],
)
def test_the_grammars_words_where_they_are_right_stay(text):
    assert slips_respelled(text, facility_words(RING)) == text


def test_a_dose_rate_channel_keeps_its_dose():
    monitor = ChannelRecord(
        name="SR:RAD:RM01:DoseRate", description="radiation monitor dose rate", device="RM01"
    )
    words = vocabulary_of(_ring(monitor))
    assert "dose" in words.channel_words
    for text in ("what dose the monitor RM01 show", "what dose rate is it"):
        assert slips_respelled(text, facility_words(words)) == text
    # without the channel, the same words ask what the monitor does
    assert slips_respelled("what dose the monitor RM01 show", facility_words(RING)) == (
        "what does the monitor RM01 show"
    )


def test_a_valve_of_the_list_is_no_value():
    valve = ChannelRecord(name="SR03C:VV01:State", description="sector valve state", device="VV01")
    words = vocabulary_of(_ring(valve))
    assert slips_respelled("shut the valve VV01", facility_words(words)) == "shut the valve VV01"
    assert parse("shut the valve VV01", words).state == "closed"


# -- nothing else changes ----------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "set VCM7 to 0.2",
        "HCM21 to -0.3 A",
        "set QD18 to 96.2 A",
        "no, the readback",
        "qd22 a bit lower please",
        "can you put QF11 back to where it was at 10",
        "what does the dcct read",
        "what does the DCCT measure?",  # "measured" is a word of the list; "measure" its verb
        "the stored beam current, store it in the logbook",
        "actually do QF9 instead",
        "read QF3, then put QF4 at 96 A",
        "plot HCM 3 and VCM 3 over the last 2 hours",
        "is the beam current too low?",
        "lower QD 5 by 0.3 A",
        "set all vertical correctors in sector 3 to 0.1 A",
        "HCM 3 5 mA higher",
        "lifetime from 8 to 10",
    ],
)
def test_a_request_typed_right_is_never_respelled(text):
    assert slips_respelled(text, facility_words(RING)) == text


def test_a_question_with_dose_for_does_is_the_question():
    assert parse("what dose the dcct actually measure").intent == "knowledge"


def test_the_words_of_a_question_of_the_past_typed_with_a_slip_are_read_as_meant():
    request = parse_request("did somone change vcm 9 in the lsat 4 hours?", vocabulary_of(_ring()))
    assert request.time is not None and "last 4 hours" in request.time.canonical
    assert slips_respelled("the sine of it", frozenset()) == "the sine of it"  # no swap of "since"


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("the idgap in sector 9", "the id gap in sector 9"),
        ("beamcurrent and lifetime?", "beam current and lifetime?"),
        ("vacuumpressure of IG 4", "vacuum pressure of IG 4"),
        ("the lifetime and the readback", "the lifetime and the readback"),  # words of the list
    ],
)
def test_two_words_of_the_list_typed_as_one_are_apart_again(text, said):
    words = frozenset({"id", "gap", "beam", "current", "vacuum", "pressure", "lifetime"})
    assert slips_respelled(text, words | {"readback", "ig"}) == said
