"""Imported sections that once played otherwise than Fairy-Stockfish, each
played to its decisive position against pyffish: the sections of
tests/data/fsf/fidelity.ini (tests/fsf/test_fsf_import.py loads them into
pyffish and compares their perft trees and random games), and the rules the
language has no form for, refused with their reason.

Each was found by importing Fairy-Stockfish's own variants.ini and playing
random games of every section against pyffish: maharajah (pawns with no
promotion choice), squatter (safe flags), stardust (a mobility region that
a ride crosses), epicatomic (a double step that promotes), elgam (diagonal
lines, `nC`, a soldier promoting two ways, sideways steps and the move
rule), atomicduck (castling beside a duck and pseudo-royal pieces),
cannonshogi (a drop that blocks a rook and the cannon hopping over it).
"""

from __future__ import annotations

import pyffish
import pytest
from test_fsf_import import ImportedOracle, imported

from variantkit.fsf import import_ini

# Not run again on the pure build: the importer writes YAML and runs no
# compiled code of its own.
PURE_PASS = False
FILE = "fidelity.ini"


def oracle(section: str) -> ImportedOracle:
    return ImportedOracle(section, imported(FILE, section))


def moves_from(section: str, fen: str, cell: str) -> set[str]:
    """The legal moves of the piece on `cell`, compared with pyffish on the way."""
    found = oracle(section).compare(oracle(section).variant.new_game(fen), fen)
    return {move for move in found if move.startswith(cell)}


def refusal(text: str, section: str) -> str:
    """The one problem that keeps `section` of an ini text out."""
    result = import_ini(text, "refused.ini")[section]
    assert isinstance(result, list), f"[{section}] imported"
    (problem,) = result
    return problem.message


# -- pawns with no promotion choice (maharajah) ----------------------------------


def test_a_pawn_with_nothing_to_become_never_enters_the_last_rank() -> None:
    fen = "3k2/P5/6/6/5p/2K3 w - - 0 1"
    assert moves_from("vk-nothing-to-become", fen, "a5") == set()
    # It still attacks the last rank: a king on b6 is in check.
    game = oracle("vk-nothing-to-become").variant.new_game("1k4/P5/6/6/5p/2K3 b - - 0 1")
    assert game.is_check()
    oracle("vk-nothing-to-become").replay([], "1k4/P5/6/6/5p/2K3 b - - 0 1")


# -- safe flags (squatter) ----------------------------------------------------------


@pytest.mark.parametrize(("section", "fen", "won"), [
    # One safe piece on the far rank wins, an attacked one does not.
    ("vk-two-on-the-flag", "R3k/5/5/5/4K b - - 0 1", True),
    ("vk-two-on-the-flag", "R3k/5/1n3/5/4K b - - 0 1", False),
    # Two attacked pieces win: one capture takes back one of them only.
    ("vk-two-on-the-flag", "R1Nrk/5/1n3/5/4K b - - 0 1", True),
    # With a count of two: two pieces, one attacked, do not; three do.
    ("vk-three-on-the-flag", "R1N1k/5/1n3/5/4K b - - 0 1", False),
    ("vk-three-on-the-flag", "RRN1k/5/1n3/5/4K b - - 0 1", True),
])
def test_flag_pieces_win_when_one_capture_cannot_undo_the_count(section: str, fen: str,
                                                                 won: bool) -> None:
    outcome = oracle(section).replay([], fen)
    assert (outcome is not None and outcome.winner == "white") == won


@pytest.mark.parametrize(("line", "result"), [
    # The rook reaches b5 safely and stops attacking Black's rook on e1:
    # both flags are met, a draw.
    (["b1b5"], ("draw", None)),
    # Only Black's flag comes free: Black wins.
    (["b1b4"], ("win", "black")),
    # Black's rook on e1 is still attacked: the game goes on.
    (["b1c1"], None),
])
def test_flags_met_by_both_sides_at_once_draw(line: list[str],
                                              result: tuple[str, str | None] | None) -> None:
    outcome = oracle("vk-both-flags").replay(line, "5/5/4k/K4/1R2r w - - 0 1")
    if result is None:
        assert outcome is None
    else:
        assert outcome is not None and outcome.winner == result[1]


def test_safe_flags_for_both_sides_beside_other_conditions_are_refused() -> None:
    text = ("[both-flags:chess]\nflagRegionWhite = *8\nflagRegionBlack = *1\n"
            "flagPieceSafe = true\nextinctionValue = loss\nextinctionPieceTypes = q\n")
    assert "beside other end conditions: not supported" in refusal(text, "both-flags")


# -- a mobility region crossed by a ride (stardust) -------------------------------------


def test_a_ride_lands_in_its_region_over_cells_outside_it() -> None:
    # White's rook may not stop on b3 but rides over it to b4; Black's
    # may not stop on its second rank but reaches the first.
    white = moves_from("vk-long-way-round", "3k2/6/6/6/1R4/3K2 w - - 0 1", "b2")
    assert {"b2b4", "b2b6"} <= white and "b2b3" not in white
    black = moves_from("vk-long-way-round", "3k2/6/6/1r4/6/3K2 b - - 0 1", "b3")
    assert "b3b1" in black and "b3b2" not in black


# -- a double step that promotes (epicatomic) --------------------------------------------


def test_a_double_step_that_promotes_leaves_no_en_passant_cell() -> None:
    line = ["e7e5n"]
    outcome = oracle("vk-promoting-double-step").replay(line, "4k3/4p3/8/5P2/8/8/8/4K3 b - - 0 1")
    assert outcome is None
    after = pyffish.get_fen("vk-promoting-double-step", "4k3/4p3/8/5P2/8/8/8/4K3 b - - 0 1", line)
    assert after.split()[3] == "-"


def test_a_double_step_into_an_optional_promotion_is_refused() -> None:
    text = ("[optional:chess]\npromotionRegionBlack = *5 *4 *3 *2 *1\n"
            "mandatoryPawnPromotion = false\n")
    assert "double step into the promotion region" in refusal(text, "optional")


# -- diagonal lines, lame atoms, two promotions (elgam) -------------------------------------


@pytest.mark.parametrize(("fen", "cell", "diagonal"), [
    # From c5, a cell of the lines: the rook rides along them, the wazir
    # steps to b6 and d4, the soldier only forwards.
    ("4k2/7/2R4/7/7/7/4K2 w - - 0 1", "c5", {"c5a7", "c5b6", "c5d4", "c5e3", "c5f2", "c5g1"}),
    ("4k2/7/2A4/7/7/7/4K2 w - - 0 1", "c5", {"c5b6", "c5d4"}),
    ("4k2/7/2S4/7/7/7/4K2 w - - 0 1", "c5", {"c5b6"}),
    # The janggi cannon hops along them over one piece, never over a cannon.
    ("4k2/7/2C4/3S3/7/7/4K2 w - - 0 1", "c5", {"c5e3", "c5f2", "c5g1"}),
    ("4k2/7/2C4/3c3/7/7/4K2 w - - 0 1", "c5", set()),
    # Off the lines (c4) none of them moves diagonally, nor does a custom
    # piece on them.
    ("4k2/7/7/2R4/7/7/4K2 w - - 0 1", "c4", set()),
    ("4k2/7/2X4/7/7/7/4K2 w - - 0 1", "c5", set()),
])
def test_pieces_move_along_the_diagonal_lines_as_in_pyffish(fen: str, cell: str,
                                                             diagonal: set[str]) -> None:
    found = moves_from("vk-lines", fen, cell)
    assert {move for move in found if move[0] != move[2] and move[1] != move[3]} == diagonal


def test_diagonal_lines_broken_between_their_cells_are_refused() -> None:
    text = "[broken:chess]\ndiagonalLines = a1 b2 d4 e5\n"
    assert "leave the lines and come back" in refusal(text, "broken")


def test_a_soldiers_sideways_step_keeps_the_move_rule_count() -> None:
    # (pawnTypes = s: its forward step resets the count)
    fen = "4k2/7/7/2S4/7/7/4K2 w - - 7 9"
    line = ["c4d4", "e7e6", "d4d5"]
    oracle("vk-lines").replay(line, fen)
    game = oracle("vk-lines").variant.new_game(fen)
    clocks = []
    for move in line:
        game.push(move)
        clocks.append(game.fen().split()[-2])
    assert clocks == ["8", "9", "0"]


def test_lame_atoms_move_as_fairy_stockfish_plays_them() -> None:
    # nC and nW: no move; mR: a rook's moves; nNN: a nightrider; nZ: lame;
    # nDD: none; nA lame, nF none.
    oracle("vk-lame-atoms").walk(2)
    assert moves_from("vk-lame-atoms", "2k3/6/6/2a3/6/2K3 b - - 0 1", "c3") == \
        {f"c3{cell}" for cell in ("a3", "b3", "d3", "e3", "f3", "c2", "c4", "c5")}


def test_a_soldier_promotes_both_ways_and_never_stays_a_soldier() -> None:
    found = moves_from("vk-both-promotions", "2k3/S5/6/6/6/2K3 w - - 0 1", "a5")
    assert found == {"a5a6r", "a5a6+", "a5b5"}


# -- castling beside a duck and pseudo-royal pieces (atomicduck) ---------------------------------


@pytest.mark.parametrize(("fen", "ducks"), [
    # The rook on f8 attacks f1: the duck on the f-file shields the passage.
    ("4kr2/8/8/8/8/8/8/4K2R w K - 0 1", {"f2", "f3", "f4", "f5", "f6", "f7"}),
    # Out of check: the duck put between the rook on e8 and the king.
    ("4r1k1/8/8/8/8/8/8/4K2R w K - 0 1", {"e2", "e3", "e4", "e5", "e6", "e7"}),
    ("6k1/8/8/8/8/8/8/r3K2R w K - 0 1", {"b1", "c1", "d1"}),
])
def test_a_castling_king_passes_cells_the_new_duck_shields(fen: str, ducks: set[str]) -> None:
    found = moves_from("vk-duck-atomic", fen, "e1g1")
    assert found == {f"e1g1,g1{cell}" for cell in ducks}


# -- a move or a wall on the edge (atlantis) -----------------------------------------------------


def test_a_turn_is_a_move_or_a_wall_on_the_edge_or_beside_a_wall() -> None:
    fen = "3k2/6/6/2*3/6/3K2 w - - 0 1"
    game = oracle("vk-sinking").variant.new_game(fen)
    oracle("vk-sinking").compare(game, fen)
    walls = {str(m).split(",")[1][2:] for m in game.legal_moves() if m.wall}
    # The edge's empty cells, and the four beside the wall on c3.
    edge = {f"{f}{r}" for f in "abcdef" for r in "123456" if f in "af" or r in "16"}
    assert walls == (edge - {"d6", "d1"}) | {"b3", "d3", "c2", "c4"}
    # A wall alone is a pass of the piece on the lowest cell: the king here.
    assert {str(m)[:4] for m in game.legal_moves() if m.wall} == {"d1d1"}
    # Pyffish's spelling of a move without a wall is read as the move.
    assert str(game.push("d1d2,d2a1")) == "d1d2"


def test_a_wall_alone_does_not_answer_a_check() -> None:
    fen = "3k2/6/6/6/6/r2K2 w - - 0 1"
    game = oracle("vk-sinking").variant.new_game(fen)
    oracle("vk-sinking").compare(game, fen)
    assert game.is_check() and not any(m.wall for m in game.legal_moves())


def test_or_move_needs_a_wall_apart_from_the_move() -> None:
    text = "[wallmover:chess]\nwallingRule = duck\nwallOrMove = true\n"
    assert "wallOrMove with wallingRule = duck: not supported" in refusal(text, "wallmover")


# -- a drop against two checks along one line (cannonshogi) ---------------------------------------


def test_a_drop_blocks_a_rook_and_the_cannon_hopping_over_it() -> None:
    # The rook on b1 checks the king on e1, and so does the cannon on a1
    # over it: a drop on c1 or d1 blocks both.
    fen = "2k2/5/5/5/cr2K[R] w - - 0 1"
    found = oracle("vk-cannon-behind-a-rook").compare(
        oracle("vk-cannon-behind-a-rook").variant.new_game(fen), fen)
    assert {"R@c1", "R@d1"} <= found
