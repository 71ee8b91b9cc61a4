"""The speed benchmark (benchmarks/speed_bench.py) keeps running: its smoke
mode on one variant exits 0 and prints its table.  No timing is asserted;
speed lives in benchmarks/."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent.parent / "benchmarks" / "speed_bench.py"


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


def test_parts_choose_what_is_measured() -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--quick", "--variants", "chess", "--build", "pure",
         "--parts", "engine"], capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    parts = {line.split(" | ")[0] for line in done.stdout.splitlines() if line.startswith("| ")}
    assert parts == {"| Part", "| engine"}


def test_unknown_variant_is_refused() -> None:
    done = subprocess.run([sys.executable, str(SCRIPT), "--quick", "--variants", "nosuch"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2
    assert "not bundled: nosuch" in done.stderr


def test_table_has_a_column_group_per_build(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(SCRIPT.parent))
    spec = importlib.util.spec_from_file_location("speed_bench", SCRIPT)
    assert spec and spec.loader
    bench = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "speed_bench", bench)  # for its dataclasses
    spec.loader.exec_module(bench)
    ref = {"section": "perft", "case": "start, python-chess", "depth": "4",
           "nodes": 100, "seconds": 1.0}
    pure = {"section": "perft", "case": "start", "depth": "4", "nodes": 100, "seconds": 2.0,
            "ref": "perft/start, python-chess"}
    compiled = dict(pure, seconds=0.25, note="stopped early")
    table = bench.markdown([{"build": "pure", "rows": [ref, pure]},
                            {"build": "compiled", "rows": [ref, compiled]}])
    lines = table.splitlines()
    assert lines[0].startswith("| Part | Case | Depth | Nodes | pure s | pure nodes/s | "
                               "pure vs python-chess | compiled s |")
    assert lines[-1] == ("| perft | start | 4 | 100 | 2.000 | 50 | 0.50x | 0.250 | 400 | "
                         "4.00x | compiled: stopped early |")
    only_pure = bench.markdown([{"build": "pure", "rows": [pure]},
                                {"build": "compiled", "missing": "not available"}])
    assert "compiled s" not in only_pure
    assert only_pure.endswith("The compiled build is not available.")
