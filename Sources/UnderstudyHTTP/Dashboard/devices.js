// Devices: Backendless device registrations with their channels and expiry on the virtual clock, scheduled
// messages (next firing, a cancel action) and push templates, Kii installations, and Kii topics with their
// subscribers.

import { control } from "./api.js";
import { announce, h, replace, table, virtualTime } from "./dom.js";

let shown = "";
let refreshAll = async () => {};

export function setup(shared, refresh) { refreshAll = refresh; }

async function cancel(message) {
  try {
    await control("POST", `/messages/${encodeURIComponent(message.app_id)}/${encodeURIComponent(message.messageId)}/cancel`);
    announce(`Cancelled ${message.messageId}`);
  } catch (error) {
    announce(`Cancelling ${message.messageId} failed: ${error.message}`);
  }
  shown = "";
  await refreshAll();
}

function every(seconds) {
  if (seconds === null || seconds === undefined) return "once";
  return `every ${seconds} s`;
}

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
  const messages = reply.scheduled_messages || [];
  parts.push(table("Scheduled messages", ["App", "Message id", "Channel", "Message", "Next firing", "Repeats", ""],
    messages.map((message) => h("tr", {},
      h("td", {}, message.app_id),
      h("td", { class: "wrap" }, h("code", {}, message.messageId)),
      h("td", {}, message.channel ?? "(devices)"),
      h("td", { class: "wrap" }, message.message),
      h("td", {}, virtualTime(message.next_firing)),
      h("td", {}, every(message.repeat_every)),
      h("td", { class: "actions" }, h("button", { type: "button", class: "small",
        "aria-label": `Cancel ${message.messageId}`, onclick: () => cancel(message) }, "Cancel"))))));
  const templates = reply.push_templates || [];
  parts.push(table("Push templates", ["App", "Name", "OS", "Channel", "Message", "Title", "Subtitle", "Headers"],
    templates.map((template) => h("tr", {},
      h("td", {}, template.app_id),
      h("td", {}, h("code", {}, template.name)),
      h("td", {}, template.os),
      h("td", {}, template.channel),
      h("td", { class: "wrap" }, template.message),
      h("td", {}, template.title ?? ""),
      h("td", {}, template.subtitle ?? ""),
      h("td", { class: "wrap" }, Object.entries(template.headers || {}).map(([name, value]) => `${name}: ${value}`).join(", "))))));
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
