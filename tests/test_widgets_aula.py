"""The live class quiz's pages without a browser: the projector (widgets.pages.aula) and a
learner's phone (widgets.pages.aula_aluno), on the configured store."""
from __future__ import annotations

import re

import pytest

from classroom import identity as ids
from classroom.classes import create_class
from classroom.progress import learner_progress, open_store
from widgets.components import learner as identity
from widgets.pages.aula import QUESTION_LESSONS, LiveProjector, scenario_question
from widgets.pages.aula_aluno import TAP_PX, LivePhone


@pytest.fixture
def turma():
    store = open_store()
    made = create_class(store, "7º B")
    return store, made


def _sign_in(store, code, name, pin, browser):
    joined = ids.join(store, code, name, pin, browser)
    identity.forget()
    identity.widget().set_learner(joined.learner, joined.token)
    return joined.learner


def test_the_projector_starts_only_with_the_teacher_key_and_shows_the_join_code(turma):
    _store, made = turma
    projector = LiveProjector(lang="en", seed=7)
    projector.code.value, projector.key.value = made.code, "wrong"
    projector.start_button.click()
    assert "Wrong class code or teacher key." in projector.message.value and projector.session is None
    projector.key.value = made.key
    projector.start_button.click()
    code = projector.session["code"]
    assert f"data-code='{code}'" in projector.join.value and f"code {code}" in projector.join.value
    assert projector.share.path == f"aula_aluno.ipynb?codigo={code}"
    assert projector.ticker.active and projector.ticker.seconds < 1
    projector.ask_button.click()  # the first lesson, as the page opens
    assert "data-state='open'" in projector.screen.value and projector.board["lesson"] == "manilhas"


@pytest.mark.parametrize("lesson", sorted(QUESTION_LESSONS))
def test_every_lesson_question_is_drawn_by_the_lessons_own_generator_from_the_seed(turma, lesson):
    _store, made = turma
    a, b = LiveProjector(lang="pt", seed=11), LiveProjector(lang="pt", seed=11)
    for projector in (a, b):
        projector.start(made.code, made.key)
    first, second = a.draw_question(lesson), b.draw_question(lesson)
    assert first == second  # the same seed, the same deal
    assert first["lesson"] == lesson and 0 <= first["answer"] < len(first["options"])
    assert first["prompt"]["pt"] != first["prompt"]["en"]  # both languages


def test_a_phone_answers_and_the_projector_shows_the_histogram_the_answer_and_the_leaderboard(turma):
    store, made = turma
    projector = LiveProjector(lang="en", seed=3)
    projector.start(made.code, made.key)
    code = projector.session["code"]
    ana = _sign_in(store, made.code, "Ana", "2468", "b-ana-phone-01")
    phone = LivePhone(lang="en", code=code)
    assert phone.joined == {"points": 0, "first_number": 1}
    projector.seconds.value = 30
    projector.lesson.value = "truco_rodadas"
    projector.ask_button.click()
    phone.refresh()
    assert "data-state='open'" in phone.status.value
    buttons = phone.buttons.children
    assert len(buttons) >= 2 and all(b.layout.width == "100%" for b in buttons)
    assert int(buttons[0].layout.min_height.rstrip("px")) >= 44 and TAP_PX >= 44
    right = projector.board["answer"]
    buttons[right].click()
    assert "data-state='answered'" in phone.status.value
    buttons[right].click()  # a second tap: refused, never counted twice
    assert "first answer counts" in phone.message.value
    projector.refresh()
    assert "data-answered='1'" in projector.screen.value
    projector.close_button.click()
    screen = projector.screen.value
    assert f"data-option='{right}' data-count='1' data-right='1'" in screen
    assert "Right answer:" in screen and "data-name='Ana'" in screen
    phone.refresh()
    assert "data-correct='1'" in phone.feedback.value and "Right! +" in phone.feedback.value
    stored = learner_progress(store, ana.key)["truco_rodadas"]
    assert (stored["right"], stored["asked"]) == (1, 1)
    phone.language.value = "pt"
    assert "Certo! +" in phone.feedback.value
    projector.end_button.click()
    assert not projector.ticker.active and "The session has ended." in projector.message.value
    phone.refresh()
    assert "data-state='ended'" in phone.status.value and not phone.ticker.active


def test_a_phone_without_a_class_learner_is_asked_to_sign_in_and_a_bad_code_is_refused(turma):
    phone = LivePhone(lang="en", code="ZZZZ")
    assert phone.joined is None and "Sign in to your class" in phone.status.value
    phone.code_input.value = "not a code"
    phone.join_button.click()
    beside = phone.ask_code.children[0].children[1].value  # the error slot beside the code box
    assert "live session code has 4 letters or digits" in beside


def test_a_phone_that_joins_puts_the_code_in_its_address_and_a_reload_returns_to_the_question(turma, monkeypatch):
    """Issue 29 item 4: she typed the code; once joined the page's address holds ?codigo=, and
    the page opened again with it (a reload) is back at the question, her answer counted once."""
    store, made = turma
    projector = LiveProjector(lang="en", seed=4)
    projector.start(made.code, made.key)
    code = projector.session["code"]
    monkeypatch.setenv("QUERY_STRING", "lang=en")
    identity.forget()
    phone = LivePhone(lang="en")
    assert phone.identity.layout.display == "" and phone.address.query == {}
    joined = ids.join(store, made.code, "Ana", "2468", "b-ana-reload-01")
    phone.identity.set_learner(joined.learner, joined.token)  # the browser has said who she is
    assert phone.identity.layout.display == "none"  # the sign-in form goes: the code box is on top
    assert "Sign in to your class" not in phone.status.value
    phone.code_input.value = code.lower()
    phone.join_button.click()
    assert phone.joined is not None and phone.address.query == {"codigo": code}
    projector.seconds.value = 60
    projector.ask_button.click()
    phone.refresh()
    phone.buttons.children[projector.board["answer"]].click()
    assert "data-state='answered'" in phone.status.value

    # the reload: a new kernel, the address as the page left it
    monkeypatch.setenv("QUERY_STRING", f"lang=en&codigo={phone.address.query['codigo']}")
    identity.forget()
    identity.widget().set_learner(joined.learner, joined.token)
    again = LivePhone(lang="en")
    assert again.joined is not None and again.code == code
    assert "data-state='answered'" in again.status.value and f"data-number='{projector.board['number']}'" \
        in again.status.value
    projector.refresh()
    assert projector.board["answered"] == 1 and sum(projector.board["counts"]) == 1


@pytest.mark.parametrize(("lang", "words"), [("pt", "não é um código de aula"),
                                             ("en", "is not a live session code")])
def test_a_phone_opened_with_a_malformed_code_in_its_address_says_so_and_asks_for_the_code(
        turma, monkeypatch, lang, words):
    monkeypatch.setenv("QUERY_STRING", f"codigo=T0D1%3Cb%3E&lang={lang}")
    identity.forget()
    phone = LivePhone()
    assert phone.code is None and phone.joined is None and phone.code_input.value == ""
    assert words in phone.title.value and "<b>" not in phone.title.value
    assert phone.address.query == {}


def test_a_scenario_link_becomes_a_what_would_you_play_question_answered_by_the_coach():
    from cartas.scenario import encode_link, truco_scenario
    link = encode_link(truco_scenario("paulista", [["3♣", "K♦", "5♥"], ["4♦", "6♠", "7♣"],
                                                   ["A♠", "2♥", "Q♦"], ["J♣", "J♦", "6♥"]], vira="4♣"))
    question = scenario_question(f"http://127.0.0.1/voila/render/cenarios.ipynb?cenario={link}&lang=en")
    assert question["lesson"] == "aula_cenario"
    assert question["prompt"]["en"].startswith("What would you play here?")
    assert [o["en"] for o in question["options"]] == ["Play 4♦", "Play 6♠", "Play 7♣"]
    assert question["options"][question["answer"]]["en"] == "Play 7♣"
    assert re.search(r"Play 7♣", question["why"]["en"])
    with pytest.raises(ValueError):
        scenario_question(link[:-3] + "xyz")


def test_the_code_in_the_address_is_read_and_a_bad_one_refused_in_both_languages():
    from widgets.components.params import live_code
    assert live_code("codigo", " td-39 ").value == "TD39"
    assert live_code("codigo", None) == (None, None)
    refused = live_code("codigo", "T0D1")  # 0 and 1 are never in a code
    assert refused.value is None
    assert "não é um código de aula" in refused.problem.message("pt")
    assert "type the code shown on the projector" in refused.problem.message("en")
    assert live_code("codigo", "X" * 500).problem.code == "too_long"


def test_the_projector_asks_a_scenario_and_refuses_a_21_one_in_both_languages(turma):
    from cartas.scenario import encode_link, truco_scenario, vinte_e_um_scenario
    _store, made = turma
    projector = LiveProjector(lang="en", seed=1)
    projector.start(made.code, made.key)
    projector.scenario.value = encode_link(vinte_e_um_scenario(3))
    projector.scenario_button.click()
    beside = projector.controls.children[1].children[1].value
    assert "not a truco position" in beside and projector.board.get("number") == 0
    projector.language.value = "pt"
    projector.scenario_button.click()
    assert "não é uma posição de truco" in projector.controls.children[1].children[1].value
    projector.scenario.value = encode_link(truco_scenario(
        "paulista", [["3♣", "K♦", "5♥"], ["4♦", "6♠", "7♣"], ["A♠", "2♥", "Q♦"], ["J♣", "J♦", "6♥"]], vira="4♣"))
    projector.scenario_button.click()
    assert projector.board["number"] == 1 and projector.board["lesson"] == "aula_cenario"
    assert "O que você jogaria aqui?" in projector.screen.value


TWENTY_ONE_LESSONS = ("vinte_e_um_pontos", "vinte_e_um_rodada", "vinte_e_um_banca")


def test_the_picker_offers_21s_lesson_questions_drawn_from_the_seed_in_both_languages(turma):
    _store, made = turma
    projector = LiveProjector(lang="en", seed=5)
    projector.start(made.code, made.key)
    offered = {value: label for label, value in projector.lesson.options}
    assert set(TWENTY_ONE_LESSONS) <= set(offered)
    assert offered["vinte_e_um_pontos"] == "21: what a hand is worth"  # the index's title of the lesson
    skills = set()
    for _ in range(6):
        for lesson in TWENTY_ONE_LESSONS:
            question = projector.draw_question(lesson)
            assert 2 <= len(question["options"]) <= 12 and 0 <= question["answer"] < len(question["options"])
            for part in ("prompt", "why"):
                assert question[part]["pt"] != question[part]["en"]  # both languages
            skills.add(question["skill"])
    assert skills == {"score_21_hand", "who_wins_21_call", "hit_or_stand", "pass_the_bank"}  # every kind


@pytest.mark.parametrize("seed", range(8))
def test_a_21_scoring_question_keys_the_engines_total_and_judgement(seed):
    from functools import partial

    import numpy as np

    from cartas.cards import Card
    from cartas.questions import draw_question
    from cartas.vinte_e_um import judge_call, points
    question = partial(draw_question, "vinte_e_um_pontos")  # the lesson's kinds, from the registry

    asked = question(np.random.default_rng(seed))
    if asked.key[0] == "worth":
        _, ace, shown = asked.key
        assert asked.answer == points([Card.parse(c) for c in shown.split()], ace)
        assert asked.answer in [v for v, _ in asked.options] and len(asked.options) >= 5
    else:
        player, banker = re.findall(r": ([^·]+)", asked.key[1])
        winner = judge_call([Card.parse(c) for c in player.split()], [Card.parse(c) for c in banker.split()], 1)[2]
        assert asked.answer == winner and [v for v, _ in asked.options] == ["player", "banker"]


def test_a_21_question_answered_on_a_phone_counts_for_her_skill(turma):
    from classroom.mastery import learner_levels

    store, made = turma
    projector = LiveProjector(lang="en", seed=2)
    projector.start(made.code, made.key)
    ana = _sign_in(store, made.code, "Ana", "2468", "b-ana-phone-21")
    phone = LivePhone(lang="en", code=projector.session["code"])
    projector.lesson.value = "vinte_e_um_rodada"
    projector.ask_button.click()
    phone.refresh()
    phone.buttons.children[projector.board["answer"]].click()
    assert learner_levels(store, ana.key)["hit_or_stand"]["right"] == 1
    assert learner_progress(store, ana.key)["vinte_e_um_rodada"]["right"] == 1


@pytest.mark.parametrize("answer", range(6))
def test_the_right_answers_bar_has_one_fixed_colour_and_a_tick_whatever_its_option(answer):
    """Issue 29 item 5: the right bar was its option's palette colour (red for option 1)."""
    from widgets.components.live import BAR_COLOURS, RIGHT_COLOUR, histogram_html
    board = {"options": [{"pt": str(k), "en": str(k)} for k in range(6)], "counts": [1, 2, 3, 1, 2, 3],
             "answer": answer}
    bars = re.findall(r"<div class='cartas-live-bar'.*?</div>", histogram_html(board, "en", reveal=True))
    assert len(bars) == 6 and RIGHT_COLOUR not in BAR_COLOURS
    for k, bar in enumerate(bars):
        assert (RIGHT_COLOUR in bar) == (k == answer) and ("✓" in bar) == (k == answer)
    hidden = histogram_html(board, "en", reveal=False)
    assert RIGHT_COLOUR not in hidden and "✓" not in hidden  # nothing given away while open


def test_a_phone_says_each_question_once_as_it_opens_in_its_language_through_its_live_region(turma):
    """aula_aluno had no live region: a screen reader heard neither the question nor the verdict
    (issue 30 item 8). The verdict is said by the region itself (it watches .cartas-right/-wrong)."""
    from widgets.components.announce import in_words, text_of

    store, made = turma
    projector = LiveProjector(lang="en", seed=5)
    projector.start(made.code, made.key)
    _sign_in(store, made.code, "Bia", "1357", "b-bia-phone-02")
    phone = LivePhone(lang="pt", code=projector.session["code"])
    assert phone.announcer is not None and phone.announcer in phone.children[0].children
    assert phone.announcer.text == ""  # nothing asked yet, nothing said
    projector.seconds.value = 30
    projector.ask_button.click()
    phone.refresh()
    prompt = projector.board["prompt"]
    said = phone.announcer.said
    assert phone.announcer.text == in_words(" ".join(text_of(prompt["pt"]).split()), "pt")
    phone.refresh()
    phone.language.value = "en"  # a poll or a redraw in the other language says it no second time
    assert phone.announcer.said == said
    projector.close_button.click()
    projector.ask_button.click()  # the next question is said in the phone's language now
    phone.refresh()
    assert phone.announcer.text == in_words(" ".join(text_of(projector.board["prompt"]["en"]).split()), "en")
    assert phone.announcer.said["count"] == said["count"] + 1
