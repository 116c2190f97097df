"""Hostile URL parameters for the dashboards, and what a dashboard opened with them must show:
no failed cell, no injected HTML, and a notice, in the page's language, for each refused
parameter the dashboard reads (the phone test opens every dashboard this way,
tests/browser/test_phone_dashboards.py).

Each dashboard's link carries a hostile value for every parameter at once, rotated so that
across the dashboards every parameter meets every hostile value (three times);
tests/test_params.py runs the full matrix (every value for every parameter of every
dashboard) in the kernel."""
from __future__ import annotations

from urllib.parse import urlencode

from class_pages import wait_for_view
from serving import ROOT

HOSTILE = [
    "-1",
    "nan",
    "1e309",
    "texto " * 1700,  # 10 kB
    "ação 🂡 ٣ \u202e",
    '<img src=x onerror="window.__cartasInjected=1">',
    "²",
    "9" * 5000,
]
PARAMETERS = ("semente", "ritmo", "mesa", "lang", "cenario")
READS = {"mesa.ipynb": ("semente", "ritmo", "mesa"), "jogar_truco.ipynb": ("semente", "ritmo"),
         "jogar_21.ipynb": ("semente", "ritmo"), "torneio.ipynb": ("ritmo",)}
NOTEBOOKS = sorted(path.name for path in (ROOT / "notebooks").glob("*.ipynb"))
MAX_LINK = 4000  # cartas.scenario.MAX_LINK: a longer ?cenario= is refused unread
# the rotation's start: mesa.ipynb gets ?semente=², the failure a learner reported
SHIFT = (HOSTILE.index("²") - NOTEBOOKS.index("mesa.ipynb")) % len(HOSTILE)


def hostile_query(notebook: str) -> dict[str, str]:
    """The notebook's query: parameter j gets hostile value i + j (after `SHIFT`), i the
    notebook's place."""
    i = NOTEBOOKS.index(notebook) + SHIFT
    return {name: HOSTILE[(i + j) % len(HOSTILE)] for j, name in enumerate(PARAMETERS)}


def hostile_link(notebook: str) -> str:
    return f"{notebook}?{urlencode(hostile_query(notebook))}"


def hostile_problems(page, notebook: str) -> list:
    """What is wrong with a dashboard opened at `hostile_link(notebook)` ([] when nothing is)."""
    query = hostile_query(notebook)
    wait_for_view(page, 90_000)
    notice = page.locator(".cartas-url-notice").first
    notice.wait_for()
    said = notice.text_content() or ""
    expected = ["lang", *READS.get(notebook, ())]
    if notebook == "cenarios.ipynb" and len(query["cenario"]) > MAX_LINK:
        expected.append("cenario")
    elif notebook == "cenarios.ipynb":  # a link short enough is opened, and refused by the scenario check
        page.locator(".cartas-message", has_text="Cenário recusado").wait_for()
    wrong = [f"no notice for ?{name}=" for name in expected if f"?{name}=" not in said]
    if "a página abre em português" not in said:
        wrong.append("the language notice is not in Portuguese")
    if "There was an error" in page.content():
        wrong.append("a failed cell")
    if page.evaluate("window.__cartasInjected") is not None or page.locator("img[src='x']").count():
        wrong.append("injected HTML")
    if page.evaluate("document.documentElement.dataset.cartasLang") != "pt":
        wrong.append("not in Portuguese")
    return [(notebook, problem, said[:160]) for problem in wrong]
