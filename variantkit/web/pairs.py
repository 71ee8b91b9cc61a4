"""What the playground computes for a game on two boards (bughouse, koedem,
supply: `variantkit.pair`).

The page holds a pair's start (a pair's position string, `A | B`) and its
moves, each written with its board (`A:e2e4`, `B:P@e5`), as it holds one
board's; `PairReplays` rebuilds the pair from them for each request (from
the last pair replayed, when the moves go on from its).  Both boards
run at once, so each has its own side to move and its own legal moves, and
one person may play all four seats.  Cells, pieces in hand and moves are
named with their board (`A:e2`, `B:p`), since both boards have the same
cell names.  A bad position string or move is an `InvalidFenError` or an
`IllegalMoveError` naming its board; anything else malformed a
`RequestError`.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from variantkit.errors import quote
from variantkit.game import Game, Move
from variantkit.pair import BOARDS, BoardMarks, Pair
from variantkit.public_types import SIDES
from variantkit.variant import Variant
from variantkit.web.sources import RequestError

Answer = dict[str, Any]


@dataclass
class PairReplay:
    """A pair after some moves: each move's label and text (`1A. e4`) in
    the notation `style`, and its move string with its board (`A:e2e4`)."""

    pair: Pair
    style: str
    texts: list[str] = field(default_factory=list)
    played: list[str] = field(default_factory=list)

    def copy(self) -> PairReplay:
        return PairReplay(self.pair.copy(), self.style, list(self.texts), list(self.played))


class PairReplays:
    """The last pairs replayed, so that a request that adds a move to one of
    them (the common case: a click) replays only that move."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._pairs: OrderedDict[tuple[Any, ...], PairReplay] = OrderedDict()

    def replay(self, key: tuple[Any, ...], variant: Variant, start: str | None,
               moves: list[str], ply: int, style: str) -> PairReplay:
        """The pair after `moves` (SAN or move strings, each after its
        board), written in `style`, then taken back to its first `ply`
        moves; `key` names the variant's source."""
        key = (key, start, style)
        cached = self._pairs.get(key)
        if cached is not None and cached.played == moves[:len(cached.played)]:
            done = cached.copy()
        else:
            done = PairReplay(Pair(variant, start), style)
        pair = done.pair
        for text in moves[len(done.played):]:
            board, move = pair.parse_text(text)
            game = pair.game(board)
            letter = board if game.position.stm == 0 else board.lower()
            done.texts.append(f"{game.position.fullmove}{letter}. {game.san(move, style)}")
            done.played.append(f"{board}:{move}")
            pair.push(board, move)
        self._pairs[key] = done.copy()
        self._pairs.move_to_end(key)
        if len(self._pairs) > self._size:
            self._pairs.popitem(last=False)
        for _ in range(len(moves) - ply):
            pair.pop()
        return done


def on_board(text: str, what: str) -> tuple[str, str]:
    """A cell or a piece in hand named with its board (`A:e2`, `B:p`)."""
    board, colon, name = text.partition(":")
    if not colon or board not in BOARDS or not name:
        raise RequestError(f"{what} on a pair is named with its board (A:e2, B:p), "
                           f"not {quote(text)}")
    return board, name


def _named(board: str, name: str | None) -> str | None:
    """A cell or piece letter named with its board: `A:e2`."""
    return None if name is None else f"{board}:{name}"


def clicked_cell(move: Move) -> str:
    """The cell a click plays `move` on: its landing cell, or the victim's
    for a capture without moving (an igui, a remote capture: `via`)."""
    return move.via if move.via and move.to_cell == move.from_cell else move.to_cell


def kind_of(game: Game, move: Move) -> str:
    """`suborn`, `capture` (the opponent loses a piece, en passant included)
    or `move`, as a board marks a target (one board's as a pair's)."""
    if move.suborn:
        return "suborn"
    them = 1 - game.position.stm
    before = game.position.side_bb[them].bit_count()
    game.push(move)
    after = game.position.side_bb[them].bit_count()
    game.pop()
    return "capture" if after < before else "move"


def marks(pair: Pair, select: str | None, drop: str | None) -> dict[str, BoardMarks]:
    """The marks of the selected piece (`A:e2`: its cell and targets) or the
    selected piece in hand (`B:p`: it and its legal drops)."""
    if select is not None:
        board, cell = on_board(select, "a cell")
        game = pair.game(board)
        if cell not in game.variant.board.index:
            raise RequestError(f"unknown cell {quote(cell)} on board {board}")
        targets: dict[str, str] = {}
        for move in pair.legal_moves(board):
            if move.from_cell == cell and move.drop is None:
                targets[clicked_cell(move)] = kind_of(game, move)
        return {board: {"highlight": [cell], "targets": targets}}
    if drop is not None:
        board, letter = on_board(drop, "a piece in hand")
        game = pair.game(board)
        side = SIDES[0] if letter.isupper() else SIDES[1]
        if not game.hand(side).get(letter):
            raise RequestError(f"no {quote(letter)} in hand on board {board}")
        cells = [m.to_cell for m in pair.legal_moves(board)
                 if m.drop == letter.upper() and game.turn == side]
        return {board: {"hand_highlight": letter, "targets": dict.fromkeys(cells, "drop")}}
    return {}


def status(pair: Pair) -> str:
    """How the game ended, or each board's side to move (and check)."""
    ended = pair.outcome()
    if ended is not None:
        text = str(ended)
    else:
        text = "; ".join(f"board {board}: {game.turn} to move"
                         + (", in check" if game.is_check() else "")
                         for board, game in zip(BOARDS, pair.games, strict=True))
    return text[0].upper() + text[1:]


def position(done: PairReplay, notations: list[str], select: str | None,
             drop: str | None, flip: bool, pieces: str) -> Answer:
    """The playground's answer for a pair (as `tasks.position` answers for
    one board): both boards drawn side by side, board B turned, with the
    selection's marks; each board's legal moves, turn and hands; the pair's
    position string, status and move list."""
    pair = done.pair
    variant = pair.variant
    svg = pair.svg(flip=flip, pieces=pieces, marks=marks(pair, select, drop))
    # Cells and the piece dropped are named with their board, as the page
    # names what is clicked; every drop is of a piece picked from a hand.
    legal = [{"board": board, "move": f"{board}:{m}", "from": _named(board, m.from_cell),
              "to": _named(board, clicked_cell(m)), "promotion": m.promotion, "suborn": m.suborn,
              "drop": _named(board, m.drop), "wall": _named(board, m.wall),
              "from_hand": m.drop is not None}
             for board in BOARDS for m in pair.legal_moves(board)]
    return {
        "ok": True, "name": variant.name, "pair": True, "svg": svg,
        "fen": pair.fen(), "status": status(pair),
        "piece_sets": bool(variant.rules.look.characters),
        "turns": {board: pair.game(board).turn for board in BOARDS},
        "turn": pair.game("A").turn, "over": pair.outcome() is not None,
        "moves": done.texts, "notation": done.style, "notations": notations,
        "played": done.played, "legal": legal,
        "hands": {board: {side: pair.game(board).hand(side) for side in SIDES}
                  for board in BOARDS},
        "pieces": {t.letter.lower(): t.name for t in variant.pieces.types},
    }
