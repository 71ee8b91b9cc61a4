"""The royal pieces (`royals:`, `royal-facing:`, `may-give-check:`): one
per side or any number, which of them check counts against, whether they
may face each other along open lines, and whether a move may give check."""

from __future__ import annotations

from functools import partial
from typing import Literal, NamedTuple, Required, TypedDict

from variantkit.board import DirectionsDeclaration
from variantkit.pieces import Component, Context, line_attack
from variantkit.rulebook.sink import Sink

# `royals:` as the schema admits it (`per-side` is not a name, hence the
# functional form).
RoyalsDeclaration = TypedDict("RoyalsDeclaration", {
    "per-side": Literal["one", "any"],
    "check": Literal["any", "all", "last"],
    "last": int,
}, total=False)


class RoyalFacingDeclaration(TypedDict, total=False):
    """`royal-facing:`."""

    lines: Required[DirectionsDeclaration]
    rule: Literal["forbidden", "must-break"]


# The keys of the declaration this family reads.
RoyalsKeys = TypedDict("RoyalsKeys", {
    "royals": RoyalsDeclaration,
    "royal-facing": RoyalFacingDeclaration,
    "may-give-check": bool,
}, total=False)


class Royals(NamedTuple):
    """What being royal means in this variant."""

    one_royal: bool      # `per-side: one`
    check_all: bool      # check is given only when every royal piece is attacked
    # `check: last`: royal pieces count for check only while a side has at
    # most this many (`last:`, 1 unless given); 0 under the other rules.
    check_last: int
    facing: Component | None   # the lines along which royal pieces may not face
    # "forbidden": no move may leave the royal pieces facing (the flying
    # general); "must-break": a move may bring them face to face, and the
    # opponent must then break it or pass (janggi's bikjang).
    facing_rule: str
    may_give_check: bool   # `may-give-check: false`: no move may give check

    @property
    def facing_must_break(self) -> bool:
        """Whether the royal pieces may face, the other side then breaking it."""
        return self.facing is not None and self.facing_rule == "must-break"


def needs_general(royals: Royals) -> bool:
    """Whether these rules need the general position (`core.general`):
    several royal pieces, or moves that may not give check."""
    return not royals.one_royal or not royals.may_give_check


def compile_royals(sink: Sink, data: RoyalsKeys, context: Context) -> Royals:
    """`royals:`, `royal-facing:` (its lines compiled like a capture-only
    ride) and `may-give-check:`."""
    royals = data.get("royals", {})
    one_royal = royals.get("per-side", "one") == "one"
    check_all = royals.get("check", "any") == "all"
    check_last = royals.get("last", 1) if royals.get("check", "any") == "last" else 0
    if (check_all or check_last) and one_royal:
        sink.report(("royals", "check"), f"`check: {royals['check']}` needs `per-side: any`: with "
                 f"one royal piece per side, any and {royals['check']} are the same",
                 "bad-royals")
    if "last" in royals and not check_last:
        sink.report(("royals", "last"), "`last` counts the royal pieces of `check: last`: "
                    "write `check: last` with it", "bad-royals")
    facing = data.get("royal-facing")
    lines = None if facing is None else sink.located(
        ("royal-facing", "lines"), partial(line_attack, context, facing["lines"]))
    return Royals(one_royal, check_all, check_last, lines,
                  "forbidden" if facing is None else facing.get("rule", "forbidden"),
                  bool(data.get("may-give-check", True)))
