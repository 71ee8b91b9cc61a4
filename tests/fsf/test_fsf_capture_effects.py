"""The capture effects and game ends of tests/data/fsf/captures.ini, each in
the position that shows it, against pyffish reading the same ini text:
explosions feeding the hands, a blast's target turned to stone, a king's
safety judged with the duck where the move leaves it, extinction that needs
a rival, and drawn games given to one side.

tests/fsf/test_fsf_import.py walks the same sections' perft trees and random
games; these positions are the ones those walks may not reach.
"""

from __future__ import annotations

from pathlib import Path

import pyffish
import pytest

import variantkit
from variantkit import Game
from variantkit.fsf import import_ini

TEXT = (Path(__file__).parent.parent / "data" / "fsf" / "captures.ini").read_text(encoding="utf-8")
pyffish.load_variant_config(TEXT)
IMPORTED = import_ini(TEXT, "captures.ini")


def game(section: str, fen: str) -> Game:
    text = IMPORTED[section]
    assert isinstance(text, str), f"[{section}] did not import: {text}"
    return variantkit.load_text(text, f"{section}.yaml").new_game(fen)


def moves(position: Game) -> set[str]:
    return {str(move) for move in position.legal_moves()}


def pyffish_moves(section: str, fen: str) -> set[str]:
    return set(pyffish.legal_moves(section, fen, []))


def test_a_blast_target_turned_to_stone_shields_no_king_on_that_move() -> None:
    # The bishop on d3 stands between the bishop on a6 and the king: taking
    # on c4 blows it up, and the stone on c4 comes too late to block.
    fen = "b3k1/6/2p3/3B2/6/5K w - - 0 1"
    assert "d3c4" not in moves(game("vk-stone-blast", fen))
    assert moves(game("vk-stone-blast", fen)) == pyffish_moves("vk-stone-blast", fen)
    # Without the pinning bishop the capture is played, and c4 is stone.
    fen = "4k1/6/2p3/3B2/6/5K w - - 0 1"
    position = game("vk-stone-blast", fen)
    position.push("d3c4")
    assert position.fen() == pyffish.get_fen("vk-stone-blast", fen, ["d3c4"])
    assert position.fen().startswith("4k1/6/2*3/")


@pytest.mark.parametrize(("fen", "move", "hands"), [
    # The rook takes the knight; the blast takes the queen beside it.
    ("6/1k4/2q3/3n2/6/K2R2[] w - - 0 1", "d1d3", "[QNr]"),
    # The blast takes the king beside the rook it takes: the game is over.
    ("6/6/2k3/3r2/6/K2R2[] w - - 0 1", "d1d3", "[KRr]"),
])
def test_every_piece_a_blast_takes_joins_the_enemy_hand_the_king_too(
        fen: str, move: str, hands: str) -> None:
    position = game("vk-blast-house", fen)
    position.push(move)
    assert position.fen() == pyffish.get_fen("vk-blast-house", fen, [move])
    assert hands in position.fen()


def test_a_king_in_check_may_step_along_the_check_behind_the_duck_it_puts_down() -> None:
    # The rook on a4 checks the king on d4; the king steps to c4, still on
    # the rank, with the duck put down on b4 between.
    fen = "r2K/4/1p2/k3 w - - 0 1"
    position = game("vk-duck-blast", fen)
    assert position.is_check()
    assert "d4c4,c4b4" in moves(position)
    assert not any(move.startswith("d4c4,") and move != "d4c4,c4b4" for move in moves(position))
    assert moves(position) == pyffish_moves("vk-duck-blast", fen)


def test_a_side_left_with_no_piece_wins_only_while_the_other_side_has_one() -> None:
    # The knight takes the queen: the blast takes both, no piece is left on
    # either side and Black, to move, has no move: a won stalemate.
    fen = "6/6/4q1/6/3N2/6 w - - 0 1"
    position = game("vk-blast-giveaway", fen)
    position.push("d2e4")
    outcome = position.outcome()
    assert outcome is not None and (outcome.winner, outcome.reason) == ("black", "stalemate")
    assert pyffish.game_result("vk-blast-giveaway", fen, ["d2e4"]) > 0
    # With a black pawn left, White has lost everything first and wins.
    fen = "6/6/4q1/6/3N2/p5 w - - 0 1"
    position = game("vk-blast-giveaway", fen)
    position.push("d2e4")
    outcome = position.outcome()
    assert outcome is not None and (outcome.winner, outcome.reason) == ("white", "extinction")
    assert pyffish.is_immediate_game_end("vk-blast-giveaway", fen, ["d2e4"]) == (True, -32000)


@pytest.mark.parametrize(("section", "fen", "move", "winner"), [
    # The eighth quiet move of each side: the move rule's end goes to Black.
    ("vk-queen-hunt", "r3/2q1/1Q2/3R w - - 15 30", "d1d2", "black"),
    # Los Alamos under White's draw odds: Black stalemated.
    ("vk-white-odds", "5k/6/5K/6/6/3Q2 w - - 0 40", "d1d5", "white"),
])
def test_a_drawn_end_goes_to_the_side_with_draw_odds(section: str, fen: str, move: str,
                                                    winner: str) -> None:
    position = game(section, fen)
    assert move in moves(position)
    position.push(move)
    outcome = position.outcome()
    assert outcome is not None and outcome.winner == winner
    mover = "white" if position.turn == "white" else "black"
    ended, value = (pyffish.is_optional_game_end(section, fen, [move])
                    if outcome.reason == "move-rule" else
                    (True, pyffish.game_result(section, fen, [move])))
    assert ended and (value > 0) == (winner == mover)


def test_a_drawn_end_is_not_claimed_a_move_ahead_under_draw_odds() -> None:
    # Fifteen quiet plies: the sixteenth would end the game, and the side
    # to move may not claim it ahead (it would win a move early).
    position = game("vk-queen-hunt", "r3/2q1/1Q2/3R w - - 15 30")
    assert position.outcome() is None
    assert not pyffish.is_optional_game_end("vk-queen-hunt", "r3/2q1/1Q2/3R w - - 15 30", [])[0]


# (Without castling: a castling king's path is judged with the new duck
# down in Fairy-Stockfish, and such a section is refused.)
ATOMIC_DUCK = "[vk-atomic-duck:atomic]\nwallingRule = duck\ncastling = false\n"


def atomic_duck_moves(fen: str) -> set[str]:
    """The legal moves in `fen` of atomic chess with the duck, imported
    from its two-line section (pyffish is given the same section)."""
    pyffish.load_variant_config(ATOMIC_DUCK)
    text = import_ini(ATOMIC_DUCK)["vk-atomic-duck"]
    assert isinstance(text, str)
    return moves(variantkit.load_text(text, "vk-atomic-duck.yaml").new_game(fen))


def test_an_en_passant_blast_leaves_its_landing_cell_closed_to_the_duck() -> None:
    # The capturer is blown up on d6, yet the duck may not go there; it may
    # go to the victim's cell and to the cell the pawn left.
    fen = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"
    found = atomic_duck_moves(fen)
    assert "e5d6,d6d5" in found and "e5d6,d6e5" in found and "e5d6,d6d6" not in found
    assert found == pyffish_moves("vk-atomic-duck", fen)


def test_a_duck_on_the_cell_a_blast_clears_shields_no_king() -> None:
    # The queen takes on e6 from d5, beside it, and opens the d-file to the
    # king: the duck shields it from d2, d3, d4, d6 or d7, not from d5,
    # which the blast clears before the king's safety is judged.
    fen = "3q3k/8/4b3/3Q4/8/8/8/3K4 w - - 0 1"
    found = atomic_duck_moves(fen)
    assert sorted(m for m in found if m.startswith("d5e6,")) == \
        ["d5e6,e6d2", "d5e6,e6d3", "d5e6,e6d4", "d5e6,e6d6", "d5e6,e6d7"]
    assert found == pyffish_moves("vk-atomic-duck", fen)
