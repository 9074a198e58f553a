"""``ArchiverApplianceConnector``: history from an EPICS Archiver Appliance over its JSON API.

One ``GET {url}/retrieval/data/getData.json?pv=NAME&from=ISO&to=ISO`` per channel (sent
concurrently with ``httpx.AsyncClient``). The Appliance answers a JSON list of
``{"meta": {"name", "EGU", "PREC"}, "data": [{"secs", "nanos", "val", "severity", "status"}]}``.
With ``max_points`` the request asks the Appliance to bin on its side (``mean_N(NAME)``), so a
week of 1 Hz data does not cross the network raw. Every failure (unreachable, timeout, HTTP
4xx/5xx, invalid JSON, unexpected shape) becomes an ``ArchiverError`` naming the channel; a
range with no samples is an empty series.
"""

from __future__ import annotations

import asyncio
import json
import math
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import httpx
import numpy as np

from osprey_desktop.connectors.archiver_base import (
    ArchiverConnector,
    ArchiverData,
    ArchiverSeries,
    checked_time_range,
)
from osprey_desktop.connectors.base import ArchiverError

DATA_PATH = "/retrieval/data/getData.json"


def appliance_time(moment: datetime) -> str:
    """ISO 8601 in UTC with milliseconds and a Z, the form the Appliance expects."""
    utc = moment.astimezone(UTC)
    return utc.isoformat(timespec="milliseconds").replace("+00:00", "Z")


class ArchiverApplianceConnector(ArchiverConnector):
    """Client of one Archiver Appliance; one instance per event loop (httpx clients are)."""

    kind = "archiver_appliance"

    def __init__(
        self, url: str, timeout: float = 30.0, transport: httpx.AsyncBaseTransport | None = None
    ) -> None:
        self.url = url.rstrip("/")
        self.timeout = timeout
        self._transport = transport
        self._client: httpx.AsyncClient | None = None

    async def connect(self) -> None:
        if self._client is None:
            self._client = httpx.AsyncClient(
                base_url=self.url, timeout=self.timeout, transport=self._transport
            )

    async def disconnect(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            await client.aclose()

    async def get_data(
        self,
        channels: Sequence[str],
        start: datetime,
        end: datetime,
        max_points: int | None = None,
    ) -> ArchiverData:
        t0, t1 = checked_time_range(start, end, max_points)
        await self.connect()
        bin_seconds = math.ceil((t1 - t0) / max_points) if max_points else 0
        results = await asyncio.gather(
            *(self._fetch(name, start, end, bin_seconds) for name in channels)
        )
        return ArchiverData(start=start, end=end, series=dict(zip(channels, results, strict=True)))

    async def _fetch(
        self, name: str, start: datetime, end: datetime, bin_seconds: int
    ) -> ArchiverSeries:
        assert self._client is not None
        processing = f"mean_{bin_seconds}" if bin_seconds > 1 else "raw"
        pv = f"{processing}({name})" if bin_seconds > 1 else name
        params = {"pv": pv, "from": appliance_time(start), "to": appliance_time(end)}
        where = f"the Archiver Appliance at {self.url}"
        try:
            response = await self._client.get(DATA_PATH, params=params)
        except httpx.TimeoutException as exc:
            raise ArchiverError(
                f"{where} did not answer within {self.timeout:g} s for '{name}'; try a shorter "
                "range or raise archiver.archiver_appliance.timeout."
            ) from exc
        except httpx.HTTPError as exc:
            raise ArchiverError(
                f"Cannot reach {where} for '{name}' ({exc}); check "
                "archiver.archiver_appliance.url in the config."
            ) from exc
        if response.status_code == 404:
            raise ArchiverError(f"'{name}' is not archived by {where} (HTTP 404).")
        if response.status_code >= 400:
            detail = response.text.strip().replace("\n", " ")[:200]
            raise ArchiverError(
                f"{where} answered HTTP {response.status_code} for '{name}'"
                + (f": {detail}" if detail else ".")
            )
        try:
            payload = json.loads(response.content)
        except ValueError as exc:
            raise ArchiverError(f"{where} answered invalid JSON for '{name}': {exc}") from exc
        return _parse(name, payload, where, processing)


def _parse(name: str, payload: Any, where: str, processing: str) -> ArchiverSeries:
    if not isinstance(payload, list):
        raise ArchiverError(
            f"{where} answered an unexpected JSON shape for '{name}' (expected a list)."
        )
    if not payload:
        return ArchiverSeries(name, np.empty(0), np.empty(0), processing=processing)
    block = payload[0]
    if not isinstance(block, dict) or not isinstance(block.get("data", []), list):
        raise ArchiverError(f"{where} answered an unexpected JSON shape for '{name}'.")
    meta = block.get("meta") or {}
    samples = block.get("data") or []
    try:
        secs = np.fromiter((s["secs"] for s in samples), dtype=float, count=len(samples))
        nanos = np.fromiter((s.get("nanos", 0) for s in samples), dtype=float, count=len(samples))
        raw = [s["val"] for s in samples]
    except (KeyError, TypeError, ValueError) as exc:
        raise ArchiverError(
            f"{where} answered samples without secs/val for '{name}' ({exc})."
        ) from exc
    try:
        values = np.asarray(raw, dtype=float)
    except (TypeError, ValueError):
        values = np.asarray(raw, dtype=object)  # strings, waveforms of varying length
    precision = meta.get("PREC")
    try:
        prec = int(float(precision)) if precision not in (None, "") else None
    except (TypeError, ValueError):
        prec = None
    return ArchiverSeries(
        channel=name,
        timestamps=secs + nanos * 1e-9,
        values=values,
        units=str(meta.get("EGU") or ""),
        precision=prec,
        processing=processing,
    )
