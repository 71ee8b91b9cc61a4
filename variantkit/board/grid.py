"""The `grid` topology: files x ranks, optionally stacked in planes.

Cells are named file letter + rank number (`e4`), with a plane letter in
front when there is more than one plane (`Be4`).  Directions are coordinate
vectors (file, rank, plane); lines go straight on until they leave the board.

Direction names:

- single steps: the eight in-plane names `n` `s` `e` `w` `ne` `nw` `se` `sw`,
  `up` and `down`, and every in-plane name joined to a vertical one, such as
  `n-up` (0, 1, 1) or `sw-down` (-1, -1, -1): 26 names, one per direction of
  a cube's cell towards its neighbours;
- in-plane families: `orthogonal` (4), `diagonal` (4), `all` (8), and
  `vertical` (up, down);
- space families, by how many coordinates a step changes: `orthogonal-3d`
  (one: the 6 faces), `biagonal` (two: the 12 edges, the in-plane diagonals
  included), `triagonal` (three: the 8 corners) and `all-3d` (all 26);
- relative words (`forward`, `sideways`, ...) built from a side's forward.

A side's forward may be any single-step name.  Vectors are written from
White's side (forward +rank) and mirrored, for a side whose forward has a
negative component, in each such axis: forward `s-down` mirrors both the rank
and the plane, for a side that advances towards lower ranks and planes.

`wrap` joins opposite edges: `files` (a cylinder: the file after the last
is the first), `ranks`, or `both` (a torus).  Lines, steps and leaps then go
across the seam; a line stops before it would come back to its own cell.

`leap: [a, b]` is every (+-a, +-b) and (+-b, +-a) offset in the plane;
`leap: [a, b, c]` is every permutation of (a, b, c) with every sign, in space
(`[0, 1, 2]`: the 24 jumps of a knight in any plane through its cell).
"""

from __future__ import annotations

import itertools
import string
from typing import Any

from variantkit.board.base import (
    Board,
    Ray,
    RegionSelector,
    cell_graph,
    check_cell_count,
    unknown_direction,
)
from variantkit.errors import DeclarationError

Vector = tuple[int, int, int]

PLANAR: dict[str, Vector] = {
    "n": (0, 1, 0), "s": (0, -1, 0), "e": (1, 0, 0), "w": (-1, 0, 0),
    "ne": (1, 1, 0), "nw": (-1, 1, 0), "se": (1, -1, 0), "sw": (-1, -1, 0),
}
NAMED: dict[str, Vector] = {
    **PLANAR, "up": (0, 0, 1), "down": (0, 0, -1),
    **{f"{name}-{vertical}": (x, y, z) for name, (x, y, _) in PLANAR.items()
       for vertical, z in (("up", 1), ("down", -1))},
}


def _changing(count: int) -> list[str]:
    """The single-step names that change `count` coordinates."""
    return [name for name, v in NAMED.items() if sum(map(abs, v)) == count]


FAMILIES: dict[str, list[str]] = {
    "orthogonal": ["n", "e", "s", "w"],
    "diagonal": ["ne", "nw", "se", "sw"],
    "all": ["n", "e", "s", "w", "ne", "nw", "se", "sw"],
    "vertical": ["up", "down"],
    "orthogonal-3d": _changing(1),
    "biagonal": _changing(2),
    "triagonal": _changing(3),
    "all-3d": list(NAMED),
}
# Direction words that depend on which way a side moves.
RELATIVE = ("forward", "backward", "sideways", "forward-diagonal", "backward-diagonal")


def _negate(v: Vector) -> Vector:
    return (-v[0], -v[1], -v[2])


def _add(a: Vector, b: Vector) -> Vector:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


WRAPS: dict[str, tuple[str, ...]] = {
    "none": (), "files": ("files",), "ranks": ("ranks",), "both": ("files", "ranks")}


class GridTopology:
    """Rectangular boards, one or more planes, optionally wrapped."""

    grid_like = True

    def __init__(self, files: int, ranks: int, planes: int = 1,
                 plane_names: list[str] | None = None, wrap: str = "none") -> None:
        if files > 26:
            raise DeclarationError("a grid has at most 26 files (a-z)", "board-size")
        check_cell_count(files * ranks * planes, f"{files}x{ranks}x{planes} grid"
                         if planes > 1 else f"{files}x{ranks} grid")
        self.files, self.ranks, self.planes = files, ranks, planes
        self.wraps = WRAPS[wrap]
        for axis, count in (("files", files), ("ranks", ranks)):
            if axis in self.wraps and count < 3:
                raise DeclarationError(
                    f"wrapped {axis} need at least 3 of them, got {count}", "board-size")
        names = plane_names or list(string.ascii_uppercase[:planes])
        if len(names) != planes or len(set(names)) != planes:
            raise DeclarationError(
                f"plane-names must list {planes} different names, got {names}", "board-size")
        self.plane_names = names if planes > 1 else [""]

    # -- cells ---------------------------------------------------------------
    def _index(self, f: int, r: int, p: int) -> int | None:
        if "files" in self.wraps:
            f %= self.files
        if "ranks" in self.wraps:
            r %= self.ranks
        if 0 <= f < self.files and 0 <= r < self.ranks and 0 <= p < self.planes:
            return (p * self.ranks + r) * self.files + f
        return None

    def build(self) -> Board:
        names: list[str] = []
        coords: list[tuple[int, ...]] = []
        for p in range(self.planes):
            for r in range(self.ranks):
                for f in range(self.files):
                    names.append(f"{self.plane_names[p]}{string.ascii_lowercase[f]}{r + 1}")
                    coords.append((f, r, p))
        graph = cell_graph(len(names))
        for i, (f, r, p) in enumerate(coords):
            for name in FAMILIES["all"] + FAMILIES["vertical"]:
                df, dr, dp = NAMED[name]
                j = self._index(f + df, r + dr, p + dp)
                if j is not None:
                    kind = "diagonal" if df and dr else "orthogonal"
                    graph.add_edge(i, j, kinds=frozenset({kind}))
        layout = [
            [[(p * self.ranks + r) * self.files + f for f in range(self.files)]
             for r in reversed(range(self.ranks))]
            for p in range(self.planes)
        ]
        colours = [(f + r) % 2 for f, r, _ in coords]
        files = list(string.ascii_lowercase[:self.files])
        ranks = [str(r + 1) for r in reversed(range(self.ranks))]
        labels = [(f"plane {name}" if name else "", ranks, files) for name in self.plane_names]
        return Board(names=names, coords=coords, graph=graph, colours=colours,
                     layout=layout, labels=labels, topology=self, wraps=self.wraps)

    # -- directions ----------------------------------------------------------
    def forward_names(self) -> list[str]:
        return list(NAMED)

    def single_directions(self) -> dict[str, tuple[Vector, str, str]]:
        """Each single-step name: its key, its kind (orthogonal when one
        coordinate changes) and its opposite's name."""
        by_vector = {v: name for name, v in NAMED.items()}
        return {name: (v, "orthogonal" if sum(map(abs, v)) == 1 else "diagonal",
                       by_vector[_negate(v)]) for name, v in NAMED.items()}

    def _orient(self, v: Vector, forward: str | None) -> Vector:
        """Map a vector written from White's side (forward = +rank) onto a
        side whose forward is `forward`: every axis in which that forward
        points negative flips sign (`s`: the rank; `s-down`: rank and plane)."""
        fwd = NAMED[forward or "n"]
        return (v[0] * (fwd[0] or 1), v[1] * (fwd[1] or 1), v[2] * (fwd[2] or 1)) \
            if -1 in fwd else v

    def _sideways(self, forward: Vector) -> list[Vector]:
        """The in-plane orthogonal directions square to `forward`."""
        return [NAMED[n] for n in FAMILIES["orthogonal"]
                if sum(a * b for a, b in zip(NAMED[n], forward, strict=True)) == 0]

    def directions(self, spec: Any, forward: str | None) -> list[Vector]:
        if isinstance(spec, list):
            if len(spec) not in (2, 3) or not all(isinstance(x, int) for x in spec):
                raise DeclarationError(f"a direction vector is [x, y] or [x, y, z], got {spec}",
                                       "bad-direction")
            vec = (spec[0], spec[1], spec[2] if len(spec) == 3 else 0)
            if vec == (0, 0, 0):
                raise DeclarationError("a direction vector cannot be zero", "bad-direction")
            return [self._orient(vec, forward)]
        if spec in FAMILIES:
            return [NAMED[n] for n in FAMILIES[spec]]
        if spec in NAMED:
            return [NAMED[spec]]
        fwd = NAMED[forward or "n"]
        if spec == "forward":
            return [fwd]
        if spec == "backward":
            return [_negate(fwd)]
        if fwd[0] and fwd[1] and not fwd[2]:
            # A diagonal forward (nw): the words turn with it, 45 degrees
            # either side (n, w), 90 (ne, sw) and 135 (s, e).
            half = [(fwd[0], 0, 0), (0, fwd[1], 0)]
            if spec == "sideways":
                return [(fwd[1], -fwd[0], 0), (-fwd[1], fwd[0], 0)]
            if spec == "forward-diagonal":
                return half
            if spec == "backward-diagonal":
                return [_negate(v) for v in half]
        side = self._sideways(fwd)
        if spec == "sideways":
            return side
        if spec == "forward-diagonal":
            return [_add(fwd, s) for s in side]
        if spec == "backward-diagonal":
            return [_add(_negate(fwd), s) for s in side]
        raise unknown_direction(spec, "grid", sorted(FAMILIES) + list(RELATIVE), list(NAMED))

    def rays(self, cell: int, direction: Vector) -> list[Ray]:
        f, r, p = self._coords(cell)
        out: list[int] = []
        while True:
            f, r, p = f + direction[0], r + direction[1], p + direction[2]
            nxt = self._index(f, r, p)
            if nxt is None or nxt == cell:  # off the board, or round to the start
                break
            out.append(nxt)
        return [tuple(out)] if out else []

    def leaps(self, cell: int, spec: Any, forward: str | None) -> list[int]:
        f, r, p = self._coords(cell)
        targets: dict[int, None] = {}  # across a seam two jumps may land alike
        for v in self._leap_vectors(spec, forward):
            t = self._index(f + v[0], r + v[1], p + v[2])
            if t is not None and t != cell:
                targets[t] = None
        return list(targets)

    def _leap_vectors(self, spec: Any, forward: str | None) -> set[Vector]:
        if all(isinstance(x, int) for x in spec):
            if len(spec) == 2:
                a, b = spec
                return {(sx * x, sy * y, 0) for x, y in ((a, b), (b, a))
                        for sx in (1, -1) for sy in (1, -1)}
            # [a, b, c]: every permutation with every sign, in space.
            return {(sx * x, sy * y, sz * z) for x, y, z in itertools.permutations(spec)
                    for sx in (1, -1) for sy in (1, -1) for sz in (1, -1)}
        return {self.directions(list(v), forward)[0] for v in spec}

    def _coords(self, cell: int) -> Vector:
        f = cell % self.files
        rest = cell // self.files
        return f, rest % self.ranks, rest // self.ranks

    def position(self, cell: int) -> tuple[float, float]:
        """Where a cell is drawn as part of a graph: planes side by side."""
        f, r, p = self._coords(cell)
        return float(f + p * (self.files + 1)), float(r)

    def plane_of(self, cell: int) -> int | None:
        return self._coords(cell)[2] if self.planes > 1 else None

    def shift_plane(self, cell: int, planes: int) -> int | None:
        """The same file and rank `planes` planes up (down if negative)."""
        f, r, p = self._coords(cell)
        return self._index(f, r, p + planes)

    # -- regions -------------------------------------------------------------
    def region(self, spec: RegionSelector) -> set[int]:
        unknown = set(spec) - {"files", "ranks", "planes"}
        if unknown:
            raise DeclarationError(
                f"a grid region selects by files, ranks, planes or cells, not {sorted(unknown)}",
                "bad-region")
        files = {self._file_number(x) for x in spec.get("files", [])} or set(range(self.files))
        ranks = {self._rank_number(x) for x in spec.get("ranks", [])} or set(range(self.ranks))
        planes = {self._plane_number(x) for x in spec.get("planes", [])} or set(range(self.planes))
        return {i for f in files for r in ranks for p in planes
                if (i := self._index(f, r, p)) is not None}

    def _file_number(self, x: Any) -> int:
        n = string.ascii_lowercase.index(x) if isinstance(x, str) and len(x) == 1 \
            and x in string.ascii_lowercase else (x - 1 if isinstance(x, int) else -1)
        if not 0 <= n < self.files:
            raise DeclarationError(f"no file '{x}' on this board", "unknown-cell")
        return n

    def _rank_number(self, x: Any) -> int:
        if not isinstance(x, int) or not 1 <= x <= self.ranks:
            raise DeclarationError(f"no rank '{x}' on this board", "unknown-cell")
        return x - 1

    def _plane_number(self, x: Any) -> int:
        if x not in self.plane_names or self.planes == 1:
            raise DeclarationError(f"no plane '{x}' on this board", "unknown-cell")
        return self.plane_names.index(x)
