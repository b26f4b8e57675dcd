"""Static safety checks of a LAMMPS input script, with no LAMMPS process.

The checks refuse what runs programs or code (``shell``, ``python``, ``mdi``,
``plugin``, Python and external-program styles...), what reaches the network,
file names that leave the step directory, commands whose name hides in a
variable, ``run ... every`` commands, jumps to other files and, unless allowed,
loops; and they add up the MD steps of ``run``/``minimize`` against a cap.
Every command is checked in each text its variables can give it
(:mod:`simwright.engines.lammps.safety.variables`). The rule names are listed in
:data:`~simwright.engines.lammps.safety.rules.RULES` and explained in ``docs/lammps-safety.md``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from simwright.engines.lammps.safety.paths import (
    Access,
    PathChecker,
    Problem,
    is_compressed,
    path_uses,
)
from simwright.engines.lammps.safety.rules import (
    RULES,
    STEP_WORDS,
    command_rules,
    compresses_itself,
    steps_of,
)
from simwright.engines.lammps.safety.script import (
    Command,
    ScriptSyntaxError,
    parse_source,
    split_words,
)
from simwright.engines.lammps.safety.variables import MAX_VARIANTS, VariableTable
from simwright.errors import ParseError
from simwright.store.records import EngineCall

MAX_INCLUDE_DEPTH = 16
"""Includes nested deeper than this are refused (as a cycle)."""

_WRITES_NOTHING = frozenset({"include", "variable", "label", "next", "jump", "if"})


@dataclass(frozen=True)
class Finding:
    """One problem of a script: where it is, which rule it breaks, and why."""

    line: int
    command: str
    rule: str
    message: str
    file: str

    def format(self) -> str:
        """``file:line: command: message [rule]``."""
        return f"{self.file}:{self.line}: {self.command or '-'}: {self.message} [{self.rule}]"


@dataclass(frozen=True)
class CheckReport:
    """The verdict on a script: ``ok`` when there are no findings.

    ``total_steps`` adds up the MD steps of every ``run`` and the iterations
    of every ``minimize`` whose length is known (a loop counted once);
    ``warnings`` holds LAMMPS warnings of the dry run; ``dry_run`` its record.
    """

    ok: bool
    findings: tuple[Finding, ...]
    total_steps: int
    warnings: tuple[Finding, ...] = ()
    dry_run: EngineCall | None = None

    def format(self) -> str:
        """One line per finding (then per warning), as ``file:line: command: message``."""
        lines = [f.format() for f in self.findings]
        lines += [f"{w.format()} (warning)" for w in self.warnings]
        return "\n".join(lines)


@dataclass(frozen=True)
class Policy:
    """What a script may do: its step directory, allowlisted potentials, caps."""

    workdir: Path
    potentials_dir: Path | None = None
    max_steps: int | None = None
    allow_loops: bool = False


@dataclass(frozen=True)
class SourceFile:
    """A script or include file: where it is, its name in findings, its text."""

    path: Path
    name: str
    text: str


@dataclass(frozen=True)
class ScriptAnalysis:
    """A script read and checked: its files, commands, the inputs it reads, the report."""

    sources: tuple[SourceFile, ...]
    commands: tuple[Command, ...]
    inputs: tuple[Path, ...]
    report: CheckReport


def analyze_script(
    script: Path, policy: Policy, *, variables: Mapping[str, str] | None = None
) -> ScriptAnalysis:
    """Read ``script`` (with its includes) and run every static check on it.

    ``variables`` are those given to LAMMPS with ``-var``. Raises
    :class:`~simwright.errors.ParseError` when ``script`` cannot be read.
    """
    paths = PathChecker(policy.workdir, policy.potentials_dir)
    table = VariableTable(variables)
    loader = _Loader(paths, table)
    main = script.absolute()
    commands = loader.load(main, _display_name(main, paths), ())
    checker = _Checker(policy, paths, table)
    for cmd in commands:
        checker.check_top(cmd, loader.problems.get((cmd.file, cmd.line), []))
    checker.check_sources_written({s.path.resolve() for s in loader.sources})
    findings = tuple(checker.findings)
    report = CheckReport(ok=not findings, findings=findings, total_steps=checker.total)
    inputs = sorted(checker.inputs - {Path(s.name) for s in loader.sources})
    return ScriptAnalysis(tuple(loader.sources), tuple(commands), tuple(inputs), report)


def _display_name(path: Path, paths: PathChecker) -> str:
    resolved = path.resolve()
    if resolved.is_relative_to(paths.root):
        return resolved.relative_to(paths.root).as_posix()
    return path.name


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="surrogateescape")
    except OSError as exc:
        raise ParseError(f"cannot read LAMMPS script {path}: {exc.strerror}") from exc


class _Loader:
    """Reads a script and, recursively, the files it includes, in execution order."""

    def __init__(self, paths: PathChecker, table: VariableTable) -> None:
        self.paths = paths
        self.table = table
        self.sources: list[SourceFile] = []
        self.problems: dict[tuple[str, int], list[Finding]] = {}

    def load(self, path: Path, name: str, chain: tuple[Path, ...]) -> list[Command]:
        text = _read(path)
        if name not in {s.name for s in self.sources}:
            self.sources.append(SourceFile(path, name, text))
        chain = (*chain, path.resolve())
        commands: list[Command] = []
        for cmd in parse_source(text, name):
            commands.append(cmd)
            for sub in cmd.walk():
                if sub.name == "variable":
                    self.table.define(sub.texts()[1:])
                elif sub.name == "include" and len(sub.words) > 1:
                    commands += self._include(sub, chain)
        return commands

    def _include(self, cmd: Command, chain: tuple[Path, ...]) -> list[Command]:
        commands: list[Command] = []
        for target in self.table.expand(cmd.words[1].text).variants:
            if self.paths.check(target, Access.ANY):
                continue  # reported by the path rules
            resolved = self.paths.resolve(target)
            problem = self._include_problem(target, resolved, chain)
            if problem or resolved is None:
                self._note(cmd, *(problem or ("include-missing", f"no include file {target!r}")))
                continue
            commands += self.load(resolved, str(self.paths.relative(target)), chain)
        return commands

    @staticmethod
    def _include_problem(
        target: str, resolved: Path | None, chain: tuple[Path, ...]
    ) -> tuple[str, str] | None:
        if resolved is None or not resolved.is_file():
            return ("include-missing", f"include file {target!r} does not exist")
        if resolved in chain or len(chain) >= MAX_INCLUDE_DEPTH:
            return ("include-cycle", f"include file {target!r} includes itself")
        return None

    def _note(self, cmd: Command, rule: str, message: str) -> None:
        finding = Finding(cmd.line, cmd.name, rule, message, cmd.file)
        self.problems.setdefault((cmd.file, cmd.line), []).append(finding)


@dataclass
class _Outcome:
    steps: int | None = 0
    problems: list[tuple[Command, str, str]] = field(default_factory=list)


class _Checker:
    """Runs the rules on each command and adds up the steps."""

    def __init__(self, policy: Policy, paths: PathChecker, table: VariableTable) -> None:
        self.policy = policy
        self.paths = paths
        self.table = table
        self.findings: list[Finding] = []
        self.total = 0
        self.inputs: set[Path] = set()
        self.writes: list[tuple[Command, str, Path]] = []
        self._capped = False

    def check_top(self, cmd: Command, extra: Sequence[Finding]) -> None:
        outcome = self.check(cmd)
        for where, rule, message in outcome.problems:
            self._add(Finding(where.line, where.name, rule, message, where.file))
        for finding in extra:
            self._add(finding)
        self._count(cmd, outcome.steps)

    def check_sources_written(self, sources: set[Path]) -> None:
        for cmd, name, resolved in self.writes:
            if resolved in sources:
                message = f"{name!r} is an input script of this run and must not be written"
                self._add(Finding(cmd.line, cmd.name, "source-written", message, cmd.file))

    def _add(self, finding: Finding) -> None:
        if finding not in self.findings:
            self.findings.append(finding)

    def _count(self, cmd: Command, steps: int | None) -> None:
        cap = self.policy.max_steps
        if steps is None:
            if cap is not None:
                message = "its number of MD steps is not known before the run (a steps cap is set)"
                self._add(Finding(cmd.line, cmd.name, "steps-unbounded", message, cmd.file))
            return
        self.total += steps
        if cap is not None and self.total > cap and not self._capped:
            self._capped = True
            message = f"MD steps add up to {self.total} here, over the cap of {cap}"
            self._add(Finding(cmd.line, cmd.name, "steps-cap", message, cmd.file))

    def check(self, cmd: Command) -> _Outcome:
        """All problems of ``cmd`` and the commands it runs, and its MD steps."""
        if cmd.error:
            return _Outcome(0, [(cmd, "syntax", cmd.error)])
        if "$" in cmd.name:
            message = f"command name {cmd.name!r} comes from a variable and cannot be checked"
            return _Outcome(0, [(cmd, "variable-command", message)])
        outcome = self._check_own(cmd)
        branch = self._check_branches(cmd, outcome)
        if outcome.steps is not None:
            outcome.steps = None if branch is None else outcome.steps + branch
        return outcome

    def _check_branches(self, cmd: Command, outcome: _Outcome) -> int | None:
        """Check the commands ``cmd`` runs; the steps of its longest branch."""
        most: int | None = 0
        for branch in cmd.branches:
            steps: int | None = 0
            for child in branch:
                inner = self.check(child)
                outcome.problems += inner.problems
                steps = None if steps is None or inner.steps is None else steps + inner.steps
            most = None if most is None or steps is None else max(most, steps)
        return most

    def _check_own(self, cmd: Command) -> _Outcome:
        expansion = self.table.expand(cmd.text)
        outcome = _Outcome()
        for name in expansion.unknown:
            message = f"variable {name!r} has no value known before the run"
            outcome.problems.append((cmd, "unknown-variable", message))
        if expansion.truncated:
            message = f"its variables give it more than {MAX_VARIANTS} texts"
            outcome.problems.append((cmd, "too-many-variants", message))
        counts: list[int | None] = []
        for variant in expansion.variants:
            try:
                words = [w.text for w in split_words(variant)]
            except ScriptSyntaxError as exc:
                outcome.problems.append((cmd, "syntax", f"after substitution: {exc}"))
                continue
            if words:
                outcome.problems += [(cmd, r, m) for r, m in self._rules(cmd, words)]
                counts.append(steps_of(words))
        outcome.steps = _combine_counts(counts, cmd, expansion.exact)
        return outcome

    def _rules(self, cmd: Command, words: Sequence[str]) -> Iterator[Problem]:
        yield from command_rules(words, allow_loops=self.policy.allow_loops)
        yield from self._path_rules(cmd, words)

    def _path_rules(self, cmd: Command, words: Sequence[str]) -> Iterator[Problem]:
        uses = {use.index: use.access for use in path_uses(words)}
        for index, word in enumerate(words[1:], start=1):
            access = uses.get(index)
            checked = access is not None or words[0] != "variable"  # values: where used
            if access is not None:
                yield from self.paths.check(word, access)
            elif checked:
                yield from self.paths.check_word(word)
            if checked and is_compressed(word) and not compresses_itself(words):
                yield "compressed-file", f"{word!r}: {RULES['compressed-file']}"
            self._note_file(cmd, word, access)

    def _note_file(self, cmd: Command, word: str, access: Access | None) -> None:
        """Remember files the command may read (for the dry run) or write."""
        self.inputs.update(Path(p) for p in self.paths.inputs(word, access))
        if access is not Access.READ and cmd.name not in _WRITES_NOTHING:
            resolved = self.paths.resolve(word)
            if resolved is not None:
                self.writes.append((cmd, word, resolved))


def _combine_counts(counts: Sequence[int | None], cmd: Command, exact: bool) -> int | None:
    if not counts:
        return 0
    if any(c is None for c in counts):
        return None
    indices = STEP_WORDS.get(cmd.name, ())
    if not exact and any("$" in w.text for w in cmd.words[: max(indices, default=0) + 1]):
        return None
    return max(c for c in counts if c is not None)
