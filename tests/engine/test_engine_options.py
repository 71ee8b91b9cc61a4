"""The engine's UCI and USI options and search limits driven by engine
clients nobody here wrote: python-chess's `SimpleEngine` over `variantkit
uci` (MultiPV, Chess960, searchmoves, ponder, clocks, the last info line,
Skill Level and UCI_Elo, Hash and Clear Hash) and cshogi's USI client over
`variantkit usi` (byoyomi), each a real process over pipes; and the
session's first answer given before the search or any variant is loaded.

Every wait is bounded (the clients' own timeouts, or a subprocess's), so
a regression fails instead of hanging."""

from __future__ import annotations

import io
import itertools
import re
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import chess
import chess.engine
import pytest

from variantkit.engine.search import SKILL_MAX, TT_ENTRY_BYTES, TT_LIMIT, weakening
from variantkit.protocols.channel import Channel
from variantkit.protocols.uci import (
    ELO_MAX,
    ELO_MIN,
    HASH_DEFAULT,
    MEASURED_LEVELS,
    SKILL_LEVELS,
    UciSession,
    skill_of_elo,
)

REPOSITORY = Path(__file__).resolve().parent.parent.parent
ENGINE = [sys.executable, "-m", "variantkit", "uci"]
# Seconds a client waits for an answer: generous (a loaded machine, the
# pure build); the tests are about answers that never come.
ANSWER = 60.0


@pytest.fixture
def engine() -> Iterator[chess.engine.SimpleEngine]:
    """`variantkit uci` driven by python-chess."""
    client = chess.engine.SimpleEngine.popen_uci(ENGINE, timeout=ANSWER, cwd=REPOSITORY)
    try:
        yield client
    finally:
        client.quit()


def test_multipv_reports_that_many_distinct_lines(engine: chess.engine.SimpleEngine) -> None:
    board = chess.Board()
    board.push_san("e4")
    lines = engine.analyse(board, chess.engine.Limit(depth=3), multipv=3)
    assert isinstance(lines, list) and len(lines) == 3
    assert [info["multipv"] for info in lines] == [1, 2, 3]
    firsts = [info["pv"][0] for info in lines]
    assert len(set(firsts)) == 3 and all(move in board.legal_moves for move in firsts)
    scores = [info["score"].relative.score(mate_score=100_000) for info in lines]
    assert scores == sorted(scores, reverse=True)
    assert all(info["depth"] == 3 for info in lines)


def test_searchmoves_restricts_the_root(engine: chess.engine.SimpleEngine) -> None:
    board = chess.Board()
    only = [chess.Move.from_uci("a2a3"), chess.Move.from_uci("h2h3")]
    result = engine.play(board, chess.engine.Limit(depth=3), root_moves=only)
    assert result.move in only
    info = engine.analyse(board, chess.engine.Limit(depth=2), root_moves=only[:1])
    assert isinstance(info, dict) and info["pv"][0] == only[0]


def test_chess960_castles_as_the_king_taking_its_rook(
        engine: chess.engine.SimpleEngine) -> None:
    # Start 185: the king on f1 beside the rook on g1; the pieces between
    # it and the rook on b1 gone, so both castlings are legal.
    board = chess.Board.from_chess960_pos(185)
    for square in (chess.C1, chess.D1, chess.E1, chess.C8, chess.D8, chess.E8):
        board.remove_piece_at(square)
    castlings = [move for move in board.legal_moves if board.is_castling(move)]
    assert len(castlings) == 2
    # The standard array as a Chess960 start: its castling field reads as
    # chess's, so UCI_Chess960 alone says castling is e1h1, not e1g1.
    standard = chess.Board.from_chess960_pos(518)
    standard.remove_piece_at(chess.F1)
    standard.remove_piece_at(chess.G1)
    castlings += [move for move in standard.legal_moves if standard.is_castling(move)]
    assert [move.uci() for move in castlings] == ["f1g1", "f1b1", "e1h1"]
    for castling in castlings:
        position = board if castling.uci() != "e1h1" else standard
        result = engine.play(position, chess.engine.Limit(depth=2), root_moves=[castling])
        assert result.move == castling   # read back by python-chess as that castling
    # A game from a Chess960 start: python-chess refuses any move the
    # engine sends that is not legal there.
    game = chess.Board.from_chess960_pos(444)
    for _ in range(12):
        move = engine.play(game, chess.engine.Limit(depth=2)).move
        assert move is not None and move in game.legal_moves
        game.push(move)


def test_pondering_and_the_clock(engine: chess.engine.SimpleEngine) -> None:
    board = chess.Board()
    clock = chess.engine.Limit(white_clock=3.0, black_clock=3.0, white_inc=0.1,
                               black_inc=0.1)
    for _ in range(4):
        start = time.monotonic()
        result = engine.play(board, clock, ponder=True)
        # Within the time left, pondering in between (python-chess sends
        # `go ponder`, then `ponderhit` or `stop` with the next `go`).
        assert time.monotonic() - start < 3.0 + 5.0
        assert result.move is not None and result.move in board.legal_moves
        board.push(result.move)
        if result.ponder is not None:
            assert result.ponder in board.legal_moves
            board.push(result.ponder)
        else:
            board.push(next(iter(board.legal_moves)))


def test_the_last_info_line_comes_with_bestmove(engine: chess.engine.SimpleEngine) -> None:
    board = chess.Board()
    result = engine.play(board, chess.engine.Limit(depth=3), info=chess.engine.INFO_ALL)
    info = result.info
    assert info["depth"] == 3 and info["nodes"] > 0 and "time" in info and "score" in info
    assert info["pv"][0] == result.move
    assert 0 <= info["hashfull"] <= 1000


def test_skill_level_and_elo_weaken_the_engine(engine: chess.engine.SimpleEngine) -> None:
    board = chess.Board()
    engine.configure({"Skill Level": 0})
    chosen = set()
    for _ in range(20):
        info = engine.analyse(board, chess.engine.Limit(depth=8))
        assert isinstance(info, dict)
        # Level 0: one ply and at most 100 nodes, whatever the GUI asks.
        assert info["depth"] <= 1 and info["nodes"] <= 100 + 256
        chosen.add(engine.play(board, chess.engine.Limit(depth=8)).move)
    assert len(chosen) > 1   # a move chosen at random among the best few
    engine.configure({"Skill Level": SKILL_LEVELS, "UCI_LimitStrength": True,
                      "UCI_Elo": ELO_MIN})
    info = engine.analyse(board, chess.engine.Limit(depth=12))
    # The weakest measured level's plies and nodes, not the depth asked.
    weakest = weakening(skill_of_elo(ELO_MIN))
    assert weakest is not None and weakest.depth < 12
    assert isinstance(info, dict) and info["depth"] <= weakest.depth
    assert info["nodes"] <= weakest.nodes + 256
    engine.configure({"UCI_LimitStrength": False})
    info = engine.analyse(board, chess.engine.Limit(depth=4))
    assert isinstance(info, dict) and info["depth"] == 4


def test_uci_elo_follows_the_measured_levels() -> None:
    """UCI_Elo is the measured scale: each measured rating plays its level,
    a rating between two a level between theirs, the ends are the weakest
    measured level and full strength, and a higher rating never plays a
    lower level."""
    assert MEASURED_LEVELS[-1] == (ELO_MAX, float(SKILL_LEVELS))
    for elo, level in MEASURED_LEVELS:
        assert skill_of_elo(elo) == level
    for (low_elo, low_level), (high_elo, high_level) in itertools.pairwise(MEASURED_LEVELS):
        assert low_elo < high_elo and low_level < high_level
        assert low_level < skill_of_elo((low_elo + high_elo) // 2) < high_level
    assert skill_of_elo(ELO_MIN - 100) == MEASURED_LEVELS[0][1]
    assert skill_of_elo(ELO_MAX + 100) == SKILL_LEVELS
    levels = [skill_of_elo(elo) for elo in range(ELO_MIN, ELO_MAX + 1)]
    assert levels == sorted(levels)


def test_hash_bounds_the_table_and_clear_hash_empties_it() -> None:
    out = io.StringIO()
    session = UciSession(Channel(io.BytesIO(), out))
    for line in ("setoption name Hash value 1", "position startpos", "go nodes 30000"):
        session.command(line)
    assert session.thinking is not None
    session.thinking.wait(ANSWER)
    entries = 2**20 // TT_ENTRY_BYTES
    assert session.engine.table_entries == entries
    assert 0 < session.engine.table_used <= entries
    final = out.getvalue().splitlines()[-2]
    assert int(re.search(r"hashfull (\d+)", final)[1]) > 0   # type: ignore[index]
    session.command("setoption name Clear Hash")
    assert session.engine.table_used == 0
    session.command("setoption name Hash value 0")
    assert "Hash: 0 is out of 1 to 4096; 1 taken" in out.getvalue()
    session.finish()


def test_the_options_advertised_match_the_engine() -> None:
    # The session advertises these without importing the search.
    assert round(TT_LIMIT * TT_ENTRY_BYTES / 2**20) == HASH_DEFAULT
    assert SKILL_LEVELS == SKILL_MAX


def test_the_first_answer_needs_no_variant_and_no_search() -> None:
    """`uci`, `usi` and CECP's `protover` are answered by the command
    without importing the search, the variant compiler or the other
    commands; the default variant is loaded for `isready`."""
    for protocol, hello in (("uci", "uci"), ("usi", "usi"), ("xboard", "xboard\nprotover 2")):
        run = subprocess.run([sys.executable, "-X", "importtime", "-m", "variantkit", protocol],
                             input=f"{hello}\nquit\n", capture_output=True, text=True,
                             cwd=REPOSITORY, timeout=ANSWER)
        assert run.returncode == 0, run.stderr[-2000:]
        assert re.search(r"^(uciok|usiok|feature .*done=1)$", run.stdout, re.MULTILINE)
        imported = set(re.findall(r"\|\s+(\S+)$", run.stderr, re.MULTILINE))
        for heavy in ("variantkit.engine.search", "variantkit.variant", "variantkit.cli.commands",
                      "click"):
            assert heavy not in imported, (protocol, heavy)
    run = subprocess.run([sys.executable, "-X", "importtime", "-m", "variantkit", "uci"],
                         input="uci\nisready\nquit\n", capture_output=True, text=True,
                         cwd=REPOSITORY, timeout=ANSWER)
    assert "readyok" in run.stdout
    assert "variantkit.variant" in set(re.findall(r"\|\s+(\S+)$", run.stderr, re.MULTILINE))


# -- USI through cshogi's engine client ------------------------------------------------

CSHOGI_CLIENT = textwrap.dedent("""
    import sys, time
    from cshogi.usi import Engine
    engine = Engine(sys.argv[1])
    engine.isready()
    engine.usinewgame()
    engine.position(sfen="startpos")
    start = time.monotonic()
    best, ponder = engine.go(btime=0, wtime=0, byoyomi=int(sys.argv[2]))
    print(best, round(time.monotonic() - start, 3))
    engine.position(sfen="startpos")
    start = time.monotonic()
    best, ponder = engine.go(btime=60000, wtime=60000, byoyomi=int(sys.argv[2]))
    print(best, round(time.monotonic() - start, 3))
    engine.quit()
""")


def test_byoyomi_is_spent_once_the_main_time_is_gone(tmp_path: Path) -> None:
    pytest.importorskip("cshogi")
    # cshogi starts one program without arguments: a script that runs the
    # session in this interpreter.
    launcher = tmp_path / "variantkit-usi"
    launcher.write_text(f"#!/bin/sh\ncd {REPOSITORY}\nexec {sys.executable} -m variantkit usi\n",
                        encoding="utf-8")
    launcher.chmod(0o755)
    script = tmp_path / "client.py"
    script.write_text(CSHOGI_CLIENT, encoding="utf-8")
    run = subprocess.run([sys.executable, str(script), str(launcher), "1000"],
                         capture_output=True, text=True, timeout=ANSWER)
    assert run.returncode == 0, run.stderr[-2000:]
    (first, byoyomi_only), (second, with_main) = (
        (move, float(seconds)) for move, seconds in (line.split() for line in
                                                     run.stdout.splitlines()))
    assert re.fullmatch(r"\d[a-i]\d[a-i]\+?", first) and re.fullmatch(r"\d[a-i]\d[a-i]\+?", second)
    # Most of the second, not the sixth of it an increment gave; the
    # upper bound is only against a search that never ends.
    assert byoyomi_only >= 0.6, run.stdout
    assert byoyomi_only < 1.0 + 5.0 and with_main < 60.0
