// Slapjack on the big screen: each seat's cards and whose turn it is to flip; the pile and
// its top card in the middle, large; each Jack slapped, wrong slap and knock-out in large
// type and in a bubble at the seat.
import { make, plural } from "../lib/dom.js";
import { cardName, cardSVG } from "../lib/cards.js";
import { bubble, clearBubbles, news, note, won, wrongSlap } from "./news.js";

export function slapjack(name) {
  const tell = {
    flip: () => clearBubbles(), // the pile moves on
    take(e) {
      if (e.reason === "jack") {
        bubble(e.player, "Slap!", "good");
        news(`${name(e.player)} slaps the Jack and takes ${plural(e.cards, "card")}!`);
      } else note(`${name(e.player)} takes the pile (${plural(e.cards, "card")}).`);
    },
    wrong_slap: (e) => wrongSlap(e.player, `${name(e.player)} slapped ${cardName(e.card)}: not a Jack.`),
    out: (e) => news(`${name(e.player)} is out.`, "bad"),
    win: (e) => won(e.player, `${name(e.player)} wins the game!`),
  };
  return {
    tell(e) { if (tell[e.type]) tell[e.type](e); },
    seat(view, seat) {
      const p = view.players[seat];
      return { line: p.out ? "out" : plural(p.cards, "card"), note: "",
        turn: view.winner === null && view.turn === seat, out: p.out, tone: "" };
    },
    board(view, box) {
      const top = make("div", { class: "board-card" });
      // our own drawing of one of the 52 cards (lib/cards.js draws nothing else)
      if (view.top) top.innerHTML = cardSVG(view.top);
      box.replaceChildren(top,
        make("p", { class: "board-line", text: view.pile ? `The pile: ${plural(view.pile, "card")}` : "The pile is empty" }),
        make("p", { class: "board-line", text: view.winner !== null ? "Game over" : `${name(view.turn)} flips next` }));
    },
  };
}
