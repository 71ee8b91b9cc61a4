"""Strato Chess (shared/rules/strato.md): scenario tests from position strings.

Most tests build a position from {cell: letter}, then compare the exact set of
legal moves from one cell with the set the rules file gives.  At the end, an
independent brute-force reading of the rules file is compared with the engine
on positions from seeded random games and on random positions.
"""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Iterable

import pytest
from click.testing import CliRunner
from positions import placement

import variantkit
from variantkit import InvalidFenError, Outcome
from variantkit.cli import cli
from variantkit.game import Game

START = ("8/8/8/8/8/8/PPPPPPPP/RNBQKBNR|8/8/8/8/8/8/8/8|rnbqkbnr/pppppppp/8/8/8/8/8/8"
         " w KQkq - 0 1 -")
PLANES, FILES = "ABC", "abcdefgh"
PROMOS = "qrbn"


V = variantkit.load("strato")


def fen(pieces: dict[str, str], side: str = "w", castling: str = "-", ep: str = "-",
        half: int = 0, full: int = 1, moved: Iterable[str] | None = ()) -> str:
    """A position string from {cell: letter}.  `moved` is the seventh field
    (pieces on their setup cell that have moved); None leaves it out."""
    fields = [placement(V, pieces), side, castling, ep, str(half), str(full)]
    if moved is not None:
        fields.append(",".join(moved) or "-")
    return " ".join(fields)


def game(pieces: dict[str, str], **kw: object) -> Game:
    return V.new_game(fen=fen(pieces, **kw))  # type: ignore[arg-type]


def moves(g: Game) -> set[str]:
    return {str(m) for m in g.legal_moves()}


def frm(g: Game, cell: str) -> set[str]:
    return {str(m) for m in g.legal_moves() if m.from_cell == cell}


def to(cell: str, *targets: str) -> set[str]:
    return {cell + t for t in targets}


def promos(frm_cell: str, *targets: str) -> set[str]:
    return {frm_cell + t + p for t in targets for p in PROMOS}


KINGS = {"Ah1": "K", "Ch8": "k"}  # kings out of the way, both "moved"


# -- perft and the start --------------------------------------------------------------
def test_start_position_string() -> None:
    g = V.new_game()
    assert g.fen() == START
    assert g.turn == "white"
    assert V.new_game(fen=START).fen() == START


@pytest.mark.parametrize(("depth", "nodes"), [(1, 60), (2, 3596), (3, 236125)])
def test_perft_start(depth: int, nodes: int) -> None:
    assert variantkit.perft(V.new_game(), depth) == nodes


def test_start_knight_first_move_must_change_plane() -> None:
    g = V.new_game()
    assert frm(g, "Ab1") == to("Ab1", "Ba3", "Bc3", "Bd2", "Ca3", "Cc3", "Cd2")


def test_start_moves_by_piece() -> None:
    g = V.new_game()
    assert frm(g, "Ae2") == to("Ae2", "Be3", "Be4", "Ce4")
    # Nothing stays on plane A at the start: no chess opening move.
    assert not {m for m in moves(g) if m[3] == "A"}
    assert frm(g, "Cb8") == set()  # not Black's turn


def test_start_king_moves_exact() -> None:
    g = V.new_game()
    assert frm(g, "Ae1") == to("Ae1", "Bd1", "Bd2", "Be1", "Be2", "Bf1", "Bf2")
    assert frm(g, "Ah1") == to("Ah1", "Bh1", "Ch1")
    assert frm(g, "Ac1") == to("Ac1", "Bb2", "Ca3", "Bd2", "Ce3")
    assert frm(g, "Ad1") == to("Ad1", "Bd1", "Cd1", "Bc2", "Cb3", "Be2", "Cf3")


# -- vertical moves of each piece ------------------------------------------------------
ROOK_B_PLANE = {f"B{f}4" for f in FILES if f != "d"} | {f"Bd{r}" for r in range(1, 9) if r != 4}


def test_rook_moved_on_middle_plane() -> None:
    g = game({**KINGS, "Bd4": "R"})
    assert frm(g, "Bd4") == to("Bd4", *ROOK_B_PLANE, "Ad4", "Cd4")


def test_rook_column_and_blocking() -> None:
    assert frm(game({**KINGS, "Ad4": "R"}), "Ad4") >= to("Ad4", "Bd4", "Cd4")
    # A to C passes the B cell: a piece there (either side) blocks both.
    for blocker in ("N", "n"):
        vertical = {m for m in frm(game({**KINGS, "Ad4": "R", "Bd4": blocker}), "Ad4")
                    if m[3] != "A"}
        assert vertical == set()
    # An enemy piece on C is not captured; B is still reachable.
    vertical = {m for m in frm(game({**KINGS, "Ad4": "R", "Cd4": "n"}), "Ad4") if m[3] != "A"}
    assert vertical == {"Ad4Bd4"}
    # Down from C as well.
    vertical = {m for m in frm(game({**KINGS, "Cd4": "R"}), "Cd4") if m[3] != "C"}
    assert vertical == {"Cd4Bd4", "Cd4Ad4"}


def test_rook_unmoved_only_vertical() -> None:
    g = game({"Ac3": "K", "Ch8": "k", "Aa1": "R"})
    assert frm(g, "Aa1") == to("Aa1", "Ba1", "Ca1")
    g = game({"Ac3": "K", "Ch8": "k", "Aa1": "R", "Ba1": "p"})
    assert frm(g, "Aa1") == set()
    # The same rook listed as moved has its plane moves too.
    g = game({"Ac3": "K", "Ch8": "k", "Aa1": "R"}, moved=["Aa1"])
    plane = {f"Aa{r}" for r in range(2, 9)} | {f"A{f}1" for f in "bcdefgh"}
    assert frm(g, "Aa1") == to("Aa1", *plane, "Ba1", "Ca1")


def test_bishop_line_through_space() -> None:
    g = game({**KINGS, "Ae1": "B"})
    plane = {"Ad2", "Ac3", "Ab4", "Aa5", "Af2", "Ag3", "Ah4"}
    assert frm(g, "Ae1") == to("Ae1", *plane, "Bd2", "Cc3", "Bf2", "Cg3")


@pytest.mark.parametrize("blocker", ["P", "p"])
def test_bishop_blocked_on_the_line_no_turning(blocker: str) -> None:
    g = game({**KINGS, "Ae1": "B", "Bf2": blocker})
    vertical = {m for m in frm(g, "Ae1") if m[3] != "A"}
    assert vertical == {"Ae1Bd2", "Ae1Cc3"}
    # An enemy piece on the far end is not captured.
    g = game({**KINGS, "Ae1": "B", "Cg3": "p"})
    vertical = {m for m in frm(g, "Ae1") if m[3] != "A"}
    assert vertical == {"Ae1Bd2", "Ae1Cc3", "Ae1Bf2"}


def test_bishop_middle_plane_goes_up_and_down() -> None:
    g = game({**KINGS, "Bd4": "B"})
    vertical = {m for m in frm(g, "Bd4") if m[3] != "B"}
    assert vertical == to("Bd4", "Ac3", "Ae3", "Ac5", "Ae5", "Cc3", "Ce3", "Cc5", "Ce5")


def test_bishop_unmoved_only_vertical() -> None:
    g = game({"Ah4": "K", "Ch8": "k", "Af1": "B"})
    assert frm(g, "Af1") == to("Af1", "Be2", "Cd3", "Bg2", "Ch3")


def test_queen_rook_and_bishop_vertical() -> None:
    g = game({**KINGS, "Ad4": "Q", "Bc5": "n"})
    vertical = {m for m in frm(g, "Ad4") if m[3] != "A"}
    assert vertical == to("Ad4", "Bd4", "Cd4", "Bc3", "Cb2", "Be3", "Cf2", "Be5", "Cf6")
    # Unmoved queen on its setup cell: vertical moves only.
    g = game({"Ah4": "K", "Ch8": "k", "Ad1": "Q", "Cd1": "p"})
    assert frm(g, "Ad1") == to("Ad1", "Bd1", "Bc2", "Cb3", "Be2", "Cf3")


def test_king_moved_one_plane_same_file_and_rank() -> None:
    g = game({"Bd4": "K", "Ch8": "k"})
    plane = {"Bc3", "Bc4", "Bc5", "Bd3", "Bd5", "Be3", "Be4", "Be5"}
    assert frm(g, "Bd4") == to("Bd4", *plane, "Ad4", "Cd4")
    g = game({"Bd4": "K", "Ch8": "k", "Cd4": "n"})  # no capture
    assert frm(g, "Bd4") == to("Bd4", *plane, "Ad4")


def test_king_first_move_diagonal_vertical() -> None:
    g = game({"Ae1": "K", "Ch8": "k"}, moved=[])
    assert g.fen().endswith(" w - - 0 1 -")
    assert frm(g, "Ae1") == to("Ae1", "Bd1", "Bd2", "Be1", "Be2", "Bf1", "Bf2")
    # Only the destination must be empty: an own piece on Be2 removes Be2 only.
    g = game({"Ae1": "K", "Ch8": "k", "Be2": "N"}, moved=[])
    assert frm(g, "Ae1") == to("Ae1", "Bd1", "Bd2", "Be1", "Bf1", "Bf2")
    # An enemy pawn on Be2 is not captured, and covers Bd1 and Bf1.
    g = game({"Ae1": "K", "Ch8": "k", "Be2": "p"}, moved=[])
    assert frm(g, "Ae1") == to("Ae1", "Bd2", "Be1", "Bf2")
    # Cells attacked on the landing plane are not legal.
    g = game({"Ae1": "K", "Ch8": "k", "Bh2": "r"}, moved=[])
    assert frm(g, "Ae1") == to("Ae1", "Bd1", "Be1", "Bf1")


def test_king_after_moving_loses_diagonal_vertical() -> None:
    g = game({"Ae1": "K", "Ch8": "k"}, moved=["Ae1"])
    assert frm(g, "Ae1") == to("Ae1", "Ad1", "Ad2", "Ae2", "Af1", "Af2", "Be1")
    # The same after playing a move and coming back.
    g = game({"Ae1": "K", "Ch8": "k"}, moved=[])
    for m in ("Ae1Be1", "Ch8Cg8", "Be1Ae1", "Cg8Ch8"):
        g.push(m)
    assert frm(g, "Ae1") == to("Ae1", "Ad1", "Ad2", "Ae2", "Af1", "Af2", "Be1")
    assert g.fen().split()[6] == "Ae1"


def test_knight_moved_lands_one_or_two_planes_away() -> None:
    g = game({**KINGS, "Bd4": "N"})
    jumps = ["b3", "b5", "c2", "c6", "e2", "e6", "f3", "f5"]
    assert frm(g, "Bd4") == {f"Bd4{p}{j}" for p in "ABC" for j in jumps}
    g = game({**KINGS, "Ad4": "N"})
    assert frm(g, "Ad4") == {f"Ad4{p}{j}" for p in "ABC" for j in jumps}


def test_knight_leaps_only_destination_must_be_empty() -> None:
    # Unmoved knight on Ab1, every neighbouring cell on B and C filled.
    crowd = {f"{p}{f}{r}": "P" for p in "BC" for f in "abcd" for r in "12"}
    crowd.update({"Ba3": "n", "Cc3": "N"})  # enemy (not captured) and own
    g = game({"Ah4": "K", "Ch8": "k", "Ab1": "N", **crowd})
    assert frm(g, "Ab1") == to("Ab1", "Bc3", "Ca3")


def test_pawn_moved_one_step_forward_landing_one_plane() -> None:
    g = game({**KINGS, "Bd4": "P"})
    assert frm(g, "Bd4") == to("Bd4", "Bd5", "Ad5", "Cd5")
    # Vertical steps never capture; plane captures as in chess.
    g = game({**KINGS, "Bd4": "P", "Ad5": "n", "Bc5": "n", "Ae5": "n"})
    assert frm(g, "Bd4") == to("Bd4", "Bd5", "Bc5", "Cd5")
    # A moved pawn on plane A has no plane below.
    g = game({**KINGS, "Ad4": "P"})
    assert frm(g, "Ad4") == to("Ad4", "Ad5", "Bd5")


def test_pawn_first_move_two_steps() -> None:
    base = {"Ah4": "K", "Ch8": "k", "Ae2": "P"}
    assert frm(game(base), "Ae2") == to("Ae2", "Be3", "Be4", "Ce4")
    # Ae2-Be4 needs Be3 empty; Ae2-Ce4 needs Ce3 and ignores plane B.
    assert frm(game({**base, "Be3": "n"}), "Ae2") == to("Ae2", "Ce4")
    assert frm(game({**base, "Be3": "n", "Be4": "n"}), "Ae2") == to("Ae2", "Ce4")
    assert frm(game({**base, "Be4": "n"}), "Ae2") == to("Ae2", "Be3", "Ce4")
    assert frm(game({**base, "Ce3": "N"}), "Ae2") == to("Ae2", "Be3", "Be4")
    assert frm(game({**base, "Ce4": "n"}), "Ae2") == to("Ae2", "Be3", "Be4")
    # Cells on its own plane do not matter (the pawn leaves plane A).
    assert frm(game({**base, "Ae3": "n", "Ae4": "n"}), "Ae2") == to("Ae2", "Be3", "Be4", "Ce4")
    # A pawn on its setup cell that has moved: the one-step only.
    assert frm(game(base, moved=["Ae2"]), "Ae2") == to("Ae2", "Ae3", "Be3")


def test_black_pawn_first_move() -> None:
    g = game({"Ah4": "K", "Ch1": "k", "Ce7": "p"}, side="b")
    assert frm(g, "Ce7") == to("Ce7", "Be6", "Be5", "Ae5")
    g = game({"Ah4": "K", "Ch1": "k", "Ce7": "p", "Ae6": "N"}, side="b")
    assert frm(g, "Ce7") == to("Ce7", "Be6", "Be5")


def test_promotion_on_any_plane() -> None:
    g = game({**KINGS, "Bc7": "P"})
    assert frm(g, "Bc7") == promos("Bc7", "Bc8", "Ac8", "Cc8")
    g = game({**KINGS, "Bc7": "P", "Cc8": "r", "Bb8": "r"})
    assert frm(g, "Bc7") == promos("Bc7", "Bc8", "Bb8", "Ac8")
    g.push("Bc7Ac8n")
    assert g.piece_at("Ac8") == "N" and g.piece_at("Bc7") is None
    # Black promotes on rank 1 of any plane, also landing from another plane.
    g = game({"Ah8": "K", "Ch1": "k", "Ab2": "p"}, side="b")
    assert frm(g, "Ab2") == promos("Ab2", "Ab1", "Bb1")


def test_promoted_piece_counts_as_moved() -> None:
    g = game({"Ah4": "K", "Ce1": "k", "Cb7": "P"})
    g.push("Cb7Cb8q")
    g.push("Ce1Cf1")
    # The new queen may move on its plane (its first move as a queen).
    assert "Cb8Cb2" in frm(g, "Cb8")
    assert "Cb8Ch8" in frm(g, "Cb8")
    g2 = V.new_game(fen=g.fen())
    assert frm(g2, "Cb8") == frm(g, "Cb8")


# -- check and mate -------------------------------------------------------------------
def test_check_only_within_a_plane() -> None:
    assert not game({"Ae4": "K", "Ch1": "k", "Be8": "r"}).is_check()
    assert not game({"Ae4": "K", "Ch1": "k", "Ce8": "r"}).is_check()
    assert not game({"Ae4": "K", "Ch1": "k", "Bd5": "p", "Cf3": "n"}).is_check()
    assert game({"Ae4": "K", "Ch1": "k", "Ae8": "r"}).is_check()
    # A rook on another plane does not stop the king moving along its file.
    g = game({"Ae4": "K", "Ch1": "k", "Be8": "r"})
    assert "Ae4Ae5" in frm(g, "Ae4")
    assert "Ae4Be4" not in frm(g, "Ae4")  # but Be4 is attacked on plane B
    # The side not to move may not be in check, on its own plane only.
    with pytest.raises(InvalidFenError):
        V.new_game(fen=fen({"Ae4": "K", "Ch1": "k", "Ae8": "r"}, side="b"))
    V.new_game(fen=fen({"Ae4": "K", "Ch1": "k", "Be8": "r"}, side="b"))


def test_pinned_piece_may_not_leave_the_plane() -> None:
    g = game({"Ae1": "K", "Ch8": "k", "Ae4": "R", "Ae8": "r"}, moved=["Ae1"])
    assert frm(g, "Ae4") == to("Ae4", "Ae2", "Ae3", "Ae5", "Ae6", "Ae7", "Ae8")
    g = game({"Ae1": "K", "Ch8": "k", "Ac3": "N", "Aa5": "b"}, moved=["Ae1"])
    assert frm(g, "Ac3") == set()
    # A piece on another plane in the same line pins nothing.
    g = game({"Ae1": "K", "Ch8": "k", "Ae4": "R", "Be8": "r"}, moved=["Ae1"])
    assert {"Ae4Be4", "Ae4Ce4", "Ae4Aa4"} <= frm(g, "Ae4")


MATE_A = {"Aa1": "K", "Ch8": "k", "Ah1": "r", "Ah2": "r"}


def test_mate_needs_a_second_plane() -> None:
    # On plane A alone the king escapes upward.
    g = game(MATE_A)
    assert g.is_check()
    assert moves(g) == {"Aa1Ba1"}
    assert g.outcome() is None
    # A rook on plane B covers Ba1: checkmate.
    g = game({**MATE_A, "Bh1": "r"})
    assert g.is_check() and moves(g) == set()
    assert g.outcome() == Outcome("black", "checkmate")
    # A piece standing on Ba1 also stops the escape (vertical moves never capture).
    g = game({**MATE_A, "Ba1": "n"})
    assert g.outcome() == Outcome("black", "checkmate")


def test_mate_delivered_by_a_vertical_move() -> None:
    # The rook on Bg1 drops to Ag1 (a vertical move gives check on its new
    # plane); the rook on Bh1 covers Ba1, the rook on Ah2 rank 2.
    g = game({"Aa1": "K", "Ch8": "k", "Bg1": "r", "Bh1": "r", "Ah2": "r"}, side="b")
    assert "Bg1Ag1" in frm(g, "Bg1")
    g.push("Bg1Ag1")
    assert g.is_check()
    assert g.outcome() == Outcome("black", "checkmate")
    g.pop()
    g.push("Bg1Cg1")  # no check from plane C
    assert not g.is_check() and g.outcome() is None


def test_stalemate_is_a_draw() -> None:
    g = game({"Aa1": "K", "Ch8": "k", "Ab8": "r", "Ah2": "r", "Bh1": "r"})
    assert not g.is_check() and moves(g) == set()
    assert g.outcome() == Outcome(None, "stalemate")
    # Without the rook on plane B the king goes up: not stalemate.
    g = game({"Aa1": "K", "Ch8": "k", "Ab8": "r", "Ah2": "r"})
    assert moves(g) == {"Aa1Ba1"} and g.outcome() is None


def test_no_insufficient_material_rule() -> None:
    assert game({"Aa1": "K", "Ch8": "k"}).outcome() is None
    assert game({"Aa1": "K", "Ch8": "k", "Bc3": "B"}).outcome() is None
    assert game({"Aa1": "K", "Ch8": "k", "Bc3": "N", "Bd3": "n"}).outcome() is None


# -- the first-move rule --------------------------------------------------------------
def test_unmoved_pieces_may_block_or_capture_in_check() -> None:
    # Black knight Ae3 checks the (moved) king on Ac2; the unmoved pawns on d2
    # and f2 may capture it on their plane; nothing else resolves the check.
    pieces = {"Ac2": "K", "Ch8": "k", "Ae3": "n", "Ad2": "P", "Af2": "P", "Ag1": "N"}
    g = game(pieces)
    assert g.is_check()
    assert frm(g, "Ad2") == {"Ad2Ae3"}
    assert frm(g, "Af2") == {"Af2Ae3"}
    assert frm(g, "Ag1") == set()
    # Not in check (a bishop on Ae3 does not attack c2): no plane capture.
    g = game({**pieces, "Ae3": "b"})
    assert not g.is_check()
    assert frm(g, "Ad2") == to("Ad2", "Bd3", "Bd4", "Cd4")
    assert frm(g, "Af2") == to("Af2", "Bf3", "Bf4", "Cf4")


def test_unmoved_queen_blocks_a_check_on_its_plane() -> None:
    g = game({"Ab5": "K", "Ch8": "k", "Ae8": "b", "Ad1": "Q"})
    assert g.is_check()
    assert frm(g, "Ad1") == {"Ad1Ad7"}  # vertical moves do not resolve the check


def test_unmoved_king_in_check_only_captures_on_its_plane() -> None:
    vertical = to("Ae1", "Bd1", "Bd2", "Be1", "Be2", "Bf1", "Bf2")
    g = game({"Ae1": "K", "Ch8": "k", "Ae5": "r"}, moved=[])
    assert g.is_check()
    assert frm(g, "Ae1") == vertical  # no Ad1, Ad2, Af1, Af2
    g = game({"Ae1": "K", "Ch8": "k", "Ae5": "r"}, moved=["Ae1"])
    assert frm(g, "Ae1") == to("Ae1", "Ad1", "Ad2", "Af1", "Af2", "Be1")
    # It may capture the checking piece on its plane.
    g = game({"Ae1": "K", "Ch8": "k", "Ae2": "q"}, moved=[])
    assert frm(g, "Ae1") == vertical | {"Ae1Ae2"}
    # ... unless that piece is protected.
    g = game({"Ae1": "K", "Ch8": "k", "Ae2": "q", "Ae4": "r"}, moved=[])
    assert frm(g, "Ae1") == vertical


# -- castling -------------------------------------------------------------------------
CASTLE_W = {"Ae1": "K", "Aa1": "R", "Ah1": "R", "Ch8": "k"}
KING_VERTICAL = to("Ae1", "Bd1", "Bd2", "Be1", "Be2", "Bf1", "Bf2")
ALL_CASTLES = to("Ae1", "Ag1", "Ac1", "Bg1", "Bc1")


def castles(pieces: dict[str, str], **kw: object) -> set[str]:
    g = game(pieces, castling="KQ", **kw)
    return frm(g, "Ae1") - KING_VERTICAL


def test_castling_all_four_white() -> None:
    g = game(CASTLE_W, castling="KQ")
    assert frm(g, "Ae1") == KING_VERTICAL | ALL_CASTLES
    # The rooks have not moved either: vertical moves only.
    assert frm(g, "Ah1") == to("Ah1", "Bh1", "Ch1")


@pytest.mark.parametrize(("move", "king", "rook", "empty"), [
    ("Ae1Ag1", "Ag1", "Af1", ["Ae1", "Ah1"]),
    ("Ae1Ac1", "Ac1", "Ad1", ["Ae1", "Aa1"]),
    ("Ae1Bg1", "Bg1", "Bf1", ["Ae1", "Ah1"]),
    ("Ae1Bc1", "Bc1", "Bd1", ["Ae1", "Aa1"]),
])
def test_castling_places_king_and_rook(move: str, king: str, rook: str, empty: list[str]) -> None:
    g = game(CASTLE_W, castling="KQ")
    g.push(move)
    assert g.piece_at(king) == "K" and g.piece_at(rook) == "R"
    assert all(g.piece_at(c) is None for c in empty)
    assert g.fen().split()[2] == "-"
    assert g.fen().split()[6] == "-"
    g.pop()
    assert g.fen() == fen(CASTLE_W, castling="KQ")


@pytest.mark.parametrize(("extra", "expected"), [
    # Pieces between king and rook on the home plane block both kinds.
    ({"Af1": "B"}, to("Ae1", "Ac1", "Bc1")),
    ({"Ag1": "n"}, to("Ae1", "Ac1", "Bc1")),
    ({"Ab1": "N"}, to("Ae1", "Ag1", "Bg1")),
    ({"Ad1": "Q"}, to("Ae1", "Ag1", "Bg1")),
    # Cells of the target plane: above king, rook and between.
    ({"Be1": "P"}, to("Ae1", "Ag1", "Ac1")),
    ({"Bh1": "n"}, to("Ae1", "Ag1", "Ac1", "Bc1")),
    ({"Bg1": "N"}, to("Ae1", "Ag1", "Ac1", "Bc1")),
    ({"Bf1": "N"}, to("Ae1", "Ag1", "Ac1", "Bc1")),
    ({"Ba1": "N"}, to("Ae1", "Ag1", "Ac1", "Bg1")),
    ({"Bb1": "n"}, to("Ae1", "Ag1", "Ac1", "Bg1")),
    # Attacked cells on the target plane: start-above, crossed, landing.
    ({"Bf8": "r"}, to("Ae1", "Ag1", "Ac1", "Bc1")),
    ({"Bg8": "r"}, to("Ae1", "Ag1", "Ac1", "Bc1")),
    ({"Bd8": "r"}, to("Ae1", "Ag1", "Ac1", "Bg1")),
    ({"Bc8": "r"}, to("Ae1", "Ag1", "Ac1", "Bg1")),
    ({"Be8": "r"}, to("Ae1", "Ag1", "Ac1")),
    # The rook's cells and b1 may be attacked.
    ({"Bh8": "r", "Bb8": "r", "Ba8": "r"}, ALL_CASTLES),
    ({"Ab8": "r", "Ah8": "r"}, ALL_CASTLES),
    # Attacks on the home plane stop the on-plane castling only.
    ({"Af8": "r"}, to("Ae1", "Ac1", "Bg1", "Bc1")),
    ({"Ag8": "r"}, to("Ae1", "Ac1", "Bg1", "Bc1")),
    ({"Ad8": "r"}, to("Ae1", "Ag1", "Bg1", "Bc1")),
    ({"Ac8": "r"}, to("Ae1", "Ag1", "Bg1", "Bc1")),
    # Plane C plays no part.
    ({"Ce1": "n", "Cf1": "n", "Cd8": "r", "Cf8": "r"}, ALL_CASTLES),
])
def test_castling_blocked(extra: dict[str, str], expected: set[str]) -> None:
    assert castles({**CASTLE_W, **extra}) == expected


def test_no_castling_in_check() -> None:
    g = game({**CASTLE_W, "Ae8": "r"}, castling="KQ")
    assert g.is_check()
    assert not frm(g, "Ae1") & ALL_CASTLES
    # Check on plane B only attacks Be1: vertical castlings go, on-plane stay.
    assert castles({**CASTLE_W, "Be5": "r"}) == to("Ae1", "Ag1", "Ac1")


def test_castling_rights_follow_unmoved_pieces() -> None:
    assert castles(CASTLE_W) == ALL_CASTLES
    g = game(CASTLE_W, castling="Q", moved=["Ah1"])
    assert frm(g, "Ae1") - KING_VERTICAL == to("Ae1", "Ac1", "Bc1")
    g = game(CASTLE_W, castling="-", moved=["Ae1"])
    assert not frm(g, "Ae1") & ALL_CASTLES
    # The castling field must agree with the seventh field.
    with pytest.raises(InvalidFenError):
        V.new_game(fen=fen(CASTLE_W, castling="KQ", moved=["Ah1"]))
    with pytest.raises(InvalidFenError):
        V.new_game(fen=fen(CASTLE_W, castling="K"))
    # Six fields: the castling field says which of them have not moved.
    six = fen(CASTLE_W, castling="Q", moved=None)
    g = V.new_game(fen=six)
    assert g.fen() == fen(CASTLE_W, castling="Q", moved=["Ah1"])
    assert frm(g, "Ah1") >= {"Ah1Ag1", "Ah1Ah8"}


def test_castling_moves_the_rook_out_of_its_unmoved_state() -> None:
    g = game(CASTLE_W, castling="KQ")
    g.push("Ae1Bg1")
    g.push("Ch8Cg8")
    assert "Bf1Bf8" in frm(g, "Bf1")
    # The king has moved: straight up or down only.
    assert {m for m in frm(g, "Bg1") if m[3] != "B"} == {"Bg1Ag1", "Bg1Cg1"}


def test_black_castling() -> None:
    pieces = {"Ah1": "K", "Ce8": "k", "Ca8": "r", "Ch8": "r"}
    g = game(pieces, side="b", castling="kq")
    assert frm(g, "Ce8") - to("Ce8", "Bd8", "Bd7", "Be8", "Be7", "Bf8", "Bf7") == to(
        "Ce8", "Cg8", "Cc8", "Bg8", "Bc8")
    g.push("Ce8Bc8")
    assert g.piece_at("Bc8") == "k" and g.piece_at("Bd8") == "r"
    assert g.fen().split()[2] == "-"
    g = game({**pieces, "Bf1": "R"}, side="b", castling="kq")  # attacks Bf8
    assert frm(g, "Ce8") & to("Ce8", "Cg8", "Cc8", "Bg8", "Bc8") == to("Ce8", "Cg8", "Cc8", "Bc8")


def test_no_castling_from_the_start() -> None:
    g = V.new_game()
    assert not moves(g) & (ALL_CASTLES | to("Ce8", "Cg8", "Cc8", "Bg8", "Bc8"))
    # Clear plane A between them: both castlings on the plane and up.
    g = V.new_game(fen=START.replace("RNBQKBNR", "R3K2R"))
    assert frm(g, "Ae1") == KING_VERTICAL | ALL_CASTLES


# -- en passant -----------------------------------------------------------------------
@pytest.mark.parametrize("capturer", ["Bd4", "Bf4"])
def test_en_passant_after_vertical_two_step(capturer: str) -> None:
    g = game({"Ah4": "K", "Ch8": "k", "Ae2": "P", capturer: "p", "Ag7": "p"})
    g.push("Ae2Be4")
    assert g.fen().split()[3] == "Be3"
    assert frm(g, capturer) == to(capturer, f"{capturer[:2]}3", "Be3", f"A{capturer[1]}3",
                                  f"C{capturer[1]}3")
    g.push(f"{capturer}Be3")
    assert g.piece_at("Be4") is None and g.piece_at("Be3") == "p"
    assert g.fen().split()[4] == "0"
    g.pop()
    # Only on the next move.
    g.push("Ag7Ag6")
    g.push("Ah4Ah3")
    assert f"{capturer}Be3" not in frm(g, capturer)
    assert g.fen().split()[3] == "-"


def test_en_passant_target_is_on_the_destination_plane() -> None:
    pieces = {"Ah4": "K", "Ch8": "k", "Ae2": "P", "Bd4": "p", "Cf4": "p"}
    g = game(pieces)
    g.push("Ae2Ce4")  # passes Ce3: the pawn on Cf4 may take, not the one on Bd4
    assert g.fen().split()[3] == "Ce3"
    assert "Cf4Ce3" in frm(g, "Cf4")
    assert "Bd4Be3" not in frm(g, "Bd4")
    g.push("Cf4Ce3")
    assert g.piece_at("Ce4") is None
    g = game(pieces)
    g.push("Ae2Be4")
    assert "Cf4Ce3" not in frm(g, "Cf4") and "Bd4Be3" in frm(g, "Bd4")
    # A one-plane-up single step sets no target.
    g = game({**pieces, "Bd4": "p"})
    g.push("Ae2Be3")
    assert g.fen().split()[3] == "-"


def test_en_passant_after_on_plane_two_step() -> None:
    # The only time an unmoved pawn moves on its plane: blocking a check.
    # The bishop on Ag6 checks Ac2 along d3-e4-f5; Ae2-Ae4 blocks.
    g = game({"Ac2": "K", "Ch8": "k", "Ag6": "b", "Ae2": "P", "Af4": "p", "Ad4": "p"})
    assert g.is_check()
    assert frm(g, "Ae2") == {"Ae2Ae4"}
    g.push("Ae2Ae4")
    assert g.fen().split()[3] == "Ae3"
    assert "Af4Ae3" in frm(g, "Af4") and "Ad4Ae3" in frm(g, "Ad4")
    g.push("Af4Ae3")
    assert g.piece_at("Ae4") is None and g.is_check()


def test_en_passant_read_from_position_string() -> None:
    pieces = {"Ah4": "K", "Ch8": "k", "Be4": "P", "Bd4": "p"}
    g = V.new_game(fen=fen(pieces, side="b", ep="Be3"))
    assert "Bd4Be3" in frm(g, "Bd4")
    assert V.new_game(fen=g.fen()).fen() == g.fen()
    g = V.new_game(fen=fen(pieces, side="b"))
    assert "Bd4Be3" not in frm(g, "Bd4")


# -- draws ----------------------------------------------------------------------------
def test_threefold_repetition_counts_unmoved_pieces() -> None:
    g = V.new_game()
    shuffle = ["Ab1Ba3", "Cb8Ba6", "Ba3Ab1", "Ba6Cb8"]
    for m in shuffle:
        g.push(m)
    # Same placement as the start, but both knights have moved: a new position.
    assert g.fen().split()[0] == START.split()[0]
    assert g.fen().split()[6] in ("Ab1,Cb8", "Cb8,Ab1")
    assert g.outcome() is None
    for m in shuffle:
        g.push(m)
    # The start placement has now stood three times, but twice with other
    # pieces unmoved: no repetition yet.
    assert g.outcome() is None
    g.push(shuffle[0])
    assert g.outcome() is None
    g.push(shuffle[1])  # knights on Ba3 and Ba6, White to move: third time
    assert g.outcome() == Outcome(None, "repetition")


def test_repetition_placement_and_side() -> None:
    g = game({"Aa1": "K", "Ch8": "k", "Bd4": "R"})
    for m in ("Bd4Bd5", "Ch8Cg8", "Bd5Bd4", "Cg8Ch8", "Bd4Bd5", "Ch8Cg8", "Bd5Bd4"):
        g.push(m)
        assert g.outcome() is None
    g.push("Cg8Ch8")
    assert g.outcome() == Outcome(None, "repetition")
    # Reaching the same placement with the other side to move does not count.
    g = game({"Aa1": "K", "Ch8": "k", "Bd4": "R"})
    for m in ("Bd4Bd6", "Ch8Cg8", "Bd6Bd5", "Cg8Ch8", "Bd5Bd4", "Ch8Cg8", "Bd4Bd5",
              "Cg8Ch8", "Bd5Bd4"):
        g.push(m)
        assert g.outcome() is None, m


SHUFFLE = ["Ch8Cg8", "Ah4Ah3", "Cg8Ch8", "Ah3Ah4"]


def test_repetition_counts_en_passant_only_when_legal() -> None:
    # After Ae2-Be4 the pawn on Bd4 may take en passant: that position is
    # not the same as the one with the same placement after each shuffle.
    g = game({"Ah4": "K", "Ch8": "k", "Ae2": "P", "Bd4": "p"})
    g.push("Ae2Be4")
    assert g.fen().split()[3] == "Be3"
    for m in SHUFFLE * 2:
        g.push(m)
        assert g.outcome() is None, m
    g.push(SHUFFLE[0])  # the first position seen three times
    assert g.outcome() == Outcome(None, "repetition")
    # With no pawn to take en passant, the position after the two-step counts.
    g = game({"Ah4": "K", "Ch8": "k", "Ae2": "P", "Bb4": "p"})
    g.push("Ae2Be4")
    assert g.fen().split()[3] == "-"
    for m in SHUFFLE + SHUFFLE[:3]:
        g.push(m)
        assert g.outcome() is None, m
    g.push(SHUFFLE[3])
    assert g.outcome() == Outcome(None, "repetition")


def test_mate_on_the_hundredth_half_move_is_mate() -> None:
    g = game({"Aa1": "K", "Ch8": "k", "Bg1": "r", "Bh1": "r", "Ah2": "r"}, side="b", half=99)
    g.push("Bg1Ag1")
    assert g.fen().split()[4] == "100"
    assert g.outcome() == Outcome("black", "checkmate")


def test_fifty_move_rule() -> None:
    g = game({"Aa1": "K", "Ch8": "k", "Bd4": "R"}, half=98, full=80)
    g.push("Bd4Bd5")
    assert g.fen().split()[4] == "99" and g.outcome() is None
    g.push("Ch8Cg8")
    assert g.fen().split()[4] == "100"
    assert g.outcome() == Outcome(None, "move-rule")
    assert game({"Aa1": "K", "Ch8": "k"}, half=100).outcome() == Outcome(None, "move-rule")
    assert game({"Aa1": "K", "Ch8": "k"}, half=99).outcome() is None


def test_pawn_vertical_move_and_capture_reset_the_clock() -> None:
    g = game({"Aa1": "K", "Ch8": "k", "Bd4": "P", "Bd7": "n", "Cc6": "r"}, half=99)
    g.push("Bd4Cd5")
    assert g.fen().split()[4] == "0" and g.outcome() is None
    g = game({"Aa1": "K", "Ch8": "k", "Bd4": "R", "Bd7": "n"}, half=99)
    g.push("Bd4Bd7")
    assert g.fen().split()[4] == "0"
    g = game({"Aa1": "K", "Ch8": "k", "Bd4": "R"}, half=10)
    g.push("Bd4Cd4")  # a vertical rook move counts
    assert g.fen().split()[4] == "11"


# -- position strings -----------------------------------------------------------------
CASTLE_ROOKS = {"Ae1Ag1": ("Ah1", "Af1"), "Ae1Ac1": ("Aa1", "Ad1"),
                "Ae1Bg1": ("Ah1", "Bf1"), "Ae1Bc1": ("Aa1", "Bd1"),
                "Ce8Cg8": ("Ch8", "Cf8"), "Ce8Cc8": ("Ca8", "Cd8"),
                "Ce8Bg8": ("Ch8", "Bf8"), "Ce8Bc8": ("Ca8", "Bd8")}
def _placement_cells(placement: str) -> dict[str, str]:
    cells = {}
    for p, plane in zip(PLANES, placement.split("|"), strict=True):
        for r, row in zip(range(8, 0, -1), plane.split("/"), strict=True):
            f = 0
            for ch in row:
                if ch.isdigit():
                    f += int(ch)
                else:
                    cells[f"{p}{FILES[f]}{r}"] = ch
                    f += 1
    return cells


SETUP = _placement_cells(START.split()[0])


def random_games(n_games: int, plies: int, seed: int = 0) -> Iterable[tuple[Game, set[str]]]:
    """Positions of seeded random games, with the set of setup cells whose
    piece has moved (tracked here, independently of the engine)."""
    rng = random.Random(seed)
    for _ in range(n_games):
        g = V.new_game()
        moved: dict[str, bool] = dict.fromkeys(SETUP, False)  # cell -> piece has moved
        for _ in range(plies):
            legal = sorted(moves(g))
            if not legal or g.outcome() is not None:
                break
            yield g, {c for c, m in moved.items() if m and g.piece_at(c) == SETUP.get(c)}
            m = rng.choice(legal)
            a, b = m[:3], m[3:6]
            ep_victim = None
            if g.piece_at(a) in ("P", "p") and a[1] != b[1] and g.piece_at(b) is None:
                ep_victim = b[:2] + a[2]
            if m in CASTLE_ROOKS and g.piece_at(a) in ("K", "k") and m[:3] in ("Ae1", "Ce8") \
                    and not moved.get(a, True):
                r0, r1 = CASTLE_ROOKS[m]
                moved.pop(r0, None)
                moved[r1] = True
            moved.pop(a, None)
            moved.pop(ep_victim or "", None)
            moved[b] = True
            g.push(m)
        yield g, {c for c, m in moved.items() if m and g.piece_at(c) == SETUP.get(c)}


def test_position_strings_round_trip_with_moved_field() -> None:
    seen = 0
    with_moved = 0
    for g, moved in random_games(12, 60, seed=7):
        text = g.fen()
        field = text.split()[6]
        assert (set() if field == "-" else set(field.split(","))) == moved, text
        with_moved += field != "-"
        again = V.new_game(fen=text)
        assert again.fen() == text
        assert moves(again) == moves(g)
        assert again.is_check() == g.is_check()
        seen += 1
    assert seen >= 200
    assert with_moved >= 10


def test_moved_and_back_appears_in_moved_field() -> None:
    g = V.new_game()
    for m in ("Ag1Bh3", "Cg8Bh6", "Bh3Ag1"):
        g.push(m)
    assert g.fen().split()[6] == "Ag1"
    g.push("Bh6Cg8")
    assert set(g.fen().split()[6].split(",")) == {"Ag1", "Cg8"}
    restored = V.new_game(fen=g.fen())
    assert restored.fen() == g.fen()
    # The knights on g1/g8 have moved: now they have plane moves.
    assert frm(restored, "Ag1") == frm(g, "Ag1") == to(
        "Ag1", "Af3", "Ah3", "Bf3", "Bh3", "Be2", "Cf3", "Ch3", "Ce2")
    # Unmoved knight b1: vertical only, not Aa3/Ac3 (Ad2 holds a pawn).
    assert frm(restored, "Ab1") == to("Ab1", "Ba3", "Bc3", "Bd2", "Ca3", "Cc3", "Cd2")


@pytest.mark.parametrize("bad", [
    START.replace(" -", " Ae4"),          # no piece there
    START.replace(" -", " Ae1"),          # king listed as moved, but castling says KQ
    START.replace(" -", " Zz9"),          # not a cell
    START + " extra",                     # eight fields
    START.replace("|8/8/8/8/8/8/8/8|", "|"),  # two planes
    START.replace("RNBQKBNR", "RNBQ1BNR"),  # no white king
])
def test_bad_position_strings(bad: str) -> None:
    with pytest.raises(InvalidFenError):
        V.new_game(fen=bad)


def test_six_field_position_string() -> None:
    six = START.rsplit(" ", 1)[0]
    g = V.new_game(fen=six)
    assert g.fen() == START
    g = V.new_game(fen=six.replace("KQkq", "Qkq"))
    assert g.fen().split()[6] == "Ah1"
    assert g.fen().split()[2] == "Qkq"


# -- command line ---------------------------------------------------------------------
def test_show_draws_three_labelled_planes() -> None:
    result = CliRunner().invoke(cli, ["show", "strato"])
    assert result.exit_code == 0, result.output
    header = result.output.splitlines()[0]
    assert header.index("plane A") < header.index("plane B") < header.index("plane C")
    assert START in result.output
    rows = result.output.splitlines()
    assert any(r.startswith("1 R N B Q K B N R") for r in rows)
    assert any(r.rstrip().endswith("8 r n b q k b n r") for r in rows)


def test_show_after_moves_subprocess() -> None:
    out = subprocess.run([sys.executable, "-m", "variantkit", "show", "strato",
                          "--moves", "Ae2Be4 Cd7Bd5"], capture_output=True, text=True,
                         check=True).stdout
    assert "plane A" in out and "plane B" in out and "plane C" in out
    assert "White to move" in out
    assert "|8/8/8/3p4/4P3/8/8/8|" in out


# -- an independent reading of the rules file -----------------------------------------
# Cells are (plane, file, rank), counted from 0.  Slow and simple: every move is
# tried on a copy of the board.
Cell = tuple[int, int, int]
ORTHO = [(1, 0), (-1, 0), (0, 1), (0, -1)]
DIAG = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
KNIGHT = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]


def cname(c: Cell) -> str:
    return f"{PLANES[c[0]]}{FILES[c[1]]}{c[2] + 1}"


def ccell(name: str) -> Cell:
    return (PLANES.index(name[0]), FILES.index(name[1]), int(name[2:]) - 1)


def inside(c: Cell) -> bool:
    return 0 <= c[0] < 3 and 0 <= c[1] < 8 and 0 <= c[2] < 8


def is_white(letter: str) -> bool:
    return letter.isupper()


class Reference:
    """The rules file read literally: plane moves are chess moves on the
    plane, vertical moves as listed for each piece, the first-move rule and
    both castlings.  Reads the engine's position string (seven fields)."""

    def __init__(self, text: str) -> None:
        fields = text.split()
        self.board = {ccell(c): ch for c, ch in _placement_cells(fields[0]).items()}
        self.white = fields[1] == "w"
        moved = set() if fields[6] == "-" else {ccell(x) for x in fields[6].split(",")}
        self.unmoved = {c for c, ch in self.board.items()
                        if SETUP.get(cname(c)) == ch and c not in moved}
        self.ep = None if fields[3] == "-" else ccell(fields[3])

    def attacks(self, c: Cell, by_white: bool, only: Cell | None = None) -> bool:
        """Whether a piece of `by_white` (or just the one on `only`) captures
        on `c`: plane moves only."""
        b = self.board
        p, f, r = c
        for src, ch in b.items():
            q, g, s = src
            if q != p or is_white(ch) != by_white or only not in (None, src):
                continue
            kind, df, dr = ch.upper(), f - g, r - s
            if kind == "P":
                if dr == (1 if by_white else -1) and abs(df) == 1:
                    return True
            elif kind == "N":
                if (df, dr) in KNIGHT:
                    return True
            elif kind == "K":
                if max(abs(df), abs(dr)) == 1:
                    return True
            else:
                dirs = (ORTHO if kind in "RQ" else []) + (DIAG if kind in "BQ" else [])
                for dx, dy in dirs:
                    x = (p, g + dx, s + dy)
                    while inside(x):
                        if x == c:
                            return True
                        if x in b:
                            break
                        x = (p, x[1] + dx, x[2] + dy)
        return False

    def king(self, white: bool) -> Cell:
        return next(c for c, ch in self.board.items() if ch == ("K" if white else "k"))

    def checkers(self, white: bool) -> set[Cell]:
        k = self.king(white)
        return {c for c, ch in self.board.items()
                if is_white(ch) != white and self.attacks(k, not white, only=c)}

    def pseudo(self) -> list[tuple[Cell, Cell, Cell | None, bool]]:
        """(from, to, en passant victim, stays on its plane)."""
        b, w = self.board, self.white

        def empty(x: Cell) -> bool:
            return inside(x) and x not in b

        def enemy(x: Cell) -> bool:
            return inside(x) and x in b and is_white(b[x]) != w

        out: list[tuple[Cell, Cell, Cell | None, bool]] = []
        for c, ch in list(b.items()):
            if is_white(ch) != w:
                continue
            p, f, r = c
            kind = ch.upper()
            first = c in self.unmoved
            plane: list[tuple[Cell, Cell | None]] = []
            vertical: list[Cell] = []
            if kind == "P":
                fw = 1 if w else -1
                if empty((p, f, r + fw)):
                    plane.append(((p, f, r + fw), None))
                    if first and empty((p, f, r + 2 * fw)):
                        plane.append(((p, f, r + 2 * fw), None))
                for df in (1, -1):
                    x = (p, f + df, r + fw)
                    if enemy(x):
                        plane.append((x, None))
                    elif x == self.ep:
                        plane.append((x, (p, f + df, r)))
                for dp in (1, -1):
                    if empty((p + dp, f, r + fw)):
                        vertical.append((p + dp, f, r + fw))
                for dp in (1, -1, 2, -2):
                    if first and empty((p + dp, f, r + fw)) and empty((p + dp, f, r + 2 * fw)):
                        vertical.append((p + dp, f, r + 2 * fw))
            elif kind == "N":
                for df, dr in KNIGHT:
                    x = (p, f + df, r + dr)
                    if empty(x) or enemy(x):
                        plane.append((x, None))
                    vertical += [y for dp in (1, -1, 2, -2)
                                 if empty(y := (p + dp, f + df, r + dr))]
            elif kind == "K":
                for df in (-1, 0, 1):
                    for dr in (-1, 0, 1):
                        x = (p, f + df, r + dr)
                        if (df or dr) and (empty(x) or enemy(x)):
                            plane.append((x, None))
                        if first or (df, dr) == (0, 0):
                            vertical += [y for dp in (1, -1)
                                         if empty(y := (p + dp, f + df, r + dr))]
            else:
                dirs = []
                if kind in "RQ":
                    dirs += ORTHO
                    for dp in (1, -1):
                        for k in (1, 2):
                            if all(empty((p + dp * i, f, r)) for i in range(1, k + 1)):
                                vertical.append((p + dp * k, f, r))
                if kind in "BQ":
                    dirs += DIAG
                    for dx, dy in DIAG:
                        for dp in (1, -1):
                            for k in (1, 2):
                                line = [(p + dp * i, f + dx * i, r + dy * i)
                                        for i in range(1, k + 1)]
                                if all(empty(x) for x in line):
                                    vertical.append(line[-1])
                for dx, dy in dirs:
                    x = (p, f + dx, r + dy)
                    while inside(x):
                        if x in b:
                            if enemy(x):
                                plane.append((x, None))
                            break
                        plane.append((x, None))
                        x = (p, x[1] + dx, x[2] + dy)
            out += [(c, x, victim, True) for x, victim in plane]
            out += [(c, x, None, False) for x in vertical]
        return out

    def legal(self) -> set[str]:
        w = self.white
        checkers = self.checkers(w)
        result = set()
        for c, dest, victim, on_plane in self.pseudo():
            ch = self.board[c]
            if c in self.unmoved and on_plane and (  # the first-move rule
                    not checkers or (ch.upper() == "K" and dest not in checkers)):
                continue
            saved = self.board
            self.board = dict(saved)
            del self.board[c]
            if victim is not None:
                del self.board[victim]
            self.board[dest] = ch
            safe = not self.attacks(self.king(w), not w)
            self.board = saved
            if not safe:
                continue
            if ch.upper() == "P" and dest[2] == (7 if w else 0):
                result |= {cname(c) + cname(dest) + q for q in PROMOS}
            else:
                result.add(cname(c) + cname(dest))
        if not checkers:
            result |= self.castlings()
        return result

    def castlings(self) -> set[str]:
        w, b = self.white, self.board
        rank, home = (0, 0) if w else (7, 2)
        k0 = (home, 4, rank)
        out = set()
        for rook_file, king_file, rook_to in ((7, 6, 5), (0, 2, 3)):
            r0 = (home, rook_file, rank)
            if k0 not in self.unmoved or r0 not in self.unmoved \
                    or b.get(k0) != ("K" if w else "k") or b.get(r0) != ("R" if w else "r"):
                continue
            lo, hi = sorted((4, rook_file))
            if any((home, x, rank) in b for x in range(lo + 1, hi)):
                continue
            step = 1 if king_file > 4 else -1
            king_path = range(4, king_file + step, step)
            if not any(self.attacks((home, x, rank), not w) for x in king_path):
                out.add(cname(k0) + cname((home, king_file, rank)))
            # Vertically, to plane B: its cells from king to rook must be empty,
            # those the king starts above, crosses and lands on not attacked.
            if any((1, x, rank) in b for x in range(lo, hi + 1)):
                continue
            saved = self.board
            self.board = {c: ch for c, ch in saved.items() if c not in (k0, r0)}
            self.board[(1, rook_to, rank)] = saved[r0]
            safe = not any(self.attacks((1, x, rank), not w) for x in king_path)
            self.board = saved
            if safe:
                out.add(cname(k0) + cname((1, king_file, rank)))
        return out


def test_reference_positions_of_random_games() -> None:
    count = 0
    for g, _ in random_games(10, 80, seed=2024):
        text = g.fen()
        assert moves(g) == Reference(text).legal(), text
        count += 1
    assert count >= 400


def random_position(rng: random.Random, side: str) -> str | None:
    """Pieces of the setup, some removed, some scattered, some marked moved;
    None when the engine rejects it (for instance the side not to move in check)."""
    pieces = {c: ch for c, ch in SETUP.items() if ch in "Kk" or rng.random() < 0.35}
    for cell in list(pieces):
        if pieces[cell] not in "Kk" and rng.random() < 0.4:
            ch = pieces.pop(cell)
            dest = rng.choice(PLANES) + rng.choice(FILES) + str(rng.randint(1, 8))
            if not (ch in "Pp" and dest[2] in "18"):
                pieces.setdefault(dest, ch)
    home = [c for c in pieces if SETUP.get(c) == pieces[c]]
    moved = [c for c in home if rng.random() < 0.2]

    def unmoved(c: str) -> bool:
        return c in home and c not in moved

    rights = "".join(letter for letter, k, r in (("K", "Ae1", "Ah1"), ("Q", "Ae1", "Aa1"),
                                                 ("k", "Ce8", "Ch8"), ("q", "Ce8", "Ca8"))
                     if unmoved(k) and unmoved(r))
    try:
        return V.new_game(fen=fen(pieces, side=side, castling=rights or "-",
                                  moved=moved)).fen()
    except InvalidFenError:
        return None


def test_the_side_to_move_is_found_beyond_an_empty_plane() -> None:
    # Black's pieces stand on plane C, plane B is empty: the move generator
    # takes the pieces a machine word (62 cells) at a time, and an empty
    # word between them must not hand it White's queen on plane A.
    g = V.new_game(fen({"Af8": "Q", "Ac1": "B", "Ae1": "K",
                        "Ca8": "r", "Ce8": "k", "Ch8": "r"}, "b", "kq"))
    assert {move[:3] for move in moves(g)} == {"Ca8", "Ce8", "Ch8"}


def test_reference_random_positions() -> None:
    rng = random.Random(99)
    count = checks = castlings = 0
    for _ in range(2500):
        text = random_position(rng, rng.choice("wb"))
        if text is None:
            continue
        g = V.new_game(fen=text)
        mine = moves(g)
        assert mine == Reference(text).legal(), text
        count += 1
        checks += g.is_check()
        castlings += bool(mine & set(CASTLE_ROOKS))
    assert count >= 1500 and checks >= 50 and castlings >= 100


def reference_perft(g: Game, depth: int) -> int:
    """Leaf count with the last ply generated by the reference."""
    if depth == 1:
        return len(Reference(g.fen()).legal())
    total = 0
    for m in g.legal_moves():
        g.push(m)
        total += reference_perft(g, depth - 1)
        g.pop()
    return total


def test_reference_agrees_with_start_perft() -> None:
    g = V.new_game()
    assert len(Reference(START).legal()) == 60
    assert reference_perft(g, 2) == 3596
    assert reference_perft(g, 3) == 236125
