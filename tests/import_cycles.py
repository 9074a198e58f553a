"""List the import cycles of ``osprey_desktop``, read from the source itself.

Every ``import`` and ``from ... import`` statement counts, wherever it stands: at the top of a
module, inside a function, or under ``if TYPE_CHECKING``. Two graphs are built from them: one
between modules and one between the packages directly under ``osprey_desktop`` (a top-level
module such as ``events.py`` counts as its own package). A cycle is a strongly connected group
of two or more nodes.

Run it from the checkout::

    python tests/import_cycles.py          # prints both lists; exit 1 if packages form a cycle

``tests/test_import_cycles.py`` runs the same check in the suite.
"""

from __future__ import annotations

import ast
import sys
from collections import defaultdict
from collections.abc import Iterable, Mapping
from pathlib import Path

PACKAGE_ROOT = Path(__file__).resolve().parent.parent / "osprey_desktop"
ROOT_NAME = "osprey_desktop"


def module_files(root: Path = PACKAGE_ROOT) -> dict[str, Path]:
    """Dotted module name -> file, for every ``.py`` file under ``root``."""
    modules: dict[str, Path] = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join(parts)] = path
    return modules


def _known(name: str, modules: Mapping[str, Path]) -> str | None:
    """The longest prefix of ``name`` that is one of our modules."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def _imported_names(node: ast.AST, package: str) -> Iterable[str]:
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names)
    elif isinstance(node, ast.ImportFrom):
        if node.level:
            base = package.split(".")[: len(package.split(".")) - node.level + 1]
            module = ".".join(base + ([node.module] if node.module else []))
        else:
            module = node.module or ""
        # ``from pkg import sub`` imports the submodule when there is one
        for alias in node.names:
            yield f"{module}.{alias.name}"
        yield module


def module_graph(modules: Mapping[str, Path]) -> dict[str, set[str]]:
    """Module -> the modules of ours it imports (itself excluded)."""
    graph: dict[str, set[str]] = defaultdict(set)
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Import | ast.ImportFrom):
                continue
            names = list(_imported_names(node, package))
            if isinstance(node, ast.ImportFrom):
                # the submodule when ``from pkg import sub`` names one, else the module itself
                module, *members = names[-1:] + names[:-1]
                targets = [m for m in members if m in modules] or [module]
            else:
                targets = names
            for target in targets:
                if not target.startswith(ROOT_NAME):
                    continue
                known = _known(target, modules)
                if known and known != name:
                    graph[name].add(known)
    return graph


def top_package(module: str) -> str:
    """``osprey_desktop.x.y`` -> ``osprey_desktop.x`` (the root stays itself)."""
    return ".".join(module.split(".")[:2])


def package_graph(graph: Mapping[str, set[str]]) -> dict[str, set[str]]:
    """Top-level package -> the top-level packages it imports (the root package excluded)."""
    packages: dict[str, set[str]] = defaultdict(set)
    for source, targets in graph.items():
        for target in targets:
            a, b = top_package(source), top_package(target)
            if a != b and ROOT_NAME not in (a, b):
                packages[a].add(b)
    return packages


def cycles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of two or more nodes (Tarjan, iterative), sorted."""
    nodes = sorted(set(graph) | {t for targets in graph.values() for t in targets})
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in nodes:
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return sorted(found)


def main() -> int:
    graph = module_graph(module_files())
    package_cycles = cycles(package_graph(graph))
    module_cycles = cycles(graph)
    print(f"import cycles between packages: {len(package_cycles)}")
    for group in package_cycles:
        print("  " + " <-> ".join(group))
    print(f"import cycles between modules: {len(module_cycles)}")
    for group in module_cycles:
        print("  " + " <-> ".join(group))
    return 1 if package_cycles else 0


if __name__ == "__main__":
    sys.exit(main())
