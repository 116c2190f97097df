"""The course index: every lesson listed, and a link opens its dashboard in the same language."""
from widgets.pages.index import LESSONS

from conftest import SCREENSHOTS
from serving import start_exercises


def test_index_lists_every_lesson_and_links_open_them(dashboard):
    page = dashboard("index.ipynb", "?lang=en")
    page.wait_for_selector(".cartas-whose[data-state='ready']")  # the browser said who is there
    rows = page.locator(".cartas-index tr[data-lesson]")
    assert rows.count() == len(LESSONS)
    assert "not started yet" in rows.first.text_content()
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "index.png"))  # the fixture keeps the page we end on
    page.locator(".cartas-index tr[data-lesson='manilhas'] a").click()
    page.wait_for_selector(".cartas-manilhas svg[data-card]")
    assert "lang=en" in page.url
    assert "only your first answer counts" in page.locator(".cartas-question").text_content()
    start_exercises(page)
    assert "The vira is" in page.locator(".cartas-question").text_content()
