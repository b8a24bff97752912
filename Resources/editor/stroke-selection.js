// Ink as objects: one stroke picked with the select tool, to move, recolour, re-width or delete
// (each one request, one history step, through the stroke routes of the API). The page's answer
// carries no stroke geometry, so which strokes are under a point or along a drag is asked of the
// server (`POST …/strokes/hit`, the renderer's own outlines), and a stroke's box and style of
// `GET …/strokes`.
//
// How strokes and elements stack: as the renderer draws them. An ink layer is one element in the
// page's stack; inside it, its pen strokes lie above its highlighters (a highlighter never dulls
// ink), each kind in the order drawn. A press picks the topmost of all that draws the point: an
// element above the ink layer wins over its strokes, a stroke wins over the elements under its
// layer. A locked or hidden ink layer gives no strokes.

import { spriteScale } from './live-gesture.js';

/** How far (screen pixels) from a stroke's outline a press still picks it. */
export const STROKE_REACH_CSS = 6;

/**
 * The stroke `hits` (server order: topmost first, each `{id, layer}`) that a press picks, given
 * `element` (the topmost element the press is on, or null) and the page's `elements` (bottom to
 * top): the topmost stroke whose layer lies above that element and is not locked. Pure.
 */
export function strokeAbove(hits, element, elements) {
  const index = new Map(elements.map((e, i) => [e.id, i]));
  const floor = element ? index.get(element.id) ?? -1 : -1;
  for (const h of hits) {
    const layer = elements[index.get(h.layer)];
    if (!layer || layer.locked || layer.hidden) continue;
    if (index.get(h.layer) > floor) return h;
  }
  return null;
}

export class StrokeSelection {
  constructor(editor) {
    this.editor = editor;
    this.view = editor.view;
    this.current = null;          // {id, layer, bounds, color, width, tool}
    this.dragging = null;         // a drag in flight: {id, offset, assets, sharp, frame}
    this.cache = new Map();       // what drags draw, by page, stroke, revision and scale
    const doc = this.view.doc;
    this.frame = doc.createElement('div');
    this.frame.className = 'stroke-frame';
    this.frame.hidden = true;
    this.frame.dataset.techoStrokeFrame = '';
    this.bar = doc.createElement('div');
    this.bar.className = 'stroke-bar';
    this.bar.hidden = true;
    this.bar.innerHTML = '<button type="button" data-techo-action="delete-stroke" aria-label="Delete this stroke" title="Delete (Del)">Delete</button>';
    this.bar.querySelector('button').addEventListener('click', () => this.remove());
    this.view.frame.append(this.frame, this.bar);
    editor.state.on('page', () => this.reload());
  }

  get id() { return this.current ? this.current.id : null; }

  /** The strokes within reach of page point (x, y) or along the polyline `points`, topmost first. */
  async hits(points, reachCss = STROKE_REACH_CSS) {
    const st = this.editor.state;
    if (!pageHasStrokes(st.pageData)) return [];
    const radius = reachCss / (this.view.k || 1);
    const res = await this.editor.api.request('POST', `/api/pages/${encodeURIComponent(st.pageId)}/strokes/hit`, { json: { points, radius } });
    const body = await res.json();
    return body.hits || [];
  }

  /** Selects stroke `hit` ({id, layer}), or none; the element selection is cleared. */
  async select(hit) {
    this.current = hit ? { ...hit } : null;
    if (hit) {
      this.editor.select(null);
      this.current = { ...hit };
      await this.reload();
    }
    this.show();
  }

  /** Reads the selected stroke's box and style again (after a change or a new revision). */
  async reload() {
    const c = this.current;
    if (!c) { this.show(); return; }
    const st = this.editor.state;
    try {
      const list = await this.editor.api.json('GET', `/api/pages/${encodeURIComponent(st.pageId)}/strokes`);
      const s = (list.strokes || []).find((x) => x.id === c.id);
      if (this.current !== c) return;
      if (!s) { this.current = null; } else { Object.assign(c, s); this.editor.widths.showStroke(s.tool, s.width); }
    } catch { this.current = null; }
    this.show();
  }

  /** The frame over the stroke's box, moved by `offset` (page pixels) during a drag. */
  show(offset = [0, 0]) {
    const c = this.current;
    const editor = this.editor;
    editor.view.frame.dataset.techoSelection = c ? c.id : editor.state.selectedItems().join(' ');
    if (!c || !c.bounds) { this.frame.hidden = this.bar.hidden = true; return; }
    const k = this.view.k;
    const [x, y, w, h] = c.bounds;
    Object.assign(this.frame.style, {
      left: `${(x + offset[0]) * k}px`, top: `${(y + offset[1]) * k}px`, width: `${w * k}px`, height: `${h * k}px`,
    });
    this.frame.hidden = false;
    this.bar.style.left = `${(x + offset[0]) * k}px`;
    this.bar.style.top = `${(y + offset[1] + h) * k + 8}px`;
    this.bar.hidden = offset[0] !== 0 || offset[1] !== 0;
  }

  /**
   * What a drag of the picked stroke draws, fetched once per revision and scale: the page
   * without the stroke (`part=rest`), the stroke alone over its drawn bounds (its rectangle in
   * page pixels), and what lies over its ink layer (null when nothing does), so the stroke keeps
   * its place in the stack while it moves. With `region` (a zoomed view) the page without it is
   * only that part, at the screen's resolution.
   */
  prepare(c, scale, region = null) {
    const st = this.editor.state, api = this.editor.api;
    const key = `${st.pageId}|${c.id}|${st.revision}|${scale}|${region ? region.map(Math.round).join(',') : ''}`;
    let p = this.cache.get(key);
    if (p) return p;
    const page = encodeURIComponent(st.pageId), path = `/api/pages/${page}/strokes/${encodeURIComponent(c.id)}/render`;
    const elements = st.pageData ? st.pageData.elements : [];
    const i = elements.findIndex((e) => e.id === c.layer);
    const covered = i >= 0 && elements.slice(i + 1).some((e) => !e.hidden);
    const query = { scale: fmt(scale), part: 'rest' };
    if (region) query.region = region.map(fmt).join(',');
    p = Promise.all([
      api.request('GET', path, { query }),
      // The stroke alone no larger than an element's sprite may be (a long stroke zoomed in).
      api.request('GET', path, { query: { scale: fmt(spriteScale({ drawn: c.bounds }, scale)) } }),
      !covered ? null : region ? api.renderRegion(st.pageId, scale, region, c.layer, 'above') : api.render(st.pageId, scale, c.layer, 'above'),
    ]).then(async ([rest, alone, above]) => {
      const rect = (h) => { const r = (alone.headers.get(h) || '').split(',').map(Number); return r.length === 4 && r.every(Number.isFinite) ? r : null; };
      const regionRect = (rest.headers.get('X-Techo-Region') || '').split(',').map(Number);
      return {
        scale,
        rect: region ? regionRect : null,
        backdrop: await createImageBitmap(await rest.blob()),
        sprite: await createImageBitmap(await alone.blob()),
        spriteRect: rect('X-Techo-Sprite'),
        above: above ? await createImageBitmap(above.blob || above) : null,
        blend: c.tool === 'highlighter' ? 'multiply' : 'source-over',
      };
    });
    p.catch(() => this.cache.delete(key));
    if (this.cache.size > 6) this.cache.delete(this.cache.keys().next().value);
    this.cache.set(key, p);
    return p;
  }

  /**
   * A drag of the picked stroke begins: the stroke itself follows the pointer, drawn on the
   * overlay over the page without it (and, zoomed in, at the screen's resolution over the part
   * on screen), as an element does during a live drag. `drag(offset)` moves it, at most one
   * redraw a frame; the release sends one `gesture` (`move`).
   */
  beginDrag() {
    const c = this.current;
    if (!c) return;
    this.endDrag();
    const view = this.view, editor = this.editor;
    const d = this.dragging = { id: c.id, offset: [0, 0], assets: null, sharp: null, frame: 0 };
    editor.state.beginGesture();
    d.ended = false;
    const redraw = () => { if (this.dragging === d) this.scheduleDraw(); };
    this.prepare(c, view.scale).then((a) => { d.assets = a; redraw(); }).catch(() => {});
    const sharp = editor.gestures && editor.gestures.sharpView();
    if (sharp) this.prepare(c, sharp.scale, sharp.region).then((a) => { d.sharp = a; redraw(); }).catch(() => {});
  }

  /** The dragged stroke is `offset` (page pixels) from where it was. */
  drag(offset) {
    const d = this.dragging;
    this.show(offset);
    if (!d) return;
    d.offset = offset;
    this.scheduleDraw();
  }

  scheduleDraw() {
    const d = this.dragging;
    if (!d || d.frame) return;
    d.frame = requestAnimationFrame(() => { d.frame = 0; if (this.dragging === d) this.drawDrag(d); });
  }

  drawDrag(d) {
    const view = this.view, [dx, dy] = d.offset;
    const m = [1, 0, 0, 1, dx, dy];
    const a = d.assets;
    if (a && a.spriteRect) view.drawLive(a.backdrop, a.sprite, a.spriteRect, m, a.above, a.blend);
    const s = d.sharp;
    if (a && s && s.rect && s.spriteRect) view.drawLiveSharp(s, m);
  }

  /** The drag is over: nothing more is drawn (the overlay stays until the new render replaces it). */
  endDrag() {
    const d = this.dragging;
    if (!d) return null;
    if (d.frame) cancelAnimationFrame(d.frame);
    this.dragging = null;
    this.editor.state.endGesture();
    return d;
  }

  /** A drag that changes nothing: the stroke is back where it was. */
  cancelDrag() {
    if (this.endDrag()) this.view.clearOverlay();
    this.show();
  }

  /** Moves the stroke by (dx, dy) page pixels: one `gesture`, one history step. */
  move(dx, dy) {
    const c = this.current;
    const d = this.dragging;
    if (!c || (dx === 0 && dy === 0)) { this.cancelDrag(); return Promise.resolve(); }
    // The last position drawn, then held until the new render takes the overlay's place.
    if (d) { d.offset = [dx, dy]; if (d.frame) cancelAnimationFrame(d.frame); d.frame = 0; this.drawDrag(d); }
    const st = this.editor.state;
    const view = this.view;
    return this.editor.change(async () => {
      try {
        await this.editor.api.json('POST', `/api/pages/${encodeURIComponent(st.pageId)}/strokes/${encodeURIComponent(c.id)}/gesture`, {
          json: { events: [{ gesture: 'pan', state: 'changed', translation: [dx, dy] }] },
        });
        await this.editor.refresh(() => view.clearOverlay({ keepSharp: true }));
      } finally {
        this.endDrag();
      }
    }, () => { this.cancelDrag(); });
  }

  /** Sets the stroke's colour or width (`fields`): one `set`, one history step. */
  restyle(fields) {
    const c = this.current;
    if (!c) return Promise.resolve();
    const st = this.editor.state;
    return this.editor.change(async () => {
      await this.editor.api.json('PATCH', `/api/pages/${encodeURIComponent(st.pageId)}/strokes/${encodeURIComponent(c.id)}`, { json: fields });
      await this.editor.refresh();
    });
  }

  /** Deletes the stroke: one `rm`, one history step. */
  remove() {
    const c = this.current;
    if (!c) return Promise.resolve();
    const st = this.editor.state;
    this.current = null;
    this.show();
    return this.editor.change(async () => {
      await this.editor.api.json('DELETE', `/api/pages/${encodeURIComponent(st.pageId)}/strokes/${encodeURIComponent(c.id)}`);
      await this.editor.refresh();
    });
  }

  /** Removes whole strokes `ids` as one history step (the stroke eraser's drag). */
  erase(ids) {
    const st = this.editor.state;
    if (this.current && ids.includes(this.current.id)) { this.current = null; this.show(); }
    return this.editor.change(async () => {
      await this.editor.api.json('POST', `/api/pages/${encodeURIComponent(st.pageId)}/strokes/erase`, { json: { ids } });
      await this.editor.refresh(() => this.editor.view.clearOverlay());
    }, () => this.editor.view.clearOverlay());
  }
}

/** Whether the page's answer lists any stroke (each ink layer's `strokes` is its count). */
export function pageHasStrokes(data) {
  const els = data && data.page && data.page.elements;
  return !!els && els.some((e) => e.type === 'ink' && (typeof e.strokes === 'number' ? e.strokes > 0 : (e.strokes || []).length > 0));
}

function fmt(n) { return String(Math.round(n * 10000) / 10000); }
