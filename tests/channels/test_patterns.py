"""``channels.patterns``: a shell pattern said as the names it matches."""

from __future__ import annotations

from osprey_desktop.channels import ChannelDatabase, ChannelRecord
from osprey_desktop.channels.patterns import MAX_MATCHES, patterns_expanded


def _list() -> ChannelDatabase:
    records = []
    for n in range(1, 21):
        records.append(
            ChannelRecord(
                name=f"LN{n:02d}:GAUGE:P", description="line gauge pressure", device=f"G{n}"
            )
        )
    records.append(ChannelRecord(name="LN:BEAM:I", description="beam current", device="CT"))
    return ChannelDatabase(records, source="line")


def test_a_pattern_with_a_colon_matches_whole_names():
    said = patterns_expanded("caget LN0[1-3]:GAUGE:*", _list())
    assert said == "caget LN01:GAUGE:P, LN02:GAUGE:P, LN03:GAUGE:P"


def test_a_pattern_without_a_colon_matches_device_names():
    said = patterns_expanded("g1? pressures", _list(), {"pressure"})
    assert said == "G10, G11, G12, G13, G14, G15, G16, G17, G18, G19 pressures"


def test_a_question_mark_that_ends_a_question_is_no_pattern():
    assert patterns_expanded("G1? G2?", _list(), {"pressure"}) == "G1? G2?"
    assert patterns_expanded("G1? show it", _list(), {"pressure"}) == "G1? show it"


def test_a_pattern_that_matches_nothing_or_too_much_is_left_as_typed():
    assert patterns_expanded("caget XX:*", _list()) == "caget XX:*"
    many = ChannelDatabase(
        [ChannelRecord(name=f"A:{n}", description="x") for n in range(MAX_MATCHES + 1)],
        source="many",
    )
    assert patterns_expanded("caget A:*", many) == "caget A:*"
