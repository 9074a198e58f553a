"""Every symbol the window shows exists in the UI font (DejaVu Sans here), not as an empty box."""

from __future__ import annotations

import io
import tokenize
from pathlib import Path

import pytest
from PySide6.QtGui import QFontMetrics

import osprey_desktop.ui
from osprey_desktop.ui.plan_viewer import STATE_LOOK

pytestmark = pytest.mark.gui

UI_SOURCES = Path(osprey_desktop.ui.__file__).parent


def symbols_in_ui_strings() -> dict[str, str]:
    """Non-ASCII characters in the string literals of the UI sources -> where the first is."""
    found: dict[str, str] = {}
    for path in sorted(UI_SOURCES.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type not in (tokenize.STRING, getattr(tokenize, "FSTRING_MIDDLE", -1)):
                continue
            for char in token.string:
                if ord(char) > 127:
                    found.setdefault(char, f"{path.name}:{token.start[0]}")
    return found


def missing(chars, qapp) -> list[str]:
    metrics = QFontMetrics(qapp.font())
    return [c for c in chars if not metrics.inFontUcs4(ord(c))]


def test_plan_state_glyphs_are_in_the_ui_font(qapp):
    glyphs = {label.split(" ", 1)[0] for label, _colour in STATE_LOOK.values()}
    assert "‖" in glyphs  # awaiting approval; the pause sign ⏸ drew an empty box
    assert missing(glyphs, qapp) == []


def test_every_symbol_in_the_ui_strings_is_in_the_ui_font(qapp):
    symbols = symbols_in_ui_strings()
    assert {"⚠", "✓", "→"} <= set(symbols)  # the scan sees the sources' symbols
    absent = missing(symbols, qapp)
    assert absent == [], {c: (f"U+{ord(c):04X}", symbols[c]) for c in absent}
