"""Castling rights given by drops (`hands: {drops-grant-castling: true}`,
placement chess): a king or rook dropped on the cell a castling starts
from, its partner on its own, gives that castling's right, as
Fairy-Stockfish gives it; a variant without the option (crazyhouse) gives
none."""

from __future__ import annotations

import pytest
from fsf_oracle import Oracle

import variantkit
from variantkit.game import perft

# The rooks on a1 and h1 have no rights; White's king and one Black rook
# are still in hand (issue 24).
ISSUE = "r3k3/pppppppp/8/8/8/8/PPPPPPPP/R6R[Kr] w q - 0 1"


def rights_after(name: str, fen: str, moves: list[str]) -> str:
    game = variantkit.load(name).new_game(fen)
    for move in moves:
        game.push(move)
    return game.fen().split()[2]


def test_a_king_dropped_between_its_rooks_gets_both_rights() -> None:
    assert rights_after("placement", ISSUE, ["K@e1"]) == "KQq"


def test_a_rook_dropped_beside_its_king_gets_its_right() -> None:
    assert rights_after("placement", ISSUE, ["K@e1", "R@h8"]) == "KQkq"


def test_a_king_dropped_off_its_castling_cell_gets_none() -> None:
    assert rights_after("placement", ISSUE, ["K@d1"]) == "q"


def test_a_rook_dropped_while_the_king_is_away_gets_none() -> None:
    fen = "r3k3/pppppppp/8/8/8/8/PPPPPPPP/R2K4[Rr] b q - 0 1"
    assert rights_after("placement", fen, ["R@h8", "R@h1"]) == "kq"


def test_without_the_option_drops_give_no_rights() -> None:
    fen = "r3k3/pppppppp/8/8/8/8/PPPPPPPP/4K2R[R] w Kq - 0 1"
    assert rights_after("placement", fen, ["R@a1"]) == "KQq"
    assert rights_after("crazyhouse", fen, ["R@a1"]) == "Kq"


def test_issue_position_perft_equals_pyffish() -> None:
    game = variantkit.load("placement").new_game(ISSUE)
    assert perft(game, 3) == 828   # pyffish
    Oracle("placement").walk(2, ISSUE)


@pytest.mark.oracle
def test_issue_position_tree_equals_pyffish() -> None:
    assert Oracle("placement").walk(4, ISSUE) == 18_492
