// Words for a screen reader: what just happened at the table and what to do next, said
// through one live region out of sight (role=log: each line added is read once, in turn).
// The lines people see (the news line, the bar, the log) are not live themselves, so
// nothing is read twice.
import { make } from "./dom.js";

const KEEP = 8; // lines kept in the region: old ones are gone once read
let region = null;

function theRegion() {
  if (!region || !region.isConnected) {
    region = make("div", { id: "spoken", class: "sr-only", role: "log", "aria-live": "polite", "aria-label": "What happens" });
    document.body.append(region);
  }
  return region;
}

let quiet = false;

// A page that reads its own lines out (the replay's story is live itself) turns the
// tellers' speaking off, so that nothing is read twice.
export function speakNot() {
  quiet = true;
}

// The lines said in one go (one task and its microtasks: "Computer 1 flips the 7", then
// "Your turn") are read as one: Chromium reports several lines added at once in an order
// of its own, and Orca read "Your turn" before the flip that led to it. So the newest line
// of a go also carries the ones before it (shown by style.css before its text, where a
// screen reader reads it too) and those are hidden from it; each <p> keeps its own words.
let go = null;

export function speak(text) {
  if (quiet || !text || !text.trim()) return;
  const box = theRegion();
  const line = make("p", { text });
  const last = go && go.isConnected ? go : null;
  if (last) {
    line.dataset.before = (last.dataset.before ? last.dataset.before + " " : "") + last.textContent;
    last.setAttribute("aria-hidden", "true");
  } else setTimeout(() => { go = null; }, 0);
  go = line;
  box.append(line);
  while (box.childElementCount > KEEP) box.firstElementChild.remove();
}
