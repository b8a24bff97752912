// Several elements at once, pure (no DOM, tested without a page): which elements a marquee or a
// lasso picks, and the box of a group.
//
// - A marquee picks what it touches (tldraw's and Figma's default): an element whose own box as
//   drawn (turned with it) overlaps the marquee's rectangle at all, tested exactly by separating
//   axes, so the corner of a turned sticker's bounding box does not count.
// - A lasso picks an element whose centre lies inside the loop (the loop closed from its last
//   point back to its first; even-odd): a rough loop round a small sticker takes it, and a loop
//   across a large photo takes it only if it goes round its middle (GoodNotes' lasso feels so).
// - Ink layers, hidden and locked elements are never picked (a locked one is not moved by any
//   gesture); the strokes of an ink layer are picked one by one instead.
// - Strokes (as `GET …/strokes` lists them, `bounds` their drawn box, pen width included): the
//   lasso takes a stroke whose box centre lies inside the loop, as an element by its centre;
//   the marquee takes one whose outline it touches. Its box inside the marquee is enough for
//   that; a box that only overlaps it leaves the question to the stroke's outline, which the
//   server has (`POST …/strokes/hit` along the marquee's border: an outline that touches the
//   rectangle without lying inside it crosses its border). Strokes of a locked or hidden layer,
//   erasers (they draw nothing of their own) and `path` strokes (no gesture moves their SVG
//   data) are never taken.
//
// A group's box is the axis-aligned union of its elements' boxes; it scales about its corners,
// turns about its centre, and the server's group gesture uses the same centre.

import { boxOf } from './snap.js';

/** Whether the marquee and lasso may pick `el` (as the page's answer lists it). */
export function pickable(el) {
  return !!el && el.type !== 'ink' && !el.hidden && !el.locked;
}

/** Whether the marquee and lasso may take stroke `s` (`{id, layer, tool, bounds}`), given the page's `elements`. */
export function pickableStroke(s, elements) {
  if (!s || !s.bounds || s.tool === 'eraser' || s.tool === 'path') return false;
  const layer = elements.find((e) => e.id === s.layer);
  return !!layer && !layer.hidden && !layer.locked;
}

/** A stroke as an element-like box for groupBox: its drawn bounds, unturned. */
export function strokeBox(s) {
  const [x, y, w, h] = s.bounds;
  return { id: s.id, type: 'stroke', layer: s.layer, size: [w, h], transform: [1, 0, 0, 1, x + w / 2, y + h / 2] };
}

/**
 * The strokes a marquee `[x0, y0, x1, y1]` (any two corners) settles without the server:
 * `inside` (their box within it: taken) and `edge` (their box overlaps it: taken if the outline
 * crosses the border, `marqueeBorder`). Pure.
 */
export function marqueeStrokes(strokes, elements, a, b) {
  const [x0, y0, x1, y1] = [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[0], b[0]), Math.max(a[1], b[1])];
  const inside = [], edge = [];
  for (const s of strokes) {
    if (!pickableStroke(s, elements)) continue;
    const [x, y, w, h] = s.bounds;
    if (x >= x0 && y >= y0 && x + w <= x1 && y + h <= y1) inside.push(s.id);
    else if (x <= x1 && x + w >= x0 && y <= y1 && y + h >= y0) edge.push(s.id);
  }
  return { inside, edge };
}

/** The marquee's border as a closed polyline (page pixels), for the stroke hit query. */
export function marqueeBorder(a, b) {
  return [[a[0], a[1]], [b[0], a[1]], [b[0], b[1]], [a[0], b[1]], [a[0], a[1]]];
}

/** The ids of `strokes` a lasso loop takes (box centre inside), in stacking order. */
export function lassoStrokes(strokes, elements, loop) {
  if (loop.length < 3) return [];
  return strokes.filter((s) => pickableStroke(s, elements) && insideLoop(loop, [s.bounds[0] + s.bounds[2] / 2, s.bounds[1] + s.bounds[3] / 2])).map((s) => s.id);
}

/** The element's own box corners as drawn (page pixels), in order round the box. */
export function corners(el) {
  const [w, h] = el.size, m = el.transform;
  return [[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]]
    .map(([u, v]) => [m[0] * u + m[2] * v + m[4], m[1] * u + m[3] * v + m[5]]);
}

function project(points, ax, ay) {
  let lo = Infinity, hi = -Infinity;
  for (const [x, y] of points) { const d = x * ax + y * ay; lo = Math.min(lo, d); hi = Math.max(hi, d); }
  return [lo, hi];
}

/** Whether `el`'s box as drawn overlaps the rectangle `[x0, y0, x1, y1]` (touching counts). */
export function touchesRect(el, rect) {
  const [x0, y0, x1, y1] = rect;
  const box = corners(el);
  const r = [[x0, y0], [x1, y0], [x1, y1], [x0, y1]];
  const axes = [[1, 0], [0, 1]];
  for (let i = 0; i < 2; i++) {
    const [ax, ay] = [box[i + 1][0] - box[i][0], box[i + 1][1] - box[i][1]];
    if (ax !== 0 || ay !== 0) axes.push([-ay, ax]);
  }
  for (const [ax, ay] of axes) {
    const a = project(box, ax, ay), b = project(r, ax, ay);
    if (a[1] < b[0] || b[1] < a[0]) return false;
  }
  return true;
}

/** Whether page point p lies inside the closed loop `points` (even-odd). */
export function insideLoop(points, p) {
  let inside = false;
  for (let i = 0, j = points.length - 1; i < points.length; j = i++) {
    const [xi, yi] = points[i], [xj, yj] = points[j];
    if ((yi > p[1]) !== (yj > p[1]) && p[0] < ((xj - xi) * (p[1] - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** The ids the marquee `[x0, y0, x1, y1]` (any two corners) picks from `elements`, bottom to top. */
export function marqueePick(elements, a, b) {
  const rect = [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[0], b[0]), Math.max(a[1], b[1])];
  return elements.filter((el) => pickable(el) && touchesRect(el, rect)).map((el) => el.id);
}

/** The ids a lasso loop picks from `elements` (centre inside), bottom to top. */
export function lassoPick(elements, loop) {
  if (loop.length < 3) return [];
  return elements.filter((el) => pickable(el) && insideLoop(loop, [el.transform[4], el.transform[5]])).map((el) => el.id);
}

/**
 * The group of `elements` as one element-like box: `{type: 'group', ids, size, transform}`, its
 * transform a translation to the union's centre (a group's frame is never turned), or null.
 */
export function groupBox(elements) {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const el of elements) {
    const b = boxOf(el.size, el.transform);
    x0 = Math.min(x0, b[0]); y0 = Math.min(y0, b[1]); x1 = Math.max(x1, b[2]); y1 = Math.max(y1, b[3]);
  }
  if (!(x1 >= x0 && y1 >= y0)) return null;
  return { id: '', type: 'group', ids: elements.map((e) => e.id), size: [x1 - x0, y1 - y0], transform: [1, 0, 0, 1, (x0 + x1) / 2, (y0 + y1) / 2] };
}
