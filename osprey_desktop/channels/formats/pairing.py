"""Pair each setpoint with the readback that shows whether a write took effect.

Lists rarely state the pairs; the names do. Two channels are a pair when their names differ
only by the role word (``…:CURRENT:SP`` / ``…:CURRENT:RB``, ``GunVoltageSet`` /
``GunVoltageRB``, ``TerminalVoltageSetValue`` / ``TerminalVoltageReadBack``), or when the
setpoint's name without its role word is the other channel's whole name (``SR:RF1:FreqSet`` /
``SR:RF1:Freq``, ``SR01C:HCM1:SetCurrent`` / ``SR01C:HCM1:Current``); that channel then reads
as the readback. A pair the list states is kept; an ambiguous one is not made.
"""

from __future__ import annotations

from osprey_desktop.channels.formats.draft import ChannelDraft, ListProblem


def pair_setpoints(drafts: list[ChannelDraft], problems: list[ListProblem]) -> int:
    """Link setpoints and readbacks in place; returns how many pairs the list now has."""
    by_name = {d.name: d for d in drafts}
    by_lower = {d.name.lower(): d for d in drafts}
    _keep_stated_pairs(drafts, by_name, problems)
    readbacks: dict[str, list[ChannelDraft]] = {}
    for draft in drafts:
        if draft.role == "setpoint":
            continue
        for role, stem in draft.role_markers():
            if role == "readback":
                found = readbacks.setdefault(stem.lower(), [])
                if draft not in found:
                    found.append(draft)
    for setpoint in drafts:
        if setpoint.role != "setpoint" or setpoint.readback is not None:
            continue
        for role, marked_stem in setpoint.role_markers():
            if role != "setpoint":
                continue
            stem = marked_stem.lower()
            free = [r for r in readbacks.get(stem, []) if r.setpoint is None]
            if not free:
                whole = by_lower.get(stem)
                free = [whole] if whole and whole.role != "setpoint" and not whole.setpoint else []
            if len(free) == 1:
                _link(setpoint, free[0])
                break
    return sum(1 for d in drafts if d.role == "setpoint" and d.readback in by_name)


def _keep_stated_pairs(
    drafts: list[ChannelDraft], by_name: dict[str, ChannelDraft], problems: list[ListProblem]
) -> None:
    for draft in drafts:
        if draft.readback is not None and draft.readback not in by_name:
            problems.append(
                ListProblem(
                    draft.where,
                    f"readback '{draft.readback}' of '{draft.name}' is not in the list; "
                    "the pair is dropped",
                )
            )
            draft.readback = None
        if draft.setpoint is not None and draft.setpoint not in by_name:
            problems.append(
                ListProblem(
                    draft.where,
                    f"setpoint '{draft.setpoint}' of '{draft.name}' is not in the list; "
                    "the pair is dropped",
                )
            )
            draft.setpoint = None
    for draft in drafts:
        if draft.role == "setpoint" and draft.readback is not None:
            other = by_name[draft.readback]
            if other.setpoint is None:
                other.setpoint = draft.name


def _link(setpoint: ChannelDraft, readback: ChannelDraft) -> None:
    setpoint.readback = readback.name
    readback.setpoint = setpoint.name
    if readback.role in (None, "monitor"):
        readback.role = "readback"
