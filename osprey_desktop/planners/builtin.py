"""The built-in planner: deterministic, offline, driven by what capabilities declare.

* task: the latest request; when it points back ("those", "again") the previous request is
  noted as ``<request> (follow-up to: "<previous request>")`` and earlier results may be reused;
* capabilities: scored by their ``keywords`` and ``examples`` (``language.words``); a
  capability with ``writes = True`` only on a command (``asks_for_change``, in
  ``planners.change_requests``): a change verb, an assignment, or a statement giving a name a
  value its writer can act on; greetings match nothing;
* plan: backward chaining over ``requires``/``provides`` (``planners.plan_builder``), respond
  last, clarify instead when an input cannot be produced;
* response: the context summaries of this turn rendered as Markdown
  (``planners.builtin_answers``).

Requests are read through ``parse`` (``planners.channel_words``: the facility's words and
clock); ``parse``, ``asks_for_change`` are importable from here as before.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from langchain_core.messages import BaseMessage, HumanMessage

from osprey_desktop.language.device_names import hints_a_change, offers_a_bare_value
from osprey_desktop.language.follow_ups import follow_up
from osprey_desktop.language.lexicon import PLOT_VERBS, READ_VERBS
from osprey_desktop.language.questions import forbids_writes, is_knowledge_question
from osprey_desktop.language.request import CHANGE_INTENTS, Request
from osprey_desktop.language.targets import as_measured
from osprey_desktop.language.which_answers import answer_to_which
from osprey_desktop.language.words import (
    STOP_WORDS,
    Match,
    correct_spelling,
    is_greeting,
    match_capabilities,
    references_earlier_results,
    score_capability,
)
from osprey_desktop.planners.base import CLARIFICATION_KEY, ExtractedTask
from osprey_desktop.planners.builtin_answers import written_answer
from osprey_desktop.planners.change_requests import (
    VALUE_MARK,
    asks_a_question,
    asks_for_change,
    change_for_later,
    registered_capabilities,
)
from osprey_desktop.planners.channel_words import configured_vocabulary, parse
from osprey_desktop.planners.plan_builder import PlanDraft, build_steps, closing_step
from osprey_desktop.planners.statistic_words import (
    asks_beyond_the_table,
    statistic_words_in,
    without_statistic_words,
)
from osprey_desktop.state.context_summaries import successful_steps

logger = logging.getLogger(__name__)

_FOLLOW_UP = re.compile(r'^(?P<primary>.*?) \(follow-up to: "(?P<previous>.*)"\)$', re.S)


#: "→ 1.2 A", "= 0.3 A please", "to 94 then": a value given, and nothing it is given to
_VALUE_ALONE = re.compile(
    r"^\W*?(?:→|->|=>|:=|=|\bto\b)\s*(?P<value>[-+−]?\.?\d[\d.]*\s*(?:%|[a-zµ]{1,4}\b)?)"
    r"\s*(?:please|pls|then)?\s*[.!]*$",
    re.I,
)


def _human_texts(messages: Sequence[BaseMessage]) -> list[str]:
    texts = []
    for message in messages:
        if isinstance(message, HumanMessage) or getattr(message, "type", "") == "human":
            content = message.content
            if isinstance(content, list):
                content = " ".join(
                    p.get("text", "") if isinstance(p, dict) else str(p) for p in content
                )
            if str(content).strip():
                texts.append(str(content).strip())
    return texts


def _after_a_question(messages: Sequence[BaseMessage]) -> bool:
    """Whether the message before the latest is a question the assistant asked (clarify)."""
    earlier = list(messages)[:-1]
    for message in reversed(earlier):
        if isinstance(message, HumanMessage) or getattr(message, "type", "") == "human":
            return False
        if CLARIFICATION_KEY in (getattr(message, "additional_kwargs", None) or {}):
            return True
    return False


def _as_planned(texts: Sequence[str]) -> Request:
    """The last of ``texts`` as it was planned: a follow-up merged with the turns before it, so
    a follow-up of a follow-up ("HCM2 rb?", "→ 0.15 A", "→ 0.12 then") keeps its channel."""
    request = parse(texts[0])
    for text in texts[1:]:
        said = parse(text)
        request = follow_up(request, said, configured_vocabulary()) or said
    return request


def split_task(task: str) -> tuple[str, str | None]:
    """``(request, previous request or None)`` from a task this planner extracted."""
    match = _FOLLOW_UP.match(task.strip())
    if match:
        return match.group("primary").strip(), match.group("previous").strip()
    return task.strip(), None


def drop_subsumed_goals(matches: Sequence[Match], by_name: Mapping[str, Any]) -> list[Any]:
    """The matched capabilities minus those a more specific match covers.

    Goal B is dropped when another goal A needs everything B needs and more, the request
    names that extra input (a capability providing it matched too, e.g. a time range), and
    B matched no better than A: "show the beam current over the last 2 hours" asks for the
    history, not also for the live value.
    """
    matched = [by_name[m.name] for m in matches]
    scores = {m.name: m.score for m in matches}
    kept = []
    for cap_b in matched:
        needs_b = set(cap_b.required_context_types())
        subsumed = False
        for cap_a in matched:
            needs_a = set(cap_a.required_context_types())
            extra = needs_a - needs_b
            if cap_a is cap_b or not extra or not needs_b <= needs_a:
                continue
            named = all(any(t in (m.provides or []) for m in matched) for t in extra)
            if named and scores[cap_b.name] <= scores[cap_a.name]:
                subsumed = True
                break
        if not subsumed:
            kept.append(cap_b)
    return kept


def _default_action(
    goals: list[Any], capabilities: Sequence[Any], matched_caps: Sequence[Any] = ()
) -> list[Any]:
    """Goals for a request that only names data ("the beam current", "yesterday").

    Capabilities may declare ``default_for`` (context types): when every goal is such a
    capability or a provider of those types, the one covering most of the types the request
    names (``matched_caps``: everything that matched, before any goal was dropped) becomes
    the goal, preferring one that matched itself, then the one needing the fewest inputs.
    """
    consumers = [c for c in capabilities if getattr(c, "default_for", None) and not c.writes]
    if not goals or not consumers:
        return goals
    defaults = {t for c in consumers for t in c.default_for}
    named = [*goals, *matched_caps]
    matched = {t for g in named for t in (g.provides or []) if t in defaults}
    covered = all(g in consumers or set(g.provides or []) & defaults for g in goals)
    if not matched or not covered:
        return goals
    best = max(
        consumers,
        key=lambda c: (
            len(matched & set(c.default_for)),
            any(c is g for g in named),
            -len(c.requires or []),
        ),
    )
    return [best]


def _claims_only(capability: Any) -> bool:
    """A capability that declares ``claims``: it acts on the requests it claims."""
    return callable(getattr(capability, "claims", None))


def claiming_capabilities(text: str, capabilities: Sequence[Any]) -> list[Any]:
    """Capabilities that declare ``claims(text)`` and claim this request: they alone are the
    goals (the logbook's "log this", "undo the last write" name no channel to read or write
    by the usual rules). A check that fails claims nothing."""
    claimed = []
    for capability in capabilities:
        check = getattr(capability, "claims", None)
        if not callable(check):
            continue
        try:
            if check(text):
                claimed.append(capability)
        except Exception as exc:  # noqa: BLE001 - a broken check must not stop planning
            logger.warning("%s.claims failed: %s", capability.name, exc)
    if claimed and any(getattr(c, "writes", False) for c in claimed):
        request = parse(text)
        if request.intent == "restore" and request.time is not None and request.targets:
            # "revert QD20 to where it was an hour ago": a value from the archive at a named
            # moment, no undo of a write the audit log holds
            claimed = [c for c in claimed if not getattr(c, "writes", False)]
    return claimed


def _missing_information(goals: Sequence[Any], text: str, state: Mapping[str, Any]) -> str | None:
    """A goal capability may declare ``missing_information(request, state)``: what the
    request lacks for it to act (a value to write, a target). The first answer wins."""
    for goal in goals:
        check = getattr(goal, "missing_information", None)
        if not callable(check):
            continue
        try:
            reason = check(text, state)
        except Exception as exc:  # noqa: BLE001 - a broken check must not stop planning
            logger.warning("%s.missing_information failed: %s", goal.name, exc)
            continue
        if reason:
            return reason if isinstance(reason, str) else str(reason)
    return None


def _decides_against(capability: Any, typed: str) -> bool:
    """A capability with a request form of its own (``claims``) that its own reading of the
    typed request says is not meant."""
    if not callable(getattr(capability, "claims", None)):
        return False
    decides = getattr(capability, "mentioned_in", None)
    return callable(decides) and decides(typed) is False


def _providers(goals: Sequence[Any], capabilities: Sequence[Any]) -> list[Any]:
    """The capabilities that make what the goals require (the time step of a history): what
    they lack is asked as early as what the goals lack."""
    wanted = {t for g in goals for t in g.required_context_types()}
    return [
        c
        for c in capabilities
        if c not in goals and set(getattr(c, "provides", None) or []) & wanted
    ]


#: a device's name as the parse joins it ("IG8", "QF03")
_NAMED_DEVICE = re.compile(r"\b[A-Za-z]{1,5}\d{1,3}\b(?![:.]\d)")
_PERSONAL = re.compile(
    r"\b(?:i|you|yourself|we|me|us|my|your|our|never|not|no|nothing)\b|n't\b", re.I
)


def _names_nothing(request: Request) -> bool:
    """No word of the request's targets is a word of the channel list."""
    words = re.findall(r"[a-z]+", " ".join(request.targets).lower())
    return all(w in request.unused or w in STOP_WORDS for w in words)


def _names_any(request: Request) -> bool:
    """Whether the request holds a device name or a word of the channel list that no other
    slot took ("up" of "move it up a little" is a direction, not the "up" of "top-up")."""
    vocabulary = configured_vocabulary()
    for word in re.findall(r"[a-z]+\d*|\d+", request.text.lower()):
        if word in request.used:
            continue
        if re.match(r"[a-z]+\d", word) or word in vocabulary.channel_words:
            return True
        if word in vocabulary.device_prefixes:
            return True
    return False


def _asks_a_statistic_of_no_time(request: Request, change: bool) -> bool:
    """A statistic beyond the history table asked without a time ("is the tune stable?"),
    not of the present ("the rms orbit now") and stating no value ("what spread is normal on
    a quad supply - 0.1 A?" asks what is usual)."""
    return (
        not change
        and request.time is None
        and request.quantity is None
        and request.intent in ("read", "history", "statistic")
        and bool(request.targets)
        and asks_beyond_the_table(request.text)
        and not _PRESENT.search(request.text)
    )


_PRESENT = re.compile(r"\b(?:now|currently|at\s+the\s+moment|right\s+now|live)\b", re.I)


def _unplaced_question(request: Request) -> str:
    """A question naming the words of ``request`` that fit nowhere."""
    words = ", ".join(f"“{w}”" for w in request.unused) or f"“{request.verb}”"
    what = " and ".join(request.targets) or "it"
    if request.intent == "unknown" and request.verb:
        return (
            f"I do not know what “{request.verb}” should do to {what}. Do you want me to read "
            "it, show its history, or change it (to which value)?"
        )
    return f"I could not place {words} in “{request.text}”. Which channel or action do you mean?"


def explain_request(text: str, previous: str | None = None) -> Request:
    """The parse this planner plans ``text`` from (after ``previous``, when it is a follow-up:
    the previous request with the slots ``text`` names replaced)."""
    request = parse(text)
    if previous:
        merged = follow_up(parse(previous), request, configured_vocabulary())
        if merged is not None:
            return merged
    return request


def _give_targets(draft: PlanDraft, request: Request, capabilities: Sequence[Any]) -> None:
    """The items of a list ("beam current, lifetime and RF") go to each step whose capability
    takes a ``targets`` parameter, so every item is found on its own or named as not found.
    One target goes too when the parse placed every word of it ("has anyone changed QF 5
    since this morning?" looks for "QF5", not for a channel called "changed")."""
    if request.changes or not request.targets:
        return
    vocabulary = configured_vocabulary()
    request = _without_statistic_words(request, vocabulary.channel_words)
    if len(request.targets) == 1 and request.unused:
        return  # words the parse could not place: the finder reads the whole request
    takes = {c.name for c in capabilities if "targets" in (getattr(c, "parameters", None) or {})}
    measured = as_measured(request, vocabulary.device_prefixes, vocabulary.channel_words)
    for step in draft.steps:
        if step.get("capability") in takes:
            step["parameters"] = {
                **(step.get("parameters") or {}),
                "targets": list(measured),
            }


def _without_statistic_words(request: Request, known: frozenset[str]) -> Request:
    """A request asking a statistic ("how stable was the lifetime", "is the tune drifting")
    with the statistic's words out of its targets: they name no channel (unless the list has
    them), and the finder would say the list lacks them."""
    if not asks_beyond_the_table(request.text):
        return request
    targets = tuple(t for t in (without_statistic_words(t, known) for t in request.targets) if t)
    said = statistic_words_in(request.text) - known
    unused = tuple(w for w in request.unused if w.lower() not in said)
    return replace(request, targets=targets, unused=unused) if targets else request


class BuiltinPlanner:
    """Implements ``Planner`` without any model; see the module docstring for the rules."""

    name = "builtin"

    # -- task ---------------------------------------------------------------------------

    async def extract_task(
        self, messages: list[BaseMessage], state: Mapping[str, Any]
    ) -> ExtractedTask:
        texts = _human_texts(messages)
        if not texts:
            return ExtractedTask(task="", depends_on_chat_history=False)
        latest = texts[-1]
        refers = references_earlier_results(latest) and (
            len(texts) > 1 or bool(state.get("capability_context_data"))
        )
        task = latest
        if len(texts) > 1 and _after_a_question(messages):
            # "ID 9" after "which undulator do you mean?": the request asked about, with it
            asked = _as_planned(texts[-4:-1])
            answered = answer_to_which(asked, parse(latest), configured_vocabulary())
            if answered is not None:
                return ExtractedTask(task=answered.canonical, depends_on_chat_history=False)
        if len(texts) > 1 and not claiming_capabilities(latest, registered_capabilities()):
            # a follow-up is the previous request with the slots this turn names replaced
            merged = follow_up(_as_planned(texts[-4:-1]), parse(latest), configured_vocabulary())
            if merged is not None:
                return ExtractedTask(task=merged.canonical, depends_on_chat_history=False)
        if refers and len(texts) > 1:
            task = f'{latest} (follow-up to: "{texts[-2]}")'
        return ExtractedTask(task=task, depends_on_chat_history=refers)

    # -- capabilities and plans ---------------------------------------------------------

    def _goals(self, task: str, capabilities: Sequence[Any]) -> tuple[str, list[Any]]:
        """The text that matched and the goal capabilities, in the order the text names them."""
        primary, previous = split_task(task)
        claimed = claiming_capabilities(primary, capabilities)
        if claimed:
            return primary, claimed  # claimed outright ("make a logbook entry: ...", "undo ...")
        if is_greeting(primary) or is_knowledge_question(primary):
            return primary, []  # answered from what is known, nothing read or changed
        request = parse(primary)
        if request.intent in ("conversation", "knowledge", "unknown"):
            return primary, []  # answered, or asked about (ask_clarification names the word)
        by_name = {c.name: c for c in capabilities}
        typed, primary = primary, request.canonical or primary  # joined names, clock times
        matches = match_capabilities(primary, capabilities)
        # a capability that reads whole requests itself ("investigation") decides on the words
        # typed: "how often did the lifetime drop below 8 h" counts a threshold over the
        # history, which the canonical form (its threshold apart) no longer shows
        matches = [m for m in matches if not _decides_against(by_name[m.name], typed)]
        text = primary
        if not matches:
            corrected = correct_spelling(primary, capabilities)  # "whats teh lifetiem"
            if corrected != primary:
                matches = match_capabilities(corrected, capabilities)
                text = corrected if matches else primary
        if not matches and previous:
            matches = match_capabilities(previous, capabilities)
            text = previous
        # The parse decides a change when a verb leads a clause (a noun that is also a verb,
        # "tunes, ...", is no command); a statement without a verb ("QD08 to 98 A") is a
        # change when a writer can act on its value (asks_for_change).
        change = request.intent in CHANGE_INTENTS or (
            request.verb is None
            and request.quantity is not None
            and bool(request.quantity.unit or VALUE_MARK.search(text))
            and asks_for_change(text, capabilities)
        )
        matches = [m for m in matches if change or not by_name[m.name].writes]
        goals = drop_subsumed_goals(matches, by_name)
        asked_to_read = _NAMED_DEVICE.search(primary) or (
            request.verb in READ_VERBS | PLOT_VERBS
            and not _PERSONAL.search(" ".join(request.targets))  # "tell me about yourself"
        )
        if (
            not goals
            and not change
            and request.targets
            and (asked_to_read or not _PERSONAL.search(primary))
        ):
            # only names ("klystron reflected power?"): read them, so the channel finder says
            # what the list has for them instead of the help text (a "corrected" spelling
            # that only a writer matched is no reading of the request); "me", "you" in a
            # request to read ("show me IG 8") or one naming a device are no chat
            text = primary
            matches = match_capabilities(f"read {primary}", capabilities)
            matches = [m for m in matches if not by_name[m.name].writes]
            goals = drop_subsumed_goals(matches, by_name)
        if change and not any(g.writes for g in goals):
            goals += self._best_writer(text, capabilities)
        if change:
            # a writer with its own request form ("undo the last write") writes only what it
            # claims: "revert QD20 to where it was an hour ago" is a restore, not an undo
            goals = [g for g in goals if not (g.writes and _claims_only(g))]
            if not any(g.writes for g in goals):
                goals += self._best_writer(text, capabilities)
        if request.intent in ("restore", "copy") and any(g.writes for g in goals):
            # the archived or copied value is the writer's input (its ``inputs_for``), not a
            # goal of its own: planned before the write, after the channel is found
            goals = [g for g in goals if g.writes]
        if request.intent in ("history", "plot", "statistic") and request.time and not change:
            goals = self._over_time(goals, capabilities)
        elif _asks_a_statistic_of_no_time(request, change):
            # "std of the vertical tune": a statistic of the history, whose range the time
            # step asks for, never the present value alone
            goals = self._over_time(goals, capabilities)
        if (
            change
            and not any(not g.writes and g.requires for g in goals)
            and (asks_a_question(text) or request.reads_first)
        ):
            # "what's the ID04 gap? then open it to 25 mm", "look at HCM3 and set it to 0":
            # the question is answered, the reading shown, before the change is asked
            goals = [*self._reader(capabilities), *goals]
        elif change and request.reads_after and not any(not g.writes and g.requires for g in goals):
            # "set HCM27 to 0.3 A, then show me the orbit in sector 9": read after the write
            goals = [*goals, *self._reader(capabilities)]
        return text, _default_action(goals, capabilities, [by_name[m.name] for m in matches])

    @staticmethod
    def _reader(capabilities: Sequence[Any]) -> list[Any]:
        """The capability that answers a request naming only channels ("the ID04 gap?")."""
        readers = [
            c
            for c in capabilities
            if not c.writes and list(getattr(c, "default_for", None) or []) == ["CHANNEL_ADDRESSES"]
        ]
        return readers[:1]

    @staticmethod
    def _over_time(goals: list[Any], capabilities: Sequence[Any]) -> list[Any]:
        """A request the parse reads as a history ("did the ID07 gap move overnight?") whose
        time no capability's words matched: the capability that answers channels over a
        time range (``default_for`` both) instead of a reader of the present."""
        needs = {"CHANNEL_ADDRESSES", "TIME_RANGE"}
        if any("TIME_RANGE" in set(g.required_context_types()) for g in goals):
            return goals
        over_time = [
            c
            for c in capabilities
            if not c.writes and set(getattr(c, "default_for", ()) or ()) == needs
        ]
        if not over_time:
            return goals
        readers = {id(c) for c in BuiltinPlanner._reader(capabilities)}
        return [*(g for g in goals if id(g) not in readers), over_time[0]]

    @staticmethod
    def _best_writer(text: str, capabilities: Sequence[Any]) -> list[Any]:
        """A command without a matched writer ("HCM01 -> 1.2 A"): the best-scoring one."""
        writers = [c for c in capabilities if c.writes and not _claims_only(c)]
        if not writers:
            return []
        return [max(writers, key=lambda c: score_capability(c, text).score)]

    async def select_capabilities(
        self, task: str, capabilities: Sequence[Any], state: Mapping[str, Any]
    ) -> list[str]:
        return [c.name for c in self._goals(task, capabilities)[1]]

    def _draft(
        self, task: str, capabilities: Sequence[Any], state: Mapping[str, Any], react: bool
    ) -> tuple[str, PlanDraft, dict[str, str]]:
        text, goals = self._goals(task, capabilities)
        produced: dict[str, str] = {}
        done: list[str] = []
        if react:
            known = {c.name: c for c in [*registered_capabilities(), *capabilities]}
            for record in successful_steps(state):
                cap = known.get(str(record.get("capability")))
                if cap is None or cap.name in ("respond", "clarify"):
                    continue
                done.append(cap.name)
                for context_type in cap.provides or []:
                    produced[context_type] = str(record.get("context_key"))
        # Types the request itself names again (its providers match the words) are recomputed.
        fresh = {
            t
            for m in match_capabilities(text, capabilities)
            for c in capabilities
            if c.name == m.name
            for t in (c.provides or [])
        }
        draft = build_steps(
            text,
            goals,
            capabilities,
            state,
            allow_reuse=bool(state.get("task_depends_on_chat_history")),
            fallback=registered_capabilities(),
            produced=produced,
            done=done,
            fresh_types=fresh,
        )
        _give_targets(draft, parse(text), [*capabilities, *registered_capabilities()])
        return text, draft, produced

    @staticmethod
    def _asked_first(task: str) -> str | None:
        """A question to ask before planning: a clause led by a word that is no verb this
        planner knows ("straighten the orbit"), or a state asked of something the channel
        list does not name ("shut the sector 6 valve"): asked about, never read or written."""
        primary, previous = split_task(task)
        if is_greeting(primary) or is_knowledge_question(primary):
            return None
        if claiming_capabilities(primary, registered_capabilities()):
            return None  # a capability's own request form ("log this", "undo the last write")
        request = parse(primary)
        if request.intent == "unknown" and _names_nothing(request):
            return None  # "bake a cake": the answer names the words and what can be asked
        if request.intent == "unknown" or (request.intent == "state" and request.unused):
            return _unplaced_question(request)  # "shut the sector 6 valve": no valve listed
        if not request.changes and offers_a_bare_value(
            request.text, request.quantity, request.verb, request.targets
        ):
            # "HCM01 1.5": a value for HCM01, or a slip? neither written nor read unasked
            target, value = request.targets[0], request.quantity.words.strip()
            return (
                f"Do you want {target} set to {value}? Say “set {target} to {value}” (with its "
                f"unit) to change it, or “read {target}” to read it."
            )
        if request.changes and forbids_writes(primary):
            # "set HCM 4 to 0.3 (no write, just asking)": a change refused in the same words
            return (
                "You said not to change anything, so nothing will be written. Ask again without "
                "that to make the change, or ask whether the value is within the write limits."
            )
        if request.changes and not request.targets and previous is None and not _names_any(request):
            # "move it up a little" as a first request: nothing to find, ask what "it" is
            return "Which channel should I change? Name the device (for example “HCM01”)."
        if previous is None and not request.targets and _VALUE_ALONE.match(primary):
            # "→ 1.2 A" as a first request: a value for a channel nobody named
            value = _VALUE_ALONE.match(primary)["value"].strip()
            return f"Which channel should get {value}? Name it, for example “set HCM01 to {value}”."
        return None

    async def create_plan(
        self, task: str, capabilities: Sequence[Any], state: Mapping[str, Any]
    ) -> dict[str, Any]:
        question = self._asked_first(task)
        if question:
            return {"steps": [closing_step("clarify", task, PlanDraft(), question)]}
        if change_for_later(split_task(task)[0]):
            # "set QF 1 to 121 at 18:00": nothing is planned; the answer says why
            return {"steps": [closing_step("respond", task, PlanDraft())]}
        text, goals = self._goals(task, capabilities)
        missing = _missing_information([*goals, *_providers(goals, capabilities)], text, state)
        if missing:
            lookups = []
            if getattr(missing, "after_lookups", False):
                lookups = self._lookups_before_asking(
                    task, capabilities, state, getattr(missing, "stops_before", "")
                )
            return {"steps": [*lookups, closing_step("clarify", text, PlanDraft(), missing)]}
        text, draft, _ = self._draft(task, capabilities, state, react=False)
        if draft.missing:
            reason = "; ".join(dict.fromkeys(draft.missing))
            return {"steps": [closing_step("clarify", text, draft, reason)]}
        hinted = _hinted_change(task, draft.steps, capabilities)
        if hinted:
            return {"steps": [closing_step("clarify", task, PlanDraft(), hinted)]}
        return {"steps": [*draft.steps, closing_step("respond", text, draft)]}

    def _lookups_before_asking(
        self,
        task: str,
        capabilities: Sequence[Any],
        state: Mapping[str, Any],
        stops_before: str = "",
    ) -> list[dict[str, Any]]:
        """The steps that make a question concrete, run before it is asked: the plan's steps
        before its first change, none of which changes anything ("set HCM01" finds HCM01,
        then asks for the value), and before the step ``stops_before`` names (a range read
        two ways is asked before any archive is read). Never a write."""
        writes = {c.name for c in capabilities if getattr(c, "writes", False)}
        _, draft, _ = self._draft(task, capabilities, state, react=False)
        if draft.missing:
            return []
        lookups = []
        for step in draft.steps:
            if step.get("capability") in writes or step.get("capability") == stops_before:
                break
            lookups.append(step)
        return lookups

    async def choose_next_step(
        self, task: str, capabilities: Sequence[Any], state: Mapping[str, Any]
    ) -> dict[str, Any]:
        question = self._asked_first(task)
        if question:
            return closing_step("clarify", task, PlanDraft(), question)
        if change_for_later(split_task(task)[0]):
            return closing_step("respond", task, PlanDraft())
        text, goals = self._goals(task, capabilities)
        missing = _missing_information([*goals, *_providers(goals, capabilities)], text, state)
        if missing:
            return closing_step("clarify", text, PlanDraft(), missing)
        text, draft, produced = self._draft(task, capabilities, state, react=True)
        if draft.missing:
            return closing_step("clarify", text, draft, "; ".join(dict.fromkeys(draft.missing)))
        hinted = _hinted_change(task, draft.steps, capabilities)
        if hinted:
            return closing_step("clarify", task, PlanDraft(), hinted)
        if draft.steps:
            return draft.steps[0]
        respond = closing_step("respond", text, draft)
        for context_type, key in produced.items():
            if {context_type: key} not in respond["inputs"]:
                respond["inputs"].append({context_type: key})
        return respond

    # -- answers ------------------------------------------------------------------------

    async def write_response(
        self, task: str, state: Mapping[str, Any], context_summaries: dict[str, Any]
    ) -> str:
        primary, _ = split_task(task)
        return written_answer(primary, state, context_summaries)

    async def ask_clarification(
        self, task: str, state: Mapping[str, Any], reason: str | None
    ) -> str:
        primary, _ = split_task(task)
        capabilities = registered_capabilities()
        _, goals = self._goals(primary, capabilities)
        examples = [e for cap in goals for e in (cap.examples or [])][:3]
        if not examples:
            examples = [cap.examples[0] for cap in capabilities if cap.examples][:3]
        lines = ["**I need more information before I can do this.**", ""]
        lines.append(reason or f"“{primary}” does not say clearly enough what to do.")
        if examples and "“" not in (reason or ""):
            # a reason that quotes what to say needs no examples of other requests
            lines += ["", "For example, you could ask:"] + [f"- “{e}”" for e in examples]
        return "\n".join(lines)


__all__ = ["BuiltinPlanner", "asks_for_change", "explain_request", "parse", "split_task"]


def _hinted_change(
    task: str, steps: Sequence[Mapping[str, Any]], capabilities: Sequence[Any]
) -> str | None:
    """A question when the request hints a change its plan does not make ("The beamline at ID07
    is asking for a 10 mm gap, can we give them that?"): a change meant, whose form the parse
    did not read, is asked about, never answered with a reading alone."""
    writes = {c.name for c in capabilities if getattr(c, "writes", False)}
    if any(step.get("capability") in writes for step in steps):
        return None
    primary, _ = split_task(task)
    request = parse(primary)
    if request.intent not in ("read", "history") or not hints_a_change(
        request.text, request.quantity, request.changes, request.targets
    ):
        return None
    value = request.quantity.words.strip()
    return (
        f"Do you want a change to {value}? Say it as “set <channel> to {value}” to have it "
        "proposed for your approval, or name what to read."
    )
