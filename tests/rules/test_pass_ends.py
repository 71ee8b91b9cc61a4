"""A pass that ends the game (`end: double-pass`, `end: facing-pass`) leaves
no legal moves, as Fairy-Stockfish lists none once a game is over; the
outcome names that end, not stalemate.  Held to pyffish on the janggi forms:
the positions after such a pass, and the perft counts from the start, whose
third ply is the first that holds a pass answered by a pass.
"""

from __future__ import annotations

import pyffish
import pytest
from fsf_oracle import Oracle

import variantkit
from variantkit import Outcome
from variantkit.game import perft

JANGGI = ("janggi", "janggicasual", "janggitraditional", "janggimodern")
DOUBLE_PASS = ["e2e2", "e9e9"]
# The generals step onto the open d file, and White passes while they face
# each other (janggitraditional: bikjang, drawn).
FACING = ["e2d2", "e9d9", "d2d2"]


def pyffish_perft(name: str, depth: int, moves: list[str] | None = None) -> int:
    played = moves or []
    legal = pyffish.legal_moves(name, pyffish.start_fen(name), played)
    if depth == 1:
        return len(legal)
    return sum(pyffish_perft(name, depth - 1, played + [m]) for m in legal)


@pytest.mark.parametrize("name", JANGGI)
def test_a_pass_answered_by_a_pass_ends_the_game_with_no_moves(name: str) -> None:
    game = variantkit.load(name).new_game()
    for move in DOUBLE_PASS:
        game.push(move)
    assert pyffish.legal_moves(name, pyffish.start_fen(name), DOUBLE_PASS) == []
    assert game.legal_moves() == [] and game.position.count_legal() == 0
    outcome = game.outcome()
    assert outcome is not None and outcome.reason == "double-pass"
    assert not game.position.is_stalemate()


def test_the_double_pass_result_is_pyffish_s() -> None:
    # Equal material: Black's bonus point wins janggi, janggicasual draws.
    assert Oracle("janggi").replay(DOUBLE_PASS) == Outcome("black", "double-pass")
    assert Oracle("janggicasual").replay(DOUBLE_PASS) == Outcome(None, "double-pass")


def test_a_pass_while_the_generals_face_ends_the_game_with_no_moves() -> None:
    oracle = Oracle("janggitraditional")
    assert oracle.replay(FACING) == Outcome(None, "facing-pass")
    game = oracle.variant.new_game()
    for move in FACING:
        game.push(move)
    assert game.legal_moves() == [] and game.position.count_legal() == 0


def test_janggi_perft_3_counts_the_double_pass_as_an_end() -> None:
    # 33,032 while the game went on after a pass answered by a pass.
    assert perft(variantkit.load("janggi").new_game(), 3) == pyffish_perft("janggi", 3) == 33_000


@pytest.mark.oracle
@pytest.mark.parametrize(("name", "nodes"), [("janggi", 1_065_277), ("janggicasual", 1_083_563)])
def test_janggi_perft_4_equals_pyffish(name: str, nodes: int) -> None:
    # pyffish's counts.  janggitraditional and janggimodern generate the
    # moves of janggi and janggicasual, and so are not walked again.
    assert perft(variantkit.load(name).new_game(), 4) == nodes
