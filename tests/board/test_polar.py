"""The polar topology, checked against the Diplomat Chess board description."""

from __future__ import annotations

import string
from typing import Any

import networkx as nx
import pytest

from variantkit.board.base import Board
from variantkit.board.polar import PolarTopology
from variantkit.errors import DeclarationError

SECTORS = list(string.ascii_lowercase[:14])  # a..n


def diplomat(**options: str) -> Board:
    return PolarTopology(SECTORS, ["1", "2", "3"], "4", **options).build()


@pytest.fixture(scope="module")
def board() -> Board:
    return diplomat()


def cells(board: Board, line: str) -> tuple[int, ...]:
    return tuple(board.index[name] for name in line.split())


def lines(board: Board, start: str, *directions: str) -> set[tuple[int, ...]]:
    """Every ray from `start` over the given directions."""
    topo = board.topology
    return {ray for d in directions for ray in topo.rays(board.index[start], d)}


def kinds(board: Board, a: str, b: str) -> frozenset[str]:
    return board.graph.edges[board.index[a], board.index[b]]["kinds"]


# -- cells ---------------------------------------------------------------------
def test_cells_and_order(board: Board) -> None:
    assert board.size == 43
    assert board.names[:3] == ["a1", "b1", "c1"]
    assert board.names[14] == "a2"
    assert board.names[41] == "n3"
    assert board.names[-1] == "4"
    assert board.coords[board.index["c2"]] == (1, 2)
    assert board.coords[board.index["4"]] == (3, 0)


def test_colours(board: Board) -> None:
    assert board.colours[board.index["a1"]] == 0
    assert board.colours[board.index["b1"]] == 1
    assert board.colours[board.index["b2"]] == 0
    assert board.colours[board.index["4"]] == 0


def test_layout_rows_and_labels(board: Board) -> None:
    (group,) = board.layout
    assert [len(row) for row in group] == [14, 14, 14, 1]
    assert [board.names[c] for c in group[1]] == [f"{s}2" for s in SECTORS]
    assert group[3] == [board.index["4"]]
    assert board.labels == [("", ["1", "2", "3", "4"], SECTORS)]


def test_layout_writes_the_diplomat_start_string(board: Board) -> None:
    setup = {"b1": "H", "c1": "B", "d1": "K", "e1": "R", "f1": "D",
             "i1": "h", "j1": "b", "k1": "k", "l1": "r", "m1": "d"}
    setup |= {f"{s}2": "P" for s in "bcdef"} | {f"{s}2": "p" for s in "ijklm"}
    rows = []
    for row in board.layout[0]:
        text, empty = "", 0
        for c in row:
            if board.names[c] in setup:
                text += (str(empty) if empty else "") + setup[board.names[c]]
                empty = 0
            else:
                empty += 1
        rows.append(text + (str(empty) if empty else ""))
    assert "/".join(rows) == "1HBKRD2hbkrd1/1PPPPP2ppppp1/14/1"


# -- adjacency -------------------------------------------------------------------
def test_graph_connected_with_expected_edge_count(board: Board) -> None:
    assert nx.is_connected(board.graph)
    # 42 around rings + 28 along radii + 56 diagonals + 14 crown-3 to centre.
    assert board.graph.number_of_edges() == 42 + 28 + 56 + 14


def test_orthogonal_adjacency(board: Board) -> None:
    for a, b in [("c2", "d2"), ("n2", "a2"), ("c1", "c2"), ("c2", "c3")]:
        assert kinds(board, a, b) == {"orthogonal"}
    assert not board.graph.has_edge(board.index["c1"], board.index["c3"])


def test_diagonal_adjacency(board: Board) -> None:
    for a, b in [("c1", "d2"), ("c2", "b3"), ("n1", "a2"), ("a3", "n2")]:
        assert kinds(board, a, b) == {"diagonal"}
    assert not board.graph.has_edge(board.index["c1"], board.index["e2"])


def test_crown_3_touches_centre_both_ways(board: Board) -> None:
    centre = board.index["4"]
    neighbours = set(board.graph.neighbors(centre))
    assert neighbours == {board.index[f"{s}3"] for s in SECTORS}
    for s in SECTORS:
        assert kinds(board, f"{s}3", "4") == {"orthogonal", "diagonal"}


# -- directions ------------------------------------------------------------------
def test_direction_names_and_families(board: Board) -> None:
    topo = board.topology
    assert topo.directions("orthogonal", "in") == ["cw", "ccw", "in", "out"]
    assert topo.directions("diagonal", "in") == ["in-cw", "in-ccw", "out-cw", "out-ccw"]
    assert len(topo.directions("all", "in")) == 8
    assert topo.directions("out-ccw", "in") == ["out-ccw"]
    assert set(topo.forward_names()) == set(topo.directions("all", "in"))


@pytest.mark.parametrize("spec", ["forward", "sideways", "n", [1, 0], None])
def test_bad_directions(board: Board, spec: object) -> None:
    with pytest.raises(DeclarationError) as exc:
        board.topology.directions(spec, "in")
    assert exc.value.rule == "unknown-direction"
    # The known names are listed, or the close one suggested ('n' -> 'in').
    assert "in-cw" in exc.value.message or "did you mean 'in'?" in exc.value.message


# -- rook lines ------------------------------------------------------------------
def test_rook_around_crown_13_each_way_never_home(board: Board) -> None:
    (cw,) = board.topology.rays(board.index["c2"], "cw")
    (ccw,) = board.topology.rays(board.index["c2"], "ccw")
    assert cw == cells(board, "d2 e2 f2 g2 h2 i2 j2 k2 l2 m2 n2 a2 b2")
    assert ccw == tuple(reversed(cw))
    assert board.index["c2"] not in cw


def test_rook_along_radius(board: Board) -> None:
    assert lines(board, "c3", "out") == {cells(board, "c2 c1")}
    assert lines(board, "c1", "out") == set()
    assert lines(board, "c1", "in") == {cells(board, "c2 c3 4 j3 j2 j1")}
    assert lines(board, "c3", "in") == {cells(board, "4 j3 j2 j1")}
    assert lines(board, "j2", "in") == {cells(board, "j3 4 c3 c2 c1")}


def test_rook_from_centre(board: Board) -> None:
    out = lines(board, "4", "out")
    assert out == {cells(board, f"{s}3 {s}2 {s}1") for s in SECTORS}
    assert len(board.topology.rays(board.index["4"], "out")) == 14
    assert lines(board, "4", "in", "cw", "ccw") == set()


def test_rook_total_reach(board: Board) -> None:
    reach = {c for ray in lines(board, "c1", "cw", "ccw", "in", "out") for c in ray}
    # 13 on its crown (j1 among them) + c2 c3 4 j3 j2.
    assert len(reach) == 13 + 5


# -- bishop lines ----------------------------------------------------------------
def test_bishop_plain_diagonals(board: Board) -> None:
    assert lines(board, "c3", "out-cw") == {cells(board, "d2 e1")}
    assert lines(board, "c3", "out-ccw") == {cells(board, "b2 a1")}
    assert lines(board, "c1", "out-cw", "out-ccw") == set()  # no bounce off the rim
    assert lines(board, "n1", "in-cw") == {cells(board, "a2 b3 4 i3 j2 k1")}


def test_bishop_through_centre_keeps_sense(board: Board) -> None:
    assert lines(board, "a1", "in-cw") == {cells(board, "b2 c3 4 j3 k2 l1")}
    assert lines(board, "l1", "in-ccw") == {cells(board, "k2 j3 4 c3 b2 a1")}
    assert lines(board, "b2", "in-cw") == {cells(board, "c3 4 j3 k2 l1")}


def test_bishop_from_crown_3_branches(board: Board) -> None:
    both = {cells(board, "4 j3 k2 l1"), cells(board, "4 j3 i2 h1")}
    assert lines(board, "c3", "in-cw") == both
    assert lines(board, "c3", "in-ccw") == both


def test_bishop_from_centre(board: Board) -> None:
    rays = board.topology.rays(board.index["4"], "out-cw")
    assert len(rays) == 14
    assert cells(board, "c3 d2 e1") in rays
    assert cells(board, "n3 a2 b1") in rays  # the sector wraps
    ccw = board.topology.rays(board.index["4"], "out-ccw")
    assert len(ccw) == 14
    assert cells(board, "c3 b2 a1") in ccw
    assert lines(board, "4", "in-cw", "in-ccw") == set()


def test_bishop_reach_from_centre_is_every_diagonal_cell(board: Board) -> None:
    reach = {c for ray in lines(board, "4", "out-cw", "out-ccw") for c in ray}
    assert len(reach) == 42  # every ring cell lies on some line from the centre


def test_every_line_reads_backwards(board: Board) -> None:
    """A line from x to y, read backwards, is the start of a line from y:
    check detection reads attack tables in reverse and relies on it."""
    topo = board.topology
    every = topo.directions("all", "in")
    for start in range(board.size):
        for ray in (r for d in every for r in topo.rays(start, d)):
            for i, end in enumerate(ray):
                back = tuple(reversed((start, *ray[:i])))
                assert any(r[:len(back)] == back for d in every for r in topo.rays(end, d)), \
                    (board.names[start], board.names[end])


# -- through-centre options --------------------------------------------------------
def test_through_centre_none() -> None:
    b = diplomat(orthogonal_through_centre="none", diagonal_through_centre="none")
    assert lines(b, "c1", "in") == {cells(b, "c2 c3 4")}
    assert lines(b, "a1", "in-cw") == {cells(b, "b2 c3 4")}
    assert lines(b, "c3", "in-cw", "in-ccw") == {cells(b, "4")}
    # Leaving the centre is unaffected.
    assert len(b.topology.rays(b.index["4"], "out-cw")) == 14


def test_mixed_through_centre_options() -> None:
    b = diplomat(diagonal_through_centre="none")
    assert lines(b, "c1", "in") == {cells(b, "c2 c3 4 j3 j2 j1")}
    assert lines(b, "a1", "in-cw") == {cells(b, "b2 c3 4")}


# -- leaps -----------------------------------------------------------------------
def test_horse_leaps(board: Board) -> None:
    topo = board.topology
    assert {board.names[c] for c in topo.leaps(board.index["c1"], [1, 2], "in")} \
        == {"a2", "e2", "b3", "d3"}
    # Wrapping sectors, both ring directions; never through the centre.
    a2 = {board.names[c] for c in topo.leaps(board.index["a2"], [1, 2], "in")}
    assert a2 == {"m1", "c1", "m3", "c3"}
    b3 = {board.names[c] for c in topo.leaps(board.index["b3"], [1, 2], "in")}
    assert b3 == {"n2", "d2", "a1", "c1"}
    assert topo.leaps(board.index["4"], [1, 2], "in") == []


def test_leap_vectors(board: Board) -> None:
    topo = board.topology
    got = topo.leaps(board.index["c1"], [[1, 0], [2, 7], [-1, 0]], "in")
    assert {board.names[c] for c in got} == {"c2", "j3"}
    # A full turn of sectors lands on the start cell, which is no leap.
    assert topo.leaps(board.index["c1"], [[0, 14]], "in") == []
    with pytest.raises(DeclarationError):
        topo.leaps(board.index["c1"], "knight", "in")


# -- regions ---------------------------------------------------------------------
def test_regions(board: Board) -> None:
    topo = board.topology
    white = topo.region({"sectors": list("abcdefg")})
    assert len(white) == 21 and board.index["4"] not in white
    assert {board.names[c] for c in topo.region({"sectors": ["i", "j"], "rings": ["1"]})} \
        == {"i1", "j1"}
    assert topo.region({"centre": True}) == {board.index["4"]}
    assert {board.names[c] for c in topo.region({"rings": [3], "centre": True})} \
        == {f"{s}3" for s in SECTORS} | {"4"}
    assert len(topo.region({"centre": False})) == 42


@pytest.mark.parametrize("spec", [{"sectors": ["z"]}, {"rings": ["5"]}])
def test_region_unknown_names(board: Board, spec: dict[str, list[str]]) -> None:
    with pytest.raises(DeclarationError) as exc:
        board.topology.region(spec)
    assert exc.value.rule == "unknown-cell"


def test_region_through_board(board: Board) -> None:
    b = diplomat()
    b.add_regions({"white-half": {"sectors": list("abcdefg")},
                   "promotion": {"cells": ["i1", "j1"], "rings": ["3"], "sectors": ["a"]}})
    assert b.regions["white-half"].bit_count() == 21
    assert {b.names[c] for c in b.cells_of(b.regions["promotion"])} == {"i1", "j1", "a3"}


# -- other boards ----------------------------------------------------------------
def test_small_board_without_centre() -> None:
    topo = PolarTopology(list("uvwxyz"), ["o", "i"], None, cell_name="{ring}{sector}")
    b = topo.build()
    assert b.size == 12 and b.names[:2] == ["ou", "ov"] and b.names[-1] == "iz"
    assert [len(row) for row in b.layout[0]] == [6, 6]
    assert b.labels == [("", ["o", "i"], list("uvwxyz"))]
    assert nx.is_connected(b.graph)
    # Lines end at the innermost ring: nothing crosses.
    assert lines(b, "ou", "in") == {cells(b, "iu")}
    assert lines(b, "iu", "in", "in-cw", "in-ccw") == set()
    assert lines(b, "ou", "in-cw") == {cells(b, "iv")}
    assert lines(b, "ix", "out-ccw") == {cells(b, "ow")}
    assert lines(b, "iu", "cw") == {cells(b, "iv iw ix iy iz")}
    assert {b.names[c] for c in topo.leaps(b.index["ou"], [1, 2], "cw")} == {"iw", "iy"}
    assert topo.region({"rings": ["i"], "sectors": ["u"]}) == {b.index["iu"]}
    with pytest.raises(DeclarationError):
        topo.region({"centre": True})


def test_single_ring_with_centre() -> None:
    b = PolarTopology(list("abcd"), ["1"], "0").build()
    # Crossing from an innermost cell with nowhere outward: one ray, not two copies.
    assert b.topology.rays(b.index["a1"], "in-cw") == [cells(b, "0 c1")]
    assert lines(b, "b1", "in") == {cells(b, "0 d1")}


def test_odd_sectors_need_no_crossing() -> None:
    with pytest.raises(DeclarationError, match="opposite"):
        PolarTopology(list("abcde"), ["1", "2"], "0")
    b = PolarTopology(list("abcde"), ["1", "2"], "0", orthogonal_through_centre="none",
                      diagonal_through_centre="none").build()
    assert lines(b, "a1", "in") == {cells(b, "a2 0")}
    PolarTopology(list("abcde"), ["1", "2"], None)  # no centre, nothing crosses


@pytest.mark.parametrize("args", [
    (list("ab"), ["1"], None),                          # too few sectors
    (list("abca"), ["1"], None),                        # repeated sector
    (list("abcd"), ["1", "1"], None),                   # repeated ring
    (list("abcd"), [], None),                           # no ring
    (list("abcd"), ["1"], "a1"),                        # centre named like a cell
    (["a", "a1"], ["1", "11"], None),                   # a1+1 and a+11 are both a11
    (list("abcd"), ["1"], None, "{file}{rank}"),        # bad template
    (list("abcd"), ["1"], "0", "{sector}{ring}", "bent"),
    (list("abcd"), ["1"], "0", "{sector}{ring}", "straight", "bounce"),
])
def test_bad_declarations(args: tuple[Any, ...]) -> None:
    with pytest.raises(DeclarationError) as exc:
        PolarTopology(*args)
    assert exc.value.rule == "bad-board"
