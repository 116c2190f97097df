"""The tables dashboard at widget level: several views (one per browser) on one store."""
from __future__ import annotations

import re

import pytest

from classroom import games
from classroom.identity import Learner
from classroom.tables import MemoryRepository, Tables
from widgets.mesa import ClassTables, Mesa


class FakeIdentity:
    """What the identity widget tells a page's kernel: the learner at this browser."""

    def __init__(self, browser_id: str, name: str = "", class_code: str = ""):
        self.current = Learner(browser_id, name, class_code)
        self.listeners = []

    def on_change(self, callback):
        self.listeners.append(callback)


@pytest.fixture
def tables():
    return Tables(MemoryRepository())


def page(tables, who: str, name: str, code=None, lang="en", class_code="", seed=5):
    view = Mesa(lang=lang, tables=tables, identity=FakeIdentity(f"browser-{who}", name, class_code),
                code=code)
    view.seed = seed  # a table created here deals from this seed (as ?semente= does)
    return view


def hand_cards(html: str) -> set[str]:
    """The face-up cards drawn in the seats' hands of a truco table picture."""
    cards = set()
    for block in re.findall(r"class=\"cartas-hand\".*?</div>", html, flags=re.DOTALL):
        cards |= {c for c in re.findall(r'data-card="([^"]+)"', block) if c != "back"}
    return cards


def test_a_table_created_in_the_lobby_opens_with_its_code_and_link(tables):
    ana = page(tables, "ana", "Ana")
    code = ana.create()
    assert ana.lobby.layout.display == "none" and ana.client.seat == 0
    assert f"mesa.ipynb?mesa={code}" in ana.table_head.value
    assert f"data-code='{code}'" in ana.table_head.value
    assert "data-turn='waiting'" in ana.status.value


def test_classmates_open_the_link_sit_and_everyone_sees_who_sits_where(tables):
    ana = page(tables, "ana", "Ana")
    code = ana.create()
    bia = page(tables, "bia", "Bia <b>", code=code)
    assert bia.client is not None and bia.client.seat is None
    bia.sit(3)
    assert ana.poll()
    seat3 = ana.seat_box.children[3].children[0].value
    assert "Bia &lt;b&gt;" in seat3 and "data-controller='learner'" in seat3
    assert "data-controller='bot'" in ana.seat_box.children[1].children[0].value
    # only the creator sees the start button
    assert ana.start_button.layout.display is None and bia.start_button.layout.display == "none"


def test_each_browser_draws_only_its_own_cards_and_a_spectator_none(tables):
    ana = page(tables, "ana", "Ana")
    code = ana.create()
    bia = page(tables, "bia", "Bia", code=code)
    bia.sit(1)
    ana.start_button.click()
    bia.poll()
    state = ana.client.snap.state
    own = {0: {str(c) for c in state.hand_of(0)}, 1: {str(c) for c in state.hand_of(1)}}
    assert hand_cards(ana.picture.value) == own[0]
    assert hand_cards(bia.picture.value) == own[1]
    watch = ClassTables(lang="en", tables=tables).watch(code)
    assert hand_cards(watch.picture.value) == set()
    assert "data-turn='watch'" in watch.status.value and not watch.actions.children


def test_a_click_on_a_table_that_moved_on_is_refused_with_a_clear_message(tables):
    ana = page(tables, "ana", "Ana")
    code = ana.create()
    bia = page(tables, "bia", "Bia", code=code)
    bia.sit(2)
    ana.start_button.click()
    bia.poll()
    # whoever is to play: make their screen stale by a seat change it has not seen yet
    snap = ana.client.snap
    while snap.controller(snap.state.current_seat, tables.clock()) == "bot":
        snap.record["moved_at"] -= 10
        snap = tables.bot_move(snap)
    ana.poll(), bia.poll()
    mover = ana if snap.state.current_seat == 0 else bia
    caio = page(tables, "caio", "Caio", code=code)
    caio.sit(1 if snap.state.current_seat != 1 else 3)
    version = mover.client.snap.version
    before = len(games.legal_actions(mover.client.snap.state, mover.client.seat))
    assert before
    mover.guarded(mover.act)(games.legal_actions(mover.client.snap.state, mover.client.seat)[0])
    assert "the table moved on" in mover.message.value
    assert mover.client.snap.version == version + 1  # it now shows the newer table
    assert tables.snapshot(code).version == version + 1  # the refused move changed nothing


def test_the_21_options_set_in_the_lobby_reach_the_game(tables):
    ana = page(tables, "ana", "Ana")
    ana.game.value = "21"
    ana.seats.value = 5
    ana.rotation.value = "sale"
    ana.ace.value = 11
    ana.packs.value = 2
    ana.min_bet.value, ana.max_bet.value, ana.rounds.value = 2, 4, 3
    code = ana.create()
    ana.start_button.click()
    state = tables.snapshot(code).state
    assert (state.players, state.rotation, state.ace, state.decks, state.min_bet,
            state.max_bet, state.rounds) == (5, "sale", 11, 2, 2, 4, 3)
    assert len(ana.seat_box.children) == 5


def test_a_learner_without_a_name_is_asked_for_one_before_sitting(tables):
    ana = page(tables, "ana", "")
    ana.create_button.click()
    assert "Type your name to sit down." in ana.message.value and ana.client is None
    ana.name.value = "Ana"
    ana.create_button.click()
    assert ana.client is not None and ana.client.snap.sitters[0]["name"] == "Ana"


def test_a_bad_code_is_refused_in_portuguese_without_a_traceback(tables):
    ana = page(tables, "ana", "Ana", lang="pt")
    ana.code.value = "não!"
    ana.join_button.click()
    assert "código de mesa inválido" in ana.message.value and ana.client is None
    ana.code.value = "ZZZZZ"
    ana.join_button.click()
    assert "não há mesa com o código ZZZZZ" in ana.message.value


def test_a_reload_finds_the_same_seat(tables):
    ana = page(tables, "ana", "Ana")
    code = ana.create()
    again = page(tables, "ana", "Ana", code=code)
    assert again.client.seat == 0
    assert "data-mine='true'" in again.seat_box.children[0].children[0].value


def test_bots_play_and_the_why_of_a_trick_is_shown_to_everyone(tables):
    ana = page(tables, "ana", "Ana")
    code = ana.create()
    ana.start_button.click()
    for _ in range(200):
        snap = ana.client.snap
        if len(snap.state.tricks) >= 1 or snap.state.is_terminal():
            break
        if snap.state.current_seat == 0:
            legal = games.legal_actions(snap.state, 0)
            ana.act(next((a for a in legal if a.kind in ("play", "accept", "play_hand")), legal[0]))
        else:
            snap.record["moved_at"] -= 10
            ana.poll()
    watcher = page(tables, "zed", "Zed", code=code)
    assert "Why?" in watcher.why.value and watcher.client.seat is None
    assert "cartas-log-line" in watcher.log_box.value


def test_the_teacher_lists_the_class_open_tables(tables):
    ana = page(tables, "ana", "Ana", class_code="TURMA2")
    ana.create()
    listing = ClassTables("TURMA2", lang="en", tables=tables)
    assert ana.client.code in listing.listing.value
    assert listing.watch_box.children[0].description == f"Watch {ana.client.code}"
    assert "No open table" in ClassTables("OTHER3", lang="en", tables=tables).listing.value


def test_the_teachers_class_view_lists_the_class_tables_and_watches_one_as_a_spectator(store_location):
    from classroom.classes import create_class
    from classroom.progress import open_store
    from widgets.turma import ClassView

    made = create_class(open_store(store_location), "7º B")
    stored_tables = Tables()  # the configured store, as the dashboards use it
    ana = page(stored_tables, "ana", "Ana", class_code=made.code)
    code = ana.create()
    bia = page(stored_tables, "bia", "Bia", code=code)
    bia.sit(1)
    ana.start_button.click()
    teacher = ClassView(lang="en")
    teacher.code.value, teacher.key.value = made.code, made.key
    teacher.open_button.click()
    listing = teacher.class_tables
    assert code in listing.listing.value and "Ana" in listing.listing.value
    listing.watch_box.children[0].click()
    watcher = listing.watcher
    assert watcher.client.seat is None and "data-turn='watch'" in watcher.status.value
    assert hand_cards(watcher.picture.value) == set()
    assert not watcher.actions.children and not watcher.hand_cards.cards
