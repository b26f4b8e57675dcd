"""The preflight estimates of the liquid protocols (one function for the four that share
a lead-in; self-diffusion and Green–Kubo thermal conductivity have their own).

Atoms from the system's molecules, MD steps from the lead-in (minimization for
flexible models, equilibration) and the production with every allowed extension
(half a production each), frames and samples from the protocol's output intervals.
"""

from __future__ import annotations

from typing import Any

from simwright.molecules import get_molecule
from simwright.protocols.estimate import Estimate, MdSegment, frames_of, md_estimate
from simwright.protocols.md_systems import MIN_FRAMES, SYSTEMS
from simwright.settings import Settings
from simwright.steps.md import MINIMIZE_STEPS, steps_for


def liquid_estimate(params: Any, settings: Settings) -> Estimate:
    """The estimate of a run of ``liquid_structure``, ``density``, ``viscosity`` or
    ``ionic_conductivity`` (any :class:`~simwright.protocols.liquids.run.LiquidRunParams`)."""
    p = params
    per_unit = sum(get_molecule(m).n_atoms for m in p.liquid.components)
    atoms = p.n_molecules * per_unit
    segments = [] if p.forcefield.rigid else [MdSegment("minimize", MINIMIZE_STEPS)]
    segments.append(MdSegment("equilibration", steps_for(p.equilibration_ps, p.timestep_fs)))
    lengths = [p.production_ps] + [p.production_ps / 2] * getattr(p, "max_extensions", 0)
    for i, length in enumerate(lengths):
        fs = length * 1000.0
        frame_interval = getattr(p, "frame_interval_fs", None)
        sample_interval = getattr(p, "sample_interval_fs", None)
        segments.append(
            MdSegment(
                "production" if i == 0 else f"extension {i}",
                steps_for(length, p.timestep_fs),
                frames=frames_of(fs, frame_interval) if frame_interval else 0,
                samples=frames_of(fs, sample_interval) if sample_interval else 0,
            )
        )
    return md_estimate(p.liquid.forcefield, atoms, tuple(segments))


def diffusivity_estimate(params: Any, settings: Settings) -> Estimate:
    """Minimization, equilibration, production and every allowed extension."""
    p = params
    system = SYSTEMS[p.system]
    atoms = p.n_molecules * get_molecule(system.molecule).n_atoms
    production_fs = p.production_ps * 1000.0
    extension_ps = p.extension_ps or p.production_ps / 2
    segments = [
        MdSegment("minimize", MINIMIZE_STEPS),
        MdSegment("equilibration", steps_for(p.equilibration_ps, p.timestep_fs)),
        MdSegment(
            "production",
            steps_for(p.production_ps, p.timestep_fs),
            frames=max(MIN_FRAMES, frames_of(production_fs, p.dump_interval_fs)),
        ),
    ]
    extension_fs = extension_ps * 1000.0
    segments += [
        MdSegment(
            f"extension {i + 1}",
            steps_for(extension_ps, p.timestep_fs),
            frames=max(MIN_FRAMES, frames_of(extension_fs, p.dump_interval_fs)),
        )
        for i in range(p.max_extensions)
    ]
    return md_estimate(system.forcefield, atoms, tuple(segments))


def thermal_conductivity_estimate(params: Any, settings: Settings) -> Estimate:
    """Minimization, equilibration and an NVE production sampling the heat current."""
    p = params
    production = steps_for(p.production_ps, p.timestep_fs)
    segments = (
        MdSegment("minimize", MINIMIZE_STEPS),
        MdSegment("equilibration", steps_for(p.equilibration_ps, p.timestep_fs)),
        MdSegment("production", production, samples=production // p.sample_every),
    )
    return md_estimate(SYSTEMS[p.system].forcefield, p.n_atoms, segments)
