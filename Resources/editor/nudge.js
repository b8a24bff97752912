// Arrow keys move the selection (one element or a group) by 1 mm on the page (Shift: 10 mm).
//
// Each press moves the live overlay at once (the same live gesture a drag draws); presses less
// than RUN_MS apart — a held key's auto-repeat or quick taps — are one run, and the run is sent
// when it ends as ONE pan of the summed millimetres (one request, one history step) through the
// gesture route a drag uses. The sum is kept in whole millimetres and turned into page pixels
// once, so no press is lost to a request in flight and the end position is exactly the sum.
// A run ends RUN_MS after its last press, when another selection is nudged, or before any other
// change (the editor's change queue flushes it first, so Ctrl+Z right after takes it back).
// A locked element is not moved on screen; its run is still sent, and the server's refusal
// (409) is shown as every refusal is.

import { movedBox } from './group.js';

export const RUN_MS = 600;
const STEPS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

export class Nudge {
  /** `editor`: the editor (its state, group, live gestures, api and change queue). */
  constructor(editor) {
    this.editor = editor;
    this.run = null;          // {key, page, ids, live, mm: [x, y], dpi, timer}
    this.inFlight = new Map(); // run key -> [dx, dy] page px sent whose render is not on screen yet
  }

  /**
   * Moves the selection one step for the arrow `key`; `big` is Shift. Returns false when there
   * is nothing to move (no selection, ink only), so the key keeps its usual meaning.
   */
  by(key, big) {
    const unit = STEPS[key];
    if (!unit) return false;
    const ed = this.editor, state = ed.state;
    const members = state.selectedIds().map((id) => state.elementById(id)).filter((el) => el && el.type !== 'ink');
    // A group's strokes move with it (group.js).
    const strokes = members.length + state.selectedStrokes.length > 1 ? state.selectedStrokes.slice() : [];
    if (!members.length && !strokes.length) return false;
    const ids = members.map((el) => el.id);
    const runKey = `${state.pageId}|${[...ids, ...strokes].join(',')}`;
    if (this.run && this.run.key !== runKey) this.flush();
    if (!this.run) this.run = this.begin(runKey, members, strokes);
    const n = this.run;
    const mm = big ? 10 : 1;
    n.mm[0] += unit[0] * mm;
    n.mm[1] += unit[1] * mm;
    const px = (mm * n.dpi) / 25.4;
    if (n.live) n.live.apply([{ gesture: 'pan', state: 'changed', translation: [unit[0] * px, unit[1] * px] }]);
    clearTimeout(n.timer);
    n.timer = setTimeout(() => this.flush(), RUN_MS);
    return true;
  }

  begin(key, members, strokes = []) {
    const ed = this.editor, state = ed.state;
    const dpi = (state.pageMeta() || {}).dpi || 300;
    const ids = members.map((el) => el.id);
    // A locked member: nothing moves on screen; the server's refusal is shown at the run's end.
    let live = null;
    if (ed.changing === 0) this.inFlight.clear();
    if (!members.some((el) => el.locked)) {
      live = members.length + strokes.length > 1 ? ed.group.start() : ed.gestures.start(members[0]);
      // A run sent a moment ago whose render is not back yet: start from where it put the selection.
      const d = this.inFlight.get(key);
      if (d) live.apply([{ gesture: 'pan', state: 'changed', translation: d }]);
    }
    return { key, page: state.pageId, ids, strokes, live, mm: [0, 0], dpi, timer: 0 };
  }

  /** Sends the run in progress, if any: one pan of the summed move, one history step. */
  flush() {
    const n = this.run;
    if (!n) return;
    this.run = null;
    clearTimeout(n.timer);
    const ed = this.editor;
    if (!n.mm[0] && !n.mm[1]) { if (n.live) n.live.abort(); return; }  // back where it began: nothing to send
    const d = [(n.mm[0] * n.dpi) / 25.4, (n.mm[1] * n.dpi) / 25.4];
    const events = [{ gesture: 'pan', state: 'changed', translation: d }];
    if (n.live) { n.live.finish(); n.live.draw(); }
    const single = n.ids.length === 1 && !n.strokes.length ? n.ids[0] : null;
    if (n.live) this.add(n.key, d, 1);
    ed.change(async () => {
      try {
        if (single) await ed.api.gesture(n.page, single, events);
        else if (n.strokes.length) await ed.group.send(n.ids, n.strokes, events, n.page);
        else await ed.api.gestureGroup(n.page, n.ids, events);
        await ed.state.refresh(() => {
          ed.view.clearOverlay({ keepSharp: true });
          // A group's strokes: their boxes moved too, until the next list of strokes says.
          if (n.strokes.length) ed.state.knowStrokes(n.strokes.map((id) => ed.state.strokeInfo(id)).filter((s) => s && s.bounds).map((s) => ({ id: s.id, bounds: movedBox(s.bounds, [1, 0, 0, 1, d[0], d[1]]) })));
          if (n.live) this.add(n.key, d, -1);
          // A run gathering meanwhile is drawn again over the new render.
          if (this.run && this.run.live) this.run.live.schedule();
        });
      } finally {
        if (n.live) ed.state.endGesture();
      }
    }, () => { if (n.live) { this.add(n.key, d, -1); n.live.abort(); } });
  }

  /** Adds `sign`·`d` to what runs of `key` have sent and the screen does not show yet. */
  add(key, d, sign) {
    const a = this.inFlight.get(key) || [0, 0];
    const b = [a[0] + sign * d[0], a[1] + sign * d[1]];
    if (Math.abs(b[0]) < 1e-9 && Math.abs(b[1]) < 1e-9) this.inFlight.delete(key);
    else this.inFlight.set(key, b);
  }
}
