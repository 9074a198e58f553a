"""Write safety: the limits database, the write policy (master switch, fail closed), the audit log.

``channel_write`` uses it like this::

    policy = WritePolicy.from_config(writes_enabled=agent_control.get("writes_enabled"))
    check = await policy.evaluate(connector, channel, value)        # before approval
    ...                                                              # approval interrupt
    outcome = await perform_guarded_write(connector, policy, AuditLog(get_audit_db_path()),
                                          channel, value, thread_id=..., approval_id=...)
"""

from osprey_desktop.safety.audit import OUTCOMES, AuditEntry, AuditError, AuditLog, current_operator
from osprey_desktop.safety.guarded_write import (
    GuardedWriteOutcome,
    perform_guarded_write,
    record_intent,
    record_refused_write,
    record_rejected_write,
    send_and_record,
)
from osprey_desktop.safety.limits import (
    LimitRule,
    LimitsConfigError,
    LimitsDatabase,
    LimitsError,
    WriteCheck,
    load_limits_database,
)
from osprey_desktop.safety.write_policy import (
    READ_ONLY_MESSAGE,
    WritePolicy,
    writes_disabled_message,
)

__all__ = [
    "OUTCOMES",
    "READ_ONLY_MESSAGE",
    "AuditEntry",
    "AuditError",
    "AuditLog",
    "GuardedWriteOutcome",
    "LimitRule",
    "LimitsDatabase",
    "LimitsConfigError",
    "LimitsError",
    "WriteCheck",
    "WritePolicy",
    "current_operator",
    "load_limits_database",
    "perform_guarded_write",
    "record_intent",
    "record_refused_write",
    "record_rejected_write",
    "send_and_record",
    "writes_disabled_message",
]
