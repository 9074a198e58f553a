"""Model-assisted channel finding: with ``models.planner: chat_model``, the configured chat model
chooses the channels a request means, and the built-in finder answers whenever it cannot.

The model reads a facility's list the way its operators talk about it ("the steering magnets
of the transfer line"), where the built-in finder only matches words. Its answer is never
trusted as it stands: every name is checked against the channel list (a name the list lacks is
dropped, never passed on), a write keeps only writable channels, and the instance numbers and
sectors the request says are enforced as the built-in finder enforces them. When nothing valid
remains, or the model fails, times out or answers garbage, the built-in finder's answer is used
and the reason is logged.

The prompt is bounded whatever the size of the list (``PROMPT_CHAR_LIMIT`` characters, system
message, request and list together). A list of at most ``SMALL_LIST`` channels is shown whole:
each channel's name, short description and whether it is writable. A larger one takes two
questions: first its families (channel names with their numbers blanked,
``SR:MAG:HCM:#:CURRENT:SP``, the ones the request's words match first), then the channels of
the families the model picked, the built-in finder's own answer among them.

channel_finding asks here (``consulted``) before it finds channels, on the running event loop
(the graph's, which in the desktop app is the window's: a blocking call would freeze it) and
only when its exact-name rules let the request through; its ``_find`` then takes the checked
choice (``chosen_instead``) in place of the built-in finder's answer.
"""

from __future__ import annotations

import asyncio
import logging
import math
import re
from collections import defaultdict
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field

from osprey_desktop.capabilities.control_room.channel_phrases import (
    channel_phrase,
    finder_of,
    named_devices,
)
from osprey_desktop.channels.finder import FoundChannels, normalize, text_words
from osprey_desktop.planners.base import PlannerError

if TYPE_CHECKING:
    from osprey_desktop.channels.database import ChannelDatabase, ChannelRecord
    from osprey_desktop.channels.finder import ChannelFinder
    from osprey_desktop.planners.chat_model import ChatModelPlanner

logger = logging.getLogger(__name__)

#: A list this long or shorter (after a write's read-only channels are left out) is shown whole.
SMALL_LIST = 300
#: The most characters one prompt of the finder holds (system message, request and list): about
#: 8,000 tokens by langchain's ``count_tokens_approximately``, whatever the list's size.
PROMPT_CHAR_LIMIT = 32_000
DESCRIPTION_CHARS = 100
REQUEST_CHARS = 1_000
#: Kept free for the note a retry adds after an invalid reply (``prompts.correction_message``).
_RETRY_RESERVE = 1_500


class _Reply(BaseModel):
    model_config = ConfigDict(extra="ignore")


class ChannelChoiceReply(_Reply):
    """The model's choice of channels (json_schema strict mode: every field required)."""

    channels: list[str] = Field(
        description="Names of the channels the request means, copied exactly from the list; "
        "empty when no listed channel fits."
    )
    reasoning: str = Field(description="One sentence on why these channels.")


class FamilyChoiceReply(_Reply):
    """The model's choice of families to look into, on a list too long to show whole."""

    families: list[str] = Field(
        description="Families (names with # for the numbers) whose channels the request may "
        "mean, copied exactly from the list; empty when none fits."
    )
    reasoning: str = Field(description="One sentence on why these families.")


_ROLE = (
    "You find control-system channels (EPICS process variables) for an operator of a particle "
    "accelerator. You get the operator's request and channels from the facility's channel "
    "list, each as: name | description, with [writable] on channels that can be set."
)
_CHANNEL_RULES = (
    "Choose every channel the request means and nothing else: all the instances it names "
    "('correctors 3 to 5', 'both planes'), the setpoint or the readback as it asks (a question "
    "about what a device does now reads its readback). Copy names exactly as listed; never "
    "make up, complete or renumber a name. When no listed channel fits, answer with an empty "
    "list."
)
_WRITE_RULE = (
    "These channels will be written to: only [writable] channels are listed, and you choose "
    "only those the request names as the target of the change."
)
_FAMILY_RULES = (
    "The list is long, so it is shown as families first: channel names with their numbers "
    "blanked as #, each with how many channels it has, an example name and a description. "
    "Choose the families whose channels the request may mean (usually one to five); you will "
    "then see their channels. Copy family names exactly as listed."
)


@dataclass(frozen=True)
class _Choice:
    """The checked answer of the model for one request, on one list."""

    database: ChannelDatabase
    text: str
    writable: bool
    names: tuple[str, ...]


_CHOICE: ContextVar[_Choice | None] = ContextVar("model_channel_choice", default=None)


@asynccontextmanager
async def consulted(database: ChannelDatabase, text: str, *, writable: bool) -> AsyncIterator[None]:
    """Ask the chat model (when configured) which channels ``text`` means; inside the block,
    ``chosen_instead`` gives channel_finding its checked choice."""
    names = await choose_channels(database, text, writable=writable)
    token = _CHOICE.set(_Choice(database, text, writable, tuple(names))) if names else None
    try:
        yield
    finally:
        if token is not None:
            _CHOICE.reset(token)


def chosen_instead(
    database: ChannelDatabase, text: str, writable: bool, found: FoundChannels
) -> FoundChannels:
    """The model's checked choice for ``text`` in place of the built-in finder's ``found``;
    ``found`` itself when the model was not asked or chose nothing usable.

    The request's instance numbers and sectors (``found.query``, what the built-in finder read
    from the same words) bind the model as they bind the finder: "dipole 5" is never dipole 15.
    """
    choice = _CHOICE.get()
    if choice is None or choice.database is not database or choice.text != text:
        return found
    if choice.writable != writable:
        return found
    finder = finder_of(database)
    index = {record.name: i for i, record in enumerate(finder.records)}
    query = found.query
    kept = [n for n in choice.names if n in index]
    if query.numbers:
        kept = [n for n in kept if finder.instance[index[n]] in query.numbers]
    if query.sectors and any(s is not None for s in finder.sector):
        kept = [n for n in kept if finder.sector[index[n]] in query.sectors]
    if not kept:
        logger.warning(
            "model-assisted channel finding: the model chose %s, none numbered as %r says; "
            "the built-in finder answers",
            _first(choice.names),
            text,
        )
        return found
    logger.info("model-assisted channel finding: %r -> %s", text, _first(kept))
    return FoundChannels(kept, query, found.ignored_words)


async def choose_channels(
    database: ChannelDatabase, text: str, *, writable: bool
) -> list[str] | None:
    """The channels of ``database`` the configured chat model says ``text`` means, checked
    against the list; None when the built-in finder is to answer (the reason is logged)."""
    planner = _chat_planner()
    if planner is None or not _worth_asking(database, text):
        return None
    limit = planner.settings.timeout_seconds
    try:
        async with asyncio.timeout(limit) as deadline:
            named = await _ask_model(planner, database, text, writable=writable)
    except TimeoutError as exc:
        if not deadline.expired():
            logger.warning(
                "model-assisted channel finding failed (%r); the built-in finder answers", exc
            )
            return None
        logger.warning(
            "model-assisted channel finding: the language model at %s did not answer within "
            "%g s (models.chat_model.timeout_seconds); the built-in finder answers",
            planner.base_url,
            limit,
        )
        return None
    except PlannerError as exc:  # unreachable, refused, invalid replies: the message says which
        logger.warning(
            "model-assisted channel finding failed (%s); the built-in finder answers", exc
        )
        return None
    except Exception as exc:  # noqa: BLE001 - the model is optional: anything else is logged too
        logger.warning(
            "model-assisted channel finding failed (%r); the built-in finder answers",
            exc,
            exc_info=True,
        )
        return None
    names = checked_names(database, named, writable=writable)
    if not names:
        logger.warning(
            "model-assisted channel finding: no valid channel in the model's answer %s; the "
            "built-in finder answers",
            _first(named) or "(empty)",
        )
        return None
    return names


def checked_names(database: ChannelDatabase, named: Iterable[str], *, writable: bool) -> list[str]:
    """The names of ``named`` that the list has, exactly as it spells them (and writable for a
    write); the others are dropped and logged, never passed on."""
    kept: list[str] = []
    unknown: list[str] = []
    readonly: list[str] = []
    for name in dict.fromkeys(str(n).strip() for n in named):
        record = database.get(name) if name else None
        if record is None or record.name != name:
            unknown.append(name)
        elif writable and not record.writable:
            readonly.append(name)
        else:
            kept.append(name)
    if unknown:
        logger.warning(
            "model-assisted channel finding: dropped %s, not in the channel list %s",
            _first(unknown),
            database.source,
        )
    if readonly:
        logger.warning(
            "model-assisted channel finding: dropped %s, read-only, from a write", _first(readonly)
        )
    return kept


# ---- asking ------------------------------------------------------------------------------


def _chat_planner() -> ChatModelPlanner | None:
    """The configured chat-model planner (its model, retries and limits), or None."""
    from osprey_desktop.config import get_config

    if get_config().models.planner != "chat_model":
        return None
    from osprey_desktop.planners import get_planner
    from osprey_desktop.planners.chat_model import ChatModelPlanner

    try:
        planner = get_planner()
    except Exception as exc:  # noqa: BLE001 - e.g. no API key: the planner reports it itself
        logger.warning("model-assisted channel finding unavailable (%s)", exc)
        return None
    # the chat model may stand behind a fallback to the built-in planner: its own endpoint
    # is asked here (a model that is down makes the built-in finder answer, as below)
    planner = getattr(planner, "primary", planner)
    return planner if isinstance(planner, ChatModelPlanner) else None


def _worth_asking(database: ChannelDatabase, text: str) -> bool:
    """False when channel_finding will ask the operator before it searches at all (no channel
    words, or a typed name the list lacks): its exact-name rules come first."""
    phrase = channel_phrase(text)
    if not phrase:
        return False
    typed, _ = named_devices(phrase, database)
    return all(database.channels_named(name) for name in typed)


async def _ask_model(
    planner: ChatModelPlanner, database: ChannelDatabase, text: str, *, writable: bool
) -> list[str]:
    """The names the model chose (unchecked): from the whole list when it is small, else from
    the families it picks first."""
    records = [r for r in database if r.writable or not writable]
    if not records:
        return []
    request = _clip(" ".join(text.split()), REQUEST_CHARS)
    system = "\n\n".join([_ROLE, _CHANNEL_RULES, *([_WRITE_RULE] if writable else [])])
    whole = [_channel_line(r) for r in records]
    budget = _catalog_budget(system, request)
    if len(records) <= SMALL_LIST and _size(whole) <= budget:
        return await _ask_channels(planner, system, request, whole, 0)

    finder = finder_of(database)
    phrase = channel_phrase(text)
    scores = _relevance(finder, phrase)
    builtin = set(finder.find(phrase, writable=True if writable else None).names)
    rank = {r.name: (r.name in builtin, scores.get(r.name, 0.0)) for r in records}
    families = _families(records, rank)

    family_system = "\n\n".join([system, _FAMILY_RULES])
    lines = [_family_line(key, members) for key, members in families.items()]
    shown, left_out = _fitted(lines, _catalog_budget(family_system, request))
    listing = "\n".join(shown)
    if left_out:
        listing += f"\n({left_out} families the request's words match less are not shown)"
    messages = _messages(family_system, f"Request: {request}\n\nFamilies:\n{listing}")
    reply = await planner.ask_structured(  # the planner's retries, time limit, error messages
        "channel families", FamilyChoiceReply, messages
    )
    offered = list(families)[: len(shown)]
    picked = [f.strip() for f in reply.families if f.strip() in offered]
    if len(picked) < len(reply.families):
        dropped = [f for f in reply.families if f.strip() not in offered]
        logger.warning("model-assisted channel finding: dropped unknown families %s", dropped)
    candidates = [r for r in records if r.name in builtin]
    candidates += [r for key in picked for r in families[key] if r.name not in builtin]
    if not candidates:
        return []
    candidates.sort(key=lambda r: rank[r.name], reverse=True)
    kept = candidates[:SMALL_LIST]
    return await _ask_channels(
        planner, system, request, [_channel_line(r) for r in kept], len(candidates) - len(kept)
    )


async def _ask_channels(
    planner: ChatModelPlanner, system: str, request: str, lines: list[str], more: int
) -> list[str]:
    shown, left_out = _fitted(lines, _catalog_budget(system, request))
    listing = "\n".join(shown)
    if left_out + more:
        listing += f"\n({left_out + more} channels the request's words match less are not shown)"
    messages = _messages(system, f"Request: {request}\n\nChannels:\n{listing}")
    reply = await planner.ask_structured("channel choice", ChannelChoiceReply, messages)
    return list(reply.channels)


def _messages(system: str, human: str) -> list[Any]:
    from langchain_core.messages import HumanMessage, SystemMessage

    return [SystemMessage(system), HumanMessage(human)]


# ---- the list as the model sees it ---------------------------------------------------------


def _relevance(finder: ChannelFinder, phrase: str) -> dict[str, float]:
    """How well each channel matches the words of ``phrase``: rare words weigh most, as in the
    built-in finder; used to put the likely channels and families first."""
    total = len(finder.records) or 1
    scores: dict[str, float] = defaultdict(float)
    for word in dict.fromkeys(normalize(w) for w in text_words(phrase)):
        found = finder.matches(word)
        if not found:
            continue
        weight = math.log((total + 1) / (len(found) + 1)) + 0.05
        for index, strength in found.items():
            scores[finder.records.name(index)] += weight * strength
    return scores


def _families(
    records: Sequence[ChannelRecord], rank: dict[str, tuple[bool, float]]
) -> dict[str, list[ChannelRecord]]:
    """Channels grouped by their name with the numbers blanked, likeliest families first."""
    groups: dict[str, list[ChannelRecord]] = defaultdict(list)
    for record in records:
        groups[_family(record.name)].append(record)
    order = sorted(groups, key=lambda key: max(rank[r.name] for r in groups[key]), reverse=True)
    return {key: groups[key] for key in order}


def _family(name: str) -> str:
    return re.sub(r"\d+", "#", name)


def _family_line(key: str, members: list[ChannelRecord]) -> str:
    example = members[0].name if len(members) == 1 else f"{members[0].name} … {members[-1].name}"
    description = re.sub(r"\d+", "#", members[0].description)
    writable = " [writable]" if any(r.writable for r in members) else ""
    return f"{key} | {len(members)} channel(s), {example} | {_short(description)}{writable}"


def _channel_line(record: ChannelRecord) -> str:
    writable = " [writable]" if record.writable else ""
    return f"{record.name} | {_short(record.description)}{writable}"


def _short(description: str, limit: int = DESCRIPTION_CHARS) -> str:
    """At most ``limit`` characters of a description; of a hierarchy's "A | B | C", the last
    levels, which say most about the channel itself."""
    text = " ".join(description.split())
    if len(text) <= limit:
        return text
    levels = [p.strip() for p in text.split("|") if p.strip()]
    kept: list[str] = []
    for level in reversed(levels):
        if len(" / ".join([level, *kept])) > limit:
            break
        kept.insert(0, level)
    return " / ".join(kept) if kept else _clip(levels[-1] if levels else text, limit)


def _catalog_budget(system: str, request: str) -> int:
    """Characters left for the list in a prompt of ``PROMPT_CHAR_LIMIT``."""
    fixed = len(system) + len(request) + len("Request: \n\nFamilies:\n") + 100
    return PROMPT_CHAR_LIMIT - fixed - _RETRY_RESERVE


def _fitted(lines: list[str], budget: int) -> tuple[list[str], int]:
    """The first lines that fit in ``budget`` characters, and how many did not."""
    used = 0
    for count, line in enumerate(lines):
        used += len(line) + 1
        if used > budget:
            return lines[:count], len(lines) - count
    return lines, 0


def _size(lines: list[str]) -> int:
    return sum(len(line) + 1 for line in lines)


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _first(names: Sequence[str], count: int = 5) -> str:
    return ", ".join(names[:count]) + (", …" if len(names) > count else "")


__all__ = [
    "PROMPT_CHAR_LIMIT",
    "SMALL_LIST",
    "ChannelChoiceReply",
    "FamilyChoiceReply",
    "checked_names",
    "choose_channels",
    "chosen_instead",
    "consulted",
]
