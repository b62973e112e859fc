// Slabberjan pieces drawn as SVG by our own code: no images, no web fonts, and no text from
// outside (a piece is drawn only if it is one of the 21 kinds).
// pieceSVG("cat") gives the markup of a cat piece, backSVG() a hidden piece, a("11") the
// words "an 11".
import { pageSpec } from "./specs.js";

// The 21 kinds, high to low, as the engine names them (shared/spec/records.md).
export const KINDS = ["knight", "bird", "cat", "inn", "12", "11", "10", "9", "8", "7", "6", "5",
  "4", "3", "2", "1", "0", "white bread", "chamber pot", "scary face", "fool"];

// Which kinds are matadors is the rules' (S4), not this file's: the game's spec names them
// (its `matadors`, from the server). A game page has its spec on the page; a page without
// it (the replay) tells them with knowMatadors(spec) before it draws a piece.
let matadors = null;

export function knowMatadors(spec) {
  if (!spec || !Array.isArray(spec.matadors)) throw new Error("the spec names no matadors");
  matadors = new Set(spec.matadors);
}

function isMatador(kind) {
  if (!matadors) knowMatadors(pageSpec());
  return matadors.has(kind);
}

const RANK = Object.fromEntries(KINDS.map((k, i) => [k, KINDS.length - 1 - i]));

const INK = "#2a211b";

// Each picture is drawn in a 100 x 100 box.
const PICTURE = {
  knight:
    '<path d="M28 92h46v-9l-6-3c1-15 6-26 6-40 0-17-11-28-27-30l-3-7-6 9C29 16 22 25 18 36l-6 15c-2 6 3 10 9 8l10-5c3-1 6 0 9-2l5-4c-3 10-10 18-15 32l-6 3z" fill="#5b4b8a" stroke="' + INK + '" stroke-width="2.5" stroke-linejoin="round"/>' +
    '<circle cx="43" cy="29" r="3.6" fill="#fff"/><circle cx="44" cy="29" r="1.8" fill="' + INK + '"/>' +
    '<path d="M58 16c8 6 12 16 11 30M62 24l7-3M65 33l7-2M66 42l7-1" fill="none" stroke="#c9b8f0" stroke-width="3" stroke-linecap="round"/>' +
    '<rect x="24" y="86" width="54" height="8" rx="3" fill="#8a78bd" stroke="' + INK + '" stroke-width="2.5"/>',
  bird:
    '<path d="M27 56 7 43l4 22z" fill="#2b5e9e" stroke="' + INK + '" stroke-width="2.5" stroke-linejoin="round"/>' +
    '<ellipse cx="48" cy="58" rx="27" ry="19" fill="#3f7fd0" stroke="' + INK + '" stroke-width="2.5"/>' +
    '<path d="M50 76c-14 0-22-6-24-13 12 4 26 4 38-2-2 9-6 15-14 15z" fill="#f29a4a"/>' +
    '<circle cx="70" cy="40" r="14" fill="#3f7fd0" stroke="' + INK + '" stroke-width="2.5"/>' +
    '<path d="M82 36l14 5-14 5z" fill="#f4c430" stroke="' + INK + '" stroke-width="2" stroke-linejoin="round"/>' +
    '<path d="M32 52c10-10 27-8 30 6-11 5-22 4-30-6z" fill="#2b5e9e" stroke="' + INK + '" stroke-width="2"/>' +
    '<circle cx="73" cy="37" r="3" fill="' + INK + '"/>' +
    '<path d="M42 76l-4 14M56 76l2 14M34 90h9M54 90h9" stroke="' + INK + '" stroke-width="3" stroke-linecap="round"/>',
  cat:
    '<path d="M20 44 26 10 46 30zM80 44 74 10 54 30z" fill="#e08a3c" stroke="' + INK + '" stroke-width="2.5" stroke-linejoin="round"/>' +
    '<path d="M27 36 29 20 38 30zM73 36 71 20 62 30z" fill="#f7c6c6"/>' +
    '<ellipse cx="50" cy="55" rx="34" ry="30" fill="#e08a3c" stroke="' + INK + '" stroke-width="2.5"/>' +
    '<path d="M50 26v9M42 28l2 8M58 28l-2 8" stroke="#a85a1e" stroke-width="3" stroke-linecap="round"/>' +
    '<ellipse cx="37" cy="50" rx="7" ry="8.5" fill="#b9e05a" stroke="' + INK + '" stroke-width="2"/>' +
    '<ellipse cx="63" cy="50" rx="7" ry="8.5" fill="#b9e05a" stroke="' + INK + '" stroke-width="2"/>' +
    '<ellipse cx="37" cy="50" rx="2" ry="6.5" fill="' + INK + '"/><ellipse cx="63" cy="50" rx="2" ry="6.5" fill="' + INK + '"/>' +
    '<path d="M45 62h10l-5 6z" fill="#e86a8a" stroke="' + INK + '" stroke-width="1.5" stroke-linejoin="round"/>' +
    '<path d="M50 68c-2 6-9 7-12 3M50 68c2 6 9 7 12 3" fill="none" stroke="' + INK + '" stroke-width="2" stroke-linecap="round"/>' +
    '<path d="M30 64 8 60M30 69 9 72M70 64l22-4M70 69l21 3" stroke="' + INK + '" stroke-width="1.6" stroke-linecap="round"/>',
  inn:
    '<rect x="20" y="44" width="60" height="46" fill="#f3e3c3" stroke="' + INK + '" stroke-width="2.5"/>' +
    '<path d="M10 48 50 12l40 36z" fill="#b5462f" stroke="' + INK + '" stroke-width="2.5" stroke-linejoin="round"/>' +
    '<rect x="66" y="18" width="8" height="16" fill="#8a6a55" stroke="' + INK + '" stroke-width="2"/>' +
    '<path d="M42 90V72a8 8 0 0 1 16 0v18z" fill="#7a4a2a" stroke="' + INK + '" stroke-width="2.5"/>' +
    '<rect x="25" y="66" width="12" height="12" fill="#ffe58a" stroke="' + INK + '" stroke-width="2"/>' +
    '<rect x="63" y="66" width="12" height="12" fill="#ffe58a" stroke="' + INK + '" stroke-width="2"/>' +
    '<rect x="31" y="48" width="38" height="14" rx="2" fill="#1f6b4f" stroke="' + INK + '" stroke-width="2"/>' +
    '<text x="50" y="59" text-anchor="middle" font-family="Georgia, \'DejaVu Serif\', serif" font-size="11" font-weight="700" fill="#fff">INN</text>',
  "white bread":
    '<path d="M22 42c-6-18 10-28 28-24 18-4 34 6 28 24-2 4-4 6-4 10v33c0 3-2 5-5 5H31c-3 0-5-2-5-5V52c0-4-2-6-4-10z" fill="#fffaf0" stroke="#c58b3d" stroke-width="6" stroke-linejoin="round"/>' +
    '<path d="M22 42c-6-18 10-28 28-24 18-4 34 6 28 24-2 4-4 6-4 10v33c0 3-2 5-5 5H31c-3 0-5-2-5-5V52c0-4-2-6-4-10z" fill="none" stroke="' + INK + '" stroke-width="2" stroke-linejoin="round"/>' +
    '<g fill="#eadbbd"><circle cx="40" cy="44" r="2.5"/><circle cx="58" cy="38" r="2"/><circle cx="52" cy="56" r="2.5"/><circle cx="38" cy="68" r="2"/><circle cx="62" cy="72" r="2.5"/><circle cx="48" cy="80" r="1.8"/></g>',
  "chamber pot":
    '<path d="M76 50c18-2 18 24-2 22" fill="none" stroke="' + INK + '" stroke-width="8" stroke-linecap="round"/>' +
    '<path d="M76 50c18-2 18 24-2 22" fill="none" stroke="#f6f6f2" stroke-width="4" stroke-linecap="round"/>' +
    '<path d="M20 42h60c0 28-9 46-30 46S20 70 20 42z" fill="#f6f6f2" stroke="' + INK + '" stroke-width="2.5"/>' +
    '<path d="M22 54h56" stroke="#3f7fd0" stroke-width="5"/>' +
    '<path d="M40 66c3-4 7-4 10 0s7 4 10 0" fill="none" stroke="#3f7fd0" stroke-width="2.5" stroke-linecap="round"/>' +
    '<ellipse cx="50" cy="42" rx="34" ry="7" fill="#e7e7e0" stroke="' + INK + '" stroke-width="2.5"/>' +
    '<ellipse cx="50" cy="42" rx="26" ry="4" fill="#c9c9bf"/>' +
    '<path d="M34 92h32" stroke="' + INK + '" stroke-width="3" stroke-linecap="round"/>',
  "scary face":
    '<path d="M24 28 16 6l22 14zM76 28l8-22-22 14z" fill="#e23b3b" stroke="' + INK + '" stroke-width="2.5" stroke-linejoin="round"/>' +
    '<circle cx="50" cy="54" r="38" fill="#6b3fa0" stroke="' + INK + '" stroke-width="2.5"/>' +
    '<path d="M24 36l20 8M76 36l-20 8" stroke="' + INK + '" stroke-width="5" stroke-linecap="round"/>' +
    '<circle cx="37" cy="50" r="8" fill="#fff59a" stroke="' + INK + '" stroke-width="2"/><circle cx="63" cy="50" r="8" fill="#fff59a" stroke="' + INK + '" stroke-width="2"/>' +
    '<circle cx="38" cy="51" r="3.5" fill="#d01010"/><circle cx="62" cy="51" r="3.5" fill="#d01010"/>' +
    '<path d="M24 66c8 18 44 18 52 0z" fill="#1b1020" stroke="' + INK + '" stroke-width="2"/>' +
    '<path d="M27 67l5 8 5-8 5 9 5-9 6 9 5-9 5 9 5-9 5 8 4-8z" fill="#fff"/>',
  fool:
    '<path d="M16 50C14 34 10 26 4 20c16-1 26 6 30 16 3-14 9-24 16-30 7 6 13 16 16 30 4-10 14-17 30-16-6 6-10 14-12 30z" fill="#d7263d" stroke="' + INK + '" stroke-width="2.5" stroke-linejoin="round"/>' +
    '<path d="M34 36c3-14 9-24 16-30 7 6 13 16 16 30l-4 14H38z" fill="#f4c430" stroke="' + INK + '" stroke-width="2.5" stroke-linejoin="round"/>' +
    '<circle cx="4" cy="20" r="5" fill="#f4c430" stroke="' + INK + '" stroke-width="2"/><circle cx="50" cy="6" r="5" fill="#d7263d" stroke="' + INK + '" stroke-width="2"/><circle cx="96" cy="20" r="5" fill="#f4c430" stroke="' + INK + '" stroke-width="2"/>' +
    '<rect x="16" y="46" width="68" height="9" rx="4" fill="#2b5e9e" stroke="' + INK + '" stroke-width="2"/>' +
    '<circle cx="50" cy="70" r="20" fill="#f6d3b3" stroke="' + INK + '" stroke-width="2.5"/>' +
    '<circle cx="43" cy="66" r="2.5" fill="' + INK + '"/><circle cx="57" cy="66" r="2.5" fill="' + INK + '"/>' +
    '<circle cx="38" cy="74" r="4" fill="#f19a9a"/><circle cx="62" cy="74" r="4" fill="#f19a9a"/>' +
    '<path d="M41 76c4 6 14 6 18 0" fill="none" stroke="' + INK + '" stroke-width="2.5" stroke-linecap="round"/>' +
    '<path d="M30 90l7-6 6 6 7-6 7 6 6-6 7 6" fill="none" stroke="#d7263d" stroke-width="3" stroke-linejoin="round"/>',
};

function numberPicture(kind) {
  const size = kind.length > 1 ? 42 : 56;
  return '<circle cx="50" cy="52" r="40" fill="#f3e3c3" stroke="#8a6a55" stroke-width="4"/>' +
    '<circle cx="50" cy="52" r="33" fill="none" stroke="#8a6a55" stroke-width="1.5" stroke-dasharray="3 4"/>' +
    `<text x="50" y="${52 + size * 0.35}" text-anchor="middle" font-family="Georgia, 'DejaVu Serif', serif" font-size="${size}" font-weight="700" fill="${INK}">${kind}</text>`;
}

function label(kind) { return /^\d+$/.test(kind) ? `number ${kind}` : kind; }

// "a knight", "an inn", "an 8", "an 11", "white bread"
export function a(kind) {
  if (kind === "white bread") return "white bread";
  if (kind === "8" || kind === "11" || kind === "inn") return `an ${kind}`;
  return `a ${kind}`;
}

export function pieceSVG(kind, options) {
  if (!KINDS.includes(kind)) return backSVG(options);
  const withLabel = !options || options.label !== false;
  const matador = isMatador(kind);
  const picture = PICTURE[kind] || numberPicture(kind);
  const height = withLabel ? 128 : 108;
  const frame = matador ? "#c99a06" : "#b9ad96";
  const fill = matador ? "#fff6d6" : "#fffdf8";
  const text = withLabel
    ? `<text x="52" y="121" text-anchor="middle" font-family="system-ui, 'DejaVu Sans', sans-serif" font-size="${kind.length > 8 ? 13 : 15}" font-weight="700" fill="${INK}">${kind}</text>`
    : "";
  return `<svg class="piece-svg${matador ? " matador" : ""}" viewBox="0 0 104 ${height}" role="img" aria-label="${label(kind)}" data-piece="${kind}">` +
    `<rect x="2" y="2" width="100" height="${height - 4}" rx="14" fill="${fill}" stroke="${frame}" stroke-width="${matador ? 4 : 2.5}"/>` +
    `<g transform="translate(7 5) scale(0.9)">${picture}</g>${text}</svg>`;
}

export function backSVG(options) {
  const height = options && options.label === false ? 108 : 128;
  return `<svg class="piece-svg back" viewBox="0 0 104 ${height}" role="img" aria-label="a hidden piece">` +
    `<rect x="2" y="2" width="100" height="${height - 4}" rx="14" fill="#6e3b22" stroke="#3d1f10" stroke-width="2.5"/>` +
    `<rect x="10" y="10" width="84" height="${height - 20}" rx="9" fill="none" stroke="#c9955e" stroke-width="2" stroke-dasharray="5 4"/>` +
    `<path d="M52 ${height / 2 - 22} 72 ${height / 2} 52 ${height / 2 + 22} 32 ${height / 2}z" fill="#c9955e"/>` +
    `<circle cx="52" cy="${height / 2}" r="7" fill="#6e3b22"/></svg>`;
}

export const rank = (kind) => RANK[kind];
