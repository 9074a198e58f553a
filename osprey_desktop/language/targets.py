"""The targets of a request: the phrases naming channels, one per item of a list.

A list is split at commas, "and", "as well as", "plus", "along with". Items lean on each other:

* a modifier alone takes the next item's head ("horizontal and vertical tune": two tunes);
* a modifier or an adverb after a comma qualifies the item before it ("BPM 40, horizontally");
* role words after the last of a run of device names belong to every device of the run ("QF 1
  and QD 2 setpoints", "VCM 3, 4 and 5 readbacks");
* "read back X" asks for X's readback.

Words of the other slots are no channel's words and leave the phrase: a statistic ("average",
"min and max of"), a comparative of a comparison ("better now than"), the words of a relation
to the archive ("back the way it was"), and a noun that is also a verb when the channel list
does not use it ("the sector 2 corrector trims").
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING, Protocol

from osprey_desktop.language.lexicon import (
    DETERMINERS,
    MODIFIERS,
    NOUN_VERB_STEMS,
    ROLE_WORDS,
    STATISTIC_WORDS,
)
from osprey_desktop.language.references import without_reference_words
from osprey_desktop.language.words import STOP_WORDS, stem

if TYPE_CHECKING:
    from osprey_desktop.language.references import Reference


class ParsedRequest(Protocol):
    """What ``as_measured`` reads of a parse (``language.request.Request``; named here as a
    protocol so this module, which the parse imports, does not import it back)."""

    @property
    def text(self) -> str: ...

    @property
    def intent(self) -> str: ...

    @property
    def targets(self) -> tuple[str, ...]: ...

    @property
    def changes(self) -> bool: ...


#: Intents that read the machine: their targets are measured values unless they say otherwise.
MEASURED_INTENTS = frozenset({"read", "history", "plot", "statistic", "compare"})

__all__ = ["LEFT_OUT", "as_measured", "split_targets", "with_roles", "without_slot_words"]

_ITEM_SPLIT = re.compile(
    r"\s*(?:,|;|\band\b|\bas\s+well\s+as\b|\bplus\b|&|\balong\s+with\b|(?<=\w)\s+\+\s+(?=[a-z])"
    # "cur+lt+E": items joined by a plus between words (never "+0.1", a signed amount)
    r"|(?<=[a-z])\+(?=[a-z])"
    # "plot QF 3. Also the lifetime.": a sentence that adds an item
    r"|(?<=\w)[.!]\s+(?:also|then|too|plus)\b)\s*",
    re.I,
)
_DEVICE_AND_NUMBER = re.compile(
    r"^(?P<device>.*?[A-Za-z][\w-]*?)(?P<gap>\s*)\d+[A-Za-z]?$"  # "VCM 3" or "VCM3"
)
_BARE_NUMBER = re.compile(r"^(?P<number>\d+[A-Za-z]?)(?P<rest>(?:\s+\S+)*)$")


def _numbers_share_their_device(parts: list[str]) -> list[str]:
    """ "VCM 3, 4 and 5 readbacks": a bare number after "<device> <number>" is that device's,
    and role words after the last number ("readbacks") belong to every number of the run."""
    out = list(parts)
    run: list[int] = []
    for i, part in enumerate(out):
        bare = _BARE_NUMBER.match(part)
        if bare and run:
            device = _DEVICE_AND_NUMBER.match(out[run[0]])
            if device:
                number = bare.group("number")
                out[i] = f"{device.group('device')}{device.group('gap') or ''}{number}"
                out[i] += bare.group("rest")
                run.append(i)
                roles = bare.group("rest").split()
                if roles and all(w.lower() in ROLE_WORDS for w in roles):
                    for j in run[:-1]:
                        out[j] = f"{out[j]} {' '.join(roles)}"
                continue
        run = [i] if _DEVICE_AND_NUMBER.match(part) else []
    return out


# longest first, whole words: "maximum" is one statistic, never "max" and "imum"
_STATISTIC = "|".join(
    sorted(STATISTIC_WORDS | {"standard deviation", r"std\.?\s*dev"}, key=len, reverse=True)
)
# "the min and max of", "average", "the standard deviation of": a statistic and its "of"
_STATISTICS = re.compile(
    rf"\b(?:the\s+)?(?:{_STATISTIC})\b(?:\s*(?:,|and|&|or|/)\s*(?:the\s+)?(?:{_STATISTIC})\b)*"
    r"(?:\s+(?:of|for|in|on)\b)?",
    re.I,
)
# "is the lifetime better now than at 8": the comparison's words, not the channel's
_COMPARATIVE = re.compile(
    r"\bdifferent\s+(?:from|to)\b|\b(?:the\s+)?same\s+(?:now\s+)?as\b|"
    r"\b(?:any|at\s+all)(?=\s+(?:different|higher|lower|better|worse|more|less|bigger|smaller)\b)|"
    r"\b(?:better|worse|higher|lower|greater|bigger|smaller|larger|more|less|different|"
    r"changed|up|down)\b(?:\s+than\b)?|\bthan\b|\bcompared\s+(?:to|with)\b"
    # "now vs 1 hour ago", "where it was 3 hours ago", "and what is it now"
    r"|\b(?:vs\.?|versus|against)(?!\w)|\bwhere\s+(?:it|they)\s+(?:was|were)\b"
    r"|\b(?:and\s+)?what\s+(?:is|'s)\s+(?:it|they)(?:\s+now)?\b|\b(?:it|they)\s+(?:was|were)\b",
    re.I,
)


# "an increase in lifetime", "the drop of the beam current": a change as a noun, asked of history
_CHANGE_NOUN = re.compile(
    r"\b(?:the\s+|an?\s+|any\s+)?(?:increase|decrease|drop|rise|fall|change|jump|step|shift|"
    r"drift|loss|gain)s?\s+(?:in|of)\b",
    re.I,
)


def without_slot_words(phrase: str, intent: str, reference: Reference | None) -> str:
    """``phrase`` without the words another slot of the request holds."""
    if intent in ("statistic", "history", "plot", "compare"):
        phrase = _STATISTICS.sub(" ", phrase)
        phrase = _CHANGE_NOUN.sub(" ", phrase)
    if intent == "compare":
        phrase = _COMPARATIVE.sub(" ", phrase)
    if reference is not None and reference.kind == "archive":
        phrase = without_reference_words(phrase)
    # "give me the mean and the min": who it is given to names no channel
    phrase = re.sub(r"^\W*(?:me|us)\b", " ", phrase, flags=re.I)
    # "no, since yesterday", "no, 08:00 yesterday, not today": a correction's "no" names nothing
    phrase = re.sub(r"^\W*(?:no|nope|not|yes|yeah|ok(?:ay)?)\W*$", " ", phrase, flags=re.I)
    return " ".join(phrase.split()).strip(" ,.?!")


def _is_qualifier(word: str) -> bool:
    word = word.lower()
    return word in MODIFIERS or word in ROLE_WORDS or (word[-2:] == "ly" and word[:-2] in MODIFIERS)


def _as_adjective(word: str) -> str:
    """ "horizontally" -> "horizontal": the form a channel's description uses."""
    return word[:-2] if word.lower().endswith("ly") and word[:-2].lower() in MODIFIERS else word


_DEVICE = re.compile(r"^[A-Za-z]{1,5}\d{1,3}$")


_PLURAL_ROLES = frozenset({"readbacks", "setpoints"})


_ARTICLE = re.compile(r"^(?:the|a|an)\s+", re.I)


def _roles_over_a_run(parts: list[str]) -> list[str]:
    """ "QF1 and QD2 setpoints", "BPM2 and BPM3 vertical": role words and qualifiers after the
    last device of a run of device names belong to every device of the run; so do the words of
    a field for devices of the same family ("ID 2 and ID 4 gap readbacks"). A run ends where a
    part is more than a device's name, wherever the list goes on after it ("HCM 5 and HCM 6
    readbacks, plus the sector 2 temperature")."""
    out = list(parts)
    last = out[-1].split() if out else []
    if len(out) == 2 and last and last[-1].lower() in _PLURAL_ROLES:
        # "RF cavity voltage and master oscillator frequency readbacks": a plural role after
        # the last of two described items is the role of both
        first = out[0].split()
        if not any(w.lower() in ROLE_WORDS for w in first) and not _DEVICE.match(out[0].strip()):
            out[0] = f"{out[0].strip()} {last[-1]}"
    for at in range(1, len(out)):
        words = out[at].split()
        if len(words) < 2 or not _DEVICE.match(words[0]) or len(words) > 4:
            continue
        rest = words[1:]
        if any(re.search(r"\d", w) for w in rest):
            continue
        # roles belong to any device ("HCM36 and VCM36 setpoints"); a plane or a field only
        # to the devices of its family ("IG 5 and BPM 3 x": the gauge has no plane)
        qualifiers = all(
            w.lower().rstrip("s") in ROLE_WORDS or w.lower() in ROLE_WORDS for w in rest
        )
        family = re.match(r"[A-Za-z]+", words[0]).group(0).lower()  # type: ignore[union-attr]
        before = at - 1
        # "the ID 4 and ID 5 gap readbacks": an article before the first name is no word of it
        while before >= 0 and _DEVICE.match(bare := _ARTICLE.sub("", out[before].strip())):
            same = bare.lower().startswith(family)
            if not (qualifiers or same):
                break
            out[before] = f"{out[before].strip()} {' '.join(rest)}"
            before -= 1
    return out


# "the current the lifetime the energy": an article that starts a noun phrase right after a
# noun (no preposition before it) starts another item, as dictation says a list
_ARTICLE_AFTER_A_NOUN = re.compile(
    r"(?<=[a-z0-9])\s+(?=the\s+(?!(?:way|same|value|values|setting|one|ones|reading|moment|time|"
    r"last|next|first|other|rest|previous|present)\b)[a-z])",
    re.I,
)
#: words after which an article starts no new item ("read back the ...", "near the ..."), with
#: the stop words ("the gap of the ID05", "give me the current")
_PREPOSITIONS = frozenset(
    {"near", "behind", "after", "before", "onto", "under", "back", "down", "off", "than"}
)


#: a clause about the noun before ("the corrector the day shift complained about"): a verb in
#: the past or a preposition that ends it
_RELATIVE_CLAUSE = re.compile(r"\b[a-z]{3,}ed\b|\b(?:about|with|for|on|at|to|from|of)\s*$", re.I)


def _said_without_commas(parts: list[str]) -> list[str]:
    """ "the current the lifetime the energy": items said without commas, each with its
    article; a clause about the noun before it stays with that noun."""
    out: list[str] = []
    for part in parts:
        if _RELATIVE_CLAUSE.search(part):
            out.append(part)
            continue
        pieces, start = [], 0
        for found in _ARTICLE_AFTER_A_NOUN.finditer(part):
            before = part[start : found.start()].split()
            last = before[-1].lower() if before else ""
            if last and last not in _PREPOSITIONS | DETERMINERS | STOP_WORDS:
                pieces.append(part[start : found.start()])
                start = found.end()
        pieces.append(part[start:])
        out += [p.strip() for p in pieces if p.strip()]
    return out


_THE_ITEMS_NAMED = frozenset({"both", "all", "each", "them", "these", "those", "of", "the"})


#: What leaves channels out of those named before it: "all the gauges except sector 5", "every
#: corrector but HCM 3", "the BPMs other than the vertical ones", "gauges not in sector 2".
#: ``left`` is what is left out (the channel finder finds it and takes it away).
LEFT_OUT = re.compile(
    r"\b(?:except(?:\s+for)?|excluding|apart\s+from|other\s+than|aside\s+from|save\s+for|"
    r"but\s+not|but(?=\s+(?:the|those|ones|sector|sectors|cell|in)\b)|"
    r"not(?=\s+(?:in|from)\s+(?:the\s+)?(?:sector|sectors|cell|arc)\b))\s+"
    r"(?:(?:the\s+)?ones?\s+|those\s+|the\s+)?(?P<left>[^,.;?!]+)",
    re.I,
)


def split_targets(phrase: str) -> list[str]:
    """The items of a list of channel phrases; a modifier alone takes the next item's head,
    a qualifier after a comma the item before it; what is left out ("except HCM 3 and VCM 2")
    is no item, but said with each item before it."""
    left_out = LEFT_OUT.search(phrase)
    if left_out is not None:
        tail = phrase[left_out.start() :].strip()
        items = split_targets(phrase[: left_out.start()].strip(" ,"))
        return [f"{item} {tail}" for item in items] or [phrase.strip()]
    parts = [p.strip(" ,.?!") for p in _ITEM_SPLIT.split(phrase) if p and p.strip(" ,.?!")]
    parts = _said_without_commas(parts)
    parts = _roles_over_a_run(_numbers_share_their_device(parts))
    out: list[str] = []
    for i, part in enumerate(parts):
        words = [w for w in part.split() if w.lower() not in DETERMINERS]
        if (
            len(words) == 1
            and words[0].lower() in MODIFIERS
            and i + 1 < len(parts)
            and len(parts[i + 1].split()) >= 2
        ):
            head = " ".join(parts[i + 1].split()[1:])
            if not re.search(r"\d", part) and not re.search(r"\d", parts[i + 1].split()[0]):
                part = f"{part} {head}"  # "horizontal and vertical tune"
        kept = [w for w in part.split() if w.lower() not in DETERMINERS]
        if out and kept and all(w.lower() in ROLE_WORDS for w in kept):
            device = [w for w in out[-1].split() if w.lower() not in ROLE_WORDS]
            part = " ".join([*device, *kept])  # "HCM33 readback and setpoint"
        elif out and kept and i == len(parts) - 1 and all(_is_qualifier(w) for w in kept):
            out[-1] = " ".join([out[-1], *map(_as_adjective, kept)])  # "BPM 40, horizontally"
            continue
        out.append(part)
    # "..., both I need", "..., all of them": a word for the items already named, no item
    named = [p for p in out if not set(p.lower().split()) <= _THE_ITEMS_NAMED]
    return named or out


@lru_cache(maxsize=4)
def _stems(words: frozenset[str]) -> frozenset[str]:
    return frozenset(stem(w) for w in words)


_READ_BACK = re.compile(r"\bread[\s-]*back\s+(?!values?\b)", re.I)


def with_roles(targets: tuple[str, ...], lowered: str, channel_words: frozenset[str]) -> tuple:
    """The targets with the roles the verb names ("read back X": X's readback) and without a
    noun that is also a verb the channel list does not use ("corrector trims")."""
    out = []
    read_back = bool(_READ_BACK.search(lowered))
    for target in targets:
        words = target.split()
        if channel_words:
            known = _stems(channel_words)
            words = [
                w
                for w in words
                if stem(w.lower()) not in NOUN_VERB_STEMS
                or stem(w.lower()) in known
                or len(words) == 1
            ]
        if read_back and words and words[0].lower() == "back":
            words = words[1:]  # "read back the HCM6 current": the particle of the verb
        if read_back and not any(w.lower() in ROLE_WORDS for w in words):
            words.append("readback")
        out.append(" ".join(words))
    return tuple(t for t in out if t)


_ASKS_THE_READING = re.compile(
    r"\b(?:reading|reads|right\s+now|currently|at\s+the\s+moment|sits?|sitting|drawing|draws|"
    r"pulling|"
    r"(?:is|are)\s+(?:it|they|\S+(?:\s+and\s+\S+)?)\s+at\s*[?.!]*$)",
    re.I,
)
_ASKS_THE_SETTING = re.compile(r"\bset\s+(?:to|at)\b|\bset\s*[?.!]*$|\bsetting", re.I)


def _has_role(words: str) -> bool:
    return any(w.lower() in ROLE_WORDS for w in re.findall(r"[A-Za-z]+", words))


_CHANGE_ASKED = re.compile(
    r"\b(?:changed|touched|modified|adjusted|tweaked|altered|touch|change)\b", re.I
)
_WHO_OR_WHETHER = re.compile(
    r"\b(?:did|was|were|has|have|had|anyone|anybody|someone|somebody|who)\b", re.I
)


def as_measured(
    request: ParsedRequest,
    device_prefixes: frozenset[str],
    channel_words: frozenset[str] = frozenset(),
) -> tuple[str, ...]:
    """The targets of a request that changes nothing, as the finder should read them: a
    quantity asked for by its words alone ("the RF voltage", "cavity voltage") is read as
    measured, its readback. A question about the setting ("what is the RF frequency set to?",
    "was the ID 7 gap changed today?") reads the setpoint, where there is one. A device ("VCM
    14", "QF"), several ("the correctors"), a place ("in sector 8") or a role already named keep
    every channel they name; so does a target with a word the channel list lacks, which the
    finder names as not found in the operator's own words."""
    targets = request.targets
    if request.changes or request.intent not in MEASURED_INTENTS:
        return targets
    said = request.text
    role_said = any(_has_role(t) for t in (said, *targets))
    if _ASKS_THE_SETTING.search(said):
        return targets if role_said else tuple(f"{t} setpoint" for t in targets)
    if _CHANGE_ASKED.search(said) and _WHO_OR_WHETHER.search(said) and not role_said:
        # "what is the RF frequency set to?", "was the ID 7 gap changed today?", "did anyone
        # touch VCM 7?": the setting, what someone sets (a channel without one keeps its own);
        # a role said anywhere ("... moved? gap readback please") is the one asked
        return tuple(f"{t} setpoint" for t in targets)
    reading = request.intent == "read" and bool(_ASKS_THE_READING.search(request.text))
    out = []
    for target in targets:
        lowered = [w.lower() for w in re.findall(r"[A-Za-z]+|\d+", target)]
        named = [w for w in lowered if w not in DETERMINERS]
        if reading and not any(w in ROLE_WORDS for w in lowered) and re.search(r"\d", target):
            # "what's HCM07 reading?", "where does QF13 sit?": what the device does now
            out.append(f"{target} readback")
            continue
        if (
            len(named) < 2  # "current" alone is also every magnet's current
            or any(w.isdigit() or w in device_prefixes or w in ROLE_WORDS for w in lowered)
            or re.search(r"[^s]s$", lowered[-1])
            or re.search(r"\d", target)
            or (channel_words and any(w not in channel_words for w in named))
        ):
            out.append(target)
            continue
        out.append(f"{target} readback")
    return tuple(out)
