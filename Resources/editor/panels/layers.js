// The layers list (§13 "Selecting"): every element of the page in stacking order, topmost first,
// one row each (`[data-techo-layer="ID"]`): its name selects it; dragging a row by its grip
// (`[data-techo-action="grip"]`, with a mouse, a pen or a finger: pointer events, not HTML drag
// and drop, which no touch screen drives) onto another row, or the ↑ and ↓ under the list (for
// the selected one), move it in the stack; the lock and eye buttons (`[data-techo-action="lock"|"hide"]`,
// `aria-pressed`) lock it and hide it. Each is one change, one history step. Rows are kept by id
// across redraws, so the button just pressed keeps the keyboard focus.

import { button } from './controls.js';

const ICONS = {
  locked: '<svg viewBox="0 0 24 24" aria-hidden="true"><rect x="5" y="11" width="14" height="9" rx="1.5"/><path d="M8 11V8a4 4 0 0 1 8 0v3"/></svg>',
  unlocked: '<svg viewBox="0 0 24 24" aria-hidden="true"><rect x="5" y="11" width="14" height="9" rx="1.5"/><path d="M8 11V8a4 4 0 0 1 7.5-2"/></svg>',
  shown: '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M2 12s4-7 10-7 10 7 10 7-4 7-10 7S2 12 2 12z"/><circle cx="12" cy="12" r="3"/></svg>',
  hidden: '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M2 12s4-7 10-7 10 7 10 7-4 7-10 7S2 12 2 12z"/><path d="M4 20L20 4"/></svg>',
};

/** What a row calls an element: its type and id, and a text's first words. */
export function layerName(el, stored) {
  const words = stored && typeof stored.text === 'string' ? ` “${stored.text.split('\n')[0].slice(0, 24)}”` : '';
  return `${el.id}${words}`;
}

/** Puts an icon in a button only when it changes: a redraw that lands between a press and its
 *  release (a refresh from another tab or the terminal) must not replace the node under the
 *  pointer, or the browser sends no click and the press is lost. */
function setIcon(b, name) {
  if (b.dataset.icon === name) return;
  b.dataset.icon = name;
  b.innerHTML = ICONS[name];
}

export function layersPanel(doc, editor) {
  const { api, state } = editor;
  const list = doc.getElementById('layers');
  const rows = new Map();   // id -> {li, name, lock, hide}
  let drag = null;          // {id, pointerId, y, target} while a grip is held
  // Up and down for the selected element, under the list (a row stays wide enough for its name).
  const moves = doc.createElement('div');
  moves.className = 'row layer-moves';
  const up = button('↑ up', 'Move the selected layer up', () => { if (state.selection) restack(state.selection, 1); });
  const down = button('↓ down', 'Move the selected layer down', () => { if (state.selection) restack(state.selection, -1); });
  up.dataset.techoLayerMove = 'up';
  down.dataset.techoLayerMove = 'down';
  moves.append(up, down);
  list.after(moves);
  const showMoves = () => {
    const els = state.pageData ? state.pageData.elements : [];
    const i = els.findIndex((x) => x.id === state.selection);
    up.disabled = i < 0 || i === els.length - 1;
    down.disabled = i <= 0;
  };

  const restack = (id, by) => { if (by !== 0) editor.simple(() => api.restack(state.pageId, id, { by })); };
  const toggle = (id, field) => {
    const el = state.elementById(id);
    if (el) editor.simple(() => api.setElement(state.pageId, id, { [field]: !el[field] }));
  };

  /** The row under a client point, or null. */
  const rowAt = (x, y) => {
    const hit = doc.elementFromPoint(x, y);
    const li = hit && hit.closest ? hit.closest('[data-techo-layer]') : null;
    return li && list.contains(li) ? li : null;
  };
  const endDrag = () => {
    if (!drag) return;
    const r = rows.get(drag.id);
    if (r) r.li.classList.remove('dragging');
    if (drag.target) drag.target.classList.remove('drop-target');
    drag = null;
  };

  function makeRow(id) {
    const li = doc.createElement('li');
    li.dataset.techoLayer = id;
    const grip = button('⋮⋮', '', () => {});
    grip.className = 'layer-grip';
    grip.dataset.techoAction = 'grip';
    grip.addEventListener('pointerdown', (e) => {
      if (e.button !== 0) return;
      e.preventDefault();
      grip.setPointerCapture(e.pointerId);
      drag = { id: li.dataset.techoLayer, pointerId: e.pointerId, y: e.clientY, target: null };
    });
    grip.addEventListener('pointermove', (e) => {
      if (!drag || e.pointerId !== drag.pointerId) return;
      if (Math.abs(e.clientY - drag.y) < 4 && !drag.target) return;
      li.classList.add('dragging');
      const over = rowAt(e.clientX, e.clientY);
      const target = over && over !== li ? over : null;
      if (target !== drag.target) {
        if (drag.target) drag.target.classList.remove('drop-target');
        if (target) target.classList.add('drop-target');
        drag.target = target;
      }
    });
    grip.addEventListener('pointerup', (e) => {
      if (!drag || e.pointerId !== drag.pointerId) return;
      const { id: moved, target } = drag;
      endDrag();
      if (!target) return;
      // The element takes the place of the one it was dropped on.
      const els = state.pageData ? state.pageData.elements : [];
      const from = els.findIndex((x) => x.id === moved), to = els.findIndex((x) => x.id === target.dataset.techoLayer);
      if (from >= 0 && to >= 0) restack(moved, to - from);
    });
    grip.addEventListener('pointercancel', endDrag);
    const name = button('', '', () => editor.select(li.dataset.techoLayer, { focus: false }));
    name.className = 'layer-name';
    const lock = button('', '', () => toggle(li.dataset.techoLayer, 'locked'));
    lock.dataset.techoAction = 'lock';
    const hide = button('', '', () => toggle(li.dataset.techoLayer, 'hidden'));
    hide.dataset.techoAction = 'hide';
    li.append(grip, name, lock, hide);
    const row = { li, grip, name, lock, hide };
    rows.set(id, row);
    return row;
  }

  return {
    /** Shows the page's elements (`data.elements`, bottom to top), the selection marked. */
    show(data) {
      const els = data ? data.elements : [];
      const seen = new Set();
      const order = [];
      for (let i = els.length - 1; i >= 0; i--) {
        const el = els[i];
        seen.add(el.id);
        const r = rows.get(el.id) || makeRow(el.id);
        const label = layerName(el, state.storedElement(el.id));
        r.name.textContent = label;
        r.name.setAttribute('aria-label', `Select ${el.type} ${label}`);
        r.li.dataset.type = el.type;
        r.li.setAttribute('aria-current', String(el.id === state.selection));
        setIcon(r.lock, el.locked ? 'locked' : 'unlocked');
        r.lock.setAttribute('aria-pressed', String(!!el.locked));
        r.lock.setAttribute('aria-label', `Lock ${el.id}`);
        setIcon(r.hide, el.hidden ? 'hidden' : 'shown');
        r.hide.setAttribute('aria-pressed', String(!!el.hidden));
        r.hide.setAttribute('aria-label', `Hide ${el.id}`);
        r.grip.setAttribute('aria-label', `Drag ${el.id} up or down the stack`);
        order.push(r.li);
      }
      for (const [id, r] of rows) if (!seen.has(id)) { r.li.remove(); rows.delete(id); }
      order.forEach((li, i) => { if (list.children[i] !== li) list.insertBefore(li, list.children[i] || null); });
      showMoves();
    },

    /** Marks the selected row. */
    showSelection(id) {
      for (const [rid, r] of rows) r.li.setAttribute('aria-current', String(rid === id));
      showMoves();
    },
  };
}
