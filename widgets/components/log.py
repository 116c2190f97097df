"""The game log ("O que aconteceu" / "What happened") that several pages show.

Decided rule: the log reads oldest first, top to bottom, like any story, and the newest line
is in view: the scroll box is a reversed flex column around one block of lines in their
order, so the browser starts it, and keeps it, scrolled to the bottom (no script), while the
page's text (and a screen reader) keeps the lines in the order they happened.
"""
from __future__ import annotations

from html import escape

LOG_HEIGHT = 220  # px


def log_html(title: str, lines) -> str:
    """The log box: `title` in bold, then `lines` (plain text, oldest first), each escaped."""
    body = "".join(f"<div class='cartas-log-line'>{escape(line)}</div>" for line in lines)
    return (f"<b>{escape(title)}</b><div class='cartas-log-scroll' tabindex='0' role='log' "
            f"aria-label='{escape(title)}' "
            f"style='max-height:{LOG_HEIGHT}px;overflow-y:auto;display:flex;flex-direction:column-reverse;"
            f"font-size:14px;border:1px solid #ddd;padding:4px 8px'><div>{body}</div></div>")
