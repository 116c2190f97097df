"""Homework game items (docs/rules.md#homework-games) on SQLite and on a real PostgreSQL: a
finished game against the bots (her homework table, dealt by the store) or at a class table
marks the learner's item done with the engine's result, once, from the table's own record; the
browser never says who won."""
from __future__ import annotations

import html
import time

import pytest

from cartas.games import find_game
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


def over(task_id: str, item: int, learner: str, state, seat: int) -> dict:
    """A homework table's record as the store's tables keep it once its game `state` is over,
    `learner` at `seat` (what `homework.bot_table_over` reads: tests/test_homework_forged.py
    plays such tables through the tables themselves)."""
    sitters: list = [None] * state.players
    sitters[seat] = {"id": learner, "name": "Ana", "since": 0.0}
    return {"game": state.game, "state": state.to_json(), "sitters": sitters, "creator": learner,
            "homework": {"assignment": task_id, "item": item, "learner": learner}}


def result(store, learner: str, item: int) -> tuple:
    state = hw.learner_homework(store, learner)[0]["states"][item]
    return state["done"], state["right"], state["choice"], state["score"]


def test_rule_a_finished_bot_game_marks_the_item_done_with_the_engines_result_once(store_location):
    """docs/rules.md#homework-games: the engine replays the table's game and says who won."""
    store = open_store(store_location)
    code, (ana,) = learners(store, "Ana")
    task = hw.create(store, code, "T", DUE, 50, [{"kind": "game", "game": "truco", "goal": "win"},
                                                 {"kind": "game", "game": "21", "goal": "win"}])
    truco = played("paulista", 5)
    winner_seat = next(seat for seat in range(4) if find_game("paulista").team_of(seat) == truco.winner)
    loser_seat = (winner_seat + 1) % 4
    scores = truco.outcome().scores
    lost_score = f"{scores[1 - truco.winner]}-{scores[truco.winner]}"  # her team's first
    first = hw.bot_table_over(store, over(task["id"], 0, ana.key, truco, loser_seat))
    assert first == [{"learner": ana.key, "assignment": task["id"], "item": 0, "correct": False}]
    assert result(store, ana.key, 0) == (True, False, "lost", lost_score)
    # asked again, or another table of hers ending won: the first result stays
    assert hw.bot_table_over(store, over(task["id"], 0, ana.key, truco, winner_seat)) == []
    assert result(store, ana.key, 0) == (True, False, "lost", lost_score)
    twenty_one = played("21", 3, rounds=2)
    top = twenty_one.outcome().winners[0]
    assert hw.bot_table_over(store, over(task["id"], 1, ana.key, twenty_one, top))[0]["correct"] is True
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
        [verdict] = hw.bot_table_over(store, over(task["id"], item, ana.key, game, loser))
        _, _, choice, score = result(store, ana.key, item)
        assert choice == "lost" and score.split("-")[0] == str(mine)
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
    assert hw.bot_table_over(store, over(task["id"], 0, ana.key, truco, loser_seat))[0]["correct"]
    assert hw.learner_homework(store, ana.key)[0]["summary"]["passed"]


def test_rule_a_homework_table_not_over_for_her_writes_nothing(store_location):
    """docs/rules.md#homework-games: the table's record decides, and a game going on is no result."""
    store = open_store(store_location)
    code, (ana,) = learners(store, "Ana")
    task = hw.create(store, code, "T", DUE, 50, [{"kind": "game", "game": "truco"}])
    going_on = find_game("paulista").new_game(1)
    assert hw.bot_table_over(store, over(task["id"], 0, ana.key, going_on, 0)) == []
    record = over(task["id"], 0, ana.key, played("paulista", 2), 0)
    assert hw.bot_table_over(store, {**record, "sitters": [None] * 4}) == []  # she is not seated there
    assert hw.learner_homework(store, ana.key)[0]["summary"]["done"] == 0


def test_rule_a_homework_table_deals_the_items_game_and_variant_only(store_location):
    """docs/rules.md#homework-games: the table is dealt in the item's variant (any of its
    family's when it names none); another game, or an item at a class table, is refused."""
    store = open_store(store_location)
    code, (ana,) = learners(store, "Ana")
    task = hw.create(store, code, "T", DUE, 50, [
        {"kind": "game", "game": "truco", "variant": "mineiro"},
        {"kind": "game", "game": "truco"},
        {"kind": "game", "game": "21"},
        {"kind": "game", "game": "truco", "where": "table"}])
    assert task["items"][0]["variant"] == "mineiro"
    service = hw.StoreHomework(store)
    tables = Tables(StoreRepository(store))
    for item, game, why in [(0, "paulista", "other_variant"), (2, "paulista", "other_game"),
                            (3, None, "bad_item"), (1, "poker", "bad_game")]:
        with pytest.raises(hw.HomeworkError, match=why):
            service.bot_table(task["id"], item, ana.key, game)
    assert tables.snapshot(service.bot_table(task["id"], 0, ana.key)["code"]).game == "mineiro"
    assert tables.snapshot(service.bot_table(task["id"], 1, ana.key, "mineiro")["code"]).game == "mineiro"
    assert tables.snapshot(service.bot_table(task["id"], 2, ana.key)["code"]).game == "21"
    with pytest.raises(hw.HomeworkError, match="bad_game"):
        hw.create(store, code, "T", DUE, 50, [{"kind": "game", "game": "21", "variant": "paulista"}])


@pytest.mark.parametrize("allowed", [True, "yes"])
def test_rule_no_homework_game_begun_from_a_scenario_counts_and_an_item_saying_so_is_refused(store_location, allowed):
    """docs/rules.md#homework-games: a position made by hand may be a won one, and a homework
    game against the bots is always the store's deal; an item stored with `scenarios: True`
    before is played as any other, from the store's deal."""
    store = open_store(store_location)
    code, (ana,) = learners(store, "Ana")
    with pytest.raises(hw.HomeworkError, match="scenario_games"):
        hw.create(store, code, "T", DUE, 50, [{"kind": "game", "game": "truco", "scenarios": allowed}])
    task = hw.create(store, code, "T", DUE, 50, [{"kind": "game", "game": "truco"}])
    with store.transaction() as tx:  # as an older version stored it
        tx.execute("UPDATE assignments SET items = ? WHERE id = ?",
                   ('[{"kind": "game", "game": "truco", "where": "bots", "scenarios": true}]', task["id"]))
    made = hw.StoreHomework(store).bot_table(task["id"], 0, ana.key)
    snap = Tables(StoreRepository(store)).snapshot(made["code"])
    assert snap.status == "playing" and tuple(snap.state.score) == (0, 0) and snap.record["homework"]["item"] == 0


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


@pytest.mark.parametrize("lang", ["pt", "en"])
def test_a_play_page_opened_with_a_homework_link_says_its_game_does_not_count_and_sends_nothing(
        store_location, monkeypatch, lang):
    """docs/rules.md#homework-games: the links of older versions (jogar_truco?tarefa=ID&item=0)
    play as without them; the notice says a homework game is played on the homework's page."""
    from widgets.pages.jogar_truco import PlayTruco

    store = open_store(store_location)
    made = create_class(store, "7º B")
    task = hw.create(store, made.code, "T", DUE, 50, [{"kind": "game", "game": "truco"}])
    ana = sign_in(made.code, "Ana", "browser-ana-0001")
    monkeypatch.setenv("QUERY_STRING", f"tarefa={task['id']}&item=0&lang={lang}")
    view = PlayTruco(seed=3, delay=0, lang=lang)
    while not view.state.is_terminal():
        seat = view.acting_seat()
        view.act(view.state.view(seat).legal_actions()[0])
    said = {"pt": "as partidas da tarefa contra os robôs se jogam na página da tarefa, em «Jogar aqui»: "
                  "esta partida não conta para a tarefa",
            "en": "homework games against the bots are played on the homework's page, with “Play here”: "
                  "this game does not count for the homework"}[lang]
    assert said in html.unescape(view.url_notice())
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


def test_the_homework_page_offers_her_table_for_a_bot_game_item_and_no_game_page(store_location):
    """docs/rules.md#homework-games: "Play here" (her homework table) is the one way to play it."""
    from widgets.pages.tarefa import Homework

    store = open_store(store_location)
    made = create_class(store, "7º B")
    task = hw.create(store, made.code, "T", DUE, 50, [{"kind": "game", "game": "21"},
                                                      {"kind": "game", "game": "truco", "where": "table"}])
    sign_in(made.code, "Ana", "browser-ana-0001")
    page = Homework(code=task["id"], lang="en")
    bots, table = (box.children for box in page.items_box.children)
    assert [c.description for c in bots if "cartas-task-play" in c._dom_classes] == ["Play here"]
    assert not any("jogar_21.ipynb" in str(getattr(c, "value", "")) for c in bots)
    assert "mesa.ipynb" in table[-1].value
