"""A small Archiver Appliance on 127.0.0.1 for the client tests (stdlib http.server, port 0).

It answers the documented retrieval endpoints in the Appliance's own layouts, under a
``/retrieval`` prefix: ``data/getData.json``, ``data/getDataForPVs.json`` (404 for the whole
batch when one PV is unknown, as the real one does), ``data/getDataAtTime`` (POST of a JSON
list; names without data left out) and ``bpl/getMetadata``. Values are written as the
Appliance's Java code writes them: ``NaN`` bare, meta values as strings. ``optimized_N(pv)``
returns raw samples when there are at most N, else N bins of [mean, std, min, max, count];
``firstSample_S(pv)`` keeps the first sample of each S-second bin. Every request is recorded.
"""

from __future__ import annotations

import json
import math
import statistics
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlparse

PREFIX = "/retrieval"


def sample(secs: float, val: Any, severity: int = 0, status: int = 0, **fields: str) -> dict:
    out: dict[str, Any] = {
        "secs": int(secs),
        "nanos": int(round((secs % 1) * 1e9)),
        "val": val,
        "severity": severity,
        "status": status,
    }
    if fields:
        out["fields"] = fields
    return out


def _stamp(s: dict[str, Any]) -> float:
    return s["secs"] + s["nanos"] * 1e-9


def _iso(text: str) -> float:
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


@dataclass
class Request:
    method: str
    path: str
    query: dict[str, list[str]]
    body: Any = None


@dataclass
class FakeAppliance:
    """What the server holds: tests fill archived, meta and dbr_types, and read requests."""

    archived: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    meta: dict[str, dict[str, str]] = field(default_factory=dict)
    dbr_types: dict[str, str] = field(default_factory=dict)
    raw_body: dict[str, tuple[int, bytes]] = field(default_factory=dict)
    refuse_multi: bool = False  # answer getDataForPVs.json with HTTP 500
    requests: list[Request] = field(default_factory=list)

    def paths(self) -> list[str]:
        return [r.path for r in self.requests]

    def data_requests(self) -> list[Request]:
        return [r for r in self.requests if "/data/" in r.path]

    # ----- endpoints ----------------------------------------------------------------------
    def answer(self, request: Request) -> tuple[int, bytes]:
        self.requests.append(request)
        if not request.path.startswith(PREFIX + "/"):
            return 404, b"no such context"
        path = request.path[len(PREFIX) :]
        if path == "/bpl/getMetadata":
            return self._metadata(request.query["pv"][0])
        if path == "/data/getData.json":
            pv = request.query["pv"][0]
            if pv in self.raw_body:
                return self.raw_body[pv]
            block = self._block(pv, request.query)
            if block is None:
                return 404, f"PV {pv} is not archived".encode()
            return 200, _dump([block] if block["data"] is not None else [])
        if path == "/data/getDataForPVs.json":
            if self.refuse_multi:
                return 500, b"multi-PV retrieval failed"
            blocks = [self._block(pv, request.query) for pv in request.query["pv"]]
            if any(b is None for b in blocks):
                return 404, b"one of the PVs is not archived"
            return 200, _dump([b for b in blocks if b is not None])
        if path == "/data/getDataAtTime" and request.method == "POST":
            return 200, _dump(self._at_time(request.body, _iso(request.query["at"][0])))
        return 404, b"no such endpoint"

    def _metadata(self, name: str) -> tuple[int, bytes]:
        if name not in self.archived:
            return 404, b""
        meta = {"pvName": name, "DBRType": self.dbr_types.get(name, "DBR_SCALAR_DOUBLE")}
        return 200, _dump({**meta, **self.meta.get(name, {})})

    def _block(self, pv: str, query: dict[str, list[str]]) -> dict[str, Any] | None:
        operator, name = ("", pv)
        if pv.endswith(")") and "(" in pv:
            operator, name = pv[: pv.index("(")], pv[pv.index("(") + 1 : -1]
        if name not in self.archived:
            return None
        start, end = _iso(query["from"][0]), _iso(query["to"][0])
        data = [s for s in self.archived[name] if start <= _stamp(s) <= end]
        if operator.startswith("optimized_"):
            data = _optimized(data, int(operator.split("_")[1]), start, end)
        elif operator.startswith("firstSample_"):
            width = int(operator.split("_")[1])
            seen: set[int] = set()
            kept = []
            for s in data:
                if s["secs"] // width not in seen:
                    seen.add(s["secs"] // width)
                    kept.append(s)
            data = kept
        return {"meta": {"name": name, **self.meta.get(name, {})}, "data": data}

    def _at_time(self, names: list[str], at: float) -> dict[str, Any]:
        out = {}
        for name in names:
            before = [s for s in self.archived.get(name, []) if _stamp(s) <= at]
            if before:
                out[name] = before[-1]
        return out


def _optimized(data: list[dict], points: int, start: float, end: float) -> list[dict]:
    if len(data) <= points:
        return data
    width = max(1, int((end - start) // points))
    bins: dict[int, list[dict]] = {}
    for s in data:
        bins.setdefault(s["secs"] // width, []).append(s)
    out = []
    for number, members in sorted(bins.items()):
        values = [float(s["val"]) for s in members if not math.isnan(float(s["val"]))]
        stats = (
            [statistics.fmean(values), statistics.pstdev(values), min(values), max(values)]
            if values
            else [math.nan] * 4
        )
        out.append(
            sample(
                number * width,
                [*stats, float(len(values))],
                severity=max(s["severity"] for s in members),
            )
        )
    return out


def _dump(payload: Any) -> bytes:
    return json.dumps(payload, allow_nan=True).encode()  # NaN bare, as the Appliance writes


class ApplianceServer:
    """The fake Appliance served on 127.0.0.1 (a free port) until ``stop()``."""

    def __init__(self) -> None:
        self.fake = FakeAppliance()
        fake = self.fake

        class Handler(BaseHTTPRequestHandler):
            def _reply(self, method: str) -> None:
                url = urlparse(self.path)
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length)) if length else None
                status, payload = fake.answer(Request(method, url.path, parse_qs(url.query), body))
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def do_GET(self) -> None:  # noqa: N802 - http.server's name
                self._reply("GET")

            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                self._reply("POST")

            def log_message(self, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.host_url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(
            target=self._server.serve_forever, args=(0.05,), daemon=True
        )
        self._thread.start()

    @property
    def retrieval_url(self) -> str:
        return self.host_url + PREFIX

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)


def serve() -> Iterator[ApplianceServer]:
    server = ApplianceServer()
    try:
        yield server
    finally:
        server.stop()
