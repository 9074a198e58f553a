"""``osprey-desktop channels``: channel lists and what channel finding learned.

- ``channels check LIST``: will this channel list load, and what is in it? Reads the list as
  the app would (a file in any format ``channels.formats`` knows, or a service:
  ``channelfinder+https://…``, ``archiver+http://…``) and prints the format found, the channel
  count, the families, the setpoint/readback pairs, how many channels are writable and every
  problem with its line or entry. Nothing is written. Exit 0 when the list loads (problems or
  not), 2 when it cannot be loaded. Output cut short by a pager or ``head`` is no error.
- ``channels refresh [URL]``: read a service's list again (default: the configured one) and
  keep the new copy for the next start.
- ``channels aliases [--remove PHRASE]``: the facility aliases learned from answered
  clarifications (``channels.aliases``), and removing one.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from osprey_desktop.cli.common import EXIT_OK, EXIT_USAGE, fail, print_json

SHOWN_PROBLEMS = 50
SHOWN_FAMILIES = 20


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "channels",
        help="check a channel list before using it",
        description="Work with channel lists (control_system.channel_database).",
    )
    actions = parser.add_subparsers(dest="channels_action", metavar="ACTION", required=True)
    check = actions.add_parser(
        "check",
        help="validate and summarise a channel list",
        description="Read a channel list as the app would and summarise it: the format "
        "detected (Osprey Desktop YAML, Osprey in_context / hierarchical / middle_layer JSON, "
        "CSV, EPICS .db), channels per family, setpoint/readback pairs, writable channels and "
        "every problem by line or entry. Exit 0 when it loads, 2 when it cannot.",
    )
    check.add_argument(
        "file", metavar="LIST", help="the channel list to check: a file or a service URL"
    )
    check.add_argument("--json", action="store_true", help="print the summary as JSON")
    refresh = actions.add_parser(
        "refresh",
        help="read a channel list service again",
        description="Read a ChannelFinder or Archiver Appliance list again and keep the copy "
        "(the app uses the copy until the next refresh).",
    )
    refresh.add_argument(
        "url", nargs="?", metavar="URL", help="the service (default: the configured list)"
    )
    aliases = actions.add_parser(
        "aliases",
        help="list or remove the aliases learned from answered questions",
        description="The facility aliases channel finding learned when an operator answered "
        "which channel a phrase means; they live in aliases.yaml beside the user config.",
    )
    aliases.add_argument("--remove", metavar="PHRASE", help="forget the alias of PHRASE")
    aliases.add_argument("--json", action="store_true", help="print them as JSON")
    return parser


def format_summary(summary: dict[str, Any]) -> str:
    """The summary as lines a person reads: counts first, then the problems."""
    roles = summary["roles"]
    lines = [
        f"Channel list {summary['file']}",
        f"  format:    {summary['format']}",
        f"  channels:  {summary['channels']} ({summary['devices']} devices)",
        f"  roles:     {roles['setpoint']} setpoints, {roles['readback']} readbacks, "
        f"{roles['monitor']} monitors",
        f"  pairs:     {summary['pairs']} setpoint/readback pairs"
        + (
            f" ({summary['setpoints_without_readback']} setpoints without a readback)"
            if summary["setpoints_without_readback"]
            else ""
        ),
        f"  writable:  {summary['writable']}",
        "  families:",
    ]
    families = list(summary["families"].items())
    width = max((len(name) for name, _ in families[:SHOWN_FAMILIES]), default=0)
    lines += [f"    {name:<{width}}  {count}" for name, count in families[:SHOWN_FAMILIES]]
    if len(families) > SHOWN_FAMILIES:
        rest = sum(count for _, count in families[SHOWN_FAMILIES:])
        lines.append(f"    … {len(families) - SHOWN_FAMILIES} more families, {rest} channels")
    problems = summary["problems"]
    lines.append(f"problems: {len(problems) or 'none'}")
    for problem in problems[:SHOWN_PROBLEMS]:
        where = f"{problem['where']}: " if problem["where"] else ""
        lines.append(f"  {where}{problem['message']}")
    if len(problems) > SHOWN_PROBLEMS:
        lines.append(f"  … {len(problems) - SHOWN_PROBLEMS} more (--json lists them all)")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    try:
        if args.channels_action == "refresh":
            return _refresh(args)
        if args.channels_action == "aliases":
            return _aliases(args)
        return _check(args)
    except BrokenPipeError:
        # the reader (head, a pager) stopped early: what it read is the answer, not an error
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_OK


def _check(args: argparse.Namespace) -> int:
    from osprey_desktop.channels.loading import read_any_list
    from osprey_desktop.channels.records import ChannelDatabaseError

    try:
        listing = read_any_list(args.file)
        listing.to_database()  # what the app builds: a list it refuses must not pass here
    except ChannelDatabaseError as exc:
        if args.json:
            print_json({"file": args.file, "loads": False, "error": str(exc)})
        return fail("channels check", str(exc), EXIT_USAGE)
    summary = {"loads": True, **listing.summary()}
    if args.json:
        print_json(summary)
    else:
        print(format_summary(summary))
    sys.stdout.flush()
    return EXIT_OK


def _refresh(args: argparse.Namespace) -> int:
    from osprey_desktop.channels.loading import refresh_channel_database
    from osprey_desktop.channels.records import ChannelDatabaseError
    from osprey_desktop.channels.sources import is_source
    from osprey_desktop.config import get_config

    url = args.url or get_config().control_system.channel_database
    if not is_source(url):
        return fail(
            "channels refresh",
            f"'{url}' is a file, read afresh whenever it changes; refresh is for a "
            "channelfinder+… or archiver+… list",
            EXIT_USAGE,
        )
    try:
        database = refresh_channel_database(url)
    except ChannelDatabaseError as exc:
        return fail("channels refresh", str(exc), EXIT_USAGE)
    print(f"{url}: {len(database)} channels read")
    return EXIT_OK


def _aliases(args: argparse.Namespace) -> int:
    from osprey_desktop.channels.aliases import AliasStore

    store = AliasStore.default()
    if args.remove:
        if not store.remove(args.remove):
            return fail("channels aliases", f"no alias for '{args.remove}' in {store.path}")
        print(f"removed the alias of '{args.remove}' from {store.path}")
        return EXIT_OK
    entries = store.entries()
    if args.json:
        print_json({"file": str(store.path), "aliases": [e.to_dict() for e in entries]})
        return EXIT_OK
    if not entries:
        print(f"no aliases learned yet ({store.path})")
        return EXIT_OK
    print(f"aliases in {store.path}:")
    for entry in entries:
        print(f"  '{entry.phrase}' -> {', '.join(entry.channels)}  ({entry.learned})")
    return EXIT_OK
