"""Values of a module's parameters read from a request, deterministically.

What is looked for follows from each parameter's schema:

- float/int with a unit: a number with a unit of the same dimension (pint), placed by
  :mod:`~simwright.knowledge.planner.assignment`; a bare number next to its cue is refused
  for want of a unit;
- int with ``count_nouns``: "216 water molecules", "500 atoms";
- float/int/list without a unit but with ``cues``: "seed 7", "R² 0.95", "RH 0.9 -> 0.3";
- choice, bool and list with choices: their phrases ("fcc", "SPC/E", "EC/DMC");
- element or formula: symbols, names and formulas (``Cu``, ``copper``, ``NaCl``).

Nothing found is dropped silently: a quantity no parameter takes, two different
values for one parameter, a known substance the module does not support, a value
outside its range: each raises :class:`ParseError` naming the text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from simwright.errors import ParseError
from simwright.knowledge.modules import KnowledgeModule
from simwright.knowledge.planner.assignment import Item, assign
from simwright.knowledge.planner.quantities import FoundQuantity, dimensionality, find_quantities
from simwright.knowledge.planner.substances import SUBSTANCES, find_compounds, find_substances
from simwright.knowledge.schema import ParameterSpec, Scalar, Value
from simwright.text import element_mentions, find_formulas, find_phrases, mask

_MOLAR_UNIT = "mol/L"
_SEQUENCE_SEP = r"\s*(?:->|→|=>|,|;|then|to|and)\s*"
_NUM = r"[-+−]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?"
_RATIO = re.compile(r"(?<![\w.:])\d+(?:\.\d+)?(?:\s*:\s*\d+(?:\.\d+)?)+(?![\w.:])")
MESH = re.compile(
    r"(?<![\w.])(\d+\s?[x×]\s?\d+\s?[x×]\s?\d+)"
    r"((?:\s+(?:monkhorst[- ]pack|k-?points?|mp|grid|mesh|supercell|cell)s?)*)",
    re.IGNORECASE,
)
"""An n×n×n mesh or cell, with the words after it."""
CELL_WORD = re.compile(r"\b(?:supercell|cell)s?\b", re.IGNORECASE)
_LIKE = re.compile(r"(?<![\w-])[\w()]+-like\b", re.IGNORECASE)
_SURFACE = re.compile(r"\b([A-Z][a-z]?)\s?\((\d{3,4})\)")
_CUED = re.compile(
    rf"\s*(?:=|:|of|is|to|≥|>=|>|≤|<=|<)?\s*({_NUM}(?:{_SEQUENCE_SEP}{_NUM})*)(?![\w.§])"
)


NUMBER_WORDS: dict[str, int] = {
    w: i
    for i, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
        "fifteen sixteen seventeen eighteen nineteen twenty".split()
    )
    if i > 0
}
"""Counts written as words ("six atomic layers")."""


@dataclass(frozen=True)
class Finding:
    """A parameter value read from the request, with the text it came from."""

    value: Value
    text: str
    start: int


Findings = dict[str, list[Finding]]

TEXT_JOIN = " / "
"""Joins the words of a request that gave one value twice ("298.15 K / 25 °C")."""


def _is_quantity(spec: ParameterSpec) -> bool:
    return bool(spec.unit) and spec.type in ("float", "int") and not spec.count_nouns


def _quantity_kind(spec: ParameterSpec) -> str | None:
    if _is_quantity(spec):
        assert spec.unit is not None
        return dimensionality(spec.unit)
    return None


def _element_kind(spec: ParameterSpec) -> str | None:
    return "element" if spec.type in ("element", "formula") else None


def extract(text: str, module: KnowledgeModule) -> dict[str, Finding]:
    """The parameters ``text`` gives for ``module``, one checked value each."""
    params = module.parameters
    found: Findings = {}
    text = mask(text, [(m.start(), m.end()) for m in _LIKE.finditer(text)])
    quantities = find_quantities(text)
    masked = mask(text, [(q.start, q.end) for q in quantities])
    masked = _choices(masked, module, found)
    _check_substances(masked, module)
    _quantities(text, quantities, module, found)
    _counts(masked, text, params, found)
    _cued_numbers(masked, text, params, found)
    _ratios(masked, text, params, found)
    masked = _meshes(masked, params, found)
    masked = _surface_cells(masked, params, found)
    masked = _compounds(masked, params, found)
    masked = _surfaces(masked, params, found)
    masked = _mask_quantity_cues(masked, params)
    keywords = find_phrases(masked, dict.fromkeys(module.keywords, True))
    _elements(masked, mask(masked, [(k.start, k.end) for k in keywords]), params, found)
    _diamond(params, found)
    return _consolidate(found, params)


def _mask_quantity_cues(text: str, params: dict[str, ParameterSpec]) -> str:
    """``text`` with the cues of quantity parameters masked: a cue names a parameter, not a
    substance ("U = 5 eV" is the Hubbard U, not uranium)."""
    cues = [cue for spec in params.values() if _is_quantity(spec) for cue in spec.cues]
    return mask(text, [(m.start, m.end) for m in find_phrases(text, dict.fromkeys(cues, True))])


def _add(found: Findings, name: str, value: Value, text: str, start: int) -> None:
    found.setdefault(name, []).append(Finding(value, text.strip(), start))


def _choices(text: str, module: KnowledgeModule, found: Findings) -> str:
    """Record choice phrases; return ``text`` with them masked.

    The module's keywords take part in the longest-first matching without meaning a
    choice, so "bulk modulus" is not read as the structure kind "bulk"; on equal
    length a choice phrase wins ("vc-relax").
    """
    params = module.parameters
    phrases: list[tuple[str, tuple[str, str] | None]] = [
        (phrase, (name, value))
        for name, spec in params.items()
        if spec.choices
        for value, aliases in spec.phrases().items()
        for phrase in aliases
    ]
    phrases += [(keyword, None) for keyword in module.keywords]
    # Longer substance names hold their place so "heavy water" is not read as "water".
    phrases += [(a, None) for s in SUBSTANCES for a in s.aliases if " " in a]
    matches = [m for m in find_phrases(text, phrases) if m.meaning is not None]
    for m in matches:
        assert m.meaning is not None
        name, value = m.meaning
        _add(found, name, params[name].coerce(value), m.text, m.start)
    return mask(text, [(m.start, m.end) for m in matches])


def _check_substances(masked: str, module: KnowledgeModule) -> None:
    """Refuse a known substance that the module's substance parameters do not offer."""
    specs = [s for s in module.parameters.values() if s.substance]
    if not specs:
        return
    for m in find_substances(masked):
        if m.meaning.kind == "ion":
            continue
        name = m.meaning.name
        written = "" if m.text.lower() == name.lower() else f" ({m.text!r})"
        offered = "; ".join(
            f"{v} ({', '.join(a[:3])})" for s in specs for v, a in s.phrases().items()
        )
        raise ParseError(f"{name}{written} is not available in {module.id}; it offers: {offered}")


def _quantities(
    text: str, quantities: list[FoundQuantity], module: KnowledgeModule, found: Findings
) -> None:
    if not quantities:
        return  # nothing to place: the unit registry is not even loaded
    items = [Item(q.dimensionality(), q.start, q.end, q.text, q) for q in quantities]
    pairs, orphans = assign(text, items, module.parameters, _quantity_kind)
    for orphan in orphans:
        raise ParseError(_orphan_message(orphan, module))
    for name, item in pairs:
        spec = module.parameters[name]
        assert spec.unit is not None and isinstance(item.value, FoundQuantity)
        x = item.value.to(spec.unit)
        value: Value = int(x) if spec.type == "int" and x.is_integer() else x
        _add(found, name, value, item.text, item.start)


def _orphan_message(item: Item, module: KnowledgeModule) -> str:
    takes = ", ".join(f"{n} ({s.unit})" for n, s in module.parameters.items() if s.unit)
    if item.kind == dimensionality(_MOLAR_UNIT):
        return (
            f"{item.text!r} is a molar concentration (mol/L); {module.id} takes molality "
            "(mol/kg), which needs no density: write e.g. '1 mol/kg' or '1 m'"
        )
    return f"{item.text!r} does not fit any parameter of {module.id} (it takes {takes})"


def _counts(text: str, original: str, params: dict[str, ParameterSpec], found: Findings) -> None:
    """Counts such as "216 water molecules" (``text`` is masked, ``original`` is not)."""
    for name, spec in params.items():
        if not spec.count_nouns:
            continue
        nouns = "|".join(re.escape(n) for n in sorted(spec.count_nouns, key=len, reverse=True))
        count = rf"{_NUM}|{'|'.join(NUMBER_WORDS)}"
        pattern = rf"(?<![\w.])({count})(?:\s+|-)(?:[^\s\d]+\s+){{0,3}}?(?:{nouns})\b"
        for m in re.finditer(pattern, text, re.IGNORECASE):
            word = m.group(1).lower()
            number = float(NUMBER_WORDS.get(word, word.replace("−", "-")))
            value: Value = int(number) if number.is_integer() else number
            _add(found, name, value, original[m.start() : m.end()], m.start())


def _cued_numbers(
    text: str, original: str, params: dict[str, ParameterSpec], found: Findings
) -> None:
    """Unit-less numbers (and sequences) right after a cue; refuse unit-less quantities."""
    for name, spec in params.items():
        numeric = spec.type in ("float", "int") or (spec.type == "list" and not spec.choices)
        if not numeric or not spec.cues or spec.count_nouns:
            continue
        for cue in find_phrases(text, dict.fromkeys(spec.cues, name)):
            head = _CUED.match(text[cue.end :])
            if head is None:
                continue
            numbers = [float(x.replace("−", "-")) for x in re.findall(_NUM, head.group(1))]
            snippet = original[cue.start : cue.end + head.end()]
            if spec.unit:
                raise ParseError(f"{snippet.strip()!r} needs a unit ({spec.unit}) for {name}")
            if spec.type == "list":
                _add(found, name, list(numbers), snippet, cue.start)
            elif len(numbers) == 1:
                x = numbers[0]
                value = int(x) if spec.type == "int" and x.is_integer() else x
                _add(found, name, value, snippet, cue.start)


def _ratios(text: str, original: str, params: dict[str, ParameterSpec], found: Findings) -> None:
    """Colon ratios such as "3:7" or "1:1:1" for list parameters marked ``ratio``."""
    names = [n for n, s in params.items() if s.ratio]
    for m in _RATIO.finditer(text):
        if len(names) != 1:
            raise ParseError(f"the ratio {m.group(0)!r} fits no parameter of this module")
        numbers: list[Scalar] = [float(x) for x in m.group(0).split(":")]
        _add(found, names[0], numbers, original[m.start() : m.end()], m.start())


def _elements(text: str, bare: str, params: dict[str, ParameterSpec], found: Findings) -> None:
    """Elements and formulas; ``bare`` is ``text`` with the module's keywords masked
    (so "E-V curve" is no element E), ``text`` keeps the cues that place them."""
    names = [
        n
        for n, s in params.items()
        if s.type in ("element", "formula")
        and (not s.only_with or any(w in found for w in s.only_with))
    ]
    if not names:
        return
    formulas = find_formulas(bare) if any(params[n].type == "formula" for n in names) else []
    spans = [(m.start(), m.end()) for f in formulas for m in re.finditer(re.escape(f), bare)]
    items = [Item("element", m.start, m.end, m.text, m.meaning) for m in element_mentions(bare)]
    items += [Item("element", a, b, bare[a:b], bare[a:b]) for a, b in spans]
    if len(names) == 1:
        for it in items:
            _add(found, names[0], str(it.value), it.text, it.start)
        return
    pairs, _ = assign(text, items, params, _element_kind)
    for name, it in pairs:
        _add(found, name, str(it.value), it.text, it.start)


def _compounds(text: str, params: dict[str, ParameterSpec], found: Findings) -> str:
    """Compounds by name ("boron nitride", "graphene", "methane") for a ``formula``
    parameter, with the structure kind or lattice the name implies; masked after."""
    if "formula" not in params or params["formula"].type != "formula":
        return text
    matches = find_compounds(text)
    for m in matches:
        c = m.meaning
        _add(found, "formula", c.formula, m.text, m.start)
        for name, value in (("structure", c.kind), ("lattice", c.lattice)):
            spec = params.get(name)
            if value is not None and spec is not None and value in (spec.choices or {}):
                _add(found, name, value, m.text, m.start)
    return mask(text, [(m.start, m.end) for m in matches])


def _meshes(text: str, params: dict[str, ParameterSpec], found: Findings) -> str:
    """A k-point mesh written "8x8x8 k-points" or "6×6×6 Monkhorst-Pack grid"."""
    if "kpoints" not in params:
        return text
    matches = [m for m in MESH.finditer(text) if not CELL_WORD.search(m.group(0))]
    for m in matches:
        mesh: list[Scalar] = [int(n) for n in re.findall(r"\d+", m.group(1))]
        _add(found, "kpoints", mesh, m.group(0), m.start())
    return mask(text, [(m.start(), m.end()) for m in matches])


_SURFACE_CELL = re.compile(
    r"(?<![\w.])(\d+)\s?[x×]\s?(\d+)(?!\s?[x×]\s?\d)"
    r"((?:\s+(?:surface|in-plane|lateral|supercell|super-cell|cell|slab|unit cell)s?)*)",
    re.IGNORECASE,
)


def _surface_cells(text: str, params: dict[str, ParameterSpec], found: Findings) -> str:
    """A slab's lateral cell written "2x2 surface cell" or "(3×3) supercell"."""
    if "surface_cell" not in params:
        return text
    matches = list(_SURFACE_CELL.finditer(text))
    for m in matches:
        cell: list[Scalar] = [int(m.group(1)), int(m.group(2))]
        _add(found, "surface_cell", cell, m.group(0), m.start())
    return mask(text, [(m.start(), m.end()) for m in matches])


def _surfaces(text: str, params: dict[str, ParameterSpec], found: Findings) -> str:
    """Surfaces written as "Pt(111)": the element, the facet and the slab kind."""
    if "facet" not in params:
        return text
    matches = list(_SURFACE.finditer(text))
    for m in matches:
        _add(found, "facet", m.group(2), m.group(0), m.start())
        spec = params.get("structure")
        if spec is not None and "slab" in (spec.choices or {}):
            _add(found, "structure", "slab", m.group(0), m.start())
    return mask(text, [(m.start(2) - 1, m.end()) for m in matches])


def _diamond(params: dict[str, ParameterSpec], found: Findings) -> None:
    """The word "diamond" alone names both the lattice and the substance (carbon)."""
    lattice = found.get("lattice", [])
    alone = bool(lattice) and all(f.text.lower() == "diamond" for f in lattice)
    if alone and "formula" in params and "formula" not in found:
        _add(found, "formula", "C", lattice[0].text, lattice[0].start)


def _consolidate(found: Findings, params: dict[str, ParameterSpec]) -> dict[str, Finding]:
    """One value per parameter; refuse contradictions and values out of range."""
    out: dict[str, Finding] = {}
    for name, findings in found.items():
        spec = params[name]
        if spec.type == "list" and spec.choices:
            values = list(dict.fromkeys(str(f.value) for f in findings))
            merged = Finding(list(values), " ".join(f.text for f in findings), findings[0].start)
            out[name] = merged
        else:
            out[name] = _single(name, findings, spec)
        try:
            spec.check(out[name].value)
        except ValueError as exc:
            raise ParseError(f"{name}: {exc} (from {out[name].text!r})") from exc
    for name, finding in out.items():
        other_list = params[name].same_length_as
        if other_list and other_list in out:
            n, m = len(finding.value), len(out[other_list].value)  # type: ignore[arg-type]
            if n != m:
                raise ParseError(f"{name} {finding.text!r} has {n} parts but {other_list} has {m}")
        for other in params[name].conflicts:
            if other in out:
                raise ParseError(
                    f"the request gives both {name} ({finding.text!r}) and {other} "
                    f"({out[other].text!r}); give one of them"
                )
    return out


def _single(name: str, findings: list[Finding], spec: ParameterSpec) -> Finding:
    distinct = list(dict.fromkeys(repr(f.value) for f in findings))
    if len(distinct) == 1:
        texts = list(dict.fromkeys(f.text for f in findings))
        return Finding(findings[0].value, TEXT_JOIN.join(texts), findings[0].start)
    what = "elements" if spec.type in ("element", "formula") else f"values for {name}"
    listed = ", ".join(dict.fromkeys(f.text for f in findings))
    raise ParseError(
        f"the request names several {what} ({listed}); one run takes one — "
        "ask for each separately, or write a spec file"
    )
