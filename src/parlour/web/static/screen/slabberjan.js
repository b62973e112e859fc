// Slabberjan on the big screen: each seat's chips, the dealer and whose turn it is, the
// pieces shown at the reveal; the pot, the round and the bag in the middle; every matador's
// words in a bubble at its seat and in large type.
import { make, plural } from "../lib/dom.js";
import { a } from "../lib/pieces.js";
import { bubble, clearBubbles, news, note, won } from "./news.js";

// What each matador's words do (ruling S5), and why a seat pays.
const EFFECT = { inn: "the swap goes on to the next player", cat: "every swap is undone",
  bird: "no more swaps", knight: "the round ends at once" };
const PAID_FOR = { lowest: "the weakest piece", fool: "the fool", meow: "the cat said “meow”",
  "cut short": "the knight cut the round short" };

export function slabberjan(name) {
  // the reveal shows until the next deal's first move; so do the round's bubbles
  const round = { reveal: false, fresh: false };
  const moved = () => {
    if (!round.fresh) return;
    round.fresh = false;
    round.reveal = false;
    clearBubbles();
  };

  const tell = {
    deal(e, view, before) {
      round.fresh = true;
      const again = e.deal > 1 && before && before.round === e.round;
      note(again ? `Fool over fool: ${name(e.dealer)} deals again.` : `Round ${e.round}: ${name(e.dealer)} deals.`);
    },
    stand(e) { moved(); note(`${name(e.player)} stands.`); },
    swap(e) { moved(); note(`${name(e.player)} swaps with ${name(e.target)}.`); },
    draw(e) { moved(); note(`${name(e.player)} draws from the bag.`); },
    keep: (e) => note(`${name(e.player)} keeps the piece: the bag is empty.`),
    no_swap: (e) => note(`No swap for ${name(e.player)}: the inns passed it all the way round.`),
    undo: () => note("Every swap is undone."),
    announce(e) {
      moved();
      const words = `“${e.words}”`;
      if (Array.isArray(e.players)) { // two fools met in a swap (S7)
        for (const seat of e.players) bubble(seat, words, "matador");
        news(`${name(e.players[0])} and ${name(e.players[1])}: ${words}`);
      } else if (e.bag) {
        bubble(e.player, `From the bag: ${words}`, "matador");
        news(`${name(e.player)} draws ${a(e.piece)} from the bag: ${words}`);
      } else {
        bubble(e.holder, words, "matador");
        news(`${name(e.holder)}: ${words} (${a(e.piece)}: ${EFFECT[e.piece] || "it stands"})`);
      }
    },
    reveal(e, view) {
      round.reveal = true;
      note(`Round ${view.reveal ? view.reveal.round : ""}: everyone shows their piece.`);
    },
    pay: (e) => note(`${name(e.player)} pays a chip${PAID_FOR[e.reason] ? ` (${PAID_FOR[e.reason]})` : ""}.`),
    out: (e) => news(`${name(e.player)} is out.`, "bad"),
    spared: () => note("Nobody is out: all stay in with 0 chips."),
    win: (e) => won(e.player, `${name(e.player)} wins the game and the pot of ${e.pot}!`),
  };

  return {
    tell(e, view, before) { if (tell[e.type]) tell[e.type](e, view, before); },
    seat(view, seat) {
      const p = view.players[seat];
      const shown = round.reveal && view.reveal ? view.reveal.pieces[seat] : null;
      const pays = round.reveal && view.reveal && view.reveal.pays[seat];
      return {
        line: p.out ? "out" : plural(p.chips, "chip"),
        note: shown || (seat === view.dealer ? "deals" : ""),
        turn: view.winner === null && view.turn === seat,
        out: p.out, tone: pays ? "pays" : "",
      };
    },
    board(view, box) {
      box.replaceChildren(
        make("div", { class: "board-big" }, make("span", { class: "board-label", text: "Pot " }),
          make("strong", { text: String(view.pot) })),
        make("p", { class: "board-line", text: view.winner !== null ? "Game over"
          : `Round ${view.round} · ${name(view.dealer)} deals · ${plural(view.bag, "piece")} in the bag`
            + (view.bird ? " · the bird: no more swaps" : "") }));
    },
  };
}
