"""The position core: one position of a variant as integers.

A `Position` holds the cell contents as piece codes plus one bit mask per
piece code and per side, generates legal moves from the compiled tables,
makes and unmakes moves on a stack, and tests attacks.  The hot path works
on integers only; `public_move` turns an internal move into a `Move`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Final, Protocol

from variantkit.core.moves import (
    CASTLE,
    CASTLE_GATE,
    DOUBLE,
    DROP,
    EN_PASSANT,
    GATE,
    NORMAL,
    PASS,
    REMOTE,
    STAY,
    SUBORN,
    WALL_BITS,
    WALLED,
    InternalMove,
    UndoRecord,
    castle_gate,
    gate_parts,
    wall_parts,
)
from variantkit.pieces import (
    CAPTURE,
    CONVERT,
    MOVE,
    SHORT_BITS,
    SHORT_MASK,
    STAYS,
    CellReach,
    reach,
)
from variantkit.public_types import SIDES, Move

if TYPE_CHECKING:
    from variantkit.rules import Rules
    from variantkit.tables import AttackEntry, DropRule, Limits, Promotion

NO_PASSED: Final[list[dict[int, int]]] = []   # a plain generator passes no cells


class Positioned(Protocol):
    """Anything a face draws or writes a position of: a `Position` itself,
    or a `Game` (variantkit.game), which holds one."""

    @property
    def position(self) -> Position: ...


def position_of(game: object, caller: str) -> Position:
    """The core position of `game` (a `Game` or a core position), for the
    public helpers that take either; a TypeError that names `caller` and
    what it takes for anything else."""
    position = getattr(game, "position", None)
    if not isinstance(position, Position):
        raise TypeError(f"{caller}() takes a Game or a Position, not {type(game).__name__}")
    return position


class Position:
    """A position of a variant with its move history, as integers."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        n_codes = rules.codes.n_codes
        self.cells: list[int] = [0] * rules.board.size
        self.bb: list[int] = [0] * n_codes
        # The same masks split into machine words: the cells below
        # SHORT_BITS, and those from SHORT_BITS on (shifted down), kept with
        # `bb` by `toggle_word`.  Compiled, an operation on a mask wider
        # than SHORT_MASK allocates, so check detection looks at these first.
        self.bb_low: list[int] = [0] * n_codes
        self.bb_high: list[int] = [0] * n_codes
        self.side_bb = [0, 0]
        self.stm = 0  # side to move: 0 White, 1 Black
        self.unmoved = 0
        self.ep_target = 0
        self.ep_victim = -1
        self.halfmove = 0
        self.fullmove = 1
        self.hash = 0
        self.royal = [-1, -1]
        # Pieces in hand: hands[code] pieces of type `code` in the hand of
        # side `code & 1` (variants with `hands` only).
        self.hands: list[int] = [0] * n_codes
        # Cells holding a wall (a petrified piece): of no side, never moved
        # onto, captured or passed, but leapt over.
        self.walls = 0
        # The walls before each walled move on the stack (`walls:`), oldest first.
        self.walls_before: list[int] = []
        # The castling moves of this game: the variant's, or under free
        # castling those of the start position (set by the position reader).
        self.castlings = rules.castling.castlings
        self.castlings_by_side = rules.castling.by_side
        # Chess960: castling is written as the king taking its own rook
        # (`e1h1`), under free castling or when the position string named
        # the rights Chess960's way (set by the position reader).
        self.chess960 = rules.castling.free_castling
        # One undo record per move played, oldest first; its first item is
        # the internal move (read by the engine, outcome rules and drawing).
        self.history: list[UndoRecord] = []
        # Repetition keys of the positions before each move on the stack,
        # filled by the outcome rules as they need them; an entry stays valid
        # while the moves before it stay on the stack.
        self.repetition_keys: list[int] = []
        # The rules' tables the move generator, make and unmake read at
        # every node, taken from the families' records once (see each
        # record's module in `variantkit.rulebook`): compiled, an attribute
        # of the position is one read.
        codes = rules.codes
        self.royal_code = codes.royal_code
        self.royal_codes = codes.royal_codes
        self.resets_clock = codes.resets_clock
        self.pass_codes = codes.pass_codes
        self.generators = codes.generators
        self.clock_kept = codes.clock_kept
        self.loop_generators = codes.loop_generators
        self.loop_check_generators = codes.loop_check_generators
        self.attack_components = codes.attack_components
        self.slider_components = codes.slider_components
        self.hop_components = codes.hop_components
        self.typed_screens = codes.typed_screens
        self.spans_low = codes.spans_low
        self.spans_high = codes.spans_high
        # Boards wider than SHORT_MASK: their masks are boxed, so the
        # generator reads pieces a word at a time where it can (`Words`).
        self.wide = rules.board.size > SHORT_BITS   # Board.size is a property
        self.short_moves = rules.words.short
        self.word_moves = rules.words.words
        promotion = rules.promotion
        self.promotions = promotion.promotions
        self.promotion_of = promotion.by_code
        # Their regions in words, for the pieces read a word at a time.
        self.promotion_low = [0 if p is None else p.region & SHORT_MASK
                              for p in promotion.by_code]
        self.promotion_high = [0 if p is None else p.region >> SHORT_BITS
                               for p in promotion.by_code]
        self.standing = promotion.standing
        self.promotion_limit = promotion.promotion_limit
        self.limit_counted = promotion.limit_counted
        self.reversible_promotion = promotion.reversible_promotion
        held = rules.hands
        self.has_hands = held.has_hands
        self.all_cells = held.all_cells
        self.drops = held.drops
        self.must_drop = held.must_drop
        self.forced_drops = held.forced_drops
        self.drops_unmoved = held.drops_unmoved
        self.drops_grant_castling = held.drops_grant_castling
        self.to_hand = held.to_hand
        self.drop_regions = held.drop_regions
        self.drop_rules = held.drop_rules
        self.hand_codes = held.hand_codes
        self.balanced = held.balanced
        self.colour_cells = held.colour_cells
        self.drop_forms = held.drop_forms
        self.drop_below = rules.drop_fall.below
        self.drop_entries = rules.drop_fall.entries
        self.facing = rules.royals.facing
        self.facing_must_break = rules.royals.facing_must_break
        self.pass_ends_game = rules.end.pass_ends_game
        first = rules.first_moves
        self.first_move_rule = first.rule
        self.same_plane = first.same_plane
        self.first_move_castling = first.castling
        self.first_move_evasion = first.evasion
        self.blast = rules.captures.blast
        self.walling = rules.walls
        # Under `walls: {royal-safety: with-wall}` a castling's passage is
        # judged with the rest of the move, its wall down (GeneralPosition).
        walling = rules.walls
        self.passage_with_wall = walling is not None and walling.with_wall \
            and walling.kind != "none"
        self.gate_regions = rules.gating.regions
        self.zobrist = rules.keys.zobrist
        self.hand_keys = rules.keys.hand_keys
        self.wall_keys = rules.keys.wall_keys

    @property
    def position(self) -> Position:
        """Itself: a face that takes a `Game` or a core position reads
        `.position` of either."""
        return self

    # -- check ----------------------------------------------------------------
    def is_check(self) -> bool:
        """Whether the side to move's royal piece is attacked."""
        return self.side_in_check(self.stm)

    def checkers(self) -> int:
        """Cells (a bit mask) of the enemy pieces giving check to the side to move."""
        us = self.stm
        return self.attackers(self.royal[us], 1 - us, self.side_bb[0] | self.side_bb[1],
                               self.side_bb[1 - us])

    def checked_cell(self) -> str | None:
        """The cell of the side to move's royal piece when it is in check."""
        return self.rules.board.names[self.royal[self.stm]] if self.is_check() else None

    def side_in_check(self, side: int) -> bool:
        """Whether `side` is in check: here, its royal piece is attacked."""
        return self.royal_attacked(side)

    def royal_attacked(self, side: int) -> bool:
        """Whether `side`'s one royal piece is attacked (never while it is
        still in hand, as in placement chess): the generator's own test."""
        royal = self.royal[side]
        return royal >= 0 and bool(self.attackers(
            royal, 1 - side, self.side_bb[0] | self.side_bb[1] | self.walls,
            self.side_bb[1 - side]))

    def non_royal(self, side: int) -> int:
        """How many non-royal pieces `side` has."""
        royal = self.royal_code
        bb = self.bb
        count = 0
        # A loop, not sum() over a generator: compiled, the generator is an
        # object made at every call, and counted endings ask at every move.
        for code in range(2 + side, len(bb), 2):
            if not royal[code]:
                count += bb[code].bit_count()
        return count

    def has_non_royal(self, side: int) -> bool:
        """Whether `side` has a piece besides its royal ones."""
        royal = self.royal_code
        bb = self.bb
        # Each mask only tested, never combined: compiled, an operation on
        # a mask wider than a word allocates, and counted endings ask at
        # every move.  A loop, not any() over a generator (as `non_royal`).
        for code in range(2 + side, len(bb), 2):  # noqa: SIM110
            if bb[code] and not royal[code]:
                return True
        return False

    def holds_any(self, codes: tuple[int, ...]) -> bool:
        """Whether a piece of one of `codes` stands on the board."""
        bb = self.bb
        # A loop, not any() over a generator (as `non_royal`).
        for code in codes:  # noqa: SIM110
            if bb[code]:
                return True
        return False

    def is_checkmate(self) -> bool:
        """Whether the side to move is in check and has no legal move."""
        return self.is_check() and not self.legal_internal()

    def is_stalemate(self) -> bool:
        """Whether the side to move is not in check and has no legal move
        (what that means for the result is the variant's `end.stalemate`);
        a game a pass has ended is not stalemate."""
        return not self.is_check() and not self.legal_internal() and not self.ended_by_pass()

    def ended_by_pass(self) -> bool:
        """Whether the last move, a pass, ended the game under the variant's
        `end: double-pass` (a pass answering a pass) or `end: facing-pass`
        (a pass while the royal pieces face each other).  No side moves
        after that, as Fairy-Stockfish lists no moves once a game is over."""
        if not self.pass_ends_game:   # most variants: nothing to look up
            return False
        history = self.history
        if not history or history[-1][0][3] != PASS:
            return False
        end = self.rules.end
        return (end.double_pass is not None and len(history) >= 2
                and history[-2][0][3] == PASS) \
            or (end.facing_pass is not None and self.royals_face())

    def pseudo_moves(self) -> list[InternalMove]:
        """The pieces' moves of the side to move, with no royal piece
        guarded (moves that leave it attacked among them)."""
        moves: list[InternalMove] = []
        self._generate(-1, moves)
        return moves

    def turn_played(self) -> int:
        """How many moves of its turn the side to move has played: 0 at a
        turn's start, and always where a turn is one move (`turns:`)."""
        return 0

    def copy(self) -> Position:
        """An independent position, history included."""
        other = type(self)(self.rules)
        for name in ("cells", "bb", "bb_low", "bb_high", "side_bb", "royal", "hands"):
            setattr(other, name, list(getattr(self, name)))
        for name in ("stm", "unmoved", "ep_target", "ep_victim", "halfmove", "walls",
                     "fullmove", "hash", "castlings", "castlings_by_side", "chess960"):
            setattr(other, name, getattr(self, name))
        other.history = list(self.history)
        other.walls_before = list(self.walls_before)
        other.repetition_keys = list(self.repetition_keys)
        return other

    def state_key(self) -> int:
        """Hash of the position's state beyond placement, rights and en
        passant (counted checks), for repetition: 0 here."""
        return 0

    # -- placing pieces (used by the position-string reader) -----------------
    def place(self, cell: int, code: int) -> None:
        """Put a piece of `code` on `cell`, an empty cell."""
        bit = 1 << cell
        self.cells[cell] = code
        self.bb[code] = self.bb[code] | bit
        self.toggle_word(code, cell)
        self.side_bb[code & 1] = self.side_bb[code & 1] | bit
        self.hash ^= self.zobrist[code][cell]
        if self.royal_code[code]:
            self.royal[code & 1] = cell

    def toggle_word(self, code: int, cell: int) -> None:
        """Put `cell` into the word masks of `code` (`bb_low`, `bb_high`),
        or take it out: whatever changes `bb[code]` at `cell` calls this."""
        # Written `a[i] = a[i] ^ x`, here and wherever the core changes a
        # list's item: compiled, `a[i] ^= x` goes through Python's generic
        # in-place operator, boxing both operands.
        if cell < SHORT_BITS:
            self.bb_low[code] = self.bb_low[code] ^ (1 << cell)
        else:
            self.bb_high[code] = self.bb_high[code] ^ (1 << (cell - SHORT_BITS))

    def add_to_hand(self, code: int, count: int = 1) -> None:
        """Put `count` pieces of `code` into the hand of side `code & 1`."""
        keys = self.hand_keys[code]
        held = self.hands[code]
        self.hash ^= keys[held] ^ keys[held + count]
        self.hands[code] = held + count

    def hand(self, side: str) -> dict[str, int]:
        """The letters and counts of the pieces in a side's hand ('white' or
        'black'): uppercase letters for White, lowercase for Black."""
        if side not in SIDES:
            raise ValueError(f"a side is 'white' or 'black', not {side!r}")
        letter_of = self.rules.letter_of_code
        return {letter_of(code): self.hands[code] for code in self.hand_codes[SIDES.index(side)]
                if self.hands[code]}

    def place_wall(self, cell: int) -> None:
        """Put a wall on an empty cell (or take it away again)."""
        self.walls ^= 1 << cell
        self.hash ^= self.wall_keys[cell]

    # -- move generation ----------------------------------------------------
    def pieces_within(self, codes: list[int], low: int, high: int) -> tuple[int, int]:
        """The cells of the pieces of `codes` within the low word `low` and
        the high word `high` (see `bb_low`)."""
        pieces_low = pieces_high = 0
        for code in codes:
            pieces_low |= self.bb_low[code]
            pieces_high |= self.bb_high[code]
        return pieces_low & low, pieces_high & high

    def xray_pieces(self, entry: AttackEntry, king: int) -> int:
        """The pieces of `entry`'s codes on its lines to `king` (empty
        board), looked for a word at a time first (as in `attackers`)."""
        low, high = entry.xray_low[king], entry.xray_high[king]
        if not (low or high):
            return 0
        low, high = self.pieces_within(entry.codes, low, high)
        return high << SHORT_BITS | low if high else low

    def attackers(self, target: int, side: int, occupied: int, side_mask: int) -> int:
        """Cells of `side`'s pieces (within `side_mask`) attacking `target`."""
        return self.attackers_words(target, side, occupied & SHORT_MASK, occupied >> SHORT_BITS,
                                    side_mask & SHORT_MASK, side_mask >> SHORT_BITS)

    def attackers_words(self, target: int, side: int, occupied_low: int, occupied_high: int,
                        mask_low: int, mask_high: int) -> int:
        """`attackers`, given the occupied cells and the side's mask a word
        at a time (below SHORT_BITS, and the rest shifted down by it; see
        `bb_low`), as the move generator has them: compiled, each operation
        on a mask wider than a word allocates."""
        # The pieces a component may attack from are looked for a word at a
        # time; only a component with a piece there, that is not a leap,
        # goes on to full-width masks.
        found = found_low = found_high = 0
        for entry in self.attack_components[side]:
            near_low = entry.sources_low[target] & mask_low
            near_high = entry.sources_high[target] & mask_high
            if not (near_low or near_high):
                continue
            pieces_low, pieces_high = self.pieces_within(entry.codes, near_low, near_high)
            if not (pieces_low or pieces_high):
                continue
            if entry.initial:
                pieces = (pieces_high << SHORT_BITS | pieces_low) & self.unmoved
                if not pieces:
                    continue
            elif entry.constant[target]:
                found_low |= pieces_low
                found_high |= pieces_high
                continue
            elif entry.lines:
                # A piece beside the target attacks it, one on a single path
                # when the cells between are empty (see `AttackEntry`): only
                # the pieces on several paths go on to the tables.
                hit_low = pieces_low & entry.adjacent_low[target]
                hit_high = pieces_high & entry.adjacent_high[target]
                one_low = pieces_low & entry.single_low[target]
                one_high = pieces_high & entry.single_high[target]
                rest_low = pieces_low ^ hit_low ^ one_low
                rest_high = pieces_high ^ hit_high ^ one_high
                if one_low or one_high:
                    between = entry.between[target]
                    while one_low:
                        bit = one_low & -one_low
                        one_low ^= bit
                        low_cells, high_cells = between[bit.bit_length() - 1]
                        if not (low_cells & occupied_low or high_cells & occupied_high):
                            hit_low |= bit
                    while one_high:
                        bit = one_high & -one_high
                        one_high ^= bit
                        low_cells, high_cells = between[SHORT_BITS + bit.bit_length() - 1]
                        if not (low_cells & occupied_low or high_cells & occupied_high):
                            hit_high |= bit
                found_low |= hit_low
                found_high |= hit_high
                if not (rest_low or rest_high):
                    continue
                pieces = rest_high << SHORT_BITS | rest_low if rest_high else rest_low
            else:
                pieces = pieces_high << SHORT_BITS | pieces_low if pieces_high else pieces_low
            # The tables read the full-width occupancy.
            occupied = occupied_high << SHORT_BITS | occupied_low if occupied_high \
                else occupied_low
            if entry.barred:
                screens = 0
                for code in entry.barred:
                    screens |= self.bb[code]
                found |= entry.component.attackers(side, target, occupied,
                                                   screens & occupied) & pieces
            else:
                found |= entry.component.attackers(side, target, occupied) & pieces
        if found_high:
            found |= found_high << SHORT_BITS
        return found | found_low

    def _pin_risk(self, king: int, them: int, occupied_low: int, occupied_high: int,
                  pinned: dict[int, int]) -> int:
        """Cells whose vacating might expose `king` in a way only a test of
        the position tells: those between it and an enemy hopper, or a piece
        whose attack on it may run along several paths.  On a line with one
        path, an own piece that is its only blocker is pinned: `pinned` gets
        its bit, mapped to the cells it may still move to (the line and the
        attacker's cell; several pins intersect).  The occupied cells come
        a word at a time, as `attackers_words` takes them."""
        own = self.side_bb[1 - them]
        risk = 0
        # `own` in words, made when first needed: the lines with one path
        # are read a word at a time (see `AttackEntry.between`).
        own_low = own_high = -1
        for entry in self.slider_components[them]:
            low, high = entry.xray_low[king], entry.xray_high[king]
            if not (low or high):
                continue
            low, high = self.pieces_within(entry.codes, low, high)
            if not (low or high):
                continue
            between = entry.xray_between[king]
            if entry.lines and not entry.initial:
                one_low, one_high = low & entry.single_low[king], high & entry.single_high[king]
                low ^= one_low
                high ^= one_high
                if one_low or one_high:
                    if own_high < 0:
                        own_low, own_high = own & SHORT_MASK, own >> SHORT_BITS
                    paths = entry.between[king]
                    word, ones = 0, one_low
                    while True:   # the low word, then the high one
                        while ones:
                            bit = ones & -ones
                            ones ^= bit
                            cells_low, cells_high = paths[word + bit.bit_length() - 1]
                            blockers_low = cells_low & occupied_low
                            blockers_high = cells_high & occupied_high
                            # One blocker, and an own piece: pinned.
                            if blockers_low and not blockers_high \
                                    and not blockers_low & (blockers_low - 1) \
                                    and blockers_low & own_low:
                                blocker = blockers_low
                            elif blockers_high and not blockers_low \
                                    and not blockers_high & (blockers_high - 1) \
                                    and blockers_high & own_high:
                                blocker = blockers_high << SHORT_BITS
                            else:
                                continue
                            source = bit << word
                            pinned[blocker] = pinned.get(blocker, -1) & (between[source] | source)
                        if word:
                            break
                        word, ones = SHORT_BITS, one_high
                if not (low or high):
                    continue
            # What is left: the lines with several paths, the hoppers' and
            # the pieces that attack only while unmoved, at full width.
            sources = high << SHORT_BITS | low if high else low
            occupied = occupied_high << SHORT_BITS | occupied_low if occupied_high \
                else occupied_low
            # The same attackers as `attackers` counts, so that no pin is false.
            if entry.initial:
                sources &= self.unmoved
            single = entry.xray_single[king]
            while sources:
                source = sources & -sources
                sources ^= source
                line = between[source]
                if not source & single:
                    risk |= line
                    continue
                blockers = line & occupied
                if blockers & own and not blockers & (blockers - 1):
                    pinned[blockers] = pinned.get(blockers, -1) & (line | source)
        if risk > SHORT_MASK:
            return (risk >> SHORT_BITS & occupied_high) << SHORT_BITS | risk & occupied_low
        return risk & occupied_low

    def _screen_risk(self, king: int, them: int, occupied: int) -> int:
        """Cells where a piece would become the screen of an enemy hopper
        aiming at `king`: the empty ones, and where a screen's type matters
        also the occupied ones (a capture there changes the screen's type)."""
        lines = self._lines_to(king, them, self.hop_components[them])
        return lines if self.typed_screens else lines & ~occupied

    def _lines_to(self, king: int, them: int, entries: list[AttackEntry]) -> int:
        """The cells between `king` and the enemy pieces of these components
        that reach it on an empty board."""
        risk = 0
        for entry in entries:
            sources = self.xray_pieces(entry, king) & self.side_bb[them]
            between = entry.xray_between[king]
            while sources:
                low = sources & -sources
                risk |= between[low]
                sources ^= low
        return risk

    def legal_en_passant(self) -> list[InternalMove]:
        """The en passant captures the side to move can legally make."""
        if not self.ep_target:
            return []
        return [m for m in self.legal_internal()
                if m[3] == EN_PASSANT or m[3] == WALLED + EN_PASSANT]

    def legal_internal(self) -> list[InternalMove]:
        if self.ended_by_pass():
            return []
        moves: list[InternalMove] = []
        self._generate(self.royal[self.stm], moves)
        if self.gate_regions[self.stm]:
            moves += self._gatings(moves)
        return self._drops_first(moves) if self.must_drop else moves

    def count_legal(self) -> int:
        """How many legal moves there are: `len(legal_internal())`, but
        plain moves are counted, not built (perft's last ply)."""
        # These rules filter the whole list (the must-break rule, while the
        # royal pieces face each other, is `_generate`'s own).
        if self.gate_regions[self.stm] or self.must_drop or self.ended_by_pass():
            return len(self.legal_internal())
        moves: list[InternalMove] = []
        return self._generate(self.royal[self.stm], moves, counting=True) + len(moves)

    def _drops_first(self, moves: list[InternalMove]) -> list[InternalMove]:
        """`must-drop`: while a drop of a piece it names is legal, only
        those drops are."""
        forced = self.forced_drops
        drops = [m for m in moves if m[3] == DROP and forced[m[2]]]
        return drops or moves

    def stuck_pass(self) -> list[InternalMove]:
        """`pass: when-no-move`, for a side left without a legal move: the
        pass, never in check, written from its royal piece's cell or else its
        first piece's (as Fairy-Stockfish writes it); none for a side with
        no piece on the board."""
        own = self.side_bb[self.stm]
        if not own or self.is_check():
            return []
        royal = self.royal[self.stm]
        cell = royal if royal >= 0 else (own & -own).bit_length() - 1
        return [(cell, cell, 0, PASS, 0)]

    def count_legal_pairs(self) -> int:
        """How many sequences of two legal moves there are (perft 2), counted
        here so that perft's last two plies make no call from the
        interpreter; the position is left as it was."""
        nodes = 0
        for move in self.legal_internal():
            self.make_internal(move)
            try:
                nodes += self.count_legal()
            finally:
                self.unmake_internal()
        return nodes

    def _generate(self, king: int, out: list[InternalMove], counting: bool = False) -> int:
        """Put into `out` the moves that leave the royal piece on `king`
        safe; with `king` -1, every move the pieces can make (nothing
        guarded).  With `counting`, the moves that need no test and the
        plain moves that passed theirs are only counted: the number
        returned (0 otherwise) is how many of them."""
        us, them = self.stm, 1 - self.stm
        own, enemy = self.side_bb[us], self.side_bb[them]
        occupied = own | enemy | self.walls
        # The same a word at a time (see `bb_low`), for the legality tests:
        # compiled, each operation on a mask wider than a word allocates.
        wide = self.wide
        if wide:
            occupied_low, occupied_high = occupied & SHORT_MASK, occupied >> SHORT_BITS
            enemy_low, enemy_high = enemy & SHORT_MASK, enemy >> SHORT_BITS
        else:
            occupied_low, occupied_high, enemy_low, enemy_high = occupied, 0, enemy, 0
        # Pinned pieces: the cells each may move to (see `_pin_risk`).
        pinned: dict[int, int] = {}
        if king >= 0:
            king_bit = 1 << king
            checkers = self.attackers_words(king, them, occupied_low, occupied_high,
                                            enemy_low, enemy_high)
            risk = -1 if checkers else self._pin_risk(king, them, occupied_low, occupied_high,
                                                      pinned)
            # Cells a piece may not move onto without a test: it may complete
            # a hopper's screen.
            landing_risk = self._screen_risk(king, them, occupied) \
                if self.hop_components[them] and not checkers else 0
        else:
            king_bit = checkers = risk = landing_risk = 0
        # Under the must-break rule, with the royal pieces facing, only the
        # moves that break it are legal: every move is built to be tested.
        facing = self.facing_must_break and self.royals_face()
        if facing:
            counting = False
        # In check, some primitives may be restricted (`in-check`).
        generators = self.loop_check_generators if checkers else self.loop_generators
        # What a plain generator's mode may land on: empty cells (MOVE),
        # enemy ones (CAPTURE), or both; and what a capture (or a suborn)
        # may take.  Separate names, not a tuple indexed by the mode:
        # compiled, that tuple is boxed at every read.  These full masks are
        # made when the first piece that needs them comes (`full`): on a
        # board wider than SHORT_MASK most pieces take the short ones below,
        # and compiled, each operation on a wider mask allocates.
        empty = either = prey = 0
        full = False
        # The same within SHORT_MASK, for the pieces `short_moves` marks
        # (on a board within it, `short_moves` is empty): two operations
        # on wide masks, the rest on words.
        short_occupied = short_enemy = short_empty = short_either = short_prey = 0
        if wide:
            short_occupied, short_enemy = occupied_low, enemy_low
            short_empty = ~short_occupied & SHORT_MASK
            short_either = short_enemy | short_empty
            short_prey = short_enemy | self.ep_target & SHORT_MASK
        short_moves = self.short_moves
        # The same words for the pieces `word_moves` marks, made when the
        # first one comes.
        word_moves = self.word_moves
        words_ready = False
        high_empty = high_either = landing_low = landing_high = 0
        # Methods are called as `self.attackers(...)` and `out.append(...)`,
        # never through a local alias: compiled, an alias is a Python call
        # that boxes its arguments.
        cells = self.cells
        unmoved = self.unmoved
        counted = 0
        promotion_of = self.promotion_of
        first_move = self.first_move_rule and unmoved
        # The own pieces a word at a time, so that taking each one off stays
        # in machine words: `pieces` holds the cells from `base` on (within
        # SHORT_MASK, shifted down by `base`), `later` those beyond them.
        # Only a piece's own bit (`low`) beyond the first word is boxed.
        pieces, later, base = own & SHORT_MASK, own >> SHORT_BITS, 0
        fresh = unmoved & SHORT_MASK   # the unmoved pieces, as far as the walk needs
        while pieces or later:
            while not pieces:   # the next word that holds a piece
                pieces, later = later & SHORT_MASK, later >> SHORT_BITS
                base += SHORT_BITS
                fresh = unmoved
            bit = pieces & -pieces
            pieces ^= bit
            frm = base + bit.bit_length() - 1
            low = bit << base
            code = cells[frm]
            if word_moves and not short_moves[code][frm] and word_moves[code][frm]:
                # Moves that span both words, read a word at a time
                # (`LoopGenerator.words`): nothing below allocates.
                if not words_ready:
                    words_ready = True
                    high_empty = ~occupied_high
                    high_either = enemy_high | high_empty
                    landing_low = landing_risk & SHORT_MASK
                    landing_high = landing_risk >> SHORT_BITS
                is_king = low == king_bit
                tested_low, tested_high = (-1, -1) if low & risk else (landing_low, landing_high)
                # Where a move promotes: all of them leaving the region's start.
                promotion = promotion_of[code]
                if promotion is None:
                    region_low = region_high = 0
                elif low & promotion.start:
                    region_low = region_high = -1
                else:
                    region_low, region_high = self.promotion_low[code], self.promotion_high[code]
                keep_low = keep_high = -1
                if pinned:
                    line = pinned.get(low, -1)
                    if line != -1:
                        keep_low, keep_high = line & SHORT_MASK, line >> SHORT_BITS
                done_low = done_high = 0
                for gen in generators[code]:
                    if gen.spans is not None and not (gen.spans_low[frm] & short_enemy
                                                      or gen.spans_high[frm] & enemy_high):
                        continue
                    word_table = gen.words[frm]
                    assert word_table is not None   # `word_moves` marks only cells that have one
                    # `reach_words`, inlined
                    reached_low, reached_high, word_groups, word_chained = word_table
                    for mask_low, mask_high, shift, word_lines in word_groups:
                        part_low, part_high = word_lines[short_occupied & mask_low
                                                         | (occupied_high & mask_high) << shift]
                        reached_low |= part_low
                        reached_high |= part_high
                    for guard_low, guard_high, mask_low, mask_high, shift, word_lines \
                            in word_chained:
                        if not (short_occupied & guard_low or occupied_high & guard_high):
                            part_low, part_high = word_lines[short_occupied & mask_low
                                                             | (occupied_high & mask_high) << shift]
                            reached_low |= part_low
                            reached_high |= part_high
                    mode = gen.mode
                    if mode == MOVE | CAPTURE:
                        targets_low, targets_high = reached_low & short_either, \
                            reached_high & high_either
                    elif mode == MOVE:
                        targets_low, targets_high = reached_low & short_empty, \
                            reached_high & high_empty
                    else:
                        targets_low, targets_high = reached_low & short_enemy, \
                            reached_high & enemy_high
                    targets_low &= keep_low & ~done_low
                    targets_high &= keep_high & ~done_high
                    # Each word: the moves that need no test counted (or
                    # built), the others tested one by one.
                    word, targets, tested, region, prey_word = 0, targets_low, tested_low, \
                        region_low, short_enemy
                    while True:
                        if not (is_king or targets & tested or targets & region):
                            if word:
                                done_high |= targets
                            else:
                                done_low |= targets
                            if counting:
                                while targets:
                                    targets &= targets - 1
                                    counted += 1
                            while targets:
                                tbit = targets & -targets
                                targets ^= tbit
                                out.append((frm, word + tbit.bit_length() - 1, 0, NORMAL, 0))
                        while targets:
                            tbit = targets & -targets
                            targets ^= tbit
                            to = word + tbit.bit_length() - 1
                            if (is_king or tbit & tested) \
                                    and self._unsafe(frm, to, NORMAL, 0, to, king, is_king,
                                                     occupied_low, occupied_high, enemy_low,
                                                     enemy_high):
                                continue
                            if word:
                                done_high |= tbit
                            else:
                                done_low |= tbit
                            if promotion is not None and tbit & region \
                                    and not (promotion.capture_only and not tbit & prey_word):
                                self._promotions((frm, to, 0, NORMAL, 0), promotion, out)
                            elif counting:
                                counted += 1
                            else:
                                out.append((frm, to, 0, NORMAL, 0))
                        if word:
                            break
                        word, targets, tested, region, prey_word = SHORT_BITS, targets_high, \
                            tested_high, region_high, enemy_high
                continue
            if wide and short_moves[code][frm]:
                occ, takeable, promotion = short_occupied, short_prey, None
                to_empty, to_enemy, to_either = short_empty, short_enemy, short_either
            else:
                if not full:
                    empty, full = ~occupied, True
                    either, prey = enemy | empty, enemy | self.ep_target
                occ, takeable, promotion = occupied, prey, promotion_of[code]
                to_empty, to_enemy, to_either = empty, enemy, either
            is_king = low == king_bit
            # Destinations whose legality needs a test: all of them for a
            # piece that may be pinned, else those that may complete a screen.
            tested = -1 if low & risk else landing_risk
            done = 0  # one move per destination, whichever primitive reaches it
            allowed = self._first_move_targets(frm, is_king, checkers) \
                if first_move and low & fresh else -1
            # En passant keeps to `allowed`: its victim may open another line,
            # so it is always tested.
            line = pinned.get(low, -1) if pinned else -1
            kept = allowed & line
            for gen in generators[code]:
                tables, mode, spans, special = gen.tables, gen.mode, gen.spans, gen.special
                if spans is not None and not spans[frm] & takeable:
                    continue
                if special is None:
                    rays = gen.rays[frm]
                    if rays is not None:
                        reached = rays.reach(occ)
                    else:
                        reached, groups, chained = tables[frm]   # `reach`, inlined
                        for mask, lines in groups:
                            reached |= lines[occ & mask]
                        for guard, mask, lines in chained:
                            if not occ & guard:
                                reached |= lines[occ & mask]
                    targets = reached & (to_either if mode == MOVE | CAPTURE
                                         else to_empty if mode == MOVE
                                         else to_enemy if mode == CAPTURE else 0)
                    # Compiled, each `&` on a mask beyond SHORT_MASK
                    # allocates: the ones that would keep every bit are skipped.
                    if kept != -1:
                        targets &= kept
                    if done:
                        targets &= ~done
                    if not (is_king or targets & tested
                            or (promotion and (targets & promotion.region
                                               or low & promotion.start))):
                        # Moves that need no test: the common case, kept short.
                        done |= targets
                        if counting:
                            # A loop, not int.bit_count(): compiled, the
                            # method call boxes `targets` and costs more.
                            if wide:
                                # The bits beyond SHORT_MASK apart, so that
                                # the loop below stays in machine words.
                                high = targets >> SHORT_BITS
                                targets &= SHORT_MASK
                                while high:
                                    high &= high - 1
                                    counted += 1
                            while targets:
                                targets &= targets - 1
                                counted += 1
                            continue
                        while targets:
                            tbit = targets & -targets
                            targets ^= tbit
                            out.append((frm, tbit.bit_length() - 1, 0, NORMAL, 0))
                        continue
                    en_passant, quiet_check, passed = 0, True, NO_PASSED
                else:
                    _, _, initial, ep, quiet_check, passed, victims, limits = special
                    if initial and not fresh & low:
                        continue
                    if limits is None:
                        rays = gen.rays[frm]
                        reached = reach(tables[frm], occ) if rays is None else rays.reach(occ)
                        capturable = to_enemy
                    else:
                        reached, capturable = self._limited_reach(tables[frm], occupied, enemy,
                                                                  limits, checkers)
                    if mode & CONVERT:
                        self._suborns(frm, reached, victims, quiet_check, checkers, king, out)
                        continue
                    if mode & STAYS:
                        self._remote_captures(frm, reached & capturable, quiet_check, king, out)
                        continue
                    targets = 0
                    if mode & CAPTURE:
                        targets = reached & capturable
                    if mode & MOVE:
                        targets |= reached & to_empty
                    targets &= kept & ~done
                    en_passant = 0
                    if ep == "capture" and mode & CAPTURE:
                        en_passant = reached & allowed & self.ep_target
                        targets |= en_passant
                while targets:
                    tbit = targets & -targets
                    targets ^= tbit
                    to = tbit.bit_length() - 1
                    # The cell whose piece is captured: the target, or the
                    # en passant victim's, which may open a line.
                    if tbit & en_passant:
                        gone_cell = self.ep_victim
                        gone = 1 << gone_cell
                        kind, extra = EN_PASSANT, gone_cell
                    else:
                        gone, gone_cell = tbit, to
                        kind, extra = NORMAL, 0
                        if passed:
                            extra = passed[frm].get(to, 0)
                            kind = DOUBLE if extra else NORMAL
                    if (is_king or ((tbit & tested or gone != tbit) and king >= 0)) \
                            and self._unsafe(frm, to, kind, extra, gone_cell, king, is_king,
                                             occupied_low, occupied_high, enemy_low, enemy_high):
                        continue
                    if promotion is not None and (tbit & promotion.region
                                                  or low & promotion.start) \
                            and not (promotion.capture_only and gone & enemy == 0) \
                            and (promotion.en_passant or kind != EN_PASSANT):
                        first = len(out)
                        self._promotions((frm, to, 0, kind, extra), promotion, out)
                        if not quiet_check:  # the piece promoted to may give check
                            out[first:] = [m for m in out[first:] if not self.gives_check(m)]
                    elif not quiet_check and self.gives_check((frm, to, 0, kind, extra)):
                        continue
                    elif counting:   # tested, and one move: counted, not built
                        counted += 1
                    else:
                        out.append((frm, to, 0, kind, extra))
                    done |= tbit
        if self.standing[us]:
            self._standing_promotions(king, occupied, out)
        if self.drops:
            self._drops(king, checkers, occupied, out)
        if not checkers:
            self._castlings(king, us, them, occupied, enemy, out)
        # A pass, never out of check -- except that under the must-break
        # rule a side may pass while the royal pieces face each other.
        if self.pass_codes[cells[king]] and (not checkers or facing):
            out.append((king, king, 0, PASS, 0))
        if facing:
            out[:] = self._breaking_facing(out)
        return counted

    # -- royal pieces facing each other ---------------------------------------
    def royals_face(self) -> bool:
        """Whether the two royal pieces face each other on an open line of the
        variant's `royal-facing` rule."""
        facing = self.facing
        if facing is None:
            return False
        us = self.stm
        return bool(facing.attackers(1 - us, self.royal[us],
                                     self.side_bb[0] | self.side_bb[1] | self.walls)
                    & 1 << self.royal[1 - us])

    def _breaking_facing(self, moves: list[InternalMove]) -> list[InternalMove]:
        """Under the must-break rule, with the royal pieces facing: the moves
        that break it, and the pass."""
        out = []
        for move in moves:
            if move[3] != PASS:
                self.make_internal(move)
                still = self.royals_face()
                self.unmake_internal()
                if still:
                    continue
            out.append(move)
        return out

    def _limited_reach(self, table: CellReach, occupied: int, enemy: int,
                       limits: Limits, checkers: int) -> tuple[int, int]:
        """What a generator with piece-type limits reaches, and which enemy
        cells it may capture (of the `checkers`, under `checkers_only`)."""
        bb = self.bb
        key = occupied
        if limits.barred:
            screens = 0
            for code in limits.barred:
                screens |= bb[code]
            key |= screens << limits.shift
        for code in limits.immune:
            enemy &= ~bb[code]
        if limits.checkers_only:
            enemy &= checkers if checkers & (checkers - 1) == 0 else 0
        return reach(table, key), enemy

    def _unsafe(self, frm: int, to: int, kind: int, extra: int, gone: int, king: int,
                is_king: bool, occupied_low: int, occupied_high: int, enemy_low: int,
                enemy_high: int) -> bool:
        """Whether the move of the piece on `frm` to `to`, taking the piece
        on `gone` (`to`, or an en passant victim's cell), leaves a royal
        piece attacked: the mover, when `is_king`, else the one on `king`.
        The occupied and the enemy cells come a word at a time, as
        `attackers_words` takes them."""
        if self.typed_screens and not is_king:
            return self._exposes((frm, to, 0, kind, extra))
        # The occupied cells after the move and the enemy's left, in words.
        if frm < SHORT_BITS:
            occupied_low &= ~(1 << frm)
        else:
            occupied_high &= ~(1 << (frm - SHORT_BITS))
        if gone < SHORT_BITS:
            occupied_low &= ~(1 << gone)
            enemy_low &= ~(1 << gone)
        else:
            occupied_high &= ~(1 << (gone - SHORT_BITS))
            enemy_high &= ~(1 << (gone - SHORT_BITS))
        if to < SHORT_BITS:
            occupied_low |= 1 << to
        else:
            occupied_high |= 1 << (to - SHORT_BITS)
        return bool(self.attackers_words(to if is_king else king, 1 - self.stm, occupied_low,
                                         occupied_high, enemy_low, enemy_high))

    def _exposes(self, move: InternalMove) -> bool:
        """Whether `move` leaves the mover's royal piece attacked, tested on
        the position after it."""
        us = self.stm
        self.make_internal(move)
        exposed = bool(self.attackers(self.royal[us], 1 - us,
                                       self.side_bb[0] | self.side_bb[1] | self.walls,
                                       self.side_bb[1 - us]))
        self.unmake_internal()
        return exposed

    def _suborns(self, frm: int, reached: int, victims: tuple[int, ...], may_check: bool,
                 checkers: int, king: int, out: list[InternalMove]) -> None:
        """Suborns of adjacent enemy pieces.  Nothing moves, so the own king
        is only concerned when the converted piece was checking it."""
        targets = 0
        for code in victims:
            targets |= self.bb[code]
        targets &= reached
        while targets:
            tbit = targets & -targets
            targets ^= tbit
            to = tbit.bit_length() - 1
            if checkers and checkers & ~tbit:
                continue
            move = (frm, to, 0, SUBORN, 0)
            if not may_check and self.gives_check(move):
                continue
            out.append(move)

    def _remote_captures(self, frm: int, targets: int, may_check: bool, king: int,
                         out: list[InternalMove]) -> None:
        """Remote captures of the pieces on `targets` (`remote: true`).  The
        capturer stays, so the royal piece on `king` is only concerned by
        the piece taken away: a checking piece gone, or a line or a
        hopper's screen opened.  One move per victim, whichever of the
        piece's primitives reaches it."""
        them = 1 - self.stm
        while targets:
            tbit = targets & -targets
            targets ^= tbit
            move = (frm, tbit.bit_length() - 1, 0, REMOTE, 0)
            if move in out:
                continue
            if king >= 0:
                if self.typed_screens:
                    exposed = self._exposes(move)
                else:
                    occupied = (self.side_bb[0] | self.side_bb[1] | self.walls) & ~tbit
                    exposed = bool(self.attackers(king, them, occupied,
                                                  self.side_bb[them] & ~tbit))
                if exposed:
                    continue
            if not may_check and self.gives_check(move):
                continue
            out.append(move)

    def _first_move_targets(self, frm: int, is_king: bool, checkers: int) -> int:
        """Cells an unmoved piece may reach under the first-move rule: other
        planes only, except (if declared) when evading check: any legal
        same-plane move, or for the king a capture of a checking piece."""
        other_planes = ~self.same_plane[frm]
        if not (checkers and self.first_move_evasion):
            return other_planes
        return other_planes | checkers if is_king else -1

    def _castlings(self, king: int, us: int, them: int, occupied: int, enemy: int,
                   out: list[InternalMove]) -> None:
        """The castlings whose king passes no attacked cell; called only
        when the royal piece on `king` (-1: none) is not in check."""
        blast = self.blast
        enemy_royals = -1   # under explosions: found with the first castling that needs it
        for index, c in self.castlings_by_side[us]:
            if occupied & c.empty or not c.in_place(self.unmoved, self.cells) \
                    or (self.first_move_rule and not self.first_move_castling
                        and self.same_plane[c.king_from] >> c.king_to & 1):
                continue
            if self.passage_with_wall and self.royal_codes[us]:
                out.append((c.king_from, c.king_to, 0, CASTLE, index))
                continue
            if blast and enemy_royals < 0:
                # As for a king's own move under explosions: a royal piece
                # never captures, and one beside an enemy royal piece cannot
                # be taken (the blast would take both), so kings may pass
                # side by side.
                enemy_royals = 0
                for code in self.royal_codes[them]:
                    enemy_royals |= self.bb[code]
                enemy &= ~enemy_royals
            # A cell the king passes may not be attacked: neither as the
            # board stands (FIDE's rule, and Fairy-Stockfish's: a rook about
            # to land between shields nothing) nor with the king standing
            # on it (a falcon's route through the king's own cell counts).
            # The king's cell is the royal piece's, known not in check,
            # unless a piece that is not the royal one castles.  Where the
            # king lands (its own cell too, in a Chess960 castling that
            # moves the rook alone) it must also be safe once the rook has
            # left its cell, which may stand between it and an attacker,
            # and in the position after the move.
            king_gone = occupied & ~(1 << c.king_from)
            without_rook = occupied & ~(1 << c.rook_from)
            after = (king_gone & ~(1 << c.rook_from)) | (1 << c.rook_to)
            for cell in c.safe:
                if blast and blast[cell] & enemy_royals:
                    continue
                if (cell != king and (self.takers(cell, them, occupied, enemy)
                                      or self.takers(cell, them, king_gone, enemy))) \
                        or (cell == c.king_to and (self.takers(cell, them, without_rook, enemy)
                                                   or self.takers(cell, them, after, enemy))):
                    break
            else:
                out.append((c.king_from, c.king_to, 0, CASTLE, index))

    def takers(self, cell: int, side: int, occupied: int, side_mask: int) -> int:
        """The pieces of `side` (among `side_mask`, under `occupied`) that
        could take a royal piece on `cell`, for the cells a castling king
        passes: here, every attacker."""
        return self.attackers(cell, side, occupied, side_mask)

    def _standing_promotions(self, king: int, occupied: int, out: list[InternalMove]) -> None:
        """`promotion: {standing: ...}`: each piece standing in its region
        (the side's last one anywhere, if declared) may become one of the
        choices, in place or one step away on an empty cell; not while the
        choice's `limit` is reached, never leaving its own royal piece
        attacked, and (if so declared) not where the new piece would attack
        an enemy piece, nor giving check (a discovered one included)."""
        enemy = self.side_bb[1 - self.stm]
        for code, rule in self.standing[self.stm].items():
            pieces = self.bb[code]
            if not (rule.last_anywhere and pieces.bit_count() == 1):
                pieces &= rule.region
            choices = [c for c in rule.choices if self._under_limit(c)]
            for frm in self.rules.board.cells_of(pieces if choices else 0):
                for to in [frm, *self.rules.board.cells_of(rule.steps[frm] & ~occupied)]:
                    for promo in choices:
                        move = (frm, to, promo, STAY if to == frm else NORMAL, 0)
                        if (rule.no_attack and (self._attacks_any(
                                promo, to, occupied ^ (1 << frm) | (1 << to), enemy)
                                or self.gives_check(move))) \
                                or (king >= 0 and self._exposes(move)):
                            continue
                        out.append(move)

    def _attacks_any(self, code: int, cell: int, occupied: int, targets: int) -> bool:
        """Whether a piece of `code` on `cell` attacks one of `targets`."""
        for gen in self.generators[code]:
            if gen.mode & CAPTURE and not gen.initial \
                    and reach(gen.tables[cell], occupied) & targets:
                return True
        return False

    def _gatings(self, moves: list[InternalMove]) -> list[InternalMove]:
        """Gating: the moves in `moves` of unmoved pieces from the gating
        region, and its castlings, each again with a piece from the hand
        put on a cell it leaves (a cell of that piece's drop region).  A
        gating move is legal when the move without it is (as Fairy-Stockfish
        has it: the gated piece does not free a pinned piece), unless the
        gated piece would be the screen of an enemy hopper aiming at its
        own royal piece."""
        us = self.stm
        held = [code for code in self.hand_codes[us] if self.hands[code]]
        gates = self.unmoved & self.gate_regions[us] & self.side_bb[us]
        if not held or not gates:
            return []
        regions = self.drop_regions
        found: list[InternalMove] = []
        for move in moves:
            frm, to, promo, kind, extra = move
            if kind == NORMAL and gates >> frm & 1:
                found += [(frm, to, promo, GATE, code) for code in held
                          if regions[code] >> frm & 1]
            elif kind == CASTLE:
                c = self.castlings[extra]
                for cell in (c.king_from, c.rook_from):
                    if gates >> cell & 1 and cell not in (c.king_to, c.rook_to):
                        found += [(frm, to, 0, CASTLE_GATE, castle_gate(extra, cell, code))
                                  for code in held if regions[code] >> cell & 1]
        if self.hop_components[1 - us] and self.royal[us] >= 0:
            found = [m for m in found if not self._exposes(m)]
        return found

    def _drops(self, king: int, checkers: int, occupied: int, out: list[InternalMove]) -> None:
        """The drops of the pieces in hand.  Which empty cells are safe is
        decided once per cell, whatever is dropped: in check a drop must
        block (two checkers: only where one hops over the other), and a drop may complete an enemy
        hopper's screen.  Then each piece in hand takes the safe cells of
        its drop region, less its declared restrictions."""
        us, them = self.stm, 1 - self.stm
        hands = self.hands
        held = [code for code in self.hand_codes[us] if hands[code]]
        if not held:
            return
        empty = self.all_cells & ~occupied
        if king >= 0 and not self.typed_screens:
            if checkers:
                # Only a cell on a line to the royal piece may block; one
                # cell blocks two checkers only where one hops over the
                # other (a cannon behind a rook, both checking).
                risky = empty & self._lines_to(king, them, self.slider_components[them]) \
                    if checkers & (checkers - 1) == 0 or self.hop_components[them] else 0
                empty = 0
            else:
                risky = self._screen_risk(king, them, occupied) & empty \
                    if self.hop_components[them] else 0
                empty &= ~risky
            enemy = self.side_bb[them]
            while risky:
                tbit = risky & -risky
                risky ^= tbit
                if not self.attackers(king, them, occupied | tbit, enemy):
                    empty |= tbit
        append = out.append
        # Where a screen's type matters, each drop is tried on the position after it.
        typed = king >= 0 and self.typed_screens
        if self.drop_below:
            empty &= self._fall_ends(occupied)
        if self.drop_entries:
            empty &= self._entry_ends(occupied)
        for code in held:
            targets = empty & self.drop_regions[code]
            rule = self.drop_rules[code]
            if rule is not None:
                targets = self._drop_restricted(code, rule, targets)
            if self.balanced[us]:
                targets = self._balanced(code, targets, self.all_cells & ~occupied)
            if self.royal_code[code]:
                # A royal piece (placement's king in hand) is never dropped
                # where it would stand attacked.
                targets = self._unattacked(targets, them, occupied)
            while targets:
                tbit = targets & -targets
                targets ^= tbit
                to = tbit.bit_length() - 1
                if typed and self._exposes((to, to, code, DROP, 0)):
                    continue
                append((to, to, code, DROP, 0))
                for form in self.drop_forms[code]:   # dropped as another type
                    append((to, to, code, DROP, form))

    def _unattacked(self, cells: int, side: int, occupied: int) -> int:
        """`cells` less those `side` attacks."""
        enemy = self.side_bb[side]
        found = cells
        while cells:
            tbit = cells & -cells
            cells ^= tbit
            if self.attackers(tbit.bit_length() - 1, side, occupied | tbit, enemy):
                found ^= tbit
        return found

    def _fall_ends(self, occupied: int) -> int:
        """Under `drops-fall`: the empty cells where a dropped piece comes
        to rest, those whose next cell in the fall is occupied or off the
        board."""
        below = self.drop_below
        free = self.all_cells & ~occupied
        ends = 0
        while free:
            bit = free & -free
            free ^= bit
            under = below[bit.bit_length() - 1]
            if not under or under & occupied:
                ends |= bit
        return ends

    def _entry_ends(self, occupied: int) -> int:
        """Under `drops-enter`: the cells where a dropped piece comes to rest,
        entering each line at its empty edge cell and travelling on, to the
        last empty cell before a piece, or (`through`) to the line's last
        empty cell, over pieces."""
        ends = 0
        for line, through in self.drop_entries:
            if line[0] & occupied:
                continue
            rest = line[0]
            for bit in line:
                if not bit & occupied:
                    rest = bit
                elif not through:
                    break
            ends |= rest
        return ends

    def _balanced(self, code: int, targets: int, empty: int) -> int:
        """`targets` less the drops that break a `colours: balanced` rule:
        one of those pieces may not make more than half of its side's (on
        the board and in hand, rounded up) stand on one colour, and any
        other drop must leave, on each colour, enough free cells of their
        drop region for those still needed there (half, rounded down)."""
        colours = (self.colour_cells, self.all_cells & ~self.colour_cells)
        for kept in self.balanced[code & 1]:
            placed = self.bb[kept]
            total = placed.bit_count() + self.hands[kept]
            for colour in colours:
                if kept == code:
                    if (placed & colour).bit_count() + 1 > (total + 1) // 2:
                        targets &= ~colour
                    continue
                free = self.drop_regions[kept] & empty & colour
                room = (placed & colour).bit_count() + free.bit_count()
                if room <= total // 2:
                    targets &= ~free if room == total // 2 else 0
        return targets

    def _drop_restricted(self, code: int, rule: DropRule, targets: int) -> int:
        """`targets` less the cells a drop restriction forbids: lines that
        hold enough of the piece already, and cells where the drop would
        check (or mate) when that is forbidden."""
        bb = self.bb[code]
        for line in rule.lines:
            if (bb & line).bit_count() >= rule.per_line:
                targets &= ~line
        if rule.check or rule.mate:
            candidates = targets & self._check_cells(code)
            while candidates:
                tbit = candidates & -candidates
                candidates ^= tbit
                to = tbit.bit_length() - 1
                move = (to, to, code, DROP, 0)
                self.make_internal(move)
                them = self.stm
                if self.side_in_check(them) and (rule.check or not self.legal_internal()):
                    targets &= ~tbit
                self.unmake_internal()
        return targets

    def _check_cells(self, code: int) -> int:
        """Cells where a piece of `code` dropped may give check: those from
        which it attacks the enemy royal piece, and the lines of its own
        side's hoppers (the drop may be their screen)."""
        us = code & 1
        target = self.royal[1 - us]
        if target < 0:
            return -1
        occupied = self.side_bb[0] | self.side_bb[1] | self.walls
        cells = 0
        for entry in self.attack_components[us]:
            if code in entry.codes:
                cells |= entry.component.attackers(us, target, occupied)
        if self.hop_components[us]:
            cells |= self._lines_to(target, us, self.hop_components[us])
        return cells

    def _promotions(self, move: InternalMove, promotion: Promotion,
                    out: list[InternalMove]) -> None:
        """A move into its promotion region as its promotions: one per
        choice still under its limit, and the plain move where promoting
        is optional there."""
        frm, to, _, kind, extra = move
        for promo in promotion.choices:
            if self._under_limit(promo):
                out.append((frm, to, promo, kind, extra))
        if promotion.optional >> to & 1:
            out.append(move)

    def _under_limit(self, code: int) -> bool:
        """Whether a piece may still become `code`: fewer than its promotion
        `limit` of it (with the pieces counted as it) are on the board."""
        limit = self.promotion_limit[code]
        return not limit or sum(self.bb[c].bit_count() for c in self.limit_counted[code]) < limit

    def gives_check(self, move: InternalMove) -> bool:
        """Whether `move` leaves the opponent's royal piece attacked."""
        self.make_internal(move)
        checked = self.side_in_check(self.stm)
        self.unmake_internal()
        return checked

    # -- captures alone, for the engine's quiescence ----------------------------
    def captures_unchecked(self) -> list[InternalMove]:
        """The captures, suborns and promotions of the side to move, made as
        the generator makes them but without the royal piece's safety: the
        engine's quiescence tests that on each move it plays
        (`royal_attacked`).  Right where a move's legality is only its one
        royal piece's safety and out of check (no explosions, must-drop,
        first-move rule, must-break facing or aiming pieces); gating moves
        are left out."""
        game = self
        us = game.stm
        own, enemy = game.side_bb[us], game.side_bb[1 - us]
        occupied = own | enemy | game.walls
        cells, bb, unmoved = game.cells, game.bb, game.unmoved
        promotion_of = self.promotion_of
        out: list[InternalMove] = []
        # What a capture or a promotion may land on, a word at a time: a
        # piece whose span (`spans_low`, `spans_high`) meets none of it is
        # passed over with no operation on a wide mask (compiled, each
        # allocates).
        prey = enemy | game.ep_target
        prey_low, prey_high = prey & SHORT_MASK, prey >> SHORT_BITS
        empty_low, empty_high = ~occupied & SHORT_MASK, ~occupied >> SHORT_BITS
        spans_low, spans_high = self.spans_low, self.spans_high
        # The own pieces a word at a time, as `_generate` walks them.
        pieces, later, base = own & SHORT_MASK, own >> SHORT_BITS, 0
        while pieces or later:
            while not pieces:
                pieces, later = later & SHORT_MASK, later >> SHORT_BITS
                base += SHORT_BITS
            bit = pieces & -pieces
            pieces ^= bit
            frm = base + bit.bit_length() - 1
            code = cells[frm]
            promotion = promotion_of[code]
            landing_low, landing_high = prey_low, prey_high
            if promotion is not None and not promotion.capture_only:
                if (promotion.start >> frm) & 1:
                    landing_low, landing_high = landing_low | empty_low, landing_high | empty_high
                else:
                    landing_low |= empty_low & self.promotion_low[code]
                    landing_high |= empty_high & self.promotion_high[code]
            if not (spans_low[code][frm] & landing_low or spans_high[code][frm] & landing_high):
                continue
            low = bit << base
            # Cells a move without capture may go to: those where it promotes.
            promoting = 0 if promotion is None or promotion.capture_only else \
                ~occupied & (-1 if low & promotion.start else promotion.region)
            done = 0  # one move per destination, whichever generator reaches it
            for tables, mode, initial, ep, may_check, passed, victims, limits \
                    in self.generators[code]:
                if (initial and not unmoved & low) \
                        or not (mode & (CAPTURE | CONVERT) or (promoting and mode & MOVE)):
                    continue
                if limits is None:
                    reached, capturable = reach(tables[frm], occupied), enemy
                else:  # out of check: no checker to capture under `checkers_only`
                    reached, capturable = self._limited_reach(tables[frm], occupied, enemy,
                                                              limits, 0)
                first, before = len(out), done
                if mode & (CONVERT | STAYS):   # the piece stays: a suborn or a remote capture
                    taken = capturable
                    if mode & CONVERT:
                        taken = 0
                        for victim in victims:
                            taken |= bb[victim]
                    targets = reached & taken
                    stay_kind = SUBORN if mode & CONVERT else REMOTE
                    while targets:
                        tbit = targets & -targets
                        targets ^= tbit
                        out.append((frm, tbit.bit_length() - 1, 0, stay_kind, 0))
                else:
                    targets = ((reached & capturable if mode & CAPTURE else 0)
                               | (reached & promoting if mode & MOVE else 0)) & ~done
                    en_passant = reached & game.ep_target \
                        if ep == "capture" and mode & CAPTURE else 0
                    done |= targets
                    targets |= en_passant
                    while targets:
                        tbit = targets & -targets
                        targets ^= tbit
                        to = tbit.bit_length() - 1
                        if tbit & en_passant:
                            kind, extra = EN_PASSANT, game.ep_victim
                        else:
                            extra = passed[frm].get(to, 0) if passed else 0
                            kind = DOUBLE if extra else NORMAL
                        if promotion and (tbit & promotion.region or low & promotion.start) \
                                and not (promotion.capture_only and not tbit & enemy
                                         and kind != EN_PASSANT) \
                                and (promotion.en_passant or kind != EN_PASSANT):
                            self._promotions((frm, to, 0, kind, extra), promotion, out)
                        else:
                            out.append((frm, to, 0, kind, extra))
                if not may_check:  # this generator's moves may not give check
                    out[first:] = [move for move in out[first:] if not self.gives_check(move)]
                    done = before
                    for move in out[first:]:
                        done |= 1 << move[1]
        return out

    def royal_can_step(self) -> bool:
        """Whether the side to move's royal piece can move to a cell where
        it is safe (so a side in check is not mated), as far as its
        unrestricted moves tell; right where `captures_unchecked` is and no
        move is restricted in check."""
        game = self
        us = game.stm
        royal = game.royal[us]
        if royal < 0:
            return False
        low, code = 1 << royal, game.cells[royal]
        if code in game.promotions[us]:  # its moves are promotions
            return False
        own, enemy = game.side_bb[us], game.side_bb[1 - us]
        occupied = own | enemy | game.walls
        for tables, mode, initial, _, may_check, passed, _, limits \
                in game.generators[code]:
            if (initial and not game.unmoved & low) or not may_check \
                    or limits is not None or mode & (CONVERT | STAYS):
                continue
            reached = reach(tables[royal], occupied)
            targets = (reached & enemy if mode & CAPTURE else 0) \
                | (reached & ~occupied if mode & MOVE else 0)
            while targets:
                tbit = targets & -targets
                targets ^= tbit
                to = tbit.bit_length() - 1
                extra = passed[royal].get(to, 0) if passed else 0
                game.make_internal((royal, to, 0, DOUBLE if extra else NORMAL, extra))
                safe = not self.royal_attacked(us)
                game.unmake_internal()
                if safe:
                    return True
        return False

    # -- make / unmake ------------------------------------------------------
    def make_internal(self, move: InternalMove) -> None:
        frm, to, promo, kind, extra = move
        gated = kind >= GATE
        if gated:
            if kind >= WALLED:
                self._make_walled(move)
                return
            if kind == REMOTE:
                self._make_remote(move)
                return
            kind, extra, gate_cell, gate_code = gate_parts(move)
        cells, bb, side_bb, zobrist = self.cells, self.bb, self.side_bb, self.zobrist
        us = self.stm
        code = cells[frm]
        self.history.append((move, code, cells[extra] if kind == EN_PASSANT else cells[to],
                            self.unmoved, self.ep_target, self.ep_victim,
                            self.halfmove, self.hash, self.royal[us]))
        self.ep_target, self.ep_victim = 0, -1
        fbit, tbit = 1 << frm, 1 << to
        if kind == CASTLE:
            c = self.castlings[extra]
            self._lift(c.king_from)
            self._lift(c.rook_from)
            self.place(c.king_to, c.king_code)
            self.place(c.rook_to, c.rook_code)
            self.unmoved &= ~(fbit | (1 << c.rook_from) | c.cancels)
            self.halfmove += 1
        elif kind == SUBORN:
            victim = cells[to]
            self._lift(to)
            self.place(to, victim ^ 1)
            self.unmoved &= ~tbit  # a changed piece, as a position string would read it
            self.halfmove += 1
        elif kind == PASS:
            # Fairy-Stockfish's pass is a move of the piece it is written
            # from: a pawn's pass resets the clock.
            self.halfmove = 0 if self.resets_clock[code] else self.halfmove + 1
        elif kind == STAY:
            self._lift(frm)
            self.place(frm, promo)
            self.unmoved &= ~fbit
            self.halfmove = 0 if self.resets_clock[code] else self.halfmove + 1
        elif kind == DROP:
            if self.has_hands:   # else a free drop (`flips: {free-drops: ...}`)
                self.add_to_hand(promo, -1)
            self.place(to, extra or promo)   # `extra`: the type it is dropped as
            if self.drops_unmoved:
                self.unmoved |= tbit
            if self.drops_grant_castling:
                self._grant_castling(to, us)
            self.halfmove = 0
        else:
            captured_cell = extra if kind == EN_PASSANT else to
            captured = cells[captured_cell]
            if captured:
                self._lift(captured_cell)
                if self.has_hands and self.to_hand[captured] >= 0:
                    self.add_to_hand(self.to_hand[captured])
            cells[frm] = 0
            bb[code] = bb[code] ^ fbit
            side_bb[us] = side_bb[us] ^ (fbit | tbit)
            new_code = promo or code
            cells[to] = new_code
            bb[new_code] = bb[new_code] | tbit
            self.toggle_word(code, frm)
            self.toggle_word(new_code, to)
            self.hash ^= zobrist[code][frm] ^ zobrist[new_code][to]
            if self.royal_code[code]:
                self.royal[us] = to
            self.unmoved &= ~(fbit | tbit)
            # A promotion that cannot be undone resets it too, as
            # Fairy-Stockfish counts.
            if captured or (promo and not self.reversible_promotion[code]):
                self.halfmove = 0
            elif self.resets_clock[code]:
                kept = self.clock_kept[code]
                self.halfmove = self.halfmove + 1 if kept and kept[frm] >> to & 1 else 0
            else:
                self.halfmove += 1
            if kind == DOUBLE:
                self.ep_target, self.ep_victim = extra, to
        if gated:
            self.add_to_hand(gate_code, -1)
            self.place(gate_cell, gate_code)
        if us:
            self.fullmove += 1
        self.stm = 1 - us

    def _make_remote(self, move: InternalMove) -> None:
        """Make a remote capture: the piece on the move's `to` is taken, the
        capturer stays (and keeps its first-move rights, as a suborning
        piece does: it has not left its cell)."""
        frm, to = move[0], move[1]
        us = self.stm
        captured = self.cells[to]
        self.history.append((move, self.cells[frm], captured, self.unmoved, self.ep_target,
                             self.ep_victim, self.halfmove, self.hash, self.royal[us]))
        self.ep_target, self.ep_victim = 0, -1
        self._lift(to)
        if self.has_hands and self.to_hand[captured] >= 0:
            self.add_to_hand(self.to_hand[captured])
        self.unmoved &= ~(1 << to)
        self.halfmove = 0
        if us:
            self.fullmove += 1
        self.stm = 1 - us

    def _make_walled(self, move: InternalMove) -> None:
        """Make a walled move: its plain move (with every rule of the
        position's class), then its wall; under `duck` the walls before it
        go away (the duck moves).  The stack holds the walled move."""
        plain, cell = wall_parts(move)
        self.make_internal(plain)
        _, code, captured, unmoved, ep_target, ep_victim, halfmove, hash_, royal = \
            self.history[-1]
        self.history[-1] = (move, code, captured, unmoved, ep_target, ep_victim, halfmove,
                            hash_, royal)
        self.walls_before.append(self.walls)
        walling = self.walling
        if walling is not None and walling.kind == "duck":
            for old in self.rules.board.cells_of(self.walls):
                self.place_wall(old)
        self.place_wall(cell)

    def _unmake_walled(self, record: UndoRecord) -> None:
        """Take back a walled move (its record just taken off the stack):
        its walls as they were, then its plain move (with every rule of
        the position's class)."""
        move, code, captured, unmoved, ep_target, ep_victim, halfmove, hash_, royal = record
        walls = self.walls_before.pop()
        for cell in self.rules.board.cells_of(self.walls ^ walls):
            self.place_wall(cell)
        self.history.append((wall_parts(move)[0], code, captured, unmoved, ep_target, ep_victim,
                             halfmove, hash_, royal))
        self.unmake_internal()

    def walled_moves(self, moves: list[InternalMove]) -> list[InternalMove]:
        """`walls:`: each of `moves` with each cell its wall may go to (the
        empty cells of the walls' region after the move, as the rule's kind
        picks them); a move with no such cell is not played."""
        walling = self.walling
        if walling is None or walling.kind == "none":
            return moves
        kind, region = walling.kind, walling.region & self.all_cells
        occupied = self.side_bb[0] | self.side_bb[1] | self.walls
        if walling.or_move:
            # A move or a wall: a wall alone keeps the board as it is, so
            # (judged before the wall) it may not be played in check.
            if walling.with_wall or not self.is_check():
                return moves + self._walls_alone(region, occupied)
            return moves
        # A step or double step frees its from-cell and fills its landing
        # cell, whatever a capture there blows up besides (as Fairy-Stockfish
        # has it), and en passant frees its victim's cell too; other moves
        # (castling, drops) are made to see.
        plain_kinds = (NORMAL, DOUBLE)
        out: list[InternalMove] = []
        append = out.append
        for move in moves:
            frm, to, promo, move_kind, extra = move
            if move_kind in plain_kinds or move_kind == EN_PASSANT:
                after = occupied & ~(1 << frm) | 1 << to
                if move_kind == EN_PASSANT:
                    after &= ~(1 << extra)
                code = promo or self.cells[frm]
            else:
                self.make_internal(move)
                after = self.side_bb[0] | self.side_bb[1] | self.walls
                code = self.cells[to]
                self.unmake_internal()
            empty = region & ~after
            if kind == "past":
                targets = empty & 1 << frm
            elif kind == "arrow":
                targets = empty & self.moves_from(code, to, after)
            elif kind == "edge":
                targets = empty & self._edge_cells()
            else:   # duck, anywhere
                targets = empty
            # The walled moves, built here rather than by `walled` (the
            # widest nodes have hundreds of them).
            packed, walled_kind = extra << WALL_BITS, WALLED + move_kind
            while targets:
                tbit = targets & -targets
                targets ^= tbit
                append((frm, to, promo, walled_kind, packed | (tbit.bit_length() - 1)))
        return out

    def _edge_cells(self) -> int:
        """`walls: {kind: edge}`: the cells on the board's edge or beside a
        wall (walls stand all game, so the plain move leaves them as they are)."""
        walling = self.walling
        assert walling is not None
        cells, walls, beside = walling.rim, self.walls, walling.beside
        while walls:
            low = walls & -walls
            walls ^= low
            cells |= beside[low.bit_length() - 1]
        return cells

    def _walls_alone(self, region: int, occupied: int) -> list[InternalMove]:
        """`walls: {or-move: true}`: the turns that put a wall and move
        nothing, each written as Fairy-Stockfish writes it: a pass of the
        side's piece on the lowest cell (`a1a1,a1a3`), with the wall."""
        walling = self.walling
        own = self.side_bb[self.stm]
        if walling is None or not own:
            return []
        cell = (own & -own).bit_length() - 1
        targets = region & ~occupied
        if walling.kind == "edge":
            targets &= self._edge_cells()
        out: list[InternalMove] = []
        while targets:
            tbit = targets & -targets
            targets ^= tbit
            out.append((cell, cell, 0, WALLED + PASS, tbit.bit_length() - 1))
        return out

    def moves_from(self, code: int, cell: int, occupied: int) -> int:
        """The empty cells a piece of `code` on `cell` may move to (not by
        its initial moves) under `occupied`: where it shoots an arrow."""
        reached = 0
        for gen in self.generators[code]:
            if gen.mode & MOVE and not gen.initial:
                reached |= reach(gen.tables[cell], occupied)
        return reached & ~occupied

    def _lift(self, cell: int) -> None:
        code = self.cells[cell]
        bit = 1 << cell
        self.cells[cell] = 0
        self.bb[code] = self.bb[code] ^ bit
        self.toggle_word(code, cell)
        self.side_bb[code & 1] = self.side_bb[code & 1] ^ bit
        self.hash ^= self.zobrist[code][cell]

    def unmake_internal(self) -> None:
        record = self.history.pop()
        if len(self.repetition_keys) > len(self.history) + 1:
            del self.repetition_keys[len(self.history) + 1:]
        move, code, captured, unmoved, ep_target, ep_victim, halfmove, hash_, royal = record
        frm, to, _, kind, extra = move
        if kind >= WALLED:
            self._unmake_walled(record)
            return
        self.stm = us = 1 - self.stm
        if us:
            self.fullmove -= 1
        if kind >= GATE:
            if kind == REMOTE:   # only the piece taken comes back
                self.place(to, captured)
                if self.has_hands and self.to_hand[captured] >= 0:
                    held = self.to_hand[captured]
                    self.hands[held] = self.hands[held] - 1
                kind = PASS   # nothing else to undo
            else:
                kind, extra, gate_cell, gate_code = gate_parts(move)
                self._lift(gate_cell)
                self.hands[gate_code] = self.hands[gate_code] + 1
        if kind == CASTLE:
            c = self.castlings[extra]
            self._lift(c.king_to)
            self._lift(c.rook_to)
            self.place(c.king_from, c.king_code)
            self.place(c.rook_from, c.rook_code)
        elif kind == SUBORN:
            self._lift(to)
            self.place(to, captured)
        elif kind == PASS:
            pass
        elif kind == STAY:
            self._lift(to)
            self.place(to, code)
        elif kind == DROP:
            self._lift(to)
            if self.has_hands:
                self.hands[move[2]] = self.hands[move[2]] + 1
        else:
            cells, bb, side_bb = self.cells, self.bb, self.side_bb
            new_code = cells[to]
            fbit, tbit = 1 << frm, 1 << to
            cells[to] = 0
            bb[new_code] = bb[new_code] ^ tbit
            cells[frm] = code
            bb[code] = bb[code] | fbit
            side_bb[us] = side_bb[us] ^ (fbit | tbit)
            self.toggle_word(new_code, to)
            self.toggle_word(code, frm)
            if captured:
                self.place(extra if kind == EN_PASSANT else to, captured)
                if self.has_hands and self.to_hand[captured] >= 0:
                    held = self.to_hand[captured]
                    self.hands[held] = self.hands[held] - 1
        self.unmoved, self.ep_target, self.ep_victim = unmoved, ep_target, ep_victim
        self.halfmove, self.hash = halfmove, hash_
        self.royal[us] = royal

    # -- move conversion ----------------------------------------------------
    def _grant_castling(self, cell: int, us: int) -> None:
        """A king or rook just dropped on `cell`: each castling of `us` that
        starts from that cell, its partner standing on its own start cell,
        gets its right (both pieces count as not moved, whatever the
        partner did before)."""
        cells = self.cells
        for _, c in self.castlings_by_side[us]:
            if cell in (c.king_from, c.rook_from) and cells[c.king_from] == c.king_code \
                    and cells[c.rook_from] == c.rook_code:
                self.unmoved |= c.need

    def public_move(self, move: InternalMove, mover: int | None = None) -> Move:
        """The `Move` of an internal move; `mover`, the code of the piece
        that moved, for a move already played (else the piece on its cell)."""
        names = self.rules.board.names
        frm, to, promo, kind, extra = move
        if kind >= WALLED:
            plain, cell = wall_parts(move)
            return replace(self.public_move(plain, mover), wall=names[cell])
        if kind == DROP:
            return Move(names[to], names[to],
                        drop=self.rules.letter_of_code(extra or promo).upper())
        if mover is None:
            mover = self.cells[frm]
        gate = None
        if kind == REMOTE:   # written as an igui: out to the victim's cell and back
            return Move(names[frm], names[frm], via=names[to])
        if kind >= GATE:
            kind, extra, gate_cell, gate_code = gate_parts(move)
            gate = self.rules.letter_of_code(gate_code).upper()
            if kind == CASTLE and gate_cell != frm:
                # On the rook's cell: written from the rook's cell to the
                # king's, as Fairy-Stockfish writes it.
                return Move(names[gate_cell], names[frm], gate=gate)
        letter = self.rules.promotion_suffix(promo, mover) if promo else None
        if kind == CASTLE and (self.chess960 or self.castlings[extra].onto_rook):
            to = self.castlings[extra].rook_from  # written as the king taking its rook
        return Move(names[frm], names[to], letter, kind == SUBORN, gate=gate)
