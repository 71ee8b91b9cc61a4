"""The topology-independent board: cells, graph, regions, and the protocol a
topology implements so that pieces can be compiled on it."""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol, Required, TypedDict, cast

from variantkit.errors import DeclarationError
from variantkit.limits import MAX_CELL_NAME_LENGTH, MAX_CELLS

if TYPE_CHECKING:
    import networkx as nx

# A ray is the sequence of cells a line passes through, nearest first.
Ray = tuple[int, ...]


# A region in a declaration: a region's name or a list of cell names (the
# schema's `region-ref`).
RegionRef = str | list[str]


# The sides as a declaration names them, in side order (0 is White).
SideName = Literal["white", "black"]
SIDE_NAMES: tuple[SideName, SideName] = ("white", "black")


class SideRegions(TypedDict):
    """A region for each side."""

    white: RegionRef
    black: RegionRef


# A region, or one per side (the schema's `side-region-ref`).
SideRegionRef = RegionRef | SideRegions

# Directions in a declaration: a name (a single direction, a family or a
# relative word), or a list of names and vectors (the schema's `directions`).
DirectionsDeclaration = str | list[str | list[int]]


class RegionSelector(TypedDict, total=False):
    """A region selected by the topology's keys (and listed `cells`), as the
    schema admits it: each topology reads its own keys and refuses others."""

    cells: list[str]
    files: list[str | int]   # a grid's or hex board's files, by letter or number from 1
    ranks: list[int]
    planes: list[str]
    sectors: list[str]
    rings: list[str]
    centre: bool
    rows: list[int]          # a graph board's rows, from 1 at the bottom


# A region under `board: {regions: ...}`: its cells listed, or selected.
RegionDeclaration = list[str] | RegionSelector

# `board: {grid: ...}` as the schema admits it (its keys are not all
# names, hence the functional form; so for the other boards).
GridDeclaration = TypedDict("GridDeclaration", {
    "files": Required[int],
    "ranks": Required[int],
    "planes": int,
    "plane-names": list[str],
    "wrap": Literal["none", "files", "ranks", "both"],
}, total=False)

class ThroughCentreDeclaration(TypedDict, total=False):
    orthogonal: Literal["straight", "none"]
    diagonal: Literal["opposite-then-same-sense", "none"]

PolarDeclaration = TypedDict("PolarDeclaration", {
    "sectors": Required[list[str] | str],   # names, or one name a character
    "rings": Required[list[str]],
    "centre": str | None,
    "cell-name": str,
    "through-centre": ThroughCentreDeclaration,
}, total=False)


class HexDeclaration(TypedDict, total=False):
    """`board: {hex: ...}`: a regular `side`, or six `sides`; names."""

    side: int
    sides: list[int]
    files: list[str] | str          # names from the left; a string: one character each
    ranks: Literal["file", "ne", "se"]


class SourceDeclaration(TypedDict, total=False):
    """`graph: {from: ...}`: the one board a graph starts from."""

    grid: GridDeclaration
    hex: HexDeclaration
    polar: PolarDeclaration


class GraphDirectionDeclaration(TypedDict, total=False):
    """One direction under `graph: {directions: ...}`."""

    kind: Required[Literal["orthogonal", "diagonal"]]
    opposite: str
    vector: list[int]
    relative: dict[str, list[str]]   # relative word -> the directions it means


TurnDeclaration = TypedDict("TurnDeclaration", {
    "direction": Required[str],
    "from": Required[str],
    "at": Required[str],
    "to": Required[str | list[str]],
    "then": Required[str | list[str]],
    "first-step": bool,
}, total=False)

GraphDeclaration = TypedDict("GraphDeclaration", {
    "from": SourceDeclaration,
    "remove-cells": list[str],
    "rows": list[str],
    "cells": dict[str, list[float] | None],   # cell name -> its position, if drawn
    "directions": dict[str, GraphDirectionDeclaration],
    "lines": dict[str, list[str]],            # direction -> lines of cell names
    "remove-lines": dict[str, list[str]],
    "turns": list[TurnDeclaration],
}, total=False)


class BoardDeclaration(TypedDict, total=False):
    """`board:` as the schema admits it: one topology, and named regions."""

    grid: GridDeclaration
    polar: PolarDeclaration
    hex: HexDeclaration
    graph: GraphDeclaration
    regions: dict[str, RegionDeclaration]


class Topology(Protocol):
    """What a board shape must answer for the compiler.

    Direction keys are opaque to the rest of the pipeline: the topology turns
    names from the YAML file into keys (`directions`) and keys into rays.
    """

    # Whether [x, y] vectors are offsets in files and ranks and the grid's
    # relative words hold: what Betza notation expands to.
    grid_like: bool

    def directions(self, spec: Any, forward: str | None) -> list[Any]:
        """Direction keys for one YAML direction item, for a side whose
        forward direction is `forward` (None where the board has none)."""
        ...

    def rays(self, cell: int, direction: Any) -> list[Ray]:
        """Every line from `cell` in `direction`; more than one where a line
        branches (through a centre, say)."""
        ...

    def leaps(self, cell: int, spec: Any, forward: str | None) -> list[int]:
        """The cells a `leap:` declaration reaches from `cell`."""
        ...

    def region(self, spec: RegionSelector) -> set[int]:
        """The cells selected by a region's topology keys (files, ranks, ...)."""
        ...

    def forward_names(self) -> list[str]:
        """Direction names a side may declare as its forward."""
        ...

    def plane_of(self, cell: int) -> int | None:
        """The plane a cell lies in, or None on a board without planes."""
        ...

    def shift_plane(self, cell: int, planes: int) -> int | None:
        """The cell `planes` planes up (down if negative), or None."""
        ...


def check_cell_count(count: int, board_kind: str) -> None:
    """Refuse a board of more than MAX_CELLS cells before building it."""
    if count > MAX_CELLS:
        raise DeclarationError(
            f"a board has at most {MAX_CELLS:,} cells; this {board_kind} has {count:,}",
            "board-size")


def cell_graph(count: int) -> nx.Graph:
    """A graph of `count` cells and no links yet, for a topology to link.
    networkx is imported here, when the first board is built, so that
    `import variantkit` does not pay for it."""
    import networkx as nx

    graph = nx.Graph()
    graph.add_nodes_from(range(count))
    return graph


class Flat:
    """For topologies without planes: no cell has a plane to leave."""

    grid_like = False

    def plane_of(self, cell: int) -> int | None:
        return None

    def shift_plane(self, cell: int, planes: int) -> int | None:
        return None


def is_pair(x: Any) -> bool:
    """Whether a YAML value is a pair of integers, such as a leap's [a, b]."""
    return isinstance(x, list) and len(x) == 2 and all(
        isinstance(v, int) and not isinstance(v, bool) for v in x)


def unknown_direction(spec: Any, board_kind: str, families: list[str],
                      names: list[str]) -> DeclarationError:
    """The error for a direction a topology does not know: a suggestion when
    one name is close, else the families and single names it knows.  The
    word itself is never suggested: a word known only in some cases (a
    relative word without a forward direction) gets its own message."""
    close = difflib.get_close_matches(str(spec), [w for w in families + names if w != spec],
                                      n=1) if isinstance(spec, str) else []
    hint = f"did you mean '{close[0]}'?" if close else \
        f"known: {', '.join(families)} and the single directions {', '.join(names)}"
    return DeclarationError(f"unknown direction {spec!r} on a {board_kind} ({hint})",
                            "unknown-direction")


@dataclass
class Board:
    """Cells, their graph and regions; built once per variant."""

    names: list[str]
    coords: list[tuple[int, ...]]
    # Edges carry `kinds`, a frozenset of "orthogonal" and/or "diagonal".
    graph: nx.Graph
    # Cell colour for rules such as "bishops all on one colour".
    colours: list[int]
    # Position-string layout: groups (planes) of rows of cells, and for
    # drawing, each group's (title, row labels, column labels).
    layout: list[list[list[int]]]
    labels: list[tuple[str, list[str], list[str]]]
    topology: Topology
    regions: dict[str, int] = field(default_factory=dict)
    # The edges joined into seams ("files": left to right, "ranks": top to
    # bottom), for drawings to mark.
    wraps: tuple[str, ...] = ()
    # For drawing rows with gaps: the column of each cell of `layout`
    # (None: rows are drawn centred).
    columns: list[list[list[int]]] | None = None
    # (message, rule) pairs a topology found odd but not wrong: warnings.
    notes: list[tuple[str, str]] = field(default_factory=list)
    index: dict[str, int] = field(init=False)  # name -> cell, from `names`
    # The topology's lines, each computed once: every piece that rides a
    # direction asks for the same lines from every cell.
    _rays: dict[tuple[int, Any], list[Ray]] = field(init=False, default_factory=dict,
                                                    repr=False)

    def __post_init__(self) -> None:
        self.index = {name: i for i, name in enumerate(self.names)}
        longest = max(self.names, key=len, default="")
        if len(longest) > MAX_CELL_NAME_LENGTH:
            raise DeclarationError(
                f"cell names are at most {MAX_CELL_NAME_LENGTH} characters long, not "
                f"{len(longest)} ('{longest[:MAX_CELL_NAME_LENGTH]}...')", "board-size")

    def note(self, message: str, rule: str) -> None:
        """Record something odd but not wrong, reported as a warning."""
        self.notes.append((message, rule))

    @property
    def size(self) -> int:
        return len(self.names)

    def rays(self, cell: int, direction: Any) -> list[Ray]:
        """`topology.rays(cell, direction)`, remembered."""
        key = (cell, direction)
        if key not in self._rays:
            self._rays[key] = self.topology.rays(cell, direction)
        return self._rays[key]

    def cell(self, name: str) -> int:
        """The index of a named cell; a DeclarationError names a bad one."""
        try:
            return self.index[name]
        except KeyError:
            raise DeclarationError(f"unknown cell '{name}'", "unknown-cell") from None

    def mask(self, cells: set[int] | list[int]) -> int:
        bits = 0
        for c in cells:
            bits |= 1 << c
        return bits

    def slot_rows(self) -> list[list[list[int]]] | None:
        """The position-string rows with their gaps: per group (plane), per
        row, the cell in each column from the group's leftmost to its
        rightmost, -1 where the row has no cell (a hole).  None when the
        board's cells have no columns to count by."""
        if self.columns is None:
            return None
        slots = []
        for rows, columns in zip(self.layout, self.columns, strict=True):
            width = 1 + max((c for row in columns for c in row), default=-1)
            group = []
            for row, cols in zip(rows, columns, strict=True):
                slot = [-1] * width
                for cell, column in zip(row, cols, strict=True):
                    slot[column] = cell
                group.append(slot)
            slots.append(group)
        return slots

    def cells_of(self, bits: int) -> list[int]:
        """The cell indices set in a mask, in index order."""
        out = []
        while bits:
            low = bits & -bits
            out.append(low.bit_length() - 1)
            bits ^= low
        return out

    def region_cells(self, spec: RegionDeclaration) -> set[int]:
        """Cells of a region declaration: a list of names or a selector."""
        if isinstance(spec, list):
            return {self.cell(name) for name in spec}
        cells: set[int] | None = None
        # The listed cells apart, what is left is the topology's to read.
        selectors = cast(RegionSelector, {k: v for k, v in spec.items() if k != "cells"})
        if selectors:
            cells = self.topology.region(selectors)
        if "cells" in spec:
            listed = {self.cell(name) for name in spec["cells"]}
            cells = listed if cells is None else cells | listed
        return cells or set()

    def add_regions(self, declared: dict[str, RegionDeclaration]) -> None:
        for name, spec in declared.items():
            self.regions[name] = self.mask(self.region_cells(spec))

    def resolve_region(self, ref: RegionRef) -> int:
        """A region given by name or as a list of cell names, as a mask."""
        if isinstance(ref, str):
            if ref not in self.regions:
                raise DeclarationError(f"unknown region '{ref}'", "unknown-region")
            return self.regions[ref]
        return self.mask(self.region_cells(ref))
