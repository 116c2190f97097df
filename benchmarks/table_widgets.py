"""Widgets alive in a page's kernel while a table is played, and in the teacher's view while
it refreshes: the figures of issue 18, item 1 (a view keeps a bounded widget count).

Plays MOVES moves (learner and bots, bots at pace 0) at a 21 table of 12 seats and at a truco
table, through the tables dashboard's own code (`widgets.pages.mesa.Mesa`: its buttons are clicked,
its poll moves the bots), and refreshes the teacher's class view REFRESHES times with 10 open
tables. Prints `len(ipywidgets.Widget.widgets)` after the first hand and at the end.

    .venv/bin/python benchmarks/table_widgets.py [--moves 500] [--truco-moves 300] [--refreshes 100]
    .venv/bin/python benchmarks/table_widgets.py --browser   # also the DOM node count in Chromium

With --browser, a Voilà server and Chromium are started (and stopped); a learner plays
--browser-moves moves at a 21 table of 12 and the page's DOM node count is printed after the
first round and at the end.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))   # serving_ports
sys.path.insert(0, str(ROOT / "tests" / "browser"))

PREFER_21 = ("bet", "hit", "stand", "call", "refuse_bank", "pass")
PREFER_TRUCO = ("accept", "play_hand")


class Clock:
    """A clock the benchmark moves: bots are due at once, nobody goes away."""

    def __init__(self):
        self.now = 1_000_000.0

    def __call__(self) -> float:
        self.now += 0.001
        return self.now


class Someone:
    def __init__(self, key: str, name: str, class_code: str = ""):
        from classroom.identity import Learner
        self.current = Learner(key, name, class_code)

    def on_change(self, callback) -> None:
        pass


def live_widgets() -> int:
    from ipywidgets.widgets.widget import _instances  # what Widget.widgets (deprecated) returns
    return len(_instances)


def my_move(view, prefer) -> bool:
    """Click one of the learner's move buttons (a preferred kind first) or a playable card."""
    buttons = [b for b in view.actions.children if getattr(b, "description", "")]
    for kind in prefer:
        for button in buttons:
            if f"cartas-act-{kind}" in button._dom_classes:
                button.click()
                return True
    playable = [i for i, card in enumerate(view.hand_cards.cards) if card["enabled"]]
    if playable and view.client.seat == view.client.snap.state.current_seat:
        view.hand_cards.pick(playable[0])
        return True
    if buttons:
        buttons[0].click()
        return True
    return False


def play(game: str, moves: int, seats: int | None, prefer) -> dict:
    """Play `moves` moves at one table; widget counts after the first hand and at the end."""
    from classroom import games
    from classroom.tables import MemoryRepository, Tables
    from widgets.pages.mesa import Mesa

    tables = Tables(MemoryRepository(), clock=Clock())
    view = Mesa(lang="en", tables=tables, identity=Someone("bench-ana-0001", "Ana"), autopoll=False)
    view.pace, view.seed = 0.0, 11
    if games.table_options(game):
        view.game.value = game
        view.seats.value = seats
        view.rounds.value = 50
    view.create()
    view.start_button.click()
    counts = {"start": live_widgets()}
    made, first_hand_done, stuck = 0, False, 0
    started = time.perf_counter()
    while made < moves:
        snap = view.client.snap
        if snap.status == "finished":
            view.close_table()
            view.create()
            view.start_button.click()
            continue
        version = snap.version
        if snap.state.current_seat == view.client.seat:
            my_move(view, prefer)
        else:
            view.poll()
        if view.client.snap.version != version:
            made += 1
            stuck = 0
        else:
            stuck += 1
            if stuck > 50:
                raise RuntimeError(f"the {game} table does not move: {view.message.value}")
        if not first_hand_done and games.hand_number(view.client.snap.state) > 1:
            first_hand_done = True
            counts["first_hand"], counts["first_hand_moves"] = live_widgets(), made
    counts["end"] = live_widgets()
    counts["ms_per_move"] = 1000 * (time.perf_counter() - started) / moves
    return counts


def teacher(refreshes: int, tables_open: int = 10) -> dict:
    """The class view with `tables_open` open tables, refreshed `refreshes` times."""
    from classroom.classes import create_class
    from classroom.progress import open_store
    from classroom.tables import Tables
    from widgets.pages.turma import ClassView

    store = open_store()
    made = create_class(store, "bench")
    tables = Tables()
    for n in range(tables_open):
        tables.create("paulista" if n % 2 else "21", f"bench-l{n}-0001", f"L{n}",
                      seats=None if n % 2 else 4, class_code=made.code)
    view = ClassView(lang="en")
    view.open_table(made.code, made.key)
    counts = {"open": live_widgets()}
    for i in range(refreshes):
        view.ticker.tick += 1  # the browser's timer
        if i == 0:
            counts["first"] = live_widgets()
    counts["end"] = live_widgets()
    return counts


def dom_nodes(page) -> tuple[int, int, float]:
    """(nodes in the document, DOM nodes alive in the page after a garbage collection,
    detached ones included, JS heap MB), read through the Chrome DevTools protocol."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Performance.enable")
    cdp.send("HeapProfiler.collectGarbage")
    metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    cdp.detach()
    in_document = page.evaluate("document.getElementsByTagName('*').length")
    return in_document, int(metrics["Nodes"]), round(metrics["JSHeapUsedSize"] / 2**20, 1)


def browser_dom(moves: int) -> dict:
    """DOM nodes of a tables page in Chromium while a learner plays a 21 table of 12."""
    from playwright.sync_api import sync_playwright

    from serving import BENCH_CHROMIUM, CHROMIUM_ARGS, start_voila, stop

    tmp = Path(tempfile.mkdtemp(prefix="cartas-dom-"))
    process, base = start_voila(ROOT / "notebooks", tmp / "voila.log",
                                {"CARTAS_DB": str(tmp / "cartas.db"), "CARTAS_DATABASE_URL": "",
                                 "CARTAS_PROGRESS": str(tmp / "progress.json")})
    counts: dict = {}
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=BENCH_CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 1100})
            page.set_default_timeout(60_000)
            page.goto(f"{base}/voila/render/mesa.ipynb?lang=en&ritmo=0&semente=3")
            page.wait_for_selector(".cartas-view", state="visible")
            box = page.locator(".cartas-mesa-name input")
            box.fill("Ana")
            box.press("Enter")
            page.locator(".cartas-mesa-game select").select_option(label="21 (vinte-e-um)")
            for name, value in (("seats", "12"), ("rounds", "50")):
                field = page.locator(f".cartas-mesa-{name} input")
                field.fill(value)
                field.press("Enter")
            page.locator(".cartas-mesa-create").click()
            page.locator(".cartas-mesa-start").click()
            page.wait_for_selector(".cartas-status [data-status='playing']")
            made = 0
            status = ".cartas-status [data-turn]"
            while made < moves:
                page.wait_for_selector(f"{status}[data-turn='you'], {status}[data-status='finished']")
                if page.locator(f"{status}[data-status='finished']").count():
                    break
                version = page.locator(status).get_attribute("data-version")
                for kind in PREFER_21:
                    button = page.locator(f".cartas-act-{kind}")
                    if button.count():
                        button.first.click()
                        break
                page.wait_for_function(
                    "(v) => document.querySelector('.cartas-status [data-turn]').dataset.version !== v",
                    arg=version)
                made += 1
                hand = page.locator(status).get_attribute("data-hand")
                if hand != "1" and "first_round" not in counts:
                    counts["first_round"] = dom_nodes(page)
                    counts["first_round_moves"] = made
            time.sleep(1)
            counts["end"] = dom_nodes(page)
            counts["learner_moves"] = made
            counts["version"] = page.locator(status).get_attribute("data-version")
            browser.close()
    finally:
        stop(process)
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=500, help="moves at the 21 table of 12")
    parser.add_argument("--truco-moves", type=int, default=300, help="moves at the truco table")
    parser.add_argument("--refreshes", type=int, default=100, help="teacher view refreshes")
    parser.add_argument("--browser", action="store_true", help="also count DOM nodes in Chromium")
    parser.add_argument("--browser-moves", type=int, default=60, help="learner moves in the browser")
    args = parser.parse_args()
    tmp = tempfile.mkdtemp(prefix="cartas-widgets-")
    import os
    os.environ["CARTAS_DB"], os.environ["CARTAS_DATABASE_URL"] = str(Path(tmp) / "cartas.db"), ""
    os.environ["CARTAS_PROGRESS"] = str(Path(tmp) / "progress.json")
    from widgets.components import scores
    scores.reset_session(browser_id="bench-browser-0001")

    for game, moves, seats, prefer in (("21", args.moves, 12, PREFER_21),
                                       ("paulista", args.truco_moves, None, PREFER_TRUCO)):
        before = live_widgets()
        c = play(game, moves, seats, prefer)
        print(f"{game} table{f' of {seats}' if seats else ''}, {moves} moves: widgets alive "
              f"{c['start'] - before} at the start, {c.get('first_hand', 0) - before} after the first hand "
              f"({c.get('first_hand_moves')} moves), {c['end'] - before} at the end; "
              f"{c['ms_per_move']:.1f} ms per move")
    before = live_widgets()
    c = teacher(args.refreshes)
    print(f"teacher view, 10 open tables: widgets {c['open'] - before} when opened, "
          f"{c['first'] - before} after 1 refresh, {c['end'] - before} after {args.refreshes}")
    if args.browser:
        d = browser_dom(args.browser_moves)
        print(f"browser, 21 table of 12, {d['learner_moves']} learner moves (table version {d['version']}): "
              f"(document nodes, DOM nodes alive, JS heap MB) {d.get('first_round')} after the first "
              f"round ({d.get('first_round_moves')} moves), {d['end']} at the end")


if __name__ == "__main__":
    main()
