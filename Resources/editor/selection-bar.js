// The selection's actions (flip either way, a quarter turn, raise, lower, delete, copy,
// duplicate) float next to the selection, at every size: below, above, right or left of its
// box, wherever they cover the least of the other elements on screen, kept inside the stage.
// The buttons are the selection panel's own (moved here once, so their hooks and handlers are
// the panel's); the panel keeps the properties. Hidden while a gesture moves the element on the
// overlay, and while nothing is selected.

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
    // The frame's handles move with the selection too (the bar keeps clear of them).
    new MutationObserver(later).observe(editor.selectionFrame.root, { attributes: true, subtree: true, attributeFilter: ['style', 'hidden'] });
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
    // The frame's handles (corners, sides, the rotate knob: 44 px targets) stay uncovered too,
    // so the bar goes beside all of them, not only beside the element's box.
    const root = this.editor.selectionFrame.root;
    const keep = [box, ...(root.hidden ? [] : [...root.querySelectorAll('[data-techo-handle]')].filter((k) => !k.hidden).map((k) => k.getBoundingClientRect()))];
    const outer = keep.reduce((u, r) => ({
      left: Math.min(u.left, r.left), top: Math.min(u.top, r.top), right: Math.max(u.right, r.right), bottom: Math.max(u.bottom, r.bottom),
    }), { left: box.left, top: box.top, right: box.right, bottom: box.bottom });
    const cx = box.left + box.width / 2 - w / 2, cy = box.top + box.height / 2 - hh / 2;
    // Below the selection, above it, right of it, left of it: the first that covers the least
    // of the other stickers, texts and photos on screen (so the next one to click stays
    // reachable), and in the stage; never the selection or its handles where another place is free.
    const places = [
      clamp(cx, outer.bottom + GAP), clamp(cx, outer.top - GAP - hh), clamp(outer.right + GAP, cy), clamp(outer.left - GAP - w, cy),
    ];
    const others = ((this.editor.state.pageData || {}).elements || [])
      .filter((e) => !chosen.has(e.id) && e.type !== 'ink' && !e.hidden)
      .map((e) => this.view.handle(e.id))
      .filter(Boolean)
      .map((el) => el.getBoundingClientRect());
    const over = (p, r) => Math.min(p.left + w, r.right) - Math.max(p.left, r.left) > 0 && Math.min(p.top + hh, r.bottom) - Math.max(p.top, r.top) > 0;
    const covered = (p) => others.reduce((sum, r) => {
      const ox = Math.min(p.left + w, r.right) - Math.max(p.left, r.left), oy = Math.min(p.top + hh, r.bottom) - Math.max(p.top, r.top);
      return sum + (ox > 0 && oy > 0 ? ox * oy : 0);
    }, 0) + keep.filter((r) => over(p, r)).length * 1e9;
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
