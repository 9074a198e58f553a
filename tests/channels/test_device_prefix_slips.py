"""The channel finder reads a device prefix typed with two neighbouring letters swapped ("vmc 7",
"HMC21") as the list's own prefix, when exactly one prefix of the list is that swap away; it
never respells a prefix of the list, a word of the list, or a slip as close to two prefixes.
"""

from __future__ import annotations

import pytest

from osprey_desktop.channels import ChannelDatabase, ChannelRecord, find
from osprey_desktop.channels.finder import ChannelFinder, load_vocabulary
from tests.support.records import magnet_pair


def _list(*families: tuple[str, str]) -> ChannelDatabase:
    records = [
        record
        for prefix, kind in families
        for n in range(1, 4)
        for record in magnet_pair(f"{prefix}{n:02d}", kind)
    ]
    return ChannelDatabase(records, source="+".join(p for p, _ in families))


def _devices(channels: list[str]) -> set[str]:
    return {name.split(":")[1] for name in channels}


@pytest.mark.parametrize(
    ("typed", "channels"),
    [
        ("vmc 7", ["SR03C:VCM07:Current:RB"]),
        ("HMC21", ["SR07C:HCM21:Current:SP", "SR07C:HCM21:Current:RB"]),
        ("hmc 21 setpoint", ["SR07C:HCM21:Current:SP"]),
        ("DQ04", ["SR01C:QD04:Current:SP", "SR01C:QD04:Current:RB"]),
    ],
)
def test_a_prefix_with_two_letters_swapped_finds_the_lists_device(
    database: ChannelDatabase, typed: str, channels: list[str]
) -> None:
    finding = find(typed, database)
    assert finding.channels == channels
    assert finding.unexplained_words == [] and finding.question == ""


def test_the_finder_reads_its_prefixes_as_the_database_does(database: ChannelDatabase) -> None:
    finder = ChannelFinder(database.records, load_vocabulary({}))
    assert finder.device_prefixes == database.device_prefixes()
    assert finder.find("set vmc 7").names == finder.find("set vcm 7").names


@pytest.mark.parametrize(
    "typed",
    [
        "mcv 7",  # two letters moved apart
        "vmcc 7",  # a letter more
        "vmc current",  # no device number
    ],
)
def test_other_slips_are_asked_about(database: ChannelDatabase, typed: str) -> None:
    finding = find(typed, database)
    assert finding.channels == [] and finding.question


def test_a_prefix_of_the_list_is_never_respelled() -> None:
    database = _list(("HCM", "horizontal corrector"), ("HMC", "harmonic cavity tuner"))
    assert _devices(find("hmc 2", database).channels) == {"HMC02"}
    assert _devices(find("hcm 2", database).channels) == {"HCM02"}


def test_a_slip_as_close_to_two_prefixes_is_asked_about() -> None:
    # "cvm" is VCM with its first two letters swapped and CMV with its last two
    database = _list(("VCM", "vertical corrector"), ("CMV", "cavity mode voltage"))
    finding = find("cvm 2", database)
    assert finding.channels == [] and finding.question
    assert _devices(find("vcm 2", database).channels) == {"VCM02"}


def test_a_word_of_the_list_is_never_read_as_a_prefix() -> None:
    pumps = [
        ChannelRecord(
            name=f"SR01C:IP{n:02d}:Pressure", description="ion pump pressure", device=f"IP{n:02d}"
        )
        for n in range(1, 4)
    ]
    modes = [
        ChannelRecord(name=f"SR:RF:PI{n}:Frequency", description=f"cavity pi mode {n} frequency")
        for n in range(1, 4)
    ]
    database = ChannelDatabase([*pumps, *modes], source="pumps")
    assert "SR01C:IP02:Pressure" not in find("PI2 frequency", database).channels
    assert find("PI2 pressure", database).channels != ["SR01C:IP02:Pressure"]
