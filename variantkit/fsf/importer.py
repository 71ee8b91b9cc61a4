"""One Fairy-Stockfish ini section turned into a variant YAML text.

The section's keys (with those of the sections it inherits in the file)
are laid over its root: a bundled variant named as Fairy-Stockfish names its
built-in (`[mygame:crazyhouse]`), or, for a section without a parent,
Fairy-Stockfish's bare defaults (chess rules, no pieces).  Each key changes
the YAML declaration the way Fairy-Stockfish changes its rules; the result is
written as `inherits:` the bundled parent plus what differs (`remove:` for
what the parent has and the section does not), Betza strings kept as
`betza:` where the language reads them.  The written text is loaded once, so
a section that cannot be expressed is reported, never written wrong.

The keys' status lives in `keys`; a key the language cannot express, an
unknown parent, or a declaration that does not load is a problem located at
its ini line.
"""

from __future__ import annotations

import copy
import itertools
import re
from dataclasses import dataclass, field, replace
from typing import Any, cast

import yaml

from variantkit.betza import expand as expand_betza
from variantkit.errors import DeclarationError, Problem, VariantError, shorten
from variantkit.fsf import keys
from variantkit.fsf.ini import IMPORT_UNITS, MAX_BETZA_CHARS, Entry, IniFile, Section, one_line
from variantkit.limits import DEFAULT_UNITS, Budget
from variantkit.loader import bundled_names, load_document
from variantkit.variant import Variant, load_text

Cell = tuple[int, int]        # (file, rank), 0-based
SIDES = ("white", "black")
VALUES = {"win": "win", "loss": "loss", "draw": "draw"}
CHESS_LETTERS = {"pawn": "p", "knight": "n", "bishop": "b", "rook": "r", "queen": "q",
                 "king": "k"}
# One Betza atom with its modifiers.  The look-behind keeps a search from
# starting again inside a run of modifiers: without it, a long run that no
# atom ends is scanned once from each of its letters (quadratic time).
ATOM = re.compile(r"(?<![a-z])([a-z]*)([A-Z])(\2|[0-9])?")
CHESS_START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
# Keys whose change means the promotion rules are written again.
PROMOTION_KEYS = ("promotionRegionWhite", "promotionRegionBlack", "promotionPieceTypes",
                  "promotionPieceTypesWhite", "promotionPieceTypesBlack", "promotionPawnTypes",
                  "promotionPawnTypesWhite", "promotionPawnTypesBlack", "promotionLimit",
                  "promotedPieceType", "mandatoryPawnPromotion", "mandatoryPiecePromotion",
                  "pawnTypes", "capturesToHand", "pieceDemotion", "piecePromotionOnCapture",
                  "dropPromoted", "dropLoop")
PAWN_KEYS = ("doubleStep", "doubleStepRegionWhite", "doubleStepRegionBlack",
             "tripleStepRegionWhite", "tripleStepRegionBlack", "pieceDrops", "pawnTypes",
             "enPassantTypes", "nMoveRuleTypes", "nMoveRuleTypesWhite", "nMoveRuleTypesBlack")
CASTLING_KEYS = ("castling", "castlingKingsideFile", "castlingQueensideFile",
                 "castlingKingFile", "castlingRookPieces", "castlingKingPiece", "castlingRank",
                 "oppositeCastling", "chess960", "startFen")
DROP_KEYS = ("pieceDrops", "capturesToHand", "seirawanGating", "dropRegionWhite",
             "dropRegionBlack", "firstRankPawnDrops", "promotionZonePawnDrops", "dropNoDoubled",
             "dropNoDoubledCount", "dropChecks", "mustDrop", "shogiPawnDropMateIllegal")
END_CONDITION_KEYS = ("extinctionValue", "extinctionPieceTypes", "extinctionPieceCount",
                      "extinctionPseudoRoyal", "flagPiece", "flagPieceWhite",
                      "flagPieceBlack", "flagRegion", "flagRegionWhite", "flagRegionBlack",
                      "flagPieceSafe", "flagPieceCount", "flagMove", "checkCounting", "connectN",
                      "connectPieceTypes", "connectHorizontal", "connectVertical",
                      "connectDiagonal", "connectValue", "castlingWins",
                      "flagPieceBlockedWin", "connectNxN", "collinearN", "connectRegion1White",
                      "connectRegion2White", "connectRegion1Black", "connectRegion2Black",
                      "extinctionOpponentPieceCount")
DEFAULTS: dict[str, str] = {
    "maxRank": "8", "maxFile": "h", "startFen": CHESS_START, "doubleStep": "true",
    "doubleStepRegionWhite": "*2", "doubleStepRegionBlack": "*7",
    "tripleStepRegionWhite": "", "tripleStepRegionBlack": "",
    "promotionRegionWhite": "*8", "promotionRegionBlack": "*1",
    "promotionPieceTypes": "qrbn", "promotionPawnTypes": "p", "mandatoryPawnPromotion": "true",
    "mandatoryPiecePromotion": "false", "promotionLimit": "", "promotedPieceType": "",
    "castling": "true", "castlingKingsideFile": "g", "castlingQueensideFile": "c",
    "castlingKingFile": "e", "castlingRookPieces": "r", "castlingKingPiece": "k",
    "castlingRank": "1",
    "pieceDrops": "false", "capturesToHand": "false", "dropRegionWhite": "", "dropRegionBlack": "",
    "firstRankPawnDrops": "false", "promotionZonePawnDrops": "false", "dropNoDoubled": "",
    "dropNoDoubledCount": "1", "dropChecks": "true", "mustDrop": "false",
    "mustCapture": "false", "nMoveRule": "50", "nFoldRule": "3", "nFoldValue": "draw",
    "perpetualCheckIllegal": "false", "stalemateValue": "draw", "checkmateValue": "loss",
    "stalematePieceCount": "false", "extinctionValue": "none", "extinctionPieceTypes": "",
    "extinctionPieceCount": "0", "extinctionPseudoRoyal": "false", "flagPiece": "*",
    "flagRegionWhite": "", "flagRegionBlack": "", "flagPieceSafe": "false", "flagPieceCount": "1",
    "checkCounting": "false", "connectN": "0", "connectPieceTypes": "",
    "connectHorizontal": "true", "connectVertical": "true", "connectDiagonal": "true",
    "connectValue": "win", "castlingWins": "-", "connectNxN": "0",
    "collinearN": "0", "connectRegion1White": "", "connectRegion2White": "",
    "connectRegion1Black": "", "connectRegion2Black": "",
    "blastOnCapture": "false", "blastImmuneTypes": "", "dropLoop": "false",
    "adjudicateFullBoard": "false",
    "flyingGeneral": "false", "soldierPromotionRank": "1", "immobilityIllegal": "false",
    "enPassantTypes": "p",
    "nMoveRuleTypes": "p",
    # Keys the language cannot express, at values that change nothing.
    "chess960": "false", "twoBoards": "false", "checking": "true",
    "enclosingDrop": "none", "flipEnclosedPieces": "none", "passOnStalemate": "false",
    "enclosingDropStart": "", "freeDrops": "false",
    "pass": "false", "flagMove": "false", "dropPromoted": "false", "pieceDemotion": "false",
    "gating": "false", "seirawanGating": "false", "wallingRule": "none", "wallOrMove": "false",
    "wallingRegionWhite": "", "wallingRegionBlack": "",
    "sittuyinPromotion": "false", "piecePromotionOnCapture": "false",
    "flagPieceBlockedWin": "false", "extinctionClaim": "false",
    "extinctionOpponentPieceCount": "0", "shogiPawnDropMateIllegal": "false",
    "materialCounting": "none", "countingRule": "none", "castlingDroppedPiece": "false",
    "oppositeCastling": "false", "mustDropType": "*", "cambodianMoves": "false",
    "makpongRule": "false", "bikjangRule": "false", "shatarMateRule": "false",
    "dupleCheck": "false", "moveRepetitionIllegal": "false", "chasingRule": "none",
    "nFoldValueAbsolute": "false", "diagonalLines": "",
}


def expand(text: str) -> list[dict[str, Any]]:
    """The moves of a Betza string (`variantkit.betza.expand`) as the plain
    mappings this module edits and writes out as YAML."""
    return cast(list[dict[str, Any]], expand_betza(text))


class Unsupported(Exception):
    """A key (or a combination) the language cannot express."""

    def __init__(self, entry: Entry | None, reason: str) -> None:
        super().__init__(reason)
        self.entry = entry
        self.reason = reason


@dataclass
class PieceType:
    """One Fairy-Stockfish piece type as the section leaves it."""

    kind: str            # a PIECE_TYPES name, customPieceN, king, or "doc:<name>"
    letter: str          # lower case
    betza: str = ""


@dataclass
class Settings:
    """The values Fairy-Stockfish would hold for a section: the ini keys of
    the section and its in-file parents over the root's known values."""

    entries: dict[str, Entry]
    facts: dict[str, str] | None       # the root's values; None: not known here
    parentless: bool
    sections: list[Section] = field(default_factory=list)

    def value(self, key: str) -> str:
        if key in self.entries:
            return self.entries[key].value
        if self.facts is not None and key in self.facts:
            return self.facts[key]
        if self.parentless and key in ("promotionPieceTypes",):
            return "-"
        return DEFAULTS.get(key, "")

    def changed(self, *names: str) -> bool:
        """Whether the section sets one of `names` to other than the root's value."""
        for key in names:
            if key in self.entries:
                if self.facts is None and not self.parentless:
                    return True
                root = (self.facts or {}).get(key, DEFAULTS.get(key, ""))
                if self.parentless and key == "promotionPieceTypes":
                    root = "-"
                if self.entries[key].value.strip() != root:
                    return True
        return False

    def entry(self, *names: str) -> Entry | None:
        for key in names:
            if key in self.entries:
                return self.entries[key]
        return None

    def flag(self, key: str) -> bool:
        return self.value(key).strip() == "true"

    def number(self, key: str) -> int:
        text = self.value(key).strip()
        found = whole_number(text)
        if found is None:
            raise Unsupported(self.entry(key), f"{key} = {shorten(text)}: not a number")
        return found


def whole_number(text: str, digits: int = 4) -> int | None:
    """`text` as a number of at most `digits` digits 0-9, else None: other
    scripts' digits (`٣`, `²`), which `str.isdigit` and `\\d` take, are no
    number to Fairy-Stockfish, and a long one is no count it reads."""
    if not 1 <= len(text) <= digits or not all("0" <= char <= "9" for char in text):
        return None
    return int(text)


@dataclass
class Translation:
    """The YAML declaration being built for one section."""

    name: str
    settings: Settings
    data: dict[str, Any]
    files: int = 8
    ranks: int = 8
    types: dict[str, PieceType] = field(default_factory=dict)   # kind -> type
    names: dict[str, str] = field(default_factory=dict)          # kind -> YAML piece name
    region_names: dict[frozenset[Cell], str] = field(default_factory=dict)
    types_changed: bool = False
    # The promotion choices per side, as piece types: Fairy-Stockfish reads
    # them when their section is read, and a type removed later leaves them.
    choices: dict[str, list[str]] = field(default_factory=dict)
    # The `+X` forms of `promotedPieceType` by the piece whose moves they
    # take: in Fairy-Stockfish they are that piece's type (its royalty, its
    # extinction, its flag).
    forms_of: dict[str, list[str]] = field(default_factory=dict)
    # What the import of the whole file may still spend compiling.
    budget: Budget = field(default_factory=lambda: Budget(IMPORT_UNITS))

    # -- cells and regions ------------------------------------------------------
    def cells(self, key: str) -> frozenset[Cell]:
        """A Fairy-Stockfish square list (`*1 *2 a3 b*`) on this board."""
        text = self.settings.value(key)
        found: set[Cell] = set()
        for token in text.split():
            if token == "-":
                break
            if m := re.fullmatch(r"\*([0-9]{1,2})", token):
                found |= {(f, int(m.group(1)) - 1) for f in range(self.files)}
            elif m := re.fullmatch(r"([a-z])\*", token):
                found |= {(ord(m.group(1)) - 97, r) for r in range(self.ranks)}
            elif m := re.fullmatch(r"([a-z])([0-9]{1,2})", token):
                found.add((ord(m.group(1)) - 97, int(m.group(2)) - 1))
            else:
                raise Unsupported(self.settings.entry(key),
                                  f"{key} = {shorten(text)}: {shorten(token)!r} is not a square")
        return frozenset(c for c in found if c[0] < self.files and c[1] < self.ranks)

    def region(self, cells: frozenset[Cell], purpose: str) -> str:
        """The name of a region holding exactly `cells`, declared if new."""
        if cells in self.region_names:
            return self.region_names[cells]
        ranks = sorted({r for _, r in cells})
        whole = cells == {(f, r) for f in range(self.files) for r in ranks}
        if whole and ranks:
            name = "rank-" + "-".join(str(r + 1) for r in ranks)
            spec: Any = {"ranks": [r + 1 for r in ranks]}
        else:
            name = purpose
            spec = [cell_name(c) for c in sorted(cells, key=lambda c: (c[1], c[0]))]
        regions = self.data.setdefault("board", {}).setdefault("regions", {})
        while name in regions and regions[name] != spec:
            name += "-2"
        regions[name] = spec
        self.region_names[cells] = name
        return name

    def sided(self, white: frozenset[Cell], black: frozenset[Cell], purpose: str) -> dict[str, str]:
        return {"white": self.region(white, f"white-{purpose}"),
                "black": self.region(black, f"black-{purpose}")}

    def with_forms(self, names: list[str]) -> list[str]:
        """Pieces by name and the promoted forms that are of their type."""
        return names + [form for name in names for form in self.forms_of.get(name, [])]

    def piece(self, letter: str) -> str:
        """The YAML name of the piece a Fairy-Stockfish letter stands for."""
        for kind, piece in self.types.items():
            if piece.letter == letter.lower():
                return self.names[kind]
        raise Unsupported(None, f"no piece has the letter {letter!r}")

    def kinds(self, key: str, side: str | None = None) -> set[str]:
        """The piece types of a type set whose default is the pawn type
        (`enPassantTypes`, `nMoveRuleTypes`, `promotionPawnTypes`;
        `pawnTypes` sets them all), for one side (`nMoveRuleTypesBlack`
        overrides `nMoveRuleTypes`) or, where the sides differ, for both:
        a type in one side's set only must then be one the other side can
        never own, so that a piece-wide rule means the same."""
        if side is None:
            white, black = self.kinds(key, "white"), self.kinds(key, "black")
            if white != black:
                for one, other in ((white, "black"), (black, "white")):
                    if one - self.kinds(key, other) & self.owned(other):
                        raise Unsupported(self.settings.entry(f"{key}White", f"{key}Black"),
                                          f"{key}White and {key}Black differ on a piece "
                                          "both sides can have: not supported")
            return white | black
        for name in (f"{key}{side.title()}", key, "pawnTypes"):
            if name in self.settings.entries:
                letters = self.settings.entries[name].value.lower()
                return {k for k, p in self.types.items() if p.letter in letters}
        if key in self.settings.entries or (self.settings.facts or {}).get(key):
            letters = self.settings.value(key).lower()
            return {k for k, p in self.types.items() if p.letter in letters}
        return {"pawn"} & self.types.keys()

    def owned(self, side: str) -> set[str]:
        """The types one side may ever own: those it starts with (on the
        board or in hand), promotes to, or takes into its hand."""
        if self.settings.flag("pieceDrops") and self.settings.flag("capturesToHand"):
            return set(self.types)
        setup = self.settings.value("startFen").split()[0] if "startFen" in \
            self.settings.entries else str(self.data.get("setup", CHESS_START)).split()[0]
        letters = {c.lower() for c in setup if c.isalpha() and c.isupper() == (side == "white")}
        return {k for k, p in self.types.items() if p.letter in letters} | \
            set(self.choices.get(side, []))

    def pieces(self, key: str, allow_all: bool = False) -> list[str]:
        """The piece names of a Fairy-Stockfish piece list (`qrbn`, `*`)."""
        names = []
        for letter in self.settings.value(key).replace(" ", ""):
            if letter == "-":
                break
            if letter == "*" and allow_all:
                return ["*"]
            # Fairy-Stockfish keeps a type's letter in its lists after the
            # type is gone (a pawnless game's default pawn type): skipped.
            if any(p.letter == letter.lower() for p in self.types.values()):
                names.append(self.piece(letter))
        return names


def cell_name(cell: Cell) -> str:
    return f"{chr(97 + cell[0])}{cell[1] + 1}"


def rank_cells(files: int, *ranks: int) -> frozenset[Cell]:
    return frozenset((f, r) for f in range(files) for r in ranks)


# --- the section's settings ---------------------------------------------------------


def settings_of(sections: list[Section], root: str | None) -> Settings:
    entries: dict[str, Entry] = {}
    for section in sections:
        entries.update(section.entries)
    facts = keys.PARENTS.get(root) if root is not None else {}
    return Settings(entries, facts, root is None, sections)


def check_keys(ini: IniFile, section: Section, settings: Settings) -> list[Problem]:
    """Warnings for keys Fairy-Stockfish would ignore; problems for keys the
    language cannot express (each at its line)."""
    found = []
    for entry in section.entries.values():
        if not keys.known(entry.key):
            near = keys.suggestion(entry.key)
            hint = f" (did you mean {near}?)" if near else ""
            found.append(Problem(f"{entry.key} = {shorten(entry.value)}: unknown key, which "
                                 f"Fairy-Stockfish ignores{hint}", "fsf-unknown-key",
                                 ini.source, entry.line, severity="warning"))
    for entry in settings.entries.values():
        if entry.key in keys.UNSUPPORTED and settings.changed(entry.key):
            found.append(Problem(f"{entry.key} = {shorten(entry.value)}: not supported",
                                 "fsf-unsupported", ini.source, entry.line))
    return found


# --- the translation ------------------------------------------------------------------


def base_data(root: str | None) -> dict[str, Any]:
    """The declaration the section starts from."""
    if root is not None:
        return copy.deepcopy(load_document(root).data)
    return {"variantkit": 1, "name": "", "board": {"grid": {"files": 8, "ranks": 8}},
            "pieces": {}, "setup": CHESS_START,
            "end": {"checkmate": "loss", "stalemate": "draw", "repetition": 3,
                    "move-rule": 50, "draw-timing": "on-claim"}}


def root_types(data: dict[str, Any], settings: Settings) -> tuple[dict[str, PieceType],
                                                                   dict[str, str]]:
    """The root's piece types, each with its YAML name."""
    types: dict[str, PieceType] = {}
    names: dict[str, str] = {}
    by_letter = {spec.get("letter", "").lower(): name for name, spec in data["pieces"].items()
                 if len(spec.get("letter", "")) == 1}
    if settings.facts is not None and not settings.parentless:
        known = dict(CHESS_LETTERS)
        for kind in list(keys.PIECE_TYPES) + ["king"]:
            value = settings.facts.get(kind)
            if value == "-":
                known.pop(kind, None)
            elif value:
                known[kind] = value[0]
        # The types the root's promoted forms take (minishogi's dragon
        # horse) are types of its own, whether or not a piece shows them.
        targets = {item.partition(":")[2] for item in
                   settings.facts.get("promotedPieceType", "").split()}
        for kind, letter in known.items():
            if letter in by_letter:
                types[kind] = PieceType(kind, letter, keys.PIECE_TYPES.get(kind, "K"))
                names[kind] = by_letter.pop(letter)
            elif letter in targets:
                types[kind] = PieceType(kind, letter, keys.PIECE_TYPES.get(kind, "K"))
    for letter, name in by_letter.items():
        types[f"doc:{name}"] = PieceType(f"doc:{name}", letter)
        names[f"doc:{name}"] = name
    return types, names


def letter_kinds(t: Translation, text: str) -> list[str]:
    """The types a Fairy-Stockfish piece list names now (unknown letters end it)."""
    kinds = []
    for letter in text.replace(" ", "").lower():
        kind = next((k for k, p in t.types.items() if p.letter == letter), None)
        if kind is None:
            break
        kinds.append(kind)
    return kinds


def apply_pieces(t: Translation) -> bool:
    """Lay the piece keys of each section over the root's types, in
    Fairy-Stockfish's order; True when a type was added, removed or changed."""
    s = t.settings
    root = (s.facts or {}).get("promotionPieceTypes", "-" if s.parentless else "qrbn")
    t.choices = {side: letter_kinds(t, root) for side in SIDES}
    changed = False
    order = list(keys.PIECE_TYPES) + [f"customPiece{i}" for i in range(1, keys.CUSTOM_PIECES + 1)]
    for section in s.sections:
        for kind in order + ["king"]:
            if kind in section.entries:
                changed |= apply_piece(t, kind, section.entries[kind])
        for side in SIDES:
            for key in ("promotionPieceTypes", f"promotionPieceTypes{side.title()}"):
                if key in section.entries:
                    t.choices[side] = letter_kinds(t, section.entries[key].value)
    return changed


def apply_piece(t: Translation, kind: str, entry: Entry) -> bool:
    """One piece key: a letter (and Betza) for the type, or `-` to remove it."""
    value = entry.value.strip()
    if not value or not value[0].isalpha():
        if kind not in t.types:
            return False
        remove_type(t, kind)
        return True
    letter = value[0].lower()
    betza = value[2:].strip() if len(value) > 2 else keys.PIECE_TYPES.get(kind, "K")
    if len(betza) > MAX_BETZA_CHARS:
        # (before any pattern reads it)
        raise Unsupported(entry, f"{kind} = {shorten(value)}: a Betza string of more than "
                          f"{MAX_BETZA_CHARS} characters")
    if kind.startswith("customPiece") and len(value) < 3:
        raise Unsupported(entry, f"{kind} = {shorten(value)}: no Betza moves")
    old = t.types.get(kind)
    if old is not None and (old.letter, old.betza) == (letter, betza):
        return False
    for other in [k for k, p in t.types.items() if p.letter == letter and k != kind]:
        remove_type(t, other)
    t.types[kind] = PieceType(kind, letter, betza)
    t.names.pop(kind, None)
    return True


def remove_type(t: Translation, kind: str) -> None:
    del t.types[kind]
    for side in SIDES:
        t.choices[side] = [k for k in t.choices[side] if k != kind]


def piece_name(kind: str) -> str:
    if kind.startswith("customPiece"):
        return "custom-piece-" + kind[len("customPiece"):]
    return re.sub(r"(?<!^)([A-Z])", r"-\1", kind).lower()


def write_pieces(t: Translation) -> None:
    """The YAML pieces for the section's types: the root's untouched ones kept."""
    pieces = t.data["pieces"]
    kept = {t.names[k] for k in t.types if k in t.names}
    for name in list(pieces):
        letter = pieces[name].get("letter", "")
        if name not in kept and (len(letter) == 1 or letter[:1].lower() not in
                                 {p.letter for p in t.types.values()}):
            del pieces[name]
    for kind, piece in sorted(t.types.items(), key=lambda item: order_of(item[0])):
        if kind in t.names:
            continue
        name = piece_name(kind)
        while name in pieces:
            name += "-" + piece.letter
        t.names[kind] = name
        pieces[name] = {"letter": piece.letter.upper()}


def order_of(kind: str) -> int:
    return keys.type_order(kind) if not kind.startswith("doc:") else -1


def moves_of(t: Translation, kind: str) -> None:
    """Give a new or changed type its moves (Betza where the language has it)."""
    piece = t.types[kind]
    spec = t.data["pieces"][t.names[kind]]
    for key in ("moves", "betza"):
        spec.pop(key, None)
    if kind == "king":
        spec["royal"] = True
    if kind in keys.GLYPHS and piece.betza == keys.PIECE_TYPES.get(kind, "K"):
        spec["glyph"] = keys.GLYPHS[kind]
    if kind == "pawn":
        spec["moves"] = pawn_moves(t)
        return
    if kind == "soldier" and piece.betza == keys.PIECE_TYPES[kind] and \
            t.settings.number("soldierPromotionRank") > 1:
        spec["moves"] = soldier_moves(t)
        return
    if kind == "janggiCannon" and piece.betza == keys.PIECE_TYPES[kind]:
        # Measured: it never hops over nor captures a janggi cannon of
        # either side, and keeps off the palace diagonals without
        # `diagonalLines`.
        spec["moves"] = [{"hop": "orthogonal", "cannot-hop": [t.names[kind]],
                          "cannot-capture": [t.names[kind]]}]
        return
    betza = lame_as_played(piece.betza)
    if not betza:
        spec["moves"] = []      # Fairy-Stockfish's immobile type
    elif re.search(r"[ei]", betza):
        spec["moves"] = special_betza(t, kind, betza)
    else:
        try:
            expand(betza)
        except DeclarationError as error:   # located at its key, not at the section
            raise Unsupported(t.settings.entry(kind), f"{kind} = {shorten(piece.betza)}: "
                              f"{error}") from None
        spec["betza"] = betza


# The leaps Fairy-Stockfish makes lame with Betza's `n`.
LAME_LEAPS = frozenset("DNAZ")


def lame_as_played(betza: str) -> str:
    """A Betza string with its `n` atoms as Fairy-Stockfish plays them
    (measured): lame on a single D, N, A or Z leap; ignored on a rider
    (`nR`, `nNN`, `nWW`, `nK2`); no move at all on any other leap or
    rider (`nW`, `nC`, `nH`, `nDD`: elgam's `nC` never moves)."""
    chunks = ATOM.findall(betza)
    if "n" not in betza or "".join(a + b + c for a, b, c in chunks) != betza:
        return betza
    kept = []
    for mods, atom, more in chunks:
        if "n" in mods:
            rider = atom in "RBQ" or bool(more)
            if rider and atom in "WFNRBQK":
                mods = mods.replace("n", "")
            elif rider or atom not in LAME_LEAPS:
                continue
        kept.append(mods + atom + more)
    return "".join(kept)


def double_step(t: Translation) -> tuple[frozenset[Cell], frozenset[Cell]]:
    if not t.settings.flag("doubleStep"):
        return frozenset(), frozenset()
    return t.cells("doubleStepRegionWhite"), t.cells("doubleStepRegionBlack")


def special_betza(t: Translation, kind: str, betza: str) -> list[dict[str, Any]]:
    """Moves for a Betza string with Fairy-Stockfish's `e` (en passant) or `i`
    (from the double-step region), which the language writes as modifiers."""
    chunks = ATOM.findall(betza)
    if "".join(a + b + c for a, b, c in chunks) != betza:
        raise Unsupported(t.settings.entry(kind), f"{kind} = {shorten(betza)}: not supported")
    white, black = double_step(t)
    passing = kind in t.kinds("enPassantTypes") or "e" in betza
    moves: list[dict[str, Any]] = []
    for mods, atom, more in chunks:
        plain = mods.replace("e", "").replace("i", "")
        try:
            expanded = expand(plain + atom + more)
        except DeclarationError as error:
            raise Unsupported(t.settings.entry(kind), f"{kind} = {shorten(betza)}: "
                              f"{error}") from None
        for move in expanded:
            if "e" in mods:
                move["en-passant"] = "capture"
            if "i" in mods:
                if not white and not black:
                    continue
                move["from-region"] = t.sided(white, black, "double-step")
                if passing and "ride" in move:
                    move["en-passant"] = "target"
            moves.append(move)
    return moves


def pawn_moves(t: Translation) -> list[dict[str, Any]]:
    """Fairy-Stockfish's pawn: a step forward, the double (and triple) step
    from its regions, diagonal captures, en passant."""
    moves: list[dict[str, Any]] = [{"step": "forward", "only": "move"}]
    # Fairy-Stockfish's own pawn leaves an en passant cell whatever
    # `enPassantTypes` says (the key governs pieces defined in Betza).
    steps = [(2, double_step(t), "double-step"),
             (3, (t.cells("tripleStepRegionWhite"), t.cells("tripleStepRegionBlack")),
              "triple-step")]
    for length, (white, black), region in steps:
        if not white and not black:
            continue
        ride = {"ride": "forward", "range": [length, length], "only": "move"}
        passing, promoting = promoting_steps(t, length, {"white": white, "black": black})
        moves.append({**ride, "from-region": t.sided(passing["white"], passing["black"], region),
                      "en-passant": "target"})
        if promoting["white"] or promoting["black"]:
            moves.append({**ride, "from-region": t.sided(promoting["white"], promoting["black"],
                                                         f"promoting-{region}")})
    moves.append({"step": "forward-diagonal", "only": "capture", "en-passant": "capture"})
    return moves


def promoting_steps(t: Translation, length: int, starts: dict[str, frozenset[Cell]]) \
        -> tuple[dict[str, frozenset[Cell]], dict[str, frozenset[Cell]]]:
    """The start cells of a pawn's long step split by where it lands: outside
    the promotion region, and in it.  Measured: a step that promotes leaves
    Fairy-Stockfish no en passant cell (epicatomic's e7e5b), so those starts
    get a step without one; where the pawn may also stay a pawn there (whose
    step leaves one) the language has no form for it."""
    promotes = "pawn" in t.kinds("promotionPawnTypes")
    regions = {"white": t.cells("promotionRegionWhite"), "black": t.cells("promotionRegionBlack")}
    forward = {"white": 1, "black": -1}
    promoting = {side: frozenset(cell for cell in starts[side] if promotes and
                                 (cell[0], cell[1] + length * forward[side]) in regions[side])
                 for side in SIDES}
    if (promoting["white"] or promoting["black"]) and (
            not t.settings.flag("mandatoryPawnPromotion") or
            any(item.partition(":")[0].lower() == t.types["pawn"].letter
                for item in promoted_types(t))):
        raise Unsupported(t.settings.entry("mandatoryPawnPromotion", "promotedPieceType",
                                           "doubleStepRegionWhite", "doubleStepRegionBlack"),
                          "a pawn's double step into the promotion region where it may stay a "
                          "pawn: not supported")
    return {side: starts[side] - promoting[side] for side in SIDES}, promoting


def soldier_moves(t: Translation) -> list[dict[str, Any]]:
    """Fairy-Stockfish's soldier: a step forward, and a step sideways from
    `soldierPromotionRank` on, counted from its side's own edge (xiangqi's
    soldier across the river)."""
    first = t.settings.number("soldierPromotionRank") - 1
    moves: list[dict[str, Any]] = [{"step": "forward"}]
    if first >= t.ranks:
        return moves
    white = rank_cells(t.files, *range(first, t.ranks))
    black = rank_cells(t.files, *range(0, t.ranks - first))
    return moves + [{"step": "sideways",
                     "from-region": t.sided(white, black, "soldier-sideways")}]


def write_sides(t: Translation) -> None:
    """Fairy-Stockfish turns Black's pieces half a circle: where a piece's
    Betza tells its left from its right, Black's is `turned: true`."""
    if any("l" in mods or "r" in mods for piece in t.types.values()
           for mods, _, _ in ATOM.findall(piece.betza)):
        sides = t.data.setdefault("sides", {"white": {"forward": "n"}})
        sides["black"] = {**sides.get("black", {"forward": "s"}), "turned": True}


def drawn_pieces(t: Translation) -> None:
    """The root's piece characters (`look`) for the pieces still there: the
    root's promoted forms are written again under new names."""
    characters = t.data.get("look", {}).get("pieces", {}).get("characters", {})
    for name in [n for n in characters if n not in t.data["pieces"]]:
        del characters[name]


def root_regions(t: Translation) -> None:
    """The root's regions of whole ranks by their cells: rules written
    again over its board use its names (shogi's camps), not new ones."""
    for name, spec in t.data.get("board", {}).get("regions", {}).items():
        if isinstance(spec, dict) and set(spec) == {"ranks"}:
            t.region_names.setdefault(rank_cells(t.files, *(r - 1 for r in spec["ranks"])), name)


def write_board(t: Translation) -> None:
    grid = {"files": t.files, "ranks": t.ranks}
    t.data["board"] = {"grid": grid, "regions": {}}
    t.region_names.clear()
    # The root's drawing (xiangqi's river, palaces and point marks) names
    # its cells and regions: another board is drawn plain.
    t.data.pop("look", None)


def fen_fields(t: Translation) -> list[str]:
    """The start position's fields, read by position as Fairy-Stockfish reads
    them (a field that does not fit its place counts as absent)."""
    # The root's start position unless the section gives one.
    text = t.settings.entries["startFen"].value if "startFen" in t.settings.entries \
        else str(t.data.get("setup", CHESS_START))
    fields = text.split()
    if not fields:
        raise Unsupported(t.settings.entry("startFen"), "startFen is empty")
    rest = fields[1:] + [""] * 6
    checks = None
    if re.fullmatch(r"[0-9]+\+[0-9]+", rest[1]):
        # In place of the castling field, Fairy-Stockfish reads the check
        # count (`w 7+7 0 1`) as standing for castling and en passant too.
        checks = rest.pop(1)
        rest[1:1] = ["-", "-"]
    if "+" in rest[2]:
        raise Unsupported(t.settings.entry("startFen"), "startFen: a check count in place "
                          "of the en passant field: not supported")
    side = rest[0] if rest[0] in ("w", "b") else "w"
    castle = rest[1] if re.fullmatch(r"[A-Za-z]+|-", rest[1]) else "-"
    passant = rest[2] if re.fullmatch(r"[a-z][0-9]+|-", rest[2]) else "-"
    rest = rest[3:]
    if checks is None and "+" in rest[0]:
        checks = rest.pop(0)
    # (Fairy-Stockfish reads the counters as numbers of digits 0-9: `²` is none.)
    half = rest[0] if re.fullmatch("[0-9]+", rest[0]) else "0"
    full = rest[1] if re.fullmatch("[0-9]+", rest[1]) else "1"
    placement = fields[0]
    if (t.settings.flag("pieceDrops") or t.settings.flag("seirawanGating")) \
            and "[" not in placement:
        placement += "[]"
    out = [placement, side, castle, passant]
    if checks is not None:
        out.append(checks)
    return out + [half, full]


def write_castling(t: Translation, fields: list[str]) -> None:
    """Castling entries for the rights the start position grants, found as
    Fairy-Stockfish finds them: the king where it stands on its castling rank,
    the outermost rook of each wing.  Rights it cannot use are dropped from
    the start position, as Fairy-Stockfish drops them."""
    entries = []
    if t.settings.flag("castling") and fields[2] != "-":
        board = board_of(t, fields[0])
        king = (t.settings.value("castlingKingPiece").strip() or "k")[0].lower()
        rooks = t.settings.value("castlingRookPieces").lower()
        if t.settings.flag("chess960"):
            # Chess960 castling (`free-castling`) is written on the standard
            # array, whatever the start: the king on its castling file, the
            # rooks in the corners.
            board = standard_array(t, king, rooks[:1])
        to = {"k": castling_file(t, "castlingKingsideFile"),
              "q": castling_file(t, "castlingQueensideFile")}
        for right in fields[2]:
            if gating_file(t, right):
                continue
            entry = castling_entry(board, right, king, rooks, to, t)
            if entry is not None:
                entries.append(entry)
    if t.settings.flag("oppositeCastling"):
        # Castling takes the opponent's right on the same wing away
        # (measured: pyffish writes `b q` after e1g1 from `KQkq`).
        rights = {e["right"] for e in entries}
        for e in entries:
            if e["right"].swapcase() in rights:
                e["cancels"] = [e["right"].swapcase()]
    t.data["castling"] = entries
    # (a gating right names the file of a piece that may still gate)
    kept = {e["right"] for e in entries}
    fields[2] = "".join(r for r in fields[2] if r in kept or gating_file(t, r)) or "-"


def gating_file(t: Translation, right: str) -> bool:
    """Whether a letter of the castling field is a gating right (Seirawan
    chess's `B`: the piece on b1 may still gate) rather than a castling."""
    return t.settings.flag("seirawanGating") and right.lower() not in "kq"


def standard_array(t: Translation, king: str, rook: str) -> dict[Cell, str]:
    """The castling pieces where chess has them, on each side's castling rank."""
    rank = t.settings.number("castlingRank") - 1
    king_file = castling_file(t, "castlingKingFile")
    board: dict[Cell, str] = {}
    for row, case in ((rank, str.upper), (t.ranks - 1 - rank, str.lower)):
        board.update({(king_file, row): case(king), (0, row): case(rook),
                      (t.files - 1, row): case(rook)})
    return board


def castling_file(t: Translation, key: str) -> int:
    """The file (0 for a) a castling key names by its first letter."""
    text = t.settings.value(key).strip()
    if not "a" <= text[:1] <= "z":
        raise Unsupported(t.settings.entry(key), f"{key} = {shorten(text)}: not a file")
    return ord(text[0]) - 97


def castling_entry(board: dict[Cell, str], right: str, king: str, rooks: str,
                   to: dict[str, int], t: Translation) -> dict[str, Any] | None:
    """One right's entry, or None when its king or rook is missing."""
    white = right.isupper()
    # `castlingRank` counts from each side's own edge.
    rank = t.settings.number("castlingRank") - 1
    rank = rank if white else t.ranks - 1 - rank
    wing = right.lower()
    if wing not in "kq":
        raise Unsupported(t.settings.entry("startFen"), f"castling right {right!r} names a "
                          "file: not supported")

    def own(cell: Cell, letters: str) -> bool:
        piece = board.get(cell, " ")
        return piece.lower() in letters and piece.isupper() == white

    king_file = next((f for f in range(t.files) if own((f, rank), king)), None)
    if king_file is None:
        return None
    files = range(t.files - 1, king_file, -1) if wing == "k" else range(0, king_file)
    rook = next((f for f in files if own((f, rank), rooks)), None)
    if rook is None:
        return None
    rook_to = to[wing] - 1 if wing == "k" else to[wing] + 1
    entry = {"right": right, "king": [cell_name((king_file, rank)), cell_name((to[wing], rank))],
             "rook": [cell_name((rook, rank)), cell_name((rook_to, rank))]}
    if abs(to[wing] - king_file) < 2:
        # Fairy-Stockfish writes it as the king onto its rook, since the
        # king's own cells would read as its step (or no move).
        entry["written"] = "king-onto-rook"
    return entry


def board_of(t: Translation, placement: str) -> dict[Cell, str]:
    rows = placement.split("[")[0].split("/")
    board: dict[Cell, str] = {}
    for index, row in enumerate(rows):
        rank, file = t.ranks - 1 - index, 0
        for count, letter in re.findall(r"([0-9]+)|([A-Za-z])", row.replace("~", "")):
            if count:
                empty = whole_number(count)
                if empty is None:
                    raise Unsupported(t.settings.entry("startFen"), f"startFen: {shorten(count)} "
                                      "empty cells in a row: not a count of a board's cells")
                file += empty
            else:
                board[(file, rank)] = letter
                file += 1
    return board


def write_promotion(t: Translation) -> None:
    """The promotion rules, written again from the section's values."""
    rules: list[dict[str, Any]] = []
    regions = {"white": t.cells("promotionRegionWhite"), "black": t.cells("promotionRegionBlack")}
    pawns = [t.names[k] for k in sorted(t.kinds("promotionPawnTypes"), key=order_of)]
    # Under dropLoop a promoted piece is the piece it became, and goes to the
    # hand as that piece (pyffish writes it without `~`): the choices are
    # the pieces themselves, and the root's `X~` forms go.
    loop = t.settings.flag("dropLoop")
    to_hand = t.settings.flag("capturesToHand") and not loop
    if loop:
        for name in [n for n, spec in t.data["pieces"].items() if spec["letter"].endswith("~")]:
            del t.data["pieces"][name]
    choices = {side: [t.names[k] for k in t.choices[side]] for side in SIDES}
    if to_hand:
        choices = {side: [promoted_form(t, name, pawns[0] if pawns else None) for name in names]
                   for side, names in choices.items()}
    promoted = promoted_types(t)
    offered = bool(choices["white"] or choices["black"])
    # With no choice and promotion compulsory, Fairy-Stockfish makes no move
    # of such a pawn into its region (it still attacks there): `choices: []`
    # says the same.  A pawn promoted shogi-style is left to that rule.
    shogi_bases = {t.piece(item.partition(":")[0]) for item in promoted}
    barred = not offered and t.settings.flag("mandatoryPawnPromotion") and \
        not shogi_bases & set(pawns)
    if pawns and (offered or barred) and (regions["white"] or regions["black"]):
        rule: dict[str, Any] = {"pieces": pawns,
                                "regions": t.sided(regions["white"], regions["black"],
                                                   "promotion")}
        rule["choices"] = choices["white"] if choices["white"] == choices["black"] else choices
        if not t.settings.flag("mandatoryPawnPromotion"):
            rule["optional"] = dict(rule["regions"])
        limit = t.settings.value("promotionLimit").split()
        if limit:
            rule["limit"] = {}
            for item in limit:
                name = t.piece(item.partition(":")[0])
                number = limit_count(t, item)
                if to_hand:
                    # Fairy-Stockfish counts the promoted form with the
                    # piece itself (both are its type on the board).
                    form = promoted_form(t, name, pawns[0])
                    rule["limit"][form] = number
                    rule.setdefault("limit-also-counts", {})[form] = [name]
                else:
                    rule["limit"][name] = number
        rules.append(rule)
    if promoted and loop and t.settings.flag("capturesToHand"):
        raise Unsupported(t.settings.entry("dropLoop"), "dropLoop with promotedPieceType: "
                          "not supported")
    if promoted:
        shogi = shogi_rules(t, promoted, regions)
        both = [name for name in rules[0]["pieces"] if any(
            name in rule["promotes-to"] for rule in shogi)] if rules else []
        rules.extend(shogi)
        if both:
            rules[:] = promoted_both_ways(t, rules, both, regions)
    if rules:
        t.data["promotion"] = rules[0] if len(rules) == 1 else rules
    else:
        t.data.pop("promotion", None)


def promoted_both_ways(t: Translation, rules: list[dict[str, Any]], names: list[str],
                       regions: dict[str, frozenset[Cell]]) -> list[dict[str, Any]]:
    """The rules again, for pieces that promote both as pawns (to the
    promotion choices) and to a promoted form of their own: measured
    (elgam's soldier), Fairy-Stockfish offers both, and with the pawn's
    promotion compulsory no move without one.  Each such piece gets a rule
    whose choices hold its form too, where it promotes on entering or moving
    within the region; the language has no form for a piece that may also
    leave it, or stay as it is."""
    entry = t.settings.entry("promotedPieceType")
    if not t.settings.flag("mandatoryPawnPromotion"):
        raise Unsupported(entry, "a piece promoting both as a pawn and to its promotedPieceType "
                          "without mandatoryPawnPromotion: not supported")
    pawn_rule, *rest = rules
    for name in names:
        if may_leave(t, name, regions):
            raise Unsupported(entry, f"{name} promoting both as a pawn and to its "
                              "promotedPieceType, and able to leave the region: not supported")
        forms = [rule["promotes-to"].pop(name) for rule in rest if name in rule["promotes-to"]]
        choices = pawn_rule["choices"]
        sided = choices if isinstance(choices, dict) else {side: choices for side in SIDES}
        rest.append({**copy.deepcopy(pawn_rule), "pieces": [name],
                     "choices": {side: [*sided[side], *forms] for side in SIDES}})
    pawn_rule["pieces"] = [name for name in pawn_rule["pieces"] if name not in names]
    return [rule for rule in [pawn_rule, *rest]
            if rule.get("pieces") or rule.get("promotes-to")]


def may_leave(t: Translation, name: str, regions: dict[str, frozenset[Cell]]) -> bool:
    """Whether a piece could move out of its side's promotion region: unless
    each region is its far ranks and the piece never moves backwards."""
    spec = t.data["pieces"][name]
    try:
        moves = spec["moves"] if "moves" in spec else expand(spec.get("betza", ""))
    except DeclarationError:
        return True
    for move in moves:
        kind = next((k for k in ("step", "ride") if k in move), None)
        found = line_vectors(move[kind]) if kind else None
        if found is None or any(y < 0 for _, y in found):
            return True
    for side, cells in regions.items():
        ranks = {r for _, r in cells}
        far = range(min(ranks), t.ranks) if side == "white" else range(0, max(ranks) + 1)
        if not ranks or cells != rank_cells(t.files, *far):
            return True
    return False


def promoted_types(t: Translation) -> list[str]:
    """`promotedPieceType` as Fairy-Stockfish reads it: each `x:y` sets the
    promoted type of one type, over the root's and earlier sections' values
    (measured: gorogoro's pawn still promotes under `l:g n:g`)."""
    by_letter: dict[str, str] = {}
    texts = [(t.settings.facts or {}).get("promotedPieceType", "")] + \
        [s.entries["promotedPieceType"].value for s in t.settings.sections
         if "promotedPieceType" in s.entries]
    for text in texts:
        for item in text.split():
            by_letter[item.partition(":")[0].lower()] = item
    # A type the section removed promotes no more (shogi's lance under
    # `lance = -`).
    return [item for letter, item in by_letter.items() if letter_kinds(t, letter)]


def promoted_form(t: Translation, name: str, pawn: str | None) -> str:
    """The piece a pawn becomes when captures join hands: the same moves,
    written `Q~`, going back to the hand as the pawn."""
    spec = t.data["pieces"][name]
    form = f"promoted-{name}"
    t.data["pieces"][form] = {"letter": spec["letter"] + "~",
                              **{k: v for k, v in spec.items() if k in ("glyph", "value")},
                              **moves_copy(spec)}
    if pawn is not None:
        t.data["pieces"][form]["demotes-to"] = pawn
    return form


def moves_copy(spec: dict[str, Any]) -> dict[str, Any]:
    return {k: copy.deepcopy(v) for k, v in spec.items() if k in ("moves", "betza")}


def shogi_rules(t: Translation, promoted: list[str],
                regions: dict[str, frozenset[Cell]]) -> list[dict[str, Any]]:
    """Shogi-style promotion: each piece its own promoted type, written `+X`."""
    entry = t.settings.entry("promotedPieceType")
    pawn_forms: dict[str, str] = {}
    piece_forms: dict[str, str] = {}
    pawn_letter = t.types["pawn"].letter if "pawn" in t.types else None
    for item in promoted:
        letter, _, target = item.partition(":")
        if not target or target == "-":
            continue
        base, into = t.piece(letter), t.piece(target)
        form = f"{base}-promoted"
        spec = t.data["pieces"][into]
        t.data["pieces"][form] = {"letter": "+" + letter.upper(), **moves_copy(spec)}
        t.forms_of.setdefault(into, []).append(form)
        if t.settings.flag("capturesToHand"):
            t.data["pieces"][form]["demotes-to"] = base
        (pawn_forms if letter.lower() == pawn_letter else piece_forms)[base] = form
        if t.settings.flag("dropPromoted") and t.settings.flag("pieceDrops"):
            drops = t.data["pieces"][base].setdefault("drops", {})
            drops["also-as"] = [*drops.get("also-as", []), form]
    if not pawn_forms and not piece_forms:
        raise Unsupported(entry, "promotedPieceType: no promotion")
    zone = t.sided(regions["white"], regions["black"], "promotion")
    limits = shogi_limits(t, promoted, {**pawn_forms, **piece_forms})
    if t.settings.flag("pieceDemotion"):
        # Measured: a promoted piece turns back where a piece would promote,
        # under mandatoryPiecePromotion even a pawn's promoted form.
        piece_forms.update({form: base for base, form in
                            [*piece_forms.items(), *pawn_forms.items()]})
    rules = []
    for forms, mandatory in ((piece_forms, "mandatoryPiecePromotion"),
                             (pawn_forms, "mandatoryPawnPromotion")):
        if not forms:
            continue
        rule: dict[str, Any] = {"regions": dict(zone), "leaving": True, "promotes-to": forms}
        if forms is pawn_forms:
            # Fairy-Stockfish's en passant capture never promotes a piece.
            rule["by-en-passant"] = False
        if t.settings.flag("piecePromotionOnCapture"):
            if forms is pawn_forms:
                # Measured: there the pawn may not even enter the zone
                # without a capture.
                raise Unsupported(t.settings.entry("piecePromotionOnCapture"),
                                  "piecePromotionOnCapture with a promoted form of the pawn: "
                                  "not supported")
            rule["on-capture"] = True
        if limits:
            rule["limit"] = dict(limits)
        if not t.settings.flag(mandatory):
            rule["optional"] = "where-it-can-move" if t.settings.flag("immobilityIllegal") \
                else dict(zone)
        rules.append(rule)
    return rules


def shogi_limits(t: Translation, promoted: list[str], forms: dict[str, str]) -> dict[str, int]:
    """`promotionLimit` on shogi-style promotion: Fairy-Stockfish counts the
    target type, here the one promoted form that becomes it."""
    limits: dict[str, int] = {}
    targets = {t.piece(item.partition(":")[0]): item.partition(":")[2] for item in promoted
               if item.partition(":")[2] not in ("", "-")}
    for item in t.settings.value("promotionLimit").split():
        letter = item.partition(":")[0]
        made = [forms[base] for base, target in targets.items()
                if target.lower() == letter.lower() and base in forms]
        if len(made) > 1:
            raise Unsupported(t.settings.entry("promotionLimit"), f"promotionLimit {item}: "
                              "several pieces promote to it: not supported")
        if made:
            limits[made[0]] = limit_count(t, item)
    return limits


def limit_count(t: Translation, item: str) -> int:
    """The count of one `promotionLimit` item (`q:1`)."""
    count = whole_number(item.partition(":")[2])
    if count is None:
        raise Unsupported(t.settings.entry("promotionLimit"), f"promotionLimit {shorten(item)}: "
                          "not a letter and a count")
    return count


def write_hands(t: Translation) -> None:
    order = sorted((k for k in t.types if not k.startswith("doc:")), key=keys.type_order,
                   reverse=True)
    if not t.settings.flag("pieceDrops"):
        if t.settings.flag("capturesToHand"):
            raise Unsupported(t.settings.entry("capturesToHand"),
                              "capturesToHand without pieceDrops: not supported")
        if t.settings.flag("seirawanGating"):
            # The hand's pieces enter by gating only.
            t.data["hands"] = {"drops": False, "order": [t.names[k] for k in order]}
        else:
            t.data.pop("hands", None)
        return
    # The parent's other hand rules (placement's drops-grant-castling) stay.
    hands: dict[str, Any] = dict(t.data.get("hands", {}))
    hands.update({"captures": "to-capturer" if t.settings.flag("capturesToHand") else "removed",
                  "order": [t.names[k] for k in order]})
    hands.pop("drops", None)
    hands.pop("must-drop", None)
    if t.settings.flag("mustDrop"):
        hands["must-drop"] = True
    t.data["hands"] = hands
    all_cells = rank_cells(t.files, *range(t.ranks))
    region = {side: t.cells(f"dropRegion{side.title()}") if t.settings.value(
        f"dropRegion{side.title()}") else all_cells for side in SIDES}
    promotion = {"white": t.cells("promotionRegionWhite"), "black": t.cells("promotionRegionBlack")}
    no_doubled = t.settings.value("dropNoDoubled").strip()
    for kind, piece in t.types.items():
        spec = t.data["pieces"][t.names[kind]]
        # Drop rules of the parent this key table does not cover stay
        # (placement's bishops on both colours).
        drops: dict[str, Any] = {k: v for k, v in spec.get("drops", {}).items()
                                 if k not in ("regions", "per-line", "check", "mate")}
        cells = dict(region)
        area = mobility(t, kind)
        if area is not None:
            cells = {side: cells[side] & area[side] for side in SIDES}
        if kind == "pawn":
            if not t.settings.flag("promotionZonePawnDrops"):
                cells = {s: cells[s] - promotion[s] for s in SIDES}
            if not t.settings.flag("firstRankPawnDrops"):
                cells = {"white": cells["white"] - rank_cells(t.files, 0),
                         "black": cells["black"] - rank_cells(t.files, t.ranks - 1)}
        no_line = no_doubled and piece.letter == no_doubled[0].lower()
        if no_line and not t.settings.number("dropNoDoubledCount"):
            # No file holds fewer than none: the piece is never dropped.
            cells = {side: frozenset() for side in SIDES}
        if cells["white"] != all_cells or cells["black"] != all_cells:
            drops["regions"] = t.sided(cells["white"], cells["black"], f"{t.names[kind]}-drops")
        if no_line and t.settings.number("dropNoDoubledCount"):
            drops["per-line"] = {"line": "file", "count": t.settings.number("dropNoDoubledCount")}
        # Fairy-Stockfish's dropChecks looks at its king type only (measured:
        # atomiczh's commoner king may be checked by a drop).
        if not t.settings.flag("dropChecks") and "king" in t.types:
            drops["check"] = "forbidden"
        if kind == "shogiPawn" and t.settings.flag("shogiPawnDropMateIllegal"):
            # Measured: the shogi pawn's drop may mate, and the side mated
            # wins; the chess pawn's mates as any drop does.
            drops["mate"] = "loses"
        if drops:
            spec["drops"] = drops
        else:
            spec.pop("drops", None)


# stalematePieceCount: the side with fewer pieces has the stalemate's
# result, so a won stalemate goes to fewer pieces, a lost one to more.
PIECE_COUNTS = {"win": "fewer-pieces", "loss": "more-pieces"}


def write_end(t: Translation, fields: list[str]) -> None:
    s, end = t.settings, t.data.setdefault("end", {})
    for key, target in (("stalemateValue", "stalemate"), ("checkmateValue", "checkmate"),
                        ("nFoldValue", "repetition-result")):
        if s.changed(key):
            value = s.value(key).strip()
            if value not in VALUES:
                raise Unsupported(s.entry(key), f"{key} = {shorten(value)}: not supported")
            end[target] = value
    if s.changed("stalematePieceCount") or \
            (s.flag("stalematePieceCount") and s.changed("stalemateValue")):
        value = s.value("stalemateValue").strip()
        if not s.flag("stalematePieceCount"):
            end["stalemate"] = value
        elif value in PIECE_COUNTS:
            end["stalemate"] = PIECE_COUNTS[value]
        else:
            raise Unsupported(s.entry("stalematePieceCount"),
                              "stalematePieceCount with a drawn stalemate: not supported")
    if s.changed("nMoveRule"):
        end["move-rule"] = s.number("nMoveRule") or None
        end.pop("automatic-move-rule", None)
    if s.changed("nFoldRule"):
        end["repetition"] = s.number("nFoldRule") or None
        end.pop("automatic-repetition", None)
    if s.changed("perpetualCheckIllegal"):
        if s.flag("perpetualCheckIllegal"):
            end["perpetual-check"] = "loss"
        else:
            end.pop("perpetual-check", None)
    if s.changed(*END_CONDITION_KEYS) or s.parentless:
        end["conditions"] = conditions(t, fields)
        if not end["conditions"]:
            del end["conditions"]
        end.pop("at-once", None)
        if both_flags_safe(t, end.get("conditions", [])):
            end["at-once"] = "draw"
    # A lone king may still reach a flag region: no material is too little.
    if "insufficient-material" in end and (t.types_changed or any(
            "reached" in condition for condition in end.get("conditions", []))):
        end["insufficient-material"] = []
    elif "insufficient-material" in end and end.get("stalemate", "draw") != "draw":
        # Once stalemate does not draw, Fairy-Stockfish counts every piece
        # beside the king as enough: only bare kings are dead.
        king = t.data["pieces"][t.names["king"]]["letter"] if "king" in t.types else None
        end["insufficient-material"] = [f"{king} v {king}"] if king else []
    if s.changed("countingRule") or (s.parentless and "countingRule" in s.entries):
        write_counting_rule(t)
    if s.changed("materialCounting", "adjudicateFullBoard"):
        write_counting(t)
    if s.changed("materialCounting", "adjudicateFullBoard", "passOnStalemate", "nMoveRule") \
            and s.value("materialCounting").strip() == "unweighted" and end.get("move-rule"):
        # Fairy-Stockfish counts at the move rule's end too: no `move-rule` result says so.
        raise Unsupported(s.entry("materialCounting", "nMoveRule"), "materialCounting = "
                          "unweighted with nMoveRule: not supported")


# Fairy-Stockfish's materialCounting values that give every drawn game to one side.
DRAW_ODDS = {"whitedrawodds": "white", "blackdrawodds": "black"}
# The keys whose drawn result Fairy-Stockfish leaves drawn under draw odds
# (measured: a mate or an extinction valued `draw` stays a draw), where
# `draws-go-to` would give it away.
DRAWN_APART = ("checkmateValue", "extinctionValue", "connectValue")


# What materialCounting makes of the ends it decides (two passes in a row, a
# full board under adjudicateFullBoard): a draw, or a win for the side with
# more pieces on the board.
COUNTED = {"none": "draw", "unweighted": "more-pieces"}


def counted_result(t: Translation, key: str) -> str:
    """The result materialCounting gives an end that `key` brings, or
    Unsupported."""
    s = t.settings
    value = s.value("materialCounting").strip()
    if value not in COUNTED:
        raise Unsupported(s.entry("materialCounting", key), f"{key} with materialCounting = "
                          f"{shorten(value)}: not supported")
    return COUNTED[value]


def write_counting(t: Translation) -> None:
    """`materialCounting` and `adjudicateFullBoard`: draw odds (see
    write_draw_odds), or the result of two passes in a row and, under
    adjudicateFullBoard, of a full board (`double-pass`, `board-full`)."""
    s, end = t.settings, t.data.setdefault("end", {})
    if s.value("materialCounting").strip() in DRAW_ODDS:
        if s.flag("adjudicateFullBoard"):
            raise Unsupported(s.entry("adjudicateFullBoard", "materialCounting"),
                              "adjudicateFullBoard with draw odds: not supported")
        write_draw_odds(t)
        return
    counted_result(t, "materialCounting")
    if s.flag("passOnStalemate"):
        end["double-pass"] = counted_result(t, "passOnStalemate")
    if s.flag("adjudicateFullBoard"):
        end["board-full"] = counted_result(t, "adjudicateFullBoard")
    else:
        end.pop("board-full", None)


def write_counting_rule(t: Translation) -> None:
    """`countingRule` (makruk, cambodian, asean) as `end: counting` with
    that rule's counts, on the pieces of the types it counts (a limit on a
    type the section has not never applies, and is left out)."""
    s, end = t.settings, t.data.setdefault("end", {})
    value = s.value("countingRule").strip()
    if value == "none":
        end.pop("counting", None)
        return
    if value not in keys.COUNTING_RULES:
        raise Unsupported(s.entry("countingRule"), f"countingRule = {shorten(value)}: "
                          "not supported")
    counting = copy.deepcopy(keys.COUNTING_RULES[value])
    counting["pawns"] = [t.names[kind] for kind in counting["pawns"] if kind in t.types]
    if "bare" in counting:
        rows = counting["bare"]["limits"]
        counting["bare"]["limits"] = [
            {**row, "pieces": {t.names[kind]: n for kind, n in row["pieces"].items()}}
            if "pieces" in row else row for row in rows
            if all(kind in t.types for kind in row.get("pieces", {}))]
    end["counting"] = counting


def write_draw_odds(t: Translation) -> None:
    """`materialCounting = whitedrawodds` or `blackdrawodds` as `draws-go-to`:
    Fairy-Stockfish gives that side a stalemate, the move rule's end and a
    repetition that would draw.  It ends no game on too little material, so
    none is declared: the game goes on to one of those ends.  Those ends
    come when the count is reached (`on-occurrence`): a claim announced one
    move ahead would win a move early."""
    s, end = t.settings, t.data.setdefault("end", {})
    value = s.value("materialCounting").strip()
    if value not in DRAW_ODDS:
        raise Unsupported(s.entry("materialCounting"),
                          f"materialCounting = {shorten(value)}: not supported")
    drawn = [key for key in DRAWN_APART if s.value(key).strip() == "draw"]
    drawn += [key for key in ("flagMove", "stalematePieceCount") if s.flag(key)]
    if drawn or s.value("countingRule").strip() != "none":
        raise Unsupported(s.entry("materialCounting"), f"materialCounting = {value} with "
                          f"{drawn[0] if drawn else 'countingRule'}: not supported")
    end["draws-go-to"] = DRAW_ODDS[value]
    end["insufficient-material"] = []
    end["draw-timing"] = "on-occurrence"
    for key in ("automatic-move-rule", "automatic-repetition"):
        end.pop(key, None)


def conditions(t: Translation, fields: list[str]) -> list[dict[str, Any]]:
    if t.settings.facts is None and not t.settings.parentless:
        raise Unsupported(t.settings.entry(*END_CONDITION_KEYS),
                          "changes an end rule of a parent whose rules the importer does not know")
    s, found = t.settings, []
    if s.flag("checkCounting"):
        # (the placement's `+` marks promoted pieces)
        text = next((f for f in fields[1:] if "+" in f), "3+3").split("+")[0]
        checks = whole_number(text)
        if checks is None:
            raise Unsupported(s.entry("startFen", "checkCounting"), f"startFen: {shorten(text)} "
                              "checks: not a number")
        found.append({"checks": checks, "result": "win"})
    value = s.value("extinctionValue").strip()
    if s.flag("extinctionPseudoRoyal") and not s.flag("blastOnCapture"):
        value = "none"    # the pieces are royal instead: see write_royals
    if value in VALUES:
        kinds = t.pieces("extinctionPieceTypes", allow_all=True)
        at_most = s.number("extinctionPieceCount")
        # The count holds only while the other side keeps this many.
        rivals = s.number("extinctionOpponentPieceCount")
        for kind in kinds:
            found.append({"extinct": "all" if kind == "*" else t.with_forms([kind]),
                          **({"at-most": at_most} if at_most else {}),
                          **({"opponent-at-least": rivals} if rivals else {}), "result": value})
    elif value != "none":
        raise Unsupported(s.entry("extinctionValue"), f"extinctionValue = {value}: not supported")
    white, black = t.cells("flagRegionWhite"), t.cells("flagRegionBlack")
    if "flagRegion" in s.entries:
        white = black = t.cells("flagRegion")
    if white or black:
        flag = t.pieces("flagPiece", allow_all=True)
        pieces = sorted(t.names[k] for k in t.types) if flag == ["*"] else t.with_forms(flag)
        reached: dict[str, Any] = {"reached": t.sided(white, black, "flag"),
                                   "pieces": pieces, "result": "win"}
        if s.flag("flagPieceSafe"):
            reached["safe"] = True
        if s.flag("flagMove") and white == black and len(white) == 1:
            # Measured (jesonmor): on one cell for both, the side that
            # reaches it wins when its turn comes again, still there
            # after the other side's one reply (which may take it).
            if s.flag("flagPieceSafe"):
                raise Unsupported(s.entry("flagPieceSafe"), "flagMove and flagPieceSafe on a "
                                  "one-cell flag region: not supported")
            reached["reply"] = True
        elif s.flag("flagMove"):
            # White reaching first gives Black one move to reach too (a
            # draw); Black reaching first wins at once.
            if s.flag("flagPieceSafe"):
                # With safe pieces, an unsafe arrival wins too if the piece
                # still stands there after the other side's one reply.
                found.append({key: value for key, value in reached.items()
                              if key != "safe"} | {"reply": True})
            else:
                reached["answer"] = "draw"
        if s.number("flagPieceCount") > 1:
            reached["at-least"] = s.number("flagPieceCount")
            if s.flag("flagPieceBlockedWin") and fillable(t):
                if s.flag("flagPieceSafe"):
                    raise Unsupported(s.entry("flagPieceBlockedWin"), "flagPieceBlockedWin with "
                                      "flagPieceSafe: not supported")
                reached["when-full"] = True
        found.append(reached)
        if s.flag("flagPieceSafe"):
            # Measured: Fairy-Stockfish counts one capture in reply at most,
            # so one piece more than the count wins however many of them
            # are attacked (two attacked pieces on the last rank win).
            found.append({key: value for key, value in reached.items() if key != "safe"} |
                         {"at-least": s.number("flagPieceCount") + 1})
    wins = s.value("castlingWins").strip()
    if wins != "-":
        if not re.fullmatch(r"[KQkq]+", wins):
            raise Unsupported(s.entry("castlingWins"), f"castlingWins = {shorten(wins)}: "
                              "not supported")
        # Castling by one of the rights wins; a side that can no longer
        # castle by any of them loses.
        rights = sorted(set(wins))
        found += [{"castled": rights, "result": "win"},
                  {"castling-lost": list(rights), "result": "loss"}]
    found += [in_a_row(t, key) for key in CONNECT_KINDS if s.number(key)]
    found += joined(t)
    return found


def both_flags_safe(t: Translation, found: list[dict[str, Any]]) -> bool:
    """Whether safe flag pieces race for both sides' regions, where
    Fairy-Stockfish draws a position in which both sides' flags are met
    (measured in squatter: a move that reaches the mover's region safely
    and stops attacking the other side's flag piece draws).  Its other end
    conditions are tested apart from the flags: with any of them beside,
    the section is refused."""
    s = t.settings
    if not s.flag("flagPieceSafe") or s.flag("flagMove"):
        return False
    white, black = t.cells("flagRegionWhite"), t.cells("flagRegionBlack")
    if "flagRegion" in s.entries:
        white = black = t.cells("flagRegion")
    if not (white and black):
        return False
    if any("reached" not in condition for condition in found):
        raise Unsupported(s.entry("flagPieceSafe"), "flagPieceSafe with flag regions for both "
                          "sides beside other end conditions: not supported")
    return True


def fillable(t: Translation) -> bool:
    """Whether Fairy-Stockfish can see the flag regions full: a whole rank
    (`*8`) or file (`a*`) holds its cells past the board's edge too, up to
    its largest board (12 files, 10 ranks), which no piece ever takes."""
    keys = [k for k in ("flagRegion", "flagRegionWhite", "flagRegionBlack")
            if k in t.settings.entries]
    if not any("*" in t.settings.value(k) for k in keys):
        return True
    if (t.files, t.ranks) == (12, 10):
        raise Unsupported(t.settings.entry("flagPieceBlockedWin"), "flagPieceBlockedWin with "
                          "a whole rank or file on the largest board: not supported")
    return False


# The lines of Fairy-Stockfish's connect keys, as directions: one way along
# each line finds every run on it.
CONNECT_LINES = (("connectHorizontal", ["e"]), ("connectVertical", ["n"]),
                 ("connectDiagonal", ["ne", "nw"]))


# The condition each of Fairy-Stockfish's connect keys counts to.
CONNECT_KINDS = {"connectN": "in-a-row", "connectNxN": "in-a-square", "collinearN": "on-a-line"}


def in_a_row(t: Translation, key: str = "connectN",
             condition: dict[str, Any] | None = None) -> dict[str, Any]:
    """`connectN`: the side that has just moved with N pieces in a row ends
    the game, `connectValue` its result; `connectNxN`: N by N pieces in a
    square block; `collinearN`: N pieces on one line; or `condition` with
    the same pieces, lines and result."""
    s = t.settings
    value = s.value("connectValue").strip()
    if value not in VALUES:
        raise Unsupported(s.entry("connectValue"), f"connectValue = {shorten(value)}: "
                          "not supported")
    row: dict[str, Any] = condition or {CONNECT_KINDS[key]: s.number(key)}
    if "connectPieceTypes" in s.entries:
        if "*" in s.value("connectPieceTypes"):
            # (Fairy-Stockfish reads `*` here as no piece type at all.)
            raise Unsupported(s.entry("connectPieceTypes"), "connectPieceTypes = *: "
                              "not supported")
        row["pieces"] = t.pieces("connectPieceTypes")
    lines = [d for flag, directions in CONNECT_LINES if s.flag(flag) for d in directions]
    if key == "connectNxN":
        row["result"] = value
        return row
    if not lines:
        raise Unsupported(s.entry("connectHorizontal", "connectVertical", "connectDiagonal"),
                          f"{key} without any line: not supported")
    if len(lines) < 4:
        row["lines"] = lines
    row["result"] = value
    return row


# The steps of a chain joining the connect regions, by Fairy-Stockfish's
# connect keys.
CONNECT_STEPS = (("connectHorizontal", ["e"]), ("connectVertical", ["n"]),
                 ("connectDiagonal", ["ne", "se"]))
# Each side's two regions, which it wins by joining with a chain of its pieces.
CONNECT_REGIONS = ("connectRegion1White", "connectRegion2White", "connectRegion1Black",
                   "connectRegion2Black")


def joined(t: Translation) -> list[dict[str, Any]]:
    """The connect regions as a `connected` condition (none when unset),
    its pieces, lines and result those of `connectN`."""
    s = t.settings
    regions = [t.cells(key) for key in CONNECT_REGIONS]
    if not any(regions):
        return []
    if not all(regions):
        raise Unsupported(s.entry(*CONNECT_REGIONS), "connect regions not set for both sides: "
                          "not supported")
    names = [t.region(cells, f"connect-{i + 1}") for i, cells in enumerate(regions)]
    condition = in_a_row(t, CONNECT_REGIONS[0],
                         {"connected": {"white": names[:2], "black": names[2:]}})
    # Measured: Fairy-Stockfish's chain steps only north, east, north-east
    # and south-east from the first region (a chain that turns back west or
    # south does not count).
    condition["lines"] = [d for flag, directions in CONNECT_STEPS if s.flag(flag)
                          for d in directions]
    return [condition]


DIRECTIONS: dict[str, set[Cell]] = {
    "forward": {(0, 1)}, "backward": {(0, -1)}, "sideways": {(1, 0), (-1, 0)},
    "forward-diagonal": {(1, 1), (-1, 1)}, "backward-diagonal": {(1, -1), (-1, -1)},
    "orthogonal": {(0, 1), (0, -1), (1, 0), (-1, 0)},
    "diagonal": {(1, 1), (-1, 1), (1, -1), (-1, -1)},
}
DIRECTIONS["all"] = DIRECTIONS["orthogonal"] | DIRECTIONS["diagonal"]


def step_vectors(move: dict[str, Any]) -> set[Cell] | None:
    """The vectors of a step, ride or leap without conditions (a leap's all
    point both ways), or None."""
    kind = next((k for k in ("step", "ride", "leap") if k in move), None)
    if kind is None or set(move) - {kind, "only"} or move.get("only") == "capture":
        return None
    if kind == "leap":
        symmetric = isinstance(move["leap"], list) and all(isinstance(x, int)
                                                           for x in move["leap"])
        return {(0, 0)} if symmetric else None
    return line_vectors(move[kind])


def line_items(line: Any) -> list[Any]:
    """The directions of a step or ride, one item each (a name or a vector)."""
    return line if isinstance(line, list) and line and not isinstance(line[0], int) else [line]


def reversible_moves(spec: dict[str, Any]) -> None:
    """Fairy-Stockfish resets the move-rule count only for a move the piece
    could not step back from (`allwayspawns`' sideways steps, elgam's
    soldier's `fsW` sideways do not reset it): such steps get
    `resets-clock: false`, split from the others of their move."""
    moves = spec.get("moves")
    if moves is None:
        try:
            moves = expand(spec["betza"])
        except (DeclarationError, KeyError):
            return
    steps = [step_vectors(m) for m in moves]
    back: set[Cell] = set().union(*(v for v in steps if v)) | {(0, 0)}
    written: list[dict[str, Any]] = []
    for move, vectors in zip(moves, steps, strict=True):
        kind = next((k for k in ("step", "ride") if k in move), None)
        items = line_items(move[kind]) if vectors and kind else []
        undone = [item for item in items
                  if all((-x, -y) in back for x, y in line_vectors(item) or ())]
        if vectors and (kind is None or len(undone) == len(items)):
            if all((-x, -y) in back for x, y in vectors):
                move = {**move, "resets-clock": False}
        elif kind and undone:
            rest = [item for item in items if item not in undone]
            written.append({**move, kind: rest[0] if len(rest) == 1 else rest})
            move = {**move, kind: undone[0] if len(undone) == 1 else undone,
                    "resets-clock": False}
        written.append(move)
    if written != moves:
        spec.pop("betza", None)
        spec["moves"] = written


def mobility(t: Translation, kind: str) -> dict[str, frozenset[Cell]] | None:
    """A type's `mobilityRegionWhite...`/`...Black` cells (the section's or
    its root's), None without them."""
    name = kind[0].upper() + kind[1:]
    found = {side: f"mobilityRegion{side.title()}{name}" for side in SIDES}
    root = t.settings.facts or {}
    if not any(key in t.settings.entries or key in root for key in found.values()):
        return None
    every = rank_cells(t.files, *range(t.ranks))
    return {side: t.cells(key) if key in t.settings.entries or key in root else every
            for side, key in found.items()}


def write_mobility(t: Translation) -> None:
    """`mobilityRegion...`: the piece lands only in its region (`to-region`
    on each of its moves), and is dropped only there."""
    for key in t.settings.entries:
        match = keys.MOBILITY.fullmatch(key)
        if match:
            kind = match.group(2)[0].lower() + match.group(2)[1:]
            if kind not in t.types:
                raise Unsupported(t.settings.entries[key], f"{key}: no such piece here")
    for kind in list(t.types):
        cells = mobility(t, kind)
        keys_of = [f"mobilityRegion{side.title()}{kind[0].upper()}{kind[1:]}" for side in SIDES]
        if cells is None or not any(key in t.settings.entries for key in keys_of):
            continue    # (the root's own regions are in its moves already)
        # The root's region for the type is the one its moves are bound to.
        inherited = any(key in (t.settings.facts or {}) for key in keys_of)
        region = t.sided(cells["white"], cells["black"], f"{t.names[kind]}-area")
        # (a promoted form of this type is held to its region too)
        for name in t.with_forms([t.names[kind]]):
            spec = t.data["pieces"][name]
            moves = spec.pop("moves", None)
            if moves is None:
                moves = expand(spec.pop("betza", ""))
            for move in moves:
                if inherited and "within" not in move:
                    move.pop("to-region", None)
                if "to-region" in move or "within" in move:
                    raise Unsupported(t.settings.entry(f"mobilityRegionWhite{kind[0].upper()}"
                                                       f"{kind[1:]}"), "mobility region on a "
                                      "move already bound to a region: not supported")
                move["to-region"] = dict(region)
            spec["moves"] = [landing_only(t, kind, move, cells) for move in moves]


def landing_only(t: Translation, kind: str, move: dict[str, Any],
                 cells: dict[str, frozenset[Cell]]) -> dict[str, Any]:
    """A ride held to a mobility region, as Fairy-Stockfish holds it: only
    its landing cell must be in the region, and its line goes on through
    cells outside (measured: stardust's `mQ2` from g8 lands on i10 over
    h9).  `to-region` ends a line at its first cell outside, so a ride whose
    line the region cuts (out of it, then back in) is written as one route
    per distance."""
    line = move.get("ride", move.get("hop"))
    vectors = line_vectors(line) if line is not None else None
    if vectors is None:
        return move
    longest = max(t.files, t.ranks) - 1
    shortest, farthest = range_of(move.get("range"))
    farthest = min(farthest or longest, longest)
    if not any(cuts(t, cells[side], vectors, farthest) for side in SIDES):
        return move
    if "hop" in move or "en-passant" in move:
        raise Unsupported(t.settings.entry(f"mobilityRegionWhite{kind[0].upper()}{kind[1:]}",
                                           f"mobilityRegionBlack{kind[0].upper()}{kind[1:]}"),
                          "a mobility region across a hopper's or an en passant line: "
                          "not supported")
    routes = [[list(vector)] * distance for vector in sorted(vectors)
              for distance in range(shortest, farthest + 1)]
    return {"path": routes, **{k: v for k, v in move.items() if k not in ("ride", "range")}}


def line_vectors(line: Any) -> set[Cell] | None:
    """A step's or ride's directions as White's vectors (None for a form not
    read here)."""
    found: set[Cell] = set()
    for item in line_items(line):
        if isinstance(item, str) and item in DIRECTIONS:
            found |= DIRECTIONS[item]
        elif isinstance(item, list) and len(item) == 2 and all(isinstance(x, int) for x in item):
            found.add((item[0], item[1]))
        else:
            return None
    return found


def range_of(value: Any) -> tuple[int, int]:
    """(shortest, longest) of a ride's `range`; 0: unlimited."""
    if value is None:
        return 1, 0
    if isinstance(value, int):
        return 1, value
    return value[0], value[1]


def cuts(t: Translation, region: frozenset[Cell], vectors: set[Cell], farthest: int,
         inside: bool = False) -> bool:
    """Whether some line along `vectors` (either side's way round) from any
    cell (`inside`: from a cell of `region`) leaves `region` and comes back
    into it within `farthest` cells."""
    mirrored = {(sx * x, sy * y) for x, y in vectors for sx in (1, -1) for sy in (1, -1)}
    starts = sorted(region) if inside else list(itertools.product(range(t.files), range(t.ranks)))
    for x, y in mirrored:
        for start in starts:
            left = False
            for distance in range(1, farthest + 1):
                cell = (start[0] + distance * x, start[1] + distance * y)
                if not (0 <= cell[0] < t.files and 0 <= cell[1] < t.ranks):
                    break
                if cell not in region:
                    left = True
                elif left:
                    return True
    return False


def write_royals(t: Translation) -> None:
    s = t.settings
    if s.changed("extinctionPseudoRoyal") and s.flag("extinctionPseudoRoyal"):
        royal = t.pieces("extinctionPieceTypes")
        # Fairy-Stockfish keeps pseudo-royal pieces out of check while a
        # side has at most `last` of a type, counting each type apart; a
        # count no side reaches on the board keeps them out of check always
        # (its own coregal's is 64), as `check: any` does.
        last = s.number("extinctionPieceCount") + 1
        always = last >= t.files * t.ranks
        chosen = {t.names[k] for side in SIDES for k in t.choices.get(side, [])}
        if chosen & set(royal) and not always:
            # Fairy-Stockfish lets a pawn promote to a pseudo-royal piece
            # that would stand attacked (one more than `last`); a royal
            # piece here may not.
            raise Unsupported(s.entry("extinctionPseudoRoyal"), "extinctionPseudoRoyal with a "
                              "promotion to the royal piece: not supported")
        if last > 1 and len(royal) > 1 and not always:
            raise Unsupported(s.entry("extinctionPieceCount"), "extinctionPseudoRoyal with "
                              "extinctionPieceCount and several piece types: not supported")
        for name in t.with_forms(royal):
            t.data["pieces"][name]["royal"] = True
            # A royal piece is never captured into a hand.
            t.data["pieces"][name].pop("demotes-to", None)
        # Fairy-Stockfish keeps a king out of check always: `check: any`
        # where a side has a king and at most `last` pseudo-royal pieces,
        # `check: last` where it has no king, or where a piece promotes
        # onto a pseudo-royal one (the promoted piece need not be safe on
        # the move that makes it, and with one more than `last` none is).
        onto = any(t.forms_of.get(name) for name in royal)
        placement = t.data["setup"].split()[0]
        king = t.data["pieces"][t.names["king"]]["letter"] if "king" in t.types else None
        needs = set()
        for case in (str.upper, str.lower):
            count = sum(placement.count(case(t.data["pieces"][n]["letter"])) for n in royal)
            if king is not None and case(king) in placement and count:
                # (a king alone is kept out of check under either rule)
                needs.add("any" if count <= last and not onto else "neither")
            elif onto or (not always and (count > 1 or last > 1)):
                needs.add("last")
        if len(needs) > 1 or "neither" in needs:
            raise Unsupported(s.entry("extinctionPseudoRoyal"), "several pseudo-royal pieces, "
                              "or a promotion onto one, beside a king: not supported")
        check = needs.pop() if needs else "any"
        t.data["royals"] = {"per-side": "any", "check": check,
                            **({"last": last} if check == "last" and last > 1 else {})}
        return
    royal = [n for n, spec in t.data["pieces"].items() if spec.get("royal")]
    if len(royal) != 1:
        t.data["royals"] = {"per-side": "any"}


def translate(t: Translation) -> None:
    s = t.settings
    t.data["name"] = t.name
    board_changed = s.changed("maxRank", "maxFile") or s.parentless
    t.files = ord(s.value("maxFile").strip()[:1]) - 96 if s.value("maxFile").strip()[:1].isalpha() \
        else s.number("maxFile")
    t.ranks = s.number("maxRank")
    if not 1 <= t.files <= 26 or not 1 <= t.ranks <= 99:
        raise Unsupported(s.entry("maxFile", "maxRank"), "board size out of range")
    if board_changed:
        write_board(t)
    else:
        root_regions(t)
    t.types, t.names = root_types(t.data, s)
    t.types_changed = apply_pieces(t) or s.parentless
    # A special type another piece's letter has replaced is gone, as in
    # Fairy-Stockfish; one of the root's keeps the root's moves.
    special = next((kind for kind in t.types if kind in keys.SPECIAL_TYPES - keys.WRITTEN_OUT
                    and kind in s.entries), None)
    if special is not None:
        entry = s.entries[special]
        raise Unsupported(entry, f"{entry.key} = {shorten(entry.value)}: not supported")
    if (t.types_changed or board_changed or s.changed(*PROMOTION_KEYS, *PAWN_KEYS, *DROP_KEYS,
                                                       *CASTLING_KEYS)) \
            and s.facts is None and not s.parentless:
        raise Unsupported(s.entry(*PROMOTION_KEYS, *PAWN_KEYS, *DROP_KEYS, *CASTLING_KEYS,
                                  "maxRank", "maxFile") or next(iter(s.entries.values()), None),
                          "changes a rule of a parent whose rules the importer does not know")
    write_pieces(t)
    write_sides(t)
    for kind in t.types:
        spec = t.data["pieces"][t.names[kind]]
        rewrite = "moves" not in spec and "betza" not in spec
        # (a pawn's long step into a new promotion region leaves no en passant cell)
        pawn_changed = s.changed(*PAWN_KEYS, "startFen", "promotionRegionWhite",
                                 "promotionRegionBlack", "mandatoryPawnPromotion")
        if rewrite or (kind == "pawn" and (board_changed or pawn_changed)) \
                or (kind == "soldier" and (board_changed or s.changed("soldierPromotionRank"))):
            moves_of(t, kind)
        if kind.startswith("doc:") and not s.changed("nMoveRuleTypes", "nMoveRuleTypesWhite",
                                                     "nMoveRuleTypesBlack", "pawnTypes"):
            continue
        if kind in t.kinds("nMoveRuleTypes"):
            spec["resets-clock"] = True
            reversible_moves(spec)
        else:
            spec.pop("resets-clock", None)
    fields = fen_fields(t)
    # With castlingDroppedPiece (placement) the rights come with the drops,
    # not with the start position: a new start keeps the parent's castling.
    castling = s.changed(*CASTLING_KEYS[:-1]) or \
        (s.changed("startFen") and not s.flag("castlingDroppedPiece"))
    if board_changed or castling:
        write_castling(t, fields)
    if s.changed("startFen", "castling") or s.parentless or s.changed("pieceDrops"):
        t.data["setup"] = " ".join(fields)
    # The root's own rule against stranded pieces applies again to
    # promotion and drops written again.
    # (The root's `+X` forms are written again from its promotedPieceType.)
    rewritten = board_changed or t.types_changed or s.changed(*PROMOTION_KEYS) or \
        bool((s.facts or {}).get("promotedPieceType"))
    if rewritten:
        write_promotion(t)
    if s.changed(*DROP_KEYS, "promotionRegionWhite", "promotionRegionBlack") or \
            (t.types_changed and s.flag("pieceDrops")) or (board_changed and s.flag("pieceDrops")):
        write_hands(t)
    if s.changed("gating", "seirawanGating"):
        write_gating(t)
    if s.changed("chess960"):
        # Castling by where the king and rook land, whatever their start.
        if s.flag("chess960"):
            t.data["free-castling"] = True
        else:
            t.data.pop("free-castling", None)
    if s.changed("mustCapture"):
        t.data["must-capture"] = s.flag("mustCapture")
    if s.changed("checking"):
        t.data["may-give-check"] = s.flag("checking")
    # New types: the blast's lists are written again (a parent's `pawn`
    # may be gone).
    if s.changed("blastOnCapture", "blastImmuneTypes") or \
            (t.types_changed and "explosion" in t.data):
        if not s.flag("blastOnCapture"):
            t.data.pop("explosion", None)
        else:
            # Fairy-Stockfish's blast spares pawns around the capture (our
            # `immune`), and its immune types everywhere, even the capturing
            # piece (our `blast-proof`).
            immune = [t.names[k] for k in t.types if k == "pawn"]
            proof = t.pieces("blastImmuneTypes")
            t.data["explosion"] = {"around": "all", **({"immune": immune} if immune else {}),
                                   **({"blast-proof": proof} if proof else {})}
            t.data["royals"] = {"per-side": "any"}
    if s.changed("petrifyOnCaptureTypes") or (t.types_changed and "petrify" in t.data):
        write_petrify(t)
    if s.changed("enPassantRegion"):
        write_no_en_passant(t)
    # (A new board: the root's facing along files alone was written for
    # palaces that never share a rank.)
    if s.changed("flyingGeneral") or (board_changed and s.flag("flyingGeneral")):
        if s.flag("flyingGeneral"):
            # Measured: along ranks too (`5k2/3K4` keeps the king off d3).
            t.data["royal-facing"] = {"lines": "orthogonal"}
        else:
            t.data.pop("royal-facing", None)
    if s.changed("wallingRule", "wallingRegionWhite", "wallingRegionBlack", "wallOrMove",
                 "startFen"):
        write_walls(t)
    if s.changed("passOnStalemate"):
        write_pass(t)
    if s.changed("pass"):
        write_king_pass(t)
    if s.changed(*FLIP_KEYS) or (t.types_changed and "flips" in t.data):
        write_flips(t)
    if "walls" in t.data and t.data.get("flips", {}).get("drops") == "enclose":
        # Measured in pyffish: a reversi drop may enclose walls too.
        t.data["flips"]["walls-enclose"] = True
    if s.changed("diagonalLines"):
        write_diagonal_lines(t)
    write_mobility(t)
    write_end(t, fields)
    write_royals(t)
    drawn_pieces(t)
    if s.flag("immobilityIllegal") and (s.changed("immobilityIllegal") or rewritten):
        apply_immobility(t)


# The built-in types that move along `diagonalLines` from a cell of them
# (measured: no other type, custom pieces and the king included, does).
DIAGONAL_LINE_MOVES: dict[str, dict[str, Any]] = {
    "rook": {"ride": "diagonal"}, "janggiCannon": {"hop": "diagonal"},
    "soldier": {"step": "forward-diagonal"}, "wazir": {"step": "diagonal"},
}


def write_diagonal_lines(t: Translation) -> None:
    """`diagonalLines` (janggi's palace lines on elgam's board): the rook,
    janggi cannon, soldier and wazir types also move diagonally from a cell
    of the lines, landing on cells of them, as `within:` a region of those
    cells.  Fairy-Stockfish's lines go on through cells outside them, where
    `within` ends a line: lines that leave the cells and come back are not
    supported."""
    entry = t.settings.entry("diagonalLines")
    cells = t.cells("diagonalLines")
    if not cells:
        return
    if cuts(t, cells, DIRECTIONS["diagonal"], max(t.files, t.ranks) - 1, inside=True):
        raise Unsupported(entry, "diagonalLines whose diagonals leave the lines and come back: "
                          "not supported")
    region = t.region(cells, "diagonal-lines")
    for kind, move in DIAGONAL_LINE_MOVES.items():
        if kind not in t.types:
            continue
        spec = t.data["pieces"][t.names[kind]]
        moves = spec.pop("moves", None)
        moves = expand(spec.pop("betza", "")) if moves is None else moves
        if t.types[kind].betza != keys.PIECE_TYPES[kind] or any("within" in m for m in moves):
            raise Unsupported(entry, f"diagonalLines with {kind} moving otherwise than "
                              "Fairy-Stockfish's own: not supported")
        extra = {**move, "within": region}
        if kind == "janggiCannon":
            # (as along its files and ranks: it never hops over nor takes a cannon)
            extra |= {key: list(moves[0][key]) for key in ("cannot-hop", "cannot-capture")}
        spec["moves"] = [*moves, extra]


def write_gating(t: Translation) -> None:
    """`gating` with `seirawanGating` (Seirawan chess) as `gating:` on each
    side's first rank; one without the other is not supported."""
    s = t.settings
    if not s.flag("gating") and not s.flag("seirawanGating"):
        t.data.pop("gating", None)
        return
    if not (s.flag("gating") and s.flag("seirawanGating")):
        raise Unsupported(s.entry("gating", "seirawanGating"), "gating without seirawanGating "
                          "(or the other way round): not supported")
    t.data["gating"] = {"regions": t.sided(rank_cells(t.files, 0),
                                           rank_cells(t.files, t.ranks - 1), "gating")}


def write_petrify(t: Translation) -> None:
    """`petrifyOnCaptureTypes` as `petrify:`, its walls written `*`."""
    names = t.pieces("petrifyOnCaptureTypes")
    if not names:
        t.data.pop("petrify", None)
        return
    t.data["petrify"] = t.with_forms(names)
    t.data.setdefault("position-string", {})["holes"] = "*"


def write_no_en_passant(t: Translation) -> None:
    """`enPassantRegion = -` (no cell an en passant capture may land on) as
    every piece's moves without `en-passant`.  Other regions are not supported."""
    entry = t.settings.entries["enPassantRegion"]
    if t.cells("enPassantRegion"):
        raise Unsupported(entry, f"enPassantRegion = {shorten(entry.value)}: not supported "
                          "(only `-`, no en passant)")
    for name, spec in t.data["pieces"].items():
        if "e" in spec.get("betza", ""):
            raise Unsupported(entry, f"enPassantRegion with {name}'s Betza en passant: "
                              "not supported")
        for move in spec.get("moves", []):
            move.pop("en-passant", None)


def write_pass(t: Translation) -> None:
    """`passOnStalemate` as `pass: when-no-move`. Fairy-Stockfish ends the
    game after two passes in a row, drawn unless it counts material
    (`materialCounting = unweighted`: the side with more pieces wins)."""
    end = t.data.setdefault("end", {})
    if not t.settings.flag("passOnStalemate"):
        t.data.pop("pass", None)
        end.pop("double-pass", None)
        return
    t.data["pass"] = "when-no-move"
    end["double-pass"] = counted_result(t, "passOnStalemate")


def write_king_pass(t: Translation) -> None:
    """`pass` as `pass: true` on the king: measured, Fairy-Stockfish's pass
    is its king's cell twice (`e1e1`), never in check, and two in a row end
    the game, drawn unless it counts material."""
    end = t.data.setdefault("end", {})
    if "king" not in t.types:
        raise Unsupported(t.settings.entry("pass"), "pass without a king: not supported")
    spec = t.data["pieces"][t.names["king"]]
    if not t.settings.flag("pass"):
        spec.pop("pass", None)
        if t.data.get("pass") != "when-no-move":
            end.pop("double-pass", None)
        return
    spec["pass"] = True
    end["double-pass"] = counted_result(t, "pass")


# Fairy-Stockfish's flipEnclosedPieces and enclosingDrop values, and the
# `flips:` kinds and drops they are.
FLIP_KEYS = ("flipEnclosedPieces", "enclosingDrop", "enclosingDropStart", "freeDrops")
FLIP_KINDS = {"reversi": "enclosed", "ataxx": "adjacent", "quadwrangle": "adjacent"}
ENCLOSING_DROPS = {"reversi": "enclose", "ataxx": "touch-own", "none": "any", "snort": "apart"}


# enclosingDrop = anyside, measured in pyffish: a drop enters any empty edge
# cell; from the south and west edges it comes to rest before the first
# piece in its way, from the north and east on the last empty cell of its
# line, passing over pieces.
ANYSIDE = [{"moving": "n"}, {"moving": "e"}, {"moving": "s", "through": True},
           {"moving": "w", "through": True}]


def write_flips(t: Translation) -> None:
    """The pieces that turn over, the drops allowed, the cells filled first
    and the drops taken from no hand, as `flips:`; `enclosingDrop = top`
    as drops that fall (`hands: {drops-fall: s}`)."""
    s = t.settings
    kind, drops = s.value("flipEnclosedPieces").strip(), s.value("enclosingDrop").strip()
    if kind not in FLIP_KINDS and kind != "none":
        raise Unsupported(s.entry("flipEnclosedPieces"),
                          f"flipEnclosedPieces = {shorten(kind)}: not supported")
    free = s.flag("freeDrops") and s.flag("pieceDrops")
    if drops in ("top", "anyside") and kind == "none" and not free and "hands" in t.data:
        t.data["hands"].pop("drops-fall", None)
        t.data["hands"].pop("drops-enter", None)
        if drops == "top":
            # Each drop rests on the lowest empty cell of its file: it falls south.
            t.data["hands"]["drops-fall"] = "s"
        else:
            t.data["hands"]["drops-enter"] = ANYSIDE
        t.data.pop("flips", None)
        return
    if drops not in ENCLOSING_DROPS:
        raise Unsupported(s.entry("enclosingDrop"), f"enclosingDrop = {shorten(drops)}: "
                          "not supported")
    if kind == "none" and drops == "none" and not free and not t.cells("enclosingDropStart"):
        t.data.pop("flips", None)
        return
    if any(spec.get("royal") for spec in t.data["pieces"].values()):
        raise Unsupported(s.entry(*FLIP_KEYS), "pieces that turn over beside royal pieces: "
                          "not supported")
    flips: dict[str, Any] = {"kind": FLIP_KINDS.get(kind, "none"),
                             "drops": ENCLOSING_DROPS[drops]}
    if kind == "quadwrangle":
        # A quadwrangle drop turns its neighbours over only beside an own piece.
        flips["drop-flips"] = "touch-own"
    if drops == "snort":
        # Fairy-Stockfish's snort drop keeps off the four cells beside an enemy piece.
        if kind != "none":
            raise Unsupported(s.entry("enclosingDrop", "flipEnclosedPieces"),
                              "enclosingDrop = snort with pieces that turn over: not supported")
        flips["directions"] = "orthogonal"
    start = t.cells("enclosingDropStart")
    if start:
        flips["first-drops"] = t.region(start, "first-drops")
    if free:
        # Every type is dropped without a hand: the variant has none.
        flips["free-drops"] = [t.names[k] for k in t.types]
        t.data.pop("hands", None)
        t.data["setup"] = re.sub(r"\[[^\]]*\]", "", str(t.data["setup"]), count=1)
    t.data["flips"] = flips


# Fairy-Stockfish's wallingRule values and the `walls:` kinds they are.
WALL_KINDS = {"duck": "duck", "arrow": "arrow", "past": "past", "static": "anywhere",
              "edge": "edge"}


def write_walls(t: Translation) -> None:
    """`wallingRule` as `walls:` (the same region for both sides); walls
    (`*`) in the start position with no wallingRule stand there for good."""
    s = t.settings
    if s.facts is None and not s.parentless:
        raise Unsupported(s.entry("wallingRule", "wallOrMove", "startFen"), "changes the walls "
                          "of a parent whose rules the importer does not know")
    rule = s.value("wallingRule").strip()
    if rule == "none":
        if "*" in str(t.data["setup"]).split()[0]:
            t.data["walls"] = {"kind": "none"}
            t.data.setdefault("position-string", {})["holes"] = "*"
        else:
            t.data.pop("walls", None)
        return
    if rule not in WALL_KINDS:
        raise Unsupported(s.entry("wallingRule"), f"wallingRule = {shorten(rule)}: not supported")
    board = frozenset((f, r) for f in range(t.files) for r in range(t.ranks))
    white, black = (t.cells(key) if s.value(key).strip() else board
                    for key in ("wallingRegionWhite", "wallingRegionBlack"))
    if white != black:
        raise Unsupported(s.entry("wallingRegionWhite", "wallingRegionBlack"),
                          "walling regions that differ by side: not supported")
    walls: dict[str, Any] = {"kind": WALL_KINDS[rule]}
    if s.flag("wallOrMove"):
        # A turn is a move or a wall (measured in atlantis).
        if WALL_KINDS[rule] not in ("anywhere", "edge"):
            raise Unsupported(s.entry("wallOrMove"), f"wallOrMove with wallingRule = {rule}: "
                              "not supported")
        walls["or-move"] = True
    if white != board:
        walls["region"] = t.region(white, "walls")
    if s.flag("extinctionPseudoRoyal"):
        # Measured: Fairy-Stockfish judges its king's safety before the
        # wall (the old duck still standing), a pseudo-royal piece's after
        # the whole move.
        if "king" in t.types:
            raise Unsupported(s.entry("wallingRule"), "wallingRule with a king beside "
                              "pseudo-royal pieces: not supported")
        # (Measured in atomicduck: the cells a castling king passes are
        # judged so too, and a new wall may shield them.)
        walls["royal-safety"] = "with-wall"
    t.data["walls"] = walls
    t.data.setdefault("position-string", {})["holes"] = "*"


def hops_as_rides(data: dict[str, Any]) -> dict[str, Any]:
    """A copy of `data` whose hoppers ride the lines they hop along, as
    Fairy-Stockfish judges where a piece is stuck (measured: cannonshogi's
    `pR` is dropped on every cell, and may stay unpromoted on the last rank)."""
    data = copy.deepcopy(data)
    for spec in data["pieces"].values():
        try:
            moves = spec["moves"] if "moves" in spec else expand(spec.get("betza", ""))
        except DeclarationError:
            continue        # reported when the declaration is loaded
        spec.pop("betza", None)
        for move in moves:
            if "hop" in move:
                move["ride"] = move.pop("hop")
                for key in ("screens", "beyond", "cannot-hop", "cannot-capture"):
                    move.pop(key, None)
        spec["moves"] = moves
    return data


def stuck_cells(t: Translation) -> dict[str, dict[str, frozenset[Cell]]]:
    """For each piece and side, the cells from which it could not move on an
    empty board, found with the compiled declaration itself."""
    try:
        variant = compile_within(t.budget, yaml.safe_dump(without_unused_regions(t.data),
                                                          sort_keys=False), f"{t.name}.yaml")
    except VariantError as error:
        raise Unsupported(t.settings.entry("immobilityIllegal"),
                          f"cannot be expressed: {error.problems[0].message}") from None
    board = variant.board
    stuck: dict[str, dict[str, frozenset[Cell]]] = {}
    for name, spec in t.data["pieces"].items():
        letter = spec["letter"]
        stuck[name] = {}
        for side, shown in zip(SIDES, (letter, letter.lower()), strict=True):
            code = variant.code_of_letter(shown)
            if code is None:
                continue
            cells = (board.names[c] for c in range(board.size)
                     if not variant.empty_board_reach(code, c, initial=False))
            stuck[name][side] = frozenset((ord(n[0]) - 97, int(n[1:]) - 1) for n in cells)
    return stuck


def without_unused_regions(data: dict[str, Any]) -> dict[str, Any]:
    """A copy of the declaration without the regions nothing names yet (the
    root's drop regions, before the rule against stranded pieces names them
    again)."""
    copied = copy.deepcopy(data)
    regions = copied.get("board", {}).get("regions", {})
    rest = yaml.safe_dump({k: v for k, v in copied.items() if k != "board"})
    for name in [n for n in regions if not re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", rest)]:
        del regions[name]
    return copied


def apply_immobility(t: Translation) -> None:
    """`immobilityIllegal`: no piece is dropped, nor may stay unpromoted,
    where it could not move on; a piece that could simply move there is not
    supported (the language has no such rule)."""
    entry = t.settings.entry("immobilityIllegal")
    stuck = stuck_cells(replace(t, data=hops_as_rides(t.data)))
    every = rank_cells(t.files, *range(t.ranks))
    rules = t.data.get("promotion")
    rules = [] if rules is None else rules if isinstance(rules, list) else [rules]
    for name, sides in stuck.items():
        if not any(sides.values()):
            continue
        shogi = next((r for r in rules if name in r.get("promotes-to", {})), None)
        pawn = next((r for r in rules if name in r.get("pieces", [])), None)
        if shogi is not None:
            if "optional" in shogi:
                shogi["optional"] = "where-it-can-move"
        elif pawn is not None:
            zone = pawn["regions"]
            region_cells = {side: cells_of(t, zone[side]) for side in SIDES}
            if any(not sides.get(side, frozenset()) <= region_cells[side] for side in SIDES):
                raise Unsupported(entry, f"immobilityIllegal: {name} could stop where it cannot "
                                  "move on: not supported")
            if "optional" in pawn:
                pawn["optional"] = t.sided(region_cells["white"] - sides.get("white", frozenset()),
                                           region_cells["black"] - sides.get("black", frozenset()),
                                           "optional-promotion")
        elif any(sides.get(side, frozenset()) != every for side in SIDES):
            # (a piece that never moves has no move to forbid: it is only
            # never dropped, below)
            raise Unsupported(entry, f"immobilityIllegal: {name} could stop where it cannot "
                              "move on: not supported")
        drops = t.data["pieces"][name].get("drops", {})
        if t.settings.flag("pieceDrops"):
            current = drops.get("regions")
            allowed = {side: (cells_of(t, current[side]) if current else
                              rank_cells(t.files, *range(t.ranks))) - sides.get(side, frozenset())
                       for side in SIDES}
            drops["regions"] = t.sided(allowed["white"], allowed["black"], f"{name}-drops")
            t.data["pieces"][name]["drops"] = drops
    if separate_hoppers(t, rules, stuck):
        t.data["promotion"] = rules


def separate_hoppers(t: Translation, rules: list[dict[str, Any]],
                     stuck: dict[str, dict[str, frozenset[Cell]]]) -> bool:
    """Pieces Fairy-Stockfish sees stuck elsewhere than `where-it-can-move`
    does (a hopper, stuck everywhere on the empty board, is to it a rider)
    get a promotion rule of their own whose `optional` names their cells;
    True when a rule was added."""
    moving = stuck_cells(t)
    added = False
    for rule in [r for r in rules if r.get("optional") == "where-it-can-move"]:
        zone = {side: cells_of(t, rule["regions"][side]) for side in SIDES}
        apart: dict[tuple[frozenset[Cell], ...], dict[str, str]] = {}
        for name in [n for n in rule["promotes-to"] if stuck[n] != moving[n]]:
            cells = tuple(zone[side] - stuck[name].get(side, frozenset()) for side in SIDES)
            apart.setdefault(cells, {})[name] = rule["promotes-to"].pop(name)
        for (white, black), forms in apart.items():
            rules.append({**copy.deepcopy(rule), "promotes-to": forms,
                          "optional": t.sided(white, black, "optional-promotion")})
            added = True
    rules[:] = [rule for rule in rules if rule.get("promotes-to", True)]
    return added


def cells_of(t: Translation, region: str) -> frozenset[Cell]:
    for cells, named in t.region_names.items():
        if named == region:
            return cells
    raise Unsupported(t.settings.entry("immobilityIllegal"),
                      f"immobilityIllegal with the parent's region {region!r}: not supported")


# --- writing the YAML text ----------------------------------------------------------------

# Top-level keys in the order a person writes them.
ORDER = ("variantkit", "name", "description", "inherits", "remove", "board", "sides",
         "royals", "must-capture", "explosion", "royal-facing", "hands", "pieces", "setup",
         "promotion", "castling", "end")


def overlay(parent: Any, child: Any) -> tuple[dict[str, Any], Any]:
    """What to write over `parent` so that it becomes `child`: the keys that
    differ, and the `remove:` entries (a list of keys, or a mapping one level
    down) for keys the child no longer has."""
    over: dict[str, Any] = {}
    gone: list[str] = []
    deeper: dict[str, Any] = {}
    for key, value in child.items():
        if key not in parent:
            over[key] = value
        elif isinstance(value, dict) and isinstance(parent[key], dict):
            sub, removal = overlay(parent[key], value)
            if sub:
                over[key] = sub
            if removal:
                deeper[key] = removal
        elif value != parent[key]:
            over[key] = value
    for key in parent:
        if key not in child and not replaced_by_alternative(key, child):
            gone.append(key)
    if gone and deeper:
        for key in deeper:         # one level cannot both list and descend
            gone.append(key)
            over[key] = child[key]
        deeper = {}
    return over, (gone or deeper or None)


def replaced_by_alternative(key: str, child: dict[str, Any]) -> bool:
    return (key in ("moves", "betza") and bool({"moves", "betza"} & child.keys())) or \
        (key in ("grid", "polar", "hex", "graph") and "grid" in child)


def yaml_text(name: str, root: str | None, data: dict[str, Any], note: str) -> str:
    if root is not None:
        parent = load_document(root).data
        over, removal = overlay(parent, data)
        for key in ("variantkit", "name", "description"):
            over.pop(key, None)
        body: dict[str, Any] = {"variantkit": 1, "name": name,
                                "description": data["description"], "inherits": root}
        if removal:
            body["remove"] = removal
        body.update(over)
    else:
        body = dict(data, name=name)
    ordered = {key: body[key] for key in ORDER if key in body}
    ordered.update({k: v for k, v in body.items() if k not in ordered})
    parts = []
    header = 0      # the lines that name the file come first, without blank lines
    for key, value in ordered.items():
        header += key in ("variantkit", "name", "description", "inherits")
        # Leaf lists and mappings inline (`{letter: Q, betza: QN}`), the rest
        # as blocks, as a person writes them.
        flow = None if isinstance(value, (dict, list)) else False
        parts.append(yaml.dump({key: value}, Dumper=PlainDumper, sort_keys=False,
                               default_flow_style=flow, width=100, allow_unicode=True))
    return note + "".join(parts[:header]) + "".join("\n" + part for part in parts[header:])


class PlainDumper(yaml.SafeDumper):
    """Writes a value shared by two places twice, as a person would, rather
    than as a YAML anchor and alias (`&id001`, `*id001`)."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def compile_within(budget: Budget, text: str, source: str) -> Variant:
    """`text` compiled with what one variant may spend (DEFAULT_UNITS) and
    no more than `budget` has left, which pays what it spends."""
    units = min(DEFAULT_UNITS, max(budget.units, 0))
    share = Budget(units, source=source)
    share.seconds, share.deadline = budget.seconds, budget.deadline
    try:
        return load_text(text, source, budget=share)
    finally:
        budget.units -= units - share.units


def import_section(ini: IniFile, name: str, sections: list[Section], root: str | None,
                   budget: Budget | None = None) -> str | list[Problem]:
    """The YAML text of section `name`, or the problems that keep it out;
    compiling it spends from `budget` (by default a file's, IMPORT_UNITS)."""
    section = ini.sections[name]
    settings = settings_of(sections, root)
    problems = [p for p in check_keys(ini, section, settings) if p.severity == "error"]
    if root is not None and root not in bundled_names():
        problems.append(Problem(f"[{sections[0].name}:{root}]: the parent {root!r} is not a "
                                "bundled variant", "fsf-parent", ini.source, sections[0].line))
    if problems:
        return problems
    t = Translation(name, settings, base_data(root),
                    budget=Budget(IMPORT_UNITS) if budget is None else budget)
    try:
        translate(t)
    except Unsupported as error:
        line = error.entry.line if error.entry is not None else section.line
        return [Problem(error.reason, "fsf-unsupported", ini.source, line)]
    t.data["name"] = name
    t.data["description"] = f"{name}, imported from Fairy-Stockfish's ini format."
    parents = " <- ".join(f"[{s.name}]" for s in reversed(sections))
    # (the file's name is anyone's text: a line break in it would start a YAML line)
    note = (f"# Imported from {one_line(ini.source)}, section {parents} (line {section.line}),\n"
            f"# by `variantkit import-fsf`.\n")
    text = yaml_text(name, root, t.data, note)
    if not all(line.isprintable() for line in text.split("\n")):
        # YAML escapes such characters in a quoted value, but not in every
        # value of an inline list: a reader would see a line break there.
        return [Problem("cannot be expressed: a value holds a line break or control character",
                        "fsf-unsupported", ini.source, section.line)]
    try:
        compile_within(t.budget, text, f"{name}.yaml")
    except VariantError as error:
        first = error.problems[0]
        return [Problem(f"cannot be expressed: {first.message}", "fsf-unsupported",
                        ini.source, section.line)]
    return text
