"""Generate a missing pseudopotential with ld1.x, check it, and install it with provenance.

``generate_pseudopotential("Ga", "pbe", pseudo_dir=home / "pseudo")`` writes the ld1.x
input of the element's recipe (:mod:`~simwright.engines.espresso.pseudo_recipes`),
runs ld1.x in ``<pseudo_dir>/generated/<stem>/``, runs ld1.x's transferability and
ghost tests on the new file, and only when they pass moves the file into
``pseudo_dir`` as ``Ga.pbe-dn-rrkjus_simwright.UPF`` with ``provenance.json`` beside
the run (recipe, functional, kind, ld1.x version, test summary, sha256). A failed
check installs nothing and says why. The pseudopotential library then finds the file
and reports it as *generated here* wherever it is used.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from simwright.engines.espresso.ld1_output import Ld1Report, parse_test_output
from simwright.engines.espresso.ld1_template import (
    GeneratedKind,
    PseudoRecipe,
    generated_file_name,
    ld1_functional,
    render_generation,
    render_test,
)
from simwright.engines.espresso.pseudo import canonical_functional, read_upf_header
from simwright.engines.espresso.pseudo_generated import PROVENANCE_NAME, run_folder, sha256_of
from simwright.engines.espresso.pseudo_recipes import recipe_for
from simwright.errors import EngineError, ValidationError

LD1_EXECUTABLE = "ld1.x"
"""The atomic code of Quantum ESPRESSO (Debian: ``/usr/bin/ld1.x``)."""

LD1_TIMEOUT_S = 300.0
"""Each ld1.x run takes seconds; this only stops a hung one."""

GENERATION_INPUT = "generate.in"
TEST_INPUT = "test.in"


@dataclass(frozen=True)
class GeneratedPseudo:
    """An installed generated file, its provenance record and ld1.x's test report."""

    path: Path
    provenance_path: Path
    report: Ld1Report
    record: dict[str, Any]

    def summary(self) -> str:
        """One paragraph for people and agents."""
        eig, tot = self.report.worst_errors_ry()
        info = read_upf_header(self.path)
        return (
            f"{self.path.name} generated here with ld1.x {self.report.version} "
            f"({info.describe()}); tests on {len(self.report.configurations)} configurations "
            f"passed (worst eigenvalue error {eig * 1000:.2f} mRy, worst energy error "
            f"{tot * 1000:.2f} mRy, no ghost state); installed in {self.path.parent}; "
            f"provenance {self.provenance_path}"
        )


def generate_pseudopotential(
    element: str,
    functional: str,
    pseudo_dir: Path,
    *,
    kind: GeneratedKind = "us",
    executable: str = LD1_EXECUTABLE,
    recipe: PseudoRecipe | None = None,
) -> GeneratedPseudo:
    """Generate, test and install the pseudopotential of ``element`` (see the module).

    ``recipe`` replaces the built-in recipe of ``element`` (it must be for that element).

    Refused by name (:class:`ValidationError`) for an element without a recipe or a
    functional ld1.x recipes do not cover; :class:`EngineError` when ld1.x is missing,
    fails, or its tests fail (nothing is installed then, an earlier file of the same name
    is removed, and the run folder is kept).
    """
    family = canonical_functional(functional)
    ld1_functional(family)
    if kind not in ("us", "paw"):
        raise ValidationError(f"generated kinds are 'us' and 'paw', not {kind!r}")
    recipe = recipe or recipe_for(element)
    if recipe.element != element:
        raise ValidationError(f"the recipe is for {recipe.element}, not {element}")
    if shutil.which(executable) is None:
        raise EngineError(f"{executable} not found: install quantum-espresso (it ships ld1.x)")
    pseudo_dir = Path(pseudo_dir)
    name = generated_file_name(recipe, family, kind)
    run_dir = run_folder(pseudo_dir, name)
    if run_dir.exists():  # regenerating: the old file and its record go together
        shutil.rmtree(run_dir)
        (pseudo_dir / name).unlink(missing_ok=True)
    run_dir.mkdir(parents=True)
    gen_out = _run_ld1(
        executable, run_dir, GENERATION_INPUT, render_generation(recipe, family, kind, name)
    )
    made = run_dir / name
    if not made.is_file():
        raise EngineError(f"ld1.x wrote no {name}; see {run_dir / 'generate.out'}")
    test_out = _run_ld1(executable, run_dir, TEST_INPUT, render_test(recipe, family, name))
    report = parse_test_output(test_out, gen_out)
    if not report.passed:
        raise EngineError(
            f"{name} failed ld1.x's tests and was not installed ({'; '.join(report.problems)}); "
            f"see {run_dir}"
        )
    info = read_upf_header(made)
    if info.element != element or info.functional != family:
        raise EngineError(
            f"{name}: ld1.x wrote a {info.element} {info.functional} file, not {element} {family}"
        )
    target = pseudo_dir / name
    shutil.copyfile(made, target)
    record = _provenance(recipe.as_dict(), family, kind, target, report, executable)
    provenance_path = run_dir / PROVENANCE_NAME
    provenance_path.write_text(json.dumps(record, indent=2, ensure_ascii=False) + "\n")
    return GeneratedPseudo(target, provenance_path, report, record)


def _run_ld1(executable: str, run_dir: Path, input_name: str, text: str) -> str:
    """Run ld1.x on ``text`` in ``run_dir`` (stdin from the file); its output."""
    (run_dir / input_name).write_text(text)
    output = run_dir / input_name.replace(".in", ".out")
    try:
        with (run_dir / input_name).open() as stdin:
            proc = subprocess.run(
                [executable],
                cwd=run_dir,
                stdin=stdin,
                capture_output=True,
                text=True,
                errors="replace",
                timeout=LD1_TIMEOUT_S,
                check=False,
            )
    except subprocess.TimeoutExpired as exc:
        raise EngineError(f"ld1.x did not finish in {LD1_TIMEOUT_S:g} s ({run_dir})") from exc
    output.write_text(proc.stdout + proc.stderr)
    if proc.returncode != 0:
        crash = run_dir / "CRASH"
        why = crash.read_text(errors="replace") if crash.is_file() else proc.stdout[-400:]
        why = " ".join(w for w in why.split() if w.isprintable() and "%%" not in w)
        raise EngineError(f"ld1.x failed (exit {proc.returncode}) in {run_dir}: {why}")
    return proc.stdout


def _provenance(
    recipe: dict[str, Any],
    functional: str,
    kind: GeneratedKind,
    target: Path,
    report: Ld1Report,
    executable: str,
) -> dict[str, Any]:
    return {
        "file": target.name,
        "element": recipe["element"],
        "functional": functional,
        "kind": kind,
        "generated_here": True,
        "generator": {
            "program": "ld1.x",
            "path": shutil.which(executable),
            "version": report.version,
        },
        "recipe": recipe,
        "tests": report.as_dict(),
        "estimated_wfc_cutoff_ry": report.estimated_wfc_cutoff_ry,
        "sha256": sha256_of(target),
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "inputs": [GENERATION_INPUT, TEST_INPUT],
    }
