"""The faces of a game on two boards: the text drawing, moves written with
their board, the command line (render, show, play) and the playground's
JSON API for a pair (`variantkit.pair`, docs/two-boards.md)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from variantkit import IllegalMoveError, InvalidFenError
from variantkit.cli import cli
from variantkit.pair import load_pair, read_bpgn, split_move
from variantkit.pgn import parse_pgn
from variantkit.web.door import status_of
from variantkit.web.tasks import TASKS, search
from variantkit.web.tasks import run as run_task

SVG = "{http://www.w3.org/2000/svg}"
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"


# -- the pair itself ----------------------------------------------------------------

def test_text_turns_board_b_so_that_partners_sit_on_one_side() -> None:
    pair = load_pair("bughouse")
    pair.push_text("A:e2e4")
    pair.push_text("A:d7d5")
    pair.push_text("A:e4d5")
    lines = pair.text().splitlines()
    # Board B from Black's side: its first rank on top, its files from h to a,
    # White's hand over it and Black's (holding the pawn taken on A) under it.
    assert lines[1].split()[-3:] == ["white", "hand:", "-"]
    assert lines[2].endswith("1 R N B K Q B N R")
    assert lines[9].endswith("8 r n b k q b n r")
    assert lines[10].split()[-8:] == list("hgfedcba")
    assert lines[11].split()[-3:] == ["black", "hand:", "p"]
    assert pair.text(flip_b=False).splitlines()[2].endswith("8 r n b q k b n r")
    styled = pair.text(color=True)
    assert "\x1b[" in styled and re.sub("\x1b\\[[0-9;]*m", "", styled) == pair.text()


@pytest.mark.parametrize(("text", "board", "move"), [
    ("A:e2e4", "A", "e2e4"), ("b:P@e5", "B", "P@e5"), (" B: Nf3 ", "B", "Nf3"),
])
def test_a_move_names_its_board(text: str, board: str, move: str) -> None:
    assert split_move(text) == (board, move)


@pytest.mark.parametrize(("text", "message"), [
    ("e2e4", "names its board first"),
    ("C:e2e4", "names its board first"),
    ("A:", "names its board first"),
    (None, "is a str, not NoneType"),
    ("B:e2e5", "board B: illegal move 'e2e5'"),
    ("A:" + "x" * 10_000, "board A: move text of 10000 characters is too long"),
])
def test_bad_moves_on_a_pair_say_which_board(text: object, message: str) -> None:
    with pytest.raises(IllegalMoveError, match=message):
        load_pair("bughouse").push_text(text)


def test_a_bad_position_string_says_which_board() -> None:
    with pytest.raises(InvalidFenError, match="board B: placement part 'zz'"):
        load_pair("bughouse", f"{START} | zz")


# -- the command line ---------------------------------------------------------------

def run(*args: str, input: str | None = None) -> Result:
    result = CliRunner().invoke(cli, list(args), input=input)
    assert "Traceback" not in result.output
    return result


def test_render_draws_a_pair_from_its_position_string() -> None:
    held = START.replace("[]", "[Qn]")
    result = run("render", "bughouse", "--fen", f"{held} | {START}", "--moves", "A:e4 B:d4")
    assert result.exit_code == 0, result.output
    root = ET.fromstring(result.output)
    boards = root.findall(f"{SVG}svg")
    assert [b.get("data-pair-board") for b in boards] == ["A", "B"]
    hand = {p.get("data-hand-piece") for p in boards[0].iter() if p.get("data-hand-piece")}
    assert hand == {"Q", "n"}
    # Board B from Black's side: its a1 right of its h1.
    cells = {c.get("data-cell"): c for c in boards[1].iter(f"{SVG}rect") if c.get("data-cell")}
    assert float(cells["a1"].get("x", "0")) > float(cells["h1"].get("x", "0"))


@pytest.mark.parametrize(("args", "message"), [
    (["--fen", "x | y"], "bad position string: board A: placement part 'x'"),
    (["--moves", "e4"], "a move on a pair names its board first"),
    (["--moves", "A:e4 A:e4"], "board A: "),
    (["--highlight", "e4"], "--highlight names cells of one board"),
])
def test_render_refuses_bad_pair_input(args: list[str], message: str) -> None:
    result = run("render", "bughouse", *args)
    assert result.exit_code == 1 and message in result.output


def test_one_board_position_string_draws_one_board() -> None:
    result = run("show", "bughouse", "--fen", START)
    assert result.exit_code == 0 and "board B" not in result.output
    result = run("show", "bughouse", "--moves", "B:d4")
    assert result.exit_code == 0 and result.output.splitlines()[0].split() == \
        ["board", "A", "board", "B"]


def test_play_on_two_boards(tmp_path: Path) -> None:
    pgn = tmp_path / "game.pgn"
    entries = ["help", "moves", "A:e2e5", "A:e4", "undo", "undo", "B:e5", "fen", "resign"]
    result = run("play", "bughouse", "--depth", "1", "--pgn", str(pgn),
                 input="\n".join(entries) + "\n")
    out = result.output
    assert result.exit_code == 0, out
    assert "your team plays white on board A and black on board B" in out
    assert "Board B: White plays " in out                    # the engine opens on B
    assert "A:P@e5, B:e7e5" in out                           # help
    assert "\nA: Na3 Nc3 Nf3 Nh3 a3 a4" in out                # moves of both seats
    assert "board A: illegal move 'e2e5'" in out
    assert "Taken back: A:" in out and ", A:e2e4." in out    # the engine's reply, then mine
    assert "Nothing to undo." in out                          # the engine's opening stays
    assert "You resign: black's team wins." in out
    again = read_bpgn(pgn.read_text(encoding="utf-8"))
    assert [board for board, _ in again.move_stack][:2] == ["B", "B"]
    tags = parse_pgn(pgn.read_text(encoding="utf-8"))[0].tags
    assert tags["Result"] == "0-1" and tags["WhiteA"] == tags["BlackB"] == "you"
    assert tags["BlackA"] == "variantkit depth 1"


# -- the playground's API -----------------------------------------------------------

BUGHOUSE = {"bundled": "bughouse"}


def ask(task: str, **request: Any) -> dict[str, Any]:
    """A task's answer, computed in this process as a playground worker does."""
    return run_task(TASKS[task], {"source": BUGHOUSE, **request})


def marks_of(svg: str, board: str) -> dict[str, str]:
    drawing = next(b for b in ET.fromstring(svg).findall(f"{SVG}svg")
                   if b.get("data-pair-board") == board)
    return {c.get("data-cell", ""): c.get("data-mark", "") for c in drawing.iter()
            if c.get("data-mark") and c.get("data-cell")}


def test_the_playground_plays_both_boards_at_once() -> None:
    moves = ["A:e2e4", "B:d4", "A:d7d5", "A:exd5", "B:P@e5"]
    answer = ask("position", moves=moves, select="A:d8")
    pair = load_pair("bughouse")
    for move in moves:
        pair.push_text(move)
    assert answer["ok"] and answer["pair"] and answer["fen"] == pair.fen()
    assert answer["played"] == ["A:e2e4", "B:d2d4", "A:d7d5", "A:e4d5", "B:P@e5"]
    assert answer["moves"] == ["1A. e4", "1B. d4", "1a. d5", "2A. exd5", "1b. P@e5"]
    assert answer["turns"] == {"A": "black", "B": "white"}
    assert answer["status"] == "Board A: black to move; board B: white to move"
    # Each board's side to move has its legal moves, named with the board.
    assert {m["move"] for m in answer["legal"]} == \
        {f"{b}:{m}" for b in "AB" for m in pair.legal_moves(b)}
    assert {cell: mark for cell, mark in marks_of(answer["svg"], "A").items()
            if mark != "last-move"} == {"d8": "highlight", "d7": "move", "d6": "move",
                                        "d5": "capture"}
    assert answer["hands"]["B"] == {"white": {}, "black": {}}
    # A capture on A feeds B's hand; a drop from it is marked, then played.
    taken = ask("position", moves=[*moves[:4]], drop="B:p")
    assert taken["hands"]["B"]["black"] == {"p": 1}
    assert marks_of(taken["svg"], "B")["e5"] == "drop"
    assert ask("position", moves=moves, ply=4)["fen"] == taken["fen"]
    # The replay kept to answer the next click is the whole game, not the view.
    assert ask("position", moves=moves)["fen"] == answer["fen"]
    # A pair's position string is read back; the game goes to bughouse PGN.
    again = ask("position", start=answer["fen"])
    assert again["fen"] == answer["fen"] and again["moves"] == []
    assert ask("pgn", moves=moves)["pgn"].rstrip().endswith(
        "1A. e4 1B. d4 1a. d5 2A. exd5 1b. P@e5 *")


@pytest.mark.parametrize(("request_", "rule", "message"), [
    ({"start": "x | y"}, "bad-position", "board A: placement part 'x'"),
    ({"start": "|" * 5000}, "bad-position", "two position strings"),
    ({"start": START}, "bad-position", "two position strings"),
    ({"moves": ["e2e4"]}, "illegal-move", "names its board first"),
    ({"moves": ["A:e2e4", "A:e2e4"]}, "illegal-move", "board A: illegal move 'e2e4'"),
    ({"moves": ["B:" + "Q" * 100_000]}, "illegal-move", "board B: move text of 100000"),
    ({"moves": [7]}, "bad-request", "'moves' should be a list"),
    ({"select": "e2"}, "bad-request", "named with its board"),
    ({"select": "A:z9"}, "bad-request", "unknown cell 'z9' on board A"),
    ({"drop": "B:q"}, "bad-request", "no 'q' in hand on board B"),
])
def test_hostile_pair_requests_are_located_400s(request_: dict[str, Any], rule: str,
                                                message: str) -> None:
    answer = ask("position", **request_)
    assert not answer["ok"] and [p["rule"] for p in answer["problems"]] == [rule]
    assert message in answer["problems"][0]["message"]
    assert status_of(answer) == 400


def test_the_engine_plays_a_board_of_a_pair() -> None:
    reports: list[dict[str, Any]] = []
    answer = run_task(search, {"source": BUGHOUSE, "moves": ["A:e4"], "board": "B",
                               "depth": 1}, reports.append)
    assert answer["ok"] and answer["move"].startswith("B:") and reports
    assert answer["move"] in {f"B:{m}" for m in load_pair("bughouse").legal_moves("B")}
    bad = run_task(search, {"source": BUGHOUSE, "board": "C", "depth": 1}, reports.append)
    assert [p["rule"] for p in bad["problems"]] == ["bad-request"]
