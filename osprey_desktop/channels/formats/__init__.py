"""Channel lists in the formats facilities keep them, read into ``ChannelRecord``s.

``read_channel_list(path)`` tells the format from the file's type and content and reads it:

* Osprey Desktop YAML (``resources/channels.yaml``): ``channels:`` entries with ``name``;
* Osprey in_context JSON: ``channels`` entries with ``address`` / ``channel``, and templates;
* Osprey hierarchical JSON: ``hierarchy`` (levels, naming_pattern) and ``tree``;
* Osprey middle_layer JSON: MATLAB Middle Layer families with ``ChannelNames`` lists;
* CSV with a header row (``.csv``, ``.tsv``, ``.txt``, or text that is nothing else);
* EPICS IOC databases (``.db``, ``.vdb``, ``.template``, or text with ``record(…)``).

The three Osprey formats are recognised by structure whether written as JSON or YAML. One
module per format turns it into drafts; ``listing.finish`` makes records of them the same way
for every format. Problems with single channels are collected with their line or entry and
the rest loads; a file that cannot be read at all raises one ``ChannelDatabaseError`` that
names it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from osprey_desktop.channels.formats import (
    csv_list,
    epics_db,
    hierarchical,
    in_context,
    middle_layer,
    osprey_yaml,
)
from osprey_desktop.channels.formats.draft import ChannelDraft, ListProblem
from osprey_desktop.channels.formats.listing import ChannelList, finish
from osprey_desktop.channels.records import ChannelDatabaseError

__all__ = ["FORMATS", "ChannelList", "ListProblem", "read_channel_list"]

FORMATS = (
    osprey_yaml.FORMAT,
    in_context.FORMAT,
    hierarchical.FORMAT,
    middle_layer.FORMAT,
    csv_list.FORMAT,
    epics_db.FORMAT,
)
_YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml: 9x faster on 6k lines
_DB_SUFFIXES = frozenset({".db", ".vdb", ".template"})
_CSV_SUFFIXES = frozenset({".csv", ".tsv", ".txt"})
_YAML_SUFFIXES = frozenset({".yaml", ".yml"})

Reader = Callable[[Any, list[ListProblem]], list[ChannelDraft]]
_STRUCTURED: tuple[tuple[str, Callable[[Any], bool], Reader], ...] = (
    (hierarchical.FORMAT, hierarchical.is_hierarchical, hierarchical.read),
    (in_context.FORMAT, lambda d: in_context.entries_of(d) is not None, in_context.read),
    (middle_layer.FORMAT, middle_layer.is_middle_layer, middle_layer.read),
)


def read_channel_list(path: str | Path) -> ChannelList:
    """The channels of the list at ``path``, its format and its problems."""
    file = Path(path)
    problems: list[ListProblem] = []
    text = _text(file, problems)
    suffix = file.suffix.lower()
    stripped = text.lstrip()
    if suffix in _DB_SUFFIXES or (
        suffix not in _CSV_SUFFIXES | _YAML_SUFFIXES | {".json"} and epics_db.looks_like_db(text)
    ):
        return _finished(file, epics_db.FORMAT, epics_db.read, text, problems)
    if suffix in _CSV_SUFFIXES:
        return _finished(file, csv_list.FORMAT, csv_list.read, text, problems)
    if suffix == ".json" or (suffix not in _YAML_SUFFIXES and stripped[:1] in ("{", "[")):
        return _structured(file, _json(file, text), problems)
    data = _yaml(file, text, strict=suffix in _YAML_SUFFIXES)
    if isinstance(data, dict | list):
        return _structured(file, data, problems)
    return _finished(file, csv_list.FORMAT, csv_list.read, text, problems)


def _structured(file: Path, data: Any, problems: list[ListProblem]) -> ChannelList:
    if osprey_yaml.is_osprey_yaml(data):
        records = osprey_yaml.read(data, file, problems)
        return ChannelList(file, osprey_yaml.FORMAT, records, problems)
    for name, recognises, reader in _STRUCTURED:
        if recognises(data):
            return _finished(file, name, reader, data, problems)
    raise ChannelDatabaseError(
        f"Channel database {file} is not a channel list this app can read. Expected one of: "
        "'channels:' entries with 'name' (resources/channels.yaml), Osprey in_context "
        "('channels' with 'address'), hierarchical ('hierarchy' and 'tree') or middle_layer "
        "('ChannelNames' lists); CSV with a header row; or an EPICS .db file."
    )


def _finished(
    file: Path, name: str, reader: Reader, content: Any, problems: list[ListProblem]
) -> ChannelList:
    try:
        drafts = reader(content, problems)
    except ValueError as exc:  # the structure itself is wrong (a header, a hierarchy)
        raise ChannelDatabaseError(
            f"Channel database {file} ({name}) cannot be read: {exc}."
        ) from exc
    records = finish(drafts, problems)
    if not records:
        first = "; ".join(str(p) for p in problems[:3])
        raise ChannelDatabaseError(
            f"Channel database {file} ({name}) holds no usable channel"
            + (f": {first}" if first else ".")
        )
    return ChannelList(file, name, records, problems)


def _text(file: Path, problems: list[ListProblem]) -> str:
    try:
        raw = file.read_bytes()
    except FileNotFoundError as exc:
        raise ChannelDatabaseError(
            f"Channel database {file} does not exist. Set control_system.channel_database "
            "to an existing file, or null for the shipped one."
        ) from exc
    except OSError as exc:
        raise ChannelDatabaseError(f"Channel database {file} cannot be read: {exc}") from exc
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        problems.append(
            ListProblem("", f"not UTF-8 (byte {exc.start}); read as Latin-1, check odd letters")
        )
        return raw.decode("latin-1")


def _json(file: Path, text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ChannelDatabaseError(
            f"Channel database {file} is not valid JSON: line {exc.lineno}, column {exc.colno}: "
            f"{exc.msg}."
        ) from exc


def _yaml(file: Path, text: str, *, strict: bool) -> Any:
    try:
        return yaml.load(text, Loader=_YAML_LOADER)
    except yaml.YAMLError as exc:
        if not strict:
            return None  # not YAML: read as CSV
        raise ChannelDatabaseError(f"Channel database {file} cannot be read: {exc}") from exc
