"""Classes: a short code for learners and a teacher key kept only as a salted hash.

Decided rules:
- A class code is 6 characters from CODE_ALPHABET (readable: no 0/O, 1/I/L), drawn by
  `secrets`; a clash with an existing class draws again.
- The teacher key is 16 characters of the same alphabet in groups of four (about 79 bits),
  shown once when the class is created. The store keeps PBKDF2-SHA256 of it (random salt,
  ITERATIONS rounds), never the key.
- Opening the class view needs the code and the key. A wrong key and an unknown code are
  refused with the same message, so the refusal tells nothing about which classes exist.
- Guessing is limited (classroom.attempts, docs/rules.md#guess-limits): ten wrong tries in a
  minute from one browser start a growing wait for that browser, during which its every try is
  refused (TooManyTries) before any key is hashed; the class's own count only holds back pages
  the server does not know yet, so the real teacher's key, from her browser, always opens.
- "Lembrar neste aparelho" (remember on this device): after the key opened the class, the
  teacher's browser may keep a device token (DEVICE_TOKEN_BYTES random bytes from `secrets`)
  for that one class; the key itself never goes to the browser. The store keeps only the
  token's SHA-256, with its class, in `teacher_devices` (component "teacher_devices", the
  lead's migration 8). A token opens only its own class, and stops working once it is
  forgotten on its device ("esquecer"), after DEVICE_IDLE_DAYS unused, or when the teacher,
  with her key, forgets every device of the class (what she does when one is stolen).
"""
from __future__ import annotations

import hashlib
import hmac
import secrets
import time

from . import attempts
from .attempts import Attempts
from .identity import CODE_ALPHABET, CODE_LENGTH, clean_code, clean_name
from .store import Migrations, Store
from .values import NewClass, NotAllowed

ITERATIONS = 120_000
KEY_GROUPS = 4
DEVICE_TOKEN_BYTES = 32
DEVICE_IDLE_DAYS = 120

DEVICE_MIGRATIONS = Migrations("teacher_devices", [
    # 1 (the lead's migration 8): remembered teacher devices, one row per device and class
    ("CREATE TABLE teacher_devices (token_hash TEXT PRIMARY KEY, class_code TEXT NOT NULL, "
     "created_at DOUBLE PRECISION NOT NULL, used_at DOUBLE PRECISION NOT NULL)",
     "CREATE INDEX teacher_devices_by_class ON teacher_devices (class_code)"),
])


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
    browser or this class waits (`limiter`: default, the lessons' own, on `store`). (Under
    JupyterHub a class is a hub group and the service checks that the hub user teaches:
    `classroom.open()` asks it, without a key.)"""
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


# Remembered devices -------------------------------------------------------------------------
def _device_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _clean_device_token(token) -> str:
    """A device token as the browser kept it; "" when it cannot be one (never trusted)."""
    if not isinstance(token, str) or not 20 <= len(token) <= 100:
        return ""
    return token if all(ch.isalnum() or ch in "-_" for ch in token) else ""


def remember_device(store: Store, code: str, key: str, limiter: Attempts | None = None) -> str:
    """A new device token for class `code`, given its teacher key (checked, and limited, as
    by `open_class`); the store keeps only its hash. NotAllowed for a wrong key."""
    made = open_class(store, code, key, limiter)
    store.migrate(DEVICE_MIGRATIONS)
    token = secrets.token_urlsafe(DEVICE_TOKEN_BYTES)
    now = time.time()
    with store.transaction() as tx:
        tx.execute("INSERT INTO teacher_devices (token_hash, class_code, created_at, used_at) "
                   "VALUES (?, ?, ?, ?)", (_device_digest(token), made.code, now, now))
    return token


def open_with_device(store: Store, code: str, token, now: float | None = None) -> NewClass:
    """Class `code`, if `token` is a device token the store keeps for it and it was used in
    the last DEVICE_IDLE_DAYS; NotAllowed otherwise (an idle token is deleted)."""
    token = _clean_device_token(token)
    try:
        code = clean_code(code)
    except ValueError:
        code = ""
    if not token or not code:
        raise NotAllowed("this device is not remembered for that class")
    store.migrate(DEVICE_MIGRATIONS)
    now = time.time() if now is None else now
    digest = _device_digest(token)
    with store.transaction() as tx:
        row = tx.execute("SELECT d.used_at, c.title FROM teacher_devices d JOIN classes c ON c.code = d.class_code "
                         "WHERE d.token_hash = ? AND d.class_code = ?", (digest, code)).fetchone()
        if row is not None and now - float(row[0]) > DEVICE_IDLE_DAYS * 86400:
            tx.execute("DELETE FROM teacher_devices WHERE token_hash = ?", (digest,))
            row = None
        elif row is not None:
            tx.execute("UPDATE teacher_devices SET used_at = ? WHERE token_hash = ?", (now, digest))
    if row is None:  # after the transaction, so that an idle token's deletion is kept
        raise NotAllowed("this device is not remembered for that class")
    return NewClass(code, "", row[1])


def forget_device(store: Store, token) -> None:
    """This device's token stops opening its class (the class's other devices stay)."""
    token = _clean_device_token(token)
    if token:
        store.migrate(DEVICE_MIGRATIONS)
        with store.transaction() as tx:
            tx.execute("DELETE FROM teacher_devices WHERE token_hash = ?", (_device_digest(token),))


def remembered_devices(store: Store, code: str) -> int:
    """How many devices class `code` is remembered on."""
    store.migrate(DEVICE_MIGRATIONS)
    with store.transaction(write=False) as tx:
        row = tx.execute("SELECT COUNT(*) FROM teacher_devices WHERE class_code = ?", (code,)).fetchone()
    return int(row[0])


def forget_every_device(store: Store, code: str, key: str, limiter: Attempts | None = None) -> int:
    """With the teacher key (checked as by `open_class`), every device token of class `code`
    stops working, a stolen one included; returns how many were forgotten."""
    made = open_class(store, code, key, limiter)
    store.migrate(DEVICE_MIGRATIONS)
    with store.transaction() as tx:
        return int(tx.execute("DELETE FROM teacher_devices WHERE class_code = ?", (made.code,)).rowcount)
