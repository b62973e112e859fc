// What happened at the Slabberjan table, newest first: the middle of the table shows what
// fits of the last few lines.
import { $, make } from "../lib/dom.js";
import { speak } from "../lib/speak.js";

const LINES = 12;
let lines = [];

export function note(text, tone) {
  speak(text);
  lines.unshift({ text, tone: tone || "" });
  lines.length = Math.min(lines.length, LINES);
  draw();
}

export function clearLog() {
  lines = [];
  draw();
}

export const logIsEmpty = () => lines.length === 0;

function draw() {
  $("log").replaceChildren(...lines.map((line) => make("li", { class: line.tone || null, text: line.text })));
}
