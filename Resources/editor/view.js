// What is on screen: the page frame sized to the window, techo's render inside it, the overlay
// canvas for the live gesture or stroke, and one focusable handle per element (the selected one
// marked). The view holds no journal truth; it shows what the server last said.

import { visibleRegion } from './camera.js';
import { multiply } from './matrix.js';

/**
 * The largest picture of the paper below that is drawn again at the screen's resolution when
 * zoomed in: the server's limits for a region render (8192 device pixels a side, 16 Mi pixels),
 * which a screen's worth is well within; a larger screen gets that much around its middle and
 * the fitted paper beyond.
 */
const SHARP_PAPER_SIDE = 8192, SHARP_PAPER_PIXELS = 16 << 20;

/**
 * The renderer's rule for a ruling across a page `W` device pixels wide at `S` device pixels per
 * page pixel (PageRenderer+Background): its colour, spacing and margin in device pixels, the
 * columns (whole spacings centred within the side margins), the dot radius (4 % of the
 * spacing), the hairline (2.2 % of it in whole device pixels, at least one), `snap` (a line's
 * position to its pixel edge), and where a row's line starts and ends (a grid's on its outermost
 * columns, lines' at the margins). Null when no column fits or the spacing is under a pixel.
 */
function rulingAcross(paper, S, W) {
  const step = Number(paper.spacing) * S, margin = Math.max(0, Number(paper.margin) || 0) * S;
  const areaW = W - 2 * margin;
  if (!(step >= 1) || !(areaW > 0)) return null;
  const cols = Math.floor(areaW / step), first = margin + (areaW - cols * step) / 2;
  const xs = Array.from({ length: cols + 1 }, (_, i) => first + i * step);
  const t = Math.max(1, Math.round(step * 0.022));
  const snap = (v) => Math.round(v - t / 2);
  const grid = paper.pattern === 'grid';
  return {
    color: typeof paper.color === 'string' && /^#[0-9a-fA-F]{3,8}$/.test(paper.color) ? paper.color : '#cbbfae',
    step, margin, xs, radius: Math.max(0.6, step * 0.04), t, snap,
    left: grid ? snap(xs[0]) : Math.round(margin),
    right: grid ? snap(xs[xs.length - 1]) + t : Math.round(W - margin),
  };
}

export class View {
  constructor(doc) {
    this.doc = doc;
    this.stage = doc.getElementById('stage');
    this.frame = doc.getElementById('page');
    this.handles = doc.getElementById('handles');
    this.overlay = doc.getElementById('overlay');
    this.status = doc.getElementById('status');
    this.render = null;            // the <img> showing techo's render
    this.page = null;              // {id, width, height, endless}
    this.cssWidth = 0;
    this.cssHeight = 0;
    this.statusTimer = 0;
    this.zoom = 1;                 // the camera's zoom (camera.js): 1 = the page fits the stage
    this.fitWidth = 0;             // the page's CSS width at zoom 1
    this.reach = 0;                // an endless page: how far down (page px) the pen has gone
    this.sharpPaper = null;        // zoomed in: the paper below on screen at its resolution (sharpenPaper)
    this.sharpPaperSeq = 0;
    this.sharpPaperTimer = 0;
    // A pan shows other paper: it is drawn again once the panning pauses, as the page is (zoom.js).
    this.stage.addEventListener('scroll', () => this.scheduleSharpPaper(120), { passive: true });
  }

  get dpr() { return window.devicePixelRatio || 1; }

  /** CSS pixels per page pixel. */
  get k() { return this.page ? this.cssWidth / this.page.width : 1; }

  /**
   * Device pixels per page pixel of the whole-page render and the overlay (0 < S ≤ 4): those of
   * the fitted page, whatever the zoom (zoom.js adds a sharp render of what is visible).
   */
  get scale() { return Math.min(4, Math.max(1e-3, (this.page ? this.fitWidth / this.page.width : 1) * this.dpr)); }

  /**
   * Fits the page to the stage: the whole page for a fixed page, the stage's width for an endless
   * one (which then scrolls). The frame's box is exactly the page (§11), a whole number of CSS
   * pixels wide so the render maps onto device pixels one to one.
   */
  layout(page) {
    if (page.endless) page = this.endlessView(page);
    const style = getComputedStyle(this.stage);
    const padX = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
    const padY = parseFloat(style.paddingTop) + parseFloat(style.paddingBottom);
    const availW = Math.max(50, this.stage.clientWidth - padX);
    const availH = Math.max(50, this.stage.clientHeight - padY);
    const fitW = page.endless ? availW : Math.min(availW, availH * page.width / page.height);
    // Never ask for more than 4 device pixels per page pixel.
    const maxW = 4 * page.width / this.dpr;
    if (!this.page || this.page.id !== page.id) this.zoom = 1;
    this.page = page;
    this.fitWidth = Math.max(1, Math.floor(Math.min(fitW, maxW)));
    // Zoomed, the box is the page as zoomed (the camera scrolls the stage to pan).
    this.cssWidth = Math.max(1, Math.round(this.fitWidth * this.zoom));
    this.cssHeight = this.cssWidth * page.height / page.width;
    this.frame.style.width = `${this.cssWidth}px`;
    this.frame.style.height = `${this.cssHeight}px`;
    // The render covers the page as stored; an endless page's view goes on below it (paper).
    this.frame.style.setProperty('--render-h', `${(100 * (page.storedHeight ?? page.height)) / page.height}%`);
    this.frame.dataset.techoPage = page.id;
    this.frame.dataset.techoZoom = String(Number((this.cssWidth / this.fitWidth).toFixed(4)));
    this.frame.setAttribute('aria-label', `Page ${page.id}`);
    this.stage.classList.toggle('endless', !!page.endless);
    // Set only when it changes: setting a canvas's size clears it (a zoom keeps the overlay's).
    const ow = Math.round(this.fitWidth * this.dpr), oh = Math.round(this.fitWidth * page.height / page.width * this.dpr);
    if (this.overlay.width !== ow) this.overlay.width = ow;
    if (this.overlay.height !== oh) this.overlay.height = oh;
    this.drawPaperBelow();
  }

  /**
   * An endless page as the editor shows it: its stored height (its content and margin, what the
   * renders cover) and below it at least one screen of paper, more where the pen has gone, so
   * there is always room to write on. The page's stored size does not change: a stroke drawn
   * below grows it, as the format says.
   */
  endlessView(page) {
    if (!this.page || this.page.id !== page.id) this.reach = 0;
    const stored = page.storedHeight ?? page.height;
    const w = Math.max(1, this.stage.clientWidth), screen = (this.stage.clientHeight / w) * page.width;
    return { ...page, storedHeight: stored, height: Math.ceil(Math.max(stored, this.reach) + screen) };
  }

  /**
   * The pen reached page y on an endless page: when that is within half a screen of the view's
   * end, the view grows (a screen of paper below y). True when it grew.
   */
  growTo(y) {
    const p = this.page;
    if (!p || !p.endless || !Number.isFinite(y)) return false;
    const screen = (this.stage.clientHeight / Math.max(1, this.cssWidth)) * p.width;
    if (y < p.height - screen / 2) return false;
    this.reach = Math.max(this.reach, y);
    this.layout({ ...p, height: p.storedHeight });
    return true;
  }

  /**
   * The paper shows where an endless page's view goes on below its render: the background's
   * colour, and its ruling (dots, lines or a grid) continued row after row below the render
   * with the render's own rule (PageRenderer+Background): the same columns (whole spacings
   * centred within the side margins), rows one spacing apart from the top margin as the
   * render's (which runs its ruling on to its foot, so the two join), the same dot radius and
   * hairline width, at the render's resolution, and again at the screen's when zoomed in
   * (`sharpenPaper`). A background picture goes on as the renderer draws it (`drawPictureBelow`).
   */
  paper(background) {
    const c = background && typeof background.color === 'string' ? background.color : '';
    this.frame.style.backgroundColor = /^#[0-9a-fA-F]{3,8}$/.test(c) ? c : '';
    this.background = background || null;
    this.paperKey = '';
    this.drawPaperBelow();
  }

  /** Whether the page's background has a picture (which the paper below then continues). */
  hasBackgroundPicture() {
    return !!(this.background && typeof this.background.image === 'string' && this.background.image);
  }

  /** What the sharp paper below depends on besides the view: the page, its background, its stored height. */
  paperLook(p, stored) { return `${p.id}|${JSON.stringify(this.background)}|${stored}`; }

  /** The ruled paper below an endless page's render (see `paper`); called after each layout. */
  drawPaperBelow() {
    let below = this.paperBelow;
    const p = this.page;
    const paper = this.background && this.background.paper;
    const picture = this.hasBackgroundPicture();
    const stored = p ? p.storedHeight ?? p.height : 0;
    const ruled = !!(paper && ['dots', 'lines', 'grid'].includes(paper.pattern));
    const show = !!(p && p.endless && (ruled || picture) && p.height > stored);
    if (!show) { if (below) below.hidden = true; this.dropSharpPaper(); return; }
    if (!below) {
      below = this.paperBelow = this.doc.createElement('div');
      below.className = 'paper-below';
      below.setAttribute('aria-hidden', 'true');
      Object.assign(below.style, { position: 'absolute', left: '0', right: '0', bottom: '0', pointerEvents: 'none' });
      this.frame.prepend(below);
    }
    below.hidden = false;
    // The sharp paper follows the view at once (placed in page pixels, so it lines up at any
    // zoom until it is drawn again); another page, background or content height takes it away.
    const look = this.paperLook(p, stored);
    if (this.sharpPaper && this.sharpPaper.look !== look) this.dropSharpPaper();
    this.placeSharpPaper();
    this.scheduleSharpPaper(100);
    if (picture) { this.drawPictureBelow(below, stored); return; }
    below.style.backgroundRepeat = 'repeat-y';
    const k = this.k, scale = this.scale;
    const step = Number(paper.spacing), margin = Math.max(0, Number(paper.margin) || 0);
    const W = p.width;
    below.style.top = `${stored * k}px`;
    if (!(step * scale >= 1) || !(W - 2 * margin > 0) || !(stored > 0)) { below.style.backgroundImage = 'none'; return; }
    // The render's rows: on an endless page they start at the top margin (so they stay put as
    // the page grows); below the stored height they go on one spacing apart.
    const first = margin;
    const next = first + Math.ceil((stored - first) / step) * step;
    const key = `${paper.pattern}|${paper.color}|${step}|${margin}|${W}|${scale}`;
    if (this.paperKey !== key) {
      this.paperKey = key;
      this.dropPictureBelow();
      // One row, its ruling in the middle of a tile one spacing tall, the page's width across.
      const tw = Math.max(1, Math.round(W * scale)), th = Math.max(1, Math.round(step * scale));
      const t = this.doc.createElement('canvas');
      t.width = tw;
      t.height = th;
      const ctx = t.getContext('2d');
      const r = rulingAcross(paper, tw / W, tw);
      const cy = th / 2;
      if (r) ctx.fillStyle = r.color;
      if (!r) {
        // Finer than a pixel at the tile's own scale: nothing ruled.
      } else if (paper.pattern === 'dots') {
        for (const x of r.xs) { ctx.beginPath(); ctx.arc(x, cy, r.radius, 0, 2 * Math.PI); ctx.fill(); }
      } else {
        ctx.fillRect(r.left, r.snap(cy), r.right - r.left, r.t);
        if (paper.pattern === 'grid') for (const x of r.xs) ctx.fillRect(r.snap(x), 0, r.t, th);
      }
      below.style.backgroundImage = `url(${t.toDataURL()})`;
    }
    below.style.backgroundSize = `100% ${step * k}px`;
    below.style.backgroundPositionY = `${(next - step / 2 - stored) * k}px`;
  }

  /**
   * An endless page with a background picture: the paper below its render is the renderer's own
   * picture of those rows once the page has grown to the view's height, rounded up to whole
   * ruling spacings (`render?height=H` over the region below the stored height, at the render's
   * resolution; `data-techo-picture` is that H), so a tiled picture goes on in phase with the
   * render, under ruling in phase with the render's, at the picture's opacity over the colour; one
   * fitted to the page (cover, contain, stretch, centre) shows as it will once the page is that
   * tall. Fetched again when the page, its background, the view's height or the scale change;
   * until the new one arrives the last one stays (the colour where it does not reach).
   */
  drawPictureBelow(below, stored) {
    const p = this.page, k = this.k, scale = this.scale;
    const W = p.width, H = Math.ceil(p.height);
    // The page grown by whole spacings of its ruling, so the picture is asked for again only
    // once the view has grown by a spacing (the rows of an endless page start at its top margin
    // whatever its height); a tiled background goes on from the page's origin.
    const paper = this.background.paper, step = Number(paper && paper.spacing);
    const ruled = paper && ['dots', 'lines', 'grid'].includes(paper.pattern) && step > 0;
    // (A page's height is a whole number of pixels, as a grown page's is.)
    const grown = ruled ? Math.max(H, Math.round(stored + Math.ceil((H - stored) / step) * step)) : H;
    this.pictureGrown = grown;
    // A region render is at most 8192 device px a side and 16 Mi pixels: further down, the colour.
    const maxH = Math.floor(Math.min(8192, (16 << 20) / Math.max(1, Math.ceil(W * scale))) / scale) - 1;
    const h = Math.min(H - stored, maxH);
    below.style.top = `${stored * k}px`;
    below.style.backgroundRepeat = 'no-repeat';
    const look = `${p.id}|${JSON.stringify(this.background)}`;
    const key = `${look}|${stored}|${grown}|${W}|${scale}`;
    // Another page's or another background's picture goes at once; the same one grown stays.
    if (this.pictureBelow && this.pictureBelow.look !== look) this.dropPictureBelow();
    const place = () => {
      const pic = this.pictureBelow;
      if (!pic) return;
      // From the strip's own first row (a whole device pixel, at or just above the stored
      // height), so the picture lands on device pixels one to one, unresampled.
      const [, y, w, ph] = pic.rect.map((n) => n / pic.scale);
      below.style.top = `${y * k}px`;
      below.style.backgroundSize = `${w * k}px ${ph * k}px`;
      below.style.backgroundPositionY = '0px';
    };
    place();
    if (this.pictureKey === key || !(h > 0) || !this.paperSource) return;
    this.pictureKey = key;
    const seq = this.pictureSeq = (this.pictureSeq || 0) + 1;
    this.paperSource(p.id, scale, [0, stored, W, h], grown).then((answer) => {
      if (seq !== this.pictureSeq || this.paperBelow !== below) return;
      this.dropPictureBelow();
      this.pictureKey = key;
      const url = URL.createObjectURL(answer.blob);
      this.pictureBelow = { url, rect: answer.rect, scale, stored, look };
      below.style.backgroundImage = `url(${url})`;
      below.dataset.techoPicture = String(grown);
      place();
    }, () => { if (seq === this.pictureSeq) this.pictureKey = ''; });
  }

  /**
   * Zoomed in, the paper below an endless page's render is drawn again over the part of it on
   * screen, and a quarter of a screen around it, at the screen's resolution (device pixels per
   * page pixel, at most 4 as the page's renders), as zoom.js renders the page itself again: the
   * ruling drawn here by the renderer's rule in the page's device pixels at that scale (each
   * row and column snapped as the render snaps it, so it is the server's render of those rows),
   * or, under a background picture, the server's render of that region of the page grown as
   * `drawPictureBelow` asks for it. The fitted paper below stays under it, so nothing is
   * missing where a pan or a zoom shows paper it does not cover yet; it is drawn again once the
   * view pauses (100 ms after a zoom, 120 ms after a pan). At most SHARP_PAPER_SIDE device
   * pixels a side and SHARP_PAPER_PIXELS in all.
   */
  sharpenPaper() {
    const p = this.page, below = this.paperBelow;
    const S = Math.min(4, this.k * this.dpr);
    if (!p || !p.endless || !below || below.hidden || !(S > this.scale * 1.02)) { this.dropSharpPaper(); return; }
    const stored = p.storedHeight ?? p.height;
    const seen = visibleRegion(this.frame.getBoundingClientRect(), this.stage.getBoundingClientRect(), p.width, p.height);
    // None of the paper below on screen: what was drawn stays until some is.
    if (!seen || seen[1] + seen[3] <= stored) return;
    const look = this.paperLook(p, stored);
    const W = Math.round(p.width * S);
    // From the render's last whole row (at or just above the stored height), as the fitted picture
    // below is: under the render, so no row of the fitted paper shows between the two.
    const top = Math.floor(stored * S), foot = Math.floor(p.height * S);
    // The part on screen in the page's device pixels, below the render.
    const on = [Math.floor(seen[0] * S), Math.max(top, Math.floor(seen[1] * S)),
      Math.ceil((seen[0] + seen[2]) * S), Math.min(foot, Math.ceil((seen[1] + seen[3]) * S))];
    const have = this.sharpPaper;
    if (have && have.look === look && have.scale === S && have.rect[0] <= on[0] && have.rect[1] <= on[1] &&
      have.rect[2] >= on[2] && have.rect[3] >= on[3]) return;
    if (!(on[3] > on[1])) return;
    // A quarter screen around, within the page and the limits (kept about the part on screen).
    const mx = Math.round((on[2] - on[0]) / 4), my = Math.round((on[3] - on[1]) / 4);
    const fit = (lo, hi, min, max, most) => {
      let a = Math.max(min, lo), b = Math.min(max, hi);
      if (b - a > most) { const c = (lo + hi) / 2; a = Math.max(min, Math.round(c - most / 2)); b = Math.min(max, a + most); }
      return [a, b];
    };
    const [x0, x1] = fit(on[0] - mx, on[2] + mx, 0, W, SHARP_PAPER_SIDE);
    const most = Math.min(SHARP_PAPER_SIDE, Math.floor(SHARP_PAPER_PIXELS / Math.max(1, x1 - x0)));
    const [y0, y1] = fit(on[1] - my, on[3] + my, top, foot, most);
    if (!(x1 > x0 && y1 > y0)) return;
    const picture = this.hasBackgroundPicture();
    if (picture) { this.sharpenPicture(look, S, [x0, y0, x1, y1]); return; }
    const c = this.doc.createElement('canvas');
    c.width = x1 - x0;
    c.height = y1 - y0;
    const ctx = c.getContext('2d');
    // Opaque over the fitted paper below it: the page's colour, then the ruling.
    ctx.fillStyle = getComputedStyle(this.frame).backgroundColor;
    ctx.fillRect(0, 0, c.width, c.height);
    ctx.translate(-x0, -y0);
    this.drawRuling(ctx, S, W, [x0, y0, x1, y1]);
    this.showSharpPaper(c, { look, scale: S, rect: [x0, y0, x1, y1] });
  }

  /**
   * The ruling of the paper below as the renderer draws it on an endless page at `S` device
   * pixels per page pixel (PageRenderer+Background: columns centred within the side margins,
   * rows from the top margin one spacing apart and on to the page's foot, hairlines 2.2 % of
   * the spacing in whole device pixels on pixel edges, dots 4 % of it), over the device
   * rectangle `[x0, y0, x1, y1]` of the page `W` device pixels wide; `ctx` is in the page's
   * device pixels.
   */
  drawRuling(ctx, S, W, [x0, y0, x1, y1]) {
    const paper = this.background && this.background.paper;
    if (!paper || !['dots', 'lines', 'grid'].includes(paper.pattern)) return;
    const r = rulingAcross(paper, S, W);
    if (!r) return;
    const { step, margin, xs, snap, t } = r;
    ctx.fillStyle = r.color;
    const from = Math.max(0, Math.floor((y0 - margin) / step) - 1), to = Math.ceil((y1 - margin) / step) + 1;
    const ys = Array.from({ length: to - from + 1 }, (_, i) => margin + (from + i) * step);
    if (paper.pattern === 'dots') {
      for (const y of ys) for (const x of xs) {
        if (x + r.radius < x0 || x - r.radius > x1) continue;
        ctx.beginPath(); ctx.arc(x, y, r.radius, 0, 2 * Math.PI); ctx.fill();
      }
      return;
    }
    for (const y of ys) ctx.fillRect(r.left, snap(y), r.right - r.left, t);
    // A grid's upright lines run from its first row on to the page's foot (an endless side).
    if (paper.pattern === 'grid') {
      const top = Math.max(y0, snap(margin));
      if (y1 > top) for (const x of xs) ctx.fillRect(snap(x), top, t, y1 - top);
    }
  }

  /**
   * Under a background picture: the server's render of the device rectangle `[x0, y0, x1, y1]`
   * at `S` of the page grown as the fitted picture below is (`render?height=H&region=…`). The
   * last one stays until it arrives.
   */
  sharpenPicture(look, S, [x0, y0, x1, y1]) {
    if (!this.paperSource || !(this.pictureGrown > 0)) return;
    const key = `${look}|${S}|${x0},${y0},${x1},${y1}|${this.pictureGrown}`;
    if (this.sharpPaperAsked === key) return;
    this.sharpPaperAsked = key;
    const seq = ++this.sharpPaperSeq, p = this.page;
    this.paperSource(p.id, S, [x0 / S, y0 / S, (x1 - x0) / S, (y1 - y0) / S], this.pictureGrown).then(async (answer) => {
      if (seq !== this.sharpPaperSeq) return;
      const img = new Image();
      img.alt = '';
      img.draggable = false;
      img.src = URL.createObjectURL(answer.blob);
      try { await img.decode(); } catch { URL.revokeObjectURL(img.src); return; }
      if (seq !== this.sharpPaperSeq || !this.page || this.page.id !== p.id) { URL.revokeObjectURL(img.src); return; }
      const [ax, ay, aw, ah] = answer.rect;
      this.showSharpPaper(img, { look, scale: S, rect: [ax, ay, ax + aw, ay + ah], url: img.src });
    }, () => { if (seq === this.sharpPaperSeq) this.sharpPaperAsked = ''; });
  }

  /** Puts `el` (a canvas or an image) in the last sharp paper's place, in one go. */
  showSharpPaper(el, info) {
    el.className = 'paper-sharp';
    el.setAttribute('aria-hidden', 'true');
    Object.assign(el.style, { position: 'absolute', display: 'block', pointerEvents: 'none' });
    const old = this.sharpPaper;
    if (old) old.el.replaceWith(el); else if (this.paperBelow) this.paperBelow.after(el); else return;
    if (old && old.url) URL.revokeObjectURL(old.url);
    this.sharpPaper = { el, ...info };
    this.placeSharpPaper();
  }

  /** Places the sharp paper over its page pixels at the view's zoom. */
  placeSharpPaper() {
    const sp = this.sharpPaper;
    if (!sp) return;
    const f = this.k / sp.scale, [x0, y0, x1, y1] = sp.rect;
    Object.assign(sp.el.style, { left: `${x0 * f}px`, top: `${y0 * f}px`, width: `${(x1 - x0) * f}px`, height: `${(y1 - y0) * f}px` });
  }

  scheduleSharpPaper(ms) {
    clearTimeout(this.sharpPaperTimer);
    this.sharpPaperTimer = setTimeout(() => this.sharpenPaper(), ms);
  }

  dropSharpPaper() {
    this.sharpPaperSeq++;
    this.sharpPaperAsked = '';
    const sp = this.sharpPaper;
    if (!sp) return;
    sp.el.remove();
    if (sp.url) URL.revokeObjectURL(sp.url);
    this.sharpPaper = null;
  }

  /** Lets the picture below an endless page go (another page, a background without one). */
  dropPictureBelow() {
    this.pictureKey = '';
    if (!this.pictureBelow) return;
    URL.revokeObjectURL(this.pictureBelow.url);
    this.pictureBelow = null;
    if (this.paperBelow) { this.paperBelow.style.backgroundImage = 'none'; delete this.paperBelow.dataset.techoPicture; }
  }

  /** Client coordinates to page pixels. */
  toPage(clientX, clientY) {
    const r = this.frame.getBoundingClientRect();
    if (!this.page || r.width === 0) return [0, 0];
    return [(clientX - r.left) * this.page.width / r.width, (clientY - r.top) * this.page.height / r.height];
  }

  /**
   * Starts decoding a render (a PNG blob) off screen: the promise of the decoded image, which
   * `showRender` takes. Started as soon as the render arrives, the decode runs while the page's
   * other answers are read.
   */
  decodeRender(blob) {
    const img = new Image();
    img.className = 'render';
    img.alt = '';
    img.draggable = false;
    const url = URL.createObjectURL(blob);
    img.src = url;
    return img.decode().then(() => img, () => { URL.revokeObjectURL(url); throw new Error('the render could not be decoded'); });
  }

  /**
   * Shows a new render without a flash: the image is decoded off screen, then swapped in within
   * one frame, together with `then()` (which clears the overlay), so nothing jumps.
   */
  async showRender(decoding, then) {
    const img = await decoding;
    await new Promise((r) => requestAnimationFrame(r));
    const old = this.render;
    // The first render goes over the paper below an endless page (and its sharp copy), when
    // those came first: they lie under the render and its zoomed tile, which they overlap by
    // up to a row at the join.
    const under = this.sharpPaper ? this.sharpPaper.el : this.paperBelow;
    if (old) old.replaceWith(img);
    else if (under && under.parentNode === this.frame) under.after(img);
    else this.frame.prepend(img);
    this.render = img;
    if (then) then();
    if (old) URL.revokeObjectURL(old.src);
  }

  // The overlay. Its canvas covers the page in device pixels; page point (x, y) is at (x·S, y·S).

  context() {
    const ctx = this.overlay.getContext('2d');
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    return ctx;
  }

  /**
   * Ends the live drawing. With `keepSharp` (a gesture's new render has just taken the overlay's
   * place while zoomed in) the sharp picture of the gesture's end stays, under the overlay, until
   * the sharp render of the new revision replaces it (`dropSharpOverlay`), so the view does not
   * go soft in between.
   */
  clearOverlay({ keepSharp = false } = {}) {
    const ctx = this.context();
    ctx.clearRect(0, 0, this.overlay.width, this.overlay.height);
    const c = this.sharpOverlay;
    if (c && !c.hidden && keepSharp && this.render) this.render.after(c);
    else this.dropSharpOverlay();
    this.frame.classList.remove('live');
  }

  dropSharpOverlay() { if (this.sharpOverlay) this.sharpOverlay.hidden = true; }

  /**
   * Zoomed in, draws the gesture again over the visible part at the screen's resolution (a canvas
   * placed over that part, as the sharp render is): `sharp` holds the layers below and above
   * for the device-pixel rectangle `rect` of the whole render at `scale`, and the sprite at that
   * scale, whose rectangle `spriteRect` (page pixels) `m` maps to the page.
   */
  drawLiveSharp(sharp, m) {
    const { scale, rect } = sharp;
    let c = this.sharpOverlay;
    if (!c) {
      c = this.sharpOverlay = this.doc.createElement('canvas');
      c.className = 'live-sharp';
      c.setAttribute('aria-hidden', 'true');
    }
    if (c.previousElementSibling !== this.overlay) this.overlay.after(c);
    if (c.width !== rect[2]) c.width = rect[2];
    if (c.height !== rect[3]) c.height = rect[3];
    // Placed in percent of the page, as the sharp render is.
    const pw = this.page.width * scale, ph = this.page.height * scale;
    c.style.left = `${(100 * rect[0]) / pw}%`;
    c.style.top = `${(100 * rect[1]) / ph}%`;
    c.style.width = `${(100 * rect[2]) / pw}%`;
    c.style.height = `${(100 * rect[3]) / ph}%`;
    c.hidden = false;
    const ctx = c.getContext('2d');
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, c.width, c.height);
    ctx.drawImage(sharp.backdrop, 0, 0);
    const t = multiply([scale, 0, 0, scale, -rect[0], -rect[1]], m);
    ctx.setTransform(t[0], t[1], t[2], t[3], t[4], t[5]);
    ctx.imageSmoothingQuality = 'high';
    const r = sharp.spriteRect;
    ctx.globalCompositeOperation = sharp.blend || 'source-over';
    if (sharp.sprite) ctx.drawImage(sharp.sprite, r[0], r[1], r[2], r[3]);
    ctx.globalCompositeOperation = 'source-over';
    if (sharp.above) {
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.drawImage(sharp.above, 0, 0);
    }
  }

  /**
   * Draws the page as it is during a gesture: the backdrop (the page rendered without the
   * element) and the element's sprite, whose rectangle `rect` (page pixels) `m` maps to the page.
   */
  drawLive(backdrop, sprite, rect, m, above = null, blend = 'source-over') {
    const ctx = this.context();
    const sx = this.overlay.width / this.page.width, sy = this.overlay.height / this.page.height;
    ctx.clearRect(0, 0, this.overlay.width, this.overlay.height);
    // The renders cover the page as stored (an endless page's view goes on below).
    const rh = this.overlay.height * (this.page.storedHeight ?? this.page.height) / this.page.height;
    ctx.drawImage(backdrop, 0, 0, this.overlay.width, rh);
    const t = multiply([sx, 0, 0, sy, 0, 0], m);
    ctx.setTransform(t[0], t[1], t[2], t[3], t[4], t[5]);
    ctx.imageSmoothingQuality = 'high';
    // A picked highlighter stroke multiplies with what is under it, as the renderer composites it.
    ctx.globalCompositeOperation = blend;
    ctx.drawImage(sprite, rect[0], rect[1], rect[2], rect[3]);
    ctx.globalCompositeOperation = 'source-over';
    if (above) {
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.drawImage(above, 0, 0, this.overlay.width, rh);
    }
    this.frame.classList.add('live');
  }

  /** Draws a stroke in progress (page coordinates) on the overlay. */
  drawStroke(stroke) {
    const ctx = this.context();
    const s = this.overlay.width / this.page.width;
    ctx.clearRect(0, 0, this.overlay.width, this.overlay.height);
    ctx.setTransform(s, 0, 0, s, 0, 0);
    ctx.lineCap = stroke.tool === 'highlighter' ? 'butt' : 'round';
    ctx.lineJoin = 'round';
    ctx.globalAlpha = 1;
    ctx.globalCompositeOperation = 'source-over';
    if (stroke.tool === 'eraser') {
      // The eraser only clears ink, which the overlay cannot know; it shows its path as a soft trail.
      ctx.strokeStyle = 'rgba(255,255,255,0.75)';
    } else {
      ctx.strokeStyle = stroke.color;
      if (stroke.tool === 'highlighter') ctx.globalAlpha = 0.4;
    }
    ctx.lineWidth = stroke.width;
    ctx.setLineDash(stroke.dash ? stroke.dash : []);
    const pts = stroke.points;
    if (pts) {
      if (pts.length === 1) {
        ctx.fillStyle = ctx.strokeStyle;
        ctx.beginPath();
        ctx.arc(pts[0][0], pts[0][1], stroke.width / 2, 0, 2 * Math.PI);
        ctx.fill();
      } else if (stroke.tool === 'pencil' && pts[0].length > 2) {
        // Pressure varies the width segment by segment, as techo's pencil does along the stroke.
        for (let i = 1; i < pts.length; i++) {
          ctx.lineWidth = stroke.width * (0.25 + 0.75 * (pts[i - 1][2] + pts[i][2]) / 2);
          ctx.beginPath();
          ctx.moveTo(pts[i - 1][0], pts[i - 1][1]);
          ctx.lineTo(pts[i][0], pts[i][1]);
          ctx.stroke();
        }
      } else {
        ctx.beginPath();
        ctx.moveTo(pts[0][0], pts[0][1]);
        for (const p of pts.slice(1)) ctx.lineTo(p[0], p[1]);
        ctx.stroke();
      }
    } else {
      const [x0, y0] = stroke.from, [x1, y1] = stroke.to;
      ctx.beginPath();
      if (stroke.tool === 'rect') ctx.rect(Math.min(x0, x1), Math.min(y0, y1), Math.abs(x1 - x0), Math.abs(y1 - y0));
      else if (stroke.tool === 'ellipse') ctx.ellipse((x0 + x1) / 2, (y0 + y1) / 2, Math.abs(x1 - x0) / 2, Math.abs(y1 - y0) / 2, 0, 0, 2 * Math.PI);
      else { ctx.moveTo(x0, y0); ctx.lineTo(x1, y1); }
      if (stroke.fill) { ctx.fillStyle = stroke.fill; ctx.fill(); }
      ctx.stroke();
    }
    ctx.setLineDash([]);
    ctx.globalAlpha = 1;
  }

  /** One focusable handle per element, placed over the element's box by its transform. */
  showHandles(elements, selected, onFocus) {
    const keep = new Map([...this.handles.children].map((h) => [h.dataset.techoElement, h]));
    const order = [];
    for (const el of elements) {
      let h = keep.get(el.id);
      keep.delete(el.id);
      if (!h) {
        h = this.doc.createElement('div');
        h.className = 'handle';
        h.tabIndex = 0;
        h.setAttribute('role', 'button');
        h.dataset.techoElement = el.id;
        h.addEventListener('focus', () => onFocus(h.dataset.techoElement));
      }
      h.setAttribute('aria-label', `${el.type} ${el.id}${el.hidden ? ' (hidden)' : ''}`);
      this.placeHandle(h, el, el.transform);
      h.classList.toggle('selected', el.id === selected);
      h.setAttribute('aria-pressed', String(el.id === selected));
      order.push(h);
    }
    for (const h of keep.values()) h.remove();
    // Tab order follows the stacking order, bottom to top.
    order.forEach((h, i) => { if (this.handles.children[i] !== h) this.handles.insertBefore(h, this.handles.children[i] || null); });
  }

  placeHandle(h, el, m) {
    const k = this.k;
    let [w, hh] = el.size;
    let t = m;
    if (el.type === 'ink') {
      // Ink has no transform: its handle covers its strokes' bounds.
      const b = el.bounds || [0, 0, 0, 0];
      [w, hh] = [b[2], b[3]];
      t = [1, 0, 0, 1, b[0] + b[2] / 2, b[1] + b[3] / 2];
    }
    h.style.width = `${Math.max(0, w)}px`;
    h.style.height = `${Math.max(0, hh)}px`;
    h.style.transform = `matrix(${k * t[0]},${k * t[1]},${k * t[2]},${k * t[3]},${k * t[4]},${k * t[5]}) translate(${-w / 2}px,${-hh / 2}px)`;
    // The outline keeps a constant screen width whatever the element's scale.
    const sc = Math.hypot(t[0], t[1]) * k || 1;
    h.style.setProperty('--ring', `${1.5 / sc}px`);
  }

  handle(id) {
    return [...this.handles.children].find((h) => h.dataset.techoElement === id) || null;
  }

  /**
   * Marks the handle of `id` (or none) as the selection; with `focus` it takes the keyboard focus,
   * and clearing the selection takes the focus off a handle.
   */
  markSelected(id, { focus = true } = {}) {
    for (const h of this.handles.children) {
      const on = h.dataset.techoElement === id;
      h.classList.toggle('selected', on);
      h.setAttribute('aria-pressed', String(on));
    }
    const active = this.doc.activeElement;
    if (id && focus) {
      const h = this.handle(id);
      if (h && active !== h) h.focus({ preventScroll: true });
    } else if (!id && active && active.classList.contains('handle')) {
      active.blur();
    }
  }

  say(text, { error = false, ms = 2500 } = {}) {
    clearTimeout(this.statusTimer);
    this.status.textContent = text;
    this.status.classList.toggle('error', error);
    this.status.classList.add('shown');
    this.statusTimer = setTimeout(() => this.status.classList.remove('shown'), error ? 6000 : ms);
  }
}
