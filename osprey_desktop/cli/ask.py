"""``osprey-desktop ask "request"``: one turn of the agent, headless.

Exit codes are those of ``cli.common`` (``EXIT_CODES_HELP``): 0 answered, 1 the turn failed,
2 bad usage, configuration, no such thread or an unusable database, 3 an approval is pending
(answer it with ``osprey-desktop approve``).
"""

from __future__ import annotations

import argparse
from typing import Any

from osprey_desktop.cli.common import (
    EXIT_CODES_HELP,
    EXIT_USAGE,
    HelpFormatter,
    add_db_option,
    fail,
    missing_thread,
    report_turn,
    run_session,
)
from osprey_desktop.cli.read_only import add_read_only_option


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "ask",
        help="send one request to the agent and print the answer",
        description="Run one turn of the agent and print its answer. When the turn needs an "
        "approval, print what is to be approved and the thread id, and exit with code 3; "
        "answer with 'osprey-desktop approve --thread ID yes|no'. Slash commands work as in "
        "the window ('/planning:on move HCM01 to 1.5 A').",
        epilog=EXIT_CODES_HELP,
        formatter_class=HelpFormatter,
    )
    parser.add_argument("request", nargs="+", help="the request (words are joined by spaces)")
    parser.add_argument("--thread", metavar="ID", help="continue this thread (default: a new one)")
    add_db_option(parser)
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument(
        "--explain",
        action="store_true",
        help="first print how the request was read: intent, targets, quantity, time, "
        "reference and the words that fit nowhere (to stderr with --json)",
    )
    add_read_only_option(parser)
    return parser


def run(args: argparse.Namespace) -> int:
    request = " ".join(args.request).strip()
    if not request:
        return fail("ask", "the request is empty; type what you want done", EXIT_USAGE)

    async def body(session: Any) -> int:
        if args.thread:
            hint = ", or leave out --thread to start a new one"
            if (code := await missing_thread(session, "ask", args.thread, hint)) is not None:
                return code
        if args.explain:
            await _explain(session, request, args.thread, args.json)
        result = await session.submit(request, args.thread)
        known = True
        if result.error is not None and not args.thread:
            # A request refused before it ran (e.g. "/bogus") never created its new thread.
            known = await session.thread_exists(result.thread_id)
        return report_turn(result, "ask", args.json, thread_known=known)

    return run_session("ask", args.db, body)


async def _explain(session: Any, request: str, thread: str | None, as_json: bool) -> None:
    """Print the parse of ``request`` (a follow-up: merged with the thread's last request)."""
    import json
    import sys

    from osprey_desktop.planners.builtin import explain_request

    previous = None
    if thread:
        values = await session.get_state_values(thread)
        texts = [
            str(m.content)
            for m in (values or {}).get("messages") or []
            if getattr(m, "type", "") == "human" and str(m.content).strip()
        ]
        previous = texts[-1] if texts else None
    parsed = explain_request(request, previous).explain()
    if as_json:
        print(json.dumps({"parse": parsed}), file=sys.stderr)
        return
    print("How the request was read:")
    for key in ("intent", "targets", "quantity", "time", "reference", "state", "unused_words"):
        value = parsed.get(key)
        shown = ", ".join(map(str, value)) if isinstance(value, list) else value
        print(f"  {key.replace('_', ' ') + ':':<14}{shown if shown not in (None, '') else '-'}")
    print(f"  {'planned from:':<14}{parsed['canonical']}")
    print()
