"""Channel lists kept in services rather than files: ChannelFinder and the Archiver Appliance.

``control_system.channel_database`` may name a service instead of a file:

- ``channelfinder+https://cf.example.org:8443/ChannelFinder`` (optionally ``?~name=SR*`` and
  other ChannelFinder search parameters): every channel the directory holds, read page by page
  (``~size`` / ``~from``); its properties and tags describe the channel (``sources.channelfinder``);
- ``archiver+http://archiver.example.org:17665`` (optionally ``?pv=SR*``): every PV the
  Appliance archives (``mgmt/bpl/getAllPVs``), described by ``getPVTypeInfo`` and
  ``getMetadata`` (DESC, EGU, PREC), read in batches (``sources.appliance``).

What a service answered is cached (``channels.cache``, one file per URL) and used until it is
refreshed on demand (``osprey-desktop channels refresh``, or ``load(url, refresh=True)``):
starting the app never waits on a directory service that is slow or down once a copy exists.
"""

from __future__ import annotations

import importlib
import json
import logging
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from osprey_desktop.channels.cache import cache_dir, text_key
from osprey_desktop.channels.formats.draft import ChannelDraft, ListProblem
from osprey_desktop.channels.formats.listing import ChannelList, finish
from osprey_desktop.channels.sources.errors import SourceError

__all__ = ["SCHEMES", "SourceError", "is_source", "load_source", "source_cache_file"]

log = logging.getLogger(__name__)

#: URL scheme prefix -> the module that reads it (its FORMAT and fetch); imported when a
#: service is read, so that a start with a list file does not import the HTTP client
SCHEMES = {
    "channelfinder": "osprey_desktop.channels.sources.channelfinder",
    "archiver": "osprey_desktop.channels.sources.appliance",
}


def is_source(value: object) -> bool:
    """Whether a configured channel list names a service (``channelfinder+…``, ``archiver+…``)."""
    if not isinstance(value, str) or "+" not in value.split("://", 1)[0]:
        return False
    return value.split("+", 1)[0].lower() in SCHEMES


def source_cache_file(url: str) -> Path:
    return cache_dir("sources") / f"{text_key(url)}.json"


def load_source(url: str, *, refresh: bool = False, timeout: float = 10.0) -> ChannelList:
    """The channels of the service ``url`` names: the cached copy, or read now.

    ``refresh``: read the service again even when a copy exists (the copy is kept when the
    service cannot be reached, with a warning). A service that cannot be read and has no copy
    raises ``SourceError`` naming the URL and the reason.
    """
    if not is_source(url):
        raise SourceError(
            f"'{url}' is not a channel list service; expected channelfinder+http(s)://… or "
            "archiver+http(s)://…"
        )
    scheme, rest = url.split("+", 1)
    module = importlib.import_module(SCHEMES[scheme.lower()])
    name, reader = module.FORMAT, module.fetch
    if not urlsplit(rest).netloc:
        raise SourceError(f"Channel list service '{url}' names no host.")
    cached = source_cache_file(url)
    copy = None if refresh else _read_copy(cached)
    if copy is None:
        try:
            drafts_data, problems = reader(rest, timeout=timeout)
        except SourceError as exc:
            copy = _read_copy(cached)
            if copy is None:
                raise
            log.warning("%s; using the copy read at %s", exc, time.ctime(copy["fetched"]))
        else:
            copy = {
                "url": url,
                "fetched": time.time(),
                "channels": drafts_data,
                "problems": problems,
            }
            _write_copy(cached, copy)
    drafts = [_draft(entry, i) for i, entry in enumerate(copy["channels"])]
    problems = [ListProblem(p.get("where", ""), p.get("message", "")) for p in copy["problems"]]
    records = finish(drafts, problems)
    if not records:
        raise SourceError(f"Channel list service {url} lists no usable channel.")
    return ChannelList(url, name, records, problems)  # type: ignore[arg-type] # a URL, not a file


def _draft(entry: dict[str, Any], number: int) -> ChannelDraft:
    fields = {k: v for k, v in entry.items() if k in ChannelDraft.__dataclass_fields__}
    fields.setdefault("where", f"channel {number + 1}")
    return ChannelDraft(**fields)


def _read_copy(file: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("channels"), list):
        return None
    data.setdefault("problems", [])
    return data


def _write_copy(file: Path, copy: dict[str, Any]) -> None:
    partial = file.with_suffix(".part")
    try:
        partial.write_text(json.dumps(copy), encoding="utf-8")
        partial.replace(file)
    except OSError as exc:  # a read-only cache only costs the next start a fetch
        log.warning("Channel list copy not kept in %s: %s", file, exc)
