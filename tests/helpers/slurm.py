"""A throw-away one-node Slurm cluster for the executor tests.

Everything lives in a temporary folder: a private ``munged`` (run as the ``munge`` user,
with its own key and socket), a ``slurm.conf`` naming that socket, free ports and the
folder's state, log and pid files, then ``slurmctld`` and ``slurmd`` (one node,
``NodeAddr=127.0.0.1``, 2 CPUs, ``proctrack/linuxproc``, ``task/none``, accounting off).
Finished jobs stay listed for an hour (``MinJobAge``), so ``squeue -t all`` — the
scheduler's own job list — shows every job ever submitted, by name, to count duplicates;
``jobcomp/filetxt`` also logs each ended job. The daemons are stopped by their pid files.

Needs root (the daemons run as root, munged as ``munge``) and Debian's ``slurm-wlm`` and
``munge`` (``make test`` installs them when run as root).
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

PARTITION = "debug"
NODE = "localhost"
BINARIES = ("slurmctld", "slurmd", "sbatch", "squeue", "scancel", "scontrol", "munged")


def why_unavailable() -> str | None:
    """None when a cluster can be started here, else the reason (for a skip message)."""
    if os.geteuid() != 0:
        return "Slurm tests start slurmctld, slurmd and munged: run them as root (make test)"
    missing = [b for b in BINARIES if shutil.which(b) is None]
    if missing:
        return (
            f"Slurm not installed ({', '.join(missing)} missing): apt-get install slurm-wlm munge"
        )
    if shutil.which("runuser") is None:
        return "runuser not found: cannot start munged as the munge user"
    try:
        import psij  # noqa: F401  # lazy: the cluster extra
    except ImportError:
        return "psij-python is not installed (pip install 'simwright[cluster]')"
    return None


@dataclass(frozen=True)
class Job:
    """One job as the scheduler lists it."""

    job_id: str
    name: str
    state: str


@dataclass(frozen=True)
class SlurmCluster:
    """A running cluster: its folder and ``slurm.conf``."""

    root: Path
    conf: Path

    @property
    def env(self) -> dict[str, str]:
        """This process's environment with ``SLURM_CONF`` pointing at the cluster."""
        return {**os.environ, "SLURM_CONF": str(self.conf)}

    def command(self, *argv: str) -> str:
        """Run a Slurm command against this cluster; its stdout."""
        done = subprocess.run(
            list(argv), env=self.env, capture_output=True, text=True, timeout=60, check=True
        )
        return done.stdout

    def jobs(self, prefix: str = "") -> list[Job]:
        """Every job the scheduler lists (running, queued and ended), names starting ``prefix``."""
        out = self.command("squeue", "-h", "-t", "all", "-o", "%i|%j|%T")
        rows = [line.split("|") for line in out.splitlines() if line.strip()]
        found = [Job(i, n, s) for i, n, s in rows if n.startswith(prefix)]
        return sorted(found, key=lambda j: int(j.job_id))

    def partition(self, state: str) -> None:
        """Set the partition ``UP`` or ``DOWN`` (jobs submitted to a down one stay queued)."""
        self.command("scontrol", "update", f"PartitionName={PARTITION}", f"State={state}")

    def completion_log(self) -> str:
        """The scheduler's job-completion log (``jobcomp/filetxt``)."""
        path = self.root / "jobcomp.txt"
        return path.read_text() if path.is_file() else ""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _config(root: Path, munge_socket: Path) -> str:
    host = socket.gethostname()
    ctld, slurmd = _free_port(), _free_port()
    return f"""\
ClusterName=simwright-test
SlurmctldHost={host}(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket={munge_socket}
CredType=cred/munge
SlurmctldPort={ctld}
SlurmdPort={slurmd}
StateSaveLocation={root}/state
SlurmdSpoolDir={root}/spool
SlurmctldPidFile={root}/slurmctld.pid
SlurmdPidFile={root}/slurmd.pid
SlurmctldLogFile={root}/slurmctld.log
SlurmdLogFile={root}/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/filetxt
JobCompLoc={root}/jobcomp.txt
MinJobAge=3600
ReturnToService=2
SchedulerType=sched/builtin
MpiDefault=none
NodeName={NODE} NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName={PARTITION} Nodes={NODE} Default=YES MaxTime=INFINITE State=UP
"""


def _start_munge(root: Path) -> Path:
    """A private munged: key in a 0700 folder, socket in a 0755 one, both owned by munge."""
    keys, sock = root / "munge-key", root / "munge-socket"
    for folder, mode in ((keys, 0o700), (sock, 0o755)):
        folder.mkdir()
        shutil.chown(folder, "munge", "munge")
        folder.chmod(mode)
    key = keys / "munge.key"
    key.write_bytes(os.urandom(1024))
    shutil.chown(key, "munge", "munge")
    key.chmod(0o600)
    socket_path = sock / "munge.sock"
    subprocess.run(
        ["runuser", "-u", "munge", "--", "munged", f"--socket={socket_path}",
         f"--key-file={key}", f"--pid-file={sock / 'munged.pid'}",
         f"--log-file={keys / 'munged.log'}", f"--seed-file={keys / 'munged.seed'}"],
        check=True, capture_output=True, timeout=30,
    )  # fmt: skip
    return socket_path


def _wait_idle(cluster: SlurmCluster, timeout_s: float = 30.0) -> None:
    """Wait until the node is idle (slurmd registered with slurmctld)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        with suppress(subprocess.CalledProcessError):
            if cluster.command("sinfo", "-h", "-o", "%t").strip() == "idle":
                return
        time.sleep(0.2)
    raise RuntimeError(f"slurm node never became idle; see {cluster.root}/slurmctld.log")


def _stop(pid_files: list[Path]) -> None:
    """SIGTERM each daemon named in ``pid_files``, then wait for it to go."""
    pids = []
    for pid_file in pid_files:
        with suppress(OSError, ValueError):
            pid = int(pid_file.read_text().strip())
            os.kill(pid, signal.SIGTERM)
            pids.append(pid)
    deadline = time.monotonic() + 10
    for pid in pids:
        while time.monotonic() < deadline and Path(f"/proc/{pid}").exists():
            time.sleep(0.1)


@contextmanager
def running_cluster() -> Iterator[SlurmCluster]:
    """Start munged, slurmctld and slurmd in a temporary folder; stop them afterwards."""
    root = Path(tempfile.mkdtemp(prefix="simwright-slurm-"))
    root.chmod(0o755)
    for folder in ("state", "spool"):
        (root / folder).mkdir()
    pid_files = [root / "slurmd.pid", root / "slurmctld.pid", root / "munge-socket/munged.pid"]
    try:
        munge_socket = _start_munge(root)
        conf = root / "slurm.conf"
        conf.write_text(_config(root, munge_socket))
        cluster = SlurmCluster(root, conf)
        subprocess.run(["slurmctld"], env=cluster.env, check=True, timeout=30)
        subprocess.run(["slurmd", "-N", NODE], env=cluster.env, check=True, timeout=30)
        _wait_idle(cluster)
        yield cluster
    finally:
        _stop(pid_files)
        shutil.rmtree(root, ignore_errors=True)


def slurm_profile(poll_interval_s: float = 0.2, retries: int = 2) -> Mapping[str, object]:
    """The ``[executor]`` table of a home that runs its engine calls on this cluster."""
    return {"kind": "slurm", "poll_interval_s": poll_interval_s, "retries": retries}
