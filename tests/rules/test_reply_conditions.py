"""`reply: true` on an end condition: only the side to move meets it, so a
side that meets it with its move wins only if it still does after the other
side's reply (jeson mor's centre cell).  Hand-made positions worked out from
the rule; test_fsf_catalogue.py holds `jesonmor` to Fairy-Stockfish."""

from __future__ import annotations

import pytest

import variantkit
from variantkit import Outcome, VariantError
from variantkit.loader import resolve

# Two knights of White against one of Black, who can take e5 from f7.
BEFORE = "4n4/9/5n3/9/9/9/3N5/9/4N4 w - - 0 1"


def test_the_side_that_reaches_the_centre_waits_for_the_reply() -> None:
    game = variantkit.load("jesonmor").new_game(BEFORE)
    game.push("d3e5")
    assert game.outcome() is None
    assert "f7e5" in {str(m) for m in game.legal_moves()}
    game.push("e9d7")                  # Black lets the knight stay
    assert game.outcome() == Outcome("white", "region")
    assert game.legal_moves() == []


def test_a_reply_that_captures_the_knight_saves_the_game() -> None:
    game = variantkit.load("jesonmor").new_game(BEFORE)
    game.push("d3e5")
    game.push("f7e5")                  # Black takes it, and now stands there
    assert game.outcome() is None
    game.push("e1d3")                  # White cannot take back: Black holds e5
    assert game.outcome() == Outcome("black", "region")


def test_without_reply_the_move_that_reaches_it_wins() -> None:
    text = (resolve("jesonmor").read_text()
            .replace(", reply: true", "").replace("name: jesonmor", "name: centre"))
    game = variantkit.load_text(text).new_game(BEFORE)
    game.push("d3e5")
    assert game.outcome() == Outcome("white", "region")


def test_reply_and_answer_exclude_each_other() -> None:
    text = (resolve("jesonmor").read_text()
            .replace("reply: true", "reply: true, answer: draw"))
    with pytest.raises(VariantError, match="`answer` and `reply` exclude each other"):
        variantkit.load_text(text)
