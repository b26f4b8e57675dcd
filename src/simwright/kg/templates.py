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
