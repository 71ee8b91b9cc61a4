"""Chu shogi's promotion zone (`promotion: {leaving: true, from-inside:
by-capture}`), against a reference written here from the rule
(docs/reference/rules.md#shogi-style-promotion): a piece may promote on a
move that enters its zone from outside, on a capture that starts inside
it (ending inside or out), and on a move onto a cell where it could not
move again (a pawn's or lance's last rank); it may always decline.

Compared: the legal move sets along seeded random games, and each case
by name."""

from __future__ import annotations

import random

import pytest

import variantkit

FILES, RANKS = 6, 6
HEAD = """
variantkit: 1
name: zone
description: Chu shogi's promotion rule on a small board, won by taking the king.
board:
  grid: {files: 6, ranks: 6}
  regions:
    white-zone: {ranks: [5, 6]}
    black-zone: {ranks: [1, 2]}
sides: {white: {forward: n}, black: {forward: s}}
royals: {per-side: any}
pieces:
  king: {letter: K, betza: K}
  pawn: {letter: P, betza: fW}
  lance: {letter: L, betza: fR}
  silver: {letter: S, betza: FfW}
  tokin: {letter: +P, betza: WfF}
  white-horse: {letter: +L, betza: R}
  gold: {letter: +S, betza: WfF}
promotion:
  regions: {white: white-zone, black: black-zone}
  optional: {white: white-zone, black: black-zone}
  leaving: true
  from-inside: by-capture
  promotes-to: {pawn: tokin, lance: white-horse, silver: gold}
end:
  conditions:
    - {extinct: [king], result: loss}
"""
STARTS = [
    "k5/1p1s2/PS1l2/1P1pL1/3SPs/K5 w - - 0 1",
    "kl4/p1pS2/2P1s1/Ls1pP1/1S1P2/K4L b - - 0 1",
]
ZONE = {True: {4, 5}, False: {0, 1}}   # ranks, from 0, per side (White: True)
STEPS = {"K": [(x, y) for x in (-1, 0, 1) for y in (-1, 0, 1) if (x, y) != (0, 0)],
         "P": [(0, 1)], "S": [(1, 1), (-1, 1), (1, -1), (-1, -1), (0, 1)],
         "+P": [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, 1)],
         "+S": [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, 1)]}
RIDES = {"L": [(0, 1)], "+L": [(1, 0), (-1, 0), (0, 1), (0, -1)]}
PROMOTES = {"P", "L", "S"}
Board = dict[tuple[int, int], str]


def read(fen: str) -> tuple[Board, bool]:
    board: Board = {}
    for r, row in enumerate(fen.split()[0].split("/")):
        f, plus = 0, ""
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            elif ch == "+":
                plus = "+"
            else:
                board[(f, RANKS - 1 - r)] = plus + ch
                f, plus = f + 1, ""
    return board, fen.split()[1] == "w"


def name(cell: tuple[int, int]) -> str:
    return "abcdef"[cell[0]] + str(cell[1] + 1)


def reference_moves(fen: str) -> set[str]:
    board, white = read(fen)
    kings = [p for p in board.values() if p.upper() == "K"]
    if len(kings) < 2:
        return set()
    out: set[str] = set()
    ahead = 1 if white else -1
    last = RANKS - 1 if white else 0
    for (f, r), piece in board.items():
        if piece[-1].isupper() != white:
            continue
        kind = piece.upper()
        targets: list[tuple[int, int]] = []
        for dx, dy in STEPS.get(kind, []):
            targets.append((f + dx, r + dy * ahead))
        for dx, dy in RIDES.get(kind, []):
            to = (f + dx, r + dy * ahead)
            while 0 <= to[0] < FILES and 0 <= to[1] < RANKS and to not in board:
                targets.append(to)
                to = (to[0] + dx, to[1] + dy * ahead)
            targets.append(to)
        for to in targets:
            if not (0 <= to[0] < FILES and 0 <= to[1] < RANKS):
                continue
            held = board.get(to)
            if held and held[-1].isupper() == white:
                continue
            move = name((f, r)) + name(to)
            out.add(move)
            if kind not in PROMOTES:
                continue
            entering = r not in ZONE[white] and to[1] in ZONE[white]
            inside_capture = r in ZONE[white] and held is not None
            stuck = kind in ("P", "L") and to[1] == last
            if entering or inside_capture or stuck:
                out.add(move + "+")
    return out


@pytest.mark.parametrize("start", STARTS)
def test_random_games_match_the_reference(start: str) -> None:
    variant = variantkit.load_text(HEAD + f'setup: "{start}"\n')
    rng = random.Random(start)
    for _ in range(15):
        game = variant.new_game()
        for _ in range(40):
            legal = {str(m) for m in game.legal_moves()}
            assert legal == reference_moves(game.fen()), game.fen()
            if not legal:
                break
            game.push(rng.choice(sorted(legal)))


def test_each_case_of_the_zone_by_name() -> None:
    # White: pawns a4, b3, e2, silvers b4, d2, lance e3; the zone is ranks 5-6.
    game = variantkit.load_text(HEAD + f'setup: "{STARTS[0]}"\n').new_game()
    legal = {str(m) for m in game.legal_moves()}
    assert {"a4a5", "a4a5+"} <= legal                             # entering: may promote
    assert {"b4c5", "b4c5+", "b4b5", "b4b5+"} <= legal            # entering, by a capture too
    assert "e3e4" in legal and "e3e4+" not in legal               # below the zone
    assert {"e3e5", "e3e5+", "e3e6", "e3e6+"} <= legal
    assert "d2c3" in legal and "d2c3+" not in legal


def test_inside_the_zone_only_a_capture_or_the_last_rank_promotes() -> None:
    game = variantkit.load_text(HEAD + 'setup: "2p2k/P3S1/1L4/6/6/K5 w - - 0 1"\n').new_game()
    legal = {str(m) for m in game.legal_moves()}
    assert {"a5a6", "a5a6+"} <= legal          # a pawn onto its last rank, from inside
    assert {"e5f6", "e5f6+"} <= legal          # a capture inside
    assert "e5e6" in legal and "e5e6+" not in legal   # a silver moving on inside: no
    assert "e5d6" in legal and "e5d6+" not in legal
    assert "e5d4" in legal and "e5d4+" not in legal   # nor leaving without a capture
    assert {"b4b5", "b4b5+"} <= legal          # the lance entering
    game = variantkit.load_text(HEAD + 'setup: "k1p3/3S2/1L4/6/6/K5 w - - 0 1"\n').new_game()
    legal = {str(m) for m in game.legal_moves()}
    assert {"d5c6", "d5c6+"} <= legal          # a capture that starts inside
