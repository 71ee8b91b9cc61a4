"""End rules that look at more than the position, against pyffish: shatar's
checkmate exceptions (the pieces giving the mate, the series of checks
before it), janggi's material count of drawn games and its perpetual-check
rule.  Each line is played through both, every position and result compared
(`fsf_oracle.Oracle.replay`), and the final outcome is asserted too."""

from __future__ import annotations

import pytest
from fsf_oracle import Oracle

import variantkit
from variantkit import Outcome
from variantkit.errors import VariantError

# Random games of shatar that end in each kind of mate (found by playing
# random moves with variantkit, then checked against pyffish here).
SHATAR_MATES = {
    # The mate is given by a knight alone: the side giving it loses.
    "knight": ("c1f4 c8d7 f4c1 g8h6 a2a3 b8a6 g2g3 d8b8 f2f3 h6g4 g1h3 d7e6 "
               "c1h6 b7b6 h6g5 g4h2 g3g4 a6c5 h3g1 e6g4 d1d3 c5b7 a3a4 e8d8 "
               "b2b3 g4c8 g5h6 b6b5 d3e4 d8d7 e4d5 b7d6 d5h5 d7e8 h6e3 c8f5 "
               "e1f2 f7f6 f2e1 e7e6 a4a5 g7g6 e3d2 g6h5 e1f2 a7a6 f2g2 b8b7 "
               "a1a4 e8d7 d2c3 b7b8 d4d5 h7h6 e2e3 f5g6 a4b4 c7c6 d5c6 d7c7 "
               "g2h2 d6e8 g1e2 h5h4 b4g4 c7d8 h2g1 f8g7 g4f4 d8c7 c3b2 h4h3 "
               "b2e5 c7c6 e5d6 c6b7 e2g3 g6f5 f4b4 b7c8 b1d2 c8d7 g1f2 d7c6 "
               "f2g1 h6h5 d2e4 h8g8 d6f4 c6d7 e4f6 d7c6 b4b5 e8f6 f1d3 h3h2 "
               "g1f1 g8h8 h1g1 f6e4 f4b8 e4f2 b8d6 f5e4 g3e4 a8d8 d3e2 g7f8 "
               "b3b4 d8c8 d6f8 f2g4 e2c4 h8g8 b5b8 g4h6 g1g2 e6e5 c4a6 g8g2 "
               "f8e7 c6c7 e7g5 g2c2 g5h4 c2c3 b4b5 c8f8 h4g3 f8d8 e4d2 c3c1 "
               "g3e1 c7d7 f1g2 d7c7 g2h1 c1b1 d2e4 d8f8 a6c8 b1a1 b8b6 h5h4 "
               "c8d7 f8a8 e4d2 a1a2 d2e4 c7d8 e4c3 h6f5 e1d2 h4h3 c3d5 a8c8 "
               "f3f4 f5d6 e3e4 c8c3 b6d6 e5f4 d7c8 d8e8 d2c3 a2a4 c3g7 a4b4 "
               "b5b6 e8f7 d6d7 f7g8 c8a6 b4a4 d5f6"),
    # A bishop gives the mate, and no check of the series before it was by a
    # knight, rook or bers: a draw.
    "bishop alone": ("f2f3 g8f6 c2c3 c8f5 g2g3 b8a6 c1g5 d8d6 e1d2 h7h6 f1g2 "
                     "h8h7 g2h3 d6c5 g5h4 c5d6 f3f4 f5g4 h3g2 a8b8 e2e3 d6c5 "
                     "g2f1 b8d8 c3c4 g4f3 d2c1 b7b6 g1h3 a6b8 b2b3 b8c6 d4c5 "
                     "c6d4 e3d4 d5c4 h3g5 a7a6 g5e4 h7h8 a2a3 d8d4 b1d2 d4d3 "
                     "a3a4 d3d2 d1c2 e8d7 e4d2 f6e4 f1h3 d7d8 a4a5 h8g8 h3f1 "
                     "d8d7 c1b2 e4d6 f1h3 d7c6 a1f1 c4b3 h3g2 c6d7 f1c1 d7c8 "
                     "h1f1 c7c6 b2b3 c8c7 b3b4 d6e8 c1d1 h6h5 c2b1 f3g4 f1f2 "
                     "g7g6 c5b6 c7d6 d2c4 d6e6 b6b7 g4h3 g2h3"),
    # A bishop gives the mate after a series of checks that included one by a
    # rook, knight or bers: the mate wins.
    "after a series": ("c1e3 g8f6 e3d2 b8d7 a2a3 e7e6 b1c3 b7b6 c3b5 f8a3 d2a5 "
                       "f6h5 b2a3 e8f8 a1c1 c8b7 c1a1 g7g6 a5b6 b7c8 e2e3 f8e8 "
                       "d1e2 d8e7 e2f3 h5f4 e1d2 c7c6 d2e1 f4h5 e3e4 c6c5 e4d5 "
                       "d7e5 f3b3 e7d7 a1a2 c8b7 a2b2 e5c4 b5a7 d7c8 b3b5 c8b8 "
                       "b6c5 c4b6 b5b6 h8f8 b2b5 a8a7 f1d3 e8d7 b6a5 h5f4 b5b4 "
                       "d7c7 d3g6 a7a6 g6e4 a6a8 b4b5 f7f6 d5e6 f4d3 e1e2 b7d5 "
                       "c5b6 c7b7 b5b4 b8d8 e2d2 d8b8 d2c3 d3c1 b4b2 a8a7 b6a7 "
                       "c1b3 c2b3 b8a8 a5a6 b7a6 e4b1 d5g2 g1h3 g2f1 b1c2 f8e8 "
                       "c2d3 a6a5 h3g1 a8b7 f2f3 b7a6 d3e2 f1h3 b2b1 h3f1 b1b2 "
                       "e8b8 e2d3 b8b7 b2c2 a6b5 f3f4 b7b6 d3g6 b5h5 a7b6 a5b6 "
                       "c2f2 h7h6 g6d3 f1h3 f2f3 h5g4 b3b4 b6c6 c3b3 g4f4 f3g3 "
                       "h6h5 g3g7 c6b6 d3c2 h5h4 g1f3 f4g4 e6e7 b6b5 d4d5 g4g2 "
                       "h1d1 g2d2 d1c1 d2d5 g7h7 b5b6 h7f7 d5e5 c1e1 e5d5 e1g1 "
                       "d5e4 g1a1 e4f3 b3a2 h3d7 b4b5 f3d3 c2b3 d3h3 f7f6 b6a7 "
                       "b3g8 h3h2 a2b3 a7b7 e7e8j b7a7 f6f5 h2d2 a1h1 d2d3 b3b2 "
                       "d3c2 b2a1 d7c8 h1f1 c2c1 a1a2 a7a8 f5h5 c1c3 f1f5 c3e3 "
                       "g8c4 e3c3 f5e5 c3e3 c4b3 a8b8 b3f7 b8c7 h5h4 c8g4 e5d5 "
                       "e3f4 h4g4 f4g4 e8e4 g4f3 e4c4 c7b7 c4c3 f3g3 f7e6 b7b6 "
                       "e6f7 b6a5 b5b6 a5a4 f7e8"),
}


def shatar_line(name: str) -> list[str]:
    return SHATAR_MATES[name].split()


def test_a_mate_by_a_knight_alone_loses_for_the_side_giving_it() -> None:
    line = shatar_line("knight")
    outcome = Oracle("shatar").replay(line)
    mated = "white" if len(line) % 2 == 0 else "black"
    assert outcome == Outcome(mated, "checkmate")


def test_a_mate_after_a_series_with_a_rook_knight_or_bers_check_wins() -> None:
    line = shatar_line("after a series")
    outcome = Oracle("shatar").replay(line)
    assert outcome == Outcome("white" if len(line) % 2 else "black", "checkmate")


def test_a_mate_without_a_check_by_knight_rook_or_bers_draws() -> None:
    assert Oracle("shatar").replay(shatar_line("bishop alone")) == Outcome(None, "checkmate")


# Janggi positions: the generals alone with one white chariot that checks
# along ranks 10 and 9 while the black general steps between f10 and f9.
CHECKING_CHARIOT = "5k3/9/9/9/9/9/9/9/4K4/7R1 w - - 0 1"
PERPETUAL = ["h1h10", "f10f9", "h10h9", "f9f10", "h9h10", "f10f9", "h10h9", "f9f10", "h9h10"]
# Both sides shuffle a horse: the start position occurs three times.
SHUFFLE = ["b1c3", "b10c8", "c3b1", "c8b10", "b1c3", "b10c8", "c3b1", "c8b10"]


def test_janggi_gives_a_drawn_repetition_to_black_on_equal_material() -> None:
    assert Oracle("janggi").replay(SHUFFLE) == Outcome("black", "repetition")


# Two passes in a row end janggi; the side ahead on points wins, Black
# with 1.5 points on top of its pieces.
DOUBLE_PASS = [
    ("3k5/9/9/9/9/9/9/9/4K4/1N7 w - - 0 1", "white"),     # a horse up: 5 against 1.5
    ("3k5/9/9/9/9/9/4P4/9/4K4/9 w - - 0 1", "white"),     # a soldier up: 2 against 1.5
    ("3k5/1n7/9/9/9/9/9/9/4K4/1N7 w - - 0 1", "black"),   # equal material: a horse each
    ("3k5/9/9/9/9/9/4p4/9/3AK4/9 w - - 0 1", "black"),    # a guard against a soldier
]


@pytest.mark.parametrize(("fen", "winner"), DOUBLE_PASS)
def test_janggi_decides_a_double_pass_by_points(fen: str, winner: str) -> None:
    assert Oracle("janggi").replay(["e2e2", "d10d10"], fen) == Outcome(winner, "double-pass")


@pytest.mark.parametrize("name", ["janggi", "janggicasual", "janggitraditional"])
def test_janggi_perpetual_check_loses(name: str) -> None:
    assert Oracle(name).replay(PERPETUAL, CHECKING_CHARIOT) == Outcome("black", "repetition")


def test_janggicasual_keeps_the_drawn_repetition() -> None:
    assert Oracle("janggicasual").replay(SHUFFLE) == Outcome(None, "repetition")


def test_unknown_pieces_in_the_new_end_rules_are_located() -> None:
    with pytest.raises(VariantError) as caught:
        variantkit.load_text(
            "variantkit: 1\nname: t\ninherits: janggicasual\n"
            "end:\n  draws-decided-by:\n    points: {dragon: 3}\n"
            "  checkmate-exceptions:\n    - {given-only-by: [unicorn], result: win}\n"
            "  shuttle: {pieces: [wyvern], result: loss}\n")
    messages = [str(p) for p in caught.value.problems]
    for name in ("dragon", "unicorn", "wyvern"):
        assert any(f"unknown piece '{name}'" in m and ":" in m for m in messages), messages


def test_janggi_decides_bikjang_by_points() -> None:
    # The generals face each other on the e-file; Black passes instead of
    # breaking it, and the game goes to the side ahead: White, a horse up.
    fen = "4k4/9/9/9/9/9/9/9/3K5/1N7 w - - 0 1"
    assert Oracle("janggi").replay(["d2e2", "e10e10"], fen) == Outcome("white", "facing-pass")


def test_janggimodern_decides_a_fourfold_repetition_by_points() -> None:
    # The guards shuffle (a guard cannot reach the enemy palace, so this is
    # not the shuffling that Fairy-Stockfish's modern rules punish).
    line = ["d1d2", "d10d9", "d2d1", "d9d10"] * 3
    game_before = Oracle("janggimodern").replay(line[:-1])
    assert game_before is None
    assert Oracle("janggimodern").replay(line) == Outcome("black", "repetition")


# Spartan lines from random games: a Spartan king is left attacked and
# taken, then a hoplite promotes to a second king again; and a mate of both
# Spartan kings at once.
SPARTAN_PROMOTION = ("b1c3 c7b6 g1h3 e7f6 b2b4 d8d6 h3g5 f7h5 e2e3 d7c6 c1a3 "
                    "f6e5 c3a4 e8e7 b4b5 h7g6 g5f3 f8f7 a4b6 e7c7 d1b1 e5f4 "
                    "a3d6 f7e8 h2h4 g8h7 f3h2 g7h6 d6f4 a7c5 b6c8 g6f5 d2d3 "
                    "c6d5 b1d1 b7c6 h2f3 c7b7 f1e2 h7f6 f4c7 h6g5 c7a5 f6c3 "
                    "a5c3 b7d7 h4g5 h8g7 c3e5 b8c7 e5c7 d7f7 f3d2 g7h6 h1h5 "
                    "f7d7 c8e7 d7e7 c7d8 e7g7 e2f1 g7g8 d2e4 g8g6 h5h4 e8d7 "
                    "e4c3 a8b7 h4b4 h6f8 c3d5 d7c8 d5f4 f8g7 f4h3 g7e5 c2c3 "
                    "f5e4 d1g4 c8d8 b4b1 b7a8 g4c8 d8c8 a2a3 c8c7 d3d4 g6f6 "
                    "a3a4 f6e6 a4a5 c7d6 c3c4 e5f5 e1d2 f5h3 d2e2 e6g6 e2d2 "
                    "g6g8 f2f4 h3g4 f1d3 e4f3 d2c1 g4f5 a1a3 a8b8 d3f5 f3e2 "
                    "d4d5 e2d1k")
SPARTAN_MATE = ("f2f3 g7h6 a2a3 d8d6 h2h3 d6f6 a3a4 e7c5 d2d4 b7a6 c1g5 g8e7 "
               "g5d2 b8b7 e2e3 e7f5 b2b3 h7g6 f3f4 f5h3 g1e2 h3g5 h1h6 h8g7 "
               "e1f2 g5h3 f2e1 c7e5 h6h4 f7d5 d2a5 f6d6 f4f5 d6b6 b1d2 d5c4 "
               "d2f3 e8g8 f3h2 f8f7 a5d2 b6d6 h4h8 d6b6 d2c3 g8f8 f5g6 a6b5 "
               "c3d2 b7a6 d4e5 f8g8 c2c3 h3f5 d2c1 c4d3 a4b5 f5e7 h8h3 d7c6 "
               "e2d4 b6b7 b5a6 g8g6 d1h5 g6g5 d4c2 e7d8 h5h7 b7d7 h3h4 d3e2 "
               "e1d2 d8e7 a1a5 g5g3 h4h3 f7f6 d2e2 c8c7 a5c5 f6e5 b3b4 e7h4 "
               "c2d4 d7d5 e2d2 h4f6 c3c4 g3f3 d4e6 f3f2 d2d1 f6e4 c5a5 c7b8 "
               "a5c5 e5f4 e6d8 f4e5 h7f5 d5d4 f1d3 g7h8 f5d7 h8g7 d1c2 d4b4 "
               "c1a3 g7f6 d7g4 f6e6 c2b1 b4b5 h2f3 e5d6 c5d5 b5a5 g4e6 e4f6 "
               "d5b5 a8b7 b1c1 a5a4 e6f7 f6g4 h3h8 g4e6 f3h4 c6d5 c1c2 f2f1 "
               "f7b7 a4b4 h8g8 e6f5 b5d5")


def test_spartan_loses_a_king_and_promotes_to_a_new_one() -> None:
    line = SPARTAN_PROMOTION.split()
    assert line[-1].endswith("k")
    game = variantkit.load("spartan").new_game()
    kings = []
    for move in line:
        game.push(move)
        kings.append(game.fen().split()[0].count("k"))
    assert 1 in kings and kings[-1] == 2
    assert Oracle("spartan").replay(line) is None


def test_spartan_mate_attacks_both_kings() -> None:
    line = SPARTAN_MATE.split()
    assert Oracle("spartan").replay(line) == Outcome("white", "checkmate")
    game = variantkit.load("spartan").new_game()
    for move in line:
        game.push(move)
    assert game.fen().split()[0].count("k") == 2 and game.is_check()


def test_spartan_promotes_to_a_king_only_while_one_is_left() -> None:
    # Two Spartan kings: the hoplite on b2 may not become a third.
    oracle = Oracle("spartan")
    two = "4k3/8/8/8/8/1k6/1h6/7K b - - 0 1"
    promotions = {m for m in oracle.compare(oracle.variant.new_game(two), two)
                  if m.startswith("b2")}
    assert promotions and not any(m.endswith("k") for m in promotions)
    one = "8/8/8/8/8/1k6/1h6/7K b - - 0 1"
    assert "b2c1k" in oracle.compare(oracle.variant.new_game(one), one)


# Janggi's modern rules: a side that shuttles one piece loses.  The guards
# shuffle on the other side (the shuttle rule does not watch them).
GUARDS = ["d10d9", "d9d10"] * 3
SHUTTLES = [
    # Arrival on c3, then four horse moves back and forth.
    (["b1c3", "c3b1", "b1c3", "c3b1", "b1c3"], "black"),
    # A pass may stand in the shuttle once (then it needs one move more).
    (["b1c3", "c3b1", "b1c3", "c3b1", "e2e2", "b1c3"], "black"),
    # Four moves only: the game goes on.
    (["b1c3", "c3b1", "b1c3", "c3b1"], None),
]


@pytest.mark.parametrize(("white", "winner"), SHUTTLES)
def test_janggimodern_shuttling_a_piece_loses(white: list[str], winner: str | None) -> None:
    line = [move for pair in zip(white, GUARDS, strict=False) for move in pair][:2 * len(white) - 1]
    outcome = Oracle("janggimodern").replay(line)
    assert outcome == (None if winner is None else Outcome(winner, "shuttle"))


def test_janggimodern_shuttle_starts_with_a_move_that_captures_nothing() -> None:
    # A soldier takes the soldier on c7, then shuttles c7-b7: the capture
    # cannot begin the shuttle, so it loses one move later than it would.
    white = ["c4c5", "c5c6", "c6c7", "c7b7", "b7c7", "c7b7", "b7c7", "c7b7"]
    line = [move for pair in zip(white, GUARDS * 2, strict=False) for move in pair]
    assert Oracle("janggimodern").replay(line[:13]) is None
    assert Oracle("janggimodern").replay(line[:15]) == Outcome("black", "shuttle")


def test_bikjang_allows_a_pass_in_check() -> None:
    # Black is in check and the generals face each other: it may pass
    # (ending the game), but not block the check without breaking the
    # facing.  Under casual rules it must answer the check.
    fen = "1C2k3r/5a3/5a2n/1pp4Pp/2pc1b3/5PPN1/2b6/2N1K1R2/2cA1r2R/2B1C1B2 b - - 9 42"
    for name, passes in (("janggitraditional", True), ("janggi", True), ("janggicasual", False)):
        oracle = Oracle(name)
        moves = oracle.compare(oracle.variant.new_game(fen), fen)
        assert ("e10e10" in moves) == passes


def test_spartan_bare_kings_play_on() -> None:
    fen = "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
    assert Oracle("spartan").replay(["e1d1", "e8d8"], fen) is None
