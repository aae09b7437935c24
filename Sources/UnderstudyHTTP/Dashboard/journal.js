// Journal: a live tail of the requests the apps sent (GET /_understudy/journal/tail?after=SEQ), filterable by
// status, code and operation; a row expands to the request and reply bodies and offers "Copy as curl".

import { control } from "./api.js";
import { h, replace, table, virtualTime, copy, announce } from "./dom.js";

const keep = 500;
let entries = [];
let after = 0;
let lastDropped = 0;
const open = new Set();
let shared = null;

export function setup(state) {
  shared = state;
  const body = document.getElementById("journal-body");
  const field = (id, text, attributes) => h("div", { class: "field" }, h("label", { for: id }, text),
    h("input", { id, type: "search", autocomplete: "off", oninput: render, ...attributes }));
  replace(body,
    h("div", { class: "inline filters", role: "group", "aria-label": "Journal filters" },
      field("journal-status", "Filter by status", { inputmode: "numeric" }),
      field("journal-code", "Filter by code", {}),
      field("journal-op", "Filter by operation", { list: "journal-ops" }),
      h("datalist", { id: "journal-ops" })),
    h("div", { id: "journal-table" }));
  document.getElementById("journal-clear").addEventListener("click", async () => {
    try {
      const reply = await control("DELETE", "/journal");
      announce(`Journal cleared: ${reply.cleared} entries`);
    } catch (error) {
      announce(`Clearing the journal failed: ${error.message}`);
    }
    entries = [];
    render();
  });
  render();
}

/** Fetches the entries after the last one seen. */
export async function poll() {
  if (!document.getElementById("journal-follow").checked) return;
  const reply = await control("GET", "/journal/tail", { query: { after, limit: keep } });
  if (reply.last_seq < after) { entries = []; after = 0; }
  if (reply.entries.length) {
    entries = entries.concat(reply.entries).slice(-keep);
    after = reply.entries[reply.entries.length - 1].seq;
    render();
  } else if (reply.dropped !== lastDropped || (reply.last_seq === after && entries.length && reply.last_seq === 0)) {
    render();
  }
  lastDropped = reply.dropped;
}

function filters() {
  const value = (id) => document.getElementById(id).value.trim();
  return { status: value("journal-status"), code: value("journal-code").toLowerCase(), op: value("journal-op").toLowerCase() };
}

function shows(entry, wanted) {
  if (wanted.status && !String(entry.status).startsWith(wanted.status)) return false;
  if (wanted.code && !String(entry.code ?? "").toLowerCase().includes(wanted.code)) return false;
  if (wanted.op && !String(entry.op ?? "").toLowerCase().includes(wanted.op)) return false;
  return true;
}

function quote(text) {
  return `'${String(text).replace(/'/g, `'\\''`)}'`;
}

/** The request again, as a curl command against this server. */
function curlOf(entry) {
  const url = `${location.origin}${entry.path}${entry.query ? `?${entry.query}` : ""}`;
  const parts = ["curl", "-s"];
  if (entry.method !== "GET") parts.push("-X", entry.method);
  parts.push(quote(url));
  const app = shared && shared.index ? shared.index.apps.find((a) => a.app_id === entry.app_id && a.flavour === "kii") : null;
  if (app) parts.push("-u", quote(`${app.app_id}:${app.keys.app_key}`));
  if (entry.body) {
    parts.push("-H", quote(entry.json !== null ? "Content-Type: application/json" : "Content-Type: text/plain"));
    parts.push("--data-binary", quote(entry.body));
  }
  return parts.join(" ");
}

function pretty(text) {
  if (!text) return "(empty)";
  try { return JSON.stringify(JSON.parse(text), null, 2); } catch (_) { return text; }
}

function toggle(seq) {
  if (open.has(seq)) open.delete(seq); else open.add(seq);
  render();
}

function render() {
  const slot = document.getElementById("journal-table");
  if (!slot) return;
  const wanted = filters();
  const rows = [];
  const shownEntries = entries.filter((entry) => shows(entry, wanted)).reverse();
  for (const entry of shownEntries) {
    const failed = entry.status >= 400 || entry.connection_dropped;
    const expanded = open.has(entry.seq);
    rows.push(h("tr", { class: failed ? "failed" : "" },
      h("td", {}, h("button", { type: "button", class: "small", "aria-expanded": expanded ? "true" : "false",
        "aria-label": `Details of request ${entry.seq}`, "data-key": `journal-${entry.seq}`,
        onclick: () => toggle(entry.seq) }, String(entry.seq))),
      h("td", {}, virtualTime(entry.time)),
      h("td", {}, entry.method),
      h("td", { class: "wrap" }, entry.path),
      h("td", {}, entry.op ?? ""),
      h("td", {}, entry.connection_dropped ? `${entry.status} (dropped)` : String(entry.status)),
      h("td", {}, entry.code === null ? "" : String(entry.code)),
      h("td", {}, entry.fault ? `${entry.fault.effect}${entry.fault.id ? ` (fault ${entry.fault.id})` : ""}` : ""),
      h("td", {}, `${Number(entry.duration_ms).toFixed(2)} ms${entry.delay_ms ? ` + ${entry.delay_ms} ms delay` : ""}`)));
    if (expanded) {
      const curl = curlOf(entry);
      rows.push(h("tr", { class: "details" }, h("td", { colspan: 9 },
        h("div", { class: "bodies" },
          h("figure", {}, h("figcaption", {}, `Request ${entry.seq} body`), h("pre", {}, pretty(entry.body))),
          h("figure", {}, h("figcaption", {}, `Reply ${entry.seq} body`), h("pre", {}, pretty(entry.reply)))),
        h("button", { type: "button", onclick: (event) => {
            event.target.nextElementSibling.hidden = false;
            copy(curl, `curl for request ${entry.seq}`);
          } }, "Copy as curl"),
        h("pre", { class: "curl", hidden: true, "aria-label": `curl for request ${entry.seq}` }, curl))));
    }
  }
  const ops = [...new Set(entries.map((e) => e.op).filter(Boolean))].sort();
  replace(document.getElementById("journal-ops"), ops.map((op) => h("option", { value: op })));
  replace(slot,
    table("Journal", ["#", "Time", "Method", "Path", "Operation", "Status", "Code", "Fault fired", "Duration"], rows),
    lastDropped ? h("p", { class: "hint" }, `${lastDropped} older entries were dropped by a full journal.`) : null);
}
