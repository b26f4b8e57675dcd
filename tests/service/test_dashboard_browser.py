"""The dashboard in headless Chromium against a real ``simwright serve`` on the loopback.

A request typed into the form is planned (given vs assumed parameters, cost), submitted,
followed live over Server-Sent Events to its end, and its plot opened; a campaign's
review event is approved by a reviewer signed in with a token, and the campaign is seen
to finish. Screenshots: ``test-artifacts/dashboard/*.png``.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from helpers.browser import browser_page, screenshot, skip_without_browser
from helpers.campaign import ESCALATING
from helpers.plugins import allow_test_calculators
from helpers.service import Server, free_port
from simwright.service.config import add_token

REQUEST = "lattice constant of fcc Cu with EMT"


@pytest.fixture
def home(tmp_path: Path) -> Path:
    skip_without_browser()
    h = tmp_path / "home"
    allow_test_calculators(h)
    return h


@pytest.fixture
def server(home: Path) -> Iterator[Server]:
    s = Server(home, free_port()).start()
    yield s
    s.stop()


@pytest.mark.slow
def test_submit_from_the_form_follow_it_live_and_open_the_plot(server: Server) -> None:
    with browser_page() as page:
        streams: list[str] = []
        page.on("request", lambda r: streams.append(r.url) if "/events" in r.url else None)
        page.goto(f"{server.url}/ui/new")
        page.get_by_label("Request").fill(REQUEST)
        page.get_by_role("button", name="Show the plan").click()
        page.wait_for_url("**/ui/plan")
        params = page.get_by_role("table").first
        assert params.get_by_role("row", name=re.compile(r"^element Cu .*given")).count() == 1
        assert params.get_by_role("row", name=re.compile(r"^n_points 9 .*assumed")).count() == 1
        assert page.get_by_role("heading", name="Cost estimate").is_visible()
        screenshot(page, "plan")

        page.get_by_role("button", name="Submit the run").click()
        page.wait_for_url(re.compile(r".*/ui/runs/[^/]+$"))
        run_id = page.url.rsplit("/", 1)[-1]
        followed = page.locator("body").get_attribute("data-finished") == "false"
        screenshot(page, "run-live")
        status = page.locator("#run-status")
        status.filter(has_text="completed").wait_for(timeout=120_000)
        values = page.get_by_role("table", name=re.compile("Values with units"))
        values.wait_for()  # on the page reloaded at the end (the results are rendered)
        if followed:  # the page was open before the run ended: it was followed live
            assert any(f"/ui/runs/{run_id}/events" in u for u in streams)
        row = values.get_by_role("row", name=re.compile(r"^lattice_constant "))
        value, _, unit, source = row.get_by_role("cell").all_inner_texts()
        assert float(value) == pytest.approx(3.59, abs=0.01)  # EMT Cu (Jacobsen et al. 1996)
        assert unit == "Å" and source.endswith("results.h5")
        assert page.get_by_role("listitem").filter(has_text="FitEOS").count() >= 1
        graph = page.get_by_role("img", name=re.compile(r"^Step graph of lattice_constant"))
        assert graph.is_visible()
        fit = graph.locator('[data-node="FitEOS"]')
        assert fit.get_attribute("data-executed") == "true"
        assert "completed" in (fit.text_content() or "")
        assert page.get_by_role("heading", name="Report").is_visible()
        screenshot(page, "run-completed")

        plot = page.locator("a.plot-link").first
        href = plot.get_attribute("href")
        assert href and href.endswith(".png")
        with page.expect_navigation() as nav:
            plot.click()
        response = nav.value
        assert response is not None and response.status == 200
        assert response.headers["content-type"] == "image/png"


def _wait(client: httpx.Client, url: str, status: str, limit_s: float = 120) -> None:
    deadline = time.monotonic() + limit_s
    while True:
        data = client.get(url).json()
        if data["status"] == status and not data["advancing"]:
            return
        assert time.monotonic() < deadline, data["status"]
        time.sleep(0.3)


@pytest.mark.slow
def test_a_reviewer_signs_in_and_approves_a_campaign_event(home: Path) -> None:
    operator = {"Authorization": f"Bearer {add_token(home, 'operator', ('read', 'run'))}"}
    reviewer_token = add_token(home, "alice-reviewer", ("read", "review"))
    server = Server(home, free_port()).start()
    try:
        with httpx.Client(base_url=server.url, timeout=60, headers=operator) as c:
            cid = c.post("/campaigns", json={"spec": ESCALATING}).json()["campaign_id"]
            _wait(c, f"/campaigns/{cid}", "needs_review")
        with browser_page() as page:
            page.goto(f"{server.url}/ui/campaigns/{cid}")
            page.wait_for_url("**/ui/login")
            page.get_by_label("Access token").fill(reviewer_token)
            page.get_by_role("button", name="Sign in").click()
            page.wait_for_url("**/ui/")
            page.goto(f"{server.url}/ui/campaigns/{cid}")
            cell = page.locator('[data-cell="a/p50"]')
            assert "needs review" in cell.inner_text()  # said in words, not colour alone
            screenshot(page, "campaign-needs-review")

            page.get_by_role("link", name=re.compile("waiting for review")).click()
            page.get_by_role("heading", name=re.compile("CONVERGENCE_ANOMALY")).wait_for()
            page.get_by_label("Rationale (kept with the decision)").fill("slow, but flat enough")
            screenshot(page, "review-queue")
            page.get_by_role("button", name="Approve").click()
            result = page.locator("#decision-result")
            result.wait_for()
            text = result.inner_text()
            assert "alice-reviewer" in text and "accept" in text and "applied" in text

            page.goto(f"{server.url}/ui/campaigns/{cid}")
            cell = page.locator('[data-cell="a/p50"] .label')
            cell.filter(has_text="done (archived)").wait_for(timeout=120_000)
            page.locator("#campaign-status").filter(has_text="completed").wait_for()
            with httpx.Client(base_url=server.url, timeout=60, headers=operator) as c:
                _wait(c, f"/campaigns/{cid}", "completed")  # its report written
            final = page.context.new_page()  # apart from the live page's own reload
            final.goto(f"{server.url}/ui/campaigns/{cid}")
            audit = final.get_by_role("table", name=re.compile("Actions taken"))
            assert "alice-reviewer (human)" in audit.inner_text()
            screenshot(final, "campaign-completed")
    finally:
        server.stop()
