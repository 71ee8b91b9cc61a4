"""`cancels` on a castling entry: castling takes rights away from whoever
holds them (opposite castling, Fairy-Stockfish's `oppositeCastling`), as if
their rooks had moved; the rights come back when the move is taken back.
The imported `oppositeCastling` section of tests/data/fsf/pieces.ini is
compared with pyffish in tests/fsf/test_fsf_import.py."""

from __future__ import annotations

import pytest

import variantkit
from variantkit import VariantError
from variantkit.fsf import ExportRefused, export_ini

OPPOSITE = """\
variantkit: 1
name: opposite
inherits: chess
setup: r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1
castling:
  - {right: K, king: [e1, g1], rook: [h1, f1], cancels: [k]}
  - {right: Q, king: [e1, c1], rook: [a1, d1], cancels: [q]}
  - {right: k, king: [e8, g8], rook: [h8, f8], cancels: [K]}
  - {right: q, king: [e8, c8], rook: [a8, d8], cancels: [Q]}
"""


def castlings(game: variantkit.Game) -> set[str]:
    return {str(m) for m in game.legal_moves()} & {"e1g1", "e1c1", "e8g8", "e8c8"}


def test_castling_takes_the_opponents_right_on_the_same_wing() -> None:
    game = variantkit.load_text(OPPOSITE).new_game()
    game.push("e1g1")
    assert castlings(game) == {"e8c8"}
    assert game.fen().split()[2] == "q"
    game.pop()
    game.push("e1c1")
    assert castlings(game) == {"e8g8"}


def test_the_rights_come_back_when_the_castling_is_taken_back() -> None:
    game = variantkit.load_text(OPPOSITE).new_game()
    game.push("e1g1")
    game.pop()
    game.push("a2a3")
    assert castlings(game) == {"e8g8", "e8c8"}
    assert game.fen().split()[2] == "KQkq"


def test_an_unknown_right_is_reported_at_its_place() -> None:
    text = OPPOSITE.replace("cancels: [q]}", "cancels: [x]}", 1)
    with pytest.raises(VariantError) as info:
        variantkit.load_text(text)
    [problem] = info.value.problems
    assert problem.line == 7
    assert problem.path == ("castling", 1, "cancels", 0)
    assert problem.message == "cancels: unknown castling right 'x' (this variant has KQkq)"


def test_cancels_under_free_castling_is_reported() -> None:
    text = OPPOSITE + "free-castling: true\n"
    with pytest.raises(VariantError) as info:
        variantkit.load_text(text)
    assert {p.rule for p in info.value.problems} == {"castling-cancels"}


def test_opposite_castling_is_exported_as_fairy_stockfish_writes_it() -> None:
    assert "\noppositeCastling = true\n" in export_ini(variantkit.load_text(OPPOSITE))
    other = OPPOSITE.replace("cancels: [q]}", "cancels: [K]}", 1)
    with pytest.raises(ExportRefused, match="cancels other than the opponent's right"):
        export_ini(variantkit.load_text(other))
