// Typing on the page (§13 "Text"): an editable box laid over the page where the text will be,
// in the text's font, size, colour, alignment and wrap width, under the page's zoom and the
// element's own scale and turn, so what is typed looks where techo will draw it. The browser
// edits it (caret, selection, IME composition shown in place); nothing is sent while typing.
// When editing ends the box hands its text to `onEnd` once: a new box adds one text, an edited
// one sends one `set`, each one history step.
//
// The box is anchored by the point its text grows from (the top-left corner for left-aligned
// text, the top middle for centred, the top-right corner for right-aligned), which is also what
// the server keeps in place (`?anchor=` / `?keep=`), so the render lands where the box was.

/** A box's anchor, in the server's words, by the text's alignment. */
export const ANCHORS = { left: 'top-left', center: 'top', right: 'top-right' };
const SHIFT = { 'top-left': '0', top: '-50%', 'top-right': '-100%' };

/** A CSS font-family list for a techo family (a generic family stays bare). */
export function cssFamily(font) {
  const generic = ['serif', 'sans-serif', 'monospace', 'cursive', 'fantasy', 'system-ui', 'emoji'];
  const f = font || 'sans-serif';
  return generic.includes(f) ? f : `"${f.replace(/["\\]/g, '')}", sans-serif`;
}

/** The text of an editable node: its lines joined by newlines (the browser's own reading). */
export function textOf(node) {
  // innerText follows the layout (<br>, block lines) as the user sees them; a trailing newline
  // the browser keeps for the caret is not part of the text.
  // An engine keeps typed spaces with no-break spaces in an editable node (Firefox does at a
  // line's end): they are spaces the user typed.
  return (node.innerText || '').replace(/\r\n?/g, '\n').replace(/\u00a0/g, ' ').replace(/\n$/, '');
}

export class TextBox {
  /**
   * `view`: the editor's View. `spec`: `{at: [x, y]` (page point of the anchor), `linear: [a, b,
   * c, d]` (the element's scale, turn and flips; identity for a new text), `style: {font, size,
   * color, align, weight, italic, lineHeight, letterSpacing, maxWidth}`, `text`, `id` (null for a
   * new text)`}`. `onEnd(box, how)` is called once, `how` being `'commit'` or `'cancel'`.
   */
  constructor(view, spec, onEnd) {
    this.view = view;
    this.spec = spec;
    this.onEnd = onEnd;
    this.ended = false;
    this.composing = false;
    this.anchor = ANCHORS[spec.style.align] || 'top-left';
    const node = this.node = view.doc.createElement('div');
    node.className = 'text-box';
    node.dataset.techoTextBox = spec.id || 'new';
    node.setAttribute('role', 'textbox');
    node.setAttribute('aria-multiline', 'true');
    node.setAttribute('aria-label', spec.id ? `Editing text ${spec.id}` : 'New text');
    node.spellcheck = false;
    // plaintext-only keeps pasted or typed text plain; where it is not known, 'true' does.
    node.contentEditable = 'plaintext-only';
    if (node.contentEditable !== 'plaintext-only') node.contentEditable = 'true';
    const s = spec.style;
    Object.assign(node.style, {
      fontFamily: cssFamily(s.font), fontSize: `${s.size}px`, color: s.color, caretColor: s.color,
      fontWeight: String(s.weight || 400), fontStyle: s.italic ? 'italic' : 'normal',
      lineHeight: String(s.lineHeight || 1.2), letterSpacing: `${s.letterSpacing || 0}px`, textAlign: s.align || 'left',
      maxWidth: s.maxWidth ? `${s.maxWidth}px` : 'none', whiteSpace: s.maxWidth ? 'pre-wrap' : 'pre',
    });
    node.textContent = spec.text || '';
    // The page's pointer input must not see presses in the box: the browser places the caret.
    for (const type of ['pointerdown', 'pointermove', 'pointerup', 'dblclick']) node.addEventListener(type, (e) => e.stopPropagation());
    node.addEventListener('compositionstart', () => { this.composing = true; });
    node.addEventListener('compositionend', () => { this.composing = false; });
    node.addEventListener('keydown', (e) => this.keydown(e));
    // Focus leaving the box (a button, a panel, another window) ends the editing, kept.
    node.addEventListener('focusout', () => { if (!this.ended) setTimeout(() => { if (!this.ended && this.view.doc.activeElement !== node) this.end('commit'); }, 0); });
    this.firstInput = null;
    node.addEventListener('input', (e) => { if (this.firstInput === null) this.firstInput = e.timeStamp; });
    view.frame.append(node);
    this.place();
    node.focus({ preventScroll: true });
    // The caret at the end of an edited text.
    const range = view.doc.createRange();
    range.selectNodeContents(node);
    range.collapse(false);
    const sel = view.doc.getSelection();
    sel.removeAllRanges();
    sel.addRange(range);
  }

  /** The text typed so far (with a composition in progress, what it shows). */
  get text() { return textOf(this.node); }

  /** Places the box on the page as zoomed now (call again after a zoom). */
  place() {
    const k = this.view.k;
    const [a, b, c, d] = this.spec.linear;
    const [x, y] = this.spec.at;
    this.node.style.transform = `matrix(${k * a},${k * b},${k * c},${k * d},${k * x},${k * y}) translate(${SHIFT[this.anchor]},0)`;
    // The dashed outline keeps about one screen pixel whatever the scale.
    const sc = Math.hypot(a, b) * k || 1;
    this.node.style.setProperty('--ring', `${1 / sc}px`);
  }

  keydown(e) {
    if (e.isComposing || this.composing || e.keyCode === 229) return;
    // Escape ends a new text (kept) and cancels an edit of an existing one; Ctrl/Cmd+Enter keeps.
    if (e.key === 'Escape') { e.preventDefault(); e.stopPropagation(); this.end(this.spec.id ? 'cancel' : 'commit'); return; }
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) { e.preventDefault(); e.stopPropagation(); this.end('commit'); return; }
    // Everything else is typing: no tool letter, no undo of the journal from inside the box.
    e.stopPropagation();
  }

  /** Ends the editing once: `how` is 'commit' or 'cancel'. */
  end(how) {
    if (this.ended) return;
    this.ended = true;
    const text = this.text;
    this.node.remove();
    this.onEnd(this, how, text);
  }
}
