"""The 21 banker game: one mutable `GameState` driven by `apply_action`.

Seats are 0..players-1 in play order; "the banker's left" is the next seat up (wrapping).
Every round: first cards face down, bets, the banker's face-up second card (two cards
making 21 take every bet), each player's turn, then the banker draws and calls.
See docs/rules.md#vinte-e-um and the module docstring of `cartas.vinte_e_um`
for the points the sources leave open and how they are settled here.
"""
from __future__ import annotations

import json
from collections import Counter

import numpy as np

from ..cards import STANDARD_PACK, Card, make_rng, shuffled, standard_pack
from .actions import (ACCEPT_OFFER, DRAW, HIT, PASS, REFUSE_BANK, REFUSE_OFFER, STAND,
                      TAKE_BANK, Action, IllegalAction)
from .scoring import call_winner, check_ace, points

ROTATIONS: tuple[str, ...] = ("rounds", "natural", "auction", "sale", "permanent")
DEFAULT_ROTATION = "rounds"
ALL = "all"   # the viewer who sees every card (the teacher); None is a spectator
PHASES: tuple[str, ...] = ("bet", "players", "banker", "rotation", "game_over")
_CARDS = {str(card): card for card in STANDARD_PACK}


def _card(text) -> Card:
    return _CARDS.get(text) or Card.parse(text)


def default_ace(rotation: str = DEFAULT_ROTATION) -> int:
    """The table's ace when none is agreed: 1 (the source's examples), except 11 under the
    "natural" rotation, which needs a two-card 21 (impossible with the ace worth 1)."""
    return 11 if rotation == "natural" else 1


def default_packs(players: int) -> int:
    """Packs on the table when none are agreed: one up to 8 participants, two for 9 to 12."""
    return 1 if players <= 8 else 2


def _check_config(players, ace, decks, min_bet, max_bet, chips, rotation, rotation_rounds, rounds):
    if not isinstance(players, int) or not 3 <= players <= 12:
        raise ValueError(f"21 is played by 3 to 12 participants, banker included, not {players!r}")
    if rotation not in ROTATIONS:
        raise ValueError(f"unknown bank rotation {rotation!r}: choose one of {', '.join(ROTATIONS)}")
    ace = check_ace(default_ace(rotation) if ace is None else ace)
    if decks is None:
        decks = default_packs(players)
    if not isinstance(decks, int) or decks < 1:
        raise ValueError(f"the number of packs must be a whole number of at least 1, not {decks!r}")
    if not (isinstance(min_bet, int) and isinstance(max_bet, int) and 1 <= min_bet <= max_bet):
        raise ValueError(f"bet limits must be whole numbers with 1 <= min_bet <= max_bet, "
                         f"not {min_bet!r} to {max_bet!r}")
    stacks = [chips] * players if isinstance(chips, int) else list(chips)
    if len(stacks) != players or any(not isinstance(c, int) or c < 0 for c in stacks) or sum(stacks) == 0:
        raise ValueError(f"chips must be one whole number >= 0 per seat, not {chips!r}")
    if rotation == "natural" and ace == 1:
        raise ValueError("the 'natural' rotation needs the ace to count 11 (or 'flexible'): "
                         "with the ace worth 1 no two cards make 21 and the bank would never move")
    if not isinstance(rotation_rounds, int) or rotation_rounds < 1:
        raise ValueError(f"rotation_rounds must be a whole number >= 1, not {rotation_rounds!r}")
    if rounds is not None and (not isinstance(rounds, int) or rounds < 1):
        raise ValueError(f"rounds must be a whole number >= 1 or None, not {rounds!r}")
    return dict(players=players, ace=ace, decks=decks, min_bet=min_bet, max_bet=max_bet,
                chips=stacks, rotation=rotation, rotation_rounds=rotation_rounds, rounds=rounds)


class GameState:
    """A whole game of 21. Build it with `new_game`, `from_deal` or `from_json`."""

    def __init__(self, config: dict, rng: np.random.Generator):
        self.config = config
        self.players: int = config["players"]
        self.ace = config["ace"]
        self.decks: int = config["decks"]
        self.min_bet: int = config["min_bet"]
        self.max_bet: int = config["max_bet"]
        self.rotation: str = config["rotation"]
        self.rotation_rounds: int = config["rotation_rounds"]
        self.rounds: int | None = config["rounds"]
        self.total_chips: int = sum(config["chips"])
        self.rng = rng
        self.chips: list[int] = list(config["chips"])
        self.banker = 0
        self.round_number = 0
        self.bank_rounds = 0          # rounds run by the current banker
        self.phase = "bet"
        self.hands: list[list[Card]] = [[] for _ in range(self.players)]
        self.covered: list[bool] = [False] * self.players   # first card still face down
        self.bets: list[int] = [0] * self.players
        self.in_round: list[int] = []                       # players dealt in, play order
        self.outcome: list[str | None] = [None] * self.players  # "bust", "won", "lost"
        self.called: list[int] = []                         # in calling order
        self.queue: list[int] = []                          # seats still to act this phase
        self.stock: list[Card] = []                         # top card first
        self.collected: list[Card] = []                     # shown and gathered this round
        # per seat, the cards a settled (called or bust) player showed this round; kept for
        # the table after they are collected (they may since have been reshuffled)
        self.shown: list[list[Card]] = [[] for _ in range(self.players)]
        self.natural_seat: int | None = None
        self.high_bid = 0
        self.high_bidder: int | None = None
        self.pending_offer: tuple[int, int] | None = None
        self.offered: list[int] = []
        self.events: list[dict] = []
        self.winner: int | None = None
        self.winners: list[int] = []

    # ------------------------------------------------------------------ reading the state
    @property
    def current_seat(self) -> int | None:
        """Who must act now; None when the game is over."""
        if self.phase == "game_over":
            return None
        if self.phase == "banker" or (self.phase == "rotation" and self.pending_offer):
            return self.banker
        return self.queue[0]

    def is_terminal(self) -> bool:
        return self.phase == "game_over"

    @property
    def pot(self) -> int:
        """Chips staked on the table this round and not yet settled."""
        return sum(self.bets)

    @property
    def uncalled(self) -> list[int]:
        """Players still in the round and not yet settled, in play order (the banker may call
        them once every player is done)."""
        return [s for s in self.in_round if self.outcome[s] is None]

    @property
    def face_down(self) -> list[list[Card]]:
        """Per seat, the cards lying face down (the first card until it is shown)."""
        return [[h[0]] if c and h else [] for h, c in zip(self.hands, self.covered)]

    @property
    def sitting_out(self) -> list[int]:
        """Players left out of the current round: fewer chips than the minimum bet."""
        return [s for s in self._left_of(self.banker) if s not in self.in_round]

    def points(self, seat: int) -> int:
        return points(self.hands[seat], self.ace)

    def _viewer(self, seat):
        """Check a viewer: a seat number, None (a spectator) or "all" (every card)."""
        if seat is None or seat == ALL:
            return seat
        if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < self.players:
            raise ValueError(f"a viewer is a seat from 0 to {self.players - 1}, None (a spectator) "
                             f"or {ALL!r} (every card), not {seat!r}")
        return int(seat)

    def _sees(self, viewer, other: int) -> bool:
        """Whether `viewer` sees the face-down card of `other` (if it has one)."""
        return viewer == ALL or viewer == other or not self.covered[other]

    def seen_by(self, seat) -> list[Card]:
        """Every card `seat` can see: its own hand, others' face-up cards, cards shown this round.
        seat None: a spectator (face-up and shown cards only); "all": every card dealt."""
        seat = self._viewer(seat)
        seen = list(self.collected)
        for other, hand in enumerate(self.hands):
            seen.extend(hand if self._sees(seat, other) else hand[1:])
        return seen

    def view(self, seat) -> dict:
        """What `seat` can see, JSON-friendly; hidden cards are None.

        seat: a seat number; None for a spectator (nobody's seat: only face-up and shown cards);
        "all" for the teacher (every card face up). "points" is the seat's own total (None for
        a spectator or "all"). For drawing the table, per seat: "cards" are the cards lying in
        front of it as this viewer sees them (its hand, or once a settled player's hand is
        collected, the cards he showed), "settled" marks the latter, and "visible_points" is
        the total of the cards of "cards" this viewer sees (None when it sees none).
        """
        seat = self._viewer(seat)
        hands = [[str(c) for c in hand] for hand in self.hands]
        for other in range(self.players):
            if hands[other] and not self._sees(seat, other):
                hands[other][0] = None
        settled = [not hand and bool(shown) for hand, shown in zip(self.hands, self.shown)]
        cards = [[str(c) for c in self.shown[s]] if settled[s] else hands[s] for s in range(self.players)]
        visible = [self.shown[s] if settled[s] else self.hands[s][0 if self._sees(seat, s) else 1:]
                   for s in range(self.players)]
        me = isinstance(seat, int) and self.current_seat == seat
        return {
            "seat": seat, "players": self.players, "phase": self.phase,
            "round_number": self.round_number, "rounds": self.rounds, "banker": self.banker,
            "current_seat": self.current_seat, "chips": list(self.chips), "bets": list(self.bets),
            "hands": hands, "face_down": list(self.covered),
            "points": self.points(seat) if isinstance(seat, int) else None,
            "in_round": list(self.in_round), "sitting_out": self.sitting_out,
            "left_of_banker": self._left_of(self.banker), "called": list(self.called),
            "uncalled": self.uncalled, "outcome": list(self.outcome),
            "seen": [str(c) for c in self.seen_by(seat)], "stock": len(self.stock),
            "collected": [str(c) for c in self.collected],
            "shown": [[str(c) for c in cards] for cards in self.shown],
            "cards": cards, "settled": settled,
            "visible_points": [points(v, self.ace) if v else None for v in visible],
            "ace": self.ace, "decks": self.decks, "min_bet": self.min_bet, "max_bet": self.max_bet,
            "rotation": self.rotation, "rotation_rounds": self.rotation_rounds,
            "bank_rounds": self.bank_rounds, "high_bid": self.high_bid,
            "high_bidder": self.high_bidder,
            "pending_offer": list(self.pending_offer) if self.pending_offer else None,
            "legal_actions": [str(a) for a in self.legal_actions()] if me else [],
            "winner": self.winner, "winners": list(self.winners),
        }

    def events_for(self, seat) -> list[dict]:
        """The event log with the face-down deals `seat` did not see hidden (card None).
        seat None: a spectator (every face-down deal hidden); "all": the whole log."""
        seat = self._viewer(seat)
        return [dict(e, card=None) if e["type"] == "deal" and not e["face_up"]
                and seat != ALL and e["seat"] != seat else e for e in self.events]

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self) -> list[Action]:
        seat = self.current_seat
        if seat is None:
            return []
        if self.phase == "bet":
            top = min(self.max_bet, self.chips[seat])
            return [Action.bet(n) for n in range(self.min_bet, top + 1)]
        if self.phase == "players":
            return [HIT, STAND] if self._may_take_card(seat) else [STAND]
        if self.phase == "banker":
            calls = [Action.call(s) for s in self.uncalled]
            return ([DRAW] if self._may_take_card(seat) else []) + calls
        if self.rotation == "rounds":
            return [TAKE_BANK, REFUSE_BANK]
        if self.rotation == "auction":
            return [Action.bid(n) for n in range(self.high_bid + 1, self.chips[seat] + 1)] + [PASS]
        if self.pending_offer:
            return [ACCEPT_OFFER, REFUSE_OFFER]
        return [Action.offer(n) for n in range(1, self.chips[seat] + 1)] + [PASS]

    def why_illegal(self, action, seat: int | None = None) -> str | None:
        """None when `action` is legal now, else the reason in plain English."""
        error = self.illegal(action, seat)
        return None if error is None else str(error)

    def illegal(self, action, seat: int | None = None) -> IllegalAction | None:
        """None when `action` is legal now, else the IllegalAction (not raised) saying why;
        its `message("pt")` gives the reason in Portuguese."""
        try:
            action = Action.parse(action)
        except IllegalAction as err:
            return err
        no = IllegalAction
        current = self.current_seat
        if current is None:
            return no("the game is over", "game_over")
        if seat is not None and seat != current:
            return no(f"it is seat {current}'s turn, not seat {seat}'s", "not_your_turn",
                      current=current, seat=seat)
        kind, n = action.kind, action.amount
        expected = {"bet": ("bet",), "players": ("hit", "stand"), "banker": ("draw", "call")}
        if self.phase == "rotation":
            expected["rotation"] = {"rounds": ("take_bank", "refuse_bank"),
                                    "auction": ("bid", "pass")}.get(
                self.rotation, ("accept_offer", "refuse_offer") if self.pending_offer else ("offer", "pass"))
        if kind not in expected[self.phase]:
            return no(f"{kind!r} is not allowed now: seat {current} must choose "
                      f"{' or '.join(repr(k) for k in expected[self.phase])} ({self.phase} phase)",
                      "wrong_kind", kind=kind, current=current, expected=list(expected[self.phase]),
                      phase=self.phase)
        chips = self.chips[current]
        too_few = (f"seat {current} has only {chips} chips", "too_few_chips")
        if kind == "bet":
            if not self.min_bet <= n <= self.max_bet:
                return no(f"a bet of {n} is outside the limits {self.min_bet} to {self.max_bet}",
                          "bet_limits", n=n, min_bet=self.min_bet, max_bet=self.max_bet)
            if n > chips:
                return no(*too_few, seat=current, chips=chips)
        elif kind in ("hit", "draw") and not self._may_take_card(current):
            if self.points(current) >= 21:
                return no(f"seat {current} has {self.points(current)} points and may take no more cards",
                          "hand_full", seat=current, points=self.points(current))
            return no("there are no cards left to deal: stand instead", "no_cards_left")
        elif kind == "call" and action.seat not in self.uncalled:
            return no(f"seat {action.seat} is not a player waiting to be called (waiting: {self.uncalled})",
                      "not_waiting", seat=action.seat, waiting=self.uncalled)
        elif kind == "bid":
            if n <= self.high_bid:
                return no(f"a bid of {n} must beat the highest bid, {self.high_bid}", "bid_too_low",
                          n=n, high_bid=self.high_bid)
            if n > chips:
                return no(*too_few, seat=current, chips=chips)
        elif kind == "offer":
            if n < 1:
                return no(f"an offer of {n} must be at least 1 chip", "offer_too_low", n=n)
            if n > chips:
                return no(*too_few, seat=current, chips=chips)
        return None

    # ------------------------------------------------------------------ applying actions
    def apply_action(self, action, seat: int | None = None) -> list[dict]:
        """Play `action` (an Action or its str form) for the current seat.

        Returns the events it produced. Raises IllegalAction, leaving the state untouched.
        """
        error = self.illegal(action, seat)
        if error is not None:
            raise error
        action = Action.parse(action)
        start = len(self.events)
        getattr(self, "_do_" + action.kind)(self.current_seat, action)
        return self.events[start:]

    def _do_bet(self, seat, action):
        self.chips[seat] -= action.amount
        self.bets[seat] = action.amount
        self._log("bet", seat=seat, amount=action.amount)
        self.queue.pop(0)
        if not self.queue:
            self._banker_upcard()

    def _do_hit(self, seat, action):
        self._log("hit", seat=seat)
        self._deal(seat, face_up=True)
        self._after_card(seat)

    def _do_stand(self, seat, action):
        self._log("stand", seat=seat, points=self.points(seat), auto=False)
        self._next_player()

    def _do_draw(self, seat, action):
        self._log("draw", seat=seat)
        self._deal(seat, face_up=True)
        if self.points(seat) > 21:
            self._banker_bust()

    def _do_call(self, seat, action):
        player = action.seat
        if self.covered[seat]:
            self.covered[seat] = False
            self._log("reveal", seat=seat, card=str(self.hands[seat][0]))
        self.covered[player] = False
        mine, theirs = self.points(player), self.points(seat)
        won = call_winner(self.hands[player], self.hands[seat], self.ace, self.decks) == "player"
        bet = self.bets[player]
        self.called.append(player)
        self._log("call", seat=player, banker=seat, player_points=mine, banker_points=theirs,
                  cards=[str(c) for c in self.hands[player]],
                  winner="player" if won else "banker", chips=bet)
        self._settle(player, won)
        self._collect(player)
        if not self.uncalled:
            self._end_round()

    def _do_take_bank(self, seat, action):
        self._log("take_bank", seat=seat)
        self._change_bank(seat, "rounds")
        self._next_round()

    def _do_refuse_bank(self, seat, action):
        self._log("refuse_bank", seat=seat)
        self.offered.append(self.queue.pop(0))
        if not self.queue:
            lucky = self.offered[int(self.rng.integers(len(self.offered)))]
            self._change_bank(lucky, "lot")
            self._next_round()

    def _do_bid(self, seat, action):
        self._log("bid", seat=seat, amount=action.amount)
        self.high_bid, self.high_bidder = action.amount, seat
        self.queue.append(self.queue.pop(0))
        self._auction_check()

    def _do_pass(self, seat, action):
        self._log("pass", seat=seat)
        self.queue.pop(0)
        if self.rotation == "auction":
            self._auction_check()
        elif not self.queue:
            self._next_round()

    def _do_offer(self, seat, action):
        self._log("offer", seat=seat, amount=action.amount)
        self.pending_offer = (seat, action.amount)

    def _do_accept_offer(self, seat, action):
        buyer, price = self.pending_offer
        self._log("accept_offer", seat=seat, buyer=buyer, amount=price)
        self.pending_offer = None
        self._sell_bank(buyer, price, "sale")

    def _do_refuse_offer(self, seat, action):
        buyer, price = self.pending_offer
        self._log("refuse_offer", seat=seat, buyer=buyer, amount=price)
        self.pending_offer = None
        self.queue.pop(0)
        if not self.queue:
            self._next_round()

    # ------------------------------------------------------------------ the round
    def _left_of(self, seat: int) -> list[int]:
        """Every other seat, starting at `seat`'s left."""
        return [(seat + i) % self.players for i in range(1, self.players)]

    def _log(self, kind: str, **data):
        self.events.append({"type": kind, **data})

    def _may_take_card(self, seat: int) -> bool:
        # A hand at 21 is finished: any card would only take it over (or waste a soft ace).
        return self.points(seat) < 21 and bool(self.stock or self.collected)

    def _deal(self, seat: int, face_up: bool) -> None:
        if not self.stock:
            self.stock = shuffled(self.collected, self.rng)
            self.collected = []
            self._log("reshuffle", cards=len(self.stock))
        card = self.stock.pop(0)
        self.hands[seat].append(card)
        self._log("deal", seat=seat, face_up=face_up, card=str(card))

    def _start_round(self, stock: list[Card] | None = None) -> None:
        self.round_number += 1
        self.phase = "bet"
        self.hands = [[] for _ in range(self.players)]
        self.covered = [False] * self.players
        self.bets = [0] * self.players
        self.outcome = [None] * self.players
        self.called, self.collected = [], []
        self.shown = [[] for _ in range(self.players)]
        self.natural_seat = None
        self.in_round = [s for s in self._left_of(self.banker) if self.chips[s] >= self.min_bet]
        pack = standard_pack(self.decks)
        self.stock = list(stock) if stock is not None else shuffled(pack, self.rng)
        self._log("round_start", round=self.round_number, banker=self.banker,
                  players=list(self.in_round), sitting_out=self.sitting_out)
        for seat in self.in_round + [self.banker]:
            self._deal(seat, face_up=False)
            self.covered[seat] = True
        self.queue = list(self.in_round)

    def _banker_upcard(self) -> None:
        banker = self.banker
        self._deal(banker, face_up=True)
        if self.points(banker) > 21:  # two aces when the ace counts 11: bust before anyone plays
            self._banker_bust()
            return
        if self.points(banker) == 21:
            self.covered[banker] = False
            taken = self.pot
            self._log("banker_21", seat=banker, cards=[str(c) for c in self.hands[banker]], chips=taken)
            for player in self.in_round:
                self._settle(player, won=False)
            self._end_round()
            return
        self.phase = "players"
        self.queue = list(self.in_round)
        self._start_turn()

    def _start_turn(self) -> None:
        """Give the next player his face-up second card; finished hands move on by themselves."""
        while self.queue:
            seat = self.queue[0]
            if len(self.hands[seat]) == 1 and (self.stock or self.collected):
                self._deal(seat, face_up=True)
                if len(self.hands[seat]) == 2 and self.points(seat) == 21 and self.natural_seat is None:
                    self.natural_seat = seat  # the first two-card 21 from the banker's left
            if not self._hand_over(seat):
                return
            self.queue.pop(0)
        self._players_done()

    def _hand_over(self, seat: int) -> bool:
        """Over 21 pays at once; exactly 21 stands by itself. True when the hand is done."""
        if self.points(seat) > 21:
            self._bust(seat)
        elif self.points(seat) == 21:
            self._log("stand", seat=seat, points=21, auto=True)
        else:
            return False
        return True

    def _after_card(self, seat: int) -> None:
        if self._hand_over(seat):
            self._next_player()

    def _next_player(self) -> None:
        self.queue.pop(0)
        self._start_turn()

    def _bust(self, seat: int) -> None:
        """"Estourei": the player shows everything and the banker takes the bet at once."""
        self.covered[seat] = False
        self._log("bust", seat=seat, cards=[str(c) for c in self.hands[seat]], points=self.points(seat))
        self._settle(seat, won=False, outcome="bust")
        self._collect(seat)

    def _collect(self, seat: int) -> None:
        """The banker gathers a settled player's shown cards; they may be reshuffled later.
        `shown` keeps a record of them for the rest of the round."""
        self.shown[seat] = list(self.hands[seat])
        self.collected.extend(self.hands[seat])
        self.hands[seat] = []

    def _players_done(self) -> None:
        if self.uncalled:
            self.phase = "banker"
        else:
            self._end_round()

    def _banker_bust(self) -> None:
        banker = self.banker
        self.covered[banker] = False
        waiting = self.uncalled
        self._log("banker_bust", seat=banker, cards=[str(c) for c in self.hands[banker]],
                  points=self.points(banker), pays=waiting)
        for player in waiting:  # in play order from his left, until he is empty
            self._settle(player, won=True)
        self._end_round()

    def _settle(self, player: int, won: bool, outcome: str | None = None) -> None:
        """Move one bet: to the banker, or back to the player with what the banker can pay."""
        bet, banker = self.bets[player], self.banker
        self.bets[player] = 0
        if won:
            paid = min(bet, self.chips[banker])
            self.chips[banker] -= paid
            self.chips[player] += bet + paid
            self._log("pay", **{"from": banker, "to": player, "amount": paid, "owed": bet})
        else:
            self.chips[banker] += bet
            self._log("pay", **{"from": player, "to": banker, "amount": bet, "owed": bet})
        self.outcome[player] = outcome or ("won" if won else "lost")

    def _end_round(self) -> None:
        self.covered = [False] * self.players
        self.queue = []
        self.bank_rounds += 1
        self._log("round_end", round=self.round_number, banker=self.banker,
                  hands={str(s): [str(c) for c in h] for s, h in enumerate(self.hands) if h},
                  points={str(s): self.points(s) for s, h in enumerate(self.hands) if h},
                  chips=list(self.chips))
        if self.rounds is not None and self.round_number >= self.rounds:
            self._game_over()
            return
        self._rotate()

    # ------------------------------------------------------------------ the bank
    def _candidates(self) -> list[int]:
        """Seats that may take the bank, from the banker's left: anyone with chips."""
        return [s for s in self._left_of(self.banker) if self.chips[s] > 0]

    def _rotate(self) -> None:
        mode, candidates = self.rotation, self._candidates()
        if mode == "natural" and self.natural_seat is not None:
            self._change_bank(self.natural_seat, "natural")
        elif candidates and (mode in ("auction", "sale") or
                             (mode == "rounds" and self.bank_rounds >= self.rotation_rounds)):
            self.phase, self.queue, self.offered = "rotation", candidates, []
            self.high_bid, self.high_bidder, self.pending_offer = 0, None, None
            self._log("rotation", mode=mode, seats=list(candidates))
            return
        self._next_round()

    def _auction_check(self) -> None:
        if self.queue and self.queue != [self.high_bidder]:
            return
        if self.high_bidder is None:
            self._next_round()
        else:
            self._sell_bank(self.high_bidder, self.high_bid, "auction")

    def _sell_bank(self, buyer: int, price: int, reason: str) -> None:
        self.chips[buyer] -= price
        self.chips[self.banker] += price
        self._change_bank(buyer, reason, price)
        self._next_round()

    def _change_bank(self, seat: int, reason: str, price: int = 0) -> None:
        self._log("bank_change", **{"from": self.banker, "to": seat, "reason": reason, "price": price})
        self.banker, self.bank_rounds = seat, 0

    def _next_round(self) -> None:
        self.queue, self.pending_offer = [], None
        if self.chips[self.banker] == 0:
            heir = next((s for s in self._left_of(self.banker) if self.chips[s] > 0), None)
            if heir is not None:
                self._change_bank(heir, "broke")
        if not any(self.chips[s] >= self.min_bet for s in self._left_of(self.banker)):
            self._game_over()  # nobody can bet against the bank
        else:
            self._start_round()

    def _game_over(self) -> None:
        self.phase, self.queue = "game_over", []
        best = max(self.chips)
        self.winners = [s for s in range(self.players) if self.chips[s] == best]
        self.winner = self.winners[0] if len(self.winners) == 1 else None
        self._log("game_over", winner=self.winner, winners=list(self.winners), chips=list(self.chips))

    # ------------------------------------------------------------------ copies and JSON
    def clone(self) -> "GameState":
        return from_json(self.to_json())

    def to_dict(self) -> dict:
        return {
            "format": "cartas.vinte_e_um/1", "config": self.config,
            "rng": _rng_to_json(self.rng), "chips": self.chips, "banker": self.banker,
            "round_number": self.round_number, "bank_rounds": self.bank_rounds, "phase": self.phase,
            "hands": [[str(c) for c in h] for h in self.hands], "covered": self.covered,
            "bets": self.bets, "in_round": self.in_round, "outcome": self.outcome,
            "called": self.called, "queue": self.queue,
            "stock": [str(c) for c in self.stock], "collected": [str(c) for c in self.collected],
            "shown": [[str(c) for c in cards] for cards in self.shown],
            "natural_seat": self.natural_seat, "high_bid": self.high_bid,
            "high_bidder": self.high_bidder,
            "pending_offer": list(self.pending_offer) if self.pending_offer else None,
            "offered": self.offered, "events": self.events,
            "winner": self.winner, "winners": self.winners,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> "GameState":
        return from_json(text)

    def __repr__(self) -> str:
        return (f"<21: {self.players} seats, round {self.round_number}, banker {self.banker}, "
                f"phase {self.phase}, chips {self.chips}>")


def _rng_to_json(rng: np.random.Generator) -> dict:
    state = rng.bit_generator.state
    return json.loads(json.dumps(state, default=lambda a: {"ndarray": a.tolist(), "dtype": str(a.dtype)}))


def _rng_from_json(state: dict) -> np.random.Generator:
    def arrays(value):
        if isinstance(value, dict):
            if "ndarray" in value:
                return np.array(value["ndarray"], dtype=value["dtype"])
            return {k: arrays(v) for k, v in value.items()}
        return value
    state = arrays(state)
    bit_generator = getattr(np.random, state["bit_generator"])()
    bit_generator.state = state
    return np.random.Generator(bit_generator)


def from_json(text: str) -> GameState:
    """Rebuild a state from `to_json()`; it continues exactly as the original would."""
    data = json.loads(text) if isinstance(text, str) else text
    state = GameState(data["config"], _rng_from_json(data["rng"]))
    for key in ("chips", "banker", "round_number", "bank_rounds", "phase", "covered", "bets",
                "in_round", "outcome", "called", "queue", "natural_seat", "high_bid",
                "high_bidder", "offered", "events", "winner", "winners"):
        setattr(state, key, data[key])
    state.hands = [[_card(c) for c in h] for h in data["hands"]]
    state.stock = [_card(c) for c in data["stock"]]
    state.collected = [_card(c) for c in data["collected"]]
    state.shown = [[_card(c) for c in cards] for cards in data.get("shown") or state.shown]
    state.pending_offer = tuple(data["pending_offer"]) if data["pending_offer"] else None
    return state


def new_game(players: int, seed=None, ace=None, decks=None, min_bet=1, max_bet=5, chips=20,
             rotation=DEFAULT_ROTATION, rounds=10, rotation_rounds=3, banker=None) -> GameState:
    """A new game, dealt up to the first bet.

    players: everyone at the table, banker included (3..12). ace: 1, 11 or "flexible";
    None (default) is the table's default, `default_ace(rotation)`: 1, except 11 under the
    "natural" rotation (an explicit ace=1 with "natural" is refused). decks=None: 1 pack up
    to 8 participants, 2 above. chips: one starting stack for all, or a list per seat.
    rounds=None plays until nobody can bet against the bank. banker=None draws the first
    banker by lot (seeded).
    """
    state = _blank(players, seed, ace, decks, min_bet, max_bet, chips, rotation, rounds,
                   rotation_rounds, banker)
    state._start_round()
    return state


def from_deal(players: int, first_cards, upcard=None, then=(), *, banker=0, seed=None, ace=None,
              decks=None, min_bet=1, max_bet=5, chips=20, rotation=DEFAULT_ROTATION, rounds=10,
              rotation_rounds=3) -> GameState:
    """A game whose first round deals chosen cards, for lessons and tests.

    first_cards: each seat's face-down card, a list indexed by seat (None for a seat sitting
    out) or a dict {seat: card}. upcard: the banker's face-up second card. then: the next
    cards off the top, in the order they will be dealt (players' second cards and hits, the
    banker's draws). The rest of the pack follows in a seeded shuffled order. Other options
    as in `new_game` (ace=None: the table's default ace for the rotation).
    """
    state = _blank(players, seed, ace, decks, min_bet, max_bet, chips, rotation, rounds,
                   rotation_rounds, banker)
    if not isinstance(first_cards, dict):
        first_cards = dict(enumerate(first_cards))
    dealt = [s for s in state._left_of(state.banker) if state.chips[s] >= state.min_bet] + [state.banker]
    given = {s for s, c in first_cards.items() if c is not None}
    if given != set(dealt):
        raise ValueError(f"first_cards must give a card to exactly the seats dealt in, {sorted(dealt)}; "
                         f"got seats {sorted(given)}")
    top = [_card(first_cards[s]) for s in dealt]
    top += ([_card(upcard)] if upcard is not None else []) + [_card(c) for c in then]
    rest = Counter(standard_pack(state.decks))
    rest.subtract(top)
    short = [str(c) for c, n in rest.items() if n < 0]
    if short:
        raise ValueError(f"{state.decks} pack(s) hold too few of {', '.join(short)}")
    remaining = list(rest.elements())
    state._start_round(stock=top + shuffled(remaining, state.rng))
    return state


def _blank(players, seed, ace, decks, min_bet, max_bet, chips, rotation, rounds, rotation_rounds,
           banker) -> GameState:
    config = _check_config(players, ace, decks, min_bet, max_bet, chips, rotation,
                           rotation_rounds, rounds)
    state = GameState(config, make_rng(seed))
    if banker is None:
        banker = int(state.rng.integers(players))
    if not isinstance(banker, int) or not 0 <= banker < players:
        raise ValueError(f"the banker must be a seat from 0 to {players - 1}, not {banker!r}")
    state.banker = banker
    state._log("game_start", players=players, banker=banker, chips=list(state.chips),
               ace=config["ace"], decks=config["decks"], rotation=rotation)
    return state
