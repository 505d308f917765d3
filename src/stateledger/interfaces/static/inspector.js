// stateledger inspector: a read-mostly view over the REST API, no build step, no dependencies.
// Every value from the server is put into the page with textContent (never innerHTML), so a
// stored memory can never inject markup or script; the CSP forbids inline script anyway.
"use strict";

(() => {
  const $ = (sel) => document.querySelector(sel);
  const state = { key: "", user: "" };

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

  function stateCard(r) {
    // Pending and rejected claims never held in the world: show when they were said, not a
    // validity interval.
    const unaccepted = r.status === "pending" || r.status === "rejected";
    const valid = unaccepted ? "said " + day(r.valid_from)
      : day(r.valid_from) + (r.valid_to ? " → " + day(r.valid_to) : " → now");
    const links = r.links.map((lk) => el("li", {},
      lk.type.replace(/_/g, " ") + " → ",
      el("a", { class: "id", title: lk.to, onclick: () => highlight(lk.to) }, short(lk.to))));
    const actions = r.status === "pending" ? el("div", { class: "actions" },
      el("button", { type: "button", class: "confirm", onclick: () => resolve(r.id, "confirm") },
        "Confirm"),
      el("button", { type: "button", class: "deny secondary",
        onclick: () => resolve(r.id, "deny") }, "Deny")) : null;
    return el("div", { class: "state", dataset: { id: r.id, status: r.status } },
      el("div", {}, el("span", { class: "badge st-" + r.status }, r.status), " ",
        el("span", { class: "kv" }, valid)),
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

  function renderFacts(records) {
    const box = $("#facts");
    box.replaceChildren();
    if (!records.length) {
      box.append(el("p", { class: "empty" }, "No records for this user."));
      return;
    }
    for (const states of groupFacts(records)) {
      const named = states.find((r) => r.slot) || states[0];
      const live = states.filter((r) => r.status === "active" || r.status === "transition");
      const about = named.subject !== "user" ? ` (about ${named.subject})` : "";
      box.append(el("article", { class: "fact", dataset: { slot: named.slot || "" } },
        el("div", { class: "fact-head" },
          el("h3", {}, (named.slot || "fact") + about),
          el("span", { class: "meta" }, `${states.length} state${states.length > 1 ? "s" : ""}`
            + (live.length ? ` · live: ${live.map((r) => r.value || r.text).join(", ")}` : ""))),
        el("div", { class: "timeline" }, states.map(stateCard))));
    }
  }

  function renderLog(rows) {
    const body = $("#log tbody");
    body.replaceChildren(...rows.map((t) => el("tr", {},
      el("td", {}, day(t.at)),
      el("td", {}, el("span", { class: "badge action-" + t.action }, t.action)),
      el("td", {}, t.text), el("td", {}, t.reason), el("td", {}, t.policy))));
  }

  async function loadUser() {
    state.user = $("#user").value;
    if (!state.user) return;
    status(`Loading ${state.user}…`);
    try {
      const user = encodeURIComponent(state.user);
      const [records, log] = await Promise.all([
        api("GET", `/v1/users/${user}/records?ledger=all`),
        api("GET", `/v1/transactions/${user}?limit=50`),
      ]);
      renderFacts(records);
      renderLog(log);
      status(`${state.user}: ${records.length} record(s) in ${groupFacts(records).length} fact(s).`);
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
    event.preventDefault();
    state.key = $("#api-key").value.trim();
    const select = $("#user");
    try {
      const { users } = await api("GET", "/v1/users");
      select.replaceChildren(el("option", { value: "" }, users.length ? "(pick a user)" : "(no users yet)"),
        ...users.map((u) => el("option", { value: u }, u)));
      select.disabled = false;
      $("#reload").disabled = false;
      status(`Connected: ${users.length} user(s).`);
      if (users.length === 1) { select.value = users[0]; await loadUser(); }
    } catch (err) {
      select.disabled = true;
      status(err.status === 401 ? "That API key was not accepted (401)." : err.message, true);
    }
  }

  $("#connect-form").addEventListener("submit", connect);
  $("#user").addEventListener("change", loadUser);
  $("#reload").addEventListener("click", loadUser);
  $("#search-form").addEventListener("submit", (e) => { e.preventDefault(); runQuery("search"); });
  $("#answer").addEventListener("click", () => runQuery("answer"));
})();
