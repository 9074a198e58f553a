"""Channels grouped by shape give every channel the words and names it gives on its own."""

from __future__ import annotations

from collections import defaultdict

import pytest

from osprey_desktop.channels import finder as channel_finder
from osprey_desktop.channels.database import ChannelDatabase, ChannelRecord
from osprey_desktop.channels.finder import ChannelFinder, load_vocabulary
from osprey_desktop.channels.names import DEVICE_NAME, in_order, name_key, named_pieces
from osprey_desktop.channels.shapes import ShapeTable


def tricky() -> list[ChannelRecord]:
    """Names where a number's width, leading zeros or neighbours change how it reads."""
    out = []
    for n in (1, 5, 9, 10, 12, 99, 100, 0):
        out += [
            ChannelRecord(name=f"SR:BPM:{n:04d}:POSITION:X", description=f"beam position {n}"),
            ChannelRecord(name=f"SR{n:02d}C:BPM{n}:X", description=f"bpm{n:02d} in sector {n}"),
            ChannelRecord(name=f"BR:IP{n}A:PRESSURE", description=f"ion pump {n}A average 1hr"),
            ChannelRecord(name=f"LN:AVG_{n}HR:CURRENT", description=f"{n}hr average", sector=3),
            ChannelRecord(name=f"TL:Q{n:02d}s:{n}ms", synonyms=(f"Quad{n:02d}Set",)),
            ChannelRecord(name=f"SR:BPM:{n:04d}:SUM", device=f"BPM{n:04d}", family="BPM"),
            ChannelRecord(name=f"RF:CAV{n}:FREQ{n * 7}", description=f"cavity {n} | level {n}"),
        ]
    out += [
        ChannelRecord(name="DIAG:DCCT:CURRENT", description="stored beam current"),
        ChannelRecord(name="DIAG:DCCT:LIFETIME", description="beam lifetime"),
        ChannelRecord(name="X:" + "1" * 25, description="a number too long for a slot"),
        ChannelRecord(name="X:" + "2" * 25, description="a number too long for a slot"),
        ChannelRecord(name="Y:TEMP°C:5", description="température 5 °C"),
        ChannelRecord(name="Y:TEMP°C:6", description="température 6 °C"),
    ]
    return out


def test_a_groups_templates_give_each_channel_its_own_digit_words() -> None:
    records = tricky()
    table = ShapeTable(records)
    assert len(table.groups) < len(records)  # numbers alone do not make a shape
    for group in table.groups:
        templates = [
            (group.template(word), strength)
            for word, strength in channel_finder._digit_words(group.probe).items()
        ]
        for row, index in enumerate(group.members.tolist()):
            filled: dict[str, float] = {}
            for template, strength in templates:
                assert template is not None
                values = [int(group.values[row, slot]) for slot, _ in template.refs]
                word = template.fill(values)
                filled[word] = max(filled.get(word, 0.0), strength)
            assert filled == channel_finder._digit_words(records[index]), records[index].name


def test_the_finders_words_are_each_channels_own() -> None:
    records = tricky()
    finder = ChannelFinder(records, load_vocabulary())
    expected: dict[str, dict[int, float]] = defaultdict(dict)
    for index, record in enumerate(records):
        shape = finder._shape(record)
        for word, strength in shape.words.items():
            expected[word][index] = strength
        for segment in shape.kind_words | shape.field_words:  # what the list's names mean
            for word in finder.learned.get(segment, ()):
                if word not in shape.words:
                    expected[word][index] = channel_finder.LEARNED
        for word, strength in channel_finder._digit_words(record).items():
            if expected[word].get(index, 0.0) < strength:
                expected[word][index] = strength
    for word, postings in expected.items():
        indices, strengths = finder._index.postings(word)
        assert dict(zip(indices.tolist(), strengths.tolist(), strict=True)) == postings, word
    assert finder._index.known() == sorted(expected)
    instance = dict(zip((r.name for r in records), finder.instance, strict=True))
    assert instance["SR:BPM:0005:POSITION:X"] == 5
    assert instance["SR12C:BPM12:X"] == 12
    assert instance["DIAG:DCCT:CURRENT"] is None
    assert instance["X:" + "1" * 25] == int("1" * 25)


@pytest.mark.parametrize("index", range(0, 61, 3))
def test_instance_sector_and_keys_are_read_per_channel(index: int) -> None:
    records = tricky()
    finder = ChannelFinder(records, load_vocabulary())
    record = records[index]
    sector = record.sector if record.sector is not None else channel_finder._sector(record)
    assert finder.sector[index] == sector
    assert finder.family_key(index).count("#") <= 1
    assert finder.device_key(index) == record.name[: len(finder.device_key(index))]


def test_names_are_found_as_a_channel_by_channel_index_finds_them() -> None:
    records = tricky()
    database = ChannelDatabase(records)
    named: dict[str, list[str]] = defaultdict(list)
    for record in records:
        for key in named_pieces(record):
            named[key].append(record.name)
    for key, names in named.items():
        assert database.channels_named(key) == names, key
    assert database.channels_named("bpm00010") == database.channels_named("BPM10")
    assert database.channels_named("bpm7") == []
    for typed in ("SR:0005", "sr05c:bpm5", "SR:SUM", "rf:freq63", "TL:10ms"):
        pieces = [name_key(p) for p in typed.split(":")]
        expected = [
            r.name for r in records if in_order(pieces, [name_key(p) for p in r.name.split(":")])
        ]
        assert database.channels_named(typed) == expected, typed
        assert expected, typed


def test_devices_keep_their_first_spelling_in_list_order() -> None:
    records = tricky()
    database = ChannelDatabase(records)
    families: dict[str, dict[str, str]] = {}
    for record in records:
        for piece in [*record.name.split(":"), record.device or ""]:
            match = DEVICE_NAME.fullmatch(piece)
            if match:
                family = families.setdefault(match.group(1).lower(), {})
                family.setdefault(name_key(piece), piece)
    assert database.device_prefixes() == frozenset(families)
    for letters, family in families.items():
        expected = sorted(family.values(), key=lambda d: (int(DEVICE_NAME.fullmatch(d)[2]), d))
        assert database.devices_like(f"{letters}777") == expected, letters
    assert database.devices_like("IP77A") == [f"IP{n}A" for n in (0, 1, 5, 9, 10, 12, 99, 100)]
