// What the page calls each seat. Our own seat is "You"; a person's seat that the computer
// plays while they are away says so; a spectator of someone's game against the computer
// does not see that person as "You".

// `table` is the page's live state: its `seat` (ours, null when watching) and `seats`.
export function seatNames(table) {
  function name(seat) {
    if (seat === table.seat && seat !== null) return "You";
    const given = (table.seats[seat] || {}).name;
    return given && !(table.seat === null && given === "You") ? given : `Player ${seat + 1}`;
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
