"""Betza notation for grid pieces, expanded into ordinary move primitives.

A piece may give `betza: "RN"` instead of a `moves` list.  The string is
expanded into the primitive dicts a YAML author would write (`step`, `ride`,
`leap`, with `range`, `only` and `initial`), which are then compiled like any
others: Betza is a shorthand, never a second move generator.

The subset is Fairy-Stockfish's (`src/piece.cpp`):

- atoms `W F D N A H C Z G`, leaping (1,0) (1,1) (2,0) (2,1) (2,2) (3,0)
  (3,1) (3,2) (3,3), with `L` = C and `J` = Z; `K` (= WF), `R` (= WW), `B` (= FF), `Q` (= RB);
- an atom written twice is a rider (`NN`); an atom followed by one digit is
  a rider of at most that many steps (`W3`, `N2`; `W1` is `W`);
- before an atom: `f b l r v s` select directions, relative to the side
  (two of them may combine, as in `frN`), and `h` halves them: `fh`, `bh`,
  `lh`, `rh` the half of the eight directions on that side, `hl`, `hr` the
  four that turn one way (`hlN`: the knight's leaps a quarter turn apart);
  `m` move only, `c` capture only, `i` a move (never a capture) only while
  the piece has not moved, whose passed cells become an en passant target
  (as in Fairy-Stockfish, which has no initial captures), `n` lame: a straight leap (D A H G)
  whose passed cells must be empty, that is a ride of exactly that length
  (`ifmnD` is the chess pawn's double step, `ride: forward, range: [2, 2]`),
  and an oblique leap (N C Z) that goes first straight along its longer
  side, then diagonally, over empty cells (`nN` is xiangqi's horse: a `path`);
- before a rider (R B Q, or a doubled W or F): `p` hops over one piece
  (the cannon: `hop`), `g` lands just behind it (the grasshopper: `hop`
  with `beyond: 1`);
- `e` anywhere: the piece may capture en passant with its capture-only
  moves (`fmWfceFifmnD` is chess's pawn), as Fairy-Stockfish reads it.

Directions are picked from each atom's eight (or four) vectors exactly as
Fairy-Stockfish picks them, then written as the relative words `forward`,
`backward`, `sideways`, `forward-diagonal`, `backward-diagonal` where a whole
word fits, and otherwise as vectors written from White's side.  The grid
mirrors vectors for a side moving south (it flips the rank, not the file), so
`lW` steps towards the a-file for both sides; Fairy-Stockfish turns Black's
moves half a circle instead (a side with `turned: true` is turned so too).
Pieces that are left-right symmetric move the same either way.
"""

from __future__ import annotations

from typing import Any, Literal, Required, TypedDict, cast

from variantkit.board import Board, DirectionsDeclaration, SideRegionRef
from variantkit.errors import DeclarationError, shorten

# A piece's declaration and its moves' as the schema admits them: they live
# here, where Betza strings become moves, and `variantkit.pieces` reads
# them.  Keys that are not names take the functional form.


class SubornDeclaration(TypedDict, total=False):
    """A move's `suborn:`: the pieces it turns (all, without `pieces`)."""

    pieces: list[str]


class PlaneShiftDeclaration(TypedDict, total=False):
    """A move's `plane-shift:`."""

    planes: Required[int | list[int]]   # N, or [min, max]
    path: Literal["line", "landing", "shifted"]


# One move primitive (`moves:` entry), or what a Betza atom expands to.
MoveDeclaration = TypedDict("MoveDeclaration", {
    "step": DirectionsDeclaration,
    "ride": DirectionsDeclaration,
    # [a, b], a list of vectors, or a list of direction paths (graph boards)
    "leap": list[int] | list[list[int]] | list[list[DirectionsDeclaration]],
    "jump": SideRegionRef,
    "suborn": SubornDeclaration,
    "range": int | list[int],   # N, or [min, max]
    "only": Literal["move", "capture"],
    "remote": bool,   # a capture that leaves the capturer where it stands
    "initial": bool,
    "en-passant": Literal["target", "capture"],
    "may-give-check": bool,
    "in-check": Literal["allowed", "never", "capture-checker"],
    "resets-clock": bool,
    "plane-shift": PlaneShiftDeclaration,
    "from-region": SideRegionRef,
    "to-region": SideRegionRef,
    "closer-to": str,
    "beside": "MoveDeclaration",
    "hop": DirectionsDeclaration,
    "screens": int,
    "beyond": int,
    "cannot-hop": list[str],
    "cannot-capture": list[str],
    "path": list[list[str | list[int]]],   # routes of single steps
    "within": SideRegionRef,
    # A two-step move (`rulebook/two_steps.py`): the first step's directions,
    # and where the second may go.
    "two-step": DirectionsDeclaration,
    "then": Literal["any", "onward", "back"] | list[Literal["any", "onward", "back"]],
}, total=False)


class PerLineDeclaration(TypedDict, total=False):
    """A piece's `drops: {per-line: ...}`."""

    line: Literal["file"]
    count: Required[int]


# A piece's `drops:`.
PieceDropsDeclaration = TypedDict("PieceDropsDeclaration", {
    "regions": SideRegionRef,
    "also-as": list[str],
    "per-line": PerLineDeclaration,
    "check": Literal["allowed", "forbidden"],
    "mate": Literal["allowed", "forbidden", "loses"],
    "colours": Literal["balanced"],
}, total=False)

Glyph = Literal["king", "queen", "rook", "bishop", "knight", "pawn", "archbishop",
                "chancellor", "amazon", "diplomat", "horse", "cannon"]

class ModeOptions(TypedDict, total=False):
    """The options of a `capture-by` mode written as a one-key mapping."""

    lines: Literal["orthogonal", "diagonal", "all"]   # custodian, leap-capture: its lines
    partners: list[str]               # custodian: the pieces that pin (default: any)


# One entry of `capture-by` (`rulebook/capture_modes.py`): a mode's name, or
# a one-key mapping of the name to its options.
CaptureByEntry = str | dict[str, ModeOptions]

# One piece under `pieces:`; it has `moves` or `betza`.
PieceDeclaration = TypedDict("PieceDeclaration", {
    "letter": Required[str],
    "description": str,
    "royal": bool,
    "resets-clock": bool,
    "value": float,
    "glyph": Glyph,
    "moves": list[MoveDeclaration],
    "betza": str,
    "pass": bool,
    "demotes-to": str,
    "drops": PieceDropsDeclaration,
    "initial-until-aimed-by": list[str],
    "capture-by": list[CaptureByEntry],
    "freezes": bool | MoveDeclaration,   # true: the cells around it
}, total=False)

Vec = tuple[int, int]  # a vector (file, rank) from White's side, or an atom (larger, smaller)

LEAPERS: dict[str, list[Vec]] = {
    "W": [(1, 0)], "F": [(1, 1)], "D": [(2, 0)], "N": [(2, 1)], "A": [(2, 2)],
    "H": [(3, 0)], "C": [(3, 1)], "L": [(3, 1)], "Z": [(3, 2)], "J": [(3, 2)], "G": [(3, 3)],
    "K": [(1, 0), (1, 1)],
}
RIDERS: dict[str, list[Vec]] = {"R": [(1, 0)], "B": [(1, 1)], "Q": [(1, 0), (1, 1)]}
# `h` (half) is of both kinds: it pairs with any direction letter.
VERTICALS, HORIZONTALS = "fbvh", "rlsh"
UNSUPPORTED = {"j": "jumping modifier", "a": "multi-leg move", "o": "cylindrical move"}
# Characters of an error message's own part (its quotes of the text are
# shortened too): a message stays one readable line however long the text.
MAX_PART = 200

# For an atom whose larger component is p and smaller q, Fairy-Stockfish's
# eight vectors and the direction pairs that select each one.
_PICKS: list[tuple[tuple[int, int, int, int], frozenset[str]]] = [
    # (file from q, file from p, rank from q, rank from p): file = a*q + b*p, rank = c*q + d*p
    ((1, 0, 0, 1), frozenset({"ff", "vv", "rf", "rv", "fh", "rh", "hr"})),
    ((-1, 0, 0, -1), frozenset({"bb", "vv", "lb", "lv", "bh", "lh", "hr"})),
    ((0, 1, -1, 0), frozenset({"rr", "ss", "br", "bs", "bh", "rh", "hr"})),
    ((0, -1, 1, 0), frozenset({"ll", "ss", "fl", "fs", "fh", "lh", "hr"})),
    ((0, 1, 1, 0), frozenset({"rr", "ss", "fr", "fs", "fh", "rh", "hl"})),
    ((0, -1, -1, 0), frozenset({"ll", "ss", "bl", "bs", "bh", "lh", "hl"})),
    ((1, 0, 0, -1), frozenset({"bb", "vv", "rb", "rv", "bh", "rh", "hl"})),
    ((-1, 0, 0, 1), frozenset({"ff", "vv", "lf", "lv", "fh", "lh", "hl"})),
]
# Relative direction words on a grid, as White's unit vectors.
_WORDS: list[tuple[str, frozenset[Vec]]] = [
    ("forward", frozenset({(0, 1)})),
    ("backward", frozenset({(0, -1)})),
    ("sideways", frozenset({(1, 0), (-1, 0)})),
    ("forward-diagonal", frozenset({(1, 1), (-1, 1)})),
    ("backward-diagonal", frozenset({(1, -1), (-1, -1)})),
]
_ORTHOGONAL = frozenset({(0, 1), (0, -1), (1, 0), (-1, 0)})
_DIAGONAL = frozenset({(1, 1), (1, -1), (-1, 1), (-1, -1)})


def moves_of(spec: PieceDeclaration, board: Board | None = None) -> list[MoveDeclaration]:
    """A piece's primitives: its `moves`, or what its `betza` expands to
    (Betza needs a grid, or a graph with grid-like directions, when `board`
    is given)."""
    if "betza" not in spec:
        return list(spec.get("moves", []))
    if board is not None and not board.topology.grid_like:
        raise DeclarationError("betza notation is for grid and graph boards: declare `moves` "
                               "instead", "bad-betza")
    return expand(spec["betza"])


def expand(text: str) -> list[MoveDeclaration]:
    """The primitives of a Betza string, one per atom, in the order written."""
    out: list[MoveDeclaration] = []
    dirs: list[str] = []
    modes: set[str] = set()
    initial = lame = False
    hopper = ""
    i = begin = 0  # begin: where the current atom's modifiers start
    while i < len(text):
        c = text[i]
        if c == "e":
            pass  # a mark on the whole piece, read below
        elif c in "mc":
            modes.add(c)
        elif c in "pg":
            hopper = c
        elif c == "i":
            initial = True
        elif c == "n":
            lame = True
        elif c in VERTICALS or c in HORIZONTALS:
            # A direction pairs with the next letter when that letter repeats
            # it or is of the other kind (`fr`, `ff`, `sv`, `fh`, `hl`), as
            # in Fairy-Stockfish.
            nxt = text[i + 1] if i + 1 < len(text) else ""
            if nxt and (nxt == c or (c in VERTICALS and nxt in HORIZONTALS)
                        or (c in HORIZONTALS and nxt in VERTICALS)):
                dirs.append(c + nxt)
                i += 1
            else:
                dirs.append(c + c)
        elif c in LEAPERS or c in RIDERS:
            rider, limit = c in RIDERS, 0
            nxt = text[i + 1] if i + 1 < len(text) else ""
            if nxt == c or is_digit(nxt):
                # A digit limits the ride; 0 leaves it unlimited, as Fairy-Stockfish reads it.
                rider, i = True, i + 1
                limit = int(nxt) if is_digit(nxt) else 0
            atoms = (RIDERS if c in RIDERS else LEAPERS)[c]
            written = text[begin:i + 1]
            if lame and (rider or len(atoms) > 1):
                raise _error(text, f"'n{c}': n (lame) goes with one leap (D A H G, N C Z)")
            if hopper == "g" and limit:
                # Fairy-Stockfish lands `gQ3` anywhere within the limit, as `pQ3`.
                raise _error(text, f"'{written}': a grasshopper limited in range is not "
                             "supported (write pQ3 for a hopper landing within 3 cells)")
            if hopper and not (rider and all(p == 1 for p, _ in atoms)):
                raise _error(text, f"'{hopper}{c}': {hopper} (hopper) goes with a rider: R, B, "
                             "Q, WW or FF")
            if initial and modes == {"c"}:
                raise _error(text, f"'{written}': i (initial) moves never capture, as in "
                             "Fairy-Stockfish")
            vectors = _pick(atoms, dirs)
            if not vectors:
                raise _error(text, f"'{written}' selects no direction")
            move = _primitive(atoms, vectors, rider, limit, lame)
            if hopper:
                # A limit is how far from its start the hopper may land (`pR2`).
                # A hopper is a rider of single steps: its move rides or steps.
                move = {"hop": cast(DirectionsDeclaration, move.get("ride", move.get("step"))),
                        **({"range": limit} if limit else {}),
                        **({"beyond": 1} if hopper == "g" else {})}
            if initial:
                # Fairy-Stockfish has no initial captures; the cells an
                # initial move passes may be taken en passant.
                move["only"], move["initial"] = "move", True
                if "ride" in move:
                    move["en-passant"] = "target"
            elif len(modes) == 1:
                move["only"] = "move" if "m" in modes else "capture"
            out.append(move)
            dirs, modes, initial, lame, hopper, begin = [], set(), False, False, "", i + 1
        elif c.isnumeric():
            # `W²`, `N٣`: only the digits 0 to 9 give a range (and only after an atom).
            raise _error(text, f"'{c}': a range is one of the digits 0 to 9, right after "
                         "its atom")
        else:
            what = UNSUPPORTED.get(c)
            raise _error(text, (f"'{c}' ({what}) is not supported" if what else
                                f"unknown letter '{c}'") + " (supported: atoms W F D N A H C "
                         "Z G K R B Q, doubled or with a range digit, after f b l r v s h m c "
                         "i n p g; e anywhere)")
        i += 1
    if dirs or modes or initial or lame or hopper:
        raise _error(text, "modifiers at the end without an atom")
    if "e" in text:
        _capture_en_passant(text, out)
    return out


def _capture_en_passant(text: str, moves: list[MoveDeclaration]) -> None:
    """`e`: the piece captures en passant with its capture-only moves, as
    Fairy-Stockfish gives it (`fmWfceF`)."""
    captures = [m for m in moves if m.get("only") == "capture"]
    if not captures:
        raise _error(text, "e (en passant) needs a capture-only move (`c`) to capture with")
    for move in captures:
        move["en-passant"] = "capture"


def is_digit(char: str) -> bool:
    """Whether `char` is one of the digits 0 to 9 (`str.isdigit` also
    takes `²` and other scripts' digits, which `int` may refuse or read)."""
    return len(char) == 1 and "0" <= char <= "9"


def _error(text: str, part: str) -> DeclarationError:
    return DeclarationError(f"betza '{shorten(text)}': {shorten(part, MAX_PART)}", "bad-betza")


def _pick(atoms: list[Vec], dirs: list[str]) -> set[Vec]:
    """White's vectors of the atoms that the direction pairs select."""
    out: set[Vec] = set()
    for p, q in atoms:
        wanted = set(dirs)
        if len(atoms) == 1 and q == 0:
            # An orthogonal atom has single moves, so `fs` means `f` and `s`.
            wanted = {d[0] * 2 for d in dirs} | {d[1] * 2 for d in dirs}
        for (a, b, c, d), names in _PICKS:
            if not dirs or names & wanted:
                out.add((a * q + b * p, c * q + d * p))
    return out


def _primitive(atoms: list[Vec], vectors: set[Vec], rider: bool, limit: int,
               lame: bool) -> MoveDeclaration:
    """One primitive for one atom (or K, R, B, Q) and its chosen vectors."""
    if lame and atoms[0][1] not in (0, atoms[0][0]):
        return {"path": [_lame_route(v) for v in sorted(vectors, reverse=True)]}
    if lame:
        # A straight leap whose passed cells must be empty: a ride of exactly its length.
        length = atoms[0][0]
        units = {(x // length, y // length) for x, y in vectors}
        if length == 1:
            return {"step": _directions(units)}
        return {"ride": _directions(units), "range": [length, length]}
    unit = all(p == 1 for p, _ in atoms)
    if rider and limit != 1:
        move: MoveDeclaration = {
            "ride": _directions(vectors) if unit else _vector_list(vectors)}
        if limit:
            move["range"] = limit
        return move
    if unit:
        return {"step": _directions(vectors)}
    (p, q), = atoms
    if len(vectors) == len(_all_of(p, q)):
        return {"leap": [q, p]}
    return {"leap": [list(v) for v in sorted(vectors, reverse=True)]}


def _lame_route(vector: Vec) -> list[str | list[int]]:
    """An oblique leap in single steps (a `path` route), as Fairy-Stockfish
    blocks it: straight along the longer side first, then diagonally."""
    x, y = vector
    sx, sy = (x > 0) - (x < 0), (y > 0) - (y < 0)
    straight: list[str | list[int]] = [[sx, 0] if abs(x) > abs(y) else [0, sy]]
    diagonal: list[str | list[int]] = [[sx, sy]]
    return straight * abs(abs(x) - abs(y)) + diagonal * min(abs(x), abs(y))


def _all_of(p: int, q: int) -> set[Vec]:
    return {(sx * x, sy * y) for x, y in ((p, q), (q, p)) for sx in (1, -1) for sy in (1, -1)}


def _directions(units: set[Vec]) -> Any:
    """Unit vectors as direction names, words where a whole word fits."""
    if units == _ORTHOGONAL | _DIAGONAL:
        return "all"
    items: list[Any] = []
    rest = set(units)
    for family, members in (("orthogonal", _ORTHOGONAL), ("diagonal", _DIAGONAL)):
        if members <= rest:
            items.append(family)
            rest -= members
    for word, members in _WORDS:
        if members <= rest:
            items.append(word)
            rest -= members
    items += [list(v) for v in sorted(rest, reverse=True)]
    return items[0] if len(items) == 1 else items


def _vector_list(vectors: set[Vec]) -> Any:
    items = [list(v) for v in sorted(vectors, reverse=True)]
    return items[0] if len(items) == 1 else items
