"""Work done in child processes by the class service's store tests."""
import time


def migrate_at(location: str, start_at: float) -> int:
    """Wait until `start_at`, then migrate the store as a starting server would; return the
    version it ends at."""
    from classroom.progress import MIGRATIONS
    from classroom.store import connect
    store = connect(location)
    time.sleep(max(0.0, start_at - time.time()))
    try:
        return store.migrate(MIGRATIONS)
    finally:
        store.close()
