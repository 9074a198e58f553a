"""Threads with many contexts, for the chunked-storage tests on SQLite and PostgreSQL."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from osprey_desktop.persistence.chunked_saver import with_context_chunks
from tests.gateway.turn_graph import build_turn_graph

REPO = Path(__file__).resolve().parents[2]
TURN_BUDGET = 32 * 1024


def seed(count: int, label: str = "reading") -> dict[str, dict[str, dict[str, Any]]]:
    return {
        "READING": {
            f"{label}_{i}": {
                "channel": f"SR{i % 40:02d}:BPM{i % 12}:X",
                "value": i * 0.001,
                "units": "mm",
                "timestamp": "2024-01-01T00:00:00Z",
            }
            for i in range(count)
        }
    }


def chunked_graph(history_limit: int | None = 20) -> Any:
    def factory(saver: Any) -> Any:
        return build_turn_graph(with_context_chunks(saver, history_limit=history_limit))

    return factory
