"""A small OpenAI-compatible chat-completions server for tests, on 127.0.0.1 only.

Tests of the chat-model planner cannot reach a real model (no network), and mocking our own
code would test nothing. This server speaks just enough of ``POST /v1/chat/completions`` for
``langchain_openai.ChatOpenAI`` and the ``openai`` SDK: plain and streamed (SSE) replies,
``response_format`` json_schema, tool calls and HTTP errors. A test scripts the replies, as a
queue of canned answers or a function of the request, and reads back every request received.

    with OpenAIStub() as stub:
        stub.queue(json_reply({"task": "read the current"}), text_reply("Done."))
        planner = ChatModelPlanner(config_pointing_at(stub.base_url))
        ...
        assert "beam current" in stub.requests[0].prompt_text
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = [
    "OpenAIStub",
    "StubReply",
    "StubRequest",
    "http_error",
    "json_reply",
    "text_reply",
    "tool_call_reply",
]


@dataclass(frozen=True)
class StubReply:
    """One scripted answer: message content and/or tool calls, or an HTTP error."""

    content: str | None = None
    tool_calls: tuple[dict[str, Any], ...] = ()
    status: int = 200
    error_message: str = ""
    finish_reason: str = "stop"


def text_reply(content: str) -> StubReply:
    """An assistant message with plain text (also what a malformed JSON reply looks like)."""
    return StubReply(content=content)


def json_reply(payload: Any) -> StubReply:
    """An assistant message whose content is ``payload`` serialised as JSON."""
    return StubReply(content=json.dumps(payload))


def tool_call_reply(name: str, arguments: dict[str, Any] | str) -> StubReply:
    """An assistant message calling one tool; ``arguments`` may be a raw (even broken) string."""
    args = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return StubReply(tool_calls=({"name": name, "arguments": args},), finish_reason="tool_calls")


def http_error(status: int, message: str = "stub error") -> StubReply:
    """An HTTP error answer with an OpenAI-style ``{"error": {...}}`` body."""
    return StubReply(status=status, error_message=message)


@dataclass
class StubRequest:
    """One request the stub received, kept so tests can assert on prompts and options."""

    path: str
    headers: dict[str, str]
    body: dict[str, Any]

    @property
    def messages(self) -> list[dict[str, Any]]:
        return list(self.body.get("messages") or [])

    @property
    def prompt_text(self) -> str:
        """Every message's text joined, for ``"name" in request.prompt_text`` assertions."""
        parts = []
        for message in self.messages:
            content = message.get("content")
            if isinstance(content, list):
                content = " ".join(str(block.get("text", "")) for block in content)
            parts.append(str(content or ""))
        return "\n".join(parts)

    @property
    def response_schema(self) -> dict[str, Any] | None:
        """The ``json_schema`` entry of ``response_format`` (name, schema, strict), if any."""
        response_format = self.body.get("response_format") or {}
        if response_format.get("type") != "json_schema":
            return None
        return response_format.get("json_schema")

    @property
    def tool_names(self) -> list[str]:
        return [tool["function"]["name"] for tool in self.body.get("tools") or []]


Responder = Callable[[StubRequest], StubReply | str | dict[str, Any]]


@dataclass
class _Script:
    replies: deque[StubReply] = field(default_factory=deque)
    responder: Responder | None = None


class OpenAIStub:
    """A threaded HTTP server on a free loopback port; use as a context manager.

    Queued replies are served first, in order; when the queue is empty the responder (if any)
    answers. A request nobody scripted gets HTTP 500 with "no reply scripted", so a test that
    forgot a reply fails loudly instead of hanging.
    """

    def __init__(self, responder: Responder | None = None, *, model: str = "stub-model") -> None:
        self.model = model
        self._script = _Script(responder=responder)
        self._lock = threading.Lock()
        self._requests: list[StubRequest] = []
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # ---- scripting -------------------------------------------------------------------
    def queue(self, *replies: StubReply | str | dict[str, Any]) -> None:
        """Append canned replies; a str is plain text, a dict is a JSON reply."""
        with self._lock:
            self._script.replies.extend(_as_reply(reply) for reply in replies)

    def set_responder(self, responder: Responder | None) -> None:
        with self._lock:
            self._script.responder = responder

    @property
    def requests(self) -> list[StubRequest]:
        with self._lock:
            return list(self._requests)

    @property
    def pending_replies(self) -> int:
        with self._lock:
            return len(self._script.replies)

    # ---- lifecycle -------------------------------------------------------------------
    @property
    def port(self) -> int:
        if self._server is None:
            raise RuntimeError("the OpenAI stub is not running: call start() first")
        return self._server.server_address[1]

    @property
    def base_url(self) -> str:
        """What ``ChatOpenAI(base_url=...)`` takes: ``http://127.0.0.1:<port>/v1``."""
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> OpenAIStub:
        if self._server is not None:
            return self
        server = ThreadingHTTPServer(("127.0.0.1", 0), _make_handler(self))
        server.daemon_threads = True
        self._server = server
        self._thread = threading.Thread(
            target=server.serve_forever,
            kwargs={"poll_interval": 0.05},
            name=f"openai-stub-{self.port}",
            daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving, close the socket and join the server thread."""
        server, thread = self._server, self._thread
        self._server, self._thread = None, None
        if server is None:
            return
        server.shutdown()
        server.server_close()
        if thread is not None:
            thread.join(timeout=5)

    def __enter__(self) -> OpenAIStub:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    # ---- serving ---------------------------------------------------------------------
    def _answer(self, request: StubRequest) -> StubReply:
        with self._lock:
            self._requests.append(request)
            if self._script.replies:
                return self._script.replies.popleft()
            responder = self._script.responder
        if responder is None:
            return http_error(500, "OpenAI stub: no reply scripted for this request")
        return _as_reply(responder(request))


def _as_reply(reply: StubReply | str | dict[str, Any]) -> StubReply:
    if isinstance(reply, StubReply):
        return reply
    if isinstance(reply, str):
        return text_reply(reply)
    if isinstance(reply, dict):
        return json_reply(reply)
    raise TypeError(f"a stub reply must be StubReply, str or dict, got {type(reply).__name__}")


def _make_handler(stub: OpenAIStub) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        # HTTP/1.0: one request per connection, so no keep-alive socket outlives stop().
        protocol_version = "HTTP/1.0"
        timeout = 10

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
            return  # keep pytest output clean

        def do_GET(self) -> None:  # noqa: N802
            if self.path.rstrip("/").endswith("/models"):
                self._send_json(200, {"object": "list", "data": [_model_entry(stub.model)]})
            else:
                self._send_json(404, _error_body(f"no route {self.path}", "not_found"))

        def do_POST(self) -> None:  # noqa: N802
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            if not self.path.rstrip("/").endswith("/chat/completions"):
                self._send_json(404, _error_body(f"no route {self.path}", "not_found"))
                return
            try:
                body = json.loads(raw or b"{}")
            except json.JSONDecodeError as exc:
                self._send_json(400, _error_body(f"request body is not JSON: {exc}"))
                return
            request = StubRequest(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
            try:
                reply = stub._answer(request)
            except Exception as exc:  # a broken responder must not kill the server thread
                reply = http_error(500, f"OpenAI stub responder raised {exc!r}")
            if reply.status != 200:
                self._send_json(reply.status, _error_body(reply.error_message))
            elif body.get("stream"):
                self._send_stream(reply, body, stub.model)
            else:
                self._send_json(200, _completion(reply, body, stub.model))

        def _send_json(self, status: int, payload: dict[str, Any]) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            # the client may have given up first (a call cut off at its time limit)
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                self.wfile.write(data)

        def _send_stream(self, reply: StubReply, body: dict[str, Any], model: str) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-cache")
            self.end_headers()
            for chunk in _stream_chunks(reply, body, model):
                self.wfile.write(b"data: " + json.dumps(chunk).encode() + b"\n\n")
                self.wfile.flush()
            self.wfile.write(b"data: [DONE]\n\n")
            self.wfile.flush()

    return Handler


def _model_entry(model: str) -> dict[str, Any]:
    return {"id": model, "object": "model", "created": 0, "owned_by": "stub"}


def _error_body(message: str, kind: str = "server_error") -> dict[str, Any]:
    return {"error": {"message": message, "type": kind, "param": None, "code": None}}


def _usage(body: dict[str, Any], reply: StubReply) -> dict[str, int]:
    prompt = len(json.dumps(body.get("messages") or [])) // 4
    completion = len(reply.content or "") // 4 + sum(
        len(call["arguments"]) // 4 for call in reply.tool_calls
    )
    return {
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "total_tokens": prompt + completion,
    }


def _tool_calls(reply: StubReply) -> list[dict[str, Any]]:
    return [
        {
            "id": f"call_{index}",
            "type": "function",
            "function": {"name": call["name"], "arguments": call["arguments"]},
        }
        for index, call in enumerate(reply.tool_calls)
    ]


def _completion(reply: StubReply, body: dict[str, Any], model: str) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": reply.content, "refusal": None}
    if reply.tool_calls:
        message["tool_calls"] = _tool_calls(reply)
    return {
        "id": f"chatcmpl-stub-{time.monotonic_ns()}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": body.get("model") or model,
        "choices": [
            {
                "index": 0,
                "message": message,
                "finish_reason": reply.finish_reason,
                "logprobs": None,
            }
        ],
        "usage": _usage(body, reply),
    }


def _pieces(text: str, size: int = 8) -> Iterable[str]:
    return (text[i : i + size] for i in range(0, len(text), size))


def _stream_chunks(reply: StubReply, body: dict[str, Any], model: str) -> Iterable[dict]:
    """The reply as ``chat.completion.chunk`` events: role, content pieces, tool calls, end."""
    base = {
        "id": f"chatcmpl-stub-{time.monotonic_ns()}",
        "object": "chat.completion.chunk",
        "created": int(time.time()),
        "model": body.get("model") or model,
    }

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

    yield chunk({"role": "assistant", "content": ""})
    for piece in _pieces(reply.content or ""):
        yield chunk({"content": piece})
    for index, call in enumerate(_tool_calls(reply)):
        head = {**call, "function": {"name": call["function"]["name"], "arguments": ""}}
        yield chunk({"tool_calls": [{"index": index, **head}]})
        for piece in _pieces(call["function"]["arguments"]):
            yield chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})
    yield chunk({}, reply.finish_reason)
    if (body.get("stream_options") or {}).get("include_usage"):
        yield {**base, "choices": [], "usage": _usage(body, reply)}
