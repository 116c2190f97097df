"""Guessing is limited: teacher keys and table codes, per browser and per class, counted in
the store (SQLite and PostgreSQL), with a clock moved by hand."""
from __future__ import annotations

import pytest

from classroom import attempts
from classroom.attempts import (
    FIRST_WAIT,
    LIMIT,
    MAX_WAIT,
    TABLE_CODE,
    TEACHER_KEY,
    WINDOW,
    Attempts,
    TooManyTries,
    this_browser,
)
from classroom.store import connect

import learner_processes

ANA = ["browser:" + "a" * 32, "class:ABC234"]


class Clock:
    def __init__(self, now: float = 1_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock():
    return Clock()


def limiter(location, clock) -> Attempts:
    return Attempts(connect(location), clock=clock)


def fail(limiter_, n, kind=TEACHER_KEY, where=ANA):
    return [limiter_.failed(kind, where) for _ in range(n)]


def test_ten_wrong_tries_in_a_minute_start_a_wait_and_the_right_try_is_refused_during_it(store_location, clock):
    limit = limiter(store_location, clock)
    assert fail(limit, LIMIT - 1) == [0] * (LIMIT - 1)
    limit.check(TEACHER_KEY, ANA)  # nine: no wait yet
    assert limit.failed(TEACHER_KEY, ANA) == FIRST_WAIT
    with pytest.raises(TooManyTries) as refused:
        limit.check(TEACHER_KEY, ANA)
    assert refused.value.wait == FIRST_WAIT
    clock.now += FIRST_WAIT - 1
    assert limit.wait(TEACHER_KEY, ANA) == 1
    clock.now += 1
    limit.check(TEACHER_KEY, ANA)  # the wait is over


def test_tries_spread_over_more_than_a_minute_start_no_wait(store_location, clock):
    limit = limiter(store_location, clock)
    for _ in range(3 * LIMIT):
        assert limit.failed(TEACHER_KEY, ANA) == 0
        clock.now += WINDOW / (LIMIT - 1) + 0.1
    limit.check(TEACHER_KEY, ANA)


def test_each_further_wait_doubles_up_to_the_cap_and_a_long_calm_starts_again(store_location, clock):
    limit = limiter(store_location, clock)
    waits = []
    for _ in range(7):
        waits.append(fail(limit, LIMIT)[-1])
        clock.now += waits[-1]
    assert waits == [20, 40, 80, 160, 320, MAX_WAIT, MAX_WAIT]
    clock.now += attempts.FORGIVE + 1
    assert fail(limit, LIMIT)[-1] == FIRST_WAIT


def test_a_wait_in_one_browser_leaves_another_browser_and_the_other_kind_alone(store_location, clock):
    limit = limiter(store_location, clock)
    fail(limit, LIMIT, where=["browser:" + "a" * 32])
    limit.check(TEACHER_KEY, ["browser:" + "b" * 32])
    limit.check(TABLE_CODE, ["browser:" + "a" * 32])
    with pytest.raises(TooManyTries):
        limit.check(TEACHER_KEY, ["browser:" + "a" * 32])


def test_rule_guess_limits_a_class_count_slows_only_unknown_sources_and_the_guesser_waits_alone(
        store_location, clock):
    """docs/rules.md#guess-limits (issue 33, item 8): many browsers guessing one class share its
    count, but it holds back only pages the server does not know yet; a known browser (the
    real teacher, a classmate) is refused only while it waits itself."""
    limit = limiter(store_location, clock)
    for n in range(LIMIT):
        limit.failed(TEACHER_KEY, [f"browser:{n:032x}", "class:ABC234"])
    limit.check(TEACHER_KEY, ["browser:" + "f" * 32, "class:ABC234"])  # a known browser, same class
    with pytest.raises(TooManyTries) as refused:
        limit.check(TEACHER_KEY, ["page:" + "f" * 32, "address:" + "1" * 16, "class:ABC234"])
    assert refused.value.unknown and "reloading it may be enough" in refused.value.message("en")
    limit.check(TEACHER_KEY, ["page:" + "f" * 32, "address:" + "1" * 16, "class:XYZ789"])
    prankster = ["browser:" + "9" * 32, "class:XYZ789"]
    assert fail(limit, LIMIT, where=prankster)[-1] == FIRST_WAIT
    with pytest.raises(TooManyTries) as refused:
        limit.check(TEACHER_KEY, prankster)  # he waits, the right key included
    assert not refused.value.unknown
    limit.check(TEACHER_KEY, ["browser:" + "8" * 32, "class:XYZ789"])  # the teacher of XYZ789 does not
    limit.check(TEACHER_KEY, ["hub:ana", "class:XYZ789"])  # nor a hub user


def _fail_in_a_process(location, n):
    limit = Attempts(connect(location), clock=lambda: 1_000_000.0)
    return [limit.failed(TEACHER_KEY, ANA) for _ in range(n)]


def test_kernels_of_one_browser_share_the_count(store_location):
    Attempts(connect(store_location))  # migrated once, as the first kernel would
    with learner_processes.context().Pool(2) as pool:
        waits = sum(pool.starmap(_fail_in_a_process, [(store_location, LIMIT // 2)] * 2), [])
    assert sorted(waits) == [0] * (LIMIT - 1) + [FIRST_WAIT]  # exactly one try started the wait


def test_the_wait_is_said_in_words_in_both_languages():
    assert TooManyTries(40).message("pt") == "Muitas tentativas: espere 40 segundos."
    assert TooManyTries(40).message("en") == "Too many tries: wait 40 seconds."
    assert TooManyTries(1).message("pt") == "Muitas tentativas: espere 1 segundo."
    assert TooManyTries(320).message("en") == "Too many tries: wait 6 minutes."
    assert TooManyTries(600).message("pt") == "Muitas tentativas: espere 10 minutos."


def test_the_browser_is_what_the_server_said_never_something_else():
    told = "0123456789abcdef" * 2
    assert this_browser({"HTTP_X_CARTAS_BROWSER": told}) == f"browser:{told}"
    assert this_browser({"HTTP_X_CARTAS_BROWSER": "anything'; DROP", "JUPYTERHUB_USER": "ana"}) == "hub:ana"
    assert this_browser({}).startswith("kernel:")
    assert attempts.sources({"HTTP_X_CARTAS_BROWSER": f"{told}.{'1' * 16}"}) == [f"page:{told}", "address:" + "1" * 16]
    assert attempts.sources({"HTTP_X_CARTAS_BROWSER": f"{told}.{'1' * 15}", "JUPYTERHUB_USER": "bia"}) == ["hub:bia"]


# In the lessons ------------------------------------------------------------------------------
@pytest.fixture
def page_clock(monkeypatch):
    """The lessons' limiter on a clock moved by hand, in a kernel the server told its browser."""
    monkeypatch.setenv("HTTP_X_CARTAS_BROWSER", "c" * 32)
    moved = Clock()
    attempts.set_clock(moved)
    yield moved
    attempts.set_clock(None)


def test_a_teacher_key_wrong_eleven_times_shows_the_wait_and_the_right_key_waits_too(store_location, page_clock):
    from classroom.classes import create_class
    from classroom.progress import open_store
    from widgets.pages.turma import ClassView

    made = create_class(open_store(store_location), "7º B")
    view = ClassView(lang="pt")

    def try_key(key):
        view.code.value, view.key.value = made.code, key
        view.open_button.click()
        return view.message.value

    for _ in range(LIMIT):
        assert "Código ou chave do professor errados" in try_key("AAAA-BBBB-CCCC-DDDD")
    assert "Muitas tentativas: espere 20 segundos." in try_key("AAAA-BBBB-CCCC-DDDD")  # the 11th
    assert "Muitas tentativas: espere 20 segundos." in try_key(made.key)  # right, but during the wait
    assert view.opened is None and not view.ticker.active
    page_clock.now += 15
    english = ClassView(lang="en")  # another tab of the same browser: the same wait
    english.code.value, english.key.value = made.code, made.key
    english.open_button.click()
    assert "Too many tries: wait 5 seconds." in english.message.value and english.opened is None
    page_clock.now += 5
    try_key(made.key)
    assert view.opened is not None and view.opened.code == made.code and view.ticker.active


class Someone:
    """What the identity widget tells a tables page's kernel: its learner."""

    def __init__(self, browser_id: str, name: str, class_code: str = ""):
        from classroom.identity import Learner
        self.current = Learner(browser_id, name, class_code)

    def on_change(self, callback):
        pass


def test_table_codes_tried_wrong_eleven_times_show_the_wait_and_the_right_code_waits_too(page_clock):
    from classroom.tables import MemoryRepository, Tables
    from widgets.pages.mesa import Mesa

    tables = Tables(MemoryRepository())
    code = Mesa(lang="en", tables=tables, identity=Someone("browser-ana", "Ana")).create()
    guesser = Mesa(lang="en", tables=tables, identity=Someone("browser-bia", "Bia"))
    wrong = next(c for c in ("ZZZZZ", "YYYYY") if c != code)

    def try_code(text):
        guesser.code.value = text
        guesser.join_button.click()
        return guesser._slot_for(guesser.join_button).value  # said beside the code and its button

    for _ in range(LIMIT):
        assert f"no table with the code {wrong}" in try_code(wrong)
    assert "Too many tries: wait 20 seconds." in try_code(wrong)
    assert "Too many tries: wait 20 seconds." in try_code(code) and guesser.client is None
    page_clock.now += 20
    try_code(code)
    assert guesser.client is not None and guesser.client.code == code


def test_a_prankster_guessing_keys_and_table_codes_makes_only_himself_wait(store_location, page_clock, monkeypatch):
    """Issue 33, item 8: ten wrong teacher keys or table codes from one browser of a class make
    that browser wait; the real teacher's key and a classmate's table code, from their own
    browsers, still open at once (the class count slows only unknown pages)."""
    from classroom.classes import create_class
    from classroom.progress import open_store
    from classroom.tables import MemoryRepository, Tables
    from widgets.pages.mesa import Mesa
    from widgets.pages.turma import ClassView

    made = create_class(open_store(store_location), "7º B")
    prankster, teacher, classmate = "d" * 32, "e" * 32, "f" * 32
    monkeypatch.setenv("HTTP_X_CARTAS_BROWSER", prankster)
    view = ClassView(lang="en")
    for _ in range(LIMIT + 1):
        view.code.value, view.key.value = made.code, "AAAA-BBBB-CCCC-DDDD"
        view.open_button.click()
    assert "Too many tries: wait 20 seconds." in view.message.value
    tables = Tables(MemoryRepository())
    code = Mesa(lang="en", tables=tables, identity=Someone("browser-ana", "Ana", made.code)).create()
    guesser = Mesa(lang="en", tables=tables, identity=Someone("browser-bia", "Bia", made.code))
    wrong = next(c for c in ("ZZZZZ", "YYYYY") if c != code)
    for _ in range(LIMIT + 1):
        guesser.code.value = wrong
        guesser.join_button.click()
    assert "Too many tries: wait 20 seconds." in guesser._slot_for(guesser.join_button).value

    monkeypatch.setenv("HTTP_X_CARTAS_BROWSER", teacher)
    real = ClassView(lang="en")
    real.code.value, real.key.value = made.code, made.key
    real.open_button.click()
    assert real.opened is not None and real.opened.code == made.code
    monkeypatch.setenv("HTTP_X_CARTAS_BROWSER", classmate)
    ana_friend = Mesa(lang="en", tables=tables, identity=Someone("browser-cid", "Cid", made.code))
    ana_friend.code.value = code
    ana_friend.join_button.click()
    assert ana_friend.client is not None and ana_friend.client.code == code
