"""A change the operator proposes, then asks to be done ("I think X needs to go to 0.2 A? please
do that") or asks whether it is fine ("I think I should raise X by 1 A, is that ok?"): the
first is the change, the second a question about it (``language.rewordings``,
``language.questions``)."""

from __future__ import annotations

import pytest

from osprey_desktop.language.questions import asks_for_limits
from osprey_desktop.language.request import Vocabulary, parse_request
from osprey_desktop.language.rewordings import proposal_asked_for
from osprey_desktop.planners.limits_answer import limits_answer
from tests.support.planning import names, plan

WORDS = Vocabulary(
    device_prefixes=frozenset({"hcm", "vcm", "qf", "qd", "id"}),
    channel_words=frozenset({"gap", "setpoint", "corrector", "current"}),
)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("I believe QD 12 has to go to 95 A. Can you do it?", "QD 12 has to go to 95 A"),
        ("maybe we should lower HCM 30 by 0.05 A, do it", "lower HCM 30 by 0.05 A"),
        ("I guess the ID09 gap needs 14 mm? please make it so", "the ID09 gap needs 14 mm"),
        ("probably QF 1 up by 0.5 %; would you apply it please", "QF 1 up by 0.5 %"),
    ],
)
def test_a_proposal_asked_to_be_done_is_the_change(text, said):
    assert proposal_asked_for(text) == said


@pytest.mark.parametrize(
    "text",
    [
        "I was going to set HCM3 to 1 A, should I do it?",  # asks whether, not to do it
        "set QD 4 to 96 A",  # nothing asked after it
        "can you do it?",  # nothing proposed before it
        "the physicist asked for HCM 3 at 0.2 A, so please set that",  # it says its own change
        "I'm lowering QD 4 a bit, go ahead",  # "go ahead" keeps the request's own force
    ],
)
def test_anything_else_stays_as_typed(text):
    assert proposal_asked_for(text) == text


@pytest.mark.parametrize(
    ("text", "intent", "target", "kind"),
    [
        (
            "I think QD 14 should come down by 2 percent? could you do that",
            "write",
            "QD14",
            "percent",
        ),
        ("VCM 30 needs a tiny nudge downward, no one told me the value", "write", "VCM30", None),
        ("QF 21 could use a 0.3 A bump up", "write", "QF21", "relative"),
    ],
)
def test_the_proposed_change_is_parsed_as_a_change(text, intent, target, kind):
    request = parse_request(text, WORDS)
    assert request.intent == intent
    assert request.targets == (target,)
    if kind is None:
        assert request.quantity is not None and request.quantity.value is None  # asked
    else:
        assert request.quantity is not None and request.quantity.kind == kind


@pytest.mark.parametrize(
    "text",
    [
        "I think I should set VCM 30 to 0.2, is that ok?",
        "I was going to put QD 14 at 95 A, should I do it?",
        "we might open the ID09 gap to 20 mm, any objections?",
        "I could lower HCM 12 by 0.1 A, does that make sense?",
    ],
)
def test_a_proposal_asked_about_is_a_question_of_the_limits(text):
    assert asks_for_limits(text)
    assert parse_request(text, WORDS).intent == "knowledge"


def test_the_limits_answer_names_the_device_of_the_proposal(isolated_config):
    answer = limits_answer("I think I should set VCM 30 to 0.2, is that ok?")
    assert "SR10C:VCM30:Current:SP" in answer
    assert "Nothing was read or changed" in answer


async def test_a_proposal_asked_to_be_done_plans_a_write_and_one_asked_about_none():
    done = await plan("I believe QD 12 has to go to 95 A. Can you do it?")
    assert "channel_write" in names(done)
    asked = await plan("I was going to put QD 14 at 95 A, should I do it?")
    assert "channel_write" not in names(asked)


@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("close the ID09 gap to 12 mm at the users' request", "the ID09 gap"),
        ("put QD 22 at 95 A per the physicist's request", "QD22"),
        ("raise VCM 4 by 0.05 A, as requested by the beamline", "VCM4"),
        ("lower HCM 31 by 0.1 A, as the shift leader asked", "HCM31"),
    ],
)
def test_who_asked_for_a_change_is_no_part_of_it(text, target):
    request = parse_request(text, WORDS)
    assert request.intent == "write"
    assert request.targets == (target,)
    assert not request.unused


@pytest.mark.parametrize(
    ("text", "target", "value"),
    [
        ("show QD 10 and QD 12, then QD 11 to 95.5 A", "QD11", 95.5),
        ("read the ID04 gap; after that ID04 -> 21 mm", "ID04", 21.0),
        ("HCM 30 readback, and then HCM 30 = -0.25", "HCM30", -0.25),
    ],
)
def test_a_change_with_no_verb_after_a_reading_is_a_change(text, target, value):
    request = parse_request(text, WORDS)
    assert request.intent == "write"
    assert request.reads_first
    assert request.targets[-1] == target
    assert request.quantity is not None and request.quantity.value == pytest.approx(value)


@pytest.mark.parametrize(
    ("text", "target", "value"),
    [
        ("Could the focusing quadrupole QF 9 be eased up by half an ampere?", "QF9", 0.5),
        ("would VCM 21 be dialled down by 0.02 A", "VCM21", -0.02),
    ],
)
def test_a_device_asked_to_be_moved_in_the_passive_is_a_change(text, target, value):
    request = parse_request(text, WORDS)
    assert request.intent == "write"
    assert target in request.targets[0].replace(" ", "")
    assert request.quantity is not None and request.quantity.value == pytest.approx(value)


def test_a_wish_about_the_beam_asked_in_the_passive_changes_nothing():
    assert not parse_request("could the lifetime be brought up?", WORDS).changes


@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("QD 22: lower by 0.5 A (ticket 2231)", "QD22"),
        ("set VCM 2 to 0.1 A (as agreed with the physicists)", "VCM2"),
        ("ID09 gap to 14 mm (see elog entry 88)", "ID09 gap"),
    ],
)
def test_where_a_request_came_from_in_parentheses_is_no_part_of_it(text, target):
    request = parse_request(text, WORDS)
    assert request.intent == "write"
    assert request.targets == (target,) and not request.unused


@pytest.mark.parametrize(
    "text",
    [
        "what's the legal range on the QD setpoints",
        "no change please, just tell me if 2.9 MV would be allowed on the RF",
        "whether 130 A is ok for QF 11, tell me",
    ],
)
def test_a_range_or_a_value_asked_of_the_limits_is_a_question_of_them(text):
    assert asks_for_limits(text)


def test_a_value_asked_of_the_limits_finds_the_setpoint_of_its_quantity(isolated_config):
    answer = limits_answer("no change please, just tell me if 3.3 MV would be allowed on the RF")
    assert "SR:RF:Voltage:SP" in answer and "3.3 MV is above the maximum" in answer


@pytest.mark.parametrize(
    "text", ["ID09 gap RB first, then 0.5 mm wider", "QD 14 readback first, then 2 % lower"]
)
def test_a_reading_named_first_then_a_change_with_no_verb_reads_first(text):
    request = parse_request(text, WORDS)
    assert request.intent == "write" and request.reads_first


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("would a 3 A step on QD 10 pass the write policy?", "larger than that"),
        ("is lowering QD 10 by 1.5 A within policy?", "within the largest step"),
        ("is a change of 500 Hz on the RF frequency allowed?", "within the largest step"),
    ],
)
def test_a_step_asked_of_the_limits_is_checked_against_the_largest_step(
    isolated_config, text, verdict
):
    assert asks_for_limits(text)
    answer = limits_answer(text)
    assert verdict in answer
    assert "below the minimum" not in answer


@pytest.mark.parametrize(
    "text",
    [
        "is it ok to open the ID 5 gap to 40 mm?",
        "would it be safe for us to lower QD 18 to 90 A",
        "can HCM 14 go to 3 A without a trip?",
        "I'd like to know the largest step for the quads",
        "check the write limits on VCM 3 please",
    ],
)
def test_whether_a_change_would_be_safe_is_a_question_of_the_limits(text):
    assert asks_for_limits(text)


@pytest.mark.parametrize(
    "text",
    [
        "could you set HCM 14 to 3 A?",
        "can we get QD 18 to 90 A",
        "should we set HCM3 to 0.2 A?",
        "would it be possible to lower HCM 8 by 0.05 amps?",
    ],
)
def test_a_change_asked_politely_is_no_question_of_the_limits(text):
    assert not asks_for_limits(text)


@pytest.mark.parametrize(
    "text",
    ["is 4.5 A on VCM 30 within limits?", "I might raise QF 13 by 1 A. good idea?"],
)
def test_a_value_on_a_device_or_a_plan_asked_about_is_a_question_of_the_limits(text):
    assert asks_for_limits(text)


def test_an_amount_in_a_unit_the_setpoint_is_not_counted_in_is_not_checked(isolated_config):
    answer = limits_answer("would a 2 mm step on QF 3 be allowed?")
    assert "2 mm is no amount in A" in answer
    assert "larger than that" not in answer and "within the largest step" not in answer


@pytest.mark.parametrize(
    "text",
    [
        "Vacuum on IG13 is rising. Should we open ID07 to 40 mm, or wait?",
        "The lifetime is 4 h. Should we open ID05 to 40 mm to check?",
    ],
)
def test_advice_asked_after_what_was_seen_or_beside_waiting_is_no_change(text):
    from osprey_desktop.language.questions import asks_for_limits

    assert asks_for_limits(text)
    assert not asks_for_limits("should we set HCM3 to 0.2 A?")


@pytest.mark.parametrize(
    "text",
    [
        "Orbit drifting in sector 11. Would you try HCM33 at 0.4 A, or wait?",
        "HCM09 at 0.6 A or 0.55 A, what separates the two?",
    ],
)
def test_two_courses_or_two_values_weighed_are_answered_never_proposed(text):
    assert asks_for_limits(text)
    assert not asks_for_limits("would you set HCM 3 to 0.2 A please?")
