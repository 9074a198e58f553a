"""Each control-room capability on its own, against the simulated ring.

A capability runs as the router would run it: an instance built with the state and its plan
step, ``execute()`` awaited, the returned update inspected. Writes (which need an approval
interrupt, hence a graph) are in ``test_channel_write.py``.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from osprey_desktop.base import ClarificationRequired
from osprey_desktop.capabilities.control_room import (
    ArchiverRetrievalCapability,
    ChannelFindingCapability,
    ChannelReadCapability,
    ChannelWriteCapability,
    TimeRangeParsingCapability,
)
from osprey_desktop.capabilities.control_room.archiver_retrieval import viewer_url
from osprey_desktop.capabilities.control_room.channel_finding import channel_phrase
from osprey_desktop.capabilities.control_room.contexts import (
    ArchiverDataContext,
    ChannelAddressesContext,
    ChannelValuesContext,
    TimeRangeContext,
)
from osprey_desktop.state import StateManager


def step(capability: str, text: str, key: str, inputs: list[dict[str, str]] | None = None):
    return {
        "context_key": key,
        "capability": capability,
        "task_objective": text,
        "success_criteria": "",
        "expected_output": None,
        "parameters": None,
        "inputs": inputs or [],
    }


def state_for(text: str, steps: list[dict[str, Any]], index: int = 0, contexts=None):
    state = dict(StateManager.create_fresh_state(text))
    state["task_current_task"] = text
    state["planning_execution_plan"] = {"steps": steps}
    state["planning_current_step_index"] = index
    state["capability_context_data"] = contexts or {}
    return state


async def run(cls, text: str, steps, index: int = 0, contexts=None) -> dict[str, Any]:
    state = state_for(text, steps, index, contexts)
    return await cls(state, steps[index]).execute()


def stored(update: dict[str, Any], context_type: str, key: str) -> dict[str, Any]:
    return update["capability_context_data"][context_type][key]


async def ask(cls, text: str, steps, index: int = 0, contexts=None) -> ClarificationRequired:
    """The question a capability raises instead of guessing (nothing is returned)."""
    with pytest.raises(ClarificationRequired) as caught:
        await run(cls, text, steps, index, contexts)
    return caught.value


# -- channel_finding ------------------------------------------------------------------------


async def test_channel_finding_resolves_the_horizontal_orbit_of_sector_3():
    text = "show the horizontal orbit in sector 3"
    update = await run(ChannelFindingCapability, text, [step("channel_finding", text, "cf")])
    found = ChannelAddressesContext.model_validate(stored(update, "CHANNEL_ADDRESSES", "cf"))
    assert found.channels == [f"SR03C:BPM{n}:X" for n in range(13, 19)]
    assert found.original_query == text
    assert "Horizontal beam position" in found.descriptions["SR03C:BPM13:X"]


async def test_channel_finding_for_a_write_resolves_the_setpoint_only():
    text = "set HCM01 to 1.5 A"
    steps = [
        step("channel_finding", text, "cf"),
        step("channel_write", text, "cw", [{"CHANNEL_ADDRESSES": "cf"}]),
    ]
    update = await run(ChannelFindingCapability, text, steps)
    assert stored(update, "CHANNEL_ADDRESSES", "cf")["channels"] == ["SR01C:HCM01:Current:SP"]


async def test_a_request_naming_nothing_in_the_list_asks_instead_of_guessing():
    text = "what is the cryoplant frobnicator?"
    steps = [step("channel_finding", text, "cf"), step("respond", text, "respond")]
    asked = await ask(ChannelFindingCapability, text, steps)
    assert "no channel matching 'cryoplant frobnicator'" in asked.question


@pytest.mark.parametrize(
    ("text", "lacking"),
    [
        ("what is the linac beam current?", "linac"),
        ("septum magnet current please", "septum"),
        ("klystron beam voltage?", "klystron"),
        ("orbit FB status?", "fb"),  # a short word in capitals is an abbreviation
    ],
)
async def test_a_thing_the_list_lacks_named_before_its_words_is_asked_about(text, lacking):
    steps = [step("channel_finding", text, "cf"), step("respond", text, "respond")]
    asked = await ask(ChannelFindingCapability, text, steps)
    assert f"the channel list has no '{lacking}'" in asked.question


@pytest.mark.parametrize(
    ("text", "lacking"),
    [("what is the electron beam current?", "electron"), ("user beam lifetime?", "user")],
)
async def test_a_word_the_vocabulary_does_not_know_qualifies_and_is_named(text, lacking):
    steps = [step("channel_finding", text, "cf"), step("respond", text, "respond")]
    update = await run(ChannelFindingCapability, text, steps)
    found = stored(update, "CHANNEL_ADDRESSES", "cf")
    assert found["channels"] and f"no '{lacking}'" in found["note"]


async def test_an_unfamiliar_adjective_does_not_block_a_match_but_is_named_in_the_answer():
    text = "what is the ambient beam current?"
    steps = [step("channel_finding", text, "cf"), step("respond", text, "respond")]
    update = await run(ChannelFindingCapability, text, steps)
    found = stored(update, "CHANNEL_ADDRESSES", "cf")
    assert found["channels"] == ["SR:DCCT:Current"]
    assert found["note"] == (
        "The channel list has no 'ambient'; these channels match the other words."
    )


async def test_a_device_the_list_lacks_is_asked_about_not_replaced_by_the_other_words():
    """'cryoplant pressure': no cryoplant in the list; the vacuum gauges that say pressure
    are offered, never answered."""
    text = "what is the cryoplant pressure?"
    steps = [step("channel_finding", text, "cf"), step("respond", text, "respond")]
    update = await ChannelFindingCapability.langgraph_node(state_for(text, steps))
    plan = update["planning_execution_plan"]["steps"]
    assert [s["capability"] for s in plan] == ["channel_finding", "clarify"]
    question = plan[1]["parameters"]
    assert "No channel for 'cryoplant pressure'" in question["question"]
    assert question["suggestions"] and all("Pressure" in s for s in question["suggestions"])
    assert "capability_context_data" not in update


async def test_the_channel_question_replaces_the_rest_of_the_plan_with_clarify():
    text = "what is the cryoplant frobnicator?"
    steps = [step("channel_finding", text, "cf"), step("respond", text, "respond")]
    update = await ChannelFindingCapability.langgraph_node(state_for(text, steps))
    plan = update["planning_execution_plan"]["steps"]
    assert [s["capability"] for s in plan] == ["channel_finding", "clarify"]
    assert update["planning_current_step_index"] == 1
    assert "no channel matching 'cryoplant frobnicator'" in plan[1]["parameters"]["question"]
    assert "capability_context_data" not in update, "nothing is stored when asking"
    assert update["execution_step_results"]["cf"]["needs_clarification"] is True


async def test_writing_to_a_read_only_channel_is_asked_about():
    text = "set the beam current to 5"
    steps = [
        step("channel_finding", text, "cf"),
        step("channel_write", text, "cw", [{"CHANNEL_ADDRESSES": "cf"}]),
    ]
    question = (await ask(ChannelFindingCapability, text, steps)).question
    assert "SR:DCCT:Current" in question and "read-only" in question


async def test_a_write_target_matching_dozens_of_channels_is_narrowed_first():
    text = "set the correctors to 0.5 A"
    steps = [
        step("channel_finding", text, "cf"),
        step("channel_write", text, "cw", [{"CHANNEL_ADDRESSES": "cf"}]),
    ]
    asked = await ask(ChannelFindingCapability, text, steps)
    # 72 corrector setpoints, above approval.max_channels_per_write (48): the count is said
    assert "matches 72 writable channels" in asked.question
    assert "at most 48" in asked.question
    assert len(asked.suggestions) == 5 and all(":SP" in name for name in asked.suggestions)


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        ("plot the beam current over the last 2 hours", "beam current"),
        ("what is the beam current in amps", "beam current"),
        ("increase HCM01 by 0.2 A", "hcm01"),
        ("gimme the DCCT pls", "dcct"),
        ("the horizontal and vertical orbit in sector 3", "horizontal and vertical orbit sector 3"),
    ],
)
def test_time_words_values_and_filler_are_not_searched_as_channel_words(text, phrase):
    assert channel_phrase(text) == phrase


async def test_both_halves_of_an_and_are_found():
    text = "read the horizontal and vertical tune"
    update = await run(ChannelFindingCapability, text, [step("channel_finding", text, "cf")])
    assert stored(update, "CHANNEL_ADDRESSES", "cf")["channels"] == ["SR:TUNE:X", "SR:TUNE:Y"]


def test_the_channel_database_words_are_channel_findings_keywords():
    keywords = ChannelFindingCapability().keywords
    assert {"orbit", "vacuum", "undulator", "hcm01", "bpm13"} <= set(keywords)
    assert "time" not in keywords


# -- time_range_parsing ---------------------------------------------------------------------


async def test_time_range_of_the_last_two_hours():
    text = "plot the beam current over the last 2 hours"
    update = await run(TimeRangeParsingCapability, text, [step("time_range_parsing", text, "tr")])
    time_range = TimeRangeContext.model_validate(stored(update, "TIME_RANGE", "tr"))
    assert time_range.end_date - time_range.start_date == timedelta(hours=2)
    assert time_range.timezone_name and time_range.expression == "last 2 hours"


async def test_ambiguous_time_range_becomes_a_question_with_rephrasings():
    text = "plot the lifetime since 8"
    steps = [step("time_range_parsing", text, "tr"), step("respond", text, "respond")]
    asked = await ask(TimeRangeParsingCapability, text, steps)
    assert "08:00 or 20:00" in asked.question
    assert asked.suggestions == ["since 08:00", "since 20:00"]


async def test_a_history_request_without_a_time_asks_which_range():
    text = "average of the lifetime"
    asked = await ask(TimeRangeParsingCapability, text, [step("time_range_parsing", text, "tr")])
    assert "Which time range" in asked.question
    assert "the last 2 hours" in asked.suggestions


async def test_a_plot_without_a_time_shows_the_last_hour_and_says_so():
    text = "plot the lifetime"
    update = await run(TimeRangeParsingCapability, text, [step("time_range_parsing", text, "tr")])
    time_range = TimeRangeContext.model_validate(stored(update, "TIME_RANGE", "tr"))
    assert time_range.end_date - time_range.start_date == timedelta(hours=1)
    assert time_range.expression == "the last hour (no time was named)"


async def test_clock_times_are_read_in_the_configured_machine_timezone(configure):
    configure({"machine": {"timezone": "Asia/Kolkata"}})
    text = "plot the lifetime since 00:00"
    update = await run(TimeRangeParsingCapability, text, [step("time_range_parsing", text, "tr")])
    time_range = TimeRangeContext.model_validate(stored(update, "TIME_RANGE", "tr"))
    assert time_range.timezone_name == "Asia/Kolkata"
    start = time_range.start_date.astimezone(ZoneInfo("Asia/Kolkata"))
    assert (start.hour, start.minute) == (0, 0)
    assert time_range.start_date.utcoffset() == timedelta(hours=5, minutes=30)


async def test_without_a_configured_timezone_the_computers_zone_is_used(configure, monkeypatch):
    monkeypatch.setenv("TZ", "Pacific/Auckland")
    configure({"machine": {"timezone": None}})
    text = "plot the lifetime since 00:00"
    update = await run(TimeRangeParsingCapability, text, [step("time_range_parsing", text, "tr")])
    time_range = TimeRangeContext.model_validate(stored(update, "TIME_RANGE", "tr"))
    assert time_range.timezone_name == "Pacific/Auckland"
    start = time_range.start_date.astimezone(ZoneInfo("Pacific/Auckland"))
    assert (start.hour, start.minute) == (0, 0)


async def test_the_dated_suggestion_is_yesterday_in_the_machine_timezone(configure):
    configure({"machine": {"timezone": "Pacific/Kiritimati"}})  # UTC+14
    text = "average of the lifetime"
    asked = await ask(TimeRangeParsingCapability, text, [step("time_range_parsing", text, "tr")])
    yesterday = datetime.now(ZoneInfo("Pacific/Kiritimati")).date() - timedelta(days=1)
    assert f"from {yesterday} 10:00 to 12:00" in asked.suggestions


async def test_time_range_falls_back_to_the_whole_task_when_the_step_names_none():
    text = "plot the lifetime since 08:00"
    the_step = step("time_range_parsing", "work out the time range", "tr")
    update = await TimeRangeParsingCapability(state_for(text, [the_step]), the_step).execute()
    assert stored(update, "TIME_RANGE", "tr")["expression"] == "since 08:00"


# -- channel_read ---------------------------------------------------------------------------


def addresses(*channels: str, key: str = "cf") -> dict[str, Any]:
    context = ChannelAddressesContext(channels=list(channels), original_query="test")
    return {"CHANNEL_ADDRESSES": {key: context.model_dump(mode="json")}}


async def test_channel_read_gives_value_units_timestamp_and_alarm(connectors):
    text = "read the beam current"
    steps = [step("channel_read", text, "cr", [{"CHANNEL_ADDRESSES": "cf"}])]
    update = await run(ChannelReadCapability, text, steps, contexts=addresses("SR:DCCT:Current"))
    values = ChannelValuesContext.model_validate(stored(update, "CHANNEL_VALUES", "cr"))
    reading = values.channel_values["SR:DCCT:Current"]
    assert 400 < reading.value < 550 and reading.units == "mA"
    assert reading.alarm_severity in ("NO_ALARM", "MINOR", "MAJOR")
    assert reading.timestamp.tzinfo is not None
    assert "mA" in values.get_summary()["values"]["SR:DCCT:Current"]
    commands = update["ui_launchable_commands"]
    uris = [c["launch_uri"] for c in commands]
    assert "osprey-desktop://stripchart?channels=SR:DCCT:Current" in uris
    assert "osprey-desktop://launch/display_tool?channel=SR:DCCT:Current" in uris


async def test_an_unreadable_channel_is_reported_next_to_the_readable_ones(connectors):
    text = "read them"
    steps = [step("channel_read", text, "cr", [{"CHANNEL_ADDRESSES": "cf"}])]
    contexts = addresses("SR:DCCT:Current", "SR99C:NOPE:X")
    update = await run(ChannelReadCapability, text, steps, contexts=contexts)
    values = stored(update, "CHANNEL_VALUES", "cr")
    assert list(values["channel_values"]) == ["SR:DCCT:Current"]
    assert "SR99C:NOPE:X" in values["errors"]


# -- archiver_retrieval ---------------------------------------------------------------------


def time_range_context(hours: float, key: str = "tr") -> dict[str, Any]:
    from datetime import UTC, datetime

    end = datetime.now(UTC)
    context = TimeRangeContext(
        start_date=end - timedelta(hours=hours), end_date=end, timezone_name="UTC"
    )
    return {"TIME_RANGE": {key: context.model_dump(mode="json")}}


async def test_archiver_retrieval_stores_history_and_registers_a_timeseries_plot(connectors):
    text = "plot the beam current over the last 2 hours"
    inputs = [{"CHANNEL_ADDRESSES": "cf"}, {"TIME_RANGE": "tr"}]
    steps = [step("archiver_retrieval", text, "ar", inputs)]
    contexts = {**addresses("SR:DCCT:Current"), **time_range_context(2)}
    update = await run(ArchiverRetrievalCapability, text, steps, contexts=contexts)
    data = ArchiverDataContext.model_validate(stored(update, "ARCHIVER_DATA", "ar"))
    stamps = data.timestamps["SR:DCCT:Current"]
    assert 100 < len(stamps) <= ArchiverRetrievalCapability.MAX_POINTS
    assert stamps == sorted(stamps) and data.units["SR:DCCT:Current"] == "mA"
    assert data.get_summary()["channels"]["SR:DCCT:Current"]["mean"].endswith("mA")
    (figure,) = update["ui_captured_figures"]
    assert figure["metadata"] == {
        "figure_type": "timeseries",
        "context_type": "ARCHIVER_DATA",
        "context_key": "ar",
        "channels": ["SR:DCCT:Current"],
    }
    kinds = [c["command_type"] for c in update["ui_launchable_commands"]]
    assert kinds == ["stripchart", "desktop_app"], "no Appliance viewer on the sim archiver"


async def test_archiver_appliance_viewer_link_names_the_channels_and_range(connectors, configure):
    configure({"archiver": {"type": "archiver_appliance"}})
    the_step = step("archiver_retrieval", "plot", "ar")
    capability = ArchiverRetrievalCapability(state_for("plot", [the_step]), the_step)
    time_range = TimeRangeContext.model_validate(time_range_context(1)["TIME_RANGE"]["tr"])
    commands = capability._commands(["SR:DCCT:Current", "SR:DCCT:Lifetime"], time_range)
    (viewer,) = [c for c in commands if c["command_type"] == "web_app"]
    assert viewer["launch_uri"].startswith(
        "http://127.0.0.1:17665/retrieval/ui/viewer/archViewer.html?pv=SR%3ADCCT%3ACurrent"
        "&pv=SR%3ADCCT%3ALifetime&from="
    )
    assert viewer["launch_uri"] == viewer_url(
        "http://127.0.0.1:17665/retrieval/ui/viewer/archViewer.html",
        ["SR:DCCT:Current", "SR:DCCT:Lifetime"],
        time_range.start_date,
        time_range.end_date,
    )


# -- channel_write: what the planner is told before anything runs -------------------------


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("set HCM01", "What value should I write?"),
        ("increase the ID04 gap", "What value should I write?"),
        ("set it to 1.5 A", "Which channel should I change?"),
    ],
)
def test_a_write_request_says_what_it_is_missing(text, fragment):
    assert fragment in ChannelWriteCapability().missing_information(text, {})


def test_a_complete_write_request_is_missing_nothing():
    assert ChannelWriteCapability().missing_information("set HCM01 to 1.5 A", {}) is None
    stored_addresses = {"capability_context_data": addresses("SR01C:HCM01:Current:SP")}
    assert ChannelWriteCapability().missing_information("set it to 1 A", stored_addresses) is None
