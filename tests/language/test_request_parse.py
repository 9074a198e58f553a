"""The parse of a whole request: one structure per request, whatever its wording."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from osprey_desktop.language.follow_ups import follow_up
from osprey_desktop.language.request import Vocabulary, parse_request

WORDS = Vocabulary(
    device_prefixes=frozenset({"hcm", "vcm", "qf", "qd", "bpm", "id", "ig"}),
    channel_words=frozenset(
        {
            "beam",
            "current",
            "lifetime",
            "tune",
            "horizontal",
            "vertical",
            "rf",
            "frequency",
            "voltage",
            "gap",
            "vacuum",
            "pressure",
            "orbit",
            "energy",
            "corrector",
            "quadrupole",
            "top",
            "up",
            "countdown",
            "injection",
        }
    ),
)
NOW = datetime(2026, 11, 26, 15, 30, tzinfo=ZoneInfo("Europe/Berlin"))


def parse(text: str):
    return parse_request(text, WORDS, NOW)


@pytest.mark.parametrize(
    ("text", "source", "canonical"),
    [
        ("make QD04 match QD02", "QD02", "set QD04 to the same value as QD02"),
        ("bring VCM11 in line with VCM12", "VCM12", "set VCM11 to the same value as VCM12"),
    ],
)
def test_a_change_verb_with_another_channel_is_a_copy(text, source, canonical):
    request = parse(text)
    assert request.intent == "copy"
    assert request.reference is not None and request.reference.words == source
    assert request.canonical == canonical


def test_a_state_verb_without_a_value_is_a_state_change_naming_the_unknown_word():
    request = parse("shut the sector 6 valve")
    assert (request.intent, request.state) == ("state", "closed")
    assert request.unused == ("valve",)


def test_a_verb_nobody_taught_the_grammar_is_asked_about_not_read():
    request = parse("straighten the orbit in sector 5")
    assert request.intent == "unknown"
    assert request.verb == "straighten"
    assert request.targets == ("the orbit in sector 5",)


@pytest.mark.parametrize(
    ("text", "target", "value", "unit"),
    [("qd 08 to 96.5 A", "QD08", 96.5, "A"), ("hcm 5 at 0.4", "HCM5", 0.4, None)],
)
def test_a_device_written_with_a_space_is_one_name_and_its_value_a_write(text, target, value, unit):
    request = parse(text)
    assert request.intent == "write"
    assert request.targets == (target,)
    assert request.quantity is not None
    assert (request.quantity.kind, request.quantity.value, request.quantity.unit) == (
        "absolute",
        value,
        unit,
    )


def test_a_bare_number_after_a_name_gives_no_value():
    assert parse("HCM01 1.5").intent == "read"
    assert parse("horizontal orbit in sectors 2 to 4").quantity is None


@pytest.mark.parametrize(
    ("text", "kind", "value", "canonical"),
    [
        ("HCM09 0.2 A higher", "relative", 0.2, "increase HCM09 by 0.2 A"),
        ("VCM09 50 mA lower", "relative", -50, "decrease VCM09 by 50 mA"),
        (
            "make the ID02 gap half a millimetre wider",
            "relative",
            0.5,
            "increase the ID02 gap by 0.5 millimetre",
        ),
        ("the ID05 gap a touch lower", "comparative", None, "the ID05 gap a touch lower"),
    ],
)
def test_comparatives_are_relative_changes_and_without_a_number_have_no_value(
    text, kind, value, canonical
):
    request = parse(text)
    assert request.intent == "write"
    assert request.quantity is not None
    assert (request.quantity.kind, request.quantity.value) == (kind, value)
    assert request.canonical == canonical


def test_a_noun_that_is_also_a_verb_is_a_verb_only_in_verb_position():
    listed = parse("tunes, chromaticity and lifetime")
    assert listed.intent == "read" and not listed.changes
    assert listed.targets == ("tunes", "chromaticity", "lifetime")
    assert listed.unused == ("chromaticity",)
    command = parse("tune the RF frequency up by 1 kHz")
    assert command.intent == "write"
    assert command.quantity is not None and command.quantity.value == 1


@pytest.mark.parametrize(
    ("text", "targets"),
    [
        (
            "beam current, lifetime, vacuum and RF please",
            ("beam current", "lifetime", "vacuum", "RF"),
        ),
        ("read the horizontal and vertical tune", ("the horizontal tune", "vertical tune")),
        (
            "top-up countdown as well as the stored current",
            ("top-up countdown", "the stored current"),
        ),
        (
            "show the current and the lifetime on one plot for the last 2 hours",
            ("the current", "the lifetime"),
        ),
    ],
)
def test_every_item_of_a_list_is_a_target_of_its_own(text, targets):
    request = parse(text)
    assert request.targets == targets
    assert request.quantity is None  # "one plot" and "2 hours" are no values


@pytest.mark.parametrize(
    ("text", "targets"),
    [
        ("focusing quad 18 current", ("focusing quad 18 current",)),
        # a device prefix the list knows is joined to its number ("QF 18" is QF18)
        ("show the setpoint of QF 18", ("the setpoint of QF18",)),
        ("VCM 3, 4 and 5 readbacks", ("VCM3 readbacks", "VCM4 readbacks", "VCM5 readbacks")),
        ("read HCM 7 and 8", ("HCM7", "HCM8")),
    ],
)
def test_a_number_after_a_name_in_a_read_is_the_device_number(text, targets):
    request = parse(text)
    assert request.targets == targets
    assert request.quantity is None


@pytest.mark.parametrize(
    ("text", "value"),
    [("is HCM05 above 0.5?", 0.5), ("is HCM05 at 1.2 A?", 1.2), ("set QD 09 to 98 A", 98)],
)
def test_a_number_after_a_word_that_brings_an_amount_stays_an_amount(text, value):
    request = parse(text)
    assert request.quantity is not None and request.quantity.value == value
    assert all(str(value) not in t for t in request.targets)


@pytest.mark.parametrize(
    "text",
    [
        "is HCM01 set to zero?",
        "don't change anything, just read HCM01",
        "what is the setpoint of HCM01?",
        "HCM05 at 1.2 A?",
    ],
)
def test_questions_and_negations_change_nothing(text):
    assert not parse(text).changes


def test_a_qualified_hour_is_a_time_not_a_value_or_a_device():
    request = parse("beam current between 1 and 2 pm")
    assert request.intent == "history"
    assert request.quantity is None
    assert request.targets == ("beam current",)
    assert request.time is not None
    assert request.time.canonical == "from 2026-11-26 13:00 to 2026-11-26 14:00"


def test_a_why_question_with_channel_words_asks_for_knowledge():
    assert parse("why does the lifetime fall when the pressure rises?").intent == "knowledge"
    assert parse("why is the beam current dropping").intent != "knowledge"


def test_plot_statistic_and_compare_are_told_apart():
    assert parse("plot the vertical tune since 9 am").intent == "plot"
    assert parse("average lifetime over the last 2 hours").intent == "statistic"
    assert parse("is the lifetime better now than at 8 this morning?").intent == "compare"


def test_a_value_alone_replaces_the_previous_quantity():
    merged = follow_up(parse("set HCM09 to 0.6 A"), parse("ok, 0.55 then"), WORDS)
    assert merged is not None
    assert merged.canonical == "set HCM09 to 0.55 A"


def test_a_pronoun_takes_the_previous_targets():
    merged = follow_up(parse("show the ID02 gap"), parse("close it by 1 mm"), WORDS)
    assert merged is not None and merged.intent == "write"
    assert merged.canonical == "close the ID02 gap by 1 mm"


def test_same_for_replaces_the_targets_and_keeps_intent_and_time():
    merged = follow_up(
        parse("plot the beam current for the last hour"),
        parse("same for the vacuum in sector 4"),
        WORDS,
    )
    assert merged is not None and merged.intent == "plot"
    assert merged.canonical == "plot the vacuum in sector 4 for the last hour"


def test_the_same_for_a_new_time_is_left_to_the_planners_reuse():
    previous = parse("plot the beam current since 00:00")
    assert follow_up(previous, parse("the same for the last 10 minutes"), WORDS) is None


@pytest.mark.parametrize("again", ["now for the last 10 minutes", "and for the last 10 minutes"])
def test_a_new_time_alone_replaces_the_time_and_keeps_the_channels(again):
    previous = parse("plot the beam current since 00:00")
    merged = follow_up(previous, parse(again), WORDS)
    assert merged is not None and merged.intent == "plot"
    assert merged.targets == ("the beam current",)
    assert merged.canonical == "plot the beam current for the last 10 minutes"


def test_a_new_time_after_a_read_asks_for_the_history():
    merged = follow_up(parse("what is the lifetime"), parse("and since 6 am?"), WORDS)
    assert merged is not None and merged.intent == "history"
    assert merged.canonical == "what is the lifetime since 2026-11-26 06:00"


def test_a_request_that_names_its_own_device_is_no_follow_up():
    assert follow_up(parse("set HCM09 to 0.6 A"), parse("read VCM02"), WORDS) is None


@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("has anyone changed QF 5 since this morning?", "QF5"),
        ("show how the vacuum in sector 9 changed since 11 last night", "the vacuum in sector 9"),
        ("did the ID07 gap move overnight?", "the ID07 gap"),
    ],
)
def test_what_a_channel_did_is_history_and_no_part_of_its_name(text, target):
    request = parse(text)
    assert request.intent == "history"
    assert request.targets == (target,)
    assert not request.changes


def test_a_direction_right_before_an_amount_makes_it_a_change_by_that_amount():
    request = parse("take the ID 9 gap down 1 mm")
    assert request.quantity is not None and request.quantity.value == -1
    assert request.canonical == "decrease the ID9 gap by 1 mm"


def test_a_role_alone_in_a_list_is_a_channel_of_the_device_before_it():
    assert parse("HCM 33 readback and setpoint").targets == ("HCM33 readback", "HCM33 setpoint")


def test_a_place_alone_replaces_the_place_of_the_previous_targets():
    merged = follow_up(parse("vacuum in sector 4"), parse("what about sector 5?"), WORDS)
    assert merged is not None and merged.canonical == "vacuum in sector 5"


def test_a_corrected_value_after_a_rejected_write_is_that_write_again():
    merged = follow_up(parse("set VCM06 to 0.2 A"), parse("no wait, 0.25"), WORDS)
    assert merged is not None and merged.canonical == "set VCM06 to 0.25 A"


def test_an_acknowledgement_is_conversation():
    assert parse("that's enough, thanks").intent == "conversation"


def test_a_slip_in_a_grammar_word_is_respelled_but_never_a_device_word():
    from osprey_desktop.language.spelling import slips_respelled

    assert slips_respelled("do 19 insted", frozenset()) == "do 19 instead"
    assert slips_respelled("lifetime yesterdy", frozenset()) == "lifetime yesterday"
    # forms and words of their own stay
    assert slips_respelled("the readbacks at the second BPM", frozenset()) == (
        "the readbacks at the second BPM"
    )
    assert slips_respelled("two point four", frozenset()) == "two point four"
    assert slips_respelled("shut the valve", frozenset()) == "shut the valve"
    # a word of the facility's list is never respelled
    assert slips_respelled("the insted monitor", frozenset({"insted"})) == "the insted monitor"


def test_durations_said_in_words_are_written_in_digits():
    assert parse_request("plot IG13 over the last twenty four hours").time.canonical == (
        "over the last 24 hours"
    )
    assert (
        "2.5 hours"
        in parse_request("plot the lifetime for the last two and a half hours").canonical
    )


@pytest.mark.parametrize(
    ("previous", "new", "canonical"),
    [
        ("set the ID07 gap to 20 mm", "do 19 insted", "set the ID07 gap to 19 mm"),
        ("plot the lifetime over the last hour", "make that 6 hours", "over the last 6 hours"),
        ("set VCM2 to 0.3", "same value on VCM1 instead of VCM2", "set VCM1 to 0.3"),
        ("set VCM14 to 0.5 A", "hold on, what's its readback right now?", "read VCM14 readback"),
    ],
)
def test_follow_ups_that_replace_one_slot(previous, new, canonical):
    merged = follow_up(parse(previous), parse(new), WORDS)
    assert merged is not None
    assert canonical in merged.canonical


def test_a_span_after_a_write_is_no_new_time():
    """After a write, "make that 6 hours" is a value (the writer refuses its unit), never
    a time range for the write."""
    merged = follow_up(parse("set HCM09 to 0.6 A"), parse("make that 6 hours"), WORDS)
    assert merged is not None and merged.intent == "write" and merged.time is None


@pytest.mark.parametrize(
    ("previous", "new", "targets"),
    [
        ("what's the QF05 setpoint", "and qd06?", ("qd06 setpoint",)),
        ("HCM 3 readback", "and HCM 4?", ("HCM4 readback",)),
    ],
)
def test_a_follow_up_keeps_the_role_the_previous_request_asked(previous, new, targets):
    merged = follow_up(parse(previous), parse(new), WORDS)
    assert merged is not None and merged.targets == targets


def test_where_a_device_is_set_is_its_setpoint():
    assert parse("show me where VCM25 is set").targets == ("VCM25 setpoint",)


def test_different_from_a_time_compares_with_that_moment():
    request = parse("is the ID02 gap any different from 2 hours ago?")
    assert request.intent == "compare"
    assert "different than 2 hours ago" in request.canonical


def test_a_clock_written_as_four_digits_and_a_date_left_whole():
    assert parse_request("lifetime since 0630").time.canonical == "since 06:30"
    assert "at 23:00" in parse_request("wat was id05 gap rb yestrday at 2300").canonical
    assert parse_request("lifetime at 2026-11-25 23:00").canonical == "lifetime at 2026-11-25 23:00"


@pytest.mark.parametrize(
    ("text", "intent"),
    [("thnaks", "conversation"), ("good mornin osprey", "conversation"), ("thx!", "conversation")],
)
def test_chat_spellings_and_the_assistant_addressed(text, intent):
    assert parse_request(text).intent == intent


def test_a_list_word_typed_with_a_slip_is_that_word():
    words = Vocabulary(frozenset({"id", "vcm"}), frozenset({"voltage", "gap", "lifetime", "rf"}))
    assert parse_request("rf volatge up 0.15", words).canonical == "increase rf voltage by 0.15"
    assert "id11 gap" in parse_request("opne id11 gapp to 25mm", words).canonical
    assert parse_request("lifetme", words).canonical == "lifetime"


def test_a_list_word_with_the_wrong_letter_doubled_is_that_word():
    words = Vocabulary(frozenset({"ig"}), frozenset({"vacuum", "current", "value", "valve"}))
    assert parse_request("vaccum in sector 4", words).canonical == "vacuum in sector 4"
    assert parse_request("whats the currrent", words).canonical.endswith("the current")
    assert parse_request("the valve", words).canonical == "the valve"  # a word of its own


@pytest.mark.parametrize(
    ("previous", "new", "canonical"),
    [
        # after a change by an amount, a bare amount is the change's new size, same direction
        (
            "lower VCM18 by 0.2 A",
            "on second thought, 0.1 A would be enough",
            "decrease VCM18 by 0.1 A",
        ),
        ("increase QF3 by 1 A", "make it 0.5", "increase QF3 by 0.5 A"),
        ("lower QF 41 by 1 percent", "make it 2", "decrease QF41 by 2%"),
        # after a value, a bare amount is the new value
        ("set HCM09 to 0.6 A", "no, better 0.55", "set HCM09 to 0.55 A"),
        # "meant" another device: the same change to it
        ("set VCM12 to 0.3 A", "oops meant VCM13", "set VCM13 to 0.3 A"),
    ],
)
def test_a_correction_after_a_change_keeps_what_it_does_not_name(previous, new, canonical):
    merged = follow_up(parse(previous), parse(new), WORDS)
    assert merged is not None and merged.canonical == canonical


@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("Over the past week, what was the lowest the lifetime got?", "the lifetime"),
        ("what's the highest the beam current reached today", "the beam current"),
    ],
)
def test_the_extreme_a_quantity_reached_is_a_statistic_of_it(text, target):
    request = parse(text)
    assert request.intent == "statistic" and request.targets == (target,)


@pytest.mark.parametrize(
    ("text", "first", "after"),
    [
        ("set HCM27 to 0.3 A, then show me the horizontal orbit in sector 9", False, True),
        ("put VCM 2 at 0.1 A, then what's the vertical tune?", False, True),
        ("read HCM3, then set it to 0.2 A", True, False),
        ("set HCM3 to 0.2 A", False, False),
    ],
)
def test_a_reading_before_or_after_a_change_is_told_apart(text, first, after):
    request = parse(text)
    assert request.changes and (request.reads_first, request.reads_after) == (first, after)


@pytest.mark.parametrize(
    "text", ["set the gap in sector 9 to 25 mm", "the gap in sector 9 -> 25 mm"]
)
def test_a_number_with_a_unit_after_a_place_is_the_value_not_the_places_range(text):
    request = parse(text)
    assert request.intent == "write" and request.quantity.value == 25
    assert request.targets == ("the gap in sector 9",)


def test_a_range_of_places_without_a_unit_stays_a_range():
    assert parse("vacuum in sectors 2 to 4").quantity is None


@pytest.mark.parametrize(
    ("text", "reads_first"),
    [
        ("QF 33, um, bring it up to 121.5 A", False),  # the change's own target, said first
        ("For the vertical corrector 29, put at -0.2 A.", False),
        ("HCM 7 readback please, then bump it 0.05 A", True),  # a reading asked for
        ("BPM40 y? then VCM20 +0.05A", True),
        ("id2 gap? then 16mm", True),  # a question before its change
        ("the lifetime, then set QF3 to 121 A", True),
    ],
)
def test_a_name_said_before_its_own_change_reads_nothing_first(text, reads_first):
    request = parse(text)
    assert request.changes and request.reads_first is reads_first


@pytest.mark.parametrize(
    ("text", "intent"),
    [
        ("kindly provide the ID07 gap readback", "read"),
        ("please quote the vertical tune", "read"),
        ("assess the stability of the lifetime over the last 3 hours", "history"),
        ("could you quantify how much the horizontal tune moved since 05:00", "history"),
    ],
)
def test_verbs_of_a_report_ask_for_a_reading(text, intent):
    request = parse_request(text, WORDS)
    assert request.intent in (intent, "statistic")
    assert request.targets and not request.unused


@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("horizontal tune: same now as 2 hours ago?", "horizontal tune"),
        ("is the ID04 gap the same as yesterday?", "the ID04 gap"),
    ],
)
def test_the_same_as_a_time_compares_now_with_then(text, target):
    request = parse_request(text, WORDS)
    assert request.intent == "compare"
    assert request.targets == (target,)


def test_then_compared_with_now_said_last_compares():
    request = parse_request("was the lifetime any different at 03:00 than now", WORDS)
    assert request.intent == "compare"
    assert request.targets == ("the lifetime",)
