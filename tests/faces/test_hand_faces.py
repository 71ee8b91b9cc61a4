"""What a user sees of pieces in hand outside the rules core: the SVG
drawing (hands beside the board on every topology, flip-aware), the text
board, `variantkit explain --drop`, SAN and PGN with drops (`P@e4`, as
Fairy-Stockfish and lichess write them), and the engine (drops searched,
pieces in hand valued), `play` and `selfplay` with drops.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pyffish
import pytest
from catalogue import one_per_board
from click.testing import CliRunner, Result

import variantkit
from variantkit.cli import cli
from variantkit.drawing.svg import HAND_SLOT, cell_geometry, render
from variantkit.drawing.terminal import board_text, hand_text
from variantkit.engine.search import Engine
from variantkit.game import Game
from variantkit.loader import load_document, resolve
from variantkit.notation.san import legal_san, parse_san, san
from variantkit.pgn import read_pgn, write_pgn

SVG = "{http://www.w3.org/2000/svg}"
EXAMPLES = Path(__file__).resolve().parent.parent.parent / "examples"
# White holds a queen, two pawns and a knight; Black a rook.
HELD = "r3k2r/8/8/8/8/8/8/R3K2R[QNPPr] w KQkq - 0 1"
# A rook dropped on the back rank mates: the king is boxed in by its pawns.
DROP_MATE = "7k/6pp/8/8/8/8/8/K7[R] w - - 0 1"


def run(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=stdin)


def crazyhouse(fen: str | None = None) -> Game:
    return variantkit.load("crazyhouse").new_game(fen)


def hand_pieces(svg: str) -> dict[tuple[str, str], int]:
    """(side, letter) -> count, read from the drawing's hand strips."""
    root = ET.fromstring(svg)
    return {(e.attrib["data-side"], e.attrib["data-hand-piece"]): int(e.attrib["data-count"])
            for e in root.iter() if "data-hand-piece" in e.attrib}


def translation(element: ET.Element) -> tuple[float, float]:
    match = re.fullmatch(r"translate\(([-\d.]+) ([-\d.]+)\)", element.attrib["transform"])
    assert match, element.attrib["transform"]
    return float(match[1]), float(match[2])


def strip_top(svg: str, side: str) -> float:
    root = ET.fromstring(svg)
    strip = next(e for e in root.iter() if e.attrib.get("data-hand") == side)
    return float(strip[0].attrib["y"])


# --- the drawing -----------------------------------------------------------------


def test_hands_are_drawn_with_their_counts() -> None:
    game = crazyhouse(HELD)
    svg = render(game)
    assert hand_pieces(svg) == {("white", "Q"): 1, ("white", "P"): 2, ("white", "N"): 1,
                                ("black", "r"): 1}
    # White's hand under the board, Black's over it; flipped, the other way.
    assert strip_top(svg, "black") < strip_top(svg, "white")
    flipped = render(game, flip=True)
    assert strip_top(flipped, "white") < strip_top(flipped, "black")
    # The hand's pieces are the board's figures: a queen is drawn as a queen.
    queen_on_board = render(crazyhouse("4k3/8/8/8/8/8/8/3QK3[] w - - 0 1"))
    figure = re.search(r'data-piece="Q"[^>]*>(<g transform="scale\([\d.]+\)".*?</g>)</g>',
                       queen_on_board)
    assert figure is not None
    first_path = re.search(r'<path d="[^"]+"', figure[1])
    assert first_path is not None and first_path[0] in svg


def test_a_capture_shows_up_in_the_capturers_hand() -> None:
    game = crazyhouse()
    for move in ("e2e4", "d7d5", "e4d5"):
        game.push(move)
    assert hand_pieces(render(game)) == {("white", "P"): 1}
    game.push("d8d5")
    assert hand_pieces(render(game)) == {("white", "P"): 1, ("black", "p"): 1}


def test_the_board_does_not_move_as_a_hand_fills() -> None:
    empty, held = render(crazyhouse()), render(crazyhouse(HELD))

    def a1(svg: str) -> str:
        match = re.search(r'<rect data-cell="a1" x="[\d.]+" y="[\d.]+"', svg)
        assert match
        return match[0]

    assert a1(empty) == a1(held)
    assert 'data-hand="white"' in empty  # an empty hand still has its strip


def test_selected_hand_piece_and_drop_targets() -> None:
    svg = render(crazyhouse(HELD), hand_highlight="P", targets={"e4": "drop"})
    root = ET.fromstring(svg)
    marked = [e.attrib["data-hand-piece"] for e in root.iter()
              if "data-hand-piece" in e.attrib and e.attrib.get("data-mark") == "highlight"]
    assert marked == ["P"]
    assert 'data-target="drop"' in svg
    assert re.search(r'data-cell="e4"[^>]*data-mark="drop"', svg)


def takes_hands(name: str) -> bool:
    """Whether a game's rules allow hands: two-step moves do not
    (`two-step-clash`)."""
    pieces = load_document(name).data["pieces"].values()
    return not any("two-step" in move for piece in pieces for move in piece.get("moves", []))


@pytest.mark.parametrize("name", [name for name in one_per_board() if takes_hands(name)]
                         + [str(EXAMPLES / "glinski.yaml")],
                         ids=lambda name: Path(name).stem)
def test_hands_beside_every_topology(name: str, tmp_path: Path) -> None:
    """Every kind of board gets its hands, with every piece of both hands
    drawn whole inside the picture, clear of the board's cells."""
    text = resolve(name).read_text()
    source = tmp_path / "held.yaml"
    # Pieces dropped without a hand exclude hands (ataxx): dropped from hands here.
    text = re.sub(r"(?m)^  free-drops: .*\n", "", text)
    if not re.search(r"(?m)^hands:", text):   # a board's first game may have hands already
        text += "\nhands:\n  captures: to-capturer\n"
    source.write_text(text)
    held = variantkit.load(str(source))
    game = held.new_game()
    codes = {code for code in game.position.cells
             if code and code in held.rules.hands.hand_codes[0] + held.rules.hands.hand_codes[1]}
    for code in codes:
        game.position.add_to_hand(code, 2)
    letters = {held.letter_of_code(code) for code in codes}
    assert letters
    svg = render(game)
    root = ET.fromstring(svg)
    width, height = (float(v) for v in root.attrib["viewBox"].split()[2:])
    drawn = hand_pieces(svg)
    assert {letter for _, letter in drawn} == set(letters)
    assert all(count == 2 for count in drawn.values())
    board = next(e for e in root.iter() if e.attrib.get("class") == "board")
    top = float(re.fullmatch(r"translate\(0 ([\d.]+)\)", board.attrib["transform"])[1])
    bottom = top + cell_geometry(held.board, facing=[
        c for c, code in held.rules.setup.cells.items() if code & 1 == 0]).height
    half = HAND_SLOT / 2
    for element in root.iter():
        if "data-hand-piece" in element.attrib:
            x, y = translation(element)
            assert half <= x <= width - half
            # Black's hand over the board, White's under it, clear of its cells.
            if element.attrib["data-side"] == "black":
                assert half <= y <= top - half
            else:
                assert bottom + half <= y <= height - half


# --- the text board --------------------------------------------------------------


def test_text_board_writes_both_hands() -> None:
    text = board_text(crazyhouse(HELD))
    lines = text.splitlines()
    # Black's hand over the board, White's under the file letters.
    assert lines[0] == "black hand: r"
    assert lines[1].split() == ["8", "r", ".", ".", ".", "k", ".", ".", "r"]
    assert lines[9].split() == list("abcdefgh")
    assert lines[10] == "white hand: Q N 2P"
    assert str(crazyhouse()).splitlines()[0] == "black hand: -"
    assert hand_text({}) == "-"
    assert "hand" not in board_text(variantkit.load("chess").new_game())


def test_show_command_draws_the_hands() -> None:
    result = run("show", "crazyhouse", "--fen", HELD)
    assert result.exit_code == 0, result.output
    assert "white hand: Q N 2P" in result.output
    assert "[QNPPr]" in result.output


# --- explain ---------------------------------------------------------------------


def test_explain_drop_region_on_the_empty_board() -> None:
    result = run("explain", "crazyhouse", "P", "--drop")
    assert result.exit_code == 0, result.output
    # Pawns are never dropped on the first or last rank.
    assert "@  drop (48):" in result.output
    assert " a1 " not in result.output.split("@  drop")[1]
    assert "a2" in result.output and "h7" in result.output
    knight = run("explain", "crazyhouse", "N", "--drop")
    assert "@  drop (64):" in knight.output


def test_explain_legal_drops_in_a_position() -> None:
    result = run("explain", "crazyhouse", "N", "--drop", "--fen", HELD)
    assert result.exit_code == 0, result.output
    game = crazyhouse(HELD)
    legal = {m.to_cell for m in game.legal_moves() if m.drop == "N"}
    assert f"@  drop ({len(legal)}):" in result.output
    assert "1 in white's hand" in result.output
    # Black's rook waits for its turn.
    waiting = run("explain", "crazyhouse", "r", "--drop", "--fen", HELD)
    assert "cannot be dropped now" in waiting.output
    assert "@  drop (0):" in waiting.output


@pytest.mark.parametrize(("args", "message"), [
    (("chess", "P", "--drop"), "no pieces in hand"),
    (("crazyhouse", "P", "--drop", "--cell", "e4"), "not both"),
    (("crazyhouse", "Q", "--fen", HELD), "--drop: it is in hand"),
    (("crazyhouse", "K", "--drop"), "never in hand"),
])
def test_explain_drop_errors(args: tuple[str, ...], message: str) -> None:
    result = run("explain", *args)
    assert result.exit_code != 0
    assert message in result.output
    assert "Traceback" not in result.output


# --- SAN and PGN -----------------------------------------------------------------


def test_san_writes_and_reads_drops() -> None:
    game = crazyhouse(HELD)
    written = legal_san(game)
    drops = [text for text in written if "@" in text]
    assert "N@e4" in drops and "Q@d8+" in drops
    assert not any(text.startswith("R@") for text in drops)  # Black's rook waits
    move = parse_san(game, "N@f3")
    assert move.drop == "N" and move.to_cell == "f3"
    assert san(game, move) == "N@f3"
    assert parse_san(game, "Q@d8+").drop == "Q"
    black = crazyhouse(HELD.replace(" w ", " b "))
    assert parse_san(black, "R@e4").drop == "R"  # upper case for either side


def test_pgn_round_trips_a_game_with_drops() -> None:
    game = crazyhouse()
    for move in ("e2e4", "d7d5", "e4d5", "d8d5", "b1c3", "d5a5", "P@d4", "P@e6"):
        game.push(move)
    text = write_pgn(game)
    assert "P@d4" in text and "P@e6" in text
    assert '[Variant "crazyhouse"]' in text
    again = read_pgn(text)
    assert [str(m) for m in again.move_stack] == [str(m) for m in game.move_stack]
    assert again.fen() == game.fen()


def test_pgn_from_a_position_with_hands() -> None:
    game = crazyhouse(HELD)
    game.push("N@f3")
    text = write_pgn(game)
    assert '[FEN "r3k2r/8/8/8/8/8/8/R3K2R[QNPPr] w KQkq - 0 1"]' in text
    assert read_pgn(text).fen() == game.fen()


def test_lichess_crazyhouse_pgn_is_read() -> None:
    text = ('[Event "Casual"]\n[Variant "Crazyhouse"]\n[Result "*"]\n\n'
            "1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. P@d4 P@e6 5. Nf3 Nf6 *\n")
    game = read_pgn(text)
    assert [m.drop for m in game.move_stack if m.drop] == ["P", "P"]
    assert game.hand("white") == {} and game.hand("black") == {}


# --- the engine, play and selfplay ------------------------------------------------


def test_engine_finds_a_mating_drop() -> None:
    game = crazyhouse(DROP_MATE)
    move = Engine(game.variant).best_move(game, depth=2)
    assert move.drop == "R"
    game.push(move)
    assert game.is_checkmate()


def test_engine_values_pieces_in_hand() -> None:
    engine = Engine(variantkit.load("crazyhouse"))
    balanced = crazyhouse("4k3/8/8/8/8/8/8/4K3[] w - - 0 1")
    ahead = crazyhouse("4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1")
    engine.best_move(balanced, depth=1)
    even = engine.info.score
    engine.best_move(ahead, depth=1)
    assert engine.info.score > even + 500


def test_engine_recaptures_into_the_hand() -> None:
    # Black's queen hangs: taking it puts a queen in White's hand.
    game = crazyhouse("4k3/8/8/3q4/8/8/3R4/4K3[] w - - 0 1")
    move = Engine(game.variant).best_move(game, depth=2)
    assert str(move) == "d2d5"


def test_play_accepts_drops(tmp_path: Path) -> None:
    pgn = tmp_path / "game.pgn"
    result = run("play", "crazyhouse", "--fen", DROP_MATE, "--depth", "1", "--pgn", str(pgn),
                 stdin="R@a8\n")
    assert result.exit_code == 0, result.output
    assert "Game over: white wins by checkmate" in result.output
    assert "R@a8#" in pgn.read_text()


def test_selfplay_writes_drops(tmp_path: Path) -> None:
    pgn = tmp_path / "games.pgn"
    result = run("selfplay", "crazyhouse", "--fen", HELD, "--depth", "1", "--max-plies", "12",
                 "--random-plies", "6", "--seed", "3", "--pgn", str(pgn))
    assert result.exit_code == 0, result.output
    text = pgn.read_text()
    assert "@" in text.split("\n\n", 1)[1]
    game = read_pgn(text)
    assert game.plies > 0


@pytest.mark.parametrize("fen", [
    HELD,
    # A promoted pawn moves under the letter it looks like: `Nb6`, not `N~b6`.
    "2N~bknQ1/1b3r1N/n3q3/P1P2pP1/p3p1P1/P2bPrP1/1R1PpPPp/b3K1Rn[] w - - 1 64",
    "r1bqk2r/pppp1ppp/2n5/4p3/1b2P3/2N5/PPPP1PPP/R1BQKB1R[NPn] b KQkq - 0 5",
])
def test_san_of_drops_and_promoted_pieces_matches_fairy_stockfish(fen: str) -> None:
    game = crazyhouse(fen)
    theirs = [pyffish.get_san("crazyhouse", game.fen(), str(m)) for m in game.legal_moves()]
    assert legal_san(game) == theirs


def test_pgn_reads_a_promotion_to_a_promoted_form_by_move_string_and_san() -> None:
    """A move string to a promoted form ends in `+` (`b9b10+`, Wolf chess's
    pawn becoming an elephant), which SAN and PGN must not take for a check
    mark."""
    start = "n6k/1P1S4/8/8/8/8/8/8/8/K7 w - - 0 1"
    game = variantkit.load("wolf").new_game(start)
    assert str(game.parse_san("b9b10+")) == "b9b10+"
    game.push("b9b10+")
    text = write_pgn(game)
    assert "1. b10=+P+ *" in text
    assert read_pgn(text).fen() == game.fen()
    assert read_pgn(text.replace("b10=+P+", "b9b10+")).fen() == game.fen()
