"""Patrol chess against the reference written here from its published
rules (tests/movement_reference.py, docs/rules/patrol.md): perft 1-3 from
the start (4 under the `oracle` marker), the legal move sets along seeded
random games from the start and from positions that reach each open case
of the rules page, and the rule's textbook facts."""

from __future__ import annotations

import chess
import pytest
from movement_reference import Condition, play_random_game, reference_perft

import variantkit
from variantkit.game import perft

PATROL = Condition(patrol=True)


def test_perft_from_the_start() -> None:
    ours = variantkit.load("patrol").new_game()
    for depth in (1, 2, 3):
        assert perft(ours, depth) == reference_perft(PATROL, chess.Board(), depth), depth


def test_perft_figures() -> None:
    """Chess's 20 and 400; at the third ply 10 fewer than chess's 8902:
    the captures of pawns that no friend observes (1.e4 d5 2.exd5)."""
    ours = variantkit.load("patrol").new_game()
    assert [perft(ours, depth) for depth in (1, 2, 3)] == [20, 400, 8892]
    ours.push("e2e4")
    ours.push("d7d5")
    assert "e4d5" not in {str(m) for m in ours.legal_moves()}


@pytest.mark.oracle
def test_perft_4_from_the_start() -> None:
    ours = variantkit.load("patrol").new_game()
    assert perft(ours, 4) == reference_perft(PATROL, chess.Board(), 4)


def test_random_games() -> None:
    assert sum(play_random_game("patrol", PATROL, seed, 80) for seed in range(4)) >= 200


@pytest.mark.oracle
def test_more_random_games() -> None:
    assert sum(play_random_game("patrol", PATROL, seed, 150)
               for seed in range(100, 130)) >= 2000


def game_at(fen: str) -> variantkit.Game:
    return variantkit.load("patrol").new_game(fen)


def test_textbook_facts() -> None:
    # An unobserved rook neither takes nor checks; observed, it does both.
    assert "a1a8" not in {str(m) for m in game_at("r3k3/8/8/8/8/8/8/R6K w - - 0 1").legal_moves()}
    assert "a1a8" in {str(m) for m in game_at("r3k3/8/8/8/8/8/1K6/R7 w - - 0 1").legal_moves()}
    assert not game_at("4k3/8/8/8/8/8/8/4R2K b - - 0 1").is_check()
    assert game_at("4k3/8/8/8/8/8/8/4RK2 b - - 0 1").is_check()
    # Kings may stand side by side while no friend observes them.
    assert not game_at("8/8/8/3k4/3K4/8/8/8 w - - 0 1").is_check()
    # A king observed by its bishop mates: Kb7 and Bc8 against Ka8.
    assert game_at("k1B5/1K6/8/8/8/8/8/8 b - - 0 1").is_checkmate()
    # Bare kings are a draw at once; a king and a knight play on.
    outcome = game_at("8/8/8/3k4/8/8/8/4K3 w - - 0 1").outcome()
    assert outcome is not None and outcome.winner is None
    assert game_at("8/8/8/3k4/8/8/8/4K1N1 w - - 0 1").outcome() is None


# Positions that reach the open cases of the rules page.
POSITIONS = [
    "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",               # en passant by an unobserved pawn
    "4k3/8/8/3pP3/5P2/8/8/4K3 w - d6 0 1",             # ... and by an observed one
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",            # castling past unobserved attackers
    "1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1",                # promotion by capture needs a friend
    "8/8/8/3k4/3K4/8/8/8 w - - 0 1",                   # kings side by side
    "k7/8/1K6/8/8/8/8/2B5 w - - 0 1",                  # a bishop's mate
    "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 1",
]


@pytest.mark.parametrize("fen", POSITIONS)
def test_open_cases(fen: str) -> None:
    for seed in range(3):
        play_random_game("patrol", PATROL, seed, 30, fen)
