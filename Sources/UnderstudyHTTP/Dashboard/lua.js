// Lua: runs a chunk against the live apps through POST /_understudy/lua and shows its results and output.

import { control } from "./api.js";
import { h, replace } from "./dom.js";

let refreshAll = async () => {};

export function setup(shared, refresh) {
  refreshAll = refresh;
  const result = h("pre", { id: "lua-results", "aria-label": "Results" });
  const output = h("pre", { id: "lua-output", "aria-label": "Printed output" });
  const error = h("p", { class: "error", role: "alert" });
  const traceback = h("pre", { id: "lua-traceback", class: "traceback", "aria-label": "Traceback", hidden: true });
  const chunk = h("textarea", { id: "lua-chunk", name: "chunk", rows: "8", spellcheck: "false", class: "mono" },
    'local app = understudy.app("backendless")\nprint(app.users.count())\nreturn app.clock.now()');
  replace(document.getElementById("lua-body"),
    h("form", { class: "card", "aria-label": "Run Lua", onsubmit: async (event) => {
        event.preventDefault();
        error.textContent = "";
        traceback.textContent = "";
        traceback.hidden = true;
        try {
          const reply = await control("POST", "/lua", { query: { name: "dashboard" }, body: chunk.value });
          result.textContent = reply.results.map((value) => JSON.stringify(value)).join("\n") || "(no results)";
          output.textContent = reply.output || "(no output)";
        } catch (failure) {
          error.textContent = failure.message;
          const details = failure.details || {};
          if (details.traceback) {
            traceback.textContent = details.traceback;
            traceback.hidden = false;
          }
          result.textContent = "";
          output.textContent = details.output || "";
        }
        await refreshAll();
      } },
      h("label", { for: "lua-chunk" }, "Lua chunk"),
      chunk,
      h("p", { class: "hint" }, "Runs against the live apps, like POST /_understudy/lua. Ctrl+Enter runs it."),
      h("button", { type: "submit" }, "Run")),
    error,
    traceback,
    h("div", { class: "bodies" },
      h("figure", {}, h("figcaption", {}, "Results"), result),
      h("figure", {}, h("figcaption", {}, "Printed output"), output)));
  chunk.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      chunk.form.requestSubmit();
    }
  });
}
