"""Bichrome chess against the reference written here from its published
rules (tests/movement_reference.py, docs/rules/bichrome.md): perft 1-3
from the start (4 under the `oracle` marker), the legal move sets along
seeded random games from the start and from positions that reach each
open case of the rules page, and the rule's textbook facts."""

from __future__ import annotations

import chess
import pytest
from movement_reference import Condition, play_random_game, reference_perft

import variantkit
from variantkit.game import perft

BICHROME = Condition(colour="change")
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"


def test_perft_from_the_start() -> None:
    ours = variantkit.load("bichrome").new_game()
    for depth in (1, 2, 3):
        assert perft(ours, depth) == reference_perft(BICHROME, chess.Board(START), depth), depth


def test_perft_figures() -> None:
    """The eight single steps and the knights' four moves, 12 for each side."""
    ours = variantkit.load("bichrome").new_game()
    assert [perft(ours, depth) for depth in (1, 2, 3)] == [12, 144, 1848]


@pytest.mark.oracle
def test_perft_4_from_the_start() -> None:
    ours = variantkit.load("bichrome").new_game()
    assert perft(ours, 4) == reference_perft(BICHROME, chess.Board(START), 4)


def test_random_games() -> None:
    # Random play mates early here (knights and queens check often).
    assert sum(play_random_game("bichrome", BICHROME, seed, 80, START)
               for seed in range(8)) >= 300


@pytest.mark.oracle
def test_more_random_games() -> None:
    assert sum(play_random_game("bichrome", BICHROME, seed, 150, START)
               for seed in range(100, 140)) >= 1500


def moves_of(fen: str) -> set[str]:
    return {str(m) for m in variantkit.load("bichrome").new_game(fen).legal_moves()}


def test_textbook_facts() -> None:
    # No double step; a pawn never captures, so it never gives check either.
    start = moves_of(START)
    assert "e2e3" in start and "e2e4" not in start and "g1f3" in start
    assert moves_of("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1") >= {"e4e5"}
    assert "e4d5" not in moves_of("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1")
    assert not variantkit.load("bichrome").new_game("8/8/8/3k4/4P3/8/8/4K3 b - - 0 1").is_check()
    # A bishop never moves; a king steps only orthogonally.
    assert moves_of("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1") == {"e1d1", "e1f1", "e1e2"}
    # Kings diagonally side by side do not attack each other.
    assert not variantkit.load("bichrome").new_game("8/8/8/4k3/3K4/8/8/8 w - - 0 1").is_check()
    # A rook checks from an odd distance only.
    assert variantkit.load("bichrome").new_game("8/8/8/8/8/8/4k3/4R2K b - - 0 1").is_check()
    assert not variantkit.load("bichrome").new_game("8/8/8/8/8/4k3/8/4R2K b - - 0 1").is_check()
    # A knight and king mate a lone king: Nc7 checks, Kb7 covers a7 and b8.
    assert variantkit.load("bichrome").new_game("k7/1KN5/8/8/8/8/8/8 b - - 0 1").is_checkmate()
    # Kings and bishops alone are a draw at once.
    outcome = variantkit.load("bichrome").new_game("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1").outcome()
    assert outcome is not None and outcome.winner is None


# Positions that reach the open cases of the rules page.
POSITIONS = [
    START,
    "4k3/P7/8/8/8/8/8/4K3 w - - 0 1",                  # promotion by a step
    "1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1",                # a pawn blocked, never capturing
    "8/8/8/4k3/3K4/8/8/8 w - - 0 1",                   # kings diagonally side by side
    "k7/8/1K6/8/8/8/8/2N5 w - - 0 1",                  # a knight's mate
    "r3k2r/pppq1ppp/8/8/8/8/PPPQ1PPP/R3K2R w - - 0 1",
]


@pytest.mark.parametrize("fen", POSITIONS)
def test_open_cases(fen: str) -> None:
    for seed in range(3):
        play_random_game("bichrome", BICHROME, seed, 30, fen)
