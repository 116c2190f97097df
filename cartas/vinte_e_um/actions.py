"""Actions: small immutable values, one per choice the rules give a seat."""
from __future__ import annotations

from dataclasses import dataclass

from .catalogue import CATALOGUE
from .errors import IllegalAction, shown

# kind -> what follows it in str(): "amount", "seat" or nothing
KINDS: dict[str, str | None] = {
    "bet": "amount",          # a player stakes chips on his first card
    "hit": None,              # a player asks for another card
    "stand": None,            # a player stops
    "draw": None,             # the banker takes another card
    "call": "seat",           # the banker compares with a chosen player
    "take_bank": None,        # "rounds" mode: accept the bank when offered
    "refuse_bank": None,
    "bid": "amount",          # "auction" mode: chips offered to the banker for the bank
    "pass": None,             # "auction"/"sale" mode: no bid or offer
    "offer": "amount",        # "sale" mode: chips offered to the banker for the bank
    "accept_offer": None,     # "sale" mode: the banker's answer
    "refuse_offer": None,
}


@dataclass(frozen=True, slots=True)
class Action:
    kind: str
    amount: int | None = None
    seat: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.kind, str) or self.kind not in KINDS:
            raise IllegalAction("unknown_action", text=shown(self.kind))
        needs = KINDS[self.kind]
        for field in ("amount", "seat"):
            value = getattr(self, field)
            if field == needs:
                if not isinstance(value, int) or isinstance(value, bool):
                    raise IllegalAction("needs_field", kind=self.kind, field=field)
            elif value is not None:
                raise IllegalAction("takes_no_field", kind=self.kind, field=field)

    # constructors (an action with a small whole number is one shared value: `_numbered`)
    @classmethod
    def bet(cls, amount: int) -> Action:
        return _numbered(cls, "bet", amount)

    @classmethod
    def call(cls, seat: int) -> Action:
        return _numbered(cls, "call", seat)

    @classmethod
    def bid(cls, amount: int) -> Action:
        return _numbered(cls, "bid", amount)

    @classmethod
    def offer(cls, amount: int) -> Action:
        return _numbered(cls, "offer", amount)

    def __str__(self) -> str:
        arg = self.amount if self.amount is not None else self.seat
        return self.kind if arg is None else f"{self.kind} {arg}"

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"

    def describe(self, lang: str = "pt") -> str:
        """The action's name in `lang`, from the 21 catalogue ("apostar 3 fichas")."""
        fields = {"n": self.amount, "n_s": "" if self.amount == 1 else "s", "seat": self.seat}
        return CATALOGUE.say("action." + self.kind, lang, **fields)

    @classmethod
    def parse(cls, text: object) -> Action:
        """Read the str() form back: "bet 3", "hit", "call 2", "take_bank" ("take bank" too)."""
        if isinstance(text, Action):
            return text
        if not isinstance(text, str) or len(text) > 40:
            raise IllegalAction("not_readable", text=shown(text))
        words = text.strip().lower().replace("-", "_").split()
        number = None
        if words and words[-1].lstrip("-").isdigit():
            number = int(words.pop())
        kind = "_".join(words)
        if kind not in KINDS:
            raise IllegalAction("unknown_action", text=shown(text))
        needs = KINDS[kind]
        if needs is None and number is not None:
            raise IllegalAction("takes_no_number", kind=kind, text=shown(text))
        if needs is not None and number is None:
            raise IllegalAction("needs_number", kind=kind)
        return cls(kind) if number is None else _numbered(cls, kind, number)


# (kind, number) -> the one Action of that kind and number, for numbers up to SHARED_UP_TO: the
# legal actions of every turn (bets 1..max_bet, calls of each seat, bids and offers) are built
# once, not on every turn. An Action is immutable, so sharing one changes nothing a caller sees.
SHARED_UP_TO = 1_000
_SHARED: dict[tuple[str, int], Action] = {}


def _numbered(cls: type[Action], kind: str, number: int) -> Action:
    """`cls(kind, amount=number)` (or `seat=number` for a call), shared when it is an Action
    with a whole number 0..SHARED_UP_TO; anything else is built (and checked) as it is."""
    if cls is not Action or type(number) is not int or not 0 <= number <= SHARED_UP_TO:
        return cls(kind, **{KINDS[kind] or "amount": number})
    key = (kind, number)
    found = _SHARED.get(key)
    if found is None:
        found = _SHARED[key] = cls(kind, **{KINDS[kind] or "amount": number})
    return found


HIT = Action("hit")
STAND = Action("stand")
DRAW = Action("draw")
TAKE_BANK = Action("take_bank")
REFUSE_BANK = Action("refuse_bank")
PASS = Action("pass")
ACCEPT_OFFER = Action("accept_offer")
REFUSE_OFFER = Action("refuse_offer")
