"""Reading Fairy-Stockfish's variant configuration (ini) format, line by line.

A file is a list of sections `[name]` or `[name:parent]`, each followed by
`key = value` lines; `#` and `;` start comment lines.  This module only reads:
it keeps every value with its line, resolves a section's `[child:parent]`
chain inside the file, and refuses hostile input (too large, binary, too
many sections, a parent chain too deep) with a located problem instead of
working on it.  What the keys mean is `keys` and `importer`'s business.
`one_line` makes a text fit one line of an ini or YAML file, for the
comments the importer and exporter write.

As Fairy-Stockfish reads such a file: a section may only name a parent
defined above it (or a built-in variant), a later key of a section replaces
an earlier one, and a second section of the same name is ignored.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from variantkit.errors import Problem, shorten

# Characters in one ini text: Fairy-Stockfish's own file, every variant it
# ships, is about 100 kB.
MAX_INI_CHARS = 2_000_000
# Sections in one text, and key lines in one section.
MAX_SECTIONS = 500
MAX_KEYS_PER_SECTION = 500
# Characters in one line (a long start position is a few hundred).
MAX_LINE_CHARS = 10_000
# Sections in one `[child:parent]` chain inside the file.
MAX_CHAIN = 32
# Units of work (`variantkit.limits.Budget`) that importing the sections of
# one text may spend together: each section is compiled once to check it
# (three times with immobilityIllegal), one load at most the 2,000,000 units
# of any variant, and each section costs SECTION_UNITS more for the work
# around it (reading its parent, writing and parsing its YAML), which the
# compiler does not count: a file of small sections is bounded too.
# Fairy-Stockfish's own file (143 sections) spends 4.7 million; docs/limits.md
# gives the times measured.
IMPORT_UNITS = 6_000_000
SECTION_UNITS = 10_000
# Characters in one piece's Betza string (Fairy-Stockfish's own longest,
# the pawn `fmWfceFifmnD`, has 12), checked before any pattern reads it.
MAX_BETZA_CHARS = 256

HEADER = re.compile(r"\[([^\]:]*)(?::([^\]]*))?\]")
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]{0,63}")


@dataclass(frozen=True)
class Entry:
    """One `key = value` line of a section."""

    key: str
    value: str
    line: int
    section: str


@dataclass
class Section:
    """One `[name:parent]` section: its keys, in the order written."""

    name: str
    parent: str | None
    line: int
    entries: dict[str, Entry] = field(default_factory=dict)


@dataclass
class IniFile:
    """The sections of one ini text and the problems found reading it."""

    source: str
    sections: dict[str, Section] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)

    def problem(self, line: int | None, message: str, rule: str,
                severity: str = "error") -> Problem:
        found = Problem(message, rule, self.source, line,
                        severity="warning" if severity == "warning" else "error")
        self.problems.append(found)
        return found


class IniError(ValueError):
    """An ini text that cannot be read at all (too large, binary)."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(str(problem))
        self.problem = problem


def one_line(text: str) -> str:
    """`text` for one line of a file: runs of whitespace, line breaks of
    every kind among them (`\\r`, U+0085, U+2028, ... all that
    `str.splitlines` splits at), as one space, and other control characters
    escaped as Python writes them (`\\x07`), so that a file name or a
    description in a comment never starts a line of its own."""
    folded = " ".join(text.split())
    return folded if folded.isprintable() else repr(folded)[1:-1]


def read_ini(text: str | bytes, source: str = "<ini>") -> IniFile:
    """The sections of `text`; raises `IniError` when the text as a whole is
    refused, and records smaller problems (a bad line, a duplicate section)
    in `IniFile.problems`, located by line."""
    if isinstance(text, bytes):
        if len(text) > MAX_INI_CHARS:
            raise IniError(_too_large(source))
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as error:
            raise IniError(Problem(f"not a text file: the byte at offset {error.start} is "
                                   "not UTF-8", "ini-binary", source)) from None
    if len(text) > MAX_INI_CHARS:
        raise IniError(_too_large(source))
    if "\x00" in text:
        raise IniError(Problem("not a text file: it holds a NUL character", "ini-binary",
                               source, text.count("\n", 0, text.index("\x00")) + 1))
    ini = IniFile(source)
    current: Section | None = None
    skipping = False   # inside a section that is ignored (a duplicate, a bad header)
    for number, raw in enumerate(text.splitlines(), start=1):
        line: str = raw.strip()
        if not line or line[0] in "#;":
            continue
        if len(line) > MAX_LINE_CHARS:
            ini.problem(number, f"line of {len(line):,} characters: at most "
                        f"{MAX_LINE_CHARS:,}", "ini-line")
            continue
        if line.startswith("["):
            current, skipping = _header(ini, line, number)
            continue
        if current is None:
            if not skipping:
                ini.problem(number, f"{shorten(line)!r} comes before the first [section]",
                            "ini-syntax", "warning")
            continue
        if "=" not in line:
            ini.problem(number, f"{shorten(line)!r} is not a 'key = value' line",
                        "ini-syntax", "warning")
            continue
        key, value = (part.strip() for part in line.split("=", 1))
        if not key:
            ini.problem(number, "a line with '=' but no key", "ini-syntax", "warning")
            continue
        if len(current.entries) >= MAX_KEYS_PER_SECTION and key not in current.entries:
            ini.problem(number, f"[{current.name}] has more than {MAX_KEYS_PER_SECTION} keys: "
                        "the rest of the section is ignored", "ini-too-large")
            current, skipping = None, True
            continue
        current.entries.pop(key, None)   # the last line of a key wins, in its place
        current.entries[key] = Entry(key, value, number, current.name)
    return ini


def _too_large(source: str) -> Problem:
    return Problem(f"longer than {MAX_INI_CHARS:,} characters, the largest ini text "
                   "read", "ini-too-large", source)


def _header(ini: IniFile, line: str, number: int) -> tuple[Section | None, bool]:
    """The section a header line opens (None for a refused one)."""
    text = line
    match = HEADER.fullmatch(text)
    if match is None:
        ini.problem(number, f"{shorten(text)!r} is not a [name] or [name:parent] header",
                    "ini-syntax")
        return None, True
    name, parent = match.group(1).strip(), match.group(2)
    parent = None if parent is None else parent.strip()
    for part in (name, parent):
        if part is not None and NAME.fullmatch(part) is None:
            ini.problem(number, f"[{shorten(text)}]: {shorten(part)!r} is not a variant name "
                        "(letters, digits, '-', '_', '.', '+'; at most 64)", "ini-syntax")
            return None, True
    if name in ini.sections:
        first = ini.sections[name].line
        ini.problem(number, f"[{name}] is defined again (first on line {first}); this "
                    "section is ignored, as Fairy-Stockfish ignores it", "ini-duplicate")
        return None, True
    if len(ini.sections) >= MAX_SECTIONS:
        if not any(p.rule == "ini-too-large" for p in ini.problems):
            ini.problem(number, f"more than {MAX_SECTIONS} sections: this one and the "
                        "ones after it are ignored", "ini-too-large")
        return None, True
    section = Section(name, parent, number)
    ini.sections[name] = section
    return section, False


def chain(ini: IniFile, name: str) -> tuple[list[Section], str | None, Problem | None]:
    """The sections `name` inherits within the file, the root first and
    `name` last, with the parent the root names outside the file (a built-in
    variant, or None); or a problem when the chain is broken or too long.

    As Fairy-Stockfish reads the file, a parent must be defined above its
    child: a parent defined later (or a loop) is not found."""
    sections: list[Section] = []
    section = ini.sections[name]
    while True:
        sections.append(section)
        if len(sections) > MAX_CHAIN:
            return [], None, Problem(f"[{name}] inherits through more than {MAX_CHAIN} "
                                     "sections", "ini-chain", ini.source, ini.sections[name].line)
        parent = section.parent
        if parent is None or parent not in ini.sections:
            break
        above = ini.sections[parent]
        if above.line >= section.line:
            return [], None, Problem(
                f"[{section.name}:{parent}]: [{parent}] is defined below it (line "
                f"{above.line}); a parent must come first", "ini-chain", ini.source, section.line)
        section = above
    sections.reverse()
    return sections, sections[0].parent, None
