// The selection's handles (§13 "Handles"), pure: no DOM, so they are tested without a page.
// Where the four corner handles and the rotate knob of an element are (page pixels, following the
// element's drawn transform, so a turned sticker has a turned frame), which of them a pointer is
// on, and the §3 event a handle drag stands for:
//
// - a corner drag is `pinch S --around` the opposite corner (the centre with Alt), S the drag's
//   projection on the line from that point to where the pointer went down, so the element keeps
//   its proportions;
// - a knob drag is `rotate A` about the centre, A the change of the pointer's angle about it;
//   with Shift the element's resulting angle is a multiple of 15°.
//
// Each drag ends as one event, one history step: what `techo gesture` does with the same values.

/** A handle's touch target is a square this many screen (CSS) pixels wide (Apple's HIG). */
export const HANDLE_TARGET_CSS = 44;
/** The rotate knob stands this many screen pixels above the frame's top edge. */
export const KNOB_OFFSET_CSS = 32;
/** The smallest scale one corner drag applies (a drag through the anchor does not flip it). */
export const MIN_DRAG_SCALE = 0.02;
export const SNAP_DEGREES = 15;

const CORNERS = { nw: [-1, -1], ne: [1, -1], se: [1, 1], sw: [-1, 1] };
export const HANDLE_NAMES = ['nw', 'ne', 'se', 'sw', 'rotate'];
/** A text's side handles: they drag its wrap width (`maxWidth`), not its scale. */
export const SIDE_NAMES = ['e', 'w'];

function at(m, u, v) { return [m[0] * u + m[2] * v + m[4], m[1] * u + m[3] * v + m[5]]; }

/**
 * The page points of an element's handles: `{nw, ne, se, sw, rotate}` for an element of `size`
 * [w, h] under transform `m`, with `k` screen pixels per page pixel (the knob's offset is in
 * screen pixels). The corners are the element's own box corners as drawn (its "nw" is its own
 * top-left, wherever a turn or flip puts it).
 */
export function handlePoints(size, m, k) {
  const [w, h] = size;
  const out = {};
  for (const [name, [su, sv]] of Object.entries(CORNERS)) out[name] = at(m, su * w / 2, sv * h / 2);
  out.e = at(m, w / 2, 0);
  out.w = at(m, -w / 2, 0);
  // The knob: from the top edge's middle, outwards along the element's own "up" as drawn.
  const top = at(m, 0, -h / 2);
  const ux = -m[2], uy = -m[3], len = Math.hypot(ux, uy) || 1;
  const off = KNOB_OFFSET_CSS / (k || 1);
  out.rotate = [top[0] + ux / len * off, top[1] + uy / len * off];
  return out;
}

/** Inside the element's own box a handle takes a press only this near (screen px) its dot. */
export const HANDLE_DOT_CSS = 10;

/**
 * The handle whose touch target holds page point (x, y), or null; where targets overlap (a
 * small sticker) the nearest wins, so every handle stays reachable from its outer side. With
 * `inside` (the point is on the element itself) only a press near a handle's dot counts, so a
 * small sticker can still be dragged by its body. `names`: the handles there are (a text's
 * side handles too).
 */
export function handleAt(points, x, y, k, inside = false, names = HANDLE_NAMES) {
  const r = (inside ? HANDLE_DOT_CSS : HANDLE_TARGET_CSS / 2) / (k || 1);
  let best = null, bestD = Infinity;
  for (const name of names) {
    const p = points[name];
    if (!p) continue;
    const dx = Math.abs(x - p[0]), dy = Math.abs(y - p[1]);
    if (dx > r || dy > r) continue;
    const d = Math.hypot(dx, dy);
    if (d < bestD) { best = name; bestD = d; }
  }
  return best;
}

/**
 * The pinch a corner drag stands for: the pointer went down at p0 on corner `name` of an element
 * of `size` under `m` and is now at p. `{ fromCentre }` (Alt) scales about the centre instead of
 * the opposite corner. Returns a §3 event `{gesture: 'pinch', scale, location}`.
 */
export function cornerPinch(name, size, m, p0, p, { fromCentre = false } = {}) {
  const [su, sv] = CORNERS[name];
  const anchor = fromCentre ? [m[4], m[5]] : at(m, -su * size[0] / 2, -sv * size[1] / 2);
  const ax = p0[0] - anchor[0], ay = p0[1] - anchor[1];
  const len2 = ax * ax + ay * ay;
  let scale = len2 > 0 ? ((p[0] - anchor[0]) * ax + (p[1] - anchor[1]) * ay) / len2 : 1;
  if (!Number.isFinite(scale)) scale = 1;
  scale = Math.max(MIN_DRAG_SCALE, scale);
  return { gesture: 'pinch', state: 'changed', scale, location: anchor };
}

/** The element's drawn angle, degrees clockwise: where its own "up" points on the page. */
export function drawnAngle(m) {
  return (Math.atan2(-m[2], m[3]) * 180) / Math.PI;
}

/**
 * The turn a knob drag stands for: the pointer went down at p0 and is now at p, about the centre
 * of `m`. With `{ snap }` (Shift) the element's resulting angle is a multiple of 15°. Returns a
 * §3 event `{gesture: 'rotation', rotation (radians), location}`.
 */
export function knobRotation(m, p0, p, { snap = false } = {}) {
  const cx = m[4], cy = m[5];
  let a = Math.atan2(p[1] - cy, p[0] - cx) - Math.atan2(p0[1] - cy, p0[0] - cx);
  let deg = (a * 180) / Math.PI;
  if (snap) {
    const from = drawnAngle(m);
    deg = Math.round((from + deg) / SNAP_DEGREES) * SNAP_DEGREES - from;
  }
  deg = ((deg % 360) + 540) % 360 - 180;
  return { gesture: 'rotation', state: 'changed', rotation: (deg * Math.PI) / 180, location: [cx, cy] };
}

/** A wrap width is at least this many of the text's own pixels. */
export const MIN_WRAP = 8;

/**
 * The wrap width a side handle dragged to page point p stands for, on a text of `size` under
 * `m`: the distance, in the text's own pixels, from the opposite side to the pointer (`e` keeps
 * the left side, `w` the right), at least `min`. Also the frame to show for it: `{width,
 * transform}`, the box that wide with the kept side where it was.
 */
export function sideDrag(name, size, m, p, min = MIN_WRAP) {
  const det = m[0] * m[3] - m[1] * m[2];
  const dx = p[0] - m[4], dy = p[1] - m[5];
  // The pointer's own x (inverse of m's linear part).
  const u = det ? (m[3] * dx - m[2] * dy) / det : 0;
  const w = size[0];
  const raw = name === 'e' ? u + w / 2 : w / 2 - u;
  const width = Math.max(min, Number.isFinite(raw) ? raw : w);
  const shift = name === 'e' ? (width - w) / 2 : (w - width) / 2;
  const c = at(m, shift, 0);
  return { width, transform: [m[0], m[1], m[2], m[3], c[0], c[1]] };
}
