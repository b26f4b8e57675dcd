"""``simwright export``: a real tiny run in PROV-JSON and RO-Crate, read back with the
``prov`` and ``rocrate`` packages' own readers and compared with the store."""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from prov.model import ProvActivity, ProvAgent, ProvDocument, ProvEntity, ProvGeneration, ProvUsage
from rocrate.rocrate import ROCrate
from typer.testing import CliRunner

from simwright.cli.main import app
from simwright.settings import settings_at
from simwright.store.reading import RunReader, open_reader


class Cli:
    """The command line on one home, run from a working folder of the test."""

    def __init__(self, home: Path, cwd: Path) -> None:
        self.runner = CliRunner()
        self.env = {"SIMWRIGHT_HOME": str(home)}
        self.home, self.cwd = home, cwd

    def __call__(self, *args: str) -> tuple[int, dict[str, Any], str]:
        result = self.runner.invoke(app, [*args, "--json"], env=self.env)
        return result.exit_code, json.loads(result.stdout), result.stderr

    @contextlib.contextmanager
    def reader(self) -> Iterator[RunReader]:
        reader = open_reader(settings_at(self.home).db_url)
        try:
            yield reader
        finally:
            reader.close()


def _run(tmp: Path) -> tuple[Cli, str, Path]:
    cli = Cli(tmp / "home", tmp)
    code, run, _ = cli("run", "lattice constant of fcc Cu with EMT")
    assert code == 0, run
    return cli, run["run_id"], Path(run["run_dir"])


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Cli, str, Path]:
    return _run(tmp_path_factory.mktemp("export"))


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _attr(record: Any, name: str) -> Any:
    values = [v for k, v in record.attributes if k.localpart == name]
    return values[0] if values else None


def test_prov_json_reads_back_with_the_runs_activities_entities_and_agents(tiny_run) -> None:
    cli, run_id, run_dir = tiny_run
    target = cli.cwd / "run.prov.json"
    code, summary, _ = cli("export", run_id, "--format", "prov-json", "--output", str(target))
    assert code == 0 and summary["ok"] and summary["output"] == str(target)

    doc = ProvDocument.deserialize(source=str(target), format="json")
    with cli.reader() as reader:
        steps, artifacts = reader.steps(run_id), reader.artifacts(run_id)
        calls, decisions = reader.engine_calls(run_id), reader.decisions(run_id)
    activities = list(doc.get_records(ProvActivity))
    assert len(activities) == 1 + len(steps) + len(calls) + len(decisions)
    assert len(calls) >= 1  # the EMT energies are recorded as an ASE engine call
    files = [e for e in doc.get_records(ProvEntity) if _attr(e, "sha256")]
    assert sorted(_attr(e, "path") for e in files) == sorted(a.path for a in artifacts)
    scan = next(e for e in files if str(_attr(e, "path")).endswith("eos_scan.h5"))
    assert _attr(scan, "sha256") == _sha(run_dir / str(_attr(scan, "path")))
    assert {_attr(e, "integrity") for e in files} == {"ok"}
    assert len(list(doc.get_records(ProvGeneration))) == len(artifacts)
    used = list(doc.get_records(ProvUsage))
    assert used, "later steps read the files of earlier ones"
    agents = {str(_attr(a, "kind")): a for a in doc.get_records(ProvAgent)}
    assert {"simwright", "user", "engine"} <= set(agents)
    assert _attr(agents["engine"], "version")


def test_ro_crate_reads_back_with_files_hashes_and_actions(tiny_run) -> None:
    cli, run_id, _ = tiny_run
    target = cli.cwd / "crate"
    code, summary, _ = cli("export", run_id[:12], "-f", "ro-crate", "-o", str(target))
    assert code == 0 and summary["ok"] and summary["run_id"] == run_id

    crate = ROCrate(target)
    with cli.reader() as reader:
        steps, artifacts = reader.steps(run_id), reader.artifacts(run_id)
    files = {e.id: e for e in crate.data_entities if "File" in e.type}
    assert sorted(files) == sorted(a.path for a in artifacts)
    for a in artifacts:
        assert files[a.path]["sha256"] == a.sha256 == _sha(target / a.path)
    actions = [e for e in crate.get_entities() if e.type == "CreateAction"]
    assert len(actions) == 1 + len(steps)
    run = crate.dereference(f"#run-{run_id}")
    assert run is not None and run["agent"].type == "Person"
    assert sorted(f.id for f in run["result"]) == sorted(files)
    instruments = {i.type: i for i in run["instrument"]}
    assert instruments["HowTo"]["name"] == "lattice_constant"
    params = {p["name"]: p["value"] for p in run["object"]}
    assert params["element"] == "Cu" and params["request"].startswith("lattice constant")


def test_ro_crate_as_a_zip(tiny_run) -> None:
    cli, run_id, _ = tiny_run
    target = cli.cwd / "crate.zip"
    code, _, _ = cli("export", run_id, "-f", "ro-crate", "-o", str(target))
    assert code == 0
    crate = ROCrate(target)
    assert any(e.id.endswith("report.md") for e in crate.data_entities)


def test_ro_crate_referencing_files_copies_none(tiny_run) -> None:
    cli, run_id, run_dir = tiny_run
    target = cli.cwd / "refs"
    code, _, _ = cli("export", run_id, "-f", "ro-crate", "-o", str(target), "--no-copy")
    assert code == 0
    assert [p.name for p in target.iterdir()] == ["ro-crate-metadata.json"]
    crate = ROCrate(target)
    files = crate.get_by_type("File")
    with cli.reader() as reader:
        artifacts = reader.artifacts(run_id)
    by_uri = {(run_dir / a.path).resolve().as_uri(): a.sha256 for a in artifacts}
    assert {f.id: f["sha256"] for f in files} == by_uri
    for uri, sha in by_uri.items():
        assert _sha(Path(uri.removeprefix("file://"))) == sha


def test_a_changed_or_missing_file_is_marked_not_exported_as_valid(tmp_path: Path) -> None:
    cli, run_id, run_dir = _run(tmp_path)
    crystal = next(run_dir.glob("steps/001-*/crystal.extxyz"))
    crystal.write_text(crystal.read_text() + "\n")
    next(run_dir.glob("steps/*/report.md")).unlink()
    plot = next(run_dir.glob("steps/*/eos.png"))
    outside = tmp_path / "outside.png"
    plot.rename(outside)
    plot.symlink_to(outside)  # same content, but a link out of the run: never read

    code, summary, _ = cli("export", run_id, "-f", "ro-crate", "-o", str(tmp_path / "crate"))
    assert code == 1 and not summary["ok"]
    found = {Path(p["path"]).name: p["state"] for p in summary["problems"]}
    assert found == {"crystal.extxyz": "changed", "report.md": "missing", "eos.png": "missing"}
    crate = ROCrate(tmp_path / "crate")
    present = {e.id for e in crate.data_entities}
    assert not any(p.endswith(("crystal.extxyz", "report.md", "eos.png")) for p in present)
    marked = [e for e in crate.get_by_type("CreativeWork") if e.get("creativeWorkStatus")]
    states = {e["name"]: e["creativeWorkStatus"] for e in marked}
    assert states.get("crystal.extxyz") == "changed" and states.get("report.md") == "missing"

    code, _, _ = cli("export", run_id, "-f", "prov-json", "-o", str(tmp_path / "p.json"))
    assert code == 1
    doc = ProvDocument.deserialize(source=str(tmp_path / "p.json"), format="json")
    entities = doc.get_records(ProvEntity)
    marks = {Path(str(_attr(e, "path"))).name: _attr(e, "integrity") for e in entities}
    assert marks["crystal.extxyz"] == "changed" and marks["report.md"] == "missing"


def test_refusals_exit_2_and_leave_the_run_alone(tiny_run) -> None:
    cli, run_id, run_dir = tiny_run
    before = sorted(p.relative_to(run_dir) for p in run_dir.rglob("*"))
    code, out, _ = cli("export", "no-such-run", "-f", "prov-json", "-o", str(cli.cwd / "x.json"))
    assert code == 2 and "no run" in out["error"]
    bad = cli.runner.invoke(app, ["export", run_id, "--format", "turtle"], env=cli.env)
    assert bad.exit_code == 2 and "turtle" in bad.stderr
    inside = run_dir / "export.json"
    code, out, _ = cli("export", run_id, "-f", "prov-json", "-o", str(inside))
    assert code == 2 and "inside the run directory" in out["error"]
    existing = cli.cwd / "exists.json"
    existing.write_text("keep")
    code, out, _ = cli("export", run_id, "-f", "prov-json", "-o", str(existing))
    assert code == 2 and "already exists" in out["error"] and existing.read_text() == "keep"
    assert sorted(p.relative_to(run_dir) for p in run_dir.rglob("*")) == before
