"""Fairy-Stockfish (pyffish) as the oracle for every bundled variant it knows.

A bundled variant named as one of Fairy-Stockfish's built-in variants must
behave exactly as Fairy-Stockfish does.  `Oracle` compares one variant:

- `compare(game, sf_fen)`: one position -- the legal move sets (move strings
  unchanged), check, every position-string field, and that the position
  string Fairy-Stockfish writes reads back into the same position here;
- `walk(depth)`: the perft tree from the start, move sets compared at every
  node (the two trees are walked side by side: one pyffish call per node for
  its moves and one per edge for the child's position string, never a replay
  of the whole move list);
- `random_games(...)`: seeded random games, every position compared, and the
  game result compared wherever either side says the game is over.

Drops need nothing of their own: a drop is a move string as pyffish writes
it (`P@e4`), and the hands are part of the placement field (`[Pp]`), so
both are compared with the rest.

Allowances, each because the two write the same position differently:
- the en passant field: pyffish writes a cell whenever a pawn could capture
  there ignoring pins (for pawns defined in Betza, always, followed by the
  cell of the pawn that passed: `e3e4`), variantkit only when the capture is
  legal; an en passant cell written by variantkit must be one of pyffish's;
- an empty castling field: re-reading its own string, pyffish may hold a
  gating right it cannot write (Seirawan chess: the king's, once both
  castling rights are gone) and then writes the field empty (`b  - 0 33`);
  it writes `-` for the same position reached from the start, and so does
  variantkit (`after` reads such a field as `-`).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field

import pyffish

import variantkit
from variantkit import Game, Move, Outcome

FSF_NAMES = frozenset(pyffish.variants())
FEN_FIELDS = ("placement", "side", "castling", "en passant", "half-moves", "move number")


# Variants whose depth-3 tree costs more than a few seconds through pyffish
# (wide boards, trees over ten thousand leaves): `make test` walks them to 2.
SHALLOW = frozenset({
    "almost", "amazon", "berolina", "capablanca", "centaur", "chancellor", "embassy",
    "georgian", "gothic", "grand", "janus", "modern", "newzealand", "nightrider",
    "opulent", "pawnsideways", "perfect", "tencubed",
    # Hoppers and palaces: their depth-3 trees run under `make oracle`
    # (supply: xiangqi with drops, 85,000 leaves at depth 3).
    "xiangqi", "supply", "manchu", "janggicasual", "janggitraditional", "shako", "grasshopper",
    "janggi", "janggimodern",
    # Omega chess on 12x10: 29,540 leaves at depth 3.
    "omicron",
    # Drops from the start: 88,617 and 25,228 leaves at depth 3.
    "pocketknight", "capahouse",
    # Drops from full hands: S-house's depth-3 tree has 546,694 leaves,
    # placement's 50,560 (their random games reach the play after the drops).
    "shouse", "placement",
    # Sittuyin's drops into its three ranks: 580,096 leaves at depth 3.
    "sittuyin",
    # Shogi's wide trees (drops from the second move on): 15,000 to 48,000
    # leaves at depth 3, eight to twenty seconds each.
    "shogi", "checkshogi", "shoshogi", "euroshogi", "okisakishogi",
    # Clobber's captures fan out: 80,063 leaves at depth 3 (clobber10: 31,252
    # at depth 2 already); breakthrough's 16 pieces a side: 11,132.
    "clobber", "clobber10", "breakthrough",
    # Jeson mor's eighteen knights: 900 leaves at depth 2, 27,960 at 3.
    "jesonmor",
    # Ataxx's copies and jumps: 6,460 leaves at depth 3, eight seconds.
    "ataxx",
    # Isolation's moves each wall one of ~45 cells: 47,300 and 49,500 leaves
    # at depth 2.
    "isolation", "isolation7x7",
    # Chess under its other names: the start is chess's, walked to depth 3
    # as `chess`; fairy's own pieces are walked from positions that hold
    # them (tests/fsf/test_fsf_catalogue.py).
    "normal", "fairy"})


# Games whose every move also walls a cell anywhere: duck's 640 moves at
# the start (379,440 leaves at depth 2), the Game of the Amazons' 2,176;
# `make test` compares their first ply and plays shorter games.
WALLED_WIDE = frozenset({"duck", "amazons"})


def perft_depth(name: str) -> int:
    """The perft depth `make test` compares for a variant (docs/verified.md lists it)."""
    return 1 if name in WALLED_WIDE else 2 if name in SHALLOW else 3


def game_plies(name: str) -> int:
    """The plies of each random game `make test` plays in a variant (duck:
    its outcome tries every one of some 600 moves for a repetition claim)."""
    return 20 if name in WALLED_WIDE else 120


def fsf_variants() -> list[str]:
    """The bundled variants that Fairy-Stockfish also knows, by the same name."""
    return [name for name in variantkit.variants() if name in FSF_NAMES]


def after(name: str, sf_fen: str, moves: list[str]) -> str:
    """pyffish's position string after `moves`, an empty field read as `-`."""
    return " ".join(field or "-" for field in pyffish.get_fen(name, sf_fen, moves).split(" "))


def fsf_value(outcome: Outcome, mover: str) -> int:
    """An outcome as pyffish scores it: from the side to move, +1 win, -1 loss, 0 draw."""
    if outcome.winner is None:
        return 0
    return 1 if outcome.winner == mover else -1


def sign(value: int) -> int:
    return (value > 0) - (value < 0)


@dataclass
class Oracle:
    """One bundled variant against its Fairy-Stockfish namesake."""

    name: str
    variant: variantkit.Variant = field(init=False)
    start_fen: str = field(init=False)

    def __post_init__(self) -> None:
        self.variant = variantkit.load(self.name)
        # As pyffish writes it after a move (its start string may differ:
        # `KQkq` where a Chess960 variant writes the rooks' files, `HAha`).
        self.start_fen = pyffish.get_fen(self.name, pyffish.start_fen(self.name), [])

    # -- one position ----------------------------------------------------
    def sf_moves(self, sf_fen: str, line: tuple[str, list[str]] | None = None) -> set[str]:
        """pyffish's legal moves at `sf_fen`, or after `line` (a start string
        and the moves played from it) where the history decides (janggi:
        no moves after a pass answered by a pass)."""
        start, played = line if line is not None else (sf_fen, [])
        return set(pyffish.legal_moves(self.name, start, played))

    def spelled(self, move: Move) -> str:
        """A move as pyffish writes it: where a turn is a move or a wall
        (`walls: {or-move: true}`), a move without a wall gets the first
        cell as its wall's (`e2e4,e4a1`), which the project reads too."""
        walls = self.variant.rules.walls
        if walls is None or not walls.or_move or move.wall or move.drop:
            return str(move)
        return f"{move},{move.to_cell}{self.variant.rules.board.names[0]}"

    def compare(self, game: Game, sf_fen: str, where: str = "",
                line: tuple[str, list[str]] | None = None, check: bool = True) -> set[str]:
        """Compare one position (reached by `line`, a start string and the
        moves from it, when given), its check too unless `check` is False;
        return its legal moves (as move strings)."""
        where = f"{sf_fen} {where}".strip()
        listed = [self.spelled(m) for m in game.legal_moves()]
        ours = set(listed)
        assert len(listed) == len(ours), f"{self.name}: duplicate moves at {where}"
        theirs = self.sf_moves(sf_fen, line)
        assert ours == theirs, (f"{self.name}: legal moves differ at {where}\n"
                                f"  missing: {sorted(theirs - ours)}\n"
                                f"  extra: {sorted(ours - theirs)}")
        self.compare_fen(game.fen(), sf_fen, where)
        assert not check or game.is_check() == pyffish.gives_check(self.name, sf_fen, []), \
            f"{self.name}: check differs at {where}"
        again = self.variant.new_game(fen=sf_fen)
        self.compare_fen(again.fen(), sf_fen, f"{where} (read back from pyffish)")
        return ours

    def compare_fen(self, mine: str, sf_fen: str, where: str) -> None:
        ours, theirs = mine.split(), sf_fen.split()
        assert len(ours) == len(theirs), \
            f"{self.name}: position strings differ at {where}: ours {mine}"
        for index, (a, b) in enumerate(zip(ours, theirs, strict=True)):
            label = FEN_FIELDS[index] if index < len(FEN_FIELDS) else f"field {index + 1}"
            if label == "en passant" and (a == "-" or a in re.findall(r"[a-z]+\d+", b)):
                continue
            assert a == b, f"{self.name}: {label} differs at {where}: ours {mine}"

    # -- the perft tree ----------------------------------------------------
    def walk(self, depth: int, fen: str | None = None) -> int:
        """Compare move sets at every node down to `depth` plies from the start
        (or from `fen`, as pyffish writes it); return perft(depth)."""
        game = self.variant.new_game(fen)
        sf_fen = self.start_fen if fen is None else fen
        self.compare_fen(game.fen(), sf_fen, "the start")
        return self._walk(game, sf_fen, depth, [], sf_fen)

    def _walk(self, game: Game, sf_fen: str, depth: int, path: list[str], root: str) -> int:
        # Each pyffish call costs about 2 ms, most of a walk's time: a leaf's
        # check is left to the random games, which compare it at every ply.
        moves = self.compare(game, sf_fen, f"after {' '.join(path) or 'nothing'}",
                             (root, path), check=depth > 1)
        if depth == 1:
            return len(moves)
        nodes = 0
        for move in sorted(moves):
            child = after(self.name, sf_fen, [move])
            game.push(move)
            nodes += self._walk(game, child, depth - 1, path + [move], root)
            game.pop()
        return nodes

    # -- games ---------------------------------------------------------------
    def random_games(self, games: int, max_plies: int, seed: int,
                     fen: str | None = None) -> list[Outcome | None]:
        """Play seeded random games, comparing every position and the result;
        from the start, or from `fen` (as pyffish writes it)."""
        rng = random.Random(f"{self.name}:{seed}")
        results = []
        for _ in range(games):
            results.append(self._random_game(rng, max_plies, fen or self.start_fen))
        return results

    def _random_game(self, rng: random.Random, max_plies: int, start: str) -> Outcome | None:
        return self.play(lambda moves: rng.choice(sorted(moves)), max_plies, start)

    def replay(self, line: list[str], fen: str | None = None) -> Outcome | None:
        """Play the moves of `line` (from `fen`, as pyffish writes it, or the
        start), comparing every position and the result; return the outcome
        where the line ends."""
        moves = iter(line)

        def next_move(legal: set[str]) -> str:
            move = next(moves)
            assert move in legal, f"{self.name}: {move} is not legal here"
            return move
        return self.play(next_move, len(line), fen or self.start_fen)

    def play(self, choose: Callable[[set[str]], str], max_plies: int,
             start: str) -> Outcome | None:
        """Play up to `max_plies` moves picked by `choose` from the legal
        ones, from the position string `start`, comparing every position
        (the last one included) and the result on the way."""
        game = self.variant.new_game(start)
        sf_fen = start
        played: list[str] = []
        for ply in range(max_plies + 1):
            where = f"after {' '.join(played) or 'nothing'}"
            moves = self.compare(game, sf_fen, where, (start, played))
            outcome = game.outcome()
            self.compare_result(game, outcome, bool(moves), sf_fen, start, played, where)
            if outcome is not None or not moves or ply == max_plies:
                return outcome
            move = choose(moves)
            sf_fen = after(self.name, sf_fen, [move])
            game.push(move)
            played.append(move)
        return None

    def compare_result(self, game: Game, outcome: Outcome | None, can_move: bool,
                       sf_fen: str, start: str, played: list[str], where: str) -> None:
        """Whether the game is over, and how, as Fairy-Stockfish says (`can_move`:
        the position has legal moves, already found equal in both; `played`:
        the moves from `start`)."""
        mover = game.turn
        label = f"{self.name}: result differs at {where}: ours {outcome}"
        if not can_move:
            # With the moves played: a result may depend on the history
            # (shatar: the series of checks that ends in a mate; shogi: a
            # mate by a pawn drop loses).
            theirs = sign(pyffish.game_result(self.name, start, played))
            assert outcome is not None and fsf_value(outcome, mover) == theirs, \
                f"{label}, pyffish {theirs} (no legal moves)"
            return
        # Some ends need the history too (janggi: two passes in a row).
        ended, value = pyffish.is_immediate_game_end(self.name, start, played)
        if ended:
            assert outcome is not None and fsf_value(outcome, mover) == sign(value), \
                f"{label}, pyffish {sign(value)} (immediate end)"
            return
        # Repetition needs the history: ask from the start with the moves played.
        optional, value = pyffish.is_optional_game_end(self.name, start, played)
        if optional:
            assert outcome is not None and fsf_value(outcome, mover) == sign(value), \
                f"{label}, pyffish {sign(value)} (claimable end)"
            return
        if outcome is None:
            return
        # A draw claimed with the move that would complete a count is no
        # draw: the claims are the position's own, as pyffish's.
        assert outcome.reason == "insufficient-material", \
            f"{label}, pyffish says the game goes on"
        white, black = pyffish.has_insufficient_material(self.name, sf_fen, [])
        assert white and black, f"{label}, pyffish sees mating material"
