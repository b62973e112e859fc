// The two lines that talk to the person: the bar says what to do next, the news line what
// just happened (news is old after a few seconds and goes; a screen reader hears it).
import { make } from "./dom.js";
import { speak } from "./speak.js";

// A screen reader hears the bar's main line when it changes to a call to act or an outcome
// (it has a tone): whose turn it is next is told by what they do. It is said after what
// happened: a page draws the bar, then tells the events that led to it, in the same task;
// the bar's line waits for them (a microtask runs once that task is done), so "Computer 1
// flips the 7" comes before "Your turn", and "A Jack from Computer 1!" before "Slap it!".
export function bar(node, main, hint, tone) {
  if (tone && node.dataset.said !== main) queueMicrotask(() => speak(main));
  node.dataset.said = tone ? main : "";
  node.replaceChildren(make("b", { text: main }));
  if (hint) node.append(make("span", { class: "hint", text: hint }));
  node.className = "bar" + (tone ? ` ${tone}` : "");
}

// A say(text, tone) for the news line `node`.
export function news(node) {
  let timer = 0;
  const say = (text, tone) => {
    speak(text);
    node.textContent = text;
    node.className = "news" + (tone ? ` ${tone}` : "");
    clearTimeout(timer);
    if (text.trim()) timer = setTimeout(() => say(" "), 6000);
  };
  return say;
}
