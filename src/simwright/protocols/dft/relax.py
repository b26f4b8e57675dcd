"""Protocol ``dft_relax``: relax atoms (``relax``) or atoms and cell (``vc-relax``) with pw.x.

Same chain as ``dft_scf``; the recovery machine restarts a relaxation that ran out
of ionic steps from its last geometry. The final structure is written to the
file contract and the final energy, pressure and volume are reported.
"""

from __future__ import annotations

from typing import Any, Literal

from simwright.dft.request import DftRequest, is_eos_request, parse_dft_text
from simwright.graph import Graph
from simwright.protocols.dft import sizing
from simwright.protocols.dft.common import STEPS, Recommend
from simwright.protocols.dft.inputs import dft_inputs
from simwright.protocols.dft.words import asks_property
from simwright.protocols.registry import Protocol


class DftRelaxParams(DftRequest):
    """Parameters of ``dft_relax``: a DFT request whose calculation is relax or vc-relax."""

    calculation: Literal["relax", "vc-relax"] = "relax"


GRAPH = Graph.build("dft_relax", STEPS)


def parse_request(text: str) -> dict[str, Any] | None:
    """Claim DFT requests to relax a structure ("relax bulk Si with PBE", "vc-relax of MgO")."""
    if is_eos_request(text) or asks_property(text):
        return None
    raw = parse_dft_text(text)
    if raw is None or raw["calculation"] == "scf":
        return None
    return raw


PROTOCOL = Protocol(
    name="dft_relax",
    title="Geometry relaxation (relax, vc-relax) with Quantum ESPRESSO pw.x",
    summary=__doc__ or "",
    graph=GRAPH,
    parameters=DftRelaxParams,
    start=lambda params: Recommend(params),
    examples=("relax bulk Si with PBE", "vc-relax of MgO with DFT"),
    parse_request=parse_request,
    engines=("pw.x",),
    estimate=sizing.dft_estimate,
    prepare=dft_inputs,
)
