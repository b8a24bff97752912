// The page panel: the current page's background colour, paper pattern and tiled image, and
// "clear ink" (one undo step, so it says how to get the ink back instead of asking first).

export function pagePanel(doc, editor) {
  const { api, state } = editor;
  const color = doc.getElementById('bg-color');
  const paper = doc.getElementById('paper');
  color.addEventListener('change', (e) => editor.simple(() => api.background(state.pageId, { color: e.target.value })));
  paper.addEventListener('change', (e) => editor.simple(() => api.background(state.pageId, { paper: { pattern: e.target.value } })));
  doc.getElementById('bg-image').addEventListener('change', (e) => {
    const file = e.target.files[0];
    e.target.value = '';
    if (file) editor.simple(() => api.backgroundImage(state.pageId, file, 'tile'));
  });
  doc.querySelector('[data-techo-action=clear-ink]').addEventListener('click', () => {
    const page = state.pageId;
    editor.simple(() => api.clear(page, 'ink'), 'ink cleared (undo brings it back)');
  });

  return {
    /** Shows the page's background as stored (`data`: GET /api/pages/ID). */
    show(data) {
      const bg = (data.page && data.page.background) || {};
      color.value = typeof bg.color === 'string' ? bg.color.slice(0, 7) : '#ffffff';
      paper.value = typeof bg.paper === 'string' ? bg.paper : (bg.paper && bg.paper.pattern) || 'blank';
    },
  };
}
