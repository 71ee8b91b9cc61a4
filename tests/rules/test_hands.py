"""Pieces in hand and drops (`hands`, a piece's `drops` and `demotes-to`):
captures joining the capturer's hand, drops and their restrictions, the
hand in position strings, drop move strings and SAN, and the located
errors of bad declarations.  The bundled drop variants against
Fairy-Stockfish: tests/fsf/test_fsf_catalogue.py."""

from __future__ import annotations

import random
from pathlib import Path

import pyffish
import pytest
from fsf_oracle import Oracle

import variantkit
from variantkit import IllegalMoveError, InvalidFenError, Move, VariantError
from variantkit.engine.search import Engine

HOUSE = "variantkit: 1\nname: house\ninherits: crazyhouse\n"


def drops(game: variantkit.Game, letter: str) -> set[str]:
    return {m.to_cell for m in game.legal_moves if m.drop == letter}


def load(tmp_path: Path, text: str) -> variantkit.Variant:
    path = tmp_path / "v.yaml"
    path.write_text(text, encoding="utf-8")
    return variantkit.load(str(path))


def problems(tmp_path: Path, text: str) -> list[tuple[str, int | None]]:
    with pytest.raises(VariantError) as caught:
        load(tmp_path, text)
    return [(p.rule, p.line) for p in caught.value.problems]


# -- hands in the position -----------------------------------------------------


def test_a_capture_joins_the_capturers_hand_and_unmake_gives_it_back() -> None:
    game = variantkit.load("crazyhouse").new_game()
    for move in ("e2e4", "d7d5", "e4d5"):
        game.push(move)
    assert game.hand("white") == {"P": 1} and game.hand("black") == {}
    before = (game.fen(), game.position.hash, list(game.position.hands))
    game.push("d8d5")
    assert game.hand("black") == {"p": 1}
    game.pop()
    assert (game.fen(), game.position.hash, list(game.position.hands)) == before


def test_a_promoted_pawn_is_written_with_a_tilde_and_demotes_when_captured() -> None:
    game = variantkit.load("crazyhouse").new_game("r3k3/1P6/8/8/8/8/8/4K3[] w - - 0 1")
    game.push("b7b8q")
    assert game.fen() == "rQ~2k3/8/8/8/8/8/8/4K3[] b - - 0 1"
    assert game.piece_at("b8") == "Q~"
    game.push("a8b8")
    assert game.hand("black") == {"p": 1}
    assert game.fen() == pyffish.get_fen("crazyhouse", "r3k3/1P6/8/8/8/8/8/4K3[] w - - 0 1",
                                          ["b7b8q", "a8b8"])


def test_in_loop_a_promoted_piece_keeps_its_type_in_hand() -> None:
    game = variantkit.load("loop").new_game("r3k3/1P6/8/8/8/8/8/4K3[] w - - 0 1")
    game.push("b7b8q")
    game.push("a8b8")
    assert game.fen() == "1r2k3/8/8/8/8/8/8/4K3[q] w - - 0 2"


def test_the_hash_follows_the_hands_along_a_game() -> None:
    variant = variantkit.load("crazyhouse")
    game = variant.new_game()
    rng = random.Random(7)
    for _ in range(80):
        moves = list(game.legal_moves)
        if not moves:
            break
        game.push(rng.choice(moves))
        assert game.position.hash == variant.new_game(game.fen()).position.hash
    copy = game.copy()
    played = next(iter(game.legal_moves))
    game.push(played)
    assert copy.position.hands != game.position.hands or copy.fen() != game.fen()
    game.pop()
    assert copy.fen() == game.fen() and copy.position.hash == game.position.hash


def test_a_drop_resets_the_half_move_clock() -> None:
    game = variantkit.load("crazyhouse").new_game("4k3/8/8/8/8/8/8/4K3[Nn] w - - 12 1")
    game.push("N@e4")
    assert game.fen() == "4k3/8/8/8/4N3/8/8/4K3[n] b - - 0 1"


def test_no_material_is_insufficient_while_a_hand_holds_a_piece() -> None:
    knight = variantkit.load("pocketknight")
    assert knight.new_game("4k3/8/8/8/8/8/8/4K3[N] w - - 0 1").outcome() is None
    ended = knight.new_game("4k3/8/8/8/8/8/8/4K3[] w - - 0 1").outcome()
    assert ended is not None and ended.reason == "insufficient-material"


# -- drops ---------------------------------------------------------------------

# Middle games with full hands (reached by seeded random games), where most
# moves are drops: the perft trees from the start have none before depth 4.
MIDDLE_GAMES = {
    "crazyhouse": "1n2k3/Q~1p2pp1/3b4/1P1p3r/1p3Pb1/8/PP1PB3/RNBQK1N1[QRPPPrnpp] w Q - 1 14",
    "loop": "r4br1/p3kp1p/n6n/8/2p2p2/4P3/PP1P3P/R1B1K1NQ[BPPPqrbnppp] w Q - 0 14",
    "chessgi": "1nb1kb2/1p2pr2/r1pp4/p7/P7/N1P1nN2/1P1P4/R1B1KB2[PPPqqrpppp] w Q - 1 14",
    "capahouse": "1n2qk2n1/1ppp1pp1p1/7c2/4p5/10/8PR/RP1PKPP3/1N1Q2B1N1"
                 "[ARRBBPPPPcabpppp] w - - 3 14",
}


@pytest.mark.parametrize("name", sorted(MIDDLE_GAMES))
def test_perft_with_full_hands_equals_pyffish(name: str) -> None:
    Oracle(name).walk(2, MIDDLE_GAMES[name])


@pytest.mark.oracle
@pytest.mark.parametrize("name", sorted(MIDDLE_GAMES))
def test_deep_perft_with_full_hands_equals_pyffish(name: str) -> None:
    Oracle(name).walk(3, MIDDLE_GAMES[name])



def test_pawns_are_not_dropped_on_the_first_or_last_rank() -> None:
    game = variantkit.load("crazyhouse").new_game("4k3/8/8/8/8/8/8/4K3[P] w - - 0 1")
    cells = drops(game, "P")
    assert len(cells) == 48 and not any(c.endswith(("1", "8")) for c in cells)
    chessgi = variantkit.load("chessgi").new_game("4k3/8/8/8/8/8/8/4K3[P] w - - 0 1")
    assert "a1" in drops(chessgi, "P") and "a8" not in drops(chessgi, "P")


def test_a_dropped_pawn_on_its_second_rank_may_step_twice() -> None:
    game = variantkit.load("crazyhouse").new_game("4k3/8/8/8/8/8/8/4K3[P] w - - 0 1")
    game.push("P@a2")
    game.push("e8d8")
    assert "a2a4" in {str(m) for m in game.legal_moves}


def test_in_check_a_drop_must_block() -> None:
    game = variantkit.load("crazyhouse").new_game("4r1k1/8/8/8/8/8/8/4K3[N] w - - 0 1")
    assert drops(game, "N") == {"e2", "e3", "e4", "e5", "e6", "e7"}
    double = variantkit.load("crazyhouse").new_game("4r1k1/8/8/8/8/3n4/8/4K3[N] w - - 0 1")
    assert drops(double, "N") == set()
    contact = variantkit.load("crazyhouse").new_game("6k1/8/8/8/8/8/3p4/4K3[N] w - - 0 1")
    assert drops(contact, "N") == set()


def test_a_drop_may_not_complete_an_enemy_cannons_screen(tmp_path: Path) -> None:
    variant = load(tmp_path, "variantkit: 1\nname: v\ninherits: xiangqi\n"
                             "hands: {captures: to-capturer}\n")
    game = variant.new_game("3k5/4c4/9/9/9/9/9/9/9/4K4[R] w - - 0 1")
    cells = drops(game, "R")
    assert not cells & {f"e{rank}" for rank in range(2, 9)}
    assert {"d2", "f8", "a1", "e10"} <= cells


def test_drop_restrictions_per_line_check_and_mate(tmp_path: Path) -> None:
    variant = load(tmp_path, HOUSE + "pieces:\n  pawn:\n    drops:\n"
                             "      regions: pawn-drops\n"
                             "      per-line: {line: file, count: 1}\n      mate: forbidden\n"
                             "  knight:\n    drops: {check: forbidden}\n")
    # A pawn on e2 already: none more on the e-file.
    game = variant.new_game("4k3/8/8/8/8/8/4P3/4K3[PN] w - - 0 1")
    assert not any(cell.startswith("e") for cell in drops(game, "P"))
    assert "d4" in drops(game, "P")
    # No knight drop gives check (c7, d6, f6, g7 would).
    assert not drops(game, "N") & {"c7", "d6", "f6", "g7"} and "c6" in drops(game, "N")
    # P@g7 would mate (h7 and g8 are the king's own, the rook guards g7);
    # a pawn drop that only checks stays legal.
    mate = variant.new_game("6nk/7p/8/8/8/8/8/4K1R1[P] w - - 0 1")
    assert "g7" not in drops(mate, "P")
    plain = variantkit.load("crazyhouse").new_game("6nk/7p/8/8/8/8/8/4K1R1[P] w - - 0 1")
    assert plain.san("P@g7") == "P@g7#"
    checks = variant.new_game("6nk/8/8/8/8/8/8/4K1R1[P] w - - 0 1")
    assert "g7" in drops(checks, "P")


# -- position strings ------------------------------------------------------------


def test_hands_read_in_any_order_and_are_written_as_fairy_stockfish_writes_them() -> None:
    variant = variantkit.load("capahouse")
    game = variant.new_game("4k5/10/10/10/10/10/10/4K5[pPAqC] w - - 0 1")
    assert game.fen() == pyffish.get_fen("capahouse", game.fen(), []) == \
        "4k5/10/10/10/10/10/10/4K5[CAPqp] w - - 0 1"
    assert game.hand("white") == {"C": 1, "A": 1, "P": 1} and game.hand("black") == {"q": 1, "p": 1}


@pytest.mark.parametrize("fen", ["4k3/8/8/8/8/8/8/4K3[-] w - - 0 1",
                                 "4k3/8/8/8/8/8/8/4K3 w - - 0 1"])
def test_an_empty_hand_may_be_written_dash_or_left_out(fen: str) -> None:
    assert variantkit.load("crazyhouse").new_game(fen).fen() == \
        "4k3/8/8/8/8/8/8/4K3[] w - - 0 1"


@pytest.mark.parametrize(("variant", "fen", "words"), [
    ("chess", "4k3/8/8/8/8/8/8/4K3[] w - - 0 1", "has no pieces in hand"),
    ("crazyhouse", "4k3/8/8/8/8/8/8/4K3[K] w - - 0 1", "may be in hand"),
    ("crazyhouse", "4k3/8/8/8/8/8/8/4K3[X] w - - 0 1", "may be in hand"),
    ("crazyhouse", "4k3/8/8/8/8/8/8/4K3[" + "P" * 127 + "] w - - 0 1", "more pieces"),
])
def test_a_bad_hand_is_refused_with_a_reason(variant: str, fen: str, words: str) -> None:
    with pytest.raises(InvalidFenError, match=words):
        variantkit.load(variant).new_game(fen)


# -- move strings and SAN ----------------------------------------------------------


def test_a_drop_is_written_with_the_uppercase_letter_for_both_sides() -> None:
    game = variantkit.load("crazyhouse").new_game("4k3/8/8/8/8/8/8/4K3[Nn] b - - 0 1")
    assert "N@e4" in {str(m) for m in game.legal_moves}
    assert Move("e4", "e4", drop="N") in game.legal_moves
    played = game.push(Move("e4", "e4", drop="N"))
    assert played.drop == "N" and played.from_cell == played.to_cell == "e4"
    assert game.piece_at("e4") == "n" and game.hand("black") == {}
    game.pop()
    assert str(game.push("n@e5")) == "N@e5"


@pytest.mark.parametrize(("move", "words"), [
    ("P@e4", "no 'P' in hand"),
    ("N@e1", "may not be dropped on e1; it may go to"),
    ("N@z9", "is not a move here"),
])
def test_a_bad_drop_is_explained(move: str, words: str) -> None:
    game = variantkit.load("crazyhouse").new_game("4k3/8/8/8/8/8/8/4K3[N] w - - 0 1")
    with pytest.raises(IllegalMoveError, match=words):
        game.push(move)


def test_drops_have_san() -> None:
    game = variantkit.load("crazyhouse").new_game("4k3/1P6/8/8/8/8/8/4K3[Q] w - - 0 1")
    assert game.san("Q@e7") == "Q@e7+" == pyffish.get_san("crazyhouse", game.fen(), "Q@e7")
    assert game.san("b7b8q") == "b8=Q+"
    assert str(game.parse_san("Q@a4")) == "Q@a4"


# -- declarations ----------------------------------------------------------------


def test_drops_and_demotion_need_hands(tmp_path: Path) -> None:
    found = problems(tmp_path, "variantkit: 1\nname: v\ninherits: chess\npieces:\n"
                               "  pawn:\n    drops: {check: forbidden}\n"
                               "  rook:\n    demotes-to: pawn\n")
    assert found == [("hands-missing", 6), ("hands-missing", 8)]


def test_a_piece_may_not_demote_to_a_royal_piece(tmp_path: Path) -> None:
    found = problems(tmp_path, HOUSE + "pieces:\n  rook:\n    demotes-to: king\n")
    assert found == [("bad-demotion", 6)]


def test_unknown_pieces_and_regions_in_hands_are_located(tmp_path: Path) -> None:
    found = problems(tmp_path, HOUSE + "hands: {order: [dragon]}\npieces:\n"
                               "  rook:\n    demotes-to: wazir\n"
                               "  knight:\n    drops: {regions: nowhere}\n")
    assert sorted(found) == [("unknown-piece", 4), ("unknown-piece", 7), ("unknown-region", 9)]


def test_the_engine_counts_hands_and_finds_a_mate_by_drop() -> None:
    game = variantkit.load("crazyhouse").new_game("6nk/7p/8/8/8/8/8/4K1R1[P] w - - 0 1")
    assert str(Engine(game.variant).best_move(game, depth=2)) == "P@g7"
