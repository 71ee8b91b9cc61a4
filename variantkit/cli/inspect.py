"""Commands that look at variants and positions: list, validate, perft,
moves, show.

    variantkit list
    variantkit validate FILE... [--format json]
    variantkit perft VARIANT DEPTH [--fen F] [--moves M...] [--divide]
        [--workers N] [--cluster ADDRESS]
    variantkit moves VARIANT [--fen F] [--moves M...] [--count]
    variantkit show VARIANT [--fen F] [--moves M...]
"""

from __future__ import annotations

import json
import sys
from typing import Any

import click

import variantkit
from variantkit.cli.analyze import cluster_options, perft_on_cluster
from variantkit.cli.common import (
    EXIT_ERROR,
    EXIT_UNREADABLE,
    cli,
    fail,
    format_problem,
    game_for,
    is_unreadable,
    position_options,
    problem_record,
    use_color,
)
from variantkit.display import board_text
from variantkit.errors import VariantError


@cli.command("list")
def list_command() -> None:
    """List the bundled variants."""
    names = variantkit.variants()
    descriptions = {}
    for name in names:
        try:
            descriptions[name] = variantkit.load(name).description
        except VariantError:
            descriptions[name] = "(does not load: run `variantkit validate`)"
    if use_color():
        from rich.console import Console
        from rich.table import Table
        table = Table("variant", "description", box=None, header_style="bold")
        for name in names:
            table.add_row(f"[bold]{name}[/]", descriptions[name])
        Console().print(table)
        return
    width = max((len(n) for n in names), default=0)
    for name in names:
        click.echo(f"{name.ljust(width)}  {descriptions[name]}".rstrip())


@cli.command()
@click.argument("files", nargs=-1, required=True, metavar="FILE...")
@click.option("--format", "output", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="How to print the problems found.")
def validate(files: tuple[str, ...], output: str) -> None:
    """Check variant files; exit 1 on any error, 2 when a file cannot be read."""
    records: list[dict[str, Any]] = []
    cache: dict[str, list[str]] = {}
    code = 0
    for file in files:
        try:
            problems = variantkit.load(file).problems  # warnings only
            failed = False
        except VariantError as exc:
            problems, failed = exc.problems, True
        if failed:
            code = max(code, EXIT_UNREADABLE if is_unreadable(problems) else EXIT_ERROR)
        if output == "json":
            records.extend(problem_record(p) for p in problems)
            continue
        for problem in problems:
            click.echo(format_problem(problem, cache))
        if not failed:
            click.echo(f"{file}: ok")
    if output == "json":
        click.echo(json.dumps(records, indent=2))
    sys.exit(code)


# Unknown options pass through as arguments so that a depth of `-1` gets the
# depth message rather than "no such option".
@cli.command(context_settings={"ignore_unknown_options": True})
@click.argument("variant")
@click.argument("depth")
@position_options
@click.option("--divide", is_flag=True, help="Also print the count below each legal move.")
@cluster_options
def perft(variant: str, depth: str, fen: str | None, moves: tuple[str, ...],
          divide: bool, workers: int | None, address: str | None) -> None:
    """Count the move sequences DEPTH plies deep from a position (on a
    cluster with --workers or --cluster)."""
    if not (depth.isascii() and depth.isdigit()) or int(depth) < 1:
        fail(f"depth must be a whole number >= 1, not '{depth}'")
    plies = int(depth)
    game = game_for(variant, fen, moves)
    if workers or address:
        counts = perft_on_cluster(game, plies, workers, address)
        if divide:
            for first, count in counts.items():
                click.echo(f"{first}: {count}")
        total = sum(counts.values())
    elif not divide:
        total = variantkit.perft(game, plies)
    else:
        total = 0
        for move in sorted(game.legal_moves(), key=str):
            game.push(move)
            count = variantkit.perft(game, plies - 1)
            game.pop()
            total += count
            click.echo(f"{move}: {count}")
    click.echo(f"Nodes searched: {total}")


@cli.command("moves")
@click.argument("variant")
@position_options
@click.option("--count", is_flag=True, help="Print only the number of legal moves.")
def moves_command(variant: str, fen: str | None, moves: tuple[str, ...], count: bool) -> None:
    """Print the legal moves of a position, sorted, on one line."""
    legal = sorted(str(m) for m in game_for(variant, fen, moves).legal_moves())
    click.echo(str(len(legal)) if count else " ".join(legal))


@cli.command()
@click.argument("variant")
@position_options
def show(variant: str, fen: str | None, moves: tuple[str, ...]) -> None:
    """Draw a position, with the side to move and its position string."""
    game = game_for(variant, fen, moves)
    click.echo(board_text(game, color=use_color()), nl=False)


