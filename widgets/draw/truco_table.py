"""A picture of the truco table as HTML with inline SVG cards, reusable by every truco view.

Main entry point::

    table_html(source, lang="pt", reveal=None, highlight=None, note=None) -> str

`source` is what to draw:

- a `cartas.truco.TrucoState` (the teacher's view: every hand face up unless `reveal` says
  otherwise),
- a `SeatView` (`state.view(seat)`: only what that seat may see; hidden cards are drawn as
  backs, and that seat is marked "you"),
- or a `Table` snapshot (below), which a view builds itself to show moments the state does
  not keep (a deal half done, a finished trick still on the cloth).

`reveal`: None (default, as above), True/False (all hands up / down), or a set of seats
whose hands are face up. Cards the source does not know (None) are always backs.
`highlight`: {card text or Card: kind} with kind a `widgets.draw.svg.HIGHLIGHTS` key
("winner", "selected", ...) or a CSS colour; manilhas in play are ringed in gold anyway.
`note`: a short HTML line shown in the middle of the table.
`order`: the four seats from the bottom round the table in play order (bottom, right, top,
left): the engine's answer for the seat the table is drawn from (`GameSpec.seats_from`), so
that seat sits at the bottom; None draws seat 0 at the bottom.
`names`: {seat: label} shown for those seats instead of "Assento N" (a table's players).

Layout: by default seat 0 at the bottom, 1 at the right, 2 at the top, 3 at the left (play
order goes round the table); mano a mano (two players, the source's `players`) the two face
each other, bottom and top, each named alone (a team of one: its seat or player's name, never
"Dupla"); each seat box says where it sits (`data-place`). Team A is blue,
team B orange (the engine's `team_of` and `team_label`); each seat box says its team, and
marks the dealer, the mão and the seat to act. A side panel shows the vira, the manilhas, the
score, the hand's value and the tricks so far.

Stable hooks for tests: `.cartas-table`, `.cartas-seat[data-seat][data-team][data-place]`,
`.cartas-hand svg[data-card]`, `.cartas-trick-card[data-seat]`, `.cartas-table-vira`,
`.cartas-table-manilhas`, `.cartas-table-value[data-value]`, `.cartas-table-score`.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from html import escape

from cartas.cards import Card
from cartas.truco import TEAM_LETTERS, TEAMS, manilha_label, team_label, team_of, team_seats
from widgets.components.i18n import translate
from widgets.draw.svg import card_svg

TEAM_COLOURS = ("#1565c0", "#b34700")  # team A blue, team B orange: both >= 4.5:1 on white and on their backgrounds
TEAM_BACKGROUNDS = ("#e3f2fd", "#fff3e0")

TEXT = {
    "seat": {"pt": "Assento {seat}", "en": "Seat {seat}"},
    "dealer": {"pt": "dá as cartas", "en": "dealer"},
    "mao": {"pt": "mão", "en": "leads"},
    "turn": {"pt": "a vez", "en": "to act"},
    "you": {"pt": "você", "en": "you"},
    "vira": {"pt": "Vira", "en": "Vira"},
    "no_vira": {"pt": "Sem vira: manilhas fixas", "en": "No vira: fixed manilhas"},
    "manilhas": {"pt": "Manilhas", "en": "Manilhas"},
    "score": {"pt": "Placar", "en": "Score"},
    "value": {"pt": "A mão vale", "en": "Hand worth"},
    "pending": {"pt": "pedido: {name} ({value})", "en": "called: {name} ({value})"},
    "tricks": {"pt": "Rodadas", "en": "Tricks"},
    "tie": {"pt": "empate", "en": "tie"},
    "hand": {"pt": "Mão {n}", "en": "Hand {n}"},
    "ferro": {"pt": "mão de ferro", "en": "mão de ferro"},
    "covered": {"pt": "{seat}: carta coberta", "en": "{seat}: face-down card"},
    "nth": {"pt": "{n}ª", "en": "{n}"},
}

# place round the table (bottom, then play order round it) -> grid area of the 3 x 3 table
PLACES = ("bottom", "right", "top", "left")
PLACES_BY_PLAYERS = {4: PLACES, 2: ("bottom", "top")}  # mano a mano the two face each other
_AREAS = {"bottom": "3 / 2", "right": "2 / 3", "top": "1 / 2", "left": "2 / 1"}
_TRICK_SPOTS = _AREAS


@dataclass
class Table:
    """Everything the picture needs; build one with `Table.from_state` or by hand.

    Cards are `Card` objects, or None for a card the viewer may not see.
    """

    variant: object
    hands: list = field(default_factory=lambda: [[], [], [], []])
    trick: list = field(default_factory=list)          # [(seat, Card or None if face down)]
    vira: Card | None = None
    manilhas: tuple = ()
    dealer: int | None = None
    mao: int | None = None
    current_seat: int | None = None
    score: tuple = (0, 0)
    hand_value: int | None = None
    pending_raise: dict | None = None
    trick_results: list = field(default_factory=list)
    hand_number: int | None = None
    mode: str = "normal"
    viewer: int | None = None                           # the seat "you" are, for a SeatView
    pack: int = 0                                      # cards left face down in the pack
    players: int = 4                                   # 4, or 2 mano a mano

    @classmethod
    def from_state(cls, source) -> Table:
        """A snapshot of a TrucoState or SeatView (what the view may see)."""
        hands = source.hands
        viewer = getattr(source, "seat", None) if not hasattr(source, "apply_action") else None
        return cls(
            variant=source.variant, hands=[list(h) for h in hands],
            trick=list(source.current_trick), vira=source.vira, manilhas=tuple(source.manilhas),
            dealer=source.dealer, mao=source.mao, current_seat=source.current_seat,
            score=tuple(source.score), hand_value=source.hand_value,
            pending_raise=source.pending_raise, trick_results=list(source.trick_results),
            hand_number=source.hand_number, mode=source.mode, viewer=viewer,
            players=getattr(source, "players", 4),
        )

    def with_(self, **changes) -> Table:
        return replace(self, **changes)


def _as_table(source) -> Table:
    return source if isinstance(source, Table) else Table.from_state(source)


def _faces(reveal, players: int = 4) -> list[bool]:
    if reveal is None:
        reveal = True  # a state: teacher's view; a view: its None entries are backs anyway
    if isinstance(reveal, bool):
        return [reveal] * players
    seats = set(reveal)
    return [s in seats for s in range(players)]


def _team_name(table: Table, team: int, lang: str, names=None) -> str:
    """ "Dupla A"; mano a mano the team's one seat, by its name ("Assento 1", "Ana")."""
    if table.players == 2:
        return _seat_name(team_seats(team, 2)[0], lang, names)
    return team_label(team, lang)


def _highlights(highlight) -> dict[str, str]:
    return {str(Card.parse(k)): v for k, v in (highlight or {}).items()}


def _badge(text: str, colour: str) -> str:
    return (f'<span class="cartas-badge" style="display:inline-block;padding:1px 6px;margin-left:4px;'
            f'border-radius:9px;background:{colour};color:white;font-size:12px">{escape(text)}</span>')


def _card(card, face_up: bool, width: int, manilhas, marks, title=None, lang: str = "pt") -> str:
    hl = None
    if card is not None and face_up:
        text = str(card)
        hl = marks.get(text) or ("manilha" if card in manilhas else None)
    return card_svg(card, face_up=face_up and card is not None, width=width, highlight=hl, title=title, lang=lang)


def _seat_name(seat: int, lang: str, names) -> str:
    """The seat's label: its player's name when `names` has one, else "Assento N"."""
    return (names or {}).get(seat) or translate(TEXT, "seat", lang, seat=seat)


def _seat_box(table: Table, seat: int, face_up: bool, lang: str, marks, compact: bool = False,
              place: str = "bottom", names=None) -> str:
    team = team_of(seat)
    colour = TEAM_COLOURS[team]
    badges = []
    if table.viewer == seat:
        badges.append(_badge(translate(TEXT, "you", lang), "#455a64"))
    if table.dealer == seat:
        badges.append(_badge(translate(TEXT, "dealer", lang), "#6d4c41"))
    if table.mao == seat:
        badges.append(_badge(translate(TEXT, "mao", lang), "#00695c"))
    if table.current_seat == seat:
        badges.append(_badge(translate(TEXT, "turn", lang), "#c2185b"))
    glow = "box-shadow:0 0 0 4px #f48fb1;" if table.current_seat == seat else ""
    width = 44 if compact else 50
    cards = "".join(f'<span style="margin:0 2px">{_card(c, face_up, width, table.manilhas, marks, lang=lang)}</span>'
                    for c in table.hands[seat])
    seat_text = escape(_seat_name(seat, lang, names))
    team_text = "" if table.players == 2 else f" · {escape(team_label(team, lang))}"  # a team of one
    head = (f'<div class="cartas-seat-head" style="font-weight:bold;color:{colour};font-size:14px">'
            f'{seat_text}{team_text}{"".join(badges)}</div>')
    return (f'<div class="cartas-seat" data-seat="{seat}" data-team="{TEAM_LETTERS[team]}" data-place="{place}" '
            f'style="grid-area:{_AREAS[place]};justify-self:center;align-self:center;text-align:center;'
            f'border:3px solid {colour};background:{TEAM_BACKGROUNDS[team]};border-radius:10px;'
            f'padding:4px 6px;min-width:{150 if compact else 170}px;{glow}">{head}'
            f'<div class="cartas-hand" style="min-height:{66 if compact else 74}px;display:flex;'
            f'justify-content:center">{cards}</div></div>')


def _trick_area(table: Table, lang: str, marks, note, compact: bool = False, places=None, names=None) -> str:
    spots = []
    places = places or dict(zip(range(table.players), PLACES_BY_PLAYERS[table.players]))
    for seat, card in table.trick:
        covered = None if card is not None else translate(TEXT, "covered", lang, seat=_seat_name(seat, lang, names))
        svg = _card(card, card is not None, 50 if compact else 60, table.manilhas, marks, title=covered, lang=lang)
        spots.append(f'<div class="cartas-trick-card" data-seat="{seat}" data-place="{places[seat]}" '
                     f'style="grid-area:{_TRICK_SPOTS[places[seat]]};justify-self:center;align-self:center">{svg}</div>')
    if table.pack:
        spots.append(f'<div class="cartas-pack" data-cards="{table.pack}" style="grid-area:2 / 2;'
                     f'justify-self:center;align-self:center;text-align:center">'
                     f'{card_svg(None, width=50, lang=lang)}'
                     f'<div style="font-size:12px;color:#fff">{table.pack}</div></div>')
    size = 210 if compact else 250
    note_html = (f'<div class="cartas-table-note" style="grid-area:2 / 1 / 3 / 4;align-self:end;'
                 f'text-align:center;color:#fff;font-size:14px">{note}</div>') if note else ""
    return (f'<div class="cartas-trick" style="grid-area:2 / 2;display:grid;grid-template-columns:1fr 1fr 1fr;'
            f'grid-template-rows:1fr 1fr 1fr;width:{size}px;height:{size}px;background:#2e7d32;border-radius:50%;'
            f'border:6px solid #1b5e20;justify-self:center;align-self:center">{"".join(spots)}{note_html}</div>')


def _side_panel(table: Table, lang: str, marks, compact: bool = False, seat_names=None) -> str:
    parts = []
    if table.hand_number:
        mode = f" · {translate(TEXT, 'ferro', lang)}" if table.mode == "mao_de_ferro" else ""
        parts.append(f"<div style='font-weight:bold'>{translate(TEXT, 'hand', lang, n=table.hand_number)}{mode}</div>")
    if getattr(table.variant, "uses_vira", False):
        vira = card_svg(table.vira, width=56, highlight="vira", lang=lang) if table.vira is not None \
            else card_svg(None, width=56, lang=lang)
        parts.append(f"<div class='cartas-table-vira' data-card='{table.vira or ''}'>"
                     f"<div>{translate(TEXT, 'vira', lang)}</div>{vira}</div>")
    elif table.variant is not None:
        parts.append(f"<div class='cartas-table-vira' data-card=''>{translate(TEXT, 'no_vira', lang)}</div>")
    if table.manilhas:
        names = [manilha_label(n, lang) for n in getattr(table.variant, "manilha_names", ())] or [""] * 4
        row = "".join(f"<span title='{escape(n)}' style='margin-right:2px'>"
                      f"{card_svg(c, width=34, highlight='manilha', lang=lang)}</span>"
                      for c, n in zip(table.manilhas, names))
        label = translate(TEXT, "manilhas", lang)
        parts.append(f"<div class='cartas-table-manilhas'><div>{label} (↑)</div>{row}</div>")
    score = " ".join(
        f"<span style='color:{TEAM_COLOURS[t]};font-weight:bold'>{escape(_team_name(table, t, lang, seat_names))}: "
        f"{table.score[t]}</span>" for t in TEAMS)
    parts.append(f"<div class='cartas-table-score'>{translate(TEXT, 'score', lang)}: {score}</div>")
    if table.hand_value is not None:
        pending = ""
        if table.pending_raise:
            pending = " · " + escape(translate(TEXT, "pending", lang, name=table.pending_raise["name"],
                                        value=table.pending_raise["value"]))
        label = translate(TEXT, "value", lang)
        parts.append(f"<div class='cartas-table-value' data-value='{table.hand_value}'>"
                     f"{label}: <b style='font-size:20px'>{table.hand_value}</b>{pending}</div>")
    if table.trick_results:
        pills = "".join(
            f"<span style='display:inline-block;margin:1px;padding:1px 6px;border-radius:8px;color:white;"
            f"background:{'#757575' if r is None else TEAM_COLOURS[r]}'>"
            f"{translate(TEXT, 'nth', lang, n=i)}: "
            f"{escape(translate(TEXT, 'tie', lang) if r is None else _team_name(table, r, lang, seat_names))}</span>"
            for i, r in enumerate(table.trick_results, start=1))
        parts.append(f"<div class='cartas-table-tricks'>{translate(TEXT, 'tricks', lang)}: {pills}</div>")
    if compact:  # one row under the table
        inner = "".join(f"<div style='margin-right:14px'>{p}</div>" for p in parts)
        return (f"<div class='cartas-table-side' style='font-size:13px;display:flex;flex-wrap:wrap;"
                f"align-items:flex-start;max-width:560px;padding:4px 6px;border-top:2px solid #ccc'>{inner}</div>")
    inner = "".join(f"<div style='margin-bottom:6px'>{p}</div>" for p in parts)
    return (f"<div class='cartas-table-side' style='font-size:14px;min-width:190px;max-width:220px;"
            f"padding:6px 10px;border-left:2px solid #ccc'>{inner}</div>")


def table_html(source, lang: str = "pt", reveal=None, highlight=None, note: str | None = None,
               compact: bool = False, order=None, names=None) -> str:
    """The whole table as one HTML string (see the module docstring for the arguments).

    compact: a narrower table (about 570 px wide) with the score panel in a row underneath,
    leaving room beside it for a player's cards and buttons on a 1024 px screen."""
    table = _as_table(source)
    faces = _faces(reveal, table.players)
    marks = _highlights(highlight)
    seated = range(table.players)  # 4, or 2 mano a mano
    places = dict(zip(seated if order is None else order, PLACES_BY_PLAYERS[table.players]))  # seat -> where
    seats = "".join(_seat_box(table, s, faces[s], lang, marks, compact, places[s], names) for s in seated)
    columns, middle = ("175px 220px 175px", "220px") if compact else ("210px 270px 210px", "270px")
    grid = (f"<div class='cartas-table-grid' style='display:grid;grid-template-columns:{columns};"
            f"grid-template-rows:auto {middle} auto;gap:6px'>{seats}"
            f"{_trick_area(table, lang, marks, note, compact, places, names)}</div>")
    direction = "flex-direction:column;" if compact else ""
    side = _side_panel(table, lang, marks, compact, names)
    return (f"<div class='cartas-table' style='display:flex;{direction}align-items:flex-start;gap:10px;"
            f"font-family:DejaVu Sans, Arial, sans-serif'>{grid}{side}</div>")
