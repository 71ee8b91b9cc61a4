"""The `graph` topology: a board declared as cells and named directions.

For boards no generator makes: odd shapes, holes, extra links, boards drawn
cell by cell.  The declaration (docs/reference/board.md, "graph") gives

- cells, by name, with an optional drawing position `[x, y]` (x right, y up);
  `rows` of names as strings give cells, their positions (column, row) and
  the rows of position strings in one go (`.` leaves a gap);
- directions, each `orthogonal` or `diagonal`, with an optional `opposite`
  (declared once, derived for the other), an optional `vector` that links
  every two cells whose positions differ by it, and `relative` words (such
  as `forward-diagonal`) for a side whose forward it is;
- `lines`: strings of cells, each one step of the direction from the one
  before (a closed ring repeats its first cell at the end);
- `turns`: where a line does not go straight on, where it goes instead: a
  line arriving at `at` from `from` in `direction` continues to `to` and
  then in `then` (a list: it branches), optionally only for lines that start
  on `from` (`first-step`);
- `from`: a generator (grid, hex or polar) to start from, with
  `remove-cells`, added cells, directions, `lines` and `remove-lines` on
  top.  The generator's lines become steps (their first cells) and turns
  (read off where a line leaves its direction's steps, as a polar line
  through the centre does), checked to give its lines back exactly.

A line follows its direction from cell to cell (every branch where a cell
has several next cells), takes the declared turns, and stops at a dead end,
before its own cell (a ring), or before any cell it has passed already (a
loop, reported as a warning).  All of this runs at load time; the compiled
tables never see the graph.
"""

from __future__ import annotations

import difflib
import itertools
import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, cast

from variantkit.board.base import (
    Board,
    GraphDeclaration,
    GraphDirectionDeclaration,
    Ray,
    RegionSelector,
    TurnDeclaration,
    cell_graph,
    is_pair,
    unknown_direction,
)
from variantkit.errors import DeclarationError
from variantkit.limits import MAX_CELLS

if TYPE_CHECKING:
    import networkx as nx

# The most cells on all the branches of one line together: with the cell
# limit of every board (limits.MAX_CELLS) it keeps loading bounded.
MAX_LINE_CELLS = 20_000
FAMILIES = ("orthogonal", "diagonal", "all")
SHOWN = 3  # loops named in the warning before "and N more"
SHOWN_NAMES = 6  # direction names a message lists before "..."

Point = tuple[float, float]
Key = Any  # a direction name (str), or ("vector", v) / ("source", key)


class Source(Protocol):
    """A generator a graph may start from (`from:`)."""

    grid_like: bool

    def build(self) -> Board: ...

    def single_directions(self) -> dict[str, tuple[Any, str, str]]:
        """name -> (direction key, kind, opposite name)."""
        ...

    def position(self, cell: int) -> Point: ...

    def directions(self, spec: Any, forward: str | None) -> list[Any]: ...

    def rays(self, cell: int, direction: Any) -> list[Ray]: ...

    def leaps(self, cell: int, spec: Any, forward: str | None) -> list[int]: ...

    def region(self, spec: RegionSelector) -> set[int]: ...

    def plane_of(self, cell: int) -> int | None: ...

    def shift_plane(self, cell: int, planes: int) -> int | None: ...


@dataclass
class Direction:
    """A graph direction as declared (or derived, for an opposite)."""

    kind: str
    opposite: str | None = None
    vector: tuple[int, int] | None = None
    relative: dict[str, list[str]] = field(default_factory=dict)


def graph_error(message: str, rule: str, *where: str | int) -> DeclarationError:
    """A DeclarationError located below the `graph:` key."""
    return DeclarationError(message, rule, ("graph", *where))


class GraphTopology:
    """Cells and named directions, declared or started from a generator."""

    def __init__(self, spec: GraphDeclaration, source: Source | None = None) -> None:
        self.source = source
        # Positions serve as vectors, or the grid it starts from does.
        self.grid_like = source.grid_like if source is not None else True
        self.names: list[str] = []
        self.index: dict[str, int] = {}
        self.positions: list[Point | None] = []
        self.named: dict[str, Direction] = {}  # every direction by name
        self.steps: dict[str, dict[int, list[int]]] = {}
        # (direction, from, at, first step only) -> [(next cell, direction)]
        self.turns: dict[tuple[str, int, int, bool], list[tuple[int, str]]] = {}
        self.to_source: list[int | None] = []
        self.from_source: dict[int, int] = {}
        self.source_names: dict[Any, str] = {}   # a source key -> its name
        # Position-string groups (a generator's planes; else one) of rows,
        # and each group's (title, row labels, column labels).
        self.groups: list[list[list[int]]] = [[]]
        self.labels: list[tuple[str, list[str], list[str]]] = [("", [], [])]
        self.source_colours: dict[int, int] = {}
        self.wraps: tuple[str, ...] = ()
        self._rays: dict[tuple[int, Key], list[Ray]] = {}
        self.loops: list[tuple[int, str, int]] = []
        # Where each cell was declared: the row of `rows`, or `cells` alone.
        self.row_of: dict[int, int] = {}
        self.loose: list[int] = []
        if source is not None:
            self._start_from(source, spec.get("remove-cells", []))
        elif "remove-cells" in spec:
            raise graph_error("remove-cells needs a board to start `from`", "bad-board",
                              "remove-cells")
        self._add_rows(spec.get("rows", []))
        self._add_cells(spec.get("cells", {}))
        self.by_position = {p: c for c, p in enumerate(self.positions) if p is not None}
        if not self.names:
            raise graph_error("a graph board needs cells: `rows`, `cells` or `from`", "bad-board")
        self._add_directions(spec.get("directions", {}))
        self._link_vectors()
        for name, lines in spec.get("lines", {}).items():
            for i, line in enumerate(lines):
                for a, b in self._pairs(line, name, "lines", i):
                    self._link(name, a, b)
        for name, lines in spec.get("remove-lines", {}).items():
            for i, line in enumerate(lines):
                for a, b in self._pairs(line, name, "remove-lines", i):
                    self._unlink(name, a, b)
        for i, turn in enumerate(spec.get("turns", [])):
            self._add_turn(i, turn)
        self._check_opposites()
        self._check_row_names()

    # -- declaration ---------------------------------------------------------
    def _new_cell(self, name: str, position: Point | None, *where: str | int) -> int:
        if len(self.names) == MAX_CELLS:
            raise graph_error(f"a graph board has at most {MAX_CELLS} cells", "board-size")
        if name in self.index:
            raise graph_error(f"cell '{name}' is declared twice", "bad-board", *where)
        if name == "." or not name or any(ch.isspace() for ch in name):
            raise graph_error(f"'{name}' cannot name a cell", "bad-board", *where)
        self.index[name] = len(self.names)
        self.names.append(name)
        self.positions.append(position)
        self.to_source.append(None)
        return self.index[name]

    def _cell(self, name: Any, *where: str | int) -> int:
        if not isinstance(name, str) or name not in self.index:
            raise graph_error(f"unknown cell '{name}'", "unknown-cell", *where)
        return self.index[name]

    def _start_from(self, source: Source, removed: list[str]) -> None:
        board = source.build()
        gone = set()
        for i, name in enumerate(removed):
            if name not in board.index:
                raise graph_error(f"unknown cell '{name}'", "unknown-cell", "remove-cells", i)
            gone.add(board.index[name])
        for cell, name in enumerate(board.names):
            if cell not in gone:
                new = self._new_cell(name, source.position(cell))
                self.to_source[new] = cell
                self.from_source[cell] = new
                self.source_colours[new] = board.colours[cell]
        self.wraps = board.wraps
        self.groups, self.labels = [], []
        for group, (title, rows, cols) in zip(board.layout, board.labels, strict=True):
            kept_rows, kept_labels = [], []
            for r, row in enumerate(group):
                kept = [self.from_source[c] for c in row if c in self.from_source]
                if kept:
                    kept_rows.append(kept)
                    kept_labels.append(rows[r] if r < len(rows) else "")
            if kept_rows:
                self.groups.append(kept_rows)
                self.labels.append((title, kept_labels, cols))
        steps, turns = source_lines(source, board)
        here = self.from_source
        for name, (key, kind, opposite) in source.single_directions().items():
            self.named[name] = Direction(kind, opposite)
            self.source_names[key] = name
            self.steps[name] = {here[a]: [here[b] for b in nxt if b in here]
                                for a, nxt in steps[name].items() if a in here}
        # A turn into a hole is no turn: the line ends before the hole.
        self.turns = {(d, here[came], here[at], first): [(here[to], then)
                                                         for to, then in nexts if to in here]
                      for (d, came, at, first), nexts in turns.items()
                      if came in here and at in here}

    def _add_rows(self, rows: list[str]) -> None:
        for r, text in enumerate(rows):
            row = []
            for c, name in enumerate(text.split()):
                if name != ".":
                    row.append(self._new_cell(name, (c, len(rows) - 1 - r), "rows", r))
                    self.row_of[row[-1]] = r
            if row:
                self._add_row(row)

    def _add_cells(self, cells: dict[str, list[float] | None]) -> None:
        loose: list[int] = []
        for name, at in cells.items():
            position = (float(at[0]), float(at[1])) if at is not None else None
            if position is not None and not all(map(math.isfinite, position)):
                raise graph_error(f"cell '{name}' needs a position of two finite numbers",
                                  "bad-board", "cells", name)
            if name in self.index and self.to_source[self.index[name]] is None:
                self.positions[self.index[name]] = position  # drawn elsewhere than its row
            else:
                loose.append(self._new_cell(name, position, "cells", name))
        self.loose = loose
        # Cells outside `rows` are rows of their own for position strings:
        # by height when placed, top first, else one row in declared order.
        by_height: dict[float, list[int]] = {}
        for cell in loose:
            position = self.positions[cell]
            by_height.setdefault(position[1] if position else -math.inf, []).append(cell)
        for height in sorted(by_height, reverse=True):
            self._add_row(sorted(by_height[height],
                                 key=lambda c: (self.positions[c] or (0.0, 0.0))[0]))

    def _add_row(self, row: list[int]) -> None:
        """A row of added cells, in the last group (plane) of position strings."""
        self.groups[-1].append(row)
        self.labels[-1][1].append("")

    def _add_directions(self, declared: dict[str, GraphDirectionDeclaration]) -> None:
        # The graph's own directions, the derived opposites included.
        self.declared = set(declared) | {spec["opposite"] for spec in declared.values()
                                         if "opposite" in spec}
        for name, spec in declared.items():
            if name in self.named or name in FAMILIES:
                raise graph_error(f"direction '{name}' is declared twice or is a family name",
                                  "bad-direction", "directions", name)
            vector = spec.get("vector")
            if vector == [0, 0]:
                raise graph_error("a direction's vector cannot be zero", "bad-direction",
                                  "directions", name, "vector")
            self.named[name] = Direction(spec["kind"], spec.get("opposite"),
                                               (vector[0], vector[1]) if vector else None,
                                               dict(spec.get("relative", {})))
        for name in declared:
            direction = self.named[name]
            opposite = direction.opposite
            if opposite is None:
                continue
            other = self.named.get(opposite)
            if other is None:  # derived: same kind, reversed vector
                along = direction.vector
                self.named[opposite] = Direction(
                    direction.kind, name, (-along[0], -along[1]) if along else None)
            elif other.opposite not in (None, name) or other.kind != direction.kind:
                why = f"'{name}' is {direction.kind}, '{opposite}' {other.kind}" \
                    if other.kind != direction.kind else \
                    f"the opposite of '{opposite}' is '{other.opposite}'"
                raise graph_error(f"'{name}' and '{opposite}' cannot be opposites: {why}",
                                  "bad-opposite", "directions", name, "opposite")
            else:
                other.opposite = name
        for name, direction in self.named.items():
            for word, listed in direction.relative.items():
                for d in listed:
                    if d not in self.named:
                        raise graph_error(f"unknown direction '{d}' in {name}'s '{word}'",
                                          "unknown-direction", "directions", name, "relative", word)
            self.steps.setdefault(name, {})

    def _link_vectors(self) -> None:
        for name, direction in self.named.items():
            if direction.vector is None:
                continue
            dx, dy = direction.vector
            for (x, y), cell in self.by_position.items():
                other = self._at((x + dx, y + dy))
                if other is not None:
                    self._link(name, cell, other, both=False)

    def _pairs(self, line: Any, direction: str, *where: str | int) -> Iterator[tuple[int, int]]:
        if direction not in self.named:
            raise graph_error(f"unknown direction '{direction}'", "unknown-direction", where[0],
                              direction)
        cells = [self._cell(name, where[0], direction, where[1]) for name in str(line).split()]
        if len(cells) < 2:
            raise graph_error(f"a line names at least two cells, got '{line}'", "bad-line",
                              where[0], direction, where[1])
        for a, b in itertools.pairwise(cells):
            if a == b:
                raise graph_error(f"a line steps from '{self.names[a]}' to itself", "bad-line",
                                  where[0], direction, where[1])
            yield a, b

    def _link(self, name: str, a: int, b: int, both: bool = True) -> None:
        """A step of `name` from a to b, and the opposite's step back."""
        nxt = self.steps[name].setdefault(a, [])
        if b not in nxt:
            nxt.append(b)
        opposite = self.named[name].opposite
        if both and opposite is not None:
            self._link(opposite, b, a, both=False)

    def _unlink(self, name: str, a: int, b: int) -> None:
        for d, x, y in ((name, a, b), (self.named[name].opposite, b, a)):
            if d is not None and y in self.steps[d].get(x, []):
                self.steps[d][x].remove(y)

    def _add_turn(self, i: int, turn: TurnDeclaration) -> None:
        name = turn["direction"]
        if name not in self.named:
            raise graph_error(f"unknown direction '{name}'", "unknown-direction", "turns", i,
                              "direction")
        frm = self._cell(turn["from"], "turns", i, "from")
        at = self._cell(turn["at"], "turns", i, "at")
        if at not in self.steps[name].get(frm, []):
            raise graph_error(f"no '{name}' step leads from {turn['from']} to {turn['at']}: the "
                              "turn is never reached", "bad-turn", "turns", i)
        targets = turn["to"] if isinstance(turn["to"], list) else [turn["to"]]
        thens = turn["then"] if isinstance(turn["then"], list) else [turn["then"]]
        nexts = []
        for cell_name in targets:
            to = self._cell(cell_name, "turns", i, "to")
            if not any(to in steps.get(at, []) for steps in self.steps.values()):
                raise graph_error(f"{cell_name} is not next to {turn['at']}: a line turns only "
                                  "to a neighbour", "bad-turn", "turns", i, "to")
            for then in thens:
                if then not in self.named:
                    raise graph_error(f"unknown direction '{then}'", "unknown-direction", "turns",
                                      i, "then")
                nexts.append((to, then))
        self.turns[(name, frm, at, bool(turn.get("first-step", False)))] = nexts

    def _check_row_names(self) -> None:
        """A cell of `rows` that nothing links, named like a cell declared only
        in `cells`, is a misspelling: name it, before the board it makes (two
        cells where one was meant) misleads every later message."""
        linked = {c for steps in self.steps.values() for a, nexts in steps.items() if nexts
                  for c in (a, *nexts)}
        spare = [self.names[c] for c in self.loose]
        for cell, r in self.row_of.items():
            if cell in linked:
                continue
            # The cell declared at this one's place, else a name one letter off.
            close = [self.names[c] for c in self.loose
                     if self.positions[c] == self.positions[cell]] or \
                difflib.get_close_matches(self.names[cell], spare, n=1, cutoff=0.5)
            if close:
                raise graph_error(
                    f"cell '{self.names[cell]}' of `rows` is not in `cells:` and nothing links "
                    f"it (did you mean '{close[0]}'?)", "unknown-cell", "rows", r)

    def _check_opposites(self) -> None:
        """Every step has one back of the same kind: else steps, captures and
        check would go one way only."""
        back = {(kind, b, a) for name, d in self.named.items()
                for kind in [d.kind] for a, nxt in self.steps[name].items() for b in nxt}
        for name, direction in self.named.items():
            for a, nxt in self.steps[name].items():
                for b in nxt:
                    if (direction.kind, a, b) not in back:
                        raise graph_error(
                            f"a step '{name}' leads from {self.names[a]} to "
                            f"{self.names[b]} but no {direction.kind} step leads back: declare "
                            f"`opposite:` for '{name}'", "missing-opposite", "directions", name)

    # -- the board -----------------------------------------------------------
    def build(self) -> Board:
        graph = cell_graph(len(self.names))
        for name, steps in self.steps.items():
            kind = self.named[name].kind
            for a, nxt in steps.items():
                for b in nxt:
                    old = graph.edges[a, b]["kinds"] if graph.has_edge(a, b) else frozenset()
                    graph.add_edge(a, b, kinds=old | {kind})
        coords: list[tuple[int, ...]] = [(cell,) for cell in range(len(self.names))]
        board = Board(names=list(self.names), coords=coords, graph=graph,
                      colours=self._colours(graph), layout=self.groups,
                      labels=self.labels, topology=self,
                      wraps=self.wraps, columns=self._columns())
        for cell in range(len(self.names)):
            for name in self.named:
                self.rays(cell, name)
        if self.loops:
            shown = ", ".join(f"from {self.names[a]} going {d} back to {self.names[b]}"
                              for a, d, b in self.loops[:SHOWN])
            more = len(self.loops) - SHOWN
            board.note(f"lines run into themselves and stop there: {shown}"
                       + (f" and {more} more" if more > 0 else ""), "line-loops")
        return board

    def _columns(self) -> list[list[list[int]]] | None:
        """Cells drawn as text in the column of their x position (counted from
        the leftmost cell of their group), when every cell has a whole-number
        one: gaps then show, as Omega Chess's corner cells or a grid's holes."""
        xs = [p[0] if p is not None else math.nan for p in self.positions]
        if not all(math.isfinite(x) and x == int(x) for x in xs):
            return None
        columns = []
        for group in self.groups:
            left = min((int(xs[c]) for row in group for c in row), default=0)
            columns.append([[int(xs[c]) - left for c in row] for row in group])
        return columns

    def _colours(self, graph: nx.Graph) -> list[int]:
        """The generator's colours; else two colours when the orthogonal
        links allow (the bottom-left cell's is 0, as chess's a1), else as few
        as a greedy colouring finds."""
        import networkx as nx  # on building a graph board, not on import

        orthogonal = nx.Graph()
        orthogonal.add_nodes_from(graph)
        orthogonal.add_edges_from((a, b) for a, b, k in graph.edges(data="kinds")
                                  if "orthogonal" in k)
        colours = dict(self.source_colours)
        if len(colours) < len(self.names):
            rest = orthogonal.subgraph(c for c in orthogonal if c not in colours)
            if nx.is_bipartite(rest):
                bottom = self.groups[0][-1][0] if self.groups[0] else 0
                for part in nx.connected_components(rest):
                    start = bottom if bottom in part else min(part)
                    for cell, depth in nx.single_source_shortest_path_length(
                            rest, start).items():
                        colours[cell] = depth % 2
            else:
                colours.update(nx.greedy_color(rest, strategy="largest_first"))
            # A cell linked only diagonally takes its diagonal neighbours'
            # colour, as a chessboard's cells do.
            for cell in rest:
                if orthogonal.degree(cell) == 0 and graph.degree(cell):
                    colours[cell] = colours[min(graph[cell])]
        return [colours[c] for c in range(len(self.names))]

    def position(self, cell: int) -> Point | None:
        """Where a cell is drawn (x right, y up), if declared."""
        return self.positions[cell]

    def links(self) -> list[tuple[int, int, str]]:
        """Each pair of linked cells once, with its kind, for drawings."""
        seen: dict[tuple[int, int], str] = {}
        for name, steps in self.steps.items():
            for a, nxt in steps.items():
                for b in nxt:
                    key = (min(a, b), max(a, b))
                    if seen.get(key) != "orthogonal":
                        seen[key] = self.named[name].kind
        return [(a, b, kind) for (a, b), kind in seen.items()]

    # -- directions ----------------------------------------------------------
    def forward_names(self) -> list[str]:
        return list(self.named)

    def directions(self, spec: Any, forward: str | None) -> list[Key]:
        if isinstance(spec, list):
            if self.source is not None:
                return [self._from_source(k) for k in
                        self.source.directions(spec, self._source_forward(forward))]
            return [("vector", self._vector(spec, forward))]
        if spec in self.named:
            return [spec]
        # The graph's own directions of a family; a generator's families are
        # its own business (a grid's `diagonal` is four of its diagonals).
        own = [n for n, d in self.named.items() if n in self.declared
               and (spec == "all" or d.kind == spec)] if spec in FAMILIES else []
        if self.source is not None:
            try:
                keys = self.source.directions(spec, self._source_forward(forward))
            except DeclarationError:
                if not own:
                    raise
                keys = []
            return list(dict.fromkeys([self._from_source(k) for k in keys] + own))
        if own or spec in FAMILIES:
            return own
        if isinstance(spec, str) and forward is not None:
            if spec == "forward":
                return [forward]
            if spec == "backward":
                return [self._opposite(forward, spec)]
            words = self.named[forward].relative
            if spec in words:
                return list(words[spec])
            opposite = self.named[forward].opposite
            if opposite is not None and spec in self.named[opposite].relative:
                # Declared for the opposite forward: the same words, turned round.
                return [self._opposite(d, spec) for d in self.named[opposite].relative[spec]]
            if opposite is not None and spec.startswith("backward-"):
                # `backward-X` is the opposite forward's `forward-X`.
                return self.directions("forward-" + spec[len("backward-"):], opposite)
        known = sorted({w for d in self.named.values() for w in d.relative})
        relative = isinstance(spec, str) and (
            spec in ("forward", "backward", *known) or spec.startswith(("forward-", "backward-")))
        if forward is None and relative:
            # The defaults `n` and `s` exist only on a graph with such names.
            shown = ", ".join(list(self.named)[:SHOWN_NAMES]) + \
                (", ..." if len(self.named) > SHOWN_NAMES else "")
            raise DeclarationError(
                f"'{spec}' is relative to the side's forward direction, and this graph "
                f"board has no direction 'n' or 's' to take by default: declare `sides: "
                f"{{white: {{forward: ...}}, black: {{forward: ...}}}}` with directions of "
                f"the board ({shown})", "unknown-direction")
        raise unknown_direction(spec, "graph board", list(FAMILIES) + ["forward", "backward"]
                                + known, list(self.named))

    def _opposite(self, name: str, word: str) -> str:
        opposite = self.named[name].opposite
        if opposite is None:
            raise DeclarationError(f"'{word}' needs the opposite of '{name}': declare "
                                   f"`opposite:` for it", "missing-opposite")
        return opposite

    def _source_forward(self, forward: str | None) -> str | None:
        return forward if forward in self.source_names.values() else None

    def _from_source(self, key: Any) -> Key:
        return self.source_names.get(key, ("source", key))

    def _vector(self, spec: list[Any], forward: str | None) -> tuple[int, int]:
        if len(spec) != 2 or not all(isinstance(x, int) for x in spec) or spec == [0, 0]:
            raise DeclarationError(f"a direction vector on a graph board is [x, y], not zero, "
                                   f"got {spec}", "bad-direction")
        ahead = self.named[forward].vector if forward in self.named else None
        flip = ahead or (0, 1)
        return (spec[0] * (-1 if flip[0] < 0 else 1), spec[1] * (-1 if flip[1] < 0 else 1))

    def rays(self, cell: int, direction: Key) -> list[Ray]:
        found = self._rays.get((cell, direction))
        if found is None:
            found = self._rays[(cell, direction)] = self._lines(cell, direction)
        return found

    def _lines(self, cell: int, direction: Key) -> list[Ray]:
        if isinstance(direction, str):
            return self._walk(cell, direction)
        what, key = direction
        if what == "source":
            assert self.source is not None
            start = self.to_source[cell]
            if start is None:
                return []
            out = []
            for ray in self.source.rays(start, key):
                kept = []
                for c in ray:  # a removed cell is a hole: the line ends there
                    if c not in self.from_source:
                        break
                    kept.append(self.from_source[c])
                if kept:
                    out.append(tuple(kept))
            return list(dict.fromkeys(out))
        line = []
        at = self.positions[cell]
        seen = {cell}
        while at is not None:
            at = (at[0] + key[0], at[1] + key[1])
            nxt = self._at(at)
            if nxt is None or nxt in seen:
                break
            seen.add(nxt)
            line.append(nxt)
        return [tuple(line)] if line else []

    def _at(self, point: Point) -> int | None:
        return self.by_position.get(point)

    def _walk(self, cell: int, direction: str) -> list[Ray]:
        """Every branch of the line from `cell` in `direction`."""
        return walk(cell, direction, self.steps, self.turns, self.names, self.loops)

    def _targets(self, cell: int, direction: Key) -> list[int]:
        """The cells one step away in `direction`."""
        if isinstance(direction, str):
            return list(self.steps[direction].get(cell, []))
        return [ray[0] for ray in self.rays(cell, direction)]

    # -- leaps ---------------------------------------------------------------
    def leaps(self, cell: int, spec: Any, forward: str | None) -> list[int]:
        """A list of direction paths (`[[n, n, e], ...]`): where walking each
        path step by step lands, over anything; other forms go to the
        generator the graph started from, or use the drawing positions."""
        if isinstance(spec, list) and spec and all(
                isinstance(p, list) and p and any(isinstance(x, str) for x in p) for p in spec):
            targets: dict[int, None] = {}
            for path in spec:
                here = {cell}
                for step in path:
                    keys = self.directions(step, forward)
                    here = {t for c in here for k in keys for t in self._targets(c, k)}
                targets.update(dict.fromkeys(sorted(here - {cell})))
            return list(targets)
        if self.source is not None:
            start = self.to_source[cell]
            if start is None:
                return []
            return [self.from_source[t] for t in self.source.leaps(start, spec, forward)
                    if t in self.from_source]
        at = self.positions[cell]
        if at is None:
            return []
        out: dict[int, None] = {}
        for v in self._leap_vectors(spec, forward):
            t = self._at((at[0] + v[0], at[1] + v[1]))
            if t is not None and t != cell:
                out[t] = None
        return list(out)

    def _leap_vectors(self, spec: Any, forward: str | None) -> set[tuple[int, int]]:
        if is_pair(spec):
            a, b = spec
            return {(sx * x, sy * y) for x, y in ((a, b), (b, a))
                    for sx in (1, -1) for sy in (1, -1)}
        if isinstance(spec, list) and spec and all(is_pair(v) for v in spec):
            return {self._vector(v, forward) for v in spec}
        raise DeclarationError(
            f"a graph leap is a list of direction paths ([[n, n, e], ...]), [a, b] or a list "
            f"of [x, y] vectors by the cells' positions, got {spec!r}", "bad-leap")

    # -- regions and planes --------------------------------------------------
    def region(self, spec: RegionSelector) -> set[int]:
        rows = spec.get("rows")
        # Rows apart, what is left is the source board's to read.
        rest = cast(RegionSelector, {k: v for k, v in spec.items() if k != "rows"})
        cells: set[int] | None = None
        if rows is not None:
            bottom_up = [row for group in self.groups for row in group][::-1]
            bad = [r for r in rows if not isinstance(r, int) or not 1 <= r <= len(bottom_up)]
            if bad:
                raise DeclarationError(f"no row {bad[0]} on this board (rows count from 1 at "
                                       "the bottom)", "unknown-cell")
            cells = {c for r in rows for c in bottom_up[r - 1]}
        if rest:
            if self.source is None:
                raise DeclarationError(
                    f"a graph region selects by rows or cells, not {sorted(rest)}", "bad-region")
            chosen = {self.from_source[c] for c in self.source.region(rest)
                      if c in self.from_source}
            cells = chosen if cells is None else cells & chosen
        return cells or set()

    def plane_of(self, cell: int) -> int | None:
        start = self.to_source[cell]
        return None if self.source is None or start is None else self.source.plane_of(start)

    def shift_plane(self, cell: int, planes: int) -> int | None:
        start = self.to_source[cell]
        if self.source is None or start is None:
            return None
        moved = self.source.shift_plane(start, planes)
        return self.from_source.get(moved) if moved is not None else None


Steps = dict[str, dict[int, list[int]]]
Turns = dict[tuple[str, int, int, bool], list[tuple[int, str]]]


def walk(cell: int, direction: str, steps: Steps, turns: Turns, names: list[str],
         loops: list[tuple[int, str, int]]) -> list[Ray]:
    """Every branch of the line from `cell` in `direction`: steps of the
    direction, turns where declared (a turn for the line's first step
    first), never back onto its own cell; a cell passed already ends the
    branch and is noted in `loops`."""
    out: list[Ray] = []
    budget = MAX_LINE_CELLS
    stack: list[tuple[Ray, int | None, int, str]] = [((), None, cell, direction)]
    while stack:
        path, came, here, d = stack.pop()
        nexts = _next(steps, turns, came, here, d, len(path) == 1)
        ahead = []
        for nxt, then in nexts:
            if nxt == cell:
                continue  # round to its own cell: a ring ends here
            if nxt in path:
                loops.append((cell, direction, nxt))
                continue
            ahead.append((nxt, then))
        if not ahead and path:
            out.append(path)
        for nxt, then in reversed(ahead):
            budget -= 1
            if budget < 0:
                raise DeclarationError(
                    f"the lines from {names[cell]} going {direction} branch into "
                    f"more than {MAX_LINE_CELLS} cells", "line-branches")
            stack.append(((*path, nxt), here, nxt, then))
    return list(dict.fromkeys(out))


def _next(steps: Steps, turns: Turns, came: int | None, here: int, d: str,
          first: bool) -> list[tuple[int, str]]:
    if came is not None:
        for key in ((d, came, here, True), (d, came, here, False)) if first else \
                ((d, came, here, False),):
            if key in turns:
                return turns[key]
    return [(nxt, d) for nxt in steps[d].get(here, [])]


def source_lines(source: Source, board: Board) -> tuple[Steps, Turns]:
    """A generator's lines as steps and turns, on its own cell indices.

    Steps are the first cells of its lines.  Where a line then leaves the
    steps of its direction (a polar line through the centre), the turn it
    takes is read off the line: on to the cell it goes to, then in the
    direction whose step leads on from there (or that leads nowhere, where
    the line ends).  The steps and turns found are walked again and must
    give exactly the generator's lines, else the board is refused."""
    keys = {name: key for name, (key, _, _) in source.single_directions().items()}
    size = len(board.names)
    lines = {(name, cell): source.rays(cell, key) for name, key in keys.items()
             for cell in range(size)}
    steps: Steps = {name: {} for name in keys}
    for (name, cell), rays in lines.items():
        firsts = list(dict.fromkeys(ray[0] for ray in rays))
        if firsts:
            steps[name][cell] = firsts
    seen: dict[tuple[str, int, int, bool], dict[tuple[int, str], None]] = {}
    for (name, cell), rays in lines.items():
        for ray in rays:
            came, here, cur = None, cell, name
            for i, nxt in enumerate(ray):
                then = cur
                if came is not None:
                    if nxt not in steps[cur].get(here, []):
                        after = ray[i + 1] if i + 1 < len(ray) else None
                        fits = [t for t in [cur, *keys]
                                if (after in steps[t].get(nxt, []) if after is not None
                                    else not steps[t].get(nxt))]
                        then = fits[0] if fits else cur
                    seen.setdefault((cur, came, here, i == 1), {})[(nxt, then)] = None
                came, here, cur = here, nxt, then
    turns: Turns = {}
    for (cur, came, here, first), taken in seen.items():
        natural = {(n, cur) for n in steps[cur].get(here, [])}
        if not set(taken) <= natural:
            turns[(cur, came, here, first)] = list(taken)
            turns.setdefault((cur, came, here, False), list(taken))
    for (name, cell), rays in lines.items():
        if set(walk(cell, name, steps, turns, board.names, [])) != set(rays):
            raise DeclarationError(
                f"a graph cannot start from this board: its lines from {board.names[cell]} "
                f"going {name} do not follow steps and turns", "bad-board", ("graph", "from"))
    return steps, turns
