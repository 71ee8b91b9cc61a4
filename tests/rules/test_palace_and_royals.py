"""Lame leapers (`path`), lines inside a region (`within`: palace diagonals),
the royal-facing rule (flying general, bikjang) and the pass, on small
positions of the bundled xiangqi and janggi variants; and perft 3 of the
variants built on them."""

from __future__ import annotations

from pathlib import Path

import pytest
from positions import placement

import variantkit
from variantkit.game import Game

ROOT = Path(__file__).resolve().parent.parent.parent
GLINSKI = (ROOT / "examples" / "glinski.yaml").as_posix()


def position(name: str, pieces: dict[str, str], side: str = "w") -> Game:
    variant = variantkit.load(name)
    return variant.new_game(f"{placement(variant, pieces)} {side} - - 0 1")


def moves_from(game: Game, cell: str) -> set[str]:
    return {str(m)[len(cell):] for m in game.legal_moves() if str(m).startswith(cell)}


# -- path ---------------------------------------------------------------------------

def test_the_horse_is_blocked_by_a_piece_on_its_first_cell() -> None:
    free = position("xiangqi", {"e1": "K", "d10": "k", "e5": "N"})
    assert moves_from(free, "e5") == {"d7", "f7", "c6", "g6", "c4", "g4", "d3", "f3"}
    # A piece of either side on e6 blocks both northern leaps; on d5 both western ones.
    blocked = position("xiangqi", {"e1": "K", "d10": "k", "e5": "N", "e6": "p", "d5": "P"})
    assert moves_from(blocked, "e5") == {"g6", "g4", "d3", "f3"}


def test_the_janggi_elephant_needs_both_passed_cells_empty() -> None:
    free = position("janggicasual", {"e2": "K", "e9": "k", "e5": "B"})
    assert moves_from(free, "e5") == {"b3", "b7", "c2", "c8", "g2", "g8", "h3", "h7"}
    # e6 (the straight first cell) blocks c8 and g8; f7 (the diagonal cell) blocks g8 only.
    assert moves_from(position("janggicasual", {"e2": "K", "e9": "k", "e5": "B", "f7": "p"}),
                      "e5") == {"b3", "b7", "c2", "c8", "g2", "h3", "h7"}
    assert moves_from(position("janggicasual", {"e2": "K", "e9": "k", "e5": "B", "e6": "p"}),
                      "e5") == {"b3", "b7", "c2", "g2", "h3", "h7"}


def test_a_path_works_on_a_hex_board(tmp_path: Path) -> None:
    path = tmp_path / "hexpath.yaml"
    # A variant inherits files in its own folder: a copy of the example.
    (tmp_path / "glinski.yaml").write_text(Path(GLINSKI).read_text(encoding="utf-8"),
                                           encoding="utf-8")
    path.write_text("""\
variantkit: 1
name: hexpath
inherits: glinski.yaml
pieces:
  lamer:
    letter: X
    moves:
      - path: [[n, ne], [n, nw]]
""")
    variant = variantkit.load(str(path))
    board, topology = variant.board, variant.board.topology
    start = board.cell("f6")
    north = topology.rays(start, topology.directions("n", "n")[0])[0][0]
    expected = {topology.rays(north, topology.directions(d, "n")[0])[0][0] for d in ("ne", "nw")}
    code = variant.code_of_letter("X")
    assert code is not None
    reached = variant.empty_board_reach(code, start)
    assert set(board.cells_of(reached)) == expected
    game = variant.new_game(f"{placement(variant, {'g1': 'K', 'g10': 'k', 'f6': 'X'})} w - - 0 1")
    assert {str(m) for m in game.legal_moves() if str(m).startswith("f6")} == \
        {"f6" + board.names[c] for c in expected}
    blocked = placement(variant, {"g1": "K", "g10": "k", "f6": "X", board.names[north]: "p"})
    game = variant.new_game(f"{blocked} w - - 0 1")
    assert not [m for m in game.legal_moves() if str(m).startswith("f6")]


# -- within: palace diagonals -------------------------------------------------------

def test_the_chariot_runs_the_palace_diagonals_and_nothing_beyond() -> None:
    # From the corner d8 of Black's palace: e9, then f10 along the diagonal.
    game = position("janggicasual", {"e3": "K", "e10": "k", "d8": "R"})
    diagonal = {"e9", "f10"}
    assert diagonal <= moves_from(game, "d8")
    # From d9, not on a diagonal line, no diagonal move at all.
    game = position("janggicasual", {"e3": "K", "e10": "k", "d9": "R"})
    assert not moves_from(game, "d9") & {"e8", "c8", "e10", "c10"}


def test_palace_lines_end_at_the_palace() -> None:
    # The white chariot on d3, a corner: e2 and f1 along the line; c4 and
    # c2 are diagonal neighbours but lie on no palace line.
    game = position("janggicasual", {"e1": "K", "e9": "k", "d3": "R"})
    assert {"e2", "f1"} <= moves_from(game, "d3")
    assert not moves_from(game, "d3") & {"c4", "c2", "e4"}


def test_the_cannon_hops_the_palace_centre() -> None:
    game = position("janggicasual", {"d1": "K", "e9": "k", "f3": "C", "e2": "P"})
    assert "d1" not in moves_from(game, "f3")   # its own general
    game = position("janggicasual", {"d2": "K", "e9": "k", "f3": "C", "e2": "P"})
    assert "d1" in moves_from(game, "f3")


def test_soldiers_step_diagonally_forward_in_the_palace() -> None:
    game = position("janggicasual", {"d2": "K", "f8": "k", "e9": "P"})
    assert moves_from(game, "e9") == {"d9", "f9", "e10", "d10", "f10"}
    game = position("janggicasual", {"d2": "K", "e10": "k", "d8": "P"})
    assert moves_from(game, "d8") == {"c8", "e8", "d9", "e9"}


# -- royals facing each other ---------------------------------------------------------

def test_the_generals_may_not_face_each_other() -> None:
    game = position("xiangqi", {"e2": "K", "d10": "k"})
    assert moves_from(game, "e2") == {"e1", "e3", "f2"}
    # The cannon between the generals may not leave their file.
    game = position("xiangqi", {"e2": "K", "e10": "k", "e5": "C"})
    assert moves_from(game, "e5") == {"e3", "e4", "e6", "e7", "e8", "e9"}
    assert not game.is_check()


def test_bikjang_must_be_broken_or_ends_the_game_on_a_pass() -> None:
    game = position("janggitraditional", {"d2": "K", "e10": "k", "a5": "r"})
    game.push("d2e2")  # White brings the generals face to face
    assert game.position.royals_face() and not game.is_check()
    # Black must break it: block with the chariot, step the general aside, or pass.
    assert {str(m) for m in game.legal_moves()} == {"a5e5", "e10d10", "e10f10", "e10e10"}
    game.push("e10e10")
    assert str(game.outcome()) == "draw by facing pass"
    game.pop()
    game.push("a5e5")
    assert game.outcome() is None
    # Without the rule (casual janggi) the generals may face each other freely.
    casual = position("janggicasual", {"d2": "K", "e10": "k", "a5": "r"})
    casual.push("d2e2")
    assert "e10e9" in {str(m) for m in casual.legal_moves()}


# -- passing -------------------------------------------------------------------------

def test_a_pass_hands_the_turn_over_and_unmakes_cleanly() -> None:
    game = variantkit.load("janggicasual").new_game()
    before = game.fen()
    assert "e2e2" in {str(m) for m in game.legal_moves()}
    game.push("e2e2")
    assert game.fen() == before.replace(" w - - 0 1", " b - - 1 1")
    game.push("e9e9")
    assert str(game.outcome()) == "draw by double pass"
    game.pop()
    game.pop()
    assert game.fen() == before


def test_no_pass_while_in_check() -> None:
    game = position("janggicasual", {"d2": "K", "e10": "k", "d5": "r"})
    assert game.is_check()
    assert "d2d2" not in {str(m) for m in game.legal_moves()}


def test_being_stalemated_loses_in_xiangqi() -> None:
    game = position("xiangqi", {"e1": "K", "d10": "k", "e5": "R", "a9": "R"}, "b")
    assert not game.legal_moves() and not game.is_check()
    assert str(game.outcome()) == "white wins by stalemate"


# Perft 3 from the start, each matched move set by move set against
# Fairy-Stockfish's tree (`make oracle` walks these trees again).
@pytest.mark.parametrize(("name", "nodes"), [
    ("xiangqi", 79666), ("minixiangqi", 6664), ("manchu", 17648), ("janggicasual", 33316),
    ("janggitraditional", 33000), ("shako", 185938), ("grasshopper", 22314), ("paradigm", 9062),
])
def test_perft_3_from_the_start(name: str, nodes: int) -> None:
    assert variantkit.perft(variantkit.load(name).new_game(), 3) == nodes
