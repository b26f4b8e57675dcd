"""Install the LAMMPS HTML manual on the user's machine, never touching the system's apt setup.

Debian 13 (trixie) packages the full manual as ``lammps-doc``. It is fetched with
``apt-get download`` under private options — a temporary sources list naming trixie,
no ``sources.list.d``, private list and cache directories — then unpacked with
``dpkg-deb -x``; only ``usr/share/doc/lammps/html`` is kept. Nothing is installed
into the system. ``--from PATH`` takes a local manual, source tree or ``.deb`` instead.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from simwright.engines.base import run_subprocess
from simwright.knowledge.docs.lammps import LammpsManual, ManualKind, find_manual
from simwright.knowledge.docs.retrieval import RetrievalError
from simwright.store.records import EngineCall

MANUAL_FILE = "manual.json"
FROM_HINT = (
    "download a LAMMPS manual yourself (Debian trixie's lammps-doc .deb, the HTML manual, "
    "or a LAMMPS source tree) and run `simwright docs install lammps --from PATH`"
)


@dataclass(frozen=True)
class AptPackage:
    """Where the manual's Debian package comes from."""

    package: str = "lammps-doc"
    suite: str = "trixie"
    mirror: str = "http://deb.debian.org/debian"
    component: str = "main"


@dataclass(frozen=True)
class InstalledManual:
    """A manual known to simwright: where its pages are and where they came from."""

    root: Path
    kind: ManualKind
    origin: str

    def source(self) -> LammpsManual:
        """The manual as a documentation source."""
        return LammpsManual(self.root, self.kind)

    def save(self, docs_dir: Path) -> None:
        """Remember this manual in ``docs_dir/manual.json``."""
        data = {**asdict(self), "root": str(self.root)}
        (docs_dir / MANUAL_FILE).write_text(json.dumps(data, indent=2))

    @classmethod
    def load(cls, docs_dir: Path) -> InstalledManual | None:
        """The manual remembered in ``docs_dir``, or None."""
        path = docs_dir / MANUAL_FILE
        if not path.is_file():
            return None
        data = json.loads(path.read_text())
        return cls(Path(data["root"]), data["kind"], data.get("origin", ""))


def apt_options(workdir: Path, pkg: AptPackage) -> list[str]:
    """``-o`` options that point apt at a private sources list, lists and cache."""
    sources = workdir / "sources.list"
    sources.write_text(f"deb {pkg.mirror} {pkg.suite} {pkg.component}\n")
    lists, cache = workdir / "lists", workdir / "cache"
    for d in (lists / "partial", cache / "archives" / "partial"):
        d.mkdir(parents=True, exist_ok=True)
    pairs = {
        "Dir::Etc::SourceList": str(sources),
        "Dir::Etc::SourceParts": "/dev/null",
        "Dir::State::Lists": str(lists),
        "Dir::Cache": str(cache),
        "Acquire::Languages": "none",
    }
    return [arg for key, value in pairs.items() for arg in ("-o", f"{key}={value}")]


def _run(argv: Sequence[str], workdir: Path, what: str) -> EngineCall:
    call = run_subprocess("apt", argv, workdir, timeout_s=900)
    if not call.ok:
        raise RetrievalError(
            f"{what} failed (exit {call.exit_code}): {call.stderr_tail.strip()[-600:]}\n"
            f"Alternatively, {FROM_HINT}"
        )
    return call


def download_deb(workdir: Path, pkg: AptPackage) -> Path:
    """Download ``pkg``'s ``.deb`` into ``workdir`` with private apt options."""
    if shutil.which("apt-get") is None:
        raise RetrievalError(f"apt-get is not available on this machine; {FROM_HINT}")
    opts = apt_options(workdir, pkg)
    _run(["apt-get", *opts, "update"], workdir, f"apt-get update for Debian {pkg.suite}")
    _run(["apt-get", *opts, "download", pkg.package], workdir, f"apt-get download {pkg.package}")
    debs = sorted(workdir.glob(f"{pkg.package}_*.deb"))
    if not debs:
        raise RetrievalError(f"apt-get download left no {pkg.package} package; {FROM_HINT}")
    return debs[-1]


def extract_deb(deb: Path, dest: Path) -> LammpsManual:
    """Unpack ``deb`` into ``dest`` with ``dpkg-deb -x`` and find the manual in it."""
    if shutil.which("dpkg-deb") is None:
        raise RetrievalError(f"dpkg-deb is not available to unpack {deb.name}; {FROM_HINT}")
    dest.mkdir(parents=True, exist_ok=True)
    _run(["dpkg-deb", "-x", str(deb.resolve()), str(dest)], dest.parent, f"dpkg-deb -x {deb.name}")
    return find_manual(dest)


def _keep(manual: LammpsManual, docs_dir: Path) -> Path:
    """Move an unpacked manual directory to ``docs_dir/<kind>``, replacing an older one."""
    target = docs_dir / manual.kind
    if target.exists():
        shutil.rmtree(target)
    shutil.move(str(manual.root), target)
    return target


def install_manual(
    docs_dir: Path, from_path: Path | None = None, pkg: AptPackage | None = None
) -> InstalledManual:
    """Install the LAMMPS manual for simwright and remember it in ``docs_dir``.

    Without ``from_path`` the Debian package is downloaded; a ``.deb`` file is unpacked;
    a directory (HTML manual or LAMMPS source tree) is used in place, not copied.
    """
    docs_dir.mkdir(parents=True, exist_ok=True)
    if from_path is not None and from_path.is_dir():
        manual = find_manual(from_path)
        installed = InstalledManual(manual.root, manual.kind, f"local directory {from_path}")
    else:
        with tempfile.TemporaryDirectory(dir=docs_dir, prefix="download-") as tmp:
            work = Path(tmp)
            deb = from_path or download_deb(work, pkg or AptPackage())
            if not deb.is_file():
                raise RetrievalError(f"no such file or directory: {deb}")
            manual = extract_deb(deb, work / "unpacked")
            root = _keep(manual, docs_dir)
            installed = InstalledManual(root, manual.kind, f"Debian package {deb.name}")
    installed.save(docs_dir)
    return installed
