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
    create_plan_approval_payload,
    create_step_approval_payload,
    describe_step,
)
from osprey_desktop.approval.policy import APPROVAL_MODES, get_approval_mode, requires_approval

__all__ = [
    "APPROVAL_MODES",
    "APPROVAL_TYPES",
    "APPROVAL_WORDS",
    "REJECTION_WORDS",
    "ApprovalDecision",
    "create_approval_payload",
    "create_plan_approval_payload",
    "create_step_approval_payload",
    "describe_step",
    "get_approval_mode",
    "normalize_decision",
    "normalize_answer",
    "parse_approval_answer",
    "request_approval",
    "request_payload_approval",
    "requires_approval",
]
