// A game page's keys. Keys act only when no menu is open and nobody is typing; Space, when
// it is a key of the page, is never a button press or a scroll; Enter on a focused button of
// the table (Swap, Continue your game...) presses that button. A key the page tells a player
// to press never changes a setting: the focus often stays on the setting last clicked (the
// speed, Free choice, the sound), so Enter there is the page's key, not that setting's
// (Space, or a click, still presses it).

const typing = (t) => t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.isContentEditable);
const asking = () => document.querySelector("dialog[open]") !== null;
// a control that changes a setting or deals anew at once (a menu's button only opens it)
const setting = (t) => t.closest(".controls, header.top") !== null
  && (["radio", "switch"].includes(t.getAttribute("role")) || t.id === "new-game");
const pressable = (t) => t && (t.tagName === "BUTTON" || t.tagName === "A" || t.tagName === "INPUT")
  && !setting(t);
const keyOf = (e) => (e.code === "Space" || e.key === " " ? "Space"
  : e.key.length === 1 ? e.key.toLowerCase() : e.key);

// bindings: {"Space": fn, "f": fn, "1": fn, "Enter": fn, ...}, each called with the key;
// held() is true while a menu is open.
export function keys(bindings, held = () => false) {
  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || held() || asking() || typing(e.target)) return;
    const key = keyOf(e);
    const act = bindings[key];
    if (!act || (key === "Enter" && pressable(e.target))) return;
    e.preventDefault();
    if (!e.repeat) act(key);
  });
  document.addEventListener("keyup", (e) => {
    if (bindings.Space && keyOf(e) === "Space" && !held() && !asking() && !typing(e.target)) e.preventDefault();
  });
}
