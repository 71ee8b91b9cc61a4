"""Hoppers (`hop`), with their Betza forms `p` and `g`: the moves they make on
small positions, the pieces they may not pass or take, and check detection
read backwards from the same tables.  (The Betza hoppers against
Fairy-Stockfish: tests/language/test_betza.py.)"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from positions import placement

import variantkit
from variantkit.betza import expand
from variantkit.errors import DeclarationError
from variantkit.game import Game
from variantkit.pieces import CAPTURE, flags_of, reach

ROOT = Path(__file__).resolve().parent.parent.parent
CHESS = "chess"  # the bundled variant


def moves_from(game: Game, cell: str) -> set[str]:
    return {str(m)[len(cell):] for m in game.legal_moves() if str(m).startswith(cell)}


def position(variant: variantkit.Variant, pieces: dict[str, str], side: str = "w") -> Game:
    return variant.new_game(f"{placement(variant, pieces)} {side} - - 0 1")


def test_xiangqi_cannon_rides_to_move_and_hops_to_capture() -> None:
    xiangqi = variantkit.load("xiangqi")
    game = position(xiangqi, {"e1": "K", "d10": "k", "b3": "C", "b6": "P", "b8": "n",
                              "b9": "r", "e3": "p"})
    # Up the file: b4, b5 (empty), then the soldier on b6 is the screen, the
    # horse on b8 the first piece beyond it (a capture); b7 is past the screen.
    # Along the rank: a3, c3, d3 empty; e3 is a piece but there is no screen before it.
    assert moves_from(game, "b3") == {"b4", "b5", "b8", "b2", "b1", "a3", "c3", "d3"}


def test_janggi_cannon_never_passes_or_takes_a_cannon() -> None:
    janggi = variantkit.load("janggicasual")
    pieces = {"e2": "K", "e9": "k", "b1": "C", "b3": "p", "b5": "C", "b7": "c", "h1": "c",
              "d1": "A"}
    game = position(janggi, pieces)
    # Up the b-file: over the soldier on b3 to b4 (the cannon on b5 ends the
    # line and may not be taken).  Along rank 1: the advisor on d1 is the
    # screen: e1, f1, g1, and not the cannon on h1.
    assert moves_from(game, "b1") == {"b4", "e1", "f1", "g1"}
    # The cannon on b5 may not use the cannon on b7 as a screen, so it has
    # no move up the file; down it hops the soldier on b3 to b2 (b1 is a cannon).
    assert {m for m in moves_from(game, "b5") if m[0] == "b"} == {"b2"}


def test_grasshopper_lands_just_behind_the_piece_it_jumps() -> None:
    grasshopper = variantkit.load("grasshopper")
    game = position(grasshopper, {"h1": "K", "h8": "k", "d4": "G", "d6": "p", "f6": "P",
                                  "b4": "n", "a4": "r", "d2": "P"})
    # North: over d6 to d7.  NE: over f6 to g7.  West: over b4 onto a4 (a capture).
    # South: d2 is the hurdle, d1 behind it.  No hurdle east, SE, SW or NW.
    assert moves_from(game, "d4") == {"d7", "g7", "a4", "d1"}


def two_screen_variant(tmp_path: Path) -> variantkit.Variant:
    path = tmp_path / "screens.yaml"
    path.write_text(f"""\
variantkit: 1
name: screens
inherits: {CHESS}
pieces:
  vaulter:
    letter: V
    moves:
      - hop: orthogonal
        screens: 2
        beyond: 2
        cannot-hop: [knight]
        cannot-capture: [queen]
  locust:
    letter: L
    moves:
      - path: [[n, n, ne], [e, se]]
setup: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RVBLKBVR w - - 0 1
castling: []
""")
    return variantkit.load(str(path))


def test_the_general_hop_counts_screens_and_limits_the_landing(tmp_path: Path) -> None:
    variant = two_screen_variant(tmp_path)
    game = position(variant, {"a1": "K", "h8": "k", "a3": "V", "a4": "P", "a6": "p",
                              "a7": "q", "c3": "n", "e3": "P", "f3": "p"})
    # North: screens a4 and a6, then a7 holds a queen it may not take, so
    # nothing.  East: the knight on c3 may not be a screen: no move.
    assert moves_from(game, "a3") == set()
    game = position(variant, {"a1": "K", "h8": "k", "a3": "V", "a4": "P", "a6": "p",
                              "c3": "P", "e3": "P", "h3": "r"})
    # North: a7 and a8, at most two cells past the second screen.  East: c3
    # and e3 are the screens; f3 and g3 are within two cells, h3 is not.
    assert moves_from(game, "a3") == {"a7", "a8", "f3", "g3"}


def test_check_read_backwards_equals_the_moves_generated_forwards(tmp_path: Path) -> None:
    """Check read backwards from the tables agrees with the moves generated
    forwards, for hoppers with screens, limited landings and barred screens."""
    variant = two_screen_variant(tmp_path)
    rng = random.Random(5)
    checked = 0
    for _ in range(12):
        game = variant.new_game()
        position = game.position
        for _ in range(80):
            us, them = position.stm, 1 - position.stm
            occupied = position.side_bb[0] | position.side_bb[1]
            king = position.royal[us]
            forward = False
            for frm in range(variant.board.size):
                code = position.cells[frm]
                if not code or code & 1 != them:
                    continue
                for g in variant.rules.codes.generators[code]:
                    if not g.mode & CAPTURE or (g.initial and not position.unmoved >> frm & 1):
                        continue
                    reached = reach(g.tables[frm], occupied) if g.limits is None else \
                        position._limited_reach(g.tables[frm], occupied, position.side_bb[us],
                                                g.limits, 0)[0]
                    forward |= bool(reached >> king & 1)
            assert game.is_check() == forward, game.fen()
            checked += forward
            moves = game.legal_moves()
            if not moves:
                break
            game.push(rng.choice(moves))
    assert checked  # the walk met some checks


def test_hopper_modifiers_need_a_hop() -> None:
    with pytest.raises(DeclarationError) as info:
        flags_of({"ride": "orthogonal", "beyond": 1}, {})
    assert info.value.rule == "hop-modifier"
    with pytest.raises(DeclarationError) as info:
        flags_of({"hop": "orthogonal", "range": [2, 3]}, {})
    assert info.value.rule == "hop-modifier"
    assert flags_of({"hop": "orthogonal", "range": 3}, {}).hop is not None
    with pytest.raises(DeclarationError) as info:
        flags_of({"hop": "orthogonal", "cannot-capture": ["king"]}, {"king": 0}, frozenset({0}))
    assert info.value.rule == "cannot-capture-royal"


# -- Betza p and g ----------------------------------------------------------------

@pytest.mark.parametrize(("betza", "moves"), [
    ("mRcpR", [{"ride": "orthogonal", "only": "move"}, {"hop": "orthogonal", "only": "capture"}]),
    ("pR", [{"hop": "orthogonal"}]),
    ("gQ", [{"hop": "all", "beyond": 1}]),
    ("gB", [{"hop": "diagonal", "beyond": 1}]),
    ("fpWW", [{"hop": "forward"}]),
])
def test_hoppers_in_betza(betza: str, moves: list[dict[str, object]]) -> None:
    assert expand(betza) == moves


@pytest.mark.parametrize("betza", ["pN", "gW", "gR3", "p"])
def test_a_hopper_needs_a_rider(betza: str) -> None:
    with pytest.raises(DeclarationError) as info:
        expand(betza)
    assert info.value.rule == "bad-betza"


def test_explain_says_a_hopper_needs_a_position() -> None:
    from click.testing import CliRunner

    from variantkit.cli import cli
    result = CliRunner().invoke(cli, ["explain", "janggicasual", "cannon"])
    assert result.exit_code == 0
    assert "0 destinations" in result.output
    assert "its hops need a piece to jump: give --fen to see them" in result.output


def test_a_hop_with_a_range_lands_within_it() -> None:
    """Written in YAML as Betza's pR2 expands: the screen next to it, the
    landing one beyond, nothing farther."""
    variant = variantkit.load_text(
        "variantkit: 1\nname: t\ninherits: chess\ncastling: []\n"
        "pieces:\n  cannon: {letter: C, moves: [{hop: orthogonal, range: 2}]}\n"
        "setup: 4k3/8/8/8/8/8/P7/C3K3 w - - 0 1\n")
    assert not variant.problems
    moves = {str(m) for m in variant.new_game().legal_moves() if str(m).startswith("a1")}
    assert moves == {"a1a3"}
    far = variant.new_game("4k3/8/8/P7/8/8/8/C3K3 w - - 0 1").legal_moves()
    assert not [m for m in far if str(m).startswith("a1")]
