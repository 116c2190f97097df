"""Every Portuguese and English sentence the truco engine says.

`narrate(event, variant, lang)` turns one event of `state.events` into a sentence;
`rules.explain_trick` / `rules.explain_hand` and `Action.describe` build theirs here too.
Languages: "pt" (default) and "en".
"""
from __future__ import annotations

LANGS = ("pt", "en")

_ORDINAL = {
    "pt": ("1ª", "2ª", "3ª"),
    "en": ("first", "second", "third"),
}

_MANILHA_PHRASE = {
    "pt": {"zap": "o zap", "copas": "a manilha de copas", "sete copas": "o sete copas",
           "espadilha": "a espadilha", "pica-fumo": "o pica-fumo"},
    "en": {"zap": "the zap, the top manilha", "copas": "the copas manilha",
           "sete copas": "the sete copas manilha", "espadilha": "the espadilha manilha",
           "pica-fumo": "the pica-fumo manilha"},
}


def _lang(lang: str) -> str:
    if lang not in LANGS:
        raise ValueError(f"language must be 'pt' or 'en', not {lang!r}")
    return lang


def team_name(team: int, lang: str = "pt") -> str:
    """ "a dupla dos assentos 0 e 2" / "the team of seats 0 and 2". """
    a, b = (0, 2) if team == 0 else (1, 3)
    return f"a dupla dos assentos {a} e {b}" if lang == "pt" else f"the team of seats {a} and {b}"


def seat_name(seat: int, lang: str = "pt") -> str:
    return f"assento {seat}" if lang == "pt" else f"seat {seat}"


def _cap(sentence: str) -> str:
    return sentence[:1].upper() + sentence[1:]


def threshold_name(variant) -> str:
    """ "mão de onze" (Paulista) or "mão de dez" (Mineiro); the game word in both languages."""
    return "mão de onze" if variant.threshold == 11 else "mão de dez"


def manilha_phrase(name: str | None, lang: str) -> str:
    if name is None:
        return ""
    return _MANILHA_PHRASE[lang].get(name, ("a manilha " if lang == "pt" else "the manilha ") + name)


def card_phrase(card_text: str, manilha: str | None, lang: str) -> str:
    """ "7♥, a manilha de copas" or just "7♥". """
    return f"{card_text}, {manilha_phrase(manilha, lang)}" if manilha else card_text


def raise_word(variant, value: int | None) -> str:
    if variant is None or value is None or value not in variant.ladder:
        return "truco" if value is None else str(value)
    return variant.raise_name(value)


# -- actions ----------------------------------------------------------------------------

def describe_action(action, lang: str = "pt", variant=None) -> str:
    lang = _lang(lang)
    kind = action.kind
    pt = lang == "pt"
    if kind == "play":
        return f"jogar {action.card}" if pt else f"play {action.card}"
    if kind == "cover":
        return f"jogar {action.card} coberta" if pt else f"play {action.card} face down"
    if kind == "blind":
        nth = _ORDINAL[lang][action.position]
        return f"jogar às cegas a {nth} carta" if pt else f"play the {nth} card blind"
    if kind == "raise":
        word = raise_word(variant, action.value)
        value = "" if action.value is None else f" ({action.value})"
        return f"pedir {word}{value}" if pt else f"call {word}{value}"
    return {
        "accept": ("aceitar", "accept"),
        "run": ("correr", "run"),
        "play_hand": ("jogar a mão", "play the hand"),
        "run_hand": ("correr da mão", "run from the hand"),
    }[kind][0 if pt else 1]


# -- explanations -----------------------------------------------------------------------

def explain_trick(parsed, strength_by_seat, team, seat, first_tying, variant, manilha_cards, lang):
    lang = _lang(lang)
    pt = lang == "pt"
    names = dict(zip(manilha_cards, variant.manilha_names))

    def show(s: int) -> str:
        card = dict(parsed)[s]
        if card is None:
            return f"a carta coberta do {seat_name(s, lang)}" if pt else f"the face-down card of seat {s}"
        return f"{card_phrase(str(card), names.get(card), lang)} ({seat_name(s, lang)})"

    if team is None and first_tying is None:
        return ("Todas as cartas estão cobertas e carta coberta não vale nada: a rodada empata."
                if pt else "Every card is face down and a face-down card is worth nothing: "
                           "the trick is tied.")
    if team is None:
        tied = [s for s, _ in parsed if strength_by_seat[s] == strength_by_seat[first_tying]]
        cards = " e ".join(show(s) for s in tied) if pt else " and ".join(show(s) for s in tied)
        return (f"A melhor carta de cada dupla empata ({cards}): a rodada empata."
                if pt else f"Each team's best card is equal ({cards}): the trick is tied.")
    others = [s for s, _ in parsed if (s & 1) != team and parsed and dict(parsed)[s] is not None]
    partner_tie = [s for s, _ in parsed
                   if s != seat and (s & 1) == team and strength_by_seat[s] == strength_by_seat[seat]]
    if others:
        best_other = max(others, key=lambda s: strength_by_seat[s])
        if pt:
            sentence = f"{show(seat)} vence {show(best_other)}"
        else:
            sentence = f"{show(seat)} beats {show(best_other)}"
    else:
        sentence = (f"{show(seat)} vence, pois a outra dupla não mostrou carta"
                    if pt else f"{show(seat)} wins, since the other team showed no card")
    if partner_tie:
        sentence += (", e empatar com o parceiro não tira a rodada da dupla"
                     if pt else ", and a tie between partners still wins for their team")
    return _cap(sentence) + (f": {team_name(team, lang)} leva a rodada."
                             if pt else f": {team_name(team, lang)} wins the trick.")


def explain_hand(results, winner, lang):
    lang = _lang(lang)
    pt = lang == "pt"
    team = team_name(winner, lang) if winner is not None else ""
    r = tuple(results)
    if len(r) == 2 and r[0] is not None and r[0] == r[1]:
        return (f"{_cap(team)} venceu as duas primeiras rodadas e leva a mão."
                if pt else f"{_cap(team)} won the first two tricks and takes the hand.")
    if len(r) == 2 and r[0] is None:
        return (f"A 1ª rodada empatou, então a 2ª decide: {team} leva a mão."
                if pt else f"The first trick tied, so the second decides: {team} takes the hand.")
    if len(r) == 2:
        return (f"{_cap(team)} venceu a 1ª rodada e a 2ª empatou, então a 1ª decide: {team} leva a mão."
                if pt else f"{_cap(team)} won the first trick and the second tied, so the first "
                           f"decides: {team} takes the hand.")
    if r[0] is None and r[1] is None and winner is None:
        return ("As três rodadas empataram: ninguém pontua e uma nova mão começa."
                if pt else "All three tricks tied: nobody scores and a new hand starts.")
    if r[0] is None:
        return (f"As duas primeiras rodadas empataram, então a 3ª decide: {team} leva a mão."
                if pt else f"The first two tricks tied, so the third decides: {team} takes the hand.")
    if r[2] is None:
        return (f"Cada dupla venceu uma rodada e a 3ª empatou, então vale a 1ª: {team} leva a mão."
                if pt else f"One trick each and the third tied, so the first trick decides: "
                           f"{team} takes the hand.")
    return (f"Cada dupla venceu uma rodada e {team} venceu a 3ª, então leva a mão."
            if pt else f"One trick each, and {team} won the third, so it takes the hand.")


def explain_ending(last_hand: dict, variant, lang: str = "pt") -> str:
    """Why the last hand ended as it did when no trick decided it (a run, a run from the
    mão de onze/dez, a forbidden raise)."""
    lang = _lang(lang)
    pt = lang == "pt"
    reason, points, winner = last_hand["reason"], last_hand["points"], last_hand["winner_team"]
    unit = ("ponto" if points == 1 else "pontos") if pt else ("point" if points == 1 else "points")
    t = team_name(winner, lang) if winner is not None else ""
    name = threshold_name(variant)
    if reason == "run":
        who = seat_name(last_hand["seat"], lang)
        asked = last_hand["refused_value"]
        word = raise_word(variant, asked)
        return _cap(f"o {who} correu do pedido de {word} ({asked}): {t} leva a mão e {points} "
                    f"{unit}, o valor da mão antes do pedido recusado." if pt else
                    f"{who} ran from the call of {word} ({asked}): {t} takes the hand and "
                    f"{points} {unit}, the hand's value before the refused call.")
    if reason == "ran_hand":
        ran = team_name(1 - winner, lang)
        return _cap(f"{ran} correu da {name}: {t} ganha {points} {unit}." if pt else
                    f"{ran} ran from the {name}: {t} scores {points} {unit}.")
    if reason == "forbidden_raise":
        raiser = team_name(1 - winner, lang)
        return _cap(f"{raiser} pediu truco na {name}, o que é proibido: perde o jogo." if pt else
                    f"{raiser} called truco in the {name}, which is forbidden: it loses the game.")
    raise ValueError(f"the tricks decided this hand ({reason}): explain them with explain_hand")


# -- narration --------------------------------------------------------------------------

def narrate(event: dict, variant, lang: str = "pt") -> str:
    """One sentence for one event of `state.events`, in Portuguese ("pt") or English ("en")."""
    from .variants import get_variant

    lang = _lang(lang)
    variant = get_variant(variant)
    kind = event.get("type")
    handler = _NARRATORS.get(kind)
    if handler is None:
        raise ValueError(f"unknown event type {kind!r}")
    return handler(event, variant, lang, lang == "pt")


def _n_deal(e, variant, lang, pt):
    dealer, mao = seat_name(e["dealer"], lang), seat_name(e["mao"], lang)
    if pt:
        s = f"Mão {e['hand_number']}: {dealer} dá as cartas"
        if e.get("vira"):
            s += f", a vira é {e['vira']} (manilhas: {', '.join(e['manilhas'])})"
        s += f" e {mao} começa; a mão vale {e['value']}."
    else:
        s = f"Hand {e['hand_number']}: {dealer} deals"
        if e.get("vira"):
            s += f", the vira is {e['vira']} (manilhas: {', '.join(e['manilhas'])})"
        s += f" and {mao} leads; the hand is worth {e['value']}."
    s = _cap(s)
    if e["mode"] == "mao_de_ferro":
        s += (" É mão de ferro: ninguém vê as próprias cartas." if pt
              else " It is a mão de ferro: nobody sees their own cards.")
    elif e["mode"] == "threshold":
        t = team_name(e["threshold_team"], lang)
        s += (f" É {threshold_name(variant)} para {t}." if pt
              else f" It is a {threshold_name(variant)} for {t}.")
    return s


def _n_decide(e, variant, lang, pt):
    t, name = team_name(e["team"], lang), threshold_name(variant)
    if e["play"]:
        return _cap(f"{t} decide jogar a {name}." if pt else f"{t} decides to play the {name}.")
    return _cap(f"{t} corre da {name}." if pt else f"{t} runs from the {name}.")


def _n_play(e, variant, lang, pt):
    who = _cap(seat_name(e["seat"], lang))
    if e.get("covered"):
        return f"{who} joga uma carta coberta." if pt else f"{who} plays a card face down."
    card = card_phrase(e["card"], e.get("manilha"), lang)
    if e.get("blind"):
        nth = _ORDINAL[lang][e["position"]]
        return (f"{who} joga às cegas a {nth} carta: {card}." if pt
                else f"{who} plays the {nth} card blind: {card}.")
    return f"{who} joga {card}." if pt else f"{who} plays {card}."


def _n_trick(e, variant, lang, pt):
    nth = _ORDINAL[lang][e["number"] - 1]
    if e["winner_team"] is None:
        return f"A {nth} rodada empata." if pt else f"The {nth} trick is tied."
    seat = _cap(seat_name(e["winning_seat"], lang))
    card = card_phrase(e["card"], e.get("manilha"), lang)
    return (f"{seat} vence a {nth} rodada com {card}." if pt
            else f"{seat} wins the {nth} trick with {card}.")


def _n_raise(e, variant, lang, pt):
    who = _cap(seat_name(e["seat"], lang))
    word = raise_word(variant, e["value"])
    if e.get("forbidden"):  # in a mão de onze/dez any raise is a call for truco
        word, name = "truco", threshold_name(variant)
        return (f"{who} pede {word} na {name}, o que é proibido." if pt  # the hand event
                else f"{who} calls {word} in the {name}, which is forbidden.")  # says the rest
    return (f"{who} pede {word}: a mão passa a valer {e['value']} se aceitarem." if pt
            else f"{who} calls {word}: the hand will be worth {e['value']} if accepted.")


def _n_accept(e, variant, lang, pt):
    who = _cap(seat_name(e["seat"], lang))
    return f"{who} aceita: a mão vale {e['value']}." if pt else f"{who} accepts: the hand is worth {e['value']}."


def _n_run(e, variant, lang, pt):
    who = _cap(seat_name(e["seat"], lang))
    t = team_name(1 - (e["seat"] & 1), lang)
    pts = e["points"]
    return (f"{who} corre: {t} ganha {pts} {'ponto' if pts == 1 else 'pontos'}." if pt
            else f"{who} runs: {t} scores {pts} {'point' if pts == 1 else 'points'}.")


def _n_hand(e, variant, lang, pt):
    score = f"{e['score'][0]} x {e['score'][1]}"
    if e["winner_team"] is None:
        return (f"Todas as rodadas empataram: ninguém pontua ({score})." if pt
                else f"Every trick tied: nobody scores ({score}).")
    t, pts = team_name(e["winner_team"], lang), e["points"]
    if e["reason"] == "forbidden_raise":  # the game event gives the result and the score
        raiser, name = team_name(1 - e["winner_team"], lang), threshold_name(variant)
        return _cap(f"{raiser} pediu truco na {name} e perde o jogo; a mão não vale pontos."
                    if pt else f"{raiser} called truco in the {name} and loses the game; the "
                               f"hand scores no points.")
    unit = ("ponto" if pts == 1 else "pontos") if pt else ("point" if pts == 1 else "points")
    return _cap(f"{t} leva a mão e {pts} {unit} (placar {score})." if pt
                else f"{t} takes the hand and {pts} {unit} (score {score}).")


def _n_game(e, variant, lang, pt):
    t = team_name(e["winner_team"], lang)
    score = f"{e['score'][0]} x {e['score'][1]}"
    return _cap(f"{t} vence o jogo, {score}." if pt else f"{t} wins the game, {score}.")


_NARRATORS = {
    "deal": _n_deal, "decide": _n_decide, "play": _n_play, "trick": _n_trick,
    "raise": _n_raise, "accept": _n_accept, "run": _n_run, "hand": _n_hand, "game": _n_game,
}


# -- refusals -----------------------------------------------------------------------------
# Portuguese renderings of TrucoError / IllegalActionError codes; English stays the
# exception's own text. Teams are named as the lessons do: dupla A = seats 0 and 2.

def dupla(team: int) -> str:
    """ "a dupla A (assentos 0 e 2)" / "a dupla B (assentos 1 e 3)". """
    return "a dupla A (assentos 0 e 2)" if team == 0 else "a dupla B (assentos 1 e 3)"


_HINT_PT = "escreva por exemplo “joga 7♥”, “cobre 7♥”, “truco”, “aceito” ou “corro”"

_ILLEGAL_PT = {
    # the game state
    "game_over": "o jogo acabou: {dupla} venceu",
    "not_your_turn": "é a vez do assento {current}, não do assento {seat}",
    "must_decide": "{Dupla} precisa primeiro decidir se joga a {name} ou corre dela; "
                   "quem decide é o assento {seat}",
    "no_decision": "não há decisão de {name} a tomar agora",
    "must_answer": "o assento {seat} precisa primeiro responder ao pedido de {raise_name} "
                   "({value}): aceitar, correr ou aumentar",
    "not_legal": "“{action}” não é permitido agora",
    "nothing_to_answer": "não há pedido de truco para {kind}",
    "ferro_no_raise": "ninguém pode pedir truco na mão de ferro",
    "raised_last": "{dupla} pediu por último e não pode aumentar de novo: só depois que a "
                   "outra dupla aumentar",
    "ferro_blind": "na mão de ferro ninguém vê as próprias cartas: jogue às cegas pela "
                   "posição (1ª, 2ª ou 3ª carta)",
    "no_position": "o assento {seat} tem {n} carta{s}: não existe a {nth} carta",
    "blind_only_ferro": "jogar às cegas pela posição é só na mão de ferro",
    "not_in_pack": "{card} não está no baralho do truco (sem 8, 9 e 10)",
    "not_in_hand": "{card} não está na mão do assento {seat}",
    "no_cover_first": "carta coberta não é permitida na 1ª rodada",
    "above_top": "a mão já vale {value}: nada passa de {top}",
    "one_step": "os valores sobem um degrau de cada vez: o próximo pedido é {raise_name} "
                "({next}), não {asked}",
    # reading actions
    "not_an_action": "{text} não é uma jogada: " + _HINT_PT,
    "empty_action": "um texto vazio não é uma jogada: " + _HINT_PT,
    "unreadable_action": "não é possível ler uma jogada em “{text}”: " + _HINT_PT,
    "bad_position": "uma jogada às cegas indica a posição 0, 1 ou 2, não {position}",
    "bad_raise_value": "um pedido indica um valor positivo, não {value}",
    # deals, tricks, variants
    "four_hands": "uma distribuição tem quatro mãos (uma por assento), não {n}",
    "three_cards": "o assento {seat} deve ter 3 cartas, não {n}",
    "unreadable_card": "não é possível ler uma carta em “{text}”{where}: escreva como "
                       "“7♥”, “Q♠” ou “7 de copas”",
    "card_not_in_pack": "{card}{where} não está no baralho do truco (sem 8, 9 e 10)",
    "dealt_twice": "{card} foi distribuída duas vezes: as 12 cartas devem ser diferentes",
    "needs_vira": "o Truco Paulista precisa de uma vira para saber as manilhas",
    "vira_in_hand": "a vira {card} não pode estar também numa mão",
    "mineiro_no_vira": "o Truco Mineiro não tem vira: as manilhas são fixas",
    "bad_dealer": "quem dá as cartas é um assento de 0 a 3, não {dealer}",
    "bad_score": "o placar são dois números inteiros de 0 a {top}, não {score}",
    "bad_tie_lead": "depois de um empate abre quem abriu a rodada (“leader”) ou quem jogou "
                    "a primeira carta empatada (“first_tying”), não {value}",
    "bad_seat": "os assentos vão de 0 a 3, não {seat}",
    "bad_format": "isto não é um jogo de truco salvo (formato {format})",
    "play_pair": "cada jogada é um par (assento, carta), não {item}",
    "seat_twice": "o assento {seat} joga duas vezes na mesma rodada",
    "card_twice": "{card} aparece duas vezes na mesma rodada",
    "empty_trick": "uma rodada precisa de pelo menos uma jogada",
    "bad_result": "o resultado de uma rodada é A, B ou empate, não {result}",
    "too_many_tricks": "uma mão tem no máximo 3 rodadas, não {n}",
    "past_decided": "os resultados {results} continuam depois da {n}ª rodada, que já decidiu a mão",
    "undecided": "os resultados {results} não terminam a mão: ela ainda está indefinida",
    "unknown_variant": "variante de truco desconhecida {variant}: escolha “paulista” ou “mineiro”",
    "odds_hand_size": "a sua mão tem 3 cartas, não {n}",
    "odds_partner_size": "a mão do parceiro tem 3 cartas, não {n}",
    "odds_twice": "uma carta aparece duas vezes entre a sua mão, a do parceiro e a vira",
    "odds_unseen": "só restam {left} cartas não vistas: são precisas {need}",
    "odds_position": "a posição vai de 0 (mão) a 3 (pé), não {position}",
    "not_a_raise": "{value} não é um pedido de truco nesta variante: os pedidos são {ladder}",
    "bad_vira": "{card} não pode ser a vira: 8, 9 e 10 não estão no baralho do truco",
    "not_truco_rank": "{rank} não é uma carta do truco: 8, 9 e 10 não estão no baralho",
}

_KIND_VERB_PT = {"accept": "aceitar", "run": "correr"}


def _results_pt(results) -> str:
    return "(" + ", ".join("empate" if r is None else "AB"[r] for r in results) + ")"


def _action_pt(text: str) -> str:
    from .actions import Action  # actions imports this module
    try:
        return Action.parse(text).describe("pt")
    except ValueError:
        return text


def illegal_message(code: str | None, fields: dict, english: str, lang: str = "pt") -> str:
    """A refusal's reason in `lang`; English (or an unknown code) keeps `english`."""
    if _lang(lang) == "en" or code not in _ILLEGAL_PT:
        return english
    data = dict(fields)
    if "team" in data:
        data["dupla"] = dupla(data["team"])
        data["Dupla"] = _cap(data["dupla"])
    if "kind" in data:
        data["kind"] = _KIND_VERB_PT.get(data["kind"], data["kind"])
    if "action" in data:
        data["action"] = _action_pt(data["action"])
    if "results" in data:
        data["results"] = _results_pt(data["results"])
    if "n" in data:
        data["s"] = "" if data["n"] == 1 else "s"
    if "position" in data and isinstance(data["position"], int):
        data["nth"] = f"{data['position'] + 1}ª"
    place = data.get("place")  # where a card was given: "hand", "vira", "trick" or None
    data["where"] = {"hand": f" na mão do assento {data.get('seat')}", "vira": " na vira",
                     "trick": f" jogada pelo assento {data.get('seat')}",
                     "mine": " na sua mão", "partner": " na mão do parceiro",
                     "seen": " nas cartas já vistas"}.get(place, "")
    return _ILLEGAL_PT[code].format(**data)
