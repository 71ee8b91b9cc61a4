"""Assemble a variant from its loaded declaration.

`Variant` is the assembly of the rule compilation: it hands each part of the
declaration to its rule family in `variantkit.rulebook` (board, sides,
pieces, royals, codes, promotion, hands, castling, end rules, capture
effects, aims, first moves, gating, keys, and the drawing's look), in an
order where each family finds what it reads already built, and holds the
plain tables they return (`variantkit.tables`) for the core.  Every problem a family finds is
reported, located, through one `Sink`; the start position is read last, so
a sound declaration is also checked against its own setup.

Adding a rule family is adding a module to `variantkit.rulebook` and one
call here.  Nothing sets a `Variant`'s attributes once it is built.
"""

from __future__ import annotations

import itertools
from pathlib import Path

from variantkit.board import Board
from variantkit.castling import Castling, by_side
from variantkit.checks import run_checks
from variantkit.core.general import empty_position
from variantkit.errors import (
    CastlingFieldError,
    DeclarationError,
    InvalidFenError,
    Problem,
    VariantError,
    YamlPath,
    quote,
)
from variantkit.game import Game
from variantkit.limits import Budget
from variantkit.loader import Document, load_document, load_document_text
from variantkit.notation import parse_placement, placement, read_fen
from variantkit.pieces import (
    SHORT_BITS,
    SHORT_MASK,
    Component,
    Context,
    PieceSet,
    compile_pieces,
    piece_code,
)
from variantkit.rulebook import (
    aims,
    captures,
    castling,
    codes,
    drop_fall,
    end,
    first_moves,
    flips,
    gating,
    hands,
    keys,
    look,
    promotion,
    roster,
    royals,
    sides,
)
from variantkit.rulebook import board as board_rules
from variantkit.rulebook import walls as walls_rule
from variantkit.rulebook.look import Look
from variantkit.rulebook.notation import Notation, compile_notation
from variantkit.rulebook.sink import Sink
from variantkit.tables import (
    AttackEntry,
    DropRule,
    EndRules,
    FlipRule,
    Generator,
    LoopGenerator,
    Promotion,
)


class Variant:
    """A compiled variant: board, pieces, rules and the engine's tables."""

    def __init__(self, document: Document, budget: Budget | None = None) -> None:
        self.document = document
        sink = Sink(document)
        self.problems: list[Problem] = sink.problems
        data = document.data
        self.name: str = data["name"]
        self.description: str = data.get("description", "")
        board = sink.located(("board",), lambda: board_rules.compile_board(sink, data["board"]))
        if board is None:
            raise VariantError(self.problems)
        self.board: Board = board
        declared_sides = data.get("sides", {})
        self.forwards = sides.forwards(sink, board, declared_sides)
        declared = data["pieces"]
        self.letter_codes = roster.letter_codes(declared)
        self.setup_fen: str = data["setup"]
        # Holes written in position strings (Fairy-Stockfish's `*`).
        self.hole_mark: str | None = data.get("position-string", {}).get("holes")
        self.slots = board_rules.hole_slots(sink, board, self.hole_mark)
        # The setup's placement (cell -> code), read with the letters and
        # slots above; a bad one is a problem at `setup`.
        self.setup_cells: dict[int, int] = {}
        try:
            # Walls in the setup (`walls:`, `petrify:`) are read with the rest.
            walled: set[int] | None = set() if "walls" in data or "petrify" in data else None
            self.setup_cells = parse_placement(self, self.setup_fen.split()[0], walled)
        except (InvalidFenError, IndexError) as exc:
            sink.report(("setup",), f"setup: {exc or 'empty position string'}", "bad-setup")
        royal_piece_codes = {piece_code(i, side) for i, spec in enumerate(declared.values())
                       if spec.get("royal") for side in range(2)}
        royal_start: list[int | None] = [None, None]
        for cell, code in self.setup_cells.items():
            if code in royal_piece_codes:
                royal_start[code & 1] = cell
        if budget is not None and budget.source is None:
            budget.source = document.file
        context = Context(board=board, forwards=self.forwards, royal_start=royal_start,
                          turned=sides.turned(sink, board, declared_sides, self.forwards),
                          piece_index={name: i for i, name in enumerate(declared)},
                          budget=budget or Budget(source=document.file))
        roster.check_size(sink, declared)
        self.pieces: PieceSet = compile_pieces(context, declared, sink.located)
        pieces = self.pieces

        rule = royals.compile_royals(sink, data, context)
        self.one_royal = rule.one_royal
        self.check_all = rule.check_all
        self.check_last = rule.check_last
        self.must_capture = bool(data.get("must-capture", False))
        self.may_give_check = bool(data.get("may-give-check", True))
        self.facing: Component | None = rule.facing
        self.facing_rule: str = rule.facing_rule
        self.facing_must_break = self.facing is not None and self.facing_rule == "must-break"
        roster.check_pieces(sink, declared, pieces, self.one_royal)
        board_rules.warn_ambiguous_names(sink, board, list(self.letter_codes))
        self.look: Look = look.compile_look(sink, data.get("look"), board, pieces)

        compiled = codes.compile_codes(pieces, board, self.facing, self.facing_rule)
        self.n_codes = compiled.n_codes
        self.royal_code = compiled.royal_code
        self.royal_codes = compiled.royal_codes
        self.resets_clock = compiled.resets_clock
        self.pass_codes = compiled.pass_codes
        self.generators: list[list[Generator]] = compiled.generators
        self.clock_kept = compiled.clock_kept
        self.check_generators: list[list[Generator]] = compiled.check_generators
        self.loop_generators: list[list[LoopGenerator]] = compiled.loop_generators
        self.loop_check_generators: list[list[LoopGenerator]] = compiled.loop_check_generators
        self.attack_components: list[list[AttackEntry]] = compiled.attack_components
        self.slider_components: list[list[AttackEntry]] = compiled.slider_components
        self.hop_components: list[list[AttackEntry]] = compiled.hop_components
        self.typed_screens = compiled.typed_screens

        promoting = promotion.compile_promotion(sink, data.get("promotion"), board, pieces,
                                                self.forwards, self.one_royal, self.generators)
        self.promotions = promoting.promotions
        # The same per piece code (None where it never promotes): the move
        # generator reads it for each piece, and compiled, a list read costs
        # less than a dictionary's `get`.
        self.promotion_of: list[Promotion | None] = [
            promoting.promotions[code & 1].get(code) for code in range(self.n_codes)]
        # Their regions in words, for the pieces read a word at a time.
        self.promotion_low = [0 if p is None else p.region & SHORT_MASK
                              for p in self.promotion_of]
        self.promotion_high = [0 if p is None else p.region >> SHORT_BITS
                               for p in self.promotion_of]
        self.standing = promoting.standing
        self.promotion_limit = promoting.promotion_limit
        self.pawn_like = promoting.pawn_like
        self.reversible_promotion = promoting.reversible_promotion
        self.limit_counted = promoting.limit_counted
        # Per piece code and cell: whether the piece's moves from there read
        # and reach only cells within SHORT_MASK, and never promote.  The move
        # generator then works on the low words of the node's masks, so that
        # a piece on g8 or h8 of a 64-cell board does not box the masks every
        # other piece's moves are computed with.  A board within SHORT_MASK
        # needs none: all its masks are words.
        self.wide = board.size > SHORT_BITS   # read at every node: Board.size is a property
        self.short_moves = codes.short_moves(compiled, board.size, self.promotions) \
            if self.wide else []

        held = hands.compile_hands(sink, data, board, pieces, self.forwards, self.setup_fen)
        self.has_hands = held.has_hands
        self.all_cells = held.all_cells
        self.captures_to_hand = held.captures_to_hand
        self.drops = held.drops
        self.must_drop = held.must_drop
        self.forced_drops = held.forced_drops
        self.drops_unmoved = held.drops_unmoved
        self.drops_grant_castling = held.drops_grant_castling
        self.to_hand = held.to_hand
        self.to_partner = held.to_partner
        self.drop_regions = held.drop_regions
        self.drop_rules: list[DropRule | None] = held.drop_rules
        self.hand_codes = held.hand_codes
        self.balanced = held.balanced
        self.colour_cells = held.colour_cells
        self.drop_mate_loses = held.drop_mate_loses
        self.drop_forms = held.drop_forms
        self.drop_below = drop_fall.compile_drop_fall(sink, data, board)
        self.drop_entries = drop_fall.compile_drop_entries(sink, data, board)

        castles = castling.compile_castling(sink, data, board, pieces, self.setup_cells,
                                            self.royal_code, self.one_royal)
        self.castlings: list[Castling] = castles.castlings
        self.castlings_by_side = by_side(self.castlings)
        self.free_castling = castles.free_castling
        self.notation: Notation = compile_notation(sink, data.get("notation"), board, pieces,
                                                   self.forwards)

        self.end: EndRules = end.compile_end(sink, data.get("end", {}), board, pieces,
                                             frozenset(c.right for c in self.castlings))
        # Looked up at every node (`Position.ended_by_pass`), so kept as one flag.
        self.pass_ends_game = self.end.double_pass is not None or self.end.facing_pass is not None
        # Pieces a move turns over (`flips:`), None for none; a side left
        # without a legal move passes (`pass: when-no-move`).
        self.flips: FlipRule | None = flips.compile_flips(sink, data.get("flips"), board,
                                                          pieces, self.has_hands)
        self.pass_when_stuck = data.get("pass") == "when-no-move"
        blasts = captures.NO_EXPLOSION if "explosion" not in data else sink.located(
            ("explosion", "around"),
            lambda: captures.compile_explosion(sink, data["explosion"], board, pieces),
        ) or captures.NO_EXPLOSION
        self.blast = blasts.blast
        self.blast_immune = blasts.blast_immune
        self.blast_proof = blasts.blast_proof
        walls = captures.compile_petrify(sink, data.get("petrify", []), pieces, self.royal_code,
                                         self.hole_mark)
        self.petrify = walls.codes
        self.petrify_royal = walls.royal
        # Walls put as part of every move (`walls:`), None for none.
        self.walling = walls_rule.compile_walls(sink, data.get("walls"), board, self.hole_mark)
        self.aimed_by = aims.compile_aims(sink, declared, pieces)
        self.aims = any(self.aimed_by)
        codes.check_in_check(sink, declared, compiled, self.one_royal, bool(self.blast))
        # The rules beyond one royal piece per side and plain captures,
        # played by the general position (variantkit.core.general).
        self.general_rules = bool(
            not self.one_royal or self.must_capture or not self.may_give_check
            or self.blast or self.end.conditions
            or self.flips is not None or self.pass_when_stuck or self.end.board_full
            or self.end.counting or self.aims or self.petrify or self.walling)

        first = first_moves.compile_first_move(sink, data.get("first-move"), board)
        self.first_move_rule = first.rule
        self.same_plane = first.same_plane
        self.first_move_castling = first.castling
        self.first_move_evasion = first.evasion
        # Pieces whose moves are read a word at a time (`codes.word_moves`);
        # not under the first-move rule, whose targets that path leaves alone.
        self.word_moves = codes.word_moves(compiled, board.size) \
            if self.wide and board.size <= 2 * SHORT_BITS and not self.first_move_rule else []
        written = data.get("position-string", {})
        self.moved_field = bool(written.get("moved-field", False))
        self.initial_rights = first_moves.compile_initial_rights(
            sink, written.get("initial-rights", []), board, pieces)
        self.gate_regions = gating.compile_gating(sink, data.get("gating"), board,
                                                  "hands" in data)
        # Pieces whose "not moved yet" status tells positions apart for
        # repetition: those with initial moves, or all under a first-move
        # rule, which constrains every piece's first move.
        self.unmoved_codes = list(range(2, self.n_codes)) if self.first_move_rule \
            else compiled.unmoved_codes

        hashing = keys.compile_keys(self.n_codes, board.size, self.end.check_limit,
                                    self.has_hands)
        self.zobrist = hashing.zobrist
        self.turn_key = hashing.turn_key
        self.right_keys = hashing.right_keys
        self.unmoved_keys = hashing.unmoved_keys
        self.ep_keys = hashing.ep_keys
        self.wall_keys = hashing.wall_keys
        self.check_keys = hashing.check_keys
        self.hand_keys = hashing.hand_keys

        # The whole start position is read only when the rest is sound, so
        # that one mistake is not reported again as a bad setup.
        if not any(p.severity == "error" for p in self.problems):
            try:
                self.new_game()
            except InvalidFenError as exc:
                sink.report(*self._setup_problem(exc), "bad-setup")
        if "numbered-setups" in data and not any(p.severity == "error" for p in self.problems):
            try:
                self.numbered_setup(0)
            except (ValueError, KeyError, DeclarationError) as exc:
                message = exc.message if isinstance(exc, DeclarationError) else \
                    f"unknown piece {exc}" if isinstance(exc, KeyError) else str(exc)
                sink.report(("numbered-setups",), f"numbered-setups: {message}",
                         "bad-numbered-setups")
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
        return codes.empty_board_reach(self.generators, code, cell, initial)

    def _setup_problem(self, exc: InvalidFenError) -> tuple[YamlPath, str]:
        """Where a start position that does not read is reported, and how:
        at `setup`, unless its castling field is at fault, the setup is
        inherited and this file declares `castling:` itself (the file's own
        castlings do not fit the parent's field: `KQkq` left for a White-only
        `castling:`)."""
        document = self.document
        if isinstance(exc, CastlingFieldError) and not document.written_here(("setup",)) \
                and document.written_here(("castling",)):
            parent = Path(document.locate(("setup",))[0] or "").name
            return ("castling",), (f"castling does not fit the setup inherited from {parent} "
                                   f"({quote(self.setup_fen)}): {exc}")
        return ("setup",), f"setup: {exc}"

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
        return roster.letter_of(self.pieces, code)

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
