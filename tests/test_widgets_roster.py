"""The teacher's learner tools in the class view (widgets.components.roster): login cards, a new PIN,
merging and removing learners, only once the class is open with its teacher key."""
from __future__ import annotations

import re
from html import escape, unescape

import pytest

from classroom import identity as ids
from classroom.classes import create_class
from classroom.progress import class_learners, learner_progress, open_store, record
from widgets.components.roster import Roster
from widgets.components.share import qr_svg
from widgets.pages.turma import ClassView

PAGE = "http://127.0.0.1:8866/voila/render/turma.ipynb?lang=en"


@pytest.fixture
def turma():
    made = create_class(open_store(), "7º B")
    store = open_store()
    for i, name in enumerate(("Ana", "Bia <b>", "Ana Silva")):
        joined = ids.join(store, made.code, name, f"{2468 + i}", f"b-device-{i:04d}")
        record(store, joined.learner, "manilhas", [True] * (i + 1))
    return made


def opened_view(turma, lang="en") -> ClassView:
    view = ClassView(lang=lang)
    view.roster.sheet.page = PAGE  # what the browser reports: the class view's own address
    view.open_table(turma.code, turma.key)
    return view


def choose(dropdown, name):
    dropdown.value = dict(dropdown.options)[name]


def test_the_learner_tools_stay_hidden_and_refuse_until_the_teacher_key_opens_the_class(turma):
    view = ClassView(lang="en")
    assert view.roster.layout.display == "none" and view.roster.who.options == ()
    view.roster.cards_all.click()
    assert view.roster.sheet.html == "" and "Open the class with its teacher key first" in view.message.value
    view.code.value, view.key.value = turma.code, turma.code  # the code alone
    view.open_button.click()
    view.roster.cards_all.click()
    assert view.roster.sheet.html == ""


def test_the_teacher_prints_login_cards_with_name_class_code_and_a_qr_per_learner(turma):
    view = opened_view(turma)
    assert view.roster.layout.display == ""
    view.roster.cards_all.click()
    sheet = view.roster.sheet.html
    assert sheet.startswith("<!doctype html>") and view.roster.sheet.filename == f"cartoes-{turma.code}.html"
    cards = re.findall(r"<div class='cartas-login-card' data-learner='([^']*)'>(.*?)</div></div></div>", sheet)
    assert [unescape(name) for name, _ in cards] == ["Ana", "Ana Silva", "Bia <b>"]
    assert "Bia <b>" not in sheet and escape("Bia <b>") in sheet
    for name, body in cards:
        login = re.search(r"class='cartas-card-login'>([A-Z0-9-]+)<", body).group(1)
        assert login.startswith(turma.code + "-") and f"<b class='cartas-card-class'>{turma.code}</b>" in body
        link = f"http://127.0.0.1:8866/voila/render/index.ipynb?cartao={login.replace('-', '')}"
        assert qr_svg(link) in body  # the QR holds the index's link with her code
        signed = ids.sign_in_with_card(open_store(), login, "b-new-device")
        assert signed.learner.name == unescape(name)
    assert "3 card(s) ready" in view.roster.result.value


def test_a_card_for_one_learner_revokes_only_her_old_card(turma):
    view = opened_view(turma)
    first = {c.name: c.code for c in view.roster.print_cards()}
    choose(view.roster.who, "Ana")
    view.roster.cards_one.click()
    assert view.roster.sheet.html.count("cartas-login-card'") == 1
    with pytest.raises(ids.IdentityError):
        ids.sign_in_with_card(open_store(), first["Ana"], "b-new-device")
    assert ids.sign_in_with_card(open_store(), first["Ana Silva"], "b-new-device").learner.name == "Ana Silva"


def test_the_teacher_gives_a_learner_a_new_pin_shown_once(turma):
    view = opened_view(turma, lang="pt")
    choose(view.roster.who, "Bia <b>")
    view.roster.pin_button.click()
    pin = re.search(r"data-pin='(\d{6})'", view.roster.result.value).group(1)
    assert "Novo PIN de Bia &lt;b&gt;" in view.roster.result.value
    with pytest.raises(ids.IdentityError):
        ids.join(open_store(), turma.code, "Bia <b>", "2469", "b-bia-phone")  # the old PIN
    assert ids.join(open_store(), turma.code, "bia <B>", pin, "b-bia-phone").learner.name == "Bia <b>"


def test_the_teacher_merges_a_learner_into_another_after_confirming(turma):
    view = opened_view(turma)
    choose(view.roster.who, "Ana Silva")
    choose(view.roster.into, "Ana")
    view.roster.merge_button.click()
    assert view.roster.confirm.layout.display == "" and "Merge Ana Silva into Ana?" in view.roster.confirm_text.value
    assert len(class_learners(open_store(), turma.code)) == 3  # nothing happens before "yes"
    view.roster.confirm_yes.click()
    rows = {r["name"]: r["lessons"]["manilhas"] for r in class_learners(open_store(), turma.code)}
    assert rows == {"Ana": {"right": 4, "asked": 4}, "Bia <b>": {"right": 2, "asked": 2}}
    assert [name for name, _ in view.roster.who.options] == ["Ana", "Bia <b>"]  # the list follows
    assert "Ana Silva was merged into Ana" in view.roster.result.value
    choose(view.roster.who, "Ana")
    choose(view.roster.into, "Ana")
    view.roster.merge_button.click()
    assert "two different learners" in view.message.value


def test_removing_a_learner_in_the_class_view_signs_her_devices_out(turma):
    token = ids.join(open_store(), turma.code, "Ana", "2468", "b-ana-phone").token
    view = opened_view(turma)
    view.who.value = ids.learner_key(turma.code, "Ana")
    view.remove_button.click()
    view.confirm_yes.click()
    assert ids.check(open_store(), token, "b-ana-phone") is None
    assert learner_progress(open_store(), ids.learner_key(turma.code, "Ana")) == {}
    assert [name for name, _ in view.roster.who.options] == ["Ana Silva", "Bia <b>"]


def test_the_tools_of_another_class_cannot_touch_this_one(turma):
    other = create_class(open_store(), "8º C")
    view = ClassView(lang="en")
    view.open_table(other.code, other.key)
    assert isinstance(view.roster, Roster) and view.roster.who.options == ()
    with pytest.raises(ValueError, match="not in this class"):
        view.roster._call(lambda service, code: service.reset_pin(code, ids.learner_key(turma.code, "Ana")))


def _works(card_code) -> bool:
    try:
        ids.sign_in_with_card(open_store(), card_code, "b-check-device")
    except ids.IdentityError:
        return False
    return True


@pytest.mark.parametrize("lang", ["pt", "en"])
def test_printing_cards_again_revokes_only_the_chosen_learners_and_the_whole_class_asks_first(turma, lang):
    """Issue 29, item 6: a reprint for a chosen few revokes only theirs; printing for the class
    again prints only for who has no card; new cards for everyone ask for confirmation first."""
    view = opened_view(turma, lang)
    roster = view.roster
    roster.cards_all.click()  # nobody has a card yet: the whole class
    assert ids.print_cards(open_store(), turma.code, missing_only=True) == []  # everyone has one now
    sheet = roster.sheet.html
    codes = dict(re.findall(r"data-learner='([^']*)'>.*?class='cartas-card-login'>([A-Z0-9-]+)<", sheet))
    assert sorted(map(unescape, codes)) == ["Ana", "Ana Silva", "Bia <b>"]
    roster.cards_all.click()  # again: every learner has a card, none is revoked
    words = {"pt": "Todos os alunos já têm cartão", "en": "Every learner has a card already"}[lang]
    assert words in view.message.value + "".join(s.value for s in view._error_slots.values())
    assert all(_works(code) for code in codes.values())
    ids.join(open_store(), turma.code, "Caio", "1234", "b-caio-0001")  # a newcomer
    view.refresh()
    roster.cards_all.click()
    assert re.findall(r"data-learner='([^']*)'", roster.sheet.html) == ["Caio"]
    assert all(_works(code) for code in codes.values())
    roster.chosen.value = (ids.learner_key(turma.code, "Ana"), ids.learner_key(turma.code, "Bia <b>"))
    roster.cards_chosen.click()
    assert sorted(map(unescape, re.findall(r"data-learner='([^']*)'", roster.sheet.html))) == ["Ana", "Bia <b>"]
    assert [_works(codes[n]) for n in ("Ana", escape("Bia <b>"), "Ana Silva")] == [False, False, True]
    reprinted = dict(re.findall(r"data-learner='([^']*)'>.*?class='cartas-card-login'>([A-Z0-9-]+)<",
                                roster.sheet.html))
    roster.cards_renew.click()  # the whole class: asked first, nothing revoked yet
    assert roster.renew_confirm.layout.display == ""
    said = {"pt": "Fazer cartões novos para os 4 alunos da turma? Todos os cartões impressos antes deixam de valer.",
            "en": "Make new cards for all 4 learners of the class? Every card printed before stops working."}[lang]
    assert said in roster.renew_text.value
    assert _works(codes["Ana Silva"]) and _works(reprinted["Ana"])
    roster.renew_no.click()
    assert roster.renew_confirm.layout.display == "none" and _works(codes["Ana Silva"])
    roster.cards_renew.click()
    roster.renew_yes.click()
    assert roster.renew_confirm.layout.display == "none"
    assert roster.sheet.html.count("cartas-login-card'") == 4
    assert not _works(codes["Ana Silva"]) and not _works(reprinted["Ana"])


def test_new_cards_for_the_chosen_with_nobody_chosen_say_so(turma):
    view = opened_view(turma, "en")
    view.roster.cards_chosen.click()
    assert "Choose in the list the learners who get a new card." in view.message.value + "".join(
        s.value for s in view._error_slots.values())
    assert view.roster.sheet.html == ""
