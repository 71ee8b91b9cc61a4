"""Commands for writing variants: new, explain, betza.

    variantkit new NAME [--from VARIANT] [-o FILE]
    variantkit explain VARIANT PIECE [--cell C] [--fen F] [--side white|black] [--drop]
    variantkit betza BETZA [--variant VARIANT] [--from C] [--side white|black]

`new` writes a starter file that validates as written; `explain` shows where
a piece can go, from the compiled tables on an otherwise empty board or as
the legal moves of a real position; with `--drop`, where it may be dropped
from the hand (its drop region, or its legal drops in a position).  `betza`
tries a Betza string before it goes into a file: the primitives it expands
to, and where a piece with them goes on a variant's empty board, drawn as
`explain` draws it.
"""

from __future__ import annotations

import json
import os
import re
import textwrap
from collections.abc import Iterable
from pathlib import Path

import click
import yaml

from variantkit.betza import moves_of
from variantkit.cli.common import (
    check_output,
    cli,
    fail,
    force_option,
    input_files,
    load_variant,
    write_output,
)
from variantkit.drawing.terminal import board_renderable
from variantkit.errors import InvalidFenError, VariantError, quote
from variantkit.game import Game, Move
from variantkit.loader import bundled_names, resolve, schema_path
from variantkit.pieces import CAPTURE, CONVERT, MOVE, PieceType, piece_code, reach
from variantkit.rulebook.promotion import promotion_rules
from variantkit.variant import Variant, load_text

NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_-]*$")
SIDES = ("white", "black")
# Letters tried, in order, for the example piece in a `--from` file.
SPARE_LETTERS = "WFGJLTVYZXUDEHIMOS"
# The name of the piece `variantkit betza` adds to a variant to try a string.
BETZA_PIECE = "tried-piece"

STARTER = """\
# yaml-language-server: $schema={schema}
# {name}: a small playable variant to start from.  After each change run
#   variantkit validate {file}
# and `variantkit show {file}` to see the start position.  Every key is
# described in the YAML reference (docs/reference/).

# The format version (required), the variant's name and a one-line summary.
variantkit: 1
name: {name}
description: A 5x5 starter variant with king, rook, knight and pawns.

# The board: 5 files (a-e) by 5 ranks (1-5).  Regions name sets of cells for
# promotion, jump, from-region and to-region.
board:
  grid: {{files: 5, ranks: 5}}
  regions:
    rank-1: {{ranks: [1]}}
    rank-5: {{ranks: [5]}}

# Which way is forward for each side (pawns, forward-diagonal, vectors).
sides:
  white: {{forward: n}}
  black: {{forward: s}}

# The pieces: a unique letter (White's; Black's is the same letter in lower
# case) and a list of moves, each a primitive (step, ride, leap, jump, suborn,
# plane-shift) with modifiers (only, initial, range, to-region, ...).
pieces:
  king:
    letter: K
    royal: true                  # may not be left in check; mating it wins
    moves:
      - step: all                # one step in any of the eight directions
  rook:
    letter: R
    value: 5
    moves:
      - ride: orthogonal         # any distance along a rank or file
  knight:
    letter: N
    value: 3
    moves:
      - leap: [1, 2]             # every (1, 2) and (2, 1) jump
  pawn:
    letter: P
    value: 1
    resets-clock: true           # a pawn move resets the move-rule count
    moves:
      - step: forward            # straight on, never capturing
        only: move
      - step: forward-diagonal   # diagonally forward, capturing only
        only: capture

# The start position: the last rank first, White in upper case, then the side
# to move, castling rights, en passant cell, half-move clock, move number.
setup: rnknr/ppppp/5/PPPPP/RNKNR w - - 0 1

# A pawn reaching its last rank must become one of the choices.
promotion:
  pieces: [pawn]
  regions: {{white: rank-5, black: rank-1}}
  choices: [rook, knight]

# No `castling:` section: no castling.  chess.yaml shows how to declare it.

# How the game ends.
end:
  checkmate: loss                # for the side that is mated
  stalemate: draw
  repetition: 3                  # threefold repetition draws
  move-rule: 50                  # fifty moves each without capture or pawn move
  insufficient-material:
    - K v K
"""

DERIVED = """\
# yaml-language-server: $schema={schema}
# {name}: a variant built on {parent}.  Everything not written here is
# {parent}'s: mappings merge key by key, lists and values replace the
# parent's.  Uncomment and edit the hints below, then run
#   variantkit validate {file}

variantkit: 1
name: {name}
inherits: {inherits}
description: A variant of {parent}.

{board}

{pieces}
# Add a piece, or give one again (its `moves` list then replaces the old):
# pieces:
#   wazir:
#     letter: {letter}
#     moves:
#       - step: orthogonal

# setup: the start position; change it when the pieces or the board change.
# setup: {setup}

# promotion: `choices` is a list, so it replaces {parent}'s.
# promotion:
#   choices: [{choices}]

# castling: a list; written here it replaces {parent}'s ({castlings}).
# `castling: []` removes castling.

# end: merged key by key with {parent}'s rules.
# end:
#   stalemate: {stalemate}
#   repetition: {repetition}
"""


# --- new ----------------------------------------------------------------------


@cli.command()
@click.argument("name")
@click.option("--from", "parent", default=None, metavar="VARIANT",
              help="Inherit from this variant (a bundled name or a file).")
@click.option("-o", "--output", default=None, metavar="FILE",
              help="Where to write; default NAME.yaml.  An existing file is kept unless "
                   "--force.")
@force_option
def new(name: str, parent: str | None, output: str | None, force: bool) -> None:
    """Write a starter variant file NAME.yaml that validates as written."""
    if not NAME.match(name):
        fail(f"a variant name is letters, digits, '-' or '_', starting with a letter, "
             f"not {quote(name)}")
    path = Path(output) if output is not None else Path(f"{name}.yaml")
    mode = "w" if force else "x"
    variant = None if parent is None else load_variant(parent)
    check_output(str(path), [] if variant is None else input_files(variant), mode)
    folder = path.parent.resolve()
    fields = {"name": name, "file": path.as_posix(),
              "schema": _relative(schema_path(), folder)}
    text = STARTER.format(**fields) if variant is None \
        else _derived(variant, str(parent), folder, fields)
    write_output(str(path), text, mode)
    click.echo(f"wrote {path}")


def _derived(variant: Variant, parent: str, folder: Path, fields: dict[str, str]) -> str:
    """A file that inherits `parent`, with commented hints built from it."""
    # A bundled name stays a name; a file is referred to relative to the new
    # file, as the loader reads `inherits` relative to the inheriting file,
    # and must lie in its folder or below (the loader's containment rule).
    source = resolve(parent).resolve()
    if parent in bundled_names():
        inherits = parent
    elif source.is_relative_to(folder):
        inherits = json.dumps(source.relative_to(folder).as_posix())
    else:
        fail(f"{parent} is not in the folder of the new file or below it, and a variant "
             f"inherits only files there: write the new file into {source.parent} with -o")
    board = variant.document.data["board"]
    topology = next(k for k in board if k != "regions")
    types = variant.pieces.types
    rules = promotion_rules(variant.document.data.get("promotion"))
    choices = rules[0].get("choices", []) if rules else []
    if isinstance(choices, dict):
        choices = choices["white"]
    repetition = variant.rules.end.repetition
    castlings = variant.rules.castling.castlings
    return DERIVED.format(
        **fields, parent=variant.name, inherits=inherits,
        board=_comment(f"board: merged key by key with {variant.name}'s board, a {topology} of "
                       f"{variant.board.size} cells.  Regions declared here add to "
                       f"{variant.name}'s: {', '.join(board.get('regions', {})) or 'none'}."),
        pieces=_comment(f"pieces: merged into {variant.name}'s pieces: "
                        + ", ".join(f"{t.name} ({t.letter})" for t in types) + "."),
        letter=next((x for x in SPARE_LETTERS if x not in variant.pieces.by_letter), "W"),
        setup=variant.setup_fen, choices=", ".join(choices),
        castlings=f"{len(castlings)} entries" if castlings else "none",
        stalemate=variant.rules.end.stalemate,
        repetition="null" if repetition is None else repetition)


def _comment(text: str) -> str:
    """`text` as YAML comment lines."""
    return textwrap.fill(text, width=78, initial_indent="# ", subsequent_indent="# ",
                         break_on_hyphens=False)


def _relative(target: Path, folder: Path) -> str:
    """`target` as seen from `folder` when they share a folder below the
    root (a project), else its absolute path."""
    target = target.resolve()
    try:
        shared = Path(os.path.commonpath([target, folder]))
    except ValueError:  # another drive on Windows
        shared = Path(target.anchor)
    if shared == Path(shared.anchor):
        return target.as_posix()
    return Path(os.path.relpath(target, folder)).as_posix()


# --- explain --------------------------------------------------------------------

# Marks drawn on destination cells, in legend order.  "take" is a capture,
# or a suborn for a piece that converts.  None is a letter, so a mark never
# reads as a piece (piece letters are letters; an empty cell is '.').
BOTH, MOVE_ONLY, TAKE_ONLY, INITIAL = "*", "+", "#", "^"
DROP_MARK = "@"


@cli.command()
@click.argument("variant")
@click.argument("piece")
@click.option("--cell", default=None, metavar="C",
              help="The piece's cell; default: where it reaches most, near the middle.")
@click.option("--fen", default=None, metavar="F",
              help="Show the legal moves of the piece on --cell in this position.")
@click.option("--side", type=click.Choice(SIDES), default=None,
              help="Whose piece; default White, or Black for a lower-case letter.")
@click.option("--drop", is_flag=True,
              help="Where the piece may be dropped from the hand (with --fen: its legal drops).")
def explain(variant: str, piece: str, cell: str | None, fen: str | None,
            side: str | None, drop: bool) -> None:
    """Show where PIECE (a name or letter) can go from a cell, or be dropped."""
    v = load_variant(variant)
    kind, colour = _find_piece(v, piece, side)
    code = piece_code(kind.index, colour)
    board = v.board
    if drop:
        if cell is not None:
            fail("a drop has no from-cell: give --drop or --cell, not both")
        _explain_drops(v, kind, code, fen)
        return
    if fen is None:
        game, here, marks = _alone(v, code, cell)
        where = "empty board"
    else:
        try:
            game = v.new_game(fen)
        except InvalidFenError as exc:
            fail(f"bad position string: {exc}")
        here = _cell(v, cell) if cell is not None else _only_cell(game, code, kind)
        there = game.position.cells[here]
        if side is None and there >> 1 == kind.index + 1:
            code, colour = there, there & 1  # the piece there decides
        if there != code:
            fail(f"{board.names[here]} does not hold the {SIDES[colour]} {kind.name}")
        marks = _legal_marks(game, here)
        where = f"legal moves, {game.turn} to move"
        if colour != game.position.stm:
            where += f": the {SIDES[colour]} {kind.name} cannot move now"
    click.echo(f"{SIDES[colour]} {kind.name} ({v.letter_of_code(code)}) on {board.names[here]}, "
               f"{where}\n")
    click.echo(_draw(game, marks))
    click.echo(_legend(v, kind, marks))
    if fen is None and any(v.pieces.components[i].flags.hop for i in kind.components):
        click.echo("its hops need a piece to jump: give --fen to see them")


@cli.command()
@click.argument("text", metavar="BETZA")
@click.option("--variant", "variant_name", default="chess", show_default=True,
              metavar="VARIANT", help="The board to try the moves on.")
@click.option("--from", "cell", default=None, metavar="C",
              help="The piece's cell; default: where it reaches most, near the middle.")
@click.option("--side", type=click.Choice(SIDES), default="white", show_default=True,
              help="Whose piece: Black's forward is the other way.")
def betza(text: str, variant_name: str, cell: str | None, side: str) -> None:
    """Try a Betza string: the primitives it expands to, as YAML, and where
    a piece with these moves goes from a cell of the variant's empty board."""
    base = load_variant(variant_name)
    letter = next((x for x in SPARE_LETTERS if x not in base.pieces.by_letter), None)
    if letter is None:
        fail(f"{base.name} uses every letter a tried piece could take")
    data = {**base.document.data,
            "pieces": {**base.document.data["pieces"], BETZA_PIECE: {"letter": letter,
                                                                    "betza": text}}}
    try:
        v = load_text(yaml.safe_dump(data, sort_keys=False), source=base.document.file)
    except VariantError as exc:
        fail("\n".join(p.message for p in exc.problems if p.severity == "error"))
    kind = v.pieces.by_name[BETZA_PIECE]
    code = piece_code(kind.index, SIDES.index(side))
    primitives = moves_of(data["pieces"][BETZA_PIECE])
    click.echo(f"{text} on {v.name}'s board: {len(primitives)} "
               f"primitive{'s' if len(primitives) != 1 else ''}\n")
    click.echo(yaml.safe_dump(primitives, sort_keys=False, default_flow_style=None).rstrip())
    game, here, marks = _alone(v, code, cell)
    click.echo(f"\n{side} {text} ({v.letter_of_code(code)}) on {v.board.names[here]}, "
               "empty board\n")
    click.echo(_draw(game, marks))
    click.echo(_legend(v, kind, marks))
    if any(v.pieces.components[i].flags.hop for i in kind.components):
        click.echo(f"its hops need a piece to jump: try it in a position with "
                   f"`variantkit explain FILE {letter} --fen ...` on a file that declares it")


def _alone(v: Variant, code: int, cell: str | None) -> tuple[Game, int, dict[int, str]]:
    """An empty board with the piece `code` alone on `cell` (by default the
    cell it reaches most from), and the marks of where it goes."""
    game = Game(v)
    here = _cell(v, cell) if cell is not None else _central_cell(v, code)
    game.position.place(here, code)
    return game, here, _empty_board_marks(game, code, here)


def _find_piece(v: Variant, text: str, side: str | None) -> tuple[PieceType, int]:
    """A piece type by name or letter, and its side (0 White, 1 Black)."""
    kind = v.pieces.by_name.get(text) or v.pieces.by_letter.get(text.upper())
    if kind is None:
        known = ", ".join(f"{t.name} ({t.letter})" for t in v.pieces.types)
        fail(f"unknown piece '{text}' (pieces: {known})")
    if side is not None:
        return kind, SIDES.index(side)
    # As in position strings, a lower-case letter is Black's piece.
    return kind, int(text not in v.pieces.by_name and text.islower())


def _cell(v: Variant, name: str) -> int:
    index = v.board.index.get(name)
    if index is None:
        names = v.board.names
        fail(f"unknown cell '{name}' (the board's cells: {', '.join(names[:3])}, ..., {names[-1]})")
    return index


def _only_cell(game: Game, code: int, kind: PieceType) -> int:
    """The cell of the piece in a position, when it stands on exactly one."""
    cells = game.variant.board.cells_of(game.position.bb[code])
    if len(cells) != 1:
        where = "nowhere" if not cells else f"on {len(cells)} cells"
        held = " (or --drop: it is in hand)" \
            if game.variant.rules.hands.has_hands and game.position.hands[code] else ""
        fail(f"the {kind.name} stands {where} in this position: give --cell{held}")
    return cells[0]


def _explain_drops(v: Variant, kind: PieceType, code: int, fen: str | None) -> None:
    """Where the piece may be dropped: its drop region on the empty board,
    or, in a position, the cells of its legal drops."""
    if not v.rules.hands.has_hands:
        fail(f"{v.name} has no pieces in hand: nothing is ever dropped")
    colour, letter = code & 1, v.letter_of_code(code)
    if code not in v.rules.hands.hand_codes[colour]:
        fail(f"the {kind.name} is never in hand: it is not dropped")
    if fen is None:
        game = Game(v)
        marks = dict.fromkeys(v.board.cells_of(v.rules.hands.drop_regions[code]), DROP_MARK)
        where = "its drop region on the empty board (a drop goes on an empty cell; " \
                "a position may forbid more: give --fen)"
    else:
        try:
            game = v.new_game(fen)
        except InvalidFenError as exc:
            fail(f"bad position string: {exc}")
        held = game.position.hands[code]
        index = v.board.index
        marks = {index[m.to_cell]: DROP_MARK for m in game.legal_moves()
                 if m.drop == letter.upper() and colour == game.position.stm}
        where = f"legal drops, {game.turn} to move, {held} in {SIDES[colour]}'s hand"
        if colour != game.position.stm:
            where += f": the {SIDES[colour]} {kind.name} cannot be dropped now"
    click.echo(f"{SIDES[colour]} {kind.name} ({letter}) dropped from the hand: {where}\n")
    click.echo(_draw(game, marks))
    cells = _natural(v.board.names[c] for c in marks)
    click.echo(f"{DROP_MARK}  drop ({len(cells)}): {' '.join(cells)}")


def _empty_board_marks(game: Game, code: int, cell: int) -> dict[int, str]:
    """Destinations from the compiled tables, with the piece alone on the board."""
    occupied = game.position.side_bb[0] | game.position.side_bb[1]
    modes: dict[int, int] = {}
    initial_only = 0
    for g in game.variant.rules.codes.generators[code]:
        reached = reach(g.tables[cell], occupied)
        mode = g.mode
        if g.initial:
            initial_only |= reached
            continue
        for target in game.variant.board.cells_of(reached):
            modes[target] = modes.get(target, 0) | mode
    marks = {target: _mark(mode) for target, mode in modes.items()}
    for target in game.variant.board.cells_of(initial_only):
        marks.setdefault(target, INITIAL)
    return marks


def _mark(mode: int) -> str:
    moves, takes = bool(mode & MOVE), bool(mode & (CAPTURE | CONVERT))
    return BOTH if moves and takes else MOVE_ONLY if moves else TAKE_ONLY


def _legal_marks(game: Game, cell: int) -> dict[int, str]:
    """Destinations of the legal moves from `cell`: a take or a move."""
    index = game.variant.board.index
    marks = {}
    for move in game.legal_moves():
        if index[move.from_cell] == cell:
            marks[index[move.to_cell]] = TAKE_ONLY if _takes(game, move) else MOVE_ONLY
    return marks


def _takes(game: Game, move: Move) -> bool:
    """Whether `move` leaves the opponent fewer pieces: a capture (en passant
    included, whose victim is not on the to-cell) or a suborn."""
    them = 1 - game.position.stm
    before = game.position.side_bb[them].bit_count()
    game.push(move)
    after = game.position.side_bb[them].bit_count()
    game.pop()
    return after < before


def _central_cell(v: Variant, code: int) -> int:
    """The cell from which the piece reaches most on an empty board; among
    equals, the one nearest the middle of the drawn layout."""
    groups = v.board.layout
    off_middle: dict[int, float] = {}
    for g, rows in enumerate(groups):
        for r, row in enumerate(rows):
            for c, cell in enumerate(row):
                off_middle[cell] = (abs(g - (len(groups) - 1) / 2) + abs(r - (len(rows) - 1) / 2)
                                    + abs(c - (len(row) - 1) / 2))

    def score(cell: int) -> tuple[int, float, int]:
        count = v.empty_board_reach(code, cell).bit_count()
        return (-count, off_middle.get(cell, float("inf")), cell)

    return min(range(v.board.size), key=score)


def _draw(game: Game, marks: dict[int, str]) -> str:
    """The board with the piece letters and a mark on each destination."""
    return board_renderable(game.position, marks=marks, status=False).plain


def _legend(v: Variant, kind: PieceType, marks: dict[int, str]) -> str:
    """What each mark used means, then the destinations by mark, sorted."""
    flags = [v.pieces.components[i].flags.mode for i in kind.components]
    captures, converts = any(m & CAPTURE for m in flags), any(m & CONVERT for m in flags)
    take = "capture or suborn" if captures and converts else "suborn" if converts else "capture"
    meaning = {BOTH: f"move or {take}", MOVE_ONLY: "move only", TAKE_ONLY: f"{take} only",
               INITIAL: "only while the piece has not moved"}
    names = v.board.names
    lines = []
    for mark, words in meaning.items():
        cells = _natural(names[c] for c in marks if marks[c] == mark)
        if cells:
            lines.append(f"{mark}  {words} ({len(cells)}): {' '.join(cells)}")
    lines.append(f"{len(marks)} destination{'s' if len(marks) != 1 else ''}")
    return "\n".join(lines)


def _natural(names: Iterable[str]) -> list[str]:
    """Cell names sorted as people count: a2 before a10."""
    def key(name: str) -> list[tuple[int, int | str]]:
        return [(0, int(part)) if part.isascii() and part.isdigit() else (1, part)
                for part in re.split(r"(\d+)", name) if part]
    return sorted(names, key=key)
