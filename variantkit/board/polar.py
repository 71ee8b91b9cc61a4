"""The `polar` topology: a disk of concentric rings cut into sectors, with an
optional centre cell (Diplomat Chess: 14 sectors a-n, rings 1-3, centre `4`).

A cell is (ring, sector); ring 0 is the outer ring and sector arithmetic
wraps.  Directions are named rather than vectors: `cw`/`ccw` go around a ring,
`in`/`out` along a radius, and the four diagonals (`in-cw`, ...) move one
ring and one sector per step.  Lines that go inward through the centre carry
on to the opposite sector, so a line can branch: `rays` returns every branch.
"""

from __future__ import annotations

import math
import string
from collections import Counter
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

# Direction name -> (ring step, sector step): ring +1 is inward, sector +1 is
# the next sector in the listed order (clockwise).
NAMED: dict[str, tuple[int, int]] = {
    "cw": (0, 1), "ccw": (0, -1), "in": (1, 0), "out": (-1, 0),
    "in-cw": (1, 1), "in-ccw": (1, -1), "out-cw": (-1, 1), "out-ccw": (-1, -1),
}
FAMILIES: dict[str, list[str]] = {
    "orthogonal": ["cw", "ccw", "in", "out"],
    "diagonal": ["in-cw", "in-ccw", "out-cw", "out-ccw"],
    "all": ["cw", "ccw", "in", "out", "in-cw", "in-ccw", "out-cw", "out-ccw"],
}
# Grid words that need a side's forward axis; a disk has none.
RELATIVE = ("forward", "backward", "sideways", "forward-diagonal", "backward-diagonal")
ORTHOGONAL_RULES = ("straight", "none")
DIAGONAL_RULES = ("opposite-then-same-sense", "none")


class PolarTopology(Flat):
    """Rings x sectors around an optional centre cell."""

    def __init__(self, sectors: list[str], rings: list[str], centre: str | None,
                 cell_name: str = "{sector}{ring}", orthogonal_through_centre: str = "straight",
                 diagonal_through_centre: str = "opposite-then-same-sense") -> None:
        if len(sectors) < 3:
            raise DeclarationError(
                f"a polar board needs at least 3 sectors, got {len(sectors)}", "bad-board")
        if not rings:
            raise DeclarationError("a polar board needs at least one ring", "bad-board")
        check_cell_count(len(sectors) * len(rings) + (centre is not None),
                         f"polar board of {len(sectors)} sectors and {len(rings)} rings")
        for label, listed in (("sector", sectors), ("ring", rings)):
            if len(set(listed)) != len(listed):
                raise DeclarationError(f"duplicate {label} names in {listed}", "bad-board")
        if orthogonal_through_centre not in ORTHOGONAL_RULES:
            raise DeclarationError(
                f"orthogonal-through-centre is one of {', '.join(ORTHOGONAL_RULES)}, "
                f"not '{orthogonal_through_centre}'", "bad-board")
        if diagonal_through_centre not in DIAGONAL_RULES:
            raise DeclarationError(
                f"diagonal-through-centre is one of {', '.join(DIAGONAL_RULES)}, "
                f"not '{diagonal_through_centre}'", "bad-board")
        self.sectors, self.rings, self.centre = list(sectors), list(rings), centre
        self.n, self.depth = len(sectors), len(rings)
        # Without a centre no line crosses, so the crossing rules do not apply.
        self.straight = centre is not None and orthogonal_through_centre == "straight"
        self.opposite = centre is not None and diagonal_through_centre != "none"
        if (self.straight or self.opposite) and self.n % 2:
            raise DeclarationError(
                f"lines through the centre cross to the opposite sector, which {self.n} "
                "sectors do not have: use an even number or set the through-centre "
                "rules to none", "bad-board")
        self.names = self._names(cell_name)
        self.centre_index = self.depth * self.n if centre is not None else None

    def _names(self, template: str) -> list[str]:
        try:
            fields = {f for _, f, _, _ in string.Formatter().parse(template) if f is not None}
        except ValueError:
            fields = {"?"}
        if not fields <= {"sector", "ring"}:
            raise DeclarationError(
                f"cell-name '{template}' may use only {{sector}} and {{ring}}", "bad-board")
        names = [template.format(sector=s, ring=r) for r in self.rings for s in self.sectors]
        if self.centre is not None:
            names.append(self.centre)
        dupes = sorted(name for name, count in Counter(names).items() if count > 1)
        if dupes:
            raise DeclarationError(f"cell names repeat: {', '.join(dupes)}", "bad-board")
        return names

    # -- cells ---------------------------------------------------------------
    def _cell(self, ring: int, sector: int) -> int:
        return ring * self.n + sector % self.n

    def _coords(self, cell: int) -> tuple[int, int]:
        return divmod(cell, self.n)

    def build(self) -> Board:
        n, depth = self.n, self.depth
        coords: list[tuple[int, ...]] = [(r, s) for r in range(depth) for s in range(n)]
        graph = cell_graph(len(self.names))

        def link(a: int, b: int, *kinds: str) -> None:
            old = graph.edges[a, b]["kinds"] if graph.has_edge(a, b) else frozenset()
            graph.add_edge(a, b, kinds=old | frozenset(kinds))

        for r, s in coords:
            here = self._cell(r, s)
            link(here, self._cell(r, s + 1), "orthogonal")
            if r + 1 < depth:
                link(here, self._cell(r + 1, s), "orthogonal")
                link(here, self._cell(r + 1, s + 1), "diagonal")
                link(here, self._cell(r + 1, s - 1), "diagonal")
            elif self.centre_index is not None:
                link(here, self.centre_index, "orthogonal", "diagonal")
        colours = [(r + s) % 2 for r, s in coords]
        layout = [[self._cell(r, s) for s in range(n)] for r in range(depth)]
        rows = list(self.rings)
        if self.centre_index is not None and self.centre is not None:
            coords.append((depth, 0))
            colours.append(0)
            layout.append([self.centre_index])
            rows.append(self.centre)
        return Board(names=list(self.names), coords=coords, graph=graph, colours=colours,
                     layout=[layout], labels=[("", rows, list(self.sectors))], topology=self)

    def position(self, cell: int) -> tuple[float, float]:
        """Where a cell is drawn as part of a graph: rings round the centre,
        the outer one widest, sectors clockwise from the top."""
        if cell == self.centre_index:
            return 0.0, 0.0
        ring, sector = self._coords(cell)
        radius, angle = self.depth - ring + 0.5, math.tau * (sector + 0.5) / self.n
        return radius * math.sin(angle), radius * math.cos(angle)

    # -- directions ----------------------------------------------------------
    def forward_names(self) -> list[str]:
        return list(NAMED)

    def single_directions(self) -> dict[str, tuple[str, str, str]]:
        """Each name: its key (the name), its kind and its opposite's name."""
        by_step = {step: name for name, step in NAMED.items()}
        return {name: (name, "orthogonal" if name in FAMILIES["orthogonal"] else "diagonal",
                       by_step[(-dr, -ds)]) for name, (dr, ds) in NAMED.items()}

    def directions(self, spec: Any, forward: str | None) -> list[str]:
        """Direction keys are the direction names themselves (`"in-cw"`)."""
        if isinstance(spec, str) and spec in FAMILIES:
            return list(FAMILIES[spec])
        if isinstance(spec, str) and spec in NAMED:
            return [spec]
        if spec in RELATIVE:
            known = ", ".join(sorted(FAMILIES) + list(NAMED))
            raise DeclarationError(
                f"'{spec}' has no meaning on a polar board (known: {known})",
                "unknown-direction")
        raise unknown_direction(spec, "polar board", sorted(FAMILIES), list(NAMED))

    def rays(self, cell: int, direction: str) -> list[Ray]:
        dr, ds = NAMED[direction]
        if cell == self.centre_index:
            if dr >= 0:  # around or into the centre: nowhere to go
                return []
            # Outward from the centre: through each innermost cell in turn.
            inner = self.depth - 1
            return [(self._cell(inner, s), *self._outward(inner, s, ds))
                    for s in range(self.n)]
        r, s = self._coords(cell)
        if dr == 0:
            return [tuple(self._cell(r, s + k * ds) for k in range(1, self.n))]
        if dr < 0:
            line = self._outward(r, s, ds)
            return [line] if line else []
        return self._inward(r, s, ds)

    def _outward(self, r: int, s: int, ds: int) -> Ray:
        """From (r, s) outward to the rim, `ds` sectors per ring; stops there."""
        return tuple(self._cell(r - k, s + k * ds) for k in range(1, r + 1))

    def _inward(self, r: int, s: int, ds: int) -> list[Ray]:
        inner = self.depth - 1
        steps = inner - r
        line = tuple(self._cell(r + k, s + k * ds) for k in range(1, steps + 1))
        if self.centre_index is None:
            return [line] if line else []
        line += (self.centre_index,)
        crossing = self.opposite if ds else self.straight
        if not crossing:
            return [line]
        # The opposite innermost cell of the one the line entered the centre from.
        far = s + steps * ds + self.n // 2
        line += (self._cell(inner, far),)
        # A diagonal that arrived from outside keeps its sense; one that began
        # on the innermost ring has none yet, so it goes on both ways.
        senses = [ds] if steps or not ds else [ds, -ds]
        branches = [line + self._outward(inner, far, d) for d in senses]
        return list(dict.fromkeys(branches))

    # -- leaps ---------------------------------------------------------------
    def leaps(self, cell: int, spec: Any, forward: str | None) -> list[int]:
        """`[a, b]`: every (±a rings, ±b sectors) and (±b, ±a) offset; or a list of
        explicit [rings inward, sectors] vectors.  Never through the centre."""
        if cell == self.centre_index:
            return []
        r, s = self._coords(cell)
        targets: dict[int, None] = {}
        for dr, ds in self._leap_vectors(spec):
            if 0 <= r + dr < self.depth:
                t = self._cell(r + dr, s + ds)
                if t != cell:  # a whole turn of sectors lands back home
                    targets[t] = None
        return list(targets)

    def _leap_vectors(self, spec: Any) -> set[tuple[int, int]]:
        if is_pair(spec):
            a, b = spec
            return {(sx * x, sy * y) for x, y in ((a, b), (b, a))
                    for sx in (1, -1) for sy in (1, -1)}
        if isinstance(spec, list) and spec and all(is_pair(v) for v in spec):
            return {(v[0], v[1]) for v in spec}
        raise DeclarationError(
            f"a polar leap is [rings, sectors] or a list of [rings, sectors] vectors, "
            f"got {spec!r}", "bad-leap")

    # -- regions -------------------------------------------------------------
    def region(self, spec: RegionSelector) -> set[int]:
        unknown = set(spec) - {"sectors", "rings", "centre"}
        if unknown:
            raise DeclarationError(
                f"a polar region selects by sectors, rings, centre or cells, "
                f"not {sorted(unknown)}", "bad-region")
        with_centre = bool(spec.get("centre", False))
        if with_centre and self.centre_index is None:
            raise DeclarationError("this polar board has no centre", "unknown-cell")
        cells: set[int] = set()
        # `centre: true` alone selects just the centre, not every ring cell too.
        if "sectors" in spec or "rings" in spec or not with_centre:
            sectors = self._numbers(spec.get("sectors"), self.sectors, "sector")
            rings = self._numbers(spec.get("rings"), self.rings, "ring")
            cells = {self._cell(r, s) for r in rings for s in sectors}
        if with_centre and self.centre_index is not None:
            cells.add(self.centre_index)
        return cells

    @staticmethod
    def _numbers(selected: Any, names: list[str], label: str) -> list[int]:
        if selected is None:
            return list(range(len(names)))
        if not isinstance(selected, list):
            raise DeclarationError(f"a region's {label}s are a list of names", "bad-region")
        # str() so that YAML's `rings: [1, 2]` (integers) matches rings "1", "2".
        wanted = [str(x) for x in selected]
        bad = [x for x in wanted if x not in names]
        if bad:
            raise DeclarationError(f"no {label} {', '.join(bad)} on this board", "unknown-cell")
        return [names.index(x) for x in wanted]
