"""Tests of `variantkit play` and `variantkit selfplay`, fed through piped
input: moves, bad entries, commands, the end of the game, PGN files."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner, Result

from variantkit.cli import cli
from variantkit.pgn import parse_pgn, read_games, read_pgn

MATE_IN_ONE = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"


def run(*args: str, input: str | None = None) -> Result:
    result = CliRunner().invoke(cli, list(args), input=input)
    assert "Traceback" not in result.output
    return result


def test_scripted_game(tmp_path: Path) -> None:
    pgn = tmp_path / "game.pgn"
    entries = ["e2e5", "e2", "e7e8", "nonsense", "help", "moves", "e2e4", "undo", "fen",
               "d2d4", "resign"]
    result = run("play", "chess", "--depth", "1", "--pgn", str(pgn),
                 input="\n".join(entries) + "\n")
    out = result.output
    assert result.exit_code == 0, out
    assert "illegal move 'e2e5'; legal moves from e2: e2e3, e2e4" in out
    assert "Legal moves from e2: e2e3, e2e4" in out
    assert "illegal move 'e7e8': white has no legal move from e7" in out
    assert "'nonsense' is not a move here" in out
    assert "undo    take back" in out                                 # help
    assert "Na3 Nc3 Nf3 Nh3 a3 a4 b3" in out                          # moves
    assert "Taken back: " in out and " and e2e4." in out              # undo
    assert "\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n" in out  # fen
    assert "Black plays " in out
    assert "You resign: black wins." in out
    game = read_pgn(pgn.read_text(encoding="utf-8"))
    assert [str(m) for m in game.move_stack][:1] == ["d2d4"] and len(game.move_stack) == 2
    tags = parse_pgn(pgn.read_text(encoding="utf-8"))[0].tags
    assert tags["Result"] == "0-1" and tags["White"] == "you"
    assert tags["Black"] == "variantkit depth 1"


def test_engine_moves_first_and_input_ends() -> None:
    result = run("play", "diplomat", "--as", "black", "--depth", "1", input="undo\n")
    assert result.exit_code == 0
    assert "White plays " in result.output
    assert "Nothing to undo." in result.output
    assert "Game left unfinished." in result.output  # end of input: quit


def test_game_over_is_announced() -> None:
    for entry in ("a1a8", "Ra8#", "Ra8"):  # move strings and SAN
        result = run("play", "chess", "--fen", MATE_IN_ONE, input=f"{entry}\n")
        assert result.exit_code == 0
        assert "Game over: white wins by checkmate." in result.output
    result = run("play", "chess", "--fen", MATE_IN_ONE, "--as", "black", "--time", "0.2")
    assert "White plays Ra8#" in result.output
    assert "Game over: white wins by checkmate." in result.output


def test_bad_options() -> None:
    result = run("play", "chess", "--depth", "2", "--time", "1")
    assert result.exit_code == 1 and "give --depth or --time, not both" in result.output
    result = run("play", "chess", "--fen", "8/8 w - - 0 1")
    assert result.exit_code == 1 and "bad position string" in result.output
    result = run("play", "nosuch")
    assert result.exit_code == 2


def test_selfplay(tmp_path: Path) -> None:
    pgn = tmp_path / "games.pgn"
    result = run("selfplay", "chess", "--games", "2", "--depth", "1", "--max-plies", "30",
                 "--seed", "3", "--pgn", str(pgn))
    out = result.output
    assert result.exit_code == 0, out
    assert "2 game(s) of chess, depth 1, seed 3:" in out
    for label in ("white wins", "black wins", "draws", "average length", "how games ended"):
        assert label in out
    assert "move limit" in out
    games = read_games(pgn.read_text(encoding="utf-8"))
    assert len(games) == 2 and games[0].move_stack != games[1].move_stack  # seeded openings
    # The same seed plays the same games; --pgn appends.
    run("selfplay", "chess", "--games", "2", "--depth", "1", "--max-plies", "30",
        "--seed", "3", "--pgn", str(pgn))
    again = read_games(pgn.read_text(encoding="utf-8"))
    assert [g.move_stack for g in again[2:]] == [g.move_stack for g in games]


def test_selfplay_to_the_end() -> None:
    result = run("selfplay", "diplomat", "--fen", "k13/4R9/6R2K4/1 w - - 0 1",
                 "--random-plies", "0", "--depth", "1")
    assert "white wins      1" in result.output
    assert "average length  1.0 plies" in result.output


def test_an_unwritable_pgn_file_is_refused_before_the_game(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["play", "chess", "--pgn", str(tmp_path / "no" / "g.pgn")],
                                input="e2e4\n")
    assert result.exit_code == 1
    assert "cannot write" in result.output + (result.stderr or "")
    assert "Traceback" not in result.output
