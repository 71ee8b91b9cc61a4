"""`in-a-square: N`: the side whose pieces fill an N by N block of cells
wins (teeko, Fairy-Stockfish's connectNxN); `on-a-line: N`: N pieces on one
line, gaps allowed (three musketeers, collinearN)."""

from __future__ import annotations

from pathlib import Path

import pytest

import variantkit

BLOCKS = """\
variantkit: 1
name: blocks
board:
  grid: {files: 4, ranks: 4}
sides:
  white: {forward: n}
  black: {forward: s}
royals: {per-side: any}
pieces:
  stone: {letter: S, moves: [{step: orthogonal, only: move}]}
setup: 4/4/4/4 w - - 0 1
end:
  conditions:
    - {in-a-square: 2, result: win}
"""


def load(tmp_path: Path, text: str) -> variantkit.Variant:
    path = tmp_path / "blocks.yaml"
    path.write_text(text, encoding="utf-8")
    return variantkit.load(str(path))


def test_a_filled_block_wins_and_a_broken_one_does_not(tmp_path: Path) -> None:
    variant = load(tmp_path, BLOCKS)
    game = variant.new_game("3s/S3/1S2/SS2 w - - 0 1")
    assert game.outcome() is None
    game.push("a3a2")     # a1, b1, a2, b2
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == "white" and outcome.reason == "in-a-square"
    assert not game.legal_moves()
    # Four stones in a row, or on a diagonal, are not a block.
    assert variant.new_game("3s/4/4/SSSS b - - 0 1").outcome() is None
    assert variant.new_game("3s/S3/1S2/2S1 b - - 0 1").outcome() is None


def test_a_square_larger_than_the_board_is_refused(tmp_path: Path) -> None:
    with pytest.raises(variantkit.VariantError, match="no square of 5 by 5 cells"):
        load(tmp_path, BLOCKS.replace("in-a-square: 2", "in-a-square: 5"))


def test_pieces_on_one_line_with_gaps_meet_on_a_line(tmp_path: Path) -> None:
    variant = load(tmp_path, BLOCKS.replace("{in-a-square: 2, result: win}",
                                            "{on-a-line: 3, lines: [n], result: loss}"))
    game = variant.new_game("S2s/4/1S2/S3 w - - 0 1")
    game.push("b2b3")     # two stones on the a-file, one on the b-file
    assert game.outcome() is None
    game = variant.new_game("S2s/4/1S2/S3 w - - 0 1")
    game.push("b2a2")     # a1, a2 and a4, with a gap at a3
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == "black" and outcome.reason == "on-a-line"


def test_lines_belong_to_lines_of_pieces(tmp_path: Path) -> None:
    with pytest.raises(variantkit.VariantError,
                       match="`lines` applies to an `in-a-row`, `on-a-line` or `connected` "
                             "condition only"):
        load(tmp_path, BLOCKS.replace("{in-a-square: 2,", "{in-a-square: 2, lines: [n],"))
