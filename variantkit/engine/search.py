"""A built-in engine that every variant gets for free.

The search is negamax alpha-beta with iterative deepening, principal
variation search (null windows for all moves but the first), a
transposition table and a bounded quiescence search over captures, suborns
and promotions.  Moves come in stages, each generated only when the one
before has not cut the search off: the transposition table's move; the
captures by MVV-LVA (most valuable victim, least valuable attacker), made
alone where a move's legality is its royal piece's safety (the core's
`captures_unchecked`); then the other legal moves, killer moves first, the
others by their history and the placement they gain, and last the
captures that lose material by the static exchange evaluation (which
quiescence leaves out).  docs/engine.md lists the pruning and the
evaluation's terms.

The evaluation (`variantkit.engine.evaluation`) needs no move generation, so a
quiescence node whose evaluation already fails high generates no move at
all.  Drops are searched as any other move; they win no material at once,
so quiescence leaves them out.  A position without legal moves is scored
by the variant's own `end.checkmate` / `end.stalemate` results; a position
that repeats one of the current line, or one that occurred twice in the
game, or that reaches the move rule, is a draw (a position seen once
before in the game is not: reaching it again does not end the game).

`Engine.search` takes `Limits` (depth, nodes, a time per move, a game clock
with a simple time manager and USI's byoyomi, or none: infinite; the number
of best lines wanted and the root moves to choose from), a
`threading.Event` that another thread may set at any moment to stop it with
the best move found so far, and a callback told of each completed iteration
(of each line).  It searches a copy of the caller's position; the
transposition table lives as long as the Engine (`new_game` clears it;
`table_entries` bounds it); a position with one legal move is answered at
once.  `Engine.skill` below SKILL_MAX weakens the engine: fewer nodes and
plies, and a move chosen at random among its best few (`weakening`).

The search only uses the core position's make/unmake, so it works on any
variant; for a given position, depth and table it is deterministic (at
full strength: a weakened engine draws random numbers).

    >>> import variantkit
    >>> from variantkit.engine.search import Engine
    >>> game = variantkit.load("chess").new_game()
    >>> move = Engine(game.variant).best_move(game, depth=2)
"""

from __future__ import annotations

import random
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import cast

from variantkit.core.general import GeneralPosition, ended_by_condition
from variantkit.core.moves import (
    CASTLE,
    DOUBLE,
    DROP,
    EN_PASSANT,
    NORMAL,
    PASS,
    SUBORN,
    SWAP,
    TWO_STEP,
    InternalMove,
)
from variantkit.core.position import Position
from variantkit.engine.evaluation import PAWN, Evaluation
from variantkit.game import Game, VariantFace
from variantkit.outcome import outcome
from variantkit.public_types import SIDES, Move

# What the static exchange evaluation counts a royal piece as, in
# centipawns: a capture by it that the opponent answers loses the game.
ROYAL_EXCHANGE = 100 * 100
MATE = 1_000_000            # a mate at ply p scores MATE - p
MATE_BOUND = MATE - 10_000  # scores beyond this are mates
INFINITY = 2 * MATE
DEFAULT_DEPTH = 3
MAX_DEPTH = 64
MAX_PLY = 128               # extensions may take a line beyond its nominal depth
MAX_QUIESCENCE = 6          # plies of captures after the nominal depth
TT_LIMIT = 1 << 20          # entries by default; the table is cleared when full
# What one entry of the table costs, in bytes, about (its key, its value and
# the dictionary's slot, measured on the pure build): what turns a size in
# megabytes (UCI's Hash) into entries.
TT_ENTRY_BYTES = 400
# Pruning margins, in centipawns: a node whose evaluation beats beta by
# FUTILITY per ply of depth left (depth 3 at most) is cut; a quiet move at
# depth 1 or 2 whose evaluation falls short of alpha by as much is skipped;
# a capture in quiescence that cannot bring the evaluation within DELTA of
# alpha is skipped.
FUTILITY = 120
FUTILITY_DEPTH = 3
DELTA = 200
# Null-move pruning from this depth, reduced by NULL_REDUCTION plies more
# (one more from depth 7).
NULL_MIN_DEPTH = 3
NULL_REDUCTION = 2
# Late move reductions: from this depth, quiet moves after the first
# LMR_AFTER of their stage are searched a ply shallower (two after 3 * LMR_AFTER).
LMR_MIN_DEPTH = 3
LMR_AFTER = 3
# Late move pruning: off the principal variation, up to this depth, the
# quiet moves after the first LMP_BASE + LMP_SCALE * depth * depth of their
# stage that give no check are left out.
LMP_DEPTH = 3
LMP_BASE = 3
LMP_SCALE = 2
MAX_MOVES = 1 << 30     # more moves than any position has
# The root's first window around the last iteration's score, from depth 4.
ASPIRATION = 40
ASPIRATION_DEPTH = 4
# Contempt: a side whose evaluation at the root is at least CONTEMPT_AHEAD
# scores a draw as CONTEMPT below nothing, so that it does not let a won
# game run into a repetition (a side behind takes the draw at its worth).
CONTEMPT = 25
CONTEMPT_AHEAD = 100
# History scores are halved when one grows past this.
HISTORY_LIMIT = 1 << 20
EXACT, LOWER, UPPER = range(3)
# How often (in nodes) the search looks at the clock and the stop signal.
CHECK_EVERY = 256
# Seconds kept back from a game clock for the time a move takes to travel.
MOVE_OVERHEAD = 0.05
# Moves the time manager spreads the clock over when no movestogo is given.
MOVES_TO_GO = 30
# Of a byoyomi period (the time each move gets once the main time is gone,
# lost if unused), this much is kept back for the move's travel: at least
# BYOYOMI_KEPT seconds or BYOYOMI_KEPT_SHARE of it, never more than half.
BYOYOMI_KEPT = 0.1
BYOYOMI_KEPT_SHARE = 0.05
# Strength: SKILL_MAX is the engine at full strength; below it, a level L
# searches at most 1 + L // 2 plies and WEAK_NODES * 2 ** (L / 2) nodes, and
# chooses among its best WEAK_LINES moves the one whose score plus a random
# number from 0 to WEAK_MARGIN * (SKILL_MAX - L) centipawns is highest.
SKILL_MAX = 20.0
WEAK_NODES = 100
WEAK_LINES = 4
WEAK_MARGIN = 15

TTEntry = tuple[int, int, int, InternalMove | None]   # depth, score, bound, move
Key = tuple[int, int, int, int]


class _Timeout(Exception):
    """Raised inside the search when a limit is reached or a stop is asked."""


@dataclass
class Limits:
    """What bounds one search; all None (and `infinite`) searches until
    stopped.  Times are in seconds.  `depth` and `nodes` bound the search
    whatever else is given; `movetime` is the time for this move; the game
    clock (`wtime`/`btime`, increments `winc`/`binc`, `movestogo` moves to
    the next time control) is shared out by `time_budget`.  Without any
    limit and not `infinite`, DEFAULT_DEPTH plies."""

    depth: int | None = None
    nodes: int | None = None
    movetime: float | None = None
    wtime: float | None = None
    btime: float | None = None
    winc: float = 0.0
    binc: float = 0.0
    movestogo: int | None = None
    infinite: bool = False
    # USI: seconds each move may take once the main time is gone.
    byoyomi: float = 0.0
    # How many best lines to find (each root move at most once), and the
    # root moves to choose from (None: all).
    multipv: int = 1
    searchmoves: list[Move] | None = None

    def clock(self, stm: int) -> tuple[float, float] | None:
        """The time left and the increment of the side to move (0 White,
        1 Black), or None without a clock for it."""
        left = self.btime if stm else self.wtime
        if left is None:
            return None
        return left, self.binc if stm else self.winc


def time_budget(limits: Limits, stm: int) -> tuple[float, float] | None:
    """Seconds for this move as (soft, hard): on a clock no new iteration
    starts after half the soft time, and the search stops at the hard time.
    A movetime is used whole; a clock is shared over the moves to go (or
    MOVES_TO_GO), with most of the increment, never more than a quarter of
    the time left, MOVE_OVERHEAD kept back.  A byoyomi period (USI) is
    added to both, less a margin (`byoyomi_share`), and once the main time
    is gone it is the whole budget, used whole (`spends_whole`).  None when
    the time is not bounded."""
    if limits.movetime is not None:
        return limits.movetime, limits.movetime
    clock = limits.clock(stm)
    period = byoyomi_share(limits.byoyomi)
    if clock is None:
        return (period, period) if period else None
    left, increment = clock
    left -= MOVE_OVERHEAD
    if left <= 0 and period:  # the main time is gone: the byoyomi alone
        return period, period
    left = max(left, 0.01)
    moves = max(1, min(limits.movestogo or MOVES_TO_GO, MOVES_TO_GO))
    soft = min(left / moves + 0.75 * increment, left / 4) + period
    return soft, min(3 * soft, left / 2 + period)


def byoyomi_share(period: float) -> float:
    """Seconds of a byoyomi period a move may spend: all of it but
    BYOYOMI_KEPT seconds or BYOYOMI_KEPT_SHARE of it, whichever is more,
    and at least half of it (0 without a byoyomi)."""
    if period <= 0:
        return 0.0
    return max(period - max(BYOYOMI_KEPT, BYOYOMI_KEPT_SHARE * period), period / 2)


def spends_whole(limits: Limits, stm: int) -> bool:
    """Whether the time for this move is lost if unused (a movetime, or a
    byoyomi once the main time is gone): the search then runs to its end,
    as an unfinished iteration may still prove a better move."""
    if limits.movetime is not None:
        return True
    clock = limits.clock(stm)
    return limits.byoyomi > 0 and (clock is None or clock[0] - MOVE_OVERHEAD <= 0)


@dataclass
class Weakening:
    """How a skill level below SKILL_MAX weakens the search: at most
    `depth` plies and `nodes` nodes, and the move chosen among the best
    `lines` by their score plus a random number up to `margin`
    centipawns."""

    depth: int
    nodes: int
    lines: int
    margin: int


def weakening(skill: float) -> Weakening | None:
    """The weakening of a skill level from 0 to SKILL_MAX (None at
    SKILL_MAX: full strength)."""
    level = min(max(skill, 0.0), SKILL_MAX)
    if level >= SKILL_MAX:
        return None
    return Weakening(depth=1 + int(level) // 2, nodes=int(WEAK_NODES * 2 ** (level / 2)),
                     lines=WEAK_LINES, margin=round(WEAK_MARGIN * (SKILL_MAX - level)))


@dataclass
class SearchInfo:
    """What the last search found: the depth completed, the nodes visited
    (quiescence included), the score in centipawns for the side to move,
    the seconds spent and the principal variation; `multipv`, which of the
    best lines it is (1: the best)."""

    depth: int = 0
    nodes: int = 0
    score: int = 0
    seconds: float = 0.0
    pv: list[Move] = field(default_factory=list)
    multipv: int = 1

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0

    @property
    def mate_in(self) -> int | None:
        """Moves to a forced end by the variant's rules: positive when the
        side to move wins, negative when it loses; None for a plain score."""
        if abs(self.score) < MATE_BOUND:
            return None
        moves = (MATE - abs(self.score) + 1) // 2
        return moves if self.score > 0 else -moves

    @property
    def score_text(self) -> str:
        """`+0.35` (pawns), or a forced end by the variant's rules (checkmate,
        or stalemate where it wins or loses): `win in 2`, `loss in 1` (moves)."""
        moves = self.mate_in
        if moves is None:
            return f"{self.score / PAWN:+.2f}"
        return f"{'win' if moves > 0 else 'loss'} in {abs(moves)}"


class Engine:
    """Searches positions of one variant for the best move."""

    def __init__(self, variant: VariantFace) -> None:
        self.variant = variant
        rules = variant.rules
        self.evaluation = Evaluation(variant)
        # Centipawns per piece code, and what a piece counts as in an
        # exchange of captures on one cell.
        self._value = self.evaluation.value
        self._exchange_value = [ROYAL_EXCHANGE if rules.codes.royal_code[code] else value
                                for code, value in enumerate(self._value)]
        self._worth = self.evaluation.worth
        end = rules.end
        self._move_plies = 2 * end.move_rule if end.move_rule else 0
        self._conditions = bool(end.conditions)
        # Quiescence takes the core's `captures_unchecked` where a move is
        # legal when it leaves the one royal piece (if any) unattacked, or
        # where several royal pieces are the only rule beyond the plain ones
        # (Spartan chess: a move is legal when it leaves the side out of
        # check by the royal rule, `_several_royals`), and a capture is not
        # restricted beyond its generator (nor changed by a capture effect,
        # nor refused for its crossing or by a movement condition, nor one
        # of cells beyond its landing cell); under the other rules it takes
        # them from the legal moves.
        royals = rules.royals
        self._royal_codes = rules.codes.royal_codes
        self._several_royals = not royals.one_royal and not rules.general_beyond_royals \
            and royals.may_give_check and not royals.check_last \
            and all(self._royal_codes[side] for side in range(2))
        self._own_captures = (royals.one_royal or self._several_royals) and not (
            rules.captures.blast or rules.hands.must_drop or rules.first_moves.rule
            or rules.royals.facing_must_break or rules.aims.any or rules.capture_effects.any
            or rules.transfer.any or rules.move_conditions.any or rules.capture_modes.active
            or rules.turns.any)
        # ... and in check too where no move is restricted in check.
        self._own_evasions = self._own_captures and royals.one_royal \
            and rules.codes.check_generators is rules.codes.generators
        # A null move (handing the turn over) tells that a position is good
        # enough without searching its moves, unless moving is a
        # disadvantage: it is tried only with one royal piece, under the
        # plain rules, where passing is no move of the game, and for a side
        # with pieces besides its royal and promoting ones (without them,
        # zugzwang is common).
        self._null_moves = self._own_captures and not any(rules.codes.pass_codes)
        self.info = SearchInfo()
        # The best lines of the last iteration completed (`Limits.multipv`).
        self.lines: list[SearchInfo] = []
        # Kept from one search to the next; `new_game` clears it.  It holds
        # at most `table_entries` positions, and is emptied when full.
        self._tt: dict[Key, TTEntry] = {}
        self.table_entries = TT_LIMIT
        # SKILL_MAX plays at full strength; lower levels see `weakening`.
        self.skill = SKILL_MAX
        self.random = random.Random()
        # Quiet moves that cut the search off, by piece code and cell
        # reached, weighted by the depth; halved at each search.
        self._history = [[0] * rules.board.size for _ in range(rules.codes.n_codes)]
        # The search's state, set by `search`.
        self._position: Position = variant.new_game().position
        self._killers: list[list[InternalMove]] = []
        self._line: set[Key] = set()         # the positions of the current line
        self._game_twice: set[Key] = set()   # positions that occurred twice in the game
        self._game_seen: set[Key] = set()    # ... and those that occurred at all
        self._contempt = 0                   # what a draw costs the side to move at the root
        self._deadline: float | None = None
        self._node_limit = 0
        self._stop: threading.Event | None = None
        self._nodes = 0
        self._root_best: InternalMove | None = None
        # The root moves the iteration may choose from (None: all).
        self._root_moves: set[InternalMove] | None = None
        # Progress of the iteration in progress: its depth, and the root
        # moves searched of those it has.
        self._depth_now = 0
        self._root_searched = 0
        self._root_total = 0

    def new_game(self) -> None:
        """Forget what earlier searches learnt (the transposition table,
        the history of good quiet moves and the scores kept)."""
        self.clear_table()
        self.evaluation.clear()
        for row in self._history:
            row[:] = [0] * len(row)

    def clear_table(self) -> None:
        """Empty the transposition table."""
        self._tt = {}

    @property
    def table_used(self) -> int:
        """Positions the transposition table holds (at most
        `table_entries`)."""
        return len(self._tt)

    @property
    def nodes(self) -> int:
        """Nodes the search in progress (or the last one) has visited."""
        return self._nodes

    @property
    def progress(self) -> tuple[int, int, int]:
        """Where the search in progress is (read from another thread): the
        depth of its iteration, how many of the root moves that iteration
        has searched (in its last pass, for a root searched again), and
        how many it has."""
        return self._depth_now, self._root_searched, self._root_total

    def best_move(self, game: Game, depth: int | None = None,
                  time_limit: float | None = None) -> Move:
        """The best move found searching `depth` plies deep; with
        `time_limit`, deepening until that many seconds have passed (up to
        `depth` if given); with neither, DEFAULT_DEPTH plies.  `self.info`
        describes the search.  The game is left as it was.  Raises
        ValueError when it has no legal move."""
        if depth is not None and depth < 1:
            raise ValueError(f"depth must be at least 1, not {depth}")
        return self.search(game, Limits(depth=depth, movetime=time_limit))

    def search(self, game: Game, limits: Limits, stop: threading.Event | None = None,
               on_info: Callable[[SearchInfo], None] | None = None) -> Move:
        """The best move within `limits`, deepening one ply at a time; the
        best move found so far when `stop` is set or a limit is reached
        (the first move searched when not even one ply completed).
        `on_info` is called after each completed iteration with its depth,
        score, nodes, time and principal variation; `self.info` holds the
        last.  A copy of the game's position is searched.  Raises
        ValueError when the game has no legal move."""
        start = time.perf_counter()
        position = game.position.copy()
        moves = position.legal_internal()
        if not moves:
            raise ValueError("no legal move: the game is over")
        wanted = limits.searchmoves
        restricted = bool(wanted) and wanted is not None \
            and any(position.public_move(m) in wanted for m in moves)
        if restricted and wanted is not None:
            moves = [m for m in moves if position.public_move(m) in wanted]
        self._position = position
        self.info = SearchInfo()
        self.lines = []
        if len(moves) == 1:  # nothing to choose: answer at once
            self.info.pv = [position.public_move(moves[0])]
            self.lines = [self.info]
            return self.info.pv[0]
        weak = weakening(self.skill)
        depth_limit, node_limit = limits.depth, limits.nodes
        if weak is not None:
            depth_limit = min(depth_limit or weak.depth, weak.depth)
            node_limit = min(node_limit or weak.nodes, weak.nodes)
        bounded = depth_limit is not None or node_limit is not None \
            or limits.movetime is not None or limits.clock(position.stm) is not None \
            or limits.byoyomi > 0
        max_depth = min(depth_limit or MAX_DEPTH, MAX_DEPTH) \
            if bounded or limits.infinite else DEFAULT_DEPTH
        budget = time_budget(limits, position.stm)
        whole = spends_whole(limits, position.stm)
        self._deadline = start + budget[1] if budget else None
        self._node_limit = node_limit if node_limit is not None else 1 << 62
        self._stop = stop
        self._killers = [[] for _ in range(MAX_PLY)]
        self._age_history()
        self._line = set()
        self._game_seen, self._game_twice = _played(position)
        self._contempt = CONTEMPT \
            if self.evaluation.evaluate(position) >= CONTEMPT_AHEAD else 0
        self._nodes = 0
        entry = self._tt.get(_key(position))
        best = entry[3] if entry is not None and entry[3] in moves else moves[0]
        wanted_lines = max(1, limits.multipv, weak.lines if weak is not None else 1)
        line_count = min(wanted_lines, len(moves))
        base = len(position.history)
        # Each line's root move and score in the last iteration completed.
        found: list[tuple[int, InternalMove]] = []
        for d in range(1, max_depth + 1):
            latest: list[tuple[int, InternalMove]] = []
            timed_out = False
            try:
                for index in range(line_count):
                    # Line k is the best of the root moves the lines before
                    # it left (all of them for the first, unless restricted).
                    taken = {move for _, move in latest}
                    rest = [m for m in moves if m not in taken]
                    self._root_moves = set(rest) if index or restricted else None
                    self._depth_now, self._root_total = d, len(rest)
                    guess = found[index][0] if index < len(found) else 0
                    score = self._aspirate(d, guess)
                    earlier = found[index][1] if index < len(found) else rest[0]
                    latest.append((score, self._root_best
                                   or (earlier if earlier in rest else rest[0])))
            except _Timeout:  # unwound without unmaking: restore the position
                while len(position.history) > base:
                    position.unmake_internal()
                # The first move searched is the last iteration's best; a
                # move that replaced it was proven better.
                best = latest[0][1] if latest else self._root_best or best
                timed_out = True
            finally:
                self._root_moves = None
            if timed_out:  # (mypyc compiles no `break` inside try/finally)
                break
            # The best first (a line may prove better than the one before it
            # where the pruning of the earlier line cut it short).
            latest.sort(key=_first, reverse=True)
            found = latest
            best = found[0][1]
            elapsed = time.perf_counter() - start
            self.lines = [SearchInfo(d, self._nodes, score, elapsed, self._pv(move, d), k + 1)
                          for k, (score, move) in enumerate(found)]
            self.info = self.lines[0]
            if on_info is not None:
                for line in self.lines:
                    on_info(line)
            if abs(found[0][0]) >= MATE_BOUND:
                break  # no deeper search finds a shorter mate
            if budget and not whole and elapsed > budget[0] / 2:
                # On a clock, time not spent is kept for later moves, and
                # the next ply would likely not finish.  A movetime unspent
                # is lost, while an unfinished ply may still prove a better
                # move: that search runs to its time.
                break
        if weak is not None and len(found) > 1:
            chosen = self._weak_choice(found, weak)
            if chosen != best:
                best = chosen
                shown = position.public_move(best)
                for line in self.lines:
                    if line.pv and line.pv[0] == shown:
                        self.info = line
        self.info.nodes = self._nodes
        self.info.seconds = time.perf_counter() - start
        if not self.info.pv or self.info.pv[0] != position.public_move(best):
            self.info.pv = self._pv(best, max(self.info.depth, 1))
        return position.public_move(best)

    def _weak_choice(self, found: list[tuple[int, InternalMove]],
                     weak: Weakening) -> InternalMove:
        """A weakened engine's move: of the best lines, the one whose score
        plus a random number up to the weakening's margin is highest."""
        noisy = [(score + self.random.randint(0, weak.margin), move)
                 for score, move in found[:weak.lines]]
        return max(noisy, key=_first)[1]

    # -- search ----------------------------------------------------------------
    def _aspirate(self, depth: int, guess: int) -> int:
        """The root searched to `depth`: from ASPIRATION_DEPTH, first in a
        window around the last iteration's score, widened fourfold on the
        side it fails on until the score falls inside."""
        # Cast: the search sets it, which mypy does not see; narrowed to
        # None here, the compiled build would refuse the move it finds.
        self._root_best = cast(InternalMove | None, None)
        self._root_searched = 0
        if depth < ASPIRATION_DEPTH or abs(guess) >= MATE_BOUND:
            return self._negamax(depth, -INFINITY, INFINITY, 0)
        low = high = ASPIRATION
        while True:
            alpha = guess - low if low < MATE_BOUND else -INFINITY
            beta = guess + high if high < MATE_BOUND else INFINITY
            self._root_searched = 0
            score = self._negamax(depth, alpha, beta, 0)
            if score <= alpha:  # no move proved: the last iteration's best stands
                self._root_best = cast(InternalMove | None, None)
                low *= 4
            elif score >= beta:
                high *= 4
            else:
                return score

    def _negamax(self, depth: int, alpha: int, beta: int, ply: int,
                 null_allowed: bool = True) -> int:
        position = self._position
        self._tick()
        key = _key(position)
        if ply and (key in self._line or key in self._game_twice
                    or (self._move_plies and position.halfmove >= self._move_plies)):
            return self._draw(ply)  # a repetition or the move rule
        if ply >= MAX_PLY - 1:
            return self.evaluation.evaluate(self._position)
        in_check = position.is_check()
        if in_check:
            depth += 1  # a check is searched a ply deeper: it may be the start of a mate
        if depth <= 0:
            return self._quiesce(alpha, beta, ply, 0, in_check)
        entry = self._tt.get(key)
        tt_move: InternalMove | None = None
        if entry is not None:
            e_depth, e_score, bound, tt_move = entry
            # A position played before in the game is searched again: its
            # score depends on the way there, as the next move may repeat
            # it a third time, which a stored score from an earlier search
            # does not tell.
            if ply and e_depth >= depth and key not in self._game_seen:
                score = _from_tt(e_score, ply)
                if bound == EXACT or (bound == LOWER and score >= beta) \
                        or (bound == UPPER and score <= alpha):
                    return score
        # Pruning, off the principal variation and out of check only.
        static = -INFINITY
        if beta - alpha == 1 and not in_check and abs(beta) < MATE_BOUND:
            static = self.evaluation.evaluate(self._position)
            if depth <= FUTILITY_DEPTH and static - FUTILITY * depth >= beta:
                return static - FUTILITY * depth  # far above beta: no move will fall below it
            if null_allowed and self._null_moves and depth >= NULL_MIN_DEPTH \
                    and static >= beta and self.evaluation.has_officers(position, position.stm):
                reduction = NULL_REDUCTION + (depth >= 7)
                royal = self._royal_cell(position)
                position.make_internal((royal, royal, 0, PASS, 0))
                score = -self._negamax(depth - 1 - reduction, -beta, -beta + 1, ply + 1, False)
                position.unmake_internal()
                if score >= beta:  # even passing holds: the moves would too
                    return beta if score >= MATE_BOUND else score
        # Quiet moves that cannot raise the evaluation to alpha are skipped
        # near the leaves.
        futile = static > -INFINITY and depth <= 2 and static + FUTILITY * depth <= alpha
        # Late quiet moves are reduced off the principal variation only,
        # and near the leaves left out after the first few.
        reducing = beta - alpha == 1 and depth >= LMR_MIN_DEPTH
        late = LMP_BASE + LMP_SCALE * depth * depth \
            if beta - alpha == 1 and depth <= LMP_DEPTH else MAX_MOVES
        original_alpha, best_score, best_move = alpha, -INFINITY, tt_move
        mover = position.stm
        self._line.add(key)
        killers = self._killers[ply]
        # The moves come in stages, each generated only when the ones before
        # have not cut the search off.
        searched: set[InternalMove] = set()  # in the first two stages
        losing: set[InternalMove] = set()    # captures put off until after the quiet moves
        for stage in range(3):
            tested = stage == 1  # is each move tested for legality when played?
            if stage == 0:
                # The table's move.  It is legal here: the key stands for the
                # whole position, and a position that has legal moves has
                # them whatever the history.
                staged = [] if tt_move is None else [tt_move]
            elif alpha >= beta:
                break
            elif stage == 1:
                # The captures, most valuable victim first, where quiescence
                # makes them too (out of check, in a game not ended).
                # Those that lose material in the exchange on their cell
                # wait until after the quiet moves.
                # Each is judged by the exchange only when its turn comes:
                # after the first cut-off the others are never looked at.
                staged = [] if not self._own_captures or in_check \
                    or self._ended(position) else \
                    [m for m in self._winning(position.captures_unchecked()) if m != tt_move]
            else:
                # Every other legal move, ordered.
                staged = position.legal_internal()
                if not staged:
                    self._line.discard(key)
                    return self._terminal(ply)
                if searched:
                    staged = [m for m in staged if m not in searched]
                self._order(staged, tt_move, killers, losing)
            if not ply and self._root_moves is not None:
                # The root chooses among the moves left to this line.
                staged = [m for m in staged if m in self._root_moves]
            for index, move in enumerate(staged):
                if tested and self._losing(move, self._gain(move)):
                    losing.add(move)
                    continue
                quiet = stage == 2 and not self._gain(move) and move not in killers
                position.make_internal(move)
                if tested and self._left_in_check(position, mover):
                    position.unmake_internal()
                    continue
                if stage < 2:
                    searched.add(move)
                if quiet and (futile or index >= late or (reducing and index >= LMR_AFTER)) \
                        and not in_check and best_score > -MATE_BOUND \
                        and not position.is_check():
                    if futile or index >= late:
                        position.unmake_internal()
                        continue
                    # A late quiet move is searched shallower; if it beats
                    # alpha all the same, at the full depth.
                    reduction = 1 + (index >= 3 * LMR_AFTER)
                    score = self._child(depth - 1 - reduction, alpha, alpha + 1, ply, mover)
                    if score > alpha:
                        score = self._child(depth - 1, alpha, alpha + 1, ply, mover)
                        if alpha < score < beta:
                            score = self._child(depth - 1, alpha, beta, ply, mover)
                elif best_score == -INFINITY:  # the first move: the whole window
                    score = self._child(depth - 1, alpha, beta, ply, mover)
                else:  # a null window proves the others no better, or they are searched again
                    score = self._child(depth - 1, alpha, alpha + 1, ply, mover)
                    if alpha < score < beta:
                        score = self._child(depth - 1, alpha, beta, ply, mover)
                position.unmake_internal()
                if not ply:
                    self._root_searched += 1
                if score > best_score:
                    best_score, best_move = score, move
                    if ply == 0:
                        self._root_best = move
                if score > alpha:
                    alpha = score
                if alpha >= beta:
                    if not self._gain(move):
                        self._remember_quiet(ply, move, depth)
                    break
        self._line.discard(key)
        if ply or self._root_moves is None:  # a root restricted to some moves is no answer
            bound = UPPER if best_score <= original_alpha \
                else LOWER if best_score >= beta else EXACT
            if len(self._tt) >= self.table_entries:
                self._tt.clear()
            self._tt[key] = (depth, _to_tt(best_score, ply), bound, best_move)
        return best_score

    def _child(self, depth: int, alpha: int, beta: int, ply: int, mover: int) -> int:
        """The score, for `mover`, of the move just made, searched to `depth`
        in the window `alpha`..`beta` (`mover`'s view): the sign changes
        only where the side to move does, so a turn of several moves
        (`turns:`) is searched whole, each of its moves a ply."""
        if self._position.stm == mover:
            return self._negamax(depth, alpha, beta, ply + 1)
        return -self._negamax(depth, -beta, -alpha, ply + 1)

    def _quiesce(self, alpha: int, beta: int, ply: int, qdepth: int, in_check: bool) -> int:
        """Stand pat on the evaluation, or try the moves that gain material
        (`in_check`: whether the side to move is in check, which the caller
        has often found already).
        Nothing is generated where the evaluation already fails high, except
        in check, where a mate must be seen: unless the royal piece can step
        to safety, the legal moves.  Elsewhere the captures alone where
        the core's `captures_unchecked` makes them, else the legal moves."""
        position = self._position
        if qdepth:
            self._tick()
        if self._ended(position):
            return self._terminal(ply)
        moves: list[InternalMove] | None = None
        if in_check and not (self._own_evasions and position.royal_can_step()):
            moves = position.legal_internal()
            if not moves:
                return self._terminal(ply)
        stand = self.evaluation.evaluate(self._position)
        if stand >= beta or qdepth >= MAX_QUIESCENCE:
            return stand
        tested = moves is None and self._own_captures  # is each move tested when played?
        if moves is None:
            moves = position.captures_unchecked() if tested else position.legal_internal()
            if not moves and not tested:
                return self._terminal(ply)
        alpha = max(alpha, stand)
        mover = position.stm
        for move in self._winning(moves):
            gain = self._gain(move)
            if stand + gain + DELTA <= alpha:
                continue  # even winning it whole would not bring the score near alpha
            if tested and self._losing(move, gain):
                continue
            position.make_internal(move)
            if tested and self._left_in_check(position, mover):
                position.unmake_internal()
                continue
            if position.stm == mover:   # a turn of several moves goes on
                score = self._quiesce(alpha, beta, ply + 1, qdepth + 1, position.is_check())
            else:
                score = -self._quiesce(-beta, -alpha, ply + 1, qdepth + 1, position.is_check())
            position.unmake_internal()
            if score >= beta:
                return score
            alpha = max(alpha, score)
        return alpha

    def _losing(self, move: InternalMove, gain: int) -> bool:
        """Whether a capture loses material when both sides go on capturing
        on its cell: its piece is worth more than it wins, and the static
        exchange evaluation is below nothing.  Quiescence leaves such
        captures out; the main search tries them after the quiet moves."""
        position = self._position
        frm, _, promo, kind, _ = move
        if promo or kind != NORMAL or self._value[position.cells[frm]] <= gain:
            return False
        return self._exchange(move) < 0

    def _exchange(self, move: InternalMove) -> int:
        """The static exchange evaluation of a plain capture: the material
        the side to move ends with when both sides take turns capturing on
        its cell, each with its least valuable piece there (seen through
        the pieces already gone) and each free to stop, in centipawns.
        Pins are not seen."""
        position = self._position
        frm, to, _, _, _ = move
        cells, value, side_bb = position.cells, self._exchange_value, position.side_bb
        occupied = (side_bb[0] | side_bb[1] | position.walls) & ~(1 << frm)
        # gains[i]: what the side making the i-th capture wins if the
        # exchange stopped right after it, against the one before.
        gains = [value[cells[to]]]
        on_cell = value[cells[frm]]   # the piece liable to be taken next
        side = 1 - position.stm
        while True:
            attackers = position.attackers(to, side, occupied, side_bb[side] & occupied)
            if not attackers:
                break
            cheapest, cheapest_value = 0, INFINITY
            while attackers:
                low = attackers & -attackers
                attackers ^= low
                worth = value[cells[low.bit_length() - 1]]
                if worth < cheapest_value:
                    cheapest, cheapest_value = low, worth
            gains.append(on_cell - gains[-1])
            on_cell = cheapest_value
            occupied &= ~cheapest
            side = 1 - side
        while len(gains) > 1:
            last = gains.pop()
            gains[-1] = min(gains[-1], -last)
        return gains[0]

    def _left_in_check(self, position: Position, mover: int) -> bool:
        """Whether the move just made (of those `captures_unchecked` makes)
        leaves `mover` in check, which makes it illegal: its royal piece
        attacked, or with several royal pieces, as the royal rule says."""
        if self._several_royals:
            return position.side_in_check(mover)
        return position.royal_attacked(mover)

    def _royal_cell(self, position: Position) -> int:
        """A royal piece's cell of the side to move, which a null move is
        written from: with several royal pieces, the first one's."""
        if not self._several_royals:
            return position.royal[position.stm]
        pieces = 0
        for code in self._royal_codes[position.stm]:
            pieces |= position.bb[code]
        return (pieces & -pieces).bit_length() - 1

    def _ended(self, position: Position) -> bool:
        """Whether a declared end condition has ended the game here."""
        return self._conditions and isinstance(position, GeneralPosition) \
            and ended_by_condition(position)

    def _tick(self) -> None:
        self._nodes += 1
        if self._nodes >= self._node_limit:
            raise _Timeout
        if self._nodes % CHECK_EVERY == 0:
            stop = self._stop
            if (stop is not None and stop.is_set()) or (
                    self._deadline is not None and time.perf_counter() > self._deadline):
                raise _Timeout

    def _terminal(self, ply: int) -> int:
        """The score of a position without legal moves, by the variant's rules
        (mate, stalemate, or a declared end condition)."""
        result = outcome(self._position)
        if result is None or result.winner is None:
            return self._draw(ply)
        return (MATE - ply) if result.winner == SIDES[self._position.stm] else -(MATE - ply)

    def _draw(self, ply: int) -> int:
        """A draw's score for the side to move at `ply`: the contempt of the
        side to move at the root, against it."""
        return self._contempt if ply & 1 else -self._contempt

    # -- move ordering ---------------------------------------------------------
    def _winning(self, moves: list[InternalMove]) -> list[InternalMove]:
        """The moves that win material at once, by MVV-LVA.  A capture that
        also puts a wall (`walls:`) comes once, with its first wall: each
        of its dozens of walls would be tried again at every ply."""
        if self._position.walling is not None:
            moves = list({m[:3]: m for m in reversed(moves)}.values())[::-1]
        scored = [(self._mvv_lva(m, gain), m) for m in moves if (gain := self._gain(m)) > 0]
        scored.sort(key=_first, reverse=True)  # stable: generation order breaks ties
        return [m for _, m in scored]

    def _mvv_lva(self, move: InternalMove, gain: int) -> int:
        """Most valuable victim (the gain) first, then least valuable attacker."""
        return (gain << 10) - min(self._value[self._position.cells[move[0]]], 1023)

    def _gain(self, move: InternalMove) -> int:
        """Material a move wins at once: a capture's victim, a suborned
        piece (taken from the opponent and added to us), a promotion."""
        frm, to, promo, kind, extra = move
        cells, value = self._position.cells, self._value
        if kind == DROP:   # the piece only moves from the hand to the board
            return 0
        if kind == SUBORN:
            return 2 * value[cells[to]]
        if kind == TWO_STEP:   # the midway piece, and the end cell's unless it comes back
            return value[cells[extra]] + (value[cells[to]] if to != frm else 0)
        gain = value[cells[extra if kind == EN_PASSANT else to]] \
            if kind not in (CASTLE, PASS, SWAP) else 0
        if promo:
            gain += value[promo] - value[cells[frm]]
        return gain

    def _order(self, moves: list[InternalMove], tt_move: InternalMove | None,
               killers: list[InternalMove], losing: set[InternalMove]) -> None:
        """TT move, then winning material by MVV-LVA, then killers, then the
        rest by their history (how often and how deep they cut the search
        off), then by the placement they gain; the captures that lose in
        the exchange (`losing`) last, by MVV-LVA."""
        cells, worth, history = self._position.cells, self._worth, self._history

        def rank(move: InternalMove) -> int:
            if move == tt_move:
                return 1 << 40
            gain = self._gain(move)
            if gain > 0:
                return (-1 if move in losing else 1) * (1 << 30) + self._mvv_lva(move, gain)
            if move in killers:
                return 1 << 20
            frm, to, _, kind, _ = move
            code = cells[frm]
            if kind > DOUBLE or not worth[code]:  # a royal piece, a drop, castling ...
                return history[code][to] << 8 if kind <= DOUBLE else 0
            placement = worth[code][to] - worth[code][frm]
            return (history[code][to] << 8) + (-placement if code & 1 else placement)

        moves.sort(key=rank, reverse=True)  # stable: generation order breaks ties

    def _remember_quiet(self, ply: int, move: InternalMove, depth: int) -> None:
        """A quiet move cut the search off: a killer at its ply, and
        credit in the history by the square of the depth."""
        killers = self._killers[ply]
        if move not in killers:
            killers.insert(0, move)
            del killers[2:]
        if move[3] > DOUBLE:  # drops, castling ...: only killers
            return
        row = self._history[self._position.cells[move[0]]]
        row[move[1]] = row[move[1]] + depth * depth
        if row[move[1]] > HISTORY_LIMIT:
            self._age_history()

    def _age_history(self) -> None:
        """Halve the history, so recent cut-offs weigh more."""
        for row in self._history:
            row[:] = [h >> 1 for h in row]

    def _pv(self, first: InternalMove, depth: int) -> list[Move]:
        """The principal variation: `first`, then the table's moves while
        legal, `depth` moves at most."""
        position, played = self._position, 0
        pv: list[Move] = []
        move: InternalMove | None = first
        seen: set[Key] = set()
        while move is not None and move in position.legal_internal() \
                and len(pv) < depth:
            pv.append(position.public_move(move))
            position.make_internal(move)
            played += 1
            key = _key(position)
            if key in seen:
                break
            seen.add(key)
            entry = self._tt.get(key)
            move = entry[3] if entry else None
        for _ in range(played):
            position.unmake_internal()
        return pv


def _first(item: tuple[int, InternalMove]) -> int:
    return item[0]


def _key(position: Position) -> Key:
    """The position as the table and the repetition test know it: the
    placement and hands (its hash), counted checks and the like
    (its state key), the side to move, unmoved pieces, en passant."""
    return (position.hash ^ position.state_key(), position.stm, position.unmoved,
            position.ep_target)


def _to_tt(score: int, ply: int) -> int:
    """Mate scores are stored relative to the node, not the root."""
    if score >= MATE_BOUND:
        return score + ply
    if score <= -MATE_BOUND:
        return score - ply
    return score


def _from_tt(score: int, ply: int) -> int:
    if score >= MATE_BOUND:
        return score - ply
    if score <= -MATE_BOUND:
        return score + ply
    return score


def _played(position: Position) -> tuple[set[Key], set[Key]]:
    """Keys of the positions that occurred in the game, the current one
    included, and of those that occurred at least twice: reaching one of
    these again in the search counts as a draw by repetition."""
    counts = Counter([_key(position)])
    replay: list[InternalMove] = []
    while position.history:
        replay.append(position.history[-1][0])
        position.unmake_internal()
        counts[_key(position)] += 1
    for move in reversed(replay):
        position.make_internal(move)
    return set(counts), {key for key, count in counts.items() if count >= 2}
