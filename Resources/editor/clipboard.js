// The clipboard (docs/editor.md, "Clipboard"): Ctrl/Cmd+C, X and V on the selection, and
// Ctrl/Cmd+D to duplicate it. Copy and cut use the document's own `copy` and `cut` events, so the
// keys and the browser's menu do the same; paste uses the `paste` event, which is also where a
// picture from the system clipboard (a screenshot) arrives, as a file.
//
// What is copied is one self-contained JSON text the server makes (`POST …/copy`, docs/editor-
// api.md): the elements as the page stores them, the strokes whole and the bytes of their
// pictures, so it pastes into any page of any journal, in this tab or another, on another port.
// The server is asked after the key, so the text reaches the system clipboard through the async
// Clipboard API (a ClipboardItem whose text is still on its way); the event itself holds a
// marker naming this tab's copy, which a paste in this tab understands where that API is closed
// (plain HTTP on a network address).
//
// On a tablet or phone without a keyboard the same three are buttons: Copy and Duplicate in the
// selection's floating bar, Paste in the top bar (`[data-techo-action="copy|duplicate|paste"]`).
// The Copy button takes the key's path without an event; the Paste button, which has no paste
// event, reads the system clipboard itself (`navigator.clipboard.read`) where the page may, and
// else pastes this tab's own last copy.
//
// A paste is one request (`POST …/paste`), one history step: at the pointer when it is over the
// page (the group's centre under it), else 5 mm down and right of the last one (the first
// paste on another page lands where the original was). The pasted things become the selection.
// Nothing here acts while the user types in a field or the on-page text box, or has text of the
// page selected: the browser copies and pastes text as always.

/** The marker and value a techo clipboard text starts with. */
export const CLIPBOARD_KIND = 'clipboard';
/** How far (mm) each paste of the same copy, or a duplicate, lands from the last. */
export const PASTE_OFFSET_MM = 5;

/** The techo clipboard value in `text`, or null when it is not one. Pure. */
export function clipboardValue(text) {
  if (!text || text.length > 16e6 || !/^\s*\{/.test(text)) return null;
  try {
    const v = JSON.parse(text);
    return v && v.techo === CLIPBOARD_KIND ? v : null;
  } catch { return null; }
}

/** Whether an event's target is a place where the user types (a field, the text box). */
function typingIn(t) {
  if (!t || t.nodeType !== 1) return false;
  if (t.isContentEditable || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT') return true;
  return t.tagName === 'INPUT' && !['range', 'checkbox', 'color', 'button', 'radio', 'file'].includes(t.type);
}

export class Clipboard {
  constructor(editor) {
    this.editor = editor;
    this.held = null;       // this tab's last copy: {stamp, value (a promise)}
    this.pasted = null;     // {text, page, n}: where the last paste of a copy went
    this.pointer = null;    // the page point under a mouse or pen hovering over the page
    const doc = editor.view.doc;
    const frame = editor.view.frame;
    const track = (e) => {
      if (e.pointerType === 'touch') return;
      const p = editor.view.toPage(e.clientX, e.clientY);
      const meta = editor.state.pageMeta();
      const inside = meta && p[0] >= 0 && p[1] >= 0 && p[0] <= editor.view.page.width && p[1] <= editor.view.page.height;
      this.pointer = inside ? p : null;
    };
    frame.addEventListener('pointermove', track);
    frame.addEventListener('pointerdown', track);
    frame.addEventListener('pointerleave', () => { this.pointer = null; });
    for (const [name, fn] of [['copy', () => this.write(false, null)], ['duplicate', () => this.duplicate()], ['paste', () => this.pasteButton()]]) {
      const b = doc.querySelector(`[data-techo-action=${name}]`);
      if (b) b.addEventListener('click', fn);
    }
    doc.addEventListener('copy', (e) => this.copy(e, false));
    doc.addEventListener('cut', (e) => this.copy(e, true));
    doc.addEventListener('paste', (e) => this.paste(e));
    doc.addEventListener('keydown', (e) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'd' && !this.leftToBrowser(e.target)) {
        if (!this.selected()) return;
        e.preventDefault();
        this.duplicate();
      }
    });
  }

  /** Whether the browser keeps this event: typing, or text of the page selected. */
  leftToBrowser(target) {
    const doc = this.editor.view.doc;
    if (typingIn(target) || typingIn(doc.activeElement)) return true;
    const s = doc.getSelection && doc.getSelection();
    return !!(s && !s.isCollapsed && String(s).length > 0);
  }

  /** What is selected: `{elements, strokes}` ids, or null for nothing. */
  selected() {
    const editor = this.editor;
    const elements = editor.state.selectedIds().filter((id) => editor.state.elementById(id));
    // A group's strokes, or the one stroke picked alone.
    const strokes = editor.strokes.id ? [editor.strokes.id] : editor.state.selectedStrokes.slice();
    return elements.length || strokes.length ? { elements, strokes } : null;
  }

  /** The copy and cut events: the selection's value to the system clipboard (a cut removes it, one step). */
  copy(e, cut) {
    if (this.leftToBrowser(e.target)) return;
    this.write(cut, e);
  }

  /**
   * Copies (or cuts) the selection, from the key's event `e` or, with `e` null, the Copy button:
   * the server's value to the system clipboard, else kept for this tab.
   */
  write(cut, e) {
    const sel = this.selected();
    if (!sel) return;
    const editor = this.editor;
    const page = editor.state.pageId;
    // One writer to the system clipboard: the async Clipboard API where the page may use it (the
    // event's own data would race it), else the event, with a marker naming this tab's copy; a
    // button has no event, so its copy is then this tab's alone.
    const async = !!(window.isSecureContext && navigator.clipboard && navigator.clipboard.write && typeof ClipboardItem === 'function');
    const stamp = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
    if (!async && e) {
      e.preventDefault();
      if (e.clipboardData) e.clipboardData.setData('text/plain', JSON.stringify({ techo: CLIPBOARD_KIND, version: 1, held: stamp }));
    }
    const value = editor.change(async () => {
      const r = await editor.api.copy(page, { ...sel, cut });
      if (cut) {
        editor.select(null);
        editor.strokes.select(null);
        await editor.refresh();
      }
      const v = { ...r.clipboard, origin: window.location.origin, cut };
      editor.view.say(`${cut ? 'cut' : 'copied'} ${describe(v)}`);
      return v;
    });
    this.held = { stamp, value, local: !async && !e };
    value.catch(() => {});
    if (async) {
      const blob = value.then((v) => {
        if (!v) throw new Error('nothing copied');
        return new Blob([JSON.stringify(v)], { type: 'text/plain' });
      });
      navigator.clipboard.write([new ClipboardItem({ 'text/plain': blob })]).catch((err) => {
        // Refused (no permission, the window not focused): the copy stays this tab's.
        if (this.held && this.held.stamp === stamp) this.held.local = true;
        value.then((v) => v && editor.view.say(`copied for this tab only: the system clipboard refused it (${err.message || err})`, { error: true }));
      });
    }
  }

  /** The paste event: a techo value pasted as it was copied, or a picture added as a sticker. */
  paste(e) {
    if (this.leftToBrowser(e.target)) return;
    const editor = this.editor;
    if (!editor.state.pageData || !e.clipboardData) return;
    const text = e.clipboardData.getData('text/plain');
    const value = clipboardValue(text);
    if (value) {
      e.preventDefault();
      if (value.held) {
        if (this.held && this.held.stamp === value.held) {
          this.held.value.then((v) => v && this.place(v, JSON.stringify(v)), () => {});
        } else {
          editor.view.say('that copy was made where this browser keeps the clipboard to its tab: paste it there, or open the editor over HTTPS or on localhost', { error: true, ms: 6000 });
        }
        return;
      }
      this.place(value, text);
      return;
    }
    const files = [...(e.clipboardData.files || [])].filter((f) => /^image\//.test(f.type));
    if (!files.length && !text.trim() && this.held && this.held.local) {
      // A copy the system clipboard refused is still this tab's to paste (when it holds nothing else).
      e.preventDefault();
      this.held.value.then((v) => v && this.place(v, JSON.stringify(v)), () => {});
      return;
    }
    if (files.length) {
      e.preventDefault();
      const at = this.pointer ? this.pointer.map(Math.round) : null;
      editor.panels.add.addFiles(files.map((f) => (f.name ? f : new File([f], 'pasted.png', { type: f.type }))), null, at);
    }
  }

  /**
   * The Paste button: what the system clipboard holds (a techo copy, or a picture added as a
   * sticker) where the page may read it, else this tab's own last copy, else the reason said.
   */
  async pasteButton() {
    const editor = this.editor;
    if (!editor.state.pageData) return;
    const own = () => this.held && this.held.value.then((v) => v && this.place(v, JSON.stringify(v)), () => {});
    let why = 'nothing to paste: copy a selection first';
    if (window.isSecureContext && navigator.clipboard && navigator.clipboard.read) {
      let items = null;
      try {
        items = await navigator.clipboard.read();
      } catch (err) {
        why = `the browser did not let the page read the clipboard (${err.message || err}); copy here first`;
      }
      if (items) {
        for (const item of items) {
          if (item.types.includes('text/plain')) {
            const text = await (await item.getType('text/plain')).text();
            const value = clipboardValue(text);
            if (value && !value.held) return this.place(value, text);
            if (value && this.held && this.held.stamp === value.held) return own();
          }
          const type = item.types.find((t) => /^image\//.test(t));
          if (type) {
            const blob = await item.getType(type);
            return editor.panels.add.addFiles([new File([blob], `pasted.${type.slice(6).replace(/\W.*/, '') || 'png'}`, { type })], null, null);
          }
        }
        // The clipboard holds nothing of ours: a copy it refused is still this tab's.
        if (this.held && this.held.local) return own();
        editor.view.say('the clipboard holds no copy from techo and no picture', { error: true });
        return;
      }
    }
    if (this.held) return own();
    editor.view.say(why, { error: true });
  }

  /** Pastes `value` (its clipboard `text` names it): at the pointer, else offset; one step. */
  place(value, text) {
    const editor = this.editor;
    const page = editor.state.pageId;
    const dpi = value.dpi || (editor.state.pageMeta() || {}).dpi || 300;
    const step = (PASTE_OFFSET_MM / 25.4) * dpi;
    let move;
    const center = Array.isArray(value.center) ? value.center : null;
    if (this.pointer && center) {
      move = [this.pointer[0] - center[0], this.pointer[1] - center[1]];
      this.pasted = null;
    } else {
      const samePage = value.origin === window.location.origin && value.page === page;
      const again = this.pasted && this.pasted.text === text && this.pasted.page === page;
      // After a cut the original is gone: the first paste on its page puts it back where it was.
      const n = again ? this.pasted.n + 1 : samePage && !value.cut ? 1 : 0;
      this.pasted = { text, page, n };
      move = [n * step, n * step];
    }
    return this.add(page, value, move, 'pasted');
  }

  /** Ctrl/Cmd+D: the selection copied and pasted 5 mm down and right, one step; the clipboard is untouched. */
  duplicate() {
    const editor = this.editor;
    const sel = this.selected();
    if (!sel) return Promise.resolve();
    const page = editor.state.pageId;
    return editor.change(async () => {
      const r = await editor.api.copy(page, sel);
      const step = (PASTE_OFFSET_MM / 25.4) * (r.clipboard.dpi || 300);
      await this.send(page, r.clipboard, [step, step], 'duplicated');
    });
  }

  add(page, value, move, verb) {
    return this.editor.change(() => this.send(page, value, move, verb));
  }

  /** One paste request; then everything pasted is selected (elements and strokes, as one group when several). */
  async send(page, value, move, verb) {
    const editor = this.editor;
    const r = await editor.api.paste(page, {
      elements: value.elements || [], strokes: value.strokes || [], assets: value.assets || {}, move: move.map((n) => Math.round(n * 100) / 100),
    });
    await editor.refresh();
    const ids = r.ids || [], strokes = r.strokes || [];
    if (ids.length || strokes.length) {
      editor.setTool('select');
      await editor.group.set(ids, { strokes });
    }
    editor.view.say(`${verb} ${describe(value)}`);
    return r;
  }
}

/** "2 elements and 3 strokes", for the status line. */
function describe(v) {
  const n = (v.elements || []).length;
  const m = (v.strokes || []).length;
  const parts = [];
  if (n) parts.push(`${n} element${n === 1 ? '' : 's'}`);
  if (m) parts.push(`${m} stroke${m === 1 ? '' : 's'}`);
  return parts.join(' and ') || 'nothing';
}
