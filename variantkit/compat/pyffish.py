"""pyffish's interface, answered by variantkit.

Programs built on Fairy-Stockfish talk to it through its Python binding,
pyffish: stateless calls that name a variant, a position string, the list of
moves played from it in UCI form, whether the game is played as Chess960,
and for written moves a notation.  This module has pyffish's functions,
constants and return values (version 0.0.90's), so that a program plays
variantkit's games by changing one import:

    import variantkit.compat.pyffish as sf
    sf.legal_moves("chess", sf.start_fen("chess"), ["e2e4"])

Every bundled game answers under its own name (those Fairy-Stockfish also
knows under the same name, as it does), and so does each section of a
Fairy-Stockfish ini text given to `load_variant_config`, imported by
`variantkit.fsf.import_ini`.  variantkit's own games (Strato's planes,
Diplomat's circle) answer in their own position and move strings; the
notations that count files and ranks, and fog of war, need a board whose
cells are named by file letters and rank numbers.

pyffish plays every move of the list again at each call.  The module
keeps the last games played (`GAMES_KEPT`), each under its variant,
position string, Chess960 flag and moves, so that a call whose moves extend
a kept game's by a few (a game that goes on one move at a time) plays only
those.  Calls
are serialised by one lock: a kept game is never played by two threads.

Bad input raises `error` (a `ValueError`, and pyffish's `error`): an
unknown variant, a move that is not legal, a position string the game
cannot read; an argument of the wrong type raises TypeError, as pyffish
does.  docs/pyffish.md lists every answer that differs from pyffish's, and
why.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any, NamedTuple, TypeVar

import variantkit
from variantkit.core.conditions import result_for
from variantkit.core.moves import (
    CASTLE,
    CASTLE_GATE,
    DOUBLE,
    DROP,
    EN_PASSANT,
    GATE,
    NORMAL,
    PASS,
    SUBORN,
    TWO_STEP,
    WALLED,
    InternalMove,
    gate_parts,
    wall_parts,
)
from variantkit.core.position import Position
from variantkit.errors import IllegalMoveError, Problem, quote
from variantkit.fsf import IniError, import_ini
from variantkit.fsf.ini import MAX_INI_CHARS, read_ini
from variantkit.game import Game
from variantkit.limits import MAX_PGN_PLIES, read_named_file
from variantkit.loader import bundled_names
from variantkit.notation.fen import placement
from variantkit.notation.san import san as write_san
from variantkit.outcome import insufficient_material, repetition_key
from variantkit.pieces import CAPTURE, MOVE, piece_code, reach, type_of
from variantkit.public_types import SIDES, Outcome
from variantkit.rulebook.setup import split_hand
from variantkit.rules import Rules
from variantkit.variant import Variant, load_text

__all__ = [
    "FEN_EMPTY", "FEN_INVALID_BOARD_GEOMETRY", "FEN_INVALID_CASTLING_INFO",
    "FEN_INVALID_CHAR", "FEN_INVALID_CHECK_COUNT", "FEN_INVALID_COUNTING_RULE",
    "FEN_INVALID_EN_PASSANT_SQ", "FEN_INVALID_HALF_MOVE_COUNTER", "FEN_INVALID_MOVE_COUNTER",
    "FEN_INVALID_NB_PARTS", "FEN_INVALID_NUMBER_OF_KINGS", "FEN_INVALID_POCKET_INFO",
    "FEN_INVALID_PROMOTED_PIECE", "FEN_INVALID_SIDE_TO_MOVE", "FEN_OK", "FEN_TOUCHING_KINGS",
    "GAMES_KEPT", "NOTATION_DEFAULT", "NOTATION_JANGGI", "NOTATION_LAN", "NOTATION_SAN",
    "NOTATION_SHOGI_HODGES", "NOTATION_SHOGI_HODGES_NUMBER", "NOTATION_SHOGI_HOSKING",
    "NOTATION_THAI_LAN", "NOTATION_THAI_SAN", "NOTATION_XIANGQI_WXF", "VALUE_DRAW",
    "VALUE_MATE", "VARIANTS_KEPT", "captures_to_hand", "error", "game_result", "get_fen",
    "get_fog_fen", "get_san", "get_san_moves", "gives_check", "has_insufficient_material",
    "info", "is_capture", "is_immediate_game_end", "is_optional_game_end", "legal_moves",
    "load_variant_config", "piece_to_partner", "set_option", "start_fen", "two_boards",
    "validate_fen", "variants", "version",
]

# -- pyffish's constants ---------------------------------------------------------

# A won game's value for the side to move (a lost one's is -VALUE_MATE).
VALUE_MATE = 32000
VALUE_DRAW = 0

NOTATION_DEFAULT = 0   # the variant's own: SAN, or shogi's Hodges numbers
NOTATION_SAN = 1
NOTATION_LAN = 2
NOTATION_SHOGI_HOSKING = 3
NOTATION_SHOGI_HODGES = 4
NOTATION_SHOGI_HODGES_NUMBER = 5
NOTATION_JANGGI = 6
NOTATION_XIANGQI_WXF = 7
NOTATION_THAI_SAN = 8
NOTATION_THAI_LAN = 9

# What `validate_fen` answers.  pyffish 0.0.90 names two of them; the module
# names every value it returns.
FEN_OK = 1
FEN_EMPTY = 0
FEN_INVALID_MOVE_COUNTER = -1
FEN_INVALID_HALF_MOVE_COUNTER = -2
FEN_INVALID_NUMBER_OF_KINGS = -3
FEN_INVALID_EN_PASSANT_SQ = -4
FEN_INVALID_CASTLING_INFO = -5
FEN_INVALID_SIDE_TO_MOVE = -6
FEN_INVALID_POCKET_INFO = -7
FEN_INVALID_BOARD_GEOMETRY = -8
FEN_TOUCHING_KINGS = -9
FEN_INVALID_CHAR = -10
FEN_INVALID_NB_PARTS = -11
FEN_INVALID_PROMOTED_PIECE = -12
FEN_INVALID_CHECK_COUNT = -13
FEN_INVALID_COUNTING_RULE = -14

# The version of pyffish whose interface this module answers.
PYFFISH_VERSION = (0, 0, 90)

# Games kept between calls (each a position with the moves played on it),
# the least recently used dropped first; a site serving many games at once
# keeps the last ones of each.
GAMES_KEPT = 32
# Compiled variants kept between calls (compiling one takes 30 to 100 ms;
# every bundled game fits, with room for loaded ones).
VARIANTS_KEPT = 160
# Moves in one move list: as many as a game read from PGN may have.
MAX_MOVES = MAX_PGN_PLIES
# Kept games whose moves are this many fewer than a call's are played on
# (the moves of one ply or two after a call, a take-back undone), rather
# than the whole list from the position string.
REUSE_PLIES = 4

# Fairy-Stockfish's options (`set_option` takes each, in any case, and
# changes nothing: the answers do not depend on them); `VariantPath` loads
# the ini file it names, as Fairy-Stockfish does.
OPTIONS = frozenset(name.lower() for name in (
    "Debug Log File", "Threads", "Hash", "Clear Hash", "Ponder", "MultiPV", "Skill Level",
    "Move Overhead", "Slow Mover", "nodestime", "UCI_Chess960", "UCI_Variant",
    "UCI_AnalyseMode", "UCI_LimitStrength", "UCI_Elo", "UCI_ShowWDL", "SyzygyPath",
    "SyzygyProbeDepth", "Syzygy50MoveRule", "SyzygyProbeLimit", "TsumeMode", "VariantPath",
    "Use NNUE", "EvalFile", "usemillisec"))


class error(ValueError):
    """Bad input: an unknown variant, a move that is not legal in the
    position, a position string the game cannot read, a notation the board
    cannot be written in.  A ValueError, as pyffish raises for a bad move."""


# -- arguments, checked as pyffish's C functions check them ------------------------

def _kind(value: object) -> str:
    return "None" if value is None else type(value).__name__


def _text(value: object, number: int) -> str:
    if not isinstance(value, str):
        raise TypeError(f"argument {number} must be str, not {_kind(value)}")
    if "\0" in value:
        raise ValueError("embedded null character")
    return value


def _moves(value: object, number: int) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise TypeError(f"argument {number} must be list, not {_kind(value)}")
    if len(value) > MAX_MOVES:
        raise error(f"a move list of {len(value):,} moves, more than the {MAX_MOVES:,} "
                    "allowed")
    for move in value:
        if not isinstance(move, str):
            raise TypeError(f"a move is a str, not {type(move).__name__}")
    return tuple(value)


def _number(value: object) -> int:
    if not isinstance(value, int):
        raise TypeError(f"'{_kind(value)}' object cannot be interpreted as an integer")
    return value


_Answer = TypeVar("_Answer")
_LOCK = threading.RLock()


def _answer(work: Callable[[], _Answer]) -> _Answer:
    """Run one call's work under the lock; whatever goes wrong inside is
    `error`, never another exception."""
    with _LOCK:
        try:
            return work()
        except error:
            raise
        except (ValueError, LookupError, ArithmeticError, AssertionError, TypeError,
                RecursionError) as exc:
            raise error(" ".join(str(exc).split()) or type(exc).__name__) from None


# -- the variants ----------------------------------------------------------------

class _Variants:
    """The games known by name: the bundled ones, and the sections loaded
    by `load_variant_config` (which take precedence), compiled when first
    asked for and kept, the last VARIANTS_KEPT of them."""

    def __init__(self) -> None:
        self.bundled: frozenset[str] | None = None
        # The ini text of each section loaded, in the order loaded, so that a
        # later section may inherit from an earlier one.
        self.sections: dict[str, str] = {}
        self.imported: dict[str, str] = {}       # section name -> its variant YAML
        self.refused: dict[str, str] = {}        # section name -> why it did not import
        self.compiled: OrderedDict[str, Variant] = OrderedDict()

    def bundled_names(self) -> frozenset[str]:
        if self.bundled is None:
            self.bundled = frozenset(bundled_names())
        return self.bundled

    def names(self) -> list[str]:
        return sorted(self.bundled_names() | set(self.imported))

    def get(self, name: str) -> Variant:
        variant = self.compiled.get(name)
        if variant is not None:
            self.compiled.move_to_end(name)
            return variant
        if name in self.imported:
            variant = load_text(self.imported[name], f"<load_variant_config [{name}]>")
        elif name in self.refused:
            raise error(f"variant {quote(name)} was not imported: {self.refused[name]}")
        elif name in self.bundled_names():
            variant = variantkit.load(name)
        else:
            raise error(f"unknown variant {quote(name)}")
        self.compiled[name] = variant
        if len(self.compiled) > VARIANTS_KEPT:
            self.compiled.popitem(last=False)
        return variant

    def load(self, text: str, source: str) -> None:
        """Import each section of an ini text (after those loaded before,
        which its sections may inherit from); a later section of a name
        replaces the earlier one."""
        try:
            ini = read_ini(text, source)
        except IniError as exc:
            raise error(" ".join(str(exc).split())) from None
        lines = text.splitlines()
        starts = sorted(section.line for section in ini.sections.values())
        new: dict[str, str] = {}
        for name, section in ini.sections.items():
            later = [line for line in starts if line > section.line]
            end = later[0] - 1 if later else len(lines)
            new[name] = "\n".join(lines[section.line - 1:end])
        sections = {**self.sections, **new}
        combined = "\n".join(sections.values())
        if len(combined) > MAX_INI_CHARS:
            raise error(f"the configurations loaded would hold {len(combined):,} characters, "
                        f"more than the {MAX_INI_CHARS:,} allowed")
        try:
            result = import_ini(combined, source, sections=list(new))
        except IniError as exc:
            raise error(" ".join(str(exc).split())) from None
        self.sections = sections
        for name, outcome in result.items():
            self.compiled.pop(name, None)
            if isinstance(outcome, str):
                self.imported[name] = outcome
                self.refused.pop(name, None)
            else:
                self.imported.pop(name, None)
                self.refused[name] = "; ".join(_problem_text(p) for p in outcome)


def _problem_text(problem: Problem) -> str:
    return f"{problem.location()}: {problem.message}"


_VARIANTS = _Variants()


# -- what the module derives from a variant's declaration ------------------------------

# Fairy-Stockfish's Thai notation writes a piece by the Thai letter of its
# kind, told here by where its moves reach on the empty board: the king (a
# royal piece stepping one cell every way), the khon (a silver), the met (a
# ferz; one promoted during the moves is written apart), the knight, the
# rook, the ai-wok (rook, knight and ferz) and the pawn; any other piece is
# `X`.
THAI_KING, THAI_PAWN, THAI_PROMOTED_MET, THAI_OTHER = "ข", "บ", "ง", "X"
THAI_BY_REACH = {"khon": "ค", "ferz": "ม็", "knight": "ม", "rook": "ร", "ai-wok": "ว"}
THAI_FILES = ("ก", "ข", "ค", "ง", "จ", "ฉ", "ช", "ญ", "ต", "ถ", "ธ", "น")
THAI_RANKS = ("๑", "๒", "๓", "๔", "๕", "๖", "๗", "๘", "๙", "๑๐", "๑๑", "๑๒")
# The default notation of a variant whose file declares this style.
DEFAULT_NOTATION = {"hodges-number": NOTATION_SHOGI_HODGES_NUMBER,
                    "hodges": NOTATION_SHOGI_HODGES, "hosking": NOTATION_SHOGI_HOSKING,
                    "wxf": NOTATION_XIANGQI_WXF}
SHOGI_NOTATIONS = frozenset({NOTATION_SHOGI_HOSKING, NOTATION_SHOGI_HODGES,
                             NOTATION_SHOGI_HODGES_NUMBER})
THAI_NOTATIONS = frozenset({NOTATION_THAI_SAN, NOTATION_THAI_LAN})
NOTATIONS = frozenset(range(NOTATION_DEFAULT, NOTATION_THAI_LAN + 1))
_CELL = re.compile(r"([a-z])([0-9]+)")


class _Grid(NamedTuple):
    files: int
    ranks: int


@lru_cache(maxsize=VARIANTS_KEPT)
def _grid(rules: Rules) -> _Grid | None:
    """The files and ranks of a board whose cells are named by a file
    letter and a rank number (a grid of one plane, or a graph cut out of
    one: Gustav III's, Omicron's), to count in notations; None for another."""
    found = [_CELL.fullmatch(name) for name in rules.board.names]
    if not all(found):
        return None
    return _Grid(max(ord(m[1]) - ord("a") for m in found if m) + 1,
                 max(int(m[2]) for m in found if m))


def _file_rank(rules: Rules, cell: int) -> tuple[int, int]:
    """A grid cell's file and rank, from 0 (a1 is (0, 0))."""
    found = _CELL.fullmatch(rules.board.names[cell])
    assert found is not None, rules.board.names[cell]
    return ord(found[1]) - ord("a"), int(found[2]) - 1


def _pawn_letterless(rules: Rules, code: int) -> bool:
    """Whether a piece is a pawn SAN writes without a letter: one promoting
    to a choice of pieces, with no letter declared for written moves."""
    return code in rules.promotion.pawn_like[code & 1] \
        and type_of(code) not in rules.notation.letters


def _written_letter(rules: Rules, code: int) -> str:
    """A piece's letter in written moves: the declared one, else its
    position-string letter in upper case (a promoted form that looks like
    another piece, `Q~`, as that piece)."""
    declared = rules.notation.letters.get(type_of(code))
    if declared:
        return declared
    return rules.letter_of_code(code).upper().rstrip("~")


@lru_cache(maxsize=4096)
def _kind_letter(rules: Rules, code: int) -> str:
    """The letter of a promoted form's kind, as Fairy-Stockfish names the
    kinds: that of a piece without a `+` that moves alike everywhere on
    the empty board (shogi's tokin is a gold, `G`), else its own letter."""
    own = rules.letter_of_code(code).upper()
    board = rules.board
    reach = [rules.empty_board_reach(code & ~1, cell) for cell in range(board.size)]
    for other in range(2, rules.codes.n_codes, 2):
        letter = rules.letter_of_code(other)
        if not letter.startswith("+") and other != code & ~1 and all(
                rules.empty_board_reach(other, cell) == reach[cell]
                for cell in range(board.size)):
            return letter.upper()
    return own


@lru_cache(maxsize=4096)
def _region(rules: Rules, code: int) -> int:
    """The cells a piece of `code` may stand on, as far as its moves tell:
    every cell one reaches on the empty board or on a full one (an
    advisor's palace; the whole board for a grasshopper, which needs a
    piece to leap)."""
    everything = (1 << rules.board.size) - 1
    cells = 0
    for cell in range(rules.board.size):
        for generator in rules.codes.generators[code]:
            cells |= reach(generator.tables[cell], 1 << cell) \
                | reach(generator.tables[cell], everything)
    return cells


@lru_cache(maxsize=4096)
def _reach_kind(rules: Rules, code: int) -> str | None:
    """The kind of piece whose moves and captures reach, on the empty
    board, what this piece's do, and whose captures reach it too where
    every cell is taken (seen from White's side, every cell's reach put
    together as offsets from it, first moves left out): `king`, `khon`,
    `ferz`, `knight`, `rook` or `ai-wok`; None for another (a cannon,
    which captures only by leaping; xiangqi's horse, which a piece beside
    it blocks)."""
    grid = _grid(rules)
    if grid is None:
        return None
    everything = (1 << rules.board.size) - 1
    offsets: list[set[tuple[int, int]]] = [set(), set(), set()]
    for cell in range(rules.board.size):
        f0, r0 = _file_rank(rules, cell)
        for generator in rules.codes.generators[code & ~1]:
            if generator.initial:
                continue
            table = generator.tables[cell]
            for found, mode, occupied in ((offsets[0], MOVE, 1 << cell),
                                          (offsets[1], CAPTURE, 1 << cell),
                                          (offsets[2], CAPTURE, everything)):
                if generator.mode & mode:
                    found.update((f - f0, r - r0) for f, r in (
                        _file_rank(rules, c)
                        for c in rules.board.cells_of(reach(table, occupied))))
    ferz = {(x, y) for x in (-1, 1) for y in (-1, 1)}
    wazir = {(1, 0), (-1, 0), (0, 1), (0, -1)}
    knight = {(x, y) for a, b in ((1, 2), (2, 1)) for x in (-a, a) for y in (-b, b)}
    # A rook slides along files and ranks, as far as the board goes: every
    # offset on those lines, two cells away at least in each direction.
    lines = {o for o in offsets[0] if 0 in o}
    rook = lines if wazir <= lines and {(2, 0), (-2, 0), (0, 2), (0, -2)} <= lines \
        and grid.files > 2 and grid.ranks > 2 else set()
    kinds = {  # kind: its reach on the empty board, and its captures on a full one
        "king": (ferz | wazir, ferz | wazir), "khon": (ferz | {(0, 1)}, ferz | {(0, 1)}),
        "ferz": (ferz, ferz), "knight": (knight, knight), "rook": (rook, wazir),
        "ai-wok": (rook | knight | ferz, wazir | knight | ferz)}
    return next((kind for kind, (empty, full) in kinds.items()
                 if empty and offsets[0] == empty and offsets[1] == empty
                 and offsets[2] == full), None)


# -- games: position strings, moves, the games kept ------------------------------

class _Games:
    """The last games played, by (variant, position string, Chess960, moves)."""

    def __init__(self) -> None:
        self.kept: OrderedDict[tuple[Variant, str, bool, tuple[str, ...]], Game] = OrderedDict()

    def get(self, variant: Variant, fen: str, moves: tuple[str, ...], chess960: bool) -> Game:
        """The game after `moves` from `fen` (a kept one: callers leave it
        as they found it)."""
        exact = self.kept.get((variant, fen, chess960, moves))
        if exact is not None:
            self.kept.move_to_end((variant, fen, chess960, moves))
            return exact
        base: Game | None = None
        done = 0
        for back in range(1, min(REUSE_PLIES, len(moves)) + 1):
            found = self.kept.get((variant, fen, chess960, moves[:-back]))
            if found is not None:
                base, done = found.copy(), len(moves) - back
                break
        if base is None:
            start = self.kept.get((variant, fen, chess960, ()))
            if start is None:
                start = _read(variant, fen, chess960)
                self._keep((variant, fen, chess960, ()), start)
            base = start.copy()
        for move in moves[done:]:
            _push(base, move)
        if moves:
            self._keep((variant, fen, chess960, moves), base)
        return base

    def _keep(self, key: tuple[Variant, str, bool, tuple[str, ...]], game: Game) -> None:
        self.kept[key] = game
        if len(self.kept) > GAMES_KEPT:
            self.kept.popitem(last=False)


_GAMES = _Games()


def _push(game: Game, move: str) -> None:
    try:
        game.push(move)
    except IllegalMoveError:
        raise error(f"Invalid move {quote(move)}") from None


def _read(variant: Variant, fen: str, chess960: bool) -> Game:
    """The game a position string starts (`startpos`: the variant's start),
    castling as Chess960 writes it when `chess960` is set, else as the
    variant declares it where the string allows."""
    text = variant.setup_fen if fen == "startpos" else fen
    try:
        game = variant.new_game(text)
    except ValueError as exc:
        lenient = _lenient(variant, text)
        try:
            if lenient == text:
                raise
            game = variant.new_game(lenient)
        except ValueError:
            raise error(f"position string {quote(text)}: {' '.join(str(exc).split())}"
                        ) from None
    position = game.position
    if chess960 and variant.rules.castling.castlings and not position.chess960:
        # Chess960 mode is read from castling rights written by the rooks' files.
        game = variant.new_game(game.fen("shredder"))
    elif not chess960 and position.chess960 and not variant.rules.castling.free_castling:
        declared = _declared_rights(game)
        if declared is not None:
            game = declared
    return game


def _lenient(variant: Variant, text: str) -> str:
    """A position string as Fairy-Stockfish reads it, for variantkit's
    reader: a piece named by its letter in written moves (xiangqi's `H` for
    the horse `N`) by its position-string letter, and the castling and en
    passant fields of a game that has neither passed over (`-`)."""
    fields = text.split(" ")
    synonyms = _synonyms(variant.rules)
    fields[0] = "".join(synonyms.get(c, c) for c in fields[0])
    # `w 0 1`: the castling and en passant fields left out.
    omitted = 4 <= len(fields) <= 5 and fields[2][:1].isdigit()
    if len(fields) > 2 and not omitted and not _castles(variant.rules):
        fields[2] = "-"
    if len(fields) > 3 and not omitted and variant.rules.end.counting is None and not any(
            g.en_passant for generators in variant.rules.codes.generators for g in generators):
        fields[3] = "-"
    return " ".join(fields)


def _castles(rules: Rules) -> bool:
    """Whether a game's castling field means anything: castling, gating,
    or the first moves of `initial-rights`."""
    return bool(rules.castling.castlings) or rules.gating.any \
        or bool(rules.first_moves.initial_rights)


@lru_cache(maxsize=VARIANTS_KEPT)
def _synonyms(rules: Rules) -> dict[str, str]:
    """Each piece's letter in written moves that is no position-string
    letter, to its position-string letter, in both cases."""
    out: dict[str, str] = {}
    for kind, letter in rules.notation.letters.items():
        own = rules.letter_of_code(piece_code(kind, 0))
        if len(letter) == 1 and len(own) == 1 and letter.upper() not in rules.letter_codes:
            out[letter.upper()], out[letter.lower()] = own.upper(), own.lower()
    return out


def _declared_rights(game: Game) -> Game | None:
    """The game with its castling rights read as the declared letters (as
    Fairy-Stockfish reads `HAha` without Chess960), when the rooks stand
    where those letters name them; else None."""
    fields = game.fen().split(" ")
    if len(fields) < 3:
        return None
    rights = fields[2]
    variant = game.variant
    letters = sorted({c.right for c in variant.rules.castling.castlings})
    declared = "".join(letter for letter in letters if letter.isupper()) + \
        "".join(letter for letter in letters if letter.islower())
    candidate = " ".join([fields[0], fields[1], declared, *fields[3:]])
    try:
        again = variant.new_game(candidate)
    except ValueError:
        return None
    kept = _castling_letters(again)
    if again.position.chess960 or len(kept) != len(rights):
        return None
    return again


def _castling_letters(game: Game) -> str:
    """The castling field of a game's position string ('' for `-`)."""
    fields = game.fen().split(" ")
    return fields[2].replace("-", "") if len(fields) > 2 else ""


def _game(variant_name: str, fen: str, moves: tuple[str, ...], chess960: bool) -> Game:
    return _GAMES.get(_VARIANTS.get(variant_name), fen, moves, chess960)


# -- the functions: the library and its variants ------------------------------------

def version() -> tuple[int, int, int]:
    """The version of pyffish whose interface is answered: (0, 0, 90)."""
    return PYFFISH_VERSION


def info() -> str:
    """Who answers: variantkit and its version."""
    return f"variantkit {variantkit.__version__} (pyffish {'.'.join(map(str, PYFFISH_VERSION))} " \
           "interface)"


def variants() -> list[str]:
    """The names of the games, sorted: the bundled ones and those loaded."""
    return _answer(_VARIANTS.names)


def set_option(name: str, value: Any, /) -> None:
    """Set one of Fairy-Stockfish's options.  None changes an answer here;
    `VariantPath` loads the ini file it names (see `load_variant_config`).
    An unknown option raises ValueError, as pyffish does."""
    _text(name, 1)
    if name.lower() not in OPTIONS:
        raise ValueError(f"No such option {name}'")
    if name.lower() == "variantpath":
        path = str(value)
        if path and path != "<empty>":
            _answer(lambda: _load_file(path))


def _load_file(path: str) -> None:
    try:
        data = read_named_file(path, MAX_INI_CHARS)
    except OSError as exc:
        raise error(f"cannot read {quote(path)}: {exc.strerror or exc}") from None
    _VARIANTS.load(data.decode("utf-8", "replace"), path)


def load_variant_config(config: str, /) -> None:
    """Load the variants of a Fairy-Stockfish ini text: each section that
    variantkit's importer takes joins the games by its name (a section may
    inherit from a bundled game, an earlier section of the text, or one
    loaded before).  A section it refuses is named in the `error` raised
    when a call names it."""
    _text(config, 1)
    _answer(lambda: _VARIANTS.load(config, "<load_variant_config>"))


def start_fen(variant: str, /) -> str:
    """The variant's start position string."""
    _text(variant, 1)
    return _answer(lambda: _VARIANTS.get(variant).setup_fen)


def two_boards(variant: str, /) -> bool:
    """Whether the variant is played on two boards (its captures go to the
    partner's hand: bughouse)."""
    _text(variant, 1)
    return _answer(lambda: any(code >= 0 for code in _VARIANTS.get(variant).rules.hands.to_partner))


def captures_to_hand(variant: str, /) -> bool:
    """Whether a captured piece joins the capturer's hand (crazyhouse, shogi)."""
    _text(variant, 1)
    return _answer(lambda: bool(_VARIANTS.get(variant).rules.hands.captures_to_hand))


# -- the functions: positions and moves ------------------------------------------------

def legal_moves(variant: str, fen: str, movelist: list[str], chess960: bool = False, /
                ) -> list[str]:
    """The legal moves after `movelist` from `fen`, as move strings."""
    key = _position_arguments(variant, fen, movelist)
    return _answer(lambda: _move_texts(_game(*key, bool(chess960))))


def _move_texts(game: Game) -> list[str]:
    """The legal moves' strings as Fairy-Stockfish writes them (which
    differ from variantkit's only where a turn is a move or a wall)."""
    walling = game.position.rules.walls
    if walling is not None and walling.or_move:
        return [written.text for written in _describe(game.position)]
    return [str(m) for m in game.legal_moves()]


def _position_arguments(variant: object, fen: object, movelist: object
                        ) -> tuple[str, str, tuple[str, ...]]:
    return _text(variant, 1), _text(fen, 2), _moves(movelist, 3)


def get_fen(variant: str, fen: str, movelist: list[str], chess960: bool = False,
            sfen: bool = False, show_promoted: bool = False, count_started: int = 0, /) -> str:
    """The position string after `movelist` from `fen`: as Fairy-Stockfish
    writes it, or with `sfen` as shogi's SFEN; with `show_promoted`, a
    piece promoted during the moves is marked `~` (`Q~`).  `count_started`
    is taken and changes nothing (see docs/pyffish.md)."""
    key = _position_arguments(variant, fen, movelist)
    _number(count_started)
    return _answer(lambda: _fen(_game(*key, bool(chess960)), bool(sfen), bool(show_promoted)))


def _fen(game: Game, sfen: bool = False, show_promoted: bool = False) -> str:
    text = _sfen(game) if sfen else game.fen()
    fields = text.split(" ")
    position = game.position
    if not sfen and position.ep_target and len(fields) > 3:
        fields[3] = _en_passant_field(position)
    if show_promoted and _grid(position.rules) is not None:
        promoted, _ = _promotions(position)
        fields[0] = _rewritten(fields[0], position.rules, lambda cell, item: item + "~" if (
            cell in promoted and item and "~" not in item and "+" not in item) else item)
    return " ".join(fields)


def _en_passant_field(position: Position) -> str:
    """The en passant field as Fairy-Stockfish writes it: the cells passed
    when a piece of the side to move could capture there, legal or not;
    for a pawn whose moves are not chess's (one with a letter in written
    moves), always, with the cell of the piece that passed them, in the
    order of the cells."""
    rules = position.rules
    names = rules.board.names
    victim = position.ep_victim
    if victim >= 0 and not _pawn_letterless(rules, position.cells[victim]):
        cells = sorted(rules.board.cells_of(position.ep_target) + [victim])
        return "".join(names[cell] for cell in cells)
    capturers = {m[1] for m in position.captures_unchecked()
                 if m[3] == EN_PASSANT or m[3] == WALLED + EN_PASSANT}
    written = [names[cell] for cell in rules.board.cells_of(position.ep_target)
               if cell in capturers]
    return "".join(written) or "-"


def _sfen(game: Game) -> str:
    """Shogi's SFEN: the placement, `b` when White (the side that moves
    first) is to move, the hands as counts and letters (`2P3p`, `-` for
    none), and the ply number from 1."""
    position = game.position
    rules = position.rules
    board, _ = split_hand(placement(position))
    hands = ""
    for side in range(2):
        for code in rules.hands.hand_codes[side]:
            count = position.hands[code]
            if count:
                hands += ("" if count == 1 else str(count)) + rules.letter_of_code(code)
    ply = 2 * (position.fullmove - 1) + position.stm + 1
    return f"{board} {'wb'[1 - position.stm]} {hands or '-'} {ply}"


def gives_check(variant: str, fen: str, movelist: list[str], chess960: bool = False, /
                ) -> bool:
    """Whether the side to move is in check after `movelist`."""
    key = _position_arguments(variant, fen, movelist)
    return _answer(lambda: _game(*key, bool(chess960)).is_check())


@lru_cache(maxsize=VARIANTS_KEPT)
def _king_codes(rules: Rules) -> frozenset[int]:
    """The piece codes Fairy-Stockfish plays as kings (the kind that gives
    and suffers check): the royal piece where each side has one; where
    several are royal, those that move as kings, provided each side has
    one such kind and starts with at most one of it (coregal's king, not
    its queen; none in Spartan chess, whose black kings are two, nor in
    sho shogi, whose prince is a second king).  None where captures
    explode, nor a piece whose extinction the declared ends name: those
    kings are pieces whose loss loses."""
    extinct = {code for condition in rules.end.conditions
               if condition.kind == "extinct" and condition.codes is not None
               for codes in condition.codes for code in codes}
    if rules.captures.blast:
        return frozenset()
    royal = [code for code in range(2, rules.codes.n_codes)
             if rules.codes.royal_code[code] and code not in extinct]
    if rules.royals.one_royal:
        return frozenset(royal)
    kings = [code for code in royal if _reach_kind(rules, code) == "king"]
    start = rules.setup.fen.split(" ")[0]
    per_side = [[code for code in kings if code & 1 == side] for side in range(2)]
    if any(len(codes) > 1 or sum(start.count(rules.letter_of_code(c)) for c in codes) > 1
           for codes in per_side):
        return frozenset()
    return frozenset(kings)


def _king_in_check(position: Position) -> bool:
    """Whether the side to move's king is attacked, as Fairy-Stockfish
    marks a move that gives check (`_king_codes`)."""
    rules = position.rules
    kings = _king_codes(rules)
    if rules.royals.one_royal and kings:
        return position.is_check()
    us = position.stm
    occupied = position.side_bb[0] | position.side_bb[1] | position.walls
    return any(position.attackers(cell, 1 - us, occupied, position.side_bb[1 - us])
               for code in kings if code & 1 == us
               for cell in rules.board.cells_of(position.bb[code]))


def is_capture(variant: str, fen: str, movelist: list[str], move: str,
               chess960: bool = False, /) -> bool:
    """Whether `move` (legal after `movelist`) takes a piece."""
    key = _position_arguments(variant, fen, movelist)
    _text(move, 4)
    return _answer(lambda: _described(_game(*key, bool(chess960)), move).capture)


def piece_to_partner(variant: str, fen: str, movelist: list[str], chess960: bool = False, /
                     ) -> str:
    """The piece the last move of `movelist` captured, as it goes to a
    partner's hand on two boards (a promoted piece as its unpromoted form):
    its position-string letter in its owner's case, or '' when the last
    move took nothing."""
    key = _position_arguments(variant, fen, movelist)
    return _answer(lambda: _captured(_game(*key, bool(chess960))))


def _captured(game: Game) -> str:
    position = game.position
    if not position.history:
        return ""
    captured = position.history[-1][2]
    if not captured or position.history[-1][0][3] == PASS:
        return ""
    rules = position.rules
    _, was = _promotions(position)
    if was is not None:   # a promoted piece goes as the piece it was
        captured = was
    if rules.hands.to_partner[captured] >= 0:
        captured = rules.hands.to_partner[captured]
    elif rules.hands.to_hand[captured] >= 0:   # to the capturer's hand: back to its owner's side
        captured = rules.hands.to_hand[captured] ^ 1
    return rules.letter_of_code(captured).rstrip("~").lstrip("+")


def _promotions(position: Position) -> tuple[dict[int, int], int | None]:
    """The pieces on the board that were promoted during the moves played
    (cell -> the code of the piece that promoted), and the code the piece
    taken by the last move had before it promoted (None when it took none
    or an unpromoted one), followed through the moves as Fairy-Stockfish
    keeps them: a piece keeps its mark as it moves, loses it when taken."""
    promoted: dict[int, int] = {}
    taken: int | None = None
    rules = position.rules
    for record in position.history:
        move = record[0]
        if move[3] >= WALLED:
            move = wall_parts(move)[0]
        frm, to, promo, kind, extra = move
        if kind in (GATE, CASTLE_GATE):
            kind, extra, _, _ = gate_parts(move)
        if kind == PASS:
            continue
        victim = extra if kind == EN_PASSANT else to
        taken = promoted.pop(victim, None) if record[2] else None
        if kind in (DROP, CASTLE, SUBORN):
            promoted.pop(to, None)
            continue
        was = promoted.pop(frm, None)
        if promo and rules.promotion_suffix(promo, record[1]) == "-":
            was = None   # a promoted form turned back (kyoto shogi): unmarked
        elif promo:
            was = record[1] if was is None else was
        if was is None:
            promoted.pop(to, None)
        else:
            promoted[to] = was
    return promoted, taken


# -- written moves -----------------------------------------------------------------------

@dataclass(frozen=True)
class _Written:
    """One legal move with what writing it needs."""

    text: str           # the move string
    internal: InternalMove
    frm: int
    to: int             # the cell reached (a castling: the rook's cell, as Fairy-Stockfish)
    kind: int           # the plain move's kind (gating and walls apart)
    mover: int          # the piece code that moves (a drop: the code dropped)
    promotion: str      # the move string's promotion: a letter, `+`, `-` or ''
    promoted_to: int    # the code it becomes (0: none)
    capture: bool
    gate: int           # the gated piece's code (0: none)
    gate_cell: int
    wall: int           # the wall's cell (-1: none)


def _describe(position: Position) -> list[_Written]:
    """Every legal move of the position, described."""
    out: list[_Written] = []
    cells = position.cells
    walling = position.rules.walls
    or_move = walling is not None and walling.or_move
    for internal in position.legal_internal():
        frm, to, promo, kind, extra = internal
        wall = -1
        plain: InternalMove = internal
        if kind >= WALLED:
            plain, wall = wall_parts(internal)
            frm, to, promo, kind, extra = plain
        gate = gate_cell = 0
        if kind in (GATE, CASTLE_GATE):
            kind, extra, gate_cell, gate = gate_parts(plain)
        move = position.public_move(internal)
        if kind == DROP:
            mover = extra or promo
            capture = False
        else:
            mover = cells[frm]
            capture = kind in (EN_PASSANT, TWO_STEP) or (
                kind not in (CASTLE, SUBORN, PASS) and frm != to and cells[to] != 0)
        if kind == CASTLE:
            to = position.castlings[extra].rook_from
        text = str(move)
        if wall < 0 and or_move:
            # Fairy-Stockfish writes a move without a wall, where a turn is a
            # move or a wall, with its board's first cell as the wall's
            # (`e2e4,e4a1`; its SAN `e4,a1`).
            wall = 0
            text = str(replace(move, wall=position.rules.board.names[0]))
        out.append(_Written(text, internal, frm, to, kind, mover, move.promotion or "",
                            promo if kind != DROP else 0, capture, gate, gate_cell, wall))
    return out


def _same_kind(a: _Written, b: _Written) -> bool:
    """Whether two moves are of one kind as Fairy-Stockfish tells moves
    apart (a double step is a plain move there), with the same promotion,
    gate and wall."""
    def kind(move: _Written) -> int:
        return NORMAL if move.kind == DOUBLE else move.kind
    return kind(a) == kind(b) and a.promotion == b.promotion and a.gate == b.gate \
        and a.wall == b.wall


def _described(game: Game, move: str, described: list[_Written] | None = None) -> _Written:
    """The legal move a move string names, among the position's moves
    (`described`, when already worked out)."""
    for written in described if described is not None else _describe(game.position):
        if written.text == move:
            return written
    raise error(f"Invalid move {quote(move)}")


def get_san(variant: str, fen: str, move: str, chess960: bool = False,
            notation: int = NOTATION_DEFAULT, /) -> str:
    """A legal move written in `notation` (NOTATION_*; the variant's own by
    default)."""
    name, text = _text(variant, 1), _text(fen, 2)
    _text(move, 3)
    style = _number(notation)
    return _answer(lambda: _write_moves(_game(name, text, (), bool(chess960)), [move],
                                        style)[0])


def get_san_moves(variant: str, fen: str, movelist: list[str], chess960: bool = False,
                  notation: int = NOTATION_DEFAULT, /) -> list[str]:
    """Each move of `movelist`, played in turn from `fen`, written in
    `notation`."""
    name, text, moves = _position_arguments(variant, fen, movelist)
    style = _number(notation)
    return _answer(lambda: _write_moves(_game(name, text, (), bool(chess960)), list(moves),
                                        style))


def _write_moves(start: Game, moves: list[str], notation: int) -> list[str]:
    game = start.copy() if len(moves) > 1 else start
    variant = game.variant
    if notation not in NOTATIONS:
        notation = NOTATION_SAN
    if notation == NOTATION_DEFAULT:
        notation = DEFAULT_NOTATION.get(variant.rules.notation.style, NOTATION_SAN)
    if notation != NOTATION_SAN and _grid(variant.rules) is None:
        raise error(f"notation {notation} counts files and ranks: {variant.name}'s board "
                    "has none")
    out = []
    for move in moves:
        described = _describe(game.position)
        written = _described(game, move, described)
        out.append(_Writer(game.position, notation, described).write(written))
        if len(moves) > 1:
            game.position.make_internal(written.internal)
    return out


class _Writer:
    """Writes moves of one position in one of pyffish's notations."""

    def __init__(self, position: Position, notation: int, described: list[_Written]) -> None:
        self.position = position
        self.described = described     # the position's legal moves
        self.rules = position.rules
        self.notation = notation
        self.shogi = notation in SHOGI_NOTATIONS
        self.thai = notation in THAI_NOTATIONS
        grid = _grid(self.rules)
        self.files = grid.files if grid else 0
        self.ranks = grid.ranks if grid else 0

    def write(self, move: _Written) -> str:
        promoted_form = self.rules.letter_of_code(move.mover).startswith("+")
        if self.notation == NOTATION_SAN and not (promoted_form and self.files):
            # variantkit's SAN, its check marks as Fairy-Stockfish writes
            # them, a promotion into a promoted form by the kind's letter;
            # a promoted form's move is written below, as its kind's
            # (shogi's tokin as a gold, told apart from the golds).
            public = self.position.public_move(move.internal)
            text = write_san(self.position, public, "san").rstrip("+#")
            if move.wall >= 0 and not public.wall:   # a move without a wall (`e4,a1`)
                text += "," + self._square(move.wall)
            if move.promotion == "+":
                text = text.replace("=" + self.rules.letter_of_code(move.promoted_to).upper(),
                                    "=" + _kind_letter(self.rules, move.promoted_to))
        elif move.kind == CASTLE:
            text = self._castling(move)
        else:
            text = self._move(move)
        return text + self._marks(move)

    # -- cells
    def _file(self, cell: int) -> str:
        f, _ = _file_rank(self.rules, cell)
        n = self.notation
        if self.shogi:
            return str(self.files - f)
        if n == NOTATION_JANGGI:
            return str(f + 1)
        if n == NOTATION_XIANGQI_WXF:
            return str(self.files - f if self.position.stm == 0 else f + 1)
        if self.thai:
            return THAI_FILES[f] if f < len(THAI_FILES) else chr(ord("a") + f)
        return chr(ord("a") + f)

    def _rank(self, cell: int) -> str:
        _, r = _file_rank(self.rules, cell)
        n = self.notation
        if n in (NOTATION_SHOGI_HOSKING, NOTATION_SHOGI_HODGES_NUMBER):
            return str(self.ranks - r)
        if n == NOTATION_SHOGI_HODGES:
            return chr(ord("a") + self.ranks - 1 - r)
        if n == NOTATION_JANGGI:
            return str((self.ranks - r) % 10)
        if n == NOTATION_XIANGQI_WXF:
            return self._wxf_rank(cell)
        if self.thai:
            return THAI_RANKS[r] if r < len(THAI_RANKS) else str(r + 1)
        return str(r + 1)

    def _square(self, cell: int) -> str:
        if self.notation == NOTATION_JANGGI:
            return self._rank(cell) + self._file(cell)
        return self._file(cell) + self._rank(cell)

    def _relative_rank(self, cell: int) -> int:
        _, r = _file_rank(self.rules, cell)
        return r if self.position.stm == 0 else self.ranks - 1 - r

    def _like(self, code: int) -> list[int]:
        """The cells of the mover's pieces of this piece's kind."""
        bits = 0
        for other in range(2 + (code & 1), self.rules.codes.n_codes, 2):
            if self._kind(other) == self._kind(code):
                bits |= self.position.bb[other]
        return self.rules.board.cells_of(bits)

    def _kind(self, code: int) -> str:
        """What tells a piece's kind in the notation, as Fairy-Stockfish
        tells its piece types: its letter (a promoted form's own `+P` in the
        shogi notations, its kind's elsewhere; `Q~` as `Q`)."""
        letter = self.rules.letter_of_code(code).rstrip("~").upper()
        if letter.startswith("+") and not self.shogi:
            return _kind_letter(self.rules, code)
        return letter

    def _on_file(self, cell: int, code: int) -> list[int]:
        """The cells of the mover's pieces of the kind of `code` on the file of `cell`."""
        return self._on_file_number(_file_rank(self.rules, cell)[0], code)

    def _on_file_number(self, f: int, code: int) -> list[int]:
        """The cells of the mover's pieces of the kind of `code` on file `f`."""
        return [c for c in self._like(code) if _file_rank(self.rules, c)[0] == f]

    def _ahead(self, cell: int, code: int) -> list[int]:
        """The cells of the mover's pieces of the kind of `code` ahead of
        `cell` on its file, as their side moves."""
        mine = self._relative_rank(cell)
        return [c for c in self._on_file(cell, code) if self._relative_rank(c) > mine]

    def _tandems(self, code: int) -> int:
        """How many files hold more than one of the mover's pieces of the kind of `code`."""
        files: dict[int, int] = {}
        for c in self._like(code):
            f = _file_rank(self.rules, c)[0]
            files[f] = files.get(f, 0) + 1
        return sum(1 for count in files.values() if count > 1)

    def _wxf_rank(self, cell: int) -> str:
        code = self.position.cells[cell]
        if not code:   # a drop's cell: its rank from the mover
            return str(self._relative_rank(cell) + 1)
        return "-" if self._ahead(cell, code) else "+"

    # -- parts
    def _piece(self, move: _Written) -> str:
        rules, n = self.rules, self.notation
        code = move.mover
        if n in (NOTATION_SAN, NOTATION_LAN, NOTATION_THAI_SAN) and move.kind != DROP \
                and _pawn_letterless(rules, code):
            return ""
        if n == NOTATION_XIANGQI_WXF:
            # Three like pieces on a file (two, on two files): their order
            # from the front.  A drop is read as a move from the first file
            # with nothing ahead, as Fairy-Stockfish reads it.
            file = 0 if move.kind == DROP else _file_rank(rules, move.frm)[0]
            if len(self._on_file_number(file, code)) >= 3 - (self._tandems(code) >= 2):
                return "1" if move.kind == DROP else str(len(self._ahead(move.frm, code)) + 1)
        letter = rules.letter_of_code(code).upper()
        if self.thai:
            return self._thai(code, move.frm if move.kind != DROP else -1)
        if letter.startswith("+"):   # a promoted form: in other notations, its kind's letter
            return letter if self.shogi else _kind_letter(rules, code)
        return _written_letter(rules, code)

    def _thai(self, code: int, cell: int) -> str:
        rules = self.rules
        if _pawn_letterless(rules, code):
            return THAI_PAWN
        if rules.codes.royal_code[code]:
            return THAI_KING if code in _king_codes(rules) else THAI_OTHER
        kind = _reach_kind(rules, code)
        if kind == "ferz" and cell in _promotions(self.position)[0]:
            return THAI_PROMOTED_MET
        return THAI_BY_REACH.get(kind or "", THAI_OTHER)

    def _disambiguation(self, move: _Written) -> str:
        n = self.notation
        if move.kind == DROP:
            return ""
        if n in (NOTATION_LAN, NOTATION_THAI_LAN, NOTATION_JANGGI):
            return self._square(move.frm)
        if n == NOTATION_XIANGQI_WXF:
            return self._wxf_disambiguation(move)
        pawn = _pawn_letterless(self.rules, move.mover)
        if n == NOTATION_THAI_SAN and pawn and move.capture:
            return self._file(move.frm)
        others = [w.frm for w in self.described
                  if w.frm != move.frm and w.to == move.to and _same_kind(w, move)
                  and self._kind(w.mover) == self._kind(move.mover)]
        if not others:
            return ""
        if self.shogi:
            return self._square(move.frm)
        f, r = _file_rank(self.rules, move.frm)
        if all(_file_rank(self.rules, o)[0] != f for o in others):
            return self._file(move.frm)
        if all(_file_rank(self.rules, o)[1] != r for o in others):
            return self._rank(move.frm)
        return self._square(move.frm)

    def _wxf_disambiguation(self, move: _Written) -> str:
        on_file = self._on_file(move.frm, move.mover)
        if len(on_file) == 2 and self._tandems(move.mover) < 2:
            other = next(c for c in on_file if c != move.frm)
            f0, r0 = _file_rank(self.rules, move.frm)
            f1, r1 = _file_rank(self.rules, move.to)
            fo, ro = _file_rank(self.rules, other)
            # `+` or `-` where the other could make the same move: its
            # target a cell of the board, not a wall, where such a piece
            # may stand (an advisor in its palace).
            cell = self.rules.board.index.get(f"{chr(ord('a') + fo + f1 - f0)}{ro + r1 - r0 + 1}")
            if 0 <= fo + f1 - f0 < self.files and cell is not None \
                    and not self.position.walls >> cell & 1 \
                    and _region(self.rules, move.mover) >> cell & 1:
                return self._rank(move.frm)
        return self._file(move.frm)

    def _move(self, move: _Written) -> str:
        n = self.notation
        text = self._piece(move)
        if n == NOTATION_THAI_LAN:
            text += " "
        disambiguation = self._disambiguation(move)
        text += disambiguation
        if move.kind == DROP:
            text += "'" if n == NOTATION_SHOGI_HOSKING else "*" if self.shogi else "@"
        elif n == NOTATION_XIANGQI_WXF:
            _, r0 = _file_rank(self.rules, move.frm)
            _, r1 = _file_rank(self.rules, move.to)
            text += "=" if r0 == r1 else \
                "+" if self._relative_rank(move.to) > self._relative_rank(move.frm) else "-"
        elif move.capture:
            text += "x"
        elif n in (NOTATION_LAN, NOTATION_THAI_LAN, NOTATION_JANGGI) \
                or (self.shogi and (n != NOTATION_SHOGI_HOSKING
                                    or disambiguation == self._square(move.frm))) \
                or (n == NOTATION_THAI_SAN and not _pawn_letterless(self.rules, move.mover)):
            text += "-"
        if n == NOTATION_XIANGQI_WXF and move.kind != DROP:
            f0, r0 = _file_rank(self.rules, move.frm)
            f1, r1 = _file_rank(self.rules, move.to)
            text += str(abs(r1 - r0)) if f0 == f1 else self._file(move.to)
        else:
            text += self._square(move.to)
        return text + self._suffix(move)

    def _suffix(self, move: _Written) -> str:
        rules = self.rules
        text = ""
        if move.promotion == "+":
            text = "+" if self.shogi else "=" + _kind_letter(rules, move.promoted_to)
        elif move.promotion == "-":
            text = "-" if self.shogi else \
                "=" + rules.letter_of_code(move.promoted_to).upper()
        elif move.promotion:
            text = "=" + rules.letter_of_code(move.promoted_to).upper().rstrip("~")
        elif self.shogi and move.kind != DROP and any(
                w.frm == move.frm and w.to == move.to and w.promotion == "+"
                for w in self.described):
            text = "="
        if move.gate:
            text += "/" + rules.letter_of_code(move.gate).upper()
        if move.wall >= 0:
            text += "," + self._square(move.wall)
        return text

    def _castling(self, move: _Written) -> str:
        f0, r0 = _file_rank(self.rules, move.frm)
        f1, r1 = _file_rank(self.rules, move.to)
        text = "O-O" if (r1, f1) > (r0, f0) else "O-O-O"
        if move.gate:
            text += "/" + self.rules.letter_of_code(move.gate).upper() + \
                self._square(move.gate_cell)
        if move.wall >= 0:
            text += "," + self._square(move.wall)
        return text

    def _marks(self, move: _Written) -> str:
        """`+` for a check, `#` for a check that leaves no legal move, in
        every notation but shogi's and WXF."""
        if self.shogi or self.notation == NOTATION_XIANGQI_WXF:
            return ""
        position = self.position
        position.make_internal(move.internal)
        try:
            if not _king_in_check(position):
                return ""
            return "+" if position.legal_internal() else "#"
        finally:
            position.unmake_internal()


# -- the end of the game -------------------------------------------------------------------

# How each of variantkit's reasons for a game's end shows in pyffish: an
# end by the rules whatever the moves (`is_immediate_game_end`), one a
# player may claim (`is_optional_game_end`), or the lack of a legal move
# (`game_result` alone).
IMMEDIATE_REASONS = frozenset({"check-count", "extinction", "region", "bare-king", "in-a-row",
                               "connected", "castling", "double-pass", "facing-pass",
                               "board-full", "shuttle"})
OPTIONAL_REASONS = frozenset({"repetition", "move-rule", "counting"})


def _value(outcome: Outcome, mover: str) -> int:
    """An outcome as pyffish values it for the side to move."""
    if outcome.winner is None:
        return VALUE_DRAW
    return VALUE_MATE if outcome.winner == mover else -VALUE_MATE


def game_result(variant: str, fen: str, movelist: list[str], chess960: bool = False, /
                ) -> int:
    """The value of the game's end for the side to move (VALUE_MATE won,
    -VALUE_MATE lost, VALUE_DRAW drawn), meant for a position without legal
    moves; elsewhere the value the rules give a side in check or stalemated
    there, as pyffish answers."""
    key = _position_arguments(variant, fen, movelist)
    return _answer(lambda: _result(_game(*key, bool(chess960))))


def _result(game: Game) -> int:
    position = game.position
    mover, other = SIDES[position.stm], SIDES[1 - position.stm]
    ended = game.outcome()
    if ended is not None and (ended.reason in IMMEDIATE_REASONS
                              or not position.legal_internal()):
        return _value(ended, mover)
    end = position.rules.end
    rule = end.checkmate if position.is_check() else end.stalemate
    if rule in ("more-pieces", "fewer-pieces"):
        counts = [bits.bit_count() for bits in position.side_bb]
        if counts[0] == counts[1]:
            return VALUE_DRAW
        more = SIDES[0] if counts[0] > counts[1] else SIDES[1]
        winner = more if rule == "more-pieces" else SIDES[1 - SIDES.index(more)]
        return _value(Outcome(winner, "stalemate"), mover)
    reached = result_for(rule, mover, other, "stalemate")
    if end.draws_go_to is not None and reached.winner is None:
        reached = Outcome(end.draws_go_to, reached.reason)
    return _value(reached, mover)


def is_immediate_game_end(variant: str, fen: str, movelist: list[str],
                          chess960: bool = False, /) -> tuple[bool, int]:
    """Whether the rules end the game here whatever the side to move could
    do (a declared condition: a king on the hill, three checks, two passes),
    and its value for the side to move ((False, 0) when they do not)."""
    key = _position_arguments(variant, fen, movelist)
    return _answer(lambda: _immediate(_game(*key, bool(chess960))))


def _immediate(game: Game) -> tuple[bool, int]:
    ended = game.outcome()
    if ended is not None and ended.reason in IMMEDIATE_REASONS:
        return True, _value(ended, game.turn)
    return False, VALUE_DRAW


def is_optional_game_end(variant: str, fen: str, movelist: list[str], chess960: bool = False,
                         count_started: int = 0, /) -> tuple[bool, int]:
    """Whether a player may claim the game's end here (repetition, the
    move rule, a count run out), and its value for the side to move
    ((False, 0) when not).  `count_started` is taken and changes nothing."""
    key = _position_arguments(variant, fen, movelist)
    _number(count_started)
    return _answer(lambda: _optional(_game(*key, bool(chess960))))


def _optional(game: Game) -> tuple[bool, int]:
    position = game.position
    end = position.rules.end
    mover = game.turn
    ended = game.outcome()
    if ended is None or ended.reason not in OPTIONAL_REASONS:
        return False, VALUE_DRAW
    if ended.reason == "move-rule" and end.move_rule is not None \
            and position.halfmove < 2 * end.move_rule:
        return False, VALUE_DRAW   # a claim announced with the move that completes it
    if ended.reason == "repetition" and end.repetition is not None \
            and _occurrences(position) < end.repetition:
        return False, VALUE_DRAW
    return True, _value(ended, mover)


def _occurrences(position: Position) -> int:
    """How often the position has occurred in the game, this time included."""
    current = repetition_key(position)
    seen = 1
    undone: list[InternalMove] = []
    try:
        while position.history:
            undone.append(position.history[-1][0])
            position.unmake_internal()
            if repetition_key(position) == current:
                seen += 1
    finally:
        for move in reversed(undone):
            position.make_internal(move)
    return seen


def has_insufficient_material(variant: str, fen: str, movelist: list[str],
                              chess960: bool = False, /) -> tuple[bool, bool]:
    """Whether White, and whether Black, lacks the material to mate: both
    do where the variant's declared dead material is on the board; a side
    left with its royal pieces alone does; no side does where captures go
    to hand, a side holds pieces in hand, or the game has other ends."""
    key = _position_arguments(variant, fen, movelist)
    return _answer(lambda: _insufficient(_game(*key, bool(chess960))))


def _insufficient(game: Game) -> tuple[bool, bool]:
    position = game.position
    rules = position.rules
    if rules.hands.captures_to_hand or rules.end.conditions:
        return False, False
    dead = insufficient_material(position)
    answer = []
    for side in range(2):
        if any(position.hands[code] for code in rules.hands.hand_codes[side]):
            answer.append(False)
            continue
        bare = all(rules.codes.royal_code[position.cells[cell]]
                   for cell in rules.board.cells_of(position.side_bb[side]))
        answer.append(dead or bare)
    return answer[0], answer[1]


# -- position strings checked, and fog of war ------------------------------------------------

def validate_fen(fen: str, variant: str, chess960: bool = False, /) -> int:
    """FEN_OK when the position string reads as a position of the variant,
    else the FEN_* code of the first field at fault."""
    text, name = _text(fen, 1), _text(variant, 2)
    return _answer(lambda: _validate(text, _VARIANTS.get(name), bool(chess960)))


def _validate(text: str, variant: Variant, chess960: bool) -> int:
    if not text:
        return FEN_EMPTY
    rules = _fen_rules(variant)
    code = FEN_OK if rules is None else _layout(text, rules, chess960)
    if code != FEN_OK:
        return code
    try:
        _read(variant, text, chess960)
    except error:
        return _refused_field(text, variant)
    return FEN_OK


@dataclass(frozen=True)
class _FenRules:
    """What Fairy-Stockfish's check of a position string's layout reads of
    a variant on a grid of one plane, from its declaration."""

    files: int
    ranks: int
    letters: frozenset[str]          # single characters naming pieces, both cases
    promoted: frozenset[str]         # letters after `+` (pieces with a `+` form)
    special: str                     # other characters allowed in the placement
    drops: bool                      # pieces dropped (from a hand or not): a pocket row may follow
    hands: bool                      # pieces in hand or gating: a pocket is read
    kings: tuple[str, str]           # the royal king's letter of each side ('' for none)
    start_kings: tuple[int, int]     # how many of them the start position holds
    kings_touch: bool                # whether two kings one step apart is refused
    castling: bool
    castling_rank: tuple[int, int]   # each side's castling rank (from the bottom)
    rooks: tuple[frozenset[str], frozenset[str]]   # each side's castling rooks' letters
    king_start: tuple[tuple[int, int] | None, tuple[int, int] | None]   # (file, rank)
    rook_starts: tuple[tuple[int, ...], tuple[int, ...]]   # castling rooks' start files
    fixed_castling: bool             # the start cells of king and rooks are known
    en_passant: bool                 # pieces step twice: the field is a cell or `-`
    counting: bool                   # else the field may hold a count (makruk)
    checks: bool                     # a field of checks to give


@lru_cache(maxsize=VARIANTS_KEPT)
def _fen_rules(variant: Variant) -> _FenRules | None:
    """The layout rules of a variant's position strings; None for a board
    that is not a grid of one plane (read by variantkit alone)."""
    rules = variant.rules
    grid = _grid(rules)
    if grid is None:
        return None
    letters: set[str] = set()
    promoted: set[str] = set()
    for letter in rules.letter_codes:
        base = letter.strip("+~")
        letters |= {base.upper(), base.lower()}
        if letter.startswith("+"):
            promoted |= {base.upper(), base.lower()}
    for letter in rules.notation.letters.values():
        letters |= {letter.upper(), letter.lower()} if len(letter) == 1 else set()
    special = "/*"
    if promoted:
        special += "+"
    if any(rules.promotion.promotions[side] for side in range(2)):
        special += "~"
    free = rules.flips is not None and any(rules.flips.free)
    drops = rules.hands.drops or free
    hands = drops or rules.gating.any
    if hands and not free:
        special += "[-]"
    # The royal king of each side, counted in a position string, unless a
    # side starts with more than one (Spartan chess: no king is counted).
    start_board = variant.setup_fen.split(" ")[0]
    kings = tuple(next((variant.letter_of_code(c) for c in _king_codes(rules)
                        if c & 1 == side), "") for side in range(2))
    start_kings = tuple(start_board.count(kings[side]) if kings[side] else 0
                        for side in range(2))
    if max(start_kings) > 1:
        kings, start_kings = ("", ""), (0, 0)
    castlings = rules.castling.castlings

    def file_rank(cell: int) -> tuple[int, int]:
        return _file_rank(rules, cell)

    king_start = tuple(next((file_rank(c.king_from) for c in castlings if c.side == side), None)
                       for side in range(2))
    rook_starts = tuple(tuple(sorted({file_rank(c.rook_from)[0] for c in castlings
                                      if c.side == side})) for side in range(2))
    # An en passant field is checked where a pawn written without a letter steps twice.
    steps_twice = any(_pawn_letterless(rules, code) and any(g.initial for g in generators)
                      for code, generators in enumerate(rules.codes.generators))
    return _FenRules(
        files=grid.files, ranks=grid.ranks, letters=frozenset(letters),
        promoted=frozenset(promoted), special=special, drops=drops, hands=hands and not free,
        kings=(kings[0], kings[1]), start_kings=(start_kings[0], start_kings[1]),
        kings_touch=any(_reach_kind(rules, c) == "king" for c in _king_codes(rules)),
        castling=bool(castlings) or rules.gating.any,
        castling_rank=(king_start[0][1] if king_start[0] else 0,
                       king_start[1][1] if king_start[1] else grid.ranks - 1),
        rooks=(frozenset(variant.letter_of_code(c.rook_code) for c in castlings if c.side == 0),
               frozenset(variant.letter_of_code(c.rook_code) for c in castlings if c.side == 1)),
        king_start=(king_start[0], king_start[1]), rook_starts=(rook_starts[0], rook_starts[1]),
        fixed_castling=not rules.castling.free_castling
        and not rules.hands.drops_grant_castling,
        en_passant=steps_twice, counting=rules.end.counting is not None,
        checks=rules.end.check_limit is not None)


def _layout(text: str, rules: _FenRules, chess960: bool) -> int:
    """The FEN_* code of the first part of a position string whose layout
    Fairy-Stockfish refuses, field by field as it checks them; FEN_OK."""
    fields = text.split(" ")
    if len(fields) > 6 + rules.checks:
        return FEN_INVALID_NB_PARTS
    board = fields[0]
    if any(not (c.isdigit() or c in rules.letters or c in rules.special) for c in board):
        return FEN_INVALID_CHAR
    if any(board[i + 1] not in rules.promoted for i, c in enumerate(board[:-1]) if c == "+"):
        return FEN_INVALID_PROMOTED_PIECE
    grid = _char_board(board, rules)
    if grid is None:
        return FEN_INVALID_BOARD_GEOMETRY
    pocket = _pocket(board, rules)
    if pocket is None:
        return FEN_INVALID_POCKET_INFO
    code = _kings(board, pocket, grid, rules)
    if code != FEN_OK:
        return code
    if len(fields) >= 2 and fields[1][:1] not in ("w", "b"):
        return FEN_INVALID_SIDE_TO_MOVE
    skip = 4 <= len(fields) <= 5 and fields[2][:1].isdigit()
    if len(fields) >= 3 and not skip and rules.castling:
        code = _castling_field(fields[2], grid, rules, chess960)
        if code != FEN_OK:
            return code
    if len(fields) >= 4 and not skip:
        field = fields[3]
        if rules.en_passant:
            if field != "-" and not (len(field) == 2 and field[0].isalpha()
                                     and field[1].isdigit()):
                return FEN_INVALID_EN_PASSANT_SQ
        elif rules.counting and not _digits(field):
            return FEN_INVALID_COUNTING_RULE
    between, trailing = (0 if skip else 2), 0
    if len(fields) >= 3 + between and rules.checks and len(fields) % 2:
        if _check_count(fields[2 + between]):
            between += 1
        elif len(fields) >= 5 + between and _lichess_checks(fields[-1]):
            trailing = 1
        else:
            return FEN_INVALID_CHECK_COUNT
    if len(fields) >= 3 + between and not _digits(fields[-2 - trailing]):
        return FEN_INVALID_HALF_MOVE_COUNTER
    if len(fields) >= 4 + between and not _digits(fields[-1 - trailing]):
        return FEN_INVALID_MOVE_COUNTER
    return FEN_OK


def _digits(field: str) -> bool:
    return field == "-" or all(c.isdigit() for c in field)


def _check_count(field: str) -> bool:
    return len(field) == 3 and field[0].isdigit() and field[2].isdigit()


def _lichess_checks(field: str) -> bool:
    return len(field) == 4 and field[1].isdigit() and field[3].isdigit() \
        and int(field[1]) <= 3 and int(field[3]) <= 3


def _char_board(board: str, rules: _FenRules) -> dict[tuple[int, int], str] | None:
    """The pieces of a placement by (file, rank), or None when its rows do
    not fit the board (a pocket as an extra row allowed where pieces are held)."""
    placed: dict[tuple[int, int], str] = {}
    row = column = 0
    previous = "?"
    for c in board:
        if c == "[":
            break
        if c == "*":
            column += 1
        elif c.isdigit():
            column += int(c) + (9 * int(previous) if previous.isdigit() else 0)
        elif c == "/":
            row += 1
            if column != rules.files:
                return None
            if row == rules.ranks:
                break
            column = 0
        elif c not in rules.special:
            if column >= rules.files:
                return None
            placed[(column, rules.ranks - 1 - row)] = c
            column += 1
        previous = c
    rows = (row + 1, row) if rules.drops else (row + 1,)
    return placed if rules.ranks in rows else None


def _pocket(board: str, rules: _FenRules) -> str | None:
    """The letters of the pieces in hand ('' for none), None for a pocket
    that does not close or holds what is no piece."""
    if not rules.drops and not rules.hands:
        return ""
    if board.count("/") == rules.ranks:
        stop, body = "/", board
    elif board.count("[") == 1:
        if not board.endswith("]"):
            return None
        stop, body = "[", board[:-1]
    else:
        return ""
    if stop not in body:
        return None
    held = body[body.rindex(stop) + 1:]
    if any(c != "-" and c not in rules.letters for c in held):
        return None
    return held.replace("-", "")


def _kings(board: str, pocket: str, grid: dict[tuple[int, int], str], rules: _FenRules) -> int:
    if not any(rules.kings):
        return FEN_OK
    counts = [board.count(king) if king else 0 for king in rules.kings]
    if any(count > 1 for count in counts) or (counts[0], counts[1]) != rules.start_kings:
        return FEN_INVALID_NUMBER_OF_KINGS
    on_board = [counts[side] - (pocket.count(rules.kings[side]) if rules.kings[side] else 0)
                for side in range(2)]
    if rules.kings_touch and on_board == [1, 1]:
        cells = [next(cell for cell, c in grid.items() if c == rules.kings[side])
                 for side in range(2)]
        if (cells[0][0] - cells[1][0]) ** 2 + (cells[0][1] - cells[1][1]) ** 2 <= 2:
            return FEN_TOUCHING_KINGS
    return FEN_OK


def _castling_field(field: str, grid: dict[tuple[int, int], str], rules: _FenRules,
                    chess960: bool) -> int:
    rights: list[str] = ["", ""]
    for c in field:
        if c == "-":
            continue
        if not c.isalpha():
            return FEN_INVALID_CASTLING_INFO
        rights[c.islower()] += c.lower()
    if not any(rights):
        return FEN_OK
    kings = []
    for side in range(2):
        letter = rules.kings[side] or ("K" if side == 0 else "k")
        found = sorted((cell[1], cell[0]) for cell, c in grid.items() if c == letter)
        kings.append((found[0][1], found[0][0]) if found else None)
    for side in range(2):
        rank = rules.castling_rank[side]
        for flag in rights[side]:
            if flag in "kq":
                king = kings[side]
                if king is None or king[1] != rank:
                    return FEN_INVALID_CASTLING_INFO
                files = range(rules.files - 1, king[0], -1) if flag == "k" \
                    else range(0, king[0])
                if not any(grid.get((f, rank)) in rules.rooks[side] for f in files):
                    return FEN_INVALID_CASTLING_INFO
            elif (ord(flag) - ord("a"), rank) not in grid:
                return FEN_INVALID_CASTLING_INFO
    if rules.fixed_castling and not chess960:
        for side in range(2):
            if not rights[side]:
                continue
            if kings[side] != rules.king_start[side]:
                return FEN_INVALID_CASTLING_INFO
            starts = rules.rook_starts[side]
            rank = rules.castling_rank[side]
            for flag, index in (("k", -1), ("q", 0)):
                if flag in rights[side] and (not starts or grid.get((starts[index], rank))
                                             not in rules.rooks[side]):
                    return FEN_INVALID_CASTLING_INFO
    return FEN_OK


def _refused_field(text: str, variant: Variant) -> int:
    """The FEN_* code of the first field variantkit refuses in a position
    string whose layout passes: each field read in turn into the start."""
    fields = text.split(" ")
    start = variant.setup_fen.split(" ")
    for index, code in ((0, FEN_INVALID_BOARD_GEOMETRY), (1, FEN_INVALID_SIDE_TO_MOVE),
                        (2, FEN_INVALID_CASTLING_INFO), (3, FEN_INVALID_EN_PASSANT_SQ)):
        if index >= len(fields) or index >= len(start):
            break
        trial = list(start)
        trial[index] = fields[index]
        try:
            variant.new_game(" ".join(trial))
        except ValueError:
            return code
    return FEN_INVALID_BOARD_GEOMETRY


def get_fog_fen(fen: str, variant: str, chess960: bool = False, /) -> str:
    """The position string as the side to move sees it in fog of war: every
    cell that holds none of its pieces and that none of its moves reaches
    is `*`."""
    text, name = _text(fen, 1), _text(variant, 2)
    return _answer(lambda: _fog(_game(name, text, (), bool(chess960))))


def _fog(game: Game) -> str:
    position = game.position
    rules = position.rules
    if _grid(rules) is None:
        raise error(f"fog of war counts files and ranks: {rules.name}'s board has none")
    seen = position.side_bb[position.stm]
    for move in position.legal_internal():
        if move[3] >= WALLED:
            move = wall_parts(move)[0]
        if move[3] != CASTLE:
            seen |= 1 << move[1]
    fields = _fen(game, False).split(" ")
    fields[0] = _rewritten(fields[0], rules,
                           lambda cell, item: item if cell >= 0 and seen >> cell & 1 else "*")
    return " ".join(fields)


def _rewritten(field: str, rules: Rules, item_at: Callable[[int, str], str]) -> str:
    """A placement field of a grid of one plane written again, each cell's
    item (a piece's letters, '' for an empty cell) replaced by
    `item_at(cell, item)` (cell -1 for a hole); the hand kept."""
    grid = _grid(rules)
    assert grid is not None
    board, hand = split_hand(field)
    rows = []
    for from_top, row in enumerate(_rows(board, grid.files)):
        rank = grid.ranks - from_top
        out, empty = "", 0
        for file, item in enumerate(row):
            cell = rules.board.index.get(f"{chr(ord('a') + file)}{rank}", -1)
            written = item_at(cell, item)
            if not written:
                empty += 1
                continue
            out += (str(empty) if empty else "") + written
            empty = 0
        rows.append(out + (str(empty) if empty else ""))
    return "/".join(rows) + ("" if hand is None else f"[{hand}]")


_ITEM = re.compile(r"[0-9]+|\+.|.~|.")


def _rows(board: str, files: int) -> Iterator[list[str]]:
    """Each rank of a placement, top first, as one item a file: a piece's
    letters, or '' for an empty cell."""
    for row in board.split("/"):
        items: list[str] = []
        for item in _ITEM.findall(row):
            if item.isdigit():
                items += [""] * int(item)
            else:
                items.append(item)
        yield items[:files] + [""] * (files - len(items))
