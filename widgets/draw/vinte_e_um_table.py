"""The 21 table as one HTML picture: the banker on top, the players below in play order; or,
drawn from one seat (`order`), the others on top in play order and that seat at the bottom.

Reusable by any 21 view: `table_html(state, lang, viewer=None, order=None, names=None)` draws
a `GameState` as the seat `viewer` sees it (None: a spectator; "all": every card face up, for
the teacher). `order`: every seat in play order from the seat the table is drawn from (the
engine's `GameSpec.seats_from`): that seat is drawn at the bottom, the others above it from its
left. `names`: {seat: label} shown instead of "Assento N" (a table's players).
Cards are SVG (widgets.draw.svg), chip stacks and bets are small SVG chip pictures. Everything
drawn (which cards are seen, points, chips, bets, outcome) is read from the engine's
`state.view(viewer)`; nothing is decided here.
"""
from __future__ import annotations

from html import escape

from cartas.cards import Card
from widgets.components.i18n import translate
from widgets.draw.svg import card_svg

TEXT = {
    "seat": {"pt": "Assento {seat}", "en": "Seat {seat}"},
    "banker": {"pt": "Banca", "en": "Banker"},
    "chips": {"pt": "fichas", "en": "chips"},
    "bet": {"pt": "aposta", "en": "bet"},
    "points": {"pt": "{points} pontos", "en": "{points} points"},
    "point": {"pt": "1 ponto", "en": "1 point"},
    "hidden": {"pt": "carta fechada", "en": "face-down card"},
    "turn": {"pt": "na vez", "en": "to act"},
    "out": {"pt": "fora da rodada", "en": "sits out"},
    "won": {"pt": "ganhou", "en": "won"},
    "lost": {"pt": "perdeu", "en": "lost"},
    "bust": {"pt": "estourou", "en": "bust"},
}
OUTCOME_COLOURS = {"won": "#2e7d32", "lost": "#b71c1c", "bust": "#b71c1c"}
CHIP_COLOURS = ("#c62828", "#1565c0", "#2e7d32", "#6a1b9a", "#ef6c00")


def chips_svg(count: int, per_column: int = 10, max_columns: int = 4, scale: float = 1.0,
              kind: str = "stack") -> str:
    """A stack of `count` chips as SVG: columns of up to `per_column` chips, and the number.

    Above per_column * max_columns chips the picture stops growing; the number stays exact.
    """
    count = max(0, int(count))
    shown = min(count, per_column * max_columns)
    columns = max(1, -(-shown // per_column))
    width, height = 8 + 26 * columns + 30, 14 + 5 * min(shown, per_column) + 8
    parts = [(f'<svg xmlns="http://www.w3.org/2000/svg" class="cartas-chips cartas-chips-{kind}" '
              f'data-chips="{count}" role="img" width="{round(width * scale)}" '
              f'height="{round(height * scale)}" viewBox="0 0 {width} {height}">'
              f"<title>{count}</title>")]
    for i in range(shown):
        column, level = divmod(i, per_column)
        cx, cy = 17 + 26 * column, height - 9 - 5 * level
        colour = CHIP_COLOURS[column % len(CHIP_COLOURS)]
        parts.append(f'<ellipse cx="{cx}" cy="{cy}" rx="11" ry="5" fill="{colour}" '
                     'stroke="#fff" stroke-width="1.2" stroke-dasharray="3 2"/>')
    if not shown:
        parts.append(f'<ellipse cx="17" cy="{height - 9}" rx="11" ry="5" fill="none" '
                     'stroke="#999" stroke-dasharray="2 2"/>')
    parts.append(f'<text x="{width - 4}" y="{height - 5}" text-anchor="end" font-size="15" '
                 f'font-weight="bold" fill="#222" font-family="DejaVu Sans, Arial, sans-serif">'
                 f"{count}</text></svg>")
    return "".join(parts)


def points_text(points: int, lang: str = "pt") -> str:
    """"1 ponto" / "5 pontos" ("1 point" / "5 points"): the singular for exactly one."""
    return translate(TEXT, "point" if points == 1 else "points", lang, points=points)


def _points_label(view, seat: int, lang) -> str:
    """The engine's total of the cards the viewer sees, noting a face-down card."""
    cards = view.cards[seat]
    known = view.visible_points[seat]
    parts = [points_text(known, lang)] if known is not None else []
    if None in cards:
        parts.append(translate(TEXT, "hidden", lang).strip(" +"))
    return " + ".join(parts)


def seat_html(state, seat: int, lang: str = "pt", viewer=None, card_width: int = 46,
              view=None, names=None) -> str:
    """One seat: name, cards, visible points, chip stack, bet and outcome, drawn from the
    engine's `state.view(viewer)` (pass `view` to reuse one already taken); `names`: {seat:
    label} for a seat's name instead of "Assento N"."""
    view = state.view(viewer) if view is None else view
    is_banker = seat == view.banker
    turn = view.current_seat == seat and view.phase in ("bet", "players", "banker")
    outcome = view.outcome[seat]
    settled = view.settled[seat]  # collected already: drawn faded, marked with the outcome
    name = ((names or {}).get(seat) or translate(TEXT, "seat", lang, seat=seat)) + (
        f" · {translate(TEXT, 'banker', lang)}" if is_banker else "")
    border = "#f9a825" if turn else ("#6d4c41" if is_banker else "#90a4ae")
    badges = []
    if turn:
        badges.append(f'<span class="cartas-turn" style="color:#b34700">● {translate(TEXT, "turn", lang)}</span>')
    if outcome:
        word = translate(TEXT, outcome, lang)
        badges.append(f'<span class="cartas-outcome" data-outcome="{outcome}" '
                      f'style="color:{OUTCOME_COLOURS[outcome]};font-weight:bold">{word}</span>')
    if seat in view.sitting_out:
        badges.append(f'<span style="color:#616161">{translate(TEXT, "out", lang)}</span>')
    card_row = "".join(
        f'<span style="margin-right:3px">'
        f'{card_svg(None if c is None else Card.parse(c), face_up=c is not None, width=card_width)}</span>'
        for c in view.cards[seat])
    if settled:
        card_row = (f'<span class="cartas-shown" data-outcome="{outcome or ""}" '
                    f'title="{translate(TEXT, outcome, lang)}" '
                    f'style="display:flex;opacity:0.45;filter:grayscale(60%)">{card_row}</span>')
    bet, chips = view.bets[seat], view.chips[seat]
    bet_html = (f'<div class="cartas-bet" data-bet="{bet}" title="{translate(TEXT, "bet", lang)}">'
                f'{translate(TEXT, "bet", lang)}: '
                f'{chips_svg(bet, per_column=5, max_columns=1, scale=0.8, kind="bet")}</div>'
                if bet else "")
    return (
        f'<div class="cartas-seat{" cartas-banker" if is_banker else ""}" data-seat="{seat}" '
        f'data-chips="{chips}" data-bet="{bet}" data-outcome="{outcome or ""}" '
        f'style="border:3px solid {border};border-radius:10px;padding:6px;margin:4px;min-width:150px;'
        f'background:{"#fff8e1" if is_banker else "#ffffff"};vertical-align:top">'
        f'<div style="font-weight:bold;font-size:15px">{escape(name)}</div>'
        f'<div style="min-height:{round(card_width * 1.4) + 4}px;display:flex;align-items:flex-end">{card_row}</div>'
        f'<div class="cartas-points" style="font-size:14px">{escape(_points_label(view, seat, lang))}</div>'
        f'<div style="display:flex;align-items:flex-end;gap:8px;font-size:13px">'
        f'<div class="cartas-stack" title="{translate(TEXT, "chips", lang)}">{chips_svg(chips)}</div>{bet_html}</div>'
        f'<div style="font-size:14px">{" ".join(badges)}</div></div>'
    )


def table_html(state, lang: str = "pt", viewer=None, card_width: int = 46, order=None, names=None) -> str:
    """The whole table: the banker's seat on top, then the players from the banker's left; with
    `order` (see the module's docstring), the other seats on top from the first seat's left and
    the first seat at the bottom.

    viewer: None (spectator: face-down cards hidden), a seat number (that seat's own
    face-down card shown) or "all" (every card face up); the engine's `state.view(viewer)`
    decides what is seen.
    """
    view = state.view(viewer)
    banker = view.banker
    top, rest = ([banker], list(view.left_of_banker)) if order is None else (list(order[1:]), [order[0]])
    row = "display:flex;flex-wrap:wrap;justify-content:center"
    drawn = [("top", top), ("bottom", rest)]
    rows = "".join(
        f'<div class="cartas-table-row" data-row="{where}" style="{row}">'
        + "".join(seat_html(state, s, lang, viewer, card_width, view, names) for s in seats) + "</div>"
        for where, seats in drawn)
    return (
        f'<div class="cartas-table" data-banker="{banker}" data-phase="{view.phase}" '
        f'style="background:#1b5e20;border-radius:18px;padding:10px">{rows}</div>'
    )

