"""Perft benchmark: variantkit against python-chess, memory, and the bundled variants.

Run with `make bench` or `python benchmarks/perft_bench.py [--quick]`.

1. Chess start position (depth 4) and Kiwipete (depth 3): a python-chess perft
   written the same way as `variantkit.perft` (make/unmake down to depth 1, count
   the legal moves there) against `variantkit.perft`, in one process.  The node
   counts must agree (exit status 1 otherwise).  Best of N runs each, the
   two engines' runs interleaved.
   The time of `variantkit.load("chess")` is measured on its own.
2. Peak traced memory (tracemalloc) of variantkit perft from the start position
   at depth 3, 4 and 5, to show it does not grow with depth (make/unmake, no
   board copies).  `--quick` skips depth 5.
3. Perft speed of the other bundled variants from their start positions, then
   of the variants with pieces in hand (crazyhouse, and shogi where it is
   bundled) from the start and from a middle game with full hands, where
   drops multiply the moves, beside chess's.
4. Load time of boards declared as graphs beside the generated boards they
   imitate (chess, Diplomat, Gliński: tests/data/*_graph.yaml), and of the
   wrapped and graph examples.
5. Perft beside native Fairy-Stockfish (Debian's `/usr/games/fairy-stockfish`,
   UCI `go perft N`) on positions of eight games, each engine timed by its
   own CPU time (the machine is shared: wall time would count the others'
   work), best of N runs, the two engines' runs interleaved.  Both count the
   same tree (a shallower one runs faster a node: fewer leaves a move made),
   and both count the last ply's moves without making them.  Skipped where the
   engine is not installed or /proc is missing.
6. A markdown table of every row, ready to paste into benchmarks/README.md.

`--native` runs section 5 alone (and its table).
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import chess

import variantkit

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
CHESS_CASES: list[tuple[str, str | None, int]] = [
    ("start", None, 4),
    ("kiwipete", KIWIPETE, 3),
]
VARIANT_CASES: list[tuple[str, int]] = [("trice", 3), ("strato", 3), ("diplomat", 4),
                                        ("xiangqi", 3), ("janggicasual", 3)]
# Pieces in hand: (case, variant, position or None for the start, depth).
# The crazyhouse middle game has 170 legal moves, most of them drops.
HAND_CASES: list[tuple[str, str, str | None, int]] = [
    ("crazyhouse start", "crazyhouse", None, 3),
    ("crazyhouse middle game", "crazyhouse",
     "r1bqk3/ppbppp2/8/4n3/8/2N1pP1N/PPP1P1PP/2R1KB1R[RBNPPPq] w Kq - 8 13", 3),
    ("shogi start", "shogi", None, 3),
    ("shogi middle game", "shogi",
     "lnsg1g1nl/1r3k1s1/pp2pp1pp/2pp2p2/9/2P1P4/PP1P1PPPP/3SR4/LN1GKGSNL[Bb] w - - 6 6", 3),
]
MEMORY_DEPTHS = (3, 4, 5)
FAIRY_STOCKFISH = Path("/usr/games/fairy-stockfish")
# (case, variant as both engines name it, position string or None for the
# start, depth: the same tree for both, deep enough that Fairy-Stockfish's
# run is long to time, at least 0.25 s).
NATIVE_CASES: list[tuple[str, str, str | None, int]] = [
    ("chess start", "chess", None, 5),
    ("Kiwipete", "chess", KIWIPETE, 4),
    ("capablanca start", "capablanca", None, 5),
    ("xiangqi start", "xiangqi", None, 4),
    ("shogi start", "shogi", None, 5),
    ("crazyhouse start", "crazyhouse", None, 5),
    ("janggi start", "janggi", None, 5),
    ("makruk start", "makruk", None, 5),
]
ROOT = Path(__file__).resolve().parent.parent
# (case, variant, board): each generated board, then the same game on a graph.
BOARD_LOADS: list[tuple[str, str, str]] = [
    ("load chess", "chess", "grid"),
    ("load chess", str(ROOT / "tests/data/chess_graph.yaml"), "graph"),
    ("load diplomat", "diplomat", "polar"),
    ("load diplomat", str(ROOT / "tests/data/diplomat_graph.yaml"), "graph"),
    ("load glinski", str(ROOT / "examples/glinski.yaml"), "hex"),
    ("load glinski", str(ROOT / "tests/data/glinski_graph.yaml"), "graph"),
    ("load cylinder", str(ROOT / "examples/cylinder.yaml"), "grid, wrap: files"),
    ("load torus", str(ROOT / "examples/torus.yaml"), "grid, wrap: both"),
    ("load omega", str(ROOT / "examples/omega.yaml"), "graph"),
]


@dataclass
class Row:
    """One line of the final table."""

    case: str
    engine: str
    depth: str = "-"
    nodes: int | None = None
    seconds: float | None = None
    note: str = ""
    timed: bool = True  # False: seconds include tracing overhead, no rate

    @property
    def rate(self) -> float | None:
        if not self.timed or self.nodes is None or not self.seconds:
            return None
        return self.nodes / self.seconds


def chess_perft(board: chess.Board, depth: int) -> int:
    """python-chess perft, the same shape as `variantkit.perft`."""
    if depth < 1:
        return 1
    return _chess_perft(board, depth)


def _chess_perft(board: chess.Board, depth: int) -> int:
    if depth == 1:
        return board.legal_moves.count()
    nodes = 0
    for move in board.legal_moves:
        board.push(move)
        nodes += _chess_perft(board, depth - 1)
        board.pop()
    return nodes


def best_of(runs: int, fn: Callable[[], int]) -> tuple[int, float]:
    """Run `fn` `runs` times; return its (last) result and the best wall time."""
    best = float("inf")
    result = 0
    for _ in range(runs):
        gc.collect()
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return result, best


def fmt_rate(rate: float | None) -> str:
    return "-" if rate is None else f"{rate:,.0f}"


def print_row(row: Row) -> None:
    nodes = "-" if row.nodes is None else f"{row.nodes:,}"
    secs = "-" if row.seconds is None else f"{row.seconds:.3f}"
    print(f"  {row.case:<11} {row.engine:<12} depth {row.depth:<2} nodes {nodes:>11}  "
          f"{secs:>8} s  {fmt_rate(row.rate):>11} nodes/s  {row.note}")


def _load_count(name: str) -> int:
    path = Path(name)
    if name.startswith(str(ROOT / "tests/data")):
        # A graph file inherits its generator's file from examples/: read it
        # as if stored there, as tests/board/test_graph_proofs.py does.
        variantkit.load_text(path.read_text(encoding="utf-8"), name, ROOT / "examples")
    else:
        variantkit.load(name)
    return 0


def bench_load(runs: int) -> list[Row]:
    """Time `variantkit.load("chess")`: the first call and the best of `runs`."""
    print("variantkit.load('chess')")
    start = time.perf_counter()
    variantkit.load("chess")
    first = time.perf_counter() - start
    _, best = best_of(runs, partial(_load_count, "chess"))
    rows = [Row("load chess", "variantkit", seconds=first, note="first call in process"),
            Row("load chess", "variantkit", seconds=best, note=f"best of {runs}")]
    for row in rows:
        print_row(row)
    return rows


def bench_board_loads(runs: int) -> list[Row]:
    """Load time, best of `runs`, of graph boards beside generated ones."""
    print("loading boards (best of runs)")
    rows = []
    for case, name, board in BOARD_LOADS:
        _, best = best_of(runs, partial(_load_count, name))
        rows.append(Row(case, "variantkit", seconds=best, note=f"{board} board"))
        print_row(rows[-1])
    return rows


def bench_chess(runs: int) -> tuple[list[Row], bool]:
    """variantkit against python-chess; returns the rows and whether all counts agree."""
    variant = variantkit.load("chess")
    rows: list[Row] = []
    ok = True
    for name, fen, depth in CHESS_CASES:
        print(f"{name} (depth {depth})")
        board = chess.Board(fen) if fen else chess.Board()
        game = variant.new_game(fen=fen)
        ref_nodes, ref_secs = vk_nodes, vk_secs = 0, float("inf")
        for _ in range(runs):  # interleaved, so load from other processes hits both alike
            ref_nodes, secs = best_of(1, partial(chess_perft, board, depth))
            ref_secs = min(ref_secs, secs)
            vk_nodes, secs = best_of(1, partial(variantkit.perft, game, depth))
            vk_secs = min(vk_secs, secs)
        ratio = (vk_nodes / vk_secs) / (ref_nodes / ref_secs)
        ref = Row(name, "python-chess", str(depth), ref_nodes, ref_secs, "1.00x")
        vk = Row(name, "variantkit", str(depth), vk_nodes, vk_secs,
                 f"{ratio:.2f}x python-chess speed")
        if vk_nodes != ref_nodes:
            ok = False
            vk.note += f"; MISMATCH ({vk_nodes} != {ref_nodes})"
        for row in (ref, vk):
            print_row(row)
            rows.append(row)
    return rows, ok


def lookup_tables(root: object) -> list[dict[int, int]]:
    """The lazily filled slider look-up tables reachable from `root` (a Variant)."""
    from variantkit.pieces import _LineTable  # private: benchmark-only introspection

    found: list[dict[int, int]] = []
    seen: set[int] = set()
    todo: list[object] = [root]
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, (str, bytes, int, float, bool, type(None))):
            continue
        seen.add(id(obj))
        if isinstance(obj, _LineTable):
            found.append(obj)
        elif isinstance(obj, dict):
            todo.extend(obj.values())
        elif isinstance(obj, (list, tuple, set, frozenset)):
            todo.extend(obj)
        elif hasattr(obj, "__dict__") and not callable(obj):
            todo.extend(vars(obj).values())
    return found


def table_size(tables: list[dict[int, int]]) -> tuple[int, int]:
    """Entries in the look-up tables and their approximate size in bytes."""
    entries = sum(len(t) for t in tables)
    size = sum(sys.getsizeof(t) + sum(sys.getsizeof(k) + sys.getsizeof(w) for k, w in t.items())
               for t in tables)
    return entries, size


def bench_memory(depths: tuple[int, ...]) -> list[Row]:
    """Peak traced memory of variantkit perft from the chess start position.

    The move tables of sliders are filled lazily (one entry per blocker
    occupancy met, bounded by design), and belong to the Variant, not to the
    search.  So for each depth a fresh variant first runs the perft untraced,
    which fills them (their size is reported), then the same perft runs under
    tracemalloc: its peak is the search's own working memory.
    """
    rows: list[Row] = []
    print("peak memory of perft, chess start position "
          "(tracemalloc; times include its overhead)")
    for depth in depths:
        variant = variantkit.load("chess")
        game = variant.new_game()
        variantkit.perft(game, depth)  # warm-up: fills the lazy look-up tables
        entries, size = table_size(lookup_tables(variant))
        gc.collect()
        tracemalloc.start()
        base = tracemalloc.get_traced_memory()[0]
        start = time.perf_counter()
        nodes = variantkit.perft(game, depth)
        secs = time.perf_counter() - start
        peak = tracemalloc.get_traced_memory()[1] - base
        tracemalloc.stop()
        row = Row("peak memory", "variantkit", str(depth), nodes, secs,
                  f"peak {peak / 1024:.1f} KiB (look-up tables: "
                  f"{entries:,} entries, ~{size / 1024:,.0f} KiB)", timed=False)
        print_row(row)
        rows.append(row)
    return rows


def bench_variants(runs: int) -> list[Row]:
    """Perft speed of the other bundled variants from their start positions."""
    rows: list[Row] = []
    print("other bundled variants")
    for name, depth in VARIANT_CASES:
        game = variantkit.load(name).new_game()
        nodes, secs = best_of(runs, partial(variantkit.perft, game, depth))
        row = Row(name, "variantkit", str(depth), nodes, secs, f"best of {runs}")
        print_row(row)
        rows.append(row)
    return rows


def bench_hands(runs: int) -> list[Row]:
    """Perft speed with pieces in hand (drops), beside chess's rows above."""
    rows: list[Row] = []
    print("pieces in hand")
    bundled = set(variantkit.variants())
    for case, name, fen, depth in HAND_CASES:
        if name not in bundled:
            print(f"  {case}: {name} is not bundled, skipped")
            continue
        game = variantkit.load(name).new_game(fen)
        nodes, secs = best_of(runs, partial(variantkit.perft, game, depth))
        row = Row(case, "variantkit", str(depth), nodes, secs, f"best of {runs}")
        print_row(row)
        rows.append(row)
    return rows


class UciPerft:
    """A UCI engine's `go perft`, timed by the engine process's own CPU time."""

    def __init__(self, path: Path) -> None:
        self.process = subprocess.Popen([str(path)], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True, bufsize=1)
        self.tick = os.sysconf("SC_CLK_TCK")
        self.send("uci")
        self.read_until("uciok")

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def read_until(self, start: str) -> str:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            if line.startswith(start):
                return line
        raise RuntimeError(f"the engine ended before answering {start!r}")

    def cpu_seconds(self) -> float:
        """User and system time of the engine process so far (Linux /proc)."""
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / self.tick

    def perft(self, variant: str, fen: str | None, depth: int) -> tuple[int, float]:
        """Nodes and CPU seconds of `go perft depth`."""
        self.send(f"setoption name UCI_Variant value {variant}")
        self.send("position " + (f"fen {fen}" if fen else "startpos"))
        self.send("isready")
        self.read_until("readyok")
        start = self.cpu_seconds()
        self.send(f"go perft {depth}")
        nodes = int(self.read_until("Nodes searched").split(":")[1])
        return nodes, self.cpu_seconds() - start

    def close(self) -> None:
        self.send("quit")
        self.process.wait(timeout=10)


def cpu_perft(game: variantkit.Game, depth: int) -> tuple[int, float]:
    """Nodes and CPU seconds of `variantkit.perft`."""
    gc.collect()
    start = time.process_time()
    nodes = variantkit.perft(game, depth)
    return nodes, time.process_time() - start


def bench_native(runs: int) -> tuple[list[Row], bool]:
    """variantkit's perft speed beside native Fairy-Stockfish's, in CPU time;
    and whether the two engines' node counts agree."""
    if not FAIRY_STOCKFISH.exists() or not Path("/proc/self/stat").exists():
        print(f"native Fairy-Stockfish: {FAIRY_STOCKFISH} or /proc missing, skipped")
        return [], True
    print("beside native Fairy-Stockfish (CPU time, best of runs)")
    engine = UciPerft(FAIRY_STOCKFISH)
    rows: list[Row] = []
    agree = True
    try:
        for case, name, fen, depth in NATIVE_CASES:
            game = variantkit.load(name).new_game(fen=fen)
            best = {"variantkit": (0, float("inf")), "fairy-stockfish": (0, float("inf"))}
            for _ in range(runs):   # interleaved, so load from other processes hits both alike
                for label, measured in (("variantkit", cpu_perft(game, depth)),
                                        ("fairy-stockfish", engine.perft(name, fen, depth))):
                    if measured[1] < best[label][1]:
                        best[label] = measured
            (vk_nodes, vk_secs), (fsf_nodes, fsf_secs) = best["variantkit"], best["fairy-stockfish"]
            slower = (fsf_nodes / fsf_secs) / (vk_nodes / vk_secs)
            agree = agree and vk_nodes == fsf_nodes
            pair = [Row(case, "fairy-stockfish", str(depth), fsf_nodes, fsf_secs, "1.00x"),
                    Row(case, "variantkit", str(depth), vk_nodes, vk_secs,
                        f"{slower:.2f}x slower than fairy-stockfish"
                        + ("" if vk_nodes == fsf_nodes else ", NODE COUNTS DIFFER"))]
            for row in pair:
                print_row(row)
            rows += pair
    finally:
        engine.close()
    return rows, agree


def markdown(rows: list[Row]) -> str:
    lines = ["| Case | Engine | Depth | Nodes | Seconds | Nodes/s | Notes |",
             "|---|---|--:|--:|--:|--:|---|"]
    for r in rows:
        nodes = "-" if r.nodes is None else f"{r.nodes:,}"
        secs = "-" if r.seconds is None else f"{r.seconds:.3f}"
        lines.append(f"| {r.case} | {r.engine} | {r.depth} | {nodes} | {secs} | "
                     f"{fmt_rate(r.rate)} | {r.note} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="smoke run: 1 run per measurement, no depth-5 memory run")
    parser.add_argument("--runs", type=int, default=None,
                        help="runs per timing, best kept (default 3, 1 with --quick)")
    parser.add_argument("--native", action="store_true",
                        help="only perft beside native Fairy-Stockfish (section 5)")
    args = parser.parse_args(argv)
    runs = args.runs or (1 if args.quick else 3)
    depths = MEMORY_DEPTHS[:-1] if args.quick else MEMORY_DEPTHS

    print(f"Python {platform.python_version()} ({platform.python_implementation()}), "
          f"python-chess {chess.__version__}, variantkit {variantkit.__version__} "
          f"({variantkit.BUILD} build), "
          f"{platform.system()} {platform.machine()}, {os.cpu_count()} CPUs")
    print()
    if args.native:   # the comparison alone, to measure the core's speed quickly
        rows, ok = bench_native(runs)
        print()
        print(markdown(rows))
        return _status(ok, "Fairy-Stockfish")
    rows = bench_load(runs)
    print()
    chess_rows, ok = bench_chess(runs)
    rows += chess_rows
    print()
    rows += bench_memory(depths)
    print()
    rows += bench_variants(runs)
    print()
    rows += bench_hands(runs)
    print()
    rows += bench_board_loads(runs)
    print()
    native_rows, native_ok = bench_native(runs)
    rows += native_rows
    print()
    print(markdown(rows))
    return _status(ok, "python-chess") or _status(native_ok, "Fairy-Stockfish")


def _status(agree: bool, oracle: str) -> int:
    """The exit status: 1 (said on stderr) when a node count differed."""
    if agree:
        return 0
    print(f"\nERROR: variantkit and {oracle} node counts differ", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
