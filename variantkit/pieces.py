"""Compile piece declarations into per-cell move tables: the third stage.

Every movement primitive (`step`, `ride`, `leap`, ...) becomes, for each side
and each cell, a list of rays: the cells a line passes, nearest first, and
the index from which the piece may land.  Primitives of one piece that share
their modifiers are merged into one `Component`, and identical components of
different pieces are shared.  A component then answers, for a cell and a board
occupancy, "which cells can this piece reach" with one or two dictionary
look-ups: `Reach` tables keyed by the occupancy of the cells that can block.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import networkx as nx

from variantkit.betza import moves_of
from variantkit.board import Board, Ray
from variantkit.errors import DeclarationError

MOVE = 1
CAPTURE = 2
CONVERT = 4  # suborn: the target changes side instead of being captured
# Cells whose occupancy one look-up table may key on: 2**14 entries at most,
# filled lazily, so memory stays bounded whatever the board.
MAX_GROUP_BITS = 14


class _LineTable(dict[int, int]):
    """Reachable cells of a group of rays, keyed by the occupancy of the
    cells that can block them; an entry is computed the first time it is
    asked for."""

    __slots__ = ("rays",)

    def __init__(self, rays: list[tuple[Ray, int]]) -> None:
        super().__init__()
        self.rays = rays

    def __missing__(self, occupied: int) -> int:
        bits = 0
        for cells, first in self.rays:
            for i, c in enumerate(cells):
                bit = 1 << c
                if i >= first:
                    bits |= bit
                if occupied & bit:
                    break
        self[occupied] = bits
        return bits


# Per cell: cells always reached (leaps, single steps), plus (mask, table)
# pairs for lines that can be blocked.
CellReach = tuple[int, tuple[tuple[int, _LineTable], ...]]


def _cell_reach(rays: list[tuple[Ray, int]]) -> CellReach:
    const = 0
    groups: list[tuple[int, list[tuple[Ray, int]]]] = []
    for cells, first in rays:
        if len(cells) == 1 and first == 0:
            const |= 1 << cells[0]
            continue
        mask = 0
        for c in cells[:-1]:
            mask |= 1 << c
        for i, (gmask, members) in enumerate(groups):
            if (gmask | mask).bit_count() <= MAX_GROUP_BITS:
                groups[i] = (gmask | mask, members + [(cells, first)])
                break
        else:
            groups.append((mask, [(cells, first)]))
    return const, tuple((m, _LineTable(members)) for m, members in groups)


def reach(table: CellReach, occupied: int) -> int:
    """Cells reached from a cell's table under `occupied` (the first
    occupied cell of a line included, as a capture candidate)."""
    bits, groups = table
    for mask, lines in groups:
        bits |= lines[occupied & mask]
    return bits


@dataclass(frozen=True)
class Flags:
    """The modifiers that make two primitives behave differently."""

    mode: int = MOVE | CAPTURE
    initial: bool = False
    en_passant: str | None = None
    may_give_check: bool = True
    # False: a move by this primitive keeps the half-move clock running even
    # when the piece's moves reset it (a pawn's sideways step).
    resets_clock: bool = True
    # For suborn: the piece types that may be converted (None: any non-royal).
    suborn_types: frozenset[int] | None = None


@dataclass
class Component:
    """Primitives with the same flags, compiled per side and cell."""

    flags: Flags
    rays: list[list[list[tuple[Ray, int]]]]          # [side][cell] -> rays
    tables: list[list[CellReach]] = field(default_factory=list)
    # En passant targets created by a move: [side][(from, to)] -> passed cells.
    passed: list[dict[tuple[int, int], int]] = field(default_factory=list)
    # Attack relation, for check detection.  When the relation read backwards
    # equals the forward relation of some side, that side's tables answer
    # "who attacks this cell" directly (`reverse_side`); otherwise the
    # explicit (attacker, between) pairs are used.
    reverse_side: list[int | None] = field(default_factory=list)
    attack_pairs: list[list[list[tuple[int, int]]]] = field(default_factory=list)
    # Slider sources on an empty board and the cells between them and a
    # target: a piece standing there may be pinned.  [side][target].
    xray_sources: list[list[int]] = field(default_factory=list)
    xray_between: list[list[dict[int, int]]] = field(default_factory=list)

    def compile(self) -> None:
        self.tables = [[_cell_reach(cell_rays) for cell_rays in side] for side in self.rays]
        self.passed = [self._passed(side) for side in self.rays]
        if self.flags.mode & CAPTURE:
            self._compile_attacks()

    def _passed(self, side_rays: list[list[tuple[Ray, int]]]) -> dict[tuple[int, int], int]:
        if self.flags.en_passant != "target":
            return {}
        passed: dict[tuple[int, int], int] = {}
        for frm, cell_rays in enumerate(side_rays):
            for cells, first in cell_rays:
                for i in range(first, len(cells)):
                    mask = 0
                    for c in cells[:i]:
                        mask |= 1 << c
                    passed[(frm, cells[i])] = mask
        return passed

    def _relation(self, side: int) -> set[tuple[int, int, int]]:
        rel = set()
        for frm, cell_rays in enumerate(self.rays[side]):
            for cells, first in cell_rays:
                between = 0
                for i, c in enumerate(cells):
                    if i >= first:
                        rel.add((frm, c, between))
                    between |= 1 << c
        return rel

    def _compile_attacks(self) -> None:
        n_cells = len(self.rays[0])
        forward = [self._relation(s) for s in range(2)]
        for s in range(2):
            backward = {(d, a, b) for a, d, b in forward[s]}
            self.reverse_side.append(next((o for o in (1 - s, s) if forward[o] == backward), None))
            pairs: list[list[tuple[int, int]]] = [[] for _ in range(n_cells)]
            sources = [0] * n_cells
            between: list[dict[int, int]] = [{} for _ in range(n_cells)]
            for a, d, b in forward[s]:
                pairs[d].append((1 << a, b))
                if b:
                    sources[d] |= 1 << a
                    between[d][1 << a] = between[d].get(1 << a, 0) | b
            self.attack_pairs.append(pairs)
            self.xray_sources.append(sources)
            self.xray_between.append(between)

    def attackers(self, side: int, target: int, occupied: int) -> int:
        """Cells from which a piece of `side` with this component attacks
        `target` under `occupied`."""
        other = self.reverse_side[side]
        if other is not None:
            return reach(self.tables[other][target], occupied)
        bits = 0
        for a, between in self.attack_pairs[side][target]:
            if not between & occupied:
                bits |= a
        return bits


@dataclass
class PieceType:
    """A declared piece, with the indices of its compiled components."""

    index: int
    name: str
    letter: str
    royal: bool
    value: float | None
    resets_clock: bool
    components: list[int]
    glyph: str | None = None  # a drawing hint: the chess symbol to draw it with


@dataclass
class PieceSet:
    types: list[PieceType]
    components: list[Component]
    by_letter: dict[str, PieceType]
    by_name: dict[str, PieceType]


def piece_code(type_index: int, side: int) -> int:
    """What a cell holds: 0 is empty, then 2 + 2 * type + side (0 White, 1 Black)."""
    return 2 + 2 * type_index + side


def type_of(code: int) -> int:
    """The piece type index of a piece code."""
    return (code >> 1) - 1


# -- compiling primitives -------------------------------------------------------
PRIMITIVES = ("step", "ride", "leap", "jump", "suborn")


@dataclass
class Context:
    """What compiling a primitive needs beyond the board itself."""

    board: Board
    forwards: list[str | None]
    royal_start: list[int | None]   # where each side's royal piece starts
    piece_index: dict[str, int]
    _distances: dict[int, dict[int, int]] = field(default_factory=dict)
    _orthogonal: nx.Graph | None = None

    def orthogonal_graph(self) -> nx.Graph:
        if self._orthogonal is None:
            graph = self.board.graph
            self._orthogonal = graph.edge_subgraph(
                [(a, b) for a, b, kinds in graph.edges(data="kinds") if "orthogonal" in kinds])
        return self._orthogonal

    def distances(self, target: int) -> dict[int, int]:
        """Orthogonal steps from every cell to `target` (pieces ignored)."""
        if target not in self._distances:
            self._distances[target] = dict(
                nx.single_source_shortest_path_length(self.orthogonal_graph(), target))
        return self._distances[target]

    def region(self, ref: Any, side: int) -> set[int]:
        """A region reference: a name, a list of cells, or one per side."""
        if isinstance(ref, dict):
            ref = ref[("white", "black")[side]]
        return set(self.board.cells_of(self.board.resolve_region(ref)))

    def cell_target(self, ref: str, side: int) -> int:
        if ref == "enemy-royal-start":
            start = self.royal_start[1 - side]
            if start is None:
                raise DeclarationError("closer-to: the setup has no enemy royal piece",
                                       "closer-to-target")
            return start
        return self.board.cell(ref)


def _range(value: Any, what: str) -> tuple[int, int]:
    """`N` (up to N) or `[min, max]` as a pair."""
    low, high = (1, value) if isinstance(value, int) else (value[0], value[1])
    if not 1 <= low <= high:
        raise DeclarationError(f"{what} {value}: expected 1 <= min <= max", "bad-range")
    return low, high


def _line_rays(board: Board, spec: dict[str, Any], kind: str, forward: str | None,
               cell: int) -> list[tuple[Ray, int]]:
    """Rays of `step`, `ride` and `leap`."""
    topo = board.topology
    if kind == "leap":
        return [((t,), 0) for t in topo.leaps(cell, spec["leap"], forward)]
    items = spec[kind] if isinstance(spec[kind], list) and not _is_vector(spec[kind]) \
        else [spec[kind]]
    if kind == "step":
        low, high = 1, 1
    elif "range" in spec:
        low, high = _range(spec["range"], "range")
    else:
        low, high = 1, board.size
    out = []
    for item in items:
        for direction in topo.directions(item, forward):
            for cells in topo.rays(cell, direction):
                if len(cells) >= low:
                    out.append((cells[:high], low - 1))
    return out


def _shift(board: Board, cell: int, planes: int) -> int | None:
    if board.topology.plane_of(cell) is None:
        raise DeclarationError("plane-shift needs a board with planes", "plane-shift-board")
    return board.topology.shift_plane(cell, planes)


def _plane_shift(board: Board, spec: dict[str, Any], kind: str | None,
                 rays: list[tuple[Ray, int]], cell: int) -> list[tuple[Ray, int]]:
    """Rays of a move that ends on another plane.

    Alone, the piece travels its column.  With an in-plane primitive, `path`
    says which cells must be empty: `line` climbs one plane per in-plane step
    (a straight line through space), `landing` only the destination (the
    in-plane move's landing cell moved up or down), `shifted` the in-plane
    move's own path carried to the destination plane.
    """
    shift = spec["plane-shift"]
    low, high = _range(shift["planes"], "planes")
    path = shift.get("path", "line" if kind is None else "landing")
    out: list[tuple[Ray, int]] = []
    for sign in (1, -1):
        if kind is None or path == "line":
            # Alone, the "in-plane ray" stands still, so the line is the column.
            for cells, _ in rays if kind is not None else [((cell,) * high, 0)]:
                line: list[int] = []
                for i in range(min(high, len(cells))):
                    shifted = _shift(board, cells[i], sign * (i + 1))
                    if shifted is None:
                        break
                    line.append(shifted)
                if len(line) >= low:
                    out.append((tuple(line), low - 1))
            continue
        for cells, first in rays:
            for i in range(first, len(cells)):
                for k in range(low, high + 1):
                    moved = [_shift(board, c, sign * k) for c in cells[:i + 1]]
                    if None in moved:
                        continue
                    if path == "landing":
                        out.append(((moved[-1],), 0))  # type: ignore[arg-type]
                    else:
                        out.append((tuple(moved), i))  # type: ignore[arg-type]
    return out


def _keep_landings(rays: list[tuple[Ray, int]], keep: set[int]) -> list[tuple[Ray, int]]:
    """Each ray cut at its first landing cell outside `keep`."""
    out = []
    for cells, first in rays:
        end = next((i for i in range(first, len(cells)) if cells[i] not in keep), len(cells))
        if end > first:
            out.append((cells[:end], first))
    return out


def _landings(rays: list[tuple[Ray, int]]) -> set[int]:
    return {c for cells, first in rays for c in cells[first:]}


def primitive_rays(ctx: Context, spec: dict[str, Any], side: int,
                   cell: int) -> list[tuple[Ray, int]]:
    """The rays of one primitive from one cell for one side."""
    if "from-region" in spec and cell not in ctx.region(spec["from-region"], side):
        return []
    board, forward = ctx.board, ctx.forwards[side]
    kind = next((k for k in PRIMITIVES if k in spec), None)
    if kind is None and "plane-shift" not in spec:
        raise DeclarationError(
            f"a move needs one of {', '.join(PRIMITIVES)} or plane-shift", "bad-primitive")
    rays: list[tuple[Ray, int]]
    if kind == "jump":
        rays = [((t,), 0) for t in sorted(ctx.region(spec["jump"], side) - {cell})]
    elif kind == "suborn":
        rays = _line_rays(board, {"step": "all"}, "step", forward, cell)
    else:
        rays = _line_rays(board, spec, kind, forward, cell) if kind else []
    if "plane-shift" in spec:
        rays = _plane_shift(board, spec, kind, rays, cell)
    if "to-region" in spec:
        rays = _keep_landings(rays, ctx.region(spec["to-region"], side))
    if "closer-to" in spec:
        distance = ctx.distances(ctx.cell_target(spec["closer-to"], side))
        here = distance.get(cell, board.size)
        rays = _keep_landings(rays, {c for c, d in distance.items() if d < here})
    if "beside" in spec:
        # Cells orthogonally next to a cell the given move could reach from
        # here on an empty board.
        graph = ctx.orthogonal_graph()
        reached = _landings(primitive_rays(ctx, spec["beside"], side, cell))
        rays = _keep_landings(rays, {n for c in reached if c in graph for n in graph[c]})
    return rays


def _is_vector(x: Any) -> bool:
    return isinstance(x, list) and bool(x) and all(isinstance(v, int) for v in x)


def flags_of(spec: dict[str, Any], piece_index: dict[str, int]) -> Flags:
    only = spec.get("only")
    if "plane-shift" in spec:
        if only == "capture":
            raise DeclarationError("a plane-shift move never captures: drop `only: capture`",
                                   "plane-shift-capture")
        only = "move"  # moves that change plane never capture
    mode = {"move": MOVE, "capture": CAPTURE}.get(only or "", MOVE | CAPTURE)
    suborn_types = None
    if "suborn" in spec:
        mode = CONVERT
        names = (spec["suborn"] or {}).get("pieces")
        if names is not None:
            unknown = [n for n in names if n not in piece_index]
            if unknown:
                raise DeclarationError(f"suborn: unknown piece '{unknown[0]}'", "unknown-piece")
            suborn_types = frozenset(piece_index[n] for n in names)
    en_passant = spec.get("en-passant")
    if en_passant == "target" and "ride" not in spec:
        raise DeclarationError("en-passant: target needs a ride: the cells it passes over "
                               "become the target", "bad-en-passant")
    if en_passant == "capture" and not mode & CAPTURE:
        raise DeclarationError("en-passant: capture needs a move that may capture",
                               "bad-en-passant")
    return Flags(mode=mode, initial=bool(spec.get("initial", False)),
                 en_passant=en_passant,
                 may_give_check=bool(spec.get("may-give-check", True)),
                 resets_clock=bool(spec.get("resets-clock", True)),
                 suborn_types=suborn_types)


Located = Callable[[tuple[str | int, ...], Callable[[], Any]], Any]


def compile_pieces(ctx: Context, declared: dict[str, Any], located: Located) -> PieceSet:
    """Compile every declared piece for both sides.

    `located(path, fn)` runs `fn` and turns a DeclarationError into a
    located problem (returning None).
    """
    board = ctx.board
    components: list[Component] = []
    by_key: dict[Any, int] = {}
    types: list[PieceType] = []
    for index, (name, spec) in enumerate(declared.items()):
        merged: dict[Flags, list[list[list[tuple[Ray, int]]]]] = {}
        moves = located(("pieces", name, "betza"), partial(moves_of, spec, board)) or []
        for m, move in enumerate(moves):
            path = ("pieces", name, "moves", m) if "moves" in spec else ("pieces", name, "betza")
            flags = located(path, partial(flags_of, move, ctx.piece_index))
            if flags is None:
                continue
            side_rays = merged.setdefault(
                flags, [[[] for _ in range(board.size)] for _ in range(2)])
            for side in range(2):
                for cell in range(board.size):
                    rays = located(path, partial(primitive_rays, ctx, move, side, cell))
                    if rays is None:
                        break  # the problem is the same from every cell
                    side_rays[side][cell].extend(rays)
        indices = []
        for flags, rays in merged.items():
            key = (flags, tuple(tuple(tuple(cell) for cell in side) for side in rays))
            if key not in by_key:
                component = Component(flags=flags, rays=rays)
                component.compile()
                by_key[key] = len(components)
                components.append(component)
            indices.append(by_key[key])
        types.append(PieceType(index=index, name=name, letter=spec["letter"],
                               royal=bool(spec.get("royal", False)),
                               value=spec.get("value"),
                               resets_clock=bool(spec.get("resets-clock", False)),
                               components=indices, glyph=spec.get("glyph")))
    return PieceSet(types=types, components=components,
                    by_letter={t.letter: t for t in types},
                    by_name={t.name: t for t in types})
