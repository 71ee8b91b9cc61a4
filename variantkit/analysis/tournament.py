"""Self-play tournaments: one engine plays both sides of each game, the
built-in one by default, or an external engine (`uci:PATH`, `xboard:PATH`,
`usi:PATH`) that each game starts on its worker.

Game `i` of a run with seed `S` is a pure function of the variant, the
settings and its seed `S/i`: its first plies are random legal moves drawn
from `random.Random("S/i")` (so that games differ), the engine plays the
rest at a fixed depth.  So the games, and every figure made from them, do
not depend on how many workers played them or in which order.  (A time
limit per move instead of a depth makes the engine's choices depend on the
machine's speed and load, and so the games too; an external engine plays
by time, so its games depend on them too.)  An external engine that
resigns, runs out of time or plays an illegal move loses the game, with that
termination; one that cannot be started loses it as a lost game.

Each game is one task; what it sends back is a `GameRecord`, a few lists of
numbers and names per ply.  A game that raises comes back as a record with
the error and the moves played until then.
"""

from __future__ import annotations

import random
import traceback
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

from variantkit.analysis.cluster import Cluster, Lost
from variantkit.analysis.payload import compiled, variant_text
from variantkit.engine.search import Engine
from variantkit.errors import IllegalMoveError
from variantkit.game import Game
from variantkit.protocols.driver import RESIGN, Claim, Clock, ExternalEngine
from variantkit.public_types import SIDES, Move
from variantkit.variant import Variant

MOVE_LIMIT = "move-limit"   # the termination of a game stopped at --max-plies (a draw)
LOST = "lost"               # the termination of a game that raised or whose worker died
BUILTIN = "builtin"         # the engine setting of the built-in engine
# Seconds an external engine may take past its time per move (the pipes' delay).
GRACE = 0.5


@dataclass(frozen=True)
class Settings:
    """How the games of a tournament are played."""

    games: int
    depth: int | None = 2
    time: float | None = None
    random_plies: int = 4
    max_plies: int = 300
    seed: int = 0
    engine: str = BUILTIN   # or an external engine: uci:PATH, xboard:PATH, usi:PATH

    def game_seed(self, index: int) -> str:
        return f"{self.seed}/{index}"


@dataclass
class GameRecord:
    """What one game sends back.  Lists with one entry per ply hold, for the
    position before that ply: the number of legal moves, the type of the
    piece moved, and the type of the enemy piece it removed (or converted)
    or None.  `material` holds, for each position after the random opening,
    White's count minus Black's count of each non-royal piece type."""

    index: int
    seed: str
    moves: list[str] = field(default_factory=list)
    winner: str | None = None
    termination: str = MOVE_LIMIT
    branching: list[int] = field(default_factory=list)
    movers: list[str] = field(default_factory=list)
    captured: list[str | None] = field(default_factory=list)
    material: list[list[int]] = field(default_factory=list)
    first_side: str = "white"
    error: str | None = None

    @property
    def lost(self) -> bool:
        return self.termination == LOST


def material_types(variant: Variant) -> list[str]:
    """The piece types whose material is counted: the non-royal ones."""
    return [t.name for t in variant.pieces.types if not t.royal]


def _material(game: Game, type_of_letter: dict[str, str]) -> Counter[tuple[str, str]]:
    """(side, piece type) -> how many there are."""
    count: Counter[tuple[str, str]] = Counter()
    for cell in game.variant.board.names:
        letter = game.piece_at(cell)
        if letter is not None:
            count["white" if letter.isupper() else "black", type_of_letter[letter.upper()]] += 1
    return count


def play_game(text: str, index: int, settings: Settings) -> GameRecord:
    """A worker's task: game `index` of the tournament, from its seed."""
    record = GameRecord(index, settings.game_seed(index))
    try:
        _play(compiled(text), settings, record)
    except Exception as exc:  # reported with the game's seed and moves, never lost silently
        record.termination, record.winner = LOST, None
        where = traceback.extract_tb(exc.__traceback__)[-1]
        record.error = f"{type(exc).__name__}: {exc} (at {where.filename}:{where.lineno})"
    return record


def _play(variant: Variant, settings: Settings, record: GameRecord) -> None:
    if settings.engine == BUILTIN:
        _play_with(variant, settings, record, None)
        return
    external = ExternalEngine(settings.engine)
    try:
        external.new_game(variant)
        _play_with(variant, settings, record, external)
    finally:
        external.close()


def _external_move(game: Game, external: ExternalEngine, seconds: float,
                   record: GameRecord) -> Move | None:
    """The external engine's move, or None when it lost the game by it
    (recorded: resignation, time forfeit or an illegal move)."""
    try:
        text = external.move(game, Clock(movetime=seconds), seconds + GRACE)
        if isinstance(text, Claim):
            # A result claimed where the game goes on (every end the rules
            # give has ended it already) forfeits, as under XBoard.
            raise ValueError(f"false claim {text.token}")
        if text is not None and text != RESIGN:
            move = game.push(text)
            game.pop()
            return move
    except (IllegalMoveError, ValueError):   # UnreadableMove too: no move of the protocol
        record.termination = "illegal-move"
    else:
        record.termination = "resignation" if text == RESIGN else "time-forfeit"
    record.winner = SIDES[1 - SIDES.index(game.turn)]
    return None


def _play_with(variant: Variant, settings: Settings, record: GameRecord,
               external: ExternalEngine | None) -> None:
    game = variant.new_game()
    record.first_side = game.turn
    rng = random.Random(record.seed)
    engine = Engine(variant)
    type_of_letter = {t.letter.upper(): t.name for t in variant.pieces.types}
    counted = material_types(variant)
    material = _material(game, type_of_letter)
    while True:
        legal = sorted(game.legal_moves(), key=str)
        outcome = game.outcome()
        if outcome is not None:
            record.winner, record.termination = outcome.winner, outcome.reason
            return
        if game.plies >= settings.max_plies:
            return
        if game.plies >= settings.random_plies:
            if external is None:
                move = engine.best_move(game, depth=settings.depth, time_limit=settings.time)
            else:
                assert settings.time is not None  # the command asks for one
                found = _external_move(game, external, settings.time, record)
                if found is None:
                    return
                move = found
            record.material.append([material["white", name] - material["black", name]
                                    for name in counted])
        else:
            move = rng.choice(legal)
        enemy = SIDES[1 - SIDES.index(game.turn)]
        record.branching.append(len(legal))
        record.movers.append(type_of_letter[(game.piece_at(move.from_cell) or "?").upper()])
        game.push(move)
        record.moves.append(str(move))
        after = _material(game, type_of_letter)
        record.captured.append(next((name for (side, name), n in material.items()
                                     if side == enemy and after[side, name] < n), None))
        material = after


def lost_record(index: int, settings: Settings, reason: str) -> GameRecord:
    """The record of a game whose worker never sent it back."""
    return GameRecord(index, settings.game_seed(index), termination=LOST, error=reason)


def tournament(variant: Variant, settings: Settings,
               cluster: Cluster) -> Iterator[GameRecord]:
    """The games of the tournament as they finish (in any order)."""
    arguments = [(index, settings) for index in range(settings.games)]
    for index, result in cluster.run(play_game, variant_text(variant), arguments):
        yield lost_record(index, settings, result.reason) if isinstance(result, Lost) else result
