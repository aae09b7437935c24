// Starts the dashboard: asks for the control token when the server needs one, then polls once a second.
//
// Live updates poll rather than stream: every request (app, control call, Lua chunk) is answered under the
// server's one lock, and a poll of GET /_understudy/summary plus GET /_understudy/journal/tail?after=SEQ costs
// microseconds there, works through any proxy, needs no open connection per tab, and shows a change made by the
// app, a scenario chunk or the page within a second. A view reloads when the summary or journal changed, after
// its own actions, and at least every 5 seconds (for changes that move no counter, such as a confirmed email).

import { control, setToken, whenTokenNeeded } from "./api.js";
import { announce } from "./dom.js";
import * as apps from "./apps.js";
import * as users from "./users.js";
import * as outbox from "./outbox.js";
import * as devices from "./devices.js";
import * as oauth from "./oauth.js";
import * as kii from "./kii.js";
import * as faults from "./faults.js";
import * as journal from "./journal.js";
import * as lua from "./lua.js";
import * as coverage from "./coverage.js";
import * as roles from "./roles.js";
import * as world from "./world.js";
import * as record from "./record.js";

const views = [apps, users, outbox, devices, oauth, roles, kii, faults, coverage, world, record];
const shared = { index: null, catalogue: null, summary: null };
let lastSignature = "";
let lastFull = 0;
let polling = false;
let connected = false;

/** Reloads every view now (after an action of the page). */
export async function refreshAll() {
  lastSignature = "";
  await tick();
}

async function loadStatic() {
  shared.index = await control("GET", "");
  shared.catalogue = await control("GET", "/catalogue");
}

async function tick() {
  if (polling) return;
  polling = true;
  try {
    if (!shared.index) await loadStatic();
    const summary = await control("GET", "/summary");
    shared.summary = summary;
    await journal.poll(shared);
    const signature = JSON.stringify(summary);
    const now = Date.now();
    if (signature !== lastSignature || now - lastFull > 5000) {
      if (summary.apps.map((a) => a.app_id).join() !== (shared.index.apps || []).map((a) => a.app_id).join()) {
        await loadStatic();
      }
      shared.changed = signature !== lastSignature;
      lastSignature = signature;
      lastFull = now;
      await Promise.all(views.map((view) => view.refresh(shared).catch((error) => report(error))));
    }
    if (!connected) {
      connected = true;
      // Said only over "Connecting…", a connection error or the token request: a first poll that ends after
      // the user already did something (an export, a snapshot) must not hide what that action reported.
      const status = document.getElementById("connection");
      const shown = status ? status.textContent : "";
      if (shown.startsWith("Connecting") || shown.startsWith("Cannot reach") || shown.startsWith("The server needs")) {
        announce(`Connected to ${location.host}: ${summary.apps.length} apps`);
      }
    }
  } catch (error) {
    report(error);
  } finally {
    polling = false;
  }
}

function report(error) {
  connected = false;
  if (error && error.code === "CONTROL_TOKEN_REQUIRED") return;
  announce(`Cannot reach the control API: ${error && error.message ? error.message : error}`);
}

function askForToken() {
  const form = document.getElementById("token-form");
  form.hidden = false;
  announce("The server needs its control token");
  if (!form.dataset.ready) {
    form.dataset.ready = "1";
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      setToken(document.getElementById("token-input").value);
      try {
        await control("GET", "/summary");
        form.hidden = true;
        document.getElementById("token-error").textContent = "";
        await refreshAll();
      } catch (error) {
        document.getElementById("token-error").textContent = "That token was refused.";
      }
    });
  }
  document.getElementById("token-input").focus();
}

whenTokenNeeded(askForToken);

for (const view of [apps, users, outbox, devices, oauth, roles, kii, faults, journal, lua, coverage, world, record]) view.setup(shared, refreshAll);
tick();
setInterval(tick, 1000);
