"""Logbook entries, history searches and undos as whole turns through the built-in planner,
on the simulated ring: confirmation like a write, nothing published or written without a yes."""

from __future__ import annotations

import pytest

from osprey_desktop.config import get_audit_db_path
from osprey_desktop.logbook import SqliteLogbook
from osprey_desktop.safety import AuditLog
from tests.support.turns import steps

HCM01 = "SR01C:HCM01:Current:SP"
HCM02 = "SR01C:HCM02:Current:SP"


def audit() -> list:
    return AuditLog(get_audit_db_path()).entries()


def logbook(session) -> SqliteLogbook:
    return SqliteLogbook(session.db_path)


async def write(session, thread: str, request: str) -> None:
    asked = await session.submit(request, thread)
    assert asked.pending_approval is not None, asked.response
    done = await session.resume(thread, True)
    assert "verified" in done.response, done.response


async def test_an_entry_is_shown_for_confirmation_and_published_only_after_yes(session):
    await write(session, "t1", "set HCM01 to 1.5 A")

    asked = await session.submit("make a logbook entry: corrected the orbit in sector 1", "t1")

    assert steps(asked)[0] == "logbook_entry"
    payload = asked.pending_approval["resume_payload"]
    assert payload["approval_type"] == "logbook_entry"
    assert payload["title"] == "Corrected the orbit in sector 1"
    assert f"write `{HCM01}` 0.0 → 1.5 A: verified" in payload["text"]
    assert (
        "Publish this logbook entry to the local logbook?"
        in (asked.pending_approval["user_message"])
    )
    (draft,) = logbook(session).entries()
    assert draft.status == "draft" and logbook(session).search("orbit") == []

    done = await session.resume("t1", True)

    assert "Logbook entry 1 made** in the local logbook 'operations'" in done.response
    (entry,) = logbook(session).entries()
    assert entry.status == "local" and entry.thread_id == "t1"
    assert [h.entry.id for h in logbook(session).search("HCM01 orbit")] == [entry.id]
    (event,) = logbook(session).events()
    assert (event.kind, event.outcome, event.entry_id) == ("entry", "local", entry.id)


async def test_a_declined_entry_is_discarded_and_never_found(session):
    asked = await session.submit("log this", "t1")
    assert asked.pending_approval["resume_payload"]["approval_type"] == "logbook_entry"

    done = await session.resume("t1", False)

    assert "Nothing was logged" in done.response
    (entry,) = logbook(session).entries()
    assert entry.status == "discarded"
    assert logbook(session).events()[0].outcome == "rejected"


async def test_a_history_plot_is_attached_as_a_png(session):
    plotted = await session.submit("plot the beam current over the last hour", "t1")
    assert plotted.error is None, plotted.error

    asked = await session.submit("log the beam current plot with a note: steady fill", "t1")
    await session.resume("t1", True)

    (entry,) = logbook(session).entries()
    (attachment,) = logbook(session).get(entry.id).attachments
    assert attachment.content_type == "image/png" and attachment.data[:8] == b"\x89PNG\r\n\x1a\n"
    assert asked.pending_approval["resume_payload"]["attachments"][0]["size"] > 1000


async def test_when_was_a_channel_last_changed_and_why(session):
    await write(session, "t1", "set HCM01 to 1.5 A")
    await session.submit("make a logbook entry: HCM01 raised to move the orbit in sector 1", "t1")
    await session.resume("t1", True)
    await write(session, "t2", "set HCM02 to -0.3 A")

    found = await session.submit("when was HCM01 last changed and why?", "t3")

    assert steps(found)[0] == "logbook_search" and found.pending_approval is None
    lines = found.response.splitlines()
    write_line = next(i for i, line in enumerate(lines) if f"`{HCM01}` 0 → 1.5 (verified)" in line)
    entry_line = next(i for i, line in enumerate(lines) if "HCM01 raised to move the orbit" in line)
    assert write_line < entry_line, "the last change first, then why"
    assert "thread t1" in lines[write_line] and "logbook entry 1" in lines[entry_line]
    assert HCM02 not in found.response


async def test_undo_the_last_write_restores_the_audited_value_after_approval(session, machine):
    await write(session, "t1", "set HCM01 to 1.5 A")
    (_, written) = audit()

    asked = await session.submit("undo the last write", "t2")

    assert steps(asked)[0] == "write_undo"
    (op,) = asked.pending_approval["resume_payload"]["operations"]
    assert (op["channel"], op["new_value"]) == (HCM01, 0.0)
    message = asked.pending_approval["user_message"]
    assert f"from audit entry {written.id}" in message and "you set 1.5 A (it was 0 A)" in message
    assert machine.value(HCM01) == 1.5, "nothing is written before the answer"

    done = await session.resume("t2", True)

    assert machine.value(HCM01) == 0.0
    assert f"from audit entry {written.id}" in done.response
    intent, outcome = audit()[-2:]
    assert (intent.outcome, outcome.outcome, outcome.requested_value) == ("intent", "verified", 0.0)
    (event,) = [e for e in logbook(session).events() if e.kind == "undo"]
    assert event.what == f"undo of audit entry {written.id}" and event.outcome == "verified"


async def test_reverting_several_writes_restores_each_in_one_approval(session, machine):
    await write(session, "t1", "set HCM01 to 1.5 A")
    await write(session, "t1", "set HCM01 to 1.0 A")
    await write(session, "t2", "set HCM02 to -0.3 A")

    asked = await session.submit("revert the last three writes", "t3")

    assert asked.pending_approval is not None, asked.response
    ops = asked.pending_approval["resume_payload"]["operations"]
    assert sorted((o["channel"], o["new_value"]) for o in ops) == [(HCM01, 0.0), (HCM02, 0.0)]
    await session.resume("t3", True)
    assert machine.value(HCM01) == 0.0 and machine.value(HCM02) == 0.0


async def test_a_channel_that_moved_since_is_not_undone(session, machine):
    await write(session, "t1", "set HCM01 to 1.5 A")
    machine.set_setpoint(HCM01, 1.0)  # someone else moved it outside this assistant

    refused = await session.submit("put HCM01 back to where it was before my change", "t2")

    assert refused.pending_approval is None
    assert "moved since; the undo was refused" in refused.response
    assert machine.value(HCM01) == 1.0
    assert audit()[-1].outcome == "not_sent"


async def test_a_write_that_was_not_verified_is_not_undone(session, machine, configure):
    configure({"control_system": {"write_verification": "none"}})
    await session.submit("set HCM01 to 1.5 A", "t1")
    sent = await session.resume("t1", True)
    assert "sent_unverified" in sent.response or "not verified" in sent.response.lower()

    refused = await session.submit("undo the last write", "t2")

    assert refused.pending_approval is None
    assert "was not verified (sent_unverified)" in refused.response
    assert machine.value(HCM01) == 1.5


async def test_nothing_to_undo_says_so(session):
    refused = await session.submit("undo the last write", "t1")

    assert refused.pending_approval is None
    assert "the audit log has no write to undo" in (refused.response + str(refused.error))


@pytest.mark.parametrize(
    "request_text",
    ["set HCM01 to 1.5 A", "what is the beam current?", "how do I undo a write?"],
)
async def test_ordinary_requests_are_not_taken_for_logbook_or_undo(session, request_text):
    result = await session.submit(request_text, "t1")
    assert not {"logbook_entry", "logbook_search", "write_undo"} & set(steps(result))


async def test_log_this_after_a_plot_logs_it_rather_than_asking(session):
    plotted = await session.submit("plot the beam current over the last hour", "t1")
    assert plotted.error is None

    asked = await session.submit("log this", "t1")

    assert steps(asked)[0] == "logbook_entry", asked.response
    assert asked.pending_approval["resume_payload"]["attachments"]


async def test_a_read_only_console_refuses_an_undo_before_asking(session, machine, configure):
    await write(session, "t1", "set HCM01 to 1.5 A")
    configure({"control_system": {"read_only": True}})

    refused = await session.submit("undo the last write", "t2")

    assert refused.pending_approval is None
    assert "read-only" in refused.response
    assert machine.value(HCM01) == 1.5
    assert audit()[-1].outcome == "blocked"


async def test_a_search_also_finds_entries_made_on_the_olog_service(
    session, configure, olog, monkeypatch
):
    from osprey_desktop.logbook import LogbookEntry, OlogClient, OlogSettings

    server = olog()
    monkeypatch.setenv("OLOG_USERNAME", "ops")
    monkeypatch.setenv("OLOG_PASSWORD", "secret")
    configure({"logbook": {"type": "olog", "olog": {"url": server.url}}})
    phoebus = OlogClient(OlogSettings(server.url, "Operations", username="ops", password="secret"))
    made_elsewhere = await phoebus.publish(
        LogbookEntry(title="QF07 trimmed for the tune", text="lowered by 0.5 A", logbook="x")
    )
    await session.submit("make a logbook entry: QF07 checked after the trim", "t1")
    await session.resume("t1", True)  # published to Olog too: found once, as the local entry

    found = await session.submit("what did we log about QF07 this week?", "t2")

    assert f"QF07 trimmed for the tune”: lowered by 0.5 A (Olog entry {made_elsewhere})" in (
        found.response
    )
    assert found.response.count("QF07 checked after the trim") == 1
    server.stop()
    down = await session.submit("what did we log about QF07 this week?", "t3")
    assert "The Olog service was not searched: the Olog service at" in down.response
    assert "QF07 checked after the trim" in down.response, "the local logbook still answers"


async def test_the_plot_the_words_name_is_the_one_attached(session):
    for request in (
        "plot the beam current over the last hour",
        "plot the lifetime over the last hour",
    ):
        assert (await session.submit(request, "t1")).error is None

    named = await session.submit("log the lifetime plot with a note: lifetime recovering", "t1")
    (only,) = named.pending_approval["resume_payload"]["attachments"]
    assert only["filename"] == "history-SR-DCCT-Lifetime.png"
    await session.resume("t1", False)

    every = await session.submit("log this", "t1")
    assert len(every.pending_approval["resume_payload"]["attachments"]) == 2
