"""Madrasi chess against the reference written here from its published
rules (tests/movement_reference.py, docs/rules/madrasi.md): perft 1-3
from the start (4 under the `oracle` marker), the legal move sets along
seeded random games from the start and from positions that reach each
open case of the rules page, and the textbook diagram's facts."""

from __future__ import annotations

import random
from pathlib import Path

import chess
import pytest
from declarations import errors_over
from movement_reference import Condition, in_check, legal, play_random_game, reference_perft

import variantkit
from variantkit.game import perft

MADRASI = Condition(paralysis=True)


def test_perft_from_the_start() -> None:
    ours = variantkit.load("madrasi").new_game()
    for depth in (1, 2, 3):
        assert perft(ours, depth) == reference_perft(MADRASI, chess.Board(), depth), depth


def test_perft_figures() -> None:
    """Chess's 20 and 400; at the third ply 28 fewer than chess's 8902:
    after two double steps that face a white and a black pawn diagonally
    (1.d4 e5), the white pawn can neither take nor step."""
    ours = variantkit.load("madrasi").new_game()
    assert [perft(ours, depth) for depth in (1, 2, 3)] == [20, 400, 8874]
    ours.push("d2d4")
    ours.push("e7e5")
    assert not {"d4e5", "d4d5"} & {str(m) for m in ours.legal_moves()}


@pytest.mark.oracle
def test_perft_4_from_the_start() -> None:
    ours = variantkit.load("madrasi").new_game()
    assert perft(ours, 4) == reference_perft(MADRASI, chess.Board(), 4)


def test_random_games() -> None:
    assert sum(play_random_game("madrasi", MADRASI, seed, 80) for seed in range(4)) >= 200


@pytest.mark.oracle
def test_more_random_games() -> None:
    assert sum(play_random_game("madrasi", MADRASI, seed, 150)
               for seed in range(100, 130)) >= 2000


# The diagram of the usual description of Madrasi: the rooks on c5, g5 and
# g2, the knights on d8 and f7 and the pawns on c2 and d3 are paralysed.
DIAGRAM = "2kn4/1p1p1N2/8/2R3r1/7r/1P1p4/2P2NR1/B2b1K2 {} - - 0 1"


def test_the_diagram() -> None:
    white = variantkit.load("madrasi").new_game(DIAGRAM.format("w"))
    moves = {str(m) for m in white.legal_moves()}
    assert not {m for m in moves if m[:2] in ("c5", "g2", "f7", "c2")}
    assert "f2d3" in moves and "c2d3" not in moves   # Nxd3 frees the c2 pawn
    assert any(m.startswith("a1") for m in moves)    # a bishop is not paralysed by a knight
    black = variantkit.load("madrasi").new_game(DIAGRAM.format("b"))
    assert not black.is_check()                      # the c5 rook is paralysed
    moves = {str(m) for m in black.legal_moves()}
    assert not {m for m in moves if m[:2] in ("g5", "d8", "d3")}
    assert any(m.startswith("h4") for m in moves)


def test_en_passant_observation() -> None:
    """A pawn that has just made a double step past an enemy pawn's attack
    is paralysed: it gives no check; once the chance to take it en passant
    is gone it would, so Black must still answer it."""
    game = variantkit.load("madrasi").new_game("8/8/8/5k2/3p4/8/4P3/4K3 w - - 0 1")
    game.push("e2e4")
    assert not game.is_check()
    board = chess.Board("8/8/8/5k2/3pP3/8/8/4K3 b - e3 0 1")
    assert not in_check(MADRASI, board, chess.BLACK)
    assert in_check(MADRASI, chess.Board("8/8/8/5k2/3pP3/8/8/4K3 b - - 0 1"), chess.BLACK)
    assert sorted(str(m) for m in game.legal_moves()) == \
        ["d4e3", "f5e4", "f5e5", "f5e6", "f5f4", "f5f6", "f5g4", "f5g5", "f5g6"]


def test_castling_with_a_paralysed_rook() -> None:
    game = variantkit.load("madrasi").new_game("4k3/8/8/7r/8/8/8/R3K2R w KQ - 0 1")
    moves = {str(m) for m in game.legal_moves()}
    assert "e1c1" in moves and "e1g1" not in moves
    game = variantkit.load("madrasi").new_game("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert not {"e1c1", "e1g1"} & {str(m) for m in game.legal_moves()}


# Positions that reach the open cases of the rules page.
POSITIONS = [
    "8/8/8/5k2/3p4/8/4P3/4K3 w - - 0 1",               # a double step observed en passant
    "4k3/8/8/7r/8/8/8/R3K2R w KQ - 0 1",               # castling with a paralysed rook
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "4k3/4r3/8/8/4R3/8/8/4K3 w - - 0 1",               # paralysed rooks give no check
    "3qk3/1P6/8/8/8/8/8/4K3 w - - 0 1",                # a new queen paralysed at once
    "4k3/8/8/2b5/8/4B3/8/4K3 b - - 0 1",               # a bishop released by a block
    "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 1",
]


@pytest.mark.parametrize("fen", POSITIONS)
def test_open_cases(fen: str) -> None:
    for seed in range(3):
        play_random_game("madrasi", MADRASI, seed, 30, fen)


REX_INCLUSIVE = Condition(paralysis=True, royals_paralysed=True)
MADRASI_RI = "variantkit: 1\nname: madrasi-ri\ninherits: madrasi\n" \
    "move-conditions: {paralysis: same-kind, paralysed-royals: true}\n"


@pytest.mark.parametrize("fen", [
    chess.STARTING_FEN,
    "8/8/8/3k4/8/3K4/8/8 w - - 0 1",                   # kings may stand side by side
    "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
])
def test_rex_inclusive(fen: str, tmp_path: Path) -> None:
    """With `paralysed-royals: true` two kings side by side paralyse each
    other: neither moves nor gives check."""
    path = tmp_path / "madrasi-ri.yaml"
    path.write_text(MADRASI_RI)
    variant = variantkit.load(str(path))
    for seed in range(3):
        game, board = variant.new_game(fen), chess.Board(fen)
        rng = random.Random(seed)
        for _ in range(30):
            moves = legal(REX_INCLUSIVE, board)
            assert sorted(str(m) for m in game.legal_moves()) == sorted(moves), game.fen()
            if not moves:
                break
            move = rng.choice(sorted(moves))
            game.push(move)
            board = moves[move]
    game = variant.new_game("8/8/8/3k4/8/3K4/8/8 w - - 0 1")
    game.push("d3d4")
    assert not game.is_check() and not list(game.legal_moves())   # stalemate


BAD = [  # a declaration's mistake, and where and what its problem says
    ("move-conditions: {paralysed-royals: true}", 4, "paralysis-unused"),
    ("move-conditions: {paralysis: other-kind}", 4, "schema"),
    ("move-conditions: {cell-colour: dark}", 4, "schema"),
]


@pytest.mark.parametrize(("line", "row", "rule"), BAD)
def test_a_bad_declaration_is_a_located_problem(line: str, row: int, rule: str) -> None:
    errors = errors_over("chess", line)
    assert [p.rule for p in errors] == [rule]
    assert errors[0].line == row, errors[0]
