// Coverage: what the app under test met (GET /_understudy/coverage). One matrix per app: the operations the
// clients called × the codes each answered or can answer, every cell saying how it was met (real trigger,
// injected fault, network fault) or that it never was; then what the app did after each error, and the
// requests no route answered with the nearest route. A select reads one test's part (X-Understudy-Test).

import { control } from "./api.js";
import { h, replace, table, options } from "./dom.js";

let refreshAll = async () => {};
let chosenTest = "";
let shown = "";

export function setup(shared, refresh) {
  refreshAll = refresh;
  document.getElementById("coverage-clear").addEventListener("click", async () => {
    await control("DELETE", "/coverage");
    chosenTest = "";
    await refreshAll();
  });
}

/** How a cell was met, as words (the colour only repeats them). */
function cellOf(answer) {
  if (!answer) return { kind: "never", text: "never" };
  const parts = [];
  if (answer.real) parts.push(`real ${answer.real}`);
  if (answer.injected) parts.push(`injected ${answer.injected}`);
  if (answer.network) parts.push(`network ${answer.network}`);
  const kind = answer.real ? "real" : answer.injected ? "injected" : "network";
  return { kind, text: parts.join(", "), first: answer.first_seq };
}

function matrix(app, operations) {
  const columns = [];
  for (const operation of operations) {
    for (const answer of operation.answered) if (!columns.includes(answer.code)) columns.push(answer.code);
  }
  for (const operation of operations) {
    for (const code of operation.never_answered) if (!columns.includes(code)) columns.push(code);
  }
  const rows = operations.map((operation) => h("tr", {},
    h("th", { scope: "row" }, operation.op),
    columns.map((code) => {
      const answer = operation.answered.find((a) => a.code === code);
      const reachable = answer || operation.reachable.includes(code) || code === "ok";
      if (!reachable) return h("td", { class: "cov-na", "aria-label": `${operation.op} ${code}: not an answer of this operation` }, "");
      const cell = cellOf(answer);
      return h("td", { class: `cov-${cell.kind}`, title: cell.first ? `first met by request ${cell.first}` : "",
        "aria-label": `${operation.op} ${code}: ${cell.text}` }, cell.text);
    })));
  return h("div", { class: "table-wrap" },
    h("table", { class: "coverage-matrix" },
      h("caption", {}, `Coverage of ${app}: operations × codes`),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Operation"), columns.map((code) => h("th", { scope: "col" }, code)))),
      h("tbody", {}, rows)));
}

export async function refresh() {
  const query = chosenTest ? { test: chosenTest } : undefined;
  let report;
  try {
    report = await control("GET", "/coverage", { query });
  } catch (error) {
    if (error && error.code === "UNKNOWN_TEST") { chosenTest = ""; return; }
    throw error;
  }
  const all = chosenTest ? await control("GET", "/coverage") : report;
  const signature = JSON.stringify([report, all.tests.map((t) => t.name)]);
  if (signature === shown) return;
  shown = signature;
  const tests = all.tests.map((t) => t.name);
  const byApp = new Map();
  for (const operation of report.operations) {
    const key = `${operation.app} (${operation.flavour})`;
    if (!byApp.has(key)) byApp.set(key, []);
    byApp.get(key).push(operation);
  }
  replace(document.getElementById("coverage-body"),
    h("div", { class: "inline filters" },
      h("label", { for: "coverage-test" }, "Test"),
      h("select", { id: "coverage-test", "data-key": "coverage-test",
        onchange: async (event) => { chosenTest = event.target.value; shown = ""; await refresh(); } },
        options([["", "every test"], ...tests.map((name) => [name, name])], chosenTest))),
    h("p", { class: "legend hint" },
      h("span", { class: "cov-real" }, "real trigger"), " ", h("span", { class: "cov-injected" }, "injected fault"), " ",
      h("span", { class: "cov-network" }, "network fault"), " ", h("span", { class: "cov-never" }, "never met")),
    byApp.size ? [...byApp.entries()].map(([app, operations]) => matrix(app, operations))
      : h("p", { class: "hint" }, "No request reached an app yet."),
    table("What the app did after each error", ["Operation", "Met", "Times", "Retry", "Recovery", "Other", "Nothing", "Next calls"],
      report.reactions.map((reaction) => h("tr", {},
        h("td", {}, reaction.op), h("td", {}, reaction.code), h("td", {}, String(reaction.times)),
        h("td", {}, String(reaction.retry)), h("td", {}, String(reaction.recovery)), h("td", {}, String(reaction.other)),
        h("td", {}, String(reaction.none)),
        h("td", { class: "wrap" }, Object.entries(reaction.next).map(([op, count]) => `${op} ×${count}`).join(", ") || "—")))),
    table("Requests no route answered", ["Method", "Path", "Times", "Nearest route", "Tests"],
      report.unmatched.map((miss) => h("tr", {},
        h("td", {}, miss.method), h("td", { class: "wrap" }, miss.path), h("td", {}, String(miss.count)),
        h("td", { class: "wrap" }, miss.nearest ? `${miss.nearest.method} ${miss.nearest.path}${miss.nearest.op ? ` (${miss.nearest.op})` : ""}` : "—"),
        h("td", {}, miss.tests.join(", "))))));
}
