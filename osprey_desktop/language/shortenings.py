"""Shorthand read by the list's own words: "lt" lifetime, "pres" pressure, "vlt" voltage.

Operators shorten words the way they were taught at their facility, and no shipped vocabulary
holds every shortening. The list itself says what a shortening can stand for: the words it
has. A request word the list lacks is read as

* the start of the list's words ("vac" -> vacuum, "temp" -> temperature), at 3 letters or
  more; else
* the consonants of a list word, in order from its first letter ("lt" -> lifetime, "crnt" ->
  current, "pwr" -> power): only a word without vowels after its first letter is read so,
  since English words have vowels and shorthand drops them.

Words made of two list words run together (``horizcorr``, a name segment) are not meanings of
their own. A shortening that fits more than ``MAX_MEANINGS`` words says nothing and is not
read: the finder then treats it as a word the list lacks, and the request's other words decide.

Used by the channel finder (a request word the list lacks finds the channels of the words it
shortens) and by the request parse (a shortened channel word is a placed word of a target).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from functools import lru_cache

__all__ = ["MAX_MEANINGS", "Shortenings", "shortenings_of"]

#: More words than this for one shortening is a guess, not a reading.
MAX_MEANINGS = 3
#: Longer words are names run together ("chargingcurrentbottomrb"), not words to shorten.
_LONGEST_WORD = 14
_VOWELS = frozenset("aeiouy")


class Shortenings:
    """What a shortening stands for among one list's words (built once per list)."""

    def __init__(self, known: Iterable[str]) -> None:
        plain = {w for w in known if w.isalpha() and 3 <= len(w) <= _LONGEST_WORD}
        self._known = plain
        self._by_letter: dict[str, list[str]] = defaultdict(list)
        for word in sorted(plain):
            if not self._run_together(word):
                self._by_letter[word[0]].append(word)

    def meanings(self, token: str) -> tuple[str, ...]:
        """The list words ``token`` shortens, or () when it shortens none or too many."""
        if not token.isalpha() or not 2 <= len(token) <= 6:
            return ()
        words = self._by_letter.get(token[0], ())
        found: list[str] = []
        if len(token) >= 3:
            found = [w for w in words if len(w) >= len(token) + 2 and w.startswith(token)]
        if not found and not _VOWELS.intersection(token[1:]):
            found = [w for w in words if len(w) > len(token) + 1 and _in_order(token, w)]
        return tuple(found) if len(found) <= MAX_MEANINGS else ()

    def _run_together(self, word: str) -> bool:
        """Whether ``word`` is two list words written as one (``currentmonitor``)."""
        return any(
            word[:cut] in self._known and word[cut:] in self._known
            for cut in range(3, len(word) - 2)
        )


@lru_cache(maxsize=4)
def shortenings_of(words: frozenset[str]) -> Shortenings:
    """The shortenings of one set of words, kept: the parse asks per request word."""
    return Shortenings(words)


def _in_order(token: str, word: str) -> bool:
    """Whether the letters of ``token`` appear in ``word`` in order (``lt`` in lifetime)."""
    letters = iter(word)
    return all(letter in letters for letter in token)
