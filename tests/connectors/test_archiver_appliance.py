"""The Archiver Appliance client against a local server speaking the Appliance's JSON layouts."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from osprey_desktop.connectors.archiver_appliance import (
    ArchiverApplianceConnector,
    appliance_time,
    retrieval_url,
    viewer_url_for,
)
from osprey_desktop.connectors.base import ArchiverError
from osprey_desktop.connectors.demo_ioc_process import free_port
from tests.connectors.appliance_server import ApplianceServer, FakeAppliance, sample, serve

START = datetime(2026, 11, 20, 10, 0, tzinfo=UTC)
END = START + timedelta(hours=1)
T0 = START.timestamp()
VALVE_STATES = ("Closed", "Open", "Moving", "Fault")


def ramp(count: int, step: float = 1.0, start: float = T0) -> list[dict]:
    return [sample(start + i * step, 500.0 - i * 0.01) for i in range(count)]


@pytest.fixture
def server() -> Iterator[ApplianceServer]:
    yield from serve()


@pytest.fixture
def fake(server: ApplianceServer) -> FakeAppliance:
    return server.fake


@pytest.fixture
async def client(server: ApplianceServer):
    connector = ArchiverApplianceConnector(server.retrieval_url + "/", timeout=5.0)
    yield connector
    await connector.disconnect()


async def _labels(name: str) -> tuple[str, ...] | None:
    return VALVE_STATES if name == "SR:VALVE:State" else None


# ----- URL forms ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "suffix", ["", "/", "/retrieval", "/retrieval/", "/retrieval/data/getData.json"]
)
async def test_base_url_works_with_or_without_retrieval(server, fake, suffix) -> None:
    fake.archived["SR:DCCT:Current"] = ramp(3)
    connector = ArchiverApplianceConnector(server.host_url + suffix, timeout=5.0)
    try:
        data = await connector.get_data(["SR:DCCT:Current"], START, END)
    finally:
        await connector.disconnect()
    assert len(data.series["SR:DCCT:Current"]) == 3
    assert connector.url == server.retrieval_url


def test_viewer_link_is_built_from_the_configured_url() -> None:
    assert viewer_url_for("https://aa.example.org/retrieval") == (
        "https://aa.example.org/retrieval/ui/viewer/archViewer.html"
    )
    assert retrieval_url("http://aa:17665/") == "http://aa:17665/retrieval"


# ----- scalars --------------------------------------------------------------------------------


async def test_series_carry_timestamps_values_units_precision_and_alarms(fake, client) -> None:
    fake.archived["SR:DCCT:Current"] = [
        sample(T0, 500.0),
        sample(T0 + 0.5, 499.99),
        sample(T0 + 1.0, 320.0, severity=2, status=5),
    ]
    fake.meta["SR:DCCT:Current"] = {"EGU": "mA", "PREC": "2"}
    data = await client.get_data(["SR:DCCT:Current"], START, END)
    series = data.series["SR:DCCT:Current"]
    assert series.units == "mA" and series.precision == 2 and series.kind == "number"
    assert series.timestamps.tolist() == [T0, T0 + 0.5, T0 + 1.0]
    assert series.values.tolist() == [500.0, 499.99, 320.0]
    assert series.severity.tolist() == [0, 0, 2] and series.status.tolist() == [0, 0, 5]
    query = fake.data_requests()[-1].query
    assert query["from"] == ["2026-11-20T10:00:00.000Z"]
    assert query["to"] == ["2026-11-20T11:00:00.000Z"]


async def test_integer_pv_values_are_numbers(fake, client) -> None:
    fake.archived["SR:INJ:Count"] = [sample(T0, 3), sample(T0 + 1, 4)]
    fake.dbr_types["SR:INJ:Count"] = "DBR_SCALAR_INT"
    series = (await client.get_data(["SR:INJ:Count"], START, END)).series["SR:INJ:Count"]
    assert series.kind == "number" and series.values.tolist() == [3.0, 4.0]


async def test_nan_sample_is_a_gap_that_keeps_its_alarm(fake, client) -> None:
    fake.archived["SR:TUNE:X"] = [
        sample(T0, 0.22),
        sample(T0 + 1, math.nan, severity=3, status=17),
        sample(T0 + 2, 0.23),
    ]
    series = (await client.get_data(["SR:TUNE:X"], START, END)).series["SR:TUNE:X"]
    assert len(series) == 3, "the NaN sample is kept, as a gap"
    assert series.gaps.tolist() == [False, True, False]
    assert series.severity.tolist() == [0, 3, 0]
    assert series.to_dict()["values"] == [0.22, None, 0.23]
    json.dumps(series.to_dict(), allow_nan=False)


async def test_disconnected_period_becomes_a_gap(fake, client) -> None:
    fake.archived["SR:TUNE:X"] = [
        sample(T0, 0.22),
        sample(T0 + 10, 0.22),
        sample(
            T0 + 600, 0.23, cnxlostepsecs=str(int(T0 + 20)), cnxregainedepsecs=str(int(T0 + 600))
        ),
    ]
    series = (await client.get_data(["SR:TUNE:X"], START, END)).series["SR:TUNE:X"]
    assert series.timestamps.tolist() == [T0, T0 + 10, T0 + 20, T0 + 600]
    assert series.gaps.tolist() == [False, False, True, False]
    assert series.severity[2] == 3  # INVALID, like a disconnected channel on a display


async def test_channel_archiver_disconnect_severity_is_a_gap(fake, client) -> None:
    fake.archived["OLD:PV"] = [sample(T0, 1.0), sample(T0 + 1, 0.0, severity=3904)]
    series = (await client.get_data(["OLD:PV"], START, END)).series["OLD:PV"]
    assert series.gaps.tolist() == [False, True]


# ----- enums, strings, waveforms --------------------------------------------------------------


async def test_enum_history_keeps_states_with_their_labels_and_is_never_averaged(server) -> None:
    fake = server.fake
    fake.archived["SR:VALVE:State"] = [sample(T0 + i, 1 if i < 50 else 0) for i in range(100)]
    fake.dbr_types["SR:VALVE:State"] = "DBR_SCALAR_ENUM"
    client = ArchiverApplianceConnector(server.retrieval_url, timeout=5.0, enum_labels=_labels)
    try:
        data = await client.get_data(["SR:VALVE:State"], START, END, max_points=10)
    finally:
        await client.disconnect()
    series = data.series["SR:VALVE:State"]
    assert fake.data_requests()[-1].query["pv"] == ["SR:VALVE:State"], "no mean of a valve"
    assert series.kind == "enum" and series.labels == VALVE_STATES
    # 1 Hz scans collapse to the transitions (and the last sample, to keep the range)
    assert series.values.tolist() == [1.0, 0.0, 0.0]
    assert [series.label(v) for v in series.values] == ["Open", "Closed", "Closed"]
    assert series.to_dict()["labels"] == list(VALVE_STATES)
    fields = data.context_fields()
    assert fields["kinds"] == {"SR:VALVE:State": "enum"}
    assert fields["enum_labels"] == {"SR:VALVE:State": list(VALVE_STATES)}


async def test_enum_without_a_label_source_keeps_its_indices(fake, client) -> None:
    fake.archived["SR:VALVE:State"] = [sample(T0, 2)]
    fake.dbr_types["SR:VALVE:State"] = "DBR_SCALAR_ENUM"
    series = (await client.get_data(["SR:VALVE:State"], START, END)).series["SR:VALVE:State"]
    assert series.kind == "enum" and series.labels == () and series.values.tolist() == [2.0]
    assert series.label(2.0) is None


async def test_string_history_is_a_string_series(fake, client) -> None:
    fake.archived["SR:OPS:Message"] = [sample(T0, "Beam on"), sample(T0 + 5, "Top-up paused")]
    fake.dbr_types["SR:OPS:Message"] = "DBR_SCALAR_STRING"
    data = await client.get_data(["SR:OPS:Message"], START, END, max_points=100)
    series = data.series["SR:OPS:Message"]
    assert series.kind == "string" and series.values.tolist() == ["Beam on", "Top-up paused"]
    assert data.context_fields()["time_series_data"]["SR:OPS:Message"] == [
        "Beam on",
        "Top-up paused",
    ]


async def test_waveform_history_keeps_arrays_and_is_thinned_on_the_server(fake, client) -> None:
    fake.archived["SR:BPM:Orbit"] = [
        sample(T0 + i, [float(i), math.nan, -float(i)]) for i in range(0, 3600, 10)
    ]
    fake.dbr_types["SR:BPM:Orbit"] = "DBR_WAVEFORM_DOUBLE"
    data = await client.get_data(["SR:BPM:Orbit"], START, END, max_points=2000)
    series = data.series["SR:BPM:Orbit"]
    pv = fake.data_requests()[-1].query["pv"][0]
    assert pv == "firstSample_36(SR:BPM:Orbit)", "at most waveform_points waveforms"
    assert series.kind == "waveform" and len(series) == 100
    assert series.values[1].tolist()[0] == 40.0 and math.isnan(series.values[1][1])
    assert series.to_dict()["values"][1] == [40.0, None, -40.0]


async def test_waveform_value_types_are_told_from_the_values_without_metadata(fake, client):
    fake.raw_body["A:WF"] = (200, b'[{"meta": {"name": "A:WF"}, "data": [{"secs": 1, "nanos": 0,'
                             b' "val": [1.0, 2.0], "severity": 0, "status": 0}]}]')  # fmt: skip
    series = (await client.get_data(["A:WF"], START, END)).series["A:WF"]
    assert series.kind == "waveform" and series.values[0].tolist() == [1.0, 2.0]


# ----- binning on the server ------------------------------------------------------------------


async def test_long_ranges_are_binned_on_the_server_with_an_envelope(fake, client) -> None:
    fake.archived["SR:DCCT:Current"] = ramp(3600)
    data = await client.get_data(["SR:DCCT:Current"], START, END, max_points=60)
    series = data.series["SR:DCCT:Current"]
    assert fake.data_requests()[-1].query["pv"] == ["optimized_60(SR:DCCT:Current)"]
    assert series.processing == "optimized_60" and len(series) == 60
    assert series.values[0] == pytest.approx(500.0 - 29.5 * 0.01)
    assert series.minimum[0] == pytest.approx(499.41) and series.maximum[0] == 500.0
    assert series.counts.tolist() == [60.0] * 60


async def test_short_ranges_come_back_raw_through_the_same_operator(fake, client) -> None:
    fake.archived["SR:DCCT:Current"] = ramp(4)
    data = await client.get_data(["SR:DCCT:Current"], START, END, max_points=60)
    series = data.series["SR:DCCT:Current"]
    assert series.processing == "raw" and len(series) == 4 and series.minimum is None


# ----- several channels -----------------------------------------------------------------------


async def test_several_channels_are_fetched_in_one_multi_pv_request(fake, client) -> None:
    fake.archived["A:1"] = ramp(3)
    fake.archived["B:2"] = ramp(5)
    data = await client.get_data(["A:1", "B:2"], START, END)
    assert {k: len(v) for k, v in data.series.items()} == {"A:1": 3, "B:2": 5}
    (request,) = fake.data_requests()
    assert request.path == "/retrieval/data/getDataForPVs.json"
    assert request.query["pv"] == ["A:1", "B:2"]


async def test_an_unknown_pv_in_a_batch_is_named(fake, client) -> None:
    fake.archived["A:1"] = ramp(3)
    with pytest.raises(ArchiverError, match=r"'NOT:ARCHIVED' is not archived .*HTTP 404"):
        await client.get_data(["A:1", "NOT:ARCHIVED"], START, END)


async def test_a_refused_batch_is_asked_pv_by_pv(fake, client) -> None:
    fake.archived["A:1"] = ramp(3)
    fake.archived["B:2"] = ramp(2)
    fake.refuse_multi = True
    data = await client.get_data(["A:1", "B:2"], START, END)
    assert {k: len(v) for k, v in data.series.items()} == {"A:1": 3, "B:2": 2}
    assert [r.path for r in fake.data_requests()].count("/retrieval/data/getData.json") == 2


async def test_metadata_is_asked_once_per_pv(fake, client) -> None:
    fake.archived["A:1"] = ramp(3)
    await client.get_data(["A:1"], START, END)
    await client.get_data(["A:1"], START, END)
    assert fake.paths().count("/retrieval/bpl/getMetadata") == 1


# ----- a moment (getDataAtTime) ---------------------------------------------------------------


async def test_value_at_a_moment_is_the_sample_in_force_then(fake, client) -> None:
    fake.archived["SR:DCCT:Lifetime"] = [sample(T0, 10.2), sample(T0 + 60, 9.8, 1, 4)]
    fake.meta["SR:DCCT:Lifetime"] = {"EGU": "h", "PREC": "1"}
    moment = START + timedelta(seconds=90)
    found = await client.value_at("SR:DCCT:Lifetime", moment)
    assert found.value == 9.8 and found.timestamp == T0 + 60 and found.age_seconds == 30
    assert (found.severity, found.status, found.units) == (1, 4, "h")
    assert found.to_dict()["severity_name"] == "MINOR" and found.formatted() == "9.8 h [MINOR]"
    (request,) = [r for r in fake.requests if r.path.endswith("getDataAtTime")]
    assert request.method == "POST" and request.body == ["SR:DCCT:Lifetime"]
    assert request.query["at"] == ["2026-11-20T10:01:30.000Z"]


async def test_values_at_asks_for_every_channel_in_one_request(server) -> None:
    fake = server.fake
    fake.archived["SR:DCCT:Current"] = [sample(T0, 500.1)]
    fake.archived["SR:VALVE:State"] = [sample(T0, 1)]
    fake.dbr_types["SR:VALVE:State"] = "DBR_SCALAR_ENUM"
    client = ArchiverApplianceConnector(server.host_url, timeout=5.0, enum_labels=_labels)
    try:
        found = await client.values_at(["SR:DCCT:Current", "SR:VALVE:State"], END)
    finally:
        await client.disconnect()
    assert found["SR:DCCT:Current"].value == 500.1
    assert found["SR:VALVE:State"].label == "Open"
    assert found["SR:VALVE:State"].formatted() == "Open (1)"
    assert sum(r.path.endswith("getDataAtTime") for r in fake.requests) == 1


async def test_value_before_the_first_sample_is_a_clear_error(fake, client) -> None:
    fake.archived["SR:DCCT:Current"] = [sample(T0 + 60, 500.1)]
    with pytest.raises(ArchiverError, match="no archived sample at or before"):
        await client.value_at("SR:DCCT:Current", START)


async def test_value_of_an_unknown_pv_says_it_is_not_archived(fake, client) -> None:
    with pytest.raises(ArchiverError, match="'NOT:ARCHIVED' is not archived"):
        await client.value_at("NOT:ARCHIVED", START)


async def test_a_nan_value_at_a_moment_has_no_value(fake, client) -> None:
    fake.archived["SR:TUNE:X"] = [sample(T0, math.nan, 3, 17)]
    found = await client.value_at("SR:TUNE:X", END)
    assert found.value is None and found.formatted() == "no valid value"


# ----- failures -------------------------------------------------------------------------------


async def test_empty_range_gives_an_empty_series(fake, client) -> None:
    fake.archived["SR:DCCT:Current"] = ramp(5, start=T0 - 86400)
    data = await client.get_data(["SR:DCCT:Current"], START, END)
    assert len(data.series["SR:DCCT:Current"]) == 0


async def test_empty_json_list_is_an_empty_series(fake, client) -> None:
    fake.raw_body["X:Y"] = (200, b"[]")
    data = await client.get_data(["X:Y"], START, END)
    assert len(data.series["X:Y"]) == 0 and isinstance(data.series["X:Y"].values, np.ndarray)


async def test_unknown_pv_is_an_error_naming_it(client) -> None:
    with pytest.raises(ArchiverError, match=r"'NOT:ARCHIVED' is not archived .*HTTP 404"):
        await client.get_data(["NOT:ARCHIVED"], START, END)


async def test_server_error_is_reported_with_status_and_detail(fake, client) -> None:
    fake.raw_body["SR:DCCT:Current"] = (500, b"java.lang.NullPointerException")
    with pytest.raises(ArchiverError, match=r"HTTP 500 for 'SR:DCCT:Current': java.lang.Null"):
        await client.get_data(["SR:DCCT:Current"], START, END)


async def test_invalid_json_is_reported(fake, client) -> None:
    fake.raw_body["SR:DCCT:Current"] = (200, b"<html>login</html>")
    with pytest.raises(ArchiverError, match="invalid JSON for 'SR:DCCT:Current'"):
        await client.get_data(["SR:DCCT:Current"], START, END)


async def test_unexpected_shape_is_reported(fake, client) -> None:
    fake.raw_body["SR:DCCT:Current"] = (200, b'[{"meta": {}, "data": [{"value": 1}]}]')
    with pytest.raises(ArchiverError, match="without secs/val"):
        await client.get_data(["SR:DCCT:Current"], START, END)


async def test_unreachable_appliance_names_the_config_key() -> None:
    port = free_port()  # nothing listens there
    connector = ArchiverApplianceConnector(f"http://127.0.0.1:{port}", timeout=2.0)
    with pytest.raises(ArchiverError, match="archiver.archiver_appliance.url"):
        await connector.get_data(["SR:DCCT:Current"], START, END)
    with pytest.raises(ArchiverError, match="archiver.archiver_appliance.url"):
        await connector.value_at("SR:DCCT:Current", START)
    await connector.disconnect()


async def test_end_before_start_is_refused_before_any_request(fake, client) -> None:
    with pytest.raises(ArchiverError, match="swap start and end"):
        await client.get_data(["SR:DCCT:Current"], END, START)
    with pytest.raises(ArchiverError, match="at least one channel"):
        await client.get_data([], START, END)
    assert fake.requests == []


def test_naive_times_are_read_as_local_time() -> None:
    local = datetime(2026, 11, 20, 10, 0)
    assert appliance_time(local) == appliance_time(local.astimezone(UTC))
    assert appliance_time(START).endswith(".000Z")
