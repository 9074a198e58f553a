"""A loaded channel list and its finder kept on disk, so the next start does not build them.

Reading, validating and indexing a facility's list of 100,000 channels takes seconds; the
result is kept in the cache folder (``channels.cache``: ``indexes/``) under a key made of the
SHA-256 of the list file and of this package's own code (a new version never reads an old
index). ``load(file)`` answers the kept database (with the finders built for it) or None;
``keep(database)`` writes it again, in a background thread, when a finder was added.
Anything wrong with a kept file (cut short, from another version) reads as None: the list is
then loaded as if nothing was kept.
"""

from __future__ import annotations

import hashlib
import logging
import pickle
import sys
import threading
from functools import lru_cache
from pathlib import Path
from typing import Any

from osprey_desktop.channels.cache import cache_dir

__all__ = ["file_key", "keep", "load"]

log = logging.getLogger(__name__)
_FORMAT = 1
_writing = threading.Lock()


@lru_cache(maxsize=1)
def _code_stamp() -> str:
    """A hash of the code that builds what is kept (its classes are what is unpickled) and of
    the shipped vocabulary and unit names its finders were built with (a new word in either
    is read at once)."""
    from osprey_desktop.config.paths import resources_dir

    digest = hashlib.sha256(f"{_FORMAT} {sys.version}".encode())
    package = Path(__file__).resolve().parent
    for source in sorted(package.rglob("*.py")):
        digest.update(source.read_bytes())
    digest.update((package.parent / "language" / "units.py").read_bytes())
    vocabulary = resources_dir() / "channel_vocabulary.yaml"
    if vocabulary.is_file():
        digest.update(vocabulary.read_bytes())
    return digest.hexdigest()[:16]


def file_key(file: Path) -> str | None:
    """The key of a list file's kept index: its content's hash and the code's; None when the
    file cannot be read."""
    digest = hashlib.sha256()
    try:
        with file.open("rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
    except OSError:
        return None
    return f"{digest.hexdigest()[:32]}-{_code_stamp()}"


def _path(key: str) -> Path:
    return cache_dir("indexes") / f"{key}.pickle"


def load(file: Path) -> Any | None:
    """The database kept for ``file`` (its content as it is now), or None."""
    key = file_key(file)
    if key is None:
        return None
    path = _path(key)
    try:
        with path.open("rb") as handle:
            database = pickle.load(handle)
    except FileNotFoundError:
        return None
    except Exception as exc:  # noqa: BLE001 - a damaged or foreign file is no index
        log.warning("Kept channel index %s unreadable (%s); the list is loaded afresh", path, exc)
        return None
    database.index_key = key
    return database


def keep(database: Any, file: Path | None = None, *, wait: bool = False) -> threading.Thread | None:
    """Write ``database`` (with its finders) as the index of ``file`` (default: the file it
    was loaded from), in a thread that the process waits for at exit; ``wait``: here."""
    key = getattr(database, "index_key", None)
    if key is None and file is not None:
        key = file_key(file)
    if key is None:
        return None
    database.index_key = key
    thread = threading.Thread(target=_write, args=(database, _path(key)), name="channel-index")
    thread.start()
    if wait:
        thread.join()
    return thread


def _write(database: Any, path: Path) -> None:
    with _writing:
        partial = path.with_suffix(f".{threading.get_ident()}.part")
        try:
            with partial.open("wb") as handle:
                pickle.dump(database, handle, protocol=pickle.HIGHEST_PROTOCOL)
            partial.replace(path)
        except Exception as exc:  # noqa: BLE001 - an index not kept only costs the next start
            log.warning("Channel index not kept in %s: %s", path, exc)
            partial.unlink(missing_ok=True)
