"""Pictographs a chat adds to a request ("lt + curr? thx 🙏", "lifetime @ 14:05 yday 👉 ?").

An emoji or a pictograph says how the operator feels, never what they ask: it is dropped, with
the invisible marks that shape it (variation selectors, joiners, skin tones). Arrows stay, in
every block they are typed from ("→", "⬆", "⇒"): they say where a value goes.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["pictographs_dropped"]

#: the blocks of arrows (Arrows, Supplemental Arrows-A and -B, Miscellaneous Symbols and Arrows)
_ARROW_BLOCKS = ((0x2190, 0x21FF), (0x27F0, 0x27FF), (0x2900, 0x297F), (0x2B00, 0x2BFF))
#: marks that shape a pictograph: variation selectors, the zero-width joiner, skin tones, tags
_SHAPING = re.compile("[\ufe0e\ufe0f\u200d\U0001f3fb-\U0001f3ff\U000e0020-\U000e007f]")


def _is_arrow(char: str) -> bool:
    code = ord(char)
    return any(low <= code <= high for low, high in _ARROW_BLOCKS)


def pictographs_dropped(text: str) -> str:
    """``text`` without its pictographs (Unicode "other symbols" that are no arrows)."""
    if text.isascii():
        return text
    kept = _SHAPING.sub("", text)
    kept = "".join(" " if unicodedata.category(c) == "So" and not _is_arrow(c) else c for c in kept)
    return " ".join(kept.split()) if kept != text else text
