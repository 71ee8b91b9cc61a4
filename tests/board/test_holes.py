"""Holes written in position strings (`position-string: {holes: "*"}`):
rows keep the columns of a rectangle, as Fairy-Stockfish writes them, and
a string that puts the mark, a piece or an empty run in the wrong place is
refused with a reason."""

from __future__ import annotations

import pytest

import variantkit
from variantkit.errors import InvalidFenError

START = "****qk****/**rnbbnr**/*pppppppp*/*8*/10/10/*8*/*PPPPPPPP*/**RNBBNR**/****QK**** w - - 0 1"


def test_holes_are_written_in_their_columns() -> None:
    game = variantkit.load("troitzky").new_game()
    assert game.fen() == START
    game.push("e3e5")
    assert game.fen().split()[0].split("/")[5] == "4P5"
    assert game.fen().split()[0].split("/")[7] == "*PPP1PPPP*"


def test_a_board_drawn_by_rows_writes_its_gaps_too() -> None:
    game = variantkit.load("omicron").new_game()
    assert game.fen().startswith("w**********w/*crnbqkbnrc*/")
    assert variantkit.load("omicron").new_game(game.fen()).fen() == game.fen()


@pytest.mark.parametrize("placement, reason", [
    ("****q*****", "stands on a cell"),          # the mark on f10
    ("q***k*****", "stands on a hole"),          # a piece on a10
    ("4qk4", "covers a hole"),                    # a run over the holes
    ("****qk***", "covers 9 cells"),
])
def test_misplaced_marks_are_refused(placement: str, reason: str) -> None:
    fen = START.replace("****qk****", placement, 1)
    with pytest.raises(InvalidFenError, match=reason):
        variantkit.load("troitzky").new_game(fen)
