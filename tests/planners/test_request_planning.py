"""The built-in planner plans from the parse of the whole request (simulated ring's list)."""

from __future__ import annotations

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from osprey_desktop.planners.builtin import BuiltinPlanner, explain_request
from tests.support.planning import fresh_framework, names, plan  # noqa: F401 - the fixture


async def test_an_unknown_verb_is_asked_about_by_name_and_nothing_runs():
    steps = await plan("straighten the orbit in sector 5")
    assert names(steps) == ["clarify"]
    assert "“straighten”" in steps[0]["parameters"]["reason"]


async def test_a_state_of_something_the_list_lacks_is_asked_about_naming_the_word():
    steps = await plan("shut the sector 6 valve")
    assert names(steps) == ["clarify"]
    assert "“valve”" in steps[0]["parameters"]["reason"]


@pytest.mark.parametrize(
    "text",
    ["make QD04 match QD02", "bring VCM11 in line with VCM12", "HCM09 0.2 A higher"],
)
async def test_changes_without_a_known_write_form_plan_a_write(text):
    assert "channel_write" in names(await plan(text))


@pytest.mark.parametrize(
    "text",
    ["tunes, chromaticity and lifetime", "why does the lifetime fall when the pressure rises?"],
)
async def test_nouns_and_questions_that_use_change_words_plan_no_write(text):
    assert "channel_write" not in names(await plan(text))


async def test_each_item_of_a_list_goes_to_channel_finding():
    steps = await plan("beam current, lifetime, vacuum and RF please")
    assert names(steps) == ["channel_finding", "channel_read", "respond"]
    # a quantity named by its words alone is read as measured (its readback)
    assert steps[0]["parameters"]["targets"] == [
        "beam current readback",
        "lifetime",
        "vacuum",
        "RF",
    ]


async def test_names_only_the_list_lacks_reach_the_finder_instead_of_the_help_text():
    assert names(await plan("klystron reflected power?")) == [
        "channel_finding",
        "channel_read",
        "respond",
    ]


async def test_a_follow_up_value_replaces_the_quantity_of_the_previous_request():
    messages = [
        HumanMessage("set HCM09 to 0.6 A"),
        AIMessage("Nothing was written."),
        HumanMessage("ok, 0.55 then"),
    ]
    task = await BuiltinPlanner().extract_task(messages, {})
    assert task.task == "set HCM09 to 0.55 A"
    assert "channel_write" in names(await plan(task.task))


def test_explain_shows_the_parse_of_a_follow_up():
    parsed = explain_request(
        "same for the vacuum in sector 4", "plot the beam current for the last hour"
    )
    assert parsed.intent == "plot"
    assert parsed.targets == ("the vacuum in sector 4",)
    assert parsed.canonical == "plot the vacuum in sector 4 for the last hour"


def test_ask_explain_prints_the_parse_before_the_answer(isolated_config):
    import os

    from tests.support.cli_process import run_osprey

    done = run_osprey(
        ["ask", "--explain", "beam current and lifetime"],
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
        cwd=os.getcwd(),
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    head = done.stdout.split("\n\n", 1)[0]
    assert "intent:       read" in head
    assert "targets:      beam current, lifetime" in head
    assert "unused words: -" in head
    assert "SR:DCCT:Lifetime" in done.stdout


async def test_a_history_whose_time_no_capability_words_match_is_still_a_history():
    steps = names(await plan("did the ID07 gap move overnight?"))
    assert steps[:2] == ["channel_finding", "time_range_parsing"]
    assert "channel_read" not in steps


def test_a_request_naming_nothing_known_is_answered_with_the_words_that_fit_nothing():
    from osprey_desktop.planners.builtin_answers import _unplaced_note

    assert "“bake”, “cake”" in _unplaced_note("bake the cake")


@pytest.mark.parametrize(
    "text", ["tunes, chromaticity and lifetime", "trim values of the sector 4 correctors?"]
)
def test_a_noun_that_is_also_a_change_verb_asks_for_no_change(text):
    from osprey_desktop.planners.builtin import asks_for_change

    assert not asks_for_change(text)


async def test_a_copy_without_a_change_verb_plans_the_read_and_the_write():
    steps = await plan("give VCM05 the same current as VCM06")
    assert names(steps) == ["channel_finding", "channel_read", "channel_write", "respond"]


async def test_a_restore_finds_the_channel_before_the_archived_value():
    steps = await plan("put QD12 back the way it was yesterday at noon")
    assert names(steps) == [
        "channel_finding",
        "time_range_parsing",
        "archiver_retrieval",
        "channel_write",
        "respond",
    ]


async def test_a_first_request_changing_it_is_asked_what_it_is_before_any_lookup():
    steps = await plan("nudge it down a bit")
    assert names(steps) == ["clarify"]


async def test_a_comparison_with_an_adjective_finds_only_the_channel():
    steps = await plan("is the lifetime worse now than at 9 this morning?")
    assert steps[0]["parameters"]["targets"] == ["the lifetime"]


async def test_a_revert_to_a_named_moment_restores_from_the_archive_not_the_undo():
    steps = await plan("revert HCM 11 to how it was two hours ago")
    assert names(steps)[-2:] == ["channel_write", "respond"]
    assert "archiver_retrieval" in names(steps)
