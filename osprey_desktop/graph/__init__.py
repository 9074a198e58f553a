"""The compiled agent graph."""

from osprey_desktop.graph.builder import create_graph, terminal_edge

__all__ = ["create_graph", "terminal_edge"]
