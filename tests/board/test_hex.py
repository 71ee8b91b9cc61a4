"""The hex topology alone, checked against the Gliński board description:
91 cells in files a-l (no j), f the central file of 11 cells, ranks from 1 at
the bottom of each file, three colours of 30, 30 and 31 cells."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import networkx as nx
import pytest

import variantkit
from variantkit.board.base import Board
from variantkit.board.hex import HexTopology
from variantkit.errors import DeclarationError, VariantError

FILES = "abcdefghikl"
FILE_LENGTHS = dict(zip(FILES, [6, 7, 8, 9, 10, 11, 10, 9, 8, 7, 6], strict=True))


@pytest.fixture(scope="module")
def board() -> Board:
    return HexTopology(6).build()


def names(board: Board, cells: list[int] | tuple[int, ...] | set[int]) -> set[str]:
    return {board.names[c] for c in cells}


def reach(board: Board, start: str, family: str) -> set[str]:
    """Cells a rider reaches from `start` on an empty board."""
    topo = board.topology
    return {board.names[c] for d in topo.directions(family, "n")
            for ray in topo.rays(board.index[start], d) for c in ray}


def leaps(board: Board, start: str, spec: list[int] | list[list[int]],
          forward: str = "n") -> set[str]:
    return names(board, board.topology.leaps(board.index[start], spec, forward))


def distance(board: Board, a: int, b: int) -> int:
    (q1, r1), (q2, r2) = board.coords[a], board.coords[b]
    return max(abs(q1 - q2), abs(r1 - r2), abs(q1 + r1 - q2 - r2))


# -- cells ---------------------------------------------------------------------
def test_91_cells_named_by_file_and_rank(board: Board) -> None:
    assert board.size == 91
    expected = {f"{f}{r}" for f, n in FILE_LENGTHS.items() for r in range(1, n + 1)}
    assert set(board.names) == expected
    assert not any(name.startswith("j") for name in board.names)
    assert board.names[:11] == [f"{f}1" for f in FILES]  # rank 1 first, a to l
    assert board.names[-1] == "f11"


@pytest.mark.parametrize(("side", "cells"), [(2, 7), (3, 19), (4, 37), (6, 91), (13, 469)])
def test_sizes(side: int, cells: int) -> None:
    assert HexTopology(side).build().size == cells


@pytest.mark.parametrize("side", [1, 14])
def test_bad_sizes(side: int) -> None:
    with pytest.raises(DeclarationError, match="side"):
        HexTopology(side)


def test_axial_coordinates(board: Board) -> None:
    at = {name: board.coords[i] for i, name in enumerate(board.names)}
    assert at["f6"] == (0, 0)
    assert at["f1"] == (0, -5) and at["f11"] == (0, 5)
    assert at["a1"] == (-5, 0) and at["a6"] == (-5, 5)
    assert at["l1"] == (5, -5) and at["l6"] == (5, 0)
    assert all(max(abs(q), abs(r), abs(q + r)) <= 5 for q, r in board.coords)


# -- graph -----------------------------------------------------------------------
def test_neighbours_through_edges_and_vertices(board: Board) -> None:
    centre = board.index["f6"]
    for cell in range(board.size):
        kinds = Counter(k for n in board.graph[cell]
                        for k in board.graph.edges[cell, n]["kinds"])
        d = distance(board, cell, centre)
        if d <= 4:
            assert kinds["orthogonal"] == 6, board.names[cell]
        if d <= 3:
            assert kinds["diagonal"] == 6, board.names[cell]
    f6 = board.index["f6"]
    orth = {n for n in board.graph[f6] if "orthogonal" in board.graph.edges[f6, n]["kinds"]}
    diag = {n for n in board.graph[f6] if "diagonal" in board.graph.edges[f6, n]["kinds"]}
    assert names(board, orth) == {"f7", "f5", "e6", "e5", "g6", "g5"}
    assert names(board, diag) == {"e7", "g7", "d5", "h5", "e4", "g4"}


def test_corners_have_three_edge_neighbours(board: Board) -> None:
    for corner in ("a1", "a6", "f1", "f11", "l1", "l6"):
        c = board.index[corner]
        orth = [n for n in board.graph[c] if "orthogonal" in board.graph.edges[c, n]["kinds"]]
        assert len(orth) == 3, corner
    a1 = board.index["a1"]
    assert names(board, board.graph[a1]) == {"a2", "b1", "b2", "b3", "c2"}


def test_connected(board: Board) -> None:
    assert nx.is_connected(board.graph)
    orth = board.graph.edge_subgraph(
        [(a, b) for a, b, k in board.graph.edges(data="kinds") if "orthogonal" in k])
    assert orth.number_of_nodes() == 91 and nx.is_connected(orth)


# -- colours -----------------------------------------------------------------------
def test_three_colours(board: Board) -> None:
    assert sorted(Counter(board.colours).values()) == [30, 30, 31]
    assert board.colours[board.index["f6"]] == 0  # the centre's colour has 31 cells
    # Gliński's three bishops f1, f2, f3 stand on the three colours.
    assert {board.colours[board.index[c]] for c in ("f1", "f2", "f3")} == {0, 1, 2}
    for a, b, kinds in board.graph.edges(data="kinds"):
        same = board.colours[a] == board.colours[b]
        assert same == ("diagonal" in kinds)


# -- lines -------------------------------------------------------------------------
def test_rays_from_the_centre(board: Board) -> None:
    rook, bishop = reach(board, "f6", "orthogonal"), reach(board, "f6", "diagonal")
    assert len(rook) == 30 and len(bishop) == 12 and len(reach(board, "f6", "all")) == 42
    topo, f6 = board.topology, board.index["f6"]
    line = [board.names[c] for c in topo.rays(f6, topo.directions("n", "n")[0])[0]]
    assert line == ["f7", "f8", "f9", "f10", "f11"]
    line = [board.names[c] for c in topo.rays(f6, topo.directions("ne", "n")[0])[0]]
    assert line == ["g6", "h6", "i6", "k6", "l6"]
    line = [board.names[c] for c in topo.rays(f6, topo.directions("sw", "n")[0])[0]]
    assert line == ["e5", "d4", "c3", "b2", "a1"]
    line = [board.names[c] for c in topo.rays(f6, topo.directions("e", "n")[0])[0]]
    assert line == ["h5", "k4"]
    line = [board.names[c] for c in topo.rays(f6, topo.directions("nne", "n")[0])[0]]
    assert line == ["g7", "h8"]
    line = [board.names[c] for c in topo.rays(f6, topo.directions("ssw", "n")[0])[0]]
    assert line == ["e4", "d2"]


def test_rays_from_edges(board: Board) -> None:
    assert len(reach(board, "a1", "orthogonal")) == 20   # up the file, and two edges
    assert reach(board, "f1", "diagonal") == {"g2", "h3", "i4", "k5", "l6",
                                              "e2", "d3", "c4", "b5", "a6"}
    topo, a1 = board.topology, board.index["a1"]
    assert topo.rays(a1, topo.directions("s", "n")[0]) == []


def test_relative_directions() -> None:
    topo = HexTopology(6)
    assert topo.directions("forward", "n") == [(0, 1)]
    assert set(topo.directions("forward-oblique", "n")) == {(1, 0), (-1, 1)}      # ne, nw
    assert set(topo.directions("forward-oblique", "s")) == {(1, -1), (-1, 0)}     # se, sw
    assert set(topo.directions("forward-diagonal", "n")) == {(1, 1), (-1, 2)}     # nne, nnw
    assert set(topo.directions("sideways", "n")) == {(2, -1), (-2, 1)}            # e, w
    assert set(topo.directions("backward-oblique", "n")) == {(1, -1), (-1, 0)}
    assert topo.directions("backward", "s") == [(0, 1)]
    # A vector is written for a side moving n; Black's is its mirror image.
    assert topo.directions([1, 1], "n") == [(1, 1)]
    assert topo.directions([1, 1], "s") == [(1, -2)]          # nne -> sse
    assert topo.directions([0, 1], "ne") == [(1, 0)]          # n -> ne
    assert set(topo.forward_names()) == {"n", "nne", "ne", "e", "se", "sse",
                                         "s", "ssw", "sw", "w", "nw", "nnw"}


def test_unknown_direction() -> None:
    with pytest.raises(DeclarationError, match=r"did you mean .forward.\?") as exc:
        HexTopology(6).directions("forwards", "n")
    assert exc.value.rule == "unknown-direction"
    with pytest.raises(DeclarationError):
        HexTopology(6).directions([1, 2, 3], "n")


# -- leaps -------------------------------------------------------------------------
def test_knight_from_the_centre(board: Board) -> None:
    knight = leaps(board, "f6", [1, 2])
    assert knight == {"d7", "e8", "g8", "h7", "i5", "i4", "h3", "g3", "e3", "d3", "c4", "c5"}
    assert leaps(board, "f6", [2, 1]) == knight
    # The 12 cells three steps away that no line from f6 passes.
    f6 = board.index["f6"]
    ring = {board.names[c] for c in range(board.size) if distance(board, c, f6) == 3}
    assert knight == ring - reach(board, "f6", "all")


def test_knight_from_edges(board: Board) -> None:
    assert leaps(board, "f1", [1, 2]) == {"d2", "e3", "g3", "h2"}
    assert leaps(board, "a1", [1, 2]) == {"b4", "c4", "d3", "d2"}


def test_other_leaps(board: Board) -> None:
    # [1, 1]: one step, then one at 60 degrees: the diagonal neighbours.
    assert leaps(board, "f6", [1, 1]) == {"e7", "g7", "d5", "h5", "e4", "g4"}
    assert leaps(board, "f6", [2, 0]) == {"f8", "f4", "d4", "h4", "d6", "h6"}
    assert leaps(board, "f6", [[0, 1]]) == {"f7"}
    assert leaps(board, "f6", [[0, 1]], "s") == {"f5"}
    with pytest.raises(DeclarationError):
        board.topology.leaps(0, [1, 2, 3], "n")


# -- regions -----------------------------------------------------------------------
def test_regions(board: Board) -> None:
    topo = board.topology
    assert len(topo.region({"files": ["f"]})) == 11
    assert len(topo.region({"files": [6]})) == 11
    assert len(topo.region({"ranks": [1]})) == 11
    assert names(board, topo.region({"ranks": [7]})) == {
        "b7", "c7", "d7", "e7", "f7", "g7", "h7", "i7", "k7"}
    assert names(board, topo.region({"ranks": [11]})) == {"f11"}
    assert names(board, topo.region({"files": ["a", "l"], "ranks": [6]})) == {"a6", "l6"}
    for bad in ({"files": ["j"]}, {"ranks": [12]}, {"rings": [1]}):
        with pytest.raises(DeclarationError):
            topo.region(bad)


# -- position-string layout --------------------------------------------------------
def test_layout_rows_are_ranks_from_the_top(board: Board) -> None:
    (rows,) = board.layout
    assert [len(r) for r in rows] == [1, 3, 5, 7, 9, 11, 11, 11, 11, 11, 11]
    assert [board.names[c] for c in rows[1]] == ["e10", "f10", "g10"]
    assert [board.names[c] for c in rows[-1]] == [f"{f}1" for f in FILES]
    assert sorted(c for r in rows for c in r) == list(range(91))
    _title, row_labels, col_labels = board.labels[0]
    assert row_labels[0] == "f11" and row_labels[-1] == "a1"
    assert col_labels == list(FILES)


def test_smallest_board() -> None:
    board = HexTopology(2).build()
    assert set(board.names) == {"a1", "a2", "b1", "b2", "b3", "c1", "c2"}
    b2 = board.index["b2"]
    assert len(board.graph[b2]) == 6  # all orthogonal, no diagonal room


# -- other hexagons and other names -----------------------------------------------
SHAFRAN_LENGTHS = dict(zip("abcdefghi", [6, 7, 8, 9, 10, 9, 8, 7, 6], strict=True))


def test_six_equal_sides_are_the_regular_board(board: Board) -> None:
    other = HexTopology(sides=[6] * 6).build()
    assert other.names == board.names and other.coords == board.coords
    assert other.layout == board.layout and other.colours == board.colours


def test_shafran_hexagon_numbered_along_falling_lines() -> None:
    board = HexTopology(sides=[6, 5, 5, 6, 5, 5], ranks="se").build()
    assert board.size == 70
    # Files of 6 to 10 cells; ranks run down to the right, so file f starts
    # at f2 (beside e1, the lowest cell) and file i at i5.
    firsts = {"a": 1, "b": 1, "c": 1, "d": 1, "e": 1, "f": 2, "g": 3, "h": 4, "i": 5}
    assert set(board.names) == {f"{f}{firsts[f] + k}" for f, n in SHAFRAN_LENGTHS.items()
                                for k in range(n)}
    at = {name: board.coords[i] for i, name in enumerate(board.names)}
    # A rank is a line of se steps: a1 b1 c1 d1 e1, and e10 .. i10.
    assert [at[f"{f}1"] for f in "abcde"] == [(at["a1"][0] + k, at["a1"][1] - k)
                                              for k in range(5)]
    assert at["f2"] == (at["e1"][0] + 1, at["e1"][1])  # ne of e1
    assert [len(row) for row in board.layout[0]] == [5, 6, 7, 8, 9, 9, 8, 7, 6, 5]
    assert board.names[board.layout[0][0][0]] == "e10"
    assert [board.names[c] for c in board.layout[0][-1]] == ["a1", "b1", "c1", "d1", "e1"]
    # Three colours, and the lines still cross the whole board.
    assert sorted(Counter(board.colours).values()) == [23, 23, 24]
    assert reach(board, "e1", "orthogonal") >= {"a1", "e10", "i5"}


def test_ranks_along_rising_lines_and_declared_file_names() -> None:
    board = HexTopology(sides=[3, 2, 2, 3, 2, 2], files=["x", "yy", "z"], ranks="ne").build()
    assert board.size == 3 + 4 + 3
    at = {name: board.coords[i] for i, name in enumerate(board.names)}
    # Rank 1 is the lowest rising line, yy1 and z1 (file x starts on rank 2),
    # and each rank rises to the right: x2 yy2 z2.
    assert board.names[:2] == ["yy1", "z1"]
    x, r = at["x2"]
    assert at["yy2"] == (x + 1, r) and at["z2"] == (x + 2, r)
    assert {n[:-1] for n in board.names} == {"x", "yy", "z"}
    region = board.topology.region({"files": ["yy"], "ranks": [2]})
    assert names(board, region) == {"yy2"}


def test_region_selectors_use_the_declared_names() -> None:
    board = HexTopology(sides=[6, 5, 5, 6, 5, 5], ranks="se").build()
    assert names(board, board.topology.region({"ranks": [10]})) == {
        f"{f}10" for f in "efghi"}
    assert names(board, board.topology.region({"files": ["i"]})) == {
        f"i{r}" for r in range(5, 11)}
    with pytest.raises(DeclarationError, match="rank '11'"):
        board.topology.region({"ranks": [11]})


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"sides": [6, 5, 5, 6, 5, 4]}, "do not close"),
    ({"sides": [6, 5, 5, 6, 5]}, "six lengths"),
    ({"sides": [0, 5, 5, 6, 5, 5]}, "six lengths"),
    ({"sides": [3] * 6, "files": ["a", "b"]}, "names 2 files"),
    ({"sides": [3] * 6, "files": ["a", "b1", "c", "d", "e"]}, "without digits"),
    ({"sides": [3] * 6, "files": ["a", "b", "a", "d", "e"]}, "given twice"),
    ({"sides": [3] * 6, "ranks": "sw"}, "numbered along"),
    ({"side": 3, "sides": [3] * 6}, "not both"),
    ({"sides": [14] * 6}, "needs `files:` names"),
])
def test_bad_hexagons(kwargs: dict[str, Any], match: str) -> None:
    with pytest.raises(DeclarationError, match=match):
        HexTopology(**kwargs)


HEX_VARIANT = """variantkit: 1
name: small-hex
board:
  hex: {BOARD}
sides:
  white: {forward: n}
  black: {forward: s}
pieces:
  king: {letter: K, royal: true, moves: [{step: all}]}
setup: SETUP w - - 0 1
end: {checkmate: loss, stalemate: draw}
"""


def test_declared_board_loads_and_writes_positions(tmp_path: Path) -> None:
    text = HEX_VARIANT.replace("{BOARD}", "{sides: [2, 2, 2, 2, 2, 2], files: pqr, ranks: se}") \
        .replace("SETUP", "1k/3/K1")
    path = tmp_path / "v.yaml"
    path.write_text(text, encoding="utf-8")
    variant = variantkit.load(str(path))
    assert variant.problems == []
    # Ranks run down to the right: q3 r3 on top, p2 q2 r2, then p1 q1.
    game = variant.new_game()
    assert game.piece_at("r3") == "k" and game.piece_at("p1") == "K"
    assert game.fen() == "1k/3/K1 w - - 0 1"
    assert variant.board.names[variant.board.layout[0][1][0]] == "p2"


@pytest.mark.parametrize(("board", "line", "rule"), [
    ("{sides: [2, 2, 2, 2, 2, 3]}", 4, "board-size"),
    ("{sides: [2, 2, 2, 2, 2, 2], files: [p, q, q]}", 4, "bad-board"),
])
def test_bad_declarations_are_located(tmp_path: Path, board: str, line: int, rule: str) -> None:
    path = tmp_path / "v.yaml"
    path.write_text(HEX_VARIANT.replace("{BOARD}", board).replace("SETUP", "1k/3/K1"),
                    encoding="utf-8")
    with pytest.raises(VariantError) as exc:
        variantkit.load(str(path))
    found = [(p.line, p.rule) for p in exc.value.problems]
    assert found[0] == (line, rule), found


def test_a_graph_from_a_hex_board_keeps_its_declared_names() -> None:
    from variantkit.board import build_board

    graph = build_board({"graph": {"from": {"hex": {"sides": [6, 5, 5, 6, 5, 5], "ranks": "se"}},
                                   "remove-cells": ["e5"]}})
    plain = HexTopology(sides=[6, 5, 5, 6, 5, 5], ranks="se").build()
    assert set(graph.names) == set(plain.names) - {"e5"}
    with pytest.raises(DeclarationError) as exc:
        build_board({"graph": {"from": {"hex": {"sides": [6, 5, 5, 6, 5, 4]}}}})
    assert exc.value.where == ("graph", "from", "hex", "sides")


def test_huge_sides_are_refused_before_the_cells_are_listed() -> None:
    with pytest.raises(DeclarationError, match="at most 1,024 cells") as exc:
        HexTopology(sides=[10_000, 5_000, 5_000, 10_000, 5_000, 5_000])
    assert exc.value.rule == "board-size"
