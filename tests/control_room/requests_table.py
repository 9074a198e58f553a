"""Operator requests with the plan each should get: the built-in planner's yardstick.

Each entry is what an operator might type on the simulated machine and the ordered list of
capabilities that answers it best. ``bench/planner_accuracy.py`` and
``test_planner_table.py`` run the planner over every entry. Kinds:

- ``read`` / ``history`` / ``write`` / ``read_then_write``: the plain cases;
- ``write_missing``: a change without its value or its target: ask, do not guess (a named
  target is looked up first, so the question can name it);
- ``conversation``: nothing to read or change: answer directly;
- ``unknown_channel``: a channel the machine does not have: plan normally, channel finding
  then asks with the nearest names;
- ``no_change``: mentions setting, changing or writing but asks to change nothing.

Tags mark ``multi`` channel, ``odd`` phrasing, ``units`` spelled unusually, and ``held_out``
entries written after the capabilities' keywords were tuned on the others.
"""

from __future__ import annotations

from dataclasses import dataclass

READ = ("channel_finding", "channel_read", "respond")
HISTORY = ("channel_finding", "time_range_parsing", "archiver_retrieval", "respond")
WRITE = ("channel_finding", "channel_write", "respond")
READ_THEN_WRITE = ("channel_finding", "channel_read", "channel_write", "respond")
WRITE_THEN_READ = ("channel_finding", "channel_write", "channel_read", "respond")
CLARIFY = ("clarify",)
#: A write naming its target but not its value: find the target, then ask (never write).
FIND_THEN_ASK = ("channel_finding", "clarify")
RESPOND = ("respond",)
#: A value from another channel, or a write on a condition: read first, then write.
READ_FOR_WRITE = ("channel_finding", "channel_read", "channel_write", "respond")
#: A value from the archive at a moment: look it up, then write.
RESTORE = (
    "channel_finding",
    "time_range_parsing",
    "archiver_retrieval",
    "channel_write",
    "respond",
)
#: Now against a moment in the past: the archived value and the present reading.
COMPARE = ("channel_finding", "time_range_parsing", "channel_read", "archiver_retrieval", "respond")

#: Kinds whose requests ask the machine to change; every other kind must never plan a write.
CHANGE_KINDS = frozenset({"write", "read_then_write", "write_missing", "derived_write"})


@dataclass(frozen=True)
class OperatorRequest:
    text: str
    plan: tuple[str, ...]
    kind: str
    tags: tuple[str, ...] = ()

    @property
    def asks_for_change(self) -> bool:
        return self.kind in CHANGE_KINDS


def _r(text: str, plan: tuple[str, ...], kind: str, *tags: str) -> OperatorRequest:
    return OperatorRequest(text, plan, kind, tags)


REQUESTS: tuple[OperatorRequest, ...] = (
    # -- single-channel reads
    _r("read the beam current", READ, "read"),
    _r("What is the beam current?", READ, "read"),
    _r("what's the beam lifetime right now", READ, "read"),
    _r("current beam energy?", READ, "read", "odd"),
    _r("get SR:RF:Frequency:RB", READ, "read"),
    _r("how much current is stored in the ring", READ, "read", "odd"),
    _r("read the top-up countdown", READ, "read"),
    _r("gimme the DCCT", READ, "read", "odd"),
    _r("check the RF voltage readback", READ, "read"),
    _r("what's HCM01 at?", READ, "read", "odd"),
    _r("what is the beam current in amps", READ, "read", "units"),
    _r("beam currnet pls", READ, "read", "odd"),
    _r("show me the ID04 gap", READ, "read"),
    # -- multi-channel reads
    _r("show the horizontal orbit in sector 3", READ, "read", "multi"),
    _r("read the horizontal and vertical tune", READ, "read", "multi"),
    _r("vacuum pressures in sector 5", READ, "read", "multi", "odd"),
    _r("what are the vertical orbit readings in sector 12?", READ, "read", "multi"),
    _r("read BPM13 X and BPM14 X", READ, "read", "multi"),
    _r("the second horizontal corrector readback in sector 4", READ, "read", "held_out"),
    _r("first three quadrupole focusing magnet currents", READ, "read", "multi", "held_out"),
    _r("display the quadrupole currents in sector 2", READ, "read", "multi"),
    _r("list the readbacks of the horizontal correctors in sector 1", READ, "read", "multi"),
    # -- histories
    _r("plot the beam current over the last 2 hours", HISTORY, "history"),
    _r("show the lifetime since 8:00", HISTORY, "history"),
    _r("how did the vacuum in sector 7 evolve yesterday?", HISTORY, "history", "multi"),
    _r("trend of BPM13 X from 2026-11-20 10:00 to 12:00", HISTORY, "history"),
    _r("beam current history for the past 30 minutes", HISTORY, "history"),
    _r("graph the RF voltage today", HISTORY, "history"),
    _r("what was the beam energy between 10:00 and 11:00 yesterday?", HISTORY, "history"),
    _r("compare the horizontal and vertical tune over the last hour", HISTORY, "history", "multi"),
    _r("archived data of the ID04 gap last week", HISTORY, "history"),
    _r("plot the horizontal orbit in sector 3 for the last 10 min", HISTORY, "history", "multi"),
    _r("did the beam current drop in the last 24h?", HISTORY, "history", "odd"),
    _r("lifetime trend past 3 hours please", HISTORY, "history", "odd"),
    # -- explicit writes
    _r("set HCM01 to 1.5 A", WRITE, "write"),
    _r("set the horizontal corrector 3 to -0.5 amps", WRITE, "write", "units"),
    _r("change SR01C:HCM01:Current:SP to 0.25", WRITE, "write"),
    _r("increase HCM01 by 0.2 A", WRITE, "write"),
    _r("decrease the ID04 gap by 1 mm", WRITE, "write"),
    _r("open the ID04 gap to 20 mm", WRITE, "write", "odd"),
    _r("set the RF frequency to 499.654 MHz", WRITE, "write"),
    _r("ramp HCM02 to 1 A", WRITE, "write", "odd"),
    _r("put VCM03 at 0.3 A", WRITE, "write", "odd"),
    _r("set HCM01 and HCM02 to 0.5 A", WRITE, "write", "multi"),
    _r("bump HCM07 up by 100 mA", WRITE, "write", "units", "odd"),
    _r("set HCM05 to 1500 mA", WRITE, "write", "units"),
    _r("write 0.1 to SR02C:VCM04:Current:SP", WRITE, "write"),
    _r("HCM01 -> 1.2 A", WRITE, "write", "odd"),
    # -- writes missing a value or a target
    _r("set HCM01", FIND_THEN_ASK, "write_missing"),
    _r("change the RF frequency", FIND_THEN_ASK, "write_missing"),
    _r("increase the ID04 gap", FIND_THEN_ASK, "write_missing"),
    _r("set it to 1.5 A", CLARIFY, "write_missing"),
    _r("please adjust the corrector", FIND_THEN_ASK, "write_missing", "odd"),
    _r("put 2 A on it", CLARIFY, "write_missing", "odd"),
    # -- read, then write
    _r("read HCM01 and then set it to 1.0 A", READ_THEN_WRITE, "read_then_write"),
    _r("what's the ID04 gap? then open it to 25 mm", READ_THEN_WRITE, "read_then_write"),
    _r("check HCM03 and increase it by 0.1 A", READ_THEN_WRITE, "read_then_write"),
    _r("set HCM04 to 0.8 A and read it back", WRITE_THEN_READ, "write"),
    # -- conversation
    _r("hello", RESPOND, "conversation"),
    _r("thanks!", RESPOND, "conversation"),
    _r("what can you do?", RESPOND, "conversation"),
    _r("who are you", RESPOND, "conversation"),
    _r("explain what a BPM is", RESPOND, "conversation"),
    _r("how do I set a corrector?", RESPOND, "conversation", "no_change"),
    _r("what would happen if I set HCM01 to 5 A?", RESPOND, "conversation", "no_change"),
    _r("good morning, anything I should know?", RESPOND, "conversation", "odd"),
    # -- unknown channels (channel finding asks, with the nearest names)
    _r("read the flux capacitor temperature", READ, "unknown_channel"),
    _r("what is the cryoplant pressure?", READ, "unknown_channel"),
    _r("plot the booster current for the last hour", HISTORY, "unknown_channel"),
    # -- mention a change, ask for none
    _r("what is the setpoint of HCM01?", READ, "no_change"),
    _r("is HCM01 set to zero?", READ, "no_change", "odd"),
    _r("don't change anything, just read HCM01", READ, "no_change"),
    _r("did someone change the ID04 gap in the last hour?", HISTORY, "no_change"),
    _r("show the setpoint history of HCM02 since yesterday", HISTORY, "no_change"),
    _r("without writing anything, what is the RF frequency setpoint?", READ, "no_change"),
    # -- held out: written after the keywords were tuned on the entries above. Their first run
    # planned 22/24 exactly; the two misses exposed two generic planner bugs (goal filtering
    # order, an explicitly matched consumer losing to a default one), fixed since.
    _r("RF voltage?", READ, "read", "held_out", "odd"),
    _r("tell me the vertical tune", READ, "read", "held_out"),
    _r("what's the pressure at IG13", READ, "read", "held_out"),
    _r("how are the quads in sector 6 doing", READ, "read", "held_out", "multi", "odd"),
    _r("status of the undulator gap in sector 4", READ, "read", "held_out"),
    _r("beam energy and lifetime please", READ, "read", "held_out", "multi"),
    _r("give me all BPM readings in sector 9", READ, "read", "held_out", "multi"),
    _r("show the RF frequency history for the past day", HISTORY, "history", "held_out"),
    _r("how has the lifetime changed since yesterday 18:00?", HISTORY, "history", "held_out"),
    _r("plot BPM25 Y between 08:00 and 09:30", HISTORY, "history", "held_out"),
    _r("vacuum in sector 12 over the last 3 days", HISTORY, "history", "held_out", "multi"),
    _r("beam current this morning", HISTORY, "history", "held_out", "odd"),
    _r("set VCM12 to -0.75 A", WRITE, "write", "held_out"),
    _r("please increase the RF voltage by 0.05 MV", WRITE, "write", "held_out", "units"),
    _r("could you lower HCM20 by 250 mA?", WRITE, "write", "held_out", "units", "odd"),
    _r("change the ID07 gap setpoint to 18.5 mm", WRITE, "write", "held_out"),
    _r("I want to set QF05 to 120 A", WRITE, "write", "held_out", "odd"),
    _r("lower the ID02 gap", FIND_THEN_ASK, "write_missing", "held_out"),
    _r("change it", CLARIFY, "write_missing", "held_out", "odd"),
    _r("read VCM05 then set it to 0.2 A", READ_THEN_WRITE, "read_then_write", "held_out"),
    _r("ok thanks, that's all", RESPOND, "conversation", "held_out"),
    _r("are you connected to the real machine?", RESPOND, "conversation", "held_out"),
    _r("was HCM10 changed today?", HISTORY, "no_change", "held_out"),
    _r("never mind, don't set anything", RESPOND, "no_change", "held_out"),
    # -- held out: writes without a change verb or without "to", and values spelled in words
    # (written with the grammar of write_parsing, before it was implemented).
    _r("QF03 to 118.5 A", WRITE, "write", "held_out", "odd"),
    _r("VCM11 -> 0.35", WRITE, "write", "held_out", "odd"),
    _r("HCM17=-0.2", WRITE, "write", "held_out", "odd"),
    _r("HCM09 = 0.45 A", WRITE, "write", "held_out", "odd"),
    _r("set ID09 gap 19.5mm", WRITE, "write", "held_out", "odd"),
    _r("ID07 gap: 22 mm", WRITE, "write", "held_out", "odd"),
    _r("HCM14 0.8 A", WRITE, "write", "held_out", "odd"),
    _r("VCM02 -150 mA", WRITE, "write", "held_out", "odd", "units"),
    _r("the ID04 gap to 24 mm please", WRITE, "write", "held_out", "odd"),
    _r("RF frequency -> 499.66 MHz", WRITE, "write", "held_out", "odd"),
    _r("QF05 setpoint 121 A", WRITE, "write", "held_out", "odd"),
    _r("raise HCM03 200 mA", WRITE, "write", "held_out", "odd", "units"),
    _r("set HCM06 to two point five amps", WRITE, "write", "held_out", "units"),
    _r("set VCM08 to minus three hundred milliamps", WRITE, "write", "held_out", "units"),
    _r("open the ID02 gap to twenty millimetres", WRITE, "write", "held_out", "units"),
    _r("put HCM12 at one and a half amps", WRITE, "write", "held_out", "units"),
    _r("HCM15 to half an amp", WRITE, "write", "held_out", "units", "odd"),
    _r("lower VCM06 by a quarter of an amp", WRITE, "write", "held_out", "units"),
    _r("VCM10 to negative 0.1 A", WRITE, "write", "held_out", "units", "odd"),
    _r("set HCM18 to zero point two five", WRITE, "write", "held_out", "units"),
    _r("bring HCM19 back to zero", WRITE, "write", "held_out", "odd"),
    _r("set QF07 to one hundred and nineteen amperes", WRITE, "write", "held_out", "units"),
    _r("nudge HCM07 a little", FIND_THEN_ASK, "write_missing", "held_out", "odd"),
    _r("set the sector 3 quads to their usual values", FIND_THEN_ASK, "write_missing", "held_out"),
    _r("tweak the RF frequency slightly", FIND_THEN_ASK, "write_missing", "held_out", "odd"),
    _r("open the ID04 gap 2 mm", FIND_THEN_ASK, "write_missing", "held_out", "odd"),
    _r("HCM01 1.5", READ, "read", "held_out", "odd"),
    _r("horizontal orbit in sectors 2 to 4", READ, "read", "held_out", "multi"),
    _r("HCM05 at 1.2 A?", READ, "no_change", "held_out", "odd"),
    _r("is VCM03 at minus a quarter of an amp?", READ, "no_change", "held_out", "units"),
    _r("HCM04 over the last 3 hours", HISTORY, "history", "held_out", "odd"),
    _r("compare QF01 to QF03 since 6:00", HISTORY, "history", "held_out"),
    # -- values that come from elsewhere: a copy, the archive, a condition
    _r("make VCM08 the same as VCM07", READ_FOR_WRITE, "derived_write"),
    _r("set HCM03 to the same value as HCM02", READ_FOR_WRITE, "derived_write"),
    _r("copy the QF05 setpoint to QF07", READ_FOR_WRITE, "derived_write"),
    _r("match VCM12 to VCM11", READ_FOR_WRITE, "derived_write", "odd"),
    _r("restore QF11 to its value from 09:30", RESTORE, "derived_write"),
    _r("put HCM05 back to where it was 2 hours ago", RESTORE, "derived_write", "odd"),
    _r("revert the ID04 gap to its setting of yesterday at 14:00", RESTORE, "derived_write"),
    _r("if the HCM20 setpoint is below -1 A, set it to -1 A", READ_FOR_WRITE, "derived_write"),
    _r("set VCM04 to 0 if it is above 0.5 A", READ_FOR_WRITE, "derived_write", "odd"),
    # -- several channels in one write
    _r("set VCM05 to VCM08 to 0.1 A", WRITE, "write", "multi", "odd"),
    _r("set all vertical correctors to zero", WRITE, "write", "multi"),
    _r("set every undulator gap to 20 mm", WRITE, "write", "multi"),
    _r("set the horizontal correctors in sectors 4 through 6 to 0.2 A", WRITE, "write", "multi"),
    # -- one device named where several fit: find the candidates, then ask
    _r("set the undulator gap to 15 mm", FIND_THEN_ASK, "write_missing"),
    _r("set the horizontal corrector in sector 2 to 0.5 A", FIND_THEN_ASK, "write_missing"),
    # -- a moment in the past, and now against the past
    _r("what was the lifetime at 06:30", HISTORY, "moment"),
    _r("the HCM02 readback 3 hours ago", HISTORY, "moment", "odd"),
    _r("beam current yesterday at 14:00?", HISTORY, "moment", "odd"),
    _r("is the beam current higher than at 08:00?", COMPARE, "moment"),
    _r("how does the lifetime now compare with 3 hours ago", COMPARE, "moment"),
    # -- questions about concepts and about the assistant: answered without reading
    _r("what is a DCCT?", RESPOND, "conversation"),
    _r("why does a readback differ from its setpoint?", RESPOND, "conversation"),
    _r("can you change anything without my approval?", RESPOND, "conversation"),
    _r("what does VCM stand for", RESPOND, "conversation"),
    _r("how does an undulator work?", RESPOND, "conversation"),
    _r("what's the difference between a QF and a QD?", RESPOND, "conversation"),
    # -- typos, slang, politeness, capitals
    _r("whats teh lifetiem", READ, "read", "odd"),
    _r("wat is the beam currnet", READ, "read", "odd"),
    _r("hello there, could you possibly check the RF frequency for me? cheers", READ, "read"),
    _r("READ QD04", READ, "read", "odd"),
    _r("bring VCM03 up by a tenth of an amp", WRITE, "write", "units", "odd"),
    _r("I want HCM02 at 0.4 A", WRITE, "write", "odd"),
    _r("set HCM01 to 1.5 A, no wait, 1.2 A", WRITE, "write", "odd"),
    _r("we need the ID04 gap at 20 mm", WRITE, "write", "odd"),
    _r("open the ID04 gap", FIND_THEN_ASK, "write_missing"),
    _r("turn HCM01 off", FIND_THEN_ASK, "write_missing", "odd"),
)


__all__ = [
    "CHANGE_KINDS",
    "COMPARE",
    "READ_FOR_WRITE",
    "RESTORE",
    "CLARIFY",
    "HISTORY",
    "READ",
    "READ_THEN_WRITE",
    "REQUESTS",
    "RESPOND",
    "WRITE",
    "WRITE_THEN_READ",
    "OperatorRequest",
]
