"""End conditions on castling (`castled`, `castling-lost`): castling by a
named right wins, and a side that can no longer castle by any of them loses
(Fairy-Stockfish's castlingWins)."""

from __future__ import annotations

from pathlib import Path

import pytest

import variantkit

# Black wins by castling long and loses once it cannot any more; White's
# castling counts for nothing.
CASTLE = """\
variantkit: 1
name: castle-race
inherits: chess
end:
  conditions:
    - {castled: [q], result: win}
    - {castling-lost: [q], result: loss}
"""
OPEN = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R"


@pytest.fixture(scope="module")
def race() -> variantkit.Variant:
    return variantkit.load_text(CASTLE, "race.yaml")


def test_castling_by_the_right_wins(race: variantkit.Variant) -> None:
    game = race.new_game(f"{OPEN} b KQkq - 0 1")
    game.push("e8c8")
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == "black" and outcome.reason == "castling"
    assert not game.legal_moves()


def test_castling_by_another_right_does_not_end_the_game(race: variantkit.Variant) -> None:
    game = race.new_game(f"{OPEN} w KQkq - 0 1")
    game.push("e1c1")
    assert game.outcome() is None
    game.push("e8g8")     # loses the long right with the king's move
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == "white"


def test_losing_the_right_loses_and_a_side_without_it_plays_on(
        race: variantkit.Variant) -> None:
    game = race.new_game(f"{OPEN} b KQkq - 0 1")
    game.push("a8b8")
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == "white"
    # White has no right the conditions name: moving its rooks changes nothing.
    game = race.new_game(f"{OPEN} w KQkq - 0 1")
    game.push("a1b1")
    assert game.outcome() is None and game.legal_moves()


def test_a_position_without_the_right_has_lost_it(race: variantkit.Variant) -> None:
    game = race.new_game(f"{OPEN} w KQk - 0 1")
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == "white"


def test_a_right_no_castling_has_is_refused_where_it_stands(tmp_path: Path) -> None:
    path = tmp_path / "x.yaml"
    path.write_text(CASTLE.replace("[q]", "[z]", 1), encoding="utf-8")
    with pytest.raises(variantkit.VariantError) as info:
        variantkit.load(str(path))
    found = [(p.line, p.column, p.rule) for p in info.value.problems]
    assert found == [(6, 8, "bad-end-condition")]
    assert "no castling of this variant has the right 'z'" in info.value.problems[0].message
