// The selection's actions (flip, a quarter turn, raise, lower, delete) float next to the
// selection, at every size: below its box when there is room, else above it, kept inside the
// stage. The buttons are the selection panel's own (moved here once, so their hooks and
// handlers are the panel's); the panel keeps the properties. Hidden while a gesture moves the
// element on the overlay, and while nothing is selected.

const GAP = 8;

export class SelectionBar {
  /** `onView(fn)` subscribes to zoom and pan changes. */
  constructor(editor, onView) {
    const doc = editor.view.doc;
    this.editor = editor;
    this.view = editor.view;
    this.bar = doc.getElementById('selection-bar');
    this.bar.append(doc.getElementById('selection-actions'));
    this.frame = 0;
    const later = () => this.schedule();
    // The selected handle's class and place change on every selection, render and zoom.
    new MutationObserver(later).observe(this.view.handles, { attributes: true, subtree: true, childList: true, attributeFilter: ['class', 'style'] });
    onView(later);
    window.addEventListener('resize', later);
    editor.state.on('page', later);
  }

  schedule() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => { this.frame = 0; this.place(); });
  }

  place() {
    const id = this.editor.state.selection;
    const h = id && this.view.handle(id);
    if (!h) { this.bar.hidden = true; return; }
    this.bar.hidden = false;
    const box = h.getBoundingClientRect();
    const stage = this.view.stage.getBoundingClientRect();
    const w = this.bar.offsetWidth, hh = this.bar.offsetHeight;
    // Below the selection (what lies above it, a title, stays reachable), above when no room.
    let top = box.bottom + GAP;
    if (top + hh > stage.bottom - 4) top = box.top - GAP - hh;
    top = Math.max(stage.top + 4, Math.min(top, stage.bottom - hh - 4));
    let left = box.left + box.width / 2 - w / 2;
    left = Math.max(stage.left + 4, Math.min(left, stage.right - w - 4));
    this.bar.style.left = `${Math.round(left)}px`;
    this.bar.style.top = `${Math.round(top)}px`;
  }
}
