"""Walls that stand all game (`walls: {kind: none}`): the setup and position
strings put them (`*`), no move puts or takes one, sliders stop at them and
leapers go over them; the variant exports with them as Fairy-Stockfish's
start position.  tests/data/fsf/boards.ini holds such a game against pyffish."""

from __future__ import annotations

import pyffish
import pytest

import variantkit
from variantkit import IllegalMoveError, Variant
from variantkit.fsf import ExportRefused, export_ini

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


WALLED_REVERSI = """\
variantkit: 1
name: walled-reversi
inherits: flipello
board:
  grid: {files: 6, ranks: 6}
  regions: {}
walls: {kind: none}
position-string: {holes: "*"}
flips: {kind: enclosed, drops: enclose, walls-enclose: %s}
setup: "6/3pp1/p2pp1/6/6/1p*P2[PPPPPPPPPPpppppppppp] w - - 0 1"
"""


@pytest.mark.parametrize("enclose", [True, False])
def test_a_drop_encloses_walls_only_under_walls_enclose(enclose: bool) -> None:
    # a1's line east is an enemy disc, a wall and an own disc.
    text = WALLED_REVERSI % ("true" if enclose else "false")
    game = variantkit.load_text(text, "walled-reversi.yaml").new_game()
    assert ("P@a1" in {str(m) for m in game.legal_moves()}) is enclose
    if enclose:
        game.push("P@a1")
        # A line with a wall turns nothing over.
        assert game.fen().split()[0].startswith("6/3pp1/p2pp1/6/6/Pp*P2")


def test_walls_that_break_a_reversi_line_are_not_exported() -> None:
    variant = variantkit.load_text(WALLED_REVERSI % "false", "walled-reversi.yaml")
    with pytest.raises(ExportRefused, match="walls-enclose"):
        export_ini(variant)
    # With walls-enclose it exports, and pyffish plays the drop through the wall.
    text = export_ini(variantkit.load_text(WALLED_REVERSI % "true", "w.yaml"), "vk-wr")
    pyffish.load_variant_config(text)
    start = pyffish.start_fen("vk-wr")
    assert "P@a1" in pyffish.legal_moves("vk-wr", start, [])
