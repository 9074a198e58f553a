"""ChannelFinder and Archiver Appliance stand-ins on 127.0.0.1 (stdlib http.server, port 0).

They answer in the services' own layouts: ChannelFinder's ``/ChannelFinder/resources/channels``
(``~name`` glob, ``~size``/``~from`` paging, channels as ``{name, owner, properties, tags}``);
the Appliance's ``/mgmt/bpl/getAllPVs`` (``pv`` glob, ``limit``), ``/mgmt/bpl/getPVTypeInfo``
and ``/retrieval/bpl/getMetadata`` (404 for a PV it does not archive). Every request is
recorded; ``down`` makes every answer a 503.
"""

from __future__ import annotations

import fnmatch
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlparse


@dataclass
class Services:
    channels: list[dict[str, Any]] = field(default_factory=list)  # ChannelFinder's
    archived: dict[str, dict[str, Any]] = field(default_factory=dict)  # pv -> {info, meta}
    requests: list[tuple[str, dict[str, list[str]]]] = field(default_factory=list)
    down: bool = False

    def answer(self, path: str, query: dict[str, list[str]]) -> tuple[int, Any]:
        self.requests.append((path, query))
        if self.down:
            return 503, {"error": "unavailable"}
        one = {k: v[0] for k, v in query.items()}
        if path == "/ChannelFinder/resources/channels":
            pattern = one.get("~name", "*")
            found = [c for c in self.channels if fnmatch.fnmatchcase(c["name"], pattern)]
            start, size = int(one.get("~from", 0)), int(one.get("~size", 10_000))
            return 200, found[start : start + size]
        if path == "/mgmt/bpl/getAllPVs":
            pattern, limit = one.get("pv", "*"), int(one.get("limit", 500))
            names = [n for n in self.archived if fnmatch.fnmatchcase(n, pattern)]
            return 200, names if limit < 0 else names[:limit]
        if path in ("/mgmt/bpl/getPVTypeInfo", "/retrieval/bpl/getMetadata"):
            entry = self.archived.get(one.get("pv", ""))
            if entry is None:
                return 404, {"error": "not archived"}
            return 200, entry["info" if "getPVTypeInfo" in path else "meta"]
        return 404, {"error": f"no {path}"}


def cf_channel(name: str, tags: tuple[str, ...] = (), **properties: str) -> dict[str, Any]:
    """A channel as ChannelFinder answers it."""
    return {
        "name": name,
        "owner": "recceiver",
        "properties": [
            {"name": k, "owner": "recceiver", "value": v} for k, v in properties.items()
        ],
        "tags": [{"name": t, "owner": "admin"} for t in tags],
    }


@contextmanager
def serve(services: Services) -> Iterator[str]:
    """The stand-in on 127.0.0.1; yields its base URL (http://127.0.0.1:PORT)."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            url = urlparse(self.path)
            status, payload = services.answer(url.path, parse_qs(url.query))
            body = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
