"""What the live class quiz's two pages share: the fast ticker, a lesson question as the store
keeps it, and the drawings (answers arriving, the histogram, the leaderboard).

Decided rules (docs/rules.md#live-quiz-points, classroom.live):
- The pages refresh on the browser's timer (`LiveTicker`, a `widgets.components.ticker.Ticker`
  whose interval may be a fraction of a second), never in a loop in the kernel: the projector
  every PROJECTOR_SECONDS, a phone every PHONE_SECONDS, and only while the page is visible.
- A lesson's question (`widgets.components.exercises.Question`, from the lesson's own
  generator) goes to the store as plain texts: the prompt and the reason as the lesson wrote
  them (HTML), each option's label in both languages, the index of the right one, and the
  skill it trains (its answers count for the learner's mastery).
- Every text a learner's page receives from the store is drawn as the lesson made it; names
  and option labels are escaped.
- The histogram (issue 29 item 5): each option's bar takes its colour from BAR_COLOURS while
  the answer is hidden; once revealed, the right answer's bar is RIGHT_COLOUR, one fixed colour
  that is none of BAR_COLOURS, and its label carries a ✓ (in RIGHT_COLOUR, bold: not colour
  alone); the other bars fade. Bars are compact (BAR_PX high) so that ten options, the question
  and the leaderboard fit a 1280×800 projector together.
"""
from __future__ import annotations

from html import escape

import traitlets

from cartas.questions import Question, Text
from widgets.components.i18n import LANGUAGES, translate
from widgets.components.ticker import Ticker

PROJECTOR_SECONDS = 0.5
PHONE_SECONDS = 1.0
BAR_COLOURS = ("#1565c0", "#c62828", "#ef6c00", "#6a1b9a", "#00838f", "#6d4c41")  # no green: that is the right one's
RIGHT_COLOUR = "#1b5e20"  # the right answer's bar and ✓, whatever its option (7.9:1 on white)
BAR_PX = 24

TEXT = {
    "answered": {"pt": "{n} de {m} responderam", "en": "{n} of {m} answered"},
    "left": {"pt": "{s} s", "en": "{s} s"},
    "right_answer": {"pt": "Resposta certa: {answer}", "en": "Right answer: {answer}"},
    "leaders": {"pt": "Placar", "en": "Leaderboard"},
    "points": {"pt": "{n} pontos", "en": "{n} points"},
    "nobody": {"pt": "Ninguém entrou ainda.", "en": "Nobody has joined yet."},
}


class LiveTicker(Ticker):
    """The ticker with an interval in seconds that may be a fraction (the same browser code)."""

    seconds = traitlets.Float(PROJECTOR_SECONDS).tag(sync=True)  # type: ignore[assignment]


def _label(label) -> dict:
    if isinstance(label, dict | Text):
        return {lang: str(label[lang]) for lang in LANGUAGES}
    return {lang: str(label) for lang in LANGUAGES}


def stored_question(lesson: str, question: Question) -> dict:
    """A lesson's `Question` as `classroom.live` keeps it (see the module's rules)."""
    values = [value for value, _ in question.options]
    return {"lesson": lesson, "prompt": {lang: question.prompt[lang] for lang in LANGUAGES},
            "options": [_label(label) for _, label in question.options],
            "answer": values.index(question.answer),
            "why": {lang: question.reason[lang] for lang in LANGUAGES}, "skill": question.skill,
            # what makes it again, so each answer is kept whole (classroom.live checks it)
            **({"kind": question.kind, "seed": question.seed, "variant": question.variant}
               if question.seed is not None else {})}


def say(key: str, lang: str, **fields) -> str:
    return translate(TEXT, key, lang, **fields)


def histogram_html(board: dict, lang: str, reveal: bool) -> str:
    """One bar per option (answers to it), the right one marked once `reveal`."""
    counts = board.get("counts") or []
    top = max(counts, default=0) or 1
    bars = []
    for k, (option, n) in enumerate(zip(board.get("options") or [], counts)):
        right = reveal and k == board.get("answer")
        colour = RIGHT_COLOUR if right else BAR_COLOURS[k % len(BAR_COLOURS)]
        mark = (f" <span class='cartas-live-tick' style='color:{RIGHT_COLOUR};font-weight:bold'>✓</span>"
                if right else "")
        bars.append(
            f"<div class='cartas-live-bar' data-option='{k}' data-count='{n}' data-right='{int(right)}' "
            f"style='display:flex;align-items:center;gap:8px;margin:2px 0;font-size:19px'>"
            f"<span style='width:30%;{'font-weight:bold' if right else ''}'>{escape(option[lang])}{mark}</span>"
            f"<span class='cartas-live-fill' style='display:inline-block;height:{BAR_PX}px;"
            f"width:{60 * n / top:.1f}%;min-width:4px;background:{colour};"
            f"opacity:{1 if right or not reveal else 0.45}'></span>"
            f"<b>{n}</b></div>")
    return f"<div class='cartas-live-histogram'>{''.join(bars)}</div>"


def leaders_html(board: dict, lang: str) -> str:
    """The leaderboard: names (escaped) and points, best first."""
    leaders = board.get("leaders") or []
    if not leaders:
        return f"<p class='cartas-live-leaders'>{escape(say('nobody', lang))}</p>"
    rows = "".join(f"<tr data-name='{escape(row['name'])}' data-points='{row['points']}'>"
                   f"<td>{k}.</td><td><b>{escape(row['name'])}</b></td>"
                   f"<td style='text-align:right'>{escape(say('points', lang, n=row['points']))}</td></tr>"
                   for k, row in enumerate(leaders, 1))
    return (f"<div class='cartas-live-leaders'><h3 style='margin:6px 0'>{escape(say('leaders', lang))}</h3>"
            f"<table style='font-size:19px;border-spacing:12px 2px'>{rows}</table></div>")
