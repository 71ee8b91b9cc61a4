"""How a game's moves are written (`notation:`): the style its players use
by default, the other styles of its tradition, and each piece's letter in
written moves where it is not its position-string letter.

The move generator never reads this; the written moves (`variantkit.notation.san`)
do.  A style that counts files and ranks (shogi's, xiangqi's) needs a grid
of one plane, and xiangqi's WXF a forward along the files; a mistake is
reported where it was written.
"""

from __future__ import annotations

from typing import Literal, NamedTuple, TypedDict

from variantkit.board import Board, GridTopology
from variantkit.pieces import PieceSet
from variantkit.rulebook.sink import Sink

# Every style moves may be written in (docs/notation.md#styles):
# `san` (Nf3), shogi's `hodges-number` (P-76), `hodges` (P-7f) and
# `hosking` (P76), the Universal Shogi Interface's `usi` (7g7f), and
# xiangqi's `wxf` (H2+3).
STYLES = ("san", "hodges-number", "hodges", "hosking", "usi", "wxf")
Style = Literal["san", "hodges-number", "hodges", "hosking", "usi", "wxf"]
RANK_LETTERS = 26   # ranks Hodges and USI write as letters, a to z


class NotationDeclaration(TypedDict, total=False):
    """`notation:` as the schema admits it."""

    style: Style
    traditions: list[Style]
    letters: dict[str, str]    # piece name -> its letter in written moves


class Notation(NamedTuple):
    """A variant's written moves, as declared under `notation:`."""

    style: str                       # the default style
    traditions: tuple[str, ...]      # the styles offered besides it, in order
    letters: dict[int, str]          # piece type -> its letter in written moves ("" for none)


def compile_notation(sink: Sink, spec: NotationDeclaration | None, board: Board,
                     pieces: PieceSet, forwards: list[str | None]) -> Notation:
    """The notation declared under `notation:` (SAN and each piece's own
    letter when there is none)."""
    spec = spec or {}
    style: str = spec.get("style", "san")
    traditions: list[Style] = spec.get("traditions", [])
    for path, name in [(("notation", "style"), style),
                       *((("notation", "traditions", i), t) for i, t in enumerate(traditions))]:
        if not fits(board, forwards, name):
            need = {"wxf": " whose sides move along the files",
                    "hodges": f" of at most {RANK_LETTERS} ranks",
                    "usi": f" of at most {RANK_LETTERS} ranks"}.get(name, "")
            sink.report(path, f"style '{name}' counts files and ranks: it needs a grid of "
                        f"one plane{need}", "notation-style")
    letters: dict[int, str] = {}
    for name, letter in spec.get("letters", {}).items():
        kind = pieces.by_name.get(name)
        if kind is None:
            sink.report(("notation", "letters", name), f"unknown piece '{name}'",
                        "unknown-piece", key=True)
            continue
        letters[kind.index] = letter
    offered = tuple(dict.fromkeys(t for t in traditions if t != style))
    return Notation(style, offered, letters)


def fits(board: Board, forwards: list[str | None], style: str) -> bool:
    """Whether `style` can write moves on `board`: SAN on any; the others on
    a grid of one plane (Hodges's and USI's rank letters on at most 26
    ranks), WXF with sides moving along the files (`forwards`)."""
    if style == "san":
        return True
    topology = board.topology
    if not isinstance(topology, GridTopology) or topology.planes != 1 or topology.wraps:
        return False
    if style in ("hodges", "usi") and topology.ranks > RANK_LETTERS:
        return False
    return style != "wxf" or all(f in ("n", "s") for f in forwards)
