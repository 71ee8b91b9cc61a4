"""Load a variant file and check its shape: the first stage of the pipeline.

This module turns a YAML file (or a bundled variant name) into a `Document`:
the declaration with `inherits` merged in, every node's file/line/column, and
a guarantee that the data matches `schemas/variant.schema.json`.  It knows
nothing about what the declarations mean; later stages do.
"""

from __future__ import annotations

import difflib
import functools
import json
import math
import re
import stat
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from variantkit.errors import Problem, Severity, VariantError, YamlPath, quote, shorten
from variantkit.limits import (
    MAX_ENTRIES,
    MAX_FILE_BYTES,
    MAX_INHERITANCE_DEPTH,
    MAX_NAME_LENGTH,
    MAX_NUMBER,
    MAX_TEXT_LENGTH,
    MAX_YAML_NODES,
    read_named_file,
)

if TYPE_CHECKING:
    import jsonschema

FORMAT_VERSION = 1
# A bundled variant's name: the stem of a file in the bundled folder.
BUNDLED_NAME = re.compile(r"[a-z0-9][a-z0-9_-]*")
_PACKAGE_DIR = Path(__file__).resolve().parent
_MERGE_TAG = "tag:yaml.org,2002:merge"
_INT_TAG = "tag:yaml.org,2002:int"
# An integer written with more characters than this (signs, `0x`, `_`
# separators included) is over MAX_NUMBER whatever its digits.
_NUMBER_CHARACTERS = 64

# (file, line, column), 1-based.
Location = tuple[str, int | None, int | None]
Marks = dict[YamlPath, Location]


def _data_dir(name: str) -> Path:
    """A data folder shipped inside the package (wheel) or beside it (checkout)."""
    inside = _PACKAGE_DIR / name
    return inside if inside.is_dir() else _PACKAGE_DIR.parent / name


def bundled_dir() -> Path:
    """The folder of the bundled variant files."""
    return _data_dir("variants")


def examples_dir() -> Path:
    """The folder of the example variant files (`examples/`)."""
    return _data_dir("examples")


def schema_path() -> Path:
    """The JSON Schema of the variant format."""
    return _data_dir("schemas") / "variant.schema.json"


def bundled_names() -> list[str]:
    """Names of the bundled variants, sorted."""
    return sorted(p.stem for p in bundled_dir().glob("*.yaml"))


def bundled_hint(name: str) -> str:
    """The bundled names nearest a wrong one, for error messages."""
    names = bundled_names()
    near = difflib.get_close_matches(name.lower(), names, n=3, cutoff=0.6)
    start = f"did you mean {', '.join(near)}? " if near else ""
    return f"{start}{len(names)} bundled variants: `variantkit list` shows them"


def format_path(path: Iterable[str | int]) -> str:
    """`pieces.pawn.moves[1].range`: a YAML path as a user reads it."""
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def _within(path: YamlPath) -> str:
    return f"in {format_path(path)}" if path else "at the top level"


@dataclass
class Document:
    """A loaded variant declaration and where each of its nodes was written."""

    # A plain mapping: it holds whatever YAML was read until the schema has
    # checked it, and the types that describe a checked declaration belong
    # to the later stages that read it (board, pieces, rule families), which
    # this first stage may not import; `compile_rules` reads it as
    # `variantkit.rulebook.declaration.VariantDeclaration`.
    data: dict[str, Any]
    file: str
    # Preferred location of each node, and of each mapping key (see `locate`).
    marks: Marks = field(default_factory=dict, repr=False)
    key_marks: Marks = field(default_factory=dict, repr=False)
    # The lines of every file read, so that a problem can quote its line.
    lines: dict[str, list[str]] = field(default_factory=dict, repr=False)

    def locate(self, path: Iterable[str | int], key: bool = False) -> Location:
        """(file, line, column) of the YAML node at `path`, 1-based.

        A scalar is located at its value, a mapping or list at the key that
        introduces it; `key=True` always gives the key.  A path that was not
        written (a missing key) falls back to its nearest written ancestor.
        Nodes inherited from a parent file are located in that file.
        """
        path = tuple(path)
        if key and path in self.key_marks:
            return self.key_marks[path]
        for end in range(len(path), -1, -1):
            if path[:end] in self.marks:
                return self.marks[path[:end]]
        return (self.file, None, None)

    def written_here(self, path: Iterable[str | int]) -> bool:
        """Whether the node at `path` is written in this file itself (not
        inherited from a parent file, nor missing)."""
        mark = self.marks.get(tuple(path))
        return mark is not None and mark[0] == self.file

    def problem(
        self,
        path: Iterable[str | int],
        message: str,
        rule: str,
        severity: Severity = "error",
        key: bool = False,
    ) -> Problem:
        """A `Problem` located at the node at `path`."""
        path = tuple(path)
        file, line, column = self.locate(path, key=key)
        return Problem(message, rule, file, line, column, path, severity,
                       source_text(self.lines, file, line))


def source_text(lines: dict[str, list[str]], file: str | None, line: int | None) -> str | None:
    """Line `line` (1-based) of a file the loader read, or None."""
    text = lines.get(file or "", [])
    return text[line - 1] if line is not None and 0 < line <= len(text) else None


# --- Reading one file -----------------------------------------------------------


class _Loader(yaml.SafeLoader):
    """pyyaml's safe loader; composed nodes are walked by `_Reader` to keep marks."""


def _plain(error: yaml.MarkedYAMLError) -> str:
    """The parser's complaint without its token jargon."""
    words = {
        "block end": "the end of an indented block",
        "block mapping start": "an indented 'key: value'",
        "block sequence start": "an indented '- item'",
        "stream end": "the end of the file",
        "document start": "'---'",
    }
    message = re.sub(
        r"'?<([a-z ]+)>'?", lambda m: words.get(m[1], m[1]), error.problem or "invalid YAML"
    )
    if error.context and error.context_mark is not None:
        where = f"line {error.context_mark.line + 1}, column {error.context_mark.column + 1}"
        message += f" ({error.context} at {where})"
    return f"invalid YAML: {message}"


@dataclass
class _Reader:
    """Builds plain data from composed YAML nodes, recording every node's mark
    and refusing values over the limits (`variantkit.limits`)."""

    file: str
    loader: _Loader
    lines: list[str]
    marks: Marks = field(default_factory=dict)
    key_marks: Marks = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    _open: set[int] = field(default_factory=set)

    def where(self, node: Node) -> Location:
        return (self.file, node.start_mark.line + 1, node.start_mark.column + 1)

    def error(self, node: Node, path: YamlPath, message: str, rule: str) -> None:
        line = node.start_mark.line + 1
        self.problems.append(Problem(message, rule, self.file, line, node.start_mark.column + 1,
                                     path, "error", source_text({"": self.lines}, "", line)))

    def value(self, node: Node, path: YamlPath) -> Any:
        # Aliases may make the node graph recursive; plain data cannot be.
        if id(node) in self._open:
            self.error(node, path, f"{format_path(path)}: an alias refers to itself", "yaml-syntax")
            return None
        self._open.add(id(node))
        try:
            if isinstance(node, MappingNode | SequenceNode) and len(node.value) > MAX_ENTRIES:
                self.error(node, path, f"{format_path(path) or 'the file'} has "
                           f"{len(node.value):,} entries, more than the {MAX_ENTRIES:,} "
                           "allowed", "too-large")
                return None
            if isinstance(node, MappingNode):
                return self.mapping(node, path)
            if isinstance(node, SequenceNode):
                return [self.item(child, path + (i,)) for i, child in enumerate(node.value)]
            assert isinstance(node, ScalarNode)
            return self.scalar(node, path)
        finally:
            self._open.discard(id(node))

    def scalar(self, node: ScalarNode, path: YamlPath) -> Any:
        if len(node.value) > MAX_TEXT_LENGTH:
            self.error(node, path, f"{format_path(path) or 'a value'}: a value of "
                       f"{len(node.value):,} characters, more than the {MAX_TEXT_LENGTH:,} "
                       "allowed", "too-large")
            return None
        too_big = f"{format_path(path) or 'a value'}: {shorten(node.value)} is larger than " \
            f"{MAX_NUMBER:,}, the largest number a variant file may hold"
        if node.tag == _INT_TAG and len(node.value) > _NUMBER_CHARACTERS:
            self.error(node, path, too_big, "too-large")  # not converted: it may be huge
            return None
        value = self.loader.construct_object(node, deep=True)
        if isinstance(value, float) and not math.isfinite(value):
            self.error(node, path, f"{format_path(path) or 'a value'}: {node.value} is not a "
                       "finite number", "too-large")
            return None
        if isinstance(value, int | float) and not isinstance(value, bool) \
                and abs(value) > MAX_NUMBER:
            self.error(node, path, too_big, "too-large")
            return None
        return value

    def item(self, node: Node, path: YamlPath) -> Any:
        self.marks[path] = self.where(node)
        return self.value(node, path)

    def key(self, node: Node, path: YamlPath) -> str | None:
        """A mapping key, which must be text."""
        key = self.scalar(node, path) if isinstance(node, ScalarNode) else None
        if isinstance(key, str):
            return key
        shown = _show(key) if isinstance(node, ScalarNode) else \
            ("a mapping" if isinstance(node, MappingNode) else "a list")
        self.error(node, path, f"key {shown} {_within(path)} is not text; quote it", "schema")
        return None

    def mapping(self, node: MappingNode, path: YamlPath) -> dict[str, Any]:
        # Any YAML mapping of the file, read before the schema check.
        seen: set[str] = set()
        for key_node, _ in node.value:
            if key_node.tag == _MERGE_TAG or not isinstance(key_node, ScalarNode):
                continue
            key = key_node.value
            if key in seen:
                self.error(key_node, path + (key,),
                           f"duplicate key {quote(key)} {_within(path)}", "duplicate-key")
            seen.add(key)
        # `<<: *anchor` merge keys: pyyaml puts the merged pairs first, so the
        # keys written explicitly in this mapping still win below.
        self.loader.flatten_mapping(node)
        result: dict[str, Any] = {}
        for key_node, value_node in node.value:
            key = self.key(key_node, path)
            if key is None:
                continue
            child = path + (key,)
            self.key_marks[child] = self.where(key_node)
            scalar = isinstance(value_node, ScalarNode)
            self.marks[child] = self.where(value_node if scalar else key_node)
            result[key] = self.value(value_node, child)
        return result


def expanded_size(root: Node) -> int:
    """How many nodes the YAML graph under `root` becomes once every alias
    and merge key is expanded (at most MAX_YAML_NODES + 1), counted without
    expanding anything: each distinct node is counted once, depth first.  A
    recursive alias counts as one node (the reader reports it)."""
    sizes: dict[int, int] = {}
    on_path: set[int] = set()
    stack: list[Node] = [root]
    while stack:
        node = stack[-1]
        if id(node) in sizes:
            stack.pop()
            continue
        children = _children(node)
        if id(node) not in on_path:
            on_path.add(id(node))
            stack.extend(c for c in children if id(c) not in sizes and id(c) not in on_path)
            continue
        stack.pop()
        on_path.discard(id(node))
        total = 1 + sum(sizes.get(id(child), 1) for child in children)
        sizes[id(node)] = min(total, MAX_YAML_NODES + 1)
    return sizes[id(root)]


def _children(node: Node) -> list[Node]:
    if isinstance(node, SequenceNode):
        return list(node.value)
    if isinstance(node, MappingNode):
        return [part for pair in node.value for part in pair]
    return []


def read_source(path: Path, shown: str) -> str:
    """The text of the file at `path` (named `shown` in messages): a regular
    file of at most MAX_FILE_BYTES bytes of UTF-8.  Special files (a FIFO,
    /dev/zero) are refused without blocking or reading them."""
    try:
        data = read_named_file(path, MAX_FILE_BYTES)
    except FileNotFoundError:
        raise VariantError([Problem(f"no such file: {shown}", "file-not-found", shown)]) from None
    except OSError as exc:
        raise VariantError([Problem(f"cannot read {shown}: {exc.strerror or exc}",
                                    "file-unreadable", shown)]) from None
    if len(data) > MAX_FILE_BYTES:
        raise VariantError([Problem(
            f"{shown} is larger than {MAX_FILE_BYTES:,} bytes, the largest variant file "
            "allowed", "too-large", shown)])
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line_start = data.rfind(b"\n", 0, exc.start) + 1
        line_end = data.find(b"\n", exc.start)
        source = data[line_start:line_end if line_end >= 0 else len(data)]
        raise VariantError([Problem(
            f"byte 0x{data[exc.start]:02x} is not UTF-8 text: save the file as UTF-8",
            "bad-encoding", shown, data.count(b"\n", 0, exc.start) + 1,
            exc.start - line_start + 1, (), "error",
            source.decode("utf-8", "replace"))]) from None


def parse_text(text: str, shown: str) -> Document:
    """One file's own declaration (no inheritance) with its marks."""
    lines = text.splitlines()
    try:
        loader = _Loader(text)
    except yaml.reader.ReaderError as exc:  # pyyaml checks the characters first
        at = exc.position
        char = exc.character if isinstance(exc.character, int) else ord(exc.character)
        row = text.count("\n", 0, at) + 1
        raise VariantError([Problem(
            f"invalid YAML: character U+{char:04X} is not allowed in a YAML file",
            "yaml-syntax", shown, row, at - text.rfind("\n", 0, at), (), "error",
            source_text({shown: lines}, shown, row))]) from None
    reader = _Reader(shown, loader, lines)
    try:
        root = loader.get_single_node()
        data = None
        if root is not None:
            if expanded_size(root) > MAX_YAML_NODES:
                raise VariantError([Problem(
                    f"{shown} expands to more than {MAX_YAML_NODES:,} YAML values once "
                    "its aliases are expanded", "too-large", shown)])
            reader.marks[()] = reader.where(root)
            data = reader.value(root, ())
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark else (None, None)
        raise VariantError([Problem(_plain(exc), "yaml-syntax", shown, line, column, (),
                                    "error", source_text({shown: lines}, shown, line))]) from None
    except yaml.YAMLError as exc:
        raise VariantError([Problem(f"invalid YAML: {exc}", "yaml-syntax", shown)]) from None
    except RecursionError:
        # pyyaml itself recurses forever on a mapping that merges (`<<`) itself.
        raise VariantError(
            [
                Problem(
                    "invalid YAML: nested too deeply, or an alias refers to itself",
                    "yaml-syntax",
                    shown,
                )
            ]
        ) from None
    finally:
        loader.dispose()
    if reader.problems:
        raise VariantError(_sorted(reader.problems))
    doc = Document(data if isinstance(data, dict) else {}, shown, reader.marks,
                   reader.key_marks, {shown: lines})
    if not isinstance(data, dict):
        got = "an empty file" if root is None else _show(data)
        raise VariantError([doc.problem(
            (), "a variant file is a mapping of keys ('variantkit: 1', 'name: ...', ...), "
            f"got {got}", "not-a-mapping")])
    _check_version(doc)
    return doc


def _check_version(doc: Document) -> None:
    # Checked per file and before anything else: a file in another format
    # version would otherwise drown in schema errors that miss the point.
    if "variantkit" not in doc.data:
        raise VariantError(
            [
                doc.problem(
                    (),
                    "missing 'variantkit: 1': every variant file starts by naming "
                    "the format version it uses",
                    "format-version",
                )
            ]
        )
    version = doc.data["variantkit"]
    if version != FORMAT_VERSION or isinstance(version, bool):
        raise VariantError(
            [
                doc.problem(
                    ("variantkit",),
                    f"variantkit: {_show(version)} is not a format version this program reads "
                    f"(it reads version {FORMAT_VERSION})",
                    "format-version",
                )
            ]
        )


# --- Finding files and inheritance ----------------------------------------------


def _is_file(path: Path) -> bool:
    """Whether `path` names an existing regular file; a name the system
    refuses (too long, say) names none."""
    try:
        return stat.S_ISREG(path.stat().st_mode)
    except (OSError, ValueError):
        return False


def _bundled(name: str) -> Path | None:
    """The bundled file of a bare variant name ("chess"), or None."""
    if not BUNDLED_NAME.fullmatch(name):
        return None
    path = bundled_dir() / f"{name}.yaml"
    return path if _is_file(path) else None


def _bundled_example(name: str) -> Path | None:
    """The example shipped with variantkit that `examples/NAME` (with or
    without `.yaml`) names, or None."""
    folder, _, stem = name.partition("/")
    stem = stem.removesuffix(".yaml")
    if folder != "examples" or not BUNDLED_NAME.fullmatch(stem):
        return None
    path = examples_dir() / f"{stem}.yaml"
    return path if _is_file(path) else None


def _exists(path: Path) -> bool:
    try:
        return path.exists()
    except (OSError, ValueError):
        return False


def resolve(name_or_path: str) -> Path:
    """The file of a bundled variant name or a path to a variant file (the
    user's own choice: any path, relative to the working folder)."""
    name = str(name_or_path)
    if not name.strip():
        raise VariantError([Problem("no variant given: a bundled name or a path to a .yaml "
                                    "file", "file-not-found", name)])
    if len(name) > MAX_NAME_LENGTH:
        raise VariantError([Problem(f"no such file: {quote(name)} is longer than "
                                    f"{MAX_NAME_LENGTH} characters", "file-not-found")])
    found = _bundled(name)
    if found is not None:
        return found
    if _exists(Path(name)):
        return Path(name)
    if Path(name).suffix or len(Path(name).parts) > 1:
        message = f"no such file: {name}"
    else:
        message = f"no bundled variant named '{name}' ({bundled_hint(name)})"
    raise VariantError([Problem(message, "file-not-found", name)])


# Keys that stand for one another: a child that writes one of them replaces
# whichever the parent wrote (a board's topology; a piece's moves or Betza).
ALTERNATIVES = ({"grid", "polar", "hex", "graph"}, {"moves", "betza"})


# Inheritance merges and prunes the declarations as plain YAML, of any
# shape, before the schema checks the result.
def _merge(parent: Any, child: Any) -> Any:
    if isinstance(parent, dict) and isinstance(child, dict):
        merged = dict(parent)
        for group in ALTERNATIVES:
            if group & child.keys():
                for key in group - child.keys():
                    merged.pop(key, None)
        for key, value in child.items():
            merged[key] = _merge(parent[key], value) if key in parent else value
        return merged
    return child


def _paths(value: Any, path: YamlPath = ()) -> Iterator[YamlPath]:
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, path + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, path + (index,))


def _without(parent: Any, removal: Any, child: Document, path: YamlPath) -> Any:
    """The parent's data less the entries the child's `remove:` names.

    `removal` mirrors the document: a list names keys to delete at its level,
    a mapping goes one level down (`{pieces: [queen], board: {regions: [x]}}`).
    """
    where = ("remove", *path)
    if not isinstance(parent, dict):
        raise VariantError([child.problem(where, f"remove: the parent's "
                                          f"{format_path(path)} is not a mapping",
                                          "remove-missing")])
    kept = dict(parent)
    if isinstance(removal, list):
        names = list(enumerate(removal))
    elif isinstance(removal, dict):
        names = [(key, key) for key in removal]
    else:
        raise VariantError([child.problem(where, "remove: expected a list of keys or a "
                                          f"mapping, got {_show(removal)}", "schema")])
    problems = []
    for index, key in names:
        if not isinstance(key, str) or key not in kept:
            problems.append(child.problem(
                (*where, index), f"remove: the parent has no {_show(key)} "
                f"{_within(path)}", "remove-missing"))
        elif isinstance(removal, dict):
            kept[key] = _without(kept[key], removal[key], child, (*path, key))
        else:
            del kept[key]
    if problems:
        raise VariantError(problems)
    return kept


def _inherit(parent: Document, child: Document) -> Document:
    """The child's declaration over the parent's.

    The entries the child's `remove:` names are taken out of the parent
    first.  A node of the merged data comes from the child exactly when the
    child wrote that path, so each path takes the child's location if it has one.
    """
    base = _without(parent.data, child.data["remove"], child, ()) \
        if "remove" in child.data else parent.data
    data = _merge(base, child.data)
    data.pop("inherits", None)
    data.pop("remove", None)
    merged = Document(data, child.file, lines={**parent.lines, **child.lines})
    for path in _paths(data):
        source = child if path in child.marks else parent
        merged.marks[path] = source.marks[path]
        if path in source.key_marks:
            merged.key_marks[path] = source.key_marks[path]
    return merged


def parent_file(doc: Document, folder: Path | None) -> Path:
    """The file that `doc`'s `inherits:` names, under the containment rule.

    A parent is a bundled variant name, or -- only when `folder` (the
    including file's folder) is given -- a relative path to a regular file
    inside that folder or below it, symbolic links resolved; `examples/NAME`
    that is no such file names the example shipped with variantkit, so a
    file anywhere can build on one.  Anything else
    is a problem located at `inherits` that quotes nothing but the name the
    file wrote: variant files may come from anyone, and must not make the
    loader read or show other files.
    """
    name = doc.data["inherits"]
    if not isinstance(name, str) or not name:
        raise VariantError([doc.problem(
            ("inherits",),
            f"inherits: expected a variant name or file path, got {_show(name)}", "schema")])
    bundled = _bundled(name)
    if bundled is not None:
        return bundled

    where = ("inherits",)
    named = f"inherits: {quote(name)}"
    outside = "a parent is a bundled name or a file in this file's folder or below it"
    example = _bundled_example(name)
    if folder is None:
        if example is not None:
            return example
        raise VariantError([doc.problem(
            where, f"{named} is not a bundled variant, and only bundled variants and "
            f"examples/NAME can be inherited here (bundled: {', '.join(bundled_names())})",
            "inherit-not-found")])
    candidate = Path(name)
    if candidate.is_absolute() or len(name) > MAX_NAME_LENGTH:
        raise VariantError([doc.problem(
            where, f"{named} is not a relative path: {outside}", "inherit-outside")])
    try:
        base = folder.resolve()
        real = (base / candidate).resolve()
    except (OSError, RuntimeError, ValueError):
        real = None
    if real is None or not real.is_relative_to(base):
        raise VariantError([doc.problem(
            where, f"{named} leads out of this file's folder: {outside}", "inherit-outside")])
    if not _is_file(real):
        if example is not None and not _exists(real):
            return example
        what = "is not a regular file" if _exists(real) else "names no bundled variant and no file"
        raise VariantError([doc.problem(where, f"{named} {what}", "inherit-not-found")])
    return real


def _load(text: str, shown: str, folder: Path | None, chain: tuple[Path, ...]) -> Document:
    """A file's declaration with everything it inherits merged in."""
    doc = parse_text(text, shown)
    if "inherits" not in doc.data:
        if "remove" in doc.data:
            raise VariantError([doc.problem(("remove",), "remove: only a file that "
                                            "inherits can remove its parent's entries",
                                            "remove-missing", key=True)])
        return doc
    path = parent_file(doc, folder)
    real = path.resolve()
    if real in chain:
        cycle = " -> ".join(p.name for p in chain + (real,))
        raise VariantError(
            [doc.problem(("inherits",), f"inheritance cycle: {cycle}", "inherit-cycle")]
        )
    if len(chain) > MAX_INHERITANCE_DEPTH:
        raise VariantError([doc.problem(
            ("inherits",), f"inherits: more than {MAX_INHERITANCE_DEPTH} files inherit one "
            "from another", "too-large")])
    # A bundled variant inherits only bundled variants.
    parent_folder = None if real.parent == bundled_dir().resolve() else real.parent
    parent = _load(read_source(path, str(path)), str(path), parent_folder, chain + (real,))
    return _inherit(parent, doc)


# --- Schema validation ------------------------------------------------------------
# The schema is a JSON document read as plain mappings, as is the data it checks.


@functools.cache
def _schema() -> dict[str, Any]:
    with schema_path().open(encoding="utf-8") as handle:
        schema: dict[str, Any] = json.load(handle)
    return schema


def _is_integer(checker: Any, value: Any) -> bool:
    # JSON Schema counts 8.0 as an integer; the compiler needs a real one.
    return isinstance(value, int) and not isinstance(value, bool)


@functools.cache
def _validator() -> jsonschema.protocols.Validator:
    import jsonschema  # on the first schema check, not on import

    strict = jsonschema.validators.extend(
        jsonschema.Draft202012Validator,
        type_checker=jsonschema.Draft202012Validator.TYPE_CHECKER.redefine(
            "integer", _is_integer))
    return strict(_schema())


def _deref(schema: Any) -> dict[str, Any]:
    """Follow local `$ref`s (the schema only uses `#/$defs/...`)."""
    while isinstance(schema, dict) and "$ref" in schema:
        schema = _schema()["$defs"][schema["$ref"].rsplit("/", 1)[-1]]
    return schema if isinstance(schema, dict) else {}


def _show(value: Any) -> str:
    """A value as the user wrote it, briefly."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        text = "[" + ", ".join(_show(item) for item in value) + "]"
        return text if len(text) <= 60 else "a list"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "...'"


_PATTERN_WORDS = {
    "^(\\+?[A-Z]|[A-Z]~)$": "a single uppercase letter, or '+' and one, or one and '~' (a "
                             "promoted form)",
    "^[^0-9A-Za-z/|+\\s]$": "one character that is not a letter, a digit, '/', '|', '+' or a space",
    "^[A-Za-z]$": "a single letter",
    "^[a-z][a-z0-9_-]*$": "a name of lowercase letters, digits, '-' or '_', starting with a letter",
    "^[A-Za-z][A-Za-z0-9_-]*$": "a name of letters, digits, '-' or '_', starting with a letter",
    "^[A-Z]+ v [A-Z]+$": "a string like 'KN v K'",
}
_TYPE_WORDS = {
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "true or false",
    "null": "null",
    "object": "a mapping",
    "array": "a list",
}
_PLURALS = {"string": "strings", "integer": "integers", "number": "numbers"}


def _expected(schema: Any) -> str:
    """What a schema accepts, in words: 'an integer >= 1', 'one of 'win', 'loss''."""
    schema = _deref(schema)
    if "const" in schema:
        return _show(schema["const"])
    if "enum" in schema:
        return "one of " + ", ".join(_show(v) for v in schema["enum"])
    # A schema with a type of its own only uses oneOf for key combinations.
    types = schema.get("type")
    if types is not None:
        return " or ".join(
            _typed(kind, schema) for kind in ([types] if isinstance(types, str) else types)
        )
    return " or ".join(_expected(alt) for alt in schema.get("anyOf", schema.get("oneOf", [])))


def _typed(kind: str, schema: dict[str, Any]) -> str:
    if kind in ("integer", "number"):
        low, high = schema.get("minimum"), schema.get("maximum")
        bound = f" >= {low}" if low is not None else ""
        return _TYPE_WORDS[kind] + bound + (f" <= {high}" if high is not None else "")
    if kind == "string":
        pattern = schema.get("pattern")
        words = (
            _PATTERN_WORDS.get(pattern, f"a string matching {pattern}") if pattern else "a string"
        )
        return words + (" (not empty)" if schema.get("minLength") and not pattern else "")
    if kind == "array":
        items = _deref(schema.get("items", {}))
        item_type = items.get("type")
        simple = isinstance(item_type, str) and item_type in _PLURALS and "pattern" not in items
        plural = _PLURALS[str(item_type)] if simple else "items"
        low, high = schema.get("minItems"), schema.get("maxItems")
        if low == high == 2:
            return f"a pair of {plural}"
        if low is not None and high is not None:
            return f"a list of {low} {'or' if high == low + 1 else 'to'} {high} {plural}"
        if simple:
            return f"a list of {plural}"
        if item_type == "array":
            return "a list of " + _typed("array", items).replace("a list", "lists", 1)
        return f"a list of items that are each {_expected(items)}" if items else "a list"
    return _TYPE_WORDS[kind]


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def _accepts_type(schema: Any, value: Any) -> bool:
    """Whether `schema` could accept a value of `value`'s JSON type."""
    schema = _deref(schema)
    for alternatives in ("anyOf", "oneOf"):
        if alternatives in schema:
            return any(_accepts_type(alt, value) for alt in schema[alternatives])
    if "const" in schema or "enum" in schema:
        return any(
            _json_type(v) == _json_type(value) for v in schema.get("enum", [schema.get("const")])
        )
    types = schema.get("type")
    if types is None:
        return True
    kinds = {types} if isinstance(types, str) else set(types)
    kind = _json_type(value)
    return kind in kinds or (kind == "integer" and "number" in kinds)


def _schema_problems(doc: Document, error: jsonschema.ValidationError) -> Iterator[Problem]:
    """Plain, located problems for one jsonschema error (and, for
    alternatives, the errors of the one alternative the value was aiming at)."""
    path = tuple(error.absolute_path)
    where = format_path(path)
    prefix = f"{where}: " if where else ""
    value, keyword = error.instance, error.validator
    if keyword == "additionalProperties" and error.validator_value is False:
        allowed = sorted(error.schema.get("properties", {}))
        for unknown in sorted(set(value) - set(allowed)):
            close = difflib.get_close_matches(unknown, allowed, n=1)
            hint = f"did you mean '{close[0]}'?" if close else "allowed: " + ", ".join(allowed)
            yield doc.problem(
                path + (unknown,),
                f"unknown key '{unknown}' {_within(path)} ({hint})",
                "unknown-key",
                key=True,
            )
        return
    if "propertyNames" in error.schema_path:
        yield doc.problem(
            path + (value,),
            f"{prefix}name {_show(value)} is not allowed: expected {_expected(error.schema)}",
            "schema",
            key=True,
        )
        return
    if keyword == "required":
        # jsonschema reports each missing key separately, with the same
        # validator_value; each report names them all and `validate` dedupes.
        missing = [k for k in error.validator_value if k not in value]
        names = _and(f"'{k}'" for k in missing)
        yield doc.problem(
            path, f"{prefix}missing required key{'s' if len(missing) > 1 else ''} {names}", "schema"
        )
        return
    if keyword == "oneOf" and all(set(alt) <= {"required", "not"} for alt in error.validator_value):
        # "Exactly one of these keys", e.g. a move's step/ride/leap/jump/suborn
        # (an alternative with `not` is a key that may also stand alone).
        # A value that is not a mapping at all already has its type error.
        if not isinstance(value, dict):
            return
        options = [alt["required"][0] for alt in error.validator_value if "not" not in alt]
        present = [k for k in options if k in value]
        listed = ", ".join(f"'{k}'" for k in options)
        found = _and(f"'{k}'" for k in present) if present else "none"
        yield doc.problem(
            path, f"{prefix}expected exactly one of the keys {listed}, found {found}", "schema"
        )
        return
    if keyword in ("anyOf", "oneOf") and error.context:
        aimed = [i for i, alt in enumerate(error.validator_value) if _accepts_type(alt, value)]
        if len(aimed) == 1:
            for sub in error.context:
                if sub.schema_path[0] == aimed[0]:
                    yield from _schema_problems(doc, sub)
            return
    if keyword == "enum" and isinstance(value, str):
        close = difflib.get_close_matches(
            value, [v for v in error.validator_value if isinstance(v, str)], n=1
        )
        if close:
            yield doc.problem(
                path,
                f"{prefix}expected {_expected(error.schema)}, got {_show(value)} "
                f"(did you mean '{close[0]}'?)",
                "schema",
            )
            return
    if keyword == "minItems" and not value:
        yield doc.problem(path, f"{prefix}expected a non-empty list", "schema")
        return
    if keyword == "minProperties" and not value:
        yield doc.problem(path, f"{prefix}expected at least one entry", "schema")
        return
    yield doc.problem(
        path, f"{prefix}expected {_expected(error.schema)}, got {_show(value)}", "schema"
    )


def _and(words: Iterable[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    items = list(words)
    return ", ".join(items[:-1]) + " and " + items[-1] if len(items) > 1 else "".join(items)


def _sorted(problems: Iterable[Problem]) -> list[Problem]:
    """By (file, line, column), each problem once."""
    unique = dict.fromkeys(problems)
    return sorted(unique, key=lambda p: (p.file or "", p.line or 0, p.column or 0))


def validate(doc: Document) -> list[Problem]:
    """Every way `doc.data` departs from the schema, located and sorted."""
    return _sorted(
        p for error in _validator().iter_errors(doc.data) for p in _schema_problems(doc, error)
    )


def document_text(doc: Document) -> str:
    """The declaration as one self-contained YAML text: what it inherits is
    already merged in, so the text loads anywhere, without the files it came
    from (a worker of a cluster, another machine)."""
    return yaml.safe_dump(doc.data, sort_keys=False, allow_unicode=True)


def load_document(name_or_path: str | Path) -> Document:
    """Read a variant (bundled name or file path), merge what it inherits and
    check its shape; raises `VariantError` listing every problem found.

    The file may inherit a bundled variant, or a file in its own folder or
    below it (see `parent_file`).
    """
    shown = str(name_or_path)
    path = resolve(shown)
    if _bundled(shown) is not None:
        shown = str(path)  # a bundled name: problems should name the real file
    return _checked(_load(read_source(path, shown), shown, path.parent,
                          (path.resolve(),)))


def load_document_text(text: str, source: str = "<text>", folder: Path | None = None
                       ) -> Document:
    """Like `load_document`, for YAML text that did not come from a file the
    user named (a web form, an editor buffer).  `source` names it in
    problems.  It may inherit only bundled variants; with `folder`, also files
    in that folder or below it, as a file stored there could."""
    if len(text) > MAX_FILE_BYTES:
        raise VariantError([Problem(
            f"{source} is longer than {MAX_FILE_BYTES:,} characters, the largest variant "
            "text allowed", "too-large", source)])
    return _checked(_load(text, source, folder, ()))


def _checked(doc: Document) -> Document:
    problems = validate(doc)
    if problems:
        raise VariantError(problems)
    return doc
