"""Osprey's in_context channel lists: ``{"channels": [{"channel", "address", "description"}]}``.

``address`` is the PV name and ``channel`` the name the facility calls it by (kept as a
synonym, with its words split: "TerminalVoltageReadBack" is also "Terminal Voltage Read
Back"). A bare list of entries is read the same way. Template entries
(``"template": true``) expand to numbered devices as Osprey expands them: ``base_name``,
``instances`` [first, last], ``sub_channels``, optional ``axes``, ``address_pattern``
(default ``{base}{instance:02d}{suffix}``), ``description`` and ``channel_descriptions``;
both descriptions are kept, the template's (what the devices are) and the sub-channel's.
"""

from __future__ import annotations

from typing import Any

from osprey_desktop.channels.formats.draft import ChannelDraft, ListProblem
from osprey_desktop.channels.formats.hierarchical import MAX_INSTANCES

FORMAT = "Osprey in_context JSON"
_DEFAULT_ADDRESS = "{base}{instance:02d}{suffix}"


def entries_of(data: Any) -> list[Any] | None:
    """The entry list of an in_context document, or None when it is not one."""
    entries = data.get("channels") if isinstance(data, dict) else data
    if not isinstance(entries, list) or not entries:
        return None
    sample = [e for e in entries[:50] if isinstance(e, dict)]
    if any("address" in e or "channel" in e or e.get("template") for e in sample):
        return entries
    return None


def read(data: Any, problems: list[ListProblem]) -> list[ChannelDraft]:
    entries = entries_of(data) or []
    drafts: list[ChannelDraft] = []
    for index, entry in enumerate(entries):
        where = f"entry {index}"
        if not isinstance(entry, dict):
            problems.append(ListProblem(where, "not an object with channel and address; skipped"))
        elif entry.get("template"):
            drafts += _expand(entry, where, problems)
        else:
            draft = _standalone(entry, where, problems)
            if draft is not None:
                drafts.append(draft)
    return drafts


def _standalone(
    entry: dict[str, Any], where: str, problems: list[ListProblem]
) -> ChannelDraft | None:
    address = _text(entry.get("address")) or _text(entry.get("channel"))
    if not address:
        problems.append(ListProblem(where, "entry without an address or channel name; skipped"))
        return None
    alias = _text(entry.get("channel"))
    return ChannelDraft(
        name=address,
        where=f"{where} ({address})",
        description=_text(entry.get("description")),
        aliases=[alias] if alias and alias != address else [],
    )


def _expand(entry: dict[str, Any], where: str, problems: list[ListProblem]) -> list[ChannelDraft]:
    base = _text(entry.get("base_name"))
    label = f"{where} (template {base or '?'})"
    instances = entry.get("instances")
    if (
        not base
        or not isinstance(instances, list)
        or len(instances) != 2
        or not all(isinstance(n, int) and not isinstance(n, bool) for n in instances)
        or not 0 <= instances[1] - instances[0] < MAX_INSTANCES
    ):
        problems.append(
            ListProblem(
                label,
                "a template needs base_name and instances [first, last], at most "
                f"{MAX_INSTANCES} of them; skipped",
            )
        )
        return []
    sub_channels = [str(s) for s in entry.get("sub_channels") or [""]]
    axes = [str(a) for a in entry.get("axes") or [""]]
    pattern = _text(entry.get("address_pattern")) or _DEFAULT_ADDRESS
    general = _text(entry.get("description"))
    specific = entry.get("channel_descriptions")
    specific = specific if isinstance(specific, dict) else {}
    drafts: list[ChannelDraft] = []
    for number in range(instances[0], instances[1] + 1):
        for axis in axes:
            for suffix in sub_channels:
                full_suffix = f"{axis}{suffix}"
                used_suffix = suffix if axis and "{axis}" in pattern else full_suffix
                try:
                    address = pattern.format(
                        base=base, instance=number, suffix=used_suffix, axis=axis
                    )
                except (KeyError, IndexError, ValueError, AttributeError) as exc:
                    problems.append(
                        ListProblem(label, f"address_pattern '{pattern}' cannot be used: {exc}")
                    )
                    return drafts
                alias = f"{base}{number:02d}{full_suffix}"  # the name Osprey gives the channel
                own = _fill(specific.get(full_suffix), number, axis)
                texts = [own, _fill(general, number, axis)]
                drafts.append(
                    ChannelDraft(
                        name=address,
                        where=f"{label} {address}",
                        description=" - ".join(dict.fromkeys(t for t in reversed(texts) if t)),
                        aliases=[alias] if alias != address else [],
                        family=base,
                        device=f"{base}{number:02d}",
                        texts=[own or texts[1]],
                    )
                )
    return drafts


def _fill(text: Any, number: int, axis: str) -> str:
    raw = _text(text)
    try:
        return raw.format(instance=number, axis=axis)
    except (KeyError, IndexError, ValueError, AttributeError):
        return raw


def _text(value: Any) -> str:
    return value.strip() if isinstance(value, str) else ""
