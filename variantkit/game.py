"""The public game: the face people play through.

A `Game` wraps one core position (`variantkit.core`) and speaks in strings:
moves as `Move` values or move strings, SAN, position strings, the outcome,
drawings, with a clear error for every bad input.  The engine, the rules
and the notation work on the core position (`game.position`) directly.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Protocol, overload

from variantkit.core.general import empty_position
from variantkit.core.moves import InternalMove
from variantkit.core.position import Position
from variantkit.errors import QUOTE_LENGTH, IllegalMoveError
from variantkit.limits import MAX_PERFT_DEPTH
from variantkit.notation.fen import explain_bad_move, without_empty_wall, write_fen
from variantkit.notation.san import legal_san, parse_san, san
from variantkit.outcome import outcome
from variantkit.public_types import SIDES, Move, Outcome

if TYPE_CHECKING:
    from variantkit.board import Board
    from variantkit.loader import Document
    from variantkit.rules import Rules

__all__ = ["Game", "LegalMoves", "Move", "Outcome", "VariantFace", "perft"]


class VariantFace(Protocol):
    """The variant a game is played under, as the game stage knows it: a
    `Variant` (variantkit.variant, the stage after this one, which makes
    games), with its declaration, compiled rules and start position."""

    @property
    def document(self) -> Document: ...

    @property
    def rules(self) -> Rules: ...

    @property
    def name(self) -> str: ...

    @property
    def board(self) -> Board: ...

    @property
    def setup_fen(self) -> str: ...

    def new_game(self, fen: object = None) -> Game: ...

    def __hash__(self) -> int: ...  # (faces cache what they derive from a variant)


class LegalMoves:
    """A live view of a game's legal moves (see `Game.legal_moves`)."""

    __slots__ = ("_position",)

    def __init__(self, position: Position) -> None:
        self._position = position

    def __call__(self) -> list[Move]:
        """The legal moves as a list (the call form of earlier versions)."""
        position = self._position
        return [position.public_move(m) for m in position.legal_internal()]

    def __iter__(self) -> Iterator[Move]:
        return iter(self())

    def __len__(self) -> int:
        return self._position.count_legal()

    def count(self) -> int:
        """How many legal moves there are."""
        return len(self)

    def __bool__(self) -> bool:
        return bool(self._position.legal_internal())

    def __contains__(self, move: object) -> bool:
        """Whether a `Move` or a move string is legal here."""
        if isinstance(move, Move) and move.promotion:
            move = replace(move, promotion=move.promotion.lower())
        if not isinstance(move, Move | str):
            return False
        return str(move) in {str(m) for m in self()}

    def __repr__(self) -> str:
        """`<LegalMoves (Na3, Nc3, ...)>`: the moves in SAN, as python-chess shows them."""
        return f"<LegalMoves ({', '.join(legal_san(self._position))})>"


class Game:
    """A game of a variant: its position with the moves played, and the
    public API.  `Game(variant)` is the variant's empty board (pieces are
    then placed through `game.position`), `Game(variant, position)` a game
    on a core position of its rules; `variant.new_game()` gives the
    start position."""

    __slots__ = ("position", "variant")

    def __init__(self, variant: VariantFace, position: Position | None = None) -> None:
        # The variant this game is played under.
        self.variant = variant
        # The core position the moves are played on, read by the rules,
        # the notation, the engine and the faces.
        self.position: Position = empty_position(variant.rules) if position is None else position

    @property
    def turn(self) -> str:
        """The side to move: 'white' or 'black'."""
        return SIDES[self.position.stm]

    @property
    def legal_moves(self) -> LegalMoves:
        """The legal moves in this position, as python-chess's
        `board.legal_moves`: iterate it, `len()` or `count()` it, test
        `move in game.legal_moves`; calling it (`game.legal_moves()`) gives a list."""
        return LegalMoves(self.position)

    @overload
    def push(self, move: Move) -> Move: ...
    @overload
    def push(self, move: str) -> Move: ...

    def push(self, move: object) -> Move:
        """Play a legal move, given as a `Move` or a move string."""
        position = self.position
        internal = _find(position, move)
        public = position.public_move(internal)
        position.make_internal(internal)
        return public

    @overload
    def san(self, move: Move, style: str | None = None) -> str: ...
    @overload
    def san(self, move: str, style: str | None = None) -> str: ...

    def san(self, move: object, style: str | None = None) -> str:
        """A legal move written in the variant's own style, standard
        algebraic notation unless its file declares another (`Nf3`, `exd5`,
        `O-O`, `e8=Q+`, `D~g2`; shogi's `P-76`), or in `style` (`'usi'`,
        `'wxf'`, ...); see `variantkit.notation.san`."""
        return san(self.position, move, style)

    def parse_san(self, text: object) -> Move:
        """The legal move that SAN or a move string (a `str`) names; raises
        `IllegalMoveError`, for a value that is not a string too."""
        return parse_san(self.position, text)

    def push_san(self, text: object) -> Move:
        """Play a move given in SAN (or as a move string, a `str`); returns the `Move`."""
        move = self.parse_san(text)
        self.push(move)
        return move

    def pop(self) -> Move:
        """Take back the last move and return it."""
        position = self.position
        if not position.history:
            raise IndexError("pop from a game with no moves played")
        internal = position.history[-1][0]
        position.unmake_internal()
        return position.public_move(internal)

    @property
    def plies(self) -> int:
        """How many moves have been played (and can be taken back)."""
        return len(self.position.history)

    @property
    def move_stack(self) -> list[Move]:
        """The moves played, oldest first."""
        position = self.position
        return [position.public_move(record[0], record[1]) for record in position.history]

    def is_check(self) -> bool:
        """Whether the side to move's royal piece is attacked."""
        return self.position.is_check()

    def checked_cell(self) -> str | None:
        """The cell of the side to move's royal piece when it is in check."""
        return self.position.checked_cell()

    def is_checkmate(self) -> bool:
        """Whether the side to move is in check and has no legal move."""
        return self.position.is_checkmate()

    def is_stalemate(self) -> bool:
        """Whether the side to move is not in check and has no legal move
        (what that means for the result is the variant's `end.stalemate`)."""
        return self.position.is_stalemate()

    def is_game_over(self) -> bool:
        """Whether the game has ended: `outcome()` is not None."""
        return self.outcome() is not None

    def piece_at(self, cell: str) -> str | None:
        """The FEN letter on a cell (uppercase White), or None."""
        rules = self.position.rules
        index = rules.board.index.get(cell)
        if index is None:
            raise ValueError(f"unknown cell '{cell}'")
        code = self.position.cells[index]
        return rules.letter_of_code(code) if code else None

    def hand(self, side: str) -> dict[str, int]:
        """The letters and counts of the pieces in a side's hand ('white' or
        'black'): uppercase letters for White, lowercase for Black."""
        return self.position.hand(side)

    def fen(self, style: str = "fairy-stockfish") -> str:
        """The position string, as Fairy-Stockfish writes it, or as lichess
        does (`style="lichess"`: the pocket as an extra rank, the checks
        given after the clocks) or with castling rights by the rooks' files
        (`style="shredder"`); every style reads back."""
        return write_fen(self.position, style)

    def svg(self, **options: Any) -> str:
        """The position drawn as an SVG document (options: see `variantkit.drawing.svg.render`)."""
        # The drawings are imported when first asked for: a game, and the
        # variant that makes it, load no drawing or terminal module.
        from variantkit.drawing.svg import render
        return render(self.position, **options)

    def outcome(self) -> Outcome | None:
        """None while the game goes on, else the winner and the reason."""
        return outcome(self.position)

    def copy(self) -> Game:
        """An independent game in the same position, history included."""
        return Game(self.variant, self.position.copy())

    def __repr__(self) -> str:
        return f"<Game {self.position.rules.name} {self.fen()!r}>"

    def __str__(self) -> str:
        """The board as text, as `variantkit show` draws it (without the status lines)."""
        from variantkit.drawing.terminal import board_renderable  # as `svg` imports its drawing
        return board_renderable(self.position, status=False).plain.rstrip("\n")

    def _repr_svg_(self) -> str:
        """The board in a notebook (Jupyter calls this)."""
        return self.svg()

    def _repr_html_(self) -> str:
        """The board in a notebook, with the side to move, check or the
        result, and the position string under it."""
        from html import escape

        from variantkit.drawing.terminal import status_line  # as `svg` imports its drawing
        return (f'<div class="variantkit">{self.svg()}<pre>'
                f"{escape(status_line(self.position))}</pre></div>")


def _find(position: Position, move: object) -> InternalMove:
    """The legal internal move that a `Move` or a move string names; an
    `IllegalMoveError` that says why for anything else."""
    if not (isinstance(move, str) or _well_formed(move)):
        raise IllegalMoveError(
            f"a move is a Move(from_cell, to_cell, promotion=None or one letter, "
            f"suborn=False, drop=None or a letter, gate=None or a letter, wall=None or a "
            f"cell, swap=False) or a move "
            f"string, "
            f"not {repr(move)[:QUOTE_LENGTH]}")
    text = str(move)
    if isinstance(move, Move) and move.promotion:  # `Q` and `q` name one piece
        text = str(replace(move, promotion=move.promotion.lower()))
    letter, at, cell = text.partition("@")
    if at:  # a drop names its piece in upper case for both sides; `p@e5` is read too
        text = f"{letter.upper()}@{cell}"
    legal = position.legal_internal()
    walling = position.rules.walls
    if walling is not None and walling.or_move:
        text = without_empty_wall(position, text)
    for m in legal:
        if str(position.public_move(m)) == text:
            return m
    raise IllegalMoveError(explain_bad_move(position, text, legal))


def _well_formed(move: object) -> bool:
    """Whether `move` is a `Move` whose fields have the documented types (a
    dataclass does not check them)."""
    return isinstance(move, Move) and isinstance(move.from_cell, str) \
        and isinstance(move.to_cell, str) and isinstance(move.suborn, bool) \
        and isinstance(move.swap, bool) \
        and (move.promotion is None
             or (isinstance(move.promotion, str) and len(move.promotion) == 1)) \
        and (move.drop is None or isinstance(move.drop, str)) \
        and (move.gate is None or isinstance(move.gate, str)) \
        and (move.wall is None or isinstance(move.wall, str))


def perft(game: Game, depth: int) -> int:
    """The number of legal move sequences of `depth` plies from the position
    (1 at depth 0); where a turn has several moves (`turns:`), of `depth`
    whole turns (`count_turns`).  A depth that is not an int raises TypeError; one below 0
    or above `limits.MAX_PERFT_DEPTH` raises ValueError.  The game is left in
    its position even when the count is interrupted (Ctrl-C)."""
    if not isinstance(depth, int) or isinstance(depth, bool):
        raise TypeError(f"perft depth must be an int, not {type(depth).__name__}")
    if not 0 <= depth <= MAX_PERFT_DEPTH:
        raise ValueError(f"perft depth must be 0 to {MAX_PERFT_DEPTH}, not {depth}")
    if depth == 0:
        return 1
    if game.position.rules.turns.any:
        return count_turns(game.position, depth)
    return _count_sequences(game.position, depth)


def depth_below(game: Game, moves: tuple[str, ...], depth: int) -> int:
    """The perft depth left below `moves` played from `game`'s position: a
    ply less for each move, or where a turn has several moves (`turns:`), a
    turn less for each move that ends its turn.  The game is left as it was."""
    turns = game.position.rules.turns.any
    left = depth
    played = 0
    try:
        for move in moves:
            side = game.turn
            game.push(move)
            played += 1
            left -= 1 if not turns or game.turn != side else 0
    finally:
        for _ in range(played):
            game.pop()
    return left


def count_turns(position: Position, depth: int) -> int:
    """Perft where a turn has several moves (`turns:`): the sequences of
    `depth` whole turns, the turn under way counted as the first.  A turn
    cut short because its side has no further legal move (the game ends)
    counts as a whole turn."""
    if depth == 0:
        return 1
    side = position.stm
    moves = position.legal_internal()
    if not moves:
        return 1 if position.turn_played() and depth == 1 else 0
    nodes = 0
    for move in moves:
        position.make_internal(move)
        try:
            nodes += count_turns(position, depth - (position.stm != side))
        finally:
            position.unmake_internal()
    return nodes


def _count_sequences(position: Position, depth: int) -> int:
    if depth <= 2:   # the last plies in one call, compiled in the compiled build
        return position.count_legal() if depth == 1 else position.count_legal_pairs()
    moves = position.legal_internal()
    nodes = 0
    for move in moves:
        position.make_internal(move)
        try:
            nodes += _count_sequences(position, depth - 1)
        finally:
            position.unmake_internal()
    return nodes
