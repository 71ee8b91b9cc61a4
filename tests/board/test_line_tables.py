"""The per-cell line tables: no look-up key wider than MAX_GROUP_BITS cells,
however long a line, and the same cells reached as walking the lines."""

from __future__ import annotations

import random
from pathlib import Path

import variantkit
from variantkit.pieces import (
    MAX_GROUP_BITS,
    SHORT_BITS,
    SHORT_MASK,
    Component,
    reach,
    reach_words,
    span,
)

# A 24x24 board: a rook's line runs up to 23 cells, a key over every cell
# but the last would be 22 bits wide (tables of up to 4M entries).
WIDE = """\
variantkit: 1
name: wide
board:
  grid: {files: 24, ranks: 24}
pieces:
  king:
    letter: K
    royal: true
    moves:
      - step: all
  queen:
    letter: Q
    moves:
      - ride: all
  far:
    letter: F
    moves:
      - ride: orthogonal
        range: [16, 23]
  cannon:
    letter: C
    moves:
      - hop: orthogonal
        only: capture
setup: k23/24/24/24/24/24/24/24/24/24/24/24/24/24/24/24/24/24/24/24/24/24/24/K23 w - - 0 1
"""


def walked(component: Component, side: int, cell: int, occupied: int) -> int:
    """The cells a line rider reaches, walking its rays."""
    bits = 0
    for cells, first in component.rays[side][cell]:
        for i, c in enumerate(cells):
            if i >= first:
                bits |= 1 << c
            if occupied >> c & 1:
                break
    return bits


def test_no_key_is_wider_than_max_group_bits() -> None:
    variant = variantkit.load_text(WIDE)
    longest = 0
    for component in variant.pieces.components:
        hop = component.flags.hop is not None
        for side in component.tables:
            for _, groups, chained in side:
                for mask, lines in groups:
                    longest = max(longest, sum(len(cells) for cells, _ in lines.rays))
                    assert lines.cached == (mask.bit_count() <= MAX_GROUP_BITS)
                    assert hop or lines.cached
                for _, mask, lines in chained:
                    assert mask.bit_count() <= MAX_GROUP_BITS and lines.cached
    assert longest > MAX_GROUP_BITS  # the board has lines longer than one key


def test_cut_lines_reach_what_walking_them_reaches() -> None:
    variant = variantkit.load_text(WIDE)
    rng = random.Random(24)
    size = variant.board.size
    riders = [c for c in variant.pieces.components if c.flags.hop is None]
    for _ in range(300):
        occupied = 0
        for _ in range(rng.randrange(0, 40)):
            occupied |= 1 << rng.randrange(size)
        cell = rng.randrange(size)
        for component in riders:
            side = rng.randrange(2)
            assert reach(component.tables[side][cell], occupied) \
                == walked(component, side, cell, occupied)


def test_a_long_hop_is_answered_without_storing() -> None:
    variant = variantkit.load_text(WIDE)
    cannon = next(c for c in variant.pieces.components if c.flags.hop is not None)
    _, groups, _ = cannon.tables[0][0]   # from a corner: two lines of 23 cells
    assert all(not lines.cached for _, lines in groups)
    for _, lines in groups:
        lines[0b110]
        assert not lines


def test_short_moves_mark_the_pieces_whose_moves_stay_in_a_word() -> None:
    """`Words.short`: a piece works on masks cut to SHORT_MASK
    exactly where every cell its moves from there read or reach lies within
    it and it cannot promote; g8 and h8 are the two cells of chess above it."""
    chess = variantkit.load("chess")
    names = chess.board.index
    code = {letter: chess.code_of_letter(letter) or 0 for letter in "NRPp"}
    short = chess.rules.words.short
    assert names["g8"] > SHORT_BITS - 1 and names["f8"] < SHORT_BITS
    assert short[code["N"]][names["b1"]]
    assert not short[code["N"]][names["e7"]]      # reaches g8
    assert short[code["N"]][names["h8"]]          # from h8 only to f7 and g6
    assert not short[code["R"]][names["h1"]]      # its file ends on h8
    assert short[code["R"]][names["a1"]]
    assert short[code["P"]][names["e2"]] and not short[code["P"]][names["e7"]]  # promotes
    assert not short[code["p"]][names["e2"]] and short[code["p"]][names["e7"]]
    knight = chess.rules.codes.generators[code["N"]]
    assert all(short[code["N"]][cell] == all(span(g.tables[cell]) <= SHORT_MASK for g in knight)
               for cell in range(64))


def test_word_tables_reach_what_the_full_tables_reach() -> None:
    """`pieces.word_reach` and `reach_words`: on a board of two words
    (xiangqi's 90 cells, with its cannon's hops), each plain generator's
    table read a word at a time, its key built from the two words of the
    occupancy, gives the cells the full-width table gives, split at
    SHORT_BITS."""
    xiangqi = variantkit.load("xiangqi")
    size = xiangqi.board.size
    assert SHORT_BITS < size <= 2 * SHORT_BITS
    rng = random.Random(90)
    read = 0
    for gens in xiangqi.rules.codes.loop_generators:
        for gen in gens:
            for cell, words in enumerate(gen.words):
                if words is None:
                    continue
                for _ in range(8):
                    occupied = 0
                    for _ in range(rng.randrange(0, 40)):
                        occupied |= 1 << rng.randrange(size)
                    reached_low, reached_high = reach_words(
                        words, occupied & SHORT_MASK, occupied >> SHORT_BITS)
                    assert reached_high << SHORT_BITS | reached_low \
                        == reach(gen.tables[cell], occupied), (cell, occupied)
                    read += 1
    assert read > 1000
    # The rook on a1 reaches both words; xiangqi's pieces there are read so.
    rook = xiangqi.code_of_letter("R") or 0
    a1 = xiangqi.board.index["a1"]
    assert not xiangqi.rules.words.short[rook][a1] and xiangqi.rules.words.words[rook][a1]


def test_straight_rays_reach_what_the_tables_reach() -> None:
    """`pieces.RayReach`, a table read with no look-up: wherever a
    generator has one, on chess's 64 cells (a pawn's double step landing
    past its first cell), capablanca's 80 and a hexagonal board's, it
    reaches under random occupancies what the look-up tables reach; a
    rook of chess is read so, a cannon of xiangqi (a hop) never is."""
    read = 0
    rng = random.Random(64)
    examples = Path(__file__).resolve().parent.parent.parent / "examples"
    for name in ("chess", "capablanca", str(examples / "glinski.yaml")):
        variant = variantkit.load(name)
        size = variant.board.size
        for gens in variant.rules.codes.loop_generators:
            for gen in gens:
                for cell, table in enumerate(gen.tables):
                    rays = gen.rays[cell]
                    for _ in range(8 if rays is not None else 0):
                        occupied = 0
                        for _ in range(rng.randrange(0, 40)):
                            occupied |= 1 << rng.randrange(size)
                        assert rays is not None
                        assert rays.reach(occupied) == reach(table, occupied), \
                            (name, cell, occupied)
                        read += 1
    assert read > 5000
    chess = variantkit.load("chess")
    rook = chess.code_of_letter("R") or 0
    assert all(gen.rays[chess.board.index["a1"]] is not None
               for gen in chess.rules.codes.loop_generators[rook])
    xiangqi = variantkit.load("xiangqi")
    cannon = xiangqi.code_of_letter("C") or 0
    assert any(gen.rays[xiangqi.board.index["b3"]] is None
               for gen in xiangqi.rules.codes.loop_generators[cannon])
