"""Whole turns: a change asked about, marked as a question or a dry run, or reported as done is
never proposed; the machine is left as it was."""

from __future__ import annotations

import pytest

from tests.support.turns import proposed, steps


@pytest.mark.parametrize(
    "text",
    [
        "cn i put hcm 4 to 0.3",
        "qf 17 up 1A ok?",
        "hcm 4 => 0.3 ? (q only)",
        "QF 9 = QF 11 - would that pass limits",
        "V_RF -100 kV, is that allowed",
        "HCM03 := HCM02 + 0.15A - just check, no put",
        "not sure HCM26 should be at 0.7 A, explain what's normal",
        "caput SR01C:HCM01:Current:SP 0.5 --dry-run",
        "would it hurt to put HCM 4 at 0.3 A?",
        "per the handover, HCM05 was moved to 0.35 A by the previous shift",
        "the shift leader has to OK it first, but I want to set QF25 to 121.5 A",
        "Bob wants HCM 18 at 0.4 A but wait for his ok before anything moves",
        "plan for the next MD shift: QF09 +1 A, QD10 -0.5 A. nothing now",
    ],
)
async def test_a_change_asked_about_is_never_proposed(session, text):
    result = await session.submit(text, "t1")

    assert result.pending_approval is None and "channel_write" not in steps(result)


@pytest.mark.parametrize(
    ("text", "channel", "value"),
    [
        ("is it ok if I set HCM 12 to 0.25 A? yes, do it", "SR04C:HCM12:Current:SP", 0.25),
        (
            "should I maybe lower VCM 25 by 0.1? actually yes, please do it",
            "SR09C:VCM25:Current:SP",
            -0.1,
        ),
    ],
)
async def test_a_change_asked_about_then_asked_for_is_proposed(session, text, channel, value):
    result = await session.submit(text, "t1")

    assert proposed(result) == {channel: pytest.approx(value)}
    await session.resume("t1", False)


async def test_a_copy_asked_about_then_asked_for_reads_its_source_first(session):
    text = "should VCM 11 be the same as VCM 10? I think so, please copy it over"
    result = await session.submit(text, "t1")

    assert steps(result)[:3] == ["channel_finding", "channel_read", "channel_write"]
    assert set(proposed(result)) == {"SR04C:VCM11:Current:SP"}
    await session.resume("t1", False)


async def test_do_it_after_a_question_about_a_change_asks_that_change(session):
    first = await session.submit("is it ok if I raise the RF voltage to 2.7 MV?", "t1")
    assert first.pending_approval is None

    again = await session.submit("ok, do it then", "t1")

    assert proposed(again) == {"SR:RF:Voltage:SP": pytest.approx(2.7)}
    await session.resume("t1", False)


async def test_a_group_given_a_value_without_a_verb_is_a_change_of_each(session):
    result = await session.submit("all vertical correctors in sector 8 to zero", "t1")

    assert proposed(result) == {f"SR08C:VCM{n}:Current:SP": 0.0 for n in (22, 23, 24)}
    await session.resume("t1", False)


@pytest.mark.parametrize("text", ["put qd22 to 96 but not now", "not now: put qd22 96"])
async def test_a_change_not_now_is_not_proposed(session, text):
    result = await session.submit(text, "t1")

    assert result.pending_approval is None and "channel_write" not in steps(result)


@pytest.mark.parametrize(
    "text", ["can the RF voltage setpoint be written from this console?", "is QF 3 writable?"]
)
async def test_whether_a_channel_can_be_written_is_answered_from_the_write_policy(session, text):
    result = await session.submit(text, "t1")

    assert steps(result) == ["respond"] and "Write limits" in result.response


async def test_has_it_dropped_since_a_moment_is_its_history_not_an_incident(session):
    result = await session.submit("has the beam current dropped since 20:00 yesterday?", "t1")

    assert steps(result) == [
        "channel_finding",
        "time_range_parsing",
        "archiver_retrieval",
        "respond",
    ]
