"""The `grid` topology: files x ranks, optionally stacked in planes.

Cells are named file letter + rank number (`e4`), with a plane letter in
front when there is more than one plane (`Be4`).  Directions are coordinate
vectors (file, rank, plane); lines go straight on until they leave the board.
"""

from __future__ import annotations

import string
from typing import Any

import networkx as nx

from variantkit.board.base import Board, Ray
from variantkit.errors import DeclarationError

Vector = tuple[int, int, int]

NAMED: dict[str, Vector] = {
    "n": (0, 1, 0), "s": (0, -1, 0), "e": (1, 0, 0), "w": (-1, 0, 0),
    "ne": (1, 1, 0), "nw": (-1, 1, 0), "se": (1, -1, 0), "sw": (-1, -1, 0),
    "up": (0, 0, 1), "down": (0, 0, -1),
}
FAMILIES: dict[str, list[str]] = {
    "orthogonal": ["n", "e", "s", "w"],
    "diagonal": ["ne", "nw", "se", "sw"],
    "all": ["n", "e", "s", "w", "ne", "nw", "se", "sw"],
    "vertical": ["up", "down"],
}
# Direction words that depend on which way a side moves.
RELATIVE = ("forward", "backward", "sideways", "forward-diagonal", "backward-diagonal")


def _negate(v: Vector) -> Vector:
    return (-v[0], -v[1], -v[2])


def _add(a: Vector, b: Vector) -> Vector:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


class GridTopology:
    """Rectangular boards, one or more planes."""

    def __init__(self, files: int, ranks: int, planes: int = 1,
                 plane_names: list[str] | None = None) -> None:
        if files > 26:
            raise DeclarationError("a grid has at most 26 files (a-z)", "board-size")
        self.files, self.ranks, self.planes = files, ranks, planes
        names = plane_names or list(string.ascii_uppercase[:planes])
        if len(names) != planes:
            raise DeclarationError(
                f"plane-names lists {len(names)} names for {planes} planes", "board-size")
        self.plane_names = names if planes > 1 else [""]

    # -- cells ---------------------------------------------------------------
    def _index(self, f: int, r: int, p: int) -> int | None:
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
        graph = nx.Graph()
        graph.add_nodes_from(range(len(names)))
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
                     layout=layout, labels=labels, topology=self)

    # -- directions ----------------------------------------------------------
    def forward_names(self) -> list[str]:
        return list(NAMED)

    def _orient(self, v: Vector, forward: str | None) -> Vector:
        """Map a vector written from White's side (forward = +rank) onto a
        side whose forward is `forward`: the forward axis flips sign."""
        fwd = NAMED[forward or "n"]
        return (v[0] * (fwd[0] or 1), v[1] * (fwd[1] or 1), v[2] * (fwd[2] or 1)) \
            if -1 in fwd else v

    def _sideways(self, forward: Vector) -> list[Vector]:
        return [NAMED[n] for n in FAMILIES["orthogonal"] + FAMILIES["vertical"]
                if NAMED[n] != forward and NAMED[n] != _negate(forward)
                and NAMED[n][2] == 0]

    def directions(self, spec: Any, forward: str | None) -> list[Vector]:
        if isinstance(spec, list):
            if len(spec) not in (2, 3) or not all(isinstance(x, int) for x in spec):
                raise DeclarationError(f"a direction vector is [x, y] or [x, y, z], got {spec}",
                                       "bad-direction")
            vec = (spec[0], spec[1], spec[2] if len(spec) == 3 else 0)
            return [self._orient(vec, forward)]
        if spec in FAMILIES:
            return [NAMED[n] for n in FAMILIES[spec]]
        if spec in NAMED:
            return [NAMED[spec]]
        fwd = NAMED[forward or "n"]
        side = self._sideways(fwd)
        if spec == "forward":
            return [fwd]
        if spec == "backward":
            return [_negate(fwd)]
        if spec == "sideways":
            return side
        if spec == "forward-diagonal":
            return [_add(fwd, s) for s in side]
        if spec == "backward-diagonal":
            return [_add(_negate(fwd), s) for s in side]
        known = sorted(FAMILIES) + sorted(NAMED) + list(RELATIVE)
        raise DeclarationError(
            f"unknown direction '{spec}' on a grid (known: {', '.join(known)})",
            "unknown-direction")

    def rays(self, cell: int, direction: Vector) -> list[Ray]:
        f, r, p = self._coords(cell)
        out: list[int] = []
        while True:
            f, r, p = f + direction[0], r + direction[1], p + direction[2]
            nxt = self._index(f, r, p)
            if nxt is None:
                break
            out.append(nxt)
        return [tuple(out)] if out else []

    def leaps(self, cell: int, spec: Any, forward: str | None) -> list[int]:
        f, r, p = self._coords(cell)
        targets = []
        for v in self._leap_vectors(spec, forward):
            t = self._index(f + v[0], r + v[1], p + v[2])
            if t is not None:
                targets.append(t)
        return targets

    def _leap_vectors(self, spec: Any, forward: str | None) -> set[Vector]:
        if len(spec) == 2 and all(isinstance(x, int) for x in spec):
            a, b = spec
            return {(sx * x, sy * y, 0) for x, y in ((a, b), (b, a))
                    for sx in (1, -1) for sy in (1, -1)}
        return {self.directions(list(v), forward)[0] for v in spec}

    def _coords(self, cell: int) -> Vector:
        f = cell % self.files
        rest = cell // self.files
        return f, rest % self.ranks, rest // self.ranks

    def shift_plane(self, cell: int, planes: int) -> int | None:
        """The same file and rank `planes` planes up (down if negative)."""
        f, r, p = self._coords(cell)
        return self._index(f, r, p + planes)

    # -- regions -------------------------------------------------------------
    def region(self, spec: dict[str, Any]) -> set[int]:
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
