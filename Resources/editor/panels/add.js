// Adding to the page: stickers and photos from the file pickers (`data-techo-upload`) or dropped
// on the page, and a new text from the panel's form. Each is one change; what was added is then
// selected with the select tool.

const PHOTO_TYPES = /^(image\/(jpeg|heic|heif|avif))$|\.(jpe?g|heic|heif|avif)$/i;

export function addPanel(doc, editor) {
  const { api, state, view } = editor;

  /** Files from the picker or a drop: photos (JPEG, HEIC, AVIF) as photos, the rest as stickers. */
  const addFiles = (files, type, at) => {
    for (const file of files) {
      const kind = type || (PHOTO_TYPES.test(file.type) || PHOTO_TYPES.test(file.name) ? 'photo' : 'image');
      editor.change(async () => {
        const r = await api.upload(state.pageId, kind, file, at);
        await editor.refresh();
        if (r.id) { editor.setTool('select'); editor.select(r.id); }
        view.say(`added ${file.name}`);
      });
    }
  };

  for (const input of doc.querySelectorAll('input[data-techo-upload]')) {
    input.addEventListener('change', () => {
      addFiles([...input.files], input.dataset.techoUpload);
      input.value = '';
    });
  }
  const frame = view.frame;
  frame.addEventListener('dragover', (e) => {
    if (![...e.dataTransfer.types].includes('Files')) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
    frame.classList.add('drop');
  });
  frame.addEventListener('dragleave', () => frame.classList.remove('drop'));
  frame.addEventListener('drop', (e) => {
    e.preventDefault();
    frame.classList.remove('drop');
    const files = [...e.dataTransfer.files];
    if (files.length) addFiles(files, null, view.toPage(e.clientX, e.clientY).map(Math.round));
  });
  // A file dropped beside the page must not navigate away from the editor.
  doc.defaultView.addEventListener('dragover', (e) => e.preventDefault());
  doc.defaultView.addEventListener('drop', (e) => e.preventDefault());

  const textNew = doc.getElementById('text-new');
  doc.getElementById('text-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const text = textNew.value.trim();
    if (!text || !state.pageData) return;
    const meta = state.pageMeta();
    const fields = { type: 'text', text, size: Math.round(meta.width / 24), color: editor.style.textColor || editor.style.color, align: 'center',
      at: [Math.round(meta.width / 2), Math.round(meta.height / 2)] };
    editor.change(async () => {
      const r = await api.addElement(state.pageId, fields);
      textNew.value = '';
      await editor.refresh();
      if (r.id) { editor.setTool('select'); editor.select(r.id); }
    });
  });

  return { addFiles };
}
