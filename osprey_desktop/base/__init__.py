"""Framework base types: planning structures, capabilities, errors and infrastructure nodes.

The names a capability author needs most are re-exported here.
"""

from osprey_desktop.base.capability import BaseCapability, MissingInputContextError
from osprey_desktop.base.errors import (
    ClarificationRequired,
    ErrorClassification,
    ErrorSeverity,
    RetryPolicy,
)

__all__ = [
    "BaseCapability",
    "ClarificationRequired",
    "ErrorClassification",
    "ErrorSeverity",
    "MissingInputContextError",
    "RetryPolicy",
]
