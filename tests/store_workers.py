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
