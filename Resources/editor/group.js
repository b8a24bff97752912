// Several things selected at once, elements and strokes: what the group is (group-geometry.js's
// box of the selected elements and the strokes' drawn bounds), how it shows (one frame round the
// union with corner and rotate handles, each member outlined: an element by its handle, a stroke
// by a dashed box over its drawn bounds), and what it does as one
// history step: a gesture (drag, pinch, turn, handle drag, double-tap) through
// `POST …/gesture {elements, strokes, events}`, flip through the same route, raise and lower
// through `POST …/restack` (elements only: a stroke keeps its place in its ink layer), delete
// through `POST …/remove {elements, strokes}`.
//
// The page's answer carries no stroke geometry: a stroke member's box is `GET …/strokes`'s
// `bounds` (state.strokeList, once per revision). After a gesture the boxes are moved by what
// the gesture did until the next list says where the strokes are, so the frame does not jump.

import { groupBox, pickable, pickableStroke, strokeBox } from './group-geometry.js';
import { apply } from './matrix.js';
import { GroupLive, prepareGroup } from './live-gesture.js';

export class Group {
  constructor(editor) {
    this.editor = editor;
    // A new revision: the strokes' boxes are read again (they moved, or one went).
    editor.state.on('page', () => this.reloadStrokes());
  }

  /** The selected elements (as the page's answer lists them), bottom to top. */
  members() {
    const s = this.editor.state;
    return s.selectedIds().map((id) => s.elementById(id)).filter(Boolean);
  }

  /** The selected strokes with their boxes (`{id, layer, tool, bounds}`), those whose box is known. */
  strokeMembers() {
    const s = this.editor.state;
    return s.selectedStrokes.map((id) => s.strokeInfo(id)).filter((x) => x && x.bounds);
  }

  /** Whether several things are selected. */
  active() { return this.editor.state.isGroup(); }

  /** The group's element-like box (`{type: 'group', ids, size, transform}`), or null without a group. */
  element() {
    if (!this.active()) return null;
    const movable = this.members().filter((el) => el.type !== 'ink');
    return groupBox([...movable, ...this.strokeMembers().map(strokeBox)]);
  }

  /** Whether the group can be moved: no element member locked, none ink, no stroke of a locked layer. */
  movable() {
    const m = this.members();
    const elements = this.editor.state.pageData ? this.editor.state.pageData.elements : [];
    const strokes = this.editor.state.selectedStrokes;
    return m.length + strokes.length > 1 && m.every((el) => el.type !== 'ink' && !el.locked)
      && strokes.every((id) => { const s = this.editor.state.strokeInfo(id); return !s || pickableStroke(s, elements); });
  }

  /**
   * Selects exactly `ids` (elements) and `strokes` (one thing alone selects as a click does; none
   * clears). `prepare: false` (a marquee still growing) leaves fetching the pictures a drag draws
   * to the last call.
   */
  set(ids, { strokes = [], prepare = true } = {}) {
    const ed = this.editor;
    if (ids.length + strokes.length <= 1) {
      if (strokes.length) {
        const s = ed.state.strokeInfo(strokes[0]);
        return ed.strokes.select(s ? { id: s.id, layer: s.layer } : { id: strokes[0] });
      }
      ed.strokes.select(null);
      ed.select(ids[0] || null);
      return Promise.resolve();
    }
    if (ed.strokes.id) ed.strokes.select(null);
    ed.panels.selection.commitEditing();
    ed.state.setSelected(ids, strokes);
    ed.view.markSelected(ed.state.selection, { focus: false });
    this.mark();
    ed.showFrame();
    ed.panels.layers.showSelection(ed.state.selection);
    ed.panels.selection.show();
    // The strokes' boxes, when a stroke joined whose box is not known yet.
    const known = strokes.every((id) => ed.state.strokeInfo(id));
    const ready = known ? Promise.resolve() : ed.state.strokeList().then(() => this.showFrame(), () => {});
    // The pictures a drag draws are fetched now, so the first frames of a drag show the members.
    if (prepare) ready.then(() => { if (this.movable()) prepareGroup(ed.gestures, this.members(), this.strokeMembers()).catch(() => {}); });
    return ready;
  }

  /** Shift+click on element `id`: adds it to the selection, or takes it out. */
  toggle(id) {
    const st = this.editor.state;
    const { ids, strokes } = this.current();
    const el = st.elementById(id);
    if (ids.includes(id)) return this.set(ids.filter((x) => x !== id), { strokes });
    if (el && pickable(el)) return this.set([...ids, id], { strokes });
    return Promise.resolve();
  }

  /** Shift+click on stroke `hit` (`{id, layer}`): adds it to the selection, or takes it out. */
  toggleStroke(hit) {
    const { ids, strokes } = this.current();
    if (strokes.includes(hit.id)) return this.set(ids, { strokes: strokes.filter((x) => x !== hit.id) });
    if (!this.editor.state.strokeInfo(hit.id)) this.editor.state.knowStrokes([hit]);
    return this.set(ids, { strokes: [...strokes, hit.id] });
  }

  /** What is selected now, the one stroke picked alone (stroke-selection.js) included. */
  current() {
    const ed = this.editor, st = ed.state;
    const strokes = st.selectedStrokes.slice();
    const one = ed.strokes.current;
    if (one && !strokes.includes(one.id)) { strokes.push(one.id); st.knowStrokes([one]); }
    return { ids: st.selected.slice(), strokes };
  }

  /** Reads the strokes' boxes again after a new revision (a stroke gone leaves the group). */
  reloadStrokes() {
    const st = this.editor.state;
    if (!st.selectedStrokes.length) return;
    const page = st.pageId;
    st.strokeList().then((list) => {
      if (st.pageId !== page || !st.selectedStrokes.length) return;
      const here = new Set(list.map((s) => s.id));
      const left = st.selectedStrokes.filter((id) => here.has(id));
      if (left.length !== st.selectedStrokes.length) { this.set(st.selected.slice(), { strokes: left }); return; }
      this.editor.showFrame();
    }, () => {});
  }

  /** Outlines every element member (their handles' `selected` look). */
  mark() {
    const ids = new Set(this.editor.state.selectedIds());
    for (const h of this.editor.view.handles.children) h.classList.toggle('selected', ids.has(h.dataset.techoElement));
  }

  /**
   * Outlines each stroke member's drawn bounds (`[data-techo-stroke-outline]`, dashed as a picked
   * stroke's frame), moved by `g` while a gesture is in flight; none without a group.
   */
  outlineStrokes(g = null) {
    const view = this.editor.view, k = view.k;
    const boxes = this.active() ? this.strokeMembers().map((s) => (g ? movedBox(s.bounds, g) : s.bounds)) : [];
    const nodes = this.outlines || (this.outlines = []);
    while (nodes.length > boxes.length) nodes.pop().remove();
    boxes.forEach((b, i) => {
      let n = nodes[i];
      if (!n) {
        n = view.doc.createElement('div');
        n.className = 'stroke-frame';
        n.dataset.techoStrokeOutline = '';
        view.frame.append(n);
        nodes.push(n);
      }
      Object.assign(n.style, { left: `${b[0] * k}px`, top: `${b[1] * k}px`, width: `${b[2] * k}px`, height: `${b[3] * k}px` });
    });
  }

  /** Shows the group's frame; false when there is no group (the one element's frame shows). */
  showFrame() {
    this.outlineStrokes();
    if (!this.active()) return false;
    const ed = this.editor;
    ed.view.frame.dataset.techoSelection = ed.state.selectedItems().join(' ');
    const g = this.element();
    this.mark();
    ed.selectionFrame.show(g && this.movable() ? g : null, g && g.transform);
    // The bar follows the frame (a group of strokes changes no element's handle, which it watches).
    if (ed.selectionBar) ed.selectionBar.schedule();
    return true;
  }

  /** Starts the group following a gesture on the overlay. */
  start() {
    const ed = this.editor;
    ed.state.beginGesture();
    const members = this.members(), strokes = this.strokeMembers();
    const live = new GroupLive(ed.gestures, this.element(), members, (el, m) => { ed.selectionFrame.show(el, m); this.outlineStrokes(live.g); }, strokes);
    prepareGroup(ed.gestures, members, strokes).then((a) => { live.assets = a; if (!live.done) live.schedule(); }).catch(() => {});
    return live;
  }

  /** The gesture request for elements `ids` and strokes `strokes` on `page` (each list only when it has ids). */
  send(ids, strokes, events, page = this.editor.state.pageId) {
    const json = { events };
    if (ids.length) json.elements = ids;
    if (strokes.length) json.strokes = strokes;
    return this.editor.api.json('POST', `/api/pages/${encodeURIComponent(page)}/gesture`, { json });
  }

  /** Sends the group's gesture (one request, one history step) and swaps in the new render. */
  commit(events, live) {
    const ed = this.editor;
    const ids = live ? live.members.map((e) => e.id) : ed.state.selectedIds();
    const strokes = live ? live.strokes.map((s) => s.id) : ed.state.selectedStrokes.slice();
    const t0 = performance.now();
    if (live) { live.finish(); live.draw(); }
    const g = live ? live.g : null;
    return ed.change(async () => {
      try {
        await this.send(ids, strokes, events);
        await ed.state.refresh(() => {
          // Where the strokes' boxes went, until the next list says (the frame stays with them).
          if (g) ed.state.knowStrokes(live.strokes.map((s) => ({ id: s.id, bounds: movedBox(s.bounds, g) })));
          ed.view.clearOverlay();
          ed.gestures.timings.push(performance.now() - t0);
        });
      } finally {
        if (live) ed.state.endGesture();
      }
    }, () => { if (live) live.abort(); });
  }

  /** The selection bar's actions on the whole group, each one request. */
  act(name) {
    const ed = this.editor, page = ed.state.pageId, ids = ed.state.selectedIds(), strokes = ed.state.selectedStrokes.slice();
    switch (name) {
      case 'flip-h': return this.commit([{ gesture: 'flip', axis: 'h' }]);
      case 'flip-v': return this.commit([{ gesture: 'flip', axis: 'v' }]);
      case 'rotate': return this.commit([{ gesture: 'doubleTap' }]);
      // A stroke keeps its place in its ink layer: raise and lower move the elements.
      case 'raise':
      case 'lower':
        if (!ids.length) { ed.view.say('strokes keep their place in their ink layer: raise or lower the layer'); return null; }
        return ed.simple(() => ed.api.restackGroup(page, ids, { by: name === 'raise' ? 1 : -1 }));
      case 'delete': {
        ed.select(null);
        const json = {};
        if (ids.length) json.elements = ids;
        if (strokes.length) json.strokes = strokes;
        return ed.simple(() => ed.api.json('POST', `/api/pages/${encodeURIComponent(page)}/remove`, { json }));
      }
    }
    return null;
  }
}

/** The axis-aligned box `[x, y, w, h]` of box `b` under page matrix `m`. */
export function movedBox(b, m) {
  const pts = [[b[0], b[1]], [b[0] + b[2], b[1]], [b[0] + b[2], b[1] + b[3]], [b[0], b[1] + b[3]]].map(([x, y]) => apply(m, x, y));
  const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
  const x0 = Math.min(...xs), y0 = Math.min(...ys);
  return [x0, y0, Math.max(...xs) - x0, Math.max(...ys) - y0];
}
