"""The semantic checks of variantkit/lint.py: each one on a file that
trips it, located at its line and column with its rule and severity."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import variantkit
from variantkit.board.grid import NAMED
from variantkit.cli import cli
from variantkit.errors import Problem, VariantError
from variantkit.lint import adjacency_symmetric, board_connected, run_checks
from variantkit.variant import Variant

# A small sound variant; the tests add to it or break it.
BASE = """\
variantkit: 1
name: small
board:
  grid: {files: 4, ranks: 4}
  regions:
    top: {ranks: [4]}
    bottom: {ranks: [1]}
pieces:
  king:
    letter: K
    royal: true
    moves:
      - step: all
  pawn:
    letter: P
    moves:
      - step: forward
promotion:
  pieces: [pawn]
  regions: {white: top, black: bottom}
  choices: [pawn]
setup: 3k/4/4/K3 w - - 0 1
"""


def load(tmp_path: Path, text: str) -> Variant:
    path = tmp_path / "v.yaml"
    path.write_text(text, encoding="utf-8")
    return variantkit.load(str(path))


def where(problem: Problem) -> tuple[str, str, int | None, int | None]:
    return problem.rule, problem.severity, problem.line, problem.column


def test_bundled_variants_pass_every_check() -> None:
    for name in variantkit.variants():
        assert run_checks(variantkit.load(name)) == []


def test_piece_that_never_moves_is_a_warning(tmp_path: Path) -> None:
    variant = load(tmp_path, BASE.replace(
        "  pawn:\n", "  statue:\n    letter: S\n    moves:\n      - leap: [5, 5]\n  pawn:\n"))
    assert [where(p) for p in variant.problems] == [("piece-never-moves", "warning", 14, 3)]
    assert variant.problems[0].message == \
        "piece 'statue' cannot move from any cell of the empty board"


def test_a_suborning_piece_counts_as_moving(tmp_path: Path) -> None:
    variant = load(tmp_path, BASE.replace("  pawn:\n", "  envoy:\n    letter: E\n    moves:\n"
                                          "      - suborn: {}\n  pawn:\n"))
    assert variant.problems == []


def test_a_piece_whose_moves_do_not_compile_gets_only_its_error(tmp_path: Path) -> None:
    with pytest.raises(VariantError) as info:
        load(tmp_path, BASE.replace("step: forward", "step: forwards"))
    assert [p.rule for p in info.value.problems] == ["unknown-direction"]


def test_unused_region_is_a_warning_at_its_name(tmp_path: Path) -> None:
    variant = load(tmp_path, BASE.replace("    bottom:", "    middle: [b2, c3]\n    bottom:"))
    assert [where(p) for p in variant.problems] == [("unused-region", "warning", 7, 5)]
    assert variant.problems[0].message == "region 'middle' is declared but never used"


def test_regions_used_by_moves_per_side_and_beside_count(tmp_path: Path) -> None:
    text = BASE.replace("    bottom:", "    wide: {files: [a, b]}\n    mid: [b2, c3]\n"
                        "    low: {ranks: [2]}\n    bottom:")
    text = text.replace("      - step: forward\n", """\
      - step: forward
        from-region: {white: wide, black: [a1]}
      - step: forward-diagonal
        beside: {step: forward, to-region: mid}
      - jump: low
""")
    assert load(tmp_path, text).problems == []


def test_warnings_let_validate_succeed(tmp_path: Path) -> None:
    path = tmp_path / "v.yaml"
    path.write_text(BASE.replace("    bottom:", "    middle: [b2]\n    bottom:"), encoding="utf-8")
    result = CliRunner().invoke(cli, ["validate", str(path)])
    assert result.exit_code == 0
    assert f"{path}:7:5: [warning] region 'middle' is declared but never used " \
           "(unused-region)" in result.output
    assert result.output.rstrip().endswith(f"{path}: ok")


# No declaration of the current topologies builds a board in pieces or a
# one-way adjacency, so these two checks are tested on a compiled variant
# whose board is then broken, as a faulty topology would build it.


def test_disconnected_board_is_a_warning_at_board(tmp_path: Path) -> None:
    variant = load(tmp_path, BASE)
    graph = variant.board.graph
    d4 = variant.board.index["d4"]
    graph.remove_edges_from(list(graph.edges(d4)))
    found = board_connected(variant)
    assert [where(p) for p in found] == [("board-disconnected", "warning", 3, 1)]
    assert found[0].message == \
        "the board falls apart into 2 groups of cells: d4 cannot be reached from a1"


def test_one_way_adjacency_is_an_error_at_board(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                ) -> None:
    variant = load(tmp_path, BASE)
    topology = variant.board.topology
    a1 = variant.board.index["a1"]
    rays = topology.rays

    def one_way(cell: int, direction: object) -> list[tuple[int, ...]]:
        # b1 no longer steps west to a1; a1 still steps east to b1.
        return [] if cell == a1 + 1 and direction == NAMED["w"] else rays(cell, direction)

    monkeypatch.setattr(topology, "rays", one_way)
    found = adjacency_symmetric(variant)
    assert [where(p) for p in found] == [("asymmetric-adjacency", "error", 3, 1)]
    assert found[0].message == \
        "orthogonal adjacency is not mutual: a step leads from a1 to b1 but none back"


def test_a_region_that_does_not_build_gets_only_its_error(tmp_path: Path) -> None:
    with pytest.raises(VariantError) as info:
        load(tmp_path, BASE.replace("    bottom:", "    ring: {rings: ['1']}\n    bottom:"))
    assert [where(p) for p in info.value.problems] == [("bad-region", "error", 7, 5)]


def test_an_unused_region_of_the_parent_is_not_reported(tmp_path: Path) -> None:
    (tmp_path / "parent.yaml").write_text(BASE, encoding="utf-8")
    child = tmp_path / "child.yaml"
    child.write_text("variantkit: 1\nname: child\ninherits: parent.yaml\n"
                     "promotion:\n  regions: {white: [d4], black: [a1]}\n", encoding="utf-8")
    assert variantkit.load(str(child)).problems == []
