"""Where the playground's variants come from, and the one door for YAML text.

A page names its variant by a *source*: a bundled variant
(`{"bundled": "chess"}`), an example file (`{"example": "glinski"}`) or YAML
text typed into the editor (`{"yaml": "..."}`).  Bundled and example files
are the package's own and load as usual; typed text is untrusted and goes
through `load_yaml_text` alone, which allows only bundled parents in
`inherits` and bounds the text's size.  That function is the one place to
change when the loader offers text loading with such a policy itself.

Everything here runs in a playground worker process (see `workers`), never
in the server itself: compiling a huge board or an alias bomb must not stall
the server, and there it is bounded in time and memory.
"""

from __future__ import annotations

import tempfile
from collections import OrderedDict
from pathlib import Path
from typing import Any

import yaml

from variantkit.errors import Problem, VariantError
from variantkit.loader import bundled_dir, bundled_names, examples_dir
from variantkit.variant import Variant, load

MAX_YAML_BYTES = 64 * 1024
# The editor's file, as named in problems (it has no file of its own).
EDITOR_FILE = "editor"
CACHED_VARIANTS = 8



def example_names() -> list[str]:
    """Names of the example variant files, sorted."""
    return sorted(p.stem for p in examples_dir().glob("*.yaml"))


def catalogue() -> list[dict[str, str]]:
    """Every variant the page offers: the bundled ones, then the examples."""
    return [{"kind": "bundled", "name": n} for n in bundled_names()] + \
        [{"kind": "example", "name": n} for n in example_names()]


def source_file(source: Any) -> Path:
    """The file of a bundled or example source; a VariantError for any
    other name, so that a request can never name a path."""
    kind, name = source_key(source)
    if kind == "yaml":
        raise RequestError("typed YAML has no file")
    names, folder = (bundled_names(), bundled_dir()) if kind == "bundled" else \
        (example_names(), examples_dir())
    if name not in names:
        raise VariantError([Problem(f"no {kind} variant named '{name}' "
                                    f"(there are: {', '.join(names)})", "file-not-found", name)])
    return folder / f"{name}.yaml"


def source_text(source: Any) -> str:
    """The YAML text of a source, for the editor."""
    kind, value = source_key(source)
    return value if kind == "yaml" else source_file(source).read_text(encoding="utf-8")


def load_yaml_text(text: str) -> Variant:
    """Compile untrusted YAML text: at most MAX_YAML_BYTES, and `inherits`
    only a bundled variant's name.  Problems name the file `editor`."""
    if len(text.encode("utf-8")) > MAX_YAML_BYTES:
        raise VariantError([Problem(
            f"the text is longer than the playground reads ({MAX_YAML_BYTES // 1024} KiB)",
            "input-too-large", EDITOR_FILE, 1, 1)])
    _check_parent(text)
    with tempfile.TemporaryDirectory(prefix="variantkit-") as folder:
        path = Path(folder) / f"{EDITOR_FILE}.yaml"
        path.write_text(text, encoding="utf-8")
        try:
            return load(path)
        except VariantError as exc:
            raise VariantError([_renamed(p, str(path)) for p in exc.problems]) from None


def _check_parent(text: str) -> None:
    """Refuse an `inherits` that is not a bundled name.  Only the top-level
    mapping is composed (no values are built), so this is cheap on any
    text; a text that does not parse is left to the loader to report."""
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return
    if not isinstance(root, yaml.MappingNode):
        return
    for key, value in root.value:
        if isinstance(key, yaml.ScalarNode) and key.value == "inherits":
            parent = value.value if isinstance(value, yaml.ScalarNode) else None
            if parent not in bundled_names():
                mark = value.start_mark
                raise VariantError([Problem(
                    f"inherits: the playground inherits only a bundled variant "
                    f"({', '.join(bundled_names())}), never a file",
                    "inherit-not-allowed", EDITOR_FILE, mark.line + 1, mark.column + 1,
                    ("inherits",))])


def _renamed(problem: Problem, path: str) -> Problem:
    """`problem` with the editor's temporary file named `editor`."""
    if problem.file != path:
        return problem
    return Problem(problem.message.replace(path, EDITOR_FILE), problem.rule, EDITOR_FILE,
                   problem.line, problem.column, problem.path, problem.severity)


class Variants:
    """Compiled variants by source, the most recently used few kept."""

    def __init__(self) -> None:
        self._cache: OrderedDict[tuple[str, str], Variant] = OrderedDict()

    def get(self, source: Any) -> Variant:
        key = source_key(source)
        if key in self._cache:
            self._cache.move_to_end(key)
            return self._cache[key]
        variant = load_yaml_text(key[1]) if key[0] == "yaml" else load(source_file(source))
        self._cache[key] = variant
        if len(self._cache) > CACHED_VARIANTS:
            self._cache.popitem(last=False)
        return variant


class RequestError(ValueError):
    """A request the page would never send: a bad shape, an unknown field."""


def source_key(source: Any) -> tuple[str, str]:
    """(kind, name or text) of a source as a request gives it."""
    if isinstance(source, dict) and len(source) == 1:
        ((kind, value),) = source.items()
        if kind in ("bundled", "example", "yaml") and isinstance(value, str):
            return kind, value
    raise RequestError("a source is one of {bundled: NAME}, {example: NAME} or {yaml: TEXT}")
