"""The rules that keep a game's strongest pieces from being traded off
(`lion-trading:`), as chu shogi has them for its lions:

- `counter-strike: forbidden`: after a lion is taken by a piece that is
  not a lion, the reply may not take a lion with a piece that is not one;
- `protected-from-afar: forbidden`: a lion may take a lion that does not
  stand next to it only where no enemy move could take it back on that
  cell afterwards, unless the move first took on its way a piece not listed
  in `bridge-excludes` (chu's pawn and go-between: a "bridge" of any other
  piece makes the capture allowed whatever protects the lion).

A lion next to the capturing lion may always be taken.  Compiled into the
lion codes, the excluded codes and each cell's neighbours; the general
position holds back the captures the rules forbid."""

from __future__ import annotations

from typing import Literal, NamedTuple, TypedDict

from variantkit.board import Board
from variantkit.pieces import PieceSet, piece_code
from variantkit.rulebook.sink import Sink

Allowed = Literal["allowed", "forbidden"]


# `lion-trading:` as the schema admits it (its keys have dashes, hence the
# functional form).
LionTradingDeclaration = TypedDict("LionTradingDeclaration", {
    "pieces": list[str],
    "counter-strike": Allowed,
    "protected-from-afar": Allowed,
    "bridge-excludes": list[str],
}, total=False)


class LionTrading(NamedTuple):
    """The lion-trading rules as the general position plays them."""

    lion: list[bool]          # per piece code: one of the protected pieces
    excluded: list[bool]      # per piece code: a capture on the way that frees nothing
    counter_strike: bool      # forbidden after a lion is taken by a non-lion
    from_afar: bool           # a protected lion not next to the lion may not be taken
    neighbours: list[int]     # per cell, the cells one step away in any direction

    @property
    def any(self) -> bool:
        return self.counter_strike or self.from_afar


NO_LION_TRADING = LionTrading([], [], False, False, [])


def needs_general(trading: LionTrading) -> bool:
    """Whether these rules need the general position (`core.general`)."""
    return trading.any


def compile_lion_trading(sink: Sink, spec: LionTradingDeclaration | None, board: Board,
                         pieces: PieceSet, n_codes: int) -> LionTrading:
    """The `lion-trading:` section as a record; NO_LION_TRADING without one."""
    if spec is None:
        return NO_LION_TRADING
    lions = sink.kinds(pieces, ("lion-trading", "pieces"), spec.get("pieces", []))
    excluded = sink.kinds(pieces, ("lion-trading", "bridge-excludes"),
                          spec.get("bridge-excludes", []))
    lion = [False] * n_codes
    free = [False] * n_codes
    for side in range(2):
        for kind in lions:
            lion[piece_code(kind, side)] = True
        for kind in excluded:
            free[piece_code(kind, side)] = True
    topo = board.topology
    neighbours = [board.mask([ray[0] for way in topo.directions("all", None)
                              for ray in board.rays(cell, way) if ray])
                  for cell in range(board.size)]
    return LionTrading(lion, free, spec.get("counter-strike") == "forbidden",
                       spec.get("protected-from-afar") == "forbidden", neighbours)
