// The editor: wires the server's truth (api.js), the screen (view.js), pointer input (input.js)
// and the tools (tools/). The page holds view state only — the current page, the selection, the
// tool and the gesture in flight — and redraws from what the server says after every change.

import { Api } from './api.js';
import { topmostAt } from './hit-test.js';
import { PointerInput } from './input.js';
import { LiveGestures } from './live-gesture.js';
import { Nudge } from './nudge.js';
import { makeTools } from './tools/index.js';
import { View } from './view.js';

// Nine preset colours, taken from the demo journal's inks and papers.
const PALETTE = [
  ['#2b2b2b', 'ink black'], ['#5b3a29', 'walnut'], ['#e07a5f', 'terracotta'], ['#f2cc8f', 'honey'],
  ['#81b29a', 'sage'], ['#3d85c6', 'blue'], ['#9b6bb0', 'plum'], ['#e8a0a0', 'sakura'], ['#ffffff', 'white'],
];
const ADJUSTMENTS = [
  ['brightness', -1, 1], ['contrast', -1, 1], ['saturation', -1, 1], ['warmth', -1, 1],
  ['grayscale', 0, 1], ['sepia', 0, 1], ['fade', 0, 1],
];
const PHOTO_TYPES = /^(image\/(jpeg|heic|heif|avif))$|\.(jpe?g|heic|heif|avif)$/i;

class Editor {
  constructor() {
    this.api = Api.fromLocation(window.location);
    this.view = new View(document);
    this.journal = null;        // GET /api/journal
    this.pageId = null;
    this.pageData = null;       // GET /api/pages/ID
    this.revision = null;
    this.selection = null;
    this.style = { color: PALETTE[1][0], width: 6, fill: false };
    this.tools = makeTools(this);
    this.tool = this.tools.select;
    this.refreshing = null;     // the refresh loop, while it runs
    this.dirty = false;         // a refresh was asked for since the loop's last load began
    this.pendingThens = [];     // callbacks for the frame the next render appears in
    this.refreshAgain = false;  // a refresh waits for the gesture in flight
    this.inGesture = 0;
    this.queue = Promise.resolve();
    // The gesture in flight and its replay (live-gesture.js); this object serves as its state.
    this.gestures = new LiveGestures({ api: this.api, state: this, view: this.view, change: (fn, undo) => this.change(fn, undo) });
    this.nudge = new Nudge(this.gestures, this.view);
    window.techoEditor = this;
  }

  /** Figures the browser tests read: ms from a gesture's end to its new render on screen. */
  get timings() { return this.gestures.timings; }

  async start() {
    this.buildControls();
    new PointerInput(this.view.frame, (x, y) => this.view.toPage(x, y), (e) => this.pointer(e));
    this.api.onChanged = (rev) => { this.revision = rev; };
    this.api.watch((rev) => { if (rev !== this.revision) this.refresh(); });
    let resizeTimer = 0;
    window.addEventListener('resize', () => {
      clearTimeout(resizeTimer);
      resizeTimer = setTimeout(() => { this.gestures.forget(); this.refresh(); }, 150);
    });
    await this.refresh();
    document.body.dataset.techoReady = 'true';
  }

  // Reading what the server says.

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
    let [journal, data, blob] = await Promise.all([
      this.api.journal(),
      id ? this.api.page(id).catch((e) => e) : null,
      id && scale ? this.api.render(id, scale).catch(() => null) : null,
    ]);
    if (!journal.pages.some((p) => p.id === id)) {
      id = this.pageId = journal.pages.length ? journal.pages[0].id : null;
      data = id ? await this.api.page(id) : null;
      blob = null;
    }
    if (data instanceof Error) throw data;
    this.journal = journal;
    this.revision = journal.revision;
    this.showJournal();
    if (!id) return;
    const meta = journal.pages.find((p) => p.id === id);
    this.view.layout({ id, width: meta.width, height: meta.height, endless: !!meta.endless });
    if (!blob || this.view.scale !== scale) blob = await this.api.render(id, this.view.scale);
    this.pageData = data;
    if (this.selection && !data.elements.some((e) => e.id === this.selection)) this.selection = null;
    await this.view.showRender(blob, () => {
      this.view.showHandles(data.elements, this.selection, (h) => this.select(h, { focus: false }));
      // Scripts and tests read which revision is on screen from the page element.
      this.view.frame.dataset.techoRevision = String(data.revision ?? journal.revision);
      if (then) then();
    });
    this.showSelection();
    this.showPage();
  }

  elementById(id) { return this.pageData ? this.pageData.elements.find((e) => e.id === id) : null; }

  /** The element as the page file stores it (text, font, frame, rotate, …), or `{}`. */
  storedElement(id) {
    const page = this.pageData && this.pageData.page;
    return ((page && page.elements) || []).find((e) => e.id === id) || {};
  }

  /** The topmost visible element under a page point (ink is drawn on, not moved). */
  hitTest(x, y) { return topmostAt(this.pageData ? this.pageData.elements : [], x, y); }

  // Input.

  pointer(e) {
    if (!this.pageData) return;
    this.tool.dispatch(e);
  }

  setTool(name) {
    if (!this.tools[name] || this.tool.name === name) return;
    this.tool.cancel();
    this.tool = this.tools[name];
    this.view.frame.dataset.tool = name;
    for (const b of document.querySelectorAll('[data-techo-tool]')) b.setAttribute('aria-pressed', String(b.dataset.techoTool === name));
    if (name !== 'select') this.select(null);
  }

  select(id, { focus = true } = {}) {
    if (id && !this.elementById(id)) id = null;
    this.selection = id;
    for (const h of this.view.handles.children) {
      const on = h.dataset.techoElement === id;
      h.classList.toggle('selected', on);
      h.setAttribute('aria-pressed', String(on));
    }
    if (id && focus) {
      const h = this.view.handle(id);
      if (h && document.activeElement !== h) h.focus({ preventScroll: true });
    } else if (!id && document.activeElement && document.activeElement.classList.contains('handle')) {
      document.activeElement.blur();
    }
    if (id && this.elementById(id).type !== 'ink') this.gestures.prepare(id);
    this.showSelection();
  }

  // Gestures: the live overlay, then one request, then the new render (live-gesture.js).

  /** Starts `element` following a gesture on the overlay. */
  startLive(element) { return this.gestures.start(element); }

  /** A gesture began: refreshes from outside wait until it ends. */
  beginGesture() { this.inGesture++; }

  endGesture() {
    this.inGesture = Math.max(0, this.inGesture - 1);
    if (this.inGesture === 0 && this.refreshAgain) { this.refreshAgain = false; this.refresh(); }
  }

  /** Sends one gesture replay (one history step) and swaps in the new render. */
  commitGesture(id, events, live) { return this.gestures.commit(id, events, live); }

  commitStroke(stroke) {
    return this.change(async () => {
      await this.api.draw(this.pageId, stroke);
      await this.refresh(() => this.view.clearOverlay());
    }, () => this.view.clearOverlay());
  }

  washiColor() { return `${this.style.color.slice(0, 7)}cc`; }
  washiWidth() { return Math.round(15 / 25.4 * ((this.pageMeta() || {}).dpi || 300)); }
  pageMeta() { return this.journal ? this.journal.pages.find((p) => p.id === this.pageId) : null; }

  commitWashi(from, to) {
    return this.change(async () => {
      const r = await this.api.addElement(this.pageId, { type: 'washi', from, to, width: this.washiWidth(), color: this.washiColor() });
      await this.refresh(() => this.view.clearOverlay());
      if (r.id) { this.setTool('select'); this.select(r.id); }
    }, () => this.view.clearOverlay());
  }

  /**
   * Runs one change after the ones before it (so two quick edits reach the server in order),
   * showing the server's message when it is refused; `undoView` puts the screen back then.
   */
  change(fn, undoView) {
    const run = this.queue.then(fn).catch((e) => {
      if (undoView) undoView();
      this.view.say(e.message || String(e), { error: true });
      return this.refresh();
    });
    this.queue = run.catch(() => {});
    return run;
  }

  simple(call, message) {
    return this.change(async () => {
      const r = await call();
      await this.refresh();
      if (message) this.view.say(message);
      return r;
    });
  }

  // Keyboard.

  keydown(e) {
    const t = e.target;
    const typing = t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable);
    const mod = e.ctrlKey || e.metaKey;
    const key = e.key.toLowerCase();
    if (mod && !typing && key === 'z') { e.preventDefault(); this.undoRedo(e.shiftKey ? 'redo' : 'undo'); return; }
    if (mod && !typing && key === 'y') { e.preventDefault(); this.undoRedo('redo'); return; }
    if (e.key === 'Escape') { this.tool.cancel(); this.select(null); return; }
    if (typing || mod || e.altKey) return;
    const onHandle = t && t.classList && t.classList.contains('handle');
    if (onHandle && e.key.startsWith('Arrow')) {
      e.preventDefault();
      const id = document.activeElement && document.activeElement.dataset.techoElement;
      this.nudge.by(id && this.elementById(id), e.key, e.shiftKey);
      return;
    }
    if (onHandle && (e.key === 'Delete' || e.key === 'Backspace')) { e.preventDefault(); this.action('delete'); return; }
    const shortcuts = { v: 'select', p: 'pencil', h: 'highlighter', l: 'line', r: 'rect', o: 'ellipse', e: 'eraser' };
    if (shortcuts[key] && !e.shiftKey && t === document.body) this.setTool(shortcuts[key]);
  }

  undoRedo(which) {
    this.tool.cancel();
    return this.change(async () => {
      await (which === 'undo' ? this.api.undo() : this.api.redo());
      await this.refresh();
    });
  }

  // Actions of the buttons.

  action(name) {
    const id = this.selection;
    const page = this.pageId;
    switch (name) {
      case 'undo': case 'redo': return this.undoRedo(name);
      case 'export-png': return this.download(this.api.exportPageUrl(page, 1));
      case 'export-pdf': return this.download(this.api.exportJournalUrl());
      case 'clear-ink': return this.simple(() => this.api.clear(page, 'ink'), 'ink cleared (undo brings it back)');
    }
    if (!id) return;
    switch (name) {
      case 'flip-h': return this.simple(() => this.api.flip(page, id, 'h'));
      case 'flip-v': return this.simple(() => this.api.flip(page, id, 'v'));
      case 'rotate': return this.commitGesture(id, [{ gesture: 'doubleTap' }]);
      case 'raise': return this.simple(() => this.api.restack(page, id, { by: 1 }));
      case 'lower': return this.simple(() => this.api.restack(page, id, { by: -1 }));
      case 'delete':
        this.select(null);
        return this.simple(() => this.api.remove(page, id));
    }
  }

  download(url) {
    const a = document.createElement('a');
    a.href = url;
    a.download = '';
    document.body.append(a);
    a.click();
    a.remove();
  }

  /** Files from the picker or a drop: photos (JPEG, HEIC, AVIF) as photos, the rest as stickers. */
  addFiles(files, type, at) {
    for (const file of files) {
      const kind = type || (PHOTO_TYPES.test(file.type) || PHOTO_TYPES.test(file.name) ? 'photo' : 'image');
      this.change(async () => {
        const r = await this.api.upload(this.pageId, kind, file, at);
        await this.refresh();
        if (r.id) { this.setTool('select'); this.select(r.id); }
        this.view.say(`added ${file.name}`);
      });
    }
  }

  openPage(id) {
    if (id === this.pageId) return;
    this.tool.cancel();
    this.pageId = id;
    this.selection = null;
    this.gestures.forget();
    this.view.stage.scrollTop = 0;
    this.refresh();
  }

  // The chrome.

  buildControls() {
    const $ = (id) => document.getElementById(id);
    document.addEventListener('keydown', (e) => this.keydown(e));
    for (const b of document.querySelectorAll('[data-techo-tool]')) b.addEventListener('click', () => this.setTool(b.dataset.techoTool));
    for (const b of document.querySelectorAll('[data-techo-action]')) b.addEventListener('click', () => this.action(b.dataset.techoAction));
    this.view.frame.dataset.tool = 'select';

    const palette = $('palette');
    for (const [color, name] of PALETTE) {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'swatch';
      b.setAttribute('role', 'radio');
      b.setAttribute('aria-label', name);
      b.title = name;
      b.dataset.color = color;
      b.innerHTML = `<span style="background:${color}"></span>`;
      b.addEventListener('click', () => this.setColor(color));
      palette.append(b);
    }
    $('color-picker').addEventListener('input', (e) => this.setColor(e.target.value));
    $('width').addEventListener('input', (e) => { this.style.width = Number(e.target.value); $('width-value').value = e.target.value; });
    $('fill').addEventListener('change', (e) => { this.style.fill = e.target.checked; });
    this.setColor(this.style.color);

    for (const input of document.querySelectorAll('input[data-techo-upload]')) {
      input.addEventListener('change', () => {
        this.addFiles([...input.files], input.dataset.techoUpload);
        input.value = '';
      });
    }
    const frame = this.view.frame;
    frame.addEventListener('dragover', (e) => {
      if (![...e.dataTransfer.types].includes('Files')) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = 'copy';
      frame.classList.add('drop');
    });
    frame.addEventListener('dragleave', () => frame.classList.remove('drop'));
    frame.addEventListener('drop', (e) => {
      e.preventDefault();
      frame.classList.remove('drop');
      const files = [...e.dataTransfer.files];
      if (files.length) this.addFiles(files, null, this.view.toPage(e.clientX, e.clientY).map(Math.round));
    });
    // A file dropped beside the page must not navigate away from the editor.
    window.addEventListener('dragover', (e) => e.preventDefault());
    window.addEventListener('drop', (e) => e.preventDefault());

    $('text-form').addEventListener('submit', (e) => {
      e.preventDefault();
      const text = $('text-new').value.trim();
      if (!text || !this.pageData) return;
      const meta = this.pageMeta();
      const fields = { type: 'text', text, size: Math.round(meta.width / 24), color: this.style.color, align: 'center',
        at: [Math.round(meta.width / 2), Math.round(meta.height / 2)] };
      this.change(async () => {
        const r = await this.api.addElement(this.pageId, fields);
        $('text-new').value = '';
        await this.refresh();
        if (r.id) { this.setTool('select'); this.select(r.id); }
      });
    });

    // Selection properties: each control sends one `set` when it is let go.
    const set = (fields) => { if (this.selection) { const id = this.selection; this.simple(() => this.api.setElement(this.pageId, id, fields)); } };
    $('opacity').addEventListener('change', (e) => set({ opacity: Number(e.target.value) }));
    $('text-edit').addEventListener('change', (e) => { if (e.target.value.trim()) set({ text: e.target.value }); });
    $('font').addEventListener('change', (e) => set({ font: e.target.value }));
    $('text-size').addEventListener('change', (e) => { const v = Number(e.target.value); if (v >= 1 && v <= 2000) set({ size: v }); });
    $('text-color').addEventListener('change', (e) => set({ color: e.target.value }));
    for (const b of document.querySelectorAll('[data-align]')) b.addEventListener('click', () => set({ align: b.dataset.align }));
    $('frame').addEventListener('change', (e) => set({ frame: e.target.value }));
    $('shadow').addEventListener('change', (e) => set({ shadow: e.target.checked }));
    $('radius').addEventListener('change', (e) => set({ radius: Number(e.target.value) }));
    const adj = $('adjustments');
    for (const [name, min, max] of ADJUSTMENTS) {
      const label = document.createElement('label');
      label.className = 'slider';
      label.innerHTML = `${name} <input type="range" min="${min}" max="${max}" step="0.05" value="0" aria-label="${name}" data-adjust="${name}">`;
      label.querySelector('input').addEventListener('change', (e) => set({ [name]: Number(e.target.value) }));
      adj.append(label);
    }

    // Page: background, paper, tiled image; pages from templates.
    $('bg-color').addEventListener('change', (e) => this.simple(() => this.api.background(this.pageId, { color: e.target.value })));
    $('paper').addEventListener('change', (e) => this.simple(() => this.api.background(this.pageId, { paper: { pattern: e.target.value } })));
    $('bg-image').addEventListener('change', (e) => {
      const file = e.target.files[0];
      e.target.value = '';
      if (file) this.simple(() => this.api.backgroundImage(this.pageId, file, 'tile'));
    });
    $('page-add').addEventListener('click', () => {
      const template = $('template').value || undefined;
      this.change(async () => {
        const r = await this.api.addPage(template ? { template } : {});
        if (r.id) this.pageId = r.id;
        this.selection = null;
        await this.refresh();
      });
    });
  }

  setColor(color) {
    this.style.color = color;
    document.getElementById('color-picker').value = color;
    for (const b of document.querySelectorAll('.swatch')) b.setAttribute('aria-checked', String(b.dataset.color === color));
  }

  showJournal() {
    const j = this.journal;
    document.getElementById('journal-title').textContent = j.title || 'techo';
    document.title = `${j.title || 'journal'} · techo`;
    document.querySelector('[data-techo-action=undo]').disabled = !j.canUndo;
    document.querySelector('[data-techo-action=redo]').disabled = !j.canRedo;
    const index = j.pages.findIndex((p) => p.id === this.pageId);
    document.getElementById('page-label').textContent = index >= 0 ? `page ${index + 1} of ${j.pages.length}` : '';

    const list = document.getElementById('pages');
    list.replaceChildren(...j.pages.map((p, i) => {
      const li = document.createElement('li');
      if (p.id === this.pageId) li.setAttribute('aria-current', 'page');
      const open = button(`${i + 1} · ${p.id}${p.endless ? ' (endless)' : ''}`, `Open page ${p.id}`, () => this.openPage(p.id));
      open.dataset.techoPageLink = p.id;
      const up = button('↑', `Move page ${p.id} up`, () => this.simple(() => this.api.movePage(p.id, i - 1)));
      const down = button('↓', `Move page ${p.id} down`, () => this.simple(() => this.api.movePage(p.id, i + 1)));
      const rm = button('✕', `Remove page ${p.id}`, () => this.simple(() => this.api.removePage(p.id), `removed page ${p.id} (undo brings it back)`));
      up.disabled = i === 0;
      down.disabled = i === j.pages.length - 1;
      rm.disabled = j.pages.length === 1;
      li.append(open, up, down, rm);
      return li;
    }));

    fillSelect(document.getElementById('template'), [['', 'blank page'], ...(j.templates || []).map((t) => [t, t])]);
    fillSelect(document.getElementById('font'), (j.fonts || []).map((f) => [f, f]));
  }

  /** The selection panel shows what the selected element's page JSON says. */
  showSelection() {
    const panel = document.getElementById('selection-panel');
    const el = this.selection && this.elementById(this.selection);
    panel.hidden = !el;
    if (!el) return;
    const stored = (this.pageData.page.elements || []).find((e) => e.id === el.id) || {};
    document.getElementById('selection-title').textContent = `${el.type} · ${el.id}`;
    document.getElementById('opacity').value = String(el.opacity ?? 1);
    const movable = el.type !== 'ink';
    for (const a of ['flip-h', 'flip-v', 'rotate']) document.querySelector(`[data-techo-action=${a}]`).disabled = !movable;
    const text = document.getElementById('text-props');
    text.hidden = el.type !== 'text';
    if (el.type === 'text') {
      setIfIdle('text-edit', stored.text ?? '');
      const font = document.getElementById('font');
      const family = stored.font || 'sans-serif';
      if (![...font.options].some((o) => o.value === family)) font.append(new Option(family, family));
      font.value = family;
      setIfIdle('text-size', String(stored.size ?? 48));
      document.getElementById('text-color').value = (stored.color || '#000000').slice(0, 7);
      for (const b of document.querySelectorAll('[data-align]')) b.setAttribute('aria-checked', String(b.dataset.align === (stored.align || 'left')));
    }
    const photo = document.getElementById('photo-props');
    photo.hidden = el.type !== 'photo';
    if (el.type === 'photo') {
      document.getElementById('frame').value = stored.frame || 'none';
      document.getElementById('shadow').checked = !!stored.shadow;
      document.getElementById('radius').value = String(stored.radius ?? 0);
      for (const input of document.querySelectorAll('[data-adjust]')) input.value = String(stored[input.dataset.adjust] ?? 0);
    }
  }

  /** The page panel shows the page's background as stored. */
  showPage() {
    const bg = (this.pageData.page && this.pageData.page.background) || {};
    document.getElementById('bg-color').value = typeof bg.color === 'string' ? bg.color.slice(0, 7) : '#ffffff';
    const paper = typeof bg.paper === 'string' ? bg.paper : (bg.paper && bg.paper.pattern) || 'blank';
    document.getElementById('paper').value = paper;
  }
}

function button(text, label, onClick) {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = text;
  b.setAttribute('aria-label', label);
  b.addEventListener('click', onClick);
  return b;
}

function fillSelect(select, options) {
  const value = select.value;
  const same = select.options.length === options.length && options.every(([v], i) => select.options[i].value === v);
  if (!same) select.replaceChildren(...options.map(([v, t]) => new Option(t, v)));
  if (options.some(([v]) => v === value)) select.value = value;
}

/** Does not overwrite a field the person is typing in. */
function setIfIdle(id, value) {
  const el = document.getElementById(id);
  if (document.activeElement !== el) el.value = value;
}

const editor = new Editor();
editor.start().catch((e) => editor.view.say(e.message || String(e), { error: true }));
