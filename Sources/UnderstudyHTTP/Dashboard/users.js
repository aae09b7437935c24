// Users: one table per app (caption "Users"), paged and searched by the server, with the actions the server
// offers for each user (GET /_understudy/users lists them; an action the server lacks is never shown).

import { control } from "./api.js";
import { h, replace, table, virtualTime, announce } from "./dom.js";

const pageSize = 25;
/** Per app id: { offset, search, shown }. */
const views = new Map();
let refreshAll = async () => {};

export function setup(shared, refresh) { refreshAll = refresh; }

const actionLabels = {
  confirm_email: "Confirm email",
  verify_email: "Verify email",
  verify_phone: "Verify phone",
  disable: "Disable",
  enable: "Enable",
  delete: "Delete",
};

function label(action) {
  return actionLabels[action] || action.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());
}

function columns(flavour) {
  if (flavour === "kii") {
    return {
      headers: ["userID", "Username", "Email", "Phone", "Created", "Sessions", "Actions"],
      name: (user) => user.loginName || user.emailAddress || user.phoneNumber || user.userID,
      id: (user) => user.userID,
      cells: (user) => [
        h("code", {}, user.userID),
        user.hasPassword === false ? h("span", { class: "badge" }, "pseudo") : (user.loginName ?? ""),
        address(user.emailAddress, user.emailAddressVerified, user.pendingEmailAddress),
        address(user.phoneNumber, user.phoneNumberVerified, user.pendingPhoneNumber),
        virtualTime(user.created / 1000),
        String(user.sessions),
      ],
    };
  }
  return {
    headers: ["objectId", "Identity", "Name", "Status", "Created", "Sessions", "Actions"],
    name: (user) => user.email || user.name || user.objectId,
    id: (user) => user.objectId,
    cells: (user) => [
      h("code", {}, user.objectId),
      user.email ?? "",
      user.name === undefined ? "" : String(user.name),
      h("span", { class: `status status-${String(user.userStatus).toLowerCase()}` }, user.userStatus),
      virtualTime(user.created / 1000),
      String(user.sessions),
    ],
  };
}

function address(value, verified, pending) {
  if (!value && !pending) return "";
  return h("span", {},
    value ?? "",
    value ? h("span", { class: verified ? "flag ok" : "flag wait" }, verified ? " verified" : " unverified") : null,
    pending ? h("span", { class: "flag wait" }, ` pending ${pending}`) : null);
}

function stateOf(appID) {
  if (!views.has(appID)) views.set(appID, { offset: 0, search: "", shown: "", confirming: false });
  return views.get(appID);
}

/** Actions that cannot be undone: the row asks before doing them. */
const destructive = new Set(["delete"]);

/** Replaces the row's actions with a question and two buttons; nothing happens until "Yes" is pressed. */
function askFirst(cell, app, user, action, name) {
  const view = stateOf(app.app_id);
  const restore = () => { view.confirming = false; view.shown = ""; refreshAll(); };
  const yes = h("button", { type: "button", class: "small danger", "aria-label": `Yes, ${label(action).toLowerCase()} ${name}`,
    onclick: () => act(app, user, action, name) }, `Yes, ${label(action).toLowerCase()}`);
  replace(cell, h("span", { role: "group", "aria-label": `Confirm: ${label(action).toLowerCase()} ${name}?` },
    h("span", { class: "confirm-question" }, `${label(action)} ${name}? This cannot be undone. `),
    yes,
    h("button", { type: "button", class: "small secondary", "aria-label": `Cancel: keep ${name}`, onclick: restore }, "Cancel")));
  view.confirming = true;
  yes.focus();
}

async function act(app, user, action, name) {
  stateOf(app.app_id).confirming = false;
  try {
    await control("POST", `/users/${encodeURIComponent(app.app_id)}/${encodeURIComponent(user)}/${action}`);
    announce(`${label(action)}: done for ${name}`);
  } catch (error) {
    announce(`${label(action)} for ${name} failed: ${error.message}`);
  }
  stateOf(app.app_id).shown = "";
  await refreshAll();
}

function block(app, page, view) {
  const layout = columns(app.flavour);
  const searchID = `search-${app.app_id}`;
  const first = page.users.length ? page.offset + 1 : 0;
  const last = page.offset + page.users.length;
  const of = page.total === null ? "more" : page.total.toLocaleString("en");
  const rows = page.users.map((user) => {
    const name = layout.name(user);
    return h("tr", {},
      layout.cells(user).map((cell) => h("td", {}, cell)),
      h("td", { class: "actions" }, user.actions.filter((a) => page.actions.includes(a)).map((action) =>
        h("button", { type: "button", class: "small", "aria-label": `${label(action)} ${name}`,
          onclick: (event) => destructive.has(action)
            ? askFirst(event.target.closest("td"), app, layout.id(user), action, name)
            : act(app, layout.id(user), action, name) }, label(action)))));
  });
  return h("section", { class: "app-users", "aria-label": `Users of ${app.app_id}` },
    h("h3", {}, `${app.app_id} `, h("span", { class: "badge" }, app.flavour === "kii" ? "Kii" : "Backendless")),
    h("form", { class: "inline", role: "search", onsubmit: (event) => {
        event.preventDefault();
        view.search = event.target.elements.search.value;
        view.offset = 0;
        view.shown = "";
        refreshOne(app);
      } },
      h("label", { for: searchID }, "Search users"),
      h("input", { id: searchID, name: "search", type: "search", value: view.search, "data-key": searchID,
        autocomplete: "off", oninput: debounce((event) => {
          view.search = event.target.value;
          view.offset = 0;
          view.shown = "";
          refreshOne(app);
        }) }),
      h("button", { type: "submit" }, "Search")),
    table("Users", layout.headers, rows),
    h("div", { class: "inline pager" },
      h("button", { type: "button", disabled: page.offset === 0, "data-key": `prev-${app.app_id}`,
        onclick: () => { view.offset = Math.max(0, view.offset - pageSize); view.shown = ""; refreshOne(app); } }, "Previous page"),
      h("span", { role: "status" }, `${first}–${last} of ${of}`),
      h("button", { type: "button", disabled: !page.more, "data-key": `next-${app.app_id}`,
        onclick: () => { view.offset += pageSize; view.shown = ""; refreshOne(app); } }, "Next page")));
}

function debounce(fn) {
  let timer = null;
  return (event) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(event), 250);
  };
}

const containers = new Map();

async function refreshOne(app) {
  const view = stateOf(app.app_id);
  const page = await control("GET", "/users", {
    query: { app: app.app_id, offset: view.offset, limit: pageSize, search: view.search },
  });
  const signature = JSON.stringify(page);
  if (signature === view.shown) return;
  if (view.confirming && view.shown !== "") return;
  view.shown = signature;
  const container = containers.get(app.app_id);
  if (container) replace(container, block(app, page, view));
}

export async function refresh(shared) {
  const list = document.getElementById("users-list");
  const ids = shared.index.apps.map((app) => app.app_id).join("\n");
  if (list.dataset.apps !== ids) {
    list.dataset.apps = ids;
    containers.clear();
    replace(list, shared.index.apps.map((app) => {
      const container = h("div", {});
      containers.set(app.app_id, container);
      stateOf(app.app_id).shown = "";
      return container;
    }));
  }
  // A search may scan every user under the server's lock: re-run it only when something changed.
  await Promise.all(shared.index.apps
    .filter((app) => shared.changed || !stateOf(app.app_id).search || !stateOf(app.app_id).shown)
    .map(refreshOne));
}
