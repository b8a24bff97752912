// Arrow keys move the focused element by one CSS pixel's worth of page pixels (Shift: 10).
// Presses less than NUDGE_COMMIT_MS apart are one live gesture, sent as one replay (one history
// step) when they stop or another element is nudged.

const NUDGE_COMMIT_MS = 400;
const STEPS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

export class Nudge {
  /** `gestures`: the editor's LiveGestures; `view` gives the CSS pixels per page pixel. */
  constructor(gestures, view) {
    this.gestures = gestures;
    this.view = view;
    this.run = null;   // {id, live, timer}
  }

  /** Moves `element` (not ink) one step for the arrow `key`; `big` is Shift. */
  by(element, key, big) {
    if (!element || element.type === 'ink') return;
    const step = Math.max(1, Math.round(1 / this.view.k)) * (big ? 10 : 1);
    const unit = STEPS[key];
    if (!unit) return;
    const d = [unit[0] * step, unit[1] * step];
    if (this.run && this.run.id !== element.id) this.flush();
    if (!this.run) this.run = { id: element.id, live: this.gestures.start(element), timer: 0 };
    this.run.live.apply([{ gesture: 'pan', state: 'changed', translation: d }]);
    clearTimeout(this.run.timer);
    this.run.timer = setTimeout(() => this.flush(), NUDGE_COMMIT_MS);
  }

  /** Commits the run in progress, if any. */
  flush() {
    const n = this.run;
    if (!n) return;
    this.run = null;
    clearTimeout(n.timer);
    this.gestures.commit(n.id, n.live.events, n.live);
  }
}
