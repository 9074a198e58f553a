"""Step one of finding channels: the words of names, descriptions and requests.

``name_words`` reads a PV or list name (segments, camelCase parts, an acronym and its plane
letter: ``BPMx`` -> bpm, x; ``DipoleMagnet05SetPoint`` -> dipole, magnet, 5, setpoint);
``text_words`` reads a description or a request ("booster-to-storage" is one path word);
``normalize`` makes plurals singular and numbers unpadded; ``Vocabulary`` holds what terms
stand for (``resources/channel_vocabulary.yaml`` plus a facility's
``channel_finding.vocabulary``): "HCM" is "horizontal corrector", "steering" finds
"corrector".
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

_SPLIT = re.compile(r"[^A-Za-z0-9]+")
_CAMEL = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")
_ALNUM = re.compile(r"[a-z]+|\d+")
_ACRONYM_AND_LETTER = re.compile(r"([A-Z]{2,})([a-z])")


@lru_cache(maxsize=1 << 16)
def normalize(word: str) -> str:
    """Lower case, digit groups without leading zeros, plurals singular ("gauges" -> "gauge")."""
    word = word.lower()
    if word.isdigit():
        return str(int(word))
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


_ACCESS_PAIRS = {("set", "point"): "setpoint", ("read", "back"): "readback"}


def name_words(text: str) -> tuple[list[str], list[str]]:
    """(words, composites) of a PV or list name.

    ``SR:MAG:HCM[H07]:CURRENT:SP`` -> words ``sr mag hcm h 7 current sp``, composites ``h7``;
    ``DipoleMagnet05SetPoint`` -> words ``dipole magnet 5 setpoint`` (camelCase, "Set Point"
    read as one word), composite ``dipolemagnet5setpoint``. Both are searchable; the words
    are what a name says.
    """
    words: list[str] = []
    composites: list[str] = []
    for segment in _SPLIT.split(text):
        if segment:
            own, composite = _segment_words(segment)
            words.extend(own)
            if composite:
                composites.append(composite)
    return words, composites


@lru_cache(maxsize=1 << 16)
def _segment_words(segment: str) -> tuple[tuple[str, ...], str | None]:
    """(words, composite or None) of one name segment; segments repeat across a list."""
    lowered = segment.lower()
    composite = normalize(re.sub(r"\d+", lambda m: str(int(m.group())), lowered))
    plane = _ACRONYM_AND_LETTER.fullmatch(segment)
    # "BPMx": the monitors' x plane, not "BP" and "Mx"
    found = plane.groups() if plane else _CAMEL.findall(segment)
    pieces = [normalize(c) for c in found]
    if len(pieces) <= 1:
        return (composite,), None
    merged: list[str] = []
    for piece in pieces:
        joined = _ACCESS_PAIRS.get((merged[-1], piece)) if merged else None
        if joined:
            merged[-1] = joined
        else:
            merged.append(piece)
    return _joined_paths(merged), composite


def path_word(start: str, end: str) -> str:
    """The one word of a path's name: "booster-to-storage" -> ``boostertostorage``."""
    return f"{normalize(start)}to{normalize(end)}"


def _joined_paths(words: list[str]) -> tuple[str, ...]:
    """``words`` with each path they spell as one word (``BoosterToStorageRing``: booster,
    to, storage -> ``boostertostorage``, ring): a transfer line from the booster is not the
    booster, so its ends are not its words."""
    out: list[str] = []
    index = 0
    while index < len(words):
        ends = words[index : index + 3 : 2]
        if index + 2 < len(words) and words[index + 1] == "to" and all(map(str.isalpha, ends)):
            out.append(path_word(*ends))
            index += 3
        else:
            out.append(words[index])
            index += 1
    return tuple(out)


def text_words(text: str) -> list[str]:
    return list(_text_words(text))


@lru_cache(maxsize=1 << 14)
def _text_words(text: str) -> tuple[str, ...]:
    # "booster-to-storage transfer line": the path is one word (see ``_joined_paths``)
    lowered = _HYPHENED_PATH.sub(lambda m: path_word(*m.groups()), text.lower())
    return tuple(normalize(w) for w in re.findall(r"[a-z0-9]+", lowered))


_HYPHENED_PATH = re.compile(r"\b([a-z]+)-to-([a-z]+)\b")


@dataclass(frozen=True)
class Vocabulary:
    """term -> phrases it stands for (each a tuple of words); synonyms go both ways."""

    phrases: Mapping[str, tuple[tuple[str, ...], ...]]

    @classmethod
    def from_mappings(cls, *mappings: Mapping[str, Any]) -> Vocabulary:
        table: dict[str, list[tuple[str, ...]]] = defaultdict(list)
        for mapping in mappings:
            abbreviations = mapping.get("abbreviations", mapping)
            for term, phrases in (abbreviations or {}).items():
                if term in ("abbreviations", "synonyms"):
                    continue
                for phrase in _phrases(phrases):
                    table[normalize(str(term))].append(phrase)
            for term, phrases in (mapping.get("synonyms") or {}).items():
                key = normalize(str(term))
                for phrase in _phrases(phrases):
                    table[key].append(phrase)
                    if len(phrase) == 1:
                        table[phrase[0]].append((key,))
        return cls({k: tuple(dict.fromkeys(v)) for k, v in table.items()})


def _phrases(value: Any) -> list[tuple[str, ...]]:
    items = value if isinstance(value, list | tuple) else [value]
    return [tuple(text_words(str(item))) for item in items if text_words(str(item))]


def load_vocabulary(extra: Mapping[str, Any] | None = None) -> Vocabulary:
    """The shipped vocabulary plus a facility's additions (config ``channel_finding``)."""
    return Vocabulary.from_mappings(_shipped_vocabulary(), extra or {})


@lru_cache(maxsize=1)
def _shipped_vocabulary() -> dict[str, Any]:
    from osprey_desktop.config.paths import resources_dir

    path = Path(resources_dir()) / "channel_vocabulary.yaml"
    return yaml.safe_load(path.read_text(encoding="utf-8")) or {}


_SUFFIXES = ("ations", "ation", "ions", "ion", "ings", "ing", "ers", "er", "ed", "ity", "al", "ly")


@lru_cache(maxsize=1 << 16)
def _stem(word: str) -> str:
    """A word without its ending: "connection", "connected" -> ``connect``."""
    for end in _SUFFIXES:
        if word.endswith(end) and len(word) - len(end) >= 4:
            return word[: -len(end)]
    return word


__all__ = ["Vocabulary", "load_vocabulary", "name_words", "normalize", "path_word", "text_words"]
