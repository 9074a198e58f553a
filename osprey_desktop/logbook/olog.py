"""Publishing entries to an Olog service (the Phoebus logbook) through its REST API.

Olog creates an entry with one multipart request, ``PUT {url}/logs/multipart``: a part named
``logEntry`` (``application/json``: title, description, level, logbooks, tags and the
attachments' ids and file names) and one part named ``files`` per attachment, in the order
the entry lists them. ``GET {url}/logbooks`` and ``{url}/tags`` list what exists. ``url`` is
the service's base, ending in ``/Olog``. Credentials are HTTP basic, from the environment
variables the configuration names (or the system keyring, when the ``keyring`` package is
installed).

Every failure is an ``OlogError`` whose message says what the server (or the network) said:
the entry then stays in the local logbook, marked not published, with that reason.
"""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import httpx

from osprey_desktop.logbook.entries import LogbookEntry


class OlogError(Exception):
    """Olog did not take the entry; ``status`` is the HTTP status (None: no answer)."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class OlogSettings:
    url: str
    logbook: str
    tags: tuple[str, ...] = ()
    username: str | None = None
    password: str | None = None
    timeout_seconds: float = 10.0
    verify_tls: bool = True

    @classmethod
    def from_config(cls, olog: Any) -> OlogSettings:
        """From ``logbook.olog`` (the configuration section); credentials from the environment."""
        url = getattr(olog, "url", None)
        if not url:
            raise OlogError(
                "logbook.type is olog but logbook.olog.url is not set; set it to the service's "
                "base URL (https://host:8181/Olog)"
            )
        username = os.environ.get(str(olog.username_env)) or None
        password = os.environ.get(str(olog.password_env)) or None
        if username and not password:
            password = _keyring_password(str(url), username)
        return cls(
            url=str(url).rstrip("/"),
            logbook=str(olog.logbook),
            tags=tuple(olog.tags),
            username=username,
            password=password,
            timeout_seconds=float(olog.timeout_seconds),
            verify_tls=bool(olog.verify_tls),
        )


def _keyring_password(url: str, username: str) -> str | None:
    try:
        import keyring  # optional: only when the facility installs it
    except ImportError:
        return None
    try:
        return keyring.get_password(url, username)
    except Exception:  # noqa: BLE001 - no keyring backend: the server will answer 401
        return None


def olog_payload(
    entry: LogbookEntry, settings: OlogSettings, attachment_ids: Sequence[str]
) -> dict[str, Any]:
    """The ``logEntry`` part: Olog's JSON for an entry."""
    tags = list(dict.fromkeys([*settings.tags, *entry.tags]))
    return {
        "owner": entry.author or settings.username or "",
        "title": entry.title,
        "description": entry.text,
        "level": "Info",
        "logbooks": [{"name": settings.logbook}],
        "tags": [{"name": t} for t in tags],
        "attachments": [
            {"id": i, "filename": a.filename}
            for i, a in zip(attachment_ids, entry.attachments, strict=True)
        ],
    }


class OlogClient:
    """One Olog service; ``publish`` sends an entry with its attachments."""

    def __init__(
        self, settings: OlogSettings, transport: httpx.AsyncBaseTransport | None = None
    ) -> None:
        self.settings = settings
        self._transport = transport

    def _client(self) -> httpx.AsyncClient:
        auth = None
        if self.settings.username:
            auth = httpx.BasicAuth(self.settings.username, self.settings.password or "")
        return httpx.AsyncClient(
            base_url=self.settings.url,
            auth=auth,
            timeout=self.settings.timeout_seconds,
            verify=self.settings.verify_tls,
            transport=self._transport,
        )

    async def publish(self, entry: LogbookEntry) -> str:
        """Create the entry on the service; returns Olog's id for it."""
        ids = [str(uuid.uuid4()) for _ in entry.attachments]
        payload = olog_payload(entry, self.settings, ids)
        files: list[tuple[str, tuple[str | None, bytes, str]]] = [
            ("logEntry", (None, json.dumps(payload).encode(), "application/json"))
        ]
        files += [("files", (a.filename, a.data, a.content_type)) for a in entry.attachments]
        response = await self._request(
            "PUT", "/logs/multipart", files=files, params={"markup": "commonmark"}
        )
        try:
            created = response.json()
        except ValueError as exc:
            raise OlogError(
                f"{self.settings.url} answered {response.status_code} without the created "
                "entry (not Olog's JSON); check logbook.olog.url",
                response.status_code,
            ) from exc
        remote = created.get("id") if isinstance(created, dict) else None
        if remote is None:
            raise OlogError(
                f"{self.settings.url} answered {response.status_code} without an entry id",
                response.status_code,
            )
        return str(remote)

    async def search(self, text: str, size: int = 20) -> list[dict[str, Any]]:
        """Entries whose text matches (``GET {url}/logs/search?text=...``), as plain dicts:
        ``id, title, description, owner, created`` (epoch seconds), ``logbooks``."""
        response = await self._request(
            "GET", "/logs/search", params={"text": text, "size": size, "sort": "down"}
        )
        try:
            found = response.json()
        except ValueError as exc:
            raise OlogError(f"{self.settings.url} answered a search without JSON") from exc
        logs = found.get("logs") if isinstance(found, dict) else found  # newer: {hitCount, logs}
        out = []
        for log in logs or []:
            if not isinstance(log, dict) or log.get("id") is None:
                continue
            created = log.get("createdDate")
            out.append(
                {
                    "id": str(log["id"]),
                    "title": str(log.get("title") or ""),
                    "description": str(log.get("description") or ""),
                    "owner": str(log.get("owner") or ""),
                    "created": float(created) / 1000.0
                    if isinstance(created, int | float)
                    else None,
                    "logbooks": [
                        b.get("name") for b in log.get("logbooks") or [] if isinstance(b, dict)
                    ],
                }
            )
        return out

    async def logbooks(self) -> list[str]:
        response = await self._request("GET", "/logbooks")
        return [str(b.get("name")) for b in response.json() if isinstance(b, dict)]

    async def tags(self) -> list[str]:
        response = await self._request("GET", "/tags")
        return [str(t.get("name")) for t in response.json() if isinstance(t, dict)]

    async def _request(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        where = f"{self.settings.url}{path}"
        try:
            async with self._client() as client:
                response = await client.request(method, path, **kwargs)
        except httpx.TimeoutException as exc:
            raise OlogError(
                f"the Olog service at {where} did not answer within "
                f"{self.settings.timeout_seconds:g} s"
            ) from exc
        except httpx.HTTPError as exc:
            reason = str(exc) or type(exc).__name__
            raise OlogError(f"the Olog service at {where} cannot be reached ({reason})") from exc
        if response.status_code in (401, 403):
            who = self.settings.username or "no user"
            raise OlogError(
                f"the Olog service refused the credentials ({response.status_code}, {who}); "
                "set the user and password in the environment variables logbook.olog names",
                response.status_code,
            )
        if response.status_code >= 400:
            detail = response.text.strip().replace("\n", " ")[:200]
            raise OlogError(
                f"the Olog service answered {response.status_code} to {method} {path}"
                + (f": {detail}" if detail else ""),
                response.status_code,
            )
        return response


__all__ = ["OlogClient", "OlogError", "OlogSettings", "olog_payload"]
