"""What the brute-force references of tests/rules/ share: the size of a
move tree counted by a reference's own legal moves, to set beside
variantkit's perft."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import TypeVar

import pytest

State = TypeVar("State")
Choice = TypeVar("Choice")


def reference_perft(legal: Callable[[State], Mapping[str, State]], state: State,
                    depth: int) -> int:
    """The leaves of the tree `depth` plies deep from `state`, where
    `legal` gives a state's moves (by their strings) and what each leads to."""
    moves = legal(state)
    if depth == 1:
        return len(moves)
    return sum(reference_perft(legal, after, depth - 1) for after in moves.values())


def leaning_choice(rng: random.Random, moves: Sequence[Choice], rare: Sequence[Choice],
                   share: float) -> Choice:
    """A random move of a seeded random game: with chance `share` one of
    the `rare` moves (castlings, promotions, the rule under test) where
    there are any, so that the games reach the rare cases often."""
    return rng.choice(rare if rare and rng.random() < share else moves)


# The perft depths a reference test compares from the start: 1 to 3 in
# `make test`, 4 under `make oracle`.
PERFT_DEPTHS = [
    pytest.param((1, 2, 3), id="1-3"),
    pytest.param((4,), id="4", marks=pytest.mark.oracle),
]

# The seeded random games a reference test plays against variantkit: a few
# short ones in `make test` (on the compiled build; on the pure build, whose
# perft from the start the same tests compare, under `make oracle`), more
# and longer ones under `make oracle`; each row is the seeds, the plies each
# game may last and the fewest plies the games must play in all (a
# reference that ends games at once tests little).
RANDOM_GAMES = [
    pytest.param(range(4), 80, 200, id="short", marks=pytest.mark.pure_in_oracle),
    pytest.param(range(100, 130), 150, 2000, id="long", marks=pytest.mark.oracle),
]
