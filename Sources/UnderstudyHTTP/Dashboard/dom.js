// Builds elements from data. Every string becomes a text node or an attribute value: nothing from the server is
// ever parsed as HTML, so a user named <img src=x onerror=alert(1)> shows as those characters.

/**
 * h("button", { type: "button", onclick: fn, "aria-label": "..." }, "text", child, ...)
 * Attributes whose name starts with "on" must be functions (event listeners); other values are set as text.
 */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on")) {
      if (typeof value !== "function") throw new Error(`attribute ${name} must be a function`);
      element.addEventListener(name.slice(2), value);
    } else if (name === "value" || name === "checked" || name === "selected" || name === "disabled" || name === "hidden") {
      element[name] = value;
    } else {
      element.setAttribute(name, value === true ? "" : String(value));
    }
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    if (Array.isArray(child)) append(element, child);
    else if (child instanceof Node) element.appendChild(child);
    else element.appendChild(document.createTextNode(String(child)));
  }
}

/** Replaces the children of `element`, keeping the focused control when an equal one is rebuilt. */
export function replace(element, ...children) {
  const focused = document.activeElement;
  const key = focused && element.contains(focused) ? focused.getAttribute("data-key") : null;
  element.replaceChildren();
  append(element, children);
  if (key) {
    const again = element.querySelector(`[data-key="${CSS.escape(key)}"]`);
    if (again) again.focus();
  }
}

/** A table with a caption, a header row and body rows (arrays of cells: strings or nodes). */
export function table(caption, headers, rows, attributes = {}) {
  return h("div", { class: "table-wrap" },
    h("table", attributes,
      h("caption", {}, caption),
      h("thead", {}, h("tr", {}, headers.map((text) => h("th", { scope: "col" }, text)))),
      h("tbody", {}, rows.length ? rows : h("tr", {}, h("td", { colspan: headers.length, class: "empty" }, "Nothing yet")))));
}

/** Virtual seconds since the epoch as `2030-01-01 00:00:00Z`. */
export function virtualTime(seconds) {
  if (seconds === null || seconds === undefined) return "never";
  const date = new Date(seconds * 1000);
  if (Number.isNaN(date.getTime())) return String(seconds);
  return date.toISOString().replace("T", " ").replace(/\.\d+Z$/, "Z");
}

/** Only http(s) links become clickable; anything else (javascript:, data:) stays text. */
export function safeLink(url, label) {
  try {
    const parsed = new URL(url, location.href);
    if (parsed.protocol === "http:" || parsed.protocol === "https:") {
      return h("a", { href: parsed.href, target: "_blank", rel: "noopener noreferrer" }, label ?? url);
    }
  } catch (_) { /* not a URL */ }
  return h("span", {}, url);
}

/** Copies text to the clipboard; says so in the status line. Falls back to selecting a field. */
export async function copy(text, what) {
  try {
    await navigator.clipboard.writeText(text);
    announce(`Copied ${what}`);
  } catch (_) {
    announce(`Could not copy ${what}: select it and copy by hand`);
  }
}

/** A button that copies `text`; its accessible name says what it copies. */
export function copyButton(text, what) {
  return h("button", { type: "button", class: "small", "aria-label": `Copy ${what}`, onclick: () => copy(text, what) }, "Copy");
}

/** Says something in the page's live status line. */
export function announce(message) {
  const status = document.getElementById("connection");
  if (status) status.textContent = message;
}

/** Text ready for a <select>: `value` and the option's text. */
export function options(items, selected) {
  return items.map(([value, label]) => h("option", { value, selected: String(value) === String(selected) }, label));
}
