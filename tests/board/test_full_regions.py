"""`reached` with `when-full: true`: one piece in the region is enough for
the side that has just moved once the region is full (kono)."""

from __future__ import annotations

from pathlib import Path

import pytest

import variantkit

# Two stones a side on 3x3 swap rows; the far row is the home to fill.
HOMES = """\
variantkit: 1
name: homes
board:
  grid: {files: 3, ranks: 3}
  regions:
    top: {ranks: [3]}
    bottom: {ranks: [1]}
sides:
  white: {forward: n}
  black: {forward: s}
royals: {per-side: any}
pieces:
  stone: {letter: P, moves: [{step: orthogonal, only: move}]}
setup: ppp/3/PPP w - - 0 1
end:
  conditions:
    - {reached: {white: top, black: bottom}, pieces: [stone], at-least: 3,
       when-full: true, result: win}
"""


@pytest.fixture(scope="module")
def homes() -> variantkit.Variant:
    return variantkit.load_text(HOMES, "homes.yaml")


def test_one_piece_in_a_full_region_wins_for_the_mover(homes: variantkit.Variant) -> None:
    game = homes.new_game("pp1/2P/P2 w - - 0 1")
    assert game.outcome() is None
    game.push("c2c3")     # the top row is full, one white stone in it
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == "white" and outcome.reason == "region"


def test_a_region_the_other_side_fills_waits_for_the_owner(homes: variantkit.Variant) -> None:
    # Black fills White's home with its move: White has not moved there yet.
    game = homes.new_game("P1p/1p1/3 b - - 0 1")
    game.push("b2b3")
    assert game.outcome() is None and game.legal_moves()


def test_when_full_belongs_to_reached(tmp_path: Path) -> None:
    path = tmp_path / "x.yaml"
    path.write_text(HOMES.replace("{reached: {white: top, black: bottom}, pieces: [stone], "
                                  "at-least: 3,\n       when-full: true,",
                                  "{extinct: [stone], when-full: true,"), encoding="utf-8")
    with pytest.raises(variantkit.VariantError, match="`when-full` applies to a `reached`"):
        variantkit.load(str(path))
