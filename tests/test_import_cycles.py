"""The house has floors: no import cycle between packages, and inside a package only where
two modules are one idea (listed here with the reason)."""

from __future__ import annotations

from tests.import_cycles import cycles, module_files, module_graph, package_graph

# A view and the thing it views: ``ContextNamespace`` only names ``ContextManager`` for type
# hints (``manager.TYPE`` hands out a namespace over the same data).
ONE_IDEA = [["osprey_desktop.context.context_manager", "osprey_desktop.context.namespace"]]


def test_the_cycle_finder_sees_a_cycle_through_a_function_level_import(tmp_path) -> None:
    package = tmp_path / "osprey_desktop"
    (package / "low").mkdir(parents=True)
    (package / "high").mkdir()
    for folder in (package, package / "low", package / "high"):
        (folder / "__init__.py").write_text("")
    (package / "high" / "top.py").write_text("from osprey_desktop.low import bottom\n")
    (package / "low" / "bottom.py").write_text(
        "def later():\n    from osprey_desktop.high.top import thing\n"
    )
    graph = module_graph(module_files(package))
    assert cycles(package_graph(graph)) == [["osprey_desktop.high", "osprey_desktop.low"]]
    assert cycles(graph) == [["osprey_desktop.high.top", "osprey_desktop.low.bottom"]]


def test_no_import_cycle_between_packages() -> None:
    assert cycles(package_graph(module_graph(module_files()))) == []


def test_module_cycles_only_where_two_modules_are_one_idea() -> None:
    assert cycles(module_graph(module_files())) == ONE_IDEA
