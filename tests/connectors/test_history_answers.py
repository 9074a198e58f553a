"""History answers of every archived type, from a loopback Archiver Appliance to the table.

The server (``appliance_server``) answers in the Appliance's JSON layouts; the client builds
the ARCHIVER_DATA context the history capability stores, and the answer is what the operator
reads: texts, state names and per-element summaries instead of means, gaps named.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest

from osprey_desktop.answers.history import history_table
from osprey_desktop.answers.moments import moment_line
from osprey_desktop.capabilities.control_room.contexts import ArchiverDataContext
from osprey_desktop.connectors.archiver_appliance import ArchiverApplianceConnector
from tests.connectors.appliance_server import ApplianceServer, sample, serve

T0 = datetime(2026, 11, 20, 8, 0, tzinfo=UTC).timestamp()
START = datetime(2026, 11, 20, 7, 0, tzinfo=UTC)
END = datetime(2026, 11, 20, 10, 0, tzinfo=UTC)


@pytest.fixture
def server() -> Iterator[ApplianceServer]:
    yield from serve()


async def history(server: ApplianceServer, names: list[str], moment: datetime | None = None):
    client = ArchiverApplianceConnector(server.retrieval_url, timeout=5.0)
    try:
        data = await client.get_data(names, START, END)
    finally:
        await client.disconnect()
    return ArchiverDataContext(
        **data.context_fields(), start_date=START, end_date=END, moment=moment
    )


def rows(context: ArchiverDataContext) -> dict[str, list[str]]:
    return {row[0].text: [cell.text for cell in row[1:]] for row in history_table(context).rows}


async def test_a_string_history_answers_with_its_texts(server) -> None:
    server.fake.archived["OPS:MODE"] = [
        sample(T0, "Auto"),
        sample(T0 + 60, "Manual"),
        sample(T0 + 120, "Auto"),
    ]
    server.fake.dbr_types["OPS:MODE"] = "DBR_SCALAR_STRING"
    last, low, high, mean, note = rows(await history(server, ["OPS:MODE"]))["OPS:MODE"]
    assert last == "Auto" and low == high == mean == "—"
    assert note == "texts: Auto (2), Manual (1); 2 changes"


async def test_an_enum_history_answers_with_the_archives_state_names(server) -> None:
    """Without a live control system the labels come from the Appliance's ENUM_n meta."""
    states = {"ENUM_0": "Closed", "ENUM_1": "Open", "ENUM_2": "Half"}
    server.fake.archived["FE:VALVE"] = [sample(T0 + i, [0, 1, 1, 2][i]) for i in range(4)]
    server.fake.dbr_types["FE:VALVE"] = "DBR_SCALAR_ENUM"
    server.fake.meta["FE:VALVE"] = states
    context = await history(server, ["FE:VALVE"])
    assert context.enum_labels["FE:VALVE"] == ["Closed", "Open", "Half"]
    last, low, _, mean, note = rows(context)["FE:VALVE"]
    assert last == "Half" and mean == "—", "no mean of states"
    assert note == "states: Open (2), Closed (1), Half (1); 2 changes"


async def test_an_enum_told_only_by_its_meta_is_still_an_enum(server) -> None:
    server.fake.raw_body["FE:SHUTTER"] = (
        200,
        b'[{"meta": {"name": "FE:SHUTTER", "ENUM_0": "Out", "ENUM_1": "In"}, "data": ['
        + f'{{"secs": {int(T0)}, "nanos": 0, "val": 1, "severity": 0, "status": 0}}'.encode()
        + b"]}]",
    )
    server.fake.archived["FE:SHUTTER"] = []  # known to getMetadata, typeless
    server.fake.dbr_types["FE:SHUTTER"] = "unknown"
    context = await history(server, ["FE:SHUTTER"])
    assert context.kinds["FE:SHUTTER"] == "enum"
    assert rows(context)["FE:SHUTTER"][0] == "In"


async def test_a_waveform_history_answers_per_element(server) -> None:
    server.fake.archived["SR:ORBIT"] = [
        sample(T0 + 10 * i, [1.0, 2.0 + i, 3.0, math.nan]) for i in range(5)
    ]
    server.fake.dbr_types["SR:ORBIT"] = "DBR_WAVEFORM_DOUBLE"
    server.fake.meta["SR:ORBIT"] = {"EGU": "mm"}
    last, low, high, _, note = rows(await history(server, ["SR:ORBIT"]))["SR:ORBIT"]
    assert last.startswith("4 values, mean ")
    assert low.startswith("1.0") and high.startswith("6.0") and "mm" in high
    assert note.startswith("per element over 5 samples: [0] 1.0")
    assert "[1] 2.0" in note and "element [1] moved most" in note


async def test_gaps_are_said_and_an_empty_reply_is_not_a_disconnection(server) -> None:
    server.fake.archived["SR:DCCT"] = [
        sample(T0, 500.0),
        sample(T0 + 60, math.nan, severity=3),
        sample(T0 + 120, 499.0),
    ]
    server.fake.archived["SR:QUIET"] = []
    table = rows(await history(server, ["SR:DCCT", "SR:QUIET"]))
    assert table["SR:DCCT"][-1] == "1 sample without a value (gap or INVALID)"
    assert table["SR:QUIET"][-1] == "no samples archived in this range"
    quiet = next(r for r in history_table(await history(server, ["SR:QUIET"])).rows)
    assert quiet[-1].severity == "", "nothing archived is not DISCONNECTED"


async def test_a_moment_inside_a_gap_is_named_not_skipped(server) -> None:
    server.fake.archived["SR:DCCT"] = [
        sample(T0, 499.5),
        sample(T0 + 600, math.nan, severity=3),
        sample(T0 + 1800, 498.0),
    ]
    server.fake.meta["SR:DCCT"] = {"EGU": "mA"}
    moment = datetime.fromtimestamp(T0 + 900, UTC)
    line = moment_line(await history(server, ["SR:DCCT"], moment), "SR:DCCT")
    assert "**no valid value**" in line and "from 08:10:00 on" in line
    assert "last valid sample before it was 499.5000 mA at 08:00:00" in line
    later = datetime.fromtimestamp(T0 + 1900, UTC)
    fine = moment_line(await history(server, ["SR:DCCT"], later), "SR:DCCT")
    assert "**498.0000 mA** (archived sample of 08:30:00)" in fine


async def test_an_invalid_sample_with_a_value_is_not_taken_for_the_value(server) -> None:
    server.fake.archived["SR:LIFETIME"] = [sample(T0, 10.0), sample(T0 + 60, 0.0, severity=3)]
    moment = datetime.fromtimestamp(T0 + 120, UTC)
    line = moment_line(await history(server, ["SR:LIFETIME"], moment), "SR:LIFETIME")
    assert "no valid value" in line and "from 08:01:00 on" in line


async def test_a_moment_of_an_enum_gives_the_state_name(server) -> None:
    server.fake.archived["FE:VALVE"] = [sample(T0, 1, severity=1)]
    server.fake.dbr_types["FE:VALVE"] = "DBR_SCALAR_ENUM"
    server.fake.meta["FE:VALVE"] = {"ENUM_0": "Closed", "ENUM_1": "Open"}
    moment = datetime.fromtimestamp(T0 + 5, UTC) + timedelta(seconds=1)
    line = moment_line(await history(server, ["FE:VALVE"], moment), "FE:VALVE")
    assert "**Open** (archived sample of 08:00:00, in MINOR alarm)" in line
