// What our seat may do now, as the server says in every view's `legal` (the actions open to
// the seat, ready to send): the pages never work out a rule for themselves.

// The action of `type` (with these fields) that the view's `legal` offers our seat, or null.
export function legal(view, type, fields = {}) {
  if (!view || !Array.isArray(view.legal)) return null;
  return view.legal.find((a) => a.type === type
    && Object.entries(fields).every(([k, v]) => a[k] === v)) || null;
}
