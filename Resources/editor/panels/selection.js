// The selection panel: what can be done to the selected element (flip either way, a quarter
// turn, raise, lower, delete, copy, duplicate, opacity) and the properties of a text or a
// photo, shown as the page file stores them. Each control sends one change when it is let go,
// so a slide is one history step.

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
    // Several selected (strokes too): each action is one request for them all (group.js).
    if (state.isGroup()) return editor.group.act(name);
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

  // A field remembers the element (and page) selected when it took focus: its change is sent to
  // that element, even when it is saved because the user picked another one or the paper.
  const panel = $('selection-panel');
  panel.addEventListener('focusin', (e) => { e.target.dataset.techoFor = state.selection || ''; e.target.dataset.techoPage = state.pageId || ''; });
  const set = (fields, e) => {
    const t = e && e.target;
    const id = (t && t.dataset.techoFor) || state.selection;
    const page = (t && t.dataset.techoPage) || state.pageId;
    if (id) editor.simple(() => api.setElement(page, id, fields));
  };
  $('opacity').addEventListener('change', (e) => set({ opacity: Number(e.target.value) }, e));
  $('text-edit').addEventListener('change', (e) => { if (e.target.value.trim()) set({ text: e.target.value }, e); });
  $('font').addEventListener('change', (e) => set({ font: e.target.value }, e));
  $('text-size').addEventListener('change', (e) => { const v = Number(e.target.value); if (v >= 1 && v <= 2000) set({ size: v }, e); });
  $('text-color').addEventListener('change', (e) => set({ color: e.target.value }, e));
  for (const b of doc.querySelectorAll('[data-align]')) b.addEventListener('click', () => set({ align: b.dataset.align }));
  $('frame').addEventListener('change', (e) => set({ frame: e.target.value }, e));
  $('shadow').addEventListener('change', (e) => set({ shadow: e.target.checked }, e));
  $('radius').addEventListener('change', (e) => set({ radius: Number(e.target.value) }, e));
  const adj = $('adjustments');
  for (const [name, min, max] of ADJUSTMENTS) {
    const label = doc.createElement('label');
    label.className = 'slider';
    label.innerHTML = `${name} <input type="range" min="${min}" max="${max}" step="0.05" value="0" aria-label="${name}" data-adjust="${name}">`;
    label.querySelector('input').addEventListener('change', (e) => set({ [name]: Number(e.target.value) }, e));
    adj.append(label);
  }

  return {
    act,

    /**
     * Saves the field being edited (its change event, sent to the element it was opened for),
     * before the selection moves on: picking another element, the paper, Escape, another page.
     */
    commitEditing() {
      const a = doc.activeElement;
      if (a && a !== doc.body && panel.contains(a) && typeof a.blur === 'function') a.blur();
    },

    /** The fonts the journal offers (GET /api/journal `fonts`). */
    showFonts(j) { fillSelect($('font'), (j.fonts || []).map((f) => [f, f])); },

    /** Shows what the selected element's page JSON says, or hides the panel. */
    show() {
      const panel = $('selection-panel');
      const el = state.selection && state.elementById(state.selection);
      panel.hidden = !el;
      if (!el) return;
      // Several selected: the actions act on them all; the properties are each element's own.
      const group = state.isGroup();
      panel.classList.toggle('group', group);
      // One element's opacity: not offered for several (it would change only the last picked).
      $('opacity').closest('label').hidden = group;
      if (group) {
        const n = state.selectedIds().length, m = state.selectedStrokes.length;
        $('selection-title').textContent = `${n} element${n === 1 ? '' : 's'}${m ? ` and ${m} stroke${m === 1 ? '' : 's'}` : ''}`;
        const movable = editor.group.movable();
        for (const a of ['flip-h', 'flip-v', 'rotate']) doc.querySelector(`[data-techo-action=${a}]`).disabled = !movable;
        $('text-props').hidden = true;
        $('photo-props').hidden = true;
        return;
      }
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
