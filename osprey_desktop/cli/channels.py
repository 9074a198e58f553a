"""``osprey-desktop channels check FILE``: will this channel list load, and what is in it?

Reads the list as the app would (any format ``connectors.channel_formats`` knows) and prints
the format found, the channel count, the families, the setpoint/readback pairs, how many
channels are writable and every problem with its line or entry. Nothing is connected to and
nothing is written. Exit 0 when the list loads (problems or not), 2 when it cannot be loaded.
"""

from __future__ import annotations

import argparse
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
    check.add_argument("file", metavar="FILE", help="the channel list to check")
    check.add_argument("--json", action="store_true", help="print the summary as JSON")
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
    from osprey_desktop.channels.database import ChannelDatabaseError
    from osprey_desktop.channels.formats import read_channel_list

    try:
        listing = read_channel_list(args.file)
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
    return EXIT_OK
