// The editor: owns the view state (state.js) and routes what happens to the module it concerns —
// pointer events to the current tool (tools/), keys to shortcuts and the nudge, buttons to their
// panels (panels/), gestures to the live overlay (live-gesture.js). It builds no panel itself;
// each panel shows the journal by listening to the state, which is the one place that reads the
// server (through api.js) and redraws.

import { Api } from './api.js';
import { Clipboard } from './clipboard.js';
import { compactLayout } from './compact.js';
import { DrawnPixels } from './drawn-pixels.js';
import { Group } from './group.js';
import { allAt, nextBelowAt, topmostAt } from './hit-test.js';
import { InkPreview } from './ink-preview.js';
import { PointerInput } from './input.js';
import { LiveGestures } from './live-gesture.js';
import { Nudge } from './nudge.js';
import { addPanel } from './panels/add.js';
import { exportPanel } from './panels/export.js';
import { headerPanel } from './panels/header.js';
import { layersPanel } from './panels/layers.js';
import { pagePanel } from './panels/page.js';
import { pagesPanel } from './panels/pages.js';
import { PenFirst, penOnlySwitch } from './pen-first.js';
import { selectionPanel } from './panels/selection.js';
import { stickersPanel } from './panels/stickers.js';
import { SelectionFrame } from './selection-frame.js';
import { PALETTE, toolsPanel } from './panels/tools.js';
import { SelectionBar } from './selection-bar.js';
import { EditorState } from './state.js';
import { StrokeSelection } from './stroke-selection.js';
import { makeTools } from './tools/index.js';
import { View } from './view.js';
import { Widths } from './widths.js';
import { Zoom } from './zoom.js';

const SHORTCUTS = { v: 'select', p: 'pencil', h: 'highlighter', l: 'lasso', r: 'rect', o: 'ellipse', e: 'eraser', t: 'text', w: 'washi' };

class Editor {
  constructor() {
    this.api = Api.fromLocation(window.location);
    this.view = new View(document);
    this.state = new EditorState(this.api, this.view, { onHandleFocus: (id) => this.select(id, { focus: false }) });
    this.widths = new Widths(() => (this.state.pageMeta() || {}).dpi || 300, document.getElementById('width'), document.getElementById('width-value'));
    const widths = this.widths;
    // The width is the tool in hand's (widths.js), in page pixels.
    this.style = { color: PALETTE[1][0], get width() { return widths.px; }, set width(mm) { widths.set(mm); }, fill: false };
    this.penFirst = new PenFirst(storage());
    this.ink = new InkPreview(this.view);
    this.strokes = new StrokeSelection(this);
    this.tools = makeTools(this);
    this.tool = this.tools.select;
    this.queue = Promise.resolve();
    this.changing = 0;  // changes queued or in flight (each ends after its refresh)
    this.gestures = new LiveGestures({ api: this.api, state: this.state, view: this.view, change: (fn, undo) => this.change(fn, undo) });
    this.nudge = new Nudge(this);
    this.selectionFrame = new SelectionFrame(this.view);
    this.drawnPixels = new DrawnPixels(this.api, this.state);
    this.group = new Group(this);
    this.gestures.onFrame = (el, m) => { if (el.id === this.state.selection) this.selectionFrame.show(el, m); };
    this.panels = null;
    window.techoEditor = this;
  }

  async start() {
    this.buildPanels();
    // Copy, cut, paste and duplicate (clipboard.js) act on the selection through the document's own events.
    this.clipboard = new Clipboard(this);
    penOnlySwitch(document.querySelector('[data-techo-action=pen-only]'), this.penFirst);
    this.zoom = new Zoom(this);
    this.gestures.sharpView = () => this.zoom.sharpView();
    // The selection's frame sits in the page's zoomed pixels: it follows each zoom.
    this.zoom.onChange(() => this.showFrame());
    this.selectionBar = new SelectionBar(this, (fn) => this.zoom.onChange(fn));
    compactLayout(document, this);
    new PointerInput(this.view.frame, (x, y) => this.view.toPage(x, y), (e) => this.pointer(e));
    this.api.onChanged = (rev) => { this.state.revision = rev; };
    this.api.watch((rev) => this.state.announce(rev));
    let resizeTimer = 0;
    window.addEventListener('resize', () => {
      clearTimeout(resizeTimer);
      resizeTimer = setTimeout(() => { this.gestures.forget(); this.refresh(); }, 150);
    });
    await this.refresh();
    document.body.dataset.techoReady = 'true';
  }

  /** Each panel wires its own controls; the state tells them when the journal or page changed. */
  buildPanels() {
    document.addEventListener('keydown', (e) => this.keydown(e));
    this.view.frame.dataset.tool = 'select';
    const p = this.panels = {
      header: headerPanel(document, this),
      export: exportPanel(document, this),
      tools: toolsPanel(document, this),
      add: addPanel(document, this),
      stickers: stickersPanel(document, this),
      selection: selectionPanel(document, this),
      page: pagePanel(document, this),
      pages: pagesPanel(document, this),
      layers: layersPanel(document, this),
    };
    this.state.on('journal', (j) => {
      p.header.show(j, this.state.pageId);
      p.pages.show(j, this.state.pageId);
      p.selection.showFonts(j);
    });
    this.state.on('page', (data) => {
      this.drawnPixels.prepare(this.view.k);
      if (this.tool.name === 'eraser') this.eraserReveal();
      this.showFrame();
      p.layers.show(data);
      p.selection.show();
      p.page.show(data);
    });
  }

  // What scripts and the browser tests read from `window.techoEditor`.

  get journal() { return this.state.journal; }
  get pageId() { return this.state.pageId; }
  get pageData() { return this.state.pageData; }
  get selection() { return this.state.selection; }
  get refreshing() { return this.state.refreshing; }
  /** Changes queued or in flight: 0 once every change made has been sent and its result shown. */
  get changesInFlight() { return this.changing + (this.nudge.run ? 1 : 0); }
  /** Gestures in flight, a press still being picked (select.js's `picking`) counted as one. */
  get inGesture() { return this.state.inGesture + (this.tools.select.current === 'picking' ? 1 : 0); }
  get timings() { return this.gestures.timings; }
  elementById(id) { return this.state.elementById(id); }

  /** Reads the journal, the page and its render again (state.js); `then` runs as it appears. */
  refresh(then) { return this.state.refresh(then); }

  /**
   * The topmost visible, unlocked element that draws a page point (a sticker by its pixels,
   * drawn-pixels.js; ink is drawn on, not moved); with `below`, the one under the selected
   * element there (Alt+click), going round to the top.
   */
  hitTest(x, y, { below = false } = {}) {
    const elements = this.state.pageData ? this.state.pageData.elements : [];
    const covers = (el, px, py) => this.drawnPixels.covers(el, px, py);
    return below ? nextBelowAt(elements, x, y, this.state.selection, covers) : topmostAt(elements, x, y, covers);
  }

  /** A promise for the stickers' pixels under (x, y) when some are not in yet, else null. */
  pixelsPending(x, y) {
    return this.drawnPixels.pending(allAt(this.state.pageData ? this.state.pageData.elements : [], x, y));
  }

  // Input.

  pointer(e) {
    if (!this.state.pageData) return;
    // Pen first (pen-first.js): a pen cancels the touches down before it, a touch while it
    // writes goes nowhere, and with "pen only" on a finger selects whatever tool is in hand.
    const toolFor = (route) => (route === 'select' ? this.tools.select : this.tool);
    const route = this.penFirst.route(e, (r) => toolFor(r).cancel());
    if (route) toolFor(route).dispatch(e);
  }

  /** An endless page's view grows as the pen nears its end (view.js). */
  growPage(point) {
    if (point && this.view.growTo(point[1])) this.zoom.changed({ handles: false });
  }

  setTool(name) {
    if (!this.tools[name] || this.tool.name === name) return;
    this.tool.cancel();
    this.tool = this.tools[name];
    this.view.frame.dataset.tool = name;
    this.panels.tools.showTool(name);
    // The lasso keeps the selection (Shift adds to it); the other tools leave it.
    if (name !== 'select' && name !== 'lasso') { this.select(null); this.strokes.select(null); }
    this.widths.showFor(name);
    if (name === 'eraser') this.eraserReveal();
  }

  /**
   * What the pixel eraser reveals where it passes: the page drawn without its topmost ink layer
   * and what lies over it (`render?without=INK&layer=below`, the layer the eraser clears), at
   * the view's scale, fetched when the eraser is taken up and after each change while it is in
   * hand; null until it has arrived, or when the page has no ink (the eraser then clears
   * nothing). ink-preview.js draws the live stroke with it, so the trail looks like its render.
   */
  eraserReveal() {
    const st = this.state, data = st.pageData;
    const ink = data ? data.elements.filter((e) => e.type === 'ink').pop() : null;
    const scale = this.view.scale;
    const key = ink ? `${st.pageId}|${st.revision}|${ink.id}|${scale}` : '';
    if (this.reveal && this.reveal.key === key) return this.reveal.image;
    if (!ink || !(scale > 0)) { this.reveal = { key, image: null }; return null; }
    const entry = this.reveal = { key, image: null, scale };
    this.api.render(st.pageId, scale, ink.id, 'below')
      .then((blob) => createImageBitmap(blob))
      .then((img) => { if (this.reveal === entry) entry.image = img; }, () => { if (this.reveal === entry) this.reveal = null; });
    return null;
  }

  select(id, { focus = true } = {}) {
    if (id && this.strokes.id) this.strokes.select(null);
    if (id !== this.state.selection) this.panels.selection.commitEditing();
    if (id && !this.state.elementById(id)) id = null;
    this.state.selection = id;
    this.view.markSelected(id, { focus });
    if (id && this.state.elementById(id).type !== 'ink') {
      this.gestures.prepare(id);
      const sharp = this.zoom.sharpView();
      if (sharp) this.gestures.prepareSharp(id, sharp).catch(() => {});
    }
    this.showFrame();
    this.panels.layers.showSelection(id);
    this.panels.selection.show();
  }

  /**
   * The selection's frame and handles over the selected element as the page last drew it, and
   * the selection on the page element for scripts (`data-techo-selection`, empty for none).
   */
  showFrame() {
    this.view.frame.dataset.techoSelection = this.state.selectedItems().join(' ') || this.strokes.id || '';
    if (this.group.showFrame()) return;
    const el = this.state.selection ? this.state.elementById(this.state.selection) : null;
    this.selectionFrame.show(el && !el.locked ? el : null, el && el.transform);
  }

  keydown(e) {
    const t = e.target;
    const typing = t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable);
    const mod = e.ctrlKey || e.metaKey;
    const key = e.key.toLowerCase();
    if (mod && !typing && key === 'z') { e.preventDefault(); this.undoRedo(e.shiftKey ? 'redo' : 'undo'); return; }
    if (mod && !typing && key === 'y') { e.preventDefault(); this.undoRedo('redo'); return; }
    if (e.key === 'Escape') { this.tool.cancel(); this.select(null); this.strokes.select(null); return; }
    // A picked stroke is deleted from anywhere but a text field (the width slider just used, too).
    const textField = typing && !(t.tagName === 'INPUT' && ['range', 'checkbox', 'color', 'button'].includes(t.type));
    if (this.strokes.id && !textField && !mod && (e.key === 'Delete' || e.key === 'Backspace')) { e.preventDefault(); this.strokes.remove(); return; }
    if (typing || mod || e.altKey) return;
    const onHandle = t && t.classList && t.classList.contains('handle');
    // Arrows nudge the selection (nudge.js) with the select tool in hand or a handle focused.
    if (e.key.startsWith('Arrow') && (onHandle || this.tool === this.tools.select) && this.nudge.by(e.key, e.shiftKey)) {
      e.preventDefault();
      return;
    }
    // A group deletes from anywhere but a text field, as a picked stroke does (a group of strokes has no handle to focus).
    if (this.state.isGroup() && (e.key === 'Delete' || e.key === 'Backspace')) { e.preventDefault(); this.group.act('delete'); return; }
    if (onHandle && (e.key === 'Delete' || e.key === 'Backspace')) { e.preventDefault(); this.panels.selection.act('delete'); return; }
    // Tool letters work wherever focus is, but in a text field (handled above).
    if (SHORTCUTS[key] && !e.shiftKey) { e.preventDefault(); this.setTool(SHORTCUTS[key]); }
  }

  // Changes: each is one request, one history step, then a refresh.

  /**
   * Runs one change after the ones before it (so two quick edits reach the server in order),
   * showing the server's message when it is refused; `undoView` puts the screen back then.
   */
  change(fn, undoView) {
    // Arrow presses still gathering into one step go first (their commit comes back here).
    if (this.nudge.run) this.nudge.flush();
    this.changing += 1;
    const run = this.queue.then(fn).catch((e) => {
      if (undoView) undoView();
      this.view.say(e.message || String(e), { error: true });
      return this.refresh();
    });
    this.queue = run.catch(() => {}).then(() => { this.changing -= 1; });
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

  undoRedo(which) {
    this.tool.cancel();
    return this.change(async () => {
      await (which === 'undo' ? this.api.undo() : this.api.redo());
      await this.refresh();
    });
  }

  /** Starts `element` following a gesture on the overlay (live-gesture.js). */
  startLive(element) { return element.type === 'group' ? this.group.start() : this.gestures.start(element); }

  /** Sends one gesture replay (one history step) and swaps in the new render. */
  commitGesture(id, events, live) { return live && live.group ? this.group.commit(events, live) : this.gestures.commit(id, events, live); }

  commitStroke(stroke) {
    return this.change(async () => {
      await this.api.draw(this.state.pageId, stroke);
      await this.refresh(() => { this.view.clearOverlay(); this.ink.clear(); });
    }, () => { this.view.clearOverlay(); this.ink.clear(); });
  }

  washiColor() { return `${this.style.color.slice(0, 7)}cc`; }
  washiWidth() { return Math.round(15 / 25.4 * ((this.state.pageMeta() || {}).dpi || 300)); }

  commitWashi(from, to) {
    return this.change(async () => {
      const r = await this.api.addElement(this.state.pageId, { type: 'washi', from, to, width: this.washiWidth(), color: this.washiColor() });
      await this.refresh(() => { this.view.clearOverlay(); this.ink.clear(); });
      // The washi tool stays in hand for the next strip, as the pens do.
    }, () => { this.view.clearOverlay(); this.ink.clear(); });
  }

  openPage(id) {
    if (id === this.state.pageId) return;
    this.panels.selection.commitEditing();
    this.tool.cancel();
    this.state.pageId = id;
    this.state.selection = null;
    this.gestures.forget();
    this.view.stage.scrollTop = 0;
    this.refresh();
  }
}

/** The browser's localStorage, or null where it is refused (a private window, a sandbox). */
function storage() {
  try { return window.localStorage; } catch { return null; }
}

const editor = new Editor();
editor.start().catch((e) => editor.view.say(e.message || String(e), { error: true }));
