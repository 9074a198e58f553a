"""Pasted tables said as one request, "current" as the present, amounts of several devices."""

from __future__ import annotations

import pytest

from osprey_desktop.capabilities.control_room.time_range_parsing import (
    TimeRangeParsingCapability,
)
from osprey_desktop.language.pasted_tables import tables_said_plainly
from osprey_desktop.language.rewordings import said_plainly
from tests.support.request_words import parse


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (
            "dev;new_A\nHCM07;0.2\nHCM08;-0.15\nplease apply",
            "set HCM07 to 0.2 A and HCM08 to -0.15 A",
        ),
        (
            "Magnet\tTarget\nQD 10\t96.5\nQD 12\t96.0",  # a header of new values orders them
            "set QD 10 to 96.5 and QD 12 to 96.0",
        ),
        (
            "steerer   step\nVCM03   0.05\nVCM04   -0.02\nload these",
            "change VCM03 by +0.05 and VCM04 by -0.02",
        ),
        (
            "from the log:\n11:02 ID 4 set to 17 mm\n11:03 ID 7 set to 12 mm\nput them back in",
            "set ID 4 to 17 mm and ID 7 to 12 mm",
        ),
        ("cell\tpump\n3\tIG05\n4\tIG07\nlast hour pls", "last hour pls of IG05 and IG07"),
        ("HCM07 0.2\nHCM08 0.3\nHCM09 0.1\nset", "set HCM07 to 0.2, HCM08 to 0.3 and HCM09 to 0.1"),
    ],
)
def test_a_table_is_said_as_one_request(text, said):
    assert tables_said_plainly(text) == said


@pytest.mark.parametrize(
    "text",
    [
        "proposed for tomorrow, do not apply:\nHCM07 0.2\nHCM08 -0.15",  # held
        "what physics wants (not approved yet)\nHCM07 0.2\nHCM08 -0.15\nset these?",
        "readings at 09:00\nHCM07 0.2\nHCM08 -0.15",  # values told, nothing ordered
        "set HCM07 to 0.2",  # one line
        "* lifetime\n* IG13\n* current",  # a list of items, the item lists' own
    ],
)
def test_no_change_is_said_of_a_table_held_told_or_no_table(text):
    assert tables_said_plainly(text) == text


def test_a_table_of_new_values_is_parsed_as_each_devices_write():
    request = parse("dev,new\nVCM 7,0.1\nVCM 8,-0.1\nset")

    assert request.intent == "write"
    assert request.canonical == "set VCM7 to 0.1 and VCM8 to -0.1"


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("what is the current vacuum in sector 3", "what is the vacuum in sector 3"),
        ("current pressures pls", "pressures pls"),
        ("HCM 3 current setpoint", "HCM 3 current setpoint"),  # the magnet's current
        ("beam current now", "beam current now"),
    ],
)
def test_current_before_another_quantity_is_the_present(text, said):
    assert said_plainly(text) == said


def test_an_amount_per_device_keeps_each_sign():
    request = parse("change HCM10 by +0.1 and HCM11 by -0.05")

    assert "decrease" not in request.canonical
    assert "+0.1" in request.canonical and "-0.05" in request.canonical


@pytest.mark.parametrize(
    ("text", "asked"),
    [
        ("QF 3 now vs since 8", True),  # 08:00 or 20:00: asked, never dropped from the plan
        ("lifetime now versus from 8 to 10", True),
        ("what is the lifetime now", False),
        ("the second dipole", False),
    ],
)
def test_a_time_read_two_ways_still_plans_its_range(text, asked):
    assert TimeRangeParsingCapability.mentioned_in(text) is asked


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("lifetime at 1", "what was lifetime at 1 o'clock?"),
        ("please set the gap at 5", "please set the gap at 5"),  # a change, never an hour
        ("ID gap at 15", "ID gap at 15"),  # a 24-hour clock reading is no bare hour
    ],
)
def test_a_quantity_at_a_bare_hour_is_a_moment_only_without_a_verb(text, said):
    assert said_plainly(text) == said
