"""Worker processes for the tables' concurrency tests (spawned, so they import this module)."""
from __future__ import annotations


def race_bots(location: str, code: str, rounds: int, barrier) -> tuple[int, int]:
    """Move bots on table `code` as fast as possible; returns (applied, refused)."""
    from classroom import games
    from classroom.store import connect
    from classroom.tables import StoreRepository, TableError, Tables

    tables = Tables(StoreRepository(connect(location)))
    applied = refused = 0
    barrier.wait()
    for _ in range(rounds):
        snap = tables.snapshot(code)
        if snap.status != "playing":
            break
        state = snap.state
        seat = state.current_seat
        action = games.bot_action(state, seat, snap.record["seed"], snap.level)
        games.apply(state, action, seat)
        try:
            tables._save(snap, state, tables.clock(), {"kind": "move", "seat": seat,
                                                       "action": str(action), "by": "bot"})
            applied += 1
        except TableError:
            refused += 1
    return applied, refused


def race_move(location: str, code: str, learner: str, action: str, version: int,
              barrier) -> str:
    """One learner's move on the version he saw; returns "applied" or the refusal code."""
    from classroom.store import connect
    from classroom.tables import StoreRepository, TableError, Tables

    tables = Tables(StoreRepository(connect(location)))
    barrier.wait()
    try:
        tables.move(code, learner, action, version)
        return "applied"
    except TableError as error:
        return error.code
