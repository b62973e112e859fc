// A field where a person types their name. The server takes at most NAME_MAX characters
// (code points, live/names.py); a longer name is cut here, at the end of a whole grapheme
// (an emoji family or a letter with its accents is never split, as the browser's maxlength,
// which counts UTF-16 units, would), and the note under the field says it was cut.
const NAME_MAX = 24;

const graphemes = (text) => (typeof Intl !== "undefined" && Intl.Segmenter
  ? [...new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(text)].map((s) => s.segment)
  : [...text]);

// `text` cut to at most `max` code points, whole graphemes only.
export function cutName(text, max = NAME_MAX) {
  let kept = "";
  for (const g of graphemes(text)) {
    if ([...kept].length + [...g].length > max) break;
    kept += g;
  }
  return kept;
}

// Keeps `input` within the limit; `note` (a live element under it) says when it cut.
export function nameField(input, note) {
  input.addEventListener("input", () => {
    const cut = cutName(input.value);
    if (cut !== input.value) {
      input.value = cut;
      note.textContent = `Cut to ${NAME_MAX} characters: a name may be at most ${NAME_MAX}.`;
    } else if ([...input.value].length < NAME_MAX) {
      note.textContent = "";
    }
  });
}

// What is wrong with `text` as a name before it is sent (the server checks again), or null.
// A name of invisible characters only (zero-width spaces, Hangul fillers) gets its reason.
export function nameProblem(text) {
  if (!text.trim()) return "Type your name: the others at the table will see it.";
  const seen = text.replace(/[\p{C}\p{Z}\p{M}\u115f\u1160\u3164\uffa0\u2800]/gu, "");
  if (!seen) return "That name is only invisible characters: type one people can see.";
  return null;
}
