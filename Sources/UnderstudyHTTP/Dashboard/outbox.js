// Outbox: emails (subject, recipient, the link clickable), text messages (the code large and copyable) and
// pushes, newest first, filtered by recipient.

import { control } from "./api.js";
import { h, replace, table, virtualTime, safeLink, copyButton, announce } from "./dom.js";

let shown = "";
let refreshAll = async () => {};

export function setup(shared, refresh) {
  refreshAll = refresh;
  document.getElementById("outbox-filter").addEventListener("input", () => { shown = ""; refreshAll(); });
  document.getElementById("outbox-clear").addEventListener("click", async () => {
    try {
      const reply = await control("DELETE", "/outbox");
      announce(`Outbox cleared: ${reply.cleared.emails} emails, ${reply.cleared.sms} text messages, ${reply.cleared.pushes} pushes`);
    } catch (error) {
      announce(`Clearing the outbox failed: ${error.message}`);
    }
    shown = "";
    await refreshAll();
  });
}

/** When the message's code stops being accepted (under the app's settings now), and whether it has. */
function expiry(message, now) {
  if (message.expires_at === null || message.expires_at === undefined) return "";
  const over = typeof now === "number" && now > message.expires_at;
  return h("span", { class: over ? "expired" : "" }, virtualTime(message.expires_at), over ? " (expired)" : "");
}

export async function refresh(shared) {
  // The server filters (GET /_understudy/outbox?to=), so the dashboard, Lua's app.outbox.*(to) and the control
  // API agree on what "sent to" means.
  const filter = document.getElementById("outbox-filter").value.trim();
  const outbox = await control("GET", filter ? `/outbox?to=${encodeURIComponent(filter)}` : "/outbox");
  // The apps' clocks, to tell an expired code (an SMS is Kii's: its app's clock).
  const clocks = Object.fromEntries(((shared && shared.summary && shared.summary.apps) || []).map((app) => [app.app_id, app.now]));
  const signature = JSON.stringify([outbox, filter, clocks]);
  if (signature === shown) return;
  shown = signature;
  const emails = outbox.emails.slice().reverse();
  const sms = outbox.sms.slice().reverse();
  const pushes = outbox.pushes.slice().reverse();
  replace(document.getElementById("outbox-list"),
    table("Emails", ["Sent", "App", "To", "Subject", "Kind", "Code", "Link"], emails.map((email) => h("tr", {},
      h("td", {}, virtualTime(email.sent_at)),
      h("td", {}, email.app_id),
      h("td", {}, email.to),
      h("td", {}, email.subject),
      h("td", {}, email.kind),
      h("td", {}, email.code ? [h("code", { class: "code" }, email.code), " ", copyButton(email.code, `code ${email.code}`)] : ""),
      h("td", { class: "wrap" }, email.link ? safeLink(email.link) : (email.password ? `password: ${email.password}` : ""))))),
    table("Text messages", ["Sent", "App", "To", "Code", "Code expires", "Message"], sms.map((message) => h("tr", {},
      h("td", {}, virtualTime(message.sent_at)),
      h("td", {}, message.app_id),
      h("td", {}, message.to),
      h("td", {}, message.code
        ? [h("code", { class: "sms-code", "aria-label": `SMS code ${message.code}` }, message.code), " ",
           copyButton(message.code, `SMS code ${message.code}`)]
        : ""),
      h("td", {}, expiry(message, clocks[message.app_id])),
      h("td", { class: "wrap" }, message.body, message.link ? [" ", safeLink(message.link)] : null)))),
    table("Pushes", ["Sent", "App", "To", "Channel", "Message"], pushes.map((push) => h("tr", {},
      h("td", {}, virtualTime(push.sent_at)),
      h("td", {}, push.app_id),
      h("td", {}, push.device_id ?? push.installation_id ?? ""),
      h("td", {}, push.channel ?? (push.user_id ? `user ${push.user_id}` : "")),
      h("td", { class: "wrap" }, push.message)))));
}
