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

export function speak(text) {
  if (quiet || !text || !text.trim()) return;
  const box = theRegion();
  box.append(make("p", { text }));
  while (box.childElementCount > KEEP) box.firstElementChild.remove();
}
