"""The parts of an analysis that need no cluster: games from seeds, the
statistics and the report's page."""

from __future__ import annotations

import math

import pytest

import variantkit
from variantkit.analysis import tournament
from variantkit.analysis.payload import variant_text
from variantkit.analysis.perft import split
from variantkit.analysis.report import render_report
from variantkit.analysis.stats import material_values, summarize, wilson
from variantkit.analysis.tournament import GameRecord, Settings, play_game

LOSALAMOS = variantkit.load("losalamos")
TEXT = variant_text(LOSALAMOS)
SETTINGS = Settings(games=3, depth=1, random_plies=4, max_plies=60, seed=11)


def test_a_game_is_a_function_of_its_seed() -> None:
    first, again = play_game(TEXT, 1, SETTINGS), play_game(TEXT, 1, SETTINGS)
    other = play_game(TEXT, 2, SETTINGS)
    assert first == again and first.seed == "11/1"
    assert first.moves[:4] != other.moves[:4]
    assert len(first.branching) == len(first.movers) == len(first.captured) == len(first.moves)
    assert len(first.material) == len(first.moves) - SETTINGS.random_plies


def test_a_game_that_raises_comes_back_with_its_seed_and_moves(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []

    def failing(self: object, game: variantkit.Game, **_: object) -> variantkit.Move:
        calls.append(game.plies)
        if len(calls) > 3:
            raise RuntimeError("engine broke")
        return game.legal_moves()[0]

    monkeypatch.setattr(tournament.Engine, "best_move", failing)
    record = play_game(TEXT, 0, SETTINGS)
    assert record.lost and record.seed == "11/0" and len(record.moves) == 7
    assert record.error is not None and record.error.startswith("RuntimeError: engine broke")
    monkeypatch.undo()
    summary = summarize(LOSALAMOS, SETTINGS, [record, play_game(TEXT, 1, SETTINGS)])
    assert summary["played"] == 1
    (lost,) = summary["lost"]
    assert lost["moves"] == record.moves and lost["seed"] == "11/0"


def test_wilson_interval() -> None:
    low, high = wilson(7, 10)   # the textbook example: 0.397 to 0.892
    assert math.isclose(low, 0.3968, abs_tol=1e-3) and math.isclose(high, 0.8922, abs_tol=1e-3)
    assert wilson(0, 0) == [0.0, 1.0]


def test_material_values_favour_the_piece_that_wins_games() -> None:
    """Synthetic games: whoever is a queen up wins, a knight up draws."""
    games = []
    for i in range(40):
        queen, knight = [(1, 0), (-1, 0), (0, 1), (0, -1)][i % 4]
        winner = {1: "white", -1: "black"}.get(queen)
        games.append(GameRecord(i, str(i), moves=["x"] * 4, winner=winner,
                                material=[[queen, 0, knight, 0]] * 4))
    values = material_values(LOSALAMOS, games)["values"]
    assert values["queen"]["value"] > 5 * abs(values["knight"]["value"])
    assert values["rook"]["value"] is None   # never unbalanced: no estimate


def test_split_covers_the_tree_in_move_order() -> None:
    game = variantkit.load("chess").new_game()
    prefixes = split(game, 4, 100)
    assert len(prefixes) == 400 and prefixes == sorted(prefixes)
    assert split(game, 1, 100) == [()]
    assert game.plies == 0


def test_the_report_is_one_self_contained_page() -> None:
    records = [play_game(TEXT, i, SETTINGS) for i in range(3)]
    page = render_report([summarize(LOSALAMOS, SETTINGS, records, interrupted=True)], "PGN<&>")
    assert page.startswith("<!DOCTYPE html>") and page.count("<svg") == 5
    assert "PGN&lt;&amp;&gt;" in page and "The run was stopped" in page
    assert "src=" not in page and "<script" not in page and "<metadata" not in page


def test_a_report_of_no_games_draws_without_complaint(recwarn: pytest.WarningsRecorder) -> None:
    """Ctrl-C before the first game finishes still writes a report."""
    page = render_report([summarize(LOSALAMOS, SETTINGS, [], interrupted=True)])
    assert "3 of 3 games were not played" in page
    assert not [w for w in recwarn if "legend" in str(w.message)]
