"""How long a request may be: a sentence or a paragraph, not a pasted file.

Every pass over a request is meant to be linear in its length, but the whole turn (parse,
channel finding on each target, write parsing) still grows faster than the text: an 8,000
character request is planned in about 3 s on a loaded two-core machine, a 50 KB one took half
a minute. A request that long is a log or a script, so every client refuses it at once with
this message (the Gateway for ``ask`` and the window, the chat input for a paste).
"""

from __future__ import annotations

MAX_REQUEST_CHARS = 8000


def too_long_message(length: int) -> str:
    """Why a request of ``length`` characters is not planned, and what to do instead."""
    return (
        f"that text is {length:,} characters and a request can be at most "
        f"{MAX_REQUEST_CHARS:,}. Ask about the part you need, or save the text to a file and "
        "name the file in your request."
    )


__all__ = ["MAX_REQUEST_CHARS", "too_long_message"]
