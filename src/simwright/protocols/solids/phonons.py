"""Protocol ``phonons``: harmonic phonons of a cubic crystal by finite displacements.

Relax the lattice constant (an equation-of-state scan, as ``lattice_constant`` does),
build an n×n×n supercell of the conventional cell (n stated in the report; default
3: 108 atoms for fcc), let phonopy (Togo, Scr. Mater. 108, 1 (2015)) displace the
symmetry-distinct atoms by 0.01 Å, compute the forces on every displaced supercell
with the chosen engine (EMT, a catalogued LAMMPS potential, a universal MLIP), and
from the force constants give: the dispersion along the standard path of the
Brillouin zone (seekpath; Hinuma et al., Comput. Mater. Sci. 128, 140 (2017)), the
phonon DOS on a Γ-centred mesh, the harmonic free energy, entropy and C_v(T) per
atom, the frequencies at each labelled point, and a plot of bands and DOS.
Imaginary modes (negative frequencies in phonopy's convention) are flagged with a
warning in the summary. A DFT phonon protocol would be a separate protocol
(``dft_phonons``, not yet written) reached through the same "phonons" property.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import numpy as np
from pydantic import ConfigDict, Field
from typing_extensions import override

from simwright.analysis.phonons import (
    PhononResults,
    analyse,
    displaced_supercells,
    imaginary,
    load_phonopy,
    phonon_plot,
    save_phonopy,
    thz_to_mev,
)
from simwright.contract import SCHEMA_VERSION, Column, Table, read_structure, write_table
from simwright.errors import ParseError
from simwright.graph import Done, Graph, RunContext, Step
from simwright.protocols.estimate import Estimate
from simwright.protocols.registry import Protocol
from simwright.protocols.solids import sizing
from simwright.protocols.solids.engine import SolidEngineParams, solid_request
from simwright.protocols.solids.inputs import crystal_inputs
from simwright.protocols.solids.phonon_refs import experiment_frequencies
from simwright.results import ArtifactRef, ProtocolResult, Quantity
from simwright.settings import Settings
from simwright.steps.eos import StrainScan
from simwright.steps.lattice import LatticeFit, relax_lattice
from simwright.steps.report import report_result


class PhononsParams(SolidEngineParams):
    """Typed parameters of ``phonons`` (engine fields from
    :class:`~simwright.protocols.solids.engine.SolidEngineParams`)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    supercell: int = Field(
        3, ge=1, le=8, description="n of the n×n×n supercell of the conventional cubic cell"
    )
    displacement_a: float = Field(0.01, gt=0, le=0.1, description="atomic displacement (Å)")
    mesh: int = Field(20, ge=2, le=80, description="Γ-centred q mesh (n³) for the DOS")
    band_points: int = Field(51, ge=5, le=501, description="q-points per path segment")
    t_max_k: float = Field(1000.0, gt=0, le=5000, description="highest temperature (K)")
    t_step_k: float = Field(10.0, gt=0, description="temperature step (K)")
    imaginary_tolerance_thz: float = Field(
        0.05, ge=0, description="frequencies below minus this (THz) count as imaginary"
    )
    eos_strain_percent: float = Field(3.0, gt=0, le=20, description="± range of the EOS scan")
    eos_points: int = Field(7, ge=5, le=101)

    def temperatures(self) -> np.ndarray:
        """0 K to ``t_max_k`` in steps of ``t_step_k`` (300 K always included)."""
        grid = np.arange(0.0, self.t_max_k + self.t_step_k / 2, self.t_step_k)
        return np.unique(np.append(grid, 300.0))

    def atoms_in_supercell(self) -> int:
        """Atoms of the supercell (conventional cell × n³)."""
        return sizing.ATOMS_PER_CELL[self.resolved_lattice()] * self.supercell**3


@dataclass(frozen=True)
class RelaxCrystal(Step):
    """Relax the lattice constant by an equation-of-state scan."""

    params: PhononsParams

    @override
    def run(self, ctx: RunContext) -> DisplacedForces:
        p = self.params
        scan = StrainScan(p.eos_strain_percent, p.eos_points)
        return DisplacedForces(
            p, relax_lattice(ctx, p.crystal(), p.engine(), scan, "birchmurnaghan")
        )


@dataclass(frozen=True)
class DisplacedForces(Step):
    """Forces on each displaced supercell, kept with the displacements in phonopy's file."""

    params: PhononsParams
    fit: LatticeFit

    @override
    def run(self, ctx: RunContext) -> PhononReport:
        p = self.params
        crystal = read_structure(ctx.path(self.fit.relaxed))
        n = p.supercell
        ph, cells = displaced_supercells(crystal, (n, n, n), p.displacement_a)
        out = p.engine().points(ctx, cells, relax_ions=False)
        path = save_phonopy(ph, out.forces_ev_a, ctx.workdir / "phonopy_params.yaml")
        data = ctx.artifact(
            path,
            "phonopy",
            f"phonopy displacements and forces: {n}×{n}×{n} supercell of {len(cells[0])} "
            f"atoms, {len(cells)} displacement(s) of {p.displacement_a} Å, {p.engine_name()}",
        )
        return PhononReport(p, self.fit, data, len(cells), len(cells[0]))


@dataclass(frozen=True)
class PhononReport(Step):
    """Force constants, dispersion, DOS, thermodynamics, plots and the report."""

    params: PhononsParams
    fit: LatticeFit
    data: ArtifactRef
    displacements: int
    supercell_atoms: int

    @override
    def run(self, ctx: RunContext) -> Done[ProtocolResult]:
        p = self.params
        ph = load_phonopy(ctx.path(self.data))
        res = analyse(ph, mesh=p.mesh, npoints=p.band_points, temperatures_k=p.temperatures())
        title = f"{p.element} ({p.engine_name()}, {p.supercell}³ supercell)"
        artifacts = (
            _table(ctx, "phonon_bands", _band_columns(res), f"phonon dispersion of {title}"),
            _table(ctx, "phonon_dos", _dos_columns(res), f"phonon DOS of {title}"),
            _table(
                ctx, "phonon_thermal", _thermal_columns(res), f"harmonic thermodynamics, {title}"
            ),
            ctx.artifact(
                phonon_plot(ctx.workdir / "phonons.png", res, title), "plot", "bands and DOS"
            ),
            self.data,
        )
        values = _values(res, artifacts[2].path, artifacts[0].path)
        values["lattice_constant"] = Quantity(self.fit.a0_a, "Å", source=self.fit.results.path)
        return Done(
            report_result(
                ctx,
                title=f"Phonons of {p.element}",
                summary=_summary(p, res),
                values=values,
                method=_method(p, self.displacements, self.supercell_atoms, res),
                artifacts=(*artifacts, self.fit.results, self.fit.plot),
                references=experiment_frequencies(p.element),
                notes=_notes(p, res),
            )
        )


def _table(ctx: RunContext, name: str, columns: tuple[Column, ...], what: str) -> ArtifactRef:
    table = Table(name=name, columns=columns, description=what, producer=ctx.producer)
    path = write_table(ctx.workdir / f"{name}.h5", table)
    return ctx.artifact(path, "table", what, SCHEMA_VERSION)


def _band_columns(res: PhononResults) -> tuple[Column, ...]:
    disp = res.dispersion
    return (
        Column("distance", disp.distances, "1/Å", "distance along the path"),
        Column("segment", disp.segment.astype(float), "1", "path segment index"),
        *(
            Column(f"band_{i + 1}", disp.frequencies[:, i], "THz")
            for i in range(disp.frequencies.shape[1])
        ),
    )


def _dos_columns(res: PhononResults) -> tuple[Column, ...]:
    return (
        Column("frequency", res.dos_frequencies_thz, "THz"),
        Column("dos", res.dos_states_per_thz, "1/THz", "states per THz per primitive cell"),
    )


def _thermal_columns(res: PhononResults) -> tuple[Column, ...]:
    th = res.thermal
    return (
        Column("temperature", th.temperatures_k, "K"),
        Column("free_energy", th.free_energy_ev, "eV", "harmonic Helmholtz energy per atom"),
        Column("entropy", th.entropy_kb, "k_B", "per atom"),
        Column("heat_capacity_v", th.cv_kb, "k_B", "C_v per atom"),
    )


def _values(res: PhononResults, thermal: str, bands: str) -> dict[str, Quantity]:
    f300, s300, cv300 = res.thermal.at(300.0)
    gamma_acoustic = float(np.max(np.abs(res.gamma_thz[:3])))
    values = {
        "max_frequency": Quantity(float(res.dispersion.frequencies.max()), "THz", source=bands),
        "min_frequency": Quantity(res.min_thz, "THz", source=bands),
        "gamma_acoustic_max": Quantity(gamma_acoustic, "THz", source=bands),
        "zero_point_energy": Quantity(
            1000 * float(res.thermal.free_energy_ev[0]), "meV", source=thermal
        ),
        "free_energy_300K": Quantity(1000 * f300, "meV", source=thermal),
        "entropy_300K": Quantity(s300, "k_B", source=thermal),
        "cv_300K": Quantity(cv300, "k_B", source=thermal),
    }
    if res.atoms_primitive > 1:
        values["gamma_max"] = Quantity(float(res.gamma_thz[-1]), "THz", source=bands)
    for label, _, freqs in res.dispersion.points:
        if label == "Γ":
            continue
        values[f"frequency_{label}_min"] = Quantity(freqs[0], "THz", source=bands)
        values[f"frequency_{label}_max"] = Quantity(freqs[-1], "THz", source=bands)
    return values


def _summary(p: PhononsParams, res: PhononResults) -> str:
    f300, s300, cv300 = res.thermal.at(300.0)
    text = (
        f"{p.element} ({p.engine_name()}, {p.supercell}×{p.supercell}×{p.supercell} supercell): "
        f"highest frequency {res.dispersion.frequencies.max():.2f} THz; at 300 K "
        f"F = {1000 * f300:.1f} meV/atom, S = {s300:.2f} k_B, C_v = {cv300:.2f} k_B per atom"
    )
    if imaginary(res, p.imaginary_tolerance_thz):
        text = f"WARNING: imaginary modes (lowest {res.min_thz:.2f} THz). " + text
    return text


def _method(p: PhononsParams, displacements: int, atoms: int, res: PhononResults) -> str:
    n = p.supercell
    return (
        f"Lattice constant from a Birch–Murnaghan fit ({p.eos_points} points within "
        f"±{p.eos_strain_percent} %). Finite displacements of {p.displacement_a} Å with "
        f"phonopy in a {n}×{n}×{n} supercell of the conventional cell ({atoms} atoms; the "
        f"primitive cell has {res.atoms_primitive}); {displacements} symmetry-distinct "
        f"displacement(s); forces from {p.engine().describe()}; force constants "
        "symmetrised. Dispersion along the seekpath standard path "
        f"({' – '.join(res.dispersion.labels)}), {p.band_points} points per segment; DOS "
        f"and harmonic thermodynamics on a Γ-centred {p.mesh}³ mesh (Γ acoustic modes left "
        "out of the sums); per atom."
    )


def _notes(p: PhononsParams, res: PhononResults) -> list[str]:
    notes = [
        "Frequencies at the labelled points (THz): "
        + "; ".join(
            f"{label}: {', '.join(f'{f:.2f}' for f in freqs)}"
            for label, _, freqs in res.dispersion.points
        ),
        f"Acoustic modes at Γ: {', '.join(f'{f:.1e}' for f in res.gamma_thz[:3])} THz "
        "(zero by the acoustic sum rule).",
        f"Highest frequency {res.dispersion.frequencies.max():.2f} THz = "
        f"{thz_to_mev(float(res.dispersion.frequencies.max())):.1f} meV.",
        "Harmonic: no thermal expansion (quasi-harmonic) or anharmonicity; experiment is "
        "at finite temperature.",
        f"Force constants beyond half the supercell ({p.supercell} conventional cells) are "
        "cut; enlarge the supercell to check convergence.",
        p.validation_note(),
    ]
    if imaginary(res, p.imaginary_tolerance_thz):
        q = ", ".join(f"{x:.3f}" for x in res.min_q)
        notes.insert(
            0,
            f"WARNING: imaginary modes: the lowest frequency is {res.min_thz:.3f} THz "
            f"(q = {q}; nan: on the band path) below −{p.imaginary_tolerance_thz} THz. "
            "The crystal is dynamically unstable with this engine, not at its equilibrium "
            "lattice, or the supercell is too small; the thermodynamics leave those modes out.",
        )
    return notes


GRAPH = Graph.build("phonons", [RelaxCrystal, DisplacedForces, PhononReport])

_TRIGGER = re.compile(
    r"\bphonons?\b|\bvibrational (?:spectrum|density of states|free energy)|\bdynamical matrix"
)
_MESH = re.compile(r"\b(\d+)\s*[x×]\s*(\d+)\s*[x×]\s*(\d+)(?:\s+([\w-]+)(?:\s+(mesh|grid))?)?")


def parse_request(text: str) -> dict[str, Any] | None:
    """Parameters from 'phonons of Cu with the Mishin EAM potential in a 3x3x3 supercell'."""
    raw = solid_request(text, _TRIGGER, "phonons of Cu with the Mishin EAM potential")
    if raw is None:
        return None
    for m in _MESH.finditer(text.lower()):
        sizes = {int(g) for g in m.groups()[:3]}
        what = m.group(4) or ""
        key = "supercell" if what == "supercell" else "mesh" if what in ("q", "q-point") else ""
        if not key or (key == "mesh" and not m.group(5)):
            raise ParseError(
                f"{m.group(0)!r}: the phonons protocol reads an n×n×n supercell or an "
                "n×n×n q mesh ('3x3x3 supercell', '20x20x20 q mesh'), nothing else"
            )
        if len(sizes) != 1:
            raise ParseError(f"{m.group(0)!r}: the phonons protocol takes n×n×n only")
        raw[key] = sizes.pop()
    return raw


def start(p: PhononsParams) -> RelaxCrystal:
    """The first step."""
    return RelaxCrystal(p)


def estimate(params: Any, settings: Settings) -> Estimate:
    """The EOS scan plus one or two displaced supercells."""
    p: PhononsParams = params
    base = sizing.solid_estimate(p, p.eos_points + 2, "EOS scan and displaced supercells")
    scale = p.supercell**3
    return Estimate(
        atoms=p.atoms_in_supercell(),
        engine_calls=base.engine_calls,
        output_bytes=base.output_bytes + 2_000_000,
        core_hours=base.core_hours * scale,
        longest_call_core_s=base.longest_call_core_s * scale,
        basis=(*base.basis, f"displaced supercells {scale}× the conventional cell"),
    )


PROTOCOL = Protocol(
    name="phonons",
    title="Phonon dispersion, DOS and harmonic thermodynamics by finite displacements",
    summary=__doc__ or "",
    graph=GRAPH,
    parameters=PhononsParams,
    start=start,
    examples=(
        "phonons of Cu with EMT",
        "phonon dispersion of Cu with the Mishin EAM potential",
        "phonons of Si with Tersoff in a 2x2x2 supercell",
    ),
    parse_request=parse_request,
    check=sizing.check_lattice_constant,
    estimate=estimate,
    prepare=crystal_inputs,
)
