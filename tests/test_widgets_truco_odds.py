"""The odds explorer asks the engine and shows its numbers."""
from cartas.truco import hand_odds
from widgets.truco_odds import TrucoOddsExplorer


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
    assert "Não é possível" in view.message.value and view.odds == before
    view.language.value = "en"
    assert "Your team takes the hand" in view.result.value
