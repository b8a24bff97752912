// The gesture in flight: the element follows the pointer on the overlay while the gesture lasts,
// and the whole gesture is sent as one replay (one history step) when it ends.
//
// GestureTrack is the pure part (no DOM, tested on its own against techo's model): the live
// transform after each §3 event and the list of events that will be sent. LiveGesture draws a
// track on the overlay at most once a frame; LiveGestures fetches what the overlay draws
// (backdrop and sprite, once per revision) and sends the replay.

import { applyEvent, identity, invert, multiply } from './matrix.js';

/** The largest sprite fetched, device pixels a side and in all: under every engine's canvas and image limits (WebKit's canvas holds 16 Mi pixels). */
export const SPRITE_MAX_SIDE = 8192;
export const SPRITE_MAX_PIXELS = 16 * 1024 * 1024;

/**
 * The scale to fetch an element's sprite at for a view at `scale`: that scale, or less when the
 * sprite would be over the limits (a long text, a large sticker zoomed in), so every element
 * still follows the pointer, drawn from a softer picture. `el.drawn` is the page box of all it
 * draws; the unturned sprite is no wider than its diagonal and no larger than its area.
 */
export function spriteScale(el, scale) {
  const d = el && el.drawn;
  if (!d || !(d[2] > 0) || !(d[3] > 0)) return scale;
  const side = SPRITE_MAX_SIDE / Math.hypot(d[2], d[3]);
  const area = Math.sqrt(SPRITE_MAX_PIXELS / (d[2] * d[3]));
  return Math.min(scale, side, area);
}

/**
 * What a gesture has done so far to an element whose transform was `transform` when it began.
 * `apply(events)` takes §3 recognizer events in order; `m` is the live transform (each event
 * composed the way techo's model composes it), `events` the replay that will be sent.
 */
export class GestureTrack {
  /** `rotate`: the element's stored rotation in degrees (its sprite is drawn unrotated). */
  constructor(transform, rotate = 0) {
    this.start = transform.slice();
    this.m = transform.slice();
    this.events = [];
    // The sprite is the element with its own scale and flips but unrotated, its rectangle in page
    // pixels about the centre: it is drawn under G·U0, where G is what the gesture did so far
    // (m · M0⁻¹) and U0 = translate(centre) · rotate(stored rotation).
    const theta = (rotate * Math.PI) / 180;
    this.u0 = [Math.cos(theta), Math.sin(theta), -Math.sin(theta), Math.cos(theta), transform[4], transform[5]];
    this.m0inv = invert(transform) || identity;
  }

  apply(events) {
    for (const ev of events) {
      this.events.push(ev);
      this.m = applyEvent(this.m, ev);
    }
  }

  /** Starts again from the gesture's beginning with `events` (a handle drag's one event). */
  replace(events) {
    this.m = this.start.slice();
    this.events = [];
    this.apply(events);
  }

  /** The matrix that maps the sprite's rectangle (page pixels about the centre) onto the page. */
  spriteMatrix() { return multiply(multiply(this.m, this.m0inv), this.u0); }
}

/**
 * One element under a live transform. `apply(events)` moves it by §3 events; the overlay redraws
 * at most once a frame and never asks the server anything.
 */
export class LiveGesture {
  constructor(gestures, element, rotate) {
    this.gestures = gestures;
    this.element = element;
    this.track = new GestureTrack(element.transform, rotate);
    this.assets = null;
    this.sharp = null;             // zoomed in: the same at the screen's resolution (prepareSharp)
    this.frame = 0;
    this.done = false;
  }

  /** The live transform. */
  get m() { return this.track.m; }

  /** The events so far: the replay sent when the gesture ends. */
  get events() { return this.track.events; }

  apply(events) {
    this.track.apply(events);
    this.schedule();
  }

  replace(events) {
    this.track.replace(events);
    this.schedule();
  }

  schedule() {
    if (this.frame || this.done) return;
    this.frame = requestAnimationFrame(() => { this.frame = 0; this.draw(); });
  }

  draw() {
    const view = this.gestures.view;
    const h = view.handle(this.element.id);
    if (h) view.placeHandle(h, this.element, this.track.m);
    this.gestures.onFrame(this.element, this.track.m);
    if (this.assets && this.assets.rect) {
      view.drawLive(this.assets.backdrop, this.assets.sprite, this.assets.rect, this.track.spriteMatrix(), this.assets.above);
    }
    // Zoomed in, the visible part again at the screen's resolution, over the fitted one.
    if (this.sharp && this.sharp.rect) view.drawLiveSharp(this.sharp, this.track.spriteMatrix());
  }

  /** Puts the element back and sends nothing (a cancelled recognizer changes nothing). */
  abort() {
    this.finish();
    const view = this.gestures.view;
    view.clearOverlay();
    const h = view.handle(this.element.id);
    if (h) view.placeHandle(h, this.element, this.element.transform);
    this.gestures.onFrame(this.element, this.element.transform);
    this.gestures.state.endGesture();
  }

  finish() {
    this.done = true;
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = 0;
  }
}

/**
 * Starts live gestures and commits them. `change(fn, undoView)` is the editor's queue of changes
 * (so a gesture reaches the server after the edits before it).
 */
export class LiveGestures {
  constructor({ api, state, view, change }) {
    this.api = api;
    this.state = state;
    this.view = view;
    this.change = change;
    this.cache = new Map();     // key -> Promise of {backdrop, sprite, rect}
    // Figures the browser tests read: ms from a gesture's end to its new render on screen.
    this.timings = [];
    // Called with (element, live transform) each frame the overlay draws (the selection frame).
    this.onFrame = () => {};
    // What a sharp picture of the view needs, `{scale, region}`, or null when the fitted render
    // is sharp enough (zoom.js's sharpView).
    this.sharpView = () => null;
  }

  /**
   * What the overlay draws, fetched once per revision: the backdrop (the page under the
   * element), the element's sprite, and what lies over it (null when nothing does), so the
   * element keeps its place in the stack while it moves.
   */
  prepare(id) {
    const state = this.state;
    const key = `${state.pageId}|${id}|${state.revision}|${this.view.scale}`;
    let p = this.cache.get(key);
    if (!p) {
      const page = state.pageId, scale = this.view.scale;
      const elements = state.pageData ? state.pageData.elements : [];
      const i = elements.findIndex((e) => e.id === id);
      const covered = i >= 0 && elements.slice(i + 1).some((e) => !e.hidden);
      p = Promise.all([
        this.api.render(page, scale, id, 'below'),
        this.api.sprite(page, id, spriteScale(elements[i], scale)),
        covered ? this.api.render(page, scale, id, 'above') : null,
      ])
        .then(async ([backdrop, sprite, above]) => ({
          backdrop: await createImageBitmap(backdrop),
          sprite: await createImageBitmap(sprite.blob),
          rect: sprite.rect,
          above: above ? await createImageBitmap(above) : null,
        }));
      p.catch(() => this.cache.delete(key));
      if (this.cache.size > 8) this.cache.delete(this.cache.keys().next().value);
      this.cache.set(key, p);
    }
    return p;
  }

  /**
   * The same three pictures for a zoomed-in view, at the screen's resolution and only for the
   * part of the page on screen (`sharp`: `{scale, region}`): the layers below and above as region
   * renders, the sprite at that scale. `rect` is the device-pixel rectangle of the whole render
   * at `scale` the layers cover. Fetched once per revision, zoom and visible part.
   */
  prepareSharp(id, sharp) {
    const state = this.state;
    const region = sharp.region.map((n) => Math.round(n)).join(',');
    const key = `${state.pageId}|${id}|${state.revision}|${sharp.scale}|${region}`;
    let p = this.cache.get(key);
    if (!p) {
      const page = state.pageId, scale = sharp.scale;
      const elements = state.pageData ? state.pageData.elements : [];
      const i = elements.findIndex((e) => e.id === id);
      const covered = i >= 0 && elements.slice(i + 1).some((e) => !e.hidden);
      p = Promise.all([
        this.api.renderRegion(page, scale, sharp.region, id, 'below'),
        this.api.sprite(page, id, spriteScale(elements[i], scale)),
        covered ? this.api.renderRegion(page, scale, sharp.region, id, 'above') : null,
      ])
        .then(async ([below, sprite, above]) => ({
          scale,
          rect: below.rect,
          backdrop: await createImageBitmap(below.blob),
          sprite: await createImageBitmap(sprite.blob),
          spriteRect: sprite.rect,
          above: above ? await createImageBitmap(above.blob) : null,
        }));
      p.catch(() => this.cache.delete(key));
      if (this.cache.size > 8) this.cache.delete(this.cache.keys().next().value);
      this.cache.set(key, p);
    }
    return p;
  }

  /** Drops the fetched backdrops and sprites (another page, another size). */
  forget() { this.cache.clear(); }

  /** Starts showing `element` (as the page's answer lists it) under a live transform. */
  start(element) {
    this.state.beginGesture();
    const live = new LiveGesture(this, element, this.state.storedElement(element.id).rotate || 0);
    this.prepare(element.id).then((a) => { live.assets = a; if (!live.done) live.schedule(); }).catch(() => {});
    const sharp = this.sharpView();
    if (sharp) this.prepareSharp(element.id, sharp).then((a) => { live.sharp = a; if (!live.done) live.schedule(); }).catch(() => {});
    return live;
  }

  /** Sends one gesture replay (one history step) and swaps in the new render. */
  commit(id, events, live) {
    const t0 = performance.now();
    if (live) { live.finish(); live.draw(); }
    return this.change(async () => {
      try {
        await this.api.gesture(this.state.pageId, id, events);
        // Timed in the frame the new render takes the overlay's place (what the panels do after
        // it is not the render's latency).
        await this.state.refresh(() => { this.view.clearOverlay({ keepSharp: true }); this.timings.push(performance.now() - t0); });
      } finally {
        if (live) this.state.endGesture();
      }
    }, () => { if (live) live.abort(); });
  }
}

/**
 * Several elements and strokes under one live transform (a group's drag, pinch, turn or handle
 * drag): one track for the group's box, each member drawn from its own sprite under what the
 * gesture did so far, over the page rendered without any of them (`render?without=ID,SID,…`,
 * once per revision). A stroke's sprite is the stroke alone over its drawn bounds
 * (`…/strokes/SID/render`, the one a single stroke's drag draws), a highlighter multiplied as
 * the renderer composites it. The members are drawn in their stacking order (a stroke where its
 * ink layer lies) over the rest of the page while the gesture lasts (an element lying between
 * two members shows under them until the release's render); the frame and every element
 * member's outline follow. The release sends one group gesture, one history step.
 */
export class GroupLive {
  /**
   * `group`: groupBox's element-like box; `members`: the elements as the page's answer lists
   * them; `strokes`: the stroke members as `GET …/strokes` lists them.
   */
  constructor(gestures, group, members, onFrame, strokes = []) {
    this.gestures = gestures;
    this.element = group;
    this.members = members;
    this.strokes = strokes;
    this.onFrame = onFrame;
    this.group = true;
    this.track = new GestureTrack(group.transform, 0);
    this.assets = null;
    this.frame = 0;
    this.done = false;
  }

  get m() { return this.track.m; }
  get events() { return this.track.events; }
  apply(events) { this.track.apply(events); this.schedule(); }
  replace(events) { this.track.replace(events); this.schedule(); }
  schedule() {
    if (this.frame || this.done) return;
    this.frame = requestAnimationFrame(() => { this.frame = 0; this.draw(); });
  }

  /** What the gesture has done so far, as a page matrix (the live transform of each member is G · its own). */
  get g() { return multiply(this.track.m, this.track.m0inv); }

  draw() {
    const view = this.gestures.view;
    const g = this.g;
    for (const el of this.members) {
      const h = view.handle(el.id);
      if (h) view.placeHandle(h, el, multiply(g, el.transform));
    }
    this.onFrame(this.element, this.track.m);
    const a = this.assets;
    if (!a) return;
    const ctx = view.context();
    const sx = view.overlay.width / view.page.width, sy = view.overlay.height / view.page.height;
    ctx.clearRect(0, 0, view.overlay.width, view.overlay.height);
    const rh = view.overlay.height * (view.page.storedHeight ?? view.page.height) / view.page.height;
    ctx.drawImage(a.backdrop, 0, 0, view.overlay.width, rh);
    ctx.imageSmoothingQuality = 'high';
    for (const s of a.sprites) {
      const t = multiply([sx, 0, 0, sy, 0, 0], multiply(g, s.u0));
      ctx.setTransform(t[0], t[1], t[2], t[3], t[4], t[5]);
      ctx.globalCompositeOperation = s.blend || 'source-over';
      ctx.drawImage(s.sprite, s.rect[0], s.rect[1], s.rect[2], s.rect[3]);
    }
    ctx.globalCompositeOperation = 'source-over';
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    view.frame.classList.add('live');
  }

  abort() {
    this.finish();
    const view = this.gestures.view;
    view.clearOverlay();
    for (const el of this.members) {
      const h = view.handle(el.id);
      if (h) view.placeHandle(h, el, el.transform);
    }
    this.onFrame(this.element, this.element.transform);
    this.gestures.state.endGesture();
  }

  finish() {
    this.done = true;
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = 0;
  }
}

/**
 * The pictures a group's gesture draws: the page without the members (elements and strokes),
 * and each member's sprite in stacking order (`u0`: the sprite's matrix before the gesture; a
 * stroke's sprite is already in page pixels).
 */
export function prepareGroup(gestures, members, strokes = []) {
  const { api, state, view } = gestures;
  const ids = [...members.map((e) => e.id), ...strokes.map((s) => s.id)];
  const key = `${state.pageId}|group:${ids.join(',')}|${state.revision}|${view.scale}`;
  let p = gestures.cache.get(key);
  if (!p) {
    const page = state.pageId, scale = view.scale;
    const elements = state.pageData ? state.pageData.elements : [];
    const place = (id) => elements.findIndex((e) => e.id === id);
    const strokePath = (sid) => `/api/pages/${encodeURIComponent(page)}/strokes/${encodeURIComponent(sid)}/render`;
    p = Promise.all([
      api.render(page, scale, ids.join(',')).then((b) => createImageBitmap(b)),
      ...members.map((el) => api.sprite(page, el.id, spriteScale(el, scale)).then(async (s) => {
        const theta = ((state.storedElement(el.id).rotate || 0) * Math.PI) / 180;
        const u0 = [Math.cos(theta), Math.sin(theta), -Math.sin(theta), Math.cos(theta), el.transform[4], el.transform[5]];
        return { sprite: await createImageBitmap(s.blob), rect: s.rect, u0, order: place(el.id) };
      })),
      ...strokes.map((st, i) => api.request('GET', strokePath(st.id), { query: { scale: String(Math.round(spriteScale({ drawn: st.bounds }, scale) * 10000) / 10000) } }).then(async (res) => {
        const rect = (res.headers.get('X-Techo-Sprite') || '').split(',').map(Number);
        if (rect.length !== 4 || !rect.every(Number.isFinite)) throw new Error(`stroke ${st.id}: no X-Techo-Sprite`);
        // In its layer's place; within a layer, pens over highlighters (as drawn), each in order.
        const order = place(st.layer) + (st.tool === 'highlighter' ? 0.25 : 0.5) + i * 1e-6;
        return { sprite: await createImageBitmap(await res.blob()), rect, u0: [1, 0, 0, 1, 0, 0], order, blend: st.tool === 'highlighter' ? 'multiply' : 'source-over' };
      })),
    ]).then(([backdrop, ...sprites]) => ({ backdrop, sprites: sprites.sort((x, y) => x.order - y.order) }));
    p.catch(() => gestures.cache.delete(key));
    if (gestures.cache.size > 8) gestures.cache.delete(gestures.cache.keys().next().value);
    gestures.cache.set(key, p);
  }
  return p;
}
