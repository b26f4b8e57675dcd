"""Settings, read once at the edge (environment and an optional TOML file) and passed down.

Nothing below the command line or the service reads the environment: they take a
:class:`Settings` value.
"""

from __future__ import annotations

import math
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from simwright.errors import ParseError
from simwright.jobs import ExecutorProfile, parse_profile

DEFAULT_HOME = Path("~/.simwright")


@dataclass(frozen=True)
class Limits:
    """Resource caps a run must fit in, checked before it is created (``[limits]``).

    ``max_output_gb`` and ``max_core_hours`` refuse a run whose up-front estimate
    exceeds them. Each engine call (one LAMMPS or pw.x process) is stopped after
    ``walltime_factor`` × its estimated wall time, never less than
    ``min_walltime_s``; ``engine_walltime_s`` (when set) replaces that computed
    limit. ``engine_timeout_s`` is the limit in force for the current run: the
    preflight sets it, the steps pass it to the launchers (None: no limit).
    """

    max_output_gb: float = 20.0
    max_core_hours: float = 48.0
    walltime_factor: float = 10.0
    min_walltime_s: float = 1800.0
    engine_walltime_s: float | None = None
    engine_timeout_s: float | None = None


@dataclass(frozen=True)
class Settings:
    """Where simwright keeps its data and how it launches engines.

    ``home`` holds the SQLite store (``simwright.db``), the run directories
    (``runs/<run_id>``) and the campaign directories (``campaigns/<id>``) unless
    ``database_url``, ``runs_dir`` or ``campaigns_dir`` say otherwise. On a cluster, put
    ``runs_dir`` (and ``campaigns_dir``) on a file system the compute nodes see. The store
    records every path relative to these roots, so a home moved with its files still reads.
    ``threads`` = 0 means all cores. ``remember_runs`` (default on): the command line
    adds every completed run to the episodic memory (``<home>/memory``).
    ``kg_auto_ingest`` (default on): every run that completes is added to the knowledge
    graph of results (``<home>/kg``) when rdflib is installed (:mod:`simwright.kg.auto`).
    """

    home: Path
    database_url: str | None = None
    runs_dir: Path | None = None
    campaigns_dir: Path | None = None
    threads: int = 0
    mpi_ranks: int = 1
    engine_paths: Mapping[str, str] = field(default_factory=dict)
    plugins: tuple[str, ...] = ()
    """``module:attr`` names this installation allows besides the registered ones
    (``[plugins] allow`` of config.toml; never taken from a spec)."""
    limits: Limits = field(default_factory=Limits)
    remember_runs: bool = True
    kg_auto_ingest: bool = True
    executor: ExecutorProfile = field(default_factory=ExecutorProfile)
    """Where engine calls run (``[executor]``: local pool, Slurm, PBS; docs/cluster.md)."""

    @property
    def db_url(self) -> str:
        """SQLAlchemy URL of the provenance store."""
        return self.database_url or f"sqlite:///{self.home / 'simwright.db'}"

    @property
    def runs_path(self) -> Path:
        """Directory holding one folder per run."""
        return self.runs_dir or self.home / "runs"

    @property
    def campaigns_path(self) -> Path:
        """Directory holding one folder per campaign."""
        return self.campaigns_dir or self.home / "campaigns"

    def with_home(self, home: Path) -> Settings:
        """A copy with another home directory."""
        return replace(self, home=home)

    def with_engine_timeout(self, seconds: float | None) -> Settings:
        """A copy whose engine calls are stopped after ``seconds`` (None: no limit)."""
        return replace(self, limits=replace(self.limits, engine_timeout_s=seconds))

    def cores(self) -> int:
        """Number of cores engines may use (``threads``, or all cores when 0)."""
        return self.threads if self.threads > 0 else (os.cpu_count() or 1)


def load_settings(env: Mapping[str, str] | None = None) -> Settings:
    """Read settings from ``SIMWRIGHT_*`` variables and ``$SIMWRIGHT_HOME/config.toml``.

    Variables: ``SIMWRIGHT_HOME`` (default ``~/.simwright``), ``SIMWRIGHT_DATABASE_URL``,
    ``SIMWRIGHT_THREADS``, ``SIMWRIGHT_MPI_RANKS``, ``SIMWRIGHT_RUNS_DIR``,
    ``SIMWRIGHT_CAMPAIGNS_DIR`` (file keys ``runs_dir``, ``campaigns_dir``; a relative folder
    lies under the home), ``SIMWRIGHT_REMEMBER_RUNS`` (``true`` or
    ``false``; file key ``remember_runs``), ``SIMWRIGHT_KG_AUTO`` (``1``/``0``; file key
    ``auto_ingest`` of ``[kg]``). The environment wins over the file.
    The file may also hold ``[engines]`` (executable paths), ``[plugins] allow``,
    ``[limits]`` (see :class:`Limits`) and ``[executor]``
    (:class:`~simwright.jobs.ExecutorProfile`).
    """
    env = os.environ if env is None else env
    home = Path(env.get("SIMWRIGHT_HOME", str(DEFAULT_HOME))).expanduser().resolve()
    return settings_at(home, env)


def settings_at(home: Path, env: Mapping[str, str] | None = None) -> Settings:
    """Settings of the home ``home``: its ``config.toml``, then the ``SIMWRIGHT_*`` variables."""
    env = os.environ if env is None else env
    data = _read_toml(home / "config.toml")
    values: dict[str, Any] = {
        "database_url": env.get("SIMWRIGHT_DATABASE_URL", data.get("database_url")),
        "threads": _int(env.get("SIMWRIGHT_THREADS", data.get("threads", 0)), "threads"),
        "mpi_ranks": _int(env.get("SIMWRIGHT_MPI_RANKS", data.get("mpi_ranks", 1)), "mpi_ranks"),
        "engine_paths": dict(data.get("engines", {})),
        "plugins": _plugins(data.get("plugins", {})),
        "limits": _limits(data.get("limits", {})),
        "executor": parse_profile(data.get("executor", {})),
        "remember_runs": _bool(
            env.get("SIMWRIGHT_REMEMBER_RUNS", data.get("remember_runs", True)), "remember_runs"
        ),
        "kg_auto_ingest": _bool(
            env.get("SIMWRIGHT_KG_AUTO", _table(data, "kg").get("auto_ingest", True)),
            "kg.auto_ingest",
        ),
    }
    runs = env.get("SIMWRIGHT_RUNS_DIR", data.get("runs_dir"))
    campaigns = env.get("SIMWRIGHT_CAMPAIGNS_DIR", data.get("campaigns_dir"))
    return Settings(
        home=home, runs_dir=_folder(home, runs), campaigns_dir=_folder(home, campaigns), **values
    )


def _folder(home: Path, value: object) -> Path | None:
    """A configured folder; a relative one lies under ``home`` (it moves with the home)."""
    if not value:
        return None
    return home / Path(str(value)).expanduser()


def _read_toml(path: Path) -> dict[str, Any]:
    if not path.is_file():
        return {}
    try:
        return tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as exc:
        raise ParseError(f"{path}: invalid TOML: {exc}") from exc


def _table(data: Mapping[str, Any], name: str) -> Mapping[str, Any]:
    """The ``[name]`` table of config.toml (empty when absent)."""
    table = data.get(name, {})
    if not isinstance(table, dict):
        raise ParseError(f"config.toml: [{name}] must be a table")
    return table


def _int(value: Any, name: str) -> int:
    try:
        out = int(value)
    except (TypeError, ValueError) as exc:
        raise ParseError(f"setting {name!r} must be an integer, got {value!r}") from exc
    if out < 0:
        raise ParseError(f"setting {name!r} must not be negative, got {out}")
    return out


def _plugins(table: Any) -> tuple[str, ...]:
    allow = table.get("allow", []) if isinstance(table, dict) else None
    if not isinstance(allow, list) or not all(isinstance(a, str) for a in allow):
        raise ParseError("config.toml: [plugins] allow must be a list of 'module:attr' strings")
    bad = [a for a in allow if not _is_plugin_path(a)]
    if bad:
        raise ParseError(f"config.toml: [plugins] allow: not 'module:attr': {', '.join(bad)}")
    return tuple(allow)


def _is_plugin_path(text: str) -> bool:
    module, sep, attr = text.partition(":")
    parts = [*module.split("."), *attr.split(".")]
    return bool(sep) and all(p.isidentifier() for p in parts)


def _limits(table: Any) -> Limits:
    if not isinstance(table, dict):
        raise ParseError("config.toml: [limits] must be a table")
    known = {f.name for f in fields(Limits)} - {"engine_timeout_s"}
    unknown = set(table) - known
    if unknown:
        raise ParseError(
            f"config.toml: unknown [limits] key(s) {', '.join(sorted(unknown))}; "
            f"known: {', '.join(sorted(known))}"
        )
    values: dict[str, float] = {}
    for key, value in table.items():
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ParseError(f"config.toml: [limits] {key} must be a number, got {value!r}")
        if not math.isfinite(value) or value <= 0:
            raise ParseError(f"config.toml: [limits] {key} must be finite and > 0, got {value}")
        values[key] = float(value)
    return Limits(**values)


_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"0", "false", "no", "off"})


def _bool(value: Any, name: str) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in _TRUE | _FALSE:
        return text in _TRUE
    raise ParseError(f"setting {name!r} must be true or false, got {value!r}")
