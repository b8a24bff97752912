// The top bar's journal part: the title, "page n of m", and undo / redo (enabled as the journal
// says). The export buttons beside them are panels/export.js.

export function headerPanel(doc, editor) {
  const undo = doc.querySelector('[data-techo-action=undo]');
  const redo = doc.querySelector('[data-techo-action=redo]');
  undo.addEventListener('click', () => editor.undoRedo('undo'));
  redo.addEventListener('click', () => editor.undoRedo('redo'));
  const title = doc.getElementById('journal-title');
  const label = doc.getElementById('page-label');
  return {
    /** Shows the journal `j` (GET /api/journal) with `pageId` open. */
    show(j, pageId) {
      title.textContent = j.title || 'techo';
      doc.title = `${j.title || 'journal'} · techo`;
      undo.disabled = !j.canUndo;
      redo.disabled = !j.canRedo;
      const index = j.pages.findIndex((p) => p.id === pageId);
      // "page 2 of 5", or "2/5" where a phone's header has no room for more (style.css).
      label.replaceChildren();
      if (index >= 0) {
        const long = doc.createElement('span'), short = doc.createElement('span');
        long.className = 'long';
        long.textContent = `page ${index + 1} of ${j.pages.length}`;
        short.className = 'short';
        short.textContent = `${index + 1}/${j.pages.length}`;
        label.append(long, short);
      }
    },
  };
}
