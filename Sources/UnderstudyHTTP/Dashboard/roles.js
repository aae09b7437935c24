// Roles: the Backendless apps' custom roles with the users holding them, the system roles every app has, and the
// email templates the console defined (app.roles.define, roles.assign, app.email.templates.define).

import { control } from "./api.js";
import { h, replace, table } from "./dom.js";

let shown = "";

export function setup() {}

export async function refresh() {
  const reply = await control("GET", "/roles");
  const signature = JSON.stringify(reply);
  if (signature === shown) return;
  shown = signature;
  replace(document.getElementById("roles-list"),
    table("Custom roles", ["App", "Role", "Held by"], reply.roles.map((role) => h("tr", {},
      h("td", {}, role.app_id),
      h("td", {}, h("strong", {}, role.name)),
      h("td", { class: "wrap" }, role.holders.length === 0 ? "nobody"
        : h("ul", { class: "plain", "aria-label": `Holders of ${role.name}` },
          role.holders.map((holder) => h("li", {}, holder.identity ?? h("code", {}, holder.objectId)))))))),
    h("p", { class: "hint" }, `System roles, in every app: ${reply.system.join(", ")}.`));
  replace(document.getElementById("templates-list"),
    table("Email templates", ["App", "Name", "Subject", "Body"], reply.templates.map((template) => h("tr", {},
      h("td", {}, template.app_id),
      h("td", {}, h("strong", {}, template.name)),
      h("td", { class: "wrap" }, template.subject),
      h("td", { class: "wrap" }, template.body === "" ? "—" : template.body,
        template.html === null ? null : h("details", {}, h("summary", {}, "HTML"), h("pre", {}, template.html)))))));
}
