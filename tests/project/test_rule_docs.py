"""Every rule id the code can report is documented in docs/validation.md,
and every documented rule exists in the code."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
# Where the rule id stands in each kind of call that reports a problem.
RULE_ARGUMENT = {"DeclarationError": 1, "Problem": 1, "problem": 2, "report": 2, "error": 3,
                 "graph_error": 1, "note": 1}


def rules_in_code() -> set[str]:
    rules = set()
    for path in (ROOT / "variantkit").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else \
                func.attr if isinstance(func, ast.Attribute) else None
            index = RULE_ARGUMENT.get(name or "")
            if index is not None and len(node.args) > index:
                arg = node.args[index]
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    rules.add(arg.value)
    return rules


def test_rule_ids_and_their_documentation_match() -> None:
    documented = set(re.findall(r"^### ([a-z-]+)$",
                                (ROOT / "docs" / "validation.md").read_text(encoding="utf-8"),
                                re.MULTILINE))
    in_code = rules_in_code()
    assert in_code, "no rule ids found: the scan is broken"
    assert in_code <= documented, f"undocumented rules: {sorted(in_code - documented)}"
    # The loader also reports 'schema' and 'unknown-key' through helpers.
    assert documented - in_code <= {"schema", "unknown-key"}, \
        f"documented but never reported: {sorted(documented - in_code - {'schema', 'unknown-key'})}"
