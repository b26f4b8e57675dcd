"""Protocol ``dft_adsorption_energy``: a molecule adsorbed on a slab with pw.x.

E_ads = E(slab+mol) − E(slab) − E(mol), negative when adsorption binds. Three
relaxations at fixed cell, all derived from the recommended input of the covered slab
(same cutoffs, files, smearing — Gaussian 0.01 Ry unless given — and functional;
``settings.json`` records them):

* slab + molecule: the molecule (ASE's G2 geometry, its lowest atom down, e.g. C of CO)
  placed ``height_a`` above the top layer at the ``site`` (``ontop``, ``bridge``, ``fcc``
  or ``hcp`` hollow; "hollow" is the fcc one on (111) and the four-fold one on (100));
  the bottom ``fixed_layers`` (half the layers, rounded down, unless given) held fixed,
  the adsorbate and the top layers relaxed;
* the clean slab with the same layers fixed and relaxed (same k-mesh);
* the molecule alone in a cubic box (``box_a``), Γ, relaxed.

With ``relax`` False the three are single points at the built geometry (the cheap
"frozen" estimate; the relaxed value is lower).

Coverage is one molecule per surface cell: 1/(n₁n₂) monolayer for an n₁×n₂ cell (2×2,
0.25 ML, unless given). Closed-shell molecules only (the runs are not spin-polarised);
no dipole correction, so an asymmetric slab's dipole is left in; no zero-point energy.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np
from pydantic import Field, model_validator
from typing_extensions import override

from simwright.dft.request import DftRequest, mentions_dft, parse_functional
from simwright.dft.structures import SURFACE_BUILDERS, reference_lattice
from simwright.engines.espresso.pseudo_library import PseudoLibrary, default_pseudo_dirs
from simwright.engines.espresso.template import PwInput
from simwright.errors import ParseError, ValidationError
from simwright.graph import Done, Graph, RunContext, Step
from simwright.protocols.dft.combine import (
    MOLECULES,
    EnergyDifferenceRequest,
    derive,
    energies_table,
    molecule_structure,
    molecule_system,
    pw_energy,
    read_energies,
    settings_record,
)
from simwright.protocols.dft.common import pseudo_dirs, recommend_in_step
from simwright.protocols.dft.inputs import dft_inputs
from simwright.protocols.dft.post import pw_estimate, write_json
from simwright.protocols.dft.words import asks_adsorption, element_symbols
from simwright.protocols.estimate import Estimate
from simwright.protocols.registry import Protocol
from simwright.results import ArtifactRef, ProtocolResult, Quantity, Reference
from simwright.settings import Settings
from simwright.steps.report import report_result
from simwright.structure import Structure

Site = Literal["ontop", "bridge", "fcc", "hcp", "hollow"]
REFERENCES: dict[tuple[str, str], list[tuple[float, str]]] = {
    ("CO", "Cu"): [
        (
            -0.50,
            "experiment (TPD, low coverage): about 0.5 eV — Vollmer, Witte, Wöll, Catal. "
            "Lett. 77, 97 (2001) (value from memory, unverified)",
        ),
    ],
}
"""Published adsorption energies (eV) by (molecule, metal)."""


class DftAdsorptionParams(EnergyDifferenceRequest):
    """Parameters of ``dft_adsorption_energy``: the slab (structure), the molecule, the
    site, its starting height and the fixed layers."""

    calculation: Literal["scf"] = "scf"
    adsorbate: str = Field(..., description="molecule of ASE's G2 set, e.g. CO, H2O, NH3")
    site: Site = Field("ontop", description="adsorption site")
    height_a: float = Field(2.0, gt=0.5, le=5.0, description="start height above the top layer")
    fixed_layers: int | None = Field(None, ge=0, description="bottom layers held fixed")
    relax: bool = Field(
        True, description="relax adsorbate and top layers (False: single points as built)"
    )

    @model_validator(mode="after")
    def _slab_and_molecule(self) -> DftAdsorptionParams:
        if self.structure.kind != "surface":
            raise ValueError("an adsorption energy needs a slab, e.g. 'CO on Cu(111)'")
        if self.adsorbate in {m for m, _ in MOLECULES.values()} - {"H2", "N2", "F2", "Cl2"}:
            raise ValueError(f"{self.adsorbate} is open-shell; only closed-shell adsorbates")
        layers = self.structure.size[2]
        if self.fixed_layers is not None and self.fixed_layers >= layers:
            raise ValueError(f"fixed_layers must leave some of the {layers} layers free")
        return self

    @property
    def n_fixed(self) -> int:
        """The bottom layers held fixed."""
        return self.fixed_layers if self.fixed_layers is not None else self.structure.size[2] // 2


def layer_index(structure: Structure, tol_a: float = 0.3) -> np.ndarray:
    """The layer (0 = bottom) of each atom, from its height."""
    z = np.asarray(structure.positions)[:, 2]
    levels: list[float] = []
    for h in np.sort(z):
        if not levels or h - levels[-1] > tol_a:
            levels.append(float(h))
    return np.array([int(np.argmin(np.abs(np.array(levels) - h))) for h in z])


def site_name(facet: str, site: str) -> str:
    """ASE's name of ``site`` on ``facet`` ("hollow" is the fcc hollow on (111))."""
    if site == "hollow":
        return "fcc" if facet in ("111", "0001") else "hollow"
    return site


def covered_slab(
    slab: Any, molecule: str, site: str, height_a: float, vacuum_a: float
) -> tuple[Any, Any]:
    """ASE atoms of (clean slab, slab + ``molecule`` at ``site``, its lowest atom down) in
    one cell, with ``vacuum_a`` Å between the molecule's top and the next slab's bottom."""
    # lazy: ase.build takes ~1 s to import
    from ase.build import add_adsorbate
    from ase.build import molecule as g2_molecule

    mol = g2_molecule(molecule)
    lowest = int(np.argmin(mol.positions[:, 2]))
    sites = slab.info.get("adsorbate_info", {}).get("sites", {})
    if site not in sites:
        raise ValidationError(f"no {site!r} site on this surface; sites: {', '.join(sites)}")
    covered = slab.copy()
    add_adsorbate(covered, mol, height_a, position=site, mol_index=lowest)
    bottom = float(covered.positions[:, 2].min())
    covered.center(vacuum=vacuum_a / 2, axis=2)
    clean = slab.copy()
    clean.set_cell(covered.cell)
    clean.positions[:, 2] += float(covered.positions[:, 2].min()) - bottom
    return clean, covered


def clean_slab(p: DftAdsorptionParams) -> Any:
    """ASE atoms of the clean slab (with the builder's adsorption sites)."""
    # lazy: ase.build takes ~1 s to import
    import ase.build

    s = p.structure
    lattice, a, c = reference_lattice(s.name)
    lattice = s.lattice or lattice
    facet = s.facet or {"hcp": "0001"}.get(lattice, "111" if lattice != "bcc" else "110")
    if (lattice, facet) not in SURFACE_BUILDERS:
        raise ValidationError(f"no builder for a {lattice}({facet}) surface")
    kwargs: dict[str, Any] = {"size": s.size, "vacuum": 5.0, "a": s.a_a or a}
    if lattice == "hcp":
        kwargs["c"] = s.c_a or c
    slab = getattr(ase.build, f"{lattice}{facet}")(s.name, **kwargs)
    slab.info["facet"] = facet
    return slab


def fixed_flags(structure: Structure, n_fixed: int) -> tuple[tuple[bool, bool, bool], ...]:
    """Per atom: frozen when it lies in the bottom ``n_fixed`` layers."""
    layers = layer_index(structure)
    return tuple((bool(k < n_fixed),) * 3 for k in layers)


@dataclass(frozen=True)
class AdsorptionRecommend(Step):
    """Build the covered slab and recommend its input (pseudopotentials for the metal
    and the molecule's elements, one set of cutoffs)."""

    params: DftAdsorptionParams

    @override
    def run(self, ctx: RunContext) -> AdsorptionRun:
        p = self.params
        slab = clean_slab(p)
        facet = str(slab.info["facet"])
        vacuum = p.structure.vacuum_a or 10.0
        clean, covered = covered_slab(
            slab, p.adsorbate, site_name(facet, p.site), p.height_a, vacuum
        )
        ref = ctx.structure(Structure.from_ase(covered), "covered.extxyz", "slab + molecule")
        request = p.model_dump(include=set(DftRequest.model_fields))
        request["structure"] = {"kind": "file", "path": str(ctx.path(ref))}
        rec = recommend_in_step(ctx, DftRequest.model_validate(request))
        z = {q.element: q.z_valence for q in rec.pseudos.pseudos}
        return AdsorptionRun(
            p, rec.template, Structure.from_ase(clean), facet, rec.pseudos.functional, z
        )


@dataclass(frozen=True)
class AdsorptionRun(Step):
    """Covered slab, clean slab and molecule: derive, check, record, relax each."""

    params: DftAdsorptionParams
    template: PwInput
    clean: Structure
    facet: str
    functional: str
    z_valence: dict[str, float]

    @override
    def run(self, ctx: RunContext) -> AdsorptionReport:
        p = self.params
        n_metal = len(self.clean)
        covered = self.template.structure
        metal_flags = fixed_flags(self.clean, p.n_fixed)
        flags = metal_flags + ((False, False, False),) * (len(covered) - n_metal)
        mesh = self.template.kpoints
        mol = molecule_structure(p.adsorbate, p.box_a)
        valence = sum(self.z_valence[e] for e in mol.symbols)
        inputs = {
            "slab+molecule": derive(
                self.template,
                covered,
                "slab",
                1.0,
                kpoints=mesh,
                fixed=flags,
                relax=p.relax,
                force_ev_a=p.force_threshold_ev_a,
            ),
            "slab": derive(
                self.template,
                self.clean,
                "slab",
                1.0,
                kpoints=mesh,
                fixed=metal_flags,
                relax=p.relax,
                force_ev_a=p.force_threshold_ev_a,
            ),
            "molecule": derive(
                self.template,
                mol,
                "molecule",
                1.0,
                system=molecule_system(valence, 0.0),
                relax=p.relax,
                force_ev_a=p.force_threshold_ev_a,
            ),
        }
        nx, ny, layers = p.structure.size
        record = settings_record(
            inputs,
            pseudo_dirs(ctx, p),
            self.functional,
            p.kspacing_inv_a,
            surface=f"{p.structure.name}({self.facet}) {nx}×{ny}, {layers} layers",
            site=p.site,
            coverage_ml=1 / (nx * ny),
            fixed_layers=p.n_fixed,
            relaxed=(
                "adsorbate and the top layers; molecule alone in its box"
                if p.relax
                else "nothing: single points at the built geometry"
            ),
        )
        settings = write_json(ctx, "settings.json", record, "settings", "shared settings")
        ctx.rule("consistent_settings", "slabs and molecule share cutoffs, files, smearing")
        results = []
        for i, (name, inp) in enumerate(inputs.items()):
            ctx.progress(i / len(inputs), name)
            results.append(pw_energy(ctx, p, inp, self.z_valence, name))
        attrs = {"facet": self.facet, "coverage_ml": 1 / (nx * ny)}
        table = energies_table(ctx, results, attrs, "covered slab, clean slab, molecule")
        return AdsorptionReport(p, table, settings, self.functional)


@dataclass(frozen=True)
class AdsorptionReport(Step):
    """E_ads, compared with published values."""

    params: DftAdsorptionParams
    runs: ArtifactRef
    settings: ArtifactRef
    functional: str

    @override
    def run(self, ctx: RunContext) -> Done[ProtocolResult]:
        energy, attrs = read_energies(ctx, self.runs)
        e_ads = energy["slab+molecule"][0] - energy["slab"][0] - energy["molecule"][0]
        unrelaxed = (
            energy["slab+molecule@initial"][0]
            - energy["slab@initial"][0]
            - energy["molecule@initial"][0]
        )
        p, src = self.params, self.runs.path
        coverage = float(attrs["coverage_ml"])
        values = {
            "adsorption_energy": Quantity(e_ads, "eV", source=src),
            "adsorption_energy_unrelaxed": Quantity(unrelaxed, "eV", source=src),
            "coverage": Quantity(coverage, "ML", source=src),
        }
        metal = p.structure.name
        what = f"{p.adsorbate} on {metal}({attrs['facet']}) at the {p.site} site"
        refs = [
            Reference("adsorption_energy", v, "eV", c)
            for v, c in REFERENCES.get((p.adsorbate, metal), [])
        ]
        return Done(
            report_result(
                ctx,
                title=f"DFT adsorption energy of {what}",
                summary=(
                    f"Adsorption energy of {what}, {coverage:g} ML "
                    f"({self.functional.upper()}): {e_ads:.3f} eV (unrelaxed {unrelaxed:.3f} eV)"
                ),
                values=values,
                artifacts=(self.runs, self.settings),
                references=tuple(refs),
                notes=(
                    f"bottom {p.n_fixed} layer(s) fixed; adsorbate and top layers relaxed"
                    if p.relax
                    else f"not relaxed: single points with the molecule {p.height_a:g} Å above "
                    "the ideal slab (ASE's G2 bond lengths)",
                    "no dipole correction, no zero-point energy, no dispersion correction "
                    "unless asked (vdw); published PBE values are not quoted (unverified)",
                    "GGA/LDA are known to overbind CO on Cu and Pt and can favour the wrong site "
                    "(the CO/Pt(111) puzzle: Feibelman et al., J. Phys. Chem. B 105, 4018 (2001))",
                ),
                method=(
                    "E_ads = E(slab+mol) − E(slab) − E(mol) with pw.x relaxations "
                    "(error-recovery machine), same cutoffs, files, smearing and functional; "
                    "the two slabs with one k-mesh, the molecule at Γ in a box."
                ),
            )
        )


GRAPH = Graph.build("dft_adsorption_energy", [AdsorptionRecommend, AdsorptionRun, AdsorptionReport])
_ON = re.compile(r"\b([A-Z][A-Za-z0-9]*)\s+(?:adsorbed\s+|molecule\s+)?on\b")
_SITE = (
    (re.compile(r"\bon[- ]?top\b|\btop site\b|\batop\b"), "ontop"),
    (re.compile(r"\bbridge\b"), "bridge"),
    (re.compile(r"\bhcp(?: hollow)?\b"), "hcp"),
    (re.compile(r"\bfcc(?: hollow)?\b"), "fcc"),
    (re.compile(r"\bhollow\b"), "hollow"),
)


def parse_request(text: str) -> dict[str, Any] | None:
    """Claim "adsorption energy of CO on Cu(111) with PBE" (a site, a "2x2" cell,
    "unrelaxed"); one without DFT words is left to the other protocols."""
    if not asks_adsorption(text) or not mentions_dft(text):
        return None
    named = element_symbols(text).replace("carbon monoxide", "CO")
    surface = re.search(r"\b([A-Z][a-z]?)\s*\((\d{3,4})\)", named)
    molecule = _ON.search(named)
    if surface is None or molecule is None:
        raise ParseError(
            "an adsorption energy names a molecule and a surface, e.g. 'adsorption energy "
            "of CO on Cu(111) with PBE'"
        )
    structure: dict[str, Any] = {"kind": "surface", "name": surface.group(1)}
    structure["facet"] = surface.group(2)
    cell = re.search(r"\b(\d)\s*[x×]\s*(\d)\b(?!\s*[x×])", named)
    nx, ny = (int(cell.group(1)), int(cell.group(2))) if cell else (2, 2)
    structure["size"] = (nx, ny, 3)
    raw: dict[str, Any] = {"structure": structure, "adsorbate": molecule.group(1)}
    low = named.lower()
    for rx, site in _SITE:
        if rx.search(low.replace(surface.group(0).lower(), "")):
            raw["site"] = site
            break
    if re.search(r"\bunrelaxed\b|\bwithout relax", low):
        raw["relax"] = False
    functional, hybrid = parse_functional(text)
    if hybrid is not None:
        raise ParseError(f"an adsorption energy with {hybrid.upper()} is not supported")
    if functional is not None:
        raw["functional"] = functional
    return raw


def estimate(params: DftAdsorptionParams, settings: Settings) -> Estimate:
    """The slab's estimate (three relaxations counted as SCFs), after checking that one
    functional's pseudopotentials exist for the metal and every atom of the molecule."""
    # lazy: ase.build takes ~1 s to import
    from ase.build import molecule

    dirs = (*default_pseudo_dirs(settings.home), *(Path(d) for d in params.pseudo_dirs))
    elements = [params.structure.name, *molecule(params.adsorbate).get_chemical_symbols()]
    PseudoLibrary(dirs).select(list(dict.fromkeys(elements)), params.functional)
    return pw_estimate(lambda s: 2)(params, settings)


PROTOCOL = Protocol(
    name="dft_adsorption_energy",
    title="Adsorption energy of a molecule on a slab with Quantum ESPRESSO pw.x",
    summary=__doc__ or "",
    graph=GRAPH,
    parameters=DftAdsorptionParams,
    start=lambda params: AdsorptionRecommend(params),
    examples=(
        "adsorption energy of CO on Cu(111) with PBE",
        "adsorption energy of CO on Cu(111) at the fcc hollow site with PBE",
    ),
    parse_request=parse_request,
    engines=("pw.x",),
    estimate=estimate,
    prepare=dft_inputs,
)
