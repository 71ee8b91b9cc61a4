"""The plain tables rule compilation hands to the position core.

Every rule family of a declaration (`variantkit.rulebook`) turns its part
into these values: integers, cell masks and piece codes, nothing that still
reads the YAML.  They live below the core, which reads them on its hot path
and imports them from here; the families' records (`variantkit.rulebook`)
hold them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, NamedTuple, final

from variantkit.pieces import (
    SHORT_BITS,
    SHORT_MASK,
    CellReach,
    Component,
    RayReach,
    WordReach,
)


@final
class AttackEntry:
    """One component of a side's attacks, as check detection reads it: the
    piece codes that have it, whether it attacks only while unmoved, the
    piece codes that may not serve as its screens, and the component's
    tables of that side.  A class, not a tuple: compiled, reading a field
    is a struct read, where unpacking a tuple checks each item's type."""

    def __init__(self, component: Component, side: int, codes: list[int], initial: bool,
                 barred: tuple[int, ...]) -> None:
        self.component = component
        self.codes = codes
        self.initial = initial
        self.barred = barred
        # The component's attack tables of `side` (see `Component`).
        self.sources: list[int] = component.attack_sources[side]
        self.xray_sources: list[int] = component.xray_sources[side]
        self.xray_between: list[dict[int, int]] = component.xray_between[side]
        self.xray_single: list[int] = component.xray_single[side]
        # The same sources split into machine words (cells below SHORT_BITS,
        # and those from SHORT_BITS on, shifted down): check detection first
        # looks for a piece there a word at a time, since compiled, each
        # operation on a mask wider than SHORT_MASK allocates.
        self.sources_low: list[int] = [cells & SHORT_MASK for cells in self.sources]
        self.sources_high: list[int] = [cells >> SHORT_BITS for cells in self.sources]
        self.xray_low: list[int] = [cells & SHORT_MASK for cells in self.xray_sources]
        self.xray_high: list[int] = [cells >> SHORT_BITS for cells in self.xray_sources]
        # Per target: whether every piece of this component on a source cell
        # attacks it whatever stands between (a leap): then the pieces found
        # there are the attackers, with no look-up.
        other = component.reverse_side[side]
        self.constant: list[bool] = [
            not barred and other is not None and not component.shift
            and not component.tables[other][target][1] and not component.tables[other][target][2]
            and component.tables[other][target][0] == cells
            for target, cells in enumerate(self.sources)]
        # Per target, for a component that is not a hop, where its attack
        # is read without its move tables: the source cells it attacks from
        # with no cell between (`adjacent`), and those it attacks from along
        # one path (`single`, adjacent ones left out), whose piece attacks
        # when the cells between are empty; `between` gives those cells by
        # the attacker's cell, in words.  Compiled, a piece or two tested
        # so cost far less than reading the component's reach under the
        # full-width occupancy.  Only on a board of up to two words: on a
        # larger one the high word is no machine word, and building these
        # for every target made the 512-cell disk of benchmarks/boards load
        # a fifth slower.
        self.lines = component.flags.hop is None and not barred \
            and len(self.sources) <= 2 * SHORT_BITS
        self.adjacent_low: list[int] = []
        self.adjacent_high: list[int] = []
        self.single_low: list[int] = []
        self.single_high: list[int] = []
        self.between: list[dict[int, tuple[int, int]]] = []
        if self.lines:
            for target, pairs in enumerate(component.attack_pairs[side]):
                adjacent = 0
                for cells, between, _ in pairs:
                    if not between:
                        adjacent |= cells
                single = self.xray_single[target] & ~adjacent
                self.adjacent_low.append(adjacent & SHORT_MASK)
                self.adjacent_high.append(adjacent >> SHORT_BITS)
                self.single_low.append(single & SHORT_MASK)
                self.single_high.append(single >> SHORT_BITS)
                paths: dict[int, tuple[int, int]] = {}
                for bit, cells in self.xray_between[target].items():
                    if bit & single:
                        paths[bit.bit_length() - 1] = (cells & SHORT_MASK, cells >> SHORT_BITS)
                self.between.append(paths)


class Limits(NamedTuple):
    """Piece types that change what one generator may do."""

    barred: tuple[int, ...]    # codes (both sides) that may not serve as its screens
    shift: int                 # where their cells go in a table key
    immune: tuple[int, ...]    # enemy codes it may not capture
    # In check under `in-check: capture-checker`: it may only capture a lone
    # checking piece.
    checkers_only: bool = False


class Generator(NamedTuple):
    """One compiled component as the pieces of one side use it."""

    tables: list[CellReach]
    mode: int
    initial: bool
    en_passant: str | None
    may_give_check: bool
    passed: list[dict[int, int]]   # [from][to] -> cells passed (en passant targets), or []
    victims: tuple[int, ...]   # suborn: the enemy piece codes it may convert
    limits: Limits | None      # piece types it may not hop over or capture


@final
class LoopGenerator:
    """A generator as the move generator's loop reads it
    (`Codes.loop_generators`): its tables and mode; `spans`, for one
    that only captures or converts, per cell every cell it may reach (no
    enemy piece there, nothing to do); `special`, the generator itself
    when a first-move, en passant, check or type rule applies (None for a
    plain one); for a plain one on a board of up to twice SHORT_BITS cells,
    `words`, its tables read a word at a time (None at a cell where they
    cannot be); `spans_low` and `spans_high`, `spans` split into words; `rays`, per
    cell its tables read with no look-up (`pieces.RayReach`; None where
    they cannot be).  A class, not a tuple, for the reason `AttackEntry`
    gives."""

    def __init__(self, tables: list[CellReach], mode: int, spans: list[int] | None,
                 special: Generator | None, words: list[WordReach | None] | None,
                 rays: list[RayReach | None]) -> None:
        self.tables = tables
        self.rays = rays
        self.mode = mode
        self.spans = spans
        self.special = special
        self.words: list[WordReach | None] = words or []
        self.spans_low: list[int] = [cells & SHORT_MASK for cells in spans or []]
        self.spans_high: list[int] = [cells >> SHORT_BITS for cells in spans or []]


class DropRule(NamedTuple):
    """What limits the drops of one piece code beyond its region."""

    lines: tuple[int, ...]   # lines (cell masks) on which `per_line` of it may stand
    per_line: int            # at most this many own pieces of this code per line
    check: bool              # a drop of it may not give check
    mate: bool               # a drop of it may not give checkmate


class Standing(NamedTuple):
    """A promotion made standing on a cell (`promotion: {standing: ...}`)."""

    region: int           # where the piece may promote
    choices: list[int]
    steps: list[int]      # per cell, the empty cells one step may reach
    last_anywhere: bool   # the side's last piece of the type promotes anywhere
    no_attack: bool       # the new piece may not attack an enemy piece


class Promotion(NamedTuple):
    """How one piece code promotes."""

    region: int     # landing here promotes
    optional: int   # ...except that landing here the piece may also stay as it is
    choices: list[int]
    start: int = 0  # leaving from here promotes too (shogi: a move out of the zone)
    capture_only: bool = False  # only a capture promotes (micro shogi)
    en_passant: bool = True     # an en passant capture promotes too
    # `from-inside: by-capture` (chu shogi): a move that starts in the region
    # promotes only by a capture, or onto a cell of `stuck` (where the
    # unpromoted piece could not move again); a move into it always may.
    inside_by_capture: bool = False
    stuck: int = 0


@dataclass
class MaterialPattern:
    """A material balance that can never lead to mate."""

    exact: tuple[str, str] | None = None    # sorted letters of each side, king included
    only: frozenset[int] | None = None      # piece types allowed besides royals
    one_colour: bool = False


@dataclass
class EndCondition:
    """One declared way the game ends, tested for each side in turn.

    `kind` is `checks` (the side has given `count` checks), `extinct` (the
    side has at most `count` pieces of `codes`, or of any kind when `codes`
    is None, while the other side has at least `rivals` of them),
    `reached` (`count` pieces of `codes`, at least one, stand in
    the side's region), `in-a-row` (pieces of `codes`, or of any kind when
    `codes` is None, fill one of `rows`) or
    `connected` (pieces of `codes`, or of any kind, make a chain, each a
    step of `steps` from the next, from the side's `regions` cell to its
    `goals` cell) or
    `bare` (the side has only royal pieces left, and the other side more).
    `result` is for the side that meets the condition.  `answer`: when
    White (who moves first) meets it and Black could meet it too with one
    move, the game goes on; when both meet it, that is the result.
    `reply`: the condition is tested for the side to move only, so a side
    that meets it with a move wins only if it still does once the other
    side has replied (jeson mor's centre cell).
    `safe` (with `reached`): the piece counts only where no enemy piece
    attacks it (dobutsu's lion).
    `grace`: the condition counts for the side to move only when no one move
    could get it out (for `bare`: when the other side has two or more pieces
    besides royal ones, so that one capture cannot bare it in reply).
    """

    kind: str
    result: str
    count: int = 0
    codes: tuple[frozenset[int], frozenset[int]] | None = None
    regions: tuple[int, int] = (0, 0)
    answer: str | None = None
    reply: bool = False   # tested for the side to move only
    grace: bool = False
    safe: bool = False   # `reached`: only where no enemy piece attacks it
    full: bool = False   # `reached`: for the mover, one piece is enough in a full region
    rows: tuple[int, ...] = ()   # `in-a-row`: each run of `count` cells on a line, as a mask
    rivals: int = 0   # `extinct`: how many of them the other side must have (koedem: 2)
    goals: tuple[int, int] = (0, 0)   # `connected`: each side's second region
    steps: tuple[int, ...] = ()   # `connected`: per cell, the cells a step away
    # `castled` (the side's last move castled by one of these rights) and
    # `castling-lost` (the side holds none of these rights of its own, though
    # some of its castlings have them): castling rights by their letters.
    rights: frozenset[str] = frozenset()


class MateException(NamedTuple):
    """A checkmate whose result is not `checkmate`'s (shatar).

    `kind` is `only` (every piece giving the mating check is of `codes`) or
    `series` (no piece of `codes` gave check in the unbroken series of
    checks by the mating side that ends in the mate).  `result` is for the
    mated side."""

    kind: str
    codes: frozenset[int]
    result: str


class DrawPoints(NamedTuple):
    """Points that decide a game that would end drawn (janggi's count)."""

    values: list[float]            # per piece code
    bonus: tuple[float, float]     # added to White's and Black's totals


class Shuttle(NamedTuple):
    """The shuttle rule (janggi's modern rules): the piece codes it watches
    and the result for the side that shuttles."""

    codes: frozenset[int]
    result: str


@dataclass
class CountLimit:
    """One entry of a bare side's count: the moves allowed when the other
    side has at least so many of each listed piece type."""

    needs: tuple[tuple[int, int], ...]   # (piece type, at least)
    moves: int


@dataclass
class Counting:
    """Counted endings (`end: counting`): when a side is short of material
    its count starts, and the game is drawn once the count passes its limit.

    `board_moves`: the count of a side that has more than its royal piece
    (none if None), for a side of at most `board_most` pieces, and while
    `pawns` stand only if `board_with_pawns`.  `bare`: the limits of a side
    left with its royal piece alone, once no pawns stand; its count starts
    at the number of pieces on the board (`start_at_pieces`) or at 0.
    `last_pawn`: a bare side that takes the last pawn starts counting at once.
    """

    pawns: tuple[int, ...]   # piece codes of both sides
    board_moves: int | None = None
    board_most: int | None = None
    board_with_pawns: bool = False
    bare: list[CountLimit] = field(default_factory=list)
    start_at_pieces: bool = True
    last_pawn: bool = False


class FlipRule(NamedTuple):
    """Pieces turned over to the side that moves (`flips:`, reversi and
    ataxx), and which drops the rule allows.

    `adjacent`: a piece landing turns over the enemy pieces one step away
    (`steps`); else those it encloses: on each of its `lines`, an unbroken
    run of enemy pieces that an own piece ends (no lines: nothing turns
    over).  `drops` is `enclose` (a drop must turn a piece over),
    `touch-own` (it must land one step from an own piece), `apart` (no step
    from an enemy piece) or `any`; while a cell of `first` is empty, drops go only
    there.  `free`: per side, the piece codes dropped without a hand.
    `drop_needs_own`: a drop turns pieces over only where it lands a step
    from an own piece."""

    adjacent: bool
    lines: list[tuple[tuple[int, ...], ...]]   # per cell, each line's cell bits, nearest first
    steps: list[int]                            # per cell, the cells one step away
    drops: str
    first: int
    free: tuple[tuple[int, ...], tuple[int, ...]]
    drop_needs_own: bool = False
    walls_enclose: bool = False


# Captures beyond replacement (`capture-by:`, rulebook/capture_modes.py):
# the modes, one bit each in a piece code's entry of `CaptureModes.modes`.
APPROACH: Final = 1
WITHDRAWAL: Final = 2
CUSTODIAN: Final = 4
ROYAL_LINES: Final = 8
LEAP_CAPTURE: Final = 16
IMITATION: Final = 32
# The grid's eight directions, as (file, rank) offsets; a direction's index
# in a cell's row of `CaptureModes.step` is (dx + 1) * 3 + dy + 1 (4, the
# null offset, is never read).
ORTHOGONAL: Final = (1, 3, 5, 7)
DIAGONAL: Final = (0, 2, 6, 8)
ALL_LINES: Final = (0, 1, 2, 3, 5, 6, 7, 8)


class CaptureModes(NamedTuple):
    """The capture modes and freezing as the core plays them."""

    modes: list[int]                  # per piece code: its mode bits
    # Per piece code: the partner codes of its custodian captures (own side;
    # empty: any own piece), the directions of its custodian captures and
    # of its leaps.
    partners: list[tuple[int, ...]]
    custodian_lines: list[tuple[int, ...]]
    leap_lines: list[tuple[int, ...]]
    freezes: list[bool]               # per piece code: it freezes enemy pieces
    # Per piece code that freezes, per cell: the cells whose enemy pieces it
    # freezes from there (the adjacent ones, or a declared primitive's).
    freeze_cells: list[list[int]]
    # Per side: its codes that freeze, and its codes that capture by imitation
    # (they freeze the adjacent enemy pieces that freeze).
    freezer_codes: list[tuple[int, ...]]
    imitator_codes: list[tuple[int, ...]]
    # Per side: its codes with some mode (their moves get capture masks).
    mode_codes: list[tuple[int, ...]]
    # Per cell: the next cell in each of the nine direction slots (-1: off
    # the board), its neighbours, its file's and its rank's cells, its file
    # and rank numbers.
    step: list[list[int]]
    adjacent: list[int]
    file_cells: list[int]
    rank_cells: list[int]
    file_of: list[int]
    rank_of: list[int]
    active: bool                      # some piece has a mode or freezes
