// What just happened at the Slabberjan table, told from the events: a line in the log for
// each, a bubble at the seat of a matador that speaks, swap arrows, and the marks and facts
// of the reveal. `round` is the page's state of the round in play.
import { a } from "../lib/pieces.js";
import { arrow, clearArrows } from "./ring.js";
import { bubble, unbubbleAll } from "./bubbles.js";
import { note } from "./log.js";
import { sound } from "../lib/sound.js";

// What a matador does when it refuses a swap (ruling S5).
const EFFECT = {
  inn: "the swap goes on to the next player",
  cat: "every swap is undone",
  bird: "no more swaps, only the dealer's turn is left",
  knight: "the round ends at once",
};
// Why a seat pays (the event's reason code).
const PAID_FOR = { lowest: "the weakest piece", fool: "the fool", meow: "the cat said “meow”",
  "cut short": "the knight cut the round short" };

export function teller(table, names, round) {
  const { name, lower, mine, verb } = names;

  // The first move after a reveal turns the table back to the round in play.
  function moved() {
    if (round.showReveal) unbubbleAll();
    round.showReveal = false;
    round.marks = {};
  }

  function announce(e) {
    moved();
    const words = `“${e.words}”`;
    if (Array.isArray(e.players)) { // two fools met in a swap (S7)
      for (const seat of e.players) bubble(seat, words, "fool");
      note(`${name(e.players[0])} and ${lower(e.players[1])}: ${words}. Two fools: the pieces go back in the bag.`, "big");
    } else if (e.bag) {
      bubble(e.player, `From the bag: ${words}`, e.piece);
      note(`${verb(e.player, "draw", "draws")} ${a(e.piece)} from the bag: ${words}.`, "big");
    } else {
      bubble(e.holder, words, e.piece);
      note(`${verb(e.holder, "hold", "holds")} ${a(e.piece)}: ${words}, ${EFFECT[e.piece] || ""}.`, "big");
    }
  }

  const TELL = {
    deal(e, view, before) {
      moved(); // last round's reveal, marks and bubbles are not this deal's
      round.undone = 0;
      clearArrows(); // a fresh deal: the swaps so far no longer matter
      const again = e.deal > 1 && before && before.round === e.round;
      note(again ? `Fool over fool: ${verb(e.dealer, "deal", "deals")} again.`
        : `Round ${e.round}: ${verb(e.dealer, "deal", "deals")}.`);
      if (e.piece) note(`You drew ${a(e.piece)}.`, "mine");
    },
    stand(e) {
      moved();
      note(`${verb(e.player, "stand", "stands")}.`);
    },
    swap(e) {
      moved();
      sound("flip");
      arrow(e.player, e.target, mine(e.player) || mine(e.target));
      if (e.gave === undefined) note(`${name(e.player)} swapped with ${lower(e.target)}.`);
      else {
        const other = mine(e.player) ? e.target : e.player;
        note(`You and ${name(other)} swapped: you gave ${a(e.gave)} and got ${a(e.got)}.`, "mine");
      }
    },
    announce,
    // the only way a swap comes to nothing: a chain of inns round the whole table (S5)
    no_swap: (e) => note(`No swap for ${lower(e.player)}: the inns passed the swap all the way round.`),
    undo(e, view, before) {
      clearArrows();
      round.undone = before ? before.learned.length : 0;
      // the cat's announcement has just said "every swap is undone": a screen reader heard
      // it twice when this line said it again; here only what it means for you
      if (e.piece) note(`The swaps are undone: you have ${a(e.piece)} again.`, "big");
    },
    draw(e) {
      moved();
      sound("flip");
      arrow("bag", e.player, mine(e.player));
      if (e.got === undefined) note(`${name(e.player)} drew from the bag.`);
      else note(`You set aside ${a(e.gave)} and drew ${a(e.got)} from the bag.`, "mine");
    },
    // the dealer keeps their piece only when the bag has run out (S8)
    keep: (e) => note(`${verb(e.player, "keep", "keeps")} the piece: the bag is empty.`),
    reveal(e, view, before) {
      Object.assign(round, { showReveal: true, seen: true, outs: [], spared: false });
      note(`Round ${view.reveal ? view.reveal.round : before.round}: everyone shows their piece.`, "big");
    },
    pay(e) {
      round.marks[e.player] = "pay";
      if (mine(e.player)) sound("slap");
      const why = PAID_FOR[e.reason];
      note(`${verb(e.player, "pay", "pays")} a chip${why ? ` (${why})` : ""}.`, mine(e.player) ? "bad" : "");
    },
    out(e) {
      round.marks[e.player] = "out";
      round.outs.push(e.player);
      note(mine(e.player) ? "You are out." : `${name(e.player)} is out.`, mine(e.player) ? "bad" : "big");
    },
    spared() {
      round.spared = true;
      note("Nobody is out: everyone still in would have been, so all stay in with 0 chips.", "big");
    },
    win(e) {
      if (table.seat !== null) sound(mine(e.player) ? "win" : "lose");
      note(mine(e.player) ? `You won the game and the pot of ${e.pot}!` : `${name(e.player)} won the game and the pot of ${e.pot}.`,
        mine(e.player) ? "good" : "big");
    },
  };

  return (event, view, before) => { if (TELL[event.type]) TELL[event.type](event, view, before); };
}
