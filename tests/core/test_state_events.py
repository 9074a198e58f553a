"""Status updates, progress events and the execution steps summary (spec examples)."""

from datetime import datetime

import pytest

from osprey_desktop.state import (
    create_progress_event,
    create_status_update,
    get_execution_steps_summary,
)


def test_spec_example_basic_status_update():
    update = create_status_update("Processing data", 0.5)
    (event,) = update["status_updates"]
    assert event["message"] == "Processing data"
    assert event["progress"] == 0.5
    assert event["complete"] is False
    assert datetime.fromisoformat(event["timestamp"]).tzinfo is not None


def test_spec_example_completion_status_with_metadata():
    update = create_status_update(
        "Analysis complete", 1.0, complete=True, node="data_analysis", items_processed=150
    )
    event = update["status_updates"][0]
    assert event["complete"] is True
    assert event["items_processed"] == 150
    assert event["node"] == "data_analysis"


@pytest.mark.parametrize("progress", [-0.1, 1.5])
def test_status_progress_outside_zero_to_one_is_refused(progress):
    with pytest.raises(ValueError, match="between 0.0 and 1.0"):
        create_status_update("x", progress)


def test_status_metadata_cannot_overwrite_the_message():
    with pytest.raises(ValueError, match=r"may not redefine \['timestamp'\]"):
        create_status_update("x", 0.1, timestamp="yesterday")


def test_spec_example_basic_progress():
    event = create_progress_event(3, 10, "Processing files")["progress_events"][0]
    assert event["current"] == 3
    assert event["total"] == 10
    assert event["progress"] == pytest.approx(0.3)
    assert event["operation"] == "Processing files"


def test_spec_example_progress_with_metadata():
    event = create_progress_event(
        5, 20, "Analyzing data points", file_name="data.csv", bytes_processed=1024
    )["progress_events"][0]
    assert event["operation"] == "Analyzing data points"
    assert event["file_name"] == "data.csv"
    assert event["bytes_processed"] == 1024
    assert event["progress"] == 0.25


def test_spec_example_empty_operation_has_zero_progress():
    assert create_progress_event(0, 0, "Empty operation")["progress_events"][0]["progress"] == 0.0


def test_negative_progress_counts_are_refused():
    with pytest.raises(ValueError, match="must not be negative"):
        create_progress_event(-1, 3, "x")


def test_progress_metadata_cannot_overwrite_the_counts():
    with pytest.raises(ValueError, match=r"\['progress'\]"):
        create_progress_event(1, 3, "x", progress=0.9)


def test_spec_example_steps_summary_in_step_order():
    state = {
        "execution_step_results": {
            "step2": {"step_index": 1, "task_objective": "Retrieve values"},
            "step1": {"step_index": 0, "task_objective": "Find PV addresses"},
        }
    }
    assert get_execution_steps_summary(state) == [
        "Step 1: Find PV addresses",
        "Step 2: Retrieve values",
    ]


def test_spec_example_empty_results_give_empty_summary():
    assert get_execution_steps_summary({"execution_step_results": {}}) == []
    assert get_execution_steps_summary({}) == []


def test_spec_example_capability_name_is_the_fallback():
    state = {"execution_step_results": {"step1": {"step_index": 0, "capability": "pv_finder"}}}
    assert get_execution_steps_summary(state)[0] == "Step 1: pv_finder"


def test_results_without_step_index_come_last_in_recorded_order():
    state = {
        "execution_step_results": {
            "late_a": {"task_objective": "A"},
            "first": {"step_index": 0, "task_objective": "First"},
            "late_b": {"capability": "b_cap"},
            "bad": "not a dict",
        }
    }
    assert get_execution_steps_summary(state) == ["Step 1: First", "Step 2: A", "Step 3: b_cap"]
