"""Tables shared by several browsers: codes, seats, moves under concurrency, bots, leaving
and coming back, archiving; on memory, SQLite and PostgreSQL repositories."""
from __future__ import annotations

import json
import threading

import pytest

from classroom import games
from classroom.store import connect, forget_shared
from classroom.tables import (
    CODE_ALPHABET,
    CODE_LENGTH,
    HEARTBEAT_EVERY,
    MemoryRepository,
    StoreRepository,
    TableClient,
    TableError,
    Tables,
    clean_code,
    table_link,
)

import learner_processes
import table_workers


class Clock:
    def __init__(self, t: float = 1_000_000.0):
        self.t = t

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def tables(clock):
    return Tables(MemoryRepository(), clock=clock)


def truco_table(tables, game="paulista", seed=5):
    code = tables.create(game, "ana", "Ana", seed=seed)
    tables.join(code, "bia", "Bia", 1)
    tables.join(code, "caio", "Caio", 2)
    return code


# Creating and sitting ------------------------------------------------------------------
def test_a_new_table_has_a_short_code_a_link_and_its_creator_in_seat_0(tables):
    code = tables.create("mineiro", "ana", "Ana")
    assert len(code) == CODE_LENGTH and set(code) <= set(CODE_ALPHABET)
    assert table_link(code) == f"mesa.ipynb?mesa={code}"
    snap = tables.snapshot(code.lower())
    assert snap.status == "waiting" and snap.state is None
    assert [s and s["name"] for s in snap.sitters] == ["Ana", None, None, None]


def test_a_typed_code_is_read_case_insensitively_and_a_bad_one_is_refused(tables):
    code = tables.create("paulista", "ana", "Ana")
    assert clean_code(f" {code[:2].lower()}-{code[2:]} ") == code
    with pytest.raises(TableError) as info:
        clean_code("0O1I!")
    assert "código de mesa inválido" in info.value.message("pt")
    with pytest.raises(TableError) as info:
        tables.snapshot("ZZZZZ")
    assert info.value.code == "no_table"


@pytest.mark.parametrize("game, seats, options, code", [
    ("poker", None, None, "bad_game"),
    ("paulista", 6, None, "bad_seats_truco"),
    ("paulista", 3, None, "bad_seats_truco"),
    ("mineiro", 1, None, "bad_seats_truco"),
    ("21", 2, None, "bad_seats_21"),
    ("21", 13, None, "bad_seats_21"),
    ("21", True, None, "bad_seats_21"),
    ("21", 4, {"ace": 7}, "bad_option"),
    ("21", 4, {"packs": 3}, "bad_option"),
    ("21", 4, {"min_bet": 0}, "bad_option"),
    ("21", 4, {"colour": "red"}, "bad_option"),
    ("mineiro", 4, {"ace": 1}, "bad_option"),
    ("21", 4, {"ace": 1, "rotation": "natural"}, "engine_refused"),
    ("21", 4, {"min_bet": 6, "max_bet": 2}, "engine_refused"),
])
def test_an_impossible_table_is_refused_with_its_reason_and_nothing_stored(
        tables, game, seats, options, code):
    with pytest.raises(TableError) as info:
        tables.create(game, "ana", "Ana", seats=seats, options=options, class_code="K")
    assert info.value.code == code
    assert info.value.message("pt") and info.value.message("en")
    assert tables.list_class("K") == []


def test_a_21_table_keeps_the_creators_options_for_the_game(tables):
    code = tables.create("21", "ana", "Ana", seats=5,
                         options={"ace": 11, "packs": 2, "min_bet": 2, "max_bet": 6,
                                  "rotation": "auction", "rounds": 3}, seed=3)
    tables.join(code, "bia", "Bia", 3)
    state = tables.start(code, "ana").state
    assert (state.players, state.ace, state.decks, state.min_bet, state.max_bet,
            state.rotation, state.rounds) == (5, 11, 2, 2, 6, "auction", 3)


def test_a_taken_seat_is_refused_and_joining_another_seat_leaves_the_first(tables):
    code = tables.create("paulista", "ana", "Ana")
    tables.join(code, "bia", "Bia", 1)
    with pytest.raises(TableError) as info:
        tables.join(code, "caio", "Caio", 1)
    assert info.value.code == "seat_taken" and "Bia" in info.value.message("en")
    snap = tables.join(code, "bia", "Bia", 3)
    assert [s and s["id"] for s in snap.sitters] == ["ana", None, None, "bia"]


def test_only_the_creator_starts_and_empty_seats_are_bots(tables):
    code = tables.create("paulista", "ana", "Ana")
    tables.join(code, "bia", "Bia", 2)
    with pytest.raises(TableError) as info:
        tables.start(code, "bia")
    assert info.value.message("pt") == "só quem criou a mesa pode começar o jogo"
    snap = tables.start(code, "ana")
    assert snap.status == "playing"
    assert [s["controller"] for s in snap.seats(tables.clock())] == ["learner", "bot", "learner", "bot"]
    assert [s["team"] for s in snap.seats(tables.clock())] == [0, 1, 0, 1]
    with pytest.raises(TableError) as info:
        tables.start(code, "ana")
    assert info.value.code == "already_started"


def test_a_name_is_cleaned_and_capped_and_an_empty_one_refused(tables):
    code = tables.create("paulista", "ana", "  <b>Ana</b>\u202e " + "x" * 80)
    name = tables.snapshot(code).sitters[0]["name"]
    assert name.startswith("<b>Ana</b> x") and len(name) == 40 and "\u202e" not in name
    with pytest.raises(TableError) as info:
        tables.join(code, "bia", "   ", 1)
    assert info.value.code == "bad_name"


# What each seat sees -------------------------------------------------------------------
def test_each_seat_sees_its_own_cards_and_a_spectator_none(tables):
    code = truco_table(tables)
    state = tables.start(code, "ana").state
    for seat in range(4):
        hands = games.view(state, seat).hands
        assert all(card is not None for card in hands[seat])
        assert all(card is None for other, h in enumerate(hands) if other != seat for card in h)
    spectator = games.view(state, None)
    assert all(card is None for h in spectator.hands for card in h)
    assert games.legal_actions(state, None) == []
    deal = next(e for e in games.events_for(state, None) if e["type"] == "deal")
    assert all(c is None for h in deal["hands"] for c in h)


def test_a_21_spectator_sees_no_face_down_card(tables):
    code = tables.create("21", "ana", "Ana", seats=3, seed=4)
    state = tables.start(code, "ana").state
    hands = games.seat_hands(games.view(state, None))
    assert any(hands) and all(hand[0] is None for hand in hands if hand)
    mine = games.seat_hands(games.view(state, 0))
    assert mine[0] and mine[0][0] is not None


# Moves and the versioned record ---------------------------------------------------------
def _turn(tables, code):
    snap = tables.snapshot(code)
    seat = snap.state.current_seat
    who = snap.sitters[seat]
    return snap, seat, who and who["id"]


def test_a_move_on_an_old_version_is_refused_as_the_table_moved_on(tables, clock):
    code = truco_table(tables)
    tables.start(code, "ana")
    snap, seat, learner = _turn(tables, code)
    while learner is None:  # let the bots reach a learner
        clock.advance(1)
        tables.bot_move(snap)
        snap, seat, learner = _turn(tables, code)
    action = games.legal_actions(snap.state, seat)[0]
    tables.move(code, learner, action, snap.version)
    with pytest.raises(TableError) as info:
        tables.move(code, learner, action, snap.version)
    assert info.value.code == "moved_on"
    assert info.value.message("pt").startswith("a mesa já mudou")
    assert info.value.message("en").startswith("the table moved on")
    assert tables.snapshot(code).version == snap.version + 1


def test_a_bot_move_plays_on_a_copy_of_the_versions_game_without_replaying_its_log(tables, clock, monkeypatch):
    """Issue 35, item 5: a bot move loaded the game again from its log (the snapshot had it)."""
    code = tables.create("paulista", "ana", "Ana", seed=5)
    snap = tables.start(code, "ana")
    while snap.state.current_seat == 0:   # Ana's turn first: she plays, then a bot is due
        snap = tables.move(code, "ana", games.legal_actions(snap.state, 0)[0], snap.version)
    before = snap.state.to_json()
    loads = []
    real = games.load_state
    monkeypatch.setattr(games, "load_state", lambda *a: (loads.append(a[0]), real(*a))[1])
    clock.advance(10)
    moved = tables.bot_move(snap)
    assert moved is not None and moved.version == snap.version + 1 and loads == []
    assert snap.state.to_json() == before                      # the version's own game is untouched
    assert moved.state.to_json() == real("paulista", moved.record["state"]).to_json()


def test_an_illegal_move_is_refused_by_the_engine_and_nothing_changes(tables, clock):
    code = tables.create("21", "ana", "Ana", seats=3, seed=2)
    tables.join(code, "bia", "Bia", 1)
    tables.join(code, "caio", "Caio", 2)
    snap = tables.start(code, "ana")
    seat = snap.state.current_seat
    learner = snap.sitters[seat]["id"]
    other = next(w["id"] for w in snap.sitters if w["id"] != learner)
    with pytest.raises(TableError) as info:
        tables.move(code, other, "stand", snap.version)
    assert info.value.code == "not_your_turn"
    with pytest.raises(ValueError):
        tables.move(code, learner, "bet 999", snap.version)
    with pytest.raises(TableError) as info:
        tables.move(code, learner, "dance", snap.version)
    assert info.value.code == "bad_action"
    after = tables.snapshot(code)
    assert after.version == snap.version and after.record == snap.record


def test_two_moves_at_once_in_threads_apply_exactly_one(tables):
    code = tables.create("21", "ana", "Ana", seats=3, seed=8)
    snap = tables.start(code, "ana")
    while snap.state.current_seat != 0:  # bots bet up to Ana's turn
        snap.record["moved_at"] -= 10
        snap = tables.bot_move(snap) or tables.snapshot(code)
    legal = [str(a) for a in games.legal_actions(snap.state, 0)]
    results = []
    barrier = threading.Barrier(8)

    def send(action):
        barrier.wait()
        try:
            tables.move(code, "ana", action, snap.version)
            results.append("applied")
        except TableError as error:
            results.append(error.code)

    threads = [threading.Thread(target=send, args=(legal[i % len(legal)],)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["applied"] + ["moved_on"] * 7
    after = tables.snapshot(code)
    assert after.version == snap.version + 1
    assert after.record["last"]["action"] in legal


# On the real store: SQLite and PostgreSQL ------------------------------------------------
@pytest.fixture
def stored(store_location):
    return Tables(StoreRepository(connect(store_location))), store_location


def test_on_the_store_two_moves_in_separate_processes_apply_exactly_one(stored):
    tables, location = stored
    code = tables.create("paulista", "ana", "Ana", seed=11)
    snap = tables.start(code, "ana")
    while snap.state.current_seat != 0:
        snap.record["moved_at"] -= 10
        snap = tables.bot_move(snap) or tables.snapshot(code)
    legal = [str(a) for a in games.legal_actions(snap.state, 0)]
    ctx = learner_processes.context()
    with ctx.Manager() as manager:
        barrier = manager.Barrier(6)
        with ctx.Pool(6) as pool:
            results = pool.starmap(table_workers.race_move, [
                (location, code, "ana", legal[i % len(legal)], snap.version, barrier)
                for i in range(6)])
    assert sorted(results) == ["applied"] + ["moved_on"] * 5
    after = tables.snapshot(code)
    assert after.version == snap.version + 1
    assert len(after.state.events) > len(snap.state.events)


def test_on_the_store_racing_bot_movers_apply_each_step_once(stored):
    """Six processes move the bots of one table as fast as they can: the versions count the
    applied moves exactly, and the game equals the same bots' game played alone."""
    tables, location = stored
    code = tables.create("21", "ana", "Ana", seats=4, seed=21, options={"rounds": 2})
    first = tables.start(code, "ana")
    tables.leave(code, "ana")  # every seat a bot now
    begin = tables.snapshot(code)
    ctx = learner_processes.context()
    with ctx.Manager() as manager:
        barrier = manager.Barrier(6)
        with ctx.Pool(6) as pool:
            results = pool.starmap(table_workers.race_bots,
                                   [(location, code, 40, barrier) for _ in range(6)])
    applied = sum(a for a, _ in results)
    end = tables.snapshot(code)
    assert applied >= 1 and sum(r for _, r in results) >= 1  # they did race
    assert end.version - begin.version == applied
    alone = games.load_state("21", first.record["state"])
    for _ in range(applied):
        seat = alone.current_seat
        games.apply(alone, games.bot_action(alone, seat, first.record["seed"]), seat)
    assert alone.to_json() == end.record["state"]


def test_a_table_survives_a_restart_of_the_server(stored, clock):
    tables, location = stored
    code = truco_table(tables)
    snap = tables.start(code, "ana")
    forget_shared()
    again = Tables(StoreRepository(connect(location)))
    back = again.snapshot(code)
    assert back.version == snap.version and back.record["state"] == snap.record["state"]
    assert [s and s["name"] for s in back.sitters] == ["Ana", "Bia", "Caio", None]


def test_the_class_lists_its_open_tables_and_a_finished_one_is_archived(stored):
    tables, _ = stored
    open_code = tables.create("paulista", "ana", "Ana", class_code="TURMA1")
    done = tables.create("21", "bia", "Bia", class_code="TURMA1", seats=3,
                         options={"rounds": 1}, seed=1)
    tables.create("mineiro", "zed", "Zed", class_code="OTHER1")
    assert {s.code for s in tables.list_class("TURMA1")} == {open_code, done}
    snap = tables.start(done, "bia")
    tables.leave(done, "bia")
    while snap.status != "finished":
        snap.record["moved_at"] -= 10
        snap = tables.bot_move(snap) or tables.snapshot(done)
    assert {s.code for s in tables.list_class("TURMA1")} == {open_code}
    assert [s.code for s in tables.list_class("TURMA1", archived=True)] == [done]
    finished = tables.snapshot(done)
    # the engine's typed Outcome, kept as its own JSON (issue 30 item 3: not flattened by the adapter)
    assert finished.record["outcome"] == finished.state.outcome().to_dict()
    assert finished.record["outcome"]["by"] == "seat" and len(finished.record["outcome"]["scores"]) == 3


# Bots, leaving and coming back -----------------------------------------------------------
def test_only_the_lowest_present_learner_moves_the_bots_until_the_table_stalls(tables, clock):
    code = tables.create("paulista", "ana", "Ana", seat=1, seed=2)
    tables.join(code, "bia", "Bia", 3)
    tables.start(code, "ana")
    ana, bia = TableClient(tables, code, "ana"), TableClient(tables, code, "bia")
    snap = ana.snap
    while snap.controller(snap.state.current_seat, clock()) != "bot":  # reach a bot's turn
        seat = snap.state.current_seat
        who = ana if seat == 1 else bia
        who.refresh()
        who.move(games.legal_actions(who.snap.state, seat)[0])
        ana.refresh(), bia.refresh()
        snap = ana.snap
    version = snap.version
    clock.advance(0.8)  # past the pace, not the takeover
    bia.refresh()
    bia.tick()
    assert tables.snapshot(code).version == version  # Bia's kernel waits for Ana's
    ana.tick()
    assert tables.snapshot(code).version == version + 1
    assert tables.snapshot(code).record["last"]["by"] == "bot"


def test_a_learner_away_past_the_timeout_is_played_by_a_bot_and_takes_the_seat_back(tables, clock):
    code = tables.create("paulista", "ana", "Ana", timeout=30, seed=9)
    tables.join(code, "bia", "Bia", 1)
    snap = tables.start(code, "ana")
    assert snap.controller(1, clock()) == "learner"
    bia = TableClient(tables, code, "bia")
    clock.advance(31)
    ana = TableClient(tables, code, "ana")  # Ana's page stays open; Bia's is gone
    assert ana.snap.controller(1, clock()) == "bot"
    assert ana.snap.seats(clock())[1]["away"] is True
    clock.advance(HEARTBEAT_EVERY)
    bia.tick()  # she is back: her page beats again
    ana.tick()
    clock.advance(1)
    ana.tick()
    assert ana.snap.controller(1, clock()) == "learner"


def test_an_away_learners_seat_may_be_taken_and_a_present_ones_not(tables, clock):
    code = tables.create("mineiro", "ana", "Ana", timeout=20)
    tables.join(code, "bia", "Bia", 1)
    with pytest.raises(TableError):
        tables.join(code, "caio", "Caio", 1)
    clock.advance(21)
    snap = tables.join(code, "caio", "Caio", 1)
    assert snap.sitters[1]["name"] == "Caio"


def test_a_reload_finds_the_same_seat_by_the_learners_identity(tables):
    code = truco_table(tables)
    tables.start(code, "ana")
    again = TableClient(tables, code, "caio")
    assert again.seat == 2
    spectator = TableClient(tables, code, None)
    assert spectator.seat is None and not spectator.tick()


def test_a_stored_record_is_plain_json(tables):
    code = truco_table(tables)
    tables.start(code, "ana")
    version, record = tables.repo.load(code)
    assert json.loads(json.dumps(record)) == record and version == 4


def test_a_table_nobody_moved_at_or_looked_at_for_half_an_hour_leaves_the_class_list(store_location):
    """Issue 29, item 13 (classroom.tables, IDLE): an abandoned table leaves the class's list of
    open tables, on either store, with a clock the test moves; it comes back when somebody does."""
    from classroom.tables import IDLE
    clock = Clock()
    tables = Tables(StoreRepository(connect(store_location)), clock=clock)
    waiting = tables.create("paulista", "ana", "Ana", class_code="TURMA1")          # never started
    playing = tables.create("mineiro", "bia", "Bia", class_code="TURMA1", seed=3)
    tables.start(playing, "bia")
    watched = tables.create("paulista", "caio", "Caio", class_code="TURMA1", seed=4)
    tables.start(watched, "caio")
    assert {s.code for s in tables.list_class("TURMA1")} == {waiting, playing, watched}
    clock.advance(IDLE - 60)
    tables.heartbeat(watched, "caio")     # Caio's page is still open
    clock.advance(61)                     # past IDLE since the others' last move
    assert [s.code for s in tables.list_class("TURMA1")] == [watched]
    assert {s.code for s in tables.list_class("TURMA1", abandoned=True)} == {waiting, playing, watched}
    assert tables.snapshot(playing).status == "playing"        # kept, readable by its code
    tables.heartbeat(playing, "bia")      # Bia comes back
    assert {s.code for s in tables.list_class("TURMA1")} == {playing, watched}
    clock.advance(IDLE + 1)
    assert tables.list_class("TURMA1") == []


# The bots' level (issue 31, item 4) --------------------------------------------------------
def _bots_play(tables, snap, moves: int):
    """Let the bots make up to `moves` moves on `snap` (its learner gone); the last snapshot."""
    for _ in range(moves):
        if snap.status != "playing":
            break
        snap.record["moved_at"] -= 10
        snap = tables.bot_move(snap) or tables.snapshot(snap.code)
    return snap


def _replayed(game: str, first, level: str, steps: int) -> str:
    """The game of `first` (its state at the start) after `steps` moves of bots of `level`."""
    alone = games.load_state(game, first.record["state"])
    for _ in range(steps):
        seat = alone.current_seat
        games.apply(alone, games.bot_action(alone, seat, first.record["seed"], level), seat)
    return alone.to_json()


@pytest.mark.parametrize("game, seats", [("paulista", 4), ("mineiro", 4), ("21", 4)])
@pytest.mark.parametrize("level", ["easy", "strong"])
def test_a_tables_bots_play_at_the_level_its_creator_chose(tables, game, seats, level):
    code = tables.create(game, "ana", "Ana", seats=seats, seed=7, level=level)
    assert tables.snapshot(code).record["level"] == tables.snapshot(code).level == level
    first = tables.start(code, "ana")
    tables.leave(code, "ana")  # every seat a bot's
    end = _bots_play(tables, tables.snapshot(code), 12)
    steps = end.version - first.version - 1   # the leave moved the version too
    assert steps >= 1 and end.level == level
    assert end.record["state"] == _replayed(game, first, level, steps)
    assert end.record["state"] != _replayed(game, first, "rule", steps)  # not the "rule" bots' game


def test_a_table_plays_at_rule_by_default_and_an_older_table_without_a_level_too(tables):
    code = tables.create("paulista", "ana", "Ana", seed=7)
    assert tables.snapshot(code).record["level"] == "rule"
    older = tables.create("paulista", "ana", "Ana", seed=7)
    version, record = tables.repo.load(older)
    del record["level"]                                  # as a table stored before levels
    assert tables.repo.save(older, version, record)
    assert tables.snapshot(older).level == "rule"
    first = tables.start(older, "ana")
    tables.leave(older, "ana")
    end = _bots_play(tables, tables.snapshot(older), 6)
    assert "level" not in end.record
    assert end.record["state"] == _replayed("paulista", first, "rule", end.version - first.version - 1)


@pytest.mark.parametrize("level", ["hard", "", "Forte", None, 3, ["easy"]])
def test_an_unknown_level_is_refused_naming_it_in_both_languages_and_nothing_stored(tables, level):
    with pytest.raises(TableError) as refused:
        tables.create("paulista", "ana", "Ana", class_code="K", level=level)
    assert refused.value.code == "bad_level"
    assert refused.value.message("en") == f"unknown bots' level {level!r}: choose easy, rule, strong"
    assert refused.value.message("pt") == f"nível dos robôs desconhecido {level!r}: escolha easy, rule, strong"
    assert tables.list_class("K") == []


def test_on_the_store_a_tables_level_is_kept_and_an_older_record_plays_at_rule(stored):
    tables, location = stored
    code = tables.create("mineiro", "ana", "Ana", seed=3, level="easy", class_code="K")
    older = tables.create("21", "ana", "Ana", seats=3, seed=3, class_code="K")
    version, record = tables.repo.load(older)
    del record["level"]
    assert tables.repo.save(older, version, record)
    forget_shared()
    again = Tables(StoreRepository(connect(location)))
    assert again.snapshot(code).level == "easy" and again.snapshot(older).level == "rule"
    assert {s.code: s.level for s in again.list_class("K")} == {code: "easy", older: "rule"}
    first = again.start(code, "ana")
    again.leave(code, "ana")
    end = _bots_play(again, again.snapshot(code), 4)
    assert end.record["state"] == _replayed("mineiro", first, "easy", end.version - first.version - 1)
