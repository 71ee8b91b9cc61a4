"""The position and rules engine: the fourth stage.

A `Game` holds one position of a compiled `Variant` (cell contents as piece
codes plus one bit mask per piece code and per side), generates legal moves
from the compiled tables, makes and unmakes moves on a stack, and reports
check and the outcome.  The hot path works on integers only.

Internal moves are tuples `(from, to, promotion_code, kind, extra)`; the
public `Move` value carries cell names for people.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Final, NamedTuple, overload

from variantkit.errors import QUOTE_LENGTH, IllegalMoveError
from variantkit.pieces import CAPTURE, CONVERT, MOVE, CellReach, piece_code, reach

if TYPE_CHECKING:
    from variantkit.variant import AttackEntry, Counting, DropRule, Limits, Variant

# Move kinds; `extra` is the passed-cells mask, the victim's cell, the
# castling index, or unused.  A pass is written from and to the cell of the
# royal piece that may pass.  A drop (a piece from the hand placed on an
# empty cell) has from and to the target cell and the dropped piece's code
# in the promotion slot.
# (Final: the compiled build folds them into the code rather than look them
# up by name.)
NORMAL: Final = 0
DOUBLE: Final = 1
EN_PASSANT: Final = 2
CASTLE: Final = 3
SUBORN: Final = 4
PASS: Final = 5
DROP: Final = 6
# A promotion in place (`promotion: {standing: ...}`): from and to are the
# piece's cell, the promotion slot the new piece's code.
STAY: Final = 7
# Gating moves (the last kinds: `kind >= GATE` tells them): a move, or a
# castling, that puts a piece from the hand on a cell it leaves; `extra` is
# the gated piece's code (GATE), or the castling index, the gated cell and
# code packed by `castle_gate` (CASTLE_GATE).
GATE: Final = 8
CASTLE_GATE: Final = 9
InternalMove = tuple[int, int, int, int, int]
NO_PASSED: Final[dict[tuple[int, int], int]] = {}   # a plain generator passes no cells
# Attacker tests (king moves, castling cells) a node needs before one map of
# the enemy's attacks costs less than they do.
MAP_TESTS: Final = 3
SIDES = ("white", "black")


@dataclass(frozen=True, slots=True)
class Move:
    """A move as people write it: `e2e4`, `e7e8q`, `f1~g2` (suborn), `P@e4`
    (a drop: `drop` is the uppercase letter of the piece from the hand, and
    from and to are the cell it lands on), `b1c3h` (gating: `gate` is the
    letter of the piece from the hand put on the cell the move leaves)."""

    from_cell: str
    to_cell: str
    promotion: str | None = None
    suborn: bool = False
    drop: str | None = None
    gate: str | None = None

    def __str__(self) -> str:
        if self.drop:
            return f"{self.drop}@{self.to_cell}"
        sep = "~" if self.suborn else ""
        gate = self.gate.lower() if self.gate else ""
        return f"{self.from_cell}{sep}{self.to_cell}{self.promotion or ''}{gate}"


class Outcome(NamedTuple):
    """How a game ended: the winner ('white', 'black' or None for a draw)
    and the reason ('checkmate', 'stalemate', 'repetition', 'move-rule',
    'insufficient-material', 'double-pass', 'facing-pass', 'shuttle',
    'counting' (a count of `end: counting` has run out), 'drop-mate' (a
    mate by a drop under `mate: loses`), or a declared condition's
    'check-count', 'extinction', 'region', 'bare-king')."""

    winner: str | None
    reason: str

    def __str__(self) -> str:
        """`black wins by checkmate`, `draw by repetition`."""
        who = f"{self.winner} wins" if self.winner else "draw"
        return f"{who} by {self.reason.replace('-', ' ')}"


class LegalMoves:
    """A live view of a game's legal moves (see `Game.legal_moves`)."""

    __slots__ = ("_game",)

    def __init__(self, game: Game) -> None:
        self._game = game

    def __call__(self) -> list[Move]:
        """The legal moves as a list (the call form of earlier versions)."""
        game = self._game
        return [game.public_move(m) for m in game.legal_internal()]

    def __iter__(self) -> Iterator[Move]:
        return iter(self())

    def __len__(self) -> int:
        return len(self._game.legal_internal())

    def count(self) -> int:
        """How many legal moves there are."""
        return len(self)

    def __bool__(self) -> bool:
        return bool(self._game.legal_internal())

    def __contains__(self, move: object) -> bool:
        """Whether a `Move` or a move string is legal here."""
        if isinstance(move, Move) and move.promotion:
            move = replace(move, promotion=move.promotion.lower())
        if not isinstance(move, Move | str):
            return False
        return str(move) in {str(m) for m in self()}

    def __repr__(self) -> str:
        """`<LegalMoves (Na3, Nc3, ...)>`: the moves in SAN, as python-chess shows them."""
        from variantkit.san import legal_san
        return f"<LegalMoves ({', '.join(legal_san(self._game))})>"


class Game:
    """A position of a variant with its move history."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        n_codes = variant.n_codes
        self.cells: list[int] = [0] * variant.board.size
        self.bb: list[int] = [0] * n_codes
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
        # The castling moves of this game: the variant's, or under free
        # castling those of the start position (set by the position reader).
        self.castlings = variant.castlings
        self.castlings_by_side = variant.castlings_by_side
        # One undo record per move played, oldest first; its first item is
        # the internal move (read by the engine, outcome rules and drawing).
        self.history: list[tuple[Any, ...]] = []
        # Repetition keys of the positions before each move on the stack,
        # filled by the outcome rules as they need them; an entry stays valid
        # while the moves before it stay on the stack.
        self.repetition_keys: list[int] = []

    # -- public API ----------------------------------------------------------
    @property
    def turn(self) -> str:
        """The side to move: 'white' or 'black'."""
        return SIDES[self.stm]

    @property
    def legal_moves(self) -> LegalMoves:
        """The legal moves in this position, as python-chess's
        `board.legal_moves`: iterate it, `len()` or `count()` it, test
        `move in game.legal_moves`; calling it (`game.legal_moves()`) gives a list."""
        return LegalMoves(self)

    # The public entry points take `object` in their implementations (the
    # overloads give the types): the compiled build checks an annotated
    # argument's type itself, and would raise a bare TypeError where the
    # project promises IllegalMoveError.
    @overload
    def push(self, move: Move) -> Move: ...
    @overload
    def push(self, move: str) -> Move: ...

    def push(self, move: object) -> Move:
        """Play a legal move, given as a `Move` or a move string."""
        internal = self._find(move)
        public = self.public_move(internal)
        self.make_internal(internal)
        return public

    @overload
    def san(self, move: Move) -> str: ...
    @overload
    def san(self, move: str) -> str: ...

    def san(self, move: object) -> str:
        """A legal move in standard algebraic notation (`Nf3`, `exd5`, `O-O`,
        `e8=Q+`, `D~g2`); see `variantkit.san`."""
        from variantkit.san import san
        return san(self, move)

    def parse_san(self, text: object) -> Move:
        """The legal move that SAN or a move string (a `str`) names; raises
        `IllegalMoveError`, for a value that is not a string too."""
        from variantkit.san import parse_san
        return parse_san(self, text)

    def push_san(self, text: object) -> Move:
        """Play a move given in SAN (or as a move string, a `str`); returns the `Move`."""
        move = self.parse_san(text)
        self.push(move)
        return move

    def pop(self) -> Move:
        """Take back the last move and return it."""
        if not self.history:
            raise IndexError("pop from a game with no moves played")
        internal = self.history[-1][0]
        self.unmake_internal()
        return self.public_move(internal)

    @property
    def plies(self) -> int:
        """How many moves have been played (and can be taken back)."""
        return len(self.history)

    @property
    def move_stack(self) -> list[Move]:
        """The moves played, oldest first."""
        return [self._public_at(i) for i in range(len(self.history))]

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
        return self.variant.board.names[self.royal[self.stm]] if self.is_check() else None

    def side_in_check(self, side: int) -> bool:
        """Whether `side`'s royal piece is attacked (never while it is still
        in hand, as in placement chess)."""
        royal = self.royal[side]
        return royal >= 0 and bool(self.attackers(
            royal, 1 - side, self.side_bb[0] | self.side_bb[1] | self.walls,
            self.side_bb[1 - side]))

    def non_royal(self, side: int) -> int:
        """How many non-royal pieces `side` has."""
        royal = self.variant.royal_code
        return sum(self.bb[code].bit_count() for code in range(2 + side, len(self.bb), 2)
                   if not royal[code])

    def is_checkmate(self) -> bool:
        """Whether the side to move is in check and has no legal move."""
        return self.is_check() and not self.legal_internal()

    def is_stalemate(self) -> bool:
        """Whether the side to move is not in check and has no legal move
        (what that means for the result is the variant's `end.stalemate`)."""
        return not self.is_check() and not self.legal_internal()

    def is_game_over(self) -> bool:
        """Whether the game has ended: `outcome()` is not None."""
        return self.outcome() is not None

    def piece_at(self, cell: str) -> str | None:
        """The FEN letter on a cell (uppercase White), or None."""
        index = self.variant.board.index.get(cell)
        if index is None:
            raise ValueError(f"unknown cell '{cell}'")
        code = self.cells[index]
        return self.variant.letter_of_code(code) if code else None

    def fen(self) -> str:
        """The position string."""
        from variantkit.notation import write_fen
        return write_fen(self)

    def svg(self, **options: Any) -> str:
        """The position drawn as an SVG document (options: see `variantkit.render`)."""
        from variantkit.render import render
        return render(self, **options)

    def outcome(self) -> Outcome | None:
        """None while the game goes on, else the winner and the reason."""
        from variantkit.outcome import outcome
        return outcome(self)

    def copy(self) -> Game:
        """An independent game in the same position, history included."""
        other = type(self)(self.variant)
        for name in ("cells", "bb", "side_bb", "royal", "hands"):
            setattr(other, name, list(getattr(self, name)))
        for name in ("stm", "unmoved", "ep_target", "ep_victim", "halfmove", "walls",
                     "fullmove", "hash", "castlings", "castlings_by_side"):
            setattr(other, name, getattr(self, name))
        other.history = list(self.history)
        other.repetition_keys = list(self.repetition_keys)
        return other

    def state_key(self) -> int:
        """Hash of the position's state beyond placement, rights and en
        passant (counted checks), for repetition: 0 here."""
        return 0

    def __repr__(self) -> str:
        return f"<Game {self.variant.name} {self.fen()!r}>"

    def __str__(self) -> str:
        """The board as text, as `variantkit show` draws it (without the status lines)."""
        from variantkit.display import board_renderable
        return board_renderable(self, status=False).plain.rstrip("\n")

    def _repr_svg_(self) -> str:
        """The board in a notebook (Jupyter calls this)."""
        return self.svg()

    def _repr_html_(self) -> str:
        """The board in a notebook, with the side to move, check or the
        result, and the position string under it."""
        from html import escape

        from variantkit.display import status_line
        return (f'<div class="variantkit">{self.svg()}<pre>'
                f"{escape(status_line(self))}</pre></div>")

    # -- internal API for the notation stage and the faces -------------------




    # -- placing pieces (used by the position-string reader) -----------------
    def place(self, cell: int, code: int) -> None:
        bit = 1 << cell
        self.cells[cell] = code
        self.bb[code] |= bit
        self.side_bb[code & 1] |= bit
        self.hash ^= self.variant.zobrist[code][cell]
        if self.variant.royal_code[code]:
            self.royal[code & 1] = cell

    def add_to_hand(self, code: int, count: int = 1) -> None:
        """Put `count` pieces of `code` into the hand of side `code & 1`."""
        keys = self.variant.hand_keys[code]
        held = self.hands[code]
        self.hash ^= keys[held] ^ keys[held + count]
        self.hands[code] = held + count

    def hand(self, side: str) -> dict[str, int]:
        """The letters and counts of the pieces in a side's hand ('white' or
        'black'): uppercase letters for White, lowercase for Black."""
        if side not in SIDES:
            raise ValueError(f"a side is 'white' or 'black', not {side!r}")
        v = self.variant
        return {v.letter_of_code(code): self.hands[code] for code in v.hand_codes[SIDES.index(side)]
                if self.hands[code]}

    def place_wall(self, cell: int) -> None:
        """Put a wall on an empty cell (or take it away again)."""
        self.walls ^= 1 << cell
        self.hash ^= self.variant.wall_keys[cell]

    # -- move generation ----------------------------------------------------
    def attackers(self, target: int, side: int, occupied: int, side_mask: int) -> int:
        """Cells of `side`'s pieces (within `side_mask`) attacking `target`."""
        bb = self.bb
        found = 0
        for component, codes, initial, barred in self.variant.attack_components[side]:
            pieces = 0
            for code in codes:
                pieces |= bb[code]
            pieces &= component.attack_sources[side][target] \
                & (side_mask & self.unmoved if initial else side_mask)
            if not pieces:
                continue
            if barred:
                screens = 0
                for code in barred:
                    screens |= bb[code]
                found |= component.attackers(side, target, occupied, screens & occupied) & pieces
            else:
                found |= component.attackers(side, target, occupied) & pieces
        return found

    def _pin_risk(self, king: int, them: int, occupied: int, pinned: dict[int, int]) -> int:
        """Cells whose vacating might expose `king` in a way only a test of
        the position tells: those between it and an enemy hopper, or a piece
        whose attack on it may run along several paths.  On a line with one
        path, an own piece that is its only blocker is pinned: `pinned` gets
        its bit, mapped to the cells it may still move to (the line and the
        attacker's cell; several pins intersect)."""
        bb = self.bb
        enemy = self.side_bb[them]
        own = self.side_bb[1 - them]
        risk = 0
        for component, codes, initial, _ in self.variant.slider_components[them]:
            sources = component.xray_sources[them][king]
            if not sources:
                continue
            pieces = 0
            for code in codes:
                pieces |= bb[code]
            # The same attackers as `attackers` counts, so that no pin is false.
            sources &= pieces & (enemy & self.unmoved if initial else enemy)
            between = component.xray_between[them][king]
            single = component.xray_single[them][king]
            while sources:
                low = sources & -sources
                sources ^= low
                line = between[low]
                if not low & single:
                    risk |= line
                    continue
                blockers = line & occupied
                if blockers & own and not blockers & (blockers - 1):
                    pinned[blockers] = pinned.get(blockers, -1) & (line | low)
        return risk & occupied

    def _screen_risk(self, king: int, them: int, occupied: int) -> int:
        """Cells where a piece would become the screen of an enemy hopper
        aiming at `king`: the empty ones, and where a screen's type matters
        also the occupied ones (a capture there changes the screen's type)."""
        lines = self._lines_to(king, them, self.variant.hop_components[them])
        return lines if self.variant.typed_screens else lines & ~occupied

    def _attack_map(self, them: int, occupied: int) -> int:
        """Cells `them` attacks under `occupied` with the other side's royal
        piece and castling pieces lifted (so a superset of what it attacks
        after any king move or castling), from the pieces' own tables
        (variants whose `attack_tables` exist only)."""
        tables = self.variant.attack_tables[them]
        assert tables is not None
        us = 1 - them
        lifted = 1 << self.royal[us] if self.royal[us] >= 0 else 0
        for _, c in self.castlings_by_side[us]:
            lifted |= 1 << c.king_from | 1 << c.rook_from
        occupied &= ~lifted
        cells = self.cells
        unmoved = self.unmoved
        found = 0
        pieces = self.side_bb[them]
        while pieces:
            low = pieces & -pieces
            pieces ^= low
            frm = low.bit_length() - 1
            for per_cell, initial in tables[cells[frm]]:
                if not initial or unmoved & low:
                    found |= reach(per_cell[frm], occupied)
        return found

    def _lines_to(self, king: int, them: int, entries: list[AttackEntry]) -> int:
        """The cells between `king` and the enemy pieces of these components
        that reach it on an empty board."""
        bb = self.bb
        risk = 0
        for component, codes, _, _ in entries:
            sources = component.xray_sources[them][king]
            if not sources:
                continue
            pieces = 0
            for code in codes:
                pieces |= bb[code]
            sources &= pieces & self.side_bb[them]
            between = component.xray_between[them][king]
            while sources:
                low = sources & -sources
                risk |= between[low]
                sources ^= low
        return risk

    def legal_internal(self) -> list[InternalMove]:
        v = self.variant
        moves = self._generate(self.royal[self.stm])
        if v.gate_regions[self.stm]:
            moves += self._gatings(moves)
        return self._drops_first(moves) if v.must_drop else moves

    def _drops_first(self, moves: list[InternalMove]) -> list[InternalMove]:
        """`must-drop`: while a drop is legal, only drops are."""
        drops = [m for m in moves if m[3] == DROP]
        return drops or moves

    def _generate(self, king: int) -> list[InternalMove]:
        """The moves that leave the royal piece on `king` safe; with `king`
        -1, every move the pieces can make (nothing guarded)."""
        v = self.variant
        us, them = self.stm, 1 - self.stm
        own, enemy = self.side_bb[us], self.side_bb[them]
        occupied = own | enemy | self.walls
        # Pinned pieces: the cells each may move to (see `_pin_risk`).
        pinned: dict[int, int] = {}
        if king >= 0:
            king_bit = 1 << king
            checkers = self.attackers(king, them, occupied, enemy)
            risk = -1 if checkers else self._pin_risk(king, them, occupied, pinned)
            # Cells a piece may not move onto without a test: it may complete
            # a hopper's screen.
            landing_risk = self._screen_risk(king, them, occupied) \
                if v.hop_components[them] and not checkers else 0
        else:
            king_bit = checkers = risk = landing_risk = 0
        # The cells the enemy attacks (`_attack_map`), computed once king
        # moves or castlings need MAP_TESTS attacker tests or more; -1 (every
        # cell) until then.  A cell outside it is safe; one inside is tested.
        map_tables = v.attack_tables[them]
        attacked = -1
        # In check, some primitives may be restricted (`in-check`).
        generators = v.loop_check_generators if checkers else v.loop_generators
        # What a plain generator's mode may land on: empty cells (MOVE),
        # enemy ones (CAPTURE), or both.
        landings = (0, ~occupied, enemy, enemy | ~occupied)
        prey = enemy | self.ep_target   # what a capture (or a suborn) may take
        typed_screens = v.typed_screens
        attackers = self.attackers
        cells = self.cells
        unmoved = self.unmoved
        out: list[InternalMove] = []
        append = out.append
        promotions = v.promotions[us]
        limit = v.promotion_limit
        bb = self.bb
        first_move = v.first_move_rule and unmoved
        pieces = own
        while pieces:
            low = pieces & -pieces
            pieces ^= low
            frm = low.bit_length() - 1
            code = cells[frm]
            is_king = low == king_bit
            # Destinations whose legality needs a test: all of them for a
            # piece that may be pinned, else those that may complete a screen.
            tested = -1 if low & risk else landing_risk
            done = 0  # one move per destination, whichever primitive reaches it
            allowed = self._first_move_targets(frm, is_king, checkers) \
                if first_move and low & unmoved else -1
            # En passant keeps to `allowed`: its victim may open another line,
            # so it is always tested.
            line = pinned.get(low, -1) if pinned else -1
            promotion = promotions.get(code)
            for tables, mode, spans, special in generators[code]:
                if spans is not None and not spans[frm] & prey:
                    continue
                if special is None:
                    reached, groups, chained = tables[frm]   # `reach`, inlined
                    for mask, lines in groups:
                        reached |= lines[occupied & mask]
                    for guard, mask, lines in chained:
                        if not occupied & guard:
                            reached |= lines[occupied & mask]
                    targets = reached & landings[mode] & allowed & line & ~done
                    if not (is_king or targets & tested
                            or (promotion and (targets & promotion.region
                                               or low & promotion.start))):
                        # Moves that need no test: the common case, kept short.
                        done |= targets
                        while targets:
                            tbit = targets & -targets
                            targets ^= tbit
                            append((frm, tbit.bit_length() - 1, 0, NORMAL, 0))
                        continue
                    en_passant, quiet_check, passed = 0, True, NO_PASSED
                else:
                    _, _, initial, ep, quiet_check, passed, victims, limits = special
                    if initial and not unmoved & low:
                        continue
                    if limits is None:
                        reached = reach(tables[frm], occupied)
                        capturable = enemy
                    else:
                        reached, capturable = self._limited_reach(tables[frm], occupied, enemy,
                                                                  limits, checkers)
                    if mode & CONVERT:
                        self._suborns(frm, reached, victims, quiet_check, checkers, king, out)
                        continue
                    targets = 0
                    if mode & CAPTURE:
                        targets = reached & capturable
                    if mode & MOVE:
                        targets |= reached & ~occupied
                    targets &= allowed & line & ~done
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
                        gone = 1 << self.ep_victim
                        kind, extra = EN_PASSANT, self.ep_victim
                    else:
                        gone = tbit
                        kind, extra = NORMAL, 0
                        if passed:
                            extra = passed.get((frm, to), 0)
                            kind = DOUBLE if extra else NORMAL
                    if is_king:
                        if attacked < 0 and map_tables is not None \
                                and targets.bit_count() + 1 >= MAP_TESTS:
                            attacked = self._attack_map(them, occupied)
                        if (tbit & attacked or gone != tbit) and attackers(
                                to, them, ((occupied ^ low) & ~gone) | tbit, enemy & ~gone):
                            continue
                    elif (tbit & tested or gone != tbit) and king >= 0 and (
                            self._exposes((frm, to, 0, kind, extra)) if typed_screens
                            else attackers(king, them, ((occupied ^ low) & ~gone) | tbit,
                                           enemy & ~gone)):
                        continue
                    if not quiet_check and self._gives_check((frm, to, 0, kind, extra)):
                        continue
                    done |= tbit
                    if promotion and (tbit & promotion.region or low & promotion.start) \
                            and not (promotion.capture_only and gone & enemy == 0):
                        for promo in promotion.choices:
                            if not limit[promo] or bb[promo].bit_count() < limit[promo]:
                                append((frm, to, promo, kind, extra))
                        if tbit & promotion.optional:
                            append((frm, to, 0, kind, extra))
                    else:
                        append((frm, to, 0, kind, extra))
        if v.standing[us]:
            self._standing_promotions(king, occupied, out)
        if v.drops:
            self._drops(king, checkers, occupied, out)
        if not checkers:
            self._castlings(us, them, occupied, enemy, out, attacked)
        # A pass, never out of check -- except that under the must-break
        # rule a side may pass while the royal pieces face each other.
        if v.pass_codes[cells[king]] and (not checkers or (v.facing_must_break
                                                           and self.royals_face())):
            append((king, king, 0, PASS, 0))
        if v.facing_must_break and self.royals_face():
            out = self._breaking_facing(out)
        return out

    # -- royal pieces facing each other ---------------------------------------
    def royals_face(self) -> bool:
        """Whether the two royal pieces face each other on an open line of the
        variant's `royal-facing` rule."""
        facing = self.variant.facing
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
            if not may_check and self._gives_check(move):
                continue
            out.append(move)

    def _first_move_targets(self, frm: int, is_king: bool, checkers: int) -> int:
        """Cells an unmoved piece may reach under the first-move rule: other
        planes only, except (if declared) when evading check: any legal
        same-plane move, or for the king a capture of a checking piece."""
        v = self.variant
        other_planes = ~v.same_plane[frm]
        if not (checkers and v.first_move_evasion):
            return other_planes
        return other_planes | checkers if is_king else -1

    def _castlings(self, us: int, them: int, occupied: int, enemy: int,
                   out: list[InternalMove], attacked: int = -1) -> None:
        """The castlings whose king passes no attacked cell.  A cell outside
        `attacked` (`_attack_map`; -1 for none yet, computed here when the
        castlings need MAP_TESTS attacker tests or more) needs no test."""
        v = self.variant
        possible = [(index, c) for index, c in self.castlings_by_side[us]
                    if not occupied & c.empty and c.in_place(self)
                    and not (v.first_move_rule and not v.first_move_castling
                             and v.same_plane[c.king_from] >> c.king_to & 1)]
        if not possible:
            return
        if attacked < 0 and v.attack_tables[them] is not None \
                and sum(len(c.safe) for _, c in possible) >= MAP_TESTS:
            attacked = self._attack_map(them, occupied)
        for index, c in possible:
            after = (occupied & ~((1 << c.king_from) | (1 << c.rook_from))) | (1 << c.rook_to)
            if any(attacked >> cell & 1 and self.attackers(cell, them, after, enemy)
                   for cell in c.safe):
                continue
            out.append((c.king_from, c.king_to, 0, CASTLE, index))

    def _standing_promotions(self, king: int, occupied: int, out: list[InternalMove]) -> None:
        """`promotion: {standing: ...}`: each piece standing in its region
        (the side's last one anywhere, if declared) may become one of the
        choices, in place or one step away on an empty cell; not while the
        choice's `limit` is reached, never leaving its own royal piece
        attacked, and (if so declared) not where the new piece would attack
        an enemy piece, nor giving check (a discovered one included)."""
        v = self.variant
        limit = v.promotion_limit
        enemy = self.side_bb[1 - self.stm]
        for code, rule in v.standing[self.stm].items():
            pieces = self.bb[code]
            if not (rule.last_anywhere and pieces.bit_count() == 1):
                pieces &= rule.region
            choices = [c for c in rule.choices
                       if not limit[c] or self.bb[c].bit_count() < limit[c]]
            for frm in v.board.cells_of(pieces if choices else 0):
                for to in [frm, *v.board.cells_of(rule.steps[frm] & ~occupied)]:
                    for promo in choices:
                        move = (frm, to, promo, STAY if to == frm else NORMAL, 0)
                        if (rule.no_attack and (self._attacks_any(
                                promo, to, occupied ^ (1 << frm) | (1 << to), enemy)
                                or self._gives_check(move))) \
                                or (king >= 0 and self._exposes(move)):
                            continue
                        out.append(move)

    def _attacks_any(self, code: int, cell: int, occupied: int, targets: int) -> bool:
        """Whether a piece of `code` on `cell` attacks one of `targets`."""
        for gen in self.variant.generators[code]:
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
        v = self.variant
        us = self.stm
        held = [code for code in v.hand_codes[us] if self.hands[code]]
        gates = self.unmoved & v.gate_regions[us] & self.side_bb[us]
        if not held or not gates:
            return []
        regions = v.drop_regions
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
        if v.hop_components[1 - us] and self.royal[us] >= 0:
            found = [m for m in found if not self._exposes(m)]
        return found

    def _drops(self, king: int, checkers: int, occupied: int, out: list[InternalMove]) -> None:
        """The drops of the pieces in hand.  Which empty cells are safe is
        decided once per cell, whatever is dropped: in check a drop must
        block (two checkers: no drop), and a drop may complete an enemy
        hopper's screen.  Then each piece in hand takes the safe cells of
        its drop region, less its declared restrictions."""
        v = self.variant
        us, them = self.stm, 1 - self.stm
        hands = self.hands
        held = [code for code in v.hand_codes[us] if hands[code]]
        if not held:
            return
        empty = v.all_cells & ~occupied
        if king >= 0 and not v.typed_screens:
            if checkers:
                # Only a cell on a line to the royal piece may block.
                risky = empty & self._lines_to(king, them, v.slider_components[them]) \
                    if checkers & (checkers - 1) == 0 else 0
                empty = 0
            else:
                risky = self._screen_risk(king, them, occupied) & empty \
                    if v.hop_components[them] else 0
                empty &= ~risky
            enemy = self.side_bb[them]
            while risky:
                tbit = risky & -risky
                risky ^= tbit
                if not self.attackers(king, them, occupied | tbit, enemy):
                    empty |= tbit
        append = out.append
        # Where a screen's type matters, each drop is tried on the position after it.
        typed = king >= 0 and v.typed_screens
        for code in held:
            targets = empty & v.drop_regions[code]
            rule = v.drop_rules[code]
            if rule is not None:
                targets = self._drop_restricted(code, rule, targets)
            if v.balanced[us]:
                targets = self._balanced(code, targets, v.all_cells & ~occupied)
            while targets:
                tbit = targets & -targets
                targets ^= tbit
                to = tbit.bit_length() - 1
                if typed and self._exposes((to, to, code, DROP, 0)):
                    continue
                append((to, to, code, DROP, 0))
                for form in v.drop_forms[code]:   # dropped as another type
                    append((to, to, code, DROP, form))

    def _balanced(self, code: int, targets: int, empty: int) -> int:
        """`targets` less the drops that break a `colours: balanced` rule:
        one of those pieces may not make more than half of its side's (on
        the board and in hand, rounded up) stand on one colour, and any
        other drop must leave, on each colour, enough free cells of their
        drop region for those still needed there (half, rounded down)."""
        v = self.variant
        colours = (v.colour_cells, v.all_cells & ~v.colour_cells)
        for kept in v.balanced[code & 1]:
            placed = self.bb[kept]
            total = placed.bit_count() + self.hands[kept]
            for colour in colours:
                if kept == code:
                    if (placed & colour).bit_count() + 1 > (total + 1) // 2:
                        targets &= ~colour
                    continue
                free = v.drop_regions[kept] & empty & colour
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
        v = self.variant
        us = code & 1
        target = self.royal[1 - us]
        if target < 0:
            return -1
        occupied = self.side_bb[0] | self.side_bb[1] | self.walls
        cells = 0
        for component, codes, _, _ in v.attack_components[us]:
            if code in codes:
                cells |= component.attackers(us, target, occupied)
        if v.hop_components[us]:
            cells |= self._lines_to(target, 1 - us, v.hop_components[us])
        return cells

    def _gives_check(self, move: InternalMove) -> bool:
        """Whether `move` leaves the opponent's royal piece attacked."""
        self.make_internal(move)
        checked = self.side_in_check(self.stm)
        self.unmake_internal()
        return checked

    # -- make / unmake ------------------------------------------------------
    def make_internal(self, move: InternalMove) -> None:
        frm, to, promo, kind, extra = move
        gated = kind >= GATE
        if gated:
            kind, extra, gate_cell, gate_code = gate_parts(move)
        v = self.variant
        cells, bb, side_bb, zobrist = self.cells, self.bb, self.side_bb, v.zobrist
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
            self.unmoved &= ~(fbit | (1 << c.rook_from))
            self.halfmove += 1
        elif kind == SUBORN:
            victim = cells[to]
            self._lift(to)
            self.place(to, victim ^ 1)
            self.unmoved &= ~tbit  # a changed piece, as a position string would read it
            self.halfmove += 1
        elif kind == PASS:
            self.halfmove += 1
        elif kind == STAY:
            self._lift(frm)
            self.place(frm, promo)
            self.unmoved &= ~fbit
            self.halfmove = 0 if v.resets_clock[code] else self.halfmove + 1
        elif kind == DROP:
            self.add_to_hand(promo, -1)
            self.place(to, extra or promo)   # `extra`: the type it is dropped as
            if v.drops_unmoved:
                self.unmoved |= tbit
            self.halfmove = 0
        else:
            captured_cell = extra if kind == EN_PASSANT else to
            captured = cells[captured_cell]
            if captured:
                self._lift(captured_cell)
                if v.has_hands and v.to_hand[captured] >= 0:
                    self.add_to_hand(v.to_hand[captured])
            cells[frm] = 0
            bb[code] ^= fbit
            side_bb[us] ^= fbit | tbit
            new_code = promo or code
            cells[to] = new_code
            bb[new_code] |= tbit
            self.hash ^= zobrist[code][frm] ^ zobrist[new_code][to]
            if v.royal_code[code]:
                self.royal[us] = to
            self.unmoved &= ~(fbit | tbit)
            # A promotion that cannot be undone resets it too, as
            # Fairy-Stockfish counts.
            if captured or (promo and not v.reversible_promotion[code]):
                self.halfmove = 0
            elif v.resets_clock[code]:
                kept = v.clock_kept[code]
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

    def _lift(self, cell: int) -> None:
        code = self.cells[cell]
        bit = 1 << cell
        self.cells[cell] = 0
        self.bb[code] ^= bit
        self.side_bb[code & 1] ^= bit
        self.hash ^= self.variant.zobrist[code][cell]

    def unmake_internal(self) -> None:
        (move, code, captured, unmoved, ep_target, ep_victim, halfmove, hash_,
         royal) = self.history.pop()
        if len(self.repetition_keys) > len(self.history) + 1:
            del self.repetition_keys[len(self.history) + 1:]
        frm, to, _, kind, extra = move
        self.stm = us = 1 - self.stm
        if us:
            self.fullmove -= 1
        if kind >= GATE:
            kind, extra, gate_cell, gate_code = gate_parts(move)
            self._lift(gate_cell)
            self.hands[gate_code] += 1
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
            self.hands[move[2]] += 1
        else:
            cells, bb, side_bb = self.cells, self.bb, self.side_bb
            new_code = cells[to]
            fbit, tbit = 1 << frm, 1 << to
            cells[to] = 0
            bb[new_code] ^= tbit
            cells[frm] = code
            bb[code] |= fbit
            side_bb[us] ^= fbit | tbit
            if captured:
                self.place(extra if kind == EN_PASSANT else to, captured)
                if self.variant.has_hands and self.variant.to_hand[captured] >= 0:
                    self.hands[self.variant.to_hand[captured]] -= 1
        self.unmoved, self.ep_target, self.ep_victim = unmoved, ep_target, ep_victim
        self.halfmove, self.hash = halfmove, hash_
        self.royal[us] = royal

    # -- move conversion ----------------------------------------------------
    def public_move(self, move: InternalMove, mover: int | None = None) -> Move:
        """The `Move` of an internal move; `mover`, the code of the piece
        that moved, for a move already played (else the piece on its cell)."""
        names = self.variant.board.names
        frm, to, promo, kind, extra = move
        if kind == DROP:
            return Move(names[to], names[to],
                        drop=self.variant.letter_of_code(extra or promo).upper())
        if mover is None:
            mover = self.cells[frm]
        gate = None
        if kind >= GATE:
            kind, extra, gate_cell, gate_code = gate_parts(move)
            gate = self.variant.letter_of_code(gate_code).upper()
            if kind == CASTLE and gate_cell != frm:
                # On the rook's cell: written from the rook's cell to the
                # king's, as Fairy-Stockfish writes it.
                return Move(names[gate_cell], names[frm], gate=gate)
        letter = self.variant.promotion_suffix(promo, mover) if promo else None
        if kind == CASTLE and self.variant.free_castling:
            to = self.castlings[extra].rook_from  # written as the king taking its rook
        return Move(names[frm], names[to], letter, kind == SUBORN, gate=gate)

    def _public_at(self, index: int) -> Move:
        return self.public_move(self.history[index][0], self.history[index][1])

    def _find(self, move: object) -> InternalMove:
        if not (isinstance(move, str) or _well_formed(move)):
            raise IllegalMoveError(
                f"a move is a Move(from_cell, to_cell, promotion=None or one letter, "
                f"suborn=False, drop=None or a letter, gate=None or a letter) or a move "
                f"string, "
                f"not {repr(move)[:QUOTE_LENGTH]}")
        text = str(move)
        if isinstance(move, Move) and move.promotion:  # `Q` and `q` name one piece
            text = str(replace(move, promotion=move.promotion.lower()))
        letter, at, cell = text.partition("@")
        if at:  # a drop names its piece in upper case for both sides; `p@e5` is read too
            text = f"{letter.upper()}@{cell}"
        legal = self.legal_internal()
        for m in legal:
            if str(self.public_move(m)) == text:
                return m
        from variantkit.notation import explain_bad_move
        raise IllegalMoveError(explain_bad_move(self, text, legal))


def castle_gate(index: int, cell: int, code: int) -> int:
    """The `extra` of a castling with gating: castling `index`, the gated
    piece's `code` put on `cell`."""
    return code << 40 | cell << 20 | index


def gate_parts(move: InternalMove) -> tuple[int, int, int, int]:
    """A gating move's plain kind and extra, the gated cell and piece code."""
    frm, _, _, kind, extra = move
    if kind == GATE:
        return NORMAL, 0, frm, extra
    return CASTLE, extra & 0xFFFFF, extra >> 20 & 0xFFFFF, extra >> 40


def _well_formed(move: object) -> bool:
    """Whether `move` is a `Move` whose fields have the documented types (a
    dataclass does not check them)."""
    return isinstance(move, Move) and isinstance(move.from_cell, str) \
        and isinstance(move.to_cell, str) and isinstance(move.suborn, bool) \
        and (move.promotion is None
             or (isinstance(move.promotion, str) and len(move.promotion) == 1)) \
        and (move.drop is None or isinstance(move.drop, str)) \
        and (move.gate is None or isinstance(move.gate, str))


class GeneralGame(Game):
    """A game whose variant goes beyond one royal piece per side and plain
    captures: no or several royal pieces, forced capture, explosions,
    counted checks, counted endings, initial moves lost to an aiming piece.
    Chess-like variants use `Game`, so these rules cost them nothing.

    Legal moves are the pieces' moves (the generator with no royal piece to
    guard), each tried by make/unmake against the royal rule; then, under
    forced capture, only the captures if there is one.  Under explosions a
    capture removes the capturing piece and every piece around the target
    except the immune ones; a move may not blow up a royal piece of its own
    side, and a move that blows up every enemy royal piece is legal whatever
    else it leaves attacked.
    """

    def __init__(self, variant: Variant) -> None:
        super().__init__(variant)
        limit = variant.end.check_limit or 0
        self.checks_left = [limit, limit]   # checks each side still has to give
        # The count of `end: counting`, in plies: its limit (0: no count
        # running) and the plies counted so far.
        self.counting_limit = 0
        self.counting_ply = 0
        # Per move on the stack: the pieces an explosion or a petrification
        # removed (cell, code), the check counts and the count before the
        # move, and the cell of the wall the move made (-1 for none).
        self._extra: list[tuple[tuple[tuple[int, int], ...], tuple[int, int],
                                tuple[int, int], int]] = []

    # -- royal pieces ---------------------------------------------------------
    def royals(self, side: int) -> int:
        """Cells of `side`'s royal pieces."""
        bits = 0
        for code in self.variant.royal_codes[side]:
            bits |= self.bb[code]
        return bits

    def _threatened(self, side: int, shown: bool = False) -> list[int]:
        """Cells of `side`'s royal pieces that the enemy attacks.  Under
        explosions a royal piece never captures, and a royal piece beside an
        enemy royal piece cannot be taken (the blast would take both); a
        royal piece that petrifies never captures either, though it is
        `shown` as giving check (as Fairy-Stockfish shows it)."""
        v = self.variant
        royals = self.royals(side)
        attackers = self.side_bb[1 - side]
        occupied = self.side_bb[0] | self.side_bb[1] | self.walls
        enemy_royals = 0
        if v.blast:
            enemy_royals = self.royals(1 - side)
            attackers &= ~enemy_royals
        for code in () if shown else v.petrify_royal:   # it would turn to stone
            attackers &= ~self.bb[code]
        found = []
        while royals:
            low = royals & -royals
            royals ^= low
            cell = low.bit_length() - 1
            if v.blast and v.blast[cell] & enemy_royals:
                continue
            if self.attackers(cell, 1 - side, occupied, attackers):
                found.append(cell)
        return found

    def side_in_check(self, side: int, shown: bool = False) -> bool:
        """Whether `side` is in check: any of its royal pieces attacked, or
        under `royals: {check: all}` every one of them, or under `check:
        last` its only one."""
        threatened = self._threatened(side, shown)
        if not threatened:
            return False
        if self.variant.check_all:
            return len(threatened) == self.royals(side).bit_count()
        if self.variant.check_last:
            return self.royals(side).bit_count() == 1
        return True

    def is_check(self) -> bool:
        """Whether the side to move is in check (see `royals` in docs/reference/rules.md)."""
        return self.side_in_check(self.stm, shown=True)

    def checkers(self) -> int:
        """Cells of the enemy pieces attacking a royal piece of the side to move
        while it is in check."""
        if not self.is_check():
            return 0
        us = self.stm
        occupied = self.side_bb[0] | self.side_bb[1]
        found = 0
        for cell in self._threatened(us):
            found |= self.attackers(cell, 1 - us, occupied, self.side_bb[1 - us])
        return found

    def checked_cell(self) -> str | None:
        """The cell of an attacked royal piece of the side to move when it is in check."""
        if not self.is_check():
            return None
        return self.variant.board.names[self._threatened(self.stm, shown=True)[0]]

    def state_key(self) -> int:
        keys = self.variant.check_keys
        return keys[0][self.checks_left[0]] ^ keys[1][self.checks_left[1]] if keys else 0

    def copy(self) -> Game:
        other = super().copy()
        assert isinstance(other, GeneralGame)
        other.checks_left = list(self.checks_left)
        other.counting_limit, other.counting_ply = self.counting_limit, self.counting_ply
        other._extra = list(self._extra)
        return other

    # -- legality -------------------------------------------------------------
    def legal_internal(self) -> list[InternalMove]:
        """No moves once a declared end condition holds (as Fairy-Stockfish
        lists them), else the moves the rules allow."""
        if self.variant.end.conditions:
            from variantkit.outcome import ended_by_condition
            if ended_by_condition(self):
                return []
        return self.allowed_moves()

    def allowed_moves(self) -> list[InternalMove]:
        """The moves the pieces and the royal, capture and explosion rules allow."""
        v = self.variant
        us = self.stm
        if v.one_royal and not v.blast:
            moves = self._generate(self.royal[us])
        else:
            moves = self._generate(-1)
            if v.royal_codes[us]:
                moves = self._keep_safe(moves)
        if v.gate_regions[us]:
            moves += self._gatings(moves)
        if v.must_drop:
            moves = self._drops_first(moves)
        if v.must_capture:
            captures = [m for m in moves if self._captures(m)]
            if captures:
                return captures
        return moves

    def _keep_safe(self, moves: list[InternalMove]) -> list[InternalMove]:
        us = self.stm
        blast = self.variant.blast
        own = self.royals(us).bit_count()
        enemy = self.royals(1 - us).bit_count()
        # Under `check: last` with one royal piece, that piece must end the
        # move safe, even if the move makes a second one (by promotion).
        last = self.royals(us).bit_length() - 1 if self.variant.check_last and own == 1 else -1
        safe = []
        for move in moves:
            self.make_internal(move)
            if self.royals(us).bit_count() < own:   # blown up or petrified
                ok = False
            elif blast and enemy and not self.royals(1 - us):
                ok = True
            elif last >= 0:
                ok = (move[1] if move[0] == last else last) not in self._threatened(us)
            else:
                ok = not self.side_in_check(us)
            self.unmake_internal()
            if ok:
                safe.append(move)
        return safe

    def _captures(self, move: InternalMove) -> bool:
        frm, to, _, kind, _ = move
        if kind == EN_PASSANT:
            return True
        target = self.cells[to]
        return kind in (NORMAL, DOUBLE, GATE) and bool(target) \
            and target & 1 != self.cells[frm] & 1

    def _gives_check(self, move: InternalMove) -> bool:
        self.make_internal(move)
        checked = self.side_in_check(self.stm)
        self.unmake_internal()
        return checked

    # -- make / unmake ----------------------------------------------------------
    def make_internal(self, move: InternalMove) -> None:
        v = self.variant
        before = (self.checks_left[0], self.checks_left[1])
        counted = (self.counting_limit, self.counting_ply)
        counting = v.end.counting
        captured = self.cells[move[4] if move[3] == EN_PASSANT else move[1]] \
            if counting is not None and self._captures(move) else 0
        capturing = bool(v.blast or v.petrify) and self._captures(move)
        exploding = capturing and bool(v.blast)
        # The piece that moved petrifies, not what it promoted to.
        petrifying = capturing and self.cells[move[0]] in v.petrify
        super().make_internal(move)
        removed: tuple[tuple[int, int], ...] = ()
        walled = -1
        if exploding:
            to = move[1]
            cells = self.cells
            around = v.blast[to]
            for code in v.blast_immune:
                around &= ~self.bb[code]
            around &= self.side_bb[0] | self.side_bb[1]
            capturer = () if cells[to] in v.blast_proof else ((to, cells[to]),)
            removed = capturer + tuple((c, cells[c]) for c in v.board.cells_of(around))
            gone = 0
            for cell, _ in removed:
                self._lift(cell)
                gone |= 1 << cell
            self.unmoved &= ~gone
        elif petrifying:
            walled = move[1]
            removed = ((walled, self.cells[walled]),)
            self._lift(walled)
            self.place_wall(walled)
        if v.aims and move[3] in (NORMAL, DOUBLE, EN_PASSANT, GATE) \
                and v.aimed_by[self.cells[move[1]]]:
            self._aim(move[1])
        if v.end.check_limit and self.side_in_check(self.stm):
            self.checks_left[1 - self.stm] = max(self.checks_left[1 - self.stm] - 1, 0)
        if counting is not None:
            self._count(counting, captured, bool(move[2]) and move[3] != DROP)
        self._extra.append((removed, before, counted, walled))

    def unmake_internal(self) -> None:
        removed, before, counted, walled = self._extra.pop()
        if walled >= 0:
            self.place_wall(walled)
        for cell, code in reversed(removed):
            self.place(cell, code)
        self.checks_left[0], self.checks_left[1] = before
        self.counting_limit, self.counting_ply = counted
        super().unmake_internal()

    def _aim(self, cell: int) -> None:
        """The piece that has just moved to `cell` takes the initial moves
        of the enemy pieces it now aims at (`initial-until-aimed-by`)."""
        code = self.cells[cell]
        aimed = self.variant.empty_board_reach(code, cell, initial=False)
        for victim in self.variant.aimed_by[code]:
            self.unmoved &= ~(self.bb[victim] & aimed)

    # -- counted endings ---------------------------------------------------------
    def _count(self, counting: Counting, captured: int, promoted: bool) -> None:
        """Advance the count after a move, or start it (`end: counting`)."""
        if self.counting_limit:
            self.counting_ply += 1
        mover, to_move = 1 - self.stm, self.stm
        pieces = (self.side_bb[0] | self.side_bb[1]).bit_count()
        # A bare side that has taken the last pawn counts from this ply on.
        if counting.last_pawn and captured in counting.pawns and not self.non_royal(mover) \
                and not any(self.bb[code] for code in counting.pawns):
            moves = self.count_limit(counting, mover)
            if moves:
                self.counting_limit, self.counting_ply = 2 * moves, 2 * pieces - 1
        # A count starts, or starts again for a side just left bare.
        if not self.counting_limit or ((captured or promoted) and not self.non_royal(to_move)):
            moves = self.count_limit(counting, to_move)
            if moves:
                self.counting_limit = 2 * moves
                at_pieces = counting.start_at_pieces and not self.non_royal(to_move)
                self.counting_ply = 2 * pieces if at_pieces else 0

    def count_limit(self, counting: Counting, side: int) -> int:
        """The moves `side`'s count would allow in this position, 0 for none."""
        other = 1 - side
        if not self.non_royal(other):
            return 0
        pawns = any(self.bb[code] for code in counting.pawns)
        if self.non_royal(side):
            if counting.board_moves is None or (pawns and not counting.board_with_pawns) or (
                    counting.board_most is not None
                    and self.side_bb[side].bit_count() > counting.board_most):
                return 0
            return counting.board_moves
        if pawns:
            return 0
        for limit in counting.bare:
            if all(self.bb[piece_code(kind, other)].bit_count() >= least
                   for kind, least in limit.needs):
                return limit.moves
        return 0
