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


NO_CHECK_PAWN = """variantkit: 1
name: nocheck
inherits: chess
pieces:
  pawn:
    moves:
      - {step: forward, only: move, may-give-check: false}
      - {ride: forward, range: [2, 2], only: move, initial: true, en-passant: target,
         may-give-check: false}
      - {step: forward-diagonal, only: capture, en-passant: capture, may-give-check: false}
"""


def test_a_pawn_that_may_not_give_check_may_not_promote_with_check() -> None:
    """The promoted piece decides: b8=Q and b8=R would check the king on
    e8, b8=B and b8=N do not (pyffish's chess with `checking = false`)."""
    import pyffish

    pyffish.load_variant_config("[nocheck:chess]\nchecking = false\n")
    variant = variantkit.load_text(NO_CHECK_PAWN)
    for fen in ("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1"):
        game = variant.new_game(fen)
        ours = sorted(str(m) for m in game.legal_moves())
        assert ours == sorted(pyffish.legal_moves("nocheck", fen, []))
        assert game.position.count_legal() == len(ours)
    promotions = {str(m) for m in variant.new_game("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1")
                  .legal_moves() if str(m).startswith("b7")}
    assert promotions == {"b7b8b", "b7b8n"}
