"""Space directions and leaps on a stacked grid, on a bare board.

The families `orthogonal-3d`, `biagonal`, `triagonal` and `all-3d`, the 26
single-step names, `leap: [a, b, c]`, and how vectors are mirrored for a side
whose forward points down as well as back.  The expected counts are worked
out by hand in the comments; the centre of a 5x5x5 grid has two cells on each
side along every line, so a rider there reaches twice its direction count.
"""

from __future__ import annotations

import itertools

import pytest

from variantkit.board.base import Board
from variantkit.board.grid import FAMILIES, NAMED, GridTopology
from variantkit.errors import DeclarationError

CUBE = GridTopology(5, 5, 5)
BOARD: Board = CUBE.build()
CENTRE = BOARD.cell("Cc3")
CORNER = BOARD.cell("Aa1")


def changed(v: tuple[int, int, int]) -> int:
    return sum(1 for x in v if x)


def ridden(cell: int, family: str, forward: str | None = None) -> set[int]:
    """Cells a rider of the family reaches from `cell` on the empty board."""
    return {c for d in CUBE.directions(family, forward) for ray in CUBE.rays(cell, d) for c in ray}


def stepped(cell: int, family: str) -> set[int]:
    return {ray[0] for d in CUBE.directions(family, None) for ray in CUBE.rays(cell, d)}


# -- names and families ---------------------------------------------------------------


def test_the_26_single_step_names() -> None:
    vectors = set(itertools.product((-1, 0, 1), repeat=3)) - {(0, 0, 0)}
    assert len(NAMED) == 26
    assert set(NAMED.values()) == vectors
    assert NAMED["n-up"] == (0, 1, 1)
    assert NAMED["sw-down"] == (-1, -1, -1)
    assert NAMED["e-down"] == (1, 0, -1)


@pytest.mark.parametrize(("family", "size", "coordinates"), [
    ("orthogonal-3d", 6, 1),   # the faces of a cube
    ("biagonal", 12, 2),       # its edges: the 4 in-plane diagonals and 8 more
    ("triagonal", 8, 3),       # its corners
])
def test_space_families(family: str, size: int, coordinates: int) -> None:
    vectors = CUBE.directions(family, None)
    assert len(vectors) == len(set(vectors)) == size
    assert all(changed(v) == coordinates for v in vectors)
    # Closed under reversal: a rider goes both ways along each line.
    assert {(-x, -y, -z) for x, y, z in vectors} == set(vectors)


def test_all_3d_is_the_three_space_families() -> None:
    union = [v for f in ("orthogonal-3d", "biagonal", "triagonal")
             for v in CUBE.directions(f, None)]
    assert sorted(union) == sorted(CUBE.directions("all-3d", None))
    assert len(union) == 26


def test_plane_families_are_unchanged() -> None:
    assert FAMILIES["orthogonal"] == ["n", "e", "s", "w"]
    assert set(CUBE.directions("diagonal", None)) < set(CUBE.directions("biagonal", None))
    assert set(CUBE.directions("all", None)) == {
        v for v in CUBE.directions("all-3d", None) if v[2] == 0}


def test_unknown_direction_suggests_or_names_the_new_ones() -> None:
    with pytest.raises(DeclarationError, match="unknown direction 'n-upp'") as info:
        CUBE.directions("n-upp", None)
    assert "did you mean 'n-up'?" in str(info.value)
    with pytest.raises(DeclarationError, match="unknown direction 'zzz'") as info:
        CUBE.directions("zzz", None)
    assert "triagonal" in str(info.value) and "sw-down" in str(info.value)


# -- riders and steps from the centre and a corner ---------------------------------------


@pytest.mark.parametrize(("family", "centre", "corner"), [
    ("orthogonal-3d", 12, 12),  # 6 x 2; corner: 3 lines of 4
    ("biagonal", 24, 12),       # 12 x 2; corner: 3 lines of 4 (one per face)
    ("triagonal", 16, 4),       # 8 x 2; corner: the long diagonal Aa1-Ee5
    ("all-3d", 52, 28),         # 26 x 2; corner: 7 lines of 4
])
def test_rider_counts(family: str, centre: int, corner: int) -> None:
    assert len(ridden(CENTRE, family)) == centre
    assert len(ridden(CORNER, family)) == corner


def test_king_steps_and_the_unicorn_line() -> None:
    assert len(stepped(CENTRE, "all-3d")) == 26   # every neighbour of the centre
    assert len(stepped(CORNER, "all-3d")) == 7    # 2 x 2 x 2 - 1
    assert {BOARD.names[c] for c in ridden(CORNER, "triagonal")} == {"Bb2", "Cc3", "Dd4", "Ee5"}


# -- leaps in space ---------------------------------------------------------------------


def leapt(cell: int, spec: list[int], board: Board = BOARD) -> set[str]:
    topo = board.topology
    return {board.names[c] for c in topo.leaps(cell, spec, None)}


@pytest.mark.parametrize(("spec", "vectors"), [
    ([0, 1, 2], 24),  # which axis is 0 (3) x order of 1 and 2 (2) x two signs (4)
    ([1, 1, 1], 8),   # the triagonal steps: permutations coincide
    ([0, 0, 1], 6),   # the orthogonal steps
    ([1, 1, 0], 12),  # the biagonal steps
    ([1, 2, 2], 24),  # 3 places for the 1 x 8 signs
    ([0, 0, 2], 6),
])
def test_leap_triples_from_the_centre(spec: list[int], vectors: int) -> None:
    assert len(leapt(CENTRE, spec)) == vectors


def test_knight_triple_in_detail() -> None:
    # From Aa1 only the all-positive permutations of (0, 1, 2) stay on the board.
    assert leapt(CORNER, [0, 1, 2]) == {"Ab3", "Ac2", "Ba3", "Bc1", "Ca2", "Cb1"}
    # From the centre it is the knight of each of the three planes through the
    # cell: 8 jumps in each, no jump shared.
    targets = leapt(CENTRE, [0, 1, 2])
    level = {t for t in targets if t[0] == "C"}
    assert level == leapt(CENTRE, [1, 2]) and len(level) == 8
    assert {t for t in targets if t[2] == "3"} == {"Ab3", "Ad3", "Ba3", "Be3",
                                                   "Da3", "De3", "Eb3", "Ed3"}


def test_leap_triple_on_a_flat_board_is_the_plane_leap() -> None:
    flat = GridTopology(8, 8).build()
    for cell in range(flat.size):
        assert leapt(cell, [0, 1, 2], flat) == leapt(cell, [1, 2], flat)


def test_leap_pair_stays_in_its_plane() -> None:
    assert all(t[0] == "C" for t in leapt(CENTRE, [1, 2]))
    assert len(leapt(CENTRE, [0, 2])) == 4


# -- orientation ------------------------------------------------------------------------


@pytest.mark.parametrize(("forward", "expected"), [
    ("n", (1, 2, 3)),
    ("n-up", (1, 2, 3)),
    ("s", (1, -2, 3)),
    ("down", (1, 2, -3)),
    ("s-down", (1, -2, -3)),   # ranks and planes both mirrored
    ("sw-down", (-1, -2, -3)),
])
def test_vectors_are_mirrored_in_every_backward_axis(
        forward: str, expected: tuple[int, int, int]) -> None:
    assert CUBE.directions([1, 2, 3], forward) == [expected]
    assert CUBE.directions([0, 1], forward)[0][2] == 0


def test_explicit_leap_vectors_are_mirrored_too() -> None:
    # [0, 1, 2]: one rank forward and two planes forward, for either side.
    assert leapt_oriented("Aa1", "n-up") == {"Ca2"}
    assert leapt_oriented("Ee5", "s-down") == {"Ce4"}
    assert leapt_oriented("Ee5", "n-up") == set()


def leapt_oriented(cell: str, forward: str) -> set[str]:
    return {BOARD.names[c] for c in CUBE.leaps(BOARD.cell(cell), [[0, 1, 2]], forward)}


def test_every_single_step_name_is_a_forward() -> None:
    assert set(CUBE.forward_names()) == set(NAMED)


@pytest.mark.parametrize(("forward", "sideways"), [
    ("n", {(1, 0, 0), (-1, 0, 0)}),
    ("up", {(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0)}),
    ("n-up", {(1, 0, 0), (-1, 0, 0)}),
    ("s-down", {(1, 0, 0), (-1, 0, 0)}),
])
def test_relative_words_with_a_space_forward(
        forward: str, sideways: set[tuple[int, int, int]]) -> None:
    assert set(CUBE.directions("sideways", forward)) == sideways
    fwd = NAMED[forward]
    assert CUBE.directions("forward", forward) == [fwd]
    assert set(CUBE.directions("forward-diagonal", forward)) == {
        (fwd[0] + x, fwd[1] + y, fwd[2] + z) for x, y, z in sideways}
