"""``models.chat_model.timeout_seconds`` bounds each whole model call, not each read.

The HTTP client's timeout restarts with every byte received, so a server that trickles its
reply held a turn for a minute under a 10 s limit. The server here is a real HTTP server on
127.0.0.1 that sends a valid reply one byte every 0.5 s, plain and streamed.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from osprey_desktop.config import build_config
from osprey_desktop.planners.base import PlannerError
from osprey_desktop.planners.chat_model import ChatModelPlanner
from tests.support.cli_env import run_cli

REPO = Path(__file__).resolve().parents[2]
LIMIT = 2.0
BYTE_INTERVAL = 0.5

TASK_REPLY = {"task": "Read the beam current", "depends_on_chat_history": False}


class TricklingServer:
    """Answers every chat completion correctly, one byte every ``BYTE_INTERVAL`` seconds."""

    def __init__(self) -> None:
        self.stopping = threading.Event()
        self.bytes_sent = 0
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = False  # server_close() joins the handler threads
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def __enter__(self) -> TricklingServer:
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stopping.set()  # handlers stop trickling within one interval
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def _trickle(self, handler: BaseHTTPRequestHandler, body: bytes) -> None:
        for byte in body:
            if self.stopping.wait(BYTE_INTERVAL):
                return
            try:
                handler.wfile.write(bytes([byte]))
                handler.wfile.flush()
            except OSError:  # the client gave up: what the limit is for
                return
            with self._lock:
                self.bytes_sent += 1

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.0"

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
                return

            def do_POST(self) -> None:  # noqa: N802
                request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                schema = (request.get("response_format") or {}).get("type") == "json_schema"
                content = json.dumps(TASK_REPLY) if schema else "The beam current is 301.5 mA."
                self.send_response(200)
                if request.get("stream"):
                    body = _sse(content)
                    self.send_header("Content-Type", "text/event-stream")
                else:
                    body = json.dumps(_completion(content)).encode()
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.flush()
                server._trickle(self, body)

        return Handler


def _completion(content: str) -> dict[str, Any]:
    return {
        "id": "chatcmpl-trickle",
        "object": "chat.completion",
        "created": 0,
        "model": "stub-model",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": "stop",
            }
        ],
    }


def _sse(content: str) -> bytes:
    base = {"id": "chatcmpl-trickle", "object": "chat.completion.chunk", "created": 0}
    chunks = [
        {**base, "choices": [{"index": 0, "delta": {"content": word}, "finish_reason": None}]}
        for word in content.split(" ")
    ]
    events = [b"data: " + json.dumps(chunk).encode() + b"\n\n" for chunk in chunks]
    return b"".join(events) + b"data: [DONE]\n\n"


@pytest.fixture
def trickling() -> Iterator[TricklingServer]:
    with TricklingServer() as server:
        yield server


def _planner(base_url: str) -> ChatModelPlanner:
    # The planner imports langchain_openai (1.35 s) on first use; that is not the model call.
    import langchain_openai  # noqa: F401

    settings = {"base_url": base_url, "model": "stub-model", "timeout_seconds": LIMIT}
    return ChatModelPlanner(build_config({"models": {"chat_model": settings}}))


async def test_a_trickled_structured_reply_is_cut_off_at_the_limit(trickling):
    planner = _planner(trickling.base_url)
    started = time.monotonic()

    with pytest.raises(PlannerError) as caught:
        await planner.extract_task([], {})

    elapsed = time.monotonic() - started
    assert elapsed < LIMIT + 1, f"the call took {elapsed:.1f} s under a {LIMIT:g} s limit"
    assert trickling.bytes_sent >= 2  # bytes kept coming: no read timeout could have fired
    message = str(caught.value)
    assert f"did not answer within {LIMIT:g} s" in message
    assert "models.chat_model.timeout_seconds" in message and trickling.base_url in message


async def test_a_trickled_streamed_answer_is_cut_off_at_the_limit(trickling):
    planner = _planner(trickling.base_url)
    started = time.monotonic()

    with pytest.raises(PlannerError, match=rf"did not answer within {LIMIT:g} s .*response"):
        await planner.write_response("Read the beam current", {"messages": []}, {})

    elapsed = time.monotonic() - started
    assert elapsed < LIMIT + 1, f"the call took {elapsed:.1f} s under a {LIMIT:g} s limit"
    assert trickling.bytes_sent >= 2


def test_ask_fails_with_exit_code_1_naming_the_limit(trickling, tmp_path):
    config = tmp_path / "config.yaml"
    config.write_text(
        "models:\n"
        "  planner: chat_model\n"
        "  chat_model:\n"
        f"    base_url: {trickling.base_url}\n"
        f"    timeout_seconds: {LIMIT}\n"
        "    fallback_to_builtin: false\n"
    )
    started = time.monotonic()

    done = run_cli(
        tmp_path,
        *["--config", str(config), "ask", "--json", "--db", str(tmp_path / "threads.sqlite")],
        "what is the beam current?",
        timeout=60,
    )

    assert done.returncode == 1, done.stderr
    result = json.loads(done.stdout)
    assert f"did not answer within {LIMIT:g} s" in result["error"]
    assert "timeout_seconds" in result["error"]
    assert "Traceback" not in done.stderr
    # one cut-off call (task extraction), not a minute of trickling; start-up included
    assert time.monotonic() - started < 30
