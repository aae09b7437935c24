// OAuth: the provider accounts the Backendless apps know (app.oauth.account) and the user each one's first login
// registered.

import { control } from "./api.js";
import { h, replace, table } from "./dom.js";

let shown = "";

export function setup() {}

export async function refresh() {
  const reply = await control("GET", "/oauth");
  const signature = JSON.stringify(reply);
  if (signature === shown) return;
  shown = signature;
  replace(document.getElementById("oauth-list"),
    table("OAuth provider accounts", ["App", "Provider", "Token", "Secret", "Profile", "User"], reply.accounts.map((account) => h("tr", {},
      h("td", {}, account.app_id),
      h("td", {}, account.provider),
      h("td", { class: "wrap" }, h("code", {}, account.token)),
      h("td", {}, account.secret === null ? "—" : h("code", {}, account.secret)),
      h("td", { class: "wrap" }, Object.entries(account.profile).map(([name, value]) => `${name}: ${value}`).join(", ")),
      h("td", {}, account.user === null ? "not signed up yet" : h("code", {}, account.user))))));
}
