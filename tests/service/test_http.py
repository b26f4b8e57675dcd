"""The service over real HTTP: ``simwright serve`` (uvicorn) in a subprocess on a free port.

A run of the real ``lattice_constant`` protocol with EMT is created, followed over
Server-Sent Events to its end and read back; a service killed mid-run (SIGKILL, its
workers with it) and started again completes the run, and a client reconnecting with
``Last-Event-ID`` misses no event; tokens are enforced beyond the loopback.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from helpers.plugins import allow_test_calculators
from helpers.service import Server, cli, free_port, sse

SLOW_SPEC = {
    "protocol": "lattice_constant",
    "parameters": {
        "element": "Cu",
        "lattice": "fcc",
        "n_points": 9,
        "calculator": "helpers.slowcalc:SlowEMT",
        "calculator_kwargs": {"delay_s": 0.6},
    },
    "request": "slow Cu (service restart test)",
}


@pytest.fixture
def home(tmp_path: Path) -> Path:
    h = tmp_path / "home"
    allow_test_calculators(h)
    return h


@pytest.fixture
def server(home: Path) -> Iterator[Server]:
    s = Server(home, free_port()).start()
    yield s
    s.stop()


def test_create_stream_and_read_results(server: Server) -> None:
    with httpx.Client(base_url=server.url, timeout=60) as c:
        r = c.post("/runs", json={"request": "lattice constant of fcc Cu with EMT"})
        assert r.status_code == 201, r.text
        created = r.json()
        run_id = created["run_id"]
        assert created["plan"]["protocol"] == "lattice_constant"
        assert created["plan"]["preflight"]["ok"] is True

        frames = list(sse(c, f"/runs/{run_id}/events"))
        assert frames[-1]["event"] == "end"
        assert frames[-1]["data"]["status"] == "completed"
        ids = [f["id"] for f in frames[:-1]]
        assert ids == sorted(set(ids))  # ordered, no repeats
        kinds = [f["event"] for f in frames[:-1]]
        assert kinds.count("step_started") == 4 and kinds.count("step_finished") == 4
        assert "progress" in kinds  # the volume scan reports its structures

        status = c.get(f"/runs/{run_id}").json()
        assert status["status"] == "completed"
        assert [s["name"] for s in status["steps"]] == [
            "BuildCrystal",
            "ScanVolumes",
            "FitEOS",
            "Report",
        ]
        assert status["queue"]["state"] == "done"

        results = c.get(f"/runs/{run_id}/results").json()
        a = results["values"]["lattice_constant"]
        assert a["unit"] == "Å"
        assert a["value"] == pytest.approx(3.59, abs=0.01)  # EMT Cu (Jacobsen et al. 1996)
        source = a["source"]
        art = next(x for x in results["artifacts"] if x["path"] == source)
        body = c.get(f"/runs/{run_id}/artifacts/{source}")
        assert body.status_code == 200
        assert hashlib.sha256(body.content).hexdigest() == art["sha256"]

        timeline = c.get(f"/runs/{run_id}/timeline").json()["timeline"]
        assert [t["step"] for t in timeline if t["kind"] == "step_finished"] == [
            "1-BuildCrystal",
            "2-ScanVolumes",
            "3-FitEOS",
            "4-Report",
        ]


def test_path_traversal_refused_and_run_intact(server: Server, home: Path) -> None:
    secret = home / "secret.txt"
    secret.write_text("not for clients")
    with httpx.Client(base_url=server.url, timeout=60) as c:
        run_id = c.post("/runs", json={"request": "lattice constant of fcc Cu with EMT"}).json()[
            "run_id"
        ]
        list(sse(c, f"/runs/{run_id}/events"))
        for path in (
            "..%2F..%2Fsecret.txt",
            "%2E%2E/%2E%2E/secret.txt",
            "steps/..%2F..%2F..%2Fsecret.txt",
        ):
            r = c.get(f"/runs/{run_id}/artifacts/{path}")
            assert r.status_code in (403, 404), (path, r.status_code)
            assert b"not for clients" not in r.content
        link = Path(c.get(f"/runs/{run_id}").json()["run_dir"]) / "out-link"
        link.symlink_to(secret)
        r = c.get(f"/runs/{run_id}/artifacts/out-link")
        assert r.status_code == 403 and "outside" in r.json()["error"]
        assert c.get(f"/runs/{run_id}?verify=true").json()["integrity"]["ok"] is True


def test_refused_requests_are_4xx_and_create_nothing(server: Server) -> None:
    with httpx.Client(base_url=server.url, timeout=60) as c:
        before = c.get("/runs").json()["runs"]
        r = c.post("/runs", json={"request": "phonons of fcc Cu"})
        assert r.status_code == 422 and r.json()["error"]
        r = c.post("/runs", json={"request": "/etc/passwd.yaml"})
        assert r.status_code == 422 and "spec file" in r.json()["error"]
        r = c.post("/runs", json={"spec": {"protocol": "no_such_protocol"}})
        assert r.status_code == 422
        r = c.post("/runs", json={"request": "x", "spec": {"protocol": "lattice_constant"}})
        assert r.status_code == 422
        assert c.get("/runs/no-such-run").status_code == 404
        plan = c.post("/runs?dry_run=true", json={"request": "lattice constant of fcc Cu with EMT"})
        assert plan.status_code == 200
        assert plan.json()["plan"]["preflight"]["estimate"]["atoms"] > 0
        assert c.get("/runs").json()["runs"] == before  # neither refusals nor a dry run made a run
        assert c.get("/openapi.json").json()["paths"]["/runs/{run_id}/events"]


@pytest.mark.slow
def test_service_killed_mid_run_resumes_on_restart(home: Path) -> None:
    port = free_port()
    first = Server(home, port).start()
    seen: list[dict] = []
    try:
        with httpx.Client(base_url=first.url, timeout=60) as c:
            run_id = c.post("/runs", json={"spec": SLOW_SPEC}).json()["run_id"]
            for frame in sse(c, f"/runs/{run_id}/events", until="progress"):
                seen.append(frame)
            first.kill()  # SIGKILL mid-scan: its worker dies with it
    finally:
        first.kill()
    second = Server(home, port).start()
    try:
        with httpx.Client(base_url=second.url, timeout=60) as c:
            rest = list(sse(c, f"/runs/{run_id}/events", last_id=seen[-1]["id"]))
            assert rest[-1]["event"] == "end" and rest[-1]["data"]["status"] == "completed"
            kinds = [f["event"] for f in rest]
            assert "requeued" in kinds
            # nothing lost, nothing repeated: both streams together are every stored event
            stored = [e["id"] for e in c.get(f"/runs/{run_id}").json()["events"]]
            assert [f["id"] for f in seen + rest[:-1]] == stored
            steps = c.get(f"/runs/{run_id}").json()["steps"]
            scans = [s for s in steps if s["name"] == "ScanVolumes"]
            assert [s["status"] for s in scans] == ["killed", "completed"]
            values = c.get(f"/runs/{run_id}/results").json()["values"]
            assert values["lattice_constant"]["value"] == pytest.approx(3.59, abs=0.01)
    finally:
        second.stop()


def test_tokens_required_beyond_the_loopback(home: Path) -> None:
    refused = cli(home, "serve", "--host", "0.0.0.0", "--port", str(free_port()))
    assert refused.returncode == 2
    assert "needs a token" in " ".join(refused.stderr.split())
    assert "service on" not in refused.stderr

    made = cli(home, "serve-token", "reader", "--scope", "read")
    assert made.returncode == 0, made.stderr
    token = made.stdout.strip()
    assert token not in (home / "config.toml").read_text()  # only its hash is stored

    server = Server(home, free_port(), host="0.0.0.0").start()  # every interface
    try:
        with httpx.Client(base_url=server.url, timeout=60) as c:
            assert c.get("/runs").status_code == 401
            bad = {"Authorization": "Bearer not-the-token"}
            assert c.get("/runs", headers=bad).status_code == 401
            ok = {"Authorization": f"Bearer {token}"}
            assert c.get("/runs", headers=ok).status_code == 200
            r = c.post("/runs", json={"request": "lattice constant of fcc Cu with EMT"}, headers=ok)
            assert r.status_code == 403 and "run" in r.json()["detail"]
            assert c.get("/health").status_code == 200
    finally:
        server.stop()
