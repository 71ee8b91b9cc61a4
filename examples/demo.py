"""What `make demo` runs: a few bundled variants validated, drawn and counted.

For each variant shown: load (and so validate) its file, draw the start
position, and count the move sequences to depths 1, 2 and 3 (perft) with
their times.  The whole catalogue is `variantkit list`.
"""

from __future__ import annotations

import sys
import time

import variantkit
from variantkit.cli.common import use_color
from variantkit.drawing.terminal import board_text

MAX_DEPTH = 3
# One game per kind of board: a grid, a wider grid, stacked planes, a disk.
SHOWN = ("chess", "capablanca", "strato", "diplomat")


def demo(name: str, color: bool) -> bool:
    """Show one variant; False when its file does not load."""
    print(f"== {name} " + "=" * max(0, 60 - len(name)))
    try:
        variant = variantkit.load(name)
    except variantkit.VariantError as exc:
        print(f"{name}: invalid\n{exc}\n")
        return False
    warnings = len(variant.problems)
    print(f"{name}: ok" + (f" ({warnings} warning(s))" if warnings else ""))
    print(variant.description)
    print()
    game = variant.new_game()
    print(board_text(game, color=color))
    for depth in range(1, MAX_DEPTH + 1):
        start = time.perf_counter()
        nodes = variantkit.perft(game, depth)
        seconds = time.perf_counter() - start
        rate = f"{nodes / seconds:,.0f} nodes/s" if seconds > 0 else ""
        print(f"perft {depth}: {nodes:>10,} nodes  {seconds:8.3f} s  {rate}")
    print()
    return True


def main() -> int:
    color = use_color()
    results = [demo(name, color) for name in SHOWN]
    others = len(variantkit.variants()) - len(SHOWN)
    print(f"... and {others} more bundled variants: see `variantkit list`.")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
