"""Answers kept whole from the pages, and feedback to the learner (issue 32, items 1 and 5): a
lesson's and the review's answers are stored with their question's kind, seed and choice; a
wrong answer names its misconception kindly with the rule that corrects it, in both languages;
the daily review favours the kinds where her misconceptions persist."""
from __future__ import annotations

import time

import pytest

from cartas import questions
from cartas.questions import SLIP
from classroom import answers as whole, identity as ids
from classroom.classes import create_class
from classroom.progress import open_store
from widgets.components import learner as identity, scores
from widgets.pages.manilhas import ManilhaExplorer
from widgets.pages.revisao import Review


@pytest.fixture
def turma(store_location):
    return create_class(open_store(store_location), "7º B")


def sign_in(code, name="Ana", browser="browser-ana-001"):
    scores.reset_session()
    joined = ids.join(open_store(), code, name, "4321", browser)
    identity.widget().set_learner(joined.learner, joined.token)
    return joined.learner


def named_wrong(question):
    """A wrong value of `question` that reveals a named misconception (not a slip)."""
    return next(c.value for c in question.choices if c.misconception not in (None, SLIP))


def click(buttons, question, value, lang):
    label = dict(question.options)[value][lang]
    next(b for b in buttons if b.description == label).click()


@pytest.mark.parametrize("lang, opening", [("pt", "Parece que você pensou que"),
                                           ("en", "It looks like you thought")])
def test_a_wrong_lesson_answer_names_its_misconception_kindly_with_the_rule(turma, lang, opening):
    ana = sign_in(turma.code)
    view = ManilhaExplorer(lang=lang, seed=3)
    ex = view.exercises
    ex.next_button.click()
    q = ex.question
    wrong = named_wrong(q)
    click(ex.buttons.children, q, wrong, lang)
    key = q.misconception(wrong)
    shown = ex.feedback.value
    assert opening in shown and questions.misconception(key).text[lang] in shown
    assert f"data-misconception='{key}'" in shown and q.reason[lang] in shown  # the rule that corrects it
    # kept whole: the question comes back from its seed, with the choice made and its misconception
    [kept] = whole.answers_of(open_store(), ana.key)
    assert (kept.context, kept.kind, kept.misconception, kept.correct) == ("lesson:manilhas", q.kind, key, False)
    assert kept.question() == q and kept.chosen == whole.value_text(wrong)
    assert kept.seconds is not None and 0 <= kept.seconds < 60


def test_a_right_answer_and_a_slip_name_no_misconception(turma):
    sign_in(turma.code)
    view = ManilhaExplorer(lang="en", seed=5)
    ex = view.exercises
    ex.next_button.click()
    click(ex.buttons.children, ex.question, ex.question.answer, "en")
    assert "It looks like" not in ex.feedback.value and "cartas-misconception" not in ex.feedback.value


def _plant(learner, kind_key: str, times: int, at: float, variant: str | None = None) -> str:
    """`times` wrong answers of `learner` to kind `kind_key`, each revealing the same named
    misconception; returns its key."""
    kind = questions.find_kind(kind_key)
    planted, seed, made = None, 0, []
    while len(made) < times:
        q = kind.make_seeded(seed, variant)
        seed += 1
        for c in q.choices:
            if c.misconception not in (None, SLIP) and (planted is None or c.misconception == planted):
                planted = c.misconception
                made.append(whole.answer_to(q, c.value, learner_id=learner.key, context=f"lesson:{kind.lesson}",
                                            at=at + seed))
                break
    whole.record(open_store(), learner, made)
    assert planted is not None
    return planted


def _right(learner, kind_key: str, times: int, at: float) -> None:
    kind = questions.find_kind(kind_key)
    made = [kind.make_seeded(100 + n) for n in range(times)]
    whole.record(open_store(), learner, [whole.answer_to(q, q.answer, learner_id=learner.key,
                                                         context=f"lesson:{kind.lesson}", at=at + n)
                                         for n, q in enumerate(made)])


def test_the_review_puts_first_the_kinds_where_her_misconception_persists(turma):
    ana = sign_in(turma.code)
    now = time.time()
    _plant(ana, "truco_rodadas.tied_hand", 2, now - 3600, "paulista")
    _right(ana, "truco_rodadas.tied_hand", 4, now - 1800)     # box 5: not due for 14 days
    _plant(ana, "truco_rodadas.trick_winner", 1, now - 900)   # due now (box 1), shown once
    from classroom import mastery
    assert mastery.due_skills(open_store(), ana.key) == ["trick_winner"]
    review = Review(lang="en", seed=4)
    assert review.queue == ["tied_hand", "trick_winner"]  # not due by its box: her misconception persists
    review.next_button.click()
    assert review.question.kind == "truco_rodadas.tied_hand"


def test_a_misconception_shown_once_is_not_favoured(turma):
    ana = sign_in(turma.code)
    _plant(ana, "truco_rodadas.tied_hand", 1, time.time() - 3600, "paulista")
    assert whole.persisting(whole.answers_of(open_store(), ana.key)) == {}
    assert Review(lang="en", seed=4).favoured == {}


def test_old_misconceptions_no_longer_count_as_persisting(turma):
    ana = sign_in(turma.code)
    _plant(ana, "truco_rodadas.tied_hand", 3, time.time() - (whole.RECENT_DAYS + 2) * 86400, "paulista")
    assert whole.persisting(whole.answers_of(open_store(), ana.key)) == {}


@pytest.mark.parametrize("lang, opening", [("pt", "Parece que você pensou que"),
                                           ("en", "It looks like you thought")])
def test_a_wrong_review_answer_names_the_misconception_links_the_lesson_and_is_kept(turma, lang, opening):
    ana = sign_in(turma.code)
    _plant(ana, "truco_rodadas.tied_hand", 2, time.time() - 3600, "paulista")
    before = len(whole.answers_of(open_store(), ana.key))
    review = Review(lang=lang, seed=4)
    review.next_button.click()
    q = review.question
    wrong = named_wrong(q)
    review.answer(wrong)
    shown = review.feedback.value
    assert opening in shown and questions.misconception(q.misconception(wrong)).text[lang] in shown
    assert "truco_rodadas.ipynb" in shown and "cartas-misconception-link" in shown
    mine = whole.answers_of(open_store(), ana.key)
    assert len(mine) == before + 1 and mine[-1].context == "review" and mine[-1].question() == q


def test_a_21_bank_answer_is_kept_whole_and_a_wrong_one_names_its_misconception(turma):
    from widgets.pages.vinte_e_um_banca import BankRotation
    ana = sign_in(turma.code)
    view = BankRotation(lang="en", seed=7)
    for _ in range(6):  # until a question offers a named wrong choice
        asked = questions.find_kind(f"vinte_e_um_banca.{view.q_kind}").make_seeded(view.q_seed)
        if asked.answer == view.correct_answer() and any(c.misconception not in (None, SLIP) for c in asked.choices):
            break
        view.new_question()
    wrong = named_wrong(asked)
    view.answer(wrong)
    assert "It looks like you thought" in view.block.feedback.value
    [kept] = whole.answers_of(open_store(), ana.key)
    assert kept.kind == asked.kind and kept.misconception == asked.misconception(wrong) and not kept.correct
    assert kept.question() == asked and kept.context == "lesson:vinte_e_um_banca"


def test_a_21_call_answer_is_kept_whole_and_a_wrong_one_names_its_misconception(turma):
    from widgets.pages.vinte_e_um_pontos import HandScorer
    ana = sign_in(turma.code)
    view = HandScorer(lang="en", seed=11)
    asked = None
    for _ in range(60):  # until a call question offers a named wrong choice
        view.new_question()
        if view.kind == "call":
            seed = view._call_seeds[("call", view.q_ace, tuple(view.q_hand), tuple(view.q_banker))]
            asked = questions.find_kind("vinte_e_um_pontos.call").make_seeded(seed)
            if any(c.misconception not in (None, SLIP) for c in asked.choices):
                break
    assert asked is not None
    wrong = named_wrong(asked)
    view.answer(wrong)
    assert "It looks like you thought" in view.block.feedback.value
    [kept] = whole.answers_of(open_store(), ana.key)
    assert (kept.kind, kept.chosen, kept.correct) == ("vinte_e_um_pontos.call", wrong, False)
    assert kept.question() == asked and kept.misconception == asked.misconception(wrong)


def test_a_21_worth_answer_typed_among_the_choices_is_kept_whole(turma):
    from widgets.pages.vinte_e_um_pontos import HandScorer
    ana = sign_in(turma.code)
    view = HandScorer(lang="pt", seed=5)
    asked = None
    for _ in range(60):
        view.new_question()
        if view.kind == "worth":
            seed = view._call_seeds[("worth", view.q_ace, tuple(view.q_hand), ())]
            asked = questions.find_kind("vinte_e_um_pontos.worth").make_seeded(seed)
            if any(c.misconception not in (None, SLIP) for c in asked.choices):
                break
    assert asked is not None
    wrong = named_wrong(asked)
    view.answer(wrong)
    assert "Parece que você pensou que" in view.block.feedback.value
    [kept] = whole.answers_of(open_store(), ana.key)
    assert (kept.kind, kept.chosen, kept.misconception) == ("vinte_e_um_pontos.worth", str(wrong),
                                                             asked.misconception(wrong))


def test_a_21_worth_typed_outside_the_choices_is_kept_whole_and_names_its_misconception(turma):
    """The face cards counted by rank often give a total no choice shows: typed, it is still
    the question's to judge, and the answer is kept whole with the typed total as the choice."""
    from widgets.pages.vinte_e_um_pontos import HandScorer
    ana = sign_in(turma.code)
    view = HandScorer(lang="en", seed=5)
    asked = typed = None
    for _ in range(80):
        view.new_question()
        if view.kind == "worth":
            seed = view._call_seeds[("worth", view.q_ace, tuple(view.q_hand), ())]
            asked = questions.find_kind("vinte_e_um_pontos.worth").make_seeded(seed)
            shown = {c.value for c in asked.choices}
            typed = next((n for n in range(40) if n not in shown
                          and asked.misconception(n) == "face_cards_by_rank"), None)
            if typed is not None:
                break
    assert asked is not None and typed is not None
    assert view.answer_typed(str(typed)) is False
    shown = view.block.feedback.value
    assert "It looks like you thought" in shown and questions.misconception("face_cards_by_rank").text.en in shown
    [kept] = whole.answers_of(open_store(), ana.key)
    assert (kept.kind, kept.chosen, kept.correct, kept.misconception) == (
        "vinte_e_um_pontos.worth", str(typed), False, "face_cards_by_rank")
    assert kept.question() == asked and kept.choices == tuple(str(c.value) for c in asked.choices)


def test_a_21_round_decision_is_kept_whole_and_a_wrong_one_names_its_misconception(turma):
    from widgets.pages.vinte_e_um_rodada import RoundStepper
    ana = sign_in(turma.code)
    view = RoundStepper(lang="en", seed=9)
    view.new_question()
    seed = view._seeds[view.q_kind, str(view.q_state.hands), str(view.q_state.current_seat)]
    asked = questions.find_kind(f"vinte_e_um_rodada.{view.q_kind}").make_seeded(seed)
    assert asked.answer == view.should_take()  # the page's question is the registry's of that seed
    wrong = named_wrong(asked)
    view.answer(wrong)
    assert "It looks like you thought" in view.block.feedback.value
    [kept] = whole.answers_of(open_store(), ana.key)
    assert kept.kind == asked.kind and kept.misconception == asked.misconception(wrong) and kept.question() == asked


def test_many_whole_answers_waiting_in_the_kernel_are_all_saved_in_small_records(store_location, monkeypatch):
    from classroom import interface
    sizes: list[int] = []
    keep = interface.StoreClassroom.record_answers

    def counted(self, learner, answers):
        sizes.append(len(answers))
        return keep(self, learner, answers)
    monkeypatch.setattr(interface.StoreClassroom, "record_answers", counted)
    scores.reset_session()  # nobody known yet: the answers wait
    kind = questions.find_kind("manilhas.rank_from_vira")
    for seed in range(scores.WHOLE_BATCH * 2 + 7):
        q = kind.make_seeded(seed)
        scores.recorder().add("manilhas", True, q.skill, whole.answer_to(q, q.answer, learner_id="", context="review"))
    identity.widget().stored = {"browser_id": "b-ana-browser", "name": "Ana", "class_code": "", "count": 1}
    assert scores.recorder().pending == []
    assert sizes == [scores.WHOLE_BATCH, scores.WHOLE_BATCH, 7]
    mine = whole.answers_of(open_store(), ids.Learner.make("b-ana-browser", "Ana").key)
    assert [a.seed for a in mine] == list(range(scores.WHOLE_BATCH * 2 + 7))


@pytest.mark.parametrize("lang, opening", [("pt", "Parece que você pensou que"),
                                           ("en", "It looks like you thought")])
def test_a_wrong_live_answer_names_its_misconception_on_the_phone_once_the_question_closes(store_location, lang,
                                                                                           opening):
    from widgets.pages.aula import LiveProjector
    from widgets.pages.aula_aluno import LivePhone
    store = open_store(store_location)
    made = create_class(store, "7º B")
    projector = LiveProjector(lang=lang, seed=3)
    projector.start(made.code, made.key)
    scores.reset_session()
    joined = ids.join(store, made.code, "Ana", "2468", "b-ana-phone-01")
    identity.widget().set_learner(joined.learner, joined.token)
    phone = LivePhone(lang=lang, code=projector.session["code"])
    projector.lesson.value = "manilhas"
    projector.ask_button.click()
    phone.refresh()
    said = projector.board["misconceptions"]
    wrong = next(k for k, m in enumerate(said) if m not in (None, SLIP))
    phone.buttons.children[wrong].click()
    phone.refresh()
    assert opening not in phone.feedback.value  # nothing said while the question is open
    projector.close_button.click()
    phone.refresh()
    assert opening in phone.feedback.value and questions.misconception(said[wrong]).text[lang] in phone.feedback.value
    [kept] = whole.answers_of(store, joined.learner.key)
    assert kept.misconception == said[wrong] and kept.context.startswith("live:")
    projector.end_button.click()
    phone.refresh()
    assert not projector.ticker.active and not phone.ticker.active
