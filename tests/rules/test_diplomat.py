"""Diplomat Chess scenarios, checked against shared/rules/diplomat.md.

Every position is built from a position string (see `make_fen`) and every
expectation is an exact set of move strings, worked out by hand from the rules
file (the board geometry is restated here independently of the engine).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from click.testing import CliRunner

import variantkit
from variantkit import IllegalMoveError, InvalidFenError, Outcome
from variantkit.cli import cli
from variantkit.game import Game

SECTORS = "abcdefghijklmn"
CROWN = {c: [s + c for s in SECTORS] for c in "123"}
ALL_CELLS = CROWN["1"] + CROWN["2"] + CROWN["3"] + ["4"]
START = "1HBKRD2hbkrd1/1PPPPP2ppppp1/14/1 w - - 0 1"
PROMOS = "rbhd"


# -- helpers -------------------------------------------------------------------
def _row(contents: list[str | None]) -> str:
    out, run = "", 0
    for piece in contents:
        if piece is None:
            run += 1
            continue
        if run:
            out += str(run)
            run = 0
        out += piece
    return out + (str(run) if run else "")


def make_fen(pieces: dict[str, str], turn: str = "w", halfmove: int = 0,
             fullmove: int = 1) -> str:
    """A position string from {cell: letter}; cells a1..n3 and "4"."""
    assert set(pieces) <= set(ALL_CELLS), set(pieces) - set(ALL_CELLS)
    rows = [_row([pieces.get(cell) for cell in CROWN[c]]) for c in "123"]
    rows.append(_row([pieces.get("4")]))
    return f"{'/'.join(rows)} {turn} - - {halfmove} {fullmove}"


@pytest.fixture(scope="module")
def v() -> variantkit.Variant:
    return variantkit.load("diplomat")


def game(v: variantkit.Variant, pieces: dict[str, str], turn: str = "w",
         halfmove: int = 0) -> Game:
    return v.new_game(fen=make_fen(pieces, turn, halfmove))


def moves(g: Game) -> set[str]:
    return {str(m) for m in g.legal_moves()}


def moves_from(g: Game, frm: str) -> set[str]:
    found = [str(m) for m in g.legal_moves() if m.from_cell == frm]
    # One move per (from, to, promotion): never the same move twice.
    assert len(found) == len(set(found)), Counter(found).most_common(3)
    return set(found)


def to(frm: str, *cells: str) -> set[str]:
    return {frm + c for c in cells}


def promos(frm: str, dest: str) -> set[str]:
    return {frm + dest + p for p in PROMOS}


def test_make_fen_matches_the_setup() -> None:
    start = dict(zip(["b1", "c1", "d1", "e1", "f1"], "HBKRD", strict=True))
    start |= dict(zip(["i1", "j1", "k1", "l1", "m1"], "hbkrd", strict=True))
    start |= {f"{s}2": "P" for s in "bcdef"} | {f"{s}2": "p" for s in "ijklm"}
    assert make_fen(start) == START


# -- perft ---------------------------------------------------------------------
def test_start_position(v: variantkit.Variant) -> None:
    g = v.new_game()
    assert g.fen() == START
    assert g.turn == "white"
    assert moves(g) == {"b14", "b1a3", "b1c3", "b1n2", "b2b3", "c2c3", "d2d3",
                        "e2e3", "f2f3", "f1g1", "f1g2"}


@pytest.mark.parametrize(("depth", "nodes"), [(1, 11), (2, 121), (3, 1776), (4, 24748)])
def test_perft_from_start(v: variantkit.Variant, depth: int, nodes: int) -> None:
    g = v.new_game()
    assert variantkit.perft(g, depth) == nodes
    assert g.fen() == START


# -- pawns: the worked examples ------------------------------------------------
def test_white_pawn_b2(v: variantkit.Variant) -> None:
    g = game(v, {"b2": "P", "a3": "h", "c3": "h", "a2": "h", "c2": "h", "b1": "h",
                 "a1": "h", "c1": "h", "h3": "K", "k1": "k"})
    assert moves_from(g, "b2") == {"b2b3", "b2a3", "b2c3"}
    g = game(v, {"b2": "P", "h3": "K", "k1": "k"})
    assert moves_from(g, "b2") == {"b2b3"}


def test_white_pawn_h2(v: variantkit.Variant) -> None:
    # Black horses on every neighbour of h2 that is not a move cell.
    pieces = {"h2": "P", "a3": "K", "e3": "k"}
    pieces |= {c: "h" for c in ["g1", "i1", "g3", "i3", "g2", "h3"]}
    g = game(v, pieces)
    assert moves_from(g, "h2") == (to("h2", "i2", "h1", "i3", "g1")
                                   | promos("h2", "i1"))
    g = game(v, {"h2": "P", "a3": "K", "e3": "k"})
    assert moves_from(g, "h2") == {"h2i2", "h2h1"}


def test_white_pawn_a2(v: variantkit.Variant) -> None:
    pieces = {"a2": "P", "g3": "K", "e3": "k"}
    pieces |= {c: "h" for c in ["b1", "b3", "n1", "n3", "b2"]}
    g = game(v, pieces)
    assert moves_from(g, "a2") == to("a2", "a1", "a3", "n2", "b1", "b3", "n1", "n3")


def test_white_pawn_d3_only_to_and_on_the_centre(v: variantkit.Variant) -> None:
    g = game(v, {"d3": "P", "a1": "K", "h1": "k"})
    assert moves_from(g, "d3") == {"d34"}
    # Every neighbour of d3 holds an enemy piece: it captures only on the centre.
    pieces = {"d3": "P", "h1": "K", "k1": "k", "4": "h"}
    pieces |= {c: "p" for c in ["c2", "e2", "c3", "e3", "d2"]}
    g = game(v, pieces)
    assert moves_from(g, "d3") == {"d34"}


def test_white_pawn_i3_captures_backward_on_h2(v: variantkit.Variant) -> None:
    pieces = {"i3": "P", "a1": "K", "e1": "k"}
    pieces |= {c: "h" for c in ["h2", "j2", "h3"]}
    g = game(v, pieces)
    assert moves_from(g, "i3") == to("i3", "i2", "j3", "4", "h2", "j2")


def test_white_pawn_k3_captures_on_the_centre(v: variantkit.Variant) -> None:
    # k3 moves only to k2; the centre is no capture by the "beside" rule,
    # only by the crown-3 rule.
    g = game(v, {"k3": "P", "4": "h", "a1": "K", "e1": "k"})
    assert moves_from(g, "k3") == {"k3k2", "k34"}
    g = game(v, {"k3": "P", "a1": "K", "e1": "k"})
    assert moves_from(g, "k3") == {"k3k2"}


@pytest.mark.parametrize("radius", list(SECTORS))
def test_every_crown3_pawn_captures_on_the_centre(v: variantkit.Variant, radius: str) -> None:
    # A Black horse on the centre; kings on crown 1 out of everyone's reach.
    white = game(v, {f"{radius}3": "P", "4": "h", "a1" if radius != "a" else "b1": "K",
                     "h1" if radius != "h" else "i1": "k"})
    assert f"{radius}34" in moves_from(white, f"{radius}3")
    black = game(v, {f"{radius}3": "p", "4": "H", "a1" if radius != "a" else "b1": "K",
                     "h1" if radius != "h" else "i1": "k"}, turn="b")
    assert f"{radius}34" in moves_from(black, f"{radius}3")


def test_black_pawn_mirrors(v: variantkit.Variant) -> None:
    # i2 (Black's start) mirrors b2: only to i3, captures h3 and j3.
    pieces = {"i2": "p", "a3": "K", "e3": "k"}
    pieces |= {c: "H" for c in ["h3", "j3", "h2", "j2", "i1", "h1", "j1"]}
    g = game(v, pieces, turn="b")
    assert moves_from(g, "i2") == to("i2", "i3", "h3", "j3")
    # a2 mirrors h2 (three radii short of d): moves a1, b2; captures b1, n1, b3.
    pieces = {"a2": "p", "h3": "K", "k3": "k"}
    pieces |= {c: "H" for c in ["b1", "n1", "b3", "n3", "a3", "n2"]}
    g = game(v, pieces, turn="b")
    assert moves_from(g, "a2") == to("a2", "a1", "b2", "n1", "b3") | promos("a2", "b1")
    # h2 mirrors White's a2: moves h1, h3, g2; captures g1, i1, g3, i3.
    pieces = {"h2": "p", "a3": "K", "l3": "k"}
    pieces |= {c: "H" for c in ["g1", "i1", "g3", "i3", "i2"]}
    g = game(v, pieces, turn="b")
    assert moves_from(g, "h2") == to("h2", "h1", "h3", "g2", "g1", "i1", "g3", "i3")
    # k3 mirrors d3: only to the centre.
    g = game(v, {"k3": "p", "h1": "K", "a1": "k"}, turn="b")
    assert moves_from(g, "k3") == {"k34"}


def test_white_pawn_on_the_centre(v: variantkit.Variant) -> None:
    # Black pieces on h3, j3 (capturable) and a3 (own half: not capturable),
    # a White piece on k3.
    g = game(v, {"4": "P", "h3": "h", "j3": "h", "a3": "p", "k3": "B",
                 "a1": "K", "e1": "k"})
    assert moves_from(g, "4") == to("4", "h3", "i3", "j3", "l3", "m3", "n3")
    g = game(v, {"4": "P", "a1": "K", "e1": "k"})
    assert moves_from(g, "4") == to("4", *(s + "3" for s in "hijklmn"))


def test_black_pawn_on_the_centre(v: variantkit.Variant) -> None:
    g = game(v, {"4": "p", "b3": "H", "d3": "H", "h3": "P", "c3": "b",
                 "l1": "K", "h1": "k"}, turn="b")
    assert moves_from(g, "4") == to("4", "a3", "b3", "d3", "e3", "f3", "g3")


# -- promotion -----------------------------------------------------------------
def test_white_promotion_moving_and_capturing(v: variantkit.Variant) -> None:
    g = game(v, {"j2": "P", "i1": "h", "k1": "h", "k3": "h", "a1": "K", "e3": "k"})
    assert moves_from(g, "j2") == (promos("j2", "j1") | promos("j2", "i1")
                                   | promos("j2", "k1") | {"j2k2", "j2k3"})
    g.push("j2i1h")
    assert g.piece_at("i1") == "H"
    assert g.fen().split()[0] == make_fen({"i1": "H", "k1": "h", "k3": "h", "a1": "K",
                                           "e3": "k"}).split()[0]


def test_black_promotion(v: variantkit.Variant) -> None:
    g = game(v, {"e2": "p", "f1": "H", "d3": "H", "k3": "K", "l1": "k"}, turn="b")
    assert moves_from(g, "e2") == (promos("e2", "e1") | promos("e2", "f1")
                                   | {"e2d2", "e2d3"})
    g.push("e2e1d")
    assert g.piece_at("e1") == "d"


def test_promotion_is_mandatory(v: variantkit.Variant) -> None:
    g = game(v, {"k2": "P", "a1": "K", "e1": "k"})
    assert moves_from(g, "k2") == promos("k2", "k1")
    with pytest.raises(IllegalMoveError):
        g.push("k2k1")


# -- sliders -------------------------------------------------------------------
def test_rook_through_the_centre_and_round_crown_1(v: variantkit.Variant) -> None:
    g = game(v, {"c1": "R", "e2": "K", "l2": "k"})
    crown = {"c1" + c for c in CROWN["1"] if c != "c1"}
    assert len(crown) == 13
    assert moves_from(g, "c1") == crown | to("c1", "c2", "c3", "4", "j3", "j2", "j1")


@pytest.mark.parametrize(("blocker", "radial"), [
    ({"4": "P"}, ["c2", "c3"]),                          # own piece on the centre
    ({"4": "p"}, ["c2", "c3", "4"]),                     # enemy: captured, no further
    ({"j3": "h"}, ["c2", "c3", "4", "j3"]),
    ({"j2": "P"}, ["c2", "c3", "4", "j3"]),
    ({"c2": "h"}, ["c2"]),
])
def test_rook_radial_line_blocked(v: variantkit.Variant, blocker: dict[str, str],
                                  radial: list[str]) -> None:
    g = game(v, {"c1": "R", "e2": "K", "l2": "k"} | blocker)
    crown = {"c1" + c for c in CROWN["1"] if c != "c1"}
    assert moves_from(g, "c1") == crown | to("c1", *radial)


def test_rook_inward_from_crown_3(v: variantkit.Variant) -> None:
    g = game(v, {"c3": "R", "e1": "K", "l1": "k", "a3": "P", "f3": "p"})
    assert moves_from(g, "c3") == to("c3", "c2", "c1", "4", "j3", "j2", "j1",
                                     "b3", "d3", "e3", "f3")


def test_rook_round_crown_2(v: variantkit.Variant) -> None:
    g = game(v, {"c2": "R", "a1": "K", "e3": "k"})
    crown = {"c2" + c for c in CROWN["2"] if c != "c2"}
    assert moves_from(g, "c2") == crown | to("c2", "c1", "c3", "4", "j3", "j1")


def test_rook_round_crown_blocked_both_ways(v: variantkit.Variant) -> None:
    # Enemy on g1 one way, own piece on l1 the other: c1 d1 e1 f1 g1x / b1 a1 n1 m1.
    g = game(v, {"c1": "R", "g1": "h", "l1": "B", "c2": "P", "a2": "K", "k3": "k"})
    assert moves_from(g, "c1") == to("c1", "d1", "e1", "f1", "g1", "b1", "a1", "n1", "m1")


def test_rook_from_the_centre_along_all_radii(v: variantkit.Variant) -> None:
    g = game(v, {"4": "R", "a1": "K", "h1": "k", "h2": "p"})
    expected = set()
    for s in SECTORS:
        expected |= to("4", s + "3", s + "2", s + "1")
    expected -= {"4a1", "4h1"}
    assert moves_from(g, "4") == expected
    assert len(expected) == 40


def test_bishop_through_the_centre_same_sense(v: variantkit.Variant) -> None:
    g = game(v, {"a1": "B", "g1": "K", "i1": "k"})
    assert moves_from(g, "a1") == to("a1", "b2", "c3", "4", "j3", "k2", "l1",
                                     "n2", "m3", "f3", "e2", "d1")


def test_bishop_through_the_centre_blocked(v: variantkit.Variant) -> None:
    g = game(v, {"a1": "B", "4": "P", "g1": "K", "i1": "k"})
    assert moves_from(g, "a1") == to("a1", "b2", "c3", "n2", "m3")
    g = game(v, {"a1": "B", "j3": "h", "e2": "P", "g1": "K", "i1": "k"})
    assert moves_from(g, "a1") == to("a1", "b2", "c3", "4", "j3", "n2", "m3", "f3")


def test_bishop_from_crown_2_inward_both_ways(v: variantkit.Variant) -> None:
    g = game(v, {"b2": "B", "e1": "K", "m1": "k"})
    assert moves_from(g, "b2") == to("b2", "c1", "a1", "c3", "4", "j3", "k2", "l1",
                                     "a3", "h3", "g2", "f1")


def test_bishop_from_crown_3_branches(v: variantkit.Variant) -> None:
    g = game(v, {"c3": "B", "f1": "K", "m1": "k"})
    assert moves_from(g, "c3") == to("c3", "4", "j3", "k2", "l1", "i2", "h1",
                                     "d2", "e1", "b2", "a1")


def test_bishop_does_not_bounce_off_the_rim(v: variantkit.Variant) -> None:
    # Outward d1 and b1 and no further; inward d3 / b3, then through the centre.
    g = game(v, {"c2": "B", "c3": "P", "a3": "K", "e3": "k"})
    assert moves_from(g, "c2") == to("c2", "d1", "b1", "d3", "b3", "4",
                                     "k3", "l2", "m1", "i3", "h2", "g1")


def test_bishop_on_the_centre_reaches_everything_once(v: variantkit.Variant) -> None:
    # Kings: White a1 (own piece), Black h1 shielded by its pawns on g2 and i2.
    g = game(v, {"4": "B", "a1": "K", "h1": "k", "g2": "p", "i2": "p"}, turn="w")
    all_moves = [str(m) for m in g.legal_moves() if m.from_cell == "4"]
    assert len(all_moves) == len(set(all_moves)) == 40
    assert set(all_moves) == {"4" + c for c in ALL_CELLS if c not in ("4", "a1", "h1")}


def test_bishop_on_the_centre_second_line(v: variantkit.Variant) -> None:
    # Own pawns on c3, g3 and m3: a crown-2 cell is still reached through its
    # other crown-3 neighbour; a1 (via c3 or m3), e1 (c3 or g3) and i1 (g3, or
    # k3 j2 where j2 is a capture) are not.  The Black king k1 hides behind j2, l2.
    g = game(v, {"4": "B", "c3": "P", "m3": "P", "g3": "P", "h1": "K", "k1": "k",
                 "j2": "p", "l2": "p"})
    blocked = {"4", "c3", "m3", "g3", "h1", "k1", "a1", "e1", "i1"}
    assert moves_from(g, "4") == {"4" + c for c in ALL_CELLS if c not in blocked}


# -- horse ---------------------------------------------------------------------
def test_horse_leaps_and_centre_jump(v: variantkit.Variant) -> None:
    g = game(v, {"c1": "H", "h3": "K", "m1": "k"})
    assert moves_from(g, "c1") == to("c1", "a2", "e2", "b3", "d3", "4")
    g = game(v, {"a1": "H", "h3": "K", "h1": "k"})
    assert moves_from(g, "a1") == to("a1", "m2", "c2", "n3", "b3", "4")
    g = game(v, {"c2": "H", "h3": "K", "m1": "k"})
    assert moves_from(g, "c2") == to("c2", "a1", "e1", "a3", "e3", "4")


def test_horse_never_through_the_centre_and_no_jump_from_crown_3(v: variantkit.Variant) -> None:
    # Source text: the centre jump is from crowns 1 and 2 only.
    g = game(v, {"c3": "H", "h1": "K", "m1": "k", "4": "h"})
    assert moves_from(g, "c3") == to("c3", "a2", "e2", "b1", "d1")


def test_horse_from_the_centre(v: variantkit.Variant) -> None:
    g = game(v, {"4": "H", "a1": "K", "h1": "k", "c2": "P", "j3": "p", "e2": "r"})
    expected = {"4" + c for c in CROWN["2"] + CROWN["3"]} - {"4c2"}
    assert moves_from(g, "4") == expected
    g.push("4j3")
    assert g.piece_at("j3") == "H"
    assert g.fen().split()[4] == "0"


def test_horse_centre_jump_captures(v: variantkit.Variant) -> None:
    g = game(v, {"c1": "H", "4": "p", "h3": "K", "m1": "k"})
    assert "c14" in moves_from(g, "c1")
    g.push("c14")
    assert g.piece_at("4") == "H"


def test_horse_centre_jump_blocked_by_own_piece(v: variantkit.Variant) -> None:
    g = game(v, {"c1": "H", "4": "P", "h3": "K", "m1": "k"})
    assert moves_from(g, "c1") == to("c1", "a2", "e2", "b3", "d3")


# -- king ----------------------------------------------------------------------
def test_king_from_the_centre(v: variantkit.Variant) -> None:
    g = game(v, {"4": "K", "h1": "k"})
    assert moves_from(g, "4") == {"4" + c for c in CROWN["3"]}


def test_king_steps(v: variantkit.Variant) -> None:
    g = game(v, {"c2": "K", "h1": "k"})
    assert moves_from(g, "c2") == to("c2", "b1", "c1", "d1", "b2", "d2", "b3", "c3", "d3")
    g = game(v, {"c3": "K", "h1": "k"})
    assert moves_from(g, "c3") == to("c3", "b2", "c2", "d2", "b3", "d3", "4")


def test_no_castling(v: variantkit.Variant) -> None:
    g = game(v, {"d1": "K", "a1": "R", "g1": "R", "k3": "k"})
    assert g.fen().split()[2] == "-"
    assert moves_from(g, "d1") == to("d1", "c1", "e1", "c2", "d2", "e2")
    g = game(v, {"k1": "k", "h1": "r", "n1": "r", "d3": "K"}, turn="b")
    assert moves_from(g, "k1") == to("k1", "j1", "l1", "j2", "k2", "l2")


def test_kings_never_touch_through_the_centre(v: variantkit.Variant) -> None:
    g = game(v, {"4": "K", "j2": "k"})
    assert moves_from(g, "4") == {"4" + c for c in CROWN["3"] if c not in ("i3", "j3", "k3")}
    with pytest.raises(InvalidFenError):
        v.new_game(fen=make_fen({"4": "K", "j3": "k"}))


# -- check: the one-way centre jumps and pawn captures ----------------------------
@pytest.mark.parametrize(("pieces", "attacked"), [
    ({"c1": "H", "4": "k", "h1": "K"}, True),   # crown 1 -> centre
    ({"c2": "H", "4": "k", "h1": "K"}, True),   # crown 2 -> centre
    ({"c3": "H", "4": "k", "h1": "K"}, False),  # no jump from crown 3
    ({"4": "H", "c1": "k", "a3": "K"}, False),  # centre -> crowns 2 and 3 only
    ({"4": "H", "c2": "k", "a1": "K"}, True),
    ({"4": "H", "c3": "k", "h1": "K"}, True),
    ({"i3": "P", "h2": "k", "a1": "K"}, True),   # the backward capture on h2
    ({"k3": "P", "4": "k", "a1": "K"}, True),   # crown-3 pawn on the centre
    ({"4": "P", "j3": "k", "a1": "K"}, True),   # centre pawn, opponent's half
    ({"4": "P", "c3": "k", "h1": "K"}, False),  # not backward
    ({"h2": "P", "g3": "k", "a1": "K"}, False),
    ({"d3": "D", "d2": "k", "h1": "K"}, False),  # a diplomat never attacks
    ({"a1": "B", "j3": "k", "h1": "K"}, True),  # a1 b2 c3 4 j3
    ({"c3": "B", "h1": "k", "a3": "K"}, True),  # c3 4 j3 i2 h1
    ({"a1": "B", "h1": "k", "a3": "K"}, False),  # a1 n2 m3 4 f3 e2 d1 only
    ({"c1": "R", "j1": "k", "a3": "K", "d1": "P", "b1": "P"}, True),  # c1 c2 c3 4 j3 j2 j1
])
def test_attacks_agree_with_the_moves(v: variantkit.Variant, pieces: dict[str, str],
                                      attacked: bool) -> None:
    black_to_move = v.new_game(fen=make_fen(pieces, "b"))
    assert black_to_move.is_check() is attacked
    if attacked:
        with pytest.raises(InvalidFenError):
            v.new_game(fen=make_fen(pieces, "w"))
    else:
        assert not v.new_game(fen=make_fen(pieces, "w")).is_check()


def test_king_may_not_step_into_a_centre_jump(v: variantkit.Variant) -> None:
    king = to("c3", "b2", "c2", "d2", "b3", "d3")
    g = game(v, {"c3": "k", "j1": "H", "g1": "K"}, turn="b")
    assert moves_from(g, "c3") == king
    g = game(v, {"c3": "k", "j3": "H", "g1": "K"}, turn="b")
    assert moves_from(g, "c3") == king | {"c34"}


# -- diplomat ------------------------------------------------------------------
def test_diplomat_steps_and_suborns(v: variantkit.Variant) -> None:
    # d2: own horse on c2, Black rook on e2, Black king on d3 (never suborned).
    g = game(v, {"d2": "D", "c2": "H", "e2": "r", "d3": "k", "h3": "K"})
    assert moves_from(g, "d2") == to("d2", "c1", "d1", "e1", "c3", "e3") | {"d2~e2"}


def test_diplomat_never_captures(v: variantkit.Variant) -> None:
    pieces = {"d2": "D", "a1": "K", "k3": "k"}
    pieces |= {c: "p" for c in ["c1", "d1", "e1", "c2", "e2", "c3", "d3", "e3"]}
    g = game(v, pieces)
    assert moves_from(g, "d2") == {"d2~" + c for c in ["c1", "d1", "e1", "c2", "e2",
                                                       "c3", "d3", "e3"]}


def test_suborn_from_the_start_position(v: variantkit.Variant) -> None:
    g = v.new_game(fen="1HBKRD2hbkrd1/1PPPPPp1pppp2/14/1 w - - 0 1")
    assert moves_from(g, "f1") == {"f1g1", "f1~g2"}
    pushed = g.push("f1~g2")
    assert str(pushed) == "f1~g2" and pushed.suborn
    assert g.fen() == "1HBKRD2hbkrd1/1PPPPPP1pppp2/14/1 b - - 1 1"
    assert g.piece_at("f1") == "D" and g.piece_at("g2") == "P"
    g.pop()
    assert g.fen() == "1HBKRD2hbkrd1/1PPPPPp1pppp2/14/1 w - - 0 1"


def test_suborn_converts_one_piece_only(v: variantkit.Variant) -> None:
    g = game(v, {"d2": "D", "c2": "r", "e2": "b", "d3": "h", "h3": "K", "k1": "k"})
    assert {"d2~c2", "d2~e2", "d2~d3"} <= moves_from(g, "d2")
    g.push("d2~e2")
    assert (g.piece_at("c2"), g.piece_at("e2"), g.piece_at("d3"), g.piece_at("d2")) \
        == ("r", "B", "h", "D")
    assert g.turn == "black"


def test_black_diplomat_suborns(v: variantkit.Variant) -> None:
    # A White pawn on b1 shuts crown 1, so a Black rook on l1 would not check n1.
    g = game(v, {"m1": "d", "l1": "R", "m2": "H", "n1": "K", "b1": "P", "f3": "k"},
             turn="b")
    # n1 is the White king: not suborned.
    assert moves_from(g, "m1") == to("m1", "l2", "n2") | {"m1~l1", "m1~m2"}
    g.push("m1~m2")
    assert g.piece_at("m2") == "h" and g.piece_at("m1") == "d"


def test_suborn_refused_when_the_converted_piece_checks(v: variantkit.Variant) -> None:
    # A White rook on g2 would see k2 along crown 2.
    g = game(v, {"f1": "D", "g2": "r", "k2": "k", "a1": "K"})
    assert moves_from(g, "f1") == to("f1", "e1", "g1", "e2", "f2")
    # Control: the Black king off crown 2, the suborn is fine.
    g = game(v, {"f1": "D", "g2": "r", "k3": "k", "a1": "K"})
    assert moves_from(g, "f1") == to("f1", "e1", "g1", "e2", "f2") | {"f1~g2"}


def test_diplomat_step_may_not_discover_check(v: variantkit.Variant) -> None:
    # Rook c1 looks through c2 c3 4 at the Black king on j3; the diplomat on the
    # centre may only step to c3, which keeps the line closed.
    g = game(v, {"c1": "R", "4": "D", "j3": "k", "g1": "K"})
    assert moves_from(g, "4") == {"4c3"}
    g = game(v, {"c1": "H", "4": "D", "j3": "k", "g1": "K"})
    assert moves_from(g, "4") == {"4" + c for c in CROWN["3"] if c != "j3"}


def test_diplomat_step_uncovering_check_on_own_king_is_illegal(v: variantkit.Variant) -> None:
    # The rook on e1 pins the diplomat on b1 against a1 (n1 shuts the other
    # way round): only c1 keeps the line closed.
    g = game(v, {"a1": "K", "b1": "D", "e1": "r", "n1": "B", "h3": "k"})
    assert moves_from(g, "b1") == {"b1c1"}


def test_pinned_diplomat_may_still_suborn(v: variantkit.Variant) -> None:
    # The diplomat on b1 is pinned (rook e1 against the king on a1) but a suborn
    # leaves it where it is.
    g = game(v, {"a1": "K", "b1": "D", "e1": "r", "n1": "B", "b2": "h", "h3": "k"})
    assert moves_from(g, "b1") == {"b1c1", "b1~b2"}


def test_suborning_the_checker_answers_check(v: variantkit.Variant) -> None:
    g = game(v, {"a1": "K", "c1": "r", "d2": "D", "k3": "k"})
    assert g.is_check()
    assert moves(g) == {"a1a2", "a1b2", "a1n2", "d2~c1"}
    g.push("d2~c1")
    assert g.piece_at("c1") == "R"


def test_suborned_pawn_may_not_check(v: variantkit.Variant) -> None:
    # As a White pawn, e3 would capture on the centre (crown-3 rule): the suborn
    # would check the king there.
    steps = to("d2", "c1", "d1", "e1", "c2", "e2", "c3", "d3")
    g = game(v, {"d2": "D", "e3": "p", "4": "k", "k1": "K"})
    assert moves_from(g, "d2") == steps
    g = game(v, {"d2": "D", "e3": "p", "h1": "k", "k1": "K"})
    assert moves_from(g, "d2") == steps | {"d2~e3"}


def test_suborned_pawn_heads_for_the_other_king(v: variantkit.Variant) -> None:
    pieces = {"e2": "D", "f3": "p", "a1": "K", "k3": "k"}
    # As a Black pawn f3 heads for d1: e3, f2 or the centre (all 3 steps from
    # d1, f3 is 4), and it captures the diplomat on e2.
    assert moves_from(game(v, pieces, turn="b"), "f3") == {"f3e3", "f3f2", "f34", "f3e2"}
    g = game(v, pieces)
    g.push("e2~f3")
    assert g.piece_at("f3") == "P"
    g.push("k3k2")
    # As a White pawn it heads for k1: only to the centre.
    assert moves_from(g, "f3") == {"f34"}


def test_suborned_pawn_on_a_promotion_cell_does_not_promote(v: variantkit.Variant) -> None:
    g = game(v, {"h1": "D", "i1": "p", "a3": "K", "m3": "k"})
    got = moves_from(g, "h1")
    assert "h1~i1" in got
    assert not any(m.startswith("h1~i1") and m != "h1~i1" for m in got)
    g.push("h1~i1")
    assert g.piece_at("i1") == "P"
    g.push("m3m2")
    # Now a White pawn on i1: forward is j1 only, where it promotes.
    assert moves_from(g, "i1") == promos("i1", "j1")


def test_suborn_does_not_reset_the_halfmove_clock(v: variantkit.Variant) -> None:
    pieces = {"d2": "D", "e2": "p", "a1": "K", "k1": "k", "h2": "P"}
    g = game(v, pieces, halfmove=7)
    g.push("d2~e2")
    assert g.fen().split()[4] == "8"
    g.pop()
    g.push("d2d1")
    assert g.fen().split()[4] == "8"
    g.pop()
    g.push("h2i2")
    assert g.fen().split()[4] == "0"


def test_promotion_to_diplomat_may_give_check(v: variantkit.Variant) -> None:
    # The pawn leaving i2 opens crown 2 from the rook on h2 to the king on j2;
    # as a pawn move, promoting to a diplomat is allowed too.
    g = game(v, {"h2": "R", "i2": "P", "j2": "k", "m2": "p", "c1": "K"})
    assert moves_from(g, "i2") == promos("i2", "i1")
    g.push("i2i1d")
    assert g.piece_at("i1") == "D"
    assert g.is_check()


# -- game end ------------------------------------------------------------------
def test_checkmate_by_white(v: variantkit.Variant) -> None:
    g = game(v, {"a1": "k", "e2": "R", "g3": "R", "j3": "K"})
    assert g.outcome() is None
    g.push("g3g1")
    assert g.is_check()
    assert g.legal_moves() == []
    assert g.outcome() == Outcome("white", "checkmate")


def test_checkmate_by_black(v: variantkit.Variant) -> None:
    g = game(v, {"a1": "K", "e1": "r", "e2": "r", "j3": "k"})
    assert g.is_check() and g.legal_moves() == []
    assert g.outcome() == Outcome("black", "checkmate")


def test_stalemated_side_loses(v: variantkit.Variant) -> None:
    g = game(v, {"a1": "k", "e3": "R", "b3": "R", "n3": "R", "k1": "K"})
    assert g.outcome() is None
    g.push("e3e2")
    assert not g.is_check()
    assert g.legal_moves() == []
    assert g.outcome() == Outcome("white", "stalemate")


def test_stalemated_white_loses(v: variantkit.Variant) -> None:
    g = game(v, {"a1": "K", "e2": "r", "b3": "r", "n3": "r", "k1": "k"})
    assert not g.is_check() and g.legal_moves() == []
    assert g.outcome() == Outcome("black", "stalemate")


def test_only_two_kings_is_a_draw(v: variantkit.Variant) -> None:
    g = game(v, {"a1": "K", "h1": "k"})
    assert g.outcome() == Outcome(None, "insufficient-material")
    g = game(v, {"a1": "K", "b1": "p", "k3": "k"})
    assert g.outcome() is None
    g.push("a1b1")
    assert g.outcome() == Outcome(None, "insufficient-material")
    # A diplomat (which never captures) is still material.
    g = game(v, {"a1": "K", "d1": "D", "k3": "k"})
    assert g.outcome() is None


def test_threefold_repetition(v: variantkit.Variant) -> None:
    g = v.new_game()
    plies = ["b1a3", "i1h3", "a3b1", "h3i1"] * 2
    for ply in plies[:-1]:
        g.push(ply)
        assert g.outcome() is None
    g.push(plies[-1])
    assert g.fen().split()[:2] == START.split()[:2]
    assert g.outcome() == Outcome(None, "repetition")
    g.pop()
    assert g.outcome() is None


def test_repetition_needs_the_same_side_to_move(v: variantkit.Variant) -> None:
    # White's king walks a triangle (3 plies), Black's king shuffles (2): the
    # start placement comes back after 5 plies with Black to move (no count),
    # after 12 plies with White to move (second), after 24 (third).
    g = game(v, {"a1": "K", "f2": "P", "i3": "k"})
    start = g.fen().split()[:2]
    white, black = ["a1b1", "b1a2", "a2a1"], ["i3i2", "i2i3"]
    for ply in range(24):
        g.push(white[(ply // 2) % 3] if ply % 2 == 0 else black[(ply // 2) % 2])
        if ply == 4:
            assert g.fen().split()[0] == start[0] and g.turn == "black"
        if ply < 23:
            assert g.outcome() is None, ply
    assert g.fen().split()[:2] == start
    assert g.outcome() == Outcome(None, "repetition")


def test_no_fifty_move_rule(v: variantkit.Variant) -> None:
    g = game(v, {"a1": "K", "c1": "R", "h3": "k", "m2": "r"}, halfmove=150)
    assert g.outcome() is None
    g.push("c1c2")
    assert g.fen().split()[4] == "151"
    assert g.outcome() is None


# -- position strings ----------------------------------------------------------
def test_invalid_positions(v: variantkit.Variant) -> None:
    with pytest.raises(InvalidFenError):
        v.new_game(fen=make_fen({"a1": "K", "b1": "K", "h1": "k"}))
    with pytest.raises(InvalidFenError):
        v.new_game(fen=make_fen({"a1": "K"}))
    with pytest.raises(InvalidFenError):  # Black, not to move, in check
        v.new_game(fen=make_fen({"a1": "K", "c1": "R", "f1": "k"}))
    with pytest.raises(InvalidFenError):  # 15 cells on crown 1
        v.new_game(fen="1HBKRD2hbkrd2/1PPPPP2ppppp1/14/1 w - - 0 1")


def test_random_games_round_trip(v: variantkit.Variant) -> None:
    rng = random.Random(20240611)
    positions = 0
    while positions < 240:
        g = v.new_game()
        for _ply in range(60):
            fen = g.fen()
            legal = moves(g)
            restored = v.new_game(fen=fen)
            assert restored.fen() == fen
            assert moves(restored) == legal
            assert restored.is_check() == g.is_check()
            for m in g.legal_moves():
                g.push(m)
                g.pop()
                assert g.fen() == fen
            positions += 1
            if g.outcome() is not None:
                break
            g.push(rng.choice(sorted(legal)))


# -- command line --------------------------------------------------------------
def test_cli_show(v: variantkit.Variant) -> None:
    result = CliRunner().invoke(cli, ["show", "diplomat"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert "1 . H B K R D . . h b k r d ." in lines
    assert "2 . P P P P P . . p p p p p ." in lines
    assert "3 . . . . . . . . . . . . . ." in lines
    # The centre's one-cell row is drawn in the middle of the crowns' width.
    assert "4" + " " * 14 + "." in lines
    assert f"FEN: {START}" in lines


def test_cli_show_after_a_suborn() -> None:
    fen = "1HBKRD2hbkrd1/1PPPPPp1pppp2/14/1 w - - 0 1"
    result = CliRunner().invoke(cli, ["show", "diplomat", "--fen", fen, "--moves", "f1~g2"])
    assert result.exit_code == 0, result.output
    assert "FEN: 1HBKRD2hbkrd1/1PPPPPP1pppp2/14/1 b - - 1 1" in result.output.splitlines()
    assert "2 . P P P P P P . p p p p . ." in result.output.splitlines()
