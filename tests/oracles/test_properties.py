"""Property tests of the game engine (hypothesis), for chess and Trice's Chess.

Random walks driven by hypothesis from the start and from a few FENs check
that making and unmaking moves is exact, that position strings round-trip,
and that perft is consistent with the move lists (and, for every bundled
variant, that counting the moves gives the length of their list).  Bad
position strings and bad moves must raise the library's own ValueError
subclasses with a message.
"""

from __future__ import annotations

import random

import pytest
from catalogue import on_both_builds
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import variantkit
from variantkit import IllegalMoveError, InvalidFenError
from variantkit.pieces import SHORT_BITS

VARIANTS = {name: variantkit.load(name) for name in ("chess", "trice", "crazyhouse")}

STARTS = {
    "chess": [
        None,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    ],
    "trice": [
        None,
        "r4k3r/10/10/10/10/10/10/R4K3R w KQkq - 0 1",
        "r1bqckab1r/pppp1ppppp/2n7/4p3n1/4P5/2N3N3/PPPP1PPPPP/R1BQCKAB1R w KQkq - 4 4",
        "n1n7/PPPk6/10/10/10/10/5Kpppp/6N1N1 b - - 0 1",
        "5k4/10/10/2pP6/10/10/10/5K4 w - c6 0 2",
    ],
    # Pieces in hand: drops, captures into the hand, promoted pawns (`Q~`).
    "crazyhouse": [
        "1n2k3/Q~1p2pp1/3b4/1P1p3r/1p3Pb1/8/PP1PB3/RNBQK1N1[QRPPPrnpp] w Q - 1 14",
    ],
}
CASES = [(name, fen) for name, fens in STARTS.items() for fen in fens]
SETTINGS = settings(deadline=None, max_examples=30,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def new_game(name: str, fen: str | None) -> variantkit.Game:
    variant = VARIANTS[name]
    return variant.new_game(fen=fen) if fen else variant.new_game()


def move_set(game: variantkit.Game) -> list[str]:
    return sorted(str(m) for m in game.legal_moves())


def walk(data: st.DataObject, game: variantkit.Game, max_plies: int) -> list[str]:
    """Play up to max_plies moves chosen by hypothesis; return them."""
    played = []
    plies = data.draw(st.integers(0, max_plies), label="plies")
    for _ in range(plies):
        moves = game.legal_moves()
        if not moves or game.outcome() is not None:
            break
        move = moves[data.draw(st.integers(0, len(moves) - 1), label="move")]
        game.push(move)
        played.append(str(move))
    return played


def assert_words_agree(game: variantkit.Game) -> None:
    """The core's word masks (`bb_low`, `bb_high`) hold what its full masks do."""
    position = game.position
    shift = SHORT_BITS
    for code, mask in enumerate(position.bb):
        assert position.bb_low[code] == mask & ((1 << shift) - 1), code
        assert position.bb_high[code] == mask >> shift, code


@pytest.mark.parametrize(("name", "fen"), CASES)
@SETTINGS
@given(data=st.data())
def test_push_pop_restores_everything(name: str, fen: str | None, data: st.DataObject) -> None:
    game = new_game(name, fen)
    start_fen, start_moves = game.fen(), move_set(game)
    played = walk(data, game, 40)
    assert_words_agree(game)
    here_fen, here_moves, here_check = game.fen(), move_set(game), game.is_check()
    for move in game.legal_moves():
        pushed = game.push(move)
        assert pushed == move
        assert game.fen() != here_fen
        popped = game.pop()
        assert popped == move, f"pop returned {popped}, pushed {move} at {here_fen}"
        assert game.fen() == here_fen, f"push/pop of {move} changed {here_fen} to {game.fen()}"
    # also by string, and the move list survives all of that
    moves = game.legal_moves()
    if moves:
        text = str(moves[len(moves) // 2])
        assert str(game.push(text)) == text
        assert str(game.pop()) == text
    assert move_set(game) == here_moves
    assert game.is_check() == here_check
    # taking back the whole walk returns to the start, in reverse order
    assert [str(m) for m in game.move_stack] == played
    for expected in reversed(played):
        assert str(game.pop()) == expected
    assert game.fen() == start_fen
    assert move_set(game) == start_moves
    assert_words_agree(game)
    with pytest.raises(IndexError):
        game.pop()


@pytest.mark.parametrize(("name", "fen"), CASES)
@SETTINGS
@given(data=st.data())
def test_fen_round_trip(name: str, fen: str | None, data: st.DataObject) -> None:
    game = new_game(name, fen)
    walk(data, game, 60)
    text = game.fen()
    again = new_game(name, text)
    assert again.fen() == text
    assert move_set(again) == move_set(game)
    assert again.is_check() == game.is_check()
    assert again.turn == game.turn
    # outcome rules carry over, history aside: mate, stalemate, material and
    # the move counter depend on the position alone
    result = game.outcome()
    if result is not None and result.reason != "repetition":
        assert again.outcome() == result


@pytest.mark.parametrize(("name", "fen"), CASES)
@SETTINGS
@given(data=st.data())
def test_perft_2_is_sum_of_move_counts(name: str, fen: str | None, data: st.DataObject) -> None:
    game = new_game(name, fen)
    walk(data, game, 30)
    before = game.fen()
    total = 0
    for move in game.legal_moves():
        game.push(move)
        total += len(game.legal_moves())
        game.pop()
    assert variantkit.perft(game, 2) == total
    assert variantkit.perft(game, 1) == len(game.legal_moves())
    assert variantkit.perft(game, 0) == 1
    assert game.fen() == before


# -- bad position strings ------------------------------------------------------------

CHESS_START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
TRICE_START = "rnbqckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQCKABNR"

BAD_FENS = [
    # wrong row count
    ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1"),
    ("chess", CHESS_START + "/8 w KQkq - 0 1"),
    ("chess", "4k3//8/8/8/8/8/8/4K3 w - - 0 1"),
    ("trice", "rnbqckabnr/pppppppppp/10/10/10/PPPPPPPPPP/RNBQCKABNR w KQkq - 0 1"),
    # wrong row length
    ("chess", "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    ("chess", "rnbqkbnr/pppppppp/7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    ("trice", "rnbqckabnr/pppppppppp/8/10/10/10/PPPPPPPPPP/RNBQCKABNR w KQkq - 0 1"),
    ("trice", CHESS_START + " w KQkq - 0 1"),
    # unknown letter
    ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RXBQKBNR w KQkq - 0 1"),
    ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RCBQKBNR w KQkq - 0 1"),
    ("trice", "rnbqckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQCKZBNR w KQkq - 0 1"),
    # bad side to move
    ("chess", CHESS_START + " x KQkq - 0 1"),
    ("trice", TRICE_START + " W KQkq - 0 1"),
    # bad castling letter, or a right without its pieces
    ("chess", CHESS_START + " w KQkz - 0 1"),
    ("trice", TRICE_START + " w KQkx - 0 1"),
    ("chess", "4k3/8/8/8/8/8/8/4K3 w K - 0 1"),
    # missing king, two kings
    ("chess", "4k3/8/8/8/8/8/8/8 w - - 0 1"),
    ("chess", "8/8/8/8/8/8/8/4K3 w - - 0 1"),
    ("chess", "4k3/8/8/8/8/8/8/3KK3 w - - 0 1"),
    ("trice", "5k4/10/10/10/10/10/10/10 w - - 0 1"),
    ("trice", "4kk4/10/10/10/10/10/10/5K4 w - - 0 1"),
    # the side not to move is in check
    ("chess", "4k3/8/8/8/8/8/8/4RK2 w - - 0 1"),
    ("trice", "5k4/10/10/10/10/10/10/5R3K w - - 0 1"),
    ("trice", "5k4/10/4A5/10/10/10/10/9K w - - 0 1"),
    # bad counters
    ("chess", CHESS_START + " w KQkq - x 1"),
    ("chess", CHESS_START + " w KQkq - -1 1"),
    ("chess", CHESS_START + " w KQkq - 0 0"),
    ("chess", CHESS_START + " w KQkq - 0 y"),
    ("trice", TRICE_START + " w KQkq - 1.5 1"),
    # bad en passant cell, extra fields, nothing at all
    ("chess", CHESS_START + " w KQkq z9 0 1"),
    ("chess", CHESS_START + " w KQkq e5 0 1"),
    ("trice", TRICE_START + " w KQkq k3 0 1"),
    ("chess", CHESS_START + " w KQkq - 0 1 extra"),
    ("chess", ""),
    ("trice", "   "),
]


@pytest.mark.parametrize(("name", "fen"), BAD_FENS)
def test_bad_fen_raises(name: str, fen: str) -> None:
    with pytest.raises(InvalidFenError) as info:
        VARIANTS[name].new_game(fen=fen)
    assert str(info.value).strip(), "the error must say what is wrong"
    assert isinstance(info.value, ValueError)


def test_error_classes() -> None:
    assert issubclass(InvalidFenError, ValueError)
    assert issubclass(IllegalMoveError, ValueError)
    assert not issubclass(InvalidFenError, IllegalMoveError)
    assert not issubclass(IllegalMoveError, InvalidFenError)


FEN_ALPHABET = "pnbrqkcaPNBRQKCA0123456789/ wb-KQkqeh"


@pytest.mark.parametrize("name", ["chess", "trice"])
@SETTINGS
@given(data=st.data())
def test_mangled_fen_is_rejected_or_round_trips(name: str, data: st.DataObject) -> None:
    """Any edit of a good FEN either raises InvalidFenError (nothing else) or
    gives a consistent game."""
    variant = VARIANTS[name]
    good = data.draw(st.sampled_from([f for n, f in CASES if n == name and f]))
    at = data.draw(st.integers(0, len(good)))
    cut = data.draw(st.integers(0, 3))
    insert = data.draw(st.text(alphabet=FEN_ALPHABET, max_size=3))
    fen = good[:at] + insert + good[at + cut:]
    try:
        game = variant.new_game(fen=fen)
    except InvalidFenError as error:
        assert str(error).strip()
        return
    text = game.fen()
    again = variant.new_game(fen=text)
    assert again.fen() == text
    assert move_set(again) == move_set(game)
    variantkit.perft(game, 2)
    game.outcome()


# -- bad moves -------------------------------------------------------------------

@pytest.mark.parametrize(("name", "move"), [
    ("chess", "e2e5"), ("chess", "e7e5"), ("chess", "e1g1"), ("chess", "zz"), ("chess", ""),
    ("chess", "e2e4x"), ("chess", "e2e4q"), ("chess", "i2i4"), ("chess", "e2"),
    ("chess", "e2-e4"), ("chess", "E2E4"),
    ("trice", "f1i1"), ("trice", "k2k4"), ("trice", "e2e5"), ("trice", "b1c3c"),
    ("trice", "j2j4j"), ("trice", "a9a8"),
])
def test_bad_move_raises(name: str, move: str) -> None:
    game = VARIANTS[name].new_game()
    before = game.fen()
    with pytest.raises(IllegalMoveError) as info:
        game.push(move)
    assert str(info.value).strip()
    assert game.fen() == before


def test_illegal_move_object_raises() -> None:
    game = VARIANTS["chess"].new_game()
    move = game.push("e2e4")
    game.push("e7e5")
    with pytest.raises(IllegalMoveError):
        game.push(move)  # the pawn has already left e2
    game = VARIANTS["chess"].new_game(fen="4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    with pytest.raises(IllegalMoveError):
        game.push("a7a8")  # a promotion needs its piece
    with pytest.raises(IllegalMoveError):
        game.push("a7a8k")
    with pytest.raises(IllegalMoveError):
        VARIANTS["trice"].new_game(fen="5k4/P9/10/10/10/10/10/5K4 w - - 0 1").push("a7a8k")
    assert str(VARIANTS["trice"].new_game(fen="5k4/P9/10/10/10/10/10/5K4 w - - 0 1")
               .push("a7a8c")) == "a7a8c"


@pytest.mark.parametrize("name", ["chess", "trice"])
def test_copy_is_independent(name: str) -> None:
    game = VARIANTS[name].new_game()
    game.push(str(game.legal_moves()[0]))
    other = game.copy()
    assert other.fen() == game.fen()
    assert move_set(other) == move_set(game)
    other.push(str(other.legal_moves()[0]))
    assert other.fen() != game.fen()
    assert other.pop() is not None and other.pop() is not None
    assert len(game.move_stack) == 1


@pytest.mark.pure_build
@pytest.mark.parametrize("name", on_both_builds(variantkit.variants()))
def test_counted_moves_are_the_listed_ones(name: str) -> None:
    """`count_legal` (perft's last ply, `len(game.legal_moves)`) counts
    the moves that need no test without building them: on the positions of
    seeded random games of every bundled variant it equals the list's length."""
    rng = random.Random(name)
    game = variantkit.load(name).new_game()
    position = game.position
    for _ in range(60):
        moves = position.legal_internal()
        assert position.count_legal() == len(moves), game.fen()
        if not moves:
            break
        position.make_internal(rng.choice(moves))
