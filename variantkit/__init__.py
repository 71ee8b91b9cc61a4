"""variantkit: chess variants as YAML files, compiled into fast move generators.

    >>> import variantkit
    >>> game = variantkit.load("chess").new_game()
    >>> len(game.legal_moves())
    20
    >>> variantkit.perft(game, 2)
    400

The pipeline, one module a stage: `loader` (YAML, schema) -> `board` (cell
graph) -> `pieces` (move tables) -> `rulebook` (one module per rule family)
-> `rules` (the compiled rules, assembled) -> `core` (the position on
integers) -> `outcome` (game end) -> `notation` and `san` (position
strings, move strings, standard algebraic notation) -> `svg` and `display`
(drawings) -> `game` (the public `Game`) -> `variant` (the public
`Variant`) -> the faces (`cli`, `engine`, `pgn`, `web`, `analysis`, ...);
docs/architecture.md draws it.

The names below are imported when first used (PEP 562), so that importing
the package alone is quick: the `variantkit` command starts by importing it,
and a Ctrl-C in its first moments must find the command's own handler ready
(cli/__init__.py), not a half-imported library.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from variantkit.compiled import choose_build

# Before the first compiled module is imported: VARIANTKIT_PURE=1 (or a
# compiled build older than its sources) loads them from their .py files.
choose_build()

if TYPE_CHECKING:
    from variantkit.drawing.svg import render
    from variantkit.engine.search import Engine
    from variantkit.errors import IllegalMoveError, InvalidFenError, Problem, VariantError
    from variantkit.game import Game, Move, Outcome, perft
    from variantkit.pair import Pair, load_pair
    from variantkit.pgn import PgnError, iter_games, read_games, read_pgn, write_pgn
    from variantkit.variant import Variant, load, load_text

# Each public name and the module that defines it.
_HOMES = {
    "Position": "variantkit.core.position",
    "Engine": "variantkit.engine.search",
    **dict.fromkeys(["IllegalMoveError", "InvalidFenError", "Problem", "VariantError"],
                    "variantkit.errors"),
    **dict.fromkeys(["Game", "Move", "Outcome", "perft"], "variantkit.game"),
    **dict.fromkeys(["PgnError", "iter_games", "read_games", "read_pgn", "write_pgn"],
                    "variantkit.pgn"),
    **dict.fromkeys(["Pair", "load_pair"], "variantkit.pair"),
    "render": "variantkit.drawing.svg",
    **dict.fromkeys(["Variant", "load", "load_text"], "variantkit.variant"),
}

__all__ = [
    "BUILD",
    "Engine", "Game", "IllegalMoveError", "InvalidFenError", "Move", "Outcome", "Pair",
    "PgnError", "Problem", "Variant", "VariantError", "iter_games", "load", "load_pair",
    "load_text", "perft", "read_games", "read_pgn", "render", "variants", "write_pgn",
]
__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    if name == "BUILD":
        # "compiled" when the move generator runs compiled with mypyc, "pure"
        # when it runs from its Python sources (docs/build.md).
        from variantkit.compiled import MOVE_GENERATOR, running_build
        importlib.import_module(MOVE_GENERATOR)
        return running_build()
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'variantkit' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


def variants() -> list[str]:
    """Names of the bundled variants."""
    from variantkit.loader import bundled_names
    return bundled_names()
