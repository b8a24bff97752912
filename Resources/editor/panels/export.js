// Export: the current page as PNG and the whole journal as PDF, downloaded by the browser from
// URLs api.js makes (the token travels in them).

export function exportPanel(doc, editor) {
  const on = (action, url) => doc.querySelector(`[data-techo-action=${action}]`).addEventListener('click', () => download(doc, url()));
  on('export-png', () => editor.api.exportPageUrl(editor.state.pageId, 1));
  on('export-pdf', () => editor.api.exportJournalUrl());
  return {};
}

function download(doc, url) {
  const a = doc.createElement('a');
  a.href = url;
  a.download = '';
  doc.body.append(a);
  a.click();
  a.remove();
}
