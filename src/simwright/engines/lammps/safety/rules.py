"""The per-command rules of the LAMMPS safety policy, as pure functions of a command's words.

Each rule looks at one command after variable substitution (name first) and
yields ``(rule, message)`` pairs; :func:`steps_of` gives the MD steps (or
minimizer iterations) a command runs. File names are checked apart, in
:mod:`simwright.engines.lammps.safety.paths`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence

from simwright.engines.lammps.safety.paths import Problem
from simwright.engines.lammps.safety.variables import MAX_VARIANTS

RULES: Mapping[str, str] = {
    "syntax": "a command LAMMPS cannot split into words (an unmatched quote)",
    "forbidden-command": "a command that runs programs or code, or reaches the network",
    "forbidden-style": "a fix/pair/dump/compute style that runs code or external programs",
    "forbidden-variable": "a python or getenv variable",
    "variable-command": "a command whose name comes from a variable",
    "unknown-variable": "a variable with no value known before the run, used outside quotes",
    "too-many-variants": f"variables give a command more than {MAX_VARIANTS} texts",
    "path-absolute": "an absolute path outside the step directory",
    "path-escape": "a path using '..'",
    "path-home": "a path starting with '~'",
    "path-symlink": "a path leading through a symbolic link out of the step directory",
    "path-pipe": "a file name starting with '|', '>', '<' or '!'",
    "path-chars": "a file name with characters outside [A-Za-z0-9._+-/=,@%*:]",
    "compressed-file": "a compressed file, which LAMMPS pipes through a shell command",
    "source-written": "the script writes one of its own input scripts",
    "include-missing": "an include file that does not exist",
    "include-cycle": "an include file that includes itself",
    "run-every": "run ... every with commands to execute",
    "jump-file": "a jump to another file",
    "loop": "a jump SELF loop (refused unless loops are allowed)",
    "steps-unbounded": "a run length not known before the run, with a steps cap set",
    "lammps-error": "an ERROR of LAMMPS in the dry run",
    "dry-run-timeout": "the dry run did not finish in time",
    "dry-run-failed": "LAMMPS failed in the dry run without an ERROR line",
    "lammps-warning": "a WARNING of LAMMPS in the dry run (reported, not refused)",
    "steps-cap": "the MD steps of the script add up to more than the cap",
}
"""Every rule a finding can name, with what it refuses."""

_RUNS_PROGRAMS = "runs programs"
FORBIDDEN_COMMANDS: Mapping[str, str] = {
    "shell": f"{_RUNS_PROGRAMS} through the operating system",
    "python": "runs Python code",
    "mdi": "couples LAMMPS to external programs (MolSSI Driver Interface)",
    "plugin": "loads compiled code from a shared library",
    "geturl": "downloads files from the network",
    "kim": "queries the OpenKIM web service and loads external models",
    "kim_init": "loads external OpenKIM models",
    "kim_interactions": "loads external OpenKIM models",
    "kim_query": "queries the OpenKIM web service",
    "kim_param": "works on external OpenKIM models",
    "kim_property": "writes OpenKIM property files",
    "server": "serves an external program",
    "message": "opens a channel to an external program",
}
"""Commands refused outright, with the reason."""

FORBIDDEN_STYLES: Mapping[tuple[str, str], str] = {
    ("fix", "external"): "hands the run to external code through a callback",
    ("fix", "ipi"): "opens a network socket to an external driver (i-PI)",
    ("fix", "imd"): "opens a network socket for interactive MD",
    ("fix", "client/md"): "exchanges data with an external program",
    ("fix", "plumed"): "reads a PLUMED input, which can load libraries and write anywhere",
    ("fix", "colvars"): "reads a Colvars configuration whose files cannot be checked",
    ("pair_style", "kim"): "loads external OpenKIM models",
    ("dump", "movie"): f"{_RUNS_PROGRAMS}: it pipes frames into ffmpeg",
    ("write_dump", "movie"): f"{_RUNS_PROGRAMS}: it pipes frames into ffmpeg",
    ("dump", "image"): "renders images during the run (refused with dump movie)",
    ("write_dump", "image"): "renders images during the run (refused with dump movie)",
}
"""Styles refused, by command and style (accelerator suffixes ignored)."""

_CODE_STYLE = re.compile(r"(^|/)(python|mdi)($|/)")
_SUFFIX = re.compile(r"/(omp|gpu|opt|intel|kk|kk/host|kk/device)$")
STEP_WORDS: Mapping[str, tuple[int, ...]] = {
    "run": (1,),
    "minimize": (3,),
    "temper": (1,),
    "temper/npt": (1,),
    "temper/grem": (1,),
    "prd": (1,),
    "tad": (1,),
    "neb": (3, 4),
    "neb/spin": (3, 4),
}
_COUNT = re.compile(r"\+?\d+")


def command_rules(words: Sequence[str], *, allow_loops: bool) -> Iterator[Problem]:
    """Every rule but the file-name ones, on one command's words."""
    yield from _forbidden_command(words)
    yield from _forbidden_styles(words)
    yield from _forbidden_variable(words)
    yield from _flow_rules(words, allow_loops)


def steps_of(words: Sequence[str]) -> int | None:
    """MD steps (or minimizer iterations) a command runs; None when not a plain number."""
    indices = STEP_WORDS.get(words[0], ())
    total = 0
    for index in indices:
        if index >= len(words) or not _COUNT.fullmatch(words[index]):
            return None
        total += int(words[index])
    return total


def _forbidden_command(words: Sequence[str]) -> Iterator[Problem]:
    reason = FORBIDDEN_COMMANDS.get(words[0])
    if reason:
        yield "forbidden-command", f"command {words[0]!r} {reason} and is forbidden"


def _style_words(words: Sequence[str]) -> Sequence[str]:
    name = words[0]
    if name in ("fix", "compute", "dump"):
        return words[3:4]
    if name == "write_dump":
        return words[2:3]
    if name.endswith("_style"):
        return words[1:]
    return ()


def _forbidden_styles(words: Sequence[str]) -> Iterator[Problem]:
    name = words[0]
    for style in _style_words(words):
        base = _SUFFIX.sub("", style)
        reason = FORBIDDEN_STYLES.get((name, base))
        if _CODE_STYLE.search(style):
            reason = "runs Python code or couples to external programs"
        if reason:
            what = name if name.endswith("_style") else f"{name} style"
            yield "forbidden-style", f"{what} {style!r} {reason} and is forbidden"
    if "mliap" in words and any(w in ("mliappy", "unified") for w in words):
        yield "forbidden-style", "mliap with a Python model (mliappy/unified) runs Python code"


def _forbidden_variable(words: Sequence[str]) -> Iterator[Problem]:
    if words[0] != "variable" or len(words) < 3:
        return
    if words[2] == "python":
        yield "forbidden-variable", "variable style 'python' runs Python code"
    elif words[2] == "getenv":
        message = "variable style 'getenv' reads the environment (secrets; unknown value)"
        yield "forbidden-variable", message


def _flow_rules(words: Sequence[str], allow_loops: bool) -> Iterator[Problem]:
    if words[0] == "run" and "every" in words:
        start = list(words).index("every") + 2
        if any(w != "NULL" for w in words[start:]):
            yield "run-every", "run ... every executes commands during the run; write them out"
    if words[0] == "jump":
        target = words[1] if len(words) > 1 else ""
        if target != "SELF":
            yield "jump-file", f"jump to file {target!r} is refused; only jump SELF is allowed"
        elif not allow_loops:
            message = "jump SELF makes a loop whose MD steps cannot be bounded (see allow_loops)"
            yield "loop", message


def compresses_itself(words: Sequence[str]) -> bool:
    """Dump styles such as ``atom/gz`` compress with a library, not a shell command."""
    style = {"dump": words[3:4], "write_dump": words[2:3]}.get(words[0], [""])
    return bool(style) and style[0].endswith(("/gz", "/zstd"))
