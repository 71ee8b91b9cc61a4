"""Faults where variantkit differed from Fairy-Stockfish (pyffish), each
checked against pyffish side by side:

- the castling field of a variant that gates (Seirawan chess, S-house),
  read letter by letter as Fairy-Stockfish reads it, in Chess960 positions
  and in the standard array, and written back as it writes it.
"""

from __future__ import annotations

import random

import pyffish
import pytest

import variantkit
from variantkit import Game

# --- The castling field where file letters also name gates -----------------

SEIRAWAN_960 = "rnqkbnrb/pppppppp/8/8/8/8/PPPPPPPP/RNQKBNRB[HEhe] w {} - 0 1"

# (variant, position string, whether pyffish is asked in Chess960 mode):
# the mode variantkit reads the field in.
FIELDS = [
    # X-FEN K names the outermost rook on the king's side (g1), which gates
    # too, as does the king; the file letters name gates only.
    ("seirawan", SEIRAWAN_960.format("HECBFQKhecbfqk"), True),
    ("seirawan", SEIRAWAN_960.format("KQkq"), True),
    # Castling with the gated rooks, where the king's gate is named.
    ("seirawan", "qbbrnkrn/pppppppp/8/8/8/8/PPPPPPPP/QBBRNKRN[HEhe] w ABCDEFGHabcdefgh - 0 1",
     True),
    # The last rook named on the queen's side castles (b1, not a1).
    ("seirawan", "rrkbbnnq/pppppppp/8/8/8/8/PPPPPPPP/RRKBBNNQ[HEhe] w ABCabc - 0 1", True),
    # A side with a castling right by letter castles no other rook: a1
    # only gates, though the king does too.
    ("seirawan", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[HEhe] w KAkq - 0 1", False),
    # Empty hands for good: a file letter names a castling rook.
    ("seirawan", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w HAha - 0 1", True),
    ("seirawan", "r1k2r2/pppppppp/8/8/8/8/PPPPPPPP/R1K2R2[He] w FCa - 0 1", True),
    # S-house may always gate (captures fill the hands): F gates only,
    # and the king, not named, does not castle.
    ("shouse", "rnkbbrqn/pppppppp/8/8/8/8/PPPPPPPP/RNKBBRQN[] w FHq - 0 1", True),
    ("shouse", "r2k1r2/pppppppp/8/8/8/8/PPPPPPPP/R2K1R2[HEhe] w KQDkqd - 0 1", True),
    ("fischerandom", "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1", True),
    ("chess", "r2k1r2/pppppppp/8/8/8/8/PPPPPPPP/R2K1R2 w KQkq - 0 1", True),
    ("caparandom", "r3k3r1/pppppppppp/10/10/10/10/PPPPPPPPPP/R3K3R1 w IAia - 0 1", True),
    ("capablanca", "r3k3r1/pppppppppp/10/10/10/10/PPPPPPPPPP/R3K3R1 w KQkq - 0 1", True),
]


def same_as_pyffish(game: Game, name: str, fen: str, played: list[str], is960: bool) -> None:
    where = f"{name} {fen} after {' '.join(played) or 'nothing'}"
    theirs = " ".join(f or "-" for f in pyffish.get_fen(name, fen, played, is960).split(" "))
    assert game.fen() == theirs, where
    ours = {str(m) for m in game.legal_moves()}
    assert ours == set(pyffish.legal_moves(name, fen, played, is960)), where


@pytest.mark.parametrize(("name", "fen", "is960"), FIELDS)
def test_castling_field_reads_and_plays_as_pyffish(name: str, fen: str, is960: bool) -> None:
    game = variantkit.load(name).new_game(fen)
    assert game.position.chess960 == is960
    rng = random.Random(fen)
    played: list[str] = []
    for _ in range(24):
        same_as_pyffish(game, name, fen, played, is960)
        moves = sorted(game.legal_moves(), key=str)
        if not moves or game.outcome() is not None:
            break
        # Castling and the king's and rooks' moves first: they are what the
        # field is about.
        firsts = [m for m in moves
                  if not m.drop and game.piece_at(m.from_cell) in ("K", "k", "R", "r")]
        move = str(rng.choice(firsts if firsts and rng.random() < 0.6 else moves))
        game.push(move)
        played.append(move)


def test_the_castling_field_is_written_as_pyffish_writes_it() -> None:
    game = variantkit.load("seirawan").new_game(SEIRAWAN_960.format("HECBFQKhecbfqk"))
    assert game.fen().split()[2] == "GABCDEFHgabcdefh"
    game = variantkit.load("seirawan").new_game(SEIRAWAN_960.format("KQkq"))
    assert game.fen().split()[2] == "GADgad"


def test_a_recorded_seirawan960_game_castles_gating_on_the_kings_cell() -> None:
    fen = SEIRAWAN_960.format("HECBFQKhecbfqk")
    game = variantkit.load("seirawan").new_game(fen)
    for move in ("f2f4", "f7f5", "f1g3", "f8g6", "e1f2", "e8f7"):
        game.push(move)
    move = game.push_san("O-O/Ed1")
    assert str(move) == "d1g1e"
    played = [str(m) for m in game.move_stack]
    assert game.fen() == pyffish.get_fen("seirawan", fen, played, True)

