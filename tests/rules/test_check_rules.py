"""`may-give-check: false` at the top level: no move may give check, by any
piece, discovered or by castling (checkmateless chess, Fairy-Stockfish's
`checking = false`)."""

from __future__ import annotations

from pathlib import Path

import pytest

import variantkit

QUIET = """\
variantkit: 1
name: quiet
inherits: chess
may-give-check: false
end: {stalemate: loss}
"""


@pytest.fixture(scope="module")
def quiet(tmp_path_factory: pytest.TempPathFactory) -> variantkit.Variant:
    path = tmp_path_factory.mktemp("checks") / "quiet.yaml"
    path.write_text(QUIET, encoding="utf-8")
    return variantkit.load(str(path))


def moves(variant: variantkit.Variant, fen: str) -> set[str]:
    return {str(m) for m in variant.new_game(fen).legal_moves()}


def test_no_move_gives_check(quiet: variantkit.Variant) -> None:
    found = moves(quiet, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
    assert "a1a8" not in found and "a1a7" in found
    # Discovered: the bishop may not leave the rook's file.
    found = moves(quiet, "4k3/8/8/8/4B3/8/8/K3R3 w - - 0 1")
    assert not any(m.startswith("e4") for m in found)


def test_castling_that_would_give_check_is_not_legal(quiet: variantkit.Variant) -> None:
    assert "e1g1" not in moves(quiet, "5k2/8/8/8/8/8/8/4K2R w K - 0 1")
    assert "e1g1" in moves(quiet, "6k1/8/8/8/8/8/8/4K2R w K - 0 1")


def test_a_side_left_without_a_move_loses(quiet: variantkit.Variant) -> None:
    # Black's king is boxed in and every other move would check.
    game = quiet.new_game("k7/2R5/1R6/8/8/8/8/7K b - - 0 1")
    outcome = game.outcome()
    assert not game.legal_moves() and outcome is not None and outcome.winner == "white"


def test_the_chess_default_gives_check(tmp_path: Path) -> None:
    path = tmp_path / "loud.yaml"
    path.write_text(QUIET.replace("may-give-check: false", "may-give-check: true"),
                    encoding="utf-8")
    assert "a1a8" in moves(variantkit.load(str(path)), "4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
