"""Betza notation: pieces written as `betza: "RN"` compile to the same
primitives, and so the same moves, as the `moves` lists they stand for."""

from __future__ import annotations

import copy
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pyffish
import pytest
import yaml
from click.testing import CliRunner
from positions import placement

import variantkit
from variantkit.betza import expand, moves_of
from variantkit.cli import cli
from variantkit.errors import DeclarationError
from variantkit.loader import load_document

ROOT = Path(__file__).resolve().parent.parent.parent
CHESS = "chess"  # the bundled variant
STANDARD = {"king": "K", "queen": "Q", "rook": "R", "bishop": "B", "knight": "N"}
PAWN = "fmWifmnDfceF"  # `e`: en passant, as Fairy-Stockfish writes its pawn


def test_standard_pieces_expand_to_the_chess_primitives() -> None:
    pieces = load_document("chess").data["pieces"]
    for name, betza in STANDARD.items():
        assert expand(betza) == pieces[name]["moves"], name
    assert expand(PAWN) == pieces["pawn"]["moves"]
    assert expand("RN") == [{"ride": "orthogonal"}, {"leap": [1, 2]}]
    assert expand("BN") == [{"ride": "diagonal"}, {"leap": [1, 2]}]
    assert moves_of({"betza": "BN"}) == expand("BN")
    assert moves_of(pieces["rook"]) == pieces["rook"]["moves"]


@pytest.mark.parametrize(("betza", "moves"), [
    ("fW", [{"step": "forward"}]),
    ("bF", [{"step": "backward-diagonal"}]),
    ("lW", [{"step": [-1, 0]}]),
    ("vW", [{"step": ["forward", "backward"]}]),
    ("fsW", [{"step": ["forward", "sideways"]}]),
    ("fK", [{"step": ["forward", "forward-diagonal"]}]),
    ("W3", [{"ride": "orthogonal", "range": 3}]),
    ("W1", [{"step": "orthogonal"}]),
    ("RR", [{"ride": "orthogonal"}]),
    ("NN", [{"ride": [[2, 1], [2, -1], [1, 2], [1, -2], [-1, 2], [-1, -2], [-2, 1], [-2, -1]]}]),
    ("fN2", [{"ride": [[1, 2], [-1, 2]], "range": 2}]),
    ("D", [{"leap": [0, 2]}]),
    ("ffN", [{"leap": [[1, 2], [-1, 2]]}]),
    ("fsN", [{"leap": [[2, 1], [-2, 1]]}]),
    ("frN", [{"leap": [[2, 1]]}]),          # Fairy-Stockfish: fr is the flat one
    ("rfN", [{"leap": [[1, 2]]}]),
    ("nA", [{"ride": "diagonal", "range": [2, 2]}]),
    ("ifmW2", [{"ride": "forward", "range": 2, "only": "move", "initial": True,
                "en-passant": "target"}]),
    # Fairy-Stockfish has no initial captures: `i` is a move only.
    ("iK", [{"step": "all", "only": "move", "initial": True}]),
    ("imA", [{"leap": [2, 2], "only": "move", "initial": True}]),
    # h: halves; fh the forward half, hl the leaps turning one way.
    ("fhN", [{"leap": [[2, 1], [1, 2], [-1, 2], [-2, 1]]}]),
    ("rhN", [{"leap": [[2, 1], [2, -1], [1, 2], [1, -2]]}]),
    ("hlN", [{"leap": [[2, 1], [1, -2], [-1, 2], [-2, -1]]}]),
    ("hrN", [{"leap": [[2, -1], [1, 2], [-1, -2], [-2, 1]]}]),
    ("fhW", [{"step": "forward"}]),          # split like fsW: fh = f and h
    ("W0", [{"ride": "orthogonal"}]),        # a range of 0 is no limit
    # A hopper's limit is how far from its start it lands (cannon shogi's pR2).
    ("pR2", [{"hop": "orthogonal", "range": 2}]),
    ("fmWfceF", [{"step": "forward", "only": "move"},
                 {"step": "forward-diagonal", "only": "capture", "en-passant": "capture"}]),
    ("mRcB", [{"ride": "orthogonal", "only": "move"}, {"ride": "diagonal", "only": "capture"}]),
    ("mcW", [{"step": "orthogonal"}]),
    ("", []),
])
def test_expansion(betza: str, moves: list[dict[str, Any]]) -> None:
    assert expand(betza) == moves


# -- whole games: Betza pieces against the YAML ones ------------------------------

def write_variant(tmp_path: Path, base: str, betza: dict[str, str]) -> variantkit.Variant:
    """`base` (fully merged, so without `inherits`) with some pieces'
    `moves` replaced by `betza` strings."""
    data = copy.deepcopy(load_document(base).data)
    data.pop("inherits", None)
    for name, text in betza.items():
        data["pieces"][name].pop("moves")
        data["pieces"][name]["betza"] = text
    path = tmp_path / f"{base}-{'-'.join(sorted(betza.values()))}.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return variantkit.load(str(path))


def moves_of_game(game: variantkit.Game) -> set[str]:
    return {str(m) for m in game.legal_moves()}


def assert_same_games(ours: variantkit.Variant, reference: variantkit.Variant,
                      seed: int, positions: int = 400) -> None:
    rng = random.Random(seed)
    seen = 0
    while seen < positions:
        a, b = ours.new_game(), reference.new_game()
        for _ in range(100):
            moves = moves_of_game(a)
            assert moves == moves_of_game(b), a.fen()
            seen += 1
            if not moves:
                break
            move = rng.choice(sorted(moves))
            a.push(move)
            b.push(move)


def test_chess_with_betza_pieces_plays_chess(tmp_path: Path) -> None:
    chess = variantkit.load("chess")
    betza = write_variant(tmp_path, "chess", STANDARD)
    for depth in (1, 2, 3):
        assert variantkit.perft(betza.new_game(), depth) == variantkit.perft(chess.new_game(),
                                                                             depth)
    assert_same_games(betza, chess, seed=1)


def test_betza_pawn_is_the_pawn(tmp_path: Path) -> None:
    chess = variantkit.load("chess")
    betza = write_variant(tmp_path, "chess", {**STANDARD, "pawn": PAWN})
    assert variantkit.perft(betza.new_game(), 3) == variantkit.perft(chess.new_game(), 3)
    assert_same_games(betza, chess, seed=2)
    fen = "4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1"
    for variant in (betza, chess):
        game = variant.new_game(fen)
        game.push("e2e4")
        assert "d4e3" in moves_of_game(game)


def test_without_e_the_pawn_takes_nothing_en_passant(tmp_path: Path) -> None:
    betza = write_variant(tmp_path, "chess", {**STANDARD, "pawn": "fmWifmnDfcF"})
    game = betza.new_game("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1")
    game.push("e2e4")
    assert moves_of_game(game) >= {"d4d3"} and "d4e3" not in moves_of_game(game)


def test_trice_chancellor_and_archbishop(tmp_path: Path) -> None:
    trice = variantkit.load("trice")
    betza = write_variant(tmp_path, "trice", {**STANDARD, "chancellor": "RN",
                                              "archbishop": "BN"})
    assert variantkit.perft(betza.new_game(), 2) == variantkit.perft(trice.new_game(), 2) == 784
    assert_same_games(betza, trice, seed=3, positions=300)


# -- single pieces on a small board ----------------------------------------------

def one_piece(tmp_path: Path, betza: str, setup: str | None = None) -> variantkit.Variant:
    path = tmp_path / "piece.yaml"
    path.write_text(f"""\
variantkit: 1
name: one-piece
inherits: {CHESS}
pieces:
  tester: {{letter: T, betza: "{betza}"}}
""" + (f"setup: {setup}\ncastling: []\n" if setup else ""))
    return variantkit.load(str(path))


def reach(variant: variantkit.Variant, letter: str, cell: str, initial: bool = True) -> set[str]:
    code = variant.code_of_letter(letter)
    assert code is not None
    bits = variant.empty_board_reach(code, variant.board.cell(cell), initial=initial)
    return {name for i, name in enumerate(variant.board.names) if bits >> i & 1}


@pytest.mark.parametrize(("betza", "white", "black"), [
    ("fW", {"d5"}, {"d3"}),
    ("bF", {"c3", "e3"}, {"c5", "e5"}),
    ("sW", {"c4", "e4"}, {"c4", "e4"}),
    # Vectors are mirrored in the rank only: left is the a-file side for both.
    ("lW", {"c4"}, {"c4"}),
    ("frN", {"f5"}, {"f3"}),
    ("ffN", {"c6", "e6"}, {"c2", "e2"}),
    ("W3", {"d1", "d2", "d3", "d5", "d6", "d7", "a4", "b4", "c4", "e4", "f4", "g4"},
     {"d1", "d2", "d3", "d5", "d6", "d7", "a4", "b4", "c4", "e4", "f4", "g4"}),
    ("fN2", {"c6", "e6", "b8", "f8"}, {"c2", "e2"}),
    ("ifmnD", {"d6"}, {"d2"}),
])
def test_directions_and_ranges_on_the_empty_board(tmp_path: Path, betza: str, white: set[str],
                                                  black: set[str]) -> None:
    variant = one_piece(tmp_path, betza)
    assert reach(variant, "T", "d4") == white
    assert reach(variant, "t", "d4") == black


def test_modes_and_initial_moves(tmp_path: Path) -> None:
    variant = one_piece(tmp_path, "mWcFifmW2", setup="4k3/8/8/8/8/8/3T4/4K3 w - - 0 1")
    game = variant.new_game()
    # On its setup cell the piece also has its initial move-only double step.
    assert {m for m in moves_of_game(game) if m.startswith("d2")} == \
        {"d2d1", "d2c2", "d2e2", "d2d3", "d2d4"}
    fen = placement(variant, {"e1": "K", "e8": "k", "d4": "T", "c5": "p", "d5": "p", "e3": "P"})
    moves = {m for m in moves_of_game(variant.new_game(fen + " w - - 0 1"))
             if m.startswith("d4")}
    # mW: not onto d5 (occupied); cF: only c5; ifmW2: not on its setup cell.
    assert moves == {"d4d3", "d4c4", "d4e4", "d4c5"}
    diagonals = {"c3", "c5", "e3", "e5"}
    assert reach(variant, "T", "d4", initial=False) == {"d3", "d5", "c4", "e4"} | diagonals
    assert reach(variant, "T", "d4") == {"d3", "d5", "d6", "c4", "e4"} | diagonals


# -- errors -------------------------------------------------------------------------

@pytest.mark.parametrize(("betza", "part"), [
    ("pN", "'pN': p (hopper) goes with a rider"),
    ("nK", "'nK'"),
    ("feF", "e (en passant) needs a capture-only move"),
    ("icW", "'icW': i (initial) moves never capture"),
    ("hN", "'hN' selects no direction"),
    ("jN", "'j'"),
    ("Rx", "unknown letter 'x'"),
    ("fm", "modifiers at the end without an atom"),
    ("gQ3", "'gQ3': a grasshopper limited in range is not supported"),
    ("vsN", "'vsN' selects no direction"),
    # Only 0-9 give a range: `²` made int() fail, `٣` int() reads as 3.
    ("W²", "'²': a range is one of the digits 0 to 9, right after its atom"),
    ("N⁹", "'⁹': a range is one of the digits 0 to 9"),
    ("W٣", "'٣': a range is one of the digits 0 to 9"),
    ("²W", "'²': a range is one of the digits 0 to 9"),
])
def test_unsupported_notation_is_refused(betza: str, part: str) -> None:
    with pytest.raises(DeclarationError) as info:
        expand(betza)
    assert info.value.rule == "bad-betza"
    assert part in info.value.message and betza in info.value.message


def test_bad_betza_is_reported_at_its_value(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(f"""\
variantkit: 1
name: bad
inherits: {CHESS}
pieces:
  cannon: {{letter: X, betza: mRcpN}}
""")
    result = CliRunner().invoke(cli, ["validate", str(path)])
    assert result.exit_code == 1
    assert f"{path}:5:30: [error] betza 'mRcpN': 'pN': p (hopper) goes with a rider" \
        in result.output
    assert result.output.rstrip().endswith("^")
    assert "(bad-betza)" in result.output


def test_another_scripts_digit_is_a_located_error_in_every_command(tmp_path: Path) -> None:
    path = tmp_path / "digit.yaml"
    path.write_text(f"variantkit: 1\nname: digit\ninherits: {CHESS}\npieces:\n"
                    "  wazir: {letter: Y, betza: W²}\n", encoding="utf-8")
    for words in (["validate", str(path)], ["betza", "W²"], ["betza", "N٣"]):
        done = subprocess.run([sys.executable, "-m", "variantkit", *words], capture_output=True,
                              text=True, timeout=60, check=False)
        assert done.returncode == 1, words
        assert "a range is one of the digits 0 to 9" in done.stdout + done.stderr, words
        assert "Traceback" not in done.stderr and "internal error" not in done.stderr, words
    done = subprocess.run([sys.executable, "-m", "variantkit", "validate", str(path)],
                          capture_output=True, text=True, timeout=60, check=False)
    assert f"{path}:5:" in done.stdout + done.stderr


def piece_problems(tmp_path: Path, parent: str, piece: str) -> set[tuple[Any, str]]:
    path = tmp_path / "piece.yaml"
    path.write_text(f"variantkit: 1\nname: x\ninherits: {parent}\npieces:\n  {piece}\n")
    with pytest.raises(variantkit.VariantError) as info:
        variantkit.load(str(path))
    return {(p.path, p.rule) for p in info.value.problems}


def test_betza_needs_a_grid(tmp_path: Path) -> None:
    # A variant inherits files in its own folder: a copy of the example.
    (tmp_path / "glinski.yaml").write_text(
        (ROOT / "examples" / "glinski.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    assert piece_problems(tmp_path, "glinski.yaml", "wazir: {letter: W, betza: W}") == \
        {(("pieces", "wazir", "betza"), "bad-betza")}


def test_a_piece_has_exactly_one_of_moves_and_betza(tmp_path: Path) -> None:
    both = "both: {letter: Y, betza: W, moves: [{step: all}]}"
    assert piece_problems(tmp_path, CHESS, both) == {(("pieces", "both"), "schema")}
    assert piece_problems(tmp_path, CHESS, "none: {letter: Y}") == {(("pieces", "none"), "schema")}


# -- Fairy-Stockfish custom pieces --------------------------------------------------

# (variant name, {letter: betza}, start position, extra YAML): each set of
# pieces plays random games against the same Betza strings given to
# Fairy-Stockfish.
SF_PIECE_SETS = [
    ("betzatest", {"A": "NN", "C": "B2ND", "D": "fsWvN", "E": "mQcN"},
     "racqkder/pppppppp/8/8/8/8/PPPPPPPP/RACQKDER w KQkq - 0 1", ""),
    # Hoppers and lame leapers: the cannons, the grasshoppers, xiangqi's horse
    # and janggi's elephant.
    ("hoppertest", {"A": "mRcpR", "C": "pR", "D": "gQ", "E": "nN", "F": "nZ", "G": "gB"},
     "racdkegr/ppfppfpp/8/8/8/8/PPFPPFPP/RACDKEGR w KQkq - 0 1", ""),
    # Hoppers limited in range (cannon shogi's mBpBmWpR2 and mRpRmFpB2).
    ("limitedhoppers", {"A": "pR2", "C": "mBpBmWpR2", "D": "mRpRmFpB2", "E": "pQ3"},
     "racdkedr/pppppppp/8/8/8/8/PPPPPPPP/RACDKEDR w KQkq - 0 1", ""),
    # h (half): Gethenian's hlN, Khans' mfhNcfW, Xhess's fhmnN; hlN and hrN
    # are not left-right symmetric, so Black is turned as Fairy-Stockfish
    # turns it.
    ("halftest", {"A": "hlN", "C": "hrN", "D": "mfhNcfW", "E": "mfWcfFfhmnN", "F": "lhNrhB2",
                  "G": "bhNfhW"},
     "racdkegr/ppfppfpp/8/8/8/8/PPFPPFPP/RACDKEGR w KQkq - 0 1",
     "sides:\n  white: {forward: n}\n  black: {forward: s, turned: true}\n"),
    # e (en passant) and i (initial moves, never captures): pawns written
    # in Betza; A also steps sideways, C's first move goes one or two cells
    # (pieces that never come back to their start rank: Fairy-Stockfish ties
    # `i` to that rank).
    ("passanttest", {"P": "fmWfceFifmnD", "A": "fsmWfceF", "C": "fmWfceFifmW2"},
     "rnbqkbnr/paapcppp/8/8/8/8/PAAPCPPP/RNBQKBNR w KQkq - 0 1", ""),
]


@pytest.mark.parametrize(("name", "pieces", "start", "extra"), SF_PIECE_SETS)
def test_custom_pieces_move_as_in_fairy_stockfish(tmp_path: Path, name: str,
                                                  pieces: dict[str, str], start: str,
                                                  extra: str) -> None:
    custom = {letter: betza for letter, betza in pieces.items() if letter != "P"}
    pyffish.load_variant_config(f"[{name}:chess]\n" + "".join(
        f"customPiece{i} = {letter.lower()}:{betza}\n"
        for i, (letter, betza) in enumerate(custom.items(), 1)) + f"startFen = {start}\n")
    path = tmp_path / "custom.yaml"
    path.write_text(f"variantkit: 1\nname: {name}\ninherits: {CHESS}\npieces:\n" + "".join(
        f"  p{letter.lower()}: {{letter: {letter}, betza: {betza}}}\n"
        for letter, betza in custom.items()) + "".join(
        f"  pawn: {{letter: P, betza: {betza}}}\n"
        for letter, betza in pieces.items() if letter == "P") + f"setup: {start}\n" + extra)
    variant = variantkit.load(str(path))
    rng = random.Random(4)
    for _ in range(4):
        game, played = variant.new_game(), []
        for _ in range(60):
            moves = moves_of_game(game)
            assert moves == set(pyffish.legal_moves(name, start, played)), game.fen()
            assert game.is_check() == pyffish.gives_check(name, start, played), game.fen()
            if not moves:
                break
            move = rng.choice(sorted(moves))
            game.push(move)
            played.append(move)
