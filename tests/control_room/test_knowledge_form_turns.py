"""A question of understanding that names channel words is answered in words on the simulated
ring: nothing is read, no channel is asked about; a question of the machine's state is read."""

from __future__ import annotations

import pytest

from tests.support.turns import steps


@pytest.mark.parametrize(
    "text",
    [
        "sextupole strength vs tune spread — difference?",
        "gap closes → vertical orbit moves. why?",
        "the quadrupoles, why they come in pairs of QF and QD?",
    ],
)
async def test_a_question_of_understanding_is_answered_without_reading(session, text):
    result = await session.submit(text, "t1")

    assert steps(result) == ["respond"]
    assert "| Channel |" not in result.response
    assert "Nothing was read or changed" in result.response
    values = await session.get_state_values("t1")
    assert "CHANNEL_VALUES" not in (values.get("capability_context_data") or {})


async def test_a_told_event_with_why_reads_the_channel(session):
    result = await session.submit("the horizontal tune jumped, why?", "t1")

    assert "channel_read" in steps(result)
