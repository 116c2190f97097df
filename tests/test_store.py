"""The store, on SQLite and on a real PostgreSQL: nothing lost, nothing overwritten, migrations."""
from __future__ import annotations

import hashlib
import json
import time

import pytest

from classroom import progress
from classroom.identity import Learner
from classroom.progress import MIGRATIONS, learner_progress, open_store, record
from classroom.store import Migrations, StoreError, StoreUnavailable, connect

import learner_processes
from pg_waits import wait_listening
from store_workers import SHARED, record_many

ANA = Learner("browser-ana-01", "Ana", "")


def test_a_record_adds_to_what_is_stored_across_visits(store_location):
    store = open_store(store_location)
    record(store, ANA, "manilhas", [True, False])
    other_visit = connect(store_location)  # another kernel, later
    other_visit.migrate(MIGRATIONS)
    record(other_visit, ANA, "manilhas", [True])
    assert learner_progress(store, ANA.key)["manilhas"] | {"last": 0} == {"right": 2, "asked": 3, "last": 0}
    other_visit.close()


def test_eight_processes_writing_at_once_lose_no_record(store_location):
    open_store(store_location)  # migrated once before, as the first kernel would
    context = learner_processes.context()
    workers, count = 8, 200
    with context.Pool(workers) as pool:
        done = pool.starmap(record_many, [(store_location, w, count) for w in range(workers)])
    assert done == [count] * workers
    store = connect(store_location)
    with store.transaction(write=False) as tx:
        per_worker = dict(tx.execute("SELECT learner_id, COUNT(*) FROM answers "
                                     "WHERE learner_id LIKE ? GROUP BY learner_id",
                                     ("b:worker-%",)).fetchall())
    assert len(per_worker) == workers and set(per_worker.values()) == {count}
    shared = learner_progress(store, SHARED.key)["shared"]
    assert shared["asked"] == workers * count  # the counter every process bumped
    assert shared["right"] == workers * sum(1 for i in range(count) if i % 3 == 0)
    for w in range(workers):
        mine = learner_progress(store, Learner(f"worker-{w:04d}", f"Worker {w}").key)
        assert sum(s["asked"] for s in mine.values()) == count
    store.close()


def test_a_store_at_an_older_schema_version_migrates_keeping_its_data(store_location):
    old = connect(store_location)
    assert old.migrate(MIGRATIONS, upto=1) == 1
    with old.transaction() as tx:  # what a version-1 store held: no classes, no answers
        tx.execute("INSERT INTO learners (id, name, created_at, last_seen) VALUES (?, ?, ?, ?)",
                   (ANA.key, "Ana", 1.0, 1.0))
        tx.execute("INSERT INTO progress VALUES (?, ?, ?, ?, ?)", (ANA.key, "manilhas", 3, 4, 1.0))
    old.close()
    store = open_store(store_location)
    assert store.version("classroom") == MIGRATIONS.latest == 6
    record(store, ANA, "manilhas", [True])
    assert learner_progress(store, ANA.key)["manilhas"]["right"] == 4
    with store.transaction(write=False) as tx:
        assert tx.execute("SELECT class_code FROM learners WHERE id = ?", (ANA.key,)).fetchone() == ("",)
        assert tx.execute("SELECT COUNT(*) FROM answers").fetchone()[0] == 1


def test_another_component_adds_its_own_tables_and_migrations(store_location):
    store = open_store(store_location)
    tables = Migrations("tables-test", [
        "CREATE TABLE t_tables (id {serial_pk}, code TEXT NOT NULL UNIQUE)",
        lambda tx: tx.execute("ALTER TABLE t_tables ADD COLUMN version INTEGER NOT NULL DEFAULT 0"),
    ])
    assert store.migrate(tables, upto=1) == 1
    with store.transaction() as tx:
        tx.execute("INSERT INTO t_tables (code) VALUES (?)", ("MESA01",))
    assert connect(store_location).migrate(tables) == 2
    with store.transaction() as tx:
        assert tx.execute("SELECT id, code, version FROM t_tables").fetchall() == [(1, "MESA01", 0)]
    assert store.version("classroom") == MIGRATIONS.latest  # components are versioned apart


def test_a_store_newer_than_the_code_is_refused_not_changed(store_location):
    store = open_store(store_location)
    with store.transaction() as tx:
        tx.execute("INSERT INTO schema_migrations VALUES (?, ?, ?)", ("classroom", 99, time.time()))
    with pytest.raises(StoreError, match="newer than this code"):
        connect(store_location).migrate(MIGRATIONS)
    assert store.version("classroom") == 99


def test_a_failed_transaction_leaves_the_store_as_it_was(store_location):
    store = open_store(store_location)
    record(store, ANA, "manilhas", [True])
    with pytest.raises(StoreError):
        with store.transaction() as tx:
            tx.execute("UPDATE progress SET right_count = 50")
            tx.execute("INSERT INTO no_such_table VALUES (1)")
    assert learner_progress(store, ANA.key)["manilhas"]["right"] == 1


def test_a_batched_transaction_is_all_or_nothing_like_any_other(store_location):
    _batched_all_or_nothing(open_store(store_location))


@pytest.mark.postgres
def test_a_batched_transaction_through_the_services_pool_is_all_or_nothing(postgres_url):
    from classroom.store import PooledPostgresStore
    store = PooledPostgresStore(postgres_url, 2)   # the class service's pool: PostgreSQL's only
    store.migrate(MIGRATIONS)
    _batched_all_or_nothing(store)


def _batched_all_or_nothing(store) -> None:
    record(store, ANA, "manilhas", [True, False])          # a batch: the learner, her answers, the counts
    with pytest.raises(StoreError):
        with store.transaction(batch=True) as tx:
            tx.execute("UPDATE progress SET right_count = 50")
            tx.execute("INSERT INTO no_such_table VALUES (1)")
    with pytest.raises(StoreError):
        with store.transaction(single=True) as tx:
            tx.execute("UPDATE progress SET right_count = 50 WHERE no_such_column = 1")
    counts = learner_progress(store, ANA.key)["manilhas"]
    assert (counts["right"], counts["asked"]) == (1, 2)
    with store.transaction(write=False) as tx:
        assert tx.execute("SELECT count(*) FROM answers").fetchone()[0] == 2
    store.close()


@pytest.mark.postgres
def test_on_postgresql_a_tables_save_and_its_notice_are_one_and_a_lost_race_sends_none(postgres_url):
    import threading

    import psycopg

    from classroom.store import PooledPostgresStore
    from classroom.tables import NOTIFY_CHANNEL, StoreRepository
    store = PooledPostgresStore(postgres_url, 3)
    repo = StoreRepository(store)
    heard: list[str] = []
    threading.Thread(target=store.listen, args=(NOTIFY_CHANNEL, heard.append), daemon=True).start()
    wait_listening(postgres_url, NOTIFY_CHANNEL)
    assert repo.create("ABCDEF", "", {"n": 1})
    assert repo.save("ABCDEF", 1, {"n": 2}) and not repo.save("ABCDEF", 1, {"n": 3})
    # PostgreSQL delivers notices in commit order: once a notice sent after both saves is heard,
    # any notice of theirs has been heard before it
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute("SELECT pg_notify(%s, 'after the saves')", (NOTIFY_CHANNEL,))
    deadline = time.monotonic() + 10
    while "after the saves" not in heard and time.monotonic() < deadline:
        time.sleep(0.05)
    assert heard == ["ABCDEF 1", "ABCDEF 2", "after the saves"]  # the winner's notice; none for the loser
    assert repo.load("ABCDEF") == (2, {"n": 2})
    store.close()


@pytest.mark.parametrize("location", [
    "postgresql://cartas@127.0.0.1:{closed}/nowhere",
    "mysql://somewhere/db",
    "/dev/null/cartas.db",
])
def test_an_unreachable_store_is_refused_with_a_clear_error(location):
    from serving_ports import closed_port
    location = location.format(closed=closed_port())
    started = time.monotonic()
    with pytest.raises(StoreUnavailable) as refused:
        open_store(location)
    assert time.monotonic() - started < 10
    assert ("mysql" in str(refused.value)) or ("cannot" in str(refused.value))


def test_a_corrupt_sqlite_file_is_never_touched(tmp_path):
    path = tmp_path / "cartas.db"
    path.write_bytes(b"this is not a database, but someone's data " * 200)
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    with pytest.raises(StoreUnavailable, match="cannot read"):
        open_store(str(path))
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cartas.db"]


def test_the_old_json_file_is_imported_once_and_left_as_it_was(tmp_path, monkeypatch):
    legacy = tmp_path / "progress.json"
    legacy.write_text(json.dumps({"manilhas": {"right": 2, "asked": 3}, "bad": 5,
                                  "worse": {"right": 1}, "truco_mao": {"right": 1, "asked": 1}}))
    text = legacy.read_text()
    monkeypatch.setenv("CARTAS_PROGRESS", str(legacy))
    store = open_store(str(tmp_path / "cartas.db"))
    assert progress.import_legacy(store, legacy) == 0  # already imported when opened
    assert legacy.read_text() == text
    alone = Learner("binder-browser-1")
    assert progress.claim_imported(store, alone) == 2
    assert learner_progress(store, alone.key)["manilhas"]["right"] == 2
    assert progress.claim_imported(store, Learner("binder-browser-2")) == 0  # taken once


def test_a_teacher_sees_her_class_and_can_remove_a_learner(store_location):
    from classroom.classes import create_class
    store = open_store(store_location)
    turma = create_class(store, "7º B")
    ana, bia = Learner("b-ana-0001", "Ana", turma.code), Learner("b-bia-0001", "Bia", turma.code)
    record(store, ana, "manilhas", [True] * 5)
    record(store, bia, "manilhas", [False, True])
    record(store, Learner("b-out-0001", "Cida"), "manilhas", [True])  # in no class
    rows = progress.class_learners(store, turma.code)
    assert [(r["name"], r["lessons"]["manilhas"]["right"], r["done"]) for r in rows] == \
        [("Ana", 5, 1), ("Bia", 1, 0)]
    assert not progress.remove_learner(store, "OTHER1", ana.key)
    assert progress.remove_learner(store, turma.code, ana.key)
    assert [r["name"] for r in progress.class_learners(store, turma.code)] == ["Bia"]
    assert learner_progress(store, ana.key) == {}


def test_a_shared_store_that_was_closed_is_opened_again_and_keeps_the_records(store_location):
    first = open_store(store_location)
    record(first, SHARED, "manilhas", [True])
    first.close()  # e.g. a worker that finished one batch, in a process that gets another
    again = open_store(store_location)
    assert again is not first and not again.closed
    record(again, SHARED, "manilhas", [False])
    assert learner_progress(again, SHARED.key)["manilhas"]["asked"] == 2


# A store file that cannot be read is never replaced ---------------------------------------
def _made_store(path) -> bytes:
    """A real store holding Ana's "2 of 3" in manilhas, closed; its bytes."""
    store = open_store(str(path))
    record(store, ANA, "manilhas", [True, False, True])
    store.close()
    return path.read_bytes()


def _damage(kind: str, path) -> None:
    whole = _made_store(path)
    if kind == "empty":
        path.write_bytes(b"")
    elif kind == "truncated":
        path.write_bytes(whole[:len(whole) // 2])
    elif kind == "garbage header":
        path.write_bytes(b"NOT SQLITE AT ALL" + whole[17:])
    elif kind == "folder":
        path.unlink()
        path.mkdir()
        (path / "inside.txt").write_text("someone's file")


def _fingerprint(path):
    info = path.stat()
    content = (sorted(p.name for p in path.iterdir()) if path.is_dir()
               else hashlib.sha256(path.read_bytes()).hexdigest())
    return content, info.st_mtime_ns, info.st_size


DAMAGE = ["empty", "truncated", "garbage header", "folder"]


@pytest.mark.parametrize("kind", DAMAGE)
def test_an_unreadable_store_file_is_refused_and_left_as_it_was_on_read_and_write(tmp_path, kind):
    path = tmp_path / "cartas.db"
    _damage(kind, path)
    before = _fingerprint(path)
    time.sleep(0.01)  # a rewrite would show in the modification time
    with pytest.raises(StoreUnavailable, match="cannot read"):
        learner_progress(open_store(str(path)), ANA.key)  # read
    with pytest.raises(StoreUnavailable, match="cannot read"):
        record(connect(str(path)), ANA, "manilhas", [True])  # write
    assert _fingerprint(path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cartas.db"]  # no -wal, no replacement


def test_a_store_path_where_nothing_exists_yet_gets_a_new_store_that_is_never_empty(tmp_path):
    path = tmp_path / "deeper" / "cartas.db"
    store = connect(str(path))
    assert path.stat().st_size > 0  # a header from the start: an empty file is always damage
    store.close()
    again = open_store(str(path))
    record(again, ANA, "manilhas", [True])
    assert learner_progress(again, ANA.key)["manilhas"]["asked"] == 1
    assert sorted(p.name for p in path.parent.iterdir() if not p.name.startswith("cartas.db-")) == ["cartas.db"]


def test_kernels_creating_one_new_store_at_once_all_keep_the_same_file(tmp_path):
    path = tmp_path / "cartas.db"
    context = learner_processes.context()
    with context.Pool(4) as pool:
        done = pool.starmap(record_many, [(str(path), w, 20) for w in range(4)])
    assert done == [20] * 4
    assert learner_progress(connect(str(path)), SHARED.key)["shared"]["asked"] == 80


@pytest.mark.parametrize("kind", DAMAGE)
def test_a_lesson_on_an_unreadable_store_file_says_progress_is_not_saved_in_both_languages(
        tmp_path, monkeypatch, kind):
    from widgets.components import learner as identity
    from widgets.pages.manilhas import ManilhaExplorer
    path = tmp_path / "cartas.db"
    _damage(kind, path)
    before = _fingerprint(path)
    monkeypatch.setenv("CARTAS_DB", str(path))
    view = ManilhaExplorer(seed=3)
    ex = view.exercises
    ex.next_button.click()
    right = dict(ex.question.options)[ex.question.answer]["pt"]
    next(b for b in ex.buttons.children if b.description == right).click()
    assert "cartas-right" in ex.feedback.value and ex.score.right == 1  # the lesson goes on
    assert "não está sendo salvo" in identity.widget().notice
    view.language.value = "en"
    assert "not being saved" in identity.widget().notice
    assert _fingerprint(path) == before
