"""Cartas on a real JupyterHub: the hub's login is the learner, and the class service decides.

Every learner-side step runs in the learner's own kernel, on her own single-user server,
through its kernel API: what a curious learner could run in JupyterLab.
"""
from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from classroom.remote import RemoteClassroom, ServiceRefused

import hubkit
from loops import run_async

pytestmark = pytest.mark.hub


def in_kernel(hub, user: str, code: str) -> dict:
    """Run `code` in `user`'s kernel; it prints one JSON line, returned as a dict."""
    out = run_async(hubkit.run_in_kernel(hub, user, textwrap.dedent(code)))
    return json.loads(out.strip().splitlines()[-1])


async def _both(hub, codes: dict[str, str]) -> dict[str, str]:
    import asyncio
    users = list(codes)
    outs = await asyncio.gather(*(hubkit.run_in_kernel(hub, u, textwrap.dedent(codes[u])) for u in users))
    return dict(zip(users, outs))


@pytest.fixture(scope="session")
def teacher(hub):
    return RemoteClassroom(hub.service_url, hub.token_for("tereza"), "tereza")


PLAY = """
import json
from classroom import hub_classroom
c = hub_classroom()
code, mine = {code!r}, {seat}
view = c.join(code, mine) if mine else c.table(code)
if mine == 0:
    while view["seats"][1]["name"] is None:
        view = c.watch(code, view["version"], wait=10)
    view = c.start(code)
while view["status"] == "waiting":
    view = c.watch(code, view["version"], wait=10)
seen, played, leaks = 0, [], 0
both = lambda v: {{e.get("seat") for e in v.get("events") or [] if e["type"] == "play"}} >= {{0, 1}}
while not (((view.get("view") or {{}}).get("tricks") or view["hand_number"] > 1) and both(view)) and seen < 200:
    seen += 1
    hands = view["hands"] or []
    leaks += sum(card is not None for s, hand in enumerate(hands) if s != mine for card in hand)
    assert view["seat"] == mine and all(card is not None for card in hands[mine])
    if view["status"] == "playing" and view["current_seat"] == mine:
        moves = [m["action"] for m in view["legal"]]
        move = next((m for m in moves if m.startswith("play ")), moves[0])
        played.append(move)
        view = c.move(code, move, view["version"])
    else:
        view = c.watch(code, view["version"], wait=10)
print(json.dumps({{"seat": view["seat"], "views": seen, "played": played, "leaks": leaks,
                  "tricks": len((view.get("view") or {{}}).get("tricks") or []), "hand": view["hands"][mine]}}))
"""


@pytest.fixture(scope="session")
def trick(hub):
    """Ana makes a truco table from her kernel; Bia sits at seat 1 from hers; they play the
    first trick (the bots play seats 2 and 3), each kernel with only its seat's view."""
    made = in_kernel(hub, "ana", """
        import json
        from classroom import hub_classroom
        view = hub_classroom().create_table("paulista", pace=0.2)
        print(json.dumps({"code": view["code"], "seat": view["seat"], "class": view["class"]}))
    """)
    outs = run_async(_both(hub, {"ana": PLAY.format(code=made["code"], seat=0),
                                 "bia": PLAY.format(code=made["code"], seat=1)}))
    return made, {u: json.loads(o.strip().splitlines()[-1]) for u, o in outs.items()}


def test_a_learners_kernel_holds_no_database_credentials(hub):
    found = in_kernel(hub, "ana", """
        import json, os
        secret = [k for k, v in os.environ.items()
                  if "postgres" in v.lower() or k in ("CARTAS_DATABASE_URL", "CARTAS_DB", "PGPASSWORD")]
        print(json.dumps({"secret": secret, "user": os.environ.get("JUPYTERHUB_USER"),
                          "service": bool(os.environ.get("CARTAS_SERVICE_URL")),
                          "token": bool(os.environ.get("JUPYTERHUB_API_TOKEN"))}))
    """)
    assert found == {"secret": [], "user": "ana", "service": True, "token": True}
    assert "CARTAS_DATABASE_URL" not in json.dumps(hub.get(f"{hub.api}/users/ana"))


def test_a_class_is_a_hub_group_listed_before_anyone_opens_a_lesson(hub, teacher):
    rows = {row["name"]: row for row in teacher.class_learners(hubkit.CLASS)}
    assert set(rows) == {"ana", "bia", "cora"}
    assert rows["cora"]["lessons"] == {} and rows["cora"]["last_seen"] == 0
    assert {c["name"] for c in teacher.classes()} == {hubkit.CLASS}


def test_each_learners_answers_appear_in_the_teachers_view(hub, teacher):
    def counts() -> dict:  # {name: (right, asked)} of manilhas (the hub's other tests answer too)
        return {row["name"]: tuple(row["lessons"].get("manilhas", {"right": 0, "asked": 0}).values())
                for row in teacher.class_learners(hubkit.CLASS)}
    before = counts()
    record = """
        import json
        import classroom
        from classroom.identity import Learner
        room = classroom.open()   # what the dashboards call: here, the class service
        before = room.progress("ignored").get("manilhas", {{}}).get("asked", 0)  # other tests' answers of hers
        room.record(Learner("any-browser-id", "whoever", ""), "manilhas", {answers})
        print(json.dumps({{"mine": room.progress("ignored")["manilhas"]["asked"] - before}}))
    """
    assert in_kernel(hub, "ana", record.format(answers=[True, False, True]))["mine"] == 3
    # Bia answers through the dashboards' own code: the learner widget (the hub user, no
    # name typed) and the scores recorder
    assert in_kernel(hub, "bia", """
        import json
        from widgets.components import learner, scores
        badge = learner.widget(lang="pt", form=True)
        scores.recorder().add("manilhas", False)
        print(json.dumps({"name": badge.current.name, "hub": badge.hub, "saved": scores.recorder().flush(force=True),
                          "mine": scores.load()["manilhas"]["asked"]}))
    """) == {"name": "bia", "hub": True, "saved": True, "mine": before["bia"][1] + 1}
    after = counts()
    gained = {name: (after[name][0] - before[name][0], after[name][1] - before[name][1]) for name in after}
    assert gained == {"ana": (2, 3), "bia": (0, 1), "cora": (0, 0)}


def test_two_learners_play_a_trick_each_seeing_only_her_own_hand(trick):
    made, played = trick
    assert made["seat"] == 0 and made["class"] == hubkit.CLASS
    for user, seat in (("ana", 0), ("bia", 1)):
        result = played[user]
        assert result["seat"] == seat
        assert result["leaks"] == 0          # never a card of another seat
        assert len(result["played"]) >= 1    # she played from her own kernel
        assert result["tricks"] >= 1 or result["hand"] is not None


def test_the_teacher_watches_the_table_without_seeing_a_hidden_card(trick, teacher):
    made, _ = trick
    listed = [t["code"] for t in teacher.class_tables(hubkit.CLASS)]
    assert made["code"] in listed
    watched = teacher.table(made["code"])
    assert watched["seat"] is None
    assert all(card is None for hand in watched["hands"] for card in hand)


ATTACK = """
import json
from classroom import hub_classroom
from classroom.remote import ServiceRefused
c = hub_classroom()
def status(call):
    try:
        call()
        return 200
    except ServiceRefused as refused:
        return refused.status
print(json.dumps({
    "read_other_progress": status(lambda: c.progress("bia")),
    "write_other_progress": status(lambda: c.call("POST", "api/progress/bia",
                                                  {"lesson": "manilhas", "answers": [True] * 50})),
    "other_seat": status(lambda: c.table(CODE, seat=1)),
    "teachers_view": status(lambda: c.class_learners("turma-a")),
    "teachers_classes": status(lambda: c.classes()),
    "teachers_tables": status(lambda: c.class_tables("turma-a")),
    "no_token": status(lambda: type(c)(c.url, "", "ana").progress()),
    "own_progress": status(lambda: c.progress()),
    "busy_bots": status(lambda: c.create_table("paulista", pace=0)),
    "seeded_hands": [c.start(c.create_table("paulista", seed=1, pace=5)["code"])["hands"][0] for _ in range(2)],
}))
"""


@pytest.fixture(scope="session")
def attempts(hub, trick):
    made, _ = trick
    return in_kernel(hub, "ana", ATTACK.replace("CODE", repr(made["code"])))


def test_her_token_cannot_read_another_learners_progress(attempts):
    assert attempts["read_other_progress"] == 403
    assert attempts["own_progress"] == 200


def test_her_token_cannot_write_for_anyone_else(attempts, teacher):
    assert attempts["write_other_progress"] == 403
    rows = {row["name"]: row for row in teacher.class_learners(hubkit.CLASS)}
    assert rows["bia"]["lessons"].get("manilhas", {"asked": 0})["asked"] < 50


def test_her_token_cannot_see_another_seats_cards(attempts):
    assert attempts["other_seat"] == 403


def test_her_token_cannot_open_the_teachers_view(attempts):
    assert attempts["teachers_view"] == attempts["teachers_classes"] == attempts["teachers_tables"] == 403


def test_a_request_without_a_hub_token_is_refused(attempts, teacher):
    assert attempts["no_token"] == 401
    with pytest.raises(ServiceRefused) as refused:
        RemoteClassroom(teacher.url, "not-a-token-the-hub-knows", "tereza").classes()
    assert refused.value.status == 401 and refused.value.pt and refused.value.en


def test_the_idle_culler_runs_as_a_hub_service(hub):
    import os
    services = hub.get(f"{hub.api}/services")
    for name in ("idle-culler", "cartas"):
        pid = services[name]["pid"]
        assert pid, f"{name} is not running"
        os.kill(pid, 0)  # alive (raises ProcessLookupError otherwise)


def test_the_teachers_page_lists_her_class_from_her_own_server(hub):
    """The teacher's dashboard (turma) in her own kernel: the class is the hub group, no key
    asked; every member is listed, with the answers recorded above."""
    hub.spawn_servers(["tereza"])
    shown = in_kernel(hub, "tereza", """
        import json
        from widgets.pages.turma import ClassView
        page = ClassView(lang="pt")
        page.open_table("turma-a", "")
        print(json.dumps({"rows": {r["name"]: r["lessons"] for r in page.rows}, "html": page.table.value}))
    """)
    assert set(shown["rows"]) == {"ana", "bia", "cora"}
    for name in ("ana", "bia", "cora"):
        assert f"data-learner='{name}'" in shown["html"]


def test_a_learners_server_cannot_open_the_teachers_page(hub):
    refused = in_kernel(hub, "ana", """
        import json
        from widgets.pages.turma import ClassView
        page = ClassView(lang="pt")
        try:
            page.open_table("turma-a", "")
            print(json.dumps({"opened": True}))
        except ValueError as error:
            print(json.dumps({"opened": page.opened is not None, "message": str(error)}))
    """)
    assert refused["opened"] is False and refused["message"]


def test_she_cannot_make_bots_busy_nor_choose_a_tables_deals(attempts):
    assert attempts["busy_bots"] == 400
    first, second = attempts["seeded_hands"]   # two tables asked for with one seed
    assert first != second and None not in first  # the seed was ignored: two different deals


def test_a_learner_records_a_homework_item_from_her_own_kernel_and_the_teacher_sees_it(hub, teacher):
    """Homework through the class service (issue 33, item 1): the teacher gives it to the hub
    group; a finished game Ana's kernel sends does not count (one where she chose every seat's
    moves, or one set up at 11 to 0, counted before); she plays the item from the homework page
    in her own kernel, on a homework table the service deals (its seed and bots stay there);
    its end marks the item done, for her only, and her token cannot read the class's results."""
    from classroom.interface import ServiceClassroom
    task = ServiceClassroom(teacher).homework().create(hubkit.CLASS, "Tarefa do hub", "2030-12-20", 50,
                                     [{"kind": "game", "game": "21", "where": "bots"}])
    done = in_kernel(hub, "ana", """
        import asyncio, json, time
        import classroom
        from classroom import homework
        from classroom.remote import ServiceRefused
        from cartas.games import find_game
        from widgets.pages.tarefa import Homework
        service = classroom.open().homework()   # what the pages call: the class service
        todo = [t["id"] for t in service.learner_homework("hub:bia")]
        spec = find_game("21")
        state = spec.new_game(3, seats=3, rounds=1)
        while not state.is_terminal():                         # she plays every seat herself
            state.apply_action(state.legal_actions()[0])
        forged = json.loads(state.to_json())
        forged["setup"]["options"]["chips"] = [200, 1, 1]      # a start no new game has
        refused = []
        for text in (state.to_json(), json.dumps(forged)):   # sent as kernels of older versions sent a game
            try:
                classroom.open().client.call("POST", f"api/homework/{TASK}/game",
                                             {"item": 0, "game": "21", "state": text})
                refused.append(None)
            except ServiceRefused as error:
                refused.append(error.code)
        page = Homework(code=TASK, lang="pt")                  # the homework page, in her own kernel
        game = page.play_here(0, seats=3, options={"rounds": 1}, pace=0.2)   # her table, dealt by the service
        snap = lambda: game.client.snap
        end, beat, sent = time.monotonic() + 120, 0.0, []
        while not (page.task and page.task["states"][0]["done"]):
            if time.monotonic() > end:
                raise RuntimeError("the game did not end: " + game.status.value + game.message.value)
            if time.monotonic() - beat > 3:
                game.browser_beat()                            # what the page's browser timer does
                beat = time.monotonic()
            sent.append(json.dumps(snap().view))
            state = snap().state
            if state is not None and snap().status == "playing" and state.current_seat == 0:
                legal = state.legal_actions()
                game.act(next((a for a in legal if str(a) == "stand"), legal[0]))
            await asyncio.sleep(0.1)                           # the page's own loop waits on the long poll
        try:
            service.class_results(TASK)
            results = 200
        except ServiceRefused as refused_results:
            results = refused_results.status
        print(json.dumps({"todo": todo, "refused": refused, "store": type(game.tables).__name__,
                          "status": snap().status, "seed_sent": any('"seed"' in v or '"state"' in v for v in sent),
                          "mine": page.task["states"][0], "results": results}))
    """.replace("TASK", repr(task["id"])))
    assert done["todo"] == [task["id"]] and done["results"] == 403
    assert done["refused"] == ["service_deals", "service_deals"]
    assert done["store"] == "RemoteTables" and done["status"] == "finished" and not done["seed_sent"]
    rows = {r["id"]: r["states"][0] for r in ServiceClassroom(teacher).homework().class_results(task["id"])["learners"]}
    assert set(rows) == {"ana", "bia", "cora"}
    assert rows["ana"]["done"] and rows["ana"]["right"] and rows["ana"]["choice"] == done["mine"]["choice"]
    assert not rows["bia"]["done"] and not rows["cora"]["done"]


MESA = """
import asyncio, json, re, time
from classroom import games
from widgets.pages.mesa import Mesa
code, mine = {code!r}, {seat}
page = Mesa(lang="pt", code=code)      # the tables dashboard, in her own kernel: the hub user is the learner
assert page.client is not None, page.message.value
if page.client.seat != mine:
    page.sit(mine)
snap = lambda: page.client.snap

async def until(done, limit=90):
    end, beat = time.monotonic() + limit, 0.0
    while not done():
        if time.monotonic() > end:
            raise RuntimeError("the table did not get there: " + page.status.value + page.message.value)
        if time.monotonic() - beat > 3:
            page.browser_beat()         # what the page's browser timer does
            beat = time.monotonic()
        await asyncio.sleep(0.1)        # the page's own loop waits on the service's long poll meanwhile

def plays(seat):
    state = snap().state
    return state is not None and any(e["type"] == "play" and e.get("seat") == seat for e in state.events)

def turn():
    state = snap().state
    if state is None or snap().status != "playing" or state.current_seat != mine:
        return False
    legal = state.legal_actions()
    if any(a.kind == "play" for a in legal):
        hand = state.view(mine).hand
        page.play_card(next(i for i, c in enumerate(hand) if any(a.kind == "play" and a.card == c for a in legal)))
    else:
        page.act(next((a for a in legal if a.kind == "accept"), legal[0]))
    return True

if mine == 0:
    await until(lambda: snap().view["seats"][1]["name"] is not None)
    page.start_button.click()
await until(lambda: snap().status == "playing")
my_view = lambda: snap().state.view(mine)
done = lambda: len(my_view().tricks) + games.hand_number(my_view(), snap().game) > 1 and plays(0) and plays(1)
moves = 0
async def play():
    global moves
    while not done():
        moves += turn()
        await asyncio.sleep(0.1)
task = asyncio.ensure_future(play())
await until(task.done, 120)
task.result()
drawn = set()
for block in re.findall(r'class="cartas-hand".*?</div>', page.picture.value, flags=re.DOTALL):
    drawn |= {{c for c in re.findall(r'data-card="([^"]+)"', block) if c != "back"}}
sent = snap().view
print(json.dumps({{"seat": page.client.seat, "moves": moves, "drawn": sorted(drawn),
                  "own": sorted(str(c) for c in snap().state.view(mine).hand),
                  "others": sum(c is not None for s, h in enumerate(sent["hands"]) if s != mine for c in h),
                  "state_sent": '"state"' in json.dumps(sent) or "seed" in json.dumps(sent),
                  "watches": page.client.watches, "store": type(page.tables).__name__}}))
"""


def test_two_learners_play_a_trick_on_the_mesa_page_each_drawing_only_her_own_hand(hub):
    """The tables dashboard's own view (widgets.pages.mesa) in each learner's kernel, with its
    tables asked of the class service: Ana creates the table on her page, both open it, Bia
    sits, Ana deals, each plays through the page; each page draws only her own hand."""
    made = in_kernel(hub, "ana", """
        import json
        from widgets.pages.mesa import Mesa
        page = Mesa(lang="pt")
        page.pace = 0.2                 # the bots' pace, as ?ritmo=0.2 sets it
        code = page.create()
        print(json.dumps({"code": code, "seat": page.client.seat, "store": type(page.tables).__name__}))
    """)
    assert made["seat"] == 0 and made["store"] == "RemoteTables"
    outs = run_async(_both(hub, {"ana": MESA.format(code=made["code"], seat=0),
                                 "bia": MESA.format(code=made["code"], seat=1)}))
    seen = {u: json.loads(o.strip().splitlines()[-1]) for u, o in outs.items()}
    for user, seat in (("ana", 0), ("bia", 1)):
        page = seen[user]
        assert page["seat"] == seat and page["store"] == "RemoteTables"
        assert page["moves"] >= 1                              # she played through her page
        assert page["others"] == 0 and not page["state_sent"]  # her kernel never got another's card
        assert page["drawn"] == page["own"]                    # the picture: her own hand, face up
        assert page["watches"] >= 1                            # the page waited on the service's long poll
    assert not set(seen["ana"]["drawn"]) & set(seen["bia"]["drawn"])


def _answer_to_headers_only(hub, path: str, length: int, token: str | None) -> int:
    """The status of the answer to a POST through the hub's proxy declaring a body of `length`
    bytes, of which only a few are sent. A service that waited for the body would answer
    nothing (socket.timeout)."""
    import socket
    with socket.create_connection(("127.0.0.1", hub.proxy_port), timeout=20) as sock:
        auth = f"Authorization: token {token}\r\n" if token else ""
        sock.sendall(f"POST /services/cartas/{path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{auth}"
                     f"Content-Type: application/json\r\nContent-Length: {length}\r\n\r\n".encode() + b"[" * 1000)
        received = b""
        while b"\r\n" not in received:
            got = sock.recv(65536)
            assert got, "the connection was closed with no answer"
            received += got
        return int(received.split()[1])


def test_a_large_body_without_a_hub_token_is_refused_before_it_is_read(hub):
    huge = 95 * 1024 * 1024
    assert _answer_to_headers_only(hub, "api/progress/ana", huge, None) == 413
    assert _answer_to_headers_only(hub, "api/progress/ana", 5000, None) == 401
    assert _answer_to_headers_only(hub, "api/tables", 5000, "not-a-token-the-hub-knows") == 401
    assert _answer_to_headers_only(hub, "api/tables", huge, hub.token_for("ana")) == 413


def test_one_learner_guessing_table_and_live_codes_makes_only_herself_wait(hub, teacher):
    """Issue 33, items 8 and 6: cora's wrong table codes and live-quiz codes make cora wait
    (429, the right code included), never her class: bia, in the same class, opens ana's new
    table and the live session at once."""
    import itertools
    ana, bia, cora = (RemoteClassroom(hub.service_url, hub.token_for(u), u) for u in ("ana", "bia", "cora"))
    table = ana.create_table("paulista", pace=5)["code"]
    session = teacher.call("POST", "api/live", {"class": hubkit.CLASS})["code"]
    alphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"

    def guesses(length: int, taken: str):
        return ("".join(p) for p in itertools.product(alphabet, repeat=length) if "".join(p) != taken)

    def status(call) -> int:
        try:
            call()
            return 200
        except ServiceRefused as refused:
            return refused.status

    wrong_tables, wrong_live = guesses(5, table), guesses(4, session)
    assert [status(lambda: cora.table(next(wrong_tables))) for _ in range(10)] == [404] * 10
    assert status(lambda: cora.table(next(wrong_tables))) == 429
    assert status(lambda: cora.table(table)) == 429        # she waits, the right code included
    assert bia.table(table)["code"] == table               # her classmate does not
    assert [status(lambda: cora.call("GET", f"api/live/{next(wrong_live)}")) for _ in range(10)] == [404] * 10
    assert status(lambda: cora.call("GET", f"api/live/{next(wrong_live)}")) == 429
    assert status(lambda: cora.call("GET", f"api/live/{session}")) == 429
    assert status(lambda: bia.call("GET", f"api/live/{session}")) == 200
    assert status(lambda: bia.call("GET", f"api/live/{next(wrong_live)}")) == 404


TOURNAMENT_LEARNER = """
import json
from classroom import open as open_classroom
from classroom.remote import ServiceRefused
room = open_classroom()
cup = room.tournaments()
code, host, step = {code!r}, {host!r}, {step!r}
out = {{"mine": cup.my_table(code)}}
if step == "cheat":
    try:
        cup.start_round(code, host, 1)
        out["start"] = 200
    except ServiceRefused as refused:
        out["start"] = refused.status
    try:
        room.client.call("POST", f"api/tournaments/{{code}}/result", {{"scores": [12, 0]}})
        out["result"] = 200
    except ServiceRefused as refused:
        out["result"] = refused.status
if step == "play":
    tables = room.client
    table = out["mine"]["table_code"]
    view = tables.leave(table)  # her page closed: a bot plays her seat
    seen = 0
    while view["status"] != "finished" and seen < 2000:
        seen += 1
        view = tables.watch(table, view["version"], wait=10)
    out["finished"] = view["status"]
    out["board"] = cup.board(code)["status"]
print(json.dumps(out))
"""


def test_two_learners_and_a_teacher_run_a_one_round_tournament(hub, teacher):
    """Issue 34: the teacher opens a tournament from the service's client; ana and bia, from their
    kernels, are seen, enrolled and seated; neither can start a round nor report a result; the
    table's end is the tournament's result."""
    from classroom.remote import RemoteTournaments
    cup = RemoteTournaments(teacher, "tournament", None)
    opened = cup.open(hubkit.CLASS, "", {"game": "paulista", "players": "single", "rounds": 1, "seed": 3,
                                          "pace": 0.05, "level": "easy"})
    code, host = opened["code"], opened["host_token"]
    seen = {u: in_kernel(hub, u, TOURNAMENT_LEARNER.format(code=code, host=host, step="look")) for u in ("ana", "bia")}
    assert all(not s["mine"]["enrolled"] for s in seen.values())
    assert sorted(cup.enrol_present(code, host)) == ["hub:ana", "hub:bia"]
    cheat = in_kernel(hub, "ana", TOURNAMENT_LEARNER.format(code=code, host=host, step="cheat"))
    assert cheat["start"] == 403 and cheat["result"] == 404
    assert cup.start_round(code, host, 1)["tables"] == 1
    outs = run_async(_both(hub, {u: TOURNAMENT_LEARNER.format(code=code, host=host, step="play")
                                 for u in ("ana", "bia")}))
    played = {u: json.loads(o.strip().splitlines()[-1]) for u, o in outs.items()}
    assert played["ana"]["mine"]["table_code"] == played["bia"]["mine"]["table_code"]
    assert {played[u]["finished"] for u in played} == {"finished"}
    board = cup.board(code)
    assert board["status"] == "finished" and len(board["standings"]) == 2
    assert sum(s["points"] for s in board["standings"]) == 1.0
