"""The whole declaration as the schema admits it: `VariantDeclaration`,
each top-level key typed by the declaration type of the family that reads
it (`schemas/variant.schema.json` is the contract, the loader its check).

A family that reads several top-level keys takes a part of this mapping
typed by its own `...Keys` TypedDict (`SetupKeys`, `HandsKeys`, ...); mypy
checks that `VariantDeclaration` agrees with each of them where
`variantkit.rules.compile_rules` hands it over.  The loader itself, the
pipeline's first stage, cannot name these types (they come from later
stages), so its `Document.data` stays a plain mapping, read here as one.
"""

from __future__ import annotations

from typing import Literal, Required, TypedDict

from variantkit.betza import PieceDeclaration
from variantkit.board import BoardDeclaration
from variantkit.rulebook.capture_effects import CaptureEffectsDeclaration
from variantkit.rulebook.captures import ExplosionDeclaration
from variantkit.rulebook.castling import CastlingDeclaration
from variantkit.rulebook.end import EndDeclaration
from variantkit.rulebook.first_moves import FirstMoveDeclaration
from variantkit.rulebook.flips import FlipsDeclaration
from variantkit.rulebook.gating import GatingDeclaration
from variantkit.rulebook.hands import HandsDeclaration
from variantkit.rulebook.lion_trading import LionTradingDeclaration
from variantkit.rulebook.look import LookDeclaration
from variantkit.rulebook.move_conditions import MoveConditionsDeclaration
from variantkit.rulebook.notation import NotationDeclaration
from variantkit.rulebook.promotion import PromotionDeclaration
from variantkit.rulebook.royals import RoyalFacingDeclaration, RoyalsDeclaration
from variantkit.rulebook.setup import NumberedSetupsDeclaration, PositionStringDeclaration
from variantkit.rulebook.sides import SidesDeclaration
from variantkit.rulebook.swaps import SwapsDeclaration
from variantkit.rulebook.transfer import TransferDeclaration
from variantkit.rulebook.turns import TurnsDeclaration
from variantkit.rulebook.walls import WallsDeclaration

# `remove:` (a parent's entries a child file deletes): a list of keys at
# its level, or a mapping one level down.
Removal = list[str] | dict[str, "Removal"]

# The keys are not all names, hence the functional form.
VariantDeclaration = TypedDict("VariantDeclaration", {
    "variantkit": Required[Literal[1]],
    "name": Required[str],
    "description": str,
    "inherits": str,
    "remove": Removal,
    "board": Required[BoardDeclaration],
    "sides": SidesDeclaration,
    "pieces": Required[dict[str, PieceDeclaration]],   # piece name -> its declaration
    "setup": Required[str],
    "numbered-setups": NumberedSetupsDeclaration,
    "free-castling": bool,
    "promotion": PromotionDeclaration,
    "castling": list[CastlingDeclaration],
    "end": EndDeclaration,
    "royals": RoyalsDeclaration,
    "royal-facing": RoyalFacingDeclaration,
    "may-give-check": bool,
    "hands": HandsDeclaration,
    "must-capture": bool,
    "pass": Literal["when-no-move"],
    "flips": FlipsDeclaration,
    "walls": WallsDeclaration,
    "petrify": list[str],
    "capture-effects": CaptureEffectsDeclaration,
    "move-conditions": MoveConditionsDeclaration,
    "swaps": SwapsDeclaration,
    "transfer": TransferDeclaration,
    "lion-trading": LionTradingDeclaration,
    "turns": TurnsDeclaration,
    "explosion": ExplosionDeclaration,
    "first-move": FirstMoveDeclaration,
    "position-string": PositionStringDeclaration,
    "notation": NotationDeclaration,
    "look": LookDeclaration,
    "gating": GatingDeclaration,
}, total=False)
