"""Protocol ``dft_eos``: the equilibrium lattice constant from a DFT energy-volume curve.

The recommended pw.x input of the bulk crystal is evaluated at isotropic strains
(each point inside the error-recovery machine, at fixed cutoffs), an equation of
state is fitted with ASE, and a0, B0 and E0 are reported against experiment. After
the recommendation, the steps are the shared EOS sub-graph of
:mod:`simwright.steps.eos` with pw.x (:class:`~simwright.protocols.dft.energies.PwEnergies`)
as the energy engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from pydantic import Field, model_validator
from typing_extensions import override

from simwright.dft.request import DftRequest, is_eos_request, parse_dft_text
from simwright.dft.structures import PROTOTYPES, reference_lattice
from simwright.errors import ParseError, ValidationError
from simwright.graph import Graph, RunContext, Step
from simwright.protocols.dft import sizing
from simwright.protocols.dft.common import recommend_in_step
from simwright.protocols.dft.energies import PwEnergies
from simwright.protocols.dft.inputs import dft_inputs
from simwright.protocols.dft.words import asks_property
from simwright.protocols.registry import Protocol
from simwright.protocols.solids.engine import EXPERIMENT_A, KITTEL
from simwright.results import Reference
from simwright.steps.eos import EosPlan, EosText, FitEOS, Report, ScanVolumes, StrainScan

CONVENTIONAL_PER_PRIMITIVE: dict[str, float] = {
    "fcc": 4.0,
    "diamond": 4.0,
    "rocksalt": 4.0,
    "zincblende": 4.0,
    "fluorite": 4.0,
    "bcc": 2.0,
    "sc": 1.0,
    "cesiumchloride": 1.0,
}
"""Volume of the conventional cubic cell over that of ASE's primitive cell."""

EXPERIMENT_DIAMOND_A: dict[str, float] = {"C": 3.567, "Si": 5.431, "Ge": 5.658}
KITTEL_DIAMOND = (
    "C. Kittel, Introduction to Solid State Physics, 8th ed. (Wiley, 2005), "
    "ch. 1, lattice constants of crystals with the diamond structure"
)


class DftEosParams(DftRequest):
    """Parameters of ``dft_eos``: a bulk DFT request plus the strain scan."""

    calculation: Literal["scf"] = "scf"
    strain_percent: float = Field(4.0, gt=0, le=15, description="± strain of the lattice (%)")
    n_points: int = Field(7, ge=5, le=21, description="number of volumes")
    eos: Literal["birchmurnaghan", "murnaghan", "vinet", "sj"] = "birchmurnaghan"

    @model_validator(mode="after")
    def _bulk_only(self) -> DftEosParams:
        if self.structure.kind not in ("bulk", "spacegroup", "file", "materials_project"):
            raise ValueError("an equation of state needs a bulk crystal")
        return self

    def lattice(self) -> str | None:
        """The cubic lattice of the crystal, when known."""
        s = self.structure
        if s.lattice:
            return s.lattice
        if s.kind == "bulk" and s.name in PROTOTYPES:
            return PROTOTYPES[s.name][0]
        if s.kind == "bulk":
            try:
                return reference_lattice(s.name)[0]
            except (ValidationError, KeyError):
                return None
        return None


def experimental_a(params: DftEosParams) -> Reference | None:
    """The experimental lattice constant to compare with (Kittel), if tabulated."""
    name, lattice = params.structure.name, params.lattice()
    if lattice == "diamond" and name in EXPERIMENT_DIAMOND_A:
        return Reference("lattice_constant", EXPERIMENT_DIAMOND_A[name], "Å", KITTEL_DIAMOND)
    if lattice == "fcc" and name in EXPERIMENT_A:
        return Reference("lattice_constant", EXPERIMENT_A[name], "Å", KITTEL)
    return None


def eos_plan(params: DftEosParams) -> EosPlan:
    """The shared EOS sub-graph's plan: strains, EOS form and report text."""
    p = params
    ref = experimental_a(p)
    text = EosText(
        title=f"DFT equation of state of {p.structure.name}",
        subject=f"{p.structure.name} (DFT)",
        plot_subject=p.structure.name,
        method=(
            f"pw.x SCF energies at {p.n_points} isotropic strains within "
            f"±{p.strain_percent} % (fixed cutoffs, recommended input); "
            f"{p.eos} equation of state fitted with ASE."
        ),
        fit_description=f"{p.eos} fit of the pw.x energy-volume curve",
        references=(ref,) if ref is not None else (),
        attrs={"lattice": p.lattice() or ""},
        a0_description="cubic lattice constant (NaN if not cubic)",
    )
    ratio = CONVENTIONAL_PER_PRIMITIVE.get(p.lattice() or "")
    return EosPlan(StrainScan(p.strain_percent, p.n_points), p.eos, text, ratio)


@dataclass(frozen=True)
class EosRecommend(Step):
    """Build the bulk crystal and recommend a validated pw.x input."""

    params: DftEosParams

    @override
    def run(self, ctx: RunContext) -> ScanVolumes:
        rec = recommend_in_step(ctx, self.params)
        if rec.built.kind != "bulk":
            raise ValidationError("an equation of state needs a periodic bulk crystal")
        crystal = ctx.structure(rec.template.structure, "crystal.extxyz", "the scanned cell")
        engine = PwEnergies(self.params, rec.template, rec.valence_electrons)
        return ScanVolumes(engine, eos_plan(self.params), crystal)


GRAPH = Graph.build("dft_eos", [EosRecommend, ScanVolumes, FitEOS, Report])


def parse_request(text: str) -> dict[str, Any] | None:
    """Claim DFT requests for a lattice constant or equation of state ("... of Si with PBE")."""
    if not is_eos_request(text) or asks_property(text):
        return None
    raw = parse_dft_text(text)
    if raw is None:
        return None
    if raw["structure"]["kind"] != "bulk":
        raise ParseError(
            "an equation of state needs a bulk crystal, e.g. 'lattice constant of Si with PBE'"
        )
    raw.pop("calculation", None)
    return raw


PROTOCOL = Protocol(
    name="dft_eos",
    title="Lattice constant from a DFT equation of state (Quantum ESPRESSO pw.x)",
    summary=__doc__ or "",
    graph=GRAPH,
    parameters=DftEosParams,
    start=lambda params: EosRecommend(params),
    examples=("lattice constant of Si with PBE", "equation of state of Cu with PBE"),
    parse_request=parse_request,
    engines=("pw.x",),
    estimate=sizing.dft_estimate,
    prepare=dft_inputs,
)
