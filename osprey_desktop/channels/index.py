"""The finder's inverted index, kept per shape group and expanded to channels per request word.

Writing every word of every channel into a posting list costs millions of dictionary writes on
a 100,000-channel list, most of them the same words for channels that differ only by their
numbers. Here a word without numbers points at groups (``channel_shapes.ShapeGroup``) with a
strength; a word with numbers is a ``Template`` of a group, matched against a request's word
by the numbers it spells; channels read one by one (a group whose words do not map to its
slots) keep plain posting lists. ``postings`` turns all three into one sorted array of channel
indices with the strongest strength of each, the same as one posting list per word would give.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from osprey_desktop.channels.shapes import DIGITS, SPLIT_DIGITS, ShapeTable, Template

_NONE = np.zeros(0, dtype=np.int64), np.zeros(0, dtype=float)


class WordIndex:
    """Words -> channels with strength, over the groups of one ``ShapeTable``."""

    def __init__(self, table: ShapeTable) -> None:
        self.table = table
        self._groups: dict[str, list[tuple[int, float]]] = defaultdict(list)
        self._templates: dict[tuple[str, ...], list[tuple[int, float, Template]]] = defaultdict(
            list
        )
        self._single: dict[str, dict[int, float]] = defaultdict(dict)
        self._known: list[str] | None = None

    def add_group_word(self, group: int, word: str, strength: float) -> None:
        """Every member of ``group`` has ``word`` (no word is added twice to one group)."""
        self._groups[word].append((group, strength))

    def add_template(self, group: int, template: Template, strength: float) -> None:
        """Every member of ``group`` has ``template`` filled with its numbers."""
        self._templates[template.literals].append((group, strength, template))

    def add_channel_word(self, index: int, word: str, strength: float) -> None:
        """One channel has ``word``; the strongest strength counts."""
        found = self._single[word]
        if found.get(index, 0.0) < strength:
            found[index] = strength

    def postings(self, word: str) -> tuple[np.ndarray, np.ndarray]:
        """(channel indices ascending, strengths) of the channels that have ``word``."""
        groups = self.table.groups
        indices: list[np.ndarray] = []
        strengths: list[np.ndarray] = []
        for number, strength in self._groups.get(word, ()):
            members = groups[number].members
            indices.append(members)
            strengths.append(np.full(len(members), strength))
        if DIGITS.search(word):
            pieces = SPLIT_DIGITS.split(word)
            runs = pieces[1::2]
            for number, strength, template in self._templates.get(tuple(pieces[0::2]), ()):
                members = groups[number].matching(template, runs)
                if len(members):
                    indices.append(members)
                    strengths.append(np.full(len(members), strength))
        single = self._single.get(word)
        if single:
            indices.append(np.fromiter(single.keys(), dtype=np.int64, count=len(single)))
            strengths.append(np.fromiter(single.values(), dtype=float, count=len(single)))
        if not indices:
            return _NONE
        if len(indices) == 1 and not single:
            return indices[0], strengths[0]
        return strongest(np.concatenate(indices), np.concatenate(strengths))

    def has(self, word: str) -> bool:
        return bool(len(self.postings(word)[0]))

    def forget_known(self) -> None:
        self._known = None

    def known(self) -> list[str]:
        """Every word of the index, sorted (for the nearest spelling of a misspelt word)."""
        if self._known is None:
            words = set(self._groups) | set(self._single)
            groups = self.table.groups
            for entries in self._templates.values():
                for number, _, template in entries:
                    words |= groups[number].distinct_words(template)
            self._known = sorted(words)
        return self._known


def strongest(indices: np.ndarray, strengths: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each index once, ascending, with its strongest strength."""
    order = np.lexsort((-strengths, indices))
    indices, strengths = indices[order], strengths[order]
    first = np.ones(len(indices), dtype=bool)
    first[1:] = indices[1:] != indices[:-1]
    return indices[first], strengths[first]


def common(
    left: tuple[np.ndarray, np.ndarray], right: tuple[np.ndarray, np.ndarray]
) -> tuple[np.ndarray, np.ndarray]:
    """The indices in both, with the weaker of their two strengths."""
    both, at_left, at_right = np.intersect1d(
        left[0], right[0], assume_unique=True, return_indices=True
    )
    return both, np.minimum(left[1][at_left], right[1][at_right])


__all__ = ["WordIndex", "common", "strongest"]
