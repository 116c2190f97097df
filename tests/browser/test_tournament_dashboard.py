"""A class tournament in real browsers (issue 34): a teacher on a laptop and four phones
(360×740) play a 2-round Truco Paulista tournament, one against one, of 1-hand games, at a
fast bot pace. Pairings, tables, results and standings appear on every screen; each phone sits
at her table with one tap (no code typed); the second round has no rematch; the end shows
the podium (docs/rules.md#tournament-pages)."""
from playwright.sync_api import TimeoutError as PlaywrightTimeout, expect

from class_pages import PHONE, create_class, open_page, sign_in
from phone_pages import axe_violations
from serving import SCREENSHOTS, screenshot

LEARNERS = (("Ana", "pt"), ("Bia", "en"), ("Caio", "pt"), ("Duda", "en"))


def select(page, css: str, label: str) -> None:
    page.locator(f"{css} select").select_option(label=label)


def sit_and_leave(phone, lang: str) -> str:
    """One tap opens the table where she is already seated; she then leaves it to the bots and
    goes back to the tournament's page. Returns the table's code."""
    phone.wait_for_selector(".cartas-tournament-mine[data-state='table']", timeout=90_000)
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= 360
    sit = phone.locator(".cartas-tournament-sit")
    box = sit.bounding_box()
    assert box["height"] >= 44 and box["x"] + box["width"] <= 360
    tournament_url = phone.url
    sit.click()
    phone.wait_for_url("**/mesa.ipynb?mesa=*")
    phone.wait_for_selector(".cartas-mesa-seat[data-mine='true']", timeout=90_000)
    code = phone.url.split("mesa=", 1)[1].split("&", 1)[0]
    # Her 1-hand game at the fast pace may be over already on a loaded machine (her seat is
    # the bots' once she is away past the timeout): then "Stand up" is gone and she stays seated.
    over = "document.querySelector(\".cartas-status [data-status='finished']\")"
    phone.wait_for_function(f"() => {over} || document.querySelector('.cartas-mesa-leave')?.offsetParent",
                            timeout=60_000, polling=100)
    if not phone.evaluate(f"() => !!{over}"):
        try:
            phone.locator(".cartas-mesa-leave").click(timeout=10_000)
        except PlaywrightTimeout:  # over between the look and the tap
            assert phone.evaluate(f"() => !!{over}")
        phone.wait_for_function(f"() => {over} || !document.querySelector(\".cartas-mesa-seat[data-mine='true']\")",
                                timeout=60_000, polling=100)
    phone.goto(tournament_url)
    phone.wait_for_selector(".cartas-view", state="visible")
    return code


def test_a_teacher_and_four_phones_play_a_two_round_truco_tournament(browser, voila_url):
    base = f"{voila_url}/voila/render"
    laptop = browser.new_context(viewport={"width": 1280, "height": 900})
    phones_ctx = [browser.new_context(**PHONE) for _ in LEARNERS]
    try:
        class_code, key = create_class(laptop, base, "Torneio 8")

        teacher = open_page(laptop, f"{base}/torneio.ipynb?lang=en&ritmo=0.1")
        teacher.locator(".cartas-tournament-class input").fill(class_code)
        teacher.locator(".cartas-tournament-key input").fill(key)
        teacher.locator(".cartas-tournament-open-class").click()
        teacher.wait_for_selector(".cartas-tournament-setup", state="visible")
        select(teacher, ".cartas-tournament-game", "Truco Paulista")
        select(teacher, ".cartas-tournament-players", "One against one (mano a mano)")
        select(teacher, ".cartas-tournament-length", "1 hand(s)")
        select(teacher, ".cartas-tournament-rounds", "2")
        teacher.locator(".cartas-tournament-open").click()
        state = teacher.locator(".cartas-tournament-status [data-code]")
        state.wait_for()
        code = state.get_attribute("data-code")
        assert teacher.locator(".cartas-tournament-share").is_visible()

        phones = []
        for (name, lang), ctx in zip(LEARNERS, phones_ctx):
            phone = open_page(ctx, f"{base}/torneio_aluno.ipynb?torneio={code}&lang={lang}")
            phone.wait_for_selector(".cartas-tournament-mine[data-state='signin']")
            sign_in(phone, name, class_code)
            phone.wait_for_selector(".cartas-tournament-mine[data-state='out']")
            phones.append(phone)
        assert not axe_violations(phones[0]), axe_violations(phones[0])

        teacher.locator(".cartas-tournament-enrol").click()
        teacher.wait_for_selector("text=Enrolled (4)")
        for round_number in (1, 2):
            teacher.locator(".cartas-tournament-start").click()
            teacher.wait_for_selector(f".cartas-tournament-board[data-round='{round_number}']")
            assert teacher.locator(".cartas-tournament-table").count() == 2
            tables = {sit_and_leave(phone, lang) for phone, (_, lang) in zip(phones, LEARNERS)}
            assert len(tables) == 2  # two tables of two, each learner at hers
            # the teacher's board drives the tables nobody watches to their end
            teacher.wait_for_function(
                "() => document.querySelectorAll('.cartas-tournament-table').length === 2 && "
                "[...document.querySelectorAll('.cartas-tournament-state')].every(s => s.textContent.includes('over'))",
                timeout=120_000, polling=100)
            if round_number == 1:
                screenshot(teacher, SCREENSHOTS / "tournament-teacher-round-1.png", full_page=True)
                for phone in phones:
                    phone.wait_for_selector(".cartas-tournament-mine[data-state='done']", timeout=60_000)
                    phone.wait_for_selector(".cartas-tournament-standings")
                    assert phone.evaluate("() => document.documentElement.scrollWidth") <= 360
        teacher.wait_for_selector(".cartas-tournament-board[data-status='finished']", timeout=60_000)
        # the podium and the standings are awaited too: the board's widgets are drawn one by one
        expect(teacher.locator(".cartas-tournament-podium li")).to_have_count(3)
        expect(teacher.locator(".cartas-tournament-standings tbody tr")).to_have_count(4)
        for phone, (_, lang) in zip(phones, LEARNERS):
            phone.wait_for_selector(".cartas-tournament-mine[data-state='finished']", timeout=60_000)
            word = "Classificação" if lang == "pt" else "Standings"
            expect(phone.locator(".cartas-tournament-phone-standings")).to_contain_text(word)
        expect(teacher.locator(".cartas-tournament-csv-link")).to_have_attribute("download", f"torneio-{code}.csv")
        # a finished game shown from its save
        options = teacher.locator(".cartas-tournament-which select option")
        assert options.count() == 5  # "—" and four games
        teacher.locator(".cartas-tournament-which select").select_option(index=4)
        teacher.locator(".cartas-tournament-show").click()
        teacher.wait_for_selector(".cartas-tournament-shown [data-round='2']")
        assert not axe_violations(teacher), axe_violations(teacher)
        # the projector: the board alone, larger
        teacher.locator(".cartas-tournament-project").click()
        teacher.wait_for_selector(".cartas-tournament-projecting")
        expect(teacher.locator(".cartas-tournament-enrol")).to_be_hidden()
        expect(teacher.locator(".cartas-tournament-podium")).to_be_visible()
        screenshot(teacher, SCREENSHOTS / "tournament-projector.png")
        screenshot(phones[0], SCREENSHOTS / "tournament-phone-pt.png", full_page=True)
    finally:
        for ctx in (laptop, *phones_ctx):
            ctx.close()
