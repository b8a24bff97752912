// The page's view state and the one place that reads the server and redraws. The journal's truth
// stays on the server: this holds what it last said (the journal, the current page and its
// elements, the revision on screen) and the view's own state (which page, the selection, whether
// a gesture is in flight). Everything that shows the journal listens here (`on`) instead of being
// called one by one, so a new panel (layers, stickers) only subscribes.

export class EditorState {
  /** `onHandleFocus(id)`: an element's handle took focus (it selects the element). */
  constructor(api, view, { onHandleFocus } = {}) {
    this.api = api;
    this.view = view;
    this.onHandleFocus = onHandleFocus || (() => {});
    this.journal = null;        // GET /api/journal
    this.pageId = null;
    this.pageData = null;       // GET /api/pages/ID
    this.revision = null;
    this.selected = [];         // every selected element's id, in the order picked (`selection`: the last)
    this.selectedStrokes = [];  // the strokes of a group, by id, in the order picked (one stroke alone: stroke-selection.js)
    this.strokes = null;        // {key, list, byId}: the page's strokes as `GET …/strokes` last listed them
    this.refreshing = null;     // the refresh loop, while it runs
    this.dirty = false;         // a refresh was asked for since the loop's last load began
    this.pendingThens = [];     // callbacks for the frame the next render appears in
    this.refreshAgain = false;  // a refresh waits for the gesture in flight
    this.revisionAgain = false; // a revision was announced during the gesture in flight
    this.announced = null;      // the latest revision the server announced
    this.inGesture = 0;
    this.listeners = { journal: [], page: [] };
    // The paper below an endless page's render with a background picture: the page drawn grown
    // to the view's height, over that region (view.js, drawPictureBelow).
    view.paperSource = (page, scale, region, height) => api.renderRegion(page, scale, region, undefined, undefined, height);
  }

  /**
   * `what`: `'journal'` (called with the journal, before the page is laid out) or `'page'`
   * (called with the page's data, after its render is on screen).
   */
  on(what, fn) { this.listeners[what].push(fn); }

  /** The selected elements' ids, bottom to top ([] when none); `selection` is the one picked last. */
  selectedIds() {
    const ids = this.selected;
    if (!this.pageData) return ids.slice();
    const chosen = new Set(ids);
    return this.pageData.elements.filter((e) => chosen.has(e.id)).map((e) => e.id);
  }

  /** Whether several things are selected, elements and strokes (they act as one group). */
  isGroup() { return this.selectedIds().length + this.selectedStrokes.length > 1; }

  /**
   * Every selected id, elements and a group's strokes, in stacking order (a stroke where its ink
   * layer lies, in the layer's order): the selection hook's list.
   */
  selectedItems() {
    const els = this.pageData ? this.pageData.elements : [];
    const at = new Map(els.map((e, i) => [e.id, i]));
    const order = (this.strokes && this.strokes.order) || new Map();
    const place = (id) => {
      if (at.has(id)) return at.get(id);
      const s = this.strokeInfo(id);
      return (s && at.has(s.layer) ? at.get(s.layer) : els.length) + 0.5 + (order.get(id) ?? 0) * 1e-7;
    };
    return [...this.selectedIds(), ...this.selectedStrokes]
      .map((id, i) => [id, place(id), i])
      .sort((a, b) => a[1] - b[1] || a[2] - b[2])
      .map(([id]) => id);
  }

  /** Sets the selection: element `ids` in the order picked, the last the one a panel shows, and a group's `strokes`. */
  setSelected(ids, strokes = []) {
    this.selected = [...new Set(ids.filter(Boolean))];
    this.selectedStrokes = [...new Set(strokes.filter(Boolean))];
  }

  /** The selected element picked last (the one a single-element panel shows), or null. */
  get selection() { return this.selected.length ? this.selected[this.selected.length - 1] : null; }

  /** Selecting one element (or none) is a selection of that one alone. */
  set selection(id) { this.selected = id ? [id] : []; this.selectedStrokes = []; }

  /**
   * The page's strokes, `[{id, layer, tool, color, width, opacity, bounds}]` in stacking order
   * (`GET …/strokes`), asked once per page and revision; the page's answer carries no stroke
   * geometry. `strokeInfo(id)` reads the last list synchronously.
   */
  strokeList() {
    const key = `${this.pageId}|${this.revision}`;
    if (this.strokes && this.strokes.key === key) return this.strokes.promise;
    const entry = { key, byId: this.strokes ? this.strokes.byId : new Map(), order: this.strokes ? this.strokes.order : null };
    entry.promise = this.api.json('GET', `/api/pages/${encodeURIComponent(this.pageId)}/strokes`).then((r) => {
      const list = r.strokes || [];
      entry.byId = new Map(list.map((s) => [s.id, s]));
      entry.order = new Map(list.map((s, i) => [s.id, i]));
      return list;
    });
    entry.promise.catch(() => { if (this.strokes === entry) this.strokes = null; });
    this.strokes = entry;
    return entry.promise;
  }

  /** A stroke as the last list gave it (`bounds` in page pixels), or null. */
  strokeInfo(id) { return (this.strokes && this.strokes.byId.get(id)) || null; }

  /** Puts what is known of strokes (a group's moved boxes, ahead of the next list) in the last list. */
  knowStrokes(items) {
    if (!this.strokes) this.strokes = { key: '', byId: new Map(), promise: Promise.resolve([]) };
    for (const s of items) this.strokes.byId.set(s.id, { ...(this.strokes.byId.get(s.id) || {}), ...s });
  }

  emit(what, value) { for (const fn of this.listeners[what]) fn(value); }

  /**
   * Fetches the journal, the current page and its render, and shows them. One loop does the
   * loading: a refresh asked for while one runs makes the loop go once more (never twice at
   * once, never a request storm), and the promise returned settles after a load that began after
   * the call. `then` runs in the frame the new render appears (it clears the overlay), so
   * nothing jumps. During a gesture a refresh from outside waits for the gesture's end.
   */
  refresh(then) {
    if (this.inGesture > 0 && !then) { this.refreshAgain = true; return Promise.resolve(); }
    if (then) this.pendingThens.push(then);
    this.dirty = true;
    if (!this.refreshing) this.refreshing = this.runRefreshes();
    return this.refreshing;
  }

  async runRefreshes() {
    try {
      while (this.dirty) {
        this.dirty = false;
        const thens = this.pendingThens.splice(0);
        let done = false;
        const runThens = () => { if (!done) { done = true; for (const f of thens) f(); } };
        try {
          await this.load(runThens);
        } catch (e) {
          this.view.say(e.message || String(e), { error: true });
        } finally {
          runThens();
        }
      }
    } finally {
      this.refreshing = null;
    }
  }

  /**
   * One load: the journal, the page and its render are asked for at once (the render at the
   * scale on screen, which a change of page size then corrects), so a change costs one round
   * trip before the new render can be decoded.
   */
  async load(then) {
    let id = this.pageId;
    const scale = this.view.page && this.view.page.id === id ? this.view.scale : null;
    // The render is decoded as soon as it arrives, while the journal and the page are read.
    const decode = (blob) => {
      const d = this.view.decodeRender(blob);
      d.catch(() => {});
      return d;
    };
    let [journal, data, decoding] = await Promise.all([
      this.api.journal(),
      id ? this.api.page(id).catch((e) => e) : null,
      id && scale ? this.api.render(id, scale).then(decode, () => null) : null,
    ]);
    if (!journal.pages.some((p) => p.id === id)) {
      id = this.pageId = journal.pages.length ? journal.pages[0].id : null;
      data = id ? await this.api.page(id) : null;
      decoding = null;
    }
    if (data instanceof Error) throw data;
    this.journal = journal;
    this.revision = journal.revision;
    this.emit('journal', journal);
    if (!id) return;
    const meta = journal.pages.find((p) => p.id === id);
    this.view.layout({ id, width: meta.width, height: meta.height, endless: !!meta.endless });
    if (!decoding || this.view.scale !== scale) {
      // One at the old scale is let go (its object URL freed).
      if (decoding) decoding.then((img) => URL.revokeObjectURL(img.src), () => {});
      decoding = decode(await this.api.render(id, this.view.scale));
    }
    this.pageData = data;
    this.view.paper(data.page && data.page.background);
    // Elements gone from the page (removed, undone) leave the selection.
    if (this.selected.length) {
      const here = new Set(data.elements.map((e) => e.id));
      this.selected = this.selected.filter((id) => here.has(id));
    }
    await this.view.showRender(decoding, () => {
      this.view.showHandles(data.elements, this.selection, (h) => this.onHandleFocus(h));
      // Scripts and tests read which revision is on screen from the page element.
      this.view.frame.dataset.techoRevision = String(data.revision ?? journal.revision);
      if (then) then();
    });
    this.emit('page', data);
  }

  /** A gesture began: refreshes from outside wait until it ends. */
  beginGesture() { this.inGesture++; }

  endGesture() {
    this.inGesture = Math.max(0, this.inGesture - 1);
    if (this.inGesture !== 0) return;
    // A revision announced during the gesture is, most often, the gesture's own commit, which is
    // on screen by now: only another one is loaded.
    const again = this.refreshAgain || (this.revisionAgain && this.announced !== this.revision);
    this.refreshAgain = this.revisionAgain = false;
    if (again) this.refresh();
  }

  /** A revision the server announced: loaded unless it is the one on screen. */
  announce(rev) {
    this.announced = rev;
    if (rev === this.revision) return;
    if (this.inGesture > 0) { this.revisionAgain = true; return; }
    this.refresh();
  }

  /** An element of the current page as the page's answer lists it (type, size, transform, …). */
  elementById(id) { return this.pageData ? this.pageData.elements.find((e) => e.id === id) : null; }

  /** The element as the page file stores it (text, font, frame, rotate, …), or `{}`. */
  storedElement(id) {
    const page = this.pageData && this.pageData.page;
    return ((page && page.elements) || []).find((e) => e.id === id) || {};
  }

  /** The current page's entry in the journal (width, height, dpi, endless). */
  pageMeta() { return this.journal ? this.journal.pages.find((p) => p.id === this.pageId) : null; }
}
