"""Imports inside functions are the exception: each one says why it is lazy.

docs/architecture.md: an import inside a function is allowed only where an optional
extra requires it, where a library takes long to import, or for the command line's
start-up, and it carries a ``# lazy: <reason>`` comment on its line or just above its
block of imports. This test keeps that true.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from helpers.paths import REPO

SRC = REPO / "src" / "simwright"


def _continues_block(text: str) -> bool:
    return (
        not text
        or text.startswith(("from ", "import ", "#", ")"))
        or text.endswith(",")
        or text.endswith("(")
    )


def _has_reason(lines: list[str], lineno: int) -> bool:
    if "# lazy" in lines[lineno - 1]:
        return True
    i = lineno - 2
    while i >= 0:
        text = lines[i].strip()
        if text.startswith("# lazy"):
            return True
        if not _continues_block(text):
            return False
        i -= 1
    return False


def _unexplained(path: Path, root: Path = REPO) -> list[str]:
    source = path.read_text()
    lines = source.splitlines()
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for inner in ast.walk(node):
            if isinstance(inner, ast.Import | ast.ImportFrom) and not _has_reason(
                lines, inner.lineno
            ):
                found.append(f"{path.relative_to(root)}:{inner.lineno}")
    return found


def test_every_import_inside_a_function_says_why() -> None:
    unexplained = [spot for path in sorted(SRC.rglob("*.py")) for spot in _unexplained(path)]
    assert unexplained == [], "imports inside functions without '# lazy: reason': " + ", ".join(
        unexplained
    )


def test_the_check_finds_an_unexplained_import(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text("def f():\n    import json\n    return json\n")
    assert _unexplained(probe, tmp_path) == ["probe.py:2"]
    probe.write_text("def f():\n    # lazy: a reason\n    import json\n    return json\n")
    assert _unexplained(probe, tmp_path) == []


def test_lazy_package_exports_stay_what_they_name_after_their_submodules_load() -> None:
    """A submodule import binds the package attribute of the same name to the module:
    an exported function named like its module must still be the function."""
    code = (
        "import importlib, pkgutil, types\n"
        "bad = []\n"
        "for pkg in ('forcefields', 'contract', 'potentials', 'graph', 'store', 'builders'):\n"
        "    m = importlib.import_module('simwright.' + pkg)\n"
        "    for sub in pkgutil.iter_modules(m.__path__):\n"
        "        importlib.import_module(f'simwright.{pkg}.{sub.name}')\n"
        "    for name in getattr(m, '_WHERE', {}):\n"
        "        if isinstance(getattr(m, name), types.ModuleType):\n"
        "            bad.append(f'{pkg}.{name}')\n"
        "print(bad)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert proc.stdout.strip() == "[]"
