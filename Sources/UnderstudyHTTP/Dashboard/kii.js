// Kii (contract v4): the topics' ACLs, the groups, the social provider accounts (app.social.account) with the user
// each is linked to, and the MQTT clients connected to the broker.

import { control } from "./api.js";
import { h, replace, table } from "./dom.js";

let shown = "";

export function setup() {}

const code = (text) => h("code", {}, text);
const list = (items) => (items.length ? items.join(", ") : "nobody");

export async function refresh() {
  const reply = await control("GET", "/kii");
  const signature = JSON.stringify(reply);
  if (signature === shown) return;
  shown = signature;
  replace(document.getElementById("kii-list"),
    table("Topic ACLs", ["App", "Topic", "Owner", "May subscribe", "May send"], reply.topics.map((topic) => h("tr", {},
      h("td", {}, topic.app_id),
      h("td", {}, code(topic.topic)),
      h("td", {}, topic.owner === null ? "the app" : code(topic.owner)),
      h("td", { class: "wrap" }, list(topic.SUBSCRIBE_TO_TOPIC)),
      h("td", { class: "wrap" }, list(topic.SEND_MESSAGE_TO_TOPIC))))),
    table("Groups", ["App", "Group", "Name", "Owner", "Members"], reply.groups.map((group) => h("tr", {},
      h("td", {}, group.app_id),
      h("td", {}, code(group.groupID)),
      h("td", {}, group.name),
      h("td", {}, code(group.owner)),
      h("td", { class: "wrap" }, group.members.join(", "))))),
    table("Social accounts", ["App", "Provider", "Token", "Profile", "Linked user"], reply.social.map((account) => h("tr", {},
      h("td", {}, account.app_id),
      h("td", {}, account.provider),
      h("td", { class: "wrap" }, code(account.token)),
      h("td", { class: "wrap" }, Object.entries(account.profile).map(([name, value]) => `${name}: ${value}`).join(", ")),
      h("td", {}, account.user === null ? "not linked" : code(account.user))))),
    table("MQTT connections", ["App", "Client (mqttTopic)"], reply.mqtt.map((client) => h("tr", {},
      h("td", {}, client.app_id),
      h("td", {}, code(client.client))))));
}
