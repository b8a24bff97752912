// What the selection looks like on the page: a frame over the element as drawn (turned with a
// turned sticker), its four corner handles and the rotate knob (`[data-techo-handle]`, each a
// 44 px target with a small dot in it), and the snapping guides of a drag. Only the view: where
// a pointer lands is decided from handles.js's geometry, not from these nodes.

import { handlePoints, HANDLE_NAMES, HANDLE_TARGET_CSS, SIDE_NAMES } from './handles.js';

const LABELS = {
  nw: 'Scale from the top left corner', ne: 'Scale from the top right corner',
  se: 'Scale from the bottom right corner', sw: 'Scale from the bottom left corner',
  rotate: 'Turn (Shift snaps to 15°)',
  e: 'Wrap width, from the right side', w: 'Wrap width, from the left side',
};

export class SelectionFrame {
  /** `view`: the editor's View (its page frame, `k` CSS pixels per page pixel). */
  constructor(view) {
    this.view = view;
    const doc = view.doc;
    this.root = doc.createElement('div');
    this.root.className = 'selection-frame';
    this.root.hidden = true;
    this.box = doc.createElement('div');
    this.box.className = 'frame-box';
    this.stem = doc.createElement('div');
    this.stem.className = 'frame-stem';
    this.root.append(this.box, this.stem);
    this.knobs = {};
    for (const name of [...HANDLE_NAMES, ...SIDE_NAMES]) {
      const h = doc.createElement('div');
      h.className = `frame-handle ${name === 'rotate' ? 'knob' : SIDE_NAMES.includes(name) ? 'side' : 'corner'}`;
      h.dataset.techoHandle = name;
      h.setAttribute('aria-label', LABELS[name]);
      h.style.width = h.style.height = `${HANDLE_TARGET_CSS}px`;
      this.knobs[name] = h;
      this.root.append(h);
    }
    this.guides = doc.createElement('div');
    this.guides.className = 'snap-guides';
    view.frame.append(this.root, this.guides);
  }

  /** Shows the frame over `el` (size, type) under transform `m`, or hides it (null). */
  show(el, m) {
    if (!el || !m || el.type === 'ink') { this.root.hidden = true; return; }
    this.root.hidden = false;
    const k = this.view.k;
    this.view.placeHandle(this.box, el, m);
    const pts = handlePoints(el.size, m, k);
    const half = HANDLE_TARGET_CSS / 2;
    // A text also has side handles, for its wrap width.
    const names = el.type === 'text' ? [...HANDLE_NAMES, ...SIDE_NAMES] : HANDLE_NAMES;
    for (const name of SIDE_NAMES) this.knobs[name].hidden = el.type !== 'text';
    for (const name of names) {
      this.knobs[name].style.transform = `translate(${pts[name][0] * k - half}px,${pts[name][1] * k - half}px)`;
    }
    // The stem from the top edge's middle to the knob.
    const top = [(pts.nw[0] + pts.ne[0]) / 2 * k, (pts.nw[1] + pts.ne[1]) / 2 * k];
    const kx = pts.rotate[0] * k - top[0], ky = pts.rotate[1] * k - top[1];
    this.stem.style.width = `${Math.hypot(kx, ky)}px`;
    this.stem.style.transform = `translate(${top[0]}px,${top[1]}px) rotate(${Math.atan2(ky, kx)}rad)`;
  }

  /** The snapping guides of a drag (snap.js's `guides`), or none. */
  showGuides(guides) {
    const k = this.view.k;
    const page = this.view.page;
    const nodes = [...this.guides.children];
    (guides || []).forEach((g, i) => {
      let n = nodes[i];
      if (!n) { n = this.view.doc.createElement('div'); this.guides.append(n); }
      n.className = `snap-guide ${g.axis}`;
      n.dataset.techoGuide = g.axis;
      if (g.axis === 'x') n.style.cssText = `left:${g.at * k}px;top:0;height:${page.height * k}px`;
      else n.style.cssText = `top:${g.at * k}px;left:0;width:${page.width * k}px`;
    });
    for (const n of nodes.slice((guides || []).length)) n.remove();
  }
}
