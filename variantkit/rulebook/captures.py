"""What a capture does besides removing the captured piece, and when one
is a must: explosions (`explosion:`), which blow up the cells around it,
petrification (`petrify:`), which turns the capturing piece into a wall,
and forced capture (`must-capture:`)."""

from __future__ import annotations

from typing import NamedTuple, TypedDict

from variantkit.board import Board, DirectionsDeclaration
from variantkit.pieces import PieceSet, piece_code
from variantkit.rulebook.sink import Sink

# `explosion:` as the schema admits it (`blast-proof` is not a name,
# hence the functional form).
ExplosionDeclaration = TypedDict("ExplosionDeclaration", {
    "around": DirectionsDeclaration,
    "immune": list[str],
    "blast-proof": list[str],
}, total=False)

# The keys of the declaration this family reads.
CapturesKeys = TypedDict("CapturesKeys", {
    "explosion": ExplosionDeclaration,
    "petrify": list[str],
    "must-capture": bool,
}, total=False)


class Explosion(NamedTuple):
    """What a capture blows up, and what survives it."""

    blast: list[int]               # per cell, the cells a capture there blows up
    blast_immune: list[int]        # piece codes a blast leaves standing
    blast_proof: frozenset[int]    # capturers that survive too


class Petrify(NamedTuple):
    """The capturing pieces that turn into walls."""

    codes: frozenset[int]   # pieces that turn into a wall on the cell where they capture
    royal: list[int]        # those of them that are royal, sorted


NO_EXPLOSION = Explosion([], [], frozenset())


class Captures(NamedTuple):
    """The capture rules as the general position plays them."""

    blast: list[int]               # per cell, the cells a capture there blows up ([]: none)
    blast_immune: list[int]        # piece codes a blast leaves standing
    blast_proof: frozenset[int]    # capturers that survive too
    petrify: frozenset[int]        # pieces that turn into a wall on the cell where they capture
    petrify_royal: list[int]       # those of them that are royal, sorted
    must_capture: bool             # a side that can capture must


def compile_captures(sink: Sink, data: CapturesKeys, board: Board, pieces: PieceSet,
                     royal_code: list[bool], hole_mark: str | None) -> Captures:
    """`explosion:`, `petrify:` and `must-capture:`."""
    blasts = NO_EXPLOSION if "explosion" not in data else sink.located(
        ("explosion", "around"),
        lambda: compile_explosion(sink, data["explosion"], board, pieces),
    ) or NO_EXPLOSION
    walls = compile_petrify(sink, data.get("petrify", []), pieces, royal_code, hole_mark)
    return Captures(blasts.blast, blasts.blast_immune, blasts.blast_proof, walls.codes,
                    walls.royal, bool(data.get("must-capture", False)))


def needs_general(captures: Captures) -> bool:
    """Whether these rules need the general position (`core.general`)."""
    return bool(captures.blast or captures.petrify or captures.must_capture)


def compile_explosion(sink: Sink, spec: ExplosionDeclaration, board: Board,
                      pieces: PieceSet) -> Explosion:
    """Per cell, the cells a capture there blows up (one step in each
    `around` direction), and the piece codes that survive a blast."""
    topology = board.topology
    directions = topology.directions(spec.get("around", "all"), None)
    blast = []
    for cell in range(board.size):
        bits = 0
        for d in directions:
            for ray in topology.rays(cell, d):
                if ray:
                    bits |= 1 << ray[0]
        blast.append(bits)
    immune = sink.kinds(pieces, ("explosion", "immune"), spec.get("immune", []))
    proof = sink.kinds(pieces, ("explosion", "blast-proof"), spec.get("blast-proof", []))
    blast_proof = frozenset(piece_code(t, side) for t in proof for side in range(2))
    return Explosion(blast, [piece_code(t, side) for t in immune for side in range(2)]
                     + sorted(blast_proof), blast_proof)


def compile_petrify(sink: Sink, names: list[str], pieces: PieceSet, royal_code: list[bool],
                    hole_mark: str | None) -> Petrify:
    kinds = sink.kinds(pieces, ("petrify",), names)
    codes = frozenset(piece_code(t, side) for t in kinds for side in range(2))
    if codes and hole_mark is None:
        sink.report(("petrify",), "walls are written in position strings with the hole mark: "
                 "declare `position-string: {holes: ...}`", "petrify-mark")
    return Petrify(codes, sorted(c for c in codes if royal_code[c]))
