"""What the two play views share about the coach: the hint's box and the review's list.

The advice itself comes from `cartas.coach`; a view keeps the learner's decisions and says
which went against the advice (`misses`). This module only draws: the green hint note and
the review, "k of n decisions went against the hint", in the view's language.
"""
from __future__ import annotations

from collections.abc import Callable
from html import escape

REVIEW_TEXT = {
    "review": {"pt": "Revisão", "en": "Review"},
    "review_title": {"pt": "Suas decisões contra a dica", "en": "Your decisions against the hint"},
    "review_none": {"pt": "Nenhuma das suas {n} decisões foi contra a dica.",
                    "en": "None of your {n} decisions went against the hint."},
    "review_count": {"pt": "{k} de {n} decisões foram contra a dica:",
                     "en": "{k} of {n} decisions went against the hint:"},
}

NOTE_STYLE = "font-size:15px;background:#e8f5e9;padding:6px 10px;border-radius:6px"


def note_html(inner_html: str, action: str | None = None) -> str:
    """The hint's green note (class cartas-hint-text) around already-escaped HTML; `action`,
    if given, lands in data-action for tests and styling."""
    data = "" if action is None else f" data-action='{escape(action, quote=True)}'"
    return f"<div class='cartas-hint-text'{data} style='{NOTE_STYLE}'>{inner_html}</div>"


def review_html(t: Callable[..., str], decided: int, misses: list[str]) -> tuple[str, str]:
    """(HTML, plain text) of the review: `t` is the view's translator (it must know
    review_title, review_empty, review_none and review_count); `misses` the sentences of the
    decisions that went against the advice, out of `decided` decisions."""
    if not decided:
        head = t("review_empty")
    elif not misses:
        head = t("review_none", n=decided)
    else:
        head = t("review_count", k=len(misses), n=decided)
    body = "".join(f"<li class='cartas-review-item'>{escape(x)}</li>" for x in misses)
    html = (f"<div class='cartas-review-text' style='font-size:14px;background:#fff8e1;"
            f"padding:6px 10px;border-radius:6px'><b>{escape(t('review_title'))}</b>"
            f"<div>{escape(head)}</div><ul style='margin:4px 0'>{body}</ul></div>")
    return html, " ".join([head] + misses)
