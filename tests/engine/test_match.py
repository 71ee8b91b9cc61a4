"""Tests of the match referee (variantkit.analysis.match): the score and
its Elo interval, openings and colours, adjudication of illegal moves,
fallen flags and claims (`--adjudicate claims|rules`), and short real
matches through each protocol against Debian's Fairy-Max, MaxQi (ten
ranks, counted from 0 by CECP) and Fairy-Stockfish (`make engines`
installs them)."""

from __future__ import annotations

import math
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import variantkit
from variantkit.analysis.match import (
    BuiltinPlayer,
    GameResult,
    Player,
    Score,
    Settings,
    claim_only,
    match,
    opening,
    player_for,
)
from variantkit.analysis.payload import variant_text
from variantkit.analysis.tournament import GameRecord, play_game
from variantkit.analysis.tournament import Settings as SelfPlay
from variantkit.cli import cli
from variantkit.game import Game
from variantkit.loader import examples_dir
from variantkit.pgn import result_token
from variantkit.protocols.driver import (
    RESIGN,
    Claim,
    Clock,
    EngineFailure,
    ExternalEngine,
    MatchRefused,
)
from variantkit.variant import Variant

SEARCH_PATH = os.environ.get("PATH", "") + os.pathsep + "/usr/games"
FAIRYMAX = shutil.which("fairymax", path=SEARCH_PATH)
MAXQI = shutil.which("maxqi", path=SEARCH_PATH)
FAIRY_STOCKFISH = shutil.which("fairy-stockfish", path=SEARCH_PATH)


class Scripted:
    """A player that answers with fixed moves (or claims), or sleeps first;
    it never claims after its move."""

    def __init__(self, moves: list[str | Claim | None], sleep: float = 0.0) -> None:
        self.name, self.moves, self.sleep = "scripted", moves, sleep

    def new_game(self, variant: Variant) -> None:
        return None

    def set_clock(self, base: float, increment: float) -> None:
        return None

    def move(self, game: Game, clock: Clock, wait: float) -> str | Claim | None:
        time.sleep(self.sleep)
        return self.moves.pop(0)

    def claim_after(self, wait: float) -> Claim | None:
        return None

    def close(self) -> None:
        return None


def test_score_and_elo_interval() -> None:
    score = Score(6, 2, 2)
    elo, low, high = score.elo()
    assert score.fraction == 0.7
    assert elo == pytest.approx(147.19, abs=0.01)
    assert low < 0 < elo < high          # ten games prove little
    assert Score(3, 0, 0).elo()[0] == math.inf
    assert Score(1, 0, 1).elo()[0] == 0.0


def test_openings_are_seeded_and_colours_alternate() -> None:
    chess = variantkit.load("chess")
    assert opening(chess, 6, 1).move_stack == opening(chess, 6, 1).move_stack
    assert opening(chess, 6, 1).move_stack != opening(chess, 6, 2).move_stack
    fools = Scripted(["f2f3", "g2g4"]), Scripted(["e7e5", "d8h4"])
    results = list(match(chess, (fools[0], fools[1]), Settings(games=1)))
    assert (results[0].token, results[0].reason) == ("0-1", "checkmate")
    assert results[0].score(0) == 0.0 and results[0].score(1) == 1.0


def test_an_illegal_move_loses() -> None:
    chess = variantkit.load("chess")
    players = (Scripted(["e2e4"]), Scripted(["e7e4"]))
    [result] = match(chess, players, Settings(games=1))
    assert result.token == "1-0" and result.reason == "black played an illegal move: 'e7e4'"


def test_a_fallen_flag_loses() -> None:
    chess = variantkit.load("chess")
    slow = (Scripted(["e2e4"], sleep=0.3), Scripted(["e7e5"]))
    [result] = match(chess, slow, Settings(games=1, movetime=0.05, grace=0.05))
    assert result.token == "0-1" and result.reason.startswith("white lost on time")
    silent = (Scripted(["e2e4"]), Scripted([None]))
    [result] = match(chess, silent, Settings(games=1, movetime=None, base=1.0))
    assert result.token == "1-0" and result.reason.startswith("black lost on time")


class Failing(Scripted):
    """A player whose engine has died."""

    def move(self, game: Game, clock: Clock, wait: float) -> str | Claim | None:
        raise EngineFailure("uci:gone: the engine has exited")


def test_a_resignation_or_a_dead_engine_loses() -> None:
    chess = variantkit.load("chess")
    [result] = match(chess, (Scripted(["e2e4"]), Scripted([RESIGN])), Settings(games=1))
    assert (result.token, result.reason) == ("1-0", "black resigned")
    [result] = match(chess, (Failing([]), Scripted([])), Settings(games=1))
    assert (result.token, result.reason) == (
        "0-1", "white's engine failed: uci:gone: the engine has exited")


def test_the_match_command(tmp_path: Path) -> None:
    pgn = tmp_path / "games.pgn"
    result = CliRunner().invoke(cli, ["match", "chess", "builtin:1", "builtin:2", "--games", "2",
                                      "--tc", "5+0.1", "--max-plies", "6", "--opening-plies",
                                      "2", "--pgn", str(pgn)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == ("game 1: variantkit depth 1 - variantkit depth 2 1/2-1/2 "
                        "(adjudicated: move limit)")
    assert lines[1].startswith("game 2: variantkit depth 2 - variantkit depth 1 ")
    assert lines[-1] == "Elo difference +0 (95%: +0 to +0)"
    games = variantkit.read_games(pgn.read_text(encoding="utf-8"))
    assert len(games) == 2 and all(game.plies == 6 for game in games)


@pytest.mark.parametrize("args, message", [
    (["--tc", "fast"], "--tc must be BASE+INC in seconds"),
    (["--tc", "0+1"], "--tc must have a base above 0"),
    (["--tc", "5+0", "--movetime", "1"], "give --movetime or --tc, not both"),
])
def test_the_match_command_refuses(args: list[str], message: str) -> None:
    result = CliRunner().invoke(cli, ["match", "chess", "builtin", "builtin", *args])
    assert result.exit_code == 1 and message in result.output


def test_an_engine_that_cannot_start() -> None:
    result = CliRunner().invoke(cli, ["match", "chess", "builtin", "uci:/nonexistent/engine"])
    assert result.exit_code == 1
    assert "error: uci:/nonexistent/engine: cannot start" in result.output
    result = CliRunner().invoke(cli, ["match", "chess", "builtin", "telnet:host"])
    assert "write uci:PATH, xboard:PATH or usi:PATH" in result.output


def played_fairly(results: list[GameResult]) -> None:
    """No illegal move, no fallen flag, no false claim, and each result the
    rules' own (a draw that may be claimed, claimed, or played on)."""
    for result in results:
        assert "illegal" not in result.reason and "time" not in result.reason, result
        assert "false claim" not in result.reason and "failed" not in result.reason, result
        outcome = result.game.outcome()
        if outcome is None or result.reason == "adjudicated: move limit":
            assert (result.token, result.reason) == ("1/2-1/2", "adjudicated: move limit")
            assert outcome is None or claim_only(result.game, outcome), result
        else:
            assert result.token == result_token(outcome.winner), result
            assert result.reason in (outcome.reason, f"{outcome.reason} (claimed by white)",
                                     f"{outcome.reason} (claimed by black)"), result


def real_match(variant: str, spec: str, settings: Settings) -> list[GameResult]:
    players: list[Player] = [BuiltinPlayer(), player_for(spec)]
    try:
        return list(match(variantkit.load(variant), (players[0], players[1]), settings))
    finally:
        for player in players:
            player.close()


@pytest.mark.parametrize("variant, protocol", [
    ("chess", "uci"), ("capablanca", "xboard"), ("minishogi", "usi")])
def test_builtin_through_its_own_protocols(variant: str, protocol: str) -> None:
    # Both ends are variantkit's: the driver and the engine's session.
    spec = f"{protocol}:{sys.executable} -m variantkit {protocol}"
    played_fairly(real_match(variant, spec, Settings(games=2, movetime=0.05, max_plies=12,
                                                     opening_plies=2, grace=2.0)))


@pytest.mark.skipif(FAIRYMAX is None, reason="Fairy-Max is not installed (make engines)")
def test_against_fairymax_by_xboard() -> None:
    played_fairly(real_match("chess", f"xboard:{FAIRYMAX}",
                             Settings(games=2, movetime=0.1, max_plies=40, opening_plies=2,
                                      grace=1.5)))


@pytest.mark.skipif(MAXQI is None, reason="MaxQi is not installed (make engines: fairymax)")
def test_against_maxqi_on_ten_ranks(tmp_path: Path) -> None:
    """XBoard counts xiangqi's ranks 0-9: the referee writes and reads
    them so (it misread every MaxQi move as illegal, two bogus wins)."""
    pgn = tmp_path / "xiangqi.pgn"
    result = CliRunner().invoke(cli, ["match", "xiangqi", "builtin", f"xboard:{MAXQI}",
                                      "--games", "2", "--movetime", "0.1", "--max-plies", "40",
                                      "--grace", "1.5", "--pgn", str(pgn)])
    assert result.exit_code == 0, result.output
    games = [line for line in result.output.splitlines() if line.startswith("game ")]
    assert len(games) == 2
    assert not any(word in result.output for word in ("illegal", "failed", "on time")), \
        result.output
    for game in variantkit.read_games(pgn.read_text(encoding="utf-8")):
        assert game.plies >= 30 or game.outcome() is not None   # both engines moved


@pytest.mark.skipif(FAIRYMAX is None, reason="Fairy-Max is not installed (make engines)")
def test_an_engine_is_told_the_game_by_its_own_name(tmp_path: Path) -> None:
    """Fairy-Max lists king of the hill as `king-of-the-hill`, a name no
    bundled variant has: `--engine-variant` tells it the game by that name,
    and the referee judges by kingofthehill's rules."""
    pgn = tmp_path / "koth.pgn"
    result = CliRunner().invoke(cli, ["match", "kingofthehill", "builtin", f"xboard:{FAIRYMAX}",
                                      "--engine-variant", "king-of-the-hill", "--games", "1",
                                      "--movetime", "0.1", "--max-plies", "16",
                                      "--opening-plies", "2", "--grace", "1.5",
                                      "--pgn", str(pgn)])
    assert result.exit_code == 0, result.output
    assert "illegal" not in result.output and "false claim" not in result.output, result.output
    for game in variantkit.read_games(pgn.read_text(encoding="utf-8")):
        assert game.variant.name == "kingofthehill"
        assert game.plies >= 16 or game.outcome() is not None   # both engines moved


@pytest.mark.parametrize(("spec", "name"), [
    pytest.param(f"xboard:{FAIRYMAX}", "normal", id="edit-mode", marks=pytest.mark.skipif(
        FAIRYMAX is None, reason="Fairy-Max is not installed (make engines)")),
    pytest.param(f"xboard:{FAIRY_STOCKFISH}", "normal", id="setboard",
                 marks=pytest.mark.skipif(FAIRY_STOCKFISH is None,
                                          reason="Fairy-Stockfish is not installed")),
    pytest.param(f"uci:{FAIRY_STOCKFISH}", "chess", id="uci-fen", marks=pytest.mark.skipif(
        FAIRY_STOCKFISH is None, reason="Fairy-Stockfish is not installed")),
])
def test_an_engine_told_a_game_by_its_own_name_is_told_the_start(
        spec: str, name: str, tmp_path: Path) -> None:
    """A file played under an engine's own name may start from another
    array (Superchess's shuffled one): the referee tells it the start, in
    edit mode to Fairy-Max, which takes no setboard, by setboard to
    Fairy-Stockfish over CECP and by a position string over UCI (never
    `startpos`, the engine's own array).  Told nothing, Fairy-Max answers
    from chess's array (`d7d5`, an illegal move here), as Fairy-Stockfish
    did over UCI."""
    file = tmp_path / "sparse.yaml"
    file.write_text("variantkit: 1\nname: sparse\ninherits: chess\n"
                    "description: Chess from an array of few pieces.\n"
                    "setup: r2k4/8/8/8/8/8/PPPPPPPP/4K3 w - - 0 1\ncastling: []\n",
                    encoding="utf-8")
    result = CliRunner().invoke(cli, ["match", str(file), "builtin", spec,
                                      "--engine-variant", name, "--games", "2",
                                      "--movetime", "0.1", "--max-plies", "10",
                                      "--opening-plies", "0", "--grace", "1.5"])
    assert result.exit_code == 0, result.output
    games = [line for line in result.output.splitlines() if line.startswith("game ")]
    assert len(games) == 2 and not any("illegal" in line for line in games), result.output


@pytest.mark.skipif(FAIRYMAX is None, reason="Fairy-Max is not installed (make engines)")
def test_a_start_edit_mode_cannot_tell_is_refused() -> None:
    engine = ExternalEngine(f"xboard:{FAIRYMAX}", variant_name="normal")
    try:   # pocketknight starts with a knight in each hand
        with pytest.raises(MatchRefused, match="takes no setboard, and edit mode cannot tell "
                                                "it pocketknight's start"):
            engine.new_game(variantkit.load("pocketknight"))
    finally:
        engine.close()


@pytest.mark.skipif(FAIRYMAX is None, reason="Fairy-Max is not installed (make engines)")
def test_a_name_the_engine_does_not_list_is_refused() -> None:
    engine = ExternalEngine(f"xboard:{FAIRYMAX}", variant_name="kingofthehill")
    try:
        with pytest.raises(MatchRefused, match="lists no variant named 'kingofthehill' "
                                                r"\(it lists normal, "):
            engine.new_game(variantkit.load("kingofthehill"))
    finally:
        engine.close()


@pytest.mark.skipif(FAIRY_STOCKFISH is None, reason="Fairy-Stockfish is not installed")
def test_against_fairy_stockfish_by_uci() -> None:
    # A clock, and a variant that is not chess.
    played_fairly(real_match("capablanca", f"uci:{FAIRY_STOCKFISH}",
                             Settings(games=2, movetime=None, base=2.0, increment=0.05,
                                      max_plies=24, opening_plies=2)))


@pytest.mark.skipif(FAIRY_STOCKFISH is None, reason="Fairy-Stockfish is not installed")
def test_against_fairy_stockfish_by_usi() -> None:
    played_fairly(real_match("minishogi", f"usi:{FAIRY_STOCKFISH}",
                             Settings(games=2, movetime=0.05, max_plies=40, opening_plies=2)))



FORCED_CAPTURE = """variantkit: 1
name: forced-capture
inherits: chess
description: chess where a capture must be made when one can be
must-capture: true
"""
# The only capture gives the queen away; under chess's rules no engine plays it.
QUEEN_FOR_A_PAWN = "3k4/3p4/8/8/8/8/8/3QK3 w - - 0 1"


def move_in_file_variant(tmp_path: Path, spec: str) -> str | None:
    """The move an external engine chooses in QUEEN_FOR_A_PAWN of the
    forced-capture variant, read from a file it was never told of by name."""
    path = tmp_path / "forced.yaml"
    path.write_text(FORCED_CAPTURE, encoding="utf-8")
    variant = variantkit.load(path)
    engine = player_for(spec)
    try:
        engine.new_game(variant)
        return engine.move(variant.new_game(QUEEN_FOR_A_PAWN), Clock(movetime=0.2), 10.0)
    finally:
        engine.close()


@pytest.mark.skipif(FAIRY_STOCKFISH is None, reason="Fairy-Stockfish is not installed")
def test_a_file_variant_reaches_fairy_stockfish_as_an_ini_section(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    assert move_in_file_variant(tmp_path, f"uci:{FAIRY_STOCKFISH}") == "d1d7"
    assert not list(scratch.iterdir())   # the ini file is removed with the engine


def test_a_file_variant_reaches_variantkit_as_its_file(tmp_path: Path) -> None:
    spec = f"uci:{sys.executable} -m variantkit uci"
    assert move_in_file_variant(tmp_path, spec) == "d1d7"


@pytest.mark.skipif(FAIRY_STOCKFISH is None, reason="Fairy-Stockfish is not installed")
def test_an_ini_section_that_cannot_be_written_is_a_clear_failure(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "missing"))
    with pytest.raises(MatchRefused, match="does not play forced-capture, and its ini "
                                            "section cannot be written to a temporary file"):
        move_in_file_variant(tmp_path, f"uci:{FAIRY_STOCKFISH}")


@pytest.mark.skipif(FAIRY_STOCKFISH is None, reason="Fairy-Stockfish is not installed")
def test_a_file_variant_that_fits_no_ini_section_is_refused_with_the_reason() -> None:
    engine = player_for(f"uci:{FAIRY_STOCKFISH}")
    try:
        with pytest.raises(MatchRefused, match="does not play glinski, and its rules do not "
                                                "fit an ini section: board: a hex board"):
            engine.new_game(variantkit.load(examples_dir() / "glinski.yaml"))
    finally:
        engine.close()

# --- self-play (`analyze --engine`) with an external engine -------------------

ILLEGAL_UCI_ENGINE = """import sys
for line in sys.stdin:
    word = line.split()[:1]
    if word == ["uci"]:
        print("option name UCI_Variant type combo default chess var capablanca", flush=True)
        print("uciok", flush=True)
    elif word == ["isready"]:
        print("readyok", flush=True)
    elif word == ["go"]:
        print("bestmove a1a1", flush=True)
    elif word == ["quit"]:
        break
"""


def self_play(engine: str, max_plies: int) -> GameRecord:
    settings = SelfPlay(games=1, depth=None, time=0.05, max_plies=max_plies, engine=engine)
    return play_game(variant_text(variantkit.load("capablanca")), 0, settings)


@pytest.mark.skipif(FAIRY_STOCKFISH is None, reason="Fairy-Stockfish is not installed")
def test_self_play_with_an_external_engine() -> None:
    record = self_play(f"uci:{FAIRY_STOCKFISH}", max_plies=16)
    assert record.error is None and record.termination != "lost"
    game = variantkit.load("capablanca").new_game()
    for move in record.moves:
        game.push(move)  # every move legal, in the variant the engine was told
    assert game.plies == 16 or game.outcome() is not None
    assert len(record.material) == len(record.moves) - 4  # one per engine move


def test_self_play_scores_an_illegal_move_as_a_loss(tmp_path: Path) -> None:
    script = tmp_path / "illegal.py"
    script.write_text(ILLEGAL_UCI_ENGINE, encoding="utf-8")
    record = self_play(f"uci:{sys.executable} {script}", max_plies=40)
    # White's engine moves first, after the 4 random plies, and loses by it.
    assert (record.termination, record.winner, len(record.moves)) == ("illegal-move", "black", 4)


@pytest.mark.parametrize("args, message", [
    (["--engine", "telnet:host", "--time", "1"], "write builtin, uci:PATH, xboard:PATH"),
    (["--engine", "uci:/usr/games/fairy-stockfish"], "an external engine plays by time"),
])
def test_analyze_refuses_an_engine(args: list[str], message: str) -> None:
    result = CliRunner().invoke(cli, ["analyze", "chess", "--games", "1", *args])
    assert result.exit_code == 1 and message in result.output, result.output


# --- claims: a draw that may be claimed ends the game only when claimed ----------

# The knights out and back: the start stands a third time after 8 plies,
# a fifth (chess's automatic end) after 16.
WHITE_SHUFFLE = ["g1f3", "f3g1"] * 12
BLACK_SHUFFLE = ["g8f6", "f6g8"] * 12


def shuffled(settings: Settings, white: list[str | Claim | None] | None = None) -> GameResult:
    players = (Scripted(white or list(WHITE_SHUFFLE)), Scripted(list(BLACK_SHUFFLE)))
    [result] = match(variantkit.load("chess"), players, settings)
    return result


def test_a_claimable_draw_ends_the_game_when_claimed_or_by_the_rules() -> None:
    result = shuffled(Settings(games=1, adjudicate="rules"))
    assert (result.token, result.reason, result.game.plies) == ("1/2-1/2", "repetition", 8)
    # Nobody claims: the game plays on to the automatic fifth repetition,
    # or to the ply limit.
    result = shuffled(Settings(games=1))
    assert (result.token, result.reason, result.game.plies) == ("1/2-1/2", "repetition", 16)
    result = shuffled(Settings(games=1, max_plies=12))
    assert (result.reason, result.game.plies) == ("adjudicated: move limit", 12)
    # A claim the rules give ends the game; a false one, or one the
    # position does not give yet, loses; claiming one's own loss resigns.
    claim = Claim("1/2-1/2", "draw by repetition")
    result = shuffled(Settings(games=1), WHITE_SHUFFLE[:4] + [claim])
    assert (result.token, result.reason, result.game.plies) == (
        "1/2-1/2", "repetition (claimed by white)", 8)
    result = shuffled(Settings(games=1), WHITE_SHUFFLE[:1] + [claim])
    assert (result.token, result.reason) == (
        "0-1", "white made a false claim: 1/2-1/2 {draw by repetition}")
    result = shuffled(Settings(games=1), [Claim("0-1", "white resigns")])
    assert (result.token, result.reason) == ("0-1", "white resigned")


FAKE_CECP_ENGINE = """import sys
# A CECP engine that plays given moves; it claims a draw instead of its
# move number CLAIM_INSTEAD, or right after its move number CLAIM_AFTER.
moves, claim_instead, claim_after = sys.argv[1].split(","), int(sys.argv[2]), int(sys.argv[3])
played = 0
for line in sys.stdin:
    words = line.split()
    if words[:1] == ["protover"]:
        print('feature myname="claimer" usermove=1 ping=1 setboard=1 done=1', flush=True)
    elif words[:1] == ["ping"]:
        print("pong", *words[1:], flush=True)
    elif words[:1] == ["go"]:
        played += 1
        if played == claim_instead:
            print("1/2-1/2 {Draw by repetition}", flush=True)
            continue
        print("move", moves[played - 1], flush=True)
        if played == claim_after:
            print("1/2-1/2 {Draw by repetition}", flush=True)
    elif words[:1] == ["quit"]:
        break
"""


@pytest.mark.parametrize("instead, after, plies, token, reason", [
    (5, 0, 8, "1/2-1/2", "repetition (claimed by white)"),     # at its turn
    (0, 6, 11, "1/2-1/2", "repetition (claimed by white)"),    # with its move
    (2, 0, 2, "0-1", "white made a false claim: 1/2-1/2 {Draw by repetition}"),
    (0, 0, 16, "1/2-1/2", "repetition"),                       # no claim: the fifth time
])
def test_a_cecp_engine_claims_through_the_protocol(
        tmp_path: Path, instead: int, after: int, plies: int, token: str, reason: str) -> None:
    script = tmp_path / "claimer.py"
    script.write_text(FAKE_CECP_ENGINE, encoding="utf-8")
    spec = f"xboard:{sys.executable} {script} {','.join(WHITE_SHUFFLE)} {instead} {after}"
    claimer = player_for(spec)
    try:
        [result] = match(variantkit.load("chess"), (claimer, Scripted(list(BLACK_SHUFFLE))),
                         Settings(games=1, movetime=0.5, grace=5.0))
    finally:
        claimer.close()
    assert (result.token, result.reason, result.game.plies) == (token, reason, plies)


def test_the_match_command_chooses_the_adjudication() -> None:
    result = CliRunner().invoke(cli, ["match", "chess", "builtin:1", "builtin:1", "--games",
                                      "1", "--max-plies", "2", "--adjudicate", "rules"])
    assert result.exit_code == 0, result.output
    result = CliRunner().invoke(cli, ["match", "chess", "builtin", "builtin",
                                      "--adjudicate", "never"])
    assert result.exit_code == 2 and "'never' is not one of 'claims', 'rules'" in result.output


def test_the_strength_set_for_a_match_reaches_both_engines() -> None:
    """benchmarks/match_bench.py weakens the built-in player by its skill
    level and an external engine by its own options (Stockfish's
    UCI_LimitStrength and UCI_Elo): both must reach the search, and an
    option the engine does not offer is refused, never left at its
    default.  The external engine here is variantkit's UCI session, whose
    search shows its weakening: at level 0 one ply and about 100 nodes,
    whatever depth is asked."""
    chess_rules = variantkit.load("chess")
    builtin = BuiltinPlayer(skill=0)
    builtin.new_game(chess_rules)
    # A long time per move: only the level's node limit ends the search.
    move = builtin.move(chess_rules.new_game(), Clock(movetime=60.0), 120.0)
    assert isinstance(move, str) and builtin.engine is not None
    assert builtin.engine.info.depth <= 1 and builtin.engine.info.nodes <= 100 + 256
    assert builtin.name == "variantkit skill 0"
    external = player_for(f"uci:{sys.executable} -m variantkit uci")
    assert isinstance(external, ExternalEngine)
    try:
        with pytest.raises(MatchRefused, match="no option 'Skil Level'"):
            external.set_option("Skil Level", "0")
        for level, deepest in (("0", 1), ("20", 6)):
            external.set_option("Skill Level", level)
            external.process.send("position startpos", "go depth 6")
            depths = []
            while (line := external.process.expect("info", 60.0, "bestmove")) is not None \
                    and line.startswith("info"):
                words = line.split()
                if "depth" in words:
                    depths.append(int(words[words.index("depth") + 1]))
            assert line is not None and max(depths) == deepest, (level, depths)
    finally:
        external.close()
