"""Forms of an ordinary shift's requests: "get" with a value, a sign said as a way, a message
taken back at its end, a value begun and never given, a change someone else asked for, "up
some", and a restore to "the 07:30 setting"."""

from __future__ import annotations

import re
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from osprey_desktop.language.clauses import (
    named_devices,
    refused_devices,
    takes_itself_back,
    without_refused_devices,
)
from osprey_desktop.language.request import Vocabulary, parse_request
from osprey_desktop.language.targets import LEFT_OUT

WORDS = Vocabulary(
    device_prefixes=frozenset({"hcm", "vcm", "qf", "qd", "bpm", "id", "ig"}),
    channel_words=frozenset({"beam", "current", "lifetime", "tune", "gap", "vacuum"}),
)
NOW = datetime(2026, 11, 26, 15, 30, tzinfo=ZoneInfo("Europe/Berlin"))


def parse(text: str):
    return parse_request(text, WORDS, NOW)


@pytest.mark.parametrize(
    ("text", "value"),
    [("could we get QD 22 to 96.5 please", 96.5), ("get the ID 7 gap down to 11 mm", 11.0)],
)
def test_get_with_a_value_after_to_is_a_change(text, value):
    request = parse(text)
    assert request.intent == "write"
    assert request.quantity is not None and request.quantity.value == pytest.approx(value)


@pytest.mark.parametrize(
    "text",
    ["get me the lifetime", "get the lifetime from 9 to 10", "get the beam current at 14:00"],
)
def test_get_without_a_value_reads(text):
    assert not parse(text).changes


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("HCM 21 a quarter amp more negative", -0.25),
        ("VCM 2 0.3 A less negative", 0.3),
        ("the VCM 30 current has to go 0.1 A more positive", 0.1),
    ],
)
def test_a_sign_word_says_the_way_of_a_change(text, value):
    request = parse(text)
    assert request.intent == "write"
    assert request.quantity.kind == "relative"
    assert request.quantity.value == pytest.approx(value)


@pytest.mark.parametrize(
    "text",
    [
        "put VCM 12 at 0.4 A ... hmm, scratch that",
        "open the ID 9 gap to 20 mm, actually never mind",
        "plot the vacuum in sector 2 - forget it",
    ],
)
def test_a_message_taken_back_at_its_end_does_nothing(text):
    assert takes_itself_back(text)
    request = parse(text)
    assert not request.changes and request.intent == "conversation"


@pytest.mark.parametrize(
    "text", ["cancel that. read HCM 3", "set HCM 3 to 1 A and cancel the ramp"]
)
def test_a_take_back_that_is_not_the_end_of_the_message_is_no_take_back(text):
    assert not takes_itself_back(text)


@pytest.mark.parametrize("text", ["QD 40 to", "set HCM 19 =", "the ID 5 gap ->"])
def test_a_value_begun_and_never_given_is_a_change_that_asks_for_it(text):
    request = parse(text)
    assert request.intent == "write" and request.quantity is None


def test_a_question_ending_in_to_is_no_change():
    assert not parse("what is QF3 close to").changes


@pytest.mark.parametrize("text", ["VCM 8 down some", "QF 12 up some please"])
def test_up_some_is_a_change_without_an_amount(text):
    request = parse(text)
    assert request.intent == "write"
    assert request.quantity is not None and request.quantity.value is None


def test_up_some_before_a_noun_is_no_amount():
    assert parse("bring up some plots of the tunes").quantity is None


@pytest.mark.parametrize(
    "text",
    [
        "we were asked to lower QF 9 by 1 A, could you do that?",
        "the beamline 4 scientist asked me to lower QF 9 by 1 A",
    ],
)
def test_a_change_someone_asked_for_is_the_change(text):
    request = parse(text)
    assert request.intent == "write"
    assert request.quantity.value == pytest.approx(-1.0)


def test_back_to_the_setting_of_a_clock_time_is_a_restore_to_that_moment():
    request = parse("VCM 22 back to the 06:45 setting")
    assert request.intent == "restore"
    assert "06:45" in request.canonical


@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("mean of the RF voltage since 06:00, in kV if possible", "the RF voltage"),
        ("the ID 4 gap in microns please", "the ID4 gap"),
    ],
)
def test_the_unit_to_show_an_answer_in_is_no_target(text, target):
    assert parse(text).targets == (target,)


def test_a_value_with_its_unit_after_in_keeps_the_unit():
    request = parse("put HCM 6 to 250 in mA")
    assert request.quantity.value == pytest.approx(250) and request.quantity.unit == "mA"


@pytest.mark.parametrize(
    "text",
    ["plot the ID 9 gap since 07:00 - has it moved at all?", "show the lifetime; is that normal?"],
)
def test_a_closing_question_about_what_was_named_is_no_target(text):
    targets = parse(text).targets
    assert len(targets) == 1 and "?" not in targets[0]
    assert not re.search(r"\b(?:has|is)\b", targets[0])


@pytest.mark.parametrize(
    ("text", "intent"),
    [("lifetime histroy 3h", "history"), ("avreage of the beam current last hour", "statistic")],
)
def test_a_slip_in_a_word_asking_for_history_or_a_statistic_is_that_word(text, intent):
    assert parse(text).intent == intent


def test_a_plane_after_tune_makes_it_the_noun():
    request = parse("tune x and tune y history 3h")
    assert not request.changes and request.intent == "history"
    assert request.time is not None


def test_how_many_times_is_how_often():
    request = parse("how many times did IG 5 go above 4e-9 Torr today?")
    assert "how often" in request.canonical.lower()
    assert not any("time" in t.lower() for t in request.targets)


def test_leave_it_at_the_end_takes_the_message_back():
    assert takes_itself_back("raise QF 20 by 1 A. Hmm, no, leave it as is.")
    assert parse("raise QF 20 by 1 A. Hmm, no, leave it as is.").intent == "conversation"


@pytest.mark.parametrize(
    ("text", "targets"),
    [
        (
            "could I see the vacuum in sector 5 and the lifetime",
            ("the vacuum in sector 5", "the lifetime"),
        ),
        ("may I have both tunes", ("both tunes",)),
    ],
)
def test_may_i_see_is_a_request_to_read_what_follows(text, targets):
    request = parse(text)
    assert request.intent == "read" and request.targets == targets


@pytest.mark.parametrize("text", ["the ID 5 gap three hours back", "IG 11 45 min back"])
def test_a_span_back_is_a_moment_ago(text):
    request = parse(text)
    assert not request.changes and request.time is not None
    assert "ago" in request.time.canonical


def test_min_counting_minutes_asks_no_statistic():
    assert parse("beam current 20 min ago").intent == "history"
    assert parse("min of the beam current over the last 20 min").intent == "statistic"


@pytest.mark.parametrize(
    ("text", "said"),
    [("η_inj since 08:00", "injection efficiency"), ("η_y at BPM 40", "vertical dispersion")],
)
def test_eta_is_said_in_words(text, said):
    assert said in parse(text).canonical


@pytest.mark.parametrize(
    ("text", "targets"),
    [
        (
            "QD 6 and QD 8 readbacks, plus the energy",
            ("QD6 readbacks", "QD8 readbacks", "the energy"),
        ),
        (
            "ID 5 and ID 9 gap setpoints and the lifetime",
            ("ID5 gap setpoints", "ID9 gap setpoints", "the lifetime"),
        ),
        ("IG 3 and BPM 7 y", ("IG3", "BPM7 y")),
    ],
)
def test_a_role_or_field_after_a_run_of_devices_belongs_to_the_run(text, targets):
    assert parse(text).targets == targets


def test_a_refused_thing_is_no_target_when_another_is_asked_for_alone():
    request = parse("don't touch the quads, I just want to see the vertical orbit in sector 6")
    assert request.targets == ("the vertical orbit in sector 6",)


@pytest.mark.parametrize("text", ["lifetime since midnihgt", "the current yesterdya at 16:00"])
def test_a_slip_in_a_time_word_is_that_word(text):
    assert parse(text).time is not None


def test_a_device_that_needs_a_value_told_then_asked_is_the_change():
    request = parse("VCM 21 needs to sit at 0.12 A, please set it")
    assert request.intent == "write" and request.targets == ("VCM21",)
    assert request.quantity.value == pytest.approx(0.12)


def test_undo_whatever_changed_over_a_span_restores_the_value_from_its_start():
    request = parse("undo whatever changed on QF 21 in the last three hours")
    assert request.intent == "restore" and "3 hours ago" in request.canonical


def test_rf_v_in_lower_case_is_the_rf_voltage():
    assert "RF voltage" in parse("rf V readback please").canonical


@pytest.mark.parametrize(
    ("text", "target", "value"),
    [
        ("nudge QD 20 down by 0.5 A", "QD20", -0.5),  # a taught verb, for comparison
        ("jog QD 20 down by 0.5 A", "QD20", -0.5),
        ("ease VCM 7 back by 0.02 A", "VCM7", -0.02),
        ("slide HCM 30 by -0.1 A", "HCM30", -0.1),
        ("steer HCM 2 over to 0.35 A", "HCM2", 0.35),
    ],
)
def test_a_verb_nobody_taught_leading_a_device_and_an_amount_is_the_change(text, target, value):
    request = parse(text)
    assert request.intent == "write" and request.targets == (target,)
    assert request.quantity.value == pytest.approx(value)


def test_an_amount_that_an_untaught_verb_gives_no_way_is_asked():
    request = parse("jog QD 20 by 0.5 A")
    assert request.intent == "write" and request.quantity.value is None


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("lower the RF voltage setpoint by 2%", -2.0),
        ("decrease the ID 9 gap by 10 percent", -10.0),
        ("scale QD 6 by 0.98", -2.0),
        ("multiply the ID 9 gap by 1.1", 10.0),
    ],
)
def test_percent_and_factor_changes_keep_their_way(text, value):
    request = parse(text)
    assert request.quantity.kind == "percent"
    assert request.quantity.value == pytest.approx(value)


def test_another_amount_is_more_of_it():
    request = parse("give QD 14 another 0.5 A")
    assert request.intent == "write" and request.quantity.kind == "relative"
    assert request.quantity.value == pytest.approx(0.5)


def test_second_is_an_ordinal_never_seconds_typed_short():
    assert "second" in parse("the horizontal position at the second BPM in sector 3").targets[0]


def test_a_plural_role_after_two_described_items_is_the_role_of_both():
    assert parse("the cavity voltage and the oscillator frequency setpoints").targets == (
        "the cavity voltage setpoints",
        "the oscillator frequency setpoints",
    )
    assert parse("the lifetime and the RF voltage readback").targets[0] == "the lifetime"


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("add an amp to QF 12", 1.0),
        ("take an amp off QF 12", -1.0),
        ("open the ID 4 gap by a millimetre", 1.0),
        ("add another amp to QF 12", 1.0),
        ("put one more 0.2 A on VCM 7", 0.2),
        ("raise QF 12 by half an amp", 0.5),
        ("lower HCM 6 by a tenth of an amp", -0.1),
    ],
)
def test_a_or_an_before_a_unit_is_one_of_it(text, value):
    request = parse(text)
    assert request.intent == "write"
    assert request.quantity.kind == "relative"
    assert request.quantity.value == pytest.approx(value)


def test_an_amp_in_a_question_is_no_change():
    assert not parse("is HCM 4 drawing an amp?").changes


@pytest.mark.parametrize(
    ("text", "refused", "kept"),
    [
        ("set HCM 2 to 0.3 and don't touch HCM 3", {"HCM3"}, "set HCM 2 to 0.3"),
        ("don't touch HCM 3 and set HCM 2 to 0.3", {"HCM3"}, "set HCM 2 to 0.3"),
        ("leave QF 5 alone, raise QF 4 by 1 A", {"QF5"}, "raise QF 4 by 1 A"),
        ("set HCM 2 to 0.3 but keep HCM 03 where it is", {"HCM3"}, "set HCM 2 to 0.3"),
        ("zero every corrector in sector 1 except HCM 3 and VCM 2", {"HCM3", "VCM2"}, None),
        # a pronoun in the rest may mean the refused device: the words stay as they are
        (
            "don't touch QF07, just show its readback",
            {"QF7"},
            "don't touch QF07, just show its readback",
        ),
        # named again outside the refusal: not refused
        ("never touch HCM 3 again, read HCM 3", set(), None),
    ],
)
def test_a_device_named_only_where_a_change_is_refused_is_no_target(text, refused, kept):

    assert refused_devices(text) == refused
    if kept is not None:
        assert without_refused_devices(text) == kept
    request = parse(text)
    if request.changes:
        # what a target leaves out ("... except HCM 3 and VCM 2") is taken away by the finder
        named = {d for t in request.targets for d in named_devices(LEFT_OUT.split(t)[0])}
        assert not refused & named


@pytest.mark.parametrize(
    "text",
    [
        "raise QF 9 by 1 A. On second thought, don't.",
        "set HCM 2 to 0.3 (don't actually do it)",
        "set HCM 2 to 0.3, but don't do it yet",
        "set HCM 2 to 0.3 - not yet",
    ],
)
def test_a_change_taken_back_with_dont_does_nothing(text):
    assert takes_itself_back(text)


def test_dont_with_a_rule_after_it_is_no_take_back():
    assert not takes_itself_back("set HCM 2 to 0.3, don't go above 0.5")


@pytest.mark.parametrize(
    ("text", "later"),
    [
        ("set QF 1 to 121 at 18:00", "at 18:00"),
        ("raise HCM 4 by 0.1 A after the next injection", "after the next injection"),
        ("set the ID 4 gap to 20 mm by 3 pm", "by 3 pm"),
        ("set QF 1 to 121 on Monday", "on Monday"),
        ("set QF 1 to what it was at 18:00 yesterday", None),
        ("set HCM 4 to 0.5 A at 5 A/s", None),
        ("set HCM 4 to 0.5 A", None),
        ("increase QF9 by 1 amp", None),
        ("lower QD18 by 2%", None),
        ("open ID 5 by 3 millimeters", None),
    ],
)
def test_the_words_placing_a_change_later_are_found(text, later):
    from osprey_desktop.language.later_changes import later_moment

    assert later_moment(text) == later


@pytest.mark.parametrize("text", ["set qf8 122 nvm", "set qf 8 to 122 -- jk"])
def test_chat_shorthand_takes_the_message_back(text):
    assert takes_itself_back(text)


@pytest.mark.parametrize(
    "text",
    [
        "dry run: set HCM 9 to 1 A",
        "tomorrow we'll put QF 1 at 121",
        "we are planning to raise QF 21 by 1 A after the fill",
        "FYI the run plan has VCM 3 at 0.2 A",
    ],
)
def test_a_rehearsed_planned_or_noted_change_asks_the_limits(text):
    from osprey_desktop.language.questions import asks_for_limits

    assert asks_for_limits(text)


@pytest.mark.parametrize("text", ["let's set QF 1 to 121", "we'll set QF 1 to 121 now"])
def test_a_change_said_with_we_and_no_later_moment_is_asked_now(text):
    from osprey_desktop.language.questions import asks_for_limits

    assert not asks_for_limits(text)


@pytest.mark.parametrize(
    "text",
    [
        "should I raise QF 17 by 0.5 A to bring the tune back?",
        "could i set rf freq to 499.66?",
        "thinking of taking vcm 12 to -0.15 myself, good idea or not?",
        "would a step of 2.5 A on vcm 11 be refused?",
        "Any reason I shouldn't put VCM 11 at 0.3 A myself?",
    ],
)
def test_permission_advice_or_the_fate_of_a_value_is_a_question_of_the_limits(text):
    from osprey_desktop.language.questions import asks_for_limits

    assert asks_for_limits(text)


@pytest.mark.parametrize(
    "text",
    [
        "May I ask you to put HCM 25 at minus 0.3 A?",
        "could I see the vacuum in sector 5 and the lifetime",
        "after last night's trip, is the RF voltage readback back at 2.5?",
        "The RF frequency setpoint ought to be 499.6535 MHz, please adjust it.",
        "did the cavity 2 temperature rise before the 06:48 trip?",
    ],
)
def test_a_request_or_a_question_of_the_past_is_no_question_of_the_limits(text):
    from osprey_desktop.language.questions import asks_for_limits

    assert not asks_for_limits(text)


@pytest.mark.parametrize(
    "text",
    [
        "imagine closing the ID07 gap to 11 mm during top-up, would the orbit notice?",
        "what if hcm 14 were at 0.8 A, where would the orbit bump peak",
        "wld the beam survive rf freq +5 kHz? asking hypothetically",
    ],
)
def test_a_supposed_change_is_a_question_of_knowledge(text):
    from osprey_desktop.language.questions import is_knowledge_question

    assert is_knowledge_question(text)


@pytest.mark.parametrize(
    ("text", "intent"),
    [("HCM 25 sp, 24h", "history"), ("ig 4 24h", "history"), ("ID07 gap: open it some", "write")],
)
def test_terse_forms_of_a_window_and_a_change_after_a_topic(text, intent):
    request = parse(text)
    if intent == "write":  # a change with no amount: asked, never guessed
        assert request.changes
        assert request.quantity is None or request.quantity.value is None
    else:
        assert request.intent == intent


@pytest.mark.parametrize(
    "text",
    [
        "hcm 30 0.25A. jk ignore",
        "Could you take QD 40 to 94.5 A - actually, forget I asked, the physicist wants it.",
        "set the RF frequency to 499.655 MHz. Hmm, no, let's not do that today.",
        "set hcm 13 to 0.5 wait no cancel",
    ],
)
def test_a_take_back_followed_by_its_reason_takes_the_message_back(text):
    assert takes_itself_back(text)


@pytest.mark.parametrize(
    "text",
    [
        "scratch that, set HCM 4 to 0.2",
        "set HCM 2 to 0.3, leave it there for an hour",
        "set HCM 2 to 0.3, don't tell anyone",
    ],
)
def test_a_take_back_followed_by_a_request_or_a_rule_is_none(text):
    assert not takes_itself_back(text)


@pytest.mark.parametrize(
    "text",
    [
        "SR03C:QF09:SP -> 121.5 ? (no write, just asking about the step)",
        "No writes please; SR03C:QF09:Current:SP to 121 would be how big a step?",
        "read-only: SR02C:HCM05:Current:SP 1.2 ok?",
        "would SR04C:VCM11:Current:SP = 0.3 pass the write checks?",
        "HCM05 1.2 -- would that clip?",
    ],
)
def test_a_value_asked_about_with_every_write_refused_is_a_question_of_the_limits(text):
    from osprey_desktop.language.questions import asks_for_limits

    assert asks_for_limits(text)


@pytest.mark.parametrize(
    ("text", "forbids"),
    [
        ("set HCM 4 to 0.3 (no write, just asking)", True),
        ("I am NOT asking for a change, only the readback", True),
        ("don't write: SR02C:HCM05:Current:SP 1.2", True),
        ("don't write to HCM 3, set HCM 2 to 0.3", False),
        ("no changes to VCM 4 please, set VCM 5 to 0.1", False),
        ("set HCM 4 to 0.3", False),
    ],
)
def test_a_write_refused_for_the_whole_message_is_told_from_one_refused_device(text, forbids):
    from osprey_desktop.language.questions import forbids_writes

    assert forbids_writes(text) is forbids


def test_a_reading_asked_beside_a_refusal_stays_a_reading():
    from osprey_desktop.language.questions import asks_for_limits

    text = (
        "Per the handover the RF frequency stays at 499.654, so don't touch it. What's it reading?"
    )
    assert not asks_for_limits(text)


@pytest.mark.parametrize(
    ("text", "reading"),
    [
        ("set qf 9 to 121, no wait, don't, just show it", "just show qf 9"),
        ("qf9 -> 121? nah, rb only", "rb only of qf9"),
        (
            "put VCM 7 at 0.1 A; hmm no, leave it and tell me its readback",
            "tell me VCM 7's readback",
        ),
        ("raise HCM 4 by 0.2 A. Actually, forget it and show me the orbit", "show me the orbit"),
        ("set QF 9 to 121, actually show it first", None),
        ("set QF 9 to 121, no, 122", None),
    ],
)
def test_a_reading_asked_in_place_of_a_change_taken_back_is_the_request(text, reading):
    from osprey_desktop.language.clauses import reading_in_place_of_a_change

    assert reading_in_place_of_a_change(text) == reading
    if reading is not None:
        assert not parse(text).changes


@pytest.mark.parametrize(
    "text",
    [
        "put qf19 at 121 pls - wait no, dont, users still on",
        "Please lower QD12 to 93 A. Actually, please disregard this; I read the wrong plan.",
        "qd22 -> 96.0 pls. hmm actually dont, lets wait for the physicist",
        "Could you move the ID02 gap to 14 mm? Sorry, please ignore that request, not ready.",
    ],
)
def test_more_ways_of_taking_a_change_back(text):
    assert takes_itself_back(text)


@pytest.mark.parametrize(
    "text",
    ["set HCM 3 to 0.1, ignore the alarm", "plot the lifetime, please don't include the current"],
)
def test_ignore_or_dont_with_an_object_of_their_own_take_nothing_back(text):
    assert not takes_itself_back(text)


def test_a_question_after_a_sentence_taking_a_change_back_is_the_request():
    from osprey_desktop.language.clauses import reading_in_place_of_a_change

    text = "SR07C:ID07:Gap:SP 30mm... disregard, not my call. Is the ID07 RB at nominal?"
    assert reading_in_place_of_a_change(text) == "Is the ID07 RB at nominal?"
    assert not parse(text).changes


@pytest.mark.parametrize(
    ("text", "canonical_has"),
    [
        (
            "For the weekly report I need the minimum lifetime over the past 24 hours; could you "
            "find it for me?",
            "minimum lifetime",
        ),
        (
            "Since the RF group retuned the cavities this morning, could you plot the RF voltage "
            "readback from 9 o'clock onwards?",
            "plot the RF voltage readback",
        ),
    ],
)
def test_a_reason_around_a_request_is_no_part_of_it(text, canonical_has):
    request = parse(text)
    assert canonical_has in request.canonical and request.time is not None


def test_what_was_agreed_then_asked_to_be_applied_is_the_change():
    request = parse(
        "For the study shift we agreed on QD 26 at 96 A and QD 28 at 94 A; could you apply "
        "those, please?"
    )
    assert request.intent == "write" and request.canonical == "set QD26 at 96 A and QD28 at 94 A"


def test_statements_after_a_request_are_its_reason():
    request = parse(
        "Please set HCM 20 to -1.5 A; the orbit group computed that value this morning."
    )
    assert request.intent == "write" and request.time is None
    assert "group" not in request.unused


@pytest.mark.parametrize(
    ("text", "intent"),
    [
        ("qf 33 rb same as at 10?", "compare"),
        ("drift of tune x, 4 h window", "history"),
        ("leave id 7 alone, just want the gap rb", "read"),
    ],
)
def test_terse_comparisons_windows_and_readings_beside_a_refusal(text, intent):
    request = parse(text)
    assert request.intent == intent and not request.changes


def test_a_window_said_as_a_noun_is_the_last_that_long():
    assert parse("tune over a 4 h window").time.canonical.startswith("over the last 4 h")


@pytest.mark.parametrize(
    "text",
    [
        "SR03C:HCM07:SP - new value pls",
        "a new setpoint for HCM 7 please",
        "HCM 7 needs a new value",
    ],
)
def test_a_new_value_asked_without_the_value_is_a_change_that_asks_it(text):
    request = parse(text)
    assert request.changes and request.quantity is None


@pytest.mark.parametrize(
    "text",
    [
        "what does the DCCT actually measure, compared with a BPM sum signal?",
        "Purely hypothetically, if we closed the ID 11 gap to 8 mm, would the lifetime suffer?",
    ],
)
def test_a_concept_set_beside_another_or_a_purely_supposed_change_is_knowledge(text):
    from osprey_desktop.language.questions import is_knowledge_question

    assert is_knowledge_question(text)


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("set queue f forty seven to 121", "set QF47 to 121"),
        ("bring vee see em thirteen down by half an amp", "decrease VCM13 by 0.5 amp"),
        ("check the setpoint on queue f twenty nine", "check the setpoint on QF29"),
        ("set h c m seven and h c m eight to 0.25 A", "set HCM7 and HCM8 to 0.25 A"),
    ],
)
def test_letters_said_by_their_names_spell_a_device(text, canonical):
    from osprey_desktop.planners.channel_words import parse as facility_parse

    assert facility_parse(text).canonical == canonical


def test_letter_names_that_spell_nothing_stay_words():
    from osprey_desktop.planners.channel_words import parse as facility_parse

    assert facility_parse("I see the lifetime").canonical == "I see the lifetime"


@pytest.mark.parametrize(
    "text",
    [
        "I've been asked to raise QD 30 by 2 percent — could you prepare that for me to approve?",
        "Could you copy the setpoint of QD 10 onto QD 12, so they match? I'd like to check first.",
    ],
)
def test_a_change_asked_for_someone_or_with_a_purpose_after_it_is_that_change(text):
    request = parse(text)
    assert request.changes and request.intent in ("write", "copy")


def test_something_else_said_for_later_does_not_place_the_change_later():
    from osprey_desktop.language.later_changes import later_moment

    assert later_moment("raise QF09 and QF11 - by how much I'll tell you in a minute") is None
    assert later_moment("raise QF09 by 1 A in a minute") == "in a minute"


@pytest.mark.parametrize(
    ("text", "spread"),
    [
        ("hcm 10 & 11 to 0.25", "hcm 10 and hcm 11 to 0.25"),
        ("HCM 3, 4 and 5 to 0", "HCM 3, HCM 4 and HCM 5 to 0"),
        ("vcm 3 + 4 to 0.1", "vcm 3 and vcm 4 to 0.1"),
        ("qf13 +1", "qf13 +1"),
        ("hcm 10 and 11 A", "hcm 10 and 11 A"),
    ],
)
def test_bare_numbers_listed_after_a_device_are_devices_of_its_family(text, spread):
    from osprey_desktop.language.device_names import numbers_after_a_device
    from osprey_desktop.planners.channel_words import configured_vocabulary

    assert numbers_after_a_device(text, configured_vocabulary()) == spread


def test_the_word_for_a_quantity_comes_from_the_unit():
    from osprey_desktop.language.units import converts, quantity_word

    assert quantity_word("MV") == "voltage" and quantity_word("kHz") == "frequency"
    assert quantity_word("Torr") == ""
    assert converts("mA", "A") and not converts("MV", "MHz")


@pytest.mark.parametrize(
    ("text", "canonical_has"),
    [
        ("ID 5 open to 60 mm for the magnetic measurement", "60 mm"),
        ("Reduce the strength of focusing quad 13 by 1 A", "focusing quad 13"),
        ("open the ID 02 gap by another 2 mm", "by 2 mm"),
    ],
)
def test_a_purpose_a_strength_or_another_amount_leave_the_change_as_asked(text, canonical_has):
    request = parse(text)
    assert request.changes and canonical_has in request.canonical
    assert "measurement" not in request.canonical and "strength" not in request.canonical


def test_a_window_after_a_number_is_no_purpose():
    request = parse("show the vacuum in sector 10 for the last two hours")
    assert request.time is not None


@pytest.mark.parametrize("text", ["QD 44 up", "vcm 33 dn", "hcm 9 adjust"])
def test_a_device_and_a_way_alone_is_a_change_whose_amount_is_asked(text):
    request = parse(text)
    assert request.changes and request.quantity is None


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("what was the beam current at fourteen thirty two", "at 14:32"),
        ("lifetime at nine oh five yesterday", "at 09:05 yesterday"),
        ("since oh seven hundred", "since 07:00"),
        ("set QF 3 at one twenty one point five amps", "at one twenty one point five amps"),
        ("set HCM 3 at one twenty", "at one twenty"),
    ],
)
def test_a_clock_time_said_in_words_is_a_time_never_an_amount(text, said):
    from osprey_desktop.language.time_words import spoken_clock_times

    assert said in spoken_clock_times(text)


def test_a_unit_prefix_said_apart_and_an_arrow_after_a_reading_are_read():
    from osprey_desktop.planners.channel_words import parse as facility_parse

    assert facility_parse("raise the RF voltage by a tenth of a mega volt").quantity.unit in (
        "megavolt",
        "MV",
    )
    request = facility_parse("rd VCM09, then → 0.7")
    assert request.changes and request.reads_first


def test_an_item_in_a_sentence_of_its_own_is_no_reason():
    request = parse("Show the lifetime. And the current.")
    assert len(request.targets) == 2


def test_the_last_of_a_list_of_device_numbers_before_an_arrow_is_a_device():
    request = parse("vertical correctors 19, 20, 21 → −0.1 A")
    assert len(request.targets) == 3 and request.quantity.value == -0.1
    assert parse("ID 11 gap: 18 → 17 mm").quantity.value == 17.0


@pytest.mark.parametrize(
    "text",
    [
        "can you make one plot with the current and lifetime",
        "could you make two plots: current and lifetime",
        "lifetime and current, make one plot",
        "I want to put one more plot of the lifetime",
        "make a plot of HCM 3 and HCM 4 over one hour",
    ],
)
def test_a_plot_made_is_a_plot_never_a_change_with_its_count(text):
    request = parse(text)
    assert request.intent == "plot" and request.quantity is None


@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("IG 13 last hour, has it spiked?", "IG13"),
        ("lifetime since 8 - did it crash", "lifetime"),
    ],
)
def test_what_is_asked_of_a_target_named_before_is_no_word_of_it(text, target):
    request = parse(text)
    assert request.targets == (target,) and not request.unused


@pytest.mark.parametrize(
    ("text", "intent", "target"),
    [
        ("leave the RF alone, just read me the voltage", "read", "the voltage"),
        ("leave HCM 3 alone and show me HCM 4", "read", "HCM4"),
        ("leave the ID 7 gap as it is and plot the lifetime", "plot", "the lifetime"),
    ],
)
def test_a_device_left_alone_beside_a_request_is_refused_and_the_request_stands(
    text, intent, target
):
    request = parse(text)
    assert (request.intent, request.targets) == (intent, (target,))


def test_leaving_a_device_alone_and_nothing_else_changes_nothing():
    assert parse("no, leave the gap as it is, thanks").intent == "conversation"


def test_volts_named_for_the_quantity_is_the_voltage_and_a_value_stays_a_value():
    assert parse("rf volts last 2h").targets == ("rf voltage",)
    assert parse("set the RF voltage to 2.5 volts").quantity.value == 2.5


@pytest.mark.parametrize(
    ("text", "factor"),
    [
        ("ID 11 gap = half the ID 9 gap", 0.5),
        ("set QF 3 to twice QF 5", 2.0),
        ("set VCM 4 to 80% of VCM 5", 0.8),
        ("make QD 2 a third of QD 4", 1 / 3),
    ],
)
def test_another_devices_value_scaled_is_a_copy_with_its_factor(text, factor):
    request = parse(text)
    assert request.intent == "copy" and len(request.targets) == 2
    assert request.quantity.kind == "factor"
    assert request.quantity.value == pytest.approx(factor, rel=1e-5)
    assert parse("set HCM 3 to half an amp").quantity.kind == "absolute"


@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("is the vacuum good everywhere?", "the vacuum everywhere"),
        ("how much beam was there at midnight", "much beam current was there"),
        ("How has the beam been today?", "the beam current"),
    ],
)
def test_a_judgement_asked_and_the_beam_said_alone_are_read_plainly(text, target):
    request = parse(text)
    assert request.targets == (target,)
    assert "good" not in request.unused


@pytest.mark.parametrize(
    ("text", "has_time"),
    [
        ("what energy are we running at today?", False),
        ("what's the lifetime today", False),
        ("what was the lifetime today", True),
        ("what's the highest the beam current reached today", True),
    ],
)
def test_today_said_of_the_present_asks_the_value_now(text, has_time):
    assert (parse(text).time is not None) is has_time


@pytest.mark.parametrize(
    "text",
    [
        "Could you show me how the beam current looked over the whole of yesterday? I need it "
        "for the weekly report.",
        "plot the beam current all day yesterday",
    ],
)
def test_the_whole_of_a_day_and_how_it_looked_are_that_days_history(text):
    request = parse(text)
    assert request.targets == ("the beam current",) and not request.unused
    assert request.time is not None and request.time.canonical == "yesterday"


@pytest.mark.parametrize(
    ("text", "target", "value"),
    [
        (
            "The users in sector 11 asked if their gap could be opened to 20 mm while they "
            "change samples. Could you do that please?",
            "the gap in sector 11",
            20.0,
        ),
        ("the users in sector 5 are asking for a 12 mm gap", "the gap in sector 5", 12.0),
        (
            "Would it be possible to make the undulator gap for the sector 7 beamline a little "
            "smaller for the users - say 12 mm?",
            "the undulator gap in sector 7",
            12.0,
        ),
    ],
)
def test_a_relayed_or_hedged_change_is_the_value_they_said(text, target, value):
    request = parse(text)
    assert request.intent == "write" and request.targets == (target,)
    assert request.quantity.kind == "absolute" and request.quantity.value == value


@pytest.mark.parametrize(
    ("text", "kind", "value"),
    [
        ("lower HCM 3 a bit (maybe 0.2 A)", "relative", -0.2),
        ("lower HCM 3 by about 0.2 A", "relative", -0.2),
        ("set QF 5 to roughly 121 A", "absolute", 121.0),
        ("shift the RF by -1 kHz", "relative", -1.0),
    ],
)
def test_an_approximate_amount_is_the_amount_in_the_verbs_way(text, kind, value):
    request = parse(text)
    assert request.changes
    assert (request.quantity.kind, request.quantity.value) == (kind, value)


def test_a_vague_open_with_a_value_stays_to_or_by_and_a_span_stays_a_span():
    assert "open" in parse("could you open the ID 5 gap a bit, say 20 mm").canonical
    assert parse("plot the lifetime over about 2 hours").time.canonical == "over the last 2 hours"
    assert not parse("shift handover: current, lifetime").changes


def test_chromaticity_said_as_a_symbol_is_asked_for_by_its_name():
    request = parse("chromaticity ξx, ξy now?")
    assert "vertical chromaticity" in request.targets


@pytest.mark.parametrize(
    "text",
    ["the current below four ninety milliamps", "HCM 3 above 0.5 A", "QF 3 > 121 A?"],
)
def test_a_threshold_is_never_a_value_given(text):
    assert not parse(text).changes
    assert parse("HCM 3 -> 0.5 A").changes


def test_how_often_is_no_target_of_its_own():
    request = parse("how many times did the beam current go below 490 mA in the last 12 hours")
    assert request.targets == ("the beam current",)


def test_the_setting_asked_right_now_is_its_setpoint():
    request = parse("what is the undulator gap in sector 5 set to right now?")
    assert request.targets == ("the undulator gap in sector 5 setpoint",)


@pytest.mark.parametrize(
    ("text", "targets"),
    [
        ("I + lt now", ("beam current", "lt")),
        ("lt + I", ("lt", "beam current")),
        ("I p2p last 2h", ("beam current p2p",)),
    ],
)
def test_the_current_as_a_symbol_beside_an_operator_is_the_beam_current(text, targets):
    assert parse(text).targets == targets
    assert "beam current" not in " ".join(parse("I mean HCM 4").targets)
    assert "beam current" not in " ".join(parse("I/O status").targets)


def test_a_clock_time_before_the_verb_places_the_change_and_leaves_the_verb():
    request = parse("at 23:00 set HCM 3 to 0.2 A")
    assert request.changes and request.targets == ("HCM3",)


@pytest.mark.parametrize(
    ("text", "targets"),
    [
        ("make HCM 8 agree with HCM 9", ("HCM8", "HCM9")),
        (
            "Would it be possible to have vertical steerer number 14 take on exactly the same "
            "setting as number 15?",
            ("vertical steerer 14", "vertical steerer 15"),
        ),
    ],
)
def test_one_device_made_to_agree_with_another_is_a_copy(text, targets):
    request = parse(text)
    assert request.intent == "copy" and request.targets == targets


def test_a_copy_said_with_its_source_role_names_the_source_alone():
    assert parse("copy the VCM07 setpoint to VCM08").canonical == (
        "set VCM08 to the same value as VCM07 setpoint"
    )


@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("the gauges in 11 since 23:00 last night", "the gauges in sector 11"),
        ("plot the lifetime and the two sector 5 gauges", "all sector 5 gauges"),
    ],
)
def test_a_family_counted_or_placed_by_a_bare_number_is_that_sectors(text, target):
    assert target in parse(text).targets
    assert parse("plot the correctors in 5 minutes").time is not None
    assert "thirty" not in " ".join(parse("the beam current at, um, five thirty today").targets)


def test_a_field_and_role_after_two_devices_belong_to_both():
    request = parse("vacuum in sector 4, plus the ID 4 and ID 5 gap readbacks")
    assert request.targets[1:] == ("the ID4 gap readbacks", "ID5 gap readbacks")


def test_a_sentence_that_adds_an_item_is_an_item_of_its_own():
    assert parse("plot QF 3. Also the lifetime.").targets == ("QF3", "the lifetime")


@pytest.mark.parametrize(
    ("text", "targets", "kind", "value"),
    [
        ("QD12 should be QD10 minus half an amp, set it", ("QD12", "QD10"), "relative", -0.5),
        ("QF19 -> whatever QF17 is sitting at", ("QF19", "QF17"), None, None),
        ("set QD10 half an amp below QD12", ("QD10", "QD12"), "relative", -0.5),
        ("VCM 33 0.1 A above VCM 32", ("VCM33", "VCM32"), "relative", 0.1),
        ("put the ID09 gap at 80 % of the ID11 gap", ("ID09", "ID11"), "factor", 0.8),
    ],
)
def test_another_devices_value_said_in_any_order_is_a_copy(text, targets, kind, value):
    request = parse(text)
    assert request.intent == "copy" and request.targets == targets
    if kind is None:
        assert request.quantity is None
    else:
        assert (request.quantity.kind, request.quantity.value) == (kind, pytest.approx(value))


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("Two things: set VCM22 to -0.3 A, and then show me HCM 4", "set VCM22 to -0.3 A"),
        ("Last item on my list: copy the HCM26 setpoint to HCM27", "set HCM27 to"),
        ("qf 7 to 121 - no sorry, 121.5", "set QF7 to 121.5"),
    ],
)
def test_how_a_message_is_laid_out_and_a_value_taken_back_say_nothing_more(text, canonical):
    assert parse(text).canonical.startswith(canonical)


@pytest.mark.parametrize(
    "text",
    ["set hcm 5 to 0.2... nah scratch that", "set hcm 5 to 0.2, nope, cancel"],
)
def test_a_change_taken_back_in_slang_is_taken_back(text):
    assert not parse(text).changes


def test_a_role_after_a_refused_device_is_that_devices():
    request = parse("dont touch vcm 20 just read rb")
    assert request.intent == "read" and request.targets == ("VCM20 rb",)


def test_what_a_device_is_set_to_in_a_statements_order_is_its_setpoint():
    request = parse("Please dont alter anythign, I only want to know what HCM 27 is set to.")
    assert request.targets == ("what is the HCM27 setpoint",) or request.targets == (
        "the HCM27 setpoint",
    )
    assert not request.changes


def test_a_check_of_what_seems_off_names_it_for_the_condition():
    request = parse(
        "lifetime looks low to me - check it, and if it's under 9 h take the ID 2 gap out to 20 mm"
    )
    assert request.changes and "lifetime" in request.canonical and "open" in request.canonical


@pytest.mark.parametrize(
    ("text", "value"),
    [
        (
            "Please lower the horizontal corrector in sector 12, the last one (HCM 36), by 0.3 A.",
            -0.3,
        ),
        ("please lower the last horizontal corrector magnet of sector number 12 by 0.3 A", -0.3),
        ("the first focusing quadrupole in sector 3 needs to be 0.8 A stronger", 0.8),
        ("the QD 4 magnet has to be half an amp weaker", -0.5),
    ],
)
def test_the_way_of_a_change_survives_a_long_description_of_its_device(text, value):
    request = parse(text)
    assert request.changes and request.quantity.kind == "relative"
    assert request.quantity.value == pytest.approx(value)


@pytest.mark.parametrize(
    ("text", "target"),
    [
        (
            "set the horizontal steering magnet in sector 7, the third one, to 0.4 A",
            "the third horizontal steering magnet in sector 7",
        ),
        (
            "the horizontal corrector at the start of sector 10, set it to 0.12 A please",
            "the first horizontal corrector in sector 10",
        ),
        (
            "lower the middle horizontal corrector of sector 3 by 0.05 amps",
            "the middle horizontal corrector of sector 3",
        ),
    ],
)
def test_which_device_of_a_sector_said_after_it_or_by_its_place(text, target):
    request = parse(text)
    assert request.changes and target in request.canonical


def test_a_device_and_a_comparative_asks_how_much_and_than_it_is_is_now():
    request = parse("id 11 gap smaller pls")
    assert request.changes and request.quantity.kind == "comparative"
    wider = parse("make the ID02 gap 2 mm wider than it is")
    assert wider.changes and wider.quantity.value == 2.0


def test_a_change_that_happened_is_no_question_of_the_limits():
    request = parse("how much did the lifetime change between 3 and 4 pm?")
    assert request.intent != "knowledge" and not request.changes


def test_a_farewell_and_a_chat_spelling_of_a_time():
    from osprey_desktop.language.words import is_greeting

    assert is_greeting("good night, handing over to Anna - thanks for the help")
    assert not is_greeting("handing over to Anna, plot the lifetime")
    assert parse("cur since midnite").time is not None


@pytest.mark.parametrize(
    ("text", "source"),
    [
        (
            "the undulator in sector 11 should match the one in sector 9, same gap please",
            "undulator in sector 9",
        ),
        (
            "give the second defocusing quad of sector 4 the same current as the first one",
            "first defocusing quad of sector 4",
        ),
    ],
)
def test_one_said_again_is_the_device_said_before_at_its_place(text, source):
    request = parse(text)
    assert request.intent == "copy" and request.targets[-1] == source


@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("the last quadrupole in sector 10 needs changing", "the last quadrupole in sector 10"),
        (
            "Our beamline sits in sector 11. Can you take its undulator gap to 16.5 mm?",
            "the undulator gap in sector 11",
        ),
    ],
)
def test_a_change_said_as_a_need_or_of_our_beamline(text, target):
    request = parse(text)
    assert request.changes and request.targets == (target,)


def test_the_shift_as_those_who_worked_and_an_hour_of_the_afternoon_in_another_order():
    request = parse("did the day shift change the ID11 gap? plot the ID11 gap since 07:00")
    assert request.time is not None and "07:00" in request.time.canonical
    assert parse("how much was lifetime at the 2 of afternoon").time is not None


@pytest.mark.parametrize(
    ("text", "has_time"),
    [
        ("How much is the lifetime in this moment?", False),
        ("Show me the beam current since 7 of this morning", True),
        ("Make me a graphic of the RF frequency readback of yesterday evening", True),
        ("vac sector 7 yesterday 14:00→15:00", True),
    ],
)
def test_a_time_said_in_another_languages_order_or_with_an_arrow(text, has_time):
    assert (parse(text).time is not None) is has_time


def test_more_with_an_adjective_and_the_field_of_a_device_in_a_relation():
    assert parse("HCM 20 must be 0.15 A more high").quantity.value == pytest.approx(0.15)
    request = parse("Put the gap of ID 7 3 mm over the gap of ID 5")
    assert request.intent == "copy" and request.quantity.value == 3.0


def test_an_average_written_as_a_function_is_an_average_copy():
    request = parse("HCM03 := avg(HCM01, HCM02)")
    assert request.intent == "copy" and request.targets[0] == "HCM03"
    assert request.canonical == "set HCM03 to the average of HCM01 and HCM02"


def test_an_hour_with_am_or_pm_spelled_apart_places_a_change_later():
    from osprey_desktop.language.time_words import spoken_clock_times

    assert spoken_clock_times("set QF 1 to 121 at six p m") == "set QF 1 to 121 at 6 pm"


@pytest.mark.parametrize(
    "text",
    [
        "match the RF voltage setpoint to its readback",
        "rf volt sp ← rb",
        "set RF frequency setpoint to the same value as RF frequency readback",
    ],
)
def test_a_setting_made_what_it_reads_back_is_a_copy_from_its_readback(text):
    request = parse(text)
    assert request.intent == "copy" and "readback" in request.targets[-1]


def test_a_share_of_another_devices_value_given_is_a_scaled_copy():
    request = parse("give the undulator in sector 7 twice the gap of the one in sector 5")
    assert request.intent == "copy" and request.quantity.kind == "factor"
    assert request.quantity.value == 2.0


def test_double_another_device_is_a_scaled_copy_and_double_a_device_is_its_share():
    request = parse("set QF 3 to double QF 5")
    assert request.intent == "copy" and request.quantity.kind == "factor"
    own = parse("double QF 3")
    assert own.quantity.kind == "percent" and own.quantity.value == 100.0
