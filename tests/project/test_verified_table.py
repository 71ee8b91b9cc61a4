"""docs/verified.md is what tools/verified_table.py writes today: the table
of variants checked against Fairy-Stockfish never drifts from the catalogue."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent


def test_verified_table_is_up_to_date() -> None:
    result = subprocess.run([sys.executable, str(ROOT / "tools" / "verified_table.py"),
                             "--check"], capture_output=True, text=True, timeout=300,
                            check=False)
    assert result.returncode == 0, result.stdout + result.stderr
