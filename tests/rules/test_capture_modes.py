"""Captures beyond replacement (`capture-by:`) and freezing (`freezes:`),
each mode on a small position: the cells a move takes, the moves only a
capture makes, frozen pieces, check by a capture mode, the written move,
and the located problems of bad declarations.  Ultima, built of these, is
compared with a reference in tests/rules/test_ultima.py."""

from __future__ import annotations

import pytest

import variantkit
from variantkit.errors import VariantError
from variantkit.game import Game

# A king, and a piece of each capture mode (all move as queens without
# capturing by replacement, the pincer as a rook), and a plain man that
# steps and captures by replacement.
PIECES = {
    "approacher": ("A", "[approach]"),
    "withdrawer": ("W", "[withdrawal]"),
    "pincer": ("P", "[custodian]"),
    "coordinator": ("C", "[royal-lines]"),
    "leaper": ("L", "[leap-capture]"),
    "chameleon": ("M", "[imitation]"),
}


def variant_text(extra: str = "", pincer: str = "[custodian]") -> str:
    pieces = "".join(
        f"  {name}:\n    letter: {letter}\n"
        f"    moves: [{{ride: {'orthogonal' if name == 'pincer' else 'all'}, only: move}}]\n"
        f"    capture-by: {pincer if name == 'pincer' else modes}\n"
        for name, (letter, modes) in PIECES.items())
    return f"""variantkit: 1
name: modes
board:
  grid: {{files: 8, ranks: 8}}
sides:
  white: {{forward: n}}
  black: {{forward: s}}
pieces:
  king:
    letter: K
    royal: true
    moves: [{{step: all}}]
  man:
    letter: N
    moves: [{{step: all}}]
  immobilizer:
    letter: I
    moves: [{{ride: all, only: move}}]
    freezes: true
{pieces}{extra}setup: 4k3/8/8/8/8/8/8/4K3 w - - 0 1
end:
  checkmate: loss
  stalemate: draw
"""


def game(fen: str, **options: str) -> Game:
    variant = variantkit.load_text(variant_text(**options))
    assert not variant.problems, variant.problems
    return variant.new_game(fen)


def after(fen: str, move: str, **options: str) -> str:
    """The board part of the position after `move`."""
    played = game(fen, **options)
    played.push(move)
    return played.fen().split()[0]


def moves_from(fen: str, cell: str) -> set[str]:
    return {str(m) for m in game(fen).legal_moves if str(m).startswith(cell)}


def test_approach_takes_the_piece_next_beyond_the_landing_cell() -> None:
    fen = "k7/8/3n4/8/8/3A4/8/7K w - - 0 1"
    assert after(fen, "d3d5") == "k7/8/8/3A4/8/8/8/7K"
    assert after(fen, "d3d4") == "k7/8/3n4/8/3A4/8/8/7K"   # not next to it


def test_withdrawal_takes_the_piece_it_moves_straight_away_from() -> None:
    fen = "k7/8/8/8/3W4/4n3/8/7K w - - 0 1"
    assert after(fen, "d4b6") == "k7/8/1W6/8/8/8/8/7K"      # d4 away from e3
    assert after(fen, "d4d6") == "k7/8/3W4/8/8/4n3/8/7K"   # another line


def test_custodian_pinches_against_any_own_piece_or_only_partners() -> None:
    fen = "k7/8/3N4/3n4/8/8/3P4/7K w - - 0 1"
    assert after(fen, "d2d4") == "k7/8/3N4/8/3P4/8/8/7K"
    partners = "[{custodian: {partners: [pincer]}}]"
    assert after(fen, "d2d4", pincer=partners) == "k7/8/3N4/3n4/3P4/8/8/7K"
    assert after("k7/8/3P4/3n4/8/8/3P4/7K w - - 0 1", "d2d4", pincer=partners) \
        == "k7/8/3P4/8/3P4/8/8/7K"


def test_royal_lines_take_where_the_lines_meet_the_kings() -> None:
    # Landing on a5, the coordinator's rank meets the king's file on e5; on
    # b2, its file meets the king's rank on b1.
    fen = "k7/8/8/4n3/8/8/8/Cn2K3 w - - 0 1"
    assert after(fen, "a1a5") == "k7/8/8/C7/8/8/8/1n2K3"
    assert after(fen, "a1b2") == "k7/8/8/4n3/8/8/1C6/4K3"   # b1 and e2
    assert after("k7/8/8/4n3/8/1C6/8/1n2K3 w - - 0 1", "b3b5") == "k7/8/8/1C6/8/8/8/4K3"


def test_leaps_take_every_enemy_piece_jumped() -> None:
    fen = "k7/8/8/8/3n4/8/1n6/L6K w - - 0 1"
    assert after(fen, "a1c3") == "k7/8/8/8/3n4/2L5/8/7K"
    assert after(fen, "a1f6") == "k7/8/5L2/8/8/8/8/7K"
    # Two in a row, or an own piece, stop the leap.
    assert moves_from("k7/8/8/8/8/2n5/1n6/L6K w - - 0 1", "a1") == {"a1a2", "a1a3", "a1a4",
                                                                    "a1a5", "a1a6", "a1a7",
                                                                    "a1b1", "a1c1",
                                                                    "a1d1", "a1e1", "a1f1",
                                                                    "a1g1"}
    assert "a1c3" not in moves_from("k7/8/8/8/8/8/1N6/L6K w - - 0 1", "a1")


def test_imitation_takes_each_piece_as_it_takes() -> None:
    # Away from a withdrawer (taken), not from a man (which takes by replacement).
    assert after("k7/8/8/8/3M4/4w3/8/7K w - - 0 1", "d4b6") == "k7/8/1M6/8/8/8/8/7K"
    assert after("k7/8/8/8/3M4/4n3/8/7K w - - 0 1", "d4b6") == "k7/8/1M6/8/8/4n3/8/7K"
    # The man by a man's step onto it; the leaper only by a leap over it.
    assert after("k7/8/8/8/3M4/4n3/8/7K w - - 0 1", "d4e3") == "k7/8/8/8/8/4M3/8/7K"
    assert moves_from("k7/8/8/8/8/2n5/8/M6K w - - 0 1", "a1") & {"a1d4"} == set()
    assert after("k7/8/8/8/8/2l5/8/M6K w - - 0 1", "a1e5") == "k7/8/8/4M3/8/8/8/7K"
    # A pincer only by a rook's move (as a pincer moves), not a diagonal one.
    assert after("k7/8/8/8/2Np4/8/8/M6K w - - 0 1", "a1e1") == "k7/8/8/8/2Np4/8/8/4M2K"
    assert after("k7/8/8/8/2Np4/8/8/4M2K w - - 0 1", "e1e4") == "k7/8/8/8/2N1M3/8/8/7K"
    assert after("k7/8/8/8/2Np4/8/8/3M3K w - - 0 1", "d1c2") == "k7/8/8/8/2Np4/8/2M5/7K"
    # Never a chameleon.
    assert after("k7/8/8/8/3M4/4m3/8/7K w - - 0 1", "d4b6") == "k7/8/1M6/8/8/4m3/8/7K"


def test_freezing() -> None:
    # Beside an enemy immobilizer a piece cannot move, the king neither.
    assert moves_from("k7/8/8/3i4/3W4/8/8/7K w - - 0 1", "d4") == set()
    assert moves_from("k7/8/8/8/8/8/6i1/7K w - - 0 1", "h1") == set()
    # A frozen immobilizer freezes still; a chameleon freezes an immobilizer.
    assert moves_from("k7/8/8/3i4/3I4/8/8/7K w - - 0 1", "d4") == set()
    assert moves_from("k7/8/8/3i4/3I4/8/8/7K b - - 0 1", "d5") == set()
    assert moves_from("k7/8/8/3M4/3i4/8/8/7K b - - 0 1", "d4") == set()
    assert moves_from("k7/8/8/3m4/3W4/8/8/7K w - - 0 1", "d4")   # others move


def test_check_by_every_capture_mode_and_none_by_a_frozen_piece() -> None:
    # The withdrawer beside the king with room behind it gives check.
    checked = game("k7/8/8/8/8/8/6w1/7K w - - 0 1")
    assert checked.is_check()
    assert checked.position.checkers() == 1 << 14   # the withdrawer's g2
    assert game("k7/8/8/8/8/8/5iw1/7K w - - 0 1").is_check()   # the immobilizer is black's
    assert not game("k7/8/8/8/8/5I2/6w1/7K w - - 0 1").is_check()   # frozen
    # A pincer that can land on d1 pinches the king against the f1 immobilizer.
    assert game("k2p4/8/8/8/8/8/8/4Ki2 w - - 0 1").is_check()
    assert not game("k7/8/8/8/8/8/8/4Ki2 w - - 0 1").is_check()
    # The king may not step where a leaper could jump it.
    assert "e1e2" not in {str(m) for m in game("k7/8/8/8/4l3/8/8/4K3 w - - 0 1").legal_moves}
    assert "e1d2" in {str(m) for m in game("k7/8/8/8/4l3/8/8/4K3 w - - 0 1").legal_moves}


def test_a_remote_capture_is_written_with_x_and_read_back() -> None:
    played = game("k7/8/8/8/3W4/4n3/8/7K w - - 0 1")
    assert played.san("d4b6") == "Wxb6"
    assert played.san("d4d6") == "Wd6"
    for move in played.legal_moves:
        assert str(played.parse_san(played.san(move))) == str(move)


@pytest.mark.parametrize(("extra", "found"), [
    ("  bad:\n    letter: B\n    moves: [{step: all}]\n"
     "    capture-by: [{leap-capture: {partners: [man]}}]\n",
     ":47:34: [error] unknown key 'partners'"),
    ("  bad:\n    letter: B\n    moves: [{step: all}]\n"
     "    capture-by: [{custodian: {partners: [nobody]}}]\n",
     ":47:42: [error] unknown piece 'nobody'"),
    ("", "[error] `capture-by` and `freezes` need a grid board (capture-by-grid)"),
])
def test_bad_declarations_are_located_problems(extra: str, found: str) -> None:
    text = variant_text(extra=extra)
    if not extra:
        text = text.replace("grid: {files: 8, ranks: 8}", "hex: {side: 5}")
    with pytest.raises(VariantError) as raised:
        variantkit.load_text(text)
    assert found in str(raised.value)
