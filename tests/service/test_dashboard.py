"""The dashboard in-process (ASGI): sign-in with an HttpOnly cookie, scopes, CSRF, escaping
of user and model text, and the Markdown renderer of reports. Real SQLite store."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml
from fastapi.testclient import TestClient
from pydantic import BaseModel

from helpers.campaign import ESCALATING, merged
from simwright.api import Campaigns, Simwright
from simwright.graph import Done, Graph, RunContext, Runner, Step
from simwright.protocols.registry import Protocol
from simwright.service.app import create_app
from simwright.service.auth import Auth
from simwright.service.campaign_jobs import CampaignLauncher
from simwright.service.config import ServiceConfig, Token, hash_token
from simwright.service.dashboard.markdown import render
from simwright.settings import Settings

EVIL = "<img src=x onerror=alert(1)>"


def _client(
    settings: Settings, *tokens: Token, protocols: dict[str, Protocol] | None = None
) -> tuple[TestClient, Simwright]:
    api = Simwright(settings, protocols=protocols)
    launcher = CampaignLauncher(lambda cid: ["true"])  # campaigns are advanced in the test
    app = create_app(api, Auth(ServiceConfig(tokens)), launcher=launcher)
    return TestClient(app, follow_redirects=False), api


def _csrf(html: str) -> str:
    found = re.search(r'name="csrf" value="([0-9a-f]+)"', html)
    assert found, "the page has no CSRF field"
    return found.group(1)


def test_sign_in_keeps_the_token_in_an_httponly_cookie_and_scopes_hold(settings: Settings) -> None:
    viewer = Token("viewer", hash_token("read-token"), frozenset({"read"}))
    c, _ = _client(settings, viewer)
    assert c.get("/ui/").headers["location"] == "/ui/login"
    assert c.get("/ui/campaigns").status_code == 303
    form = c.get("/ui/login")
    assert 'type="password"' in form.text and '<label for="token">' in form.text
    assert c.post("/ui/login", data={"token": "read-token"}).status_code == 403  # no CSRF
    csrf = _csrf(form.text)
    assert c.post("/ui/login", data={"token": "wrong", "csrf": csrf}).status_code == 401
    ok = c.post("/ui/login", data={"token": "read-token", "csrf": csrf})
    assert ok.status_code == 303
    cookie = ok.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=strict" in cookie and "path=/ui" in cookie
    page = c.get("/ui/")
    assert page.status_code == 200 and "signed in as <strong>viewer</strong>" in page.text
    assert "read-token" not in page.text  # the token never comes back in a page
    assert c.get("/ui/new").status_code == 403  # a reader may not submit runs
    # the cookie opens the dashboard only: the JSON API still wants the header
    assert c.get("/runs", headers={"Cookie": "simwright_token=read-token"}).status_code == 401
    assert c.post("/ui/logout", data={"csrf": _csrf(page.text)}).status_code == 303


def test_forms_need_their_csrf_token_and_this_origin(settings: Settings) -> None:
    c, _ = _client(settings)
    csrf = _csrf(c.get("/ui/new").text)
    r = c.post("/ui/plan", data={"request": "lattice constant of fcc Cu with EMT"})
    assert r.status_code == 403
    r = c.post(
        "/ui/plan",
        data={"request": "x", "csrf": csrf},
        headers={"Origin": "http://evil.example"},
    )
    assert r.status_code == 403 and "another site" in r.text
    assert c.post("/ui/submit", data={"request": "x"}).status_code == 403
    assert c.get("/ui/runs.json").json() == {"runs": []}  # nothing was created


def test_user_and_model_text_is_escaped(settings: Settings) -> None:
    c, api = _client(settings)
    csrf = _csrf(c.get("/ui/new").text)
    refused = c.post("/ui/plan", data={"request": f"vapour pressure of {EVIL}", "csrf": csrf})
    assert refused.status_code == 422 and 'role="alert"' in refused.text
    assert EVIL not in refused.text and "&lt;img src=x onerror=alert(1)&gt;" in refused.text
    assert "script-src 'self'" in refused.headers["content-security-policy"]

    campaigns = Campaigns(settings, api.store)
    spec = merged(ESCALATING, {"objective": f"objective {EVIL}"})
    cid = campaigns.create(spec, who="tester")
    campaigns.run(cid, who="tester", report=False)
    campaigns.decide(cid, "1", "continue", who="tester", rationale=f"rationale {EVIL}")
    for url in (f"/ui/campaigns/{cid}", f"/ui/campaigns/{cid}/reviews", "/ui/campaigns"):
        page = c.get(url)
        assert page.status_code == 200, url
        assert EVIL not in page.text, url
    grid = c.get(f"/ui/campaigns/{cid}").text
    assert "needs review" in grid or "pending" in grid or "running" in grid  # words, not colour
    trace = c.get(f"/ui/campaigns/{cid}/states/a/p50").text
    assert "<svg" in trace and "budget_exhausted" in trace


@pytest.mark.parametrize(
    ("markdown", "present", "absent"),
    [
        ("# Title <b>x</b>", "<h1>Title &lt;b&gt;x&lt;/b&gt;</h1>", "<b>"),
        ("<script>alert(1)</script>", "&lt;script&gt;", "<script>"),
        ("[click](javascript:alert(1))", "click", "javascript:"),
        ("[ref](https://doi.org/10.1/x)", '<a href="https://doi.org/10.1/x"', ""),
        ("![plot](plot.png)", '<img src="/f/plot.png" alt="plot"', ""),
        ("![x](/etc/passwd)", "[image: x]", "<img"),
        ("![x](../secret.png)", "[image: x]", "<img"),
        ("| a | b |\n|---|---|\n| 1 | **2** |", "<td><strong>2</strong></td>", ""),
        ("- one\n- `<two>`", "<li><code>&lt;two&gt;</code></li>", "<two>"),
        ("```\n<raw>\n```", "<pre><code>&lt;raw&gt;</code></pre>", "<raw>"),
    ],
)
def test_the_report_renderer_escapes(markdown: str, present: str, absent: str) -> None:
    html = render(markdown, image_base="/f/")
    assert present in html
    if absent:
        assert absent not in html


def test_static_files_and_unknown_pages(settings: Settings, tmp_path: Path) -> None:
    c, _ = _client(settings)
    js = c.get("/ui/static/dashboard.js")
    assert js.status_code == 200 and "textContent" in js.text and "innerHTML" not in js.text
    assert c.get("/ui/static/../app.py").status_code == 404
    missing = c.get("/ui/runs/no-such-run")
    assert missing.status_code == 404 and "no run with id" in missing.text
    assert c.get("/").headers["location"] == "/ui/"


def test_campaign_forms_create_and_decide_as_the_visitor(settings: Settings) -> None:
    c, api = _client(settings)
    page = c.get("/ui/campaigns")
    csrf = _csrf(page.text)
    refused = c.post("/ui/campaigns", data={"spec": "name: x\n", "csrf": csrf})
    assert refused.status_code == 422 and "invalid campaign spec" in refused.text
    made = c.post("/ui/campaigns", data={"spec": yaml.safe_dump(ESCALATING), "csrf": csrf})
    assert made.status_code == 303
    cid = made.headers["location"].rsplit("/", 1)[-1]
    campaigns = Campaigns(settings, api.store)
    created = c.get(f"/ui/campaigns/{cid}").text
    assert "Resume the campaign" in created  # recorded, not advanced by this test's launcher
    resumed = c.post(f"/ui/campaigns/{cid}/resume", data={"csrf": csrf})
    assert resumed.status_code == 303
    assert [a["action"] for a in campaigns.actions(cid)] == ["create", "resume"]
    campaigns.run(cid, who="tester", report=False)  # the launcher of this test runs nothing

    queue = c.get(f"/ui/campaigns/{cid}/reviews")
    assert "Approve = accept the state as it stands." in queue.text
    url = f"/ui/campaigns/{cid}/reviews/{cid}-e0001/decide"
    choice = {"verdict": "choose", "action": "retry", "csrf": csrf}
    answer = c.post(url, data=choice)
    assert answer.status_code == 303
    shown = c.get(answer.headers["location"]).text
    assert "Decision by local on" in shown and "refused" in shown
    rejected = c.post(url, data={"verdict": "reject", "rationale": "no", "csrf": csrf})
    assert c.get(rejected.headers["location"]).text.count("applied") >= 1
    assert campaigns.grid(cid).cells[0][0].status == "failed"
    who = [(d["reviewer"], d["action"], d["valid"]) for d in campaigns.history(cid)]
    assert who == [("local", "retry", False), ("local", "stop", True)]


def test_a_run_page_shows_graph_results_plot_report_and_summaries(settings: Settings) -> None:
    c, api = _client(settings)
    run_id = api.submit("lattice constant of fcc Cu with EMT", files=False).run_id
    assert api.execute(run_id).status == "completed"
    page = c.get(f"/ui/runs/{run_id}")
    assert page.status_code == 200
    text = page.text
    assert 'data-finished="true"' in text
    assert 'data-step-status="FitEOS">completed' in text and "stateDiagram-v2" in text
    svg = _step_svg(text)
    for step in ("BuildCrystal", "ScanVolumes", "FitEOS", "Report", "Done"):
        assert svg[step] == "true", step  # every step drawn, each executed
    assert 'data-edge="FitEOS->Report"' in text
    assert '<th scope="row">lattice_constant</th><td>3.59' in text
    assert "<h1>Lattice constant of Cu</h1>" in text  # report.md rendered
    assert text.count("<details><summary>Summary</summary>") >= 2  # structure, tables
    plot = re.search(r'<img src="(/ui/runs/[^"]+\.png)"', text)
    assert plot, "no plot on the page"
    image = c.get(plot.group(1))
    assert image.status_code == 200 and image.headers["content-type"] == "image/png"
    assert "sandbox" in image.headers["content-security-policy"]
    assert c.get(f"/ui/runs/{run_id}/files/../../simwright.db").status_code in (403, 404)


@dataclass(frozen=True)
class Judge(Step):
    """A decision point with two options."""

    def run(self, ctx: RunContext) -> Keep | Redo:
        offered = {"keep": Keep(), "redo": Redo()}
        return ctx.decide("keep_or_redo", offered, {"r2": 0.9})  # type: ignore[return-value]


@dataclass(frozen=True)
class Keep(Step):
    """Keep the result."""

    def run(self, ctx: RunContext) -> Done[str]:
        return Done("kept")


@dataclass(frozen=True)
class Redo(Step):
    """Do it again."""

    def run(self, ctx: RunContext) -> Done[str]:
        return Done("redone")


class NoParameters(BaseModel):
    """A protocol without parameters."""


JUDGE = Protocol(
    name="judge",
    title="Judge",
    summary="a decision point",
    graph=Graph.build("judge", [Judge, Keep, Redo]),
    parameters=NoParameters,
    start=lambda _params: Judge(),
    examples=(),
    parse_request=lambda _text: None,
)


def test_a_run_waiting_for_a_decision_is_answered_from_its_page(settings: Settings) -> None:
    c, api = _client(settings, protocols={"judge": JUDGE})
    out = Runner(api.store, settings).start(JUDGE.graph, Judge(), protocol="judge")
    assert out.status == "needs_review"
    page = c.get(f"/ui/runs/{out.run_id}")
    assert "Waiting for a decision: keep_or_redo" in page.text
    assert 'value="redo">Choose redo</button>' in page.text
    answered = c.post(
        f"/ui/runs/{out.run_id}/resume", data={"choose": "redo", "csrf": _csrf(page.text)}
    )
    assert answered.status_code == 303
    assert api.status(out.run_id)["queue"] == {"state": "queued", "choose": "redo"}
    assert api.execute(out.run_id, choose="redo").result == "redone"
    svg = _step_svg(c.get(f"/ui/runs/{out.run_id}").text)
    assert svg == {"Judge": "true", "Keep": "false", "Redo": "true", "Done": "true"}


def _step_svg(html: str) -> dict[str, str]:
    """The step graph's inline SVG on a run page: each node's ``data-executed``; the
    taken edges are drawn solid (class ``taken``)."""
    found = re.search(r'<figure class="stepgraph">\s*<svg role="img".*?</svg>', html, re.S)
    assert found, "no step graph SVG on the page"
    nodes = re.findall(r'data-node="([^"]+)" data-executed="(true|false)"', found.group(0))
    taken = re.findall(r'class="edge taken[^"]*" data-edge="([^"]+)"', found.group(0))
    assert taken, "no edge of the run's path is marked"
    return dict(nodes)


def test_run_and_campaign_lists_are_paged(settings: Settings) -> None:
    c, api = _client(settings)
    runs = [api.submit("lattice constant of fcc Cu with EMT", files=False).run_id for _ in "abc"]
    first = c.get("/ui/?limit=2&status=queued").text
    assert [r for r in runs if f'href="/ui/runs/{r}"' in first] == runs[1:]  # newest first
    older = re.search(r'<a rel="next" href="([^"]+)">Older runs', first)
    assert older and "status=queued" in older.group(1) and 'rel="prev"' not in first
    second = c.get(older.group(1).replace("&amp;", "&")).text
    assert f'href="/ui/runs/{runs[0]}"' in second and "Runs 3–3" in second
    assert 'rel="next"' not in second and "Newer runs" in second
    assert "No runs on this page" in c.get("/ui/?limit=2&offset=10").text
    assert c.get("/ui/?limit=0").status_code == 422

    campaigns = Campaigns(settings, api.store)
    made = [campaigns.create(merged(ESCALATING, {"name": n}), who="t") for n in ("x", "y")]
    one = c.get("/ui/campaigns?limit=1").text
    assert made[1] in one and made[0] not in one and "Older campaigns" in one
    assert made[0] in c.get("/ui/campaigns?limit=1&offset=1").text
