// Faults: the "Inject fault" form (operation and code from the flavour's catalogue, plus times, probability,
// delay and drop, and a condition aiming it at one identity or other argument value) and the active faults with
// their hits and a remove button each.

import { control } from "./api.js";
import { h, replace, table, options, announce } from "./dom.js";

let refreshAll = async () => {};
let formApp = null;
let formBuilt = "";
let shown = "";

// What the conditions this page set test, by "app/id" (the server lists only that a fault has one): kept for the
// tab's life, so the list can say "identity_value is bond@mi6.co.uk".
const conditionsKey = "understudy-fault-conditions";
const conditions = new Map(JSON.parse(sessionStorage.getItem(conditionsKey) || "[]"));
function rememberCondition(app, id, text) {
  conditions.set(`${app}/${id}`, text);
  sessionStorage.setItem(conditionsKey, JSON.stringify([...conditions]));
}

export function setup(shared, refresh) { refreshAll = refresh; }

/** A Lua string literal holding `text` exactly. */
function luaString(text) {
  return '"' + String(text).replace(/[\\"\u0000-\u001f\u007f]/g, (c) => {
    if (c === "\\") return "\\\\";
    if (c === '"') return '\\"';
    return "\\" + String(c.charCodeAt(0)).padStart(3, "0");
  }) + '"';
}

/** The Lua chunk that injects `body` with a condition: the call's argument `name` reads as `value`. */
function conditionalChunk(body, name, value) {
  const fields = Object.entries(body).filter(([key]) => key !== "app").map(([key, field]) =>
    `${key} = ${typeof field === "string" ? luaString(field) : String(field)}`);
  fields.push(`when = function(args) return tostring(args[${luaString(name)}]) == ${luaString(value)} end`);
  return `local fault = understudy.app(${luaString(body.app)}).faults.inject{ ${fields.join(", ")} }\nreturn fault.id\n`;
}

/** The argument select's options for an operation: every call, or one argument's value. */
function argumentOptions(entry, op) {
  const names = (entry.arguments && entry.arguments[op]) || [];
  return [h("option", { value: "" }, "every call")].concat(names.map((name) => h("option", { value: name }, name)));
}

function catalogueOf(shared, appID) {
  return shared.catalogue.apps.find((entry) => entry.app_id === appID) || shared.catalogue.apps[0];
}

function buildForm(shared) {
  const apps = shared.catalogue.apps;
  if (!formApp || !apps.some((a) => a.app_id === formApp)) formApp = apps[0] ? apps[0].app_id : null;
  const entry = catalogueOf(shared, formApp);
  if (!entry) return h("p", {}, "The server has no apps.");
  const field = (id, text, input, wide) => h("div", { class: wide ? "field wide" : "field" }, h("label", { for: id }, text), input);
  const form = h("form", { class: "card fault-form", "aria-labelledby": "fault-form-heading", onsubmit: submit },
    h("h3", { id: "fault-form-heading" }, "Inject fault"),
    field("fault-app", "App", h("select", { id: "fault-app", name: "app", "data-key": "fault-app",
      onchange: (event) => { formApp = event.target.value; formBuilt = ""; renderForm(shared); } },
      options(apps.map((a) => [a.app_id, `${a.app_id} (${a.flavour})`]), formApp)), true),
    field("fault-op", "Operation", h("select", { id: "fault-op", name: "op", required: true,
      onchange: (event) => replace(document.getElementById("fault-argument"), argumentOptions(entry, event.target.value)) },
      options(entry.operations.map((op) => [op, op]))), true),
    field("fault-argument", "Only when argument", h("select", { id: "fault-argument", name: "argument",
      "aria-describedby": "fault-argument-hint" }, argumentOptions(entry, entry.operations[0]))),
    field("fault-argument-value", "Argument value", h("input", { id: "fault-argument-value", name: "argumentValue", type: "text",
      placeholder: "bond@mi6.co.uk", "aria-describedby": "fault-argument-hint" })),
    h("p", { id: "fault-argument-hint", class: "hint wide" },
      "Aim the fault at one identity: it fails only calls whose argument (identity_value for a Backendless login, "
      + "username or email for Kii) reads as this text."),
    codeField(entry),
    field("fault-message", "Message", h("input", { id: "fault-message", name: "message", type: "text", placeholder: "the catalogue's message" })),
    field("fault-status", "HTTP status", h("input", { id: "fault-status", name: "status", type: "number", min: "100", max: "599" })),
    field("fault-times", "Times", h("input", { id: "fault-times", name: "times", type: "number", min: "0", placeholder: "unlimited" })),
    field("fault-probability", "Probability", h("input", { id: "fault-probability", name: "probability", type: "number", min: "0", max: "1", step: "any", placeholder: "1" })),
    field("fault-delay", "Delay (ms)", h("input", { id: "fault-delay", name: "delay_ms", type: "number", min: "0", max: "600000" })),
    h("div", { class: "field toggle" }, h("input", { id: "fault-drop", name: "drop", type: "checkbox" }),
      h("label", { for: "fault-drop" }, "Drop the connection")),
    h("button", { type: "submit" }, "Inject fault"),
    h("p", { id: "fault-error", class: "error", role: "alert" }));
  return form;
}

/** The code select shows the code and its status, which always fit; what the code means is written in full below
 *  it (and in each option's title), so nothing is cut off. */
function codeField(entry) {
  const meaning = h("p", { id: "fault-code-meaning", class: "hint", "aria-live": "polite" });
  const describe = (select) => {
    const chosen = entry.codes.find((c) => String(c.code) === select.value);
    meaning.textContent = chosen ? chosen.meaning : "The call goes through; only the delay or the drop applies.";
  };
  const select = h("select", { id: "fault-code", name: "code", "aria-describedby": "fault-code-meaning",
    onchange: (event) => describe(event.target) },
    h("option", { value: "" }, "none (delay or drop only)"),
    entry.codes.map((c) => h("option", { value: String(c.code), title: c.meaning,
      selected: String(c.code) === String(entry.flavour === "kii" ? "UNDEFINED_ERROR" : 3033) }, `${c.code} (${c.status})`)));
  describe(select);
  return h("div", { class: "field wide" }, h("label", { for: "fault-code" }, "Code"), select, meaning);
}

async function submit(event) {
  event.preventDefault();
  const elements = event.target.elements;
  const body = { app: elements.app.value, op: elements.op.value };
  const code = elements.code.value;
  if (code) body.code = /^\d+$/.test(code) ? Number(code) : code;
  if (elements.message.value) body.message = elements.message.value;
  for (const name of ["status", "times", "delay_ms"]) {
    if (elements[name].value !== "") body[name] = Number.parseInt(elements[name].value, 10);
  }
  if (elements.probability.value !== "") body.probability = Number(elements.probability.value);
  if (elements.drop.checked) body.drop = true;
  const error = document.getElementById("fault-error");
  const argument = elements.argument.value;
  try {
    if (argument) {
      // A condition is a Lua predicate: the fault goes in through POST /_understudy/lua.
      const value = elements.argumentValue.value;
      const reply = await control("POST", "/lua", { query: { name: "dashboard fault" }, body: conditionalChunk(body, argument, value) });
      const id = reply.results[0];
      rememberCondition(body.app, id, `${argument} is ${value}`);
      announce(`Fault ${id} injected on ${body.app}: ${body.op}, only when ${argument} is ${value}`);
    } else {
      const fault = await control("POST", "/faults", { body });
      announce(`Fault ${fault.id} injected on ${fault.app}: ${fault.op}`);
    }
    error.textContent = "";
  } catch (failure) {
    error.textContent = failure.message;
  }
  shown = "";
  await refreshAll();
}

function renderForm(shared) {
  const signature = JSON.stringify([shared.catalogue, formApp]);
  if (signature === formBuilt) return;
  formBuilt = signature;
  replace(document.getElementById("fault-form-slot"), buildForm(shared));
}

async function remove(fault) {
  try {
    const reply = await control("DELETE", `/faults/${encodeURIComponent(fault.app)}/${fault.id}`);
    announce(`Fault ${fault.id} removed after ${reply.hits} hits`);
  } catch (error) {
    announce(`Removing fault ${fault.id} failed: ${error.message}`);
  }
  shown = "";
  await refreshAll();
}

// What each fault does to the next matching call, as the server decides it: faults are tried in the order they
// were injected; one without a code (delay or drop) applies and lets the search go on; the first error fault
// fails the call, and the error faults after it wait their turn.
function nextEffects(faults) {
  const firstError = new Map();
  return faults.map((fault) => {
    const key = `${fault.app}\u0000${fault.op}`;
    const maybe = fault.conditional || fault.probability < 1 ? " (if its condition and probability allow)" : "";
    if (fault.code === null) {
      const what = [fault.delay_ms > 0 ? `delays by ${fault.delay_ms} ms` : "", fault.drop ? "drops the connection" : ""]
        .filter(Boolean).join(" and ");
      return `${what || "lets the call through"}${maybe}; error faults still apply`;
    }
    if (!firstError.has(key)) {
      firstError.set(key, fault.id);
      return `fails the next call${maybe}`;
    }
    return `waits behind fault ${firstError.get(key)}`;
  });
}

export async function refresh(shared) {
  const body = document.getElementById("faults-body");
  if (!document.getElementById("fault-form-slot")) {
    replace(body, h("div", { id: "fault-form-slot" }), h("div", { id: "fault-list" }));
  }
  renderForm(shared);
  const reply = await control("GET", "/faults");
  const signature = JSON.stringify(reply);
  if (signature === shown) return;
  shown = signature;
  const effects = nextEffects(reply.faults);
  replace(document.getElementById("fault-list"),
    table("Active faults", ["App", "Id", "Operation", "Only when", "Code", "Status", "Hits", "Remaining", "Probability", "Delay (ms)", "Drop", "Next call", ""],
      reply.faults.map((fault, index) => h("tr", {},
        h("td", {}, fault.app), h("td", {}, String(fault.id)), h("td", {}, fault.op),
        h("td", {}, fault.conditional ? (conditions.get(`${fault.app}/${fault.id}`) || "a Lua condition") : "every call"),
        h("td", {}, fault.code === null ? "" : String(fault.code)), h("td", {}, fault.status === null ? "" : String(fault.status)),
        h("td", {}, String(fault.hits)), h("td", {}, fault.remaining === null ? "unlimited" : String(fault.remaining)),
        h("td", {}, String(fault.probability)), h("td", {}, String(fault.delay_ms)), h("td", {}, fault.drop ? "yes" : "no"),
        h("td", { class: "fault-next" }, effects[index]),
        h("td", {}, h("button", { type: "button", class: "small", "aria-label": `Remove fault ${fault.id}`,
          onclick: () => remove(fault) }, "Remove"))))));
}
