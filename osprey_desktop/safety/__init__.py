"""Write safety: the limits database, the write policy (master switch, fail closed), the audit log.

``channel_write`` uses it like this::

    policy = WritePolicy.from_config(writes_enabled=agent_control.get("writes_enabled"))
    check = await policy.evaluate(connector, channel, value)        # before approval
    ...                                                              # approval interrupt
    outcome = await perform_guarded_write(connector, policy, AuditLog(get_audit_db_path()),
                                          channel, value, thread_id=..., approval_id=...)
"""

from __future__ import annotations

from osprey_desktop.lazy_names import lazy_names

# Imported on first use (PEP 562), so that importing one module of this package (the window's
# activity dock, say) does not load every other one with it before the window first paints.
_EXPORTS: dict[str, str] = {
    "OUTCOMES": "osprey_desktop.safety.audit",
    "AuditEntry": "osprey_desktop.safety.audit",
    "AuditError": "osprey_desktop.safety.audit",
    "AuditLog": "osprey_desktop.safety.audit",
    "current_operator": "osprey_desktop.safety.audit",
    "GuardedWriteOutcome": "osprey_desktop.safety.guarded_write",
    "perform_guarded_write": "osprey_desktop.safety.guarded_write",
    "record_intent": "osprey_desktop.safety.guarded_write",
    "record_refused_write": "osprey_desktop.safety.guarded_write",
    "record_rejected_write": "osprey_desktop.safety.guarded_write",
    "send_and_record": "osprey_desktop.safety.guarded_write",
    "LimitRule": "osprey_desktop.safety.limits",
    "LimitsConfigError": "osprey_desktop.safety.limits",
    "LimitsDatabase": "osprey_desktop.safety.limits",
    "LimitsError": "osprey_desktop.safety.limits",
    "WriteCheck": "osprey_desktop.safety.limits",
    "load_limits_database": "osprey_desktop.safety.limits",
    "READ_ONLY_MESSAGE": "osprey_desktop.safety.write_policy",
    "WritePolicy": "osprey_desktop.safety.write_policy",
    "writes_disabled_message": "osprey_desktop.safety.write_policy",
}


__getattr__, __dir__ = lazy_names(__name__, _EXPORTS)


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
