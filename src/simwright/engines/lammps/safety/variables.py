"""LAMMPS variables as a static checker sees them.

A LAMMPS command may hide any word in a variable: ``${cmd}``, ``dump ... ${f}``.
:class:`VariableTable` collects what every definition in a script (and
``-var`` on the command line) assigns to each variable and expands a command
into every text it can take, so that the policy checks run on each of them.
Numbers from formulas known only at run time are replaced by a stand-in, and
the expansion says so (``exact`` is false); values read at run time
(``getenv``, ``file``, ``atomfile``, ``python``) are unknown.
"""

from __future__ import annotations

import ast
import itertools
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from simwright.engines.lammps.safety.script import quoted_spans

MAX_VARIANTS = 256
"""At most this many expansions of one command are checked; more is refused."""

_MAX_DEPTH = 4


@dataclass(frozen=True)
class Reference:
    """A variable reference in a text: ``${name}``, ``$x`` or ``$(formula)``."""

    start: int
    end: int
    name: str
    immediate: bool
    quoted: bool


def find_references(text: str) -> list[Reference]:
    """Every variable reference in ``text``, noting whether it sits inside quotes."""
    spans = quoted_spans(text)
    refs: list[Reference] = []
    i = text.find("$")
    while 0 <= i < len(text) - 1:
        end, name, immediate = _reference_at(text, i)
        quoted = any(a < i < b for a, b in spans)
        refs.append(Reference(i, end, name, immediate, quoted))
        i = text.find("$", end)
    return refs


def _reference_at(text: str, i: int) -> tuple[int, str, bool]:
    nxt = text[i + 1]
    if nxt == "{":
        close = text.find("}", i + 2)
        stop = len(text) if close < 0 else close + 1
        return stop, text[i + 2 : stop - 1 if close >= 0 else stop], False
    if nxt == "(":
        depth = 0
        for j in range(i + 1, len(text)):
            depth += {"(": 1, ")": -1}.get(text[j], 0)
            if depth == 0:
                return j + 1, text[i + 2 : j], True
        return len(text), text[i + 2 :], True
    return i + 2, nxt, False


@dataclass
class _Values:
    texts: set[str] = field(default_factory=set)
    exact: bool = True
    unknown: bool = False


@dataclass(frozen=True)
class Expansion:
    """The texts a command can take once its variables are substituted.

    ``exact`` is false when a numeric value was replaced by a stand-in (a
    formula not known before the run); ``unknown`` names variables with no
    known value used outside quotes; ``truncated`` says there were more than
    :data:`MAX_VARIANTS` texts.
    """

    variants: tuple[str, ...]
    exact: bool = True
    unknown: tuple[str, ...] = ()
    truncated: bool = False


_NUMERIC_STANDIN = "1"
_INEXACT_STYLES = {"loop", "uloop", "vector", "atom", "format", "timer"}
_LIST_STYLES = {"index", "world", "universe"}
_FORMULA_STYLES = {"equal", "internal"}


class VariableTable:
    """What each variable of a script may hold, gathered from all its definitions.

    The table is deliberately generous: every value any definition gives is
    kept, so a check over all expansions covers whatever value the variable has
    when the command runs. Values read at run time (``getenv``, ``file``,
    ``atomfile``, ``python``) are unknown.
    """

    def __init__(self, given: Mapping[str, str] | None = None) -> None:
        self._vars: dict[str, _Values] = {}
        for name, value in (given or {}).items():
            self._vars[name] = _Values({value})

    def define(self, words: Sequence[str]) -> None:
        """Record ``variable NAME STYLE args...`` (``words`` without ``variable``)."""
        if len(words) < 2 or "$" in words[0] or words[1] == "delete":
            return
        values = self._vars.setdefault(words[0], _Values())
        style, args = words[1], list(words[2:])
        if style in _LIST_STYLES:
            values.texts.update(args)
        elif style == "string":
            values.texts.update(args[:1])
        elif style in _FORMULA_STYLES:
            number = self.evaluate(" ".join(args)) if args else None
            values.texts.add(_NUMERIC_STANDIN if number is None else format_number(number))
            values.exact = values.exact and number is not None
        elif style in _INEXACT_STYLES:
            values.texts.add(_NUMERIC_STANDIN)
            values.exact = False
        else:
            values.unknown = True

    def evaluate(self, formula: str) -> float | None:
        """The value of a formula made of numbers, ``v_name`` and ``+-*/^%()``; else None."""
        if "$" in formula:
            expansion = self.expand(formula)
            if not expansion.exact or len(expansion.variants) != 1:
                return None
            formula = expansion.variants[0]
        missing = False

        def constant(match: re.Match[str]) -> str:
            nonlocal missing
            values = self._vars.get(match.group(1))
            if values is None or values.unknown or not values.exact or len(values.texts) != 1:
                missing = True
                return "0"
            return f"({next(iter(values.texts))})"

        text = re.sub(r"\bv_(\w+)", constant, formula.strip().strip("\"'"))
        return None if missing else evaluate_arithmetic(text)

    def expand(self, text: str, depth: int = 0) -> Expansion:
        """Every text ``text`` can become when its variables are substituted."""
        refs = find_references(text)
        if not refs:
            return Expansion((text,))
        choices: list[list[str]] = []
        exact, unknown = True, []
        for ref in refs:
            options, ref_exact, ref_unknown = self._options(text, ref)
            choices.append(options)
            exact = exact and ref_exact
            if ref_unknown and not ref.quoted:
                unknown.append(ref.name)
        return self._assemble(text, refs, choices, Expansion((), exact, tuple(unknown)), depth)

    def _options(self, text: str, ref: Reference) -> tuple[list[str], bool, bool]:
        literal = text[ref.start : ref.end]
        if ref.immediate:
            number = self.evaluate(ref.name.rsplit(":", 1)[0])
            return (
                [_NUMERIC_STANDIN if number is None else format_number(number)],
                (number is not None),
                False,
            )
        values = self._vars.get(ref.name)
        if values is None or values.unknown:
            return [literal], False, True
        return sorted(values.texts) or [""], values.exact, False

    def _assemble(
        self,
        text: str,
        refs: Sequence[Reference],
        choices: Sequence[Sequence[str]],
        base: Expansion,
        depth: int,
    ) -> Expansion:
        variants: list[str] = []
        exact, unknown, truncated = base.exact, list(base.unknown), False
        for combo in itertools.product(*choices):
            pieces, at = [], 0
            for ref, value in zip(refs, combo, strict=True):
                pieces += [text[at : ref.start], value]
                at = ref.end
            variant = "".join([*pieces, text[at:]])
            inner = self._expand_again(variant, combo, depth)
            exact, truncated = exact and inner.exact, truncated or inner.truncated
            unknown += [u for u in inner.unknown if u not in unknown]
            variants += [v for v in inner.variants if v not in variants]
            if len(variants) > MAX_VARIANTS:
                return Expansion(tuple(variants[:MAX_VARIANTS]), exact, tuple(unknown), True)
        return Expansion(tuple(variants), exact, tuple(unknown), truncated)

    def _expand_again(self, variant: str, combo: Sequence[str], depth: int) -> Expansion:
        """Values may themselves hold references (a quoted ``"${a}/x"`` definition)."""
        if depth >= _MAX_DEPTH or not any("$" in value for value in combo):
            return Expansion((variant,))
        return self.expand(variant, depth + 1)


def format_number(value: float) -> str:
    """A number as LAMMPS substitutes an equal-style value (``%.15g``)."""
    return f"{value:.15g}"


_BINARY = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b,
    ast.Mod: lambda a, b: math.fmod(a, b),
    ast.Pow: lambda a, b: a**b if abs(b) <= 64 else math.nan,
}


def evaluate_arithmetic(text: str) -> float | None:
    """Evaluate plain arithmetic (numbers, ``+ - * / % ^``, parentheses); else None.

    Nothing is executed: the text is parsed and only number and operator nodes
    are accepted.
    """
    try:
        tree = ast.parse(text.replace("^", "**"), mode="eval")
        value = _arith(tree.body)
    except (SyntaxError, ValueError, ZeroDivisionError, OverflowError, TypeError):
        return None
    return None if math.isnan(value) or math.isinf(value) else value


def _arith(node: ast.expr) -> float:
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
        return float(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        value = _arith(node.operand)
        return -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        return float(_BINARY[type(node.op)](_arith(node.left), _arith(node.right)))
    raise ValueError("not plain arithmetic")
