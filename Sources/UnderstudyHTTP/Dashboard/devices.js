// Devices: Backendless device registrations with their channels and expiry on the virtual clock, Kii
// installations, and Kii topics with their subscribers.

import { control } from "./api.js";
import { h, replace, table, virtualTime } from "./dom.js";

let shown = "";

export function setup() {}

export async function refresh() {
  const reply = await control("GET", "/devices");
  const signature = JSON.stringify(reply);
  if (signature === shown) return;
  shown = signature;
  const parts = [
    table("Devices", ["App", "Device id", "OS", "Token", "Channels", "Expires"], reply.devices.map((device) => h("tr", {},
      h("td", {}, device.app_id),
      h("td", {}, h("code", {}, device.device_id)),
      h("td", {}, device.os, device.os_version ? ` ${device.os_version}` : ""),
      h("td", { class: "wrap" }, h("code", {}, device.token)),
      h("td", {}, Object.keys(device.channels).join(", ")),
      h("td", {}, virtualTime(device.expiration))))),
  ];
  if (Array.isArray(reply.installations)) {
    parts.push(table("Installations", ["App", "Installation id", "User", "Device type", "Token"],
      reply.installations.map((item) => h("tr", {},
        h("td", {}, item.app_id), h("td", {}, h("code", {}, item.installation_id ?? item.installationID ?? "")),
        h("td", {}, item.user_id ?? item.userID ?? ""), h("td", {}, item.device_type ?? item.deviceType ?? ""),
        h("td", { class: "wrap" }, item.token ?? item.installationRegistrationID ?? "")))));
  }
  if (Array.isArray(reply.topics) && reply.topics.length > 0) {
    parts.push(table("Topics", ["App", "Topic", "Scope", "Subscribers"],
      reply.topics.map((topic) => h("tr", {},
        h("td", {}, topic.app_id), h("td", {}, h("code", {}, topic.topicID)),
        h("td", {}, topic.owner ? `user ${topic.owner}` : "app"),
        h("td", { class: "wrap" }, topic.subscribers.length ? topic.subscribers.join(", ") : "none")))));
  }
  replace(document.getElementById("devices-list"), parts);
}
