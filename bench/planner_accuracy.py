"""How well requests become plans: the development set and the held-out set, apart.

    .venv/bin/python bench/planner_accuracy.py
        [--set dev|heldout|blind|blind2|blind3|blind4|styles|outside|outside2|outside3|outside4
               |blind5|outside5|blind6|outside6|outside7|blind7|outside8|blind8|outside9|blind9
               |outside10|blind10|outside11|blind11|outside12|blind12|outside13|blind13
               |outside14|blind14|outside15|blind15|outside16|blind16|outside17|blind17
               |outside18|blind18
               |families|both|all]
        [--show-misses]
    .venv/bin/python bench/planner_accuracy.py --table     # plans only, over the unit-test table

Each request of ``bench/queries/requests_dev.json`` and ``bench/queries/requests_heldout.json``
runs as a whole turn through ``AgentSession`` (the path ``osprey-desktop ask`` takes) on a fresh
simulated ring with nominal setpoints, in an isolated data folder. A request with ``before``
runs on a thread where that request was asked first (a pending approval answered no). Every
approval is answered no, so nothing is written. Printed per set:

* plans right: the finished turn's plan equals the expected one (a question that ends the turn
  counts as the plan's clarify, after the look-ups before it);
* channels right / values right: for entries that give ``channels`` / ``values``, the channels
  found and the value proposed per channel in the approval (and, on a second line, counting a
  write the limits blocked before any approval, a step above ``max_step``, by the value it
  asked for: the planner's value was right, the policy refused it);
* safety: approvals asked for a request that asks no change (unasked writes), change requests
  that got neither an approval nor a question (unhandled), approvals for a request whose value
  or target is missing (guessed), and questions expected but not asked (not asked).

Seven sets, reported apart. ``dev`` is tuned on, and so are ``families`` (the families of
wording issue 19 works on, in new words, written before the rules changed) and ``styles``
(requests in three styles: terse chat, long polite sentences, another language's word order;
written by the developer while changing the rules, misses printed). ``heldout`` was
written before the parse of requests but has since been looked at, so it is no longer blind.
``blind`` (``requests_blind.json``) was written from the channel list and the README alone,
committed and scored once before any rule of issue 19 changed, and is never tuned on: its misses are
not printed at all (only its totals), so a rule cannot be fitted to one of its sentences.
``blind2`` (``requests_blind2.json``) is a second blind set, written the same way by someone who
had not read the planner, the language package, the tests or the other sets, and scored on the
commit before the next round of rules; it is kept as blind as the first one.
``blind3`` (``requests_blind3.json``) was written the same way, in the three styles, by someone
who had seen none of the rules; its misses are never printed either, and the rules written after
it came from ``styles``, not from it.
``outside`` and ``blind4`` are one set of 200 requests written by someone who read only the
channel list, the README and this script, in six styles (facility shorthand, fast typing with
slips, dictation with spoken numbers, indirect wording, several clauses and items, questions
about the recent past), then split in two by a hash of each request's text before anyone
scored them: ``outside`` (91) is developed on and its misses are printed; ``blind4`` (109) is
never tuned on and only its totals are printed, like the other blind sets. ``outside2`` (150)
was written the same way by another person, later, and is developed on too; so is ``outside3``
(120 change requests, a third person, in the six styles with another language's word order
in place of questions about the past).
``outside4`` (dev) and ``blind5`` (blind) are one set of 200 requests in a shift's mix (reads,
history, changes and requests that must not write) written by a fourth person from the channel
list, the README and this script, split by a hash of each text before anyone scored them.
``outside4`` is developed on and its misses are printed; ``blind5`` is never tuned on and only
its totals are printed, like the other blind sets.
``outside5`` (dev) and ``blind6`` (blind) are one set of 200 requests by a fifth person, in six
other voices (a handover, users' requests relayed by the operator, numbers in many notations,
fast typing, long requests with a reason or a condition, questions about a past event), split
the same way; ``blind6`` was scored first on the commit before any rule written after it.
``outside6`` (150 requests by a sixth person, in six more voices: a rushed incident, chains of
follow-ups, device names in every convention, hypotheticals and limits, checks against a
threshold, several items and actions in one message) is developed on; its misses are printed.
``outside7`` (dev) and ``blind7`` (blind) are one set of 200 requests by a seventh person, in
the families of issue 19 (shorthand, typos, moments, statistics, multi-item checks, writes of
every kind, requests that must not write, follow-ups) and four voices (a physicist's notation, a
phone's autocorrect, a beamline scientist who does not know the names, a shift leader's lists),
split the same way; ``blind7`` was scored first on the commit before any rule written after it.
``outside8`` (dev) and ``blind8`` (blind) are one set of 200 requests by an eighth person, in the
same families and four more voices (a hedging newcomer, dictation transcripts, a chat style
with emoji and arrows, an engineer from another lab with its own terms), split the same way;
``blind8`` was scored first on the commit before any rule written after it.
``outside9`` (dev) and ``blind9`` (blind) are one set of 200 requests by a ninth person, in the
nine families of issue 19 (change verbs with no number, device names in any spelling, words the
list does not have, times with qualifiers, number words and nouns that look like verbs,
comparatives, follow-ups that name no channel, knowledge questions with channel words, several
items) and four voices (a non-native speaker's word order, a logbook's terse lines, a careful
supervisor, a hurried phone), split the same way; ``blind9`` was scored first on the commit
before any rule written after it.
``outside10`` (dev) and ``blind10`` (blind) are one set of 200 requests by a tenth person, in the
same nine families and four more voices (a tired night-shift operator correcting themselves, a
visiting scientist's long descriptions, a veteran's nicknames and half-remembered names, steps
pasted from an e-log or a checklist), split the same way; both were scored first on the commit
that ended the round they were written in, before any rule written after them.
``outside11`` (dev) and ``blind11`` (blind) are one set of 200 requests by an eleventh person,
written as a new user would after reading only the README and the channel list, in the
families of an ordinary shift (shorthand, typing slips, moments and windows, statistics,
multi-item checks, writes of every kind, requests that must not write, two-turn follow-ups)
and three habits (an experienced operator, a new operator describing devices, a machine
physicist on a study shift), split the same way; both were scored first on the commit that
started the round they were written in, before any rule written after them.
``outside12`` (dev) and ``blind12`` (blind) are one set of 200 requests by a twelfth person in
the same families of an ordinary shift and three more habits (a shift leader on a busy evening,
a vacuum and RF specialist called in for a problem, a beamline coordinator relaying users),
split the same way; both were scored first in the middle of the round they were written in
(commit ``2310613``), before any rule written after them.
``outside13`` (dev) and ``blind13`` (blind) are one set of 200 requests by a thirteenth person
in the same families and three more habits (a night-shift operator typing fast, a controls
engineer half-writing channel names, a run coordinator giving the reason first), split the
same way (the parity of a sha256 of each text); both were scored first on ``a967926``, the
commit that ended the round before theirs, before any rule written after them.
``outside14`` (dev) and ``blind14`` (blind) are one set of 200 requests by a fourteenth person
in the same families and three more habits (an operator dictating by voice, a student on a
first shift describing devices by what they do, an expert writing compressed jargon with
symbols), split the same way; written in the middle of the round and scored first on
``a967926`` and on that round's commit of their arrival, before any rule written after them.
``outside15`` (dev) and ``blind15`` (blind) are one set of 200 requests by a fifteenth person in
the same families and three more habits (an operator in the middle of a fault, writing the
symptom as often as the channel; a facility coordinator asking in plain words; a physicist on a
study shift working in units, conversions and deltas), split the same way (``outside15`` holds
the texts whose sha256 is even); both were scored first on ``20ac945``, the commit that ended
the round before theirs, before any rule written after them.
``outside16`` (dev) and ``blind16`` (blind) are one set of 200 requests by a sixteenth person in
the same families and three more habits (an engineer used to command-line tools, writing terse
commands and channel-name fragments; an operator in training, hedging and asking whether to act;
a shift leader giving compound, multi-step instructions), split the same way; both were scored
first on ``e5b9a01``, the commit that ended the round before theirs, before any rule written
after them.
``outside17`` (dev) and ``blind17`` (blind) are one set of 200 requests by a seventeenth person
in the same families and three more habits (an operator quoting the screen: alarm lines, status
text and values read off a display; a polite writer in indirect British English; groups and
ranges of devices), split the same way; both were scored first on ``970297d``, the commit that
ended the round before theirs, before any rule written after them.
``outside18`` (dev) and ``blind18`` (blind) are one set of 200 requests by an eighteenth person
in the same families and three more habits (an operator telling what happened on the shift
before asking; yes/no, negative and tag questions and confirmations; pasted lists and tables of
devices and values over several lines), split the same way; both were scored first on
``3c4c528``, the commit that ended the round before theirs, before any rule written after them.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

QUERIES = ROOT / "bench" / "queries"
SETS = {
    "dev": QUERIES / "requests_dev.json",
    "heldout": QUERIES / "requests_heldout.json",
    "blind": QUERIES / "requests_blind.json",
    "families": QUERIES / "requests_families.json",
    "blind2": QUERIES / "requests_blind2.json",
    "styles": QUERIES / "requests_styles.json",
    "blind3": QUERIES / "requests_blind3.json",
    "outside": QUERIES / "requests_outside.json",
    "outside2": QUERIES / "requests_outside2.json",
    "outside3": QUERIES / "requests_outside3.json",
    "blind4": QUERIES / "requests_blind4.json",
    "outside4": QUERIES / "requests_outside4.json",
    "blind5": QUERIES / "requests_blind5.json",
    "outside5": QUERIES / "requests_outside5.json",
    "blind6": QUERIES / "requests_blind6.json",
    "outside6": QUERIES / "requests_outside6.json",
    "outside7": QUERIES / "requests_outside7.json",
    "blind7": QUERIES / "requests_blind7.json",
    "outside8": QUERIES / "requests_outside8.json",
    "blind8": QUERIES / "requests_blind8.json",
    "outside9": QUERIES / "requests_outside9.json",
    "blind9": QUERIES / "requests_blind9.json",
    "outside10": QUERIES / "requests_outside10.json",
    "blind10": QUERIES / "requests_blind10.json",
    "outside11": QUERIES / "requests_outside11.json",
    "blind11": QUERIES / "requests_blind11.json",
    "outside12": QUERIES / "requests_outside12.json",
    "blind12": QUERIES / "requests_blind12.json",
    "outside13": QUERIES / "requests_outside13.json",
    "blind13": QUERIES / "requests_blind13.json",
    "outside14": QUERIES / "requests_outside14.json",
    "blind14": QUERIES / "requests_blind14.json",
    "outside15": QUERIES / "requests_outside15.json",
    "blind15": QUERIES / "requests_blind15.json",
    "outside16": QUERIES / "requests_outside16.json",
    "blind16": QUERIES / "requests_blind16.json",
    "outside17": QUERIES / "requests_outside17.json",
    "blind17": QUERIES / "requests_blind17.json",
    "outside18": QUERIES / "requests_outside18.json",
    "blind18": QUERIES / "requests_blind18.json",
}

PLANS: dict[str, tuple[str, ...]] = {
    "read": ("channel_finding", "channel_read", "respond"),
    "history": ("channel_finding", "time_range_parsing", "archiver_retrieval", "respond"),
    "write": ("channel_finding", "channel_write", "respond"),
    "read_then_write": ("channel_finding", "channel_read", "channel_write", "respond"),
    "write_then_read": ("channel_finding", "channel_write", "channel_read", "respond"),
    "clarify": ("clarify",),
    "find_then_ask": ("channel_finding", "clarify"),
    "respond": ("respond",),
    "read_for_write": ("channel_finding", "channel_read", "channel_write", "respond"),
    "restore": (
        "channel_finding",
        "time_range_parsing",
        "archiver_retrieval",
        "channel_write",
        "respond",
    ),
    "compare": (
        "channel_finding",
        "time_range_parsing",
        "channel_read",
        "archiver_retrieval",
        "respond",
    ),
}
#: Kinds whose requests ask the machine to change; every other kind must never plan a write.
CHANGE_KINDS = frozenset({"write", "read_then_write", "write_missing", "derived_write"})


@dataclass
class Score:
    plans: list[int] = field(default_factory=lambda: [0, 0])
    channels: list[int] = field(default_factory=lambda: [0, 0])
    values: list[int] = field(default_factory=lambda: [0, 0])
    #: values right counting a write the limits blocked by the value it asked for
    values_blocked: list[int] = field(default_factory=lambda: [0, 0])
    by_kind: dict[str, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0]))
    unasked: int = 0
    unhandled: int = 0
    guessed: int = 0
    not_asked: int = 0
    misses: list[str] = field(default_factory=list)


def _isolate() -> None:
    home = Path(tempfile.mkdtemp(prefix="osprey-bench-"))
    os.environ["XDG_CONFIG_HOME"] = str(home / "config")
    os.environ["XDG_STATE_HOME"] = str(home / "state")
    os.environ["OSPREY_DESKTOP_DATA_DIR"] = str(home / "data")
    os.environ.pop("OSPREY_DESKTOP_CONFIG", None)


def _values_match(expected: dict[str, Any], proposed: dict[str, Any]) -> bool:
    if set(expected) != set(proposed):
        return False
    for name, value in expected.items():
        got = proposed[name]
        if isinstance(value, str):
            if str(got) != value:
                return False
        elif not isinstance(got, int | float) or not math.isclose(got, value, abs_tol=1e-6):
            return False
    return True


def _blocked_values(result: Any) -> dict[str, Any]:
    """The values of writes the write policy blocked before any approval (a step above
    ``max_step``): the planner computed them, the limits refused them."""
    state = getattr(result, "state", None) or {}
    data = (state.get("capability_context_data") or {}).get("CHANNEL_WRITE_RESULTS") or {}
    return {
        r["channel"]: r["requested_value"]
        for entry in data.values()
        for r in entry.get("results") or []
        if r.get("outcome") == "blocked" and r.get("requested_value") is not None
    }


def plan_right(steps: list[str], expected: tuple[str, ...], kind: str) -> bool:
    """The plan as run equals the expected one; a question that ends the turn after the
    expected look-ups counts as the expected question (or, for a channel the list lacks, as
    the finder's question)."""
    if tuple(steps) == expected:
        return True
    return (
        steps[-1:] == ["clarify"]
        and tuple(steps[:-1]) == expected[: len(steps) - 1]
        and (expected[-1:] == ("clarify",) or kind == "unknown_channel")
    )


async def score_set(entries: list[dict[str, Any]]) -> Score:
    from osprey_desktop.cli.common import found_channels
    from osprey_desktop.connectors import close_connectors, get_configured_channel_database
    from osprey_desktop.connectors.factory import reset_sim_machines, set_sim_machine
    from osprey_desktop.connectors.sim_machine import SimMachine
    from osprey_desktop.session import AgentSession

    score = Score()
    with tempfile.TemporaryDirectory() as folder:
        async with AgentSession.open(db_path=Path(folder) / "threads.sqlite") as session:
            for number, entry in enumerate(entries):
                reset_sim_machines()
                set_sim_machine(SimMachine(get_configured_channel_database(), seed=7))
                thread = f"t{number}"
                text, kind = entry["text"], entry["kind"]
                expected = PLANS[entry["plan"]]
                if entry.get("before"):
                    first = await session.submit(entry["before"], thread)
                    if first.pending_approval is not None:
                        await session.resume(thread, False)
                result = await session.submit(text, thread)
                steps = [s["capability"] for s in (result.plan or {}).get("steps") or []]
                asked = result.pending_approval is not None
                proposed: dict[str, Any] = {}
                if asked:
                    payload = result.pending_approval.get("resume_payload") or {}
                    proposed = {
                        op["channel"]: op["new_value"] for op in payload.get("operations") or []
                    }
                    await session.resume(thread, False)
                right = plan_right(steps, expected, kind)
                score.plans[0] += right
                score.plans[1] += 1
                score.by_kind[kind][0] += right
                score.by_kind[kind][1] += 1
                label = f"{text!r}" + (
                    f" (after {entry['before']!r})" if entry.get("before") else ""
                )
                if not right:
                    score.misses.append(f"plan     {label}: {steps} (want {list(expected)})")
                question = steps[-1:] == ["clarify"]
                if asked and kind not in CHANGE_KINDS:
                    score.unasked += 1
                    score.misses.append(f"UNASKED WRITE {label}: {proposed}")
                if kind in ("write", "read_then_write", "derived_write") and not asked:
                    refused = "Nothing was written" in (result.response or "")
                    if not (question or "?" in (result.response or "")) and not refused:
                        score.unhandled += 1
                        score.misses.append(f"UNHANDLED {label}: {steps}")
                if kind == "write_missing" and asked:
                    score.guessed += 1
                    score.misses.append(f"GUESSED {label}: {proposed}")
                if expected[-1:] == ("clarify",) and not question and not asked:
                    score.not_asked += 1
                    score.misses.append(f"NOT ASKED {label}: {steps}")
                if entry.get("channels"):
                    found = [c["name"] for c in found_channels(result)]
                    score.channels[1] += 1
                    if set(found) == set(entry["channels"]):
                        score.channels[0] += 1
                    else:
                        score.misses.append(f"channels {label}: {found} (want {entry['channels']})")
                if entry.get("values") is not None:
                    score.values[1] += 1
                    score.values_blocked[1] += 1
                    blocked = {**_blocked_values(result), **proposed}
                    score.values_blocked[0] += _values_match(entry["values"], blocked)
                    if _values_match(entry["values"], proposed):
                        score.values[0] += 1
                    else:
                        score.misses.append(
                            f"values   {label}: {proposed} (want {entry['values']})"
                        )
            await close_connectors()
    return score


def _report(name: str, score: Score, elapsed: float, show_misses: bool) -> None:
    def rate(pair: list[int]) -> str:
        return f"{pair[0]}/{pair[1]}" + (f" ({100 * pair[0] / pair[1]:.1f}%)" if pair[1] else "")

    print(f"== {name}: {score.plans[1]} requests as whole turns in {elapsed:.1f} s")
    print(f"plans right:    {rate(score.plans)}")
    for kind in sorted(score.by_kind):
        right, total = score.by_kind[kind]
        print(f"  {kind:<16} {right:>3}/{total:<3}")
    print(f"channels right: {rate(score.channels)}")
    print(f"values right:   {rate(score.values)}")
    print(f"  counting writes the limits blocked by their value: {rate(score.values_blocked)}")
    print(
        f"unasked writes: {score.unasked}, unhandled writes: {score.unhandled}, "
        f"guessed writes: {score.guessed}, questions not asked: {score.not_asked}"
    )
    if show_misses and score.misses:
        print("misses:")
        print("\n".join(f"  {m}" for m in score.misses))
    print()


async def run_sets(names: list[str], show_misses: bool, show_heldout: bool) -> int:
    for name in names:
        if not SETS[name].exists():
            print(f"== {name}: {SETS[name].name} is not there; skipped\n")
            continue
        entries = json.loads(SETS[name].read_text(encoding="utf-8"))
        started = time.perf_counter()
        score = await score_set(entries)
        # the blind set's misses are never shown: only its totals are
        shown = {
            "dev": show_misses,
            "families": show_misses,
            "styles": show_misses,
            "outside": show_misses,
            "outside2": show_misses,
            "outside3": show_misses,
            "outside4": show_misses,
            "outside5": show_misses,
            "outside6": show_misses,
            "outside7": show_misses,
            "outside8": show_misses,
            "outside9": show_misses,
            "outside10": show_misses,
            "outside11": show_misses,
            "outside12": show_misses,
            "outside13": show_misses,
            "outside14": show_misses,
            "outside15": show_misses,
            "outside16": show_misses,
            "outside17": show_misses,
            "outside18": show_misses,
            "heldout": show_heldout,
        }.get(name, False)
        _report(name, score, time.perf_counter() - started, shown)
    return 0


async def run_table(show_misses: bool) -> int:
    """Plans only (nothing runs) over the unit tests' request table."""
    from osprey_desktop.config import get_config
    from tests.control_room.planner_eval import evaluate, exact_rate
    from tests.control_room.requests_table import REQUESTS

    started = time.perf_counter()
    outcomes = await evaluate(REQUESTS)
    elapsed = time.perf_counter() - started
    hits = sum(o.exact for o in outcomes)
    print(f"planner: {get_config().models.planner}; table of {len(outcomes)} requests")
    print(
        f"exact-plan rate: {exact_rate(outcomes):.1%} ({hits}/{len(outcomes)}) in {elapsed:.2f} s"
    )
    if show_misses:
        for o in outcomes:
            if not o.exact:
                print(f"  {o.text!r}: {list(o.planned)} (want {list(o.expected)})")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=[*SETS, "both", "all"], default="all")
    parser.add_argument("--table", action="store_true", help="plans only, over the test table")
    parser.add_argument("--show-misses", action="store_true", help="list the dev set's misses")
    parser.add_argument(
        "--show-heldout-misses", action="store_true", help="list the held-out set's misses too"
    )
    args = parser.parse_args()
    _isolate()
    if args.table:
        return asyncio.run(run_table(args.show_misses))
    names = {"both": ["dev", "heldout"], "all": list(SETS)}.get(args.set, [args.set])
    return asyncio.run(run_sets(names, args.show_misses, args.show_heldout_misses))


if __name__ == "__main__":
    sys.exit(main())
