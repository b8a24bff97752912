// Snapping while dragging (§13 "Handles"): pure, no DOM. The translating state asks it where a
// moving box should go; it answers with the correction and the guide lines to show, and knows
// nothing of pointers or the overlay (tldraw's snap manager, asked by its Translating state).
//
// Lines a box snaps to: the page's centre lines, its margins (MARGIN_MM in from each edge) and
// the edges and centres of the other elements' boxes. A box snaps by its left edge, centre and
// right edge (x) and its top edge, centre and bottom edge (y), each axis on its own, to the
// nearest line within `threshold` page pixels (the caller turns 6 screen pixels into page pixels).

export const SNAP_SCREEN_PX = 6;
export const MARGIN_MM = 10;

/** The axis-aligned box `[x0, y0, x1, y1]` of an element of size [w, h] under transform m. */
export function boxOf(size, m) {
  const [w, h] = size;
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const [u, v] of [[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]]) {
    const x = m[0] * u + m[2] * v + m[4], y = m[1] * u + m[3] * v + m[5];
    x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y);
  }
  return [x0, y0, x1, y1];
}

/**
 * The lines of a page `{width, height, dpi}` and of the boxes `others` (each `[x0, y0, x1, y1]`):
 * `{x: [...], y: [...]}`, page pixels.
 */
export function snapLines(page, others = []) {
  const margin = MARGIN_MM / 25.4 * (page.dpi || 300);
  const x = [page.width / 2, margin, page.width - margin];
  const y = [page.height / 2, margin, page.height - margin];
  for (const b of others) {
    x.push(b[0], (b[0] + b[2]) / 2, b[2]);
    y.push(b[1], (b[1] + b[3]) / 2, b[3]);
  }
  return { x, y };
}

/** The nearest (line − point) over the points of one axis, within `threshold`, or null. */
function nearest(points, lines, threshold) {
  let best = null;
  for (const p of points) {
    for (const l of lines) {
      const d = l - p;
      if (Math.abs(d) <= threshold && (best === null || Math.abs(d) < Math.abs(best.d))) best = { d, at: l };
    }
  }
  return best;
}

/**
 * Where `box` snaps among `lines` (from snapLines): `{dx, dy, guides}`, where (dx, dy) moves the
 * box onto the nearest line of each axis (0 when none is within `threshold`) and `guides` lists
 * each line snapped to as `{axis: 'x'|'y', at}` (a vertical guide at x = at, a horizontal one at
 * y = at), for the view to draw.
 */
export function snapBox(box, lines, threshold) {
  const [x0, y0, x1, y1] = box;
  const sx = nearest([x0, (x0 + x1) / 2, x1], lines.x, threshold);
  const sy = nearest([y0, (y0 + y1) / 2, y1], lines.y, threshold);
  const guides = [];
  if (sx) guides.push({ axis: 'x', at: sx.at });
  if (sy) guides.push({ axis: 'y', at: sy.at });
  return { dx: sx ? sx.d : 0, dy: sy ? sy.d : 0, guides };
}
