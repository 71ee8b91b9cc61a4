"""Graph boards (`board: graph:`) and wrapped grids: their declaration, their
lines, the problems a bad declaration gives (located, with rule ids), the
drawings of any valid graph board, and the Omega Chess example."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import variantkit
from variantkit.board.graph import MAX_CELLS
from variantkit.drawing.svg import render
from variantkit.drawing.terminal import board_text
from variantkit.errors import VariantError
from variantkit.variant import Variant

EXAMPLES = Path(__file__).parent.parent.parent / "examples"

# A three-by-three graph board of named cells; the tests add to it or break it.
SMALL = """\
variantkit: 1
name: small
board:
  graph:
    rows:
      - a3 b3 c3
      - a2 b2 c2
      - a1 b1 c1
    directions:
      n: {kind: orthogonal, opposite: s, vector: [0, 1]}
      e: {kind: orthogonal, opposite: w, vector: [1, 0]}
      ne: {kind: diagonal, opposite: sw, vector: [1, 1]}
      nw: {kind: diagonal, opposite: se, vector: [-1, 1]}
pieces:
  king:
    letter: K
    royal: true
    moves:
      - step: all
  rook:
    letter: R
    moves:
      - ride: orthogonal
setup: k2/3/K1R w - - 0 1
"""


SMALL_BOARD = SMALL[SMALL.index("    rows:"):SMALL.index("pieces:") - 1]


def on_board(board: str) -> str:
    """SMALL with another `graph:` body (the rows and directions replaced)."""
    return SMALL.replace(SMALL_BOARD, board.rstrip("\n"))


def load(tmp_path: Path, text: str) -> Variant:
    path = tmp_path / "v.yaml"
    path.write_text(text, encoding="utf-8")
    return variantkit.load(str(path))


def problems(tmp_path: Path, text: str) -> list[tuple[int | None, int | None, str, str]]:
    try:
        variant = load(tmp_path, text)
    except VariantError as exc:
        found = exc.problems
    else:
        found = variant.problems
    return [(p.line, p.column, p.rule, p.severity) for p in found]


def destinations(game: variantkit.Game, frm: str) -> set[str]:
    return {str(m)[len(frm):] for m in game.legal_moves() if str(m).startswith(frm)}


# -- declaring ----------------------------------------------------------------


def test_vectors_link_cells_by_their_positions(tmp_path: Path) -> None:
    variant = load(tmp_path, SMALL)
    assert variant.problems == []
    board = variant.board
    assert board.names[0] == "a3" and board.size == 9
    assert destinations(variant.new_game(), "c1") == {"b1", "c2", "c3"}
    assert destinations(variant.new_game(), "a1") == {"b1"}  # a2, b2 touch the black king
    assert variant.new_game().fen() == "k2/3/K1R w - - 0 1"


# Rows of uneven length, no mirror image of themselves top to bottom: a
# knight given by vectors, for a side moving n and one moving s.
UNEVEN = """\
variantkit: 1
name: uneven
board:
  graph:
    rows:
      - a7 b7 c7 d7 e7 f7 g7
      - a6 b6 c6 d6 e6 f6 g6 h6
      - a5 b5 c5 d5 e5 f5 g5 h5
      - a4 b4 c4 d4 e4 f4 g4 h4
      - a3 b3 c3 d3 e3 f3 g3 h3
      - . b2 c2 d2 e2 f2 g2 h2
      - . . c1 d1 e1 f1 g1 h1
    directions:
      n: {kind: orthogonal, opposite: s, vector: [0, 1]}
      e: {kind: orthogonal, opposite: w, vector: [1, 0]}
      ne: {kind: diagonal, opposite: sw, vector: [1, 1]}
      nw: {kind: diagonal, opposite: se, vector: [-1, 1]}
sides:
  white: {forward: n}
  black: {forward: s}
pieces:
  king: {letter: K, royal: true, moves: [{step: all}]}
  knight:
    letter: N
    moves: [{leap: [[1, 2], [2, 1], [-1, 2], [-2, 1], [1, -2], [2, -1], [-1, -2], [-2, -1]]}]
  scout:
    letter: S
    moves: [{leap: [[0, 2], [1, 2]]}]
setup: k6/8/4X3/8/8/7/K5 w - - 0 1
"""


@pytest.mark.parametrize(("piece", "white", "black"), [
    ("n", {"c4", "c6", "d3", "d7", "f3", "f7", "g4", "g6"}, None),
    ("s", {"e7", "f7"}, {"e3", "f3"}),   # forward leaps: Black's go down, as mirrored
])
def test_vector_leaps_on_uneven_rows_are_the_same_for_both_sides(
        tmp_path: Path, piece: str, white: set[str], black: set[str] | None) -> None:
    """A vector leap on a board laid out by rows reaches, for each side, the
    cells its vectors (mirrored in the rank for a side moving s) point at,
    whether or not the board is its own mirror image."""
    variant = load(tmp_path, UNEVEN.replace("X", piece))
    assert variant.problems == []
    black_game = variant.new_game(variant.new_game().fen().replace(" w ", " b "))
    assert destinations(black_game, "e5") == (white if black is None else black)
    white_game = variant.new_game(variant.new_game().fen().replace(piece, piece.upper()))
    assert destinations(white_game, "e5") == white


def test_lines_and_derived_opposites(tmp_path: Path) -> None:
    # Without vectors: a ring of four cells, linked by one line string.
    text = on_board("""    rows: [p q r s, t]
    directions:
      cw: {kind: orthogonal, opposite: ccw}
      out: {kind: orthogonal, opposite: in}
    lines:
      cw: [p q r s p]
      out: [s t]""").replace("setup: k2/3/K1R w - - 0 1", "setup: K1R1/k w - - 0 1")
    variant = load(tmp_path, text)
    assert variant.problems == []
    game = variant.new_game()
    # Round the ring both ways, stopping before its own cell and at pieces.
    assert destinations(game, "r") == {"q", "s"}
    assert variant.board.topology.rays(variant.board.cell("q"), "cw") == [(2, 3, 0)]
    assert variant.board.topology.rays(variant.board.cell("t"), "in") == [(3,)]


def test_turns_and_branches(tmp_path: Path) -> None:
    # A Y: the stem a-b-c forks at c into d and e; a line from a going `up`
    # turns at c to e only, and `down` from e meets the stem.
    text = on_board("""    rows: [d e, c, b, a, k]
    directions:
      up: {kind: orthogonal, opposite: down}
    lines:
      up: [a b c d, c e, k a]
    turns:
      - {direction: up, from: b, at: c, to: e, then: up}
      - {direction: up, from: b, at: c, to: [d, e], then: up, first-step: true}
""").replace("setup: k2/3/K1R w - - 0 1", "setup: 2/1/1/R/K w - - 0 1") \
        .replace("letter: K\n    royal: true\n    moves:\n      - step: all",
                 "letter: K\n    royal: true\n    moves:\n      - step: orthogonal")
    text = text.replace("setup: 2/1/1/R/K w - - 0 1", "setup: k1/1/1/R/K w - - 0 1")
    variant = load(tmp_path, text)
    board = variant.board
    topo = board.topology
    cell = board.cell
    assert topo.rays(cell("a"), "up") == [(cell("b"), cell("c"), cell("e"))]
    assert sorted(topo.rays(cell("b"), "up")) == sorted(
        [(cell("c"), cell("d")), (cell("c"), cell("e"))])
    assert sorted(topo.rays(cell("c"), "up")) == sorted([(cell("d"),), (cell("e"),)])
    assert destinations(variant.new_game(), "a") == {"b", "c", "e"}


def test_a_graph_may_start_from_a_grid_with_holes(tmp_path: Path) -> None:
    text = on_board("""    from: {grid: {files: 4, ranks: 4}}
    remove-cells: [b2, c3]
    cells: {x: [5, 0]}
    directions:
      out: {kind: orthogonal, opposite: back}
    lines:
      out: [d1 x]
  regions:
    low: {ranks: [1], cells: [x]}
    bottom: {rows: [1]}""").replace("setup: k2/3/K1R w - - 0 1",
                                     "setup: 3k/3/3/R3/K w - - 0 1")
    text = text.replace("      - ride: orthogonal", "      - ride: orthogonal\n"
                        "      - ride: out\n      - leap: [1, 2]\n        only: move")
    text += "promotion:\n  pieces: [rook]\n  regions: {white: low, black: bottom}\n" \
            "  choices: [rook]\n"
    variant = load(tmp_path, text)
    board = variant.board
    assert board.size == 15 and "b2" not in board.index
    assert board.layout[0][-1] == [board.cell("x")]
    assert board.cells_of(board.regions["low"]) == sorted(
        board.cell(n) for n in ("a1", "b1", "c1", "d1", "x"))
    assert variant.problems == []
    game = variant.new_game("3k/1R1/3/4/K w - - 0 1")
    # The holes at b2 and c3 stop the file and the rank; the grid's leaps
    # still work, and land on no hole.
    assert destinations(game, "b3") == {"b4", "a3", "a1r", "c1r", "d2"}  # low promotes
    assert destinations(game, "x") == {"d1"}


def test_wrapped_grid_lines(tmp_path: Path) -> None:
    variant = variantkit.load(EXAMPLES / "cylinder.yaml")
    topo, board = variant.board.topology, variant.board
    rays = topo.rays(board.cell("c1"), (-1, 1, 0))
    assert [board.names[c] for c in rays[0]] == ["b2", "a3", "h4", "g5", "f6", "e7", "d8"]
    assert board.wraps == ("files",)
    east = topo.rays(board.cell("a1"), (1, 0, 0))[0]
    assert len(east) == 7  # never back onto a1


# -- problems -----------------------------------------------------------------


@pytest.mark.parametrize(("old", "new", "expected"), [
    ("      e: {kind: orthogonal, opposite: w, vector: [1, 0]}",
     "      e: {kind: orthogonal, vector: [1, 0]}", (11, 7, "missing-opposite", "error")),
    ("      nw: {kind: diagonal, opposite: se, vector: [-1, 1]}",
     "      nw: {kind: diagonal, opposite: se, vector: [-1, 1]}\n"
     "      se: {kind: diagonal, opposite: n}", (13, 38, "bad-opposite", "error")),
    ("      - a1 b1 c1\n", "      - a1 b1 c1\n    lines:\n      e: [a1 z9]\n",
     (10, 11, "unknown-cell", "error")),
    ("      - a1 b1 c1\n", "      - a1 b1 c1\n    lines:\n      up: [a1 b1]\n",
     (10, 7, "unknown-direction", "error")),
    ("      - a1 b1 c1\n", "      - a1 b1 c1\n    lines:\n      e: [a1]\n",
     (10, 11, "bad-line", "error")),
    ("      - a2 b2 c2\n", "      - a2 b2 a3\n", (7, 9, "bad-board", "error")),
    ("      - a1 b1 c1\n", "      - a1 b1 c1\n    turns:\n"
     "      - {direction: e, from: a1, at: c1, to: c2, then: n}\n",
     (10, 9, "bad-turn", "error")),
])
def test_bad_declarations_are_located(tmp_path: Path, old: str, new: str,
                                      expected: tuple[int, int, str, str]) -> None:
    assert old in SMALL
    assert problems(tmp_path, SMALL.replace(old, new)) == [expected]


def test_loops_unreachable_and_disconnected_cells_are_warnings(tmp_path: Path) -> None:
    text = SMALL.replace("      - a1 b1 c1\n", "      - a1 b1 c1\n      - . . . . z\n"
                         "    lines:\n      e: [c2 b1, c1 a1]\n") \
        .replace("setup: k2/3/K1R w - - 0 1", "setup: k2/3/K1R/1 w - - 0 1")
    found = problems(tmp_path, text)
    # From a2 going e: b2 c2, down to b1, c1, round to a1 and on to b1 again.
    assert ("line-loops", "warning") in {(rule, sev) for _, _, rule, sev in found}
    assert {rule for _, _, rule, _ in found} == {
        "line-loops", "board-disconnected", "unreachable-cell"}


def test_branches_and_cells_are_bounded(tmp_path: Path) -> None:
    many = " ".join(f"x{i}" for i in range(MAX_CELLS + 1))
    text = SMALL.replace("      - a3 b3 c3\n", f"      - {many}\n      - a3 b3 c3\n")
    assert problems(tmp_path, text) == [(4, 3, "board-size", "error")]


# -- drawing ------------------------------------------------------------------


def test_omega_is_drawn_with_its_wizard_squares_at_the_corners() -> None:
    variant = variantkit.load(EXAMPLES / "omega.yaml")
    text = board_text(variant.new_game()).splitlines()
    # The board, then the same rows with the cells' names (a graph has no coordinates).
    assert text[0] == " w                     w     w4                               w3"
    assert text[11] == " W                     W     w1                               w2"
    svg = variant.new_game().svg()
    assert svg.count("<circle") >= 104 and 'class="links"' in svg


def test_seams_are_drawn() -> None:
    game = variantkit.load(EXAMPLES / "torus.yaml").new_game()
    assert render(game).count("<line") == 4
    assert "ranks wrap around" in board_text(game)


NAMES = st.text("abcxyz", min_size=1, max_size=3)


@st.composite
def graph_files(draw: st.DrawFn) -> str:
    """A random valid graph board with a king a side on its first two cells."""
    names = draw(st.lists(NAMES, min_size=2, max_size=12, unique=True))
    placed = draw(st.booleans())
    cells = "\n".join(
        f"      {n}: " + (f"[{draw(st.integers(-3, 3))}, {round(draw(st.floats(-3, 3)), 2)}]"
                          if placed else "null") for n in names)
    pairs = draw(st.lists(st.tuples(st.sampled_from(names), st.sampled_from(names)),
                          max_size=20))
    lines = [f"{a} {b}" for a, b in pairs if a != b]
    kinds = draw(st.lists(st.sampled_from(["orthogonal", "diagonal"]), min_size=2,
                          max_size=2))
    text = f"""variantkit: 1
name: random
board:
  graph:
    rows: [{" ".join(names)}]
    cells:
{cells}
    directions:
      go: {{kind: {kinds[0]}, opposite: back}}
      side: {{kind: {kinds[1]}, opposite: other}}
    lines:
      go: [{", ".join(lines) or names[0] + " " + names[1]}]
      side: [{names[1]} {names[0]}]
pieces:
  king:
    letter: K
    royal: true
    moves:
      - ride: all
        only: move                   # never a check: any setup is sound
setup: Kk{len(names) - 2 or ""} w - - 0 1
"""
    return text


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(text=graph_files())
def test_any_valid_graph_board_is_drawn(tmp_path: Path, text: str) -> None:
    variant = load(tmp_path, text)
    assert {p.severity for p in variant.problems} <= {"warning"}
    game = variant.new_game()
    assert render(game).startswith("<svg")
    assert render(game, flip=True).endswith("</svg>\n")
    assert "FEN:" in board_text(game)


def test_lines_that_branch_without_end_are_refused(tmp_path: Path) -> None:
    # Two cells a row, each linked `up` to both cells of the next row: the
    # lines from the bottom branch 2**29 ways.
    rows = [f"l{i} r{i}" for i in range(30)]
    links = [f"{a}{i} {b}{i + 1}" for i in range(29) for a in "lr" for b in "lr"]
    text = on_board(f"""    rows: [{", ".join(rows)}]
    directions:
      up: {{kind: orthogonal, opposite: down}}
    lines:
      up: [{", ".join(links)}]
""")
    found = problems(tmp_path, text)
    assert [rule for _, _, rule, _ in found] == ["line-branches"]


BETZA_PIECES = """
pieces:
  king: {betza: K}
  queen: {betza: Q}
  rook: {betza: R}
  bishop: {betza: B}
  knight: {betza: N}
  pawn: {betza: fmWfcFifmnD}
"""


def test_betza_pieces_move_alike_on_the_grid_and_on_its_graph(tmp_path: Path) -> None:
    # A variant inherits files in its own folder: a copy of the test's board.
    graph_file = Path(__file__).parent.parent / "data" / "chess_graph.yaml"
    (tmp_path / graph_file.name).write_text(graph_file.read_text(encoding="utf-8"),
                                            encoding="utf-8")
    on_graph = load(tmp_path, f"variantkit: 1\nname: b\ninherits: {graph_file.name}\n"
                    + BETZA_PIECES)
    (tmp_path / "grid").mkdir()
    on_grid = load(tmp_path / "grid", "variantkit: 1\nname: b\ninherits: chess\n"
                   + BETZA_PIECES)
    kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    for fen, depth in ((None, 3), (kiwipete, 2)):
        assert variantkit.perft(on_graph.new_game(fen), depth) == \
            variantkit.perft(on_grid.new_game(fen), depth)


def test_betza_is_refused_on_a_graph_made_from_a_hex_board(tmp_path: Path) -> None:
    text = on_board("    from: {hex: {side: 2}}\n") \
        .replace("      - ride: orthogonal", "      - step: n") \
        .replace("    moves:\n      - step: all", "    betza: K") \
        .replace("setup: k2/3/K1R w - - 0 1", "setup: k/3/R1K w - - 0 1")
    assert [rule for _, _, rule, _ in problems(tmp_path, text)] == ["bad-betza"]


FUZZED = [EXAMPLES / "omega.yaml", EXAMPLES / "torus.yaml",
          Path(__file__).parent.parent / "data" / "chess_graph.yaml",
          Path(__file__).parent.parent / "data" / "diplomat_graph.yaml"]


@pytest.mark.parametrize("seed", range(25))
@pytest.mark.parametrize("file", FUZZED, ids=[f.stem for f in FUZZED])
def test_damaged_graph_and_wrapped_files_give_problems_not_tracebacks(
        tmp_path: Path, file: Path, seed: int) -> None:
    from test_fuzz import mutated  # the bundled files' fuzzer, on these files
    try:
        variant = load(tmp_path, mutated(file, seed))
    except VariantError as exc:
        assert exc.problems
        return
    game = variant.new_game()
    assert render(game).endswith("</svg>\n") and "FEN:" in board_text(game)


def test_a_polar_board_with_its_centre_cut_out(tmp_path: Path) -> None:
    # Diplomat's board started as a graph, its centre removed: the lines
    # that crossed it end at the innermost crown, the turns through it gone.
    path = tmp_path / "v.yaml"
    path.write_text("""variantkit: 1
name: holed
board:
  graph:
    from: {polar: {sectors: abcdef, rings: ["1", "2"], centre: "0"}}
    remove-cells: ["0"]
pieces:
  king: {letter: K, royal: true, moves: [{step: all}]}
  rook: {letter: R, moves: [{ride: orthogonal}]}
setup: K1k3/R5 w - - 0 1
""", encoding="utf-8")
    variant = variantkit.load(path)
    assert variant.problems == [] and variant.board.size == 12
    rook = destinations(variant.new_game(), "a2")
    assert rook == {"b2", "c2", "d2", "e2", "f2"}  # round crown 2; in: the hole, out: its king


# -- Omega Chess (examples/omega.yaml) ----------------------------------------


def omega_moves(top: str, bottom: str, rank: dict[int, str] | None = None) -> set[str]:
    """Legal moves of White with the corner rows and some ranks given."""
    rows = ["10"] * 10
    for number, text in (rank or {}).items():
        rows[9 - number] = text
    fen = f"{top}/{'/'.join(rows)}/{bottom} w - - 0 1"
    return {str(m) for m in variantkit.load(EXAMPLES / "omega.yaml").new_game(fen).legal_moves()}


def test_omega_corner_cells_touch_the_field_only_diagonally() -> None:
    # White bishop on w1, kings on e9 and j0 out of the way.
    moves = omega_moves("2", "B1", {9: "4k5", 0: "9K"})
    bishop = {m[2:] for m in moves if m.startswith("w1")}
    assert bishop == {"a0", "b1", "c2", "d3", "e4", "f5", "g6", "h7", "i8", "j9", "w3"}
    knight = {m[2:] for m in omega_moves("2", "N1", {9: "4k5", 0: "9K"}) if m.startswith("w1")}
    assert knight == {"a1", "b0"}
    wizard = {m[2:] for m in omega_moves("2", "W1", {9: "4k5", 0: "9K"}) if m.startswith("w1")}
    assert wizard == {"a0", "a2", "c0"}  # the ferz step and two camel jumps
    rook = {m[2:] for m in omega_moves("2", "2", {9: "4k5", 0: "R8K"}) if m.startswith("a0")}
    assert "w1" not in rook and "w4" not in rook


def test_omega_pawns_open_with_up_to_three_cells() -> None:
    moves = omega_moves("2", "2", {9: "4k5", 1: "P9", 0: "9K"})
    assert {m for m in moves if m.startswith("a1")} == {"a1a2", "a1a3", "a1a4"}
