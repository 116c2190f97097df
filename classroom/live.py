"""The live class quiz (aula ao vivo): sessions, questions and answers, kept in the store.

Pure Python; never imports Jupyter. Every call takes and returns plain values (str, int,
float, dicts and lists of them), so the projector's and the phones' kernels can use
`StoreLiveQuiz` in-process and a class service can serve the same `LiveQuiz` interface
remotely.

Decided rules (docs/rules.md#live-quiz-points):

- A session belongs to one class and is started with the class's teacher key
  (`classroom.classes.open_class`); it gets a join code (`CODE_LENGTH` characters of
  `identity.CODE_ALPHABET`) and a host token, shown once to the projector's kernel, whose
  SHA-256 only is stored. Asking, closing and ending take that token.
- A learner joins with her verified identity (the caller checks her device token, see
  `classroom.identity`) and only a session of her own class. Joining again (a reload, another
  device) keeps her points. A learner who joins enters at the next question asked: the
  question already on the projector, if any, refuses her answer with `next_question`.
- One answer per learner per question: the table's primary key (question, learner) refuses
  the second one (`already_answered`), so no answer is ever counted twice, whatever many
  kernels send at once.
- The time limit is checked with the store's clock (PostgreSQL's `clock_timestamp()`, or the
  SQLite machine's), never the browser's: an answer arriving after the question closes is
  refused (`closed`). The teacher may close a question early.
- Points (docs/rules.md#live-quiz-points): a wrong answer, or none, scores 0. A right answer
  scores `BASE_POINTS` plus up to `SPEED_POINTS` for speed, falling linearly from the
  question's opening to its limit, plus a streak bonus of `STREAK_POINTS` per right answer in
  a row before this one (to the previous question of the session), at most `STREAK_CAP`.
- Every answer also joins the learner's progress (the store's `answers` and `progress`
  tables, under the question's lesson, with the skill the question trains, so it counts for
  her mastery: classroom.mastery), in the same transaction as her points.
"""
from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Callable
from typing import Any, Protocol

from cartas.catalogue import Catalogue
from cartas.errors import RuleError

from .identity import CODE_ALPHABET
from .mastery import check_skill
from .store import Migrations, Store, Transaction

CODE_LENGTH = 4
BASE_POINTS = 500
SPEED_POINTS = 500
STREAK_POINTS = 100
STREAK_CAP = 500
SECONDS = (5, 120)            # a question's time limit, in whole seconds
DEFAULT_SECONDS = 20
MAX_OPTIONS = 12
MAX_TEXT = 4000               # characters of a prompt, an option or a reason, per language
LEADERS = 10                  # names on the projector's leaderboard

# Migration 7 of the store (issue 23's numbering), kept as the "live" component's first step:
# the component's own history, so it applies whatever other components hold.
MIGRATIONS = Migrations("live", [
    ("CREATE TABLE live_sessions (code TEXT PRIMARY KEY, class_code TEXT NOT NULL, "
     "host_hash TEXT NOT NULL, created_at DOUBLE PRECISION NOT NULL, ended INTEGER NOT NULL DEFAULT 0)",
     "CREATE TABLE live_questions (session_code TEXT NOT NULL, number INTEGER NOT NULL, "
     "lesson TEXT NOT NULL, body TEXT NOT NULL, answer INTEGER NOT NULL, "
     "opened_at DOUBLE PRECISION NOT NULL, closes_at DOUBLE PRECISION NOT NULL, "
     "PRIMARY KEY (session_code, number))",
     "CREATE TABLE live_players (session_code TEXT NOT NULL, learner_id TEXT NOT NULL, "
     "name TEXT NOT NULL, first_number INTEGER NOT NULL, points INTEGER NOT NULL DEFAULT 0, "
     "joined_at DOUBLE PRECISION NOT NULL, PRIMARY KEY (session_code, learner_id))",
     "CREATE TABLE live_answers (session_code TEXT NOT NULL, number INTEGER NOT NULL, "
     "learner_id TEXT NOT NULL, choice INTEGER NOT NULL, correct INTEGER NOT NULL, "
     "points INTEGER NOT NULL, streak INTEGER NOT NULL, at DOUBLE PRECISION NOT NULL, "
     "PRIMARY KEY (session_code, number, learner_id))"),
])

CATALOGUE = Catalogue("live", {
    "bad_code": ("Um código de aula tem {n} letras ou algarismos (como AB23).",
                 "A live session code has {n} letters or digits (such as AB23)."),
    "no_session": ("Não há aula ao vivo com o código {code}. Confira o código no projetor.",
                   "There is no live session with code {code}. Check the code on the projector."),
    "ended": ("Esta aula ao vivo já terminou.", "This live session has ended."),
    "not_host": ("Só o projetor que começou a aula pode fazer isso.",
                 "Only the projector that started the session can do that."),
    "other_class": ("Esta aula é de outra turma. Entre na sua turma pelo índice.",
                    "This session belongs to another class. Join your class on the index."),
    "not_joined": ("Entre na aula antes de responder.", "Join the session before answering."),
    "no_question": ("Ainda não há pergunta: espere o professor.",
                    "No question yet: wait for the teacher."),
    "next_question": ("Você entrou durante esta pergunta: participa a partir da próxima.",
                      "You joined during this question: you take part from the next one."),
    "closed": ("O tempo desta pergunta acabou; sua resposta não contou.",
               "Time is up for this question; your answer did not count."),
    "already_answered": ("Você já respondeu esta pergunta; vale a primeira resposta.",
                         "You already answered this question; your first answer counts."),
    "bad_choice": ("Essa opção não existe nesta pergunta.", "That option does not exist in this question."),
    "still_open": ("A pergunta anterior ainda está aberta.", "The previous question is still open."),
    "bad_seconds": ("O tempo de uma pergunta vai de {low} a {high} segundos.",
                    "A question's time goes from {low} to {high} seconds."),
    "bad_question": ("A pergunta está incompleta: {what}.", "The question is incomplete: {what}."),
})


class LiveError(RuleError):
    """A live-quiz call refused: `code` names why (the catalogue above, in both languages)."""

    catalogue = CATALOGUE


def clean_code(text) -> str:
    """A session code as typed or linked (spaces, dashes and case ignored); LiveError if it
    cannot be one."""
    if not isinstance(text, str) or len(text) > 3 * CODE_LENGTH:
        raise LiveError("bad_code", n=CODE_LENGTH)
    code = "".join(ch for ch in text if ch not in " -\t").upper()
    if len(code) != CODE_LENGTH or any(ch not in CODE_ALPHABET for ch in code):
        raise LiveError("bad_code", n=CODE_LENGTH)
    return code


def points_for(correct: bool, elapsed: float, limit: float, streak_before: int) -> int:
    """The points of one answer (docs/rules.md#live-quiz-points): 0 when wrong; when right,
    BASE_POINTS, plus SPEED_POINTS × the share of the time left, plus STREAK_POINTS for each
    right answer in a row before it, at most STREAK_CAP."""
    if not correct:
        return 0
    share = 1.0 - min(max(elapsed / limit, 0.0), 1.0) if limit > 0 else 0.0
    return BASE_POINTS + round(SPEED_POINTS * share) + min(STREAK_POINTS * max(streak_before, 0), STREAK_CAP)


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def _store_clock(tx: Transaction) -> float:
    """Seconds since the epoch on the store's clock: the server's for PostgreSQL; for SQLite
    (a file on this machine) this machine's, read through SQLite."""
    if tx.kind == "postgresql":
        row = tx.execute("SELECT EXTRACT(EPOCH FROM clock_timestamp())").fetchone()
    else:
        row = tx.execute("SELECT (julianday('now') - 2440587.5) * 86400.0").fetchone()
    return float(row[0])


def _texts(value, what: str) -> dict:
    if not isinstance(value, dict) or not all(isinstance(value.get(k), str) and len(value[k]) <= MAX_TEXT
                                              for k in ("pt", "en")):
        raise LiveError("bad_question", what=what)
    return {"pt": value["pt"], "en": value["en"]}


def clean_question(question) -> dict:
    """A question as the store keeps it: {"lesson": str, "prompt": {"pt", "en"}, "options":
    [{"pt", "en"}, ...] (2 to MAX_OPTIONS), "answer": the right option's index, "why":
    {"pt", "en"}, "skill": the skill it trains (classroom.mastery.SKILLS; "" for none, or
    when absent)}; LiveError("bad_question") naming the missing or wrong part."""
    if not isinstance(question, dict):
        raise LiveError("bad_question", what="question")
    lesson = question.get("lesson")
    if not isinstance(lesson, str) or not 0 < len(lesson) <= 100:
        raise LiveError("bad_question", what="lesson")
    options = question.get("options")
    if not isinstance(options, list) or not 2 <= len(options) <= MAX_OPTIONS:
        raise LiveError("bad_question", what="options")
    answer = question.get("answer")
    if not isinstance(answer, int) or isinstance(answer, bool) or not 0 <= answer < len(options):
        raise LiveError("bad_question", what="answer")
    skill = question.get("skill", "")
    try:
        skill = check_skill(skill)
    except ValueError:
        raise LiveError("bad_question", what="skill") from None
    cleaned = {"lesson": lesson, "prompt": _texts(question.get("prompt"), "prompt"),
               "options": [_texts(o, "options") for o in options], "answer": answer,
               "why": _texts(question.get("why"), "why"), "skill": skill}
    if "kind" in question or "seed" in question:  # a registry question: kept whole (issue 32)
        cleaned.update(_whole_question(question, cleaned))
    return cleaned


def _whole_question(question: dict, cleaned: dict) -> dict:
    """A registry question's `kind`, `seed`, `variant`, made again here (the page is not
    trusted): its option count, answer and skill must be the remade question's; returns them
    with each option's value and misconception (`values`, `misconceptions`), which each answer
    is kept with (classroom.answers). LiveError("bad_question") naming what disagrees."""
    from cartas.questions import MAX_SEED, QuestionError, find_kind

    from .answers import value_text
    try:
        kind = find_kind(question.get("kind"))
    except QuestionError:
        raise LiveError("bad_question", what="kind") from None
    seed, variant = question.get("seed"), question.get("variant") or ""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < MAX_SEED:
        raise LiveError("bad_question", what="seed")
    if not isinstance(variant, str) or (variant and variant not in kind.variants):
        raise LiveError("bad_question", what="variant")
    made = kind.make_seeded(seed, variant or None)
    values = [c.value for c in made.choices]
    if len(values) != len(cleaned["options"]) or values.index(made.answer) != cleaned["answer"]:
        raise LiveError("bad_question", what="kind, seed")
    if cleaned["skill"] not in ("", made.skill):
        raise LiveError("bad_question", what="skill")
    return {"kind": kind.key, "seed": seed, "variant": made.variant, "skill": made.skill,
            "values": [value_text(v) for v in values], "misconceptions": [c.misconception for c in made.choices]}


class LiveQuiz(Protocol):
    """What the live pages ask of the quiz, in plain values (see the module's rules). A
    learner is named by her verified key (`identity.Learner.key`) and her class code."""

    def start(self, class_code: str, teacher_key: str) -> dict: ...
    def ask(self, code: str, host_token: str, question: dict, seconds: int) -> int: ...
    def close(self, code: str, host_token: str) -> None: ...
    def end(self, code: str, host_token: str) -> None: ...
    def join(self, code: str, learner_id: str, name: str, class_code: str) -> dict: ...
    def answer(self, code: str, learner_id: str, number: int, choice: int) -> dict: ...
    def question(self, code: str, learner_id: str | None = None) -> dict: ...
    def board(self, code: str) -> dict: ...


class StoreLiveQuiz:
    """`LiveQuiz` on a store (SQLite or PostgreSQL). `clock`, for tests only, replaces the
    store's clock (a function of the transaction returning seconds)."""

    def __init__(self, store: Store, clock: Callable[[Transaction], float] | None = None):
        self.store = store
        self.clock = clock or _store_clock
        store.migrate(MIGRATIONS)

    # The teacher's projector -------------------------------------------------------------
    def start(self, class_code: str, teacher_key: str) -> dict:
        """A new session for the class whose teacher key this is: {"code", "host_token",
        "class_code", "title"}; classroom.classes.NotAllowed for a wrong key."""
        from .classes import open_class
        opened = open_class(self.store, class_code, teacher_key)
        return self.open_session(opened.code, opened.title)

    def open_session(self, class_code: str, title: str) -> dict:
        """A new session for class `class_code`, whose teacher the caller has checked (`start`
        with the teacher key; the class service with the class's hub teachers group)."""
        token = secrets.token_urlsafe(24)
        for _ in range(20):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            with self.store.transaction() as tx:
                made = tx.execute("INSERT INTO live_sessions (code, class_code, host_hash, created_at) "
                                  "VALUES (?, ?, ?, ?) ON CONFLICT (code) DO NOTHING",
                                  (code, class_code, _digest(token), self.clock(tx))).rowcount
            if made:
                return {"code": code, "host_token": token, "class_code": class_code, "title": title}
        raise LiveError("no_session", code="?")  # pragma: no cover - 20 clashes in a row

    def _host(self, tx: Transaction, code: str, host_token: str) -> None:
        row = tx.execute("SELECT host_hash, ended FROM live_sessions WHERE code = ?", (code,)).fetchone()
        if row is None:
            raise LiveError("no_session", code=code)
        if not isinstance(host_token, str) or not secrets.compare_digest(row[0], _digest(host_token)):
            raise LiveError("not_host")
        if row[1]:
            raise LiveError("ended")

    def ask(self, code: str, host_token: str, question: dict, seconds: int = DEFAULT_SECONDS) -> int:
        """Put the next question on: its number (1, 2, ...). The previous one must be closed
        (its time over, or `close`d)."""
        code = clean_code(code)
        body = clean_question(question)
        if not isinstance(seconds, int) or isinstance(seconds, bool) or not SECONDS[0] <= seconds <= SECONDS[1]:
            raise LiveError("bad_seconds", low=SECONDS[0], high=SECONDS[1])
        answer = body.pop("answer")
        with self.store.transaction() as tx:
            self._host(tx, code, host_token)
            now = self.clock(tx)
            last = tx.execute("SELECT number, closes_at FROM live_questions WHERE session_code = ? "
                              "ORDER BY number DESC LIMIT 1", (code,)).fetchone()
            if last is not None and float(last[1]) > now:
                raise LiveError("still_open")
            number = 1 if last is None else int(last[0]) + 1
            tx.execute("INSERT INTO live_questions (session_code, number, lesson, body, answer, opened_at, "
                       "closes_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                       (code, number, body["lesson"], json.dumps(body), answer, now, now + seconds))
        return number

    def close(self, code: str, host_token: str) -> None:
        """Close the open question now (the projector's "show the results")."""
        code = clean_code(code)
        with self.store.transaction() as tx:
            self._host(tx, code, host_token)
            now = self.clock(tx)
            tx.execute("UPDATE live_questions SET closes_at = ? WHERE session_code = ? AND closes_at > ?",
                       (now, code, now))

    def end(self, code: str, host_token: str) -> None:
        """End the session: no more questions, answers or joins."""
        code = clean_code(code)
        with self.store.transaction() as tx:
            self._host(tx, code, host_token)
            now = self.clock(tx)
            tx.execute("UPDATE live_questions SET closes_at = ? WHERE session_code = ? AND closes_at > ?",
                       (now, code, now))
            tx.execute("UPDATE live_sessions SET ended = 1 WHERE code = ?", (code,))

    def session_class(self, code: str) -> str:
        """The class of session `code` (LiveError "no_session" if there is none): for a caller
        who checks who may use it (the class service: the class's hub group and its teachers)."""
        code = clean_code(code)
        with self.store.transaction(write=False) as tx:
            return self._session(tx, code)[0]

    # The learners' phones ----------------------------------------------------------------
    def _session(self, tx: Transaction, code: str) -> tuple[str, bool]:
        row = tx.execute("SELECT class_code, ended FROM live_sessions WHERE code = ?", (code,)).fetchone()
        if row is None:
            raise LiveError("no_session", code=code)
        return str(row[0]), bool(row[1])

    def join(self, code: str, learner_id: str, name: str, class_code: str) -> dict:
        """Join (or join again) a session of the learner's class: {"points", "first_number"}.
        A first join enters at the next question asked."""
        code = clean_code(code)
        with self.store.transaction() as tx:
            session_class, ended = self._session(tx, code)
            if class_code != session_class:
                raise LiveError("other_class")
            row = tx.execute("SELECT points, first_number FROM live_players WHERE session_code = ? "
                             "AND learner_id = ?", (code, learner_id)).fetchone()
            if row is None:
                if ended:
                    raise LiveError("ended")
                last = tx.execute("SELECT MAX(number) FROM live_questions WHERE session_code = ?",
                                  (code,)).fetchone()
                first = int(last[0] or 0) + 1
                tx.execute("INSERT INTO live_players (session_code, learner_id, name, first_number, "
                           "points, joined_at) VALUES (?, ?, ?, ?, 0, ?) "
                           "ON CONFLICT (session_code, learner_id) DO NOTHING",
                           (code, learner_id, str(name)[:40], first, self.clock(tx)))
                row = tx.execute("SELECT points, first_number FROM live_players WHERE session_code = ? "
                                 "AND learner_id = ?", (code, learner_id)).fetchone()
        return {"points": int(row[0]), "first_number": int(row[1])}

    def answer(self, code: str, learner_id: str, number: int, choice: int) -> dict:
        """Record a learner's answer to question `number`: {"number", "correct", "points"
        (this answer's), "total", "streak"}; LiveError when refused (see the module's rules)."""
        code = clean_code(code)
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (number, choice)):
            raise LiveError("bad_choice")
        with self.store.transaction() as tx:
            now = self.clock(tx)
            self._session(tx, code)
            player = tx.execute("SELECT first_number FROM live_players WHERE session_code = ? AND learner_id = ?",
                                (code, learner_id)).fetchone()
            if player is None:
                raise LiveError("not_joined")
            row = tx.execute("SELECT lesson, body, answer, opened_at, closes_at FROM live_questions "
                             "WHERE session_code = ? AND number = ?", (code, number)).fetchone()
            if row is None:
                raise LiveError("no_question")
            lesson, body, right, opened, closes = row
            skill = json.loads(body).get("skill", "")  # checked when asked (clean_question)
            if number < int(player[0]):
                raise LiveError("next_question")
            if now >= float(closes):
                raise LiveError("closed")
            if not 0 <= choice < len(json.loads(body)["options"]):
                raise LiveError("bad_choice")
            before = tx.execute("SELECT correct, streak FROM live_answers WHERE session_code = ? "
                                "AND number = ? AND learner_id = ?", (code, number - 1, learner_id)).fetchone()
            streak_before = int(before[1]) if before is not None and before[0] else 0
            correct = choice == int(right)
            points = points_for(correct, now - float(opened), float(closes) - float(opened), streak_before)
            streak = streak_before + 1 if correct else 0
            fresh = tx.execute("INSERT INTO live_answers (session_code, number, learner_id, choice, correct, "
                               "points, streak, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
                               "ON CONFLICT (session_code, number, learner_id) DO NOTHING",
                               (code, number, learner_id, choice, int(correct), points, streak, now)).rowcount
            if not fresh:
                raise LiveError("already_answered")
            total = tx.execute("UPDATE live_players SET points = points + ? WHERE session_code = ? "
                               "AND learner_id = ? RETURNING points", (points, code, learner_id)).fetchone()
            # the learner's progress, under the question's lesson (classroom.progress's tables),
            # the answer kept whole when the question is the registry's (classroom.answers)
            asked = json.loads(body)
            values = asked.get("values") or []
            whole = (json.dumps(values, ensure_ascii=False), values[choice], asked["misconceptions"][choice]) \
                if len(values) > choice else ("[]", str(choice), None)
            tx.execute("INSERT INTO answers (learner_id, lesson, correct, at, skill, context, kind, variant, seed, "
                       "choices, chosen, misconception, seconds) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       (learner_id, lesson, int(correct), now, skill, f"live:{code}", asked.get("kind", ""),
                        asked.get("variant", ""), asked.get("seed"), *whole, max(0.0, now - float(opened))))
            tx.execute("INSERT INTO progress (learner_id, lesson, right_count, asked_count, last_at) "
                       "VALUES (?, ?, ?, 1, ?) ON CONFLICT (learner_id, lesson) DO UPDATE SET "
                       "right_count = progress.right_count + excluded.right_count, "
                       "asked_count = progress.asked_count + 1, last_at = excluded.last_at",
                       (learner_id, lesson, int(correct), now))
        return {"number": number, "correct": correct, "points": points, "total": int(total[0]),
                "streak": streak}

    def question(self, code: str, learner_id: str | None = None) -> dict:
        """What a phone shows: {"number" (0: none yet), "open", "seconds_left", "prompt",
        "options", "ended", and for `learner_id`: "points", "first_number", "mine" (her
        answer to this question: {"choice", "correct", "points"} or None)}. The right answer
        and its reason come only once the question is closed ("answer", "why")."""
        code = clean_code(code)
        with self.store.transaction(write=False) as tx:
            now = self.clock(tx)
            _, ended = self._session(tx, code)
            row = tx.execute("SELECT number, body, answer, closes_at FROM live_questions WHERE session_code = ? "
                             "ORDER BY number DESC LIMIT 1", (code,)).fetchone()
            out: dict[str, Any] = {"number": 0, "open": False, "seconds_left": 0.0, "ended": ended}
            if row is not None:
                number, body, right, closes = int(row[0]), json.loads(row[1]), int(row[2]), float(row[3])
                is_open = now < closes
                out.update(number=number, open=is_open, seconds_left=max(0.0, closes - now),
                           prompt=body["prompt"], options=body["options"])
                if not is_open:
                    out.update(answer=right, why=body["why"])
            if learner_id is not None:
                player = tx.execute("SELECT points, first_number FROM live_players WHERE session_code = ? "
                                    "AND learner_id = ?", (code, learner_id)).fetchone()
                out.update(points=int(player[0]) if player else 0,
                           first_number=int(player[1]) if player else 0, mine=None)
                if row is not None and player is not None:
                    mine = tx.execute("SELECT choice, correct, points FROM live_answers WHERE session_code = ? "
                                      "AND number = ? AND learner_id = ?", (code, out["number"], learner_id)
                                      ).fetchone()
                    if mine is not None:
                        out["mine"] = {"choice": int(mine[0]), "correct": bool(mine[1]), "points": int(mine[2])}
                        said = body.get("misconceptions") or []
                        if not is_open and int(mine[0]) < len(said):  # what her choice reveals (issue 32)
                            out["mine"]["misconception"] = said[int(mine[0])]
        return out

    def board(self, code: str) -> dict:
        """What the projector shows: {"number", "open", "seconds_left", "players", "answered",
        "counts" (answers per option), "prompt", "options", "answer", "why", "lesson",
        "leaders": [{"name", "points"}] best first (ties by name), "ended"}."""
        code = clean_code(code)
        with self.store.transaction(write=False) as tx:
            now = self.clock(tx)
            _, ended = self._session(tx, code)
            players = tx.execute("SELECT name, points FROM live_players WHERE session_code = ? "
                                 "ORDER BY points DESC, name LIMIT ?", (code, LEADERS)).fetchall()
            count = tx.execute("SELECT COUNT(*) FROM live_players WHERE session_code = ?", (code,)).fetchone()
            row = tx.execute("SELECT number, lesson, body, answer, closes_at FROM live_questions "
                             "WHERE session_code = ? ORDER BY number DESC LIMIT 1", (code,)).fetchone()
            out: dict[str, Any] = {"number": 0, "open": False, "seconds_left": 0.0, "answered": 0, "counts": [],
                                   "players": int(count[0]), "ended": ended,
                                   "leaders": [{"name": n, "points": int(p)} for n, p in players]}
            if row is not None:
                number, lesson, body, right, closes = int(row[0]), row[1], json.loads(row[2]), int(row[3]), \
                    float(row[4])
                counts = [0] * len(body["options"])
                for choice, n in tx.execute("SELECT choice, COUNT(*) FROM live_answers WHERE session_code = ? "
                                            "AND number = ? GROUP BY choice", (code, number)).fetchall():
                    counts[int(choice)] = int(n)
                out.update(number=number, lesson=lesson, open=now < closes, seconds_left=max(0.0, closes - now),
                           answered=sum(counts), counts=counts, prompt=body["prompt"],
                           options=body["options"], answer=right, why=body["why"])
                if "kind" in body:  # a registry question: what each choice reveals (issue 32)
                    out.update(kind=body["kind"], misconceptions=body["misconceptions"])
        return out


def open_quiz(location: str | None = None) -> LiveQuiz:
    """The live quiz on this process's store (the progress tables migrated too); under
    JupyterHub, `classroom.open().live()` is the class service's."""
    from .progress import open_store
    return StoreLiveQuiz(open_store(location))
