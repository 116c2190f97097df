"""The teacher's insight in the class view (issue 32, item 3; widgets.pages.turma_insight): after
the synthetic class's answers, the opened class shows one sentence per skill naming what the
class misunderstands and who still does, per learner her misconceptions with the correcting
rule, the lesson's section and her last wrong answers replayed, and two CSV downloads; in
both languages, on both back ends, through the classroom interface."""
from __future__ import annotations

import re
from html import unescape
from urllib.parse import unquote

import numpy as np
import pytest
from synthetic_class import synthetic_class

from cartas.questions import find_kind, misconception
from classroom import insight, open as open_classroom
from classroom.answers import answer_to
from widgets.pages.turma import ClassView
from widgets.pages.turma_insight import TEXT, live_html, skill_sentences


@pytest.fixture
def opened(store_location):
    room = open_classroom()
    made = room.create_class("8º A")
    planted, names = synthetic_class(room, made.code)
    return made, planted, names


@pytest.mark.parametrize("lang", ["pt", "en"])
def test_the_class_view_shows_what_the_class_gets_wrong_and_who_still_does(opened, lang):
    made, planted, names = opened
    view = ClassView(lang=lang)
    view.open_table(made.code, made.key)
    html = view.insight.body.value
    assert view.insight in view.manage.children
    for key in {k for beliefs in planted.values() for k in beliefs}:
        holders = sorted(lid for lid, beliefs in planted.items() if key in beliefs)
        text = misconception(key).text[lang]
        assert text in html, key
        people = re.findall(r"data-learner='([^']+)'>(.*?)</details></li>", html, re.S)
        showing = {lid for lid, part in people if f"data-misconception='{key}'" in part}
        assert showing == set(holders), key
    # the rule, the lesson's section and a replayed question for each learner's misconception
    assert misconception("tied_first_goes_to_mao").rule[lang] in html
    assert misconception("tied_first_goes_to_mao").link(lang) in unescape(html)
    assert html.count("cartas-insight-replay") >= sum(len(b) for b in planted.values())
    assert TEXT["head"][lang] in html
    other = "en" if lang == "pt" else "pt"
    assert TEXT["head"][other] not in html


def test_one_sentence_per_skill_names_the_misconception_and_its_learners(opened):
    made, planted, names = opened
    report = insight.class_report(open_classroom(), made.code)
    sentences = skill_sentences(report, names, "en")
    assert len(sentences) == len(report.skills)
    from classroom.mastery import SKILLS
    answered = {a.skill for a in open_classroom().class_answers(made.code)}
    in_order = [s.name["en"] for s in SKILLS if s.key in answered]  # the registry's order, not the keys'
    assert len(in_order) > 2 and [next(n for n in in_order if x.startswith(n)) for x in sentences] == in_order
    view = ClassView(lang="en")
    view.open_table(made.code, made.key)
    per_skill = view.insight.body.value.split("<details>")[0]  # the list per skill, before the kinds'
    shown = re.findall(r"class='cartas-insight-item' data-key='([^']*)'", per_skill)
    assert shown == [s.key for s in SKILLS if s.key in answered]
    stronger = next(s for s in sentences if s.startswith("Tell which card is stronger"))
    holders = [names[lid] for lid, b in planted.items() if "manilha_suit_order" in b]
    assert "suits order the manilhas as ♣ < ♥ < ♠ < ♦" in stronger
    assert all(name in stronger for name in holders)
    for sentence in sentences:
        print(sentence)


def test_the_insight_downloads_two_csv_files_with_a_bom(opened):
    made, _, _ = opened
    view = ClassView(lang="pt")
    view.open_table(made.code, made.key)
    links = dict(re.findall(r"class='(cartas-insight-csv-\w+)'[^>]*href='data:text/csv;charset=utf-8,([^']+)'",
                            view.insight.download.value))
    assert set(links) == {"cartas-insight-csv-answers", "cartas-insight-csv-items"}
    for data in links.values():
        assert unquote(data).startswith("\ufeff")
    assert unquote(links["cartas-insight-csv-answers"]).count("\r\n") == 1 + 30 * 20


def test_the_live_question_names_the_popular_wrong_choice_and_its_sentence():
    kind = find_kind("truco_rodadas.tied_first")
    seed = next(s for s in range(100) if {c.misconception for c in kind.make(np.random.default_rng(s), "paulista")
                                          .choices} == {None, "tie_cancels_hand", "tied_first_goes_to_mao"})
    q = kind.make(np.random.default_rng(seed), "paulista")
    mao = next(c.value for c in q.choices if c.misconception == "tied_first_goes_to_mao")
    answers = [answer_to(q, v, learner_id=f"browser-l{n}", context="live:ABCD", seed=seed, variant="paulista",
                         at=float(n)) for n, v in enumerate([mao] * 3 + [q.answer])]
    (live,) = insight.report(answers).live
    for lang in ("pt", "en"):
        html = live_html(live, lang)
        assert misconception("tied_first_goes_to_mao").rule[lang] in html and "data-count='3'" in html


def test_the_projector_names_the_popular_wrong_choice_and_its_sentence_once_the_answer_is_shown():
    from classroom import identity as ids
    from classroom.progress import open_store
    from widgets.components import learner as identity
    from widgets.pages.aula import LiveProjector
    from widgets.pages.aula_aluno import LivePhone

    store = open_store()
    made = open_classroom().create_class("7º B")
    projector = LiveProjector(lang="en", seed=1)
    projector.start(made.code, made.key)

    def be(joined) -> None:
        identity.forget()
        identity.widget().set_learner(joined.learner, joined.token)

    phones = []
    for n in range(3):  # three phones join before the question
        joined = ids.join(store, made.code, f"Aluna {n}", "2468", f"b-phone-{n:04d}")
        be(joined)
        phones.append((joined, LivePhone(lang="en", code=projector.session["code"])))
    projector.seconds.value = 30
    projector.lesson.value = "truco_rodadas"
    projector.ask_button.click()
    asked = projector._asked[projector.board["number"]]
    right = projector.board["answer"]
    wrong = next(k for k, c in enumerate(asked.choices) if c.misconception not in (None, "slip"))
    for (joined, phone), pick in zip(phones, [wrong, wrong, right]):
        be(joined)
        phone.refresh()
        phone.buttons.children[pick].click()
    projector.refresh()
    assert "data-answered='3'" in projector.screen.value
    assert "cartas-live-popular" not in projector.screen.value  # not while the question is open
    projector.close_button.click()
    screen = projector.screen.value
    m = misconception(asked.choices[wrong].misconception)
    assert f"data-misconception='{m.key}'" in screen and m.rule["en"] in screen and m.text["en"] in screen
    assert "To say to the class:" in screen
