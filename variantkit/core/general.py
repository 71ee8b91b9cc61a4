"""The general position: the rules beyond one royal piece per side and
plain captures, for the variants one of whose rule families says it needs
them (each family's `needs_general`, gathered as `Rules.general`); and the
declared end conditions it stops at."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from variantkit.core.conditions import (
    REASONS,
    attacked_cells,
    castled_right,
    joins,
    result_for,
    some_move_leads_to,
)
from variantkit.core.flips import flip_after, flip_moves, turn_over
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
    SWAP,
    TWO_STEP,
    WALLED,
    InternalMove,
    gate_parts,
    wall_parts,
)
from variantkit.core.observation import able_takers, allowed_by_conditions
from variantkit.core.position import Position
from variantkit.core.remote import royal_takers, with_captures
from variantkit.core.swaps import AFTER_SWAP_KEY, after_exchange, as_pass, restore_pass, swap_moves
from variantkit.core.take_make import record_make, restore_take, take_and_make, take_part
from variantkit.core.transfer import crossed_en_passant, crossings, may_cross
from variantkit.core.turns import TurnState
from variantkit.core.two_steps import plain_step, record_two_step, restore_plain, two_step_moves
from variantkit.pieces import piece_code
from variantkit.public_types import SIDES, Move, Outcome

if TYPE_CHECKING:
    from variantkit.rules import Rules
    from variantkit.tables import Counting, EndCondition

# The moves a capture effect acts on: a piece's own moves (not castling,
# drops, gating, passes or promotions in place).
EFFECT_KINDS = (NORMAL, DOUBLE, EN_PASSANT)


class GeneralPosition(Position):
    """A game whose variant goes beyond one royal piece per side and plain
    captures: no or several royal pieces, forced capture, explosions,
    counted checks, counted endings, initial moves lost to an aiming piece,
    movement conditions (paralysis, cell colours, observed captures).
    Chess-like variants use `Position`, so these rules cost them nothing.

    Legal moves are the pieces' moves (the generator with no royal piece to
    guard), those the movement conditions allow (`core.observation`), each
    tried by make/unmake against the royal rule; then, under
    forced capture, only the captures if there is one.  Under explosions a
    capture removes the capturing piece and every piece around the target
    except the immune ones; a move may not blow up a royal piece of its own
    side, and a move that blows up every enemy royal piece is legal whatever
    else it leaves attacked.
    """

    def __init__(self, rules: Rules) -> None:
        super().__init__(rules)
        # The rules played here, taken from the families' records once (as
        # `Position` takes its own).
        royals, captures, end = rules.royals, rules.captures, rules.end
        self.one_royal = royals.one_royal
        self.check_all = royals.check_all
        self.check_last = royals.check_last
        self.may_give_check = royals.may_give_check
        self.must_capture = captures.must_capture
        self.blast_immune = captures.blast_immune
        self.blast_proof = captures.blast_proof
        self.petrify = captures.petrify
        self.petrify_royal = captures.petrify_royal
        effects = rules.capture_effects
        self.capture_effects = effects.any
        self.capturer_stays = effects.capturer_stays
        self.capturer_turns = effects.capturer_turns
        self.capturer_reborn = effects.capturer_reborn
        self.captured_reborn = effects.captured_reborn
        self.mover_turns = effects.mover_turns
        self.capturer_becomes = effects.capturer_becomes
        self.mover_becomes = effects.mover_becomes
        self.capturer_makes = effects.capturer_makes
        self.make_barred = effects.make_barred
        self.rebirth = effects.rebirth
        self.home = effects.home
        self.move_conditions = rules.move_conditions
        self.swaps = rules.swaps
        self.swapping = rules.swaps.any
        # The swap made just before this position, where a position string
        # says so (its moves played here are on the stack).
        self.swap_before: InternalMove | None = None
        self.conditioned = rules.move_conditions.any
        self.capture_modes = rules.capture_modes
        self.remote = rules.capture_modes.active
        self.flips = rules.flips
        self.transfer = rules.transfer.any
        self.cross = rules.transfer.cross
        self.royal_on_layer = rules.transfer.royal_on_layer
        # `from-inside: by-capture`: some piece's promotions are held back
        # on moves from inside its region (`_entering_promotions`).
        self.promotes_inside_by_capture = any(
            how is not None and how.inside_by_capture for how in rules.promotion.by_code)
        self.two_step_routes = rules.two_steps.routes
        self.lion_trading = rules.lion_trading
        self.two_step_codes = rules.two_steps.codes
        self.pass_when_stuck = rules.passing.when_stuck
        self.aims = rules.aims.any
        self.aimed_by = rules.aims.aimed_by
        self.end_conditions = end.conditions
        self.board_full_result = end.board_full
        self.check_limit = end.check_limit
        self.counting = end.counting
        self.check_keys = rules.keys.check_keys
        # Where a turn has several moves (`turns:`), where this position
        # stands inside its turn.
        self.turn_state = TurnState(rules.turns) if rules.turns.any else None
        # Whether no rule here filters the generator's moves (one royal
        # piece, and no explosions, walls, flips, forced captures, forbidden
        # checks or full board), so that they are counted as `Position`
        # counts them; a declared condition may still end the game.
        self.counts_plainly = royals.one_royal and not (
            self.promotes_inside_by_capture or self.blast or self.walling is not None
            or self.flips is not None
            or self.capture_effects or self.transfer or self.conditioned or self.swapping
            or self.must_capture
            or not self.may_give_check
            or self.board_full_result is not None or self.remote
            or self.turn_state is not None)
        limit = end.check_limit or 0
        self.checks_left = [limit, limit]   # checks each side still has to give
        # The count of `end: counting`, in plies: its limit (0: no count
        # running) and the plies counted so far.
        self.counting_limit = 0
        self.counting_ply = 0
        # Per move on the stack: the pieces an explosion, a petrification or
        # a capture effect removed (cell, code), the check counts and the
        # count before the move, the cell of the wall the move made (-1 for
        # none), the cells whose pieces it turned over (`flips:`, a capture
        # effect's change of side), and the pieces a capture effect put
        # down (cell, code).
        self._extra: list[tuple[tuple[tuple[int, int], ...], tuple[int, int],
                                tuple[int, int], int, int, tuple[tuple[int, int], ...]]] = []

    # -- royal pieces ---------------------------------------------------------
    def royals(self, side: int) -> int:
        """Cells of `side`'s royal pieces."""
        bits = 0
        for code in self.royal_codes[side]:
            bits |= self.bb[code]
        return bits

    def _threatened(self, side: int, shown: bool = False) -> list[int]:
        """Cells of `side`'s royal pieces that the enemy attacks.  Under
        explosions a royal piece never captures, and a royal piece beside an
        enemy royal piece cannot be taken (the blast would take both); a
        royal piece that petrifies never captures either, though it is
        `shown` as giving check (as Fairy-Stockfish shows it)."""
        if self.remote:   # a royal piece may be taken otherwise than by replacement
            return self.rules.board.cells_of(royal_takers(self, self.capture_modes, side)[0])
        royals = self.royals(side)
        attackers = self.side_bb[1 - side]
        occupied = self.side_bb[0] | self.side_bb[1] | self.walls
        enemy_royals = 0
        if self.blast:
            enemy_royals = self.royals(1 - side)
            attackers &= ~enemy_royals
        for code in () if shown else self.petrify_royal:   # it would turn to stone
            attackers &= ~self.bb[code]
        found = []
        while royals:
            low = royals & -royals
            royals ^= low
            cell = low.bit_length() - 1
            if self.blast and self.blast[cell] & enemy_royals:
                continue
            if self.takers(cell, 1 - side, occupied, attackers):
                found.append(cell)
        return found

    def side_in_check(self, side: int, shown: bool = False) -> bool:
        """Whether `side` is in check: any of its royal pieces attacked, or
        under `royals: {check: all}` every one of them, or under `check:
        last` one of them while it has at most `last` of them."""
        if self.turn_state is not None and self.turn_state.turns.check_within_turn:
            return self.turn_state.in_check(self, side)
        threatened = self._threatened(side, shown)
        if not threatened:
            return False
        if self.check_all:
            return len(threatened) == self.royals(side).bit_count()
        if self.check_last:
            return self.royals(side).bit_count() <= self.check_last
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
        if self.remote:
            return royal_takers(self, self.capture_modes, us, every_taker=True)[1]
        occupied = self.side_bb[0] | self.side_bb[1]
        found = 0
        for cell in self._threatened(us):
            enemy = self.side_bb[1 - us]
            if self.conditioned:
                enemy = able_takers(self, self.move_conditions, cell, 1 - us, enemy)
            found |= self.attackers(cell, 1 - us, occupied, enemy)
        return found

    def checked_cell(self) -> str | None:
        """The cell of an attacked royal piece of the side to move when it is in check."""
        if not self.is_check():
            return None
        return self.rules.board.names[self._threatened(self.stm, shown=True)[0]]

    def last_swap(self) -> InternalMove | None:
        """The swap just made (`swaps:`), if the last move was one."""
        if self.history:
            move = self.history[-1][0]
            return move if move[3] == SWAP else None
        return self.swap_before

    def state_key(self) -> int:
        keys = self.check_keys
        key = keys[0][self.checks_left[0]] ^ keys[1][self.checks_left[1]] if keys else 0
        if self.swapping and not self.swaps.after_swap and self.last_swap() is not None:
            key ^= AFTER_SWAP_KEY
        return key ^ self.turn_state.key() if self.turn_state is not None else key

    def turn_played(self) -> int:
        return self.turn_state.played if self.turn_state is not None else 0

    def copy(self) -> Position:
        other = super().copy()
        assert isinstance(other, GeneralPosition)
        other.checks_left = list(self.checks_left)
        other.counting_limit, other.counting_ply = self.counting_limit, self.counting_ply
        other._extra = list(self._extra)
        other.swap_before = self.swap_before
        if self.turn_state is not None:
            other.turn_state = self.turn_state.copy()
        return other

    # -- legality -------------------------------------------------------------
    def legal_internal(self) -> list[InternalMove]:
        """No moves once a declared end condition holds or a pass has ended
        the game (as Fairy-Stockfish lists them), else the moves the rules allow."""
        if (self.end_conditions and ended_by_condition(self)) or self.ended_by_pass() \
                or self.board_full():
            return []
        moves = self.allowed_moves()
        return self.walled_moves(moves) if self.walling and not self._walls_judged() \
            else moves

    def _walls_judged(self) -> bool:
        """Whether the side to move keeps royal pieces safe under `walls:
        {royal-safety: with-wall}`: then its moves get their walls first,
        and each is judged whole (its wall may shield a royal piece, the
        duck's old cell may bare one)."""
        walling = self.walling
        return walling is not None and walling.with_wall and walling.kind != "none" \
            and bool(self.royal_codes[self.stm])

    def count_legal(self) -> int:
        """`len(legal_internal())`, counted as `Position.count_legal`
        counts where no rule here filters the generator's moves (one royal
        piece, and no explosions, walls, flips, forced captures or forbidden
        checks: counted endings, for one, only end the game), else the
        length of the whole list."""
        if self.counts_plainly and not (self.end_conditions and ended_by_condition(self)):
            counted = super().count_legal()
            if counted or not self.pass_when_stuck:
                return counted
        return len(self.legal_internal())

    def legal_en_passant(self) -> list[InternalMove]:
        """As `Position.legal_en_passant`, the whole legal list made only
        where some piece could take en passant at all: a repetition claim
        asks after every move, and walled moves are judged one by one.
        Under Take&Make, the en passant captures that some make completes."""
        if not self.ep_target:
            return []
        # (the generator sees only the first of several double steps open
        # across turns, `turns:`)
        if self.turn_state is None or len(self.turn_state.open) < 2:
            pseudo: list[InternalMove] = []
            self._generate(-1, pseudo)
            if not any(move[3] == EN_PASSANT for move in pseudo):
                return []
        if self.capturer_makes:   # the captures of the make moves that take en passant
            return list(dict.fromkeys(take_part(self, m) for m in self.legal_internal()
                                      if m[3] == TWO_STEP and self.ep_target >> m[4] & 1))
        return super().legal_en_passant()

    def board_full(self) -> bool:
        """Whether every cell is taken under `end: board-full`, which ends the game."""
        return self.board_full_result is not None \
            and not self.all_cells & ~(self.side_bb[0] | self.side_bb[1] | self.walls)

    def allowed_moves(self) -> list[InternalMove]:
        """The moves the pieces and the royal, capture and explosion rules allow."""
        us = self.stm
        moves: list[InternalMove] = []
        walled = self._walls_judged()
        judged = self.turn_state is not None and self.turn_state.judged()
        if self.one_royal and not self.blast and not walled and not self.capture_effects \
                and not self.transfer and not self.conditioned and not self.remote \
                and not self.swapping and not judged:
            self._generate(self.royal[us], moves)
        else:
            self._generate(-1, moves)
            if self.remote:
                moves = with_captures(self, self.capture_modes, moves)
            if self.transfer:
                moves = [m for m in moves if may_cross(self, m, self.cross, self.royal_on_layer)]
            if self.two_step_routes:
                moves = two_step_moves(self, self.two_step_routes, self.two_step_codes[us], moves)
            if self.capture_effects:
                moves = self._effect_moves(moves)
            if self.swapping:
                moves = swap_moves(self, self.swaps, moves, self.last_swap() is not None)
            if self.capturer_makes:
                moves = take_and_make(self, self.make_barred, moves)
            if self.conditioned:
                moves = allowed_by_conditions(self, self.move_conditions, moves)
            if judged and self.turn_state is not None:
                moves = self.turn_state.legal_of(self, moves)
            elif self.royal_codes[us]:
                moves = self._keep_safe(self.walled_moves(moves) if walled else moves)
        if self.turn_state is not None and len(self.turn_state.open) > 1:
            moves += self.turn_state.other_en_passant(self)
        if self.promotes_inside_by_capture:
            moves = self._entering_promotions(moves)
        if self.lion_trading.any:
            moves = self._lion_trades(moves)
        if self.gate_regions[us]:
            moves += self._gatings(moves)
        if self.must_drop:
            moves = self._drops_first(moves)
        if self.flips is not None:
            moves = flip_moves(self, self.flips, moves)
        if not moves and self.pass_when_stuck:
            moves = self.stuck_pass()
        if not self.may_give_check:
            moves = [m for m in moves if not self.gives_check(m)]
        if self.must_capture:
            captures = [m for m in moves if self._captures(m)]
            if captures:
                return captures
        return moves

    def _lion_trades(self, moves: list[InternalMove]) -> list[InternalMove]:
        """`moves` without the lion captures `lion-trading:` forbids: after
        a lion taken by a non-lion, any by a non-lion (`counter-strike`);
        by a lion, of a lion not next to it that an enemy move could take
        back, unless the move took a bridge on its way (`protected-from-afar`)."""
        trading = self.lion_trading
        lion, cells = trading.lion, self.cells
        struck = False
        if trading.counter_strike and self.history and not lion[self.history[-1][1]]:
            taken = [self.history[-1][2]] + [code for _, code in self._extra[-1][0]]
            struck = any(lion[code] for code in taken if code)
        out: list[InternalMove] = []
        for move in moves:
            frm, to, _, kind, extra = move
            target = cells[to] if to != frm and kind in (NORMAL, TWO_STEP) else 0
            bridge = cells[extra] if kind == TWO_STEP else 0
            if (target and lion[target]) or (bridge and lion[bridge]):
                if not lion[cells[frm]]:
                    if struck:
                        continue
                elif trading.from_afar and target and lion[target] \
                        and not trading.neighbours[frm] >> to & 1 \
                        and not (bridge and not trading.excluded[bridge]) \
                        and self._taken_back(move, to):
                    continue
            out.append(move)
        return out

    def _taken_back(self, move: InternalMove, cell: int) -> bool:
        """Whether, after `move`, some enemy move (by the pieces' moves, the
        two-step ones included, whatever it would leave) takes on `cell`."""
        self.make_internal(move)
        replies: list[InternalMove] = []
        self._generate(-1, replies)
        if self.two_step_routes:
            replies = two_step_moves(self, self.two_step_routes,
                                     self.two_step_codes[self.stm], replies)
        found = any((to == cell and kind != PASS) or (kind == TWO_STEP and extra == cell)
                    for _, to, _, kind, extra in replies)
        self.unmake_internal()
        return found

    def _entering_promotions(self, moves: list[InternalMove]) -> list[InternalMove]:
        """`moves` without the promotions `from-inside: by-capture` holds
        back: a move that starts in the promotion region and takes nothing
        promotes only onto a cell where the piece could not move again (it
        stays as it is instead, where the generator offered no such move)."""
        out: list[InternalMove] = []
        kept: set[InternalMove] = set()
        for move in moves:
            frm, to, promo, kind, extra = move
            if promo and kind in (NORMAL, DOUBLE):
                promotion = self.promotion_of[self.cells[frm]]
                if promotion is not None and promotion.inside_by_capture \
                        and promotion.region >> frm & 1 and not promotion.stuck >> to & 1 \
                        and not self._captures(move):
                    move = (frm, to, 0, kind, extra)
                    if move in kept:
                        continue
            elif not promo and move in kept:
                continue
            kept.add(move)
            out.append(move)
        return out

    def _keep_safe(self, moves: list[InternalMove]) -> list[InternalMove]:
        us = self.stm
        blast = self.blast
        own = self.royals(us).bit_count()
        enemy = self.royals(1 - us).bit_count()
        # Under `check: last`, a side with at most `last` royal pieces keeps
        # each of them safe (followed where it moves), even by a move that
        # makes another one (by promotion), which need not be safe.
        kept = self.royals(us) if 0 < own <= self.check_last else 0
        safe = []
        for move in moves:
            duck = self._blasted_wall(move) if blast and move[3] >= WALLED else -1
            self.make_internal(move)
            # A blast's target turns to stone after the move's safety is
            # judged, as Fairy-Stockfish judges it: the new wall shields nothing.
            stone = self._extra[-1][3] if blast else -1
            if stone >= 0:
                self.place_wall(stone)
            if duck >= 0:
                self.place_wall(duck)
            if self.royals(us).bit_count() < own:   # blown up or petrified
                ok = False
            elif blast and enemy and not self.royals(1 - us):
                ok = True
            elif kept:
                after = kept & ~(1 << move[0]) | 1 << move[1] \
                    if kept >> move[0] & 1 and move[3] != REMOTE else kept
                ok = not any(after >> cell & 1 for cell in self._threatened(us))
            else:
                ok = not self.side_in_check(us)
            if ok and self.passage_with_wall and move[3] >= WALLED:
                ok = not self._passage_attacked(move, us)
            if stone >= 0:
                self.place_wall(stone)
            if duck >= 0:
                self.place_wall(duck)
            self.unmake_internal()
            if ok:
                safe.append(move)
        return safe

    def _passage_attacked(self, move: InternalMove, us: int) -> bool:
        """Under `walls: {royal-safety: with-wall}`, once walled `move` is
        made: whether it castled through a cell the enemy attacks, with its
        wall down (as Fairy-Stockfish judges atomic duck chess, where a new
        wall may shield the passage).  Under explosions the attacks are
        judged as for a royal piece's own cell (`_threatened`)."""
        plain, _ = wall_parts(move)
        kind = plain[3]
        if kind == CASTLE:
            index = plain[4]
        elif kind == CASTLE_GATE:
            index = gate_parts(plain)[1]
        else:
            return False
        them = 1 - us
        attackers = self.side_bb[them]
        occupied = self.side_bb[0] | self.side_bb[1] | self.walls
        enemy_royals = 0
        if self.blast:
            enemy_royals = self.royals(them)
            attackers &= ~enemy_royals
        for cell in self.castlings[index].safe:
            if self.blast and self.blast[cell] & enemy_royals:
                continue
            if self.takers(cell, them, occupied, attackers):
                return True
        return False

    def _effect_moves(self, moves: list[InternalMove]) -> list[InternalMove]:
        """`moves` as the capture effects allow them: a capturing piece that
        stays where it stands does not promote by its capture (its
        promotions are one move); a capturing piece reborn by its capture
        needs its rebirth cell free after the move."""
        out: list[InternalMove] = []
        shots: set[InternalMove] = set()
        for move in moves:
            if move[3] in EFFECT_KINDS and self._captures(move):
                frm, to, promo, kind, extra = move
                if self.capturer_stays:
                    move = (frm, to, 0, kind, extra)
                    if move in shots:
                        continue
                    shots.add(move)
                elif self.capturer_reborn and not self._may_be_reborn(
                        promo or self.cells[frm], frm, to, extra if kind == EN_PASSANT else to):
                    continue
            out.append(move)
        return out

    def _may_be_reborn(self, code: int, frm: int, to: int, taken: int) -> bool:
        """Whether a piece of `code` capturing from `frm` on `to` (the piece
        taken on `taken`) may be reborn: it has a rebirth cell, empty after
        the capture (as `frm` and `taken` are), or `to` itself."""
        cell = self.rebirth[code][to]
        return cell >= 0 and (cell in (frm, to, taken) or not self.cells[cell])

    def _reborn_attackers(self, attackers: int, target: int) -> int:
        """Of `attackers`, those whose capture on `target` the rebirth of
        the capturing piece allows (under `capturer: reborn`): as any of
        the pieces it may promote to there, if it promotes."""
        kept = 0
        for cell in self.rules.board.cells_of(attackers):
            code = self.cells[cell]
            promotion = self.promotion_of[code]
            forms = [code]
            if promotion is not None and promotion.region >> target & 1:
                forms = list(promotion.choices)
                if promotion.optional >> target & 1:
                    forms.append(code)
            if any(self._may_be_reborn(form, cell, target, target) for form in forms):
                kept |= 1 << cell
        return kept

    def takers(self, cell: int, side: int, occupied: int, side_mask: int) -> int:
        """The pieces that could take a royal piece on `cell`, for check and
        for a castling's passage: under `capturer: reborn`, the attackers
        whose rebirth allows the capture; under `move-conditions`, those
        the conditions let capture there."""
        if self.conditioned:
            side_mask = able_takers(self, self.move_conditions, cell, side, side_mask)
        found = self.attackers(cell, side, occupied, side_mask)
        return self._reborn_attackers(found, cell) if found and self.capturer_reborn else found

    def _take_effects(self, move: InternalMove, code: int, taking: bool) -> tuple[
            tuple[tuple[int, int], ...], tuple[tuple[int, int], ...], int]:
        """Apply the capture effects of `move`, just made by a piece of
        `code`: the capturing piece stays or is reborn, the captured one is
        reborn, the piece that moved changes type (`becomes:`), then it
        changes side.  Return the pieces
        removed and put down (cell, code) and the cells turned over."""
        frm, to, promoted, kind, _ = move
        cells = self.cells
        mover = 1 - self.stm
        now = cells[to]
        if kind not in EFFECT_KINDS or not now or now & 1 != mover:
            return (), (), 0
        removed: tuple[tuple[int, int], ...] = ()
        placed: tuple[tuple[int, int], ...] = ()
        at = to
        if taking:
            if self.capturer_stays:
                at = frm
                removed, placed = ((to, now),), ((frm, code),)
                self._lift(to)
                self.place(frm, code)
                # A piece that shoots has not moved.
                self.unmoved |= self.history[-1][3] & 1 << frm
            elif self.capturer_reborn:
                at = self.rebirth[now][to]
                if at < 0:   # no rebirth cell: a move the rule does not allow, made anyway
                    at = to
                elif at != to:
                    removed, placed = ((to, now),), ((at, now),)
                    self._lift(to)
                    self.place(at, now)
                self.unmoved |= self.home[now] & 1 << at
            if self.captured_reborn:
                victim = self.history[-1][2]
                cell = self.rebirth[victim][to]
                if cell >= 0 and not cells[cell]:
                    placed += ((cell, victim),)
                    self.place(cell, victim)
                    self.unmoved |= self.home[victim] & 1 << cell
        becomes = self.capturer_becomes if taking else self.mover_becomes
        # A promotion is the move's change: the new piece changes on its own moves.
        if becomes and not promoted and becomes[cells[at]]:
            was, code = cells[at], becomes[cells[at]]
            self._lift(at)
            self.place(at, code)
            if any(cell == at for cell, _ in placed):   # put down by the move's effect
                placed = tuple((c, code if c == at else k) for c, k in placed)
            else:
                removed, placed = removed + ((at, was),), placed + ((at, code),)
        turned = 0
        if (self.capturer_turns if taking else self.mover_turns) \
                and not self.royal_code[cells[at]]:
            turned = 1 << at
            turn_over(self, turned)
            self.unmoved |= self.home[cells[at]] & turned
            # A pawn that changed side on its double step passed no enemy.
            self.ep_target, self.ep_victim = 0, -1
        return removed, placed, turned

    def _blasted_wall(self, move: InternalMove) -> int:
        """The cell of a walled move's wall when the move's blast clears it
        for the judgement of safety, else -1: a wall put down on the cell
        the capturer left, when that cell is one the blast reaches and the
        capturer is no immune piece (Fairy-Stockfish clears the cells around
        the target that held such a piece before the move, walls and all)."""
        plain, cell = wall_parts(move)
        frm = plain[0]
        if cell != frm or not self.blast[plain[1]] >> frm & 1 \
                or self.cells[frm] in self.blast_immune or not self._captures(plain):
            return -1
        return cell

    def _captures(self, move: InternalMove) -> bool:
        frm, to, _, kind, extra = move
        # (a plain move's `extra`: the cells it takes besides its landing cell)
        if kind in (EN_PASSANT, TWO_STEP, REMOTE) or (kind == NORMAL and extra):
            return True
        target = self.cells[to]
        return kind in (NORMAL, DOUBLE, GATE) and bool(target) \
            and target & 1 != self.cells[frm] & 1

    def gives_check(self, move: InternalMove) -> bool:
        self.make_internal(move)
        checked = self.side_in_check(self.stm)
        self.unmake_internal()
        return checked

    # -- make / unmake ----------------------------------------------------------
    def make_internal(self, move: InternalMove) -> None:
        if move[3] >= WALLED:   # its plain move comes back here (`Position._make_walled`)
            super().make_internal(move)
            return
        before = (self.checks_left[0], self.checks_left[1])
        counted = (self.counting_limit, self.counting_ply)
        counting = self.counting
        captured = self.cells[move[4] if move[3] in (EN_PASSANT, TWO_STEP) else move[1]] \
            if counting is not None and self._captures(move) else 0
        capturing = bool(self.blast or self.petrify) and self._captures(move)
        exploding = capturing and bool(self.blast)
        # The piece that moved petrifies, not what it promoted to.
        petrifying = capturing and self.cells[move[0]] in self.petrify
        mover_code = self.cells[move[0]]
        taking = self.capture_effects and self._captures(move)
        two_step, swap = move[3] == TWO_STEP, move[3] == SWAP
        makes = two_step and self.capturer_makes
        super().make_internal(take_part(self, move) if makes else plain_step(move) if two_step
                              else as_pass(move) if swap else move)
        removed: tuple[tuple[int, int], ...] = ()
        made: tuple[tuple[int, int], ...] = ()
        if makes:
            removed, made = self._make_after_take(move)
        elif two_step:
            removed = self._take_midway(move)
        elif swap:
            self._exchange(move[0], move[1])
            after_exchange(self, self.swaps, move)
        walled = -1
        if exploding:
            to = move[1]
            cells = self.cells
            around = self.blast[to]
            for code in self.blast_immune:
                around &= ~self.bb[code]
            around &= self.side_bb[0] | self.side_bb[1]
            capturer = () if cells[to] in self.blast_proof else ((to, cells[to]),)
            removed = capturer + tuple((c, cells[c]) for c in self.rules.board.cells_of(around))
            gone = 0
            for cell, code in removed:
                self._lift(cell)
                gone |= 1 << cell
                if self.has_hands and self.to_hand[code] >= 0:   # taken by its owner's enemy
                    self.add_to_hand(self.to_hand[code])
            self.unmoved &= ~gone
            if petrifying:   # the blast over, the capture's cell turns to stone
                walled = to
                self.place_wall(walled)
        elif petrifying:
            walled = move[1]
            removed = ((walled, self.cells[walled]),)
            self._lift(walled)
            self.place_wall(walled)
        if self.remote and move[3] == NORMAL and move[4]:
            removed += self._take_remote(move[4])
        placed = made
        if self.transfer:   # the moved pieces cross before anything reads the board
            for here, there in crossings(self, move, self.cross):
                code = self.cells[here]
                self._lift(here)
                self.place(there, code)
                self.unmoved &= ~(1 << there)
                removed += ((here, code),)
                placed += ((there, code),)
                if move[3] == DOUBLE:
                    self.ep_target, self.ep_victim = crossed_en_passant(self, self.cross)
        turned = 0
        if self.capture_effects:   # before the rules below read the board
            lifted, put, turned = self._take_effects(move, mover_code, taking)
            removed += lifted
            placed += put
        if self.aims and move[3] in (NORMAL, DOUBLE, EN_PASSANT, GATE) \
                and self.aimed_by[self.cells[move[1]]]:
            self._aim(move[1])
        if self.check_limit and self.side_in_check(self.stm):
            self.checks_left[1 - self.stm] = max(self.checks_left[1 - self.stm] - 1, 0)
        if counting is not None:
            self._count(counting, captured, bool(move[2]) and move[3] != DROP)
        flipped = turned
        if self.flips is not None:
            flipped |= flip_after(self, self.flips, move)
        self._extra.append((removed, before, counted, walled, flipped, placed))
        if self.turn_state is not None:   # last: the turn goes on, or passes to the other side
            self.turn_state.after_move(self, move)

    def unmake_internal(self) -> None:
        if self.history[-1][0][3] >= WALLED:   # as `make_internal`
            super().unmake_internal()
            return
        if self.turn_state is not None:
            self.turn_state.before_unmake(self)
        removed, before, counted, walled, flipped, placed = self._extra.pop()
        turn_over(self, flipped)
        for cell, _ in reversed(placed):
            self._lift(cell)
        if walled >= 0:
            self.place_wall(walled)
        for cell, code in reversed(removed):
            self.place(cell, code)
            if (self.blast or self.remote) and self.has_hands and self.to_hand[code] >= 0:
                self.add_to_hand(self.to_hand[code], -1)
        self.checks_left[0], self.checks_left[1] = before
        self.counting_limit, self.counting_ply = counted
        if self.history[-1][0][3] == TWO_STEP:
            if self.capturer_makes:
                restore_take(self)
            else:
                restore_plain(self)
        elif self.history[-1][0][3] == SWAP:
            self._exchange(self.history[-1][0][0], self.history[-1][0][1])
            restore_pass(self)
        super().unmake_internal()

    def _exchange(self, first: int, second: int) -> None:
        """The pieces on two cells change places (a swap; done twice, nothing changed)."""
        one, other = self.cells[first], self.cells[second]
        self._lift(first)
        self._lift(second)
        self.place(first, other)
        self.place(second, one)

    def _take_remote(self, cells: int) -> tuple[tuple[int, int], ...]:
        """Take the pieces on `cells`, which a move captured besides its
        landing cell (`capture-by:`); return them (cell, code)."""
        taken = tuple((c, self.cells[c]) for c in self.rules.board.cells_of(cells))
        for cell, code in taken:
            self._lift(cell)
            if self.has_hands and self.to_hand[code] >= 0:   # taken by its owner's enemy
                self.add_to_hand(self.to_hand[code])
        self.unmoved &= ~cells
        self.halfmove = 0
        return taken

    def public_move(self, move: InternalMove, mover: int | None = None) -> Move:
        """As `Position.public_move`, a two-step capture with its midway cell."""
        if move[3] == TWO_STEP:
            plain = super().public_move((move[0], move[1], move[2], NORMAL, 0), mover)
            return replace(plain, via=self.rules.board.names[move[4]])
        if move[3] == SWAP:
            names = self.rules.board.names
            return Move(names[move[0]], names[move[1]], swap=True)
        return super().public_move(move, mover)

    def _make_after_take(self, move: InternalMove) -> tuple[
            tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]:
        """After a Take&Make move's capture is made alone: the capturing
        piece goes on from the capture cell to the end cell, promoting
        there, and the stack records the move itself.  Returns the piece
        lifted and the piece put down (cell, code)."""
        _, end, promo, _, cell = move
        code = self.cells[cell]
        self._lift(cell)
        self.place(end, promo or code)
        self.unmoved &= ~(1 << end)
        record_make(self, move)
        return ((cell, code),), ((end, promo or code),)

    def _take_midway(self, move: InternalMove) -> tuple[tuple[int, int], ...]:
        """After a two-step capture's last step is made alone: take the
        midway piece and record the move itself on the stack.  Returns the
        piece taken (cell, code), which taking the move back puts back."""
        mid = move[4]
        taken = self.cells[mid]
        self._lift(mid)
        self.unmoved &= ~(1 << mid)
        self.halfmove = 0
        record_two_step(self, move)
        return ((mid, taken),)

    def _aim(self, cell: int) -> None:
        """The piece that has just moved to `cell` takes the initial moves
        of the enemy pieces it now aims at (`initial-until-aimed-by`)."""
        code = self.cells[cell]
        aimed = self.rules.empty_board_reach(code, cell, initial=False)
        for victim in self.aimed_by[code]:
            self.unmoved &= ~(self.bb[victim] & aimed)

    # -- counted endings ---------------------------------------------------------
    def _count(self, counting: Counting, captured: int, promoted: bool) -> None:
        """Advance the count after a move, or start it (`end: counting`)."""
        if self.counting_limit:
            self.counting_ply += 1
        mover, to_move = 1 - self.stm, self.stm
        # A bare side that has taken the last pawn counts from this ply on.
        if counting.last_pawn and captured in counting.pawns \
                and not self.has_non_royal(mover) and not self.holds_any(counting.pawns):
            moves = self.count_limit(counting, mover)
            if moves:
                self.counting_limit = 2 * moves
                self.counting_ply = 2 * (self.side_bb[0] | self.side_bb[1]).bit_count() - 1
        # A count starts, or starts again for a side just left bare.
        if not self.counting_limit or ((captured or promoted) and not self.has_non_royal(to_move)):
            moves = self.count_limit(counting, to_move)
            if moves:
                self.counting_limit = 2 * moves
                at_pieces = counting.start_at_pieces and not self.has_non_royal(to_move)
                self.counting_ply = 2 * (self.side_bb[0] | self.side_bb[1]).bit_count() \
                    if at_pieces else 0

    def count_limit(self, counting: Counting, side: int) -> int:
        """The moves `side`'s count would allow in this position, 0 for none."""
        other = 1 - side
        if not self.has_non_royal(other):
            return 0
        pawns = self.holds_any(counting.pawns)
        if self.has_non_royal(side):
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


# -- declared end conditions (`end: conditions`) -----------------------------------

def ended_by_condition(position: GeneralPosition) -> bool:
    """Whether a declared end condition ends the game here."""
    return any(condition_outcome(position, c) is not None
               for c in position.end_conditions)


def condition_outcome(position: GeneralPosition, condition: EndCondition) -> Outcome | None:
    """The outcome one declared condition gives, if it holds."""
    reason = REASONS[condition.kind]
    moved, to_move = 1 - position.stm, position.stm
    if not condition.reply and meets(position, condition, moved):
        if condition.answer is not None:
            if meets(position, condition, to_move):
                return result_for(condition.answer, SIDES[moved], SIDES[to_move], reason)
            if moved == 0 and some_move_leads_to(
                    position, lambda: meets(position, condition, to_move),
                    position.allowed_moves()):
                return None
        return result_for(condition.result, SIDES[moved], SIDES[to_move], reason)
    if meets(position, condition, to_move, condition.grace):
        return result_for(condition.result, SIDES[to_move], SIDES[moved], reason)
    return None


def met_at_once(position: GeneralPosition, result: str) -> Outcome | None:
    """`end: at-once`: the outcome when the side that has just moved and the
    side to move both meet declared conditions (each tested for both
    sides: `reply` conditions are not), with the reason of the first the
    mover meets; or None."""
    moved, to_move = 1 - position.stm, position.stm
    both = [c for c in position.end_conditions if not c.reply]
    first = next((c for c in both if meets(position, c, moved)), None)
    if first is None or not any(meets(position, c, to_move) for c in both):
        return None
    return result_for(result, SIDES[moved], SIDES[to_move], REASONS[first.kind])


def held(position: GeneralPosition, condition: EndCondition, side: int) -> int:
    """How many pieces of an `extinct` condition's kinds `side` has; a piece
    in hand counts, since it may come back by a drop."""
    hands = position.hands
    if condition.codes is None:
        in_hand = sum(hands[code] for code in position.hand_codes[side])
        return position.side_bb[side].bit_count() + in_hand
    return sum(position.bb[code].bit_count() + hands[code] for code in condition.codes[side])


def meets(position: GeneralPosition, condition: EndCondition, side: int,
          grace: bool = False) -> bool:
    """Whether `side` meets a declared end condition in this position.  With
    `grace` (the side to move under `grace: true`), a bare side meets it only
    when no single capture could bare the other side in reply."""
    kind, bb = condition.kind, position.bb
    if grace and kind != "bare":
        return False
    if kind == "checks":
        return position.checks_left[side] == 0
    if kind == "extinct":
        return held(position, condition, side) <= condition.count and \
            (not condition.rivals or held(position, condition, 1 - side) >= condition.rivals)
    if kind in ("in-a-row", "in-a-square", "on-a-line", "connected"):
        own = position.side_bb[side]
        if condition.codes is not None:
            own = 0
            for code in condition.codes[side]:
                own |= bb[code]
        if kind == "on-a-line":   # any cells of one line, not only a run
            return any((line & own).bit_count() >= condition.count for line in condition.rows)
        if kind == "connected":
            return joins(own, condition.regions[side], condition.goals[side], condition.steps)
        return any(row & own == row for row in condition.rows)
    if kind == "castled":
        return side != position.stm and castled_right(position) in condition.rights
    if kind == "castling-lost":
        named = [c for _, c in position.castlings_by_side[side] if c.right in condition.rights]
        return bool(named) and not any(c.in_place(position.unmoved, position.cells) for c in named)
    if kind == "reached":
        assert condition.codes is not None
        there = 0
        for code in condition.codes[side]:
            there |= bb[code] & condition.regions[side]
        if condition.safe:
            there &= ~attacked_cells(position, there, 1 - side)
        # (a full region counts for the side that has just moved: the other
        # side's move may have filled it)
        if condition.full and there and side != position.stm:
            taken = position.side_bb[0] | position.side_bb[1] | position.walls
            if not condition.regions[side] & ~taken:
                return True
        return there.bit_count() >= condition.count
    return not position.non_royal(side) and position.non_royal(1 - side) >= (2 if grace else 1)


def empty_position(rules: Rules) -> Position:
    """The variant's empty board, as the position class its rules need: the
    general one only for variants whose rules go beyond one royal piece per
    side and plain captures (`Rules.general`)."""
    return GeneralPosition(rules) if rules.general else Position(rules)
