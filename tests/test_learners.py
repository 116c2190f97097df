"""Learners: names kept as plain text, each answer recorded for the learner at this browser,
and a lesson that keeps working when its store cannot be reached or read."""
from __future__ import annotations

import hashlib
import re
from html import escape
from pathlib import Path

import pytest

from classroom import identity as ids
from classroom.identity import MAX_NAME, Learner, clean_code, clean_name
from classroom.progress import learner_progress, open_store
from widgets.components import learner as identity, scores as progress
from widgets.pages.index import CourseIndex
from widgets.pages.manilhas import ManilhaExplorer

ROOT = Path(__file__).resolve().parents[1]


def answer_right(view):
    ex = view.exercises
    ex.next_button.click()  # the learner presses "Começar"
    right = dict(ex.question.options)[ex.question.answer]["pt"]
    next(b for b in ex.buttons.children if b.description == right).click()


def browser_reports(browser_id, name="", class_code=""):
    """What the identity widget's browser side sends when it is drawn."""
    identity.widget().stored = {"browser_id": browser_id, "name": name, "class_code": class_code,
                                "count": 1}


def new_class(title="7º B"):
    from classroom.classes import create_class
    return create_class(open_store(), title)


def ana_key(turma) -> str:
    return ids.learner_key(turma.code, "Ana")


def join_in_browser(browser_id, name, code, pin, lang="pt"):
    """A fresh page (kernel) of the index in browser `browser_id`: the browser reports what it
    stores (nothing yet), then the learner submits the form. Returns the page's widget, whose
    `learner` is what the browser then keeps."""
    progress.reset_session()
    form = identity.widget(lang=lang, form=True)
    form.stored = {"browser_id": browser_id, "token": "", "count": 1}
    form.submitted = {"browser_id": browser_id, "name": name, "class_code": code, "pin": pin, "count": 2}
    return form


def reopen(kept: dict):
    """Another page of the same browser: its widget reports what localStorage kept."""
    progress.reset_session()
    page = identity.widget()
    page.stored = {"browser_id": kept["browser_id"], "token": kept.get("token", ""),
                   "name": kept.get("name", ""), "count": 1}
    return page


def test_a_name_is_plain_text_without_control_characters_and_capped():
    assert clean_name("  Ana \x00Maria\u202e\n  Silva ") == "Ana Maria Silva"
    assert len(clean_name("x" * 500)) == MAX_NAME
    assert clean_name("<b>Zé</b>") == "<b>Zé</b>"  # kept as typed; escaped where shown
    assert clean_name(None) == ""


def test_a_class_code_is_six_readable_characters():
    assert clean_code(" abc-23k ") == "ABC23K"
    assert clean_code("") == ""
    for bad in ("ABC", "ABCDE0", "ABCDEFG"):
        with pytest.raises(ValueError, match="6 letters"):
            clean_code(bad)


def test_the_same_name_in_the_same_class_is_the_same_learner_on_any_browser():
    assert Learner.make("browser-one", "Ana", "ABC234").key == Learner.make("browser-two", "ana", "abc234").key
    assert Learner.make("browser-one", "Ana", "ABC234").key != Learner.make("browser-one", "Ana").key
    assert Learner.make("browser-one").key != Learner.make("browser-two").key


def test_answers_given_before_the_browser_says_who_is_there_go_to_that_learner():
    progress.reset_session()  # a fresh kernel: nobody known yet
    view = ManilhaExplorer(seed=3)
    answer_right(view)
    waiting = progress.recorder().pending
    assert [item[:3] for item in waiting] == [("manilhas", True, "manilhas_from_vira")]  # with its skill
    assert waiting[0][3].kind == "manilhas.rank_from_vira" and waiting[0][3].correct  # and kept whole
    browser_reports("b-ana-browser", "Ana")
    assert progress.recorder().pending == []
    ana = Learner.make("b-ana-browser", "Ana")
    assert learner_progress(open_store(), ana.key)["manilhas"]["right"] == 1


def test_each_learner_sees_only_her_own_progress_on_the_index():
    progress.reset_session()
    browser_reports("b-ana-browser", "Ana")
    answer_right(ManilhaExplorer(seed=3))
    progress.reset_session()  # another page, another browser
    browser_reports("b-bia-browser", "Bia")
    index = CourseIndex(lang="en")
    assert "Bia&#x27;s progress" in index.table.value
    assert "1 of 1 right" not in index.table.value and "not started yet" in index.table.value
    identity.widget().stored = {"browser_id": "b-ana-browser", "name": "ana", "count": 2}
    assert "1 of 1 right" in index.table.value  # the index follows the learner who is there


def test_not_me_signs_this_browser_out_and_answers_go_to_the_anonymous_browser():
    turma = new_class()
    page = join_in_browser("b-shared-pc1", "Ana", turma.code, "2468")
    token = page.learner["token"]
    view = ManilhaExplorer(seed=3)
    assert view.children[0].children[1] is identity.widget()  # the badge is in the header
    page.stored = {"browser_id": "b-shared-pc1", "token": "", "name": "", "count": 3}  # "não sou eu"
    answer_right(view)
    assert learner_progress(open_store(), Learner.make("b-shared-pc1").key)["manilhas"]["asked"] == 1
    assert learner_progress(open_store(), ana_key(turma)) == {}
    assert ids.check(open_store(), token, "b-shared-pc1") is None  # the token is signed out too


def test_without_a_class_a_name_is_only_this_browsers_label():
    browser_reports("b-ana-browser", "Ana")
    answer_right(ManilhaExplorer(seed=3))
    progress.reset_session()
    form = identity.widget(form=True)
    form.stored = {"browser_id": "b-other-browser", "count": 1}
    form.submitted = {"browser_id": "b-other-browser", "name": "Ana", "class_code": "", "pin": "", "count": 2}
    assert form.current.name == "Ana" and form.current.key != Learner.make("b-ana-browser").key
    assert "1 of 1 right" not in CourseIndex(lang="en").table.value


def test_a_name_is_escaped_on_the_index():
    progress.reset_session()
    browser_reports("b-html-browser", "<img src=x onerror=alert(1)>")
    index = CourseIndex(lang="pt")
    assert "<img" not in index.table.value
    assert escape("<img src=x onerror=alert(1)>") in index.table.value


def test_the_form_refuses_an_unknown_class_code():
    form = identity.widget(form=True)
    form.stored = {"browser_id": "b-form-browser", "count": 1}
    form.submitted = {"browser_id": "b-form-browser", "name": "Ana", "class_code": "ZZZ234", "pin": "1234",
                      "count": 1}
    assert "ZZZ234" in form.error and form.current.class_code == ""
    made = new_class()
    form.submitted = {"browser_id": "b-form-browser", "name": "Ana", "class_code": made.code, "pin": "1234",
                      "count": 2}
    assert form.error == "" and form.current == Learner.make("b-form-browser", "Ana", made.code)
    assert form.learner["class_code"] == made.code  # the browser stores what was accepted
    assert len(form.learner["token"]) >= 40


def test_a_corrupt_store_file_is_left_untouched_and_the_lesson_goes_on(tmp_path, monkeypatch):
    path = tmp_path / "garbage.db"
    path.write_bytes(bytes(range(256)) * 64)
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    monkeypatch.setenv("CARTAS_DB", str(path))
    view = ManilhaExplorer(seed=3)
    answer_right(view)
    assert "cartas-right" in view.exercises.feedback.value and view.exercises.score.right == 1
    assert "não está sendo salvo" in identity.widget().notice
    index = CourseIndex(lang="pt")
    assert index.table.value.count("data-lesson=") > 5 and "não pode ser lido" in index.message.value
    assert hashlib.sha256(path.read_bytes()).hexdigest() == digest
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("garbage")) == ["garbage.db"]


def test_an_unreachable_store_keeps_the_answers_until_it_answers(tmp_path, monkeypatch):
    from serving_ports import closed_port
    monkeypatch.setenv("CARTAS_DATABASE_URL", f"postgresql://cartas@127.0.0.1:{closed_port()}/x")
    view = ManilhaExplorer(seed=3)
    answer_right(view)
    assert "cartas-right" in view.exercises.feedback.value
    assert "não está sendo salvo" in identity.widget().notice
    view.language.value = "en"
    assert "not being saved" in identity.widget().notice
    waiting = progress.recorder().pending
    assert [item[:3] for item in waiting] == [("manilhas", True, "manilhas_from_vira")]  # with its skill
    assert waiting[0][3].kind == "manilhas.rank_from_vira" and waiting[0][3].correct  # and kept whole
    monkeypatch.delenv("CARTAS_DATABASE_URL")  # the store is back
    assert progress.recorder().flush(force=True)
    assert identity.widget().notice == ""
    assert learner_progress(open_store(), identity.current().key)["manilhas"]["right"] == 1


def test_classroom_imports_nothing_of_jupyter():
    forbidden = re.compile(r"^\s*(import|from)\s+(ipywidgets|IPython|traitlets|voila|widgets|anywidget)\b", re.M)
    assert [p.name for p in (ROOT / "classroom").rglob("*.py") if forbidden.search(p.read_text())] == []


# Verified learners (docs/rules.md#verified-learners) -----------------------------------------
def test_joining_a_class_keeps_a_token_in_the_browser_and_only_hashes_in_the_store():
    turma = new_class()
    page = join_in_browser("b-ana-laptop", "Ana", turma.code, "2468")
    token = page.learner["token"]
    assert page.current == Learner.make("b-ana-laptop", "Ana", turma.code) and page.error == ""
    with open_store().transaction(write=False) as tx:
        hashes = [r[0] for r in tx.execute("SELECT token_hash FROM learner_tokens").fetchall()]
        pin_hash = tx.execute("SELECT pin_hash FROM learners WHERE id = ?", (ana_key(turma),)).fetchone()[0]
    assert hashes == [hashlib.sha256(token.encode()).hexdigest()]
    assert pin_hash.startswith("scrypt$") and "2468" not in pin_hash
    again = reopen(page.learner)  # another dashboard in the same browser
    assert again.current == Learner.make("b-ana-laptop", "Ana", turma.code)


def test_a_second_browser_typing_a_taken_name_is_told_it_is_taken_and_offered_the_pin():
    from classroom.progress import class_learners
    turma = new_class()
    ana = join_in_browser("b-ana-laptop", "Ana", turma.code, "2468")
    answer_right(ManilhaExplorer(seed=3))
    for typed in ("ana", "ANA ", "Ana"):
        intruder = join_in_browser("b-intruder-pc", typed, turma.code, "0000", lang="en")
        assert "The name Ana is already taken in this class. If it is you, type your PIN." in intruder.error
        assert intruder.pin_wanted and intruder.learner["token"] == ""
        assert intruder.current.class_code == "" and intruder.current.key != ana_key(turma)
        view = ManilhaExplorer(seed=3)
        ex = view.exercises
        ex.next_button.click()
        right = dict(ex.question.options)[ex.question.answer]["pt"]
        next(b for b in ex.buttons.children if b.description != right).click()
    scores = learner_progress(open_store(), ana_key(turma))["manilhas"]
    assert (scores["right"], scores["asked"]) == (1, 1)  # her 1/1 stays 1/1
    assert [r["name"] for r in class_learners(open_store(), turma.code)] == ["Ana"]  # her spelling stays
    assert ana.current.name == "Ana"


def test_a_crafted_stored_message_naming_another_learner_is_nobody_in_the_class():
    turma = new_class()
    join_in_browser("b-ana-laptop", "Ana", turma.code, "2468")
    for crafted in ({"browser_id": "b-intruder-pc", "name": "Ana", "class_code": turma.code},  # the old shape
                    {"browser_id": "b-intruder-pc", "name": "Ana", "class_code": turma.code,
                     "token": "A" * 43},  # a made-up token
                    {"browser_id": "b-intruder-pc", "name": "Ana", "class_code": turma.code,
                     "learner_id": ana_key(turma), "token": {"$ne": ""}}):
        page = reopen({"browser_id": "b-intruder-pc"})
        page.stored = {**crafted, "count": 7}
        assert page.current.class_code == "" and page.current.key == Learner.make("b-intruder-pc").key
        answer_right(ManilhaExplorer(seed=3))
    assert learner_progress(open_store(), ana_key(turma)) == {}


def test_a_crafted_learner_message_changes_nobody_in_the_kernel():
    turma = new_class()
    join_in_browser("b-ana-laptop", "Ana", turma.code, "2468")
    page = reopen({"browser_id": "b-intruder-pc"})
    page.learner = {"browser_id": "b-intruder-pc", "name": "Ana", "class_code": turma.code, "token": "A" * 43}
    page.submitted = {"browser_id": "b-intruder-pc", "name": "Ana", "class_code": turma.code, "count": 2}
    assert page.verified() == Learner.make("b-intruder-pc")
    assert "PIN" in page.error


def test_a_learner_moves_to_a_second_device_with_her_pin():
    turma = new_class()
    join_in_browser("b-ana-laptop", "Ana", turma.code, "2468")
    answer_right(ManilhaExplorer(seed=3))
    phone = join_in_browser("b-ana-phone", "ANA", turma.code, "2468")
    assert phone.error == "" and phone.current == Learner.make("b-ana-phone", "Ana", turma.code)
    answer_right(ManilhaExplorer(seed=3))
    assert learner_progress(open_store(), ana_key(turma))["manilhas"]["right"] == 2
    assert "2 of 2 right" in CourseIndex(lang="en").table.value


def test_a_learner_moves_to_a_second_device_with_her_login_card():
    turma = new_class()
    join_in_browser("b-ana-laptop", "Ana", turma.code, "2468")
    join_in_browser("b-bia-laptop", "Bia", turma.code, "1357")
    cards = {c.name: c for c in ids.print_cards(open_store(), turma.code)}
    assert sorted(cards) == ["Ana", "Bia"] and cards["Ana"].code.startswith(turma.code)
    printed = ids.show_login_code(cards["Ana"].code)
    tablet = reopen({"browser_id": "b-school-tablet"})
    tablet.card = {"browser_id": "b-school-tablet", "code": printed.lower(), "count": 2}
    assert tablet.current == Learner.make("b-school-tablet", "Ana", turma.code) and tablet.learner["token"]
    answer_right(ManilhaExplorer(seed=3))
    assert learner_progress(open_store(), ana_key(turma))["manilhas"]["right"] == 1
    ids.print_cards(open_store(), turma.code, [ana_key(turma)])  # a new card revokes the old
    other = reopen({"browser_id": "b-school-tablet2"})
    other.card = {"browser_id": "b-school-tablet2", "code": printed, "count": 2}
    assert other.current.class_code == "" and "não vale" in other.error


@pytest.fixture
def browsers(monkeypatch):
    """Switch which browser the server told this kernel it serves; the limiter's clock by hand."""
    from classroom import attempts
    clock = [1_000_000.0]
    attempts.set_clock(lambda: clock[0])

    def use(told: str) -> None:
        monkeypatch.setenv("HTTP_X_CARTAS_BROWSER", told)
    use.clock = clock
    yield use
    attempts.set_clock(None)


def test_wrong_pins_make_the_guessing_browser_wait_and_never_lock_her_out(browsers):
    """Issue 33, item 8: five wrong PINs for Ana from one browser make that browser wait, the
    right PIN included; Ana herself, from her own browser, still signs in; a page the server
    does not know yet is told to reload; after the wait the guesser may try again."""
    turma = new_class()
    browsers("a" * 32)
    join_in_browser("b-ana-laptop", "Ana", turma.code, "2468")
    store = open_store()
    browsers("9" * 32)  # the prankster's browser
    for guess in range(ids.PIN_FAILURES):
        with pytest.raises(ids.IdentityError) as refused:
            ids.join(store, turma.code, "Ana", f"{1000 + guess}", "b-guessing-pc")
        assert refused.value.code == "name_taken"
    with pytest.raises(ids.IdentityError) as refused:
        ids.join(store, turma.code, "Ana", "2468", "b-guessing-pc")
    assert refused.value.code == "pin_locked"
    page = join_in_browser("b-guessing-pc", "Ana", turma.code, "2468", lang="en")
    assert "Too many wrong PINs in this browser" in page.error and page.current.class_code == ""
    browsers("b" * 32)  # Ana's phone, a browser the server knows
    assert ids.join(store, turma.code, "Ana", "2468", "b-ana-phone").learner.name == "Ana"
    browsers("c" * 32 + "." + "1" * 16)  # a first page, no cookie yet
    page = join_in_browser("b-ana-tablet", "Ana", turma.code, "2468", lang="en")
    assert "Reload this page and type your PIN again" in page.error and page.pin_wanted
    browsers.clock[0] += 20
    browsers("9" * 32)
    assert ids.join(store, turma.code, "Ana", "2468", "b-guessing-pc").learner.name == "Ana"


def test_wrong_login_codes_make_the_guessing_browser_wait_and_leave_the_class_cards_working(browsers):
    """Issue 33, item 8: twenty wrong login codes no longer lock the class's cards: the guesser
    waits after ten, a classmate's valid card signs her in from her own browser."""
    turma = new_class()
    browsers("a" * 32)
    join_in_browser("b-ana-laptop", "Ana", turma.code, "2468")
    card = ids.print_cards(open_store(), turma.code)[0]
    store = open_store()
    browsers("9" * 32)
    for _ in range(ids.CARD_FAILURES):
        with pytest.raises(ids.IdentityError) as refused:
            ids.sign_in_with_card(store, turma.code + "ABCDEFGH", "b-guessing-pc")
        assert refused.value.code == "unknown_card"
    for guess in (turma.code + "ABCDEFGH", card.code):
        with pytest.raises(ids.IdentityError) as refused:
            ids.sign_in_with_card(store, guess, "b-guessing-pc")
        assert refused.value.code == "card_locked"
    browsers("b" * 32)
    assert ids.sign_in_with_card(store, card.code, "b-ana-tablet").learner.name == "Ana"
    browsers("c" * 32 + "." + "1" * 16)
    with pytest.raises(ids.IdentityError) as refused:
        ids.sign_in_with_card(store, card.code, "b-ana-first-page")
    assert refused.value.code == "card_reload"
    with pytest.raises(ids.IdentityError) as refused:
        ids.sign_in_with_card(store, "not a code", "b-guessing-pc")
    assert refused.value.code == "bad_login_code"


def test_the_teacher_resets_a_pin_only_the_new_one_works_and_her_devices_are_signed_out():
    turma = new_class()
    leaked = join_in_browser("b-somebody-pc", "Ana", turma.code, "2468")  # whoever knew her PIN
    card = ids.print_cards(open_store(), turma.code)[0]
    new_pin = ids.reset_pin(open_store(), turma.code, ana_key(turma))
    assert re.fullmatch(r"\d{6}", new_pin)
    assert leaked.verified() == Learner.make("b-somebody-pc")
    assert "já está em uso" in join_in_browser("b-ana-phone", "Ana", turma.code, "2468").error
    assert join_in_browser("b-ana-phone", "Ana", turma.code, new_pin).current.class_code == turma.code
    with pytest.raises(ids.IdentityError):
        ids.sign_in_with_card(open_store(), card.code, "b-ana-tablet")  # her old card too
    with pytest.raises(ids.IdentityError):
        ids.reset_pin(open_store(), "ZZZ234", ana_key(turma))  # not in that class


def test_the_teacher_merges_a_learner_into_another_and_her_devices_follow():
    from classroom.progress import class_learners
    turma = new_class()
    join_in_browser("b-ana-laptop", "Ana", turma.code, "2468")
    answer_right(ManilhaExplorer(seed=3))
    twin = join_in_browser("b-ana-phone", "Ana Silva", turma.code, "1111")
    answer_right(ManilhaExplorer(seed=3))
    twin_key = ids.learner_key(turma.code, "Ana Silva")
    ids.merge(open_store(), turma.code, twin_key, ana_key(turma))
    rows = class_learners(open_store(), turma.code)
    assert [(r["name"], r["lessons"]["manilhas"]["right"], r["lessons"]["manilhas"]["asked"]) for r in rows] \
        == [("Ana", 2, 2)]
    assert twin.verified() == Learner.make("b-ana-phone", "Ana", turma.code)  # the phone is Ana now
    assert twin.learner["name"] == "Ana"
    with open_store().transaction(write=False) as tx:
        assert tx.execute("SELECT COUNT(*) FROM answers WHERE learner_id = ?", (ana_key(turma),)).fetchone()[0] == 2
    with pytest.raises(ids.IdentityError):
        ids.merge(open_store(), turma.code, ana_key(turma), ana_key(turma))


def test_the_teacher_removes_a_learner_and_her_open_pages_stop_at_once():
    turma = new_class()
    page = join_in_browser("b-ana-laptop", "Ana", turma.code, "2468")
    view = ManilhaExplorer(seed=3)
    assert ids.remove(open_store(), turma.code, ana_key(turma))
    answer_right(view)  # her page is still open: the answer is not hers any more
    assert learner_progress(open_store(), ana_key(turma)) == {}
    assert page.current == Learner.make("b-ana-laptop") and "não está mais na turma" in page.error
    assert page.learner["token"] == "" and not ids.remove(open_store(), turma.code, ana_key(turma))
    again = join_in_browser("b-ana-laptop", "Ana", turma.code, "9753")  # the name is free again
    assert again.current.class_code == turma.code


def test_a_learner_stored_before_verification_is_claimed_by_the_first_who_joins_with_a_pin():
    from classroom.progress import record
    turma = new_class()
    record(open_store(), Learner("b-old-browser", "Ana", turma.code), "manilhas", [True])  # an old row
    assert join_in_browser("b-ana-laptop", "Ana", turma.code, "2468").current.class_code == turma.code
    assert "já está em uso" in join_in_browser("b-other-pc", "Ana", turma.code, "1357").error
    assert learner_progress(open_store(), ana_key(turma))["manilhas"]["right"] == 1


def test_a_pin_has_four_to_six_digits():
    assert ids.clean_pin(" 1234 ") == "1234" and ids.clean_pin("123456") == "123456"
    for bad in ("123", "1234567", "12a4", "١٢٣٤", None):
        with pytest.raises(ids.IdentityError) as refused:
            ids.clean_pin(bad)
        assert refused.value.code == "bad_pin"
    turma = new_class()
    page = join_in_browser("b-ana-laptop", "Ana", turma.code, "12", lang="en")
    assert "The PIN has 4 to 6 digits." in page.error and page.current.class_code == ""


def test_thirty_learners_join_one_class_at_once_and_none_is_lost_or_merged(store_location):
    import threading

    from classroom.classes import create_class
    from classroom.progress import class_learners
    from classroom.store import connect
    turma = create_class(open_store(store_location), "8º A")
    names = [f"Aluno {i}" for i in range(26)] + ["Ana", "Ane", "Anna", "Bia"]
    racers = [("Bia", "5555", "b-bia-rival")]  # the same name at the same moment, another PIN
    people = [(name, f"{1000 + i}", f"b-join-{i:04d}") for i, name in enumerate(names)] + racers
    barrier = threading.Barrier(len(people))
    results: dict[str, object] = {}

    def one(name, pin, browser):
        store = connect(store_location)
        try:
            barrier.wait(timeout=60)
            results[browser] = ids.join(store, turma.code, name, pin, browser)
        except ids.IdentityError as refusal:
            results[browser] = refusal.code
        finally:
            store.close()

    threads = [threading.Thread(target=one, args=person) for person in people]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    joined = {b: r for b, r in results.items() if isinstance(r, ids.Joined)}
    assert len(results) == 31 and len(joined) == 30
    assert sorted(r for r in results.values() if isinstance(r, str)) == ["name_taken"]  # one of the two Bias
    rows = class_learners(open_store(store_location), turma.code)
    assert sorted(r["name"] for r in rows) == sorted(names) and all(r["has_pin"] for r in rows)
    store = open_store(store_location)
    for browser, result in joined.items():
        assert ids.check(store, result.token, browser) == result.learner  # each token is its own learner


def table_page(tables, page, code=None):
    """A tables dashboard (widgets.pages.mesa) on the page whose identity widget is `page`."""
    from widgets.pages.mesa import Mesa
    return Mesa(lang="en", tables=tables, identity=page, code=code, autopoll=False)


def test_a_crafted_message_naming_a_seated_learner_neither_takes_her_seat_nor_her_class():
    from classroom.tables import MemoryRepository, Tables
    tables = Tables(MemoryRepository())
    turma = new_class()
    ana_page = join_in_browser("b-ana-laptop", "Ana", turma.code, "2468")
    ana = table_page(tables, ana_page)
    code = ana.create()
    assert tables.snapshot(code).record["class_code"] == turma.code  # her verified class
    intruder_page = identity.Identity()
    intruder_page.stored = {"browser_id": "b-intruder-pc", "name": "Ana", "class_code": turma.code,
                            "token": "", "count": 1}
    intruder = table_page(tables, intruder_page, code=code)
    assert intruder.client.seat is None  # not "Ana (you)" at her seat
    assert "data-mine='true'" not in intruder.seat_box.children[0].children[0].value
    intruder.name.value = "Ana"
    with pytest.raises(ValueError, match="already taken by Ana"):
        intruder.sit(0)  # her seat, while she is there
    assert tables.snapshot(code).sitters[0]["id"] == ana_key(turma)
    intruder.close_table()
    own = intruder.create()  # a table of her own is in no class: the crafted class is not hers
    assert tables.snapshot(own).record["class_code"] == ""


def test_a_removed_learner_can_no_longer_move_at_her_table():
    from classroom.tables import MemoryRepository, Tables
    tables = Tables(MemoryRepository())
    turma = new_class()
    ana_page = join_in_browser("b-ana-laptop", "Ana", turma.code, "2468")
    ana = table_page(tables, ana_page)
    code = ana.create()
    ids.remove(open_store(), turma.code, ana_key(turma))
    ana.guarded(lambda: ana._act(lambda c: c.start()))()  # the creator's "deal", after removal
    assert tables.snapshot(code).status == "waiting" and ana.client.learner != ana_key(turma)


def test_the_index_shows_a_removed_learner_nothing_of_the_class():
    turma = new_class()
    join_in_browser("b-ana-laptop", "Ana", turma.code, "2468")
    answer_right(ManilhaExplorer(seed=3))
    index = CourseIndex(lang="en")
    assert "Ana&#x27;s progress" in index.table.value
    ids.remove(open_store(), turma.code, ana_key(turma))
    index.refresh.click()
    assert "Progress in this browser" in index.table.value and "no longer in the class" in identity.widget().error


def test_a_store_from_before_verified_learners_migrates_and_keeps_its_class(store_location):
    from classroom.progress import MIGRATIONS, class_learners
    from classroom.store import connect
    old = connect(store_location)
    old.migrate(MIGRATIONS, upto=2)
    with old.transaction() as tx:  # what a version-2 store held: a class and an unverified learner
        tx.execute("INSERT INTO classes (code, title, key_hash, created_at) VALUES (?, ?, ?, ?)",
                   ("ABC234", "7º B", "x", 1.0))
        tx.execute("INSERT INTO learners (id, name, class_code, created_at, last_seen) VALUES (?, ?, ?, ?, ?)",
                   ("n:ABC234:ana", "Ana", "ABC234", 1.0, 1.0))
        tx.execute("INSERT INTO progress VALUES (?, ?, ?, ?, ?)", ("n:ABC234:ana", "manilhas", 3, 4, 1.0))
    old.close()
    store = open_store(store_location)
    assert store.version("classroom") == MIGRATIONS.latest
    assert [(r["name"], r["has_pin"], r["lessons"]["manilhas"]["right"])
            for r in class_learners(store, "ABC234")] == [("Ana", False, 3)]
    joined = ids.join(store, "abc234", "ana", "2468", "b-ana-laptop")  # she claims her scores with a PIN
    assert joined.learner.name == "Ana" and learner_progress(store, joined.learner.key)["manilhas"]["asked"] == 4
    with pytest.raises(ids.IdentityError):
        ids.join(store, "ABC234", "Ana", "1111", "b-other-pc")


def test_names_differing_only_in_case_accents_or_spaces_are_one_learner_asked_for_her_pin(store_location):
    """A learner typing "ana  luisa" with her PIN is Ana Luísa (her name stays as first written);
    a new "Celia" beside "Célia" is asked for Célia's PIN, in both languages, and made nobody."""
    from classroom.classes import create_class
    from classroom.progress import class_learners
    store = open_store(store_location)
    turma = create_class(store, "7º B")
    first = ids.join(store, turma.code, "Ana Luísa", "2468", "b-ana-laptop")
    again = ids.join(store, turma.code, "  ana   luisa ", "2468", "b-ana-phone")
    assert (again.learner.name, again.learner.key, again.new) == ("Ana Luísa", first.learner.key, False)
    assert ids.join(store, turma.code, "ANA LUISA", "2468", "b-ana-tablet").learner == first.learner.__class__(
        "b-ana-tablet", "Ana Luísa", turma.code)
    celia = ids.join(store, turma.code, "Célia", "1357", "b-celia-pc")
    with pytest.raises(ids.IdentityError) as refused:
        ids.join(store, turma.code, "Celia", "9999", "b-other-pc")
    assert refused.value.code == "name_like" and refused.value.fields == {"name": "Célia", "typed": "Celia"}
    assert ids.join(store, turma.code, "CÉLIA", "1357", "b-celia-phone").learner.key == celia.learner.key
    assert sorted(r["name"] for r in class_learners(store, turma.code)) == ["Ana Luísa", "Célia"]
    for lang, said in (("pt", "«Celia» é o mesmo nome que Célia, que já está nesta turma"),
                       ("en", "“Celia” is the same name as Célia, who is already in this class")):
        form = join_in_browser("b-other-pc", "Celia", turma.code, "9999", lang=lang)
        assert said in form.error and form.pin_wanted and form.learner["token"] == ""
    assert len(class_learners(store, turma.code)) == 2


def test_kernels_joining_as_celia_spelled_differently_at_once_make_one_learner(store_location):
    """The name key is unique per class in the store: racing kernels make one learner."""
    import threading

    from classroom.classes import create_class
    from classroom.progress import class_learners
    from classroom.store import connect
    turma = create_class(open_store(store_location), "8º A")
    spellings = ["Célia", "celia", "CELIA", "Celia ", "célia", " CÉLIA"]
    barrier = threading.Barrier(len(spellings))
    results: dict[int, object] = {}

    def one(i, name):
        store = connect(store_location)
        try:
            barrier.wait(timeout=60)
            results[i] = ids.join(store, turma.code, name, f"{2000 + i}", f"b-celia-{i:04d}")
        except ids.IdentityError as refusal:
            results[i] = refusal.code
        finally:
            store.close()

    threads = [threading.Thread(target=one, args=(i, name)) for i, name in enumerate(spellings)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    joined = [r for r in results.values() if isinstance(r, ids.Joined)]
    assert len(results) == len(spellings) and len(joined) == 1
    assert {r for r in results.values() if isinstance(r, str)} <= {"name_taken", "name_like"}
    [row] = class_learners(open_store(store_location), turma.code)
    assert row["name"] == joined[0].learner.name


def test_a_store_already_holding_names_that_compare_equal_keeps_each_learner(store_location):
    """Migration 4 (classroom.progress): "Célia" and "Celia" made before stay two learners, each
    found by her devices; the first made keeps the name, so "celia" with a PIN is her."""
    from classroom.progress import MIGRATIONS, class_learners
    from classroom.store import connect
    old = connect(store_location)
    old.migrate(MIGRATIONS, upto=3)
    with old.transaction() as tx:
        tx.execute("INSERT INTO classes (code, title, key_hash, created_at) VALUES (?, ?, ?, ?)",
                   ("ABC234", "7º B", "x", 1.0))
        for at, (name, pin, token) in enumerate([("Célia", "1357", "t" * 40), ("Celia", "2468", "u" * 40),
                                                 ("Bia", "1111", "v" * 40)], 1):
            key = ids.learner_key("ABC234", name)
            tx.execute("INSERT INTO learners (id, name, class_code, created_at, last_seen, pin_hash) "
                       "VALUES (?, ?, ?, ?, ?, ?)", (key, name, "ABC234", float(at), float(at), ids.hash_pin(pin)))
            tx.execute("INSERT INTO learner_tokens (token_hash, learner_id, created_at, used_at) VALUES (?, ?, ?, ?)",
                       (hashlib.sha256(token.encode()).hexdigest(), key, 1.0, 1.0))
    old.close()
    store = open_store(store_location)
    assert store.version("classroom") == MIGRATIONS.latest
    assert sorted(r["name"] for r in class_learners(store, "ABC234")) == ["Bia", "Celia", "Célia"]
    for name, token in (("Célia", "t" * 40), ("Celia", "u" * 40), ("Bia", "v" * 40)):
        assert ids.check(store, token, "b-somewhere").name == name  # every device still finds her
    assert ids.join(store, "ABC234", "celia", "1357", "b-new-pc").learner.name == "Célia"  # the first made
    with pytest.raises(ids.IdentityError) as refused:
        ids.join(store, "ABC234", "celia", "2468", "b-new-pc")
    assert refused.value.code == "name_like"
    assert ids.join(store, "ABC234", "bia", "1111", "b-new-pc").learner.name == "Bia"
    with pytest.raises(ids.IdentityError):
        ids.join(store, "ABC234", "BIA", "0000", "b-new-pc")


def test_cards_printed_for_chosen_learners_or_for_those_without_one_revoke_nobody_else(store_location):
    """Issue 29, item 6, in the store: a card for some learners revokes only theirs; cards for
    those without one revoke none."""
    from classroom.classes import create_class
    store = open_store(store_location)
    turma = create_class(store, "7º B")
    people = {name: ids.join(store, turma.code, name, "2468", f"b-{name}-0001").learner.key
              for name in ("Ana", "Bia", "Caio")}
    first = {c.name: c.code for c in ids.print_cards(store, turma.code, missing_only=True)}
    assert sorted(first) == ["Ana", "Bia", "Caio"]
    assert ids.print_cards(store, turma.code, missing_only=True) == []
    again = {c.name: c.code for c in ids.print_cards(store, turma.code, [people["Ana"], people["Bia"]])}
    assert sorted(again) == ["Ana", "Bia"]
    for code, works in ((first["Ana"], False), (first["Bia"], False), (first["Caio"], True),
                        (again["Ana"], True), (again["Bia"], True)):
        try:
            ids.sign_in_with_card(store, code, "b-check-0001")
            assert works
        except ids.IdentityError:
            assert not works


def test_lookalike_names_a_trailing_dot_or_a_cyrillic_a_are_the_same_learner(store_location, monkeypatch):
    """Issue 33, item 11: "Maria Silva." and "Mаria Silva" (a Cyrillic "а") are Maria Silva,
    asked for her PIN, not a second learner who looks the same on the roster
    (classroom.values.name_key: NFKC, look-alike letters folded, edge punctuation trimmed)."""
    from classroom.classes import create_class
    from classroom.progress import class_learners
    store = open_store(store_location)
    turma = create_class(store, "7º B")
    maria = ids.join(store, turma.code, "Maria Silva", "2468", "b-maria-pc")
    for n, typed in enumerate(("Maria Silva.", "M\u0430ria Silva", "«Maria Silva»", "MARIA SILVA!", "Μaria Silva")):
        monkeypatch.setenv("HTTP_X_CARTAS_BROWSER", f"{n:032x}")  # each from a browser of its own (Greek Μ last)
        with pytest.raises(ids.IdentityError) as refused:
            ids.join(store, turma.code, typed, "1111", "b-prankster")
        assert refused.value.code == "name_like" and refused.value.fields["name"] == "Maria Silva", typed
        assert ids.join(store, turma.code, typed, "2468", "b-maria-phone").learner.key == maria.learner.key
    assert [r["name"] for r in class_learners(store, turma.code)] == ["Maria Silva"]


def test_a_store_holding_lookalike_names_from_before_keeps_each_learner_and_her_devices(store_location):
    """Migration 5 (classroom.progress) recomputes the keys: "Maria Silva" and "Mаria Silva"
    stored before stay two learners, each found by her device; the first made keeps the key."""
    from classroom.progress import MIGRATIONS, class_learners
    from classroom.store import connect
    old = connect(store_location)
    old.migrate(MIGRATIONS, upto=4)
    lookalike = "M\u0430ria Silva"
    with old.transaction() as tx:
        tx.execute("INSERT INTO classes (code, title, key_hash, created_at) VALUES (?, ?, ?, ?)",
                   ("ABC234", "7º B", "x", 1.0))
        for at, (name, pin, token) in enumerate([("Maria Silva", "1357", "t" * 40), (lookalike, "2468", "u" * 40),
                                                 ("Bia.", "1111", "v" * 40)], 1):
            key = ids.learner_key("ABC234", name)
            tx.execute("INSERT INTO learners (id, name, class_code, created_at, last_seen, pin_hash, name_key) "
                       "VALUES (?, ?, ?, ?, ?, ?, ?)", (key, name, "ABC234", float(at), float(at), ids.hash_pin(pin),
                                                        name.casefold()))
            tx.execute("INSERT INTO learner_tokens (token_hash, learner_id, created_at, used_at) VALUES (?, ?, ?, ?)",
                       (hashlib.sha256(token.encode()).hexdigest(), key, 1.0, 1.0))
    old.close()
    store = open_store(store_location)
    assert store.version("classroom") == MIGRATIONS.latest == 6
    assert sorted(r["name"] for r in class_learners(store, "ABC234")) == ["Bia.", "Maria Silva", lookalike]
    for name, token in (("Maria Silva", "t" * 40), (lookalike, "u" * 40), ("Bia.", "v" * 40)):
        assert ids.check(store, token, "b-somewhere").name == name
    assert ids.join(store, "ABC234", "maria silva", "1357", "b-new-pc").learner.name == "Maria Silva"
    assert ids.join(store, "ABC234", "Bia", "1111", "b-new-pc").learner.name == "Bia."  # her key is now "bia"
    with pytest.raises(ids.IdentityError):
        ids.join(store, "ABC234", "M\u0430ria Silva.", "0000", "b-new-pc")
