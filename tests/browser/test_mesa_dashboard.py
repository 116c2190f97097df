"""The tables dashboard in real browsers: three learners, three browser contexts (each with
its own localStorage, so its own identity), one Voilà server, one store."""
from __future__ import annotations

import time

import pytest

from serving import ROOT, start_voila

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def mesa_url(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("mesa")
    process, base = start_voila(ROOT / "notebooks", tmp / "voila.log",
                                {"CARTAS_DB": str(tmp / "cartas.db"), "CARTAS_DATABASE_URL": "",
                                 "CARTAS_PROGRESS": str(tmp / "progress.json")})
    yield base
    process.terminate()
    process.wait(timeout=20)


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
            pages.append(page)
        return pages

    yield open_pages
    from conftest import SCREENSHOTS
    SCREENSHOTS.mkdir(exist_ok=True)
    for i, context in enumerate(contexts):
        for page in context.pages:
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


def create(page, mesa_url: str, name: str, game_label: str | None = None, setup=None) -> str:
    goto(page, f"{mesa_url}/voila/render/mesa.ipynb?lang=en&ritmo=0.3&semente=7")
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
    returns True when it moved."""
    if status(page)["turn"] != "you":
        return False
    version = status(page)["version"]
    for kind in prefer:
        button = page.locator(f".cartas-act-{kind}")
        if button.count():
            button.first.click()
            break
    else:
        cards = page.locator(".cartas-pick-on")
        if not cards.count():
            return False
        cards.first.click()
    page.wait_for_function(
        "(v) => document.querySelector('.cartas-status [data-turn]').dataset.version !== v", arg=version)
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
                               " || document.querySelector('.cartas-status [data-turn]').dataset.status === 'finished'")
        assert "Why?" in page.locator(".cartas-why-text").inner_text()
        assert page.locator(".cartas-log-line").count() > 5


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
