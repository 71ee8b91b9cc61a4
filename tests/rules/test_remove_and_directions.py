"""A child variant's `remove:` (inherited entries deleted cleanly), and the
relative direction words when a side's forward is diagonal."""

from __future__ import annotations

from pathlib import Path

import pytest

import variantkit
from variantkit import VariantError


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "v.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def child_of_chess(tmp_path: Path, body: str) -> variantkit.Variant:
    return variantkit.load(write(tmp_path, "variantkit: 1\nname: x\ninherits: chess\n" + body))


def test_removed_piece_and_region_are_gone(tmp_path: Path) -> None:
    variant = child_of_chess(tmp_path, """\
remove:
  pieces: [queen]
  board: {regions: [rank-8]}
  end: [insufficient-material]
board:
  grid: {files: 8, ranks: 6}
  regions:
    rank-6: {ranks: [6]}
setup: rnbkbnr1/pppppppp/8/8/PPPPPPPP/RNBKBNR1 w - - 0 1
promotion:
  regions: {white: rank-6, black: rank-1}
  choices: [rook, bishop, knight]
castling: []
""")
    assert "queen" not in variant.pieces.by_name
    assert "rank-8" not in variant.board.regions
    assert variant.rules.end.insufficient == []
    assert variant.problems == []    # no unused region left behind


def test_a_removed_piece_may_be_written_again_from_nothing(tmp_path: Path) -> None:
    variant = child_of_chess(tmp_path, "remove: {pieces: [knight]}\n"
                                       "pieces: {knight: {letter: N, betza: NN}}\n")
    assert variant.document.data["pieces"]["knight"] == {"letter": "N", "betza": "NN"}


@pytest.mark.parametrize(("text", "where", "message"), [
    ("inherits: chess\nremove:\n  pieces: [quen]\n", (5, 12), "the parent has no 'quen' in pieces"),
    ("inherits: chess\nremove:\n  bord: {regions: [x]}\n", (5, 3),
     "the parent has no 'bord' at the top level"),
    ("remove: [castling]\n", (3, 1), "only a file that inherits"),
])
def test_bad_removals_are_located(tmp_path: Path, text: str, where: tuple[int, int],
                                  message: str) -> None:
    with pytest.raises(VariantError) as info:
        variantkit.load(write(tmp_path, "variantkit: 1\nname: x\n" + text))
    problem = info.value.problems[0]
    assert (problem.line, problem.column, problem.rule) == (*where, "remove-missing")
    assert message in problem.message


def test_words_turn_with_a_diagonal_forward() -> None:
    # Legan's White pawn on e4 (forward nw): moves to d5, captures on e5 and d4.
    game = variantkit.load("legan").new_game(fen="k7/8/8/4p3/3pP3/8/8/7K w - - 0 1")
    assert sorted(str(m) for m in game.legal_moves() if m.from_cell == "e4") == \
        ["e4d4", "e4d5", "e4e5"]
