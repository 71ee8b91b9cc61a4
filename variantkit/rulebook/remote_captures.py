"""Remote captures (`remote: true` on a move of a piece): the move takes
the enemy piece on the cell it reaches and the capturer stays where it
stands (Dragonchess's dragon taking the cell below it from the sky).  Any
primitive that may capture may be remote; its cells are those of the
primitive, compiled with the piece (`pieces.flags_of`, the mode bit
`STAYS`), its attacks those of any capture, so that a remote capture gives
check.  The core makes it as its own move kind (`core.moves.REMOTE`).

This module checks the keys a remote capture does not go with: they
read a capture's effects at the capturer's landing cell, which a remote
capture does not have."""

from __future__ import annotations

from variantkit.betza import PieceDeclaration
from variantkit.rulebook.sink import Sink

# Keys whose rules act where a capturing piece lands (see docs/limits.md).
CLASHING_KEYS = ("walls", "explosion", "petrify", "capture-effects", "transfer", "flips")


def check_remote_captures(sink: Sink, declared: dict[str, PieceDeclaration],
                          declared_keys: list[str]) -> None:
    """Report each remote capture of a variant that declares one of
    CLASHING_KEYS (`remote-capture-clash`)."""
    clash = [key for key in CLASHING_KEYS if key in declared_keys]
    if not clash:
        return
    for name, spec in declared.items():
        for m, move in enumerate(spec.get("moves", [])):
            if isinstance(move, dict) and move.get("remote", False):
                sink.report(("pieces", name, "moves", m, "remote"), f"a remote capture does "
                            f"not go with `{clash[0]}`", "remote-capture-clash")
