"""Protocol ``dft_relax``: relax atoms (``relax``) or atoms and cell (``vc-relax``) with pw.x.

Same chain as ``dft_scf``; the recovery machine restarts a relaxation that ran out
of ionic steps from its last geometry. The final structure is written to the
file contract and the final energy, pressure and volume are reported.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import model_validator

from simwright.dft.request import DftRequest, is_eos_request, parse_calculation, parse_dft_text
from simwright.graph import Graph
from simwright.protocols.dft import sizing
from simwright.protocols.dft.common import STEPS, Recommend
from simwright.protocols.dft.inputs import dft_inputs
from simwright.protocols.dft.words import asks_property
from simwright.protocols.registry import Protocol


class DftRelaxParams(DftRequest):
    """Parameters of ``dft_relax``: a DFT request whose calculation is relax or vc-relax."""

    calculation: Literal["relax", "vc-relax"] = "vc-relax"

    @model_validator(mode="before")
    @classmethod
    def _cell_follows_kind(cls, data: Any) -> Any:
        """Without a stated calculation, a bulk crystal relaxes its cell too (vc-relax);
        slabs, layers and molecules, and a crystal at a stated lattice constant
        (``a_a``), keep their cell (relax)."""
        if not isinstance(data, dict) or data.get("calculation") is not None:
            return data
        kind = data.get("structure", "bulk")
        a_a = data.get("a_a")
        if isinstance(kind, dict):
            kind, a_a = kind.get("kind", "bulk"), kind.get("a_a")
        fixed = str(kind).lower() in ("slab", "surface", "molecule", "two_d", "2d", "file")
        fixed = fixed or a_a is not None
        return {**data, "calculation": "relax" if fixed else "vc-relax"}


GRAPH = Graph.build("dft_relax", STEPS)


def parse_request(text: str) -> dict[str, Any] | None:
    """Claim DFT requests to relax a structure ("relax bulk Si with PBE", "vc-relax of MgO")."""
    if is_eos_request(text) or asks_property(text) or parse_calculation(text) == "scf":
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
