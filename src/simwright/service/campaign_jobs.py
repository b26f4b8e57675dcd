"""Campaigns advanced by the service: one process per campaign, started from one thread.

A campaign created through the service, or answered on a review event, is advanced
by ``simwright campaign resume ID`` in its own process (the command line is
injected), so a long campaign never blocks the API. The campaign's own lock keeps
two processes from advancing it. The processes are started from one long-lived
thread: their parent-death signal follows the thread that started them, so they
die with the service (and are recorded ``interrupted``; a later resume continues).

While a process advances a campaign, a marker ``<state_dir>/<campaign id>`` says so; it
is removed when the process ends by itself (the campaign completed, waits for a review
or reached a limit) and kept when the service stops or dies with it, so the next
service knows which campaigns to resume (:mod:`simwright.service.campaign_recovery`).
"""

from __future__ import annotations

import os
import queue
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from simwright.lifetime import die_with_parent

SAFE_ID = re.compile(r"^[A-Za-z0-9_.-]{1,200}$")
"""Campaign ids that may name a marker file (every id the runner makes)."""

CampaignArgv = Callable[[str], Sequence[str]]
"""The command line that advances a campaign (its id)."""


def resume_argv(home: Path) -> CampaignArgv:
    """``python -m simwright campaign resume ID --home HOME --json`` (writes the report)."""

    def argv(campaign_id: str) -> list[str]:
        return [
            sys.executable,
            "-m",
            "simwright",
            "campaign",
            "resume",
            campaign_id,
            "--home",
            str(home),
            "--json",
        ]

    return argv


@dataclass
class CampaignLauncher:
    """Starts and stops the processes advancing campaigns."""

    argv: CampaignArgv
    log_dir: Path | None = None
    """Where each process's output goes (``campaign-<id>.log``); None discards it."""
    poll_s: float = 0.2
    """How often a campaign asked for while its previous process still ran is looked at."""
    state_dir: Path | None = None
    """Where the markers of campaigns being advanced are kept; None keeps none."""
    procs: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)
    _requests: queue.Queue[str | None] = field(default_factory=queue.Queue)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _thread: threading.Thread | None = None
    _stopping: bool = False

    def start(self) -> None:
        """Start the thread that starts the processes."""
        self._thread = threading.Thread(target=self._loop, name="simwright-campaigns", daemon=True)
        self._thread.start()

    def launch(self, campaign_id: str) -> None:
        """Advance ``campaign_id`` in a process; if one of ours still runs it, start the
        next one when it has ended (it may have stopped before the request came)."""
        if self._thread is None:
            self.start()
        self._requests.put(campaign_id)

    def running(self, campaign_id: str) -> bool:
        """True while a process of ours advances ``campaign_id``."""
        with self._lock:
            proc = self.procs.get(campaign_id)
            return proc is not None and proc.poll() is None

    def marked(self) -> list[str]:
        """Campaigns marked as being advanced and not advanced by a process of ours: those
        a previous service was advancing when it stopped or died."""
        if self.state_dir is None or not self.state_dir.is_dir():
            return []
        return sorted(p.name for p in self.state_dir.iterdir() if not self.running(p.name))

    def forget(self, campaign_id: str) -> None:
        """Remove the marker of ``campaign_id`` (nothing to resume)."""
        if self.state_dir is not None and SAFE_ID.match(campaign_id):
            (self.state_dir / campaign_id).unlink(missing_ok=True)

    def _mark(self, campaign_id: str) -> None:
        if self.state_dir is not None and SAFE_ID.match(campaign_id):
            self.state_dir.mkdir(parents=True, exist_ok=True)
            (self.state_dir / campaign_id).write_text(campaign_id + "\n")

    def _reap(self) -> None:
        """Forget the processes that ended by themselves (not stopped by :meth:`stop`)."""
        with self._lock:
            if not self._stopping:
                self._reap_ended()

    def _reap_ended(self) -> None:
        ended = [cid for cid, p in self.procs.items() if p.poll() is not None]
        for campaign_id in ended:
            del self.procs[campaign_id]
            self.forget(campaign_id)

    def stop(self, grace_s: float = 10.0) -> None:
        """Interrupt the processes (their campaigns are recorded ``interrupted`` and
        keep their markers, so the next service resumes them)."""
        with self._lock:
            self._reap_ended()  # those that ended before the stop ended by themselves
            self._stopping = True
            live = [p for p in self.procs.values() if p.poll() is None]
        for proc in live:
            proc.send_signal(signal.SIGTERM)
        for proc in live:
            try:
                proc.wait(timeout=grace_s)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        self._requests.put(None)
        if self._thread is not None:
            self._thread.join(timeout=grace_s)

    def _loop(self) -> None:
        pending: set[str] = set()  # asked for while a process of ours still ran
        while True:
            try:
                asked = self._requests.get(timeout=self.poll_s)
            except queue.Empty:
                asked = ""
            if asked is None:
                return
            if asked:
                pending.add(asked)
            self._reap()
            for campaign_id in sorted(pending):
                with self._lock:  # no process starts once stop() has begun
                    if self._stopping:
                        return
                    previous = self.procs.get(campaign_id)
                    if previous is not None and previous.poll() is None:
                        continue
                    pending.discard(campaign_id)
                    self._mark(campaign_id)
                    self.procs[campaign_id] = self._spawn(campaign_id)

    def _spawn(self, campaign_id: str) -> subprocess.Popen[bytes]:
        log = subprocess.DEVNULL
        if self.log_dir is not None:
            self.log_dir.mkdir(parents=True, exist_ok=True)
            name = self.log_dir / f"campaign-{campaign_id}.log"
            log = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
        try:
            return subprocess.Popen(
                list(self.argv(campaign_id)),
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                preexec_fn=die_with_parent(),  # dies with the service, even by SIGKILL
            )
        finally:
            if log != subprocess.DEVNULL:
                os.close(log)
