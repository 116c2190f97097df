"""No input makes unbounded work: a scenario link where only bots could play leaves the kernel idle.

The link of issue 11: a 21 table of 12 seats where seat 0 (the learner) has no chips, no round
limit (`rounds: null`) and a top bet of 1. "Jogar a partir daqui" used to let the bots play
without pause forever (a kernel at about 95% CPU, growing without end). Now the game is over
for the learner at once, and the kernel of the page does nothing while the page stays open.
"""
from __future__ import annotations

import time

from cartas.scenario import encode_link, vinte_e_um_scenario

from serving import ROOT, cpu_seconds, kernel_pids, start_voila, stop

IDLE_SECONDS = 4
IDLE_CPU_SHARE = 0.10  # of one core, over IDLE_SECONDS: an idle kernel uses far less


def test_a_table_where_only_bots_could_play_ends_for_the_learner_and_the_kernel_goes_idle(
        browser, tmp_path):
    link = encode_link(vinte_e_um_scenario(12, banker=3, chips=[0] + [20] * 11, rounds=None,
                                           max_bet=1, seed=5))
    process, base = start_voila(ROOT / "notebooks", tmp_path / "voila.log",
                                {"CARTAS_DB": str(tmp_path / "cartas.db"), "CARTAS_DATABASE_URL": ""})
    try:
        page = browser.new_page(viewport={"width": 1280, "height": 1000})
        page.set_default_timeout(60_000)
        page.goto(f"{base}/voila/render/cenarios.ipynb?cenario={link}&lang=pt")
        page.wait_for_selector(".cartas-play", state="visible")
        page.locator("button.cartas-play, .cartas-play").first.click()
        page.wait_for_selector(".cartas-game-box .cartas-status [data-turn='out']")
        assert "o jogo acabou para você" in page.locator(".cartas-game-box .cartas-status").text_content()
        pids = kernel_pids(process)
        assert len(pids) == 1  # this page's kernel
        before = cpu_seconds(pids)
        time.sleep(IDLE_SECONDS)
        used = cpu_seconds(pids) - before
        assert used < IDLE_CPU_SHARE * IDLE_SECONDS, f"the kernel used {used:.2f} s of CPU while idle"
        # and the page still answers a click: the builder's own step button
        page.locator("button.cartas-step, .cartas-step").first.click()
        page.wait_for_selector(".cartas-step-line")
        page.close()
    finally:
        stop(process)
