"""The lessons' notebooks, written from here: prose in Portuguese and English, one cell per widget.

Run `python tools/lessons.py` from the repository root after editing; it rewrites every lesson
notebook below and the course index (INDEX). Each notebook starts with the page-language cell, and its
"Conferindo com o motor" checks are tagged `remove-cell`: nbval runs them, dashboards hide them.
Numbers in the prose follow the language (50.000 and 67,6% in Portuguese; 50,000 and 67.6% in
English).
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_notebook import make_notebook

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"

CHECKS = ("## Conferindo com o motor\n\nVerificações para o nbval; o painel não as mostra.",
          "## Checking with the engine\n\nChecks for nbval; the dashboard does not show them.")


def widget(module: str, name: str, args: str = "") -> tuple:
    """The cell that shows one view, following the page's language (`module`: its page in
    `widgets.pages`, named after the notebook)."""
    source = (f"from widgets.components.page import follow\nfrom widgets.pages.{module} import {name}\n\n"
              f"follow({name}({args}))")
    return ("code", source)


LESSONS: dict[str, list] = {}

LESSONS["manilhas"] = [
    ("page",),
    ("text", """
# As manilhas

No truco, quase todas as cartas seguem a **ordem natural**, da mais fraca para a mais forte:

**4 · 5 · 6 · 7 · Q · J · K · A · 2 · 3**

Repare que a dama (Q) vale menos que o valete (J). Fora das manilhas, o naipe não importa:
um K de ouros empata com um K de paus.

As **manilhas** são as quatro cartas mais fortes do jogo.

- No **Truco Paulista**, depois de dar as cartas, vira-se a próxima carta do monte: a **vira**.
  As manilhas são as cartas do valor que vem **logo depois** da vira na ordem natural.
  Vira 6 → manilhas são os 7. Vira 3 → a ordem dá a volta, e as manilhas são os 4.
- Entre as manilhas, quem decide é o naipe: **ouros ♦ < espadas ♠ < copas ♥ < paus ♣**.
  A manilha de paus é o **zap**, a carta mais forte de todas.
- No **Truco Mineiro** não há vira: as manilhas são sempre 4♣ (zap), 7♥ (copas),
  A♠ (espadilha) e 7♦ (pica-fumo).
""", """
# The manilhas

In truco almost every card follows the **natural order**, from the weakest to the strongest:

**4 · 5 · 6 · 7 · Q · J · K · A · 2 · 3**

Note that the queen (Q) is below the jack (J). Outside the manilhas, suits do not matter:
a K of diamonds ties with a K of clubs.

The **manilhas** are the four strongest cards of the game.

- In **Truco Paulista**, after the deal the next card of the pack is turned up: the **vira**.
  The manilhas are the cards of the rank that comes **right after** the vira in the natural order.
  Vira 6 → the manilhas are the 7s. Vira 3 → the order wraps round, and the manilhas are the 4s.
- Among the manilhas the suit decides: **diamonds ♦ < spades ♠ < hearts ♥ < clubs ♣**.
  The clubs manilha is the **zap**, the strongest card of all.
- **Truco Mineiro** has no vira: its manilhas are always 4♣ (zap), 7♥ (copas),
  A♠ (espadilha) and 7♦ (pica-fumo).
"""),
    ("text", """
## Explore

Escolha a variante e a vira (ou sorteie uma). O explorador mostra o passo na ordem natural,
as quatro manilhas e a força de todas as 40 cartas. No fim, responda às perguntas.
""", """
## Explore

Pick the variant and the vira (or draw one). The explorer shows the step in the natural order,
the four manilhas and the strength of all 40 cards. Then answer the questions at the end.
"""),
    widget("manilhas", "ManilhaExplorer"),
    ("checks", *CHECKS),
    ("check", """
from cartas.truco import manilhas
" < ".join(str(card) for card in manilhas("paulista", vira="K♠"))
""", "'A♦ < A♠ < A♥ < A♣'"),
    ("check", """
" < ".join(str(card) for card in manilhas("mineiro"))
""", "'7♦ < A♠ < 7♥ < 4♣'"),
]

LESSONS["truco_mao"] = [
    ("page",),
    ("text", """
# A mão passo a passo

Uma mão de truco começa assim: quem **dá as cartas** embaralha as 40 cartas e entrega **três
cartas a cada assento**. O assento depois de quem deu é a **mão**: ele joga primeiro; quem deu
joga por último (o **pé**). Os assentos 0 e 2 formam a **dupla A**; os assentos 1 e 3, a **dupla B**.

No **Truco Paulista**, depois da distribuição vira-se a carta de cima do monte: a **vira**.
As **manilhas** (em dourado) são as cartas do valor seguinte. No **Truco Mineiro** não há vira:
as manilhas são fixas.

Depois cada um joga uma carta por vez; a carta mais alta leva a **rodada**, e quem vence duas
rodadas leva a mão.
""", """
# A hand step by step

A truco hand starts like this: the **dealer** shuffles the 40 cards and gives **three cards to
each seat**. The seat after the dealer is the **mão**: it plays first; the dealer plays last
(the **pé**). Seats 0 and 2 are **team A**; seats 1 and 3, **team B**.

In **Truco Paulista**, after the deal the top card of the pack is turned up: the **vira**.
The **manilhas** (in gold) are the cards of the next rank. **Truco Mineiro** has no vira:
its manilhas are fixed.

Then each seat plays one card in turn; the highest card takes the **trick**, and the team that
wins two tricks takes the hand.
"""),
    ("text", """
## Passo a passo

Use **Avançar** e **Voltar** para seguir a mão. Cada passo é narrado pelo motor do jogo.
A mesma **semente** repete a mesma distribuição; troque a semente e clique em **Dar as cartas**
para ver outra mão. No fim, responda aos exercícios.
""", """
## Step by step

Use **Forward** and **Back** to follow the hand; the game's engine narrates every step.
The same **seed** replays the same deal; change the seed and click **Deal** to see another
hand. Then answer the exercises at the end.
"""),
    widget("truco_mao", "DealStepper"),
    ("checks", *CHECKS),
    ("check", """
from cartas.truco import new_game, narrate
narrate(new_game("paulista", 7).events[0], "pt")
""", ("'Mão 1: assento 3 dá as cartas, a vira é 4♣ (manilhas: 5♦, 5♠, 5♥, 5♣) e assento 0 começa; "
      "a mão vale 1.'")),
]

LESSONS["truco_rodadas"] = [
    ("page",),
    ("text", """
# Rodadas e desempates

Em cada **rodada** cada assento joga uma carta; a carta mais alta leva a rodada para a sua
**dupla**. Se a melhor carta de cada dupla for igual, a rodada **empata**; se os dois parceiros
têm as cartas iguais mais altas, a dupla deles vence.

Uma **carta coberta** (jogada virada para baixo) não vale nada: não vence e não empata.
Ela só é permitida a partir da 2ª rodada.

A dupla que vence **duas rodadas** leva a mão. Nos empates:

- 1ª rodada empatada: decide a primeira rodada que não empatar;
- 1ª vencida e 2ª empatada: vale a 1ª;
- uma rodada para cada dupla e a 3ª empatada: vale a **1ª**;
- as três empatadas: ninguém pontua.
""", """
# Tricks and ties

In each **trick** every seat plays one card; the highest card takes the trick for its **team**.
If each team's best card is equal, the trick is **tied**; if two partners hold the equal
highest cards, their team wins.

A **face-down card** (carta coberta) is worth nothing: it never wins and never ties.
It is allowed from the 2nd trick on.

The team that wins **two tricks** takes the hand. When tricks tie:

- 1st trick tied: the first trick that is not tied decides;
- 1st won and 2nd tied: the 1st decides;
- one trick each and the 3rd tied: the **1st** decides;
- all three tied: nobody scores.
"""),
    ("text", """
## Experimente

Escreva as quatro cartas da rodada (por exemplo `7♥` ou `3 de paus`), marque uma carta como
coberta, e veja quem vence e por quê. Depois escolha os resultados das rodadas de uma mão.
""", """
## Try it

Type the four cards of the trick (for example `7♥` or `3 of clubs`), mark a card as face down,
and see who wins and why. Then choose the results of a hand's tricks.
"""),
    widget("truco_rodadas", "TrickLab"),
    ("checks", *CHECKS),
    ("check", """
from cartas.truco import explain_hand
explain_hand([0, 1, None])
""", ("'Cada dupla venceu uma rodada e a 3ª empatou, então vale a 1ª: a dupla A (assentos 0 e 2) "
      "leva a mão.'")),
    ("check", """
from cartas.truco import trick_winner
trick_winner([(0, None), (1, "3♣"), (2, "K♦"), (3, "3♦")], "paulista", vira="6♣")
""", "1"),
]

LESSONS["truco_apostas"] = [
    ("page",),
    ("text", """
# Apostas: pedir truco

Na sua vez, antes de jogar, um jogador pode **pedir truco**: aumentar o valor da mão.
A outra dupla responde:

- **aceita**: a mão passa a valer o novo valor e o jogo segue;
- **corre**: quem pediu leva a mão com o valor **de antes** do pedido recusado;
- **pede mais** (seis, nove, doze...): isso aceita o pedido anterior, e agora é a primeira
  dupla que responde.

O valor sobe um degrau por vez, e uma dupla **não pode pedir duas vezes seguidas**: depois de
pedir, espera a outra dupla pedir. Nada passa de 12.

As escadas: **Paulista 1-3-6-9-12** e **Mineiro 2-4-6-10-12**.
""", """
# Raising: calling truco

On their turn, before playing, a player may **call truco**: raise the value of the hand.
The other team answers:

- **accept**: the hand is worth the new value and play goes on;
- **run**: the team that raised takes the hand at the value **before** the refused call;
- **raise again** (seis, nove, doze...): this accepts the call on the table, and now the first
  team answers.

The value rises one step at a time, and a team **may not raise twice in a row**: after raising,
it waits for the other team to raise. Nothing goes above 12.

The ladders: **Paulista 1-3-6-9-12** and **Mineiro 2-4-6-10-12**.
"""),
    ("text", """
## Experimente

Peça truco, aceite, corra, peça mais, jogue cartas: a cada passo o painel mostra quanto vale a
mão, de quem é a vez e quanto pagaria correr. Tente pedir de novo pela mesma dupla!
""", """
## Try it

Raise, accept, run, raise again, play cards: at every step the panel shows what the hand is
worth, whose turn it is and what running would pay. Try raising again with the same team!
"""),
    widget("truco_apostas", "BettingLab"),
    ("checks", *CHECKS),
    ("check", """
from cartas.truco import PAULISTA, MINEIRO
PAULISTA.values, MINEIRO.values
""", "((1, 3, 6, 9, 12), (2, 4, 6, 10, 12))"),
]

LESSONS["truco_mao_de_onze"] = [
    ("page",),
    ("text", """
# Mão de onze, mão de dez e mão de ferro

Quando **uma** dupla chega a **11 pontos** no Paulista (a **mão de onze**) ou a **10 pontos** no
Mineiro (a **mão de dez**), antes de jogar ela olha as próprias cartas **e as do parceiro** e decide:

- **jogar**: a mão vale 3 no Paulista, 4 no Mineiro;
- **correr**: a outra dupla ganha 1 ponto no Paulista, 2 no Mineiro.

Nessa mão **ninguém pode pedir truco**: a dupla que pedir **perde o jogo** na hora.

Quando **as duas** duplas estão no limite (11 a 11 ou 10 a 10), é a **mão de ferro**: joga-se
no escuro. Ninguém vê as próprias cartas; cada um escolhe a 1ª, a 2ª ou a 3ª carta, que é
virada na mesa. Quem levar a mão vence o jogo.
""", """
# The hand of eleven, the hand of ten and the iron hand

When **one** team reaches **11 points** in Paulista (the **mão de onze**) or **10 points** in
Mineiro (the **mão de dez**), before playing it looks at its own cards **and its partner's** and
decides:

- **play**: the hand is worth 3 in Paulista, 4 in Mineiro;
- **run**: the other team scores 1 point in Paulista, 2 in Mineiro.

In that hand **nobody may call truco**: a team that does **loses the game** at once.

When **both** teams are at the threshold (11 to 11 or 10 to 10), it is the **mão de ferro**
(iron hand): it is played in the dark. Nobody sees their own cards; each player picks the 1st,
2nd or 3rd card, which is turned up on the table. Whoever takes the hand wins the game.
"""),
    ("text", """
## Experimente

Decida a mão de onze vendo as cartas do parceiro (as dos adversários ficam escondidas). Depois
de jogar, tente pedir truco. Mais abaixo, jogue uma mão de ferro escolhendo posições.
""", """
## Try it

Decide the mão de onze seeing your partner's cards (the opponents' stay hidden). After playing,
try calling truco. Further down, play an iron hand by choosing positions.
"""),
    widget("truco_mao_de_onze", "ThresholdLab"),
    ("checks", *CHECKS),
    ("check", """
from cartas.truco import PAULISTA, MINEIRO
[(v.threshold, v.threshold_value, v.threshold_run_value) for v in (PAULISTA, MINEIRO)]
""", "[(11, 3, 1), (10, 4, 2)]"),
]

LESSONS["truco_mineiro"] = [
    ("page",),
    ("text", """
# Truco Mineiro

O **Truco Mineiro** usa as mesmas 40 cartas e as mesmas rodadas do Paulista, mas:

- **não há vira**: as manilhas são sempre as mesmas, da mais forte para a mais fraca:
  **4♣ (zap)**, **7♥ (sete copas)**, **A♠ (espadilha)** e **7♦ (pica-fumo)**;
- uma mão vale **2**, e os pedidos são **truco 4, seis 6, dez 10, doze 12**;
- a **mão de dez** (aos 10 pontos) vale 4, e correr dela dá 2 à outra dupla;
- a mão de ferro é aos **10 a 10**.
""", """
# Truco Mineiro, the Minas Gerais game

**Truco Mineiro** uses the same 40 cards and the same tricks as Paulista, but:

- there is **no vira**: the manilhas are always the same, strongest first:
  **4♣ (zap)**, **7♥ (sete copas)**, **A♠ (espadilha)** and **7♦ (pica-fumo)**;
- a hand is worth **2**, and the calls are **truco 4, seis 6, dez 10, doze 12**;
- the **mão de dez** (at 10 points) is worth 4, and running from it gives the other team 2;
- the iron hand comes at **10 to 10**.
"""),
    ("text", """
## Lado a lado

Mude a vira do Paulista e as cartas da rodada: veja quem vence em cada variante.
""", """
## Side by side

Change the Paulista vira and the cards of the trick: see who wins in each variant.
"""),
    widget("truco_mineiro", "VariantComparison"),
    ("checks", *CHECKS),
    ("check", """
from cartas.truco import trick_winner
trick = [(0, "4♣"), (1, "A♦"), (2, "5♥"), (3, "3♣")]
trick_winner(trick, "mineiro"), trick_winner(trick, "paulista", vira="K♠")
""", "(0, 1)"),
]

LESSONS["chances_truco"] = [
    ("page",),
    ("text", """
# Chances no truco

Com a sua mão, a vira e a sua posição na mesa, quais as chances de ganhar cada rodada e a mão?
O explorador sorteia as cartas dos outros três jogadores dezenas de milhares de vezes e joga
cada mão como o robô de regras (sem truco). Informe também cartas já vistas, que ninguém mais tem.
""", """
# Odds in truco

With your hand, the vira and your position at the table, what are the chances of winning each
trick and the hand? The explorer deals the other three players' cards tens of thousands of
times and plays each hand like the rule-based bot (without raises). You can also list cards
already seen, which nobody else holds.
"""),
    widget("chances_truco", "TrucoOddsExplorer"),
    ("checks", *CHECKS),
    ("check", """
from cartas.truco import hand_odds
hand_odds("mineiro", ["4♣", "7♥", "A♠"], position=3, simulations=2000, seed=1).hand_win
""", "1.0"),
]

LESSONS["jogar_truco"] = [
    ("page",),
    ("text", """
# Jogar truco

Agora é com você! Você é o **assento 0**; seu parceiro (assento 2) e os adversários
(assentos 1 e 3) são robôs que jogam pelas regras. Clique numa das suas cartas para jogá-la.
Os botões de **truco**, **aceitar**, **correr**, **aumentar**, **jogar coberta** e a decisão da
**mão de onze** só aparecem quando a jogada é permitida. O registro conta cada passo, e o botão
**Por quê?** explica a última rodada (e a mão, quando ela termina). O jogo vai até 12 pontos.

Quando pedem truco à sua dupla, quem responde é **você**, mesmo que a vez seja do parceiro; a
decisão da mão de onze também é sua. Na dúvida, clique em **Dica**: o treinador diz que carta
jogar, se vale pedir truco, se deve aceitar, correr ou aumentar, e se joga a mão de onze, com a
chance de levar a mão e quanto cada resposta ganha ou perde em média. A **Revisão** (também ao
fim do jogo) lista as suas decisões que foram contra a dica.

Prefere um contra um? Escolha **Mano a mano (2)**: você (assento 0) contra um robô (assento 1),
três cartas cada, e na mão de onze você decide só com as suas cartas.
""", """
# Play truco

Your turn to play! You are **seat 0**; your partner (seat 2) and the opponents (seats 1 and 3)
are bots that play by the rules. Click one of your cards to play it. The buttons for **truco**,
**accept**, **run**, **raise**, **play face down** and the **mão de onze** decision appear only
when the move is allowed. The log tells every step, and the **Why?** button explains the last
trick (and the hand, when it ends). The game goes to 12 points.

When truco is called against your team, **you** answer, even when it is your partner's turn;
the mão de onze decision is yours too. When unsure, click **Hint**: the coach says which card
to play, whether to call truco, whether to accept, run or raise, and whether to play the mão de
onze, with the chance of taking the hand and what each answer wins or loses on average.
**Review** (also shown at the end of the game) lists your decisions that went against the hint.

Rather play one on one? Choose **One on one (2)** (*mano a mano*): you (seat 0) against a bot
(seat 1), three cards each, and in the mão de onze you decide from your own cards alone.
"""),
    widget("jogar_truco", "PlayTruco"),
    ("checks", *CHECKS),
    ("check", """
from cartas.truco.bots import RandomBot, RuleBot, play_game
final = play_game("paulista", [RuleBot(1), RandomBot(2), RuleBot(3), RandomBot(4)], seed=7)
final.score[0] >= 12 or final.score[1] >= 12
""", "True"),
]

LESSONS["vinte_e_um_pontos"] = [
    ("page",),
    ("text", """
# 21: quanto vale a mão?

No 21 (vinte-e-um), cada carta vale pontos:

- do **2 ao 10**, o próprio número;
- **K, Q e J** valem **10**;
- o **ás** vale **1** ou **11**, como a mesa combinar antes do jogo. Algumas mesas usam o ás
  **flexível** (regra da casa): vale 11 quando isso não passa de 21, senão vale 1.

Quem passa de 21 **estoura** ("estourei!") e perde a aposta na hora. Duas cartas que somam 21
(um ás valendo 11 e uma carta de 10) são o **21 com duas cartas**.

Na hora da **chamada**, a banca compara os pontos com os do jogador: quem tem **mais** ganha.
**Empate é da banca.**
""", """
# 21: what is the hand worth?

In 21 (vinte-e-um) every card is worth points:

- **2 to 10**: their own number;
- **K, Q and J** are worth **10**;
- the **ace** is worth **1** or **11**, as the table agrees before the game. Some tables use the
  **flexible** ace (a house rule): 11 when that does not go over 21, else 1.

Going over 21 is a **bust** ("estourei!"): the bet is lost at once. Two cards making 21
(an ace worth 11 and a ten-card) are the **two-card 21**.

When the banker **calls** a player, the points are compared: **more** points win.
**A tie goes to the bank.**
"""),
    ("text", """
## Experimente

Escolha cartas e dê ao jogador ou à banca. A tabela mostra o total com o ás valendo 1, 11 ou
flexível. Escolha o valor do ás na mesa e veja quem ganha a aposta. No fim, os exercícios.
""", """
## Try it

Pick cards and give them to the player or to the banker. The table shows the total with the
ace worth 1, 11 or flexible. Choose the table's ace and see who wins the bet. Exercises follow.
"""),
    widget("vinte_e_um_pontos", "HandScorer"),
    ("checks", *CHECKS),
    ("check", """
from cartas.vinte_e_um import points, is_two_card_21
[points(['A♠', '7♥'], ace) for ace in (1, 11, 'flexible')]
""", "[8, 18, 18]"),
    ("check", """
is_two_card_21(['A♠', 'K♥'], ace=11), is_two_card_21(['A♠', 'K♥'], ace=1)
""", "(True, False)"),
]

LESSONS["vinte_e_um_rodada"] = [
    ("page",),
    ("text", """
# 21: a rodada passo a passo

Uma rodada de 21, como manda a regra:

1. A **banca** embaralha e dá uma **carta fechada** a cada jogador e a si mesma, começando pela
   sua esquerda. Ninguém mostra a sua.
2. Cada jogador **aposta** (de 1 a 5 fichas) olhando só essa carta.
3. A banca vira a **segunda carta aberta**. Se as duas somam **21**, ela mostra e leva todas as
   apostas.
4. Senão, cada jogador recebe a segunda carta aberta e **pede** mais ou **para**. Quem passa de
   21 **estoura**, mostra tudo e perde a aposta na hora.
5. No fim, a banca pode comprar e **chama** os jogadores um a um: quem tem mais pontos ganha
   (empate é da banca). Se a banca estourar, paga **só quem ainda não foi chamado**.

Avance, volte ou recomece; mude a semente para ver outra rodada. O painel de chances mostra,
a cada decisão, as probabilidades exatas calculadas só com as cartas que aquele jogador vê.
""", """
# 21: a round step by step

A round of 21, as the rules say:

1. The **banker** shuffles and deals one **face-down card** to every player and to himself,
   starting on his left. Nobody shows theirs.
2. Each player **bets** (1 to 5 chips) looking at that card only.
3. The banker turns up his **second card**. If his two cards make **21**, he shows them and
   takes every bet.
4. Otherwise each player gets a face-up second card and **hits** or **stands**. Going over 21
   is a **bust**: that player shows everything and loses the bet at once.
5. Finally the banker may draw and **calls** the players one by one: more points win (a tie
   goes to the bank). If the banker busts, he pays **only the players not yet called**.

Step forward, back or start again; change the seed to see another round. At every decision
the odds panel shows the exact probabilities, from the cards that player can see.
"""),
    widget("vinte_e_um_rodada", "RoundStepper"),
    ("checks", *CHECKS),
    ("check", """
from cartas.vinte_e_um import bust_probability
round(bust_probability(['10♠', '6♥']), 4)
""", "0.6"),
]

LESSONS["vinte_e_um_banca"] = [
    ("page",),
    ("text", """
# 21: quem fica com a banca

A banca ganha os empates e o 21 com duas cartas, por isso todos querem ser banqueiro. Antes do
jogo, a mesa escolhe **um** modo de passar a banca:

1. **Rodízio**: depois de um número combinado de rodadas, a banca é oferecida ao jogador à
   esquerda do banqueiro e depois aos outros; se todos recusarem, ela é sorteada.
2. **21 com duas cartas**: quem faz 21 com as duas primeiras cartas (ás valendo 11) toma a banca.
3. **Leilão**: depois de cada rodada, o maior lance em fichas, pago ao banqueiro, leva a banca.
4. **Venda**: um jogador oferece fichas e o banqueiro aceita ou não.

Escolha um modo e veja um exemplo jogado pelo motor. No fim, os exercícios perguntam quem fica
com a banca em cada situação.
""", """
# 21: who holds the bank

The bank wins ties and the two-card 21, so everyone wants to be the banker. Before the game
the table chooses **one** way to pass the bank on:

1. **Rotation**: after an agreed number of rounds the bank is offered to the player on the
   banker's left, then to the others; if everyone refuses, it is drawn by lot.
2. **Two-card 21**: whoever makes 21 with their first two cards (ace worth 11) takes the bank.
3. **Auction**: after each round the highest bid in chips, paid to the banker, takes the bank.
4. **Sale**: a player offers chips and the banker accepts or not.

Choose a mode and watch an example played by the engine. At the end, the exercises ask who
holds the bank in each situation.
"""),
    widget("vinte_e_um_banca", "BankRotation"),
    ("checks", *CHECKS),
    ("check", """
from cartas.vinte_e_um import ROTATIONS
ROTATIONS
""", "('rounds', 'natural', 'auction', 'sale', 'permanent')"),
]

LESSONS["jogar_21"] = [
    ("page",),
    ("text", """
# Jogar 21

Jogue o 21 de banca com fichas contra robôs. Você é o **assento 0**: escolha se joga como
**jogador** ou como **banca**, quantos participantes e o **rodízio da banca**, e clique em
**Jogar de novo** para começar com essas escolhas. Acima da mesa está a regra do ás e quantas
rodadas faltam. A aposta se digita no campo de fichas; as outras jogadas permitidas aparecem
como botões, e o registro conta tudo o que acontece na mesa. A **Dica** diz se vale pedir ou
parar (ou, na banca, comprar ou chamar) pelas chances exatas, e a **Revisão** lista as suas
decisões que foram contra a dica.
""", """
# Play 21

Play the banker game of 21 with chips against bots. You are **player 0**: choose to play as a
**player** or as the **banker**, how many take part and how the **bank rotates**, then click
**Play again** to start with those choices. Above the table: the ace rule and how many rounds
are left. You type your bet in the chips field; the other allowed moves are buttons, and the
log tells everything that happens at the table. **Hint** says whether to hit or stand (or, as
the banker, draw or call) from the exact odds, and **Review** lists your decisions that went
against the hint.
"""),
    widget("jogar_21", "PlayVinteEUm"),
    ("checks", *CHECKS),
    ("check", """
from cartas.vinte_e_um import play_game
sum(play_game(4, seed=3).chips)
""", "80"),
]

LESSONS["cenarios"] = [
    ("page",),
    ("text", """
# Cenários

Professor: monte uma situação de jogo (as mãos de cada assento, a vira, o placar e quem dá as
cartas; ou uma mesa de 21), clique em **Criar cenário** e compartilhe o **link**: copie-o com o
botão **Copiar link** ou projete o **código QR** para os alunos abrirem no celular. Também há o
arquivo **JSON**. As cartas se escrevem separadas por espaço ou vírgula: `7♥ A♠ 3♦` ou
`7♥, A♠, 3♦`.

Quem abre o link vê o cenário, não o construtor, pronto para ver **passo a passo** ou para
**jogar a partir daqui**, do passo que está na tela. O botão **Editar** mostra o construtor de
novo. Um cenário mal formado, impossível (uma carta repetida, manilhas que a vira contradiz, um
placar de 13) ou alterado é recusado com uma mensagem clara, e nada muda.
""", """
# Scenarios

Teachers: set up a game position (each seat's hand, the vira, the score and the dealer; or a
21 table), click **Make scenario** and share the **link**: copy it with **Copy link** or project
the **QR code** for the learners to open on their phones. There is also the **JSON** file. Cards
are written separated by spaces or commas: `7♥ A♠ 3♦` or `7♥, A♠, 3♦`.

Whoever opens the link sees the scenario, not the builder, ready to step through or to **play
from here**, from the step on screen. The **Edit** button shows the builder again. A malformed,
impossible (a card dealt twice, manilhas the vira contradicts, a score of 13) or tampered
scenario is refused with a clear message, and nothing changes.
"""),
    widget("cenarios", "ScenarioBuilder"),
    ("checks", *CHECKS),
    ("check", """
from cartas.scenario import decode_link, encode_link, truco_scenario
hands = [["7♥", "A♠", "3♦"], ["4♣", "5♣", "6♣"], ["K♥", "J♥", "Q♥"], ["2♠", "3♠", "4♠"]]
s = truco_scenario("paulista", hands, vira="K♠", dealer=3, score=(11, 4))
decode_link(encode_link(s)) == s
""", "True"),
    ("check", """
from cartas.scenario import ScenarioError
try:
    truco_scenario("paulista", [["7♥", "A♠", "4♣"]] + hands[1:], vira="K♠")
except ScenarioError as error:
    message = error.message("pt")
message
""", "'4♣ foi distribuída duas vezes: as 12 cartas devem ser diferentes.'"),
]

LESSONS["turma"] = [
    ("page",),
    ("text", """
# A turma

Para o professor: crie uma turma e passe o **código** aos alunos (eles o digitam no índice,
junto com o nome). A **chave do professor** aparece uma vez só: anote-a. Com o código e a chave
você abre a tabela da turma, que se atualiza sozinha enquanto esta página está aberta. O código
sozinho, que todos os alunos têm, não abre a tabela. Você pode baixar a tabela em CSV, imprimir
os cartões de acesso (nome, código e QR de cada aluno, para entrar em outro aparelho), dar a um
aluno um PIN novo, juntar dois alunos que são a mesma pessoa e remover um aluno.

Na tabela, **Lições começadas** são as lições em que o aluno já respondeu alguma pergunta, e
**Lições feitas** aquelas em que ele já acertou pelo menos 5 perguntas. Marque **lembrar neste
aparelho** ao abrir a turma e ela abre sozinha neste navegador da próxima vez (o navegador
guarda uma ficha do aparelho, nunca a chave). **Esquecer neste aparelho** apaga essa ficha;
**Esquecer todos os aparelhos**, com a chave, vale também para um aparelho perdido ou roubado.
""", """
# The class

For the teacher: create a class and give its **code** to the learners (they type it on the
index, with their name). The **teacher key** is shown once only: write it down. With the code
and the key you open the class table, which refreshes by itself while this page is open. The
code alone, which every learner has, does not open the table. You can download the table as
CSV, print login cards (each learner's name, code and QR code, to sign in on another device),
give a learner a new PIN, merge two learners who are the same person and remove a learner.

In the table, **Lessons started** are the lessons in which the learner has answered a question,
and **Lessons done** those in which they have at least 5 right answers. Tick **remember on this
device** when you open the class and it opens by itself in this browser next time (the browser
keeps a device token, never the key). **Forget on this device** deletes that token; **Forget
every device**, with the key, also covers a lost or stolen device.
"""),
    widget("turma", "ClassView"),
    ("checks", *CHECKS),
    ("check", """
from classroom.identity import clean_name
clean_name("  Ana\\x07 Souza  "), len(clean_name("x" * 60))
""", "('Ana Souza', 40)"),
]

LESSONS["mesa"] = [
    ("page",),
    ("text", """
# Mesas: jogar com a turma

Crie uma mesa de **Truco Paulista**, **Truco Mineiro** ou **21** e passe o **código** (ou o link)
aos colegas. Cada um escolhe um assento; quem criou a mesa começa o jogo quando todos estiverem
sentados. Os assentos vazios são jogados pelos robôs. No truco, os assentos 0 e 2 formam a dupla A,
e 1 e 3 a dupla B; no 21, quem cria a mesa escolhe os assentos (3 a 12), o valor do ás, os
baralhos, as apostas e o modo da banca. Cada navegador só vê as cartas do seu assento; a narração e
o **porquê** de cada rodada aparecem para todos. Quem sai da página por mais tempo que o limite
da mesa (60 s, se ninguém mudar) é substituído por um robô e pode voltar ao assento.
""", """
# Tables: play with your class

Create a **Truco Paulista**, **Truco Mineiro** or **21** table and give your classmates its
**code** (or link). Everyone picks a seat; the creator starts the game when everyone is seated.
Empty seats are played by the bots. In truco, seats 0 and 2 are team A, 1 and 3 team B; at 21 the
creator chooses the seats (3 to 12), the ace's value, the packs, the bets and the bank mode. Each
browser sees only its own seat's cards; the narration and the **why** of every trick are shown to
everyone. Whoever leaves the page for longer than the table's limit (60 s unless changed) is
replaced by a bot and can take the seat back.
"""),
    widget("mesa", "Mesa"),
    ("checks", *CHECKS),
    ("check", """
from classroom.tables import clean_code, table_link
table_link(clean_code("ab-cde"))
""", "'mesa.ipynb?mesa=ABCDE'"),
]

LESSONS["tarefa"] = [
    ("page",),
    ("text", """
# Tarefa

A tarefa que o professor passou para a sua turma: cada item com o que falta. As lições abrem
pelo link; nos cenários, escolha o que você jogaria e veja o porquê do treinador; as partidas
contra os robôs se jogam aqui mesmo. Só a primeira resposta de cada item conta.
""", """
# Homework

The homework your teacher gave your class: each item with what is left. Lessons open from their
link; in the scenarios, choose what you would play and read the coach's why; games against the
bots are played right here. Only your first answer to each item counts.
"""),
    widget("tarefa", "Homework"),
    ("checks", *CHECKS),
    ("check", """
from classroom.homework import clean_id
clean_id(" abcdefgh ")
""", "'ABCDEFGH'"),
]

LESSONS["revisao"] = [
    ("page",),
    ("text", """
# Revisão do dia

Perguntas das habilidades que estão na hora de revisar, misturadas. Cada habilidade fica numa
caixa de 1 a 5: errou, volta para a caixa 1 e aparece de novo hoje; acertou, sobe uma caixa e
volta depois de 1, 3, 7 ou 14 dias.
""", """
# Today's review

Questions from the skills that are due for review, mixed. Each skill sits in a box from 1 to 5:
a wrong answer puts it back in box 1 and it comes back today; a right one moves it up a box and
it comes back after 1, 3, 7 or 14 days.
"""),
    widget("revisao", "Review"),
    ("checks", *CHECKS),
    ("check", """
from classroom.mastery import box, level
level([True] * 5), box([True, True, False])
""", "('mastered', 3)"),
]


LESSONS["aula"] = [
    ("page",),
    ("text", """
# Aula ao vivo: o projetor

Para o professor, na frente da sala: abra a turma com o código e a **chave do professor** e comece
a aula. O projetor mostra um **código** e um **QR**: os alunos entram pelo celular. Escolha a
próxima pergunta: uma lição (a pergunta sai do sorteio da própria lição, com uma semente) ou o
link de um cenário de truco ("o que você jogaria aqui?", com a resposta do treinador). Enquanto a
pergunta está aberta, o projetor conta as respostas que chegam; quando o tempo acaba, mostra o
histograma, a resposta certa com o porquê e o placar. Certo vale 500 pontos, mais até 500 pela
rapidez, mais 100 por acerto seguido (até 500).
""", """
# Live class quiz: the projector

For the teacher, at the front of the room: open the class with its code and the **teacher key**
and start the session. The projector shows a **code** and a **QR code**: learners join on their
phones. Pick the next question: a lesson (the question comes from the lesson's own draw, with a
seed) or a truco scenario's link ("what would you play here?", answered by the coach). While the
question is open, the projector counts the answers arriving; when time is up, it shows the
histogram, the right answer with its reason, and the leaderboard. Right scores 500 points, plus up
to 500 for speed, plus 100 per right answer in a row (at most 500).
"""),
    widget("aula", "LiveProjector"),
    ("checks", *CHECKS),
    ("check", """
from classroom.live import points_for
points_for(True, 0, 20, 0), points_for(True, 10, 20, 2), points_for(False, 1, 20, 3)
""", "(1000, 950, 0)"),
]

LESSONS["aula_aluno"] = [
    ("page",),
    ("text", """
# Aula ao vivo

Digite o código que aparece no projetor (ou aponte a câmera para o QR) e responda no seu celular
antes que o tempo acabe. Só a primeira resposta vale.
""", """
# Live class quiz

Type the code shown on the projector (or point your camera at the QR code) and answer on your
phone before time runs out. Only your first answer counts.
"""),
    widget("aula_aluno", "LivePhone"),
    ("checks", *CHECKS),
    ("check", """
from classroom.live import clean_code
clean_code("ab-23")
""", "'AB23'"),
]


LESSONS["verificacao"] = [
    ("page",),
    ("text", """
# Verificação antes e depois

Para o professor: abra a turma, marque as habilidades e abra uma verificação curta (8 a 12
perguntas). Os alunos fazem a fase **antes** pelo celular, antes da unidade; depois da unidade,
abra a fase **depois** (os mesmos tipos de pergunta, outras cartas). Veja, por habilidade e para a
turma, a média antes e depois, o ganho normalizado e os equívocos que sumiram e os que ficaram.
""", """
# Check before and after

For the teacher: open the class, tick the skills and open a short check (8 to 12 questions).
Learners take the **before** phase on their phones, before the unit; after the unit, open the
**after** phase (the same kinds of question, other cards). See, per skill and for the class, the
mean before and after, the normalized gain, and the misconceptions that vanished and those that
stayed.
"""),
    widget("verificacao", "CheckTeacher"),
    ("checks", *CHECKS),
    ("check", """
from classroom.checks import gain
gain(0.5, 0.75), gain(1.0, 1.0)
""", "(0.5, None)"),
]

LESSONS["verificacao_aluno"] = [
    ("page",),
    ("text", """
# Verificação

Responda às perguntas da verificação que o professor abriu. Ela não diz se você acertou: responda
como achar certo. Cada fase (antes e depois) vale uma vez.
""", """
# Check

Answer the questions of the check your teacher opened. It does not say whether you are right:
answer as you think right. Each phase (before and after) counts once.
"""),
    widget("verificacao_aluno", "CheckPhone"),
    ("checks", *CHECKS),
    ("check", """
from classroom.checks import clean_phase
clean_phase("after")
""", "'after'"),
]

LESSONS["torneio"] = [
    ("page",),
    ("text", """
# Torneio da turma

Para o professor: abra a turma, escolha o jogo e o formato (suíço ou rodízio), quem joga (em duplas
ou mano a mano) e a duração das partidas, e abra o torneio. Os alunos abrem o link (ou o QR code)
no celular; inscreva os presentes e comece a rodada: o torneio forma os pares, abre as mesas e cada
aluno senta na sua com um toque. Os resultados entram sozinhos quando as partidas terminam; a
classificação segue os desempates escritos abaixo dela. Use o **modo projetor** para a turma ver as
mesas e a classificação.
""", """
# Class tournament

For the teacher: open the class, choose the game and the format (Swiss or round robin), who plays
(in pairs or one against one) and the length of a game, and open the tournament. Learners open the
link (or the QR code) on their phones; enrol those present and start the round: the tournament
pairs them, opens the tables and each learner sits at hers with one tap. Results come in by
themselves as the games end; the standings follow the tie-breaks written under them. Use
**projector mode** for the class to see the tables and the standings.
"""),
    widget("torneio", "TournamentTeacher"),
    ("checks", *CHECKS),
    ("check", """
from cartas.tournament import round_robin
len(round_robin(["a", "b", "c", "d"]))
""", "3"),
]

LESSONS["torneio_aluno"] = [
    ("page",),
    ("text", """
# Torneio

Deixe esta página aberta: o professor inscreve quem está nela. Quando a rodada começar, aparece a
sua mesa com um botão para sentar. Entre as partidas, veja a classificação.
""", """
# Tournament

Keep this page open: the teacher enrols whoever is on it. When the round starts, your table shows
with a button to sit. Between games, see the standings.
"""),
    widget("torneio_aluno", "TournamentPhone"),
    ("checks", *CHECKS),
    ("check", """
from widgets.components.params import tournament_code
tournament_code("torneio", "abc234").value
""", "'ABC234'"),
]

# The course index (notebooks/index.ipynb): not a lesson, but written here the same way.
INDEX = [
    ("page",),
    ("text", """
# Cartas: aprenda truco e 21

**Truco Paulista**, **Truco Mineiro** e **21** (vinte-e-um), passo a passo: cada lição abre como um
painel interativo, no idioma escolhido no alto da página. Digite seu nome para o navegador se
lembrar de você (numa turma, com o código da turma e um PIN).
""", """
# Cartas: learn truco and 21

**Truco Paulista**, **Truco Mineiro** and **21** (vinte-e-um), step by step: each lesson opens as an
interactive dashboard, in the language chosen at the top of the page. Type your name for the
browser to remember you (in a class, with the class code and a PIN).
"""),
    ("code", "from widgets.pages.index import CourseIndex\n\nCourseIndex()"),
]


def main() -> None:
    for name, cells in LESSONS.items():
        make_notebook(NOTEBOOKS / f"{name}.ipynb", cells)
        print(f"wrote notebooks/{name}.ipynb")
    make_notebook(NOTEBOOKS / "index.ipynb", INDEX)
    print("wrote notebooks/index.ipynb")


if __name__ == "__main__":
    main()
