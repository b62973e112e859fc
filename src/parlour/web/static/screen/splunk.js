// Splunk on the big screen: the two seats' cards and whose turn it is; the four stacks in
// the middle, their face-up cards and totals; every call and slap in large type and in a
// bubble at the seat.
import { make, plural } from "../lib/dom.js";
import { cardSVG } from "../lib/cards.js";
import { bubble, clearBubbles, news, note, won, wrongSlap } from "./news.js";

const KIND = { pair: "a pair", sandwich: "a sandwich", joker: "a joker" };

export function splunk(name) {
  const tell = {
    play(e) {
      clearBubbles();
      if (e.kind) note(`${name(e.player)} makes ${KIND[e.kind] || e.kind} on stack ${e.stack + 1}: slap it!`);
    },
    call(e) {
      bubble(e.player, "I call!", "matador");
      news(`${name(e.player)} calls stack ${e.stack + 1}: ${e.total}, ${e.over ? "over 21" : "not over 21"}. `
        + `${name(e.taker)} takes ${plural(e.cards.length, "card")}.`);
    },
    slap(e) {
      bubble(e.player, "Slap!", "good");
      news(`${name(e.player)} slaps ${KIND[e.kind] || "the stack"} on stack ${e.stack + 1}: ${name(e.taker)} takes ${plural(e.cards, "card")}.`);
    },
    wrong_slap: (e) => wrongSlap(e.player,
      `${name(e.player)} slapped stack ${e.stack + 1} for nothing: ${name(e.taker)} takes ${plural(e.cards, "card")}.`),
    win: (e) => won(e.player, `${name(e.player)} wins the game!`),
  };
  return {
    tell(e) { if (tell[e.type]) tell[e.type](e); },
    seat(view, seat) {
      return { line: plural(view.players[seat].cards, "card"), note: "",
        turn: view.winner === null && view.turn === seat, out: false, tone: "" };
    },
    board(view, box) {
      const stacks = view.stacks.map((stack, i) => {
        const cards = make("div", { class: "stack-cards" });
        // our own drawings of cards (lib/cards.js draws only the 54 codes)
        cards.innerHTML = (stack.base ? '<span class="stack-base" role="img" aria-label="a face-down base"></span>' : "")
          + stack.up.map((card) => cardSVG(card)).join("");
        return make("li", { class: "board-stack" + (stack.slap ? " slap" : "") + (stack.call_open ? " call" : "") },
          make("span", { class: "stack-name", text: `Stack ${i + 1}` }), cards,
          make("span", { class: "stack-total", text: stack.up.length ? `shows ${stack.up_total}` : "" }));
      });
      box.replaceChildren(make("ol", { class: "board-stacks", "aria-label": "Stacks" }, ...stacks),
        make("p", { class: "board-line", text: view.winner !== null ? "Game over" : `${name(view.turn)} plays next` }));
    },
  };
}
