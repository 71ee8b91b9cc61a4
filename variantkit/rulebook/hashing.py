"""The Zobrist keys that hash positions for repetition: one per piece code
and cell, the side to move, castling rights, unmoved pieces, en passant
cells, walls, counted checks and pieces in hand.  Each group is drawn from
a fixed seed, so a position's hash is the same in every run."""

from __future__ import annotations

import random
from typing import NamedTuple

from variantkit.limits import MAX_HELD
from variantkit.pieces import SHORT_BITS

ZOBRIST_SEED = 0x5EED_C0DE
# Keys of SHORT_BITS bits: the compiled core keeps the hash in a machine
# word, where 64-bit keys made every make and unmake allocate.
KEY_BITS = SHORT_BITS


class Keys(NamedTuple):
    """The random keys whose exclusive or hashes a position."""

    zobrist: list[list[int]]       # per piece code, per cell
    turn_key: int
    right_keys: list[int]          # per castling right
    unmoved_keys: list[int]        # per cell
    ep_keys: list[int]             # per cell
    wall_keys: list[int]           # per cell
    check_keys: list[list[int]]    # per side, per checks given (none without a check limit)
    hand_keys: list[list[int]]     # per piece code, per count in hand (none without hands)


def compile_keys(n_codes: int, size: int, check_limit: int | None, hands: bool) -> Keys:
    """The keys of a variant with `n_codes` piece codes on `size` cells."""
    rng = random.Random(ZOBRIST_SEED)
    zobrist = [[rng.getrandbits(KEY_BITS) for _ in range(size)] for _ in range(n_codes)]
    turn_key = rng.getrandbits(KEY_BITS)
    right_keys = [rng.getrandbits(KEY_BITS) for _ in range(64)]
    unmoved_keys = [rng.getrandbits(KEY_BITS) for _ in range(size)]
    ep_keys = [rng.getrandbits(KEY_BITS) for _ in range(size)]
    wall_keys = [rng.getrandbits(KEY_BITS) for _ in range(size)]
    rng = random.Random(ZOBRIST_SEED + 1)
    check_keys = [[rng.getrandbits(KEY_BITS) for _ in range(check_limit + 1)]
                  for _ in range(2)] if check_limit else []
    rng = random.Random(ZOBRIST_SEED + 2)
    hand_keys = [[rng.getrandbits(KEY_BITS) for _ in range(MAX_HELD * size + 1)]
                 for _ in range(n_codes)] if hands else []
    return Keys(zobrist, turn_key, right_keys, unmoved_keys, ep_keys, wall_keys, check_keys,
                hand_keys)
