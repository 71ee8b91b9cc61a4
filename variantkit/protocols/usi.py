"""USI, the shogi protocol, as a dialect of the UCI session: its moves
(`7g7f`, `P*5e`, `8h2b+`) and SFEN positions turned into variantkit's
cells (`c3`) and position strings and back.  Files count from the right,
ranks are letters from the top; the side USI calls black (sente, moving
first, uppercase) is variantkit's White.  Any variant on a grid of at
most 26 files and ranks has this notation.

A move is written as variantkit writes it with each cell in USI's form,
as Fairy-Stockfish writes its USI moves: what follows the cells stays
(`+` promotes, `-` turns a piece back to its other face as in kyoto
shogi, a letter names a promotion or a gated piece: `1d1a-`, `2b2aq`),
a drop is `P*5e` (`+P*5e` drops the promoted face), and a move that also
puts a wall or a duck keeps variantkit's comma part, its landing cell and
the wall's cell: `7h6f,6f5f`.  Every legal move reads back as itself."""

from __future__ import annotations

import functools
import re
import string
from typing import TYPE_CHECKING

from variantkit.protocols.uci import Dialect
from variantkit.public_types import Move

if TYPE_CHECKING:
    from variantkit.game import Game, VariantFace

CELL = re.compile(r"([a-z])(\d+)")
USI_CELL = re.compile(r"(\d+)([a-z])")
# A drop (`P*5e`, `+P*5e`), or the cells left and reached (with `~` between
# them for a suborn), what follows them, and a wall's comma part.
USI_MOVE = re.compile(r"(?:(\+?[A-Z]~?)\*|(\d+[a-z])(~|<->)?)(\d+[a-z])([a-z+-]{0,2})"
                      r"(?:,(\d+[a-z])(\d+[a-z]))?")


@functools.lru_cache(maxsize=16)
def grid_size(variant: VariantFace) -> tuple[int, int] | None:
    """(files, ranks) of a board whose cells are all named file letter and
    rank number, else None (kept for the variants used last: each move
    written or read asks)."""
    files = ranks = 0
    for name in variant.board.names:
        match = CELL.fullmatch(name)
        if match is None:
            return None
        files = max(files, ord(match[1]) - ord("a") + 1)
        ranks = max(ranks, int(match[2]))
    return (files, ranks) if ranks <= 26 else None


class UsiDialect(Dialect):
    hello, ok, new_game, name = "usi", "usiok", "usinewgame", "USI"
    no_move = "resign"
    position_word = "sfen"
    # USI's black (sente) moves first: variantkit's White.
    clock_words = {"wtime": "btime", "btime": "wtime", "winc": "binc", "binc": "winc"}
    # `go mate T|infinite` asks for a mate within T milliseconds, answered
    # `checkmate MOVES`, `checkmate timeout` or `checkmate nomate`.
    checkmate_search = True

    default_variant = "shogi"
    chess960 = False
    hash_option = "USI_Hash"

    def supports(self, variant: VariantFace) -> bool:
        return grid_size(variant) is not None

    def cell_out(self, variant: VariantFace, cell: str) -> str:
        files, ranks = grid_size(variant) or (0, 0)
        match = CELL.fullmatch(cell)
        assert match is not None  # supports() holds for the session's variant
        rank = string.ascii_lowercase[ranks - int(match[2])]
        return f"{files - (ord(match[1]) - ord('a'))}{rank}"

    def cell_in(self, variant: VariantFace, text: str) -> str:
        files, ranks = grid_size(variant) or (0, 0)
        match = USI_CELL.fullmatch(text)
        if match is None or not 1 <= int(match[1]) <= files \
                or not 0 <= ord(match[2]) - ord("a") < ranks:
            raise ValueError(f"no cell {text}")
        return f"{chr(ord('a') + files - int(match[1]))}{ranks - (ord(match[2]) - ord('a'))}"

    def move_out(self, variant: VariantFace, move: Move) -> str:
        to = self.cell_out(variant, move.to_cell)
        if move.drop:
            return f"{move.drop}*{to}"
        if move.via:   # a two-step capture, its two steps as the wall's form writes them
            via = self.cell_out(variant, move.via)
            return f"{self.cell_out(variant, move.from_cell)}{via},{via}{to}"
        # A suborn's `~` and a swap's `<->` stand between the cells, as in move strings.
        mark = "~" if move.suborn else "<->" if move.swap else ""
        text = (f"{self.cell_out(variant, move.from_cell)}{mark}{to}"
                f"{move.promotion or ''}{move.gate.lower() if move.gate else ''}")
        return f"{text},{to}{self.cell_out(variant, move.wall)}" if move.wall else text

    def move_in(self, variant: VariantFace, text: str) -> str:
        """The variantkit move string a USI move stands for (unchecked: the
        game judges it); ValueError for a text that is no USI move."""
        match = USI_MOVE.fullmatch(text)
        if match is None:
            raise ValueError(f"not a USI move: {text[:40]}")
        drop, origin, suborn, to, rest, landing, wall = match.groups()
        to = self.cell_in(variant, to)
        if drop:
            return f"{drop}@{to}"
        moved = f"{self.cell_in(variant, origin)}{suborn or ''}{to}{rest}"
        if landing is None:
            return moved
        return f"{moved},{self.cell_in(variant, landing)}{self.cell_in(variant, wall)}"

    def game_from(self, variant: VariantFace, text: str) -> Game:
        return variant.new_game(sfen_to_fen(text, variant.rules.hands.has_hands))

    def position_out(self, game: Game) -> str:
        return fen_to_sfen(game.fen(), game.plies + 1)


def sfen_to_fen(sfen: str, hands: bool = True) -> str:
    """`board b|w hand ply` as a position string: the hand in brackets
    (none for a variant without `hands`, whose hand must be `-`)."""
    parts = sfen.split()
    if len(parts) < 3 or parts[1] not in ("b", "w"):
        raise ValueError(f"not an SFEN: {sfen[:80]}")
    board, side, hand = parts[:3]
    pieces = ""
    count = ""
    for char in "" if hand == "-" else hand:
        if char in string.digits:
            count += char
        elif char in string.ascii_letters:
            pieces += char * min(int(count[:3] or "1"), 99)
            count = ""
        else:
            raise ValueError(f"bad hand in SFEN: {hand[:40]}")
    if pieces and not hands:
        raise ValueError(f"pieces in hand in an SFEN of a game without hands: {hand[:40]}")
    held = f"[{pieces}]" if hands else ""
    return f"{board}{held} {'w' if side == 'b' else 'b'} - - 0 1"


def fen_to_sfen(fen: str, ply: int) -> str:
    """A position string as an SFEN at move number `ply`."""
    board, side = fen.split()[:2]
    hand = ""
    if "[" in board:
        board, _, inside = board.partition("[")
        inside = inside.rstrip("]")
        for letter in dict.fromkeys(inside):
            count = inside.count(letter)
            hand += f"{count if count > 1 else ''}{letter}"
    return f"{board} {'b' if side == 'w' else 'w'} {hand or '-'} {ply}"
