"""Classes: a short code for learners and a teacher key kept only as a salted hash.

Decided rules:
- A class code is 6 characters from CODE_ALPHABET (readable: no 0/O, 1/I/L), drawn by
  `secrets`; a clash with an existing class draws again.
- The teacher key is 16 characters of the same alphabet in groups of four (about 79 bits),
  shown once when the class is created. The store keeps PBKDF2-SHA256 of it (random salt,
  ITERATIONS rounds), never the key.
- Opening the class view needs the code and the key. A wrong key and an unknown code are
  refused with the same message, so the refusal tells nothing about which classes exist.
- Guessing is limited (classroom.attempts): ten wrong tries in a minute from one browser, or
  for one class, start a growing wait, during which every try is refused (TooManyTries)
  before any key is hashed.
"""
from __future__ import annotations

import hashlib
import hmac
import secrets
import time

from . import attempts
from .attempts import Attempts
from .identity import CODE_ALPHABET, CODE_LENGTH, clean_code, clean_name
from .store import Store
from .values import NewClass, NotAllowed

ITERATIONS = 120_000
KEY_GROUPS = 4


def _draw(n: int) -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(n))


def hash_key(key: str, salt: bytes | None = None) -> str:
    salt = secrets.token_bytes(16) if salt is None else salt
    digest = hashlib.pbkdf2_hmac("sha256", _norm_key(key).encode(), salt, ITERATIONS)
    return f"pbkdf2_sha256${ITERATIONS}${salt.hex()}${digest.hex()}"


def _norm_key(key: str) -> str:
    return "".join(ch for ch in str(key).upper() if ch.isalnum())


def key_matches(key: str, stored: str) -> bool:
    try:
        scheme, rounds_text, salt, digest = stored.split("$")
        rounds = int(rounds_text)
    except ValueError:
        return False
    if scheme != "pbkdf2_sha256":
        return False
    candidate = hashlib.pbkdf2_hmac("sha256", _norm_key(key).encode(), bytes.fromhex(salt), rounds)
    return hmac.compare_digest(candidate.hex(), digest)


def create_class(store: Store, title: str) -> NewClass:
    title = clean_name(title)
    if not title:
        raise ValueError("give the class a name")
    key = "-".join(_draw(4) for _ in range(KEY_GROUPS))
    stored = hash_key(key)
    for _ in range(20):
        code = _draw(CODE_LENGTH)
        with store.transaction() as tx:
            made = tx.execute("INSERT INTO classes (code, title, key_hash, created_at) "
                              "VALUES (?, ?, ?, ?) ON CONFLICT (code) DO NOTHING",
                              (code, title, stored, time.time())).rowcount
        if made:
            return NewClass(code, key, title)
    raise RuntimeError("could not draw a free class code")  # pragma: no cover - 1e-9 odds


def class_title(store: Store, code: str) -> str | None:
    """The title of class `code`, or None if there is no such class."""
    with store.transaction(write=False) as tx:
        row = tx.execute("SELECT title FROM classes WHERE code = ?", (code,)).fetchone()
    return row[0] if row else None


def open_class(store: Store, code: str, key: str, limiter: Attempts | None = None) -> NewClass:
    """The class, if `key` is its teacher key; NotAllowed otherwise, TooManyTries while this
    browser or this class waits (`limiter`: default, the lessons' own, on `store`). Under
    JupyterHub (`store` is the class service's client) a class is a hub group and the
    service checks that the hub user teaches: `key` is not asked for."""
    if getattr(store, "remote", False):
        return store.open_class(code)  # type: ignore[attr-defined]
    try:
        code = clean_code(code)
    except ValueError:
        code = ""
    limiter = attempts.limiter(store) if limiter is None else limiter
    where = attempts.scopes(code)
    limiter.check(attempts.TEACHER_KEY, where)
    try:
        return _open_class(store, code, key)
    except NotAllowed:
        limiter.failed(attempts.TEACHER_KEY, where)
        raise


def _open_class(store: Store, code: str, key: str) -> NewClass:
    row = None
    if code:
        with store.transaction(write=False) as tx:
            row = tx.execute("SELECT title, key_hash FROM classes WHERE code = ?", (code,)).fetchone()
    if row is None or not key or not key_matches(key, row[1]):
        raise NotAllowed("wrong class code or teacher key")
    return NewClass(code, "", row[0])
