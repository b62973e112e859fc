// Splunk's four stacks: the face-down base, the face-up cards (the newest three in full, for
// pairs and sandwiches), the count and face-up total, and what the view says of each: the
// last play, a slap open on it, a play our seat may make there.
import { $, make, plural } from "../lib/dom.js";
import { cardName, cardSVG } from "../lib/cards.js";
import { legal } from "../lib/legal.js";
import { hintsOn } from "../lib/hints.js";

export const KIND_NAME = { pair: "a pair", sandwich: "a sandwich", joker: "a joker" };
export const stackName = (i) => `stack ${i + 1}`;

export const stackNodes = () => [...$("stacks").querySelectorAll(".stack")];

const drawn = []; // what each stack's pile shows, to draw it again only when it changed

// A stack's name is one sentence for a screen reader (`.stack-says`, drawn with the rest);
// what it shows, for the eye, is hidden from it, so no part of the picture is read twice.
export function buildStacks() {
  stackNodes().forEach((node, i) => {
    node.replaceChildren(
      make("span", { class: "stack-says sr-only", text: `Stack ${i + 1}` }),
      make("span", { class: "stack-head", "aria-hidden": "true" }, make("kbd", { text: i + 1 }), make("span", { class: "stack-tag" })),
      make("span", { class: "stack-pile", "aria-hidden": "true" }), make("span", { class: "stack-foot", "aria-hidden": "true" }),
      make("span", { class: "reveal", hidden: true }));
    drawn[i] = null;
  });
}

// A card's place in the pile: `offset` card heights below the top of the pile.
function slot(offset, card, className = "slot") {
  const node = make("span", { class: className }, ...(card ? [card] : []));
  node.style.setProperty("--k", offset.toFixed(3));
  return node;
}

function drawPile(pile, stack) {
  const cards = stack.up.map((card) => {
    const box = make("span");
    box.innerHTML = cardSVG(card); // our own drawing: no text from outside
    return box.firstChild || box;
  });
  if (stack.base) cards.unshift(make("span", { class: "card-back", "aria-label": "a face-down base" }));
  // older cards squeeze together above the newest three
  const older = Math.max(0, cards.length - 3);
  const step = older ? Math.min(0.25, 0.3 / older) : 0;
  pile.replaceChildren(...cards.map((card, k) =>
    slot(k < older ? k * step : older * step + (k - older) * 0.25, card)));
  if (!cards.length) pile.replaceChildren(slot(0, null, "slot empty-slot"));
}

function drawFoot(foot, stack) {
  foot.replaceChildren(make("span", { text: stack.cards ? plural(stack.cards, "card") : "empty" }));
  // the face-up total only: the base counts too, but nobody knows it
  if (stack.up.length) foot.append(make("span", { class: "up-total", text: `${stack.up_total} up` }));
}

export function drawStacks(table) {
  const view = table.view;
  stackNodes().forEach((node, i) => {
    if (!view) {
      drawn[i] = null;
      node.querySelector(".stack-says").textContent = `Stack ${i + 1}`;
      node.querySelector(".stack-pile").replaceChildren();
      node.querySelector(".stack-foot").textContent = "";
      node.classList.remove("last", "hot", "playable");
      node.disabled = true;
      return;
    }
    const stack = view.stacks[i];
    const key = `${stack.cards}|${stack.base}|${stack.up.join(",")}`;
    if (drawn[i] !== key) {
      drawn[i] = key;
      drawPile(node.querySelector(".stack-pile"), stack);
    }
    drawFoot(node.querySelector(".stack-foot"), stack);
    const hot = stack.slap !== null && hintsOn(); // a slap open on it shows only as a hint
    const last = Boolean(view.last_play && view.last_play.stack === i);
    const playable = Boolean(legal(view, "play", { stack: i }));
    node.classList.toggle("last", last);
    node.classList.toggle("hot", hot);
    node.classList.toggle("playable", playable && !hot);
    node.querySelector(".stack-tag").textContent = hot ? "Slap!" : last ? "Last play" : "";
    node.querySelector(".stack-says").textContent = `Stack ${i + 1}: ${plural(stack.cards, "card")}` +
      (last ? ", just played on" : "") + (stack.up.length ? `, face up ${stack.up.map(cardName).join(", ")}, up total ${stack.up_total}` : "") +
      (hot ? ". Slap it!" : playable ? ". Play here" : "");
    node.dataset.up = String(stack.up_total);
    node.disabled = table.seat === null;
  });
  $("stacks").dataset.plays = String(view ? view.plays : 0);
}

// A label over a stack for what a call or a slap did to it, until its next card.
export function label(i, text, tone) {
  const node = stackNodes()[i].querySelector(".reveal");
  node.textContent = text;
  node.className = `reveal ${tone}`;
  node.hidden = false;
}

export const unlabel = (i) => { stackNodes()[i].querySelector(".reveal").hidden = true; };
