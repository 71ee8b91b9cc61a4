"""Promoted forms (a piece letter `+P`): written in position strings as
Fairy-Stockfish writes a promoted pawn, and a promotion to one ends the
move string with `+` (Wolf chess's pawn becoming an elephant)."""

from __future__ import annotations

from pathlib import Path

import pyffish
import pytest

import variantkit

FEN = "n6k/1P1S4/8/8/8/8/8/8/8/K7 w - - 0 1"


def test_a_promotion_to_a_promoted_form_is_written_plus() -> None:
    game = variantkit.load("wolf").new_game(FEN)
    moves = {str(m) for m in game.legal_moves}
    assert {"b9b10+", "b9a10+", "b9b10q"} <= moves
    assert not any(m.startswith("d9") and m.endswith("+") for m in moves)  # not the sergeant's
    assert moves == set(pyffish.legal_moves("wolf", FEN, []))


def test_a_promoted_form_reads_and_writes_with_its_plus() -> None:
    game = variantkit.load("wolf").new_game(FEN)
    game.push("b9b10+")
    assert game.fen() == pyffish.get_fen("wolf", FEN, ["b9b10+"]) == \
        "n+P5k/3S4/8/8/8/8/8/8/8/K7 b - - 0 1"
    again = variantkit.load("wolf").new_game(game.fen())
    assert again.piece_at("b10") == "+P" and again.fen() == game.fen()
    assert {str(m) for m in again.legal_moves} == \
        set(pyffish.legal_moves("wolf", game.fen(), []))
    assert again.is_check()


def test_a_rule_may_not_offer_two_promoted_forms(tmp_path: Path) -> None:
    path = tmp_path / "x.yaml"
    path.write_text("variantkit: 1\nname: x\ninherits: chess\npieces:\n"
                    "  dragon: {letter: +R, betza: RF}\n  horse: {letter: +B, betza: BW}\n"
                    "promotion:\n  choices: [queen, dragon, horse]\n", encoding="utf-8")
    with pytest.raises(variantkit.VariantError, match="promoted-forms"):
        variantkit.load(str(path))
