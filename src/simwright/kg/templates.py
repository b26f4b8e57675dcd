"""Named queries later runs and the command line use, written once.

:func:`mofs_query`: the MOFs in the graph, optionally of one topology and with a
largest included sphere (the largest cavity, Di) above a bound, each with the run that
measured it — "MOFs of topology pcu with a largest cavity above 10 Å" is
``mofs_query("pcu", 10.0)`` (``simwright kg mofs --topology pcu --min-cavity 10``).
"""

from __future__ import annotations

import re

from simwright.errors import ValidationError

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.+-]{0,40}$")

MOF_COLUMNS = ("mof", "label", "topology", "cavity_a", "free_sphere_a", "asa_m2_g", "run")


def mofs_query(topology: str | None = None, min_cavity_a: float | None = None) -> str:
    """SPARQL for MOFs (of ``topology``, with Di > ``min_cavity_a`` Å), largest first."""
    filters = []
    if topology is not None:
        if not _NAME.match(topology):
            raise ValidationError(f"{topology!r} is not a topology name")
        filters.append(f'FILTER(?topology = "{topology}")')
    if min_cavity_a is not None:
        filters.append(f"FILTER(?cavity_a > {float(min_cavity_a)!r})")
    return f"""
SELECT ?mof ?label ?topology ?cavity_a ?free_sphere_a ?asa_m2_g ?run WHERE {{
  ?mof a sw:MOF ; rdfs:label ?label .
  OPTIONAL {{ ?mof sw:topology ?t . ?t rdfs:label ?topology . }}
  ?di sw:of ?mof ; sw:quantity "largest_included_sphere" ; sw:value ?cavity_a ;
      prov:wasGeneratedBy ?r .
  ?r sw:runId ?run .
  OPTIONAL {{ ?df sw:of ?mof ; sw:quantity "largest_free_sphere" ; sw:value ?free_sphere_a ;
              prov:wasGeneratedBy ?r . }}
  OPTIONAL {{ ?sa sw:of ?mof ; sw:quantity "accessible_surface_area" ; sw:value ?asa_m2_g ;
              prov:wasGeneratedBy ?r . }}
  {" ".join(filters)}
}}
ORDER BY DESC(?cavity_a) ?run
"""


_QUESTION = re.compile(r"\bmofs?\b|metal[- ]organic frameworks?", re.IGNORECASE)
_QUESTION_TOPOLOGY = re.compile(
    r"\b(?:topology|net)\s+([a-z]{3}(?:-[a-z0-9]+)?)\b|\b([a-z]{3}(?:-[a-z0-9]+)?)\s+"
    r"(?:topology|net|mofs?)\b",
    re.IGNORECASE,
)
_QUESTION_CAVITY = re.compile(
    r"\b(?:largest\s+)?(?:cavity|cavities|pore(?:\s+size)?|included\s+sphere|di)\s+"
    r"(?:above|over|larger\s+than|greater\s+than|>)\s*(\d+(?:\.\d+)?)\s*(?:Å|A|angstroms?)\b",
    re.IGNORECASE,
)


def mofs_question(text: str) -> tuple[str | None, float | None]:
    """``(topology, min_cavity_a)`` from "MOFs of topology pcu with a largest cavity
    above 10 Å"; a question that is not about MOFs, or a number not read as the cavity
    bound, is refused by name."""
    if not _QUESTION.search(text):
        raise ValidationError(
            f"{text!r} is not a question about MOFs; e.g. 'MOFs of topology pcu with a "
            "largest cavity above 10 Å', or write SPARQL for `simwright kg query`"
        )
    topology = _QUESTION_TOPOLOGY.search(text)
    cavity = _QUESTION_CAVITY.search(text)
    rest = text
    for m in (topology, cavity):
        if m is not None:
            rest = rest.replace(m.group(0), " ")
    stray = re.search(r"\d+(?:\.\d+)?", rest)
    if stray is not None:
        raise ValidationError(
            f"the number {stray.group(0)} in {text!r} was not understood: only a bound on "
            "the largest cavity is read ('largest cavity above 10 Å')"
        )
    name = None if topology is None else (topology.group(1) or topology.group(2)).lower()
    return name, None if cavity is None else float(cavity.group(1))


_KEY = re.compile(r"^[A-Za-z0-9_.+:-]{1,128}$")


def measurements_query(kind: str, key: str, quantity: str) -> str:
    """SPARQL for the values of ``quantity`` measured on the entity ``(kind, key)``, with
    their unit and run, oldest first (what a new run of the same thing may cite)."""
    for name, value in (("kind", kind), ("key", key), ("quantity", quantity)):
        if not _KEY.match(value):
            raise ValidationError(f"{value!r} is not a {name} the knowledge graph uses")
    return f"""
SELECT ?run ?value ?unit ?started WHERE {{
  ?e a sw:{kind} ; sw:key "{key}" .
  ?m sw:of ?e ; sw:quantity "{quantity}" ; sw:value ?value ; sw:unit ?unit ;
     prov:wasGeneratedBy ?r .
  ?r sw:runId ?run ; prov:startedAtTime ?started .
}}
ORDER BY ?started ?run
"""
