"""``ArchiverApplianceConnector``: history from an EPICS Archiver Appliance over its JSON API.

Endpoints, under the retrieval URL (``data_retrieval_url`` in the Appliance's appliances.xml,
``http://host:17665/retrieval``; a URL without ``/retrieval`` gets it appended):

* ``bpl/getMetadata?pv=NAME`` once per PV (then cached): the archived DBR type, so an enum is
  never averaged and a waveform is never binned as a number;
* ``data/getData.json`` for one PV, ``data/getDataForPVs.json`` (one ``pv=`` per channel) for
  several. That endpoint answers 404 for the whole batch when one PV is unknown, so on any HTTP
  error the client asks PV by PV and the error names the channel at fault;
* ``data/getDataAtTime?at=ISO`` (POST, a JSON list of names) for the value at a moment.

With ``max_points`` (about two per pixel of the plot's width) the server reduces the data:
numbers as ``optimized_N(pv)`` (raw when the range holds fewer than N samples, else N bins of
mean/std/min/max/count), waveforms as ``firstSample_S(pv)`` (one real waveform per S-second bin,
at most ``waveform_points``), enums and strings raw, then collapsed to their changes. Enum
labels come from ``enum_labels`` (the factory passes the live control system's DBR_CTRL
strings); without them an enum series carries its state indices and no labels.

Every failure (unreachable, timeout, HTTP 4xx/5xx, invalid JSON, unexpected shape) becomes an
``ArchiverError`` naming the channel; a range with no samples is an empty series.
"""

from __future__ import annotations

import asyncio
import json
import math
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import httpx
import numpy as np

from osprey_desktop.connectors.archiver_appliance_json import (
    PVType,
    collapse_repeats,
    parse_block,
    parse_sample_at,
    pv_type_from_metadata,
)
from osprey_desktop.connectors.archiver_base import (
    ArchiverConnector,
    ArchiverData,
    ArchiverSample,
    ArchiverSeries,
    checked_channels,
    checked_time_range,
    epoch_seconds,
)
from osprey_desktop.connectors.base import ArchiverError

DATA_PATH = "/data/getData.json"
MULTI_DATA_PATH = "/data/getDataForPVs.json"
AT_TIME_PATH = "/data/getDataAtTime"
METADATA_PATH = "/bpl/getMetadata"
VIEWER_PATH = "/ui/viewer/archViewer.html"

#: Where enum labels come from: a coroutine giving a PV's state strings (or None).
EnumLabelSource = Callable[[str], Awaitable[Sequence[str] | None]]


def retrieval_url(url: str) -> str:
    """The retrieval base URL of any of the forms an operator may paste.

    ``http://host:17665``, ``http://host:17665/retrieval`` (as appliances.xml writes it),
    either with a trailing slash, or a full ``.../retrieval/data/getData.json`` address.
    """
    base = url.strip().rstrip("/")
    for suffix in (DATA_PATH, "/data/getData.raw", MULTI_DATA_PATH):
        if base.endswith(suffix):
            base = base[: -len(suffix)]
    return base if base.endswith("/retrieval") else base + "/retrieval"


def viewer_url_for(url: str) -> str:
    """The Appliance's archViewer.html on the same server as the retrieval URL."""
    return retrieval_url(url) + VIEWER_PATH


def appliance_time(moment: datetime) -> str:
    """ISO 8601 in UTC with milliseconds and a Z, the form the Appliance expects."""
    utc = moment.astimezone(UTC)
    return utc.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _operator_name(pv: str) -> str:
    """``NAME`` of ``optimized_2000(NAME)``; a plain name stays as it is."""
    if pv.endswith(")") and "(" in pv:
        return pv[pv.index("(") + 1 : -1]
    return pv


class ArchiverApplianceConnector(ArchiverConnector):
    """Client of one Archiver Appliance; one instance per event loop (httpx clients are)."""

    kind = "archiver_appliance"
    #: A waveform history keeps at most this many waveforms: each one is a whole array.
    waveform_points = 100

    def __init__(
        self,
        url: str,
        timeout: float = 30.0,
        transport: httpx.AsyncBaseTransport | None = None,
        enum_labels: EnumLabelSource | None = None,
    ) -> None:
        self.url = retrieval_url(url)
        self.viewer_url = viewer_url_for(url)
        self.timeout = timeout
        self._transport = transport
        self._enum_labels = enum_labels
        self._client: httpx.AsyncClient | None = None
        self._types: dict[str, PVType] = {}
        self._missing: set[str] = set()  # getMetadata answered 404: not archived

    @property
    def where(self) -> str:
        return f"the Archiver Appliance at {self.url}"

    async def connect(self) -> None:
        if self._client is None:
            self._client = httpx.AsyncClient(timeout=self.timeout, transport=self._transport)

    async def disconnect(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            await client.aclose()

    # ----- history -----------------------------------------------------------------------
    async def get_data(
        self,
        channels: Sequence[str],
        start: datetime,
        end: datetime,
        max_points: int | None = None,
    ) -> ArchiverData:
        names = checked_channels(channels)
        t0, t1 = checked_time_range(start, end, max_points)
        await self.connect()
        types = dict(zip(names, await asyncio.gather(*map(self._pv_type, names)), strict=True))
        pvs = {name: self._expression(name, types[name], t1 - t0, max_points) for name in names}
        if len(names) > 1:
            blocks = await self._fetch_many(pvs, start, end)
        else:
            blocks = {names[0]: await self._fetch_one(names[0], pvs[names[0]], start, end)}
        data = ArchiverData(start=start, end=end)
        for name in names:
            processing = pvs[name][: pvs[name].index("(")] if pvs[name] != name else "raw"
            block = blocks.get(name)
            series = (
                parse_block(name, block, types[name], processing, self.where)
                if block is not None
                else ArchiverSeries(name, np.empty(0), np.empty(0), processing="raw")
            )
            if max_points is not None:
                series = collapse_repeats(series)
            data.series[name] = series
        return data

    def _expression(self, name: str, pv_type: PVType, span: float, max_points: int | None) -> str:
        """The ``pv=`` of a request: the name, or the name wrapped in a binning operator."""
        if max_points is None or pv_type.kind in ("enum", "string"):
            return name
        if pv_type.kind == "waveform":
            seconds = math.ceil(span / min(max_points, self.waveform_points))
            return f"firstSample_{seconds}({name})" if seconds > 1 else name
        return f"optimized_{max_points}({name})"

    async def _fetch_one(self, name: str, pv: str, start: datetime, end: datetime) -> Any:
        params = {"pv": pv, "from": appliance_time(start), "to": appliance_time(end)}
        payload = await self._get_json(DATA_PATH, params, name)
        if not isinstance(payload, list):
            raise ArchiverError(
                f"{self.where} answered an unexpected JSON shape for '{name}' (expected a list)."
            )
        return payload[0] if payload else None

    async def _fetch_many(
        self, pvs: dict[str, str], start: datetime, end: datetime
    ) -> dict[str, Any]:
        """One getDataForPVs.json request; PV by PV when the batch is refused."""
        params: list[tuple[str, str]] = [("pv", pv) for pv in pvs.values()]
        params += [("from", appliance_time(start)), ("to", appliance_time(end))]
        shown = ", ".join(pvs)
        response = await self._request("GET", MULTI_DATA_PATH, shown, params=params)
        if response.status_code >= 400:
            found = await asyncio.gather(
                *(self._fetch_one(name, pv, start, end) for name, pv in pvs.items())
            )
            return dict(zip(pvs, found, strict=True))
        payload = self._json(response, shown)
        if not isinstance(payload, list):
            raise ArchiverError(
                f"{self.where} answered an unexpected JSON shape for {shown} (expected a list)."
            )
        by_pv = {pv: name for name, pv in pvs.items()}
        by_name = {_operator_name(pv): name for name, pv in pvs.items()}
        blocks: dict[str, Any] = {}
        for block in payload:
            meta = block.get("meta") if isinstance(block, dict) else None
            label = str(meta.get("name", "")) if isinstance(meta, dict) else ""
            name = by_pv.get(label) or by_name.get(_operator_name(label))
            if name is None:
                raise ArchiverError(
                    f"{self.where} answered data for '{label}', which was not asked for "
                    f"(asked: {shown})."
                )
            blocks[name] = block
        return blocks

    # ----- a moment ----------------------------------------------------------------------
    async def values_at(
        self, channels: Sequence[str], moment: datetime
    ) -> dict[str, ArchiverSample]:
        names = checked_channels(channels)
        await self.connect()
        types = dict(zip(names, await asyncio.gather(*map(self._pv_type, names)), strict=True))
        params = {"at": appliance_time(moment), "includeProxies": "true"}
        shown = ", ".join(names)
        response = await self._request("POST", AT_TIME_PATH, shown, params=params, json=names)
        self._check_status(response, shown)
        payload = self._json(response, shown)
        if not isinstance(payload, dict):
            raise ArchiverError(
                f"{self.where} answered an unexpected JSON shape for {shown} at a time "
                "(expected an object keyed by PV name)."
            )
        unknown = [name for name in names if name in self._missing and name not in payload]
        if unknown:
            raise ArchiverError(
                f"{', '.join(repr(n) for n in unknown)} "
                f"{'is' if len(unknown) == 1 else 'are'} not archived by {self.where}."
            )
        asked = epoch_seconds(moment)
        return {
            name: parse_sample_at(name, payload[name], asked, types[name], self.where)
            for name in names
            if name in payload
        }

    # ----- metadata ----------------------------------------------------------------------
    async def _pv_type(self, name: str) -> PVType:
        """The archived type of a PV, asked once; unknown (not an error) when not answered."""
        known = self._types.get(name)
        if known is not None:
            return known
        try:
            response = await self._request("GET", METADATA_PATH, name, params={"pv": name})
        except ArchiverError:
            return PVType()  # the data request reports an unreachable server itself
        if response.status_code == 404:
            self._missing.add(name)
            return PVType()
        try:
            pv_type = pv_type_from_metadata(json.loads(response.content))
        except ValueError:
            return PVType()
        if response.status_code >= 400:
            return PVType()
        if pv_type.kind == "enum" and self._enum_labels is not None:
            # the live channel's states (the IOC's words) win; the archive's ENUM_n otherwise
            pv_type = replace(pv_type, labels=await self._labels(name) or pv_type.labels)
        self._types[name] = pv_type
        self._missing.discard(name)
        return pv_type

    async def _labels(self, name: str) -> tuple[str, ...]:
        assert self._enum_labels is not None
        try:
            labels = await self._enum_labels(name)
        except Exception:  # noqa: BLE001 - labels are a nicety; the states still plot as indices
            return ()
        return tuple(str(label) for label in labels or ())

    # ----- HTTP --------------------------------------------------------------------------
    async def _request(self, method: str, path: str, what: str, **kwargs: Any) -> httpx.Response:
        await self.connect()
        assert self._client is not None
        try:
            return await self._client.request(method, self.url + path, **kwargs)
        except httpx.TimeoutException as exc:
            raise ArchiverError(
                f"{self.where} did not answer within {self.timeout:g} s for '{what}'; try a "
                "shorter range or raise archiver.archiver_appliance.timeout."
            ) from exc
        except httpx.HTTPError as exc:
            raise ArchiverError(
                f"Cannot reach {self.where} for '{what}' ({exc}); check "
                "archiver.archiver_appliance.url in the config."
            ) from exc

    def _check_status(self, response: httpx.Response, what: str) -> None:
        if response.status_code == 404:
            raise ArchiverError(
                f"'{what}' is not archived by {self.where} (HTTP 404); check the name, or ask "
                "the archiver's administrator to archive it."
            )
        if response.status_code >= 400:
            detail = response.text.strip().replace("\n", " ")[:200]
            raise ArchiverError(
                f"{self.where} answered HTTP {response.status_code} for '{what}'"
                + (f": {detail}" if detail else ".")
            )

    def _json(self, response: httpx.Response, what: str) -> Any:
        try:
            return json.loads(response.content)  # accepts the bare NaN the Appliance writes
        except ValueError as exc:
            raise ArchiverError(f"{self.where} answered invalid JSON for '{what}': {exc}") from exc

    async def _get_json(self, path: str, params: dict[str, str], what: str) -> Any:
        response = await self._request("GET", path, what, params=params)
        self._check_status(response, what)
        return self._json(response, what)
