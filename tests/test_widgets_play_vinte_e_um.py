"""The 21 game view, played through its buttons."""
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
