// Which element is under a page point. Pure: no DOM, so it is tested on its own and the coming
// selection work (Alt+click for the one below, marquee, lasso) builds on it. Whether an element
// draws the point (its pixels) is asked of a `covers` function (drawn-pixels.js in the editor).

import { apply, invert } from './matrix.js';

/**
 * The topmost visible element of `elements` (bottom to top, each with `type`, `size`,
 * `transform`, `hidden`) whose own box holds the page point (x, y), or null. The box is tested
 * in the element's own frame (the inverse of its transform), so rotation and flips are exact.
 * Ink is drawn on, never moved, so it is skipped; so is a locked element (drawn, not picked).
 */
export function topmostAt(elements, x, y, covers) {
  const all = allAt(elements, x, y, covers);
  return all.length > 0 ? all[0] : null;
}

/**
 * Every element `topmostAt` could pick at (x, y), top first. `covers(el, x, y)`, when given, says
 * whether the element draws that point (its pixels, not only its box): one that does not is
 * passed through, so a click on a round sticker's transparent corner picks what is seen there.
 */
export function allAt(elements, x, y, covers) {
  const found = [];
  for (let i = elements.length - 1; i >= 0; i--) {
    const el = elements[i];
    if (el.type === 'ink' || el.hidden || el.locked) continue;
    const inv = invert(el.transform);
    if (!inv) continue;
    const [u, v] = apply(inv, x, y);
    if (Math.abs(u) <= el.size[0] / 2 && Math.abs(v) <= el.size[1] / 2 && (!covers || covers(el, x, y))) found.push(el);
  }
  return found;
}

/**
 * Alt+click: the element under the one with id `current` at (x, y), or the topmost when
 * `current` is not there or is the lowest (so repeated Alt+clicks go round the pile).
 */
export function nextBelowAt(elements, x, y, current, covers) {
  const all = allAt(elements, x, y, covers);
  if (all.length === 0) return null;
  const i = all.findIndex((e) => e.id === current);
  return i >= 0 && i + 1 < all.length ? all[i + 1] : all[0];
}
