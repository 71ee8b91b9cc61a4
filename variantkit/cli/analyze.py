"""Commands that run on a cluster: `analyze` (a self-play tournament and its
balance report), and the cluster side of `perft --workers`.

    variantkit analyze VARIANT... [--games N] [--depth D | --time T] [--engine E]
        [--random-plies K] [--max-plies M] [--seed S] [--workers N]
        [--cluster ADDRESS] [--worker-wait SECONDS] [--out report.html] [--json FILE]
        [--pgn FILE]

They need the optional extra `variantkit[cluster]` (Dask.distributed and
matplotlib) and say how to install it when it is missing.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import click

from variantkit.analysis.cluster import (
    WAIT_FOR_WORKERS,
    Cluster,
    ClusterError,
    ClusterLost,
    dask_missing,
    interrupts_held,
)
from variantkit.analysis.tournament import BUILTIN, GameRecord, Settings
from variantkit.cli import EXIT_INTERRUPTED
from variantkit.cli.common import (
    FiniteFloat,
    check_output,
    cli,
    fail,
    input_files,
    load_variant,
    write_output,
)
from variantkit.cli.options import (
    depth_option,
    games_option,
    max_plies_option,
    pgn_option,
    random_plies_option,
    seed_option,
    think_time_option,
)
from variantkit.errors import quote
from variantkit.game import Game
from variantkit.pgn import write_pgn
from variantkit.protocols.driver import PROTOCOLS
from variantkit.variant import Variant

CTRL_C = "Ctrl-C"        # why a run stopped, when the user stopped it
MAX_WORKER_WAIT = 3600.0  # seconds: --worker-wait is a bound, not a way to wait forever


def cluster_options(command: Any) -> Any:
    """--workers, --cluster and --worker-wait, shared by the commands that run
    on a cluster."""
    command = click.option(
        "--worker-wait", type=FiniteFloat(0, MAX_WORKER_WAIT, min_open=True),
        default=WAIT_FOR_WORKERS, show_default=True, metavar="SECONDS",
        help="How long a running cluster may be without the workers the run needs "
             "(--workers N, else one) before the run gives up.")(command)
    command = click.option(
        "--cluster", "address", default=None, metavar="ADDRESS",
        help="A running Dask scheduler (tcp://host:8786).  Without it the run uses "
             "DASK_SCHEDULER_ADDRESS if set, else a local cluster started for it.")(command)
    command = click.option(
        "--workers", type=click.IntRange(1, 1024), default=None, metavar="N",
        help="Worker processes of the local cluster (on a running cluster: wait for N).")(
        command)
    return command


@contextmanager
def connected(workers: int | None, address: str | None,
              worker_wait: float) -> Iterator[Cluster]:
    """The cluster for a command, or exit with a clear message."""
    try:
        cluster = Cluster(address, workers, worker_wait)
    except ClusterError as exc:
        fail(str(exc))
    with cluster:
        yield cluster


@contextmanager
def progress(label: str) -> Iterator[Callable[[int, int], None]]:
    """A progress bar on stderr when it is a terminal: call it with
    (finished, total)."""
    if not sys.stderr.isatty():
        yield lambda finished, total: None
        return
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(label, total=None)
        yield lambda finished, total: bar.update(task, completed=finished, total=total)


def perft_on_cluster(game: Game, depth: int, workers: int | None, address: str | None,
                     worker_wait: float) -> dict[str, int]:
    """`perft --workers/--cluster`: the count below each legal move."""
    try:
        from variantkit.analysis.perft import PerftIncomplete, distributed_perft

        with connected(workers, address, worker_wait) as cluster, \
                progress("counting") as done:
            return distributed_perft(game, depth, cluster, done)
    except (PerftIncomplete, ClusterLost) as exc:
        fail(f"{exc}; no exact total")
    except KeyboardInterrupt:
        fail("stopped: no total", EXIT_INTERRUPTED)


@cli.command()
@click.argument("variants", nargs=-1, required=True, metavar="VARIANT...")
@games_option(100, "Games for each variant.")
@depth_option(None, shown=2)
@think_time_option("Engine time per move in seconds, instead of a depth (results then "
                   "depend on the machine's speed).")
@click.option("--engine", "engine", default="builtin", show_default=True, metavar="ENGINE",
              help="The engine of both sides: builtin, or an external one (uci:PATH, "
                   "xboard:PATH, usi:PATH, started for each game; it needs --time).")
@random_plies_option
@max_plies_option
@seed_option
@cluster_options
@click.option("--out", "out_path", default=None, metavar="FILE",
              help="Write the HTML report to FILE.")
@click.option("--json", "json_path", default=None, metavar="FILE",
              help="Write the report's figures as JSON to FILE ('-': standard output).")
@pgn_option("Write every game as PGN to FILE (and into the report).")
def analyze(variants: tuple[str, ...], games: int, depth: int | None, seconds: float | None,
            engine: str, random_plies: int, max_plies: int, seed: int, workers: int | None,
            address: str | None, worker_wait: float, out_path: str | None,
            json_path: str | None, pgn_path: str | None) -> None:
    """Play self-play games of each VARIANT on a cluster and report on its
    balance: results by side, how games end, lengths, branching, pieces and
    material values.  Several variants are compared side by side."""
    if depth is not None and seconds is not None:
        fail("give --depth or --time, not both")
    if engine != BUILTIN:
        protocol, _, command = engine.partition(":")
        if protocol not in PROTOCOLS or not command.strip():
            fail(f"--engine {quote(engine)}: write builtin, uci:PATH, xboard:PATH or usi:PATH")
        if seconds is None or depth is not None:
            fail("an external engine plays by time: give --time, not --depth")
    # Ctrl-C this early is held too, so that it ends the run as it does later:
    # with the (empty) report, which needs the variants.
    with interrupts_held() as held_early:
        loaded = [load_variant(name) for name in variants]
        read = [file for variant in loaded for file in input_files(variant)]
        for path in (out_path, pgn_path, None if json_path == "-" else json_path):
            check_output(path, read, "w")  # reports are replaced; inputs never
    settings = Settings(games=games, depth=None if seconds else depth or 2, time=seconds,
                        random_plies=random_plies, max_plies=max_plies, seed=seed,
                        engine=engine)
    records: list[list[GameRecord]] = [[] for _ in loaded]
    # Why the run ended before every game was played, if it did.
    stopped_by = CTRL_C if held_early else _play(loaded, settings, records, workers, address,
                                                 worker_wait, out_path)
    with interrupts_held() as held:
        _report(loaded, settings, records, stopped_by, out_path, json_path, pgn_path)
    if stopped_by == CTRL_C or held:
        click.echo("Stopped: the report covers the games played so far.", err=True)
        sys.exit(EXIT_INTERRUPTED)
    asked = games * len(loaded)
    counted = sum(not record.lost for variant_records in records for record in variant_records)
    if stopped_by is not None:
        fail(f"{stopped_by}: the report covers the {counted} of {asked} games asked for")
    if counted < asked:
        fail(f"{asked - counted} of {asked} games were lost (listed above): the report "
             f"covers the other {counted}")


def _play(variants: list[Variant], settings: Settings, records: list[list[GameRecord]],
          workers: int | None, address: str | None, worker_wait: float,
          out_path: str | None) -> str | None:
    """Play the games, adding each to `records` as it comes; return why the
    run stopped early (Ctrl-C, the cluster's failure), or None."""
    # Ctrl-C in the middle of an import would leave a half-made module that
    # the report then fails on: the imports finish first.
    with interrupts_held() as held:
        _require_extra(out_path)
    if held:
        return CTRL_C
    try:
        from variantkit.analysis.tournament import tournament

        with connected(workers, address, worker_wait) as cluster:
            for variant, played in zip(variants, records, strict=True):
                with progress(f"{variant.name}: playing") as done:
                    for record in tournament(variant, settings, cluster):
                        played.append(record)
                        done(len(played), settings.games)
    except KeyboardInterrupt:
        return CTRL_C
    except ClusterLost as exc:
        return str(exc)
    return None


def _report(variants: list[Variant], settings: Settings, records: list[list[GameRecord]],
            stopped_by: str | None, out_path: str | None, json_path: str | None,
            pgn_path: str | None) -> None:
    """Write the report, the JSON and the PGN asked for, and print the summary."""
    from variantkit.analysis.stats import summarize

    summaries = [summarize(v, settings, r, stopped_by is not None, stopped_by)
                 for v, r in zip(variants, records, strict=True)]
    pgn = _pgn(variants, records) if pgn_path else None
    _write(out_path, json_path, pgn_path, summaries, pgn)
    _print_summary(summaries, to_stderr=json_path == "-")


def _require_extra(out_path: str | None) -> None:
    """Fail before any work when the extra is not installed."""
    try:
        import distributed  # noqa: F401
        if out_path:
            import matplotlib  # noqa: F401
    except ImportError:
        fail(str(dask_missing("analyze")))


def _pgn(variants: list[Variant], records: list[list[Any]]) -> str:
    texts = []
    for variant, played in zip(variants, records, strict=True):
        for record in sorted(played, key=lambda r: r.index):
            if record.lost:
                continue
            game = variant.new_game()
            for move in record.moves:
                game.push(move)
            texts.append(write_pgn(game, Event="variantkit analyze", Site="variantkit",
                                   Round=str(record.index + 1), White="variantkit",
                                   Black="variantkit", Annotator=f"seed {record.seed}"))
    return "\n".join(texts)


def _write(out_path: str | None, json_path: str | None, pgn_path: str | None,
           summaries: list[dict[str, Any]], pgn: str | None) -> None:
    if json_path == "-":
        click.echo(json.dumps(summaries, indent=1))
    elif json_path:
        write_output(json_path, json.dumps(summaries, indent=1) + "\n")
    if pgn_path and pgn is not None:
        write_output(pgn_path, pgn)
    if out_path:
        from variantkit.analysis.report import render_report
        write_output(out_path, render_report(summaries, pgn))


def _print_summary(summaries: list[dict[str, Any]], to_stderr: bool) -> None:
    """A few lines a variant (on stderr when the JSON goes to stdout)."""
    for s in summaries:
        r = s["results"]
        line = (f"{s['variant']}: {s['played']} games, White {r['white']['rate']:.0%}, "
                f"Black {r['black']['rate']:.0%}, draws {r['draw']['rate']:.0%}, "
                f"mean length {s['length']['mean']:.0f} plies")
        click.echo(line, err=to_stderr)
        for lost in s["lost"]:
            click.echo(f"  lost game {lost['game']} (seed {lost['seed']}): {lost['error']}; "
                       f"moves: {' '.join(lost['moves']) or 'not known'}", err=to_stderr)
        if s["lost"]:
            click.echo(f"  {len(s['lost'])} game(s) lost of {s['settings']['games']}",
                       err=to_stderr)
