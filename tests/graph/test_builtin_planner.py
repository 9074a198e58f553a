"""The built-in planner on declared capability data: matching, chaining, reuse, react steps,
responses and clarifications."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from osprey_desktop.language.words import has_change_verb, match_capabilities, stem
from osprey_desktop.planners.base import Planner
from osprey_desktop.planners.builtin import BuiltinPlanner, split_task
from osprey_desktop.planners.response_writer import render_summary
from tests.graph.lab import DeviceList, build_lab_registry

PLANNER = BuiltinPlanner()


@pytest.fixture
def caps(lab_registry) -> list[Any]:
    return lab_registry.get_all_capabilities()


def names(steps: list[dict[str, Any]]) -> list[str]:
    return [s["capability"] for s in steps]


def test_builtin_planner_implements_the_protocol() -> None:
    assert isinstance(PLANNER, Planner)


@pytest.mark.parametrize(
    ("word", "root"),
    [
        ("readings", "read"),
        ("reading", "read"),
        ("pumps", "pump"),
        ("setting", "set"),
        ("increased", "increas"),
        ("increase", "increas"),
        ("histories", "history"),
    ],
)
def test_light_stemming(word: str, root: str) -> None:
    assert stem(word) == root


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("set pump1 to 5", True),
        ("Please change heater1 to 30", True),
        ("turn off pump2", True),
        ("what is the set value of pump1", False),
        ("read the pump pressure", False),
    ],
)
def test_change_verbs(text: str, expected: bool) -> None:
    assert has_change_verb(text) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("hello", []),
        ("thanks!", []),
        ("read the pump pressure", ["device_read"]),
        ("find the pump devices", ["device_lookup"]),
        ("plot the heater history over the last 3 hours", ["history_fetch", "window_parse"]),
        ("set pump1 to 5", ["device_write"]),
        ("what is the set value of pump1", ["device_read"]),
        ("read pump1 and calibrate it", ["device_read", "calibrate"]),
        ("bake a cake", []),
    ],
)
async def test_capability_selection(caps, text: str, expected: list[str]) -> None:
    assert await PLANNER.select_capabilities(text, caps, {}) == expected


def test_matching_orders_goals_as_the_text_names_them(caps) -> None:
    matches = match_capabilities("calibrate after you read pump1", caps)
    assert [m.name for m in matches] == ["calibrate", "device_read"]


async def test_plan_chains_providers_before_goals_and_ends_with_respond(caps) -> None:
    plan = await PLANNER.create_plan("plot the pump history over the last 2 hours", caps, {})
    steps = plan["steps"]
    assert names(steps) == ["device_lookup", "window_parse", "history_fetch", "respond"]
    assert steps[2]["inputs"] == [
        {"LAB_DEVICES": "device_lookup_1"},
        {"LAB_WINDOW": "window_parse_1"},
    ]
    assert steps[2]["task_objective"] == "plot the pump history over the last 2 hours"
    assert steps[0]["expected_output"] == "LAB_DEVICES"
    assert {"LAB_HISTORY": "history_fetch_1"} in steps[-1]["inputs"]


async def test_plan_keys_never_overwrite_stored_contexts(caps) -> None:
    state = {
        "capability_context_data": {"LAB_DEVICES": {"device_lookup_1": {"devices": []}}},
        "execution_step_results": {"device_lookup_2": {}},
    }
    plan = await PLANNER.create_plan("read the pump pressure", caps, state)
    assert plan["steps"][0]["context_key"] == "device_lookup_3"


async def test_follow_up_reuses_stored_context_instead_of_recomputing(caps) -> None:
    state = {
        "capability_context_data": {"LAB_DEVICES": {"device_lookup_1": {"devices": ["pump1"]}}},
        "task_depends_on_chat_history": True,
    }
    plan = await PLANNER.create_plan('read those (follow-up to: "find pump1")', caps, state)
    assert names(plan["steps"]) == ["device_read", "respond"]
    assert plan["steps"][0]["inputs"] == [{"LAB_DEVICES": "device_lookup_1"}]


async def test_without_a_reference_stored_context_is_not_reused(caps) -> None:
    state = {
        "capability_context_data": {"LAB_DEVICES": {"device_lookup_1": {"devices": ["pump1"]}}}
    }
    plan = await PLANNER.create_plan("read the heater value", caps, state)
    assert names(plan["steps"]) == ["device_lookup", "device_read", "respond"]


async def test_write_is_never_pulled_in_as_a_provider(caps) -> None:
    plan = await PLANNER.create_plan("read the pump pressure", caps, {})
    assert "device_write" not in names(plan["steps"])


async def test_unprovidable_input_becomes_a_clarify_step() -> None:
    registry = build_lab_registry()
    registry._capabilities.pop("window_parse")
    caps = registry.get_all_capabilities()
    plan = await PLANNER.create_plan("plot the pump history", caps, {})
    assert names(plan["steps"]) == ["clarify"]
    assert "LAB_WINDOW" in plan["steps"][0]["parameters"]["reason"]


async def test_task_extraction_marks_follow_ups() -> None:
    messages = [
        HumanMessage("find the pump devices"),
        AIMessage("pump1, pump2"),
        HumanMessage("read those again"),
    ]
    extracted = await PLANNER.extract_task(messages, {})
    assert extracted.depends_on_chat_history is True
    assert extracted.task == 'read those again (follow-up to: "find the pump devices")'
    assert split_task(extracted.task) == ("read those again", "find the pump devices")
    plain = await PLANNER.extract_task([HumanMessage("read pump1")], {})
    assert plain.task == "read pump1" and plain.depends_on_chat_history is False


async def test_bare_follow_up_matches_the_previous_request(caps) -> None:
    task = 'do it again (follow-up to: "read the pump pressure")'
    assert await PLANNER.select_capabilities(task, caps, {}) == ["device_read"]


async def test_react_next_step_continues_from_this_turns_results(caps) -> None:
    task = "read the pump pressure"
    first = await PLANNER.choose_next_step(task, caps, {})
    assert first["capability"] == "device_lookup"
    state = {
        "capability_context_data": {"LAB_DEVICES": {"device_lookup_1": {"devices": ["pump1"]}}},
        "execution_step_results": {
            "device_lookup_1": {
                "capability": "device_lookup",
                "success": True,
                "context_key": "device_lookup_1",
                "step_index": 0,
                "timestamp": 1.0,
            }
        },
    }
    second = await PLANNER.choose_next_step(task, caps, state)
    assert second["capability"] == "device_read"
    assert second["inputs"] == [{"LAB_DEVICES": "device_lookup_1"}]
    state["execution_step_results"]["device_read_1"] = {
        "capability": "device_read",
        "success": True,
        "context_key": "device_read_1",
        "step_index": 0,
        "timestamp": 2.0,
    }
    last = await PLANNER.choose_next_step(task, caps, state)
    assert last["capability"] == "respond"
    assert {"LAB_READINGS": "device_read_1"} in last["inputs"]


async def test_response_shows_numbers_with_units(lab_registry) -> None:
    summaries = {
        "LAB_READINGS.r1": {
            "type": "Lab readings",
            "readings": [{"device": "pump1", "value": 3.14159265, "units": "bar"}],
        }
    }
    text = await PLANNER.write_response("read pump1", {}, summaries)
    assert "pump1" in text and "3.1416 bar" in text


def test_summary_rendering_joins_value_and_units_and_shortens_lists() -> None:
    lines = render_summary(
        "T.k",
        {"type": "Thing", "value": 1.23456789, "units": "A", "names": [f"n{i}" for i in range(15)]},
    )
    assert lines[0] == "**Thing** (`k`)"
    assert "- value: 1.2346 A" in lines
    assert any(line.endswith("… and 5 more") for line in lines)


async def test_response_lists_failures_of_the_turn(lab_registry) -> None:
    state = {
        "execution_step_results": {
            "x": {"capability": "calibrate", "success": False, "error": "sensor bus jammed"}
        }
    }
    text = await PLANNER.write_response("calibrate", state, {})
    assert "**Not completed:**" in text and "sensor bus jammed" in text


async def test_clarification_says_what_is_missing_and_gives_examples(lab_registry) -> None:
    text = await PLANNER.ask_clarification("read it", {}, "which device do you mean?")
    assert "which device do you mean?" in text
    assert "“read the pump pressure”" in text


def test_context_summary_is_used_for_responses() -> None:
    assert DeviceList(devices=["a"]).get_summary()["count"] == 1


def test_several_values_of_one_field_are_listed_one_per_line():
    lines = render_summary(
        "CHANNEL_VALUES.read_1",
        {"type": "Channel Values", "values": {"A:X": "0.1 mm", "B:X": "-0.2 mm"}},
    )
    assert lines == [
        "**Channel Values** (`read_1`)",
        "- values:",
        "  - A:X: 0.1 mm",
        "  - B:X: -0.2 mm",
    ]


def test_a_single_value_stays_on_its_line():
    lines = render_summary("CHANNEL_VALUES.read_1", {"values": {"SR:DCCT:Current": "500.4 mA"}})
    assert lines[1] == "- values: SR:DCCT:Current: 500.4 mA"
