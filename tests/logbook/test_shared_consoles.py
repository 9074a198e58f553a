"""Two consoles on one PostgreSQL database: an entry logged on one is found on the other, and
the other undoes the first one's write from the shared audit log."""

from __future__ import annotations

from osprey_desktop.logbook.store_postgres import PostgresLogbook
from osprey_desktop.safety.audit_postgres import PostgresAuditLog
from osprey_desktop.session import AgentSession

HCM01 = "SR01C:HCM01:Current:SP"


async def test_consoles_share_the_logbook_the_history_and_undo(postgres_url, connectors, machine):
    async with (
        AgentSession.open(db_path=postgres_url) as first,
        AgentSession.open(db_path=postgres_url) as second,
    ):
        await first.submit("set HCM01 to 1.5 A", "a1")
        await first.resume("a1", True)
        await first.submit("make a logbook entry: HCM01 raised for the sector 1 bump", "a1")
        logged = await first.resume("a1", True)
        assert "Logbook entry 1 made" in logged.response

        found = await second.submit("when was HCM01 last changed and why?", "b1")

        assert "HCM01 raised for the sector 1 bump" in found.response
        assert f"`{HCM01}` 0 → 1.5 (verified)" in found.response and "thread a1" in found.response

        asked = await second.submit("undo the last write", "b2")
        (op,) = asked.pending_approval["resume_payload"]["operations"]
        assert (op["channel"], op["new_value"]) == (HCM01, 0.0)
        await second.resume("b2", True)

    assert machine.value(HCM01) == 0.0
    outcomes = [e.outcome for e in PostgresAuditLog(postgres_url).entries()]
    assert outcomes == ["intent", "verified", "intent", "verified"]
    kinds = [e.kind for e in PostgresLogbook(postgres_url).events()]
    assert kinds == ["undo", "entry"]
