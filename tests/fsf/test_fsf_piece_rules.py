"""Imported piece, castling and hand rules whose decisive position a perft
walk or a random game seldom reaches, played to it against pyffish: the
sections of tests/data/fsf/pieces.ini (tests/fsf/test_fsf_import.py loads them
into pyffish and compares their trees and random games)."""

from __future__ import annotations

from test_fsf_import import ImportedOracle, imported

# Not run again on the pure build: the importer writes YAML and runs no
# compiled code of its own.
PURE_PASS = False


def test_a_mate_by_a_dropped_shogi_pawn_loses_where_the_key_says_so() -> None:
    oracle = ImportedOracle("vk-pawn-drop-mates",
                            imported("pieces.ini", "vk-pawn-drop-mates"))
    outcome = oracle.replay(["S@a3"])
    assert outcome is not None and (outcome.winner, outcome.reason) == ("black", "drop-mate")


def test_a_mate_by_a_dropped_shogi_pawn_wins_once_the_key_is_off() -> None:
    oracle = ImportedOracle("vk-pawn-drop-mates-win",
                            imported("pieces.ini", "vk-pawn-drop-mates-win"))
    outcome = oracle.replay(["S@a3"])
    assert outcome is not None and (outcome.winner, outcome.reason) == ("white", "checkmate")


def test_castling_takes_the_opponents_right_on_the_same_wing_as_in_pyffish() -> None:
    oracle = ImportedOracle("vk-opposite-wings", imported("pieces.ini", "vk-opposite-wings"))
    oracle.replay(["e1g1", "a7a6", "a2a3", "e8c8"])
