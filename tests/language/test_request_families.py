"""Families of wording the parse reads by their form (issue 19): each test names a family and
gives it in words no benchmark set uses."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from osprey_desktop.language.follow_ups import follow_up
from osprey_desktop.language.quantities import amounts as amounts_in
from osprey_desktop.language.questions import is_knowledge_question
from osprey_desktop.language.request import Vocabulary, parse_request
from osprey_desktop.language.targets import as_measured, split_targets

WORDS = Vocabulary(
    device_prefixes=frozenset({"hcm", "vcm", "qf", "qd", "bpm", "id", "ig"}),
    channel_words=frozenset(
        {"beam", "current", "lifetime", "tune", "horizontal", "vertical", "rf", "voltage"}
        | {"gap", "vacuum", "pressure", "orbit", "energy", "corrector", "up", "top"}
    ),
)
NOW = datetime(2026, 11, 26, 15, 30, tzinfo=ZoneInfo("UTC"))


def parse(text: str):
    return parse_request(text, WORDS, NOW)


@pytest.mark.parametrize(
    ("text", "target", "source"),
    [
        ("give VCM05 the same current as VCM06", "VCM05", "VCM06"),
        ("have QD12 match QD14", "QD12", "QD14"),
        ("HCM 21 equal to HCM 22 please", "HCM21", "HCM22"),
    ],
)
def test_a_relation_of_equality_between_devices_is_a_copy_whatever_verb_leads(text, target, source):
    request = parse(text)
    assert request.intent == "copy"
    assert request.targets == (target, source)
    assert request.canonical == f"set {target} to the same value as {source}"


@pytest.mark.parametrize(
    "text", ["is HCM21 the same as HCM22?", "does QD12 match QD14", "don't make QD12 match QD14"]
)
def test_a_question_or_a_negation_about_equality_changes_nothing(text):
    assert not parse(text).changes


@pytest.mark.parametrize("text", ["what is beam injection?", "what's orbit correction"])
def test_what_is_a_process_noun_without_an_article_is_a_concept(text):
    assert is_knowledge_question(text)


@pytest.mark.parametrize(
    "text", ["what is the injection rate", "what is beam position?", "what is QF 9 setting"]
)
def test_what_is_a_channel_or_a_device_is_no_concept(text):
    assert not is_knowledge_question(text)


@pytest.mark.parametrize(
    ("text", "targets"),
    [
        ("mean lifetime over the past 3 hours", ("lifetime",)),
        ("min and max of the vertical tune since 6 am", ("the vertical tune",)),
        ("is the RF voltage higher now than at 9 this morning?", ("the RF voltage",)),
        ("was the gap of ID05 worse than yesterday at noon?", ("the gap of ID05",)),
    ],
)
def test_statistics_and_comparatives_are_no_channel_words(text, targets):
    assert parse(text).targets == targets


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("set QF05 back the way it was at 9 this morning", "restore QF05 to its value from 20"),
        ("return QF05 to how it was at 9", "restore QF05 to its value from 09:00"),
        ("go back to this morning's value for QF 5", "restore QF5 to its value from this morning"),
        ("roll QF05 back to 10:00", "restore QF05 to its value from 10:00"),
        ("return the ID05 gap to its 7 am value", "restore the ID05 gap to its value from 20"),
    ],
)
def test_the_words_of_a_relation_to_the_archive_leave_the_target(text, canonical):
    request = parse(text)
    assert request.intent == "restore"
    assert request.targets in (("QF05",), ("QF5",), ("the ID05 gap",))
    assert canonical in request.canonical


def test_a_restore_with_a_word_it_cannot_place_keeps_its_words():
    request = parse("restore QF11 to its value from tomorrow at 10:00")
    assert "tomorrow" in request.canonical


def test_overnight_is_a_time():
    request = parse("lifetime overnight")
    assert request.intent == "history" and request.targets == ("lifetime",)


@pytest.mark.parametrize(
    ("phrase", "items"),
    [
        ("BPM40, horizontally", ["BPM40 horizontal"]),
        ("HCM3, vertical", ["HCM3 vertical"]),
        ("QF1 and QD2 setpoints", ["QF1 setpoints", "QD2 setpoints"]),
        (
            "HCM10, HCM11 and VCM12 readbacks",
            [f"{d} readbacks" for d in ("HCM10", "HCM11")] + ["VCM12 readbacks"],
        ),
        ("horizontal and vertical tune", ["horizontal tune", "vertical tune"]),
    ],
)
def test_items_of_a_list_lend_each_other_qualifiers_and_roles(phrase, items):
    assert split_targets(phrase) == items


def test_read_back_asks_for_the_readback():
    assert parse("read back the HCM 6 current").targets == ("the HCM6 current readback",)


def test_a_noun_that_is_also_a_verb_leaves_a_target_the_list_has_no_word_for():
    request = parse("corrector trims in sector 6?")
    assert request.intent == "read"
    assert request.targets == ("corrector in sector 6",)


@pytest.mark.parametrize("text", ["move it up a little", "bump it down slightly"])
def test_a_direction_before_a_vague_amount_is_a_change_without_a_value(text):
    request = parse(text)
    assert request.changes
    assert request.quantity is not None and request.quantity.kind == "comparative"
    assert request.quantity.value is None


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("HCM04 should be 0.25 A", "set HCM04 to 0.25 A"),
        ("the ID04 gap needs to be at twenty mm", "set the ID04 gap to twenty mm"),
    ],
)
def test_a_modal_with_a_number_gives_a_value(text, canonical):
    request = parse(text)
    assert request.intent == "write"
    assert request.canonical == canonical


def test_a_modal_in_a_question_gives_no_value():
    assert not parse("HCM04 should be 0.25 A?").changes


@pytest.mark.parametrize(
    "text", ["set QD 30 to whatever QD 32 is", "make HCM 20 equal HCM 21", "QD30 equals QD32"]
)
def test_more_relations_of_equality_are_copies(text):
    request = parse(text)
    assert request.intent == "copy"
    assert len(request.targets) == 2


@pytest.mark.parametrize(
    ("text", "concept"),
    [
        ("how do quadrupoles focus the beam?", True),
        ("how does an undulator make light", True),
        ("how do the correctors look", False),
        ("how do correctors look in sector 3", False),
    ],
)
def test_how_a_kind_of_device_works_is_a_concept(text, concept):
    assert is_knowledge_question(text) is concept


def test_a_qualifier_after_a_run_of_devices_belongs_to_each():
    assert split_targets("BPM2 and BPM3 vertical") == ["BPM2 vertical", "BPM3 vertical"]


@pytest.mark.parametrize(
    ("text", "measured"),
    [
        ("the RF voltage 45 minutes ago", ("the RF voltage readback",)),
        ("cavity voltage and lifetime", ("cavity voltage readback", "lifetime")),
        ("vcm 14?", ("VCM14",)),
        ("the vertical correctors", ("the vertical correctors",)),
        ("what is the RF frequency set to", ("the RF frequency setpoint",)),
        ("current", ("current",)),
    ],
)
def test_a_quantity_named_by_its_words_alone_is_read_as_measured(text, measured):
    assert as_measured(parse(text), WORDS.device_prefixes) == measured


def test_a_change_keeps_its_targets_as_named():
    assert as_measured(parse("set the RF voltage to 2.6 MV"), WORDS.device_prefixes) == (
        "the RF voltage",
    )


def test_plus_an_amount_after_a_device_is_a_relative_change():
    request = parse("QD 4 plus 0.5 A")
    assert request.intent == "write"
    assert request.quantity is not None and request.quantity.kind == "relative"
    assert request.canonical == "increase QD4 by 0.5 A"


def test_the_verb_of_a_question_about_a_value_is_no_channel_word():
    assert parse("what is the RF frequency doing?").targets == ("the RF frequency",)


@pytest.mark.parametrize(
    ("previous", "again", "targets"),
    [
        ("HCM 3 readback", "and its setpoint?", ("HCM3 setpoint",)),
        (
            "read HCM 3 and HCM 4 setpoints",
            "and the readbacks",
            ("HCM3 readbacks", "HCM4 readbacks"),
        ),
        ("QF 5 and QF 7 setpoints", "the readbacks too", ("QF5 readbacks", "QF7 readbacks")),
    ],
)
def test_a_follow_up_naming_only_roles_replaces_the_roles(previous, again, targets):
    merged = follow_up(parse(previous), parse(again), WORDS)
    assert merged is not None and merged.targets == targets


@pytest.mark.parametrize(
    ("text", "concept"),
    [
        ("what causes the orbit to drift?", True),
        ("which magnets control the tune?", True),
        ("how is the beam lifetime measured?", True),
        ("what happens to the lifetime when the gap closes?", True),
        ("how does raising the RF voltage change the lifetime?", True),
        ("what changes were made to QF 3", False),
        ("how is the lifetime now?", False),
        ("what is HCM01 set to", False),
    ],
)
def test_a_cause_or_a_process_asked_in_general_is_a_concept(text, concept):
    assert is_knowledge_question(text) is concept


@pytest.mark.parametrize(
    ("text", "intent"),
    [
        ("what is emittance?", "knowledge"),
        ("what is lifetime?", "read"),
        ("what is the chromaticity", "read"),
        ("what is klystron power?", "read"),
    ],
)
def test_one_bare_noun_the_list_lacks_is_a_concept(text, intent):
    assert parse(text).intent == intent


@pytest.mark.parametrize(
    ("text", "intent"),
    [
        ("set horizontal corrector 9 to 0.1 A", "write"),
        ("zero out HCM 8", "write"),
        ("set values of HCM 3", "read"),
        ("tunes, lifetime and current", "read"),
    ],
)
def test_a_noun_that_is_also_a_verb_leads_a_change_when_its_object_is_given_a_value(text, intent):
    assert parse(text).intent == intent


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("beam current at a quarter past nine", "beam current at 09:15"),
        ("lifetime since a quarter to ten", "lifetime since 09:45"),
        ("lifetime at 9.30", "lifetime at 09:30"),
        ("energy an hour and a half ago", "energy 90 minutes ago"),
        ("vacuum half an hour ago", "vacuum 30 minutes ago"),
    ],
)
def test_times_said_in_words_are_written_as_the_time_parsers_read_them(text, canonical):
    assert parse(text).canonical == canonical


@pytest.mark.parametrize(
    "text",
    ["set VCM 5 to 6 A", "sectors two to four", "lifetime from ten to six", "set HCM1 at 9.30"],
)
def test_numbers_that_are_no_clock_time_stay_as_typed(text):
    assert parse(text).canonical.split()[-1] == text.split()[-1]


@pytest.mark.parametrize(
    ("text", "targets"),
    [
        ("increase in lifetime since 8 am?", ("lifetime",)),
        ("was there a drop in the beam current overnight?", ("the beam current",)),
        ("change of the vertical tune today", ("the vertical tune",)),
    ],
)
def test_a_change_said_as_a_noun_asks_for_history_not_a_change(text, targets):
    request = parse(text)
    assert request.intent == "history" and not request.changes
    assert request.targets == targets


def test_a_hypothetical_about_a_quantity_is_a_concept():
    assert is_knowledge_question("what would the lifetime be if I raised the RF voltage?")


@pytest.mark.parametrize(
    ("text", "verb", "targets"),
    [
        ("power down QF 7", "power", ("QF7",)),
        ("wind back the RF voltage", "wind", ("the RF voltage",)),
    ],
)
def test_a_phrasal_verb_nobody_taught_the_grammar_is_asked_about(text, verb, targets):
    request = parse(text)
    assert request.intent == "unknown"
    assert request.verb == verb and request.targets == targets


@pytest.mark.parametrize("text", ["top up countdown", "beam down?", "lifetime up since 8?"])
def test_a_channel_word_before_a_particle_is_no_verb(text):
    assert parse(text).intent in ("read", "history")


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("incraese QF 3 by 1 A", "increase QF3 by 1 A"),
        ("plto the lifetime for the last hour", "plot the lifetime for the last hour"),
        ("raed HCM 3", "read HCM3"),
    ],
)
def test_a_verb_one_slip_of_typing_away_is_read_as_that_verb(text, canonical):
    assert parse(text).canonical == canonical


@pytest.mark.parametrize("text", ["tunes", "sets of correctors", "gap?", "lifetime"])
def test_words_of_the_list_or_the_grammar_are_never_respelled(text):
    assert parse(text).canonical == text


@pytest.mark.parametrize(
    ("text", "canonical"),
    [("QF 3 one percent up", "increase QF3 by 1%"), ("QD 6 3% lower", "decrease QD6 by 3%")],
)
def test_a_percent_without_by_is_said_as_a_change_by_that_percent(text, canonical):
    assert parse(text).canonical == canonical


@pytest.mark.parametrize(
    ("text", "targets"),
    [
        ("tell me when the gap of ID 9 was last changed", ("the gap of ID9",)),
        ("did the RF voltage go up since 10 am?", ("the RF voltage",)),
    ],
)
def test_a_question_of_what_a_channel_did_asks_for_its_history(text, targets):
    request = parse(text)
    assert request.intent == "history" and not request.changes
    assert request.targets == targets


@pytest.mark.parametrize(
    ("text", "target", "time"),
    [
        ("forty-five minute mean of the beam current", "the beam current", "45 minutes"),
        ("what is the 3 hour average lifetime?", "lifetime", "3 hours"),
        ("the 20-min maximum of the vacuum at IG 7", "the vacuum at IG7", "20 minutes"),
        ("hourly minimum of the RF voltage", "the RF voltage", "1 hour"),
        ("48h peak of the horizontal orbit", "the horizontal orbit", "48 hours"),
    ],
)
def test_a_duration_before_a_statistic_is_the_statistic_over_the_last_that_long(text, target, time):
    request = parse(text)
    assert request.intent == "statistic"
    assert request.targets == (target,)
    assert request.quantity is None
    assert request.time is not None and request.time.words == f"over the last {time}"


def test_a_duration_before_a_statistic_keeps_a_time_the_sentence_names():
    request = parse("the 1 h average of the lifetime since 8 this morning")
    assert request.intent == "statistic"
    assert "since" in request.time.words or request.time.kind == "since"


def test_maximum_is_one_statistic_word_not_max_and_a_rest():
    assert parse("maximum of the lifetime over the last day").targets == ("the lifetime",)


@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("what voltage is the RF set to?", "the RF voltage setpoint"),
        ("which gap is ID 4 set at?", "the ID4 gap setpoint"),
        ("what is VCM 12 set to", "the VCM12 setpoint"),
        ("what value are HCM 3 set to?", "the HCM3 setpoint"),
    ],
)
def test_what_a_device_is_set_to_asks_for_its_setpoint_with_the_quantity_in_the_target(
    text, target
):
    request = parse(text)
    assert request.intent == "read"
    assert request.targets == (target,)


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("horizontal corrector 14 to 0.3", "set horizontal corrector 14 to 0.3"),
        ("HCM-14 at 0.3 A please", "set HCM14 to 0.3 A"),
        ("could you set hcm 14 to 0.3A please", "set HCM14 to 0.3 A"),
        ("set HCM 14 to minus 0.3 A", "set HCM14 to -0.3 A"),
        ("set 0.3 A on HCM 14", "set HCM14 to 0.3 A"),
        ("go to 0.3 A on HCM-14", "set HCM14 to 0.3 A"),
        ("dial hcm14 to 0.3 A", "set hcm14 to 0.3 A"),
        ("please make corrector HCM14 0.3 A", "set corrector HCM14 to 0.3 A"),
        ("increase h corrector 14 0.1 A", "increase h corrector 14 by 0.1 A"),
        ("drop QD 16 half an amp", "decrease QD16 by 0.5 amp"),
        ("QD4 minus 0.5 A", "decrease QD4 by 0.5 A"),
    ],
)
def test_a_value_said_any_way_is_said_the_way_the_writers_read_it(text, canonical):
    request = parse(text)
    assert request.intent == "write" and not request.unused
    assert request.canonical == canonical


@pytest.mark.parametrize(
    "text",
    [
        "open the ID04 gap 2 mm",  # to or by: the writer asks
        "set HCM2 to 0.1 A and HCM3 to 0.2 A",  # two values: each kept where it was said
        "if HCM20 is above 2 A, set it to 1 A",  # a condition
    ],
)
def test_a_change_whose_form_is_not_one_value_keeps_its_words(text):
    assert parse(text).canonical == text


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("if HCM20 is above 2 A set it to 1 A", "if HCM20 is above 2 A, set it to 1 A"),
        ("if lifetime>5h -> ID09 gap 14mm", "if lifetime>5h, set ID09 gap 14mm"),
        ("if lifetime>5h -> set ID09 gap to 14mm", "if lifetime>5h, set ID09 gap to 14mm"),
        (
            "check the current, and if it is over 450 mA set VCM30 to 0.2 A",
            "if the current is over 450 mA, set VCM30 to 0.2 A",
        ),
        ("lifetime under 5 h? if not, set HCM25 to 0.25 A", "if lifetime is not under 5 h, set"),
    ],
)
def test_a_condition_that_runs_into_its_change_is_set_apart(text, canonical):
    """The writer reads a condition up to a comma: one is put where speech had none."""
    assert canonical in parse(text).canonical


def test_when_is_no_condition_before_a_change_noun():
    assert parse("when was the last change to VCM 3?").targets == ("VCM3",)


def test_an_ordinal_is_no_amount_and_a_glued_unit_is():
    assert parse("the 3rd corrector").quantity is None
    assert parse("ID5 gap to 20mm").quantity.unit == "mm"


@pytest.mark.parametrize(
    ("text", "reads_first"),
    [
        ("show me the ID04 gap and then open it to 20 mm", True),
        ("look at HCM 3 and change it to -0.1 A", True),
        ("what is QF 9 at now? set it to 121 A", True),
        ("set HCM 10 to 0.2 A and then read it back", False),
        ("set HCM3 to 0.1 A", False),
    ],
)
def test_a_reading_asked_before_a_change_is_kept(text, reads_first):
    request = parse(text)
    assert request.changes and request.reads_first is reads_first


def test_a_signed_amount_without_a_mark_is_a_change():
    assert parse("QF 23 +1 A").canonical == "increase QF23 by 1 A"
    assert parse("set QF23 to +1 A").quantity.kind == "absolute"


def test_a_noun_verb_followed_by_an_amount_in_a_unit_is_a_verb():
    assert parse("set rf voltage 2.4 MV").canonical == "set rf voltage to 2.4 MV"
    assert not parse("set point of HCM 11?").changes


def test_different_from_a_time_compares():
    request = parse("is the vertical tune different from an hour ago?")
    assert request.intent == "compare" and request.targets == ("the vertical tune",)


def test_a_value_offered_after_a_change_replaces_its_value():
    merged = follow_up(parse("put HCM 16 at 0.3 A"), parse("try 0.25 instead"), WORDS)
    assert merged is not None and merged.canonical == "set HCM16 to 0.25 A"


def test_a_pronoun_after_a_history_keeps_its_time():
    merged = follow_up(parse("tunes over the last hour"), parse("plot that"), WORDS)
    assert merged is not None and merged.time is not None
    assert merged.canonical == "plot tunes over the last hour"


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("HCM 7 readback please, then bump it 0.05 A", "then increase HCM7 by 0.05 A"),
        ("give me VCM 12 then 0.1 A on it", "then set VCM12 to 0.1 A"),
        ("HCM 3 value? set to 0.2 A", "set HCM3 to 0.2 A"),
        ("check HCM 8 first and afterwards set it to 0.2 A", "check HCM8 then set HCM8 to 0.2 A"),
        ("first read QF3, after that set it to 121 A", "read QF3, then set QF3 to 121 A"),
    ],
)
def test_a_change_after_a_reading_names_what_the_reading_named(text, canonical):
    request = parse(text)
    assert request.changes and request.reads_first
    assert canonical in request.canonical


@pytest.mark.parametrize(
    "text",
    [
        "no, make it 0.35",
        "when QF3 is above 121 A, lower it to 120 A",  # the writer checks the condition
        "if HCM19 is still at zero, set it to 0.35 A",
        "the first three BPMs",
    ],
)
def test_a_pronoun_without_a_channel_before_it_or_in_a_condition_stays(text):
    assert parse(text).canonical == text


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        # a yes/no question answered in advance is the write's condition
        ("is QF31 still at 120 A? if so put it to 120.8", "if QF31 is still at 120 A, put it"),
        ("are HCM3 and HCM4 at zero? if yes set them to 0.1", "if HCM3 and HCM4 are at zero, set"),
        # a value alone after a question is the change of what was asked
        ("id2 gap? then 16mm", "id2 gap? then set id2 gap to 16 mm"),
        ("what is QD24 at? then set it to 94.5", "then set QD24 to 94.5"),
    ],
)
def test_a_question_before_a_change(text, canonical):
    request = parse(text)
    assert request.changes
    assert canonical in request.canonical


def test_a_condition_before_something_that_changes_nothing_stays():
    assert parse("if the beam dumps, tell me").canonical == "if the beam dumps, tell me"


def test_a_duration_after_is_x_over_is_a_threshold():
    request = parse("is the lifetime over 8 hours?")
    assert request.intent == "read" and request.time is None
    assert request.targets == ("the lifetime",)
    assert parse("is the current stable over the last 2 hours?").time is not None


@pytest.mark.parametrize(
    "text",
    [
        "QF 9 = QF 11",
        "QF 9 same as QF 11 please",
        "give QF9 the QF11 value",
        "put QF9 where QF11 is",
        "align QF9 with QF11",
        "use the QF 11 setpoint for QF 9 too",
        "copy QF 11's setpoint onto QF 9",
        "set QF9 to QF11's setting",
    ],
)
def test_a_copy_said_any_way_is_said_the_way_the_copy_parser_reads_it(text):
    request = parse(text)
    assert request.intent == "copy" and not request.unused
    assert request.canonical == "set QF9 to the same value as QF11"


@pytest.mark.parametrize(
    "text",
    ["plot QF9 with QF11", "is QF9 the same as QF11?", "where is QF9", "don't set QF9 = QF11"],
)
def test_a_relation_asked_or_plotted_copies_nothing(text):
    assert not parse(text).changes


def test_a_value_from_elsewhere_without_a_verb_is_a_change():
    assert parse("HCM4 back to its 10:00 value").canonical == "restore HCM4 to its value from 10:00"
    assert parse("HCM 2 to golden").changes
    assert not parse("is HCM4 back to its 10:00 value?").changes


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        # a request said as a question is a command
        ("could you set HCM 3 to 0.2 A?", "set HCM3 to 0.2 A"),
        ("Would you be so kind as to set corrector number 15 to 0.25 amps, please?", None),
        ("you can put VCM 6 at 0.2 ampere?", "set VCM6 to 0.2 ampere"),
        ("I'd appreciate it if you could open the ID 11 gap to 30 mm", "set the ID11 gap to 30 mm"),
        ("When you get a chance, lower the RF voltage by 0.1 MV? Thanks a lot.", None),
        # another language's word order and prepositions
        ("decrease of 1 A the QD 10", "decrease the QD10 by 1 A"),
        ("rise the voltage of RF of 0.1 MV", "increase the voltage of RF by 0.1 MV"),
        ("reduce QF 3 with 1 ampere", "decrease QF3 by 1 ampere"),
        ("HCM 3 make it 0.2 A", "set HCM3 to 0.2 A"),
        ("for HCM 3 put 0.2 A", "set HCM3 to 0.2 A"),
        ("I need HCM 3 to be 0.2 A", "set HCM3 to 0.2 A"),
        ("HCM 3 new value 0.2 A", "set HCM3 to 0.2 A"),
        # terse
        ("HCM3 set 0.2", "set HCM3 to 0.2"),
        ("HCM 3 more 0.1 A", "increase HCM3 by 0.1 A"),
        ("QF 3 plus one ampere", "increase QF3 by 1 ampere"),
        ("make HCM 3 less 0.1 A", "decrease HCM3 by 0.1 A"),
    ],
)
def test_a_change_in_any_style_is_a_change(text, canonical):
    request = parse(text)
    assert request.changes and not request.unused
    if canonical is not None:
        assert request.canonical == canonical


@pytest.mark.parametrize(
    ("text", "intent"),
    [
        ("lifetime and current, put them on one plot", "plot"),
        ("HCM3 set point", "read"),
        ("could you check if HCM3 is at zero?", "read"),
        ("can you change anything without my approval?", "knowledge"),
        ("HCM01 1.5", "read"),
        ("Good evening, could you have a look at the current and tell me if all is fine?", "read"),
        (
            "I am wondering whether the vacuum in sector 11 has gone up since this morning",
            "history",
        ),
    ],
)
def test_a_reading_in_any_style_changes_nothing(text, intent):
    request = parse(text)
    assert not request.changes and request.intent == intent


def test_clock_times_with_seconds_and_durations_after_before():
    assert parse("restore HCM05 to its value from 17:02:16").canonical == (
        "restore HCM05 to its value from 17:02:16"
    )
    assert parse("return VCM 2 like it was before one hour").canonical == (
        "restore VCM2 to its value from 1 hour ago"
    )


@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("tell me when the gap of ID 9 was last changed", "the gap of ID9"),
        ("when was HCM 20 last touched", "HCM20"),
        ("when was the last change to VCM 3?", "VCM3"),
    ],
)
def test_when_a_channel_last_changed_looks_back_a_week(text, target):
    request = parse(text)
    assert request.intent == "history" and request.targets == (target,)
    assert request.time is not None and request.time.canonical == "over the last 7 days"


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("vcm 9 dn 0.05", "decrease VCM9 by 0.05"),
        (
            "I would like the gap of ID 9 to be closed to 12 mm, please.",
            "set the gap of ID9 to 12 mm",
        ),
        ("Would it be possible to reduce the RF voltage by 0.1 MV?", None),
        ("May I ask you to put HCM 25 at minus 0.3 A?", "set HCM25 to -0.3 A"),
        ("For QD 2, please set a new current of 96 A.", "set QD2 to 96 A"),
        ("I think HCM 17 should go to 0.45 A, can you do that?", "set HCM17 to 0.45 A"),
        ("lower a little the QF 15, of 0.5 A", "decrease the QF15 by 0.5 A"),
    ],
)
def test_more_changes_said_in_other_styles(text, canonical):
    request = parse(text)
    assert request.changes and not request.unused
    if canonical is not None:
        assert request.canonical == canonical


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("QF 7 take the value of QF 9", "set QF7 to the same value as QF9"),
        ("same value on VCM 30 as on VCM 31", "set VCM30 to the same value as VCM31"),
        ("give VCM 12 the setpoint from VCM 13", "set VCM12 to the same value as VCM13"),
        ("qd18 <- qd20", "set qd18 to the same value as qd20"),
        ("the QD 6 please back as it was at 14:00", "restore the QD6 to its value from 14:00"),
        (
            "go back with QF 11 to the value of one hour ago",
            "restore QF11 to its value from 1 hour ago",
        ),
        (
            "undo whatever happened to HCM 2 in the last hour",
            "restore HCM2 to its value from 1 hour ago",
        ),
    ],
)
def test_copies_and_restores_in_other_styles(text, canonical):
    request = parse(text)
    assert request.changes and request.canonical == canonical


@pytest.mark.parametrize(
    "text",
    [
        "booster BPMs 1 to 3 vertical position",  # a range of devices, no value
        "the first four vertical positions of the BPMs",  # an ordinal, no order of clauses
        "are the klystrons on?",  # a state asked, its word kept
        "what is the 3 hour average lifetime?",
    ],
)
def test_words_of_lists_and_states_are_not_taken_for_values_or_orders(text):
    request = parse(text)
    assert not request.changes
    assert "first" not in text or "first" in " ".join(request.targets)
    assert "on?" not in text or request.targets[-1].endswith("on")


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("hcm 4 => 0.3", "set HCM4 to 0.3"),
        ("set gap id 5 18", "set gap ID5 to 18"),
        ("HCM 5 add 0.1", "increase HCM5 by 0.1"),
        ("give 0.2 A to VCM 9", "set VCM9 to 0.2 A"),
        ("VCM 9 needs 0.2 A", "set VCM9 to 0.2 A"),
        ("Can we set HCM 22 to 0.15 A, please?", "set HCM22 to 0.15 A"),
        ("the RF voltage please change in 2.6 MV", "set the RF voltage to 2.6 MV"),
        ("go down with HCM 6 by 0.1 A", "decrease HCM6 by 0.1 A"),
    ],
)
def test_terse_and_foreign_forms_of_a_value(text, canonical):
    request = parse(text)
    assert request.changes and request.canonical == canonical


def test_give_me_is_still_a_reading():
    assert parse("give me the lifetime").intent == "read"


def test_a_value_in_words_is_handed_on_as_typed():
    """ "Half" may be a state of the channel (a shutter's): the writer reads the word."""
    assert parse("set the beam shutter to Half").canonical == "set the beam shutter to Half"


def test_a_number_naming_a_device_does_not_make_set_a_verb_with_a_value():
    """ "set dipole 4 current to golden values": 4 names the dipole, the value is golden."""
    request = parse("Set dipole 4 current to golden values")
    assert request.quantity is None or "4" not in request.canonical.split("to")[-1]


def test_an_amount_in_a_unit_given_to_a_channel_named_by_its_words_is_a_change():
    """ "RF voltage 2.6 MV": a value given; the writer asks or refuses what cannot be written."""
    assert parse("RF voltage 2.6 MV").canonical == "set RF voltage to 2.6 MV"
    assert not parse("RF voltage 2.6 MV?").changes
    assert not parse("RF voltage and lifetime 2.6 MV").changes  # two channels: no one value


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("set q d eight to ninety six amps", "set QD8 to ninety six amps"),
        ("bring Q D twenty two up by one amp", "increase QD22 by 1 amp"),
        ("hcm zero three", "HCM03"),
        (
            "uh set the vertical corrector zero five to minus zero point three",
            "set the vertical corrector 05 to minus zero point three",
        ),
        ("so um put the I D two gap at twenty two millimeters", "set the ID2 gap to"),
        # a number said after a channel word that goes on as an amount stays an amount
        ("lower the RF voltage two hundred kilovolts", "decrease the RF voltage by 200"),
        ("set the RF voltage to two point four megavolts", "voltage to two point four"),
    ],
)
def test_devices_said_aloud_and_the_hesitations_of_speech(text, canonical):
    request = parse(text)
    assert canonical in request.canonical
    assert not request.unused


def test_spelled_letters_that_make_no_device_prefix_stay_letters():
    assert parse("show me the x y orbit").canonical == "show me the x y orbit"
    assert parse("uh hi there").intent == "conversation"


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("take 0.3 A off HCM33", "decrease HCM33 by 0.3 A"),
        ("add 0.1 A to QF 2", "increase QF2 by 0.1 A"),
        ("double the ID11 gap", "increase the ID11 gap by 100%"),
        ("halve the QF 3 current", "decrease the QF3 current by 50%"),
        ("could you have QD36 sit at 94 A", "set QD36 to 94 A"),
        ("I'd like the ID09 gap closed down to 12 mm", "set the ID09 gap to 12 mm"),
        ("actually just add 0.1 A to what it is now", "increase it by 0.1 A"),
    ],
)
def test_changes_said_as_amounts_taken_added_or_wished(text, canonical):
    request = parse(text)
    assert request.changes
    assert request.canonical == canonical


def test_double_check_is_a_check_not_a_factor():
    request = parse("double check the lifetime")
    assert not request.changes
    assert request.canonical == "check the lifetime"


def test_a_plus_between_words_lists_items():
    assert parse("curr + lt + energy").targets == ("curr", "lt", "energy")
    assert parse("QF5 +0.5A").quantity.value == 0.5


@pytest.mark.parametrize(
    ("text", "canonical", "has_value"),
    [
        ("give HCM27 a small kick", "nudge HCM27 a little", False),  # asked: how much?
        ("give QF 3 a 0.5 A bump", "increase QF3 by 0.5 A", True),
    ],
)
def test_a_kick_given_is_a_nudge(text, canonical, has_value):
    request = parse(text)
    assert request.changes and request.canonical == canonical
    assert (request.quantity is not None and request.quantity.value is not None) == has_value


@pytest.mark.parametrize(
    ("text", "targets"),
    [
        (
            "is the vertical orbit in sector 5 within half a mm?",
            ("the vertical orbit in sector 5",),
        ),
        (
            "tell me if the lifetime has fallen under 6 h, and give me the beam current too",
            ("the lifetime", "give me the beam current"),
        ),
    ],
)
def test_a_threshold_asked_leaves_the_channel_words_alone(text, targets):
    request = parse(text)
    assert not request.changes and request.intent == "read"
    assert request.targets == targets


@pytest.mark.parametrize(
    "text",
    [
        "what would raising the RF voltage do to the lifetime?",
        "remind me what a DCCT actually measures",
    ],
)
def test_general_questions_about_effects_and_devices_are_knowledge(text):
    assert is_knowledge_question(text)


def test_a_question_of_a_past_value_is_no_knowledge_question():
    assert not is_knowledge_question("remind me what the lifetime was at 3")


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("set VCM3 to VCM4 plus 0.1 A", "set VCM3 to the same value as VCM4 plus 0.1 A"),
        ("set QD12 to QD10 minus 0.5 A", "set QD12 to the same value as QD10 minus 0.5 A"),
        ("put the ID07 gap 3 mm above the ID05 gap", "same value as ID05 plus 3 mm"),
        ("Let's give VCM17 whatever VCM16 has, plus 0.1 A.", "same value as VCM16 plus 0.1 A"),
        ("mkae vcm15 same as vcm14 pluss 0.2", "same value as vcm14 plus 0.2"),
    ],
)
def test_a_copy_with_an_offset_keeps_the_offset(text, canonical):
    request = parse(text)
    assert request.intent == "copy"
    assert canonical in request.canonical


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("set Q F five to one hundred twenty one, no, one twenty one point five amps", 121.5),
        ("set vertical corrector three to zero point three, scratch that, zero point two", 0.2),
        ("set HCM3 to 1.5 A, no wait, 1.2 A", 1.2),
    ],
)
def test_the_value_said_last_in_a_correction_is_meant(text, value):
    request = parse(text)
    assert request.changes and request.quantity.value == value
    assert len(amounts_in(request.canonical)) == 1


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("The lifetime dropped, so open ID05 to 30 mm.", "set ID05 to 30 mm"),
        (
            "Because the vertical orbit is off in sector 3, increase VCM08 by 0.1 A",
            "increase VCM08",
        ),
        ("set HCM3 to 0.2 A, since the orbit is off", "set HCM3 to 0.2 A"),
        ("since 8 am, what was the max lifetime", "since 2026-11-26 08:00"),
    ],
)
def test_a_reason_is_no_part_of_the_request(text, canonical):
    assert canonical in parse(text).canonical


@pytest.mark.parametrize(
    ("text", "targets"),
    [
        ("don't set anything, what are HCM04 and VCM04 at?", ("HCM04", "VCM04")),
        ("Read QD26 and QD28, but don't change anything", ("QD26", "QD28")),
        ("um, don't raise it yet, I just want to know the R F voltage", ("the RF voltage",)),
    ],
)
def test_a_change_refused_in_words_is_no_part_of_a_reading(text, targets):
    request = parse(text)
    assert not request.changes and request.targets == targets


@pytest.mark.parametrize("text", ["don't set HCM3 to 0.5", "never change QF1 to 121 A"])
def test_a_negated_change_with_a_value_never_becomes_a_write(text):
    assert not parse(text).changes


@pytest.mark.parametrize(
    ("text", "measured"),
    [
        ("what's HCM07 reading right now?", ("HCM07 readback",)),
        ("what are HCM04 and VCM04 at?", ("HCM04 readback", "VCM04 readback")),
        ("HCM 7 and VCM 7", ("HCM7", "VCM7")),  # no reading asked: every channel named
        ("what is HCM07 set to?", ("the HCM07 setpoint",)),
    ],
)
def test_a_device_asked_what_it_reads_is_its_readback(text, measured):
    assert as_measured(parse(text), WORDS.device_prefixes, WORDS.channel_words) == measured


@pytest.mark.parametrize(
    ("text", "targets"),
    [
        ("beam cur now vs -1h?", ("beam cur",)),
        ("What was the ID09 gap readback at 4 this morning and what is it now?", None),
        ("Is the horizontal tune where it was 3 hours ago?", ("the horizontal tune",)),
        (
            "Would you be able to tell me whether the beam current is lower than it was four "
            "hours ago?",
            ("the beam current",),
        ),
    ],
)
def test_now_against_a_moment_said_tersely_or_at_length_is_a_comparison(text, targets):
    request = parse(text)
    assert request.intent == "compare" and request.time is not None
    if targets is not None:
        assert request.targets == targets


def test_a_minus_duration_is_that_long_ago():
    request = parse("lifetime @ -2h?")
    assert request.intent == "history" and "2 hours ago" in request.canonical
    assert parse("HCM3 -2 A").quantity.value == -2  # an amount stays an amount


@pytest.mark.parametrize(
    "text",
    [
        "HCM19 ↑ a touch",
        "Shouldn't QD06 be a touch higher?",
        "could QF5 go a little lower still?",
    ],
)
def test_a_change_suggested_with_a_vague_amount_is_a_change_to_ask_about(text):
    request = parse(text)
    assert request.changes
    assert request.quantity is not None and request.quantity.value is None


@pytest.mark.parametrize(
    "text",
    [
        "can you tell me what a quadrupole does",
        "I'm curious how changing a quadrupole current shifts the tune.",
        "what does a sudden lifetime drop usually point to?",
    ],
)
def test_general_questions_asked_indirectly_are_knowledge(text):
    assert is_knowledge_question(text)


def test_a_past_value_wondered_about_is_no_knowledge_question():
    assert not is_knowledge_question("I'm wondering what the lifetime was at 3")


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("ID04 gap = 2x now", "increase ID04 gap by 100%"),
        ("QF3 to 1.5 times its value", "increase QF3 by 50%"),
        ("HCM03 := HCM02 + 0.15A", "set HCM03 to the same value as HCM02 plus 0.15 A"),
        ("VCM05..VCM08 -> 0.1A", "set VCM05 through VCM08 to 0.1 A"),
        ("I'd like the ID05 gap at 18 mm, if that's OK", "set the ID05 gap to 18 mm"),
    ],
)
def test_terse_factors_assignments_ranges_and_wishes(text, canonical):
    request = parse(text)
    assert request.changes and request.canonical == canonical


def test_an_article_after_a_spoken_device_number_is_no_unit():
    """ "V C M twenty a little bit lower" is VCM20, a vague change: never 20 A to every VCM."""
    request = parse("move V C M twenty a little bit lower")
    assert request.targets == ("VCM20",)
    assert request.quantity is None or request.quantity.value is None


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("Maybe we should bring QD46 up to 96 A?", "set QD46 to 96 A"),
        ("should we set HCM3 to 0.2 A?", "set HCM3 to 0.2 A"),
        ("Would it hurt to try QF43 at 121 A? Let's do it.", "set QF43 to 121 A"),
    ],
)
def test_a_change_proposed_as_a_question_is_a_change_to_approve(text, canonical):
    request = parse(text)
    assert request.changes and request.canonical == canonical


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("Please the RF voltage on 2.45 MV set.", "set the RF voltage to 2.45 MV"),
        ("HCM 32 on 3.5 A put", "set HCM32 to 3.5 A"),
        ("The gap of ID 9 you put on 16 mm, please.", "set The gap of ID9 to 16 mm"),
        ("Is necessary to open ID 11 until 40 mm.", "set ID11 to 40 mm"),
        ("To the QF 23 give 121 A", "set the QF23 to 121 A"),
        (
            "The corrector of sector 2, to him you give 0.3 A.",
            "set The corrector of sector 2 to 0.3 A",
        ),
        ("QD34 Δ -1.5A", "decrease QD34 by 1.5 A"),
        (
            "set the R F voltage to two point six, no sorry, two point six five megavolts",
            "set the RF voltage to two point six five megavolts",
        ),
        (
            "put Q D forty-four at ninety-six amps, er, ninety-six point five",
            "set QD44 to ninety-six point five",
        ),
    ],
)
def test_another_language_order_deltas_and_corrections_in_speech(text, canonical):
    request = parse(text)
    assert request.changes and request.canonical == canonical


@pytest.mark.parametrize(
    "text",
    [
        "I am wondering how the pressure in sector 3 is doing",
        "I'm wondering how high the vacuum is",
    ],
)
def test_wondering_about_a_channel_is_a_reading_not_a_knowledge_question(text):
    assert not is_knowledge_question(text)


def test_a_unit_that_sounds_like_a_hesitation_stays_a_unit():
    assert parse("scan pump1 at 5 um").canonical == "scan pump1 at 5 um"
    assert parse("um, set HCM3 to 0.2 A").canonical == "set HCM3 to 0.2 A"


@pytest.mark.parametrize("text", ["is the beam still there?", "do we still have beam?"])
def test_whether_beam_is_stored_is_asked_of_the_beam_current(text):
    request = parse(text)
    assert request.intent == "read" and request.targets == ("the beam current",)


def test_the_beam_position_is_no_question_of_stored_beam():
    assert parse("is the beam position ok?").targets != ("the beam current",)


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("fine, then open it to 24 mm", "open it to 24 mm"),
        ("good, now plot the lifetime", "plot the lifetime"),
    ],
)
def test_an_acknowledgement_before_a_request_is_no_part_of_it(text, canonical):
    assert parse(text).canonical == canonical


@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("hows the orbit looking", "the orbit"),
        ("how does the RF voltage look", "the RF voltage"),
        ("what does the beam current look like", "the beam current"),
        ("how's the vacuum holding up in sector 7", "the vacuum in sector 7"),
    ],
)
def test_how_a_channel_looks_is_a_reading_of_it(text, target):
    request = parse(text)
    assert request.intent == "read" and request.targets == (target,)


@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("show VCM 7 to 9", "VCM7 to 9"),
        ("vertical correctors 4 to 6, readbacks only", "vertical correctors 4 to 6"),
    ],
)
def test_a_range_of_device_numbers_in_a_reading_is_no_value(text, target):
    request = parse(text)
    assert request.intent == "read" and request.quantity is None
    assert request.targets[0] == target


def test_the_terse_change_keeps_its_value_where_no_reading_is_asked():
    request = parse("VCM 7 to 9")  # no reading verb, a device named in the singular
    assert request.intent == "write" and request.quantity.value == 9


@pytest.mark.parametrize(
    "text",
    [
        "never raise the RF voltage above 3 MV, got it?",
        "no, leave it as it is",
        "do not ever touch VCM 4",
        "Please don't change the tune today, whatever the orbit does.",
    ],
)
def test_a_refused_change_asking_nothing_else_is_taken_in(text):
    assert parse(text).intent == "conversation"


@pytest.mark.parametrize(
    ("text", "intent", "target"),
    [
        ("don't touch VCM 4, only show me its readback", "read", "VCM4"),
        ("we're not going to touch the ID03 gap tonight, just read it", "read", "the ID03 gap"),
    ],
)
def test_a_refusal_beside_a_reading_leaves_the_reading_and_drops_its_time(text, intent, target):
    request = parse(text)
    assert request.intent == intent and request.time is None
    assert target in request.targets


def test_opening_by_a_bare_amount_keeps_its_words_for_the_writer_to_ask_to_or_by():
    assert parse("open the ID03 gap 3 mm").canonical == "open the ID03 gap 3 mm"


def test_what_a_device_was_set_to_at_a_time_is_its_setpoint_then():
    request = parse("what was VCM 8 set to at 9 this morning")
    assert request.intent == "history" and request.targets == ("the VCM8 setpoint",)
    assert request.time is not None


def test_now_against_a_moment_is_a_comparison_of_the_channel_alone():
    request = parse("lifetime now against 2 hours ago")
    assert request.intent == "compare" and request.targets == ("lifetime",)


@pytest.mark.parametrize(
    ("text", "limits"),
    [
        ("VCM max step?", True),
        ("how high could the RF voltage go?", True),
        ("what's the maximum I may set QF 2 to", True),
        ("if I put HCM 4 at 6 A, is that permitted?", True),
        ("what was the max beam current over the last hour?", False),  # a statistic
        ("is the orbit within limits?", False),  # its alarm limits: a reading
        ("raise HCM3 to the max allowed", False),  # a change, asked about by the writer
    ],
)
def test_a_question_about_the_write_limits_is_no_reading(text, limits):
    assert (parse(text).intent == "knowledge") is limits


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        (
            "check the tune; if it's below 14.3, raise QF 5 by 0.2 A",
            "if the tune is below 14.3, raise QF5 by 0.2 A",
        ),
        (
            "read the RF voltage readback and then if it is under 2 MV, set the setpoint to 2.5 MV",
            "if the RF voltage readback is under 2 MV, set the RF voltage setpoint to 2.5 MV",
        ),
        (
            "look at the vacuum in sector 2, and lower VCM 4 by 0.1 A if it's above 1e-8 Torr",
            "if the vacuum in sector 2 is above 1e-8 Torr, lower VCM4 by 0.1 A",
        ),
    ],
)
def test_a_condition_said_of_what_was_just_read_is_said_of_it(text, canonical):
    request = parse(text)
    assert request.intent == "write" and request.canonical == canonical


def test_a_duration_compared_in_a_condition_is_no_time_range():
    request = parse("if the lifetime stays over 8 h, please lower QF 3 by 0.2 A")
    assert request.intent == "write" and request.time is None
    assert request.canonical == "if the lifetime stays over 8 h, lower QF3 by 0.2 A"


def test_what_happened_told_before_the_request_is_its_reason_not_its_time():
    request = parse("The RF voltage jumped at noon; plot the lifetime for the last 3 hours")
    assert request.intent == "plot" and request.targets == ("the lifetime",)
    assert "3" in request.time.canonical


def test_a_sentence_that_names_what_the_request_points_back_to_is_kept():
    request = parse("VCM 8 drifted overnight. Show me its history since midnight")
    assert "VCM8" in request.canonical


@pytest.mark.parametrize(
    ("text", "target"),
    [("what does VCM 6 read?", "VCM6 readback"), ("what does the tune show", "the tune readback")],
)
def test_what_a_channel_reads_or_shows_is_its_readback(text, target):
    assert parse(text).targets == (target,)


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("I'd like VCM 9 lowered by 0.2 A", "decrease VCM9 by 0.2 A"),
        ("we need the ID03 gap opened by 1.5 mm", "increase the ID03 gap by 1.5 mm"),
    ],
)
def test_a_change_by_an_amount_wished_is_that_change(text, canonical):
    request = parse(text)
    assert request.intent == "write" and request.canonical == canonical
    assert request.quantity.kind == "relative"


@pytest.mark.parametrize(
    ("text", "hinted"),
    [
        ("ID3 could do with a 12 mm gap, could we give them that?", True),
        ("which correctors changed by more than 0.5 A today?", False),  # about the past
        ("is VCM 3 set to 0.5 A?", False),  # a question of state
        ("QF 3 was raised by 1 A", False),  # a statement
        ("give me the ID3 gap and the 2 mm BPMs", False),  # "give me": a reading
    ],
)
def test_a_change_hinted_without_its_form_is_told_apart_from_readings(text, hinted):
    from osprey_desktop.language.device_names import hints_a_change

    request = parse(text)
    assert hints_a_change(text, request.quantity, request.changes, request.targets) is hinted
