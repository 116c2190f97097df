"""Stored tables move to saves that replay (docs/rules.md#saved-game-replays): the "tables"
component's migration 2 (the store's migration 4) rewrites each stored game of a first
format as its setup plus its actions, on SQLite and PostgreSQL, and the tables play on
exactly as they did."""
import json
import time
from pathlib import Path

from classroom import games
from classroom.store import connect
from classroom.tables import MIGRATIONS, StoreRepository, Tables

SAMPLES = [s for s in json.loads((Path(__file__).parent / "data" / "saved_samples_main.json")
                                 .read_text("utf-8"))["samples"] if s["kind"] == "table"]


def _record(sample: dict, n: int) -> dict:
    """A table record as main stored it, holding the sample's first-format state."""
    now = time.time()
    return {"format": "cartas.mesa/1", "game": sample["game"], "seats": 4, "options": {},
            "class_code": "TURMA", "creator": "ana", "created_at": now + n, "timeout": 60.0,
            "pace": 0.7, "seed": 7, "sitters": [None] * 4, "status": "playing",
            "state": sample["text"], "moved_at": now, "last": None, "outcome": None}


def test_stored_first_format_tables_are_rewritten_as_setup_plus_actions(store_location):
    store = connect(store_location)
    assert store.migrate(MIGRATIONS, upto=1) == 1  # the store as main left it
    codes = [f"MESA{'ABCDEFGH'[n]}" for n in range(len(SAMPLES))]
    with store.transaction() as tx:
        for n, (code, sample) in enumerate(zip(codes, SAMPLES)):
            tx.execute("INSERT INTO mesas (code, class_code, version, record, archived, created_at, "
                       "updated_at) VALUES (?, ?, 3, ?, 0, ?, ?)",
                       (code, "TURMA", json.dumps(_record(sample, n), ensure_ascii=False), n, n))
        tx.execute("INSERT INTO mesas (code, class_code, version, record, archived, created_at, "
                   "updated_at) VALUES ('WAITS', 'TURMA', 1, ?, 0, 9, 9)",
                   (json.dumps({**_record(SAMPLES[0], 9), "state": None, "status": "waiting"}),))
    assert {json.loads(s["text"])["format"] for s in SAMPLES} == {"cartas.truco/1", "cartas.vinte_e_um/1"}
    assert store.migrate(MIGRATIONS) == MIGRATIONS.latest == 2
    repo = StoreRepository(store)
    for code, sample in zip(codes, SAMPLES):
        version, record = repo.load(code)
        assert version == 3  # no client sees the table move
        saved = json.loads(record["state"])
        assert set(saved) == {"format", "setup", "actions"}
        state = games.load_state(sample["game"], record["state"])
        assert state.current_seat == sample["current_seat"]
        assert [str(a) for a in state.legal_actions()] == sample["legal"]
        assert len(state.events) == sample["events"]
        assert state.to_json() == record["state"]
    assert repo.load("WAITS")[1]["state"] is None
    snap = Tables(repo).snapshot(codes[0])  # the table service reads it as any other
    assert snap.state.current_seat == SAMPLES[0]["current_seat"]
    before = [repo.load(code) for code in codes]
    assert connect(store_location).migrate(MIGRATIONS) == 2  # a new connection: nothing left to do
    assert [repo.load(code) for code in codes] == before


def test_a_stored_state_the_engine_refuses_is_left_as_it_was(store_location):
    store = connect(store_location)
    store.migrate(MIGRATIONS, upto=1)
    broken = json.loads(SAMPLES[0]["text"])
    broken["score"] = [99, 99]
    record = {**_record(SAMPLES[0], 0), "state": json.dumps(broken)}
    with store.transaction() as tx:
        tx.execute("INSERT INTO mesas (code, class_code, version, record, archived, created_at, "
                   "updated_at) VALUES ('BROKE', 'TURMA', 2, ?, 0, 1, 1)", (json.dumps(record),))
    store.migrate(MIGRATIONS)
    assert StoreRepository(store).load("BROKE") == (2, record)
