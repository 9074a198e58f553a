"""What a message asks apart from what it tells, requests said indirectly, and numbers typed in
other conventions (``language.discourse``, ``language.indirect_requests``, ``numbers``)."""

from __future__ import annotations

import re
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from osprey_desktop.language.discourse import asked_part, only_tells
from osprey_desktop.language.indirect_requests import indirect_said_plainly
from osprey_desktop.language.numbers import numbers_typed_plainly
from osprey_desktop.language.request import Vocabulary, parse_request
from osprey_desktop.language.write_parsing import parse_write_request

WORDS = Vocabulary(
    device_prefixes=frozenset({"hcm", "vcm", "qf", "qd", "bpm", "id", "ig"}),
    channel_words=frozenset(
        {"beam", "current", "lifetime", "tune", "horizontal", "vertical", "rf", "voltage"}
        | {"gap", "vacuum", "pressure", "orbit", "energy", "corrector", "frequency"}
    ),
)
NOW = datetime(2026, 11, 26, 15, 30, tzinfo=ZoneInfo("UTC"))


def parse(text: str):
    return parse_request(text, WORDS, NOW)


@pytest.mark.parametrize(
    ("text", "asked"),
    [
        # a discourse marker leads the request
        ("first thing, give me the beam current", "give me the beam current"),
        ("per the shift plan raise QF 7 by 0.2 A", "raise QF 7 by 0.2 A"),
        ("Night shift here. Is the lifetime above 8 h?", "Is the lifetime above 8 h?"),
        # what is told beside what is asked
        (
            "the elog says we had 450 mA at 03:00, what did the DCCT read then?",
            "what did the DCCT read then?",
        ),
        ("Item 2: VCM 4 to 0.1 A, the physicists are done", "VCM 4 to 0.1 A"),
        (
            "QF12 is supposed to be at 120.5 A and it isn't. Put it to 120.5 please.",
            "Put QF12 to 120.5 please.",
        ),
        # a reason after the request
        (
            "read HCM 9 and then set it to 0.3 A as discussed at the meeting",
            "read HCM 9 and then set it to 0.3 A",
        ),
        # what was told holds the change, the request only says to do it
        (
            "the optics group asked me to try QD 4 at 95.5 A, so please set that",
            "try QD 4 at 95.5 A",
        ),
        # the place of an observation for "there"
        (
            "the orbit in sector 7 is noisy, could the correctors there be trimmed?",
            "could the correctors in sector 7 be trimmed?",
        ),
    ],
)
def test_the_asked_part_leaves_what_is_only_told(text, asked):
    assert asked_part(text) == asked


@pytest.mark.parametrize(
    "text",
    [
        "set HCM3 to 0.2 A",
        "since 8 am, what was the max lifetime",  # a time, not a reason
        "we're not going to touch the ID03 gap tonight, just read it",  # a refusal, read later
        "the lifetime is low, the current is high",  # nothing asked: kept whole
        # "it" told, no device to give it: kept whole, nothing guessed
        "someone said it looked odd. What's it at?",
    ],
)
def test_a_message_is_kept_whole_when_nothing_can_be_left_out_safely(text):
    assert asked_part(text) == text


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("users at the ID05 beamline want to know their gap", "the ID05 gap"),
        ("the ID04 beamline asks for the lifetime, they're aligning", "the lifetime"),
        ("users on beamline 7 (ID07) ask what energy we're running at", "energy"),
    ],
)
def test_a_relayed_question_is_asked_as_the_operators_own(text, read):
    request = parse(text)
    assert request.intent == "read" and not request.changes
    assert read in " and ".join(request.targets)


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        (
            "The beamline at ID07 is asking for a 10 mm gap, can we give them that?",
            "set the ID07 gap to 10 mm",
        ),
        ("users at ID05 want a 12 mm gap", "set the ID05 gap to 12 mm"),
        (
            "the ID04 beamline wants their gap closed to 10.5 mm please",
            "set the ID04 gap to 10.5 mm",
        ),
    ],
)
def test_a_relayed_change_with_its_value_is_that_change(text, canonical):
    request = parse(text)
    assert request.intent == "write" and request.canonical == canonical


def test_a_device_does_not_ask_people_do():
    request = parse("VCM33 needs to come down by 0.25 A")
    assert request.targets == ("VCM33",) and request.canonical == "decrease VCM33 by 0.25 A"


@pytest.mark.parametrize("text", ["ID07 is asking for a smaller gap", "I want a higher RF voltage"])
def test_a_comparative_wished_without_an_amount_is_a_change_asked_about(text):
    request = parse(text)
    assert request.changes and request.quantity.kind == "comparative"


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        (
            "VCM33 needs to come down by 0.25 A to flatten the orbit there",
            "decrease VCM33 by 0.25 A",
        ),
        ("the ID05 gap should go up by 2 mm", "increase the ID05 gap by 2 mm"),
        ("I think HCM24 would be happier at 0.6 A, could you do that?", "set HCM24 to 0.6 A"),
        (
            "It'd be good if the RF voltage were 100 kV higher, the lifetime is suffering",
            "increase the RF voltage by 100 kV",
        ),
        ("QD4 should be 1 A higher", "increase QD4 by 1 A"),
        ("could QF3 be raised by 1 A?", "increase QF3 by 1 A"),
    ],
)
def test_what_should_be_is_said_as_the_change(text, canonical):
    request = parse(text)
    assert request.intent == "write" and request.canonical == canonical


@pytest.mark.parametrize(
    "text",
    [
        "HCM03 is probably set too high, can it come down?",
        "the orbit in sector 10 looks off, could the vertical correctors there be tweaked?",
        "For QD 36 I want a little more current, not much.",
    ],
)
def test_a_change_suggested_without_an_amount_is_a_change_whose_amount_is_asked(text):
    request = parse(text)
    assert request.changes and (request.quantity is None or request.quantity.value is None)
    assert "not much" not in request.targets


@pytest.mark.parametrize(
    "text",
    [
        "did the RF voltage go up since 10 am?",
        "the lifetime needs to come up",
        "has QF3 come down since this morning?",
    ],
)
def test_a_question_or_a_wish_about_the_beam_moving_changes_nothing(text):
    assert not parse(text).changes


def test_a_purpose_after_the_amount_names_no_channel():
    assert indirect_said_plainly("lower VCM33 by 0.25 A to flatten the orbit") == (
        "lower VCM33 by 0.25 A"
    )
    # a value after "to" is the value, never a purpose
    assert "twelve" in indirect_said_plainly("set VCM 35 by 0.2 A to twelve amps")


@pytest.mark.parametrize(
    ("text", "plain"),
    [
        ("HCM12 to 0,5 A", "HCM12 to 0.5 A"),
        ("ID05 gap to 12,75 mm", "ID05 gap to 12.75 mm"),
        ("set QF3 to 1,500 A", "set QF3 to 1500 A"),
        ("the last 2½ hours", "the last 2.5 hours"),
        ("½ A more on HCM 2", "0.5 A more on HCM 2"),
        ("HCM 1,2 readbacks", "HCM 1,2 readbacks"),  # a list, no unit after it
    ],
)
def test_numbers_typed_in_other_conventions_have_a_decimal_point(text, plain):
    assert numbers_typed_plainly(text, lambda unit: unit in ("A", "mm", "hours")) == plain


def test_a_decimal_comma_is_the_value_written():
    request = parse("HCM12 to 0,5 A")
    assert request.quantity.value == 0.5 and request.canonical == "set HCM12 to 0.5 A"


def test_values_given_respectively_go_each_to_its_device():
    request = parse("set HCM1, HCM2, HCM3 to +0.1, +0.2, +0.3 A respectively")
    specs = parse_write_request(request.canonical)
    assert [(s.target, s.amount, s.unit) for s in specs] == [
        ("HCM1", 0.1, "A"),
        ("HCM2", 0.2, "A"),
        ("HCM3", 0.3, "A"),
    ]


def test_a_direction_per_device_keeps_each_sign():
    request = parse("HCM13 up 0.2 A and HCM14 down 0.2 A")
    specs = parse_write_request(request.canonical)
    assert [(s.target, s.mode, s.amount) for s in specs] == [
        ("HCM13", "delta", 0.2),
        ("HCM14", "delta", -0.2),
    ]


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        (
            "make Q D thirty-eight one amp higher than Q D forty",
            "set QD38 to the same value as QD40 plus 1 amp",
        ),
        (
            "It would make sense for the ID05 gap to sit 2 mm wider than the ID04 gap",
            "set ID05 to the same value as ID04 plus 2 mm",
        ),
        ("set QD4 0.5 A lower than QD2", "set QD4 to the same value as QD2 minus 0.5 A"),
        ("st vcm 22 = vcm 23 + 0.05", "set VCM22 to the same value as VCM23 plus 0.05"),
    ],
)
def test_an_amount_of_difference_from_another_device_is_a_copy_with_an_offset(text, canonical):
    request = parse(text)
    assert request.intent == "copy" and request.canonical == canonical
    assert parse("is QD38 higher than QD40?").intent != "copy"


@pytest.mark.parametrize(
    ("text", "intent"),
    [
        ("Morning. I've got the desk until 15:00.", "conversation"),
        (
            "Before I start, can you explain the difference between a setpoint and a readback?",
            "knowledge",
        ),
    ],
)
def test_words_only_told_are_taken_in_and_a_marked_question_is_answered(text, intent):
    assert parse(text).intent == intent


def test_a_statement_with_a_question_inside_is_asked():
    assert not only_tells("I am wondering whether the vacuum in sector 11 has gone up")
    assert only_tells("Evening. I'm on until 23:00.")


def test_a_check_against_a_value_told_is_a_read():
    request = parse("QD 46 readback - should be ninety-five amps, check it")
    assert request.intent == "read" and request.targets == ("QD46 readback",)


@pytest.mark.parametrize(
    ("text", "asked"),
    [
        ("handover: lifetime was 9 h at 6 am; what is it now?", "what is lifetime now?"),
        (
            "Per the handover the RF frequency stays at 499.654 all night, so don't touch it. "
            "What's it reading?",
            "don't touch the RF frequency. What's the RF frequency reading?",
        ),
        (
            "beamlines at ID05 and ID07 both want 20 mm, set both gaps",
            "set the ID05 and ID07 gaps to 20 mm",
        ),
        ("the handover says 0.45, go with that", "0.45"),
        ("coming in for the night shift: whats the lifetime doing?", "whats the lifetime doing?"),
        (
            "what was it at 09:45 exactly? that's when their scan started",
            "what was it at 09:45 exactly?",
        ),
        (
            "users on ID2 called, they'd like the gap 1 mm narrower",
            "I'd like the ID2 gap 1 mm narrower",
        ),
    ],
)
def test_what_was_told_gives_the_request_its_subject_value_or_devices(text, asked):
    assert asked_part(text) == asked


def test_the_told_after_a_pronoun_is_never_its_antecedent():
    # "their scan" is told after the question: "it" stays the previous turn's
    assert "it" in asked_part("what was it at 09:45? that's when their scan started").split()


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("ok so first up can u pull the lifetime and the current for me", ("lifetime", "current")),
        ("plot the beam current since 09:00 for the ID02 people", ("beam current",)),
        ("lifetime trend last 6h, and overlay the current", ("lifetime", "current")),
        ("do NOT touch QF07, I only want its readback", ("QF07 readback",)),
    ],
)
def test_chat_spellings_beneficiaries_and_later_verbs_leave_the_items(text, read):
    request = parse(text)
    assert not request.changes
    said = " | ".join(request.targets)
    assert all(item in said for item in read) and "ID02" not in said and "people" not in said


@pytest.mark.parametrize(
    ("text", "intent"),
    [
        (
            "ID07 asks what the undulator gap actually changes for them, can you explain",
            "knowledge",
        ),
        ("the users keep asking what the tune is - give me a short explanation", "knowledge"),
        (
            "Just so you're aware, the RF expert will raise the frequency by 1 kHz at 16:00, so "
            "please don't send any RF writes yourself",
            "conversation",
        ),
    ],
)
def test_an_explanation_asked_or_writes_refused_plan_no_reading(text, intent):
    assert parse(text).intent == intent


def test_a_role_refused_is_no_target():
    request = parse("the ID05 gap - the readback, not the setpoint")
    assert "setpoint" not in " ".join(request.targets).lower()


def test_a_change_needed_or_a_vague_amount_after_the_object_is_asked():
    for text in ("it needs closing a little", "close the ID09 gap a bit"):
        request = parse(text)
        assert request.changes and request.quantity.kind == "comparative", text
        assert request.state is None, text
    assert parse("close the ID09 gap").state is not None


@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("read VCM33, then set it to -0.2 A", "VCM33"),
        ("check QF45 SP, and lower it by 0.5 A", "QF45"),
    ],
)
def test_a_reading_before_a_change_leaves_the_change_one_target(text, target):
    assert parse(text).targets == (target,)


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("ID 11 gap: 18 → 17 mm", "set ID11 gap to 17 mm"),
        ("change QF 3 from 120 to 121 A", "set QF3 to 121 A"),
        ("set QF 15 to 121 amps even", "set QF15 to 121 amps"),
        ("HCM01 -> 1.2 A", "set HCM01 to 1.2 A"),
    ],
)
def test_a_value_from_one_to_another_is_the_value_it_goes_to(text, canonical):
    assert parse(text).canonical == canonical
    assert parse("plot the current from 10 to 12").intent == "plot"


def test_a_relayed_request_binds_the_askers_device_only_to_what_a_beamline_has():
    assert asked_part("ID07 is asking for a smaller gap") == "I'd like a smaller gap on ID07"
    assert (
        asked_part(
            "the ID04 beamline asks for the current lifetime, they're planning their exposures"
        )
        == "I'd like the current lifetime"
    )
    assert (
        asked_part(
            "ID09 beamline asked how stable the current has been: min, max and mean of the beam "
            "current over the last 4 hours"
        )
        == "min, max and mean of the beam current over the last 4 hours"
    )


def test_the_other_target_named_after_a_not_keeps_the_rest_of_the_request():
    from osprey_desktop.language.follow_ups import follow_up

    previous = parse("The ID 7 gap open to 25 mm please")
    merged = follow_up(previous, parse("Not the ID 7, the ID 9 I wanted."), WORDS)
    assert merged is not None and "ID9" in merged.canonical and "ID7" not in merged.canonical
    assert merged.changes


@pytest.mark.parametrize(
    ("text", "intent"),
    [
        ("show me HCM05's setpoint and readback, but leave them as they are", "read"),
        ("no, leave it as it is", "conversation"),
    ],
)
def test_leaving_them_as_they_are_beside_a_reading_is_no_word_of_it(text, intent):
    request = parse(text)
    assert request.intent == intent and not request.changes
    assert "leave" not in request.canonical or intent == "conversation"


def test_the_same_of_another_device_is_the_same_as():
    request = parse("The VCM 17 must have the same of VCM 16 plus 0.1 A.")
    assert request.intent == "copy"
    assert request.canonical == "set VCM17 to the same value as VCM16 plus 0.1 A"


@pytest.mark.parametrize(
    ("text", "asked"),
    [
        ("I know it's over the limit, but try QF 9 at 135 A", "try QF 9 at 135 A"),
        (
            "take QD04 down 3 A, I know the step limit, let it refuse if it must",
            "take QD04 down 3 A",
        ),
        ("set HCM02 to 3 A; if the step's too big, tell me", "set HCM02 to 3 A"),
        ("open ID07 to 40 mm asap, beamline screaming", "open ID07 to 40 mm asap"),
        ("if the beam dumps, tell me", "if the beam dumps, tell me"),  # a condition, kept
    ],
)
def test_what_the_operator_expects_of_the_write_policy_is_told(text, asked):
    assert asked_part(text) == asked


@pytest.mark.parametrize(
    "text",
    [
        "please do NOT write anything: QD 12 setpoint against its readback",
        "don't change anything, but show me the HCM 10 to 12 setpoints",
        "don't open it yet - plot the ID07 gap readback over the last hour",
        "beam dumped. DON'T touch anything - just current, lifetime, rf volts readback",
    ],
)
def test_a_refusal_before_a_reading_leaves_the_reading(text):
    request = parse(text)
    assert not request.changes and request.intent in ("read", "history", "plot", "compare")
    assert request.targets


@pytest.mark.parametrize(
    "text",
    [
        "what if I set QF3 to 125 A?",
        "if I put the ID 11 gap at 5 mm, would that go through?",
        "suppose we raised HCM 4 to 3 A, would it be allowed?",
    ],
)
def test_a_change_supposed_is_asked_of_the_write_policy(text):
    assert parse(text).intent == "knowledge"


@pytest.mark.parametrize(
    ("text", "specs"),
    [
        ("corrector H12 to -0.3", None),
        ("vertical correctors 31 to 33 to 0.05 A", None),
        (
            "QD 22 and QD 24 down 1 A, QF 21 and QF 23 up 1 A",
            [("QD22 and QD24", -1.0), ("QF21 and QF23", 1.0)],
        ),
    ],
)
def test_ranges_letters_and_groups_of_devices_in_a_change(text, specs):
    request = parse(text)
    assert "to 33" not in request.canonical  # a range of devices is never a value
    if specs is not None:
        said = [(s.target, s.amount) for s in parse_write_request(request.canonical)]
        assert said == specs


def test_both_or_all_of_them_are_every_device_named():
    request = parse("read HCM 3 and VCM 3, then put both to 0.1 A")
    assert request.changes and "HCM3 and VCM3" in request.canonical
    assert "horizontal corrector 12" in parse("corrector H12 to -0.3").canonical


def _merged(first: str, second: str):
    from osprey_desktop.language.follow_ups import follow_up

    return follow_up(parse(first), parse(second), WORDS)


def test_the_other_sign_or_the_other_plane_is_the_previous_change_so_changed():
    flipped = _merged("set HCM30 to 0.25 A", "make it minus")
    assert flipped is not None and flipped.canonical == "set HCM30 to -0.25 A"
    vertical = _merged("set HCM22 to -0.4 A", "same but vertical")
    assert vertical is not None and vertical.targets == ("VCM22",)
    orbit = _merged("show the horizontal orbit in sector 3", "same for vertical")
    assert orbit is not None and "vertical orbit in sector 3" in orbit.canonical
    assert _merged("set HCM30 to 0.25 A", "then") is None


@pytest.mark.parametrize(
    ("text", "changes", "targets"),
    [
        ("no - lower it by half an amp instead", True, ()),
        ("forget the quad - read the tunes instead", False, ("the tunes",)),
        ("I want QF 3 a little lower, not sure how much", True, ("QF3",)),
        ("vert orbit s9 way off - correct it!!", True, ()),
        ("if the orbit looks bad, fix it", True, ()),
    ],
)
def test_retractions_doubts_and_verbs_that_fix_things(text, changes, targets):
    request = parse(text)
    assert request.changes is changes and request.targets == targets
    assert (
        not changes
        or request.quantity is None
        or request.quantity.value is None
        or (request.quantity.value == -0.5)
    )
    assert parse("never mind, leave it").intent == "conversation"
    assert not parse("is the HCM3 value correct?").changes


def test_devices_numbered_beside_a_value_without_a_verb_are_set():
    request = parse("vertical correctors 31 to 33 to 0.05 A")
    assert request.intent == "write"
    assert request.canonical == "set vertical correctors 31 through 33 to 0.05 A"


@pytest.mark.parametrize(
    ("text", "asked"),
    [
        ("lifetime crashing... what was it an hour ago", "what was lifetime an hour ago"),
    ],
)
def test_a_fragment_told_gives_the_pronoun_its_subject(text, asked):
    assert asked_part(text) == asked


@pytest.mark.parametrize(
    "text",
    ["IG13 over 1e-8 or not?", "current lower than 10 min ago or am I seeing things"],
)
def test_a_questions_tail_names_no_channel(text):
    request = parse(text)
    said = " ".join(request.targets).lower()
    assert "not" not in said.split() and "seeing" not in said and not request.changes


def test_a_clause_that_leads_the_verb_names_no_item_and_hours_stay_hours():
    assert parse("before you change anything, show me QF 3").targets == ("QF3",)
    request = parse("beam current from 8 to 10 this morning")
    assert request.time is not None and request.time.kind == "range"


def test_a_quantifier_before_a_noun_and_a_time_pointed_back_to_stay():
    assert parse("set all correctors in sector 3 to 0").canonical.startswith("set all correctors")
    told = "the beam dumped at 03:10, show me the RF voltage around then"
    assert asked_part(told) == told  # "then" is the time told


def test_a_group_up_or_down_keeps_a_verb_of_its_own():
    request = parse("can you step QF 7 up 0.5 A")
    assert request.changes and "raise" not in request.canonical.split()


@pytest.mark.parametrize(
    "text",
    [
        "could you, uh, set horizontal corrector twelve to... hmm, I need to look up the number",
        "set HCM 12 to... wait, let me check the number",
        "please set VCM 3 to - I have to find the value first",
    ],
)
def test_a_change_whose_value_is_still_being_looked_up_asks_for_it(text):
    request = parse(text)
    assert request.intent == "write" and request.quantity is None
    assert len(request.targets) == 1 and re.search(r"[A-Za-z]\s?\d+$", request.targets[0])


def test_a_value_given_by_an_arrow_to_a_family_and_its_role_is_a_change():
    words = Vocabulary(channel_words=frozenset({"quadrupole", "current", "lifetime"}))
    request = parse_request("quad SP → 121A pls", words, NOW)
    assert request.intent == "write" and request.quantity.value == 121
    assert parse("lifetime at 9.30").intent == "history"


@pytest.mark.parametrize(
    "text", ["HCM21 to -0.3 A, orbit bump test", "set VCM 4 to 0.1 A; for the chromaticity study"]
)
def test_what_a_change_is_for_named_after_it_is_no_target(text):
    request = parse(text)
    assert request.intent == "write" and len(request.targets) == 1 and not request.unused


def test_an_action_after_a_change_is_kept():
    assert "scan" in parse("set QF3 to 121 A, then scan").canonical


def test_a_whole_number_read_digit_by_digit_before_its_decimals_is_one_number():
    from osprey_desktop.language.numbers import spelled_number

    assert spelled_number("four nine nine point six five four five") == 499.6545
    assert spelled_number("one two three") is None  # digits alone may be a device's number


@pytest.mark.parametrize(
    ("text", "asked"),
    [
        (
            "could I see the x tune? I'm not sure if that's what people call it here",
            "could I see the x tune?",
        ),
        (
            "sorry, what was the energy at midnight? just checking my logbook",
            "what was the energy at midnight?",
        ),
        ("is 0.8 A ok for HCM5? (asking, not doing)", "is 0.8 A ok for HCM5?"),
        (
            "I'm not sure how to ask this, but is the lifetime trending down?",
            "is the lifetime trending down?",
        ),
    ],
)
def test_an_apology_or_a_hedge_beside_a_request_is_no_part_of_it(text, asked):
    assert asked_part(text) == asked


def test_a_doubt_about_the_machine_is_still_asked():
    assert asked_part("I'm not sure the vacuum is ok") == "I'm not sure the vacuum is ok"


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("set VCM 3 to 0.1 A, sorry if wrong", "set VCM3 to 0.1 A"),
        ("I'm not sure, but could you lower QF 5 by 1 A?", "decrease QF5 by 1 A"),
    ],
)
def test_an_apology_or_a_doubt_around_a_change_leaves_the_change(text, canonical):
    assert parse(text).canonical == canonical


def test_a_state_told_of_a_device_before_its_change_keeps_the_change_on_it():
    request = parse("VCM 3 is trending up, lower it by 0.05 A")
    assert request.targets == ("VCM3",) and request.quantity.value == pytest.approx(-0.05)


@pytest.mark.parametrize(
    "text",
    [
        "I'm not sure how to say this, but QF 3 should be 121 A",
        "I'm not sure if that's allowed, but could you set HCM 5 to 4 A?",
    ],
)
def test_a_change_asked_after_a_doubt_is_still_a_change(text):
    request = parse(text)
    assert request.intent == "write" and request.quantity is not None
