// Playing cards drawn as SVG by our own code: no images, no fonts needed for the suits, and
// no text from outside (a card is drawn only if it is one of the 54 codes).
// cardSVG("JS") gives the markup of the Jack of Spades; cardName("TH") gives "10 of Hearts";
// "X1" and "X2" are the red and the black joker.

const RED = "#c8102e";
const BLACK = "#1b1b1f";
const SUIT_NAME = { S: "Spades", H: "Hearts", D: "Diamonds", C: "Clubs" };
const RANK_NAME = { A: "Ace", T: "10", J: "Jack", Q: "Queen", K: "King" };
const RANK_TEXT = { T: "10" };

// Each suit drawn in a 100 x 100 box.
const SUIT_PATH = {
  H: '<path d="M50 90C22 68 4 52 4 31 4 15 16 5 30 5c9 0 16 5 20 13 4-8 11-13 20-13 14 0 26 10 26 26 0 21-18 37-46 59z"/>',
  D: '<path d="M50 3 88 50 50 97 12 50z"/>',
  S: '<path d="M50 4C64 24 95 40 95 62c0 14-10 23-22 23-9 0-15-4-19-10 1 10 5 17 13 22H33c8-5 12-12 13-22-4 6-10 10-19 10C15 85 5 76 5 62 5 40 36 24 50 4z"/>',
  C: '<circle cx="50" cy="27" r="21"/><circle cx="26" cy="58" r="21"/><circle cx="74" cy="58" r="21"/>' +
     '<circle cx="50" cy="52" r="12"/><path d="M46 55c0 20-4 33-14 42h36c-10-9-14-22-14-42z"/>',
};

// Pip positions (x, y) on a 100 x 140 card, for 2 to 10.
const L = 31, M = 50, R = 69;
const PIPS = {
  2: [[M, 30], [M, 110]],
  3: [[M, 30], [M, 70], [M, 110]],
  4: [[L, 30], [R, 30], [L, 110], [R, 110]],
  5: [[L, 30], [R, 30], [M, 70], [L, 110], [R, 110]],
  6: [[L, 30], [R, 30], [L, 70], [R, 70], [L, 110], [R, 110]],
  7: [[L, 30], [R, 30], [M, 50], [L, 70], [R, 70], [L, 110], [R, 110]],
  8: [[L, 30], [R, 30], [M, 50], [L, 70], [R, 70], [M, 90], [L, 110], [R, 110]],
  9: [[L, 30], [R, 30], [L, 57], [R, 57], [M, 70], [L, 83], [R, 83], [L, 110], [R, 110]],
  10: [[L, 30], [R, 30], [M, 44], [L, 57], [R, 57], [L, 83], [R, 83], [M, 96], [L, 110], [R, 110]],
};

function suit(s, cx, cy, size, upsideDown) {
  const k = size / 100;
  const turn = upsideDown ? ` rotate(180 50 50)` : "";
  return `<g transform="translate(${cx - size / 2} ${cy - size / 2}) scale(${k})${turn}">${SUIT_PATH[s]}</g>`;
}

function face(rank, s, colour) {
  // Court cards: a framed panel with the letter large, so J, Q and K can be told apart
  // at a glance (the game is about not mistaking a Queen or King for a Jack).
  const tint = { J: "#fff3c4", Q: "#f6e2f1", K: "#dfe9fb" }[rank];
  const band = { J: "#e0a800", Q: "#b04a8f", K: "#3b6fc4" }[rank];
  return `<rect x="19" y="21" width="62" height="98" rx="5" fill="${tint}" stroke="${band}" stroke-width="2.5"/>` +
    `<rect x="19" y="21" width="62" height="12" rx="5" fill="${band}" opacity="0.85"/>` +
    `<rect x="19" y="107" width="62" height="12" rx="5" fill="${band}" opacity="0.85"/>` +
    `<text x="50" y="80" text-anchor="middle" font-family="Georgia, 'DejaVu Serif', serif" font-size="50" font-weight="700" fill="${colour}">${rank}</text>` +
    suit(s, 50, 104, 11, false).replace("<g ", `<g fill="${colour}" `);
}

const RANKS = "A23456789TJQK";
const SUIT_TEXT = { S: "♠", H: "♥", D: "♦", C: "♣" };
const isJoker = (card) => card === "X1" || card === "X2";
export const isCard = (card) => typeof card === "string" && (isJoker(card)
  || (card.length === 2 && RANKS.includes(card[0]) && card[1] in SUIT_NAME));
export const isRed = (card) => card[1] === "H" || card[1] === "D" || card === "X1";

export function cardName(card) {
  if (isJoker(card)) return "Joker";
  return `${RANK_NAME[card[0]] || card[0]} of ${SUIT_NAME[card[1]]}`;
}

// "10♥", "J♣", "Joker": a card in a line of text.
export const cardText = (card) =>
  (isJoker(card) ? "Joker" : `${RANK_TEXT[card[0]] || card[0]}${SUIT_TEXT[card[1]]}`);

const FRAME = '<rect x="1" y="1" width="98" height="138" rx="8" fill="#fffdf8" stroke="#b9b4a8" stroke-width="1.5"/>';

function jokerSVG(card) {
  const colour = card === "X1" ? RED : BLACK;
  const letters = "JOKER".split("").map((c, i) =>
    `<text x="11" y="${24 + i * 13}" text-anchor="middle">${c}</text>`).join("");
  return `<svg class="card-svg" viewBox="0 0 100 140" role="img" aria-label="Joker" data-card="${card}">${FRAME}` +
    `<g fill="${colour}" font-family="Arial, 'DejaVu Sans', sans-serif" font-weight="700" font-size="12">${letters}` +
    `<g transform="rotate(180 50 70)">${letters}</g></g>` +
    `<rect x="24" y="26" width="52" height="88" rx="6" fill="#fdf0c8" stroke="${colour}" stroke-width="2"/>` +
    `<path fill="${colour}" d="M50 40l6 15h16l-13 10 5 16-14-10-14 10 5-16-13-10h16z"/>` +
    `<text x="50" y="104" text-anchor="middle" fill="${colour}" font-family="Georgia, 'DejaVu Serif', serif" font-size="15" font-weight="700">0</text></svg>`;
}

export function cardSVG(card) {
  if (!isCard(card)) return "";
  if (isJoker(card)) return jokerSVG(card);
  const rank = card[0], s = card[1];
  const colour = isRed(card) ? RED : BLACK;
  const text = RANK_TEXT[rank] || rank;
  const corner = `<text x="10" y="22" text-anchor="middle" font-family="Arial, 'DejaVu Sans', sans-serif" font-size="${text.length > 1 ? 15 : 18}" font-weight="700" letter-spacing="-1">${text}</text>` +
    suit(s, 10, 33, 11, false);
  let middle;
  if (rank === "A") {
    middle = suit(s, 50, 70, 44, false);
  } else if (rank === "J" || rank === "Q" || rank === "K") {
    middle = face(rank, s, colour);
  } else {
    const n = rank === "T" ? 10 : Number(rank);
    middle = PIPS[n].map(([x, y]) => suit(s, x, y, 19, y > 70)).join("");
  }
  return `<svg class="card-svg" viewBox="0 0 100 140" role="img" aria-label="${cardName(card)}" data-card="${card}">${FRAME}` +
    `<g fill="${colour}">${corner}<g transform="rotate(180 50 70)">${corner}</g>${middle}</g></svg>`;
}
