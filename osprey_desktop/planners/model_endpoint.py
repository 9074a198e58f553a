"""Language models that are not OpenAI: how to get JSON out of them, and what to do when
they are down.

**Structured output** (``models.chat_model.structured_output``). Servers differ in what they
accept for a structured answer:

- ``json_schema``: ``response_format`` json_schema (OpenAI, vLLM, recent llama.cpp);
- ``json_object``: ``response_format`` json_object, with the schema in the prompt (servers
  that refuse json_schema, older Ollama);
- ``tool_call``: the answer as a call of one tool whose parameters are the schema (servers
  made for function calling);
- ``text``: no ``response_format`` at all; the schema is in the prompt and the first JSON
  object of the plain-text reply is taken (a ```json fence, prose around it): any endpoint.

Every method gives the chat-model planner the same ``{"raw", "parsed", "parsing_error"}``, so
its validation, retries and messages are one code path.

**Fallback** (``models.chat_model.fallback_to_builtin``, on by default). When the endpoint is
down, refuses the connection, keeps failing with 5xx/429 or does not answer in time
(``EndpointUnavailable``), ``BuiltinPlanner`` answers that decision instead, and the answer of
the turn says so (``turn_notice``). A configuration problem (a refused key, an unknown model,
a request the server rejects) is not papered over: it is an error that names the fix.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

from pydantic import BaseModel, ValidationError

from osprey_desktop.planners.base import ExtractedTask, PlannerError

StructuredOutput = Literal["json_schema", "json_object", "tool_call", "text"]
#: langchain-openai's name of each method
_LANGCHAIN_METHOD = {
    "json_schema": "json_schema",
    "json_object": "json_mode",
    "tool_call": "function_calling",
}
_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.S | re.I)

logger = logging.getLogger(__name__)


class EndpointUnavailable(PlannerError):
    """The endpoint cannot be used right now: down, refusing, failing or too slow."""

    #: What the error report advises when no fallback answered (see default_error_classification).
    suggestion = (
        "The language model service did not answer. Check that it is running and not "
        "overloaded, raise models.chat_model.timeout_seconds if it is only slow, or let the "
        "built-in planner stand in (models.chat_model.fallback_to_builtin: true)."
    )


class EndpointUnreachable(EndpointUnavailable, ConnectionError):
    """No connection to the endpoint. A ``ConnectionError`` too, so that without the fallback
    the error report advises checking that the service is reachable (a refused connection
    is quick to try again; a timeout is not retried, it would multiply the time limit)."""

    suggestion = (
        "The language model service cannot be reached. Check that it is reachable (the server "
        "running, models.chat_model.base_url pointing at it), or let the built-in planner stand "
        "in (models.chat_model.fallback_to_builtin: true)."
    )


def schema_instruction(schema: type[BaseModel]) -> str:
    """The words asking for one JSON object of ``schema`` (json_object and text)."""
    shape = json.dumps(schema.model_json_schema(), separators=(",", ":"))
    return f"Answer with one JSON object and nothing else. It must match this JSON Schema: {shape}"


def with_instruction(messages: Sequence[Any], schema: type[BaseModel]) -> list[Any]:
    """``messages`` with the schema instruction added to their system message (one system
    message: some servers' chat templates refuse a second)."""
    from langchain_core.messages import SystemMessage

    instruction = schema_instruction(schema)
    listed = list(messages)
    if listed and isinstance(listed[0], SystemMessage) and isinstance(listed[0].content, str):
        return [SystemMessage(content=f"{listed[0].content}\n\n{instruction}"), *listed[1:]]
    return [SystemMessage(content=instruction), *listed]


def extract_json(text: str) -> Any:
    """The first JSON object in a plain-text reply (in a ```json fence or among prose).

    Raises ``ValueError`` naming what is wrong when there is none.
    """
    candidates = [m.group(1) for m in _FENCE.finditer(text)] + [text]
    decoder = json.JSONDecoder()
    for candidate in candidates:
        for start in (i for i, c in enumerate(candidate) if c == "{"):
            try:
                value, _ = decoder.raw_decode(candidate[start:])
            except json.JSONDecodeError:
                continue
            if isinstance(value, dict):
                return value
    if not text.strip():
        raise ValueError("the reply was empty")
    raise ValueError("the reply held no JSON object")


class _TextStructured:
    """``text``: ask in plain text, take the first JSON object of the reply."""

    def __init__(self, model: Any, schema: type[BaseModel]) -> None:
        self.model = model
        self.schema = schema

    async def ainvoke(self, messages: Sequence[Any], config: Any = None) -> dict[str, Any]:
        raw = await self.model.ainvoke(with_instruction(messages, self.schema), config=config)
        content = raw.content if isinstance(raw.content, str) else str(raw.content)
        try:
            parsed = self.schema.model_validate(extract_json(content))
        except (ValueError, ValidationError) as exc:
            return {"raw": raw, "parsed": None, "parsing_error": exc}
        return {"raw": raw, "parsed": parsed, "parsing_error": None}


class _PromptedStructured:
    """``json_object``: the schema goes in the prompt, the server only promises JSON."""

    def __init__(self, runnable: Any, schema: type[BaseModel]) -> None:
        self.runnable = runnable
        self.schema = schema

    async def ainvoke(self, messages: Sequence[Any], config: Any = None) -> Any:
        return await self.runnable.ainvoke(with_instruction(messages, self.schema), config=config)


def structured_runnable(model: Any, schema: type[BaseModel], method: str) -> Any:
    """What answers ``schema`` from ``model`` by ``method`` (see the module); its
    ``ainvoke`` returns ``{"raw", "parsed", "parsing_error"}``."""
    if method == "text":
        return _TextStructured(model, schema)
    if method not in _LANGCHAIN_METHOD:
        raise PlannerError(
            f"models.chat_model.structured_output is {method!r}; use json_schema, json_object, "
            "tool_call or text"
        )
    runnable = model.with_structured_output(
        schema, method=_LANGCHAIN_METHOD[method], include_raw=True
    )
    return _PromptedStructured(runnable, schema) if method == "json_object" else runnable


def rejected_request_advice(method: str) -> str:
    """What to try when the server rejects a structured request (HTTP 400/422)."""
    others = [m for m in ("json_object", "tool_call", "text") if m != method]
    return (
        f"the server may not support structured output by {method}; set "
        f"models.chat_model.structured_output to {', '.join(others[:-1])} or {others[-1]} "
        "(text works with any endpoint)"
    )


class BuiltinFallbackPlanner:
    """The chat-model planner, with ``BuiltinPlanner`` standing in while its endpoint is
    unavailable (``EndpointUnavailable``); every other error passes through."""

    def __init__(self, primary: Any, fallback: Callable[[], Any] | None = None) -> None:
        self.primary = primary
        self.name = getattr(primary, "name", "chat_model")
        self._fallback_factory = fallback or _builtin
        self._fallback: Any = None
        self._down: str | None = None  # why the endpoint is not used this turn
        self._told = False

    def __getattr__(self, name: str) -> Any:  # settings, base_url, ask_structured...
        return getattr(self.primary, name)

    def turn_notice(self) -> str | None:
        """What the answer says when the built-in planner stood in this turn (said once)."""
        if self._down is None or self._told:
            return None
        self._told = True
        return (
            f"*The language model did not answer ({self._down}); the built-in planner "
            "planned this turn instead.*"
        )

    async def _either(self, method: str, *args: Any) -> Any:
        if self._down is None:
            try:
                return await getattr(self.primary, method)(*args)
            except EndpointUnavailable as exc:
                # the rest of the turn does without the model: asking a dead endpoint again
                # for each decision would cost its whole time limit every time
                self._down = str(exc)
                logger.warning("%s; the built-in planner stands in for this turn", exc)
        if self._fallback is None:
            self._fallback = self._fallback_factory()
        return await getattr(self._fallback, method)(*args)

    async def ask_structured(self, what: str, schema: type[BaseModel], messages: list[Any]) -> Any:
        """A structured question from another part of the product (channel finding): refused
        at once while the endpoint is down this turn, so its caller goes on without the model."""
        if self._down is not None:
            raise EndpointUnavailable(self._down)
        try:
            return await self.primary.ask_structured(what, schema, messages)
        except EndpointUnavailable as exc:
            self._down = str(exc)
            raise

    async def extract_task(self, messages: Sequence[Any], state: Mapping[str, Any]) -> Any:
        self._down, self._told = None, False  # a new turn asks the model again
        task: ExtractedTask = await self._either("extract_task", messages, state)
        return task

    async def select_capabilities(self, task: str, capabilities: Any, state: Any) -> Any:
        return await self._either("select_capabilities", task, capabilities, state)

    async def create_plan(self, task: str, capabilities: Any, state: Any) -> Any:
        return await self._either("create_plan", task, capabilities, state)

    async def choose_next_step(self, task: str, capabilities: Any, state: Any) -> Any:
        return await self._either("choose_next_step", task, capabilities, state)

    async def write_response(self, task: str, state: Any, context_summaries: Any) -> str:
        text: str = await self._either("write_response", task, state, context_summaries)
        return text

    async def ask_clarification(self, task: str, state: Any, reason: str | None = None) -> str:
        text: str = await self._either("ask_clarification", task, state, reason)
        notice = self.turn_notice()
        return f"{notice}\n\n{text}" if notice else text


def _builtin() -> Any:
    from osprey_desktop.planners.builtin import BuiltinPlanner

    return BuiltinPlanner()


def with_builtin_fallback(planner: Any, config: Any) -> Any:
    """``planner`` wrapped in ``BuiltinFallbackPlanner`` unless the config turns it off."""
    settings = getattr(getattr(config, "models", None), "chat_model", None)
    if settings is not None and not getattr(settings, "fallback_to_builtin", True):
        return planner
    return BuiltinFallbackPlanner(planner)


def turn_notice(planner: Any) -> str | None:
    """The fallback notice of this turn, if ``planner`` stood in with the built-in one."""
    reader = getattr(planner, "turn_notice", None)
    return reader() if callable(reader) else None


__all__ = [
    "BuiltinFallbackPlanner",
    "EndpointUnavailable",
    "EndpointUnreachable",
    "StructuredOutput",
    "extract_json",
    "rejected_request_advice",
    "schema_instruction",
    "structured_runnable",
    "turn_notice",
    "with_builtin_fallback",
    "with_instruction",
]
