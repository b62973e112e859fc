// The two lines that talk to the person: the bar says what to do next, the news line what
// just happened (news is old after a few seconds and goes).
import { make } from "./dom.js";

export function bar(node, main, hint, tone) {
  node.replaceChildren(make("b", { text: main }));
  if (hint) node.append(make("span", { class: "hint", text: hint }));
  node.className = "bar" + (tone ? ` ${tone}` : "");
}

// A say(text, tone) for the news line `node`.
export function news(node) {
  let timer = 0;
  const say = (text, tone) => {
    node.textContent = text;
    node.className = "news" + (tone ? ` ${tone}` : "");
    clearTimeout(timer);
    if (text.trim()) timer = setTimeout(() => say(" "), 6000);
  };
  return say;
}
