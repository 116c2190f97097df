"""The 21 banker game: one mutable `VinteEUmState` driven by `apply_action`.

Seats are 0..players-1 in play order; "the banker's left" is the next seat up (wrapping).
Every round: first cards face down, bets, the banker's face-up second card (two cards
making 21 take every bet), each player's turn, then the banker draws and calls.
See docs/rules.md#vinte-e-um and the module docstring of `cartas.vinte_e_um`
for the points the sources leave open and how they are settled here.
"""
from __future__ import annotations

import copy
import secrets
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..cards import Card, shuffled, standard_pack
from ..contract import Event, Outcome, copy_event
from .actions import ACCEPT_OFFER, DRAW, HIT, PASS, REFUSE_BANK, REFUSE_OFFER, STAND, TAKE_BANK, Action
from .config import (
    CONFIG_KEYS,
    DEFAULT_ROTATION,
    ROTATIONS,
    UNTIL_ONE_CAP,
    Config,
    check_banker,
    check_config,
    check_seed,
    default_ace,
    default_packs,
    is_int,
)
from .errors import IllegalAction, VinteEUmError, shown
from .scoring import call_winner, card_of, points
from .views import ALL, SeatView, hide_events

if TYPE_CHECKING:
    import numpy as np  # the Generator comes from config.check_seed, which loads numpy

# `from_deal`'s first cards: one per seat (None for a seat sitting out), or {seat: card}
FirstCards = Sequence[Card | str | None] | Mapping[int, Card | str | None]
PHASES: tuple[str, ...] = ("bet", "players", "banker", "rotation", "game_over")
__all__ = ["ALL", "DEFAULT_ROTATION", "PHASES", "ROTATIONS", "VinteEUmState", "default_ace",
           "default_packs", "from_deal", "from_json", "new_game"]


class VinteEUmState:
    """A whole game of 21. Build it with `new_game`, `from_deal` or `from_json`."""

    def __init__(self, config: Config, rng: np.random.Generator):
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
        self.seat_results: list[str | None] = [None] * self.players  # "bust", "won", "lost" (the view's `outcome`)
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
        self.events: list[Event] = []
        self.winner: int | None = None
        self.winners: list[int] = []
        # Saving (docs/rules.md#saved-game-replays): how the game began, the actions since, and
        # what the setup fixes by hand: the next stocks (top card first) and lots to draw.
        self._setup: dict[str, Any] = {}
        self._actions: list[str] = []
        self._stocks: list[list[Card]] = []
        self._lots: list[int] = []
        self._stock_log: list[list[Card]] = []  # every stock laid out so far, as laid out
        self._lot_log: list[int] = []           # every lot drawn so far

    # ------------------------------------------------------------------ reading the state
    game = "21"  # the game's key in `cartas.games`

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

    def seat_is_out(self, seat: int) -> bool:
        """Whether `seat` can never act again in this game.

        True once the game is over, or for a seat that holds no chips and has no stake in
        the round being played and is not the banker: with no chips it cannot bet, bid,
        offer or take the bank, and chips only reach a seat as winnings on its own bet or
        as the banker. (A play view ends the game for a learner whose seat is out.)
        Decided: docs/rules.md#21-seat-out.
        """
        seat = self._seat_number(seat)
        if self.phase == "game_over":
            return True
        return seat != self.banker and self.bets[seat] == 0 and self.chips[seat] == 0

    def bank_story(self) -> list[Event]:
        """The events that led to the latest change of bank, ending with its bank_change;
        [] when the bank has not changed hands.

        The story starts at the end of the round that led to it (round_end); under the
        "natural" rotation it starts at the face-up card that made the two-card 21.
        """
        changes = [i for i, e in enumerate(self.events) if e["type"] == "bank_change"]
        if not changes:
            return []
        last = changes[-1]
        change = self.events[last]
        ends = [i for i in range(last) if self.events[i]["type"] == "round_end"]
        start = ends[-1] if ends else 0
        if change["reason"] == "natural":
            starts = [i for i in range(start) if self.events[i]["type"] == "round_start"]
            first = starts[-1] if starts else 0
            start = next(i for i in range(first, last) if self.events[i]["type"] == "deal"
                         and self.events[i]["face_up"] and self.events[i]["seat"] == change["to"])
        return [dict(e) for e in self.events[start:last + 1]]

    def narrate(self, event: Event, lang: str = "pt", names: Mapping[int, str] | None = None) -> str:
        """One sentence telling what `event` means, in "pt" (default) or "en"; `names`:
        {seat: name}, see `cartas.vinte_e_um.narrate`."""
        from .narration import narrate
        return narrate(event, lang, names)

    @property
    def pot(self) -> int:
        """Chips staked on the table this round and not yet settled."""
        return sum(self.bets)

    @property
    def uncalled(self) -> list[int]:
        """Players still in the round and not yet settled, in play order (the banker may call
        them once every player is done)."""
        return [s for s in self.in_round if self.seat_results[s] is None]

    @property
    def face_down(self) -> list[list[Card]]:
        """Per seat, the cards lying face down (the first card until it is shown)."""
        return [[h[0]] if c and h else [] for h, c in zip(self.hands, self.covered)]

    @property
    def sitting_out(self) -> list[int]:
        """Players left out of the current round: fewer chips than the minimum bet.
        Decided: docs/rules.md#21-sitting-out."""
        return [s for s in self._left_of(self.banker) if s not in self.in_round]

    def points(self, seat: int) -> int:
        return points(self.hands[self._seat_number(seat)], self.ace)

    def _seat_number(self, seat: object) -> int:
        if type(seat) is int and 0 <= seat < self.players:  # the common case, at once
            return seat
        if not is_int(seat) or not 0 <= seat < self.players:
            raise VinteEUmError("bad_viewer", last=self.players - 1, value=shown(seat))
        return int(seat)

    def _viewer(self, seat: object) -> int | str | None:
        """Check a viewer: a seat number, None (a spectator) or "all" (every card)."""
        if seat is None or (isinstance(seat, str) and seat == ALL):
            return seat
        return self._seat_number(seat)

    def _sees(self, viewer: int | str | None, other: int) -> bool:
        """Whether `viewer` sees the face-down card of `other` (if it has one).
        Decided: docs/rules.md#21-who-sees."""
        return viewer == ALL or viewer == other or not self.covered[other]

    def view(self, seat: int | str | None) -> SeatView:
        """What `seat` can see now, as an immutable `SeatView` (see `cartas.vinte_e_um.views`).

        seat: a seat number; None for a spectator (nobody's seat: only face-up and shown
        cards); "all" (`ALL`) for the teacher (every card face up). Hidden cards are None.
        A bad viewer raises VinteEUmError "bad_viewer".
        """
        seat = self._viewer(seat)
        ace, covered, every = self.ace, self.covered, seat == ALL
        hands: list[tuple[Card | None, ...]] = []
        cards: list[tuple[Card | None, ...]] = []
        settled: list[bool] = []
        visible_points: list[int | None] = []
        seen: list[Card] = list(self.collected)
        for other, (hand, showed) in enumerate(zip(self.hands, self.shown)):
            if hand and not (every or seat == other or not covered[other]):  # the face-down card unseen
                visible = hand[1:]
                mine: tuple[Card | None, ...] = (None, *visible)
            else:
                visible = hand
                mine = tuple(hand)
            seen.extend(visible)
            hands.append(mine)
            done = not hand and bool(showed)  # a settled player: the cards he showed
            settled.append(done)
            if done:
                visible = showed
            cards.append(tuple(showed) if done else mine)
            visible_points.append(points(visible, ace) if visible else None)
        left = self._left_of(self.banker)
        current = self.current_seat
        legal = tuple(self.legal_actions()) if isinstance(seat, int) and current == seat else ()
        return SeatView(
            seat=seat, players=self.players, phase=self.phase, round_number=self.round_number,
            rounds=self.rounds, banker=self.banker, current_seat=current,
            chips=tuple(self.chips), bets=tuple(self.bets),
            hands=tuple(hands), face_down=tuple(covered),
            points=points(self.hands[seat], ace) if isinstance(seat, int) else None,
            in_round=tuple(self.in_round), sitting_out=tuple(s for s in left if s not in self.in_round),
            left_of_banker=tuple(left), called=tuple(self.called),
            uncalled=tuple(self.uncalled), outcome=tuple(self.seat_results),
            seen=tuple(seen), stock=len(self.stock),
            collected=tuple(self.collected),
            shown=tuple(tuple(cs) for cs in self.shown),
            cards=tuple(cards), settled=tuple(settled), visible_points=tuple(visible_points),
            ace=self.ace, decks=self.decks, min_bet=self.min_bet, max_bet=self.max_bet,
            rotation=self.rotation, rotation_rounds=self.rotation_rounds,
            bank_rounds=self.bank_rounds, high_bid=self.high_bid, high_bidder=self.high_bidder,
            pending_offer=self.pending_offer,  # a tuple: shared safely
            winner=self.winner, winners=tuple(self.winners), legal=legal,
            _log=self.events, _log_length=len(self.events),
        )

    def events_for(self, seat: int | str | None) -> list[Event]:
        """The event log with the face-down deals `seat` did not see hidden (card None).
        seat None: a spectator (every face-down deal hidden); "all": the whole log."""
        return hide_events(self.events, self._viewer(seat))

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

    def why_illegal(self, action: object, seat: int | None = None, lang: str = "en") -> str | None:
        """None when `action` is legal now, else the reason in `lang` (English by default)."""
        error = self.illegal(action, seat)
        return None if error is None else error.message(lang)

    def illegal(self, action: object, seat: int | None = None) -> IllegalAction | None:
        """None when `action` is legal now, else the IllegalAction (not raised) saying why;
        `message("pt")` / `message("en")` give the reason."""
        try:
            action = Action.parse(action)
        except IllegalAction as err:
            return err
        no = IllegalAction
        current = self.current_seat
        if current is None:
            return no("game_over")
        if seat is not None and seat != current:
            return no("not_your_turn", current=current, seat=shown(seat))
        kind, n = action.kind, action.amount
        expected = self._expected_kinds()
        if kind not in expected:
            return no("wrong_kind", kind=kind, current=current, expected=list(expected),
                      phase=self.phase)
        return self._refused_amount(current, kind, n) or self._refused_move(current, action)

    def _refused_amount(self, seat: int, kind: str, n: int | None) -> IllegalAction | None:
        """A bet, bid or offer of `n` chips the table's limits or the seat's chips refuse."""
        if n is None:
            return None
        no, chips = IllegalAction, self.chips[seat]
        if kind == "bet" and not self.min_bet <= n <= self.max_bet:
            return no("bet_limits", n=n, min_bet=self.min_bet, max_bet=self.max_bet)
        if kind == "bid" and n <= self.high_bid:
            return no("bid_too_low", n=n, high_bid=self.high_bid)
        if kind == "offer" and n < 1:
            return no("offer_too_low", n=n)
        if n > chips:
            return no("too_few_chips", seat=seat, chips=chips)
        return None

    def _refused_move(self, seat: int, action: Action) -> IllegalAction | None:
        """A card asked for when none may be taken, or a call of a seat not waiting."""
        kind = action.kind
        if kind in ("hit", "draw") and not self._may_take_card(seat):
            if self.points(seat) >= 21:
                return IllegalAction("hand_full", seat=seat, points=self.points(seat))
            return IllegalAction("no_cards_left")
        if kind == "call" and action.seat not in self.uncalled:
            return IllegalAction("not_waiting", seat=action.seat, waiting=list(self.uncalled))
        return None

    def _expected_kinds(self) -> tuple[str, ...]:
        """The kinds of action the phase asks of the current seat."""
        if self.phase == "rotation":
            if self.rotation == "rounds":
                return ("take_bank", "refuse_bank")
            if self.rotation == "auction":
                return ("bid", "pass")
            return ("accept_offer", "refuse_offer") if self.pending_offer else ("offer", "pass")
        return {"bet": ("bet",), "players": ("hit", "stand"), "banker": ("draw", "call")}[self.phase]

    # ------------------------------------------------------------------ applying actions
    def apply_action(self, action: object, seat: int | None = None) -> list[Event]:
        """Play `action` (an Action or its str form) for the current seat; `seat`, when
        given, must be the current seat.

        Returns the events it produced, as copies the caller owns (changing them never
        changes `events`). Raises IllegalAction, leaving the state untouched.
        """
        error = self.illegal(action, seat)
        if error is not None:
            raise error
        start = len(self.events)
        self._apply(Action.parse(action))
        return [copy_event(e) for e in self.events[start:]]

    def _apply(self, action: Action) -> None:
        """Play a legal action (checked by `illegal` first) and keep it for saving."""
        getattr(self, "_do_" + action.kind)(self.current_seat, action)
        self._actions.append(str(action))

    def describe(self, action: object, lang: str = "pt") -> str:
        """The action's name in `lang` ("apostar 3 fichas"); see `Action.describe`."""
        return Action.parse(action).describe(lang)

    def outcome(self) -> Outcome:
        """Each seat's chips, and the seat with the most once the game is over (`winner`
        None and `winners` the tied seats on a shared top)."""
        over = self.phase == "game_over"
        return Outcome("seat", tuple(self.chips), self.winner, tuple(self.winners) if over else (), over)

    def _do_bet(self, seat: int, action: Action) -> None:
        self.chips[seat] -= action.amount  # type: ignore[operator]  # a bet, bid or offer has an amount (Action checks)
        self.bets[seat] = action.amount  # type: ignore[assignment]  # a bet, bid or offer has an amount (Action checks)
        self._log("bet", seat=seat, amount=action.amount)
        self.queue.pop(0)
        if not self.queue:
            self._banker_upcard()

    def _do_hit(self, seat: int, action: Action) -> None:
        self._log("hit", seat=seat)
        self._deal(seat, face_up=True)
        self._after_card(seat)

    def _do_stand(self, seat: int, action: Action) -> None:
        self._log("stand", seat=seat, points=self.points(seat), auto=False)
        self._next_player()

    def _do_draw(self, seat: int, action: Action) -> None:
        self._log("draw", seat=seat)
        self._deal(seat, face_up=True)
        if self.points(seat) > 21:
            self._banker_bust()

    def _do_call(self, seat: int, action: Action) -> None:
        # Decided: docs/rules.md#21-banker-chooses
        player: int = action.seat  # type: ignore[assignment]  # a call names its seat (Action checks)
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

    def _do_take_bank(self, seat: int, action: Action) -> None:
        self._log("take_bank", seat=seat)
        self._change_bank(seat, "rounds")
        self._next_round()

    def _do_refuse_bank(self, seat: int, action: Action) -> None:
        self._log("refuse_bank", seat=seat)
        self.offered.append(self.queue.pop(0))
        if not self.queue:
            lucky = self.offered[self._draw_lot(len(self.offered))]
            self._change_bank(lucky, "lot")
            self._next_round()

    def _do_bid(self, seat: int, action: Action) -> None:
        self._log("bid", seat=seat, amount=action.amount)
        self.high_bid, self.high_bidder = action.amount, seat  # type: ignore[assignment]  # a bet, bid or offer has an amount (Action checks)
        self.queue.append(self.queue.pop(0))
        self._auction_check()

    def _do_pass(self, seat: int, action: Action) -> None:
        self._log("pass", seat=seat)
        self.queue.pop(0)
        if self.rotation == "auction":
            self._auction_check()
        elif not self.queue:
            self._next_round()

    def _do_offer(self, seat: int, action: Action) -> None:
        self._log("offer", seat=seat, amount=action.amount)
        self.pending_offer = (seat, action.amount)  # type: ignore[assignment]  # a bet, bid or offer has an amount (Action checks)

    def _offer(self) -> tuple[int, int]:
        """The offer the banker answers; IllegalAction "no_offer" when none is pending."""
        if self.pending_offer is None:
            raise IllegalAction("no_offer")
        return self.pending_offer

    def _do_accept_offer(self, seat: int, action: Action) -> None:
        buyer, price = self._offer()
        self._log("accept_offer", seat=seat, buyer=buyer, amount=price)
        self.pending_offer = None
        self._sell_bank(buyer, price, "sale")

    def _do_refuse_offer(self, seat: int, action: Action) -> None:
        buyer, price = self._offer()
        self._log("refuse_offer", seat=seat, buyer=buyer, amount=price)
        self.pending_offer = None
        self.queue.pop(0)
        if not self.queue:
            self._next_round()

    # ------------------------------------------------------------------ the round
    def _left_of(self, seat: int) -> list[int]:
        """Every other seat, starting at `seat`'s left."""
        return [(seat + i) % self.players for i in range(1, self.players)]

    def _log(self, kind: str, **data: object) -> None:
        self.events.append({"type": kind, **data})

    def _may_take_card(self, seat: int) -> bool:
        # A hand at 21 is finished: any card would only take it over (or waste a soft ace).
        return self.points(seat) < 21 and bool(self.stock or self.collected)

    def _deal(self, seat: int, face_up: bool) -> None:
        # Decided: docs/rules.md#21-running-out
        if not self.stock:
            self.stock = self._lay_out(self.collected)
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
        self.seat_results = [None] * self.players
        self.called, self.collected = [], []
        self.shown = [[] for _ in range(self.players)]
        self.natural_seat = None
        self.in_round = [s for s in self._left_of(self.banker) if self.chips[s] >= self.min_bet]
        self.stock = self._lay_out(standard_pack(self.decks), stock)
        self._log("round_start", round=self.round_number, banker=self.banker,
                  players=list(self.in_round), sitting_out=self.sitting_out)
        for seat in self.in_round + [self.banker]:
            self._deal(seat, face_up=False)
            self.covered[seat] = True
        self.queue = list(self.in_round)

    def _lay_out(self, cards: list[Card], chosen: list[Card] | None = None) -> list[Card]:
        """The stock made of `cards`, top card first: the setup's next stock while it has
        some (its cards on top in its order, the others below in theirs), else `chosen` (a
        deal chosen by hand), else shuffled from the generator."""
        made = len(self._stock_log)
        if made < len(self._stocks):
            top = self._stocks[made]
            rest = Counter(cards)
            rest.subtract(top)
            if any(n < 0 for n in rest.values()):
                raise VinteEUmError("bad_setup", field="stocks", error=VinteEUmError(
                    "setup_stock", number=made + 1, cards=len(cards)))
            below = []
            for card in cards:
                if rest[card] > 0:
                    rest[card] -= 1
                    below.append(card)
            stock = list(top) + below
        else:
            stock = list(chosen) if chosen is not None else shuffled(cards, self.rng)
        self._stock_log.append(list(stock))
        return stock

    def _draw_lot(self, n: int) -> int:
        """A lot among `n`: the setup's next one while it has some, else from the generator."""
        made = len(self._lot_log)
        lot = self._lots[made] if made < len(self._lots) else int(self.rng.integers(n))
        if not 0 <= lot < n:
            raise VinteEUmError("bad_setup", field="lots", error=VinteEUmError(
                "setup_lot", number=made + 1, last=n - 1))
        self._lot_log.append(lot)
        return lot

    def _banker_upcard(self) -> None:
        banker = self.banker
        self._deal(banker, face_up=True)
        # Two aces worth 11 (22) bust him, but that shows only when his turn comes
        # (docs/rules.md#21-banker-two-aces): the players play first, see _players_done.
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
        if self.points(self.banker) > 21:
            # Two aces worth 11: his bust is revealed now that his turn comes; he pays the
            # players still waiting (none if every player busted).
            self._banker_bust()
        elif self.uncalled:
            self.phase = "banker"
        else:
            self._end_round()

    def _banker_bust(self) -> None:
        # Decided: docs/rules.md#21-banker-pays
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
        self.seat_results[player] = outcome or ("won" if won else "lost")

    def _end_round(self) -> None:
        # Decided: docs/rules.md#21-round-cap
        # Decided: docs/rules.md#21-end
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
        if self.rounds is None and self.round_number >= UNTIL_ONE_CAP:
            self._game_over(cap=UNTIL_ONE_CAP)
            return
        self._rotate()

    # ------------------------------------------------------------------ the bank
    def _candidates(self) -> list[int]:
        """Seats that may take the bank, from the banker's left: anyone with chips."""
        return [s for s in self._left_of(self.banker) if self.chips[s] > 0]

    def _rotate(self) -> None:
        # Decided: docs/rules.md#21-rotation
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
        # Decided: docs/rules.md#21-broke-banker
        self.queue, self.pending_offer = [], None
        if self.chips[self.banker] == 0:
            heir = next((s for s in self._left_of(self.banker) if self.chips[s] > 0), None)
            if heir is not None:
                self._change_bank(heir, "broke")
        if not any(self.chips[s] >= self.min_bet for s in self._left_of(self.banker)):
            self._game_over()  # nobody can bet against the bank
        else:
            self._start_round()

    def _game_over(self, cap: int | None = None) -> None:
        self.phase, self.queue = "game_over", []
        best = max(self.chips)
        self.winners = [s for s in range(self.players) if self.chips[s] == best]
        self.winner = self.winners[0] if len(self.winners) == 1 else None
        extra = {"cap": cap} if cap else {}
        self._log("game_over", winner=self.winner, winners=list(self.winners),
                  chips=list(self.chips), **extra)

    # ------------------------------------------------------------------ copies and JSON
    def clone(self) -> VinteEUmState:
        """An independent copy, its generator included."""
        return copy.deepcopy(self)

    def to_dict(self) -> dict[str, Any]:
        """The saved game: its setup plus its actions (see `cartas.vinte_e_um.serialization`)."""
        from .serialization import to_dict
        return to_dict(self)

    def to_json(self) -> str:
        from .serialization import to_json
        return to_json(self)

    @classmethod
    def from_json(cls, text: str) -> VinteEUmState:
        return from_json(text)

    def __repr__(self) -> str:
        return (f"<21: {self.players} seats, round {self.round_number}, banker {self.banker}, "
                f"phase {self.phase}, chips {self.chips}>")


def from_json(text: str | dict[str, Any]) -> VinteEUmState:
    """The game saved by `to_json()` (text, or the parsed dict): its setup starts it and its
    actions are replayed (docs/rules.md#saved-game-replays), so it continues exactly as the
    original would. A setup out of range or an action the rules refuse raises VinteEUmError
    naming it (see `cartas.vinte_e_um.serialization`)."""
    from .serialization import load
    return load(text, _begin)


def new_game(players: int, seed: int | np.random.Generator | None = None, ace: int | str | None = None,
             decks: int | None = None, min_bet: int = 1, max_bet: int = 5, chips: int | Sequence[int] = 20,
             rotation: str = DEFAULT_ROTATION, rounds: int | None = 10, rotation_rounds: int = 3,
             banker: int | None = None) -> VinteEUmState:
    """A new game, dealt up to the first bet.

    players: everyone at the table, banker included (3..12). ace: 1, 11 or "flexible";
    None (default) is the table's default, `default_ace(rotation)`: 1, except 11 under the
    "natural" rotation (an explicit ace=1 with "natural" is refused). decks=None: 1 pack up
    to 8 participants, 2 above. chips: one starting stack for all, or a list per seat.
    rounds=None plays until nobody can bet against the bank, but at most UNTIL_ONE_CAP
    (200) rounds: then, as after set rounds, the most chips win (the game_over event
    carries "cap"). banker=None draws the first banker by lot (seeded) among the seats
    holding chips. seed: None, a whole number 0..2**63-1, or a numpy Generator.
    A table where nobody could bet (every other stack below min_bet, or only the banker
    with chips) is refused. Every refusal is a VinteEUmError (see `config`).
    """
    options = dict(ace=ace, decks=decks, min_bet=min_bet, max_bet=max_bet, chips=chips,
                   rotation=rotation, rounds=rounds, rotation_rounds=rotation_rounds)
    return _begin(players, seed, options, banker)


def from_deal(players: int, first_cards: FirstCards, upcard: Card | str | None = None,
              then: Sequence[Card | str] = (), *, banker: int | None = 0,
              seed: int | np.random.Generator | None = None, ace: int | str | None = None,
              decks: int | None = None, min_bet: int = 1, max_bet: int = 5, chips: int | Sequence[int] = 20,
              rotation: str = DEFAULT_ROTATION, rounds: int | None = 10, rotation_rounds: int = 3) -> VinteEUmState:
    """A game whose first round deals chosen cards, for lessons and tests.

    first_cards: each seat's face-down card, a list indexed by seat (None for a seat sitting
    out) or a dict {seat: card}. upcard: the banker's face-up second card. then: the next
    cards off the top, in the order they will be dealt (players' second cards and hits, the
    banker's draws). The rest of the pack follows in a seeded shuffled order. Other options
    as in `new_game` (ace=None: the table's default ace for the rotation).
    """
    options = dict(ace=ace, decks=decks, min_bet=min_bet, max_bet=max_bet, chips=chips,
                   rotation=rotation, rounds=rounds, rotation_rounds=rotation_rounds)
    return _begin(players, seed, options, banker, (first_cards, upcard, then))


def _deal_first(state: VinteEUmState, first_cards: object, upcard: object, then: object) -> dict[str, Any]:
    """Start the first round with the chosen cards on top (see `from_deal`); returns the
    deal as saved: {"first_cards": a card text or None per seat, "upcard", "then"}."""
    players = state.players
    if isinstance(first_cards, (list, tuple)) and len(first_cards) <= players:
        first_cards = dict(enumerate(first_cards))
    if not isinstance(first_cards, dict):
        raise VinteEUmError("first_cards_shape", value=shown(first_cards))
    dealt = [s for s in state._left_of(state.banker) if state.chips[s] >= state.min_bet]
    dealt.append(state.banker)
    given = {s for s, c in first_cards.items() if c is not None}
    if given != set(dealt):
        raise VinteEUmError("first_cards_seats", dealt=sorted(dealt),
                            given=sorted(given, key=repr)[:12])
    if isinstance(then, (str, bytes)) or not isinstance(then, (list, tuple)) or len(then) > 104:
        raise VinteEUmError("cards_list", field="then", value=shown(then))
    top = [card_of(first_cards[s]) for s in dealt]
    up = [card_of(upcard)] if upcard is not None else []
    more = [card_of(c) for c in then]
    rest = Counter(standard_pack(state.decks))
    rest.subtract(top + up + more)
    short = [str(c) for c, n in rest.items() if n < 0]
    if short:
        raise VinteEUmError("too_few_in_packs", packs=state.decks, cards=", ".join(short))
    remaining = list(rest.elements())
    state._start_round(stock=top + up + more + shuffled(remaining, state.rng))
    cards = dict(zip(dealt, top))
    return {"first_cards": [None if s not in cards else str(cards[s]) for s in range(players)],
            "upcard": None if not up else str(up[0]), "then": [str(c) for c in more]}


def _begin(players: int, seed: int | np.random.Generator | None, options: dict[str, Any], banker: int | None,
           deal: tuple[object, object, object] | None = None,
           saved: dict[str, Any] | None = None) -> VinteEUmState:
    """A new game (`new_game`, or `from_deal` when `deal` is (first_cards, upcard, then)).
    Its setup is kept for saving: the options, the first banker as asked, the deal, and the
    seed (a seed None draws a fresh one, kept); a Generator of the caller's is used as it is,
    and the save then fixes what it drew instead (see `serialization.to_dict`). `saved`: a
    saved game's checked setup, whose stocks and lots the new game lays out and draws."""
    config = check_config(players, options["ace"], options["decks"], options["min_bet"],
                          options["max_bet"], options["chips"], options["rotation"],
                          options["rotation_rounds"], options["rounds"])
    shared = seed is not None and not is_int(seed)  # a Generator (check_seed refuses the rest)
    if seed is None:
        seed = secrets.randbits(63)
    rng = check_seed(seed)
    state = VinteEUmState(config, rng)
    if saved is not None:
        state._stocks = [[card_of(c) for c in stock] for stock in saved["stocks"]]
        state._lots = list(saved["lots"])
    state.banker = check_banker(banker, config, rng)
    state._log("game_start", players=config["players"], banker=state.banker,
               chips=list(state.chips), ace=config["ace"], decks=config["decks"],
               rotation=config["rotation"])
    chosen = None if deal is None else _deal_first(state, *deal)
    if deal is None:
        state._start_round()
    state._setup = saved if saved is not None else {
        "players": config["players"],
        "options": {key: config[key] for key in CONFIG_KEYS if key != "players"},  # type: ignore[literal-required]  # CONFIG_KEYS are Config's keys
        "banker": banker if banker is None else int(banker), "deal": chosen,
        # not shared: `seed` is a whole number (check_seed refused anything else)
        "seed": None if shared else int(seed), "rng": None, "stocks": [], "lots": []}  # type: ignore[arg-type]
    return state
