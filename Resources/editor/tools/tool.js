// A tool is a small state machine, after tldraw's tools: each state handles the normalised
// pointer events it cares about (onPointerDown / Move / Up, onCancel, onDoubleTap) and moves to
// another state by name. The editor routes every event to the current tool's current state, so
// no tool reads raw DOM events.

const handlers = { down: 'onPointerDown', move: 'onPointerMove', up: 'onPointerUp', cancel: 'onCancel', doubletap: 'onDoubleTap' };

export class Tool {
  /** `states` maps a name to an object of handlers; each handler gets `(event, tool)`. */
  constructor(name, editor, states, initial = 'idle') {
    this.name = name;
    this.editor = editor;
    this.states = states;
    this.initial = initial;
    this.current = initial;
    this.data = {};
  }

  transition(name, info) {
    const from = this.states[this.current];
    if (from.onExit) from.onExit(this);
    this.current = name;
    const to = this.states[name];
    if (to.onEnter) to.onEnter(info, this);
  }

  dispatch(event) {
    const state = this.states[this.current];
    const fn = state[handlers[event.kind]];
    if (fn) fn(event, this);
  }

  /** Leaves whatever is in progress (the tool was switched, or Escape). */
  cancel() {
    const state = this.states[this.current];
    if (state.onCancel) state.onCancel({ kind: 'cancel' }, this);
    if (this.current !== this.initial) this.transition(this.initial);
  }
}
