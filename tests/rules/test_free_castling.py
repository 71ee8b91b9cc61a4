"""Free castling (Chess960) against pyffish: from start positions whose king
and rooks stand elsewhere, the perft tree with the move sets compared at
every node, castling (written as the king taking its rook) and the rights
written by file included."""

from __future__ import annotations

import pyffish
import pytest
from fsf_oracle import Oracle

import variantkit
from variantkit import InvalidFenError

POSITIONS = [
    ("fischerandom", "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1"),
    ("fischerandom", "rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1"),       # king on b1
    ("fischerandom", "5rkr/8/8/8/8/8/8/5RKR w HFhf - 0 1"),       # king already on g1
    ("fischerandom", "r5kr/8/8/8/8/8/8/R5KR b HAha - 0 1"),
    ("fischerandom", "2r1k2r/8/8/8/8/8/8/2R1K2R w HChc - 0 1"),    # rook on the king's c1
    ("caparandom", "r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R w JAja - 0 1"),
]


@pytest.mark.parametrize(("name", "fen"), POSITIONS)
def test_castling_from_any_start_equals_pyffish(name: str, fen: str) -> None:
    Oracle(name).walk(2, fen)


def test_rights_read_as_declared_letters_name_the_outermost_rooks() -> None:
    fen = "1r2k1r1/8/8/8/8/8/8/RR2K1R1 w KQkq - 0 1"
    game = variantkit.load("fischerandom").new_game(fen)
    assert game.fen().split()[2] == "GAgb"
    assert game.fen() == pyffish.get_fen("fischerandom", fen, [])


def test_a_right_without_its_rook_is_refused() -> None:
    with pytest.raises(InvalidFenError, match="no rook"):
        variantkit.load("fischerandom").new_game("4k3/8/8/8/8/8/8/4K3 w H - 0 1")


@pytest.mark.parametrize(("number", "first_rank"), [
    (518, "RNBQKBNR"), (0, "BBQNNRKR"), (959, "RKRNNQBB"), (1, "BQNBNRKR")])
def test_numbered_setups_are_scharnagls(number: int, first_rank: str) -> None:
    fen = variantkit.load("fischerandom").numbered_setup(number)
    assert fen.split("/")[7].split()[0] == first_rank
    assert fen.split("/")[0] == first_rank.lower()


def test_every_chess960_setup_is_legal_and_reads_in_pyffish() -> None:
    variant = variantkit.load("fischerandom")
    setups = {variant.numbered_setup(n) for n in range(960)}
    assert len(setups) == 960
    for fen in list(setups)[::97]:
        assert pyffish.get_fen("fischerandom", fen, []) == fen
    with pytest.raises(ValueError, match="from 0 to 959"):
        variant.numbered_setup(960)


def test_setup_command() -> None:
    from click.testing import CliRunner

    from variantkit.cli import cli
    result = CliRunner().invoke(cli, ["setup", "caparandom", "0"])
    assert result.exit_code == 0
    assert result.output.startswith("bbqacnnrkr/pppppppppp/")
    assert CliRunner().invoke(cli, ["setup", "chess", "0"]).exit_code == 1
