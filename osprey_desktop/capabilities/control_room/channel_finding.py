"""``channel_finding``: which channels does the request mean? -> CHANNEL_ADDRESSES.

The channel database ranks channels by name, description and synonyms; this capability
decides which words of the request to give it (not the time range, not the value to write,
not the small talk) and what to do with the answer: nothing found or a write target that is
too broad leads to a clarification with the nearest names, never to a guess.

Names are exact. The ranked search forgives typos, which suits descriptions but not names: a
request that names a device (letters then digits: HCM99, ID13, BPM4, or a piece of a PV name:
SR03C:HCM99) that the channel list does not have is asked about, with the nearest existing
names, for reads and writes alike; so is one whose answer misses a named device, and one
whose answer holds devices numbered otherwise than the request said ("insertion device 13
gap" is not every gap). A write must also stay on the devices named.
"""

from __future__ import annotations

import asyncio
import logging
import re
from typing import Any

from osprey_desktop.base.errors import ClarificationRequired
from osprey_desktop.capabilities.control_room.channel_phrases import (
    FILLER,
    channel_phrase,
    finder_of,
    named_devices,
    without_quantities,
    without_values,
)
from osprey_desktop.capabilities.control_room.channel_read import unlisted_note
from osprey_desktop.capabilities.control_room.channel_targets import (
    borrowed_targets,
    said_only,
    targets_keep_request,
)
from osprey_desktop.capabilities.control_room.common import (
    ControlRoomCapability,
    current_thread_id,
)
from osprey_desktop.capabilities.control_room.contexts import ChannelAddressesContext
from osprey_desktop.capabilities.control_room.model_channel_finding import chosen_instead, consulted
from osprey_desktop.channels.addresses import typed_names
from osprey_desktop.channels.aliases import AliasStore, learn_from_answer, remember_question
from osprey_desktop.channels.database import DEVICE_NAME, STOPWORDS, ChannelDatabase
from osprey_desktop.channels.finder import normalize
from osprey_desktop.channels.list_words import channel_words
from osprey_desktop.channels.query import (
    QUERY_WORDS,
    READBACK_WORDS,
    SETPOINT_WORDS,
    expand_name_ranges,
)
from osprey_desktop.channels.search import without_sector
from osprey_desktop.config import get_config_value
from osprey_desktop.language.clauses import (
    without_question_about_it,
    without_refused_devices,
    without_the_refused,
)
from osprey_desktop.language.lexicon import (
    COMPARATIVES,
    FUNCTION_WORDS,
    NEGATIONS,
    VAGUE_AMOUNTS,
)
from osprey_desktop.language.numbers import NUMBER_WORDS
from osprey_desktop.language.one_of_a_kind import device_kind_named
from osprey_desktop.language.quantities import amounts
from osprey_desktop.language.targets import LEFT_OUT
from osprey_desktop.language.time_parsing import strip_time_expressions
from osprey_desktop.language.units import converts, lookup_unit, quantity_word
from osprey_desktop.language.write_parsing import (
    WriteRequestError,
    parse_write_request,
)
from osprey_desktop.planners.statistic_words import (
    asks_beyond_the_table,
    without_statistic_words,
)

logger = logging.getLogger(__name__)

# Database words too general to signal that a request is about a channel.
_GENERIC_WORDS = "time next device part sum rate until added integer top"
_GENERIC = frozenset(_GENERIC_WORDS.split())


def _list_is_whole_machine() -> bool:
    """Whether the channel list is every channel there is (the simulated ring): a name it
    lacks names nothing, so it is asked about, never read as typed."""
    return str(get_config_value("control_system.type", "") or "").lower() == "sim"


_SECTOR_NAME = re.compile(r"\b(?:sector|sect|sec)\s*#?\s*\w+\b")


def channel_vocabulary(database: ChannelDatabase) -> list[str]:
    """Words that name channels in ``database``: families, devices, name parts, synonyms.

    They are channel_finding's keywords, so the planner recognises a request that names a
    channel ("the horizontal orbit in sector 3") even when it says nothing about what to do.
    """
    return list(_vocabulary(database))


def _vocabulary(database: ChannelDatabase) -> tuple[str, ...]:
    """Names, families, synonyms, and the description words that tell channels apart
    (``channels.list_words``: read once per list and kept with its index)."""
    return channel_words(database, _GENERIC, STOPWORDS)


def _configured_vocabulary() -> list[str]:
    from osprey_desktop.connectors import get_configured_channel_database

    try:
        return channel_vocabulary(get_configured_channel_database())
    except Exception as exc:  # noqa: BLE001 - a broken database must not stop the registry
        logger.warning("channel vocabulary unavailable (%s); channel_finding keeps its own", exc)
        return []


def _without_a_statistic(text: str, database: ChannelDatabase) -> str:
    """A read asking a statistic of its channels ("std of the horizontal orbit", "is the tune
    drifting"): the statistic's words name no channel unless the list has them ("std" is no
    shorthand of "stored" there)."""
    if not asks_beyond_the_table(text):
        return text
    return without_statistic_words(text, frozenset(w.lower() for w in _vocabulary(database)))


def find_channels(
    database: ChannelDatabase, text: str, *, writable: bool, max_write_channels: int
) -> tuple[list[str], str]:
    """(channel names, phrase searched) for ``text``; raises ``ClarificationRequired``."""
    names, phrase, _ = find_channels_noted(
        database, text, writable=writable, max_write_channels=max_write_channels
    )
    return names, phrase


def find_each_target(
    database: ChannelDatabase, phrases: list[str], request: str | list[str] = ""
) -> tuple[list[str], str]:
    """The channels of each item of a list of target phrases, and a note naming the items
    the list has nothing for; asks (``ClarificationRequired``) when no item names a channel.

    With the ``request`` the phrases were cut from (or its wordings, the operator's first):
    the finder's answer to the whole request when it is sure and answers every phrase
    (``_covers``; the cut may have parted a describing phrase from its device: "vertical beam
    position", "BPMs 4", "BPMs 6"). One phrase is answered by the whole request when the
    phrase finds nothing ("ion PUMP3 current" of "ion pump 3 current").
    """
    wordings = [request] if isinstance(request, str) else request
    whole, said_as = None, ""
    for wording in wordings:
        whole = _whole_request(database, wording) if wording else None
        if whole is not None:
            said_as = wording
            break
    phrases = _completed_targets(database, phrases)
    if len(phrases) == 1:  # one phrase: the finder's own question when it names nothing
        try:
            names, _, note = find_channels_noted(
                database, phrases[0], writable=False, max_write_channels=max_channels_per_write()
            )
        except _InstanceChoice:
            raise  # "the undulator gap": which one, never every one the whole request finds
        except ClarificationRequired:
            if whole is not None and _covers(database, whole[0], [(phrases[0], [])], said_as):
                return whole
            raise
        return names, note
    names: list[str] = []
    notes: list[str] = []
    missing: list[str] = []
    asked: list[str] = []
    per_phrase: list[tuple[str, list[str]]] = []
    for phrase in phrases:
        try:
            # one item of several: an item the list lacks is named in the answer, and another
            # item found after it answers no question (it taught "temperature cavity 2" to
            # mean the RF voltage readback named beside it)
            found, _, note = find_channels_noted(
                database,
                phrase,
                writable=False,
                max_write_channels=max_channels_per_write(),
                learning=False,
            )
        except _InstanceChoice as exc:
            asked.append(str(exc))  # one item of several names one device of many
            per_phrase.append((phrase, []))
            continue
        except ClarificationRequired:
            missing.append(phrase)
            per_phrase.append((phrase, []))
            continue
        names += [n for n in found if n not in names]
        notes += [note] if note else []
        per_phrase.append((phrase, found))
    if (
        whole is not None
        and not _an_item_names_what_the_list_lacks(database, missing)
        and _covers(database, whole[0], per_phrase, said_as)
    ):
        return whole
    if not names:
        if asked and not missing:
            raise ClarificationRequired(" ".join(asked))
        listed = ", ".join(f"'{p}'" for p in missing)
        raise ClarificationRequired(f"I found no channel for {listed}. Which channels do you mean?")
    if missing:
        notes.append("No channel found for " + ", ".join(f"'{p}'" for p in missing) + ".")
    notes += asked
    return names, " ".join(notes)


def _an_item_names_what_the_list_lacks(database: ChannelDatabase, missing: list[str]) -> bool:
    """An item found nothing and has a word no channel has ("the beam size at the pinhole",
    "the coupling"): it is named as not found, never answered by what the whole request's
    other words match (the beam energy for "beam")."""
    finder = finder_of(database)
    for phrase in missing:
        for word in _meaningful(phrase):
            lowered = word.lower()
            if len(lowered) < 4 or not lowered.isalpha() or lowered in FUNCTION_WORDS:
                continue
            if not len(finder.word_matches(normalize(lowered))[0]):
                return True
    return False


def _completed_targets(database: ChannelDatabase, phrases: list[str]) -> list[str]:
    """Each phrase completed from its neighbours as the parts of one request are
    (``_completed``: "booster BPM 2 x", "y" -> "booster BPM 2 y"; "pressure", "current of
    ion pump 4" -> "pressure ion pump 4"), when the completed phrase finds channels with every
    word explained; else as it came."""
    if len(phrases) < 2:
        return phrases
    finder = finder_of(database)
    areas = {a.lower() for a in finder.area}
    parts = [_meaningful(p) for p in phrases]
    done: list[str] = []
    describing: list[str] = []
    for number, phrase in enumerate(phrases):
        part = parts[number]
        chosen = phrase
        alone = set(finder.find(phrase).names) if part else set()
        for candidate in _completed(parts, number, describing, areas)[:-1] if part else []:
            found = finder.find(" ".join(candidate))
            # the borrowed words narrow what the phrase finds, never change it ("tunes" of
            # "tunes and the top-up countdown" is not the countdown)
            if found.names and not found.ignored_words and (not alone or set(found.names) <= alone):
                chosen, part = " ".join(candidate), candidate
                break
        describing = [w for w in part if not _narrows(w, areas)] or describing
        done.append(chosen)
    return done


def _whole_request(database: ChannelDatabase, request: str) -> tuple[list[str], str] | None:
    """The finder's sure answer to a whole read request (names, note), or None."""
    try:
        names, _, note = _find_channels_noted(
            database, request, writable=False, max_write_channels=max_channels_per_write()
        )
    except ClarificationRequired:
        return None
    return (names, note) if names else None


def _covers(
    database: ChannelDatabase,
    names: list[str],
    per_phrase: list[tuple[str, list[str]]],
    wording: str = "",
) -> bool:
    """Every phrase is answered by ``names``: its channels meet them, or each of its words
    (and numbers) that the list has is one of theirs (a phrase the cut completed wrongly,
    "y storage ring current", is still said by "BPM 2 y" and "the storage ring current").
    Never when the whole picked devices by a number of the request that no phrase has ("at 6
    this morning" is a time: not the magnets numbered 6), nor when the channels a phrase found
    alone say its word more strongly than the whole's do, nor when every phrase found its
    channels and the whole adds a device none of them has ("HCM 04, HCM 05, VCM 04": the
    whole's numbers 4 and 5 of both families name VCM05 too)."""
    said = {int(n) for n in re.findall(r"\d+", wording)}
    kept = {int(n) for phrase, _ in per_phrase for n in re.findall(r"\d+", phrase)}
    if said - kept and any(database.device_numbers(n) & (said - kept) for n in names):
        return False
    if per_phrase and all(found for _, found in per_phrase):
        devices = {_device_of(database, n) for _, found in per_phrase for n in found}
        if any(_device_of(database, n) not in devices for n in names):
            return False
    chosen = set(names)
    finder = finder_of(database)
    positions = {p for n in names if (p := finder.records.position(n)) is not None}
    spelled = " ".join(names).lower()
    for phrase, found in per_phrase:
        if chosen & set(found):
            continue
        own_positions = {p for n in found if (p := finder.records.position(n)) is not None}
        for piece in re.findall(r"[a-z]+|\d+", " ".join(_meaningful(phrase)).lower()):
            if piece.isdigit():
                if not re.search(rf"(?<!\d)0*{int(piece)}(?!\d)", spelled):
                    return False
                continue
            if _narrows(piece, set()):
                continue  # "first", "three", "devices" pick among channels; they name none
            having, strengths, _ = finder.word_matches(normalize(piece))
            if not len(having):
                continue  # a word the list lacks was judged by the finder reading the whole
            strength = dict(zip(having.tolist(), strengths.tolist(), strict=True))
            said_by_whole = max((strength.get(p, 0.0) for p in positions), default=0.0)
            # the phrase's own channels say the word more strongly than the whole's do
            # ("lifetime and the current": the lifetime's DCCT only implies "current")
            said_by_own = max((strength.get(p, 0.0) for p in own_positions), default=0.0)
            if not said_by_whole or said_by_own > said_by_whole + 1e-9:
                return False
    return True


def find_channels_noted(
    database: ChannelDatabase,
    text: str,
    *,
    writable: bool,
    max_write_channels: int,
    learning: bool = True,
) -> tuple[list[str], str, str]:
    """``find_channels`` plus a note for the operator ("" or which words the list lacks).

    A phrase the operator explained before (an alias learned from an answered question,
    ``channels.aliases``) is answered with its channels; a question asked with candidates is
    remembered, and the next request of the same conversation that names some of them teaches
    the alias (a request in another thread is no answer to it). Without
    ``learning`` (one item of several, whose question the operator may never see) nothing is
    remembered or taught.
    """
    source = database.source
    phrase = channel_phrase(text, database)
    learned = AliasStore.default().lookup(phrase, source) if phrase else None
    if learned is not None and all(c in database for c in learned.channels):
        names = [database.require(c).name for c in learned.channels]
        if not writable or all(database.require(n).writable for n in names):
            note = (
                f"'{phrase}' is the alias chosen on {learned.learned[:10]} "
                "(osprey-desktop channels aliases lists and removes aliases)."
            )
            return names, phrase, note
    try:
        names, phrase, note = _find_channels_noted(
            database, text, writable=writable, max_write_channels=max_write_channels
        )
    except ClarificationRequired as exc:
        if learning and not isinstance(exc, _InstanceChoice):  # which of N: for now only
            remember_question(phrase or text, exc.suggestions, source, current_thread_id())
        raise
    if not learning:
        return names, phrase, note
    alias = learn_from_answer(names, source, thread=current_thread_id())
    if alias is not None:
        chosen = _first(list(alias.channels))
        kept = f"'{alias.phrase}' will mean {chosen} from now on (kept as an alias)."
        note = f"{note} {kept}".strip()
    return names, phrase, note


class _InstanceChoice(ClarificationRequired):
    """Which one of several devices a write means: answered for this write only."""


def _instance_choice(question: str, suggestions: list[str]) -> _InstanceChoice:
    return _InstanceChoice(question, suggestions)


def _find_channels_noted(
    database: ChannelDatabase, text: str, *, writable: bool, max_write_channels: int
) -> tuple[list[str], str, str]:
    excepted = LEFT_OUT.search(text)
    if excepted is not None:
        return _found_but(
            database, text, excepted, writable=writable, max_write_channels=max_write_channels
        )
    phrase = channel_phrase(text, database)
    if not phrase:
        raise ClarificationRequired(
            "Which channel do you mean? Name it (e.g. SR:DCCT:Current) or describe it "
            "(e.g. 'beam current', 'horizontal orbit in sector 3')."
        )
    typed, numbers = named_devices(phrase, database)
    missing = [name for name in typed if not database.channels_named(name)]
    if missing:
        raise _no_such_name(database, text, missing, writable=writable)
    matches = _find(database, text, phrase, writable)
    if writable and not matches:
        readonly = database.top_matches(phrase)
        if readonly:
            names = ", ".join(m.name for m in readonly[:5])
            raise ClarificationRequired(
                f"'{phrase}' matches only read-only channels ({names}); nothing there can be "
                "written. Which setpoint do you mean?"
            )
    if not matches:
        unplaced = _not_placed_in_sector(database, phrase)
        if unplaced:
            raise ClarificationRequired(
                f"The channel list does not say which of these serve the sector asked for "
                f"('{phrase}'), so none is picked. Which do you mean? (A facility can list "
                "them per sector in channel_finding.sectors.)",
                unplaced[:5],
            )
        near = database.suggest(phrase, limit=5)
        hint = " The nearest names are below." if near else ""
        raise ClarificationRequired(
            f"I found no channel matching '{phrase}' in the channel database. "
            f"Which channel do you mean?{hint}",
            near,
        )
    names = [m.name for m in matches]
    names = _of_the_quantity(database, phrase, names)
    matches = [m for m in matches if m.name in set(names)]
    # the finder kept only the instances the request numbered ("10 through 12"); the ranked
    # search did not, so its answer is checked against every number given
    by_finder = all(m.reason.startswith("finder") for m in matches)
    _check_names_kept(
        database, text, phrase, names, typed, [] if by_finder else numbers, writable=writable
    )
    if writable:
        best = database.search(phrase, limit=1)
        if best and not best[0].channel.writable and best[0].score > matches[0].score + 0.1:
            raise ClarificationRequired(
                f"'{phrase}' best matches {best[0].name}, which is read-only: it cannot be "
                "written. Which setpoint do you mean?",
                [m.name for m in matches[:5]],
            )
    if writable and not typed and _one_device_meant(database, text):
        devices = list(dict.fromkeys(_device_of(database, n) for n in names))
        if len(devices) > 1:
            raise _instance_choice(
                f"'{phrase}' names one device, and {len(devices)} fit it "
                f"({_first(devices)}); a write never picks one for you. Which one do you mean? "
                "(Say 'all' or 'every' to write them all.)",
                names[:5],
            )
    if not writable and not typed:
        _ask_which_one_read(database, text, names)
    if writable and len(names) > max_write_channels:
        raise _too_many_to_write(f"'{phrase}' matches", names, max_write_channels)
    notes = []
    for match in matches[:1]:
        for part in match.reason.split("; ")[1:]:
            if part.startswith(_ASSUMED):
                area = part.removeprefix(_ASSUMED).removesuffix(" area")
                notes.append(
                    f"The request names no area and this kind of device is in several; these "
                    f"are in {area} (channel_finding.default_area, else the area with the most "
                    "devices; name the area for another)."
                )
            elif part.startswith(_LACKS):
                lacking = part.removeprefix(_LACKS)
                _ask_for_a_missing_quantity(database, lacking, names, phrase)
                notes.append(
                    f"The channel list has no '{lacking}'; these channels match the other words."
                )
    return names, phrase, " ".join(notes)


#: a name typed with other separators: "sr02c_qf05_current_rb", "SR02C.QF05.Current.RB"
_SEPARATED_NAME = re.compile(r"\b[A-Za-z0-9]+(?:[_./-][A-Za-z0-9]+){2,}\b")


_AREA_THEN_DEVICE = re.compile(
    r"\b(?P<area>[A-Za-z]{1,4}\d{1,3}[A-Za-z]?)[-_/](?P<device>[A-Za-z]{1,5}\d{1,3})\b(?![:_.-]\w)"
)


def names_with_their_separators(text: str, database: ChannelDatabase) -> str:
    """``text`` with a channel's name typed with other separators than the list's ("_", ".",
    "-", "/" for ":") written as the list writes it, when exactly that name is listed; a
    device typed after its area ("SR01-HCM03") as the device, when the area is its own."""

    def listed(found: re.Match[str]) -> str:
        typed = found.group(0)
        if typed in database:
            return typed
        record = database.get(re.sub(r"[_./-]", ":", typed))
        return record.name if record is not None else typed

    def placed(found: re.Match[str]) -> str:
        # "SR01-HCM03": the device, after the area it is in (the list's "SR01C")
        names = database.channels_named(found["device"])
        area = found["area"].lower()
        if names and all(n.lower().startswith(area) for n in names):
            return found["device"]
        return found.group(0)

    return _AREA_THEN_DEVICE.sub(placed, _SEPARATED_NAME.sub(listed, text))


def _ask_which_one_read(database: ChannelDatabase, text: str, names: list[str]) -> None:
    """ "what's the undulator gap?" with six undulators: which one is asked (``language.
    one_of_a_kind``), never six read for one named."""
    finder = finder_of(database)
    positions = [p for n in names if (p := finder.records.position(n)) is not None]
    # numbered devices only: "the septum" is the setpoint and readback of one device
    keys = {finder.device_key(p) for p in positions if "#" in finder.family_key(p)}
    if len(keys) < 2:
        return
    devices = list(dict.fromkeys(_device_of(database, n) for n in names))
    prefixes = frozenset(m[0] for d in devices if (m := re.match(r"[A-Za-z]+", d)))
    kind = device_kind_named(text, prefixes)
    if kind is None or not _one_device_meant(database, text):
        return
    said = kind.upper() if kind in {p.lower() for p in prefixes} or len(kind) <= 3 else kind
    raise _instance_choice(
        f"Which {said} do you mean? The request names one and {len(devices)} fit "
        f"({_first(devices)}). Name it, or say 'all' to read every one.",
        names[:5],
    )


def _ask_for_a_missing_quantity(
    database: ChannelDatabase, lacking: str, names: list[str], phrase: str
) -> None:
    """ "the corrector 3 temperature" on a list without temperatures: the quantity asked for
    is not what the other words found (the corrector's current), so it is asked, never
    answered with another quantity. A quantity word the channels do have ("power supply
    current") is the one asked for; the missing one only qualifies it."""
    missing = [w for w in re.findall(r"[a-z]+", lacking.lower()) if w in _QUANTITY_WORDS]
    if not missing:
        return
    described = " ".join(
        f"{database.require(n).name} {database.require(n).description}".lower() for n in names
    )
    asked = [w for w in re.findall(r"[a-z]+", phrase.lower()) if w in _QUANTITY_WORDS]
    if any(w in described for w in (*missing, *asked)):
        return
    raise ClarificationRequired(
        f"The channel list has no '{lacking}'; the other words match {_first(names)}, which "
        f"{'is' if len(names) == 1 else 'are'} not a {missing[0]}. Which channel do you mean?",
        names[:5],
    )


#: Words that name what a channel measures or sets: a phrase naming one asks for that quantity.
_QUANTITY_WORDS = (
    *("frequency", "voltage", "current", "pressure", "position", "gap", "field"),
    *("temperature", "power", "phase", "flow", "energy", "charge", "dispersion", "emittance"),
    *("chromaticity", "coupling", "efficiency", "size", "intensity", "resistance"),
)


def _of_the_quantity(database: ChannelDatabase, phrase: str, names: list[str]) -> list[str]:
    """``names`` that carry each quantity word of ``phrase`` ("frequency" of "cavity 1
    frequency setpoint"): the finder may have matched the other words ("cavity", "1") and
    dropped it. A channel lacks the word when the word finds it only weakly (as a channel of
    the RF) or not at all, while another quantity word is its own (the RF voltage).
    The channels that carry it are preferred; when none does, no channel is the answer (never
    another quantity: the voltage for a frequency). A phrase of several parts ("the beam
    current and lifetime") is left as found."""
    if len(names) == 0 or _JOIN.search(phrase):
        return names
    finder = finder_of(database)
    positions = {n: finder.records.position(n) for n in names}
    words = re.findall(r"[a-z]+", phrase.lower())

    def strengths(word: str) -> dict[int, float]:
        indices, values, _ = finder.word_matches(normalize(word))
        return dict(zip(indices.tolist(), values.tolist(), strict=True))

    kept = list(names)
    for number, word in enumerate(words):
        if word not in _QUANTITY_WORDS:
            continue
        after = words[number + 1] if number + 1 < len(words) else ""
        if word == "current" and (after in _QUANTITY_WORDS or after in _NOW_NOUNS):
            continue  # "the current position readback": now, not an electric current
        having = strengths(word)
        if not having:
            continue  # a word the list lacks is judged with the others ("not in the list")
        top = max(having.values())
        if all(positions[n] is None or having.get(positions[n], 0.0) >= top for n in kept):
            continue  # every channel carries the word: the other quantities need not be read
        others = [strengths(w) for w in _QUANTITY_WORDS if w != word and w not in words]

        # a channel another quantity word names as its own, found by this word only weakly
        # or not at all (a tuner the list does not call a position is still the tuner's)
        carrying = [
            n
            for n in kept
            if positions[n] is None
            or having.get(positions[n], 0.0) >= top
            or not any(o.get(positions[n], 0.0) >= top for o in others)
        ]
        if not carrying:
            near = [
                m.name
                for m in database.search(phrase, limit=20)
                if having.get(finder.records.position(m.name) or -1, 0.0) >= top
            ]
            raise ClarificationRequired(
                f"No channel for '{phrase}': the channels its other words match "
                f"({_first(kept)}) have no '{word}'. Which channel do you mean?"
                + (f" The nearest with a {word} are below." if near else ""),
                near[:5] or kept[:5],
            )
        kept = carrying
    return kept


_NOW_NOUNS = frozenset({"value", "values", "reading", "readback", "setting", "setpoint", "status"})


_ASSUMED = "assumed the "
_LACKS = "not in the list: "


def _not_placed_in_sector(database: ChannelDatabase, phrase: str) -> list[str]:
    """The channels ``phrase`` names once its sector is left out, when none of them has a
    sector the list states (so "in sector 2" cannot pick among them); else []."""
    finder = finder_of(database)
    if not finder.find(phrase).query.sectors:
        return []
    found = finder.find(without_sector(phrase)).names
    index = {record.name: i for i, record in enumerate(finder.records)}
    if any(finder.sector[index[n]] is not None for n in found if n in index):
        return []
    return found


def _typed(text: str, name: str) -> str:
    """``name`` as the operator spelled it in ``text`` ("HCM 99" for "hcm99")."""
    pattern = r"\s*".join(re.escape(c) for c in name)
    found = re.search(rf"(?<![\w:]){pattern}(?![\w:])", text, re.IGNORECASE)
    return found.group(0) if found else name.upper()


def _ours(database: ChannelDatabase, names: list[str], writable: bool) -> list[str]:
    """The setpoints among ``names`` for a write (all of them for a read)."""
    return [n for n in names if not writable or (r := database.get(n)) is not None and r.writable]


def _no_such_name(
    database: ChannelDatabase, text: str, missing: list[str], *, writable: bool
) -> ClarificationRequired:
    """The question for names the channel list does not have, with the nearest ones."""
    shown = " or ".join(_typed(text, name) for name in missing)
    name = missing[0]
    pieces = [p for p in name.split(":") if p]
    absent = [p for p in pieces if not database.channels_named(p)]
    devices = database.nearest_devices(absent[0]) if absent else []
    if devices:
        family = database.devices_like(absent[0])
        if family:
            shown += f" in the channel list ({_range_of(family)} exist)"
        else:
            shown += " in the channel list"
        nearest = [
            c for d in devices for c in _ours(database, database.channels_named(d), writable)
        ]
    else:  # the pieces exist, not together ("SR05C:HCM09"): the rarest piece's channels
        shown += " in the channel list"
        present = [p for p in pieces if database.channels_named(p)]
        rarest = min(present, key=lambda p: len(database.channels_named(p)), default=name)
        nearest = _ours(database, database.channels_named(rarest), writable)
    nearest = nearest[:5] or database.suggest(name, limit=5)
    if len(pieces) == 1 and devices:  # "set HCM09 to 1 A": the request with a real name in it
        suggestions = [_reworded(text, name, d) for d in devices]
    else:
        suggestions = [_reworded(text, name, n) for n in nearest]
    listed = ", ".join(nearest)
    if not nearest:
        question = f"There is no {shown}. Which channel do you mean?"
    elif writable:
        question = (
            f"There is no {shown}; a write never goes to a similar name instead. "
            f"Did you mean one of: {listed}?"
        )
    else:
        question = (
            f"There is no {shown}, so nothing was read. The nearest existing channels "
            f"(a suggestion, not {_typed(text, name)}): {listed}. Which one do you mean?"
        )
    return ClarificationRequired(question, suggestions)


def _found_but(
    database: ChannelDatabase,
    text: str,
    excepted: re.Match[str],
    *,
    writable: bool,
    max_write_channels: int,
) -> tuple[list[str], str, str]:
    """The channels the words before an exception find, less those its own words find; each
    part is asked about as usual when it names nothing, and a write's cap counts what is left."""
    kept = f"{text[: excepted.start()]} {text[excepted.end() :]}"
    names, phrase, note = _find_channels_noted(
        database, kept, writable=writable, max_write_channels=10**6
    )
    left = excepted["left"].strip()
    try:
        out, _, _ = _find_channels_noted(database, left, writable=False, max_write_channels=10**6)
    except ClarificationRequired as exc:
        raise ClarificationRequired(
            f"I found {_first(names)} for '{phrase}', but not which of them '{left}' leaves "
            f"out ({exc}). Which should be left out?",
            names[:5],
        ) from exc
    remaining = [n for n in names if n not in set(out)]
    if not remaining:
        raise ClarificationRequired(
            f"'{left}' leaves out every channel found for '{phrase}' ({_first(names)}). "
            "Which channels do you mean?",
            names[:5],
        )
    if writable and len(remaining) > max_write_channels:
        raise _too_many_to_write(f"'{phrase}' less '{left}' leaves", remaining, max_write_channels)
    dropped = len(names) - len(remaining)
    said = (
        f"Left out, as asked: '{left}' ({dropped} of the {len(names)} channels found)."
        if dropped
        else ""
    )
    return remaining, phrase, f"{note} {said}".strip()


def _too_many_to_write(said: str, names: list[str], cap: int) -> ClarificationRequired:
    """The question asked when one write would change more channels than the cap allows."""
    return ClarificationRequired(
        f"{said} {len(names)} writable channels; one write may change at most {cap} "
        "(approval.max_channels_per_write). Which ones do you mean? The first five are below.",
        names[:5],
    )


def _places_only(phrase: str, name: str) -> bool:
    """``name`` is given as a place ("around ID09", "near QF 21"), not as what is asked."""
    letters, digits = re.match(r"([A-Za-z]*)(.*)", name).groups()  # type: ignore[union-attr]
    spoken = rf"{re.escape(letters)}[\s-]?{re.escape(digits)}" if letters and digits else name
    return bool(
        re.search(
            rf"\b(?:near|around|next\s+to|close\s+to|beside|in\s+the\s+vicinity\s+of)\s+"
            rf"(?:the\s+)?{spoken}\b",
            phrase,
            re.I,
        )
    )


def _check_names_kept(
    database: ChannelDatabase,
    text: str,
    phrase: str,
    found: list[str],
    typed: list[str],
    numbers: list[str],
    *,
    writable: bool,
) -> None:
    """Ask when the search answered beside the names or numbers the request gave."""
    named: dict[str, None] = {}
    for name in typed:
        own = database.channels_named(name)
        if not writable and _places_only(phrase, name):
            continue  # "the vacuum around ID09": ID09 says where, not what
        if not set(own) & set(found):
            mine = _ours(database, own, writable)[:5]
            if not mine:
                # "set SR:RF:Voltage:RB to 2.6": a readback named for a write
                raise ClarificationRequired(
                    f"{_typed(text, name)} is read-only and cannot be written; the writable "
                    f"channels that fit '{phrase}' are {_first(found)}. Which do you mean?",
                    [_reworded(text, name, n) for n in found[:5]],
                )
            raise ClarificationRequired(
                f"'{phrase}' names {_typed(text, name)}, but {_typed(text, name)} is not among "
                f"the channels that fit the rest of it ({_first(found)}). "
                f"{_typed(text, name)} is {', '.join(mine)}. Which do you mean?",
                [_reworded(text, name, n) for n in mine],
            )
        named.update(dict.fromkeys(own))
    extra = [n for n in found if n not in named]
    if writable and typed and extra:
        shown = " and ".join(_typed(text, name) for name in typed)
        raise ClarificationRequired(
            f"'{phrase}' also matches {', '.join(extra[:3])}, which "
            f"{'is' if len(extra) == 1 else 'are'} not {shown}; a write goes only to the "
            "channels named. Which do you mean?",
            _ours(database, [n for n in found if n in named], writable)[:5],
        )
    for number in numbers:
        strays = [
            n for n in found if (own := database.device_numbers(n)) and int(number) not in own
        ]
        if strays:
            raise ClarificationRequired(
                f"'{phrase}' says {number}, but the devices that fit the rest of it "
                f"({_first(strays)}) are not numbered {number}, and none is picked in its "
                "place. Which channel do you mean?",
                found[:5],
            )


def _first(names: list[str], count: int = 3) -> str:
    return ", ".join(names[:count]) + (", …" if len(names) > count else "")


def _range_of(devices: list[str]) -> str:
    """A run of numbers as "HCM01–HCM36"; the names themselves when few; else a count."""
    numbers = [int(DEVICE_NAME.fullmatch(d).group(2)) for d in devices]  # type: ignore[union-attr]
    if len(devices) > 2 and numbers == list(range(numbers[0], numbers[0] + len(numbers))):
        return f"{devices[0]}–{devices[-1]}"
    if len(devices) <= 8:
        return ", ".join(devices)
    return f"{len(devices)} names from {devices[0]} to {devices[-1]}"


def _reworded(text: str, name: str, replacement: str) -> str:
    """``text`` with the operator's spelling of ``name`` replaced: a request they could send."""
    return text.replace(_typed(text, name), replacement, 1).strip()


def _find(database: ChannelDatabase, text: str, phrase: str, writable: bool) -> list[Any]:
    """The channels ``text`` names (see ``connectors.channel_finder``), as search matches.

    The finder reads the request itself (ordinals, ranges, setpoint/readback words), with its
    time expressions and write values taken out; when it finds nothing the answer is empty
    (the caller asks, with the nearest names).
    """
    from osprey_desktop.channels.search import ChannelMatch

    if not writable:
        # "is the x tune still near 14.22?": a number with decimals is a value, never a device's
        text = re.sub(
            r"(?<![\w.:])[-+]?\d+(?:\.\d+(?:e[-+]?\d+)?|e[-+]?\d+)(?![\w.:])", " ", text, flags=re.I
        )
    said = without_values(text) if writable else without_quantities(strip_time_expressions(text))
    words = expand_name_ranges(
        said,
        lambda name: bool(database.channels_named(name)),
    )
    finder = finder_of(database)
    found = _joined_parts(
        finder, words, finder.find(words, writable=True if writable else None), writable
    )
    if not writable:
        found = _command_asked(finder, text, words, found)
    # model-assisted finding (models.planner: chat_model): the model's checked choice, if any
    builtin = found
    found = chosen_instead(database, text, writable, found)
    chosen = found is not builtin
    if not found.names and found.query.numbers:
        found = _without_stray_numbers(finder, words, found, writable)
    if not found.names:
        # no answer from the ranked search instead: on every list measured it answered
        # nothing the finder missed, and on a list the finder cannot read it answers with
        # channels that share a word; the caller asks with the nearest names
        return []
    # the model's checked choice explains the words the list lacks ("charge circulating")
    # a short word typed in capitals ("orbit FB", "MPS status") is an abbreviation, no slip
    capitals = {w.lower() for w in re.findall(r"\b[A-Z]{2,4}\b", text)}
    unknown = [
        w
        for w in ([] if chosen else found.ignored_words)
        if not w.isdigit()
        and (len(w) > 2 or w in capitals)
        and w not in FILLER
        and w not in STOPWORDS
        and w not in FUNCTION_WORDS
        and lookup_unit(w) is None  # "above 3e-9 Torr": the unit of a threshold
        # "is the lifetime longer now than it was at 7": a comparison's word, no channel's
        and not (w in COMPARATIVES and re.search(rf"\b{w}\s+(?:now\s+)?than\b", text, re.I))
        # "close the ID09 gap a bit": how much, vaguely, names no channel
        and w not in VAGUE_AMOUNTS
    ]
    if writable and not any(database.require(n).writable for n in found.names):
        raise ClarificationRequired(
            f"'{phrase}' matches only read-only channels ({_first(found.names, 5)}); nothing "
            "there can be written. Which setpoint do you mean?"
        )
    if writable and unknown and _gives_a_value(text):
        raise ClarificationRequired(
            f"The channel list has no '{' '.join(unknown)}', and a write never goes to what "
            f"the other words match instead ({_first(found.names)}). Which channel do you mean?",
            found.names[:5],
        )
    if writable and _gives_a_value(text) and not named_devices(phrase, database)[0]:
        # "set the quad voltage to 2.6": the list has quads and a voltage, but no quad voltage;
        # a write never goes to the channels that match only some of the words (a device named
        # by its name is what is meant: "orbit off in s3, HCM07 to -0.2 A")
        left = [w for w in _unexplained(finder, found) if w not in ("setpoint", "readback")]
        if left:
            raise ClarificationRequired(
                f"No channel is all of '{phrase}': what it finds ({_first(found.names)}) has no "
                f"'{' '.join(left)}', and a write never goes to what only some of the words "
                "match. Which channel do you mean?",
                found.names[:5],
            )
    # a short unknown word ("teh") is a slip; a longer one names something the list does not
    # have ("cryoplant pressure"): no channel for it, never what the other words match
    noted = [
        w
        for w in unknown
        if (len(w) > 3 or w in capitals) and w not in _QUANTIFIERS and w not in _VAGUE
    ]
    known = [w for w in found.query.words if w not in found.ignored_words]
    # a device named by its name ("QF03 golden") is what is meant; other words only qualify it
    named = bool(named_devices(phrase, database)[0])
    few = len(noted) >= len(known) + len(found.query.numbers)
    # "read the photon flux at ID 9": a quantity of two words the list lacks, asked of a device
    # whose own quantity ("gap") is not said: never its other channels instead
    instead = named and len(noted) >= 2 and _a_quantity_lacked(database, phrase, noted, known)
    if (
        noted
        and (not named or instead)
        and (
            instead
            or few
            or _broad(finder, found)
            or _qualifies(phrase, noted, known, _kinds_of_device(finder.vocabulary))
        )
    ):
        raise ClarificationRequired(
            f"No channel for '{phrase}': the channel list has no '{' '.join(noted)}'. The "
            "nearest channels are below; which one do you mean?",
            found.names[:5],
        )
    notes = [f"{_ASSUMED}{found.assumed_area} area"] if found.assumed_area else []
    notes += [f"{_LACKS}{' '.join(noted)}"] if noted else []
    reason = "; ".join(["finder", *notes])
    return [ChannelMatch(database.require(n), 1.0, reason) for n in found.names]


def _a_quantity_lacked(
    database: ChannelDatabase, phrase: str, noted: list[str], known: list[str]
) -> bool:
    """The words the list lacks are one noun phrase ("photon flux"; never a verb or a
    negation: "spiking, wasn't it"), and every other word only names the device or a place."""
    prefixes = {p.lower() for p in database.device_prefixes()}
    if not all(w in prefixes or w in _PLACES or _DEVICE_WORD.fullmatch(w) for w in known):
        return False
    if any(w in NEGATIONS or re.search(r"(?:ing|ed)$", w) for w in noted):
        return False
    said = re.findall(r"[a-z0-9]+", phrase.lower())
    return any(said[i : i + len(noted)] == noted for i in range(len(said)))


_JOIN = re.compile(r"\s*(?:,|\band\b|&|\bas well as\b)\s*", re.I)
_PLACES = frozenset({"sector", "sectors", "cell", "cells", "straight", "arc", "ring"})
_DEVICE_WORD = re.compile(r"[a-z]{1,5}\d{1,3}")


def _without_stray_numbers(finder: Any, words: str, found: Any, writable: bool) -> Any:
    """The request's channels when its numbers cannot be theirs: "the lifetime since 8" (an
    hour the time parse left) finds the lifetime, which has no numbered devices; "BPM 99 x"
    stays unanswered, BPMs are numbered."""
    bare = " ".join(w for w in words.split() if not w.isdigit())
    if bare == words:
        return found
    again = finder.find(bare, writable=True if writable else None)
    positions = [finder.records.position(n) for n in again.names]
    if again.names and all(p is not None and finder.instance[p] is None for p in positions):
        return again
    return found


def _joined_parts(finder: Any, words: str, found: Any, writable: bool) -> Any:
    """Several targets in one request, each found on its own: "the beam current and
    lifetime", "setpoint, readback and reference of the 2nd quad", "horizontal and vertical
    position at BPM 7 and the beam current".

    The request is cut at "and", "&" and commas; a part that goes on with the numbers the one
    before it ended with ("BPMs 1 and 3 in the booster", "sectors 4, 5") stays with it (the
    finder reads such lists itself). Each part is completed as ``_completed`` says. The parts'
    channels together are the answer when each part finds some and together they find more
    than the whole, or fewer (each part pairs its words with its own device: "the vertical
    position of BPM 2 and the horizontal position of BPM 40"); else the whole decides."""
    parts = _parts(words)
    if len(parts) < 2 or len(parts[-1]) == 1 and len(parts) == 2 and "," in words:
        return found  # "BPMs 30 through 33, horizontal": a last word narrows, it adds nothing
    left = _unexplained(finder, found)
    each = _each_part(finder, parts, writable)
    if each is None:
        return found  # a part names nothing on its own: the whole decides
    union, assumed, sizes = each
    fewer = bool(found.names) and set(union) < set(found.names)
    # parts that each pick their own few by a number or an ordinal ("the first and last
    # vertical correctors"): the whole kept one pick, the parts keep both
    picking = all(any(_narrows(w, set()) for w in part) for part in parts)
    apart = picking and sum(sizes) == len(union) and max(sizes) <= len(found.names)
    fewer = fewer or (bool(found.names) and set(union) > set(found.names) and apart)
    if found.names and not left and not fewer:
        return found  # the whole is answered word for word: "vertical position, BPMs 4 and 6"
    if set(union) <= set(found.names) and not fewer:
        return found
    joined = type(found)(
        names=list(union),
        query=found.query,
        ignored_words=found.ignored_words,
        assumed_area=assumed,
    )
    if fewer:
        return joined  # fewer, or as many more as the parts pick apart
    return joined if len(_unexplained(finder, joined)) < len(left) or not found.names else found


def _each_part(
    finder: Any, parts: list[list[str]], writable: bool
) -> tuple[dict[str, None], str | None, list[int]] | None:
    """The channels of every part (completed by ``_completed``), the area one assumed and
    how many each part found; None when a part names nothing."""
    union: dict[str, None] = {}
    sizes: list[int] = []
    assumed = None
    areas = {a.lower() for a in finder.area}
    describing: list[str] = []
    for number, part in enumerate(parts):
        answer = None
        for candidate in _completed(parts, number, describing, areas):
            found = finder.find(" ".join(candidate), writable=True if writable else None)
            if found.names and (answer is None or not found.ignored_words):
                answer, part = found, candidate
                if not found.ignored_words:
                    break
        if answer is None:
            return None
        describing = [w for w in part if not _narrows(w, areas)] or describing
        union.update(dict.fromkeys(answer.names))
        sizes.append(len(answer.names))
        assumed = assumed or answer.assumed_area
    return union, assumed, sizes


def _completed(
    parts: list[list[str]], number: int, describing: list[str], areas: set[str]
) -> list[list[str]]:
    """What part ``number`` may mean, most likely first.

    A part that only picks or says which field ("readbacks of the first", "and the last")
    takes the describing words of the part before it, else of the next part that has some
    ("… and last vertical correctors"). A part of one word takes the place of the last word
    of the part before it ("booster BPM 2 x and y": y of booster BPM 2), or borrows the rest of
    the next longer part ("setpoint" of "the 2nd quad", "horizontal" of "position at BPM 7").
    Last, the part as it is."""
    part = parts[number]
    candidates: list[list[str]] = []
    # a device named by its own name ("IG13" of "IG13, IG14, booster current") is whole
    named = any(re.fullmatch(r"[a-z]{2,}\d+", w.lower()) for w in part)
    if named:
        return [part]
    if describing and all(_narrows(w, areas) for w in part):
        candidates.append([*describing, *part])  # "…, and the first device of BR and BTS"
    if len(part) == 1:
        before = parts[number - 1] if number else []
        if len(before) > 1:
            candidates.append([*before[:-1], *part])
        longer = next((p for p in parts[number + 1 :] if len(p) > 1), parts[-1])
        candidates.append([*part, *longer[1:]])
    elif not _own(part, areas) and not named:
        later = next((_own(p, areas) for p in parts[number + 1 :] if _own(p, areas)), None)
        if later:
            candidates.append([*part, *later])
    candidates.append(part)
    return candidates


def _own(part: list[str], areas: set[str]) -> list[str]:
    """The words of a part that describe a device (no numbers, ordinals, areas, roles)."""
    return [w for w in part if not _narrows(w, areas) and w.lower() not in _ROLE_WORDS]


_ROLE_WORDS = SETPOINT_WORDS | READBACK_WORDS


#: Words that qualify a reading without naming another thing ("the present beam current").
_PLAIN_QUALIFIERS = frozenset(
    {"actual", "present", "current", "total", "overall", "main", "latest", "recent", "live"}
    | {"momentary", "typical", "usual", "normal", "exact", "precise", "raw", "full", "real"}
)


def _qualifies(phrase: str, noted: list[str], known: list[str], kinds: frozenset[str]) -> bool:
    """A kind of device or system the vocabulary knows and the list lacks, said right before
    the words the list has ("booster ring current", "linac beam current", "orbit FB"): what
    the other words find is another thing's, so it is asked, never read instead. A word the
    vocabulary does not know ("machine current", "the design tune") only qualifies: it is
    named in a note beside the reading."""
    said = [w for w in re.findall(r"[a-z0-9]+", phrase.lower()) if w not in FILLER]
    known_words = set(known)
    for first, second in zip(said, said[1:], strict=False):
        if first in noted and first in kinds and not _describes(first) and second in known_words:
            return True
        if first in known_words and second in noted and second in kinds and len(second) <= 4:
            return True  # "orbit FB": the list's word, then an abbreviation of a system
    return False


def _kinds_of_device(vocabulary: Any) -> frozenset[str]:
    """The words the vocabulary names devices and systems with: its terms, and the phrases of
    one word they stand for ("br": "booster", "kly": "klystron")."""
    kinds = set(vocabulary.phrases)
    for phrases in vocabulary.phrases.values():
        kinds.update(p[0] for p in phrases if len(p) == 1)
    return frozenset(kinds)


#: the endings of English adjectives and participles ("ambient", "magnetic", "averaged")
_ADJECTIVE_ENDING = re.compile(
    r"(?:al|ent|ant|ive|ous|ic|able|ible|ful|less|ed|ing|ary|ish|est|ly)$"
)


def _describes(word: str) -> bool:
    """A word that describes ("ambient", "present") rather than names a thing ("booster")."""
    return word in _PLAIN_QUALIFIERS or _ADJECTIVE_ENDING.search(word) is not None


#: Words that name no kind of device: a list without them still has what they ask for.
_VAGUE_WORDS = """system systems measurement measurements diagnostic diagnostics parameter
parameters info information details detail overview things stuff quantities"""
_VAGUE = frozenset(_VAGUE_WORDS.split())


def _broad(finder: Any, found: Any) -> bool:
    """An answer of many devices that no number or "all" asked for: with a word the list
    lacks, it is what the other words match, not what was meant."""
    if found.query.numbers or found.query.everything or found.query.ordinal:
        return False
    positions = (finder.records.position(n) for n in found.names)
    devices = {finder.device_key(p) for p in positions if p is not None}
    return len(devices) > _FEW_DEVICES


_FEW_DEVICES = 3


def _unexplained(finder: Any, found: Any) -> list[str]:
    """The describing words of a request (and its "setpoint"/"readback"/"reference") that no
    channel found has: what a single answer to a request of several targets leaves out."""
    positions = (finder.records.position(n) for n in found.names)
    chosen = {p for p in positions if p is not None}
    left = []
    for word in dict.fromkeys(found.query.words):
        indices = finder.word_matches(word)[0]
        if len(indices) and not chosen & set(indices.tolist()):
            left.append(word)
    query = found.query
    said = {"setpoint", "readback"} if query.both_roles else {query.role} if query.role else set()
    kinds = {finder.access(i) for i in chosen}
    return left + sorted(k for k in said if k and k not in kinds)


def _parts(words: str) -> list[list[str]]:
    """``words`` cut into targets (see ``_joined_parts``), each as its meaningful words."""
    parts: list[list[str]] = []
    for piece in _JOIN.split(words):
        kept = _meaningful(piece)
        if not kept:
            continue
        continues = parts and _is_number(kept[0]) and _is_number(parts[-1][-1])
        repeats = parts and all(
            _is_number(w)
            or w.lower() in _CONSTRAINT_WORDS
            or w.lower().rstrip("s") in {p.lower().rstrip("s") for p in parts[-1]}
            for w in kept
        )
        if continues or repeats:
            parts[-1] += kept  # "BPMs 1 and 3 in the booster", "BPM 8 and BPM 9": one target
        else:
            parts.append(kept)
    return parts


#: Words that narrow the part before them rather than name a target ("sector 1, devices 1-2").
_CONSTRAINT_WORDS = frozenset(
    ["device", "devices", "sector", "sectors", "cell", "cells", "girder", "girders", "only"]
)


def _narrows(word: str, areas: set[str]) -> bool:
    """A word that picks among channels rather than names them: a number, an ordinal, an
    area's name, "sector", "device"."""
    lowered = word.lower()
    return (
        _is_number(word)
        or lowered in _CONSTRAINT_WORDS
        or lowered in areas
        or lowered in QUERY_WORDS
        or bool(re.fullmatch(r"\d+(st|nd|rd|th)", lowered))
    )


def _is_number(word: str) -> bool:
    lowered = word.lower().strip("#")
    return lowered.isdigit() or lowered in NUMBER_WORDS or lowered in ("-", "–", "through", "to")


def _meaningful(part: str) -> list[str]:
    """The words of ``part`` that can describe a channel (no filler, no stop words; "last"
    stays: its time expressions are gone, what is left picks devices)."""
    return [
        w
        for w in part.split()
        if w.lower() == "last" or w.lower() not in FILLER and w.lower() not in STOPWORDS
    ]


def _gives_a_value(text: str) -> bool:
    """Whether a write request is complete (names a value): only then is an unfamiliar word
    in it a question about the target; without a value the question is the value first."""
    try:
        return bool(parse_write_request(text))
    except WriteRequestError:
        return False


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
        "targets": "the phrases naming the channels, each found on its own (a read)",
    }

    def __init__(
        self, state: dict[str, Any] | None = None, step: dict[str, Any] | None = None
    ) -> None:
        super().__init__(state, step)
        # The facility's own channel words are this capability's keywords (see the docstring
        # of channel_vocabulary); they depend on the configured database, hence per instance.
        self.keywords = [*type(self).keywords, *_configured_vocabulary()]  # type: ignore[misc]

    async def execute(self) -> dict[str, Any]:
        from osprey_desktop.connectors import get_configured_channel_database

        # "set HCM 2 to 0.3 and don't touch HCM 3": a refused device is never looked for
        database = get_configured_channel_database()
        text = names_with_their_separators(without_refused_devices(self.request_text()), database)
        # indexing a large list takes seconds the first time: off the (window's) event loop
        await asyncio.to_thread(finder_of, database)
        writable = self._for_write()
        source, condition, reading = "", False, ""
        if writable:
            reading, text = reading_apart(text)
            text, source, condition = _write_clause(text)
        asked = text
        if not writable:
            text = without_the_refused(
                without_question_about_it(_without_a_statistic(text, database))
            )
        # model-assisted finding (models.planner: chat_model): asked here, on the running loop
        # (a sync call would block the window); _find takes its checked choice
        targets = [str(t) for t in self.get_parameters().get("targets") or [] if str(t).strip()]
        if targets and not targets_keep_request(finder_of(database), text, targets):
            targets = []  # the cut lost a number or a word of the list: the finder reads it all
        if targets and not writable:
            # the phrases the request's parse names ("current, lifetime and RF": each item
            # found on its own, none dropped)
            names, note = await asyncio.to_thread(
                find_each_target,
                database,
                borrowed_targets(said_only(targets, " ".join(self._wordings(text, database)))),
                self._wordings(text, database),
            )
            return self.store_output_context(ChannelAddressesContext(
                channels=names, original_query=asked, note=note,
                descriptions={n: r.description for n in names if (r := database.get(n))},
            ))  # fmt: skip
        async with consulted(database, text, writable=writable):
            try:  # raises ClarificationRequired, never guesses
                names, _, note = (
                    each_written(database, text) if writable and not source else None
                ) or find_channels_noted(
                    database, text, writable=writable, max_write_channels=max_channels_per_write()
                )
            except ClarificationRequired:
                # an exact name the list lacks is read as typed, never written (channel_read);
                # the simulated ring has no channel beyond its list: there it is asked about
                names = (
                    []
                    if writable or _list_is_whole_machine()
                    else [n for n in typed_names(text) if n not in database]
                )
                if not names:
                    raise
                note = unlisted_note(names)
        if writable:
            names = _commands_for_state(text, names)
            if not source:
                names = _in_the_value_unit(database, text, names)
            if reading:
                names = [*_read_first(database, reading, names), *names]
        if source:
            # where a copied value comes from may be read-only ("the golden value"); what a
            # condition reads, when it is another device ("if the lifetime is above 5 h")
            try:
                found, _, _ = find_channels_noted(
                    database, source, writable=False, max_write_channels=max_channels_per_write()
                )
            except ClarificationRequired:
                if not condition:
                    raise
                found = []  # the writer finds the condition's channel itself, or asks
            if condition:
                # one channel the condition reads ("the lifetime"); a device with several
                # ("HCM4": setpoint and readback) is left to the writer, which picks or asks
                written = {_device_of(database, n) for n in names}
                found = [n for n in found if _device_of(database, n) not in written]
                found = found if len(found) == 1 else []
            names = list(dict.fromkeys([*found, *names]))
        descriptions = {n: r.description for n in names if (r := database.get(n)) is not None}
        return self.store_output_context(
            ChannelAddressesContext(
                channels=names, original_query=asked, descriptions=descriptions, note=note
            )
        )

    def _wordings(self, text: str, database: ChannelDatabase) -> list[str]:
        """The request in the operator's own words, then as the step states it (a read's:
        without the words of a statistic asked, see ``_without_a_statistic``)."""
        from osprey_desktop.state import StateManager

        said = (StateManager.get_user_query(self._state) or "").strip()
        said = _without_a_statistic(said, database)
        return list(dict.fromkeys(w for w in (said, text) if w))

    def _for_write(self) -> bool:
        """Whether this step finds the target of a write (then: setpoints only, and a write
        stays on the devices named).

        The evidence, strongest first: the step's ``writable`` parameter; the plan's steps
        that read this step's result (a consumer whose capability has ``writes = True``);
        when no step reads it yet (react mode plans one step at a time), the request itself
        asking for a change. Names the channel list lacks are asked about either way, so a
        wrong answer here can never turn a missing name into a guessed write target.
        """
        flag = self.get_parameters().get("writable")
        if isinstance(flag, bool):
            return flag
        if isinstance(flag, str) and flag.strip():
            return flag.strip().lower() in ("true", "yes", "1")
        key = self._step.get("context_key")
        plan = self._state.get("planning_execution_plan") or {}
        consumers = [
            str(step.get("capability"))
            for step in plan.get("steps") or []
            if any(
                key in item.values() for item in step.get("inputs") or [] if isinstance(item, dict)
            )
        ]
        if consumers:
            return any(_writes(name) for name in consumers)
        from osprey_desktop.planners.builtin import asks_for_change
        from osprey_desktop.planners.channel_words import parse

        # "tell me the tune, then raise QF01 by 0.5 A": a reading first, then the change
        return any(
            asks_for_change(text) or parse(text).changes for text in self.candidate_texts()[:2]
        )


_QUANTIFIERS = frozenset(["all", "every", "each", "both", "entire", "whole", "everywhere"])


#: words before a value: a number word after them is the value, never a count of devices
_VALUE_LEADS = frozenset({"to", "at", "by", "minus", "plus", "of", "is", "be", "equals"})


def _one_device_meant(database: ChannelDatabase, text: str) -> bool:
    """Whether a request speaks of one device: "the undulator gap", "the horizontal corrector
    in sector 2" (no "all", "every", "both", no plural of a channel word, no count)."""
    from osprey_desktop.channels.finder import normalize
    from osprey_desktop.language.numbers import NUMBER_WORDS

    vocabulary = set(_vocabulary(database))
    words = re.findall(r"[a-z]+", expand_name_ranges(text.lower()))
    for at, word in enumerate(words):
        before = words[at - 1] if at > 0 else ""
        after = words[at + 1] if at + 1 < len(words) else ""
        placed = before in ("sector", "sect", "sec", "cell", "number", "no")
        # "set QF to one twenty one", "to twenty": a value said in words counts nothing
        valued = before in _VALUE_LEADS or before in NUMBER_WORDS or after in NUMBER_WORDS
        valued = valued or after in ("point", "and", "") or before == "point"
        if word in _QUANTIFIERS or (
            word in NUMBER_WORDS and word != "one" and not placed and not valued
        ):
            return False  # "both", "all", "three correctors"; not "in sector eight"
        if word.endswith("s") and normalize(word) != word and normalize(word) in vocabulary:
            return False  # "gaps", "correctors": the family
    return True


def _device_of(database: ChannelDatabase, name: str) -> str:
    record = database.get(name)
    return (record.device if record is not None else None) or name


def _command_asked(finder: Any, text: str, words: str, found: Any) -> Any:
    """ "Open gate valve 9" read (the list does not say its command is writable): the command
    channel the verb names on the device found, not the position flag sharing its word."""
    from osprey_desktop.channels.finder import access_of
    from osprey_desktop.language.write_states import (
        is_command_channel,
        parse_state_request,
    )

    state = parse_state_request(text)
    if state is None or not found.names:
        return found
    if not text.strip().lower().startswith(state[1].lower()):
        return found  # "is valve 4 open?" asks for the state, not the command
    index = {r.name: i for i, r in enumerate(finder.records)}
    devices = {finder.device_key(index[n]) for n in found.names if n in index}
    named = [
        r.name
        for i, r in enumerate(finder.records)
        if finder.device_key(i) in devices
        and access_of(r) == "command"
        and is_command_channel(r.name, state[1])
    ]
    if not named:
        return found
    return type(found)(names=named, query=found.query, ignored_words=found.ignored_words)


def _commands_for_state(text: str, names: list[str]) -> list[str]:
    """ "Open vacuum valve 4" on a valve with CONTROL:OPEN and CONTROL:CLOSE: the command the
    state names, when the list has one (else every channel found, for the state check)."""
    from osprey_desktop.language.write_states import (
        is_command_channel,
        parse_state_request,
    )

    state = parse_state_request(text)
    if state is None:
        return names
    commands = [n for n in names if is_command_channel(n, state[1])]
    return commands or names


def each_written(database: ChannelDatabase, text: str) -> tuple[list[str], str, str] | None:
    """The setpoints of a write that gives several channels their own values ("set the RF
    frequency to 499.655 MHz and the RF voltage to 2.6 MV"), each value's words found on their
    own; None when it gives one value, or when any of them finds nothing sure (the whole
    request is then found, or asked about, as one)."""
    try:
        specs = parse_write_request(text)
    except WriteRequestError:
        return None
    phrases = list(dict.fromkeys(s.target.strip() for s in specs if s.target.strip()))
    if len(specs) < 2 or len(phrases) < 2:
        return None
    names: list[str] = []
    notes: list[str] = []
    for phrase in phrases:
        try:
            found, _, note = find_channels_noted(
                database, phrase, writable=True, max_write_channels=max_channels_per_write()
            )
        except ClarificationRequired:
            return None
        names += [n for n in found if n not in names]
        notes += [note] if note else []
    return names, text, " ".join(notes)


def reading_apart(text: str) -> tuple[str, str]:
    """(a reading said before or after the change, the change) of "first tell me the tune,
    then raise QF01 by 0.5 A" or "set HCM27 to 0.3 A, then show me the orbit in sector 9";
    ("", text) when the request is one change, when one part points back to the other ("then
    set it to 0.4", "and read it back": the whole request names it), or when a condition joins
    them."""
    from osprey_desktop.language.clauses import CONDITIONAL, verb_clauses
    from osprey_desktop.planners.channel_words import parse

    clauses = verb_clauses(text)
    if len(clauses) < 2 or CONDITIONAL.search(text):
        return "", text
    first = parse(clauses[0])
    rest = ", ".join(clauses[1:])
    after = parse(rest)
    if first.changes and not after.changes and after.targets:
        # "set HCM27 to 0.3 A, then show me the orbit in sector 9": read after the change
        if re.search(r"\b(?:it|them|its|their|that|those)\b", rest, re.I):
            return "", text
        return rest, clauses[0]
    if first.changes or not first.targets or not after.changes:
        return "", text
    if re.search(r"\b(?:it|them|its|their|that|those)\b", rest, re.I):
        return "", text
    return clauses[0], rest


def _read_first(database: ChannelDatabase, reading: str, written: list[str]) -> list[str]:
    """The channels ``reading`` (said before the change) names, when they are other devices
    than the ones written ("first tell me the tune, then raise QF01 by 0.5 A"): the plan reads
    them too; [] when the reading is of what is written, or names nothing the list has."""
    try:
        found, _, _ = find_channels_noted(
            database, reading, writable=False, max_write_channels=max_channels_per_write()
        )
    except ClarificationRequired:
        return []
    devices = {_device_of(database, n) for n in written}
    return [n for n in found if _device_of(database, n) not in devices]


def _write_clause(text: str) -> tuple[str, str, bool]:
    """(the words naming a write's targets, the words naming where its value comes from,
    whether those are a condition's).

    "if the HCM20 setpoint is below -1 A, set it to -1 A" is written to "the HCM20 setpoint"
    (its condition's number is no device number), and its condition reads "the HCM20
    setpoint"; "set dipole 4 current to its golden value"
    writes the dipole's setpoint from its golden channel, found as it is (read-only)."""
    from osprey_desktop.capabilities.control_room.write_derivation import parse_derivation

    derivation = parse_derivation(text)
    if derivation is not None and derivation.kind == "condition":
        return derivation.write, derivation.condition.subject if derivation.condition else "", True
    if (
        derivation is not None
        and derivation.kind == "copy"
        and (
            derivation.reference
            or any(w in READBACK_WORDS for w in re.findall(r"[a-z]+", derivation.source.lower()))
        )
    ):
        # "to the same value as HCM35 readback": the source is found as it is said, read-only
        # roles too (a write search finds only setpoints)
        return derivation.target, derivation.source, False
    if (
        derivation is not None
        and derivation.kind == "copy"
        and not (DEVICE_NAME.search(derivation.target) and DEVICE_NAME.search(derivation.source))
        and re.search(r"\d", derivation.target)
        and re.search(r"\d", derivation.source)
    ):
        # "make vertical steerer 14 the same as vertical steerer 15": devices described by
        # their words and numbers, each found on its own (together they read as one device
        # with two numbers); the source is a setting, like the target
        source = derivation.source
        said = re.findall(r"[a-z]+", source.lower())
        named = re.findall(r"[a-z]+", derivation.target.lower())
        number = re.search(r"\d+", source)
        if said and number and set(said) < set(named):
            # "horizontal corrector 8 ... corrector 9": the source is of the target's family
            source = f"{' '.join(w for w in named if w not in _ROLE_WORDS)} {number[0]}"
        if not any(w in _ROLE_WORDS for w in re.findall(r"[a-z]+", source.lower())):
            source = f"{source} setpoint"
        return f"set {derivation.target}", source, False
    if derivation is not None and derivation.mean:
        # "set VCM 26 to the average of VCM 25 and VCM 27 plus 0.05 A": the sources apart,
        # each a setting like the target unless a role is said
        source = derivation.source
        if not any(w in _ROLE_WORDS for w in re.findall(r"[a-z]+", source.lower())):
            parts = [p for p in re.split(r"\s*(?:,|\band\b|&)\s*", source) if p.strip()]
            source = " and ".join(f"{p} setpoint" for p in parts)
        return f"set {derivation.target}", source, False
    if (
        derivation is not None
        and derivation.kind == "copy"
        and (derivation.offset or derivation.factor != 1.0)
    ):
        # "set VCM15 to the same value as VCM14 plus 0.2", "... as ID09 times 0.5": the
        # offset or the scale names no channel
        return f"set {derivation.target} to the same value as {derivation.source}", "", False
    return text, "", False


def max_channels_per_write() -> int:
    """The configured cap on the channels of one write (``approval.max_channels_per_write``)."""
    from osprey_desktop.config import get_config

    return int(get_config().approval.max_channels_per_write)


def _writes(capability: str) -> bool:
    """True when ``capability`` changes the machine (or cannot be looked up: fail closed)."""
    try:
        from osprey_desktop.registry import get_registry

        found = get_registry().get_capability(capability)
    except Exception:  # noqa: BLE001 - an unreadable registry must not make a write a read
        return True
    return bool(getattr(found, "writes", capability == "channel_write"))


def _in_the_value_unit(database: ChannelDatabase, text: str, names: list[str]) -> list[str]:
    """The setpoints a write's value fits: "RF to 2.55 MV" finds the RF frequency, and a
    voltage goes to the RF voltage (the words are looked up again with the word for the
    value's quantity); "RF up by 1 kHz" finds both RF setpoints, and only the frequency is
    counted in a unit the value converts to. One value without a unit for setpoints counted
    in different units ("set the RF to 3") is asked: no write picks the quantity."""
    if not names:
        return names
    units = {n: getattr(database.get(n), "units", "") or "" for n in names}
    typed = {a.unit for a in amounts(text) if a.unit}
    if not typed:
        _ask_for_one_quantity(text, units)
        return names
    unit = next(a.unit for a in amounts(text) if a.unit)

    def fits(name: str) -> bool:
        counted = getattr(database.get(name), "units", "") or ""
        return bool(counted) and converts(unit, counted)

    fitting = [n for n in names if fits(n)]
    if fitting:
        return fitting if len(typed) == 1 else names
    word = quantity_word(unit)
    if not word:
        return names
    try:
        more, _, _ = find_channels_noted(
            database, f"{text} {word}", writable=True, max_write_channels=max_channels_per_write()
        )
    except ClarificationRequired:
        return names
    return [n for n in more if fits(n)] or names


def _ask_for_one_quantity(text: str, units: dict[str, str]) -> None:
    """A single value or step for setpoints of different quantities (a frequency in MHz and
    a voltage in MV, or a percentage of both): which is meant is asked. A state is each
    channel's own."""
    if len(set(units.values()) - {""}) < 2:
        return
    try:
        specs = parse_write_request(text)
    except WriteRequestError:
        return
    if len(specs) != 1 or specs[0].mode == "state":
        return
    listed = ", ".join(f"{name} ({unit})" for name, unit in units.items() if unit)
    raise ClarificationRequired(
        f"The value has no unit, and the setpoints found are of different quantities: "
        f"{listed}. Which one do you mean (or give the value's unit)?",
        list(units)[:5],
    )


__all__ = [
    "ChannelFindingCapability",
    "channel_phrase",
    "channel_vocabulary",
    "reading_apart",
    "find_channels",
    "named_devices",
]
