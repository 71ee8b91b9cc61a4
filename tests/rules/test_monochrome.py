"""Monochrome chess against the reference written here from its published
rules (tests/movement_reference.py, docs/rules/monochrome.md): perft 1-3
from the start (4 under the `oracle` marker), the legal move sets along
seeded random games from the start and from positions that reach each
open case of the rules page, and the rule's textbook facts."""

from __future__ import annotations

import chess
import pytest
from movement_reference import Condition, play_random_game, reference_perft

import variantkit
from variantkit.game import perft

MONOCHROME = Condition(colour="same")


def test_perft_from_the_start() -> None:
    ours = variantkit.load("monochrome").new_game()
    for depth in (1, 2, 3):
        assert perft(ours, depth) == reference_perft(MONOCHROME, chess.Board(), depth), depth


def test_perft_figures() -> None:
    """The eight double steps, then eight replies to each."""
    ours = variantkit.load("monochrome").new_game()
    assert [perft(ours, depth) for depth in (1, 2, 3)] == [8, 64, 668]


@pytest.mark.oracle
def test_perft_4_from_the_start() -> None:
    ours = variantkit.load("monochrome").new_game()
    assert perft(ours, 4) == reference_perft(MONOCHROME, chess.Board(), 4)


def test_random_games() -> None:
    assert sum(play_random_game("monochrome", MONOCHROME, seed, 80) for seed in range(4)) >= 200


@pytest.mark.oracle
def test_more_random_games() -> None:
    assert sum(play_random_game("monochrome", MONOCHROME, seed, 150)
               for seed in range(100, 130)) >= 2000


def moves_of(fen: str) -> set[str]:
    return {str(m) for m in variantkit.load("monochrome").new_game(fen).legal_moves()}


def test_textbook_facts() -> None:
    # Knights never move; a pawn steps only two cells or captures.
    assert not {m for m in moves_of(chess.STARTING_FEN) if m[:2] in ("b1", "g1")}
    assert moves_of("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1") >= {"e4d5"}
    assert not {"e4e5"} & moves_of("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1")
    # Only the short castling: the rook's a1-d1 changes colour.
    moves = moves_of("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert "e1g1" in moves and "e1c1" not in moves
    # Kings side by side on cells of two colours do not attack each other.
    game = variantkit.load("monochrome").new_game("8/8/8/3k4/3K4/8/8/8 w - - 0 1")
    assert not game.is_check()
    # A check needs a capture of the king's own colour: a rook two cells
    # away on a file checks, one cell away does not.
    assert variantkit.load("monochrome").new_game("8/8/8/8/8/4k3/8/4R2K b - - 0 1").is_check()
    assert not variantkit.load("monochrome").new_game("8/8/8/8/8/8/4k3/4R2K b - - 0 1").is_check()
    # A lone bishop and king mate: Ka7 covers b8 and Bc6 the king's a8 and b7.
    game = variantkit.load("monochrome").new_game("k7/K7/2B5/8/8/8/8/8 b - - 0 1")
    assert game.is_checkmate()
    # Kings and knights alone are a draw at once.
    outcome = variantkit.load("monochrome").new_game("4k3/8/8/8/8/8/8/1N2K1N1 w - - 0 1").outcome()
    assert outcome is not None and outcome.winner is None


# Positions that reach the open cases of the rules page.
POSITIONS = [
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",            # castling: the short one only
    "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",               # en passant stays on its colour
    "1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1",                # promotion by capture only
    "8/8/8/3k4/3K4/8/8/8 w - - 0 1",                   # kings side by side
    "k7/8/K7/8/8/8/8/5B2 w - - 0 1",                    # a bishop's mate
    "r1bqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1",
]


@pytest.mark.parametrize("fen", POSITIONS)
def test_open_cases(fen: str) -> None:
    for seed in range(3):
        play_random_game("monochrome", MONOCHROME, seed, 30, fen)
