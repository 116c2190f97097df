"""The tournament's drawings (widgets/draw/tournament.py, docs/rules.md#tournament): the projector's
pairings with table numbers, live state, standings and podium; a phone's "your table" with one link
to sit; both languages, names escaped."""
from __future__ import annotations

import pytest

from classroom import classes
from classroom.progress import open_store
from classroom.tables import table_link
from classroom.tournament import StoreTournaments
from widgets.draw import tournament as draw


@pytest.fixture
def room(tmp_path):
    store = open_store(str(tmp_path / "cartas.db"))
    made = classes.create_class(store, "7B")
    cup = StoreTournaments(store)
    opened = cup.open_for(made.code, {"game": "paulista", "players": "single", "rounds": 1, "seed": 2,
                                      "pace": 0.0})
    return cup, opened["code"], opened["host_token"]


def test_the_projector_shows_pairings_live_tables_then_standings_and_the_podium(room):
    cup, code, host = room
    for who, name in [("a", "Ana <b>"), ("b", "Bia"), ("c", "Caio")]:
        cup.add(code, host, who, name)
    assert "not started yet" in draw.board_html(cup.board(code), "en")
    cup.start_round(code, host, 1)
    board = cup.board(code)
    html = draw.board_html(board, "en")
    game = next(g for g in board["games"] if not g["bye"])
    assert "Round 1 of 1" in html and "Table 1" in html and f"data-code='{game['table_code']}'" in html
    assert "hand 1" in html and "Bye: " in html and "<b>Ana <b>" not in html
    assert "Rodada 1 de 1" in draw.board_html(board, "pt") and "Mesa 1" in draw.board_html(board, "pt")
    tables = cup.tables
    for learner in game["units"]:
        tables.leave(game["table_code"], learner)
    snap = tables.snapshot(game["table_code"])
    while snap.status != "finished":
        snap = tables.bot_move(snap) or tables.snapshot(snap.code)
    board = cup.board(code)
    html = draw.board_html(board, "en")
    assert board["status"] == "finished" and "Podium" in html and "cartas-tournament-podium" in html
    assert "Head-to-head" in html and "Tie-breaks: points, then Buchholz" in html
    assert "Pódio" in draw.board_html(board, "pt") and "Confronto direto" in draw.board_html(board, "pt")


def test_a_phone_shows_her_table_with_one_link_to_sit_or_why_she_waits(room):
    cup, code, host = room
    mine = cup.my_table(code, "a", "Ana")
    assert "not in the tournament yet" in draw.my_table_html(mine, "en", "")
    cup.enrol_present(code, host)
    cup.add(code, host, "b", "Bia")
    assert "data-state='wait'" in draw.my_table_html(cup.my_table(code, "a", "Ana"), "en", "")
    cup.start_round(code, host, 1)
    mine = cup.my_table(code, "a", "Ana")
    link = table_link(mine["table_code"])
    html = draw.my_table_html(mine, "pt", link)
    assert "Sua mesa: 1" in html and html.count("<a ") == 1 and f"href='{link}'" in html
    assert "Sentar à mesa" in html and "Sit at the table" in draw.my_table_html(mine, "en", link)
    cup.add(code, host, "c", "Caio")  # a latecomer
    late = draw.my_table_html(cup.my_table(code, "c", "Caio"), "en", "")
    assert "You play from round 2." in late
