"""The playground server under attack, over real sockets.

`variantkit serve --port 0` runs in a child process on 127.0.0.1, its
connection and body timeouts lowered so that these tests are quick, and
hostile requests reach it as any client would send them: http.client, or a
raw socket for a lying Content-Length or a head sent a byte at a time.  After
every test the server's log must hold no traceback, and a plain position
request must still be answered (`ANSWER_SECONDS` is a bound for a hang, not a
measure of speed).
"""

from __future__ import annotations

import http.client
import json
import math
import os
import re
import select
import signal
import socket
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

CHESS = {"bundled": "chess"}
TRICE = {"bundled": "trice"}  # perft 5 runs far past the playground's 20 s
ANSWER_SECONDS = 5.0
HOLD_SECONDS = 2.0   # the server's time to send a request, lowered from 15 s
MAX_CONNECTIONS = 30
LAUNCH = textwrap.dedent(f"""
    from variantkit.web import door, server
    server.REQUEST_SECONDS = {HOLD_SECONDS}
    server.MAX_CONNECTIONS = {MAX_CONNECTIONS}
    server.STOP_SECONDS = 1
    door.BODY_SECONDS = 1.0
    from variantkit.cli import cli
    cli(["serve", "--port", "0"])
""")
ROOT = Path(__file__).resolve().parent.parent.parent


@dataclass
class Reply:
    status: int
    text: str

    @property
    def json(self) -> dict[str, Any]:
        answer: dict[str, Any] = json.loads(self.text)
        return answer

    @property
    def rules(self) -> list[str]:
        return [p["rule"] for p in self.json["problems"]]


class Server:
    """The server process, its port and its log."""

    def __init__(self) -> None:
        self.log_file = tempfile.TemporaryFile()  # noqa: SIM115 (open while the server runs)
        self.process = subprocess.Popen(
            [sys.executable, "-u", "-c", LAUNCH], cwd=ROOT, stdout=subprocess.PIPE,
            stderr=self.log_file, text=True)
        assert self.process.stdout is not None
        ready, _, _ = select.select([self.process.stdout], [], [], 60)
        assert ready, "the server did not start"
        line = self.process.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert found, line + self.log()
        self.port = int(found.group(1))
        self.origin = f"http://127.0.0.1:{self.port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                if self.ask("GET", "/api/variants").status == 200:
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

    def log(self) -> str:
        self.log_file.seek(0)
        return self.log_file.read().decode("utf-8", "replace")

    def ask(self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None,
            timeout: float = ANSWER_SECONDS) -> Reply:
        """A request as the page sends it (JSON), unless `body` is bytes or
        `headers` say otherwise."""
        if body is not None and not isinstance(body, bytes):
            body = json.dumps(body).encode("ascii")
        sent = {"Content-Type": "application/json"} if method != "GET" else {}
        sent.update(headers or {})
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            connection.request(method, path, body=body, headers=sent)
            response = connection.getresponse()
            return Reply(response.status, response.read().decode("utf-8"))
        finally:
            connection.close()

    def connect(self) -> socket.socket:
        return socket.create_connection(("127.0.0.1", self.port), timeout=ANSWER_SECONDS)

    def stop(self) -> None:
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    running = Server()
    yield running
    running.stop()
    assert "Traceback" not in running.log()


@pytest.fixture(autouse=True)
def still_serving(server: Server) -> Iterator[None]:
    """After each attack: no traceback in the log, and the board is served."""
    yield
    assert "Traceback" not in server.log(), server.log()[-3000:]
    plain = server.ask("POST", "/api/position", {"source": CHESS})
    assert plain.status == 200 and plain.json["ok"]


def raw(server: Server, data: bytes) -> bytes:
    """What the server answers to `data` on a fresh connection, to its end."""
    with server.connect() as sock:
        sock.sendall(data)
        received = b""
        while chunk := sock.recv(65536):
            received += chunk
    return received


def post_head(server: Server, path: str, length: int, extra: str = "") -> bytes:
    return (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {length}\r\n{extra}\r\n"
            ).encode("ascii")


# -- 1. lone surrogates --------------------------------------------------------------

LONE = "\ud800"
SURROGATE_REQUESTS = [
    ("/api/position", {"source": {"bundled": LONE}}),
    ("/api/source", {"source": {"bundled": LONE}}),
    ("/api/perft", {"source": CHESS, "moves": ["e2e4" + LONE], "depth": 1}),
    ("/api/explain", {"source": CHESS, "cell": "\udc80"}),
    ("/api/pgn", {"source": CHESS, "start": LONE}),
    ("/api/position", {"source": {"yaml": "variantkit: 1\nname: \udc80\ninherits: chess\n"}}),
    ("/api/position", {"source": CHESS, "select": LONE}),
    ("/api/position", {"source": CHESS, LONE: 1}),
    ("/api/search", {"source": CHESS, "moves": [LONE], "depth": 1}),
]


@pytest.mark.parametrize(("path", "body"), SURROGATE_REQUESTS)
def test_a_lone_surrogate_is_refused_at_the_door(server: Server, path: str,
                                                 body: dict[str, Any]) -> None:
    reply = server.ask("POST", path, body)
    assert reply.status == 400 and reply.rules == ["bad-request"]
    assert "lone UTF-16 surrogate" in reply.json["problems"][0]["message"]


def test_a_surrogate_made_by_the_yaml_itself_is_answered(server: Server) -> None:
    # A YAML escape makes the variant's name a lone surrogate inside the
    # worker: the answer quotes it, escaped, instead of failing to encode.
    text = 'variantkit: 1\nname: "\\udc80"\ninherits: chess\n'
    reply = server.ask("POST", "/api/position", {"source": {"yaml": text}})
    assert reply.status == 200 and reply.json["name"] == "\udc80"
    assert reply.text.isascii()


# -- 2. a client that leaves in the middle of its body --------------------------------


def test_a_client_that_leaves_mid_body_leaves_no_traceback(server: Server) -> None:
    for _ in range(5):
        with server.connect() as sock:
            sock.sendall(post_head(server, "/api/position", 1000) + b'{"source": ')
    time.sleep(0.5)  # the server notices the closed connections
    # (the autouse fixture reads the log)


def test_a_body_that_never_ends_is_answered_in_time(server: Server) -> None:
    answer = raw(server, post_head(server, "/api/position", 1000, "Connection: close\r\n")
                 + b'{"source": ')
    assert answer.startswith(b"HTTP/1.1 408") and b'"time-limit"' in answer


# -- 3. the queue is bounded, and the work of a client that left is stopped ---------------


def test_perft_of_clients_that_left_is_stopped(server: Server) -> None:
    body = json.dumps({"source": TRICE, "depth": 5}).encode()
    sockets = [server.connect() for _ in range(4)]
    answers = []
    try:
        for sock in sockets:
            sock.sendall(post_head(server, "/api/perft", len(body)) + body)
            time.sleep(0.1)
        # One perft runs, two wait for their share of the workers, the
        # fourth is refused at once: the queue is bounded.
        readable, _, _ = select.select(sockets, [], [], ANSWER_SECONDS)
        answers = [sock.recv(65536) for sock in readable]
        # The board is served meanwhile: perft holds only one worker.
        plain = server.ask("POST", "/api/position", {"source": CHESS})
        assert plain.status == 200 and plain.json["ok"]
    finally:
        for sock in sockets:
            sock.close()
    assert len(answers) == 1 and answers[0].startswith(b"HTTP/1.1 503")
    assert b'"busy"' in answers[0]
    # Their clients gone, the perft that ran was stopped and the waiting ones
    # dropped: a new perft finds the worker free, long before the 20 s that
    # the first would have taken.
    time.sleep(0.5)
    quick = server.ask("POST", "/api/perft", {"source": CHESS, "depth": 2})
    assert quick.status == 200 and quick.json["nodes"] == 400


# -- 4. numbers: finite and in range --------------------------------------------------------


@pytest.mark.parametrize("number", [b"NaN", b"Infinity", b"-Infinity", b"1e400",
                                    b"123456789012345678901234567890"])
def test_numbers_that_are_not_finite_are_refused(server: Server, number: bytes) -> None:
    body = b'{"source": {"bundled": "chess"}, "seconds": ' + number + b'}'
    reply = server.ask("POST", "/api/search", body)
    assert reply.status == 400 and reply.rules == ["bad-request"]


@pytest.mark.parametrize("value", [-1, 0, 10**18, 1e308, -1e308, 2.5, True, [1], {"a": 1}, "3"])
def test_numeric_fields_are_in_range_or_refused(server: Server, value: Any) -> None:
    for path, name in (("/api/perft", "depth"), ("/api/position", "ply")):
        reply = server.ask("POST", path, {"source": CHESS, name: value})
        if reply.json["ok"]:
            assert (path, value) == ("/api/position", 0)
        else:
            assert reply.status == 400 or reply.rules == ["bad-request"]
    started = server.ask("POST", "/api/search", {"source": CHESS, "seconds": value})
    if started.json["ok"]:  # clamped into 0.1 .. 10 s
        assert isinstance(value, int | float) and math.isfinite(value)
        server.ask("DELETE", f"/api/search/{started.json['id']}")
    else:
        assert started.rules == ["bad-request"]


# -- 5. quotes are cut ------------------------------------------------------------------------


@pytest.mark.parametrize(("path", "body"), [
    ("/api/position", {"source": {"bundled": "x" * 200_000}}),
    ("/api/explain", {"source": CHESS, "cell": "y" * 100_000}),
    ("/api/position", {"source": CHESS, "select": "z" * 100_000}),
    ("/api/position", {"source": CHESS, "moves": ["e2e4" * 25_000]}),
    ("/api/position", {"source": CHESS, "start": "8/" * 50_000}),
    ("/api/nothing" + "n" * 50_000, {}),
])
def test_refusals_quote_long_input_cut(server: Server, path: str, body: dict[str, Any]) -> None:
    reply = server.ask("POST", path, body)
    assert not reply.json["ok"]
    assert len(reply.text) < 2000, reply.text[:300]  # the list of variants, not the input


# -- 6. only the page itself may make the server compute -----------------------------------


def test_cross_site_requests_are_refused(server: Server) -> None:
    body = {"source": CHESS, "depth": 3}
    for headers in ({"Content-Type": "text/plain"},
                    {"Content-Type": "application/x-www-form-urlencoded"},
                    {"Origin": "http://evil.example"},
                    {"Origin": "null"},
                    {"Sec-Fetch-Site": "cross-site"},
                    {"Origin": f"http://localhost:{server.port}"}):
        reply = server.ask("POST", "/api/perft", body, headers)
        assert reply.status == 403 and reply.rules == ["cross-origin"], headers
    own = server.ask("POST", "/api/perft", body, {"Origin": server.origin,
                                                  "Sec-Fetch-Site": "same-origin"})
    assert own.status == 200 and own.json["nodes"] == 8902
    started = server.ask("POST", "/api/search", {"source": CHESS, "seconds": 5})
    key = started.json["id"]
    refused = server.ask("DELETE", f"/api/search/{key}", headers={"Content-Type": ""})
    assert refused.status == 403
    assert server.ask("DELETE", f"/api/search/{key}").json["ok"]
    # Reading stays open: the page and its files, the catalogue.
    assert server.ask("GET", "/api/variants", headers={"Origin": "http://evil.example"}).status \
        == 200


def test_the_page_sends_json() -> None:
    script = (ROOT / "variantkit" / "web" / "static" / "app.js").read_text(encoding="utf-8")
    assert 'if (options.method !== "GET") options.headers = {"Content-Type": ' \
        '"application/json"}' in script


# -- 7. a large polar board typed in the editor ---------------------------------------------


def test_a_100_by_10_disk_is_answered_by_the_budget(server: Server) -> None:
    sectors = ", ".join(f"s{i}" for i in range(100))
    rings = ", ".join(f"'{r}'" for r in range(1, 11))
    text = (f"variantkit: 1\nname: disk\ninherits: chess\nboard:\n  polar:\n"
            f"    sectors: [{sectors}]\n    rings: [{rings}]\n"
            f"    centre: '0'\n    cell-name: '{{sector}}.{{ring}}'\n"
            f"setup: RNBQKBNR92/{'100/' * 8}rnbqkbnr92/1 w - - 0 1\n")
    reply = server.ask("POST", "/api/position", {"source": {"yaml": text}})
    assert reply.status == 200 and reply.rules == ["too-large"]
    assert "more work than allowed" in reply.json["problems"][0]["message"]


# -- 8. slow and idle connections -------------------------------------------------------------


def test_held_connections_neither_stay_nor_starve_the_server(server: Server) -> None:
    held = [server.connect() for _ in range(MAX_CONNECTIONS + 10)]
    try:
        for sock in held:
            sock.sendall(b"GET /api/variants HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        # More connections than allowed: the oldest held ones make room.
        plain = server.ask("POST", "/api/position", {"source": CHESS})
        assert plain.status == 200 and plain.json["ok"]
        deadline = time.monotonic() + HOLD_SECONDS + ANSWER_SECONDS
        for sock in held:
            sock.settimeout(max(0.1, deadline - time.monotonic()))
            try:
                sock.sendall(b"a")
                assert sock.recv(1) == b""  # closed by the server
            except (ConnectionResetError, BrokenPipeError):
                pass
    finally:
        for sock in held:
            sock.close()


def test_an_idle_connection_is_closed(server: Server) -> None:
    with server.connect() as sock:
        sock.settimeout(HOLD_SECONDS + ANSWER_SECONDS)
        assert sock.recv(1) == b""


# -- everything else a client might send --------------------------------------------------------

ROUTES = ["/api/position", "/api/source", "/api/perft", "/api/explain", "/api/pgn", "/api/search"]
FIELDS = ["source", "start", "moves", "ply", "select", "drop", "flip", "cell", "depth", "seconds"]
VALUES: list[Any] = [None, True, -1, 10**19, 1e308, "", "x" * 20_000, "../../etc/passwd",
                     [], ["e2e4"] * 2000, {}, {"bundled": ["chess"]}, [[[[[[[[]]]]]]]]]


def test_odd_requests_get_clear_answers(server: Server) -> None:
    strange: list[tuple[str, str, bytes | None, dict[str, str]]] = [
        ("GET", "/api/position", None, {}),
        ("HEAD", "/api/perft", None, {}),
        ("OPTIONS", "/api/position", None, {}),
        ("PUT", "/api/search", b"{}", {}),
        ("GET", "/api/nothing", None, {}),
        ("GET", "/static/../app.py", None, {}),
        ("GET", "/static/%2e%2e/%2e%2e/pyproject.toml", None, {}),
        ("GET", "/api/search/" + "k" * 5000, None, {}),
        ("POST", "/api/position", b"", {}),
        ("POST", "/api/position", b"\xff\xfe\x00garbage", {}),
        ("POST", "/api/position", b"[" * 5000 + b"]" * 5000, {}),
        ("POST", "/api/position", b'{"a":' * 100 + b"1" + b"}" * 100, {}),
        ("POST", "/api/position", b"[1, 2]", {}),
        ("POST", "/api/position", b'"text"', {}),
        ("POST", "/api/position", b"{}" + b" " * 300_000, {}),
        # A long key over a long list: places are named only when refused.
        ("POST", "/api/position", json.dumps({"k" * 200_000: [0] * 25_000}).encode(), {}),
        ("GET", "/api/variants", None, {"Host": "evil.example"}),
        ("GET", "/api/variants", None, {"X-Big": "b" * 8000}),
    ]
    for method, path, body, headers in strange:
        reply = server.ask(method, path, body, headers)
        assert reply.status < 500, (method, path, reply.status, reply.text[:200])
        if method != "HEAD":
            assert reply.json["ok"] is False or path == "/api/variants", (method, path)
            assert reply.json.get("problems") or reply.json["ok"], (method, path)


def test_every_field_of_every_route_takes_anything(server: Server) -> None:
    for path in ROUTES:
        for name in FIELDS:
            for value in VALUES:
                body = {"source": CHESS, name: value}
                reply = server.ask("POST", path, body)
                assert reply.status in (200, 400, 503), (path, name, value, reply.status)
                answer = reply.json
                assert answer["ok"] or answer["problems"], (path, name, value)
                if answer["ok"] and path == "/api/search":
                    server.ask("DELETE", f"/api/search/{answer['id']}")
                if not answer["ok"]:
                    assert all(len(p["message"]) < 1000 for p in answer["problems"])


def test_a_huge_head_is_refused(server: Server) -> None:
    answer = raw(server, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Huge: "
                 + b"h" * 100_000 + b"\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 431") and b'"too-large"' in answer
    # Sent a piece at a time, it never arrives whole: uvicorn stops reading it.
    with server.connect() as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        for _ in range(9):  # 72 KB, just past the buffer
            sock.sendall(b"X-Piece: " + b"p" * 8000 + b"\r\n")
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
        assert answer.startswith(b"HTTP/1.1 400") and b'"bad-request"' in answer
    assert b'"bad-request"' in raw(server, b"\x16\x03\x01 not http at all\r\n\r\n")


@pytest.mark.skipif(os.name != "posix", reason="signals")
def test_the_server_stops_on_ctrl_c_answering_what_still_runs() -> None:
    running = Server()
    body = json.dumps({"source": TRICE, "depth": 5}).encode()
    with running.connect() as sock:
        sock.sendall(post_head(running, "/api/perft", len(body)) + body)
        time.sleep(0.5)
        running.stop()
        answer = sock.recv(65536)
    assert answer.startswith(b"HTTP/1.1 503") and b"the server is stopping" in answer
    assert running.process.returncode == 0
    assert "Traceback" not in running.log()


def test_the_playground_limits_are_documented() -> None:
    from variantkit.web import door, server, sources, tasks, workers

    text = (ROOT / "docs" / "limits.md").read_text(encoding="utf-8")
    section = text.split("## The playground server", 1)[1].split("\n## ", 1)[0]
    for shown in (f"{door.MAX_BODY // 1024} KiB", f"{door.MAX_HEAD // 1024} KiB",
                  f"{server.MAX_HEAD_BUFFER // 1024} KiB", f"{door.BODY_SECONDS:g} s",
                  f"{door.MAX_NESTING} levels", f"{door.MAX_DIGITS} digits",
                  f"{workers.MAX_WAITING} (perft: {workers.MAX_SLOW_WAITING}), each for at most "
                  f"{workers.WAIT_SECONDS:g} s",
                  f"{server.REQUEST_SECONDS:g} s", f"{server.KEEP_ALIVE_SECONDS} s",
                  f"| {server.MAX_CONNECTIONS};", f"{sources.LOAD_UNITS:,} units",
                  f"{sources.LOAD_SECONDS:g} s", f"{tasks.MAX_PLIES:,}",
                  f"1 to {tasks.MAX_PERFT_DEPTH}", f"{workers.TASK_SECONDS['perft']:g} s",
                  f"{workers.MAX_SEARCHES}, each", f"within {workers.GRACE_SECONDS:g} s",
                  f"| {server.STOP_SECONDS} s more |"):
        assert shown in section, shown
