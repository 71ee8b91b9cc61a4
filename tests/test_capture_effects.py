"""What a capture does beyond taking a piece: blast-proof pieces (atomar's
kings) survive explosions, their own capture's included."""

from __future__ import annotations

import variantkit


def test_a_blast_proof_king_survives_its_own_capture() -> None:
    game = variantkit.load("atomar").new_game("8/8/8/8/8/3k4/3p4/4K3 w - - 0 1")
    game.push("e1d2")
    assert game.fen().split()[0] == "8/8/8/8/8/3k4/3K4/8"


def test_a_king_may_not_capture_the_other_king() -> None:
    game = variantkit.load("atomar").new_game("8/8/8/8/8/8/3k4/4K3 w - - 0 1")
    assert "e1d2" not in game.legal_moves
    assert "e1d2" in variantkit.load("nocheckatomic").new_game(game.fen()).legal_moves


def test_the_capturer_explodes_unless_blast_proof() -> None:
    fen = "8/8/8/8/8/8/3kr3/3QK3 w - - 0 1"
    game = variantkit.load("atomar").new_game(fen)
    game.push("d1e2")
    assert game.fen().split()[0] == "8/8/8/8/8/8/3k4/4K3"
