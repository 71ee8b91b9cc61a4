"""The speed benchmark (benchmarks/speed_bench.py) keeps running: its smoke
mode on one variant exits 0 and prints its table.  No timing is asserted;
speed lives in benchmarks/."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "speed_bench.py"


def test_quick_run_prints_the_table(tmp_path: Path) -> None:
    out = tmp_path / "speed.md"
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--quick", "--variants", "chess", "--out", str(out)],
        capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    table = out.read_text(encoding="utf-8")
    assert table in done.stdout + "\n"
    assert "| Part | Case | Depth | Nodes | pure s |" in table
    # Every part has its row, and the comparisons their ratio.
    for row in ("| start-up | import variantkit |", "| start-up | variantkit perft chess 1 |",
                "| perft, bulk counting | start | 2 | 400 |",
                "| perft, make/unmake every leaf | kiwipete | 1 | 48 |",
                "| engine | chess | 2 |", "| engine | chess, kiwipete | 2 |",
                "| perft, every variant | chess | 2 | 400 |"):
        assert row in table
    assert "MISMATCH" not in table
    bulk = next(line for line in table.splitlines() if line.startswith(
        "| perft, bulk counting | start | 2 |"))
    assert bulk.split(" | ")[6].endswith("x")


def test_unknown_variant_is_refused() -> None:
    done = subprocess.run([sys.executable, str(SCRIPT), "--quick", "--variants", "nosuch"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2
    assert "not bundled: nosuch" in done.stderr
