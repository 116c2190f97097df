"""The course index: every lesson listed, and a link opens its dashboard in the same language.

On a 360×740 phone, in both languages, the index reads in two screens (at most 2 × 740 px
before anything is unfolded): her next step first, then the course's groups; one language
switch, one title, placeholders that fit their fields, and after joining a class with a PIN
the form no longer asks her to choose one."""
import pytest
from playwright.sync_api import expect

from widgets.pages.index import LESSONS

from phone_pages import layout_problems, open_page as open_phone_page, phone_context
from serving import SCREENSHOTS, screenshot, start_exercises

TITLE = {"pt": "Cartas: aprenda truco e 21", "en": "Cartas: learn truco and 21"}
CHOOSE_PIN = {"pt": "escolha um PIN", "en": "choose a PIN"}
KEPT_PIN = {"pt": "entre com seu nome, o código da turma e o seu PIN",
            "en": "sign in with your name, the class code and your PIN"}

# what a learner sees on the phone: the content's height (Voilà scrolls an inner element), the
# language switches and the titles shown, and where her next step, the form and the course are
SEEN = """(title) => {
  const shown = e => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
  const top = s => document.querySelector(s).getBoundingClientRect().top;
  return {
    height: Math.max(...Array.from(document.querySelectorAll('body *'), e => e.scrollHeight)),
    switches: [...document.querySelectorAll('.cartas-page-language, .cartas-language')].filter(shown).length,
    titles: [...document.querySelectorAll('h1, h2, h3, h4')]  // a heading's text, without Voilà's ¶ anchor
            .filter(e => shown(e) && e.textContent.replace('¶', '').trim() === title).length,
    next: top('.cartas-index-next'), form: top('.cartas-identity'), course: top('.cartas-index'),
  };
}"""


def test_index_lists_every_lesson_and_links_open_them(dashboard):
    page = dashboard("index.ipynb", "?lang=en")
    page.wait_for_selector(".cartas-whose[data-state='ready']")  # the browser said who is there
    rows = page.locator(".cartas-index li[data-lesson]")
    assert rows.count() == len(LESSONS)
    assert "not started yet" in rows.first.text_content()
    screenshot(page, SCREENSHOTS / "index.png")  # the fixture keeps the page we end on
    assert page.locator(".cartas-index-next a[data-lesson='manilhas']").text_content() == "Start with: The manilhas"
    page.locator(".cartas-index details[data-group='truco'] summary").click()
    page.locator(".cartas-index li[data-lesson='manilhas'] a").click()
    page.wait_for_selector(".cartas-manilhas svg[data-card]")
    assert "lang=en" in page.url
    # the lesson's widgets are drawn one by one as the page opens: its question may come after the cards
    expect(page.locator(".cartas-question")).to_contain_text("only your first answer counts")
    start_exercises(page)
    assert "The vira is" in page.locator(".cartas-question").text_content()


@pytest.fixture(scope="module")
def class_code(browser, voila_url):
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    try:
        page = context.new_page()
        page.set_default_timeout(60_000)
        page.goto(f"{voila_url}/voila/render/turma.ipynb?lang=en")
        page.locator(".cartas-class-name input").fill("Phone 9")
        page.locator(".cartas-create-class").click()
        return page.locator(".cartas-created [data-code]").get_attribute("data-code")
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["pt", "en"])
def test_the_index_reads_in_two_phone_screens_her_next_step_first(lang, browser, voila_url, class_code):
    context = phone_context(browser)
    try:
        page = open_phone_page(context, voila_url, "index", lang)
        page.wait_for_selector(".cartas-whose[data-state='ready']")
        seen = page.evaluate(SEEN, TITLE[lang])
        assert seen["height"] <= 2 * 740, seen
        assert (seen["switches"], seen["titles"]) == (1, 1), seen
        assert seen["next"] < seen["form"] < seen["course"], seen
        assert page.locator(".cartas-index-next a[data-lesson='manilhas']").is_visible()
        assert layout_problems(page) == {"out": [], "small": [], "cut": [], "overlap": []}
        page.locator(".cartas-index details[data-group='truco'] summary").click()  # a group unfolds
        assert page.locator(".cartas-index li[data-lesson='manilhas'] .cartas-lesson-what").is_visible()
        assert layout_problems(page)["out"] == []

        page.locator(".cartas-name-input").fill(f"Ana {lang}")
        page.locator(".cartas-code-input").fill(class_code)
        page.locator(".cartas-pin-input").fill("2468")
        page.locator(".cartas-name-save").click()
        page.wait_for_selector(".cartas-identity-class")
        page.wait_for_function("(name) => document.querySelector('.cartas-whose').textContent.includes(name)",
                               arg=f"Ana {lang}", polling=100)
        help_text = page.locator(".cartas-identity-help").text_content()
        assert CHOOSE_PIN[lang] not in help_text and KEPT_PIN[lang] in help_text
        seen = page.evaluate(SEEN, TITLE[lang])
        assert seen["height"] <= 2 * 740 and seen["next"] < seen["form"] < seen["course"], seen
    finally:
        context.close()
