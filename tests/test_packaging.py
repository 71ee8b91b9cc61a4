"""The wheel carries every package of variantkit, the bundled variants and the
schema: an editable install (as `make test` uses) would hide a missing one."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_package_is_listed_for_the_wheel() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(config["tool"]["setuptools"]["packages"])
    on_disk = {".".join(p.parent.relative_to(ROOT).parts)
               for p in (ROOT / "variantkit").rglob("__init__.py")}
    assert on_disk <= listed, f"not in the wheel: {sorted(on_disk - listed)}"
    data = config["tool"]["setuptools"]["package-dir"]
    assert (ROOT / data["variantkit.variants"] / "chess.yaml").is_file()
    assert (ROOT / data["variantkit.schemas"] / "variant.schema.json").is_file()
