"""Games on two boards (variantkit.pair): bughouse, koedem and supply.

One board of such a game is a variant whose hands are fed from outside
(`hands: {captures: to-partner}`); with pieces put in its hands by the
position string it must equal Fairy-Stockfish's namesake (the perft trees
and random games below, from positions with pieces in hand).  The pair must
pass each capture to the other board as Fairy-Stockfish's `piece_to_partner`
says, with the move sets of both boards equal to pyffish's all along (the
random pair games).  Then the pair's own rules: its position string, the
team result, taking moves back, bughouse PGN, the drawings.
"""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pyffish
import pytest
from fsf_oracle import Oracle
from test_fsf_export import ExportedOracle

import variantkit
from variantkit import IllegalMoveError, InvalidFenError, VariantError
from variantkit.fsf import ExportRefused
from variantkit.fsf.exporter import export_section
from variantkit.limits import MAX_POSITION_LENGTH
from variantkit.pair import Pair, PairOutcome, load_pair, read_bpgn, write_bpgn
from variantkit.pgn import PgnError

NAMES = ("bughouse", "koedem", "supply")

# Small trees with pieces in hand, walked to depth 3 in `make test` (a few
# hundred nodes each): pawn drops beside a pawn that promotes (bughouse), a
# king that must be dropped (koedem), advisors dropped on their palace
# points (supply).  Wider trees run under `make oracle` (DEEP).
SMALL = {
    "bughouse": "7k/6pP/6P1/8/8/8/8/K7[p] w - - 0 1",
    "koedem": "k7/8/8/8/8/8/8/K7[k] w - - 0 1",
    "supply": "3ak4/9/9/9/9/9/9/9/4A4/3K5[a] b - - 0 1",
}
# Openings with every kind of piece in hand, for the random games and
# (`make oracle`) depth-3 trees.
RICH = {
    "bughouse": "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[QRBNPqrbnp] w KQkq - 2 3",
    "koedem": "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[KQRBNPqrbnp] w KQkq - 2 3",
    "supply": "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR[BNPCARbnpcar] w - - 0 1",
}
DEEP = {
    "bughouse": "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[Pn] w KQkq - 2 3",
    "koedem": "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR[Kn] w KQkq - 0 2",
    "supply": "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR[Aa] w - - 0 1",
}


# -- one board with hands fed from outside, against pyffish --------------------

@pytest.mark.parametrize("name", NAMES)
def test_small_tree_with_hands_equals_pyffish(name: str) -> None:
    assert Oracle(name).walk(3, SMALL[name]) > 0


@pytest.mark.parametrize("name", NAMES)
def test_random_games_with_hands_equal_pyffish(name: str) -> None:
    Oracle(name).random_games(games=1, max_plies=60, seed=3, fen=RICH[name])


@pytest.mark.oracle
@pytest.mark.parametrize("name", NAMES)
def test_deep_tree_with_hands_equals_pyffish(name: str) -> None:
    Oracle(name).walk(3, DEEP[name])


@pytest.mark.oracle
@pytest.mark.parametrize("name", NAMES)
def test_many_random_games_with_hands_equal_pyffish(name: str) -> None:
    Oracle(name).random_games(games=10, max_plies=200, seed=4, fen=RICH[name])


def test_a_drop_may_not_open_a_cannon_screen_for_check() -> None:
    # The knight dropped on e4 or e5 would be the screen of White's cannon
    # on e3 against the general on e10.
    fen = "4k4/9/9/9/9/9/9/4C4/9/3K5[N] w - - 0 1"
    moves = {str(m) for m in variantkit.load("supply").new_game(fen).legal_moves()}
    assert "N@e4" not in moves and "N@e5" not in moves and "N@e2" in moves
    assert moves == set(pyffish.legal_moves("supply", fen, []))


def test_koedem_must_drop_a_king_it_holds() -> None:
    fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR[KQ] w KQkq - 0 2"
    moves = {str(m) for m in variantkit.load("koedem").new_game(fen).legal_moves()}
    assert moves and all(move.startswith("K@") for move in moves)


def test_a_named_forced_drop_exports_as_fairy_stockfish_plays_it() -> None:
    variant = variantkit.load_text(
        "variantkit: 1\nname: kdrop\ninherits: crazyhouse\nhands: {must-drop: [knight]}\n")
    text = export_section(variant, "vkx-kdrop")
    assert "mustDropType = n" in text.splitlines()
    pyffish.load_variant_config(text)
    ExportedOracle("vkx-kdrop", variant).walk(
        2, "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[NPnp] w KQkq - 2 3")
    several = variantkit.load_text(
        "variantkit: 1\nname: kdrop\ninherits: crazyhouse\nhands: {must-drop: [knight, pawn]}\n")
    with pytest.raises(ExportRefused, match="forces the drops of one piece type"):
        export_section(several, "vkx-kdrop")


@pytest.mark.parametrize(("fen", "over"), [
    ("4k3/8/8/8/8/8/8/R7[] w - - 0 1", False),       # no king, but the other side holds one only
    ("4k3/8/8/8/8/8/8/R7[k] w - - 0 1", True),       # ... and now two
    ("4k3/8/8/8/8/8/8/R7[K] w - - 0 1", False),      # a king in hand is a king
])
def test_koedem_lost_without_a_king_once_the_other_side_has_two(fen: str, over: bool) -> None:
    outcome = variantkit.load("koedem").new_game(fen).outcome()
    assert (outcome is not None) == over
    assert pyffish.is_immediate_game_end("koedem", fen, [])[0] == over
    if over:
        assert outcome == variantkit.Outcome("black", "extinction")


# -- the pair against pyffish ---------------------------------------------------

def _with_hand(name: str, sf_fen: str, letter: str) -> str:
    """pyffish's position string with one more piece in hand, written in
    pyffish's own order."""
    placement, rest = sf_fen.split(" ", 1)
    return pyffish.get_fen(name, f"{placement[:-1]}{letter}] {rest}", [])


def _play_pair(name: str, seed: int, plies: int) -> int:
    """A seeded random pair game, each board compared with pyffish after
    every move; return how many pieces were passed."""
    oracle = Oracle(name)
    pair = load_pair(name)
    sf = [oracle.start_fen, oracle.start_fen]
    rng = random.Random(f"{name}:{seed}")
    passed = 0
    for ply in range(plies):
        if pair.outcome() is not None:
            break
        index = rng.randrange(2)
        board = "AB"[index]
        moves = oracle.compare(pair.game(board), sf[index], f"board {board}, ply {ply}")
        if not moves:
            break
        move = rng.choice(sorted(moves))
        to_partner = pyffish.piece_to_partner(name, sf[index], [move])
        sf[index] = pyffish.get_fen(name, sf[index], [move])
        if to_partner:
            sf[1 - index] = _with_hand(name, sf[1 - index], to_partner)
            passed += 1
        pair.push(board, move)
        for i, game in enumerate(pair.games):
            oracle.compare_fen(game.fen(), sf[i], f"board {'AB'[i]} after {board} {move}")
    return passed


@pytest.mark.parametrize("name", NAMES)
def test_random_pair_games_pass_pieces_as_pyffish(name: str) -> None:
    assert _play_pair(name, seed=1, plies=60) > 0


@pytest.mark.oracle
@pytest.mark.parametrize("name", NAMES)
def test_many_random_pair_games_pass_pieces_as_pyffish(name: str) -> None:
    for seed in range(2, 12):
        _play_pair(name, seed, plies=400)


# -- the pair's own rules -----------------------------------------------------------

def test_a_capture_joins_the_partners_hand_in_its_own_colour() -> None:
    pair = load_pair("bughouse")
    for move in ("e2e4", "d7d5", "e4d5"):
        pair.push("A", move)
    assert pair.game("B").hand("black") == {"p": 1}
    assert pair.game("A").hand("white") == {} and pair.game("A").hand("black") == {}
    pair.push("B", "e2e4")
    pair.push("B", "P@e5")
    assert pair.game("B").piece_at("e5") == "p"


def test_a_promoted_pawn_goes_to_the_partner_as_a_pawn() -> None:
    pair = Pair(variantkit.load("bughouse"),
                "3qk3/4P3/8/8/8/8/8/4K3[] w - - 0 1 | 4k3/8/8/8/8/8/8/4K3[] w - - 0 1")
    pair.push("A", "e7d8q")
    assert pair.game("A").piece_at("d8") == "Q~"
    pair.push("A", "e8d8")
    assert pair.game("B").hand("white") == {"P": 1}


def test_koedem_passes_a_captured_king() -> None:
    pair = Pair(variantkit.load("koedem"),
                "4k3/8/8/8/8/8/4r3/R3K3[] b - - 0 1 | 4k3/8/8/8/8/8/8/4K3[] w - - 0 1")
    pair.push("A", "e2e1")
    assert pair.game("B").hand("white") == {"K": 1}
    assert pair.outcome() is None      # A's White has no king, but Black holds only one
    assert [str(m)[:2] for m in pair.legal_moves("B")] == ["K@"] * 62


def test_the_first_board_to_end_decides_for_its_teams() -> None:
    # Fool's mate on board B: B's Black wins, so A's White's team wins.
    pair = load_pair("bughouse")
    for move in ("f2f3", "e7e5", "g2g4", "d8h4"):
        pair.push("B", move)
    outcome = pair.outcome()
    assert outcome == PairOutcome("white", "B", variantkit.Outcome("black", "checkmate"))
    assert str(outcome) == "board B: black wins by checkmate, so white's team wins"
    assert pair.legal_moves("A") == []
    with pytest.raises(IllegalMoveError, match="the game is over"):
        pair.push("A", "e2e4")


def test_being_stalemated_loses() -> None:
    pair = Pair(variantkit.load("bughouse"),
                "k7/2Q5/1K6/8/8/8/8/8[] b - - 0 1 | 4k3/8/8/8/8/8/8/4K3[] w - - 0 1")
    assert pair.outcome() == PairOutcome("white", "A", variantkit.Outcome("white", "stalemate"))


def test_moves_are_taken_back_in_the_order_they_were_made() -> None:
    pair = load_pair("bughouse")
    start = pair.fen()
    for board, move in (("A", "e2e4"), ("B", "d2d4"), ("A", "d7d5"), ("A", "e4d5")):
        pair.push(board, move)
    assert [(b, str(m)) for b, m in pair.move_stack] == \
        [("A", "e2e4"), ("B", "d2d4"), ("A", "d7d5"), ("A", "e4d5")]
    assert pair.pop("B") == ("B", variantkit.Move("d2", "d4"))
    assert pair.game("B").hand("black") == {"p": 1}
    assert pair.pop() == ("A", variantkit.Move("e4", "d5"))
    assert pair.game("B").hand("black") == {}
    pair.pop()
    pair.pop()
    assert pair.fen() == start
    with pytest.raises(IndexError):
        pair.pop()


def test_a_passed_piece_dropped_since_keeps_its_move() -> None:
    pair = load_pair("bughouse")
    for board, move in (("A", "e2e4"), ("A", "d7d5"), ("A", "e4d5"), ("B", "e2e4"),
                        ("B", "P@e5")):
        pair.push(board, move)
    with pytest.raises(ValueError, match="has dropped since"):
        pair.pop("A")
    assert pair.game("A").plies == 3


def test_position_string_is_two_boards_joined() -> None:
    pair = load_pair("supply")
    setup = variantkit.load("supply").new_game().fen()
    assert pair.fen() == f"{setup} | {setup}"
    assert Pair(pair.variant, pair.fen()).fen() == pair.fen()
    assert repr(pair).startswith("<Pair supply ")


@pytest.mark.parametrize(("fen", "message"), [
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1", "two position strings"),
    ("8/8/8/8/8/8/8/8[] w - - 0 1 | 8/8/8/8/8/8/8/8[] w - - 0 1 | x", "two position strings"),
    ("x" * (2 * MAX_POSITION_LENGTH + 4), "more than two boards'"),
    ("4k3/8/8/8/8/8/8/4K3[] w - - 0 1 | 4k3/8/8/8/8/8/8/4K3[Z] w - - 0 1", "'Z'"),
])
def test_bad_position_strings_are_refused(fen: str, message: str) -> None:
    with pytest.raises(InvalidFenError, match=message):
        load_pair("bughouse", fen)


def test_a_one_board_variant_is_no_pair() -> None:
    with pytest.raises(ValueError, match="crazyhouse is played on one board"):
        load_pair("crazyhouse")
    with pytest.raises(ValueError, match="a board is 'A' or 'B'"):
        load_pair("bughouse").push("C", "e2e4")


def test_to_partner_is_declared_and_checked() -> None:
    assert max(variantkit.load("crazyhouse").rules.hands.to_partner) == -1
    text = "variantkit: 1\nname: x\ninherits: bughouse\nhands: {captures: to-partners}\n"
    with pytest.raises(VariantError, match="to-partner"):
        variantkit.load_text(text)
    text = ("variantkit: 1\nname: x\ninherits: koedem\nend:\n  conditions:\n"
            "    - {bare: true, opponent-at-least: 2, result: loss}\n")
    with pytest.raises(VariantError, match="applies to an `extinct` condition only"):
        variantkit.load_text(text)


# -- bughouse PGN ----------------------------------------------------------------

def test_bpgn_numbers_each_move_by_its_board_and_reads_back() -> None:
    pair = load_pair("bughouse")
    for board, move in (("A", "e2e4"), ("B", "d2d4"), ("A", "d7d5"), ("A", "e4d5"),
                        ("B", "P@e5")):
        pair.push(board, move)
    text = write_bpgn(pair, WhiteA="Ann", BlackB='Bo "the" one')
    assert '[WhiteA "Ann"]' in text and '[BlackB "Bo \\"the\\" one"]' in text
    assert text.endswith("\n1A. e4 1B. d4 1a. d5 2A. exd5 1b. P@e5 *\n")
    again = read_bpgn(text)
    assert again.fen() == pair.fen()
    assert again.move_stack == pair.move_stack


def test_bpgn_of_a_finished_game_from_a_position() -> None:
    start = "k7/8/1K6/8/8/8/8/2Q5[] w - - 0 1 | 4k3/8/8/8/8/8/8/4K3[] w - - 0 1"
    pair = Pair(variantkit.load("bughouse"), start)
    pair.push("A", "c1c7")
    text = write_bpgn(pair)
    assert '[Result "1-0"]' in text and f'[FEN "{start}"]' in text
    assert "1A. Qc7 {board A: white wins by stalemate, so white's team wins} 1-0" in text
    assert read_bpgn(text).outcome() == pair.outcome()


def test_bpgn_reading_skips_clock_comments() -> None:
    text = "[Variant \"bughouse\"]\n\n1A. e4 {179.9} 1B. Nf3 {179.8} 1a. e5 {178.1} *\n"
    assert [str(m) for _, m in read_bpgn(text).move_stack] == ["e2e4", "g1f3", "e7e5"]


def test_bpgn_numbers_agree_with_the_boards_over_a_long_random_game() -> None:
    # Whatever the order of the two boards' moves, and from a position whose
    # move number is not 1, what write_bpgn numbers read_bpgn accepts.
    rng = random.Random(7)
    start = ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] b KQkq - 0 12 | "
             "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1")
    pair = Pair(variantkit.load("bughouse"), start)
    while len(pair.move_stack) < 120 and pair.outcome() is None:
        board = rng.choice([b for b in "AB" if pair.legal_moves(b)])
        pair.push(board, rng.choice(pair.legal_moves(board)))
    text = write_bpgn(pair)
    assert "12a. " in text and "1B. " in text and "12A. " not in text
    assert read_bpgn(text).move_stack == pair.move_stack


@pytest.mark.parametrize(("movetext", "message"), [
    # Each number is the move its board is at, whatever the other board did.
    ("1A. e4 3a. e5 *", r"move 3a\. \(the game's move 2\): board A's next move is black's "
     r"move 1, numbered 1a\.$"),
    ("5A. e4 *", r"move 5A\. \(the game's move 1\): .* white's move 1, numbered 1A\.$"),
    ("1A. e4 1B. d4 1a. e5 2A. Nf3 1B. c4 *", r"move 1B\. \(the game's move 5\): board B's "
     r"next move is black's move 1, numbered 1b\.$"),
    ("1A. e4 1a. e5 1A. Nf3 *", r"the game's move 3\): .* white's move 2, numbered 2A\.$"),
    # A number with no move after it.
    ("1A. 1B. d4 *", r"move 1A\. \(the game's move 1\) has no move after its number"),
    ("1A. e4 1a. *", r"move 1a\. \(the game's move 2\) has no move after its number"),
    # A number of 5,000 digits is compared, not converted, and quoted cut.
    ("9" * 5000 + "A. e4 *", r"move 9+\.\.\.9+ \(5,000 characters\)A\. \(the game's move 1\)"),
])
def test_bpgn_move_numbers_are_checked(movetext: str, message: str) -> None:
    with pytest.raises(PgnError, match=message):
        read_bpgn(f'[Variant "bughouse"]\n\n{movetext}\n')


def test_bpgn_numbers_count_from_the_fen_tag_and_may_have_leading_zeros() -> None:
    start = ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 7 | "
             "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1")
    head = f'[SetUp "1"]\n[FEN "{start}"]\n\n'
    pair = read_bpgn(head + "7A. e4 07a. e5 1B. d4 8A. Nf3 *")
    assert [(b, str(m)) for b, m in pair.move_stack] == [
        ("A", "e2e4"), ("A", "e7e5"), ("B", "d2d4"), ("A", "g1f3")]
    with pytest.raises(PgnError, match="white's move 7, numbered 7A"):
        read_bpgn(head + "1A. e4 *")


@pytest.mark.parametrize(("text", "message"), [
    ("1A. e4 e5 *", r"move e5 \(the game's move 2\) has no board and number"),
    ("1a. e5 *", "board A's next move is white's move 1, numbered 1A"),
    ("1A. e5 *", "move 1A. e5"),
    ('[Variant "chess"]\n\n1A. e4 *', "chess is played on one board"),
    ('[Variant "nosuch"]\n\n1A. e4 *', "cannot load the variant"),
    ('[FEN "x"]\n\n1A. e4 *', "bad FEN tag"),
    ("", "no game"),
])
def test_bad_bpgn_is_refused_with_where(text: str, message: str) -> None:
    with pytest.raises(PgnError, match=message):
        read_bpgn(text)


# -- drawings ----------------------------------------------------------------------

def test_text_draws_both_boards_side_by_side() -> None:
    pair = load_pair("bughouse")
    pair.push("A", "e2e4")
    lines = str(pair).splitlines()
    assert lines[0].split() == ["board", "A", "board", "B"]
    assert lines[1].split() == ["black", "hand:", "-", "white", "hand:", "-"]  # B turned
    assert "A: Black to move" in lines and "B: White to move" in lines
    assert lines[-1] == pair.fen()


def test_svg_draws_both_boards_side_by_side() -> None:
    pair = load_pair("supply")
    root = ET.fromstring(pair.svg())
    ns = "{http://www.w3.org/2000/svg}"
    boards = root.findall(f"{ns}svg")
    assert len(boards) == 2
    assert float(boards[1].get("x", "0")) >= float(boards[0].get("width", "0"))
    assert float(root.get("width", "0")) == \
        float(boards[1].get("x", "0")) + float(boards[1].get("width", "0"))
    assert [t.text for t in root.findall(f"{ns}text")] == ["board A", "board B"]
