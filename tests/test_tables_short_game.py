"""Class tables of short truco games (docs/rules.md#truco-short-game): the option checked by the
tables, chosen in the lobby of `mesa` (which shows each game's own table options), honoured by the
table's game, kept in its save; and a table nobody watches driven to its end (`Tables.drive`)."""
from __future__ import annotations

import pytest
from test_widgets_mesa import Clock, move_once, page, until

from classroom import games
from classroom.tables import DRIVE_MOVES, MemoryRepository, TableError, Tables


@pytest.mark.parametrize("game", ["paulista", "mineiro"])
@pytest.mark.parametrize("seats", [4, 2])
def test_a_truco_table_may_be_a_short_game_and_its_game_honours_it(game, seats):
    tables = Tables(MemoryRepository(), clock=Clock())
    assert games.check_setup(game, seats, {"hands": 5}) == (seats, {"hands": 5})
    assert games.check_setup(game, seats, {"hands": None}) == (seats, {})
    code = tables.create(game, "ana", "Ana", seats=seats, options={"hands": 5}, seed=3)
    state = tables.start(code, "ana").state
    assert state.hand_limit == 5 and state.players == seats
    assert games.narrate(state, state.events[0], "en").startswith("Hand 1 of 5:")
    assert games.load_state(game, state.to_json()).hand_limit == 5


@pytest.mark.parametrize("value", [0, 31, True, "3", 2.5])
def test_a_short_table_of_a_hostile_length_is_refused_and_nothing_stored(value):
    tables = Tables(MemoryRepository())
    with pytest.raises(TableError) as refused:
        tables.create("paulista", "ana", "Ana", options={"hands": value}, class_code="K")
    assert refused.value.code == "bad_option"
    assert "hands" in refused.value.message("en") and "hands" in refused.value.message("pt")
    assert tables.list_class("K") == []
    with pytest.raises(TableError):
        tables.create("21", "ana", "Ana", options={"hands": 3})  # 21 has no such option


def test_the_lobby_shows_each_games_own_options_and_a_short_game_reaches_the_table():
    tables = Tables(MemoryRepository(), clock=Clock())
    ana = page(tables, "ana", "Ana", seed=11)
    ana.pace, ana.autopoll = 0.0, False
    shown = {name: w.layout.display is None for name, w in ana.option_widgets.items()}
    assert shown == {"ace": False, "packs": False, "min_bet": False, "max_bet": False, "rotation": False,
                     "rounds": False, "hands": True}
    assert ana.seats.layout.display == "none" and ana.players.layout.display is None
    labels = [label for label, _ in ana.hands.options]
    assert labels[0] == "to 12 points" and labels[1] == "1 hands" and labels[-1] == "30 hands"
    ana.game.value = "21"
    assert ana.hands.layout.display == "none" and ana.ace.layout.display is None
    assert ana.seats.layout.display is None and ana.players.layout.display == "none"
    ana.game.value = "mineiro"
    ana.players.value, ana.hands.value = 2, 3
    code = ana.create()
    assert tables.snapshot(code).record["options"] == {"hands": 3}
    ana.start_button.click()
    until(lambda: ana.client.snap.status == "finished", lambda: move_once(ana, ("accept", "play_hand")),
          limit=2000)
    final = tables.snapshot(code).state
    assert final.hand_limit == 3 and final.is_terminal()
    assert final.hand_number >= 3 or max(final.score) >= final.variant.target or \
        final.events[-2]["reason"] == "forbidden_raise"


def test_the_lobby_says_the_lengths_in_portuguese():
    ana = page(Tables(MemoryRepository()), "ana", "Ana", lang="pt")
    assert [label for label, _ in ana.hands.options][:2] == ["até 12 pontos", "1 mãos"]
    assert ana.hands.description == "Duração"


def test_a_table_nobody_watches_is_driven_in_bounded_steps_and_stops_at_a_learner_in_time():
    """classroom/tables.py, driving a table nobody watches: only once no seated learner is
    present; at most DRIVE_MOVES moves a call; never at the turn of a learner not yet past the
    timeout; the moves are the bots' own, so the game is the one bots playing one by one make."""
    clock = Clock()
    tables = Tables(MemoryRepository(), clock=clock)
    code = tables.create("paulista", "ana", "Ana", seed=7, timeout=30)
    start = tables.start(code, "ana")
    assert tables.drive(tables.snapshot(code)) is None  # Ana is present: her page moves the bots
    clock.now += 20  # her page is closed, but she is not yet past the timeout
    snap = tables.snapshot(code)
    driven = tables.drive(snap)
    if start.state.current_seat != 0:
        assert driven is not None
        snap = driven
    assert snap.state.current_seat == 0 and snap.controller(0, clock()) == "learner"
    assert tables.drive(snap) is None  # her turn: her seat waits for her
    clock.now += 15  # past the timeout: a bot plays her seat
    calls = 0
    while snap.status != "finished":
        before = len(snap.state.events)
        snap = tables.drive(snap) or tables.snapshot(code)
        calls += 1
        assert len(snap.state.events) > before
        assert calls < 100
    assert calls > 1  # a game to 12 is more than DRIVE_MOVES moves: several calls
    # the very game bots make one move at a time
    one = Tables(MemoryRepository(), clock=Clock())
    other = one.create("paulista", "ana", "Ana", seed=7, timeout=30)
    step = one.start(other, "ana")
    one.leave(other, "ana")
    step = one.snapshot(other)
    while step.status != "finished":
        one.clock.now += 1
        step = one.bot_move(step) or one.snapshot(other)
    assert step.state.to_json() == snap.state.to_json()
    assert DRIVE_MOVES == 60
