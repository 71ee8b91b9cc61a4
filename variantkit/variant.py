"""The public face of a variant: a loaded declaration, its compiled rules,
the problems found, and games to play.

`Variant` hands the declaration to the rule compilation (`variantkit.rules`,
which calls each rule family of `variantkit.rulebook` in turn) and keeps the
`Rules` record it returns as `variant.rules`; then, the rest being sound, it
reads the whole start position and the numbered setups as games would, and
runs the whole-file checks (`variantkit.lint`).  It comes after the game
stage: `new_game()` gives a `Game`.  Nothing sets a `Variant`'s attributes
once it is built.
"""

from __future__ import annotations

from pathlib import Path

from variantkit.board import Board
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
from variantkit.lint import run_checks
from variantkit.loader import Document, load_document, load_document_text
from variantkit.notation.fen import placement, read_fen
from variantkit.pieces import PieceSet
from variantkit.rulebook.setup import numbered_placement
from variantkit.rulebook.sink import Sink
from variantkit.rules import Rules, compile_rules


class Variant:
    """A compiled variant: its declaration, rules and problems, and its games."""

    def __init__(self, document: Document, budget: Budget | None = None) -> None:
        self.document = document
        sink = Sink(document)
        self.problems: list[Problem] = sink.problems
        self.rules: Rules = compile_rules(document, sink, budget)
        # The whole start position is read only when the rest is sound, so
        # that one mistake is not reported again as a bad setup.
        if not any(p.severity == "error" for p in self.problems):
            try:
                self.new_game()
            except InvalidFenError as exc:
                sink.report(*self._setup_problem(exc), "bad-setup")
        if self.rules.setup.numbered is not None \
                and not any(p.severity == "error" for p in self.problems):
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

    # -- from the file -------------------------------------------------------
    @property
    def name(self) -> str:
        """The variant's name."""
        return self.rules.name

    @property
    def description(self) -> str:
        """The variant's description, "" for none."""
        description: str = self.document.data.get("description", "")
        return description

    @property
    def board(self) -> Board:
        """The compiled board."""
        return self.rules.board

    @property
    def pieces(self) -> PieceSet:
        """The compiled pieces."""
        return self.rules.pieces

    @property
    def setup_fen(self) -> str:
        """The start position string, as declared."""
        return self.rules.setup.fen

    # -- games ------------------------------------------------------------------
    def new_game(self, fen: object = None) -> Game:
        """A game from the start position, or from a position string (a `str`;
        the parameter takes any value so that a wrong one, too, is answered
        with InvalidFenError)."""
        return Game(self, read_fen(self.rules, fen if fen is not None else self.setup_fen))

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
        setups (`numbered-setups`, see `rulebook.setup.numbered_placement`);
        raises ValueError when there is none."""
        rules = self.rules
        placed = numbered_placement(rules.setup, rules.board, rules.pieces, rules.letter_codes,
                                    rules.name, number)
        shuffled = empty_position(rules)
        for cell, code in placed.items():
            shuffled.place(cell, code)
        return self.new_game(" ".join([placement(shuffled), *self.setup_fen.split()[1:]])).fen()

    # -- piece letters ---------------------------------------------------------
    def letter_of_code(self, code: int) -> str:
        """The FEN letter of a piece code (uppercase for White)."""
        return self.rules.letter_of_code(code)

    def code_of_letter(self, letter: str) -> int | None:
        """The piece code of a FEN letter, or None."""
        return self.rules.code_of_letter(letter)

    def promotion_suffix(self, code: int, mover: int = 0) -> str:
        """How a promotion to this piece ends a move string (see
        `Rules.promotion_suffix`)."""
        return self.rules.promotion_suffix(code, mover)

    def empty_board_reach(self, code: int, cell: int, initial: bool = True) -> int:
        """Cells a piece (by code) reaches from `cell` with nothing else on
        the board (see `Rules.empty_board_reach`)."""
        return self.rules.empty_board_reach(code, cell, initial)

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
