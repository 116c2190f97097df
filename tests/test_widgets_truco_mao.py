"""The truco table picture and the deal stepper, driven as a learner would."""
import re

from cartas.truco import from_deal, narrate, new_game
from widgets.draw.truco_table import Table, table_html
from widgets.pages.truco_mao import DealStepper, build_steps

HANDS = [["7♥", "A♠", "4♦"], ["3♣", "2♦", "K♥"], ["5♠", "6♠", "Q♦"], ["J♣", "J♦", "K♠"]]


def cards_of_seat(html, seat):
    box = re.split(r'class="cartas-(?:seat|trick)"', html.split(f'data-seat="{seat}"')[1])[0]
    return re.findall(r'data-card="([^"]+)"', box)


def test_table_shows_seats_teams_vira_manilhas_and_score():
    state = from_deal("paulista", HANDS, vira="6♣", dealer=3, score=(4, 7))
    html = table_html(state, "pt")
    assert re.findall(r'data-seat="(\d)" data-team="(\w)"', html) == [
        ("0", "A"), ("1", "B"), ("2", "A"), ("3", "B")]
    assert cards_of_seat(html, 1) == ["3♣", "2♦", "K♥"]
    assert "data-card='6♣'" in html                        # the vira
    manilhas = html.split("cartas-table-manilhas")[1]
    assert re.findall(r'data-card="([^"]+)"', manilhas) == ["7♦", "7♠", "7♥", "7♣"]
    assert "Dupla A: 4" in html and "Dupla B: 7" in html
    assert "data-value='1'" in html
    assert "dá as cartas" in html.split('data-seat="3"')[1].split("cartas-hand")[0]


def test_a_seat_view_hides_the_other_hands():
    state = from_deal("paulista", HANDS, vira="6♣", dealer=3)
    html = table_html(state.view(2), "en")
    assert cards_of_seat(html, 2) == ["5♠", "6♠", "Q♦"]
    assert cards_of_seat(html, 1) == ["back"] * 3
    assert "you" in html.split('data-seat="2"')[1].split("cartas-hand")[0]
    hidden = table_html(state, "pt", reveal={0})
    assert cards_of_seat(hidden, 0) == ["7♥", "A♠", "4♦"] and cards_of_seat(hidden, 3) == ["back"] * 3


def test_table_draws_the_current_trick_and_highlights():
    state = from_deal("mineiro", HANDS, dealer=3)
    state.apply_action("play 7♥")
    html = table_html(Table.from_state(state), "pt", highlight={"7♥": "winner"})
    trick = html.split('class="cartas-trick-card" data-seat="0"')[1]
    assert 'data-card="7♥"' in trick.split("</svg>")[0]
    assert "#2e7d32" in trick.split("</svg>")[0]           # the winner ring
    assert "Sem vira" in html


def test_steps_deal_card_by_card_then_turn_the_vira():
    steps = build_steps("paulista", 7)
    deal = new_game("paulista", 7).events[0]
    assert steps[0]["table"].pack == 40 and all(not h for h in steps[0]["table"].hands)
    after_deal = steps[12]["table"]
    assert [[str(c) for c in h] for h in after_deal.hands] == deal["hands"]
    assert sum(len(h) for h in steps[5]["table"].hands) == 5
    assert steps[13]["text"]["pt"] == narrate(deal, "pt")
    assert str(steps[13]["table"].vira) == deal["vira"]


def test_forward_back_restart_and_replay_by_seed():
    view = DealStepper(seed=3)
    view.seed.value = 7
    view.deal_button.click()
    first = view.narration.value
    for _ in range(14):
        view.forward_button.click()
    assert "Mão 1" in view.history.value or "joga" in view.narration.value
    view.back_button.click()
    assert view.index == 13 and "a vira é 4♣" in view.narration.value
    view.restart_button.click()
    assert view.index == 0 and view.narration.value == first and view.back_button.disabled
    view.go(len(view.steps) - 1)
    assert view.forward_button.disabled and "leva a mão" in view.narration.value
    again = DealStepper(seed=99)
    again.seed.value = 7
    again.deal_button.click()
    assert [s["text"]["pt"] for s in again.steps] == [s["text"]["pt"] for s in view.steps]


def test_tricks_are_narrated_with_the_winner_highlighted():
    view = DealStepper(seed=1)
    view.seed.value = 7
    view.deal_button.click()
    trick = next(i for i, s in enumerate(view.steps) if "vence a 1ª rodada" in s["text"]["pt"])
    view.go(trick)
    assert "leva a rodada" in view.narration.value
    assert "#2e7d32" in view.table.value


def test_mineiro_has_no_vira_and_language_switches():
    view = DealStepper(seed=1, variant="mineiro")
    view.go(13)
    assert "vira" not in view.narration.value
    assert view.steps[13]["table"].vira is None
    assert "Sem vira" in view.table.value
    view.language.value = "en"
    assert view.forward_button.description == "Forward ▶" and "No vira" in view.table.value
    assert "Hand 1" in view.narration.value


def test_exercises_answer_at_once_and_keep_score():
    view = DealStepper(seed=5)
    ex = view.exercises
    ex.next_button.click()  # the learner presses "Começar"
    for _ in range(4):
        q = ex.question
        wrong = next(v for v, _ in q.options if v != q.answer)
        ex.answer(wrong)
        assert "cartas-wrong" in ex.feedback.value
        ex.answer(q.answer)  # a second click neither scores nor flips the verdict
        assert "cartas-wrong" in ex.feedback.value and "cartas-right" not in ex.feedback.value
        ex.next_button.click()
    assert ex.score.asked == 4 and ex.score.right == 0
    assert "Acertos: 0 de 4" in ex.score_label.value
    correct = ex.question.answer
    label = dict(ex.question.options)[correct]  # a Text, in both languages
    next(b for b in ex.buttons.children
         if b.description == label["pt"]).click()
    assert ex.score.right == 1


def test_a_bad_seed_is_refused_beside_the_seed_box():
    view = DealStepper(seed=1)
    view.seed.value = -5
    view.deal_button.click()
    slot = view._error_slots[id(view.seed)].value
    assert "Não é possível" in slot and "Traceback" not in slot and view.message.value == ""
    assert view.steps  # the previous hand is still there


def test_every_truco_lesson_is_listed_and_its_progress_reaches_the_index():
    from widgets.pages.index import LESSONS, CourseIndex
    keys = {lesson.key: lesson.notebook for lesson in LESSONS}
    for key in ("truco_mao", "truco_rodadas", "truco_apostas", "truco_mao_de_onze", "truco_mineiro"):
        assert keys[key] == f"{key}.ipynb"
    view = DealStepper(seed=5)
    view.exercises.new_question()
    view.exercises.answer(view.exercises.question.answer)
    index = CourseIndex(lang="pt")
    row = index.table.value.split("data-lesson='truco_mao'")[1].split("</tr>")[0]
    assert "truco_mao.ipynb?lang=pt" in row and "1 de 1 certas" in row


def test_a_re_raise_shows_the_accepted_value_on_the_table():
    from widgets.pages.truco_mao import build_steps, play_first_hand
    # seed 155: a bot asks truco, the other team answers with seis straight away
    assert [e["reraise"] for e in play_first_hand("paulista", 155) if e["type"] == "raise"] == [False, True]
    asked = [(s["table"].hand_value, s["table"].pending_raise["value"])
             for s in build_steps("paulista", 155) if s["table"].pending_raise]
    assert (3, 6) in asked and (1, 6) not in asked  # raising again accepted the truco


def test_each_play_says_who_is_winning_the_trick_so_far():
    from cartas.truco import trick_winning_seat
    from widgets.pages.truco_mao import build_steps
    steps = build_steps("paulista", 155)
    plays = [s for s in steps if " joga " in s["text"]["pt"] and s["table"].trick]
    assert plays[0]["text"]["pt"] == "Assento 1 joga 2♠."  # the first card of a trick leads alone
    lead = next(s for s in plays if "passa a ganhar" in s["text"]["pt"])
    table = lead["table"]
    assert trick_winning_seat(table.trick, table.variant, table.vira) == table.trick[-1][0]
    assert "takes the lead" in lead["text"]["en"]


def _turn_seat(html):
    """The seat whose box carries the "a vez" badge, or None."""
    boxes = re.split(r'(?=<div class="cartas-seat" data-seat=")', html)[1:]
    marked = [int(box[len('<div class="cartas-seat" data-seat="'):][0]) for box in boxes
              if "a vez</span>" in box.split("cartas-hand")[0]]
    assert len(marked) <= 1
    return marked[0] if marked else None


def test_the_turn_badge_is_on_the_seat_to_act_not_the_one_that_just_acted():
    from cartas.truco import hand_events
    from cartas.truco.bots import RuleBot
    for seed in (7, 11, 12):
        steps = build_steps("paulista", seed)
        state = new_game("paulista", seed)
        bots = [RuleBot(seed=seed * 4 + s) for s in range(4)]
        to_act = [state.current_seat]  # after each event of the hand: the engine's seat to act
        while state.last_hand is None:
            seat = state.current_seat
            state.apply_action(bots[seat].choose(state.view(seat)))
            new = len(hand_events(state.events, 1)) - len(to_act)
            to_act += [None if state.last_hand is not None else state.current_seat] * new
        after_deal = len(steps) - len(to_act)  # the vira step: the deal event
        shown = [_turn_seat(table_html(step["table"], "pt")) for step in steps[after_deal:]]
        assert shown == to_act and shown[-1] is None
        moved = [i for i in range(1, len(to_act)) if "joga" in steps[after_deal + i]["text"]["pt"]]
        # after a play that does not close a trick, the badge has moved on from the player
        assert any(shown[i] != steps[after_deal + i]["table"].trick[-1][0] for i in moved)


def test_the_manilha_question_marks_every_manilha_it_offers_right():
    """Issue 29, item 1: with the vira 4♣ the question offered 5♦ and 5♣ and took only 5♦; a
    learner who chose 5♣ was told "Não". Every manilha among the choices is the answer now:
    at most one is offered, and "nenhuma" is right exactly when none is."""
    import re

    from cartas.truco import MINEIRO, PAULISTA, is_manilha
    for variant in (PAULISTA, MINEIRO):
        view = DealStepper(variant=variant.key, seed=3)
        rng = view._rng()
        asked = 0
        while asked < 400:
            q = view._question(rng)
            if q.skill != "manilha_in_hand":
                continue
            asked += 1
            vira = re.search(r"The vira is (\S+)\.", q.prompt["en"])
            cards = [v for v, _ in q.options if v != "none"]
            right = [c for c in cards if is_manilha(c, variant, vira and vira.group(1))]
            assert right == ([] if q.answer == "none" else [q.answer]), (q.prompt["en"], cards, q.answer)
            view.exercises.question = q
            view.exercises.answers.ask()
            assert view.exercises.answer(right[0] if right else "none") is True
