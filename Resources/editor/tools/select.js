// The select tool: press an element to select it; one pointer pans it, two fingers pinch and
// rotate it about their midpoint, a double-tap or double-click turns it +90°. The element follows
// the pointers on the overlay; the whole gesture is one replay (one history step) when the last
// pointer lifts.

import { GestureRecognizer } from '../input.js';
import { Tool } from './tool.js';

export function selectTool(editor) {
  return new Tool('select', editor, {
    idle: {
      onPointerDown(e, tool) {
        // Alt (Option) picks the element under the selected one there: a sticker under another.
        const hit = editor.hitTest(e.x, e.y, { below: !!e.altKey });
        editor.select(hit ? hit.id : null);
        if (hit) tool.transition('gesturing', { event: e, element: hit });
      },
      onDoubleTap(e) {
        const hit = editor.hitTest(e.x, e.y);
        if (hit) editor.commitGesture(hit.id, [{ gesture: 'doubleTap' }]);
      },
    },

    gesturing: {
      onEnter({ event, element }, tool) {
        const d = tool.data;
        d.recognizer = new GestureRecognizer();
        d.recognizer.down(event.id, event.x, event.y);
        d.element = element.id;
        d.live = editor.startLive(element);
      },
      onPointerDown(e, tool) {
        tool.data.recognizer.down(e.id, e.x, e.y);
      },
      onPointerMove(e, tool) {
        const d = tool.data;
        const events = d.recognizer.move(e.id, e.x, e.y);
        if (events.length > 0) d.live.apply(events);
      },
      onPointerUp(e, tool) {
        const d = tool.data;
        d.recognizer.up(e.id);
        if (d.recognizer.count > 0) return;
        // The live gesture kept every event it moved the element by: that is the replay.
        if (d.live.events.length > 0) editor.commitGesture(d.element, d.live.events, d.live);
        else d.live.abort();
        tool.transition('idle');
      },
      onCancel(e, tool) {
        // A cancelled recognizer changes nothing (UIKit's .cancelled): the element goes back.
        tool.data.live.abort();
        tool.transition('idle');
      },
    },
  });
}
