"""The odds explorer asks the engine and shows its numbers."""
from cartas.truco import hand_odds
from widgets.pages.chances_truco import TrucoOddsExplorer


def test_the_explorer_shows_the_engine_odds_and_refuses_bad_hands():
    view = TrucoOddsExplorer(seed=1, simulations=5000)
    expected = hand_odds("paulista", ["3♣", "2♦", "K♥"], "7♠", 0, 5000, 1)
    assert view.odds == expected
    assert f"data-win='{expected.hand_win:.4f}'" in view.result.value
    view.hand.value = "4♣ 7♥ A♠"
    view.variant.value = "mineiro"
    assert view.odds.hand_win == 1.0 and "100" in view.result.value
    before = view.odds
    view.hand.value = "4♣ 7♥"
    view.compute_button.click()
    assert "Não é possível" in view._error_slots[id(view.hand)].value and view.odds == before
    view.language.value = "en"
    assert "Your team takes the hand" in view.result.value


def slot(view, field):
    return view._error_slots[id(field)].value


def test_two_cards_are_refused_asking_for_three_beside_the_hand():
    view = TrucoOddsExplorer(seed=1, simulations=2000)
    view.hand.value = "3♣ 2♦"  # what Enter does: the field's value changes
    assert "precisa de 3 cartas; você deu 2" in slot(view, view.hand)
    assert "não 2" not in slot(view, view.hand) and view.message.value == ""


def test_a_card_twice_the_vira_in_hand_and_a_card_held_and_seen_are_refused():
    view = TrucoOddsExplorer(seed=1, simulations=2000)
    good = view.odds
    view.hand.value = "3♣ 3♣ K♥"
    assert "3♣ aparece duas vezes na sua mão" in slot(view, view.hand)
    view.hand.value = "3♣ 7♠ K♥"
    assert "7♠ é a vira" in slot(view, view.hand)
    view.hand.value = "3♣ 2♦ K♥"
    view.seen.value = "K♥ 4♦"
    assert "K♥ está na sua mão e também nas cartas já vistas" in slot(view, view.seen)
    assert view.odds == good  # the odds of the last good question stay


def test_an_unreadable_card_is_explained_wholly_in_portuguese_with_truco_examples():
    view = TrucoOddsExplorer(seed=1, simulations=2000)
    view.hand.value = "7 ouros 3♣ 2♦"
    text = slot(view, view.hand)
    assert "não se lê como carta" in text and "na sua mão" in text
    assert "cannot" not in text and "10♦" not in text
    view.language.value = "en"
    view.hand.value = "7 golds 3♣ 2♦"
    text = slot(view, view.hand)
    assert "cannot read a card" in text and "10♦" not in text and "Não" not in text


def test_enter_in_a_card_field_computes():
    view = TrucoOddsExplorer(seed=1, simulations=2000)
    before = view.odds
    view.hand.value = "Q♣ Q♥ 3♠"
    assert view.odds != before and view.odds.hand_win > before.hand_win


def test_numbers_follow_the_language():
    view = TrucoOddsExplorer(seed=1, simulations=50_000)
    p = view.odds.hand_win * 100
    assert "50.000 simulações" in view.result.value
    assert f"{p:.1f}".replace(".", ",") + "%" in view.result.value
    view.language.value = "en"
    assert "50,000 simulations" in view.result.value and f"{p:.1f}%" in view.result.value
