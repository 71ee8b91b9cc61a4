"""`variantkit export-fsf` and `variantkit.fsf.export_ini`: a variant written
as a Fairy-Stockfish ini section plays in pyffish exactly as it plays here.

Every bundled variant is exported or refused with its reasons (never a
crash).  Each one that exports is read by pyffish (`load_variant_config`)
under a section name of its own and compared with variantkit as the bundled
variants are (tests/fsf_oracle.py): the move sets and position strings at
every node of the perft tree, 2 plies in `make test` (1 for the games with a
wall on any cell after each move), 3 under `make oracle` (2 for those).
The project's ini files in tests/data/fsf/ go round: import, export, import
again, and the last import plays as pyffish plays the exported text.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pyffish
import pytest
from click.testing import CliRunner
from fsf_oracle import Oracle

import variantkit
from variantkit.cli import cli
from variantkit.fsf import ExportRefused, export_ini, import_ini

# Not run again on the pure build (tests/conftest.py): the exporter writes
# text and runs no compiled code; the catalogue tests hold the generator to
# pyffish on both builds.
PURE_PASS = False
DATA = Path(__file__).parent.parent / "data" / "fsf"
GOOD = ("rules.ini", "drops.ini", "plain.ini")


# Measured when the exporter was written: these bundled variants export, and
# play as pyffish plays the text.  A variant that stops exporting fails here
# with its reasons; the oracle run exports every bundled variant.
EXPORTED = (
    "3check", "5check", "almost", "amazon", "amazons", "antichess", "atomic", "berolina",
    "capablanca", "capahouse", "centaur", "chancellor", "chaturanga", "checkshogi", "chess",
    "chessgi", "chigorin", "codrus", "coregal", "crazyhouse", "duck", "embassy",
    "extinction", "flipello", "flipello10", "flipersi", "gardner", "giveaway", "gorogoro",
    "gothic", "grasshopper", "hoppelpoppel", "isolation", "isolation7x7", "janus", "joust",
    "judkins", "kinglet", "kingofthehill", "knightmate", "kyotoshogi", "loop", "losalamos",
    "losers", "micro", "minixiangqi", "misere", "modern", "newzealand", "nightrider", "nocastle",
    "nocheckatomic", "okisakishogi", "paradigm", "pawnsideways", "perfect", "petrified",
    "raazuvaa",
    "shogi", "shoshogi", "snailtrail", "sortofalmost", "suicide", "tencubed", "threekings",
    "trice", "yarishogi",
    # Later: counting (countingRule), draw odds (materialCounting), gating,
    # Chess960 castling (chess960), a flag held for a reply (flagMove).
    "ai-wok", "armageddon", "asean", "caparandom", "fischerandom", "jesonmor", "makruk",
    "mini", "minishogi", "seirawan", "shouse")

# Wide games (a wall on any cell after every move): their first ply is
# compared whole in `make test`, the plies after it under `make oracle`.
WIDE = frozenset({"amazons", "duck"})


def sorted_hand(fen: str) -> str:
    return re.sub(r"\[([^\]]*)\]", lambda m: "[" + "".join(sorted(m.group(1))) + "]", fen)


def exported(name: str) -> ExportedOracle:
    """A bundled variant exported as `vkx-NAME` and read by pyffish."""
    variant = variantkit.load(name)
    try:
        text = export_ini(variant, f"vkx-{name}")
    except ExportRefused as refused:
        pytest.fail(f"{name} refused: {refused.reasons}")
    pyffish.load_variant_config(text)
    return ExportedOracle(f"vkx-{name}", variant)


class ExportedOracle(Oracle):
    """A variant against pyffish reading its exported section."""

    def __init__(self, section: str, variant: variantkit.Variant) -> None:
        self.name = section
        self.variant = variant
        self.start_fen = pyffish.get_fen(section, pyffish.start_fen(section), [])

    def compare_fen(self, mine: str, sf_fen: str, where: str) -> None:
        """As the oracle compares, but a hand's pieces in any order:
        Fairy-Stockfish writes a hand in its piece-type order, which the
        types chosen for the export need not keep (yarishogi's `[Pbr]`)."""
        super().compare_fen(sorted_hand(mine), sorted_hand(sf_fen), where)

    def divide(self) -> None:
        """The start compared whole (moves, check, position string), then
        perft 2 split by first move: cheap enough for every variant in
        `make test`; the oracle run walks the whole tree deeper."""
        self.walk(1)
        game = self.variant.new_game()
        ours = {}
        for move in game.legal_moves():
            game.push(move)
            ours[str(move)] = len(game.legal_moves())
            game.pop()
        theirs = {move: len(pyffish.legal_moves(self.name, self.start_fen, [move]))
                  for move in pyffish.legal_moves(self.name, self.start_fen, [])}
        assert ours == theirs, f"{self.name}: perft 2 differs by first move"


@pytest.mark.parametrize("name", EXPORTED)
def test_exported_variant_plays_in_pyffish_as_here(name: str) -> None:
    oracle = exported(name)
    if name in WIDE:
        oracle.walk(1)
    else:
        oracle.divide()


@pytest.mark.oracle
@pytest.mark.parametrize("name", variantkit.variants())
def test_every_bundled_variant_exports_and_plays_as_here_or_is_refused(name: str) -> None:
    """The sweep: every bundled variant that exports walks the perft tree to
    3 plies and plays random games against pyffish; the others give their
    reasons, one line each."""
    try:
        text = export_ini(name, f"vkx-{name}")
    except ExportRefused as refused:
        assert name not in EXPORTED and refused.reasons
        assert all(r.strip() and "\n" not in r for r in refused.reasons), refused.reasons
        return
    pyffish.load_variant_config(text)
    oracle = ExportedOracle(f"vkx-{name}", variantkit.load(name))
    oracle.walk(2 if name in WIDE else 3)
    oracle.random_games(games=2, max_plies=120, seed=1)


@pytest.mark.parametrize(("name", "reason"), [
    ("diplomat", "board: a polar board; Fairy-Stockfish's board is one rectangle"),
    ("strato", "board: several planes; Fairy-Stockfish's board is flat"),
    ("ataxx", "flips: free-drops: Fairy-Stockfish's freeDrops drops nothing in a section "
              "without a parent"),
])
def test_rules_fairy_stockfish_cannot_play_here_are_refused(name: str, reason: str) -> None:
    with pytest.raises(ExportRefused) as refused:
        export_ini(name)
    assert reason in refused.value.reasons


SMALL = """\
variantkit: 1
name: tiny
board:
  grid: {{files: 4, ranks: 4{grid}}}
pieces:
  king: {{letter: K, royal: true, betza: K}}
  other: {{letter: O, {moves}}}
setup: 1k2/4/4/O2K w - - 0 1
end: {{checkmate: loss, stalemate: draw}}
"""


def tiny(moves: str, grid: str = "") -> variantkit.Variant:
    return variantkit.load_text(SMALL.format(moves=moves, grid=grid), "tiny.yaml")


@pytest.mark.parametrize(("moves", "grid", "reason"), [
    ("betza: R", ", wrap: files", "board: wrap-around edges; Fairy-Stockfish's board has no "
                                  "seams"),
    ("moves: [{leap: [4, 1]}]", "", "piece other: a leap of [4, 1], which Betza has no atom "
                                    "for"),
    ("betza: DD", "", "piece other: a D rider, which Fairy-Stockfish does not have"),
    ("betza: nH", "", "piece other: a lame H, which Fairy-Stockfish does not have"),
    ("moves: [{leap: [[1, 2]]}]", "", "piece other: moves not the same left and right, which "
     "Fairy-Stockfish turns for Black where this variant mirrors them (sides: turned)"),
    ("moves: [{step: all, may-give-check: false}]", "",
     "piece other: may-give-check on a move: no Betza for it"),
])
def test_a_rule_fairy_stockfish_cannot_play_is_refused(moves: str, grid: str,
                                                       reason: str) -> None:
    with pytest.raises(ExportRefused) as refused:
        export_ini(tiny(moves, grid))
    assert reason in refused.value.reasons


@pytest.mark.parametrize(("moves", "betza"), [
    ("moves: [{step: forward}, {leap: [[1, 2], [-1, 2]]}]", "customPiece1 = o:"),
    ("betza: mRcpR", "cannon = o"),
    ("moves: [{ride: diagonal, range: 3}, {step: orthogonal, only: move}]",
     "customPiece1 = o:"),
    ("moves: [{path: [[[0, 1], [1, 1]], [[0, 1], [-1, 1]]]}]", "customPiece1 = o:"),
])
def test_written_betza_plays_as_declared(moves: str, betza: str) -> None:
    """Moves declared as primitives come back as Betza pyffish reads the same
    (each under its own section name: pyffish keeps the first of a name)."""
    section = f"vkx-tiny-{sum(map(ord, moves))}"
    text = export_ini(tiny(moves), section)
    assert betza in text
    pyffish.load_variant_config(text)
    ExportedOracle(section, tiny(moves)).divide()


def test_section_name_is_checked() -> None:
    with pytest.raises(ExportRefused) as refused:
        export_ini("chess", "bad]name")
    assert "letters, digits" in refused.value.reasons[0]


# --- import, export, import -------------------------------------------------------------


def round_trips() -> list[tuple[str, str]]:
    found = []
    for file in GOOD:
        for section, text in import_ini((DATA / file).read_text(encoding="utf-8"), file).items():
            if isinstance(text, str):
                found.append((section, text))
    return found


ROUND_TRIPS = round_trips()
# The sections that went round when the exporter was written (the files gain
# sections with rules Fairy-Stockfish has and the exporter does not write
# yet: those are refused with their reasons, never written wrong).
GO_ROUND = frozenset({
    "vk-small", "vk-leapers", "vk-camel-king", "vk-berolina", "vk-wide-pawns",
    "vk-castle-far", "vk-checks", "vk-losers", "vk-race", "vk-hill", "vk-extinct",
    "vk-royal-queen", "vk-suicide", "vk-blast", "vk-generals", "vk-child-of-small",
    "vk-slow-pawns", "vk-king-file", "vk-three-checks", "vk-queen-flag",
    "vk-split-promotion", "vk-promoting-knights", "vk-shogi-optional", "vk-two-queens",
    "vk-house", "vk-dropper", "vk-nifu", "vk-pockets", "vk-must-drop", "vk-shogi-ish",
    "vk-stuck-drops", "vk-minimal", "vk-fairy-army", "vk-pawn-ends", "vk-fenced",
    "vk-homecoming", "vk-plain-blast", "vk-right-handed", "vk-small-breakthrough",
    "vk-two-armies", "vk-three-kings", "vk-early-count", "vk-passing-zone", "vk-open-home",
    "vk-short-castle", "vk-empty-handed", "vk-repeat-loses", "vk-arrow-knights",
    "vk-static-walls"})


@pytest.mark.parametrize(("section", "yaml_text"), ROUND_TRIPS,
                         ids=[section for section, _ in ROUND_TRIPS])
def test_import_export_import_gives_the_same_game(section: str, yaml_text: str) -> None:
    first = variantkit.load_text(yaml_text, f"{section}.yaml")
    try:
        ini = export_ini(first, f"{section}-again")
    except ExportRefused as refused:
        assert section not in GO_ROUND, f"[{section}] no longer exports: {refused.reasons}"
        assert all(r.strip() and "\n" not in r for r in refused.reasons), refused.reasons
        return
    again = import_ini(ini, "exported.ini")[f"{section}-again"]
    assert isinstance(again, str), again
    second = variantkit.load_text(again, f"{section}-again.yaml")
    # The second import writes the same section as the first: the same rules.
    assert rules_of(export_ini(second, f"{section}-again")) == rules_of(ini)
    pyffish.load_variant_config(ini)
    ExportedOracle(f"{section}-again", second).divide()


def rules_of(ini: str) -> list[str]:
    """An exported section's keys in order, without its comment lines (the
    description) and custom pieces' slot numbers (pieces are written in the
    order the file declares them)."""
    return sorted(re.sub(r"(?<=[cC]ustomPiece)\d+", "", line) for line in ini.splitlines()
                  if not line.startswith("#"))


# --- the command -------------------------------------------------------------------------


def test_command_prints_the_section() -> None:
    result = CliRunner().invoke(cli, ["export-fsf", "losalamos", "--section", "vkx-la"])
    assert result.exit_code == 0, result.output
    assert "[vkx-la]" in result.output and "maxFile = f" in result.output


def test_command_writes_a_file_and_keeps_an_existing_one(tmp_path: Path) -> None:
    target = tmp_path / "out.ini"
    runner = CliRunner()
    assert runner.invoke(cli, ["export-fsf", "chess", "-o", str(target)]).exit_code == 0
    assert target.read_text(encoding="utf-8").startswith("# chess")
    again = runner.invoke(cli, ["export-fsf", "chess", "-o", str(target)])
    assert again.exit_code == 1 and "exists already" in again.output
    assert runner.invoke(cli, ["export-fsf", "gardner", "-o", str(target),
                               "--force"]).exit_code == 0
    assert "[gardner]" in target.read_text(encoding="utf-8")


def test_command_lists_the_reasons_and_fails() -> None:
    result = CliRunner().invoke(cli, ["export-fsf", "diplomat"])
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert "diplomat: board: a polar board; Fairy-Stockfish's board is one rectangle" in lines
    assert lines[-1].endswith("diplomat cannot be written for Fairy-Stockfish (1 reason)")


@pytest.mark.parametrize(("name", "drop_loop"), [("chessgi", True), ("crazyhouse", False)])
def test_a_promoted_piece_goes_to_the_hand_as_declared(name: str, drop_loop: bool) -> None:
    """Chessgi's promoted queen is captured as a queen (Fairy-Stockfish's
    dropLoop), crazyhouse's `Q~` as a pawn: the position strings after a
    promotion and its capture agree with pyffish's."""
    oracle = exported(name)
    assert ("dropLoop = true" in export_ini(name)) == drop_loop
    oracle.walk(2, "r3k3/1P6/8/8/8/8/8/4K3[] w - - 0 1")


def test_walls_beside_a_royal_piece_export_and_play_as_here() -> None:
    """One king's safety is judged before the wall its move puts down (the
    old duck still standing), here as in Fairy-Stockfish: the duck beside a
    royal king is written; `royal-safety: with-wall`, which Fairy-Stockfish
    keeps for several (pseudo-royal) pieces, is refused for one king."""
    text = SMALL.format(moves="betza: R", grid="") + \
        'walls: {kind: duck}\nposition-string: {holes: "*"}\n'
    variant = variantkit.load_text(text, "tiny.yaml")
    pyffish.load_variant_config(export_ini(variant, "vkx-tiny-duck"))
    oracle = ExportedOracle("vkx-tiny-duck", variant)
    oracle.walk(1)
    oracle.walk(1, "1k2/4/4/O2K b - - 0 1")
    oracle.random_games(games=2, max_plies=12, seed=1)
    judged_after = text.replace("{kind: duck}", "{kind: duck, royal-safety: with-wall}")
    with pytest.raises(ExportRefused) as refused:
        export_ini(variantkit.load_text(judged_after, "tiny.yaml"))
    assert "walls: royal-safety: Fairy-Stockfish judges one king's safety before the wall, " \
        "several royal pieces' with it" in refused.value.reasons


RIVAL_GIVEAWAY = """\
variantkit: 1
name: rival-giveaway
inherits: giveaway
explosion: {around: all, immune: [pawn]}
end:
  conditions:
  - {extinct: all, opponent-at-least: 1, result: win}
"""


def test_an_extinction_that_needs_a_rival_exports_and_plays_as_here() -> None:
    """`opponent-at-least` as extinctionOpponentPieceCount: the knight's
    blast takes the last piece of each side, and Black, to move with
    nothing, wins by its stalemate, not White by extinction."""
    variant = variantkit.load_text(RIVAL_GIVEAWAY, "rival-giveaway.yaml")
    text = export_ini(variant, "vkx-rival-giveaway")
    assert "extinctionOpponentPieceCount = 1" in text
    pyffish.load_variant_config(text)
    oracle = ExportedOracle("vkx-rival-giveaway", variant)
    oracle.walk(2, "8/8/8/8/8/4q3/8/3N4 w - - 0 1")
    outcome = oracle.replay(["d1e3"], "8/8/8/8/8/4q3/8/3N4 w - - 0 1")
    assert outcome is not None and (outcome.winner, outcome.reason) == ("black", "stalemate")
    oracle.random_games(games=2, max_plies=60, seed=1)


def test_safe_flags_of_both_sides_drawn_at_once_export_and_play_as_here() -> None:
    """`at-once: draw` beside safe flags for both sides is flagPieceSafe
    (squatter); beside any other condition it is refused."""
    text = import_ini((DATA / "fidelity.ini").read_text(encoding="utf-8"),
                      "fidelity.ini")["vk-both-flags"]
    assert isinstance(text, str) and "at-once: draw" in text
    variant = variantkit.load_text(text, "both-flags.yaml")
    ini = export_ini(variant, "vkx-both-flags")
    assert "flagPieceSafe = true" in ini
    pyffish.load_variant_config(ini)
    oracle = ExportedOracle("vkx-both-flags", variant)
    outcome = oracle.replay(["b1b5"], "5/5/4k/K4/1R2r w - - 0 1")
    assert outcome is not None and outcome.winner is None
    oracle.random_games(games=2, max_plies=60, seed=1)
    checked = variantkit.load_text(text.replace("end:\n", "end:\n  stalemate: loss\n", 1)
                                   .replace("conditions:\n", "conditions:\n"
                                            "  - {checks: 3, result: win}\n", 1),
                                   "both-flags-and-checks.yaml")
    with pytest.raises(ExportRefused, match="flagPieceSafe"):
        export_ini(checked, "vkx-both-flags-and-checks")


def test_walls_from_the_edge_or_a_move_export_and_play_as_here() -> None:
    """`walls: {kind: edge, or-move: true}` (Atlantis) as wallingRule =
    edge and wallOrMove, moves without a wall spelt as pyffish spells them."""
    text = import_ini((DATA / "fidelity.ini").read_text(encoding="utf-8"),
                      "fidelity.ini")["vk-sinking"]
    assert isinstance(text, str)
    variant = variantkit.load_text(text, "sinking.yaml")
    ini = export_ini(variant, "vkx-sinking")
    assert "wallingRule = edge" in ini and "wallOrMove = true" in ini
    pyffish.load_variant_config(ini)
    oracle = ExportedOracle("vkx-sinking", variant)
    oracle.walk(2)
    oracle.random_games(games=2, max_plies=60, seed=1)


# --- rules written since: counting, draw odds, gating, Chess960, flagMove, pass ----------


@pytest.mark.parametrize(("name", "rule"), [
    ("makruk", "countingRule = makruk"), ("ai-wok", "countingRule = makruk"),
    ("asean", "countingRule = asean")])
def test_counting_is_written_as_fairy_stockfishs_rule_and_ends_as_here(name: str,
                                                                        rule: str) -> None:
    """The counts of makruk (its board's and pieces' honour) and of ASEAN
    chess are Fairy-Stockfish's countingRule; a king and rook against a bare
    king are played to the count's end, as pyffish ends it."""
    assert rule in export_ini(name)
    oracle = exported(name)
    outcomes = oracle.random_games(games=3, max_plies=200, seed=4,
                                   fen="8/8/3k4/8/8/8/3K4/R7 w - - 0 1")
    assert any(outcome is not None and outcome.reason == "counting" for outcome in outcomes)


def test_a_counting_fairy_stockfish_has_not_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "short-count.yaml"
    path.write_text("variantkit: 1\nname: short-count\ninherits: makruk\ndescription: x\n"
                    "end:\n  counting:\n    pawns: [pawn]\n    board: {moves: 10}\n",
                    encoding="utf-8")
    with pytest.raises(ExportRefused) as refused:
        export_ini(str(path))
    assert any("not one of Fairy-Stockfish's counting rules" in r for r in refused.value.reasons)


@pytest.mark.parametrize(("name", "line", "winner"), [
    # Knights out and back twice: the third time the start stands, Black wins.
    ("armageddon", ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"], "black"),
    ("minishogi", ["a1b2", "e5d4", "b2a1", "d4e5"] * 3, "black"),
])
def test_draws_go_to_one_side_as_fairy_stockfishs_draw_odds(name: str, line: list[str],
                                                            winner: str) -> None:
    assert "materialCounting = blackdrawodds" in export_ini(name)
    outcome = exported(name).replay(line)
    assert outcome is not None and (outcome.winner, outcome.reason) == (winner, "repetition")


@pytest.mark.parametrize("fen", [
    "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1",
    "r3k1r1/8/8/8/8/8/8/R3K1R1 w GAga - 0 1",
])
def test_chess960_castling_plays_from_other_starts_as_here(fen: str) -> None:
    """free-castling as chess960; the numbered setups write nothing (a start
    is given to Fairy-Stockfish as a position string)."""
    assert "chess960 = true" in export_ini("fischerandom")
    oracle = exported("fischerandom")
    oracle.walk(2, fen)
    oracle.random_games(games=2, max_plies=60, seed=1, fen=fen)


def test_seirawan_gating_plays_as_here() -> None:
    text = export_ini("seirawan")
    assert "gating = true" in text and "seirawanGating = true" in text
    # Gating a hawk and an elephant behind the knights, then castling with
    # the other hawk onto the king's cell.
    outcome = exported("seirawan").replay(["b1c3h", "b8c6e", "g1f3", "e7e6", "e2e3", "f8e7",
                                           "f1e2", "g8f6", "e1g1e"])
    assert outcome is None


def test_a_flag_held_for_a_reply_is_fairy_stockfishs_flag_move() -> None:
    """Jeson mor's knight on the centre wins if it still stands there after
    the other side's one reply: flagMove on one cell for both sides."""
    assert "flagMove = true" in export_ini("jesonmor")
    outcomes = exported("jesonmor").random_games(games=3, max_plies=200, seed=2)
    assert any(outcome is not None and outcome.reason == "region" for outcome in outcomes)


PASSING_KING = """\
variantkit: 1
name: passing-king
inherits: chess
pieces:
  king: {pass: true}
end:
  double-pass: draw
"""


def test_a_royal_pass_is_fairy_stockfishs_pass() -> None:
    """A king that may pass (janggi's general): `pass`, two in a row drawn."""
    variant = variantkit.load_text(PASSING_KING, "passing-king.yaml")
    text = export_ini(variant, "vkx-passing-king")
    assert "pass = true" in text
    pyffish.load_variant_config(text)
    oracle = ExportedOracle("vkx-passing-king", variant)
    oracle.divide()
    outcome = oracle.replay(["e1e1", "e8e8"])
    assert outcome is not None and (outcome.winner, outcome.reason) == (None, "double-pass")
    back = import_ini(text, "passing.ini")["vkx-passing-king"]
    assert isinstance(back, str) and "pass: true" in back


# --- Fairy-Stockfish 11.1, Debian's package ------------------------------------------------

DEBIAN_FSF = Path("/usr/games/fairy-stockfish")


def debian_perft(path: Path, section: str) -> tuple[int, str]:
    """Debian's Fairy-Stockfish loading `path` and counting perft 2 from the
    section's start: its exit status and its output."""
    commands = (f"uci\nsetoption name VariantPath value {path}\n"
                f"setoption name UCI_Variant value {section}\nposition startpos\n"
                "go perft 2\nquit\n")
    done = subprocess.run([str(DEBIAN_FSF)], input=commands, capture_output=True, text=True,
                          timeout=20, check=False)
    return done.returncode, done.stdout


@pytest.mark.skipif(shutil.which(str(DEBIAN_FSF)) is None,
                    reason="Debian's Fairy-Stockfish 11.1 is not installed "
                           "(apt-get install fairy-stockfish)")
@pytest.mark.parametrize("name", variantkit.variants())
def test_every_section_written_for_debians_fairy_stockfish_loads_and_counts_as_here(
        name: str, tmp_path: Path) -> None:
    """Written for 11.1, a variant loads in Debian's package without a crash
    and counts the same perft 2 from its start; one 11.1 cannot play
    (custom pieces, newer keys) is refused, the version named, where the
    current Fairy-Stockfish would take it."""
    try:
        text = export_ini(name, f"vkx-{name}", version="11.1")
    except ExportRefused as refused:
        try:
            export_ini(name)
        except ExportRefused:
            return
        assert any("Fairy-Stockfish 11.1" in reason for reason in refused.reasons)
        return
    path = tmp_path / "section.ini"
    path.write_text(text, encoding="utf-8")
    status, output = debian_perft(path, f"vkx-{name}")
    assert status == 0, f"{name}: Fairy-Stockfish 11.1 ended with status {status}"
    found = re.search(r"Nodes searched: (\d+)", output)
    assert found is not None, output[-500:]
    assert int(found.group(1)) == variantkit.perft(variantkit.load(name).new_game(), 2)


def test_a_custom_piece_is_refused_for_debians_fairy_stockfish() -> None:
    """Paradigm's bishop-knight (`customPiece1 = b:nNB`) crashed 11.1 (exit
    139): it has no custom pieces."""
    result = CliRunner().invoke(cli, ["export-fsf", "paradigm", "--fsf-version", "11.1"])
    assert result.exit_code == 1
    assert "paradigm: customPiece1: Fairy-Stockfish 11.1 (Debian's package) has no custom " \
        "pieces" in result.output
    assert result.output.rstrip().endswith("cannot be written for Fairy-Stockfish 11.1 "
                                           "(1 reason)")


def test_older_key_names_are_written_for_debians_fairy_stockfish() -> None:
    text = export_ini("gorogoro", version="11.1")
    assert "promotionRank = 5" in text and "promotionRegionWhite" not in text
    assert "whiteDropRegion = " in text and "dropRegionWhite" not in text
    assert "shogiDoubledPawn = false" in text
