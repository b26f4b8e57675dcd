"""Requests in words for ``mof_pores``: the framework (topology and building blocks, a
known name, or a CIF file), the MLIP that relaxes it, the probe and the step cap.

"pore size of a pcu MOF built from Zn4O nodes and BDC linkers", "surface area of
HKUST-1", "largest cavity of the MOF in uio66.cif relaxed with CHGNet in 20 steps",
"accessible surface area of a tbo MOF from BTC and Cu paddlewheel nodes for a probe
radius of 1.4 Å". Every stated choice is taken or refused by name; a number no
parameter takes is refused.
"""

from __future__ import annotations

import re
from typing import Any

from simwright.errors import ParseError
from simwright.protocols.mofs.references import KNOWN
from simwright.protocols.solids.engine import CALCULATOR_WORDS, engine_request

_TRIGGER = re.compile(
    r"\bmofs?\b|metal[- ]organic framework|\bframework\b|\.cif\b|\bpormake\b|\bzeo\+\+"
    r"|\b(?:mof-5|irmof-1|hkust-1|uio-66)\b",
    re.IGNORECASE,
)
_TOPOLOGY = re.compile(
    r"\b(?:an?\s+|the\s+)?([a-z]{3}(?:-[a-z0-9]+)?)\s+(?:mof|net|topology|framework)\b"
    r"|\b(?:topology|net)\s+(?:of\s+)?([a-z]{3}(?:-[a-z0-9]+)?)\b",
    re.IGNORECASE,
)
_NODES = re.compile(
    r"\bfrom\s+(.+?)\s+nodes?\b|\b([\w()-]+(?:\s+paddlewheel)?)\s+nodes?\b", re.IGNORECASE
)
_LINKER = re.compile(r"\b(?:and\s+)?([\w()-]+)\s+(?:linkers?|edges?)\b", re.IGNORECASE)
_CIF = re.compile(r"(?<![\w/.~-])((?:[\w.~-]*/)*[\w.-]+\.cif)\b", re.IGNORECASE)
_PROBE = re.compile(
    r"\bprobe\s+(radius|diameter)\s+(?:of\s+)?(\d+(?:\.\d+)?)\s*(?:Å|A|angstroms?)\b"
    r"|\b(\d+(?:\.\d+)?)\s*(?:Å|A|angstroms?)\s+(?:radius\s+)?probe\b",
    re.IGNORECASE,
)
_STEPS = re.compile(r"\b(\d+)\s+(?:relaxation\s+|optimi[sz]ation\s+|bfgs\s+)?steps\b", re.I)
_NUMBER = re.compile(r"(?<![\w.-])\d+(?:\.\d+)?(?![\w-])")
_NOT_RELAX = re.compile(r"\bwithout\s+(?:a\s+)?relax", re.IGNORECASE)


def _known(text: str) -> dict[str, Any]:
    for known in KNOWN:
        aliases = {known.name.lower(), *({"irmof-1"} if known.name == "MOF-5" else set())}
        if any(re.search(rf"(?<![\w-]){re.escape(a)}(?![\w-])", text.lower()) for a in aliases):
            raw: dict[str, Any] = {
                "name": known.name,
                "topology": known.topology,
                "nodes": list(known.nodes),
            }
            if known.linker:
                raw["linker"] = known.linker
            return raw
    return {}


def _split_nodes(phrase: str) -> list[str]:
    parts = re.split(r"\s*(?:,|\band\b)\s*", phrase.strip())
    return [p for p in (" ".join(x.split()) for x in parts) if p and p.lower() not in ("a", "the")]


def _framework(text: str, spans: list[tuple[int, int]]) -> dict[str, Any]:
    cif = _CIF.search(text)
    if cif is not None:
        spans.append(cif.span())
        return {"cif": cif.group(1)}
    raw: dict[str, Any] = {}
    topology = _TOPOLOGY.search(text)
    if topology is not None and (topology.group(1) or topology.group(2)).lower() != "the":
        raw["topology"] = (topology.group(1) or topology.group(2)).lower()
        spans.append(topology.span())
    nodes = _NODES.search(text)
    if nodes is not None:
        raw["nodes"] = _split_nodes(nodes.group(1) or nodes.group(2))
        spans.append(nodes.span())
    linker = _LINKER.search(text)
    if linker is not None:
        raw["linker"] = linker.group(1)
        spans.append(linker.span())
    if raw and "topology" not in raw:
        raise ParseError(
            "which topology? e.g. 'a pcu MOF from Zn4O nodes and BDC linkers' "
            "(PORMAKE knows the RCSR nets: pcu, dia, tbo, fcu, sod, ...)"
        )
    if "topology" in raw and "nodes" not in raw:
        raise ParseError(
            f"which building blocks? e.g. 'a {raw['topology']} MOF from Zn4O nodes and BDC "
            "linkers' (a PORMAKE id such as N16 or a common name)"
        )
    known = _known(text)
    if known and raw:
        raise ParseError(
            f"the request names {known['name']} and also a framework to build; give one"
        )
    return raw or known


def _engine(text: str) -> dict[str, Any]:
    if _NOT_RELAX.search(text):
        return {}
    low = text.lower()
    for word, name in CALCULATOR_WORDS.items():
        if re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", low):
            return {"calculator": name}
    found = engine_request(text)
    if "potential" in found:
        raise ParseError(
            f"{found['potential']!r}: mof_pores relaxes with a universal MLIP only "
            "(sevennet, chgnet); no catalogued LAMMPS potential describes a MOF"
        )
    return found


def _numbers(text: str, raw: dict[str, Any], spans: list[tuple[int, int]]) -> None:
    for m in _PROBE.finditer(text):
        spans.append(m.span())
        if m.group(2) is not None:
            value = float(m.group(2))
            raw["probe_radius_a"] = value / 2 if m.group(1).lower() == "diameter" else value
        else:
            raw["probe_radius_a"] = float(m.group(3))
    for m in _STEPS.finditer(text):
        spans.append(m.span())
        raw["relax_steps"] = int(m.group(1))
    for m in _NUMBER.finditer(text):
        if not any(a <= m.start() and m.end() <= b for a, b in spans):
            before = text[: m.start()].split()[-2:]
            after = text[m.end() :].split()[:2]
            snippet = " ".join([*before, m.group(0), *after])
            raise ParseError(
                f"{snippet!r}: the number {m.group(0)} was not understood by mof_pores; it "
                "takes a probe radius ('probe radius of 1.4 Å') and a step cap ('in 20 "
                "steps'); other values go in a spec file"
            )


def parse_request(text: str) -> dict[str, Any] | None:
    """Parameters from a request about a MOF's pores; None when it is not about a MOF."""
    if not _TRIGGER.search(text):
        return None
    spans: list[tuple[int, int]] = []
    raw = _framework(text, spans)
    if not raw:
        raise ParseError(
            "which framework? build one ('a pcu MOF from Zn4O nodes and BDC linkers'), "
            "name MOF-5, HKUST-1 or UiO-66, or give a CIF file ('the MOF in x.cif')"
        )
    raw.update(_engine(text))
    _numbers(text, raw, spans)
    return raw


def defaulted(text: str) -> frozenset[str]:
    """Nothing ``parse_request`` fills is assumed: every key it returns was stated."""
    return frozenset()
