"""Type and cardinality constraints of ``ContextManager.extract_from_step``.

Kept apart from the manager so the rules (and their error messages) read in one place.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

Constraint = str | tuple[str, str]
CARDINALITIES = ("single", "multiple")
CONSTRAINT_MODES = ("hard", "soft")


def parse_constraints(constraints: Sequence[Constraint]) -> tuple[list[str], dict[str, str]]:
    """Required types in the caller's order, and the cardinality asked of some of them."""
    required: list[str] = []
    cardinality: dict[str, str] = {}
    for constraint in constraints:
        if isinstance(constraint, str):
            context_type = constraint
        elif isinstance(constraint, tuple | list) and len(constraint) == 2:
            context_type, wanted = constraint
            if wanted not in CARDINALITIES:
                raise ValueError(
                    f"Invalid cardinality '{wanted}' for {context_type}. "
                    "Must be 'single' or 'multiple'"
                )
            cardinality[context_type] = wanted
        else:
            raise ValueError(
                f"Invalid constraint {constraint!r}: use a context type string or a "
                "(context_type, 'single' | 'multiple') tuple"
            )
        if not isinstance(context_type, str) or not context_type:
            raise ValueError(f"Invalid constraint {constraint!r}: the context type must be a name")
        if context_type not in required:
            required.append(context_type)
    return required, cardinality


def check_constraints(
    results: dict[str, Any],
    constraints: Sequence[Constraint],
    constraint_mode: str,
    step_has_inputs: bool,
) -> None:
    """Raise ValueError naming the missing type or the cardinality breach; return when met."""
    required, cardinality = parse_constraints(constraints)
    found = [t for t in required if t in results]
    no_inputs = "" if step_has_inputs else " (the step lists no inputs)"
    if constraint_mode == "hard":
        missing = [t for t in required if t not in results]
        if missing:
            raise ValueError(f"Missing required context types: {missing}{no_inputs}")
    elif not found:
        raise ValueError(f"None of the required context types found: {required}{no_inputs}")

    for context_type, wanted in cardinality.items():
        if context_type not in results:
            continue  # soft mode: absence already accepted above
        value = results[context_type]
        if wanted == "single" and isinstance(value, list):
            raise ValueError(
                f"Context type '{context_type}' expected single instance "
                f"but got {len(value)} instances"
            )
        if wanted == "multiple" and not isinstance(value, list):
            raise ValueError(
                f"Context type '{context_type}' expected multiple instances but got single instance"
            )


def check_constraint_mode(constraint_mode: str) -> None:
    if constraint_mode not in CONSTRAINT_MODES:
        raise ValueError(f"Invalid constraint_mode: {constraint_mode}. Use 'hard' or 'soft'")


__all__ = [
    "CARDINALITIES",
    "CONSTRAINT_MODES",
    "Constraint",
    "check_constraint_mode",
    "check_constraints",
    "parse_constraints",
]
