// 2-D affine matrices as techo stores them: [a, b, c, d, tx, ty], mapping (x, y) to
// (a x + c y + tx, b x + d y + ty) — CGAffineTransform's layout, y down, positive angles clockwise.

export const identity = Object.freeze([1, 0, 0, 1, 0, 0]);

/** `m` after `n`: apply `n` first, then `m`. */
export function multiply(m, n) {
  return [
    m[0] * n[0] + m[2] * n[1], m[1] * n[0] + m[3] * n[1],
    m[0] * n[2] + m[2] * n[3], m[1] * n[2] + m[3] * n[3],
    m[0] * n[4] + m[2] * n[5] + m[4], m[1] * n[4] + m[3] * n[5] + m[5],
  ];
}

export function translation(dx, dy) { return [1, 0, 0, 1, dx, dy]; }

export function apply(m, x, y) { return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]]; }

export function invert(m) {
  const det = m[0] * m[3] - m[1] * m[2];
  if (!Number.isFinite(det) || Math.abs(det) < 1e-12) return null;
  const a = m[3] / det, b = -m[1] / det, c = -m[2] / det, d = m[0] / det;
  return [a, b, c, d, -(a * m[4] + c * m[5]), -(b * m[4] + d * m[5])];
}

/** `t` applied about the page point (px, py). */
export function about(px, py, t) {
  return multiply(translation(px, py), multiply(t, translation(-px, -py)));
}

export function scaling(s) { return [s, 0, 0, s, 0, 0]; }

export function rotation(radians) {
  const c = Math.cos(radians), s = Math.sin(radians);
  return [c, s, -s, c, 0, 0];
}

/**
 * The page-space matrix of one §3 recognizer event for an element whose live transform is `m`
 * (its centre is m's translation), exactly as techo's Gesture.pageMatrix applies it. Flip acts in
 * the element's own frame, so it is returned as `{ own }`.
 */
export function eventMatrix(event, m) {
  const cx = m[4], cy = m[5];
  const at = event.location || [cx, cy];
  switch (event.gesture) {
    case 'pan': return translation(event.translation[0], event.translation[1]);
    case 'pinch': return about(at[0], at[1], scaling(event.scale));
    case 'rotation': return about(at[0], at[1], rotation(event.rotation));
    case 'doubleTap': return about(cx, cy, [0, 1, -1, 0, 0, 0]);
    default: return identity;
  }
}

/** The live transform after one recognizer event. */
export function applyEvent(m, event) {
  if (event.gesture === 'flip') return multiply(m, event.axis === 'v' ? [1, 0, 0, -1, 0, 0] : [-1, 0, 0, 1, 0, 0]);
  return multiply(eventMatrix(event, m), m);
}
