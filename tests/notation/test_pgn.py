"""Tests of PGN writing and reading (variantkit.pgn): round trips in every
bundled variant, the FEN tag, what the reader skips, and bad PGN."""

from __future__ import annotations

import pytest
from catalogue import one_per_board

import variantkit
from variantkit import Engine, Game, PgnError, read_games, read_pgn, write_pgn
from variantkit.pgn import parse_pgn

# Lines ending in a castling, a promotion or a suborn (found by random play).
LINES = {
    "chess": "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1 f8c5 c2c3 e8g8",
    "strato": "Ag1Ch3 Cf8Ah6 Aa1Ca1 Cg8Bh6 Af1Be2 Cd8Bd8 Ab1Bd2 Bd8Ba8 Ca1Ba1 Cc8Aa6 "
              "Ac1Ca3 Ce8Cg8",
    "trice": "c2c3 f7f6 g1f3 e7e5 j2j4 b8a6 f3c6 j7j6 h2h3 e5e4 d2d3 e4d3 f2f4 b7c6 e1c2 "
             "e8e2 d1d2 d3c2 g2g4 f8e8 h1f3 e2e1 d2e1 d8e7 b2b4 e7e5 e1h4 c2b1b",
    "diplomat": "f1g1 i1h3 g1h2 h3g1 h2~i2 g1f3 h2g1 k2k3 i2j1r",
}
STRATO_PROMOTION = (
    "Ac2Bc4 Ca7Ba5 Ab1Ca3 Cf8Bg7 Ad1Cf3 Bg7Bf6 Cf3Ad1 Cb8Ba6 Ae2Be4 Cg8Ae7 Bc4Ac5 Cg7Ag5 "
    "Ac5Bc6 Cd8Be7 Bc6Ac7 Be7Af8 Ad2Bd3 Cb7Bb5 Be4Ce5 Bf6Ba1 Ad1Bc2 Bb5Bb4 Bc2Bg2 Ae7Bd5 "
    "Bg2Be4 Bb4Ab3 Ag1Ch3 Af8Bg7 Ab2Cb4 Ba6Ab4 Ac7Ac8n")


def played(name: str, moves: str, fen: str | None = None) -> Game:
    game = variantkit.load(name).new_game(fen)
    for move in moves.split():
        game.push(move)
    return game


def assert_round_trip(game: Game) -> str:
    text = write_pgn(game)
    back = read_pgn(text)
    assert back.variant.name == game.variant.name
    assert back.move_stack == game.move_stack
    assert back.fen() == game.fen()
    return text


@pytest.mark.parametrize("name, moves", [*LINES.items(), ("strato", STRATO_PROMOTION)])
def test_scripted_lines_round_trip(name: str, moves: str) -> None:
    game = played(name, moves)
    text = assert_round_trip(game)
    assert f'[Variant "{name}"]' in text and "[FEN " not in text
    last = game.pop()
    assert game.san(last) in text.split()


@pytest.mark.parametrize("name", one_per_board())
def test_engine_games_round_trip(name: str) -> None:
    game = variantkit.load(name).new_game()
    engine = Engine(game.variant)
    for _ in range(8):
        if game.outcome() is not None:  # a quick mate (almost chess has one)
            break
        game.push(engine.best_move(game, depth=1))
    assert_round_trip(game)


def test_layout() -> None:
    text = write_pgn(played("chess", "f2f3 e7e5 g2g4 d8h4"), White="Ann", Event='a "quoted" \\')
    head, moves = text.split("\n\n")
    assert head.splitlines() == [
        '[Event "a \\"quoted\\" \\\\"]', '[Site "?"]', '[Date "????.??.??"]', '[Round "?"]',
        '[White "Ann"]', '[Black "?"]', '[Result "0-1"]', '[Variant "chess"]',
        '[Termination "normal"]']
    assert moves == "1. f3 e5 2. g4 Qh4# {black wins by checkmate} 0-1\n"
    assert parse_pgn(text)[0].tags["Event"] == 'a "quoted" \\'
    assert parse_pgn(text)[0].result == "0-1"
    # Long games wrap at 80 columns.
    long = write_pgn(played("chess", "g1f3 g8f6 f3g1 f6g8 " * 4))
    assert all(len(line) <= 80 for line in long.splitlines())
    assert read_pgn(long).fen() == variantkit.load("chess").new_game().fen().replace(
        "0 1", "16 9")


def test_fen_tag() -> None:
    fen = "6k1/5ppp/8/8/8/8/5PPP/R5K1 b - - 0 1"
    game = played("chess", "g8h8 a1a8", fen)
    text = assert_round_trip(game)
    assert '[SetUp "1"]' in text and f'[FEN "{fen}"]' in text
    assert "1... Kh8 2. Ra8# {white wins by checkmate} 1-0" in text
    promotion = played("chess", "a7a8q h7g6", "8/P6k/8/8/8/8/8/K7 w - - 0 1")
    assert "1. a8=Q Kg6 *" in assert_round_trip(promotion)


def test_reader_skips_comments_nags_and_variations() -> None:
    text = """[Event "x"]
[Variant "chess"]

1.e2e4 {best by test} $1 e7e5!? (1... c7c5 2. g1f3 (2. b1c3 b8c6)) 2. g1f3+ ; a comment
b8c6 3. f1b5 a7a6 1/2-1/2

[Variant "diplomat"]
1. b1n2 m1~n2 *
"""
    first, second = read_games(text)
    assert [str(m) for m in first.move_stack] == ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"]
    assert second.variant.name == "diplomat"
    assert str(second.move_stack[-1]) == "m1~n2"


def test_variant_given_and_default() -> None:
    diplomat = variantkit.load("diplomat")
    assert read_pgn("1. b1n2 *", diplomat).variant is diplomat
    assert read_pgn("1. e2e4 *").variant.name == "chess"  # no Variant tag: chess


@pytest.mark.parametrize("text, message", [
    ("1. e2e4 e7e5 2. e2e5 *", r"move 2\. e2e5: illegal move 'e2e5'"),
    ("1. e2e4 e7e5 2. g1f3 e7e6 *", r"move 2\.\.\. e7e6: .*black has no legal move from e7"),
    ("1. Nf5 *", r"move 1\. Nf5: illegal move 'Nf5'; the legal knight moves are Na3, Nc3"),
    ("1. Zz9 *", r"move 1\. Zz9: 'Zz9' is not a move here: expected SAN such as"),
    ("1. e7e8 *", r"move 1\. e7e8"),
    ("1. e2e4 { never closed", r"unclosed comment '\{' after move 1 \(e2e4\)"),
    ("1. e2e4 (1. d2d4 *", r"unclosed variation"),
    ("1. e2e4 ) *", r"unmatched '\)'"),
    ('1. e2e4 [Event "x"]', r"tag Event after the moves .* result token is missing"),
    ('[Variant "nosuch"] 1. e2e4 *', r"cannot load the variant .*nosuch"),
    # A tag names a bundled variant, never a file to load.
    ('[Variant "variants/chess.yaml"] 1. e2e4 *', r"cannot load the variant .*variantkit list"),
    ('[FEN "8/8 w - - 0 1"] *', r"bad FEN tag: placement part"),
    ("", r"no game"),
])
def test_bad_pgn(text: str, message: str) -> None:
    with pytest.raises(PgnError, match=message):
        read_pgn(text)
    assert issubclass(PgnError, ValueError)


def test_python_chess_reads_our_chess_pgn_and_we_read_its() -> None:
    import io

    import chess.pgn

    game = played("chess", "f2f3 e7e5 g2g4 d8h4")
    text = write_pgn(game, White="Ann")
    theirs = chess.pgn.read_game(io.StringIO(text))
    assert theirs is not None and not theirs.errors
    assert [m.uci() for m in theirs.mainline_moves()] == [str(m) for m in game.move_stack]
    assert theirs.headers["Termination"] == "normal" and theirs.headers["Result"] == "0-1"
    assert theirs.end().board().fen() == game.fen()
    # A longer engine game with castling, captures and checks, both ways.
    engine_game = variantkit.load("chess").new_game()
    engine = Engine(engine_game.variant)
    for _ in range(24):
        if engine_game.outcome():
            break
        engine_game.push(engine.best_move(engine_game, depth=1))
    theirs = chess.pgn.read_game(io.StringIO(write_pgn(engine_game)))
    assert theirs is not None and not theirs.errors
    assert theirs.end().board().fen() == engine_game.fen()
    exported = theirs.accept(chess.pgn.StringExporter(headers=True))
    assert read_pgn(exported).fen() == engine_game.fen()


def test_termination_tag() -> None:
    going = write_pgn(played("chess", "e2e4"))
    assert '[Termination "unterminated"]' in going and going.rstrip().endswith("1. e4 *")
    resigned = write_pgn(played("chess", "e2e4"), Result="0-1")
    assert '[Termination "normal"]' in resigned
    assert '[Termination "adjudication"]' in write_pgn(played("chess", "e2e4"),
                                                        Termination="adjudication")
