"""Phrases that state a choice, and properties simwright has no protocol for.

A request that says "with CHGNet", "HSE06", "in the NVE ensemble", "SG15
pseudopotentials", "antiferromagnetic" or "8x8x8 k-points" states a choice. The
resolver must apply each one (the plan shows it as *given*) or refuse naming it;
it never replaces one silently. :func:`find_stated` finds these phrases whether or
not any module knows them, so that an unknown one is refused by name instead of
dropped. Properties that are not protocols are in
:mod:`~simwright.knowledge.planner.properties`.

Some choices are fixed by a protocol's procedure rather than set by a parameter
("Green–Kubo" for ``thermal_conductivity``, NVT production for ``diffusivity``):
:data:`FIXED_BY_PROTOCOL` lists them, with the reason shown in the plan.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Literal

from simwright.knowledge.planner.anchors import anchors

Category = Literal[
    "interatomic potential",
    "functional",
    "Hubbard U",
    "dispersion correction",
    "pseudopotential family",
    "ensemble",
    "thermostat or barostat",
    "method",
    "optimizer",
    "equation of state",
    "occupations",
    "electrostatics",
    "mesh or supercell",
    "box size",
    "structure prototype",
    "magnetic order",
    "model variant",
    "phase",
    "aggregate",
    "condition",
    "correction",
    "integrator",
    "hardware",
    "solvent model",
    "confinement",
    "convergence threshold",
]


@dataclass(frozen=True)
class Term:
    """A way of stating a choice: its category, a regular expression and the value."""

    category: Category
    pattern: str
    value: str


@dataclass(frozen=True)
class Stated:
    """A phrase of the request that states a choice, where it is."""

    category: Category
    value: str
    text: str
    start: int
    end: int


def _terms(category: Category, table: dict[str, str]) -> list[Term]:
    return [Term(category, pattern, value) for value, pattern in table.items()]


TERMS: tuple[Term, ...] = (
    *_terms(
        "interatomic potential",
        {
            "chgnet": r"chgnet",
            "sevennet": r"sevennet(?:-0)?|7net(?:-0)?",
            "mace": r"mace(?:-mp(?:-0)?)?",
            "m3gnet": r"m3gnet",
            "eam": r"eam|embedded[- ]atom(?: method)?",
            "meam": r"meam",
            "tersoff": r"tersoff",
            "stillinger-weber": r"stillinger[- ]weber|sw potential",
            "reaxff": r"reaxff|reax",
            "airebo": r"airebo|rebo",
            "snap": r"snap",
            "nequip": r"nequip|allegro",
            "deepmd": r"deepmd|deep potential",
            "gap": r"gap-\d+|soap-gap",
            "charmm": r"charmm\d*",
            "amber": r"amber|gaff2?",
            "opls": r"opls(?:-aa)?",
            "trappe": r"trappe(?:-ua)?",
            "uff": r"uff|dreiding|compass|clayff",
            "tip4p": r"tip4p(?:/2005|/ice|-ew)?",
            "tip3p": r"tip3p",
            "spc": r"spc(?:/fw?|/h)?",
            "buckingham": r"buckingham|born-mayer",
            "finnis-sinclair": r"finnis[- ]sinclair|adp potential|comb3?|bop",
            "morse": r"morse potential",
            "emt": r"emt|effective medium theory",
            "lj": r"lj|lennard[- ]jones",
        },
    ),
    *_terms(
        "functional",
        {
            "pbe": r"(?:gga-)?pbe",
            "pbesol": r"pbe-?sol",
            "lda": r"lda|pz|perdew[- ]zunger",
            "hse": r"hse(?:06|03)?",
            "pbe0": r"pbe0",
            "b3lyp": r"b3lyp",
            "scan": r"r?2?scan",
            "pw91": r"pw91",
            "rpbe": r"rev-?pbe|rpbe",
            "vdw-df": r"vdw-df2?|optb88(?:-vdw)?|rvv10",
            "blyp": r"blyp",
            "hartree-fock": r"hartree[- ]fock",
        },
    ),
    *_terms("Hubbard U", {"+u": r"(?:pbe|lda|gga|dft)?\s?\+\s?u|hubbard(?: u)?"}),
    *_terms(
        "dispersion correction",
        {
            "d3": r"(?:grimme[- ])?d3(?:\(bj\)|-bj)?|grimme",
            "d2": r"(?:grimme[- ])?d2",
            "d4": r"d4",
            "ts": r"tkatchenko[- ]scheffler",
            "mbd": r"many[- ]body dispersion|mbd",
        },
    ),
    *_terms(
        "pseudopotential family",
        {
            "sg15": r"sg15",
            "sssp": r"sssp(?: efficiency| precision)?",
            "gbrv": r"gbrv",
            "pslibrary": r"pslibrary",
            "dojo": r"(?:pseudo)?dojo",
            "oncv": r"oncv(?:psp)?",
            "paw": r"paw",
            "ultrasoft": r"ultrasoft|uspp",
            "norm-conserving": r"norm[- ]conserving",
        },
    ),
    *_terms(
        "ensemble",
        {
            "nve": r"nve",
            "nvt": r"nvt",
            "npt": r"npt",
            "nph": r"nph",
            "gcmc": r"gcmc|grand[- ]canonical|[μµ]vt",
        },
    ),
    *_terms(
        "thermostat or barostat",
        {
            "nose-hoover": r"nos[ée][- ]hoover",
            "langevin": r"langevin",
            "berendsen": r"berendsen",
            "csvr": r"csvr|bussi|velocity[- ]rescal\w*",
            "andersen": r"andersen",
            "parrinello-rahman": r"parrinello[- ]rahman",
            "mttk": r"mttk",
        },
    ),
    *_terms(
        "method",
        {
            "green-kubo": r"green[- –]kubo",
            "einstein": r"einstein(?:[- ]relation)?",
            "muller-plathe": r"m[üu]ller[- ]plathe",
            "nemd": r"nemd|rnemd|non-?equilibrium(?: md| molecular dynamics)?",
            "metadynamics": r"metadynamics",
            "aimd": r"ab[- ]initio (?:md|molecular dynamics)|aimd|born[- ]oppenheimer (?:md|"
            r"molecular dynamics)|car[- ]parrinello(?: md)?|cpmd",
            "path integral": r"path[- ]integral(?: md| molecular dynamics)?|pimd",
            "umbrella": r"umbrella sampling",
            "thermodynamic integration": r"thermodynamic integration",
            "neb": r"neb|nudged elastic band",
        },
    ),
    *_terms(
        "optimizer",
        {
            "bfgs": r"l?-?bfgs",
            "fire": r"fire",
            "cg": r"conjugate[- ]gradients?",
            "damped": r"damped dynamics",
            "steepest": r"steepest descent",
        },
    ),
    *_terms(
        "equation of state",
        {
            "birchmurnaghan": r"birch[- –]murnaghan|birchmurnaghan",
            "murnaghan": r"murnaghan",
            "vinet": r"vinet|rose[- ]vinet",
            "sj": r"stabilized jellium|sjeos",
            "poirier-tarantola": r"poirier[- ]tarantola",
            "polynomial": r"(?:\w+[- ]order )?polynomial(?: fit)?",
        },
    ),
    *_terms(
        "occupations",
        {"tetrahedra": r"tetrahedr(?:on|a)(?: method)?(?: of bl[öo]chl)?"},
    ),
    *_terms(
        "electrostatics",
        {
            "pppm": r"pppm|particle[- ]particle particle[- ]mesh",
            "pme": r"pme|particle[- ]mesh ewald|smooth pme",
            "ewald": r"ewald(?: summation)?",
            "reaction field": r"reaction[- ]field",
            "wolf": r"wolf summation|damped shifted force",
        },
    ),
    *_terms(
        "mesh or supercell",
        {
            "surface cell": r"\d+\s?[x×]\s?\d+(?![\s]?[x×])(?:\s+(?:surface cell|supercell|"
            r"reconstruction|cell))?",
            "kpoint count": r"\d+\s+k-?points",
            "mesh": r"\d+\s?[x×]\s?\d+\s?[x×]\s?\d+"
            r"(?:\s+(?:monkhorst[- ]pack|k-?point|mp|grid|mesh|supercell|cell)s?)*",
            "gamma": r"gamma[- ]only|gamma[- ]point|[Γ][- ]point",
            "supercell": r"supercell",
        },
    ),
    *_terms(
        "box size",
        {"box": r"\d+(?:\.\d+)?\s?(?:Å|A|angstroms?|nm)\s+(?:cubic\s+|periodic\s+)?box"},
    ),
    *_terms(
        "structure prototype",
        {
            "rutile": r"rutile",
            "anatase": r"anatase",
            "wurtzite": r"wurtzite",
            "perovskite": r"perovskites?",
            "spinel": r"spinel",
            "corundum": r"corundum",
            "quartz": r"(?:alpha[- ]|α-)?quartz",
            "cesiumchloride": r"c(?:a)?esium chloride|cscl(?:-type)?",
            "multilayer": r"(?:bi|tri|multi|few)-?layers?",
        },
    ),
    *_terms(
        "model variant",
        {
            "flexible": r"flexible",
            "rigid": r"rigid",
            "polarizable": r"polari[sz]able",
            "coarse-grained": r"coarse[- ]grained|united[- ]atom",
        },
    ),
    *_terms(
        "phase",
        {
            "liquid": r"liquid|molten|melt",
            "amorphous": r"amorphous|glass(?:y)?",
            "aqueous": r"aqueous|solution",
            "solid": r"solid|crystalline",
            "ice": r"ice(?: i[hc])?",
            "gas": r"gas|vapou?r",
            "supercritical": r"supercritical",
        },
    ),
    *_terms(
        "aggregate",
        {
            "cluster": r"dimers?|trimers?|clusters?|nanoparticles?",
            "atom": r"(?:isolated|free|single|lone) (?:\w+ )?atom",
        },
    ),
    *_terms(
        "correction",
        {
            "yeh-hummer": r"(?:the )?yeh[- –]hummer(?: correction)?|finite[- ]size correction",
            "tail": r"tail corrections?|long[- ]range (?:dispersion )?corrections?",
        },
    ),
    *_terms(
        "integrator",
        {
            "velocity verlet": r"velocity[- ]verlet",
            "shake": r"shake|rattle",
            "respa": r"r-?respa|multiple time[- ]stepping",
            "leapfrog": r"leap[- ]?frog",
        },
    ),
    *_terms(
        "hardware",
        {
            "gpu": r"(?:on |using )?(?:an? )?gpus?|cuda",
            "precision": r"(?:double|single|mixed) precision",
            "threads": r"openmp(?: threads)?|mpi(?: ranks| processes)?",
        },
    ),
    *_terms(
        "solvent model",
        {"implicit": r"implicit solv\w*|continuum solv\w*|pcm|cosmo"},
    ),
    *_terms(
        "confinement",
        {
            "confined": r"confine(?:d|ment)|nano-?tubes?|nano-?pores?|slit[- ]pores?|"
            r"slab geometry|interfaces?|droplets?",
        },
    ),
    *_terms(
        "convergence threshold",
        {
            "conv_thr": r"(?:energy|scf|electronic|total[- ]energy) (?:convergence )?"
            r"(?:threshold|tolerance|criterion)|e?t?o?t?_?conv_thr|convergence "
            r"(?:threshold|criterion|tolerance)",
        },
    ),
    *_terms(
        "condition",
        {
            "triple point": r"(?:its |the )?triple point",
            "critical point": r"(?:its |the )?critical point",
        },
    ),
    *_terms(
        "magnetic order",
        {
            "antiferromagnetic": r"anti-?ferromagnet\w*|afm",
            "ferrimagnetic": r"ferrimagnet\w*",
            "paramagnetic": r"paramagnet\w*",
            "noncollinear": r"non-?collinear",
            "spin-orbit": r"spin[- ]orbit(?: coupling)?|soc",
        },
    ),
)
"""Everything a request may state as a choice, known to a module or not."""


_ANCHORS = [(t, anchors(t.pattern)) for t in TERMS]
"""Each term with the literals one of which its every match contains (None: any text)."""


@cache
def _compiled(pattern: str) -> re.Pattern[str]:
    """A term's pattern as a whole phrase, compiled on first use."""
    return re.compile(rf"(?<![\w+/-])(?:{pattern})(?![\w/])", re.IGNORECASE)


def find_stated(text: str) -> list[Stated]:
    """The choice phrases of ``text``, longest first where they overlap, in text order.

    A term whose anchors (:mod:`.anchors`) do not occur in ``text`` cannot match and is
    skipped without compiling its pattern."""
    low = text.lower()
    hits: list[Stated] = []
    for term, needles in _ANCHORS:
        if needles is not None and not any(n in low for n in needles):
            continue
        for m in _compiled(term.pattern).finditer(text):
            if m.group(0).strip():
                hits.append(Stated(term.category, term.value, m.group(0), m.start(), m.end()))
    hits.sort(key=lambda s: (-(s.end - s.start), s.start))
    kept: list[Stated] = []
    for s in hits:
        if all(s.end <= k.start or k.end <= s.start for k in kept):
            kept.append(s)
    return sorted(kept, key=lambda s: s.start)


FIXED_BY_PROTOCOL: dict[str, dict[str, str]] = {
    "diffusivity": {
        "yeh-hummer": "the report gives the Yeh–Hummer corrected value beside the raw one",
        "velocity verlet": "LAMMPS integrates with velocity Verlet",
        "shake": "SPC/E water is kept rigid with SHAKE",
        "liquid": "the protocol simulates the liquid",
        "rigid": "SPC/E water is rigid (SHAKE)",
        "pppm": "SPC/E water's electrostatics are PPPM",
        "einstein": "the protocol fits the Einstein relation to the MSD",
        "npt": "equilibration is NPT when a pressure is set",
        "nvt": "production is NVT (and equilibration at a fixed density)",
        "nose-hoover": "LAMMPS fix nvt/npt are Nosé–Hoover",
        "lj": "argon is the Lennard-Jones fluid of Rahman (1964)",
    },
    "phonons": {
        "mesh": "the phonons parser reads an n×n×n supercell and an n×n×n q mesh into its "
        "parameters and refuses any other mesh",
        "solid": "a bulk crystal",
    },
    "solid_electrolyte_diffusivity": {
        "solid": "the protocol simulates a crystalline solid electrolyte",
        "nvt": "every temperature runs NVT (Bussi thermostat)",
        "einstein": "the protocol fits the Einstein relation to the Li MSD",
    },
    "dft_relax": {"bfgs": "pw.x relaxes with BFGS", "solid": "a bulk crystal"},
    "dft_scf": {"solid": "a bulk crystal"},
    "dft_eos": {"bfgs": "pw.x relaxes with BFGS", "solid": "a bulk crystal"},
    "thermal_conductivity": {
        "velocity verlet": "LAMMPS integrates with velocity Verlet",
        "liquid": "the protocol simulates the liquid",
        "green-kubo": "the protocol integrates the heat-flux autocorrelation (Green–Kubo)",
        "nve": "production is NVE",
        "nvt": "equilibration is NVT",
        "nose-hoover": "equilibration uses LAMMPS fix nvt (Nosé–Hoover)",
        "lj": "argon is a Lennard-Jones fluid",
    },
    **{
        name: {
            "liquid": "the protocol simulates the liquid (or the melt)",
            "velocity verlet": "LAMMPS integrates with velocity Verlet",
            "nose-hoover": "LAMMPS fix nvt/npt are Nosé–Hoover",
            "shake": "the water models are kept rigid with SHAKE",
            "rigid": "the water models are rigid (SHAKE)",
            "pppm": "charged systems use PPPM electrostatics",
            "lj": "argon is the Lennard-Jones fluid of Rahman (1964)",
        }
        for name in (
            "liquid_structure",
            "density",
            "viscosity",
            "ionic_conductivity",
            "liquid_thermal_properties",
        )
    },
}
FIXED_BY_PROTOCOL["density"]["npt"] = "the density is sampled at constant pressure (NPT)"
FIXED_BY_PROTOCOL["viscosity"]["green-kubo"] = (
    "the protocol integrates the traceless stress autocorrelation (Green–Kubo)"
)
FIXED_BY_PROTOCOL["viscosity"]["nvt"] = "production is NVT"
FIXED_BY_PROTOCOL["ionic_conductivity"]["einstein"] = (
    "the protocol fits the Einstein–Helfand relation to the charge displacement"
)
FIXED_BY_PROTOCOL["ionic_conductivity"]["nvt"] = "production is NVT"
FIXED_BY_PROTOCOL["liquid_structure"]["nvt"] = "production is NVT"
FIXED_BY_PROTOCOL["liquid_thermal_properties"]["npt"] = "the scan runs at constant pressure"
FIXED_BY_PROTOCOL["dft_vacancy_formation_energy"] = {
    "mesh": "an 'N×N×N supercell' is read as the supercell repeats",
    "bfgs": "pw.x relaxes with BFGS",
    "solid": "a bulk crystal",
}
FIXED_BY_PROTOCOL["dft_adsorption_energy"] = {
    "surface cell": "an 'N×M' cell is read as the surface cell (coverage 1/(N·M) ML)",
    "bfgs": "pw.x relaxes with BFGS",
}
for _name in (
    "molecule_thermochemistry",
    "reaction_energy",
    "ring_strain",
    "pka",
    "excitation_spectrum",
):
    FIXED_BY_PROTOCOL[_name] = {
        "implicit": "a named solvent is an implicit continuum (PCM or ddCOSMO in PySCF, ALPB "
        "in xTB); the model named is taken as `solvent_model` and checked against the method",
        "aqueous": "'aqueous' is read as the solvent water (implicit continuum)",
        "gas": "molecules are isolated (ideal gas) unless a solvent is named",
    }
FIXED_BY_PROTOCOL["amorphous_structure"] = {
    "amorphous": "the protocol makes an amorphous solid by melt–quench",
    "liquid": "the crystal is melted, then quenched",
    "npt": "melt, quench, anneal and production run at zero pressure (NPT)",
    "nose-hoover": "LAMMPS fix npt is Nosé–Hoover",
    "velocity verlet": "LAMMPS integrates with velocity Verlet",
}
"""Choices a protocol makes by its procedure: stating them is honoured, not refused."""


def fixed_reason(protocol: str, value: str) -> str | None:
    """Why ``protocol`` honours the stated ``value`` by construction, or None."""
    return FIXED_BY_PROTOCOL.get(protocol, {}).get(value)
