"""Find the channels a request names, on any facility's list: the group it means, not a top 50.

The steps live apart: ``words`` (the words of names, descriptions and requests; the
vocabulary), ``name_reading`` (what a name says: instance, sector, area, kind, access), this
module (the index of a list and the four moves below, plus the area a request that names none
means, and what the list's name segments mean by its descriptions: ``ChannelFinder.learned``),
``finding`` (one target phrase with an account of every word: the API the request parser
calls), ``aliases`` (what the operator taught) and ``index_cache`` (all of it kept on disk).

Every channel is described by the words of its PV name (segments, camelCase parts, device
letters and numbers), the list's own name for it, its description and synonyms, and the
vocabulary (``resources/channel_vocabulary.yaml`` plus the facility's
``channel_finding.vocabulary``): "HCM" brings "horizontal corrector", a description saying
"beam position monitor" brings "BPM", "steering" finds "corrector".

A request (``channel_query.parse_channel_query``) is answered in four moves:

1. **constraints** keep the channels that can be meant: the instance numbers said ("dipole 5",
   "monitors 1 and 3", "15 through 17"), the sectors ("sectors 4 to 6"), writability for a
   write;
2. **coverage**: each describing word weighs by how rare it is in the list (a word no channel
   has weighs nothing, so an unfamiliar word never blocks a match); the channels covering the
   heaviest set of words are the answer, all of them. Words joined by "and"/"or" ("pressure
   and current") are alternatives: a channel needs one of them. A path ("booster-to-storage",
   ``BoosterToStorageRing``) is one word, not its two ends; a word the list lacks may have a
   form it has ("connection" for CONNECTED);
3. **ordinals** pick instances in each family ("the first three", "the last two", "the
   seventh"): channels that differ only by their instance number are one family;
4. **access**: "setpoint" keeps setpoints, "readback", "right now" or "actual" readbacks; a
   question that names neither, about a device that has both, is answered with the readback
   (what the device does), unless it asks for "all"/"values".
"""

from __future__ import annotations

import difflib
import math
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

import numpy as np

from osprey_desktop.channels.index import WordIndex, common, strongest
from osprey_desktop.channels.name_reading import (
    _ACCESS_KINDS,
    _ACCESS_WORDS,
    _DIGITS,
    _LEVELS,
    _REFERENCE_TOKENS,
    _SECTOR_PREFIX,
    _TITLE_WORDS,
    _UNIT,
    _UNIT_AFTER_NUMBER,
    _WRITTEN_KINDS,
    CONTEXT,
    OWN,
    STRONG,
    _access,
    _area_of,
    _digit_words,
    _field_words,
    _has_digit,
    _instance_number,
    _kind_words,
    _list_names,
    _numbering,
    _own_description,
    _sector,
    _Shape,
    _shape_key,
    _varying_numbering,
)
from osprey_desktop.channels.name_reading import access_of as access_of
from osprey_desktop.channels.names import DEVICE_NAME
from osprey_desktop.channels.query import FILLER, ChannelQuery, parse_channel_query
from osprey_desktop.channels.record_table import record_table
from osprey_desktop.channels.shapes import ShapeGroup, group_results, shape_table
from osprey_desktop.channels.words import (
    Vocabulary,
    _stem,
    load_vocabulary,
    name_words,
    normalize,
    path_word,
    text_words,
)
from osprey_desktop.channels.words import _shipped_vocabulary as _shipped_vocabulary
from osprey_desktop.language.device_prefix_slips import device_prefix_respelled
from osprey_desktop.language.shortenings import Shortenings
from osprey_desktop.language.units import spoken_names

if TYPE_CHECKING:
    from osprey_desktop.channels.records import ChannelRecord


@dataclass(frozen=True)
class FoundChannels:
    """The answer: channel names, and what was read from the request."""

    names: list[str]
    query: ChannelQuery
    ignored_words: list[str]
    #: The area the answer was narrowed to because the request named none (see
    #: ``ChannelFinder.default_area``), else None.
    assumed_area: str | None = None


_NEAR_DEVICE = re.compile(
    r"\b(?:near|around|next\s+to|close\s+to|beside|in\s+the\s+vicinity\s+of)\s+(?:the\s+)?"
    r"([A-Za-z]{1,6}[\s-]?\d{1,3})\b",
    re.I,
)
"""A place given by a device: "the vacuum around ID09" (the device's sector)."""
EXPANDED = 0.6
#: What a name segment means by the descriptions of the other channels named with it
#: (``ChannelFinder.learned``), and how many channels must have the segment to learn it.
LEARNED, LEARN_MIN_CHANNELS = 0.3, 5


class ChannelFinder:
    """An inverted index of channel words over one list (build once per channel database)."""

    def __init__(self, records: Sequence[ChannelRecord], vocabulary: Vocabulary) -> None:
        self.records = record_table(records)
        self.vocabulary = vocabulary
        # multi-word phrases by their first word, so a channel's words find the terms they
        # spell without a pass over the whole vocabulary
        self._phrases_from: dict[str, list[tuple[str, tuple[str, ...]]]] = defaultdict(list)
        for term, phrases in vocabulary.phrases.items():
            for phrase in phrases:
                if len(phrase) > 1:
                    self._phrases_from[phrase[0]].append((term, phrase))
        self._table = shape_table(self.records)
        self._index = WordIndex(self._table)
        count = len(self.records)
        self._instance_array = np.full(count, -1, dtype=np.int64)
        computed_sector = np.full(count, -1, dtype=np.int64)
        self._access_codes = np.zeros(count, dtype=np.int8)
        # per group: its shape, where the device part of a name ends, which number the
        # family key blanks (name positions are the same for every member of a group)
        self._group_shape: list[_Shape] = []
        self._device_end: list[int | None] = []
        self._family_span: list[tuple[int, int] | None] = []
        shapes: dict[tuple[Any, ...], _Shape] = {}
        for number, group in enumerate(self._table.groups):
            # channels that differ only by their numbers (BPM01 … BPM99) share one shape;
            # groups come in the order of their first channel, so a shape is read off the
            # first channel that has it
            first = self.records[group.first]
            numbering = _varying_numbering(group, first.name, _numbering(first.name))
            key = (_shape_key(first), numbering)
            shape = shapes.get(key)
            if shape is None:
                shape = shapes[key] = self._shape(first, numbering)
            self._group_shape.append(shape)
            for word, strength in shape.words.items():
                self._index.add_group_word(number, word, strength)
            self._add_digit_words(number, group)
            members = group.members
            instance, device, family = numbering
            if instance is not None and group.has_slots:
                numbers_of = group.values[:, instance]
            elif instance is not None:  # a group without slots: its numbers are its own
                found = list(_DIGITS.finditer(group.probe.name))[instance]
                numbers_of = np.array([int(found.group())] * len(members), dtype=object)
            else:
                numbers_of = group_results(self._table, group, _instance_number)
            self._instance_array = _put(self._instance_array, members, numbers_of)
            numbers = list(_DIGITS.finditer(first.name))
            self._device_end.append(numbers[device].end() if device is not None else None)
            self._family_span.append(
                (numbers[family].start(), numbers[family].end()) if family is not None else None
            )
            computed_sector = _put(
                computed_sector, members, group_results(self._table, group, _sector)
            )
            self._access_codes[members] = _ACCESS_KINDS.index(shape.access)
        self.learned = self._learn_from_names()
        self._group_of = self._table.group_of.tolist()
        self._stated_sector = self.records.column("sector")
        self._computed_sector = computed_sector
        self._sector_array = computed_sector.copy()
        for index, stated in enumerate(self._stated_sector):
            if stated is not None:
                self._sector_array[index] = stated
        #: The area a request that names none means (config ``channel_finding.default_area``);
        #: None: the area with the most devices.
        self.default_area: str | None = None
        self._cache: dict[str, dict[int, float]] = {}
        self._stems: dict[str, list[str]] | None = None
        self._shortenings: Shortenings | None = None
        self._array_cache: dict[str, tuple[np.ndarray, np.ndarray, int]] = {}

    def _learn_from_names(self) -> dict[str, tuple[str, ...]]:
        """What the list's own name segments mean, read from the descriptions of the channels
        that have them (``XCOR`` -> corrector, ``BDES`` -> desired, field), and given to the
        channels whose names have the segment but whose description does not say it.

        A description word is learned for a segment when at least half of the channels named
        with the segment (``LEARN_MIN_CHANNELS`` or more) say it and at most a third of the
        list does; it counts ``LEARNED`` (less than a channel's own description)."""
        total = len(self.records)
        if total < LEARN_MIN_CHANNELS:
            return {}
        segment_count: dict[str, int] = defaultdict(int)
        word_count: dict[str, int] = defaultdict(int)
        pair_count: dict[tuple[str, str], int] = defaultdict(int)
        for number, group in enumerate(self._table.groups):
            shape = self._group_shape[number]
            size = len(group.members)
            for word in shape.said:
                word_count[word] += size
            for segment in shape.kind_words | shape.field_words:
                segment_count[segment] += size
                for word in shape.said:
                    pair_count[(segment, word)] += size
        learned: dict[str, list[str]] = defaultdict(list)
        for (segment, word), together in pair_count.items():
            if (
                segment != word
                and len(word) > 2
                and word not in FILLER
                and word not in _ACCESS_WORDS
                and segment not in _ACCESS_WORDS
                and segment_count[segment] >= LEARN_MIN_CHANNELS
                and together * 2 >= segment_count[segment]
                and word_count[word] * 3 <= total
            ):
                learned[segment].append(word)
        if not learned:
            return {}
        for number, shape in enumerate(self._group_shape):
            given = {
                word
                for segment in shape.kind_words | shape.field_words
                for word in learned.get(segment, ())
                if word not in shape.words
            }
            for word in sorted(given):
                self._index.add_group_word(number, word, LEARNED)
        return {segment: tuple(sorted(words)) for segment, words in learned.items()}

    def _add_digit_words(self, number: int, group: ShapeGroup) -> None:
        """The words with numbers of a group's channels: templates read off its probe, or,
        when a word does not map to the group's numbers, every channel read on its own."""
        templates = []
        for word, strength in _digit_words(group.probe).items():
            template = group.template(word)
            if template is None:
                for index in group.members.tolist():
                    for own, own_strength in _digit_words(self.records[index]).items():
                        self._index.add_channel_word(index, own, own_strength)
                return
            templates.append((template, strength))
        for template, strength in templates:
            if template.refs:
                self._index.add_template(number, template, strength)
            else:
                self._index.add_group_word(number, template.literals[0], strength)

    @cached_property
    def instance(self) -> list[int | None]:
        """Each channel's instance number (HCM09 -> 9), None when its name has none."""
        return [None if n < 0 else n for n in self._instance_array.tolist()]

    @cached_property
    def sector(self) -> list[int | None]:
        """Each channel's sector: the list's, else the one its name starts with."""
        computed = self._computed_sector.tolist()
        return [
            stated if stated is not None else (None if found < 0 else found)
            for stated, found in zip(self._stated_sector, computed, strict=True)
        ]

    def device_key(self, index: int) -> str:
        """The name up to the device's number: one device's channels share it."""
        name = self.records.name(index)
        end = self._device_end[self._group_of[index]]
        return name if end is None else name[:end]

    def family_key(self, index: int) -> str:
        """The name with its instance number blanked: siblings share it."""
        name = self.records.name(index)
        span = self._family_span[self._group_of[index]]
        return name if span is None else name[: span[0]] + "#" + name[span[1] :]

    def access(self, index: int) -> str:
        return _ACCESS_KINDS[self._access_codes[index]]

    def shape_of(self, index: int) -> _Shape:
        return self._group_shape[self._group_of[index]]

    def _shape(
        self,
        record: ChannelRecord,
        numbering: tuple[int | None, int | None, int | None] | None = None,
    ) -> _Shape:
        """What ``record`` shares with every channel named like it but for its numbers;
        ``numbering`` (default: read off its name alone) says where its device part ends."""
        numbering = numbering or _numbering(record.name)
        device = numbering[1]
        runs = list(_DIGITS.finditer(record.name))
        end = runs[device].end() if device is not None and device < len(runs) else None
        return _Shape(
            words={w: v for w, v in self._describe(record).items() if not _has_digit(w)},
            kind_words=_kind_words(record, end),
            field_words=frozenset(w for w in _field_words(record, end) if not _has_digit(w)),
            said=frozenset(w for w in text_words(_own_description(record)) if not _has_digit(w)),
            access=_access(record),
            numbering=numbering,
        )

    def _describe(self, record: ChannelRecord) -> dict[str, float]:
        """Every word of a channel with how strongly the channel has it."""
        whole, parts = name_words(record.name)
        for alias in _list_names(record):
            more_whole, more_parts = name_words(alias)
            whole += more_whole
            parts += more_parts
        named = whole + [
            w for t in (*record.synonyms, record.family, record.device or "") for w in text_words(t)
        ]
        # a family is a name too ("BPMx": bpm, x)
        named += name_words(record.family)[0]
        levels = [p for p in record.description.split(_LEVELS) if p.strip()]
        own_text = levels[-1] if levels else ""
        # a level's title ("Beam Position Monitors: ...") or a level that is only a title
        # ("Focusing Quadrupoles") names the group the channel is in; its unit does not
        # ("Gamma Dose Rate (mrem/hour)" heads the 1-minute average too)
        titles = [
            _UNIT.sub(" ", p.split(":", 1)[0] if ":" in p else p)
            for p in levels[:-1]
            if ":" in p or len(p.split()) <= _TITLE_WORDS
        ]
        context_text = " ".join(levels[:-1])
        out: dict[str, float] = {}

        def add(words: Iterable[str], strength: float) -> None:
            words = list(words)
            for word in words:
                if out.get(word, 0.0) < strength:
                    out[word] = strength
            for word in words:  # "1hr" also as a quantity word
                match = _UNIT_AFTER_NUMBER.match(word)
                if match:
                    key = f"{int(match.group(1))}{match.group(2)}"
                    out[key] = max(out.get(key, 0.0), strength)
            # what a word abbreviates counts half: "RF" is about frequency, but a channel
            # named FREQUENCY is more so
            implied = strength * EXPANDED
            present = set(words)
            for word in present:
                for phrase in self.vocabulary.phrases.get(word, ()):
                    for w in phrase:
                        if out.get(w, 0.0) < implied:
                            out[w] = implied
            for word in present:
                for term, phrase in self._phrases_from.get(word, ()):
                    if out.get(term, 0.0) < strength and all(w in present for w in phrase):
                        out[term] = strength

        add(text_words(context_text), CONTEXT)
        # the unit said as a word ("how many milliamps"): what the channel is measured in
        add(text_words(" ".join(spoken_names(record.units or ""))), CONTEXT)
        add([w for t in titles for w in text_words(t)], OWN)
        add(text_words(own_text), OWN)
        add(parts, STRONG)
        add(named, STRONG)
        return out

    # -- matching ------------------------------------------------------------------------

    def matches(self, word: str) -> dict[int, float]:
        """Channels a request word finds, with strength: the word itself, or every word of
        one of its phrases (for "steering": "corrector"); a misspelt word its nearest."""
        cached = self._cache.get(word)
        if cached is None:
            indices, strengths, _ = self._arrays(word)
            cached = dict(zip(indices.tolist(), strengths.tolist(), strict=True))
            self._cache[word] = cached
        return cached

    def _found(self, word: str) -> tuple[np.ndarray, np.ndarray]:
        """``matches`` as arrays (indices ascending, strengths)."""
        postings = self._index.postings
        indices, strengths = postings(word)
        for phrase in self.vocabulary.phrases.get(word, ()):
            lists = [postings(w) for w in phrase]
            if all(len(found[0]) for found in lists):
                both = lists[0]
                for other in lists[1:]:
                    both = common(both, other)
                indices, strengths = strongest(
                    np.concatenate([indices, both[0]]), np.concatenate([strengths, both[1]])
                )
        if not len(indices) and word in _REFERENCE_TOKENS:
            # "reference": the stored reference values (GOLDEN), by what their names say
            indices = np.flatnonzero(self._access_codes == _ACCESS_KINDS.index("reference"))
            strengths = np.full(len(indices), STRONG)
        if not len(indices) and not word.isdigit():
            # another form of a known word ("focusing" for FOCUS), else a near spelling
            stems = [word[: -len(end)] for end in ("ing", "ed", "er", "al") if word.endswith(end)]
            known = [stem for stem in stems if len(stem) >= 3 and self._index.has(stem)]
            kin = self._same_stem().get(_stem(word), ())
            if known:
                indices, strengths = postings(known[0])
            elif kin:  # "connection" for CONNECTED: a word of the list with the same stem
                found = [postings(w) for w in kin]
                indices, strengths = strongest(
                    np.concatenate([f[0] for f in found]), np.concatenate([f[1] for f in found])
                )
            elif len(word) >= 5:
                near = difflib.get_close_matches(word, self._index.known(), n=1, cutoff=0.85)
                if near:
                    indices, strengths = postings(near[0])
        if not len(indices) and not word.isdigit():
            # the list's own words shortened: "lt" lifetime, "pres" pressure
            meanings = self._shortened().meanings(word)
            if meanings:
                found = [postings(w) for w in meanings]
                indices, strengths = strongest(
                    np.concatenate([f[0] for f in found]), np.concatenate([f[1] for f in found])
                )
        return indices, strengths

    def _shortened(self) -> Shortenings:
        """The shortenings of the list's words (built on the first word the list lacks)."""
        if self._shortenings is None:
            self._shortenings = Shortenings(self._index.known())
        return self._shortenings

    def forget_words(self) -> None:
        """Drop what requests' words found (for measuring a word's first use)."""
        self._cache.clear()
        self._array_cache.clear()
        self._index.forget_known()
        self._stems = None
        self._shortenings = None

    def _same_stem(self) -> dict[str, list[str]]:
        """The list's words by their stem (built on the first word the list lacks)."""
        if self._stems is None:
            table: dict[str, list[str]] = defaultdict(list)
            for known in self._index.known():
                if known.isalpha():
                    table[_stem(known)].append(known)
            self._stems = dict(table)
        return self._stems

    def find(self, text: str, *, writable: bool | None = None) -> FoundChannels:
        text = self.prefix_slips_respelled(text)  # "vmc 7", "HMC21": VCM7, HCM21
        near = _NEAR_DEVICE.search(text)
        if near is not None:
            placed = self._near_device(text, near, writable)
            if placed is not None:
                return placed
        query = parse_channel_query(text, self._index.has)
        mask = self._pool(query, writable)
        words = self._with_terms(list(dict.fromkeys(normalize(w) for w in query.words)))
        for start, end in query.paths:
            # "booster to storage": the path the list names, not its two ends
            path = path_word(start, end)
            if self._index.has(path):
                ends = {normalize(start), normalize(end)}
                words = [w for w in words if w not in ends and w != path] + [path]
        arrays = {w: self._arrays(w) for w in words}
        ignored = [w for w in words if not len(arrays[w][0])]
        total = len(self.records) or 1
        weights = {
            w: math.log((total + 1) / ((sure or len(indices)) + 1)) + 0.05
            for w, (indices, _, sure) in arrays.items()
            if len(indices)
        }
        scores = np.zeros(len(self.records))
        groups = _alternatives(query.alternatives, weights)
        for word, weight in weights.items():
            if not any(word in group for group in groups):
                indices, strengths, _ = arrays[word]
                scores[indices] += weight * strengths
        # "pressure and current", "ready or fault": a channel is one or the other, and either
        # is asked as much as the other however rare each word is in the list
        for group in groups:
            heavier = max(weights[w] for w in group)
            either = np.zeros(len(self.records))
            for word in group:
                indices, strengths, _ = arrays[word]
                either[indices] = np.maximum(either[indices], heavier * strengths)
            scores += either
        weighted = bool(weights)
        scores[~mask] = 0.0
        best = float(scores.max()) if len(scores) else 0.0
        if best <= 0.0:
            if weighted or not (query.numbers or query.sectors) or not mask.any():
                return FoundChannels([], query, ignored)
            chosen = set(np.flatnonzero(mask).tolist())
        else:
            chosen = set(np.flatnonzero(scores >= best - 1e-9).tolist())
            chosen = self._most_specific(chosen, words, everything=query.everything)
        if writable:
            # a write goes to setpoints; a group with none is returned as it is, so the
            # caller can say it is read-only instead of writing to something else
            chosen = {i for i in chosen if self.records[i].writable} or chosen
        chosen, assumed = self._in_one_area(chosen, query)
        chosen = self._select_access(chosen, query, writable, words)
        if not query.everything:
            chosen = self._plainest_fields(chosen, words)
        chosen = self._select_ordinal(chosen, query)
        names = [self.records.name(i) for i in sorted(chosen)]
        return FoundChannels(names, query, ignored, assumed)

    @cached_property
    def device_prefixes(self) -> frozenset[str]:
        """The letters the list's device names start with ("hcm" of HCM09), read as
        ``ChannelDatabase.device_prefixes`` reads them: a name segment or a device of letters
        and a number."""
        prefixes: set[str] = set()
        for group in self._table.groups:
            probe = group.probe
            for piece in [*probe.name.split(":"), probe.device or ""]:
                match = DEVICE_NAME.fullmatch(piece)
                if match:
                    prefixes.add(match.group(1).lower())
        return frozenset(prefixes)

    def prefix_slips_respelled(self, text: str) -> str:
        """``text`` with a device prefix typed with two neighbouring letters swapped ("vmc 7",
        "HMC21") written as the list's, when exactly one of its prefixes is that swap away and
        the typed letters are no word of the list (``language.spelling``)."""
        return device_prefix_respelled(text, self.device_prefixes, self._is_list_word)

    def _is_list_word(self, word: str) -> bool:
        return word in self.vocabulary.phrases or self._index.has(normalize(word))

    def place_in_sectors(
        self, mapping: Mapping[int, Sequence[str]], named: Callable[[str], list[str]]
    ) -> int:
        """Put the channels of the devices ``mapping`` lists in those sectors (a facility's
        word for what its names do not say); ``named(device)`` gives a device's channels.
        Returns how many channels were placed."""
        index = {name: i for i, name in enumerate(self.records.names)}
        placed = 0
        for sector, devices in mapping.items():
            for device in devices:
                for name in named(str(device)):
                    if name in index:
                        self._sector_array[index[name]] = int(sector)
                        placed += 1
        return placed

    def warm(self) -> None:
        """Build now what requests would build on first use (kept with the index)."""
        _ = self.instance, self.sector, self._devices_by_area, self.beam_position

    def _near_device(
        self, text: str, near: re.Match[str], writable: bool | None
    ) -> FoundChannels | None:
        """ "the vacuum around ID09", "BPMs near QF21": what the other words name, in the
        sector of the device named after "around" or "near"; None when that device has no
        one sector or the other words name nothing else than the device itself."""
        device = self.find(near.group(1))
        if not device.names:
            return None
        position = self._position_of_name
        sectors = {self.sector[position[name]] for name in device.names}
        if len(sectors) != 1 or None in sectors:
            return None
        rest = f"{text[: near.start()]} {text[near.end() :]}".strip()
        if not re.search(r"[A-Za-z]{3,}", rest):
            return None
        found = self.find(f"{rest} in sector {sectors.pop()}", writable=writable)
        if not found.names or set(found.names) & set(device.names):
            return None
        return found

    @cached_property
    def _position_of_name(self) -> dict[str, int]:
        return {name: index for index, name in enumerate(self.records.names)}

    def warm_words(self) -> None:
        """Build the tables of the list's words (their spellings, stems and shortenings) now:
        a first request with a word the list lacks built them in its turn (90-120 ms for the
        built-in ring, in a worker that held the window's GIL meanwhile)."""
        self._same_stem()
        self._shortened()

    @cached_property
    def area(self) -> list[str]:
        """Each channel's area: the letters its PV name starts with (SR of ``SR01C:…`` and
        ``SR:MAG:…``, BTS of ``BTS:…``); "" when the name starts with a number."""
        return [_area_of(name) for name in self.records.names]

    @property
    def main_area(self) -> str | None:
        """The area a request that names none means: ``default_area`` when the list has it,
        else the area with the most devices (None on a list of one area)."""
        devices = self._devices_by_area
        if len(devices) < 2:
            return None
        if self.default_area:
            wanted = self.default_area.lower()
            named = next((a for a in devices if a.lower() == wanted), None)
            if named is not None:
                return named
        return max(devices, key=lambda a: (devices[a], a))

    @cached_property
    def _devices_by_area(self) -> dict[str, int]:
        devices: dict[str, set[str]] = defaultdict(set)
        for index, area in enumerate(self.area):
            devices[area].add(self.device_key(index))
        return {area: len(found) for area, found in devices.items()}

    def _in_one_area(self, chosen: set[int], query: ChannelQuery) -> tuple[set[int], str | None]:
        """``chosen`` in the main area when it spans several and the request named none (no
        word of it told the areas apart, no "X or Y"); else as it is."""
        if len(chosen) < 2 or query.alternatives or query.sectors:
            return chosen, None
        areas = {self.area[i] for i in chosen}
        main = self.main_area
        if len(areas) < 2 or main is None or main not in areas:
            return chosen, None
        return {i for i in chosen if self.area[i] == main}, main

    def _pool(self, query: ChannelQuery, writable: bool | None) -> np.ndarray:
        """The channels the request's constraints leave: its sectors and instance numbers,
        and for "readbacks" no setpoints (for "setpoints" no readbacks)."""
        mask = np.ones(len(self.records), dtype=bool)
        if query.sectors:
            mask &= np.isin(self._sector_array, sorted(query.sectors))
        if query.numbers:
            mask &= np.isin(self._instance_array, sorted(query.numbers))
        if query.role and not writable:
            ruled_out = _WRITTEN_KINDS if query.role == "readback" else {"readback"}
            codes = [_ACCESS_KINDS.index(kind) for kind in ruled_out]
            kept = mask & ~np.isin(self._access_codes, codes)
            if kept.any():
                mask = kept
        return mask

    def word_matches(self, word: str) -> tuple[np.ndarray, np.ndarray, int]:
        """The channels a (normalized) word finds: (indices, strengths, how many have it as
        their own word rather than by context)."""
        return self._arrays(word)

    def _arrays(self, word: str) -> tuple[np.ndarray, np.ndarray, int]:
        """A word's matches as arrays (indices, strengths) and how many are sure (own words)."""
        cached = self._array_cache.get(word)
        if cached is None:
            indices, strengths = self._found(word)
            cached = (indices, strengths, int(np.count_nonzero(strengths >= OWN)))
            self._array_cache[word] = cached
        return cached

    def _with_terms(self, words: list[str]) -> list[str]:
        """``words`` plus the terms its word sequences spell ("vacuum level" -> pressure)."""
        found = list(words)
        for size in (3, 2):
            for start in range(len(words) - size + 1):
                piece = tuple(words[start : start + size])
                for term, phrases in self.vocabulary.phrases.items():
                    if piece in phrases and term not in found:
                        found.append(term)
        return found

    def _select_access(
        self, chosen: set[int], query: ChannelQuery, writable: bool | None, words: list[str]
    ) -> set[int]:
        if writable or query.both_roles:
            return chosen
        if query.role:
            kept = {i for i in chosen if self.access(i) == query.role}
            return kept or chosen
        if query.everything:
            return chosen
        asked = self._asked(words)
        quantities = {w for w in asked if not any(c.isdigit() for c in w)}
        # what a description says with numbers ("5", "1hr") is never a quantity word here, so
        # the shape's own words (numbers left out) answer
        shapes = {self.shape_of(i) for i in chosen}
        if not any((s.field_words | s.said) & (quantities - s.kind_words) for s in shapes):
            return chosen  # "read HCM01": the device, every way it is read and set
        # a quantity asked, neither setpoint nor readback said: where a device has both,
        # what it reads says what it does
        kinds = defaultdict(set)
        for i in chosen:
            kinds[self.device_key(i)].add(self.access(i))
        return {
            i
            for i in chosen
            if self.access(i) not in _WRITTEN_KINDS or kinds[self.device_key(i)] <= _WRITTEN_KINDS
        }

    def _most_specific(
        self, chosen: set[int], words: list[str], *, everything: bool = False
    ) -> set[int]:
        """Of kinds of device that fit equally, those whose names say least that was not
        asked: "focusing quad 10" is QF10, not the achromat QFA10 that also focuses. Only the
        device part of a name counts (``SR:MAG:QFA``), never its fields: "all PVs of dipole 1"
        keeps every field."""
        asked = self._asked(words)
        chosen = self._named_by_quantity(chosen, asked)
        extra_of: dict[_Shape, int] = {}
        extra = {}
        for i in chosen:
            shape = self.shape_of(i)
            if shape not in extra_of:
                own = asked
                if everything:
                    # "all RF readbacks": a word the kind's name says itself is not also its
                    # meaning, so the RF voltage is as much an RF channel as the RF frequency
                    # ("radio frequency"); "the RF" alone is still its frequency
                    own = self._asked([w for w in words if w not in shape.kind_words])
                    own.update(words)
                extra_of[shape] = self._unasked(shape.kind_words, own)
            extra[i] = extra_of[shape]
        fewest = min(extra.values())
        return {i for i in chosen if extra[i] == fewest}

    def _named_by_quantity(self, chosen: set[int], asked: set[str]) -> set[int]:
        """Of kinds of device that fit equally, those that the asked quantity names: "the
        storage ring current" is the current transformer's (DCCT: "DC current transformer"),
        not every magnet's current. A kind is named so when a word of its name means (by the
        vocabulary, or by what the list's descriptions say of it) a phrase with the asked
        word that is also the channel's field. Channels without that field stay."""
        verdict: dict[_Shape, bool | None] = {}  # None: the asked quantity is not its field
        for i in chosen:
            shape = self.shape_of(i)
            if shape not in verdict:
                quantity = asked & shape.field_words
                verdict[shape] = (
                    any(
                        quantity & set(meaning)
                        for kind in shape.kind_words
                        for meaning in (
                            *self.vocabulary.phrases.get(kind, ()),
                            self.learned.get(kind, ()),
                        )
                    )
                    if quantity
                    else None
                )
        if True not in verdict.values():
            return chosen
        return {i for i in chosen if verdict[self.shape_of(i)] is not False}

    def _plainest_fields(self, chosen: set[int], words: list[str]) -> set[int]:
        """Per device, the channels whose own fields add least that was not asked: "BPM 1
        positions" is X and Y, not also the X:Error beside them."""
        asked = self._asked(words)
        by_device: dict[str, list[int]] = defaultdict(list)
        for i in chosen:
            by_device[self.device_key(i)].append(i)
        kept: set[int] = set()
        for members in by_device.values():
            extra = {i: self._unasked(self.shape_of(i).field_words, asked) for i in members}
            fewest = min(extra.values())
            kept |= {i for i in members if extra[i] == fewest}
        return kept

    def _asked(self, words: list[str]) -> set[str]:
        asked = set(words)
        for word in words:
            for phrase in self.vocabulary.phrases.get(word, ()):
                asked.update(phrase)
        return asked

    def _unasked(self, own: frozenset[str], asked: set[str]) -> int:
        """How many of ``own`` the request did not say, itself or in full by one of its
        phrases: "BTS" (booster-to-storage transfer line) is not asked by "booster"."""
        return sum(
            1
            for w in own - asked
            if not w.isdigit()
            and not any(
                set(p) & asked and all(x in asked or x in FILLER for x in p)
                for p in self.vocabulary.phrases.get(w, ())
            )
        )

    def _select_ordinal(self, chosen: set[int], query: ChannelQuery) -> set[int]:
        """ "The first three", "the last two", "the 3rd" of each kind of channel chosen, counted
        along the beam path (``beam_order``): its devices in order, all channels of the
        devices picked."""
        if query.ordinal is None:
            return chosen
        kind, count = query.ordinal
        families: dict[str, list[int]] = defaultdict(list)
        instance = self._instance_array
        for i in chosen:
            if instance[i] >= 0:
                key = self.family_key(i)
                if not query.sectors:  # "the first three" of the machine, not of each sector
                    key = _SECTOR_PREFIX.sub(lambda m: (m.group(1) or "") + "#", key, count=1)
                    key = _DIGITS.sub("#", key)  # numbered per segment: LI21:BPM2, LI22:BPM2
                families[key].append(i)
        if not families:
            return chosen
        kept: set[int] = set()
        for members in families.values():
            devices: dict[str, list[int]] = defaultdict(list)
            for i in members:
                devices[self.device_key(i)].append(i)
            numbered = len({self._numbered_place(m) for m in devices.values()}) == len(devices)
            order = sorted(devices, key=lambda d: self._beam_place(devices[d], numbered))
            if kind == "first":
                wanted = order[:count]
            elif kind == "last":
                wanted = order[-count:]
            elif kind == "middle":
                # "the middle corrector of sector 6": the one in the middle of an odd count
                wanted = [order[len(order) // 2]] if len(order) % 2 == 1 else order
            else:
                wanted = [order[count - 1]] if 0 < count <= len(order) else []
            kept |= {i for device in wanted for i in devices[device]}
        return kept

    def _beam_place(self, members: list[int], numbered: bool) -> tuple[float, ...]:
        """Where a device sits along the beam path: its s position when the list gives one;
        else by its sector and instance number when those tell the devices of its kind apart
        (a list sorted by name: BPM2 before BPM10); else where the list first names it (a
        list goes along the machine: ``LI21:BPM02`` before ``LI22:BPM01``)."""
        first = min(members)
        position = float(self.beam_position[first])
        if position == position:  # not NaN: the list gives s
            return (0.0, position, float(first))
        if numbered:
            return (1.0, *self._numbered_place(members), float(first))
        return (2.0, float(first))

    def _numbered_place(self, members: list[int]) -> tuple[float, float]:
        first = min(members)
        return float(self._sector_array[first]), float(self._instance_array[first])

    @cached_property
    def beam_position(self) -> np.ndarray:
        """Each channel's s along the beam path (NaN where the list does not give it)."""
        column = self.records.column("position")
        return np.array([np.nan if p is None else p for p in column], dtype=float)


def _alternatives(pairs: Iterable[tuple[str, str]], known: Mapping[str, float]) -> list[set[str]]:
    """The request's words joined by "and"/"or" ("ready and fault"), as groups of the words the
    list has; pairs that share a word are one group ("X, Y or Z")."""
    groups: list[set[str]] = []
    for pair in pairs:
        words = {normalize(w) for w in pair} & set(known)
        if len(words) < 2:
            continue
        touching = [g for g in groups if g & words]
        for group in touching:
            words |= group
            groups.remove(group)
        groups.append(words)
    return groups


def _put(array: np.ndarray, at: np.ndarray, values: np.ndarray) -> np.ndarray:
    """``array[at] = values``; an array of Python ints when a number outgrows int64 (a
    36-digit serial number in a name)."""
    try:
        array[at] = values
    except OverflowError:
        array = array.astype(object)
        array[at] = values
    return array


__all__ = [
    "CONTEXT",
    "EXPANDED",
    "LEARNED",
    "OWN",
    "STRONG",
    "ChannelFinder",
    "FoundChannels",
    "Vocabulary",
    "access_of",
    "load_vocabulary",
    "name_words",
    "normalize",
    "text_words",
]
