// The select tool's handle states (after tldraw's SelectTool child states): `pointingHandle`
// (pressed on a handle of the selection, not yet moved) and `draggingHandle` (the element follows
// the handle on the overlay). The select tool's idle state asks `handleUnder` first and moves here;
// a drag ends as one §3 event, sent as one replay (one history step), and back to idle. A group's
// handles are the same on the group's box; the release sends the event for every member at once.

import { cornerPinch, handleAt, handlePoints, HANDLE_NAMES, knobRotation, SIDE_NAMES, sideDrag } from '../handles.js';
import { apply, invert } from '../matrix.js';

const DRAG_SLOP_CSS = 3;

/** Screen (CSS) pixels per page pixel, from the page element's box as drawn (zoom included). */
export function screenK(view) {
  const r = view.frame.getBoundingClientRect();
  return view.page && r.width > 0 ? r.width / view.page.width : view.k;
}

/** The handle of the selection under page point (x, y), `{name, element}`, or null. */
export function handleUnder(editor, x, y) {
  // A group's handles are on its box (group.js), when every member can move.
  const group = editor.state.isGroup();
  const el = group ? (editor.group.movable() ? editor.group.element() : null) : editor.state.selection ? editor.elementById(editor.state.selection) : null;
  if (!el || el.type === 'ink' || el.locked) return null;
  const k = screenK(editor.view);
  const inv = invert(el.transform);
  const [u, v] = inv ? apply(inv, x, y) : [Infinity, Infinity];
  const inside = Math.abs(u) <= el.size[0] / 2 && Math.abs(v) <= el.size[1] / 2;
  const names = el.type === 'text' ? [...HANDLE_NAMES, ...SIDE_NAMES] : HANDLE_NAMES;
  const name = handleAt(handlePoints(el.size, el.transform, k), x, y, k, inside, names);
  return name ? { name, element: el } : null;
}

/**
 * The event a handle at `name` dragged from p0 to e stands for (Alt: about the centre; Shift:
 * 15°). With fingers there is no key to hold: a second finger held anywhere while one drags a
 * handle stands for it (about the centre for a corner, 15° steps for the knob), as a held finger
 * constrains a stroke in Procreate.
 */
function dragEvent(d, e) {
  const el = d.element;
  d.last = e;
  const held = d.held !== null && d.held !== undefined;
  if (d.name === 'rotate') return knobRotation(el.transform, d.p0, [e.x, e.y], { snap: !!e.shiftKey || held });
  return cornerPinch(d.name, el.size, el.transform, d.p0, [e.x, e.y], { fromCentre: !!e.altKey || held });
}

export function handleStates(editor) {
  return {
    pointingHandle: {
      onEnter({ event, name, element }, tool) {
        tool.data = { pointer: event.id, name, element, p0: [event.x, event.y], live: null, held: null, last: null };
      },
      onPointerDown(e, tool) {
        // A second finger down before the first has moved: held, it stands for Alt or Shift.
        const d = tool.data;
        if (e.pointerType === 'touch' && e.id !== d.pointer && d.held == null) d.held = e.id;
      },
      onPointerMove(e, tool) {
        const d = tool.data;
        if (e.id !== d.pointer) return;
        const k = screenK(editor.view);
        if (Math.hypot(e.x - d.p0[0], e.y - d.p0[1]) * k < DRAG_SLOP_CSS) return;
        tool.transition(SIDE_NAMES.includes(d.name) ? 'draggingSide' : 'draggingHandle', e);
      },
      onPointerUp(e, tool) {
        if (e.id === tool.data.held) tool.data.held = null;
        else if (e.id === tool.data.pointer) tool.transition('idle');
      },
      onCancel(e, tool) { tool.transition('idle'); },
    },

    // A text's side handle: the frame follows the pointer at the new wrap width, and the release
    // sends one `set` of `maxWidth`, the other side kept where it is (`?keep=`), one step.
    draggingSide: {
      onEnter(e, tool) {
        const d = tool.data;
        d.min = Math.max(8, editor.state.storedElement(d.element.id).size || 0);
        this.onPointerMove(e, tool);
      },
      onPointerMove(e, tool) {
        const d = tool.data;
        if (e.id !== d.pointer) return;
        // The pointer's offset from where it went down, from the handle's own place.
        const p = d.element.transform, h = handlePoints(d.element.size, p, 1)[d.name];
        d.drag = sideDrag(d.name, d.element.size, p, [h[0] + e.x - d.p0[0], h[1] + e.y - d.p0[1]], d.min);
        editor.selectionFrame.show({ ...d.element, size: [d.drag.width, d.element.size[1]] }, d.drag.transform);
      },
      onPointerUp(e, tool) {
        const d = tool.data;
        if (e.id !== d.pointer) return;
        tool.transition('idle');
        const id = d.element.id, page = editor.state.pageId;
        const maxWidth = Math.round(d.drag.width * 100) / 100;
        editor.simple(() => editor.api.setElement(page, id, { maxWidth }, { keep: d.name === 'e' ? 'top-left' : 'top-right' }));
      },
      onCancel(e, tool) {
        tool.transition('idle');
        editor.showFrame();
      },
    },

    draggingHandle: {
      onEnter(e, tool) {
        const d = tool.data;
        d.live = editor.startLive(d.element);
        d.event = dragEvent(d, e);
        d.live.replace([d.event]);
      },
      onPointerDown(e, tool) {
        const d = tool.data;
        if (e.pointerType !== 'touch' || e.id === d.pointer || d.held != null) return;
        d.held = e.id;
        if (d.last) { d.event = dragEvent(d, d.last); d.live.replace([d.event]); }
      },
      onPointerMove(e, tool) {
        const d = tool.data;
        if (e.id !== d.pointer) return;
        d.event = dragEvent(d, e);
        d.live.replace([d.event]);
      },
      onPointerUp(e, tool) {
        const d = tool.data;
        if (e.id === d.held) {
          d.held = null;
          if (d.last) { d.event = dragEvent(d, d.last); d.live.replace([d.event]); }
          return;
        }
        if (e.id !== d.pointer) return;
        d.event = dragEvent(d, e);
        d.live.replace([d.event]);
        const still = d.event.gesture === 'pinch' ? d.event.scale === 1 : d.event.rotation === 0;
        if (still) d.live.abort();
        else editor.commitGesture(d.element.id, [d.event], d.live);
        tool.transition('idle');
      },
      onCancel(e, tool) {
        tool.data.live.abort();
        tool.transition('idle');
      },
    },
  };
}
