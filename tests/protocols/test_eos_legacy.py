"""Steps of lattice_constant and dft_eos stored before they became the shared EOS
sub-graph load under their old names and upgrade to the shared steps."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from simwright.graph import codec
from simwright.graph.step import upgraded
from simwright.protocols.dft import eos as dft_eos
from simwright.protocols.dft.energies import PwEnergies
from simwright.protocols.solids import lattice_constant
from simwright.results import ArtifactRef
from simwright.steps.energies import AseEnergies
from simwright.steps.eos import BuildCrystal, FitEOS, Report, ScanVolumes

REF = ArtifactRef("table", "steps/002-ScanVolumes/eos_scan.h5", "0" * 64)
LATTICE = lattice_constant.PROTOCOL.validate({"element": "Cu", "n_points": 7})
DFT = dft_eos.PROTOCOL.validate({"structure": {"kind": "bulk", "name": "Si"}})


def stored(old_class: str, fields: dict) -> str:
    """JSON of a step as 0.2 stored it: class path and fields."""
    return json.dumps(
        {
            "__type__": "dataclass",
            "class": old_class,
            "fields": {k: codec.encode(v) for k, v in fields.items()},
        }
    )


@pytest.mark.parametrize(
    ("old", "fields", "new"),
    [
        ("lattice_constant:BuildCrystal", {"params": LATTICE}, BuildCrystal),
        ("lattice_constant:ScanVolumes", {"params": LATTICE, "crystal": REF}, ScanVolumes),
        ("lattice_constant:FitEOS", {"params": LATTICE, "scan": REF}, FitEOS),
        (
            "lattice_constant:Report",
            {"params": LATTICE, "results": REF, "plot": REF, "scan": REF},
            Report,
        ),
        ("dft_eos:FitEOS", {"params": DFT, "scan": REF, "atoms_per_cell": 2}, FitEOS),
        ("dft_eos:EosReport", {"params": DFT, "results": REF, "plot": REF, "scan": REF}, Report),
    ],
)
def test_old_steps_upgrade_to_the_shared_ones(old: str, fields: dict, new: type) -> None:
    step = upgraded(codec.loads(stored(f"simwright.protocols.{old}", fields)))
    assert type(step) is new


def test_upgraded_lattice_steps_carry_the_plan_the_protocol_writes_today() -> None:
    fields = {"params": LATTICE, "crystal": REF}
    scan = upgraded(codec.loads(stored("simwright.protocols.lattice_constant:ScanVolumes", fields)))
    assert scan == ScanVolumes(
        AseEnergies(LATTICE.calculator_spec()), lattice_constant.eos_plan(LATTICE), REF
    )
    fit = upgraded(
        codec.loads(
            stored(
                "simwright.protocols.lattice_constant:FitEOS",
                {"params": LATTICE, "scan": REF},
            )
        )
    )
    assert isinstance(fit, FitEOS) and fit.atoms_per_cell == 4  # the conventional fcc cell


@pytest.mark.skipif(
    not Path("/usr/share/espresso/pseudo/Si.pz-vbc.UPF").is_file(),
    reason="quantum-espresso-data is needed",
)
def test_old_dft_scan_upgrades_with_pw_as_engine_and_the_template_structure() -> None:
    from simwright.dft.recommender import recommend
    from simwright.engines.espresso.pseudo_library import SYSTEM_PSEUDO_DIR, PseudoLibrary

    rec = recommend(DFT, PseudoLibrary((SYSTEM_PSEUDO_DIR,)))
    fields = {"params": DFT, "template": rec.template, "valence_electrons": rec.valence_electrons}
    step = upgraded(codec.loads(stored("simwright.protocols.dft_eos:ScanVolumes", fields)))
    assert isinstance(step, ScanVolumes) and isinstance(step.engine, PwEnergies)
    assert step.crystal == rec.template.structure
    assert step.plan == dft_eos.eos_plan(DFT)
