"""Pieces that turn over (`flips:`), passing when stuck (`pass:
when-no-move`) and the counted ends (`end: board-full`, `more-pieces`):
reversi and ataxx against pyffish in the positions that tell the rules
apart, and the faces (SAN, PGN, the engine) on these games.  The whole
games are compared move by move in tests/fsf/test_fsf_catalogue.py."""

from __future__ import annotations

import random

import pyffish
import pytest

import variantkit
from variantkit import Engine, InvalidFenError, VariantError


def game(name: str, fen: str) -> variantkit.Game:
    return variantkit.load(name).new_game(fen)


def moves(g: variantkit.Game) -> list[str]:
    return sorted(str(m) for m in g.legal_moves())


def test_a_drop_turns_over_every_line_it_encloses_and_the_undo_restores_them() -> None:
    fen = "8/8/2P5/3pP3/3Pp3/8/8/8[PPpp] w - - 0 1"
    g = game("flipello", fen)
    before = g.position.hash
    g.push("P@f3")   # f3-e4-d5 to c6: e4 and d5 turn over
    assert g.fen() == pyffish.get_fen("flipello", fen, ["P@f3"])
    assert g.fen().startswith("8/8/2P5/3PP3/3PP3/5P2/8/8[Ppp] b")
    g.pop()
    assert g.fen() == fen and g.position.hash == before


def test_a_drop_must_enclose_once_the_centre_is_filled() -> None:
    fen = "8/8/8/3Pp3/3PP3/8/8/8[PPPPpppp] w - - 0 1"
    assert moves(game("flipello", fen)) == sorted(pyffish.legal_moves("flipello", fen, []))
    assert moves(game("flipello", fen)) == ["P@e6", "P@f5", "P@f6"]


def test_the_centre_takes_the_first_drops_wherever_the_pieces_stand() -> None:
    fen = "P7/8/8/8/8/8/8/7p[PP] w - - 0 1"
    assert moves(game("flipello", fen)) == ["P@d4", "P@d5", "P@e4", "P@e5"]


def test_a_side_without_a_move_passes_and_two_passes_end_the_game_by_count() -> None:
    fen = "8/8/8/8/8/8/8/ppP5[] w - - 0 1"
    g = game("flipello", fen)
    assert moves(g) == sorted(pyffish.legal_moves("flipello", fen, [])) == ["c1c1"]
    g.push("c1c1")
    assert moves(g) == ["a1a1"] and g.fen().endswith("b - - 1 1")
    g.push("a1a1")
    assert moves(g) == [] == pyffish.legal_moves("flipello", fen, ["c1c1", "a1a1"])
    outcome = g.outcome()
    assert outcome is not None and (outcome.winner, outcome.reason) == ("black", "double-pass")
    assert pyffish.game_result("flipello", fen, ["c1c1", "a1a1"]) < 0   # white, to move, lost


def test_a_side_without_pieces_has_no_pass_and_loses_by_count() -> None:
    g = game("ataxx", "7/7/7/7/7/7/P6 b - - 0 1")
    assert moves(g) == []
    outcome = g.outcome()
    assert outcome is not None and (outcome.winner, outcome.reason) == ("white", "stalemate")


def test_a_full_board_ends_the_game_and_the_side_with_more_pieces_wins() -> None:
    fen = "PPPPPPP/PPPPPPP/PPPPPPP/PPPPPPP/PPPpPPP/ppppppp/ppppppp b - - 0 1"
    g = game("ataxx", fen)
    assert moves(g) == [] == pyffish.legal_moves("ataxx", fen, [])
    outcome = g.outcome()
    assert outcome is not None and (outcome.winner, outcome.reason) == ("white", "board-full")


def test_an_ataxx_jump_turns_over_its_new_neighbours_and_a_copy_is_a_drop() -> None:
    fen = "7/7/7/7/7/1p1p3/P6 w - - 0 1"
    for move in ("a1c1", "P@b1"):
        g = game("ataxx", fen)
        g.push(move)
        assert g.fen() == pyffish.get_fen("ataxx", fen, [move])


def test_a_start_without_castling_and_en_passant_fields_reads() -> None:
    # Fairy-Stockfish writes these games' starts so (`w 0 1`).
    g = game("ataxx", pyffish.start_fen("ataxx"))
    assert g.fen() == "P5p/7/7/7/7/7/p5P w - - 0 1"


def test_reversi_hands_hold_more_than_the_board_but_not_without_bound() -> None:
    assert game("flipello", pyffish.start_fen("flipello")).position.hands[2] == 60
    with pytest.raises(InvalidFenError, match="2 times the board's cells"):
        game("flipello", "8/8/8/3pP3/3Pp3/8/8/8[" + "P" * 125 + "] w - - 0 1")


def test_a_flips_rule_with_an_unknown_kind_is_located() -> None:
    text = "variantkit: 1\nname: x\ninherits: flipello\nflips: {kind: sideways}\n"
    with pytest.raises(VariantError) as caught:
        variantkit.load_text(text)
    (problem,) = caught.value.problems
    assert (problem.line, problem.rule) == (4, "schema")


@pytest.mark.parametrize("name", ["ataxx", "flipersi"])
def test_san_is_pyffish_s(name: str) -> None:
    g = variantkit.load(name).new_game()
    start = pyffish.get_fen(name, pyffish.start_fen(name), [])
    rng = random.Random(name)
    for _ in range(24):
        move = rng.choice(moves(g))
        assert g.san(move) == pyffish.get_san(name, g.fen(), move)
        g.push(move)
    assert g.fen() == pyffish.get_fen(name, start, [str(m) for m in g.move_stack])


def test_an_ataxx_game_reads_back_from_its_pgn() -> None:
    g = variantkit.load("ataxx").new_game()
    for move in ("P@f2", "P@b1", "g1e3", "a1c3"):
        g.push(move)
    again = variantkit.read_pgn(variantkit.write_pgn(g))
    assert again.fen() == g.fen()


def test_the_engine_plays_ataxx_to_the_end() -> None:
    variant = variantkit.load("ataxx")
    g = variant.new_game()
    engine = Engine(variant)
    for _ in range(200):
        if g.outcome() is not None:
            break
        g.push(engine.best_move(g, depth=1))
    outcome = g.outcome()
    assert outcome is not None and outcome.winner is not None


def test_flipersi_does_not_pass_a_side_without_a_drop_loses_by_count() -> None:
    fen = "8/8/8/3PP3/3PP3/8/8/ppP5[Pp] w - - 0 1"
    assert moves(game("flipello", fen)) == ["c1c1"]
    g = game("flipersi", fen)
    assert moves(g) == [] == pyffish.legal_moves("flipersi", fen, [])
    outcome = g.outcome()
    assert outcome is not None and (outcome.winner, outcome.reason) == ("white", "stalemate")
    assert pyffish.game_result("flipersi", fen, []) > 0
