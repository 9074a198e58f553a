"""The ``osprey-desktop`` command line: a small argparse dispatcher over command modules.

Each command lives in ``osprey_desktop/cli/<name>.py`` and exposes ``register(subparsers)``
(adds its own sub-parser named after the command) and ``run(args) -> int``. Only the module
of the chosen command is imported, so a slow or missing module never costs the others, and
``--help`` lists every command from the table below without importing any of them.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType

from osprey_desktop import __version__
from osprey_desktop.cli.common import EXIT_CODES_HELP, EXIT_USAGE, PROG, HelpFormatter, fail

DEFAULT_COMMAND = "run"


@dataclass(frozen=True)
class Command:
    name: str
    module: str
    summary: str


COMMANDS: tuple[Command, ...] = (
    Command("run", "osprey_desktop.cli.run", "open the Osprey Desktop window (the default)"),
    Command("ask", "osprey_desktop.cli.ask", "send one request to the agent and print the answer"),
    Command("approve", "osprey_desktop.cli.approve", "answer the pending approval of a thread"),
    Command("verify", "osprey_desktop.cli.verify", "read back the writes in doubt on a thread"),
    Command("threads", "osprey_desktop.cli.threads", "list or delete conversation threads"),
    Command("audit", "osprey_desktop.cli.audit", "show the audit log of channel writes"),
    Command(
        "logbook", "osprey_desktop.cli.logbook", "list, show, search and retry logbook entries"
    ),
    Command("channels", "osprey_desktop.cli.channels", "check a channel list before using it"),
    Command("config", "osprey_desktop.cli.config", "show the merged configuration and its sources"),
    Command(
        "demo-ioc",
        "osprey_desktop.cli.demo_ioc",
        "serve the simulated machine over EPICS Channel Access on 127.0.0.1",
    ),
    Command(
        "install-desktop-entry",
        "osprey_desktop.cli.desktop_entry",
        "add Osprey Desktop to this user's application menu (or remove it)",
    ),
)


def _commands_by_name() -> dict[str, Command]:
    return {command.name: command for command in COMMANDS}


class CommandUnavailable(Exception):
    """The module of a listed command is not part of this build."""


def _global_options(parser: argparse.ArgumentParser, *, suppress_default: bool) -> None:
    default = argparse.SUPPRESS if suppress_default else None
    parser.add_argument(
        "--config",
        metavar="PATH",
        default=default,
        help="user configuration file merged over the defaults "
        "(default: $OSPREY_DESKTOP_CONFIG or ~/.config/osprey-desktop/config.yaml)",
    )
    parser.add_argument(
        "--verbose",
        action="store_true",
        default=default if suppress_default else False,
        help="log DEBUG records of Osprey Desktop to the log file "
        "($XDG_STATE_HOME/osprey-desktop/osprey-desktop.log) and warnings to stderr",
    )


def _first_word(argv: Sequence[str]) -> str | None:
    """The first word after the global options: a command, an option such as --help, or a typo."""
    pre = argparse.ArgumentParser(prog=PROG, add_help=False)
    _global_options(pre, suppress_default=False)
    _, rest = pre.parse_known_args(list(argv))
    return rest[0] if rest else None


def load_command_module(command: Command) -> ModuleType:
    """Import a command module; CommandUnavailable when the module itself is absent."""
    try:
        return importlib.import_module(command.module)
    except ModuleNotFoundError as exc:
        if exc.name == command.module or command.module.startswith(f"{exc.name}."):
            raise CommandUnavailable(command.name) from None
        raise


def build_parser(chosen: Command | None = None, module: ModuleType | None = None):
    """The full parser; only ``chosen`` gets its real arguments from its module."""
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Osprey Desktop: an agent assistant for accelerator control rooms. "
        f"Without a command, '{DEFAULT_COMMAND}' opens the window.",
        epilog=EXIT_CODES_HELP,
        formatter_class=HelpFormatter,
    )
    _global_options(parser, suppress_default=False)
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command in COMMANDS:
        if chosen is not None and command.name == chosen.name and module is not None:
            module.register(subparsers)
            sub = subparsers.choices.get(command.name)
            if sub is None:
                raise RuntimeError(f"{command.module}.register() added no '{command.name}' parser")
            # `--config` is accepted after the command too; SUPPRESS keeps a value given before.
            _global_options(sub, suppress_default=True)
        else:
            subparsers.add_parser(command.name, help=command.summary, add_help=False)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script and ``python -m osprey_desktop``; returns the exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    first = _first_word(argv)
    if first is None:  # nothing but global options: the default command
        first = DEFAULT_COMMAND
        argv.append(DEFAULT_COMMAND)
    chosen = _commands_by_name().get(first)
    module = None
    if chosen is not None:
        try:
            module = load_command_module(chosen)
        except CommandUnavailable:
            return fail(None, f"command '{chosen.name}' is not available in this build", EXIT_USAGE)
    args = build_parser(chosen, module).parse_args(argv)
    if module is None:  # not reached: argparse exits for --help, --version and unknown words
        return fail(None, "no command given; see --help", EXIT_USAGE)

    # Only now: --help, --version and usage errors never pay for the configuration's models.
    from osprey_desktop.config import ConfigError, load_config, set_config
    from osprey_desktop.config.posture import describe_posture, with_read_only
    from osprey_desktop.log_file import logging_to_file

    try:
        config = load_config(args.config)
    except ConfigError as exc:
        return fail(None, str(exc), EXIT_USAGE)
    if getattr(args, "read_only", False):  # --read-only of run, ask and approve
        config = with_read_only(config)
    set_config(config)
    with logging_to_file(verbose=args.verbose):
        log = logging.getLogger("osprey_desktop.cli")
        log.info(
            "%s %s %s (pid %d): %s",
            PROG,
            __version__,
            chosen.name,
            os.getpid(),
            describe_posture(config).summary,
        )
        log.debug("arguments: %s", vars(args))
        try:
            code = int(module.run(args) or 0)
        except ConfigError as exc:
            code = fail(None, str(exc), EXIT_USAGE)
        except KeyboardInterrupt:
            code = fail(None, "interrupted", 130)
        log.info("%s %s ended with exit code %d", PROG, chosen.name, code)
        return code
