"""StateManager: fresh states, plan and step reads, context storage and UI registrations."""

from datetime import datetime

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from osprey_desktop.config import load_config, reset_config, set_config
from osprey_desktop.context import CapabilityContext, ContextManager
from osprey_desktop.state import PERSISTENT_FIELDS, AgentState, StateManager


@pytest.fixture
def configured(tmp_path):
    """A config whose agent-control values differ from the shipped defaults."""
    user_file = tmp_path / "config.yaml"
    user_file.write_text(
        "execution_control:\n"
        "  agent_control:\n"
        "    orchestration_mode: react\n"
        "  limits:\n"
        "    max_step_retries: 5\n"
    )
    set_config(load_config(user_file))
    yield
    reset_config()


@pytest.fixture
def sample_context(restore_context_classes):
    """A context class registered for this test only."""

    class PVAddresses(CapabilityContext):
        CONTEXT_TYPE = "PV_ADDRESSES"
        CONTEXT_CATEGORY = "METADATA"
        pvs: list[str]
        description: str = ""
        found_at: datetime | None = None

        def get_access_details(self, key):
            return {"access_pattern": f"context.PV_ADDRESSES.{key}.pvs"}

    return PVAddresses


def _previous_state():
    state = StateManager.create_fresh_state("first request")
    state.update(
        capability_context_data={
            "PV_ADDRESSES": {"a": {"pvs": []}},
            "TIME_RANGE": {"t": {}},
            "ARCHIVER_DATA": {"d": {}},
        },
        session_state={"write_limit_override": False},
        task_current_task="Find beam current PVs",
        execution_step_results={"step_1": {"step_index": 0}},
        control_has_error=True,
        control_retry_count=2,
        ui_captured_figures=[{"figure_path": "x.png"}],
        react_step_count=4,
        approval_approved=True,
    )
    return state


# ----- create_fresh_state --------------------------------------------------------------


def test_spec_example_fresh_state_has_no_task_and_one_message(configured):
    state = StateManager.create_fresh_state("Find beam current PVs")
    assert state["task_current_task"] is None
    assert len(state["messages"]) == 1
    assert isinstance(state["messages"][0], HumanMessage)
    assert state["messages"][0].content == "Find beam current PVs"


def test_spec_example_context_survives_and_execution_state_resets(configured):
    previous = _previous_state()
    new_state = StateManager.create_fresh_state("Show me the latest data", previous)
    assert len(new_state["capability_context_data"]) == 3
    assert new_state["execution_step_results"] == {}
    assert new_state["session_state"] == {"write_limit_override": False}


def test_every_field_except_the_persistent_ones_returns_to_its_default(configured):
    defaults = StateManager.create_fresh_state("x")
    carried = StateManager.create_fresh_state("x", _previous_state())
    for field in AgentState.__annotations__:
        if field in PERSISTENT_FIELDS or field == "messages":
            continue
        assert carried[field] == defaults[field], field


def test_fresh_state_fills_every_declared_field(configured):
    state = StateManager.create_fresh_state("x")
    assert set(state) == set(AgentState.__annotations__)


def test_fresh_state_without_previous_has_empty_persistent_fields(configured):
    state = StateManager.create_fresh_state("x")
    assert state["capability_context_data"] == {}
    assert state["session_state"] == {}


def test_agent_control_comes_from_the_configured_defaults(configured):
    state = StateManager.create_fresh_state("x")
    assert state["agent_control"]["orchestration_mode"] == "react"
    assert state["agent_control"]["max_step_retries"] == 5
    assert state["control_max_retries"] == 5


def test_agent_control_is_a_fresh_copy_per_state(configured):
    first = StateManager.create_fresh_state("x")
    first["agent_control"]["planning_mode_enabled"] = True
    assert StateManager.create_fresh_state("y")["agent_control"]["planning_mode_enabled"] is False


def test_fresh_state_refuses_a_non_string_request(configured):
    with pytest.raises(TypeError, match="user_input must be a string"):
        StateManager.create_fresh_state(None)


# ----- reads ---------------------------------------------------------------------------


def test_get_current_task_and_messages():
    state = {"task_current_task": "Read the ring current", "messages": [HumanMessage("hi")]}
    assert StateManager.get_current_task(state) == "Read the ring current"
    assert [m.content for m in StateManager.get_messages(state)] == ["hi"]
    assert StateManager.get_current_task({}) is None
    assert StateManager.get_messages({}) == []


def test_user_query_is_the_latest_human_message():
    state = {
        "messages": [
            HumanMessage("first"),
            AIMessage("answer"),
            HumanMessage([{"type": "text", "text": "second "}, {"type": "text", "text": "one"}]),
            AIMessage("another answer"),
        ]
    }
    assert StateManager.get_user_query(state) == "second one"


def test_user_query_reads_dict_messages_and_is_none_without_user_messages():
    assert StateManager.get_user_query({"messages": [{"role": "user", "content": "hey"}]}) == "hey"
    assert StateManager.get_user_query({"messages": [AIMessage("only me")]}) is None
    assert StateManager.get_user_query({}) is None


PLAN = {
    "steps": [
        {"context_key": "search", "capability": "channel_finding", "task_objective": "Find"},
        {"context_key": "read", "capability": "channel_read", "task_objective": "Read"},
    ]
}


def test_execution_plan_is_returned_when_well_formed():
    assert StateManager.get_execution_plan({"planning_execution_plan": PLAN}) is PLAN


@pytest.mark.parametrize(
    "plan",
    [None, "steps", {"no_steps": []}, {"steps": "abc"}, {"steps": [1, 2]}, ["not a dict"]],
)
def test_execution_plan_is_none_when_absent_or_malformed(plan):
    assert StateManager.get_execution_plan({"planning_execution_plan": plan}) is None


def test_current_step_follows_the_index():
    state = {"planning_execution_plan": PLAN, "planning_current_step_index": 1}
    assert StateManager.get_current_step_index(state) == 1
    assert StateManager.get_current_step(state)["capability"] == "channel_read"


def test_current_step_index_defaults_to_zero():
    assert StateManager.get_current_step_index({}) == 0
    assert StateManager.get_current_step_index({"planning_current_step_index": "2"}) == 0
    step = StateManager.get_current_step({"planning_execution_plan": PLAN})
    assert step["context_key"] == "search"


def test_current_step_without_a_plan_raises_runtime_error():
    with pytest.raises(RuntimeError, match="No execution plan"):
        StateManager.get_current_step({})


@pytest.mark.parametrize("index", [2, -1])
def test_current_step_outside_the_plan_raises_runtime_error(index):
    state = {"planning_execution_plan": PLAN, "planning_current_step_index": index}
    with pytest.raises(RuntimeError, match=f"index {index} is outside the plan"):
        StateManager.get_current_step(state)


# ----- updates ---------------------------------------------------------------------------


def test_store_context_returns_only_the_new_entry_as_json(sample_context):
    found = datetime(2024, 1, 15, 10, 30)
    state = {"capability_context_data": {"PV_ADDRESSES": {"old": {"pvs": ["A"]}}}}
    update = StateManager.store_context(
        state, "PV_ADDRESSES", "step1", sample_context(pvs=["SR:C01"], found_at=found)
    )
    assert update == {
        "capability_context_data": {
            "PV_ADDRESSES": {
                "step1": {"pvs": ["SR:C01"], "description": "", "found_at": "2024-01-15T10:30:00"}
            }
        }
    }
    assert state["capability_context_data"] == {"PV_ADDRESSES": {"old": {"pvs": ["A"]}}}


def test_stored_context_reads_back_through_the_reducer(sample_context):
    from osprey_desktop.state import merge_capability_context_data

    state = {"capability_context_data": {}}
    update = StateManager.store_context(state, "PV_ADDRESSES", "k", sample_context(pvs=["X"]))
    merged = merge_capability_context_data(
        state["capability_context_data"], update["capability_context_data"]
    )
    assert ContextManager({"capability_context_data": merged}).PV_ADDRESSES.k.pvs == ["X"]


def test_store_context_rejects_an_unknown_type(sample_context):
    with pytest.raises(ValueError, match="Unknown context type: NOT_A_TYPE"):
        StateManager.store_context({}, "NOT_A_TYPE", "k", sample_context(pvs=[]))


def test_create_response_update_appends_an_assistant_message():
    update = StateManager.create_response_update("The ring current is 500 mA")
    (message,) = update["messages"]
    assert isinstance(message, AIMessage)
    assert message.content == "The ring current is 500 mA"


def test_register_figure_accumulates_onto_the_state_list():
    state = {"ui_captured_figures": [{"figure_path": "old.png"}]}
    update = StateManager.register_figure(
        state,
        capability="python_executor",
        figure_path="figures/analysis.png",
        display_name="Performance Analysis",
        metadata={"figure_type": "matplotlib_png"},
    )
    old, new = update["ui_captured_figures"]
    assert old == {"figure_path": "old.png"}
    assert new["capability"] == "python_executor"
    assert new["figure_path"] == "figures/analysis.png"
    assert new["display_name"] == "Performance Analysis"
    assert new["metadata"] == {"figure_type": "matplotlib_png"}
    assert datetime.fromisoformat(new["created_at"]).tzinfo is not None
    assert state["ui_captured_figures"] == [{"figure_path": "old.png"}]


def test_register_figure_prefers_the_given_current_list():
    update = StateManager.register_figure(
        {"ui_captured_figures": [{"figure_path": "from_state.png"}]},
        "cap",
        "/path/to/plot.png",
        current_figures=[{"figure_path": "pending.png"}],
    )
    paths = [f["figure_path"] for f in update["ui_captured_figures"]]
    assert paths == ["pending.png", "/path/to/plot.png"]
    assert update["ui_captured_figures"][1]["display_name"] is None
    assert update["ui_captured_figures"][1]["metadata"] == {}


def test_register_notebook_adds_a_dict_entry():
    update = StateManager.register_notebook(
        {"ui_captured_notebooks": [{"notebook_path": "a.ipynb"}]},
        capability="python_executor",
        notebook_path="/path/to/analysis.ipynb",
        notebook_link="http://localhost:8088/lab/tree/analysis.ipynb",
        display_name="Data Analysis Notebook",
        metadata={"cell_count": 12},
    )
    first, entry = update["ui_captured_notebooks"]
    assert first == {"notebook_path": "a.ipynb"}
    assert entry["notebook_link"] == "http://localhost:8088/lab/tree/analysis.ipynb"
    assert entry["notebook_path"] == "/path/to/analysis.ipynb"
    assert entry["display_name"] == "Data Analysis Notebook"
    assert entry["metadata"] == {"cell_count": 12}
    assert "created_at" in entry


def test_register_command_accumulates_and_keeps_every_field():
    state = {"ui_launchable_commands": [{"launch_uri": "file:///old.html"}]}
    update = StateManager.register_command(
        state,
        capability="data_visualizer",
        launch_uri="http://localhost:8080/dashboard",
        display_name="Interactive Dashboard",
        command_type="web_app",
        metadata={"port": 8080},
    )
    old, entry = update["ui_launchable_commands"]
    assert old["launch_uri"] == "file:///old.html"
    assert entry["capability"] == "data_visualizer"
    assert entry["command_type"] == "web_app"
    assert entry["display_name"] == "Interactive Dashboard"
    assert entry["metadata"] == {"port": 8080}
    assert "created_at" in entry


def test_register_command_with_current_commands_ignores_the_state_list():
    update = StateManager.register_command(
        {"ui_launchable_commands": [{"launch_uri": "a"}]},
        "file_processor",
        "file:///path/to/results.html",
        current_commands=[],
    )
    assert [c["launch_uri"] for c in update["ui_launchable_commands"]] == [
        "file:///path/to/results.html"
    ]
