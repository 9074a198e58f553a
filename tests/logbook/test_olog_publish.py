"""Publishing to Olog through its REST API, against a loopback server in Olog's layout:
created with attachments, refused with 401, a server that is down (kept locally, retried)."""

from __future__ import annotations

import json
import urllib.request

import pytest

from osprey_desktop.config import build_config
from osprey_desktop.logbook import (
    Attachment,
    LogbookError,
    SqliteLogbook,
    compose_entry,
    publish,
    retry,
)
from osprey_desktop.logbook.olog import OlogClient, OlogSettings

PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4


def olog_config(url: str):
    return build_config({"logbook": {"type": "olog", "olog": {"url": url, "tags": ["Orbit"]}}})


def draft(store: SqliteLogbook):
    entry = compose_entry(
        "make a logbook entry: corrected the orbit in sector 3",
        [],
        logbook="operations",
        tags=["Corrector"],
        author="ops",
        thread_id="t-1",
        attachments=[
            Attachment("orbit.png", "image/png", PNG),
            Attachment("window.png", "image/png", PNG[:100]),
        ],
    )
    return store.add(entry)


def fetch(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=5) as response:  # noqa: S310 - loopback only
        return response.read()


@pytest.fixture
def store(tmp_path) -> SqliteLogbook:
    return SqliteLogbook(tmp_path / "threads.sqlite")


async def test_an_entry_is_created_on_olog_with_its_attachments(store, olog, monkeypatch):
    server = olog()
    monkeypatch.setenv("OLOG_USERNAME", "ops")
    monkeypatch.setenv("OLOG_PASSWORD", "secret")
    stored = draft(store)

    published = await publish(store, stored.id, olog_config(server.url))

    assert published.status == "published" and published.publish_error is None
    remote = json.loads(fetch(f"{server.url}/logs/{published.remote_id}"))
    assert remote["title"] == "Corrected the orbit in sector 3"
    assert remote["logbooks"] == [{"name": "Operations"}]
    assert {t["name"] for t in remote["tags"]} == {"Orbit", "Corrector"}
    assert [a["filename"] for a in remote["attachments"]] == ["orbit.png", "window.png"]
    assert fetch(f"{server.url}/logs/attachments/{published.remote_id}/orbit.png") == PNG
    events = store.events()
    assert [(e.outcome, e.entry_id) for e in events] == [("published", stored.id)]


async def test_refused_credentials_keep_the_entry_locally_with_the_reason(store, olog, monkeypatch):
    server = olog()
    monkeypatch.setenv("OLOG_USERNAME", "ops")
    monkeypatch.setenv("OLOG_PASSWORD", "wrong")
    stored = draft(store)

    kept = await publish(store, stored.id, olog_config(server.url))

    assert kept.status == "not_published"
    assert "refused the credentials (401, ops)" in kept.publish_error
    assert store.get(stored.id).attachments[0].data == PNG, "nothing is lost"
    assert store.events()[0].outcome == "not_published"


async def test_a_server_that_is_down_keeps_the_entry_and_a_retry_publishes_it(
    store, olog, monkeypatch
):
    monkeypatch.setenv("OLOG_USERNAME", "ops")
    monkeypatch.setenv("OLOG_PASSWORD", "secret")
    first = olog()
    port = first.port
    first.stop()  # the service is down
    config = olog_config(first.url)
    stored = draft(store)

    kept = await publish(store, stored.id, config)

    assert kept.status == "not_published"
    assert "cannot be reached" in kept.publish_error and str(port) in kept.publish_error
    assert [e.status for e in store.entries(statuses=["not_published"])] == ["not_published"]

    again = olog(port=port)  # back up, on the same address
    published = await retry(store, stored.id, config)

    assert published.status == "published" and published.publish_error is None
    assert json.loads(fetch(f"{again.url}/logs/{published.remote_id}"))["title"]
    assert [e.outcome for e in store.events()] == ["published", "not_published"]
    with pytest.raises(LogbookError, match="only an entry that was not published"):
        await retry(store, stored.id, config)


async def test_a_local_logbook_publishes_locally_without_any_server(store):
    stored = draft(store)

    done = await publish(store, stored.id, build_config({}))

    assert done.status == "local" and done.remote_id is None
    assert (await publish(store, stored.id, build_config({}))).status == "local"
    assert len(store.events()) == 1, "a second publish of a published entry does nothing"


async def test_olog_without_a_url_is_kept_with_how_to_configure_it(store):
    stored = draft(store)

    kept = await publish(store, stored.id, build_config({"logbook": {"type": "olog"}}))

    assert kept.status == "not_published"
    assert "logbook.olog.url is not set" in kept.publish_error


async def test_logbooks_and_tags_are_listed_from_the_service(olog):
    server = olog()
    client = OlogClient(OlogSettings(url=server.url, logbook="Operations"))

    assert await client.logbooks() == ["Operations"]
    assert "Orbit" in await client.tags()
