"""Requests typed the way the EPICS command-line tools are: whole turns on the simulated ring.

"caput NAME VALUE" is a change (approved like any other), "caput NAME" asks for its value,
"caget" and "camonitor" read, "+=" and "-=" change by an amount in their own direction, a
shell pattern reads every channel it matches, and a full name the ring's list lacks is asked
about (the ring has no channel beyond its list).
"""

from __future__ import annotations

import pytest

from tests.support.turns import proposed, steps


@pytest.mark.parametrize(
    ("text", "channel", "value"),
    [
        ("caput SR04C:VCM11:Current:SP 0.3", "SR04C:VCM11:Current:SP", 0.3),
        ("caput SR04C:VCM11:Current:SP=0.3", "SR04C:VCM11:Current:SP", 0.3),
        ("pvput -w 2 SR04C:VCM11:Current:SP -0.2", "SR04C:VCM11:Current:SP", -0.2),
        ("qf1 += 1", "SR01C:QF01:Current:SP", 121.0),
        ("qf1 -= 1", "SR01C:QF01:Current:SP", 119.0),  # never the value 1 A
        ("qf1 *= 1.01", "SR01C:QF01:Current:SP", 121.2),
    ],
)
async def test_a_change_typed_as_a_command_is_proposed_for_approval(session, text, channel, value):
    result = await session.submit(text, "t1")

    assert proposed(result) == {channel: pytest.approx(value)}
    await session.resume("t1", False)


async def test_a_put_without_a_value_asks_for_it(session):
    result = await session.submit("caput SR04C:VCM11:Current:SP", "t1")

    assert steps(result)[-1] == "clarify" and result.pending_approval is None


async def test_an_amount_taken_back_with_its_operator_keeps_the_channel(session):
    first = await session.submit("hcm20 += 0.1", "t1")
    assert first.pending_approval is not None
    await session.resume("t1", False)

    again = await session.submit("no, -= 0.1", "t1")

    assert proposed(again) == {"SR07C:HCM20:Current:SP": pytest.approx(-0.1)}
    await session.resume("t1", False)


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("caget SR07C:IG*", {"SR07C:IG13:Pressure", "SR07C:IG14:Pressure"}),
        ("caget -a SR:DCCT:Current", {"SR:DCCT:Current"}),
        ("camonitor SR:DCCT:Lifetime", {"SR:DCCT:Lifetime"}),
        ("ig1? pressures", {f"SR{(n + 1) // 2:02d}C:IG{n:02d}:Pressure" for n in range(10, 20)}),
        (
            "SR0[1-2]C:HCM*:Current:RB",
            {f"SR{(n + 2) // 3:02d}C:HCM{n:02d}:Current:RB" for n in range(1, 7)},
        ),
    ],
)
async def test_a_read_typed_as_a_command_or_a_pattern_reads_what_it_names(session, text, read):
    from osprey_desktop.cli.common import found_channels

    result = await session.submit(text, "t1")

    assert "channel_read" in steps(result) and result.pending_approval is None
    assert {c["name"] for c in found_channels(result)} == read


@pytest.mark.parametrize("text", ["caget SR:BOOSTER:Current", "caget SR:RF:CAV2:RevPower"])
async def test_a_full_name_the_ring_lacks_is_asked_about_never_read(session, text):
    result = await session.submit(text, "t1")

    assert steps(result)[-1] == "clarify" and "channel_read" not in steps(result)
    assert "in the channel list" in result.response


async def test_a_put_of_a_value_read_by_the_shell_copies_it(session):
    result = await session.submit(
        "caput SR03C:VCM08:Current:SP $(caget -t SR03C:VCM07:Current:SP)", "t1"
    )

    assert steps(result)[:3] == ["channel_finding", "channel_read", "channel_write"]
    assert set(proposed(result)) == {"SR03C:VCM08:Current:SP"}
    await session.resume("t1", False)


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("caget SR:DCCT:Current SR:DCCT:Lifetime", {"SR:DCCT:Current", "SR:DCCT:Lifetime"}),
        (
            "ID gaps: 04, 07 and 11",
            {"SR04C:ID04:Gap:RB", "SR07C:ID07:Gap:RB", "SR11C:ID11:Gap:RB"},
        ),
    ],
)
async def test_several_names_or_numbers_are_each_read(session, text, read):
    from osprey_desktop.cli.common import found_channels

    result = await session.submit(text, "t1")

    assert result.pending_approval is None and "channel_write" not in steps(result)
    assert {c["name"] for c in found_channels(result)} == read
