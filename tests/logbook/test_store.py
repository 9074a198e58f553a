"""The local logbook on SQLite (FTS5) and on PostgreSQL (tsvector): stored, edited while a
draft, searched (every word first, newest first), its audit append-only."""

from __future__ import annotations

import sqlite3

import pytest

from osprey_desktop.logbook import Attachment, LogbookEntry, LogbookError, SqliteLogbook
from osprey_desktop.logbook.store_postgres import PostgresLogbook

DAY = 86400.0
NOW = 1_800_000_000.0


@pytest.fixture(params=["sqlite", "postgres"])
def store(request, tmp_path):
    if request.param == "sqlite":
        return SqliteLogbook(tmp_path / "threads.sqlite")
    return PostgresLogbook(request.getfixturevalue("postgres_url"))


def entry(title: str, text: str, *, when: float, channels=(), status="local", tags=()):
    return LogbookEntry(
        title=title,
        text=text,
        logbook="operations",
        tags=tuple(tags),
        author="ops",
        created_at=when,
        thread_id=f"t-{int(when)}",
        channels=tuple(channels),
        status=status,
    )


def test_entries_are_stored_with_their_attachments_newest_first(store):
    png = bytes(range(200))
    first = store.add(entry("Injection tuned", "kicker timing", when=NOW - 60))
    second = store.add(
        LogbookEntry(
            title="Orbit plot",
            text="after the correction",
            logbook="operations",
            created_at=NOW,
            attachments=(Attachment("orbit.png", "image/png", png),),
            status="local",
        )
    )

    assert [e.id for e in store.entries()] == [second.id, first.id]
    (attachment,) = store.get(second.id).attachments
    assert (attachment.filename, attachment.data) == ("orbit.png", png)
    assert store.get(9999) is None


def test_search_finds_channel_names_and_ranks_full_matches_newest_first(store):
    old = store.add(
        entry(
            "QF07 trimmed",
            "raised to 119 A for the tune",
            when=NOW - 3 * DAY,
            channels=["SR02C:QF07:Current:SP"],
        )
    )
    new = store.add(entry("QF07 again", "tune drifted, QF07 lowered", when=NOW - DAY))
    partial = store.add(entry("Tune measurement", "horizontal tune 0.22", when=NOW))
    store.add(entry("RF", "cavity 2 conditioning", when=NOW))
    store.add(entry("QF07 draft", "never confirmed", when=NOW, status="draft"))

    hits = store.search("QF07 tune")

    assert [h.entry.id for h in hits] == [new.id, old.id, partial.id]
    assert [h.all_terms for h in hits] == [True, True, False]
    assert [h.entry.id for h in store.search("HCM01")] == []
    assert [h.entry.id for h in store.search("QF07", since=NOW - 2 * DAY)] == [new.id]
    by_pv = store.search("SR02C:QF07:Current:SP")
    assert by_pv and by_pv[0].entry.id == old.id


def test_a_draft_can_be_edited_and_is_found_by_its_new_words_once_published(store):
    stored = store.add(entry("Draft", "first words", when=NOW, status="draft"))

    assert store.update(stored.id, title="Vacuum burst", text="sector 4 gauge spiked")
    assert store.update(stored.id, status="local", from_statuses=["draft"])

    assert [h.entry.title for h in store.search("gauge")] == ["Vacuum burst"]
    assert not store.update(stored.id, text="too late"), "a published entry keeps its words"
    assert store.get(stored.id).text == "sector 4 gauge spiked"
    with pytest.raises(ValueError, match="cannot change"):
        store.update(stored.id, author="someone else")


def test_the_logbook_audit_is_append_only(store, request):
    event_id = store.record_event(
        kind="entry", what="logbook entry 1: Orbit", outcome="local", operator="ops"
    )
    assert [e.id for e in store.events()] == [event_id]
    with pytest.raises(ValueError, match="kind"):
        store.record_event(kind="chat", what="x", outcome="y", operator="ops")
    if isinstance(store, SqliteLogbook):
        conn = sqlite3.connect(store.path)
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            conn.execute("DELETE FROM osprey_logbook_events")
        conn.close()
    else:
        import psycopg

        with (
            psycopg.connect(store.database.url) as conn,
            pytest.raises(psycopg.Error, match="append-only"),
        ):
            conn.execute("UPDATE osprey_logbook_events SET outcome = 'x'")


def test_reading_a_database_without_a_logbook_creates_nothing(tmp_path):
    path = tmp_path / "threads.sqlite"
    store = SqliteLogbook(path)
    assert store.entries() == [] and store.events() == [] and store.search("x") == []
    assert not path.exists()
    path.write_bytes(b"not a database at all, just text " * 10)
    with pytest.raises(LogbookError, match="cannot read"):
        store.entries()


def test_reading_a_postgresql_database_without_a_logbook_creates_nothing(postgres_url):
    import psycopg

    store = PostgresLogbook(postgres_url)
    assert store.entries() == [] and store.events() == [] and store.search("orbit") == []
    with psycopg.connect(postgres_url) as conn:
        (found,) = conn.execute("SELECT to_regclass('osprey_logbook') IS NOT NULL").fetchone()
    assert not found
