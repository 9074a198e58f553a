"""``channels.find``: one target phrase, its channels, and an account of every word."""

from __future__ import annotations

import pytest

from osprey_desktop.channels import ChannelDatabase, ChannelRecord, find
from osprey_desktop.channels.finder import ChannelFinder, load_vocabulary
from osprey_desktop.config import build_config, set_config


def _record(name: str, description: str = "", **fields) -> ChannelRecord:
    return ChannelRecord(name=name, description=description, **fields)


def _rings() -> ChannelDatabase:
    """A storage ring with many correctors, a booster and a transfer line with a few."""
    records = []
    for area, count, text in (("SR", 12, "storage ring"), ("BR", 4, "booster"), ("BTS", 3, "line")):
        for n in range(1, count + 1):
            device = f"{area}:MAG:HCM:{n:02d}"
            records += [
                _record(
                    f"{device}:CURRENT:SP",
                    f"{text} horizontal corrector current setpoint",
                    role="setpoint",
                    writable=True,
                    readback=f"{device}:CURRENT:RB",
                ),
                _record(
                    f"{device}:CURRENT:RB",
                    f"{text} horizontal corrector current readback",
                    role="readback",
                    setpoint=f"{device}:CURRENT:SP",
                ),
                _record(f"{device}:STATUS:READY", f"{text} horizontal corrector ready status"),
            ]
    records.append(_record("SR:DIAG:DCCT:01:CURRENT:RB", "stored beam current", role="readback"))
    return ChannelDatabase(records, source="rings")


@pytest.fixture
def rings() -> ChannelDatabase:
    return _rings()


def test_every_word_of_a_sure_answer_is_explained(rings: ChannelDatabase) -> None:
    finding = find("the last two horizontal corrector setpoints", rings)
    assert finding.channels == ["SR:MAG:HCM:11:CURRENT:SP", "SR:MAG:HCM:12:CURRENT:SP"]
    assert finding.explained_words == {
        "last": "ordinal",
        "two": "ordinal",
        "horizontal": "description",
        "corrector": "description",
        "setpoints": "setpoint",
    }
    assert finding.unexplained_words == [] and finding.confidence == 1.0
    assert finding.sure and finding.question == ""


def test_an_unnamed_area_is_the_main_one_and_the_answer_says_so(rings: ChannelDatabase) -> None:
    finding = find("horizontal corrector 2 setpoint", rings)
    assert finding.channels == ["SR:MAG:HCM:02:CURRENT:SP"]  # not BR and BTS as well
    assert finding.assumed_area == "SR"
    booster = find("booster horizontal corrector 2 setpoint", rings)
    assert booster.channels == ["BR:MAG:HCM:02:CURRENT:SP"]
    assert booster.assumed_area is None


def test_the_configured_default_area_wins_over_the_largest(rings: ChannelDatabase) -> None:
    set_config(build_config({"channel_finding": {"default_area": "br"}}))
    try:
        finding = find("horizontal corrector 2 setpoint", rings)
    finally:
        set_config(build_config({}))
    assert finding.channels == ["BR:MAG:HCM:02:CURRENT:SP"]
    assert finding.assumed_area == "BR"


def test_a_word_nothing_explains_gets_candidates_and_a_question(rings: ChannelDatabase) -> None:
    finding = find("the cryoplant horizontal corrector", rings)
    assert finding.channels == []
    assert finding.unexplained_words == ["cryoplant"]
    assert finding.confidence < 0.6
    assert finding.candidates and all(c.startswith("SR:MAG:HCM") for c in finding.candidates)
    assert "cryoplant" in finding.question and not finding.sure


def test_a_write_finds_setpoints_only(rings: ChannelDatabase) -> None:
    finding = find("storage ring horizontal corrector 3", rings, intent="write")
    assert finding.channels == ["SR:MAG:HCM:03:CURRENT:SP"]
    with pytest.raises(ValueError, match="intent"):
        find("beam current", rings, intent="plot")


def test_reference_finds_the_stored_reference_values() -> None:
    records = [
        _record("SR:QF:02:CURRENT:SP", role="setpoint", writable=True),
        _record("SR:QF:02:CURRENT:RB", role="readback"),
        _record("SR:QF:02:CURRENT:GOLDEN"),
    ]
    finder = ChannelFinder(records, load_vocabulary())
    assert finder.find("reference current of QF 2").names == ["SR:QF:02:CURRENT:GOLDEN"]


def test_a_list_that_names_channels_by_girder_and_plane_letters() -> None:
    """Names with no description: 05G-BPM3:U (girder 5, BPM 3, plane U), a family BPMx,
    correctors with a monitor Curr1 beside the setpoint CurrSetpt, aliases like 7BPM4."""
    records = []
    for girder in range(1, 8):
        for n in range(1, 5):
            for plane, family in (("U", "BPMx"), ("V", "BPMy")):
                records.append(
                    _record(
                        f"{girder:02d}G-BPM{n}:{plane}",
                        family=family,
                        synonyms=(f"{girder}BPM{n}",),
                    )
                )
            records.append(_record(f"{girder:02d}G-COR{n}H:Curr1", family="HCM"))
            records.append(
                _record(
                    f"{girder:02d}G-COR{n}H:CurrSetpt", family="HCM", role="setpoint", writable=True
                )
            )
    finder = ChannelFinder(records, load_vocabulary())
    assert finder.find("x position at BPM 3 of girder 5").names == ["05G-BPM3:U"]
    assert finder.find("vertical position of 7BPM4").names == ["07G-BPM4:V"]
    assert finder.find("horizontal corrector 2 readback in girder 6").names == ["06G-COR2H:Curr1"]
    assert (
        finder.instance[records.index(next(r for r in records if r.name == "03G-COR4H:Curr1"))] == 4
    )


def test_what_a_name_segment_means_is_learned_from_the_descriptions_of_the_others() -> None:
    """Most XCOR channels say "horizontal corrector"; the ones that say nothing are found by
    those words too, from their segment."""
    records = [
        _record(f"XCOR:LI2{n}:BDES", "horizontal corrector desired field") for n in range(0, 6)
    ]
    records += [_record("XCOR:LI28:BDES"), _record("XCOR:LI29:BDES")]
    records += [_record(f"QUAD:LI2{n}:BDES", "quadrupole desired field") for n in range(0, 6)]
    records += [_record(f"BPMS:LI2{n}:X", "beam position x") for n in range(0, 8)]
    finder = ChannelFinder(records, load_vocabulary())
    assert "corrector" in finder.learned["xcor"]
    assert finder.find("horizontal corrector in LI29").names == ["XCOR:LI29:BDES"]
    assert finder.find("horizontal corrector in LI24").names == ["XCOR:LI24:BDES"]
    assert finder.find("quadrupole in LI24").names == ["QUAD:LI24:BDES"]


def test_a_named_range_with_digits_in_its_stem_is_every_name_in_it() -> None:
    from osprey_desktop.channels.query import expand_name_ranges

    assert expand_name_ranges("Q0H01 through Q0H04") == "Q0H01, Q0H02, Q0H03, Q0H04"
    assert expand_name_ranges("QF1A01 to QF1A03") == "QF1A01, QF1A02, QF1A03"
    assert expand_name_ranges("Q0H01 to QF04") == "Q0H01 to QF04"  # two stems: as typed
    assert expand_name_ranges("set HCM01 to 2") == "set HCM01 to 2"  # a value, not a range


def test_the_sectors_a_list_does_not_state_come_from_the_config_or_are_asked() -> None:
    records = [
        _record(f"VAC:IG{n}:PRESSURE", "vacuum ion gauge pressure", units="mbar")
        for n in range(1, 7)
    ]
    database = ChannelDatabase(records, source="gauges")
    unknown = find("vacuum pressure in sector 2", database)
    assert unknown.channels == [] and unknown.question  # never a guess
    set_config(build_config({"channel_finding": {"sectors": {2: ["IG3", "IG4"]}}}))
    try:
        placed = find("vacuum pressure in sector 2", database)
    finally:
        set_config(build_config({}))
    assert placed.channels == ["VAC:IG3:PRESSURE", "VAC:IG4:PRESSURE"]
    assert placed.explained_words["2"] == "sector"


def test_the_word_tables_built_in_advance_read_as_those_built_on_first_use() -> None:
    """The window builds a list's word tables while it opens; a word the list lacks then
    finds what it found when they were built in its own request."""
    database = _rings()
    warmed = ChannelFinder(database.records, load_vocabulary({}))
    warmed.warm_words()
    assert warmed._stems is not None and warmed._shortenings is not None
    lazy = ChannelFinder(database.records, load_vocabulary({}))

    for phrase in ("horizntal corector 3", "hcm crnt 4", "storage ring correctors"):
        assert warmed.find(phrase) == lazy.find(phrase)
