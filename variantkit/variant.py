"""Assemble a variant from its loaded declaration.

This is where the pipeline's stages meet: the board is built from `board:`,
pieces are compiled into move tables, and promotion, castling and game-end
rules become the integer tables the engine reads.  Semantic checks (cells,
pieces and regions that exist, one royal piece per side, a setup that fits)
happen along the way, each reported as a located `Problem`.
"""

from __future__ import annotations

import contextlib
import itertools
import random
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from variantkit.betza import moves_of
from variantkit.board import Board, GraphTopology, GridTopology, build_board
from variantkit.castling import Castling, by_side, derive_castling
from variantkit.checks import run_checks
from variantkit.core.general import empty_position
from variantkit.errors import DeclarationError, InvalidFenError, Problem, VariantError
from variantkit.game import Game
from variantkit.limits import MAX_MOVES, MAX_PIECES, Budget
from variantkit.loader import Document, load_document, load_document_text, promotion_rules
from variantkit.notation import parse_placement, placement, read_fen, split_hand
from variantkit.pieces import (
    CAPTURE,
    CONVERT,
    MOVE,
    SHORT_BITS,
    SHORT_MASK,
    CellReach,
    Component,
    Context,
    Flags,
    PieceSet,
    compile_pieces,
    line_attack,
    piece_code,
    reach,
    span,
    type_of,
)
from variantkit.tables import (
    AttackEntry,
    Counting,
    CountLimit,
    DrawPoints,
    DropRule,
    EndCondition,
    EndRules,
    Generator,
    Limits,
    LoopGenerator,
    MateException,
    MaterialPattern,
    Promotion,
    Shuttle,
    Standing,
)

T = TypeVar("T")
ZOBRIST_SEED = 0x5EED_C0DE  # fixed, so position hashes are stable across runs


class Variant:
    """A compiled variant: board, pieces, rules and the engine's tables."""

    def __init__(self, document: Document, budget: Budget | None = None) -> None:
        self.document = document
        self.problems: list[Problem] = []
        data = document.data
        self.name: str = data["name"]
        self.description: str = data.get("description", "")
        board = self._located(("board",), lambda: self._build_board(data["board"]))
        if board is None:
            raise VariantError(self.problems)
        self.board: Board = board
        sides = data.get("sides", {})
        self.forwards = [self._forward(sides, s) for s in ("white", "black")]
        self.letter_codes: dict[str, int] = {}
        for index, spec in enumerate(data["pieces"].values()):
            self.letter_codes[spec["letter"]] = piece_code(index, 0)
            self.letter_codes[spec["letter"].lower()] = piece_code(index, 1)
        self.setup_fen: str = data["setup"]
        # Holes written in position strings (Fairy-Stockfish's `*`): the rows
        # with a slot per column, -1 where there is no cell.
        self.hole_mark: str | None = data.get("position-string", {}).get("holes")
        self.slots: list[list[list[int]]] | None = None
        if self.hole_mark is not None:
            self.slots = self.board.slot_rows()
            # Other boards have no gaps in their rows: the mark writes walls only.
            if self.slots is None and isinstance(self.board.topology, GraphTopology):
                self.problems.append(self.document.problem(
                    ("position-string", "holes"), "holes are written by column: a graph "
                    "board's cells must all have whole-number positions", "holes-board"))
        self.setup_cells = self._setup_cells()
        royal_codes = {piece_code(i, side) for i, spec in enumerate(data["pieces"].values())
                       if spec.get("royal") for side in range(2)}
        royal_start: list[int | None] = [None, None]
        for cell, code in self.setup_cells.items():
            if code in royal_codes:
                royal_start[code & 1] = cell
        if budget is not None and budget.source is None:
            budget.source = document.file
        context = Context(board=self.board, forwards=self.forwards, royal_start=royal_start,
                          turned=self._turned(sides),
                          piece_index={name: i for i, name in enumerate(data["pieces"])},
                          budget=budget or Budget(source=document.file))
        self._check_piece_count(data["pieces"])
        self.pieces: PieceSet = compile_pieces(context, data["pieces"], self._located)
        royals = data.get("royals", {})
        self.one_royal = royals.get("per-side", "one") == "one"
        self.check_all = royals.get("check", "any") == "all"
        # `last`: royal pieces count for check only while a side has one left.
        self.check_last = royals.get("check", "any") == "last"
        if (self.check_all or self.check_last) and self.one_royal:
            self.problems.append(self.document.problem(
                ("royals", "check"), f"`check: {royals['check']}` needs `per-side: any`: with "
                f"one royal piece per side, any and {royals['check']} are the same", "bad-royals"))
        self.must_capture = bool(data.get("must-capture", False))
        facing = data.get("royal-facing")
        self.facing: Component | None = None if facing is None else self._located(
            ("royal-facing", "lines"), partial(line_attack, context, facing["lines"]))
        # "forbidden": no move may leave the royal pieces facing (the flying
        # general); "must-break": a move may bring them face to face, and
        # the opponent must then break it or pass (janggi's bikjang).
        self.facing_rule: str = (facing or {}).get("rule", "forbidden")
        self.facing_must_break = self.facing is not None and self.facing_rule == "must-break"
        self._check_pieces(data["pieces"])
        self._check_cell_names()
        self._build_codes()
        self._build_promotion(data.get("promotion"))
        # Per piece code and cell: whether the piece's moves from there read
        # and reach only cells within SHORT_MASK, and never promote.  The move
        # generator then works on the low words of the node's masks, so that
        # a piece on g8 or h8 of a 64-cell board does not box the masks every
        # other piece's moves are computed with.  A board within SHORT_MASK
        # needs none: all its masks are words.
        self.short_moves = [self._short_moves(code) for code in range(self.n_codes)] \
            if self.board.size > SHORT_BITS else []
        self._build_hands(data)
        self._build_drop_options(data["pieces"])
        self.castlings: list[Castling] = []
        for i, spec in enumerate(data.get("castling", [])):
            c = self._located(("castling", i), partial(self._castling, i, spec))
            if c is not None:
                self.castlings.append(c)
        self.castlings_by_side = by_side(self.castlings)
        # Castling from wherever king and rook start (Chess960): the declared
        # entries are the standard array's and say which way each right goes.
        self.free_castling = bool(data.get("free-castling", False))
        if self.free_castling and not isinstance(self.board.topology, GridTopology):
            self.problems.append(self.document.problem(
                ("free-castling",), "free-castling needs a grid board: rights are written "
                "by file", "free-castling-board"))
        self.end = self._end_rules(data.get("end", {}))
        self.blast: list[int] = []
        self.blast_immune: list[int] = []
        self.blast_proof: frozenset[int] = frozenset()   # capturers that survive too
        if "explosion" in data:
            self._located(("explosion", "around"), partial(self._explosion, data["explosion"]))
        limit = self.end.check_limit
        rng = random.Random(ZOBRIST_SEED + 1)
        self.check_keys = [[rng.getrandbits(64) for _ in range(limit + 1)]
                           for _ in range(2)] if limit else []
        # Pieces that turn into a wall on the cell where they capture.
        petrify = self._piece_codes(("petrify",), data.get("petrify", []))
        self.petrify = frozenset(piece_code(t, side) for t in petrify for side in range(2))
        self.petrify_royal = sorted(c for c in self.petrify if self.royal_code[c])
        if self.petrify and self.hole_mark is None:
            self.problems.append(document.problem(
                ("petrify",), "walls are written in position strings with the hole mark: "
                "declare `position-string: {holes: ...}`", "petrify-mark"))
        self._build_aims(data["pieces"])
        self._check_in_check()
        special = (not self.one_royal or self.must_capture or self.blast
                   or self.end.conditions or self.end.counting or self.aims or self.petrify)
        # The rules beyond one royal piece per side and plain captures,
        # played by the general position (variantkit.core.general).
        self.general_rules = bool(special)
        self._located(("first-move",), partial(self._first_move, data.get("first-move")))
        self.moved_field = bool(data.get("position-string", {}).get("moved-field", False))
        self.initial_rights = self._initial_rights(
            data.get("position-string", {}).get("initial-rights", []))
        self.gate_regions = self._gating(data.get("gating"))
        if self.first_move_rule:
            # Every piece's first move is constrained, so "not moved yet"
            # tells positions apart for all of them.
            self.unmoved_codes = list(range(2, len(self.generators)))
        # The whole start position is read only when the rest is sound, so
        # that one mistake is not reported again as a bad setup.
        if not any(p.severity == "error" for p in self.problems):
            try:
                self.new_game()
            except InvalidFenError as exc:
                self.problems.append(document.problem(("setup",), f"setup: {exc}", "bad-setup"))
        if "numbered-setups" in data and not any(p.severity == "error" for p in self.problems):
            try:
                self.numbered_setup(0)
            except (ValueError, KeyError, DeclarationError) as exc:
                message = exc.message if isinstance(exc, DeclarationError) else \
                    f"unknown piece {exc}" if isinstance(exc, KeyError) else str(exc)
                self.problems.append(document.problem(
                    ("numbered-setups",), f"numbered-setups: {message}", "bad-numbered-setups"))
        self.problems += run_checks(self)
        if any(p.severity == "error" for p in self.problems):
            raise VariantError(sorted(self.problems, key=_problem_order))

    # -- public --------------------------------------------------------------
    def new_game(self, fen: object = None) -> Game:
        """A game from the start position, or from a position string (a `str`;
        the parameter takes any value so that the compiled build, too, answers
        a wrong one with InvalidFenError)."""
        return Game(read_fen(self, fen if fen is not None else self.setup_fen))

    def empty_board_reach(self, code: int, cell: int, initial: bool = True) -> int:
        """Cells a piece (by code) reaches from `cell` with nothing else on
        the board; `initial=False` leaves out its first-move-only moves."""
        bits = 0
        for g in self.generators[code]:
            if initial or not g.initial:
                bits |= reach(g.tables[cell], 1 << cell)
        return bits

    def numbered_setup(self, number: int) -> str:
        """The start position numbered `number` among the variant's shuffled
        setups (`numbered-setups`); raises ValueError when there is none.

        Each step places its pieces on the free cells of White's region (of
        one colour if asked): the choice is one digit of the number, the
        first step the lowest digit, cells chosen as combinations in cell
        order.  Black's pieces stand on the same files of its region."""
        spec = self.document.data.get("numbered-setups")
        if spec is None:
            raise ValueError(f"{self.name} has no numbered setups")
        board = self.board
        rows = [board.cells_of(board.resolve_region(spec["regions"][side]))
                for side in ("white", "black")]
        placed = parse_placement(self, self.setup_fen.split()[0])
        for row in rows:
            for cell in row:
                placed.pop(cell, None)
        free = list(range(len(rows[0])))
        left, count = number, 1
        for step in spec["steps"]:
            names = step["pieces"]
            colour = step.get("colour-of")
            usable = [i for i in free if colour is None
                      or board.colours[rows[0][i]] == board.colours[board.cell(colour)]]
            choices = list(itertools.combinations(usable, len(names)))
            if not choices:
                raise ValueError(f"numbered-setups: no room for {', '.join(names)}")
            left, digit = divmod(left, len(choices))
            count *= len(choices)
            for index, name in zip(choices[digit], names, strict=True):
                kind = self.pieces.by_name[name].index
                for side in range(2):
                    placed[rows[side][index]] = piece_code(kind, side)
                free.remove(index)
        if left or number < 0:
            raise ValueError(f"{self.name} numbers its setups from 0 to {count - 1}")
        shuffled = empty_position(self)
        for cell, code in placed.items():
            shuffled.place(cell, code)
        return self.new_game(" ".join([placement(shuffled), *self.setup_fen.split()[1:]])).fen()

    def letter_of_code(self, code: int) -> str:
        """The FEN letter of a piece code (uppercase for White)."""
        letter = self.pieces.types[type_of(code)].letter
        return letter if code & 1 == 0 else letter.lower()

    def promotion_suffix(self, code: int, mover: int = 0) -> str:
        """How a promotion to this piece ends a move string: its lowercase
        letter, or `+` for a promoted form (`+P`), as Fairy-Stockfish writes
        shogi-style promotions; `-` when the piece that moves (`mover`) is
        the promoted form of it, going back (kyoto shogi's `+L` to `L`)."""
        letter = self.letter_of_code(code)
        if mover and self.letter_of_code(mover) == "+" + letter:
            return "-"
        return letter.lower()[0]

    def code_of_letter(self, letter: str) -> int | None:
        """The piece code of a FEN letter, or None."""
        return self.letter_codes.get(letter)

    def __repr__(self) -> str:
        return f"<Variant {self.name}>"

    # -- assembly ------------------------------------------------------------
    def _located(self, path: tuple[str | int, ...], build: Callable[[], T]) -> T | None:
        """Run a build step; a bad value becomes a problem at `path`."""
        try:
            return build()
        except DeclarationError as exc:
            problem = self.document.problem(path + exc.where, exc.message, exc.rule)
            if problem not in self.problems:
                self.problems.append(problem)
            return None

    def _build_board(self, spec: dict[str, Any]) -> Board:
        board = build_board(spec)
        for message, rule in board.notes:
            self.problems.append(self.document.problem(("board",), message, rule,
                                                       severity="warning"))
        for name, region in spec.get("regions", {}).items():
            self._located(("board", "regions", name), partial(board.add_regions, {name: region}))
        return board

    def _forward(self, sides: dict[str, Any], side: str) -> str | None:
        """A side's forward direction; boards without a natural one (a disk)
        have none unless declared, and relative directions are refused there."""
        names = self.board.topology.forward_names()
        default = "n" if side == "white" else "s"
        if side not in sides:
            return default if default in names else None
        forward: str = sides[side].get("forward", default)
        if forward not in names:
            self.problems.append(self.document.problem(
                ("sides", side, "forward"), f"unknown direction '{forward}'",
                "unknown-direction"))
            return default if default in names else None
        return forward

    def _turned(self, sides: dict[str, Any]) -> tuple[bool, bool]:
        """Per side, `turned: true`: its vectors are turned half a circle, as
        Fairy-Stockfish turns Black's pieces, on a grid whose forward runs
        along the files."""
        turned = []
        for side in ("white", "black"):
            wanted = bool(sides.get(side, {}).get("turned", False))
            forward = self.forwards[("white", "black").index(side)]
            if wanted and not (isinstance(self.board.topology, GridTopology)
                               and forward is not None and forward[0] in "ns"
                               and "e" not in forward and "w" not in forward):
                self.problems.append(self.document.problem(
                    ("sides", side, "turned"), "turned: the side's forward must run along "
                    "the files of a grid (n or s)", "bad-turned"))
                wanted = False
            turned.append(wanted)
        return turned[0], turned[1]

    def _check_piece_count(self, declared: dict[str, Any]) -> None:
        """Refuse more pieces or moves than `variantkit.limits` allows before
        compiling them (each move is compiled for every cell and side)."""
        if len(declared) > MAX_PIECES:
            raise VariantError([self.document.problem(
                ("pieces", list(declared)[MAX_PIECES]),
                f"more than {MAX_PIECES} pieces: each needs its own letter", "too-large",
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
            raise VariantError([self.document.problem(
                moves[MAX_MOVES], f"more than {MAX_MOVES} moves in all pieces together (each "
                "direction or vector listed counts as one, Betza strings expanded)",
                "too-large")])

    def _check_pieces(self, declared: dict[str, Any]) -> None:
        seen: dict[str, str] = {}
        for name, spec in declared.items():
            letter = spec["letter"]
            if letter in seen:
                self.problems.append(self.document.problem(
                    ("pieces", name, "letter"),
                    f"piece '{name}' uses letter '{letter}', already used by '{seen[letter]}'",
                    "duplicate-letter"))
            seen[letter] = name
        for t in self.pieces.types:
            if t.passes and not t.royal:
                self.problems.append(self.document.problem(
                    ("pieces", t.name, "pass"), f"piece '{t.name}' may pass but is not royal: "
                    "a pass is written from the royal piece's cell to itself", "pass-not-royal"))
        if self.one_royal and not any(t.royal for t in self.pieces.types):
            self.problems.append(self.document.problem(
                ("pieces",), "no piece is royal: declare `royal: true` on the king",
                "no-royal"))

    def _check_cell_names(self) -> None:
        """Move strings are read as from-cell, to-cell, promotion letter: warn
        when the board's names allow two readings of one string.

        Two readings of one string either share the from-cell (then a cell's
        name is another's plus a promotion letter), or one from-cell `a` is a
        proper prefix of the other, `a + t`, and both the string's rest after
        `a` and its rest after `a + t` read as a to-cell and a letter.  So
        only the "rests" (name + letter) and the "tails" `t` are listed: time
        grows with the cells times the name length, not with the cells squared.
        """
        names = sorted(self.board.names)
        index = self.board.index
        suffixes = [""] + sorted({letter.lower()[0] for letter in self.letter_codes})
        rests: dict[str, tuple[str, str]] = {}
        for b in names:
            for x in suffixes:
                other = rests.setdefault(b + x, (b, x))
                if other != (b, x):
                    return self._warn_ambiguous(names[0] + b + x, (names[0], *other),
                                                (names[0], b, x))
        tails = {a[len(prefix):]: (prefix, a) for a in reversed(names)
                 for prefix in (a[:k] for k in range(1, len(a))) if prefix in index}
        if not tails:
            return None
        for rest, (b, x) in rests.items():
            for k in range(1, len(rest)):
                tail, shorter = rest[:k], rest[k:]
                if tail in tails and shorter in rests:
                    a, longer = tails[tail]
                    return self._warn_ambiguous(a + rest, (a, b, x), (longer, *rests[shorter]))
        return None

    def _warn_ambiguous(self, text: str, one: tuple[str, str, str],
                        other: tuple[str, str, str]) -> None:
        self.problems.append(self.document.problem(
            ("board",), f"move string '{text}' reads as {one[0]} to {one[1]} and as "
            f"{other[0]} to {other[1]}: rename cells so that move strings are unambiguous",
            "ambiguous-cell-names", severity="warning"))

    def _build_codes(self) -> None:
        self.n_codes = n_codes = piece_code(len(self.pieces.types), 0)
        rng = random.Random(ZOBRIST_SEED)
        self.zobrist = [[rng.getrandbits(64) for _ in range(self.board.size)]
                        for _ in range(n_codes)]
        self.turn_key = rng.getrandbits(64)
        self.right_keys = [rng.getrandbits(64) for _ in range(64)]
        self.unmoved_keys = [rng.getrandbits(64) for _ in range(self.board.size)]
        self.ep_keys = [rng.getrandbits(64) for _ in range(self.board.size)]
        self.wall_keys = [rng.getrandbits(64) for _ in range(self.board.size)]
        self.royal_code = [False] * n_codes
        self.royal_codes: list[list[int]] = [[], []]
        self.resets_clock = [False] * n_codes
        # Royal pieces that may pass (hand the turn over without moving).
        self.pass_codes = [False] * n_codes
        self.generators: list[list[Generator]] = [[] for _ in range(n_codes)]
        attack: list[dict[int, list[int]]] = [{}, {}]
        for t in self.pieces.types:
            for side in range(2):
                code = piece_code(t.index, side)
                self.royal_code[code] = t.royal
                if t.royal:
                    self.royal_codes[side].append(code)
                self.resets_clock[code] = t.resets_clock
                self.pass_codes[code] = t.passes
                for ci in t.components:
                    comp = self.pieces.components[ci]
                    f = comp.flags
                    self.generators[code].append(Generator(
                        comp.tables[side], f.mode, f.initial, f.en_passant,
                        f.may_give_check, comp.passed[side], self._victims(f, side),
                        self._limits(comp, side)))
                    if f.mode & CAPTURE:
                        attack[side].setdefault(ci, []).append(code)
        self.clock_kept = [self._clock_kept(code) for code in range(n_codes)]
        # The generators of a side in check: the same list, unless some
        # primitive is restricted then (`in-check`).
        if any(comp.flags.in_check != "allowed" for comp in self.pieces.components):
            self.check_generators = [
                [self._in_check_generator(self.pieces.components[ci], g)
                 for ci, g in zip(self.pieces.types[type_of(code)].components, gens, strict=True)
                 if self.pieces.components[ci].flags.in_check != "never"]
                if code >= 2 else [] for code, gens in enumerate(self.generators)]
        else:
            self.check_generators = self.generators
        # The same lists for the move generator's loop: a plain generator
        # (no first-move, en passant, check or type rule) as (tables, mode,
        # spans, None), any other as (tables, mode, spans, itself); order
        # kept, since the first primitive to reach a cell makes its move.
        # `spans`, for a generator that only captures or converts: per cell,
        # every cell it may reach (no enemy piece there, nothing to do).
        self.loop_generators = self._loop_generators(self.generators)
        self.loop_check_generators = self.loop_generators \
            if self.check_generators is self.generators \
            else self._loop_generators(self.check_generators)
        # Pieces whose "not moved yet" status changes their moves, and so
        # tells positions apart for repetition.
        self.unmoved_codes = [code for code in range(2, n_codes)
                              if any(g.initial for g in self.generators[code])]
        comps = self.pieces.components
        # (component, piece codes that have it, attacks only while unmoved,
        # piece codes that may not serve as its screens)
        self.attack_components: list[list[AttackEntry]] = [
            [(comps[ci], codes, comps[ci].flags.initial, self._barred(comps[ci]))
             for ci, codes in attack[s].items()] for s in range(2)]
        if self.facing is not None and self.facing_rule == "forbidden":
            for s in range(2):
                royals = [piece_code(t.index, s) for t in self.pieces.types if t.royal]
                self.attack_components[s].append((self.facing, royals, False, ()))
        self.slider_components = [
            [entry for entry in self.attack_components[s] if any(entry[0].xray_sources[s])]
            for s in range(2)]
        # Hoppers: a piece moving onto their line may give them a screen.
        self.hop_components = [
            [entry for entry in self.slider_components[s] if entry[0].flags.hop is not None]
            for s in range(2)]
        # Whether a screen's piece type matters: then the legality of a move
        # is tested on the position after it, where every piece's type is known.
        self.typed_screens = any(entry[3] for side in self.attack_components for entry in side)
        # Per side: the capture tables of each piece code (and whether they
        # hold only while the piece is unmoved), when they are all of the
        # side's attacks and none is a hop.  Then the cells the side attacks
        # under fewer occupied cells are a superset of those it attacks under
        # more, and one map per node clears most king moves and castlings.
        self.attack_tables: list[list[list[tuple[list[CellReach], bool]]] | None] = [
            None if self.hop_components[s] or len(self.attack_components[s]) != len(attack[s])
            else [[(g.tables, g.initial) for g in self.generators[code] if g.mode & CAPTURE]
                  if code >= 2 and code & 1 == s else [] for code in range(n_codes)]
            for s in range(2)]

    def _short_moves(self, code: int) -> list[bool]:
        touched = [0] * self.board.size
        tables = {id(g.tables): g.tables for generators in (self.generators, self.check_generators)
                  for g in generators[code]}
        for per_cell in tables.values():
            for cell, table in enumerate(per_cell):
                touched[cell] |= span(table)
        promotion = self.promotions[code & 1].get(code)
        if promotion is not None:
            for cell in range(self.board.size):
                if touched[cell] & promotion.region or promotion.start >> cell & 1:
                    touched[cell] = -1
        return [0 <= bits <= SHORT_MASK for bits in touched]

    @staticmethod
    def _loop_generators(generators: list[list[Generator]]) -> list[list[LoopGenerator]]:
        return [[(g.tables, g.mode,
                  None if g.mode & MOVE else [span(table) for table in g.tables],
                  None if not g.initial and g.en_passant is None
                  and g.may_give_check and not g.passed and g.mode & CONVERT == 0
                  and g.limits is None else g) for g in gens] for gens in generators]

    @staticmethod
    def _in_check_generator(component: Component, generator: Generator) -> Generator:
        """A generator as its side uses it in check: under `capture-checker`
        it only captures, and only a lone checking piece."""
        if component.flags.in_check != "capture-checker":
            return generator
        limits = generator.limits or Limits((), 0, ())
        return generator._replace(mode=generator.mode & CAPTURE,
                                  limits=limits._replace(checkers_only=True))

    def _barred(self, component: Component) -> tuple[int, ...]:
        """Piece codes, of both sides, that may not serve as the component's screens."""
        hop = component.flags.hop
        if hop is None:
            return ()
        return tuple(piece_code(t, side) for t in sorted(hop.barred) for side in range(2))

    def _limits(self, component: Component, side: int) -> Limits | None:
        barred = self._barred(component)
        immune = tuple(piece_code(t, 1 - side) for t in sorted(component.flags.cannot_capture))
        if not barred and not immune:
            return None
        return Limits(barred, component.shift, immune)

    def _clock_kept(self, code: int) -> list[int] | None:
        """Per from-cell, the landing cells that only primitives declared
        `resets-clock: false` reach (moves there keep the clock running), or
        None when all of a piece's moves reset it."""
        comps = [self.pieces.components[ci] for ci in
                 self.pieces.types[type_of(code)].components] if code >= 2 else []
        if not self.resets_clock[code] or all(c.flags.resets_clock for c in comps):
            return None
        side = code & 1
        kept = []
        for cell in range(self.board.size):
            quiet = loud = 0
            for comp in comps:
                reached = reach(comp.tables[side][cell], 1 << cell)
                if comp.flags.resets_clock:
                    loud |= reached
                else:
                    quiet |= reached
            kept.append(quiet & ~loud)
        return kept

    def _victims(self, flags: Flags, side: int) -> tuple[int, ...]:
        """Enemy piece codes a suborn may convert: never a royal piece."""
        if not flags.mode & CONVERT:
            return ()
        return tuple(piece_code(t.index, 1 - side) for t in self.pieces.types
                     if not t.royal and (flags.suborn_types is None
                                         or t.index in flags.suborn_types))

    def _piece_codes(self, path: tuple[str | int, ...], names: list[str]) -> list[int]:
        out = []
        for i, name in enumerate(names):
            kind = self.pieces.by_name.get(name)
            if kind is None:
                self.problems.append(self.document.problem(
                    (*path, i), f"unknown piece '{name}'", "unknown-piece"))
                continue
            out.append(kind.index)
        return out

    def _build_promotion(self, spec: dict[str, Any] | list[dict[str, Any]] | None) -> None:
        """Per side, the promoting piece codes and how each promotes."""
        self.promotions: list[dict[int, Promotion]] = [{}, {}]
        self.standing: list[dict[int, Standing]] = [{}, {}]
        self.promotion_limit = [0] * self.n_codes  # 0: no limit
        # Per side, the pieces that promote by `pieces` and `choices`, as
        # pawns do: SAN writes their moves without a letter.
        self.pawn_like: list[set[int]] = [set(), set()]
        for index, rule in enumerate(promotion_rules(spec)):
            path: tuple[str | int, ...] = ("promotion", index) if isinstance(spec, list) \
                else ("promotion",)
            self._promotion_rule(path, rule)
        # Pieces whose promotion can be undone (kyoto shogi: each type turns
        # into the other): that move does not reset the move-rule count.
        self.reversible_promotion = [False] * self.n_codes
        for side in range(2):
            table = self.promotions[side]
            for code, how in table.items():
                self.reversible_promotion[code] = bool(how.choices) and all(
                    choice in table and code in table[choice].choices
                    for choice in how.choices)

    def _promotion_rule(self, path: tuple[str | int, ...], rule: dict[str, Any]) -> None:
        movers = self._piece_codes((*path, "pieces"), rule.get("pieces", []))
        # `promotes-to`: each of these pieces has its own one promoted type.
        own_form = {kind: self._promotion_choices((*path, "promotes-to", name), [form])
                    for name, form in rule.get("promotes-to", {}).items()
                    for kind in self._piece_codes((*path, "promotes-to"), [name])}
        if not movers and not own_form:
            self.problems.append(self.document.problem(
                path, "a promotion rule names its pieces: `pieces` with `choices`, or "
                "`promotes-to`", "promotion-pieces"))
        for name, count in rule.get("limit", {}).items():
            for kind in self._piece_codes((*path, "limit"), [name]):
                for side in range(2):
                    self.promotion_limit[piece_code(kind, side)] = count
        choices = rule.get("choices", [])
        per_side = [((*path, "choices", side), choices[side]) for side in ("white", "black")] \
            if isinstance(choices, dict) else [((*path, "choices"), choices)] * 2
        kinds_at: dict[tuple[str | int, ...], list[int]] = {}
        for where, names in per_side:
            if where not in kinds_at:
                kinds_at[where] = self._promotion_choices(where, names)
        optional = rule.get("optional")
        for side, side_name in enumerate(("white", "black")):
            region = rule.get("regions", {}).get(side_name)
            if region is None:
                self.problems.append(self.document.problem(
                    (*path, "regions"), f"no promotion region for {side_name}",
                    "missing-region"))
                continue
            bits = self._located((*path, "regions", side_name),
                                 partial(self.board.resolve_region, region)) or 0
            # A move that leaves the region promotes as a move into it does.
            start = bits if rule.get("leaving", False) else 0
            optional_bits = 0
            if isinstance(optional, dict) and side_name in optional:
                optional_bits = (self._located((*path, "optional", side_name), partial(
                    self.board.resolve_region, optional[side_name])) or 0) & bits
                if start:   # a move out of the region may always stay as it is
                    optional_bits |= ((1 << self.board.size) - 1) & ~bits
            standing = rule.get("standing")
            self.pawn_like[side].update(piece_code(k, side) for k in movers)
            for kind, kinds in [*((k, kinds_at[per_side[side][0]]) for k in movers),
                                *own_form.items()]:
                code = piece_code(kind, side)
                codes = [piece_code(c, side) for c in kinds]
                if standing is not None:
                    steps = self._located((*path, "standing", "steps"), partial(
                        self._step_cells, standing["steps"], side)) or [0] * self.board.size
                    self.standing[side][code] = Standing(
                        bits, codes, steps, bool(standing.get("last-anywhere", False)),
                        standing.get("attack", "allowed") == "forbidden")
                    continue
                where_optional = optional_bits
                if optional == "where-it-can-move":
                    where_optional = self._mobile_cells(code)
                self.promotions[side][code] = Promotion(
                    bits, where_optional, codes, start, bool(rule.get("on-capture", False)))

    def _mobile_cells(self, code: int) -> int:
        """The cells from which a piece (by code) could still move on the
        empty board: staying unpromoted anywhere else would strand it."""
        return sum(1 << cell for cell in range(self.board.size)
                   if self.empty_board_reach(code, cell, initial=False))

    def _step_cells(self, spec: Any, side: int) -> list[int]:
        """Per cell, the cells one step away in the directions `spec`."""
        board = self.board
        ways = board.topology.directions(spec, self.forwards[side])
        return [board.mask([ray[0] for way in ways for ray in board.rays(cell, way) if ray])
                for cell in range(board.size)]

    def _promotion_choices(self, path: tuple[str | int, ...], names: list[str]) -> list[int]:
        """The piece types of a list of promotion choices: no royal piece."""
        for i, name in enumerate(names):
            if self.one_royal and name in self.pieces.by_name \
                    and self.pieces.by_name[name].royal:
                self.problems.append(self.document.problem(
                    (*path, i), f"a piece may not promote to the royal piece '{name}'",
                    "royal-promotion"))
        forms = [i for i, name in enumerate(names) if name in self.pieces.by_name
                 and self.pieces.by_name[name].letter.startswith("+")]
        if len(forms) > 1:
            self.problems.append(self.document.problem(
                (*path, forms[1]), f"'{names[forms[0]]}' and '{names[forms[1]]}' are both "
                "promoted forms: a move string ending in '+' would name both",
                "promoted-forms"))
        return self._piece_codes(path, names)

    def _build_hands(self, data: dict[str, Any]) -> None:
        """Pieces in hand (`hands`): where a captured piece goes, and per
        piece code where and under what restrictions it is dropped."""
        n_codes = self.n_codes
        self.has_hands = "hands" in data
        self.all_cells = (1 << self.board.size) - 1
        spec = data.get("hands", {})
        to_capturer = spec.get("captures", "removed") == "to-capturer"
        self.captures_to_hand = to_capturer
        # Whether pieces in hand drop (else they enter only by gating, on
        # cells of their drop regions too).
        self.drops = self.has_hands and spec.get("drops", True)
        # A side holding pieces must drop one while it can (`must-drop`); a
        # dropped piece counts as not moved yet (`drops-unmoved`).
        self.must_drop = bool(spec.get("must-drop", False))
        self.drops_unmoved = bool(spec.get("drops-unmoved", False))
        # For a captured piece code, the code that joins the capturer's hand.
        self.to_hand = [-1] * n_codes
        self.drop_regions = [0] * n_codes
        self.drop_rules: list[DropRule | None] = [None] * n_codes
        # Per side, the codes that may be in hand, in the order hands are written.
        self.hand_codes: list[list[int]] = [[], []]
        # Per side, the codes whose drops keep them on both colours alike
        # (`drops: {colours: balanced}`), and the cells of colour 0.
        self.balanced: list[list[int]] = [[], []]
        self.colour_cells = sum(1 << cell for cell, colour in enumerate(self.board.colours)
                                if colour == 0)
        rng = random.Random(ZOBRIST_SEED + 2)
        self.hand_keys = [[rng.getrandbits(64) for _ in range(self.board.size + 1)]
                          for _ in range(n_codes)] if self.has_hands else []
        setup_hand = split_hand((self.setup_fen.split() or [""])[0])[1] or ""
        # Hands are written in `order` first, then in declaration order.
        first = self._piece_codes(("hands", "order"), spec.get("order", []))
        rank = {kind: i for i, kind in enumerate(first)}
        declared = sorted(data["pieces"].items(),
                          key=lambda item: rank.get(self.pieces.by_name[item[0]].index, len(rank)))
        for name, piece in declared:
            t = self.pieces.by_name[name]
            path = ("pieces", name)
            if not self.has_hands:
                for key in ("drops", "demotes-to"):
                    if key in piece:
                        self.problems.append(self.document.problem(
                            (*path, key), f"`{key}` needs pieces in hand: declare `hands`",
                            "hands-missing", key=True))
                continue
            demoted = t.index
            if "demotes-to" in piece:
                kinds = self._piece_codes((*path, "demotes-to"), [piece["demotes-to"]])
                demoted = kinds[0] if kinds else t.index
                if self.pieces.types[demoted].royal:
                    self.problems.append(self.document.problem(
                        (*path, "demotes-to"), "a piece may not demote to a royal piece",
                        "bad-demotion"))
            drops = piece.get("drops", {})
            for side in range(2):
                code = piece_code(t.index, side)
                # A royal piece is never captured into a hand; it may be in
                # one where the setup puts it there (placement).
                if t.royal and self.letter_of_code(code) not in setup_hand:
                    continue
                self.hand_codes[side].append(code)
                if to_capturer and not t.royal:
                    self.to_hand[code] = piece_code(demoted, 1 - side)
                region = drops.get("regions")
                self.drop_regions[code] = self.all_cells if region is None else self._located(
                    (*path, "drops", "regions"),
                    partial(self._side_region, region, side)) or 0
                self.drop_rules[code] = self._drop_rule(path, drops, side)
                if drops.get("colours") == "balanced":
                    self.balanced[side].append(code)

    def _side_region(self, ref: Any, side: int) -> int:
        """A region reference, or one per side, as a side's cell mask."""
        if isinstance(ref, dict):
            ref = ref[("white", "black")[side]]
        return self.board.resolve_region(ref)

    def _drop_rule(self, path: tuple[str | int, ...], drops: dict[str, Any],
                   side: int) -> DropRule | None:
        """The restrictions of `drops` beyond the region, or None for none."""
        per_line = drops.get("per-line")
        lines: tuple[int, ...] = ()
        if per_line is not None:
            lines = self._located((*path, "drops", "per-line"),
                                  partial(self._files, side)) or ()
        check = drops.get("check", "allowed") == "forbidden"
        mate = drops.get("mate", "allowed") == "forbidden"
        if not (lines or check or mate):
            return None
        return DropRule(lines, per_line["count"] if per_line else 0, check, mate)

    def _files(self, side: int) -> tuple[int, ...]:
        """The board's files as a side sees them: the lines through each
        cell along its forward direction, each as a cell mask."""
        topology = self.board.topology
        forward = self.forwards[side]
        if forward is None:
            raise DeclarationError("per-line: files run along a side's forward direction, "
                                   "and this board has none", "bad-drops")
        ways = topology.directions("forward", forward) + topology.directions("backward", forward)
        files: set[int] = set()
        for cell in range(self.board.size):
            bits = 1 << cell
            for way in ways:
                for ray in self.board.rays(cell, way):
                    bits |= self.board.mask(list(ray))
            files.add(bits)
        return tuple(sorted(files))

    def _build_drop_options(self, pieces: dict[str, Any]) -> None:
        """Per piece code: whether a checkmate given by dropping it loses
        (`mate: loses`), and the other types it may be dropped as (`also-as`:
        kyoto shogi drops a piece in either form)."""
        self.drop_mate_loses = [False] * self.n_codes
        self.drop_forms: list[list[int]] = [[] for _ in range(self.n_codes)]
        for index, (name, piece) in enumerate(pieces.items()):
            drops = piece.get("drops", {})
            forms = self._piece_codes(("pieces", name, "drops", "also-as"),
                                      drops.get("also-as", []))
            for side in range(2):
                code = piece_code(index, side)
                self.drop_mate_loses[code] = drops.get("mate") == "loses"
                self.drop_forms[code] = [piece_code(kind, side) for kind in forms]

    def _setup_cells(self) -> dict[int, int]:
        """Setup placement (cell -> code); a bad one is a problem at `setup`."""
        try:
            return parse_placement(self, self.setup_fen.split()[0])
        except (InvalidFenError, IndexError) as exc:
            self.problems.append(self.document.problem(
                ("setup",), f"setup: {exc or 'empty position string'}", "bad-setup"))
            return {}

    def _castling(self, index: int, spec: dict[str, Any]) -> Castling | None:
        board = self.board
        cells: list[int] = []
        for piece in ("king", "rook"):
            for j, name in enumerate(spec[piece]):
                cell = self._located(("castling", index, piece, j), partial(board.cell, name))
                if cell is None:
                    return None
                cells.append(cell)
        k0, k1, r0, r1 = cells
        if k0 in (r0, k1) or k1 == r1:
            raise DeclarationError(
                "castling: king and rook start on different cells, the king moves, and the "
                "two end on different cells", "castling-cells")
        if not self.setup_cells and "pieces" not in spec:
            return None  # the setup's own problem is reported already
        king_code, rook_code = self.setup_cells.get(k0), self.setup_cells.get(r0)
        if "pieces" in spec:
            kinds = self._piece_codes(("castling", index, "pieces"), spec["pieces"])
            if len(kinds) < 2:
                return None
            side = 0 if spec["right"].isupper() else 1
            king_code, rook_code = piece_code(kinds[0], side), piece_code(kinds[1], side)
        if king_code is None or (self.one_royal and not self.royal_code[king_code]):
            raise DeclarationError(
                f"castling: the setup has no royal piece on {spec['king'][0]}", "castling-setup")
        if rook_code is None or rook_code & 1 != king_code & 1:
            raise DeclarationError(
                f"castling: the setup has no piece of the king's side on {spec['rook'][0]}",
                "castling-setup")
        return derive_castling(board, spec["right"], (k0, k1), (r0, r1), king_code, rook_code,
                               royal=bool(self.royal_code[king_code]))

    def _build_aims(self, declared: dict[str, Any]) -> None:
        """`initial-until-aimed-by`: per moving piece code, the enemy piece
        codes that lose their initial moves when it aims at them."""
        self.aimed_by: list[tuple[int, ...]] = [()] * self.n_codes
        for name, spec in declared.items():
            victim = self.pieces.by_name[name].index
            for kind in self._piece_codes(("pieces", name, "initial-until-aimed-by"),
                                          spec.get("initial-until-aimed-by", [])):
                for side in range(2):
                    mover = piece_code(kind, side)
                    self.aimed_by[mover] += (piece_code(victim, 1 - side),)
        self.aims = any(self.aimed_by)

    def _check_in_check(self) -> None:
        """`in-check` needs the side's check to be one royal piece's, read
        where moves are generated (not under several royals or explosions)."""
        if self.check_generators is self.generators or (self.one_royal and not self.blast):
            return
        for name, spec in self.document.data["pieces"].items():
            for i, move in enumerate(spec.get("moves", [])):
                if move.get("in-check", "allowed") != "allowed":
                    self.problems.append(self.document.problem(
                        ("pieces", name, "moves", i, "in-check"), "`in-check` needs one royal "
                        "piece per side and no explosions", "bad-in-check"))

    def _initial_rights(self, names: list[str]) -> list[int]:
        """`position-string: initial-rights`: the piece codes whose right to
        their initial moves the castling field writes by file letter."""
        if names and not isinstance(self.board.topology, GridTopology):
            self.problems.append(self.document.problem(
                ("position-string", "initial-rights"), "initial-rights needs a grid board: "
                "rights are written by file", "initial-rights-board"))
            return []
        kinds = self._piece_codes(("position-string", "initial-rights"), names)
        return [piece_code(kind, side) for kind in kinds for side in range(2)]

    def _gating(self, spec: dict[str, Any] | None) -> list[int]:
        """`gating`: per side, the cells where a piece that has not moved yet,
        leaving, may let a piece from the hand in (0 for none)."""
        if spec is None:
            return [0, 0]
        if "hands" not in self.document.data:
            self.problems.append(self.document.problem(
                ("gating",), "gating puts pieces from the hand on the board: declare "
                "`hands`", "gating-hands"))
        if not isinstance(self.board.topology, GridTopology):
            self.problems.append(self.document.problem(
                ("gating",), "gating needs a grid board: rights are written by file",
                "gating-board"))
            return [0, 0]
        regions = []
        for side in ("white", "black"):
            path = ("gating", "regions", side)
            bits = self._located(path, partial(self.board.resolve_region,
                                               spec["regions"][side])) or 0
            files = [self.board.names[cell].rstrip("0123456789")
                     for cell in self.board.cells_of(bits)]
            if len(set(files)) != len(files):
                self.problems.append(self.document.problem(
                    path, "a gating region has one cell per file: its rights are written "
                    "by file letter", "gating-region"))
            regions.append(bits)
        return regions

    def _first_move(self, spec: dict[str, Any] | None) -> None:
        """A piece's first move must change plane, with declared exceptions."""
        self.first_move_rule = spec is not None
        self.same_plane: list[int] = []
        exceptions = set(spec.get("except", [])) if spec else set()
        self.first_move_castling = "castling" in exceptions
        self.first_move_evasion = "check-evasion" in exceptions
        if spec is None:
            return
        plane_of = [self.board.topology.plane_of(cell) for cell in range(self.board.size)]
        if spec.get("must-change") != "plane" or None in plane_of:
            raise DeclarationError("first-move: must-change: plane needs a board with planes",
                                   "first-move-board")
        by_plane: dict[int | None, int] = {}
        for cell, plane in enumerate(plane_of):
            by_plane[plane] = by_plane.get(plane, 0) | 1 << cell
        self.same_plane = [by_plane[p] for p in plane_of]

    def _explosion(self, spec: dict[str, Any]) -> None:
        """Per cell, the cells a capture there blows up (one step in each
        `around` direction), and the piece codes that survive a blast."""
        topology = self.board.topology
        directions = topology.directions(spec.get("around", "all"), None)
        self.blast = []
        for cell in range(self.board.size):
            bits = 0
            for d in directions:
                for ray in topology.rays(cell, d):
                    if ray:
                        bits |= 1 << ray[0]
            self.blast.append(bits)
        immune = self._piece_codes(("explosion", "immune"), spec.get("immune", []))
        proof = self._piece_codes(("explosion", "blast-proof"), spec.get("blast-proof", []))
        self.blast_proof = frozenset(piece_code(t, side) for t in proof for side in range(2))
        self.blast_immune = [piece_code(t, side) for t in immune for side in range(2)] \
            + sorted(self.blast_proof)

    def _end_rules(self, spec: dict[str, Any]) -> EndRules:
        end = EndRules(
            checkmate=spec.get("checkmate", "loss"), stalemate=spec.get("stalemate", "draw"),
            draws_go_to=spec.get("draws-go-to"),
            repetition=spec.get("repetition", 3), move_rule=spec.get("move-rule"),
            draw_timing=spec.get("draw-timing", "on-occurrence"),
            automatic_repetition=spec.get("automatic-repetition"),
            automatic_move_rule=spec.get("automatic-move-rule"),
            double_pass=spec.get("double-pass"), facing_pass=spec.get("facing-pass"),
            repetition_result=spec.get("repetition-result", "draw"),
            perpetual_check=spec.get("perpetual-check"))
        for i, pattern in enumerate(spec.get("insufficient-material", [])):
            if isinstance(pattern, str):
                white, black = (p.strip() for p in pattern.split(" v "))
                unknown = [ch for ch in white + black if ch not in self.pieces.by_letter]
                if unknown:
                    self.problems.append(self.document.problem(
                        ("end", "insufficient-material", i),
                        f"unknown piece letter '{unknown[0]}'", "unknown-piece"))
                end.insufficient.append(MaterialPattern(exact=(
                    "".join(sorted(white)), "".join(sorted(black)))))
            else:
                only = self._piece_codes(("end", "insufficient-material", i, "only"),
                                         pattern.get("only", []))
                end.insufficient.append(MaterialPattern(
                    only=frozenset(only), one_colour=bool(pattern.get("one-colour"))))
        for i, item in enumerate(spec.get("checkmate-exceptions", [])):
            kind = "only" if "given-only-by" in item else "series"
            names = item["given-only-by" if kind == "only" else "series-without"]
            kinds = self._piece_codes(("end", "checkmate-exceptions", i,
                                       "given-only-by" if kind == "only" else "series-without"),
                                      names)
            end.checkmate_exceptions.append(MateException(
                kind, frozenset(piece_code(k, s) for k in kinds for s in range(2)),
                item["result"]))
        if "shuttle" in spec:
            kinds = self._piece_codes(("end", "shuttle", "pieces"), spec["shuttle"]["pieces"])
            end.shuttle = Shuttle(frozenset(piece_code(k, s) for k in kinds for s in range(2)),
                                  spec["shuttle"]["result"])
        if "draws-decided-by" in spec:
            end.draw_points = self._draw_points(spec["draws-decided-by"])
        for i, item in enumerate(spec.get("conditions", [])):
            condition = self._located(("end", "conditions", i),
                                      partial(self._end_condition, i, item))
            if condition is not None:
                end.conditions.append(condition)
                if condition.kind == "checks":
                    if end.check_limit is not None:
                        self.problems.append(self.document.problem(
                            ("end", "conditions", i), "only one `checks` condition may be "
                            "declared: the position string counts one number of checks per side",
                            "bad-end-condition"))
                    end.check_limit = condition.count
        if "counting" in spec:
            end.counting = self._located(("end", "counting"),
                                         partial(self._counting, spec["counting"]))
        return end

    def _draw_points(self, spec: dict[str, Any]) -> DrawPoints:
        """Each piece code's points, and each side's bonus."""
        values = [0.0] * self.n_codes
        for name, points in spec["points"].items():
            for kind in self._piece_codes(("end", "draws-decided-by", "points"), [name]):
                for side in range(2):
                    values[piece_code(kind, side)] = float(points)
        bonus = spec.get("bonus", {})
        return DrawPoints(values, (float(bonus.get("white", 0)), float(bonus.get("black", 0))))

    def _counting(self, spec: dict[str, Any]) -> Counting:
        """Compile `end: counting`: piece names become codes and types."""
        path = ("end", "counting")
        kinds = self._piece_codes((*path, "pawns"), spec["pawns"])
        counting = Counting(pawns=tuple(piece_code(k, side) for k in kinds for side in range(2)))
        board = spec.get("board")
        if board is not None:
            counting.board_moves = board["moves"]
            counting.board_most = board.get("most-pieces")
            counting.board_with_pawns = bool(board.get("with-pawns", False))
        bare = spec.get("bare")
        if bare is not None:
            counting.start_at_pieces = bare.get("start", "pieces") == "pieces"
            counting.last_pawn = bool(bare.get("last-pawn", False))
            if counting.last_pawn and not counting.start_at_pieces:
                raise DeclarationError("`last-pawn` starts the count one ply before the "
                                       "other side would: it needs `start: pieces`",
                                       "bad-counting", where=("bare", "last-pawn"))
            for i, entry in enumerate(bare["limits"]):
                needs = []
                for name, least in entry.get("pieces", {}).items():
                    kind = self.pieces.by_name.get(name)
                    if kind is None:
                        self.problems.append(self.document.problem(
                            (*path, "bare", "limits", i, "pieces", name),
                            f"unknown piece '{name}'", "unknown-piece", key=True))
                    else:
                        needs.append((kind.index, least))
                counting.bare.append(CountLimit(tuple(needs), entry["moves"]))
        return counting

    def _end_condition(self, index: int, spec: dict[str, Any]) -> EndCondition:
        path = ("end", "conditions", index)
        result, answer = spec["result"], spec.get("answer")
        grace = bool(spec.get("grace", False))
        if answer is not None and "reached" not in spec:
            raise DeclarationError("`answer` applies to a `reached` condition only",
                                   "bad-end-condition")
        if grace and "bare" not in spec:
            raise DeclarationError("`grace` applies to a `bare` condition only",
                                   "bad-end-condition")
        if "safe" in spec and "reached" not in spec:
            raise DeclarationError("`safe` applies to a `reached` condition only",
                                   "bad-end-condition")
        if "at-most" in spec and "extinct" not in spec:
            raise DeclarationError("`at-most` applies to an `extinct` condition only",
                                   "bad-end-condition")
        if "checks" in spec:
            return EndCondition("checks", result, count=spec["checks"])
        if "bare" in spec:
            return EndCondition("bare", result, answer=answer, grace=grace)
        if "extinct" in spec:
            names = spec["extinct"]
            codes = None if names == "all" else self._side_codes((*path, "extinct"), names)
            return EndCondition("extinct", result, count=spec.get("at-most", 0), codes=codes,
                                grace=grace)
        regions = spec["reached"]
        masks = []
        for side in ("white", "black"):
            bits = self._located((*path, "reached", side),
                                 partial(self.board.resolve_region, regions[side]))
            masks.append(bits or 0)
        return EndCondition("reached", result, regions=(masks[0], masks[1]), answer=answer,
                            grace=grace, safe=bool(spec.get("safe", False)),
                            codes=self._side_codes((*path, "pieces"), spec["pieces"]))

    def _side_codes(self, path: tuple[str | int, ...],
                    names: list[str]) -> tuple[frozenset[int], frozenset[int]]:
        """Each side's piece codes of the named pieces."""
        kinds = self._piece_codes(path, names)
        return (frozenset(piece_code(k, 0) for k in kinds),
                frozenset(piece_code(k, 1) for k in kinds))


def _parts(move: dict[str, Any]) -> int:
    """How many directions or vectors a move lists (one for a family name,
    a pair or a region), the unit of `limits.MAX_MOVES`."""
    for key in ("step", "ride", "leap"):
        value = move.get(key)
        if isinstance(value, list) and value and isinstance(value[0], list | str):
            return len(value)
    return 1


def _problem_order(problem: Problem) -> tuple[str, int, int]:
    return (problem.file or "", problem.line or 0, problem.column or 0)


def load(name_or_path: str | Path, budget: Budget | None = None) -> Variant:
    """Load a bundled variant by name (`"chess"`) or a variant file by path.

    `budget` (a `variantkit.limits.Budget`) caps the work of compiling it;
    by default, everything within the documented limits loads."""
    return Variant(load_document(name_or_path), budget)


def load_text(text: str, source: str = "<text>", folder: Path | None = None,
              budget: Budget | None = None) -> Variant:
    """Load a variant from YAML text that is not a file the user named (a web
    form, an editor buffer); `source` names it in problems.  It may inherit
    only bundled variants, or with `folder`, files in that folder or below it
    (see `variantkit.loader.load_document_text`)."""
    return Variant(load_document_text(text, source, folder), budget)
