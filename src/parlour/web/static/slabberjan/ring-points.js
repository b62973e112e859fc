// Where n seats go round a table: evenly spaced along a rounded rectangle (a superellipse
// of power p, half-axes ax and by), for tiles tw wide and th high, starting at the bottom
// middle and going clockwise. Pure geometry, no page.

// Returns {points, room}: the centres, relative to the middle of the table, and how far
// apart the closest two are in tiles (tile-distance: the larger of |dx| / tw and |dy| / th,
// so that two seats 1 or more apart never overlap, on the sides and round the corners alike).
export function ringPoints(n, ax, by, tw, th, p) {
  const e = 2 / p;
  const samples = 3000;
  const pts = [];
  for (let i = 0; i <= samples; i++) {
    const t = Math.PI / 2 + (i / samples) * 2 * Math.PI;
    const c = Math.cos(t), s = Math.sin(t);
    pts.push([ax * Math.sign(c) * Math.abs(c) ** e, by * Math.sign(s) * Math.abs(s) ** e]);
  }
  const far = (a, b) => Math.max(Math.abs(a[0] - b[0]) / tw, Math.abs(a[1] - b[1]) / th);
  return n <= 8 ? evenly(n, pts, far) : greedily(n, pts, far);
}

// Few seats: evenly spaced by length along the curve, which keeps them symmetric.
function evenly(n, pts, far) {
  const last = pts.length - 1;
  const lengths = [0];
  for (let i = 1; i <= last; i++) {
    lengths.push(lengths[i - 1] + Math.hypot(pts[i][0] - pts[i - 1][0], pts[i][1] - pts[i - 1][1]));
  }
  const out = [];
  let j = 0;
  for (let k = 0; k < n; k++) {
    const want = (k / n) * lengths[last];
    while (j < last - 1 && lengths[j + 1] < want) j++;
    const f = Math.min(1, (want - lengths[j]) / (lengths[j + 1] - lengths[j] || 1));
    out.push([pts[j][0] + f * (pts[j + 1][0] - pts[j][0]), pts[j][1] + f * (pts[j + 1][1] - pts[j][1])]);
  }
  let room = n > 1 ? Infinity : 2;
  for (let i = 0; i < n; i++) {
    for (let k = i + 1; k < n; k++) room = Math.min(room, far(out[i], out[k]));
  }
  return { points: out, room };
}

// Many seats: placed one after another along the curve, each exactly `d` from the one
// before, with the largest `d` that fits all n.
function greedily(n, pts, far) {
  const walk = (d) => {
    const out = [pts[0]];
    let last = pts[0];
    for (let i = 1; i < pts.length && out.length < n; i++) {
      while (out.length < n && far(pts[i], last) >= d) {
        // the point on this segment exactly d from the last seat
        const a = pts[i - 1], b = pts[i];
        const at = (f) => [a[0] + f * (b[0] - a[0]), a[1] + f * (b[1] - a[1])];
        let lo = 0, hi = 1;
        if (far(a, last) < d) {
          for (let k = 0; k < 20; k++) {
            const mid = (lo + hi) / 2;
            if (far(at(mid), last) >= d) hi = mid; else lo = mid;
          }
          lo = hi;
        }
        last = at(lo);
        out.push(last);
      }
    }
    return out;
  };
  let lo = 0.2, hi = 4;
  for (let k = 0; k < 24; k++) {
    const mid = (lo + hi) / 2;
    const out = walk(mid);
    if (out.length === n && far(out[n - 1], pts[0]) >= mid) lo = mid; else hi = mid;
  }
  return { points: walk(lo), room: n > 1 ? lo : 2 };
}
