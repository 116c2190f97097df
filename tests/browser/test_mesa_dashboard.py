"""The tables dashboard in real browsers: three learners, three browser contexts (each with
its own localStorage, so its own identity), one Voilà server, one store."""
from __future__ import annotations

import time

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout, expect

import kernel_wire
from serving import KEEP_SCREENSHOTS, ROOT, SCREENSHOTS, start_voila, stop

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def mesa_server(tmp_path_factory):
    """(base URL, the SQLite file its tables live in)."""
    tmp = tmp_path_factory.mktemp("mesa")
    process, base = start_voila(ROOT / "notebooks", tmp / "voila.log",
                                {"CARTAS_DB": str(tmp / "cartas.db"), "CARTAS_DATABASE_URL": "",
                                 "CARTAS_PROGRESS": str(tmp / "progress.json")})
    try:
        yield base, tmp / "cartas.db"
    finally:
        stop(process)


@pytest.fixture(scope="module")
def mesa_url(mesa_server):
    return mesa_server[0]


@pytest.fixture
def learners(browser, mesa_url, request):
    """learners(n) -> n pages, each in its own browser context."""
    contexts = []

    def open_pages(n: int):
        pages = []
        for _ in range(n):
            context = browser.new_context(viewport={"width": 1280, "height": 1100})
            contexts.append(context)
            page = context.new_page()
            page.set_default_timeout(60_000)
            kernel_wire.watch(page)  # kernel_wire.of(page) tells when the kernel has handled a click
            pages.append(page)
        return pages

    yield open_pages
    SCREENSHOTS.mkdir(exist_ok=True)
    for i, context in enumerate(contexts):
        for page in context.pages if KEEP_SCREENSHOTS else ():
            page.screenshot(path=str(SCREENSHOTS / f"{request.node.name}-{i}-mesa.png"), full_page=True)
        context.close()


def goto(page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector(".cartas-view", state="visible")


def set_name(page, name: str) -> None:
    box = page.locator(".cartas-mesa-name input")
    box.fill(name)
    box.press("Enter")


def status(page) -> dict:
    element = page.locator(".cartas-status [data-turn]")
    return {key: element.get_attribute(f"data-{key}") for key in ("turn", "version", "hand", "status")}


def sit(page, mesa_url: str, code: str, name: str, seat: int) -> None:
    goto(page, f"{mesa_url}/voila/render/mesa.ipynb?lang=en&mesa={code}")
    set_name(page, name)
    page.locator(f".cartas-mesa-sit-{seat}").click()
    page.wait_for_selector(f".cartas-mesa-seat[data-seat='{seat}'][data-mine='true']")


def create(page, mesa_url: str, name: str, game_label: str | None = None, setup=None,
           lang: str = "en", pace: float = 0.3) -> str:
    goto(page, f"{mesa_url}/voila/render/mesa.ipynb?lang={lang}&ritmo={pace}&semente=7")
    set_name(page, name)
    if game_label:
        page.locator(".cartas-mesa-game select").select_option(label=game_label)
    if setup:
        setup(page)
    page.locator(".cartas-mesa-create").click()
    code = page.locator(".cartas-mesa-code").get_attribute("data-code", timeout=60_000)
    assert code and len(code) == 5
    return code


def wait_seated(page, seats: dict[int, str]) -> None:
    for seat, name in seats.items():
        page.locator(f".cartas-mesa-seat[data-seat='{seat}'] .cartas-mesa-sitter",
                     has_text=name).wait_for()


def hidden_elsewhere(page, mine: int) -> bool:
    """No face-up card in another seat's hand on this page's table picture."""
    return page.evaluate("""(mine) => Array.from(document.querySelectorAll('.cartas-seat[data-seat]'))
        .filter(s => Number(s.dataset.seat) !== mine)
        .every(s => Array.from(s.querySelectorAll('.cartas-hand svg[data-card]'))
                    .every(c => c.dataset.card === 'back'))""", mine)


def take_turn(page, prefer: tuple[str, ...]) -> bool:
    """If it is this page's turn, make a move (a preferred button, else the first card);
    returns True when it moved, False when it was not this page's turn or the move was not
    seen within 20 s. A click can land on a button the page is just replacing (the status
    already says the new version, the old action bar is still drawn; its widget is closed in
    the kernel, so the click does nothing, as for a learner, who clicks the new button): the
    caller's loop then reads the page again and clicks what is drawn now."""
    if status(page)["turn"] != "you":
        return False
    version = status(page)["version"]
    for kind in prefer:
        button = page.locator(f".cartas-act-{kind}")
        if button.count():
            target = button.first
            break
    else:
        target = page.locator(".cartas-pick-on").first
        if not page.locator(".cartas-pick-on").count():
            return False
    try:
        target.click(timeout=5_000)
        page.wait_for_function(
            "(v) => document.querySelector('.cartas-status [data-turn]').dataset.version !== v",
            arg=version, timeout=20_000, polling=100)
    except PlaywrightTimeout:
        return False
    return True


def test_three_learners_and_a_bot_play_a_truco_hand_and_a_reload_keeps_the_seat(learners, mesa_url):
    ana, bia, caio = learners(3)
    code = create(ana, mesa_url, "Ana")
    sit(bia, mesa_url, code, "Bia", 1)
    sit(caio, mesa_url, code, "Caio", 2)
    wait_seated(ana, {1: "Bia", 2: "Caio"})
    ana.locator(".cartas-mesa-seat[data-seat='3'][data-controller='bot']").wait_for()
    ana.locator(".cartas-mesa-start").click()
    pages = {0: ana, 1: bia, 2: caio}
    for seat, page in pages.items():
        page.wait_for_selector(".cartas-status [data-status='playing']")
        assert hidden_elsewhere(page, seat)
    moves, reloaded = 0, False
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        marks = status(ana)
        if marks["hand"] != "1" or marks["status"] == "finished":
            break
        moved = False
        for page in pages.values():
            if take_turn(page, ("accept", "play_hand")):
                moves += 1
                moved = True
        if moves >= 2 and not reloaded:  # Bia reloads mid-hand and goes on from her seat
            bia.reload()
            bia.wait_for_selector(".cartas-mesa-seat[data-seat='1'][data-mine='true']")
            assert hidden_elsewhere(bia, 1)
            reloaded = True
        if not moved:
            time.sleep(0.2)
    else:
        pytest.fail("the hand did not end within 4 minutes")
    assert reloaded and moves >= 3
    # the hand is over on every screen, with its why and narration for all
    for page in pages.values():
        page.wait_for_function("() => document.querySelector('.cartas-status [data-turn]').dataset.hand !== '1'"
                               " || document.querySelector('.cartas-status [data-turn]').dataset.status === 'finished'",
                               polling=100)
        # the why and the narration are widgets of their own, drawn after the status
        expect(page.locator(".cartas-why-text")).to_contain_text("Why?")
        page.wait_for_function("() => document.querySelectorAll('.cartas-log-line').length > 5", polling=100)


def test_three_learners_play_a_round_of_21(learners, mesa_url):
    ana, bia, caio = learners(3)

    def setup(page):
        seats = page.locator(".cartas-mesa-seats input")
        seats.fill("3")
        seats.press("Enter")
        rounds = page.locator(".cartas-mesa-rounds input")
        rounds.fill("1")
        rounds.press("Enter")

    code = create(ana, mesa_url, "Ana", game_label="21 (vinte-e-um)", setup=setup)
    sit(bia, mesa_url, code, "Bia", 1)
    sit(caio, mesa_url, code, "Caio", 2)
    wait_seated(ana, {1: "Bia", 2: "Caio"})
    assert ana.locator(".cartas-mesa-seat").count() == 3
    ana.locator(".cartas-mesa-start").click()
    pages = [ana, bia, caio]
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        if status(ana)["status"] == "finished":
            break
        moved = False
        for page in pages:
            moved = take_turn(page, ("bet", "stand", "call", "refuse_bank", "pass")) or moved
        if not moved:
            time.sleep(0.2)
    else:
        pytest.fail("the round did not end within 4 minutes")
    for page in pages:
        page.wait_for_selector(".cartas-status [data-status='finished']")
        assert "Game over" in page.locator(".cartas-status").inner_text()


# A table page through a lesson: bounded DOM, one click one move, refusals that stay ---------
def dom_nodes(page) -> int:
    """DOM nodes alive in the page after a garbage collection, detached ones included (what
    a page that keeps every drawing's widgets grows)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Performance.enable")
    for _ in range(3):  # V8's wrappers first, then the DOM nodes they held
        cdp.send("HeapProfiler.collectGarbage")
    nodes = next(m["value"] for m in cdp.send("Performance.getMetrics")["metrics"] if m["name"] == "Nodes")
    cdp.detach()
    return int(nodes)


def settled_dom_nodes(page, mark: int) -> int:
    """dom_nodes of a page whose table waits on it (its learner's turn, so nothing else is drawn
    until she moves), once the kernel has handled every request the page sent since `mark`
    and the browser has drawn it: the least of two counts an animation frame apart."""
    page.wait_for_selector(".cartas-status [data-turn='you']")
    kernel_wire.of(page).handled(page, mark)
    first = dom_nodes(page)
    page.evaluate(kernel_wire.PAINTED)
    return min(first, dom_nodes(page))


def stored_state(db, code: str):
    from classroom.store import connect
    from classroom.tables import StoreRepository, Tables
    return Tables(StoreRepository(connect(str(db)))).snapshot(code).state


def refusal(page, text: str, mark: int) -> str:
    """The refusal beside a control once the kernel has handled every request the page sent
    since `mark` (the click that caused it, and what came after) and the browser has drawn what
    the kernel said: a refusal wiped by the page's own redraw is gone by then."""
    kernel_wire.of(page).handled(page, mark)
    return page.locator(".cartas-field-error", has_text=text).text_content(timeout=1000)


def refused_or_one_click(page, text: str, mark: int) -> None:
    """After a double click: its second click was refused (`text` beside the control) when it
    reached the kernel after the first one's move; on a loaded machine the first one's redraw
    can replace the button before the second click, and then exactly one click reached the
    kernel and there is nothing to refuse (what the click did is counted by the caller)."""
    wire = kernel_wire.of(page)
    wire.handled(page, mark)
    try:
        page.locator(".cartas-field-error", has_text=text).wait_for(state="attached", timeout=10_000)
    except PlaywrightTimeout:
        clicks = [said for said in wire.said[mark:] if '"event": "click"' in said]
        assert len(clicks) == 1, f"{len(clicks)} clicks reached the kernel and none was refused"


def twenty_one_setup(page):
    for name, value in (("seats", "3"), ("rounds", "50")):
        field = page.locator(f".cartas-mesa-{name} input")
        field.fill(value)
        field.press("Enter")


def start_21(learners, mesa_server):
    mesa_url, db = mesa_server
    (ana,) = learners(1)
    code = create(ana, mesa_url, "Ana", game_label="21 (vinte e um)", setup=twenty_one_setup, lang="pt")
    ana.locator(".cartas-mesa-start").click()
    return ana, code, db


def test_a_21_page_keeps_its_dom_node_count_after_the_first_rounds(learners, mesa_server):
    ana, _, _ = start_21(learners, mesa_server)
    marks = (12, 24, 36)  # from 12 moves on, past the first rounds: the log and the chips have filled in
    nodes, moves = {}, 0
    deadline = time.monotonic() + 200
    while moves < marks[-1] and time.monotonic() < deadline:
        mark = kernel_wire.of(ana).mark()
        if take_turn(ana, ("bet", "stand", "call", "refuse_bank", "pass")):
            moves += 1
            if moves in marks:  # counted when the table next waits on her: the bots' moves drawn
                nodes[moves] = settled_dom_nodes(ana, mark)
        else:
            time.sleep(0.2)
    assert len(nodes) == len(marks), (nodes, moves)
    # what is drawn varies by a few tens of nodes (cards, chips, the moves offered); a page that
    # kept its old buttons' nodes grew by 15 to 30 nodes a move: 300 or more from 12 to 36 moves
    assert max(nodes[m] for m in marks[1:]) <= nodes[marks[0]] + 150, nodes


def test_a_double_click_on_pedir_carta_takes_one_card_and_says_the_table_moved_on(learners, mesa_server):
    ana, code, db = start_21(learners, mesa_server)
    hit = ana.locator(".cartas-act-hit")
    until = time.monotonic() + 90
    while not (status(ana)["turn"] == "you" and hit.count()) and time.monotonic() < until:
        take_turn(ana, ("bet", "call", "refuse_bank", "pass")) or time.sleep(0.2)
    assert hit.count(), "Ana was never offered a card"
    def hits() -> int:
        return sum(1 for e in stored_state(db, code).events if e["type"] == "hit" and e["seat"] == 0)

    before = hits()
    mark = kernel_wire.of(ana).mark()
    hit.dblclick()
    refused_or_one_click(ana, "a mesa já mudou", mark)
    assert hits() == before + 1


def test_truco_double_clicks_make_one_move_and_refusals_stay(learners, mesa_server):
    import json
    import sqlite3

    mesa_url, db = mesa_server
    ana, bia = learners(2)
    code = create(ana, mesa_url, "Ana", lang="pt", pace=2)  # bots wait 2 s: time to click out of turn
    goto(bia, f"{mesa_url}/voila/render/mesa.ipynb?lang=pt&mesa={code}")
    set_name(bia, "Bia")
    bia.locator(".cartas-mesa-sit-1").wait_for()
    # Zed takes seat 1 while Bia's page still shows it free: the store holds Zed's write until
    # Bia has clicked, so her page cannot have redrawn first
    conn = sqlite3.connect(str(db), isolation_level=None, timeout=15)
    try:
        conn.execute("BEGIN IMMEDIATE")
        record = json.loads(conn.execute("SELECT record FROM mesas WHERE code = ?", (code,)).fetchone()[0])
        record["sitters"][1] = {"id": "zed-browser", "name": "Zed", "since": time.time()}
        conn.execute("UPDATE mesas SET version = version + 1, record = ? WHERE code = ?",
                     (json.dumps(record, ensure_ascii=False), code))
        wire, mark = kernel_wire.of(bia), kernel_wire.of(bia).mark()
        bia.locator(".cartas-mesa-sit-1").click()
        deadline = time.monotonic() + 30
        while len(wire.sent) == mark:  # the click has left for the kernel, which reads the table
            assert time.monotonic() < deadline, "the click on seat 1 never reached the kernel"
            bia.wait_for_timeout(20)
        conn.execute("COMMIT")
    finally:
        conn.close()
    assert "o assento 1 já está ocupado por Zed" in refusal(bia, "ocupado", mark)
    from classroom.store import connect
    from classroom.tables import StoreRepository, Tables
    Tables(StoreRepository(connect(str(db)))).leave(code, "zed-browser")  # a bot plays seat 1
    ana.locator(".cartas-mesa-seat[data-seat='1'][data-controller='bot']").wait_for()
    ana.locator(".cartas-mesa-start").click()
    ana.wait_for_selector(".cartas-status [data-turn='you']")  # seed 7: seat 0 leads
    # raise: a double click calls truco once
    mark = kernel_wire.of(ana).mark()
    ana.locator(".cartas-act-raise").dblclick()
    refused_or_one_click(ana, "a mesa já mudou", mark)   # one call of truco either way (counted below)
    raises = [e for e in stored_state(db, code).events if e["type"] == "raise" and e["seat"] == 0]
    assert len(raises) == 1
    # play: a double click on a card plays one card
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (status(ana)["turn"] == "you" and ana.locator(
            ".cartas-pick-on:not(.cartas-pick-dim)").count()):
        if not take_turn(ana, ("accept",)):
            time.sleep(0.2)
    def her_plays():  # counted in the log: her card may end the hand, and a new one is dealt
        return sum(1 for e in stored_state(db, code).events if e["type"] == "play" and e["seat"] == 0)
    played = her_plays()
    ana.locator(".cartas-pick-on:not(.cartas-pick-dim)").first.dblclick()
    ana.wait_for_function("() => document.querySelector('.cartas-status [data-turn]').dataset.turn !== 'you'",
                          polling=100)
    assert her_plays() == played + 1
    # a card clicked while another seat is to play: "não é a sua vez", still there once the kernel
    # has handled the click and the page has drawn what it said
    mark = kernel_wire.of(ana).mark()
    ana.locator(".cartas-pick-dim").first.click()
    assert "não é a sua vez" in refusal(ana, "não é a sua vez", mark)


# where each seat of the truco table picture is on the screen, and its label
SEATS_SEEN = """() => Object.fromEntries(Array.from(document.querySelectorAll('.cartas-table .cartas-seat[data-seat]'),
  s => { const r = s.getBoundingClientRect();
         return [s.dataset.seat, {x: r.left + r.width / 2, y: r.top + r.height / 2,
                                  head: s.querySelector('.cartas-seat-head').textContent}]; }))"""


@pytest.mark.parametrize("lang, bot", [("pt", "Assento 3 (robô, Médio)"), ("en", "Seat 3 (bot, Medium)")])
def test_on_a_phone_the_table_is_drawn_from_her_seat_with_the_players_names(browser, mesa_url, lang, bot):
    """Bia sits at seat 2 on a 360×740 phone: she is at the bottom, the next seat in play order
    (3) at her right, 0 at the top, 1 at her left; seats say their players' names (issue 29 item 13)."""
    from phone_pages import SCREENSHOTS, full_screenshot, layout_problems, phone_context

    laptop = browser.new_context(viewport={"width": 1280, "height": 1000})
    phone = phone_context(browser)
    try:
        ana = laptop.new_page()
        ana.set_default_timeout(60_000)
        code = create(ana, mesa_url, "Ana", lang=lang, pace=5)  # the bots take their time
        bia = phone.new_page()
        bia.set_default_timeout(60_000)
        goto(bia, f"{mesa_url}/voila/render/mesa.ipynb?lang={lang}&mesa={code}")
        set_name(bia, "Bia")
        bia.locator(".cartas-mesa-sit-2").click()
        bia.wait_for_selector(".cartas-mesa-seat[data-seat='2'][data-mine='true']")
        wait_seated(ana, {2: "Bia"})
        ana.locator(".cartas-mesa-start").click()
        bia.wait_for_selector(".cartas-table .cartas-seat[data-seat='2'][data-place='bottom']")
        seen = bia.evaluate(SEATS_SEEN)
        assert seen["2"]["y"] > seen["1"]["y"] and seen["2"]["y"] > seen["3"]["y"] > seen["0"]["y"], seen
        assert seen["3"]["x"] > seen["2"]["x"] > seen["1"]["x"], seen  # play order goes round: 2, 3, 0, 1
        seat = "Assento" if lang == "pt" else "Seat"
        assert seen["2"]["head"].startswith(f"Bia ({seat} 2)") and seen["0"]["head"].startswith(f"Ana ({seat} 0)")
        assert seen["3"]["head"].startswith(bot), seen
        assert layout_problems(bia)["out"] == []
        full_screenshot(bia, SCREENSHOTS / f"mesa-from-seat-2-{lang}.png")
    finally:
        laptop.close()
        phone.close()


@pytest.mark.parametrize("lang, level, empty, head", [
    ("pt", "Fácil", "vazio (robô, Fácil)", "Assento 1 (robô, Fácil)"),
    ("en", "Strong", "empty (bot, Strong)", "Seat 1 (bot, Strong)")])
def test_on_a_phone_the_creator_chooses_the_bots_level_and_the_table_names_it(browser, mesa_url, lang, level,
                                                                              empty, head):
    """On a 360×740 phone the lobby's "Nível dos robôs" sets the level of the empty seats, which
    the seats and the table name beside each bot (issue 31, item 4); axe clean, nothing out."""
    from phone_pages import axe_violations, layout_problems, phone_context

    phone = phone_context(browser)
    try:
        ana = phone.new_page()
        ana.set_default_timeout(60_000)

        def choose(page):
            page.locator(".cartas-level select").select_option(label=level)
        code = create(ana, mesa_url, "Ana", lang=lang, pace=5, setup=choose)
        assert code
        ana.locator(".cartas-mesa-seat[data-seat='1'] .cartas-mesa-sitter", has_text=empty).wait_for()
        ana.locator(".cartas-mesa-start").click()
        ana.locator(".cartas-table .cartas-seat[data-seat='1'] .cartas-seat-head", has_text=head).wait_for()
        assert layout_problems(ana)["out"] == []
        assert axe_violations(ana) == []
    finally:
        phone.close()
