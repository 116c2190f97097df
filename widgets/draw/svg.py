"""Cards drawn as inline SVG: no images, fonts or scripts fetched from anywhere.

The pictures are plain strings, so `ipywidgets.HTML` shows them in JupyterLab and in Voilà.
Sizes are in CSS pixels and scale well on a classroom projector.
"""
from __future__ import annotations

from html import escape

from cartas.cards import Card, face_down_name
from widgets.components import page
from widgets.components.i18n import LANGUAGES

RED = "#c62828"
BLACK = "#1b1b1b"
HIGHLIGHTS = {
    "manilha": "#f9a825",   # gold ring: a manilha
    "vira": "#1565c0",      # blue ring: the vira
    "winner": "#2e7d32",    # green ring: the card that takes the trick
    "selected": "#6a1b9a",
}

_FONT = "font-family=\"DejaVu Sans, Arial, Helvetica, sans-serif\""


def card_name(card: Card | None, face_up: bool = True, lang: str | None = None) -> str:
    """A card's name in words in `lang` (default: the page's language), from the engine's card
    catalogue: "sete de copas" / "seven of hearts", or "carta virada para baixo" /
    "face-down card" for a back."""
    lang = lang if lang in LANGUAGES else page.current()
    return card.spoken(lang) if card is not None and face_up else face_down_name(lang)


def card_svg(card: Card | None, face_up: bool = True, width: int = 72,
             highlight: str | None = None, label: str | None = None,
             title: str | None = None, lang: str | None = None) -> str:
    """One card as an <svg> element.

    `card=None` or `face_up=False` draws the back (carta coberta). `highlight` is a key of
    HIGHLIGHTS (or a CSS colour) and draws a thick ring. `label` is a caption under the card.
    The accessible name (`aria-label` and `<title>`, also a tooltip) is `title`, else the
    card's name in words in `lang` (`card_name`; default the page's language).
    """
    box_height = 140 + (22 if label else 0)  # viewBox units; the card is 100 x 140
    ring = HIGHLIGHTS.get(highlight, highlight) if highlight else None
    name = title or card_name(card, face_up, lang)
    if label and not title:
        name = f"{name} ({label})"
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="cartas-card" role="img" aria-label="{escape(name)}" '
        f'width="{width}" height="{round(width * box_height / 100)}" viewBox="0 0 100 {box_height}" '
        f'data-card="{escape(str(card)) if card is not None and face_up else "back"}">',
        f"<title>{escape(name)}</title>",
    ]
    if ring:
        parts.append(f'<rect x="1" y="1" width="98" height="138" rx="9" fill="{ring}"/>')
    inset = 6 if ring else 2
    body = (f'x="{inset}" y="{inset}" width="{100 - 2 * inset}" height="{140 - 2 * inset}" rx="7"')
    if card is None or not face_up:
        parts.append(f'<rect {body} fill="#284b8f" stroke="#0d2450" stroke-width="1.5"/>')
        parts.append(
            f'<rect x="{inset + 7}" y="{inset + 7}" width="{86 - 2 * inset}" height="{126 - 2 * inset}" '
            'rx="4" fill="none" stroke="#e3eaf7" stroke-width="2" stroke-dasharray="5 4"/>'
        )
        parts.append(f'<text x="50" y="80" text-anchor="middle" font-size="26" fill="#e3eaf7" {_FONT}>✦</text>')
    else:
        colour = RED if card.suit.is_red else BLACK
        rank, suit = escape(card.rank.value), card.suit.value
        small = 22 if len(rank) == 1 else 18
        parts.append(f'<rect {body} fill="#ffffff" stroke="#555" stroke-width="1.5"/>')
        parts.append(
            f'<text x="{inset + 6}" y="{inset + 23}" font-size="{small}" font-weight="bold" '
            f'fill="{colour}" {_FONT}>{rank}</text>'
            f'<text x="{inset + 6}" y="{inset + 44}" font-size="20" fill="{colour}" {_FONT}>{suit}</text>'
            f'<text x="52" y="95" text-anchor="middle" font-size="52" fill="{colour}" {_FONT}>{suit}</text>'
            f'<g transform="rotate(180 50 70)"><text x="{inset + 6}" y="{inset + 23}" font-size="{small}" '
            f'font-weight="bold" fill="{colour}" {_FONT}>{rank}</text></g>'
        )
    if label:
        parts.append(
            f'<text x="50" y="{box_height - 4}" text-anchor="middle" font-size="16" '
            f'fill="#333" {_FONT}>{escape(label)}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def cards_row(cards, width: int = 72, highlights=None, labels=None, face_up=True, gap: int = 6,
              lang: str | None = None) -> str:
    """Several cards side by side, as HTML. `highlights`/`labels`: one entry per card or None;
    `lang`: the language of the cards' names (`card_svg`)."""
    cards = list(cards)
    highlights = list(highlights or [None] * len(cards))
    labels = list(labels or [None] * len(cards))
    faces = face_up if isinstance(face_up, (list, tuple)) else [face_up] * len(cards)
    items = "".join(
        f'<span style="display:inline-block;margin-right:{gap}px">'
        f"{card_svg(card, face, width, hl, lb, lang=lang)}</span>"
        for card, face, hl, lb in zip(cards, faces, highlights, labels)
    )
    return f'<div class="cartas-row" style="display:flex;flex-wrap:wrap;align-items:flex-end">{items}</div>'
