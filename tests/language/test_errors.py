"""Bad variant definitions: each mistake is reported at its own file:line:col
with a rule id, all of them in one run, never as a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

import variantkit
from variantkit.drawing.terminal import board_text
from variantkit.errors import VariantError
from variantkit.notation.san import legal_san, parse_san, san, san_moves

CHESS = "chess"  # the bundled variant


def problems_of(tmp_path: Path, text: str) -> list[tuple[int | None, int | None, str, str]]:
    path = tmp_path / "v.yaml"
    path.write_text(text.replace("CHESS", CHESS))
    with pytest.raises(VariantError) as info:
        variantkit.load(str(path))
    assert all(p.file == str(path) for p in info.value.problems)
    return [(p.line, p.column, p.rule, p.message) for p in info.value.problems]


def test_malformed_yaml_names_the_line(tmp_path: Path) -> None:
    found = problems_of(tmp_path, "variantkit: 1\nname: x\nboard: [1, 2\n")
    assert len(found) == 1
    assert found[0][2] == "yaml-syntax"
    assert found[0][0] is not None and found[0][0] >= 3


def test_unknown_key_is_located_with_a_suggestion(tmp_path: Path) -> None:
    found = problems_of(tmp_path, """\
variantkit: 1
name: x
inherits: CHESS
pieces:
  knight:
    letter: N
    moves:
      - leap: [1, 2]
        onyl: move
""")
    assert found == [(9, 9, "unknown-key",
                      "unknown key 'onyl' in pieces.knight.moves[0] (did you mean 'only'?)")]


def test_semantic_problems_are_all_reported_in_file_order(tmp_path: Path) -> None:
    found = problems_of(tmp_path, """\
variantkit: 1
name: x
inherits: CHESS
promotion:
  choices: [queen, wizard, king]
castling:
  - {right: K, king: [e1, z9], rook: [h1, f1]}
setup: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1
""")
    assert found == [
        (5, 20, "unknown-piece", "unknown piece 'wizard'"),
        (5, 28, "royal-promotion", "a piece may not promote to the royal piece 'king'"),
        (7, 27, "unknown-cell", "unknown cell 'z9'"),
        (8, 8, "bad-setup", "setup: unknown piece letter 'X' in 'RNBQKBNX'"),
    ]


def test_no_royal_piece_and_unknown_direction(tmp_path: Path) -> None:
    found = problems_of(tmp_path, """\
variantkit: 1
name: x
board:
  grid: {files: 5, ranks: 5}
pieces:
  man:
    letter: M
    moves:
      - step: sideways-ish
setup: 5/5/5/5/M4 w - - 0 1
""")
    rules = [(line, col, rule) for line, col, rule, _ in found]
    assert rules == [(5, 1, "no-royal"), (9, 9, "unknown-direction")]
    assert "unknown direction 'sideways-ish'" in found[1][3]


def test_setup_that_does_not_fit_the_board(tmp_path: Path) -> None:
    found = problems_of(tmp_path, """\
variantkit: 1
name: x
inherits: CHESS
setup: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR w KQkq - 0 1
""")
    assert found == [(4, 8, "bad-setup",
                      "setup: row 'RNBQKBNRR' covers 9 cells, the board's row has 8")]


def test_castling_piece_missing_from_the_setup(tmp_path: Path) -> None:
    found = problems_of(tmp_path, """\
variantkit: 1
name: x
inherits: CHESS
castling:
  - {right: K, king: [d1, g1], rook: [h1, f1]}
""")
    assert found == [(5, 5, "castling-setup", "castling: the setup has no royal piece on d1")]


def test_duplicate_letters_and_unknown_region(tmp_path: Path) -> None:
    found = problems_of(tmp_path, """\
variantkit: 1
name: x
inherits: CHESS
pieces:
  wizard:
    letter: N
    moves:
      - step: all
promotion:
  regions: {white: rank-9, black: rank-1}
""")
    assert [(line, rule) for line, _, rule, _ in found] == [
        (6, "duplicate-letter"), (10, "unknown-region")]
    assert found[0][3] == "piece 'wizard' uses letter 'N', already used by 'knight'"


def test_plane_shift_needs_planes_and_never_captures(tmp_path: Path) -> None:
    found = problems_of(tmp_path, """\
variantkit: 1
name: x
inherits: CHESS
pieces:
  rook:
    letter: R
    moves:
      - plane-shift: {planes: 1}
        only: capture
""")
    assert [rule for _, _, rule, _ in found] == ["plane-shift-capture"]


def test_bad_position_and_move_strings_are_value_errors() -> None:
    game = variantkit.load("chess").new_game()
    with pytest.raises(variantkit.IllegalMoveError, match="legal moves from e2: e2e3, e2e4"):
        game.push("e2e5")
    with pytest.raises(variantkit.IllegalMoveError, match="not a move here"):
        game.push("hello")
    with pytest.raises(variantkit.InvalidFenError, match="unknown piece letter 'X'"):
        variantkit.load("chess").new_game("rnbqkbnX/8/8/8/8/8/8/4K3 w - - 0 1")
    assert issubclass(variantkit.IllegalMoveError, ValueError)
    assert issubclass(variantkit.InvalidFenError, ValueError)


@pytest.mark.parametrize("move, rule", [
    ("ride: [[0, 0]]", "bad-direction"),
    ("{step: forward, en-passant: target}", "bad-en-passant"),
    ("{step: forward, only: move, en-passant: capture}", "bad-en-passant"),
])
def test_moves_that_cannot_mean_anything(tmp_path: Path, move: str, rule: str) -> None:
    found = problems_of(tmp_path, f"""\
variantkit: 1
name: x
inherits: CHESS
pieces:
  rook:
    letter: R
    moves:
      - {move}
""")
    assert [r for _, _, r, _ in found] == [rule]


def test_castling_that_moves_nothing_is_refused(tmp_path: Path) -> None:
    found = problems_of(tmp_path, """\
variantkit: 1
name: x
inherits: CHESS
castling:
  - {right: K, king: [e1, e1], rook: [h1, f1]}
""")
    assert [r for _, _, r, _ in found] == ["castling-cells"]


def test_polar_cell_names_use_only_sector_and_ring(tmp_path: Path) -> None:
    found = problems_of(tmp_path, """\
variantkit: 1
name: x
board:
  polar: {sectors: abcdef, rings: ["1", "2"], centre: null, cell-name: "{sector.upper}{ring}"}
pieces:
  king: {letter: K, royal: true, moves: [{step: all}]}
setup: K5/k5 w - - 0 1
""")
    assert [r for _, _, r, _ in found] == ["bad-board"]


def test_a_nul_byte_is_a_yaml_error(tmp_path: Path) -> None:
    found = problems_of(tmp_path, "variantkit: 1\nname: x\x00\n")
    assert [r for _, _, r, _ in found] == ["yaml-syntax"]


def test_fen_counters_and_castling_letters_are_strict() -> None:
    chess = variantkit.load("chess")
    with pytest.raises(variantkit.InvalidFenError, match="whole number"):
        chess.new_game("4k3/8/8/8/8/8/8/4K3 w - - \u00b2 1")
    with pytest.raises(variantkit.InvalidFenError, match="repeats a letter"):
        chess.new_game("4k3/8/8/8/8/8/8/4K2R w KK - 0 1")


def test_a_filtered_primitive_does_not_hide_another_ones_move(tmp_path: Path) -> None:
    """A queen whose single steps may not give check still rides to the same
    cells with check."""
    path = tmp_path / "q.yaml"
    path.write_text(f"""\
variantkit: 1
name: q
inherits: {CHESS}
pieces:
  queen:
    letter: Q
    moves:
      - step: all
        may-give-check: false
      - ride: all
""")
    game = variantkit.load(str(path)).new_game("3k4/8/8/8/8/8/2Q5/K7 w - - 0 1")
    moves = {str(m) for m in game.legal_moves()}
    assert {"c2d2", "c2d3", "c2c3"} <= moves


def test_castling_follows_the_boards_own_lines(tmp_path: Path) -> None:
    """Castling cells come from the topology's lines, so a castling along a
    ring of a disk works like one along a rank."""
    path = tmp_path / "ring.yaml"
    path.write_text("""\
variantkit: 1
name: ring
board:
  polar: {sectors: abcdefgh, rings: ["1", "2"], centre: null}
pieces:
  king: {letter: K, royal: true, moves: [{step: all}]}
  rook: {letter: R, moves: [{ride: orthogonal}]}
setup: K2R4/5k2 w K - 0 1
castling:
  - {right: K, king: [a1, c1], rook: [d1, b1]}
""", encoding="utf-8")
    variant = variantkit.load(str(path))
    (castling,) = variant.rules.castling.castlings
    assert sorted(variant.board.names[c] for c in variant.board.cells_of(castling.empty)) \
        == ["b1", "c1"]
    assert [variant.board.names[c] for c in castling.safe] == ["a1", "b1", "c1"]
    game = variant.new_game()
    game.push("a1c1")
    assert game.piece_at("c1") == "K" and game.piece_at("b1") == "R"


def test_move_values_and_variant_names_are_checked() -> None:
    game = variantkit.load("chess").new_game("8/4P3/8/8/8/8/k7/4K3 w - - 0 1")
    assert str(game.push(variantkit.Move("e7", "e8", "Q"))) == "e7e8q"
    with pytest.raises(VariantError, match="no variant given"):
        variantkit.load("")


def test_a_move_of_the_wrong_type_is_named() -> None:
    game = variantkit.load("chess").new_game()
    with pytest.raises(variantkit.IllegalMoveError, match="not 42"):
        game.push(42)  # type: ignore[arg-type]


def test_bad_end_conditions_are_located(tmp_path: Path) -> None:
    found = problems_of(tmp_path, """\
variantkit: 1
name: x
inherits: CHESS
end:
  conditions:
    - {checks: 3, result: win}
    - {checks: 5, result: win}
    - {extinct: [queen], result: loss, answer: draw}
    - {extinct: [wizard], result: loss}
""")
    assert [f[:3] for f in found] == [(7, 7, "bad-end-condition"), (8, 7, "bad-end-condition"),
                                      (9, 18, "unknown-piece")]


def test_check_all_needs_several_royals(tmp_path: Path) -> None:
    found = problems_of(tmp_path, "variantkit: 1\nname: x\ninherits: CHESS\nroyals: {check: all}\n")
    assert [f[:3] for f in found] == [(4, 17, "bad-royals")]


HELPERS = {"render": variantkit.render, "board_text": board_text, "san": san,
           "san_moves": san_moves, "legal_san": legal_san, "parse_san": parse_san}


@pytest.mark.parametrize("name", HELPERS)
@pytest.mark.parametrize("wrong", ["x", 42, None, variantkit.load("chess")])
def test_helpers_taking_a_game_name_what_they_take(name: str, wrong: object) -> None:
    helper = HELPERS[name]
    extra = {"san": ("e2e4",), "san_moves": (["e2e4"],), "parse_san": ("e4",)}.get(name, ())
    with pytest.raises(TypeError, match=rf"^{name}\(\) takes a Game or a Position, not "):
        helper(wrong, *extra)
    game = variantkit.load("chess").new_game()   # the same call on a game works
    helper(game, *extra)
    helper(game.position, *extra)
