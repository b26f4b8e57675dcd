"""Why whole-molecule GCMC does not empty a clay interlayer: removal energies of its waters.

For the final configuration of one stored ``lammps_clay_gcmc`` segment (its
``in.lammps``, ``final.restart``, ``final_oxygens.dump`` and ``model.json``), LAMMPS
removes each water molecule in turn and re-evaluates the full energy (pair + PPPM, the
segment's own force field): ΔU_i = U(N − 1) − U(N) is the energy a ``fix gcmc`` deletion
of molecule i must pay. A deletion from a region of volume V holding N molecules is
accepted with probability min(1, N / (β f V) · exp(−β ΔU_i)) (ideal-gas reservoir of
fugacity f = p), so the mean deletion acceptance of this configuration is the average of
that over the interlayer molecules. One configuration samples the low-ΔU tail poorly:
the figure is an order of magnitude, not a rate.

    python benchmarks/clay_exchange.py STORE/campaigns/<id>/states/<system>/0*/<system>.c1/seg-* \
        --json out.json
"""

from __future__ import annotations

import argparse
import json
import math
import re
import subprocess
import tempfile
from pathlib import Path

import numpy as np

KB_KCAL: float = 0.0019872041
"""Boltzmann constant, kcal/mol/K."""
KB_J: float = 1.380649e-23
SHEET_THICKNESS_A: float = 6.56
"""Distance between a sheet's outer oxygen planes in the built cell (Å): the interlayer
region of the estimate runs between the two sheets' inner faces."""


def _head(script: str) -> str:
    """The segment's set-up (force field, groups, fixes) up to its GCMC region."""
    return script.split("\nregion ")[0].replace(
        "read_restart    start.restart", "read_restart    final.restart"
    )


def _removal_script(head: str, molecules: list[int]) -> str:
    loop = [
        head,
        "thermo_style custom step pe c_com1[3] c_com2[3]",
        "run 0",
        'print "E0 $(pe) $(c_com1[3]) $(c_com2[3])"',
        "clear",
        f"variable m index {' '.join(str(m) for m in molecules)}",
        "label loop",
        head,
        "group del molecule ${m}",
        "delete_atoms group del mol yes",
        "thermo_style custom step pe",
        "run 0",
        'print "MOL ${m} $(pe)"',
        "clear",
        "next m",
        "jump SELF loop",
    ]
    return "\n".join(loop) + "\n"


def removal_energies(segment: Path, lmp: str) -> tuple[float, float, np.ndarray, np.ndarray]:
    """Sheet z (Å) and ΔU (kcal/mol) of the interlayer and external waters of ``segment``."""
    oxygens = [
        line.split() for line in (segment / "final_oxygens.dump").read_text().splitlines()[9:]
    ]
    water_o = {int(mol): float(z) for _, typ, mol, z in oxygens if typ == oxygens[0][1]}
    head = _head((segment / "in.lammps").read_text())
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for name in ("final.restart", "h2o.mol"):
            (work / name).write_bytes((segment / name).read_bytes())
        (work / "in.removal").write_text(_removal_script(head, sorted(water_o)))
        subprocess.run(
            [lmp, "-in", "in.removal", "-log", "removal.log", "-screen", "none"],
            cwd=work,
            check=True,
        )
        log = (work / "removal.log").read_text()
    e0, z1, z2 = (float(x) for x in re.search(r"^E0 (\S+) (\S+) (\S+)$", log, re.M).groups())  # type: ignore[union-attr]
    du = {int(m): float(e) - e0 for m, e in re.findall(r"^MOL (\d+) (\S+)$", log, re.M)}
    inter = np.array([du[m] for m, z in water_o.items() if z1 < z < z2])
    external = np.array([du[m] for m, z in water_o.items() if not z1 < z < z2])
    return z1, z2, inter, external


def deletion_acceptance(
    du: np.ndarray, n: int, volume_a3: float, pressure_pa: float, t_k: float
) -> float:
    """Mean min(1, N/(βfV) e^{−βΔU}) over ``du`` (kcal/mol), ideal-gas fugacity f = p."""
    beta_f_v = pressure_pa / (KB_J * t_k) * 1e-30 * volume_a3
    log_pref = math.log(n / beta_f_v)
    return float(np.mean(np.minimum(1.0, np.exp(log_pref - du / (KB_KCAL * t_k)))))


def _summary(segment: Path, lmp: str) -> dict[str, object]:
    """Removal energies of one segment's final waters and its deletion acceptance."""
    model = json.loads((segment / "model.json").read_text())
    z1, z2, inter, external = removal_energies(segment, lmp)
    area = float(model["clay"]["cells"][0]) * 5.28 * float(model["clay"]["cells"][1]) * 9.14
    t_k = float(model["temperature_k"])
    p_sat_pa = float(model["pressure_bar"]) / float(model["relative_humidity"]) * 1e5
    slab_v = area * (model["insertion_slab_a"][1] - model["insertion_slab_a"][0])
    inter_v = area * (z2 - z1 - SHEET_THICKNESS_A)
    n_all = int(inter.size + external.size)
    acceptance = {}
    for rh in (0.9, 0.3, 0.1):
        p = rh * p_sat_pa
        log_pref = math.log(n_all / (p / (KB_J * t_k) * 1e-30 * slab_v))
        acceptance[f"rh{rh}"] = {
            "slab_region": deletion_acceptance(inter, n_all, slab_v, p, t_k),
            "interlayer_region": deletion_acceptance(inter, inter.size, inter_v, p, t_k),
            "threshold_kcal_slab": KB_KCAL * t_k * log_pref,
        }
    return {
        "segment": str(segment),
        "basal_spacing_a": z2 - z1,
        "n_interlayer": int(inter.size),
        "n_external": int(external.size),
        "interlayer_du_kcal": sorted(float(x) for x in inter),
        "external_du_kcal": sorted(float(x) for x in external),
        "acceptance": acceptance,
    }


def main() -> None:
    """Print removal energies and deletion acceptance of each segment, then pooled."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("segments", type=Path, nargs="+")
    ap.add_argument("--lmp", default="lmp")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    rows = [_summary(seg, args.lmp) for seg in args.segments]
    for row in rows:
        du = np.asarray(row["interlayer_du_kcal"])
        acc = row["acceptance"]
        assert isinstance(acc, dict)
        print(
            f"{row['segment']}: d = {row['basal_spacing_a']:.2f} Å, "
            f"{row['n_interlayer']} interlayer waters, ΔU min/median/max "
            f"{du.min():.1f}/{np.median(du):.1f}/{du.max():.1f} kcal/mol; "
            f"mean deletion acceptance (slab/interlayer region) at "
            + "; ".join(
                f"{k} {v['slab_region']:.1e}/{v['interlayer_region']:.1e}" for k, v in acc.items()
            )
        )
    pooled = np.concatenate([np.asarray(r["interlayer_du_kcal"]) for r in rows])
    print(
        f"pooled: {pooled.size} interlayer waters, ΔU min {pooled.min():.1f}, 1st percentile "
        f"{np.percentile(pooled, 1):.1f}, median {np.median(pooled):.1f} kcal/mol"
    )
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
