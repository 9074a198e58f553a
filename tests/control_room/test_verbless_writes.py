"""Writes typed without a change verb or without "to", and values in words: the planner plans
the write, channel_write proposes the value the operator meant, and anything short of a clear
value is asked about, never guessed (whole turns on the simulated ring)."""

from __future__ import annotations

from typing import Any

import pytest

from osprey_desktop.connectors.sim_machine import SimMachine
from osprey_desktop.planners.builtin import asks_for_change
from tests.support.turns import steps

HCM01 = "SR01C:HCM01:Current:SP"
VCM03 = "SR01C:VCM03:Current:SP"
ID05_GAP = "SR05C:ID05:Gap:SP"


def proposed(result: Any) -> dict[str, tuple[float, str]]:
    """What the approval asks to write: channel -> (new value, channel units)."""
    assert result.pending_approval is not None, result.response
    operations = result.pending_approval["resume_payload"]["operations"]
    return {op["channel"]: (op["new_value"], op["units"]) for op in operations}


@pytest.mark.parametrize(
    ("text", "channel", "value"),
    [
        ("HCM01 1.5 A", HCM01, 1.5),
        ("HCM01 to 1.2 A", HCM01, 1.2),
        ("HCM01 = -0.1 A", HCM01, -0.1),
        ("VCM03 -> 0.25", VCM03, 0.25),
        ("set VCM03 to minus three hundred milliamps", VCM03, -0.3),
        ("HCM01 to one and a half amps", HCM01, 1.5),
        ("ID05 gap: 21.5 mm", ID05_GAP, 21.5),
        ("set ID05 gap 21.5mm", ID05_GAP, 21.5),
    ],
)
async def test_a_write_without_verb_or_to_proposes_the_value_meant(
    session, machine, text, channel, value
):
    asked = await session.submit(text, "t1")

    ((written, (new_value, _units)),) = proposed(asked).items()
    assert (written, new_value) == (channel, pytest.approx(value))
    assert machine.value(channel) != pytest.approx(value), "nothing is written before approval"


@pytest.mark.parametrize(
    "text",
    [
        "set the quads in sector 3 to their usual values",
        "nudge HCM07 a little",
        "open the ID04 gap 2 mm",  # to 2 mm or by 2 mm?
        "HCM01 to 5 furlongs",
    ],
)
async def test_a_vague_write_asks_and_writes_nothing(session, machine, text):
    before = {name: machine.value(name) for name in (HCM01, "SR03C:HCM07:Current:SP")}

    result = await session.submit(text, "t1")

    assert result.pending_approval is None
    assert "?" in result.response  # a question, whichever is asked first
    assert {name: machine.value(name) for name in before} == before


@pytest.mark.parametrize(
    "text",
    [
        "QF07 to 119 A",
        "HCM22=-0.1",
        "ID05 gap: 21.5 mm",
        "HCM01 1.5 A",
        "please, VCM02 -150 mA",
        "bring HCM19 back to zero",
        "open the ID04 gap 2 mm",  # a change, whose value is then asked about
    ],
)
def test_a_value_given_to_a_name_is_a_command(text):
    assert asks_for_change(text)


@pytest.mark.parametrize(
    "text",
    [
        "HCM01 1.5",  # a bare number without any cue: no write (asked, below)
        "HCM05 at 1.2 A?",
        "HCM01 to 1.5 A?",
        "is VCM03 at 0.25 A",
        "don't put HCM01 to 1 A",
        "read HCM01 1.5 A",
        "compare QF01 to 119 A",
        "horizontal orbit in sectors 2 to 4",
        "HCM04 over the last 3 hours",
        "open the strip chart for 2 hours",
        "first three quadrupole focusing magnet currents",
    ],
)
def test_numbers_without_a_write_cue_ask_for_no_change(text):
    assert not asks_for_change(text)


@pytest.mark.parametrize("text", ["HCM01 1.5", "qf5 -0.3", "hcm15 .25"])
async def test_a_bare_number_after_a_device_is_asked_about_never_written_or_read(
    session, machine: SimMachine, text
):
    """Is "HCM01 1.5" a value for HCM01 or a slip? Neither guessed: the question names both."""
    result = await session.submit(text, "t1")

    assert result.pending_approval is None
    assert steps(result) == ["clarify"]
    assert "Do you want" in result.response and "read" in result.response


async def test_a_bare_integer_after_a_device_still_reads_it(session):
    """ "BPM 3 2" may name devices 3 and 2: it is read, nothing asked about a value."""
    result = await session.submit("BPM 3 2", "t1")

    assert result.pending_approval is None and steps(result)[-1] == "respond"
