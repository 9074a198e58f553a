"""The error report's advice fits the failure: a model that did not answer is not a typo."""

from __future__ import annotations

from osprey_desktop.base.errors import default_error_classification
from osprey_desktop.infrastructure.error_node import build_error_report
from osprey_desktop.planners.model_endpoint import EndpointUnavailable


def _report(exc: BaseException) -> str:
    classification = default_error_classification(exc, "task extraction")
    info = {**classification.to_dict(), "node": "task_extraction"}
    report, _ = build_error_report({"control_error_info": info})
    return report


def test_a_model_that_did_not_answer_is_advised_about_the_service_not_the_request() -> None:
    report = _report(
        EndpointUnavailable("the language model at http://127.0.0.1:9/v1 did not answer within 2 s")
    )
    advice = report.split("**What to do next:**", 1)[1]
    assert "timeout_seconds" in advice and "fallback_to_builtin" in advice
    assert "Check the names, values and time ranges" not in report


def test_an_error_without_a_suggestion_keeps_the_advice_of_its_severity() -> None:
    report = _report(ValueError("no channel 'XYZ'"))
    assert "Check the names, values and time ranges" in report.split("**What to do next:**")[1]
