"""``load_context``: open a saved ``context.json`` with the same dot notation as in a run.

Used by scripts and notebooks that run in an execution folder, next to the file that
``ContextManager.save_context_to_file`` wrote.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from osprey_desktop.context.context_manager import ContextManager

logger = logging.getLogger(__name__)


def load_context(context_file: str = "context.json") -> ContextManager | None:
    """Load ``context_file`` from the current working directory as a ContextManager.

    Returns None, with a logged warning that says why, when the file is missing, is not
    valid JSON, or is not a ``{context_type: {context_key: {field: value}}}`` dict.
    Usage: ``context = load_context(); context.CHANNEL_VALUES.step_1.values``.
    """
    path = Path.cwd() / context_file
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        logger.warning("Context file not found: %s (run from the folder that holds it)", path)
        return None
    except (OSError, UnicodeDecodeError) as exc:
        logger.warning("Cannot read context file %s: %s", path, exc)
        return None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        logger.warning("Context file %s is not valid JSON: %s", path, exc)
        return None
    problem = _shape_problem(data)
    if problem:
        logger.warning("Context file %s has the wrong layout: %s", path, problem)
        return None
    return ContextManager({"capability_context_data": data})


def _shape_problem(data: Any) -> str:
    if not isinstance(data, dict):
        return f"expected a JSON object of context types, got {type(data).__name__}"
    for context_type, entries in data.items():
        if not isinstance(entries, Mapping):
            return f"'{context_type}' must map context keys to objects"
        for key, fields in entries.items():
            if not isinstance(fields, Mapping):
                return f"'{context_type}.{key}' must be an object of fields"
    return ""


__all__ = ["load_context"]
