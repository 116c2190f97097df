"""Every Portuguese and English string of the 21 engine: action names and narration."""
from __future__ import annotations

from ..cards import Card
from .scoring import call_reason, check_ace, points

LANGS = ("pt", "en")

_ACTIONS = {
    "pt": {
        "bet": "apostar {n} ficha{s}", "hit": "pedir carta", "stand": "parar",
        "draw": "a banca compra carta", "call": "chamar o jogador {seat}",
        "take_bank": "aceitar a banca", "refuse_bank": "recusar a banca",
        "bid": "dar um lance de {n} ficha{s}", "pass": "passar",
        "offer": "oferecer {n} ficha{s} pela banca", "accept_offer": "aceitar a oferta",
        "refuse_offer": "recusar a oferta",
    },
    "en": {
        "bet": "bet {n} chip{s}", "hit": "hit", "stand": "stand",
        "draw": "the banker draws a card", "call": "call seat {seat}",
        "take_bank": "take the bank", "refuse_bank": "refuse the bank",
        "bid": "bid {n} chip{s}", "pass": "pass",
        "offer": "offer {n} chip{s} for the bank", "accept_offer": "accept the offer",
        "refuse_offer": "refuse the offer",
    },
}

_EVENTS = {
    "pt": {
        "game_start": "Começa o 21 com {players} participantes; a banca é do jogador {banker}.",
        "round_start": "Rodada {round}: a banca é do jogador {banker}.",
        "deal_down": "O jogador {seat} recebe uma carta fechada{card_in}.",
        "deal_up": "O jogador {seat} recebe {card}.",
        "bet": "O jogador {seat} aposta {amount} ficha{s}.",
        "banker_21": "A banca mostra {cards}: 21 com duas cartas, e recolhe todas as apostas.",
        "hit": "O jogador {seat} pede carta.",
        "stand": "O jogador {seat} para com {points} pontos.",
        "stand_21": "O jogador {seat} fez 21 e para.",
        "bust": "Estourei! O jogador {seat} passa de 21 com {points} pontos.",
        "pay": "O jogador {from} paga {amount} ficha{s} ao jogador {to}.",
        "pay_short": "O jogador {from} só tem {amount} ficha{s} para pagar {owed} ao jogador {to}.",
        "pay_none": "A banca (jogador {from}) não tem mais fichas para pagar o jogador {to}, "
                    "que só recebe de volta a sua aposta de {owed} ficha{os}.",
        "draw": "A banca compra uma carta.",
        "reveal": "A banca vira a sua carta fechada: {card}.",
        "call_player": "A banca chama o jogador {seat}: {player_points} contra {banker_points}; ganha o jogador.",
        "call_banker": "A banca chama o jogador {seat}: {player_points} contra {banker_points}; ganha a banca.",
        "banker_bust": "A banca estoura com {points} pontos e paga quem ainda não chamou.",
        "reshuffle": "Acabou o monte: as {cards} cartas recolhidas são embaralhadas de novo.",
        "round_end": "Fim da rodada {round}.",
        "rotation_rounds": "A banca é oferecida, a começar pela esquerda do banqueiro.",
        "rotation_auction": "A banca vai a leilão.",
        "rotation_sale": "Quem quiser pode fazer uma oferta pela banca.",
        "take_bank": "O jogador {seat} aceita a banca.",
        "refuse_bank": "O jogador {seat} recusa a banca.",
        "bid": "O jogador {seat} dá um lance de {amount} ficha{s}.",
        "pass": "O jogador {seat} passa.",
        "offer": "O jogador {seat} oferece {amount} ficha{s} pela banca.",
        "accept_offer": "A banca aceita a oferta de {amount} ficha{s} do jogador {buyer}.",
        "refuse_offer": "A banca recusa a oferta de {amount} ficha{s} do jogador {buyer}.",
        "bank_change": "A banca passa do jogador {from} para o jogador {to} ({reason}).",
        "game_over_one": "Fim de jogo: vence o jogador {winner}.",
        "game_over_tie": "Fim de jogo: empate entre os jogadores {winners}.",
    },
    "en": {
        "game_start": "21 begins with {players} participants; seat {banker} holds the bank.",
        "round_start": "Round {round}: seat {banker} holds the bank.",
        "deal_down": "Seat {seat} gets a face-down card{card_in}.",
        "deal_up": "Seat {seat} gets {card}.",
        "bet": "Seat {seat} bets {amount} chip{s}.",
        "banker_21": "The banker shows {cards}: 21 with two cards, and takes every bet.",
        "hit": "Seat {seat} hits.",
        "stand": "Seat {seat} stands on {points}.",
        "stand_21": "Seat {seat} has 21 and stands.",
        "bust": "Bust (estourei)! Seat {seat} goes over 21 with {points}.",
        "pay": "Seat {from} pays {amount} chip{s} to seat {to}.",
        "pay_short": "Seat {from} has only {amount} chip{s} to pay the {owed} owed to seat {to}.",
        "pay_none": "The banker (seat {from}) has no chips left to pay seat {to}, "
                    "who only gets back the bet of {owed} chip{os}.",
        "draw": "The banker draws a card.",
        "reveal": "The banker turns his face-down card: {card}.",
        "call_player": "The banker calls seat {seat}: {player_points} against {banker_points}; the player wins.",
        "call_banker": "The banker calls seat {seat}: {player_points} against {banker_points}; the bank wins.",
        "banker_bust": "The banker busts with {points} and pays everyone not yet called.",
        "reshuffle": "The pack ran out: the {cards} collected cards are shuffled again.",
        "round_end": "End of round {round}.",
        "rotation_rounds": "The bank is offered round the table, from the banker's left.",
        "rotation_auction": "The bank goes up for auction.",
        "rotation_sale": "Anyone may make an offer for the bank.",
        "take_bank": "Seat {seat} takes the bank.",
        "refuse_bank": "Seat {seat} refuses the bank.",
        "bid": "Seat {seat} bids {amount} chip{s}.",
        "pass": "Seat {seat} passes.",
        "offer": "Seat {seat} offers {amount} chip{s} for the bank.",
        "accept_offer": "The banker accepts seat {buyer}'s offer of {amount} chip{s}.",
        "refuse_offer": "The banker refuses seat {buyer}'s offer of {amount} chip{s}.",
        "bank_change": "The bank passes from seat {from} to seat {to} ({reason}).",
        "game_over_one": "Game over: seat {winner} wins.",
        "game_over_tie": "Game over: a tie between seats {winners}.",
    },
}

_REASONS = {
    "pt": {"rounds": "aceitou no rodízio", "lot": "sorteio", "natural": "21 com duas cartas",
           "auction": "leilão, por {price} ficha{ps}", "sale": "venda, por {price} ficha{ps}",
           "broke": "o banqueiro ficou sem fichas"},
    "en": {"rounds": "taken in rotation", "lot": "drawn by lot", "natural": "21 with two cards",
           "auction": "auction, for {price} chip{ps}", "sale": "sale, for {price} chip{ps}",
           "broke": "the banker ran out of chips"},
}

ROTATION_LABELS = {
    "pt": {"rounds": "rodízio a cada N rodadas", "natural": "21 com duas cartas leva a banca",
           "auction": "leilão a cada rodada", "sale": "compra e venda", "permanent": "banca fixa"},
    "en": {"rounds": "rotation every N rounds", "natural": "a two-card 21 takes the bank",
           "auction": "auction after every round", "sale": "sale by offer", "permanent": "permanent bank"},
}


def _lang(lang: str) -> str:
    if lang not in LANGS:
        raise ValueError(f"language must be 'pt' or 'en', not {lang!r}")
    return lang


def _plural(n) -> str:
    return "" if n == 1 else "s"


def _card_name(text: str, lang: str) -> str:
    return Card.parse(text).name(lang)


def describe_action(action, lang: str = "pt") -> str:
    n = action.amount
    return _ACTIONS[_lang(lang)][action.kind].format(n=n, s=_plural(n), seat=action.seat)


def narrate(event: dict, lang: str = "pt") -> str:
    """One sentence telling what the event means, in Portuguese (default) or English."""
    t = _EVENTS[_lang(lang)]
    kind = event["type"]
    data = dict(event)
    data["s"] = _plural(event.get("amount"))
    if kind == "deal":
        if event["face_up"]:
            return t["deal_up"].format(seat=event["seat"], card=_card_name(event["card"], lang))
        known = event.get("card")
        card_in = f" ({_card_name(known, lang)})" if known else ""
        return t["deal_down"].format(seat=event["seat"], card_in=card_in)
    if kind == "banker_21":
        data["cards"] = ", ".join(_card_name(c, lang) for c in event["cards"])
    elif kind == "reveal":
        data["card"] = _card_name(event["card"], lang)
    elif kind == "stand" and event["points"] == 21 and event.get("auto"):
        kind = "stand_21"
    elif kind == "pay" and event["amount"] < event["owed"]:
        kind = "pay_short" if event["amount"] else "pay_none"
        data["os"] = _plural(event["owed"])
    elif kind == "call":
        kind = "call_" + event["winner"]
    elif kind == "rotation":
        kind = "rotation_" + event["mode"]
    elif kind == "bank_change":
        data["reason"] = _REASONS[lang][event["reason"]].format(
            price=event["price"], ps=_plural(event["price"]))
    elif kind == "game_over":
        if event["winner"] is None:
            kind = "game_over_tie"
            data["winners"] = ", ".join(map(str, event["winners"]))
        else:
            kind = "game_over_one"
    return t[kind].format(**data)


_CALLS = {
    "pt": {
        "banker_two_aces": "A banca estoura com dois ases ({b} pontos) antes de chamar qualquer "
                           "jogador: ganha o jogador.",
        "banker_21": "A banca mostra 21 com duas cartas antes de chamar: ganha a banca, pois o "
                     "jogador no máximo empataria.",
        "player_bust": "Estourei! O jogador passa de 21 com {p} pontos antes de a banca o chamar: "
                       "ganha a banca.",
        "banker_bust": "A banca estoura com {b} pontos antes de chamar o jogador: ganha o jogador.",
        "more": "A banca chama o jogador: {p} contra {b}; ganha o jogador.",
        "tie": "A banca chama o jogador: {p} contra {b}; empate, e o empate é da banca.",
        "less": "A banca chama o jogador: {p} contra {b}; ganha a banca.",
    },
    "en": {
        "banker_two_aces": "The banker busts with two aces ({b}) before calling anyone: the player wins.",
        "banker_21": "The banker shows 21 with two cards before calling: the bank wins, since the "
                     "player could only tie.",
        "player_bust": "Bust (estourei)! The player goes over 21 with {p} before the banker calls "
                       "him: the bank wins.",
        "banker_bust": "The banker busts with {b} before calling the player: the player wins.",
        "more": "The banker calls the player: {p} against {b}; the player wins.",
        "tie": "The banker calls the player: {p} against {b}; a tie goes to the bank.",
        "less": "The banker calls the player: {p} against {b}; the bank wins.",
    },
}


def explain_call(player_cards, banker_cards, ace=1, lang: str = "pt", decks: int = 1) -> str:
    """One sentence saying who takes the bet between this player and the banker, and why."""
    player, banker = list(player_cards), list(banker_cards)
    reason = call_reason(player, banker, ace, decks)
    ace = check_ace(ace)
    return _CALLS[_lang(lang)][reason].format(p=points(player, ace), b=points(banker, ace))


# Portuguese renderings of IllegalAction codes (English stays the exception's own text).
_KIND_PT = {"bet": "apostar", "hit": "pedir carta", "stand": "parar", "draw": "comprar carta",
            "call": "chamar", "take_bank": "aceitar a banca", "refuse_bank": "recusar a banca",
            "bid": "dar um lance", "pass": "passar", "offer": "oferecer fichas pela banca",
            "accept_offer": "aceitar a oferta", "refuse_offer": "recusar a oferta"}
_PHASE_PT = {"bet": "apostas", "players": "vez dos jogadores", "banker": "vez da banca",
             "rotation": "troca da banca"}
_FIELD_PT = {"amount": "quantidade", "seat": "jogador"}
_ILLEGAL_PT = {
    "game_over": "o jogo acabou",
    "not_your_turn": "é a vez do jogador {current}, não do jogador {seat}",
    "wrong_kind": "“{kind}” não vale agora: o jogador {current} deve escolher {expected} ({phase})",
    "bet_limits": "uma aposta de {n} está fora dos limites de {min_bet} a {max_bet}",
    "too_few_chips": "o jogador {seat} só tem {chips} ficha{cs}",
    "hand_full": "o jogador {seat} tem {points} pontos e não pode receber mais cartas",
    "no_cards_left": "não há mais cartas para dar: pare",
    "not_waiting": "o jogador {seat} não está esperando ser chamado (esperam: {waiting})",
    "bid_too_low": "um lance de {n} tem de superar o maior lance, {high_bid}",
    "offer_too_low": "uma oferta de {n} tem de ser de pelo menos 1 ficha",
    "unknown_action": "não existe a ação “{text}”",
    "needs_field": "a ação “{kind}” precisa de um número inteiro ({field})",
    "takes_no_field": "a ação “{kind}” não leva {field}",
    "not_readable": "não é possível ler uma ação em {text}",
    "takes_no_number": "a ação “{kind}” não leva número: {text}",
    "needs_number": "a ação “{kind}” precisa de um número, como em “{kind} 2”",
}


def illegal_message(code: str | None, fields: dict, english: str, lang: str = "pt") -> str:
    """An IllegalAction's reason in `lang`; English (or an unknown code) keeps `english`."""
    if _lang(lang) == "en" or code not in _ILLEGAL_PT:
        return english
    data = dict(fields)
    for key in ("kind",):
        if key in data:
            data[key] = _KIND_PT.get(data[key], data[key])
    if "expected" in data:
        data["expected"] = " ou ".join(f"“{_KIND_PT.get(k, k)}”" for k in data["expected"])
    if "phase" in data:
        data["phase"] = "fase: " + _PHASE_PT.get(data["phase"], data["phase"])
    if "field" in data:
        data["field"] = _FIELD_PT.get(data["field"], data["field"])
    if "waiting" in data:
        data["waiting"] = ", ".join(map(str, data["waiting"])) or "ninguém"
    data["cs"] = _plural(data.get("chips"))
    return _ILLEGAL_PT[code].format(**data)
