"""Speed benchmark: both builds, every bundled variant, ratios to python-chess.

Run with `make bench` or `python benchmarks/speed_bench.py [options]`.

The script runs itself once per build in a fresh process: the pure-Python
build with VARIANTKIT_PURE=1, the compiled build without it (reported as
missing when the process still says `variantkit.BUILD == "pure"`, or has no
BUILD at all).  Each run measures:

1. Start-up: the wall time of `import variantkit` and of the command
   `variantkit perft chess 1`, each in a new process, best of N.
2. Chess start position (depth 4) and Kiwipete (depth 3), variantkit against
   python-chess in the same process, runs interleaved, best of N, in two
   modes: bulk counting (make/unmake down to depth 1, count the legal moves
   there, as `variantkit.perft` and python-chess's own perft example do) and
   make/unmake at every leaf.  Node counts must agree (exit status 1).
3. The engine (`variantkit.engine.search.Engine`) searching to depth 4 from every
   bundled variant's start position, and from Kiwipete, with a time limit per
   search: nodes/s and the time to depth 4, or the depth reached where the
   limit cut the search.
4. Perft of every bundled variant from its start position: the depth grows
   until one run takes at least `min_seconds` (1 s), unless the next depth
   would take over `max_seconds` (5 s, estimated from the growth of the node
   count) or `max_depth` is reached; a run shorter than `min_seconds` is
   repeated until the runs add up to it, and the best is kept.  The first
   build measured chooses the depths; the other counts at the same depths.

`--parts` picks some of these parts (default: all four), `--engine-seconds`
changes the engine's time limit.  Then one markdown table with a column group
per build; `--out FILE` also writes it to FILE.  No timing is asserted: the machine is shared, so
absolute figures vary from run to run; the ratios, measured in one process,
vary less.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any

import chess
from perft_bench import CHESS_CASES, KIWIPETE, best_of, chess_perft

BUILDS = ("pure", "compiled")
PARTS = ("start-up", "python-chess", "engine", "perft")  # the numbered parts above
PURE_VARIABLE = "VARIANTKIT_PURE"
ENGINE_FIRST = ("chess", "diplomat", "trice")  # then Kiwipete after chess
MAX_REPEATS = 20  # runs of one perft at most, to add up to Settings.min_seconds


@dataclass(frozen=True)
class Settings:
    """How deep and how long each part runs."""

    runs: int              # best of this many, for start-up and the python-chess cases
    chess_scale: int       # subtracted from the chess cases' depths
    engine_depth: int
    engine_seconds: float  # time limit of one engine search
    min_seconds: float     # a perft depth is deep enough once a run takes this long
    max_seconds: float     # ... and not deeper when the next would take longer
    max_depth: int


FULL = Settings(runs=3, chess_scale=0, engine_depth=4, engine_seconds=2.5,
                min_seconds=1.0, max_seconds=5.0, max_depth=8)
QUICK = Settings(runs=1, chess_scale=2, engine_depth=2, engine_seconds=1.0,
                 min_seconds=0.02, max_seconds=0.2, max_depth=2)


@dataclass
class Row:
    """One measurement of one build.  `ref` names the python-chess row of
    the same process this one is compared with."""

    section: str
    case: str
    depth: str = "-"
    nodes: int | None = None
    seconds: float | None = None
    note: str = ""
    ref: str = ""

    @property
    def key(self) -> str:
        return f"{self.section}/{self.case}"

    @property
    def rate(self) -> float | None:
        if self.nodes is None or not self.seconds:
            return None
        return self.nodes / self.seconds


# -- measurements (in the process of one build) ---------------------------------
def process_seconds(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def startup_rows(runs: int) -> list[Row]:
    """New processes (they inherit this one's environment, so its build)."""
    command = Path(sys.executable).with_name("variantkit")
    perft = [str(command)] if command.exists() else [sys.executable, "-m", "variantkit"]
    cases = [("import variantkit", [sys.executable, "-c", "import variantkit"]),
             ("variantkit perft chess 1", [*perft, "perft", "chess", "1"]),
             ("python -c pass (the interpreter alone)", [sys.executable, "-c", "pass"])]
    return [Row("start-up", case, seconds=min(process_seconds(argv) for _ in range(runs)))
            for case, argv in cases]


def chess_leaves(board: chess.Board, depth: int) -> int:
    """python-chess perft making and unmaking every move, leaves included."""
    if depth == 0:
        return 1
    nodes = 0
    for move in board.legal_moves:
        board.push(move)
        nodes += chess_leaves(board, depth - 1)
        board.pop()
    return nodes


def variantkit_leaves(game: Any, depth: int) -> int:
    """variantkit perft making and unmaking every move, leaves included."""
    if depth == 0:
        return 1
    nodes = 0
    for move in game.position.legal_internal():
        game.position.make_internal(move)
        nodes += variantkit_leaves(game, depth - 1)
        game.position.unmake_internal()
    return nodes


def chess_rows(settings: Settings) -> tuple[list[Row], bool]:
    """variantkit against python-chess in this process, both modes."""
    import variantkit

    variant = variantkit.load("chess")
    rows: list[Row] = []
    agree = True
    for mode, reference, ours in (("bulk counting", chess_perft, variantkit.perft),
                                  ("make/unmake every leaf", chess_leaves, variantkit_leaves)):
        section = f"perft, {mode}"
        for name, fen, full_depth in CHESS_CASES:
            depth = max(1, full_depth - settings.chess_scale)
            board = chess.Board(fen) if fen else chess.Board()
            game = variant.new_game(fen=fen)
            ref_secs = vk_secs = float("inf")
            ref_nodes = vk_nodes = 0
            for _ in range(settings.runs):  # interleaved: other jobs' load hits both alike
                ref_nodes, secs = best_of(1, partial(reference, board, depth))
                ref_secs = min(ref_secs, secs)
                vk_nodes, secs = best_of(1, partial(ours, game, depth))
                vk_secs = min(vk_secs, secs)
            ref = Row(section, f"{name}, python-chess", str(depth), ref_nodes, ref_secs)
            row = Row(section, name, str(depth), vk_nodes, vk_secs, ref=ref.key)
            if vk_nodes != ref_nodes:
                agree = False
                row.note = f"MISMATCH: python-chess counts {ref_nodes:,}"
            rows += [ref, row]
    return rows, agree


def engine_row(name: str, fen: str | None, settings: Settings) -> Row:
    import variantkit
    from variantkit.engine.search import Engine

    variant = variantkit.load(name)
    game = variant.new_game(fen=fen)
    engine = Engine(variant)
    engine.best_move(game, depth=settings.engine_depth, time_limit=settings.engine_seconds)
    info = engine.info
    case = name if fen is None else f"{name}, kiwipete"
    note = "" if info.depth == settings.engine_depth else \
        f"stopped by the {settings.engine_seconds:g} s limit after depth {info.depth}"
    return Row("engine", case, str(settings.engine_depth), info.nodes, info.seconds, note)


def perft_row(name: str, settings: Settings, fixed_depth: int | None) -> Row:
    """Perft from the start at `fixed_depth`, or at a depth chosen by time;
    repeated (best kept) until the runs add up to `min_seconds`."""
    import variantkit

    game = variantkit.load(name).new_game()

    def timed(depth: int) -> tuple[int, float]:
        start = time.perf_counter()
        nodes = variantkit.perft(game, depth)
        return nodes, time.perf_counter() - start

    depth, previous, note = fixed_depth or 1, 1, ""
    nodes, seconds = timed(depth)
    while fixed_depth is None and seconds < settings.min_seconds and nodes:
        if depth >= settings.max_depth:
            note = f"depth cap {settings.max_depth}; "
            break
        if seconds * nodes / previous > settings.max_seconds:
            note = f"depth {depth + 1} would take over {settings.max_seconds:g} s; "
            break
        depth, previous = depth + 1, nodes
        nodes, seconds = timed(depth)
    runs = [seconds]
    while sum(runs) < settings.min_seconds and len(runs) < MAX_REPEATS:
        runs.append(timed(depth)[1])
    if len(runs) > 1:
        note += f"best of {len(runs)} runs"
    return Row("perft, every variant", name, str(depth), nodes, min(runs), note.rstrip("; "))


def engine_rows(names: list[str], settings: Settings) -> list[Row]:
    """The issue's four engine cases first, then every other variant."""
    first = [name for name in ENGINE_FIRST if name in names]
    rows = [engine_row(name, None, settings) for name in first[:1]]
    if "chess" in names:
        rows.append(engine_row("chess", KIWIPETE, settings))
    rows += [engine_row(name, None, settings) for name in first[1:]]
    return rows + [engine_row(name, None, settings) for name in names if name not in first]


def measure(build: str, settings: Settings, names: list[str], parts: list[str],
            depths: dict[str, int]) -> dict[str, Any]:
    """The chosen parts for the build of this process, as JSON-ready data."""
    rows: list[Row] = []
    agree = True
    if "start-up" in parts:
        rows += startup_rows(settings.runs)
    if "python-chess" in parts:
        compared, agree = chess_rows(settings)
        rows += compared
    if "engine" in parts:
        rows += engine_rows(names, settings)
    if "perft" in parts:
        rows += [perft_row(name, settings, depths.get(name)) for name in names]
    return {"build": build, "agree": agree, "rows": [asdict(row) for row in rows]}


# -- orchestration -------------------------------------------------------------
def run_build(build: str, args: argparse.Namespace, depths: dict[str, int]) -> dict[str, Any]:
    """Run this script for one build in a new process; its measurements."""
    env = dict(os.environ)
    env.pop(PURE_VARIABLE, None)
    if build == "pure":
        env[PURE_VARIABLE] = "1"
    with tempfile.TemporaryDirectory() as folder:
        result = Path(folder) / "result.json"
        argv = [sys.executable, __file__, "--worker", str(result), "--build", build,
                "--depths", json.dumps(depths), "--parts", *args.parts,
                "--variants", *args.variants]
        if args.quick:
            argv.append("--quick")
        if args.engine_seconds:
            argv += ["--engine-seconds", str(args.engine_seconds)]
        print(f"measuring the {build} build ...", file=sys.stderr, flush=True)
        subprocess.run(argv, check=True, env=env)
        data: dict[str, Any] = json.loads(result.read_text(encoding="utf-8"))
    if data["build"] != build:
        return {"build": build, "missing": f"not available (the process runs the "
                                           f"{data['build']} build)"}
    return data


def cell(row: Row | None, ref: Row | None) -> list[str]:
    """Seconds, nodes/s and the ratio to python-chess of one build."""
    if row is None:
        return ["", "", ""]
    secs = "-" if row.seconds is None else f"{row.seconds:.3f}"
    rate = "-" if row.rate is None else f"{row.rate:,.0f}"
    ratio = f"{row.rate / ref.rate:.2f}x" if ref and ref.rate and row.rate else ""
    return [secs, rate, ratio]


def markdown(results: list[dict[str, Any]]) -> str:
    """One table: a row per case, a column group per build measured."""
    missing = [f"The {data['build']} build is {data['missing']}." for data in results
               if "missing" in data]
    results = [data for data in results if "missing" not in data]
    tables = [{row.key: row for row in map(lambda r: Row(**r), data.get("rows", []))}
              for data in results]
    keys = list(dict.fromkeys(key for table in tables for key in table))
    header = ["Part", "Case", "Depth", "Nodes"]
    for data in results:
        header += [f"{data['build']} s", f"{data['build']} nodes/s",
                   f"{data['build']} vs python-chess"]
    lines = ["| " + " | ".join([*header, "Notes"]) + " |",
             "|" + "---|---|--:|--:|" + "--:|--:|--:|" * len(results) + "---|"]
    for key in keys:
        rows = [table.get(key) for table in tables]
        first = next(row for row in rows if row is not None)
        nodes = "-" if first.nodes is None else f"{first.nodes:,}"
        cells = [first.section, first.case, first.depth, nodes]
        notes = []
        for data, table, row in zip(results, tables, rows, strict=True):
            cells += cell(row, table.get(row.ref) if row and row.ref else None)
            if row and row.note:
                notes.append(row.note if len(results) == 1 else f"{data['build']}: {row.note}")
            if row and first.nodes != row.nodes:
                notes.append(f"{data['build']}: {row.nodes:,} nodes")
        lines.append("| " + " | ".join([*cells, "; ".join(notes)]) + " |")
    return "\n".join(lines + ([""] + missing if missing else []))


def machine_line() -> str:
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return (f"{os.cpu_count()} CPUs, {platform.system()} {platform.machine()}, CPython "
            f"{platform.python_version()}, python-chess {chess.__version__}, "
            f"load average {load:.1f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="smoke run: tiny depths, one run each, a few variants")
    parser.add_argument("--variants", nargs="*", metavar="NAME",
                        help="bundled variants to measure (default: all; with --quick, "
                             "chess and diplomat)")
    parser.add_argument("--build", choices=[*BUILDS, "both"], default="both")
    parser.add_argument("--parts", nargs="+", choices=PARTS, default=list(PARTS),
                        help="what to measure (default: all of it)")
    parser.add_argument("--engine-seconds", type=float, metavar="S",
                        help="time limit of one engine search (default: 2.5, with --quick 1)")
    parser.add_argument("--out", type=Path, help="also write the markdown table to this file")
    parser.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--depths", default="{}", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    settings = QUICK if args.quick else FULL
    if args.engine_seconds:
        settings = replace(settings, engine_seconds=args.engine_seconds)

    if args.worker:
        import variantkit

        build = getattr(variantkit, "BUILD", "pure")
        data = {"build": build} if build != args.build else \
            measure(build, settings, args.variants or [], args.parts, json.loads(args.depths))
        args.worker.write_text(json.dumps(data), encoding="utf-8")
        return 0

    import variantkit

    bundled = variantkit.variants()
    if args.variants is None:
        args.variants = ["chess", "diplomat"] if args.quick else bundled
    unknown = sorted(set(args.variants) - set(bundled))
    if unknown:
        parser.error(f"not bundled: {', '.join(unknown)}")
    started = time.perf_counter()
    results: list[dict[str, Any]] = []
    depths: dict[str, int] = {}
    for build in BUILDS if args.build == "both" else (args.build,):
        data = run_build(build, args, depths)
        results.append(data)
        depths = depths or {row["case"]: int(row["depth"]) for row in data.get("rows", [])
                            if row["section"] == "perft, every variant"}
    table = markdown(results)
    minutes = (time.perf_counter() - started) / 60
    text = (f"{machine_line()}; the whole run took {minutes:.1f} minutes. Start-up and "
            f"the python-chess comparisons: best of {settings.runs}; the engine: one "
            f"search; every variant's perft: best of the runs that add up to "
            f"{settings.min_seconds:g} s.\n\n{table}\n")
    print(text)
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    if not all(data.get("agree", True) for data in results):
        print("ERROR: variantkit and python-chess node counts differ", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
