"""pw.x as an :class:`~simwright.steps.energies.EnergyEngine`: each structure is the
recommended input with that structure, run inside the error-recovery machine.

It lives above :mod:`simwright.steps` because it needs the DFT knowledge graph and
recovery machine of :mod:`simwright.dft`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from simwright.contract import Column
from simwright.dft.request import DftRequest
from simwright.engines.espresso.template import PwInput
from simwright.errors import EngineError
from simwright.graph import RunContext
from simwright.protocols.dft.common import record_recovery, require_success, run_with_recovery
from simwright.steps.energies import Energies, EnergyEngine
from simwright.structure import Structure


@dataclass(frozen=True)
class PwEnergies(EnergyEngine):
    """pw.x total energies at fixed cutoffs: ``template`` (a validated, recommended input)
    with each structure in turn; attempts in ``volume-NN``, transitions in
    ``recovery-NN.json``. Adds the columns ``pw_runs`` and ``repaired``."""

    params: DftRequest
    template: PwInput
    valence_electrons: float

    def label(self) -> str:
        """``pw.x``."""
        return "pw.x"

    def describe(self) -> str:
        """The functional and cutoffs of the template."""
        system = self.template.namelists.get("system", {})
        return (
            f"pw.x ({self.params.functional}, ecutwfc {system.get('ecutwfc', '?')} Ry), "
            "each point inside the error-recovery machine"
        )

    def evaluate(self, ctx: RunContext, structures: Sequence[Structure]) -> Energies:
        """Run each structure through the recovery machine; fail on the first that cannot
        be brought to a valid result."""
        energies, runs, repaired = [], [], []
        for i, structure in enumerate(structures, start=1):
            ctx.progress((i - 1) / len(structures), f"volume {i}/{len(structures)}")
            inp = self.template.with_structure(structure)
            outcome = run_with_recovery(
                ctx, self.params, inp, self.valence_electrons, ctx.workdir / f"volume-{i:02d}"
            )
            record_recovery(ctx, outcome, f"recovery-{i:02d}.json")
            run = require_success(outcome)
            if run.output.energy_ev is None:
                raise EngineError("pw.x finished without a total energy", tail=run.call.stdout_tail)
            energies.append(run.output.energy_ev)
            runs.append(len(outcome.attempts))
            repaired.append(bool(outcome.repairs))
        return Energies(
            np.array(energies),
            (
                Column("pw_runs", np.array(runs), "1", "pw.x runs needed (1 = zero-shot)"),
                Column("repaired", np.array(repaired), "1", "a repair was applied"),
            ),
        )
