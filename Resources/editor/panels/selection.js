// The selection panel: what can be done to the selected element (flip, a quarter turn, raise,
// lower, delete, opacity) and the properties of a text or a photo, shown as the page file stores
// them. Each control sends one change when it is let go, so a slide is one history step.

import { fillSelect, setIfIdle } from './controls.js';

const ADJUSTMENTS = [
  ['brightness', -1, 1], ['contrast', -1, 1], ['saturation', -1, 1], ['warmth', -1, 1],
  ['grayscale', 0, 1], ['sepia', 0, 1], ['fade', 0, 1],
];
const ACTIONS = ['flip-h', 'flip-v', 'rotate', 'raise', 'lower', 'delete'];

export function selectionPanel(doc, editor) {
  const { api, state } = editor;
  const $ = (id) => doc.getElementById(id);

  /** Runs a selection action by its `data-techo-action` name; nothing without a selection. */
  const act = (name) => {
    const id = state.selection;
    const page = state.pageId;
    if (!id) return;
    switch (name) {
      case 'flip-h': return editor.simple(() => api.flip(page, id, 'h'));
      case 'flip-v': return editor.simple(() => api.flip(page, id, 'v'));
      case 'rotate': return editor.commitGesture(id, [{ gesture: 'doubleTap' }]);
      case 'raise': return editor.simple(() => api.restack(page, id, { by: 1 }));
      case 'lower': return editor.simple(() => api.restack(page, id, { by: -1 }));
      case 'delete':
        editor.select(null);
        return editor.simple(() => api.remove(page, id));
    }
  };
  for (const name of ACTIONS) doc.querySelector(`[data-techo-action=${name}]`).addEventListener('click', () => act(name));

  const set = (fields) => { if (state.selection) { const id = state.selection; editor.simple(() => api.setElement(state.pageId, id, fields)); } };
  $('opacity').addEventListener('change', (e) => set({ opacity: Number(e.target.value) }));
  $('text-edit').addEventListener('change', (e) => { if (e.target.value.trim()) set({ text: e.target.value }); });
  $('font').addEventListener('change', (e) => set({ font: e.target.value }));
  $('text-size').addEventListener('change', (e) => { const v = Number(e.target.value); if (v >= 1 && v <= 2000) set({ size: v }); });
  $('text-color').addEventListener('change', (e) => set({ color: e.target.value }));
  for (const b of doc.querySelectorAll('[data-align]')) b.addEventListener('click', () => set({ align: b.dataset.align }));
  $('frame').addEventListener('change', (e) => set({ frame: e.target.value }));
  $('shadow').addEventListener('change', (e) => set({ shadow: e.target.checked }));
  $('radius').addEventListener('change', (e) => set({ radius: Number(e.target.value) }));
  const adj = $('adjustments');
  for (const [name, min, max] of ADJUSTMENTS) {
    const label = doc.createElement('label');
    label.className = 'slider';
    label.innerHTML = `${name} <input type="range" min="${min}" max="${max}" step="0.05" value="0" aria-label="${name}" data-adjust="${name}">`;
    label.querySelector('input').addEventListener('change', (e) => set({ [name]: Number(e.target.value) }));
    adj.append(label);
  }

  return {
    act,

    /** The fonts the journal offers (GET /api/journal `fonts`). */
    showFonts(j) { fillSelect($('font'), (j.fonts || []).map((f) => [f, f])); },

    /** Shows what the selected element's page JSON says, or hides the panel. */
    show() {
      const panel = $('selection-panel');
      const el = state.selection && state.elementById(state.selection);
      panel.hidden = !el;
      if (!el) return;
      const stored = state.storedElement(el.id);
      $('selection-title').textContent = `${el.type} · ${el.id}`;
      $('opacity').value = String(el.opacity ?? 1);
      const movable = el.type !== 'ink';
      for (const a of ['flip-h', 'flip-v', 'rotate']) doc.querySelector(`[data-techo-action=${a}]`).disabled = !movable;
      $('text-props').hidden = el.type !== 'text';
      if (el.type === 'text') {
        setIfIdle($('text-edit'), stored.text ?? '');
        const font = $('font');
        const family = stored.font || 'sans-serif';
        if (![...font.options].some((o) => o.value === family)) font.append(new Option(family, family));
        font.value = family;
        setIfIdle($('text-size'), String(stored.size ?? 48));
        $('text-color').value = (stored.color || '#000000').slice(0, 7);
        for (const b of doc.querySelectorAll('[data-align]')) b.setAttribute('aria-checked', String(b.dataset.align === (stored.align || 'left')));
      }
      $('photo-props').hidden = el.type !== 'photo';
      if (el.type === 'photo') {
        $('frame').value = stored.frame || 'none';
        $('shadow').checked = !!stored.shadow;
        $('radius').value = String(stored.radius ?? 0);
        for (const input of doc.querySelectorAll('[data-adjust]')) input.value = String(stored[input.dataset.adjust] ?? 0);
      }
    },
  };
}
