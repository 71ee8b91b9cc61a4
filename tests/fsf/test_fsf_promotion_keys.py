"""The promotion keys of Fairy-Stockfish's ini format, both ways: what the
importer writes for pieceDemotion, dropPromoted, piecePromotionOnCapture,
soldierPromotionRank and a parent's promotedPieceType, what it refuses, and
the keys the exporter writes back.  Whether the games play as pyffish plays
them is tests/fsf/test_fsf_import.py's work (tests/data/fsf/promotions.ini) and
tests/fsf/test_fsf_export.py's (kyotoshogi, micro)."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

import variantkit
from variantkit.fsf import ExportRefused, export_ini, import_ini

TURNING = """\
[turning]
maxRank = 5
maxFile = e
king = k
shogiPawn = p
rook = r
promotionPieceTypes = -
promotedPieceType = p:r
promotionRegionWhite = *4 *5
promotionRegionBlack = *1 *2
mandatoryPiecePromotion = true
pieceDemotion = true
pieceDrops = true
capturesToHand = true
dropPromoted = true
castling = false
startFen = 2k2/5/2p2/2P2/2K2[] w - - 0 1
"""


def imported(text: str, name: str) -> dict[str, Any]:
    result = import_ini(text)[name]
    assert isinstance(result, str), result
    data = yaml.safe_load(result)
    assert isinstance(data, dict)
    return data


def test_a_promoted_form_turns_back_and_drops_either_side_up() -> None:
    data = imported(TURNING, "turning")
    assert data["promotion"]["promotes-to"] == {"shogi-pawn": "shogi-pawn-promoted",
                                                "shogi-pawn-promoted": "shogi-pawn"}
    assert data["pieces"]["shogi-pawn"]["drops"]["also-as"] == ["shogi-pawn-promoted"]
    # A promoted pawn in its zone must turn back on its move (`-`), out of
    # the zone it stays; a pawn in hand drops either side up.
    variant = variantkit.load_text(yaml.safe_dump(data), "turning.yaml")
    moves = {str(m) for m in variant.new_game("k4/5/2+P2/5/K4[P] w - - 0 1").legal_moves()}
    assert {"c3c4-", "c3c5-", "P@b2", "+P@b2"} <= moves
    assert not {"c3c4", "c3c2-"} & moves
    assert "c3c2" in moves


def test_promotion_by_capture_alone_is_refused_for_the_pawns_own_form() -> None:
    text = TURNING.replace("shogiPawn = p", "pawn = p\ndoubleStep = false") + \
        "piecePromotionOnCapture = true\n"
    result = import_ini(text)["turning"]
    assert isinstance(result, list)
    assert [(p.line, p.message) for p in result] == \
        [(19, "piecePromotionOnCapture with a promoted form of the pawn: not supported")]


def test_promotion_by_capture_alone_is_on_capture_for_the_other_pieces() -> None:
    data = imported(TURNING + "piecePromotionOnCapture = true\n", "turning")
    assert data["promotion"]["on-capture"] is True


def test_a_promoted_piece_type_is_read_over_the_parents() -> None:
    # gorogoro's p:g s:g: `s:-` takes the silver's promotion away, and
    # the pawn's stays.
    data = imported("[goro:gorogoro]\npromotedPieceType = s:-\n", "goro")
    assert data["promotion"]["promotes-to"] == {"pawn": "pawn-promoted"}
    assert "silver-promoted" not in data["pieces"]


def test_the_soldier_steps_sideways_from_its_rank_counted_from_its_own_edge() -> None:
    data = imported("[river:xiangqi]\nsoldierPromotionRank = 4\n", "river")
    moves = data["pieces"]["soldier"]["moves"]
    regions = data["board"]["regions"]
    sideways = moves[1]["from-region"]
    assert regions[sideways["white"]] == {"ranks": [4, 5, 6, 7, 8, 9, 10]}
    assert regions[sideways["black"]] == {"ranks": [1, 2, 3, 4, 5, 6, 7]}


@pytest.mark.parametrize(("name", "keys"), [
    ("kyotoshogi", ["pieceDemotion = true", "dropPromoted = true"]),
    ("micro", ["pieceDemotion = true", "piecePromotionOnCapture = true",
               "dropPromoted = true"]),
])
def test_turning_pieces_export_with_their_keys(name: str, keys: list[str]) -> None:
    lines = export_ini(name).splitlines()
    assert all(key in lines for key in keys)


def test_a_form_that_turns_back_beside_one_that_does_not_is_refused() -> None:
    text = TURNING.replace("promotedPieceType = p:r", "bishop = b\npromotedPieceType = p:r b:r")
    data = imported(text, "turning")
    data["promotion"]["promotes-to"].pop("shogi-pawn-promoted")
    variant = variantkit.load_text(yaml.safe_dump(data), "turning.yaml")
    with pytest.raises(ExportRefused) as refused:
        export_ini(variant)
    assert any("pieceDemotion turns back every one" in r for r in refused.value.reasons)
