"""Osprey's hierarchical channel lists: a tree, its levels and a naming pattern.

``{"hierarchy": {"levels": [{"name", "type": "tree"|"instances", "optional"}],
"naming_pattern": "{system}:{family}[{device}]:{field}:{subfield}"}, "tree": {...}}``.
Tree levels are the keys of a node (``_channel_part`` renames one in the PV name); an
instances level is a child named like the level (``DEVICE``) whose ``_expansion`` lists the
instances (``{"_type": "range", "_pattern": "B{:02d}", "_range": [1, 24]}`` or
``{"_type": "list", "_instances": [...]}``); a tree key with its own ``_expansion`` expands in
place. A node without children is a channel (``_is_leaf`` marks one that also has children);
``_separator`` replaces the pattern's separator before the next tree level.

Every level's ``_description`` is kept: the channel's description is the path's descriptions,
from the ring down to the channel's own, so the words a facility uses for the ring, the
system, the family and the field all find it. Role and writability are read from the
channel's own description ("Setpoint (read-write)", "Golden Setpoint (read-only)").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from osprey_desktop.channels.formats.draft import ChannelDraft, ListProblem
from osprey_desktop.channels.formats.naming import path_description

FORMAT = "Osprey hierarchical JSON"
MAX_INSTANCES = 100_000  # a typo such as [1, 10000000] must not exhaust the memory
_PLACEHOLDER = re.compile(r"\{(\w+)\}")


class HierarchyError(ValueError):
    """The hierarchy section cannot be used; the message says what is wrong."""


def is_hierarchical(data: Any) -> bool:
    return isinstance(data, dict) and isinstance(data.get("tree"), dict) and "hierarchy" in data


@dataclass(frozen=True)
class _Level:
    name: str
    instances: bool
    optional: bool


@dataclass(frozen=True)
class _Step:
    level: int
    part: str
    key: str
    description: str


def read(data: dict[str, Any], problems: list[ListProblem]) -> list[ChannelDraft]:
    levels, pattern = _hierarchy(data.get("hierarchy"))
    reader = _TreeReader(levels, pattern, problems)
    reader.expand(data["tree"], 0, (), {})
    return reader.drafts


def _hierarchy(section: Any) -> tuple[list[_Level], str]:
    if not isinstance(section, dict):
        raise HierarchyError("'hierarchy' must be an object with 'levels' and 'naming_pattern'")
    raw_levels, pattern = section.get("levels"), section.get("naming_pattern")
    if not isinstance(raw_levels, list) or not raw_levels or not isinstance(pattern, str):
        raise HierarchyError("'hierarchy' needs a 'levels' list and a 'naming_pattern' text")
    levels: list[_Level] = []
    for index, level in enumerate(raw_levels):
        if not isinstance(level, dict) or not isinstance(level.get("name"), str):
            raise HierarchyError(f"hierarchy level {index} has no name")
        if level.get("type", "tree") not in ("tree", "instances"):
            raise HierarchyError(
                f"hierarchy level '{level['name']}' has type '{level.get('type')}'; "
                "it must be 'tree' or 'instances'"
            )
        levels.append(
            _Level(level["name"], level.get("type") == "instances", bool(level.get("optional")))
        )
    unknown = set(_PLACEHOLDER.findall(pattern)) - {level.name for level in levels}
    if unknown:
        raise HierarchyError(
            f"naming_pattern '{pattern}' names levels that are not defined: "
            f"{', '.join(sorted(unknown))}"
        )
    return levels, pattern


class _TreeReader:
    def __init__(self, levels: list[_Level], pattern: str, problems: list[ListProblem]) -> None:
        self.levels = levels
        self.problems = problems
        self.drafts: list[ChannelDraft] = []
        # the pattern as (text before, level index) pairs, and the text after the last level
        index = {level.name: i for i, level in enumerate(levels)}
        self.parts: list[tuple[str, int]] = []
        end = 0
        for match in _PLACEHOLDER.finditer(pattern):
            self.parts.append((pattern[end : match.start()], index[match.group(1)]))
            end = match.end()
        self.tail = pattern[end:]
        family = next((i for i, lv in enumerate(levels) if lv.name.lower() == "family"), None)
        first_instances = next((i for i, lv in enumerate(levels) if lv.instances), None)
        if family is None and first_instances:
            family = first_instances - 1
        self.family_level = family
        self.device_level = first_instances
        self.sector_level = next(
            (i for i, lv in enumerate(levels) if lv.name.lower() == "sector"), None
        )

    # ----- walking the tree --------------------------------------------------------------------
    def expand(
        self,
        node: dict[str, Any],
        depth: int,
        path: tuple[_Step, ...],
        separators: dict[int, str],
    ) -> None:
        children = {k: v for k, v in node.items() if not k.startswith("_") and isinstance(v, dict)}
        if path and (not children or node.get("_is_leaf") or depth >= len(self.levels)):
            self.emit(path, separators)
            if not children or depth >= len(self.levels):
                return
        if depth >= len(self.levels):
            return
        level = self.levels[depth]
        if "_separator" in node and path and isinstance(node["_separator"], str):
            separators = {**separators, path[-1].level: node["_separator"]}
        if level.instances:
            container = next(
                (v for k, v in children.items() if k.upper() == level.name.upper()), None
            )
            if container is None:
                if level.optional:
                    self.expand(node, depth + 1, path, separators)
                else:
                    self.problems.append(
                        ListProblem(
                            self.where(path),
                            f"no '{level.name.upper()}' container for the instances level "
                            f"'{level.name}'; this branch is skipped",
                        )
                    )
                return
            description = _description(container)
            for instance in self.instances(container, path, level.name.upper()):
                step = _Step(depth, instance, f"{level.name.upper()}[{instance}]", description)
                self.expand(container, depth + 1, (*path, step), separators)
            return
        for key, child in children.items():
            description = _description(child)
            if "_expansion" in child:
                for instance in self.instances(child, path, key):
                    step = _Step(depth, instance, f"{key}[{instance}]", description)
                    self.expand(child, depth + 1, (*path, step), separators)
                continue
            part = child.get("_channel_part", key)
            step = _Step(depth, part if isinstance(part, str) else key, key, description)
            self.expand(child, depth + 1, (*path, step), separators)

    def instances(self, container: dict[str, Any], path: tuple[_Step, ...], key: str) -> list[str]:
        spec = container.get("_expansion")
        where = self.where(path) + f" > {key}"
        if not isinstance(spec, dict):
            self.problems.append(ListProblem(where, "'_expansion' is not an object; skipped"))
            return []
        kind = spec.get("_type")
        if kind == "list" and isinstance(spec.get("_instances"), list):
            return [str(i) for i in spec["_instances"]]
        bounds = spec.get("_range")
        if (
            kind == "range"
            and isinstance(bounds, list)
            and len(bounds) == 2
            and all(isinstance(b, int) and not isinstance(b, bool) for b in bounds)
        ):
            if bounds[1] - bounds[0] >= MAX_INSTANCES:
                self.problems.append(
                    ListProblem(
                        where, f"_range {bounds} has over {MAX_INSTANCES} instances; skipped"
                    )
                )
                return []
            pattern = spec.get("_pattern", "{}")
            try:
                return [str(pattern).format(n) for n in range(bounds[0], bounds[1] + 1)]
            except (IndexError, KeyError, ValueError) as exc:
                self.problems.append(ListProblem(where, f"_pattern '{pattern}': {exc}; skipped"))
                return []
        self.problems.append(
            ListProblem(
                where,
                "'_expansion' needs _type 'range' with _range [first, last] or _type 'list' "
                "with _instances; skipped",
            )
        )
        return []

    # ----- one channel -----------------------------------------------------------------------
    def emit(self, path: tuple[_Step, ...], separators: dict[int, str]) -> None:
        by_level = {step.level: step for step in path}
        name = self.name(by_level, separators)
        descriptions = [step.description for step in path if step.description]
        family = by_level[self.family_level].part if self.family_level in by_level else ""
        device = by_level[self.device_level].part if self.device_level in by_level else None
        if device is not None and device.isdigit() and family:
            device = f"{family}{device}"
        sector = None
        if self.sector_level in by_level:
            digits = re.search(r"\d+", by_level[self.sector_level].part)
            sector = int(digits.group()) if digits else None
        self.drafts.append(
            ChannelDraft(
                name=name,
                where=self.where(path),
                description=path_description(descriptions),
                family=family,
                device=device,
                sector=sector,
                texts=[path[-1].description],
            )
        )

    def name(self, by_level: dict[int, _Step], separators: dict[int, str]) -> str:
        out: list[str] = []
        previous: int | None = None
        for text, level in self.parts:
            step = by_level.get(level)
            if step is None or not step.part:
                continue
            if previous is not None and previous in separators:
                text = separators[previous]
            out += [text, step.part]
            previous = level
        name = "".join(out) + self.tail
        if any(level not in by_level for _, level in self.parts):  # skipped optional level
            name = re.sub(r"([:_-])\1+", r"\1", name).strip(":_-")
        return name

    def where(self, path: tuple[_Step, ...]) -> str:
        return " > ".join(step.key for step in path) or "tree"


def _description(node: dict[str, Any]) -> str:
    text = node.get("_description")
    return text.strip() if isinstance(text, str) else ""
