"""How much untrusted input variantkit accepts, and a budget for the work it does.

Variant files, position strings, move strings, PGN text and command-line
numbers may come from anyone (a shared file, a web form).  Every stage that
reads them refuses what is larger than the limits below, with a clear error,
before doing work that grows with the size.  The numbers leave room for the
largest real variants (a 16x16 grid, an 8x8x8 cube, a polar board of 100
sectors and 10 rings) with a wide margin, and keep the worst file that passes
them loadable in seconds.  docs/limits.md lists them; change
both together.

A server (a web playground, a batch checker) may want a tighter bound on one
request: `Budget` counts units of work against a cap and a deadline, and the
loader charges it while compiling (`variantkit.load(..., budget=Budget(...))`).
"""

from __future__ import annotations

import errno
import os
import stat
import time
from pathlib import Path

from variantkit.errors import Problem, VariantError

# --- variant files ---------------------------------------------------------------

# Bytes in one variant file.  The bundled files are under 5 kB; a file of
# 1 MB is hundreds of pieces' worth of text.  Files are read up to this many
# bytes and no further, so /dev/zero or a huge file cost nothing.
MAX_FILE_BYTES = 1_000_000


def read_named_file(path: str | Path, max_bytes: int) -> bytes:
    """The bytes of the regular file at `path`, read up to `max_bytes` + 1
    bytes and no further (a longer file comes back cut there, for the caller
    to refuse as too large).  A directory, a FIFO or a device raises OSError
    without being read: opening one would block (a FIFO nobody writes) or
    never end (/dev/zero).  Other failures are the OSError of the system."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, "Is a directory")
        if not stat.S_ISREG(mode):
            raise OSError(errno.EINVAL, "not a regular file")
        data = os.read(fd, max_bytes + 1)
        while len(data) <= max_bytes and (more := os.read(fd, max_bytes + 1 - len(data))):
            data += more
        return data
    finally:
        os.close(fd)


# YAML nodes in one file after aliases and merge keys are expanded.  Aliases
# can make a small file expand exponentially (an "alias bomb"); the count is
# made on the composed node graph before anything is expanded.  50,000 nodes
# is ten times a file that lists every cell of the largest board in regions.
MAX_YAML_NODES = 50_000
# Characters in one text value (a name, a description, a Betza string, the
# setup, a graph's row of cell names).  A setup needs about two characters a
# cell and a row of graph cells up to seven, so 8,192 covers the largest
# board's.
MAX_TEXT_LENGTH = 8_192
# Entries in one list or mapping: as many as the board has cells, so that a
# region can list every cell.
MAX_ENTRIES = 1_024
# Size of any number in a variant file.  No rule needs a larger one (board
# sizes, leaps, ranges, counts); it also keeps YAML integers far below
# Python's 4,300-digit conversion limit.  Numbers must be finite.
MAX_NUMBER = 10_000
# Parents in an `inherits` chain (a file, its parent, the parent's parent...).
MAX_INHERITANCE_DEPTH = 16
# Characters in a variant name or path given to `load` or on the command line.
MAX_NAME_LENGTH = 255

# --- what a file declares ----------------------------------------------------------

# Cells of a board.  16x16 = 256, 8x8x8 = 512, 100 sectors x 10 rings and a
# centre = 1,001; a 26x39 grid still fits.  Loading time grows with the cells
# times the pieces' moves, so this cap and MAX_MOVES bound it together.
MAX_CELLS = 1_024
# Characters in one cell name.  Move strings are two cell names, so a long
# name makes every move string long; Strato's `Ae1` has three.
MAX_CELL_NAME_LENGTH = 16
# Piece types: each has its own letter, an uppercase letter alone or in a
# promoted form (`+P`, `P~`), so there can be 26 times three.
MAX_PIECES = 78
# Moves of all pieces together, each direction or vector listed in a move
# counting as one, Betza strings expanded.  Chess has 8, Raumschach 12.
# Each is compiled for every cell and side: with MAX_CELLS this bounds the
# work of loading a file.
MAX_MOVES = 128

# --- position strings, move strings, PGN -----------------------------------------------

# Characters in a position string or a move string.  A position string needs
# about two characters a cell (plus a moved field); anything longer is not one.
MAX_POSITION_LENGTH = 8 * MAX_CELLS
# Pieces a position holds, on the board and in hand, per cell of the board:
# reversi's hands hold 60 discs a side for 64 cells.  Each count in hand has
# its hash key, so the keys of a hand number this many per cell.
MAX_HELD = 2
# Characters of move text read as SAN (`Nf3`, `exd5`, `O-O`): two cell
# names, a piece letter and marks fit many times over.
MAX_SAN_LENGTH = 64
# The half-move clock and the move number: nine digits at most.
MAX_COUNTER = 999_999_999
# Characters in a PGN text handed to the reader (about 5,000 long games).
MAX_PGN_LENGTH = 10_000_000
# Games `pgn.read_games` returns in one list (each game keeps its position
# and history: a few KB); `pgn.iter_games` reads any number one at a time.
MAX_PGN_GAMES = 20_000
# One game of PGN, read at any size of file by `pgn.iter_games`: its
# characters (comments and variations included; also the longest line a
# file is read in), its moves (the longest real games have about 1,000
# plies) and its tags.
MAX_PGN_GAME_LENGTH = 1_000_000
MAX_PGN_PLIES = 10_000
MAX_PGN_TAGS = 1_000

# --- command-line numbers ------------------------------------------------------------

# perft depth: the library recurses once a ply, and at depth 20 even a
# two-move game has a million leaves.
MAX_PERFT_DEPTH = 20
# The engine's thinking time per move, in seconds (one hour).
MAX_THINK_SECONDS = 3_600.0
# Width of a drawn image in pixels.
MAX_IMAGE_PIXELS = 20_000.0


# Units of work a variant may take to compile by default (see `Budget`).
DEFAULT_UNITS = 2_000_000


class Budget:
    """Units of work that loading one variant may spend, and a deadline.

    Compiling the pieces charges one unit per move primitive per cell and
    side, plus one per line (ray) it compiles and one per cell of each: the
    work grows with that count.  `spend` raises a `VariantError` (rule `too-large`)
    once the units or the seconds run out.  The default number of units is
    more than real large boards need (the 64x8 disk of benchmarks/ with chess
    pieces takes about 0.4 million, a 100x10 disk 1.2 million) and stops the
    worst file within the other limits after seconds; a server passes a
    smaller budget or a deadline.
    """

    def __init__(self, units: int = DEFAULT_UNITS, seconds: float | None = None,
                 source: str | None = None) -> None:
        self.units = units
        self.seconds = seconds
        self.deadline = None if seconds is None else time.monotonic() + seconds
        self.source = source

    def spend(self, units: int) -> None:
        """Charge `units`; raise when the budget is exhausted."""
        self.units -= units
        if self.units < 0:
            raise too_large("compiling this variant takes more work than allowed: fewer "
                            "cells, pieces or moves", self.source)
        self.check_time()

    def check_time(self) -> None:
        """Raise when the deadline has passed: for work the units do not count."""
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise too_large(f"compiling this variant takes longer than {self.seconds:g} s",
                            self.source)


def too_large(message: str, source: str | None = None) -> VariantError:
    """The error for input over a limit (rule `too-large`), not located."""
    return VariantError([Problem(message, "too-large", source)])
