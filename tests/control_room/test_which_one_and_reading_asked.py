"""Whole turns on the simulated ring: one device named by its kind is asked which, the answer
resumes the request asked about, and the reading asked by its verb or its unit."""

from __future__ import annotations

import pytest

from osprey_desktop.cli.common import found_channels
from tests.support.turns import proposed, steps


async def test_one_undulator_named_by_its_kind_is_asked_which(session):
    result = await session.submit("Could you tell me the undulator gap?", "t1")

    assert steps(result) == ["channel_finding", "clarify"]
    assert "Which undulator" in result.response
    assert "6 fit" in result.response


async def test_the_answer_to_which_reads_the_one_named(session):
    await session.submit("what's the undulator gap", "t1")
    result = await session.submit("ID 9", "t1")

    assert {c["name"] for c in found_channels(result)} == {"SR09C:ID09:Gap:RB"}


@pytest.mark.parametrize(
    ("answer", "written"),
    [
        ("ID 9", {"SR09C:ID09:Gap:SP": 14.0}),
        ("9", {"SR09C:ID09:Gap:SP": 14.0}),
        ("the one in sector 4", {"SR04C:ID04:Gap:SP": 14.0}),
    ],
)
async def test_the_answer_to_which_resumes_the_change_asked_about(session, answer, written):
    first = await session.submit("set the undulator gap to 14 mm", "t1")
    assert first.pending_approval is None

    result = await session.submit(answer, "t1")

    assert proposed(result) == {k: pytest.approx(v) for k, v in written.items()}
    await session.resume("t1", False)


async def test_a_new_request_after_the_question_is_planned_on_its_own(session):
    await session.submit("set the undulator gap to 14 mm", "t1")
    result = await session.submit("read the beam current", "t1")

    assert result.pending_approval is None
    assert {c["name"] for c in found_channels(result)} == {"SR:DCCT:Current"}


async def test_the_undulators_are_read_when_all_are_asked(session):
    result = await session.submit("what are the undulator gaps?", "t1")

    assert len(found_channels(result)) == 6


@pytest.mark.parametrize(
    ("text", "channel"),
    [
        ("how many amps is hcm 19 drawing", "SR07C:HCM19:Current:RB"),
        ("how much current is QF 5 pulling?", "SR02C:QF05:Current:RB"),
        ("how many mA do we have", "SR:DCCT:Current"),
    ],
)
async def test_a_reading_asked_by_its_verb_or_its_unit(session, text, channel):
    result = await session.submit(text, "t1")

    assert {c["name"] for c in found_channels(result)} == {channel}


async def test_a_pasted_table_of_new_values_is_one_approval(session):
    result = await session.submit("dev,new_A\nVCM07,0.1\nVCM08,-0.05\npls apply", "t1")

    assert proposed(result) == {
        "SR03C:VCM07:Current:SP": pytest.approx(0.1),
        "SR03C:VCM08:Current:SP": pytest.approx(-0.05),
    }
    await session.resume("t1", False)


async def test_a_pasted_table_not_approved_yet_is_never_proposed(session):
    result = await session.submit(
        "What the orbit group wants, not approved yet:\nVCM07  0.10 A\nVCM08  -0.05 A", "t1"
    )

    assert result.pending_approval is None


async def test_values_told_in_a_story_then_set_them(session):
    result = await session.submit(
        "The alignment crew zeroed the sector 3 correctors this morning; the operating values "
        "are: HCM07 0.1 A, HCM08 -0.2 A. Please set them.",
        "t1",
    )

    assert proposed(result) == {
        "SR03C:HCM07:Current:SP": pytest.approx(0.1),
        "SR03C:HCM08:Current:SP": pytest.approx(-0.2),
    }
    await session.resume("t1", False)


async def test_a_plot_with_its_own_window_after_a_story_is_plotted(session):
    result = await session.submit(
        "There was a glitch at 09:40 and the supplies came back. Plot QF 9 and QD 10 from "
        "09:30 to 10:00.",
        "t1",
    )

    assert steps(result) == [
        "channel_finding",
        "time_range_parsing",
        "archiver_retrieval",
        "respond",
    ]
