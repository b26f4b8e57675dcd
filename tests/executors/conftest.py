"""The one-node Slurm cluster of the executor tests (session-scoped; skipped with the
reason when it cannot start here: not root, or Slurm/munge/psij-python missing)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from helpers import slurm


@pytest.fixture(scope="session")
def slurm_cluster() -> Iterator[slurm.SlurmCluster]:
    """slurmctld + slurmd (+ a private munged) in a temporary folder, for the session."""
    reason = slurm.why_unavailable()
    if reason is not None:
        pytest.skip(reason)
    with slurm.running_cluster() as cluster:
        yield cluster


@pytest.fixture
def slurm_here(
    slurm_cluster: slurm.SlurmCluster, monkeypatch: pytest.MonkeyPatch
) -> slurm.SlurmCluster:
    """The cluster, with this process's ``SLURM_CONF`` naming it (PSI/J runs ``sbatch``,
    ``squeue`` and ``scancel`` with this process's environment)."""
    monkeypatch.setenv("SLURM_CONF", str(slurm_cluster.conf))
    return slurm_cluster
