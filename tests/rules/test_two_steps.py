"""Two-step moves (`two-step:`): chu shogi's lion, and a horned falcon's
two steps forward, against a reference written here from the rules
(docs/reference/rules.md#two-step-moves), which knows nothing of the
compiled tables: a lion goes anywhere within two king steps (over
anything), takes an adjacent enemy and stays (igui), or goes on one step
from it (a double capture where an enemy stands there), and passes (jitto)
where a neighbour is empty; the falcon rides diagonally, sideways and
backward, steps or leaps one or two cells forward, takes the piece ahead
and comes back or goes on one more cell, and passes where the cell ahead
is empty.

Compared: the legal move sets and the board along seeded random games
from several starts, perft 1-2, and each case of the rules by name.
Besides: make and take back leave the position as it was, and the located
problems of bad declarations."""

from __future__ import annotations

import random

import pytest

import variantkit
from variantkit.errors import VariantError
from variantkit.game import perft

FILES, RANKS = 6, 6
HEAD = """
variantkit: 1
name: lions
description: Lions and falcons on a small board, won by taking the king.
board: {grid: {files: 6, ranks: 6}}
sides: {white: {forward: n}, black: {forward: s}}
royals: {per-side: any}
pieces:
  king: {letter: K, betza: K}
  lion:
    letter: N
    moves:
      - {leap: [1, 0]}
      - {leap: [1, 1]}
      - {leap: [2, 0]}
      - {leap: [2, 1]}
      - {leap: [2, 2]}
      - {two-step: all}
  falcon:
    letter: F
    moves:
      - {ride: [diagonal, sideways, backward]}
      - {step: forward}
      - {leap: [[0, 2]]}
      - {two-step: forward, then: [onward, back]}
  pawn: {letter: P, betza: fW}
end:
  conditions:
    - {extinct: [king], result: loss}
"""
STARTS = [
    "k5/2p3/1pnp2/1pNf2/2P3/K5 w - - 0 1",
    "kf4/pppn2/6/2PP2/1FNP2/K5 w - - 0 1",
    "k1n3/p1p1p1/1P1P1P/f1F1N1/1p1p2/K5 b - - 0 1",
]


def variant_of(start: str) -> variantkit.Variant:
    return variantkit.load_text(HEAD + f'setup: "{start}"\n')


VARIANT = variant_of(STARTS[0])


# -- the reference ---------------------------------------------------------------
def read(fen: str) -> tuple[dict[tuple[int, int], str], str]:
    board: dict[tuple[int, int], str] = {}
    rows, side = fen.split()[0].split("/"), fen.split()[1]
    for r, row in enumerate(rows):
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                board[(f, RANKS - 1 - r)] = ch
                f += 1
    return board, side


def name(cell: tuple[int, int]) -> str:
    return "abcdef"[cell[0]] + str(cell[1] + 1)


def inside(cell: tuple[int, int]) -> bool:
    return 0 <= cell[0] < FILES and 0 <= cell[1] < RANKS


KING_STEPS = [(x, y) for x in (-1, 0, 1) for y in (-1, 0, 1) if (x, y) != (0, 0)]


def reference_moves(fen: str) -> set[str]:
    """Every legal move string, from the rules."""
    board, side = read(fen)
    white = side == "w"

    def own(cell: tuple[int, int]) -> bool:
        piece = board.get(cell)
        return piece is not None and piece.isupper() == white

    def enemy(cell: tuple[int, int]) -> bool:
        piece = board.get(cell)
        return piece is not None and piece.isupper() != white

    if not any(p == ("K" if white else "k") for p in board.values()) \
            or not any(p == ("k" if white else "K") for p in board.values()):
        return set()
    out: set[str] = set()
    ahead = 1 if white else -1
    for (f, r), piece in board.items():
        if piece.isupper() != white:
            continue
        here = (f, r)
        kind = piece.upper()

        def land(to: tuple[int, int], here: tuple[int, int] = here) -> None:
            if inside(to) and not own(to):
                out.add(name(here) + name(to))

        if kind == "K":
            for dx, dy in KING_STEPS:
                land((f + dx, r + dy))
        elif kind == "P":
            land((f, r + ahead))
        elif kind == "N":
            for dx in range(-2, 3):
                for dy in range(-2, 3):
                    if (dx, dy) != (0, 0):
                        land((f + dx, r + dy))   # a leap over anything
            for dx, dy in KING_STEPS:
                mid = (f + dx, r + dy)
                if not inside(mid):
                    continue
                if not board.get(mid):
                    out.add(name(here) * 2)   # jitto: out to an empty cell and back
                elif enemy(mid):
                    out.add(f"{name(here)}{name(mid)},{name(mid)}{name(here)}")   # igui
                    for ex, ey in KING_STEPS:
                        to = (mid[0] + ex, mid[1] + ey)
                        if to != here and inside(to) and not own(to):
                            out.add(f"{name(here)}{name(mid)},{name(mid)}{name(to)}")
        elif kind == "F":
            for dx, dy in [(1, 1), (-1, 1), (1, -1), (-1, -1), (1, 0), (-1, 0), (0, -1)]:
                dy *= ahead
                to = (f + dx, r + dy)
                while inside(to) and not own(to):
                    out.add(name(here) + name(to))
                    if board.get(to):
                        break
                    to = (to[0] + dx, to[1] + dy)
            one, two = (f, r + ahead), (f, r + 2 * ahead)
            land(one)
            land(two)
            if inside(one) and not board.get(one):
                out.add(name(here) * 2)
            elif inside(one) and enemy(one):
                out.add(f"{name(here)}{name(one)},{name(one)}{name(here)}")
                if inside(two) and not own(two):
                    out.add(f"{name(here)}{name(one)},{name(one)}{name(two)}")
    return out


def reference_play(fen: str, move: str) -> dict[tuple[int, int], str]:
    """The board after `move`: a two-step capture takes its midway piece."""
    board, _ = read(fen)

    def cell(text: str) -> tuple[int, int]:
        return ("abcdef".index(text[0]), int(text[1]) - 1)

    first, _, second = move.partition(",")
    frm, to = cell(first[:2]), cell((second or first)[2:4])
    piece = board.pop(frm)
    if second:
        board.pop(cell(first[2:4]))
    board[to] = piece
    return board


# -- the comparison -----------------------------------------------------------
def legal_strings(game: variantkit.Game) -> set[str]:
    return {str(m) for m in game.legal_moves()}


@pytest.mark.parametrize("start", STARTS)
def test_random_games_match_the_reference(start: str) -> None:
    variant = variant_of(start)
    rng = random.Random(start)
    for _ in range(12):
        game = variant.new_game()
        for _ in range(40):
            fen = game.fen()
            legal = legal_strings(game)
            assert legal == reference_moves(fen), fen
            if not legal:
                break
            move = rng.choice(sorted(legal))
            game.push(move)
            assert read(game.fen())[0] == reference_play(fen, move), (fen, move)
            game.pop()
            assert game.fen() == fen
            game.push(move)


@pytest.mark.parametrize("start", STARTS)
def test_perft_two_matches_the_reference(start: str) -> None:
    game = variant_of(start).new_game()
    expected = 0
    first = reference_moves(game.fen())
    for move in first:
        game.push(move)
        expected += len(reference_moves(game.fen()))
        game.pop()
    assert perft(game, 1) == len(first)
    assert perft(game, 2) == expected


def test_each_lion_case_by_name() -> None:
    # White: lion c3, pawn c2; Black: lion c4, falcon d3, pawns b3, b4, c5, d4.
    game = VARIANT.new_game()
    legal = legal_strings(game)
    assert "c3b3,b3c3" in legal        # igui: takes b3 and stays
    assert "c3b4,b4b3" in legal        # a double capture: b4, then b3
    assert "c3d4,d4e5" in legal        # takes d4, goes on to an empty cell
    assert "c3c3" in legal             # jitto: out to b2 (empty) and back
    assert "c3c2,c2c3" not in legal    # c2 is the own pawn: no first step there
    assert "c3b3,b3c2" not in legal    # nor a second step onto it
    assert "c3c4,c4c5" in legal        # the enemy lion, then the pawn behind it
    assert "c3c5" in legal             # a leap over anything
    game.push("c3b4,b4b3")
    assert game.piece_at("b4") is None and game.piece_at("b3") == "N"
    assert game.piece_at("c3") is None


def test_no_pass_without_an_empty_neighbour() -> None:
    game = variant_of("k5/6/6/1ppp2/1pNP2/KPPP2 w - - 0 1").new_game()
    legal = legal_strings(game)
    assert "c2c2" not in legal
    assert "c2b3,b3c2" in legal


def test_a_capture_on_the_way_resets_the_clock_and_undoes() -> None:
    game = variant_of("k5/6/6/2p3/2N3/K5 w - - 7 9").new_game()
    fen = game.fen()
    game.push("c2c3,c3c2")
    assert game.fen() == "k5/6/6/6/2N3/K5 b - - 0 9"
    game.pop()
    assert game.fen() == fen
    game.push("c2c2")                   # a pass counts on the clock
    assert game.fen().endswith(" 8 9")


@pytest.mark.parametrize(("piece", "problem"), [
    ("{two-step: all, only: capture}", "`only` does not go with `two-step`"),
    ("{two-step: all, then: sideways}", "schema"),
])
def test_bad_two_step_declarations(piece: str, problem: str) -> None:
    text = HEAD.replace("      - {two-step: all}", f"      - {piece}") + \
        f'setup: "{STARTS[0]}"\n'
    with pytest.raises(VariantError, match=problem):
        variantkit.load_text(text)


def test_two_steps_need_no_royal_piece() -> None:
    text = HEAD.replace("king: {letter: K, betza: K}", "king: {letter: K, betza: K, royal: true}")
    with pytest.raises(VariantError, match="not seen by the check test"):
        variantkit.load_text(text + f'setup: "{STARTS[0]}"\n')


def test_a_piece_with_only_two_step_moves_moves() -> None:
    text = HEAD.replace("""      - {leap: [1, 0]}
      - {leap: [1, 1]}
      - {leap: [2, 0]}
      - {leap: [2, 1]}
      - {leap: [2, 2]}
""", "")
    variant = variantkit.load_text(text + f'setup: "{STARTS[0]}"\n')
    assert not [p for p in variant.problems if p.rule == "piece-never-moves"]
    legal = legal_strings(variant.new_game())
    assert {"c3b1", "c3d1", "c3b3,b3c3", "c3d3,d3d2"} <= legal
    assert "c3c5" not in legal         # no leap over the lion on c4
    assert "c3d2" not in legal         # two steps, never one: c2 is the own pawn's
