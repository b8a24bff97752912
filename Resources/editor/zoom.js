// Zoom and pan: the camera (camera.js) driven by Ctrl/Cmd+wheel (a trackpad pinch arrives so in
// Chromium), two fingers on the paper where no selection is under them, Ctrl+= / Ctrl+- / Ctrl+0
// or Shift+1 (fit) / Shift+0 or Ctrl+1 (100 %), the zoom buttons, space+drag, two-finger moves
// and scrolling. Zoomed
// in, what is visible is rendered again at the screen's resolution (a region render) and laid
// over the page, so the page is sharp at every zoom.
//
// The input the tools see is untouched: pointers still map to page pixels through the page
// element's box, which is always the page as zoomed.

import {
  clampZoom, keepPoint, percentOf, pinchStep, STEP, visibleRegion, wheelZoom, zoomForPercent,
} from './camera.js';
import { screenK } from './tools/select-handles.js';
import { underFingers } from './tools/select.js';

export class Zoom {
  /** `editor`: reads its state, view, api, tool and selection, and its hit test. */
  constructor(editor) {
    this.editor = editor;
    this.view = editor.view;
    this.stage = this.view.stage;
    this.frame = this.view.frame;
    this.listeners = [];
    this.space = false;
    this.drag = null;            // space+drag: {id, x, y}
    this.touches = new Map();    // touch pointers on the stage: id -> [clientX, clientY]
    this.carry = [0, 0];         // the part of a pan the scroll position could not take yet
    this.pinch = null;           // two fingers zooming the view: {ids, last, prior}
    this.tile = null;            // the sharp render over the page: <img class="tile">
    this.tileSeq = 0;
    this.tileTimer = 0;
    this.zoomedAt = 0;           // performance.now() of the last zoom, for the figures
    this.zoomSettle = 0;         // how long the last zoom waits before its sharp render
    /** ms from a zoom to the sharp render of what is visible on screen (tests and bench read these). */
    this.timings = [];
    this.percentLabel = editor.view.doc.querySelector('[data-techo-zoom-label]');
    this.wire();
  }

  /** `fn()` runs after every change of zoom or pan (handles, the selection's bar follow it). */
  onChange(fn) { this.listeners.push(fn); }

  get dpi() { return (this.editor.state.pageMeta() || {}).dpi || 300; }
  get fitK() { return this.view.page ? this.view.fitWidth / this.view.page.width : 1; }
  get zoom() { return this.view.zoom; }
  get percent() { return percentOf(this.view.cssWidth / (this.view.fitWidth || 1), this.fitK, this.dpi); }

  wire() {
    const doc = this.view.doc;
    this.stage.addEventListener('wheel', (e) => this.wheel(e), { passive: false });
    // Capture: the camera sees pointers before the tools do, and keeps the ones it takes.
    this.stage.addEventListener('pointerdown', (e) => this.down(e), true);
    this.stage.addEventListener('pointermove', (e) => this.move(e), true);
    this.stage.addEventListener('pointerup', (e) => this.up(e), true);
    this.stage.addEventListener('pointercancel', (e) => this.up(e), true);
    // A scroll waits for the panning to pause; the scroll a zoom makes (to keep the point under
    // the pointer) keeps the zoom's own wait.
    this.stage.addEventListener('scroll', () => {
      this.changed({ handles: false });
      this.scheduleTile(this.zoomedAt ? this.zoomSettle : 120);
    }, { passive: true });
    doc.addEventListener('keydown', (e) => this.keydown(e));
    doc.addEventListener('keyup', (e) => { if (e.key === ' ') this.setSpace(false); });
    window.addEventListener('blur', () => this.setSpace(false));
    for (const b of doc.querySelectorAll('[data-techo-action^="zoom-"]')) {
      b.addEventListener('click', () => this.action(b.dataset.techoAction));
    }
    // A new render (an edit, an undo, another page) makes the sharp one stale.
    this.editor.state.on('page', () => { this.room(this.view.zoom !== 1); this.dropTile(); this.changed(); this.scheduleTile(0); });
  }

  action(name) {
    const r = this.stage.getBoundingClientRect();
    const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
    if (name === 'zoom-in') this.zoomTo(this.zoom * STEP, cx, cy);
    else if (name === 'zoom-out') this.zoomTo(this.zoom / STEP, cx, cy);
    else if (name === 'zoom-fit') this.zoomTo(1, cx, cy);
    else if (name === 'zoom-100') this.zoomTo(zoomForPercent(100, this.fitK, this.dpi), cx, cy);
  }

  /**
   * Sets the zoom (a factor of the fitted page, clamped to 25–800 %) keeping the page point under
   * client point (cx, cy) where it is; the sharp render follows after `settle` ms.
   */
  zoomTo(zoom, cx, cy, { settle = 0 } = {}) {
    const v = this.view;
    if (!v.page) return;
    const z = clampZoom(zoom, this.fitK, this.dpi);
    if (Math.abs(z - v.zoom) < 1e-9) return;
    const before = this.frame.getBoundingClientRect();
    v.zoom = z;
    this.room(z !== 1);
    v.layout(v.page);
    // The box moved (it grew, and a page smaller than the stage is centred in it): scroll it back
    // so the page point under (cx, cy) is there again.
    const after = this.frame.getBoundingClientRect();
    const [dx, dy] = keepPoint(before, after, cx, cy);
    this.panBy(dx, dy);
    this.zoomedAt = performance.now();
    this.zoomSettle = settle;
    this.changed();
    this.scheduleTile(settle);
  }

  /**
   * Zoomed, the page has half a stage of room on every side, so any point of it can be brought
   * under the pointer or the fingers (a scroll cannot move a page smaller than the stage); fitted,
   * it is centred again.
   */
  room(on) {
    this.frame.style.margin = on ? `${Math.round(this.stage.clientHeight / 2)}px ${Math.round(this.stage.clientWidth / 2)}px` : '';
  }

  /** Scrolls by (dx, dy), carrying what a whole-pixel scroll position left over to the next move. */
  panBy(dx, dy) {
    const s = this.stage, c = this.carry;
    const x = s.scrollLeft + dx + c[0], y = s.scrollTop + dy + c[1];
    s.scrollLeft = x;
    s.scrollTop = y;
    // A remainder of a pixel or more is the scroll's end, not rounding: nothing to carry.
    c[0] = Math.abs(x - s.scrollLeft) < 1 ? x - s.scrollLeft : 0;
    c[1] = Math.abs(y - s.scrollTop) < 1 ? y - s.scrollTop : 0;
  }

  /** The handles (not needed for a scroll: they are on the page), the label and whoever listens follow the new view. */
  changed({ handles = true } = {}) {
    const v = this.view, st = this.editor.state;
    if (handles && st.pageData) {
      for (const h of v.handles.children) {
        const el = st.elementById(h.dataset.techoElement);
        if (el) v.placeHandle(h, el, el.transform);
      }
    }
    if (this.percentLabel) this.percentLabel.textContent = `${Math.round(this.percent)} %`;
    for (const fn of this.listeners) fn();
  }

  // Input.

  wheel(e) {
    if (!(e.ctrlKey || e.metaKey)) return;   // a plain wheel scrolls the stage: a pan
    e.preventDefault();
    this.zoomTo(wheelZoom(this.zoom, e.deltaY, e.deltaMode), e.clientX, e.clientY, { settle: 80 });
  }

  keydown(e) {
    const mod = e.ctrlKey || e.metaKey;
    const t = e.target;
    const typing = t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable);
    if (mod && !e.altKey) {
      const name = { '=': 'zoom-in', '+': 'zoom-in', '-': 'zoom-out', _: 'zoom-out', 0: 'zoom-fit', 1: 'zoom-100' }[e.key];
      if (name) { e.preventDefault(); this.action(name); }
      return;
    }
    // Shift+0 (100 %) and Shift+1 (fit), as in Figma and tldraw: a browser keeps Ctrl+1 for its
    // first tab, so the page never sees it there.
    if (e.shiftKey && !e.altKey && !typing) {
      const name = { Digit0: 'zoom-100', Digit1: 'zoom-fit' }[e.code];
      if (name) { e.preventDefault(); this.action(name); return; }
    }
    if (e.key === ' ' && !typing && !e.repeat) { e.preventDefault(); this.setSpace(true); }
    else if (e.key === ' ' && !typing) e.preventDefault();
  }

  setSpace(on) {
    this.space = on;
    this.frame.classList.toggle('panning', on);
  }

  down(e) {
    // A pen on the screen: the hand holding it is not zooming (pen-first.js).
    if (e.pointerType === 'pen') { this.pinch = null; this.touches.clear(); }
    if (e.pointerType === 'touch' && this.editor.penFirst.penDown) return;
    if (this.space && (e.pointerType !== 'touch')) {
      // Space+drag pans, whatever tool is in hand; the tool never sees it.
      e.stopPropagation();
      e.preventDefault();
      this.drag = { id: e.pointerId, x: e.clientX, y: e.clientY };
      try { this.stage.setPointerCapture(e.pointerId); } catch { /* gone already */ }
      return;
    }
    if (e.pointerType !== 'touch') return;
    if (this.touches.size === 0) this.prior = this.editor.state.selection;
    this.touches.set(e.pointerId, [e.clientX, e.clientY]);
    if (this.touches.size !== 2 || this.pinch) return;
    // Two fingers: the view's, unless the selection is under one of them (then it is pinched).
    const pts = [...this.touches.values()];
    // Several selected: the group's box stands for the selection (group.js).
    const group = this.editor.state.isGroup() ? this.editor.group.element() : null;
    const sel = group || (this.prior && this.editor.state.elementById(this.prior));
    const onSelection = sel && pts.some(([x, y]) => {
      const [px, py] = this.view.toPage(x, y);
      const hit = this.editor.hitTest(px, py);
      return hit && (group ? group.ids.includes(hit.id) : hit.id === sel.id);
    });
    // A first finger that took hold of an element (the select tool's gesture) pinches that element,
    // and so do two fingers down on the paper around the selection (the select tool's
    // fingerOnPaper); two fingers on the paper away from it zoom.
    const tool = this.editor.tool;
    const around = sel && underFingers(sel, this.view.toPage(...pts[0]), this.view.toPage(...pts[1]), screenK(this.view));
    // A first finger still being picked (its sticker's pixels or the strokes under it on their
    // way) holds what its box test finds there, as its pick would.
    const pending = tool.name === 'select' && tool.current === 'picking' && tool.data && tool.data.event;
    const onElement = !!pending && !!this.editor.hitTest(pending.x, pending.y);
    const holding = tool.name === 'select' && tool.current !== 'idle' &&
      (tool.current === 'picking' ? onElement || around : tool.current !== 'fingerOnPaper' || around);
    if (onSelection || holding) return;
    e.stopPropagation();
    this.editor.tool.cancel();
    if (this.editor.state.selection !== this.prior) this.editor.select(this.prior, { focus: false });
    this.pinch = { ids: [...this.touches.keys()], last: pts };
  }

  move(e) {
    if (this.drag && e.pointerId === this.drag.id) {
      e.stopPropagation();
      this.panBy(this.drag.x - e.clientX, this.drag.y - e.clientY);
      this.drag.x = e.clientX;
      this.drag.y = e.clientY;
      return;
    }
    if (!this.touches.has(e.pointerId)) return;
    this.touches.set(e.pointerId, [e.clientX, e.clientY]);
    const p = this.pinch;
    if (!p || !p.ids.includes(e.pointerId)) return;
    e.stopPropagation();
    const now = p.ids.map((id) => this.touches.get(id));
    const step = pinchStep(p.last, now);
    p.last = now;
    this.panBy(-step.pan[0], -step.pan[1]);
    if (step.ratio !== 1) this.zoomTo(this.zoom * step.ratio, step.mid[0], step.mid[1], { settle: 80 });
  }

  up(e) {
    if (this.drag && e.pointerId === this.drag.id) {
      e.stopPropagation();
      this.drag = null;
      return;
    }
    this.touches.delete(e.pointerId);
    if (this.pinch && this.pinch.ids.includes(e.pointerId)) {
      // The tools were told to cancel when the pinch began; the lift ends it for them too.
      if (this.touches.size === 0) this.pinch = null;
    }
  }

  // The sharp render of what is visible.

  scheduleTile(ms) {
    clearTimeout(this.tileTimer);
    this.tileTimer = setTimeout(() => this.updateTile(), ms);
  }

  dropTile() {
    this.tileSeq++;
    if (this.tile) { URL.revokeObjectURL(this.tile.src); this.tile.remove(); this.tile = null; }
    delete this.frame.dataset.techoSharp;
  }

  /**
   * What a sharp picture of the view needs: `{scale, region}` (device pixels per page pixel on
   * screen, and the visible part of the page in page pixels), or null while the whole-page render
   * is sharp enough (up to its own scale) or nothing of the page is visible.
   */
  sharpView() {
    const v = this.view;
    if (!v.page) return null;
    const scale = Math.min(4, v.k * v.dpr);
    if (scale <= v.scale * 1.02) return null;
    const region = visibleRegion(this.frame.getBoundingClientRect(), this.stage.getBoundingClientRect(), v.page.width, v.page.height);
    // An endless page's renders stop at its stored height; below is the view's own paper.
    const stored = v.page.storedHeight ?? v.page.height;
    if (region && region[1] + region[3] > stored) region[3] = stored - region[1];
    return region && region[3] > 0 ? { scale, region } : null;
  }

  async updateTile() {
    const v = this.view;
    if (!v.page || !v.render) return;
    const want = Math.min(4, v.k * v.dpr);
    // The whole-page render is sharp enough up to its own scale.
    if (want <= v.scale * 1.02) { this.dropTile(); v.dropSharpOverlay(); this.frame.dataset.techoSharp = String(v.scale); return; }
    const sharp = this.sharpView();
    if (!sharp) { v.dropSharpOverlay(); return; }
    const region = sharp.region;
    const seq = ++this.tileSeq;
    const started = this.zoomedAt || performance.now();
    const revision = this.frame.dataset.techoRevision;
    let answer;
    try {
      answer = await this.editor.api.renderRegion(v.page.id, want, region);
    } catch (e) {
      if (seq === this.tileSeq) { v.dropSharpOverlay(); v.say(e.message || String(e), { error: true }); }
      return;
    }
    if (seq !== this.tileSeq || revision !== this.frame.dataset.techoRevision) return;
    const img = new Image();
    img.className = 'tile';
    img.alt = '';
    img.draggable = false;
    img.src = URL.createObjectURL(answer.blob);
    try { await img.decode(); } catch { URL.revokeObjectURL(img.src); return; }
    if (seq !== this.tileSeq) { URL.revokeObjectURL(img.src); return; }
    // Placed in percent of the page, so a zoom before the next one arrives still lines it up.
    const [x, y, w, h] = answer.rect.map((n) => n / want);
    img.style.left = `${(100 * x) / v.page.width}%`;
    img.style.top = `${(100 * y) / v.page.height}%`;
    img.style.width = `${(100 * w) / v.page.width}%`;
    img.style.height = `${(100 * h) / v.page.height}%`;
    await new Promise((r) => requestAnimationFrame(r));
    if (seq !== this.tileSeq) { URL.revokeObjectURL(img.src); return; }
    const old = this.tile;
    if (old) { old.replaceWith(img); URL.revokeObjectURL(old.src); } else if (v.render) v.render.after(img);
    this.tile = img;
    v.dropSharpOverlay();
    this.frame.dataset.techoSharp = String(Number(want.toFixed(4)));
    if (this.zoomedAt) { this.timings.push(performance.now() - started); this.zoomedAt = 0; }
  }
}
