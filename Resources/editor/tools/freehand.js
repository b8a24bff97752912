// Freehand tools: pencil, highlighter and eraser. One stroke from pointer down to pointer up,
// drawn live under the pen (ink-preview.js: in the pointer event itself, only what it added, as
// the renderer will draw it, with the browser's predicted points as a temporary tail) and sent as
// one `draw` when the pointer lifts. A pen's pressure becomes the pencil's point pressure (§4); a
// mouse or finger draws at an even width.

import { Tool } from './tool.js';

const MAX_POINTS = 1000000;   // §10

export function freehandTool(name, editor) {
  return new Tool(name, editor, {
    idle: {
      onPointerDown(e, tool) { tool.transition('drawing', e); },
    },
    drawing: {
      onEnter(e, tool) {
        const style = editor.style;
        const d = tool.data;
        d.pointer = e.id;
        d.pressure = name === 'pencil' && e.pointerType === 'pen';
        d.stroke = { tool: name, width: style.width, points: [] };
        if (name !== 'eraser') d.stroke.color = name === 'highlighter' ? style.highlighterColor || style.color : style.color;
        add(d, e.samples);
        // The eraser's trail shows what it reveals (editor.js's eraserReveal), not a colour.
        const reveal = name === 'eraser' ? editor.eraserReveal() : null;
        editor.ink.begin(d.stroke, reveal ? { image: reveal, scale: editor.reveal.scale } : null);
        editor.ink.update(e.predicted);
      },
      onPointerMove(e, tool) {
        const d = tool.data;
        if (e.id !== d.pointer) return;    // a second finger (a palm) does not draw
        add(d, e.samples);
        editor.ink.update(e.predicted);
        editor.growPage(d.stroke.points[d.stroke.points.length - 1]);
      },
      onPointerUp(e, tool) {
        const d = tool.data;
        if (e.id !== d.pointer) return;
        // A lifted pen reports pressure 0: the end point keeps the last pressure it drew with.
        add(d, e.samples.map((s) => ({ ...s, pressure: d.lastPressure ?? s.pressure })));
        editor.ink.update();
        editor.commitStroke(d.stroke);
        tool.transition('idle');
      },
      onCancel(e, tool) {
        editor.ink.clear();
        tool.transition('idle');
      },
    },
  });
}

function add(d, samples) {
  const pts = d.stroke.points;
  for (const s of samples) {
    if (pts.length >= MAX_POINTS) return;
    const p = [round(s.x), round(s.y)];
    if (d.pressure) { p.push(round(s.pressure, 1000)); d.lastPressure = s.pressure; }
    const last = pts[pts.length - 1];
    if (last && last[0] === p[0] && last[1] === p[1]) {
      if (d.pressure) last[2] = p[2];
      continue;
    }
    pts.push(p);
  }
}

function round(v, by = 100) { return Math.round(v * by) / by; }
