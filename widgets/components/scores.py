"""Exercise scores, recorded for the learner at this browser in the store (classroom.store).

Decided rules:
- Every answer is recorded for the learner this page's identity widget reported
  (widgets.components.learner), in her class if she joined one; a class learner's device token is
  checked against the store again before every write (`Identity.verified`). Answers given before the browser has
  said who is there wait in this kernel and are recorded, in order, for the first learner
  reported: that is the learner whose page it is (the widget reports as soon as it is drawn).
- One transaction per record. When the store cannot be reached or read, the lesson goes on:
  the answers wait in this kernel (at most MAX_PENDING), a notice says progress is not being
  saved and why when it is known (`notice_for`: under JupyterHub the hub or the class service,
  not the store, may be what does not answer), and the store is tried again at most every
  RETRY_SECONDS; nothing is overwritten.
  A store file that cannot be read (empty, truncated, not a database, a folder) is such a
  store: classroom.store leaves it byte for byte, and the notice says so on the page.
- The first anonymous learner of a store takes over the scores imported from the old
  progress.json (see classroom.progress).
- An answer may name the skill its question trains (classroom.mastery.SKILLS); it is stored
  with the answer and still counts for its lesson.
- An answer to a question of the engine's registry is kept whole (issue 32; classroom.answers:
  its kind, seed, variant, the choices shown, the one chosen, its misconception, the seconds
  taken), through the classroom interface's `record_answers`, for the learner known when it is
  saved. One the store refuses as forged (AnswerError) is logged and dropped, never retried.
"""
from __future__ import annotations

import threading
import time
from dataclasses import replace

from classroom import open as open_classroom
from classroom.answers import Answer, AnswerError
from classroom.identity import Learner
from classroom.store import StoreError
from widgets.components import learner as identity

MAX_PENDING = 5000
WHOLE_BATCH = 50   # whole answers sent in one record at most (a request of the class service stays small)
RETRY_SECONDS = 20

NOTICE = {
    "pt": "Seu progresso não está sendo salvo agora (o armazenamento não responde ou não pode "
          "ser lido). A lição continua funcionando.",
    "en": "Your progress is not being saved right now (the store does not answer or cannot be "
          "read). The lesson still works.",
}
# Under JupyterHub the cause is known: the hub (the class service answered 503 hub_down),
# the class service itself (unreachable, or failing), or a refusal of the service.
NOTICE_HUB = {
    "pt": "Seu progresso não está sendo salvo agora (o JupyterHub não responde ao serviço de "
          "turmas). A lição continua funcionando.",
    "en": "Your progress is not being saved right now (JupyterHub does not answer the class "
          "service). The lesson still works.",
}
NOTICE_SERVICE = {
    "pt": "Seu progresso não está sendo salvo agora (o serviço de turmas não responde). A lição "
          "continua funcionando.",
    "en": "Your progress is not being saved right now (the class service does not answer). The "
          "lesson still works.",
}
NOTICE_REFUSED = {
    "pt": "Seu progresso não está sendo salvo agora (o serviço de turmas recusou o registro). A "
          "lição continua funcionando.",
    "en": "Your progress is not being saved right now (the class service refused to record it). "
          "The lesson still works.",
}


def notice_for(error: BaseException) -> dict[str, str]:
    """The notice that says why progress is not saved: JupyterHub, the class service or the
    store (`NOTICE`, on a laptop always; under the hub when the service says its store is down)."""
    from classroom.remote import ServiceRefused, ServiceUnavailable  # the HTTP client: no Jupyter
    if isinstance(error, ServiceRefused):
        return NOTICE_HUB if error.code == "hub_down" else NOTICE_REFUSED
    if isinstance(error, ServiceUnavailable):
        return NOTICE_SERVICE
    return NOTICE


class Recorder:
    """This kernel's answers on their way to the store."""

    def __init__(self):
        self.pending: list[tuple[str, bool, str, Answer | None]] = []  # (lesson, right, skill, whole answer)
        self.failed_at: float | None = None
        self.error: str = ""
        self._lock = threading.Lock()
        self._listening = None

    def _identity(self):
        widget = identity.widget()
        if self._listening is not widget:
            self._listening = widget
            widget.on_change(self._learner_known)
        return widget

    def add(self, lesson: str, correct: bool, skill: str = "", whole: Answer | None = None) -> None:
        """`whole`: the answer kept whole (its learner filled in when it is saved)."""
        with self._lock:
            if len(self.pending) < MAX_PENDING:
                self.pending.append((lesson, bool(correct), skill, whole))
        self.flush()

    def flush(self, force: bool = False) -> bool:
        """Record what waits, if the learner is known and the store answers; True if all saved."""
        if not self._identity().reported():
            return not self.pending
        if not force and self.failed_at is not None and time.monotonic() - self.failed_at < RETRY_SECONDS:
            return False
        try:
            learner = self._identity().verified()  # her token, checked again for every write
        except StoreError as error:
            self._failed(error)
            return False
        if learner is None:
            return not self.pending
        with self._lock:
            while self.pending:
                if self.pending[0][3] is not None:  # whole answers, in a row: one record
                    wholes = []
                    for item in self.pending[:WHOLE_BATCH]:
                        if item[3] is None:
                            break
                        wholes.append(replace(item[3], learner_id=learner.key))
                    try:
                        open_classroom().record_answers(learner, wholes)
                    except AnswerError as error:  # our own page's answer refused: never retried
                        from widgets.components.base import error_log
                        error_log().warning("answers refused, dropped: %s", error)
                    except StoreError as error:
                        self._failed(error)
                        return False
                    del self.pending[:len(wholes)]
                    continue
                lesson = self.pending[0][0]
                batch, skills = [], []
                for item in self.pending:
                    if item[0] != lesson or item[3] is not None:
                        break
                    batch.append(item[1])
                    skills.append(item[2])
                try:
                    open_classroom().record(learner, lesson, batch, skills=skills)
                except StoreError as error:
                    self._failed(error)
                    return False
                del self.pending[:len(batch)]
        self._saved()
        return True

    def _learner_known(self, learner: Learner) -> None:
        if not learner.name:
            try:
                open_classroom().claim_imported(learner)
            except StoreError as error:
                self._failed(error)
        self.flush(force=True)

    def _failed(self, error: BaseException) -> None:
        self.failed_at = time.monotonic()
        self.error = str(error)
        from widgets.components.base import error_log  # the kernel error log: stderr would reach the page
        error_log().warning("progress not saved: %s", error)
        self._identity().show_notice(notice_for(error))

    def _saved(self) -> None:
        if self.failed_at is not None:
            self.failed_at = None
            self.error = ""
            self._identity().show_notice(None)


_recorder: Recorder | None = None


def recorder() -> Recorder:
    global _recorder
    if _recorder is None:
        _recorder = Recorder()
    return _recorder


def reset_recorder() -> None:
    global _recorder
    _recorder = None


def load(learner: Learner | None = None) -> dict[str, dict[str, int]] | None:
    """{lesson: {"right", "asked"}} of `learner` (default: the learner at this browser);
    {} before she is known; None when the store cannot be read (the notice is shown)."""
    try:
        if learner is None:  # the learner at this browser, her token checked again
            learner = identity.widget().verified() if identity.current() is not None else None
        if learner is None:
            return {}
        scores = open_classroom().progress(learner.key)
    except StoreError as error:
        recorder()._failed(error)
        return None
    return {lesson: {"right": s["right"], "asked": s["asked"]} for lesson, s in scores.items()}


class Score:
    """Right answers out of questions asked in this visit, each one recorded under a lesson's
    key for the learner at this browser."""

    def __init__(self, lesson: str):
        self.lesson = lesson
        self.right = 0
        self.asked = 0

    def add(self, correct: bool, skill: str = "", whole: Answer | None = None) -> None:
        """One answer; `whole`, the answer kept whole (classroom.answers), when it is known."""
        self.asked += 1
        self.right += bool(correct)
        recorder().add(self.lesson, bool(correct), skill, whole)


def stored_totals(score) -> tuple[int, int]:
    """(right, asked) of the learner at this browser for `score.lesson`: what the store holds
    plus her answers still waiting to be saved; this visit's counts when the store cannot be
    read, failed less than RETRY_SECONDS ago, or the learner is not known yet."""
    learner = identity.current()
    outbox = recorder()
    if learner is None or (outbox.failed_at is not None
                           and time.monotonic() - outbox.failed_at < RETRY_SECONDS):
        return score.right, score.asked  # a store that just failed is not asked again at once
    stored = load(learner)
    if stored is None:
        return score.right, score.asked
    totals = stored.get(score.lesson, {"right": 0, "asked": 0})
    waiting = [correct for lesson, correct, _skill, _whole in list(outbox.pending) if lesson == score.lesson]
    return totals["right"] + sum(waiting), totals["asked"] + len(waiting)


def score_html(t, score) -> str:
    """The line under an exercise: the "score" text of translator `t` (right, asked), with the
    learner's stored totals for the lesson (see `stored_totals`)."""
    right, asked = stored_totals(score)
    return (f"<span style='font-size:16px' data-right='{right}' data-asked='{asked}'>"
            f"{t('score', right=right, asked=asked)}</span>")


def reset_session(browser_id: str | None = None) -> None:
    """A fresh kernel for tests and benchmarks: no identity widget and no answers waiting;
    with `browser_id`, that anonymous learner already known."""
    reset_recorder()
    identity.forget(browser_id)
