"""Homework game items (docs/rules.md#homework-games) on SQLite and on a real PostgreSQL: a
finished game against the bots, or at a class table, marks the learner's item done with the
engine's result, once; the browser never says who won."""
from __future__ import annotations

import time

import pytest

from cartas.games import find_game
from cartas.truco import from_deal
from classroom import homework as hw, identity as ids
from classroom.classes import create_class
from classroom.progress import open_store
from classroom.tables import StoreRepository, Tables
from widgets.components import learner as identity, scores

DUE = "2030-12-20"


def sign_in(code, name, browser):
    """A fresh page of a verified learner of the class (her PIN), as the widgets see her."""
    scores.reset_session()
    joined = ids.join(open_store(), code, name, "4321", browser)
    identity.widget().set_learner(joined.learner, joined.token)
    return joined.learner


def learners(store, *names):
    made = create_class(store, "7º B")
    people = [ids.join(store, made.code, name, "4321", f"browser-{name}-0001").learner for name in names]
    return made.code, people


def played(key: str, seed: int, **options):
    """A whole game of `key` played by its rule bots to the end."""
    spec = find_game(key)
    state = spec.new_game(seed, **options)
    bots = [spec.bot(seat) for seat in range(state.players)]
    while not state.is_terminal():
        seat = state.current_seat
        state.apply_action(bots[seat].choose(state.view(seat)), seat)
    return state


def test_rule_a_finished_bot_game_marks_the_item_done_with_the_engines_result_once(store_location):
    """docs/rules.md#homework-games: the engine replays the game and says who won."""
    store = open_store(store_location)
    code, (ana,) = learners(store, "Ana")
    task = hw.create(store, code, "T", DUE, 50, [{"kind": "game", "game": "truco", "goal": "win"},
                                                 {"kind": "game", "game": "21", "goal": "win"}])
    truco = played("paulista", 5)
    winner_seat = next(seat for seat in range(4) if find_game("paulista").team_of(seat) == truco.winner)
    loser_seat = (winner_seat + 1) % 4
    scores = truco.outcome().scores
    lost_score = f"{scores[1 - truco.winner]}-{scores[truco.winner]}"  # her team's first
    first = hw.finish_game(store, task["id"], 0, ana.key, "paulista", truco.to_json(), loser_seat)
    assert first == {"correct": False, "choice": "lost", "first": True, "score": lost_score}
    # a reload, or the same game sent again from a winning seat: the first result stays
    again = hw.finish_game(store, task["id"], 0, ana.key, "paulista", truco.to_json(), winner_seat)
    assert again == {"correct": False, "choice": "lost", "first": False, "score": lost_score}
    twenty_one = played("21", 3, rounds=2)
    top = twenty_one.outcome().winners[0]
    assert hw.finish_game(store, task["id"], 1, ana.key, "21", twenty_one.to_json(), top)["correct"] is True
    states = hw.learner_homework(store, ana.key)[0]["states"]
    assert [(s["done"], s["right"], s["choice"]) for s in states] == [(True, False, "lost"), (True, True, "won")]
    with store.transaction(write=False) as tx:
        assert tx.execute("SELECT COUNT(*) FROM homework_results").fetchone()[0] == 2


def test_rule_a_game_item_asks_to_play_to_the_end_by_default_or_to_win(store_location):
    """docs/rules.md#homework-games: a lost game played to the end passes a "play" item (the
    default) and fails a "win" item; the result and score are kept either way."""
    store = open_store(store_location)
    code, (ana,) = learners(store, "Ana")
    task = hw.create(store, code, "T", DUE, 100, [{"kind": "game", "game": "21"},
                                                  {"kind": "game", "game": "21", "goal": "win"},
                                                  {"kind": "game", "game": "21", "goal": "play"}])
    assert [item["goal"] for item in task["items"]] == ["play", "win", "play"]
    game = played("21", 3, rounds=2)
    loser = next(seat for seat in range(game.players) if seat not in game.outcome().winners)
    mine = game.outcome().scores[loser]
    for item in range(3):
        verdict = hw.finish_game(store, task["id"], item, ana.key, "21", game.to_json(), loser)
        assert verdict["choice"] == "lost" and verdict["score"].split("-")[0] == str(mine)
        assert verdict["correct"] is (item != 1)
    [seen] = hw.learner_homework(store, ana.key)
    assert [(s["done"], s["right"], s["choice"]) for s in seen["states"]] == [
        (True, True, "lost"), (True, False, "lost"), (True, True, "lost")]
    assert not seen["summary"]["passed"]  # 2 of 3 right: below 100%
    with pytest.raises(hw.HomeworkError, match="bad_game"):
        hw.create(store, code, "T", DUE, 50, [{"kind": "game", "game": "21", "goal": "lose"}])


def test_rule_a_game_item_stored_before_goals_reads_as_play_to_the_end(store_location):
    """docs/rules.md#homework-games: an item stored without a goal (before goals existed) is
    "play to the end": a lost game passes it, on either store."""
    store = open_store(store_location)
    code, (ana,) = learners(store, "Ana")
    task = hw.create(store, code, "T", DUE, 100, [{"kind": "game", "game": "truco"}])
    with store.transaction() as tx:  # as an older version stored it: no goal
        tx.execute("UPDATE assignments SET items = ? WHERE id = ?",
                   ('[{"kind": "game", "game": "truco", "where": "bots"}]', task["id"]))
    assert hw.assignment(store, task["id"])["items"][0]["goal"] == "play"
    truco = played("paulista", 5)
    loser_seat = next(seat for seat in range(4) if find_game("paulista").team_of(seat) != truco.winner)
    assert hw.finish_game(store, task["id"], 0, ana.key, "paulista", truco.to_json(), loser_seat)["correct"]
    assert hw.learner_homework(store, ana.key)[0]["summary"]["passed"]


def test_rule_a_game_not_over_or_not_a_game_of_the_engine_is_refused(store_location):
    """docs/rules.md#homework-games: the kernel's word is not enough; the engine decides."""
    store = open_store(store_location)
    code, (ana,) = learners(store, "Ana")
    task = hw.create(store, code, "T", DUE, 50, [{"kind": "game", "game": "truco"}])
    going_on = find_game("paulista").new_game(1)
    with pytest.raises(hw.HomeworkError, match="not_over"):
        hw.finish_game(store, task["id"], 0, ana.key, "paulista", going_on.to_json())
    over = played("paulista", 2)
    for game, text, seat in [("paulista", '{"won": true}', 0), ("paulista", "not json", 0),
                             ("mineiro", over.to_json(), 0), ("poker", over.to_json(), 0),
                             ("paulista", over.to_json(), 7), ("paulista", None, 0)]:
        with pytest.raises(hw.HomeworkError, match="bad_game_state"):
            hw.finish_game(store, task["id"], 0, ana.key, game, text, seat)
    assert hw.learner_homework(store, ana.key)[0]["summary"]["done"] == 0


def test_rule_a_game_of_another_variant_or_from_a_scenario_counts_only_if_the_item_allows_it(store_location):
    """docs/rules.md#homework-games: a named variant only; a scenario's game only when allowed."""
    store = open_store(store_location)
    code, (ana,) = learners(store, "Ana")
    task = hw.create(store, code, "T", DUE, 50, [
        {"kind": "game", "game": "truco", "variant": "mineiro"},
        {"kind": "game", "game": "truco"},
        {"kind": "game", "game": "truco", "scenarios": True},
        {"kind": "game", "game": "21"},
        {"kind": "game", "game": "truco", "where": "table"}])
    assert task["items"][0]["variant"] == "mineiro" and task["items"][2]["scenarios"] is True
    paulista, mineiro = played("paulista", 4).to_json(), played("mineiro", 4).to_json()
    for item, game, text, scenario, why in [(0, "paulista", paulista, False, "other_variant"),
                                            (1, "paulista", paulista, True, "from_scenario"),
                                            (3, "paulista", paulista, False, "other_game"),
                                            (4, "paulista", paulista, False, "bad_item")]:
        with pytest.raises(hw.HomeworkError, match=why):
            hw.finish_game(store, task["id"], item, ana.key, game, text, 0, scenario)
    assert hw.finish_game(store, task["id"], 0, ana.key, "mineiro", mineiro)["first"]
    assert hw.finish_game(store, task["id"], 1, ana.key, "mineiro", mineiro)["first"]  # any variant
    assert hw.finish_game(store, task["id"], 2, ana.key, "paulista", paulista, 0, True)["first"]
    with pytest.raises(hw.HomeworkError, match="bad_game"):
        hw.create(store, code, "T", DUE, 50, [{"kind": "game", "game": "21", "variant": "paulista"}])
    with pytest.raises(hw.HomeworkError, match="bad_game"):
        hw.create(store, code, "T", DUE, 50, [{"kind": "game", "game": "truco", "scenarios": "yes"}])


def test_rule_a_finished_table_marks_its_seated_learners_items_from_the_stores_record(store_location):
    """docs/rules.md#homework-games: the table's record (who sat where, its state) decides."""
    store = open_store(store_location)
    code, (ana, bia, caio) = learners(store, "Ana", "Bia", "Caio")
    task = hw.create(store, code, "T", DUE, 50, [{"kind": "game", "game": "truco", "where": "table", "goal": "win"},
                                                 {"kind": "game", "game": "truco"},
                                                 {"kind": "game", "game": "21", "where": "table"},
                                                 {"kind": "game", "game": "truco", "where": "table"}])
    clock = [time.time()]
    tables = Tables(StoreRepository(store), clock=lambda: clock[0])
    table = tables.create("paulista", ana.key, "Ana", class_code=code, timeout=10, pace=0, seed=9)
    tables.join(table, bia.key, "Bia", 1)
    tables.start(table, ana.key)
    assert hw.table_game_over(store, table) == []  # not finished: nothing
    clock[0] += 100  # both away: the bots play their seats to the end
    snap = tables.snapshot(table)
    while snap.status != "finished":
        snap = tables.bot_move(snap) or tables.snapshot(table)
    state = snap.state
    written = hw.table_game_over(store, table)
    assert sorted((r["learner"], r["assignment"], r["item"]) for r in written) == sorted(
        [(ana.key, task["id"], 0), (bia.key, task["id"], 0), (ana.key, task["id"], 3), (bia.key, task["id"], 3)])
    team = find_game("paulista").team_of
    for person, seat in ((ana, 0), (bia, 1)):
        [mine] = hw.learner_homework(store, person.key)
        assert mine["states"][0]["right"] == (team(seat) == state.winner)  # "win"
        assert mine["states"][3]["right"] and mine["states"][3]["choice"] == mine["states"][0]["choice"]  # "play"
        assert mine["states"][3]["score"] == hw.final_score(state, seat)
        assert not mine["states"][1]["done"] and not mine["states"][2]["done"]  # bots, and 21: not this game
    assert hw.learner_homework(store, caio.key)[0]["summary"]["done"] == 0  # not seated
    assert hw.table_game_over(store, table) == []  # a second kernel asking writes nothing more


def test_a_game_played_on_the_play_page_of_a_homework_link_is_recorded_once(store_location, monkeypatch):
    """docs/rules.md#homework-games: jogar_truco?tarefa=ID&item=0 sends the ended game once."""
    from widgets.pages.jogar_truco import PlayTruco

    store = open_store(store_location)
    made = create_class(store, "7º B")
    task = hw.create(store, made.code, "T", DUE, 50, [{"kind": "game", "game": "truco", "goal": "win"}])
    ana = sign_in(made.code, "Ana", "browser-ana-0001")
    calls = []
    sent = hw.StoreHomework.finish_game
    monkeypatch.setattr(hw.StoreHomework, "finish_game",
                        lambda self, *a, **k: calls.append((a, k)) or sent(self, *a, **k))
    monkeypatch.setenv("QUERY_STRING", f"tarefa={task['id']}&item=0")
    view = PlayTruco(seed=3, delay=0)
    while not view.state.is_terminal():
        seat = view.acting_seat()
        view.act(view.state.view(seat).legal_actions()[0])
    assert len(calls) == 1 and "Partida registrada na tarefa." in view.message.value
    assert calls[0][1]["mine"] == view.my_moves and view.my_moves  # her moves go with it, and passed the check
    view.redraw()
    view.redraw()  # more "game over" drawings: nothing sent again
    assert len(calls) == 1
    [mine] = hw.learner_homework(store, ana.key)
    won = view.state.winner == find_game("paulista").team_of(0)
    assert mine["states"][0]["done"] and mine["states"][0]["right"] == won


def test_a_game_from_a_scenario_on_the_play_page_does_not_count_and_says_why(store_location, monkeypatch):
    """docs/rules.md#homework-games: the item does not take a scenario's game; the page says so."""
    from widgets.pages.jogar_truco import PlayTruco

    store = open_store(store_location)
    made = create_class(store, "7º B")
    task = hw.create(store, made.code, "T", DUE, 50, [{"kind": "game", "game": "truco"}])
    ana = sign_in(made.code, "Ana", "browser-ana-0001")
    monkeypatch.setenv("QUERY_STRING", f"tarefa={task['id']}&item=0&lang=en")
    # a mão de onze where calling truco loses the game at once (see test_widgets_play_truco)
    state = from_deal("paulista", [["Q♣", "Q♥", "3♦"], ["4♣", "5♦", "6♥"], ["7♣", "Q♦", "J♥"],
                                   ["4♦", "5♠", "6♠"]], "7♠", dealer=3, score=(11, 4), seed=1)
    view = PlayTruco(state=state, delay=0, lang="en", seed=1)
    view.play_hand_button.click()
    view.raise_button.click()
    assert view.state.is_terminal()
    assert "A game started from a scenario does not count for this homework item." in view.message.value
    assert hw.learner_homework(store, ana.key)[0]["summary"]["done"] == 0


class SeenIdentity:
    """What the identity widget tells the tables page's kernel: the learner at this browser."""

    def __init__(self, learner):
        self.current = learner
        self.listeners = []

    def on_change(self, callback):
        self.listeners.append(callback)


def test_the_tables_page_of_a_finished_table_marks_her_item_done_and_asks_once(store_location, monkeypatch):
    """docs/rules.md#homework-games: mesa asks the store once per table; its record decides."""
    from widgets.pages.mesa import Mesa

    store = open_store(store_location)
    code, (ana,) = learners(store, "Ana")
    hw.create(store, code, "T", DUE, 50, [{"kind": "game", "game": "truco", "where": "table", "goal": "win"}])
    clock = [time.time()]
    tables = Tables(StoreRepository(store), clock=lambda: clock[0])
    table = tables.create("mineiro", ana.key, "Ana", class_code=code, timeout=10, pace=0, seed=4)
    tables.start(table, ana.key)
    clock[0] += 100  # she is away: the bots play the game out
    snap = tables.snapshot(table)
    while snap.status != "finished":
        snap = tables.bot_move(snap) or tables.snapshot(table)
    asked = []
    real = hw.StoreHomework.table_game_over
    monkeypatch.setattr(hw.StoreHomework, "table_game_over", lambda self, c: asked.append(c) or real(self, c))
    view = Mesa(lang="en", tables=tables, identity=SeenIdentity(ana), code=table, autopoll=False)
    view.redraw()
    view.redraw()
    assert asked == [table] and "Game recorded in the homework." in view.message.value
    [mine] = hw.learner_homework(store, ana.key)
    assert mine["states"][0]["done"] and mine["states"][0]["right"] == (snap.state.winner == 0)


def test_the_homework_page_links_a_bot_game_item_to_the_games_own_page(store_location):
    from widgets.pages.tarefa import Homework

    store = open_store(store_location)
    made = create_class(store, "7º B")
    task = hw.create(store, made.code, "T", DUE, 50, [{"kind": "game", "game": "21"},
                                                      {"kind": "game", "game": "truco", "where": "table"}])
    sign_in(made.code, "Ana", "browser-ana-0001")
    page = Homework(code=task["id"], lang="en")
    bots, table = (box.children for box in page.items_box.children)
    [link] = [c for c in bots if "cartas-task-game-page" in str(getattr(c, "value", ""))]
    assert f"jogar_21.ipynb?tarefa={task['id']}&amp;item=0&amp;lang=en" in link.value
    assert "the game counts for the homework" in link.value
    assert "mesa.ipynb" in table[-1].value
