// What the page calls each seat. Our own seat is "You"; a person's seat that the computer
// plays while they are away says so; a spectator of someone's game against the computer
// does not see that person as "You".

// `table` is the page's live state: its `seat` (ours, null when watching) and `seats`.
export function seatNames(table) {
  // The server refuses a name that passes for the site's words or for another seat's
  // (live/names.py); a table kept from before that check may still have one, so a name
  // that reads as "You" or as an earlier seat's name is marked with its seat here.
  const key = (text) => text.normalize("NFKC").toLowerCase().replace(/[^\p{L}\p{N}]/gu, "") || text;
  function name(seat) {
    if (seat === table.seat && seat !== null) return "You";
    const given = (table.seats[seat] || {}).name;
    if (!given || (table.seat === null && given === "You")) return `Player ${seat + 1}`;
    const k = key(given);
    const clash = (k === "you" && table.seat !== null)
      || table.seats.some((s, i) => i < seat && s && typeof s.name === "string" && key(s.name) === k);
    return clash ? `${given} (seat ${seat + 1})` : given;
  }
  const mine = (seat) => seat === table.seat && seat !== null;
  return {
    name,
    mine,
    // in the middle of a sentence
    lower: (seat) => (mine(seat) ? "you" : name(seat)),
    label: (seat) => name(seat) + ((table.seats[seat] || {}).away ? " (computer)" : ""),
    // verb(seat, "pay", "pays"): "You pay", "Ann pays"
    verb: (seat, ours, theirs) => `${name(seat)} ${mine(seat) ? ours : theirs}`,
  };
}
