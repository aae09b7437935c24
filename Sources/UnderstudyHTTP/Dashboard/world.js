// The world as a whole: export it as a Lua setup script (a download for `understudy serve --setup FILE`), and keep
// it under a name (snapshots) to bring it back before each test.

import { control, controlText } from "./api.js";
import { h, replace, table, announce } from "./dom.js";

let refreshAll = async () => {};
let shownSnapshots = "";

export function setup(shared, refresh) {
  refreshAll = refresh;
  document.getElementById("export-button").addEventListener("click", exportWorld);
  document.getElementById("snapshot-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const input = document.getElementById("snapshot-name");
    const name = input.value.trim();
    try {
      const taken = await control("POST", "/snapshots", { body: { name } });
      announce(`Snapshot ${taken.name} ${taken.replaced ? "replaced" : "taken"}: ${taken.users} users`);
      input.value = "";
    } catch (error) {
      announce(`Snapshot refused: ${error.message}`);
    }
    await refresh();
  });
}

/** Fetches the export and hands it to the browser as a file. */
async function exportWorld() {
  try {
    const text = await controlText("/export");
    const link = h("a", { href: URL.createObjectURL(new Blob([text], { type: "text/x-lua" })), download: "understudy-world.lua" });
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 10000);
    announce(`Exported the world: ${text.length} characters, understudy-world.lua`);
  } catch (error) {
    announce(`Export failed: ${error.message}`);
  }
}

function snapshotAction(name, verb, method, path, done) {
  return h("button", { type: "button", class: "small", "aria-label": `${verb} snapshot ${name}`, onclick: async () => {
    try {
      await control(method, path);
      announce(done);
    } catch (error) {
      announce(`${verb} ${name} failed: ${error.message}`);
    }
    await refreshAll();
  } }, verb);
}

export async function refresh() {
  const listed = await control("GET", "/snapshots");
  const signature = JSON.stringify(listed);
  if (signature === shownSnapshots) return;
  shownSnapshots = signature;
  const rows = listed.snapshots.map((snapshot) => {
    const path = `/snapshots/${encodeURIComponent(snapshot.name)}`;
    return h("tr", {},
      h("td", { class: "mono" }, snapshot.name),
      h("td", {}, String(snapshot.users)),
      h("td", {}, `${(snapshot.bytes / 1024).toFixed(0)} KiB`),
      h("td", {},
        snapshotAction(snapshot.name, "Restore", "POST", `${path}/restore`, `Restored snapshot ${snapshot.name}`), " ",
        snapshotAction(snapshot.name, "Delete", "DELETE", path, `Deleted snapshot ${snapshot.name}`)));
  });
  replace(document.getElementById("snapshots-list"), table("Snapshots", ["name", "users", "memory", "actions"], rows));
}
