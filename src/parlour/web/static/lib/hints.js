// Slap hints: the bar's "Jack! Slap it!", the glowing pile or stack, a pair named as it is
// played. A person may turn them off (kept on this device); at a speed beyond the rules page
// (Expert) they are always off: spotting the card is the skill.
import { $ } from "./dom.js";
import { load, save } from "./storage.js";

const KEY = "parlour.hints";
let level = null;
let beyond = new Set();

let always = false;

// Whether hints show now.
export const hintsOn = () => always || (!beyond.has(level) && load(KEY, true) !== false);

// A replay shows what a slap could have won, whatever the viewer's own switch says.
export function hintsAlways() {
  always = true;
}

// Wires the switch (#hints, if the page has one) for `spec`; changed() redraws the table.
export function hintSwitch(spec, changed) {
  beyond = new Set(spec.levels.filter((l) => l.beyond_rules).map((l) => l.name));
  const button = $("hints");
  if (!button) return { level() {} };
  const show = () => {
    const forced = beyond.has(level);
    button.setAttribute("aria-checked", String(hintsOn()));
    button.setAttribute("aria-disabled", String(forced));
    button.textContent = `Slap hints: ${hintsOn() ? "on" : "off"}`;
    button.title = forced ? "No slap hints at this speed: spotting the card is the skill"
      : "Slap hints: the bar says when to slap and the pile glows";
  };
  button.addEventListener("click", () => {
    if (beyond.has(level)) return;
    save(KEY, !hintsOn());
    show();
    changed();
  });
  return {
    // the speed in play: hints are off beyond the rules page
    level(name) {
      level = name;
      show();
    },
  };
}
