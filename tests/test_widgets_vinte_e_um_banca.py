"""Bank rotation: each mode's example hands the bank on, as the engine rules."""
import pytest

from widgets.vinte_e_um_banca import MODES, BankRotation, rotation_example


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
