"""Who is answering: a learner's name, optional class code and anonymous browser id.

Decided rules:
- A name is plain text: control and bidi-override characters are dropped, runs of white space
  become one space, and it is cut to MAX_NAME (40) characters. Whoever shows it escapes it.
- A class code is letters and digits from CODE_ALPHABET (no 0/O, 1/I/L), upper-cased, with
  spaces and dashes ignored; it is CODE_LENGTH (6) characters long.
- A browser id is 8 to 64 letters, digits or dashes, drawn at random by the browser.
- A learner's key: in a class, the class code plus the case-folded name as she first wrote it
  (her stored id); without a class, the browser id (progress for that browser only, as a learner
  alone on Binder; a name typed without a class is only a label for that browser).
- One learner per name in a class, names compared by `classroom.values.name_key` (no case,
  accents or repeated spaces: "ana  luisa" is "Ana Luísa"), kept in `learners.name_key`, unique
  per class in the store (so two kernels joining as "Célia" and "celia" at once make one
  learner). Her name stays as she first wrote it. Learners a store held before the key whose
  names compare equal stay as they were (see classroom.progress, migration 4).

Verified learners (docs/rules.md#verified-learners). Nothing the browser sends is trusted as a
name, a class or a seat: a learner of a class is whoever holds one of her secrets, checked here
against the store.
- Joining a class takes a name that is free in that class and a PIN of PIN_DIGITS (4 to 6)
  digits she chooses. She gets a device token (TOKEN_BYTES random bytes from `secrets`, kept in
  her browser); the store keeps only its SHA-256, and the PIN only as scrypt with a salt of her
  own (a PIN is short, so its hash must be slow).
- A second device types the same name (as compared above) with her PIN and gets a device token
  of its own. A taken name with a wrong PIN is refused with "the name is taken, type your PIN"
  ("name_like" when it was written with other accents: "ana luisa" is Ana Luísa's). Wrong PINs
  are limited by classroom.attempts, counted for the guesser first (its browser) and for the
  learner: PIN_FAILURES wrong PINs from one browser make that browser wait ("pin_locked"); her
  own right PIN from her own browser always passes; the learner's count slows only pages the
  server does not know yet ("pin_reload": reload the page).
- A learner stored before verification existed has no PIN: the first browser that joins with
  her name and a PIN claims her (the teacher sees her in the class view and can remove her).
- A login card holds a login code: the class code and CARD_SECRET characters of CODE_ALPHABET
  (about 40 bits), kept in the store only as SHA-256. Signing in with it gives a device token;
  the card stays good until the teacher prints a new card for that learner (which revokes the
  old one), resets her PIN, or removes her. Login codes that match nobody are counted by
  classroom.attempts for the guesser (its browser) and the class: CARD_FAILURES of them make
  that browser wait ("card_locked"); the class's count slows only pages the server does not
  know yet ("card_reload"); a classmate's valid card always passes.
- Every use (a progress write, sitting or moving at a table) checks the token again, so a
  removed learner's devices stop at once and a merged one's follow her into the learner kept.
- The teacher (with the class's teacher key, see classroom.classes) can print cards (for the
  learners without one, for chosen learners, or new ones for the whole class), reset a
  PIN (a new random PIN is drawn and shown once; her card and devices are signed out, so
  whoever learned the old PIN is out too), merge one learner into another (answers and
  counters added up, devices and card follow) and remove a learner (her answers, devices and
  card go with her).
- The dashboards ask through `LearnerService` (`StoreLearners` over this store), so a class
  service can stand in for the store without the widgets changing.
- Guess limits go through the shared limiter (classroom.attempts, docs/rules.md#guess-limits);
  the old `login_attempts` table is no longer written.
"""
from __future__ import annotations

import hashlib
import hmac
import math
import re
import secrets
import time
import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from . import attempts
from .values import name_key

if TYPE_CHECKING:  # the store is passed in; only its type is named here
    from .store import Store, Transaction

MAX_NAME = 40
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
_BIDI = {chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F, 0x061C)}
_BROWSER_ID = re.compile(r"[A-Za-z0-9-]{8,64}")


def clean_name(text, longest: int | None = MAX_NAME) -> str:
    """The name as it will be stored and shown (before HTML escaping); cut at `longest`
    characters (None: never, for a caller that refuses what is too long instead)."""
    if not isinstance(text, str):
        return ""
    kept = "".join(" " if ch.isspace() else ch for ch in unicodedata.normalize("NFC", text)
                   if ch.isspace() or (unicodedata.category(ch)[0] != "C" and ch not in _BIDI))
    return " ".join(kept.split())[:longest].strip()


def clean_code(text) -> str:
    """The class code typed by a learner, normalised; "" for none. ValueError if malformed."""
    if not isinstance(text, str):
        return ""
    code = re.sub(r"[\s-]", "", text).upper()
    if not code:
        return ""
    if len(code) != CODE_LENGTH or any(ch not in CODE_ALPHABET for ch in code):
        raise ValueError(f"a class code has {CODE_LENGTH} letters and digits, not {text[:20]!r}")
    return code


def clean_browser_id(text) -> str:
    if isinstance(text, str) and _BROWSER_ID.fullmatch(text):
        return text
    raise ValueError("a browser id is 8 to 64 letters, digits or dashes")


def fold(name: str) -> str:
    return unicodedata.normalize("NFKC", name).casefold()


@dataclass(frozen=True)
class Learner:
    browser_id: str
    name: str = ""
    class_code: str = ""

    @classmethod
    def make(cls, browser_id, name="", class_code="") -> Learner:
        """A learner from untrusted input: cleaned, ValueError for a bad id or code."""
        return cls(clean_browser_id(browser_id), clean_name(name), clean_code(class_code))

    @property
    def key(self) -> str:
        return learner_key(self.class_code, self.name) if self.class_code else f"b:{self.browser_id}"


def learner_key(class_code: str, name: str) -> str:
    """The stored id of the learner called `name` in class `class_code`."""
    return f"n:{class_code}:{fold(name)}"


# Verified learners ------------------------------------------------------------------------
PIN_DIGITS = (4, 6)
TOKEN_BYTES = 32
CARD_SECRET = 8
PIN_FAILURES = attempts.PIN_LIMIT
CARD_FAILURES = attempts.LIMIT
SCRYPT = {"n": 2 ** 14, "r": 8, "p": 1}
_TOKEN = re.compile(r"[A-Za-z0-9_-]{32,64}")


class IdentityError(ValueError):
    """A refusal a learner or teacher reads: `code` names it (widgets.components.learner and
    widgets.components.roster hold its sentences in Portuguese and English), `fields` fill them in."""

    def __init__(self, code: str, /, **fields):
        super().__init__(code, fields)
        self.code = code
        self.fields = fields


@dataclass(frozen=True)
class Joined:
    """A learner signed in on a device: `token` goes to the device, never to the store."""

    learner: Learner
    token: str
    new: bool = False


@dataclass(frozen=True)
class Card:
    """One learner's login card, as printed: `code` is shown once and stored only hashed."""

    learner_id: str
    name: str
    class_code: str
    code: str


def clean_pin(text) -> str:
    """The PIN as typed: PIN_DIGITS digits; IdentityError("bad_pin") otherwise."""
    pin = re.sub(r"\s", "", text) if isinstance(text, str) else ""
    if not (PIN_DIGITS[0] <= len(pin) <= PIN_DIGITS[1]) or not pin.isascii() or not pin.isdigit():
        raise IdentityError("bad_pin", low=PIN_DIGITS[0], high=PIN_DIGITS[1])
    return pin


def hash_pin(pin: str, salt: bytes | None = None) -> str:
    salt = secrets.token_bytes(16) if salt is None else salt
    digest = hashlib.scrypt(pin.encode(), salt=salt, dklen=32, **SCRYPT)
    return f"scrypt${SCRYPT['n']}${SCRYPT['r']}${SCRYPT['p']}${salt.hex()}${digest.hex()}"


def pin_matches(pin: str, stored: str) -> bool:
    try:
        scheme, n, r, p, salt, digest = stored.split("$")
        params = {"n": int(n), "r": int(r), "p": int(p)}
        salt_bytes = bytes.fromhex(salt)
    except ValueError:
        return False
    if scheme != "scrypt":
        return False
    candidate = hashlib.scrypt(pin.encode(), salt=salt_bytes, dklen=32, **params)
    return hmac.compare_digest(candidate.hex(), digest)


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def clean_token(text) -> str:
    """A device token as the browser kept it; "" when it cannot be one."""
    return text if isinstance(text, str) and _TOKEN.fullmatch(text) else ""


def clean_login_code(text) -> tuple[str, str]:
    """(class code, whole code) of a login code as typed or linked; IdentityError otherwise."""
    code = re.sub(r"[\s-]", "", text).upper() if isinstance(text, str) else ""
    if (len(code) != CODE_LENGTH + CARD_SECRET or any(ch not in CODE_ALPHABET for ch in code)):
        raise IdentityError("bad_login_code")
    return code[:CODE_LENGTH], code


def show_login_code(code: str) -> str:
    """A login code as printed: the class code, then the secret in groups of four."""
    secret = code[CODE_LENGTH:]
    return "-".join([code[:CODE_LENGTH], *(secret[i:i + 4] for i in range(0, len(secret), 4))])


# Guess limits: classroom.attempts, the guesser counted first (docs/rules.md#guess-limits)
def _guesses(store: Store, class_code: str = "", guessed=()) -> tuple[attempts.Attempts, list[str]]:
    """The lessons' limiter on `store`, and the scopes of a try from this kernel's source."""
    return attempts.limiter(store), attempts.scopes(class_code, guessed=guessed)


def _check_guesses(limiter: attempts.Attempts, kind: str, where: list[str], what: str, **fields) -> None:
    """IdentityError `what`_locked (this source waits) or `what`_reload (an unknown source,
    held back by a shared count: reloading the page makes it known) while a wait applies."""
    try:
        limiter.check(kind, where)
    except attempts.TooManyTries as wait:
        minutes = max(1, math.ceil(wait.wait / 60))
        raise IdentityError(f"{what}_reload" if wait.unknown else f"{what}_locked", minutes=minutes,
                            **fields) from None


def _new_token(tx: Transaction, learner_id: str, now: float) -> str:
    token = secrets.token_urlsafe(TOKEN_BYTES)
    tx.execute("INSERT INTO learner_tokens (token_hash, learner_id, created_at, used_at) VALUES (?, ?, ?, ?)",
               (_digest(token), learner_id, now, now))
    return token


def join(store: Store, class_code, name, pin, browser_id) -> Joined:
    """Join class `class_code` as `name` with `pin`, or sign in as her on this device when the
    name is hers (the PIN matches; names compare by `name_key`). IdentityError: bad_name,
    bad_code, no_class, bad_pin, name_taken or name_like (a wrong PIN for the name, as written
    or written another way), pin_locked (too many wrong PINs)."""
    browser_id = clean_browser_id(browser_id)
    name = clean_name(name)
    if not name:
        raise IdentityError("bad_name")
    try:
        code = clean_code(class_code)
    except ValueError:
        raise IdentityError("bad_code") from None
    if not code:
        raise IdentityError("bad_code")
    pin = clean_pin(pin)
    compared = name_key(name)
    fresh_hash = hash_pin(pin)  # before the transaction: scrypt is slow on purpose
    now = time.time()
    with store.transaction() as tx:
        if tx.execute("SELECT 1 FROM classes WHERE code = ?", (code,)).fetchone() is None:
            raise IdentityError("no_class", code=code)
        row = _named(tx, code, name, compared)
        if row is None:
            key = learner_key(code, name)
            # no conflict target: the id, or the (class, name key) another kernel took just now
            made = tx.execute("INSERT INTO learners (id, name, class_code, created_at, last_seen, pin_hash, "
                              "name_key) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                              (key, name, code, now, now, fresh_hash, compared)).rowcount
            if made:
                return Joined(Learner(browser_id, name, code), _new_token(tx, key, now), new=True)
            row = _named(tx, code, name, compared)
            if row is None:
                raise IdentityError("name_taken", name=name)
        key, stored_name, stored_hash = row
        if not stored_hash:  # stored before verification: the first to come with a PIN claims her
            tx.execute("UPDATE learners SET pin_hash = ? WHERE id = ?", (fresh_hash, key))
            return Joined(Learner(browser_id, stored_name, code), _new_token(tx, key, now), new=True)
    limiter, where = _guesses(store, guessed=[f"learner:{key}"])
    _check_guesses(limiter, attempts.PIN, where, "pin", name=stored_name)
    if not pin_matches(pin, stored_hash):
        limiter.failed(attempts.PIN, where)
        if fold(stored_name) != fold(name):  # written with other accents (capitals alone: the same name)
            raise IdentityError("name_like", name=stored_name, typed=name)
        raise IdentityError("name_taken", name=stored_name)
    with store.transaction() as tx:
        if tx.execute("SELECT 1 FROM learners WHERE id = ?", (key,)).fetchone() is None:
            raise IdentityError("name_taken", name=stored_name)  # removed meanwhile
        return Joined(Learner(browser_id, stored_name, code), _new_token(tx, key, time.time()))


def _named(tx: Transaction, code: str, name: str, compared: str) -> tuple[str, str, str] | None:
    """(id, name, PIN hash) of the learner of class `code` whose name compares as `compared`
    (`name_key`), or None. A learner whose row has no key (made by a progress record after the
    teacher removed her, or left without one by migration 4) is found by her id, the name as
    written, and takes the key."""
    row = tx.execute("SELECT id, name, pin_hash FROM learners WHERE class_code = ? AND name_key = ?",
                     (code, compared)).fetchone()
    if row is not None:
        return row[0], row[1], row[2]
    key = learner_key(code, name)
    row = tx.execute("SELECT id, name, pin_hash FROM learners WHERE id = ? AND class_code = ?", (key, code)).fetchone()
    if row is None:
        return None
    tx.execute("UPDATE learners SET name_key = ? WHERE id = ? AND name_key IS NULL", (compared, key))
    return row[0], row[1], row[2]


def sign_in_with_card(store: Store, login_code, browser_id) -> Joined:
    """Sign in on this device with a login card's code. IdentityError: bad_login_code,
    unknown_card, card_locked."""
    browser_id = clean_browser_id(browser_id)
    code_class, code = clean_login_code(login_code)
    limiter, where = _guesses(store, class_code=code_class)
    _check_guesses(limiter, attempts.LOGIN_CARD, where, "card")
    with store.transaction() as tx:
        row = tx.execute("SELECT l.id, l.name, l.class_code FROM learner_cards c "
                         "JOIN learners l ON l.id = c.learner_id WHERE c.code_hash = ?",
                         (_digest(code),)).fetchone()
        if row is not None:
            return Joined(Learner(browser_id, row[1], row[2]), _new_token(tx, row[0], time.time()))
    limiter.failed(attempts.LOGIN_CARD, where)
    raise IdentityError("unknown_card")


def check(store: Store, token, browser_id) -> Learner | None:
    """The learner whose device token `token` is, or None (no such token: signed out,
    removed, or never issued). StoreError when the store cannot say."""
    token = clean_token(token)
    if not token:
        return None
    with store.transaction(write=False) as tx:
        row = tx.execute("SELECT l.name, l.class_code FROM learner_tokens t "
                         "JOIN learners l ON l.id = t.learner_id WHERE t.token_hash = ?",
                         (_digest(token),)).fetchone()
    return Learner(clean_browser_id(browser_id), row[0], row[1]) if row else None


def sign_out(store: Store, token) -> None:
    """Forget this device's token (the learner's other devices stay signed in)."""
    token = clean_token(token)
    if token:
        with store.transaction() as tx:
            tx.execute("DELETE FROM learner_tokens WHERE token_hash = ?", (_digest(token),))


# The teacher's tools (the caller has opened the class with its teacher key) ---------------
def _in_class(tx: Transaction, class_code: str, learner_id: str) -> str:
    row = tx.execute("SELECT name FROM learners WHERE id = ? AND class_code = ?",
                     (learner_id, class_code)).fetchone()
    if row is None:
        raise IdentityError("not_in_class")
    return row[0]


def print_cards(store: Store, class_code: str, learner_ids=None, missing_only: bool = False) -> list[Card]:
    """New login cards for the learners of the class (all, or those in `learner_ids`), by
    name; each revokes that learner's previous card, and only hers. `missing_only`: only for
    those who have no card yet (so nobody's card is revoked)."""
    now = time.time()
    cards = []
    with store.transaction() as tx:
        without = " AND id NOT IN (SELECT learner_id FROM learner_cards)" if missing_only else ""
        people = tx.execute(f"SELECT id, name FROM learners WHERE class_code = ?{without} ORDER BY name, id",
                            (class_code,)).fetchall()
        wanted = None if learner_ids is None else set(learner_ids)
        for learner_id, name in people:
            if wanted is not None and learner_id not in wanted:
                continue
            code = class_code + "".join(secrets.choice(CODE_ALPHABET) for _ in range(CARD_SECRET))
            tx.execute("INSERT INTO learner_cards (learner_id, class_code, code_hash, created_at) "
                       "VALUES (?, ?, ?, ?) ON CONFLICT (learner_id) DO UPDATE SET "
                       "code_hash = excluded.code_hash, created_at = excluded.created_at",
                       (learner_id, class_code, _digest(code), now))
            cards.append(Card(learner_id, name, class_code, code))
    return cards


def reset_pin(store: Store, class_code: str, learner_id: str) -> str:
    """Draw a new PIN for a learner (returned, to be told to her once); her old PIN, her card
    and every device signed in as her stop working (whoever learned the old PIN is out too),
    and her guess count starts again."""
    pin = "".join(secrets.choice("0123456789") for _ in range(PIN_DIGITS[1]))
    stored = hash_pin(pin)
    with store.transaction() as tx:
        _in_class(tx, class_code, learner_id)
        tx.execute("UPDATE learners SET pin_hash = ? WHERE id = ?", (stored, learner_id))
        tx.execute("DELETE FROM learner_cards WHERE learner_id = ?", (learner_id,))
        tx.execute("DELETE FROM learner_tokens WHERE learner_id = ?", (learner_id,))
    attempts.limiter(store).forget(attempts.PIN, f"learner:{learner_id}")
    return pin


def merge(store: Store, class_code: str, source_id: str, target_id: str) -> None:
    """Merge learner `source_id` into `target_id` (both of the class): her answers and
    counters are added to the target's, her devices sign in as the target from now on, her
    card is revoked, and she is removed."""
    if source_id == target_id:
        raise IdentityError("merge_self")
    with store.transaction() as tx:
        _in_class(tx, class_code, source_id)
        _in_class(tx, class_code, target_id)
        tx.execute("INSERT INTO progress (learner_id, lesson, right_count, asked_count, last_at) "
                   "SELECT ?, lesson, right_count, asked_count, last_at FROM progress WHERE learner_id = ? "
                   "ON CONFLICT (learner_id, lesson) DO UPDATE SET "
                   "right_count = progress.right_count + excluded.right_count, "
                   "asked_count = progress.asked_count + excluded.asked_count, "
                   "last_at = CASE WHEN excluded.last_at > progress.last_at THEN excluded.last_at "
                   "ELSE progress.last_at END", (target_id, source_id))
        tx.execute("UPDATE answers SET learner_id = ? WHERE learner_id = ?", (target_id, source_id))
        tx.execute("UPDATE homework_results SET learner_id = ? WHERE learner_id = ? AND NOT EXISTS ("
                   "SELECT 1 FROM homework_results t WHERE t.learner_id = ? AND "
                   "t.assignment_id = homework_results.assignment_id AND t.item = homework_results.item)",
                   (target_id, source_id, target_id))  # the target's own result stays where both did it
        tx.execute("UPDATE learner_tokens SET learner_id = ? WHERE learner_id = ?", (target_id, source_id))
        _forget(tx, source_id, keep_tokens=True)


def remove(store: Store, class_code: str, learner_id: str) -> bool:
    """Remove a learner of the class with her answers, devices and card; False if she is not
    in that class."""
    with store.transaction() as tx:
        try:
            _in_class(tx, class_code, learner_id)
        except IdentityError:
            return False
        _forget(tx, learner_id)
    return True


def _forget(tx: Transaction, learner_id: str, keep_tokens: bool = False) -> None:
    tx.execute("DELETE FROM progress WHERE learner_id = ?", (learner_id,))
    tx.execute("DELETE FROM answers WHERE learner_id = ?", (learner_id,))
    tx.execute("DELETE FROM homework_results WHERE learner_id = ?", (learner_id,))  # classroom.homework
    tx.execute("DELETE FROM learner_cards WHERE learner_id = ?", (learner_id,))
    if not keep_tokens:
        tx.execute("DELETE FROM learner_tokens WHERE learner_id = ?", (learner_id,))
    tx.execute("DELETE FROM login_attempts WHERE scope = ? AND subject = ?", ("pin", learner_id))
    tx.execute("DELETE FROM learners WHERE id = ?", (learner_id,))


# The interface the widgets use --------------------------------------------------------------
class LearnerService(Protocol):
    """What the dashboards ask about learners. `StoreLearners` answers from this store; a
    class service (a JupyterHub service, say) can answer the same questions its own way. The
    widgets hold tokens and codes only to pass them on: hashes never leave the service."""

    def join(self, class_code, name, pin, browser_id) -> Joined: ...
    def sign_in_with_card(self, login_code, browser_id) -> Joined: ...
    def check(self, token, browser_id) -> Learner | None: ...
    def sign_out(self, token) -> None: ...
    def print_cards(self, class_code: str, learner_ids=None, missing_only: bool = False) -> list[Card]: ...
    def reset_pin(self, class_code: str, learner_id: str) -> str: ...
    def merge(self, class_code: str, source_id: str, target_id: str) -> None: ...
    def remove(self, class_code: str, learner_id: str) -> bool: ...


@dataclass(frozen=True)
class StoreLearners:
    """The LearnerService of one store (the functions above)."""

    store: Store

    def join(self, class_code, name, pin, browser_id) -> Joined:
        return join(self.store, class_code, name, pin, browser_id)

    def sign_in_with_card(self, login_code, browser_id) -> Joined:
        return sign_in_with_card(self.store, login_code, browser_id)

    def check(self, token, browser_id) -> Learner | None:
        return check(self.store, token, browser_id)

    def sign_out(self, token) -> None:
        sign_out(self.store, token)

    def print_cards(self, class_code: str, learner_ids=None, missing_only: bool = False) -> list[Card]:
        return print_cards(self.store, class_code, learner_ids, missing_only)

    def reset_pin(self, class_code: str, learner_id: str) -> str:
        return reset_pin(self.store, class_code, learner_id)

    def merge(self, class_code: str, source_id: str, target_id: str) -> None:
        merge(self.store, class_code, source_id, target_id)

    def remove(self, class_code: str, learner_id: str) -> bool:
        return remove(self.store, class_code, learner_id)
