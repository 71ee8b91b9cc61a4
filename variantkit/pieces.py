"""Compile piece declarations into per-cell move tables: the third stage.

Every movement primitive (`step`, `ride`, `leap`, ...) becomes, for each side
and each cell, a list of rays: the cells a line passes, nearest first, and
the index from which the piece may land.  Primitives of one piece that share
their modifiers are merged into one `Component`, and identical components of
different pieces are shared.  A component then answers, for a cell and a board
occupancy, "which cells can this piece reach" with one or two dictionary
look-ups: `Reach` tables keyed by the occupancy of the cells that can block.
Where every line of a cell's table is a straight ray of the cell numbering,
the move generator reads it with no look-up (`RayReach`): a ray's first
occupied cell is its lowest or highest occupied bit.

Three primitives change what a line's occupancy means, never the table shape:
a `hop` lands only after passing exactly N occupied cells (its screens), a
`path` is a fixed route whose cells before the landing must be empty (a lame
leaper: one ray whose landing index is its last cell), and `within` keeps a
line only while it stays inside a region (palace diagonals).  A hop whose
screens may not be of some piece types keys its tables on those pieces'
cells too (shifted above the board's cells), so one look-up still answers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from itertools import pairwise
from typing import TYPE_CHECKING, Any, Final, Literal, cast, final

from variantkit.betza import MoveDeclaration, PieceDeclaration, moves_of
from variantkit.board import SIDE_NAMES, Board, DirectionsDeclaration, Ray, SideRegionRef
from variantkit.errors import DeclarationError
from variantkit.limits import Budget

if TYPE_CHECKING:
    import networkx as nx

MOVE: Final = 1
CAPTURE: Final = 2
CONVERT: Final = 4  # suborn: the target changes side instead of being captured
# With CAPTURE (`remote: true`): the capture takes the piece on the target
# cell and the capturer stays where it stands.
STAYS: Final = 8
# Cells whose occupancy one look-up table may key on: 2**14 entries at most,
# filled lazily, so memory stays bounded whatever the board.
MAX_GROUP_BITS: Final = 14
# The compiled build keeps an int below 2**SHORT_BITS in a machine word and
# boxes a larger one, so that every operation on it allocates; cell masks
# within SHORT_MASK stay in words (`Words.short`).
SHORT_BITS: Final = 62
SHORT_MASK: Final = (1 << SHORT_BITS) - 1
# Groups of a cell that a new ray may join (see `_cell_reach`).
OPEN_GROUPS: Final = 8


@dataclass(frozen=True)
class Hop:
    """How a hopper passes pieces: exactly `screens` of them, landing at most
    `beyond` cells past the last one (0: any number), and never using a piece
    of a type in `barred` as a screen."""

    screens: int = 1
    beyond: int = 0
    barred: frozenset[int] = frozenset()


class _LineTable(dict[int, int]):
    """Reachable cells of a group of rays, keyed by the occupancy of the
    cells that can block them; an entry is computed the first time it is
    asked for.  For a hop with barred screens the key also holds, shifted
    left by `shift`, the cells of pieces that may not serve as screens."""

    __slots__ = ("cached", "hop", "rays", "shift")

    def __init__(self, rays: list[tuple[Ray, int]], hop: Hop | None = None,
                 shift: int = 0) -> None:
        super().__init__()
        self.rays = rays
        self.hop = hop
        self.shift = shift
        # A key wider than MAX_GROUP_BITS (one long hop, whose screens may
        # stand anywhere on it) is answered afresh each time, never stored.
        key_bits = 0
        for cells, _ in rays:
            for c in cells[:-1]:
                key_bits |= 1 << c
        self.cached = key_bits.bit_count() * (2 if shift else 1) <= MAX_GROUP_BITS

    def __missing__(self, key: int) -> int:
        bits = 0
        if self.hop is not None:
            bits = self._hops(key)
        else:
            for cells, first in self.rays:
                for i, c in enumerate(cells):
                    bit = 1 << c
                    if i >= first:
                        bits |= bit
                    if key & bit:
                        break
        if self.cached:
            self[key] = bits
        return bits

    def _hops(self, key: int) -> int:
        hop = self.hop
        assert hop is not None
        barred = key >> self.shift if self.shift else 0
        bits = 0
        for cells, _ in self.rays:
            passed = after = 0
            for c in cells:
                bit = 1 << c
                if passed < hop.screens:
                    if key & bit:
                        if barred & bit:
                            break
                        passed += 1
                    continue
                after += 1
                if hop.beyond and after > hop.beyond:
                    break
                bits |= bit
                if key & bit:
                    break
        return bits


# Per cell: cells always reached (leaps, single steps), (mask, table) pairs
# for lines that can be blocked, and (guard, mask, table) triples for the
# parts of lines too long for one table: a part counts only while the cells
# of the line before it (its guard) are empty.
CellReach = tuple[int, tuple[tuple[int, _LineTable], ...],
                  tuple[tuple[int, int, _LineTable], ...]]


def _cell_reach(rays: list[tuple[Ray, int]], hop: Hop | None = None,
                shift: int = 0) -> CellReach:
    const = 0
    groups: list[tuple[int, list[tuple[Ray, int]]]] = []
    chained: list[tuple[int, int, _LineTable]] = []
    for cells, first in rays:
        if hop is None and len(cells) == 1 and first == 0:
            const |= 1 << cells[0]
            continue
        if hop is None and len(cells) > MAX_GROUP_BITS + 1:
            # Cut into parts keyed on MAX_GROUP_BITS cells each: the first
            # is grouped as any ray, the others are chained behind it.
            guard = 0
            for start in range(0, len(cells), MAX_GROUP_BITS + 1):
                part = cells[start:start + MAX_GROUP_BITS + 1]
                land = max(first - start, 0)
                if land < len(part):
                    if guard:
                        mask = 0
                        for c in part[:-1]:
                            mask |= 1 << c
                        chained.append((guard, mask, _LineTable([(part, land)])))
                    else:
                        _join(groups, part, land, shift)
                for c in part:
                    guard |= 1 << c
            continue
        _join(groups, cells, first, shift)
    return const, tuple((m, _LineTable(members, hop, shift)) for m, members in groups), \
        tuple(chained)


def _join(groups: list[tuple[int, list[tuple[Ray, int]]]], cells: Ray, first: int,
          shift: int) -> None:
    """Put a ray into the first open group it fits, or a new group."""
    mask = 0
    for c in cells[:-1]:
        mask |= 1 << c
    if shift:
        mask |= mask << shift
    # Only the last few groups are tried, so that a cell with very many
    # rays (a board of a thousand cells, many riders) is grouped in
    # linear time; the first groups are full by then anyway.
    start = max(0, len(groups) - OPEN_GROUPS)
    for i, (gmask, members) in enumerate(groups[start:], start):
        if (gmask | mask).bit_count() <= MAX_GROUP_BITS:
            members.append((cells, first))
            groups[i] = (gmask | mask, members)
            break
    else:
        groups.append((mask, [(cells, first)]))


def _undominated(rays: list[tuple[Ray, int]]) -> list[tuple[Ray, int]]:
    """The rays, in order, without those another ray makes redundant: a ray
    that is a prefix of another (or equal to it) landing from the same index
    or later reaches nothing more, blocked or not, and passes over nothing
    else.  Several primitives of one piece often give the same or nested
    rays (a ride and a shorter ride the same way)."""
    by_start: dict[int, list[int]] = {}
    for index, (cells, _) in enumerate(rays):
        by_start.setdefault(cells[0], []).append(index)
    redundant: set[int] = set()
    for group in by_start.values():
        if len(group) < 2:
            continue
        kept: list[tuple[Ray, int]] = []
        for index in sorted(group, key=lambda i: (-len(rays[i][0]), rays[i][1], i)):
            cells, first = rays[index]
            if any(other[:len(cells)] == cells and other_first <= first
                   for other, other_first in kept):
                redundant.add(index)
            else:
                kept.append(rays[index])
    return [ray for i, ray in enumerate(rays) if i not in redundant] if redundant else rays


def reach(table: CellReach, occupied: int) -> int:
    """Cells reached from a cell's table under `occupied` (the first
    occupied cell of a line included, as a capture candidate)."""
    bits, groups, chained = table
    for mask, lines in groups:
        bits |= lines[occupied & mask]
    for guard, mask, lines in chained:
        if not occupied & guard:
            bits |= lines[occupied & mask]
    return bits


class _WordTable(dict[int, tuple[int, int]]):
    """A line table read a word at a time (see `WordReach`): keyed by the
    blocking cells of the low word and those of the high word shifted left
    by `shift` into bits the low ones leave free; an entry is the reached
    cells split into the two words, found in the full-width table the
    first time it is asked for."""

    __slots__ = ("high_mask", "lines", "low_mask", "shift")

    def __init__(self, lines: _LineTable, low_mask: int, high_mask: int, shift: int) -> None:
        super().__init__()
        self.lines = lines
        self.low_mask = low_mask
        self.high_mask = high_mask
        self.shift = shift

    def __missing__(self, key: int) -> tuple[int, int]:
        high = (key & self.high_mask << self.shift) >> self.shift
        bits = self.lines[key & self.low_mask | high << SHORT_BITS]
        value = (bits & SHORT_MASK, bits >> SHORT_BITS)
        if self.lines.cached:
            self[key] = value
        return value


# A cell's table (`CellReach`) split into machine words, for a board of up
# to twice SHORT_BITS cells: the cells always reached, low word and high
# word; per line table the blocking cells in each word, the shift of the
# high ones in the key, and the table; per chained part the same after its
# guard's two words.  Compiled, reading one allocates nothing, where every
# operation on a full-width mask does.
WordGroup = tuple[int, int, int, _WordTable]
WordChain = tuple[int, int, int, int, int, _WordTable]
WordReach = tuple[int, int, tuple[WordGroup, ...], tuple[WordChain, ...]]


def word_reach(table: CellReach) -> WordReach | None:
    """`table` read a word at a time, or None where the blocking cells of
    one of its line tables leave no room in one word for a key."""
    const, groups, chained = table
    word_groups: list[WordGroup] = []
    for mask, lines in groups:
        group = _word_group(mask, lines)
        if group is None:
            return None
        word_groups.append(group)
    word_chained: list[WordChain] = []
    for guard, mask, lines in chained:
        group = _word_group(mask, lines)
        if group is None:
            return None
        low, high, shift, words = group
        word_chained.append((guard & SHORT_MASK, guard >> SHORT_BITS, low, high, shift, words))
    return const & SHORT_MASK, const >> SHORT_BITS, tuple(word_groups), tuple(word_chained)


def reach_words(table: WordReach, low: int, high: int) -> tuple[int, int]:
    """`reach` for a table read a word at a time: the cells reached under
    the occupancy whose low and high words are `low` and `high`, in the
    same two words (the move generator inlines it)."""
    reached_low, reached_high, groups, chained = table
    for mask_low, mask_high, shift, lines in groups:
        part_low, part_high = lines[low & mask_low | (high & mask_high) << shift]
        reached_low |= part_low
        reached_high |= part_high
    for guard_low, guard_high, mask_low, mask_high, shift, lines in chained:
        if not (low & guard_low or high & guard_high):
            part_low, part_high = lines[low & mask_low | (high & mask_high) << shift]
            reached_low |= part_low
            reached_high |= part_high
    return reached_low, reached_high


def _word_group(mask: int, lines: _LineTable) -> WordGroup | None:
    """A line table's key split into words: the smallest shift that puts
    the high word's blocking cells beside the low word's within a word."""
    low, high = mask & SHORT_MASK, mask >> SHORT_BITS
    if lines.shift or high >> SHORT_BITS:   # keys with screen types, or beyond two words
        return None
    for shift in range(SHORT_BITS - high.bit_length() + 1):
        if not high << shift & low:
            return low, high, shift, _WordTable(lines, low, high, shift)
    return None


# Rays each way a `RayReach` holds (a queen's on a square grid).
RAY_SLOTS: Final = 4


@final
class RayReach:
    """A cell's table (`CellReach`) read with no look-up, where each of its
    lines is one ray whose cells run up or down the cell numbering (any
    straight line of a grid): the ray's first occupied cell is then the
    lowest or the highest of its occupied cells, a bit found in machine
    words.  Compiled, a table look-up boxes its key, hashes it and unboxes
    the entry; this reads the rays from the object's own fields.  At most
    RAY_SLOTS rays each way; `land`, the cells where a move may end (a
    ray's cells from its landing index on, and the cells always reached)."""

    def __init__(self, const: int, up: list[int], down: list[int], land: int) -> None:
        self.const = const
        self.up0, self.up1, self.up2, self.up3 = up + [0] * (RAY_SLOTS - len(up))
        self.down0, self.down1, self.down2, self.down3 = down + [0] * (RAY_SLOTS - len(down))
        self.land = land

    def reach(self, occupied: int) -> int:
        """`reach` of the table under `occupied`.  Unrolled: compiled, a
        helper called per way cost 7% more instructions in perft."""
        reached = self.const
        # Rays up the numbering, filled in order (an empty one ends them):
        # `blockers ^ (blockers - 1)` keeps the bits up to the lowest
        # occupied one, all of them when there is none.
        ray = self.up0
        if ray:
            blockers = occupied & ray
            reached |= ray & (blockers ^ (blockers - 1))
            ray = self.up1
            if ray:
                blockers = occupied & ray
                reached |= ray & (blockers ^ (blockers - 1))
                ray = self.up2
                if ray:
                    blockers = occupied & ray
                    reached |= ray & (blockers ^ (blockers - 1))
                    blockers = occupied & self.up3
                    reached |= self.up3 & (blockers ^ (blockers - 1))
        # Rays down, the same way.
        if self.down0:
            reached |= _reach_down(self.down0, occupied)
            if self.down1:
                reached |= _reach_down(self.down1, occupied)
                if self.down2:
                    reached |= _reach_down(self.down2, occupied) \
                        | _reach_down(self.down3, occupied)
        return reached & self.land


def _reach_down(ray: int, occupied: int) -> int:
    """The cells of a ray running down the numbering up to its first
    occupied cell: those from the highest occupied one on."""
    blockers = occupied & ray
    if not blockers:
        return ray
    shift = blockers.bit_length() - 1
    return ray >> shift << shift


# A table's straight rays (`RayReach`): the cells always reached, the rays
# up and down the numbering, where a move may end, and every cell of them.
StraightRays = tuple[int, list[int], list[int], int, int]


def _straight_rays(table: CellReach) -> StraightRays | None:
    """`table`'s rays where each runs straight up or down the cell
    numbering, or None where one cannot be read so: a hop, a key with
    screen types, a line cut into parts, a ray that turns or shares a
    cell with another."""
    const, groups, chained = table
    if chained:
        return None
    up: list[int] = []
    down: list[int] = []
    seen = land = const
    for _, lines in groups:
        if lines.hop is not None or lines.shift:
            return None
        for cells, first in lines.rays:
            steps = {b > a for a, b in pairwise(cells)}
            mask = 0
            for c in cells:
                mask |= 1 << c
            if len(steps) > 1 or mask & seen:
                return None
            seen |= mask
            for c in cells[first:]:
                land |= 1 << c
            (up if steps == {True} or len(cells) == 1 else down).append(mask)
    return const, up, down, land, seen


def ray_reach(table: CellReach) -> RayReach | None:
    """`table` as a `RayReach`, or None where it cannot be (see
    `_straight_rays`), where it has more than RAY_SLOTS rays a way, or
    where it reaches beyond SHORT_MASK (each operation on such a mask
    would allocate, compiled)."""
    rays = _straight_rays(table)
    if rays is None:
        return None
    const, up, down, land, cells = rays
    if len(up) > RAY_SLOTS or len(down) > RAY_SLOTS or cells > SHORT_MASK:
        return None
    return RayReach(const, up, down, land)


def span(table: CellReach) -> int:
    """Every cell a cell's table may reach, whatever the occupancy."""
    bits, groups, chained = table
    for lines in [lines for _, lines in groups] + [lines for _, _, lines in chained]:
        for cells, _ in lines.rays:
            for c in cells:
                bits |= 1 << c
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
    hop: Hop | None = None
    # Piece types this primitive may not capture (never a royal one).
    cannot_capture: frozenset[int] = frozenset()
    # While the side is in check: "allowed", "never", or "capture-checker"
    # (only the capture of a lone checking piece).
    in_check: str = "allowed"


@dataclass
class Component:
    """Primitives with the same flags, compiled per side and cell."""

    flags: Flags
    rays: list[list[list[tuple[Ray, int]]]]          # [side][cell] -> rays
    tables: list[list[CellReach]] = field(default_factory=list)
    # En passant targets created by a move: [side][from][to] -> passed cells;
    # [side] is empty for a component that creates none.  Keyed by the
    # from-cell first, so the move generator looks up a plain int, not a
    # pair it would build and hash for every move.
    passed: list[list[dict[int, int]]] = field(default_factory=list)
    # Attack relation, for check detection.  When the relation read backwards
    # equals the forward relation of some side, that side's tables answer
    # "who attacks this cell" directly (`reverse_side`); otherwise the
    # explicit (attacker, between, tail) triples are used: the cells between
    # must be empty (a hop: hold exactly its screens, the last one in `tail`).
    reverse_side: list[int | None] = field(default_factory=list)
    attack_pairs: list[list[list[tuple[int, int, int]]]] = field(default_factory=list)
    # Slider sources on an empty board and the cells between them and a
    # target: a piece standing there may be pinned.  [side][target].
    xray_sources: list[list[int]] = field(default_factory=list)
    xray_between: list[list[dict[int, int]]] = field(default_factory=list)
    # The sources among those whose attack on the target runs along one path
    # only (never for a hop): a lone piece on that path is pinned to it.
    # Lines with several paths (through the centre of a polar board,
    # branching diagonals) are left out, and their pieces tested per move.
    xray_single: list[list[int]] = field(default_factory=list)
    # Every cell from which a piece attacks the target on an empty board
    # (leaps and lines alike): no piece there, no attack.  [side][target].
    attack_sources: list[list[int]] = field(default_factory=list)
    # For a hop whose screens may not be of some types: where those types'
    # cells go in a look-up key (the number of cells; 0: no such types).
    shift: int = 0

    def compile(self, budget: Budget | None = None) -> None:
        """The move and attack tables from the rays; with a budget, its
        deadline is kept here too, since on a large board these tables take
        longer than compiling the rays that the budget's units count."""
        hop = self.flags.hop
        if hop is None:  # a hop's shorter ray may land where a longer one cannot
            self.rays = [[_undominated(cell_rays) for cell_rays in side] for side in self.rays]
        self.shift = len(self.rays[0]) if hop is not None and hop.barred else 0
        self.tables = [[_cell_reach(cell_rays, hop, self.shift) for cell_rays in side]
                       for side in self.rays]
        if budget is not None:
            budget.check_time()
        self.passed = [self._passed(side) for side in self.rays]
        if self.flags.mode & CAPTURE:
            self._compile_attacks(budget)

    def _passed(self, side_rays: list[list[tuple[Ray, int]]]) -> list[dict[int, int]]:
        if self.flags.en_passant != "target":
            return []
        passed: list[dict[int, int]] = [{} for _ in side_rays]
        for frm, cell_rays in enumerate(side_rays):
            for cells, first in cell_rays:
                for i in range(first, len(cells)):
                    mask = 0
                    for c in cells[:i]:
                        mask |= 1 << c
                    passed[frm][cells[i]] = mask
        return passed

    def _relation(self, side: int) -> set[tuple[int, int, int, int]]:
        """(attacker, target, cells between, tail): for a hop, `tail` holds
        the cells before the target where its last screen may stand."""
        hop = self.flags.hop
        rel = set()
        for frm, cell_rays in enumerate(self.rays[side]):
            for cells, first in cell_rays:
                between = 0
                for i, c in enumerate(cells):
                    if hop is None:
                        if i >= first:
                            rel.add((frm, c, between, 0))
                    elif i >= hop.screens:
                        tail = between
                        if hop.beyond:
                            tail = 0
                            for t in cells[max(0, i - hop.beyond):i]:
                                tail |= 1 << t
                        rel.add((frm, c, between, tail))
                    between |= 1 << c
        return rel

    def _compile_attacks(self, budget: Budget | None) -> None:
        n_cells = len(self.rays[0])
        forward = [self._relation(s) for s in range(2)]
        for s in range(2):
            if budget is not None:
                budget.check_time()
            backward = {(d, a, b, t) for a, d, b, t in forward[s]}
            self.reverse_side.append(next((o for o in (1 - s, s) if forward[o] == backward), None))
            pairs: list[list[tuple[int, int, int]]] = [[] for _ in range(n_cells)]
            sources = [0] * n_cells
            between: list[dict[int, int]] = [{} for _ in range(n_cells)]
            paths: dict[tuple[int, int], int] = {}
            everywhere = [0] * n_cells
            for a, d, b, t in forward[s]:
                pairs[d].append((1 << a, b, t))
                everywhere[d] |= 1 << a
                if b:
                    sources[d] |= 1 << a
                    between[d][1 << a] = between[d].get(1 << a, 0) | b
                    paths[(a, d)] = paths.get((a, d), 0) + 1
            if budget is not None:
                budget.check_time()
            single = [0] * n_cells
            if self.flags.hop is None:
                for (a, d), count in paths.items():
                    if count == 1:
                        single[d] |= 1 << a
            self.attack_pairs.append(pairs)
            self.xray_sources.append(sources)
            self.xray_between.append(between)
            self.xray_single.append(single)
            self.attack_sources.append(everywhere)

    def attackers(self, side: int, target: int, occupied: int, barred: int = 0) -> int:
        """Cells from which a piece of `side` with this component attacks
        `target` under `occupied` (`barred`: the occupied cells that may not
        serve as its screens)."""
        other = self.reverse_side[side]
        if other is not None:
            return reach(self.tables[other][target], occupied | barred << self.shift
                         if self.shift else occupied)
        bits = 0
        hop = self.flags.hop
        if hop is None:
            for a, between, _ in self.attack_pairs[side][target]:
                if not between & occupied:
                    bits |= a
            return bits
        for a, between, tail in self.attack_pairs[side][target]:
            screens = between & occupied
            if screens.bit_count() == hop.screens and screens & tail and not screens & barred:
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
    passes: bool = False      # may pass: stay put and hand the turn over


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
Primitive = Literal["step", "ride", "leap", "jump", "suborn", "hop", "path"]
PRIMITIVES: tuple[Primitive, ...] = ("step", "ride", "leap", "jump", "suborn", "hop", "path")
# The primitives whose rays are lines of the board's directions (or leaps).
LineKind = Literal["step", "ride", "leap", "hop"]


@dataclass
class Context:
    """What compiling a primitive needs beyond the board itself."""

    board: Board
    forwards: list[str | None]
    royal_start: list[int | None]   # where each side's royal piece starts
    piece_index: dict[str, int]
    budget: Budget | None = None    # charged for every ray compiled and each of its cells
    # Per side: whether its vectors are turned half a circle (`turned: true`)
    # rather than only mirrored in the rank.
    turned: tuple[bool, bool] = (False, False)
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
        import networkx as nx  # at load time, not on import

        if target not in self._distances:
            self._distances[target] = dict(
                nx.single_source_shortest_path_length(self.orthogonal_graph(), target))
        return self._distances[target]

    def region(self, ref: SideRegionRef, side: int) -> set[int]:
        """A region reference: a name, a list of cells, or one per side."""
        if isinstance(ref, dict):
            ref = ref[SIDE_NAMES[side]]
        return set(self.board.cells_of(self.board.resolve_region(ref)))

    def cell_target(self, ref: str, side: int) -> int:
        if ref == "enemy-royal-start":
            start = self.royal_start[1 - side]
            if start is None:
                raise DeclarationError("closer-to: the setup has no enemy royal piece",
                                       "closer-to-target")
            return start
        return self.board.cell(ref)


def _range(value: int | list[int], what: str) -> tuple[int, int]:
    """`N` (up to N) or `[min, max]` as a pair."""
    low, high = (1, value) if isinstance(value, int) else (value[0], value[1])
    if not 1 <= low <= high:
        raise DeclarationError(f"{what} {value}: expected 1 <= min <= max", "bad-range")
    return low, high


def _line_rays(board: Board, spec: MoveDeclaration, kind: LineKind, forward: str | None,
               cell: int) -> list[tuple[Ray, int]]:
    """Rays of `step`, `ride`, `hop` (whole lines) and `leap`."""
    topo = board.topology
    if kind == "leap":
        return [((t,), 0) for t in topo.leaps(cell, spec["leap"], forward)]
    items = spec[kind] if isinstance(spec[kind], list) and not _is_vector(spec[kind]) \
        else [spec[kind]]
    if kind == "step":
        low, high = 1, 1
    elif "range" in spec and kind in ("ride", "hop"):
        low, high = _range(spec["range"], "range")
    else:
        low, high = 1, board.size
    out = []
    for item in items:
        for direction in topo.directions(item, forward):
            for cells in board.rays(cell, direction):
                if len(cells) >= low:
                    out.append((cells[:high], low - 1))
    return out


def _path_rays(board: Board, routes: list[list[Any]], forward: str | None,
               cell: int) -> list[tuple[Ray, int]]:
    """Rays of `path`: each route is a list of single steps, taken one after
    the other; every cell but the last must be empty.  A step naming several
    directions, or a line that branches, gives one route per choice."""
    topo = board.topology
    out: dict[Ray, None] = {}
    for route in routes:
        ends: list[Ray] = [()]
        for step in route:
            ends = [(*done, ray[0]) for direction in topo.directions(step, forward)
                    for done in ends for ray in topo.rays(done[-1] if done else cell, direction)]
        for cells in ends:
            if cell not in cells:
                out[cells] = None
    return [(cells, len(cells) - 1) for cells in out]


def _shift(board: Board, cell: int, planes: int) -> int | None:
    if board.topology.plane_of(cell) is None:
        raise DeclarationError("plane-shift needs a board with planes", "plane-shift-board")
    return board.topology.shift_plane(cell, planes)


def _plane_shift(board: Board, spec: MoveDeclaration, kind: Primitive | None,
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


def _keep_inside(rays: list[tuple[Ray, int]], inside: set[int]) -> list[tuple[Ray, int]]:
    """Each ray cut before its first cell outside `inside`: a line that exists
    only within a region (the diagonals of a palace)."""
    out = []
    for cells, first in rays:
        end = next((i for i, c in enumerate(cells) if c not in inside), len(cells))
        if end > first:
            out.append((cells[:end], first))
    return out


def _landings(rays: list[tuple[Ray, int]]) -> set[int]:
    return {c for cells, first in rays for c in cells[first:]}


def primitive_rays(ctx: Context, spec: MoveDeclaration, side: int,
                   cell: int) -> list[tuple[Ray, int]]:
    """The rays of one primitive from one cell for one side."""
    if "from-region" in spec and cell not in ctx.region(spec["from-region"], side):
        return []
    board, forward = ctx.board, ctx.forwards[side]
    if ctx.turned[side]:
        spec = _turned(spec)
    kind = next((k for k in PRIMITIVES if k in spec), None)
    if kind is None and "plane-shift" not in spec:
        raise DeclarationError(
            f"a move needs one of {', '.join(PRIMITIVES)} or plane-shift", "bad-primitive")
    rays: list[tuple[Ray, int]]
    if kind == "jump":
        rays = [((t,), 0) for t in sorted(ctx.region(spec["jump"], side) - {cell})]
    elif kind == "suborn":
        rays = _line_rays(board, {"step": "all"}, "step", forward, cell)
    elif kind == "path":
        rays = _path_rays(board, spec["path"], forward, cell)
    else:
        rays = _line_rays(board, spec, kind, forward, cell) if kind else []
    if "plane-shift" in spec:
        rays = _plane_shift(board, spec, kind, rays, cell)
    if "within" in spec:
        inside = ctx.region(spec["within"], side)
        rays = _keep_inside(rays, inside) if cell in inside else []
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


def line_attack(ctx: Context, lines: DirectionsDeclaration) -> Component:
    """An attack along open lines that moves nothing, compiled like a capture-only
    ride: two royal pieces that may not face each other (the flying general
    rule) each attack the other along these lines."""
    rays = [[primitive_rays(ctx, {"ride": lines}, side, cell) for cell in range(ctx.board.size)]
            for side in range(2)]
    component = Component(flags=Flags(mode=CAPTURE), rays=rays)
    component.compile(ctx.budget)
    return component


def _turned(spec: MoveDeclaration) -> MoveDeclaration:
    """A primitive as a side turned half a circle sees it: the file
    component of every vector negated (the rank is mirrored as for any
    side moving south), so its left and right are its own."""
    def turn(item: Any) -> Any:
        if _is_vector(item):
            return [-item[0], *item[1:]]
        if isinstance(item, list):
            return [turn(x) for x in item]
        return item
    out = cast(MoveDeclaration, dict(spec))   # a copy to turn, key by key
    lines: tuple[Literal["step", "ride", "hop"], ...] = ("step", "ride", "hop")
    for key in lines:
        if key in out:
            out[key] = turn(out[key])
    if "leap" in out and not _is_vector(out["leap"]):   # `[a, b]` is symmetric
        out["leap"] = turn(out["leap"])
    if "path" in out:
        out["path"] = [turn(route) for route in out["path"]]
    return out


def _is_vector(x: Any) -> bool:
    return isinstance(x, list) and bool(x) and all(isinstance(v, int) for v in x)


def _piece_types(spec: MoveDeclaration, key: Literal["cannot-hop", "cannot-capture"],
                 piece_index: dict[str, int]) -> frozenset[int]:
    """The piece types a modifier lists by name."""
    names = spec.get(key, [])
    unknown = [n for n in names if n not in piece_index]
    if unknown:
        raise DeclarationError(f"{key}: unknown piece '{unknown[0]}'", "unknown-piece")
    return frozenset(piece_index[n] for n in names)


def _hop(spec: MoveDeclaration, piece_index: dict[str, int]) -> Hop | None:
    if "hop" not in spec:
        for key in ("screens", "beyond", "cannot-hop"):
            if key in spec:
                raise DeclarationError(f"`{key}` goes with `hop`", "hop-modifier")
        return None
    if "range" in spec and _range(spec["range"], "range")[0] != 1:
        raise DeclarationError("a hop's `range: N` is how far from its start it may land; it "
                               "takes no least distance (`beyond` limits the landing past the "
                               "screens)", "hop-modifier")
    return Hop(screens=spec.get("screens", 1), beyond=spec.get("beyond", 0),
               barred=_piece_types(spec, "cannot-hop", piece_index))


def flags_of(spec: MoveDeclaration, piece_index: dict[str, int],
             royal: frozenset[int] = frozenset()) -> Flags:
    """The modifiers of one primitive (`royal`: the royal piece types, which
    `cannot-capture` may not list: check detection assumes a royal piece can
    be taken by every capturing move that reaches it)."""
    only = spec.get("only")
    if "plane-shift" in spec:
        if only == "capture":
            raise DeclarationError("a plane-shift move never captures: drop `only: capture`",
                                   "plane-shift-capture")
        only = "move"  # moves that change plane never capture
    mode = {"move": MOVE, "capture": CAPTURE}.get(only or "", MOVE | CAPTURE)
    if spec.get("remote", False):
        mode = _remote_mode(spec, only)
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
    cannot_capture = _piece_types(spec, "cannot-capture", piece_index)
    if cannot_capture & royal:
        raise DeclarationError("cannot-capture: a royal piece can always be captured "
                               "(check is an attack on it)", "cannot-capture-royal")
    return Flags(mode=mode, initial=bool(spec.get("initial", False)),
                 en_passant=en_passant,
                 may_give_check=bool(spec.get("may-give-check", True)),
                 resets_clock=bool(spec.get("resets-clock", True)),
                 suborn_types=suborn_types, hop=_hop(spec, piece_index),
                 cannot_capture=cannot_capture, in_check=spec.get("in-check", "allowed"))


def _remote_mode(spec: MoveDeclaration, only: str | None) -> int:
    """The mode of a remote capture (`remote: true`): a capture that leaves
    the capturer where it stands, so nothing that moves the piece goes
    with it."""
    clash = next((key for key in ("suborn", "plane-shift", "en-passant") if key in spec),
                 "only: move" if only == "move" else None)
    if clash is not None:
        raise DeclarationError(f"a remote capture (`remote: true`) does not go with `{clash}`: "
                               "it only takes, the capturer staying where it stands",
                               "remote-modifier")
    return CAPTURE | STAYS


Located = Callable[[tuple[str | int, ...], Callable[[], Any]], Any]


def compile_pieces(ctx: Context, declared: dict[str, PieceDeclaration],
                   located: Located) -> PieceSet:
    """Compile every declared piece for both sides.

    `located(path, fn)` runs `fn` and turns a DeclarationError into a
    located problem (returning None).
    """
    board = ctx.board
    components: list[Component] = []
    by_key: dict[Any, int] = {}
    royal = frozenset(i for i, spec in enumerate(declared.values()) if spec.get("royal"))
    types: list[PieceType] = []
    for index, (name, spec) in enumerate(declared.items()):
        merged: dict[Flags, list[list[list[tuple[Ray, int]]]]] = {}
        moves = located(("pieces", name, "betza"), partial(moves_of, spec, board)) or []
        for m, move in enumerate(moves):
            if isinstance(move, dict) and "two-step" in move:
                continue   # no rays: the two-step family compiles it (`rulebook.two_steps`)
            path = ("pieces", name, "moves", m) if "moves" in spec else ("pieces", name, "betza")
            flags = located(path, partial(flags_of, move, ctx.piece_index, royal))
            if flags is None:
                continue
            side_rays = merged.setdefault(
                flags, [[[] for _ in range(board.size)] for _ in range(2)])
            for side in range(2):
                for cell in range(board.size):
                    rays = located(path, partial(primitive_rays, ctx, move, side, cell))
                    if rays is None:
                        break  # the problem is the same from every cell
                    if ctx.budget is not None:
                        ctx.budget.spend(1 + len(rays) + sum(len(cells) for cells, _ in rays))
                    side_rays[side][cell].extend(rays)
        indices = []
        for flags, rays in merged.items():
            key = (flags, tuple(tuple(tuple(cell) for cell in side) for side in rays))
            if key not in by_key:
                component = Component(flags=flags, rays=rays)
                component.compile(ctx.budget)
                by_key[key] = len(components)
                components.append(component)
            indices.append(by_key[key])
        types.append(PieceType(index=index, name=name, letter=spec["letter"],
                               royal=bool(spec.get("royal", False)),
                               value=spec.get("value"),
                               resets_clock=bool(spec.get("resets-clock", False)),
                               components=indices, glyph=spec.get("glyph"),
                               passes=bool(spec.get("pass", False))))
    return PieceSet(types=types, components=components,
                    by_letter={t.letter: t for t in types},
                    by_name={t.name: t for t in types})
