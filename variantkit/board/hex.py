"""The `hex` topology: a regular hexagon of hexagonal cells, `side` cells along
each edge (Gliński's 91-cell board for side 6), with vertical files.

Coordinates.  Cells are held in axial coordinates `(q, r)` centred on the
middle cell (`Board.coords`): `q` is the file's offset from the central file
(negative to the left), and one step `n` (up the file) adds 1 to `r`.  The
cells are those with max(|q|, |r|, |q + r|) <= side - 1.  The six
neighbours through a cell edge ("orthogonal") are

    n (0, 1)   ne (1, 0)   se (1, -1)   s (0, -1)   sw (-1, 0)   nw (-1, 1)

and the six cells touching a vertex, two cells away on the same colour
("diagonal"), are the sums of two adjacent orthogonal steps:

    nne (1, 1)   e (2, -1)   sse (1, -2)   ssw (-1, -1)   w (-2, 1)   nnw (-1, 2)

so going clockwise from `n` the twelve directions are 30 degrees apart:
n, nne, ne, e, se, sse, s, ssw, sw, w, nw, nnw.

Names.  Files are lettered a, b, ... without j (a-l on Gliński's board, f the
central one), ranks numbered from 1 at the bottom cell of each file: the
bottom vertex is f1, the centre f6, the top vertex f11, the corners a1, a6,
l1 and l6.  A rank is the bent line of cells with one number, as in
Gliński's notation.

Colours.  Three colours, (q - r) mod 3: colour 0 is the centre cell's; cells
sharing an edge differ, cells on one diagonal share a colour.

Position strings follow the convention of hexchess.club (Gliński FEN): rows
are the ranks from the top one (2 * side - 1) down to 1, each row listing its
cells from file a towards file l, rows separated by "/"; rows are of
different lengths (1, 3, 5, ... cells above rank `side`, then full rows of
2 * side - 1).  Gliński's start is
`b/qbk/n1b1n/r5r/ppppppppp/11/5P5/4P1P4/3P1B1P3/2P2B2P2/1PRNQBKNRP1`.
For drawing, each row is labelled with the name of its first cell.

Other hexagons.  `sides` gives the six edges' lengths in cells, clockwise
from the left edge (file a): left, upper-left, upper-right, right,
lower-right, lower-left; a regular board of side s is six times s.  The
cells are those between the three pairs of opposite edges: files (q) between
the left and right edges, lines of constant r between the lower-right and
upper-left edges, lines of constant q + r between the lower-left and
upper-right edges.  The edges close into a hexagon when upper-left +
upper-right = lower-right + lower-left (both count the files, plus one) and
left + lower-left = upper-right + right.  Coordinates are centred on the
middle of the files and of the r lines, rounded down where the middle falls
between two.

Other names.  `files` names the files from the left (any names without
digits; default a, b, ... without j), and `ranks` says which lines of cells
share a rank number: `file` (the default) numbers each file from 1 at its
bottom cell, as above; `ne` numbers the straight lines running up to the
right (constant r) and `se` those running down to the right (constant
q + r), each from 1 at the lowest line.  Position strings list the ranks from
the highest down, each from its leftmost cell, whichever lines they are.
"""

from __future__ import annotations

import math
from typing import Any

from variantkit.board.base import (
    Board,
    Flat,
    Ray,
    RegionSelector,
    cell_graph,
    check_cell_count,
    is_pair,
    unknown_direction,
)
from variantkit.errors import DeclarationError

Vector = tuple[int, int]

# File letters: the alphabet without j, as in hexagonal chess notation.
FILE_LETTERS = "abcdefghiklmnopqrstuvwxyz"

ORTHOGONAL: dict[str, Vector] = {
    "n": (0, 1), "ne": (1, 0), "se": (1, -1), "s": (0, -1), "sw": (-1, 0), "nw": (-1, 1),
}
DIAGONAL: dict[str, Vector] = {
    "nne": (1, 1), "e": (2, -1), "sse": (1, -2), "ssw": (-1, -1), "w": (-2, 1), "nnw": (-1, 2),
}
NAMED: dict[str, Vector] = {**ORTHOGONAL, **DIAGONAL}
# Clockwise from n, 30 degrees apart: orthogonal and diagonal alternate.
CLOCKWISE = ["n", "nne", "ne", "e", "se", "sse", "s", "ssw", "sw", "w", "nw", "nnw"]
FAMILIES: dict[str, list[str]] = {
    "orthogonal": list(ORTHOGONAL),
    "diagonal": list(DIAGONAL),
    "all": list(CLOCKWISE),
}
# Words relative to a side's forward direction, as turns of 30 degrees
# either way from it.  With forward `n`: forward-oblique is ne/nw (the
# Gliński pawn's captures), forward-diagonal nne/nnw, sideways e/w,
# backward-diagonal sse/ssw, backward-oblique se/sw, backward s.
RELATIVE: dict[str, tuple[int, ...]] = {
    "forward": (0,), "forward-diagonal": (1, -1), "forward-oblique": (2, -2),
    "sideways": (3, -3), "backward-oblique": (4, -4), "backward-diagonal": (5, -5),
    "backward": (6,),
}


def _add(a: Vector, b: Vector) -> Vector:
    return (a[0] + b[0], a[1] + b[1])


def _rotate(v: Vector) -> Vector:
    """`v` turned 60 degrees clockwise (n -> ne -> se -> s ...)."""
    return (v[0] + v[1], -v[0])


def _mirror(v: Vector) -> Vector:
    """`v` reflected top to bottom (n <-> s, ne <-> se, nne <-> sse ...)."""
    return (v[0], -v[0] - v[1])


# The lines that share a rank number (`ranks:`): each file from its bottom
# cell, or the straight lines running up or down to the right.
RANK_LINES = ("file", "ne", "se")
# The edges in `sides:`, clockwise from the left edge, with the direction
# each is walked in (so that the six walks close the hexagon).
EDGES: list[tuple[str, Vector]] = [
    ("left", ORTHOGONAL["n"]), ("upper-left", ORTHOGONAL["ne"]),
    ("upper-right", ORTHOGONAL["se"]), ("right", ORTHOGONAL["s"]),
    ("lower-right", ORTHOGONAL["sw"]), ("lower-left", ORTHOGONAL["nw"]),
]


class HexTopology(Flat):
    """A hexagon of hexagons: regular with `side` cells along each edge, or
    with the six edges' lengths in `sides`; files named by `files`, ranks
    numbered along the lines `ranks` says."""

    def __init__(self, side: int | None = None, *, sides: list[int] | None = None,
                 files: list[str] | None = None, ranks: str = "file") -> None:
        if sides is None:
            if side is None or not 2 <= side <= (len(FILE_LETTERS) + 1) // 2:
                raise DeclarationError(
                    f"a hex board's side is 2 to {(len(FILE_LETTERS) + 1) // 2}, got {side}",
                    "board-size", ("side",))
            sides = [side] * 6
        elif side is not None:
            raise DeclarationError("a hex board has a `side` or `sides`, not both", "bad-board")
        corners = _corners(sides)
        qs = [q for q, _ in corners]
        rs = [r for _, r in corners]
        ss = [q + r for q, r in corners]
        # Centred on the middle of the files and of the r lines.
        dq, dr = -((min(qs) + max(qs)) // 2), -((min(rs) + max(rs)) // 2)
        self.q_range = (min(qs) + dq, max(qs) + dq)
        self.r_range = (min(rs) + dr, max(rs) + dr)
        self.s_range = (min(ss) + dq + dr, max(ss) + dq + dr)
        # Counted file by file before any cell is listed: the sides may be large.
        check_cell_count(sum(min(self.r_range[1], self.s_range[1] - q) - self._bottom(q) + 1
                             for q in range(self.q_range[0], self.q_range[1] + 1)), "hex board")
        self.files = self.q_range[1] - self.q_range[0] + 1
        self.file_names = _file_names(files, self.files)
        if ranks not in RANK_LINES:
            raise DeclarationError(
                f"a hex board's ranks are numbered along {', '.join(RANK_LINES)}, not "
                f"'{ranks}'", "bad-board", ("ranks",))
        self.rank_lines = ranks
        coords = [(q, r) for r in range(self.r_range[0], self.r_range[1] + 1)
                  for q in range(self.q_range[0], self.q_range[1] + 1) if self._inside(q, r)]
        # Index order: rank 1 from file a, then rank 2, ... (like a grid).
        coords.sort(key=lambda c: (self._rank(*c), c[0]))
        self.coords: list[Vector] = coords
        self.by_coords: dict[Vector, int] = {c: i for i, c in enumerate(coords)}
        self.top_rank = max(self._rank(q, r) for q, r in coords)

    # -- cells ---------------------------------------------------------------
    def _inside(self, q: int, r: int) -> bool:
        return (self.q_range[0] <= q <= self.q_range[1] and self.r_range[0] <= r <= self.r_range[1]
                and self.s_range[0] <= q + r <= self.s_range[1])

    def _bottom(self, q: int) -> int:
        """The r of file q's bottom cell."""
        return max(self.r_range[0], self.s_range[0] - q)

    def _rank(self, q: int, r: int) -> int:
        if self.rank_lines == "ne":
            return r - self.r_range[0] + 1
        if self.rank_lines == "se":
            return q + r - self.s_range[0] + 1
        return r - self._bottom(q) + 1

    def file_name(self, q: int) -> str:
        return self.file_names[q - self.q_range[0]]

    def rank_of(self, cell: int) -> int:
        """The rank number of a cell, as its name writes it."""
        return self._rank(*self.coords[cell])

    def _name(self, q: int, r: int) -> str:
        return f"{self.file_name(q)}{self._rank(q, r)}"

    def _index(self, v: Vector) -> int | None:
        return self.by_coords.get(v)

    def build(self) -> Board:
        names = [self._name(q, r) for q, r in self.coords]
        graph = cell_graph(len(names))
        for i, c in enumerate(self.coords):
            for kind, vectors in (("orthogonal", ORTHOGONAL), ("diagonal", DIAGONAL)):
                for v in vectors.values():
                    j = self._index(_add(c, v))
                    if j is not None:
                        graph.add_edge(i, j, kinds=frozenset({kind}))
        colours = [(q - r) % 3 for q, r in self.coords]
        by_rank: dict[int, list[int]] = {}
        for i, (q, r) in enumerate(self.coords):
            by_rank.setdefault(self._rank(q, r), []).append(i)
        rows = [sorted(by_rank[rank], key=lambda i: self.coords[i][0])
                for rank in range(self.top_rank, 0, -1)]
        row_labels = [names[row[0]] for row in rows]
        files = list(self.file_names)
        return Board(names=names, coords=list(self.coords), graph=graph, colours=colours,
                     layout=[rows], labels=[("", row_labels, files)], topology=self)

    def position(self, cell: int) -> tuple[float, float]:
        """Where a cell is drawn as part of a graph: neighbours one apart."""
        q, r = self.coords[cell]
        return q * math.sqrt(3) / 2, r + q / 2

    # -- directions ----------------------------------------------------------
    def forward_names(self) -> list[str]:
        return list(CLOCKWISE)

    def single_directions(self) -> dict[str, tuple[Vector, str, str]]:
        """Each of the twelve names: its key, its kind and its opposite's name."""
        return {name: (NAMED[name], "orthogonal" if name in ORTHOGONAL else "diagonal",
                       CLOCKWISE[(i + 6) % 12]) for i, name in enumerate(CLOCKWISE)}

    def directions(self, spec: Any, forward: str | None) -> list[Vector]:
        if isinstance(spec, list):
            if len(spec) != 2 or not all(isinstance(x, int) for x in spec):
                raise DeclarationError(
                    f"a hex direction vector is [q, r] (axial), got {spec}", "bad-direction")
            if spec == [0, 0]:
                raise DeclarationError("a direction vector cannot be zero", "bad-direction")
            return [self._orient((spec[0], spec[1]), forward)]
        if spec in FAMILIES:
            return [NAMED[n] for n in FAMILIES[spec]]
        if spec in NAMED:
            return [NAMED[spec]]
        if spec in RELATIVE:
            turn = CLOCKWISE.index(forward or "n")
            return [NAMED[CLOCKWISE[(turn + k) % 12]] for k in RELATIVE[spec]]
        raise unknown_direction(spec, "hex board", sorted(FAMILIES) + list(RELATIVE),
                                list(CLOCKWISE))

    def _orient(self, v: Vector, forward: str | None) -> Vector:
        """A vector written for a side moving `n`, for a side moving `forward`:
        reflected top to bottom for `s` (as a grid does for Black), turned by
        multiples of 60 degrees for the other orthogonal directions."""
        if forward in (None, "n"):
            return v
        if forward == "s":
            return _mirror(v)
        if forward not in ORTHOGONAL:
            raise DeclarationError(
                f"direction vectors need an orthogonal forward direction, not '{forward}'",
                "bad-direction")
        for _ in range(CLOCKWISE.index(forward) // 2):
            v = _rotate(v)
        return v

    def rays(self, cell: int, direction: Vector) -> list[Ray]:
        here = self.coords[cell]
        out: list[int] = []
        while (nxt := self._index(here := _add(here, direction))) is not None:
            out.append(nxt)
        return [tuple(out)] if out else []

    # -- leaps ---------------------------------------------------------------
    def leaps(self, cell: int, spec: Any, forward: str | None) -> list[int]:
        """`[a, b]`: a steps in one orthogonal direction, then b steps in an
        orthogonal direction 60 degrees from it, every way round (`[1, 2]` is
        Gliński's knight, `[1, 1]` the diagonal neighbours); or a list of
        explicit [q, r] vectors, oriented like direction vectors."""
        here = self.coords[cell]
        targets: dict[int, None] = {}
        for v in self._leap_vectors(spec, forward):
            t = self._index(_add(here, v))
            if t is not None and t != cell:
                targets[t] = None
        return list(targets)

    def _leap_vectors(self, spec: Any, forward: str | None) -> list[Vector]:
        if is_pair(spec):
            a, b = spec
            out: dict[Vector, None] = {}
            for i, name in enumerate(FAMILIES["orthogonal"]):
                first = ORTHOGONAL[name]
                for turn in (1, -1):
                    second = ORTHOGONAL[FAMILIES["orthogonal"][(i + turn) % 6]]
                    out[(a * first[0] + b * second[0], a * first[1] + b * second[1])] = None
            return list(out)
        if isinstance(spec, list) and spec and all(is_pair(v) for v in spec):
            return [self._orient((v[0], v[1]), forward) for v in spec]
        raise DeclarationError(
            f"a hex leap is [a, b] (a orthogonal steps, then b at 60 degrees) or a list "
            f"of [q, r] vectors, got {spec!r}", "bad-leap")

    # -- regions -------------------------------------------------------------
    def region(self, spec: RegionSelector) -> set[int]:
        unknown = set(spec) - {"files", "ranks"}
        if unknown:
            raise DeclarationError(
                f"a hex region selects by files, ranks or cells, not {sorted(unknown)}",
                "bad-region")
        files = {self._file_number(x) for x in spec.get("files", [])} \
            or set(range(self.q_range[0], self.q_range[1] + 1))
        ranks = {self._rank_number(x) for x in spec.get("ranks", [])} \
            or set(range(1, self.top_rank + 1))
        return {i for i, (q, r) in enumerate(self.coords)
                if q in files and self._rank(q, r) in ranks}

    def _file_number(self, x: Any) -> int:
        """A file by name or number from 1, as its q."""
        if isinstance(x, str) and x in self.file_names:
            n = self.file_names.index(x)
        elif isinstance(x, int) and not isinstance(x, bool):
            n = x - 1
        else:
            n = -1
        if not 0 <= n < self.files:
            raise DeclarationError(f"no file '{x}' on this board", "unknown-cell")
        return n + self.q_range[0]

    def _rank_number(self, x: Any) -> int:
        if not isinstance(x, int) or not 1 <= x <= self.top_rank:
            raise DeclarationError(f"no rank '{x}' on this board", "unknown-cell")
        return int(x)


def _corners(sides: list[int]) -> list[Vector]:
    """The six corner cells of a hexagon with these edge lengths, walking
    clockwise from the bottom of the left edge; refused unless it closes."""
    if len(sides) != 6 or not all(isinstance(n, int) and not isinstance(n, bool) and n >= 1
                                  for n in sides):
        raise DeclarationError(
            "a hex board's `sides` are six lengths of at least 1 cell (left, upper-left, "
            f"upper-right, right, lower-right, lower-left), got {sides}", "board-size",
            ("sides",))
    here: Vector = (0, 0)
    corners = [here]
    for (_, (dq, dr)), n in zip(EDGES, sides, strict=True):
        here = (here[0] + (n - 1) * dq, here[1] + (n - 1) * dr)
        corners.append(here)
    if here != (0, 0):
        left, upper_left, upper_right, right, lower_right, lower_left = sides
        raise DeclarationError(
            f"the sides {sides} do not close into a hexagon: upper-left + upper-right "
            f"({upper_left + upper_right}) must equal lower-right + lower-left "
            f"({lower_right + lower_left}), and left + lower-left ({left + lower_left}) "
            f"must equal upper-right + right ({upper_right + right})", "board-size", ("sides",))
    return corners[:6]


def _file_names(declared: list[str] | None, files: int) -> list[str]:
    """The files' names from the left: declared, or letters without j."""
    if declared is None:
        if files > len(FILE_LETTERS):
            raise DeclarationError(
                f"a hex board of {files} files needs `files:` names (the letters name "
                f"{len(FILE_LETTERS)})", "board-size", ("files",))
        return list(FILE_LETTERS[:files])
    names = list(declared)
    if len(names) != files:
        raise DeclarationError(
            f"`files` names {len(names)} files; this hex board has {files}", "bad-board",
            ("files",))
    for i, name in enumerate(names):
        if not isinstance(name, str) or not name or any(ch.isdigit() or ch.isspace()
                                                        for ch in name):
            raise DeclarationError(
                f"a file's name is text without digits or spaces (a rank number follows "
                f"it), got {name!r}", "bad-board", ("files", i))
        if name in names[:i]:
            raise DeclarationError(f"file name '{name}' is given twice", "bad-board",
                                   ("files", i))
    return names
