// Several elements selected at once: what the group is (group-geometry.js's box of the selected
// elements), how it shows (one frame round the union with corner and rotate handles, each
// member's outline), and what it does as one history step: a gesture (drag, pinch, turn, handle
// drag, double-tap) through `POST …/gesture {elements, events}`, flip through the same route,
// raise and lower through `POST …/restack`, delete through `POST …/remove`.

import { groupBox, pickable } from './group-geometry.js';
import { GroupLive, prepareGroup } from './live-gesture.js';

export class Group {
  constructor(editor) { this.editor = editor; }

  /** The selected elements (as the page's answer lists them), bottom to top. */
  members() {
    const s = this.editor.state;
    return s.selectedIds().map((id) => s.elementById(id)).filter(Boolean);
  }

  /** Whether several elements are selected. */
  active() { return this.editor.state.isGroup(); }

  /** The group's element-like box (`{type: 'group', ids, size, transform}`), or null without a group. */
  element() {
    if (!this.active()) return null;
    const movable = this.members().filter((el) => el.type !== 'ink');
    return groupBox(movable);
  }

  /** Whether the group can be moved: no member locked, none ink. */
  movable() {
    const m = this.members();
    return m.length > 1 && m.every((el) => el.type !== 'ink' && !el.locked);
  }

  /**
   * Selects exactly `ids` (one selects as a click does; none clears). `prepare: false` (a marquee
   * still growing) leaves fetching the pictures a drag draws to the last call.
   */
  set(ids, { prepare = true } = {}) {
    const ed = this.editor;
    if (ids.length <= 1) { ed.select(ids[0] || null); return; }
    if (ed.strokes.id) ed.strokes.select(null);
    ed.panels.selection.commitEditing();
    ed.state.setSelected(ids);
    ed.view.markSelected(ed.state.selection, { focus: false });
    this.mark();
    ed.showFrame();
    ed.panels.layers.showSelection(ed.state.selection);
    ed.panels.selection.show();
    // The pictures a drag draws are fetched now, so the first frames of a drag show the members.
    if (prepare && this.movable()) prepareGroup(ed.gestures, this.members()).catch(() => {});
  }

  /** Shift+click: adds `id` to the selection, or takes it out. */
  toggle(id) {
    const ids = this.editor.state.selected;
    const el = this.editor.state.elementById(id);
    if (ids.includes(id)) this.set(ids.filter((x) => x !== id));
    else if (el && pickable(el)) this.set([...ids, id]);
  }

  /** Outlines every member (their handles' `selected` look). */
  mark() {
    const ids = new Set(this.editor.state.selectedIds());
    for (const h of this.editor.view.handles.children) h.classList.toggle('selected', ids.has(h.dataset.techoElement));
  }

  /** Shows the group's frame; false when there is no group (the one element's frame shows). */
  showFrame() {
    if (!this.active()) return false;
    const g = this.element();
    this.mark();
    this.editor.selectionFrame.show(g && this.movable() ? g : null, g && g.transform);
    return true;
  }

  /** Starts the group following a gesture on the overlay. */
  start() {
    const ed = this.editor;
    ed.state.beginGesture();
    const members = this.members();
    const live = new GroupLive(ed.gestures, this.element(), members, (el, m) => ed.selectionFrame.show(el, m));
    prepareGroup(ed.gestures, members).then((a) => { live.assets = a; if (!live.done) live.schedule(); }).catch(() => {});
    return live;
  }

  /** Sends the group's gesture (one request, one history step) and swaps in the new render. */
  commit(events, live) {
    const ed = this.editor;
    const ids = live ? live.members.map((e) => e.id) : this.editor.state.selectedIds();
    const t0 = performance.now();
    if (live) { live.finish(); live.draw(); }
    return ed.change(async () => {
      try {
        await ed.api.gestureGroup(ed.state.pageId, ids, events);
        await ed.state.refresh(() => { ed.view.clearOverlay(); ed.gestures.timings.push(performance.now() - t0); });
      } finally {
        if (live) ed.state.endGesture();
      }
    }, () => { if (live) live.abort(); });
  }

  /** The selection bar's actions on the whole group, each one request. */
  act(name) {
    const ed = this.editor, page = ed.state.pageId, ids = ed.state.selectedIds();
    switch (name) {
      case 'flip-h': return this.commit([{ gesture: 'flip', axis: 'h' }]);
      case 'flip-v': return this.commit([{ gesture: 'flip', axis: 'v' }]);
      case 'rotate': return this.commit([{ gesture: 'doubleTap' }]);
      case 'raise': return ed.simple(() => ed.api.restackGroup(page, ids, { by: 1 }));
      case 'lower': return ed.simple(() => ed.api.restackGroup(page, ids, { by: -1 }));
      case 'delete':
        ed.select(null);
        return ed.simple(() => ed.api.removeGroup(page, ids));
    }
    return null;
  }
}
