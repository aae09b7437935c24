// Record: the session since the last reset as a Lua scenario file (GET /_understudy/record), shown as text, with a
// download and a copy button. It follows the session: the text is fetched again when the summary changed.

import { controlText } from "./api.js";
import { h, replace, copyButton, announce } from "./dom.js";

let text = "";
let shownName = "";
let download = null;

export function setup() {
  const name = h("input", { id: "record-name", name: "name", type: "text", value: "recorded session", autocomplete: "off" });
  const scenario = h("pre", { id: "record-text", class: "mono record-text", tabindex: "0", "aria-label": "Recorded scenario" });
  download = h("a", { id: "record-download", class: "button", download: "recorded.lua", href: "#" }, "Download recorded.lua");
  const copyHolder = h("span", { id: "record-copy" });
  replace(document.getElementById("record-body"),
    h("form", { class: "inline filters", "aria-label": "Recording", onsubmit: async (event) => {
        event.preventDefault();
        await load(true);
      } },
      h("label", { for: "record-name" }, "Scenario name"),
      name,
      h("button", { type: "submit" }, "Record now"),
      download,
      copyHolder),
    h("p", { class: "hint" },
      "Every request since the last reset as the Lua call it was, with the settings, clock moves and Lua chunks in place and each outcome asserted. ",
      "Passwords are placeholders; ids, tokens, codes and links are read from earlier results and the outbox. ",
      "Save it and run it with ", h("code", {}, "understudy run recorded.lua"), "."),
    scenario);
}

async function load(force) {
  const name = document.getElementById("record-name").value.trim() || "recorded session";
  const next = await controlText("/record", { query: { name } });
  if (!force && next === text && name === shownName) return;
  text = next;
  shownName = name;
  document.getElementById("record-text").textContent = text;
  if (download.href.startsWith("blob:")) URL.revokeObjectURL(download.href);
  download.href = URL.createObjectURL(new Blob([text], { type: "text/x-lua" }));
  replace(document.getElementById("record-copy"), copyButton(text, "the recorded scenario"));
  if (force) announce(`Recorded ${text.split("\n").length} lines`);
}

export async function refresh(shared) {
  if (shared.changed || !text) await load(false);
}
