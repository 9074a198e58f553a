"""Which requests are logbook entries, searches or undos, and which writes an undo restores
(refused when not verified, written again since, or moved since)."""

from __future__ import annotations

import pytest

from osprey_desktop.logbook.entries import Fact, compose_entry
from osprey_desktop.logbook.history import UndoRefused, history, moved_since, undo_targets
from osprey_desktop.logbook.requests import (
    is_entry_request,
    is_search_request,
    parse_undo,
    search_since,
    search_words,
)
from osprey_desktop.safety.audit import AuditEntry

HCM01, HCM02 = "SR01C:HCM01:Current:SP", "SR01C:HCM02:Current:SP"


@pytest.mark.parametrize(
    "text",
    [
        "make a logbook entry: corrected the orbit",
        "log this",
        "please log that",
        "log the orbit plot with a note: after the correction",
        "put this in the logbook",
        "create a new elog entry",
    ],
)
def test_entry_requests(text):
    assert is_entry_request(text) and not is_search_request(text) and parse_undo(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "what did we log about QF07 this week?",
        "when was HCM01 last changed and why?",
        "who changed QF07?",
        "search the logbook for RF trips",
        "find logbook entries about the injection kicker",
    ],
)
def test_search_requests(text):
    assert is_search_request(text) and not is_entry_request(text) and parse_undo(text) is None


@pytest.mark.parametrize(
    ("text", "count", "target"),
    [
        ("undo the last write", 1, ""),
        ("revert the last three writes", 3, ""),
        ("undo the last 2 writes to HCM01", 2, "HCM01"),
        ("put HCM01 back to where it was before my change", 1, "HCM01"),
        ("roll back my last change", 1, ""),
    ],
)
def test_undo_requests(text, count, target):
    wanted = parse_undo(text)
    assert wanted is not None and (wanted.count, wanted.target) == (count, target)
    assert wanted.mine == (" my " in f" {text} ")


@pytest.mark.parametrize(
    "text",
    [
        "set HCM01 to 1.5 A",
        "what is the beam current?",
        "plot the lifetime over the last 2 hours",
        "restore QF11 to its value from 09:30",
        "put HCM05 back to where it was 2 hours ago",
        "how do I undo a write?",
        "is the log of the lifetime smaller?",
    ],
)
def test_machine_requests_are_none_of_them(text):
    assert not is_entry_request(text) and not is_search_request(text)
    assert parse_undo(text) is None


def test_search_words_and_period():
    assert search_words("what did we log about QF07 this week?") == "QF07"
    assert search_words("when did QF 5 last change?") == "QF5"  # its number stays with it
    now = 1_800_000_000.0
    assert search_since("what did we log about QF07 this week?", now) == now - 7 * 86400
    assert search_since("when was HCM01 last changed?", now) is None


def test_an_entry_takes_its_title_from_the_words_and_lists_the_facts():
    entry = compose_entry(
        "make a logbook entry: Orbit corrected. HCM01 raised to centre BPM3.",
        [Fact("write", f"write `{HCM01}` 0 → 1.5 A: verified", 1000.0, (HCM01,))],
        logbook="operations",
    )
    assert entry.title == "Orbit corrected."
    assert entry.text.startswith("Orbit corrected. HCM01 raised")
    assert "From the assistant's thread:" in entry.text and entry.channels == (HCM01,)
    assert "Osprey Desktop thread" not in entry.text
    threaded = compose_entry("log this: fine", [], logbook="ops", thread_id="3f2a9c1d7b4e")
    assert threaded.text.endswith("\n\nOsprey Desktop thread 3f2a9c1d7b4e")
    bare = compose_entry("log this", [Fact("value", "x", None, (HCM02,))], logbook="ops")
    assert bare.title == f"Values: {HCM02}"


def write(
    id_: int,
    channel: str,
    before: float,
    value: float,
    outcome: str = "verified",
    when: float | None = None,
) -> AuditEntry:
    return AuditEntry(
        id=id_,
        time=when or 1000.0 + id_,
        thread_id=f"t{id_}",
        operator="ops",
        channel=channel,
        value_before=before,
        requested_value=value,
        readback_after=value,
        outcome=outcome,
        approval_id=f"a{id_}",
        message=None,
        connector="sim",
    )


def test_the_last_writes_are_undone_to_the_value_before_the_oldest_of_each_channel():
    entries = [write(1, HCM01, 0.0, 1.5), write(2, HCM01, 1.5, 1.0), write(3, HCM02, 0.0, -0.3)]

    targets = undo_targets(entries, count=3)

    assert [(t.channel, t.restore, t.last.id) for t in targets] == [
        (HCM02, 0.0, 3),
        (HCM01, 0.0, 2),
    ]
    assert [t.channel for t in undo_targets(entries, count=1, channels=[HCM01])] == [HCM01]


def test_undo_refusals_say_why():
    with pytest.raises(UndoRefused, match="no write to undo"):
        undo_targets([])
    with pytest.raises(UndoRefused, match="only 1 write"):
        undo_targets([write(1, HCM01, 0.0, 1.5)], count=2)
    with pytest.raises(UndoRefused, match=r"not verified \(in_doubt\)"):
        undo_targets([write(1, HCM01, 0.0, 1.5, outcome="in_doubt")])
    theirs = [write(1, HCM01, 0.0, 1.5), write(2, HCM01, 1.5, 1.0)]
    theirs[1] = AuditEntry(**{**theirs[1].to_dict(), "operator": "someone"})
    with pytest.raises(UndoRefused, match="written again after your change .*by someone"):
        undo_targets(theirs, channels=[HCM01], operator="ops")
    assert undo_targets(theirs, channels=[HCM01])[0].entry.id == 2
    with pytest.raises(UndoRefused, match="no write to .* by ops"):
        undo_targets([theirs[1]], channels=[HCM01], operator="ops")
    with pytest.raises(UndoRefused, match="does not record the value before"):
        undo_targets([write(1, HCM01, None, 1.5)])  # type: ignore[arg-type]


def test_a_channel_is_one_channel_in_the_audit_whatever_its_prefix():
    # written once as pva://HCM01, once bare: one channel with two writes
    entries = [write(1, f"pva://{HCM01}", 0.0, 1.5), write(2, HCM01, 1.5, 1.0)]

    (target,) = undo_targets(entries, count=2, channels=[f"ca://{HCM01}"])

    assert (target.restore, target.last.id) == (0.0, 2)
    assert [i.audit_id for i in history([], entries, "", [HCM01])] == [2, 1]
    theirs = [entries[0], AuditEntry(**{**entries[1].to_dict(), "operator": "someone"})]
    with pytest.raises(UndoRefused, match="written again after your change"):
        undo_targets(theirs, channels=[HCM01], operator="ops")


def test_a_channel_that_reads_something_else_moved_since():
    (target,) = undo_targets([write(7, HCM01, 0.0, 1.5)])
    assert moved_since(target, 1.5, 3) is None
    assert moved_since(target, 1.5004, 3) is None
    assert "now reads 1.2, not the 1.5 set" in moved_since(target, 1.2, 3)


def test_history_puts_full_matches_first_then_newest():
    items = history([], [write(1, HCM01, 0, 1), write(2, HCM02, 0, 1)], "HCM01", [HCM01])
    assert [i.audit_id for i in items] == [1]
    assert items[0].link() == "audit entry 1, thread t1"


@pytest.mark.parametrize(
    ("words", "channels"),
    [
        ("QF 9", ["SR03C:QF09:Current:SP", "SR03C:QF09:Current:RB"]),
        ("I made to the ID 9 gap ten minutes ago", ["SR09C:ID09:Gap:SP", "SR09C:ID09:Gap:RB"]),
        ("HCM09", ["SR03C:HCM09:Current:SP", "SR03C:HCM09:Current:RB"]),
    ],
)
def test_an_undo_names_the_device_said_never_every_device_of_its_number(words, channels):
    from osprey_desktop.capabilities.control_room.logbook_search import named_channels

    assert named_channels(words) == channels
