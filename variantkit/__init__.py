"""variantkit: chess variants as YAML files, compiled into fast move generators.

    >>> import variantkit
    >>> game = variantkit.load("chess").new_game()
    >>> len(game.legal_moves())
    20
    >>> variantkit.perft(game, 2)
    400

The pipeline, one module a stage: `loader` (YAML, schema) -> `board` (cell
graph) -> `pieces` (move tables) -> `variant` (rules, assembly) -> `core`
(the position on integers) -> `outcome` (game end) -> `notation` and `san`
(position strings, move strings, standard algebraic notation) -> `game`
(the public `Game`) -> the faces (`cli`, `render`, `engine`, `pgn`, `web`,
`analysis`); docs/architecture.md draws it.
"""

from __future__ import annotations

from variantkit.build import choose_build, running_build

# Before the first compiled module is imported: VARIANTKIT_PURE=1 (or a
# compiled build older than its sources) loads them from their .py files.
choose_build()

from variantkit.core.position import Position
from variantkit.engine import Engine
from variantkit.errors import IllegalMoveError, InvalidFenError, Problem, VariantError
from variantkit.game import Game, Move, Outcome
from variantkit.limits import MAX_PERFT_DEPTH
from variantkit.loader import bundled_names
from variantkit.pgn import PgnError, iter_games, read_games, read_pgn, write_pgn
from variantkit.render import render
from variantkit.variant import Variant, load, load_text

__all__ = [
    "BUILD",
    "Engine", "Game", "IllegalMoveError", "InvalidFenError", "Move", "Outcome", "PgnError",
    "Problem", "Variant", "VariantError", "iter_games", "load", "load_text", "perft",
    "read_games", "read_pgn", "render", "variants", "write_pgn",
]
__version__ = "0.1.0"
# "compiled" when the move generator runs compiled with mypyc, "pure" when it
# runs from its Python sources (docs/build.md).
BUILD = running_build()


def variants() -> list[str]:
    """Names of the bundled variants."""
    return bundled_names()


def perft(game: Game, depth: int) -> int:
    """The number of legal move sequences of `depth` plies from the position
    (1 at depth 0).  A depth that is not an int raises TypeError; one below 0
    or above `limits.MAX_PERFT_DEPTH` raises ValueError.  The game is left in
    its position even when the count is interrupted (Ctrl-C)."""
    if not isinstance(depth, int) or isinstance(depth, bool):
        raise TypeError(f"perft depth must be an int, not {type(depth).__name__}")
    if not 0 <= depth <= MAX_PERFT_DEPTH:
        raise ValueError(f"perft depth must be 0 to {MAX_PERFT_DEPTH}, not {depth}")
    if depth == 0:
        return 1
    return _perft(game.position, depth)


def _perft(position: Position, depth: int) -> int:
    if depth <= 2:   # the last plies in one call, compiled in the compiled build
        return position.count_legal() if depth == 1 else position.count_legal_pairs()
    moves = position.legal_internal()
    nodes = 0
    for move in moves:
        position.make_internal(move)
        try:
            nodes += _perft(position, depth - 1)
        finally:
            position.unmake_internal()
    return nodes
