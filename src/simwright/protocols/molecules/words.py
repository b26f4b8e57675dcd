"""Reading molecular requests: the molecule, the level of theory, solvents, conditions.

Each reader returns only what the words state (raw values for the parameters model to
validate); a method or basis that no table knows is returned as written, so that the
model refuses it by name. Nothing is filled in here.
"""

from __future__ import annotations

import re
from typing import Any

from simwright.engines.qc.level import ALIASES, BASIS_SETS, FUNCTIONALS
from simwright.errors import ParseError
from simwright.molecules.solvents import solvent_pattern
from simwright.molecules.species import species_pattern

_B = r"(?<![\w-])"
_E = r"(?![\w*+])"

_METHOD_NAMES = sorted((*FUNCTIONALS, *ALIASES, "xtb"), key=len, reverse=True)
_METHOD_RX = re.compile(
    _B + "(" + "|".join(re.escape(m) for m in _METHOD_NAMES) + r")(?![\w+])", re.IGNORECASE
)
_BASIS_FORMS = sorted(
    {*BASIS_SETS, *(b.replace("**", "(d,p)").replace("*", "(d)") for b in BASIS_SETS)},
    key=len,
    reverse=True,
)
_BASIS_RX = re.compile(
    r"(?<![\w-])(" + "|".join(re.escape(b) for b in _BASIS_FORMS) + ")" + _E, re.IGNORECASE
)
_SLASH_RX = re.compile(r"(?<![\w/])([A-Za-z][\w()+-]*?)(?:-d3\(?(?:bj|0)?\)?)?/([\w()+*,-]+)")
_DISP_RX = re.compile(r"d3\s?\(?(bj|0|zero)?\)?|d4", re.IGNORECASE)
_SOLVENT_RX = re.compile(
    r"\b(?:in|with|using)\s+(?:(?:implicit|continuum|pcm|ddcosmo|cosmo|alpb)\s+)?"
    r"(?:the\s+)?(?:solvent\s+)?"
    r"((?:" + solvent_pattern() + r")(?:\s*(?:,|and|or)\s*(?:" + solvent_pattern() + r"))*)"
    r"(?:\s+solution)?\b",
    re.IGNORECASE,
)
_MODEL_RX = re.compile(r"\b(ief-?pcm|c-?pcm|pcm|ddcosmo|cosmo|alpb)\b", re.IGNORECASE)
_SMILES_RX = re.compile(r"\bsmiles\s*:?\s*([^\s,;]+)", re.IGNORECASE)
_XYZ_RX = re.compile(r"(?<!\S)([^\s,;]+\.xyz)\b", re.IGNORECASE)
_SPECIES_RX = re.compile(r"(?<![\w-])(" + species_pattern() + r")(?![\w-])", re.IGNORECASE)
_TEMP_RX = re.compile(r"(\d+(?:\.\d+)?)\s*K\b")
_PRESSURE_RX = re.compile(r"(\d+(?:\.\d+)?)\s*(bar|atm)\b", re.IGNORECASE)
_CHARGE_RX = re.compile(r"\bcharge\s*:?\s*([+-]?\d+)", re.IGNORECASE)
_MULT_RX = re.compile(r"\bmultiplicity\s*:?\s*(\d+)", re.IGNORECASE)
_SPIN_WORDS = {"singlet": 1, "doublet": 2, "triplet": 3, "quartet": 4}
_SPIN_RX = re.compile(r"\b(singlet|doublet|triplet|quartet)\b", re.IGNORECASE)


def read_level(text: str) -> dict[str, Any]:
    """The level of theory the words state (method, basis, dispersion, solvent model)."""
    out: dict[str, Any] = {}
    for m in _SLASH_RX.finditer(text):
        method = re.sub(r"-d3.*$", "", m.group(1).lower())
        out["method"], out["basis"] = method, m.group(2).lower().rstrip(".,;")
    if "method" not in out:
        found = _METHOD_RX.search(text)
        if found:
            out["method"] = found.group(1).lower()
        if re.search(r"\bgfn2(?:-xtb)?\b|\bxtb\b", text, re.IGNORECASE):
            out["method"] = "xtb"
    if "basis" not in out:
        basis = _BASIS_RX.search(text)
        if basis:
            out["basis"] = basis.group(1).lower()
    disp = _DISP_RX.search(text)
    if disp:
        if disp.group(0).lower() == "d4":
            raise ParseError(
                "'D4' cannot be honoured: the dftd4 package is not installed; D3 is "
                "(say D3(BJ) or D3(0))"
            )
        out["dispersion"] = "d3zero" if disp.group(1) in ("0", "zero") else "d3bj"
    model = _MODEL_RX.search(text)
    if model:
        word = model.group(1).lower().replace("-", "")
        out["solvent_model"] = {"iefpcm": "pcm", "cpcm": "pcm", "cosmo": "ddcosmo"}.get(word, word)
    return out


def read_solvents(text: str) -> list[str]:
    """Solvents named as "in water", "in water and hexane", "in aqueous solution"."""
    found: list[str] = []
    for m in _SOLVENT_RX.finditer(text):
        for part in re.split(r"\s*(?:,|\band\b|\bor\b)\s*", m.group(1)):
            if part.strip():
                found.append(part.strip().lower())
    if re.search(r"\baqueous\b", text, re.IGNORECASE) and not found:
        found.append("aqueous")
    return list(dict.fromkeys(found))


def read_molecules(text: str) -> list[dict[str, Any]]:
    """Molecules named in the text (table names, ``smiles X``, ``file.xyz``), in order."""
    out: list[tuple[int, dict[str, Any]]] = []
    for m in _SMILES_RX.finditer(text):
        out.append((m.start(), {"smiles": m.group(1)}))
    for m in _XYZ_RX.finditer(text):
        out.append((m.start(), {"xyz": m.group(1)}))
    taken = [(m.start(), m.end()) for m in _SMILES_RX.finditer(text)]
    taken += [(m.start(1), m.end()) for m in _SOLVENT_RX.finditer(text)]
    for m in _SPECIES_RX.finditer(text):
        if any(a <= m.start() < b for a, b in taken):
            continue
        out.append((m.start(), {"name": m.group(1).lower()}))
    return [d for _, d in sorted(out, key=lambda x: x[0])]


def read_spin(text: str) -> dict[str, Any]:
    """A stated charge and multiplicity ("charge +1", "multiplicity 2", "triplet")."""
    out: dict[str, Any] = {}
    charge = _CHARGE_RX.search(text)
    if charge:
        out["charge"] = int(charge.group(1))
    mult = _MULT_RX.search(text)
    if mult:
        out["multiplicity"] = int(mult.group(1))
    spin = _SPIN_RX.search(text)
    if spin and "multiplicity" not in out:
        out["multiplicity"] = _SPIN_WORDS[spin.group(1).lower()]
    return out


def read_conditions(text: str) -> dict[str, Any]:
    """Temperature (K) and pressure (bar) when stated."""
    out: dict[str, Any] = {}
    t = _TEMP_RX.search(text)
    if t:
        out["temperature_k"] = float(t.group(1))
    p = _PRESSURE_RX.search(text)
    if p:
        value = float(p.group(1))
        out["pressure_bar"] = value * 1.01325 if p.group(2).lower() == "atm" else value
    return out


def level_with_solvent(text: str, solvents: list[str]) -> dict[str, Any]:
    """The stated level, with the one stated solvent (several are refused here)."""
    level = read_level(text)
    if len(solvents) > 1:
        raise ParseError(
            f"several solvents ({', '.join(solvents)}) stated; this protocol takes one"
        )
    if solvents:
        level["solvent"] = solvents[0]
    return level


_NUMBER_RX = re.compile(r"(?<![\w.*+(/-])[-+]?\d+(?:\.\d+)?(?![\w.*+)/-]|\.\d)")
_READ_AFTER = re.compile(r"\s*(?:K\b|bar\b|atm\b|(?:excited\s+)?states\b|kj/mol\b)", re.IGNORECASE)
_READ_BEFORE = re.compile(r"(?:charge|multiplicity)\s*:?\s*$", re.IGNORECASE)


def refuse_unread_numbers(text: str, protocol: str, extra_after: str = "") -> None:
    """A bare number the readers above do not take ("with 5 conformers") is refused by
    name: a value the request states is never dropped silently."""
    after = re.compile(
        _READ_AFTER.pattern + (f"|\\s*(?:{extra_after})" if extra_after else ""), re.IGNORECASE
    )
    for m in _NUMBER_RX.finditer(text):
        if after.match(text, m.end()) or _READ_BEFORE.search(text[: m.start()]):
            continue
        snippet = text[max(0, m.start() - 20) : m.end() + 20].strip()
        raise ParseError(
            f"{snippet!r}: the number {m.group(0)} was not understood by {protocol}; "
            "write a spec file to set other parameters"
        )
