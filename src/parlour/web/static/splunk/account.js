// The account of a Splunk game: every call and slap, who took the stack and why. An entry is
// {tone, parts}, a part a string, {card}, {b: text} or {tag: text}; the entries are kept in
// this tab's storage per table, so that a reload tells the same story.
import { $, make } from "../lib/dom.js";
import { cardName, cardText, isCard, isRed } from "../lib/cards.js";
import { session } from "../lib/storage.js";

const KEY = "parlour.splunk.account.";
const MOST = 200;

export function partNode(part) {
  if (typeof part === "string") return document.createTextNode(part);
  if (part.card) {
    if (!isCard(part.card)) return document.createTextNode("?");
    return make("span", { class: `mini-card${isRed(part.card) ? " red" : ""}`,
      title: cardName(part.card), text: cardText(part.card) });
  }
  if (part.tag) {
    const both = document.createDocumentFragment();
    both.append(make("span", { class: "entry-tag", text: part.tag }), " ");
    return both;
  }
  return make("b", { text: part.b });
}

const entryNode = (entry) => make("li", { class: `entry t-${entry.tone}` }, ...entry.parts.map(partNode));

export function account() {
  let table = null;
  let entries = [];
  const list = $("account");
  const keep = () => { if (table) session(KEY + table, JSON.stringify(entries)); };

  function show() {
    list.replaceChildren(...entries.map(entryNode).reverse());
    $("account-empty").hidden = entries.length > 0;
  }

  return {
    get entries() { return entries; },

    // The account of `id` as this tab kept it (null: none).
    open(id) {
      table = id;
      let stored = [];
      try { stored = id ? JSON.parse(session(KEY + id)) : []; } catch (e) { stored = []; }
      entries = Array.isArray(stored) ? stored : [];
      show();
    },

    // A new game: the old table's account goes.
    forget() {
      if (table) session(KEY + table, null);
      this.open(null);
    },

    add(tone, parts) {
      const entry = { tone, parts };
      entries.push(entry);
      if (entries.length > MOST) entries.shift();
      list.prepend(entryNode(entry));
      $("account-empty").hidden = true;
      keep();
    },

    // More about the entry just told (the new base after a call or a slap).
    addToLast(parts) {
      const entry = entries[entries.length - 1];
      if (!entry) return;
      entry.parts.push(...parts);
      if (list.firstElementChild) list.firstElementChild.append(...parts.map(partNode));
      keep();
    },
  };
}
