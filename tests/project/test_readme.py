"""The README's tutorial runs as written: its variant file validates and
counts what the page says, its misspelt file is reported as the page
shows, and its Python lines print the figures their comments give.  The
front door stays short enough to be one."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
CLI = [sys.executable, "-m", "variantkit"]
# The front door, not the manual: everything else lives under docs/.
MAX_README_LINES = 250


def fenced(language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```$", README, re.S | re.M)


def tutorial_file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "chancellor-chess.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(CLI + args, cwd=cwd, capture_output=True, text=True, timeout=120)


def test_the_readme_stays_a_front_door() -> None:
    assert len(README.splitlines()) <= MAX_README_LINES


def test_the_tutorial_file_validates_and_counts_as_shown(tmp_path: Path) -> None:
    (variant,) = fenced("yaml")
    tutorial_file(tmp_path, variant)
    assert run(["validate", "chancellor-chess.yaml"], tmp_path).stdout.strip() \
        == "chancellor-chess.yaml: ok"
    counted = run(["perft", "chancellor-chess.yaml", "3"], tmp_path).stdout.strip()
    assert f"$ variantkit perft chancellor-chess.yaml 3\n{counted}\n" in README


def test_the_misspelt_direction_is_reported_as_shown(tmp_path: Path) -> None:
    (variant,) = fenced("yaml")
    tutorial_file(tmp_path, variant.replace("ride: orthogonal", "ride: orthogonl"))
    result = run(["validate", "chancellor-chess.yaml"], tmp_path)
    assert result.returncode == 1
    shown = next(block for block in fenced("") if "orthogonl" in block)
    assert shown == "$ variantkit validate chancellor-chess.yaml\n" + result.stdout


def test_the_python_lines_print_what_their_comments_say(tmp_path: Path) -> None:
    (variant,) = fenced("yaml")
    tutorial_file(tmp_path, variant)
    (code,) = fenced("python")
    printed = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                             text=True, timeout=120, check=True).stdout.splitlines()
    calls = [line for line in code.splitlines() if line.startswith("print(")]
    assert len(printed) == len(calls)
    for call, output in zip(calls, printed, strict=True):
        figure = re.search(r"#\s*(\d+)", call)
        if figure:
            assert output.split()[0] == figure.group(1), call
    assert printed[1].endswith(" None")  # the game goes on
