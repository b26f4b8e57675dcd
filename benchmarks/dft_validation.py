"""False alarms of the pw.x input validation on inputs that pw.x itself accepts.

Give it directories of valid pw.x 6.7 inputs written by others, e.g. Quantum
ESPRESSO 6.7's ``PW/examples`` and ``test-suite/pw_*`` (read from the QE
repository, never copied into simwright)::

    python benchmarks/dft_validation.py /path/to/q-e/PW/examples /path/to/q-e/test-suite

It collects ``*.in`` files that hold a pw.x input (an ``&SYSTEM`` namelist and an
``ATOMIC_SPECIES`` card, no ``calculation='cp'``; ``reference`` folders, which hold
copies, are skipped) and the pw.x inputs written by
shell scripts as here-documents (``cat > x.in << EOF ... EOF``), with shell
variables replaced by a plausible value (the first value the script assigns or
loops over, 1 for a value computed by a command; ``$PSEUDO_DIR`` and friends by a
path). Each input goes through
:func:`simwright.dft.file_checks.validate_text`; any error-level problem on these
valid inputs is a false alarm. It prints the number of files, the false alarms
(count, percentage, each rule that fired) and the warnings; ``--json`` prints
one object instead, ``--list`` names each file with an error.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from simwright.dft.file_checks import validate_text
from simwright.errors import SimwrightError

_HEREDOC = re.compile(r"cat\s*>\s*(\S+)\s*<<\s*\\?['\"]?(\w+)['\"]?")
_ASSIGN = re.compile(r"^\s*(?:export\s+)?([A-Za-z_]\w*)=(\"[^\"]*\"|'[^']*'|\S*)")
_LOOP = re.compile(r"^\s*for\s+([A-Za-z_]\w*)\s+in\s+(.+?)\s*(?:;|$)")
_VAR = re.compile(r"\$\{?([A-Za-z_]\w*)\}?")
_PATHS = {"PSEUDO_DIR": "/tmp/pseudo", "TMP_DIR": "/tmp/tmp", "EXAMPLE_DIR": "/tmp/example"}


@dataclass(frozen=True)
class Sample:
    """One pw.x input: where it comes from and its text."""

    source: str
    text: str


def is_pw_input(text: str) -> bool:
    """An &SYSTEM namelist and an ATOMIC_SPECIES card, and not a cp.x run."""
    low = text.lower()
    return (
        re.search(r"^\s*&system", low, re.MULTILINE) is not None
        and "atomic_species" in low
        and re.search(r"calculation\s*=\s*['\"](cp|vc-cp|cp-wf)", low) is None
    )


def _shell_values(script: str) -> dict[str, str]:
    values: dict[str, str] = dict(_PATHS)
    for line in script.splitlines():
        if m := _LOOP.match(line):
            first = m.group(2).split()[0].strip("\"'")
            values.setdefault(m.group(1), first)
        elif m := _ASSIGN.match(line):
            value = m.group(2).strip("\"'")
            if value.startswith(("$(", "`")):  # computed by a command at run time
                value = "1"
            values.setdefault(m.group(1), value)
    return values


def _substitute(text: str, values: dict[str, str]) -> str:
    for _ in range(3):  # values may name other variables
        text = _VAR.sub(lambda m: values.get(m.group(1), "1"), text)
    return text


def heredocs(script: str) -> Iterator[tuple[str, str]]:
    """(file name, body) of each ``cat > name << EOF`` here-document, variables substituted."""
    values = _shell_values(script)
    lines = script.splitlines()
    i = 0
    while i < len(lines):
        m = _HEREDOC.search(lines[i])
        i += 1
        if m is None or lines[i - 1].lstrip().startswith("#"):  # none, or commented out
            continue
        body = []
        while i < len(lines) and lines[i].strip() != m.group(2):
            body.append(lines[i])
            i += 1
        i += 1
        yield _substitute(m.group(1), values), _substitute("\n".join(body) + "\n", values)


def collect(root: Path) -> list[Sample]:
    """Every pw.x input under ``root`` (files and here-documents), in a stable order."""
    out: list[Sample] = []
    files = (p for p in root.rglob("*") if p.is_file())
    for path in sorted(p for p in files if "reference" not in p.relative_to(root).parts[:-1]):
        try:
            text = path.read_text(errors="replace")
        except OSError:
            continue
        rel = str(path.relative_to(root.parent))
        if path.suffix == ".in" and is_pw_input(text):
            out.append(Sample(rel, text))
        elif "<<" in text and path.suffix not in (".in", ".out") and "cat" in text:
            for n, (name, body) in enumerate(heredocs(text)):
                if is_pw_input(body):
                    out.append(Sample(f"{rel}#{n}:{name}", body))
    return out


def measure(samples: list[Sample]) -> dict[str, object]:
    """Files, false alarms (files with an error) by rule, warnings by rule."""
    errors: Counter[str] = Counter()
    warnings: Counter[str] = Counter()
    flagged: dict[str, list[str]] = {}
    unreadable: dict[str, str] = {}
    for s in samples:
        try:
            problems = validate_text(s.text)
        except SimwrightError as exc:
            unreadable[s.source] = str(exc)
            continue
        errs = [p for p in problems if p.severity == "error"]
        for p in problems:
            rule = f"{p.kind}:{p.name}"
            (errors if p.severity == "error" else warnings)[rule] += 1
        if errs:
            flagged[s.source] = [p.message for p in errs]
    n = len(samples)
    alarms = len(flagged) + len(unreadable)
    return {
        "files": n,
        "false_alarms": alarms,
        "false_alarm_percent": round(100.0 * alarms / n, 2) if n else 0.0,
        "unreadable": unreadable,
        "error_rules": dict(errors.most_common()),
        "warnings": sum(warnings.values()),
        "warning_rules": dict(warnings.most_common()),
        "flagged": flagged,
    }


def main(argv: list[str] | None = None) -> int:
    """Command line: directories in, the figures out."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dirs", nargs="+", type=Path, help="directories of valid pw.x inputs")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--list", action="store_true", help="name each file with an error")
    args = ap.parse_args(argv)
    samples = [s for d in args.dirs for s in collect(d)]
    if not samples:
        print("no pw.x inputs found", file=sys.stderr)
        return 2
    result = measure(samples)
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"files: {result['files']}")
    print(f"error-level false alarms: {result['false_alarms']} ({result['false_alarm_percent']} %)")
    for rule, count in result["error_rules"].items():  # type: ignore[attr-defined]
        print(f"  {count:4d}  {rule}")
    for source, why in result["unreadable"].items():  # type: ignore[attr-defined]
        print(f"  unreadable: {source}: {why}")
    print(f"warnings: {result['warnings']}")
    for rule, count in result["warning_rules"].items():  # type: ignore[attr-defined]
        print(f"  {count:4d}  {rule}")
    if args.list:
        for source, messages in result["flagged"].items():  # type: ignore[attr-defined]
            print(f"{source}: " + "; ".join(messages))
    return 0


if __name__ == "__main__":
    sys.exit(main())
