"""`variantkit render`: draw a position as an SVG image.

    variantkit render VARIANT [--fen F] [--moves M...] [-o FILE.svg] [--flip]
                      [--highlight CELLS] [--size PIXELS]
                      [--pieces traditional|international]

A game on two boards (bughouse) is drawn as its pair, both boards side by
side, from a pair's position string (`--fen "A | B"`) and moves that name
their board (`--moves "A:e4 B:d4"`); one board's position string draws that
board alone.
"""

from __future__ import annotations

import re

import click

from variantkit.cli.common import (
    FiniteFloat,
    check_output,
    cli,
    fail,
    force_option,
    game_for,
    input_files,
    position_options,
    write_output,
)
from variantkit.cli.play import pair_for
from variantkit.drawing.svg import render
from variantkit.limits import MAX_IMAGE_PIXELS
from variantkit.rulebook.look import PIECE_SETS


@cli.command("render")
@click.argument("variant")
@position_options
@click.option("-o", "--output", default=None, metavar="FILE.svg",
              help="Write the image to FILE instead of standard output.")
@click.option("--flip", is_flag=True, help="Draw the board from Black's side.")
@click.option("--highlight", "highlights", multiple=True, metavar="CELLS",
              help="Cells to tint, separated by commas or spaces (--highlight e4,d5); "
                   "repeatable.")
@click.option("--size", type=FiniteFloat(1, MAX_IMAGE_PIXELS), default=None, metavar="PIXELS",
              help="Width of the image in pixels (default: 60 pixels a square cell).")
@click.option("--pieces", type=click.Choice(PIECE_SETS), default="traditional",
              help="The piece set, for a variant whose look gives its pieces characters: "
                   "the characters (traditional) or figures and letters (international).")
@force_option
def render_command(variant: str, fen: str | None, moves: tuple[str, ...], output: str | None,
                   flip: bool, highlights: tuple[str, ...], size: float | None,
                   pieces: str, force: bool) -> None:
    """Draw a position as an SVG image: last move and check marked.

    A game on two boards is drawn as both boards side by side (--fen "A | B",
    --moves "A:e4 B:d4"; --size is each board's width)."""
    mode = "w" if force else "x"
    cells = [name for text in highlights for name in re.split(r"[\s,]+", text) if name]
    pair = pair_for(variant, fen, moves)
    if pair is not None:
        check_output(output, input_files(pair.variant), mode)
        if cells:
            fail("--highlight names cells of one board: draw one board with its own "
                 "position string to highlight cells")
        svg = pair.svg(flip=flip, size=size, pieces=pieces)
    else:
        game = game_for(variant, fen, moves)
        check_output(output, input_files(game.variant), mode)
        try:
            svg = render(game, flip=flip, highlight=cells, size=size, pieces=pieces)
        except ValueError as exc:
            fail(str(exc))
    if output is None:
        click.echo(svg, nl=False)
        return
    write_output(output, svg, mode)
