"""MATLAB Middle Layer style channel lists, as Osprey keeps them in JSON.

``{ring: {family: {field: {[subfield: ]{"ChannelNames": [...], "HWUnits", "MemberOf",
"_description"}}, "setup"|"_setup": {"CommonNames": [...], "DeviceList": [...]}}}}``.
Every node holding ``ChannelNames`` is a field; the family is the nearest node above it with a
setup (else the level under the ring), and ``CommonNames`` (one per device, in the order of
``ChannelNames``) become synonyms. Units are ``HWUnits``.

The Middle Layer states roles in two ways, both read: the field's name (``Setpoint``,
``VoltageSetpoint``, ``SP`` / ``Monitor``, ``RB``) and ``MemberOf`` (``Setpoint``,
``Control`` / ``Boolean Control`` are written; the rest are read).
"""

from __future__ import annotations

from typing import Any

from osprey_desktop.channels.formats.draft import ChannelDraft, ListProblem
from osprey_desktop.channels.formats.naming import path_description, role_word

FORMAT = "Osprey middle_layer JSON"
_WRITTEN_MEMBERSHIPS = frozenset({"setpoint", "control", "boolean control"})


def is_middle_layer(data: Any, depth: int = 0) -> bool:
    """True when some node within five levels holds a ``ChannelNames`` list."""
    if not isinstance(data, dict) or depth > 5:
        return False
    if isinstance(data.get("ChannelNames"), list):
        return True
    return any(is_middle_layer(v, depth + 1) for k, v in data.items() if isinstance(v, dict))


def read(data: dict[str, Any], problems: list[ListProblem]) -> list[ChannelDraft]:
    drafts: list[ChannelDraft] = []
    _walk(data, (), (), None, drafts, problems)
    return drafts


def _walk(
    node: dict[str, Any],
    keys: tuple[str, ...],
    descriptions: tuple[str, ...],
    family: tuple[str, dict[str, Any]] | None,
    drafts: list[ChannelDraft],
    problems: list[ListProblem],
) -> None:
    setup = _setup_of(node)
    if setup is not None and keys:
        family = (keys[-1], setup)
    if "ChannelNames" in node:
        _field(node, keys, descriptions, family, drafts, problems)
        return
    for key, child in node.items():
        if key.startswith("_") or not isinstance(child, dict) or child is setup:
            continue
        _walk(child, (*keys, key), (*descriptions, _description(child)), family, drafts, problems)


def _field(
    node: dict[str, Any],
    keys: tuple[str, ...],
    descriptions: tuple[str, ...],
    family: tuple[str, dict[str, Any]] | None,
    drafts: list[ChannelDraft],
    problems: list[ListProblem],
) -> None:
    where = " > ".join(keys)
    names = node["ChannelNames"]
    if not isinstance(names, list):
        problems.append(ListProblem(where, "ChannelNames is not a list; skipped"))
        return
    family_name = family[0] if family else (keys[1] if len(keys) > 2 else keys[0])
    common = family[1].get("CommonNames") if family else None
    common = common if isinstance(common, list) and len(common) == len(names) else None
    units = node.get("HWUnits")
    member_of = {str(m).strip().lower() for m in node.get("MemberOf") or [] if m is not None}
    field_role = next((r for r in map(role_word, reversed(keys[-2:])) if r), None)
    role = "setpoint" if field_role == "setpoint" or "setpoint" in member_of else None
    writable = True if role or member_of & _WRITTEN_MEMBERSHIPS else None
    text = path_description(descriptions)
    for index, name in enumerate(names):
        if not isinstance(name, str) or not name.strip():
            problems.append(ListProblem(f"{where} ChannelNames[{index}]", "not a name; skipped"))
            continue
        drafts.append(
            ChannelDraft(
                name=name.strip(),
                where=f"{where} ChannelNames[{index}]",
                description=text,
                synonyms=[str(common[index])] if common and common[index] else [],
                family=family_name,
                units=units.strip() if isinstance(units, str) else "",
                role=role,
                writable=writable,
                texts=[descriptions[-1]] if descriptions else [],
            )
        )


def _setup_of(node: dict[str, Any]) -> dict[str, Any] | None:
    for key in ("_setup", "setup"):
        setup = node.get(key)
        if isinstance(setup, dict) and ("CommonNames" in setup or "DeviceList" in setup):
            return setup
    return None


def _description(node: dict[str, Any]) -> str:
    text = node.get("_description")
    return text.strip() if isinstance(text, str) else ""
