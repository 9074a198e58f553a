"""A change placed at a later moment, rehearsed, only noted or refused in its own words is
never proposed now (``language.later_changes``, ``language.questions``), through whole turns
on the ring."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(
    "text",
    [
        "set QF 1 to 121 at 18:00",
        "raise HCM 4 by 0.1 A after the injection",
        "set QF 1 to 121 tomorrow",
        "open the ID 4 gap to 20 mm in an hour",
        "at 23:00 set QF 1 to 121 A",
        "@ 23:00: RF V → 2.4 (not now)",
        "set HCM 3 to 0.1 A later",
    ],
)
async def test_a_change_for_later_is_asked_back_and_never_proposed(session, text):
    result = await session.submit(text, "t1")

    assert result.pending_approval is None
    assert "never later" in result.response and "Write limits" in result.response


@pytest.mark.parametrize(
    "text",
    [
        "dry run: set HCM 9 to 1 A",
        "simulate setting HCM 9 to 1 A",
        "tomorrow we'll put QF 1 at 121",
        "note for later: VCM 20 -> 0.4 A after the injection",
        "the run plan says QD 10 to 97 A at 18:00 - just noting it, no action",
    ],
)
async def test_a_rehearsed_planned_or_noted_change_is_checked_against_the_limits(session, text):
    result = await session.submit(text, "t1")

    assert result.pending_approval is None
    assert result.response.startswith("**Write limits**")
    assert "Nothing was read or changed" in result.response


async def test_the_same_change_asked_now_is_proposed(session):
    result = await session.submit("set QF 1 to 121 at 18:00", "t1")
    assert result.pending_approval is None
    result = await session.submit("do it now", "t1")
    (op,) = result.pending_approval["resume_payload"]["operations"]
    assert (op["channel"], op["new_value"]) == ("SR01C:QF01:Current:SP", 121.0)
    await session.resume("t1", False)


@pytest.mark.parametrize(
    "text", ["set HCM 4 to what it was at 9", "put QF 1 back to its 18:00 value"]
)
async def test_a_value_of_a_past_moment_is_no_later_change(session, text):
    result = await session.submit(text, "t1")
    assert "never later" not in (result.response or "")


@pytest.mark.parametrize(
    "text",
    ["raise QF 9 a bit, read-only", "open the ID 4 gap -- no changes, just asking"],
)
async def test_a_change_refused_in_its_own_words_is_never_proposed(session, text):
    result = await session.submit(text, "t1")

    assert result.pending_approval is None
    assert "You said not to change anything" in result.response


async def test_a_value_asked_about_with_no_write_gets_the_limits(session):
    result = await session.submit(
        "SR03C:QF09:SP -> 121.5 ? (no write, just asking about the step)", "t1"
    )
    assert result.pending_approval is None
    assert result.response.startswith("**Write limits**") and "SR03C:QF09" in result.response


async def test_a_sign_said_in_words_in_a_correction_is_the_value_sign(session):
    first = await session.submit("Could you set HCM 32 to 0.8 A, please?", "t1")
    await session.resume("t1", False)
    assert first.pending_approval is not None
    result = await session.submit("Sorry, I meant minus 0.8 A.", "t1")
    (op,) = result.pending_approval["resume_payload"]["operations"]
    assert (op["channel"], op["new_value"]) == ("SR11C:HCM32:Current:SP", -0.8)
    await session.resume("t1", False)


@pytest.mark.parametrize(
    "text",
    ["please change QF 41 by 0.5 A", "move the ID 9 gap by 3 mm", "step VCM 1 by 100 mA"],
)
async def test_an_amount_with_no_way_is_asked_which_way_never_guessed_up(session, text):
    result = await session.submit(text, "t1")

    assert result.pending_approval is None
    assert "says no way" in result.response


@pytest.mark.parametrize(("way", "value"), [("up", 120.5), ("down please", 119.5)])
async def test_the_way_given_after_the_question_completes_the_change(session, way, value):
    await session.submit("change QF 41 by 0.5 A", "t1")
    result = await session.submit(way, "t1")
    (op,) = result.pending_approval["resume_payload"]["operations"]
    assert (op["channel"], op["new_value"]) == ("SR11C:QF41:Current:SP", value)
    await session.resume("t1", False)


async def test_a_signed_amount_or_a_verb_with_a_way_is_no_question(session):
    result = await session.submit("change HCM 4 by -0.1 A", "t1")
    (op,) = result.pending_approval["resume_payload"]["operations"]
    assert op["new_value"] == -0.1
    await session.resume("t1", False)


async def test_a_value_alone_as_a_first_request_asks_which_channel(session):
    result = await session.submit("→ 1.2 A", "t1")

    assert result.pending_approval is None
    assert "Which channel should get 1.2 A?" in result.response


async def test_limits_shortened_are_answered_from_the_write_policy(session):
    result = await session.submit("HCM18 lim?", "t1")

    assert result.pending_approval is None and "Write limits" in result.response


@pytest.mark.parametrize(
    "text",
    [
        "let's not touch the correctors in sector 4 today",
        "Notes for the next shift: don't touch the RF, leave the ID09 gap where it is, and call "
        "me if the lifetime drops under 6 h.",
        "For the next hour nobody writes to the quads - please don't change any quadrupole "
        "until I say so.",
    ],
)
async def test_a_standing_order_not_to_change_is_taken_in_and_reads_nothing(session, text):
    result = await session.submit(text, "t1")

    assert result.pending_approval is None and "nothing was changed" in result.response


@pytest.mark.parametrize(
    ("text", "channel"),
    [
        (
            "what's the ID09 gap right now? I may want to close it to 12 mm later, not yet",
            "SR09C:ID09:Gap:RB",
        ),
        (
            "what's QF 5 at? I'm thinking of raising it by 1 A after the injection, not now",
            "SR02C:QF05:Current:RB",
        ),
        (
            "is the undulator in sector 7 really at 15 mm like the beamline says? don't move it",
            "SR07C:ID07:Gap:RB",
        ),
    ],
)
async def test_a_reading_asked_before_a_change_only_mentioned_is_read(session, text, channel):
    result = await session.submit(text, "t1")

    assert result.pending_approval is None and channel in result.response


@pytest.mark.parametrize(
    "text",
    [
        "rehearsal only, do not send anything: copy QF 5 to QF 7",
        "(no write, just asking) how big a step can I take on the RF frequency?",
    ],
)
async def test_a_rehearsal_or_a_step_asked_is_answered_from_the_write_policy(session, text):
    result = await session.submit(text, "t1")

    assert result.pending_approval is None and "Write limits" in result.response


async def test_a_change_at_an_hour_spelled_with_p_m_is_never_proposed(session):
    result = await session.submit("set q f one to one twenty one at six p m", "t1")

    assert result.pending_approval is None and "never later" in result.response
