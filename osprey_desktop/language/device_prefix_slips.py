"""A device prefix typed with two neighbouring letters swapped ("vmc 7", "HMC21"), read as
the facility's own prefix when exactly one of its prefixes is that swap away.

The prefixes are the list's (``Vocabulary.device_prefixes``, or the finder's own reading of
its names); the letters are never respelled when they are a prefix, a word of the grammar or
of the list, or a unit, nor when two prefixes are equally close. Used by the parse
(``spelling.slips_respelled``) and by the channel finder.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from osprey_desktop.language.lexicon import (
    CHANGE,
    DETERMINERS,
    GRAMMAR_WORDS,
    PLOT_VERBS,
    POLITE,
    QUESTION_LEADS,
    READ_VERBS,
)
from osprey_desktop.language.numbers import read_number
from osprey_desktop.language.units import lookup_unit
from osprey_desktop.language.words import STOP_WORDS, typed_case

__all__ = [
    "device_prefix_respelled",
    "neighbours_swapped",
    "other_conventions_said_ours",
    "short_words",
]

_KNOWN = CHANGE | READ_VERBS | PLOT_VERBS | QUESTION_LEADS | STOP_WORDS | POLITE | DETERMINERS

#: Letters, then a device number: together ("HMC21") or apart ("vmc 7", "hmc-21", "vmc #7").
_LETTERS_NUMBERED = re.compile(
    r"\b(?P<letters>[A-Za-z]{2,5})(?P<gap>\s*[-#_]\s*|\s+)?(?P<number>\d{1,3})\b(?![.,]\d)"
)


def device_prefix_respelled(
    text: str,
    prefixes: frozenset[str],
    is_list_word: Callable[[str], bool] = frozenset().__contains__,
) -> str:
    """``text`` with the letters of a numbered device typed with two neighbouring letters
    swapped written as the facility's prefix ("set vmc 7" -> "set vcm 7", "HMC21" ->
    "HCM21", "DQ04" -> "QD04" where ``prefixes`` has "vcm", "hcm" and "qd"): only when a
    device number follows (no unit after it; two letters only with the number joined to
    them), the letters are no prefix, no word of the grammar, of the list (``is_list_word``)
    or a unit, and exactly one prefix is that one swap away."""
    if not prefixes:
        return text

    def respell(found: re.Match[str]) -> str:
        typed, word = found.group("letters"), found.group("letters").lower()
        if word in prefixes or is_list_word(word) or word in GRAMMAR_WORDS or word in _KNOWN:
            return found.group(0)
        if lookup_unit(word) or read_number(word) is not None:
            return found.group(0)
        plane_last = typed.isupper() and bool(_plane_first(word, prefixes))
        if (
            found.group("gap")
            and not plane_last
            and (len(word) < 3 or _unit_after(text[found.end() :]))
        ):
            # "fr 8 to 10", "ca 3": two letters apart from a number are often a word or a
            # shorthand; "hcm 5 mA": an amount, not a device number
            return found.group(0)
        close = [p for p in prefixes if neighbours_swapped(word, p)]
        if not close:
            close = _plane_first(word, prefixes)
        if len(close) != 1:
            return found.group(0)
        return typed_case(close[0], typed) + found.group(0)[len(typed) :]

    return _LETTERS_NUMBERED.sub(respell, text)


#: "Q3F": one letter, the number, one letter; "bpm3x", "BPM12y": a plane glued to the number
_AROUND_THE_NUMBER = re.compile(r"\b(?P<first>[A-Za-z])(?P<number>\d{1,3})(?P<last>[A-Za-z])\b")
_PLANE_GLUED = re.compile(r"\b(?P<device>[A-Za-z]{2,5}\d{1,3})(?P<plane>[xyXY])\b")


def other_conventions_said_ours(text: str, prefixes: frozenset[str]) -> str:
    """``text`` with a device written in another facility's convention said in the list's:
    "Q3F" -> "QF3" (the family's letters around the number), "bpm3x" -> "bpm3 x" (the plane
    glued to the number), "steerer 12V" -> "vertical steerer 12" (a corrector's plane after
    its number). Letters are respelled only where they make exactly a prefix of the list."""
    if not prefixes:
        return text

    def around(found: re.Match[str]) -> str:
        letters = f"{found['first']}{found['last']}"
        if letters.lower() not in prefixes:
            return found.group(0)
        return f"{letters}{found['number']}"

    def glued(found: re.Match[str]) -> str:
        family = re.match(r"[A-Za-z]+", found["device"])
        if family is None or family.group(0).lower() not in prefixes:
            return found.group(0)
        return f"{found['device']} {found['plane']}"

    text = _STEERER_PLANE_LAST.sub(
        lambda m: f"{_PLANES[m['plane'].lower()]} {m['family']} {m['number']}", text
    )
    return _PLANE_GLUED.sub(glued, _AROUND_THE_NUMBER.sub(around, text))


#: "steerer 12V", "corrector 5H": a corrector's plane written after its number
_STEERER_PLANE_LAST = re.compile(
    r"\b(?P<family>steerer|steering\s+magnet|corrector|corr)\s+(?P<number>\d{1,3})(?P<plane>[hvHV])\b"
)
_PLANES = {"h": "horizontal", "v": "vertical"}


def _plane_first(word: str, prefixes: frozenset[str]) -> list[str]:
    """The prefixes a two-letter name says plane last ("CH", "CV") where the list says it
    plane first ("HCM", "VCM")."""
    if len(word) != 2:
        return []
    return [p for p in prefixes if len(p) == 3 and p.startswith(word[::-1])]


def _unit_after(rest: str) -> bool:
    unit = re.match(r"\s*([a-zµ%]+)", rest, re.I)
    word = unit.group(1) if unit else ""
    return bool(word) and word.lower() not in ("a", "x", "y") and bool(lookup_unit(word))


def neighbours_swapped(word: str, other: str) -> bool:
    """``word`` is ``other`` with two neighbouring letters swapped ("vmc" for "vcm")."""
    if len(word) != len(other) or word == other:
        return False
    differ = [i for i in range(len(word)) if word[i] != other[i]]
    return (
        len(differ) == 2
        and differ[1] == differ[0] + 1
        and word[differ[0]] == other[differ[1]]
        and word[differ[1]] == other[differ[0]]
    )


@lru_cache(maxsize=4)
def short_words(facility_words: frozenset[str]) -> frozenset[str]:
    """The list's words a device prefix can be (two to five letters), less the grammar's."""
    return frozenset(
        w for w in facility_words if 2 <= len(w) <= 5 and w.isalpha() and w not in GRAMMAR_WORDS
    )
