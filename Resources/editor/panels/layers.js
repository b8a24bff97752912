// The layers list (§13 "Selecting"): every element of the page in stacking order, topmost first,
// one row each (`[data-techo-layer="ID"]`): its name selects it; dragging a row onto another, or
// the ↑ and ↓ under the list (for the selected one), move it in the stack; the lock and eye buttons (`[data-techo-action="lock"|"hide"]`,
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

export function layersPanel(doc, editor) {
  const { api, state } = editor;
  const list = doc.getElementById('layers');
  const rows = new Map();   // id -> {li, name, lock, hide}
  let dragged = null;
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

  function makeRow(id) {
    const li = doc.createElement('li');
    li.dataset.techoLayer = id;
    li.draggable = true;
    const name = button('', '', () => editor.select(li.dataset.techoLayer, { focus: false }));
    name.className = 'layer-name';
    const lock = button('', '', () => toggle(li.dataset.techoLayer, 'locked'));
    lock.dataset.techoAction = 'lock';
    const hide = button('', '', () => toggle(li.dataset.techoLayer, 'hidden'));
    hide.dataset.techoAction = 'hide';
    li.addEventListener('dragstart', (e) => { dragged = li.dataset.techoLayer; e.dataTransfer.effectAllowed = 'move'; });
    li.addEventListener('dragover', (e) => { if (dragged) e.preventDefault(); });
    li.addEventListener('drop', (e) => {
      e.preventDefault();
      const els = state.pageData ? state.pageData.elements : [];
      const from = els.findIndex((x) => x.id === dragged), to = els.findIndex((x) => x.id === li.dataset.techoLayer);
      if (from >= 0 && to >= 0) restack(dragged, to - from);
      dragged = null;
    });
    li.append(name, lock, hide);
    const row = { li, name, lock, hide };
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
        r.lock.innerHTML = el.locked ? ICONS.locked : ICONS.unlocked;
        r.lock.setAttribute('aria-pressed', String(!!el.locked));
        r.lock.setAttribute('aria-label', `Lock ${el.id}`);
        r.hide.innerHTML = el.hidden ? ICONS.hidden : ICONS.shown;
        r.hide.setAttribute('aria-pressed', String(!!el.hidden));
        r.hide.setAttribute('aria-label', `Hide ${el.id}`);
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
