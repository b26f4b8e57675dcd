"""The DFT protocols: which requests they claim, and runs end to end through the Runner
with a real SQLite store and real pw.x (dft_scf, dft_relax, dft_eos)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from simwright.errors import ParseError
from simwright.graph import Runner
from simwright.knowledge.planner.resolver import resolve_request
from simwright.protocols.dft import eos as dft_eos
from simwright.protocols.dft import relax as dft_relax
from simwright.protocols.dft import scf as dft_scf
from simwright.protocols.solids import lattice_constant
from simwright.settings import Settings
from simwright.store import Store

PROTOCOLS = {
    p.name: p
    for p in (lattice_constant.PROTOCOL, dft_scf.PROTOCOL, dft_relax.PROTOCOL, dft_eos.PROTOCOL)
}
needs_pw = pytest.mark.skipif(
    shutil.which("pw.x") is None or not Path("/usr/share/espresso/pseudo/Si.pz-vbc.UPF").is_file(),
    reason="pw.x and quantum-espresso-data are needed",
)
CHEAP = {"kspacing_inv_a": 0.5, "ecutwfc_ry": 16.0, "functional": "lda"}


CLAIMS = [
    ("lattice constant of Si with PBE", "dft_eos"),
    ("equation of state of Cu with DFT", "dft_eos"),
    ("lattice constant of fcc Cu with EMT", "lattice_constant"),
    ("relax bulk Si with PBE", "dft_relax"),
    ("vc-relax of MgO", "dft_relax"),
    ("SCF of an Al fcc crystal", "dft_scf"),
    ("CO molecule with PBE", "dft_scf"),
    ("Cu(111) slab with PBE", "dft_scf"),
    ("run pw.x on bulk Ge", "dft_scf"),
]


@pytest.mark.parametrize(("text", "protocol"), CLAIMS)
def test_each_request_is_claimed_by_exactly_one_parse_request(text: str, protocol: str) -> None:
    claims = [p.name for p in PROTOCOLS.values() if p.parse_request(text) is not None]
    assert claims == [protocol]
    raw = PROTOCOLS[protocol].parse_request(text)
    assert raw is not None
    PROTOCOLS[protocol].validate(raw)


@pytest.mark.parametrize(("text", "protocol"), CLAIMS[:3])
def test_resolve_request_sends_dft_lattice_constants_to_dft_eos(text: str, protocol: str) -> None:
    assert resolve_request(text, PROTOCOLS).protocol.name == protocol


def test_flat_parameters_of_the_knowledge_modules_are_accepted() -> None:
    p = dft_relax.PROTOCOL.validate(
        {
            "formula": "Cu",
            "structure": "slab",
            "calculation": "relax",
            "smearing": "gaussian",
            "degauss_ry": 0.01,
            "spin_polarized": False,
            "force_threshold_ev_a": 0.05,
        }
    )
    assert p.structure.kind == "surface" and p.structure.name == "Cu"
    assert p.smearing_ry == 0.01 and p.spin is False


def test_requests_that_cannot_be_served_are_refused() -> None:
    with pytest.raises(ParseError, match="bulk crystal"):
        dft_eos.parse_request("lattice constant of a CO molecule with PBE")
    assert dft_scf.parse_request("lattice constant of fcc Cu with EMT") is None
    assert dft_relax.parse_request("SCF of Si with PBE") is None


def test_parameters_are_typed_per_protocol() -> None:
    scf = dft_scf.PROTOCOL.validate({"structure": {"kind": "bulk", "name": "Si"}})
    assert scf.calculation == "scf"
    with pytest.raises(Exception, match="calculation"):
        dft_scf.PROTOCOL.validate(
            {"structure": {"kind": "bulk", "name": "Si"}, "calculation": "relax"}
        )
    with pytest.raises(Exception, match="bulk crystal"):
        dft_eos.PROTOCOL.validate({"structure": {"kind": "molecule", "name": "CO"}})


def run_protocol(protocol, raw: dict, store: Store, settings: Settings):
    params = protocol.validate(raw)
    return Runner(store, settings).start(
        protocol.graph,
        protocol.first_step(params),
        protocol=protocol.name,
        params=params,
        request="test",
    )


@needs_pw
def test_dft_scf_of_a_metal_end_to_end(store: Store, settings: Settings) -> None:
    out = run_protocol(
        dft_scf.PROTOCOL, {"structure": {"kind": "bulk", "name": "Al"}, **CHEAP}, store, settings
    )
    assert out.status == "completed", out.error
    values = out.result.as_dict()["values"]
    assert values["energy"]["unit"] == "eV" and values["fermi_energy"]["unit"] == "eV"
    assert values["pressure"]["unit"] == "bar" and values["pw_runs"]["value"] == 1
    assert values["energy"]["source"].endswith("pw_summary.h5")
    assert all((out.run_dir / a["path"]).is_file() for a in out.result.as_dict()["artifacts"])
    calls = store.engine_calls(out.run_id)
    assert [c.engine for c in calls] == ["espresso"] and calls[0].exit_code == 0
    events = store.events(out.run_id)
    assert any(e.kind == "assumed" and "lattice constant" in e.message for e in events)
    assert [e.message.split(":")[0] for e in events if e.kind == "dft_transition"][-1] == (
        "run -> success"
    )
    steps = store.steps(out.run_id)
    assert [s.name for s in steps] == ["Recommend", "RunPw", "Report"]
    assert steps[1].decided_by == "rule:dft_recovery:zero_shot"


@needs_pw
def test_dft_relax_repairs_and_records_every_attempt(store: Store, settings: Settings) -> None:
    raw = {
        "structure": {"kind": "bulk", "name": "Si"},
        "calculation": "relax",
        "rattle_a": 0.05,
        "overrides": {"control": {"nstep": 1}},
        **CHEAP,
    }
    out = run_protocol(dft_relax.PROTOCOL, raw, store, settings)
    assert out.status == "completed", out.error
    assert out.result.values["pw_runs"].value == 2
    assert "relax_restart" in out.result.summary
    calls = store.engine_calls(out.run_id)
    assert [c.exit_code for c in calls] == [3, 0]
    recovery = json.loads((out.run_dir / "steps/002-RunPw/recovery.json").read_text())
    assert recovery["repairs"] == ["relax_restart"] and not recovery["zero_shot"]
    assert store.steps(out.run_id)[1].decided_by == "rule:dft_recovery:relax_restart"


@needs_pw
def test_dft_relax_failure_is_recorded_with_the_crash(store: Store, settings: Settings) -> None:
    raw = {
        "structure": {"kind": "bulk", "name": "Si"},
        "calculation": "vc-relax",
        "overrides": {"control": {"calculation": "nscf"}},
        **CHEAP,
    }
    out = run_protocol(dft_relax.PROTOCOL, raw, store, settings)
    assert out.status == "failed" and "reading xml file" in (out.error or "")
    [call] = store.engine_calls(out.run_id)
    assert call.exit_code == 1 and "--- CRASH ---" in call.stderr_tail


def test_missing_pseudopotential_fails_the_run_naming_directories(
    store: Store, settings: Settings
) -> None:
    raw = {"structure": {"kind": "bulk", "name": "Si"}, "pseudopotentials": {"Si": "nope.UPF"}}
    out = run_protocol(dft_scf.PROTOCOL, raw, store, settings)
    assert out.status == "failed"
    assert "nope.UPF" in (out.error or "") and str(settings.home / "pseudo") in (out.error or "")


@needs_pw
def test_dft_eos_gives_a_lattice_constant_near_experiment(store: Store, settings: Settings) -> None:
    raw = {"structure": {"kind": "bulk", "name": "Si"}, "n_points": 5, **CHEAP}
    out = run_protocol(dft_eos.PROTOCOL, raw, store, settings)
    assert out.status == "completed", out.error
    a0 = out.result.values["lattice_constant"]
    assert a0.unit == "Å" and a0.value == pytest.approx(5.431, rel=0.02)
    assert out.result.references[0].value == 5.431
    assert len(store.engine_calls(out.run_id)) == 5
    assert 60 < out.result.values["bulk_modulus"].value < 130


@needs_pw
def test_steps_survive_the_store_codec_for_resume() -> None:
    from simwright.dft.recommender import recommend
    from simwright.engines.espresso.pseudo_library import SYSTEM_PSEUDO_DIR, PseudoLibrary
    from simwright.graph import codec
    from simwright.protocols.dft.common import RunPw

    params = dft_scf.PROTOCOL.validate({"structure": {"kind": "bulk", "name": "Fe"}})
    rec = recommend(params, PseudoLibrary((SYSTEM_PSEUDO_DIR,)))
    step = RunPw(params, rec.template, rec.valence_electrons)
    back = codec.loads(codec.dumps(step))
    assert back == step and type(back.params) is dft_scf.DftScfParams
