"""The 21 game view, played through its buttons."""
import pytest

from widgets.play_vinte_e_um import PlayVinteEUm


def click(view, kind):
    button = next(b for b in view.actions.children if f"cartas-act-{kind}" in b._dom_classes)
    button.click()


def kinds(view):
    return {c.split("cartas-act-")[1] for b in view.actions.children for c in b._dom_classes
            if c.startswith("cartas-act-")}


def test_a_whole_round_as_a_player():
    view = PlayVinteEUm(seed=4, delay=0)
    assert view.state.banker != 0 and "bet" in kinds(view)
    total = sum(view.state.chips) + view.state.pot
    click(view, "bet")
    assert view.last_error is None
    while view.state.round_number == 1 and not view.state.is_terminal():
        assert kinds(view) <= {"hit", "stand", "take_bank", "refuse_bank"}, kinds(view)
        click(view, "stand" if "stand" in kinds(view) else "refuse_bank")
    assert view.state.round_number == 2
    assert sum(view.state.chips) + view.state.pot == total  # chips only move, never vanish
    assert "Rodada 2" in view.log_box.value


def test_the_banker_draws_and_calls_through_buttons():
    view = PlayVinteEUm(seed=1, delay=0, role="banker", rotation="permanent", players=3)
    assert view.state.banker == 0
    for _ in range(20):
        if view.state.round_number > 1:
            break
        k = kinds(view)
        assert k and k <= {"draw", "call"}, k
        click(view, "call")
    assert view.state.round_number == 2
    assert "A banca chama o jogador" in view.log_box.value


def test_play_again_and_language():
    view = PlayVinteEUm(seed=2, delay=0, lang="en")
    assert "Round 1: your turn" in view.status.value
    assert any(b.description.startswith("bet") for b in view.actions.children)
    view.language.value = "pt"
    assert any(b.description.startswith("apostar") for b in view.actions.children)
    view.role.value = "banker"
    view.again.click()
    assert view.state.banker == 0 and view.state.round_number == 1


def test_the_engine_picks_the_ace_for_the_rotation():
    view = PlayVinteEUm(seed=3, delay=0, rotation="natural")
    assert view.state.rotation == "natural" and view.state.ace == 11
    view.rotation.value = "rounds"
    view.again.click()
    assert view.state.rotation == "rounds" and view.state.ace == 1 and view.last_error is None


# -- no input makes unbounded work ------------------------------------------------------------

def twelve_seats_human_broke(**options):
    """The scenario link of issue 11: 12 seats, seat 0 (you) without chips, rounds None,
    max_bet 1."""
    from cartas import scenario as sc
    data = sc.vinte_e_um_scenario(12, banker=options.pop("banker", 3),
                                  chips=[0] + [20] * 11, rounds=None, max_bet=1, seed=5,
                                  **options)
    return sc.build(data)


def test_a_game_where_you_cannot_act_ends_for_you_at_once():
    import time
    start = time.perf_counter()
    view = PlayVinteEUm(state=twelve_seats_human_broke(), delay=0.5, seed=1)
    assert time.perf_counter() - start < 5  # no bot move, no pause
    assert view.bot_steps == 0 and not view.bots_paused
    assert "data-turn='out'" in view.status.value and "o jogo acabou para você" in view.status.value
    assert view.actions.children == () and view.go_on.layout.display == "none"
    view.language.value = "en"
    assert "the game is over for you" in view.status.value


def test_a_banker_seat_without_chips_is_refused_by_the_scenario():
    from cartas import scenario as sc
    with pytest.raises(sc.ScenarioError):
        twelve_seats_human_broke(banker=0)


def test_bots_stop_after_a_bounded_run_and_continue_on_request(monkeypatch):
    """You hold 1 chip with a minimum bet of 2 under a permanent bank: you never bet, so the
    bots play on alone; each run stops at max_bot_steps, and the game still ends."""
    from cartas.vinte_e_um import new_game
    monkeypatch.setattr(PlayVinteEUm, "max_bot_steps", 150)
    state = new_game(12, seed=3, banker=1, chips=[1] + [6] * 11, min_bet=2, max_bet=2,
                     rounds=None, rotation="permanent")
    view = PlayVinteEUm(state=state, delay=0, seed=1)
    assert view.bot_steps == 150 and view.bots_paused
    assert "data-turn='paused'" in view.status.value and view.go_on.layout.display is None
    runs = 1
    while view.bots_paused:
        view.go_on.click()
        assert view.last_error is None and view.bot_steps <= 150
        runs += 1
        assert runs < 200
    assert view.state.is_terminal() and "data-turn='over'" in view.status.value


def test_paced_bots_pause_at_most_max_paced_seconds_per_click(monkeypatch):
    from widgets import pacing
    slept = []
    monkeypatch.setattr(pacing.time, "sleep", slept.append)
    monkeypatch.setattr(PlayVinteEUm, "max_paced_seconds", 3.0)
    view = PlayVinteEUm(seed=4, delay=0.7, players=12)
    click(view, "bet")
    assert view.bot_steps > 5 and sum(slept) <= 3.0 + 1e-9 and len(slept) <= 5
