"""The table of Fairy-Stockfish's ini keys: which ones the importer turns into
YAML, which ones change nothing a game plays, and which ones the language
cannot express.

Facts only: the key names, Fairy-Stockfish's defaults and the moves of its
built-in piece types in Betza notation.  `known(key)` tells a key
Fairy-Stockfish reads from a misspelt one (which it would silently ignore).
docs/fsf.md gives the same table for people.
"""

from __future__ import annotations

import difflib
import re
from typing import Any

# Fairy-Stockfish's built-in piece types in its type order (the order it
# writes a hand in, last first), with their moves.  `pawn` is Fairy-Stockfish's
# special pawn: its double step, en passant and promotion come from other keys.
PIECE_TYPES: dict[str, str] = {
    "pawn": "fmWfceF", "knight": "N", "bishop": "B", "rook": "R", "queen": "Q",
    "fers": "F", "alfil": "A", "fersAlfil": "FA", "silver": "FfW", "aiwok": "RNF",
    "bers": "RF", "archbishop": "BN", "chancellor": "RN", "amazon": "QN",
    "knibis": "mNcB", "biskni": "mBcN", "kniroo": "mNcR", "rookni": "mRcN",
    "shogiPawn": "fW", "lance": "fR", "shogiKnight": "fN", "gold": "WfF",
    "dragonHorse": "BW", "clobber": "cW", "breakthrough": "fmWfF", "immobile": "",
    "cannon": "mRcpR", "janggiCannon": "pR", "soldier": "fsW", "horse": "nN",
    "elephant": "nA", "janggiElephant": "nZ", "banner": "RcpRnN", "wazir": "W",
    "commoner": "K", "centaur": "KN",
}
CUSTOM_PIECES = 25           # customPiece1 .. customPiece25
CUSTOM = re.compile(r"customPiece([1-9]|1[0-9]|2[0-5])")
# Built-in types whose moves depend on more than their Betza (the janggi
# cannon's screens): never a piece's type for its Betza alone.  The importer
# writes the janggi cannon's moves out (`WRITTEN_OUT`); the others are not
# supported when defined.  The immobile type has no moves at all (`moves: []`).
# (The janggi elephant is its `nZ`: measured equal in 4,000 random positions.)
# The soldier (`fsW`) keeps to its file short of `soldierPromotionRank`
# (counted from each side's own edge): see the importer's soldier_moves.
SPECIAL_TYPES = frozenset({"janggiCannon", "banner", "clobber", "breakthrough"})
WRITTEN_OUT = frozenset({"janggiCannon"})
GLYPHS = {"king": "king", "queen": "queen", "rook": "rook", "bishop": "bishop",
          "knight": "knight", "pawn": "pawn", "archbishop": "archbishop",
          "chancellor": "chancellor", "amazon": "amazon", "cannon": "cannon",
          "horse": "horse"}


def type_order(name: str) -> int:
    """A piece type's place in Fairy-Stockfish's order (custom pieces after
    the built-in ones, the king last)."""
    if name == "king":
        return 10_000
    match = CUSTOM.fullmatch(name)
    if match:
        return len(PIECE_TYPES) + int(match.group(1))
    return list(PIECE_TYPES).index(name)


def is_piece_key(key: str) -> bool:
    return key in PIECE_TYPES or key == "king" or CUSTOM.fullmatch(key) is not None


# Keys the importer turns into YAML (see importer.py, one handler each).
SUPPORTED = frozenset({
    "maxRank", "maxFile", "startFen", "pawnTypes",
    "wallingRule", "wallingRegionWhite", "wallingRegionBlack", "wallOrMove",
    "promotionRegionWhite", "promotionRegionBlack", "promotionPieceTypes",
    "promotionPieceTypesWhite", "promotionPieceTypesBlack", "promotionPawnTypes",
    "promotionLimit",
    "promotedPieceType", "mandatoryPawnPromotion", "mandatoryPiecePromotion",
    "doubleStep", "doubleStepRegionWhite", "doubleStepRegionBlack",
    "tripleStepRegionWhite", "tripleStepRegionBlack", "enPassantTypes",
    "castling", "castlingKingsideFile", "castlingQueensideFile", "castlingKingFile",
    "castlingRookPieces", "castlingRank", "oppositeCastling",
    "pieceDrops", "capturesToHand", "dropRegionWhite", "dropRegionBlack",
    "firstRankPawnDrops", "promotionZonePawnDrops", "dropNoDoubled", "dropNoDoubledCount",
    "dropChecks", "mustCapture", "mustDrop", "shogiPawnDropMateIllegal",
    "nMoveRule", "nFoldRule", "nFoldValue", "perpetualCheckIllegal",
    "stalemateValue", "checkmateValue", "stalematePieceCount", "passOnStalemate",
    "enclosingDrop", "enclosingDropStart", "flipEnclosedPieces", "freeDrops",
    "extinctionValue", "extinctionPieceTypes", "extinctionPieceCount",
    "extinctionPseudoRoyal",
    "flagPiece", "flagRegion", "flagRegionWhite", "flagRegionBlack", "flagPieceSafe",
    "flagPieceCount", "connectN", "connectPieceTypes", "connectHorizontal", "connectVertical",
    "connectDiagonal", "connectValue",
    "checkCounting", "blastOnCapture", "blastImmuneTypes", "flyingGeneral",
    "immobilityIllegal", "nMoveRuleTypes", "nMoveRuleTypesWhite", "nMoveRuleTypesBlack",
    "promotionPawnTypesWhite", "promotionPawnTypesBlack", "castlingWins", "flagMove",
    "checking",
    "flagPieceBlockedWin", "connectNxN", "collinearN", "connectRegion1White",
    "connectRegion2White", "connectRegion1Black", "connectRegion2Black",
    "soldierPromotionRank", "pieceDemotion", "piecePromotionOnCapture", "dropPromoted",
    "extinctionOpponentPieceCount", "materialCounting", "petrifyOnCaptureTypes",
    "enPassantRegion", "dropLoop", "adjudicateFullBoard", "diagonalLines", "countingRule",
    "gating", "seirawanGating", "chess960", "pass",
})
# Keys that change nothing the rules decide: how a GUI or the engine's
# evaluation sees the game.  Read and dropped, with no warning.
NO_EFFECT = frozenset({
    "variantTemplate", "pieceToCharTable", "pocketSize", "pieceValueMg", "pieceValueEg",
    "nnueAlias",
})
# Every other key Fairy-Stockfish reads: the language has no form for it (or
# the importer does not translate it yet).  A section using one is not written.
UNSUPPORTED = frozenset({
    "twoBoards", "castlingKingPiece", "flagPieceWhite", "flagPieceBlack",
    "sittuyinPromotion",
    "mutuallyImmuneTypes", "petrifyBlastPieces", "enPassantRegionWhite", "enPassantRegionBlack",
    "enPassantTypesWhite", "enPassantTypesBlack", "castlingDroppedPiece",
    "castlingKingPieceWhite", "castlingKingPieceBlack", "castlingRookKingsideFile",
    "castlingRookQueensideFile", "castlingRookPiecesWhite", "castlingRookPiecesBlack",
    "mustDropType", "sittuyinRookDrop",
    "dropOppositeColoredBishop", "wallingRegion",
    "cambodianMoves", "passWhite",
    "passBlack", "passOnStalemateWhite", "passOnStalemateBlack",
    "makpongRule", "nFoldValueAbsolute",
    "moveRepetitionIllegal", "chasingRule",
    "shatarMateRule", "bikjangRule", "extinctionClaim",
    "dupleCheck",
    # Older spellings Fairy-Stockfish still reads.
    "promotionRank", "doubleStepRank", "doubleStepRankMin", "whiteFlag", "blackFlag",
    "castlingRookPiece", "whiteDropRegion", "blackDropRegion", "dropOnTop",
})
# `capture-effects` (Rifle to AntiCirce, Einstein's `becomes`, Take&Make's `makes`) has no
# key: Fairy-Stockfish lacks those rules (its pieces change type only by promoting on a
# region, and its moves have one step).
# `transfer` (Alice chess) has none either: Fairy-Stockfish has one board, without
# planes, and no move of its moves a piece to another board.
# `move-conditions` (Madrasi, Monochrome, Bichrome, Patrol) has no key either:
# Fairy-Stockfish has no paralysis, cell-colour or observation conditions.
# `capture-by` and `freezes` (Ultima's captures and immobilizer) have no key either.
# `swaps` (Messigny chess) have none either: no Fairy-Stockfish move lets two
# pieces of different sides change places.
# `two-step` moves (chu shogi's lion) have none either: the exporter writes no
# Betza for them (this project reads no `a`) and refuses a piece that has one;
# nor have chu shogi's promotion zone (`from-inside: by-capture`) and
# `lion-trading` a key.
# A remote capture (`remote: true` on a move: Dragonchess's dragon) has none
# either: Fairy-Stockfish's captures all land the capturer on the cell taken.
# `capture-effects` (Rifle to AntiCirce) has no key: Fairy-Stockfish lacks those rules;
# nor `turns` (Marseillais, Progressive chess): its sides make one move a turn.
MOBILITY = re.compile(r"mobilityRegion(White|Black)([A-Z][A-Za-z0-9_]*)")


# Fairy-Stockfish's counting rules (`countingRule`) as `end: counting`, the
# pieces named by Fairy-Stockfish type (the khon is its `silver`): the
# counts its makruk, cambodian and asean rules give, as the bundled makruk,
# cambodian and asean declare and pyffish plays them.
def _limits(counts: list[tuple[dict[str, int], int]], last: int | None) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = [{"pieces": pieces, "moves": moves} for pieces, moves in counts]
    return rows + ([{"moves": last}] if last is not None else [])


COUNTING_RULES: dict[str, dict[str, Any]] = {
    "makruk": {"pawns": ["pawn"], "board": {"moves": 64},
               "bare": {"limits": _limits([({"rook": 2}, 8), ({"rook": 1}, 16), ({"silver": 2}, 22),
                                           ({"knight": 2}, 32), ({"silver": 1}, 44)], 64),
                        "last-pawn": True}},
    "cambodian": {"pawns": ["pawn"], "board": {"moves": 63, "most-pieces": 3, "with-pawns": True},
                  "bare": {"limits": _limits([({"rook": 2}, 7), ({"rook": 1}, 15),
                                              ({"silver": 2}, 21), ({"knight": 2}, 31),
                                              ({"silver": 1}, 43)], 63),
                           "last-pawn": True}},
    "asean": {"pawns": ["pawn"],
              "bare": {"limits": _limits([({"rook": 1}, 16), ({"silver": 1}, 44),
                                          ({"knight": 1}, 64)], None), "start": "zero"}},
}


# Fairy-Stockfish 11.1, Debian's package (`apt install fairy-stockfish`):
# the keys its variant parser reads (besides the piece types, all of
# PIECE_TYPES and `king`, their mobility regions and the lists
# promotionPieceTypes, promotionLimit, promotedPieceType and
# extinctionPieceTypes).  It has no custom pieces: a section with one
# crashes it on the piece's letter in the start position.
LEGACY_VERSION = "11.1"
LEGACY_KEYS = frozenset({
    "variantTemplate", "pieceToCharTable", "pocketSize", "maxRank", "maxFile", "chess960",
    "twoBoards", "startFen", "promotionRank", "promotionPieceTypes", "sittuyinPromotion",
    "promotionLimit", "promotedPieceType", "piecePromotionOnCapture", "mandatoryPawnPromotion",
    "mandatoryPiecePromotion", "pieceDemotion", "endgameEval", "doubleStep", "doubleStepRank",
    "firstRankDoubleSteps", "castling", "castlingDroppedPiece", "castlingKingsideFile",
    "castlingQueensideFile", "castlingRank", "castlingRookPiece", "kingType", "checking",
    "dropChecks", "mustCapture", "mustDrop", "mustDropType", "pieceDrops", "dropLoop",
    "capturesToHand", "firstRankPawnDrops", "promotionZonePawnDrops", "dropOnTop",
    "whiteDropRegion", "blackDropRegion", "sittuyinRookDrop", "dropOppositeColoredBishop",
    "dropPromoted", "shogiDoubledPawn", "immobilityIllegal", "gating", "seirawanGating",
    "cambodianMoves", "diagonalLines", "kingPass", "kingPassOnStalemate", "makpongRule",
    "flyingGeneral", "soldierPromotionRank", "nMoveRule", "nFoldRule", "nFoldValue",
    "nFoldValueAbsolute", "perpetualCheckIllegal", "stalemateValue", "checkmateValue",
    "shogiPawnDropMateIllegal", "shatarMateRule", "bikjangRule", "extinctionValue",
    "extinctionClaim", "extinctionPieceTypes", "extinctionPieceCount",
    "extinctionOpponentPieceCount", "flagPiece", "whiteFlag", "blackFlag", "flagMove",
    "checkCounting", "connectN", "materialCounting", "countingRule",
})
# Values of those keys that 11.1 does not know.
LEGACY_VALUES = {"materialCounting": frozenset({"none", "unweighted", "janggi"}),
                 "countingRule": frozenset({"none", "makruk", "asean"})}
# Keys 11.1 reads under an older name, the same value.
LEGACY_NAMES = {"dropRegionWhite": "whiteDropRegion", "dropRegionBlack": "blackDropRegion",
                "flagRegionWhite": "whiteFlag", "flagRegionBlack": "blackFlag",
                "pass": "kingPass", "passOnStalemate": "kingPassOnStalemate"}


def known(key: str) -> bool:
    """Whether Fairy-Stockfish reads `key` at all (a key it does not read is
    ignored by it without a word: most likely a misspelling)."""
    if key in SUPPORTED or key in NO_EFFECT or key in UNSUPPORTED or is_piece_key(key):
        return True
    match = MOBILITY.fullmatch(key)
    if match is None:
        return False
    piece = match.group(2)[0].lower() + match.group(2)[1:]
    return is_piece_key(piece)


def suggestion(key: str) -> str | None:
    """The known key a misspelt one most likely meant, if any is close."""
    names = sorted(SUPPORTED | NO_EFFECT | UNSUPPORTED | set(PIECE_TYPES) | {"king"})
    close = difflib.get_close_matches(key, names, n=1, cutoff=0.8)
    return close[0] if close else None


# What a bundled variant's Fairy-Stockfish definition sets differently from
# Fairy-Stockfish's defaults, for the keys the importer reads back when a
# section changes them (written as ini values).  A bundled parent missing
# here can still be inherited; a section that changes one of these rules of
# it is then reported as not supported.
CHESS: dict[str, str] = {}
PARENTS: dict[str, dict[str, str]] = {
    "chess": CHESS,
    "nocastle": {"castling": "false"},
    "crazyhouse": {"pieceDrops": "true", "capturesToHand": "true"},
    "3check": {"checkCounting": "true"},
    "5check": {"checkCounting": "true"},
    "kingofthehill": {"flagPiece": "k", "flagRegionWhite": "d4 e4 d5 e5",
                      "flagRegionBlack": "d4 e4 d5 e5"},
    "losalamos": {"maxRank": "6", "maxFile": "f", "doubleStep": "false", "castling": "false",
                  "promotionRegionWhite": "*6", "promotionRegionBlack": "*1",
                  "promotionPieceTypes": "nrq", "bishop": "-"},
    "gardner": {"maxRank": "5", "maxFile": "e", "doubleStep": "false", "castling": "false",
                "promotionRegionWhite": "*5", "promotionRegionBlack": "*1"},
    "capablanca": {"maxFile": "j", "archbishop": "a", "chancellor": "c",
                   "castlingKingsideFile": "i", "castlingQueensideFile": "c",
                   "promotionPieceTypes": "acqrbn"},
    "janus": {"maxFile": "j", "archbishop": "j", "castlingKingsideFile": "i",
              "castlingQueensideFile": "b", "promotionPieceTypes": "jqrbn"},
}
PARENTS["breakthrough"] = {"pawn": "-", "knight": "-", "bishop": "-", "rook": "-",
                           "queen": "-", "king": "-", "breakthrough": "p", "castling": "false",
                           "doubleStep": "false", "promotionPieceTypes": "-", "flagPiece": "p",
                           "flagRegionWhite": "*8", "flagRegionBlack": "*1",
                           "stalemateValue": "loss"}
GIVEAWAY = {"king": "-", "commoner": "k", "castlingKingPiece": "k",
            "promotionPieceTypes": "kqrbn", "stalemateValue": "win", "extinctionValue": "win",
            "extinctionPieceTypes": "*", "mustCapture": "true"}
PARENTS["giveaway"] = GIVEAWAY
PARENTS["antichess"] = {**GIVEAWAY, "castling": "false"}
PARENTS["extinction"] = {"king": "-", "commoner": "k", "castlingKingPiece": "k",
                         "promotionPieceTypes": "kqrbn", "extinctionValue": "loss",
                         "extinctionPieceTypes": "kqrbnp"}
PARENTS["nocheckatomic"] = {"king": "-", "commoner": "k", "castlingKingPiece": "k",
                            "extinctionValue": "loss", "extinctionPieceTypes": "k",
                            "blastOnCapture": "true"}
PARENTS["atomic"] = {**PARENTS["nocheckatomic"], "extinctionPseudoRoyal": "true"}
PARENTS["placement"] = {"pieceDrops": "true", "capturesToHand": "false", "mustDrop": "true",
                        "dropRegionWhite": "*1", "dropRegionBlack": "*8",
                        "castlingDroppedPiece": "true", "dropOppositeColoredBishop": "true"}
# The bundled games with walls (`walls:`): no chess pieces, one piece a
# side that moves but never captures, and a side without a move loses.
NO_PIECES = {"pawn": "-", "knight": "-", "bishop": "-", "rook": "-", "queen": "-",
             "king": "-", "castling": "false", "doubleStep": "false",
             "promotionPieceTypes": "-", "stalemateValue": "loss"}
PARENTS["amazons"] = {**NO_PIECES, "maxRank": "10", "maxFile": "j", "customPiece1": "q:mQ",
                      "wallingRule": "arrow"}
PARENTS["snailtrail"] = {**NO_PIECES, "maxRank": "7", "maxFile": "g", "customPiece1": "p:mK",
                         "wallingRule": "past"}
# The bundled games whose pieces turn over (`flips:`), each piece a disc
# or stone that never captures; the side with more of them wins.
FLIPS = {**NO_PIECES, "pieceDrops": "true", "passOnStalemate": "true",
         "stalematePieceCount": "true", "materialCounting": "unweighted",
         "adjudicateFullBoard": "true"}
PARENTS["flipello"] = {**FLIPS, "immobile": "p", "enclosingDrop": "reversi",
                       "flipEnclosedPieces": "reversi", "enclosingDropStart": "d4 e4 d5 e5",
                       "startFen": "8/8/8/3pP3/3Pp3/8/8/8[" + "P" * 30 + "p" * 30 + "] w 0 1"}
PARENTS["ataxx"] = {**FLIPS, "maxRank": "7", "maxFile": "g", "customPiece1": "p:mDmNmA",
                    "enclosingDrop": "ataxx", "flipEnclosedPieces": "ataxx", "freeDrops": "true",
                    "startFen": "P5p/7/7/7/7/7/p5P w 0 1"}
PARENTS["pocketknight"] = {"pieceDrops": "true", "capturesToHand": "false"}
PARENTS["amazon"] = {"queen": "-", "amazon": "a", "promotionPieceTypes": "arbn"}
PARENTS["grand"] = {"maxRank": "10", "maxFile": "j", "archbishop": "a", "chancellor": "c",
                    "promotionRegionWhite": "*8 *9 *10", "promotionRegionBlack": "*1 *2 *3",
                    "promotionPieceTypes": "qcarbn", "promotionLimit": "q:1 c:1 a:1 r:2 b:2 n:2",
                    "mandatoryPawnPromotion": "false", "immobilityIllegal": "true",
                    "doubleStepRegionWhite": "*3", "doubleStepRegionBlack": "*8",
                    "castling": "false"}
PARENTS["makruk"] = {"bishop": "-", "queen": "-", "silver": "s", "fers": "m",
                     "promotionRegionWhite": "*6 *7 *8", "promotionRegionBlack": "*1 *2 *3",
                     "promotionPieceTypes": "m", "doubleStep": "false", "castling": "false",
                     "nMoveRule": "0", "countingRule": "makruk"}
# Xiangqi and janggi: no chess pieces; the king and the advisor kept to
# their palace, xiangqi's elephant to its own half (mobility regions).
PALACES = {"mobilityRegionWhiteKing": "d1 e1 f1 d2 e2 f2 d3 e3 f3",
           "mobilityRegionBlackKing": "d8 e8 f8 d9 e9 f9 d10 e10 f10"}
NO_CHESS_PIECES = {"pawn": "-", "knight": "-", "bishop": "-", "queen": "-",
                   "maxRank": "10", "maxFile": "i", "rook": "r", "horse": "n", "soldier": "p",
                   "promotionPieceTypes": "-", "doubleStep": "false", "castling": "false"}
PARENTS["xiangqi"] = {**NO_CHESS_PIECES, "elephant": "b", "fers": "a", "cannon": "c",
                      **PALACES, "mobilityRegionWhiteFers": PALACES["mobilityRegionWhiteKing"],
                      "mobilityRegionBlackFers": PALACES["mobilityRegionBlackKing"],
                      "mobilityRegionWhiteElephant": "*1 *2 *3 *4 *5",
                      "mobilityRegionBlackElephant": "*6 *7 *8 *9 *10",
                      "soldierPromotionRank": "6", "flyingGeneral": "true",
                      "stalemateValue": "loss", "perpetualCheckIllegal": "true"}
PARENTS["janggi"] = {**NO_CHESS_PIECES, "janggiElephant": "b", "wazir": "a",
                     "janggiCannon": "c", **PALACES,
                     "mobilityRegionWhiteWazir": PALACES["mobilityRegionWhiteKing"],
                     "mobilityRegionBlackWazir": PALACES["mobilityRegionBlackKing"],
                     "soldierPromotionRank": "1", "bikjangRule": "true", "pass": "true",
                     "materialCounting": "janggi", "perpetualCheckIllegal": "true",
                     "nMoveRule": "0"}
# The small shogi boards: shogi's pawn, silver and gold (and minishogi's
# rook and bishop, with the types their promoted forms take), promotion
# where a piece would otherwise be stuck, drops without a second pawn on a
# file or a mate by a dropped pawn, fourfold repetition.
SHOGI = {"pawn": "-", "knight": "-", "bishop": "-", "rook": "-", "queen": "-",
         "shogiPawn": "p", "silver": "s", "gold": "g", "promotionPieceTypes": "-",
         "doubleStep": "false", "castling": "false", "pieceDrops": "true",
         "capturesToHand": "true", "dropNoDoubled": "p", "immobilityIllegal": "true",
         "shogiPawnDropMateIllegal": "true", "stalemateValue": "loss", "nFoldRule": "4",
         "nMoveRule": "0", "perpetualCheckIllegal": "true"}
PARENTS["gorogoro"] = {**SHOGI, "maxRank": "6", "maxFile": "e",
                       "promotionRegionWhite": "*5 *6", "promotionRegionBlack": "*1 *2",
                       "promotedPieceType": "p:g s:g"}
PARENTS["minishogi"] = {**SHOGI, "maxRank": "5", "maxFile": "e", "bishop": "b", "rook": "r",
                        "dragonHorse": "h", "bers": "d", "promotionRegionWhite": "*5",
                        "promotionRegionBlack": "*1", "promotedPieceType": "p:g s:g b:h r:d"}
# Shogi itself: the lance and the knight besides, its zone the far three
# ranks, pawns dropped into the zone too.
PARENTS["shogi"] = {**SHOGI, "maxRank": "9", "maxFile": "i", "bishop": "b", "rook": "r",
                    "lance": "l", "shogiKnight": "n", "dragonHorse": "h", "bers": "d",
                    "promotionRegionWhite": "*7 *8 *9", "promotionRegionBlack": "*1 *2 *3",
                    "promotionZonePawnDrops": "true",
                    "promotedPieceType": "p:g l:g n:g s:g b:h r:d"}
