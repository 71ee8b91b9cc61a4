"""The wheel carries every package of variantkit, the bundled variants and the
schema: an editable install (as `make test` uses) would hide a missing one."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent


def test_every_package_is_listed_for_the_wheel() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(config["tool"]["setuptools"]["packages"])
    on_disk = {".".join(p.parent.relative_to(ROOT).parts)
               for p in (ROOT / "variantkit").rglob("__init__.py")}
    assert on_disk <= listed, f"not in the wheel: {sorted(on_disk - listed)}"
    data = config["tool"]["setuptools"]["package-dir"]
    assert (ROOT / data["variantkit.variants"] / "chess.yaml").is_file()
    assert (ROOT / data["variantkit.schemas"] / "variant.schema.json").is_file()


def test_the_licence_is_an_spdx_string_for_a_setuptools_that_reads_it() -> None:
    # A `license = {text = ...}` table makes setuptools 77 and later print a
    # screenful of deprecation warnings on every install (`make demo`).
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert config["project"]["license"] == "MIT"
    assert "setuptools>=77" in config["build-system"]["requires"]
    assert all((ROOT / name).is_file() for name in config["project"]["license-files"])
