"""Chess960 positions in variants that castle without `free-castling`
(chess, atomic, extinction, crazyhouse, Seirawan chess), against pyffish in
Chess960 mode (`UCI_Chess960`): a castling field read as the rooks' files
or as X-FEN plays in Chess960 mode, castling written as the king taking
its rook and the field as the rooks' files; at every node of the tree the
move sets and the position strings are compared (issue 23)."""

from __future__ import annotations

import re

import pyffish
import pytest

import variantkit
from variantkit import Game

VARIANTS = ["chess", "atomic", "extinction", "crazyhouse", "seirawan"]
# Scharnagl numbers: 518 is the standard array, 444 puts the king on f1
# beside its rook's landing cell g1, 185 puts it on f1 and a rook on g1.
# `make oracle` walks more starts (STARTS) and deeper.
STARTS = [0, 185, 444, 518, 703, 851]
QUICK_STARTS = [185, 444]


def walk960(name: str, fen: str, depth: int) -> int:
    """perft(depth) from `fen`, the legal moves and the position string
    compared with pyffish's in Chess960 mode at every node."""
    game = variantkit.load(name).new_game(fen)
    return _walk(game, name, fen, [], depth)


def _walk(game: Game, name: str, fen: str, played: list[str], depth: int) -> int:
    where = f"{name} {fen} after {' '.join(played) or 'nothing'}"
    ours = {str(m) for m in game.legal_moves()}
    theirs = set(pyffish.legal_moves(name, fen, played, True))
    assert ours == theirs, (f"moves differ: {where}\n  missing {sorted(theirs - ours)}\n"
                            f"  extra {sorted(ours - theirs)}")
    assert game.fen() == pyffish.get_fen(name, fen, played, True), where
    if depth == 1:
        return len(ours)
    nodes = 0
    for move in sorted(ours):
        game.push(move)
        nodes += _walk(game, name, fen, [*played, move], depth - 1)
        game.pop()
    return nodes


def start(name: str, number: int, keep: str) -> str:
    """Chess960 start `number` with only the pieces `keep` (lower case) left
    on the first and last ranks, so that castling comes at once; a pocket
    for the variants with hands, and Seirawan's gates by file (the form
    Fairy-Stockfish writes)."""
    fen = variantkit.load("fischerandom").numbered_setup(number)
    board, rest = fen.split(" ", 1)
    ranks = board.split("/")
    for index in (0, -1):
        full = re.sub(r"\d", lambda m: "1" * int(m.group()), ranks[index])
        kept = "".join(ch if ch.lower() in keep else "1" for ch in full)
        ranks[index] = re.sub(r"1+", lambda m: str(len(m.group())), kept)
    board = "/".join(ranks)
    if name == "crazyhouse":
        board += "[Nn]"
    if name == "seirawan":
        full = re.sub(r"\d", lambda m: "1" * int(m.group()), ranks[-1])
        files = "".join("abcdefgh"[i] for i, ch in enumerate(full) if ch != "1")
        return f"{board}[HEhe] {rest.split()[0]} {files.upper()}{files} - 0 1"
    return f"{board} {rest}"


def kept(name: str) -> str:
    """The first-rank pieces kept: king, rooks and queen, so that castling
    comes at once; all of them in extinction chess (a type gone ends it)."""
    return "rkqbn" if name == "extinction" else "rkq"


@pytest.mark.parametrize("name", VARIANTS)
@pytest.mark.parametrize("number", QUICK_STARTS)
def test_castling_from_960_starts_equals_pyffish(name: str, number: int) -> None:
    walk960(name, start(name, number, kept(name)), 2)


# Fairy-Stockfish's own Chess960 perft rows (tests/data/fsf_perft_rows.csv):
# compared node by node two plies deep here, counted in full by `make oracle`.
ROWS_960 = [
    ("atomic", "8/8/8/8/8/8/2k5/rR4KR w KQ - 0 1"),
    ("atomic", "r3k1rR/5K2/8/8/8/8/8/8 b kq - 0 1"),
    ("atomic", "Rr2k1rR/3K4/3p4/8/8/8/7P/8 w kq - 0 1"),
    ("atomic", "1R4kr/4K3/8/8/8/8/8/8 b k - 0 1"),
    ("extinction", "rnbqb1kr/pppppppp/8/8/8/8/PPPPPPPP/RNBQB1KR w AHah - 0 1"),
    ("seirawan", "qbbrnkrn/pppppppp/8/8/8/8/PPPPPPPP/QBBRNKRN[HEhe] w ABCDEFGHabcdefgh - 0 1"),
]


@pytest.mark.parametrize(("name", "fen"), ROWS_960)
def test_fairy_stockfish_960_rows_equal_pyffish(name: str, fen: str) -> None:
    walk960(name, fen, 2)


def test_castling_is_written_as_the_king_taking_its_rook() -> None:
    # Start 444: the king on f1, its rook on h1; f1g1 is the king's own step.
    game = variantkit.load("chess").new_game(start("chess", 444, "rk"))
    moves = {str(m) for m in game.legal_moves()}
    assert {"f1h1", "f1a1", "f1g1"} <= moves
    game.push("f1h1")
    assert game.fen().startswith("r4k1r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 b ha ")


def test_the_standard_array_plays_by_its_field() -> None:
    chess = variantkit.load("chess")
    declared = chess.new_game("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    by_files = chess.new_game("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1")
    assert {"e1g1", "e1c1"} <= {str(m) for m in declared.legal_moves()}
    assert {"e1h1", "e1a1"} <= {str(m) for m in by_files.legal_moves()}
    assert by_files.fen().split()[2] == "HAha"
    assert chess.new_game(by_files.fen()).fen() == by_files.fen()


def test_atomic_kings_castle_side_by_side() -> None:
    # The king passes d1 and lands on c1, both beside Black's king on c2.
    game = variantkit.load("atomic").new_game("8/8/8/8/8/8/2k5/rR4KR w KQ - 0 1")
    assert "g1b1" in {str(m) for m in game.legal_moves()}


def test_no_castling_out_of_check_behind_the_landing_rook() -> None:
    # The rook landing on f8 would block the check the king on g8 is in.
    game = variantkit.load("atomic").new_game("1R4kr/4K3/8/8/8/8/8/8 b k - 0 1")
    assert "g8h8" not in {str(m) for m in game.legal_moves()}


@pytest.mark.parametrize("fen", [
    "k7/8/8/8/8/8/8/1RK5 w B - 0 1",   # the king stays on c1, the rook goes to d1
    "k7/8/8/8/8/8/8/rRK5 w B - 0 1",   # ...where the rook leaving b1 opens a1's line
])
def test_a_king_that_stays_is_safe_once_its_rook_has_left(fen: str) -> None:
    ours = {str(m) for m in variantkit.load("chess").new_game(fen).legal_moves()}
    assert ours == set(pyffish.legal_moves("chess", fen, [], True))
    assert ("c1b1" in ours) == fen.endswith("1RK5 w B - 0 1")


def test_seirawan_960_files_name_castlings_and_gates() -> None:
    fen = "qbbrnkrn/pppppppp/8/8/8/8/PPPPPPPP/QBBRNKRN[HEhe] w ABCDEFGHabcdefgh - 0 1"
    game = variantkit.load("seirawan").new_game(fen)
    assert game.fen().split()[2] == "GDABCEFHgdabcefh"
    game.push("e1f3h")     # the knight leaves e1, gating a hawk
    game.push("e8f6h")
    game.push("g2g3")
    game.push("g7g6")
    game.push("f1g1")      # castling with the g1 rook: the king stays, the rook to f1
    assert game.fen().split()[0].endswith("/QBBRHRKN[Ee]")


@pytest.mark.oracle
@pytest.mark.parametrize("name", VARIANTS)
@pytest.mark.parametrize("number", STARTS)
def test_960_starts_equal_pyffish(name: str, number: int) -> None:
    walk960(name, start(name, number, "rkqbn"), 3)


@pytest.mark.oracle
@pytest.mark.parametrize("name", VARIANTS)
@pytest.mark.parametrize("number", STARTS)
def test_960_castling_trees_three_plies_deep_equal_pyffish(name: str, number: int) -> None:
    walk960(name, start(name, number, kept(name)), 3)
