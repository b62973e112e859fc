// A line on a game page that stays until it is answered or no longer true, with its own
// buttons and links: the offer to continue this device's unfinished game, a seat token that
// was refused, the replay and the rematch once a game is over. Its words are read out when
// they change (aria-live); people's names reach it only as text.
import { make } from "./dom.js";

// A line of class `className` placed by put(node) (e.g. before or after the bar).
export function line(className, put) {
  const text = make("span", { class: "notice-text", "aria-live": "polite" });
  const actions = make("span", { class: "notice-actions" });
  const node = make("div", { class: `notice ${className}`, hidden: true }, text, actions);
  put(node);
  let shown = "";

  return {
    node,
    // show(words, [{text, href} | {text, press, primary, id}], tone); the same words and
    // actions again change nothing (no repeated announcement, the focus stays).
    show(words, items = [], tone = "") {
      const key = JSON.stringify([words, items.map((i) => [i.text, i.href || "", i.id || ""]), tone]);
      node.hidden = false;
      node.className = `notice ${className}${tone ? ` ${tone}` : ""}`;
      if (key === shown) return;
      shown = key;
      text.textContent = words;
      actions.replaceChildren(...items.map((item) => {
        const cls = `button${item.primary ? " primary" : ""}`;
        if (item.href) return make("a", { class: cls, href: item.href, id: item.id, text: item.text });
        const b = make("button", { type: "button", class: cls, id: item.id, text: item.text });
        b.addEventListener("click", item.press);
        return b;
      }));
    },
    hide() {
      node.hidden = true;
      shown = "";
    },
    // the first button or link, for the focus
    first: () => actions.querySelector("button, a"),
    get shown() { return !node.hidden; },
  };
}
