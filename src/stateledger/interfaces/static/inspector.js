// stateledger inspector: a read-mostly view over the REST API, no build step, no dependencies.
// Every value from the server is put into the page with textContent (never innerHTML), so a
// stored memory can never inject markup or script; the CSP forbids inline script anyway.
"use strict";

(() => {
  const $ = (sel) => document.querySelector(sel);
  const state = { key: "", user: "", logOffset: 0, byId: new Map() };
  const LOG_PAGE = 20;
  const KEY_SLOT = "stateledger.inspector.key"; // sessionStorage: this tab only

  // el("div", {class: "x", dataset: {id: 1}, onclick: fn}, child, "text", ...)
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (name === "dataset") Object.assign(node.dataset, value);
      else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
      else node.setAttribute(name, value === true ? "" : String(value));
    }
    for (const child of children.flat()) {
      if (child === undefined || child === null || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function status(message, isError) {
    const node = $("#status");
    node.textContent = message;
    node.classList.toggle("error", Boolean(isError));
  }

  async function api(method, path, body) {
    const headers = { Authorization: "Bearer " + state.key, Accept: "application/json" };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const resp = await fetch(path, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body),
    });
    let data = null;
    try { data = await resp.json(); } catch (_) { /* empty or non-JSON body */ }
    if (!resp.ok) {
      const msg = data && data.error ? data.error.message : resp.statusText;
      const err = new Error(`${resp.status}: ${msg}`);
      err.status = resp.status;
      throw err;
    }
    return data;
  }

  const day = (iso) => (iso ? iso.slice(0, 10) : "");
  const short = (id) => id.slice(0, 8);
  const labelClass = (label) => "lb-" + label.replace(" memory", "").replace(/ /g, "-");

  // ------------------------------------------------------------------ facts (timelines)

  // A fact is a connected component of the user's records over their links (supersedes,
  // evolves, contradicts, verifies, ...): every state of it, in one chain.
  function groupFacts(records) {
    const byId = new Map(records.map((r) => [r.id, r]));
    const parent = new Map(records.map((r) => [r.id, r.id]));
    const find = (id) => {
      while (parent.get(id) !== id) { parent.set(id, parent.get(parent.get(id))); id = parent.get(id); }
      return id;
    };
    for (const r of records) {
      for (const link of r.links) if (byId.has(link.to)) parent.set(find(r.id), find(link.to));
    }
    const groups = new Map();
    for (const r of records) {
      const root = find(r.id);
      if (!groups.has(root)) groups.set(root, []);
      groups.get(root).push(r);
    }
    const order = (a, b) => a.valid_from.localeCompare(b.valid_from)
      || a.recorded_at.localeCompare(b.recorded_at);
    return [...groups.values()].map((g) => g.sort(order)).sort((a, b) => order(a[0], b[0]));
  }

  function highlight(id) {
    document.querySelectorAll(".state.highlight").forEach((n) => n.classList.remove("highlight"));
    const node = document.querySelector(`.state[data-id="${CSS.escape(id)}"]`);
    if (node) {
      node.classList.add("highlight");
      node.scrollIntoView({ behavior: "smooth", block: "nearest", inline: "center" });
    }
  }

  // What a state reads as: a pending claim that a later record verified was confirmed,
  // not superseded by something else (its content is the live state now).
  const shownStatus = (r) => (r.status === "superseded"
    && r.links.some((lk) => lk.type === "verified_by") ? "confirmed" : r.status);
  // A link names its target by value (or a short text), never by hash alone.
  function targetName(id) {
    const t = state.byId.get(id);
    if (!t) return short(id);
    const text = t.value || t.text;
    return text.length > 40 ? text.slice(0, 39) + "…" : text;
  }

  function stateCard(r, live) {
    // Pending and rejected claims never held in the world: show when they were said, not a
    // validity interval.
    const unaccepted = r.status === "pending" || r.status === "rejected";
    const shown = shownStatus(r);
    const valid = unaccepted ? "said " + day(r.valid_from)
      : shown === "confirmed" ? "said " + day(r.valid_from) + " · confirmed"
        : day(r.valid_from) + (r.valid_to ? " → " + day(r.valid_to) : " → now");
    const links = r.links.map((lk) => el("li", {},
      lk.type.replace(/_/g, " ") + " → ",
      el("a", { class: "target", title: lk.to, onclick: () => highlight(lk.to) },
        targetName(lk.to))));
    const actions = r.status === "pending" ? el("div", { class: "actions" },
      el("button", { type: "button", class: "confirm", onclick: () => resolve(r.id, "confirm") },
        "Confirm"),
      el("button", { type: "button", class: "deny secondary",
        onclick: () => resolve(r.id, "deny") }, "Deny")) : null;
    return el("div", { class: live ? "state live" : "state",
      dataset: { id: r.id, status: r.status, shown } },
      el("div", {}, el("span", { class: "badge st-" + shown }, live ? "live · " + shown : shown),
        " ", el("span", { class: "kv" }, valid)),
      el("div", { class: "text" }, r.text),
      el("div", { class: "kv" }, r.slot ? el("b", {}, r.slot + " = " + (r.value ?? "?")) : "no slot",
        ` · ${r.ledger} ledger`),
      el("div", { class: "kv" }, `source ${r.source} · confidence ${r.confidence.toFixed(2)}`),
      el("div", { class: "kv" }, "provenance: ", r.provenance || "—",
        ` · recorded ${day(r.recorded_at)}`),
      el("div", { class: "kv" }, "id ", el("span", { class: "id", title: r.id }, short(r.id))),
      links.length ? el("ul", { class: "links" }, links) : null,
      actions);
  }

  const isLive = (r) => r.status === "active" || r.status === "transition";
  // A lone record with no state variable and no link to any other is a note (small talk,
  // a passing remark), not a fact with states: listed apart, out of the way.
  const isNote = (states) => states.length === 1 && !states[0].slot && !states[0].links.length;

  function renderFacts(records) {
    const box = $("#facts");
    box.replaceChildren();
    state.byId = new Map(records.map((r) => [r.id, r]));
    if (!records.length) {
      box.append(el("p", { class: "empty" }, "No records for this user."));
      return { facts: 0, notes: 0 };
    }
    const groups = groupFacts(records);
    const notes = groups.filter(isNote).map((g) => g[0]);
    for (const states of groups.filter((g) => !isNote(g))) {
      const named = states.find((r) => r.slot) || states[0];
      const live = states.filter(isLive);
      const about = named.subject !== "user" ? ` (about ${named.subject})` : "";
      // The live state comes first and stays pinned at the left while the older states
      // scroll; they follow oldest first.
      const ordered = [...live, ...states.filter((r) => !isLive(r))];
      box.append(el("article", { class: "fact", dataset: { slot: named.slot || "" } },
        el("div", { class: "fact-head" },
          el("h3", {}, (named.slot || "fact") + about),
          el("span", { class: "meta" }, `${states.length} state${states.length > 1 ? "s" : ""}`
            + (live.length ? ` · live: ${live.map((r) => r.value || r.text).join(", ")}` : "")),
          el("button", { type: "button", class: "forget secondary",
            title: "delete every state of this fact",
            onclick: () => forget(states[0].id, named.slot || "fact") }, "Forget")),
        el("div", { class: "timeline" }, ordered.map((r) => stateCard(r, isLive(r))))));
    }
    if (notes.length) {
      box.append(el("details", { id: "notes" },
        el("summary", {}, `${notes.length} note${notes.length > 1 ? "s" : ""} (no state of their own)`),
        el("ul", {}, notes.map((r) => el("li", { dataset: { id: r.id } },
          el("span", { class: "kv" }, day(r.valid_from) + " "), r.text)))));
    }
    return { facts: groups.length - notes.length, notes: notes.length };
  }

  function renderLog(rows) {
    const body = $("#log tbody");
    body.replaceChildren(...rows.map((t) => el("tr", {},
      el("td", {}, day(t.at)),
      el("td", {}, el("span", { class: "badge action-" + t.action }, t.action)),
      el("td", {}, t.text), el("td", {}, t.reason), el("td", {}, t.policy))));
  }

  async function loadLog() {
    const user = encodeURIComponent(state.user);
    // One more than a page, to know whether an older page exists.
    const rows = await api("GET",
      `/v1/transactions/${user}?limit=${LOG_PAGE + 1}&offset=${state.logOffset}`);
    renderLog(rows.slice(0, LOG_PAGE));
    $("#log-newer").disabled = state.logOffset === 0;
    $("#log-older").disabled = rows.length <= LOG_PAGE;
    const first = rows.length ? state.logOffset + 1 : 0;
    $("#log-page").textContent = rows.length
      ? `${first}–${state.logOffset + Math.min(rows.length, LOG_PAGE)}` : "none";
  }

  async function pageLog(step) {
    state.logOffset = Math.max(0, state.logOffset + step * LOG_PAGE);
    try { await loadLog(); } catch (err) { status(err.message, true); }
  }

  async function loadUser() {
    state.user = $("#user").value;
    $("#export").disabled = !state.user;
    if (!state.user) return;
    status(`Loading ${state.user}…`);
    try {
      const user = encodeURIComponent(state.user);
      const records = await api("GET", `/v1/users/${user}/records?ledger=all`);
      state.logOffset = 0;
      await loadLog();
      const shown = renderFacts(records);
      status(`${state.user}: ${records.length} record(s) in ${shown.facts} fact(s)`
        + (shown.notes ? ` and ${shown.notes} note(s).` : "."));
    } catch (err) {
      status(err.message, true);
    }
  }

  async function forget(id, what) {
    if (!window.confirm(`Forget this ${what} fact? Every state of it is deleted for good.`)) {
      return;
    }
    try {
      const gone = await api("DELETE", `/v1/records/${encodeURIComponent(id)}`);
      await loadUser();
      status(`Forgot ${gone.deleted.length} record(s) of that ${what} fact.`);
    } catch (err) {
      status(err.message, true);
    }
  }

  async function exportUser() {
    if (!state.user) return;
    try {
      const resp = await fetch(`/v1/users/${encodeURIComponent(state.user)}/export`,
        { headers: { Authorization: "Bearer " + state.key } });
      if (!resp.ok) throw new Error(`${resp.status}: ${resp.statusText}`);
      const text = await resp.text();
      const link = $("#export-link");
      if (link.href) URL.revokeObjectURL(link.href);
      link.href = URL.createObjectURL(new Blob([text], { type: "application/x-ndjson" }));
      link.download = `${state.user}.jsonl`;
      link.click();
      const lines = text.split("\n").filter(Boolean).length;
      status(`Exported ${state.user}: ${lines} line(s) (${link.download}).`);
    } catch (err) {
      status(err.message, true);
    }
  }

  async function resolve(id, action) {
    try {
      const tx = await api("POST", `/v1/pending/${encodeURIComponent(id)}/resolve`, { action });
      await loadUser();
      status(`${action === "confirm" ? "Confirmed" : "Denied"} ${short(id)}: ${tx.action}.`);
    } catch (err) {
      status(err.message, true);
    }
  }

  // ------------------------------------------------------------------ search / answer

  function renderPacket(packet, answer) {
    $("#result").hidden = false;
    const answerText = $("#answer-text");
    answerText.hidden = !answer;
    answerText.textContent = answer ? `Answer: ${answer.text}` : "";
    const view = $("#view");
    view.textContent = packet.view;
    view.className = "badge view-" + packet.view;
    const items = packet.items || packet.evidence;
    const rows = items.map((ev, i) => el("tr", { dataset: { id: ev.record.id } },
      el("td", {}, String(i + 1)),
      el("td", {}, el("span", { class: "badge label " + labelClass(ev.label) }, ev.label)),
      el("td", {}, ev.record.text),
      el("td", {}, el("span", { class: "badge st-" + ev.record.status }, ev.record.status)),
      el("td", {}, day(ev.record.valid_from) + (ev.record.valid_to ? " → " + day(ev.record.valid_to) : "")),
      el("td", {}, ev.bucket),
      el("td", {}, ev.score.toFixed(3))));
    $("#evidence tbody").replaceChildren(...(rows.length ? rows
      : [el("tr", {}, el("td", { colspan: 7, class: "empty" }, "no evidence"))]));
    $("#trace").textContent = JSON.stringify(packet.trace, null, 2);
  }

  async function runQuery(kind) {
    if (!state.user) { status("Pick a user first.", true); return; }
    const query = $("#query").value.trim();
    if (!query) { status("Type a query.", true); return; }
    const body = { user_id: state.user, k: Number($("#k").value) || 5 };
    const at = $("#at").value.trim();
    if (at) body.at = at;
    try {
      if (kind === "answer") {
        const ans = await api("POST", "/v1/answer", { ...body, question: query });
        renderPacket(ans, ans);
      } else {
        renderPacket(await api("POST", "/v1/search", { ...body, query }), null);
      }
      status(`${kind === "answer" ? "Answered" : "Searched"} "${query}" for ${state.user}.`);
    } catch (err) {
      status(err.message, true);
    }
  }

  // ------------------------------------------------------------------ wiring

  async function connect(event) {
    if (event) event.preventDefault();
    state.key = $("#api-key").value.trim();
    const select = $("#user");
    try {
      const { users } = await api("GET", "/v1/users");
      select.replaceChildren(el("option", { value: "" }, users.length ? "(pick a user)" : "(no users yet)"),
        ...users.map((u) => el("option", { value: u }, u)));
      select.disabled = false;
      $("#reload").disabled = false;
      if ($("#keep-key").checked) sessionStorage.setItem(KEY_SLOT, state.key);
      else sessionStorage.removeItem(KEY_SLOT);
      status(`Connected: ${users.length} user(s).`);
      if (users.length === 1) { select.value = users[0]; await loadUser(); }
    } catch (err) {
      select.disabled = true;
      if (err.status === 401) sessionStorage.removeItem(KEY_SLOT);
      status(err.status === 401 ? "That API key was not accepted (401)." : err.message, true);
    }
  }

  $("#connect-form").addEventListener("submit", connect);
  $("#user").addEventListener("change", loadUser);
  $("#reload").addEventListener("click", loadUser);
  $("#search-form").addEventListener("submit", (e) => { e.preventDefault(); runQuery("search"); });
  $("#answer").addEventListener("click", () => runQuery("answer"));
  $("#log-newer").addEventListener("click", () => pageLog(-1));
  $("#log-older").addEventListener("click", () => pageLog(1));
  $("#export").addEventListener("click", exportUser);

  // A key kept for this tab reconnects on reload (sessionStorage: gone with the tab).
  const kept = sessionStorage.getItem(KEY_SLOT);
  if (kept) { $("#api-key").value = kept; connect(null); }
})();
