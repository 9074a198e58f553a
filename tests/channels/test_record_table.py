"""A kept list holds its records as columns and builds each one when asked, equal to the
record it was made from."""

from __future__ import annotations

import pickle

from osprey_desktop.channels.database import ChannelDatabase
from osprey_desktop.channels.record_table import RecordTable
from osprey_desktop.channels.records import AlarmLimits, ChannelLimits, ChannelRecord


def _records() -> list[ChannelRecord]:
    records = [
        ChannelRecord(name=f"SR:BPM{n}:X", description=f"bpm {n} horizontal", units="mm")
        for n in range(30)
    ]
    records.append(
        ChannelRecord(
            name="SR:HCM1:SP",
            description="corrector setpoint",
            synonyms=("hcm one",),
            role="setpoint",
            writable=True,
            readback="SR:HCM1:RB",
            sector=3,
            limits=ChannelLimits(
                display=(-5.0, 5.0), control=(-4.0, 4.0), alarm=AlarmLimits(high=3.5)
            ),
        )
    )
    return records


def test_a_table_read_back_builds_the_same_records_one_by_one() -> None:
    records = _records()
    again = pickle.loads(pickle.dumps(RecordTable(records)))
    assert again.names == [r.name for r in records]
    assert again._built.count(None) == len(records)  # nothing built by reading it back
    assert again[30] == records[30]
    assert again._built.count(None) == len(records) - 1
    assert list(again) == records
    assert again.column("sector") == [r.sector for r in records]


def test_a_database_read_back_answers_as_before() -> None:
    database = ChannelDatabase(_records())
    again = pickle.loads(pickle.dumps(database))
    assert again.get("sr:hcm1:sp") == database.get("SR:HCM1:SP")
    assert "pva://SR:BPM3:X" in again and "SR:BPM99:X" not in again
    assert again.records is again.shapes.records  # one table, kept once
    assert again.channels_named("BPM7") == ["SR:BPM7:X"]
