"""A built-in engine that every variant gets for free.

The search is negamax alpha-beta with iterative deepening, principal
variation search (null windows for all moves but the first), a
transposition table and a bounded quiescence search over captures, suborns
and promotions.  Moves come in stages, each generated only when the one
before has not cut the search off: the transposition table's move; the
captures by MVV-LVA (most valuable victim, least valuable attacker), made
alone where a move's legality is its royal piece's safety (the core's
`captures_unchecked`);
then the other legal moves, killer moves first, the others by the
placement they gain.

The evaluation is material (the pieces in hand counted as on the board)
plus a placement term: each piece's reach on the empty board from its cell,
a static stand-in for mobility that needs no move generation, so that a
quiescence node whose evaluation already fails high generates no move at
all.  Scores are from the side to move's view in centipawns.  Drops are
searched as any other move; they win no material at once, so quiescence
leaves them out.  Piece values come from the variant's `value:`
keys; a piece without one gets an estimate from its average mobility on the
empty board, on the scale of the pieces that do declare theirs.  Royal pieces
carry no value.  A position without legal moves is scored by the variant's
own `end.checkmate` / `end.stalemate` results; a position that repeats one
of the game or of the current line, or that reaches the move rule, is a draw.

The search only uses the core position's make/unmake, so it works on any
variant; for a given position and depth it is deterministic.

    >>> import variantkit
    >>> from variantkit.engine import Engine
    >>> game = variantkit.load("chess").new_game()
    >>> move = Engine(game.variant).best_move(game, depth=2)
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import cast

from variantkit.core.conditions import ended_by_condition
from variantkit.core.general import GeneralPosition
from variantkit.core.moves import (
    CASTLE,
    DOUBLE,
    DROP,
    EN_PASSANT,
    PASS,
    SIDES,
    SUBORN,
    InternalMove,
)
from variantkit.core.position import Position
from variantkit.game import Game
from variantkit.outcome import outcome
from variantkit.pieces import piece_code
from variantkit.values import Move
from variantkit.variant import Variant

PAWN = 100                  # centipawns
# Centipawns per cell a piece reaches on the empty board from where it
# stands: half of what a legal move was worth when mobility was counted
# move by move, as the empty board offers about twice the moves of a
# crowded one.
PLACEMENT = 2
MATE = 1_000_000            # a mate at ply p scores MATE - p
MATE_BOUND = MATE - 10_000  # scores beyond this are mates
INFINITY = 2 * MATE
DEFAULT_DEPTH = 3
MAX_DEPTH = 64
MAX_QUIESCENCE = 6          # plies of captures after the nominal depth
TT_LIMIT = 1 << 20          # entries; the table is cleared when full
# Pawn-ish units per cell reached on the empty board, for estimated values
# when no piece of the variant declares one (the chess pieces give about 0.4).
MOBILITY_SCALE = 0.4
EXACT, LOWER, UPPER = range(3)

TTEntry = tuple[int, int, int, InternalMove | None]   # depth, score, bound, move
Key = tuple[int, int, int, int]


class _Timeout(Exception):
    """Raised inside the search when the time limit has passed."""


@dataclass
class SearchInfo:
    """What the last search found: the depth completed, the nodes visited
    (quiescence included), the score in centipawns for the side to move,
    the seconds spent and the principal variation."""

    depth: int = 0
    nodes: int = 0
    score: int = 0
    seconds: float = 0.0
    pv: list[Move] = field(default_factory=list)

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0

    @property
    def score_text(self) -> str:
        """`+0.35` (pawns), or a forced end by the variant's rules (checkmate,
        or stalemate where it wins or loses): `win in 2`, `loss in 1` (moves)."""
        if abs(self.score) < MATE_BOUND:
            return f"{self.score / PAWN:+.2f}"
        moves = (MATE - abs(self.score) + 1) // 2
        return f"{'win' if self.score > 0 else 'loss'} in {moves}"


def reach_counts(variant: Variant, code: int) -> list[int]:
    """How many cells a piece (by code) reaches on the empty board from each
    cell, by all its moves (first-move-only ones aside)."""
    return [variant.empty_board_reach(code, cell, initial=False).bit_count()
            for cell in range(variant.board.size)]


def mobility_values(variant: Variant) -> dict[str, float]:
    """Each non-royal piece's mean number of cells reached on the empty
    board, over every cell."""
    out: dict[str, float] = {}
    for t in variant.pieces.types:
        if not t.royal:
            counts = reach_counts(variant, piece_code(t.index, 0))
            out[t.name] = sum(counts) / len(counts)
    return out


def piece_values(variant: Variant) -> dict[str, float]:
    """Each non-royal piece's value in pawns: declared, or estimated from its
    mobility on the scale of the declared values."""
    mobility = mobility_values(variant)
    declared = {t.name: float(t.value) for t in variant.pieces.types
                if not t.royal and t.value is not None}
    reached = sum(mobility[name] for name in declared)
    scale = sum(declared.values()) / reached if declared and reached else MOBILITY_SCALE
    return {name: declared.get(name, round(m * scale, 2)) for name, m in mobility.items()}


class Engine:
    """Searches positions of one variant for the best move."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.values = piece_values(variant)
        n_codes = variant.n_codes
        # Centipawns per piece code, unsigned and signed (White positive).
        self._value = [0] * n_codes
        for t in variant.pieces.types:
            for side in range(2):
                self._value[piece_code(t.index, side)] = round(self.values.get(t.name, 0) * PAWN)
        self._signed_value = [v if code & 1 == 0 else -v for code, v in enumerate(self._value)]
        self._valued = [code for code in range(2, n_codes) if self._value[code]]
        # Signed centipawns of a piece of each valued code on each cell: its
        # value and its placement.
        self._worth: list[list[int]] = [[] for _ in range(n_codes)]
        for code in self._valued:
            sign = -1 if code & 1 else 1
            self._worth[code] = [sign * (self._value[code] + PLACEMENT * count)
                                 for count in reach_counts(variant, code)]
        # Pieces in hand count as material too (variants with `hands` only).
        self._hand_valued = [code for code in self._valued
                             if code in variant.hand_codes[code & 1]] if variant.has_hands else []
        end = variant.end
        self._move_plies = 2 * end.move_rule if end.move_rule else 0
        self._conditions = bool(end.conditions)
        # Quiescence takes the core's `captures_unchecked` where a move is
        # legal when it leaves the one royal piece (if any) unattacked and
        # a capture is not restricted beyond its generator; under the other
        # rules it takes them from the legal moves.
        self._own_captures = variant.one_royal and not (
            variant.blast or variant.must_drop or variant.first_move_rule
            or variant.facing_must_break or variant.aims)
        # ... and in check too where no move is restricted in check.
        self._own_evasions = self._own_captures \
            and variant.check_generators is variant.generators
        self.info = SearchInfo()
        # The search's state, set by best_move.
        self._position: Position = variant.new_game().position
        self._tt: dict[Key, TTEntry] = {}
        self._killers: list[list[InternalMove]] = []
        self._seen: set[Key] = set()
        self._deadline: float | None = None
        self._nodes = 0
        self._root_best: InternalMove | None = None

    def best_move(self, game: Game, depth: int | None = None,
                  time_limit: float | None = None) -> Move:
        """The best move found searching `depth` plies deep; with
        `time_limit`, deepening until that many seconds have passed (up to
        `depth` if given; one ply always completes); with neither,
        DEFAULT_DEPTH plies.  `self.info` describes the search.  The game is
        left as it was.  Raises ValueError when it has no legal move."""
        position = game.position
        moves = position.legal_internal()
        if not moves:
            raise ValueError("no legal move: the game is over")
        if depth is not None and depth < 1:
            raise ValueError(f"depth must be at least 1, not {depth}")
        max_depth = depth or (MAX_DEPTH if time_limit else DEFAULT_DEPTH)
        start = time.perf_counter()
        self._position = position
        self._tt = {}
        self._killers = [[] for _ in range(max_depth)]
        self._seen = _history_keys(position)
        self._nodes = 0
        self.info = SearchInfo()
        best, base = moves[0], len(position.history)
        for d in range(1, max_depth + 1):
            # The first ply always completes, so there is always a move.
            self._deadline = start + time_limit if time_limit and d > 1 else None
            # Cast: the search sets it, which mypy does not see; narrowed to
            # None here, the compiled build would refuse the move it finds.
            self._root_best = cast(InternalMove | None, None)
            try:
                score = self._negamax(d, -INFINITY, INFINITY, 0)
            except _Timeout:  # unwound without unmaking: restore the position
                while len(position.history) > base:
                    position.unmake_internal()
                break
            best = self._root_best or best
            self.info.depth, self.info.score = d, score
            if abs(score) >= MATE_BOUND:
                break  # no deeper search finds a shorter mate
            if time_limit and time.perf_counter() - start > time_limit / 2:
                break  # the next ply would not finish in time
        self.info.nodes = self._nodes
        self.info.seconds = time.perf_counter() - start
        self.info.pv = self._pv(best)
        return position.public_move(best)

    # -- search ----------------------------------------------------------------
    def _negamax(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        position = self._position
        self._tick()
        key = _key(position)
        if ply and (key in self._seen
                    or (self._move_plies and position.halfmove >= self._move_plies)):
            return 0  # a repetition or the move rule: a draw
        if depth <= 0:
            return self._quiesce(alpha, beta, ply, 0)
        entry = self._tt.get(key)
        tt_move: InternalMove | None = None
        if entry is not None:
            e_depth, e_score, bound, tt_move = entry
            if ply and e_depth >= depth:
                score = _from_tt(e_score, ply)
                if bound == EXACT or (bound == LOWER and score >= beta) \
                        or (bound == UPPER and score <= alpha):
                    return score
        original_alpha, best_score, best_move = alpha, -INFINITY, tt_move
        added = key not in self._seen  # the root may repeat an earlier position
        self._seen.add(key)
        # The moves come in stages, each generated only when the ones before
        # have not cut the search off.
        searched: set[InternalMove] = set()  # in the first two stages
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
                staged = [] if not self._own_captures or position.is_check() \
                    or self._ended(position) else \
                    [m for m in self._winning(position.captures_unchecked()) if m != tt_move]
            else:
                # Every other legal move, ordered.
                staged = position.legal_internal()
                if not staged:
                    if added:
                        self._seen.discard(key)
                    return self._terminal(ply)
                self._order(staged, tt_move, self._killers[ply])
                if searched:
                    staged = [m for m in staged if m not in searched]
            for move in staged:
                position.make_internal(move)
                if tested and position.royal_attacked(1 - position.stm):
                    position.unmake_internal()
                    continue
                if stage < 2:
                    searched.add(move)
                if best_score == -INFINITY:  # the first move: the whole window
                    score = -self._negamax(depth - 1, -beta, -alpha, ply + 1)
                else:  # a null window proves the others no better, or they are searched again
                    score = -self._negamax(depth - 1, -alpha - 1, -alpha, ply + 1)
                    if alpha < score < beta:
                        score = -self._negamax(depth - 1, -beta, -alpha, ply + 1)
                position.unmake_internal()
                if score > best_score:
                    best_score, best_move = score, move
                    if ply == 0:
                        self._root_best = move
                if score > alpha:
                    alpha = score
                if alpha >= beta:
                    if not self._gain(move):
                        self._remember_killer(ply, move)
                    break
        if added:
            self._seen.discard(key)
        bound = UPPER if best_score <= original_alpha else LOWER if best_score >= beta else EXACT
        if len(self._tt) >= TT_LIMIT:
            self._tt.clear()
        self._tt[key] = (depth, _to_tt(best_score, ply), bound, best_move)
        return best_score

    def _quiesce(self, alpha: int, beta: int, ply: int, qdepth: int) -> int:
        """Stand pat on the evaluation, or try the moves that gain material.
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
        if position.is_check() and not (self._own_evasions and position.royal_can_step()):
            moves = position.legal_internal()
            if not moves:
                return self._terminal(ply)
        stand = self._evaluate()
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
            position.make_internal(move)
            if tested and position.royal_attacked(mover):
                position.unmake_internal()
                continue
            score = -self._quiesce(-beta, -alpha, ply + 1, qdepth + 1)
            position.unmake_internal()
            if score >= beta:
                return score
            alpha = max(alpha, score)
        return alpha

    def _ended(self, position: Position) -> bool:
        """Whether a declared end condition has ended the game here."""
        return self._conditions and isinstance(position, GeneralPosition) \
            and ended_by_condition(position)

    def _tick(self) -> None:
        self._nodes += 1
        if self._deadline is not None and self._nodes & 255 == 0 \
                and time.perf_counter() > self._deadline:
            raise _Timeout

    def _terminal(self, ply: int) -> int:
        """The score of a position without legal moves, by the variant's rules
        (mate, stalemate, or a declared end condition)."""
        result = outcome(self._position)
        if result is None or result.winner is None:
            return 0
        return (MATE - ply) if result.winner == SIDES[self._position.stm] else -(MATE - ply)

    def _evaluate(self) -> int:
        """Material and placement, in centipawns for the side to move."""
        position, worth = self._position, self._worth
        bb = position.bb
        score = 0
        for code in self._valued:
            pieces = bb[code]
            if pieces:
                cell_worth = worth[code]
                while pieces:
                    low = pieces & -pieces
                    score += cell_worth[low.bit_length() - 1]
                    pieces ^= low
        hands, signed = position.hands, self._signed_value
        for code in self._hand_valued:
            score += signed[code] * hands[code]
        return -score if position.stm else score

    # -- move ordering ---------------------------------------------------------
    def _winning(self, moves: list[InternalMove]) -> list[InternalMove]:
        """The moves that win material at once, by MVV-LVA."""
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
        gain = value[cells[extra if kind == EN_PASSANT else to]] \
            if kind not in (CASTLE, PASS) else 0
        if promo:
            gain += value[promo] - value[cells[frm]]
        return gain

    def _order(self, moves: list[InternalMove], tt_move: InternalMove | None,
               killers: list[InternalMove]) -> None:
        """TT move, then winning material by MVV-LVA, then killers, then the
        rest by the placement they gain (the best quiet move first makes
        the later ones fail low on the evaluation, without generating the
        replies in quiescence)."""
        cells, worth = self._position.cells, self._worth

        def rank(move: InternalMove) -> int:
            if move == tt_move:
                return 1 << 40
            gain = self._gain(move)
            if gain > 0:
                return (1 << 30) + self._mvv_lva(move, gain)
            if move in killers:
                return 1 << 20
            frm, to, _, kind, _ = move
            code = cells[frm]
            if kind > DOUBLE or not worth[code]:  # a royal piece, a drop, castling ...
                return 0
            placement = worth[code][to] - worth[code][frm]
            return -placement if code & 1 else placement

        moves.sort(key=rank, reverse=True)  # stable: generation order breaks ties

    def _remember_killer(self, ply: int, move: InternalMove) -> None:
        killers = self._killers[ply]
        if move not in killers:
            killers.insert(0, move)
            del killers[2:]

    def _pv(self, first: InternalMove) -> list[Move]:
        """The principal variation: `first`, then the table's moves while legal."""
        position, played = self._position, 0
        pv: list[Move] = []
        move: InternalMove | None = first
        seen: set[Key] = set()
        while move is not None and move in position.legal_internal() \
                and len(pv) < max(self.info.depth, 1):
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


def _history_keys(position: Position) -> set[Key]:
    """Keys of the positions played before the current one: reaching one
    again in the search counts as a draw by repetition."""
    keys: set[Key] = set()
    replay: list[InternalMove] = []
    while position.history:
        replay.append(position.history[-1][0])
        position.unmake_internal()
        keys.add(_key(position))
    for move in reversed(replay):
        position.make_internal(move)
    return keys
