"""Every sentence the truco engine says, in Portuguese and English: `CATALOGUE`.

One entry per sentence or phrase, `key -> (portuguese, english)`: narration of the events
(`n_*`), explanations of tricks and hands (`ex_*`), what an action is called (`act_*`), the
names of teams and seats, and every refusal (a `TrucoError` code is its key). Nothing else
in the engine writes a sentence; widgets name teams with `team_label`.

Teams are named here only: team 0 is "dupla A" (seats 0 and 2), team 1 "dupla B" (seats 1
and 3). `CATALOGUE.say(key, lang, **fields)` derives, from the language-neutral fields a
refusal carries, the words each language needs (see `TrucoCatalogue.say`).

This module imports nothing else from `cartas.truco`, so every other module may use it.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..cards import Card
from ..catalogue import Catalogue, check_lang

TEAM_LETTERS = ("A", "B")
TEAM_SEATS = ((0, 2), (1, 3))

_ENTRIES = {
    # -- names ---------------------------------------------------------------------------
    "team_label": ("Dupla {letter}", "Team {letter}"),
    "team_phrase": ("a dupla {letter} (assentos {a} e {b})", "team {letter} (seats {a} and {b})"),
    "seat": ("assento {seat}", "seat {seat}"),
    "tie": ("empate", "tie"),
    "nobody": ("ninguém", "nobody"),
    "point": ("ponto", "point"),
    "points": ("pontos", "points"),
    "ordinal_1": ("1ª", "first"),
    "ordinal_2": ("2ª", "second"),
    "ordinal_3": ("3ª", "third"),
    "threshold_11": ("mão de onze", "mão de onze"),
    "threshold_10": ("mão de dez", "mão de dez"),
    "manilha_zap": ("o zap", "the zap, the top manilha"),
    "manilha_copas": ("a manilha de copas", "the hearts manilha"),
    "manilha_sete copas": ("o sete copas", "the seven of hearts manilha"),
    # a manilha's nickname as a caption: the game's own words, but a suit's name is translated
    "label_copas": ("copas", "hearts"),
    "label_sete copas": ("sete copas", "seven of hearts"),
    "manilha_espadilha": ("a espadilha", "the espadilha manilha"),
    "manilha_pica-fumo": ("o pica-fumo", "the pica-fumo manilha"),
    "manilha_other": ("a manilha {name}", "the manilha {name}"),
    "card_manilha": ("{card}, {manilha}", "{card}, {manilha}"),
    "results_tie": ("empate", "tie"),
    # -- actions -------------------------------------------------------------------------
    "act_play": ("jogar {card}", "play {card}"),
    "act_cover": ("jogar {card} coberta", "play {card} face down"),
    "act_blind": ("jogar às cegas a {nth} carta", "play the {nth} card blind"),
    "act_raise": ("pedir {word}", "call {word}"),
    "act_raise_value": ("pedir {word} ({value})", "call {word} ({value})"),
    "act_accept": ("aceitar", "accept"),
    "act_run": ("correr", "run"),
    "act_play_hand": ("jogar a mão", "play the hand"),
    "act_run_hand": ("correr da mão", "run from the hand"),
    # -- narration -----------------------------------------------------------------------
    "n_deal": ("Mão {hand_number}: {dealer} dá as cartas e {mao} começa; a mão vale {value}.",
               "Hand {hand_number}: {dealer} deals and {mao} leads; the hand is worth {value}."),
    "n_deal_vira": ("Mão {hand_number}: {dealer} dá as cartas, a vira é {vira} (manilhas: "
                    "{manilhas}) e {mao} começa; a mão vale {value}.",
                    "Hand {hand_number}: {dealer} deals, the vira is {vira} (manilhas: "
                    "{manilhas}) and {mao} leads; the hand is worth {value}."),
    "n_deal_ferro": (" É mão de ferro: ninguém vê as próprias cartas.",
                     " It is a mão de ferro: nobody sees their own cards."),
    "n_deal_threshold": (" É {name} para {team}.", " It is a {name} for {team}."),
    "n_decide_play": ("{Team} decide jogar a {name}.", "{Team} decides to play the {name}."),
    "n_decide_run": ("{Team} corre da {name}.", "{Team} runs from the {name}."),
    "n_play": ("{Seat} joga {card}.", "{Seat} plays {card}."),
    "n_play_covered": ("{Seat} joga uma carta coberta.", "{Seat} plays a card face down."),
    "n_play_blind": ("{Seat} joga às cegas a {nth} carta: {card}.",
                     "{Seat} plays the {nth} card blind: {card}."),
    "n_trick_tie": ("A {nth} rodada empata.", "The {nth} trick is tied."),
    "n_trick": ("{Seat} vence a {nth} rodada com {card}.", "{Seat} wins the {nth} trick with {card}."),
    "n_raise": ("{Seat} pede {word}: a mão passa a valer {value} se aceitarem.",
                "{Seat} calls {word}: the hand will be worth {value} if accepted."),
    "n_raise_forbidden": ("{Seat} pede truco na {name}, o que é proibido.",
                          "{Seat} calls truco in the {name}, which is forbidden."),
    "n_accept": ("{Seat} aceita: a mão vale {value}.", "{Seat} accepts: the hand is worth {value}."),
    # the same two events told without their values, for exercises that ask for them
    "n_raise_brief": ("{Seat} pede {word}.", "{Seat} calls {word}."),
    "n_accept_brief": ("{Seat} aceita.", "{Seat} accepts."),
    "n_run": ("{Seat} corre: {team} ganha {points} {unit}.",
              "{Seat} runs: {team} scores {points} {unit}."),
    "n_hand_all_tied": ("Todas as rodadas empataram: ninguém pontua ({score}).",
                        "Every trick tied: nobody scores ({score})."),
    "n_hand_forbidden": ("{Raiser} pediu truco na {name} e perde o jogo; a mão não vale pontos.",
                         "{Raiser} called truco in the {name} and loses the game; the hand "
                         "scores no points."),
    "n_hand": ("{Team} leva a mão e {points} {unit} (placar {score}).",
               "{Team} takes the hand and {points} {unit} (score {score})."),
    "n_game": ("{Team} vence o jogo, {score}.", "{Team} wins the game, {score}."),
    # a short game (docs/rules.md#truco-short-game): "Mão 3 de 5", then the tie-break hands
    "n_hand_of": ("{n} de {limit}", "{n} of {limit}"),
    "n_hand_extra": ("{n} (desempate: {limit} mãos terminaram empatadas)",
                     "{n} (a tie-break: {limit} hands ended level)"),
    "n_game_hands": ("Depois de {hands} mãos, {Team} está na frente e vence o jogo, {score}.",
                     "After {hands} hands, {Team} is ahead and wins the game, {score}."),
    # -- explanations ----------------------------------------------------------------------
    "ex_card_of": ("{card} ({seat})", "{card} ({seat})"),
    "ex_covered_of": ("a carta coberta do {seat}", "the face-down card of {seat}"),
    "ex_and": (" e ", " and "),
    "ex_all_covered": ("Todas as cartas estão cobertas e carta coberta não vale nada: a rodada "
                       "empata.", "Every card is face down and a face-down card is worth "
                       "nothing: the trick is tied."),
    "ex_tie": ("A melhor carta de cada dupla empata ({cards}): a rodada empata.",
               "Each team's best card is equal ({cards}): the trick is tied."),
    "ex_beats": ("{Winner} vence {loser}", "{Winner} beats {loser}"),
    "ex_no_card": ("{Winner} vence, pois a outra dupla não mostrou carta",
                   "{Winner} wins, since the other team showed no card"),
    "ex_partner_tie": (", e empatar com o parceiro não tira a rodada da dupla",
                       ", and a tie between partners still wins for their team"),
    "ex_takes_trick": ("{sentence}: {team} leva a rodada.", "{sentence}: {team} wins the trick."),
    # mano a mano (two players): a team is its one player (docs/rules.md#mano-a-mano-players)
    "ex_player": ("o {seat}", "{seat}"),
    "ex_tie_solo": ("As cartas dos dois jogadores empatam ({cards}): a rodada empata.",
                    "The two players' cards are equal ({cards}): the trick is tied."),
    "ex_no_card_solo": ("{Winner} vence, pois o outro jogador não mostrou carta",
                        "{Winner} wins, since the other player showed no card"),
    "ex_hand_first_counts_solo": ("Cada jogador venceu uma rodada e a 3ª empatou, então vale a 1ª: "
                                  "{team} leva a mão.", "One trick each and the third tied, so the "
                                  "first trick decides: {team} takes the hand."),
    "ex_hand_third_solo": ("Cada jogador venceu uma rodada e {team} venceu a 3ª, então leva a mão.",
                           "One trick each, and {team} won the third, so takes the hand."),
    "ex_hand_two": ("{Team} venceu as duas primeiras rodadas e leva a mão.",
                    "{Team} won the first two tricks and takes the hand."),
    "ex_hand_tie_first": ("A 1ª rodada empatou, então a 2ª decide: {team} leva a mão.",
                          "The first trick tied, so the second decides: {team} takes the hand."),
    "ex_hand_tie_second": ("{Team} venceu a 1ª rodada e a 2ª empatou, então a 1ª decide: {team} "
                           "leva a mão.", "{Team} won the first trick and the second tied, so "
                           "the first decides: {team} takes the hand."),
    "ex_hand_all_tied": ("As três rodadas empataram: ninguém pontua e uma nova mão começa.",
                         "All three tricks tied: nobody scores and a new hand starts."),
    "ex_hand_third_decides": ("As duas primeiras rodadas empataram, então a 3ª decide: {team} "
                              "leva a mão.", "The first two tricks tied, so the third decides: "
                              "{team} takes the hand."),
    "ex_hand_first_counts": ("Cada dupla venceu uma rodada e a 3ª empatou, então vale a 1ª: "
                             "{team} leva a mão.", "One trick each and the third tied, so the "
                             "first trick decides: {team} takes the hand."),
    "ex_hand_third": ("Cada dupla venceu uma rodada e {team} venceu a 3ª, então leva a mão.",
                      "One trick each, and {team} won the third, so it takes the hand."),
    "ex_ran": ("O {seat} correu do pedido de {word} ({asked}): {team} leva a mão e {points} "
               "{unit}, o valor da mão antes do pedido recusado.",
               "{Seat} ran from the call of {word} ({asked}): {team} takes the hand and "
               "{points} {unit}, the hand's value before the refused call."),
    "ex_ran_hand": ("{Ran} correu da {name}: {team} ganha {points} {unit}.",
                    "{Ran} ran from the {name}: {team} scores {points} {unit}."),
    "ex_forbidden": ("{Raiser} pediu truco na {name}, o que é proibido: perde o jogo.",
                     "{Raiser} called truco in the {name}, which is forbidden: it loses the "
                     "game."),
    "ex_next_leader": ("Depois do empate, {seat} abre a próxima rodada ({rule}).",
                       "After the tie, {seat} leads the next trick ({rule})."),
    "tie_lead_leader": ("quem abriu a rodada empatada", "whoever led the tied trick"),
    "tie_lead_first_tying": ("quem jogou a primeira carta empatada",
                             "whoever played the first of the tying cards"),
    # -- refusals: the game state ------------------------------------------------------------
    "game_over": ("o jogo acabou: {team_name} venceu", "the game is over: {team_name} won"),
    "not_your_turn": ("é a vez do assento {current}, não do assento {seat}",
                      "it is seat {current}'s turn, not seat {seat}'s"),
    "must_decide": ("{Team_name} precisa primeiro decidir se joga a {name} ou corre dela; quem "
                    "decide é o assento {seat}",
                    "{Team_name} must first decide whether to play the {name} or run from it "
                    "('play hand' / 'run hand'); seat {seat} decides"),
    "no_decision": ("não há decisão de {name} a tomar agora",
                    "there is no {name} decision to make now"),
    "must_answer": ("o assento {seat} precisa primeiro responder ao pedido de {raise_name} "
                    "({value}): aceitar, correr ou aumentar",
                    "seat {seat} must first answer the raise to {value}: accept, run or raise"),
    "not_legal": ("“{action_text}” não é permitido agora", "{action_text} is not legal now"),
    "nothing_to_answer": ("não há pedido de truco para {kind_text}",
                          "there is no raise to {kind_text}"),
    "ferro_no_raise": ("ninguém pode pedir truco na mão de ferro",
                       "nobody may raise in a mão de ferro"),
    "raised_last": ("{team_name} pediu por último e não pode aumentar de novo: só depois que "
                    "{other_side} aumentar",
                    "{team_name} raised last and cannot raise again until {other_side} raises"),
    "other_team": ("a outra dupla", "the other team"),
    "other_player": ("o outro jogador", "the other player"),
    "ferro_blind": ("na mão de ferro ninguém vê as próprias cartas: jogue às cegas pela posição "
                    "(1ª, 2ª ou 3ª carta)",
                    "in a mão de ferro nobody sees their cards: play blind by position "
                    "('blind 0', 'blind 1', ...)"),
    "no_position": ("o assento {seat} tem {n} carta{s}: não existe a {nth} carta",
                    "seat {seat} has {n} card{s} left: position {position} does not exist"),
    "blind_only_ferro": ("jogar às cegas pela posição é só na mão de ferro",
                         "blind play by position is only for a mão de ferro"),
    "not_in_pack": ("{card} não está no baralho do truco (sem 8, 9 e 10)",
                    "{card} is not in the truco pack (no 8s, 9s or 10s)"),
    "not_in_hand": ("{card} não está na mão do assento {seat}", "{card} is not in seat {seat}'s hand"),
    "no_cover_first": ("carta coberta não é permitida na {nth_trick} rodada: só a partir da "
                       "{from_trick}",
                       "carta coberta is not allowed in the {nth_trick} trick: only from the "
                       "{from_trick} on"),
    "above_top": ("a mão já vale {value}: nada passa de {top}",
                  "the hand is already at {value}: nothing goes above {top}"),
    "one_step": ("os valores sobem um degrau de cada vez: o próximo pedido é {raise_name} "
                 "({next}), não {asked}",
                 "values rise one step at a time: the next raise is to {next}, not {asked}"),
    "no_legal_action": ("não há jogada possível: não é a vez deste assento",
                        "no legal action: it is not this seat's turn"),
    "bot_input": ("um robô escolhe a partir de state.view(seat), não de {value}",
                  "a bot chooses from state.view(seat), not from {value}"),
    # -- refusals: reading actions -------------------------------------------------------
    "not_an_action": ("{text} não é uma jogada: {hint}", "{text} is not an action: {hint}"),
    "empty_action": ("um texto vazio não é uma jogada: {hint}",
                     "an empty text is not an action: {hint}"),
    "unreadable_action": ("“{text}” não se lê como jogada: {hint}",
                          "cannot read an action from '{text}': {hint}"),
    "hint": ("escreva por exemplo “joga 7♥”, “cobre 7♥”, “truco”, “aceito” ou “corro”",
             "write e.g. 'play 7♥', 'cover 7♥', 'blind 0', 'raise 3', 'accept', 'run', "
             "'play hand'"),
    "bad_position": ("uma jogada às cegas indica a posição 0, 1 ou 2, não {position}",
                     "a blind play names position 0, 1 or 2, not {position}"),
    "bad_raise_value": ("um pedido indica um valor de 1 a 12, não {value}",
                        "a raise names a value from 1 to 12, not {value}"),
    # -- refusals: deals, tricks, variants -------------------------------------------------------
    "not_hands": ("as mãos são uma lista de quatro mãos (uma por assento), não {value}",
                  "the hands are a list of four hands (one per seat), not {value}"),
    "four_hands": ("uma distribuição tem quatro mãos (uma por assento), não {n}",
                   "a deal has four hands (one per seat), not {n}"),
    "three_cards": ("o assento {seat} deve ter 3 cartas, não {n}",
                    "seat {seat} must hold 3 cards, not {n}"),
    "unreadable_card": ("“{text}”{where} não se lê como carta: escreva como “7♥”, "
                        "“Q♠” ou “7 de copas”",
                        "cannot read a card from '{text}'{where}: write it as '7♥', 'Q♠' or "
                        "'7 de copas'"),
    "card_not_in_pack": ("{card}{where} não está no baralho do truco (sem 8, 9 e 10)",
                         "{card}{where} is not in the truco pack (no 8s, 9s or 10s)"),
    "dealt_twice": ("{card} foi distribuída duas vezes: as {n} cartas devem ser diferentes",
                    "{card} is dealt twice: the {n} cards must be distinct"),
    "needs_vira": ("o Truco Paulista precisa de uma vira para saber as manilhas",
                   "Truco Paulista needs a vira to know its manilhas"),
    "vira_in_hand": ("a vira {card} não pode estar também numa mão",
                     "the vira {card} cannot also be in a hand"),
    "mineiro_no_vira": ("o Truco Mineiro não tem vira: as manilhas são fixas",
                        "Truco Mineiro has no vira: its manilhas are fixed"),
    "bad_dealer": ("quem dá as cartas é um assento de 0 a {top}, não {dealer}",
                   "the dealer is a seat from 0 to {top}, not {dealer}"),
    "bad_score": ("o placar são dois números inteiros de 0 a {top}, não {score}",
                  "the score is two whole numbers from 0 to {top}, not {score}"),
    "bad_tie_lead": ("depois de um empate abre quem abriu a rodada (“leader”) ou quem jogou a "
                     "primeira carta empatada (“first_tying”), não {value}",
                     "tie_lead must be 'leader' or 'first_tying', not {value}"),
    "bad_seat": ("os assentos vão de 0 a {top}, não {seat}", "seats are 0 to {top}, not {seat}"),
    "bad_hands": ("um jogo curto tem de {low} a {high} mãos (ou nenhum limite: até 12 pontos), não {value}",
                  "a short game has {low} to {high} hands (or no limit: to 12 points), not {value}"),
    "bad_players": ("o truco se joga com 4 jogadores (duas duplas) ou 2 (mano a mano), não {value}",
                    "truco is played by 4 players (two pairs) or 2 (mano a mano), not {value}"),
    "two_hands": ("uma distribuição mano a mano tem duas mãos (uma por jogador), não {n}",
                  "a mano a mano deal has two hands (one per player), not {n}"),
    "play_pair": ("cada jogada é um par (assento, carta), não {item}",
                  "each play is a (seat, card) pair, not {item}"),
    "seat_twice": ("o assento {seat} joga duas vezes na mesma rodada",
                   "seat {seat} plays twice in one trick"),
    "card_twice": ("{card} aparece duas vezes na mesma rodada", "{card} is played twice in one trick"),
    "empty_trick": ("uma rodada precisa de pelo menos uma jogada", "a trick needs at least one play"),
    "too_many_plays": ("uma rodada tem no máximo 4 jogadas, não {n}",
                       "a trick has at most 4 plays, not {n}"),
    "bad_result": ("o resultado de uma rodada é A, B ou empate, não {result}",
                   "a trick result is 0, 1 or None (tie), not {result}"),
    "too_many_tricks": ("uma mão tem no máximo 3 rodadas, não {n}",
                        "a hand has at most 3 tricks, not {n}"),
    "past_decided": ("os resultados {results_text} continuam depois da {n}ª rodada, que já "
                     "decidiu a mão",
                     "the results {results_text} go on past trick {n}, which already decided "
                     "the hand"),
    "undecided": ("os resultados {results_text} não terminam a mão: ela ainda está indefinida",
                  "the results {results_text} do not finish a hand: it is still undecided"),
    "tricks_decided": ("as rodadas decidiram esta mão: explique-as com explain_hand",
                       "the tricks decided this hand: explain them with explain_hand"),
    "unknown_variant": ("variante de truco desconhecida {variant}: escolha “paulista” ou "
                        "“mineiro”", "unknown truco variant {variant}: choose 'paulista' or "
                        "'mineiro'"),
    "not_a_raise": ("{value} não é um pedido de truco nesta variante: os pedidos são {ladder}",
                    "{value} is not a raise in this variant: the raises are {ladder}"),
    "bad_vira": ("{card} não pode ser a vira: 8, 9 e 10 não estão no baralho do truco",
                 "{card} cannot be the vira: 8s, 9s and 10s are not in the truco pack"),
    "not_truco_rank": ("{rank} não é uma carta do truco: 8, 9 e 10 não estão no baralho",
                       "{rank} is not a truco rank: 8s, 9s and 10s are not in the pack"),
    "unknown_event": ("tipo de evento desconhecido {kind}", "unknown event type {kind}"),
    # -- refusals: odds ----------------------------------------------------------------------
    "odds_hand_size": ("a sua mão precisa de 3 cartas; você deu {n}",
                       "your hand needs 3 cards; you gave {n}"),
    "odds_partner_size": ("a mão do parceiro precisa de 3 cartas; você deu {n}",
                          "your partner's hand needs 3 cards; you gave {n}"),
    "odds_card_twice": ("{card} aparece duas vezes{where}: cada carta existe uma vez só no baralho",
                        "{card} appears twice{where}: every card is in the pack once only"),
    "odds_vira_held": ("{card} é a vira, então não pode estar{where}",
                       "{card} is the vira, so it cannot also be{where}"),
    "odds_held_and_seen": ("{card} está{where} e também nas cartas já vistas: uma carta não pode "
                           "estar nos dois lugares",
                           "{card} is{where} and also among the cards seen: a card cannot be in "
                           "both places"),
    "odds_unseen": ("só restam {left} cartas não vistas: são precisas {need}",
                    "only {left} unseen cards are left: {need} are needed"),
    "odds_position": ("a posição vai de 0 (mão) a 3 (pé), não {position}",
                      "the position is 0 (mão) to 3 (pé), not {position}"),
    "odds_simulations": ("o número de simulações é um inteiro de 1 a {top}, não {value}",
                         "the number of simulations is a whole number from 1 to {top}, not "
                         "{value}"),
    # -- refusals: a saved game (from_json) ----------------------------------------------------
    "bad_format": ("isto não é um jogo de truco salvo (formato {format})",
                   "not a saved truco game (format {format})"),
    "saved_not_json": ("o jogo salvo não é um texto JSON legível",
                       "the saved game is not readable JSON text"),
    "saved_too_large": ("o jogo salvo é grande demais (mais de {top} caracteres)",
                        "the saved game is too large (over {top} characters)"),
    "saved_field": ("o jogo salvo tem o campo “{field}” faltando ou inválido",
                    "the saved game has a missing or invalid field '{field}'"),
    "saved_unknown_field": ("o jogo salvo tem um campo desconhecido “{field}”",
                            "the saved game has an unknown field '{field}'"),
    "saved_card_twice": ("o jogo salvo tem a carta {card} duas vezes",
                         "the saved game holds the card {card} twice"),
    "saved_hand_size": ("no jogo salvo o assento {seat} tem {n} cartas, mas deveria ter {expected}",
                        "in the saved game seat {seat} holds {n} cards, but should hold {expected}"),
    "saved_inconsistent": ("o jogo salvo é impossível: o campo “{field}” não combina com o "
                           "resto do jogo",
                           "the saved game is impossible: the field '{field}' does not agree "
                           "with the rest of the game"),
    "saved_rng": ("o gerador aleatório do jogo salvo é inválido (só {allowed})",
                  "the saved game's random generator is invalid (only {allowed})"),
    "saved_event": ("o evento {index} do jogo salvo é inválido", "event {index} of the saved game is invalid"),
    "saved_setup": ("a preparação do jogo salvo é recusada ({field}): {error}",
                    "the saved game's setup is refused ({field}): {error}"),
    "saved_action": ("a jogada {index} do jogo salvo não vale aqui: {error}",
                     "action {index} of the saved game is not legal here: {error}"),
    "saved_too_many": ("o jogo salvo tem jogadas demais (mais de {top})",
                       "the saved game has too many actions (over {top})"),
    # -- refusals: a seat view read back from its data (`SeatView.from_dict`) -----------------
    "view_not_dict": ("a vista do assento deveria ser um objeto JSON, não {type}",
                      "the seat view should be a JSON object, not {type}"),
    "view_missing": ("a vista do assento não tem o campo “{name}”",
                     "the seat view lacks the field '{name}'"),
    "view_unknown": ("a vista do assento tem um campo desconhecido “{name}”",
                     "the seat view has an unknown field '{name}'"),
    "view_field": ("o campo “{name}” da vista do assento é inválido",
                   "the seat view's field '{name}' is invalid"),
    # -- the coach (`cartas.coach.truco`): advice, misses and refusals -------------------
    # An advice's `reason` (and a miss's `did`/`yours`) is its key less "coach_". Numbers
    # arrive already written the way the language writes them ("67,6%" / "67.6%").
    "coach_play_card": ("Jogue {card}: com ela sua dupla leva a mão {win} das vezes.",
                        "Play {card}: with it your team takes the hand {win} of the time."),
    "coach_play_card_rules": ("Jogue {card}: é a jogada da regra aqui, e nenhuma outra carta "
                              "leva a mão claramente mais vezes ({win}).",
                              "Play {card}: it is the rule's move here, and no other card takes "
                              "the hand clearly more often ({win})."),
    "coach_cover_card": ("Jogue {card} coberta: ela não decide a rodada e assim os adversários "
                         "não a veem ({win}).",
                         "Play {card} face down: it cannot decide the trick, so keep it from the "
                         "opponents ({win})."),
    # {call}: the name of the raise on offer (`Variant.raise_name`: truco, seis, nove, dez, doze);
    # {ask} / {stay}: the average points of calling and of not calling (the judge's,
    # `cartas.truco.strong`: calling counts them running with weak cards, or always accepting,
    # whichever pays less)
    "coach_ask": ("Peça {call}: sua dupla leva a mão {win} das vezes; pedindo, a mão vale {ask} "
                  "pontos em média para vocês, aceitem ou corram, contra {stay} sem pedir.",
                  "Call {call}: your team takes the hand {win} of the time; calling is worth "
                  "{ask} points on average whether they accept or run, against {stay} without."),
    "coach_ask_won": ("Peça {call}: a mão já é de vocês, tenham eles as cartas que tiverem; se "
                      "aceitarem, ela vale mais.",
                      "Call {call}: the hand is already yours whatever cards they hold; if they "
                      "accept, it is worth more."),
    "coach_no_ask": ("Não peça {call}: sua dupla leva a mão {win} das vezes; pedindo, a mão vale "
                     "{ask} pontos em média, sem pedir {stay}. A outra dupla só aceita quando tem "
                     "jogo, e pode pedir {then}.",
                     "Do not call {call}: your team takes the hand {win} of the time; calling is "
                     "worth {ask} points on average, not calling {stay}. The other team accepts "
                     "only with good cards, and may call {then}."),
    "coach_no_ask_top": ("Não peça {call}: sua dupla leva a mão {win} das vezes; pedindo, a mão vale "
                         "{ask} pontos em média, sem pedir {stay}. A outra dupla só aceita quando "
                         "tem jogo.",
                         "Do not call {call}: your team takes the hand {win} of the time; calling "
                         "is worth {ask} points on average, not calling {stay}. The other team "
                         "accepts only with good cards."),
    "coach_no_ask_threshold": ("Não peça truco: na mão de onze (ou de dez) quem pede perde o jogo.",
                               "Do not call truco: in the hand of eleven (or ten) the team that "
                               "asks loses the game."),
    "coach_no_ask_not_allowed": ("Pedir aumento não é permitido agora; jogue a sua carta.",
                                 "Raising the stakes is not allowed now; play your card."),
    "coach_accept": ("Aceite: sua dupla leva a mão {win} das vezes; aceitar vale {accept} pontos "
                     "em média, correr {run}.",
                     "Accept: your team takes the hand {win} of the time; accepting is worth "
                     "{accept} points on average, running {run}."),
    "coach_accept_forced": ("Aceite: correr daria aos adversários os pontos que faltam para "
                            "vencer o jogo.",
                            "Accept: running would give the opponents the points they need to "
                            "win the game."),
    "coach_run": ("Corra: sua dupla leva a mão só {win} das vezes; aceitar custa {accept} pontos "
                  "em média, correr {run}.",
                  "Run: your team takes the hand only {win} of the time; accepting costs "
                  "{accept} points on average, running {run}."),
    "coach_reraise": ("Peça mais: sua dupla leva a mão {win} das vezes, então vale a pena a mão "
                      "valer {value} ({worth} pontos em média, contra {accept} aceitando).",
                      "Raise again: your team takes the hand {win} of the time, so the hand is "
                      "worth making {value} ({worth} points on average, against {accept} for "
                      "accepting)."),
    "coach_accept_won": ("Aceite: a mão já é de vocês, tenham eles as cartas que tiverem.",
                         "Accept: the hand is already yours whatever cards they hold."),
    "coach_play_hand": ("Jogue a mão: com as suas cartas e as do parceiro vocês levam a mão {win} "
                        "das vezes ({play} pontos em média contra {run} correndo).",
                        "Play the hand: with your cards and your partner's you take it {win} of "
                        "the time ({play} points on average against {run} for running)."),
    "coach_run_hand": ("Corra da mão: vocês a levariam só {win} das vezes ({play} pontos em média "
                       "jogando, {run} correndo).",
                       "Run from the hand: you would take it only {win} of the time ({play} "
                       "points on average playing, {run} running)."),
    "coach_miss": ("Mão {hand}: você {did} ({yours}). Dica: {advice}",
                   "Hand {hand}: you {did} ({yours}). Hint: {advice}"),
    "coach_did_play": ("jogou {card}", "played {card}"),
    "coach_did_cover": ("jogou {card} coberta", "played {card} face down"),
    "coach_did_truco": ("pediu {call}", "called {call}"),
    "coach_did_no_truco": ("não pediu {call}", "did not call {call}"),
    "coach_did_accept": ("aceitou", "accepted"),
    "coach_did_run": ("correu", "ran"),
    "coach_did_raise": ("aumentou", "raised"),
    "coach_did_play_hand": ("jogou a mão", "played the hand"),
    "coach_did_run_hand": ("correu da mão", "ran from the hand"),
    "coach_yours_card": ("assim a dupla leva a mão {win} das vezes",
                         "then your team takes the hand {win} of the time"),
    "coach_yours_points": ("{expected} pontos em média", "{expected} points on average"),
    # mano a mano (two players): "você" / "you" and "o outro jogador" / "the other player",
    # never a team or a partner (docs/rules.md#mano-a-mano-players); `cartas.coach.truco.say`
    # takes "{key}_solo" when the advice's game has two players
    "coach_play_card_solo": ("Jogue {card}: com ela você leva a mão {win} das vezes.",
                             "Play {card}: with it you take the hand {win} of the time."),
    "coach_cover_card_solo": ("Jogue {card} coberta: ela não decide a rodada e assim o outro "
                              "jogador não a vê ({win}).",
                              "Play {card} face down: it cannot decide the trick, so keep it from "
                              "the other player ({win})."),
    "coach_ask_solo": ("Peça {call}: você leva a mão {win} das vezes; pedindo, a mão vale {ask} "
                       "pontos em média para você, aceite o outro jogador ou corra, contra {stay} "
                       "sem pedir.",
                       "Call {call}: you take the hand {win} of the time; calling is worth {ask} "
                       "points on average whether the other player accepts or runs, against "
                       "{stay} without."),
    "coach_ask_won_solo": ("Peça {call}: a mão já é sua, tenha o outro jogador as cartas que "
                           "tiver; se ele aceitar, ela vale mais.",
                           "Call {call}: the hand is already yours whatever cards the other "
                           "player holds; if they accept, it is worth more."),
    "coach_no_ask_solo": ("Não peça {call}: você leva a mão {win} das vezes; pedindo, a mão vale "
                          "{ask} pontos em média, sem pedir {stay}. O outro jogador só aceita "
                          "quando tem jogo, e pode pedir {then}.",
                          "Do not call {call}: you take the hand {win} of the time; calling is "
                          "worth {ask} points on average, not calling {stay}. The other player "
                          "accepts only with good cards, and may call {then}."),
    "coach_no_ask_top_solo": ("Não peça {call}: você leva a mão {win} das vezes; pedindo, a mão "
                              "vale {ask} pontos em média, sem pedir {stay}. O outro jogador só "
                              "aceita quando tem jogo.",
                              "Do not call {call}: you take the hand {win} of the time; calling "
                              "is worth {ask} points on average, not calling {stay}. The other "
                              "player accepts only with good cards."),
    "coach_no_ask_threshold_solo": ("Não peça truco: na mão de onze (ou de dez) quem pede perde o "
                                    "jogo.",
                                    "Do not call truco: in the hand of eleven (or ten) whoever "
                                    "asks loses the game."),
    "coach_accept_solo": ("Aceite: você leva a mão {win} das vezes; aceitar vale {accept} pontos "
                          "em média, correr {run}.",
                          "Accept: you take the hand {win} of the time; accepting is worth "
                          "{accept} points on average, running {run}."),
    "coach_accept_forced_solo": ("Aceite: correr daria ao outro jogador os pontos que faltam para "
                                 "ele vencer o jogo.",
                                 "Accept: running would give the other player the points they "
                                 "need to win the game."),
    "coach_run_solo": ("Corra: você leva a mão só {win} das vezes; aceitar custa {accept} pontos "
                       "em média, correr {run}.",
                       "Run: you take the hand only {win} of the time; accepting costs {accept} "
                       "points on average, running {run}."),
    "coach_reraise_solo": ("Peça mais: você leva a mão {win} das vezes, então vale a pena a mão "
                           "valer {value} ({worth} pontos em média, contra {accept} aceitando).",
                           "Raise again: you take the hand {win} of the time, so the hand is "
                           "worth making {value} ({worth} points on average, against {accept} "
                           "for accepting)."),
    "coach_accept_won_solo": ("Aceite: a mão já é sua, tenha o outro jogador as cartas que tiver.",
                              "Accept: the hand is already yours whatever cards the other player "
                              "holds."),
    "coach_play_hand_solo": ("Jogue a mão: com as suas cartas você leva a mão {win} das vezes "
                             "({play} pontos em média contra {run} correndo).",
                             "Play the hand: with your cards you take it {win} of the time "
                             "({play} points on average against {run} for running)."),
    "coach_run_hand_solo": ("Corra da mão: você a levaria só {win} das vezes ({play} pontos em "
                            "média jogando, {run} correndo).",
                            "Run from the hand: you would take it only {win} of the time ({play} "
                            "points on average playing, {run} running)."),
    "coach_yours_card_solo": ("assim você leva a mão {win} das vezes",
                              "then you take the hand {win} of the time"),
    "coach_no_pending": ("não há o que responder: ninguém pediu truco nesta posição",
                         "nothing to answer: nobody has called truco in this spot"),
    "coach_no_card": ("o assento aconselhado não tem nenhuma carta na mão",
                      "the coached seat holds no card"),
    "coach_card_twice": ("a carta {card} aparece duas vezes na posição",
                         "the card {card} appears twice in the spot"),
    "coach_too_few_unseen": ("a posição é impossível: há menos cartas não vistas ({unseen}) do "
                             "que cartas ainda nas mãos dos outros assentos ({need})",
                             "the spot is impossible: there are fewer unseen cards ({unseen}) "
                             "than cards still in the other seats' hands ({need})"),
}

# The lessons' questions (`cartas.questions.truco`): prompts `q_*`, choices `c_*`, reasons
# `r_*`, and what a wrong choice reveals, `mis_*` (said to a learner as "it looks like ...").
# Rendered with `str.format` alone (`cartas.questions.say`), without `TrucoCatalogue`'s fields.
_QUESTIONS = {
    "q_manilha_rank": ("A vira é {vira}. Qual é a manilha?", "The vira is {vira}. Which rank is the manilha?"),
    "r_manilha_rank": ("Depois do {vira} vem o {next}, então a manilha é {next}.",
                       "After {vira} comes {next}, so the manilha is {next}."),
    "q_fixed_manilha": ("Truco Mineiro. Qual destas cartas é manilha?",
                        "Truco Mineiro. Which of these cards is a manilha?"),
    "r_fixed_manilha": ("No Mineiro as manilhas são sempre {cards}.", "In Mineiro the manilhas are always {cards}."),
    "q_stronger": ("{where}Qual carta é mais forte: {a} ou {b}?", "{where}Which card is stronger: {a} or {b}?"),
    "q_where_vira": ("A vira é {vira}. ", "The vira is {vira}. "),
    "q_where_mineiro": ("Truco Mineiro. ", "Truco Mineiro. "),
    "r_stronger_manilha": ("{card} é manilha e vence qualquer carta comum.",
                           "{card} is a manilha and beats every ordinary card."),
    "r_stronger_suit": ("As duas são manilhas; entre manilhas vale o naipe: ouros ♦ &lt; espadas ♠ &lt; copas ♥ "
                        "&lt; paus ♣.",
                        "Both are manilhas; among manilhas the suit decides: diamonds ♦ &lt; spades ♠ &lt; "
                        "hearts ♥ &lt; clubs ♣."),
    "r_stronger_order": ("Nenhuma é manilha, e na ordem natural {a} vem depois de {b}.",
                         "Neither is a manilha, and in the natural order {a} comes after {b}."),
    "q_mao": ("O assento {dealer} dá as cartas. Quem é a mão, o primeiro a jogar?",
              "Seat {dealer} deals. Which seat leads (is the mão)?"),
    "c_seat": ("Assento {seat}", "Seat {seat}"),
    "c_none": ("nenhuma", "none"),
    "q_vira_is": ("A vira é {vira}.", "The vira is {vira}."),
    "q_in_mineiro": ("Truco Mineiro.", "Truco Mineiro."),
    "q_manilha_among": ("{where} Qual destas cartas é manilha?", "{where} Which of these cards is a manilha?"),
    "r_manilhas_are": ("As manilhas são {cards}.", "The manilhas are {cards}."),
    "q_trick": ("{where}Rodada (na ordem): {plays}. Quem leva a rodada?",
                "{where}Trick (in order): {plays}. Who wins the trick?"),
    "q_play": ("{seat} ({team}) {card}", "{seat} ({team}) {card}"),
    "q_trick_vira": ("Vira {vira}. ", "Vira {vira}. "),
    "q_trick_mineiro": ("Mineiro. ", "Mineiro. "),
    "c_covered": ("coberta", "face down"),
    "c_tie": ("Empate", "Tie"),
    "c_nobody": ("Ninguém", "Nobody"),
    "q_hand": ("Resultado das rodadas: {results}. Quem leva a mão?", "Trick results: {results}. Who takes the hand?"),
    "q_bet_value": ("{variant}. {story} Quanto vale a mão agora?", "{variant}. {story} What is the hand worth now?"),
    "q_bet_run": ("{variant}. {story} Se a {team} correr agora, quantos pontos a outra dupla ganha?",
                  "{variant}. {story} If {team} runs now, how many points does the other team score?"),
    "r_bet_run": ("Correr paga o valor antes do pedido recusado: {points}.",
                  "Running pays the value before the refused call: {points}."),
    "r_bet_value": ("A mão vale o último valor aceito: {value}.",
                    "The hand is worth the last accepted value: {value}."),
    "q_threshold_run": ("{name} para a {team}. Se a dupla correr, quantos pontos a outra dupla ganha?",
                        "{name} for {team}. If the team runs, how many points does the other team score?"),
    "q_threshold_play": ("{name} para a {team}. Se a dupla jogar, quanto vale a mão?",
                         "{name} for {team}. If the team plays, what is the hand worth?"),
    "q_threshold_raise": ("{name} para a {team}, que decidiu jogar. O assento {seat} pede truco. O que acontece?",
                          "{name} for {team}, who decided to play. Seat {seat} calls truco. What happens?"),
    "c_loses": ("A dupla que pediu perde o jogo", "The calling team loses the game"),
    "c_worth_more": ("A mão passa a valer mais", "The hand is worth more"),
    "r_threshold_run": ("Correr da {name} dá {points} à outra dupla.",
                        "Running from the {name} gives the other team {points}."),
    "r_threshold_play": ("A {name} jogada vale {value}.", "A {name} that is played is worth {value}."),
    "q_duel": ("{variant}{vira}: o assento 0 ({team0}) joga {a} e o assento 1 ({team1}) joga {b}. Quem vence?",
               "{variant}{vira}: seat 0 ({team0}) plays {a} and seat 1 ({team1}) plays {b}. Who wins?"),
    "q_runs": ("{variant}: uma dupla pede {call} e a outra corre. Quantos pontos ganha a dupla que pediu?",
               "{variant}: a team asks for {call} and the other team runs. How many points does the team that "
               "asked win?"),
    "r_runs": ("No {variant}, correr de {call} dá {pays} {unit} a quem pediu: o valor da mão antes do pedido.",
               "In {variant}, running from {call} gives {pays} {unit} to the team that asked: what the hand was "
               "worth before the call."),
    "mis_manilha_is_vira": ("a manilha é a própria carta da vira", "the manilha is the vira's rank"),
    "mis_counts_backwards": ("a manilha é a carta antes da vira, não a seguinte",
                             "the manilha is the rank before the vira, not the one after"),
    "mis_poker_order": ("as cartas seguem a ordem do baralho comum (J antes de Q, o 3 baixo)",
                        "the ranks go in the usual pack order (J before Q, 3 low)"),
    "mis_manilha_rank_any_suit": ("qualquer carta do valor de uma manilha é manilha, de qualquer naipe",
                                  "any card of a manilha's rank is a manilha, whatever its suit"),
    "mis_top_card_is_manilha": ("o 3, a carta comum mais forte, é manilha",
                                "the 3, the strongest ordinary card, is a manilha"),
    "mis_misses_manilha": ("uma manilha na mão passa despercebida", "a manilha in the hand goes unnoticed"),
    "mis_forgets_manilha": ("a manilha não vale mais que as cartas comuns",
                            "a manilha is worth no more than the ordinary cards"),
    "mis_manilha_suit_order": ("entre as manilhas os naipes valem ♣ &lt; ♥ &lt; ♠ &lt; ♦",
                               "suits order the manilhas as ♣ &lt; ♥ &lt; ♠ &lt; ♦"),
    "mis_dealer_leads": ("quem dá as cartas joga primeiro", "the dealer leads"),
    "mis_wrong_direction": ("a vez passa para o outro lado da mesa", "play passes the other way round the table"),
    "mis_tie_goes_to_first": ("a rodada empatada é de quem jogou primeiro a carta empatada",
                              "a tied trick goes to whoever played the first tying card"),
    "mis_count_tricks": ("leva a mão quem ganhou mais rodadas, e empate em número não dá a mão a ninguém",
                         "the hand goes to whoever won more tricks, and an equal count gives it to nobody"),
    "mis_tie_cancels_hand": ("uma rodada empatada faz a mão não ser de ninguém",
                             "a tied trick means nobody takes the hand"),
    "mis_last_trick_decides": ("a última rodada ganha decide a mão", "the last trick won decides the hand"),
    "mis_running_pays_raised": ("correr paga o valor pedido", "running pays the raised value"),
    "mis_running_pays_base": ("correr paga sempre o valor inicial da mão",
                              "running always pays the hand's first value"),
    "mis_ignores_raises": ("a mão vale sempre o valor inicial, mesmo com pedidos aceitos",
                           "the hand is always worth its first value, even after accepted calls"),
    "mis_worth_next_call": ("a mão já vale o próximo pedido", "the hand is already worth the next call"),
    "mis_threshold_run_pays_hand": ("correr da mão de onze (ou de dez) paga o que vale a mão jogada",
                                    "running from the mão de onze (or de dez) pays what the played hand is worth"),
    "mis_threshold_played_is_base": ("a mão de onze (ou de dez) jogada vale o mesmo que uma mão comum",
                                     "a mão de onze (or de dez) that is played is worth an ordinary hand"),
    "mis_raise_allowed_in_threshold": ("na mão de onze (ou de dez) ainda se pode pedir truco",
                                       "truco may still be called in the mão de onze (or de dez)"),
    "mis_other_variant_ladder": ("vale a escada de pontos da outra variante",
                                 "the other variant's ladder of values holds"),
    "mis_tied_first_goes_to_mao": ("a 1ª rodada empatada é da dupla da mão",
                                   "a tied first trick goes to the team that leads the hand"),
    "mis_threshold_raise_loses_hand": ("pedir truco na mão de onze (ou de dez) custa só a mão",
                                       "calling truco in the mão de onze (or de dez) costs only the hand"),
    "mis_other_variant_threshold": ("valem os pontos da outra variante na mão de onze (ou de dez)",
                                    "the other variant's values hold in the mão de onze (or de dez)"),
    "q_tied_first": ("O assento {mao} é a mão ({team}). Resultado das rodadas: {results}. Quem leva a mão?",
                     "Seat {mao} leads the hand ({team}). Trick results: {results}. Who takes the hand?"),
    "c_loses_hand": ("A dupla que pediu perde só a mão", "The calling team loses only the hand"),
}

# The rule that corrects each misconception (`rule_<key>`), said after its name.
_RULES = {
    "rule_manilha_is_vira": ("A manilha é o valor que vem logo depois da vira na ordem natural: vira 6, manilhas 7.",
                             "The manilha is the rank right after the vira in the natural order: vira 6, the 7s."),
    "rule_counts_backwards": ("Conte para a frente: a manilha vem depois da vira, e depois do 3 a ordem volta ao 4.",
                              "Count forwards: the manilha comes after the vira, and after the 3 the order wraps "
                              "round to the 4."),
    "rule_poker_order": ("No truco a ordem é 4 · 5 · 6 · 7 · Q · J · K · A · 2 · 3: a dama abaixo do valete, o 3 no "
                         "topo.",
                         "In truco the order is 4 · 5 · 6 · 7 · Q · J · K · A · 2 · 3: the queen below the jack, the "
                         "3 on top."),
    "rule_manilha_rank_any_suit": ("No Mineiro só quatro cartas são manilhas: 4♣, 7♥, A♠ e 7♦; os outros 4, 7 e ases "
                                   "são cartas comuns.",
                                   "In Mineiro only four cards are manilhas: 4♣, 7♥, A♠ and 7♦; the other 4s, 7s and "
                                   "aces are ordinary cards."),
    "rule_top_card_is_manilha": ("O 3 é a carta comum mais forte, mas não é manilha: as quatro manilhas vencem o 3.",
                                 "The 3 is the strongest ordinary card but no manilha: the four manilhas beat it."),
    "rule_misses_manilha": ("Procure a manilha em cada mão: no Paulista, o valor depois da vira; no Mineiro, 4♣, 7♥, "
                            "A♠ e 7♦.",
                            "Look for the manilha in every hand: in Paulista, the rank after the vira; in Mineiro, "
                            "4♣, 7♥, A♠ and 7♦."),
    "rule_forgets_manilha": ("As quatro manilhas vencem todas as cartas comuns, até o 3.",
                             "The four manilhas beat every ordinary card, the 3 included."),
    "rule_manilha_suit_order": ("Entre as manilhas o naipe decide: ouros ♦ &lt; espadas ♠ &lt; copas ♥ &lt; paus ♣ "
                                "(o zap).",
                                "Among the manilhas the suit decides: diamonds ♦ &lt; spades ♠ &lt; hearts ♥ &lt; "
                                "clubs ♣ (the zap)."),
    "rule_dealer_leads": ("Quem dá as cartas joga por último (é o pé); começa o assento seguinte, a mão.",
                          "The dealer plays last (the pé); the next seat, the mão, leads."),
    "rule_wrong_direction": ("A vez segue a ordem dos assentos: depois do assento 0 vem o 1, depois o 2, o 3.",
                             "Play follows the seats' order: after seat 0 comes seat 1, then 2, then 3."),
    "rule_tie_goes_to_first": ("Se a melhor carta de cada dupla for igual, a rodada empata: não é de ninguém.",
                               "When each team's best card is equal, the trick is tied: it goes to nobody."),
    "rule_count_tricks": ("Leva a mão quem vence duas rodadas; com uma para cada e a 3ª empatada, vale a 1ª.",
                          "Two tricks take the hand; with one trick each and the 3rd tied, the 1st decides."),
    "rule_tie_cancels_hand": ("Uma rodada empatada não anula a mão: decide a rodada vencida antes ou depois dela; só "
                              "três empates não dão ponto a ninguém.",
                              "A tied trick does not cancel the hand: a trick won before or after it decides; only "
                              "three ties give nobody a point."),
    "rule_last_trick_decides": ("Não é a última rodada que decide: com uma para cada e a 3ª empatada, vale a 1ª.",
                                "The last trick does not decide: with one trick each and the 3rd tied, the 1st "
                                "does."),
    "rule_tied_first_goes_to_mao": ("A 1ª rodada empatada não é de ninguém, nem da mão: decide a primeira rodada que "
                                    "não empatar, e três empates não dão ponto a ninguém.",
                                    "A tied first trick goes to nobody, not to the team that leads: the first "
                                    "trick that is not tied decides, and three ties give nobody a point."),
    "rule_running_pays_raised": ("Quem corre dá à outra dupla o valor da mão antes do pedido recusado, não o valor "
                                 "pedido.",
                                 "Running gives the other team what the hand was worth before the refused call, not "
                                 "the value asked."),
    "rule_running_pays_base": ("Correr dá o valor da mão antes do pedido recusado: depois de pedidos aceitos, mais que "
                               "o valor inicial.",
                               "Running gives what the hand was worth before the refused call: after accepted calls, "
                               "more than its first value."),
    "rule_ignores_raises": ("Cada pedido aceito sobe o valor da mão: ela vale o último valor aceito.",
                            "Every accepted call raises the hand: it is worth the last accepted value."),
    "rule_worth_next_call": ("Um pedido só muda o valor da mão quando é aceito: ela vale o último valor aceito.",
                             "A call changes the hand's value only once accepted: it is worth the last accepted "
                             "value."),
    "rule_threshold_run_pays_hand": ("Correr da mão de onze dá 1 ponto à outra dupla (da mão de dez, no Mineiro, 2): "
                                     "menos que a mão jogada.",
                                     "Running from the mão de onze gives the other team 1 point (from Mineiro's mão "
                                     "de dez, 2): less than the played hand."),
    "rule_threshold_played_is_base": ("A mão de onze jogada vale 3 pontos; a mão de dez do Mineiro, 4.",
                                      "A mão de onze that is played is worth 3 points; Mineiro's mão de dez, 4."),
    "rule_raise_allowed_in_threshold": ("Na mão de onze (ou de dez) não se pede truco: quem pede perde o jogo.",
                                        "Nobody calls truco in the mão de onze (or de dez): the team that calls "
                                        "loses the game."),
    "rule_threshold_raise_loses_hand": ("Pedir truco na mão de onze (ou de dez) não custa só a mão: a dupla que "
                                        "pediu perde o jogo.",
                                        "Calling truco in the mão de onze (or de dez) costs more than the hand: the "
                                        "calling team loses the game."),
    "rule_other_variant_threshold": ("No Paulista a mão de onze vale 3 e correr dá 1; no Mineiro a mão de dez vale 4 "
                                     "e correr dá 2.",
                                     "In Paulista the mão de onze is worth 3 and running gives 1; in Mineiro the mão "
                                     "de dez is worth 4 and running gives 2."),
    "rule_other_variant_ladder": ("Cada variante tem a sua escada: Paulista 1, 3, 6, 9, 12; Mineiro 2, 4, 6, 10, 12.",
                                  "Each variant has its own ladder: Paulista 1, 3, 6, 9, 12; Mineiro 2, 4, 6, 10, "
                                  "12."),
}

_KIND_TEXT = {"accept": ("aceitar", "accept"), "run": ("correr", "run")}
_PLACES = {"hand": ("na mão do assento {seat}", "in seat {seat}'s hand"),
           "vira": ("na vira", "in the vira"),
           "trick": ("jogada pelo assento {seat}", "played by seat {seat}"),
           "mine": ("na sua mão", "in your hand"),
           "partner": ("na mão do parceiro", "in your partner's hand"),
           "seen": ("nas cartas já vistas", "in the cards seen")}


def cap(sentence: str) -> str:
    """The sentence with its first letter in upper case."""
    return sentence[:1].upper() + sentence[1:]


class TrucoCatalogue(Catalogue):
    """The truco catalogue; `say` derives each language's words from neutral fields:

    - `team` (0/1) -> `team_name` / `Team_name` ("a dupla B (assentos 1 e 3)"; with
      `players` 2, mano a mano, "o assento 1") and `other_side` ("a outra dupla", "o outro
      jogador");
    - `results` (list of 0/1/None) -> `results_text` ("(A, empate)");
    - `kind` ("accept"/"run") -> `kind_text`; `n` -> `s` (plural ending);
    - `position` (0..2) -> `nth` ("2ª" / "second"); `trick`/`from` -> `nth_trick`/`from_trick`;
    - `place` + `seat` -> `where` (" na mão do assento 0");
    - `action_kind`, `card`, `position`, `value`, `word` -> `action_text` ("jogar 7♥");
    - `hint` -> the hint on how to write an action.
    """

    def say(self, key: str, lang: str = "pt", **fields: object) -> str:
        lang = check_lang(lang)
        text = self.template(key, lang)
        return text.format(**self._derive(lang, fields)) if "{" in text else text

    # Any: a refusal's fields are whatever its raiser gave; each is checked before it is used.
    def _derive(self, lang: str, fields: dict[str, Any]) -> dict[str, Any]:
        out = dict(fields)
        i = 0 if lang == "pt" else 1
        team = fields.get("team")
        if team in (0, 1) and not isinstance(team, bool):
            solo = fields.get("players") == 2  # mano a mano: a team is its one player
            out["team_name"] = (self.template("ex_player", lang).format(seat=seat_name(team, lang)) if solo
                                else team_phrase(team, lang))
            out["Team_name"] = cap(out["team_name"])
            out["other_side"] = self.template("other_player" if solo else "other_team", lang)
        if "results" in fields:
            out["results_text"] = results_text(fields["results"], lang)
        if fields.get("kind") in _KIND_TEXT:
            out["kind_text"] = _KIND_TEXT[fields["kind"]][i]
        if isinstance(fields.get("n"), int):
            out["s"] = "" if fields["n"] == 1 else "s"
        position = fields.get("position")
        if isinstance(position, int) and 0 <= position <= 2:
            out["nth"] = ordinal(position + 1, lang)
        for src, dst in (("trick", "nth_trick"), ("from", "from_trick")):
            if isinstance(fields.get(src), int) and 1 <= fields[src] <= 3:
                out[dst] = ordinal(fields[src], lang)
        place = fields.get("place")
        out["where"] = (" " + _PLACES[place][i].format(seat=fields.get("seat"))
                        if place in _PLACES else "")
        if "action_kind" in fields:
            out["action_text"] = describe_action(fields["action_kind"], lang, fields.get("card"),
                                                 fields.get("position"), fields.get("value"),
                                                 fields.get("word"))
        out["hint"] = self.template("hint", lang)
        return out


CATALOGUE = TrucoCatalogue("truco", {**_ENTRIES, **_QUESTIONS, **_RULES})


# -- phrases built from the entries --------------------------------------------------------

def say(key: str, lang: str = "pt", **fields: object) -> str:
    """`CATALOGUE.say`."""
    return CATALOGUE.say(key, lang, **fields)


def team_label(team: int, lang: str = "pt") -> str:
    """ "Dupla A" / "Team B": the short name every view shows (team 0 = A = seats 0 and 2)."""
    return CATALOGUE.template("team_label", lang).format(letter=TEAM_LETTERS[team])


def team_phrase(team: int, lang: str = "pt") -> str:
    """ "a dupla A (assentos 0 e 2)" / "team A (seats 0 and 2)": the name in a sentence."""
    a, b = TEAM_SEATS[team]
    return CATALOGUE.template("team_phrase", lang).format(letter=TEAM_LETTERS[team], a=a, b=b)


def seat_name(seat: int, lang: str = "pt") -> str:
    """ "assento 2" / "seat 2". """
    return CATALOGUE.template("seat", lang).format(seat=seat)


def ordinal(n: int, lang: str = "pt") -> str:
    """ "1ª" / "first" for n = 1, 2, 3. """
    return CATALOGUE.template(f"ordinal_{n}", lang)


def unit(points: int, lang: str = "pt") -> str:
    """ "ponto"/"pontos", "point"/"points". """
    return CATALOGUE.template("point" if points == 1 else "points", lang)


def threshold_name(threshold: int) -> str:
    """ "mão de onze" (at 11) or "mão de dez" (at 10): the game's word in both languages."""
    return CATALOGUE.template(f"threshold_{threshold}", "pt")


def results_text(results: Iterable[object], lang: str = "pt") -> str:
    """ "(A, empate, B)" / "(A, tie, B)". """
    tie = CATALOGUE.template("results_tie", lang)
    return "(" + ", ".join(tie if r is None else TEAM_LETTERS[r] if r in (0, 1) else str(r)
                           for r in results) + ")"


def manilha_phrase(name: str | None, lang: str = "pt") -> str:
    """ "o zap" / "the zap, the top manilha"; "" for a card that is no manilha. """
    if name is None:
        return ""
    key = f"manilha_{name}"
    if key in CATALOGUE:
        return CATALOGUE.template(key, lang)
    return CATALOGUE.say("manilha_other", lang, name=name)


def manilha_label(name: str, lang: str = "pt") -> str:
    """A manilha's nickname as a caption: "zap", "espadilha" and "pica-fumo" are the game's
    words in both languages; "copas" (a suit's name) is "hearts" in English."""
    key = f"label_{name}"
    return CATALOGUE.template(key, lang) if key in CATALOGUE else name


def card_phrase(card: str, manilha: str | None, lang: str = "pt") -> str:
    """ "7♥, a manilha de copas" or just "7♥". """
    if not manilha:
        return card
    return CATALOGUE.template("card_manilha", lang).format(card=card,
                                                           manilha=manilha_phrase(manilha, lang))


def describe_action(kind: str, lang: str = "pt", card: Card | str | None = None, position: int | None = None,
                    value: int | None = None,
                    word: str | None = None) -> str:
    """What an action is called: "jogar 7♥", "pedir truco (3)", "aceitar"... `word` is the
    raise's shout (truco, seis...) when known; else the value is named."""
    t = CATALOGUE.template
    if kind == "play":
        return t("act_play", lang).format(card=card)
    if kind == "cover":
        return t("act_cover", lang).format(card=card)
    if kind == "blind":
        return t("act_blind", lang).format(nth=ordinal(position + 1, lang))  # type: ignore[operator]  # a blind action has a position
    if kind == "raise":
        shout = word or ("truco" if value is None else str(value))
        if value is None:
            return t("act_raise", lang).format(word=shout)
        return t("act_raise_value", lang).format(word=shout, value=value)
    return t(f"act_{kind}", lang)
