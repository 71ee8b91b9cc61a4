"""variantkit.compat.pyffish beside pyffish itself: every function called
with the same arguments on every bundled game Fairy-Stockfish knows, from
the start and along seeded random games, the answers compared.

Where the module answers otherwise, the difference is known and explained
on docs/pyffish.md: `KNOWN` lists, per function, the games where a sweep
finds one and the section that explains it.  A difference not listed fails
(`make test` compares a few plies of each game; `make oracle` the whole
sweep, which must find exactly the listed ones).  The other tests check
what pyffish's interface promises beyond the answers: its names, argument
checks, errors, loaded variants and options, and variantkit's own games.
"""

from __future__ import annotations

import contextlib
import random
import re
import threading
from collections.abc import Callable
from pathlib import Path

import pyffish
import pytest
from fsf_oracle import fsf_variants

import variantkit
import variantkit.compat.pyffish as sf
from variantkit.notation.san import san_moves

# The module runs no compiled code of its own: the core it plays on is
# compared on both builds by the catalogue tests.
PURE_PASS = False

DOC = Path(__file__).resolve().parent.parent.parent / "docs" / "pyffish.md"
NOTATIONS = {name: getattr(pyffish, name) for name in dir(pyffish)
             if name.startswith("NOTATION_")}
FUNCTIONS = ("legal_moves", "get_fen", "gives_check", "is_capture", "piece_to_partner",
             "game_result", "is_immediate_game_end", "is_optional_game_end",
             "has_insufficient_material", "validate_fen", "get_fog_fen", "start_fen",
             "two_boards", "captures_to_hand", "get_fen sfen", "get_fen show_promoted",
             "get_san_moves", *(f"get_san {n}" for n in NOTATIONS))

# Function -> game -> the section of docs/pyffish.md that explains why the
# module answers otherwise there.
PROMOTED = "letters-of-promoted-kinds"
THAI = "thai-letters"
FIELDS = "fields-the-two-check-differently"
SHOGI_FAMILY = ("checkshogi", "dobutsu", "euroshogi", "judkins", "kyotoshogi", "micro", "mini",
                "minishogi", "okisakishogi", "shoshogi", "torishogi")
JANGGI_FAMILY = ("janggi", "janggicasual", "janggimodern", "janggitraditional")
KNOWN: dict[str, dict[str, str]] = {
    **{f"get_san {notation}": dict.fromkeys(SHOGI_FAMILY, PROMOTED) for notation in (
        "NOTATION_SAN", "NOTATION_LAN", "NOTATION_JANGGI", "NOTATION_XIANGQI_WXF")},
    **{f"get_san {notation}": {**dict.fromkeys(SHOGI_FAMILY, PROMOTED),
                               **dict.fromkeys(JANGGI_FAMILY, THAI)}
       for notation in ("NOTATION_THAI_SAN", "NOTATION_THAI_LAN")},
    "get_san_moves": {**dict.fromkeys(SHOGI_FAMILY, PROMOTED),
                      **dict.fromkeys(JANGGI_FAMILY, THAI)},
    "validate_fen": dict.fromkeys(
        ("amazons", "berolina", "cambodian", "fox-and-hounds", "isolation", "isolation7x7",
         "joust", "karouk", "legan", "pawnback", "pawnsideways", "petrified", "snailtrail",
         "threekings"), FIELDS),
}

# `make test` plays this many plies of one game in each variant, and writes
# this many of each position's moves in every notation; `make oracle` more.
QUICK_PLIES, QUICK_WRITTEN = 4, 2
DEEP_SEEDS, DEEP_PLIES, DEEP_WRITTEN = 2, 40, 6


def known(function: str, name: str) -> str | None:
    return KNOWN.get(function, {}).get(name)


def broken_fens(fen: str) -> list[str]:
    """A position string spoilt one field at a time, as a hand may spoil
    it.  Rows are only taken away or repeated whole: pyffish's check
    writes past its board on a row made longer within (a digit before a
    piece), which corrupts its memory."""
    fields = fen.split(" ")
    board, bracket, hand = fields[0].partition("[")
    rows = board.split("/")
    rest = " ".join(fields[1:])
    out = ["", f"{'/'.join(rows[:-1])}{bracket}{hand} {rest}",
           f"{'/'.join(rows + rows[-1:])}{bracket}{hand} {rest}", "x" + fen,
           " ".join(fields[:1] + ["x"] + fields[2:]), fen + " 1 2", fen.replace(" ", "  ", 1)]
    if len(fields) > 3:
        out += [" ".join(fields[:2] + ["1"] + fields[3:]),
                " ".join(fields[:3] + ["z9x"] + fields[4:])]
    if len(fields) > 5:
        out += [" ".join(fields[:-2] + ["a", fields[-1]]), " ".join(fields[:-1] + ["b"])]
    return out


class Sweep:
    """The differences found in one variant: (function, game) -> an example."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.found: dict[tuple[str, str], str] = {}

    def compare(self, function: str, theirs: object, ours: object, where: str) -> None:
        if theirs != ours:
            self.found.setdefault((function, self.name),
                                  f"{where}: pyffish {theirs!r}, module {ours!r}")

    def ours(self, call: Callable[[], object]) -> object:
        """The module's answer, or the error it raised (never another exception)."""
        try:
            return call()
        except sf.error as exc:
            return f"error: {exc}"

    def run(self, seed: int, plies: int, written: int) -> None:
        name = self.name
        rng = random.Random(f"{name}:{seed}")
        start = pyffish.start_fen(name)
        if seed == 0:
            for function in ("two_boards", "captures_to_hand"):
                self.compare(function, getattr(pyffish, function)(name),
                             self.ours(lambda f=function: getattr(sf, f)(name)), "")
            self.compare("start_fen", pyffish.get_fen(name, start, []),
                         self.ours(lambda: sf.get_fen(name, sf.start_fen(name), [])),
                         "the start read back")
        moves: list[str] = []
        for ply in range(plies + 1):
            if not self.position(start, moves, ply == 0, rng, written):
                break
            legal = sorted(pyffish.legal_moves(name, start, moves))
            if ply == plies:
                break
            moves.append(rng.choice(legal))
        for notation, value in NOTATIONS.items():
            self.compare("get_san_moves", pyffish.get_san_moves(name, start, moves, False, value),
                         self.ours(lambda v=value: sf.get_san_moves(name, start, moves, False, v)),
                         f"{start} {notation} {moves}")

    def position(self, start: str, moves: list[str], first: bool, rng: random.Random,
                 written: int) -> bool:
        """Compare one position; False where the game is over."""
        name = self.name
        where = f"{start} moves {' '.join(moves)}"
        theirs = pyffish.legal_moves(name, start, moves)
        ours = self.ours(lambda: sf.legal_moves(name, start, moves))
        self.compare("legal_moves", sorted(theirs),
                     sorted(ours) if isinstance(ours, list) else ours, where)
        for function in ("get_fen", "gives_check", "has_insufficient_material",
                         "piece_to_partner"):
            self.compare(function, getattr(pyffish, function)(name, start, moves),
                         self.ours(lambda f=function: getattr(sf, f)(name, start, moves)), where)
        for function in ("is_immediate_game_end", "is_optional_game_end"):
            ended, value = getattr(pyffish, function)(name, start, moves)
            # pyffish's value is unset where the game goes on: (False, 0) is its meaning.
            self.compare(function, (ended, value if ended else 0),
                         self.ours(lambda f=function: getattr(sf, f)(name, start, moves)), where)
        over = not theirs or pyffish.is_immediate_game_end(name, start, moves)[0]
        if over:
            self.compare("game_result", pyffish.game_result(name, start, moves),
                         self.ours(lambda: sf.game_result(name, start, moves)), where)
        for flags, function in (((False, True), "get_fen sfen"),
                                ((False, False, True), "get_fen show_promoted")):
            self.compare(function, pyffish.get_fen(name, start, moves, *flags),
                         self.ours(lambda a=flags: sf.get_fen(name, start, moves, *a)), where)
        fen = pyffish.get_fen(name, start, moves)
        self.compare("get_fog_fen", pyffish.get_fog_fen(fen, name),
                     self.ours(lambda: sf.get_fog_fen(fen, name)), fen)
        for text in [fen, *(broken_fens(fen) if first else [])]:
            self.compare("validate_fen", pyffish.validate_fen(text, name),
                         self.ours(lambda t=text: sf.validate_fen(t, name)), repr(text))
        for move in rng.sample(sorted(theirs), min(written, len(theirs))):
            self.compare("is_capture", pyffish.is_capture(name, fen, [], move),
                         self.ours(lambda m=move: sf.is_capture(name, fen, [], m)),
                         f"{fen} {move}")
            for notation, value in NOTATIONS.items():
                self.compare(f"get_san {notation}", pyffish.get_san(name, fen, move, False, value),
                             self.ours(lambda m=move, v=value: sf.get_san(name, fen, m, False, v)),
                             f"{fen} {move}")
        return not over


def unexplained(sweep: Sweep) -> list[str]:
    return [f"{function} in {name}: {example}"
            for (function, name), example in sweep.found.items()
            if known(function, name) is None]


@pytest.mark.parametrize("name", fsf_variants())
def test_a_few_plies_answer_as_pyffish(name: str) -> None:
    sweep = Sweep(name)
    sweep.run(0, QUICK_PLIES, QUICK_WRITTEN)
    assert not unexplained(sweep), "\n".join(unexplained(sweep))


@pytest.mark.oracle
@pytest.mark.parametrize("name", fsf_variants())
def test_the_sweep_finds_exactly_the_known_differences(name: str) -> None:
    sweep = Sweep(name)
    for seed in range(DEEP_SEEDS):
        sweep.run(seed, DEEP_PLIES, DEEP_WRITTEN)
    assert not unexplained(sweep), "\n".join(unexplained(sweep))
    listed = {function for function, games in KNOWN.items() if name in games}
    assert listed == {function for function, _ in sweep.found}, \
        f"listed differences the sweep no longer finds: {listed - {f for f, _ in sweep.found}}"


def test_every_known_difference_is_explained_on_the_page() -> None:
    headings = {_anchor(h) for h in re.findall(r"^###\s+(.+)$", DOC.read_text(encoding="utf-8"),
                                              flags=re.MULTILINE)}
    used = {section for games in KNOWN.values() for section in games.values()}
    assert used <= headings, f"sections missing from docs/pyffish.md: {used - headings}"
    assert set(KNOWN) <= set(FUNCTIONS)
    assert all(name in pyffish.variants() for games in KNOWN.values() for name in games)


def _anchor(heading: str) -> str:
    """A heading's anchor as mkdocs makes it."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


# -- the interface ------------------------------------------------------------------------

def test_every_public_name_of_pyffish_is_here() -> None:
    public = {name for name in dir(pyffish) if not name.startswith("_")}
    assert public <= set(dir(sf)), public - set(dir(sf))
    for name in public:
        theirs, ours = getattr(pyffish, name), getattr(sf, name)
        if isinstance(theirs, int):
            assert ours == theirs, name
        elif isinstance(theirs, type):
            assert issubclass(ours, Exception) and issubclass(sf.error, ValueError), name
        else:
            assert callable(ours), name
    assert sf.version() == (0, 0, 90) and "variantkit" in sf.info()
    assert sf.variants() == sorted(variantkit.variants())


START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


@pytest.mark.parametrize("call", [
    lambda m: m.legal_moves("chess", START, ("e2e4",)),
    lambda m: m.legal_moves("chess", 1, []),
    lambda m: m.legal_moves(b"chess", START, []),
    lambda m: m.get_fen("chess", START, [], False, False, False, 1.5),
    lambda m: m.get_san("chess", START, 5),
    lambda m: m.get_san("chess", START, "e2e4", False, "san"),
    lambda m: m.legal_moves(variant="chess", fen=START, movelist=[]),
    lambda m: m.legal_moves("chess", START),
    lambda m: m.validate_fen(START),
    lambda m: m.start_fen(None),
])
def test_arguments_of_the_wrong_type_raise_type_error_as_in_pyffish(
        call: Callable[[object], object]) -> None:
    with pytest.raises(TypeError) as theirs:
        call(pyffish)
    with pytest.raises(TypeError) as ours:
        call(sf)
    if "must be" in str(theirs.value):
        assert str(ours.value) == str(theirs.value)


def test_bad_input_raises_error_never_a_crash() -> None:
    # pyffish crashes the process on an unknown variant name: the module raises.
    with pytest.raises(sf.error, match="unknown variant 'nosuchgame'"):
        sf.legal_moves("nosuchgame", START, [])
    for call in (lambda m: m.legal_moves("chess", START, ["e2e5"]),
                 lambda m: m.get_san_moves("chess", START, ["e2e4", "e2e5"])):
        with pytest.raises(ValueError, match="Invalid move 'e2e5'") as theirs:
            try:
                call(pyffish)
            except SystemError as exc:   # pyffish's legal_moves: the ValueError as its cause
                raise exc.__cause__ from None   # type: ignore[misc]
        with pytest.raises(sf.error, match="Invalid move 'e2e5'"):
            call(sf)
        assert isinstance(theirs.value, ValueError)
    # pyffish writes an illegal move as whatever its empty move reads as; the module refuses.
    assert pyffish.get_san("chess", START, "e2e5") == "Ra1"
    with pytest.raises(sf.error):
        sf.get_san("chess", START, "e2e5")
    with pytest.raises(TypeError):
        sf.legal_moves("chess", START, [1])   # pyffish crashes here too
    with pytest.raises(ValueError, match="embedded null"):
        sf.legal_moves("chess\0", START, [])
    with pytest.raises(sf.error, match="more than the 10,000 allowed"):
        sf.legal_moves("chess", START, ["e2e4"] * 10_001)
    with pytest.raises(sf.error, match="position string"):
        sf.get_fen("chess", "garbage", [])
    with pytest.raises(sf.error):
        sf.get_fen("chess", "8/" * 5000 + " w", [])


def test_hostile_input_gives_only_errors_within_bounds() -> None:
    rng = random.Random(7)
    alphabet = "rnbqkpRNBQKP12345678/ -[]+~*@wbKQkq0123456789xé\x01\u202e"
    texts = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 80)))
             for _ in range(150)] + ["startpos", START, " " * 100, "9" * 400]
    names = ["chess", "crazyhouse", "shogi", "xiangqi", "diplomat", "strato", "no such", ""]
    calls: list[Callable[[str, str], object]] = [
        lambda name, text: sf.legal_moves(name, text, []),
        lambda name, text: sf.legal_moves(name, START, [text]),
        lambda name, text: sf.get_fen(name, text, [], True, True, True),
        lambda name, text: sf.validate_fen(text, name),
        lambda name, text: sf.get_fog_fen(text, name),
        lambda name, text: sf.is_capture(name, START, [], text),
        lambda name, text: sf.get_san(name, START, text, False, len(text) % 12 - 2),
        lambda name, text: sf.game_result(name, text, [])]
    for text in texts:
        name = rng.choice(names)
        for call in calls:
            with contextlib.suppress(ValueError):   # sf.error is one
                call(name, text)


def test_kept_games_never_mix_games() -> None:
    """Games interleaved, a game taken back and played on otherwise, and more
    games than the module keeps: every answer still pyffish's."""
    lines = {}
    for name, seed in (("chess", 1), ("chess", 2), ("crazyhouse", 1), ("shogi", 3)):
        rng, moves = random.Random(seed), []
        start = pyffish.start_fen(name)
        for _ in range(12):
            moves.append(rng.choice(sorted(pyffish.legal_moves(name, start, moves))))
        lines[(name, seed)] = (start, moves)
    for ply in range(13):
        for (name, _), (start, moves) in lines.items():
            played = moves[:ply]
            assert sorted(sf.legal_moves(name, start, played)) == \
                sorted(pyffish.legal_moves(name, start, played))
            assert sf.get_fen(name, start, played) == pyffish.get_fen(name, start, played)
    start, moves = lines[("chess", 1)]
    for cut in (11, 3, 12, 0, 7):   # taken back and replayed
        assert sf.get_fen("chess", start, moves[:cut]) == pyffish.get_fen("chess", start,
                                                                          moves[:cut])
    fens = [pyffish.get_fen("chess", start, moves[:n]) for n in range(13)]
    for _ in range(3):   # more positions than the games kept
        for fen in fens:
            assert sf.legal_moves("chess", fen, []) == sf.legal_moves("chess", fen, [])
            assert sorted(sf.legal_moves("chess", fen, [])) == \
                sorted(pyffish.legal_moves("chess", fen, []))


def test_threads_share_the_module() -> None:
    start = pyffish.start_fen("chess")
    rng, moves = random.Random(5), []
    for _ in range(30):
        moves.append(rng.choice(sorted(pyffish.legal_moves("chess", start, moves))))
    expected = [pyffish.get_fen("chess", start, moves[:n]) for n in range(31)]
    failures: list[str] = []

    def play(offset: int) -> None:
        for n in range(31):
            ply = (n + offset) % 31
            if sf.get_fen("chess", start, moves[:ply]) != expected[ply]:
                failures.append(f"ply {ply}")
    threads = [threading.Thread(target=play, args=(k * 7,)) for k in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads) and not failures


def test_chess960_castling_as_pyffish_writes_it() -> None:
    fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
    for chess960 in (False, True):
        assert sorted(sf.legal_moves("chess", fen, [], chess960)) == \
            sorted(pyffish.legal_moves("chess", fen, [], chess960))
        for move in pyffish.legal_moves("chess", fen, [], chess960):
            assert sf.get_fen("chess", fen, [move], chess960) == \
                pyffish.get_fen("chess", fen, [move], chess960)
            assert sf.get_san("chess", fen, move, chess960) == \
                pyffish.get_san("chess", fen, move, chess960)
    shredder = "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1"
    assert sorted(sf.legal_moves("chess", shredder, [])) == \
        sorted(pyffish.legal_moves("chess", shredder, []))
    assert sf.get_fen("chess", shredder, ["a1b1"]) == pyffish.get_fen("chess", shredder,
                                                                     ["a1b1"])
    start = pyffish.start_fen("fischerandom")
    assert sf.get_fen("fischerandom", start, []) == pyffish.get_fen("fischerandom", start, [])


def test_unknown_notations_write_san() -> None:
    # pyffish writes a notation it does not know as a mix of its others (`Pe4`).
    assert pyffish.get_san("chess", START, "e2e4", False, 99) == "Pe4"
    assert sf.get_san("chess", START, "e2e4", False, 99) == "e4"


# -- loaded variants and options -------------------------------------------------------------

KINGS_ONLY = "[kingsandpawns:chess]\nstartFen = 4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1\n"


def test_a_loaded_section_plays_as_in_pyffish() -> None:
    pyffish.load_variant_config(KINGS_ONLY)
    sf.load_variant_config(KINGS_ONLY)
    child = "[kingsandpawns2:kingsandpawns]\nmustCapture = true\n"
    pyffish.load_variant_config(child)
    sf.load_variant_config(child)   # inherits the section loaded before
    assert {"kingsandpawns", "kingsandpawns2"} <= set(sf.variants())
    for name in ("kingsandpawns", "kingsandpawns2"):
        start = pyffish.start_fen(name)
        assert sf.get_fen(name, sf.start_fen(name), []) == pyffish.get_fen(name, start, [])
        rng, moves = random.Random(name), []
        for _ in range(20):
            legal = pyffish.legal_moves(name, start, moves)
            assert sorted(sf.legal_moves(name, start, moves)) == sorted(legal)
            assert sf.get_fen(name, start, moves) == pyffish.get_fen(name, start, moves)
            if not legal:
                assert sf.game_result(name, start, moves) == \
                    pyffish.game_result(name, start, moves)
                break
            moves.append(rng.choice(sorted(legal)))


def test_a_section_the_importer_refuses_is_named_when_used() -> None:
    sf.load_variant_config("[wallmover:duck]\nwallOrMove = true\n")
    assert "wallmover" not in sf.variants()
    with pytest.raises(sf.error, match=r"'wallmover' was not imported: .*changes the walls"):
        sf.legal_moves("wallmover", START, [])
    with pytest.raises(sf.error, match="longer than"):
        sf.load_variant_config("#" * 3_000_000)


def test_options() -> None:
    for name, value in (("Threads", 2), ("hash", 64), ("UCI_Chess960", True),
                        ("UCI_Variant", "xiangqi"), ("Use NNUE", False)):
        assert pyffish.set_option(name, value) is None
        assert sf.set_option(name, value) is None
    with pytest.raises(ValueError) as theirs:
        pyffish.set_option("NoSuchOption", 1)
    with pytest.raises(ValueError) as ours:
        sf.set_option("NoSuchOption", 1)
    assert str(ours.value) == str(theirs.value)
    # The chess960 argument, not the option, decides each call, as in pyffish.
    assert sf.legal_moves("chess", START, []) == sf.legal_moves("chess", START, [], False)


def test_variant_path_loads_the_file_it_names(tmp_path: Path) -> None:
    ini = tmp_path / "mine.ini"
    ini.write_text(KINGS_ONLY.replace("kingsandpawns", "frompath"), encoding="utf-8")
    sf.set_option("VariantPath", str(ini))
    assert "frompath" in sf.variants()
    with pytest.raises(sf.error, match="cannot read"):
        sf.set_option("VariantPath", str(tmp_path / "missing.ini"))
    with pytest.raises(sf.error, match="cannot read"):
        sf.set_option("VariantPath", str(tmp_path))


# -- variantkit's own games ------------------------------------------------------------------

@pytest.mark.parametrize("name", ["diplomat", "strato", "trice"])
def test_variantkits_own_games_answer_in_their_own_strings(name: str) -> None:
    variant = variantkit.load(name)
    game = variant.new_game()
    start = sf.start_fen(name)
    assert sf.validate_fen(start, name) == sf.FEN_OK
    assert sf.validate_fen("garbage", name) != sf.FEN_OK
    rng, moves = random.Random(name), []
    for _ in range(40):
        assert sf.legal_moves(name, start, moves) == [str(m) for m in game.legal_moves()]
        assert sf.get_fen(name, start, moves) == game.fen()
        assert sf.gives_check(name, start, moves) == game.is_check()
        outcome = game.outcome()
        if not game.legal_moves() or outcome is not None:
            assert sf.game_result(name, start, moves) in (sf.VALUE_MATE, -sf.VALUE_MATE,
                                                          sf.VALUE_DRAW)
            break
        assert sf.is_immediate_game_end(name, start, moves) == (False, sf.VALUE_DRAW)
        move = rng.choice(game.legal_moves())
        fen = game.fen()
        written = sf.get_san(name, fen, str(move))
        assert written.rstrip("+#") == game.san(move).rstrip("+#")
        assert sf.is_capture(name, fen, [], str(move)) == \
            (not move.drop and not move.suborn and game.piece_at(move.to_cell) is not None)
        game.push(move)
        moves.append(str(move))
    assert [s.rstrip("+#") for s in sf.get_san_moves(name, start, moves)] == \
        [s.rstrip("+#") for s in san_moves(variant.new_game(), moves)]
    if name != "trice":   # trice's board is a grid of files and ranks
        with pytest.raises(sf.error, match="counts files and ranks"):
            sf.get_san(name, start, moves[0], False, sf.NOTATION_LAN)
        with pytest.raises(sf.error, match="counts files and ranks"):
            sf.get_fog_fen(start, name)
