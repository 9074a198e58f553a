"""Reading a ChannelFinder directory (``channelfinder+https://host/ChannelFinder``).

ChannelFinder's REST API answers ``GET <base>/resources/channels?~name=*&~size=N&~from=M``
with a JSON list of channels, each ``{"name", "owner", "properties": [{"name", "value"}],
"tags": [{"name"}]}``; the list is read page by page until a page comes back short. Other
search parameters in the URL (``?~name=SR*``, ``?~tag=archived``, a property ``area=SR``) are
passed on, so a facility can load one part of a large directory.

What a channel's properties say (names compared without case, ``_`` and ``-``):

- description: ``description``, ``desc``, ``recordDesc``;
- area: ``area``, ``section``, ``system``, ``location``, ``subsystem``: the first level of the
  description ("Storage Ring | horizontal corrector current"), so area words find it;
- device: ``device``, ``devName``, ``deviceName``; family: ``family``, ``deviceType``;
- units: ``EGU``, ``units``, ``unit``; record type: ``recordType`` (an output record is
  writable, as in an EPICS .db list); ``pvStatus: Inactive`` (recsync) leaves it out.

Tags are words the channel is found by (its synonyms). A channel's setpoint/readback role
comes from its name, as for every list.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl, urlsplit, urlunsplit

import httpx

from osprey_desktop.channels.formats.epics_db import OUTPUT_TYPES
from osprey_desktop.channels.sources.errors import SourceError

__all__ = ["FORMAT", "PAGE_SIZE", "fetch"]

FORMAT = "channelfinder"
PAGE_SIZE = 10_000
_MAX_PAGES = 1_000  # 10 million channels: a server that ignores ~from would loop forever

_DESCRIPTION = ("description", "desc", "recorddesc")
_AREA = ("area", "section", "system", "location", "subsystem")
_DEVICE = ("device", "devname", "devicename")
_FAMILY = ("family", "devicetype")
_UNITS = ("egu", "units", "unit")


def fetch(base: str, *, timeout: float = 10.0, page_size: int | None = None) -> tuple[list, list]:
    """(channel drafts as dicts, problems as dicts) of the directory at ``base``."""
    page_size = page_size or PAGE_SIZE
    parts = urlsplit(base)
    path = parts.path.rstrip("/")
    if not path.endswith("/resources/channels"):
        path = (path or "/ChannelFinder") + "/resources/channels"
    url = urlunsplit((parts.scheme, parts.netloc, path, "", ""))
    asked = [(k, v) for k, v in parse_qsl(parts.query) if k not in ("~size", "~from")]
    if not any(k == "~name" for k, _ in asked):
        asked.append(("~name", "*"))
    channels: list[dict[str, Any]] = []
    problems: list[dict[str, str]] = []
    try:
        with httpx.Client(timeout=timeout, follow_redirects=True) as client:
            for page in range(_MAX_PAGES):
                params = [*asked, ("~size", str(page_size)), ("~from", str(page * page_size))]
                response = client.get(url, params=params, headers={"Accept": "application/json"})
                response.raise_for_status()
                batch = response.json()
                if not isinstance(batch, list):
                    raise SourceError(
                        f"ChannelFinder at {url} answered {type(batch).__name__}, not a list "
                        "of channels; is the URL the service's base (…/ChannelFinder)?"
                    )
                for entry in batch:
                    draft = _draft(entry, len(channels), problems)
                    if draft is not None:
                        channels.append(draft)
                if len(batch) < page_size:
                    break
    except httpx.HTTPStatusError as exc:
        raise SourceError(
            f"ChannelFinder at {url} answered HTTP {exc.response.status_code}"
        ) from exc
    except (httpx.HTTPError, ValueError) as exc:
        raise SourceError(f"ChannelFinder at {url} cannot be read: {exc}") from exc
    return channels, problems


def _key(name: object) -> str:
    return str(name).lower().replace("_", "").replace("-", "")


def _draft(entry: Any, number: int, problems: list[dict[str, str]]) -> dict[str, Any] | None:
    where = f"channel {number + 1}"
    name = entry.get("name") if isinstance(entry, dict) else None
    if not isinstance(name, str) or not name.strip():
        problems.append({"where": where, "message": "a channel without a name; left out"})
        return None
    where = name
    properties: dict[str, str] = {}
    for item in entry.get("properties") or []:
        if isinstance(item, dict) and item.get("name") and item.get("value") is not None:
            properties[_key(item["name"])] = str(item["value"]).strip()
    if properties.get("pvstatus", "").lower() == "inactive":
        return None
    tags = [
        str(t["name"]) for t in entry.get("tags") or [] if isinstance(t, dict) and t.get("name")
    ]

    def first(keys: tuple[str, ...]) -> str:
        return next((properties[k] for k in keys if properties.get(k)), "")

    area, own = first(_AREA), first(_DESCRIPTION)
    draft: dict[str, Any] = {
        "name": name.strip(),
        "where": where,
        "description": " | ".join(p for p in (area, own) if p),
        "synonyms": tags,
        "units": first(_UNITS),
    }
    if first(_DEVICE):
        draft["device"] = first(_DEVICE)
    if first(_FAMILY):
        draft["family"] = first(_FAMILY)
    record_type = properties.get("recordtype")
    if record_type:
        draft["writable"] = record_type in OUTPUT_TYPES
        if not draft["writable"]:
            draft["kept_read_only"] = True
    return draft
