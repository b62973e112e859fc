// Building the page from data without ever parsing data as markup: text that people typed
// (names, table names) reaches the page only through textContent, never innerHTML.

export const $ = (id) => document.getElementById(id);

export const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
export const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);

// make("span", {class: "tag", text: "Host"}, child, "more text"): an element with its
// attributes (null, undefined and false leave one out) and its children (strings become text).
export function make(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "text") node.textContent = String(value);
    else if (key === "class") node.className = value;
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  node.append(...children);
  return node;
}

// aria-checked on each of `nodes`: whether test(node) holds (radio groups and menus); in a
// radio group only the checked radio is a stop for Tab (the arrow keys move in the group).
export function check(nodes, test) {
  const groups = new Set();
  for (const node of nodes) {
    // a toggle button (no role of its own) is pressed; a radio or menu item is checked
    node.setAttribute(node.hasAttribute("aria-pressed") ? "aria-pressed" : "aria-checked", String(test(node)));
    if (node.getAttribute("role") === "radio") groups.add(node.closest("[role=radiogroup]"));
  }
  for (const group of groups) {
    if (!group) continue;
    const all = [...group.querySelectorAll("[role=radio]")];
    const on = all.find((r) => r.getAttribute("aria-checked") === "true") || all[0];
    for (const r of all) r.tabIndex = r === on ? 0 : -1;
  }
}
