// simwright dashboard: live updates without any library. Text from the server is
// only ever inserted as text (textContent), never as HTML.
"use strict";

const FINISHED = ["completed", "failed", "needs_review", "cancelled", "interrupted"];

function setStatus(el, status) {
  if (!el) return;
  el.textContent = status;
  // getAttribute: an SVG element's className is not a string
  const kept = (el.getAttribute("class") || "").replace(/\bstatus-[\w-]+/g, "").trim();
  el.setAttribute("class", kept + " status-" + status);
}

function followRun(body) {
  const runId = body.dataset.runId;
  if (body.dataset.finished === "true") return;
  const log = document.getElementById("live-log");
  const bar = document.getElementById("progress");
  const text = document.getElementById("progress-text");
  const after = body.dataset.lastEvent || "0";
  const source = new EventSource("/ui/runs/" + encodeURIComponent(runId) + "/events?after=" + after);
  const add = (kind, message) => {
    const li = document.createElement("li");
    const k = document.createElement("span");
    k.className = "kind";
    k.textContent = kind;
    li.append(k, " " + (message || ""));
    log.append(li);
    log.scrollTop = log.scrollHeight;
  };
  const onEvent = (e) => {
    let data = {};
    try { data = JSON.parse(e.data); } catch (err) { return; }
    add(e.type, data.message);
    const payload = data.payload || {};
    if (e.type === "progress" && typeof payload.fraction === "number") {
      bar.value = payload.fraction;
      text.textContent = data.message || "";
    }
    if (e.type === "step_started" || e.type === "step_finished") {
      const name = payload.step;
      const status = e.type === "step_started" ? "running" : (payload.status || "completed");
      document.querySelectorAll("[data-step-status]").forEach((el) => {
        if (el.dataset.stepStatus === name) setStatus(el, status);
      });
      text.textContent = data.message || "";
      if (e.type === "step_started") { bar.removeAttribute("value"); }
    }
    if (["queued", "resumed", "run_started"].includes(e.type)) {
      setStatus(document.getElementById("run-status"), e.type === "queued" ? "queued" : "running");
    }
  };
  ["queued", "resumed", "run_started", "entry", "step_started", "progress", "step_finished",
   "step_failed", "requeued", "cancelled", "interrupted", "message"].forEach((kind) => {
    source.addEventListener(kind, onEvent);
  });
  source.addEventListener("end", (e) => {
    source.close();
    let status = "completed";
    try { status = JSON.parse(e.data).status; } catch (err) { /* keep */ }
    setStatus(document.getElementById("run-status"), status);
    bar.value = 1;
    text.textContent = "finished: " + status + " (loading the results…)";
    setTimeout(() => window.location.reload(), 600);
  });
}

function pollRuns() {
  const cells = document.querySelectorAll("[data-run-status]");
  if (!cells.length) return;
  const tick = () => fetch("/ui/runs.json", { credentials: "same-origin" })
    .then((r) => (r.ok ? r.json() : null))
    .then((data) => {
      if (!data) return;
      const byId = new Map(data.runs.map((r) => [r.run_id, r.status]));
      let active = false;
      cells.forEach((el) => {
        const s = byId.get(el.dataset.runStatus);
        if (s) setStatus(el, s);
        if (s && !FINISHED.includes(s)) active = true;
      });
      if (active) setTimeout(tick, 2000);
    });
  setTimeout(tick, 1500);
}

function pollCampaign(body) {
  const id = body.dataset.campaignId;
  const tick = () => fetch("/ui/campaigns/" + encodeURIComponent(id) + "/grid.json", { credentials: "same-origin" })
    .then((r) => (r.ok ? r.json() : null))
    .then((data) => {
      if (!data) return;
      data.rows.flat().forEach((cell) => {
        document.querySelectorAll("[data-cell]").forEach((td) => {
          if (td.dataset.cell !== cell.system + "/" + cell.condition) return;
          td.className = "cell cell-" + cell.status;
          const label = td.querySelector(".label");
          if (label) label.textContent = cell.label;
        });
      });
      setStatus(document.getElementById("campaign-status"), data.status);
      const was = body.dataset.advancing === "true";
      body.dataset.advancing = data.advancing ? "true" : "false";
      if (was && !data.advancing) { window.location.reload(); return; }
      const settled = ["completed", "failed", "needs_review"].includes(data.status);
      if (data.advancing || !settled) setTimeout(tick, 1500);
    });
  setTimeout(tick, 1000);
}

document.addEventListener("DOMContentLoaded", () => {
  const body = document.body;
  if (body.dataset.page === "run") followRun(body);
  if (body.dataset.page === "runs") pollRuns();
  if (body.dataset.page === "campaign") pollCampaign(body);
});
