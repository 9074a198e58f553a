"""Facility aliases learned from the operator: "the main quad" means these channels.

When channel finding asks which channels a phrase means and offers candidates, the question is
remembered (``remember_question``); when the operator's next request names some of those
candidates, the choice is kept as an alias (``learn_from_answer``) in a YAML file beside the
user config (``channel_aliases.yaml``), for that channel list only. The next request with the
same phrase is answered with the alias, and the answer says so. The file is meant to be
read and edited by people; ``osprey-desktop channels aliases`` lists the aliases and removes
one (``--remove PHRASE``).

File layout::

    # comment kept by hand edits is not preserved on the next write
    aliases:
      - phrase: main quad current
        channels: [SR:MAG:QF:01:CURRENT:RB]
        list: /path/to/channels.json        # the channel list it was learned on
        learned: 2026-11-26T11:40:00+00:00
"""

from __future__ import annotations

import logging
import os
import re
import threading
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import yaml

from osprey_desktop.config.paths import platform_config_dir

__all__ = [
    "ALIASES_ENV_VAR",
    "AliasEntry",
    "AliasStore",
    "learn_from_answer",
    "phrase_key",
    "remember_question",
]

log = logging.getLogger(__name__)

ALIASES_ENV_VAR = "OSPREY_DESKTOP_CHANNEL_ALIASES"
_WORD = re.compile(r"[a-z0-9]+(?:[:._-][a-z0-9]+)*")


def phrase_key(phrase: str) -> str:
    """A phrase as aliases compare it: lower case, words only, single spaces."""
    return " ".join(_WORD.findall(phrase.lower()))


@dataclass(frozen=True)
class AliasEntry:
    phrase: str
    channels: tuple[str, ...]
    list: str
    learned: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "phrase": self.phrase,
            "channels": list(self.channels),
            "list": self.list,
            "learned": self.learned,
        }


class AliasStore:
    """The aliases file: read on each lookup when it changed, written whole on each change."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._stamp: float | None = None
        self._entries: list[AliasEntry] = []

    @classmethod
    def default(cls) -> AliasStore:
        """``$OSPREY_DESKTOP_CHANNEL_ALIASES``, else ``channel_aliases.yaml`` in the user
        config folder."""
        own = os.environ.get(ALIASES_ENV_VAR)
        path = Path(own).expanduser() if own else platform_config_dir() / "channel_aliases.yaml"
        store = _STORES.get(path)
        if store is None:
            store = _STORES[path] = cls(path)
        return store

    def entries(self) -> list[AliasEntry]:
        with self._lock:
            self._load()
            return list(self._entries)

    def lookup(self, phrase: str, source: str) -> AliasEntry | None:
        """The alias of ``phrase`` learned on the list ``source``, or None."""
        key = phrase_key(phrase)
        if not key:
            return None
        return next(
            (e for e in self.entries() if e.list == source and phrase_key(e.phrase) == key), None
        )

    def add(self, phrase: str, channels: list[str], source: str) -> AliasEntry:
        entry = AliasEntry(
            phrase_key(phrase),
            tuple(dict.fromkeys(channels)),
            source,
            datetime.now(UTC).isoformat(timespec="seconds"),
        )
        with self._lock:
            self._load()
            kept = [
                e
                for e in self._entries
                if not (e.list == source and phrase_key(e.phrase) == entry.phrase)
            ]
            self._entries = [*kept, entry]
            self._save()
        return entry

    def remove(self, phrase: str) -> bool:
        """Forget every alias of ``phrase`` (on any list); False when there was none."""
        key = phrase_key(phrase)
        with self._lock:
            self._load()
            kept = [e for e in self._entries if phrase_key(e.phrase) != key]
            if len(kept) == len(self._entries):
                return False
            self._entries = kept
            self._save()
        return True

    def _load(self) -> None:
        try:
            stamp = self.path.stat().st_mtime
        except OSError:
            self._stamp, self._entries = None, []
            return
        if stamp == self._stamp:
            return
        self._stamp = stamp
        try:
            data = yaml.safe_load(self.path.read_text(encoding="utf-8")) or {}
        except (OSError, yaml.YAMLError) as exc:
            log.warning("Channel aliases %s cannot be read (%s); none are used", self.path, exc)
            self._entries = []
            return
        entries = []
        for item in data.get("aliases") or [] if isinstance(data, dict) else []:
            if not isinstance(item, dict) or not item.get("phrase") or not item.get("channels"):
                log.warning(
                    "Channel aliases %s: entry %r is not phrase + channels", self.path, item
                )
                continue
            channels = item["channels"]
            channels = [channels] if isinstance(channels, str) else list(channels)
            entries.append(
                AliasEntry(
                    str(item["phrase"]),
                    tuple(str(c) for c in channels),
                    str(item.get("list") or ""),
                    str(item.get("learned") or ""),
                )
            )
        self._entries = entries

    def _save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        header = (
            "# Channel aliases learned from answered questions (osprey-desktop channels "
            "aliases).\n# Review, edit or delete entries freely; each applies to its list only.\n"
        )
        body = yaml.safe_dump(
            {"aliases": [e.to_dict() for e in self._entries]}, sort_keys=False, allow_unicode=True
        )
        partial = self.path.with_suffix(".part")
        partial.write_text(header + body, encoding="utf-8")
        partial.replace(self.path)
        self._stamp = self.path.stat().st_mtime


_STORES: dict[Path, AliasStore] = {}


@dataclass(frozen=True)
class _Question:
    phrase: str
    candidates: frozenset[str]
    source: str


_open_questions: dict[tuple[str, str, str], _Question] = {}
_questions_lock = threading.Lock()


def remember_question(
    phrase: str, candidates: list[str], source: str, thread: str | None = None
) -> None:
    """Channel finding asked which of ``candidates`` ``phrase`` means, on the list ``source``,
    in the conversation ``thread``."""
    if phrase_key(phrase) and candidates:
        with _questions_lock:
            _open_questions[_question_key(source, thread)] = _Question(
                phrase, frozenset(candidates), source
            )


def _question_key(
    source: str, thread: str | None, store: AliasStore | None = None
) -> tuple[str, str, str]:
    """A question is answered on its list, in its own conversation (a request in another
    thread answers nothing), for the aliases file it would be kept in."""
    return str((store or AliasStore.default()).path), source, thread or ""


def learn_from_answer(
    found: list[str], source: str, store: AliasStore | None = None, thread: str | None = None
) -> AliasEntry | None:
    """The operator's request after a question, in the same ``thread``, found ``found``: when
    each is (or is named by) a candidate offered, the asked phrase becomes their alias. The
    question is closed either way."""
    with _questions_lock:
        question = _open_questions.pop(_question_key(source, thread, store), None)
    if question is None or not found:
        return None
    offered = [phrase_key(c) for c in question.candidates]
    if not all(any(c and c in phrase_key(f) for c in offered) for f in found):
        return None  # not an answer to the question: a request of its own
    store = store or AliasStore.default()
    try:
        return store.add(question.phrase, found, source)
    except OSError as exc:
        log.warning("Channel alias for '%s' not kept: %s", question.phrase, exc)
        return None
