// Which element is under a page point. Pure: no DOM, so it is tested on its own and the coming
// selection work (Alt+click for the one below, marquee, lasso) builds on it.

import { apply, invert } from './matrix.js';

/**
 * The topmost visible element of `elements` (bottom to top, each with `type`, `size`,
 * `transform`, `hidden`) whose own box holds the page point (x, y), or null. The box is tested
 * in the element's own frame (the inverse of its transform), so rotation and flips are exact.
 * Ink is drawn on, never moved, so it is skipped.
 */
export function topmostAt(elements, x, y) {
  for (let i = elements.length - 1; i >= 0; i--) {
    const el = elements[i];
    if (el.type === 'ink' || el.hidden) continue;
    const inv = invert(el.transform);
    if (!inv) continue;
    const [u, v] = apply(inv, x, y);
    if (Math.abs(u) <= el.size[0] / 2 && Math.abs(v) <= el.size[1] / 2) return el;
  }
  return null;
}
