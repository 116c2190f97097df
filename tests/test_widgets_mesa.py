"""The tables dashboard at widget level: several views (one per browser) on one store."""
from __future__ import annotations

import re

import pytest

from classroom import games
from classroom.identity import Learner
from classroom.tables import MemoryRepository, Tables
from widgets.components.announce import MAX_LINES
from widgets.pages.mesa import ClassTables, Mesa

from loops import run_async


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


def slot_of(view, control):
    """The error slot beside `control` (`View.beside`)."""
    slot = view._slot_for(control)
    assert slot is not None, "no error slot beside this control"
    return slot


def announcements(view) -> list[list[str]]:
    """Every announcement of the view's live region from this call on, as its lines (a list
    that grows)."""
    said: list[list[str]] = []
    view.announcer.observe(lambda change: said.append(change["new"]["text"].split("\n")), names="said")
    return said


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
    error = slot_of(ana, ana.create_button)  # beside "Create table", not in the title's message line
    assert "Type your name to sit down." in error.value and ana.client is None and ana.message.value == ""
    ana.name.value = "Ana"
    ana.create_button.click()
    assert ana.client is not None and ana.client.snap.sitters[0]["name"] == "Ana"


def test_a_bad_code_is_refused_in_portuguese_without_a_traceback(tables):
    ana = page(tables, "ana", "Ana", lang="pt")
    ana.code.value = "não!"
    ana.join_button.click()
    error = slot_of(ana, ana.join_button)  # beside the code field and "Abrir mesa"
    assert "código de mesa inválido" in error.value and ana.client is None and ana.message.value == ""
    ana.code.value = "ZZZZZ"
    ana.join_button.click()
    assert "não há mesa com o código ZZZZZ" in error.value


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
    from widgets.pages.turma import ClassView

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


# A page through a whole lesson: bounded widgets, one click one move, refusals that stay ------
class Clock:
    """The tables' clock, moved by the test: bots at pace 0 are due at once."""

    def __init__(self):
        self.now = 1_000_000.0

    def __call__(self) -> float:
        self.now += 0.001
        return self.now


def live_widgets() -> int:
    from ipywidgets.widgets.widget import _instances  # what ipywidgets.Widget.widgets returns
    return len(_instances)


def fast_table(game: str = "paulista", seats: int | None = None, rounds: int = 50):
    """A table created by Ana at seat 0, bots at pace 0, on a clock the test moves."""
    tables = Tables(MemoryRepository(), clock=Clock())
    view = page(tables, "ana", "Ana", seed=11)
    view.pace, view.autopoll = 0.0, False
    if seats is not None:
        view.game.value, view.seats.value, view.rounds.value = game, seats, rounds
    view.create()
    view.start_button.click()
    return tables, view


def my_turn(view) -> bool:
    snap = view.client.snap
    return snap.status == "playing" and snap.state.current_seat == view.client.seat


def move_once(view, prefer: tuple[str, ...]) -> None:
    """Ana's move through her page (a preferred button, else a playable card, else the first
    button), or one poll (a bot's move) when she is not to play."""
    if not my_turn(view):
        view.poll()
        return
    buttons = list(view.actions.children)
    for kind in prefer:
        chosen = next((b for b in buttons if f"cartas-act-{kind}" in b._dom_classes), None)
        if chosen is not None:
            chosen.click()
            return
    playable = [i for i, card in enumerate(view.hand_cards.cards) if card["enabled"] and not card.get("dim")]
    if playable:
        view.hand_cards.pick(playable[0])
    else:
        buttons[0].click()


def until(done, step, limit: int = 400) -> None:
    """Call `step()` until `done()`; fail (never hang) after `limit` steps."""
    for _ in range(limit):
        if done():
            return
        step()
    pytest.fail(f"not reached after {limit} steps")


def widget_counts(view, moves: int, prefer: tuple[str, ...]) -> tuple[int, list[int]]:
    """Play `moves` moves; the live widget count after the first hand, and after each later move."""
    at_first_hand, later, made = None, [], 0
    while made < moves:
        if view.client.snap.status == "finished":  # a new game at a new table, on the same page
            view.close_table()
            view.create()
            view.start_button.click()
        version = view.client.snap.version
        move_once(view, prefer)
        if view.client.snap.version == version:
            pytest.fail(f"the table does not move: {view.move_error.value or view.message.value}")
        made += 1
        if made % 100 == 0:
            view.client.heartbeat()  # the browser's beat: Ana stays present
        if at_first_hand is None and games.hand_number(view.client.snap.state) > 1:
            at_first_hand = live_widgets()
        elif at_first_hand is not None:
            later.append(live_widgets())
    assert at_first_hand is not None, "the first hand did not end"
    return at_first_hand, later


MOVE_BUTTON_GENERATIONS = 2  # the drawing shown and the one before (for a double click's 2nd click)


def test_a_21_table_of_12_keeps_its_widget_count_after_the_first_hand_over_500_moves():
    _, view = fast_table("21", seats=12)
    at_first_hand, later = widget_counts(view, 500, ("bet", "hit", "stand", "call", "refuse_bank", "pass"))
    # a drawing's move buttons are made anew (at most 5 bets): two drawings' worth may vary
    assert max(later) <= at_first_hand + MOVE_BUTTON_GENERATIONS * 5, (at_first_hand, max(later))
    assert later[-1] <= at_first_hand + MOVE_BUTTON_GENERATIONS * 5


def test_a_truco_table_keeps_its_widget_count_after_the_first_hand_over_300_moves():
    _, view = fast_table("paulista")
    at_first_hand, later = widget_counts(view, 300, ("accept", "play_hand"))
    assert max(later) <= at_first_hand + MOVE_BUTTON_GENERATIONS * 3, (at_first_hand, max(later))


def test_clicks_on_an_old_drawings_buttons_change_nothing():
    tables, view = fast_table("21", seats=3)
    until(lambda: my_turn(view), view.poll)
    old = list(view.actions.children)
    assert old
    old[0].click()                           # Ana moves: these buttons are an old drawing now
    until(lambda: my_turn(view) and view.actions.children and all(b.comm is None for b in old),
          lambda: move_once(view, ("bet", "stand", "call")))
    before = list(view._old_move_buttons)    # the drawing before the one shown, still open
    version, record = view.client.snap.version, tables.snapshot(view.client.code).record
    for button in old + before:              # closed ones do nothing; the others are refused
        button.click()
    assert tables.snapshot(view.client.code).version == version
    assert tables.snapshot(view.client.code).record == record


def test_an_old_drawings_buttons_are_closed_with_their_own_layout_and_style():
    # a browser keeps a layout's or style's view for every button view drawn with it: shared
    # ones would keep every drawing's buttons alive in the page
    _, view = fast_table("21", seats=3)
    until(lambda: my_turn(view) and view.actions.children, view.poll)
    first = list(view.actions.children)
    parts = {id(p): p for b in first for p in (b.layout, b.style)}
    until(lambda: all(b.comm is None for b in first), lambda: move_once(view, ("bet", "stand", "call")))
    assert all(p.comm is None for p in parts.values())
    shown = {id(p) for b in view.actions.children + tuple(view._old_move_buttons) for p in (b.layout, b.style)}
    assert not shown & set(parts) and all(b.layout.comm is not None for b in view.actions.children)


def test_a_seats_button_is_hidden_not_removed_and_a_hidden_one_does_nothing():
    tables, view = fast_table("21", seats=3)
    row, _, button = view._seat_rows[0]     # Ana's own seat: no "Sit here"
    assert row.children[1] is button and button.layout.display == "none"
    record = tables.snapshot(view.client.code).record
    button.click()
    assert tables.snapshot(view.client.code).record == record


def test_a_double_click_on_pedir_carta_takes_one_card_and_the_second_is_refused(tables):
    _, view = fast_table("21", seats=3)
    until(lambda: my_turn(view) and any("cartas-act-hit" in b._dom_classes for b in view.actions.children),
          lambda: move_once(view, ("bet",)))
    hit = next(b for b in view.actions.children if "cartas-act-hit" in b._dom_classes)
    version, cards = view.client.snap.version, len(view.client.snap.state.view(0).cards[0])
    hit.click()
    hit.click()                              # the browser's second click, on the same drawing
    snap = view.client.tables.snapshot(view.client.code)
    assert snap.version == version + 1 and len(snap.state.view(0).cards[0]) == cards + 1
    assert "the table moved on" in view.move_error.value


def test_a_card_clicked_on_an_old_drawing_is_refused_as_the_table_moved_on():
    tables, view = fast_table("paulista")
    until(lambda: my_turn(view), view.poll)
    old = view.hand_cards.drawing
    view.client.tables.heartbeat(view.client.code, "someone-else")  # presence only: same version
    view.leave_button.click()                # the table moves on (a bot plays seat 0 now)
    view.sit(0)
    assert view.client.snap.version > old and my_turn(view)
    version = view.client.snap.version
    view.hand_cards.picked = {"index": 0, "count": 99, "drawing": old}  # what the old page sends
    assert "the table moved on" in view.move_error.value
    assert tables.snapshot(view.client.code).version == version


def test_a_card_clicked_out_of_turn_is_refused_with_whose_turn_it_is(tables):
    _, view = fast_table("paulista")
    until(lambda: not my_turn(view) and view.client.snap.state.current_seat != 0,
          lambda: move_once(view, ("accept", "play_hand")))
    waiting = view.hand_cards.cards
    assert waiting and all(c["enabled"] and c["dim"] for c in waiting if c["label"] != "1")
    version = view.client.snap.version
    seat = view.client.snap.state.current_seat
    view.hand_cards.pick(0)
    assert f"it is not your turn: seat {seat} is to play" in view.move_error.value
    assert view.client.tables.snapshot(view.client.code).version == version


def test_a_crafted_card_pick_at_a_21_table_is_refused_without_a_traceback():
    _, view = fast_table("21", seats=3)
    view.hand_cards.picked = {"index": 0, "count": 7, "drawing": view.client.snap.version}
    assert "there is no card there" in view.move_error.value
    for crafted in ({"index": "0", "drawing": 1}, {"index": True}, {"drawing": "x"}):
        view.hand_cards.picked = crafted
        assert isinstance(view.last_error, ValueError)  # a refusal, never an internal error


def test_a_refusal_stays_through_the_poll_until_the_learners_next_action_or_8_seconds(tables):
    import asyncio

    ana = page(tables, "ana", "Ana")
    code = ana.create()
    bia = page(tables, "bia", "Bia", code=code)
    page(tables, "caio", "Caio", code=code).sit(1)  # Bia's page still shows seat 1 free
    now = [100.0]
    bia.timer = lambda: now[0]
    bia.seat_box.children[1].children[1].click()
    shown = bia.seat_error.value
    assert "seat 1 is already taken by Caio" in shown

    async def polling():  # the page's own polling loop, on a running event loop
        bia._ensure_polling()
        await asyncio.sleep(3 * 0.2 + 0.1)
        bia._task.cancel()

    run_async(polling())
    now[0] += 7.9
    bia.poll(), bia.browser_beat()
    assert bia.seat_error.value == shown     # the poll and the beat leave it
    now[0] += 0.1
    bia.poll()
    assert bia.seat_error.value == ""        # 8 s later it goes
    page(tables, "dan", "Dan", code=code).sit(2)
    bia.seat_box.children[2].children[1].click()
    assert "seat 2 is already taken by Dan" in bia.seat_error.value
    bia.seat_box.children[3].children[1].click()  # the learner's next action clears it at once
    assert bia.seat_error.value == "" and bia.client.seat == 3


def test_a_truco_table_narrates_its_learners_by_name_and_bots_by_seat(tables):
    ana = page(tables, "ana", "Ana", lang="pt")
    code = ana.create()
    bia = page(tables, "bia", "Bia", code=code, lang="pt")
    bia.sit(1)
    ana.start_button.click()
    for _ in range(200):
        snap = ana.client.snap
        if snap.state.tricks or snap.state.is_terminal():
            break
        seat = snap.state.current_seat
        if seat in (0, 1):
            who = ana if seat == 0 else bia
            who.poll()  # her page has the table as it is now
            legal = games.legal_actions(who.client.snap.state, seat)
            who.act(next((a for a in legal if a.kind == "play"), legal[0]))
        else:
            snap.record["moved_at"] -= 10
        ana.poll()
    log = ana.log_box.value
    assert "Ana joga" in log and "Bia joga" in log          # the learners, by name
    assert "Assento 2 joga" in log or "Assento 3 joga" in log  # the bots' seats, by number
    assert "Assento 0 joga" not in log and "Assento 1 joga" not in log


def test_a_21_table_narrates_its_learner_by_name(tables):
    ana = page(tables, "ana", "Ana", lang="pt")
    ana.game.value = "21"
    ana.seats.value = 4
    ana.create()
    ana.start_button.click()
    ana.poll()
    log = ana.log_box.value
    assert "Ana recebe" in log and "O assento 0 recebe" not in log
    assert "O assento 1 recebe" in log  # a bot's seat, by number


@pytest.mark.parametrize("lang, plays, of", [("pt", "joga", " de "), ("en", "plays", " of ")])
def test_each_seats_move_is_announced_in_the_learners_names_with_its_cards_in_words(tables, lang, plays, of):
    """A line per move, in the page's language, a learner by her name, a card in words
    (widgets.components.announce); only what is new since the last drawing."""
    ana = page(tables, "ana", "Ana", lang=lang)
    code = ana.create()
    bia = page(tables, "bia", "Bia", code=code, lang=lang)
    bia.sit(1)
    said = announcements(bia)
    ana.start_button.click()
    for _ in range(200):
        snap = ana.client.snap
        if len(snap.state.tricks) >= 2 or snap.state.is_terminal():
            break
        seat = snap.state.current_seat
        if seat in (0, 1):
            who = ana if seat == 0 else bia
            who.poll()
            legal = games.legal_actions(who.client.snap.state, seat)
            who.act(next((a for a in legal if a.kind == "play"), legal[0]))
        else:
            snap.record["moved_at"] -= 10
        ana.poll()
        bia.poll()
    heard = [line for lines in said for line in lines]
    assert any(line.startswith(f"Ana {plays} ") for line in heard), heard   # a classmate's move, by name
    assert any(line.startswith(f"Bia {plays} ") for line in heard), heard   # her own
    moves = [line for line in heard if f" {plays} " in line]
    assert sum(of in line for line in moves) >= 2, moves  # cards in words ("sete de copas")
    assert not any(re.search("[♥♣♠♦]", line) for line in heard), heard  # never a symbol
    assert all(len(lines) <= MAX_LINES for lines in said)
    count = len(said)
    bia.poll(), bia.redraw()
    assert len(said) == count  # nothing new: nothing said again
    bia.language.value = "pt" if lang == "en" else "en"
    assert len(said) == count  # the other language redraws, and says nothing


def test_a_table_opened_says_nothing_of_its_past_and_at_most_a_few_lines_at_once():
    _, view = fast_table("21", seats=6)
    late = page(view.client.tables, "zoe", "Zoe", code=view.client.code)
    assert late.announcer.said == {}  # the table's past is in the log, not said
    said = announcements(late)
    for _ in range(30):
        move_once(view, ("bet", "hit", "stand", "call", "refuse_bank", "pass"))
    late.poll()
    assert len(said) == 1 and 0 < len(said[0]) <= MAX_LINES, said  # 30 moves: the first and the latest


@pytest.mark.parametrize("lang", ["pt", "en"])
def test_the_teachers_class_tables_leave_out_an_abandoned_table_and_say_the_rule(lang):
    """Issue 29, item 13: with a clock the test moves, a table with no move and nobody there for
    IDLE leaves the teacher's list (its watch button too); the rule is written under the list."""
    from classroom.tables import IDLE
    now = [1_000_000.0]
    tables = Tables(MemoryRepository(), clock=lambda: now[0])
    left = tables.create("paulista", "ana", "Ana", class_code="TURMA1")
    kept = tables.create("paulista", "bia", "Bia", class_code="TURMA1")
    listing = ClassTables("TURMA1", lang=lang, tables=tables)
    assert f"data-table='{left}'" in listing.listing.value and len(listing.watch_box.children) == 2
    now[0] += IDLE - 10
    tables.heartbeat(kept, "bia")
    now[0] += 20
    listing.refresh()
    assert f"data-table='{left}'" not in listing.listing.value and f"data-table='{kept}'" in listing.listing.value
    assert [b.description for b in listing.watch_box.children] == [listing.t("watch", code=kept)]
    rule = {"pt": "sem jogada nem ninguém há mais de 30 minutos, saem desta lista",
            "en": "no move and nobody there for over 30 minutes, leave this list"}[lang]
    assert rule in listing.listing.value


def places(html: str) -> dict[int, str]:
    """Where each seat of a truco table picture is drawn: {seat: "bottom" | "right" | ...}."""
    return {int(seat): place for seat, place in
            re.findall(r'class="cartas-seat" data-seat="(\d)" data-team="[AB]" data-place="(\w+)"', html)}


def heads(html: str) -> dict[int, str]:
    """Each seat's label on a truco table picture."""
    return {int(seat): label for seat, label in re.findall(
        r'data-seat="(\d)" data-team="[AB]".*?class="cartas-seat-head"[^>]*>([^<·]*?) ·', html, flags=re.DOTALL)}


@pytest.mark.parametrize("lang, bot", [("pt", "Assento 2 (robô, Médio)"), ("en", "Seat 2 (bot, Medium)")])
def test_a_truco_table_is_drawn_from_her_seat_with_the_players_names(tables, lang, bot):
    """She is at the bottom and the others round the table in play order (GameSpec.seats_from);
    each seat is labelled with its player, a bot as a bot (issue 29 item 13)."""
    ana = page(tables, "ana", "Ana", lang=lang)
    code = ana.create()
    bia = page(tables, "bia", "Bia", code=code, lang=lang)
    bia.sit(1)
    ana.start_button.click()
    bia.poll()
    assert places(ana.picture.value) == {0: "bottom", 1: "right", 2: "top", 3: "left"}
    assert places(bia.picture.value) == {1: "bottom", 2: "right", 3: "top", 0: "left"}
    seat = "Assento" if lang == "pt" else "Seat"
    assert heads(bia.picture.value) == {0: f"Ana ({seat} 0)", 1: f"Bia ({seat} 1)", 2: bot,
                                        3: bot.replace("2", "3")}
    watch = ClassTables(lang=lang, tables=tables).watch(code)  # a spectator: from seat 0
    assert places(watch.picture.value) == {0: "bottom", 1: "right", 2: "top", 3: "left"}


def test_a_21_table_is_drawn_from_her_seat_the_others_above_in_play_order(tables):
    ana = page(tables, "ana", "Ana", lang="en")
    ana.game.value = "21"
    ana.seats.value = 5
    code = ana.create()
    bia = page(tables, "bia", "Bia", code=code, lang="en")
    bia.sit(3)
    ana.start_button.click()
    bia.poll()
    rows = dict(re.findall(r'data-row="(\w+)"(.*?)(?=<div class="cartas-table-row"|$)', bia.picture.value,
                           flags=re.DOTALL))
    assert re.findall(r'data-seat="(\d+)"', rows["bottom"]) == ["3"]
    assert re.findall(r'data-seat="(\d+)"', rows["top"]) == ["4", "0", "1", "2"]
    assert "Bia (Seat 3)" in rows["bottom"] and "Ana (Seat 0)" in rows["top"] and "Seat 1 (bot, Medium)" in rows["top"]


# The bots' level (issue 31, item 4) --------------------------------------------------------
def test_the_creator_chooses_the_bots_level_in_the_lobby_and_every_page_names_it(tables):
    ana = page(tables, "ana", "Ana", lang="en", class_code="TURMA1")
    assert "cartas-level" in ana.level._dom_classes and ana.level.value == "rule"   # "rule" unless chosen
    assert ana.level.description == "Bots' level"
    assert [label for label, _ in ana.level.options] == ["Easy", "Medium", "Strong"]
    ana.language.value = "pt"                          # named in the page's language, the choice kept
    ana.level.value = "strong"
    ana.language.value = "en"
    assert ana.level.value == "strong" and [label for label, _ in ana.level.options][2] == "Strong"
    ana.language.value = "pt"
    assert ana.level.description == "Nível dos robôs"
    assert [label for label, _ in ana.level.options] == ["Fácil", "Médio", "Forte"]
    code = ana.create()
    assert tables.snapshot(code).record["level"] == "strong"
    sitter = ana.seat_box.children[1].children[0].value
    assert "vazio (robô, Forte)" in sitter and "data-controller='bot'" in sitter
    bia = page(tables, "bia", "Bia", code=code, lang="en")
    bia.sit(1)
    assert "empty (bot, Strong)" in bia.seat_box.children[2].children[0].value
    ana.start_button.click()
    bia.poll()
    assert heads(bia.picture.value)[2] == "Seat 2 (bot, Strong)"
    assert heads(ana.picture.value)[3] == "Assento 3 (robô, Forte)"
    teacher = ClassTables(lang="en", tables=tables)
    teacher.show_class("TURMA1")
    assert "2: bot, Strong" in teacher.listing.value


def test_an_away_learners_seat_says_the_level_of_the_bot_playing_it(tables):
    clock = Clock()
    timed = Tables(MemoryRepository(), clock=clock)
    ana = page(timed, "ana", "Ana", lang="en")
    ana.level.value = "easy"
    code = ana.create()
    bia = page(timed, "bia", "Bia", code=code, lang="en")
    bia.sit(1)
    clock.now += 1000                                   # Bia is long gone
    ana.heartbeat = None
    timed.heartbeat(code, "browser-ana")
    ana.client.refresh()
    ana.redraw()
    assert "Bia (away: a bot plays (Easy))" in ana.seat_box.children[1].children[0].value


def test_the_nivel_of_the_url_is_the_lobbys_starting_level_and_a_bad_one_is_said(tables, monkeypatch):
    monkeypatch.setenv("QUERY_STRING", "nivel=facil")
    assert page(tables, "ana", "Ana").level.value == "easy"
    monkeypatch.setenv("QUERY_STRING", "nivel=expert")
    view = page(tables, "ana", "Ana")
    assert view.level.value == "rule" and "?nivel=expert, which is not a bots&#x27; level" in view.title.value
