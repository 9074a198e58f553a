"""The ranked search stands on its own over plain records; the database delegates to it."""

from __future__ import annotations

from osprey_desktop.channels import database as channel_database
from osprey_desktop.channels.database import ChannelDatabase, ChannelRecord
from osprey_desktop.channels.search import STOPWORDS, ChannelMatch, ChannelSearchIndex

RECORDS = [
    ChannelRecord(
        name="SR01C:HCM01:Current:SP",
        description="horizontal corrector current setpoint",
        family="HCM",
        sector=1,
        role="setpoint",
        writable=True,
        readback="SR01C:HCM01:Current:RB",
    ),
    ChannelRecord(
        name="SR01C:HCM01:Current:RB",
        description="horizontal corrector current readback",
        family="HCM",
        sector=1,
        role="readback",
    ),
    ChannelRecord(name="SR:DCCT:Current", description="stored beam current", synonyms=("beam",)),
]


def test_index_over_plain_records_ranks_without_a_database() -> None:
    index = ChannelSearchIndex(RECORDS)
    assert [m.name for m in index.top_matches("corrector HCM01", writable=True)] == [
        "SR01C:HCM01:Current:SP"
    ]
    assert [m.name for m in index.search("beam")] == ["SR:DCCT:Current"]
    assert index.search("beam")[0].score == 0.95
    assert "SR01C:HCM01:Current:SP" in index.suggest("SR01C:HCM01:Curent:SP", limit=2)


def test_database_search_gives_what_its_index_gives() -> None:
    database = ChannelDatabase(RECORDS)
    index = ChannelSearchIndex(RECORDS)
    for query in ("horizontal corrector in sector 1", "beam current", "HCM1 readback", "xyz"):
        assert database.search(query) == index.search(query)
        assert database.top_matches(query) == index.top_matches(query)
        assert database.suggest(query) == index.suggest(query)


def test_search_names_stay_importable_from_channel_database() -> None:
    assert channel_database.ChannelMatch is ChannelMatch
    assert channel_database.STOPWORDS is STOPWORDS
    assert "hours" in STOPWORDS and "hour" in STOPWORDS and "current" not in STOPWORDS
