"""Human approval through LangGraph interrupts: payloads, policy and decisions."""

from osprey_desktop.approval.decisions import (
    APPROVE_WORDS,
    REJECT_WORDS,
    ApprovalDecision,
    normalize_decision,
    parse_approval_text,
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
    "APPROVE_WORDS",
    "REJECT_WORDS",
    "ApprovalDecision",
    "create_approval_payload",
    "create_plan_approval_payload",
    "create_step_approval_payload",
    "describe_step",
    "get_approval_mode",
    "normalize_decision",
    "parse_approval_text",
    "request_approval",
    "request_payload_approval",
    "requires_approval",
]
