"""Gating (Seirawan chess, S-house) and hands that must drop with balanced
colours (placement chess), position by position against pyffish; the
declarations' errors, located."""

from __future__ import annotations

import random

import pyffish
import pytest
from fsf_oracle import Oracle, after

import variantkit
from variantkit.errors import VariantError

# Both sides may castle, with a hawk and an elephant still in reserve.
CASTLING = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R[EHeh] w KQkq - 0 1"


def follow(name: str, fen: str, moves: list[str]) -> variantkit.Game:
    """Play `moves` from `fen`, comparing every position with pyffish's."""
    oracle = Oracle(name)
    game = oracle.variant.new_game(fen)
    sf_fen = after(name, fen, [])
    for move in moves:
        oracle.compare(game, sf_fen, f"before {move}")
        game.push(move)
        sf_fen = after(name, sf_fen, [move])
    oracle.compare(game, sf_fen, "at the end")
    return game


def test_castling_gates_on_the_kings_or_the_rooks_cell() -> None:
    assert Oracle("seirawan").walk(2, CASTLING) > 0
    legal = {str(m) for m in variantkit.load("seirawan").new_game(CASTLING).legal_moves}
    # On the king's cell e1g1h; on the rook's cell written rook to king, h1e1h.
    assert {"e1g1h", "h1e1h", "e1c1e", "a1e1e", "e1g1", "e1c1"} <= legal


def test_castling_with_gating_places_both_pieces() -> None:
    game = follow("seirawan", CASTLING, ["h1e1h"])
    assert game.piece_at("h1") == "H" and game.piece_at("g1") == "K" \
        and game.piece_at("f1") == "R"
    game.pop()
    assert game.fen() == variantkit.load("seirawan").new_game(CASTLING).fen()


def test_rights_of_moved_king_stay_for_the_rooks() -> None:
    # The king leaves with a gate: castling is gone, the rooks may still gate.
    game = follow("seirawan", CASTLING, ["e1f1e"])
    assert game.fen().split()[2] == "AHkq"


def test_an_empty_reserve_writes_no_gating_rights() -> None:
    start = variantkit.load("seirawan").setup_fen
    game = follow("seirawan", start, ["b1c3h", "b8c6e", "g1f3e", "g8f6h"])
    assert game.fen().split()[2] == "KQkq"


def test_s_house_keeps_the_rights_of_an_empty_hand() -> None:
    start = variantkit.load("shouse").setup_fen
    game = follow("shouse", start, ["b1c3h", "b8c6e", "g1f3e", "g8f6h", "f3e5", "c6e5"])
    assert game.fen().split()[2] == "KQCDFkqcdf"
    assert game.hand("black") == {"n": 1}


def test_a_gated_piece_does_not_free_a_pinned_piece() -> None:
    # The knight on d1 is pinned by the rook on a1: no move, gating or not.
    game = follow("seirawan", "4k3/8/8/8/8/8/8/r2NK3[H] w D - 0 1", [])
    assert not [m for m in game.legal_moves if m.from_cell == "d1"]


def test_gating_in_san_as_pyffish_writes_it() -> None:
    game = variantkit.load("seirawan").new_game(CASTLING)
    for move in ("e1g1h", "h1e1h", "e1c1e", "a1e1e", "a1b1h", "e1d1e", "h1f1"):
        assert game.san(move) == pyffish.get_san("seirawan", CASTLING, move)
        assert str(game.parse_san(game.san(move))) == move


def test_a_gating_move_reads_with_an_upper_case_letter() -> None:
    game = variantkit.load("seirawan").new_game()
    assert str(game.push(variantkit.Move("b1", "c3", gate="H"))) == "b1c3h"
    assert game.hand("white") == {"E": 1}


def test_placement_keeps_a_cell_for_the_second_bishop() -> None:
    # Only h1 is left of the light cells: the bishop must go there, and no
    # other piece may take it.
    fen = "8/pppppppp/8/8/8/8/PPPPPPPP/BQ1N1R2[KRBNkqrrbbnn] w - - 0 1"
    game = follow("placement", fen, [])
    drops = {str(m) for m in game.legal_moves}
    assert "B@h1" in drops and "B@c1" not in drops and "K@h1" not in drops


def test_placement_king_and_rook_dropped_home_may_castle() -> None:
    start = variantkit.load("placement").setup_fen
    moves = ["R@a1", "R@a8", "R@h1", "R@h8", "K@e1", "K@e8", "N@b1", "N@b8", "N@g1", "N@g8",
             "B@c1", "B@c8", "B@f1", "B@f8", "Q@d1", "Q@d8", "g1f3", "g8f6", "e2e3", "e7e6",
             "f1e2", "f8e7"]
    game = follow("placement", start, moves)
    assert game.fen().split()[2] == "KQkq"
    assert "e1g1" in {str(m) for m in game.legal_moves}


def test_placement_must_drop_while_the_hand_holds_pieces() -> None:
    game = variantkit.load("placement").new_game()
    assert all(m.drop for m in game.legal_moves)


@pytest.mark.parametrize(("text", "expected"), [
    ("variantkit: 1\nname: x\ninherits: chess\ngating:\n"
     "  regions: {white: rank-1, black: rank-8}\n", ("gating-hands", 4)),
    ("variantkit: 1\nname: x\ninherits: diplomat\nhands: {}\ngating:\n"
     "  regions: {white: [a1], black: [a2]}\n", ("gating-board", 5)),
    ("variantkit: 1\nname: x\ninherits: seirawan\ngating:\n"
     "  regions: {white: [a1, a2], black: rank-8}\n", ("gating-region", 5)),
])
def test_bad_gating_is_located(text: str, expected: tuple[str, int]) -> None:
    with pytest.raises(VariantError) as info:
        variantkit.load_text(text, "v.yaml")
    assert expected in [(p.rule, p.line) for p in info.value.problems]


def test_pyffish_empty_castling_field_reads_as_none() -> None:
    # Re-read by pyffish, `k` holds the king's gating right; once the rook
    # is captured pyffish writes the field empty, variantkit `-`.
    fen = "h1Hek1nr/3r2pp/6N1/ppnp2P1/P3b2b/1P3P2/3BK1BP/RN5R[] w k - 0 33"
    assert pyffish.get_fen("seirawan", fen, ["g6h8"]).split(" ")[2] == ""
    assert follow("seirawan", fen, ["g6h8"]).fen().split()[2] == "-"


@pytest.mark.parametrize("name", ["seirawan", "shouse", "placement"])
def test_taking_back_a_gating_or_a_drop_restores_the_position(name: str) -> None:
    rng = random.Random(name)
    game = variantkit.load(name).new_game()
    for _ in range(60):
        moves = game.legal_moves()
        if not moves:
            break
        position = game.position
        before = (game.fen(), position.hash, dict(game.hand("white")), dict(game.hand("black")))
        for move in moves:
            game.push(move)
            game.pop()
            assert (game.fen(), position.hash, game.hand("white"), game.hand("black")) == before, \
                f"{name}: {move} taken back from {before[0]}"
        game.push(rng.choice(moves))


@pytest.mark.parametrize("fen", [
    # The last pawn promotes anywhere, in place or one diagonal step away,
    # but not where the met would attack an enemy piece (the king: check).
    "4k3/8/8/8/8/2p5/8/4K3[] b - - 0 48",
    "4k3/8/8/8/8/2p5/8/N6K[] b - - 0 48",
    "4k3/8/8/8/8/2p5/3R4/7K[] b - - 0 48",
    # Of several pawns only those on the long diagonals of the enemy half.
    "2r3R1/2s1kn2/n1P1s2p/1p3P1P/p7/P1pFK2N/S7/R6S[] b - - 0 48",
    "4k3/8/8/4P3/P7/8/8/4K3[] w - - 0 1",
    # Not while the side has a met.
    "4k3/8/5P2/8/8/8/P7/F3K3[] w - - 0 1",
])
def test_sittuyin_promotes_standing(fen: str) -> None:
    assert Oracle("sittuyin").walk(2, after("sittuyin", fen, [])) > 0


def test_a_promotion_in_place_is_taken_back() -> None:
    game = variantkit.load("sittuyin").new_game("4k3/8/8/8/8/2p5/8/7K[] b - - 0 48")
    before = (game.fen(), game.position.hash)
    assert str(game.push("c3c3f")) == "c3c3f" and game.piece_at("c3") == "f"
    game.pop()
    assert (game.fen(), game.position.hash) == before


def test_a_sittuyin_promotion_may_not_discover_check() -> None:
    # The pawn leaving d5 would open the rook's file to the king on d8.
    game = follow("sittuyin", "3k4/8/8/3P4/8/8/3R1K2/8[] w - - 5 38", [])
    assert {str(m) for m in game.legal_moves if m.from_cell == "d5"} == {"d5d5f", "d5d6"}
