"""The 21 game view, played through its buttons."""
import ipywidgets as w
import pytest

from cartas.vinte_e_um import from_deal, new_game
from widgets.pages.jogar_21 import PlayVinteEUm


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
    assert "A banca chama o assento" in view.log_box.value


def test_play_again_and_language():
    view = PlayVinteEUm(seed=2, delay=0, lang="en")
    assert "Round 1: your turn" in view.status.value
    assert any(getattr(b, "description", "") == "Bet" for b in view.actions.children)
    view.language.value = "pt"
    assert any(getattr(b, "description", "") == "Apostar" for b in view.actions.children)
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
    import asyncio

    from widgets.components import pacing
    from widgets.components.later import run_waiting

    from loops import run_async
    slept = []
    real_sleep = asyncio.sleep

    async def record(seconds):
        slept.append(seconds)
        await real_sleep(0)

    monkeypatch.setattr(pacing.asyncio, "sleep", record)
    monkeypatch.setattr(PlayVinteEUm, "max_paced_seconds", 3.0)

    async def play():
        view = PlayVinteEUm(seed=4, delay=0.7, players=12)
        run_waiting()  # the first deal, which a page makes once its browser asks
        click(view, "bet")
        await view.bots_done()
        return view

    view = run_async(play())
    assert view.bot_steps > 5 and sum(slept) <= 3.0 + 1e-9 and len(slept) <= 5


# -- the table's rules, amounts, words ---------------------------------------------------------

def test_the_table_states_its_ace_rule_and_the_rounds_left():
    view = PlayVinteEUm(seed=3, delay=0, rotation="natural", lang="pt")  # the engine: ace 11
    assert "o ás vale 11" in view.rules.value
    assert "Rodada 1 de 10: faltam 10 rodadas, contando esta." in view.rules.value
    view.language.value = "en"
    assert "an ace counts 11" in view.rules.value and "Round 1 of 10: 10 rounds left" in view.rules.value
    view = PlayVinteEUm(state=new_game(4, seed=1, banker=1, rounds=1, ace=1), delay=0, seed=1)
    assert "o ás vale 1." in view.rules.value and "esta é a última" in view.rules.value
    view = PlayVinteEUm(state=new_game(4, seed=1, banker=1, rounds=None, ace="flexible"), delay=0, seed=1)
    assert "1 ou 11" in view.rules.value and "sem limite de rodadas" in view.rules.value


def test_bets_are_typed_in_one_number_field_not_a_button_each():
    view = PlayVinteEUm(state=new_game(4, seed=1, banker=1, max_bet=25, chips=30), delay=0, seed=1)
    fields = [c.children[0] for c in view.actions.children if isinstance(c, w.HBox)]
    assert len(fields) == 1 and isinstance(fields[0], w.BoundedIntText) and (fields[0].min, fields[0].max) == (1, 25)
    assert len(view.actions.children) == 2  # the field (with its error slot) and its button
    fields[0].value = 7
    click(view, "bet")
    assert view.last_error is None
    assert any(e["type"] == "bet" and e["seat"] == 0 and e["amount"] == 7 for e in view.state.events)


def test_an_amount_outside_the_legal_ones_is_refused_and_nothing_moves():
    view = PlayVinteEUm(state=new_game(4, seed=1, banker=1, max_bet=5), delay=0, seed=1)
    box = next(c for c in view.actions.children if isinstance(c, w.HBox))
    field, slot = box.children
    before = view.state.to_json()
    with pytest.raises(ValueError):
        view.act_amount("bid", field)  # no bid is legal now
    assert view.state.to_json() == before
    view.guarded(lambda: view.act_amount("bid", field), near=field)()  # as its button does
    assert "Não é possível" in slot.value and view.message.value == ""
    assert view.state.to_json() == before


def test_one_point_is_singular():
    from widgets.draw.vinte_e_um_table import points_text
    assert points_text(1, "pt") == "1 ponto" and points_text(1, "en") == "1 point"
    assert points_text(5, "pt") == "5 pontos" and points_text(5, "en") == "5 points"


# -- the coach ---------------------------------------------------------------------------------

def twenty_against_a_six():
    """Seat 0 holds 10♠ then K♥ (20); the banker (seat 2) shows a 6."""
    state = from_deal(3, ["10♠", "2♣", "5♦"], upcard="6♦", then=["K♥", "3♣"], banker=2, seed=1)
    return PlayVinteEUm(state=state, delay=0, seed=1, lang="pt")


def test_dica_says_stand_on_twenty_against_a_bankers_six():
    view = twenty_against_a_six()
    view.hint_button.click()  # a bet: the coach advises hit/stand and draw/call only
    assert "data-action=''" in view.hint_box.value and "pedir ou parar" in view.hint_box.value
    click(view, "bet")
    assert kinds(view) == {"hit", "stand"}
    view.hint_button.click()
    assert view.last_error is None
    hint = view.hint_box.value
    assert "data-action='stand'" in hint and "Pare: parando você ganha" in hint and "%" in hint


def test_the_review_lists_a_hit_on_twenty_with_its_odds():
    view = twenty_against_a_six()
    click(view, "bet")
    click(view, "hit")  # against the hint
    view.review_button.click()
    review = view.review_box.value
    assert "1 de 1 decisões foram contra a dica" in review
    assert "Rodada 1: você pediu com 20 pontos. Dica: Pare" in review


def test_dica_for_the_banker_draws_or_calls():
    view = PlayVinteEUm(seed=1, delay=0, role="banker", rotation="permanent", players=3, lang="en")
    assert kinds(view) & {"draw", "call"}
    view.hint_button.click()
    assert ("data-action='draw'" in view.hint_box.value) != ("data-action='call'" in view.hint_box.value)
    assert "average balance" in view.hint_box.value


def test_the_log_reads_oldest_first_with_the_newest_line_in_view():
    import re
    from html import unescape
    view = PlayVinteEUm(seed=4, delay=0, lang="pt")
    click(view, "bet")
    lines = [unescape(x) for x in re.findall(r"<div class='cartas-log-line'>(.*?)</div>", view.log_box.value)]
    events = view.state.view(0).events
    assert 2 < len(events) < 120 and lines == [view.state.narrate(e, "pt") for e in events]
    assert "flex-direction:column-reverse" in view.log_box.value


def _bet_everything_until_out(view, steps=400):
    for _ in range(steps):
        if view.state.is_terminal() or view._human_out():
            return
        fields = [box.children[0] for box in view.actions.children if isinstance(box, w.HBox)]
        if fields:
            fields[0].value = fields[0].max
            next(b for b in view.actions.children if isinstance(b, w.Button)).click()
        elif "hit" in kinds(view):
            click(view, "hit")
        elif kinds(view):
            click(view, sorted(kinds(view))[0])
        elif view.go_on.layout.display != "none":
            view.go_on.click()
        else:
            raise AssertionError("no move offered and the game goes nowhere")
    raise AssertionError("never ran out of chips")


def test_running_out_of_chips_ends_the_game_for_you_in_plain_view():
    view = PlayVinteEUm(seed=0, delay=0, lang="pt")
    assert view.end_box.layout.display == "none"
    _bet_everything_until_out(view)
    assert view._human_out() and view.state.chips[0] == 0 and not view.state.is_terminal()
    assert view.end_box.layout.display == ""
    end = view.end_text.value
    assert "data-end='out'" in end and "Acabou para você: sem fichas" in end
    assert all(f"assento {s}: {n}" in end for s, n in enumerate(view.state.chips))
    assert view.end_again.description == "Jogar de novo" and view.actions.children == ()
    view.language.value = "en"
    assert "It is over for you: with no chips" in view.end_text.value
    view.end_again.click()  # a new game, from the end box
    assert view.state.chips[0] > 0 and view.end_box.layout.display == "none"


def test_a_long_game_of_21_makes_no_widget_after_its_first_moves_and_keeps_each_buttons_move():
    from ipywidgets.widgets.widget import _instances  # what ipywidgets.Widget.widgets returns
    view = PlayVinteEUm(seed=5, delay=0, lang="en")
    seen: dict[int, str] = {}

    def play(moves: int) -> None:
        for _ in range(moves):
            if view.state.is_terminal() or view._human_out():
                view.new_game()
            for child in view.actions.children:
                if isinstance(child, w.Button):
                    assert seen.setdefault(id(child), child.description) == child.description  # one move per button
            if kinds(view):
                click(view, sorted(kinds(view))[0])
            elif view.go_on.layout.display != "none":
                view.go_on.click()
    play(60)
    made = len(_instances)
    play(300)
    assert len(_instances) <= made + 2      # every move button and field was made in the first moves
