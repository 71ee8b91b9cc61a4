"""The example variant files (examples/*.yaml), and Los Alamos chess against
Fairy-Stockfish.

Every example must validate and load as it stands, since the README's tutorial
points at them.  `examples/losalamos.yaml` is written from scratch (no
`inherits`), and pyffish ships the same game as its variant `losalamos`, so
its legal moves are the reference: perft 1-3 from the start, then the legal
move sets, FEN fields and check status along seeded random games.  pyffish
writes moves as variantkit does (`a5a6q` for a promotion), so move strings are
compared unchanged.
"""

from __future__ import annotations

import random
from pathlib import Path

import pyffish
import pytest
from click.testing import CliRunner

import variantkit
from variantkit.cli import cli

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
EXAMPLE_FILES = sorted(EXAMPLES.glob("*.yaml"))
LOSALAMOS_FILE = EXAMPLES / "losalamos.yaml"
LOSALAMOS_START = "rnqknr/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1"
SF = "losalamos"
# Published figures for the Los Alamos start position (Fairy-Stockfish agrees).
START_PERFT = {1: 10, 2: 100, 3: 1212}


def test_there_are_examples_and_los_alamos_is_one() -> None:
    assert LOSALAMOS_FILE in EXAMPLE_FILES


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
    return variantkit.load(LOSALAMOS_FILE)


def test_los_alamos_is_written_from_scratch() -> None:
    text = LOSALAMOS_FILE.read_text(encoding="utf-8")
    assert text.startswith("# yaml-language-server: $schema=../schemas/variant.schema.json\n")
    assert "\ninherits:" not in text


def test_los_alamos_declaration(losalamos: variantkit.Variant) -> None:
    assert losalamos.name == "losalamos"
    assert losalamos.setup_fen == LOSALAMOS_START
    assert pyffish.start_fen(SF) == LOSALAMOS_START
    assert sorted(t.letter for t in losalamos.pieces.types) == ["K", "N", "P", "Q", "R"]
    assert losalamos.castlings == []
    end = losalamos.end
    assert (end.checkmate, end.stalemate, end.repetition, end.move_rule) == (
        "loss", "draw", 3, 50)


def sf_perft(fen: str, moves: list[str], depth: int) -> int:
    legal = pyffish.legal_moves(SF, fen, moves)
    if depth == 1:
        return len(legal)
    return sum(sf_perft(fen, moves + [m], depth - 1) for m in legal)


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_los_alamos_perft_equals_fairy_stockfish(losalamos: variantkit.Variant,
                                                 depth: int) -> None:
    ours = variantkit.perft(losalamos.new_game(), depth)
    assert ours == sf_perft(LOSALAMOS_START, [], depth) == START_PERFT[depth]


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


def our_moves(game: variantkit.Game) -> set[str]:
    moves = [str(m) for m in game.legal_moves()]
    assert len(moves) == len(set(moves)), f"duplicate moves in {game.fen()}"
    return set(moves)


def test_random_games_agree_with_fairy_stockfish(losalamos: variantkit.Variant) -> None:
    rng = random.Random(1956)
    positions = 0
    games = 0
    while positions < 300:
        games += 1
        game = losalamos.new_game()
        played: list[str] = []
        for _ in range(120):
            where = f"game {games}, after {' '.join(played) or 'no moves'}"
            ours = our_moves(game)
            theirs = set(pyffish.legal_moves(SF, LOSALAMOS_START, played))
            assert ours == theirs, (f"legal moves differ in {where}\n"
                                    f"  missing: {sorted(theirs - ours)}\n"
                                    f"  extra: {sorted(ours - theirs)}")
            sf_fen = pyffish.get_fen(SF, LOSALAMOS_START, played).split()
            # Placement, side to move, castling, en passant (always '-').
            assert game.fen().split()[:4] == sf_fen[:4], where
            assert game.is_check() == pyffish.gives_check(SF, LOSALAMOS_START, played), where
            positions += 1
            if not ours:
                assert game.outcome() is not None, where
                break
            move = rng.choice(sorted(ours))
            game.push(move)
            played.append(move)
    assert games >= 3


# --- Capablanca Chess ------------------------------------------------------------

CAPABLANCA_START = "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1"


@pytest.fixture(scope="module")
def capablanca() -> variantkit.Variant:
    return variantkit.load(EXAMPLES / "capablanca.yaml")


def capablanca_perft(moves: list[str], depth: int) -> int:
    legal = pyffish.legal_moves("capablanca", CAPABLANCA_START, moves)
    if depth == 1:
        return len(legal)
    return sum(capablanca_perft(moves + [m], depth - 1) for m in legal)


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_capablanca_perft_equals_fairy_stockfish(capablanca: variantkit.Variant,
                                                 depth: int) -> None:
    assert capablanca.new_game().fen() == CAPABLANCA_START
    assert variantkit.perft(capablanca.new_game(), depth) == capablanca_perft([], depth)


def test_capablanca_random_positions_agree_with_fairy_stockfish(
        capablanca: variantkit.Variant) -> None:
    """Perft 2 from positions along seeded random games, move sets at every ply."""
    rng = random.Random(1921)
    checked = 0
    for _ in range(6):
        game = capablanca.new_game()
        played: list[str] = []
        for ply in range(80):
            ours = our_moves(game)
            assert ours == set(pyffish.legal_moves("capablanca", CAPABLANCA_START, played)), \
                f"after {' '.join(played)}"
            if ply % 20 == 10:
                assert variantkit.perft(game, 2) == capablanca_perft(played, 2), \
                    f"perft 2 after {' '.join(played)}"
                checked += 1
            if not ours:
                break
            move = rng.choice(sorted(ours))
            game.push(move)
            played.append(move)
    assert checked >= 12


def test_make_demo_runs_for_every_bundled_variant() -> None:
    """`make demo` is the README's first step: it must run and cover each variant."""
    import subprocess
    import sys
    result = subprocess.run([sys.executable, str(EXAMPLES / "demo.py")], capture_output=True,
                            text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stderr
    for name in variantkit.variants():
        assert f"{name}: ok" in result.stdout
    assert "Traceback" not in result.stderr
