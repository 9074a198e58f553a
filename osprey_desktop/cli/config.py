"""``osprey-desktop config --show``: the merged configuration and where each value came from.

Every key is printed on one line, dotted, with its value and its source: the shipped defaults,
the site file (``$OSPREY_DESKTOP_SITE_CONFIG`` or ``/etc/xdg/osprey-desktop/config.yaml``) or the
user file; a key the site locks says so, and a user value a lock kept out is shown beside it.
Nothing is connected to. ``--json`` prints the same as a list of objects.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from osprey_desktop.cli.common import EXIT_OK, print_json


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "config",
        help="show the merged configuration and where each value came from",
        description="Print every configuration key with its value and its source: the "
        "shipped defaults, the site file (locked keys marked) or your file.",
    )
    parser.add_argument(
        "--show",
        action="store_true",
        help="print the merged configuration (the default action)",
    )
    parser.add_argument("--json", action="store_true", help="print the keys as JSON")
    return parser


def _flatten(data: Any, prefix: str = "") -> list[tuple[str, Any]]:
    if isinstance(data, dict) and data:
        out: list[tuple[str, Any]] = []
        for key, value in data.items():
            out.extend(_flatten(value, f"{prefix}.{key}" if prefix else str(key)))
        return out
    return [(prefix, data)]


def config_rows(layers: Any) -> list[dict[str, Any]]:
    """One row per key of the merged configuration: key, value, source, file, locked."""
    ignored = dict(pair for key, value in layers.overridden for pair in _flatten(value, key))
    rows = []
    for key, value in _flatten(layers.config.model_dump(mode="json")):
        source = layers.source_of(key)
        row: dict[str, Any] = {
            "key": key,
            "value": value,
            "source": source,
            "file": str(layers.files.get(source, layers.files["default"])),
            "locked": layers.is_locked(key),
        }
        if key in ignored:
            row["ignored_user_value"] = ignored[key]
        rows.append(row)
    return rows


def format_rows(rows: list[dict[str, Any]], layers: Any) -> str:
    lines = ["Configuration files, lowest first:"]
    for source in ("default", "site", "user"):
        path = layers.files.get(source)
        lines.append(f"  {source:<8} {path if path is not None else '(none)'}")
    if layers.locked:
        lines.append(f"Locked by the site file: {', '.join(layers.locked)}")
    lines.append("")
    width = max(len(r["key"]) for r in rows)
    for row in rows:
        where = row["source"] + (", locked" if row["locked"] else "")
        if "ignored_user_value" in row:
            shown = json.dumps(row["ignored_user_value"])
            where += f"; your {shown} is ignored"
        lines.append(f"{row['key']:<{width}}  {json.dumps(row['value'])}  ({where})")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from osprey_desktop.config.loader import load_config_layers

    layers = load_config_layers(args.config)
    rows = config_rows(layers)
    if args.json:
        print_json(rows)
    else:
        print(format_rows(rows, layers))
    return EXIT_OK
