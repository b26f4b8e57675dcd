"""Protocol ``dft_scf``: one self-consistent pw.x calculation with a recommended input.

The request ("SCF of an Al fcc crystal with DFT", "CO molecule with PBE") becomes a
structure, pseudopotentials of one functional and a validated pw.x input; pw.x
runs inside the error-recovery machine; energy, forces, stress, Fermi level or
band edges and magnetization are reported with their units.
"""

from __future__ import annotations

from typing import Any, Literal

from simwright.dft.request import DftRequest, is_eos_request, parse_calculation, parse_dft_text
from simwright.graph import Graph
from simwright.protocols.dft import sizing
from simwright.protocols.dft.common import STEPS, Recommend
from simwright.protocols.dft.inputs import dft_inputs
from simwright.protocols.dft.words import asks_property
from simwright.protocols.registry import Protocol


class DftScfParams(DftRequest):
    """Parameters of ``dft_scf``: a DFT request whose calculation is a single SCF."""

    calculation: Literal["scf"] = "scf"


GRAPH = Graph.build("dft_scf", STEPS)


def parse_request(text: str) -> dict[str, Any] | None:
    """Claim DFT requests for a single SCF (not relaxations, not equations of state)."""
    if is_eos_request(text) or asks_property(text) or parse_calculation(text) != "scf":
        return None
    raw = parse_dft_text(text)
    if raw is None or raw["calculation"] != "scf":
        return None
    return raw


PROTOCOL = Protocol(
    name="dft_scf",
    title="Self-consistent DFT calculation with Quantum ESPRESSO pw.x",
    summary=__doc__ or "",
    graph=GRAPH,
    parameters=DftScfParams,
    start=lambda params: Recommend(params),
    examples=(
        "SCF of bulk Si with PBE",
        "SCF of an Al fcc crystal with LDA",
        "CO molecule with PBE",
    ),
    parse_request=parse_request,
    engines=("pw.x",),
    estimate=sizing.dft_estimate,
    prepare=dft_inputs,
)
