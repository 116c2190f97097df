"""Every sentence of the 21 engine a learner can read, in Portuguese and English.

One `Catalogue` of `key -> (pt, en)` templates: action names ("action.*"), narration of
events ("event.*"), why a call goes one way ("call.*"), names of phases, kinds of action,
rotation modes and reasons for a change of bank, and every refusal (the bare keys: they
are the `code` of a `VinteEUmError`). `cartas.vinte_e_um.errors.VinteEUmError.message`
renders a refusal; `cartas.vinte_e_um.narration` renders the rest.

Plurals: a template writes `ficha{n_s}` where `{n}` is the number; the renderer fills
`n_s` with "" for one and "s" otherwise (the same in both languages).
"""
from __future__ import annotations

from ..catalogue import Catalogue

_ACTIONS = {
    "action.bet": ("apostar {n} ficha{n_s}", "bet {n} chip{n_s}"),
    "action.hit": ("pedir carta", "hit"),
    "action.stand": ("parar", "stand"),
    "action.draw": ("a banca compra carta", "the banker draws a card"),
    "action.call": ("chamar o assento {seat}", "call seat {seat}"),
    "action.take_bank": ("aceitar a banca", "take the bank"),
    "action.refuse_bank": ("recusar a banca", "refuse the bank"),
    "action.bid": ("dar um lance de {n} ficha{n_s}", "bid {n} chip{n_s}"),
    "action.pass": ("passar", "pass"),
    "action.offer": ("oferecer {n} ficha{n_s} pela banca", "offer {n} chip{n_s} for the bank"),
    "action.accept_offer": ("aceitar a oferta", "accept the offer"),
    "action.refuse_offer": ("recusar a oferta", "refuse the offer"),
}

# Short names of the kinds of action, for refusals ("'hit' is not allowed now").
_KINDS = {
    "kind.bet": ("apostar", "bet"), "kind.hit": ("pedir carta", "hit"),
    "kind.stand": ("parar", "stand"), "kind.draw": ("comprar carta", "draw"),
    "kind.call": ("chamar", "call"), "kind.take_bank": ("aceitar a banca", "take_bank"),
    "kind.refuse_bank": ("recusar a banca", "refuse_bank"), "kind.bid": ("dar um lance", "bid"),
    "kind.pass": ("passar", "pass"), "kind.offer": ("oferecer fichas pela banca", "offer"),
    "kind.accept_offer": ("aceitar a oferta", "accept_offer"),
    "kind.refuse_offer": ("recusar a oferta", "refuse_offer"),
}

_PHASES = {
    "phase.bet": ("apostas", "bet"), "phase.players": ("vez dos jogadores", "players"),
    "phase.banker": ("vez da banca", "banker"), "phase.rotation": ("troca da banca", "rotation"),
    "phase.game_over": ("fim de jogo", "game_over"),
}

_EVENTS = {
    "event.game_start": ("Começa o 21 com {players} participantes; a banca é do assento {banker}.",
                         "21 begins with {players} participants; seat {banker} holds the bank."),
    "event.round_start": ("Rodada {round}: a banca é do assento {banker}.",
                          "Round {round}: seat {banker} holds the bank."),
    "event.deal_down": ("O assento {seat} recebe uma carta fechada.",
                        "Seat {seat} gets a face-down card."),
    "event.deal_down_known": ("O assento {seat} recebe uma carta fechada ({card}).",
                              "Seat {seat} gets a face-down card ({card})."),
    "event.deal_up": ("O assento {seat} recebe {card}.", "Seat {seat} gets {card}."),
    "event.bet": ("O assento {seat} aposta {amount} ficha{amount_s}.",
                  "Seat {seat} bets {amount} chip{amount_s}."),
    "event.banker_21": ("A banca mostra {cards}: 21 com duas cartas, e recolhe todas as apostas.",
                        "The banker shows {cards}: 21 with two cards, and takes every bet."),
    "event.hit": ("O assento {seat} pede carta.", "Seat {seat} hits."),
    "event.stand": ("O assento {seat} para com {points} pontos.", "Seat {seat} stands on {points}."),
    "event.stand_21": ("O assento {seat} fez 21 e para.", "Seat {seat} has 21 and stands."),
    "event.bust": ("Estourei! O assento {seat} passa de 21 com {points} pontos.",
                   "Bust (estourei)! Seat {seat} goes over 21 with {points}."),
    "event.pay": ("O assento {from} paga {amount} ficha{amount_s} ao assento {to}.",
                  "Seat {from} pays {amount} chip{amount_s} to seat {to}."),
    "event.pay_short": ("O assento {from} só tem {amount} ficha{amount_s} para pagar {owed} ao "
                        "assento {to}.",
                        "Seat {from} has only {amount} chip{amount_s} to pay the {owed} owed to "
                        "seat {to}."),
    "event.pay_none": ("A banca (assento {from}) não tem mais fichas para pagar o assento {to}, "
                       "que só recebe de volta a sua aposta de {owed} ficha{owed_s}.",
                       "The banker (seat {from}) has no chips left to pay seat {to}, "
                       "who only gets back the bet of {owed} chip{owed_s}."),
    "event.draw": ("A banca compra uma carta.", "The banker draws a card."),
    "event.reveal": ("A banca vira a sua carta fechada: {card}.",
                     "The banker turns his face-down card: {card}."),
    "event.call_player": ("A banca chama o assento {seat}: {player_points} contra "
                          "{banker_points}; ganha o jogador.",
                          "The banker calls seat {seat}: {player_points} against "
                          "{banker_points}; the player wins."),
    "event.call_banker": ("A banca chama o assento {seat}: {player_points} contra "
                          "{banker_points}; ganha a banca.",
                          "The banker calls seat {seat}: {player_points} against "
                          "{banker_points}; the bank wins."),
    "event.banker_bust": ("A banca estoura com {points} pontos e paga quem ainda não chamou.",
                          "The banker busts with {points} and pays everyone not yet called."),
    "event.banker_bust_none": ("A banca estoura com {points} pontos; não resta ninguém para pagar.",
                               "The banker busts with {points}; nobody is left to pay."),
    "event.reshuffle": ("Acabou o monte: as {cards} cartas recolhidas são embaralhadas de novo.",
                        "The pack ran out: the {cards} collected cards are shuffled again."),
    "event.round_end": ("Fim da rodada {round}.", "End of round {round}."),
    "event.rotation_rounds": ("A banca é oferecida, a começar pela esquerda do banqueiro.",
                              "The bank is offered round the table, from the banker's left."),
    "event.rotation_auction": ("A banca vai a leilão.", "The bank goes up for auction."),
    "event.rotation_sale": ("Quem quiser pode fazer uma oferta pela banca.",
                            "Anyone may make an offer for the bank."),
    "event.take_bank": ("O assento {seat} aceita a banca.", "Seat {seat} takes the bank."),
    "event.refuse_bank": ("O assento {seat} recusa a banca.", "Seat {seat} refuses the bank."),
    "event.bid": ("O assento {seat} dá um lance de {amount} ficha{amount_s}.",
                  "Seat {seat} bids {amount} chip{amount_s}."),
    "event.pass": ("O assento {seat} passa.", "Seat {seat} passes."),
    "event.offer": ("O assento {seat} oferece {amount} ficha{amount_s} pela banca.",
                    "Seat {seat} offers {amount} chip{amount_s} for the bank."),
    "event.accept_offer": ("A banca aceita a oferta de {amount} ficha{amount_s} do assento {buyer}.",
                           "The banker accepts seat {buyer}'s offer of {amount} chip{amount_s}."),
    "event.refuse_offer": ("A banca recusa a oferta de {amount} ficha{amount_s} do assento {buyer}.",
                           "The banker refuses seat {buyer}'s offer of {amount} chip{amount_s}."),
    "event.bank_change": ("A banca passa do assento {from} para o assento {to} ({reason}).",
                          "The bank passes from seat {from} to seat {to} ({reason})."),
    "event.game_over_one": ("Fim de jogo: vence o assento {winner}.",
                            "Game over: seat {winner} wins."),
    "event.game_over_tie": ("Fim de jogo: empate entre os assentos {winners}.",
                            "Game over: a tie between seats {winners}."),
    "event.game_over_cap": ("Fim de jogo: chegou-se ao limite de {cap} rodadas.",
                            "Game over: the limit of {cap} rounds was reached."),
}

_REASONS = {
    "reason.rounds": ("aceitou no rodízio", "taken in rotation"),
    "reason.lot": ("sorteio", "drawn by lot"),
    "reason.natural": ("21 com duas cartas", "21 with two cards"),
    "reason.auction": ("leilão, por {price} ficha{price_s}", "auction, for {price} chip{price_s}"),
    "reason.sale": ("venda, por {price} ficha{price_s}", "sale, for {price} chip{price_s}"),
    "reason.broke": ("o banqueiro ficou sem fichas", "the banker ran out of chips"),
}

_ROTATIONS = {
    "rotation.rounds": ("rodízio a cada N rodadas", "rotation every N rounds"),
    "rotation.natural": ("21 com duas cartas leva a banca", "a two-card 21 takes the bank"),
    "rotation.auction": ("leilão a cada rodada", "auction after every round"),
    "rotation.sale": ("compra e venda", "sale by offer"),
    "rotation.permanent": ("banca fixa", "permanent bank"),
}

_CALLS = {
    "call.banker_21": ("A banca mostra 21 com duas cartas antes de chamar: ganha a banca, pois o "
                       "jogador no máximo empataria.",
                       "The banker shows 21 with two cards before calling: the bank wins, since "
                       "the player could only tie."),
    "call.player_bust": ("Estourei! O jogador passa de 21 com {p} pontos antes de a banca o "
                         "chamar: ganha a banca.",
                         "Bust (estourei)! The player goes over 21 with {p} before the banker "
                         "calls him: the bank wins."),
    "call.banker_two_aces": ("A banca tinha dois ases ({b} pontos): estoura quando chega a sua "
                             "vez, e o jogador, que não estourou antes, ganha.",
                             "The banker held two aces ({b}): he busts when his turn comes, and "
                             "the player wins, having not bust first."),
    "call.banker_bust": ("A banca estoura com {b} pontos antes de chamar o jogador: ganha o "
                         "jogador.",
                         "The banker busts with {b} before calling the player: the player wins."),
    "call.more": ("A banca chama o jogador: {p} contra {b}; ganha o jogador.",
                  "The banker calls the player: {p} against {b}; the player wins."),
    "call.tie": ("A banca chama o jogador: {p} contra {b}; empate, e o empate é da banca.",
                 "The banker calls the player: {p} against {b}; a tie goes to the bank."),
    "call.less": ("A banca chama o jogador: {p} contra {b}; ganha a banca.",
                  "The banker calls the player: {p} against {b}; the bank wins."),
}

_WORDS = {
    "word.or": (" ou ", " or "),
    "word.nobody": ("ninguém", "nobody"),
    "word.none": ("nenhum", "none"),
    "field.amount": ("quantidade", "amount"),
    "field.seat": ("assento", "seat"),
}

# Refusals of actions (IllegalAction). Their keys are the errors' codes.
_REFUSALS = {
    "game_over": ("o jogo acabou", "the game is over"),
    "no_offer": ("não há oferta pela banca para aceitar ou recusar",
                 "there is no offer for the bank to accept or refuse"),
    "not_your_turn": ("é a vez do assento {current}, não do assento {seat}",
                      "it is seat {current}'s turn, not seat {seat}'s"),
    "wrong_kind": ("“{kind}” não vale agora: o assento {current} deve escolher {expected} "
                   "(fase: {phase})",
                   "'{kind}' is not allowed now: seat {current} must choose {expected} "
                   "({phase} phase)"),
    "bet_limits": ("uma aposta de {n} está fora dos limites de {min_bet} a {max_bet}",
                   "a bet of {n} is outside the limits {min_bet} to {max_bet}"),
    "too_few_chips": ("o assento {seat} só tem {chips} ficha{chips_s}",
                      "seat {seat} has only {chips} chip{chips_s}"),
    "hand_full": ("o assento {seat} tem {points} pontos e não pode receber mais cartas",
                  "seat {seat} has {points} points and may take no more cards"),
    "no_cards_left": ("não há mais cartas para dar: pare",
                      "there are no cards left to deal: stand instead"),
    "not_waiting": ("o assento {seat} não está esperando ser chamado (esperam: {waiting})",
                    "seat {seat} is not a player waiting to be called (waiting: {waiting})"),
    "bid_too_low": ("um lance de {n} tem de superar o maior lance, {high_bid}",
                    "a bid of {n} must beat the highest bid, {high_bid}"),
    "offer_too_low": ("uma oferta de {n} tem de ser de pelo menos 1 ficha",
                      "an offer of {n} must be at least 1 chip"),
    "unknown_action": ("não existe a ação {text}", "unknown action {text}: expected one of "
                       "bet, hit, stand, draw, call, take_bank, refuse_bank, bid, pass, offer, "
                       "accept_offer, refuse_offer"),
    "needs_field": ("a ação “{kind}” precisa de um número inteiro ({field})",
                    "the action '{kind}' needs a whole-number {field}"),
    "takes_no_field": ("a ação “{kind}” não leva {field}", "the action '{kind}' takes no {field}"),
    "not_readable": ("{text} não se lê como ação", "cannot read an action from {text}"),
    "takes_no_number": ("a ação “{kind}” não leva número: {text}",
                        "the action '{kind}' takes no number: {text}"),
    "needs_number": ("a ação “{kind}” precisa de um número, como em “{kind} 2”",
                     "the action '{kind}' needs a number, as in '{kind} 2'"),
}

# Refusals of a table, a deal, a viewer, a JSON text or an odds question (VinteEUmError).
_SETUP = {
    "players_range": ("O 21 é jogado por 3 a 12 participantes, contando a banca, não {value}.",
                      "21 is played by 3 to 12 participants, banker included, not {value}."),
    "whole_number": ("{field} deve ser um número inteiro de {low} a {high}, não {value}.",
                     "{field} must be a whole number from {low} to {high}, not {value}."),
    "unknown_rotation": ("Rodízio da banca desconhecido: {value}. Escolha entre {choices}.",
                         "Unknown bank rotation {value}: choose one of {choices}."),
    "bad_ace": ("O ás vale 1, 11 ou 'flexible', não {value}.",
                "The ace must count 1, 11 or 'flexible', not {value}."),
    "bet_order": ("Os limites de aposta precisam de min_bet <= max_bet, não {min_bet} a {max_bet}.",
                  "Bet limits need min_bet <= max_bet, not {min_bet} to {max_bet}."),
    "chips_shape": ("As fichas são um número inteiro para todos ou uma lista com um por "
                    "participante ({players}), não {value}.",
                    "Chips are one whole number for everyone or a list with one per "
                    "participant ({players}), not {value}."),
    "natural_needs_11": ("O rodízio 'natural' precisa do ás valendo 11 (ou 'flexible'): com o ás "
                         "valendo 1 nenhuma dupla de cartas faz 21 e a banca nunca passaria.",
                         "The 'natural' rotation needs the ace to count 11 (or 'flexible'): with "
                         "the ace worth 1 no two cards make 21 and the bank would never move."),
    "banker_range": ("A banca é um assento de 0 a {last}, não {value}.",
                     "The banker must be a seat from 0 to {last}, not {value}."),
    "banker_no_chips": ("O assento {banker} não tem fichas e não pode ficar com a banca.",
                        "Seat {banker} has no chips and cannot hold the bank."),
    "nobody_can_bet": ("Ninguém pode apostar contra a banca nesta mesa: nenhum jogador além da "
                       "banca tem pelo menos {min_bet} ficha{min_bet_s} (a aposta mínima).",
                       "Nobody at this table can bet against the bank: no player besides the "
                       "banker holds at least {min_bet} chip{min_bet_s} (the minimum bet)."),
    "no_chips_at_all": ("A mesa precisa de fichas: todos começam com zero.",
                        "The table needs chips: every stack is zero."),
    "bad_seed": ("A semente é um número inteiro de 0 a 2**63 - 1 (ou nada), não {value}.",
                 "The seed is a whole number from 0 to 2**63 - 1 (or none), not {value}."),
    "first_cards_shape": ("As primeiras cartas são uma lista por participante ou um dicionário "
                          "{{jogador: carta}}, não {value}.",
                          "The first cards are a list per seat or a dict {{seat: card}}, "
                          "not {value}."),
    "first_cards_seats": ("As primeiras cartas devem ir exatamente para quem recebe cartas, "
                          "{dealt}; vieram para {given}.",
                          "first_cards must give a card to exactly the seats dealt in, {dealt}; "
                          "got seats {given}."),
    "cards_list": ("{field} deve ser uma lista de cartas, não {value}.",
                   "{field} must be a list of cards, not {value}."),
    "too_few_in_packs": ("{packs} baralho(s) têm poucas cópias de {cards}.",
                         "{packs} pack(s) hold too few of {cards}."),
    "bad_card": ("Não é uma carta: {value}. Escreva como '7♥', '10♦' ou '7 de copas'.",
                 "Not a card: {value}. Write it as '7♥', '10♦' or '7 de copas'."),
    "bad_viewer": ("Quem olha é um assento de 0 a {last}, None (espectador) ou 'all' (todas as "
                   "cartas), não {value}.",
                   "A viewer is a seat from 0 to {last}, None (a spectator) or 'all' (every "
                   "card), not {value}."),
    "bad_language": ("O idioma é 'pt' ou 'en', não {value}.",
                     "The language is 'pt' or 'en', not {value}."),
    "bad_event": ("Não é um evento do 21: {value}.", "Not a 21 event: {value}."),
    "hidden_count": ("hidden conta as cartas da banca que não se veem (0 ou mais), não {value}.",
                     "hidden counts the banker's unseen cards (0 or more), not {value}."),
    "seen_own_cards": ("seen não pode repetir as cartas da própria mão ({cards} vieram nas duas).",
                       "seen must not include the hand's own cards ({cards} given in both)."),
    "seen_too_often": ("{cards} vistas mais vezes do que {packs} baralho(s) têm.",
                       "{cards} seen more often than {packs} pack(s) hold."),
    "no_consistent_deal": ("Nenhuma distribuição é compatível com estas cartas e com a condição "
                           "given_under_21.",
                           "No deal is consistent with these cards and the condition "
                           "given_under_21."),
    "bots_count": ("play_game precisa de um robô por participante ({players}), não {count}.",
                   "play_game needs one bot per seat ({players}), got {count}."),
    "no_move": ("O assento {seat} não tem nada a fazer: é a vez do assento {current}.",
                "Seat {seat} has nothing to do: it is seat {current}'s turn."),
    "bad_state": ("Este estado salvo do 21 não é válido: {where}: {rule}.",
                  "This saved 21 state is not valid: {where}: {rule}."),
    "bad_setup": ("A preparação deste jogo salvo do 21 é recusada ({field}): {error}",
                  "The setup of this saved 21 game is refused ({field}): {error}"),
    "saved_action": ("A jogada {index} deste jogo salvo do 21 não vale aqui: {error}",
                     "Action {index} of this saved 21 game is not legal here: {error}"),
    "saved_too_many": ("Este jogo salvo do 21 tem jogadas demais (mais de {top}).",
                       "This saved 21 game has too many actions (over {top})."),
    # -- refusals: a seat view read back from its data (`SeatView.from_dict`) -----------------
    "view_not_dict": ("A vista do assento do 21 deveria ser um objeto JSON, não {type}.",
                      "The 21 seat view should be a JSON object, not {type}."),
    "view_missing": ("A vista do assento do 21 não tem o campo “{name}”.",
                     "The 21 seat view lacks the field '{name}'."),
    "view_unknown": ("A vista do assento do 21 tem um campo desconhecido “{name}”.",
                     "The 21 seat view has an unknown field '{name}'."),
    "view_field": ("O campo “{name}” da vista do assento do 21 é inválido.",
                   "The 21 seat view's field '{name}' is invalid."),
    "setup_stock": ("o monte {number} da preparação tem cartas que não estão entre as {cards} a "
                    "embaralhar.",
                    "stock {number} of the setup holds cards that are not among the {cards} to "
                    "shuffle."),
    "setup_lot": ("o sorteio {number} da preparação vai de 0 a {last}.",
                  "lot {number} of the setup is a number from 0 to {last}."),
}

# Why a saved state is refused ("bad_state"'s {rule}).
_STATE_RULES = {
    "rule.json": ("não é JSON", "not JSON"),
    "rule.object": ("deveria ser um objeto", "should be an object"),
    "rule.keys": ("campos esperados: {expected}", "expected fields: {expected}"),
    "rule.format": ("formato desconhecido", "unknown format"),
    "rule.type": ("tipo errado", "wrong type"),
    "rule.range": ("fora dos limites", "out of range"),
    "rule.length": ("tamanho errado", "wrong length"),
    "rule.card": ("carta desconhecida", "unknown card"),
    "rule.card_count": ("mais cópias de uma carta do que os baralhos têm, ou cartas faltando",
                        "more copies of a card than the packs hold, or cards missing"),
    "rule.phase": ("fase desconhecida", "unknown phase"),
    "rule.chips": ("as fichas não conferem com o total da mesa",
                   "the chips do not add up to the table's total"),
    "rule.seat": ("não é um assento da mesa", "not a seat at the table"),
    "rule.hand": ("mão impossível nesta fase", "a hand impossible in this phase"),
    "rule.rng": ("estado de gerador aleatório inválido", "invalid random generator state"),
    "rule.inconsistent": ("contradiz o resto do estado", "contradicts the rest of the state"),
    "rule.config": ("configuração da mesa recusada: {reason}", "table set-up refused: {reason}"),
}

# The coach (`cartas.coach.vinte_e_um`): an advice's `reason` is its key less "coach_".
# Numbers arrive already written the way the language writes them ("67,6%" / "67.6%").
_COACH = {
    "coach_stand": ("Pare: parando você ganha {stand} das vezes; pedindo, {hit}.",
                    "Stand: standing wins {stand} of the time; hitting, {hit}."),
    "coach_hit": ("Peça: pedindo (e parando na hora certa) você ganha {hit} das vezes; parando "
                  "agora, {stand}.",
                  "Hit: hitting (and stopping at the right time) wins {hit} of the time; "
                  "standing now, {stand}."),
    "coach_call": ("Chame: chamando agora, o saldo médio da banca é {call} fichas; comprando, "
                   "{draw}.",
                   "Call: calling now, the bank's average balance is {call} chips; drawing, "
                   "{draw}."),
    "coach_draw": ("Compre: comprando, o saldo médio da banca é {draw} fichas; chamando agora, "
                   "{call}.",
                   "Draw: drawing, the bank's average balance is {draw} chips; calling now, "
                   "{call}."),
    "coach_nobody_to_call": ("A banca não tem mais nenhum jogador para chamar.",
                             "The banker has nobody left to call."),
}

# The lessons' questions (`cartas.questions.vinte_e_um`, and the lessons' own exercises): prompts
# `q_*`, choices `c_*`, reasons `r_*`, and what a wrong choice reveals, `mis_*`.
_QUESTIONS = {
    "c_flexible": ("flexível (regra da casa)", "flexible (house rule)"),
    "q_worth": ("Com o ás valendo {ace}, quanto vale esta mão?",
                "With the ace counting {ace}, what is this hand worth?"),
    "r_worth": ("A mão vale {points}.", "The hand is worth {points}."),
    "q_call": ("A banca chama o jogador (ás vale {ace}). Quem ganha?",
               "The banker calls the player (ace counts {ace}). Who wins?"),
    "q_call_hands": ("{player_seat}: {player} · {banker_seat}: {banker}",
                     "{player_seat}: {player} · {banker_seat}: {banker}"),
    "c_player_seat": ("Assento 1 (jogador)", "Seat 1 (player)"),
    "c_banker_seat": ("Banca (assento 0)", "Banker (seat 0)"),
    "c_player": ("O jogador", "The player"),
    "c_banker": ("A banca", "The banker"),
    "q_banker_decides": ("A banca (assento {banker}) tem {points} pontos. Ainda esperam ser chamados: {waiting}. "
                         "Ela deve comprar mais uma carta ou chamar?",
                         "The banker (seat {banker}) has {points} points. Still waiting to be called: {waiting}. "
                         "Should the banker draw another card or call?"),
    "q_player_decides": ("O assento {seat} tem {points} pontos; a banca mostra {upcard}. Ele deve pedir mais uma carta "
                         "ou parar?",
                         "Seat {seat} has {points} points; the banker shows {upcard}. Should the player hit or stand?"),
    "c_draw": ("Comprar", "Draw"),
    "c_call": ("Chamar", "Call"),
    "c_hit": ("Pedir carta", "Hit"),
    "c_stand": ("Parar", "Stand"),
    "r_draw": ("Um banqueiro cuidadoso compra: está atrás da mão mais fraca à vista, e a chance de estourar é {p}.",
               "A careful banker draws: he is behind the weakest hand in sight, and the chance to bust is {p}."),
    "r_call": ("Um banqueiro cuidadoso chama: já não está atrás ou comprar estoura com chance {p}.",
               "A careful banker calls: he is not behind, or a card busts him with chance {p}."),
    "r_hit": ("Um jogador cuidadoso pede carta enquanto a chance de estourar fica abaixo de 50%: aqui é {p}.",
              "A careful player hits while the chance to bust stays below 50%: here it is {p}."),
    "r_stand": ("Um jogador cuidadoso para quando a chance de estourar chega a 50%: aqui é {p}.",
                "A careful player stands once the chance to bust reaches 50%: here it is {p}."),
    "q_bank_seat": ("Modo: {mode}. A banca era do assento {banker}.{hint} Neste modo, quem fica com a banca agora?",
                    "Mode: {mode}. Seat {banker} held the bank.{hint} In this mode, who holds the bank now?"),
    "q_bank_price": ("Modo: {mode}. A banca era do assento {banker}.{hint} Quantas fichas o novo banqueiro paga "
                     "pela banca?",
                     "Mode: {mode}. Seat {banker} held the bank.{hint} How many chips does the new banker pay "
                     "for the bank?"),
    "q_hint_take": ("O próximo jogador a quem a banca é oferecida aceita.",
                    "The next player the bank is offered to takes it."),
    "q_hint_accept": ("A banca aceita a última oferta feita.", "The banker accepts the last offer made."),
    "c_seat": ("Assento {seat}", "Seat {seat}"),
    "c_chips": ("{n} fichas", "{n} chips"),
    "c_one_chip": ("1 ficha", "1 chip"),
    "r_paid": ("O novo banqueiro paga {chips} pela banca.", "The new banker pays {chips} for the bank."),
    "mis_ace_always_11": ("o ás vale sempre 11", "the ace is always 11"),
    "mis_ace_always_1": ("o ás vale sempre 1", "the ace is always 1"),
    "mis_face_cards_by_rank": ("o valete, a dama e o rei valem 11, 12 e 13",
                               "the jack, queen and king count 11, 12 and 13"),
    "mis_tie_goes_to_player": ("o empate fica com o jogador", "a tie goes to the player"),
    "mis_bust_still_counts": ("uma mão que estourou ainda ganha se tiver mais pontos",
                              "a hand that went over 21 still wins with more points"),
    "mis_counts_first_two_cards": ("só contam as duas primeiras cartas da banca",
                                   "only the banker's first two cards count"),
    "mis_ignores_bust_risk": ("vale pedir mais uma carta mesmo quando ela estoura a mão muitas vezes",
                              "another card is worth taking even when it busts the hand too often"),
    "mis_stops_too_soon": ("é melhor parar mesmo quando a chance de estourar é pequena",
                           "stopping is better even when the chance to bust is small"),
    "mis_bank_stays": ("a banca fica com quem já a tinha", "the bank stays with whoever held it"),
    "mis_bank_to_next_seat": ("a banca passa sempre ao assento seguinte", "the bank always passes to the next seat"),
    "mis_bank_is_free": ("quem toma a banca não paga nada por ela", "whoever takes the bank pays nothing for it"),
    "mis_price_is_first_offer": ("o novo banqueiro paga o primeiro lance (ou a primeira oferta) feito",
                                 "the new banker pays the first bid (or offer) made"),
    "mis_two_card_21_is_just_21": ("um 21 de duas cartas é um 21 como outro qualquer", "a two-card 21 is just 21"),
    "q_bank_natural": ("Rodízio natural (o ás vale 11). A banca é do assento {banker}. No fim da rodada: {hands}. "
                       "Quem fica com a banca na próxima rodada?",
                       "Natural rotation (the ace counts 11). Seat {banker} holds the bank. At the end of the round: "
                       "{hands}. Who holds the bank next round?"),
    "q_seat_hand": ("assento {seat}: {cards} ({points})", "seat {seat}: {cards} ({points})"),
    "r_bank_natural": ("O assento {seat} fez 21 com as duas primeiras cartas: fica com a banca.",
                       "Seat {seat} made 21 with the first two cards: it takes the bank."),
    "r_bank_natural_none": ("Ninguém fez 21 com as duas primeiras cartas: a banca fica com o assento {seat}.",
                            "Nobody made 21 with the first two cards: the bank stays with seat {seat}."),
}

# The rule that corrects each misconception (`rule_<key>`), said after its name.
_RULES = {
    "rule_ace_always_11": ("O ás vale o que a mesa combinou: 1, 11, ou na regra da casa flexível 11 só quando a mão "
                           "não passa de 21.",
                           "The ace counts what the table agreed: 1, 11, or under the flexible house rule 11 only "
                           "while the hand stays at 21 or under."),
    "rule_ace_always_1": ("O ás vale o que a mesa combinou: 1, 11, ou na regra da casa flexível 11 quando a mão não "
                          "passa de 21.",
                          "The ace counts what the table agreed: 1, 11, or under the flexible house rule 11 while "
                          "the hand stays at 21 or under."),
    "rule_face_cards_by_rank": ("O valete, a dama e o rei valem 10 cada.", "The jack, queen and king count 10 each."),
    "rule_tie_goes_to_player": ("O empate fica com a banca: o jogador precisa de mais pontos que ela.",
                                "A tie goes to the bank: the player needs more points than the banker."),
    "rule_bust_still_counts": ("Quem passa de 21 estoura e perde, tenha quantos pontos tiver.",
                               "Whoever goes over 21 busts and loses, however many points."),
    "rule_counts_first_two_cards": ("Contam todas as cartas da banca, também as que ela comprou.",
                                    "Every card of the banker counts, the ones drawn too."),
    "rule_ignores_bust_risk": ("Peça outra carta quando a chance de estourar é pequena; pare quando é grande.",
                               "Take another card when the chance to bust is small; stand when it is large."),
    "rule_stops_too_soon": ("Com pouca chance de estourar, vale pedir mais uma carta.",
                            "With a small chance to bust, another card is worth taking."),
    "rule_bank_stays": ("A banca muda de mão conforme o modo da mesa: depois de tantas rodadas, com 21 de duas cartas, "
                        "em leilão ou vendida.",
                        "The bank changes hands by the table's mode: after some rounds, on a two-card 21, by auction "
                        "or by sale."),
    "rule_bank_to_next_seat": ("A banca vai para quem o modo manda: quem aceita a oferta, quem fez 21 com duas "
                               "cartas, o maior lance ou a oferta aceita.",
                               "The bank goes where the mode says: to whoever takes the offer, makes a two-card 21, "
                               "bids highest or has an offer accepted."),
    "rule_bank_is_free": ("No leilão e na venda o novo banqueiro paga o lance vencedor ou a oferta aceita.",
                          "In an auction or a sale the new banker pays the winning bid or the accepted offer."),
    "rule_price_is_first_offer": ("Paga-se o lance que venceu o leilão, ou a oferta que a banca aceitou, não o "
                                  "primeiro.",
                                  "The price is the bid that won the auction, or the offer the banker accepted, not "
                                  "the first one."),
    "rule_two_card_21_is_just_21": ("21 com as duas primeiras cartas é especial: a banca que o tem leva todas as "
                                    "apostas na hora, e no rodízio natural o jogador que o faz toma a banca (um 21 "
                                    "de três cartas não).",
                                    "21 with the first two cards is special: a banker holding it takes every bet at "
                                    "once, and under the natural rotation the player who makes it takes the bank (a "
                                    "three-card 21 does not)."),
}

CATALOGUE = Catalogue("vinte_e_um", {
    **_ACTIONS, **_KINDS, **_PHASES, **_EVENTS, **_REASONS, **_ROTATIONS, **_CALLS, **_WORDS,
    **_REFUSALS, **_SETUP, **_STATE_RULES,
    **_COACH, **_QUESTIONS, **_RULES,
})
