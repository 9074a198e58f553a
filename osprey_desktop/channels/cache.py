"""Where channel lists keep what they derive: the per-user cache folder (XDG on Linux).

``cache_dir()`` is ``$OSPREY_DESKTOP_CACHE_DIR``, else ``$XDG_CACHE_HOME/osprey-desktop``
(``~/.cache/osprey-desktop``; ``~/Library/Caches`` on macOS, ``%LOCALAPPDATA%`` on Windows).
Everything in it may be deleted at any time: it is built again on the next load.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

__all__ = ["CACHE_ENV_VAR", "cache_dir", "text_key"]

CACHE_ENV_VAR = "OSPREY_DESKTOP_CACHE_DIR"


def cache_dir(kind: str) -> Path:
    """The cache folder for one kind of derived data ("indexes", "sources"), created."""
    own = os.environ.get(CACHE_ENV_VAR)
    if own:
        base = Path(own).expanduser()
    elif sys.platform == "win32":
        local = os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local"
        base = Path(local) / "osprey-desktop" / "cache"
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches" / "osprey-desktop"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "osprey-desktop"
    folder = base / kind
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def text_key(text: str) -> str:
    """A file-name-safe key for a text (a URL, a path): its SHA-256, hex."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
