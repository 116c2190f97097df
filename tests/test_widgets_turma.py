"""The teacher's class view: only the teacher key opens it; the table, CSV and removal."""
from __future__ import annotations

import csv
import io
import time
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


def _csv_rows(view):
    link = view.download.value
    text = unquote(link.split("charset=utf-8,")[1].split("'")[0])
    return text, list(csv.DictReader(io.StringIO(text.removeprefix("\ufeff"))))


def test_the_table_exports_as_csv_safe_for_spreadsheets(turma):
    view = ClassView(lang="pt")
    view.open_table(turma.code, turma.key)
    assert f"download='turma-{turma.code}.csv'" in view.download.value
    _, rows = _csv_rows(view)
    assert [r["Aluno"] for r in rows] == ["'=HYPERLINK(\"x\")", "Ana"]


def test_the_csv_has_a_utf8_bom_and_headers_in_the_teachers_language(turma):
    view = ClassView(lang="pt")
    view.open_table(turma.code, turma.key)
    text, rows = _csv_rows(view)
    assert text.startswith("\ufeffAluno,Última atividade,Lições começadas,Lições feitas,")
    assert "%EF%BB%BF" in view.download.value  # the mark survives the data URI, as UTF-8
    ana = rows[1]
    assert ana["As manilhas: certas"] == "5" and ana["As manilhas: perguntas"] == "6"
    assert ana["Lições feitas"] == "1" and ana["Lições começadas"] == "1"
    assert not any("_" in head for head in rows[0])  # no technical names (manilhas_right)
    view.language.value = "en"
    _, rows = _csv_rows(view)
    assert rows[1]["The manilhas: right"] == "5" and rows[1]["Lessons done"] == "1"


def test_lessons_done_and_started_are_defined_under_the_table_and_count_only_its_lessons(turma):
    store = open_store()
    bia = Learner("b-bia-0002", "Bia", turma.code)
    record(store, bia, "truco_rodadas", [True, False])          # started, not done
    record(store, bia, "truco_mao", [True] * 5)                 # done
    record(store, bia, "a_removed_lesson", [True] * 9)          # not a lesson of the table
    view = ClassView(lang="pt")
    view.open_table(turma.code, turma.key)
    row = view.table.value.split("data-learner='Bia'")[1].split("</tr>")[0]
    assert "<td class='cartas-started'>2</td>" in row and "<td class='cartas-done'>1</td>" in row
    means = view.table.value.split("cartas-done-means")[1]
    assert "Lições feitas: aquelas em que ele já acertou pelo menos 5 perguntas" in means
    assert "Lições começadas" in means


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


# Remembered on this device (classroom.classes) --------------------------------------------------
def _reload(view):
    """A new page in the same browser: a new view, and the browser reports what it kept."""
    again = ClassView(lang="pt")
    again.device.stored = {"code": view.device.keep.get("code", ""), "token": view.device.keep.get("token", "")}
    return again


def test_a_class_opened_with_remember_on_this_device_opens_again_after_a_reload(turma):
    view = ClassView(lang="pt")
    view.code.value, view.key.value, view.remember.value = turma.code, turma.key, True
    view.open_button.click()
    kept = view.device.keep
    assert kept["code"] == turma.code and kept["token"] and turma.key not in str(kept)
    assert turma.key.replace("-", "") not in kept["token"]
    again = _reload(view)
    assert again.opened is not None and again.opened.code == turma.code and again.key.value == ""
    assert "data-learner='Ana'" in again.table.value and "abre sozinha neste aparelho" in again.device_status.value
    without = ClassView(lang="pt")  # a browser that kept nothing
    without.device.stored = {"code": "", "token": ""}
    assert without.opened is None


def test_the_store_keeps_only_a_hash_of_the_device_token(turma):
    view = ClassView(lang="pt")
    view.remember.value = True
    view.open_table(turma.code, turma.key)
    token = view.device.keep["token"]
    with open_store().transaction(write=False) as tx:
        rows = tx.execute("SELECT token_hash, class_code FROM teacher_devices").fetchall()
    assert rows and all(token not in row[0] for row in rows) and rows[0][1] == turma.code


def test_without_remember_the_browser_keeps_nothing(turma):
    view = ClassView(lang="pt")
    view.open_table(turma.code, turma.key)
    assert not view.device.keep.get("token")
    assert _reload(view).opened is None


def test_a_device_token_opens_only_its_own_class(turma):
    other = create_class(open_store(), "8º A")
    view = ClassView(lang="pt")
    view.remember.value = True
    view.open_table(turma.code, turma.key)
    again = ClassView(lang="pt")
    again.device.stored = {"code": other.code, "token": view.device.keep["token"]}
    assert again.opened is None and not again.device.keep.get("token")  # dropped from the browser
    for forged in ["x" * 43, "", None, 12, {"a": 1}, "' OR 1=1 --"]:
        forgery = ClassView(lang="pt")
        forgery.device.stored = {"code": turma.code, "token": forged}
        assert forgery.opened is None


def test_forgetting_on_this_device_revokes_its_token(turma):
    view = ClassView(lang="pt")
    view.remember.value = True
    view.open_table(turma.code, turma.key)
    stolen = dict(view.device.keep)
    assert view.forget_button.layout.display == ""
    view.forget_button.click()
    assert not view.device.keep["token"] and "não abre mais a turma sozinho" in view.message.value
    thief = ClassView(lang="pt")
    thief.device.stored = {"code": stolen["code"], "token": stolen["token"]}
    assert thief.opened is None and "foi esquecido" in thief.message.value


def test_the_teacher_revokes_a_stolen_token_with_her_key(turma):
    stolen_view, mine = ClassView(lang="pt"), ClassView(lang="pt")
    for view in (stolen_view, mine):
        view.remember.value = True
        view.open_table(turma.code, turma.key)
    stolen = dict(stolen_view.device.keep)
    from_token = _reload(mine)          # opened with the token: the key field is empty
    from_token.forget_all_button.click()
    error = from_token._error_slots[id(from_token.forget_all_button)].value
    assert "Digite a chave do professor" in error and from_token.message.value == ""
    assert _reload(stolen_view).opened is not None  # nothing revoked without the key
    from_token.key.value = turma.key
    from_token.forget_all_button.click()
    assert "2 esquecidos" in from_token.message.value
    thief = ClassView(lang="pt")
    thief.device.stored = {"code": stolen["code"], "token": stolen["token"]}
    assert thief.opened is None


def test_an_idle_device_token_expires(turma):
    from classroom import classes
    store = open_store()
    token = classes.remember_device(store, turma.code, turma.key)
    assert classes.open_with_device(store, turma.code, token).code == turma.code
    later = time.time() + (classes.DEVICE_IDLE_DAYS + 1) * 86400
    with pytest.raises(classes.NotAllowed):
        classes.open_with_device(store, turma.code, token, now=later)
    assert classes.remembered_devices(store, turma.code) == 0


@pytest.mark.parametrize("lang", ["pt", "en"])
def test_a_csv_for_brazilian_spreadsheets_has_semicolons_decimal_commas_and_a_bom(turma, lang):
    """Issue 29, item 13: a Brazilian spreadsheet reads ";" as the separator: the second link
    gives the same table that way (one cell per column there), beside the standard one."""
    from widgets.pages.turma import csv_number
    record(open_store(), Learner("b-eva-0001", "Eva; da Silva", turma.code), "manilhas", [True])
    view = ClassView(lang=lang)
    view.open_table(turma.code, turma.key)
    standard = view.download.value.split("class='cartas-csv-br'")[0]
    brazil = view.download.value.split("class='cartas-csv-br'")[1]
    assert f"download='turma-{turma.code}-planilha-br.csv'" in brazil
    assert {"pt": "Baixar CSV para planilha em português (;)",
            "en": "Download CSV for Brazilian spreadsheets (;)"}[lang] in brazil
    text = unquote(brazil.split("charset=utf-8,")[1].split("'")[0])
    assert text.startswith("\ufeff")
    lines = text.removeprefix("\ufeff").splitlines()
    standard_rows = list(csv.reader(io.StringIO(unquote(standard.split("charset=utf-8,")[1].split("'")[0])[1:])))
    rows = list(csv.reader(io.StringIO("\n".join(lines)), delimiter=";"))
    assert rows == standard_rows  # the same cells
    assert all(";" in line for line in lines) and "," not in lines[0].replace(", ", "")
    assert [r[0] for r in rows[1:]] == ["'=HYPERLINK(\"x\")", "Ana", "Eva; da Silva"]  # a ";" in a name: quoted
    assert csv_number(0.75, brazil=True) == "0,75" and csv_number(0.75) == 0.75 and csv_number(3, True) == 3
