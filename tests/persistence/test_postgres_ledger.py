"""The approval ledger, the threads and the audit log in a PostgreSQL database.

Each "console" here is its own saver with its own connection to one database, as separate
processes would have: the claims race inside the server, not inside this process.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import time
from collections.abc import AsyncIterator

import psycopg
import pytest

from osprey_desktop.persistence import CheckpointDatabaseError, open_checkpointer
from osprey_desktop.persistence.approvals import approval_ledger_for
from osprey_desktop.persistence.postgres import PostgresDatabase, redact
from osprey_desktop.safety.audit import AuditError, audit_log_for
from osprey_desktop.safety.audit_postgres import PostgresAuditLog
from osprey_desktop.session import AgentSession
from tests.gateway.turn_graph import build_turn_graph

CONSOLES = 6


@contextlib.asynccontextmanager
async def consoles(url: str, count: int) -> AsyncIterator[list]:
    async with contextlib.AsyncExitStack() as stack:
        yield [await stack.enter_async_context(open_checkpointer(url)) for _ in range(count)]


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def test_of_consoles_answering_at_once_exactly_one_wins(postgres_url):
    async with consoles(postgres_url, CONSOLES) as savers:
        ledgers = [approval_ledger_for(s) for s in savers]
        assert all(ledger is not None and ledger.where == "postgresql" for ledger in ledgers)
        await ledgers[0].ask("a-1", "t1", "channel_write", {"operations": []})

        claims = await asyncio.gather(
            *(
                ledger.claim_answer("a-1", "t1", "channel_write", i % 2 == 0, answered_by=f"c{i}")
                for i, ledger in enumerate(ledgers)
            )
        )

        winners = [c for c in claims if c.won]
        assert len(winners) == 1
        first = winners[0].record
        assert first.status == ("approved" if first.answer else "rejected")
        for claim in claims:  # every loser sees the winner's answer, not its own
            assert claim.record.answered_by == first.answered_by
            assert claim.record.answer == first.answer


async def test_of_consoles_starting_one_approved_write_exactly_one_starts_it(postgres_url):
    async with consoles(postgres_url, CONSOLES) as savers:
        ledgers = [approval_ledger_for(s) for s in savers]
        await ledgers[0].ask("a-2", "t1", "channel_write", None)
        assert (await ledgers[1].claim_answer("a-2", "t1", "channel_write", True)).won

        started = await asyncio.gather(
            *(
                ledger.transition("a-2", ["approved"], "executing", take_ownership=True)
                for ledger in ledgers
            )
        )
        sending = await asyncio.gather(
            *(ledger.transition("a-2", ["executing"], "sending", sent_at=1.5) for ledger in ledgers)
        )

        assert started.count(True) == 1 and sending.count(True) == 1
        assert (await ledgers[-1].get("a-2")).status == "sending"


async def test_an_answer_withdrawn_by_one_console_is_pending_on_every_console(postgres_url):
    async with consoles(postgres_url, 2) as (mine, theirs):
        ledger, other = approval_ledger_for(mine), approval_ledger_for(theirs)
        asked = await ledger.ask("a-3", "t1", "channel_write", {"k": 1}, asked_at=1700000000.123456)
        assert asked.asked_at == 1700000000.123456  # DOUBLE PRECISION: no second is lost
        await ledger.claim_answer("a-3", "t1", "channel_write", True)
        # the answering console is gone (a pid that cannot be running)
        await theirs.conn.execute(
            "UPDATE osprey_approvals SET owner = 'elsewhere|1|0', updated_at = %s"
            " WHERE approval_id = 'a-3'",
            (time.time() - 3600,),
        )
        abandoned = await other.get("a-3")
        assert abandoned.status == "approved" and not abandoned.owner_alive()

        assert await other.reopen_abandoned(abandoned)
        assert not await ledger.reopen_abandoned(abandoned)  # the row has moved on

        again = await ledger.get("a-3")
        assert again.status == "pending" and again.answer is None
        assert "asked again" in again.note


async def test_a_thread_deleted_on_one_console_is_gone_on_the_other(postgres_url):
    async with (
        AgentSession.open(db_path=postgres_url, graph_factory=build_turn_graph) as one,
        AgentSession.open(db_path=postgres_url, graph_factory=build_turn_graph) as two,
    ):
        assert isinstance(one.db_path, PostgresDatabase)
        paused = await one.submit("/planning:on move HCM01 to 1.5 A", "t1")
        assert paused.pending_approval is not None
        (seen,) = await two.list_threads()
        assert seen.thread_id == "t1" and seen.pending_approval
        assert seen.title == "move HCM01 to 1.5 A"
        assert (await two.pending_approval("t1"))["interrupt_id"] == (
            paused.pending_approval["interrupt_id"]
        )

        assert await two.delete_thread("t1")

        assert await one.list_threads() == []
        assert not await one.thread_exists("t1")
        refused = await one.resume("t1", True)
        assert refused.error == "thread t1 was deleted; start a new thread instead"


async def test_the_audit_log_in_postgres_cannot_be_changed(postgres_url):
    log = PostgresAuditLog(postgres_url)
    first = log.record(channel="A:SP", outcome="intent", requested_value=1.5, value_before=1.0)
    log.record(channel="A:SP", outcome="verified", requested_value=1.5, readback_after=1.49)

    with psycopg.connect(postgres_url, autocommit=True) as conn:
        for statement in (
            "UPDATE osprey_audit_log SET outcome = 'blocked'",
            f"DELETE FROM osprey_audit_log WHERE id = {first}",
            "TRUNCATE osprey_audit_log",
        ):
            with pytest.raises(psycopg.errors.RaiseException, match="append-only"):
                conn.execute(statement)

    entries = log.entries()
    assert [(e.outcome, e.requested_value, e.readback_after) for e in entries] == [
        ("intent", 1.5, None),
        ("verified", 1.5, 1.49),
    ]
    assert [e.outcome for e in log.entries(limit=1)] == ["verified"]
    with pytest.raises(ValueError, match="audit outcome must be one of"):
        log.record(channel="A:SP", outcome="written")  # old words are never written again


async def test_a_postgres_thread_database_audits_in_that_database(postgres_url):
    async with open_checkpointer(postgres_url) as saver:
        log = audit_log_for(saver)
        assert isinstance(log, PostgresAuditLog) and log.database.url == postgres_url
        assert await log.arecord(channel="B:SP", outcome="blocked", message="over the limit") > 0
    assert [e.channel for e in PostgresAuditLog(postgres_url).entries()] == ["B:SP"]


def test_reading_the_audit_of_a_database_without_one_changes_nothing(postgres_url):
    assert PostgresAuditLog(postgres_url).entries() == []
    with psycopg.connect(postgres_url) as conn:
        (tables,) = conn.execute(
            "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'"
        ).fetchone()
    assert tables == 0


async def test_a_server_that_cannot_be_reached_is_one_clear_error_without_the_password():
    url = f"postgresql://ops:s3cret@127.0.0.1:{closed_port()}/threads"

    with pytest.raises(CheckpointDatabaseError) as caught:
        async with open_checkpointer(url):
            pass

    error = caught.value
    assert error.kind == "unreachable"
    assert "s3cret" not in str(error) and redact(url) in str(error)
    assert "cannot be reached" in str(error) and "check that PostgreSQL runs" in str(error)
    with pytest.raises(AuditError, match="cannot be reached") as audit_failure:
        PostgresAuditLog(url).record(channel="A:SP", outcome="intent")
    assert "s3cret" not in str(audit_failure.value)


async def test_a_database_that_does_not_exist_says_how_to_create_it(postgres_server):
    with pytest.raises(CheckpointDatabaseError, match=r"no such database .*createdb"):
        async with open_checkpointer(postgres_server.url("no_such_db")):
            pass


async def test_a_user_the_server_does_not_know_is_refused_as_a_permission_problem(
    postgres_server,
):
    url = postgres_server.url().replace("osprey@", "nobody@")

    with pytest.raises(CheckpointDatabaseError, match="the server refused this user") as caught:
        async with open_checkpointer(url):
            pass

    assert caught.value.kind == "permissions"
