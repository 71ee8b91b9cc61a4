"""`hands: {drops-fall: s}`: a dropped piece falls to the end of its column,
so only an empty cell above an occupied one, or on the bottom rank, takes a
drop (connect four).  A connect-three game on 5x4 of the project's own,
written both as a variant file and as a Fairy-Stockfish ini section
(`enclosingDrop = top`), is compared with pyffish along its perft tree and
random games; hand-made positions check the rule itself."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pyffish
import pytest
from fsf_oracle import Oracle

import variantkit
from variantkit import Outcome, VariantError

NAME = "vk-falling-three"

INI = f"""
[{NAME}]
maxRank = 4
maxFile = 5
immobile = p
startFen = 5/5/5/5[PPPPPPPPPPpppppppppp] w - - 0 1
pieceDrops = true
enclosingDrop = top
doubleStep = false
castling = false
stalemateValue = draw
immobilityIllegal = false
connectN = 3
nMoveRule = 0
"""

YAML = f"""
variantkit: 1
name: {NAME}
description: Three in a row on 5x4, stones dropped into columns.
board:
  grid: {{files: 5, ranks: 4}}
royals: {{per-side: any}}
hands: {{drops-fall: s}}
pieces:
  stone: {{letter: P, moves: []}}
setup: 5/5/5/5[PPPPPPPPPPpppppppppp] w - - 0 1
end:
  stalemate: draw
  repetition: 3
  draw-timing: on-claim
  conditions:
    - {{in-a-row: 3, result: win}}
"""


@dataclass
class FileOracle(Oracle):
    """The oracle for a variant file that pyffish knows from an ini section."""

    path: Path = Path()

    def __post_init__(self) -> None:
        self.variant = variantkit.load(self.path)
        self.start_fen = pyffish.get_fen(self.name, pyffish.start_fen(self.name), [])


@pytest.fixture(scope="module")
def oracle(tmp_path_factory: pytest.TempPathFactory) -> FileOracle:
    pyffish.load_variant_config(INI)
    path = tmp_path_factory.mktemp("falls") / f"{NAME}.yaml"
    path.write_text(YAML)
    return FileOracle(NAME, path=path)


def drops(oracle: FileOracle, fen: str) -> set[str]:
    return {str(m) for m in oracle.variant.new_game(fen).legal_moves()}


def test_the_perft_tree_equals_pyffish(oracle: FileOracle) -> None:
    assert oracle.walk(3) == 5 * 5 * 5


def test_random_games_equal_pyffish(oracle: FileOracle) -> None:
    results = oracle.random_games(games=6, max_plies=20, seed=1)
    assert any(r is not None and r.reason == "in-a-row" for r in results)


def test_a_drop_lands_on_the_bottom_rank_or_on_a_piece(oracle: FileOracle) -> None:
    fen = "5/5/p4/P1P2[PPPPPPPpppppppp] w - - 0 1"
    assert drops(oracle, fen) == {"P@a3", "P@b1", "P@c2", "P@d1", "P@e1"}
    # A full column takes nothing; a piece standing over an empty cell (read
    # from a position string) is a floor too, as Fairy-Stockfish reads it.
    fen = "P4/p4/P4/p1p2[PPPPPPpppppp] w - - 0 1"
    assert drops(oracle, fen) == {"P@b1", "P@c2", "P@d1", "P@e1"}
    fen = "5/1P3/5/5[PPPPPPPPPpppppppppp] b - - 0 1"
    assert drops(oracle, fen) == {"P@a1", "P@b1", "P@b4", "P@c1", "P@d1", "P@e1"}
    oracle.walk(1, fen)   # and so does pyffish


def test_three_stacked_in_a_column_win(oracle: FileOracle) -> None:
    game = oracle.variant.new_game("5/5/P4/Pp3[PPPPPPPPpppppppp] w - - 0 1")
    game.push("P@a3")
    assert game.outcome() == Outcome("white", "in-a-row")


def test_a_fall_needs_one_direction() -> None:
    with pytest.raises(VariantError, match="drops fall in one direction"):
        variantkit.load_text(YAML.replace("drops-fall: s", "drops-fall: orthogonal"))
