"""The playground's server without a browser: its JSON API, its limits on
untrusted input, and `variantkit serve`'s refusal of a busy port.

The application runs in-process (Starlette's test client) with its real
worker processes, so time and memory limits are the ones a user meets.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import socket
import time
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

import variantkit
from variantkit.cli import cli
from variantkit.drawing.svg import render
from variantkit.limits import MAX_FILE_BYTES
from variantkit.web import create_app, workers
from variantkit.web.app import STATIC

CHESS = {"bundled": "chess"}
JSON = {"Content-Type": "application/json"}
DIPLOMAT_SUBORN = "2BKRD3bkrd1/1PPPP2hppp1pH/5P5p2/1 b - - 2 4"


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(), base_url="http://127.0.0.1") as client:
        yield client


def post(client: TestClient, path: str, body: Any) -> dict[str, Any]:
    answer: dict[str, Any] = client.post(path, json=body).json()
    return answer


def rules(answer: dict[str, Any]) -> list[str]:
    return [p["rule"] for p in answer["problems"]]


def marks(svg: str) -> dict[str, str]:
    return dict(re.findall(r'data-cell="(\w+)"[^>]*data-mark="([\w-]+)"', svg))


def test_catalogue_offers_bundled_variants_and_examples(client: TestClient) -> None:
    offered = client.get("/api/variants").json()["variants"]
    assert {"kind": "bundled", "name": "diplomat"} in offered
    assert {"kind": "example", "name": "glinski"} in offered
    assert "inherits: chess" in post(client, "/api/source", {"source": {"bundled": "strato"}})[
        "yaml"]


def test_position_after_moves_agrees_with_the_library(client: TestClient) -> None:
    moves = ["e2e4", "d7d5"]
    answer = post(client, "/api/position", {"source": CHESS, "moves": moves, "select": "e4"})
    game = variantkit.load("chess").new_game()
    for move in moves:
        game.push(move)
    assert answer["ok"] and answer["fen"] == game.fen()
    assert answer["status"] == "White to move"
    assert sorted(m["move"] for m in answer["legal"]) == sorted(map(str, game.legal_moves()))
    assert marks(answer["svg"]) == {"e4": "highlight", "d5": "capture", "e5": "move",
                                    "d7": "last-move"}
    assert answer["moves"] == ["e4", "d5"] and answer["played"] == moves
    # Moves may be given in SAN; `played` answers their move strings.
    typed = post(client, "/api/position", {"source": CHESS, "moves": ["e4", "d5", "exd5"]})
    assert typed["played"] == ["e2e4", "d7d5", "e4d5"] and typed["moves"][-1] == "exd5"
    # `ply` shows an earlier position of the same game.
    earlier = post(client, "/api/position", {"source": CHESS, "moves": moves, "ply": 1})
    assert earlier["fen"] == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    assert len(earlier["moves"]) == 2


def test_suborn_targets_are_marked_as_suborns(client: TestClient) -> None:
    answer = post(client, "/api/position", {"source": {"bundled": "diplomat"},
                                            "start": DIPLOMAT_SUBORN, "select": "m1"})
    assert marks(answer["svg"]) == {"m1": "highlight", "n1": "move", "l2": "move",
                                    "n2": "suborn"}
    assert 'class="target-suborn"' in answer["svg"]


def test_render_marks_targets_by_kind() -> None:
    game = variantkit.load("chess").new_game()
    svg = render(game, targets={"e3": "move", "e4": "capture", "e5": "suborn"})
    assert marks(svg) == {"e3": "move", "e4": "capture", "e5": "suborn"}
    assert [kind for kind in re.findall(r'data-target="(\w+)"', svg)] == \
        ["move", "capture", "suborn"]
    with pytest.raises(ValueError, match="kind of target 'jump'"):
        render(game, targets={"e3": "jump"})
    with pytest.raises(ValueError, match="unknown cell 'z9'"):
        render(game, targets={"z9": "move"})


def test_mistakes_come_back_as_problems(client: TestClient) -> None:
    illegal = post(client, "/api/position", {"source": CHESS, "moves": ["e2e5"]})
    assert rules(illegal) == ["illegal-move"] and "e2e5" in illegal["problems"][0]["message"]
    assert rules(post(client, "/api/position", {"source": CHESS, "start": "8/8 w"})) == \
        ["bad-position"]
    assert rules(post(client, "/api/position", {"source": {"bundled": "../x"}})) == \
        ["file-not-found"]
    assert rules(post(client, "/api/position", {"source": "chess"})) == ["bad-request"]
    assert rules(post(client, "/api/perft", {"source": CHESS, "depth": 9})) == ["bad-request"]
    response = client.post("/api/position", content=b"{not json", headers=JSON)
    assert response.status_code == 400 and rules(response.json()) == ["bad-request"]
    typo = post(client, "/api/position", {"source": {
        "yaml": "variantkit: 1\nname: x\ninherits: chess\nsetup: 8/8 w - - 0 1\n"}})
    assert typo["problems"][0]["line"] == 4 and typo["problems"][0]["rule"] == "bad-setup"


def test_typed_yaml_inherits_only_bundled_variants(client: TestClient) -> None:
    for parent in ("/etc/hostname", "../variants/chess.yaml", "chess.yaml"):
        answer = post(client, "/api/position", {"source": {
            "yaml": f"variantkit: 1\nname: x\ninherits: {parent}\n"}})
        assert rules(answer) == ["inherit-not-found"]
        assert "only bundled variants and examples/NAME can be inherited" in \
            answer["problems"][0]["message"]
        assert answer["problems"][0]["line"] == 3
    edited = post(client, "/api/position", {"source": {
        "yaml": "variantkit: 1\nname: mine\ninherits: chess\n"}})
    assert edited["ok"] and edited["name"] == "mine"


def test_oversized_input_is_refused(client: TestClient) -> None:
    response = client.post("/api/position", content=b"[" * 300_000, headers=JSON)
    assert response.status_code == 413 and rules(response.json()) == ["too-large"]
    assert MAX_FILE_BYTES > 256 * 1024  # the request's cap comes first


@pytest.mark.parametrize("text", [
    # A 26x100 board: minutes and gigabytes to compile without limits.
    "variantkit: 1\nname: big\ninherits: chess\nboard:\n  grid: {files: 26, ranks: 100}\n",
    # An alias bomb: nine levels of nine references each.
    "variantkit: 1\nname: bomb\na: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{b}: &{b} [{', '.join([f'*{a}'] * 9)}]\n"
        for a, b in zip("abcdefghi", "bcdefghij", strict=True)),
])
def test_hostile_files_do_not_stall_the_server(client: TestClient, text: str,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(workers.TASK_SECONDS, "position", 2.0)
    started = time.monotonic()
    answer = post(client, "/api/position", {"source": {"yaml": text}})
    assert time.monotonic() - started < 10
    assert not answer["ok"]
    assert rules(answer)[0] in ("time-limit", "memory-limit", "too-large", "board-size")
    # The worker that was stopped is replaced: the next request is served.
    assert post(client, "/api/position", {"source": CHESS})["ok"]


def test_a_task_past_its_time_is_stopped(client: TestClient,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(workers.TASK_SECONDS, "perft", 0.5)
    started = time.monotonic()
    answer = post(client, "/api/perft", {"source": CHESS, "depth": 5})
    assert time.monotonic() - started < 5
    assert rules(answer) == ["time-limit"]
    assert "0.5 s" in answer["problems"][0]["message"]
    assert post(client, "/api/perft", {"source": CHESS, "depth": 1})["nodes"] == 20


def test_a_worker_that_died_is_replaced() -> None:
    worker = workers.Worker()

    def call(request: dict[str, Any]) -> dict[str, Any]:
        return asyncio.run(worker.call("perft", request, 20))

    try:
        assert call({"source": CHESS, "depth": 1})["nodes"] == 20
        first = worker.pid
        assert first is not None
        os.kill(first, signal.SIGKILL)
        deadline = time.monotonic() + 10
        while worker.alive and time.monotonic() < deadline:
            time.sleep(0.05)
        assert call({"source": CHESS, "depth": 2})["nodes"] == 400
        assert worker.pid not in (None, first)
    finally:
        worker.stop()


def test_a_request_waits_for_a_worker_only_so_long(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(workers, "WAIT_SECONDS", 0.5)
    pool = workers.Pool(2)

    async def behind_a_long_perft() -> dict[str, Any]:
        # Trice's perft 5 runs for its whole 20 s; perft has one worker of two.
        long = asyncio.ensure_future(pool.call("perft", {"source": {"bundled": "trice"},
                                                         "depth": 5}))
        await asyncio.sleep(0.2)
        waited = await pool.call("perft", {"source": CHESS, "depth": 1})
        board = await pool.call("position", {"source": CHESS})
        long.cancel()
        await asyncio.wait({long})
        return {"waited": waited, "board": board}

    try:
        answers = asyncio.run(behind_a_long_perft())
    finally:
        pool.close()
    assert rules(answers["waited"]) == ["busy"]
    assert "no worker was free for 0.5 s" in answers["waited"]["problems"][0]["message"]
    assert answers["board"]["ok"]


def test_perft_explain_and_pgn(client: TestClient) -> None:
    assert post(client, "/api/perft", {"source": CHESS, "depth": 3})["nodes"] == 8902
    explained = post(client, "/api/explain", {"source": CHESS, "cell": "g1"})
    assert "white knight (N) on g1" in explained["text"]
    assert "legal moves now (2): f3 h3" in explained["text"]
    pgn = post(client, "/api/pgn", {"source": CHESS, "moves": ["e2e4", "e7e5"]})["pgn"]
    assert '[Variant "chess"]' in pgn and "1. " in pgn


def test_search_reports_depths_and_can_be_stopped(client: TestClient) -> None:
    started = post(client, "/api/search", {"source": CHESS, "moves": ["e2e4"], "depth": 2})
    key = started["id"]
    deadline = time.monotonic() + 20
    while True:
        answer = client.get(f"/api/search/{key}").json()
        if answer["state"] == "done" or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    result = answer["answer"]
    assert result["ok"] and result["depth"] == 2 and len(result["pv"]) >= 1
    game = variantkit.load("chess").new_game()
    game.push("e2e4")
    assert result["move"] in {str(m) for m in game.legal_moves()}

    long = post(client, "/api/search", {"source": CHESS, "seconds": 10})["id"]
    client.delete(f"/api/search/{long}", headers=JSON)
    assert rules(client.get(f"/api/search/{long}").json()) == ["bad-request"]


def test_requests_for_another_host_name_are_refused(client: TestClient) -> None:
    assert client.get("/api/variants", headers={"Host": "attacker.example"}).status_code == 400


def test_the_page_runs_only_its_own_script(client: TestClient) -> None:
    page = client.get("/")
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert page.headers["x-content-type-options"] == "nosniff"
    assert '<script src="/static/app.js">' in page.text
    assert client.get("/static/app.js").status_code == 200
    assert client.get("/static/%2e%2e/app.py").status_code == 404  # no way out of static/


def test_serve_refuses_a_busy_port() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = CliRunner().invoke(cli, ["serve", "--port", str(port)])
    assert result.exit_code == 1
    assert f"cannot listen on 127.0.0.1:{port}: the port is in use" in result.output


def test_the_page_ships_in_the_wheel() -> None:
    root = Path(__file__).resolve().parent.parent.parent
    config = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    setuptools = config["tool"]["setuptools"]
    assert {"variantkit.web", "variantkit.web.static", "variantkit.examples"} <= \
        set(setuptools["packages"])
    patterns = setuptools["package-data"]["variantkit.web.static"]
    shipped = {p.name for pattern in patterns for p in STATIC.glob(pattern)}
    assert shipped == {p.name for p in STATIC.iterdir() if p.is_file()}
    assert {"index.html", "app.js", "style.css"} <= shipped
    assert {"starlette", "uvicorn"} <= {
        re.split(r"[<>=]", d)[0] for d in config["project"]["dependencies"]}


# White holds a queen, two pawns and a knight; Black a rook.
CRAZYHOUSE = {"bundled": "crazyhouse"}
HELD = "r3k2r/8/8/8/8/8/8/R3K2R[QNPPr] w KQkq - 0 1"


def test_hands_and_drops_in_the_playground(client: TestClient) -> None:
    game = variantkit.load("crazyhouse").new_game(HELD)
    answer = post(client, "/api/position", {"source": CRAZYHOUSE, "start": HELD, "drop": "N"})
    assert answer["ok"], answer
    assert answer["hands"] == {"white": {"Q": 1, "N": 1, "P": 2}, "black": {"r": 1}}
    # The knight's legal drops are marked on the board, the knight in the hand.
    dropped = {cell for cell, mark in marks(answer["svg"]).items() if mark == "drop"}
    assert dropped == {m.to_cell for m in game.legal_moves() if m.drop == "N"}
    assert re.search(r'data-hand-piece="N"[^>]*data-mark="highlight"', answer["svg"])
    assert {"move": "N@f3", "from": "f3", "to": "f3", "promotion": None, "suborn": False,
            "swap": False, "drop": "N", "wall": None, "from_hand": True} in answer["legal"]
    # A drop played by its move string or typed as SAN; the hand shrinks.
    played = post(client, "/api/position", {"source": CRAZYHOUSE, "start": HELD,
                                            "moves": ["N@f3", "R@e4"]})
    assert played["moves"] == ["N@f3", "R@e4+"]
    assert played["hands"] == {"white": {"Q": 1, "P": 2}, "black": {}}
    # Black's rook cannot be dropped on White's turn: nothing is marked.
    waiting = post(client, "/api/position", {"source": CRAZYHOUSE, "start": HELD, "drop": "r"})
    assert "drop" not in marks(waiting["svg"]).values()
    # Explain a piece in hand: its legal drops and its drop region.
    explained = post(client, "/api/explain", {"source": CRAZYHOUSE, "start": HELD, "drop": "P"})
    assert explained["ok"], explained
    assert explained["text"].startswith("white pawn (P) in hand (2)")
    assert "its drop region (48)" in explained["text"]
    # A piece that is not in hand, a variant without hands: located refusals.
    for source, letter in ((CRAZYHOUSE, "B"), (CHESS, "P"), (CRAZYHOUSE, 3)):
        refused = post(client, "/api/position", {"source": source, "drop": letter})
        assert not refused["ok"] and rules(refused) == ["bad-request"]
    assert post(client, "/api/position", {"source": CHESS})["hands"] is None


def test_walls_are_placed_in_a_step_of_their_own(client: TestClient) -> None:
    """A duck move named without its wall (`wall`): its cells highlighted,
    the cells its wall may go to marked, as the library's legal moves say."""
    duck = {"source": {"bundled": "duck"}, "moves": ["e2e4,e4e6"]}
    game = variantkit.load("duck").new_game()
    game.push("e2e4,e4e6")
    answer = post(client, "/api/position", {**duck, "wall": "d7d5"})
    assert answer["ok"], answer
    walls = {m.wall for m in game.legal_moves() if str(m).startswith("d7d5,")}
    assert len(walls) > 1 and "e6" not in walls and "d7" in walls
    shown = marks(answer["svg"])
    assert {cell for cell, mark in shown.items() if mark == "drop"} == walls
    assert shown["d7"] == "drop" and shown["d5"] == "highlight"
    assert {"move": "d7d5,d5d7", "from": "d7", "to": "d5", "promotion": None,
            "suborn": False, "swap": False, "drop": None, "wall": "d7",
            "from_hand": False} in answer["legal"]
    assert 'data-wall="e6"' in answer["svg"]
    # A move that places no wall, or is not legal, or not a text: refused.
    for pending in ("d7d4", "e2e4", ["d7d5"], 7):
        refused = post(client, "/api/position", {**duck, "wall": pending})
        assert not refused["ok"] and rules(refused) == ["bad-request"], pending
    chess = post(client, "/api/position", {"source": CHESS, "wall": "e2e4"})
    assert rules(chess) == ["bad-request"]


def test_drops_without_a_choice_of_piece_are_marked(client: TestClient) -> None:
    """Flipello's discs and ataxx's copies are dropped by a click on their
    cell (`from_hand` false), so their cells are marked from the start;
    crazyhouse's pieces are picked from the hand first, and nothing is."""
    for name, start in (("flipello", None), ("ataxx", None),
                        ("crazyhouse", "r3k2r/8/8/8/8/8/8/R3K2R[PPr] w KQkq - 0 1")):
        answer = post(client, "/api/position", {"source": {"bundled": name}, "start": start})
        game = variantkit.load(name).new_game(start)
        drops = {m.to_cell for m in game.legal_moves() if m.drop}
        marked = {cell for cell, mark in marks(answer["svg"]).items() if mark == "drop"}
        picked = name == "crazyhouse"
        assert drops and marked == (set() if picked else drops), name
        assert {m["from_hand"] for m in answer["legal"] if m["drop"]} == {picked}, name


def test_a_turn_of_several_moves_in_the_playground(client: TestClient) -> None:
    # Marseillais chess: Black's second move of its turn is still to come.
    source = {"bundled": "marseillais"}
    answer = post(client, "/api/position", {"source": source, "moves": ["e2e4", "e7e5"]})
    assert answer["ok"] and answer["turn"] == "black"
    assert answer["status"] == "Black to move again (move 2 of its turn)"
    assert answer["fen"].endswith(" 1/2:e6")   # the e-pawn's double step, open next turn
    assert post(client, "/api/perft", {"source": source, "depth": 1})["nodes"] == 20
