"""The compiled rules of a variant: the record the position core plays by.

`compile_rules` hands each part of a loaded declaration to its rule family
in `variantkit.rulebook` (board, sides, setup, pieces, royals, codes,
promotion, hands, castling, end rules, flips, passing, captures, capture effects,
movement conditions, swaps, walls, transfer, aims, first
moves, gating, turns, keys, and the drawing's look), in an order
where each family finds what it reads already built.  `Rules` keeps each
family's record whole, beside the board, the pieces and the setup; every
problem a family finds is reported, located, through one `Sink`.

This stage comes before the position core, which takes a `Rules` and
derives what its hot path reads from the records; the public `Variant`
(`variantkit.variant`) holds one.  Adding a rule family is adding a module
to `variantkit.rulebook` and its key to `rulebook.declaration`, one call and
one field here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast, final

from variantkit.board import Board
from variantkit.errors import VariantError
from variantkit.limits import Budget
from variantkit.loader import Document
from variantkit.pieces import Context, PieceSet, compile_pieces, piece_code
from variantkit.rulebook import (
    aims,
    board_regions,
    capture_effects,
    capture_modes,
    captures,
    castling,
    codes,
    drop_fall,
    end,
    first_moves,
    flips,
    gating,
    hands,
    hashing,
    lion_trading,
    look,
    move_conditions,
    passing,
    promotion,
    remote_captures,
    roster,
    royals,
    setup,
    sides,
    swaps,
    transfer,
    turns,
    two_steps,
    walls,
)
from variantkit.rulebook.aims import Aims
from variantkit.rulebook.capture_effects import CaptureEffects
from variantkit.rulebook.captures import Captures
from variantkit.rulebook.castling import Castlings
from variantkit.rulebook.codes import Codes, Words, empty_board_reach
from variantkit.rulebook.declaration import VariantDeclaration
from variantkit.rulebook.drop_fall import DropFall
from variantkit.rulebook.end import EndRules
from variantkit.rulebook.first_moves import FirstMove
from variantkit.rulebook.gating import Gating
from variantkit.rulebook.hands import Hands
from variantkit.rulebook.hashing import Keys
from variantkit.rulebook.lion_trading import LionTrading
from variantkit.rulebook.look import Look
from variantkit.rulebook.move_conditions import MoveConditions
from variantkit.rulebook.notation import Notation, compile_notation
from variantkit.rulebook.passing import Passing
from variantkit.rulebook.promotion import Promotions
from variantkit.rulebook.royals import Royals
from variantkit.rulebook.setup import Setup
from variantkit.rulebook.sink import Sink
from variantkit.rulebook.swaps import Swaps
from variantkit.rulebook.transfer import Transfer
from variantkit.rulebook.turns import Turns
from variantkit.rulebook.two_steps import TwoSteps
from variantkit.rulebook.walls import Walling
from variantkit.tables import CaptureModes, FlipRule


@final
@dataclass(frozen=True, eq=False)
class Rules:
    """A variant's compiled rules: board, pieces, setup, and one record per
    rule family (see each family's module in `variantkit.rulebook`).  Two
    records are equal only when they are one (a variant's rules are
    compared, and hashed, by identity)."""

    name: str
    board: Board
    pieces: PieceSet
    forwards: list[str | None]      # per side, its forward direction (`sides`)
    letter_codes: dict[str, int]    # FEN letter -> piece code (`roster`)
    setup: Setup
    royals: Royals
    look: Look
    codes: Codes
    promotion: Promotions
    words: Words
    hands: Hands
    drop_fall: DropFall
    castling: Castlings
    notation: Notation
    end: EndRules
    flips: FlipRule | None          # None: no piece turns over
    passing: Passing
    captures: Captures
    capture_effects: CaptureEffects
    move_conditions: MoveConditions
    swaps: Swaps                    # pieces changing places with enemy ones (`swaps:`)
    capture_modes: CaptureModes     # captures beyond replacement, freezing (`capture-by:`)
    two_steps: TwoSteps
    lion_trading: LionTrading
    walls: Walling | None           # None: no move puts a wall
    transfer: Transfer              # pieces crossing to another layer (`transfer:`)
    aims: Aims
    first_moves: FirstMove
    gating: Gating
    turns: Turns                    # moves a turn (`turns:`)
    keys: Keys
    # Whether the rules go beyond one royal piece per side and plain
    # captures, played by the general position (`variantkit.core.general`):
    # so some family's `needs_general` says.
    general: bool
    # Whether a family besides the royal rule needs the general position
    # (so a game of several royal pieces and otherwise plain rules does not).
    general_beyond_royals: bool
    # The piece codes whose "not moved yet" status tells positions apart
    # for repetition (`FirstMove.unmoved_codes`).
    unmoved_codes: list[int]

    def letter_of_code(self, code: int) -> str:
        """The FEN letter of a piece code (uppercase for White)."""
        return roster.letter_of(self.pieces, code)

    def code_of_letter(self, letter: str) -> int | None:
        """The piece code of a FEN letter, or None."""
        return self.letter_codes.get(letter)

    def promotion_suffix(self, code: int, mover: int = 0) -> str:
        """How a promotion to this piece ends a move string: its lowercase
        letter, or `+` for a promoted form (`+P`), as Fairy-Stockfish writes
        shogi-style promotions; `-` when the piece that moves (`mover`) is
        the promoted form of it, going back (kyoto shogi's `+L` to `L`)."""
        letter = self.letter_of_code(code)
        if mover and self.letter_of_code(mover) == "+" + letter:
            return "-"
        return letter.lower()[0]

    def empty_board_reach(self, code: int, cell: int, initial: bool = True) -> int:
        """Cells a piece (by code) reaches from `cell` with nothing else on
        the board; `initial=False` leaves out its first-move-only moves."""
        return empty_board_reach(self.codes.generators, code, cell, initial)

    def __repr__(self) -> str:
        return f"<Rules {self.name}>"


def compile_rules(document: Document, sink: Sink, budget: Budget | None = None) -> Rules:
    """The rules of a loaded declaration.  Problems go to `sink`; a board
    that does not build raises VariantError, since nothing else can be."""
    # The loader has checked the declaration against the schema.
    data = cast(VariantDeclaration, document.data)
    board = sink.located(("board",), lambda: board_regions.compile_board(sink, data["board"]))
    if board is None:
        raise VariantError(sink.problems)
    declared_sides = data.get("sides", {})
    forwards = sides.forwards(sink, board, declared_sides)
    declared = data["pieces"]
    letter_codes = roster.letter_codes(declared)
    start = setup.compile_setup(sink, data, board, letter_codes)
    royal_piece_codes = {piece_code(i, side) for i, spec in enumerate(declared.values())
                         if spec.get("royal") for side in range(2)}
    royal_start: list[int | None] = [None, None]
    for cell, code in start.cells.items():
        if code in royal_piece_codes:
            royal_start[code & 1] = cell
    if budget is not None and budget.source is None:
        budget.source = document.file
    context = Context(board=board, forwards=forwards, royal_start=royal_start,
                      turned=sides.turned(sink, board, declared_sides, forwards),
                      piece_index={name: i for i, name in enumerate(declared)},
                      budget=budget or Budget(source=document.file))
    roster.check_size(sink, declared)
    pieces = compile_pieces(context, declared, sink.located)

    royalty = royals.compile_royals(sink, data, context)
    roster.check_pieces(sink, declared, pieces, royalty.one_royal)
    board_regions.warn_ambiguous_names(sink, board, list(letter_codes))
    drawn = look.compile_look(sink, data.get("look"), board, pieces)
    compiled = codes.compile_codes(pieces, board, royalty.facing, royalty.facing_rule)
    promoting = promotion.compile_promotion(sink, data.get("promotion"), board, pieces,
                                            forwards, royalty.one_royal, compiled.generators)
    held = hands.compile_hands(sink, data, board, pieces, forwards, start.fen)
    falling = drop_fall.compile_drops_moving(sink, data, board)
    castles = castling.compile_castling(sink, data, board, pieces, start.cells,
                                        compiled.royal_code, royalty.one_royal)
    notation = compile_notation(sink, data.get("notation"), board, pieces, forwards)
    ending = end.compile_end(sink, data.get("end", {}), board, pieces, castles.rights)
    flipping = flips.compile_flips(sink, data.get("flips"), board, pieces, held.has_hands)
    passes = passing.compile_passing(data.get("pass"))
    taking = captures.compile_captures(sink, data, board, pieces, compiled.royal_code,
                                       start.hole_mark)
    effects = capture_effects.compile_capture_effects(
        sink, data.get("capture-effects"), board, pieces, start.cells, compiled.n_codes,
        held.captures_to_hand)
    conditions = move_conditions.compile_move_conditions(
        sink, data.get("move-conditions"), board, pieces, compiled.royal_code)
    swapping = swaps.compile_swaps(
        sink, data.get("swaps"), pieces, start.cells,
        {code for c in castles.castlings for code in (c.king_code, c.rook_code)},
        compiled.n_codes)
    remote = capture_modes.compile_capture_modes(sink, declared, board, pieces,
                                                 compiled.n_codes, context)
    stepping = two_steps.compile_two_steps(sink, data["pieces"], list(data), board, pieces,
                                           forwards, compiled.n_codes, promoting.by_code)
    remote_captures.check_remote_captures(sink, declared, list(data))
    trading = lion_trading.compile_lion_trading(sink, data.get("lion-trading"), board, pieces,
                                                compiled.n_codes)
    walling = walls.compile_walls(sink, data.get("walls"), board, start.hole_mark)
    crossing = transfer.compile_transfer(sink, data.get("transfer"), board, list(data))
    aiming = aims.compile_aims(sink, declared, pieces)
    codes.check_in_check(sink, declared, compiled, royalty.one_royal, bool(taking.blast))
    first = first_moves.compile_first_moves(
        sink, data.get("first-move"), data.get("position-string", {}).get("initial-rights", []),
        board, pieces)
    gates = gating.compile_gating(sink, data.get("gating"), board, "hands" in data)
    turning = turns.compile_turns(sink, data.get("turns"))
    zobrist = hashing.compile_keys(compiled.n_codes, board.size, ending.check_limit,
                                held.has_hands)
    beyond_royals = (captures.needs_general(taking)
                     or end.needs_general(ending) or flips.needs_general(flipping)
                     or passing.needs_general(passes) or aims.needs_general(aiming)
                     or walls.needs_general(walling)
                     or capture_effects.needs_general(effects)
                     or transfer.needs_general(crossing)
                     or move_conditions.needs_general(conditions)
                     or swaps.needs_general(swapping)
                     or capture_modes.needs_general(remote)
                     or two_steps.needs_general(stepping)
                     or promotion.needs_general(promoting)
                     or lion_trading.needs_general(trading)
                     or turns.needs_general(turning))
    return Rules(
        name=data["name"], board=board, pieces=pieces, forwards=forwards,
        letter_codes=letter_codes, setup=start, royals=royalty, look=drawn, codes=compiled,
        promotion=promoting,
        words=codes.compile_words(compiled, board.size, promoting.promotions, first.rule),
        hands=held, drop_fall=falling, castling=castles, notation=notation, end=ending,
        flips=flipping, passing=passes, captures=taking, capture_effects=effects,
        move_conditions=conditions, swaps=swapping,
        capture_modes=remote,
        two_steps=stepping, lion_trading=trading,
        walls=walling, transfer=crossing, aims=aiming,
        first_moves=first, gating=gates, turns=turning, keys=zobrist,
        general=royals.needs_general(royalty) or beyond_royals,
        general_beyond_royals=beyond_royals,
        unmoved_codes=first.unmoved_codes(compiled.n_codes, compiled.unmoved_codes))
