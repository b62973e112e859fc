// Whether this screen is touched rather than worked with a mouse and keys: its hints name
// what to tap, never a key (the CSS hides the keys on the buttons likewise).

const coarse = typeof matchMedia === "function" ? matchMedia("(hover: none) and (pointer: coarse)") : null;

export const touch = () => Boolean(coarse && coarse.matches);

// keys("Tap the pile or SLAP", "Tap the pile, SLAP or Space"): the first on a touch screen.
export const keys = (touchText, keysText) => (touch() ? touchText : keysText);
