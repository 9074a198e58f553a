"""The channel finder on small made-up lists: the group a request names, by general rules."""

from __future__ import annotations

import pytest

from osprey_desktop.channels.database import ChannelRecord
from osprey_desktop.channels.finder import ChannelFinder, load_vocabulary
from osprey_desktop.channels.query import parse_channel_query


def record(name: str, description: str = "", **fields) -> ChannelRecord:
    role = fields.pop("role", "monitor")
    return ChannelRecord(
        name=name,
        description=description,
        role=role,
        writable=role == "setpoint",
        **fields,
    )


def magnets() -> list[ChannelRecord]:
    """A machine with dipoles, two kinds of focusing quadrupole, correctors, BPMs, RF."""
    out = []
    for n in range(1, 9):
        for suffix, role, words in (("SP", "setpoint", "setpoint"), ("RB", "readback", "readback")):
            out.append(record(f"M:DIP{n:02d}:I:{suffix}", f"dipole {n} current {words}", role=role))
            out.append(
                record(
                    f"M:QF{n:02d}:I:{suffix}",
                    f"focusing quad {n} current {words}",
                    role=role,
                    synonyms=(f"QuadFocus_{n:02d}_Current",),
                )
            )
            out.append(
                record(
                    f"M:QFA{n:02d}:I:{suffix}",
                    f"achromat focusing quad {n} current {words}",
                    role=role,
                    synonyms=(f"QuadFocusAchromat_{n:02d}_Current",),
                )
            )
        out.append(record(f"M:DIP{n:02d}:I:GOLDEN", f"dipole {n} golden current"))
        out.append(record(f"M:DIP{n:02d}:STATUS:READY", f"dipole {n} ready"))
    for sector in (1, 2, 3):
        for n in (1, 2, 3):
            for plane, word in (("X", "horizontal"), ("Y", "vertical")):
                out.append(record(f"S{sector:02d}C:BPM{n}:{plane}", f"beam position {word}"))
    out.append(record("RF:CAV1:PFWD", "cavity 1 forward power"))
    out.append(record("RF:CAV1:PREV", "cavity 1 reflected power"))
    out.append(record("RF:CAV2:PFWD", "cavity 2 forward power"))
    out.append(record("RF:CAV2:PREV", "cavity 2 reflected power"))
    out.append(record("DIAG:DCCT:I", "stored beam current"))
    return out


@pytest.fixture(scope="module")
def finder() -> ChannelFinder:
    return ChannelFinder(magnets(), load_vocabulary())


def found(finder: ChannelFinder, text: str, **kwargs) -> list[str]:
    return finder.find(text, **kwargs).names


def test_ordinals_pick_instances_of_the_family(finder):
    assert found(finder, "the first three dipole current setpoints") == [
        "M:DIP01:I:SP",
        "M:DIP02:I:SP",
        "M:DIP03:I:SP",
    ]
    assert found(finder, "last two dipole readbacks") == ["M:DIP07:I:RB", "M:DIP08:I:RB"]
    assert found(finder, "the seventh dipole setpoint") == ["M:DIP07:I:SP"]


def test_ranges_and_lists_of_instances(finder):
    assert found(finder, "focusing quad 2 through 4 readbacks") == [
        "M:QF02:I:RB",
        "M:QF03:I:RB",
        "M:QF04:I:RB",
    ]
    assert found(finder, "dipoles 1 and 5 setpoint") == ["M:DIP01:I:SP", "M:DIP05:I:SP"]


def test_sectors_and_devices_per_sector(finder):
    assert found(finder, "horizontal beam positions in sectors 2 to 3, first two devices") == [
        "S02C:BPM1:X",
        "S02C:BPM2:X",
        "S03C:BPM1:X",
        "S03C:BPM2:X",
    ]


def test_a_quantity_asked_without_setpoint_or_readback_is_read_back(finder):
    assert found(finder, "what is the dipole 4 current right now") == ["M:DIP04:I:RB"]
    assert found(finder, "dipole 4 current") == ["M:DIP04:I:RB"]
    assert found(finder, "dipole 4 current setting") == ["M:DIP04:I:SP"]
    assert set(found(finder, "dipole 4 current setpoint and readback")) == {
        "M:DIP04:I:RB",
        "M:DIP04:I:SP",
    }


def test_all_values_of_a_device_are_every_channel(finder):
    assert set(found(finder, "all values of dipole 2")) == {
        "M:DIP02:I:SP",
        "M:DIP02:I:RB",
        "M:DIP02:I:GOLDEN",
        "M:DIP02:STATUS:READY",
    }


def test_the_plainer_kind_wins_a_tie(finder):
    """ "focusing quad 3" is QF03; the achromat quad also focuses but says more."""
    assert found(finder, "focusing quad 3 current readback") == ["M:QF03:I:RB"]
    assert found(finder, "achromat focusing quad 3 current readback") == ["M:QFA03:I:RB"]


def test_vocabulary_reads_everyday_words(finder):
    assert found(finder, "reflected power in both cavities") == ["RF:CAV1:PREV", "RF:CAV2:PREV"]
    assert found(finder, "the beam current") == ["DIAG:DCCT:I"]


def test_an_unfamiliar_word_does_not_block_a_match(finder):
    result = finder.find("the stored beam current, nicely")
    assert result.names == ["DIAG:DCCT:I"] and result.ignored_words == ["nicely"]


def test_a_write_keeps_setpoints(finder):
    assert found(finder, "dipole 3 current", writable=True) == ["M:DIP03:I:SP"]


def test_a_facility_extends_the_vocabulary():
    records = [record("KLY:1:PWR", "klystron one power"), record("MOD:1:HV", "modulator voltage")]
    plain = ChannelFinder(records, load_vocabulary())
    assert plain.find("thyratron unit voltage").names == ["MOD:1:HV"]
    extended = ChannelFinder(records, load_vocabulary({"synonyms": {"thyratron": ["modulator"]}}))
    assert plain.find("thyratron").names == []
    assert extended.find("thyratron").names == ["MOD:1:HV"]


@pytest.mark.parametrize(
    ("text", "numbers", "sectors", "ordinal", "role"),
    [
        ("monitors 1 and 3", {1, 3}, set(), None, None),
        ("quads 15 through 17", {15, 16, 17}, set(), None, None),
        ("devices 1-2 in sector 4", {1, 2}, {4}, None, None),
        ("sectors four to six", set(), {4, 5, 6}, None, None),
        ("the first four BPMs", set(), set(), ("first", 4), None),
        ("the last BPM", set(), set(), ("last", 1), None),
        ("the 3rd corrector setpoint", set(), set(), ("nth", 3), "setpoint"),
        ("what does it read right now", set(), set(), None, "readback"),
        ("one-minute average dose rate at monitor 2", {2}, set(), None, None),
        # a role said only to be ruled out; the setting asked now is still the setting
        ("the gap of ID 11, the readback not the setpoint", {11}, set(), None, "readback"),
        ("gap 11 setpoint, not the readback", {11}, set(), None, "setpoint"),
        ("what is gap 5 set to right now", {5}, set(), None, "setpoint"),
    ],
)
def test_the_query_parts_are_read(text, numbers, sectors, ordinal, role):
    query = parse_channel_query(text)
    assert (query.numbers, query.sectors, query.ordinal, query.role) == (
        numbers,
        sectors,
        ordinal,
        role,
    )


def test_a_quantity_number_stays_a_word():
    assert "1min" in parse_channel_query("one-minute average dose rate").words
    assert parse_channel_query("one-minute average dose rate").numbers == set()


def test_a_path_is_not_the_place_it_starts_from():
    """ "gun-to-linac line" is a transfer line: "gun BPM 1" is the gun's, the path is asked
    for by its name, hyphenated or not."""
    records = [
        record("GUN:BPM01:X", "electron gun | beam position monitor 1 | horizontal"),
        record("GTL:BPM01:X", "gun-to-linac line | beam position monitor 1 | horizontal"),
        record("LI:BPM01:X", "linac | beam position monitor 1 | horizontal"),
        record("GunToLinac_BPM_02_X", "transport line monitor 2 horizontal"),
    ]
    paths = ChannelFinder(records, load_vocabulary())
    assert paths.find("gun BPM 1 horizontal").names == ["GUN:BPM01:X"]
    assert paths.find("gun-to-linac BPM 1 horizontal").names == ["GTL:BPM01:X"]
    assert paths.find("gun to linac line BPM 2").names == ["GunToLinac_BPM_02_X"]
    assert paths.find("linac BPM 1 horizontal").names == ["LI:BPM01:X"]


def test_a_name_is_asked_only_by_all_the_words_it_stands_for():
    """ "Lifetime" stands for "beam lifetime": "beam" alone does not ask for it more than for
    the intensity beside it."""
    records = [
        record("RING:MON:Lifetime", "beam monitor"),
        record("RING:MON:Intensity", "beam monitor"),
    ]
    fields = ChannelFinder(records, load_vocabulary())
    assert set(fields.find("the beam monitor").names) == {"RING:MON:Lifetime", "RING:MON:Intensity"}
    assert fields.find("beam lifetime monitor").names == ["RING:MON:Lifetime"]


def test_a_unit_in_a_heading_does_not_describe_one_channel():
    """ "Dose Rate (mrem/hour)" heads both averages; "hourly" is the one-hour average."""
    levels = "Gamma Monitors | Dose Rate (mrem/hour) | "
    records = [
        record("R:GAMMA1:AVG_1MIN", levels + "1-Minute Average: dose rate over 1 minute"),
        record("R:GAMMA1:AVG_1HR", levels + "1-Hour Average: dose rate over 1 hour"),
    ]
    doses = ChannelFinder(records, load_vocabulary())
    assert doses.find("hourly average gamma dose rate").names == ["R:GAMMA1:AVG_1HR"]


def test_an_abbreviation_in_a_name_counts_as_its_description():
    """Both monitors are DC current transformers by name; "injector" decides, not which one
    also spells it out in a heading."""
    records = [
        record("SR:DCCT:I", "storage ring | DC Current Transformer | beam current"),
        record("INJ:DCCT:I", "injector | beam current monitor | beam current"),
    ]
    for n in range(1, 7):
        records.append(record(f"INJ:Q{n}:I", f"injector | quadrupole {n} | current"))
        records.append(record(f"SR:Q{n}:I", f"storage ring | quadrupole {n} | current"))
    monitors = ChannelFinder(records, load_vocabulary())
    assert monitors.find("the DC current transformer of the injector").names == ["INJ:DCCT:I"]


def test_words_joined_by_and_are_alternatives():
    records = [
        record("VAC:PUMP1:P", "ion pump 1 pressure"),
        record("VAC:PUMP1:I", "ion pump 1 current"),
        record("VAC:PUMP1:HV", "ion pump 1 voltage"),
        record("VAC:VALVE2:READY", "valve 2 ready status"),
        record("VAC:VALVE2:FAULT", "valve 2 fault status"),
        record("VAC:VALVE2:OPEN", "valve 2 open status"),
    ]
    vacuum = ChannelFinder(records, load_vocabulary())
    assert set(vacuum.find("ion pump 1 pressure and current").names) == {
        "VAC:PUMP1:P",
        "VAC:PUMP1:I",
    }
    assert set(vacuum.find("valve 2 ready or fault status").names) == {
        "VAC:VALVE2:READY",
        "VAC:VALVE2:FAULT",
    }
    assert parse_channel_query("dipole current and quad current 2").alternatives == [
        ("dipole", "quad")
    ]
    assert parse_channel_query("read BPM13 X and BPM14 X").alternatives == []


def test_another_form_of_a_word_finds_the_list_s_form(finder):
    records = [record("B:BPM3:CONNECTED", "bpm 3 connected"), record("B:BPM3:VALID", "bpm 3 ok")]
    states = ChannelFinder(records, load_vocabulary())
    assert states.find("BPM 3 connection status").names == ["B:BPM3:CONNECTED"]


@pytest.mark.parametrize(
    ("text", "numbers", "ordinal", "role", "everything"),
    [
        ("the twentieth corrector", set(), ("nth", 20), None, False),
        ("the twenty-first BPM", set(), ("nth", 21), None, False),
        ("the first twenty BPMs", set(), ("first", 20), None, False),
        ("BPMs thirty through thirty three", {30, 31, 32, 33}, None, None, False),
        ("bpm seventy two", {72}, None, None, False),
        ("pump voltages, all six", set(), None, None, True),
        ("every 1 min average", set(), None, None, True),
        ("what does dipole 7 read", {7}, None, "readback", False),
        ("read dipole 7", {7}, None, None, False),
    ],
)
def test_counts_ordinals_and_reading_questions(text, numbers, ordinal, role, everything):
    query = parse_channel_query(text)
    assert (query.numbers, query.ordinal, query.role, query.everything) == (
        numbers,
        ordinal,
        role,
        everything,
    )


def test_a_word_the_list_lacks_is_read_as_its_words_shortened():
    records = [
        record("SR:DCCT:LIFE", "beam lifetime"),
        record("SR:DCCT:CUR", "stored beam current"),
        record("SR01:IG1:P", "vacuum pressure gauge 1 sector 1", sector=1),
        record("SR03:IG5:P", "vacuum pressure gauge 5 sector 3", sector=3),
    ]
    finder = ChannelFinder(records, load_vocabulary())
    assert finder.find("lt").names == ["SR:DCCT:LIFE"]
    assert finder.find("pres").names == ["SR01:IG1:P", "SR03:IG5:P"]


def test_a_sector_written_against_its_number():
    query = parse_channel_query("vac s3", known=lambda word: False)
    assert query.sectors == {3}
    assert "s3" not in query.words
    # a list with a device S3 keeps the word: it names that device
    assert parse_channel_query("s3 current", known=lambda word: word == "s3").words == [
        "s3",
        "current",
    ]


def _placed_list() -> list[ChannelRecord]:
    """Two sectors, each with a corrector and two vacuum gauges."""
    out = []
    for sector, corrector in ((4, 7), (5, 9)):
        out.append(
            record(
                f"S{sector}:COR{corrector:02d}:I",
                f"corrector {corrector} current in sector {sector}",
                sector=sector,
            )
        )
        for gauge in (1, 2):
            out.append(
                record(
                    f"S{sector}:GAUGE{gauge}:P",
                    f"vacuum pressure gauge {gauge} in sector {sector}",
                    sector=sector,
                )
            )
    return out


def test_what_is_near_a_device_is_found_in_the_devices_sector():
    placed = ChannelFinder(_placed_list(), load_vocabulary())
    assert found(placed, "the vacuum around COR09") == ["S5:GAUGE1:P", "S5:GAUGE2:P"]
    assert found(placed, "pressure next to COR 7") == ["S4:GAUGE1:P", "S4:GAUGE2:P"]
    # the device itself, with a word of its own: no place given
    assert found(placed, "the current near COR09") == ["S5:COR09:I"]


def test_the_middle_of_an_odd_row_is_its_centre_device(finder):
    assert found(finder, "the middle horizontal beam position in sector 2") == ["S02C:BPM2:X"]
