"""Properties a request may ask for that no protocol computes (yet), each with what
simwright can do instead: "band structure", "phonons", "viscosity", "adsorption
energy"... The resolver refuses them by name before choosing a module, so that a
request for one never becomes a plain SCF or an unrelated module.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Property:
    """A property simwright has no protocol for, and what it can do instead."""

    name: str
    pattern: str
    instead: str
    protocols: tuple[str, ...] = ()
    """Protocols that compute the property once they are installed: a request for it
    goes to their own parsers, never to a module that computes something else."""


_DFT_INSTEAD = (
    "simwright's DFT protocols are dft_scf (total energy), dft_relax and dft_eos "
    "(lattice constant, bulk modulus)"
)
_CRYSTAL_KAPPA = (
    r"(?:lattice|phonon|crystal(?:line)?|solid)\s+thermal conductivit(?:y|ies)"
    r"|thermal conductivit(?:y|ies)\s+of\s+(?:(?:crystalline|solid|bulk|diamond|fcc|bcc)\s+)*"
    r"(?:silicon|germanium|diamond|copper|alumini?um|(?-i:(?!Ar\b)[A-Z][a-z]?\b))"
    r"|thermal conductivit(?:y|ies)(?=.*\b(?:tersoff|stillinger|sw|eam|potential)\b)"
)
"""A thermal conductivity asked of a crystal (a solid, an element other than argon, a
potential of the catalogue); a liquid's goes to the Green–Kubo ``thermal_conductivity``."""
PROPERTIES: tuple[Property, ...] = (
    # first: "phonon band structure" and "phonon DOS" are phonons, not electronic bands
    Property(
        "phonons",
        r"phonons?(?: dispersion| spectrum| band structure| density of states| dos)?",
        "phonons (finite displacements with EMT, a catalogued LAMMPS potential or an "
        "MLIP); there is no DFT phonon protocol yet: dft_scf, dft_relax, dft_eos",
        ("phonons", "dft_phonons"),
    ),
    Property(
        "diffusivity in a solid electrolyte",
        r"diffusi(?:on|vity)(?: coefficients?)? (?:of \w+ )?in (?:an? |the )?"
        r"(?:solid(?:[- ]state)? (?:electrolyte )?|crystalline )?li3n|"
        r"solid[- ]electrolyte diffusi(?:on|vity)|"
        r"diffusi(?:on|vity) in (?:an? |the )?solid[- ]electrolyte",
        "electrolyte_diffusivity (Li+ in a liquid carbonate electrolyte)",
        ("solid_electrolyte_diffusivity",),
    ),
    Property(
        "band structure", r"band[- ]?structures?|band dispersion", _DFT_INSTEAD, ("dft_bands",)
    ),
    Property("band gap", r"band[- ]?gaps?", _DFT_INSTEAD, ("dft_bands",)),
    Property(
        "density of states",
        r"(?:projected |partial )?density of states|p?dos",
        _DFT_INSTEAD,
        ("dft_dos",),
    ),
    Property(
        "cohesive energy",
        r"cohesive energy",
        "dft_scf gives the total energy of the crystal; the isolated atom's energy is "
        "a second dft_scf (molecule kind)",
        ("cohesive_energy", "dft_cohesive_energy"),
    ),
    Property("work function", r"work[- ]?functions?", _DFT_INSTEAD, ("dft_work_function",)),
    Property(
        "convergence study",
        r"convergence (?:study|test|scan)s?|(?:cutoff|k-?points?) convergence",
        "dft_scf with a stated ecutwfc and k-point spacing",
        ("dft_convergence",),
    ),
    Property(
        "vacancy formation energy",
        r"(?:mono)?vacancy formation energ(?:y|ies)|vacancy energy",
        "vacancy_formation_energy computes it with a LAMMPS potential or an ASE calculator; "
        + _DFT_INSTEAD,
        ("vacancy_formation_energy", "dft_vacancy_formation_energy"),
    ),
    Property(
        "formation energy",
        r"formation energy|(?:enthalpy|heat) of formation",
        _DFT_INSTEAD,
        ("dft_formation_energy",),
    ),
    Property(
        "surface energy",
        r"surface energ(?:y|ies)",
        "surface_energy computes low-index facets with a LAMMPS potential or an ASE "
        "calculator; " + _DFT_INSTEAD,
        ("surface_energy", "dft_surface_energy"),
    ),
    Property(
        "stacking fault energy",
        r"(?:generali[sz]ed |intrinsic |unstable )?stacking[- ]fault(?: energy| curve)?",
        "stacking_fault (fcc (111)[11-2], LAMMPS potential or ASE calculator)",
        ("stacking_fault", "dft_stacking_fault"),
    ),
    Property(
        "adsorption energy",
        r"adsorption energy|binding energy",
        "dft_scf of the slab and of the molecule separately (e.g. 'SCF of a Pt(111) slab "
        "with PBE'); adsorption isotherms are a campaign (module "
        "gcmc_adsorption_desorption_campaign)",
        ("dft_adsorption_energy",),
    ),
    Property(
        "elastic constants",
        r"elastic constants?|elastic tensor|c11|shear modulus|young'?s modulus",
        "lattice_constant and dft_eos give the bulk modulus",
        ("elastic_constants",),
    ),
    Property(
        "amorphous structure",
        r"amorphous|melt[- –]quench(?:ed|ing)?|glass(?:y)?",
        "crystalline protocols (lattice_constant, elastic_constants, thermal_expansion)",
        ("amorphous_structure",),
    ),
    Property(
        "melting point",
        r"melting (?:point|temperature)|freezing point",
        "lattice_constant (ASE) gives the 0 K lattice constant and bulk modulus",
        ("melting_point",),
    ),
    Property(
        "thermal conductivity of a crystal",
        _CRYSTAL_KAPPA,
        "thermal_conductivity (Green–Kubo) for liquid Lennard-Jones argon",
        ("crystal_thermal_conductivity",),
    ),
    Property(
        "viscosity",
        r"(?:shear |bulk )?viscosity",
        "diffusivity (self-diffusion of SPC/E water or LJ argon) and thermal_conductivity "
        "(Green–Kubo, LJ argon)",
        ("viscosity",),
    ),
    Property(
        "radial distribution function",
        r"radial distribution(?: function)?|rdf|pair correlation|structure factor",
        "diffusivity runs the liquid (its trajectory is kept for analysis)",
        ("liquid_structure",),
    ),
    Property(
        "vapour pressure",
        r"vapou?r pressure|boiling point|heat of vaporization|enthalpy of vaporization",
        "diffusivity of liquid water or argon",
    ),
    Property(
        "heat capacity",
        r"(?:isobaric )?heat capacity|specific heat",
        "thermal_conductivity (Green–Kubo, LJ argon)",
        ("liquid_thermal_properties", "thermal_expansion"),
    ),
    Property(
        "thermal expansion",
        r"(?:coefficient of )?(?:volumetric |linear )?thermal expansion(?: coefficient)?"
        r"|thermal expansivity",
        "density at two temperatures",
        ("liquid_thermal_properties", "thermal_expansion"),
    ),
    Property(
        "ionic conductivity",
        r"ionic conductivity|electrical conductivity",
        "diffusivity of SPC/E water or LJ argon",
        ("ionic_conductivity",),
    ),
    Property(
        "deposition",
        r"deposition|deposit(?:ing|ed)?|film growth",
        "none: the knowledge module metal_deposition_on_slab describes the procedure",
        ("deposition",),
    ),
    Property(
        "pore geometry",
        r"pore (?:size|diameter|volume|geometry|limiting diameter)s?|porosity"
        r"|(?:accessible |geometric |gravimetric |volumetric )?surface areas?"
        r"|largest (?:cavity|cavities|included sphere|free sphere)|void fraction"
        r"|channel dimensionality",
        "none: mof_pores measures the pores of a MOF built by PORMAKE or read from a CIF file",
        ("mof_pores",),
    ),
    Property(
        "metal-organic framework",
        r"mofs?|metal[- ]organic frameworks?|mof-5|irmof-1|hkust-1|uio-66",
        "none: mof_pores builds (PORMAKE) or reads (CIF) a MOF, relaxes it with a universal "
        "MLIP and measures its pores (Zeo++)",
        ("mof_pores",),
    ),
    Property(
        "free energy",
        r"(?:solvation |hydration |gibbs )?free energ(?:y|ies)",
        "molecule_thermochemistry (ideal-gas G of a molecule)",
        ("molecule_thermochemistry",),
    ),
    Property(
        "molecular vibrations and thermochemistry",
        r"(?:harmonic|vibrational|normal[- ]mode) (?:frequenc(?:y|ies)|analysis)"
        r"|thermochemistry|zero[- ]point (?:vibrational )?energy|zpve?",
        "none other: molecule_thermochemistry (PySCF or GFN2-xTB)",
        ("molecule_thermochemistry",),
    ),
    Property(
        "reaction energy",
        r"reaction (?:energ(?:y|ies)|enthalp(?:y|ies)|free energ(?:y|ies))|heats? of reaction"
        r"|hydride (?:ion )?affinit(?:y|ies)|carbocation stabilit(?:y|ies)",
        "none other: reaction_energy (PySCF or GFN2-xTB, every species at one level)",
        ("reaction_energy",),
    ),
    Property(
        "ring strain",
        r"ring[- ]strain(?: energ(?:y|ies))?|strain energ(?:y|ies)",
        "none other: ring_strain (homodesmotic reactions of cycloalkanes)",
        ("ring_strain",),
    ),
    Property(
        "pKa",
        r"pk_?a|acid dissociation constants?|acidity constants?",
        "none other: pka (thermodynamic cycle with implicit solvation)",
        ("pka",),
    ),
    Property(
        "electronic excitations",
        r"(?:vertical )?excitation energ(?:y|ies)|(?:uv[-/ ]?vis|electronic|absorption) "
        r"spectr(?:um|a)|λ_?max|lambda[_ ]max|solvatochromi\w*|n\s?(?:→|->|to)\s?π\*?"
        r"|n\s?(?:→|->|to)\s?pi\*?|tddft|td-dft",
        "none other: excitation_spectrum (TDDFT with PySCF)",
        ("excitation_spectrum",),
    ),
    Property(
        "reaction barrier",
        r"(?:reaction|migration|diffusion) barriers?|(?:vacancy )?migration energy",
        "vacancy_migration (climbing-image NEB of a vacancy hop, LAMMPS potential or ASE "
        "calculator); " + _DFT_INSTEAD,
        ("vacancy_migration", "dft_vacancy_migration"),
    ),
)
"""Properties a request may ask for that no protocol of the core computes, or only a
protocol named in the entry (when it is installed)."""

_PROPERTY_RX = [
    (p, re.compile(rf"(?<![\w-])(?:{p.pattern})(?![\w-])", re.IGNORECASE)) for p in PROPERTIES
]


def find_properties(text: str) -> list[tuple[Property, str]]:
    """Properties of :data:`PROPERTIES` asked for in ``text``, with the words used."""
    out = []
    for prop, rx in _PROPERTY_RX:
        m = rx.search(text)
        if m is not None:
            out.append((prop, m.group(0)))
    return out
