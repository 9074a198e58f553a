"""An ``Answer`` as transcript HTML: tables with alarm and outcome colours, refusals framed.

Qt's rich text supports a subset of HTML: tables with ``bgcolor`` cells and ``<font>`` colours
render the same offscreen, under Xvfb and on a desktop, so that is all this module uses.
"""

from __future__ import annotations

import dataclasses
import html
from datetime import datetime

from osprey_desktop.answers.model import Answer, Cell, Table
from osprey_desktop.ui.chat.stamps import stamp_text
from osprey_desktop.ui.values import ALARM_CELL

#: (background, text) of a write outcome cell.
OUTCOME_CELL: dict[str, tuple[str, str]] = {
    "good": ("#c8e6c9", "#1b5e20"),
    "warning": ("#fff3c4", "#5d4200"),
    "refused": ("#ffe0b2", "#8a3b00"),
    "bad": ("#e53935", "#ffffff"),
}
#: (frame background, border, headline colour, mark) of an answer by tone.
TONE_LOOK: dict[str, tuple[str, str, str, str]] = {
    "refused": ("#fff8ec", "#ef8f00", "#8a3b00", "⊘"),
    "failed": ("#fdecea", "#c62828", "#b71c1c", "✗"),
}
HEADER_BG = "#eceff1"
DETAILS_STYLE = "color:#546e7a; font-size:small;"


def cell_html(cell: Cell, header: bool = False) -> str:
    text = html.escape(cell.text) if cell.text else "&nbsp;"
    colours = ALARM_CELL.get(cell.severity) or OUTCOME_CELL.get(cell.look)
    align = ' align="right"' if cell.numeric else ""
    if colours is not None:
        background, foreground = colours
        bold = "<b>" if cell.severity or cell.look in ("bad", "refused") else ""
        unbold = "</b>" if bold else ""
        return (
            f'<td bgcolor="{background}"{align}>{bold}<font color="{foreground}">{text}</font>'
            f"{unbold}</td>"
        )
    return f"<td{align}>{text}</td>"


READ_AT = "read at "


def with_sample_times(table: Table) -> Table:
    """A values table's Age column as the sample's time with its age beside it
    ("14:03:12 · 3 s"): the operator compares a value with the clock and the logbook by its
    time. Tables without ``read at`` hints are returned as they are."""
    if "Age" not in table.columns:
        return table
    column = table.columns.index("Age")
    rows = []
    for row in table.rows:
        cell = row[column] if column < len(row) else None
        hint = cell.hint if cell is not None else ""
        if cell is None or not hint or not hint.startswith(READ_AT):
            rows.append(row)
            continue
        try:
            moment = datetime.strptime(hint[len(READ_AT) :], "%Y-%m-%d %H:%M:%S")
        except ValueError:
            rows.append(row)
            continue
        timed = Cell(f"{stamp_text(moment.timestamp())} · {cell.text}", hint=hint)
        rows.append([*row[:column], timed, *row[column + 1 :]])
    columns = [*table.columns[:column], "Time · age", *table.columns[column + 1 :]]
    return dataclasses.replace(table, columns=columns, rows=rows)


REPEATED_NOTE = 3  # a note on this many rows or more is said once, under the table


def with_shared_notes(table: Table) -> Table:
    """One note repeated on many rows (36 writes "not written because another operation was
    blocked: …") hides the row that differs: the differing rows come first, and the repeated
    note is said once under the table, its cells pointing there."""
    if "Note" not in table.columns:
        return table
    column = table.columns.index("Note")
    texts = [row[column].text if column < len(row) else "" for row in table.rows]
    counts: dict[str, int] = {}
    for text in texts:
        if text:
            counts[text] = counts.get(text, 0) + 1
    shared = [t for t, n in counts.items() if n >= REPEATED_NOTE]
    if not shared or len(shared) == 1 and counts[shared[0]] == len(table.rows):
        return table
    first, rest, notes = [], [], list(table.notes)
    for row, text in zip(table.rows, texts, strict=True):
        if text in shared:
            mark = f"see note {shared.index(text) + 1} below"
            old = row[column]
            cell = Cell(mark, severity=old.severity, look=old.look, hint=old.text)
            rest.append([*row[:column], cell, *row[column + 1 :]])
        else:
            first.append(row)
    for i, text in enumerate(shared, start=1):
        notes.append(f"Note {i} ({counts[text]} channels): {text}")
    return dataclasses.replace(table, rows=first + rest, notes=notes)


def table_html(table: Table) -> str:
    """The table with its title, a link to its context entry, and its notes."""
    table = with_shared_notes(with_sample_times(table))
    parts = []
    title = html.escape(table.title)
    details = ""
    if table.source is not None:
        ctype, key = table.source
        details = (
            f' &nbsp;<a href="osprey-desktop://context/{html.escape(ctype)}/{html.escape(key)}"'
            f' style="{DETAILS_STYLE}">details ›</a>'
        )
    if title:
        parts.append(f"<p><b>{title}</b>{details}</p>")
    head = "".join(
        f'<th bgcolor="{HEADER_BG}" align="left">{html.escape(c)}</th>' for c in table.columns
    )
    body = "".join("<tr>" + "".join(cell_html(c) for c in row) + "</tr>" for row in table.rows)
    parts.append(
        '<table border="1" cellspacing="0" cellpadding="3" style="border-color:#cfd8dc; '
        f'border-style:solid;"><tr>{head}</tr>{body}</table>'
    )
    for note in table.notes:
        parts.append(f'<p style="color:#455a64;">{html.escape(note)}</p>')
    return "".join(parts)


def headline_html(answer: Answer) -> str:
    """The first line of a refused or failed answer; '' otherwise."""
    look = TONE_LOOK.get(answer.tone)
    if look is None:
        return ""
    _, _, colour, mark = look
    words = answer.headline or ("Refused" if answer.tone == "refused" else "Failed")
    return f'<p><b><font color="{colour}">{mark} {html.escape(words)}</font></b></p>'


__all__ = ["TONE_LOOK", "cell_html", "headline_html", "stamp_text", "table_html"]
