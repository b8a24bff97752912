// Pen first, as GoodNotes and Notability do it on a tablet: once a pen has drawn, fingers no longer
// draw (a finger selects, two pan and zoom the view), and a hand resting on the screen while the
// pen writes is ignored. Every pointer is given a route when it goes down and keeps it until it
// lifts:
//
// - a pen goes to the tool in hand; it cancels any touch already down (the side of a hand lands
//   a moment before the pen tip: its smudge is dropped, nothing of it is saved) and turns "pen
//   only" on, which the browser keeps (localStorage) and the switch
//   `[data-techo-action="pen-only"]` (aria-pressed) turns off or on again;
// - a touch while a pen is down goes nowhere;
// - a touch with "pen only" on goes to the select tool, whatever tool is in hand;
// - anything else (a mouse, a touch without "pen only") goes to the tool in hand.

export const PEN_ONLY_KEY = 'techo.penOnly';

export class PenFirst {
  /** `storage`: where the switch is kept (localStorage; anything with getItem/setItem). */
  constructor(storage) {
    this.storage = storage;
    let kept = null;
    try { kept = storage && storage.getItem(PEN_ONLY_KEY); } catch { /* storage refused: not kept */ }
    this.penOnly = kept === 'true';
    this.routes = new Map();     // pointerId -> {to: 'tool' | 'select' | null, type}
    this.pens = new Set();       // pen pointers down
    this.lastRoute = new Map();  // pointerId -> route of its last press (a double tap follows a lift)
    this.listeners = [];
  }

  /** `fn(penOnly)` after every change of the switch. */
  onChange(fn) { this.listeners.push(fn); }

  setPenOnly(on) {
    if (this.penOnly === on) return;
    this.penOnly = on;
    try { if (this.storage) this.storage.setItem(PEN_ONLY_KEY, String(on)); } catch { /* not kept */ }
    for (const fn of this.listeners) fn(on);
  }

  /** Whether a pen is touching the screen now. */
  get penDown() { return this.pens.size > 0; }

  /**
   * The route of event `e` (normalised, input.js): `'tool'`, `'select'` or null (dropped).
   * `cancel(route)` is called for each touch a pen's arrival cancels, before the pen's press.
   */
  route(e, cancel) {
    if (e.kind === 'down') {
      let to = 'tool';
      if (e.pointerType === 'pen') {
        for (const [id, r] of this.routes) {
          if (r.type !== 'touch' || !r.to) continue;
          cancel(r.to);
          r.to = null;
          this.routes.set(id, r);
        }
        this.pens.add(e.id);
        this.setPenOnly(true);
      } else if (e.pointerType === 'touch') {
        if (this.penDown) to = null;
        else if (this.penOnly) to = 'select';
      }
      const r = { to, type: e.pointerType };
      this.routes.set(e.id, r);
      this.lastRoute.set(e.id, to);
      return to;
    }
    if (e.kind === 'doubletap') return this.lastRoute.get(e.id) ?? null;
    const r = this.routes.get(e.id);
    if (e.kind === 'up' || e.kind === 'cancel') {
      this.routes.delete(e.id);
      this.pens.delete(e.id);
    }
    return r ? r.to : null;
  }
}

/** The "pen only" switch: `button` (aria-pressed) shows and turns the choice. */
export function penOnlySwitch(button, penFirst) {
  if (!button) return;
  const show = (on) => button.setAttribute('aria-pressed', String(on));
  button.addEventListener('click', () => penFirst.setPenOnly(!penFirst.penOnly));
  penFirst.onChange(show);
  show(penFirst.penOnly);
}
