"""A built-in engine that every variant gets for free.

The search is negamax alpha-beta with iterative deepening, a transposition
table and a bounded quiescence search over captures, suborns and promotions.
Moves are ordered: the transposition table's move first, then captures by
MVV-LVA (most valuable victim, least valuable attacker), then killer moves.

The evaluation is material (the pieces in hand counted as on the board)
plus a small mobility term, from the side to move's view in centipawns.
Drops are searched as any other move; they win no material at once, so
quiescence leaves them out.  Piece values come from the variant's `value:`
keys; a piece without one gets an estimate from its average mobility on the
empty board, on the scale of the pieces that do declare theirs.  Royal pieces
carry no value.  A position without legal moves is scored by the variant's
own `end.checkmate` / `end.stalemate` results; a position that repeats one
of the game or of the current line, or that reaches the move rule, is a draw.

The search only uses the `Game`'s internal make/unmake, so it works on any
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

from variantkit.core.moves import CASTLE, DROP, EN_PASSANT, PASS, SIDES, SUBORN, InternalMove
from variantkit.core.position import Position
from variantkit.game import Game
from variantkit.outcome import outcome
from variantkit.pieces import piece_code
from variantkit.values import Move
from variantkit.variant import Variant

PAWN = 100                  # centipawns
MOBILITY = 4                # centipawns per legal move more than the opponent
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


def mobility_values(variant: Variant) -> dict[str, float]:
    """Each non-royal piece's mean number of cells reached on the empty
    board, over every cell, by all its moves (first-move-only ones aside)."""
    out: dict[str, float] = {}
    size = variant.board.size
    for t in variant.pieces.types:
        if t.royal:
            continue
        code = piece_code(t.index, 0)
        total = sum(variant.empty_board_reach(code, cell, initial=False).bit_count()
                    for cell in range(size))
        out[t.name] = total / size
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
        # Pieces in hand count as material too (variants with `hands` only).
        self._hand_valued = [code for code in self._valued
                             if code in variant.hand_codes[code & 1]] if variant.has_hands else []
        end = variant.end
        self._move_plies = 2 * end.move_rule if end.move_rule else 0
        self.info = SearchInfo()
        # The search's state, set by best_move.
        self._game: Position = variant.new_game().position
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
        self._game = position
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
                score = self._negamax(d, -INFINITY, INFINITY, 0, len(moves))
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
    def _negamax(self, depth: int, alpha: int, beta: int, ply: int, parent_count: int) -> int:
        game = self._game
        self._tick()
        key = (game.hash, game.stm, game.unmoved, game.ep_target)
        if ply and (key in self._seen
                    or (self._move_plies and game.halfmove >= self._move_plies)):
            return 0  # a repetition or the move rule: a draw
        if depth <= 0:
            return self._quiesce(alpha, beta, ply, parent_count, 0)
        entry = self._tt.get(key)
        tt_move: InternalMove | None = None
        if entry is not None:
            e_depth, e_score, bound, tt_move = entry
            if ply and e_depth >= depth:
                score = _from_tt(e_score, ply)
                if bound == EXACT or (bound == LOWER and score >= beta) \
                        or (bound == UPPER and score <= alpha):
                    return score
        moves = game.legal_internal()
        if not moves:
            return self._terminal(ply)
        self._order(moves, tt_move, self._killers[ply])
        count = len(moves)
        original_alpha, best_score, best_move = alpha, -INFINITY, moves[0]
        added = key not in self._seen  # the root may repeat an earlier position
        self._seen.add(key)
        for move in moves:
            game.make_internal(move)
            score = -self._negamax(depth - 1, -beta, -alpha, ply + 1, count)
            game.unmake_internal()
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

    def _quiesce(self, alpha: int, beta: int, ply: int, parent_count: int, qdepth: int) -> int:
        """Stand pat on the evaluation, or try the moves that gain material."""
        game = self._game
        if qdepth:
            self._tick()
        moves = game.legal_internal()
        if not moves:
            return self._terminal(ply)
        count = len(moves)
        stand = self._evaluate(count - parent_count)
        if stand >= beta or qdepth >= MAX_QUIESCENCE:
            return stand
        alpha = max(alpha, stand)
        scored = [(gain, i) for i, m in enumerate(moves) if (gain := self._gain(m)) > 0]
        scored.sort(reverse=True)
        for _, i in scored:
            game.make_internal(moves[i])
            score = -self._quiesce(-beta, -alpha, ply + 1, count, qdepth + 1)
            game.unmake_internal()
            if score >= beta:
                return score
            alpha = max(alpha, score)
        return alpha

    def _tick(self) -> None:
        self._nodes += 1
        if self._deadline is not None and self._nodes & 255 == 0 \
                and time.perf_counter() > self._deadline:
            raise _Timeout

    def _terminal(self, ply: int) -> int:
        """The score of a position without legal moves, by the variant's rules
        (mate, stalemate, or a declared end condition)."""
        result = outcome(self._game)
        if result is None or result.winner is None:
            return 0
        return (MATE - ply) if result.winner == SIDES[self._game.stm] else -(MATE - ply)

    def _evaluate(self, mobility: int) -> int:
        """Material and mobility, in centipawns for the side to move."""
        bb, signed = self._game.bb, self._signed_value
        score = 0
        for code in self._valued:
            if bb[code]:
                score += signed[code] * bb[code].bit_count()
        hands = self._game.hands
        for code in self._hand_valued:
            score += signed[code] * hands[code]
        return (-score if self._game.stm else score) + MOBILITY * mobility

    # -- move ordering ---------------------------------------------------------
    def _gain(self, move: InternalMove) -> int:
        """Material a move wins at once: a capture's victim, a suborned
        piece (taken from the opponent and added to us), a promotion."""
        frm, to, promo, kind, extra = move
        cells, value = self._game.cells, self._value
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
        """TT move, then winning material by MVV-LVA, then killers, then the rest."""
        cells, value = self._game.cells, self._value

        def rank(move: InternalMove) -> int:
            if move == tt_move:
                return 1 << 40
            gain = self._gain(move)
            if gain > 0:
                return (1 << 30) + (gain << 10) - min(value[cells[move[0]]], 1023)
            return 1 << 20 if move in killers else 0

        moves.sort(key=rank, reverse=True)  # stable: generation order breaks ties

    def _remember_killer(self, ply: int, move: InternalMove) -> None:
        killers = self._killers[ply]
        if move not in killers:
            killers.insert(0, move)
            del killers[2:]

    def _pv(self, first: InternalMove) -> list[Move]:
        """The principal variation: `first`, then the table's moves while legal."""
        game, played = self._game, 0
        pv: list[Move] = []
        move: InternalMove | None = first
        seen: set[Key] = set()
        while move is not None and move in game.legal_internal() \
                and len(pv) < max(self.info.depth, 1):
            pv.append(game.public_move(move))
            game.make_internal(move)
            played += 1
            key = (game.hash, game.stm, game.unmoved, game.ep_target)
            if key in seen:
                break
            seen.add(key)
            entry = self._tt.get(key)
            move = entry[3] if entry else None
        for _ in range(played):
            game.unmake_internal()
        return pv


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


def _history_keys(game: Position) -> set[Key]:
    """Keys of the positions played before the current one: reaching one
    again in the search counts as a draw by repetition."""
    keys: set[Key] = set()
    replay: list[InternalMove] = []
    while game.history:
        replay.append(game.history[-1][0])
        game.unmake_internal()
        keys.add((game.hash, game.stm, game.unmoved, game.ep_target))
    for move in reversed(replay):
        game.make_internal(move)
    return keys
