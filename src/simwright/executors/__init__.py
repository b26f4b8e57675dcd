"""Where engine calls run: a bounded local pool, or Slurm/PBS through PSI/J (docs/cluster.md).

- :mod:`~simwright.executors.local`: :class:`LocalExecutor`, engine calls on this
  machine, at most as many cores busy at once as the pool holds;
- :mod:`~simwright.executors.backend`: the :class:`BatchBackend` protocol (submit, find
  by name, wait with the state history, cancel) and :mod:`~simwright.executors.psij_backend`
  its PSI/J implementation (``psij-python``, the ``cluster`` extra, imported lazily);
- :mod:`~simwright.executors.journal`: write-ahead submission records in the store;
- :mod:`~simwright.executors.durable`: :class:`DurableRunner`, one step attempt's engine
  calls on a scheduler: deterministic job names, re-attach after a restart, resubmission
  of cancelled or lost jobs within a retry budget;
- :mod:`~simwright.executors.factory`: the runner factory a profile asks for.
"""
