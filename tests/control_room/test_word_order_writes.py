"""Changes said in another language's word order and terse or collective writes, as whole
turns on the simulated ring: the approval proposes exactly the value the words say, for every
device they name; answered no, nothing is written. A terse question of the limits is
answered from the write policy and proposes nothing."""

from __future__ import annotations

import pytest

from tests.support.turns import operations, steps

QD20 = "SR05C:QD20:Current:SP"
QF13 = "SR04C:QF13:Current:SP"
VCMS_SECTOR_7 = ("SR07C:VCM19:Current:SP", "SR07C:VCM20:Current:SP", "SR07C:VCM21:Current:SP")


@pytest.mark.parametrize(
    ("text", "proposed"),
    [
        ("The QD 20 make less with 1.5 ampere please.", {QD20: 93.5}),
        ("Make more the QF 13 of one percent.", {QF13: 121.2}),
        ("the q.f.13 please set on 119.5 ampere", {QF13: 119.5}),
        ("vcms in sec 7 all off pls (0)", dict.fromkeys(VCMS_SECTOR_7, 0.0)),
        ("a quarter of an amp on hcm 11", {"SR04C:HCM11:Current:SP": 0.25}),
        (
            "First you show me the HCM 8 actual readback, after you make it 0.1 A more.",
            {"SR03C:HCM08:Current:SP": 0.1},
        ),
        # a negative value alone after a name: the value when the channel can take it, else
        # the change it says
        ("HCM 3 -0.2 A", {"SR01C:HCM03:Current:SP": -0.2}),
        ("RF f −1 kHz", {"SR:RF:Frequency:SP": 499.653}),
        ("ID 7 gap -0.5 mm", {"SR07C:ID07:Gap:SP": 14.5}),
        # a courtesy between the verb and its value; a value in words after a late verb
        ("For the quadrupole QD 20 you put please 95.8 ampere", {QD20: 95.8}),
        ("for QF 13 put one hundred nineteen point five amps", {QF13: 119.5}),
        # a device described in words, its number no value
        (
            "for the horizontal steering magnet number 20 put 0.45 A",
            {"SR07C:HCM20:Current:SP": 0.45},
        ),
    ],
)
async def test_the_approval_proposes_the_value_the_words_say(session, machine, text, proposed):
    before = {name: machine.value(name) for name in proposed}

    asked = await session.submit(text, "t1")

    assert "channel_write" in steps(asked)
    got = {op["channel"]: op["new_value"] for op in operations(asked)}
    assert got == pytest.approx(proposed)
    done = await session.resume("t1", False)
    assert done.pending_approval is None
    assert {name: machine.value(name) for name in proposed} == before


async def test_a_terse_question_of_the_limits_writes_nothing(session, machine):
    result = await session.submit("hcm 2 -1.5a ok or over the limit", "t1")

    assert result.pending_approval is None
    assert steps(result) == ["respond"]
    assert "SR01C:HCM02:Current:SP" in result.response


@pytest.mark.parametrize("text", ["switch off HCM3", "vcm 12 off pls", "hcms in sec 5 all off pls"])
async def test_off_without_its_value_is_asked_not_written(session, machine, text):
    result = await session.submit(text, "t1")

    assert result.pending_approval is None
    assert "clarify" in steps(result)
    assert "off" in result.response


async def test_a_comparison_before_an_arrow_is_the_writes_condition(session, machine):
    held = await session.submit("LT > six h → QF 5 SP one hundred twenty one A", "t1")

    assert {op["channel"]: op["new_value"] for op in operations(held)} == {
        "SR02C:QF05:Current:SP": pytest.approx(121.0)
    }
    await session.resume("t1", False)

    not_held = await session.submit("LT < six h → QF 5 SP one hundred twenty one A", "t2")

    assert not_held.pending_approval is None
    assert "SR:DCCT:Lifetime" in not_held.response
