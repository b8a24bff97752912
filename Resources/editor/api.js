// The only module that talks to the server (docs/editor-api.md). Every call carries the token
// (X-Techo-Token; the server also keeps it in a cookie after the first load) and turns an
// error answer into an ApiError carrying the server's message.

/** An error answer from the server: `status` is the HTTP code, `message` the server's text. */
export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

export class Api {
  /** `token` comes from the page's own URL (`?token=`), which `techo serve` printed. */
  constructor(token) {
    this.token = token || '';
    /** Called with the revision each successful change answers with. */
    this.onChanged = null;
  }

  static fromLocation(location) {
    return new Api(new URLSearchParams(location.search).get('token'));
  }

  /** A URL for things the browser fetches by itself (EventSource, downloads). */
  url(path, query = {}) {
    const u = new URL(path, window.location.origin);
    for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null) u.searchParams.set(k, String(v));
    if (this.token) u.searchParams.set('token', this.token);
    return u.pathname + u.search;
  }

  async request(method, path, { query, json, body, type } = {}) {
    const headers = { 'X-Techo-Token': this.token };
    let payload = body;
    if (json !== undefined) {
      headers['Content-Type'] = 'application/json';
      payload = JSON.stringify(json);
    } else if (body !== undefined) {
      headers['Content-Type'] = type || 'application/octet-stream';
    }
    const u = new URL(path, window.location.origin);
    for (const [k, v] of Object.entries(query || {})) if (v !== undefined && v !== null) u.searchParams.set(k, String(v));
    const res = await fetch(u.pathname + u.search, { method, headers, body: payload, credentials: 'same-origin' });
    if (!res.ok) {
      let message = `${method} ${path}: HTTP ${res.status}`;
      try {
        const j = await res.json();
        if (j && j.error) message = j.error;
      } catch { /* not JSON: keep the status line */ }
      throw new ApiError(res.status, message);
    }
    return res;
  }

  async json(method, path, options) {
    const res = await this.request(method, path, options);
    const text = await res.text();
    const body = text ? JSON.parse(text) : {};
    // A change answers with the revision it made: the page then knows the live-update event
    // for that revision is its own and need not load again.
    if (method !== 'GET' && this.onChanged && body && body.revision !== undefined) this.onChanged(body.revision);
    return body;
  }

  // Reading.
  journal() { return this.json('GET', '/api/journal'); }
  page(id) { return this.json('GET', `/api/pages/${enc(id)}`); }

  /** The page as techo renders it, `scale` device pixels per page pixel; `without` leaves one element out. */
  /** The page rendered at `scale`; with `without`, that element left out, or with `layer`
   *  ('below' or 'above') only what lies under it (with the background) or over it. */
  async render(id, scale, without, layer) {
    const res = await this.request('GET', `/api/pages/${enc(id)}/render`, { query: { scale: fmt(scale), without, layer } });
    return res.blob();
  }

  /**
   * The part `[x, y, w, h]` (page pixels) of the page rendered at `scale`: the image and the
   * device-pixel rectangle `[x, y, w, h]` of the whole render at that scale it covers;
   * `without` and `layer` as for `render`; `height`: an endless page drawn as it will be once
   * grown that tall (page pixels).
   */
  async renderRegion(id, scale, region, without, layer, height) {
    const query = { scale: fmt(scale), without, layer, height: height === undefined ? undefined : fmt(height), region: region.map((n) => fmt(n)).join(',') };
    const res = await this.request('GET', `/api/pages/${enc(id)}/render`, { query });
    const rect = (res.headers.get('X-Techo-Region') || '').split(',').map(Number);
    if (rect.length !== 4 || !rect.every(Number.isFinite)) throw new Error('the region render has no X-Techo-Region');
    return { blob: await res.blob(), rect };
  }

  /** One element alone: the image and the element-local rectangle `[x, y, w, h]` it covers. */
  async sprite(id, element, scale) {
    const res = await this.request('GET', `/api/pages/${enc(id)}/elements/${enc(element)}/render`, { query: { scale: fmt(scale) } });
    const rect = (res.headers.get('X-Techo-Sprite') || '').split(',').map(Number);
    return { blob: await res.blob(), rect: rect.length === 4 && rect.every(Number.isFinite) ? rect : null };
  }

  // Changing: each is one CLI operation and one history step.
  gesture(id, element, events) { return this.json('POST', `/api/pages/${enc(id)}/gesture`, { json: { element, events } }); }
  /** Several elements moved as one group (one history step); `restackGroup` and `removeGroup` likewise. */
  gestureGroup(id, elements, events) { return this.json('POST', `/api/pages/${enc(id)}/gesture`, { json: { elements, events } }); }
  restackGroup(id, elements, how) { return this.json('POST', `/api/pages/${enc(id)}/restack`, { json: { elements, ...how } }); }
  removeGroup(id, elements) { return this.json('POST', `/api/pages/${enc(id)}/remove`, { json: { elements } }); }
  draw(id, stroke) { return this.json('POST', `/api/pages/${enc(id)}/draw`, { json: stroke }); }
  upload(id, type, file, at) {
    const query = { type, name: file.name || 'picture' };
    if (at) { query.x = fmt(at[0]); query.y = fmt(at[1]); }
    return this.json('POST', `/api/pages/${enc(id)}/elements`, { query, body: file, type: file.type || 'application/octet-stream' });
  }
  /** `query.anchor` (a text): `at` is that point of its box (`top-left`, `top`, `top-right`), not its centre. */
  addElement(id, fields, query) { return this.json('POST', `/api/pages/${enc(id)}/elements`, { query, json: fields }); }
  /** `query.keep` (a text): that point of its box stays where it is while the text is laid out anew. */
  setElement(id, element, fields, query) { return this.json('PATCH', `/api/pages/${enc(id)}/elements/${enc(element)}`, { query, json: fields }); }
  flip(id, element, axis) { return this.json('POST', `/api/pages/${enc(id)}/elements/${enc(element)}/flip`, { json: { axis } }); }
  restack(id, element, how) { return this.json('POST', `/api/pages/${enc(id)}/elements/${enc(element)}/restack`, { json: how }); }
  remove(id, element) { return this.json('DELETE', `/api/pages/${enc(id)}/elements/${enc(element)}`); }
  background(id, fields) { return this.json('POST', `/api/pages/${enc(id)}/background`, { json: fields }); }
  backgroundImage(id, file, mode = 'tile') {
    return this.json('POST', `/api/pages/${enc(id)}/background`, { query: { image: file.name || 'background', mode }, body: file, type: file.type || 'application/octet-stream' });
  }
  clear(id, what) { return this.json('POST', `/api/pages/${enc(id)}/clear`, { json: { what } }); }
  addPage(fields) { return this.json('POST', '/api/pages', { json: fields }); }
  removePage(id) { return this.json('DELETE', `/api/pages/${enc(id)}`); }
  movePage(id, to) { return this.json('POST', `/api/pages/${enc(id)}/move`, { json: { to } }); }
  /** The sticker packs and their stickers; a sticker added by `PACK/NAME`, centred at `at` (page pixels), `width` wide. */
  stickers() { return this.json('GET', '/api/stickers'); }
  addSticker(id, sticker, at, width) { return this.json('POST', `/api/pages/${enc(id)}/stickers`, { json: { sticker, at: at || undefined, width } }); }
  /** The clipboard: `copy` answers `{clipboard}` for `{elements, strokes, cut}`; `paste` adds such a value moved by `move`. */
  copy(id, fields) { return this.json('POST', `/api/pages/${enc(id)}/copy`, { json: fields }); }
  paste(id, value) { return this.json('POST', `/api/pages/${enc(id)}/paste`, { json: value }); }
  undo() { return this.json('POST', '/api/undo'); }
  redo() { return this.json('POST', '/api/redo'); }

  // Downloads and live updates: URLs the browser opens itself.
  exportPageUrl(id, scale = 1) { return this.url(`/api/export/pages/${enc(id)}.png`, { scale: fmt(scale) }); }
  exportJournalUrl() { return this.url('/api/export/journal.pdf'); }

  /** The page's PNG as `techo export` writes it, and the file name the server gives it. */
  async exportPage(id) {
    const res = await this.request('GET', `/api/export/pages/${enc(id)}.png`, { query: { scale: '1' } });
    const named = /filename="([^"]+)"/.exec(res.headers.get('Content-Disposition') || '');
    return { blob: await res.blob(), name: named ? named[1] : `${id}.png` };
  }

  /** Calls `onRevision(n)` for every revision the server announces; EventSource reconnects by itself. */
  watch(onRevision) {
    const source = new EventSource(this.url('/api/events'));
    source.addEventListener('revision', (e) => {
      try { onRevision(JSON.parse(e.data).revision); } catch { /* a malformed event is ignored */ }
    });
    return () => source.close();
  }
}

function enc(s) { return encodeURIComponent(s); }
/** Scales travel with enough digits to be exact for the renderer, and no more. */
function fmt(n) { return Number(n.toPrecision(9)).toString(); }
