// The view's camera: how large the page is drawn and which part of it is on screen. Pure state
// and functions, no DOM (zoom.js applies them): a zoom is a factor of the fitted page (1 = the
// whole page fits the stage), shown to the user as a percentage of the paper's real size (100 %:
// one CSS inch is one inch of paper), kept within 25–800 %.
//
// The pan is the stage's scroll position, so the page element's box is always the page as
// zoomed, and every input (pointer, pen, touch, drop) maps to page pixels through that box.

export const MIN_PERCENT = 25;
export const MAX_PERCENT = 800;
/** A step of the zoom keys and buttons. */
export const STEP = 1.25;

/** CSS pixels per page pixel at 100 %: the paper at its real size (a CSS inch is 96 px). */
export function realSizeK(dpi) { return 96 / (dpi > 0 ? dpi : 300); }

/**
 * The zoom factors (of the fitted page) the range allows, for a page fitted at `fitK` CSS pixels
 * per page pixel with `dpi`: 25–800 % of real size, widened to include the fit itself.
 */
export function zoomRange(fitK, dpi) {
  const real = realSizeK(dpi);
  const lo = (MIN_PERCENT / 100) * real / fitK, hi = (MAX_PERCENT / 100) * real / fitK;
  return [Math.min(lo, 1), Math.max(hi, 1)];
}

export function clampZoom(zoom, fitK, dpi) {
  const [lo, hi] = zoomRange(fitK, dpi);
  return Math.min(hi, Math.max(lo, Number.isFinite(zoom) ? zoom : 1));
}

/** The zoom factor that shows the page at `percent` % of its real size. */
export function zoomForPercent(percent, fitK, dpi) { return clampZoom((percent / 100) * realSizeK(dpi) / fitK, fitK, dpi); }

/** The percentage of real size a zoom factor shows. */
export function percentOf(zoom, fitK, dpi) { return (100 * zoom * fitK) / realSizeK(dpi); }

/**
 * How far to scroll (client pixels) so the page point that was under client point (cx, cy) in
 * the page box `before` ({left, top, width, height}) is under it again in the box `after`.
 */
export function keepPoint(before, after, cx, cy) {
  const u = (cx - before.left) / before.width, w = (cy - before.top) / before.height;
  return [after.left + u * after.width - cx, after.top + w * after.height - cy];
}

/**
 * The page pixels `[x, y, w, h]` of `frame` (the page box, client pixels) inside `stage` (the
 * visible stage, client pixels) for a page `pageWidth` page pixels wide, or null when none is.
 */
export function visibleRegion(frame, stage, pageWidth, pageHeight) {
  const l = Math.max(frame.left, stage.left), t = Math.max(frame.top, stage.top);
  const r = Math.min(frame.left + frame.width, stage.left + stage.width), b = Math.min(frame.top + frame.height, stage.top + stage.height);
  if (r <= l || b <= t || frame.width <= 0) return null;
  const k = frame.width / pageWidth;
  const x = Math.max(0, (l - frame.left) / k), y = Math.max(0, (t - frame.top) / k);
  return [x, y, Math.min(pageWidth - x, (r - l) / k), Math.min(pageHeight - y, (b - t) / k)];
}

/**
 * Two fingers on the paper: the zoom ratio and the client-pixel move of their midpoint from
 * `before` ([[x, y], [x, y]]) to `after`.
 */
export function pinchStep(before, after) {
  const d0 = Math.hypot(before[1][0] - before[0][0], before[1][1] - before[0][1]);
  const d1 = Math.hypot(after[1][0] - after[0][0], after[1][1] - after[0][1]);
  const m0 = [(before[0][0] + before[1][0]) / 2, (before[0][1] + before[1][1]) / 2];
  const m1 = [(after[0][0] + after[1][0]) / 2, (after[0][1] + after[1][1]) / 2];
  return { ratio: d0 > 0 && d1 > 0 ? d1 / d0 : 1, mid: m1, pan: [m1[0] - m0[0], m1[1] - m0[1]] };
}

/** The zoom factor a wheel turn gives (Ctrl/Cmd+wheel, or a trackpad pinch as Chromium sends it). */
export function wheelZoom(zoom, deltaY, deltaMode) {
  const px = deltaMode === 1 ? deltaY * 16 : deltaMode === 2 ? deltaY * 400 : deltaY;
  return zoom * Math.exp(-Math.max(-100, Math.min(100, px)) * 0.01);
}
