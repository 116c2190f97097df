"""Work done in child processes (spawned) by the store's concurrency test."""
from classroom.identity import Learner
from classroom.progress import open_store, record

SHARED = Learner("shared-browser-0000", "Turma Toda", "")


def record_many(location: str, worker: int, count: int) -> int:
    store = open_store(location)
    mine = Learner(f"worker-{worker:04d}", f"Worker {worker}", "")
    for i in range(count):
        record(store, mine, f"lesson{i % 4}", [i % 2 == 0])
        record(store, SHARED, "shared", [i % 3 == 0])
    store.close()
    return count


def homework_many(location: str, assignment_id: str, learner_keys: list, class_code: str, worker: int,
                  count: int, game: tuple) -> int:
    """Answers with a skill, and the same homework items finished by every worker at once
    (`game`: the registry key, state JSON and seat of a finished game)."""
    from classroom import homework

    store = open_store(location)
    for i in range(count):
        key = learner_keys[i % len(learner_keys)]
        learner = Learner(f"hw-{worker:04d}-{i:04d}", key.split(":", 2)[2], class_code)
        record(store, learner, "manilhas", [i % 2 == 0], skills=["stronger_card"])
        game_key, text, seat = game   # her homework table of item 1, over
        sitters: list = [None] * 12
        sitters[seat] = {"id": key, "name": "x", "since": 0.0}
        homework.bot_table_over(store, {"game": game_key, "state": text, "sitters": sitters, "creator": key,
                                        "homework": {"assignment": assignment_id, "item": 1, "learner": key}})
    store.close()
    return count
