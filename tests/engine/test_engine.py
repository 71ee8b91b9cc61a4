"""Tests of the built-in engine (variantkit.engine.search): mates found in each
kind of board, material kept, the variant's own end rules, legal and
deterministic moves everywhere, estimated piece values."""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path

import pytest
from catalogue import on_both_builds, one_per_board

import variantkit
from variantkit import Engine, Outcome
from variantkit.core.moves import GATE
from variantkit.engine.evaluation import (
    Evaluation,
    advancement,
    guarded,
    mobility_values,
    neighbourhood,
    piece_values,
    promotion_distances,
    stoppers,
)
from variantkit.engine.search import CONTEMPT, Limits, SearchInfo, time_budget
from variantkit.loader import examples_dir


def best(name: str, fen: str, depth: int = 2) -> tuple[variantkit.Game, Engine, str]:
    """The game after the engine's move, the engine and the move."""
    game = variantkit.load(name).new_game(fen)
    engine = Engine(game.variant)
    move = engine.best_move(game, depth=depth)
    game.push(move)
    return game, engine, str(move)


@pytest.mark.parametrize("name, fen, winner", [
    ("chess", "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", "white"),        # back-rank mate
    ("chess", "r5k1/8/8/8/8/8/5PPP/6K1 b - - 0 1", "black"),
    ("diplomat", "k13/4R9/6R2K4/1 w - - 0 1", "white"),                 # two rooks on a disk
    # Strato: a rook drops from plane B to A while another covers the escape upward.
    ("strato", "8/8/8/8/8/8/7r/K7|8/8/8/8/8/8/8/6rr|7k/8/8/8/8/8/8/8 b - - 0 1 -", "black"),
])
def test_finds_mate_in_one(name: str, fen: str, winner: str) -> None:
    game, engine, _ = best(name, fen)
    outcome = game.outcome()
    # (In Diplomat a stalemate wins as well as a mate.)
    assert outcome is not None and outcome.winner == winner
    assert engine.info.score_text == "win in 1"


def test_stalemate_that_wins_is_sought() -> None:
    # In Diplomat the stalemated side loses: the engine stalemates on purpose
    # (here every move that wins at once stalemates; none mates).
    game, engine, _ = best("diplomat", "k9K3/1R12/H13/1 w - - 0 1")
    assert game.outcome() == Outcome("white", "stalemate")
    assert engine.info.score_text == "win in 1"


@pytest.mark.parametrize("fen, move", [
    # Morphy's problem: the quiet 1. Ra6 mates next move whatever Black
    # plays, so a reduction of quiet moves must not hide it.
    ("kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1", "a1a6"),
    # A check that forces the queen to block, then takes it with mate.
    ("6k1/5ppp/8/8/3q4/8/5PPP/2R3K1 w - - 0 1", "c1c8"),
])
@pytest.mark.parametrize("depth", [3, 5])
def test_finds_mate_in_two(fen: str, move: str, depth: int) -> None:
    _, engine, found = best("chess", fen, depth)
    assert found == move and engine.info.score_text == "win in 2"


def test_wins_material_by_a_fork() -> None:
    _, engine, found = best("chess", "r3k3/8/8/3N4/8/8/8/4K3 w - - 0 1", 4)
    assert found == "d5c7" and engine.info.score > 250  # the knight checks, then takes the rook


@pytest.mark.parametrize("fen", [
    # The queen is attacked by a pawn.
    "rnbqkbnr/pp1ppppp/8/2p5/3Q4/8/PPPPPPPP/RNB1KBNR w KQkq - 0 2",
    # Taking the pawn on d5 would lose the queen to e6xd5.
    "rnbqkbnr/ppp2ppp/4p3/3p4/3Q4/8/PPPPPPPP/RNB1KBNR w KQkq - 0 3",
])
@pytest.mark.parametrize("depth", [1, 2, 3])
def test_does_not_lose_the_queen(fen: str, depth: int) -> None:
    game, _, _ = best("chess", fen, depth)
    queen = next(c for c in game.variant.board.names if game.piece_at(c) == "Q")
    assert all(m.to_cell != queen for m in game.legal_moves())


@pytest.mark.parametrize("name", one_per_board())
def test_legal_and_deterministic_at_the_start(name: str) -> None:
    variant = variantkit.load(name)
    game = variant.new_game()
    engine = Engine(variant)
    # Amazons' first move also shoots an arrow: 2,176 moves, and depth 2 is
    # 4.7 million leaves.
    depth = 1 if len(game.legal_moves()) > 300 else 2
    move = engine.best_move(game, depth=depth)
    assert move in game.legal_moves()
    assert game.move_stack == [] and game.fen() == variant.setup_fen  # position untouched
    info = engine.info
    assert info.depth == depth and info.nodes > 0 and info.nodes_per_second > 0
    assert info.pv[0] == move
    again = Engine(variant)
    assert again.best_move(game, depth=depth) == move
    assert (again.info.nodes, again.info.score) == (info.nodes, info.score)


def random_positions(name: str, games: int, plies: int) -> list[variantkit.Game]:
    """Positions of seeded random games of a variant, ongoing ones only."""
    rng = random.Random(name)
    variant = variantkit.load(name)
    found = []
    for _ in range(games):
        game = variant.new_game()
        for _ in range(plies):
            moves = game.position.legal_internal()
            if not moves:
                break
            found.append(game.copy())
            game.position.make_internal(rng.choice(moves))
    return found


@pytest.mark.parametrize("name", variantkit.variants())
def test_every_variant_plays(name: str) -> None:
    # Special rules included: no royal piece, forced capture, explosions,
    # drops, counted checks, declared ends.
    for game in random_positions(name, 1, 24)[::8]:
        fen, plies = game.fen(), game.plies
        # Where every move also places a wall (duck chess: 20 moves times
        # 60 cells), depth 2 is over a million leaves: depth 1 shows the
        # same, a legal move and the game untouched.
        depth = 1 if len(game.legal_moves()) > 300 else 2
        move = Engine(game.variant).best_move(game, depth=depth)
        assert move in game.legal_moves()
        assert (game.fen(), game.plies) == (fen, plies)


@pytest.mark.pure_build
@pytest.mark.parametrize("name", on_both_builds(variantkit.variants()))
def test_quiescence_captures_are_the_legal_ones(name: str) -> None:
    """Where quiescence makes its own captures, those its legality test
    keeps are the legal moves that win material (gating moves aside),
    with one royal piece or several (Spartan chess, coregal); in
    check, where a step of the royal piece to safety tells that it is no
    mate, there is a legal move when it says so."""
    engine = Engine(variantkit.load(name))
    if not engine._own_captures:
        pytest.skip("quiescence takes its captures from the legal moves")
    for game in random_positions(name, 3, 40):
        position = game.position
        in_check = position.is_check()
        if in_check and not engine._own_evasions:
            continue
        engine._position = position
        moves = position.legal_internal()
        assert moves or not (in_check and position.royal_can_step()), game.fen()
        legal = {m for m in moves if engine._gain(m) > 0 and m[3] < GATE}
        kept = set()
        for move in position.captures_unchecked():
            position.make_internal(move)
            if not engine._left_in_check(position, 1 - position.stm):
                kept.add(move)
            position.unmake_internal()
        assert {m for m in kept if engine._gain(m) > 0} == legal, game.fen()


def test_time_limit() -> None:
    game = variantkit.load("trice").new_game()
    engine = Engine(game.variant)
    start = time.perf_counter()
    move = engine.best_move(game, time_limit=0.3)
    assert time.perf_counter() - start < 1.5
    assert move in game.legal_moves()
    assert engine.info.depth >= 1
    assert game.move_stack == []  # an interrupted search leaves the position as it was


def test_repetition_is_a_draw() -> None:
    # A queen down, White takes the draw a position played twice gives.
    game = variantkit.load("chess").new_game("3qk3/8/8/8/8/8/8/1N2K3 w - - 0 1")
    engine = Engine(game.variant)
    engine.best_move(game, depth=1)
    assert engine.info.score < -500
    for move in ("b1c3", "e8f7", "c3b1", "f7e8") * 2 + ("b1c3", "e8f7"):
        game.push(move)
    assert str(engine.best_move(game, depth=1)) == "c3b1"  # back to a position seen twice
    assert engine.info.score == 0


def test_one_earlier_occurrence_is_no_draw() -> None:
    # Back to a position seen once before, the game goes on: still a queen down.
    game = variantkit.load("chess").new_game("3qk3/8/8/8/8/8/8/1N2K3 w - - 0 1")
    for move in ("b1c3", "e8f7", "c3b1", "f7e8", "b1c3", "e8f7"):
        game.push(move)
    engine = Engine(game.variant)
    engine.best_move(game, depth=1)
    assert engine.info.score < -500


def test_a_repetition_is_avoided_when_ahead() -> None:
    # Capablanca, a rook up; Black's checks and White's king have gone
    # round, and the table holds the scores of the last searches.  No
    # answer of White's to Black's move may end the game, nor may a score
    # stored earlier hide a repetition (e3e7, then f4f5).
    game = variantkit.load("capablanca").new_game("10/10/10/5K4/9r/10/8k1/10 b - - 3 82")
    for move in ("i2h3", "f5e5", "h3h4", "e5f4", "j4j6", "f4f5", "h4h3", "f5f4", "j6j5",
                 "f4e3", "j5j7", "e3f4"):
        game.push(move)
    engine = Engine(game.variant)
    for move in ("j7d7", "f4f5", "d7f7", "f5e6", "f7f3", "e6e5", "f3e3", "e5f4",
                 "e3e7", "f4f5", "e7f7", "f5e6", "f7f3", "e6e5", "f3e3", "e5f4"):
        if game.turn == "black":
            engine.best_move(game, depth=6)
        game.push(move)
    game.push(engine.best_move(game, depth=4))
    for answer in game.legal_moves:
        game.push(answer)
        assert game.outcome() is None, f"{answer} ends the game: {game.outcome()}"
        game.pop()


@pytest.mark.parametrize("fen, score", [
    ("8/8/8/4k3/8/8/8/1Q5K w - - 99 80", -CONTEMPT),  # a queen up: the draw is a loss of CONTEMPT
    ("8/8/8/4k3/8/8/8/1Q5K b - - 99 80", 0),          # a queen down: the draw is worth a draw
])
def test_contempt_for_a_draw_when_ahead(fen: str, score: int) -> None:
    # Every move reaches the move rule's hundredth ply.
    game = variantkit.load("chess").new_game(fen)
    engine = Engine(game.variant)
    engine.best_move(game, depth=2)
    assert engine.info.score == score


def test_node_limit_and_info_callback() -> None:
    game = variantkit.load("chess").new_game()
    engine = Engine(game.variant)
    seen: list[SearchInfo] = []
    move = engine.search(game, Limits(nodes=3000), on_info=seen.append)
    assert move in game.legal_moves()
    assert engine.info.nodes <= 3000
    assert [info.depth for info in seen] == list(range(1, len(seen) + 1)) and seen
    assert all(info.pv and info.nodes > 0 for info in seen)


def test_stop_from_another_thread() -> None:
    game = variantkit.load("trice").new_game()
    engine = Engine(game.variant)
    stop = threading.Event()
    found: list[variantkit.Move] = []
    worker = threading.Thread(target=lambda: found.append(
        engine.search(game, Limits(infinite=True), stop)))
    worker.start()
    time.sleep(0.3)
    assert worker.is_alive()  # an infinite search runs until stopped
    stop.set()
    worker.join(10)
    assert not worker.is_alive() and found[0] in game.legal_moves()
    assert game.move_stack == []


def test_searches_a_copy_and_keeps_its_table() -> None:
    game = variantkit.load("chess").new_game()
    engine = Engine(game.variant)
    during: list[str] = []
    engine.search(game, Limits(depth=3), on_info=lambda info: during.append(game.fen()))
    first = engine.info.nodes
    assert during == [game.fen()] * 3
    engine.search(game, Limits(depth=3))
    assert engine.info.nodes < first  # the table of the first search helps the second
    engine.new_game()
    engine.search(game, Limits(depth=3))
    assert engine.info.nodes == first


def test_a_single_legal_move_is_played_at_once() -> None:
    game = variantkit.load("chess").new_game("k7/8/8/8/8/8/1q6/K7 w - - 0 1")
    engine = Engine(game.variant)
    assert str(engine.search(game, Limits(depth=20))) == "a1b2"
    assert engine.info.nodes == 0 and engine.info.pv == [game.parse_san("Kxb2")]


@pytest.mark.parametrize("limits, stm, budget", [
    (Limits(movetime=0.5), 0, (0.5, 0.5)),
    (Limits(wtime=60.05, btime=1.0), 0, (2.0, 6.0)),               # a 30th of the clock
    (Limits(wtime=1.0, btime=10.05, binc=2.0, movestogo=1), 1, (2.5, 5.0)),  # a quarter at most
    (Limits(depth=5), 0, None),
])
def test_time_budget(limits: Limits, stm: int, budget: tuple[float, float] | None) -> None:
    assert time_budget(limits, stm) == (pytest.approx(budget) if budget else None)


def test_no_move_in_a_finished_game() -> None:
    game = variantkit.load("chess").new_game("R5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 1 1")
    with pytest.raises(ValueError, match="no legal move"):
        Engine(game.variant).best_move(game)


def test_mobility_and_estimated_values(tmp_path: Path) -> None:
    chess = variantkit.load("chess")
    mobility = mobility_values(chess)
    assert mobility["queen"] == 22.75 and mobility["knight"] == 5.25  # 1456/64, 336/64
    assert "king" not in mobility  # royal pieces carry no value
    assert piece_values(chess)["queen"] == 9
    # A piece without `value:` is valued by its mobility, on the scale of the
    # declared values: a rook + knight falls between a rook and a queen + 1.
    path = tmp_path / "chancellor.yaml"
    path.write_text(
        "variantkit: 1\nname: chancellor-chess\ninherits: chess\n"
        "pieces:\n  chancellor:\n    letter: C\n    moves:\n"
        "      - ride: orthogonal\n      - leap: [1, 2]\n", encoding="utf-8")
    values = piece_values(variantkit.load(path))
    assert 5 < values["chancellor"] < 10


def test_a_royal_piece_that_may_be_lost_is_material() -> None:
    """Spartan chess's Spartans may lose one of their two kings and play
    on: each king is worth what it reaches, as an estimated piece is, so
    the engine takes an unguarded spare king before an unguarded hoplite."""
    spartan = variantkit.load("spartan")
    assert 2 < piece_values(spartan)["king"] < 4
    assert "king" not in piece_values(variantkit.load("chess"))
    # The queen on c1 takes the king on c8 or the hoplite on h6.
    game = spartan.new_game("2k5/8/7h/k7/8/8/8/2Q4K w - - 0 1")
    assert {"c1c8", "c1h6"} <= {str(m) for m in game.legal_moves()}
    assert str(Engine(spartan).best_move(game, depth=2)) == "c1c8"


def test_where_a_bare_king_loses_the_side_ahead_trades_down() -> None:
    """In shatranj a side left with its king alone loses: its last pieces
    weigh more, so trading the ferzes (mirrored, so material and placement
    change alike for both) is worth more to the side a pawn ahead, and by
    as much to its opponent less."""
    shatranj = variantkit.load("shatranj")
    evaluation = Evaluation(shatranj)
    before = shatranj.new_game("4k3/p7/8/3q4/3Q4/8/P6P/4K3 w - - 0 1").position
    traded = shatranj.new_game("4k3/p7/8/8/8/8/P6P/4K3 w - - 0 1").position
    assert evaluation.score(traded) - evaluation.score(before) >= 50


@pytest.mark.parametrize("name", ["shatranj", "makruk", "courier"])
def test_old_games_value_the_knight_above_four_weak_pawns(name: str) -> None:
    """Pawns that step one cell and promote to a ferz are weaker than
    chess's, and the ferz and alfil weaker than a bishop: the files value a
    knight at more than four pawns and at more than an alfil (or ferz) and a
    pawn together, as Fairy-Max's and Fairy-Stockfish's tables do."""
    values = piece_values(variantkit.load(name))
    assert values["knight"] > 4 * values["pawn"]
    weak_minor = min(v for n, v in values.items() if n in {"elephant", "counsellor", "met"})
    assert values["knight"] > weak_minor + 2 * values["pawn"]


def test_the_shatranj_knight_is_not_given_for_an_elephant_and_a_pawn() -> None:
    """With the knight valued as three pawns, as it was, the engine played
    Nexd6 here in a match against Fairy-Max and lost: an elephant and a
    pawn for its knight.  It keeps the knight now."""
    fen = "r1bkq1nr/p1pp2p1/1pnbp2p/1N3p2/4N3/8/PPPPPPPP/R1BKQB1R w - - 0 8"
    assert "e4d6" in {str(m) for m in variantkit.load("shatranj").new_game(fen).legal_moves()}
    assert best("shatranj", fen, depth=3)[2] != "e4d6"


def test_evaluation_tables_come_from_the_moves() -> None:
    chess = variantkit.load("chess")
    board, pawn = chess.board, chess.rules.letter_codes["P"]
    region = chess.rules.promotion.promotions[0][pawn].region
    distance = promotion_distances(chess, pawn, region)
    assert [distance[board.cell(c)] for c in ("e8", "e7", "e2", "e1")] == [0, 1, 6, 7]
    bonus = advancement(distance, 800)
    assert bonus[board.cell("e7")] == 64 > bonus[board.cell("e6")] > bonus[board.cell("e3")] > 0
    assert bonus[board.cell("e1")] == bonus[board.cell("e8")] == 0
    king = chess.rules.letter_codes["K"]
    centre = neighbourhood(chess, king)
    assert centre[board.cell("e4")] == 25 and centre[board.cell("e1")] == 15
    assert centre[board.cell("h1")] == 9


@pytest.mark.parametrize("name, null_moves", [
    ("chess", True),
    ("janggicasual", False),   # passing is a move of the game
    ("breakthrough", False),   # no royal piece
])
def test_null_moves_only_where_passing_is_no_move(name: str, null_moves: bool) -> None:
    assert Engine(variantkit.load(name))._null_moves is null_moves



@pytest.mark.pure_build
def test_passed_pieces_by_the_stoppers_of_their_way() -> None:
    chess = variantkit.load("chess")
    board, pawn, enemy = chess.board, chess.rules.letter_codes["P"], chess.rules.letter_codes["p"]
    region = chess.rules.promotion.promotions[0][pawn].region
    stop = stoppers(chess, pawn, region, guarded(chess, [enemy]))[board.cell("e4")]
    # A black pawn ahead on its own or a next file stops the e-pawn; one
    # beside it, behind it or two files away does not.
    # (The eighth rank counts: a pawn there would walk down.)
    assert {c for c in board.names if stop >> board.cell(c) & 1} == {
        f"{f}{r}" for f in "def" for r in "5678"}


@pytest.mark.pure_build
@pytest.mark.parametrize("fen, move, exchange", [
    ("4k3/8/2p5/3p4/8/8/8/3RK3 w - - 0 1", "d1d5", 100 - 500),         # the pawn defended
    ("4k3/8/5n2/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5", 100 - 500 + 300),  # R for N and P
    ("3rk3/8/8/3p4/8/8/3R4/3QK3 w - - 0 1", "d2d5", 100),               # the queen behind
    ("4k3/8/2p5/3n4/8/8/B7/4K3 w - - 0 1", "a2d5", 0),                  # bishop for knight
    ("4k3/8/8/3p4/8/8/8/3QK3 w - - 0 1", "d1d5", 100),                 # undefended
    ("8/8/8/8/8/5k2/4p3/4K3 w - - 0 1", "e1e2", 100 - 10_000),         # the king walks into it
])
def test_static_exchange(fen: str, move: str, exchange: int) -> None:
    game = variantkit.load("chess").new_game(fen)
    engine = Engine(game.variant)
    engine._position = game.position
    internal = next(m for m in game.position.legal_internal() + game.position.captures_unchecked()
                    if str(game.position.public_move(m)) == move)
    assert engine._exchange(internal) == exchange


# -- the royal piece's safety ---------------------------------------------

ENGINES: dict[str, Engine] = {}


def evaluate(name: str, fen: str) -> int:
    """The evaluation of a position, for the side to move (one engine, and
    so one set of evaluation tables, per variant)."""
    if name not in ENGINES:
        ENGINES[name] = Engine(variantkit.load(name))
    engine = ENGINES[name]
    return engine.evaluation.evaluate(engine.variant.new_game(fen).position)


def test_attackers_of_the_royal_neighbourhood_by_the_real_occupancy() -> None:
    # A rook reaches 14 cells from anywhere on the empty board, so only the
    # safety term tells a3 from g3, where it joins the queen's attack on
    # the king's neighbourhood (g7); a pawn on g5 blocks it there.
    def rook_on(cell: str, rank5: str = "7Q") -> int:
        rank3 = {"a3": "R7", "g3": "6R1"}[cell]
        return evaluate("chess", f"6k1/5ppp/8/{rank5}/8/{rank3}/8/6K1 w - - 0 1")
    assert rook_on("g3") > rook_on("a3")
    assert rook_on("g3", "6PQ") == rook_on("a3", "6PQ")


def test_a_cannon_attacks_the_palace_through_its_screen() -> None:
    # A cannon reaches 17 cells from anywhere on the empty board; on e3,
    # over the pawn on e6, it joins the rook's attack on the general's
    # neighbourhood (the advisor on e9), though on the empty board it
    # captures nothing.
    def cannon_on(rank3: str) -> int:
        return evaluate("xiangqi", f"4k4/4a4/9/9/4P4/9/9/{rank3}/9/3R1K3 w - - 0 1")
    assert cannon_on("4C4") > cannon_on("C8")


def test_pieces_in_the_enemy_hand_threaten_an_open_royal_piece() -> None:
    # What a pawn in White's hand adds is more where the black king's
    # neighbourhood has empty cells to drop on than where silvers fill it.
    def pawn_in_hand_gain(around: str) -> int:
        fens = [f"{around}/9/9/9/9/G7G/G7G/4K4[{hand}] w - - 0 1" for hand in ("P", "")]
        with_pawn, without = (evaluate("shogi", fen) for fen in fens)
        return with_pawn - without
    assert pawn_in_hand_gain("4k4/9") > pawn_in_hand_gain("3sks3/3sss3")
    # Where nothing can be dropped near it, the pawn in hand is worth its
    # value and a tenth more (a drop may go anywhere).
    assert pawn_in_hand_gain("3sks3/3sss3") == 110


def test_pieces_in_hand_keep_the_middlegame() -> None:
    # With every gold in hand the game is still a middlegame: the central
    # king is exposed, not active.
    edge, centre = (evaluate("shogi", f"4k4/9/9/9/{rank5}/9/9/9/{rank1}[GGgg] w - - 0 1")
                    for rank5, rank1 in (("9", "4K4"), ("4K4", "9")))
    assert edge > centre


# -- the evaluation's cost: the attack gate and the store of scores ---------

@pytest.mark.parametrize("name", ["chess", "xiangqi", "shogi", "diplomat", "strato", "trice",
                                  str(examples_dir() / "glinski.yaml")])
def test_the_attack_gate_leaves_out_no_attacker(name: str) -> None:
    # Only the pieces on the cells from which their captures may ever reach
    # the enemy royal neighbourhood are read under the occupancy: reading
    # every piece gives the same scores.
    variant = variantkit.load(name)
    evaluation = Evaluation(variant)
    positions = [game.position for game in random_positions(name, 2, 30)]
    gated = [evaluation.score(position) for position in positions]
    everywhere = (1 << variant.board.size) - 1
    assert any(cells != everywhere for sources in evaluation.attack_sources for cells in sources)
    for sources in evaluation.attack_sources:
        sources[:] = [everywhere] * len(sources)
    assert [evaluation.score(position) for position in positions] == gated


@pytest.mark.patches_compiled("variantkit.engine.evaluation")  # tests/conftest.py
def test_a_position_met_again_is_not_scored_again(monkeypatch: pytest.MonkeyPatch) -> None:
    chess = variantkit.load("chess")
    evaluation = Evaluation(chess)
    placement = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR"
    white, black = (chess.new_game(f"{placement} {side} KQkq - 0 1").position
                    for side in "wb")
    # The side to move is part of what is kept: the same placement scores
    # apart for each.
    assert evaluation.evaluate(white) == evaluation.score(white) \
        != evaluation.evaluate(black) == evaluation.score(black)
    scored: list[object] = []
    monkeypatch.setattr(evaluation, "score", lambda position: scored.append(position) or 0)
    assert evaluation.evaluate(white.copy()) == evaluation.evaluate(white) != 0
    assert not scored
    # A full store is emptied: positions met before are scored again.
    evaluation.cache_limit = 1
    evaluation.evaluate(chess.new_game().position)
    evaluation.evaluate(white)
    assert len(scored) == 2
