"""ExecutionPlan / PlannedStep and the plan validator the planners and router rely on."""

import json
from typing import get_type_hints

import pytest

from osprey_desktop.base.planning import (
    ExecutionPlan,
    PlannedStep,
    execution_plan_problems,
    validate_execution_plan,
)


def spec_plan():
    """The two-step plan of the spec's orchestration example."""
    return ExecutionPlan(
        steps=[
            PlannedStep(
                context_key="search_step",
                capability="pv_address_finding",
                task_objective="Find beam current PV addresses",
                success_criteria="PV addresses discovered",
                expected_output="PV_ADDRESSES",
                inputs=[],
            ),
            PlannedStep(
                context_key="analysis_step",
                capability="data_analysis",
                task_objective="Analyze beam current data",
                success_criteria="Analysis completed",
                expected_output="ANALYSIS_RESULTS",
                inputs=[{"PV_ADDRESSES": "search_step"}],
                parameters={"window_s": 60},
            ),
        ]
    )


def test_planned_step_declares_the_spec_fields():
    assert set(get_type_hints(PlannedStep)) == {
        "context_key",
        "capability",
        "task_objective",
        "success_criteria",
        "expected_output",
        "parameters",
        "inputs",
    }
    assert set(get_type_hints(ExecutionPlan)) == {"steps"}


def test_spec_plan_is_a_plain_json_dict_and_valid():
    plan = spec_plan()
    assert json.loads(json.dumps(plan)) == plan
    assert execution_plan_problems(plan) == []
    assert validate_execution_plan(plan) is plan
    assert plan["steps"][1]["inputs"] == [{"PV_ADDRESSES": "search_step"}]


def test_an_empty_plan_is_valid():
    assert validate_execution_plan({"steps": []}) == {"steps": []}


@pytest.mark.parametrize(
    "plan,problem",
    [
        (None, "must be a dict with a 'steps' list, got NoneType"),
        ({"steps": "x"}, "'steps' must be a list, got str"),
        ({"steps": [3]}, "step 1 must be a dict, got int"),
        ({"steps": [{"capability": "c"}]}, "step 1 needs a non-empty string 'context_key'"),
        ({"steps": [{"context_key": "k", "capability": ""}]}, "needs a non-empty string 'capab"),
        (
            {"steps": [{"context_key": "k", "capability": "c", "task_objective": 3}]},
            "field 'task_objective' must be a string",
        ),
        (
            {"steps": [{"context_key": "k", "capability": "c", "expected_output": 1}]},
            "'expected_output' must be a string or null",
        ),
        (
            {"steps": [{"context_key": "k", "capability": "c", "parameters": [1]}]},
            "'parameters' must be a dict or null",
        ),
        (
            {"steps": [{"context_key": "k", "capability": "c", "inputs": "PV"}]},
            "'inputs' must be a list",
        ),
        (
            {"steps": [{"context_key": "k", "capability": "c", "inputs": [{"PV": 1}]}]},
            "input {'PV': 1} must be a {context_type: context_key} dict of strings",
        ),
    ],
)
def test_malformed_plans_are_refused_naming_the_step_and_field(plan, problem):
    assert any(problem in p for p in execution_plan_problems(plan))
    with pytest.raises(ValueError, match="Invalid execution plan: "):
        validate_execution_plan(plan)


def test_every_problem_is_listed_not_only_the_first():
    plan = {"steps": [{"capability": "c"}, {"context_key": "k"}]}
    problems = execution_plan_problems(plan)
    assert problems == [
        "step 1 needs a non-empty string 'context_key'",
        "step 2 needs a non-empty string 'capability'",
    ]
