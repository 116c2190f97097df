"""The mão de onze / mão de dez and mão de ferro lab, driven as a learner would."""
import re

import ipywidgets as w

from widgets.pages.truco_mao_de_onze import ThresholdLab


def seats_cards(html):
    return dict(re.findall(r'data-seat="(\d)".*?data-card="([^"]+)"', html))


def test_the_decider_sees_its_partners_cards_and_both_choices():
    view = ThresholdLab(seed=2)
    seat = view.decider
    shown = seats_cards(view.onze_table.value)
    assert shown[str(seat)] != "back" and shown[str((seat + 2) % 4)] != "back"
    assert shown[str((seat + 1) % 4)] == "back" and shown[str((seat + 3) % 4)] == "back"
    assert "data-value='3'" in view.onze_info.value and "data-points='1'" in view.onze_info.value
    assert view.call_button.disabled and not view.play_hand_button.disabled


def test_running_gives_the_other_team_the_run_value():
    view = ThresholdLab(seed=2, variant="mineiro")
    assert "mão de dez" in view.onze_info.value and "data-points='2'" in view.onze_info.value
    view.run_hand_button.click()
    assert "corre da mão de dez" in view.onze_story.value and "2 pontos" in view.onze_story.value


def test_a_raise_in_the_mao_de_onze_loses_the_game():
    view = ThresholdLab(seed=2)
    view.play_hand_button.click()
    assert not view.call_button.disabled
    view.call_button.click()
    assert "proibido" in view.onze_story.value and "vence o jogo" in view.onze_story.value
    assert view.onze.is_terminal()


def test_playing_to_the_end_scores_the_threshold_value():
    view = ThresholdLab(seed=2)
    view.play_hand_button.click()
    view.finish_button.click()
    assert "leva a mão e 3 pontos (placar 14 x 2)" in view.onze_story.value
    assert view.onze_table.value == "" and view.finish_button.disabled


def test_mao_de_ferro_is_played_blind_by_position():
    view = ThresholdLab(seed=2)
    assert set(seats_cards(view.ferro_table.value).values()) == {"back"}
    view.blind_buttons[2].click()
    assert "às cegas a 3ª carta" in view.ferro_story.value
    assert view.blind_buttons[2].disabled is False  # the next seat still holds three cards
    view.ferro_call.click()
    assert "ninguém pode pedir truco na mão de ferro" in beside(view, view.ferro_call)


def beside(view, control):
    """The error slot next to the row of `control` (View.beside)."""
    slot = view._slot_for(control)
    assert slot is not None
    return slot.value


def test_a_refusal_shows_beside_the_buttons_that_caused_it_not_above():
    view = ThresholdLab(seed=2)
    view.ferro_call.click()  # "Pedir truco" in the mão de ferro
    assert "cartas-error" in beside(view, view.ferro_call) and view.message.value == ""
    row = next(c for c in view.children
               if isinstance(c, w.HBox) and c.children and view.ferro_call in getattr(c.children[0], "children", ()))
    assert view.children.index(row) > view.children.index(view.ferro_info)  # under the mão de ferro's text
    view.blind_buttons[0].click()  # the next move clears it
    assert beside(view, view.ferro_call) == ""
    view.play_hand_button.click()
    view.run_hand_button.click()  # the decision is made already: the refusal shows in the onze row
    assert "Não é possível" in beside(view, view.run_hand_button) and view.message.value == ""


def test_language_and_exercises():
    view = ThresholdLab(seed=6)
    view.language.value = "en"
    assert view.play_hand_button.description == "Play the hand" and "It is a mão de onze" in view.onze_info.value
    ex = view.exercises
    ex.next_button.click()  # the learner presses "Começar"
    seen = set()
    for _ in range(6):
        seen.add(ex.question.answer)
        ex.answer(ex.question.answer)
        assert "cartas-right" in ex.feedback.value
        ex.next_button.click()
    assert "loses" in seen and ex.score.right == 6


def test_an_illegal_move_becomes_a_friendly_message():
    view = ThresholdLab(seed=2)
    view.play_hand_button.click()
    view.run_hand_button.click()                  # the decision is already made
    said = beside(view, view.run_hand_button)
    assert "Não é possível" in said and "Traceback" not in said


def test_disabled_buttons_lose_their_colour():
    view = ThresholdLab(seed=2)
    assert view.play_hand_button.button_style == "success" and view.call_button.disabled
    assert view.call_button.button_style == ""
    view.play_hand_button.click()
    for button in (view.play_hand_button, view.run_hand_button):
        assert button.disabled and button.button_style == ""
    assert not view.call_button.disabled and view.call_button.button_style == "danger"
