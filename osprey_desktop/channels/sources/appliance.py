"""Reading the PVs an Archiver Appliance archives (``archiver+http://host:17665``).

The management API lists the names: ``GET <base>/mgmt/bpl/getAllPVs?pv=GLOB&limit=-1`` (a
JSON list of strings; ``?pv=SR*`` in the URL narrows it). Each PV is then described from
``GET <base>/mgmt/bpl/getPVTypeInfo?pv=NAME`` (``units``, ``precision``, display limits)
and ``GET <base>/retrieval/bpl/getMetadata?pv=NAME`` (``DESC``, ``EGU``, ``PREC``), asked in
batches of ``BATCH`` names by a few threads at a time. A PV whose description cannot be read
is kept with its name alone (and the problem listed).

An archived PV says nothing about whether it may be written: every channel of this list is
read-only. (A facility that writes keeps its setpoints in a list that says so.)
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import parse_qsl, urlsplit, urlunsplit

import httpx

from osprey_desktop.channels.sources.errors import SourceError

__all__ = ["BATCH", "FORMAT", "fetch"]

FORMAT = "archiver"
BATCH = 200
_THREADS = 8


def fetch(base: str, *, timeout: float = 10.0) -> tuple[list, list]:
    """(channel drafts as dicts, problems as dicts) of the Appliance at ``base``."""
    parts = urlsplit(base)
    root = urlunsplit((parts.scheme, parts.netloc, _root_path(parts.path), "", ""))
    query = dict(parse_qsl(parts.query))
    pattern = query.get("pv", "*")
    problems: list[dict[str, str]] = []
    try:
        with httpx.Client(timeout=timeout, follow_redirects=True) as client:
            names = _names(client, root, pattern)
            drafts: list[dict[str, Any]] = []
            with ThreadPoolExecutor(max_workers=_THREADS) as pool:
                for start in range(0, len(names), BATCH):
                    batch = names[start : start + BATCH]
                    drafts += pool.map(lambda n: _describe(client, root, n, problems), batch)
    except httpx.HTTPStatusError as exc:
        raise SourceError(
            f"Archiver Appliance at {root} answered HTTP {exc.response.status_code} "
            f"for {exc.request.url.path}"
        ) from exc
    except (httpx.HTTPError, ValueError) as exc:
        raise SourceError(f"Archiver Appliance at {root} cannot be read: {exc}") from exc
    return drafts, problems


def _root_path(path: str) -> str:
    """The Appliance's root: a URL given as …/mgmt/bpl or …/retrieval is cut back to it."""
    path = path.rstrip("/")
    for tail in ("/mgmt/bpl", "/mgmt", "/retrieval/bpl", "/retrieval"):
        if path.endswith(tail):
            return path[: -len(tail)]
    return path


def _names(client: httpx.Client, root: str, pattern: str) -> list[str]:
    response = client.get(f"{root}/mgmt/bpl/getAllPVs", params={"pv": pattern, "limit": "-1"})
    response.raise_for_status()
    names = response.json()
    if not isinstance(names, list):
        raise SourceError(
            f"Archiver Appliance at {root}: getAllPVs answered {type(names).__name__}, not a "
            "list of PV names"
        )
    return list(dict.fromkeys(str(n).strip() for n in names if str(n).strip()))


def _describe(
    client: httpx.Client, root: str, name: str, problems: list[dict[str, str]]
) -> dict[str, Any]:
    draft: dict[str, Any] = {"name": name, "where": name, "writable": False}
    info = _json_or_none(client, f"{root}/mgmt/bpl/getPVTypeInfo", name, problems)
    meta = _json_or_none(client, f"{root}/retrieval/bpl/getMetadata", name, problems)
    info, meta = info or {}, meta or {}
    extra = info.get("extraFields") if isinstance(info.get("extraFields"), dict) else {}
    description = meta.get("DESC") or extra.get("DESC") or ""
    units = meta.get("EGU") or info.get("units") or extra.get("EGU") or ""
    precision = meta.get("PREC", info.get("precision"))
    draft["description"] = str(description).strip()
    draft["units"] = str(units).strip()
    try:
        if precision not in (None, ""):
            draft["precision"] = max(0, int(float(precision)))
    except (TypeError, ValueError):
        problems.append({"where": name, "message": f"precision '{precision}' is not a number"})
    low, high = _number(info.get("lowerDisplayLimit")), _number(info.get("upperDisplayLimit"))
    if low is not None and high is not None and low < high:
        draft["limits"] = {"display": [low, high]}
    return draft


def _json_or_none(
    client: httpx.Client, url: str, name: str, problems: list[dict[str, str]]
) -> dict[str, Any] | None:
    try:
        response = client.get(url, params={"pv": name})
    except httpx.HTTPError as exc:
        problems.append({"where": name, "message": f"{url.rsplit('/', 1)[-1]}: {exc}"})
        return None
    if response.status_code == 404:
        return None
    if response.status_code >= 400:
        problems.append(
            {"where": name, "message": f"{url.rsplit('/', 1)[-1]}: HTTP {response.status_code}"}
        )
        return None
    try:
        data = response.json()
    except ValueError:
        problems.append({"where": name, "message": f"{url.rsplit('/', 1)[-1]}: not JSON"})
        return None
    return data if isinstance(data, dict) else None


def _number(value: Any) -> float | None:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if number == number and abs(number) != float("inf") else None
