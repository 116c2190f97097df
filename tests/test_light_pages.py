"""Every dashboard opens light: what its page runs at open does not import numpy (issue 18,
item 8). A lesson that deals at open shows its first hand right after the page is sent
(`widgets.components.later.after_paint`); the play, odds and scenario pages load the engine's numpy
modules on the first move.

Each case runs the dashboard's own visible cells (read from `notebooks/NAME.ipynb`, as Voilà
runs them; `remove-cell` cells are not served) in a fresh interpreter, inside a running event
loop as in a kernel. It asserts that numpy (and the coach, the odds, the bots) are not imported
when the cells are done, then lets the loop run and checks what the learner sees next.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from loops import run_async

ROOT = Path(__file__).resolve().parents[1]

# Run in the child: the cells, then `after` (the check once the loop had its turn).
CHILD = r'''
import ast, asyncio, json, sys
cells, forbidden, after = json.loads(sys.argv[1])

async def main():
    scope = {"sys": sys}
    for source in cells:
        tree = ast.parse(source)
        last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
        exec(compile(tree, "<cell>", "exec"), scope)
        if last is not None:
            scope["view"] = eval(compile(ast.Expression(last.value), "<cell>", "eval"), scope)
    loaded = sorted(name for name in forbidden if name in sys.modules)
    assert not loaded, f"loaded with the page: {loaded}"
    from widgets.components.later import PAINT_DELAY
    assert 0.5 <= PAINT_DELAY <= 1.5, PAINT_DELAY  # outside Voilà (no SERVER_SOFTWARE here)
    await asyncio.sleep(0.6 * PAINT_DELAY)
    early = "numpy" in sys.modules
    await asyncio.sleep(0.4 * PAINT_DELAY + 0.3)  # the kernel goes on: the deferred first deal runs
    assert not early, "numpy loaded before the first deal was due"
    exec(after, scope)

asyncio.run(main())
'''

# What a page must not import at open, beyond numpy (and anywidget's Python package: the
# pages' small widgets speak its front end without it, widgets/components/tiny.py).
ENGINE = ["numpy", "cartas.truco.state", "cartas.truco.bots", "cartas.truco.odds",
          "cartas.vinte_e_um.bots", "cartas.vinte_e_um.odds", "cartas.coach.truco",
          "cartas.coach.vinte_e_um", "anywidget", "psygnal"]


def visible_cells(name: str) -> list[str]:
    notebook = json.loads((ROOT / "notebooks" / f"{name}.ipynb").read_text())
    return ["".join(cell["source"]) for cell in notebook["cells"]
            if cell["cell_type"] == "code" and "remove-cell" not in cell["metadata"].get("tags", [])]


def open_page(name: str, after: str, tmp_path, forbidden=ENGINE, query: str = "") -> None:
    env = {**os.environ, "CARTAS_DB": str(tmp_path / "cartas.db"), "CARTAS_DATABASE_URL": "",
           "CARTAS_PROGRESS": str(tmp_path / "progress.json"), "QUERY_STRING": query,
           "PYTHONPATH": str(ROOT)}
    result = subprocess.run([sys.executable, "-c", CHILD, json.dumps([visible_cells(name), forbidden, after])],
                            capture_output=True, text=True, cwd=ROOT / "notebooks", env=env, timeout=120)
    assert result.returncode == 0, result.stderr[-3000:]


def test_the_deal_stepper_opens_without_numpy_and_deals_the_first_hand_right_after(tmp_path):
    open_page("truco_mao", "assert view.steps and 'numpy' in sys.modules\n"
                           "assert 'data-card' in view.table.value\n", tmp_path)


def test_the_betting_lab_opens_without_numpy_and_deals_its_hand_right_after(tmp_path):
    open_page("truco_apostas", "assert view.state is not None and 'numpy' in sys.modules\n"
                               "assert view.play_buttons.children and 'data-card' in view.table.value\n", tmp_path)


def test_the_threshold_lab_opens_without_numpy_and_deals_both_hands_right_after(tmp_path):
    open_page("truco_mao_de_onze", "assert view.onze is not None and view.ferro is not None\n"
                                   "assert 'numpy' in sys.modules and 'data-card' in view.onze_table.value\n", tmp_path)


def test_the_odds_explorer_opens_without_numpy_and_shows_the_odds_right_after(tmp_path):
    open_page("chances_truco", "assert view.odds is not None and 'numpy' in sys.modules\n"
                               "assert 'cartas-odds-hand' in view.result.value\n", tmp_path)


def test_the_hand_scorer_opens_without_numpy_and_draws_its_first_question_right_after(tmp_path):
    open_page("vinte_e_um_pontos", "assert view.q_hand and 'numpy' in sys.modules\n"
                                   "assert 'data-card' in view.question.value\n", tmp_path)


def test_the_round_stepper_opens_without_numpy_and_plays_its_round_right_after(tmp_path):
    open_page("vinte_e_um_rodada", "assert view.snapshots and view.q_state is not None\n"
                                   "assert 'numpy' in sys.modules and 'data-card' in view.table.value\n", tmp_path)


def test_the_bank_rotation_opens_without_numpy_and_plays_its_example_right_after(tmp_path):
    open_page("vinte_e_um_banca", "assert view.played and 'numpy' in sys.modules\n"
                                  "assert 'cartas-change' in view.story.value and view.question.value\n", tmp_path)


def test_the_truco_game_opens_without_numpy_or_the_coach_and_deals_right_after(tmp_path):
    open_page("jogar_truco", "assert view.state is not None and 'numpy' in sys.modules\n"
                             "assert 'cartas.coach.truco' in sys.modules\n"  # the play view imports it, numpy-free
                             "assert view.hand_cards.cards and 'data-card' in view.table.value\n",
              tmp_path, forbidden=[m for m in ENGINE if m != "cartas.coach.truco"])


def test_the_21_game_opens_without_numpy_or_the_coach_and_deals_right_after(tmp_path):
    open_page("jogar_21", "assert view.state is not None and 'numpy' in sys.modules\n"
                          "assert 'cartas.coach.vinte_e_um' not in sys.modules\n"  # it comes with the first hint
                          "assert 'data-card' in view.table.value\n", tmp_path)


def test_the_scenario_builder_opens_without_numpy_and_fills_a_random_deal_right_after(tmp_path):
    open_page("cenarios", "assert all(len(hand.value.split()) == 3 for hand in view.hands)\n"
                          "assert view.vira.value and 'numpy' in sys.modules\n", tmp_path)


def test_a_scenario_link_opens_without_numpy_and_its_table_arrives_right_after(tmp_path):
    from cartas import scenario
    hands = [["7♥", "A♠", "3♦"], ["4♣", "5♣", "6♣"], ["K♥", "J♥", "Q♥"], ["2♠", "3♠", "4♠"]]
    link = scenario.encode_link(scenario.truco_scenario("paulista", hands, "K♠", dealer=3))
    open_page("cenarios", "assert view.learner_view and view.state is not None\n"
                          "assert 'data-card=\"7♥\"' in view.table.value\n", tmp_path, query=f"cenario={link}")


@pytest.mark.parametrize("name", ["index", "turma", "mesa", "manilhas", "truco_rodadas", "truco_mineiro"])
def test_pages_that_deal_nothing_open_without_numpy(name, tmp_path):
    open_page(name, "assert 'numpy' not in sys.modules\n", tmp_path)


def test_in_a_voila_kernel_the_deal_waits_for_the_browser_not_a_second(monkeypatch):
    from widgets.components import later
    monkeypatch.setenv("SERVER_SOFTWARE", "voila/0.5.13")
    assert later.paint_delay() == later.VOILA_FALLBACK > 5
    monkeypatch.delenv("SERVER_SOFTWARE")
    assert later.paint_delay() == later.PAINT_DELAY


def test_a_loop_running_under_plain_code_deals_at_once():
    """A loop that runs under the caller with no task of its own (Playwright's sync API keeps
    one in the browser tests' main thread) is no kernel cell: the view deals in its constructor."""
    import asyncio

    from widgets.pages.truco_mao import DealStepper

    async def main() -> bool:
        loop = asyncio.get_running_loop()
        done = loop.create_future()

        def plain() -> None:  # a loop callback: a loop runs, no task does
            done.set_result(bool(DealStepper(lang="pt").steps))

        loop.call_soon(plain)
        return await done

    assert run_async(main())


def test_the_teachers_page_makes_its_class_tools_only_when_a_class_opens(tmp_path):
    open_page("turma", "assert view._roster is None and view._homework is None\n"
                       "assert 'widgets.components.homework' not in sys.modules\n"
                       "from ipywidgets.widgets.widget import _instances\n"
                       "before = len(_instances)\n"
                       "view.class_name.value = 'Turma A'\n"
                       "view.create()\n"
                       "assert view._roster is not None and view._homework is not None\n"
                       "assert view._roster in view.manage.children and view._homework in view.manage.children\n"
                       "assert len(_instances) > before + 100\n", tmp_path)
