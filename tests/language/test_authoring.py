"""What a newcomer writing a variant from the docs trips on: each case
gets a message that names the mistake, or a claim of the docs that is
checked here against the code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import variantkit
from variantkit import VariantError
from variantkit.errors import Problem

ROOT = Path(__file__).resolve().parent.parent.parent
DATA = ROOT / "tests" / "data"


def problems(text: str, folder: Path | None = None) -> list[Problem]:
    try:
        return list(variantkit.load_text(text, folder=folder).problems)
    except VariantError as exc:
        return list(exc.problems)


# -- the pawn's double step: by the piece or by the cell --------------------------

HOUSE_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR[P] w KQkq - 0 1"
INITIAL_HOUSE = """\
variantkit: 1
name: initial-house
inherits: crazyhouse
pieces:
  pawn:
    moves:
      - {step: forward, only: move}
      - {ride: forward, range: [2, 2], only: move, initial: true, en-passant: target}
      - {step: forward-diagonal, only: capture, en-passant: capture}
"""


def test_a_dropped_pawn_double_steps_only_when_the_step_is_tied_to_the_cell() -> None:
    """The tutorial's figures: crazyhouse's `from-region` double step gives
    Fairy-Stockfish's 54,578; `initial: true` loses the dropped pawns' steps."""
    house = variantkit.load("crazyhouse").new_game(HOUSE_FEN)
    assert variantkit.perft(house, 3) == 54_578
    assert variantkit.perft(variantkit.load_text(INITIAL_HOUSE).new_game(HOUSE_FEN), 3) == 54_558
    tutorial = (ROOT / "docs" / "tutorial.md").read_text(encoding="utf-8")
    assert "54,558" in tutorial and "54,578" in tutorial


# -- forward on a graph board ---------------------------------------------------------

GRAPH_PAWN = """\
variantkit: 1
name: g
board:
  graph:
    rows: [a3 b3, a2 b2, a1 b1]
    directions:
      up: {kind: orthogonal, vector: [0, 1], opposite: down}
      right: {kind: orthogonal, vector: [1, 0], opposite: left}
{sides}pieces:
  king: {letter: K, royal: true, moves: [{step: all}]}
  pawn: {letter: P, moves: [{step: forward}]}
setup: k1/1P/K1 w - - 0 1
"""


def test_forward_on_a_graph_without_sides_says_to_declare_them() -> None:
    found = problems(GRAPH_PAWN.replace("{sides}", ""))
    assert [p.rule for p in found] == ["unknown-direction"]
    message = found[0].message
    assert "did you mean" not in message
    assert "sides:" in message and "up, right, down, left" in message


def test_forward_on_a_graph_with_sides_is_its_declared_direction() -> None:
    sides = "sides:\n  white: {forward: up}\n  black: {forward: down}\n"
    game = variantkit.load_text(GRAPH_PAWN.replace("{sides}", sides)).new_game()
    assert sorted(str(m) for m in game.legal_moves() if m.from_cell == "b2") == ["b2b3"]


def test_an_unknown_direction_never_suggests_itself() -> None:
    from variantkit.board.base import unknown_direction
    error = unknown_direction("forward", "graph board", ["orthogonal", "forward"], ["up"])
    assert "did you mean 'forward'" not in error.message


# -- promoted forms in hand -----------------------------------------------------------

def test_a_promoted_form_without_demotion_is_warned_in_a_game_with_hands() -> None:
    text = "variantkit: 1\nname: s\ninherits: shogi\nremove:\n  pieces: {dragon: [demotes-to]}\n"
    warned = [p for p in problems(text) if p.rule == "promoted-in-hand"]
    assert len(warned) == 1 and warned[0].severity == "warning"
    assert "'dragon' (+R)" in warned[0].message and "demotes-to: rook" in warned[0].message


def test_promoted_forms_with_demotion_or_without_hands_are_not_warned() -> None:
    for name in ("shogi", "kyotoshogi", "wolf", "crazyhouse"):
        assert not [p for p in variantkit.load(name).problems if p.rule == "promoted-in-hand"]


# -- graph lines: first-step turns and leap paths --------------------------------------

DIPLOMAT_GRAPH = (DATA / "diplomat_graph.yaml").read_text(encoding="utf-8")
TRIAL_PIECES = """pieces:
  whirl:
    letter: W
    moves:
      - ride: in-cw
  leaper:
    letter: L
    moves:
      - leap: [[out, out]]
      - leap: [[in, in, in]]
"""


def reach(text: str, piece: str, cell: str) -> list[str]:
    v = variantkit.load_text(text.replace("pieces:\n", TRIAL_PIECES, 1), folder=DATA)
    code = v.rules.letter_codes[v.pieces.by_name[piece].letter]
    board = v.board
    reached = v.empty_board_reach(code, board.index[cell])
    return sorted(board.names[c] for c in board.cells_of(reached))


def test_first_step_turns_matter_for_a_piece_riding_one_way_round() -> None:
    """docs/reference/board.md: from c3, `ride: in-cw` reaches 6 cells with
    the first-step turns and 4 without them."""
    without = "\n".join(line for line in DIPLOMAT_GRAPH.splitlines()
                        if "first-step: true" not in line) + "\n"
    assert reach(DIPLOMAT_GRAPH, "whirl", "c3") == ["4", "h1", "i2", "j3", "k2", "l1"]
    assert reach(without, "whirl", "c3") == ["4", "j3", "k2", "l1"]


def test_leap_paths_branch_and_take_no_turns() -> None:
    assert reach(DIPLOMAT_GRAPH, "leaper", "4") == sorted(f"{s}2" for s in "abcdefghijklmn")
    assert reach(DIPLOMAT_GRAPH, "leaper", "c2") == []


# -- hex position strings ---------------------------------------------------------------

def test_the_documented_glinski_position_string_is_the_example_files() -> None:
    setup = variantkit.load(ROOT / "examples" / "glinski.yaml").new_game().fen()
    assert setup in (ROOT / "docs" / "reference" / "board.md").read_text(encoding="utf-8")


# -- a misspelt cell in a graph's rows ---------------------------------------------------

TYPO = """\
variantkit: 1
name: t
board:
  graph:
    rows: [a2 b2, a1 {name}]
    cells: {{a2: [0, 1], b2: [1, 1], a1: [0, 0], b1: [1, 0]}}
    directions:
      n: {{kind: orthogonal, vector: [0, 1], opposite: s}}
      e: {{kind: orthogonal, vector: [1, 0], opposite: w}}
pieces:
  king: {{letter: K, royal: true, moves: [{{step: all}}]}}
setup: k1/1K w - - 0 1
"""


def test_a_misspelt_row_cell_is_named_first() -> None:
    found = problems(TYPO.format(name="bl"))
    assert [p.rule for p in found] == ["unknown-cell"]
    assert found[0].message.startswith("cell 'bl' of `rows` is not in `cells:`")
    assert "did you mean 'b1'?" in found[0].message
    assert (found[0].line, found[0].column) == (5, 19)


def test_rows_and_cells_that_agree_load() -> None:
    assert variantkit.load_text(TYPO.format(name="b1")).board.size == 4


# -- one mistake, one report ------------------------------------------------------------

def test_a_bad_leap_is_not_also_reported_as_misplaced() -> None:
    text = (ROOT / "docs" / "validation.md").read_text(encoding="utf-8")
    section = text[text.index("### bad-leap"):]
    block = re.search(r"```yaml\n(.*?)```", section, re.S)
    assert block is not None
    assert [p.rule for p in problems(block.group(1))] == ["bad-leap"]


@pytest.mark.parametrize("name", ["chess", "diplomat", "shogi"])
def test_bundled_games_keep_quiet(name: str) -> None:
    assert [p for p in variantkit.load(name).problems if p.severity == "warning"] == []


# -- rules pages --------------------------------------------------------------------------

def test_every_game_of_the_games_pages_first_table_has_a_rules_page() -> None:
    """No game's rules live only in a comment of its YAML file."""
    games = (ROOT / "docs" / "games.md").read_text(encoding="utf-8")
    table = games[games.index("| name | game | rules |"):]
    table = table[:table.index("\n\n")]
    rows = [line for line in table.splitlines()[2:] if line.startswith("| `")]
    assert len(rows) >= 14
    for row in rows:
        rules = row.rstrip(" |").rsplit("|", 1)[1]
        assert re.search(r"\]\(rules/[a-z0-9-]+\.md(#[a-z0-9-]+)?\)", rules), row


# -- drawing a graph board ------------------------------------------------------------------

def test_show_draws_a_graph_boards_cell_names_beside_it() -> None:
    from variantkit.drawing.terminal import board_text
    text = board_text(variantkit.load(DATA / "chess_graph.yaml").new_game())
    lines = text.splitlines()
    assert lines[0].split() == [*"rnbqkbnr", *(f"{f}8" for f in "abcdefgh")]
    assert lines[7].split() == [*"RNBQKBNR", *(f"{f}1" for f in "abcdefgh")]


def test_boards_with_coordinates_draw_no_names() -> None:
    from variantkit.drawing.terminal import board_text
    assert "a8" not in board_text(variantkit.load("chess").new_game()).split("FEN")[0]


# -- variantkit betza ------------------------------------------------------------------------

def betza_command(*args: str) -> tuple[int, str]:
    from click.testing import CliRunner

    from variantkit.cli import cli
    result = CliRunner().invoke(cli, ["betza", *args])
    return result.exit_code, result.output


def test_betza_prints_the_primitives_and_the_cells_reached() -> None:
    import yaml
    code, out = betza_command("fmWfcF", "--variant", "chess", "--from", "d4")
    assert code == 0, out
    listing = out.split("\n\n")[1]
    assert yaml.safe_load(listing) == [{"step": "forward", "only": "move"},
                                       {"step": "forward-diagonal", "only": "capture"}]
    assert "+  move only (1): d5" in out and "#  capture only (2): c5 e5" in out
    assert "3 destinations" in out


def test_betza_turns_round_for_black_and_marks_initial_moves() -> None:
    code, out = betza_command("ifmnDfmWfcF", "--from", "e7", "--side", "black")
    assert code == 0, out
    assert "+  move only (1): e6" in out and "#  capture only (2): d6 f6" in out
    assert "^  only while the piece has not moved (1): e5" in out


def test_betza_on_a_board_of_other_shape_draws_that_board() -> None:
    code, out = betza_command("WF", "--variant", "xiangqi", "--from", "e5")
    assert code == 0, out
    assert "10 . . . . . . . . ." in out and "8 destinations" in out


def test_betza_refuses_a_bad_string_or_cell_with_a_message() -> None:
    code, out = betza_command("Kx")
    assert code == 1 and "unknown letter 'x'" in out and "Traceback" not in out
    code, out = betza_command("K", "--from", "z9")
    assert code == 1 and "unknown cell 'z9'" in out
    code, out = betza_command("K", "--variant", "diplomat")
    assert code == 1 and "betza notation is for grid and graph boards" in out


UNPLACED = """\
variantkit: 1
name: unplaced
board:
  graph:
    cells: {p: null, q: null, r: null}
    directions:
      cw: {kind: orthogonal, opposite: ccw}
    lines:
      cw: [p q r]
pieces:
  king: {letter: K, royal: true, moves: [{step: all}]}
setup: K1k w - - 0 1
"""


def test_a_graph_without_positions_is_drawn_with_its_cell_names() -> None:
    game = variantkit.load_text(UNPLACED).new_game()
    texts = re.findall(r"<text[^>]*>([^<]*)</text>", game.svg())
    assert {"p", "q", "r"} <= set(texts)
    assert game.svg().count("<rect") >= 3          # drawn as rows of squares
    assert str(game).split() == ["K", ".", "k", "p", "q", "r"]
