"""What a capture does beyond taking a piece: blast-proof pieces (atomar's
kings) survive explosions, their own capture's included."""

from __future__ import annotations

from pathlib import Path

import variantkit


def test_a_blast_proof_king_survives_its_own_capture() -> None:
    game = variantkit.load("atomar").new_game("8/8/8/8/8/3k4/3p4/4K3 w - - 0 1")
    game.push("e1d2")
    assert game.fen().split()[0] == "8/8/8/8/8/3k4/3K4/8"


def test_a_king_may_not_capture_the_other_king() -> None:
    game = variantkit.load("atomar").new_game("8/8/8/8/8/8/3k4/4K3 w - - 0 1")
    assert "e1d2" not in game.legal_moves
    assert "e1d2" in variantkit.load("nocheckatomic").new_game(game.fen()).legal_moves


def test_the_capturer_explodes_unless_blast_proof() -> None:
    fen = "8/8/8/8/8/8/3kr3/3QK3 w - - 0 1"
    game = variantkit.load("atomar").new_game(fen)
    game.push("d1e2")
    assert game.fen().split()[0] == "8/8/8/8/8/8/3k4/4K3"


def test_a_capturing_piece_turns_into_a_wall_and_back() -> None:
    game = variantkit.load("petrified").new_game("4k3/8/8/8/8/8/3p4/4KN2 w - - 0 1")
    before, key = game.fen(), game.position.hash
    game.push("f1d2")
    assert game.fen() == "4k3/8/8/8/8/8/3*4/4K3 b - - 0 1"
    again = variantkit.load("petrified").new_game(game.fen())
    assert again.fen() == game.fen() and again.position.walls == game.position.walls
    game.pop()
    assert game.fen() == before and not game.position.walls and game.position.hash == key


def test_a_wall_stops_riders_and_is_never_captured() -> None:
    game = variantkit.load("petrified").new_game("4k3/8/8/8/8/8/3*4/3RK3 w - - 0 1")
    from_rook = {str(m) for m in game.legal_moves if str(m).startswith("d1")}
    assert from_rook == {"d1a1", "d1b1", "d1c1"}


def test_a_piece_promoting_by_capture_petrifies_only_if_the_mover_does() -> None:
    game = variantkit.load("petrified").new_game("n3k3/1P6/8/8/8/8/8/4K3 w - - 0 1")
    game.push("b7a8q")
    assert game.fen().startswith("Q3k3/")


def test_a_king_that_would_petrify_neither_captures_nor_guards() -> None:
    game = variantkit.load("petrified").new_game("4k3/8/8/8/8/8/3p4/4K3 w - - 0 1")
    assert "e1d2" not in game.legal_moves
    beside = variantkit.load("petrified").new_game("8/8/8/8/3k4/8/3K4/8 w - - 0 1")
    assert "d2d3" in beside.legal_moves
    beside.push("d2d3")
    assert beside.is_check()   # shown as check, as Fairy-Stockfish shows it


def test_walls_are_drawn() -> None:
    game = variantkit.load("petrified").new_game("4k3/8/8/8/8/8/3*4/4K3 b - - 0 1")
    assert str(game).splitlines()[6] == "2 . . . * . . . ."
    assert 'data-wall="d2"' in game.svg()


def test_a_blast_and_a_petrification_both_happen(tmp_path: Path) -> None:
    # Atomic chess whose queens turn to stone: the blast clears the cells
    # around the capture, then the queen's cell becomes a wall.
    path = tmp_path / "stone.yaml"
    path.write_text("variantkit: 1\nname: stone\ninherits: atomic\npetrify: [queen]\n"
                    "position-string: {holes: '*'}\n", encoding="utf-8")
    game = variantkit.load(str(path)).new_game("4k3/8/8/8/8/2n5/3rb3/3Q3K w - - 0 1")
    before, key = game.fen(), game.position.hash
    game.push("d1d2")
    assert game.fen().split()[0] == "4k3/8/8/8/8/8/3*4/7K"
    game.pop()
    assert game.fen() == before and not game.position.walls and game.position.hash == key
