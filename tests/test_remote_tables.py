"""The tables page under JupyterHub: the class service's tables (classroom.remote_tables).

A real class service (`classroom.service`: its HTTP handlers, store, waiting pages and bots)
runs in this process on 127.0.0.1, on SQLite and on PostgreSQL. Only the hub's answer to "whose
token is this?" is given by `TokenHub` (tests/hub drives the same service behind a real
JupyterHub). Each learner's page is a real `widgets.pages.mesa.Mesa` whose tables are a
`RemoteTables` with her own token, as `hub_classroom()` gives them in her kernel.
"""
from __future__ import annotations

import asyncio
import json
import re
import socket
import threading
import time

import numpy as np
import pytest
from tornado import web

from classroom import attempts, games, remote_tables
from classroom.identity import Learner
from classroom.remote import RemoteClassroom, ServiceRefused
from classroom.remote_tables import RefusedByService, RemoteTables
from classroom.service import Classes, HubRules, Service, make_app, open_store
from classroom.tables import CODE_ALPHABET, CODE_LENGTH
from widgets.pages.mesa import ClassTables, Mesa

from loops import run_async
from serving_ports import closed_port, free_port

USERS = {"token-ana": "ana", "token-bia": "bia", "token-caio": "caio", "token-tereza": "tereza"}
GROUPS = {"teachers-turma-a": ["tereza"], "turma-a": ["ana", "bia", "caio"]}


class TokenHub(HubRules):
    """What JupyterHub says about tokens, users and groups (`classroom.service.Hub`'s answers)."""

    async def user_for_token(self, token: str) -> dict | None:
        name = USERS.get(token)
        return None if name is None else {"kind": "user", "name": name}

    async def user(self, name: str) -> dict:
        return {"name": name, "admin": False, "groups": [g for g, members in GROUPS.items() if name in members]}

    async def classes(self) -> list[dict]:
        return [{"name": g, "members": m} for g, m in GROUPS.items() if self.is_class(g)]

    async def members(self, group: str) -> list[str] | None:
        return GROUPS.get(group)


class RunningService:
    """The class service on its own thread and event loop, stopped by `stop()`."""

    def __init__(self, location: str, deaf: bool = False):
        """`deaf`: a replica that hears of no change made elsewhere (its listener delivers
        nothing), as one whose notification has not come yet."""
        self.location, self.deaf = location, deaf
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        self._ready = threading.Event()
        self._failed: BaseException | None = None
        self._thread = threading.Thread(target=asyncio.run, args=(self._serve(location),), daemon=True)
        self._thread.start()
        if not self._ready.wait(30) or self._failed is not None:
            raise RuntimeError(f"the class service did not start: {self._failed!r}")

    async def _serve(self, location: str) -> None:
        try:
            store, listen, workers = open_store(location, 3)
            if self.deaf:
                listen = lambda *_: None   # noqa: E731 (a listener that hears nothing)
            self.service = Service(Classes(store, workers), TokenHub(), listen)  # type: ignore[arg-type]
            server = make_app(self.service).listen(self.port, "127.0.0.1")
            self.service.start()
            self._loop, self._stop = asyncio.get_running_loop(), asyncio.Event()
        except BaseException as error:
            self._failed = error
            self._ready.set()
            raise
        self._ready.set()
        try:
            await self._stop.wait()
        finally:
            server.stop()
            store.close()

    def stop(self) -> None:
        self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(30)


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def service(request, tmp_path):
    location = (str(tmp_path / "service.db") if request.param == "sqlite"
                else request.getfixturevalue("postgres_url"))
    running = RunningService(location)
    yield running
    running.stop()


class HubIdentity:
    """What the identity widget says under JupyterHub: the hub user, no name typed."""

    def __init__(self, user: str):
        self.current = Learner("jupyterhub-user", user)

    def on_change(self, callback) -> None:
        pass


def tables_of(service, user: str) -> RemoteTables:
    token = next(t for t, u in USERS.items() if u == user)
    return RemoteTables(RemoteClassroom(service.url, token, user))


def page_of(service, user: str, code=None, lang="pt") -> Mesa:
    return Mesa(lang=lang, tables=tables_of(service, user), identity=HubIdentity(user), code=code, autopoll=False)


def watch(view: Mesa, wait: float = 5.0) -> bool:
    """One long poll of the page's client, then the page's own polling step."""
    run_async(view.client.wait_for_change(wait))
    return view.poll()


def drawn_hand_cards(html: str) -> set[str]:
    """The face-up cards drawn in the seats' hands of a truco table picture."""
    cards = set()
    for block in re.findall(r"class=\"cartas-hand\".*?</div>", html, flags=re.DOTALL):
        cards |= {c for c in re.findall(r'data-card="([^"]+)"', block) if c != "back"}
    return cards


def _sit_two(service):
    ana = page_of(service, "ana")
    code = ana.create()
    bia = page_of(service, "bia", code=code)
    bia.sit(1)
    assert watch(ana)   # the long poll brings Bia's seat to Ana's page
    ana.start_button.click()
    watch(bia)
    return ana, bia, code


def _until(view: Mesa, done, rounds: int = 40) -> None:
    for _ in range(rounds):
        if done():
            return
        watch(view)
    raise AssertionError("the table did not get there")


def test_under_the_hub_each_page_draws_only_its_own_seats_cards_from_the_service(service):
    ana, bia, code = _sit_two(service)
    assert ana.client.seat == 0 and bia.client.seat == 1
    assert ana.client.snap.status == bia.client.snap.status == "playing"
    for view, seat in ((ana, 0), (bia, 1)):
        sent = view.client.snap.view                       # all this kernel ever got
        assert all(card is None for s, hand in enumerate(sent["hands"]) if s != seat for card in hand)
        text = json.dumps(sent)
        assert '"state"' not in text and "seed" not in text and "rng" not in text.lower()
        own = {str(c) for c in view.client.snap.state.view(seat).hand}
        assert len(own) == 3 and drawn_hand_cards(view.picture.value) == own
        assert len(view.hand_cards.cards) == 3
    assert not drawn_hand_cards(ana.picture.value) & drawn_hand_cards(bia.picture.value)
    with pytest.raises(RefusedByService) as refused:
        ana.client.snap.state.view(1)                   # another seat's view: not in this kernel
    assert refused.value.message("pt") and refused.value.message("en")


def _her_turn(view: Mesa) -> bool:
    """Play for the page's learner if it is her turn, through the page: a card of her hand
    (`play_card`, as a click on it), or accepting a raise (`act`, as its button). True if she did."""
    state = view.client.snap.state
    if state is None or state.current_seat != view.client.seat or view.client.snap.status != "playing":
        return False
    legal = state.legal_actions()
    if any(a.kind == "play" for a in legal):
        view.play_card(next(i for i, c in enumerate(state.view(view.client.seat).hand)
                            if any(a.kind == "play" and a.card == c for a in legal)))
    else:
        view.act(next((a for a in legal if a.kind == "accept"), legal[0]))
    return True


def test_under_the_hub_two_learners_play_a_trick_through_their_pages(service):
    ana, bia, code = _sit_two(service)
    pages = {0: ana, 1: bia}

    def tricks() -> int:
        seen = ana.client.snap.state.view(ana.client.seat)
        return len(seen.tricks) + 3 * (games.hand_number(seen, "paulista") - 1)
    played = {0: 0, 1: 0}
    for _ in range(80):
        if tricks() >= 1 and min(played.values()) >= 1:
            break
        for seat, view in pages.items():
            played[seat] += _her_turn(view)
        watch(ana, 1.0)
        watch(bia, 0.3)
    assert tricks() >= 1 and played[0] >= 1 and played[1] >= 1
    for view, seat in ((ana, 0), (bia, 1)):
        mine = {str(c) for c in view.client.snap.state.view(seat).hand}
        assert drawn_hand_cards(view.picture.value) == mine
        assert all(card is None for s, hand in enumerate(view.client.snap.view["hands"]) if s != seat for card in hand)
    assert "ana" in ana.log_box.value and "bia" in ana.log_box.value    # the log names the learners


def test_a_refusal_of_the_service_is_the_pages_own_table_refusal_in_her_language(service):
    ana, bia, code = _sit_two(service)
    _until(ana, lambda: ana.client.snap.state.current_seat in (0, 1))   # the bots played up to her or Bia
    mover, other = (ana, bia) if ana.client.snap.state.current_seat == 0 else (bia, ana)
    for view in (mover, other):
        view.client.refresh()
        view.redraw()
    card = other.client.snap.state.view(other.client.seat).hand[0]
    other.guarded(other.play_card, near=other.actions)(0)            # a card clicked out of turn
    assert f"não é a sua vez: é a vez do assento {mover.client.seat}" in other.move_error.value
    seen = mover.client.snap.version
    move = mover.client.snap.state.legal_actions()[0]
    mover.act(move, seen)
    mover.guarded(mover.act, near=mover.actions)(move, seen)         # a double click: the same drawing
    assert "a mesa já mudou" in mover.move_error.value
    assert card in other.client.snap.state.view(other.client.seat).hand   # nothing of hers was played
    caio = page_of(service, "caio", code=code, lang="en")
    caio.guarded(caio.sit, near=caio.seat_box)(0)
    assert "seat 0 is already taken by ana" in caio.seat_error.value
    assert "Traceback" not in caio.seat_error.value + mover.move_error.value


def test_she_sits_only_as_herself_whatever_her_kernel_sends(service):
    tables = tables_of(service, "ana")
    code = tables.create("paulista", "hub:bia", "Bia", seed=1)       # another key, name and seed
    snap = tables.snapshot(code, "me")
    assert snap.seats()[0]["name"] == "ana" and snap.view["seat"] == 0
    bia = tables_of(service, "bia").client(code, "hub:bia")
    bia.join("Ana", 2)
    assert [s["name"] for s in bia.snap.seats()] == ["ana", None, "bia", None]
    with pytest.raises(RefusedByService) as refused:
        bia.start()                                                   # only the creator deals
    assert refused.value.code == "not_creator" and refused.value.message("pt").startswith("só quem criou")


def test_the_long_poll_wakes_the_page_at_a_change_and_otherwise_waits_its_time(service):
    ana = page_of(service, "ana")
    code = ana.create()
    bia = tables_of(service, "bia").client(code, "hub:bia")
    began = time.monotonic()
    assert not watch(ana, 1.0)                   # nothing moved: one request, answered after ~1 s
    assert 0.9 <= time.monotonic() - began < 3
    threading.Timer(0.3, lambda: bia.join("bia", 1)).start()
    began = time.monotonic()
    assert watch(ana, 10.0)                      # Bia sat: the page knew within a moment
    assert time.monotonic() - began < 2.0
    assert "bia" in ana.seat_box.children[1].children[0].value
    assert ana.client.watches == 2


def test_a_service_that_does_not_answer_is_the_pages_store_notice(service, monkeypatch):
    monkeypatch.setattr(remote_tables, "RETRY_AFTER", 0.1)
    ana = page_of(service, "ana")
    ana.create()
    ana.client.tables.classroom.url = f"http://127.0.0.1:{closed_port()}/"   # the service is gone
    assert not watch(ana)
    assert "sem conexão" in ana.message.value
    offline = page_of(service, "bia")
    offline.tables.classroom.url = ana.client.tables.classroom.url
    offline.guarded(offline.open_table)(ana.client.code)
    assert "banco de dados das mesas" in offline.message.value and offline.client is None


def test_the_teacher_watches_the_class_tables_through_the_service_without_a_hidden_card(service):
    ana, bia, code = _sit_two(service)
    listing = ClassTables("turma-a", lang="en", tables=tables_of(service, "tereza"))
    assert f"data-table='{code}'" in listing.listing.value
    watched = listing.watch(code)
    assert watched.client.seat is None and drawn_hand_cards(watched.picture.value) == set()
    assert "data-turn='watch'" in watched.status.value and not watched.actions.children
    with pytest.raises(RefusedByService) as refused:
        tables_of(service, "ana").list_class("turma-a")             # a learner is no teacher
    assert refused.value.status == 403


def test_a_21_table_under_the_hub_draws_her_own_face_down_card_only_and_takes_her_bet(service):
    ana = page_of(service, "ana", lang="en")
    ana.game.value, ana.seats.value = "21", 3
    code = ana.create()
    bia = page_of(service, "bia", code=code)
    bia.sit(1)
    watch(ana)
    ana.start_button.click()
    for view, seat in ((ana, 0), (bia, 1)):
        watch(view, 0.2)
        own = [str(c) for c in view.client.snap.state.view(seat).hands[seat]]
        drawn = re.findall(r'data-card="([^"]+)"', view.picture.value)
        assert len(own) == 1 and [c for c in drawn if c != "back"] == own   # her face-down card, no other
    _until(ana, lambda: ana.client.snap.state.current_seat in (0, 1))   # the bot bet; now one of them
    mover = ana if ana.client.snap.state.current_seat == 0 else bia
    mover.client.refresh()
    mover.redraw()
    before = mover.client.snap.version
    assert mover.actions.children                                # her bets, as buttons
    mover.actions.children[0].click()                            # the page's own button
    assert mover.client.snap.version > before and not mover.move_error.value


def test_the_page_is_sent_only_the_events_it_lacks_and_its_log_keeps_growing_past_the_tail(service, monkeypatch):
    from classroom import service as class_service
    monkeypatch.setattr(class_service, "LOG_LINES", 4)      # the tail a page with no log receives
    ana, bia, code = _sit_two(service)
    said: list = []
    speak = ana.announce
    ana.announce = lambda lines: (said.append(lines), speak(lines))   # type: ignore[method-assign]
    tables = service.service.classes.tables

    def whole_log(seat):
        return games.events_for(tables.snapshot(code).state, seat)
    for _ in range(60):
        if len(whole_log(0)) >= 14 and said:
            break
        for view in (ana, bia):
            _her_turn(view)
        watch(ana, 0.5)
        watch(bia, 0.2)
    assert len(whole_log(0)) >= 14
    sent = ana.client.snap.view
    assert sent["events_from"] == 0 and sent["events"] == whole_log(0)[:len(sent["events"])]
    assert len(sent["events"]) > 4 and said           # well past the tail, and still announced
    # a page holding the log up to K receives the events from K on, none it has (the bots may
    # have moved meanwhile: then only theirs)
    held = ana.client.held()
    again = ana.client.tables.classroom.table(code, held=held)
    assert again["events_from"] == held["events_since"] == len(sent["events"])
    assert again["events_from"] + len(again["events"]) == again["events_total"]
    assert again["events"] == whole_log(0)[held["events_since"]:again["events_total"]]
    # a page that just opened gets the tail only
    late = tables_of(service, "bia").client(code, "hub:bia").snap.view
    assert late["events_from"] == late["events_total"] - 4 and len(late["events"]) == 4
    # another seat's count is not taken for hers: she gets her own tail
    other = tables_of(service, "bia").classroom.table(code, held={"events_since": 2, "events_seat": 0})
    assert other["events_from"] == other["events_total"] - 4 and len(other["events"]) == 4


@pytest.mark.parametrize("held", [
    {"events_since": "²", "events_seat": 0}, {"events_since": -1, "events_seat": 0},
    {"events_since": 10**30, "events_seat": 0}, {"events_since": True, "events_seat": 0},
    {"events_since": 3, "events_seat": [0]}, {"events_since": 3, "events_seat": "x" * 500}])
def test_a_bad_count_of_the_events_a_page_holds_is_refused_before_the_move(service, held):
    ana, bia, code = _sit_two(service)
    _until(ana, lambda: ana.client.snap.state.current_seat in (0, 1))
    mover = ana if ana.client.snap.state.current_seat == 0 else bia
    mover.client.refresh()
    snap = mover.client.snap
    classroom = mover.client.tables.classroom
    with pytest.raises(Exception) as refused:
        classroom.move(code, str(snap.state.legal_actions()[0]), snap.version, held=held)
    assert getattr(refused.value, "status", None) == 400 and getattr(refused.value, "code", "") == "bad_request"
    assert service.service.classes.tables.snapshot(code).version == snap.version      # nothing moved
    if not isinstance(held["events_seat"], list):
        with pytest.raises(Exception) as asked:
            classroom.table(code, held=held)
        assert getattr(asked.value, "status", None) == 400


def _codes_not(code: str, n: int, seed: int = 18) -> list[str]:
    rng = np.random.default_rng(seed)
    made: list[str] = []
    while len(made) < n:
        guess = "".join(rng.choice(list(CODE_ALPHABET), CODE_LENGTH))
        if guess != code and guess not in made:
            made.append(guess)
    return made


def test_under_the_hub_guessing_table_codes_makes_the_guesser_wait_after_ten_wrong_tries_and_not_her_class(service):
    """Issue 33, item 8: her class's count never refuses a classmate (a hub user is a known
    source, docs/rules.md#guess-limits)."""
    ana = page_of(service, "ana")
    code = ana.create()                                    # her own table: never a guess of hers
    now = [time.time()]
    service.service.classes.limiter.clock = lambda: now[0]
    caio = tables_of(service, "caio")
    for guess in _codes_not(code, attempts.LIMIT):         # a learner's own code sweeping codes
        with pytest.raises(RefusedByService) as missed:
            caio.snapshot(guess, "hub:caio")
        assert (missed.value.status, missed.value.code) == (404, "no_table")
    with pytest.raises(RefusedByService) as waits:
        caio.snapshot(code, "hub:caio")                    # the right code too, during the wait
    assert (waits.value.status, waits.value.code) == (429, "too_many_tries")
    assert waits.value.message("pt") == "Muitas tentativas: espere 20 segundos."
    bia = page_of(service, "bia", lang="en")               # her class does not wait with her
    bia.code.value = code
    bia.join_button.click()
    beside_the_code = bia.lobby.children[-1].children[1]   # the slot beside the code and its button
    assert "Too many tries" not in beside_the_code.value and bia.client is not None
    with pytest.raises(ServiceRefused) as raised:          # a long poll is a try like any other
        caio.classroom.watch(code, 1, wait=0.1)
    assert raised.value.status == 429
    ana.client.refresh()                                   # the table's maker plays on
    assert ana.client.snap.view["seat"] == 0 and ana.client.snap.code == code
    watcher = ClassTables("turma-a", lang="en", tables=tables_of(service, "tereza"))
    assert watcher.watch(code).client.seat is None         # the teacher is not of that class
    now[0] += attempts.FIRST_WAIT + 1
    assert caio.snapshot(code, "hub:caio").code == code    # the wait is over


def test_a_long_poll_on_a_table_that_is_not_there_leaves_nothing_waiting_or_watched(service):
    classroom = tables_of(service, "caio").classroom
    guess = _codes_not("", 1)[0]
    with pytest.raises(ServiceRefused) as missed:
        classroom.watch(guess, 3, wait=0.2)
    assert (missed.value.status, missed.value.code) == (404, "no_table")
    async def settled():  # the service's loop has finished with the refused long poll
        deadline = time.monotonic() + 10
        while guess in service.service.waiters or guess in service.service.active:
            assert time.monotonic() < deadline, "the refused long poll is still waiting or watched"
            await asyncio.sleep(0.01)
    run_async(settled())


def test_a_hub_that_cannot_check_a_token_is_a_503_hub_down_not_an_internal_error(service, monkeypatch):
    async def failing(token):
        raise web.HTTPError(500, "Failed to connect to Hub API")
    monkeypatch.setattr(service.service.hub, "user_for_token", failing)
    with pytest.raises(ServiceRefused) as refused:
        tables_of(service, "ana").classroom.me()
    assert (refused.value.status, refused.value.code) == (503, "hub_down")
    assert "JupyterHub" in refused.value.message("en")


def test_under_the_hub_an_abandoned_table_leaves_the_teachers_list_of_class_tables(service):
    """Issue 29, item 13: the service lists the class's tables by the same rule (IDLE), on its clock."""
    from classroom.tables import IDLE
    ana, bia, code = _sit_two(service)
    listing = ClassTables("turma-a", lang="en", tables=tables_of(service, "tereza"))
    assert f"data-table='{code}'" in listing.listing.value
    now = [time.time() + IDLE + 60]       # half an hour and more with no move and nobody there
    service.service.classes.tables.clock = lambda: now[0]
    listing.refresh()
    assert f"data-table='{code}'" not in listing.listing.value
    assert "No open table in this class." in listing.listing.value
    assert "for over 30 minutes, leave this list" in listing.listing.value


# A seat view on the wire: the engine's own format, rebuilt as the engine's own type (issue 30, item 2)
def _sent(game: str, seat: int, seats: int | None = None) -> tuple[dict, object]:
    from classroom.service import seat_view
    from classroom.tables import MemoryRepository, Tables
    tables = Tables(MemoryRepository())
    code = tables.create(game, "hub:ana", "ana", seats=seats, seed=9)
    tables.start(code, "hub:ana")
    snap = tables.snapshot(code)
    return json.loads(json.dumps(seat_view(snap, seat, "ana", time.time()), ensure_ascii=False)), snap.state


@pytest.mark.parametrize("game, seats", [("paulista", None), ("mineiro", None), ("21", 4)])
def test_the_kernel_rebuilds_the_engines_own_view_of_its_seat(game, seats):
    sent, state = _sent(game, 0, seats)
    assert "table" not in sent and "setup" not in sent     # no list of names, no template's set-up
    mine = remote_tables.SeatState(game, sent)
    engine = state.view(0)
    assert type(mine.view(0)) is type(engine)
    expected = engine.to_dict()
    assert mine.view(0).to_dict() == {**expected, "events": expected["events"][sent["events_from"]:]}
    assert mine.players == state.players and mine.current_seat == state.current_seat
    assert [mine.narrate(e) for e in mine.events] == [state.narrate(e) for e in engine.events[sent["events_from"]:]]


@pytest.mark.parametrize("game, seats, field", [
    ("paulista", None, "hands"), ("paulista", None, "score"), ("paulista", None, "variant"),
    ("paulista", None, "current_seat"), ("21", 4, "hands"), ("21", 4, "chips"), ("21", 4, "current_seat")])
def test_a_seat_view_lacking_a_field_is_refused_naming_it_never_filled_in(game, seats, field):
    sent, _state = _sent(game, 0, seats)
    del sent["view"][field]
    with pytest.raises(games.RuleError) as refused:
        remote_tables.SeatState(game, sent)
    assert refused.value.code == "view_missing" and refused.value.fields["name"] == field


def test_a_seat_view_of_the_other_truco_is_refused():
    sent, _state = _sent("paulista", 0)
    with pytest.raises(games.RuleError) as refused:
        remote_tables.SeatState("mineiro", sent)
    assert refused.value.fields["name"] == "variant"


# The bots' level (issue 31, item 4) --------------------------------------------------------
def test_under_the_hub_the_creators_level_is_kept_by_the_service_and_shown_on_every_page(service):
    ana = page_of(service, "ana", lang="en")
    ana.level.value = "easy"
    code = ana.create()
    kept = service.service.classes.tables.snapshot(code)
    assert kept.record["level"] == "easy" and ana.client.snap.view["level"] == "easy"
    bia = page_of(service, "bia", code=code)          # another kernel, in Portuguese
    bia.sit(1)
    assert "vazio (robô, Fácil)" in bia.seat_box.children[2].children[0].value
    assert "empty (bot, Easy)" in ana.seat_box.children[3].children[0].value
    watch(ana)
    ana.start_button.click()
    watch(bia)
    assert "Assento 2 (robô, Fácil)" in bia.picture.value and "Seat 3 (bot, Easy)" in ana.picture.value
    assert {s.code: s.level for s in service.service.classes.tables.list_class("turma-a")} == {code: "easy"}


def test_an_unknown_level_is_refused_by_the_service_and_by_the_kernel_naming_it(service):
    classroom = tables_of(service, "ana").classroom
    before = len(service.service.classes.tables.list_class("turma-a"))
    with pytest.raises(ServiceRefused) as refused:     # a kernel that skips its own check
        classroom.create_table("paulista", level="hard")
    assert refused.value.status == 409 and refused.value.code == "bad_level"
    assert refused.value.message("pt") == "nível dos robôs desconhecido 'hard': escolha easy, rule, strong"
    assert refused.value.message("en") == "unknown bots' level 'hard': choose easy, rule, strong"
    with pytest.raises(ServiceRefused) as refused:
        classroom.create_table("21", seats=3, level=["strong"])
    assert refused.value.code == "bad_level" and "['strong']" in refused.value.message("en")
    assert len(service.service.classes.tables.list_class("turma-a")) == before   # nothing was made
    with pytest.raises(remote_tables.TableError) as kernel:   # the kernel's own check, nothing sent
        tables_of(service, "ana").create("paulista", "hub:ana", "Ana", level="Forte")
    assert type(kernel.value) is remote_tables.TableError and kernel.value.code == "bad_level"
    assert "'Forte'" in kernel.value.message("pt")


# The watch stream (issue 35): one long-lived answer per watching page, a line per version --------
def _two_playing(service) -> tuple[str, dict]:
    """A started mano a mano truco table of Ana (seat 0) and Bia (seat 1), no bots; their rooms."""
    rooms = {0: tables_of(service, "ana").classroom, 1: tables_of(service, "bia").classroom}
    code = rooms[0].create_table("paulista", seats=2, timeout=600)["code"]
    rooms[1].join(code, 1)
    rooms[0].start(code)
    return code, rooms


def _one_move(code: str, rooms: dict) -> tuple[int, int]:
    """The seat to play plays (a card if it can); (the new version, requests it took)."""
    view = rooms[0].table(code)
    asked = 1
    if view["current_seat"] != 0:
        view = rooms[view["current_seat"]].table(code)
        asked += 1
    legal = [m["action"] for m in view["legal"]]
    moved = rooms[view["seat"]].move(code, next((a for a in legal if a.startswith("play")), legal[0]), view["version"])
    return moved["version"], asked + 1


async def _until_version(client, version: int) -> None:
    """The watching client's page waits until its view is `version` (20 waits at most)."""
    for _ in range(20):
        if client.snap.version >= version:
            break
        await client.wait_for_change(5.0)
        client.tick()
    assert client.snap.version == version


def _whole_log(service, code: str) -> list:
    return tables_of(service, "caio").classroom.table(code, held={"events_since": 0, "events_seat": "none"})["events"]


def test_every_version_reaches_a_watching_page_over_one_stream_not_a_request_each(service):
    code, rooms = _two_playing(service)
    watcher = tables_of(service, "caio").client(code, "hub:caio")        # a classmate watching
    before, asked = service.service.requests, 0
    moves = 12

    async def play() -> None:
        nonlocal asked
        for _ in range(moves):
            version, took = await asyncio.to_thread(_one_move, code, rooms)
            asked += took
            await _until_version(watcher, version)                        # each version, in turn
    run_async(play())
    assert service.service.requests - before == asked + 1                 # the moves' own, and one stream
    assert watcher.streams == 1
    log = _whole_log(service, code)
    assert watcher.snap.view["events"] == log[watcher.snap.view["events_from"]:]   # nothing lost, nothing twice
    watcher.stop_watching()

    async def ended() -> None:   # the page went: its stream ends at once, nothing left waiting
        deadline = time.monotonic() + 10
        while service.service.streams or service.service.waiters.get(code):
            assert time.monotonic() < deadline, "the stream of a page that went is still open"
            await asyncio.sleep(0.01)
    run_async(ended())


def test_a_watch_stream_ended_or_broken_mid_game_opens_again_from_its_last_version_nothing_lost(service, monkeypatch):
    from classroom import service as service_module
    monkeypatch.setattr(service_module, "STREAM_LIFETIME", 0.6)    # each stream ends within a second
    monkeypatch.setattr(remote_tables, "RETRY_AFTER", 0.05)
    code, rooms = _two_playing(service)
    watcher = tables_of(service, "caio").client(code, "hub:caio")
    versions = []

    async def play() -> None:
        for number in range(14):
            stream = watcher._stream
            if number % 5 == 4 and stream is not None:                 # its connection cut under it
                stream.interrupt()
            version, _ = await asyncio.to_thread(_one_move, code, rooms)
            await _until_version(watcher, version)
            versions.append(watcher.snap.version)
            await asyncio.sleep(0.3)                                    # streams end meanwhile
    run_async(play())
    assert watcher.streams >= 4
    assert versions == sorted(set(versions)) and len(versions) == 14
    log = _whole_log(service, code)
    assert watcher.snap.view["events"] == log[watcher.snap.view["events_from"]:]   # joined across streams
    watcher.stop_watching()


def test_a_watch_stream_checks_who_asks_and_what_she_says_once_refusing_it_by_name(service, monkeypatch):
    from classroom import service as service_module
    code, rooms = _two_playing(service)
    caio = tables_of(service, "caio").classroom
    for query, status, why in [({"after": "x"}, 400, "after"), ({"after": "-1"}, 400, "after"),
                               ({"after": "1" * 14}, 400, "after"),
                               ({"after": 1, "events_since": "many", "events_seat": "none"}, 400, "events_since"),
                               ({"after": 1, "seat": 1}, 403, "own seat")]:
        with pytest.raises(ServiceRefused) as refused:
            caio.open_watch(code, query.pop("after"), query)  # type: ignore[arg-type]
        assert refused.value.status == status and why in refused.value.en, (query, refused.value)
    with pytest.raises(ServiceRefused) as missing:
        caio.open_watch(_codes_not(code, 1)[0], 0)
    assert (missing.value.status, missing.value.code) == (404, "no_table")
    with pytest.raises(ServiceRefused) as nobody:
        RemoteClassroom(service.url, "not-a-token").open_watch(code, 0)
    assert nobody.value.status == 401
    # a quiet table: empty lines every STREAM_KEEPALIVE s, and the stream ends after its lifetime
    monkeypatch.setattr(service_module, "STREAM_KEEPALIVE", 0.2)
    monkeypatch.setattr(service_module, "STREAM_LIFETIME", 1.0)
    version = rooms[0].table(code)["version"]
    stream = caio.open_watch(code, version)
    began = time.monotonic()
    lines = list(stream.lines())
    assert 1 <= len(lines) <= 6 and set(lines) == {None}
    assert 0.8 <= time.monotonic() - began < 5
    stream = caio.open_watch(code, version - 1)                    # a page behind: the view at once
    first = next(iter(stream.lines()))
    stream.close()
    assert first is not None and first["version"] == version and first["seat"] is None


def test_a_pages_own_move_comes_in_its_answer_not_again_on_its_stream(service):
    code, rooms = _two_playing(service)
    ana = tables_of(service, "ana").client(code, "hub:ana")     # her page, watching as it plays
    own = others = 0

    def first(legal: list) -> str:
        actions = [m["action"] for m in legal]
        return next((a for a in actions if a.startswith("play")), actions[0])

    async def play() -> None:
        nonlocal own, others
        await ana.wait_for_change(0.2)                              # her stream opens
        for _ in range(12):
            if ana.snap.view["current_seat"] == 0:
                await asyncio.to_thread(ana.move, first(ana.snap.view["legal"]))
                own += 1
                if own == 1:   # her move's record names her page; no seat's view shows it
                    assert service.service.classes.tables.snapshot(code).record["last"]["page"] == ana.page
                    assert "page" not in (await asyncio.to_thread(rooms[1].table, code))["last"]
            else:
                view = await asyncio.to_thread(rooms[1].table, code)
                moved = await asyncio.to_thread(rooms[1].move, code, first(view["legal"]), view["version"])
                others += 1
                await _until_version(ana, moved["version"])
    run_async(play())
    assert own >= 2 and others >= 2
    assert ana.streams == 1 and ana.lines == others                # Bia's versions only, each once
    mine = rooms[0].table(code, held={"events_since": 0, "events_seat": 0})
    assert ana.snap.version == mine["version"]
    assert ana.snap.view["events"] == mine["events"][ana.snap.view["events_from"]:]   # her log whole
    ana.stop_watching()


def test_a_replica_behind_the_page_reads_the_table_again_and_never_answers_an_older_version(tmp_path):
    """A page holds a version another replica made, which this one has not heard of yet (its
    notification is late): a long poll or a watch stream opened here from that version waits
    on it; it is not answered at once with this replica's older view (a clean run of
    test_replicas saw a page get the table from before its start, no seat to play)."""
    location = str(tmp_path / "service.db")
    elsewhere, behind = RunningService(location), RunningService(location, deaf=True)
    try:
        rooms = {0: tables_of(elsewhere, "ana").classroom, 1: tables_of(elsewhere, "bia").classroom}
        code = rooms[0].create_table("paulista", seats=2, timeout=600)["code"]
        rooms[1].join(code, 1)
        late = RemoteClassroom(behind.url, "token-bia", "bia")
        held = late.table(code)                                   # this replica holds the table not started
        started = rooms[0].start(code)
        assert held["current_seat"] is None and started["version"] > held["version"]
        began = time.monotonic()
        view = late.watch(code, started["version"], wait=1.0)
        assert time.monotonic() - began >= 0.9                    # it waited on her version
        assert view["version"] == started["version"] and view["current_seat"] is not None
        moved = _one_move(code, rooms)[0]                          # made elsewhere, unheard here
        with socket.create_connection(("127.0.0.1", behind.port), timeout=1.5) as sock:
            sock.sendall(f"GET /api/tables/{code}/watch?after={moved} HTTP/1.1\r\nHost: x\r\n"
                         "Authorization: token token-bia\r\n\r\n".encode())
            got = b""
            try:
                while True:
                    chunk = sock.recv(65536)
                    if not chunk:
                        break
                    got += chunk
            except TimeoutError:
                pass
        head, _, body = got.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 200"), head
        assert b'"version"' not in body                           # no older line: it waits on hers
        assert behind.service.snaps[code].version == moved          # read again from the store
    finally:
        behind.stop()
        elsewhere.stop()


def test_a_long_poll_refuses_a_version_or_wait_that_is_not_one_naming_it_and_changes_nothing(service):
    code, rooms = _two_playing(service)
    caio = tables_of(service, "caio").classroom
    before = rooms[0].table(code)
    for query, why in [({"after": "x", "wait": 1}, "after"), ({"after": "-1", "wait": 1}, "after"),
                       ({"after": "1" * 14, "wait": 1}, "after"), ({"after": "9" * 5000, "wait": 1}, "after"),
                       ({"after": 1, "wait": "soon"}, "wait")]:
        with pytest.raises(ServiceRefused) as refused:
            caio.call("GET", f"api/tables/{code}", query=query)
        assert refused.value.status == 400 and why in refused.value.en, (query, refused.value)
    after = rooms[0].table(code)
    assert (after["version"], after["current_seat"], after["legal"]) == (
        before["version"], before["current_seat"], before["legal"])          # every change is a new version
