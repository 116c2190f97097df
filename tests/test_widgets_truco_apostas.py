"""The betting lab, driven as a learner would, on a real engine state."""
from widgets.pages.truco_apostas import BettingLab, ladder_rows


def value_shown(view):
    return int(view.status.value.split("data-value='")[1].split("'")[0])


def test_both_ladders_come_from_the_engine():
    assert [r[1] for r in ladder_rows("paulista")] == [1, 3, 6, 9, 12]
    assert [r[1] for r in ladder_rows("mineiro")] == [2, 4, 6, 10, 12]
    assert [r[2] for r in ladder_rows("mineiro")][1:] == [2, 4, 6, 10]
    view = BettingLab(seed=3)
    assert "data-values='1-3-6-9-12'" in view.ladders.value
    assert "data-values='2-4-6-10-12'" in view.ladders.value


def test_raise_reraise_accept_shows_value_turn_and_run_value():
    view = BettingLab(seed=3)
    first = view.state.current_seat
    view.raise_button.click()
    assert value_shown(view) == 1 and "data-points='1'" in view.status.value
    assert f"Assento {(first + 1) % 4}" in view.status.value
    view.raise_button.click()                      # seis: accepts truco, running now pays 3
    assert value_shown(view) == 3 and "data-points='3'" in view.status.value
    view.accept_button.click()
    assert value_shown(view) == 6 and "cartas-run-value" not in view.status.value
    assert "aceita: a mão vale 6" in view.story.value


def test_a_team_cannot_raise_twice_in_a_row():
    view = BettingLab(seed=3)
    view.raise_button.click()
    view.accept_button.click()
    assert view.state.current_seat % 2 == view.state.last_raise_team
    view.raise_button.click()
    team = "AB"[view.state.last_raise_team]
    assert (f"Não é possível: a dupla {team} (assentos" in view.message.value
            and "não pode aumentar de novo" in view.message.value)
    assert "team" not in view.message.value and "raised last" not in view.message.value
    assert value_shown(view) == 3
    view.language.value = "en"                     # the same refusal, in English
    view.raise_button.click()
    assert "Not possible:" in view.message.value and "cannot raise again" in view.message.value


def test_running_ends_the_hand_with_the_engine_points():
    view = BettingLab(seed=3, variant="mineiro")
    view.raise_button.click()
    view.run_button.click()
    assert "cartas-over" in view.status.value and "2 pontos" in view.status.value
    assert view.raise_button.disabled and not view.play_buttons.children
    view.new_button.click()
    assert value_shown(view) == 2


def test_playing_a_card_passes_the_turn():
    view = BettingLab(seed=3)
    seat = view.state.current_seat
    view.play_buttons.children[0].click()
    assert view.state.current_seat == (seat + 1) % 4
    assert view.table.value.count("cartas-trick-card") == 1


def test_language_and_exercises():
    view = BettingLab(seed=8)
    view.language.value = "en"
    assert view.accept_button.description == "Accept" and "The hand is worth" in view.status.value
    ex = view.exercises
    ex.next_button.click()  # the learner presses "Começar"
    for _ in range(4):
        ex.answer(ex.question.answer)
        ex.next_button.click()
    assert ex.score.right == 4 and "Score: 4 of 4" in ex.score_label.value


def test_an_illegal_move_becomes_a_friendly_message():
    view = BettingLab(seed=3)
    view.run_button.click()                        # nothing to run from
    assert "Não é possível: não há pedido de truco para correr" in view.message.value
    assert "Traceback" not in view.message.value
    view.seed.value = -1  # Enter in the seed box deals that seed: refused beside the box
    assert "Não é possível" in view._error_slots[id(view.seed)].value and view.message.value == ""
    view.new_button.click()  # Nova mão draws a good seed
    assert view.message.value == "" and view.seed.value >= 0


def test_a_betting_question_never_states_the_value_it_asks_for():
    view = BettingLab(seed=11)
    ex = view.exercises
    ex.next_button.click()  # the learner presses "Começar"
    seen_accept = False
    for _ in range(25):
        prompt = ex.question.prompt["pt"]
        assert "a mão vale" not in prompt and "passa a valer" not in prompt
        assert "is worth" not in ex.question.prompt["en"].split("?")[0].replace("What is the hand worth now", "")
        seen_accept |= "aceita." in prompt
        ex.next_button.click()
    assert seen_accept  # acceptances are still told, only without their value


def test_nova_mao_deals_new_cards_and_a_typed_seed_replays_its_deal():
    view = BettingLab(seed=3)
    first = [list(h) for h in view.state.hands]
    view.new_button.click()
    assert [list(h) for h in view.state.hands] != first
    seed = view.seed.value
    again = BettingLab(seed=8)
    again.seed.value = seed  # Enter in the seed box deals that seed
    assert [list(h) for h in again.state.hands] == [list(h) for h in view.state.hands]


def test_a_disabled_answer_button_loses_its_colour():
    view = BettingLab(seed=3)
    for button in (view.accept_button, view.run_button):  # nothing to answer yet
        assert button.disabled and button.button_style == ""
    view.raise_button.click()
    assert not view.accept_button.disabled and view.accept_button.button_style == "success"
    assert not view.run_button.disabled and view.run_button.button_style == "warning"
    view.accept_button.click()
    assert view.accept_button.disabled and view.accept_button.button_style == ""
    assert view.run_button.disabled and view.run_button.button_style == ""
    assert not view.raise_button.disabled and view.raise_button.button_style == "danger"


def test_a_second_click_on_a_played_cards_button_plays_no_other_card_and_makes_no_widget():
    from ipywidgets.widgets.widget import _instances  # what ipywidgets.Widget.widgets returns
    view = BettingLab(seed=3)
    first = view.play_buttons.children[0]
    first.click()
    played = len(view.state.events)
    first.click()                                     # the same button again: its card is on the table
    assert len(view.state.events) == played and view.message.value
    made = len(_instances)
    for _ in range(30):                               # hands dealt and played through
        view.new_button.click()
        while view.play_buttons.children:
            view.play_buttons.children[0].click()
    assert len(_instances) <= made + 3 * 40           # a button (its layout, its style) per card at most
