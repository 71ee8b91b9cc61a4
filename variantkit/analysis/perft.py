"""Perft on a cluster: the tree is cut into move prefixes (the root moves,
or deeper when there are too few of them for the workers), each prefix is
counted on a worker from the position string, and the counts are summed
exactly per first move.  Where a turn has several moves (`turns:`), depth
counts whole turns: a prefix is counted the turns it leaves to play.
"""

from __future__ import annotations

from collections.abc import Callable

import variantkit
from variantkit.analysis.cluster import Cluster, Lost
from variantkit.analysis.payload import compiled, variant_text
from variantkit.game import Game, depth_below

TASKS_PER_WORKER = 4    # enough pieces that a slow subtree does not keep the others waiting

Prefix = tuple[str, ...]


class PerftIncomplete(Exception):
    """A part of the tree could not be counted, so there is no exact total."""


def split(game: Game, depth: int, parts: int) -> list[Prefix]:
    """Move prefixes whose subtrees together make the tree `depth` plies deep:
    one level deeper while there are fewer than `parts` and a ply is left
    below them.  Prefixes are in move-string order."""
    prefixes: list[Prefix] = [()]
    while len(prefixes) < parts and len(prefixes[0]) < depth - 1:
        deeper: list[Prefix] = []
        for prefix in prefixes:
            for move in prefix:
                game.push(move)
            deeper += [prefix + (str(m),) for m in sorted(game.legal_moves(), key=str)]
            for _ in prefix:
                game.pop()
        if not deeper:
            break
        prefixes = deeper
    return prefixes


def count_below(text: str, fen: str, prefix: Prefix, depth: int) -> int:
    """A worker's task: perft `depth` below the moves of `prefix` from `fen`."""
    game = compiled(text).new_game(fen)
    for move in prefix:
        game.push(move)
    return variantkit.perft(game, depth)


def distributed_perft(game: Game, depth: int, cluster: Cluster,
                      done: Callable[[int, int], None] | None = None) -> dict[str, int]:
    """The perft count below each legal move of `game`, counted on the
    cluster; `done(finished, total)` is told of each finished task."""
    prefixes = split(game, depth, TASKS_PER_WORKER * max(cluster.workers, 1))
    moves = sorted(str(m) for m in game.legal_moves())
    if prefixes == [()]:  # depth 1, or no legal move: nothing to share out
        return {move: _count_here(game, move, depth) for move in moves}
    counts = dict.fromkeys(moves, 0)
    fen = game.fen()
    arguments = [(fen, prefix, depth_below(game, prefix, depth)) for prefix in prefixes]
    for finished, (index, result) in enumerate(
            cluster.run(count_below, variant_text(game.variant), arguments), 1):
        if isinstance(result, Lost):
            line = " ".join(prefixes[index])
            raise PerftIncomplete(f"the count below {line} was lost: {result.reason}")
        counts[prefixes[index][0]] += result
        if done is not None:
            done(finished, len(prefixes))
    return counts


def _count_here(game: Game, move: str, depth: int) -> int:
    """Perft below one move, counted here: 1 at depth 1, unless the move
    leaves its turn going on (`turns:`)."""
    left = depth_below(game, (move,), depth)
    if not left:
        return 1
    game.push(move)
    try:
        return variantkit.perft(game, left)
    finally:
        game.pop()
