// The live stroke under the pen, drawn the way techo's renderer will draw it (TechoGeometry's
// Pencil and the ink layer in PageRenderer+Ink): the same centripetal Catmull-Rom spline through
// the same points (Barry–Goldman tangents, mirrored end neighbours), the pencil's width at
// pressure p = width · (0.3 + 0.7·p) varying linearly along each Bézier with the disc-and-tangent
// outline, round ends for the pencil and eraser, square-cut (butt) ends for the highlighter, whose
// layer is composited with multiply at its opacity (0.5 unless the stroke says otherwise).
//
// Latency: the points arrive in pointer events; each event draws only what it added, at once, on
// a canvas over the part of the page on screen at the screen's resolution (whatever the zoom),
// with a low-latency ('desynchronized') context where the browser offers one. A segment of the
// spline is final once the point after its end is known; the last segment and the predicted
// points (getPredictedEvents) are drawn on a second canvas, cleared and redrawn at each event.
// Both sit in one group that carries the stroke's opacity and blend mode, so the two pieces
// and the overlapping segment ends never darken each other.

import { visibleRegion } from './camera.js';

/** The fraction of the width a pencil draws at pressure 0 (TechoGeometry's Pencil default). */
export const MIN_WIDTH_FRACTION = 0.3;
/** The highlighter's opacity when the stroke gives none (the draw route's default). */
export const HIGHLIGHTER_OPACITY = 0.5;

/** The pencil's width at pressure `p` (missing or NaN: 1), as the renderer computes it. */
export function widthAt(width, p) {
  const q = p === undefined || p === null || Number.isNaN(p) ? 1 : Math.min(1, Math.max(0, p));
  return width * (MIN_WIDTH_FRACTION + (1 - MIN_WIDTH_FRACTION) * q);
}

/**
 * The Bézier control points of the centripetal Catmull-Rom segment from pts[i] to pts[i + 1]
 * (each point [x, y, …]), exactly as `Pencil.controls`: end neighbours mirrored.
 */
export function controls(pts, i) {
  const p1 = pts[i], p2 = pts[i + 1];
  const p0 = i > 0 ? pts[i - 1] : [2 * p1[0] - p2[0], 2 * p1[1] - p2[1]];
  const p3 = i + 2 < pts.length ? pts[i + 2] : [2 * p2[0] - p1[0], 2 * p2[1] - p1[1]];
  const d1 = Math.hypot(p1[0] - p0[0], p1[1] - p0[1]), d2 = Math.hypot(p2[0] - p1[0], p2[1] - p1[1]);
  const d3 = Math.hypot(p3[0] - p2[0], p3[1] - p2[1]);
  const s1 = Math.sqrt(d1), s2 = Math.sqrt(d2), s3 = Math.sqrt(d3);
  let b1 = [p1[0] + (p2[0] - p1[0]) / 3, p1[1] + (p2[1] - p1[1]) / 3];
  let b2 = [p2[0] - (p2[0] - p1[0]) / 3, p2[1] - (p2[1] - p1[1]) / 3];
  const den1 = 3 * s1 * (s1 + s2);
  if (den1 > 0) {
    const c = [p1[0] + ((p2[0] - p1[0]) * d1 - (p0[0] - p1[0]) * d2) / den1, p1[1] + ((p2[1] - p1[1]) * d1 - (p0[1] - p1[1]) * d2) / den1];
    if (Number.isFinite(c[0]) && Number.isFinite(c[1])) b1 = c;
  }
  const den2 = 3 * s3 * (s3 + s2);
  if (den2 > 0) {
    const c = [p2[0] + ((p1[0] - p2[0]) * d3 - (p3[0] - p2[0]) * d2) / den2, p2[1] + ((p1[1] - p2[1]) * d3 - (p3[1] - p2[1]) * d2) / den2];
    if (Number.isFinite(c[0]) && Number.isFinite(c[1])) b2 = c;
  }
  return [b1, b2];
}

/** Repeated points dropped (the renderer skips them too), keeping the widest pressure. */
function distinct(points) {
  const out = [];
  for (const p of points) {
    const l = out[out.length - 1];
    if (l && l[0] === p[0] && l[1] === p[1]) { if (p.length > 2 && l.length > 2) l[2] = Math.max(l[2], p[2]); continue; }
    out.push(p.slice());
  }
  return out;
}

export class InkPreview {
  /** `view`: the editor's View (its page frame, stage, `k` and `dpr`). */
  constructor(view) {
    this.view = view;
    const doc = view.doc;
    this.group = doc.createElement('div');
    this.group.className = 'ink-live';
    this.group.setAttribute('aria-hidden', 'true');
    this.group.hidden = true;
    this.ink = doc.createElement('canvas');
    this.tail = doc.createElement('canvas');
    this.group.append(this.ink, this.tail);
    view.frame.append(this.group);
    // A low-latency canvas where offered (Chromium); elsewhere an ordinary one.
    const options = { desynchronized: true };
    this.inkCtx = this.ink.getContext('2d', options);
    this.tailCtx = this.tail.getContext('2d', options);
    this.lowLatency = !!(this.inkCtx.getContextAttributes && this.inkCtx.getContextAttributes().desynchronized);
    this.stroke = null;
    this.done = 0;              // segments drawn for good on the ink canvas
    this.points = [];
    /** Each drawn point's pointer time and the time it was drawn (performance.now()), for the figures. */
    this.onDrawn = null;
  }

  /**
   * Starts a stroke: the canvases cover the part of the page on screen, at the screen's
   * resolution. `reveal` (`{image, scale}`, the eraser's): the page as the eraser leaves it, at
   * `scale` device pixels per page pixel; the eraser's trail is painted with it, so it shows what
   * its render will (without one, a pale trail).
   */
  begin(stroke, reveal = null) {
    const v = this.view;
    const region = visibleRegion(v.frame.getBoundingClientRect(), v.stage.getBoundingClientRect(), v.page.width, v.page.height)
      || [0, 0, v.page.width, v.page.height];
    const k = v.k, s = k * v.dpr;
    // Outward to whole device pixels, so the canvas maps onto them one to one.
    const x0 = Math.floor(region[0] * s), y0 = Math.floor(region[1] * s);
    const w = Math.max(1, Math.ceil((region[0] + region[2]) * s) - x0), h = Math.max(1, Math.ceil((region[1] + region[3]) * s) - y0);
    for (const c of [this.ink, this.tail]) {
      if (c.width !== w) c.width = w;
      if (c.height !== h) c.height = h;
      c.style.width = `${w / v.dpr}px`;
      c.style.height = `${h / v.dpr}px`;
    }
    this.group.style.left = `${x0 / v.dpr}px`;
    this.group.style.top = `${y0 / v.dpr}px`;
    this.transform = [s, -x0, -y0];
    this.stroke = stroke;
    const highlighter = stroke.tool === 'highlighter';
    const revealed = stroke.tool === 'eraser' && reveal && reveal.image;
    this.group.style.opacity = String(highlighter ? (stroke.opacity ?? HIGHLIGHTER_OPACITY) : stroke.tool === 'eraser' ? (revealed ? 1 : 0.75) : (stroke.opacity ?? 1));
    // The highlighter and washi tape are multiplied onto the page, as the renderer lays them.
    this.group.style.mixBlendMode = highlighter || stroke.tool === 'washi' ? 'multiply' : 'normal';
    this.color = stroke.tool === 'eraser' ? '#ffffff' : stroke.color;
    // One pattern per canvas, in page pixels (the canvases' transform takes them to the screen's).
    this.patterns = new Map();
    if (revealed) {
      for (const ctx of [this.inkCtx, this.tailCtx]) {
        const pattern = ctx.createPattern(reveal.image, 'no-repeat');
        pattern.setTransform(new DOMMatrix([1 / reveal.scale, 0, 0, 1 / reveal.scale, 0, 0]));
        this.patterns.set(ctx, pattern);
      }
    }
    const points = stroke.points || [];
    this.pressure = stroke.tool === 'pencil' && points.length > 0 && points[0].length > 2;
    for (const ctx of [this.inkCtx, this.tailCtx]) this.reset(ctx, true);
    this.done = 0;
    this.points = [];
    this.group.hidden = false;
    if (this.group.parentNode !== v.frame || this.group.nextSibling) v.frame.append(this.group);
  }

  reset(ctx, clear) {
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    if (clear) ctx.clearRect(0, 0, ctx.canvas.width, ctx.canvas.height);
    const [s, dx, dy] = this.transform;
    ctx.setTransform(s, 0, 0, s, dx, dy);
    ctx.fillStyle = ctx.strokeStyle = (this.patterns && this.patterns.get(ctx)) || this.color;
    ctx.lineJoin = 'round';
  }

  /**
   * Draws what the stroke's points added since the last call, and `predicted` (points the
   * browser expects next) as a temporary tail. Called from the pointer event itself.
   */
  update(predicted = []) {
    const st = this.stroke;
    if (!st) return;
    const pts = this.points = distinct(st.points);
    const n = pts.length;
    // Segments 0 … n−3 have the point after their end: final.
    const ctx = this.inkCtx;
    while (this.done < n - 2) { this.segment(ctx, pts, this.done, false); this.done++; }
    const t = this.tailCtx;
    this.reset(t, true);
    if (n === 1 && predicted.length === 0) { this.dot(t, pts[0]); return; }
    const ahead = predicted.length ? distinct([pts[n - 1], ...predicted.map((p) => (this.pressure ? [p[0], p[1], p[2] ?? pts[n - 1][2]] : [p[0], p[1]]))]) : [];
    const all = ahead.length > 1 ? pts.concat(ahead.slice(1)) : pts;
    for (let i = Math.max(0, this.done); i < all.length - 1; i++) this.segment(t, all, i, i === all.length - 2);
  }

  /**
   * A two-point shape (`line`, `dash`, `rect`, `ellipse`: `{from, to, width, color, fill?,
   * dash?}`) drawn whole, as the renderer draws it: the outline of the rectangle or ellipse in
   * the box from `from` to `to` or the segment between them, the pen centred on it with round
   * ends and joins, a dashed line's pattern [3w, 3w] from its start (or the stroke's own `dash`),
   * the fill under the outline, both at the stroke's opacity once (the group's). Called at each
   * move: the shape changes whole, so it is drawn anew on the tail canvas.
   */
  shape(st) {
    if (!this.stroke) return;
    this.stroke = st;
    const ctx = this.tailCtx;
    this.reset(ctx, true);
    const [x0, y0] = st.from, [x1, y1] = st.to;
    ctx.beginPath();
    if (st.tool === 'rect') ctx.rect(Math.min(x0, x1), Math.min(y0, y1), Math.abs(x1 - x0), Math.abs(y1 - y0));
    else if (st.tool === 'ellipse') ctx.ellipse((x0 + x1) / 2, (y0 + y1) / 2, Math.abs(x1 - x0) / 2, Math.abs(y1 - y0) / 2, 0, 0, 2 * Math.PI);
    else { ctx.moveTo(x0, y0); ctx.lineTo(x1, y1); }
    if (st.fill && (st.tool === 'rect' || st.tool === 'ellipse')) { ctx.fillStyle = st.fill; ctx.fill(); }
    ctx.lineWidth = st.width;
    ctx.lineCap = st.tool === 'washi' ? 'butt' : 'round';
    ctx.setLineDash(st.dash || (st.tool === 'dash' ? [3 * st.width, 3 * st.width] : []));
    ctx.lineDashOffset = 0;
    ctx.stroke();
    ctx.setLineDash([]);
  }

  /** Segment i of the spline through pts (the renderer's Bézier), drawn on ctx. */
  segment(ctx, pts, i, last) {
    const a = pts[i], b = pts[i + 1];
    const [c1, c2] = controls(pts, i);
    const st = this.stroke;
    if (this.pressure) {
      // The renderer's samples: the Bézier flattened, the radius linear in t, a disc at each
      // sample and the tangent hull between consecutive ones.
      const ra = widthAt(st.width, a[2]) / 2, rb = widthAt(st.width, b[2]) / 2;
      const len = Math.hypot(c1[0] - a[0], c1[1] - a[1]) + Math.hypot(c2[0] - c1[0], c2[1] - c1[1]) + Math.hypot(b[0] - c2[0], b[1] - c2[1]);
      const steps = Math.max(1, Math.min(64, Math.ceil(len * this.transform[0] / 2)));
      let prev = [a[0], a[1], ra];
      if (i === 0) this.disc(ctx, prev[0], prev[1], ra);
      for (let k = 1; k <= steps; k++) {
        const t = k / steps, u = 1 - t;
        const x = a[0] * u * u * u + c1[0] * 3 * u * u * t + c2[0] * 3 * u * t * t + b[0] * t * t * t;
        const y = a[1] * u * u * u + c1[1] * 3 * u * u * t + c2[1] * 3 * u * t * t + b[1] * t * t * t;
        const r = ra * u + rb * t;
        this.hull(ctx, prev, [x, y, r]);
        prev = [x, y, r];
      }
      return;
    }
    const highlighter = st.tool === 'highlighter';
    ctx.lineWidth = st.width;
    // Round ends for the pencil and eraser; the highlighter's are cut square, its joins round.
    ctx.lineCap = highlighter ? 'butt' : 'round';
    if (highlighter && i > 0) this.disc(ctx, a[0], a[1], st.width / 2);
    ctx.beginPath();
    ctx.moveTo(a[0], a[1]);
    ctx.bezierCurveTo(c1[0], c1[1], c2[0], c2[1], b[0], b[1]);
    ctx.stroke();
    void last;
  }

  /** A lone point: a disc (a square for the highlighter), as the renderer draws one. */
  dot(ctx, p) {
    const st = this.stroke;
    const w = this.pressure ? widthAt(st.width, p[2]) : st.width;
    if (st.tool === 'highlighter') ctx.fillRect(p[0] - w / 2, p[1] - w / 2, w, w);
    else this.disc(ctx, p[0], p[1], w / 2);
  }

  disc(ctx, x, y, r) {
    ctx.beginPath();
    ctx.arc(x, y, r, 0, 2 * Math.PI);
    ctx.fill();
  }

  /** The convex hull of two discs [x, y, r]: the far disc and the tangent trapezoid to the near one. */
  hull(ctx, p, q) {
    const dx = q[0] - p[0], dy = q[1] - p[1], d = Math.hypot(dx, dy);
    this.disc(ctx, q[0], q[1], q[2]);
    if (!(d > Math.abs(p[2] - q[2]))) { if (p[2] > q[2]) this.disc(ctx, p[0], p[1], p[2]); return; }
    const ux = dx / d, uy = dy / d, cosA = (p[2] - q[2]) / d, sinA = Math.sqrt(Math.max(0, 1 - cosA * cosA));
    const m1 = [ux * cosA - uy * sinA, ux * sinA + uy * cosA], m2 = [ux * cosA + uy * sinA, -ux * sinA + uy * cosA];
    ctx.beginPath();
    ctx.moveTo(p[0] + m1[0] * p[2], p[1] + m1[1] * p[2]);
    ctx.lineTo(q[0] + m1[0] * q[2], q[1] + m1[1] * q[2]);
    ctx.lineTo(q[0] + m2[0] * q[2], q[1] + m2[1] * q[2]);
    ctx.lineTo(p[0] + m2[0] * p[2], p[1] + m2[1] * p[2]);
    ctx.closePath();
    ctx.fill();
  }

  /** Ends the live stroke (the render that has it replaces it, or it was cancelled). */
  clear() {
    this.stroke = null;
    this.group.hidden = true;
    for (const ctx of [this.inkCtx, this.tailCtx]) { ctx.setTransform(1, 0, 0, 1, 0, 0); ctx.clearRect(0, 0, ctx.canvas.width, ctx.canvas.height); }
  }
}
