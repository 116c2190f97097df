"""The teacher's class view: only the teacher key opens it; the table, CSV and removal."""
from __future__ import annotations

import csv
import io
from urllib.parse import unquote

import pytest

from classroom.classes import create_class
from classroom.identity import Learner
from classroom.progress import open_store, record
from widgets.pages.turma import ClassView


@pytest.fixture
def turma(store_location):
    store = open_store(store_location)
    made = create_class(store, "7º B")
    record(store, Learner("b-ana-0001", "Ana", made.code), "manilhas", [True] * 5 + [False])
    record(store, Learner("b-bia-0001", "=HYPERLINK(\"x\")", made.code), "truco_mao", [True])
    record(store, Learner("b-cid-0001", "Cida"), "manilhas", [True])  # in no class
    return made


def test_the_class_code_alone_or_a_wrong_key_cannot_open_the_class(turma):
    view = ClassView(lang="en")
    for code, key in [(turma.code, ""), (turma.code, turma.code), (turma.code, "AAAA-BBBB-CCCC-DDDD"),
                      ("ZZZZZZ", turma.key), ("garbage!", turma.key)]:
        view.code.value, view.key.value = code, key
        view.open_button.click()
        assert "Wrong class code or teacher key" in view.message.value
        assert view.opened is None and view.table.value == "" and view.manage.layout.display == "none"
        assert not view.ticker.active


def test_the_key_is_stored_only_as_a_hash(turma):
    with open_store().transaction(write=False) as tx:
        stored = tx.execute("SELECT key_hash FROM classes WHERE code = ?", (turma.code,)).fetchone()[0]
    assert turma.key not in stored and turma.key.replace("-", "") not in stored
    assert stored.startswith("pbkdf2_sha256$")


def test_the_teacher_sees_each_learner_of_her_class(turma):
    view = ClassView(lang="en")
    view.code.value, view.key.value = turma.code.lower(), turma.key
    view.open_button.click()
    assert view.opened.code == turma.code and view.ticker.active
    table = view.table.value
    assert "Ana" in table and "Cida" not in table and "<b>=HYPERLINK(&quot;x&quot;)</b>" in table
    ana = table.split("data-learner='Ana'")[1].split("</tr>")[0]
    assert "<td data-lesson='manilhas'>5/6</td>" in ana and "<td class='cartas-done'>1</td>" in ana
    record(open_store(), Learner("b-dan-0001", "Dan", turma.code), "manilhas", [True])
    view.ticker.tick += 1  # what the browser's timer does every few seconds
    assert "data-learner='Dan'" in view.table.value


def test_the_table_exports_as_csv_safe_for_spreadsheets(turma):
    view = ClassView(lang="pt")
    view.open_table(turma.code, turma.key)
    link = view.download.value
    assert f"download='turma-{turma.code}.csv'" in link
    text = unquote(link.split("charset=utf-8,")[1].split("'")[0])
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [r["name"] for r in rows] == ["'=HYPERLINK(\"x\")", "Ana"]
    ana = rows[1]
    assert ana["manilhas_right"] == "5" and ana["manilhas_asked"] == "6" and ana["lessons_done"] == "1"


def test_removing_a_learner_asks_first_and_removes_only_her(turma):
    view = ClassView(lang="pt")
    view.open_table(turma.code, turma.key)
    ana = Learner("b-ana-0001", "Ana", turma.code).key
    view.who.value = ana
    view.remove_button.click()
    assert view.confirm.layout.display == "" and "Remover Ana" in view.confirm_text.value
    view.confirm_no.click()
    assert "data-learner='Ana'" in view.table.value
    view.remove_button.click()
    view.confirm_yes.click()
    assert "data-learner='Ana'" not in view.table.value and "Ana foi removido(a)" in view.message.value
    assert "HYPERLINK" in view.table.value


def test_a_new_class_shows_its_code_and_key_once_and_opens(store_location):
    view = ClassView(lang="pt")
    view.class_name.value = "Turma <da tarde>"
    view.create_button.click()
    assert view.opened is not None and "&lt;da tarde&gt;" in view.created.value
    assert view.opened.code in view.created.value and "Ninguém ainda" in view.table.value
    view.class_name.value = "   "
    view.create_button.click()
    assert "Não é possível" in view.message.value


def test_the_teachers_view_keeps_its_widget_count_over_100_refreshes_with_10_open_tables(turma):
    from ipywidgets.widgets.widget import _instances  # what ipywidgets.Widget.widgets returns

    from classroom.tables import Tables
    tables = Tables()
    for n in range(10):
        tables.create("paulista" if n % 2 else "21", f"b-l{n}-0001", f"L{n}", seats=None if n % 2 else 4,
                      class_code=turma.code)
    view = ClassView(lang="en")
    view.open_table(turma.code, turma.key)
    view.ticker.tick += 1  # the browser's timer, every 5 s
    after_one = len(_instances)
    assert len(view.class_tables.watch_box.children) == 10
    for _ in range(100):
        view.ticker.tick += 1
    assert len(_instances) == after_one
    view.class_tables.watch_box.children[0].click()  # watching, then watching another table
    watching = len(_instances)
    view.class_tables.watch_box.children[1].click()
    view.open_table(turma.code, turma.key)           # opening the class again
    for _ in range(20):
        view.ticker.tick += 1
    assert len(_instances) <= watching
