"""The 21 lessons' question kinds (see `cartas.questions`), each wrong choice named by the
misreading of a rule that gives it (as in `cartas.questions.truco`: a kind's readings, a
misconception's key with what a learner holding it would answer; none that gives a choice
makes it a `SLIP`).

The lessons' examples are made here too, so that a page and its questions play the same
round: `bots_for` and `first_decision` (a round of careful bots, vinte_e_um_rodada),
`rotation_example` and `rotation_question` (a change of bank, vinte_e_um_banca).

Every sentence is in `cartas.vinte_e_um.catalogue` (`q_*`, `c_*`, `r_*`, `mis_*`).
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from html import escape
from typing import TYPE_CHECKING

from ..cards import STANDARD_PACK, Card, Rank
from ..vinte_e_um.actions import DRAW, HIT, PASS, Action
from ..vinte_e_um.catalogue import CATALOGUE
from ..vinte_e_um.narration import explain_call, narrate, rotation_label
from ..vinte_e_um.scoring import ACE_OPTIONS, call_reason, card_value, judge_call, playable, points
from ..vinte_e_um.state import VinteEUmState, from_deal, new_game
from .kinds import Question, QuestionKind, Reading, Text, choices, each, same, say

if TYPE_CHECKING:
    import numpy as np

    from ..contract import Bot



def percent(fraction: float, lang: str) -> str:
    """0.676 -> "67,6%" (pt) or "67.6%" (en)."""
    text = f"{100 * fraction:.1f}%"
    return text.replace(".", ",") if lang == "pt" else text


def ace_label(ace: int | str) -> Text:
    """The ace option as a sentence says it ("11", "flexível (regra da casa)")."""
    return say(CATALOGUE, "c_flexible") if ace == "flexible" else same(str(ace))


def _draw(rng: np.random.Generator, count: int, avoid: Sequence[Card] = ()) -> list[Card]:
    pool = [c for c in STANDARD_PACK if c not in avoid]
    return [pool[i] for i in rng.choice(len(pool), size=count, replace=False)]


# -- vinte_e_um_pontos ---------------------------------------------------------------------------
_FACE_EXTRA = {Rank.JACK: 1, Rank.QUEEN: 2, Rank.KING: 3}  # J, Q, K counted 11, 12, 13


def worth_question(rng: np.random.Generator, _variant: str = "") -> Question:
    """"With the ace counting x, what is this hand worth?": its total, among its totals under
    the other ace options and five totals in a row around it (the right one anywhere among
    them). A hand as it can be dealt: no card after it reached 21 or went over (`playable`).
    It may be answered by typing a total (`typed_total`): one outside the choices is judged by
    the same readings (the face cards counted by rank may give a total no choice shows)."""
    ace = ACE_OPTIONS[int(rng.integers(len(ACE_OPTIONS)))]
    hand = playable(_draw(rng, int(rng.integers(2, 4))), ace)
    right = points(hand, ace)
    low = right - int(rng.integers(5))
    totals = {points(hand, a) for a in ACE_OPTIONS} | set(range(low, low + 5))
    shown = " ".join(str(c) for c in hand)
    by_rank = right + sum(_FACE_EXTRA.get(c.rank, 0) for c in hand)
    readings: list[Reading] = [("ace_always_11", lambda v: v == points(hand, 11)),
                               ("ace_always_1", lambda v: v == points(hand, 1)),
                               ("face_cards_by_rank", lambda v: v == by_rank)]
    options = [(n, same(str(n))) for n in sorted(t for t in totals if t > 0)]
    prompt = say(CATALOGUE, "q_worth", ace=ace_label(ace)).map(lambda text: f"{escape(text)} {escape(shown)}")
    return Question("vinte_e_um_pontos.worth", "score_21_hand", prompt, choices(options, right, readings), right,
                    say(CATALOGUE, "r_worth", points=right).map(escape), key=("worth", ace, shown),
                    facts={"hand": hand, "ace": ace}, typed=typed_total, readings=tuple(readings))


TYPED_TOTAL = re.compile(r"0|[1-9][0-9]{0,2}")  # a total as typed and stored: 0 to 999, no leading zero


def typed_total(text: str) -> int | None:
    """The total a typed text answers ("17" -> 17), None for anything else: the lesson asks a
    hand's worth in a field (widgets.pages.vinte_e_um_pontos), so any whole number answers."""
    return int(text) if isinstance(text, str) and TYPED_TOTAL.fullmatch(text) else None


def call_question(rng: np.random.Generator, _variant: str = "") -> Question:
    """"The banker calls the player (ace counts 1): who wins?" (the engine's `judge_call`)."""
    hand = _draw(rng, 2)
    banker = _draw(rng, int(rng.integers(2, 4)), avoid=hand)
    player_used, banker_used, winner = judge_call(hand, banker, 1)
    reason = call_reason(player_used, banker_used, 1)
    mine, theirs, first_two = points(player_used, 1), points(banker_used, 1), points(banker_used[:2], 1)
    readings: list[Reading] = [
        ("tie_goes_to_player", lambda v: reason == "tie" and v == "player"),
        ("bust_still_counts", lambda v: reason == "banker_bust" and v == "banker" and theirs > mine),
        ("counts_first_two_cards", lambda v: len(banker_used) > 2
         and v == ("player" if mine > first_two else "banker"))]
    cards = say(CATALOGUE, "q_call_hands", player=" ".join(map(str, hand)), banker=" ".join(map(str, banker)),
                player_seat=say(CATALOGUE, "c_player_seat"), banker_seat=say(CATALOGUE, "c_banker_seat"))
    asked = say(CATALOGUE, "q_call", ace=1)
    prompt = Text(*(escape(f"{asked[lang]} {cards[lang]}") for lang in ("pt", "en")))
    options = [("player", say(CATALOGUE, "c_player")), ("banker", say(CATALOGUE, "c_banker"))]
    return Question("vinte_e_um_pontos.call", "who_wins_21_call", prompt, choices(options, winner, readings),
                    winner, each(lambda lang: escape(explain_call(player_used, banker_used, 1, lang))),
                    key=("call", cards.en), facts={"player": hand, "banker": banker, "ace": 1})


# -- vinte_e_um_rodada ---------------------------------------------------------------------------
# kind -> (the phase it is asked in, the choice to weigh)
ASKED: dict[str, tuple[str, Action]] = {"banker": ("banker", DRAW), "player": ("players", HIT)}


def bots_for(players: int, seed: int) -> list[Bot]:
    """One SensibleBot per seat, seeded from the round's seed."""
    import numpy as np

    from ..vinte_e_um.bots import SensibleBot

    return [SensibleBot(np.random.default_rng(s)) for s in np.random.SeedSequence(seed).spawn(players)]


def first_decision(players: int, seed: int, phase: str, choice: Action) -> VinteEUmState | None:
    """The first state of a round of `players` careful bots (seeded) in `phase` where `choice`
    is legal, or None: the round played only that far."""
    state = new_game(players, seed=seed, rounds=1, rotation="permanent")
    bots = bots_for(players, seed)
    while not state.is_terminal():
        if state.phase == phase and choice in state.legal_actions():
            return state
        seat = state.current_seat
        assert seat is not None  # a round that is not over has a seat to act
        state.apply_action(bots[seat].choose(state.view(seat)), seat)
    return None


def decision_question(kind: str, state: VinteEUmState) -> Question:
    """The question of `kind` ("banker": draw or call?, "player": hit or stand?) about the
    decision `state` is at; the answer is the careful bot's, the reason its bust odds."""
    from ..vinte_e_um.bots import SensibleBot
    from ..vinte_e_um.odds import bust_for_view

    seat = state.banker if kind == "banker" else state.current_seat
    assert seat is not None  # a decision: someone decides
    view = state.view(seat)
    take = SensibleBot().choose(view) in (DRAW, HIT)
    risk = bust_for_view(view)
    labels = ("c_draw", "c_call") if kind == "banker" else ("c_hit", "c_stand")
    reason = {("banker", True): "r_draw", ("banker", False): "r_call",
              ("player", True): "r_hit", ("player", False): "r_stand"}[kind, take]
    if kind == "banker":
        waiting = ", ".join(str(s) for s in state.uncalled)
        prompt = say(CATALOGUE, "q_banker_decides", banker=seat, points=state.points(seat), waiting=waiting)
    else:
        prompt = say(CATALOGUE, "q_player_decides", seat=seat, points=state.points(seat),
                     upcard=state.hands[state.banker][1])
    readings: list[Reading] = [("ignores_bust_risk", lambda v: v is True), ("stops_too_soon", lambda v: v is False)]
    options = [(True, say(CATALOGUE, labels[0])), (False, say(CATALOGUE, labels[1]))]
    return Question(f"vinte_e_um_rodada.{kind}", "hit_or_stand", prompt.map(escape),
                    choices(options, take, readings), take,
                    each(lambda lang: escape(CATALOGUE.template(reason, lang).format(p=percent(risk, lang)))),
                    key=(kind, str(state.hands), seat), facts={"kind": kind, "view": view})


def _decision(kind: str) -> Callable[[np.random.Generator, str], Question]:
    def make(rng: np.random.Generator, _variant: str = "") -> Question:
        state = None
        while state is None:
            state = first_decision(4, int(rng.integers(1_000_000)), *ASKED[kind])
        return decision_question(kind, state)
    return make


# -- vinte_e_um_banca ---------------------------------------------------------------------------
MODES = ("rounds", "natural", "auction", "sale")
SEATS = 4
PRICES = 7  # the price question offers 0..6 chips (more if the price is higher)
MOST_CHOICES = 12  # classroom.live.MAX_OPTIONS
# The decisive event a question leaves out of its story, and how the question says it instead.
HINTS = {"take_bank": "q_hint_take", "accept_offer": "q_hint_accept"}
HINT_OF_MODE = {"rounds": "q_hint_take", "sale": "q_hint_accept"}
MAX_STEPS = 2_000  # actions an example may take to reach a change of bank
_TRIES = 32  # hands `_hand_of` draws at a time
# Scripted answers about the bank, tried in order; an answer the engine refuses becomes "pass".
SCRIPTS = {
    "rounds": ["refuse_bank", "take_bank"],
    "auction": ["bid 2", "bid 3", "pass", "pass"],
    "sale": ["offer 2", "refuse_offer", "offer 4", "accept_offer"],
}
Rotation = tuple[str, VinteEUmState, list[dict[str, object]], dict[str, object]]


def rotation_example(mode: str, seed: int = 3, script: Sequence[str] | None = None,
                     natural_seat: int = 1) -> tuple[VinteEUmState, list[dict[str, object]]]:
    """Play until the bank changes hands in `mode`; returns (state, the engine's story of the
    change: `state.bank_story()`, ending with the bank_change event).

    script: the answers about the bank, tried in order (default SCRIPTS[mode]);
    natural_seat: in "natural" mode, the seat (1..3) dealt the ace and then a king.
    """
    if mode == "natural":
        # seats before it get 20 (they stand: their turn takes no card off `then`), after it 9 and 5
        before, after = iter(["K♦", "J♦"]), iter(["9♦", "5♣"])
        first = {s: "A♠" if s == natural_seat else next(before if s < natural_seat else after)
                 for s in range(1, SEATS)}
        fillers = ["Q♣", "10♣"][:natural_seat - 1]
        state = from_deal(SEATS, {**first, 0: "10♦"}, upcard="6♠", then=fillers + ["K♥"],
                          banker=0, rotation="natural", seed=seed)  # the engine's ace: 11
    else:
        state = new_game(SEATS, seed=seed, banker=0, rotation=mode, rotation_rounds=2)
    bots = bots_for(SEATS, seed)
    answers = list(SCRIPTS.get(mode, []) if script is None else script)
    story: list[dict[str, object]] = []
    # the engine's bank_change events: its story is asked for once one has come
    changes = sum(e["type"] == "bank_change" for e in state.events)
    for _ in range(MAX_STEPS):
        if changes:
            story = [dict(e) for e in state.bank_story()]  # the engine says where the story of the change starts
            break
        if state.is_terminal():
            break
        seat = state.current_seat
        choice: object
        if state.phase == "rotation":
            choice = answers.pop(0) if answers else PASS
            if state.illegal(choice) is not None:
                choice = PASS
        else:
            assert seat is not None  # a game that is not over has a seat to act
            choice = bots[seat].choose(state.view(seat))
        changes += sum(e["type"] == "bank_change" for e in state.apply_action(choice, seat))
    if not story:
        raise RuntimeError(f"no change of bank in the example for {mode!r}")
    return state, story


def rotation_question(rng: np.random.Generator) -> Rotation:
    """A seeded variation of one mode's example: (mode, state, story events, bank_change).

    The story stops before the bank changes hands, and before the decision that gives it away
    (a player taking the offered bank, the banker accepting an offer): the question then says
    that decision without naming the seat (HINTS). The engine's bank_change is the answer.
    """
    mode = MODES[int(rng.integers(len(MODES)))]
    seed, script, seat = int(rng.integers(10_000)), None, 1
    if mode == "rounds":
        script = ["refuse_bank"] * int(rng.integers(3)) + ["take_bank"]
    elif mode == "auction":
        script, bid = [], 0
        for _ in range(int(rng.integers(1, 4))):
            if rng.random() < 0.3:
                script.append("pass")
            bid += int(rng.integers(1, 3))
            script.append(f"bid {bid}")
    elif mode == "sale":
        script = []
        for _ in range(int(rng.integers(3))):
            script += ["pass"] if rng.random() < 0.5 else [f"offer {int(rng.integers(1, 4))}", "refuse_offer"]
        script += [f"offer {int(rng.integers(2, 6))}", "accept_offer"]
    else:
        seat = int(rng.integers(1, SEATS))
    state, events = rotation_example(mode, seed, script, seat)
    cut = len(events) - 1
    for k in range(cut - 1, -1, -1):
        if events[k]["type"] in HINTS:
            cut = k
            break
    return mode, state, events[:cut], events[-1]


def chips(n: int) -> Text:
    return say(CATALOGUE, "c_one_chip") if n == 1 else say(CATALOGUE, "c_chips", n=n)


def bank_question(kind: str, rotation: Rotation) -> Question:
    """The question of `kind` ("seat": who holds the bank now?, "price": how many chips does
    the new banker pay?) about a `rotation_question`'s change of bank."""
    mode, state, story, change = rotation
    hint = say(CATALOGUE, HINT_OF_MODE[mode]).map(lambda text: " " + text) if mode in HINT_OF_MODE else same("")
    lines = each(lambda lang: " ".join(narrate(e, lang) for e in story
                                       if e["type"] not in ("round_start", "deal")))
    asked = say(CATALOGUE, "q_bank_seat" if kind == "seat" else "q_bank_price",
                mode=each(lambda lang: rotation_label(mode, lang)), banker=change["from"], hint=hint)
    prompt = Text(*(f"{escape(asked[lang])}<div style='font-size:15px'>{escape(lines[lang])}</div>"
                    for lang in ("pt", "en")))
    told = each(lambda lang: narrate(change, lang))
    before = change["from"]
    if kind == "seat":
        right: int = change["to"]  # type: ignore[assignment]  # a bank_change names seats
        options = [(s, say(CATALOGUE, "c_seat", seat=s)) for s in range(SEATS)]
        after = (before + 1) % SEATS if isinstance(before, int) else None
        readings: list[Reading] = [("bank_stays", lambda v: v == before), ("bank_to_next_seat", lambda v: v == after)]
        reason = told.map(escape)
    else:
        right = change["price"]  # type: ignore[assignment]  # a bank_change says its price
        top = min(max(PRICES - 1, right), MOST_CHOICES - 1)
        options = [(n, chips(n)) for n in range(max(0, right - MOST_CHOICES + 1), top + 1)]
        offers = [e["amount"] for e in story if e["type"] in ("bid", "offer")]
        readings = [("bank_is_free", lambda v: v == 0),
                    ("price_is_first_offer", lambda v: bool(offers) and v == offers[0])]
        paid = say(CATALOGUE, "r_paid", chips=chips(right))
        reason = Text(*(escape(f"{paid[lang]} {told[lang]}") for lang in ("pt", "en")))
    return Question(f"vinte_e_um_banca.{kind}", "pass_the_bank", prompt, choices(options, right, readings), right,
                    reason, key=(kind, mode, change["from"], change["to"], change.get("price"), len(story)),
                    facts={"kind": kind, "state": state})


def _hand_of(rng: np.random.Generator, pack: list[Card], wanted: str) -> list[Card]:
    """Cards off `pack` (taken from it) for a hand at the end of a round, the ace worth 11:
    "natural" (21 with the first two), "three" (21 with three, the first two under 21) or
    "short" (two or three cards under 21). Drawn by rejection, `_TRIES` hands of distinct
    cards at a time (a natural comes about once in twenty draws: one draw of the Generator
    per try cost more than the rest of the question)."""
    import numpy as np  # `rng` is a Generator: numpy is loaded already

    size = 2 if wanted == "natural" else 3 if wanted == "three" else int(rng.integers(2, 4))
    worth = np.array([card_value(c, 11) for c in pack])
    while True:
        picks = np.argsort(rng.random((_TRIES, len(pack))), axis=1)[:, :size]
        values = worth[picks]
        total, first = values.sum(axis=1), values[:, :2].sum(axis=1)
        if wanted == "natural":
            right = total == 21
        elif wanted == "three":
            right = (total == 21) & (first < 21)
        else:
            right = (total < 21) & (first < 21)
        found = np.flatnonzero(right)
        if found.size:
            chosen = [int(i) for i in picks[found[0]]]
            cards = [pack[i] for i in chosen]
            for i in sorted(chosen, reverse=True):
                pack.pop(i)
            return cards


def natural_question(rng: np.random.Generator, _variant: str = "") -> Question:
    """"Natural rotation: at the end of the round seat 1 holds 7 7 7 (21), seat 2 A K (21)...:
    who holds the bank next round?": the first player from the banker's left who made 21 with
    his first two cards (the engine's `natural_seat`, docs/rules.md#21-rotation), the banker
    again when nobody did; a three-card 21 takes nothing (`is_two_card_21`)."""
    banker = 0
    players = [(banker + k) % SEATS for k in range(1, SEATS)]  # from the banker's left
    natural = players[int(rng.integers(len(players)))] if rng.random() < 0.8 else None
    before = players[:players.index(natural)] if natural is not None else players
    three = None
    if before and rng.random() < 0.85:  # mostly a three-card 21 comes first
        three = before[int(rng.integers(len(before)))]
    elif natural is not None:
        three = next((s for s in players if s != natural and rng.random() < 0.5), None)
    pack = list(STANDARD_PACK)
    hands = {s: _hand_of(rng, pack, "natural" if s == natural else "three" if s == three else "short")
             for s in players}
    right = natural if natural is not None else banker
    any_21 = next((s for s in players if points(hands[s], 11) == 21), None)
    readings: list[Reading] = [("two_card_21_is_just_21", lambda v: any_21 is not None and v == any_21),
                               ("bank_stays", lambda v: v == banker),
                               ("bank_to_next_seat", lambda v: v == players[0])]
    told = each(lambda lang: "; ".join(
        CATALOGUE.template("q_seat_hand", lang).format(seat=s, cards=" ".join(map(str, hands[s])),
                                                       points=points(hands[s], 11)) for s in players))
    options = [(s, say(CATALOGUE, "c_seat", seat=s)) for s in range(SEATS)]
    reason = (say(CATALOGUE, "r_bank_natural", seat=natural) if natural is not None
              else say(CATALOGUE, "r_bank_natural_none", seat=banker))
    return Question("vinte_e_um_banca.natural", "pass_the_bank",
                    say(CATALOGUE, "q_bank_natural", banker=banker, hands=told).map(escape),
                    choices(options, right, readings), right, reason.map(escape),
                    key=("natural", tuple(tuple(map(str, hands[s])) for s in players)),
                    facts={"kind": "natural", "banker": banker, "hands": hands})


def _bank(kind: str) -> Callable[[np.random.Generator, str], Question]:
    def make(rng: np.random.Generator, _variant: str = "") -> Question:
        return bank_question(kind, rotation_question(rng))
    return make


# Each misconception, and the lesson whose section states the rule that corrects it.
MISCONCEPTIONS: dict[str, str] = {
    "ace_always_11": "vinte_e_um_pontos", "ace_always_1": "vinte_e_um_pontos",
    "face_cards_by_rank": "vinte_e_um_pontos", "tie_goes_to_player": "vinte_e_um_pontos",
    "bust_still_counts": "vinte_e_um_pontos", "counts_first_two_cards": "vinte_e_um_pontos",
    "ignores_bust_risk": "vinte_e_um_rodada", "stops_too_soon": "vinte_e_um_rodada",
    "bank_stays": "vinte_e_um_banca", "bank_to_next_seat": "vinte_e_um_banca", "bank_is_free": "vinte_e_um_banca",
    "price_is_first_offer": "vinte_e_um_banca", "two_card_21_is_just_21": "vinte_e_um_banca",
}
KINDS = (
    QuestionKind("vinte_e_um_pontos.worth", "vinte_e_um_pontos", "score_21_hand", worth_question,
                 ("ace_always_11", "ace_always_1", "face_cards_by_rank")),
    QuestionKind("vinte_e_um_pontos.call", "vinte_e_um_pontos", "who_wins_21_call", call_question,
                 ("tie_goes_to_player", "bust_still_counts", "counts_first_two_cards")),
    QuestionKind("vinte_e_um_rodada.player", "vinte_e_um_rodada", "hit_or_stand", _decision("player"),
                 ("ignores_bust_risk", "stops_too_soon")),
    QuestionKind("vinte_e_um_rodada.banker", "vinte_e_um_rodada", "hit_or_stand", _decision("banker"),
                 ("ignores_bust_risk", "stops_too_soon")),
    QuestionKind("vinte_e_um_banca.seat", "vinte_e_um_banca", "pass_the_bank", _bank("seat"),
                 ("bank_stays", "bank_to_next_seat")),
    QuestionKind("vinte_e_um_banca.price", "vinte_e_um_banca", "pass_the_bank", _bank("price"),
                 ("bank_is_free", "price_is_first_offer")),
    QuestionKind("vinte_e_um_banca.natural", "vinte_e_um_banca", "pass_the_bank", natural_question,
                 ("two_card_21_is_just_21", "bank_stays", "bank_to_next_seat"), weight=0.5),
)
