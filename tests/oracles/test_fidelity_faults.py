"""Faults where variantkit differed from Fairy-Stockfish (pyffish), each
checked against pyffish side by side:

- the castling field of a variant that gates (Seirawan chess, S-house),
  read letter by letter as Fairy-Stockfish reads it, in Chess960 positions
  and in the standard array, and written back as it writes it;
- the material too little to mate: each game's own rule, compared with
  pyffish's `has_insufficient_material` on small material sets in every
  bundled game Fairy-Stockfish knows;
- the draws the side to move may claim: in the position where the count is
  reached or the position stands for the N-th time, never one move early,
  both in `Game.outcome()` and in the engine's claims under XBoard.
"""

from __future__ import annotations

import itertools
import queue
import random
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pyffish
import pytest
from fsf_oracle import fsf_variants

import variantkit
from variantkit import Game, InvalidFenError, Variant
from variantkit.core.general import empty_position
from variantkit.notation.fen import placement
from variantkit.outcome import insufficient_material

ROOT = Path(__file__).resolve().parent.parent.parent

# --- The castling field where file letters also name gates -----------------

SEIRAWAN_960 = "rnqkbnrb/pppppppp/8/8/8/8/PPPPPPPP/RNQKBNRB[HEhe] w {} - 0 1"

# (variant, position string, whether pyffish is asked in Chess960 mode):
# the mode variantkit reads the field in.
FIELDS = [
    # X-FEN K names the outermost rook on the king's side (g1), which gates
    # too, as does the king; the file letters name gates only.
    ("seirawan", SEIRAWAN_960.format("HECBFQKhecbfqk"), True),
    ("seirawan", SEIRAWAN_960.format("KQkq"), True),
    # Castling with the gated rooks, where the king's gate is named.
    ("seirawan", "qbbrnkrn/pppppppp/8/8/8/8/PPPPPPPP/QBBRNKRN[HEhe] w ABCDEFGHabcdefgh - 0 1",
     True),
    # The last rook named on the queen's side castles (b1, not a1).
    ("seirawan", "rrkbbnnq/pppppppp/8/8/8/8/PPPPPPPP/RRKBBNNQ[HEhe] w ABCabc - 0 1", True),
    # A side with a castling right by letter castles no other rook: a1
    # only gates, though the king does too.
    ("seirawan", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[HEhe] w KAkq - 0 1", False),
    # Empty hands for good: a file letter names a castling rook.
    ("seirawan", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w HAha - 0 1", True),
    ("seirawan", "r1k2r2/pppppppp/8/8/8/8/PPPPPPPP/R1K2R2[He] w FCa - 0 1", True),
    # S-house may always gate (captures fill the hands): F gates only,
    # and the king, not named, does not castle.
    ("shouse", "rnkbbrqn/pppppppp/8/8/8/8/PPPPPPPP/RNKBBRQN[] w FHq - 0 1", True),
    ("shouse", "r2k1r2/pppppppp/8/8/8/8/PPPPPPPP/R2K1R2[HEhe] w KQDkqd - 0 1", True),
    ("fischerandom", "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1", True),
    ("chess", "r2k1r2/pppppppp/8/8/8/8/PPPPPPPP/R2K1R2 w KQkq - 0 1", True),
    ("caparandom", "r3k3r1/pppppppppp/10/10/10/10/PPPPPPPPPP/R3K3R1 w IAia - 0 1", True),
    ("capablanca", "r3k3r1/pppppppppp/10/10/10/10/PPPPPPPPPP/R3K3R1 w KQkq - 0 1", True),
]


def same_as_pyffish(game: Game, name: str, fen: str, played: list[str], is960: bool) -> None:
    where = f"{name} {fen} after {' '.join(played) or 'nothing'}"
    theirs = " ".join(f or "-" for f in pyffish.get_fen(name, fen, played, is960).split(" "))
    assert game.fen() == theirs, where
    ours = {str(m) for m in game.legal_moves()}
    assert ours == set(pyffish.legal_moves(name, fen, played, is960)), where


@pytest.mark.parametrize(("name", "fen", "is960"), FIELDS)
def test_castling_field_reads_and_plays_as_pyffish(name: str, fen: str, is960: bool) -> None:
    game = variantkit.load(name).new_game(fen)
    assert game.position.chess960 == is960
    rng = random.Random(fen)
    played: list[str] = []
    for _ in range(24):
        same_as_pyffish(game, name, fen, played, is960)
        moves = sorted(game.legal_moves(), key=str)
        if not moves or game.outcome() is not None:
            break
        # Castling and the king's and rooks' moves first: they are what the
        # field is about.
        firsts = [m for m in moves
                  if not m.drop and game.piece_at(m.from_cell) in ("K", "k", "R", "r")]
        move = str(rng.choice(firsts if firsts and rng.random() < 0.6 else moves))
        game.push(move)
        played.append(move)


def test_the_castling_field_is_written_as_pyffish_writes_it() -> None:
    game = variantkit.load("seirawan").new_game(SEIRAWAN_960.format("HECBFQKhecbfqk"))
    assert game.fen().split()[2] == "GABCDEFHgabcdefh"
    game = variantkit.load("seirawan").new_game(SEIRAWAN_960.format("KQkq"))
    assert game.fen().split()[2] == "GADgad"


def test_a_recorded_seirawan960_game_castles_gating_on_the_kings_cell() -> None:
    fen = SEIRAWAN_960.format("HECBFQKhecbfqk")
    game = variantkit.load("seirawan").new_game(fen)
    for move in ("f2f4", "f7f5", "f1g3", "f8g6", "e1f2", "e8f7"):
        game.push(move)
    move = game.push_san("O-O/Ed1")
    assert str(move) == "d1g1e"
    played = [str(m) for m in game.move_stack]
    assert game.fen() == pyffish.get_fen("seirawan", fen, played, True)


# --- Material too little to mate --------------------------------------------

# Where variantkit keeps to the game's rules against pyffish's judgement,
# by (variant, material: White's letters v Black's), with the reason.
DELIBERATE = {
    ("ai-wok", "KA v K"): "the ai-wok moves as a rook, knight and met: it mates",
    ("ai-wok", "KP v K"): "a pawn becomes an ai-wok",
    ("newzealand", "KN v K"): "the knight attacks as a rook: it mates with its king's help",
}
# Games of two boards: the partner board may fill either hand at any time,
# so no material on one board is too little (pyffish judges one board).
TWO_BOARDS = {"bughouse", "supply"}


def material_sets(kinds: list[int]) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Bare kings; one piece or two of a side against a bare king; one
    piece each."""
    sets: list[tuple[tuple[int, ...], tuple[int, ...]]] = [((), ())]
    sets += [((kind,), ()) for kind in kinds]
    for a, b in itertools.combinations_with_replacement(kinds, 2):
        sets += [((a, b), ()), ((a,), (b,))]
    return sets


def placed(variant: Variant, white: tuple[int, ...], black: tuple[int, ...],
           rng: random.Random) -> str:
    """The royal pieces on their setup cells, the others on random empty
    cells, White to move."""
    position = empty_position(variant.rules)
    for cell, code in variant.rules.setup.cells.items():
        if variant.rules.codes.royal_code[code]:
            position.place(cell, code)
    free = [c for c in range(variant.board.size) if not position.cells[c]]
    rng.shuffle(free)
    for side, kinds in enumerate((white, black)):
        for kind in kinds:
            position.place(free.pop(), kind | side)
    hand = "[]" if variant.rules.hands.has_hands else ""
    return f"{placement(position)}{hand} w - - 0 40"


@pytest.mark.parametrize("name", fsf_variants())
def test_insufficient_material_as_pyffish_judges_it(name: str) -> None:
    variant = variantkit.load(name)
    setup = variant.rules.setup.cells
    royal = variant.rules.codes.royal_code
    kinds = sorted({code & ~1 for code in setup.values() if not royal[code]})
    rng = random.Random(name)
    differ = set()
    for white, black in material_sets(kinds):
        label = "K" + "".join(variant.letter_of_code(k) for k in white) \
            + " v K" + "".join(variant.letter_of_code(k) for k in black)
        for _ in range(2):
            fen = placed(variant, white, black, rng)
            try:
                game = variant.new_game(fen)
            except InvalidFenError:
                continue  # a royal piece in check, or facing the other
            if not game.legal_moves():
                continue
            white_short, black_short = pyffish.has_insufficient_material(name, fen, [])
            if insufficient_material(game.position) != (white_short and black_short):
                differ.add(label)
            if name in TWO_BOARDS:
                assert not insufficient_material(game.position), fen
    if name in TWO_BOARDS:
        return
    allowed = {material for variant_name, material in DELIBERATE if variant_name == name}
    assert not differ - allowed, f"{name}: variantkit and pyffish differ on {sorted(differ)}"


@pytest.mark.parametrize(("name", "material"), sorted(DELIBERATE))
def test_deliberate_differences_in_material(name: str, material: str) -> None:
    # The material below stands where no piece gives check: pyffish calls
    # it too little to mate, variantkit plays on.
    fens = {("ai-wok", "KA v K"): "4k3/8/8/8/8/8/8/A2K4 w - - 0 40",
            ("ai-wok", "KP v K"): "4k3/8/8/8/8/1P6/8/3K4 w - - 0 40",
            ("newzealand", "KN v K"): "4k3/8/8/8/8/8/1N6/4K3 w - - 0 40"}
    fen = fens[name, material]
    assert pyffish.has_insufficient_material(name, fen, []) == (True, True)
    assert variantkit.load(name).new_game(fen).outcome() is None


@pytest.mark.parametrize("name", ["capablanca", "caparandom", "gothic", "embassy", "centaur"])
def test_capablanca_plays_on_with_bishop_against_knight(name: str) -> None:
    game = variantkit.load(name).new_game("5k4/10/10/7n2/10/10/3K6/2B7 w - - 0 221")
    assert game.outcome() is None
    assert pyffish.has_insufficient_material(name, game.fen(), []) == (False, False)
    # Bishops all on one colour cannot mate, in either game's rule.
    fen = "5k4/10/10/6b3/10/10/3K6/2B7 w - - 0 221"     # c1 and g5
    assert variantkit.load(name).new_game(fen).outcome() == (None, "insufficient-material")
    assert pyffish.has_insufficient_material(name, fen, []) == (True, True)


def test_trice_keeps_its_own_rule() -> None:
    game = variantkit.load("trice").new_game("5k4/10/10/7n2/10/10/3K6/2B7 w - - 0 221")
    assert game.outcome() == (None, "insufficient-material")


def test_janggi_bare_generals_are_decided_by_points() -> None:
    game = variantkit.load("janggi").new_game("3k5/9/9/9/9/9/9/9/4K4/9 w - - 0 1")
    assert game.outcome() == ("black", "insufficient-material")   # Han's 1.5 points


# --- Draws claimed in the position itself ------------------------------------

# (variant, a position with a quiet move at hand, the clock's field index).
CLOCKS = [
    ("chess", "3r4/8/1k6/4KR2/4N3/8/8/8 b - - {} 112"),
    ("xiangqi", "3k5/9/9/9/9/9/9/9/4R4/5K3 w - - {} 60"),
    ("shatranj", "3r4/8/1k6/4KR2/4N3/8/8/8 b - - {} 112"),
    ("shogi", "4k4/9/9/9/9/9/9/R8/4K4[] w - - {} 60"),
    ("makruk", "3r4/8/1k6/4KR2/4N3/8/8/8 b - - {} 112"),
]


@pytest.mark.parametrize(("name", "fen"), CLOCKS)
@pytest.mark.parametrize("clock", [98, 99, 100, 101])
def test_the_move_rule_is_claimed_once_the_count_is_reached(name: str, fen: str,
                                                            clock: int) -> None:
    text = fen.format(clock)
    game = variantkit.load(name).new_game(text)
    claimable = pyffish.is_optional_game_end(name, text, [])[0]
    outcome = game.outcome()
    assert (outcome is not None) == claimable, (name, clock, outcome)
    assert outcome is None or outcome == (None, "move-rule")


SHUFFLES = [
    ("chess", ["g1f3", "g8f6", "f3g1", "f6g8"], 3),
    ("capablanca", ["b1c3", "b8c6", "c3b1", "c6b8"], 3),
    ("xiangqi", ["b1c3", "b10c8", "c3b1", "c8b10"], 3),
    ("shogi", ["h2i2", "b8a8", "i2h2", "a8b8"], 4),
]


@pytest.mark.parametrize(("name", "shuffle", "times"), SHUFFLES)
def test_a_repetition_is_claimed_once_it_has_occurred(name: str, shuffle: list[str],
                                                     times: int) -> None:
    variant = variantkit.load(name)
    start = variant.setup_fen
    game = variant.new_game()
    line = shuffle * times
    for ply in range(len(line) + 1):
        claimable = pyffish.is_optional_game_end(name, start, line[:ply])[0]
        # The start stands for the N-th time after N-1 shuffles, not a ply before.
        assert claimable == (ply >= len(shuffle) * (times - 1)), (name, ply)
        assert (game.outcome() is not None) == claimable, (name, ply, game.outcome())
        if ply < len(line):
            game.push(line[ply])


class Xboard:
    """`variantkit xboard` as a separate process, read line by line."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "variantkit", "xboard"], cwd=ROOT, text=True,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))

    def send(self, *lines: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write("".join(f"{line}\n" for line in lines))
        self.process.stdin.flush()

    def until(self, pattern: str, timeout: float = 30) -> list[str]:
        """The lines read up to one matching `pattern`, that one included."""
        seen = []
        while True:
            line = self.lines.get(timeout=timeout)
            seen.append(line)
            if re.fullmatch(pattern, line):
                return seen

    def close(self) -> None:
        self.send("quit")
        try:
            self.process.wait(timeout=10)
        finally:
            self.process.kill()


@pytest.fixture
def xboard() -> Iterator[Xboard]:
    engine = Xboard()
    yield engine
    engine.close()


def test_xboard_claims_the_move_rule_after_its_own_move(xboard: Xboard) -> None:
    # Clock 99 after d8e8, White in check: no claim yet; White's king move
    # makes the hundredth half-move, and then the engine claims.
    xboard.send("xboard", "protover 2", "new", "force", "sd 2",
                "setboard 3r4/8/1k6/4KR2/4N3/8/8/8 b - - 98 112", "usermove d8e8",
                "ping 1")
    assert not [line for line in xboard.until("pong 1") if line.startswith("1/2-1/2")]
    xboard.send("go")
    after = xboard.until(r"move e5\S+")
    assert not [line for line in after if line.startswith("1/2-1/2")]
    assert xboard.until(r"1/2-1/2 .*") == ["1/2-1/2 {draw by move rule}"]


def test_xboard_claims_a_repetition_when_it_occurs(xboard: Xboard) -> None:
    shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"]
    line = shuffle * 2
    xboard.send("xboard", "protover 2", "new", "force",
                *(f"usermove {move}" for move in line[:-1]), "ping 1")
    # Seven plies: the start has stood twice; the next move would repeat it.
    assert not [seen for seen in xboard.until("pong 1") if seen.startswith("1/2-1/2")]
    xboard.send(f"usermove {line[-1]}", "ping 2")
    seen = xboard.until("pong 2")
    assert "1/2-1/2 {draw by repetition}" in seen
