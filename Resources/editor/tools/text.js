// The text tool (T): a tap or click on the paper places a text box THERE (text-box.js) and the
// typing goes onto the page in place; a tap on a text sticker edits it in place, as a
// double-click on one with the select tool does. Editing ends with Escape, a click elsewhere,
// focus leaving the box or another tool: a new box adds one text (nothing when it is empty), an
// edited one sends one `set` of its text (Escape cancels that edit). Each is one history step.
//
// A new text is left-aligned from the click, in the text colour (editor.style.textColor, ink
// black until chosen), 1/24 of the page's width tall, and wraps at the page's right margin
// (10 mm in from its edge, as snapping's margins): its `maxWidth` is the distance from the
// click to that margin, at least four of its letters' size.

import { ANCHORS, TextBox } from '../text-box.js';
import { screenK } from './select-handles.js';
import { Tool } from './tool.js';

const TAP_SLOP_CSS = 8;
export const MARGIN_MM = 10;

/** The wrap width of a text placed at page x on a page `width` wide at `dpi` (page pixels). */
export function wrapWidthFrom(x, width, dpi, size) {
  const margin = (MARGIN_MM / 25.4) * (dpi || 300);
  return Math.round(Math.max(width - margin - x, 4 * size));
}

/** New text's colour until one is chosen with the text tool in hand: the palette's ink black. */
export const TEXT_COLOR = '#2b2b2b';

export function textTool(editor) {
  if (!editor.style.textColor) editor.style.textColor = TEXT_COLOR;
  let box = null;
  let zoomHooked = false;
  // Figures the browser tests read: ms from the press that placed a box to the frame that
  // shows the first character typed in it.
  const timings = editor.textTimings = [];

  let sharpTimer = 0;

  function open(spec, extra) {
    if (!zoomHooked && editor.zoom) {
      editor.zoom.onChange(() => {
        if (!box) return;
        box.place();
        // Panned or zoomed while editing: the page around the box is drawn sharp again for
        // what is now visible, once the view rests.
        const id = box.spec.id;
        clearTimeout(sharpTimer);
        if (id) sharpTimer = setTimeout(() => { if (box && box.spec.id === id) hideSharp(id); }, 150);
      });
      zoomHooked = true;
    }
    box = new TextBox(editor.view, spec, (b, how, text) => { box = null; ended(b, how, text, extra); });
    return box;
  }

  /** A new box at page point (x, y), placed by the press `e`. */
  function placeNew(e) {
    const meta = editor.state.pageMeta();
    if (!meta) return;
    const size = Math.round(meta.width / 24);
    const style = { size, color: editor.style.textColor, align: 'left', maxWidth: wrapWidthFrom(e.x, meta.width, meta.dpi, size) };
    const at = [Math.round(e.x * 100) / 100, Math.round(e.y * 100) / 100];
    const b = open({ id: null, at, linear: [1, 0, 0, 1], style, text: '' }, { page: editor.state.pageId });
    // The first character's frame, timed from the press.
    const t0 = e.time;
    b.node.addEventListener('input', () => requestAnimationFrame(() => { if (timings.length < 1000) timings.push(performance.now() - t0); }), { once: true });
  }

  /** Edits text element `id` in place; `back` is the tool to return to when it ends. */
  function edit(id, back = null) {
    const el = editor.elementById(id);
    const stored = editor.state.storedElement(id);
    if (!el || el.type !== 'text' || el.locked) return;
    if (box) box.end('commit');
    const style = {
      font: stored.font, size: stored.size ?? 48, color: stored.color || '#000000', align: stored.align || 'left',
      weight: stored.weight, italic: stored.italic, lineHeight: stored.lineHeight, letterSpacing: stored.letterSpacing,
      maxWidth: stored.maxWidth ?? null,
    };
    const m = el.transform, [w, h] = el.size;
    const u = { 'top-left': -w / 2, top: 0, 'top-right': w / 2 }[ANCHORS[style.align] || 'top-left'];
    const at = [m[0] * u + m[2] * (-h / 2) + m[4], m[1] * u + m[3] * (-h / 2) + m[5]];
    // The render without the element under the box, so the old text does not show through.
    hide(id);
    open({ id, at, linear: [m[0], m[1], m[2], m[3]], style, text: stored.text ?? '' }, { page: editor.state.pageId, back, was: stored.text ?? '' });
  }

  /**
   * Shows the page without element `id` while its text is edited in place: the backdrop a drag
   * would use (the page under it and what lies over it) on the overlay and, zoomed in, the same
   * two layers at the screen's resolution over the visible part (what a zoomed drag draws), so
   * the page around the box stays as sharp as it was. The render and its sharp tile stay on
   * screen until what replaces them is ready: the view never shows the fitted picture enlarged.
   */
  function hide(id) {
    const view = editor.view, gestures = editor.gestures;
    const sharp = gestures.sharpView();
    Promise.all([gestures.prepare(id), sharp ? gestures.prepareSharp(id, sharp).catch(() => null) : null]).then(([a, s]) => {
      if (!box || box.spec.id !== id) return;
      const ctx = view.context();
      ctx.clearRect(0, 0, view.overlay.width, view.overlay.height);
      ctx.drawImage(a.backdrop, 0, 0, view.overlay.width, view.overlay.height);
      if (a.above) ctx.drawImage(a.above, 0, 0, view.overlay.width, view.overlay.height);
      if (s && s.rect) view.drawLiveSharp({ ...s, sprite: null }, [1, 0, 0, 1, 0, 0]);
      view.frame.classList.add('live');
    }).catch(() => {});
  }

  /** The sharp layers without element `id` for the part of the page now visible (see `hide`). */
  function hideSharp(id) {
    const view = editor.view, gestures = editor.gestures;
    const sharp = gestures.sharpView();
    if (!sharp) { view.dropSharpOverlay(); return; }
    gestures.prepareSharp(id, sharp).then((s) => {
      if (!box || box.spec.id !== id || !s.rect) return;
      view.drawLiveSharp({ ...s, sprite: null }, [1, 0, 0, 1, 0, 0]);
    }).catch(() => {});
  }

  function ended(b, how, text, { page, back, was }) {
    const id = b.spec.id;
    const api = editor.api;
    const clear = () => editor.view.clearOverlay();
    if (id) {
      if (back && editor.tool.name === 'text') editor.setTool(back);
      const color = b.spec.style.color, recoloured = color !== (editor.state.storedElement(id).color || '#000000');
      if (how === 'cancel' || (text === was && !recoloured)) { clear(); if (back) editor.select(id); return; }
      if (!text.trim()) { editor.change(async () => { await api.remove(page, id); await editor.refresh(clear); }, clear); return; }
      const fields = recoloured ? { text, color } : { text };
      editor.change(async () => {
        await api.setElement(page, id, fields, { keep: b.anchor });
        await editor.refresh(clear);
        if (back) editor.select(id);
      }, clear);
      return;
    }
    // An empty box adds nothing.
    if (!text.trim()) return;
    const s = b.spec.style;
    const fields = { type: 'text', text, size: s.size, color: s.color, align: s.align, maxWidth: s.maxWidth, at: b.spec.at };
    editor.change(async () => {
      await api.addElement(page, fields, { anchor: b.anchor });
      await editor.refresh();
    });
  }

  const tool = new Tool('text', editor, {
    idle: {
      onPointerDown(e, t) { t.data = { down: e }; },
      onPointerUp(e, t) {
        const d = t.data.down;
        t.data = {};
        if (!d || d.id !== e.id) return;
        // A tap: a drag or a second finger places nothing.
        if (Math.hypot(e.x - d.x, e.y - d.y) * screenK(editor.view) >= TAP_SLOP_CSS || d.count > 1) return;
        // A click elsewhere ends the box being typed in.
        if (box) { box.end('commit'); return; }
        const hit = editor.hitTest(d.x, d.y);
        if (hit && hit.type === 'text') { edit(hit.id); return; }
        placeNew({ ...d, time: e.time });
      },
      onCancel(e, t) {
        t.data = {};
        if (box) box.end('commit');
      },
    },
  });
  tool.edit = edit;
  /** The box being typed in, or null. */
  Object.defineProperty(tool, 'box', { get: () => box });
  /** The colour chosen while the text tool is in hand also colours the box being typed in. */
  tool.recolor = (color) => {
    if (!box) return;
    box.spec.style.color = color;
    box.node.style.color = color;
    box.node.style.caretColor = color;
  };
  return tool;
}
