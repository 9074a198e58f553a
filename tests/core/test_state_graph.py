"""AgentState inside a real LangGraph graph with the SQLite checkpointer: what persists."""

import sqlite3
import warnings

import pytest
from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.graph import END, START, StateGraph

from osprey_desktop.config import default_config_path, load_config, reset_config, set_config
from osprey_desktop.context import CapabilityContext, ContextManager
from osprey_desktop.context import base as context_base
from osprey_desktop.state import AgentState, StateManager


@pytest.fixture
def reading_class():
    saved = dict(context_base._CONTEXT_CLASSES)
    set_config(load_config(default_config_path()))  # no user file can leak in

    class ChannelReading(CapabilityContext):
        CONTEXT_TYPE = "TEST_CHANNEL_READING"
        channel: str
        value: float

        def get_access_details(self, key):
            return {"access_pattern": f"context.TEST_CHANNEL_READING.{key}.value"}

    yield ChannelReading
    context_base._CONTEXT_CLASSES.clear()
    context_base._CONTEXT_CLASSES.update(saved)
    reset_config()


@pytest.fixture
def graph(reading_class, tmp_path):
    def read_channel(state: AgentState):
        turn = len([m for m in state["messages"] if m.type == "human"])
        reading = reading_class(channel="SR:CURRENT", value=500.0 + turn)
        return {
            **StateManager.store_context(state, "TEST_CHANNEL_READING", f"turn_{turn}", reading),
            "session_state": {f"seen_turn_{turn}": True},
            "task_current_task": f"read turn {turn}",
            "control_retry_count": turn,
            "execution_step_results": {f"turn_{turn}": {"step_index": 0}},
        }

    builder = StateGraph(AgentState)
    builder.add_node("read_channel", read_channel)
    builder.add_edge(START, "read_channel")
    builder.add_edge("read_channel", END)
    connection = sqlite3.connect(tmp_path / "threads.sqlite", check_same_thread=False)
    yield builder.compile(checkpointer=SqliteSaver(connection))
    connection.close()


def test_context_and_session_state_accumulate_while_execution_fields_reset(graph):
    config = {"configurable": {"thread_id": "t1"}}
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # an "unregistered type" warning would fail here
        first = graph.invoke(StateManager.create_fresh_state("read it"), config)
        previous = graph.get_state(config).values
        second_input = StateManager.create_fresh_state("again", current_state=previous)
        assert second_input["execution_step_results"] == {}
        second = graph.invoke(second_input, config)

    assert set(first["capability_context_data"]["TEST_CHANNEL_READING"]) == {"turn_1"}
    assert set(second["capability_context_data"]["TEST_CHANNEL_READING"]) == {"turn_1", "turn_2"}
    assert second["session_state"] == {"seen_turn_1": True, "seen_turn_2": True}
    assert second["execution_step_results"] == {"turn_2": {"step_index": 0}}
    assert second["control_retry_count"] == 2
    assert [m.content for m in second["messages"]] == ["read it", "again"]


def test_context_reads_back_typed_from_the_checkpoint(graph, reading_class):
    config = {"configurable": {"thread_id": "t2"}}
    graph.invoke(StateManager.create_fresh_state("read it"), config)
    values = graph.get_state(config).values
    reading = ContextManager(values).TEST_CHANNEL_READING.turn_1
    assert isinstance(reading, reading_class)
    assert reading.value == 501.0
