"""Everything checked before a run exists: values, names, engines, size.

``preflight(protocol, params, settings) -> Preflight`` is the one call the command
line (``run``, ``resume``, ``plan``) and the agents' protocol tool make after the
parameters are validated and before a run row or directory is created. It checks:

- every number in the parameters is finite (``a_guess_a: .inf`` is refused);
- the protocol's own ``check`` (names that resolve through registries and the
  installation's allow-list, e.g. the ASE calculator);
- the executables of the protocol's ``engines`` are present (``lmp``, ``packmol``,
  ``pw.x``, and ``mpirun`` when more than one MPI rank is configured), saying how
  to install a missing one;
- the protocol's ``estimate`` (which may itself refuse: the DFT estimate runs the
  recommender) against the configured :class:`~simwright.settings.Limits`.

The result lists every problem at once; :meth:`Preflight.require` raises
:class:`PreflightError` (exit code 2) when there is any. :meth:`Preflight.run_settings`
gives the settings a run should get: the per-engine-call wall-time limit derived
from the estimate, which the steps pass to the LAMMPS and pw.x launchers.
"""

from __future__ import annotations

import math
import shutil
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from pydantic import BaseModel

from simwright.errors import SimwrightError, ValidationError
from simwright.protocols.estimate import Estimate
from simwright.protocols.registry import Protocol
from simwright.settings import Settings

INSTALL_HINTS: Final[Mapping[str, str]] = {
    "lmp": "pip install 'simwright[md]'",
    "packmol": "pip install 'simwright[md]'",
    "pw.x": "apt-get install quantum-espresso",
    "mpirun": "apt-get install openmpi-bin (or set mpi_ranks = 1 in config.toml)",
}
"""How to install each executable a protocol may need."""


class PreflightError(ValidationError):
    """A run was refused before it was created; ``preflight`` holds every reason."""

    def __init__(self, preflight: Preflight) -> None:
        super().__init__(preflight.refusal())
        self.preflight = preflight
        self.details = {"preflight": preflight.as_dict()}


@dataclass(frozen=True)
class Preflight:
    """The verdict on a run before it exists: problems, executables found, the estimate.

    ``call_limit_s`` is the wall-time limit of each engine call (None without an
    estimate nor a configured limit).
    """

    protocol: str
    problems: tuple[str, ...] = ()
    executables: Mapping[str, str] = field(default_factory=dict)
    estimate: Estimate | None = None
    call_limit_s: float | None = None

    @property
    def ok(self) -> bool:
        """True when nothing stands in the way of the run."""
        return not self.problems

    def require(self) -> Preflight:
        """``self`` when ok, else raise :class:`PreflightError`."""
        if self.problems:
            raise PreflightError(self)
        return self

    def run_settings(self, settings: Settings) -> Settings:
        """``settings`` with this run's engine-call wall-time limit."""
        return settings.with_engine_timeout(self.call_limit_s)

    def refusal(self) -> str:
        """The message of a refusal: every problem, then the estimate and its basis."""
        lines = [f"{self.protocol}: refused before any run was created:"]
        lines += [f"  - {p}" for p in self.problems]
        if self.estimate is not None:
            lines.append(f"estimate: {self.estimate.summary()}")
            lines += [f"  {b}" for b in self.estimate.basis]
        return "\n".join(lines)

    def summary(self) -> str:
        """One line for the user before a run starts."""
        text = self.estimate.summary() if self.estimate else "no estimate"
        if self.call_limit_s is not None:
            text += f"; each engine call limited to {_duration(self.call_limit_s)}"
        return text

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "protocol": self.protocol,
            "ok": self.ok,
            "problems": list(self.problems),
            "executables": dict(self.executables),
            "estimate": self.estimate.as_dict() if self.estimate else None,
            "call_limit_s": self.call_limit_s,
        }


def preflight(protocol: Protocol, params: BaseModel, settings: Settings) -> Preflight:
    """Check ``params`` of ``protocol`` against ``settings`` without creating anything."""
    problems = [f"{name}: {value!r} is not a finite number" for name, value in non_finite(params)]
    check = protocol.check
    if check is not None:
        problems += _attempt(lambda: check(params, settings))
    found, missing = find_executables(protocol.engines, settings)
    problems += missing
    estimate: Estimate | None = None
    if protocol.estimate is not None and not problems:
        try:
            estimate = protocol.estimate(params, settings)
        except (SimwrightError, ValueError, KeyError) as exc:
            problems.append(str(exc))
    limit = settings.limits.engine_walltime_s
    if estimate is not None:
        problems += estimate.over(settings.limits)
        limit = estimate.call_limit_s(settings.limits)
    return Preflight(protocol.name, tuple(problems), found, estimate, limit)


def _attempt(check: Any) -> list[str]:
    try:
        check()
    except SimwrightError as exc:
        return [str(exc)]
    return []


def non_finite(params: BaseModel) -> list[tuple[str, float]]:
    """Dotted names and values of every infinite or NaN number in ``params``."""
    return list(_walk(params.model_dump(), ""))


def _walk(value: Any, name: str) -> Iterator[tuple[str, float]]:
    if isinstance(value, float) and not math.isfinite(value):
        yield name or "parameters", value
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield from _walk(item, f"{name}.{key}" if name else str(key))
    elif isinstance(value, list | tuple):
        for i, item in enumerate(value):
            yield from _walk(item, f"{name}[{i}]")


def find_executables(
    engines: tuple[str, ...], settings: Settings
) -> tuple[dict[str, str], list[str]]:
    """Paths of the executables ``engines`` need, and a message for each one missing."""
    found: dict[str, str] = {}
    missing: list[str] = []
    for name in engines:
        path = _locate(name, settings)
        if path is None:
            missing.append(_missing(name, settings))
            continue
        found[name] = path
        if _needs_mpirun(name, settings):
            mpirun = _mpirun_for(name, path)
            if mpirun is None:
                missing.append(_missing("mpirun", settings))
            else:
                found["mpirun"] = mpirun
    return found, missing


def _lammps(settings: Settings) -> Any:
    # lazy: the engine adapters load only for a protocol that runs them (plan stays quick)
    from simwright.engines.lammps.launcher import LammpsLauncher

    return LammpsLauncher.from_settings(settings)


def _packmol(settings: Settings) -> Any:
    # lazy: the engine adapters load only for a protocol that runs them (plan stays quick)
    from simwright.engines.packmol import PackmolLauncher

    return PackmolLauncher.from_settings(settings)


def _pw(settings: Settings) -> Any:
    # lazy: the engine adapters load only for a protocol that runs them (plan stays quick)
    from simwright.engines.espresso.launcher import PwLauncher

    return PwLauncher.from_settings(settings)


LAUNCHERS: Final[Mapping[str, Callable[[Settings], Any]]] = {
    "lmp": _lammps,
    "packmol": _packmol,
    "pw.x": _pw,
}
"""How each executable is located: the engine adapters' own launchers
(``[engines]`` of the settings, else the Python environment, else ``PATH``)."""


def _locate(name: str, settings: Settings) -> str | None:
    make = LAUNCHERS.get(name)
    if make is None:
        return shutil.which(name)
    try:
        launcher = make(settings)
    except SimwrightError:
        return None
    return shutil.which(str(launcher.executable))


def _needs_mpirun(name: str, settings: Settings) -> bool:
    if name == "lmp":
        return (settings.mpi_ranks or settings.cores()) > 1
    if name == "pw.x":
        return settings.mpi_ranks > 1
    return False


def _mpirun_for(name: str, path: str) -> str | None:
    # lazy: the engine adapters load only for a protocol that runs them (plan stays quick)
    from simwright.engines.espresso.launcher import mpirun_beside
    from simwright.engines.lammps.launcher import find_mpirun

    if name == "pw.x":
        return shutil.which(mpirun_beside(path))
    try:
        return str(find_mpirun(Path(path)))
    except SimwrightError:
        return None


def _missing(name: str, settings: Settings) -> str:
    where = settings.engine_paths.get(name)
    place = f" at the configured path {where!r}" if where else ""
    return (
        f"the executable {name!r} is missing{place}: install it with "
        f"{INSTALL_HINTS.get(name, 'your package manager')}"
    )


def _duration(seconds: float) -> str:
    if seconds >= 3600:
        return f"{seconds / 3600:.3g} h"
    return f"{seconds / 60:.3g} min"
