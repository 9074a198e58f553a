"""A small Olog service for the tests, in Olog's REST layout, on 127.0.0.1 only.

Run as a process (``python tests/logbook/olog_server.py --port 0 --user ops --password pw``):
it prints ``PORT <n>`` once it listens. Endpoints, as Olog has them under ``/Olog``:

* ``PUT /Olog/logs/multipart``: a ``logEntry`` JSON part and one ``files`` part per
  attachment; HTTP basic auth; answers 201 with the created entry (``id``), 401 on bad
  credentials, 400 when the attachments do not match the entry's list;
* ``GET /Olog/logs/{id}``, ``GET /Olog/logs/attachments/{id}/{filename}``,
  ``GET /Olog/logs/search?text=...`` (``{hitCount, logs}``, newest first);
* ``GET /Olog/logbooks``, ``GET /Olog/tags``.
"""

from __future__ import annotations

import argparse
import base64
import json
import sys
import time
from email.parser import BytesParser
from email.policy import HTTP
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

LOGBOOKS = [{"name": "Operations", "owner": "olog-logs", "state": "Active"}]
TAGS = [{"name": "Orbit", "state": "Active"}, {"name": "Corrector", "state": "Active"}]


class OlogHandler(BaseHTTPRequestHandler):
    server: OlogServer

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - quiet tests
        return

    def _send(self, status: int, body: Any) -> None:
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _authorised(self) -> bool:
        expected = base64.b64encode(f"{self.server.user}:{self.server.password}".encode())
        return self.headers.get("Authorization") == f"Basic {expected.decode()}"

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        parts = self.path.split("?")[0].strip("/").split("/")
        if parts[:1] != ["Olog"]:
            self._send(404, {"error": "not found"})
        elif parts[1:] == ["logbooks"]:
            self._send(200, LOGBOOKS)
        elif parts[1:] == ["tags"]:
            self._send(200, TAGS)
        elif parts[1:] == ["logs", "search"]:
            query = parse_qs(urlsplit(self.path).query)
            words = " ".join(query.get("text", [""])).lower().split()
            found = [
                {k: v for k, v in e.items() if k != "_files"}
                for e in self.server.entries.values()
                if all(w in f"{e.get('title')} {e.get('description')}".lower() for w in words)
            ]
            found.sort(key=lambda e: e["createdDate"], reverse=True)
            self._send(200, {"hitCount": len(found), "logs": found})
        elif parts[1:3] == ["logs", "attachments"] and len(parts) == 5:
            entry = self.server.entries.get(parts[3])
            files = (entry or {}).get("_files", {})
            if parts[4] not in files:
                self._send(404, {"error": "no such attachment"})
            else:
                self._send(200, files[parts[4]])
        elif parts[1:2] == ["logs"] and len(parts) == 3 and parts[2] in self.server.entries:
            entry = {k: v for k, v in self.server.entries[parts[2]].items() if k != "_files"}
            self._send(200, entry)
        else:
            self._send(404, {"error": "not found"})

    def do_PUT(self) -> None:  # noqa: N802 - http.server's name
        if self.path.split("?")[0] != "/Olog/logs/multipart":
            self._send(404, {"error": "not found"})
            return
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length)  # read first, as a real server does, even to refuse
        if not self._authorised():
            self._send(401, {"error": "Unauthorized"})
            return
        head = f"Content-Type: {self.headers.get('Content-Type')}\r\n\r\n".encode()
        message = BytesParser(policy=HTTP).parsebytes(head + body)
        if not message.is_multipart():
            self._send(415, {"error": "multipart/form-data expected"})
            return
        entry: dict[str, Any] | None = None
        files: list[tuple[str, bytes]] = []
        for part in message.iter_parts():
            name = part.get_param("name", header="content-disposition")
            if name == "logEntry":
                entry = json.loads(part.get_payload(decode=True))
            elif name == "files":
                files.append((part.get_filename() or "", part.get_payload(decode=True)))
        if entry is None:
            self._send(400, {"error": "no logEntry part"})
            return
        listed = [a.get("filename") for a in entry.get("attachments") or []]
        if listed != [f for f, _ in files]:
            self._send(400, {"error": f"attachments {listed} do not match the files sent"})
            return
        self.server.next_id += 1
        entry_id = str(self.server.next_id)
        entry.update(id=int(entry_id), createdDate=int(time.time() * 1000), _files=dict(files))
        self.server.entries[entry_id] = entry
        self._send(201, {k: v for k, v in entry.items() if k != "_files"})


class OlogServer(ThreadingHTTPServer):
    allow_reuse_address = True

    def __init__(self, port: int, user: str, password: str) -> None:
        super().__init__(("127.0.0.1", port), OlogHandler)
        self.user = user
        self.password = password
        self.entries: dict[str, dict[str, Any]] = {}
        self.next_id = 100


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--user", default="ops")
    parser.add_argument("--password", default="secret")
    args = parser.parse_args()
    server = OlogServer(args.port, args.user, args.password)
    print(f"PORT {server.server_address[1]}", flush=True)
    sys.stdout.flush()
    server.serve_forever()


if __name__ == "__main__":
    main()
