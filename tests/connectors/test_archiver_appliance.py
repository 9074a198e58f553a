"""The Archiver Appliance client against a tiny local server speaking the getData.json format."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest

from osprey_desktop.connectors.archiver_appliance import ArchiverApplianceConnector, appliance_time
from osprey_desktop.connectors.base import ArchiverError
from osprey_desktop.connectors.demo_ioc_process import free_port

START = datetime(2026, 11, 20, 10, 0, tzinfo=UTC)
END = START + timedelta(hours=1)


class FakeAppliance:
    """Answers like an Appliance: archived PVs, 404 for unknown ones, and scripted failures."""

    def __init__(self) -> None:
        self.requests: list[dict[str, list[str]]] = []
        self.archived: dict[str, list[dict[str, Any]]] = {}
        self.meta: dict[str, dict[str, Any]] = {}
        self.raw_body: dict[str, tuple[int, bytes]] = {}

    def answer(self, path: str, query: dict[str, list[str]]) -> tuple[int, bytes]:
        self.requests.append(query)
        if path != "/retrieval/data/getData.json":
            return 404, b"no such endpoint"
        pv = query["pv"][0]
        if pv in self.raw_body:
            return self.raw_body[pv]
        name = pv.split("(", 1)[1].rstrip(")") if "(" in pv else pv
        if name not in self.archived:
            return 404, f"PV {name} is not archived".encode()
        start = datetime.fromisoformat(query["from"][0].replace("Z", "+00:00")).timestamp()
        end = datetime.fromisoformat(query["to"][0].replace("Z", "+00:00")).timestamp()
        data = [s for s in self.archived[name] if start <= s["secs"] + s["nanos"] * 1e-9 <= end]
        meta = {"name": name, **self.meta.get(name, {})}
        return 200, json.dumps([{"meta": meta, "data": data}]).encode()


@pytest.fixture
def appliance() -> Iterator[tuple[FakeAppliance, str]]:
    fake = FakeAppliance()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            url = urlparse(self.path)
            status, body = fake.answer(url.path, parse_qs(url.query))
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    yield fake, f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()
    thread.join(timeout=5)


def samples(start: datetime, count: int, step: float = 1.0) -> list[dict[str, Any]]:
    t0 = start.timestamp()
    out = []
    for i in range(count):
        t = t0 + i * step
        out.append(
            {
                "secs": int(t),
                "nanos": int(round((t % 1) * 1e9)),
                "val": 500.0 - i * 0.01,
                "severity": 0,
                "status": 0,
            }
        )
    return out


@pytest.fixture
async def client(appliance):
    _, url = appliance
    connector = ArchiverApplianceConnector(url + "/", timeout=5.0)
    await connector.connect()
    yield connector
    await connector.disconnect()


async def test_series_carry_timestamps_values_units_and_precision(appliance, client) -> None:
    fake, _ = appliance
    fake.archived["SR:DCCT:Current"] = samples(START, 10, step=0.5)
    fake.meta["SR:DCCT:Current"] = {"EGU": "mA", "PREC": "2"}
    data = await client.get_data(["SR:DCCT:Current"], START, END)
    series = data.series["SR:DCCT:Current"]
    assert series.units == "mA" and series.precision == 2
    assert series.timestamps[0] == START.timestamp()
    assert series.timestamps[1] == pytest.approx(START.timestamp() + 0.5)
    assert series.values[:2].tolist() == [500.0, 499.99]
    query = fake.requests[-1]
    assert query["from"] == ["2026-11-20T10:00:00.000Z"] and query["to"] == [
        "2026-11-20T11:00:00.000Z"
    ]


async def test_several_channels_are_fetched_in_one_call(appliance, client) -> None:
    fake, _ = appliance
    fake.archived["A:1"] = samples(START, 3)
    fake.archived["B:2"] = samples(START, 5)
    data = await client.get_data(["A:1", "B:2"], START, END)
    assert {k: len(v) for k, v in data.series.items()} == {"A:1": 3, "B:2": 5}


async def test_empty_range_gives_an_empty_series(appliance, client) -> None:
    fake, _ = appliance
    fake.archived["SR:DCCT:Current"] = samples(START - timedelta(days=1), 5)
    data = await client.get_data(["SR:DCCT:Current"], START, END)
    assert len(data.series["SR:DCCT:Current"]) == 0


async def test_empty_json_list_is_an_empty_series(appliance, client) -> None:
    fake, _ = appliance
    fake.raw_body["X:Y"] = (200, b"[]")
    data = await client.get_data(["X:Y"], START, END)
    assert len(data.series["X:Y"]) == 0


async def test_unknown_pv_is_an_error_naming_it(appliance, client) -> None:
    with pytest.raises(ArchiverError, match=r"'NOT:ARCHIVED' is not archived .*HTTP 404"):
        await client.get_data(["NOT:ARCHIVED"], START, END)


async def test_server_error_is_reported_with_status_and_detail(appliance, client) -> None:
    fake, _ = appliance
    fake.raw_body["SR:DCCT:Current"] = (500, b"java.lang.NullPointerException")
    with pytest.raises(ArchiverError, match=r"HTTP 500 for 'SR:DCCT:Current': java.lang.Null"):
        await client.get_data(["SR:DCCT:Current"], START, END)


async def test_invalid_json_is_reported(appliance, client) -> None:
    fake, _ = appliance
    fake.raw_body["SR:DCCT:Current"] = (200, b"<html>login</html>")
    with pytest.raises(ArchiverError, match="invalid JSON for 'SR:DCCT:Current'"):
        await client.get_data(["SR:DCCT:Current"], START, END)


async def test_unexpected_shape_is_reported(appliance, client) -> None:
    fake, _ = appliance
    fake.raw_body["SR:DCCT:Current"] = (200, b'[{"meta": {}, "data": [{"value": 1}]}]')
    with pytest.raises(ArchiverError, match="without secs/val"):
        await client.get_data(["SR:DCCT:Current"], START, END)


async def test_max_points_asks_the_appliance_to_bin(appliance, client) -> None:
    fake, _ = appliance
    fake.archived["SR:DCCT:Current"] = samples(START, 4)
    data = await client.get_data(["SR:DCCT:Current"], START, END, max_points=60)
    assert fake.requests[-1]["pv"] == ["mean_60(SR:DCCT:Current)"]
    assert data.series["SR:DCCT:Current"].processing == "mean_60"


async def test_unreachable_appliance_names_the_config_key() -> None:
    port = free_port()  # nothing listens there
    connector = ArchiverApplianceConnector(f"http://127.0.0.1:{port}", timeout=2.0)
    with pytest.raises(ArchiverError, match="archiver.archiver_appliance.url"):
        await connector.get_data(["SR:DCCT:Current"], START, END)
    await connector.disconnect()


async def test_end_before_start_is_refused_before_any_request(appliance, client) -> None:
    fake, _ = appliance
    with pytest.raises(ArchiverError, match="swap start and end"):
        await client.get_data(["SR:DCCT:Current"], END, START)
    assert fake.requests == []


def test_naive_times_are_read_as_local_time() -> None:
    local = datetime(2026, 11, 20, 10, 0)
    assert appliance_time(local) == appliance_time(local.astimezone(UTC))
    assert appliance_time(START).endswith(".000Z")
