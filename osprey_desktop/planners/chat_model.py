"""The chat-model planner: every planning decision asked of an OpenAI-compatible endpoint.

Structured decisions (task, capabilities, plan, next step) use langchain's
``with_structured_output`` with a json_schema ``response_format``; answers and clarifying
questions are plain text. Model output is validated; an invalid reply is retried with a note
saying what was wrong, and after ``max_retries`` retries a ``PlannerError`` names the endpoint
and the reason. ``langchain_openai`` (1.35 s to import) is imported on first use only.

``timeout_seconds`` bounds every call as a whole: the HTTP client's timeout only bounds the
wait for each piece of the reply, so a server that trickles its answer (one byte every
half second) would otherwise hold the turn for as long as it likes.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import os
from collections.abc import Mapping, Sequence
from typing import Any, TypeVar
from urllib.parse import urlsplit

from pydantic import BaseModel, ValidationError

from osprey_desktop.base.planning import ExecutionPlan, PlannedStep
from osprey_desktop.config.models import AppConfig, ChatModelConfig
from osprey_desktop.language.request import Request
from osprey_desktop.planners import prompts
from osprey_desktop.planners.base import ExtractedTask, PlannerError
from osprey_desktop.planners.model_endpoint import (
    EndpointUnavailable,
    EndpointUnreachable,
    rejected_request_advice,
    structured_runnable,
)
from osprey_desktop.planners.structured import (
    CapabilitySelectionReply,
    NextStepReply,
    PlanReply,
    TaskReply,
    describe_validation_error,
    to_execution_plan,
    to_planned_step,
    to_request,
)

Reply = TypeVar("Reply", bound=BaseModel)

LOCAL_ENDPOINT_KEY = "not-needed"
"""Sent to a loopback endpoint when no key is configured: vLLM and Ollama ignore it, and the
OpenAI client refuses to start without some key."""

logger = logging.getLogger(__name__)
_NOSTREAM_TAGS = ["nostream"]  # LangGraph's TAG_NOSTREAM: keep plan JSON out of chat streams


class _InvalidReply(Exception):
    """The model answered, but not usably; the planner retries."""


class _TransientFailure(Exception):
    """The server failed in a way worth retrying (HTTP 5xx, 429)."""


def without_unasked_writes(
    plan: Any,
    task: str,
    state: Mapping[str, Any],
    capabilities: Sequence[Any],
    parsed: Request | None = None,
) -> Any:
    """The model's plan, or one clarify step when it writes though the operator asked for no
    change ("what is the ID04 gap?"): a model may over-reach; the operator's words decide.

    Both the model's task and the operator's own latest words are read (the task may have
    resolved "do it again" into "set HCM01 to 1.5 A"), by the built-in rules and the parse of
    the request; ``parsed`` (the model's own parse) must say a change too when it is given.
    """
    from osprey_desktop.planners.builtin import asks_for_change, parse
    from osprey_desktop.state import StateManager

    writers = {c.name for c in capabilities if getattr(c, "writes", False)}
    steps = list(plan.get("steps") or [])
    if not any(step.get("capability") in writers for step in steps):
        return plan
    spoken = (StateManager.get_user_query(state) or "").strip()
    asked = any(asks_for_change(t) or parse(t).changes for t in (task, spoken) if t)
    if asked and (parsed is None or parsed.changes):
        return plan
    logger.warning("the model planned a write the request does not ask for; asking instead")
    return {
        "steps": [
            {
                "context_key": "clarify",
                "capability": "clarify",
                "task_objective": f"Ask the operator for what is missing to: {task}",
                "success_criteria": "The operator knows what to add",
                "expected_output": None,
                "parameters": {
                    "reason": "the request does not ask to change anything, so nothing will "
                    "be written; say what to set and to which value if a change is meant"
                },
                "inputs": [],
            }
        ]
    }


def is_loopback_url(url: str) -> bool:
    """True for http(s)://localhost, 127.x.x.x or [::1] endpoints (a model on this machine)."""
    host = (urlsplit(url).hostname or "").lower()
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def resolve_api_key(settings: ChatModelConfig) -> str:
    """The key from the environment variable named in the config.

    A local endpoint (loopback URL) needs no key, and ``api_key_env: null`` says the endpoint
    takes none; any other endpoint without its key is refused before a request is sent.
    """
    variable = settings.api_key_env
    if not variable:
        return LOCAL_ENDPOINT_KEY
    value = os.environ.get(variable, "").strip()
    if value:
        return value
    if is_loopback_url(settings.base_url):
        return LOCAL_ENDPOINT_KEY
    raise PlannerError(
        f"the chat-model planner has no API key for {settings.base_url}: the environment "
        f"variable {variable} (named by models.chat_model.api_key_env) is not set. Set it, "
        "or set models.planner to builtin."
    )


def _chat_settings(config: AppConfig | ChatModelConfig | None) -> ChatModelConfig:
    if config is None:
        from osprey_desktop.config import get_config

        config = get_config()
    if isinstance(config, AppConfig):
        return config.models.chat_model
    if isinstance(config, ChatModelConfig):
        return config
    raise TypeError(f"ChatModelPlanner needs an AppConfig, got {type(config).__name__}")


def _check_base_url(url: str) -> None:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise PlannerError(
            f"models.chat_model.base_url {url!r} is not an http(s) URL; use the endpoint's "
            "OpenAI-compatible root, e.g. http://127.0.0.1:8000/v1"
        )


class ChatModelPlanner:
    """Planner backed by any OpenAI-compatible chat endpoint (OpenAI, vLLM, Ollama, ...)."""

    name = "chat_model"

    def __init__(
        self,
        config: AppConfig | ChatModelConfig | None = None,
        *,
        retry_backoff_seconds: float | None = None,
    ) -> None:
        settings = _chat_settings(config)
        _check_base_url(settings.base_url)
        self.settings = settings
        self.base_url = settings.base_url
        self._api_key = resolve_api_key(settings)
        if retry_backoff_seconds is None:
            retry_backoff_seconds = (
                config.execution_control.limits.retry_backoff_seconds
                if isinstance(config, AppConfig)
                else 0.2
            )
        self.retry_backoff_seconds = retry_backoff_seconds
        self._json_model: Any = None
        self._text_model: Any = None
        self._structured: dict[type[BaseModel], Any] = {}
        #: The model's parse of each task it extracted (the latest few), for create_plan.
        self.parses: dict[str, Request] = {}

    # ---- Planner protocol --------------------------------------------------------------
    async def extract_task(
        self, messages: Sequence[Any], state: Mapping[str, Any]
    ) -> ExtractedTask:
        reply = await self._ask_structured(
            "task", TaskReply, prompts.task_extraction_messages(messages)
        )
        task = reply.task.strip()
        if not task:
            raise PlannerError(f"the language model at {self.base_url} extracted an empty task")
        if reply.request is not None:
            self.parses[task] = to_request(reply.request, task)
            while len(self.parses) > 32:
                self.parses.pop(next(iter(self.parses)))
        return ExtractedTask(
            task=task,
            depends_on_chat_history=reply.depends_on_chat_history,
            depends_on_user_memory=reply.depends_on_user_memory,
        )

    async def select_capabilities(
        self, task: str, capabilities: Sequence[Any], state: Mapping[str, Any]
    ) -> list[str]:
        reply = await self._ask_structured(
            "capability selection",
            CapabilitySelectionReply,
            prompts.selection_messages(task, capabilities, state),
        )
        # Unknown names pass through: the classification node checks them against the registry.
        return list(dict.fromkeys(name.strip() for name in reply.capabilities if name.strip()))

    async def create_plan(
        self, task: str, capabilities: Sequence[Any], state: Mapping[str, Any]
    ) -> ExecutionPlan:
        plan = await self._ask_structured(
            "plan", PlanReply, prompts.plan_messages(task, capabilities, state), to_execution_plan
        )
        return without_unasked_writes(plan, task, state, capabilities, self.parses.get(task))

    async def choose_next_step(
        self, task: str, capabilities: Sequence[Any], state: Mapping[str, Any]
    ) -> PlannedStep:
        return await self._ask_structured(
            "next step",
            NextStepReply,
            prompts.next_step_messages(task, capabilities, state),
            lambda reply: to_planned_step(reply.step),
        )

    async def write_response(
        self, task: str, state: Mapping[str, Any], context_summaries: Any
    ) -> str:
        return await self._ask_text(
            "response", prompts.response_messages(task, state, context_summaries)
        )

    async def ask_clarification(
        self, task: str, state: Mapping[str, Any], reason: str | None = None
    ) -> str:
        return await self._ask_text(
            "clarification question", prompts.clarification_messages(task, state, reason)
        )

    # ---- model access ------------------------------------------------------------------
    def _models(self) -> tuple[Any, Any]:
        if self._json_model is None:
            from langchain_openai import ChatOpenAI  # lazy: 1.35 s, only when configured

            common: dict[str, Any] = {
                "model": self.settings.model,
                "base_url": self.base_url,
                "api_key": self._api_key,
                "temperature": self.settings.temperature,
                "timeout": self.settings.timeout_seconds,
                "max_retries": 0,  # retries are ours: they also cover invalid replies
            }
            # Structured calls never stream (a partial plan is useless to a UI); text
            # answers may, so a window can show the response as it is written.
            self._json_model = ChatOpenAI(**common, disable_streaming=True)
            self._text_model = ChatOpenAI(**common)
        return self._json_model, self._text_model

    def _structured_runnable(self, schema: type[BaseModel]) -> Any:
        if schema not in self._structured:
            json_model, _ = self._models()
            method = getattr(self.settings, "structured_output", "json_schema")
            self._structured[schema] = structured_runnable(json_model, schema, method)
        return self._structured[schema]

    async def ask_structured(self, what: str, schema: type[BaseModel], messages: list[Any]) -> Any:
        """One structured question to the model for another part of the product (channel
        finding asks which channels a request means), with the planner's retries, time limit
        and error messages."""
        return await self._ask_structured(what, schema, messages)

    async def _ask_structured(
        self,
        what: str,
        schema: type[Reply],
        messages: list[Any],
        convert: Any = None,
    ) -> Any:
        runnable = self._structured_runnable(schema)
        config = {"tags": _NOSTREAM_TAGS, "run_name": f"planner:{what}"}

        async def attempt(conversation: list[Any]) -> Any:
            try:
                result = await runnable.ainvoke(conversation, config=config)
            except ValidationError as exc:
                raise _InvalidReply(describe_validation_error(exc)) from exc
            parsed = result.get("parsed")
            if parsed is None:
                raise _InvalidReply(_unparsed_reason(result))
            if convert is None:
                return parsed
            try:
                return convert(parsed)
            except (ValidationError, ValueError) as exc:
                raise _InvalidReply(str(exc)) from exc

        return await self._with_retries(what, messages, attempt)

    async def _ask_text(self, what: str, messages: list[Any]) -> str:
        _, text_model = self._models()
        config = {"run_name": f"planner:{what}"}

        async def attempt(conversation: list[Any]) -> str:
            message = await text_model.ainvoke(conversation, config=config)
            text = _message_text(message).strip()
            if not text:
                raise _InvalidReply("the reply was empty")
            return text

        return await self._with_retries(what, messages, attempt)

    async def _with_retries(self, what: str, messages: list[Any], attempt: Any) -> Any:
        """Run ``attempt`` until it succeeds or the retry budget is spent; map every failure."""
        import openai  # already loaded by langchain_openai

        attempts = self.settings.max_retries + 1
        conversation = list(messages)
        last_reason = ""
        invalid = False
        for number in range(1, attempts + 1):
            try:
                return await self._within_time_limit(what, attempt, conversation)
            except _InvalidReply as exc:
                last_reason, invalid = str(exc), True
                conversation = [*messages, prompts.correction_message(last_reason)]
            except (openai.LengthFinishReasonError, openai.ContentFilterFinishReasonError) as exc:
                last_reason, invalid = f"the reply was cut off ({type(exc).__name__})", True
                conversation = [*messages, prompts.correction_message(last_reason)]
            except openai.OpenAIError as exc:
                failure = self._classify_api_error(exc, what)
                if isinstance(failure, PlannerError):
                    raise failure from exc
                last_reason, invalid = str(failure), False
                if number < attempts:
                    await asyncio.sleep(self.retry_backoff_seconds * number)
            except ValueError as exc:
                # langchain's output parsers raise ValueError subclasses for unreadable replies.
                last_reason, invalid = _first_line(exc), True
                conversation = [*messages, prompts.correction_message(last_reason)]
        if invalid:
            raise PlannerError(
                f"the language model at {self.base_url} returned an invalid {what} "
                f"{attempts} times: {last_reason}"
            )
        raise EndpointUnavailable(
            f"the language model at {self.base_url} failed {attempts} times while asked for a "
            f"{what}: {last_reason}. Check the server's log, or set models.planner to builtin."
        )

    async def _within_time_limit(self, what: str, attempt: Any, conversation: list[Any]) -> Any:
        """One model call, cut off when the whole call (streamed reply included) is too long."""
        limit = self.settings.timeout_seconds
        try:
            async with asyncio.timeout(limit) as deadline:
                return await attempt(conversation)
        except TimeoutError as exc:
            if not deadline.expired():
                raise  # not ours: let the caller see it as it is
            raise EndpointUnavailable(
                f"the language model at {self.base_url} did not answer within {limit:g} s "
                f"(models.chat_model.timeout_seconds, the limit on each whole call, a "
                f"streamed reply included) while asked for a {what}"
            ) from exc

    def _classify_api_error(self, exc: Exception, what: str) -> Exception:
        """A ``PlannerError`` to raise at once, or a ``_TransientFailure`` worth a retry."""
        import openai

        url = self.base_url
        if isinstance(exc, openai.APITimeoutError):
            return EndpointUnavailable(
                f"the language model at {url} did not answer within "
                f"{self.settings.timeout_seconds:g} s (models.chat_model.timeout_seconds) "
                f"while asked for a {what}"
            )
        if isinstance(exc, openai.APIConnectionError):
            return EndpointUnreachable(
                f"cannot reach the language model at {url} ({_connection_cause(exc)}): check "
                "that the server is running and models.chat_model.base_url points at it"
            )
        if not isinstance(exc, openai.APIStatusError):
            return PlannerError(f"the language model at {url} failed: {_first_line(exc)}")
        status, detail = exc.status_code, _status_detail(exc)
        if status in (401, 403):
            variable = self.settings.api_key_env or "(none configured)"
            return PlannerError(
                f"the language model at {url} refused the API key (HTTP {status}: {detail}); "
                f"check the key in the environment variable {variable}"
            )
        if status == 404:
            return PlannerError(
                f"the language model at {url} answered HTTP 404 ({detail}): check "
                f"models.chat_model.model ({self.settings.model!r}) and that base_url ends "
                "at the OpenAI-compatible root (usually /v1)"
            )
        if status == 429 or status >= 500:
            return _TransientFailure(f"HTTP {status}: {detail}")
        return PlannerError(
            f"the language model at {url} rejected the request for a {what} (HTTP {status}: "
            f"{detail}); "
            + rejected_request_advice(getattr(self.settings, "structured_output", "json_schema"))
        )


def _unparsed_reason(result: Mapping[str, Any]) -> str:
    error = result.get("parsing_error")
    raw = result.get("raw")
    if getattr(raw, "tool_calls", None):
        return "the reply was a tool call instead of a JSON message"
    if error is not None:
        if isinstance(error, ValidationError):
            return describe_validation_error(error)
        if not _message_text(raw).strip():
            return "the reply was empty"
        return _first_line(error)
    return "the reply held no JSON object"


def _message_text(message: Any) -> str:
    content = getattr(message, "content", "")
    if isinstance(content, str):
        return content
    return "".join(
        str(block.get("text", "")) if isinstance(block, Mapping) else str(block)
        for block in content or []
    )


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def _status_detail(exc: Any) -> str:
    body = getattr(exc, "body", None)
    if isinstance(body, Mapping):
        error = body.get("error", body)
        message = error.get("message") if isinstance(error, Mapping) else error
        if message:
            return _first_line(Exception(message))
    return _first_line(exc)


def _connection_cause(exc: BaseException) -> str:
    seen = exc
    while seen is not None:
        if isinstance(seen, ConnectionRefusedError):
            return "connection refused"
        seen = seen.__cause__ or seen.__context__
    cause = exc.__cause__
    return _first_line(cause) if cause is not None else _first_line(exc)


__all__ = ["LOCAL_ENDPOINT_KEY", "ChatModelPlanner", "is_loopback_url", "resolve_api_key"]
