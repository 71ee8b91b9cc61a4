"""USI, the shogi protocol, as a dialect of the UCI session: its moves
(`7g7f`, `P*5e`, `8h2b+`) and SFEN positions turned into variantkit's
cells (`c3`) and position strings and back.  Files count from the right,
ranks are letters from the top; the side USI calls black (sente, moving
first, uppercase) is variantkit's White.  Any variant on a grid of at
most 26 files and ranks has this notation."""

from __future__ import annotations

import re
import string

import variantkit
from variantkit.game import VariantFace
from variantkit.protocols.uci import Dialect
from variantkit.values import Move

CELL = re.compile(r"([a-z])(\d+)")
USI_CELL = re.compile(r"(\d+)([a-z])")
USI_MOVE = re.compile(r"(?:([A-Z])\*|(\d+[a-z]))(\d+[a-z])(\+?)")


def grid_size(variant: VariantFace) -> tuple[int, int] | None:
    """(files, ranks) of a board whose cells are all named file letter and
    rank number, else None."""
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

    default_variant = "shogi"

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
        return f"{self.cell_out(variant, move.from_cell)}{to}{move.promotion or ''}"

    def move_in(self, variant: VariantFace, text: str) -> str:
        match = USI_MOVE.fullmatch(text)
        if match is None:
            raise ValueError(f"not a USI move: {text}")
        to = self.cell_in(variant, match[3])
        if match[1]:
            return f"{match[1]}@{to}"
        return f"{self.cell_in(variant, match[2])}{to}{match[4]}"

    def game_from(self, variant: VariantFace, text: str) -> variantkit.Game:
        return variant.new_game(sfen_to_fen(text))

    def position_out(self, game: variantkit.Game) -> str:
        return fen_to_sfen(game.fen(), game.plies + 1)


def sfen_to_fen(sfen: str) -> str:
    """`board b|w hand ply` as a position string: the hand in brackets."""
    parts = sfen.split()
    if len(parts) < 3 or parts[1] not in ("b", "w"):
        raise ValueError(f"not an SFEN: {sfen[:80]}")
    board, side, hand = parts[:3]
    pieces = ""
    count = ""
    for char in "" if hand == "-" else hand:
        if char.isdigit():
            count += char
        elif char.isalpha():
            pieces += char * min(int(count or "1"), 99)
            count = ""
        else:
            raise ValueError(f"bad hand in SFEN: {hand[:40]}")
    return f"{board}[{pieces}] {'w' if side == 'b' else 'b'} - - 0 1"


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
