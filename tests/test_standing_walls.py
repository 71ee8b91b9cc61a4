"""Walls that stand all game (`walls: {kind: none}`): the setup and position
strings put them (`*`), no move puts or takes one, sliders stop at them and
leapers go over them; the variant exports with them as Fairy-Stockfish's
start position.  tests/data/fsf/boards.ini holds such a game against pyffish."""

from __future__ import annotations

import pyffish
import pytest

import variantkit
from variantkit import IllegalMoveError, Variant
from variantkit.fsf import export_ini

# Not run again on the pure build (tests/conftest.py): the pyffish check is
# on the exporter's text; the position core's part runs on both builds in
# test_fsf_import's boards.ini sections.
PURE_PASS = False

STANDING = """\
variantkit: 1
name: walled-chess
inherits: chess
walls: {kind: none}
position-string: {holes: "*"}
setup: "rnbqkbnr/pppppppp/8/8/8/2*5/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
"""


def variant() -> Variant:
    return variantkit.load_text(STANDING, "walled-chess.yaml")


def test_a_standing_wall_is_read_written_and_never_moves() -> None:
    game = variant().new_game()
    assert game.fen() == "rnbqkbnr/pppppppp/8/8/8/2*5/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    moves = {str(m) for m in game.legal_moves()}
    # The wall on c3 stops the pawn and the knight's landing, not its leap.
    assert "c2c3" not in moves and "c2c4" not in moves and "b1c3" not in moves
    assert {"b1a3", "d2d4"} <= moves and all("," not in m for m in moves)
    game.push("e2e4")
    game.push("e7e5")
    game.push("f1a6")   # e2 free: the bishop passes it; a6 is reached
    assert game.fen().split()[0] == "rnbqkbnr/pppp1ppp/B7/4p3/4P3/2*5/PPPP1PPP/RNBQK1NR"
    game.pop()
    # The queen's diagonal from d1 to a4 runs into the wall.
    game.push("d2d3")
    game.push("a7a6")
    assert "d1a4" not in {str(m) for m in game.legal_moves()}


def test_a_position_string_may_put_walls_elsewhere() -> None:
    game = variant().new_game("4k3/8/8/3*4/8/8/8/3RK3 w - - 0 1")
    assert {str(m) for m in game.legal_moves() if m.from_cell == "d1"} == \
        {"d1a1", "d1b1", "d1c1", "d1d2", "d1d3", "d1d4"}


def test_a_bad_move_is_explained_as_a_plain_move() -> None:
    with pytest.raises(IllegalMoveError, match="white has no legal move from c2"):
        variant().new_game().push("c2c3")


def test_it_exports_as_a_start_position_with_walls_that_pyffish_plays() -> None:
    text = export_ini(variant(), "vk-walled-export")
    assert "wallingRule = none" in text
    pyffish.load_variant_config(text)
    start = pyffish.start_fen("vk-walled-export")
    assert start.startswith("rnbqkbnr/pppppppp/8/8/8/2*5/PPPPPPPP/RNBQKBNR w")
    assert set(pyffish.legal_moves("vk-walled-export", start, [])) == \
        {str(m) for m in variant().new_game().legal_moves()}
