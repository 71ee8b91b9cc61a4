"""Draw a position as an SVG image, for every board topology.

Two layers.  `cell_geometry(board)` lays the cells out in the plane: one
shape per cell (a square, an annular sector, a disk) and the coordinate
labels.  The drawing is chosen by the type of the board's topology: grids
are rows of squares (planes side by side), polar boards a disk of rings and
sectors, hex boards hexagons, graph boards a disk per cell at its declared
position with lines hinting its links, and a topology with no drawing of its
own (or a graph without positions) gets rows of squares from `board.layout`,
like the text drawing; the joined edges of a wrapped grid are marked.
`render(position)` paints that geometry: cell colours and highlights, labels,
pieces (figures drawn as vector paths for this project, or lettered discs),
and a legend for the pieces that are not chess's own.  Cells of stacked
grids are coloured by the parity of all three coordinates, as Raumschach's
cube is.  A variant's `look:` (`variantkit.rulebook.look`) changes the
painting, never the layout: a grid may be plain squares, or points joined
by lines (a river, palace diagonals, marks) with each cell the see-through
square around its point; pieces may be wooden discs or pentagons carrying
their characters, or, in the international set, their figures or letters.

The SVG is written by hand (standard library only) and is plain ASCII.  Each
cell is one element with `data-cell="<name>"`; each piece is a
`<g data-piece="<letter>" data-cell="<name>" transform="translate(x y)">`
drawn around its cell's anchor, so that programs (and the tests) can find
both.  A marked cell says why in `data-mark` (`last-move`, `check`,
`highlight`, or a target's kind: `move`, `capture`, `suborn`), and each
target's sign is a `<g data-target="<kind>">` over it.

In a variant with pieces in hand, each side's hand is a strip beside the
board, whatever its topology: the side drawn at the bottom (White, or Black
with `flip`) has its hand under the board, the other over it.  A strip is
`<g data-hand="<side>">`; each piece in it is
`<g data-hand-piece="<letter>" data-side="<side>" data-count="<n>">`, drawn
with the same figure as on the board and its count on a badge.

`side_by_side_svg` puts drawings made by `render` next to each other in one
document, each under a title: the two boards of a pair (`variantkit.pair`),
each a nested `<svg data-pair-board="A">` (and `B`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from functools import singledispatch

from variantkit.board.base import Board
from variantkit.board.graph import GraphTopology
from variantkit.board.hex import HexTopology
from variantkit.board.polar import PolarTopology
from variantkit.core.position import Position, Positioned, position_of
from variantkit.notation.fen import write_fen
from variantkit.pieces import piece_code, type_of
from variantkit.rulebook.look import PIECE_SETS, Look

__all__ = ["GLYPHS", "Disk", "Geometry", "Hexagon", "Label", "Rect", "Sector", "cell_geometry",
           "figure", "render", "side_by_side_svg"]

Point = tuple[float, float]

UNIT = 60.0  # side of a square cell, in SVG user units
FONT = "'DejaVu Sans', Arial, Helvetica, sans-serif"  # labels and disc letters only
# Cell fills by board colour, for boards of two colours (0 is chess's a1, dark)
# and of three (hex boards; 0 is the centre cell's).
PALETTES = {2: ("#b58863", "#f0d9b5"), 3: ("#d18b47", "#ffce9e", "#e8ab6f")}
LAST_MOVE = "#cdd23a"  # mixed into the cell's own colour, so it stays visible
MARKED = "#4f8fe0"
# Destinations of a selected piece, by kind of move (`render(targets=...)`):
# each gets its own tint and its own mark (dot, ring, diamond), so the kinds
# differ by shape as well as by colour.
TARGETS = {"move": "#3f9b4f", "capture": "#d2452b", "suborn": "#8a4fd0", "drop": "#2f7fb0"}
CHECK = "#e0443a"
EDGE = "#6e4f33"  # outlines of non-square cells and of each board
INK = "#333333"   # labels
SEAM = "#c0392b"  # the joined edges of a wrapped board

# -- piece drawings ---------------------------------------------------------------
#
# Each figure is drawn for this project as vector paths in a 100 x 100 box
# centred on the origin (y down, the base near y = 40), so that it looks the
# same on every machine: no font is involved.  A part is (role, path data):
# "body" parts are filled with the side's colour and outlined in black,
# "line" parts are strokes and "dot" parts small fills in the contrasting
# colour (black on White's pieces, white on Black's).


def _circle(cx: float, cy: float, r: float) -> str:
    """A circle as path data."""
    return f"M {cx - r:g} {cy:g} a {r:g} {r:g} 0 1 0 {2 * r:g} 0 a {r:g} {r:g} 0 1 0 {-2 * r:g} 0 Z"


BASE = "M -26 41 L 26 41 L 26 34 Q 26 29 21 29 L -21 29 Q -26 29 -26 34 Z"
Part = tuple[str, str]
FIGURES: dict[str, list[Part]] = {
    "pawn": [
        ("body", "M -15 30 C -15 14 -8 4 -7 -5 L 7 -5 C 8 4 15 14 15 30 Z"),
        ("body", "M -12 -5 Q 0 -11 12 -5 Q 0 1 -12 -5 Z"),
        ("body", _circle(0, -19, 12)),
        ("body", BASE),
    ],
    "rook": [
        ("body", "M -19 30 L -15 -13 L 15 -13 L 19 30 Z"),
        ("body", "M -23 -13 L -23 -37 L -14 -37 L -14 -29 L -5 -29 L -5 -37 L 5 -37 "
                 "L 5 -29 L 14 -29 L 14 -37 L 23 -37 L 23 -13 Z"),
        ("line", "M -16 -3 L 16 -3 M -18 20 L 18 20"),
        ("body", BASE),
    ],
    "bishop": [
        ("body", "M -14 30 C -12 16 -8 8 -7 1 L 7 1 C 8 8 12 16 14 30 Z"),
        ("body", "M -13 1 Q 0 -5 13 1 Q 0 7 -13 1 Z"),
        ("body", "M 0 -36 C 15 -27 19 -12 10 -3 L -10 -3 C -19 -12 -15 -27 0 -36 Z"),
        ("body", _circle(0, -39, 4.5)),
        ("line", "M 5 -25 L -4 -12"),
        ("body", BASE),
    ],
    "knight": [
        ("body", "M 20 30 L -17 30 C -17 18 -6 10 -3 2 C -9 5 -17 8 -23 5 C -30 1 -30 -7 "
                 "-24 -12 L -9 -25 L -10 -36 L -2 -29 L 5 -37 L 8 -28 C 22 -24 29 -7 26 12 "
                 "C 25 20 21 25 20 30 Z"),
        ("dot", _circle(-9, -16, 2.8)),
        ("line", "M 9 -26 C 18 -19 22 -5 20 12 M -24 -2 L -20 -1"),
        ("body", BASE),
    ],
    "queen": [
        ("body", "M -21 30 L -28 -21 L -17 3 L -14 -29 L -6 -1 L 0 -34 L 6 -1 L 14 -29 "
                 "L 17 3 L 28 -21 L 21 30 Z"),
        *[("body", _circle(x, y, 4.5)) for x, y in
          ((-28, -23), (-14, -31), (0, -36), (14, -31), (28, -23))],
        ("line", "M -20 18 Q 0 12 20 18"),
        ("body", BASE),
    ],
    "king": [
        ("body", "M -3 -14 L -3 -25 L -10 -25 L -10 -31 L -3 -31 L -3 -39 L 3 -39 L 3 -31 "
                 "L 10 -31 L 10 -25 L 3 -25 L 3 -14 Z"),
        ("body", "M -21 30 C -31 12 -31 -11 -14 -12 C -6 -12 -2 -6 0 1 C 2 -6 6 -12 14 -12 "
                 "C 31 -11 31 12 21 30 Z"),
        ("line", "M 0 1 L 0 16 M -21 18 Q 0 11 21 18"),
        ("body", BASE),
    ],
    "diplomat": [  # a bust in a top hat, with a tie
        ("body", "M -25 41 C -25 17 -13 9 0 9 C 13 9 25 17 25 41 Z"),
        ("dot", "M 0 11 L -4 21 L 0 33 L 4 21 Z"),
        ("body", _circle(0, -6, 12)),
        ("body", "M -11 -18 L -11 -40 L 11 -40 L 11 -18 Z"),
        ("body", "M -19 -15 L 19 -15 L 19 -20 L -19 -20 Z"),
        ("line", "M -11 -24 L 11 -24"),
    ],
    "horse": [  # a horseshoe, heels up
        ("body", "M -25 -30 C -32 2 -22 33 0 35 C 22 33 32 2 25 -30 L 13 -30 C 16 -3 11 21 "
                 "0 22 C -11 21 -16 -3 -13 -30 Z"),
        *[("dot", _circle(x, y, 2.2)) for x, y in
          ((-20, -16), (-20, 2), (-14, 19), (20, -16), (20, 2), (14, 19))],
    ],
    "cannon": [  # a barrel on a wheel
        ("body", "M -31 -1 L 21 -24 L 27 -11 L -25 12 Z"),
        ("body", "M 19 -28 L 24 -30 L 32 -12 L 27 -10 Z"),
        ("body", _circle(-4, 22, 16)),
        ("line", "M -4 8 L -4 36 M -18 22 L 10 22 M -14 12 L 6 32 M -14 32 L 6 12"),
        ("dot", _circle(-4, 22, 3.5)),
    ],
}
# Compound pieces: figures overlapped, each (figure, dx, dy, scale), the
# knight in front on the right, as chess-variant diagrams often draw them.
COMPOUNDS: dict[str, list[tuple[str, float, float, float]]] = {
    "archbishop": [("bishop", -11, 4, 0.84), ("knight", 12, 8, 0.76)],
    "chancellor": [("rook", -11, 4, 0.84), ("knight", 12, 8, 0.76)],
    "amazon": [("queen", -10, 4, 0.84), ("knight", 13, 8, 0.76)],
}
# The names a piece's `glyph:` may use; a piece without one is a lettered disc.
GLYPHS = (*FIGURES, *COMPOUNDS)
ORTHODOX = ("king", "queen", "rook", "bishop", "knight", "pawn")


def figure(glyph: str, size: float, black: bool, face: str | None = None) -> str:
    """A piece's figure as SVG, `size` units across, centred on the origin;
    `face` fills its body instead of the side's colour (white lines on it)."""
    fill, ink = ("#1e1e1e", "#ffffff") if black else ("#ffffff", "#1e1e1e")
    if face is not None:
        fill, ink = face, "#ffffff"
    layers = COMPOUNDS.get(glyph, [(glyph, 0.0, 0.0, 1.0)])
    out = [f'<g transform="scale({_num(size / 100)})" stroke-linejoin="round" '
           f'stroke-linecap="round">']
    for name, dx, dy, scale in layers:
        out.append(f'<g transform="translate({_num(dx)} {_num(dy)}) scale({scale})">')
        for role, d in FIGURES[name]:
            if role == "body":
                out.append(f'<path d="{d}" fill="{fill}" stroke="#000000" stroke-width="3"/>')
            elif role == "line":
                out.append(f'<path d="{d}" fill="none" stroke="{ink}" stroke-width="2.5"/>')
            else:
                out.append(f'<path d="{d}" fill="{ink}"/>')
        out.append("</g>")
    out.append("</g>")
    return "".join(out)

# -- geometry -------------------------------------------------------------------


@dataclass(frozen=True)
class Rect:
    """An axis-aligned rectangle (a grid square)."""

    x: float
    y: float
    width: float
    height: float

    @property
    def anchor(self) -> Point:
        return self.x + self.width / 2, self.y + self.height / 2

    @property
    def room(self) -> float:
        """Side of the largest square around the anchor inside the shape."""
        return min(self.width, self.height)

    def contains(self, point: Point) -> bool:
        px, py = point
        return self.x <= px <= self.x + self.width and self.y <= py <= self.y + self.height

    def element(self) -> tuple[str, dict[str, str]]:
        return "rect", {"x": _num(self.x), "y": _num(self.y),
                        "width": _num(self.width), "height": _num(self.height)}


@dataclass(frozen=True)
class Sector:
    """An annular sector: radii `inner`..`outer` around (cx, cy), angles
    `start`..`end` in radians with `start` < `end`.  Angles grow clockwise on
    screen, since SVG's y axis points down."""

    cx: float
    cy: float
    inner: float
    outer: float
    start: float
    end: float

    @property
    def anchor(self) -> Point:
        r, a = (self.inner + self.outer) / 2, (self.start + self.end) / 2
        return self.cx + r * math.cos(a), self.cy + r * math.sin(a)

    @property
    def room(self) -> float:
        chord = (self.inner + self.outer) * math.sin((self.end - self.start) / 2)
        return min(self.outer - self.inner, chord)

    def contains(self, point: Point) -> bool:
        dx, dy = point[0] - self.cx, point[1] - self.cy
        angle = (math.atan2(dy, dx) - self.start) % math.tau
        return self.inner <= math.hypot(dx, dy) <= self.outer \
            and angle <= self.end - self.start

    def element(self) -> tuple[str, dict[str, str]]:
        def at(r: float, a: float) -> str:
            return f"{_num(self.cx + r * math.cos(a))} {_num(self.cy + r * math.sin(a))}"

        large = 1 if self.end - self.start > math.pi else 0
        o, i = _num(self.outer), _num(self.inner)
        d = (f"M {at(self.outer, self.start)} A {o} {o} 0 {large} 1 {at(self.outer, self.end)} "
             f"L {at(self.inner, self.end)} A {i} {i} 0 {large} 0 {at(self.inner, self.start)} Z")
        return "path", {"d": d}


@dataclass(frozen=True)
class _Centred:
    """A shape given by its centre (cx, cy) and a radius `r`."""

    cx: float
    cy: float
    r: float

    @property
    def anchor(self) -> Point:
        return self.cx, self.cy


@dataclass(frozen=True)
class Disk(_Centred):
    """A full disk (the centre cell of a polar board)."""

    @property
    def room(self) -> float:
        return self.r * math.sqrt(2)

    def contains(self, point: Point) -> bool:
        return math.hypot(point[0] - self.cx, point[1] - self.cy) <= self.r

    def element(self) -> tuple[str, dict[str, str]]:
        return "circle", {"cx": _num(self.cx), "cy": _num(self.cy), "r": _num(self.r)}


@dataclass(frozen=True)
class Hexagon(_Centred):
    """A regular hexagon with flat top and bottom (a hex board's cell):
    `r` from the centre to each corner."""

    @property
    def room(self) -> float:
        return self.r * math.sqrt(3)

    @property
    def corners(self) -> list[Point]:
        return [(self.cx + self.r * math.cos(k * math.pi / 3),
                 self.cy + self.r * math.sin(k * math.pi / 3)) for k in range(6)]

    def contains(self, point: Point) -> bool:
        # Inside every edge: the corners run clockwise on screen, so the
        # point is never left of an edge.
        corners = self.corners
        return all((bx - ax) * (point[1] - ay) - (by - ay) * (point[0] - ax) >= -1e-9
                   for (ax, ay), (bx, by) in zip(corners, corners[1:] + corners[:1],
                                                 strict=True))

    def element(self) -> tuple[str, dict[str, str]]:
        return "polygon", {"points": " ".join(f"{_num(x)},{_num(y)}" for x, y in self.corners)}


Shape = Rect | Sector | Disk | Hexagon


@dataclass(frozen=True)
class Label:
    """Text centred on (x, y): a board `title`, a `coordinate` beside the
    board, a `tag` drawn over the cells on a small plate, or a cell's small
    `name` inside it."""

    x: float
    y: float
    text: str
    role: str = "coordinate"


@dataclass
class Geometry:
    """Where everything goes: `shapes[cell]` for every cell index, labels, the
    drawing's size, and `piece`, the size pieces are drawn at (it fits every
    cell, so that pieces look alike all over the board)."""

    shapes: list[Shape]
    labels: list[Label] = field(default_factory=list)
    width: float = 0.0
    height: float = 0.0
    piece: float = UNIT
    # Lines drawn under the cells between linked cells ("orthogonal" or
    # "diagonal"), and the joined edges of a wrapped board.
    links: list[tuple[Point, Point, str]] = field(default_factory=list)
    seams: list[tuple[Point, Point]] = field(default_factory=list)


def cell_geometry(board: Board, *, flip: bool = False, facing: Collection[int] = ()) -> Geometry:
    """Lay out `board`'s cells in SVG user units, as seen from White's side
    (from Black's with `flip`).  `facing` are cells to turn towards the
    viewer on boards without a natural bottom (White's starting cells)."""
    geometry = _lay_out(board.topology, board, flip, facing)
    geometry.piece = 0.8 * min(shape.room for shape in geometry.shapes)
    return geometry


def _rows_of_squares(topology: object, board: Board, flip: bool,
                     facing: Collection[int]) -> Geometry:
    """Rows of squares from `board.layout`, its groups (planes) side by side,
    labelled from `board.labels`; flipped, each group turns half a turn."""
    u = UNIT
    # Room for labels left of and under each group; a thin edge elsewhere.
    margin, edge, gap = 0.6 * u, 0.25 * u, 0.5 * u
    titled = any(title for title, _, _ in board.labels)
    top = edge + (0.7 * u if titled else 0.0)
    shapes: dict[int, Shape] = {}
    labels: list[Label] = []
    seams: list[tuple[Point, Point]] = []
    left = margin
    height = top
    for g, rows in enumerate(board.layout):
        title, row_names, col_names = board.labels[g] if g < len(board.labels) else ("", [], [])
        columns = max((len(row) for row in rows), default=0)
        # Top-left corners by row and column, in drawing order.
        ys = [top + r * u for r in range(len(rows))]
        xs = [left + c * u for c in range(columns)]
        if flip:
            ys.reverse()
            xs.reverse()
        for r, row in enumerate(rows):
            for c, cell in enumerate(row):
                shapes[cell] = Rect(xs[c], ys[r], u, u)
        for r, name in enumerate(row_names[:len(rows)]):
            labels.append(Label(left - 0.3 * u, ys[r] + u / 2, name))
        bottom = top + len(rows) * u
        for c, name in enumerate(col_names[:columns]):
            labels.append(Label(xs[c] + u / 2, bottom + 0.3 * u, name))
        if title:
            labels.append(Label(left + columns * u / 2, top - 0.45 * u, title, "title"))
        right = left + columns * u
        if "files" in board.wraps:
            seams += [((x, top), (x, bottom)) for x in (left, right)]
        if "ranks" in board.wraps:
            seams += [((left, y), (right, y)) for y in (top, bottom)]
        left = right + gap + margin
        height = max(height, bottom)
    return Geometry([shapes[i] for i in range(board.size)], labels,
                    width=left - gap - margin + edge, height=height + margin, seams=seams)


# The drawing of each topology type; grids, and any topology without a
# drawing of its own, get rows of squares.
_lay_out = singledispatch(_rows_of_squares)


@_lay_out.register
def _polar(topology: PolarTopology, board: Board, flip: bool,
           facing: Collection[int]) -> Geometry:
    """A disk: ring 0 outermost, sectors clockwise, the centre a disk in the
    middle.  Rings are equally wide; the hole (or centre) is made just large
    enough for the innermost cells to be as wide around as they are deep."""
    n, depth = len(topology.sectors), len(topology.rings)
    width_of_ring = UNIT
    step = math.tau / n
    hole = max(width_of_ring / (2 * math.sin(step / 2)) - width_of_ring / 2,
               0.6 * width_of_ring)
    radius = hole + depth * width_of_ring
    margin = 0.6 * UNIT  # room for the sector names
    cx = cy = radius + margin
    ring_cells = [i for i in range(board.size) if board.coords[i][0] < depth]

    def mid_angle(cell: int) -> float:
        return (board.coords[cell][1] + 0.5) * step

    # Turn the mean direction of the facing cells to the bottom (angle pi/2);
    # without any, sector 0 starts at the top.
    x = sum(math.cos(mid_angle(c)) for c in facing if c in ring_cells)
    y = sum(math.sin(mid_angle(c)) for c in facing if c in ring_cells)
    turn = math.pi / 2 - math.atan2(y, x) if math.hypot(x, y) > 1e-9 else -math.pi / 2
    if flip:
        turn += math.pi
    turn %= math.tau

    shapes: list[Shape] = []
    for cell in range(board.size):
        ring, sector = board.coords[cell][:2]
        if ring >= depth:
            shapes.append(Disk(cx, cy, hole))
            continue
        outer = radius - ring * width_of_ring
        start = turn + sector * step
        shapes.append(Sector(cx, cy, outer - width_of_ring, outer, start, start + step))
    labels = []
    for s, name in enumerate(topology.sectors):
        a = turn + (s + 0.5) * step
        r = radius + 0.3 * UNIT
        labels.append(Label(cx + r * math.cos(a), cy + r * math.sin(a), name))
    # Ring names go along the sector boundary nearest the left (angle pi).
    k = round((math.pi - turn) / step)
    a = turn + k * step
    for ring, name in enumerate(topology.rings):
        r = radius - (ring + 0.5) * width_of_ring
        labels.append(Label(cx + r * math.cos(a), cy + r * math.sin(a), name, "tag"))
    if topology.centre is not None:
        r = 0.7 * hole
        labels.append(Label(cx + r * math.cos(a), cy + r * math.sin(a), topology.centre, "tag"))
    return Geometry(shapes, labels, width=2 * cx, height=2 * cy)


@_lay_out.register
def _hex(topology: HexTopology, board: Board, flip: bool, facing: Collection[int]) -> Geometry:
    """Flat-topped hexagons, files upright: axial (q, r) is at
    x = 1.5 q, y = -sqrt(3) (r + q / 2) in corner radii.  File letters go
    under each file, rank numbers beside each rank's first cell."""
    r = UNIT / math.sqrt(3)  # so that a hexagon has as much room as a square
    sign = -1.0 if flip else 1.0  # flipped: half a turn about the centre cell

    def at(q: float, rank_axis: float) -> Point:
        return sign * 1.5 * r * q, -sign * math.sqrt(3) * r * (rank_axis + q / 2)

    def outside(cell: int, dq: float, dr: float) -> Point:
        """A label's spot: part way from `cell` towards an off-board neighbour."""
        q, rr = board.coords[cell][:2]
        return at(q + 0.75 * dq, rr + 0.75 * dr)

    centres = [at(*coords[:2]) for coords in board.coords]
    spots: list[tuple[Point, str]] = []
    for cell, coords in enumerate(board.coords):
        q, rr = coords[:2]
        if (q, rr - 1) not in topology.by_coords:  # the bottom cell of its file
            spots.append((outside(cell, 0, -1), topology.file_name(q)))
    for row in board.layout[0]:  # the ranks, each from its first (leftmost) cell
        first = row[0]
        # Beside file a to the left; above it to the upper left once ranks bend.
        dq, dr = (-1, 0.5) if board.coords[first][0] == topology.q_range[0] else (-1, 1)
        if topology.rank_lines != "file":  # straight ranks: where the line would go on
            dq, dr = (-1, 1) if topology.rank_lines == "se" else (-1, 0)
        spots.append((outside(first, dq, dr), str(topology.rank_of(first))))
    # Cells reach r from their centres, labels about 0.3 UNIT from theirs.
    xs = [x + e for x, _ in centres for e in (-r, r)] \
        + [x + e for (x, _), _ in spots for e in (-0.3 * UNIT, 0.3 * UNIT)]
    ys = [y + e for _, y in centres for e in (-r, r)] \
        + [y + e for (_, y), _ in spots for e in (-0.3 * UNIT, 0.3 * UNIT)]
    margin = 0.25 * UNIT
    dx, dy = margin - min(xs), margin - min(ys)
    shapes: list[Shape] = [Hexagon(x + dx, y + dy, r) for x, y in centres]
    labels = [Label(x + dx, y + dy, text) for (x, y), text in spots]
    return Geometry(shapes, labels, width=max(xs) + dx + margin, height=max(ys) + dy + margin)


@_lay_out.register
def _graph(topology: GraphTopology, board: Board, flip: bool,
           facing: Collection[int]) -> Geometry:
    """A disk per cell at its declared position, lines between linked cells
    (solid orthogonal, dashed diagonal) and each cell's name under it.
    Without a position for every cell: rows of squares, each with the
    cell's name low in it (a graph has no coordinates to write beside them)."""
    points = [topology.position(cell) for cell in range(board.size)]
    placed = [p for p in points if p is not None]
    if len(placed) < len(points):
        squares = _rows_of_squares(topology, board, flip, facing)
        for cell, shape in enumerate(squares.shapes):
            x, y = shape.anchor
            squares.labels.append(Label(x, y + 0.36 * shape.room, board.names[cell], "name"))
        return squares
    links = topology.links()
    lengths = [math.dist(placed[a], placed[b]) for a, b, _ in links]
    spacing = min((d for d in lengths if d > 1e-9), default=1.0)
    scale = (-1.0 if flip else 1.0) * UNIT / spacing
    r = 0.42 * UNIT
    xs = [x * scale for x, _ in placed]
    ys = [-y * scale for _, y in placed]
    margin = 0.25 * UNIT + r
    dx, dy = margin - min(xs), margin - min(ys)
    centres = [(x + dx, y + dy) for x, y in zip(xs, ys, strict=True)]
    shapes: list[Shape] = [Disk(x, y, r) for x, y in centres]
    labels = [Label(x, y + 0.72 * r, board.names[cell], "name")
              for cell, (x, y) in enumerate(centres)]
    return Geometry(shapes, labels, width=max(xs) + dx + margin, height=max(ys) + dy + margin,
                    links=[(centres[a], centres[b], kind) for a, b, kind in links])


# -- painting -------------------------------------------------------------------


def render(game: Positioned, *, flip: bool = False, highlight: Iterable[str] = (),
           size: float | None = None, targets: Mapping[str, str] | None = None,
           hand_highlight: str | None = None, pieces: str = "traditional") -> str:
    """The position (a `Game`'s or a core position) as an SVG document.

    The last move's cells are tinted, the royal piece of a side in check sits
    on a red cell, and the cells named in `highlight` are tinted blue.
    `targets` maps cells to a kind of move, `move`, `capture`, `suborn` or
    `drop` (a selected piece's destinations): each kind has its own tint and
    mark, and the cell its kind as `data-mark` and as class `target-<kind>`.
    `hand_highlight` is the letter of a piece in hand to tint blue (upper
    case in White's hand, lower case in Black's).
    `flip` draws the board from Black's side.  `size` is the image's width
    in pixels (the height follows); by default a square cell is 60 pixels.
    `pieces` chooses the piece set of a variant whose `look:` gives its
    pieces characters: `traditional` (the characters) or `international`
    (the figure or letter each piece declares instead).
    A ValueError names an unknown cell, kind or piece set.
    """
    position = position_of(game, "render")
    rules = position.rules
    board = rules.board
    if pieces not in PIECE_SETS:
        raise ValueError(f"unknown piece set '{pieces}' (sets: {', '.join(PIECE_SETS)})")
    look = rules.look
    paint = Paint(look, pieces, flip)
    marks: dict[int, str] = {}
    for name in highlight:
        marks[_cell_index(board, name)] = "highlight"
    for name, kind in (targets or {}).items():
        if kind not in TARGETS:
            raise ValueError(f"unknown kind of target '{kind}' (kinds: {', '.join(TARGETS)})")
        marks[_cell_index(board, name)] = kind
    if position.history:
        frm, to = position.history[-1][0][:2]
        for cell in (frm, to):
            marks.setdefault(cell, "last-move")
    checked = position.checked_cell()
    if checked is not None:
        marks[board.index[checked]] = "check"

    white_start = [cell for cell, code in rules.setup.cells.items() if code & 1 == 0]
    geo = cell_geometry(board, flip=flip, facing=white_start)
    fairy = sorted({type_of(code) for code in _shown_codes(position)
                    if look.figure(rules.pieces.types[type_of(code)], pieces) not in ORTHODOX})
    legend_rows = -(-len(fairy) // _legend_per_row(geo.width))
    hands = _hand_strips(position, geo.width, flip) if rules.hands.has_hands else []
    above = sum(strip.height for strip in hands[:1])
    width = geo.width
    height = geo.height + legend_rows * LEGEND_ROW + sum(strip.height for strip in hands)
    scale = 1.0 if size is None else size / width

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_num(width * scale)}" '
        f'height="{_num(height * scale)}" viewBox="0 0 {_num(width)} {_num(height)}" '
        f'font-family="{FONT}">',
        f"<title>{_text(f'{rules.name}: {write_fen(position)}')}</title>",
        f'<rect width="{_num(width)}" height="{_num(height)}" fill="#ffffff"/>',
    ]
    if hands:  # the board (and the legend) go between the two hands
        out.extend(_hand(position, hands[0], 0.0, hand_highlight, paint))
        out.extend(_hand(position, hands[1], above + geo.height, hand_highlight, paint))
        out.append(f'<g class="board" transform="translate(0 {_num(above)})">')
    out.extend(_lines("links", [(a, b, EDGE if kind == "orthogonal" else INK,
                                 "" if kind == "orthogonal" else "4 3")
                                for a, b, kind in geo.links], 1.5))
    square = all(isinstance(shape, Rect) for shape in geo.shapes)
    style = look.board if square else "chequered"
    if style == "points":
        out.extend(_point_board(board, geo, look))
    out.append(f'<g class="cells" data-board="{style}">')
    palette = PALETTES[3 if max(board.colours, default=0) >= 2 else 2]
    for cell, shape in enumerate(geo.shapes):
        tag, attrs = shape.element()
        base = palette[_colour(board, cell) % len(palette)] if style == "chequered" \
            else look.colour
        mark = marks.get(cell)
        tints = {"check": CHECK, "last-move": LAST_MOVE, "highlight": MARKED, **TARGETS}
        if style == "points":  # a see-through square around the point, tinted when marked
            fill, opacity = tints.get(mark or "", base), "0.5" if mark else "0"
        else:
            fill = {"check": CHECK, "last-move": _mix(base, LAST_MOVE, 0.55),
                    "highlight": _mix(base, MARKED, 0.55),
                    **{kind: _mix(base, tint, 0.45) for kind, tint in TARGETS.items()},
                    }.get(mark or "", base)
            opacity = ""
        attrs = {"data-cell": board.names[cell], **attrs, "fill": fill}
        if opacity:
            attrs["fill-opacity"] = opacity
        if mark:
            attrs["data-mark"] = mark
        if mark in TARGETS:
            attrs["class"] = f"target-{mark}"
        if not square or style == "plain":  # cells of one colour touch
            attrs.update({"stroke": EDGE if not square else INK, "stroke-width": "1"})
        out.append(f"<{tag}{_attrs(attrs)}/>")
    out.append("</g>")
    if square and style != "points":
        out.extend(_frames(board, geo))
    out.extend(_board_marks(board, geo, look, style))
    out.extend(_lines("seams", [(a, b, SEAM, "6 4") for a, b in geo.seams], 4.0))
    out.extend(_labels(geo))
    out.append('<g class="pieces">')
    for cell, code in enumerate(position.cells):
        if code:
            out.append(_piece(position, cell, code, geo, paint))
    out.extend(_wall(position, cell, geo) for cell in board.cells_of(position.walls))
    out.append("</g>")
    out.extend(_target_marks(marks, geo))
    out.extend(_legend(position, fairy, geo, paint, sum(strip.height for strip in hands[1:])))
    if hands:
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _cell_index(board: Board, name: str) -> int:
    if name not in board.index:
        raise ValueError(f"unknown cell '{name}' to highlight")
    return board.index[name]


def _target_marks(marks: dict[int, str], geo: Geometry) -> list[str]:
    """Over each target cell, its kind's mark: a dot for a move, a ring for
    a capture, a diamond for a suborn, a square for a drop.  They let clicks
    through to the cell."""
    out = ['<g class="targets" pointer-events="none">']
    for cell, kind in marks.items():
        if kind not in TARGETS:
            continue
        (x, y), r = geo.shapes[cell].anchor, 0.5 * geo.piece
        colour = TARGETS[kind]
        if kind == "move":
            shape = f'<circle cx="{_num(x)}" cy="{_num(y)}" r="{_num(0.3 * r)}" fill="{colour}"/>'
        elif kind == "capture":
            shape = (f'<circle cx="{_num(x)}" cy="{_num(y)}" r="{_num(0.9 * r)}" fill="none" '
                     f'stroke="{colour}" stroke-width="{_num(0.16 * r)}"/>')
        elif kind == "drop":
            d = 0.3 * r
            shape = (f'<rect x="{_num(x - d)}" y="{_num(y - d)}" width="{_num(2 * d)}" '
                     f'height="{_num(2 * d)}" fill="{colour}"/>')
        else:
            d = 0.95 * r
            points = f"{_num(x)},{_num(y - d)} {_num(x + d)},{_num(y)} " \
                     f"{_num(x)},{_num(y + d)} {_num(x - d)},{_num(y)}"
            shape = (f'<polygon points="{points}" fill="none" stroke="{colour}" '
                     f'stroke-width="{_num(0.14 * r)}"/>')
        out.append(f'<g data-target="{kind}">{shape}</g>')
    out.append("</g>")
    return out


def _colour(board: Board, cell: int) -> int:
    """The cell's colour as drawn: the board's colour, and on stacked planes
    alternating from plane to plane too, so that the colour follows the
    parity of all three coordinates (a Raumschach bishop keeps its colour)."""
    plane = board.topology.plane_of(cell)
    return board.colours[cell] + (plane or 0)


def _frames(board: Board, geo: Geometry) -> list[str]:
    """An outline around each group (plane) of squares."""
    out = []
    for rows in board.layout:
        boxes = [geo.shapes[cell] for row in rows for cell in row]
        rects = [b for b in boxes if isinstance(b, Rect)]
        x0, y0 = min(r.x for r in rects), min(r.y for r in rects)
        x1 = max(r.x + r.width for r in rects)
        y1 = max(r.y + r.height for r in rects)
        out.append(f'<rect x="{_num(x0)}" y="{_num(y0)}" width="{_num(x1 - x0)}" '
                   f'height="{_num(y1 - y0)}" fill="none" stroke="{EDGE}" stroke-width="1.5"/>')
    return out


def _point_board(board: Board, geo: Geometry, look: Look) -> list[str]:
    """A board whose pieces stand on points: per group (plane) a wooden
    rectangle under its cells, and lines joining the points of neighbouring
    cells, except across the river (whose edge files it leaves joined) and
    with a heavier outline around the outermost points."""
    out = ['<g class="points-board">']
    lines: list[tuple[Point, Point, str, str]] = []
    for rows in board.layout:
        rects = [shape for row in rows for cell in row
                 if isinstance(shape := geo.shapes[cell], Rect)]
        x0, y0 = min(r.x for r in rects), min(r.y for r in rects)
        x1, y1 = max(r.x + r.width for r in rects), max(r.y + r.height for r in rects)
        out.append(f'<rect x="{_num(x0)}" y="{_num(y0)}" width="{_num(x1 - x0)}" '
                   f'height="{_num(y1 - y0)}" fill="{look.colour}" stroke="{EDGE}" '
                   f'stroke-width="1.5"/>')
        xs = [geo.shapes[cell].anchor[0] for row in rows for cell in row]
        edges = (min(xs), max(xs))
        river: list[Point] = []
        for row in rows:
            lines += [(geo.shapes[a].anchor, geo.shapes[b].anchor, INK, "")
                      for a, b in itertools.pairwise(row)]
        for upper, lower in itertools.pairwise(rows):
            for a, b in zip(upper, lower, strict=False):
                (ax, ay), (bx, by) = geo.shapes[a].anchor, geo.shapes[b].anchor
                crosses = look.across_river(a, b)
                if crosses:
                    river.append(((ax + bx) / 2, (ay + by) / 2))
                if not crosses or ax in edges:
                    lines.append(((ax, ay), (bx, by), INK, ""))
        points = [geo.shapes[cell].anchor for row in rows for cell in row]
        px0, py0 = min(x for x, _ in points), min(y for _, y in points)
        px1, py1 = max(x for x, _ in points), max(y for _, y in points)
        out.append(f'<rect x="{_num(px0)}" y="{_num(py0)}" width="{_num(px1 - px0)}" '
                   f'height="{_num(py1 - py0)}" fill="none" stroke="{INK}" stroke-width="2.5"/>')
        if river and look.river_text:
            size = 0.42 * UNIT
            ry = sum(y for _, y in river) / len(river)
            out.append(f'<text class="river" x="{_num((px0 + px1) / 2)}" '
                       f'y="{_num(ry + 0.36 * size)}" font-size="{_num(size)}" '
                       f'font-family="{CHARACTER_FONT}" text-anchor="middle" '
                       f'fill="{INK}">{_text(look.river_text)}</text>')
    out.extend(_lines("grid-lines", lines, 1.2))
    out.append("</g>")
    return out


def _board_marks(board: Board, geo: Geometry, look: Look, style: str) -> list[str]:
    """The look's marks over the cells (clicks pass through them): each
    region's diagonals, dots at each region's corners and the corner marks
    around marked points.  On squares a region's box runs along its cells'
    edges; on points, through its outermost points."""
    if not (look.diagonals or look.corner_dots or look.point_marks):
        return []

    def box(mask: int) -> tuple[float, float, float, float]:
        shapes = [geo.shapes[cell] for cell in board.cells_of(mask)]
        rects = [shape for shape in shapes if isinstance(shape, Rect)]
        if style == "points":
            xs = [r.anchor[0] for r in rects]
            ys = [r.anchor[1] for r in rects]
            return min(xs), min(ys), max(xs), max(ys)
        return (min(r.x for r in rects), min(r.y for r in rects),
                max(r.x + r.width for r in rects), max(r.y + r.height for r in rects))

    out = ['<g class="board-marks" pointer-events="none">']
    diagonals: list[tuple[Point, Point, str, str]] = []
    for mask in filter(None, look.diagonals):
        x0, y0, x1, y1 = box(mask)
        diagonals += [((x0, y0), (x1, y1), INK, ""), ((x0, y1), (x1, y0), INK, "")]
    out.extend(_lines("diagonals", diagonals, 1.2))
    for mask in filter(None, look.corner_dots):
        x0, y0, x1, y1 = box(mask)
        out += [f'<circle cx="{_num(x)}" cy="{_num(y)}" r="{_num(0.07 * UNIT)}" fill="{INK}"/>'
                for x in (x0, x1) for y in (y0, y1)]
    cells = board.cells_of(look.point_marks)
    if cells:
        xs = [geo.shapes[cell].anchor[0] for cell in range(board.size)]
        left, right = min(xs), max(xs)
        gap, arm = 0.08 * UNIT, 0.16 * UNIT
        paths = []
        for cell in cells:
            x, y = geo.shapes[cell].anchor
            for sx in (-1, 1):
                if (sx < 0 and x <= left) or (sx > 0 and x >= right):
                    continue  # no mark beyond the board's edge
                for sy in (-1, 1):
                    paths.append(f"M {_num(x + sx * gap)} {_num(y + sy * (gap + arm))} "
                                 f"L {_num(x + sx * gap)} {_num(y + sy * gap)} "
                                 f"L {_num(x + sx * (gap + arm))} {_num(y + sy * gap)}")
        out.append(f'<path class="point-marks" d="{" ".join(paths)}" fill="none" '
                   f'stroke="{INK}" stroke-width="1.2"/>')
    out.append("</g>")
    return out


def _lines(role: str, lines: list[tuple[Point, Point, str, str]], width: float) -> list[str]:
    """A group of straight lines: (from, to, colour, dash pattern or "")."""
    if not lines:
        return []
    out = [f'<g class="{role}" stroke-width="{_num(width)}">']
    for (x1, y1), (x2, y2), colour, dash in lines:
        dashes = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(f'<line x1="{_num(x1)}" y1="{_num(y1)}" x2="{_num(x2)}" y2="{_num(y2)}" '
                   f'stroke="{colour}"{dashes}/>')
    out.append("</g>")
    return out


def _labels(geo: Geometry) -> list[str]:
    out = ['<g class="labels" text-anchor="middle">']
    for label in geo.labels:
        size = {"title": 0.32, "coordinate": 0.3, "tag": 0.22, "name": 0.16}[label.role] * UNIT
        weight = ' font-weight="bold"' if label.role == "title" else ""
        if label.role == "tag":
            w, h = max(len(label.text), 1) * 0.62 * size + 0.3 * size, 1.3 * size
            out.append(f'<rect x="{_num(label.x - w / 2)}" y="{_num(label.y - h / 2)}" '
                       f'width="{_num(w)}" height="{_num(h)}" rx="{_num(h / 4)}" '
                       f'fill="#ffffff" fill-opacity="0.8"/>')
        out.append(f'<text x="{_num(label.x)}" y="{_num(label.y + 0.36 * size)}" '
                   f'font-size="{_num(size)}" fill="{INK}"{weight}>{_text(label.text)}</text>')
    out.append("</g>")
    return out


def _piece(position: Position, cell: int, code: int, geo: Geometry, paint: Paint) -> str:
    """One piece around its cell's anchor (see `_piece_body`)."""
    rules = position.rules
    letter = rules.letter_of_code(code)
    x, y = geo.shapes[cell].anchor
    head = (f'<g data-piece="{_text(letter)}" data-cell="{_text(rules.board.names[cell])}" '
            f'transform="translate({_num(x)} {_num(y)})">')
    return f"{head}{_piece_body(position, code, geo.piece, paint)}</g>"


@dataclass(frozen=True)
class Paint:
    """How pieces are drawn in one picture: the variant's look, the piece
    set chosen (`traditional` or `international`) and whether the board is
    seen from Black's side (pentagons point towards their side's forward)."""

    look: Look
    pieces: str
    flip: bool


def _piece_body(position: Position, code: int, size: float, paint: Paint) -> str:
    """A piece's drawing, `size` units across, centred on the origin.  With
    the look's shape `figures`: the figure its `glyph:` names, or a lettered
    disc (white with a black letter for White, the reverse for Black).  As
    a disc or a pentagon: its characters in the piece set drawn, or else its
    figure, or else its letter."""
    rules = position.rules
    kind = rules.pieces.types[type_of(code)]
    side = code & 1
    look = paint.look
    if look.shape == "figures" and kind.index not in look.characters:
        if kind.glyph is not None:
            return figure(kind.glyph, size, bool(side))
        return _disc(rules.letter_of_code(code).upper(), 0.8 * size, bool(side))
    text = look.text(kind, side, paint.pieces)
    glyph = look.figure(kind, paint.pieces)
    ink = look.ink_of(kind, side)
    if look.shape == "pentagons":
        body = (f'<polygon points="{PENTAGON}" transform="scale({_num(size / 100)})" '
                f'fill="{PIECE_FACE}" stroke="{PIECE_EDGE}" stroke-width="3"/>')
        inner = _inscription(text, glyph, rules.letter_of_code(code).upper(), 0.72 * size,
                             ink, 0.06 * size)
        # Each side's pieces point towards its forward: White's up, unless flipped.
        turned = ' transform="rotate(180)"' if bool(side) != paint.flip else ""
        return f"<g{turned}>{body}{inner}</g>"
    r = 0.46 * size
    body = (f'<circle r="{_num(r)}" fill="{PIECE_FACE}" stroke="{PIECE_EDGE}" '
            f'stroke-width="{_num(0.04 * size)}"/><circle r="{_num(0.82 * r)}" fill="none" '
            f'stroke="{ink}" stroke-width="{_num(0.025 * size)}"/>')
    return body + _inscription(text, glyph, rules.letter_of_code(code).upper(), 1.25 * r, ink)


PIECE_FACE, PIECE_EDGE = "#f7e3b5", "#6b4a22"  # discs and pentagons: wood and its edge
# A shogi piece pointing up, in a 100 x 100 box centred on the origin.
PENTAGON = "0,-47 31,-33 39,45 -39,45 -31,-33"
CHARACTER_FONT = ("'Noto Serif CJK SC', 'Source Han Serif', 'Noto Sans CJK SC', "
                  "'WenQuanYi Micro Hei', SimSun, 'MS Mincho', serif")


def _inscription(text: str | None, glyph: str | None, letter: str, room: float, ink: str,
                 down: float = 0.0) -> str:
    """What a disc or a pentagon carries, centred `down` units below the
    origin in a square `room` units across, in the colour `ink`: one or two
    characters (two stacked, as on a shogi piece), a figure, or the piece's
    letter."""
    if text is None and glyph is not None:
        return (f'<g transform="translate(0 {_num(down)})">'
                f'{figure(glyph, room, False, ink)}</g>')
    shown = text if text is not None else letter
    font = CHARACTER_FONT if text is not None else FONT
    if len(shown) == 2 and text is not None:  # stacked
        size = 0.48 * room
        return "".join(f'<text y="{_num(down + (k - 0.5) * size + 0.36 * size)}" '
                       f'font-size="{_num(size)}" font-family="{font}" font-weight="bold" '
                       f'text-anchor="middle" fill="{ink}">{_text(char)}</text>'
                       for k, char in enumerate(shown))
    size = (0.72 if len(shown) == 1 else 0.5) * room
    return (f'<text y="{_num(down + 0.36 * size)}" font-size="{_num(size)}" '
            f'font-family="{font}" font-weight="bold" text-anchor="middle" '
            f'fill="{ink}">{_text(shown)}</text>')


def _shown_codes(position: Position) -> set[int]:
    """The codes of the pieces drawn: on the board, and in the hands."""
    shown = {code for code in position.cells if code}
    if position.rules.hands.has_hands:
        shown.update(code for code, count in enumerate(position.hands) if count)
    return shown


# -- hands ------------------------------------------------------------------------

HAND_SLOT = 0.9 * UNIT  # one piece in hand, with its count, across and down
HAND_PIECE = 0.7 * UNIT


@dataclass(frozen=True)
class HandStrip:
    """Where one side's hand goes: its side (0 White, 1 Black), its pieces'
    codes and counts in the order `Position.hand` gives them, slots per row, and
    the strip's height and width."""

    side: int
    pieces: list[tuple[int, int]]
    per_row: int
    height: float
    width: float


def _hand_strips(position: Position, width: float, flip: bool) -> list[HandStrip]:
    """The two hands, the top one first: Black's over the board unless
    flipped.  Both strips get the same height, so that the board does not
    move as a hand grows, and wrap into more rows when a row is full."""
    code_of = position.rules.code_of_letter
    held = [[(code, count) for letter, count in position.hand(side).items()
             if (code := code_of(letter)) is not None] for side in ("white", "black")]
    per_row = max(1, int((width - 0.5 * UNIT) // HAND_SLOT))
    rows = max(1, *(-(-len(pieces) // per_row) for pieces in held))
    height = rows * HAND_SLOT + 0.2 * UNIT
    top, bottom = (0, 1) if flip else (1, 0)
    return [HandStrip(side, held[side], per_row, height, width) for side in (top, bottom)]


def _hand(position: Position, strip: HandStrip, y: float, hand_highlight: str | None,
          paint: Paint) -> list[str]:
    """One side's hand: a tinted strip `y` units from the top, and each
    piece in it with its count."""
    rules = position.rules
    side = ("white", "black")[strip.side]
    out = [f'<g data-hand="{side}">',
           f'<rect x="0" y="{_num(y + 0.05 * UNIT)}" width="{_num(strip.width)}" '
           f'height="{_num(strip.height - 0.1 * UNIT)}" fill="#ece6dc"/>']
    for i, (code, count) in enumerate(strip.pieces):
        letter = rules.letter_of_code(code)
        x = 0.25 * UNIT + (i % strip.per_row + 0.5) * HAND_SLOT
        cy = y + 0.1 * UNIT + (i // strip.per_row + 0.5) * HAND_SLOT
        marked = letter == hand_highlight
        back = (f'<rect x="{_num(-HAND_SLOT / 2)}" y="{_num(-HAND_SLOT / 2)}" '
                f'width="{_num(HAND_SLOT)}" height="{_num(HAND_SLOT)}" rx="{_num(0.1 * UNIT)}" '
                f'fill="{MARKED if marked else "#ece6dc"}" fill-opacity="{0.6 if marked else 0}"/>')
        badge_x, badge_y, badge_r = 0.3 * HAND_SLOT, 0.3 * HAND_SLOT, 0.14 * UNIT
        badge = (f'<circle cx="{_num(badge_x)}" cy="{_num(badge_y)}" r="{_num(badge_r)}" '
                 f'fill="{INK}"/><text x="{_num(badge_x)}" y="{_num(badge_y + 0.36 * badge_r)}" '
                 f'font-size="{_num(badge_r)}" font-weight="bold" text-anchor="middle" '
                 f'fill="#ffffff">{count}</text>')
        mark = ' data-mark="highlight"' if marked else ""
        out.append(f'<g data-hand-piece="{_text(letter)}" data-side="{side}" '
                   f'data-count="{count}"{mark} transform="translate({_num(x)} {_num(cy)})">'
                   f'{back}{_piece_body(position, code, HAND_PIECE, paint)}{badge}</g>')
    out.append("</g>")
    return out


def _wall(position: Position, cell: int, geo: Geometry) -> str:
    """A wall (a petrified piece): a grey block on its cell."""
    x, y = geo.shapes[cell].anchor
    half = 0.4 * geo.piece
    return (f'<rect data-wall="{_text(position.rules.board.names[cell])}" '
            f'x="{_num(x - half)}" y="{_num(y - half)}" width="{_num(2 * half)}" '
            f'height="{_num(2 * half)}" fill="#808080" stroke="#000000" '
            f'stroke-width="{_num(half / 10)}"/>')


def _disc(letter: str, diameter: float, black: bool) -> str:
    """A lettered disc centred on the origin."""
    face, ink = ("#000000", "#ffffff") if black else ("#ffffff", "#000000")
    size = 0.6 * diameter
    return (f'<circle r="{_num(diameter / 2)}" fill="{face}" stroke="#000000" '
            f'stroke-width="{_num(diameter / 20)}"/>'
            f'<text y="{_num(0.36 * size)}" font-size="{_num(size)}" font-weight="bold" '
            f'text-anchor="middle" fill="{ink}">{_text(letter)}</text>')


LEGEND_ENTRY, LEGEND_ROW = 3.2 * UNIT, 0.7 * UNIT  # one legend entry's room


def _legend_per_row(width: float) -> int:
    return max(1, int((width - UNIT) // LEGEND_ENTRY))


def _legend(position: Position, fairy: list[int], geo: Geometry, paint: Paint,
            below: float = 0.0) -> list[str]:
    """Drawing -> name for the pieces not drawn as chess's own figures,
    `below` units under the board; each drawn as White's, upright."""
    if not fairy:
        return []
    per_row = _legend_per_row(geo.width)
    out = ['<g class="legend">']
    for i, index in enumerate(fairy):
        kind = position.rules.pieces.types[index]
        x = 0.5 * UNIT + (i % per_row) * LEGEND_ENTRY + 0.25 * UNIT
        y = geo.height + below + (i // per_row + 0.4) * LEGEND_ROW
        size = 0.28 * UNIT
        upright = Paint(paint.look, paint.pieces, flip=False)
        drawing = _piece_body(position, piece_code(index, 0), 0.6 * UNIT, upright)
        out.append(f'<g data-legend="{_text(kind.letter)}" transform="translate({_num(x)} '
                   f'{_num(y)})">{drawing}'
                   f'<text x="{_num(0.4 * UNIT)}" y="{_num(0.36 * size)}" '
                   f'font-size="{_num(size)}" fill="{INK}">'
                   f'{_text(kind.name.replace("-", " ").capitalize())}</text></g>')
    out.append("</g>")
    return out


# -- SVG text -------------------------------------------------------------------


def _num(value: float) -> str:
    """A coordinate with at most two decimals and no trailing zeros."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _text(value: str) -> str:
    """Text escaped for XML content and attributes; non-ASCII as character
    references, so the document survives any output encoding."""
    escaped = (value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
               .replace('"', "&quot;"))
    return escaped.encode("ascii", "xmlcharrefreplace").decode("ascii")


def _mix(a: str, b: str, t: float) -> str:
    """The colour `t` of the way from `a` to `b` (both #rrggbb)."""
    channels = (round(int(a[i:i + 2], 16) * (1 - t) + int(b[i:i + 2], 16) * t)
                for i in (1, 3, 5))
    return "#" + "".join(f"{c:02x}" for c in channels)


def _attrs(attrs: dict[str, str]) -> str:
    return "".join(f' {key}="{_text(value)}"' for key, value in attrs.items())


def side_by_side_svg(documents: list[str], titles: list[str], gap: float = 30.0,
                     keys: list[str] | None = None) -> str:
    """SVG documents made by `render` drawn next to each other in one, each
    under its title (the two boards of a pair, `variantkit.pair`): each
    stays a whole `<svg>` element, moved into place by its `x` and `y`, and
    with `keys`, named by its key in `data-pair-board` (so that a page tells
    the boards' cells, which have the same names, apart)."""
    title_height = 28.0
    x = 0.0
    parts = []
    heights = []
    for i, (document, title) in enumerate(zip(documents, titles, strict=True)):
        width, height = (float(_root_size(document, name)) for name in ("width", "height"))
        parts.append(f'<text x="{_num(x + width / 2)}" y="20" text-anchor="middle" '
                     f'font-size="18" fill="{INK}">{_text(title)}</text>')
        key = f' data-pair-board="{_text(keys[i])}"' if keys else ""
        parts.append(document.replace(
            "<svg ", f'<svg x="{_num(x)}" y="{_num(title_height)}"{key} ', 1).strip())
        heights.append(height)
        x += width + gap
    wide, high = _num(x - gap), _num(title_height + max(heights, default=0.0))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{wide}" height="{high}" '
            f'viewBox="0 0 {wide} {high}" font-family="{FONT}">\n'
            + "\n".join(parts) + "\n</svg>\n")


def _root_size(document: str, name: str) -> str:
    """The `width` or `height` of a document's root `<svg>` element."""
    root = document[document.index("<svg "):document.index(">")]
    return root.split(f' {name}="', 1)[1].split('"', 1)[0]
