"""The `connected` end condition: a side joins its two regions with a chain
of its pieces, each a step from the one before along the `lines`
directions.  tests/data/fsf/boards.ini holds such games against pyffish."""

from __future__ import annotations

import pytest

import variantkit
from variantkit import Outcome, VariantError

# Not run again on the pure build (tests/conftest.py): the boards.ini
# sections run the condition against pyffish on both builds.
PURE_PASS = False

CHAINS = """\
variantkit: 1
name: chains
inherits: chess
board:
  regions:
    west: {files: [a]}
    east: {files: [h]}
end:
  conditions:
    - connected: {white: [west, east], black: [east, west]}
      pieces: [pawn]
      %s
      result: win
"""


def game(lines: str, fen: str) -> variantkit.Game:
    return variantkit.load_text(CHAINS % lines, "chains.yaml").new_game(fen)


# White's pawns from a2 east to d2, up to d4, back west to b4, up to b6
# and east to h6: a chain that turns back west.
TURNING = "4k3/8/1PPPPPPP/1P6/1PPP4/3P4/PPPP4/4K3 b - - 0 1"
# A chain from a2 to h6 stepping only north and east.
STAIRS = "4k3/8/7P/4PPPP/4P3/PPPPP3/8/4K3 b - - 0 1"


def test_a_chain_of_pawns_joining_the_regions_wins() -> None:
    assert game("", STAIRS).outcome() == Outcome("white", "connected")
    assert game("lines: [e, n]", STAIRS).outcome() == Outcome("white", "connected")


def test_a_chain_steps_only_along_the_lines_directions() -> None:
    # Every direction: the chain turning back west joins the files.
    assert game("", TURNING).outcome() == Outcome("white", "connected")
    # North and east only: from a2 the chain cannot step back west.
    assert game("lines: [e, n]", TURNING).outcome() is None


def test_a_broken_chain_or_other_pieces_do_not_join() -> None:
    broken = "4k3/8/8/8/8/8/PPP1PPPP/4K3 b - - 0 1"
    assert game("", broken).outcome() is None
    knights = "4k3/8/8/8/8/8/NNNNNNNN/4K3 b - - 0 1"
    assert game("", knights).outcome() is None


def test_a_bad_region_is_located() -> None:
    text = (CHAINS % "").replace("[west, east], black", "[west, nowhere], black")
    with pytest.raises(VariantError) as error:
        variantkit.load_text(text, "chains.yaml")
    [problem] = error.value.problems
    assert (problem.line, problem.path, problem.message) == \
        (10, ("end", "conditions", 0, "connected", "white", 1), "unknown region 'nowhere'")


def test_its_regions_count_as_used() -> None:
    assert variantkit.load_text(CHAINS % "", "chains.yaml").problems == []
