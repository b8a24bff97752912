// Export and sharing: the current page as PNG and the whole journal as PDF, downloaded by the
// browser from URLs api.js makes (the token travels in them); and Share, which hands the page's
// PNG to the system's share sheet where the browser has one (Web Share with files: Safari on an
// iPad or iPhone, Chrome on Android, Windows and macOS) and downloads it everywhere else.
//
// The share sheet must be opened while the tap still counts as the user's (transient
// activation, about a second in WebKit), so the PNG is fetched when the pointer reaches the
// button (hover, press or keyboard focus) and the click only waits for what is under way.
// After each Share, the button's `data-techo-shared` says what became of it: `shared`,
// `cancelled` (the sheet was closed), `downloaded`, or `failed`.

export function exportPanel(doc, editor, nav = navigator) {
  const on = (action, url) => doc.querySelector(`[data-techo-action=${action}]`).addEventListener('click', () => download(doc, url()));
  on('export-png', () => editor.api.exportPageUrl(editor.state.pageId, 1));
  on('export-pdf', () => editor.api.exportJournalUrl());

  const share = doc.querySelector('[data-techo-action=share]');
  let prepared = null;   // {pageId, revision, promise}
  const prepare = () => {
    const { pageId, revision } = editor.state;
    if (!prepared || prepared.pageId !== pageId || prepared.revision !== revision) {
      const promise = editor.api.exportPage(pageId);
      prepared = { pageId, revision, promise };
      promise.catch(() => { if (prepared && prepared.promise === promise) prepared = null; });
    }
    return prepared.promise;
  };
  for (const type of ['pointerenter', 'pointerdown', 'focus']) share.addEventListener(type, () => { prepare().catch(() => {}); });
  share.addEventListener('click', async () => {
    share.setAttribute('aria-busy', 'true');
    delete share.dataset.techoShared;
    try {
      const { blob, name } = await prepare();
      share.dataset.techoShared = await shareOrDownload(doc, nav, blob, name);
    } catch (e) {
      share.dataset.techoShared = 'failed';
      editor.view.say(`Share: ${e.message || e}`, { error: true });
    } finally {
      share.removeAttribute('aria-busy');
    }
  });
  return {};
}

/** Offers `blob` to the share sheet when the browser can share files, else downloads it. */
async function shareOrDownload(doc, nav, blob, name) {
  const file = typeof File === 'function' ? new File([blob], name, { type: 'image/png' }) : null;
  if (file && typeof nav.share === 'function' && typeof nav.canShare === 'function' && nav.canShare({ files: [file] })) {
    try {
      await nav.share({ files: [file], title: name });
      return 'shared';
    } catch (e) {
      if (e && e.name === 'AbortError') return 'cancelled';
      // NotAllowedError (the tap no longer counts) or a sheet that failed: the file still goes out.
    }
  }
  const url = URL.createObjectURL(blob);
  download(doc, url, name);
  setTimeout(() => URL.revokeObjectURL(url), 60000);
  return 'downloaded';
}

function download(doc, url, name = '') {
  const a = doc.createElement('a');
  a.href = url;
  a.download = name;
  doc.body.append(a);
  a.click();
  a.remove();
}
