"""Answers as operators read them: tables of values, histories and write results, in the core.

``compose`` builds an ``Answer`` from a turn's contexts; the window renders it with alarm and
outcome colours, the command line prints its Markdown (``Answer.to_markdown``).
"""

from osprey_desktop.answers.compose import AnswerPlan, compose_answer, plan_answer
from osprey_desktop.answers.model import (
    ANSWER_KEY,
    Answer,
    Cell,
    Table,
    TextBlock,
    answer_of_message,
)

__all__ = [
    "ANSWER_KEY",
    "Answer",
    "AnswerPlan",
    "Cell",
    "Table",
    "TextBlock",
    "answer_of_message",
    "compose_answer",
    "plan_answer",
]
