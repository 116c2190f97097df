"""Truco refusals speak Portuguese: every error has a code, fields and message(lang)."""
import random
import re

import pytest

from cartas.cards import TRUCO_PACK
from cartas.truco import (
    CATALOGUE,
    MINEIRO,
    PAULISTA,
    Action,
    IllegalActionError,
    TrucoError,
    explain_hand,
    from_deal,
    from_json,
    get_variant,
    hand_winner,
    manilhas,
    new_game,
    trick_winner,
)

PLAIN = [["3♦", "K♦", "4♦"], ["2♠", "J♠", "5♠"], ["A♥", "Q♥", "6♥"], ["K♣", "5♣", "6♣"]]
ALL_ACTIONS = ([Action.play(c) for c in TRUCO_PACK] + [Action.cover(c) for c in TRUCO_PACK]
               + [Action.blind(p) for p in range(3)]
               + [Action.raise_to(v) for v in (3, 4, 6, 9, 10, 12)]
               + [Action.parse(t) for t in ("accept", "run", "play hand", "run hand")])
ENGLISH = re.compile(r"\b(team|seat|the|is|not|cannot|must|raise|play|hand)\b")


def check_portuguese(error: TrucoError) -> str:
    """The refusal has a Portuguese text that is not the English one and names no 'team'."""
    assert error.code in CATALOGUE, (error.code, str(error))
    pt = error.message("pt")
    assert pt != str(error) and not ENGLISH.search(pt), (error.code, pt)
    assert error.message("en") == str(error)
    return pt


@pytest.mark.parametrize("variant", [PAULISTA, MINEIRO], ids=["paulista", "mineiro"])
def test_every_refusal_met_in_random_play_has_a_portuguese_text(variant):
    pick = random.Random(variant.key)
    codes = set()
    for game in range(30):
        # from 0 x 0, and from the threshold / both at the threshold (mão de onze, de ferro)
        t = variant.threshold
        score = [(0, 0), (t, game % t), (t, t)][game % 3]
        state = new_game(variant, game) if game % 3 == 0 else from_deal(
            variant, PLAIN, None if not variant.uses_vira else "7♣", game % 4, score, seed=game)
        while True:
            legal = state.legal_actions()
            tries = [a for a in ALL_ACTIONS if a not in legal]
            for wrong in pick.sample(tries, 12) + [a for a in tries if a.kind == "raise"]:
                try:
                    state.apply_action(wrong)
                except IllegalActionError as error:
                    codes.add(error.code)
                    check_portuguese(error)
            if state.current_seat is not None:
                with pytest.raises(IllegalActionError) as info:
                    state.apply_action(legal[0], seat=(state.current_seat + 1) % 4)
                codes.add(info.value.code)
                check_portuguese(info.value)
            if state.is_terminal():
                break
            state.apply_action(legal[pick.randrange(len(legal))])
    for text in ("dance", "", "play 9♥", "blind 7", 42):
        with pytest.raises(IllegalActionError) as info:
            state.apply_action(text)
        codes.add(info.value.code)
        check_portuguese(info.value)
    # the refusals a learner meets most must all have been met (else the test proves little)
    assert {"game_over", "not_your_turn", "must_decide", "no_decision", "must_answer",
            "nothing_to_answer", "ferro_no_raise", "ferro_blind", "blind_only_ferro",
            "not_in_hand", "no_cover_first", "one_step", "unreadable_action",
            "not_an_action", "empty_action"} <= codes, codes


def test_raised_last_names_the_dupla_in_portuguese():
    s = from_deal(PAULISTA, PLAIN, vira="7♣", dealer=3)
    s.apply_action("raise 3")   # seat 0 (dupla A) calls truco
    s.apply_action("accept")
    s.apply_action("play 3♦")
    s.apply_action("raise 6")   # seat 1 (dupla B) calls seis
    s.apply_action("accept")
    s.apply_action("play 2♠")
    s.apply_action("play A♥")
    with pytest.raises(IllegalActionError) as info:
        s.apply_action("raise 9")  # seat 3, dupla B again
    assert str(info.value) == ("team B (seats 1 and 3) raised last and cannot raise again until "
                               "the other team raises")
    assert info.value.code == "raised_last" and info.value.fields == {"team": 1}
    assert info.value.message("pt") == ("a dupla B (assentos 1 e 3) pediu por último e não "
                                        "pode aumentar de novo: só depois que a outra dupla "
                                        "aumentar")


@pytest.mark.parametrize("call, code, english, portuguese", [
    (lambda: from_deal(PAULISTA, PLAIN[:3], "7♣"), "four_hands", "a deal has four hands",
     "uma distribuição tem quatro mãos"),
    (lambda: from_deal(PAULISTA, [PLAIN[0][:2]] + PLAIN[1:], "7♣"), "three_cards",
     "seat 0 must hold 3 cards", "o assento 0 deve ter 3 cartas"),
    (lambda: from_deal(PAULISTA, [["9♦", "K♦", "4♦"]] + PLAIN[1:], "7♣"), "card_not_in_pack",
     "in seat 0's hand is not in the truco pack", "9♦ na mão do assento 0 não está"),
    (lambda: from_deal(PAULISTA, [["xx", "K♦", "4♦"]] + PLAIN[1:], "7♣"), "unreadable_card",
     "cannot read a card from 'xx'", "“xx” na mão do assento 0 não se lê como carta"),
    (lambda: from_deal(PAULISTA, [PLAIN[1]] + PLAIN[1:], "7♣"), "dealt_twice",
     "is dealt twice", "foi distribuída duas vezes"),
    (lambda: from_deal(PAULISTA, PLAIN), "needs_vira", "needs a vira", "precisa de uma vira"),
    (lambda: from_deal(PAULISTA, PLAIN, "3♦"), "vira_in_hand", "cannot also be in a hand",
     "a vira 3♦ não pode estar também numa mão"),
    (lambda: from_deal(MINEIRO, PLAIN, "7♣"), "mineiro_no_vira", "Truco Mineiro has no vira",
     "o Truco Mineiro não tem vira"),
    (lambda: from_deal(MINEIRO, PLAIN, dealer=4), "bad_dealer", "the dealer is a seat",
     "quem dá as cartas é um assento de 0 a 3, não 4"),
    (lambda: from_deal(MINEIRO, PLAIN, score=(12, 0)), "bad_score", "two whole numbers",
     "o placar são dois números inteiros de 0 a 11"),
    (lambda: from_deal(MINEIRO, PLAIN, tie_lead="x"), "bad_tie_lead", "tie_lead must be",
     "depois de um empate"),
    (lambda: from_deal(MINEIRO, PLAIN).view(5), "bad_seat", "seats are 0 to 3",
     "os assentos vão de 0 a 3"),
    (lambda: from_json('{"format": "x"}'), "bad_format", "not a saved truco game",
     "não é um jogo de truco salvo"),
    (lambda: trick_winner([(0, "3♦"), (0, "2♠")], MINEIRO), "seat_twice",
     "seat 0 plays twice", "o assento 0 joga duas vezes"),
    (lambda: trick_winner([(0, "3♦"), (1, "3♦")], MINEIRO), "card_twice",
     "3♦ is played twice", "3♦ aparece duas vezes"),
    (lambda: trick_winner([(0, "3♦"), (7, "2♠")], MINEIRO), "bad_seat", "seats are 0 to 3",
     "não 7"),
    (lambda: trick_winner([], MINEIRO), "empty_trick", "at least one play",
     "pelo menos uma jogada"),
    (lambda: trick_winner([(0, "3♦")], PAULISTA), "needs_vira", "needs a vira",
     "precisa de uma vira"),
    (lambda: trick_winner([(0, "3♦")], PAULISTA, "9♣"), "bad_vira", "cannot be the vira",
     "9♣ não pode ser a vira"),
    (lambda: trick_winner([(0, "3♦")], "spanish"), "unknown_variant", "unknown truco variant",
     "variante de truco desconhecida"),
    (lambda: hand_winner([0]), "undecided", "still undecided", "(A) não terminam a mão"),
    (lambda: hand_winner([0, 0, 1]), "past_decided", "go on past trick 2",
     "os resultados (A, A, B) continuam depois da 2ª rodada"),
    (lambda: explain_hand([None, None, None, None]), "too_many_tricks", "at most 3 tricks",
     "no máximo 3 rodadas, não 4"),
    (lambda: hand_winner([2, 0]), "bad_result", "a trick result is 0, 1 or None",
     "A, B ou empate"),
    (lambda: manilhas(PAULISTA, "9♠"), "bad_vira", "cannot be the vira", "não pode ser a vira"),
    (lambda: get_variant("paulista").run_pays(5), "not_a_raise", "is not a raise",
     "5 não é um pedido de truco"),
    (lambda: Action.blind(3), "bad_position", "position 0, 1 or 2", "posição 0, 1 ou 2, não 3"),
])
def test_deal_trick_and_variant_errors_say_why_in_both_languages(call, code, english, portuguese):
    with pytest.raises(TrucoError) as info:
        call()
    error = info.value
    assert isinstance(error, ValueError) and error.code == code
    assert english in str(error) and portuguese in check_portuguese(error)


@pytest.mark.parametrize("kwargs, code, portuguese", [
    ({"hand": ["3♦", "K♦"]}, "odds_hand_size", "a sua mão precisa de 3 cartas; você deu 2"),
    ({"hand": ["3♦", "K♦", "9♦"]}, "card_not_in_pack", "9♦ na sua mão não está no baralho"),
    ({"hand": ["3♦", "K♦", "zz"]}, "unreadable_card", "“zz” na sua mão"),
    ({"hand": ["3♦", "K♦", "4♦"], "vira": "3♦"}, "odds_vira_held", "3♦ é a vira, então não pode estar na sua mão"),
    ({"hand": ["3♦", "K♦", "3♦"]}, "odds_card_twice", "3♦ aparece duas vezes na sua mão"),
    ({"hand": ["3♦", "K♦", "4♦"], "vira": None}, "needs_vira", "precisa de uma vira"),
    ({"hand": ["3♦", "K♦", "4♦"], "position": 4}, "odds_position", "de 0 (mão) a 3 (pé), não 4"),
])
def test_odds_refusals_in_portuguese(kwargs, code, portuguese):
    from cartas.truco import hand_odds
    args = {"vira": "7♣", "position": 0, **kwargs}
    with pytest.raises(TrucoError) as info:
        hand_odds(PAULISTA, args.pop("hand"), args.pop("vira"), args.pop("position"), simulations=100)
    assert info.value.code == code and portuguese in check_portuguese(info.value)
