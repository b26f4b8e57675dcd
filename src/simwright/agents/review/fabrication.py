"""The fabrication guard: a number in a model's report must trace to a named quantity
of the artifact it cites, within the precision written.

A reported value names its artifact *and* the quantity in it (``source`` +
``quantity``: a table column or attribute, a structure property, a JSON key; see
:mod:`.quantities`). The value matches when it lies within the larger of
``rtol·|q|`` and half a unit of the last digit written: ``2.49`` matches 2.4873,
``2.4`` does not. Numbers in the answer's free text must be one of the answer's
traced values (at the precision written; a value whose unit carries a power of
ten, ``1e-5 cm^2/s``, may be written with it: ``6.79×10⁻⁵``), a number of the
request or of a protocol subtask's validated parameters, or a literature value
marked as such: the number followed by ``[ref:KEY]``, where ``KEY`` names an entry
of the answer's ``references`` holding that number and its citation. No other
number of the run counts — a number that merely occurs in some file (an MSD
curve, a coordinate) is not a result. Deterministic: a report that fails is
rejected, whoever wrote it.

Numbers in free text are read as whitespace- and punctuation-separated tokens;
``2.3×10^-9``, ``2.3e-9`` and ``2.3 x 10⁻⁹`` are one number. Not numbers: words with
a digit after a letter (``H2O``, ``Cu3Au``), paths and units with ``/``, run ids,
`code spans` and the markers themselves.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from simwright.agents.replies import LiteratureValue, OutputValue, ReportedValue
from simwright.agents.review.quantities import named_quantities, quantity_value

_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
_SCI = re.compile(
    r"(?<![\w.])([-+−]?\d+(?:\.\d+)?)\s*[×x*·]\s*10\s*\^?\s*"
    r"(?:\(\s*([-+−]?\d+)\s*\)|([-+−]?\d+))"
)
_NUMBER = re.compile(r"^([-+−]?\d+(?:\.\d+)?(?:[eE][-+−]?\d+)?)([^\d]*)$")
_HIDDEN = re.compile(r"`[^`]*`|\S*/\S*|\b\d{8}-\d{6}-[0-9a-f]{6}\b")
_TOKEN = re.compile(r"[^\s=<>≈~±,;()\[\]{}|]+")
_RANGE = re.compile(r"(?<=\d)[–—-](?=\d)")
REF_MARKER = re.compile(r"\[ref:([A-Za-z][A-Za-z0-9_-]{0,39})\]")
"""The inline marker of a literature value: ``2.49×10⁻⁵ cm²/s [ref:mark2001]``."""
_UNIT_SCALE = re.compile(r"^\s*(?:1e|10\^?)([-+−]?\d+)\b")
MARKER_REACH = 40
"""The most characters (a unit) allowed between a number and its ``[ref:KEY]`` marker."""


@dataclass(frozen=True)
class Written:
    """A number as written in text: its text, value, rounding and place in the text."""

    text: str
    value: float
    rounding: float
    start: int = 0
    end: int = 0


def _rounding(mantissa: str, exponent: int = 0) -> float:
    digits = mantissa.split(".", 1)[1] if "." in mantissa else ""
    exp = re.search(r"[eE]([-+−]?\d+)", mantissa)
    if exp:
        exponent += int(exp.group(1).replace("−", "-"))
        digits = digits.split("e")[0].split("E")[0]
    return 0.5 * 10.0 ** (exponent - len(digits))


def precision(value: float) -> float:
    """Half a unit of the last digit of ``value`` as Python writes it (``2.49`` -> 0.005)."""
    return _rounding(repr(float(value))) if math.isfinite(value) else 0.0


def _blank(match: re.Match[str]) -> str:
    return " " * len(match.group(0))


def _parse(token: str, start: int) -> Written | None:
    match = _NUMBER.match(token)
    if not match:
        return None
    raw = match.group(1).replace("−", "-")
    try:
        value = float(raw)
    except ValueError:
        return None
    return Written(token, value, _rounding(raw), start, start + len(token))


def numbers_in_text(text: str) -> list[Written]:
    """The numbers written in ``text``, in order (see the module docstring for what counts)."""
    text = REF_MARKER.sub(_blank, _HIDDEN.sub(_blank, text.translate(_SUPERSCRIPT)))
    found: list[Written] = []

    def _sci(m: re.Match[str]) -> str:
        mantissa = m.group(1).replace("−", "-")
        exponent = int((m.group(2) or m.group(3)).replace("−", "-"))
        value = float(mantissa) * 10.0**exponent
        found.append(Written(m.group(0), value, _rounding(mantissa, exponent), m.start(), m.end()))
        return " " * len(m.group(0))

    text = _RANGE.sub(" ", _SCI.sub(_sci, text))
    for m in _TOKEN.finditer(text):
        token = m.group(0)
        stripped = token.strip(".:!?'\"")
        if not stripped or not any(c.isdigit() for c in stripped) or stripped[0].isalpha():
            continue  # words and identifiers: H2O, Cu3Au, B0, step2
        written = _parse(stripped, m.start() + token.index(stripped))
        if written is not None:
            found.append(written)
    return sorted(found, key=lambda w: w.start)


def within(x: float, target: float, rtol: float, rounding: float = 0.0) -> bool:
    """Whether ``x`` lies within ``max(rtol·|target|, rounding)`` of ``target``."""
    if not (math.isfinite(x) and math.isfinite(target)):
        return False
    return abs(x - target) <= max(rtol * abs(target), rounding, 1e-300)


def unit_scale(unit: str) -> float:
    """The power of ten a unit starts with (``1e-5 cm^2/s`` -> 1e-5; otherwise 1)."""
    match = _UNIT_SCALE.match(unit)
    return 10.0 ** int(match.group(1).replace("−", "-")) if match else 1.0


# -- artifacts --------------------------------------------------------------------------
TRACEABLE_SUFFIXES = (".h5", ".hdf5", ".extxyz", ".xyz", ".json")
NOT_ARTIFACTS = frozenset({"transcript.json"})
"""Files holding what models wrote (their conversations): never a source of truth."""


def is_traceable(path: Path) -> bool:
    """Whether ``path`` is a contract file the guard may trace values to."""
    return path.suffix.lower() in TRACEABLE_SUFFIXES and path.name not in NOT_ARTIFACTS


def resolve_source(source: str, root: Path, allowed: Sequence[Path]) -> Path | None:
    """``root/source`` if it exists inside one of the ``allowed`` folders, else None."""
    path = (root / source).resolve()
    if not path.is_file() or not is_traceable(path):
        return None
    for folder in allowed:
        if path.is_relative_to(folder.resolve()):
            return path
    return None


@dataclass(frozen=True)
class Trace:
    """The outcome of tracing one value: the quantity it matched, or why it did not."""

    quantity: str = ""
    value: float = math.nan
    problem: str | None = None


def trace_value(
    name: str,
    value: float,
    source: str,
    quantity: str,
    *,
    root: Path,
    allowed: Sequence[Path],
    rtol: float,
) -> Trace:
    """Trace ``value`` to the quantity ``quantity`` of ``source`` (an empty quantity: the
    named quantity of ``source`` that matches, if exactly one value fits)."""
    path = resolve_source(source, root, allowed)
    if path is None:
        return Trace(problem=f"{name} = {value:g}: its source {source!r} is not an artifact")
    tol = precision(value)
    if quantity:
        q = quantity_value(path, quantity)
        if q is None:
            names = ", ".join(list(named_quantities(path))[:20])
            return Trace(problem=f"{name}: {source} has no quantity {quantity!r} (it has: {names})")
        if not within(value, q, rtol, tol):
            return Trace(problem=f"{name} = {value!r}: {source} {quantity} is {q:.6g}")
        return Trace(quantity, q)
    for key, q in named_quantities(path).items():
        if within(value, q, rtol, tol):
            return Trace(key, q)
    return Trace(problem=f"{name} = {value!r}: no named quantity of {source} has this value")


def check_outputs(
    outputs: Mapping[str, OutputValue], workdir: Path, rtol: float
) -> tuple[list[str], dict[str, OutputValue]]:
    """Problems of an executor's outputs, and the outputs with the quantity each traced to."""
    problems: list[str] = []
    traced: dict[str, OutputValue] = {}
    for name, out in outputs.items():
        t = trace_value(
            name, out.value, out.source, out.quantity, root=workdir, allowed=[workdir], rtol=rtol
        )
        if t.problem:
            problems.append(t.problem)
        else:
            traced[name] = out.model_copy(update={"quantity": t.quantity})
    return problems, traced


# -- the final answer --------------------------------------------------------------------
def _markers(text: str) -> list[tuple[int, str]]:
    return [(m.start(), m.group(1)) for m in REF_MARKER.finditer(text.translate(_SUPERSCRIPT))]


def _marked(numbers: list[Written], text: str) -> dict[int, str]:
    """Which numbers (by index) a ``[ref:KEY]`` marker right after them marks."""
    out: dict[int, str] = {}
    for pos, key in _markers(text):
        before = [i for i, w in enumerate(numbers) if w.end <= pos]
        if before and pos - numbers[before[-1]].end <= MARKER_REACH:
            out[before[-1]] = key
    return out


def _matches(w: Written, value: float, unit: str, rtol: float) -> bool:
    scale = unit_scale(unit)
    return within(w.value, value, rtol, w.rounding) or (
        scale != 1.0 and within(w.value, value * scale, rtol, w.rounding)
    )


def check_report(
    summary: str,
    values: Sequence[ReportedValue],
    *,
    root: Path,
    allowed: Sequence[Path],
    references: Sequence[LiteratureValue] = (),
    known: Iterable[float] = (),
    rtol: float = 1e-3,
) -> list[str]:
    """Problems of a final answer (empty: it passes; see the module docstring)."""
    problems: list[str] = []
    results: list[tuple[float, str]] = []
    for v in values:
        t = trace_value(
            v.name, v.value, v.source, v.quantity, root=root, allowed=allowed, rtol=rtol
        )
        if t.problem:
            problems.append(t.problem)
        else:
            results.append((t.value, v.unit))
    refs = {r.key: r for r in references}
    if len(refs) != len(references):
        problems.append("two references share a key")
    inputs = [(k, "") for k in known]
    numbers = numbers_in_text(summary)
    marked = _marked(numbers, summary)
    for _pos, key in _markers(summary):
        if key not in refs:
            problems.append(f"the marker [ref:{key}] names no entry of references")
    for i, w in enumerate(numbers):
        mark = marked.get(i)
        if mark is not None:
            ref = refs.get(mark)
            if ref is not None and not _matches(w, ref.value, ref.unit, rtol):
                problems.append(
                    f"{w.text!r} is marked [ref:{mark}] but that reference holds {ref.value:g}"
                )
        elif not any(_matches(w, x, unit, rtol) for x, unit in [*results, *inputs]):
            problems.append(
                f"the number {w.text!r} in the summary is none of the reported values traced "
                "to an artifact (a literature value must be marked [ref:KEY])"
            )
    return problems
