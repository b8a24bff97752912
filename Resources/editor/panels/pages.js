// The pages list: one row per page (open it, move it up or down, remove it; removing says how to
// get it back instead of asking first), and a new page, blank or from a template.

import { button, fillSelect } from './controls.js';

export function pagesPanel(doc, editor) {
  const { api, state } = editor;
  const list = doc.getElementById('pages');
  const template = doc.getElementById('template');
  doc.getElementById('page-add').addEventListener('click', () => {
    const chosen = template.value || undefined;
    editor.change(async () => {
      const r = await api.addPage(chosen ? { template: chosen } : {});
      if (r.id) state.pageId = r.id;
      state.selection = null;
      await editor.refresh();
    });
  });

  return {
    /** Shows the journal `j`'s pages, `pageId` the open one, and its templates. */
    show(j, pageId) {
      list.replaceChildren(...j.pages.map((p, i) => {
        const li = doc.createElement('li');
        if (p.id === pageId) li.setAttribute('aria-current', 'page');
        const open = button(`${i + 1} · ${p.id}${p.endless ? ' (endless)' : ''}`, `Open page ${p.id}`, () => editor.openPage(p.id));
        open.dataset.techoPageLink = p.id;
        const up = button('↑', `Move page ${p.id} up`, () => editor.simple(() => api.movePage(p.id, i - 1)));
        const down = button('↓', `Move page ${p.id} down`, () => editor.simple(() => api.movePage(p.id, i + 1)));
        const rm = button('✕', `Remove page ${p.id}`, () => editor.simple(() => api.removePage(p.id), `removed page ${p.id} (undo brings it back)`));
        up.disabled = i === 0;
        down.disabled = i === j.pages.length - 1;
        rm.disabled = j.pages.length === 1;
        li.append(open, up, down, rm);
        return li;
      }));
      fillSelect(template, [['', 'blank page'], ...(j.templates || []).map((t) => [t, t])]);
    },
  };
}
