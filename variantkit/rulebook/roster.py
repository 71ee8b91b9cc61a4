"""The declared pieces as a whole: their letters and codes, no more pieces
or moves than `variantkit.limits` allows (checked before they are
compiled), one letter per piece, passes only by royal pieces."""

from __future__ import annotations

import contextlib

from variantkit.betza import MoveDeclaration, PieceDeclaration, moves_of
from variantkit.errors import DeclarationError, VariantError
from variantkit.limits import MAX_MOVES, MAX_PIECES
from variantkit.pieces import PieceSet, piece_code, type_of
from variantkit.rulebook.sink import Sink


def letter_codes(declared: dict[str, PieceDeclaration]) -> dict[str, int]:
    """The piece code of each position-string letter (uppercase for White)."""
    codes: dict[str, int] = {}
    for index, spec in enumerate(declared.values()):
        codes[spec["letter"]] = piece_code(index, 0)
        codes[spec["letter"].lower()] = piece_code(index, 1)
    return codes


def letter_of(pieces: PieceSet, code: int) -> str:
    """The position-string letter of a piece code (uppercase for White)."""
    letter = pieces.types[type_of(code)].letter
    return letter if code & 1 == 0 else letter.lower()


def check_size(sink: Sink, declared: dict[str, PieceDeclaration]) -> None:
    """Refuse more pieces or moves than `variantkit.limits` allows before
    compiling them (each move is compiled for every cell and side): the
    load stops here with that one problem."""
    document = sink.document
    if len(declared) > MAX_PIECES:
        raise VariantError([document.problem(
            ("pieces", list(declared)[MAX_PIECES]),
            f"more than {MAX_PIECES} pieces: each needs its own letter (X, +X or X~)",
            "too-large",
            key=True)])
    moves: list[tuple[str | int, ...]] = []
    for name, spec in declared.items():
        if "betza" in spec:  # each atom of the string is one primitive
            with contextlib.suppress(DeclarationError):  # reported when compiled
                moves += [("pieces", name, "betza")] * len(moves_of(spec))
        else:
            moves += [("pieces", name, "moves", i) for i, move in enumerate(spec["moves"])
                      for _ in range(_parts(move))]
    if len(moves) > MAX_MOVES:
        raise VariantError([document.problem(
            moves[MAX_MOVES], f"more than {MAX_MOVES} moves in all pieces together (each "
            "direction or vector listed counts as one, Betza strings expanded)",
            "too-large")])


def _parts(move: MoveDeclaration) -> int:
    """How many directions or vectors a move lists (one for a family name,
    a pair or a region), the unit of `limits.MAX_MOVES`."""
    for key in ("step", "ride", "leap"):
        value = move.get(key)
        if isinstance(value, list) and value and isinstance(value[0], list | str):
            return len(value)
    return 1


def check_pieces(sink: Sink, declared: dict[str, PieceDeclaration], pieces: PieceSet,
                 one_royal: bool) -> None:
    """One letter per piece, passes only by royal pieces, and a royal piece
    when each side has one."""
    seen: dict[str, str] = {}
    for name, spec in declared.items():
        letter = spec["letter"]
        if letter in seen:
            sink.report(("pieces", name, "letter"),
                     f"piece '{name}' uses letter '{letter}', already used by '{seen[letter]}'",
                     "duplicate-letter")
        seen[letter] = name
    for t in pieces.types:
        if t.passes and not t.royal:
            sink.report(("pieces", t.name, "pass"), f"piece '{t.name}' may pass but is not royal: "
                     "a pass is written from the royal piece's cell to itself", "pass-not-royal")
    if one_royal and not any(t.royal for t in pieces.types):
        sink.report(("pieces",), "no piece is royal: declare `royal: true` on the king", "no-royal")
