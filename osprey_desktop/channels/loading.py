"""Loading a channel list into a ``ChannelDatabase``: any format, cached per file.

``load_channel_database(path)`` reads a list in any format ``channels.formats`` knows and
builds the database; ``get_channel_database()`` answers the configured list (or the shipped
one), loaded once per file and modification time.
"""

from __future__ import annotations

import gc
import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from osprey_desktop.channels import index_cache
from osprey_desktop.channels.database import ChannelDatabase
from osprey_desktop.channels.formats import ChannelList, read_channel_list
from osprey_desktop.channels.sources import is_source, load_source
from osprey_desktop.config import get_config, resolve_resource_file

__all__ = [
    "get_channel_database",
    "load_channel_database",
    "read_any_list",
    "refresh_channel_database",
]

log = logging.getLogger(__name__)


def read_any_list(path: str | Path, *, refresh: bool = False) -> ChannelList:
    """The list a file or a service (``channelfinder+…``, ``archiver+…``) holds."""
    if is_source(path):
        return load_source(str(path), refresh=refresh)
    return read_channel_list(path)


def load_channel_database(path: str | Path, *, refresh: bool = False) -> ChannelDatabase:
    """Read a channel list in any format ``channel_formats`` knows, or from a service
    (``channels.sources``; ``refresh``: read the service again); errors name the file.

    Problems with single channels of a facility's list (a row without a name, a limit that is
    not a number) are logged and those channels left out or kept read-only; the rest loads.
    ``osprey-desktop channels check FILE`` lists them all.
    """
    with _cyclic_gc_paused():
        listing = read_any_list(path, refresh=refresh)
        database = listing.to_database()
    if listing.problems:
        log.warning(
            "Channel database %s (%s): %d problem(s), e.g. %s. Run 'osprey-desktop channels "
            "check %s' for the full list.",
            listing.source,
            listing.format,
            len(listing.problems),
            listing.problems[0],
            listing.source,
        )
    return database


_gc_lock = threading.Lock()
_gc_pausers = 0
_gc_was_enabled = False


@contextmanager
def _cyclic_gc_paused() -> Iterator[None]:
    """No cyclic garbage collection while a list loads.

    Loading 100,000 channels makes a few hundred thousand objects that all live on; the
    collector's passes over them find nothing and cost a third of the load (1 s of 3). It is
    paused while any load runs (a count, for loads in several threads) and restored after.
    """
    global _gc_pausers, _gc_was_enabled
    with _gc_lock:
        if _gc_pausers == 0:
            _gc_was_enabled = gc.isenabled()
            gc.disable()
        _gc_pausers += 1
    try:
        yield
    finally:
        with _gc_lock:
            _gc_pausers -= 1
            if _gc_pausers == 0 and _gc_was_enabled:
                gc.enable()


_cache: dict[tuple[str, float], ChannelDatabase] = {}


def refresh_channel_database(url: str) -> ChannelDatabase:
    """The list of the service ``url`` read again now; later ``get_channel_database(url)``
    calls answer it."""
    database = load_channel_database(url, refresh=True)
    _cache[(url, 0.0)] = database
    return database


def get_channel_database(path: str | Path | None = None) -> ChannelDatabase:
    """The database at ``path`` (default: the configured or shipped one), cached per file
    (a service's list: per URL, see ``refresh_channel_database``)."""
    if path is None:
        configured = get_config().control_system.channel_database
        path = configured if is_source(configured) else None
        path = path or resolve_resource_file(configured, "channels.yaml")
    if is_source(path):
        key = (str(path), 0.0)
        if key not in _cache:
            _cache[key] = load_channel_database(path)
        return _cache[key]
    file = Path(path).expanduser().absolute()
    try:
        stamp = file.stat().st_mtime
    except OSError:
        stamp = -1.0
    key = (str(file), stamp)
    if key not in _cache:
        # a list loaded before is read back with its finders (channels.index_cache)
        with _cyclic_gc_paused():
            kept = index_cache.load(file)
        _cache[key] = kept if kept is not None else _loaded_to_keep(file)
    return _cache[key]


def _loaded_to_keep(file: Path) -> ChannelDatabase:
    database = load_channel_database(file)
    database.index_key = index_cache.file_key(file)  # kept once a finder is built for it
    return database
