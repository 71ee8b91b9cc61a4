"""Shared test configuration.

Marker `pure_build`: the oracle and property tests, run a second time on the
pure-Python build by `make test` (`VARIANTKIT_PURE=1 pytest -m pure_build`),
so that both builds answer the oracles.  A test module gets it when it uses
python-chess, pyffish (directly or through `fsf_oracle`) or hypothesis; a
module can also set `pytestmark = pytest.mark.pure_build` itself.

Marker `pure_in_oracle`: a test over every variant runs on the pure build
for a sample only in `make test`; `make oracle` runs the rest there.

Marker `patches_compiled(MODULE)`: a test that replaces a method of an
object of MODULE, which a compiled class does not allow; it is skipped on
the compiled build while MODULE is compiled, and runs on the pure build
(the marker adds `pure_build`).
"""

from __future__ import annotations

from types import ModuleType

import pytest

import variantkit
from variantkit.compiled import COMPILED_MODULES

# The top-level packages whose use makes a test module an oracle or property test.
ORACLES = frozenset({"chess", "pyffish", "fsf_oracle", "hypothesis"})


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "pure_build: oracle and property tests, run again on the pure-Python build")
    config.addinivalue_line(
        "markers", "pure_in_oracle: on the pure build, run by `make oracle` rather than "
                   "`make test` (tests/catalogue.py on_both_builds)")
    config.addinivalue_line(
        "markers", "patches_compiled(module): replaces a method of a compiled class "
                   "(see tests/conftest.py)")


def uses_oracle(module: ModuleType) -> bool:
    """Whether a test module imported an oracle or hypothesis (a module, or a
    function or class from one), unless it sets `PURE_PASS = False`: a module
    whose subject runs no compiled code of its own, and whose oracle
    comparisons the catalogue tests already make on both builds."""
    if not getattr(module, "PURE_PASS", True):
        return False
    for value in vars(module).values():
        name = value.__name__ if isinstance(value, ModuleType) \
            else getattr(value, "__module__", None)
        if isinstance(name, str) and name.partition(".")[0] in ORACLES:
            return True
    return False


@pytest.hookimpl(tryfirst=True)  # before `-m` selects by the markers given here
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    checked: dict[str, bool] = {}
    for item in items:
        module = getattr(item, "module", None)
        if module is None:
            continue
        if module.__name__ not in checked:
            checked[module.__name__] = uses_oracle(module)
        if checked[module.__name__]:
            item.add_marker(pytest.mark.pure_build)
        patches = item.get_closest_marker("patches_compiled")
        if patches:
            item.add_marker(pytest.mark.pure_build)
            if variantkit.BUILD == "compiled" and patches.args[0] in COMPILED_MODULES:
                item.add_marker(pytest.mark.skip(
                    reason=f"replaces a method of compiled {patches.args[0]}: "
                           "runs on the pure build"))
