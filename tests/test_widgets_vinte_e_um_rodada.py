"""The 21 table picture, the round stepper, its odds panel and the banker's exercise."""
import re

from cartas.vinte_e_um import HIT, Action, SensibleBot, from_deal, odds_for_view
from widgets.draw.vinte_e_um_chart import odds_html
from widgets.draw.vinte_e_um_table import chips_svg, table_html
from widgets.pages.index import CourseIndex
from widgets.pages.vinte_e_um_rodada import RoundStepper, play_round


def seat_attr(html, seat, name):
    return re.search(rf'data-seat="{seat}"[^>]*{name}="([^"]*)"', html).group(1)


def dealt():
    """Banker 0 holds 10♦ (face down) and 6♠; seat 1 holds 9♣ (face down) and 7♥."""
    state = from_deal(3, {0: "10♦", 1: "9♣", 2: "5♣"}, upcard="6♠", then=["7♥", "4♦"], banker=0)
    state.apply_action(Action.bet(3), 1)
    state.apply_action(Action.bet(1), 2)
    return state


def test_table_hides_face_down_cards_from_others_and_draws_chips():
    state = dealt()
    spectator = table_html(state, "pt")
    assert 'data-banker="0"' in spectator and "cartas-banker" in spectator
    assert "9♣" not in spectator and "10♦" not in spectator and "7♥" in spectator and "6♠" in spectator
    assert "6 pontos + carta fechada" in spectator
    own = table_html(state, "pt", viewer=1)
    assert "9♣" in own and "10♦" not in own and "16 pontos" in own
    assert "10♦" in table_html(state, "en", viewer="all") and "Banker" in table_html(state, "en")
    assert seat_attr(spectator, 1, "data-chips") == "17" and seat_attr(spectator, 1, "data-bet") == "3"
    assert 'data-chips="17"' in chips_svg(17) and chips_svg(17).count("<ellipse") == 17
    assert chips_svg(500).count("<ellipse") == 40  # the picture stops growing, the number does not


def test_odds_panel_uses_only_what_the_deciding_seat_sees():
    state = dealt()
    html, ms = odds_html(state, "pt", chart=False)
    expected = odds_for_view(state.view(1))
    bust = float(re.search(r"cartas-odds-bust' data-p='([\d.]+)'", html).group(1))
    win = float(re.search(r"cartas-odds-win' data-p='([\d.]+)'", html).group(1))
    assert abs(bust - expected["bust"]) < 1e-6 and abs(win - expected["win"]) < 1e-6
    assert "O assento 1 tem 16 pontos" in html and ms < 50  # a sanity bound, not a benchmark
    chart = odds_html(state, "en")[0]
    assert "<svg" in chart.split("cartas-chart")[1] and "bust" in chart


def test_odds_panel_is_quiet_when_nobody_hits_or_stands():
    state = from_deal(3, {0: "10♦", 1: "9♣", 2: "5♣"}, upcard="6♠", banker=0)
    assert "cartas-no-odds" in odds_html(state, "pt")[0]


def test_forward_back_and_restart_walk_the_round():
    view = RoundStepper(players=4, seed=2, chart=False)
    assert "carta fechada" in view.narration.value and "Passo 1 de" in view.step_label.value
    assert view.buttons["back"].disabled
    view.buttons["forward"].click()
    assert "aposta" in view.narration.value and view.position == 1
    first_bet = view.narration.value
    view.buttons["forward"].click()
    view.buttons["back"].click()
    assert view.narration.value == first_bet
    view.buttons["restart"].click()
    assert view.position == 0
    while not view.buttons["forward"].disabled:
        view.buttons["forward"].click()
    assert "Fim da rodada" in view.narration.value
    end = view.state
    assert sum(end.chips) == end.total_chips and end.pot == 0


def test_round_replays_from_the_seed_and_seats_go_from_3_to_12():
    a, b = play_round(12, 7), play_round(12, 7)
    assert [s.events for s in a] == [s.events for s in b]
    view = RoundStepper(players=3, seed=7, chart=False)
    view.seats.value = 12
    assert view.table.value.count('class="cartas-seat') == 12
    other = RoundStepper(players=12, seed=7, chart=False)
    assert [s.events for s in other.snapshots] == [s.events for s in a]
    view.seed.value = 8
    assert view.position == 0 and view.snapshots[-1].events != a[-1].events


def test_busts_are_paid_at_once_and_chips_move_as_pictures():
    view = RoundStepper(players=12, seed=22, chart=False)  # a bust, 5 calls, then the banker busts
    seen_bust = seen_banker_bust = False
    while not view.buttons["forward"].disabled:
        view.buttons["forward"].click()
        text = view.narration.value
        if "Estourei" in text:
            seen_bust = True
            assert "paga" in text and "cartas-chips-move" in view.moves.value
        if "A banca estoura" in text:
            seen_banker_bust = True
            assert "ainda não chamou" in text
    assert seen_bust and seen_banker_bust


def test_viewer_switch_shows_or_hides_face_down_cards():
    view = RoundStepper(players=4, seed=2, chart=False)
    view.viewer.value = "none"
    assert "(" not in view.narration.value.split("carta fechada", 1)[1].split("</div>")[0]
    assert view.table.value.count('data-card="back"') == 4
    view.viewer.value = "all"
    assert view.table.value.count('data-card="back"') == 0


def test_banker_question_answers_from_the_engine_and_keeps_score():
    view = RoundStepper(players=4, seed=2, chart=False)
    state = view.q_state
    assert state.phase == "banker"
    should_draw = SensibleBot().choose(state.view(state.banker)).kind == "draw"
    (view.draw_button if should_draw else view.call_button).click()
    assert "cartas-right" in view.feedback.value and "%" in view.feedback.value
    view.next_button.click()
    assert view.feedback.value == "" and view.q_state is not state
    assert "1 de 1 certas" in CourseIndex(lang="pt").table.value


def test_language_switch_translates_the_stepper():
    view = RoundStepper(players=4, seed=2, chart=False)
    view.language.value = "en"
    assert "face-down card" in view.narration.value and view.buttons["forward"].description == "Forward ▶"
    assert "Should the banker draw" in view.question.value


def test_an_error_in_a_callback_becomes_a_friendly_message():
    view = RoundStepper(players=4, seed=2, chart=False)
    view.guarded(lambda: view.state.apply_action(HIT, 3) and None)()
    assert "Não é possível" in view.message.value
    view.guarded(lambda: 1 / 0)()
    assert "Algo deu errado" in view.message.value and "Traceback" not in view.message.value
    view.buttons["forward"].click()
    assert view.message.value == ""


def test_table_draws_a_settled_hand_faded_with_its_outcome():
    from cartas.vinte_e_um import HIT, from_deal
    from widgets.draw.vinte_e_um_table import seat_html, table_html
    game = from_deal(3, {1: "10♥", 2: "10♠", 0: "9♦"}, "8♣", ["9♣", "5♠", "8♦"], banker=0, seed=7)
    game.apply_action("bet 2"), game.apply_action("bet 2")
    game.apply_action(HIT)  # seat 1 busts with 10, 9, 5: collected by the banker
    assert game.hands[1] == []
    seat = seat_html(game, 1, "pt")
    assert 'class="cartas-shown" data-outcome="bust"' in seat
    assert [part.split('"')[0] for part in seat.split('data-card="')[1:]] == ["10♥", "9♣", "5♠"]
    assert "estourou" in seat and "24 pontos" in seat
    assert "cartas-shown" not in seat_html(game, 2, "pt")  # still playing
    assert table_html(game, "en").count("cartas-shown") == 1


def test_a_second_answer_keeps_the_first_verdict():
    from widgets.pages.vinte_e_um_rodada import RoundStepper
    view = RoundStepper(players=4, seed=2, chart=False)
    view.draw_button.click()
    first = view.feedback.value
    view.call_button.click()
    assert view.feedback.value == first and view.score.asked == 1


def test_exercise_alternates_banker_and_player_questions_answered_by_the_careful_bot():
    from cartas.vinte_e_um import DRAW, HIT
    view = RoundStepper(players=4, seed=3, chart=False)
    kinds = []
    for _ in range(4):
        state, seat = view.q_state, view.q_seat()
        kinds.append(view.q_kind)
        assert state.phase == ("banker" if view.q_kind == "banker" else "players")
        assert state.current_seat == seat
        assert f"data-kind='{view.q_kind}'" in view.question.value
        take = SensibleBot().choose(state.view(seat)) in (DRAW, HIT)
        assert HIT in state.legal_actions() or DRAW in state.legal_actions()
        (view.draw_button if take else view.call_button).click()
        assert "cartas-right" in view.feedback.value
        view.next_button.click()
    assert kinds == ["banker", "player", "banker", "player"]
    assert view.draw_button.description == "Comprar"
    view.next_button.click()
    assert view.draw_button.description == "Pedir carta" and view.call_button.description == "Parar"
    assert "pedir mais uma carta" in view.question.value


def test_exercise_is_seeded_and_its_percentages_follow_the_language():
    a, b = RoundStepper(players=4, seed=9, chart=False), RoundStepper(players=4, seed=9, chart=False)
    assert a.question.value == b.question.value
    a.call_button.click()
    assert re.search(r"\d+,\d%", a.feedback.value)
    a.language.value = "en"
    assert re.search(r"\d+\.\d%", a.feedback.value)
    assert re.search(r"<td style='[^']*'>\d+,\d%</td>", odds_html(dealt(), "pt", chart=False)[0])
    assert re.search(r"<td style='[^']*'>\d+\.\d%</td>", odds_html(dealt(), "en", chart=False)[0])


def test_a_bad_seed_is_refused_beside_the_seed_box_and_the_round_stays():
    view = RoundStepper(players=4, seed=2, chart=False)
    events = view.snapshots[-1].events
    view.seed.value = -5
    slot = view._error_slots[id(view.seed)].value
    assert "Não é possível" in slot and view.message.value == "" and view.snapshots[-1].events == events


def test_the_banker_chart_writes_its_numbers_in_the_page_language():
    import matplotlib.pyplot as plt

    from widgets.draw.vinte_e_um_chart import draw_banker_chart
    small = {17: 0.03, 18: 0.025, 19: 0.02, 20: 0.015, 21: 0.01, "bust": 0.9}
    for distribution in (small, {17: 0.012, 18: 0.008, "bust": 0.014}):
        ticks = {}
        for lang in ("pt", "en"):
            fig = draw_banker_chart(distribution, lang, mine=19)
            try:
                fig.canvas.draw()
                ax = fig.axes[0]
                ticks[lang] = [t.get_text() for t in ax.get_yticklabels() if t.get_text()]
                bars = [t.get_text() for t in ax.texts]
            finally:
                plt.close(fig)
            assert ticks[lang] and all(t.endswith("%") for t in ticks[lang] + bars), ticks[lang]
        assert not any("." in t for t in ticks["pt"]) and not any("," in t for t in ticks["en"])
        assert [t.replace(",", ".") for t in ticks["pt"]] == ticks["en"]
    assert any("," in t for t in ticks["pt"])  # a fractional tick: "0,2%", never "0.2%" or 0.002
