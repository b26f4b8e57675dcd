"""Reading LAMMPS input scripts the way LAMMPS itself reads them.

LAMMPS joins a line ending in ``&`` with the next one *before* it removes
comments and with nothing in between (``pri&`` + ``nt x`` is ``print x``; a
comment ending in ``&`` swallows the next line), keeps reading while a triple
quote is open, cuts a ``#`` comment wherever it is not inside quotes (even in the
middle of a word) and splits the rest into words, a word that starts with a
quote running to the matching quote. This module mirrors those rules so that the
policy checks see the commands LAMMPS will see, each with the number of the
physical line it starts on.

Variables (``${name}``, ``$x``, ``$(expr)``) are kept as text in
:class:`Command`; :mod:`simwright.engines.lammps.safety.variables` knows what the script (and the
command line) assigns to them and expands a command into every text it can
take, so that no check can be dodged by hiding a word in a variable.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from simwright.errors import ParseError

WHITESPACE = " \t\n\v\f\r"
"""The characters LAMMPS treats as blanks between words."""

_TRIPLE = '"""'


class ScriptSyntaxError(ParseError):
    """A command LAMMPS would refuse to split into words (an unmatched quote)."""


@dataclass(frozen=True)
class Word:
    """One word of a command: its text without quotes, and the quote it had."""

    text: str
    quote: str = ""

    def source(self) -> str:
        """The word written back as LAMMPS input, quoted as it was."""
        if not self.quote:
            return self.text
        quote = self.quote
        if quote in self.text:
            quote = next((q for q in ('"', "'", _TRIPLE) if q not in self.text), _TRIPLE)
        return f"{quote}{self.text}{quote}"


@dataclass(frozen=True)
class LogicalLine:
    """A command's text with its continuation lines joined (comments still in)."""

    first: int
    last: int
    text: str


@dataclass(frozen=True)
class Command:
    """One command of a script, with the file and physical line it starts on.

    ``text`` is the logical line without its comment; ``words`` its words with
    variables unexpanded; ``error`` says why it could not be split into words.
    ``branches`` holds the commands it runs itself (``if`` branches, the
    command of ``partition``, the commands of ``run ... every``), each branch
    with ``origin``, the index of the word it came from in this command.
    """

    file: str
    line: int
    last_line: int
    text: str
    words: tuple[Word, ...]
    error: str = ""
    origin: int = -1
    branches: tuple[tuple[Command, ...], ...] = field(default=(), compare=False)

    @property
    def name(self) -> str:
        """The command's first word (``fix``, ``run``...); empty for a broken command."""
        return self.words[0].text if self.words else ""

    def texts(self) -> list[str]:
        """The words' texts."""
        return [w.text for w in self.words]

    def walk(self) -> Iterable[Command]:
        """This command and, depth first, every command it runs itself."""
        yield self
        for branch in self.branches:
            for child in branch:
                yield from child.walk()


def logical_lines(source: str) -> list[LogicalLine]:
    """Split ``source`` into logical lines as LAMMPS reads them."""
    physical = source.split("\n")
    if physical and physical[-1] == "":
        physical.pop()
    lines: list[LogicalLine] = []
    i = 0
    while i < len(physical):
        first, text = i + 1, physical[i]
        i += 1
        while i < len(physical):
            stripped = text.rstrip(WHITESPACE)
            if stripped.endswith("&"):
                text = stripped[:-1] + physical[i]
            elif text.count(_TRIPLE) % 2 == 1:
                text = text + "\n" + physical[i]
            else:
                break
            i += 1
        stripped = text.rstrip(WHITESPACE)
        if stripped.endswith("&"):
            text = stripped[:-1]
        lines.append(LogicalLine(first, i, text))
    return lines


def _quote_at(text: str, i: int) -> str:
    if text.startswith(_TRIPLE, i):
        return _TRIPLE
    return text[i] if text[i] in "'\"" else ""


def quoted_spans(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of every quoted stretch of ``text``, quotes included.

    As in LAMMPS, any quote character opens a stretch, even inside a word; an
    unclosed one runs to the end.
    """
    spans: list[tuple[int, int]] = []
    i = 0
    while i < len(text):
        quote = _quote_at(text, i)
        if not quote:
            i += 1
            continue
        end = text.find(quote, i + len(quote))
        stop = len(text) if end < 0 else end + len(quote)
        spans.append((i, stop))
        i = stop
    return spans


def strip_comment(text: str) -> str:
    """``text`` without its ``#`` comment (a ``#`` inside quotes is kept)."""
    i = 0
    for start, stop in quoted_spans(text):
        hash_at = text.find("#", i, start)
        if hash_at >= 0:
            return text[:hash_at]
        i = stop
    hash_at = text.find("#", i)
    return text if hash_at < 0 else text[:hash_at]


def split_words(text: str) -> tuple[Word, ...]:
    """Split a comment-free command into words as LAMMPS does.

    Raises :class:`ScriptSyntaxError` for an unmatched quote or a closing
    quote not followed by a blank.
    """
    words: list[Word] = []
    i, n = 0, len(text)
    while True:
        while i < n and text[i] in WHITESPACE:
            i += 1
        if i >= n:
            return tuple(words)
        quote = _quote_at(text, i)
        if quote:
            end = text.find(quote, i + len(quote))
            if end < 0:
                raise ScriptSyntaxError(f"unmatched quote {quote} in {text.strip()!r}")
            stop = end + len(quote)
            if stop < n and text[stop] not in WHITESPACE:
                raise ScriptSyntaxError(f"closing quote not followed by a blank in {text!r}")
            words.append(Word(text[i + len(quote) : end], quote))
            i = stop
        else:
            start = i
            while i < n and text[i] not in WHITESPACE:
                i += 1
            words.append(Word(text[start:i]))


def make_command(file: str, first: int, last: int, text: str, origin: int = -1) -> Command:
    """Build the :class:`Command` of one comment-free command text."""
    try:
        words = split_words(text)
    except ScriptSyntaxError as exc:
        return Command(file, first, last, text, (), str(exc), origin)
    probe = Command(file, first, last, text, words, origin=origin)
    branches = tuple(
        tuple(make_command(file, first, last, strip_comment(words[i].text), i) for i in branch)
        for branch in branch_word_indices(probe)
    )
    branches = _partition_branch(probe, branches)
    return Command(file, first, last, text, words, origin=origin, branches=branches)


def _partition_branch(
    cmd: Command, branches: tuple[tuple[Command, ...], ...]
) -> tuple[tuple[Command, ...], ...]:
    """``partition yes|no N command...``: the command is words 3 onwards."""
    if cmd.name != "partition" or len(cmd.words) < 4:
        return branches
    inner = " ".join(w.source() for w in cmd.words[3:])
    return ((make_command(cmd.file, cmd.line, cmd.last_line, inner, 3),),)


def branch_word_indices(cmd: Command) -> list[list[int]]:
    """Indices of the words of ``cmd`` that are commands it runs, per branch.

    ``if c then a b elif c2 d else e`` gives ``[[3, 4], [7], [9]]``;
    ``run N every M c1 c2`` gives ``[[4, 5]]`` (``NULL`` words left out).
    """
    texts = cmd.texts()
    if cmd.name == "if":
        return _if_branches(texts)
    if cmd.name == "run" and "every" in texts:
        start = texts.index("every") + 2
        return [[i for i in range(start, len(texts)) if texts[i] != "NULL"]]
    return []


def _if_branches(texts: Sequence[str]) -> list[list[int]]:
    branches: list[list[int]] = []
    i = 2
    while i < len(texts):
        if texts[i] in ("then", "else"):
            branches.append([])
        elif texts[i] == "elif":
            branches.append([])
            i += 1
        elif branches:
            branches[-1].append(i)
        i += 1
    return [b for b in branches if b]


def parse_source(source: str, file: str) -> list[Command]:
    """All commands of one script text; blank and comment lines give none."""
    commands = []
    for line in logical_lines(source):
        text = strip_comment(line.text)
        if text.strip(WHITESPACE):
            commands.append(make_command(file, line.first, line.last, text))
    return commands


def normalize(text: str) -> str:
    """A command text without comment and with single blanks, for matching."""
    return " ".join(strip_comment(text).split())
