"""Promotion rules beyond one list of choices, against pyffish: choices per
side (chigorin, sortofalmost), promotion only to lost pieces with optional
and compulsory cells (grand, opulent), and rules per promoting piece.
Each position is compared whole: legal moves, check and position string."""

from __future__ import annotations

import pytest
from fsf_oracle import Oracle

import variantkit

POSITIONS = {
    # White promotes to its own pieces, Black to its own.
    "chigorin": ["4k3/P7/8/8/8/8/p7/4K3 w - - 0 1", "4k3/P7/8/8/8/8/p7/4K3 b - - 0 1"],
    "sortofalmost": ["4k3/P7/8/8/8/8/p7/4K3 w - - 0 1", "4k3/P7/8/8/8/8/p7/4K3 b - - 0 1"],
    "grand": [
        # Nothing on the board but kings and pawns: every choice, optional
        # on the eighth and ninth ranks, compulsory on the tenth.
        "4k5/P9/10/1P8/2P7/10/10/7p2/8p1/4K5 w - - 0 1",
        "4k5/P9/10/1P8/2P7/10/10/7p2/8p1/4K5 b - - 0 1",
        # White has every piece it may have: the pawn on a9 cannot advance,
        # the pawn on b7 only without promoting; one rook short: rook only.
        "r3k5/P9/1P8/10/10/10/10/10/1NBQKCABN1/R8R w - - 0 1",
        "r3k5/P9/1P8/10/10/10/10/10/1NBQKCABN1/9R w - - 0 1",
    ],
    "opulent": [
        "9k/P9/10/1P8/10/10/10/10/10/CLBNQKNBLA w - - 0 1",
        "9k/P9/10/1P8/10/10/10/10/10/1LBNQK1BLA w - - 0 1",
    ],
}
CASES = [(name, fen) for name, fens in POSITIONS.items() for fen in fens]


@pytest.mark.parametrize(("name", "fen"), CASES)
def test_promotions_equal_pyffish(name: str, fen: str) -> None:
    oracle = Oracle(name)
    oracle.compare(oracle.variant.new_game(fen=fen), fen)


def test_a_pawn_with_nothing_to_become_stays_short_of_the_last_rank() -> None:
    game = variantkit.load("grand").new_game(
        fen="r3k5/P9/1P8/10/10/10/10/10/1NBQKCABN1/R8R w - - 0 1")
    moves = {str(m) for m in game.legal_moves()}
    assert not any(m.startswith("a9") for m in moves)
    assert {m for m in moves if m.startswith("b8")} == {"b8b9"}
