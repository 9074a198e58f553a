"""The words an operator types to answer a pending approval.

One vocabulary for the Gateway, the command line and the window: an exact word list,
tolerant of case and punctuation, never a guess at a sentence ("yes but use 4 A" is no answer).
"""

from __future__ import annotations

import re

APPROVAL_WORDS: frozenset[str] = frozenset(
    {
        "yes",
        "y",
        "yeah",
        "yep",
        "yes please",
        "ok",
        "okay",
        "approve",
        "approved",
        "confirm",
        "confirmed",
        "go ahead",
        "proceed",
        "do it",
        "sure",
        "accept",
        "accepted",
    }
)
REJECTION_WORDS: frozenset[str] = frozenset(
    {
        "no",
        "n",
        "nope",
        "nah",
        "no thanks",
        "no thank you",
        "cancel",
        "cancelled",
        "reject",
        "rejected",
        "deny",
        "denied",
        "stop",
        "abort",
        "decline",
        "declined",
        "don't",
        "do not",
    }
)
_PUNCTUATION = re.compile(r"[^\w\s']+")


def normalize_answer(text: str) -> str:
    """Lower case, punctuation and extra spaces removed: ``" Go ahead! "`` -> ``"go ahead"``."""
    text = text.replace("\u2019", "'").lower()
    return " ".join(_PUNCTUATION.sub(" ", text).split()).strip("'")


def parse_approval_answer(text: str) -> bool | None:
    """True for an approval word, False for a rejection word, None for anything else."""
    answer = normalize_answer(text)
    if answer in APPROVAL_WORDS:
        return True
    if answer in REJECTION_WORDS:
        return False
    return None


__all__ = ["APPROVAL_WORDS", "REJECTION_WORDS", "normalize_answer", "parse_approval_answer"]
