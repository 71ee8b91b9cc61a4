"""Per piece code, what the move generator reads: the generators of each
piece (its compiled components as one side uses them, and as it uses them
in check), its royalty, passes and clock, and per side the attack lists
check detection reads.  A piece code is a piece type and a side
(`variantkit.pieces.piece_code`); codes 0 and 1 are empty cells."""

from __future__ import annotations

from typing import NamedTuple

from variantkit.betza import PieceDeclaration
from variantkit.board import Board
from variantkit.pieces import (
    CAPTURE,
    CONVERT,
    MOVE,
    SHORT_BITS,
    SHORT_MASK,
    STAYS,
    Component,
    Flags,
    PieceSet,
    RayReach,
    WordReach,
    piece_code,
    ray_reach,
    reach,
    span,
    type_of,
    word_reach,
)
from variantkit.rulebook.sink import Sink
from variantkit.tables import AttackEntry, Generator, Limits, LoopGenerator, Promotion


class Codes(NamedTuple):
    """The move generator's per-code tables and each side's attack lists."""

    n_codes: int
    royal_code: list[bool]
    royal_codes: list[list[int]]   # per side
    resets_clock: list[bool]
    pass_codes: list[bool]         # royal pieces that may pass (hand the turn over)
    generators: list[list[Generator]]
    # Per from-cell, the landing cells that only primitives declared
    # `resets-clock: false` reach, or None when all of a piece's moves reset it.
    clock_kept: list[list[int] | None]
    # The generators of a side in check: the same list, unless some
    # primitive is restricted then (`in-check`).
    check_generators: list[list[Generator]]
    # The same lists for the move generator's loop (`LoopGenerator`);
    # order kept, since the first primitive to reach a cell makes its move.
    loop_generators: list[list[LoopGenerator]]
    loop_check_generators: list[list[LoopGenerator]]
    # Pieces whose "not moved yet" status changes their moves, and so
    # tells positions apart for repetition.
    unmoved_codes: list[int]
    attack_components: list[list[AttackEntry]]
    slider_components: list[list[AttackEntry]]
    # Hoppers: a piece moving onto their line may give them a screen.
    hop_components: list[list[AttackEntry]]
    # Whether a screen's piece type matters: then the legality of a move
    # is tested on the position after it, where every piece's type is known.
    typed_screens: bool
    # Per code and cell, every cell its moves may reach whatever the
    # occupancy, in check too, split into words (`bb_low`, `bb_high`): a
    # piece whose span meets no enemy piece nor a cell it may promote on
    # makes no capture nor promotion there (`Position.captures_unchecked`).
    spans_low: list[list[int]]
    spans_high: list[list[int]]


def compile_codes(pieces: PieceSet, board: Board, facing: Component | None,
                  facing_rule: str) -> Codes:
    """The generators and attack lists of every piece code; `facing`, under
    the `forbidden` rule, joins each side's attacks as its royal pieces'."""
    n_codes = piece_code(len(pieces.types), 0)
    royal_code = [False] * n_codes
    royal_codes: list[list[int]] = [[], []]
    resets_clock = [False] * n_codes
    pass_codes = [False] * n_codes
    generators: list[list[Generator]] = [[] for _ in range(n_codes)]
    attack: list[dict[int, list[int]]] = [{}, {}]
    for t in pieces.types:
        for side in range(2):
            code = piece_code(t.index, side)
            royal_code[code] = t.royal
            if t.royal:
                royal_codes[side].append(code)
            resets_clock[code] = t.resets_clock
            pass_codes[code] = t.passes
            for ci in t.components:
                comp = pieces.components[ci]
                f = comp.flags
                generators[code].append(Generator(
                    comp.tables[side], f.mode, f.initial, f.en_passant,
                    f.may_give_check, comp.passed[side], _victims(pieces, f, side),
                    _limits(comp, side)))
                if f.mode & CAPTURE:
                    attack[side].setdefault(ci, []).append(code)
    clock_kept = [_clock_kept(pieces, board, resets_clock, code) for code in range(n_codes)]
    if any(comp.flags.in_check != "allowed" for comp in pieces.components):
        check_generators = [
            [_in_check_generator(pieces.components[ci], g)
             for ci, g in zip(pieces.types[type_of(code)].components, gens, strict=True)
             if pieces.components[ci].flags.in_check != "never"]
            if code >= 2 else [] for code, gens in enumerate(generators)]
    else:
        check_generators = generators
    loop_generators = _loop_generators(generators)
    loop_check_generators = loop_generators if check_generators is generators \
        else _loop_generators(check_generators)
    unmoved_codes = [code for code in range(2, n_codes)
                     if any(g.initial for g in generators[code])]
    comps = pieces.components
    attack_components: list[list[AttackEntry]] = [
        [AttackEntry(comps[ci], s, codes, comps[ci].flags.initial, _barred(comps[ci]))
         for ci, codes in attack[s].items()] for s in range(2)]
    if facing is not None and facing_rule == "forbidden":
        for s in range(2):
            royals = [piece_code(t.index, s) for t in pieces.types if t.royal]
            attack_components[s].append(AttackEntry(facing, s, royals, False, ()))
    slider_components = [
        [entry for entry in attack_components[s] if any(entry.xray_sources)]
        for s in range(2)]
    hop_components = [
        [entry for entry in slider_components[s] if entry.component.flags.hop is not None]
        for s in range(2)]
    typed_screens = any(entry.barred for side in attack_components for entry in side)
    spans = _spans(generators, check_generators, board.size)
    return Codes(n_codes, royal_code, royal_codes, resets_clock, pass_codes, generators,
                 clock_kept, check_generators, loop_generators, loop_check_generators,
                 unmoved_codes, attack_components, slider_components, hop_components,
                 typed_screens, [[cells & SHORT_MASK for cells in row] for row in spans],
                 [[cells >> SHORT_BITS for cells in row] for row in spans])


def _spans(generators: list[list[Generator]], check_generators: list[list[Generator]],
           size: int) -> list[list[int]]:
    """Per code and cell, every cell any of its generators (in check too)
    may reach, whatever the occupancy; each table spanned once."""
    spanned: dict[int, list[int]] = {}
    out = []
    for gens, check_gens in zip(generators, check_generators, strict=True):
        cells = [0] * size
        for g in gens + check_gens:
            if id(g.tables) not in spanned:
                spanned[id(g.tables)] = [span(table) for table in g.tables]
            cells = [a | b for a, b in zip(cells, spanned[id(g.tables)], strict=True)]
        out.append(cells)
    return out


class Words(NamedTuple):
    """Per piece code and cell, how the move generator reads a piece's
    moves on a board wider than SHORT_MASK (both empty on a board within
    it, where every mask is a word)."""

    # Whether the piece's moves from there read and reach only cells
    # within SHORT_MASK, and never promote (`short_moves`): the move
    # generator then works on the low words of the node's masks, so that a
    # piece on g8 or h8 of a 64-cell board does not box the masks every
    # other piece's moves are computed with.
    short: list[list[bool]]
    # Whether they are read a word at a time (`word_moves`); not under the
    # first-move rule, whose targets that path leaves alone.
    words: list[list[bool]]


def compile_words(codes: Codes, size: int, promotions: list[dict[int, Promotion]],
                  first_move_rule: bool) -> Words:
    """The `Words` of a board of `size` cells."""
    wide = size > SHORT_BITS
    return Words(short_moves(codes, size, promotions) if wide else [],
                 word_moves(codes, size)
                 if wide and size <= 2 * SHORT_BITS and not first_move_rule else [])


def empty_board_reach(generators: list[list[Generator]], code: int, cell: int,
                      initial: bool = True) -> int:
    """Cells a piece (by code) reaches from `cell` with nothing else on
    the board; `initial=False` leaves out its first-move-only moves."""
    bits = 0
    for g in generators[code]:
        if initial or not g.initial:
            bits |= reach(g.tables[cell], 1 << cell)
    return bits


def short_moves(codes: Codes, size: int, promotions: list[dict[int, Promotion]]
                ) -> list[list[bool]]:
    """Per piece code and cell: whether the piece's moves from there read
    and reach only cells within SHORT_MASK, and never promote."""
    return [_short_moves(codes, size, promotions, code) for code in range(codes.n_codes)]


def _short_moves(codes: Codes, size: int, promotions: list[dict[int, Promotion]],
                 code: int) -> list[bool]:
    touched = [0] * size
    tables = {id(g.tables): g.tables
              for generators in (codes.generators, codes.check_generators)
              for g in generators[code]}
    for per_cell in tables.values():
        for cell, table in enumerate(per_cell):
            touched[cell] |= span(table)
    promotion = promotions[code & 1].get(code)
    if promotion is not None:
        for cell in range(size):
            if touched[cell] & promotion.region or promotion.start >> cell & 1:
                touched[cell] = -1
    return [0 <= bits <= SHORT_MASK for bits in touched]


def word_moves(codes: Codes, size: int) -> list[list[bool]]:
    """Per piece code and cell: whether the piece's moves from there are
    read a word at a time (`LoopGenerator.words`): each of its generators,
    in check too, is a plain one with such tables there (a piece with no
    move at all has nothing to read)."""
    modes = []
    for code in range(codes.n_codes):
        gens = codes.loop_generators[code] + codes.loop_check_generators[code]
        modes.append([bool(gens) and all(g.special is None and g.words
                                         and g.words[cell] is not None for g in gens)
                      for cell in range(size)])
    return modes


def check_in_check(sink: Sink, declared: dict[str, PieceDeclaration], codes: Codes,
                   one_royal: bool,
                   explosions: bool) -> None:
    """`in-check` needs the side's check to be one royal piece's, read
    where moves are generated (not under several royals or explosions)."""
    if codes.check_generators is codes.generators or (one_royal and not explosions):
        return
    for name, spec in declared.items():
        for i, move in enumerate(spec.get("moves", [])):
            if move.get("in-check", "allowed") != "allowed":
                sink.report(("pieces", name, "moves", i, "in-check"), "`in-check` needs one royal "
                         "piece per side and no explosions", "bad-in-check")


def _loop_generators(generators: list[list[Generator]]) -> list[list[LoopGenerator]]:
    # Tables read a word at a time, and with no look-up, once per table
    # list (codes share them).
    words: dict[int, list[WordReach | None]] = {}
    rays: dict[int, list[RayReach | None]] = {}
    loops: list[list[LoopGenerator]] = []
    for gens in generators:
        loops.append([])
        for g in gens:
            plain = not g.initial and g.en_passant is None and g.may_give_check \
                and not g.passed and g.mode & (CONVERT | STAYS) == 0 and g.limits is None
            if plain and SHORT_BITS < len(g.tables) <= 2 * SHORT_BITS \
                    and id(g.tables) not in words:
                words[id(g.tables)] = [word_reach(table) for table in g.tables]
            if id(g.tables) not in rays:
                rays[id(g.tables)] = [ray_reach(table) for table in g.tables]
            loops[-1].append(LoopGenerator(
                g.tables, g.mode, None if g.mode & MOVE else [span(table) for table in g.tables],
                None if plain else g, words.get(id(g.tables)) if plain else None,
                rays[id(g.tables)]))
    return loops


def _in_check_generator(component: Component, generator: Generator) -> Generator:
    """A generator as its side uses it in check: under `capture-checker`
    it only captures, and only a lone checking piece."""
    if component.flags.in_check != "capture-checker":
        return generator
    limits = generator.limits or Limits((), 0, ())
    return generator._replace(mode=generator.mode & (CAPTURE | STAYS),
                              limits=limits._replace(checkers_only=True))


def _barred(component: Component) -> tuple[int, ...]:
    """Piece codes, of both sides, that may not serve as the component's screens."""
    hop = component.flags.hop
    if hop is None:
        return ()
    return tuple(piece_code(t, side) for t in sorted(hop.barred) for side in range(2))


def _limits(component: Component, side: int) -> Limits | None:
    barred = _barred(component)
    immune = tuple(piece_code(t, 1 - side) for t in sorted(component.flags.cannot_capture))
    if not barred and not immune:
        return None
    return Limits(barred, component.shift, immune)


def _clock_kept(pieces: PieceSet, board: Board, resets_clock: list[bool],
                code: int) -> list[int] | None:
    """Per from-cell, the landing cells that only primitives declared
    `resets-clock: false` reach (moves there keep the clock running), or
    None when all of a piece's moves reset it."""
    comps = [pieces.components[ci] for ci in
             pieces.types[type_of(code)].components] if code >= 2 else []
    if not resets_clock[code] or all(c.flags.resets_clock for c in comps):
        return None
    side = code & 1
    kept = []
    for cell in range(board.size):
        quiet = loud = 0
        for comp in comps:
            reached = reach(comp.tables[side][cell], 1 << cell)
            if comp.flags.resets_clock:
                loud |= reached
            else:
                quiet |= reached
        kept.append(quiet & ~loud)
    return kept


def _victims(pieces: PieceSet, flags: Flags, side: int) -> tuple[int, ...]:
    """Enemy piece codes a suborn may convert: never a royal piece."""
    if not flags.mode & CONVERT:
        return ()
    return tuple(piece_code(t.index, 1 - side) for t in pieces.types
                 if not t.royal and (flags.suborn_types is None
                                     or t.index in flags.suborn_types))
