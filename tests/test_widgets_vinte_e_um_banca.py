"""Bank rotation: each mode's example hands the bank on, as the engine rules."""
import pytest

from widgets.pages.vinte_e_um_banca import MODES, BankRotation, rotation_example


def change(view):
    html = view.story.value
    return html.split("data-from='")[1].split("'")[0], html.split("data-to='")[1].split("'")[0]


@pytest.mark.parametrize("mode, reason, seen", [
    ("rounds", "rounds", ["refuse_bank", "take_bank"]),
    ("natural", "natural", ["stand"]),
    ("auction", "auction", ["bid", "bid", "pass"]),
    ("sale", "sale", ["offer", "refuse_offer", "offer", "accept_offer"]),
])
def test_each_mode_shows_the_bank_changing_hands(mode, reason, seen):
    state, events = rotation_example(mode)
    kinds = [e["type"] for e in events]
    bank = next(e for e in events if e["type"] == "bank_change")
    assert bank["reason"] == reason and state.banker == bank["to"] != bank["from"]
    assert all(k in kinds for k in seen)
    assert sum(state.chips) + state.pot == state.total_chips


def test_view_switches_modes_and_marks_the_new_banker():
    view = BankRotation()
    assert "recusa a banca" in view.story.value and change(view) == ("0", "2")
    view.mode.value = "sale"
    assert "aceita a oferta de 4 fichas" in view.story.value
    assert 'data-banker="2"' in view.table.value
    view.mode.value = "natural"
    assert "21 com duas cartas" in view.story.value and change(view) == ("0", "1")
    assert len(view.mode.options) == len(MODES)


def test_language_switch_keeps_the_mode():
    view = BankRotation(mode="auction")
    view.language.value = "en"
    assert view.mode.value == "auction" and "bids 3 chips" in view.story.value
    assert "auction after every round" in [label for label, _ in view.mode.options]


def test_an_error_in_a_callback_becomes_a_friendly_message():
    view = BankRotation()
    view.guarded(lambda: rotation_example("lottery"))()
    assert "Não é possível" in view.message.value and "lottery" in view.message.value
    view.guarded(lambda: 1 / 0)()
    assert "Algo deu errado" in view.message.value and "Traceback" not in view.message.value


def test_exercise_answers_at_once_keeps_score_and_reaches_the_index():
    from widgets.pages.index import CourseIndex
    view = BankRotation(seed=2)
    right = view.correct_answer()
    assert "quem fica com a banca agora" in view.question.value and view.feedback.value == ""
    view.seat_buttons[right].click()
    assert "cartas-right" in view.feedback.value and "A banca passa do assento" in view.feedback.value
    view.seat_buttons[(right + 1) % 4].click()  # a second try does not count
    assert "Acertos: 1 de 1" in view.score_label.value
    view.next_button.click()
    assert view.feedback.value == "" and view.q_kind == "price"
    view.price_buttons[view.correct_answer() + 1].click()
    assert "cartas-wrong" in view.feedback.value and "Acertos: 1 de 2" in view.score_label.value
    assert "1 de 2 certas" in CourseIndex(lang="pt").table.value


def test_exercise_is_seeded_varied_and_its_answer_comes_from_the_engine():
    import numpy as np

    from widgets.pages.vinte_e_um_banca import rotation_question
    a, b = BankRotation(seed=5), BankRotation(seed=5)
    assert a.question.value == b.question.value and a.correct_answer() == b.correct_answer()
    rng = np.random.default_rng(0)
    seen = set()
    for _ in range(30):
        mode, state, story, change = rotation_question(rng)
        assert change["type"] == "bank_change" and change["reason"] == mode
        assert state.banker == change["to"] and all(e["type"] != "bank_change" for e in story)
        seen.add((mode, change["to"]))
    assert {m for m, _ in seen} == set(MODES) and len({to for _, to in seen}) == 3


def test_exercise_follows_the_language_switch():
    view = BankRotation(seed=2)
    view.seat_buttons[view.correct_answer()].click()
    view.language.value = "en"
    assert "who holds the bank now" in view.question.value
    assert "Right!" in view.feedback.value and view.seat_buttons[0].description == "Seat 0"


def test_an_engine_refusal_is_shown_in_portuguese():
    from cartas.vinte_e_um import new_game
    view = BankRotation()
    game = new_game(3, seed=1, banker=0)
    view.guarded(lambda: game.apply_action("bet 7"))()
    assert "Não é possível: uma aposta de 7 está fora dos limites de 1 a 5" in view.message.value
    view.language.value = "en"
    view.guarded(lambda: game.apply_action("bet 7"))()
    assert "Not possible: a bet of 7 is outside the limits 1 to 5" in view.message.value


def test_base_view_uses_message_lang_only_when_it_works():
    class Speaks(ValueError):
        def message(self, lang):
            return {"pt": "em português", "en": "in English"}[lang]

    class Broken(ValueError):
        def message(self, lang):
            raise KeyError(lang)

    view = BankRotation()
    view.guarded(lambda: (_ for _ in ()).throw(Speaks("raw")))()
    assert "em português" in view.message.value and "raw" not in view.message.value
    view.guarded(lambda: (_ for _ in ()).throw(Broken("plain text")))()
    assert "Não é possível: plain text" in view.message.value


def test_a_bank_question_never_tells_who_took_the_bank():
    from widgets.pages.vinte_e_um_banca import BankRotation
    view = BankRotation(seed=4)
    modes = set()
    for _ in range(20):
        text = view.question.value
        assert "aceita a oferta" not in text and "aceita a banca" not in text
        assert "passa do assento" not in text
        modes.add(view.q_mode)
        view.next_button.click()
    assert {"rounds", "sale"} <= modes


def test_a_second_click_keeps_the_first_verdict():
    from widgets.pages.vinte_e_um_banca import BankRotation
    view = BankRotation(seed=4)
    view.seat_buttons[(view.correct_answer() + 1) % 4].click()
    assert "cartas-wrong" in view.feedback.value
    view.seat_buttons[view.correct_answer()].click()
    assert "cartas-wrong" in view.feedback.value and view.score.asked == 1 and view.score.right == 0


def test_exercise_asks_in_turn_who_takes_the_bank_what_it_costs_and_who_made_a_two_card_21():
    view = BankRotation(seed=4)
    kinds, prices = [], {}
    for _ in range(12):
        kinds.append(view.q_kind)
        assert f"data-kind='{view.q_kind}'" in view.question.value
        if view.q_kind == "price":
            assert list(view.answers.children) == view.price_buttons
            assert "Quantas fichas o novo banqueiro paga" in view.question.value
            assert view.price_buttons[1].description == "1 ficha"
            price = view.q_change["price"]
            prices.setdefault(view.q_mode, set()).add(price)
            assert view.correct_answer() == price
            view.price_buttons[price].click()
        else:
            assert list(view.answers.children) == view.seat_buttons
            view.seat_buttons[view.correct_answer()].click()
        assert "cartas-right" in view.feedback.value
        view.next_button.click()
    assert kinds == ["seat", "price", "natural"] * 4
    assert prices.get("rounds", {0}) == {0} and prices.get("natural", {0}) == {0}
    assert any(p > 0 for mode in ("auction", "sale") for p in prices.get(mode, ()))


def test_a_wrong_price_is_answered_with_the_number_of_chips_asked_for():
    view = BankRotation(seed=4, lang="pt")
    seen = set()
    for _ in range(12):
        if view.q_kind == "price":
            price = view.correct_answer()
            view.price_buttons[(price + 1) % len(view.price_buttons)].click()
            chips = "1 ficha" if price == 1 else f"{price} fichas"
            assert "cartas-wrong" in view.feedback.value
            assert f"O novo banqueiro paga {chips} pela banca." in view.feedback.value
            view.language.value = "en"
            assert f"The new banker pays {price} chip{'' if price == 1 else 's'} for the bank." in view.feedback.value
            view.language.value = "pt"
            seen.add(price)
        view.next_button.click()
    assert any(p > 0 for p in seen)


def test_the_price_questions_close_the_buttons_they_no_longer_show():
    from ipywidgets.widgets.widget import _instances  # what ipywidgets.Widget.widgets returns
    view = BankRotation()
    for _ in range(4):
        view.new_question()
    made = len(_instances)
    for _ in range(40):                             # 20 price questions, 20 seat questions
        view.new_question()
    assert len(_instances) <= made + 3 * 8          # at most one question's buttons more
    assert all(button.comm is not None for button in view.answers.children)


@pytest.mark.parametrize("lang, opening", [("pt", "Parece que você pensou que"),
                                           ("en", "It looks like you thought")])
def test_the_natural_question_names_the_two_card_21_misconception_and_is_kept_whole(lang, opening):
    """The lesson asks the registry's natural-rotation question like its other kinds: the
    prompt is the question's, a wrong seat names its misconception with the rule, and the
    answer is stored whole (kind, seed, choices, the one chosen) for the learner."""
    from cartas import questions
    from classroom import answers as whole
    from classroom.identity import Learner
    from classroom.progress import open_store
    view = BankRotation(seed=3, lang=lang)
    asked = None
    for _ in range(30):  # natural questions until one shows a 21 that is not a two-card one
        view.next_button.click()
        if view.q_kind == "natural":
            asked = questions.find_kind("vinte_e_um_banca.natural").make_seeded(view.q_seed)
            if "two_card_21_is_just_21" in {c.misconception for c in asked.choices}:
                break
    assert asked is not None and asked == view.q_question  # the page's question is the registry's of its seed
    assert "data-kind='natural'" in view.question.value and asked.prompt[lang] in view.question.value
    assert view.correct_answer() == asked.answer and list(view.answers.children) == view.seat_buttons
    wrong = next(c.value for c in asked.choices if c.misconception == "two_card_21_is_just_21")
    view.seat_buttons[wrong].click()
    shown = view.feedback.value
    named = questions.misconception("two_card_21_is_just_21").text[lang]
    assert "cartas-wrong" in shown and opening in shown and named in shown and asked.reason[lang] in shown
    assert view.seat_buttons[wrong].description.startswith("✗ ")
    [kept] = whole.answers_of(open_store(), Learner.make("test-browser-0001").key)
    assert (kept.context, kept.kind, kept.skill) == ("lesson:vinte_e_um_banca", "vinte_e_um_banca.natural",
                                                     "pass_the_bank")
    assert (kept.seed, kept.chosen, kept.correct, kept.misconception) == (
        view.q_seed, whole.value_text(wrong), False, "two_card_21_is_just_21")
    assert kept.choices == tuple(whole.value_text(c.value) for c in asked.choices) and kept.question() == asked
