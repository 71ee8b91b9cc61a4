"""How each game's moves are written (variantkit.notation.san's styles and the
`notation:` declaration), against Fairy-Stockfish's `get_san` (pyffish):
every bundled game Fairy-Stockfish knows writes its moves as Fairy-Stockfish
does by default (check marks aside), each style offered writes them as
pyffish's notation of that name, and every style's text reads back as the
same move."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pyffish
import pytest
from fsf_oracle import fsf_variants

import variantkit
from variantkit import Game, Move, VariantError
from variantkit.notation.san import legal_san, san_moves
from variantkit.pgn import read_pgn, write_pgn
from variantkit.rulebook.notation import STYLES

# What is tested here is pure Python in both builds.
PURE_PASS = False
# Each style and the notation pyffish writes it in (USI has none: see `usi`).
PYFFISH = {"san": pyffish.NOTATION_SAN, "hodges-number": pyffish.NOTATION_SHOGI_HODGES_NUMBER,
           "hodges": pyffish.NOTATION_SHOGI_HODGES, "hosking": pyffish.NOTATION_SHOGI_HOSKING,
           "wxf": pyffish.NOTATION_XIANGQI_WXF}
# A few games of each family whose moves were once written unlike
# Fairy-Stockfish's (`make test`); the oracle run plays every bundled one.
SAMPLE = ["shogi", "kyotoshogi", "minishogi", "xiangqi", "janggi", "berolina", "wolf",
          "embassy"]


def positions(name: str, seed: int, plies: int) -> Iterator[Game]:
    """The positions of one seeded random game, the start included."""
    rng = random.Random(f"{name}:{seed}")
    game = variantkit.load(name).new_game()
    for _ in range(plies + 1):
        moves = game.legal_moves()
        if not moves or game.outcome() is not None:
            return
        yield game
        game.push(rng.choice(sorted(moves, key=str)))


def unmarked(text: str) -> str:
    """SAN without its check or mate mark."""
    return text.rstrip("+#")


def usi(variant: variantkit.Variant, move: str) -> str:
    """A move string of a 9x9-like shogi board as USI writes it, worked
    out here from the cells' names (files counted from the right, ranks
    lettered from the top), independently of variantkit.notation.san."""
    files, ranks = variant.board.topology.files, variant.board.topology.ranks  # type: ignore[attr-defined]

    def cell(name: str) -> str:
        return f"{files - (ord(name[0]) - ord('a'))}{chr(ord('a') + ranks - int(name[1:]))}"
    if "@" in move:
        letter, _, to = move.partition("@")
        return f"{letter}*{cell(to)}"
    promotion = move[-1] if move[-1] in "+-" else ""
    body = move[:-1] if promotion else move
    split = next(i for i in range(2, len(body)) if body[i].isalpha())
    return cell(body[:split]) + cell(body[split:]) + promotion


def compare_default(name: str, seed: int, plies: int) -> int:
    """Compare every legal move's default writing with pyffish's along one
    game, and its round trip; return the moves compared."""
    compared = 0
    style = variantkit.load(name).rules.notation.style
    for game in positions(name, seed, plies):
        fen = game.fen()
        for move, text in zip(game.legal_moves(), legal_san(game), strict=True):
            theirs = pyffish.get_san(name, fen, str(move), False, pyffish.NOTATION_DEFAULT)
            ours = unmarked(text) if style == "san" else text
            assert ours == (unmarked(theirs) if style == "san" else theirs), (fen, str(move))
            assert game.parse_san(text) == move, (fen, text)
            compared += 1
    return compared


@pytest.mark.parametrize("name", SAMPLE)
def test_default_writing_is_fairy_stockfishs(name: str) -> None:
    assert compare_default(name, 0, 6) > 0


@pytest.mark.oracle
@pytest.mark.parametrize("name", fsf_variants())
@pytest.mark.parametrize("seed", range(3))
def test_default_writing_is_fairy_stockfishs_deeply(name: str, seed: int) -> None:
    compare_default(name, seed, 80)


def compare_style(name: str, style: str, seed: int, plies: int) -> None:
    """Each legal move written in `style` along one game: as pyffish writes
    it (USI: as worked out from the move string), and read back.  Where
    pyffish writes two legal moves alike (WXF's `M7+5` is two moves of
    manchu's banner, a leap and a ride), the move string is written, so
    that the text reads back."""
    variant = variantkit.load(name)
    for game in positions(name, seed, plies):
        fen = game.fen()
        moves = game.legal_moves()
        theirs = [usi(variant, str(m)) if style == "usi" else
                  pyffish.get_san(name, fen, str(m), False, PYFFISH[style]) for m in moves]
        for move, text, expected in zip(moves, legal_san(game, style), theirs, strict=True):
            if theirs.count(expected) > 1:
                expected = str(move)
            if style == "san":
                text, expected = unmarked(text), unmarked(expected)
            assert text == expected, (fen, str(move), style)
            assert game.parse_san(game.san(move, style)) == move, (fen, text, style)


@pytest.mark.parametrize(("name", "style"), [
    ("shogi", "hodges"), ("shogi", "hosking"), ("shogi", "usi"), ("minishogi", "hodges"),
    ("kyotoshogi", "hosking"), ("xiangqi", "wxf"), ("manchu", "wxf")])
def test_each_style_is_written_as_pyffish_writes_it(name: str, style: str) -> None:
    compare_style(name, style, 1, 6)


@pytest.mark.oracle
@pytest.mark.parametrize("name", ["shogi", "minishogi", "kyotoshogi", "dobutsu", "euroshogi",
                                  "torishogi", "yarishogi", "okisakishogi", "shoshogi"])
@pytest.mark.parametrize("style", ["hodges-number", "hodges", "hosking", "usi"])
def test_shogi_styles_deeply(name: str, style: str) -> None:
    for seed in range(3):
        compare_style(name, style, seed, 80)


@pytest.mark.oracle
@pytest.mark.parametrize("name", ["xiangqi", "manchu", "minixiangqi"])
def test_wxf_deeply(name: str) -> None:
    for seed in range(3):
        compare_style(name, "wxf", seed, 80)


def test_shogi_examples() -> None:
    game = variantkit.load("shogi").new_game(
        "4k4/9/4p4/2S6/9/9/9/3G1G3/4K4[Pp] w - - 0 1")
    assert game.san("c6c7+") == "S-73+" and game.san("c6c7") == "S-73="
    assert game.san("d2e3") == "G68-57" and game.san("d2e3", "hosking") == "G68-57"
    assert game.san("P@e5") == "P*55" and game.san("P@e5", "hosking") == "P'55"
    assert game.san("c6c7+", "hodges") == "S-7c+" and game.san("c6c7+", "usi") == "7d7c+"
    assert game.san("e1d1", "hosking") == "K69"
    # Every style reads, whatever the variant declares; SAN too.
    for text in ["S-73+", "S73+", "S-7c+", "7d7c+", "Sc7=+S"]:
        assert game.parse_san(text) == Move("c6", "c7", "+")
    assert game.parse_san("S-73") == Move("c6", "c7")   # `=` left out


def test_xiangqi_letters_and_wxf() -> None:
    game = variantkit.load("xiangqi").new_game()
    assert game.san("b1c3") == "Hc3" and game.san("c1e3") == "Ece3"
    assert game.san("b1c3", "wxf") == "H8+7" and game.san("h3e3", "wxf") == "C2=5"
    assert game.parse_san("Nc3") == game.parse_san("H8+7") == Move("b1", "c3")
    tandem = variantkit.load("xiangqi").new_game("3k5/9/9/9/9/9/R8/9/R8/4K4 w - - 0 1")
    assert {tandem.san(m, "wxf") for m in tandem.legal_moves if m.to_cell == "b4"} == {"R+=8"}


def test_fairy_stockfish_castling_names() -> None:
    # Embassy chess: the king on e1 is nearer the a-side rook, yet O-O
    # castles towards the j-file, as Fairy-Stockfish writes it.
    game = variantkit.load("embassy").new_game(
        "r3k4r/10/10/10/10/10/10/R3K4R w KQkq - 0 1")
    castlings = {str(m): game.san(m) for m in game.legal_moves
                 if m.from_cell == "e1" and m.to_cell in ("h1", "b1", "c1")}
    for move, text in castlings.items():
        theirs = pyffish.get_san("embassy", game.fen(), move)
        assert text == theirs.rstrip("+#"), move
    assert "O-O" in castlings.values() and "O-O-O" in castlings.values()


def test_declared_letters_and_pawns() -> None:
    wolf = variantkit.load("wolf").new_game()
    assert wolf.san("a2a3") == "a3" and wolf.san("b2a3") == "Sa3"
    berolina = variantkit.load("berolina").new_game()
    assert berolina.san("a2b3") == "Pab3"
    assert berolina.parse_san("ab3") == Move("a2", "b3")   # read as before


def test_pgn_in_a_style_reads_back() -> None:
    game = variantkit.load("shogi").new_game()
    for move in ["c3c4", "c7c6", "h2c2", "b8c8"]:
        game.push(move)
    for style in [None, *STYLES]:
        text = write_pgn(game, style)
        assert [str(m) for m in read_pgn(text).move_stack] == \
            ["c3c4", "c7c6", "h2c2", "b8c8"], style
    assert "1. P-76 P-74 2. R-78 R-72" in write_pgn(game)
    assert san_moves(game.variant.new_game(), game.move_stack, "usi")[0] == "7g7f"


def test_a_style_that_does_not_fit_the_board() -> None:
    strato = variantkit.load("strato").new_game()
    with pytest.raises(ValueError, match="counts files and ranks"):
        strato.san("Ae2Be4", "usi")
    with pytest.raises(ValueError, match="unknown move style 'pinyin'"):
        strato.san("Ae2Be4", "pinyin")


@pytest.mark.parametrize(("text", "where", "rule"), [
    ("inherits: strato\nnotation:\n  style: usi\n", "5:10", "notation-style"),
    ("inherits: diplomat\nnotation:\n  traditions: [wxf]\n", "5:16", "notation-style"),
    ("inherits: xiangqi\nnotation:\n  letters: {knight: H}\n", "5:13", "unknown-piece"),
    ("inherits: chess\nnotation:\n  letters: {pawn: p}\n", "5:19", "schema"),
    ("inherits: chess\nnotation:\n  style: pinyin\n", "5:10", "schema"),
])
def test_notation_mistakes_are_located(text: str, where: str, rule: str) -> None:
    with pytest.raises(VariantError) as caught:
        variantkit.load_text("variantkit: 1\nname: x\n" + text)
    problems = caught.value.problems
    assert any(p.rule == rule and f"{p.line}:{p.column}" == where for p in problems), \
        [(p.line, p.column, p.rule, p.message) for p in problems]


def test_the_playground_writes_moves_in_the_style_picked() -> None:
    from variantkit.web import tasks
    shogi = {"source": {"bundled": "shogi"}, "moves": ["c3c4", "P-74"]}
    answer = tasks.position(shogi)
    assert answer["moves"] == ["P-76", "P-74"] and answer["notation"] == "hodges-number"
    assert answer["notations"] == ["hodges-number", "hodges", "hosking", "usi"]
    assert tasks.position({**shogi, "notation": "usi"})["moves"] == ["7g7f", "7c7d"]
    assert "1. 7g7f 7c7d" in tasks.pgn({**shogi, "notation": "usi"})["pgn"]
    refused = tasks.run(tasks.position, {"source": {"bundled": "diplomat"}, "notation": "usi"})
    assert not refused["ok"] and "'notation' should be one of san" in \
        refused["problems"][0]["message"]
