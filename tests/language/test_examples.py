"""The example variant files (examples/*.yaml), the tutorial's Los Alamos
chess, and `make demo`.

Every example must validate and load as it stands, since the README points
at them.  Los Alamos chess, the tutorial's worked example, is bundled
(`variants/losalamos.yaml`) under Fairy-Stockfish's name, so
`tests/fsf/test_fsf_catalogue.py` compares it with pyffish; here are the
tutorial's own claims about it.
"""

from __future__ import annotations

from pathlib import Path

import pyffish
import pytest
from click.testing import CliRunner

import variantkit
from variantkit.cli import cli
from variantkit.loader import bundled_dir

EXAMPLES = Path(__file__).resolve().parent.parent.parent / "examples"
EXAMPLE_FILES = sorted(EXAMPLES.glob("*.yaml"))
LOSALAMOS_FILE = bundled_dir() / "losalamos.yaml"
LOSALAMOS_START = "rnqknr/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1"
SF = "losalamos"
# The tutorial's figures for the Los Alamos start position.
START_PERFT = {1: 10, 2: 100, 3: 1212}


def test_there_are_examples() -> None:
    assert EXAMPLE_FILES


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda p: p.name)
def test_example_validates_and_loads(path: Path) -> None:
    result = CliRunner().invoke(cli, ["validate", str(path)])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == f"{path}: ok"
    variant = variantkit.load(path)
    assert variant.problems == []
    game = variant.new_game()
    assert game.fen() == variant.setup_fen
    assert game.legal_moves(), f"{path.name}: no legal move in the start position"


# --- Los Alamos chess ------------------------------------------------------------


@pytest.fixture(scope="module")
def losalamos() -> variantkit.Variant:
    return variantkit.load("losalamos")


def test_los_alamos_is_written_from_scratch() -> None:
    text = LOSALAMOS_FILE.read_text(encoding="utf-8")
    assert text.startswith("# yaml-language-server: $schema=../schemas/variant.schema.json\n")
    assert "\ninherits:" not in text


def test_los_alamos_declaration(losalamos: variantkit.Variant) -> None:
    assert losalamos.name == "losalamos"
    assert losalamos.setup_fen == LOSALAMOS_START
    assert pyffish.start_fen(SF) == LOSALAMOS_START
    assert sorted(t.letter for t in losalamos.pieces.types) == ["K", "N", "P", "Q", "R"]
    assert losalamos.rules.castling.castlings == []
    end = losalamos.rules.end
    assert (end.checkmate, end.stalemate, end.repetition, end.move_rule) == (
        "loss", "draw", 3, 50)


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_los_alamos_perft_is_the_tutorials(losalamos: variantkit.Variant, depth: int) -> None:
    assert variantkit.perft(losalamos.new_game(), depth) == START_PERFT[depth]


def test_no_double_step_no_castling_and_three_promotions(losalamos: variantkit.Variant) -> None:
    game = losalamos.new_game()
    assert "a2a4" not in {str(m) for m in game.legal_moves()}
    # A white pawn on b5: b6 is free, black knights stand on a6 and c6.
    game = losalamos.new_game("n1n1k1/1P4/6/6/6/3K2 w - - 0 1")
    promotions = sorted(str(m) for m in game.legal_moves() if m.from_cell == "b5")
    assert promotions == ["b5a6n", "b5a6q", "b5a6r", "b5b6n", "b5b6q", "b5b6r",
                          "b5c6n", "b5c6q", "b5c6r"]
    assert promotions == sorted(
        m for m in pyffish.legal_moves(SF, game.fen(), []) if m.startswith("b5"))


def test_make_demo_runs_and_shows_a_few_variants() -> None:
    """`make demo` is the README's first step: it must run, show a few games
    and point at the rest."""
    import subprocess
    import sys
    result = subprocess.run([sys.executable, str(EXAMPLES / "demo.py")], capture_output=True,
                            text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stderr
    shown = [name for name in variantkit.variants() if f"\n{name}: ok" in result.stdout]
    assert 2 <= len(shown) <= 6, shown
    assert "variantkit list" in result.stdout
    assert "Traceback" not in result.stderr
