"""What the pages draw and open for each family of games, named once (issue 30, item 3).

The engine's registry says which family a game is (`cartas.games.GameSpec.family`: "truco",
"21"); this is the one place the widgets name a family. Each `FamilyViews` gives:

- `notebook`: the dashboard that plays a game of the family (homework links to it);
- `play()`: its view class, imported when a game is first played (a page that only lists
  games loads no game page);
- `takes_variant`: whether that page starts in a variant an item names (truco's Paulista or
  Mineiro; 21 has one game);
- `draw(state, lang, seat, order=None, names=None)`: the table as HTML, as `seat` sees it:
  a seat number (her own cards face up), None (a spectator) or "all" (every card face up: a
  scenario's builder). Drawings load with a first table.
- `card_example`: how cards are written in a field of the family's scenarios;
- `live_from_scenarios`: whether a live quiz question can be drawn from a scenario of the
  family (the truco coach's decision at the position; 21 positions have no live question yet);
- `label`: the family's name on the scenario builder's game toggle;
- `course_group`: the name (pt, en) of the index's group of the family's lessons (a lesson's
  `group` is its family's key);
- `scenario_fields()`: the class of the scenario builder's fields of the family
  (`widgets.components.scenario_fields`: what is typed, read into a scenario and filled back).

Pages look a family up with `views_of(family)`, which refuses a family it does not know.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any


@dataclass(frozen=True)
class FamilyViews:
    notebook: str
    play: Callable[[], Any]
    takes_variant: bool
    draw: Callable[..., str]
    card_example: str
    live_from_scenarios: bool
    label: str
    course_group: Mapping[str, str]
    scenario_fields: Callable[[], Any]


def _play_truco() -> Any:
    from widgets.pages.jogar_truco import PlayTruco
    return PlayTruco


def _play_21() -> Any:
    from widgets.pages.jogar_21 import PlayVinteEUm
    return PlayVinteEUm


def _draw_truco(state, lang: str, seat: int | str | None, order=None, names=None) -> str:
    from classroom import games
    from widgets.draw.truco_table import table_html
    source = state if isinstance(seat, str) else games.view(state, seat)  # "all": the whole state
    return table_html(source, lang, order=order, names=names)


def _draw_21(state, lang: str, seat: int | str | None, order=None, names=None) -> str:
    from widgets.draw.vinte_e_um_table import table_html
    return table_html(state, lang, viewer=seat, order=order, names=names)


def _scenario_truco() -> Any:
    from widgets.components.scenario_fields import TrucoFields
    return TrucoFields


def _scenario_21() -> Any:
    from widgets.components.scenario_fields import Fields21
    return Fields21


FAMILIES: Mapping[str, FamilyViews] = MappingProxyType({
    "truco": FamilyViews("jogar_truco.ipynb", _play_truco, True, _draw_truco, "7♥ A♠ 3♦", True,
                          "Truco",
                          {"pt": "Truco", "en": "Truco"}, _scenario_truco),
    "21": FamilyViews("jogar_21.ipynb", _play_21, False, _draw_21, "5♥, K♣, 10♦", False,
                       "21",
                       {"pt": "21 (vinte-e-um)", "en": "21 (vinte-e-um)"}, _scenario_21),
})


def views_of(family: str) -> FamilyViews:
    """The views of game family `family` (a `GameSpec.family`)."""
    try:
        return FAMILIES[family]
    except KeyError:
        raise ValueError(f"no views for the game family {family!r}; families: {', '.join(FAMILIES)}") from None
