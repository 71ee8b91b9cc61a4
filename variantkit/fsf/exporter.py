"""A variant written as one Fairy-Stockfish ini section, or every reason it cannot be.

`export_section(variant, section)` reads the variant's declaration (its file
with `inherits` merged) and writes the keys Fairy-Stockfish reads for each
rule: the board's size, every piece (a built-in type where its moves are the
same, else `customPieceN = letter:Betza`), the start position, promotion,
castling, drops, walls, pieces that turn over and the end of the game.  Each
key is written, none left to Fairy-Stockfish's defaults (but
adjudicateFullBoard, which the importer does not read, written only when set),
so the section needs no parent.

What Fairy-Stockfish cannot express is never approximated: a board that is
not one rectangle (polar, hex, graph, planes, wrap-around), a move Betza
cannot write in Fairy-Stockfish's subset, a rule it has no key for.  Each
such rule is one line of `ExportRefused.reasons`.  A piece's moves are
written as Betza by grouping its move primitives by atom and choosing the
direction letters (`f`, `rb`, `hl`, ...) that `variantkit.betza` reads back
into exactly those vectors, then checked by expanding the written string
again: what is written reads back into the moves declared.

Three end rules Fairy-Stockfish has its own form of are left to it:
`insufficient-material` (it judges material by its own rule), the
`automatic-` draws (it lets the draw be claimed from the first count on)
and `draw-timing`; docs/fsf.md says so.
"""

from __future__ import annotations

import itertools
import re
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, cast

from variantkit.betza import PieceDeclaration, expand, is_digit
from variantkit.betza import moves_of as declared_moves
from variantkit.errors import DeclarationError, shorten
from variantkit.fsf import keys
from variantkit.fsf.importer import DEFAULTS, range_of, reversible_moves
from variantkit.fsf.ini import one_line
from variantkit.variant import Variant

Vec = tuple[int, int]
Directions = Callable[[Any], list[Vec]]
Sided = tuple[frozenset[str], frozenset[str]]   # cells for White, for Black
SIDES = ("white", "black")
MAX_FILES, MAX_RANKS = 12, 10          # Fairy-Stockfish's largest board
SECTION_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
# Betza's atom letters by (longer, shorter) offset, and those Fairy-Stockfish
# can ride and make lame (its Betza subset).
ATOM_LETTERS: dict[Vec, str] = {
    (1, 0): "W", (1, 1): "F", (2, 0): "D", (2, 1): "N", (2, 2): "A", (3, 0): "H",
    (3, 1): "C", (3, 2): "Z", (3, 3): "G",
}
RIDEABLE = frozenset({(1, 0), (1, 1), (2, 1)})
LAME = frozenset({(2, 0), (2, 1), (2, 2), (3, 2)})
# Direction modifiers, shortest first: each selects a subset of an atom's
# vectors, read back through `variantkit.betza.expand`.
DIRECTION_TOKENS = ("", "f", "b", "l", "r", "v", "s", "fh", "bh", "lh", "rh", "hl", "hr",
                    "fr", "fl", "br", "bl", "rf", "lf", "rb", "lb", "fs", "bs", "lv", "rv")
# Move keys the Betza writer translates; any other key on a move is refused.
MOVE_KEYS = frozenset({"step", "ride", "leap", "hop", "path", "range", "only", "initial",
                       "en-passant", "from-region", "beyond", "resets-clock"})
PIECE_KEYS = frozenset({"letter", "royal", "resets-clock", "value", "glyph", "description",
                        "moves", "betza", "demotes-to", "drops", "pass"})
TOP_KEYS = frozenset({"variantkit", "name", "description", "inherits", "remove", "board",
                      "sides", "pieces", "setup", "promotion", "castling", "end", "royals",
                      "hands", "must-capture", "explosion", "royal-facing", "walls",
                      "position-string", "flips", "pass", "petrify", "gating",
                      # (numbered-setups: how a start may be chosen, written nothing:
                      # Fairy-Stockfish has one start position, and is given any other,
                      # a Chess960 start by number among them, as a position string)
                      "free-castling", "numbered-setups"})
# How a variant is drawn and its moves written, not how it is played:
# nothing to write.
PRESENTATION_KEYS = frozenset({"look", "notation"})
END_KEYS = frozenset({"checkmate", "stalemate", "repetition", "move-rule", "draw-timing",
                      "automatic-repetition", "automatic-move-rule", "insufficient-material",
                      "perpetual-check", "repetition-result", "conditions", "double-pass",
                      "board-full", "draws-go-to", "counting", "at-once"})


# The `flips:` kinds and drops as Fairy-Stockfish's flipEnclosedPieces and
# enclosingDrop values (an `adjacent` flip only beside an own piece on a
# drop is its quadwrangle).
FLIP_RULES = {"enclosed": "reversi", "adjacent": "ataxx", "none": "none"}
ENCLOSING_DROPS = {"enclose": "reversi", "touch-own": "ataxx", "apart": "snort", "any": "none"}
# The end of a game by two passes or a full board: Fairy-Stockfish's
# materialCounting values, the side with more pieces winning when unweighted.
MATERIAL_COUNTING = {"draw": "none", "more-pieces": "unweighted"}
# A stalemate decided by counting pieces: stalematePieceCount gives the
# stalemate's value to the side with fewer pieces.
PIECE_COUNT_STALEMATES = {"fewer-pieces": "win", "more-pieces": "loss"}
# The `walls:` kinds as Fairy-Stockfish's wallingRule values.
WALL_RULES = {"duck": "duck", "arrow": "arrow", "past": "past", "anywhere": "static",
              "edge": "edge"}


# The reason for a rule the exporter has no key for (Fairy-Stockfish may
# have one the exporter does not write yet: the variant is refused all the same).
NO_KEY = "export-fsf writes no Fairy-Stockfish key for it"


def moves_of(spec: dict[str, Any]) -> list[dict[str, Any]]:
    """A piece's moves (`variantkit.betza.moves_of`) as the plain mappings
    this module reads, alike whichever form the piece declares."""
    return cast(list[dict[str, Any]], declared_moves(cast(PieceDeclaration, spec)))


class ExportRefused(ValueError):
    """The variant uses rules Fairy-Stockfish cannot express: one line each."""

    def __init__(self, name: str, reasons: list[str]) -> None:
        super().__init__(f"{name}: " + "; ".join(reasons))
        self.name = name
        self.reasons = reasons


class Refusal(Exception):
    """One rule that cannot be written (collected, the export goes on)."""


@dataclass(frozen=True)
class Atom:
    """One vector of a move, White's view, with its conditions."""

    kind: str          # leap, ride, lame (a leap over empty cells), hop, grasshopper
    vector: Vec
    limit: int = 0     # a ride's or hop's longest distance; 0: unlimited
    only: str = ""     # "", "move" or "capture"
    first: bool = False  # only from the double-step region (Betza `i`)
    passant: str = ""  # "target" (leaves an en passant cell) or "capture"


@dataclass
class PieceOut:
    """One piece as it is written: its Fairy-Stockfish key and letter."""

    name: str
    letter: str        # lower case
    key: str
    betza: str
    atoms: frozenset[Atom]


class Exporter:
    """The export of one variant: `run()` gives the ini lines."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.data: dict[str, Any] = variant.document.data
        self.reasons: list[str] = []
        self.lines: list[str] = []
        self.files = self.ranks = 0
        self.pieces: dict[str, PieceOut] = {}
        # (piece, atom, cells per side) of each move allowed only from a region.
        self.first_regions: list[tuple[str, Vec, Sided]] = []
        self.areas: dict[str, Sided] = {}     # a piece's mobility region
        self.form_targets: dict[str, str] = {}  # a +X form -> the letter of its type
        self.immobility = False                  # immobilityIllegal is written
        self.castling_king_file = ""             # its file, where each side has one king
        # Whether a captured promoted piece goes to the hand as a pawn, or stays.
        self.choice_kinds: set[str] = set()
        self.choices: set[str] = set()           # the pieces a pawn may promote to


    # -- helpers ---------------------------------------------------------------
    def refuse(self, reason: str) -> None:
        if reason not in self.reasons:
            self.reasons.append(reason)

    def put(self, key: str, value: object) -> None:
        if isinstance(value, bool):
            value = "true" if value else "false"
        text = str(value)
        if not text.isprintable():
            # A line break (of any kind a reader may split at) would end
            # the line and could start a key or a section of its own.
            self.refuse(f"{key}: {shorten(text)}: a line break or control character, which an "
                        "ini value cannot hold")
            return
        self.lines.append(f"{key} = {text}")

    def cells(self, ref: Any) -> frozenset[str]:
        """A region (by name, or a list of cells) as cell names."""
        mask = self.variant.board.resolve_region(ref)
        return frozenset(n for i, n in enumerate(self.variant.board.names) if mask >> i & 1)

    def sided_cells(self, ref: Any) -> dict[str, frozenset[str]]:
        if isinstance(ref, dict) and set(ref) == set(SIDES):
            return {side: self.cells(ref[side]) for side in SIDES}
        return {side: self.cells(ref) for side in SIDES}

    def square_list(self, cells: frozenset[str]) -> str:
        """Cells as Fairy-Stockfish writes a region: whole ranks as `*N`."""
        out: list[str] = []
        rest = set(cells)
        for rank in range(1, self.ranks + 1):
            row = {f"{chr(97 + f)}{rank}" for f in range(self.files)}
            if row <= rest:
                out.append(f"*{rank}")
                rest -= row
        out += sorted(rest, key=lambda c: (int(c[1:]), c[0]))
        return " ".join(out) or "-"

    def letters(self, names: list[str]) -> str:
        """A set of pieces as Fairy-Stockfish writes it: their letters."""
        return "".join(sorted(self.pieces[n].letter for n in names if n in self.pieces)) or "-"

    # -- the whole section -------------------------------------------------------
    def run(self) -> list[str]:
        for key in sorted(set(self.data) - TOP_KEYS - PRESENTATION_KEYS):
            self.refuse(f"{key}: {NO_KEY}")
        self.board()
        if self.reasons:
            return []
        self.sides()
        self.write_pieces()
        self.put("startFen", self.data["setup"])
        self.promotion()
        self.castling()
        self.hands()
        self.gating()
        self.first_moves()
        self.rules()
        self.flips()
        self.walls()
        self.position_string()
        self.end()
        return self.lines

    # -- the same section for Fairy-Stockfish 11.1 ---------------------------------------
    def legacy(self) -> list[str]:
        """The section as Fairy-Stockfish 11.1 (Debian's package) reads it:
        its older names (`promotionRank`, `doubleStepRank`, `whiteFlag`,
        `whiteDropRegion`, `kingPass`...), and without the keys it lacks
        where their value is what it does anyway; every other rule it has
        no key for is a reason the section is refused, custom pieces first
        (it has none, and stops on such a piece's letter in the start)."""
        values = dict(line.split(" = ", 1) for line in self.lines)
        written: list[str] = []
        for line in self.lines:
            key, value = line.split(" = ", 1)
            legacy = self.legacy_line(key, value, values)
            if legacy is not None and legacy not in written:
                written.append(legacy)
        return written

    def legacy_line(self, key: str, value: str, values: dict[str, str]) -> str | None:
        """One key as 11.1 reads it: the line, None where it has nothing to
        say, or a refusal."""
        version = f"Fairy-Stockfish {keys.LEGACY_VERSION} (Debian's package)"
        pawn = values.get("pawn", "-")[:1]
        if keys.CUSTOM.fullmatch(key):
            self.refuse(f"{key}: {version} has no custom pieces, and stops on the letter of "
                        "one in the start position")
        elif key == "king" and ":" in value:
            self.refuse(f"king = {value}: {version} moves its king as a king only")
        elif key in keys.LEGACY_KEYS or keys.is_piece_key(key) or keys.MOBILITY.fullmatch(key):
            if value not in keys.LEGACY_VALUES.get(key, {value}):
                self.refuse(f"{key} = {value}: {version} has no such value")
            elif key != "flagPiece" or value != "*":
                return f"{key} = {value}"
            elif not all(empty(values.get(f"flagRegion{side.title()}", "-")) for side in SIDES):
                self.refuse(f"flagPiece = *: {version} has no flag for every piece")
        elif key in keys.LEGACY_NAMES:
            return f"{keys.LEGACY_NAMES[key]} = {value}"
        elif key.startswith("promotionRegion"):
            return self.legacy_ranks("promotionRank", values, "promotionRegion", version, pawn)
        elif key.startswith("doubleStepRegion") and values.get("doubleStep") == "true":
            return self.legacy_ranks("doubleStepRank", values, "doubleStepRegion", version, pawn)
        elif key == "castlingRookPieces" and values.get("castling") == "true":
            if len(value) != 1:
                self.refuse(f"castlingRookPieces = {value}: {version} castles with one type")
            return f"castlingRookPiece = {value}"
        elif key == "dropNoDoubled" and not empty(value):
            if values.get("shogiPawn", "")[:1] != value or \
                    values.get("dropNoDoubledCount", "1") != "1":
                self.refuse(f"dropNoDoubled = {value}: {version} has it for its shogi pawn only")
            return "shogiDoubledPawn = false"
        elif not self.legacy_default(key, value, values, pawn):
            self.refuse(f"{key} = {value}: {version} has no such key")
        return None

    def legacy_ranks(self, key: str, values: dict[str, str], regions: str, version: str,
                     pawn: str) -> str | None:
        """A region of whole ranks counted from each side's edge, from a
        rank on (promotion) or one rank (the double step), as 11.1's
        `promotionRank` or `doubleStepRank`."""
        white, black = (ranks_of(values.get(f"{regions}{side.title()}", "-")) for side in SIDES)
        if white == black == set():
            if pawn == "-" and empty(values.get("promotedPieceType", "")):
                return None
        elif white is not None and black is not None:
            first = min(white)
            far = set(range(first, self.ranks + 1)) if key == "promotionRank" else {first}
            if white == far and black == {self.ranks + 1 - rank for rank in far}:
                return f"{key} = {first}"
        self.refuse(f"{regions}White = {values[f'{regions}White']}: {version} has "
                    f"{key}, the same ranks from each side's edge")
        return None

    def legacy_default(self, key: str, value: str, values: dict[str, str], pawn: str) -> bool:
        """Whether a key 11.1 lacks says what it does anyway: Fairy-Stockfish's
        default, its pawn for the types of pawn rules, or a rule switched off."""
        if value == DEFAULTS.get(key) or (empty(value) and empty(DEFAULTS.get(key, "-"))):
            return True
        if key in ("enPassantTypes", "nMoveRuleTypes", "promotionPawnTypes") and \
                (value == pawn or (empty(value) and pawn == "-")):
            return True     # 11.1 has these rules for its pawn type
        if key == "castlingKingFile" and values.get("castling") == "true":
            # 11.1 castles the king where it stands; the key tells one king
            # from others, and a side here has one on the castling rank.
            return value == self.castling_king_file
        off = {"castling": ("castlingKingFile", "castlingKingPiece", "oppositeCastling"),
               "wallingRule": ("wallingRegionWhite", "wallingRegionBlack"),
               "doubleStep": ("doubleStepRegionWhite", "doubleStepRegionBlack",
                              "enPassantTypes"),
               "nMoveRule": ("nMoveRuleTypes",)}
        return any(key in dependent and values.get(switch) in ("false", "none", "0")
                   for switch, dependent in off.items())

    def board(self) -> None:
        board = self.data["board"]
        if "grid" not in board:
            kind = next(k for k in ("polar", "hex", "graph") if k in board)
            self.refuse(f"board: a {kind} board; Fairy-Stockfish's board is one rectangle")
            return
        grid = board["grid"]
        if grid.get("planes", 1) != 1:
            self.refuse("board: several planes; Fairy-Stockfish's board is flat")
        if grid.get("wrap", "none") != "none":
            self.refuse("board: wrap-around edges; Fairy-Stockfish's board has no seams")
        self.files, self.ranks = grid["files"], grid["ranks"]
        if self.files > MAX_FILES or self.ranks > MAX_RANKS:
            self.refuse(f"board: {self.files}x{self.ranks}; Fairy-Stockfish's largest is "
                        f"{MAX_FILES}x{MAX_RANKS}")
        self.put("maxRank", self.ranks)
        self.put("maxFile", chr(96 + self.files))

    def sides(self) -> None:
        sides = self.data.get("sides", {"white": {"forward": "n"}, "black": {"forward": "s"}})
        if sides["white"]["forward"] != "n" or sides["black"]["forward"] != "s":
            self.refuse("sides: White must move north and Black south, as in Fairy-Stockfish")

    # -- pieces ------------------------------------------------------------------
    def write_pieces(self) -> None:
        declared: dict[str, dict[str, Any]] = self.data["pieces"]
        royals = [n for n, spec in declared.items() if spec.get("royal")]
        per_side = self.data.get("royals", {}).get("per-side", "one")
        king = royals[0] if per_side == "one" and len(royals) == 1 else None
        used_keys: set[str] = set()
        shogi_forms: list[str] = []
        custom = 0
        for name, spec in declared.items():
            for key in sorted(set(spec) - PIECE_KEYS):
                self.refuse(f"piece {name}: {key}: {NO_KEY}")
            letter = spec["letter"]
            if len(letter) != 1:
                if letter.startswith("+"):
                    shogi_forms.append(name)
                continue          # a promoted form (X~, +X): see promotion
            try:
                atoms = self.atoms_of(name, spec)
                pawn = "pawn" not in used_keys and atoms in (PAWN, PAWN | {TRIPLE_STEP})
                betza = "" if pawn else write_betza(atoms)
            except Refusal as refusal:
                self.refuse(f"piece {name}: {refusal}")
                continue
            builtin = "pawn" if pawn else self.piece_key(name, atoms, king, used_keys)
            if builtin is None:
                custom += 1
                if custom > keys.CUSTOM_PIECES:
                    self.refuse(f"piece {name}: more than {keys.CUSTOM_PIECES} pieces that "
                                "need their own Betza")
                    continue
            written = builtin or f"customPiece{custom}"
            used_keys.add(written)
            self.pieces[name] = PieceOut(name, letter.lower(), written, betza, atoms)
        self.single_step_pawn(used_keys)
        for name in shogi_forms:
            custom = self.promoted_type(name, used_keys, custom)
        if per_side == "one" and len(royals) != 1:
            self.refuse("royals: no royal piece, or several, with one per side")
        for piece in self.pieces.values():
            value = piece.letter
            if piece.key.startswith("customPiece") or \
                    (piece.key == "king" and piece.atoms != atoms_of_betza("K")):
                value += ":" + piece.betza
            self.put(piece.key, value)
        if king is None:
            self.put("king", "-")
        for name, cells in self.areas.items():
            if name not in self.pieces:
                continue
            key = self.pieces[name].key
            for side, side_cells in zip(SIDES, cells, strict=True):
                self.put(f"mobilityRegion{side.title()}{key[0].upper()}{key[1:]}",
                         self.square_list(side_cells))

    def single_step_pawn(self, used: set[str]) -> None:
        """Under a counting rule, a pawn without a double step (makruk's) as
        Fairy-Stockfish's pawn type, which then has none either
        (`doubleStep = false`): its counting rules count that type's pieces
        as pawns.  Only there (the type's other rules, a blast sparing it,
        its drops, are written for it where it is Fairy-Stockfish's pawn),
        and where no piece moves from a double-step region, which would
        give it one."""
        counted = "counting" in self.data.get("end", {}) and \
            not {"explosion", "hands"} & self.data.keys()
        if not counted or "pawn" in used or \
                any(a.first for p in self.pieces.values() for a in p.atoms):
            return
        name = next((n for n, p in self.pieces.items() if p.atoms == SINGLE_STEP_PAWN), None)
        if name is not None:
            used.discard(self.pieces[name].key)
            used.add("pawn")
            self.pieces[name] = replace(self.pieces[name], key="pawn", betza="")

    def promoted_type(self, name: str, used: set[str], custom: int) -> int:
        """A shogi-style promoted form (`+R`): the type with its moves, a new
        one under a free letter where no piece has them.  Returns the custom
        pieces used so far."""
        try:
            atoms = self.atoms_of(name, self.data["pieces"][name])
        except Refusal as refusal:
            self.refuse(f"piece {name}: {refusal}")
            return custom
        same = next((p for p in self.pieces.values() if p.atoms == atoms), None)
        if same is not None:
            self.form_targets[name] = same.letter
            return custom
        taken = {p.letter for p in self.pieces.values()} | \
            {s["letter"][-1].lower() for s in self.data["pieces"].values()}
        letter = next((c for c in "abcdefghijklmnopqrstuvwxyz" if c not in taken), None)
        builtin = self.piece_key(name, atoms, None, used)
        if builtin is None:
            custom += 1
        if letter is None or custom > keys.CUSTOM_PIECES:
            self.refuse(f"piece {name}: no letter or slot left for its promoted type")
            return custom
        try:
            betza = write_betza(atoms)
        except Refusal as refusal:
            self.refuse(f"piece {name}: {refusal}")
            return custom
        key = builtin or f"customPiece{custom}"
        used.add(key)
        self.pieces[name] = PieceOut(name, letter, key, betza, atoms)
        self.form_targets[name] = letter
        return custom

    def piece_key(self, name: str, atoms: frozenset[Atom], king: str | None,
                  used: set[str]) -> str | None:
        """The built-in type with these moves (the king for the royal piece),
        or None for a custom piece."""
        if name == king:
            return "king"
        for kind, moves in keys.PIECE_TYPES.items():
            if kind in used or kind in keys.SPECIAL_TYPES or kind == "pawn":
                continue
            if atoms == atoms_of_betza(moves):
                return kind
        return None

    def atoms_of(self, name: str, spec: dict[str, Any]) -> frozenset[Atom]:
        """A piece's moves as atoms, checked for what Fairy-Stockfish can play."""
        atoms: set[Atom] = set()
        try:
            moves = moves_of(spec)
        except DeclarationError as error:
            raise Refusal(str(error)) from None
        areas = {repr(move.get("to-region")) for move in moves}
        if len(areas) > 1:
            raise Refusal("to-region on some moves only; Fairy-Stockfish's mobility region "
                          "holds for all of a piece's moves")
        if not moves:
            return frozenset()       # Fairy-Stockfish's immobile type
        if "to-region" in moves[0]:
            area = self.sided_cells(moves[0]["to-region"])
            self.areas[name] = (area["white"], area["black"])
        for move in moves:
            for key in sorted(set(move) - MOVE_KEYS - {"to-region"}):
                raise Refusal(f"{key} on a move: no Betza for it")
            region: Sided | None = None
            if "from-region" in move:
                cells = self.sided_cells(move["from-region"])
                region = (cells["white"], cells["black"])
            elif move.get("initial"):
                region = self.initial_region(spec)
            passant = move.get("en-passant", "")
            for atom in move_atoms(move, grid_directions(self.variant)):
                atoms.add(Atom(atom.kind, atom.vector, atom.limit, move.get("only", ""),
                               region is not None, passant))
                if region is not None:
                    self.first_regions.append((name, atom_key(atom.vector), region))
        if not atoms:
            raise Refusal("no moves")
        self.check_turning(name, atoms)
        return frozenset(atoms)

    def check_turning(self, name: str, atoms: set[Atom]) -> None:
        """Fairy-Stockfish turns Black's pieces half a circle; a Black that
        mirrors them instead moves an asymmetric piece differently."""
        mirrored = {Atom(a.kind, (-a.vector[0], a.vector[1]), a.limit, a.only, a.first,
                         a.passant) for a in atoms}
        turned = self.data.get("sides", {}).get("black", {}).get("turned", False)
        if mirrored != atoms and not turned:
            raise Refusal("moves not the same left and right, which Fairy-Stockfish turns "
                          "for Black where this variant mirrors them (sides: turned)")

    def initial_region(self, spec: dict[str, Any]) -> Sided:
        """An `initial` move as Fairy-Stockfish's double step: allowed from a
        rank, which is the same while every such piece starts on one rank and
        never comes back to it."""
        letter = spec["letter"]
        placement = self.data["setup"].split()[0].split("[")[0]
        rows = placement.split("/")
        found: list[frozenset[str]] = []
        for shown in (letter, letter.lower()):
            ranks = {self.ranks - index for index, row in enumerate(rows)
                     if shown in strip_counts(row)}
            if len(ranks) > 1:
                raise Refusal("initial moves of pieces that start on several ranks")
            found.append(frozenset(f"{chr(97 + f)}{rank}" for f in range(self.files)
                                   for rank in ranks))
        forward_only = all(a.vector[1] > 0 for a in self.atoms_raw(spec))
        # (pieces that only gate from the hand never come back to it: they count as moved)
        drops = self.data.get("hands", {}).get("drops", True) is not False
        if not forward_only or ("hands" in self.data and drops):
            raise Refusal("initial moves of a piece that could come back to its first rank "
                          "(Fairy-Stockfish allows them by rank, not by whether it moved)")
        return found[0], found[1]

    def atoms_raw(self, spec: dict[str, Any]) -> list[Atom]:
        return [atom for move in moves_of(spec)
                for atom in move_atoms(move, grid_directions(self.variant))]

    # -- the double step ---------------------------------------------------------------
    def first_moves(self) -> None:
        """Fairy-Stockfish's double-step region, for every move allowed only
        from a region, and its pawn's triple-step region."""
        triple = {cells for name, atom, cells in self.first_regions
                  if atom == (3, 0) and self.pieces[name].key == "pawn"}
        double = {cells for name, atom, cells in self.first_regions
                  if name in self.pieces and not (atom == (3, 0) and
                                                  self.pieces[name].key == "pawn")}
        if len(double) > 1 or len(triple) > 1:
            self.refuse("moves from different regions; Fairy-Stockfish has one double-step "
                        "region per side (and its pawn one triple-step region)")
            return
        self.put("doubleStep", bool(double))
        for key, regions in (("doubleStepRegion", double), ("tripleStepRegion", triple)):
            cells = regions.pop() if regions else (frozenset(), frozenset())
            for side, side_cells in zip(SIDES, cells, strict=True):
                self.put(f"{key}{side.title()}", self.square_list(side_cells))

    # -- promotion -----------------------------------------------------------------
    def promotion(self) -> None:
        """One region for every rule: choices for the pawns, and
        shogi-style promotion (`promotedPieceType`) for the others."""
        rules = self.data.get("promotion")
        rules = [] if rules is None else rules if isinstance(rules, list) else [rules]
        pawn_rules = [r for r in rules if "pieces" in r]
        piece_rules = [r for r in rules if "promotes-to" in r]
        regions = [self.sided_cells(r["regions"]) for r in rules]
        if len(pawn_rules) > 1 or any(r != regions[0] for r in regions):
            self.refuse("promotion: rules with different regions, or several for pawns; "
                        "Fairy-Stockfish has one promotion region")
        if regions:
            for side in SIDES:
                self.put(f"promotionRegion{side.title()}", self.square_list(regions[0][side]))
        pawns: list[str] = []
        for rule in pawn_rules:
            for key in sorted(set(rule) - {"pieces", "regions", "choices", "optional", "limit"}):
                self.refuse(f"promotion: {key}: {NO_KEY}")
            pawns = rule["pieces"]
            choices = rule["choices"]
            if isinstance(choices, dict):
                for side in SIDES:
                    self.put(f"promotionPieceTypes{side.title()}",
                             self.choice_letters(choices[side], pawns))
            else:
                self.put("promotionPieceTypes", self.choice_letters(choices, pawns))
            option = rule.get("optional")
            if option is not None and (option == "where-it-can-move" or
                                       self.sided_cells(option) != regions[0]):
                self.refuse("promotion: optional in part of the region only")
            self.put("mandatoryPawnPromotion", "optional" not in rule)
            if "limit" in rule:
                self.put("promotionLimit", " ".join(
                    f"{self.choice_letters([n], pawns)}:{count}"
                    for n, count in rule["limit"].items()))
        if not pawn_rules:
            self.put("promotionPieceTypes", "-")
        if self.data.get("hands", {}).get("captures") == "to-capturer":
            if len(self.choice_kinds) > 1:
                self.refuse("promotion: choices that go back to the hand as pawns beside "
                            "choices that do not")
            elif self.choice_kinds == {"stays"}:
                # A promoted piece is captured as itself, not as a pawn.
                self.put("dropLoop", True)
        choices = {n for r in pawn_rules for side in SIDES
                   for n in (r["choices"][side] if isinstance(r["choices"], dict)
                             else r["choices"])}
        self.choices = choices
        self.put("promotionPawnTypes", self.letters(pawns))
        self.shogi_promotion(piece_rules, regions[0] if regions else {})
        setup = self.data["setup"].split()[0]
        for name, spec in self.data["pieces"].items():
            letter = spec["letter"]
            unused = (letter.startswith("+") and not any(
                name in r["promotes-to"].values() for r in piece_rules)) or \
                (letter.endswith("~") and name not in choices)
            # A form nothing promotes to never plays unless the setup has it.
            if unused and (letter in setup or letter.lower() in setup):
                self.refuse(f"piece {name}: a promoted form in the setup that no piece "
                            "promotes to")

    def shogi_promotion(self, rules: list[dict[str, Any]],
                        region: dict[str, frozenset[str]]) -> None:
        """`promotes-to` rules: Fairy-Stockfish's promotedPieceType, its
        pawn's promotion mandatory or not apart from the other pieces'."""
        pairs: list[str] = []
        optional: dict[str, set[str]] = {"pawn": set(), "piece": set()}
        to_hand = self.data.get("hands", {}).get("captures") == "to-capturer"
        everywhere = frozenset(self.variant.board.names)
        # Promoted forms that turn back (pieceDemotion) and the rules that
        # promote by capture alone (piecePromotionOnCapture): each one key
        # for every piece in Fairy-Stockfish.
        turning: set[str] = set()
        on_capture: set[bool] = set()
        for rule in rules:
            for key in sorted(set(rule) - {"regions", "leaving", "promotes-to", "optional",
                                           "on-capture"}):
                # Fairy-Stockfish's en passant capture never promotes a piece.
                if key != "by-en-passant" or rule[key] is not False:
                    self.refuse(f"promotion: {key}: {NO_KEY}")
            on_capture.add(bool(rule.get("on-capture", False)))
            # (Over every cell, moves out of the region are moves within it.)
            if not rule.get("leaving") and set(region.values()) != {everywhere}:
                self.refuse("promotion: promotes-to without leaving: Fairy-Stockfish promotes "
                            "on moves into, within and out of the region")
            option = rule.get("optional")
            if option is None:
                mode = "mandatory"
            elif option == "where-it-can-move":
                mode = "where-it-can-move"
            elif self.sided_cells(option) == region:
                mode = "optional"
            else:
                mode = "partly"
                self.refuse("promotion: optional in part of the region only")
            for base, form in rule["promotes-to"].items():
                spec = self.data["pieces"][form]
                if rule["promotes-to"].get(form) == base and base in self.form_targets:
                    # The way back of a +X form, under mandatoryPiecePromotion
                    # in Fairy-Stockfish whatever X is (measured).
                    turning.add(base)
                    optional["piece"].add(mode)
                    continue
                if base not in self.pieces or form not in self.form_targets:
                    continue
                if spec["letter"] != "+" + self.data["pieces"][base]["letter"] or \
                        (to_hand and spec.get("demotes-to") != base):
                    self.refuse(f"piece {form}: a promoted form unlike Fairy-Stockfish's "
                                "(written +X for its base X, back to the hand as X)")
                pairs.append(f"{self.pieces[base].letter}:{self.form_targets[form]}")
                optional["pawn" if self.pieces[base].key == "pawn" else "piece"].add(mode)
        if not pairs:
            return
        self.put("promotedPieceType", " ".join(sorted(pairs)))
        forms = {form for rule in rules for base, form in rule["promotes-to"].items()
                 if base not in self.form_targets}
        if turning and turning != forms:
            self.refuse("promotion: some promoted forms turn back and some not, where "
                        "Fairy-Stockfish's pieceDemotion turns back every one")
        if turning:
            self.put("pieceDemotion", True)
        if len(on_capture) > 1:
            self.refuse("promotion: on-capture on some promotion rules only, where "
                        "Fairy-Stockfish's piecePromotionOnCapture is for every piece")
        elif True in on_capture and optional["pawn"]:
            self.refuse("promotion: on-capture for Fairy-Stockfish's pawn, which it then keeps "
                        "out of the region without a capture")
        if on_capture == {True}:
            self.put("piecePromotionOnCapture", True)
        for group, key in (("pawn", "mandatoryPawnPromotion"),
                           ("piece", "mandatoryPiecePromotion")):
            if len(optional[group]) > 1:
                self.refuse("promotion: pieces whose promotion is mandatory and pieces "
                            "whose is not, beyond Fairy-Stockfish's pawn and piece keys")
            elif optional[group]:
                self.put(key, optional[group] == {"mandatory"})
        if "where-it-can-move" in optional["pawn"] | optional["piece"]:
            self.put("immobilityIllegal", True)
            self.immobility = True
            self.check_immobility(rules, region)

    def check_immobility(self, rules: list[dict[str, Any]],
                         region: dict[str, frozenset[str]]) -> None:
        """immobilityIllegal forbids every move that leaves a piece where it
        could not move on; here only promotion is kept from it, so every such
        cell must be in the region of a piece that promotes."""
        bases = {base for rule in rules for base in rule["promotes-to"]}
        for name in self.pieces:
            white, black = self.stuck_cells(name)
            if (white or black) and (name not in bases or not white <= region["white"]
                                     or not black <= region["black"]):
                self.refuse(f"piece {name}: could stop where it cannot move on, which "
                            "Fairy-Stockfish's immobilityIllegal forbids and this variant "
                            "allows")

    def choice_letters(self, names: list[str], pawns: list[str]) -> str:
        """Promotion choices as letters; a promoted form (`Q~`) stands for
        its base type, which Fairy-Stockfish marks itself when captures go
        to the hand."""
        out = ""
        for name in names:
            spec = self.data["pieces"][name]
            letter = spec["letter"]
            if letter.endswith("~") and len(letter) == 2:
                base = next((n for n, s in self.data["pieces"].items()
                             if s["letter"] == letter[0]), None)
                to_hand = self.data.get("hands", {}).get("captures") == "to-capturer"
                same = base is not None and self.same_moves(spec, self.data["pieces"][base])
                if not (same and to_hand and spec.get("demotes-to") in pawns):
                    self.refuse(f"piece {name}: a promoted form unlike Fairy-Stockfish's "
                                "(the same moves as its base, back to the hand as the pawn)")
                out += letter[0].lower()
                self.choice_kinds.add("goes back as a pawn")
            elif len(letter) == 1:
                out += letter.lower()
                self.choice_kinds.add("stays")
            else:
                self.refuse(f"piece {name}: letter {letter}: Fairy-Stockfish's letters are "
                            "one character")
        return out or "-"

    def same_moves(self, a: dict[str, Any], b: dict[str, Any]) -> bool:
        return set(self.atoms_raw(a)) == set(self.atoms_raw(b))

    # -- castling -------------------------------------------------------------------
    def castling(self) -> None:
        entries = self.data.get("castling", [])
        if not entries:
            self.put("castling", False)
            return
        files: dict[str, set[int]] = {"k": set(), "q": set()}
        king_files: set[int] = set()
        rook_letters: set[str] = set()
        king_letters: set[str] = set()
        board = placement_cells(self.data["setup"], self.ranks)
        for entry in entries:
            right = entry["right"]
            wing = right.lower()
            white = right.isupper()
            rank = 1 if white else self.ranks
            (king_from, king_to), (rook_from, rook_to) = entry["king"], entry["rook"]
            if wing not in files or "pieces" in entry or \
                    {int(c[1:]) for c in (king_from, king_to, rook_from, rook_to)} != {rank}:
                self.refuse(f"castling {right}: not Fairy-Stockfish's (K and Q rights on the "
                            "first rank)")
                continue
            kf, kt, rf, rt = (ord(c[0]) - 97 for c in (king_from, king_to, rook_from, rook_to))
            outward = 1 if wing == "k" else -1
            if (rf - kf) * outward <= 0 or rt != kt - outward:
                self.refuse(f"castling {right}: the rook does not land beside the king on "
                            "its inner side")
            files[wing].add(kt)
            king_files.add(kf)
            king_letters.add(board.get(king_from, "?").lower())
            rook_letters.add(board.get(rook_from, "?").lower())
            beyond = [f"{chr(97 + f)}{rank}" for f in range(rf + outward, self.files)] \
                if outward == 1 else [f"{chr(97 + f)}{rank}" for f in range(0, rf)]
            if any(board.get(c, "").lower() == board.get(rook_from, "").lower() for c in beyond):
                self.refuse(f"castling {right}: not with the outermost rook")
        if len(files["k"]) > 1 or len(files["q"]) > 1 or len(king_files) != 1 or \
                len(king_letters) != 1:
            self.refuse("castling: kings on different files or landing on different files "
                        "for the two sides")
            return
        self.put("castling", True)
        # Castling whatever the king's and rook's start (Chess960).
        self.put("chess960", self.data.get("free-castling") is True)
        self.put("castlingKingsideFile", chr(97 + (files["k"] or {self.files - 2}).pop()))
        self.put("castlingQueensideFile", chr(97 + (files["q"] or {2}).pop()))
        king_file = chr(97 + king_files.pop())
        self.put("castlingKingFile", king_file)
        king = king_letters.pop()
        placement = self.data["setup"].split()[0]
        if placement.count(king) == placement.count(king.upper()) == 1:
            self.castling_king_file = king_file     # one king a side
        if not any(p.letter == king and p.key == "king" for p in self.pieces.values()):
            # By default Fairy-Stockfish castles its king type, whatever its letter.
            self.put("castlingKingPiece", king)
        self.put("castlingRookPieces", "".join(sorted(rook_letters)))
        cancels = {entry["right"]: entry.get("cancels", []) for entry in entries}
        if any(cancels.values()):
            # Fairy-Stockfish's oppositeCastling: each castling takes the
            # opponent's right on the same wing away, and nothing else.
            if any(sorted(taken) != sorted({right.swapcase()} & cancels.keys())
                   for right, taken in cancels.items()):
                self.refuse("castling: cancels other than the opponent's right on the same "
                            "wing")
            self.put("oppositeCastling", True)

    # -- pieces in hand -------------------------------------------------------------
    def hands(self) -> None:
        hands = self.data.get("hands")
        if hands is None:
            self.put("pieceDrops", False)
            self.put("capturesToHand", False)
            return
        for key in sorted(set(hands) - {"captures", "order", "must-drop", "drops"}):
            self.refuse(f"hands: {key}: {NO_KEY}")
        if hands.get("drops", True) is False and "gating" not in self.data:
            self.refuse(f"hands: drops: false without gating: {NO_KEY}")
        self.put("pieceDrops", hands.get("drops", True) is not False)
        self.put("capturesToHand", hands.get("captures", "removed") == "to-capturer")
        must_drop = hands.get("must-drop", False)
        self.put("mustDrop", bool(must_drop))
        if isinstance(must_drop, list):   # koedem's [king]: one type, as Fairy-Stockfish has it
            if len(must_drop) == 1:
                self.put("mustDropType", self.letters(must_drop))
            else:
                self.refuse("hands: must-drop: Fairy-Stockfish forces the drops of one piece "
                            "type (mustDropType), not of several")
        everywhere = frozenset(self.variant.board.names)
        rules = self.data.get("promotion")
        rules = [] if rules is None else rules if isinstance(rules, list) else [rules]
        zone = self.sided_cells(rules[0]["regions"]) if rules \
            else {side: frozenset() for side in SIDES}
        declared: dict[str, Sided] = {}
        checks: set[str] = set()
        forms = {base: form for rule in rules for base, form in rule.get("promotes-to", {}).items()
                 if len(self.data["pieces"][base]["letter"]) == 1}
        face_up: set[str] = set()     # the pieces also dropped as their promoted form
        for name, spec in self.data["pieces"].items():
            if name not in self.pieces or len(spec["letter"]) != 1:
                continue
            drops = spec.get("drops", {})
            for key in sorted(set(drops) - {"regions", "per-line", "check", "mate", "also-as"}):
                self.refuse(f"piece {name}: drops: {key}: {NO_KEY}")
            if "also-as" in drops:
                face_up.add(name)
                if drops["also-as"] != [forms.get(name)]:
                    self.refuse(f"piece {name}: drops: also-as: Fairy-Stockfish's dropPromoted "
                                "drops a piece as its own promoted form only")
            cells = self.sided_cells(drops["regions"]) if "regions" in drops \
                else {side: everywhere for side in SIDES}
            declared[name] = (cells["white"], cells["black"])
            checks.add(drops.get("check", "allowed"))
            if "per-line" in drops:
                self.put("dropNoDoubled", self.pieces[name].letter)
                self.put("dropNoDoubledCount", drops["per-line"]["count"])
            mate = drops.get("mate", "allowed")
            if mate == "loses" and self.pieces[name].key == "shogiPawn":
                # Fairy-Stockfish's rule is for its shogi pawn (fW) only.
                self.put("shogiPawnDropMateIllegal", True)
            elif mate != "allowed":
                self.refuse(f"piece {name}: drops: mate: {mate}: Fairy-Stockfish has "
                            "shogiPawnDropMateIllegal, a drop mate that loses, for its shogi "
                            "pawn (fW) only")
        if len(checks) > 1:
            self.refuse("drops: check forbidden for some pieces only")
        if face_up and face_up != forms.keys() & declared.keys():
            self.refuse("drops: also-as for some pieces with a promoted form only, where "
                        "Fairy-Stockfish's dropPromoted drops every one either side up")
        if face_up:
            self.put("dropPromoted", True)
        dead = {name: self.stuck_cells(name) if self.immobility else (frozenset(), frozenset())
                for name in declared}
        # Fairy-Stockfish's one drop region, less the cells where a piece could
        # not move on (immobilityIllegal) and its pawn's first rank and zone.
        plain = [n for n in declared if self.pieces[n].key != "pawn" and n not in self.areas]
        white = frozenset().union(*(declared[n][0] | dead[n][0] for n in plain)) \
            if plain else everywhere
        black = frozenset().union(*(declared[n][1] | dead[n][1] for n in plain)) \
            if plain else everywhere
        for name, (drop_white, drop_black) in declared.items():
            area = self.areas.get(name, (everywhere, everywhere))
            expected = ((white & area[0]) - dead[name][0], (black & area[1]) - dead[name][1])
            if self.pieces[name].key == "pawn":
                self.pawn_drops((white, black), (drop_white, drop_black), dead[name], zone)
            elif (drop_white, drop_black) != expected:
                self.refuse(f"piece {name}: dropped where Fairy-Stockfish's one drop region "
                            "does not say (it drops every piece in the same region, in its "
                            "mobility region, and never where it could not move on)")
        self.put("dropRegionWhite", self.square_list(white))
        self.put("dropRegionBlack", self.square_list(black))
        self.put("dropChecks", checks != {"forbidden"})

    def gating(self) -> None:
        """Seirawan chess's gating (`gating` and `seirawanGating`): from the
        hand onto the cell an unmoved piece of the first (last) rank leaves,
        the setup's castling field naming the gating files."""
        gating = self.data.get("gating")
        if gating is None:
            return
        regions = self.sided_cells(gating["regions"])
        names = self.variant.board.names
        first = frozenset(n for n in names if n[1:] == "1")
        last = frozenset(n for n in names if n[1:] == str(self.ranks))
        if (regions["white"], regions["black"]) != (first, last):
            self.refuse("gating: regions other than each side's first rank, where "
                        "Fairy-Stockfish gates")
        self.put("gating", True)
        self.put("seirawanGating", True)

    def stuck_cells(self, name: str) -> Sided:
        """The cells from which a piece could not move on an empty board."""
        letter = self.data["pieces"][name]["letter"]
        found = []
        for shown in (letter, letter.lower()):
            code = self.variant.code_of_letter(shown)
            names = self.variant.board.names
            found.append(frozenset() if code is None else frozenset(
                names[cell] for cell in range(len(names))
                if not self.variant.empty_board_reach(code, cell, initial=False)))
        return found[0], found[1]

    def pawn_drops(self, region: Sided, pawn: Sided, dead: Sided,
                   zone: dict[str, frozenset[str]]) -> None:
        """A pawn's drop cells: the drop region less its first rank and the
        promotion zone, unless Fairy-Stockfish's two keys allow them, and
        less the cells where it could not move on."""
        first = {"white": frozenset(f"{chr(97 + f)}1" for f in range(self.files)),
                 "black": frozenset(f"{chr(97 + f)}{self.ranks}" for f in range(self.files))}
        for first_rank, in_zone in itertools.product((False, True), repeat=2):
            expected = tuple(region[i] - (frozenset() if first_rank else first[side])
                             - (frozenset() if in_zone else zone[side]) - dead[i]
                             for i, side in enumerate(SIDES))
            if expected == pawn:
                self.put("firstRankPawnDrops", first_rank)
                self.put("promotionZonePawnDrops", in_zone)
                return
        self.refuse("drops: the pawn's drop region is not Fairy-Stockfish's (the drop region "
                    "with or without the first rank and the promotion zone)")

    # -- rules of play ----------------------------------------------------------------
    def rules(self) -> None:
        self.put("mustCapture", bool(self.data.get("must-capture", False)))
        explosion = self.data.get("explosion")
        if explosion is not None:
            pawns = sorted(n for n, p in self.pieces.items() if p.key == "pawn")
            if explosion.get("around", "all") != "all" or \
                    sorted(explosion.get("immune", [])) != pawns:
                self.refuse("explosion: Fairy-Stockfish's blast reaches all eight cells and "
                            "spares pawns only")
            self.put("blastOnCapture", True)
            self.put("blastImmuneTypes", self.letters(explosion.get("blast-proof", [])))
        if "petrify" in self.data:
            self.put("petrifyOnCaptureTypes", self.letters(self.data["petrify"]))
        facing = self.data.get("royal-facing")
        if facing is not None:
            lines = facing["lines"] if isinstance(facing["lines"], list) else [facing["lines"]]
            # Fairy-Stockfish's flying general holds along ranks too: along
            # files only, it is the same where the royal pieces never share
            # a rank (xiangqi's palaces).
            if sorted(lines) not in (["backward", "forward"], ["orthogonal"]) or \
                    facing.get("rule", "forbidden") != "forbidden":
                self.refuse("royal-facing: Fairy-Stockfish's flying general is along files "
                            "and ranks, and forbidden")
            self.put("flyingGeneral", True)
        self.pawn_types()

    def flips(self) -> None:
        """`flips:` as Fairy-Stockfish's enclosing rules, and `pass:
        when-no-move` as its passOnStalemate."""
        flips = self.data.get("flips")
        self.put("passOnStalemate", self.data.get("pass") == "when-no-move")
        # A pass by the royal piece (janggi's): Fairy-Stockfish's `pass`,
        # its king's cell twice, never in check, two in a row ending the game.
        passing = sorted(n for n, spec in self.data["pieces"].items() if spec.get("pass"))
        if passing and [self.pieces[n].key for n in passing if n in self.pieces] != ["king"]:
            self.refuse("pass: Fairy-Stockfish's pass is its king's, the one royal piece")
        self.put("pass", bool(passing))
        if flips is None:
            self.put("flipEnclosedPieces", "none")
            self.put("enclosingDrop", "none")
            self.put("enclosingDropStart", "-")
            return
        if any(spec.get("royal") for spec in self.data["pieces"].values()):
            self.refuse("flips: beside royal pieces")
        kind, drops = flips.get("kind", "enclosed"), flips.get("drops", "any")
        flip = FLIP_RULES[kind]
        if flips.get("drop-flips", "always") != "always":
            flip = "quadwrangle" if kind == "adjacent" else ""
        # Fairy-Stockfish's lines and steps go every way, its snort drop's orthogonally.
        directions = "orthogonal" if drops == "apart" else "all"
        if flips.get("directions", "all") != directions or not flip or \
                (drops == "apart" and kind != "none"):
            self.refuse("flips: directions or drops Fairy-Stockfish's enclosing rules have not")
            return
        if drops == "enclose" and "walls" in self.data and not flips.get("walls-enclose"):
            self.refuse("flips: walls that break a reversi drop's line: Fairy-Stockfish's "
                        "drop encloses walls too (walls-enclose)")
        if "free-drops" in flips:
            # Measured: a section without a parent, freeDrops and pieceDrops
            # set, drops nothing from an empty hand (the built-in ataxx does).
            self.refuse("flips: free-drops: Fairy-Stockfish's freeDrops drops nothing in a "
                        "section without a parent")
        self.put("flipEnclosedPieces", flip)
        self.put("enclosingDrop", ENCLOSING_DROPS[drops])
        start = self.cells(flips["first-drops"]) if "first-drops" in flips else frozenset()
        self.put("enclosingDropStart", self.square_list(start))

    def walls(self) -> None:
        """`walls:` as Fairy-Stockfish's wallingRule, its region the same for
        both sides."""
        walls = self.data.get("walls")
        if walls is None or walls["kind"] == "none":
            # Walls that stand all game are the start position's `*`.
            self.put("wallingRule", "none")
            return
        royal = any(spec.get("royal") for spec in self.data["pieces"].values())
        pseudo = royal and self.data.get("royals", {}).get("per-side", "one") == "any"
        if royal and (walls.get("royal-safety") == "with-wall") != pseudo:
            # Measured: Fairy-Stockfish judges its king's safety before the
            # wall, a pseudo-royal piece's (several royal pieces) with it.
            self.refuse("walls: royal-safety: Fairy-Stockfish judges one king's safety before "
                        "the wall, several royal pieces' with it")
        region = self.cells(walls["region"]) if "region" in walls \
            else frozenset(self.variant.board.names)
        if "except" in walls:
            region -= self.cells(walls["except"])
        self.put("wallingRule", WALL_RULES[walls["kind"]])
        self.put("wallOrMove", bool(walls.get("or-move", False)))
        for side in SIDES:
            self.put(f"wallingRegion{side.title()}", self.square_list(region))

    def position_string(self) -> None:
        """Fairy-Stockfish writes a wall `*` and has no other option of its
        position strings."""
        options = self.data.get("position-string", {})
        if options.get("holes", "*") != "*":
            self.refuse("position-string: holes: Fairy-Stockfish writes a wall '*'")
        for key in sorted(set(options) - {"holes"}):
            self.refuse(f"position-string: {key}: {NO_KEY}")

    def pawn_types(self) -> None:
        """The pieces that leave an en passant cell, and those whose moves
        reset the move-rule count."""
        passing = [n for n, p in self.pieces.items() if any(a.passant for a in p.atoms)]
        self.put("enPassantTypes", self.letters(passing))
        resetting = []
        for name in self.pieces:
            spec = self.data["pieces"][name]
            # A move's own resets-clock overrides its piece's.
            declared = [bool(m.get("resets-clock", spec.get("resets-clock", False)))
                        for m in moves_of(spec)]
            if spec.get("resets-clock"):
                resetting.append(name)
            if declared != fsf_resets(spec):
                self.refuse(f"piece {name}: resets-clock on moves Fairy-Stockfish does not "
                            "reset on (it resets on every move of the piece that it cannot "
                            "take back)")
        self.put("nMoveRuleTypes", self.letters(resetting))

    # -- the end of the game ----------------------------------------------------------
    def end(self) -> None:
        end = self.data.get("end", {})
        for key in sorted(set(end) - END_KEYS):
            self.refuse(f"end: {key}: {NO_KEY}")
        if end.get("checkmate-exceptions"):
            self.refuse("end: checkmate-exceptions")
        self.put("checkmateValue", end.get("checkmate", "loss"))
        stalemate = end.get("stalemate", "draw")
        self.put("stalemateValue", PIECE_COUNT_STALEMATES.get(stalemate, stalemate))
        self.put("stalematePieceCount", stalemate in PIECE_COUNT_STALEMATES)
        self.counting(end)
        self.put("countingRule", self.counting_rule(end["counting"]) if "counting" in end
                 else "none")
        self.put("nFoldRule", end.get("repetition") or 0)
        self.put("nFoldValue", end.get("repetition-result", "draw"))
        self.put("nMoveRule", end.get("move-rule") or 0)
        self.put("perpetualCheckIllegal", end.get("perpetual-check") == "loss")
        self.conditions(end.get("conditions", []), end.get("at-once"))

    def counting(self, end: dict[str, Any]) -> None:
        """Two passes in a row and a full board: Fairy-Stockfish ends the
        first always and the second under adjudicateFullBoard, each by its
        one materialCounting rule (which also decides the move rule's end)."""
        passing = self.data.get("pass") == "when-no-move" or \
            any(spec.get("pass") for spec in self.data["pieces"].values())
        if passing and "double-pass" not in end:
            self.refuse("end: double-pass: Fairy-Stockfish ends a game after two passes in a "
                        "row")
        # Without passes two passes in a row never happen.
        ends = ("double-pass", "board-full") if passing else ("board-full",)
        results = {end[key] for key in ends if key in end}
        if len(results) > 1 or not results <= set(MATERIAL_COUNTING):
            self.refuse("end: double-pass and board-full: Fairy-Stockfish decides both by "
                        "one rule, a draw or the side with more pieces winning")
            return
        counting = MATERIAL_COUNTING[results.pop()] if results else "none"
        if counting != "none" and end.get("move-rule"):
            self.refuse("end: move-rule: Fairy-Stockfish's material counting decides it too")
        if "draws-go-to" in end:
            counting = self.draw_odds(end, counting)
        self.put("materialCounting", counting)
        if "board-full" in end:
            # Written only when set: the importer reads no adjudicateFullBoard.
            self.put("adjudicateFullBoard", True)

    def counting_rule(self, counting: dict[str, Any]) -> str:
        """The countingRule whose counts these are, the pieces named by the
        types they are written as (the khon as `silver`)."""
        def key(name: str) -> str:
            return self.pieces[name].key if name in self.pieces else f"({name})"
        keyed = {**counting, "pawns": [key(name) for name in counting.get("pawns", [])]}
        if "bare" in counting:
            keyed["bare"] = {**counting["bare"], "limits": [
                {**row, "pieces": {key(name): n for name, n in row["pieces"].items()}}
                if "pieces" in row else row for row in counting["bare"].get("limits", [])]}
        rule = next((rule for rule, counts in keys.COUNTING_RULES.items() if counts == keyed),
                    None)
        if rule is None:
            self.refuse("end: counting: not one of Fairy-Stockfish's counting rules (makruk's, "
                        "cambodian's, asean's) on the pieces they count")
            return "none"
        return rule

    def draw_odds(self, end: dict[str, Any], counting: str) -> str:
        """`draws-go-to` as Fairy-Stockfish's draw odds (`blackdrawodds`):
        it gives that side a stalemate, the move rule's end and a
        repetition that would draw, but leaves a drawn mate or condition
        drawn, and has one materialCounting value for passes and full
        boards too."""
        drawn = ["checkmate"] if end.get("checkmate") == "draw" else []
        drawn += [next(iter(c)) for c in end.get("conditions", []) if c.get("result") == "draw"]
        if end.get("stalemate") in PIECE_COUNT_STALEMATES:
            drawn.append("stalemate")
        if counting != "none" or drawn:
            self.refuse(f"end: draws-go-to beside {', '.join(drawn) or 'counted passes'}: "
                        "Fairy-Stockfish's draw odds leave a drawn mate or condition drawn, "
                        "and count passes by one rule")
            return counting
        return f"{end['draws-go-to']}drawodds"

    def conditions(self, conditions: list[dict[str, Any]], at_once: str | None) -> None:
        extinct: list[dict[str, Any]] = []
        reached: list[dict[str, Any]] = []
        checks: list[dict[str, Any]] = []
        for condition in conditions:
            kind = next((k for k in ("extinct", "reached", "checks") if k in condition), None)
            allowed = {"extinct": {"extinct", "at-most", "opponent-at-least", "result"},
                       "reached": {"reached", "pieces", "result", "safe", "at-least", "reply"},
                       "checks": {"checks", "result"}}.get(kind or "", set())
            if kind is None or set(condition) - allowed:
                what = ", ".join(sorted(set(condition) - allowed))
                self.refuse(f"end: a condition with {what}: {NO_KEY}")
                continue
            {"extinct": extinct, "reached": reached, "checks": checks}[kind].append(condition)
        self.extinction(extinct)
        self.flag(reached, at_once, len(reached) == len(conditions))
        if checks and (len(checks) > 1 or checks[0].get("result") != "win"):
            self.refuse("end: checks: Fairy-Stockfish counts checks to a win only")
        self.put("checkCounting", bool(checks))

    def extinction(self, extinct: list[dict[str, Any]]) -> None:
        royals = self.data.get("royals", {})
        pseudo = [n for n, s in self.data["pieces"].items() if s.get("royal")] \
            if royals.get("per-side", "one") == "any" else []
        results = {c["result"] for c in extinct}
        counts = {c.get("at-most", 0) for c in extinct}
        rivals = {c.get("opponent-at-least", 0) for c in extinct}
        if len(results) > 1 or len(counts) > 1 or len(rivals) > 1:
            self.refuse("end: extinction conditions with different results or counts; "
                        "Fairy-Stockfish has one")
            return
        names: list[str] = []
        for condition in extinct:
            names += ["*"] if condition["extinct"] == "all" else condition["extinct"]
        if pseudo:
            if royals.get("check", "any") == "all" or (names and sorted(names) != sorted(pseudo)):
                self.refuse("royals: several royal pieces that Fairy-Stockfish cannot keep "
                            "out of check as declared")
                return
            if results - {"loss"}:
                self.refuse("royals: the loss of a royal piece that does not lose")
            if rivals - {0}:
                self.refuse(f"end: opponent-at-least on royal pieces: {NO_KEY}")
            self.put("extinctionPseudoRoyal", True)
            # Fairy-Stockfish keeps them out of check while a side has at
            # most one more than the count of a type: for `check: any`, a
            # count no side reaches on the board (its own coregal's is 64;
            # with a count of 0, a pawn promoting to a second queen would
            # leave both unguarded).  With explosions the count is also
            # the extinction's (a side is left with none): 0.
            if royals.get("check", "any") == "last":
                count = royals.get("last", 1) - 1
            elif "explosion" in self.data:
                count = 0
                if set(pseudo) & self.choices:
                    self.refuse("royals: a promotion to a royal piece beside explosions")
            else:
                count = self.files * self.ranks
            names, results, counts = pseudo, {"loss"}, {count}
        if not names:
            self.put("extinctionValue", "none")
            return
        self.put("extinctionValue", results.pop())
        self.put("extinctionPieceTypes", "*" if "*" in names else self.letters(names))
        self.put("extinctionPieceCount", counts.pop() if counts else 0)
        self.put("extinctionOpponentPieceCount", rivals.pop() if rivals else 0)

    def flag(self, reached: list[dict[str, Any]], at_once: str | None, alone: bool) -> None:
        """The `reached` conditions as Fairy-Stockfish's flag keys; `alone`:
        they are the only declared conditions."""
        if not reached:
            if at_once is not None:
                self.refuse("end: at-once: Fairy-Stockfish draws at once only between "
                            "safe flags")
            return
        condition, *rest = reached
        if condition.get("safe"):
            # Fairy-Stockfish's flagPieceSafe (measured): one piece more than
            # the count wins, attacked or not, and both sides' flags met at
            # once draw; the declaration must say the first, and, with flags
            # for both sides, the second (`at-once: draw`) with no other
            # condition beside them.
            more = {k: v for k, v in condition.items() if k != "safe"} | \
                {"at-least": condition.get("at-least", 1) + 1}
            sided = self.sided_cells(condition["reached"])
            both = bool(sided["white"] and sided["black"])
            if rest != [more] or (both and (at_once != "draw" or not alone)):
                self.refuse("end: reached: safe: Fairy-Stockfish's flagPieceSafe also wins "
                            "with one piece more than the count, attacked or not, and draws "
                            "when both sides' flags are met at once")
                return
            if at_once is not None and not both:
                self.refuse("end: at-once: Fairy-Stockfish draws at once only between "
                            "safe flags of both sides")
            rest = []
        elif at_once is not None:
            self.refuse("end: at-once: Fairy-Stockfish draws at once only between safe flags")
        if rest or condition["result"] != "win":
            self.refuse("end: more than one 'reached' condition, or one that does not win")
            return
        pieces = condition.get("pieces", sorted(self.pieces))
        if len(pieces) > 1 and sorted(pieces) != sorted(self.pieces):
            self.refuse("end: reached: Fairy-Stockfish's flag piece is one type or all")
        self.put("flagPiece", "*" if len(pieces) > 1 else self.letters(pieces))
        regions = self.sided_cells(condition["reached"])
        for side in SIDES:
            self.put(f"flagRegion{side.title()}", self.square_list(regions[side]))
        self.put("flagPieceSafe", bool(condition.get("safe", False)))
        self.put("flagPieceCount", condition.get("at-least", 1))
        # Fairy-Stockfish's flagMove, measured on one cell for both sides
        # (jesonmor): the piece there wins if it still stands there after the
        # other side's one reply.  On larger regions it decides otherwise
        # (racing kings' draw when both arrive).
        one_cell = regions["white"] == regions["black"] and len(regions["white"]) == 1
        if condition.get("reply") and (not one_cell or condition.get("safe") or
                                       condition.get("at-least", 1) != 1):
            self.refuse("end: reached: reply: Fairy-Stockfish's flagMove, on one cell for "
                        "both sides only")
        self.put("flagMove", bool(condition.get("reply")))


# --- moves as atoms, and atoms as Betza ------------------------------------------------


def strip_counts(row: str) -> str:
    """A placement row without counts, promotion marks or hands."""
    return "".join(c for c in row if c.isalpha())


def placement_cells(setup: str, ranks: int) -> dict[str, str]:
    """Cell name -> letter of a position string's placement."""
    rows = setup.split()[0].split("[")[0].split("/")
    board: dict[str, str] = {}
    for index, row in enumerate(rows):
        file, number = 0, ""
        for char in row + " ":
            if is_digit(char):
                number += char
                continue
            file += int(number or 0)
            number = ""
            if char.isalpha():
                board[f"{chr(97 + file)}{ranks - index}"] = char
                file += 1
    return board


def grid_directions(variant: Variant) -> Directions:
    """The variant's board naming White's vectors of a direction spec."""
    return lambda spec: directions_of(variant, spec)


def directions_of(variant: Variant, spec: Any) -> list[Vec]:
    """White's vectors of a direction spec (a name, a vector, or a list)."""
    topology = variant.board.topology
    specs = [spec] if not isinstance(spec, list) or all(isinstance(x, int) for x in spec) \
        else spec
    out: list[Vec] = []
    for item in specs:
        for vector in topology.directions(item, "n"):
            if len(vector) > 2 and vector[2]:
                raise Refusal("a move between planes")
            out.append((vector[0], vector[1]))
    return out


def leap_vectors(spec: Any) -> list[Vec]:
    if all(isinstance(x, int) for x in spec):
        if len(spec) != 2:
            raise Refusal("a leap in space")
        a, b = spec
        return sorted({(sx * x, sy * y) for x, y in ((a, b), (b, a))
                       for sx in (1, -1) for sy in (1, -1)})
    return [(v[0], v[1]) for v in spec]


def move_atoms(move: dict[str, Any], directions: Directions) -> list[Atom]:
    """One primitive's vectors as atoms (without its conditions); `directions`
    names White's vectors of a direction spec."""
    low, high = range_of(move.get("range"))
    if "step" in move:
        if "range" in move:
            raise Refusal("a step with a range")
        return [Atom("leap", v) for v in directions(move["step"])]
    if "leap" in move:
        return [Atom("leap", v) for v in leap_vectors(move["leap"])]
    if "ride" in move:
        vectors = directions(move["ride"])
        if low == high and low > 1:
            return [Atom("lame", (x * low, y * low)) for x, y in vectors]
        if low != 1:
            raise Refusal(f"a ride of at least {low} cells")
        if high == 1:
            return [Atom("leap", v) for v in vectors]
        return [Atom("ride", v, high) for v in vectors]
    if "hop" in move:
        beyond = move.get("beyond")
        if beyond not in (None, 1) or (beyond and high):
            raise Refusal("a hop landing further than just behind its screen")
        kind = "grasshopper" if beyond else "hop"
        return [Atom(kind, v, high) for v in directions(move["hop"])]
    if "path" in move:
        atoms = []
        for route in move["path"]:
            steps = [list(directions(step)[0]) for step in route]
            total = (sum(s[0] for s in steps), sum(s[1] for s in steps))
            if steps != lame_route(total):
                raise Refusal("a path that is not a lame leap as Fairy-Stockfish blocks it")
            atoms.append(Atom("lame", total))
        return atoms
    raise Refusal("a move with no step, ride, leap, hop or path")


def lame_route(vector: Vec) -> list[list[int]]:
    """A lame leap in single steps as Fairy-Stockfish blocks it: straight
    along the longer side first, then diagonally."""
    x, y = vector
    sx, sy = (x > 0) - (x < 0), (y > 0) - (y < 0)
    if x == 0 or y == 0 or abs(x) == abs(y):
        return [[sx, sy]] * max(abs(x), abs(y))
    straight = [sx, 0] if abs(x) > abs(y) else [0, sy]
    return [straight] * abs(abs(x) - abs(y)) + [[sx, sy]] * min(abs(x), abs(y))


def atom_key(vector: Vec) -> Vec:
    x, y = abs(vector[0]), abs(vector[1])
    return (max(x, y), min(x, y)) if (x, y) != (0, 0) else (0, 0)


def token_vectors(token: str, letter: str) -> frozenset[Vec]:
    """The vectors `token` + atom selects, as variantkit.betza reads them."""
    found: set[Vec] = set()
    for atom in atoms_of_betza(token + letter):
        found.add(atom.vector)
    return frozenset(found)


def atoms_of_betza(text: str) -> frozenset[Atom]:
    """The atoms a Betza string stands for, read by variantkit.betza (on a
    plain grid: no board is needed to name White's vectors)."""
    atoms: set[Atom] = set()
    for move in cast(list[dict[str, Any]], expand(text)):
        first = bool(move.get("initial"))
        for atom in move_atoms(move, word_directions):
            atoms.add(Atom(atom.kind, atom.vector, atom.limit, move.get("only", ""), first,
                           move.get("en-passant", "")))
    return frozenset(atoms)


WORDS: dict[str, list[Vec]] = {
    "forward": [(0, 1)], "backward": [(0, -1)], "sideways": [(1, 0), (-1, 0)],
    "forward-diagonal": [(1, 1), (-1, 1)], "backward-diagonal": [(1, -1), (-1, -1)],
    "orthogonal": [(0, 1), (0, -1), (1, 0), (-1, 0)],
    "diagonal": [(1, 1), (-1, 1), (1, -1), (-1, -1)],
}
WORDS["all"] = WORDS["orthogonal"] + WORDS["diagonal"]


def word_directions(spec: Any) -> list[Vec]:
    """White's vectors of the direction words and vectors `variantkit.betza`
    writes."""
    if isinstance(spec, list) and all(isinstance(x, int) for x in spec):
        return [(spec[0], spec[1])]
    if isinstance(spec, list):
        return [v for item in spec for v in word_directions(item)]
    return list(WORDS[spec])


def fsf_resets(spec: dict[str, Any]) -> list[bool]:
    """Which moves of a piece reset the move-rule count in Fairy-Stockfish,
    as the importer writes them: none unless the piece is one of
    `nMoveRuleTypes`, then those it could not take back."""
    moves = [{k: v for k, v in move.items() if k != "resets-clock"} for move in moves_of(spec)]
    if not spec.get("resets-clock"):
        return [False] * len(moves)
    piece = {"moves": moves}
    reversible_moves(piece)
    return [move.get("resets-clock", True) is not False for move in piece["moves"]]


# Fairy-Stockfish's pawn: a step forward, the double step from its region,
# diagonal captures and en passant; the triple step from its own region.
PAWN = atoms_of_betza("fmWfceFifmnD")
SINGLE_STEP_PAWN = atoms_of_betza("fmWfcF")
TRIPLE_STEP = Atom("lame", (0, 3), 0, "move", True, "target")


def without_targets(atoms: frozenset[Atom]) -> frozenset[Atom]:
    """Atoms without the en passant cell their first moves leave: in
    Fairy-Stockfish that is the piece's (`enPassantTypes`), not the move's."""
    return frozenset(Atom(a.kind, a.vector, a.limit, a.only, a.first,
                          "" if a.passant == "target" else a.passant) for a in atoms)


def write_betza(atoms: frozenset[Atom]) -> str:
    """Betza for a set of atoms, checked by reading it back."""
    targets = {a.passant == "target" for a in atoms if a.first and a.kind in ("ride", "lame")}
    if False in targets or any(a.passant == "target" and not a.first for a in atoms):
        # pyffish still writes an en passant cell after a double step that
        # leaves none (georgian): such a piece is refused, not written wrong.
        raise Refusal("a double step that leaves no en passant cell, or a move that is no "
                      "double step and leaves one")
    atoms = without_targets(atoms)
    groups: dict[tuple[str, Vec, int, str, bool, str], set[Vec]] = defaultdict(set)
    for atom in atoms:
        groups[(atom.kind, atom_key(atom.vector), atom.limit, atom.only, atom.first,
                atom.passant)].add(atom.vector)
    captures_passant = {a.passant == "capture" for a in atoms if a.only == "capture"}
    if len(captures_passant) > 1:
        raise Refusal("en passant on some capture-only moves and not others (Betza's e "
                      "marks them all)")
    terms = []
    for (kind, key, limit, only, first, passant), vectors in sorted(groups.items()):
        terms += betza_terms(kind, key, limit, only, first, passant, vectors)
    text = "".join(terms)
    if without_targets(atoms_of_betza(text)) != atoms:
        raise Refusal(f"moves that Fairy-Stockfish's Betza cannot write (closest: {text})")
    return text


def betza_terms(kind: str, key: Vec, limit: int, only: str, first: bool, passant: str,
                vectors: set[Vec]) -> list[str]:
    letter = ATOM_LETTERS.get(key)
    if letter is None:
        raise Refusal(f"a leap of {list(key)}, which Betza has no atom for")
    prefix = ("i" if first else "") + {"move": "m", "capture": "c", "": ""}[only]
    if passant == "capture":
        prefix += "e"
    if kind == "leap":
        body = letter
    elif kind == "lame":
        if key not in LAME:
            raise Refusal(f"a lame {letter}, which Fairy-Stockfish does not have")
        prefix += "n"
        body = letter
    elif kind == "ride":
        if key not in RIDEABLE:
            raise Refusal(f"a {letter} rider, which Fairy-Stockfish does not have")
        if limit > 9:
            raise Refusal(f"a ride limited to {limit} cells")
        body = {"W": "R", "F": "B"}.get(letter, letter * 2) if not limit else f"{letter}{limit}"
    else:
        if key not in ((1, 0), (1, 1)) or (kind == "grasshopper" and limit):
            raise Refusal("a hopper other than along lines (pR, pB, gR, gB)")
        prefix += "p" if kind == "hop" else "g"
        rider = {"W": "R", "F": "B"}[letter]
        body = rider if not limit else f"{rider}{limit}"
    return [prefix + token + body for token in cover(vectors, letter)]


def cover(vectors: set[Vec], letter: str) -> list[str]:
    """Direction tokens whose selections together are exactly `vectors`."""
    full = token_vectors("", letter)
    if vectors == full:
        return [""]
    fits = [(t, token_vectors(t, letter)) for t in DIRECTION_TOKENS[1:]]
    fits = [(t, v) for t, v in fits if v and v <= vectors]
    chosen: list[str] = []
    covered: set[Vec] = set()
    while covered != vectors:
        best = max(fits, key=lambda item: len(item[1] - covered), default=None)
        if best is None or not best[1] - covered:
            raise Refusal(f"directions of {letter} that Betza cannot select")
        chosen.append(best[0])
        covered |= best[1]
    return chosen


def empty(region: str) -> bool:
    """Whether a Fairy-Stockfish value names nothing (`-` or nothing)."""
    return region.strip() in ("", "-")


def ranks_of(region: str) -> set[int] | None:
    """The whole ranks of a square list (`*6 *7 *8`), None where it names
    other cells."""
    tokens = [] if empty(region) else region.split()
    if not all(re.fullmatch(r"\*[0-9]+", token) for token in tokens):
        return None
    return {int(token[1:]) for token in tokens}


# The Fairy-Stockfish versions a section is written for: the current one,
# and 11.1 (Debian's package), which reads older names and lacks most rules.
VERSIONS = ("current", keys.LEGACY_VERSION)


def export_section(variant: Variant, section: str | None = None,
                   version: str = "current") -> str:
    """The ini section of `variant` (named `section`, by default as the
    variant) for Fairy-Stockfish `version` (one of VERSIONS), or
    `ExportRefused` with every reason it cannot be written."""
    name = section or variant.name
    if not SECTION_NAME.fullmatch(name):
        raise ExportRefused(variant.name, [f"section name {name[:40]!r}: letters, digits, "
                                           "'-' and '_' only"])
    if version not in VERSIONS:
        raise ExportRefused(variant.name, [f"Fairy-Stockfish version {version[:20]!r}: "
                                           f"one of {', '.join(VERSIONS)}"])
    exporter = Exporter(variant)
    lines = exporter.run()
    if version == keys.LEGACY_VERSION and not exporter.reasons:
        lines = exporter.legacy()
    if exporter.reasons:
        raise ExportRefused(variant.name, exporter.reasons)
    # (a description may hold line breaks, which would end the comment)
    written = "for Fairy-Stockfish 11.1 (Debian's package)" \
        if version == keys.LEGACY_VERSION else \
        "for the current Fairy-Stockfish (for Debian's 11.1: --fsf-version 11.1)"
    head = [one_line(f"# {variant.name}: {variant.description}"),
            f"# Written by `variantkit export-fsf` {written}.", f"[{name}]"]
    return "\n".join(head + lines) + "\n"
