"""Bad input to the class service (classroom.service) gets a clear 400 naming the problem, on
every endpoint: JSON nested however deep, a control character in a learner's or a class's
name (issue 33, item 10). A body too large, or from a sender without a learner's token, is
refused before it is read (issue 33, item 2).

The service runs in this process on its own loop and port (tests/school_service.py), on
SQLite and on a throwaway PostgreSQL (which holds no NUL in a text: a NUL used to reach it
and come back as 503 store_down). No hub here: tests/hub drives the same service through a
real JupyterHub.
"""
from __future__ import annotations

import json
import socket

import pytest
from school_service import School

from classroom.service import MAX_BODY, MAX_DEPTH


def _post_endpoints(table: str) -> list[tuple[str, str]]:
    """(who asks, path) for every POST endpoint that reads a JSON body, as the user it is for."""
    return [("ana", "api/progress/ana"), ("ana", "api/tables"),
            *[("ana", f"api/tables/{table}/{action}") for action in ("join", "leave", "start", "move")],
            ("prof", "api/homework"), ("ana", "api/homework/ABCD2345/answer"), ("ana", "api/homework/ABCD2345/game"),
            ("ana", "api/homework/ABCD2345/table"),
            ("prof", "api/live"), *[("prof", f"api/live/ABCD/{action}") for action in ("ask", "close", "end")],
            ("ana", "api/live/ABCD/join"), ("ana", "api/live/ABCD/answer")]


def test_json_nested_thousands_deep_is_a_400_naming_the_nesting_on_every_post_endpoint(school):
    status, table = school.raw("ana", "POST", "api/tables", json.dumps({"game": "paulista"}).encode())
    assert status == 200
    for deep in (b"[" * 20_000 + b"]" * 20_000, b'{"":' * 10_000 + b"1" + b"}" * 10_000,
                 b'{"options": ' + b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1) + b"}"):
        for who, path in _post_endpoints(table["code"]):
            status, answer = school.raw(who, "POST", path, deep)
            assert (status, answer["error"]) == (400, "too_nested"), (path, status, answer)
            assert f"more than {MAX_DEPTH} levels deep" in answer["en"] and "níveis" in answer["pt"]
    # a body as deep as allowed is read as usual (and refused, if at all, for what it says)
    fine = b'{"options": ' + b"[" * (MAX_DEPTH - 1) + b"]" * (MAX_DEPTH - 1) + b"}"
    status, answer = school.raw("ana", "POST", "api/tables", fine)
    assert (status, answer["error"]) == (400, "bad_request")  # no game named
    status, _ = school.raw("ana", "GET", f"api/tables/{table['code']}")
    assert status == 200  # the table is as it was


@pytest.mark.parametrize("char", ["\x00", "\x01", "\x1b", "\x7f"])
def test_a_control_character_in_a_learners_or_a_class_name_is_a_400_naming_it(school, char):
    escaped = f"%{ord(char):02X}"
    code = f"U+{ord(char):04X}"
    for path in (f"api/progress/ana{escaped}", f"api/classes/turma-a{escaped}",
                 f"api/classes/turma-a{escaped}/tables", f"api/classes/turma-a{escaped}/homework",
                 f"api/classes/turma-a{escaped}/skills"):
        status, answer = school.raw("prof", "GET", path)
        assert (status, answer["error"]) == (400, "control_character"), (path, status, answer)
        assert code in answer["en"] and code in answer["pt"] and "name or code" in answer["en"]
    status, answer = school.raw("ana", "POST", f"api/progress/ana{escaped}",
                                json.dumps({"lesson": "manilhas", "answers": [True]}).encode())
    assert (status, answer["error"]) == (400, "control_character")
    assert school.raw("prof", "GET", "api/progress/ana") == (200, {})  # nothing was written


def test_a_nul_in_a_text_of_a_request_is_a_400_naming_it(school):
    body = {"class": "turma-a", "title": "Tarefa\x00 1", "due": "2030-12-20", "pass_mark": 50,
            "items": [{"kind": "lesson", "lesson": "manilhas", "need": 2}]}
    status, answer = school.raw("prof", "POST", "api/homework", json.dumps(body).encode())
    assert (status, answer["error"]) == (400, "control_character") and "U+0000" in answer["en"]
    assert school.raw("prof", "GET", "api/classes/turma-a/homework") == (200, [])


def _more(sock: socket.socket) -> bytes:
    got = sock.recv(65536)
    assert got, "the service closed the connection before it answered"
    return got


def _headers_only(school: School, path: str, length: int, token: str | None) -> tuple[int, dict, bool]:
    """A POST declaring a body of `length` bytes, of which only a few are sent: the status and
    JSON of the service's answer, and whether it then closed the connection (it read no more).
    A service that waited for the whole body would answer nothing (socket.timeout)."""
    with socket.create_connection(("127.0.0.1", school.port), timeout=10) as sock:
        auth = f"Authorization: token {token}\r\n" if token else ""
        sock.sendall(f"POST /{path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{auth}Content-Type: application/json\r\n"
                     f"Content-Length: {length}\r\n\r\n".encode() + b"[" * 1000)
        received = b""
        while b"\r\n\r\n" not in received:
            received += _more(sock)
        head, _, rest = received.partition(b"\r\n\r\n")
        size = int(next(line.split(b":")[1] for line in head.split(b"\r\n")
                        if line.lower().startswith(b"content-length")))
        while len(rest) < size:
            rest += _more(sock)
        closed = sock.recv(65536) == b""   # EOF, not more waiting for the body
        return int(head.split()[1]), json.loads(rest), closed


def test_a_body_without_a_learners_token_or_too_large_is_refused_before_it_is_read(school):
    huge = 95 * 1024 * 1024
    for token, length, expected in ((None, huge, 413), (None, 5000, 401), ("token-nobody", 5000, 401),
                                    ("token-ana", huge, 413), ("token-ana", MAX_BODY + 1, 413)):
        for path in ("api/progress/ana", "api/tables", "api/homework/ABCD2345/answer", "api/live/ABCD/join"):
            status, answer, closed = _headers_only(school, path, length, token)
            assert status == expected and closed, (token, length, path, status, answer)
            assert answer["error"] == {401: "no_token" if token is None else "bad_token", 413: "too_large"}[status]
            if status == 413:
                assert f"{MAX_BODY} bytes" in answer["en"] and f"{MAX_BODY} bytes" in answer["pt"]
    # a learner's body within the bound is read and used as ever
    status, _ = school.raw("ana", "POST", "api/progress/ana",
                           json.dumps({"lesson": "manilhas", "answers": [True]}).encode())
    assert status == 200 and school.raw("ana", "GET", "api/progress/ana")[1]["manilhas"]["asked"] == 1
