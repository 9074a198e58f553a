"""Follow-ups that name no channel, as whole turns: two requests on one thread (an approval of
the first answered no), the second planned with the first one's channels."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.turns import operations, steps


async def second_turn(session: Any, first: str, second: str) -> Any:
    """The result of ``second`` asked after ``first`` on one thread (nothing approved)."""
    answered = await session.submit(first, "t1")
    if answered.pending_approval is not None:
        await session.resume("t1", False)
    return await session.submit(second, "t1")


def proposed(result: Any) -> dict[str, float]:
    if result.pending_approval is None:
        return {}
    return {op["channel"]: op["new_value"] for op in operations(result)}


@pytest.mark.parametrize(
    ("first", "second", "channel", "value"),
    [
        ("VCM 17 readback?", "so → 0.08 A", "SR06C:VCM17:Current:SP", 0.08),
        ("qd 22 sp", "-> 95.75 please", "SR06C:QD22:Current:SP", 95.75),
        ("set QD18 to 95 A", "no → 94.6", "SR05C:QD18:Current:SP", 94.6),
        ("vcm 23 sp", "quarter amp up", "SR08C:VCM23:Current:SP", 0.25),
        ("set VCM 23 to 0.1 A", "no -0.12", "SR08C:VCM23:Current:SP", -0.12),
        ("what is the ID 11 gap", "take it out 1.5 mm", "SR11C:ID11:Gap:SP", 16.5),
        ("HCM 33 rb", "ok, to -0.07 A", "SR11C:HCM33:Current:SP", -0.07),
        (
            "set the undulator gap to 21 mm",
            "the one in sector 7 is better",
            "SR07C:ID07:Gap:SP",
            21,
        ),
        (
            "set HCM 30 to HCM 29 minus 0.05 A",
            "offset -0.15 A then",
            "SR10C:HCM30:Current:SP",
            -0.15,
        ),
    ],
)
async def test_a_value_or_change_naming_no_channel_writes_the_device_read(
    session, first, second, channel, value
):
    result = await second_turn(session, first, second)

    assert steps(result)[0] == "channel_finding"
    assert "channel_write" in steps(result)
    assert proposed(result) == pytest.approx({channel: value})


@pytest.mark.parametrize(
    ("first", "second"),
    [("BPM 31 y?", "→ 0.2"), ("VCM 17 readback?", "0.08"), ("what is the lifetime", "→ 9")],
)
async def test_a_value_after_a_read_of_no_setting_proposes_no_write(session, first, second):
    result = await second_turn(session, first, second)

    assert proposed(result) == {}
    assert "channel_write" not in steps(result)


@pytest.mark.parametrize(
    ("first", "second", "channel"),
    [
        ("what's the HCM 21 setpoint?", "oops, and what was it at 3 am?", "SR07C:HCM21:Current:SP"),
        ("qd 10 rb", "chart of that over the last 45 minutes", "SR03C:QD10:Current:RB"),
        ("read bpm 12 horizontal", "how far did it drift in the last 2 hours", "SR02C:BPM12:X"),
        ("the vertical tune, please", "and two hours earlier?", "SR:TUNE:Y"),
    ],
)
async def test_it_with_a_time_reads_the_history_of_the_channel_read(
    session, first, second, channel
):
    result = await second_turn(session, first, second)

    assert steps(result)[0] == "channel_finding"
    assert "archiver_retrieval" in steps(result) and proposed(result) == {}
    assert channel in result.response


async def test_it_compared_with_a_moment_reads_now_and_the_archive(session):
    result = await second_turn(session, "what is the RF frequency?", "was it lower than that at 4?")

    assert steps(result)[0] == "channel_finding"
    assert {"channel_read", "archiver_retrieval"} <= set(steps(result))
    assert "SR:RF:Frequency" in result.response


async def test_another_device_given_the_same_copies_the_value_read(session):
    result = await second_turn(
        session, "what is the HCM 12 setpoint?", "please give HCM 13 the same, like this one"
    )

    assert steps(result) == ["channel_finding", "channel_read", "channel_write", "respond"]
    assert list(proposed(result)) == ["SR05C:HCM13:Current:SP"]


async def test_a_change_without_a_number_after_a_read_finds_the_device_and_asks(session):
    result = await second_turn(session, "hcm 33 sp?", "a tad lower")

    assert steps(result) == ["channel_finding", "clarify"]
    assert result.pending_approval is None


async def test_a_change_called_off_writes_and_asks_nothing(session):
    result = await second_turn(
        session, "set QF 19 to 121.3 A", "hmm no, dont move the quad, leave it"
    )

    assert steps(result) == ["respond"]
    assert result.pending_approval is None


async def test_a_follow_up_of_a_follow_up_keeps_the_channel_read_first(session):
    await second_turn(session, "VCM 17 readback?", "so → 0.08 A")
    await session.resume("t1", False)

    result = await session.submit("-> 0.06 then", "t1")

    assert proposed(result) == pytest.approx({"SR06C:VCM17:Current:SP": 0.06})
