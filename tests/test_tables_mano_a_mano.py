"""Class tables of truco mano a mano (docs/rules.md#mano-a-mano-players): a table of two seats,
checked by the tables, created from the lobby of `mesa`, played to the end by a learner and a bot
through her page, kept in the store as a save that replays, and created through the service."""
from __future__ import annotations

import pytest
from test_remote_tables import page_of, service, tables_of, watch  # noqa: F401 - `service` is a fixture
from test_widgets_mesa import Clock, move_once, my_turn, page, until

from classroom import games
from classroom.remote_tables import RefusedByService
from classroom.tables import MemoryRepository, TableError, Tables


@pytest.mark.parametrize("game", ["paulista", "mineiro"])
def test_a_truco_table_may_be_for_two_and_each_seat_sees_its_own_cards(game):
    tables = Tables(MemoryRepository(), clock=Clock())
    assert games.check_setup(game, 2, None) == (2, {}) and games.seat_counts(game) == (4, 2)
    code = tables.create(game, "ana", "Ana", seats=2, seed=3)
    snap = tables.snapshot(code)
    assert snap.record["seats"] == 2 and [s and s["name"] for s in snap.sitters] == ["Ana", None]
    with pytest.raises(TableError) as refused:
        tables.join(code, "bia", "Bia", 2)
    assert refused.value.code == "bad_seat" and "0 to 1" in refused.value.message("en")
    tables.join(code, "bia", "Bia", 1)
    state = tables.start(code, "ana").state
    assert state.players == 2
    assert [s["team"] for s in tables.snapshot(code).seats(tables.clock())] == [0, 1]
    for seat in (0, 1):
        hands = games.view(state, seat).hands
        assert None not in hands[seat] and set(hands[1 - seat]) == {None}
    assert all(c is None for h in games.view(state, None).hands for c in h)


def test_a_table_of_three_truco_seats_is_refused_and_nothing_stored():
    tables = Tables(MemoryRepository())
    with pytest.raises(TableError) as refused:
        tables.create("paulista", "ana", "Ana", seats=3, class_code="K")
    assert refused.value.message("en") == "a Truco Paulista table has 2 or 4 seats, not 3"
    assert tables.list_class("K") == []


def test_mano_a_mano_is_chosen_in_the_lobby_and_played_to_the_end_against_a_bot():
    tables = Tables(MemoryRepository(), clock=Clock())
    ana = page(tables, "ana", "Ana", seed=11)
    ana.pace, ana.autopoll = 0.0, False
    assert ana.players.layout.display is None  # truco: the players' chooser shows
    assert [label for label, _ in ana.players.options] == ["In pairs (4)", "One on one (2)"]
    ana.players.value = 2
    code = ana.create()
    assert tables.snapshot(code).record["seats"] == 2 and len(ana.seat_box.children) == 2
    ana.start_button.click()
    picture = ana.picture.value
    assert picture.count('class="cartas-seat"') == 2 and "Team A" not in picture
    until(lambda: ana.client.snap.status == "finished", lambda: move_once(ana, ("accept", "play_hand")),
          limit=2000)
    final = tables.snapshot(code)
    assert final.state.is_terminal() and final.state.players == 2
    # the stored record is a save that replays to the very same game
    again = games.load_state("paulista", final.state.to_json())
    assert again.players == 2 and again.to_json() == final.state.to_json()


def test_the_lobby_hides_the_players_chooser_for_21_and_keeps_its_seats_box():
    ana = page(Tables(MemoryRepository()), "ana", "Ana", lang="pt")
    assert ana.players.description == "Jogadores"
    assert [label for label, _ in ana.players.options] == ["Em duplas (4)", "Mano a mano (2)"]
    ana.game.value = "21"
    assert ana.players.layout.display == "none" and ana.options_box.layout.display is None
    assert ana.table_options()[0] == ana.seats.value


def test_a_table_for_two_is_created_through_the_service_and_played(service):  # noqa: F811
    ana = page_of(service, "ana", lang="en")
    ana.players.value = 2
    code = ana.create()
    bia = page_of(service, "bia", code=code)
    bia.sit(1)
    watch(ana)
    ana.start_button.click()
    watch(bia)
    assert ana.client.snap.view["seats"] and len(ana.client.snap.seats()) == 2
    mover = ana if my_turn(ana) else bia
    version = mover.client.snap.version
    move_once(mover, ("accept", "play_hand"))
    watch(mover)
    assert mover.client.snap.version > version
    with pytest.raises(RefusedByService) as refused:  # the service checks the count itself
        tables_of(service, "ana").create("mineiro", "hub:ana", "Ana", seats=3)
    assert refused.value.code == "bad_seats_truco" and "2 ou 4" in refused.value.message("pt")


@pytest.mark.parametrize("game", ["paulista", "mineiro"])
def test_a_table_for_two_plays_its_bot_at_the_chosen_level(game):
    tables = Tables(MemoryRepository(), clock=Clock())
    code = tables.create(game, "ana", "Ana", seats=2, seed=9, level="strong", pace=0.0)
    first = tables.start(code, "ana")
    tables.leave(code, "ana")   # both seats the strong bot's
    snap = tables.snapshot(code)
    for _ in range(10):
        snap = tables.bot_move(snap) or snap
    alone = games.load_state(game, first.record["state"])
    for _ in range(snap.version - first.version - 1):
        seat = alone.current_seat
        games.apply(alone, games.bot_action(alone, seat, first.record["seed"], "strong"), seat)
    assert snap.level == "strong" and snap.version - first.version > 1
    assert alone.to_json() == snap.record["state"]


def test_mano_a_mano_with_an_easy_bot_is_chosen_in_the_lobby_and_named_at_the_table():
    tables = Tables(MemoryRepository(), clock=Clock())
    ana = page(tables, "ana", "Ana", seed=11, lang="pt")
    ana.pace, ana.autopoll = 0.0, False
    ana.players.value, ana.level.value = 2, "easy"
    code = ana.create()
    assert tables.snapshot(code).record["level"] == "easy"
    assert "vazio (robô, Fácil)" in ana.seat_box.children[1].children[0].value
    ana.start_button.click()
    assert "Assento 1 (robô, Fácil)" in ana.picture.value
    until(lambda: ana.client.snap.status == "finished", lambda: move_once(ana, ("accept", "play_hand")),
          limit=2000)
    assert tables.snapshot(code).level == "easy"


def test_a_table_for_two_at_a_level_is_created_through_the_service(service):  # noqa: F811
    ana = page_of(service, "ana", lang="en")
    ana.players.value, ana.level.value = 2, "strong"
    code = ana.create()
    assert service.service.classes.tables.snapshot(code).record["level"] == "strong"
    ana.start_button.click()
    assert "Seat 1 (bot, Strong)" in ana.picture.value
