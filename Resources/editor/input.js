// Pointer input, normalised once (after signature_pad): every event the tools see carries page
// coordinates, pressure, time and the pointer's kind, whatever device made it. Pointer capture
// keeps a stroke that leaves the page alive until the pointer is lifted.
//
// GestureRecognizer turns the active pointers into the incremental recognizer events of §3, the
// way Excalidraw tracks fingers: a map of active pointers by pointerId; one pointer pans; two
// give a pinch (the ratio of finger distances), a rotation (the change of their angle, radians)
// and a pan (the move of their midpoint), with the midpoint in page coordinates as the focal point.

const TAP_SLOP_CSS = 8;          // a tap moves less than this many CSS pixels
const DOUBLE_TAP_MS = 400;       // and a second tap follows the first within this time
const DOUBLE_TAP_DISTANCE_CSS = 30;

/**
 * Listens on the page element and calls `sink(event)` with normalised events:
 * `{kind: 'down'|'move'|'up'|'cancel'|'doubletap', id, pointerType, x, y, pressure, time,
 *   samples: [{x, y, pressure, time}], predicted: [[x, y, pressure]] (moves only), shiftKey, altKey,
 *   count}`, where x, y are page pixels and
 * `count` is the number of pointers down. `toPage(clientX, clientY)` maps to page pixels.
 */
export class PointerInput {
  constructor(element, toPage, sink) {
    this.element = element;
    this.toPage = toPage;
    this.sink = sink;
    this.active = new Set();   // pointerIds down
    this.taps = new TapDetector();
    element.addEventListener('pointerdown', (e) => this.down(e));
    element.addEventListener('pointermove', (e) => this.move(e));
    element.addEventListener('pointerup', (e) => this.up(e, 'up'));
    element.addEventListener('pointercancel', (e) => this.up(e, 'cancel'));
    element.addEventListener('lostpointercapture', (e) => { if (this.active.has(e.pointerId)) this.up(e, 'cancel'); });
    // The browser's own double-click and context menu are not ours to act on.
    element.addEventListener('dblclick', (e) => e.preventDefault());
    element.addEventListener('contextmenu', (e) => e.preventDefault());
  }

  normalise(kind, e, samples) {
    const [x, y] = this.toPage(e.clientX, e.clientY);
    return {
      kind, id: e.pointerId, pointerType: e.pointerType || 'mouse', x, y,
      pressure: pressureOf(e), time: e.timeStamp,
      samples: samples || [{ x, y, pressure: pressureOf(e), time: e.timeStamp }],
      shiftKey: e.shiftKey, altKey: e.altKey, count: this.active.size, button: e.button,
    };
  }

  down(e) {
    if (e.pointerType === 'mouse' && e.button !== 0) return;
    e.preventDefault();
    try { this.element.setPointerCapture(e.pointerId); } catch { /* a finished pointer has no capture */ }
    this.active.add(e.pointerId);
    this.taps.down(e.pointerId, e.clientX, e.clientY, e.timeStamp);
    this.sink(this.normalise('down', e));
  }

  move(e) {
    if (!this.active.has(e.pointerId)) return;
    this.taps.move(e.pointerId, e.clientX, e.clientY);
    // Coalesced events keep every sample of a fast pen between two frames.
    const list = typeof e.getCoalescedEvents === 'function' ? e.getCoalescedEvents() : [];
    const samples = (list.length ? list : [e]).map((c) => {
      const [x, y] = this.toPage(c.clientX, c.clientY);
      return { x, y, pressure: pressureOf(c), time: c.timeStamp };
    });
    const ev = this.normalise('move', e, samples);
    // Where the browser expects the pointer next (Chromium): drawn as a temporary tail, never kept.
    const predicted = typeof e.getPredictedEvents === 'function' ? e.getPredictedEvents() : [];
    ev.predicted = predicted.map((c) => [...this.toPage(c.clientX, c.clientY), pressureOf(c)]);
    this.sink(ev);
  }

  up(e, kind) {
    if (!this.active.has(e.pointerId)) return;
    this.active.delete(e.pointerId);
    const ev = this.normalise(kind, e);
    this.sink(ev);
    if (this.taps.up(e.pointerId, e.clientX, e.clientY, e.timeStamp, kind === 'up')) this.sink({ ...ev, kind: 'doubletap' });
  }
}

/**
 * Tells a double tap from pointer downs, moves and ups (client pixels, milliseconds), whatever
 * device made them. A tap is a lone pointer lifted less than TAP_SLOP_CSS from where it went
 * down; a second tap that goes down within DOUBLE_TAP_MS and DOUBLE_TAP_DISTANCE_CSS of the first
 * makes a double tap when it lifts. No DOM: PointerInput feeds it, tests drive it directly.
 */
export class TapDetector {
  constructor() {
    this.pointers = new Map();   // pointerId -> {startX, startY, moved}
    this.lastTap = null;         // {time, x, y}
    this.secondTap = false;
  }

  down(id, x, y, time) {
    this.pointers.set(id, { startX: x, startY: y, moved: false });
    const t = this.lastTap;
    this.secondTap = this.pointers.size === 1 && !!t && time - t.time < DOUBLE_TAP_MS &&
      Math.hypot(x - t.x, y - t.y) < DOUBLE_TAP_DISTANCE_CSS;
  }

  move(id, x, y) {
    const p = this.pointers.get(id);
    if (p && Math.hypot(x - p.startX, y - p.startY) >= TAP_SLOP_CSS) p.moved = true;
  }

  /** True when this lift ends a double tap; `lifted` is false for a cancelled pointer. */
  up(id, x, y, time, lifted = true) {
    const p = this.pointers.get(id);
    if (!p) return false;
    const wasOnly = this.pointers.size === 1;
    this.pointers.delete(id);
    if (!lifted || !wasOnly || p.moved) { this.lastTap = null; this.secondTap = false; return false; }
    if (this.secondTap) { this.lastTap = null; this.secondTap = false; return true; }
    this.lastTap = { time, x, y };
    return false;
  }
}

/** Pen and touch report real pressure; a mouse reports 0.5 while a button is down. */
function pressureOf(e) {
  const p = typeof e.pressure === 'number' ? e.pressure : 0.5;
  return Number.isFinite(p) ? Math.min(1, Math.max(0, p)) : 0.5;
}

/**
 * Turns pointer positions (page pixels) into §3 recognizer events. Feed it `down`, `move` and
 * `up` in order; `move` returns the incremental events that move produced, each already in the
 * form `POST /api/pages/ID/gesture` takes.
 */
export class GestureRecognizer {
  constructor() {
    this.pointers = new Map();   // pointerId -> [x, y], insertion ordered
    this.began = new Set();      // recognizers that have reported 'began'
  }

  get count() { return this.pointers.size; }

  down(id, x, y) { this.pointers.set(id, [x, y]); }

  up(id) { this.pointers.delete(id); }

  move(id, x, y) {
    const prev = this.pointers.get(id);
    if (!prev) return [];
    const ids = [...this.pointers.keys()].slice(0, 2);
    const out = [];
    if (this.pointers.size === 1) {
      const dx = x - prev[0], dy = y - prev[1];
      this.pointers.set(id, [x, y]);
      if (dx !== 0 || dy !== 0) out.push(this.event('pan', { translation: [dx, dy] }));
      return out;
    }
    if (!ids.includes(id)) { this.pointers.set(id, [x, y]); return out; }
    const other = this.pointers.get(ids[0] === id ? ids[1] : ids[0]);
    const before = pair(prev, other), after = pair([x, y], other);
    this.pointers.set(id, [x, y]);
    const dx = after.mid[0] - before.mid[0], dy = after.mid[1] - before.mid[1];
    if (dx !== 0 || dy !== 0) out.push(this.event('pan', { translation: [dx, dy] }));
    if (before.distance > 0 && after.distance > 0) {
      const scale = after.distance / before.distance;
      if (scale !== 1 && Number.isFinite(scale)) out.push(this.event('pinch', { scale, location: after.mid }));
      let rotation = after.angle - before.angle;
      if (rotation > Math.PI) rotation -= 2 * Math.PI;
      if (rotation <= -Math.PI) rotation += 2 * Math.PI;
      if (rotation !== 0) out.push(this.event('rotation', { rotation, location: after.mid }));
    }
    return out;
  }

  event(gesture, values) {
    const state = this.began.has(gesture) ? 'changed' : 'began';
    this.began.add(gesture);
    return { gesture, state, ...values };
  }
}

/** The midpoint, distance and angle (radians, atan2 of q − p) of two points. */
export function pair(p, q) {
  const dx = q[0] - p[0], dy = q[1] - p[1];
  return { mid: [(p[0] + q[0]) / 2, (p[1] + q[1]) / 2], distance: Math.hypot(dx, dy), angle: Math.atan2(dy, dx) };
}
