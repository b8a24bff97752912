// Two-point tools: the ruler line, the dashed line, the rectangle and the ellipse (with the
// fill colour when "fill" is on), and washi tape, which lays a strip from where the pointer went
// down to where it came up. Shift keeps a line to multiples of 15°. The shapes and the tape
// preview on the live ink canvas by the renderer's rule (ink-preview.js `shape`); on an endless page the view
// grows under the shape's end as it does under the pen.

import { Tool } from './tool.js';

export function shapeTool(name, editor) {
  return new Tool(name, editor, {
    idle: {
      onPointerDown(e, tool) { tool.transition('dragging', e); },
    },
    dragging: {
      onEnter(e, tool) {
        const d = tool.data;
        d.pointer = e.id;
        d.from = [round(e.x), round(e.y)];
        d.to = d.from;
        // Each previews by its render's rule (ink-preview.js): washi as its strip, multiplied.
        editor.ink.begin(stroke(name, editor, d));
      },
      onPointerMove(e, tool) {
        const d = tool.data;
        if (e.id !== d.pointer) return;
        d.to = end(d.from, e);
        editor.ink.shape(stroke(name, editor, d));
        // On an endless page the view grows under the shape's end, as under the pen.
        editor.growPage(d.to);
      },
      onPointerUp(e, tool) {
        const d = tool.data;
        if (e.id !== d.pointer) return;
        d.to = end(d.from, e);
        tool.transition('idle');
        if (d.to[0] === d.from[0] && d.to[1] === d.from[1]) { editor.view.clearOverlay(); editor.ink.clear(); return; }
        if (name === 'washi') editor.commitWashi(d.from, d.to);
        else editor.commitStroke(stroke(name, editor, d));
      },
      onCancel(e, tool) {
        editor.view.clearOverlay();
        editor.ink.clear();
        tool.transition('idle');
      },
    },
  });
}

function stroke(name, editor, d) {
  // Washi: its strip, the tape's colour (translucent) and width, square-cut (its torn or zigzag
  // ends are the render's, seeded by the id it gets).
  if (name === 'washi') return { tool: 'washi', color: editor.washiColor(), width: editor.washiWidth(), from: d.from, to: d.to };
  const style = editor.style;
  const s = { tool: name, color: style.color, width: style.width, from: d.from, to: d.to };
  if (style.fill && (name === 'rect' || name === 'ellipse')) s.fill = style.color;
  return s;
}

function end(from, e) {
  let x = e.x, y = e.y;
  if (e.shiftKey) {
    const a = Math.round(Math.atan2(y - from[1], x - from[0]) / (Math.PI / 12)) * (Math.PI / 12);
    const r = Math.hypot(x - from[0], y - from[1]);
    x = from[0] + r * Math.cos(a);
    y = from[1] + r * Math.sin(a);
  }
  return [round(x), round(y)];
}

function round(v) { return Math.round(v * 100) / 100; }
