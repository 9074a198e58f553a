"""What the headless commands share: exit codes, the database option, one-line errors, the
session runner and how a turn is reported.

The exit codes are defined here and only here (``EXIT_CODES_HELP`` is their --help text);
``turn_exit_code`` maps a turn's result to one of them.

Only light parts of the standard library are imported at module level (asyncio, 50 ms, is
imported where a session runs): ``--help`` and usage errors stay fast.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

PROG = "osprey-desktop"
EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_PENDING = 3
EXIT_ALREADY_ANSWERED = 4
EXIT_NOT_WRITTEN = 5
# Not codes of their own: a thread id that names nothing is a usage error, and a database that
# cannot be used (locked, disk full, damaged, permissions) is one of configuration.
EXIT_NO_THREAD = EXIT_USAGE
EXIT_STORAGE = EXIT_USAGE

EXIT_CODES_HELP = f"""exit codes:
  {EXIT_OK}  done: the turn answered (a rejected approval is an answer too)
  {EXIT_FAILED}  the turn failed: one line on stderr says why ("error" in --json)
  {EXIT_USAGE}  bad usage or configuration, no such thread, or the conversation
     database cannot be used (locked, disk full, damaged, permissions)
  {EXIT_PENDING}  an approval is pending: answer it with
     '{PROG} approve --thread ID yes|no'
  {EXIT_ALREADY_ANSWERED}  the approval was already answered: this answer was not applied
  {EXIT_NOT_WRITTEN}  an approved write did not fully happen: a channel was not sent, or its
     write is in doubt (read it back with '{PROG} verify --thread ID')"""


class HelpFormatter(argparse.HelpFormatter):
    """Wraps descriptions as usual but keeps a text laid out in lines (the exit-code table)."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if "\n" not in text:
            return super()._fill_text(text, width, indent)
        return "\n".join(indent + line for line in text.splitlines())


def add_db_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--db",
        metavar="PATH|URL",
        help="conversation database: a SQLite file, or a postgresql://USER@HOST:PORT/NAME URL "
        "that several consoles share (default: file_paths.checkpoint_db, i.e. "
        "<data folder>/threads.sqlite; the data folder follows $OSPREY_DESKTOP_DATA_DIR)",
    )


def fail(command: str | None, message: str, code: int = EXIT_FAILED) -> int:
    """Print ``osprey-desktop <command>: <message>`` on stderr and return ``code``."""
    where = f"{PROG} {command}" if command else PROG
    print(f"{where}: {message}", file=sys.stderr)
    return code


def print_json(value: Any) -> None:
    """Machine-readable output: indented JSON, anything unusual shown as text."""
    print(json.dumps(value, indent=2, default=str))


def quiet_logging() -> None:
    """Errors reach the operator as one line each; log records would repeat them as tracebacks."""
    if not logging.getLogger().handlers:
        logging.basicConfig(level=logging.CRITICAL, format="osprey-desktop: %(message)s")
        # A damaged saved state of the simulated ring is not an error, but the operator should
        # know why the ring came back at its nominal setpoints.
        logging.getLogger("osprey_desktop.connectors.sim_state").setLevel(logging.WARNING)


def database_path(db: str | None) -> Any:
    """The file ``--db`` (or the configuration) names, or a shared PostgreSQL database.

    Both have ``exists()`` (a PostgreSQL database always "exists"; a server that cannot be
    reached is reported when the session opens) and print as their location, the URL without
    its password.
    """
    from osprey_desktop.persistence.postgres import conversation_database

    return conversation_database(db)


def run_session(command: str, db: str | None, body: Callable[[Any], Awaitable[int]]) -> int:
    """Open the session on the database and run ``body(session)``.

    A database that cannot be used, found at any point (opening it, reading a checkpoint,
    writing one), is one line on stderr and ``EXIT_STORAGE``, never a traceback.
    """
    import asyncio

    from osprey_desktop.persistence import CheckpointDatabaseError
    from osprey_desktop.session import AgentSession

    quiet_logging()
    path = database_path(db)

    async def main() -> int:
        async with AgentSession.open(db_path=path) as session:
            return await body(session)

    try:
        return asyncio.run(main())
    except CheckpointDatabaseError as exc:
        return fail(command, str(exc), EXIT_STORAGE)


async def missing_thread(session: Any, command: str, thread_id: str, hint: str = "") -> int | None:
    """``EXIT_NO_THREAD`` (after saying so) when the thread is not in the session's database."""
    if await session.thread_exists(thread_id):
        return None
    return fail(
        command,
        f"no thread '{thread_id}' in {session.db_path}; list them with '{PROG} threads'{hint}",
        EXIT_NO_THREAD,
    )


def no_database(command: str, thread_id: str, path: Path) -> int:
    """``EXIT_NO_THREAD`` (after saying so) when there is no conversation database at all."""
    return fail(
        command,
        f"no thread '{thread_id}': there is no conversation database at {path} yet",
        EXIT_NO_THREAD,
    )


def print_pending(result: Any) -> None:
    """What is to be approved, then how to answer it (stderr keeps stdout for the request)."""
    pending = result.pending_approval or {}
    print(pending.get("user_message") or "(the approval request has no message)")
    print(f"\nthread: {result.thread_id}")
    print(
        f"approval pending: answer with '{PROG} approve --thread {result.thread_id} "
        "yes' or '... no'",
        file=sys.stderr,
    )


EXIT_ONLY_MESSAGE = "nothing to run: /exit ends an interactive session"


def turn_failure(result: Any) -> str | None:
    """Why the turn failed, or None when it did not.

    A turn fails in two ways: before or around the graph (``result.error``: a refused request,
    a crashed node, the step limit), or inside it, when the error node wrote the turn's answer
    (the state still has ``control_has_error``; ``control_error_info`` says what failed). A
    turn that ends waiting for an approval has not failed.
    """
    if result.error is not None:
        return str(result.error)
    state = result.state or {}
    if result.pending_approval is not None or not state.get("control_has_error"):
        return None
    info = state.get("control_error_info") or state.get("control_last_error") or {}
    return str(info.get("user_message") or "the request could not be completed")


def already_answered_message(result: Any) -> str | None:
    """Why an answer to an approval was refused because another came first, or None.

    The session's own message (who answered, when) is preferred when it gave one.
    """
    answered = getattr(result, "already_answered", None)  # absent from older TurnResults
    if answered is None:
        return None
    if result.error:
        return str(result.error)
    answer = answered.get("answer") if isinstance(answered, dict) else None
    detail = f" ({answer})" if answer else ""
    return (
        f"the approval on thread {result.thread_id} was already answered{detail}; "
        "this answer was not applied"
    )


def turn_exit_code(result: Any) -> int:
    """The exit code of a TurnResult: 4 already answered, 3 pending, 1 failed, 5 a write not
    sent or in doubt, else 0."""
    if getattr(result, "already_answered", None) is not None:
        return EXIT_ALREADY_ANSWERED
    if result.pending_approval is not None:
        return EXIT_PENDING
    if turn_failure(result) is not None:
        return EXIT_FAILED
    if unfinished_writes(result):
        return EXIT_NOT_WRITTEN
    return EXIT_OK


def unfinished_writes(result: Any) -> list[dict[str, Any]]:
    """This turn's write results whose channel was not sent or is in doubt."""
    state = getattr(result, "state", None) or {}
    steps = state.get("execution_step_results") or {}
    keys = {r.get("context_key") for r in steps.values() if isinstance(r, dict)}
    data = (state.get("capability_context_data") or {}).get("CHANNEL_WRITE_RESULTS") or {}
    return [
        r
        for key, entry in data.items()
        if key in keys
        for r in entry.get("results") or []
        if isinstance(r, dict) and r.get("outcome") in ("not_sent", "in_doubt")
    ]


def found_channels(result: Any) -> list[dict[str, Any]]:
    """The channels this turn found, each with its PV name and the list's own names for it
    (an ``in_context`` list's ``channel`` field, say), for scripts that score a finder."""
    state = getattr(result, "state", None) or {}
    steps = state.get("execution_step_results") or {}
    keys = {r.get("context_key") for r in steps.values() if isinstance(r, dict)}
    data = (state.get("capability_context_data") or {}).get("CHANNEL_ADDRESSES") or {}
    names = [n for key, entry in data.items() if key in keys for n in entry.get("channels") or []]
    if not names:
        return []
    try:
        from osprey_desktop.connectors import get_configured_channel_database

        database = get_configured_channel_database()
    except Exception:  # noqa: BLE001 - the names alone are still the answer
        database = None
    out = []
    for name in dict.fromkeys(names):
        record = database.get(name) if database is not None else None
        own = [s for s in (record.synonyms if record else ()) if s and " " not in s]
        out.append({"name": name, "list_names": own})
    return out


def report_turn(result: Any, command: str, as_json: bool, thread_known: bool = True) -> int:
    """Print a TurnResult for a person or a script; returns the exit code.

    ``thread_known=False`` when the turn stopped before its thread was created (a bad slash
    command on a new thread): no thread id is named, since there is nothing to continue.
    """
    code = turn_exit_code(result)
    failure = turn_failure(result)
    refused = already_answered_message(result)
    if as_json:
        data = result.to_dict()
        data["channels"] = found_channels(result)
        if not thread_known:
            data["thread_id"] = None
        if refused is not None:
            data["already_answered"] = result.already_answered
            data["error"] = data.get("error") or refused
        elif failure is not None:
            data["error"] = failure  # never null when the turn failed
        print_json(data)
        return code
    if refused is not None:
        return fail(command, refused, code)
    if result.error is not None and result.pending_approval is not None:
        fail(command, str(result.error))
        print_pending(result)
        return code
    if result.error is not None:
        where = f" (thread {result.thread_id})" if thread_known else ""
        return fail(command, f"{result.error}{where}", code)
    if result.message:
        print(result.message)
    if result.exit_requested:
        print(EXIT_ONLY_MESSAGE)
    if result.pending_approval is not None:
        print_pending(result)
        return code
    if result.response:
        print(result.response)
    if failure is not None:
        sys.stdout.flush()  # the error node's report first, then the one-line reason
        return fail(command, f"the turn failed: {failure} (thread {result.thread_id})", code)
    if result.response or result.is_state_only_update:
        sys.stdout.flush()  # the answer first, then the thread id, also when both go to a terminal
        print(f"thread: {result.thread_id}", file=sys.stderr)
    return code
