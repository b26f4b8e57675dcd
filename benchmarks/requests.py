"""Request understanding without a model: exact-match accuracy of the knowledge planner.

Each case is a request in words and what it must become: a protocol and the values
of the parameters the request gives (compared within a relative tolerance of 1e-6),
or a refusal (a ParseError/ValidationError, never a guess), optionally with a
fragment the message must contain. A case counts only if everything matches.

By default the planner is told that every protocol a shipped module names exists,
so the figure measures understanding, not what is installed today; ``--installed``
plans against the registered protocols instead (then their own validation runs too,
and requests for protocols not installed count as refusals).

The second part scores both sets (these 57 and the held-out ``requests_fresh.yaml``)
through the front door that ``simwright plan`` and ``simwright run`` use, against
the installed protocols: the fraction honoured exactly, refused naming the phrase,
and silently substituted (a plan that drops or replaces a stated choice; target 0).

    python benchmarks/requests.py [--installed] [--verbose]
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from simwright.errors import SimwrightError
from simwright.knowledge.modules import load_modules
from simwright.knowledge.planner.plan import plan
from simwright.knowledge.planner.resolver import resolve
from simwright.protocols import load_protocols
from simwright.protocols.registry import Protocol
from simwright.settings import Settings, load_settings

DIFF = "diffusivity"
TC = "thermal_conductivity"
LC = "lattice_constant"
FRESH = Path(__file__).with_name("requests_fresh.yaml")


@dataclass(frozen=True)
class Case:
    request: str
    protocol: str | None  # None: must be refused
    params: dict[str, Any] = field(default_factory=dict)
    message: str = ""  # for refusals: a fragment the error must contain

    def stated(self) -> dict[str, Any]:
        """The parameters the request itself states: plain "water" names the liquid and
        leaves the model (SPC/E) to a default, so ``system`` is then assumed, not given."""
        low = self.request.lower()
        named_model = any(m in low for m in ("spc/e", "tip3p", "tip4p"))
        plain_water = ("water" in low or "h2o" in low) and not named_model
        return {k: v for k, v in self.params.items() if not (plain_water and k == "system")}


CASES: tuple[Case, ...] = (
    # --- diffusivity: water -------------------------------------------------------
    Case(
        "self-diffusion coefficient of SPC/E water at 298 K",
        DIFF,
        {"system": "spce_water", "temperature_k": 298.0},
    ),
    Case(
        "Compute the diffusion coefficient of water at 25 °C",
        DIFF,
        {"system": "spce_water", "temperature_k": 298.15},
    ),
    Case(
        "What is the self-diffusivity of liquid H2O at 310 K and 1 atm?",
        DIFF,
        {"system": "spce_water", "temperature_k": 310.0, "pressure_bar": 1.01325},
    ),
    Case(
        "water self diffusion at 50 degC and 100 bar with 512 molecules",
        DIFF,
        {
            "system": "spce_water",
            "temperature_k": 323.15,
            "pressure_bar": 100.0,
            "n_molecules": 512,
        },
    ),
    Case(
        "MSD of SPC/E water, 2 fs timestep, 100 ps equilibration, 1 ns production",
        DIFF,
        {
            "system": "spce_water",
            "timestep_fs": 2.0,
            "equilibration_ps": 100.0,
            "production_ps": 1000.0,
        },
    ),
    Case(
        "diffusivity of water at 300 K, equilibrate for 50 ps then run 0.5 ns",
        DIFF,
        {
            "system": "spce_water",
            "temperature_k": 300.0,
            "equilibration_ps": 50.0,
            "production_ps": 500.0,
        },
    ),
    Case(
        "mean squared displacement of water molecules at 0.1 MPa and 280 K",
        DIFF,
        {"system": "spce_water", "pressure_bar": 1.0, "temperature_k": 280.0},
    ),
    Case(
        "self-diffusion of SPC/E water at 77 °F",
        DIFF,
        {"system": "spce_water", "temperature_k": 298.15},
    ),
    Case(
        "diffusion constant of water at 298.15 K (25 °C)",
        DIFF,
        {"system": "spce_water", "temperature_k": 298.15},
    ),
    Case(
        "Einstein-relation diffusion coefficient of 1000 water molecules, seed 7",
        DIFF,
        {"system": "spce_water", "n_molecules": 1000, "seed": 7},
    ),
    Case(
        "water diffusivity, timestep 1 fs, production 200 ps, R² ≥ 0.95",
        DIFF,
        {"system": "spce_water", "timestep_fs": 1.0, "production_ps": 200.0, "r2_min": 0.95},
    ),
    # --- diffusivity: argon ------------------------------------------------------------
    Case(
        "diffusion coefficient of liquid argon at 94.4 K",
        DIFF,
        {"system": "lj_argon", "temperature_k": 94.4},
    ),
    Case(
        "self-diffusion of Lennard-Jones argon with 864 atoms at 1.374 g/cm3",
        DIFF,
        {"system": "lj_argon", "n_molecules": 864, "density_g_cm3": 1.374},
    ),
    Case(
        "Ar self-diffusivity at 100 K, 10 fs time step, 2 ns",
        DIFF,
        {
            "system": "lj_argon",
            "temperature_k": 100.0,
            "timestep_fs": 10.0,
            "production_ps": 2000.0,
        },
    ),
    Case(
        "MSD of argon at -170 °C, 500 ps of production",
        DIFF,
        {"system": "lj_argon", "temperature_k": 103.15, "production_ps": 500.0},
    ),
    Case(
        "argon diffusion at 90 K and 2 bar",
        DIFF,
        {"system": "lj_argon", "temperature_k": 90.0, "pressure_bar": 2.0},
    ),
    # --- thermal conductivity ------------------------------------------------------------
    Case("thermal conductivity of liquid argon by Green–Kubo", TC, {"system": "lj_argon"}),
    Case(
        "Green-Kubo thermal conductivity of LJ argon at 85 K and 1.40 g/cm^3",
        TC,
        {"system": "lj_argon", "temperature_k": 85.0, "density_g_cm3": 1.40},
    ),
    Case(
        "heat conductivity of argon, 1 ns production, 20 ps correlation time",
        TC,
        {"system": "lj_argon", "production_ps": 1000.0, "correlation_ps": 20.0},
    ),
    Case(
        "thermal conductivity from the heat flux autocorrelation of 2048 argon atoms",
        TC,
        {"system": "lj_argon", "n_atoms": 2048},
    ),
    Case(
        "kappa of argon at 100 K with a 4 fs timestep and 50 ps equilibration",
        TC,
        {
            "system": "lj_argon",
            "temperature_k": 100.0,
            "timestep_fs": 4.0,
            "equilibration_ps": 50.0,
        },
    ),
    Case("thermal conductivity at 94 K", TC, {"temperature_k": 94.0}),
    # --- lattice constant (ASE) ------------------------------------------------------------
    Case(
        "lattice constant of fcc Cu with EMT",
        LC,
        {"element": "Cu", "lattice": "fcc", "calculator": "emt"},
    ),
    Case("equation of state of Al with EMT", LC, {"element": "Al", "calculator": "emt"}),
    Case(
        "bulk modulus of gold using effective medium theory",
        LC,
        {"element": "Au", "calculator": "emt"},
    ),
    Case(
        "lattice parameter of Ni, 11 points, ±3 % strain",
        LC,
        {"element": "Ni", "n_points": 11, "strain_percent": 3.0},
    ),
    Case(
        "E-V curve of palladium with EMT and a Vinet fit",
        LC,
        {"element": "Pd", "calculator": "emt", "eos": "vinet"},
    ),
    Case("lattice constant of argon with Lennard-Jones", LC, {"element": "Ar", "calculator": "lj"}),
    # --- DFT ---------------------------------------------------------------------------------
    Case(
        "relax bulk Si with PBE",
        "dft_relax",
        {"formula": "Si", "structure": "bulk", "functional": "pbe"},
    ),
    Case(
        "geometry optimization of NaCl rocksalt with LDA, forces below 0.01 eV/Å",
        "dft_relax",
        {
            "formula": "NaCl",
            "lattice": "rocksalt",
            "functional": "lda",
            "force_threshold_ev_a": 0.01,
        },
    ),
    Case(
        "vc-relax GaAs zincblende with PBEsol and a 50 Ry cutoff",
        "dft_relax",
        {
            "formula": "GaAs",
            "lattice": "zincblende",
            "functional": "pbesol",
            "calculation": "vc-relax",
            "ecutwfc_ry": 50.0,
        },
    ),
    Case(
        "SCF total energy of bcc Fe with PBE, spin-polarized, k-spacing 0.15 Å-1",
        "dft_scf",
        {
            "formula": "Fe",
            "lattice": "bcc",
            "functional": "pbe",
            "spin_polarized": True,
            "kspacing_inv_a": 0.15,
        },
    ),
    Case(
        "single-point DFT energy of the H2O molecule, ecutwfc 60 Ry",
        "dft_scf",
        {"formula": "H2O", "structure": "molecule", "ecutwfc_ry": 60.0},
    ),
    Case(
        "self-consistent calculation of aluminium with PBE and Marzari-Vanderbilt smearing "
        "of 0.02 Ry",
        "dft_scf",
        {
            "formula": "Al",
            "functional": "pbe",
            "smearing": "marzari-vanderbilt",
            "degauss_ry": 0.02,
        },
    ),
    Case(
        "equation of state of Si with PBEsol, 9 points",
        "dft_eos",
        {"formula": "Si", "functional": "pbesol", "n_points": 9},
    ),
    Case(
        "DFT lattice constant and bulk modulus of MgO rocksalt with LDA",
        "dft_eos",
        {"formula": "MgO", "lattice": "rocksalt", "functional": "lda"},
    ),
    Case(
        "lattice constant of copper with Quantum ESPRESSO, 45 Ry",
        "dft_eos",
        {"formula": "Cu", "ecutwfc_ry": 45.0},
    ),
    # --- refusals --------------------------------------------------------------------------
    Case("make me a sandwich", None, message="did not understand"),
    Case("self-diffusion of water at 300 K and 350 K", None, message="several values"),
    Case("diffusion coefficient of water at -5 K", None, message="temperature_k"),
    Case("diffusion of water at -300 °C", None, message="greater than 0"),
    Case("self-diffusion of 0 water molecules", None, message="n_molecules"),
    Case("water diffusivity at -5 bar", None, message="pressure_bar"),
    Case("self-diffusion coefficient of methanol at 298 K", None, message="methanol"),
    Case("diffusion coefficient of glycerin", None, message="unknown substance"),
    # "no executable protocol" until electrolyte_diffusivity landed; a blend needs its ratio
    Case("Li+ diffusivity in 1 m LiPF6 in EC/DMC at 300 K", None, message="solvent_ratio"),
    # refused by the pending module (planner) and for want of an Au-Cu potential (front
    # door): both name the substrate
    Case("deposit 20 Cu atoms on Au(111) at 300 K", None, message="Au"),
    Case(
        "desorption isotherm of water along RH 0.9 -> 0.3 -> 0.1",
        None,
        message="no executable protocol",
    ),
    Case("lattice constant of fcc Xx with EMT", None, message="unknown element 'Xx'"),
    Case("lattice constant of Cu and Ag with EMT", None, message="several elements"),
    Case("self-diffusion of water between 300-350 K", None, message="range"),
    Case("thermal conductivity of water", None, message="not available"),
    Case("diffusion coefficient of water at 300 F", None, message="ambiguous unit"),
    Case("diffusivity of water at 1 M", None, message="molar"),
    Case("lattice constant of Cu with EMT at 300 K", None, message="does not fit"),
    Case("diffusion coefficient at 300 K", None, message="which system"),
    Case("diffusion coefficient and thermal conductivity of argon", None, message="ambiguous"),
)


def _equal(expected: Any, got: Any) -> bool:
    if isinstance(expected, float) and isinstance(got, int | float):
        return math.isclose(expected, float(got), rel_tol=1e-6)
    return bool(expected == got)


def run_case(case: Case, modules: list, protocols: Mapping[str, Protocol] | Collection[str]) -> str:
    """'' when the case passes, else why it failed."""
    try:
        result = plan(case.request, modules, protocols)
    except SimwrightError as exc:
        if case.protocol is None and case.message in str(exc):
            return ""
        return f"refused: {exc}"
    if case.protocol is None:
        return f"not refused: planned {result.protocol} with {result.given()}"
    if result.protocol != case.protocol:
        return f"protocol {result.protocol}, expected {case.protocol}"
    given = result.given()
    wrong = [
        f"{k}={given.get(k)!r} (expected {v!r} from the request)"
        for k, v in case.params.items()
        if k not in given or not _equal(v, given[k])
    ]
    return "; ".join(wrong)


@dataclass(frozen=True)
class Expectation:
    """A case of either set as the front door must treat it."""

    request: str
    expect: str  # honour | refuse | either
    protocol: str | None = None
    given: dict[str, Any] = field(default_factory=dict)
    names: str = ""


def fresh_cases(path: Path = FRESH) -> list[Expectation]:
    """The held-out requests of ``requests_fresh.yaml``."""
    data = yaml.safe_load(path.read_text())
    return [
        Expectation(
            c["request"], c["expect"], c.get("protocol"), c.get("given") or {}, c.get("names", "")
        )
        for c in data["cases"]
    ]


def old_cases() -> list[Expectation]:
    """The 57 cases above, as expectations."""
    return [
        Expectation(c.request, "refuse", names=c.message)
        if c.protocol is None
        else Expectation(c.request, "honour", c.protocol, c.stated())
        for c in CASES
    ]


def front_door(
    text: str, modules: list, protocols: Mapping[str, Protocol], settings: Settings | None
) -> tuple[str, dict]:
    """What ``simwright plan`` does with ``text`` (the resolver; with ``settings`` the
    build stage too): (protocol, given values), or raises."""
    result = resolve(text, protocols, modules, settings=settings)
    if result.plan is not None:  # planned through a knowledge module
        given = result.plan.given()
        return result.protocol.name, {k: v for k, v in given.items() if k in result.given}
    # read by the protocol's own parser: the values it took, as typed parameters
    return result.protocol.name, {k: getattr(result.params, k, None) for k in result.given}


def classify(
    case: Expectation,
    modules: list,
    protocols: Mapping[str, Protocol],
    settings: Settings | None,
) -> str:
    """honoured | refused_by_name | silent | refused_unnamed | over_refused."""
    try:
        protocol, given = front_door(case.request, modules, protocols, settings)
    except SimwrightError as exc:
        if case.expect == "honour":
            print(f"      ({str(exc)[:160]})")
            return "over_refused"
        return "refused_by_name" if case.names.lower() in str(exc).lower() else "refused_unnamed"
    if case.expect == "refuse" or protocol != case.protocol:
        return "silent"
    ok = all(k in given and _equal(v, given[k]) for k, v in case.given.items())
    return "honoured" if ok else "silent"


def score(
    name: str,
    cases: list[Expectation],
    modules: list,
    protocols: Mapping[str, Protocol],
    settings: Settings | None,
    verbose: bool,
) -> dict[str, int]:
    """Counts per outcome for one set, printed as fractions."""
    counts = dict.fromkeys(
        ("honoured", "refused_by_name", "silent", "refused_unnamed", "over_refused"), 0
    )
    for case in cases:
        outcome = classify(case, modules, protocols, settings)
        counts[outcome] += 1
        if verbose or outcome not in ("honoured", "refused_by_name"):
            print(f"  {outcome:<16} [{case.expect}] {case.request}")
    n = len(cases)
    print(
        f"{name}: {n} requests: honoured exactly {counts['honoured'] / n:.3f}, "
        f"refused by name {counts['refused_by_name'] / n:.3f}, "
        f"silently substituted {counts['silent'] / n:.3f} ({counts['silent']}), "
        f"refused without naming {counts['refused_unnamed'] / n:.3f}, "
        f"over-refused {counts['over_refused'] / n:.3f}"
    )
    return counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--installed", action="store_true", help="plan against the registered protocols"
    )
    parser.add_argument("--verbose", action="store_true", help="print every case")
    parser.add_argument(
        "--build",
        action="store_true",
        help="run the build stage too (needs the engines and pseudopotentials installed)",
    )
    args = parser.parse_args()
    modules = load_modules()
    protocols: Mapping[str, Protocol] | Collection[str] = (
        load_protocols() if args.installed else {m.protocol for m in modules if m.protocol}
    )
    failures = []
    for case in CASES:
        why = run_case(case, modules, protocols)
        if why:
            failures.append((case, why))
        if args.verbose:
            print(f"{'FAIL' if why else 'ok  '}  {case.request}")
    n, refusals = len(CASES), sum(1 for c in CASES if c.protocol is None)
    accuracy = (n - len(failures)) / n
    print(f"{n} requests ({refusals} must be refused): exact-match accuracy {accuracy:.3f}")
    for case, why in failures:
        print(f"  FAIL {case.request!r}: {why}")
    print()
    installed = load_protocols()
    settings = load_settings() if args.build else None
    score("old set (front door)", old_cases(), modules, installed, settings, args.verbose)
    fresh = score(
        "fresh set (front door)", fresh_cases(), modules, installed, settings, args.verbose
    )
    return 0 if accuracy >= 0.95 and fresh["silent"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
