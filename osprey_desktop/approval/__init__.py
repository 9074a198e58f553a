"""Human approval through LangGraph interrupts: payloads, policy and decisions."""

from osprey_desktop.approval.answers import (
    APPROVAL_WORDS,
    REJECTION_WORDS,
    normalize_answer,
    parse_approval_answer,
)
from osprey_desktop.approval.decisions import (
    ApprovalDecision,
    normalize_decision,
    request_approval,
    request_payload_approval,
)
from osprey_desktop.approval.payloads import (
    APPROVAL_TYPES,
    create_approval_payload,
    create_capability_step_approval_payload,
    create_plan_approval_payload,
    create_step_approval_payload,
    describe_step,
)
from osprey_desktop.approval.policy import APPROVAL_MODES, get_approval_mode, requires_approval
from osprey_desktop.approval.step_gate import (
    STEP_REJECTED_AFTER_STEPS,
    STEP_REJECTED_NOTHING_RUN,
    ask_before_step,
    rejected_step_updates,
    step_needs_approval,
)

__all__ = [
    "APPROVAL_MODES",
    "APPROVAL_TYPES",
    "APPROVAL_WORDS",
    "REJECTION_WORDS",
    "STEP_REJECTED_AFTER_STEPS",
    "STEP_REJECTED_NOTHING_RUN",
    "ApprovalDecision",
    "ask_before_step",
    "create_approval_payload",
    "create_capability_step_approval_payload",
    "create_plan_approval_payload",
    "create_step_approval_payload",
    "describe_step",
    "get_approval_mode",
    "normalize_decision",
    "normalize_answer",
    "parse_approval_answer",
    "request_approval",
    "request_payload_approval",
    "rejected_step_updates",
    "requires_approval",
    "step_needs_approval",
]
