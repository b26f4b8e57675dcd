"""Overhead of simwright's LAMMPS step against running the same input with ``lmp`` directly.

One NVT segment of Lennard-Jones argon (about a minute of MD by default) is run
twice in the same process, alternating: once as a bare ``lmp -in in.lammps``
subprocess in a scratch folder, once through the real Runner, Store and LAMMPS
step (data file, template safety check, launch, log parsing to HDF5, artifact
hashing, provenance). Both use the same launcher argv. The ratio of wall times
(simwright / raw) is what ``docs/benchmarks.md`` reports.

    python benchmarks/overhead.py [--atoms 4000] [--steps 20000] [--repeat 1]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from ase.build import bulk
from typing_extensions import override

from simwright.engines.lammps.segment import MDSpec, render_input, write_data_file
from simwright.engines.lammps.templates import DataStart
from simwright.forcefields import get_forcefield
from simwright.graph import Done, Graph, RunContext, Runner, Step
from simwright.settings import Settings
from simwright.steps.md import launcher, record_segment, segment
from simwright.store import Store
from simwright.structure import Structure


def argon(n_target: int) -> Structure:
    """An fcc argon crystal of about ``n_target`` atoms at 1.374 g/cm³, slightly disordered."""
    reps = max(1, round((n_target / 4) ** (1 / 3)))
    a = (4 * 39.948 * 1.66053906660e-24 / 1.374) ** (1 / 3) * 1e8
    atoms = bulk("Ar", "fcc", a=a, cubic=True).repeat(reps)
    rng = np.random.default_rng(7)
    atoms.positions += rng.normal(0.0, 0.05, atoms.positions.shape)
    return Structure.from_ase(atoms)


def spec(steps: int) -> MDSpec:
    return MDSpec(
        "nvt",
        steps=steps,
        timestep_fs=5.0,
        temperature_k=94.4,
        create_velocities=True,
        thermo_every=500,
        dump_every=1000,
        seed=11,
    )


@dataclass(frozen=True)
class Segment(Step):
    """One NVT segment through simwright's LAMMPS step."""

    structure: Structure
    steps: int

    @override
    def run(self, ctx: RunContext) -> Done[str]:
        result = segment(
            ctx, spec(self.steps), get_forcefield("lj_argon"), structure=self.structure
        )
        record_segment(ctx, result, "benchmark segment")
        return Done(str(result.thermo_path))


GRAPH = Graph.build("overhead", [Segment])


def raw_run(structure: Structure, steps: int, workdir: Path, settings: Settings) -> float:
    workdir.mkdir(parents=True)
    ff = get_forcefield("lj_argon")
    write_data_file(structure, ff, workdir / "system.data")
    (workdir / "in.lammps").write_text(render_input(spec(steps), ff, DataStart("system.data")))
    lmp = launcher(settings)
    start = time.perf_counter()
    subprocess.run(
        [*lmp.argv(), "-in", "in.lammps", "-log", "log.lammps"],
        cwd=workdir,
        env=lmp.env(),
        stdout=subprocess.DEVNULL,
        check=True,
    )
    return time.perf_counter() - start


def simwright_run(structure: Structure, steps: int, home: Path, settings: Settings) -> float:
    store = Store.at(home / "simwright.db")
    runner = Runner(store, settings.with_home(home))
    start = time.perf_counter()
    out = runner.start(GRAPH, Segment(structure, steps), protocol="overhead")
    elapsed = time.perf_counter() - start
    assert out.status == "completed", out.error
    store.close()
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--atoms", type=int, default=4000)
    parser.add_argument("--steps", type=int, default=20000)
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    structure = argon(args.atoms)
    raw, sw = [], []
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(home=Path(tmp) / "home")
        for i in range(args.repeat):
            raw.append(raw_run(structure, args.steps, Path(tmp) / f"raw{i}", settings))
            sw.append(simwright_run(structure, args.steps, Path(tmp) / f"sw{i}", settings))
    ratio = sum(sw) / sum(raw)
    print(
        json.dumps(
            {
                "atoms": len(structure),
                "steps": args.steps,
                "raw_s": raw,
                "simwright_s": sw,
                "ratio": round(ratio, 4),
                "target": 1.05,
                "meets_target": ratio <= 1.05,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
