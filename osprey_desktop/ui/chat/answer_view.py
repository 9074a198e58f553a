"""An ``Answer`` as transcript HTML: tables with alarm and outcome colours, refusals framed.

Qt's rich text supports a subset of HTML: tables with ``bgcolor`` cells and ``<font>`` colours
render the same offscreen, under Xvfb and on a desktop, so that is all this module uses.
"""

from __future__ import annotations

import html
import time
from datetime import datetime

from osprey_desktop.answers.model import Answer, Cell, Table
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


def stamp_text(epoch: float | None, now: float | None = None) -> str:
    """``14:02:55`` for today, ``2026-11-23 14:02`` for another day; '' when unknown."""
    if epoch is None:
        return ""
    moment = datetime.fromtimestamp(epoch)
    today = datetime.fromtimestamp(time.time() if now is None else now).date()
    if moment.date() == today:
        return f"{moment:%H:%M:%S}"
    return f"{moment:%Y-%m-%d %H:%M}"


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


def table_html(table: Table) -> str:
    """The table with its title, a link to its context entry, and its notes."""
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
