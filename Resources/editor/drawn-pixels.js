// Which stickers are drawn where (§13 "Selecting": a click picks what is visible under it). For
// each image sticker of the page the editor keeps the alpha of its sprite (the server's render of
// the element alone, unrotated at its own scale and flips: `GET …/elements/EID/render`, the very
// image a gesture moves on the overlay), fetched once per look of the sticker: a move or a turn
// keeps it, a new scale, flip, outline or picture fetches it again. A page point is mapped into
// the sprite through the element's centre and stored rotation; an alpha of at least
// ALPHA_DRAWN there is "drawn". Text, photos and washi are picked by their box (a click between
// two letters still picks the text; a photo is opaque to its frame).

export const ALPHA_DRAWN = 24;
/** The sprites are fetched at most at this many device pixels per page pixel (hits are in CSS px). */
const MAX_SCALE = 1;

/**
 * The alpha (0–255) of mask `{alpha, w, h, rect}` at page point (x, y) for an element centred at
 * (cx, cy) and turned `rotate` degrees, or 0 outside it. Pure.
 */
export function alphaAt(mask, cx, cy, rotate, x, y) {
  const t = (-rotate * Math.PI) / 180;
  const dx = x - cx, dy = y - cy;
  const u = dx * Math.cos(t) - dy * Math.sin(t), v = dx * Math.sin(t) + dy * Math.cos(t);
  const [rx, ry, rw, rh] = mask.rect;
  const i = Math.floor(((u - rx) / rw) * mask.w), j = Math.floor(((v - ry) / rh) * mask.h);
  if (i < 0 || j < 0 || i >= mask.w || j >= mask.h) return 0;
  return mask.alpha[j * mask.w + i];
}

/** What a sticker's sprite depends on: its stored fields but where it is and how it is turned. */
export function lookKey(stored) {
  const { at, rotate, ...rest } = stored || {};
  return JSON.stringify(Object.keys(rest).sort().map((k) => [k, rest[k]]));
}

export class DrawnPixels {
  /** `state`: the editor's EditorState (page, elements, stored fields); `api`: api.js. */
  constructor(api, state) {
    this.api = api;
    this.state = state;
    this.masks = new Map();   // `${pageId}|${id}|${look}|${scale}` -> {mask|null, promise}
  }

  key(el, scale) {
    return `${this.state.pageId}|${el.id}|${lookKey(this.state.storedElement(el.id))}|${scale}`;
  }

  /** Fetches the masks of the page's stickers that are not held yet (called after each load). */
  prepare(scale) {
    const data = this.state.pageData;
    if (!data) return;
    const s = Math.min(MAX_SCALE, Math.round(scale * 100) / 100 || 1);
    this.scale = s;
    const wanted = new Set();
    for (const el of data.elements) {
      if (el.type !== 'image' || el.hidden) continue;
      const key = this.key(el, s);
      wanted.add(key);
      if (!this.masks.has(key)) this.masks.set(key, this.fetch(el.id, s, key));
    }
    for (const key of this.masks.keys()) if (!wanted.has(key)) this.masks.delete(key);
  }

  fetch(id, scale, key) {
    const entry = { mask: null, promise: null };
    const page = this.state.pageId;
    entry.promise = this.api.sprite(page, id, scale).then(async ({ blob, rect }) => {
      if (!rect) return;
      const bmp = await createImageBitmap(blob);
      const canvas = new OffscreenCanvas(bmp.width, bmp.height);
      const ctx = canvas.getContext('2d', { willReadFrequently: true });
      ctx.drawImage(bmp, 0, 0);
      const rgba = ctx.getImageData(0, 0, bmp.width, bmp.height).data;
      const alpha = new Uint8Array(bmp.width * bmp.height);
      for (let i = 0; i < alpha.length; i++) alpha[i] = rgba[i * 4 + 3];
      entry.mask = { alpha, w: bmp.width, h: bmp.height, rect };
    }).catch(() => { this.masks.delete(key); });
    return entry;
  }

  /** The entry of element `el` at the current scale, or null (not a sticker, not prepared). */
  entry(el) {
    if (el.type !== 'image' || !this.scale) return null;
    return this.masks.get(this.key(el, this.scale)) || null;
  }

  /**
   * Whether `el` draws page point (x, y): true or false from its mask; true for what is picked
   * by its box (text, photos, washi) and for a sticker whose mask is not in yet.
   */
  covers(el, x, y) {
    const e = this.entry(el);
    if (!e || !e.mask) return true;
    const rotate = this.state.storedElement(el.id).rotate || 0;
    return alphaAt(e.mask, el.transform[4], el.transform[5], rotate, x, y) >= ALPHA_DRAWN;
  }

  /** A promise that settles when the masks of `elements` are in (null when they all are). */
  pending(elements) {
    const waits = elements.map((el) => this.entry(el)).filter((e) => e && !e.mask && e.promise).map((e) => e.promise);
    return waits.length ? Promise.all(waits) : null;
  }
}
