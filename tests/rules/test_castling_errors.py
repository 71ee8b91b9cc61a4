"""Where a castling field that does not fit the castlings is reported: at
the child's `castling:` when a file declares its castlings over an
inherited setup (issue 26), at `setup:` when the file writes the setup."""

from __future__ import annotations

from pathlib import Path

import pytest

import variantkit
from variantkit import VariantError

# The castling entries are the point of these tests; they are run once.
PURE_PASS = False

WHITE_ONLY = """\
castling:
  - {right: K, king: [e1, g1], rook: [h1, f1]}
  - {right: Q, king: [e1, c1], rook: [a1, d1]}
"""


def problem_of(tmp_path: Path, text: str) -> variantkit.Problem:
    path = tmp_path / "child.yaml"
    path.write_text("variantkit: 1\nname: child\ninherits: chess\n" + text, encoding="utf-8")
    with pytest.raises(VariantError) as info:
        variantkit.load(path)
    [problem] = info.value.problems
    return problem


def test_castlings_over_an_inherited_setup_are_reported_at_castling(tmp_path: Path) -> None:
    problem = problem_of(tmp_path, WHITE_ONLY)
    assert (Path(problem.file or "").name, problem.line, problem.column) == ("child.yaml", 4, 1)
    assert problem.path == ("castling",)
    assert "unknown castling right 'k' (this variant has KQ)" in problem.message
    assert "inherited from chess.yaml" in problem.message


def test_a_setup_written_in_the_file_is_reported_at_setup(tmp_path: Path) -> None:
    setup = "setup: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n"
    problem = problem_of(tmp_path, WHITE_ONLY + setup)
    assert (Path(problem.file or "").name, problem.line) == ("child.yaml", 7)
    assert problem.path == ("setup",)
    assert problem.message.startswith("setup: unknown castling right 'k'")

