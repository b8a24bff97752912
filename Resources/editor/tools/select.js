// The select tool: press an element (where it draws, drawn-pixels.js) to select it; one pointer pans it (its edges and centre snap
// to the page's centre lines, margins and other elements, Alt turns that off), two fingers pinch
// and rotate it about their midpoint, a double-tap or double-click turns it +90°. A handle of the
// selection scales or turns it (select-handles.js). Two fingers that go down on the paper around
// a selection smaller than their spread pinch and turn the selection. The element follows the
// pointers on the overlay; the whole gesture is one replay (one history step) when the last
// pointer lifts.
//
// Several at once: Shift+click (or Shift+tap) adds an element or a stroke to the selection or
// takes it out; a mouse or pen drag from empty paper draws a marquee that selects the elements
// and strokes it touches (Shift adds); pressing any member of a group, element or stroke, drags,
// pinches and turns the whole group (group.js). One finger
// on empty paper draws no marquee: it is a tap (clearing the selection) or the first finger of a
// pinch, since a finger on paper scrolls and zooms; fingers select several with the lasso.

import { boxOf, SNAP_SCREEN_PX, snapBox, snapLines } from '../snap.js';
import { marqueeBorder, marqueePick, marqueeStrokes } from '../group-geometry.js';
import { GestureRecognizer } from '../input.js';
import { pageHasStrokes, strokeAbove } from '../stroke-selection.js';
import { handleStates, handleUnder, screenK } from './select-handles.js';
import { Tool } from './tool.js';

/** How far (screen pixels) around the fingers' rectangle a selection still counts as under them. */
const FINGERS_REACH_CSS = 44;
/** The longest a press waits for the pixels of the stickers under it. */
const PICK_WAIT_MS = 400;

/** Whether the selection `el` lies under two fingers at page points a and b (k: screen px / page px). */
export function underFingers(el, a, b, k) {
  const r = FINGERS_REACH_CSS / k;
  const [x0, y0, x1, y1] = boxOf(el.size, el.transform);
  const fx0 = Math.min(a[0], b[0]) - r, fx1 = Math.max(a[0], b[0]) + r;
  const fy0 = Math.min(a[1], b[1]) - r, fy1 = Math.max(a[1], b[1]) + r;
  return x0 <= fx1 && x1 >= fx0 && y0 <= fy1 && y1 >= fy0;
}

export function selectTool(editor) {
  /** A press in the idle state: a handle, an element (by its drawn pixels), or the paper. */
  function press(e, tool) {
    // Alt (Option) picks the element under the selected one there: a sticker under another.
    const hit = editor.hitTest(e.x, e.y, { below: !!e.altKey });
    // A stroke of an ink layer above that element (stroke-selection.js says how they stack).
    const stroke = !e.altKey && strokeAbove(e.strokeHits || [], hit, editor.state.pageData.elements);
    const state = editor.state;
    if (stroke) {
      if (e.shiftKey) {
        // Shift+click adds the stroke to the selection (beside elements) or takes it out.
        editor.group.toggleStroke(stroke);
        if (state.isGroup() && state.selectedStrokes.includes(stroke.id)) tool.transition('gesturing', { event: e, element: selectionElement(editor), shift: true });
        return;
      }
      if (state.isGroup() && state.selectedStrokes.includes(stroke.id)) {
        // A stroke of the group: the group moves (a click that does not move picks the stroke alone).
        tool.transition('gesturing', { event: e, element: selectionElement(editor), memberStroke: stroke });
        return;
      }
      editor.strokes.select(stroke);
      tool.transition('movingStroke', e);
      return;
    }
    if (e.shiftKey && hit) {
      // Shift+click adds it to the selection or takes it out (a stroke picked alone stays in); a drag then moves the group.
      editor.group.toggle(hit.id);
      if (state.selected.includes(hit.id)) tool.transition('gesturing', { event: e, element: selectionElement(editor), shift: true });
      return;
    }
    if (editor.strokes.id) editor.strokes.select(null);
    if (hit && state.isGroup() && state.selected.includes(hit.id)) {
      tool.transition('gesturing', { event: e, element: selectionElement(editor), member: hit.id });
      return;
    }
    if (!hit && e.pointerType !== 'touch') { tool.transition('brushing', e); return; }
    if (!hit && e.pointerType === 'touch' && e.shiftKey) return;
    if (!hit && e.pointerType === 'touch' && editor.state.selection) {
      // Perhaps the first of two fingers about to pinch the selection.
      tool.transition('fingerOnPaper', e);
      return;
    }
    editor.select(hit ? hit.id : null);
    if (hit) tool.transition('gesturing', { event: e, element: hit });
  }

  /** The marquee's pick now: the elements it touches and the strokes settled so far; `last`: the release's. */
  function brushPick(d, last) {
    const elements = editor.state.pageData.elements;
    const picked = marqueePick(elements, d.start, d.end);
    let strokes = [];
    if (d.strokes) {
      const { inside, edge } = marqueeStrokes(d.strokes, elements, d.start, d.end);
      const crossing = d.border ? d.border.hits : new Set();
      strokes = [...inside, ...edge.filter((id) => crossing.has(id))];
      if (!last && edge.length && !sameEnd(d)) askBorder(d);
    }
    const ids = [...d.base, ...picked.filter((id) => !d.base.includes(id))];
    const sids = [...d.baseStrokes, ...strokes.filter((id) => !d.baseStrokes.includes(id))];
    const now = editor.state.selected, nowStrokes = editor.state.selectedStrokes;
    const same = ids.length === now.length && ids.every((id, i) => id === now[i])
      && sids.length === nowStrokes.length && sids.every((id, i) => id === nowStrokes[i]);
    // One stroke alone is the stroke picked (stroke-selection.js), not a group.
    const alone = ids.length === 0 && sids.length === 1 && editor.strokes.id === sids[0];
    if (last) editor.group.set(ids, { strokes: sids });
    else if (!same && !alone) editor.group.set(ids, { strokes: sids, prepare: false });
  }

  /** Whether the last answer about the border is for the marquee as it is now. */
  function sameEnd(d) { return !!d.border && d.border.end[0] === d.end[0] && d.border.end[1] === d.end[1]; }

  /** Asks which strokes' outlines cross the marquee's border (one question at a time). */
  function askBorder(d) {
    if (d.asking) return d.asking;
    const end = d.end.slice();
    d.asking = editor.strokes.hits(marqueeBorder(d.start, end), 0).then((hits) => {
      d.border = { end, hits: new Set(hits.map((h) => h.id)) };
    }, () => { d.border = { end, hits: new Set() }; }).then(() => {
      d.asking = null;
      if (!d.done) brushPick(d, false);
    });
    return d.asking;
  }

  /** Waits for the strokes' list and the answer about the final rectangle. */
  async function settleBrush(d) {
    if (d.list) d.strokes = await d.list.catch(() => null);
    if (!d.strokes) return;
    const { edge } = marqueeStrokes(d.strokes, editor.state.pageData.elements, d.start, d.end);
    while (edge.length && !sameEnd(d)) await (d.asking || askBorder(d));
  }

  return new Tool('select', editor, {
    idle: {
      onPointerDown(e, tool) {
        const handle = handleUnder(editor, e.x, e.y);
        if (handle) { tool.transition('pointingHandle', { event: e, ...handle }); return; }
        // The stickers' pixels and the strokes under the pointer decide what it picks: wait for
        // what is not in yet.
        const pixels = editor.pixelsPending(e.x, e.y);
        const inked = pageHasStrokes(editor.state.pageData);
        const hits = e.altKey || !inked ? null : editor.strokes.hits([[e.x, e.y]]).then((h) => { e.strokeHits = h; }, () => {});
        // Shift may add a stroke to a group: its box (the strokes' list) is read meanwhile.
        const list = e.shiftKey && inked ? editor.state.strokeList().catch(() => {}) : null;
        const strokes = hits && list ? Promise.all([hits, list]) : hits || list;
        const wait = pixels && strokes ? Promise.all([pixels, strokes]) : pixels || strokes;
        if (wait) { tool.transition('picking', { event: e, wait }); return; }
        press(e, tool);
      },
      onDoubleTap(e) {
        const hit = editor.hitTest(e.x, e.y);
        // A double-click or double-tap on a text edits it in place (tools/text.js); on anything
        // else it turns it +90°.
        if (hit && hit.type === 'text') { editor.setTool('text'); editor.tools.text.edit(hit.id, 'select'); return; }
        if (hit && editor.state.isGroup() && editor.state.selected.includes(hit.id)) editor.group.act('rotate');
        else if (hit) editor.commitGesture(hit.id, [{ gesture: 'doubleTap' }]);
      },
    },

    // The marquee: a drag from empty paper selects every element its rectangle touches and every
    // stroke whose outline it touches (group-geometry.js), live as it grows; with Shift, added to
    // what was selected. A press that does not move 3 screen px is a click on the paper: nothing
    // is selected any more. Strokes whose box only overlaps the rectangle are settled by the
    // server (`…/strokes/hit` along its border), one question at a time; the release waits for
    // the answer about the final rectangle.
    brushing: {
      onEnter(e, tool) {
        const base = e.shiftKey ? editor.group.current() : { ids: [], strokes: [] };
        const d = tool.data = {
          id: e.id, start: [e.x, e.y], end: [e.x, e.y], base: base.ids, baseStrokes: base.strokes, moved: false, node: null,
          strokes: null, list: null, border: null, asking: null, done: false,
        };
        if (pageHasStrokes(editor.state.pageData)) {
          d.list = editor.state.strokeList();
          d.list.then((list) => { d.strokes = list; if (!d.done && d.moved) brushPick(d, false); }, () => {});
        }
      },
      onPointerMove(e, tool) {
        const d = tool.data;
        if (e.id !== d.id) return;
        const k = screenK(editor.view);
        if (!d.moved && Math.hypot(e.x - d.start[0], e.y - d.start[1]) * k < 3) return;
        d.moved = true;
        if (!d.node) {
          d.node = editor.view.doc.createElement('div');
          d.node.className = 'marquee';
          d.node.dataset.techoMarquee = '';
          editor.view.frame.append(d.node);
        }
        const vk = editor.view.k;
        const x0 = Math.min(d.start[0], e.x), y0 = Math.min(d.start[1], e.y);
        d.node.style.cssText = `left:${x0 * vk}px;top:${y0 * vk}px;width:${Math.abs(e.x - d.start[0]) * vk}px;height:${Math.abs(e.y - d.start[1]) * vk}px`;
        d.end = [e.x, e.y];
        brushPick(d, false);
      },
      onPointerUp(e, tool) {
        const d = tool.data;
        if (e.id !== d.id) return;
        if (d.node) d.node.remove();
        tool.transition('idle');
        d.done = true;
        if (!d.moved && d.base.length === 0 && d.baseStrokes.length === 0) { editor.select(null); editor.strokes.select(null); return; }
        if (!d.moved) return;
        // The strokes' answer about the final rectangle, then the group with its pictures.
        editor.state.beginGesture();
        settleBrush(d).then(() => brushPick(d, true)).finally(() => editor.state.endGesture());
      },
      onCancel(e, tool) {
        if (tool.data.node) tool.data.node.remove();
        tool.data.done = true;
        tool.transition('idle');
      },
    },

    // Pressed where a sticker's pixels are still being fetched: the events wait (at most
    // PICK_WAIT_MS, then the sticker's box decides), then go through as if just made.
    picking: {
      onEnter({ event, wait }, tool) {
        const d = tool.data = { event, buffered: [], holder: editor.tool };
        const timer = new Promise((r) => setTimeout(r, PICK_WAIT_MS));
        Promise.race([wait, timer]).then(() => {
          // Not when another tool has been taken meanwhile (a double-click that opened a text).
          // The tool in hand may be another than this one: a finger is routed here while the pen's tool is held.
          if (tool.current !== 'picking' || tool.data !== d || editor.tool !== d.holder) return;
          tool.transition('idle');
          press(d.event, tool);
          for (const b of d.buffered) if (editor.tool === d.holder) tool.dispatch(b);
        });
      },
      onPointerDown(e, tool) { tool.data.buffered.push(e); },
      onPointerMove(e, tool) { tool.data.buffered.push(e); },
      onPointerUp(e, tool) { tool.data.buffered.push(e); },
      onDoubleTap(e, tool) { tool.data.buffered.push(e); },
      onCancel(e, tool) { tool.data.buffered = []; tool.transition('idle'); },
    },

    fingerOnPaper: {
      onEnter(e, tool) { tool.data = { first: e }; },
      onPointerDown(e, tool) {
        const first = tool.data.first;
        const el = selectionElement(editor);
        if (el && underFingers(el, [first.x, first.y], [e.x, e.y], screenK(editor.view))) {
          tool.transition('gesturing', { event: first, element: el, second: e });
        }
      },
      onPointerUp(e, tool) {
        if (e.id !== tool.data.first.id) return;
        // A tap on the paper: nothing is selected any more.
        editor.select(null);
        tool.transition('idle');
      },
      onCancel(e, tool) { tool.transition('idle'); },
    },

    gesturing: {
      onEnter({ event, element, second, member, memberStroke, shift }, tool) {
        const d = tool.data = {};
        d.recognizer = new GestureRecognizer();
        d.recognizer.down(event.id, event.x, event.y);
        d.element = element.id;
        d.live = editor.startLive(element);
        // One pointer pans with snapping: the pan applied so far, from where it went down.
        d.start = [event.x, event.y];
        d.applied = [0, 0];
        d.box = boxOf(element.size, element.transform);
        d.lines = snapLinesFor(editor, element.ids || [element.id]);
        d.member = member || null;
        d.memberStroke = memberStroke || null;
        d.shift = !!shift;
        d.multi = false;
        if (second) { d.multi = true; d.recognizer.down(second.id, second.x, second.y); }
      },
      onPointerDown(e, tool) {
        tool.data.multi = true;
        tool.data.recognizer.down(e.id, e.x, e.y);
      },
      onPointerMove(e, tool) {
        const d = tool.data;
        const events = d.recognizer.move(e.id, e.x, e.y);
        if (d.multi || d.recognizer.count > 1) {
          editor.selectionFrame.showGuides(null);
          if (events.length > 0) d.live.apply(events);
          return;
        }
        // The pan the pointer asks for, moved onto the nearest snapping line (not with Alt).
        const raw = [e.x - d.start[0], e.y - d.start[1]];
        const moved = [d.box[0] + raw[0], d.box[1] + raw[1], d.box[2] + raw[0], d.box[3] + raw[1]];
        const snap = e.altKey || !d.lines ? { dx: 0, dy: 0, guides: [] }
          : snapBox(moved, d.lines, SNAP_SCREEN_PX / screenK(editor.view));
        const want = [raw[0] + snap.dx, raw[1] + snap.dy];
        const delta = [want[0] - d.applied[0], want[1] - d.applied[1]];
        editor.selectionFrame.showGuides(snap.guides);
        if (delta[0] === 0 && delta[1] === 0) return;
        d.applied = want;
        d.live.apply([d.recognizer.event('pan', { translation: delta })]);
      },
      onPointerUp(e, tool) {
        const d = tool.data;
        d.recognizer.up(e.id);
        if (d.recognizer.count > 0) return;
        editor.selectionFrame.showGuides(null);
        // The live gesture kept every event it moved the element by: that is the replay.
        if (d.live.events.length > 0) editor.commitGesture(d.element, d.live.events, d.live);
        else {
          d.live.abort();
          // A click on a member of a group that did not move selects that member alone.
          if (d.memberStroke && !d.multi) editor.strokes.select(d.memberStroke);
          else if (d.member && !d.multi) editor.select(d.member);
        }
        tool.transition('idle');
      },
      onCancel(e, tool) {
        // A cancelled recognizer changes nothing (UIKit's .cancelled): the element goes back.
        editor.selectionFrame.showGuides(null);
        tool.data.live.abort();
        tool.transition('idle');
      },
    },

    // A stroke picked: a drag moves it (the stroke follows, stroke-selection.js; one gesture at the release).
    movingStroke: {
      onEnter(e, tool) { tool.data = { id: e.id, start: [e.x, e.y], offset: [0, 0] }; editor.strokes.beginDrag(); },
      onPointerMove(e, tool) {
        const d = tool.data;
        if (e.id !== d.id) return;
        d.offset = [e.x - d.start[0], e.y - d.start[1]];
        editor.strokes.drag(d.offset);
      },
      onPointerUp(e, tool) {
        const d = tool.data;
        if (e.id !== d.id) return;
        tool.transition('idle');
        const [dx, dy] = [Math.round(d.offset[0] * 100) / 100, Math.round(d.offset[1] * 100) / 100];
        // A press that barely moved (under 3 screen px) only selects.
        if (Math.hypot(dx, dy) * editor.view.k < 3) { editor.strokes.cancelDrag(); return; }
        editor.strokes.move(dx, dy);
      },
      onCancel(e, tool) { editor.strokes.cancelDrag(); tool.transition('idle'); },
    },

    ...handleStates(editor),
  });
}

/** What a gesture on the selection moves: the group's box, or the one selected element. */
export function selectionElement(editor) {
  return editor.state.isGroup() ? editor.group.element() : editor.elementById(editor.state.selection);
}

/** The lines the elements `ids` snap to: the page's and the other visible elements' boxes. */
function snapLinesFor(editor, ids) {
  const meta = editor.state.pageMeta();
  const data = editor.state.pageData;
  if (!meta || !data) return null;
  const others = data.elements.filter((el) => !ids.includes(el.id) && !el.hidden && el.type !== 'ink').map((el) => boxOf(el.size, el.transform));
  return snapLines(meta, others);
}
