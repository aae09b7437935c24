// Apps: flavour, app id, keys and base URL (copyable, with an SDK init line), the virtual clock with advance
// buttons, the settings as controls named as the contract names them, and Reset.

import { control } from "./api.js";
import { h, replace, copyButton, virtualTime, announce } from "./dom.js";

let refreshAll = async () => {};
let settingsShown = "";

export function setup(shared, refresh) {
  refreshAll = refresh;
  document.getElementById("reset-button").addEventListener("click", async () => {
    const clear = document.getElementById("reset-journal").checked;
    try {
      await control("POST", "/reset", { query: { journal: clear ? "clear" : "keep" } });
      shared.index = null;
      announce(clear ? "Reset: fresh apps, empty journal" : "Reset: fresh apps");
      await refreshAll();
    } catch (error) {
      announce(`Reset failed: ${error.message}`);
    }
  });
}

/** A snippet ready to paste into an SDK's initialisation. */
function sdkInit(app) {
  if (app.flavour === "kii") {
    return `Kii.initialize("${app.app_id}", "${app.keys.app_key}", "${app.base_url.replace(/\/apps\/[^/]*$/, "")}");`;
  }
  const server = app.base_url.split("/").slice(0, 3).join("/");
  return `Backendless.serverURL = "${server}"; Backendless.initApp("${app.app_id}", "${app.keys.api_key}");`;
}

/** The settings whose values form a fixed set, with each value's label (the contract's spelling). */
const fixedChoices = {
  password_recovery: [["link", "link"], ["temporary", "temporary"], [false, "false (off)"]],
};

/** multiple_logins: "allow", "deny", or a number of sessions per user (the oldest is ended past it). */
function multipleLoginsControl(app, value, send) {
  const id = `setting-${app.app_id}-multiple_logins`;
  const countID = `${id}-sessions`;
  const isCount = typeof value === "number";
  const count = h("input", { id: countID, type: "number", min: "1", step: "1", value: isCount ? String(value) : "2",
    "data-key": countID, disabled: !isCount,
    onchange: (event) => { const n = Number.parseInt(event.target.value, 10); if (n >= 1) send(n); } });
  const select = h("select", { id, "data-key": id, onchange: (event) => {
      if (event.target.value === "number") {
        count.disabled = false;
        send(Number.parseInt(count.value, 10) || 2);
      } else {
        send(event.target.value);
      }
    } },
    h("option", { value: "allow", selected: value === "allow" }, "allow"),
    h("option", { value: "deny", selected: value === "deny" }, "deny"),
    h("option", { value: "number", selected: isCount }, "a number of sessions"));
  return h("div", { class: "setting" }, h("label", { for: id }, "multiple_logins"), select,
    h("label", { for: countID }, "Sessions per user"), count);
}

function settingControl(app, name, value) {
  const id = `setting-${app.app_id}-${name}`;
  const send = async (newValue) => {
    try {
      await control("PATCH", "/settings", { query: { app: app.app_id }, body: { [name]: newValue } });
      announce(`${app.app_id}: ${name} set to ${JSON.stringify(newValue)}`);
    } catch (error) {
      announce(`${app.app_id}: ${name} refused: ${error.message}`);
    }
    await refreshAll();
  };
  let input;
  if (name === "multiple_logins" && app.flavour !== "kii") return multipleLoginsControl(app, value, send);
  if (typeof value === "boolean" && !fixedChoices[name]) {
    input = h("input", { id, type: "checkbox", role: "switch", checked: value, "data-key": id,
      onchange: (event) => send(event.target.checked) });
    return h("div", { class: "setting toggle" }, input, h("label", { for: id }, name));
  }
  if (typeof value === "number") {
    input = h("input", { id, type: "number", min: "0", step: "any", value: String(value), "data-key": id,
      onchange: (event) => send(Number(event.target.value)) });
  } else if (fixedChoices[name]) {
    // A setting with a fixed set of values: a select whose options carry the JSON value each one sends.
    const current = JSON.stringify(value);
    const choices = fixedChoices[name].slice();
    if (!choices.some(([choice]) => JSON.stringify(choice) === current)) choices.push([value, String(value)]);
    input = h("select", { id, "data-key": id, onchange: (event) => send(JSON.parse(event.target.value)) },
      choices.map(([choice, text]) => h("option", { value: JSON.stringify(choice), selected: JSON.stringify(choice) === current }, text)));
  } else if (value !== null && typeof value === "object") {
    input = h("input", { id, type: "text", value: JSON.stringify(value), "data-key": id, class: "mono",
      onchange: (event) => {
        try { send(JSON.parse(event.target.value)); } catch (_) { announce(`${name}: not JSON`); }
      } });
  } else {
    input = h("input", { id, type: "text", value: value === null ? "" : String(value), "data-key": id,
      onchange: (event) => send(event.target.value) });
  }
  return h("div", { class: "setting" }, h("label", { for: id }, name), input);
}

function advance(app, seconds) {
  return async () => {
    try {
      await control("POST", "/clock/advance", { query: { app: app.app_id }, body: { seconds } });
      announce(`${app.app_id}: clock advanced ${seconds} seconds`);
    } catch (error) {
      announce(`Advance refused: ${error.message}`);
    }
    await refreshAll();
  };
}

function card(app, settings, summary, clockMode) {
  const headingID = `app-${app.app_id}`;
  const customID = `advance-${app.app_id}`;
  const keys = Object.entries(app.keys);
  const init = sdkInit(app);
  return h("article", { class: "card", "aria-labelledby": headingID },
    h("h3", { id: headingID }, `${app.app_id} `, h("span", { class: "badge" }, app.flavour === "kii" ? "Kii" : "Backendless")),
    h("dl", { class: "facts" },
      h("dt", {}, "Flavour"), h("dd", {}, app.flavour),
      h("dt", {}, "App id"), h("dd", {}, h("code", {}, app.app_id), " ", copyButton(app.app_id, `app id of ${app.app_id}`)),
      keys.map(([name, value]) => [h("dt", {}, name), h("dd", {}, h("code", {}, value), " ", copyButton(value, `${name} of ${app.app_id}`))]),
      h("dt", {}, "Base URL"), h("dd", {}, h("code", {}, app.base_url), " ", copyButton(app.base_url, `base URL of ${app.app_id}`)),
      h("dt", {}, "SDK init"), h("dd", {}, h("code", { class: "wrap" }, init), " ", copyButton(init, `SDK init of ${app.app_id}`))),
    h("div", { class: "clock", role: "group", "aria-label": `Clock of ${app.app_id}` },
      h("p", {}, clockMode === "real" ? "Real-time clock (serve --clock real): " : "Virtual clock (moves only when told): ",
        h("time", { "data-testid": "clock", "data-app": app.app_id }, virtualTime(summary ? summary.now : null))),
      h("div", { class: "inline" },
        [[60, "1 minute"], [3600, "1 hour"], [86400, "1 day"]].map(([seconds, text]) =>
          h("button", { type: "button", "aria-label": `Advance ${text}: the clock of ${app.app_id}`, onclick: advance(app, seconds) },
            `Advance ${text}`))),
      h("form", { class: "inline", onsubmit: (event) => {
          event.preventDefault();
          const seconds = Number(event.target.elements.seconds.value);
          if (Number.isFinite(seconds)) advance(app, seconds)();
        } },
        h("label", { for: customID }, "Seconds to advance"),
        h("input", { id: customID, name: "seconds", type: "number", step: "any", required: true, "data-key": customID }),
        h("button", { type: "submit", "aria-label": `Advance the clock of ${app.app_id}` }, "Advance"))),
    h("details", { open: true },
      h("summary", {}, `Settings of ${app.app_id}`),
      h("div", { class: "settings" },
        Object.entries(settings || {}).map(([name, value]) => settingControl(app, name, value)))));
}

export async function refresh(shared) {
  const settings = await control("GET", "/settings");
  const byApp = Object.fromEntries(settings.apps.map((entry) => [entry.app_id, entry.settings]));
  const summaries = Object.fromEntries(shared.summary.apps.map((entry) => [entry.app_id, entry]));
  // The clocks change in place (a real-time clock moves every second): a card is drawn again only when what it
  // shows besides the time changes, so a setting being edited keeps its focus.
  const signature = JSON.stringify([settings, shared.summary.clock_mode, shared.index.apps]);
  if (signature !== settingsShown) {
    settingsShown = signature;
    replace(document.getElementById("apps-list"),
      shared.index.apps.map((app) => card(app, byApp[app.app_id], summaries[app.app_id], shared.summary.clock_mode)));
  }
  for (const time of document.querySelectorAll('#apps-list time[data-testid="clock"]')) {
    const summary = summaries[time.dataset.app];
    const text = virtualTime(summary ? summary.now : null);
    if (time.textContent !== text) time.textContent = text;
  }
}
