"""``channel_finding``: which channels does the request mean? -> CHANNEL_ADDRESSES.

The channel database ranks channels by name, description and synonyms; this capability
decides which words of the request to give it (not the time range, not the value to write,
not the small talk) and what to do with the answer: nothing found or a write target that is
too broad leads to a clarification with the nearest names, never to a guess.
"""

from __future__ import annotations

import logging
import re
from functools import lru_cache
from typing import Any

from osprey_desktop.base.errors import ClarificationRequired
from osprey_desktop.capabilities.control_room.common import ControlRoomCapability
from osprey_desktop.capabilities.control_room.contexts import ChannelAddressesContext
from osprey_desktop.capabilities.control_room.time_parsing import strip_time_expressions
from osprey_desktop.capabilities.control_room.write_parsing import (
    WriteRequestError,
    lookup_unit,
    parse_write_request,
)
from osprey_desktop.connectors.channel_database import STOPWORDS, ChannelDatabase

# Words operators add around a channel's description that describe no channel. Unknown words
# are kept on purpose: "cryoplant pressure" must not quietly become "pressure".
_FILLER_WORDS = """
pls plz please gimme give me show tell let lets let's what whats what's how much many is
are was were be do does did don dont don't t s anything nothing just only without
writing touching quick quickly right now currently current_value value values reading
readings level levels status state evolve evolved evolving behave behaved doing look
like drop dropped dropping rise rose rising go went going ok okay hey hi list compare
versus vs zero then also again both it them this that these those back after before
graph plot plotted trend trends history archived archive data check monitor watch set
change put adjust increase decrease raise lower ramp move bump open close write apply
add subtract someone somebody anyone
"""
_FILLER = frozenset(_FILLER_WORDS.split())
logger = logging.getLogger(__name__)

# Database words too general to signal that a request is about a channel.
_GENERIC_WORDS = "time next device part sum rate until added integer top"
_GENERIC = frozenset(_GENERIC_WORDS.split())

_UNIT_AFTER_IN = re.compile(r"\bin\s+([a-zµ%]+)\b")
_SECTOR_NAME = re.compile(r"\b(?:sector|sect|sec)\s*#?\s*\w+\b")
_WORD = re.compile(r"[a-z0-9_:%µ\-']+|[^\sa-z0-9_:%µ\-']+")


def channel_phrase(text: str) -> str:
    """The words of ``text`` that can describe channels.

    Drops time expressions, the values (and units) of a write, units asked for ("in amps")
    and conversational filler; keeps channel names, sector references and unknown words.
    """
    phrase = strip_time_expressions(text)
    try:
        for spec in parse_write_request(phrase):
            phrase = phrase.replace(spec.text.lower(), " ")
    except WriteRequestError:
        pass
    phrase = _UNIT_AFTER_IN.sub(lambda m: " " if lookup_unit(m.group(1)) else m.group(0), phrase)
    kept = []
    for word in _WORD.findall(phrase):
        if word in _FILLER or not (re.search(r"[a-z0-9]", word) or word == ","):
            continue
        if word in STOPWORDS and word != "and":  # kept: "A and B" is searched part by part
            continue
        kept.append(word)
    return " ".join(kept).replace(" ,", ",").strip(", ")


def channel_vocabulary(database: ChannelDatabase) -> list[str]:
    """Words that name channels in ``database``: families, devices, name parts, synonyms.

    They are channel_finding's keywords, so the planner recognises a request that names a
    channel ("the horizontal orbit in sector 3") even when it says nothing about what to do.
    """
    return list(_vocabulary(database))


@lru_cache(maxsize=8)
def _vocabulary(database: ChannelDatabase) -> tuple[str, ...]:
    found: dict[str, None] = {}
    for record in database:
        texts = [record.family, record.device or "", *record.synonyms]
        texts += [part for part in record.name.split(":") if part]
        for text in texts:
            for word in re.findall(r"[a-z][a-z0-9]+", text.lower()):
                if word not in _GENERIC and word not in STOPWORDS and len(word) > 1:
                    found.setdefault(word, None)
    return tuple(found)


def _configured_vocabulary() -> list[str]:
    from osprey_desktop.connectors import get_configured_channel_database

    try:
        return channel_vocabulary(get_configured_channel_database())
    except Exception as exc:  # noqa: BLE001 - a broken database must not stop the registry
        logger.warning("channel vocabulary unavailable (%s); channel_finding keeps its own", exc)
        return []


def find_channels(
    database: ChannelDatabase, text: str, *, writable: bool, max_write_channels: int
) -> tuple[list[str], str]:
    """(channel names, phrase searched) for ``text``; raises ``ClarificationRequired``."""
    phrase = channel_phrase(text)
    if not phrase:
        raise ClarificationRequired(
            "Which channel do you mean? Name it (e.g. SR:DCCT:Current) or describe it "
            "(e.g. 'beam current', 'horizontal orbit in sector 3')."
        )
    matches = _search(database, phrase, True if writable else None)
    if writable and not matches:
        readonly = database.top_matches(phrase)
        if readonly:
            names = ", ".join(m.name for m in readonly[:5])
            raise ClarificationRequired(
                f"'{phrase}' matches only read-only channels ({names}); nothing there can be "
                "written. Which setpoint do you mean?"
            )
    if not matches:
        near = database.suggest(phrase, limit=5)
        hint = " The nearest names are below." if near else ""
        raise ClarificationRequired(
            f"I found no channel matching '{phrase}' in the channel database. "
            f"Which channel do you mean?{hint}",
            near,
        )
    names = [m.name for m in matches]
    if writable:
        best = database.search(phrase, limit=1)
        if best and not best[0].channel.writable and best[0].score > matches[0].score + 0.1:
            raise ClarificationRequired(
                f"'{phrase}' best matches {best[0].name}, which is read-only: it cannot be "
                "written. Which setpoint do you mean?",
                [m.name for m in matches[:5]],
            )
    if writable and len(names) > max_write_channels:
        raise ClarificationRequired(
            f"'{phrase}' matches {len(names)} writable channels; a write needs a narrower "
            f"target (at most {max_write_channels} channels). Which ones do you mean? The "
            "first five are below.",
            names[:5],
        )
    return names, phrase


def _search(database: ChannelDatabase, phrase: str, writable: bool | None) -> list[Any]:
    """The top group for ``phrase``; "A and B" is searched as A, B and their union.

    Ranking the whole phrase lets the rarer word win ("horizontal and vertical tune" would
    give only the vertical tune), so each part is searched on its own, a bare adjective
    borrowing the noun of the last part ("horizontal" -> "horizontal tune").
    """
    whole = database.top_matches(phrase, writable=writable)
    parts = [p.split() for p in re.split(r"\band\b|,", phrase) if p.split()]
    if len(parts) < 2:
        return whole
    content = [[w for w in words if w not in STOPWORDS] for words in parts]
    noun = content[-1][1:]
    union: dict[str, Any] = {}
    for words, meaningful in zip(parts, content, strict=True):
        query = " ".join(meaningful + noun if len(meaningful) == 1 else words)
        found = database.top_matches(query, writable=writable)
        if not found:
            return whole  # one part names nothing ("read HCM01 and then set it")
        for match in found:
            union.setdefault(match.name, match)
    return list(union.values()) if len(union) > len(whole) else whole


class ChannelFindingCapability(ControlRoomCapability):
    """Resolve the channels a request names or describes."""

    name = "channel_finding"
    description = (
        "Find the control-system channels (PVs) a request refers to, by name, description or "
        "synonym: beam current, orbit, correctors, magnets, vacuum, RF, undulator gaps"
    )
    provides = ["CHANNEL_ADDRESSES"]
    requires: list[Any] = []
    keywords = ["channel", "pv", "find channel", "which channel", "channel name", "address"]
    examples = [
        "find the channel for the beam current",
        "which PV is the horizontal orbit in sector 3",
        "look up the channel name of corrector HCM01",
    ]
    parameters = {
        "query": "the words naming or describing the channels (default: the step objective)",
        "writable": "true when the channels are the target of a write (setpoints only)",
    }
    MAX_WRITE_CHANNELS = 12

    def __init__(
        self, state: dict[str, Any] | None = None, step: dict[str, Any] | None = None
    ) -> None:
        super().__init__(state, step)
        # The facility's own channel words are this capability's keywords (see the docstring
        # of channel_vocabulary); they depend on the configured database, hence per instance.
        self.keywords = [*type(self).keywords, *_configured_vocabulary()]  # type: ignore[misc]

    async def execute(self) -> dict[str, Any]:
        from osprey_desktop.connectors import get_configured_channel_database

        text = self.request_text()
        names, phrase = find_channels(  # raises ClarificationRequired instead of guessing
            get_configured_channel_database(),
            text,
            writable=self._for_write(),
            max_write_channels=self.MAX_WRITE_CHANNELS,
        )
        database = get_configured_channel_database()
        descriptions = {n: r.description for n in names if (r := database.get(n)) is not None}
        return self.store_output_context(
            ChannelAddressesContext(channels=names, original_query=text, descriptions=descriptions)
        )

    def _for_write(self) -> bool:
        """True when asked to, or when a later channel_write step reads this step's result."""
        flag = self.get_parameters().get("writable")
        if isinstance(flag, bool):
            return flag
        if isinstance(flag, str) and flag.strip():
            return flag.strip().lower() in ("true", "yes", "1")
        key = self._step.get("context_key")
        plan = self._state.get("planning_execution_plan") or {}
        for step in plan.get("steps") or []:
            if step.get("capability") != "channel_write":
                continue
            inputs = step.get("inputs") or []
            if any(key in item.values() for item in inputs if isinstance(item, dict)):
                return True
        return False


__all__ = ["ChannelFindingCapability", "channel_phrase", "channel_vocabulary", "find_channels"]
