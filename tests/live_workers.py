"""Work done in child processes (spawned) by the live quiz's concurrency test."""
import time

from classroom.live import LiveError, open_quiz


def answer_at(location: str, code: str, learners: list[str], number: int, choice: int, start: float) -> dict:
    """Wait until `start` (the machine's clock), then answer question `number` for each of
    `learners`, twice each: {"accepted": n, "refused": [codes]}."""
    quiz = open_quiz(location)
    time.sleep(max(0.0, start - time.time()))
    accepted, refused = 0, []
    for _ in range(2):
        for learner in learners:
            try:
                quiz.answer(code, learner, number, choice)
                accepted += 1
            except LiveError as error:
                refused.append(error.code)
    quiz.store.close()
    return {"accepted": accepted, "refused": refused}
