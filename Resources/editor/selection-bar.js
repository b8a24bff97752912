// The selection's actions (flip, a quarter turn, raise, lower, delete) float next to the
// selection, at every size: below, above, right or left of its box, wherever they cover the
// least of the other elements on screen, kept inside the stage. The buttons are the selection panel's own (moved here once, so their hooks and
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
    // Several selected: the bar goes by the group's frame (group.js) and acts on them all.
    const group = this.editor.state.isGroup();
    const chosen = new Set(this.editor.state.selectedIds());
    const h = group ? this.editor.selectionFrame.box : id && this.view.handle(id);
    if (!h || (group && this.editor.selectionFrame.root.hidden)) { this.bar.hidden = true; return; }
    this.bar.hidden = false;
    const box = h.getBoundingClientRect();
    const stage = this.view.stage.getBoundingClientRect();
    const w = this.bar.offsetWidth, hh = this.bar.offsetHeight;
    const clamp = (left, top) => ({
      left: Math.max(stage.left + 4, Math.min(left, stage.right - w - 4)),
      top: Math.max(stage.top + 4, Math.min(top, stage.bottom - hh - 4)),
    });
    const cx = box.left + box.width / 2 - w / 2, cy = box.top + box.height / 2 - hh / 2;
    // Below the selection, above it, right of it, left of it: the first that covers the least
    // of the other stickers, texts and photos on screen (so the next one to click stays
    // reachable), and in the stage.
    const places = [
      clamp(cx, box.bottom + GAP), clamp(cx, box.top - GAP - hh), clamp(box.right + GAP, cy), clamp(box.left - GAP - w, cy),
    ];
    const others = ((this.editor.state.pageData || {}).elements || [])
      .filter((e) => !chosen.has(e.id) && e.type !== 'ink' && !e.hidden)
      .map((e) => this.view.handle(e.id))
      .filter(Boolean)
      .map((el) => el.getBoundingClientRect());
    const covered = (p) => others.reduce((sum, r) => {
      const ox = Math.min(p.left + w, r.right) - Math.max(p.left, r.left), oy = Math.min(p.top + hh, r.bottom) - Math.max(p.top, r.top);
      return sum + (ox > 0 && oy > 0 ? ox * oy : 0);
    }, 0) + (Math.min(p.left + w, box.right) - Math.max(p.left, box.left) > 0 && Math.min(p.top + hh, box.bottom) - Math.max(p.top, box.top) > 0 ? 1e9 : 0);
    let best = places[0], least = covered(places[0]);
    for (const p of places.slice(1)) {
      const c = covered(p);
      if (c < least) { best = p; least = c; }
    }
    const { left, top } = best;
    this.bar.style.left = `${Math.round(left)}px`;
    this.bar.style.top = `${Math.round(top)}px`;
  }
}
