"""A reading asked after a change is read after the write: "set HCM27 to 0.3 A, then show me
the horizontal orbit in sector 9" writes HCM27 only, then reads the orbit."""

from __future__ import annotations

from tests.support.turns import operations, steps

HCM27 = "SR09C:HCM27:Current:SP"


async def test_a_reading_after_a_change_is_planned_after_the_write(session, machine):
    asked = await session.submit(
        "set HCM27 to 0.3 A, then show me the horizontal orbit in sector 9", "t1"
    )

    assert steps(asked) == ["channel_finding", "channel_write", "channel_read", "respond"]
    (op,) = operations(asked)
    assert op["channel"] == HCM27 and op["new_value"] == 0.3

    done = await session.resume("t1", True)
    assert machine.value(HCM27) == 0.3
    assert done.response.index(HCM27) < done.response.index("SR09C:BPM49:X")
    assert "SR09C:BPM54:X" in done.response


async def test_a_question_after_a_change_is_read_after_it(session):
    asked = await session.submit("put VCM 2 at 0.1 A, then what's the vertical tune?", "t1")

    assert steps(asked) == ["channel_finding", "channel_write", "channel_read", "respond"]
    assert [op["channel"] for op in operations(asked)] == ["SR01C:VCM02:Current:SP"]


async def test_a_reading_before_a_change_stays_before_it(session):
    asked = await session.submit("show me the vertical tune, then put VCM 2 at 0.1 A", "t1")

    assert steps(asked) == ["channel_finding", "channel_read", "channel_write", "respond"]
