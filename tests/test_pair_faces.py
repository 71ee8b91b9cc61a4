"""The faces of a game on two boards: the text drawing, moves written with
their board, the command line (render, show, play) and the playground's
JSON API for a pair (`variantkit.pair`, docs/two-boards.md)."""

from __future__ import annotations

import pytest

from variantkit import IllegalMoveError, InvalidFenError
from variantkit.pair import load_pair, split_move

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"


# -- the pair itself ----------------------------------------------------------------

def test_text_turns_board_b_so_that_partners_sit_on_one_side() -> None:
    pair = load_pair("bughouse")
    pair.push_text("A:e2e4")
    pair.push_text("A:d7d5")
    pair.push_text("A:e4d5")
    lines = pair.text().splitlines()
    # Board B from Black's side: its first rank on top, its files from h to a,
    # White's hand over it and Black's (holding the pawn taken on A) under it.
    assert lines[1].split()[-3:] == ["white", "hand:", "-"]
    assert lines[2].endswith("1 R N B K Q B N R")
    assert lines[9].endswith("8 r n b k q b n r")
    assert lines[10].split()[-8:] == list("hgfedcba")
    assert lines[11].split()[-3:] == ["black", "hand:", "p"]
    assert pair.text(flip_b=False).splitlines()[2].endswith("8 r n b q k b n r")


@pytest.mark.parametrize(("text", "board", "move"), [
    ("A:e2e4", "A", "e2e4"), ("b:P@e5", "B", "P@e5"), (" B: Nf3 ", "B", "Nf3"),
])
def test_a_move_names_its_board(text: str, board: str, move: str) -> None:
    assert split_move(text) == (board, move)


@pytest.mark.parametrize(("text", "message"), [
    ("e2e4", "names its board first"),
    ("C:e2e4", "names its board first"),
    ("A:", "names its board first"),
    (None, "is a str, not NoneType"),
    ("B:e2e5", "board B: illegal move 'e2e5'"),
    ("A:" + "x" * 10_000, "board A: move text of 10000 characters is too long"),
])
def test_bad_moves_on_a_pair_say_which_board(text: object, message: str) -> None:
    with pytest.raises(IllegalMoveError, match=message):
        load_pair("bughouse").push_text(text)


def test_a_bad_position_string_says_which_board() -> None:
    with pytest.raises(InvalidFenError, match="board B: placement part 'zz'"):
        load_pair("bughouse", f"{START} | zz")
