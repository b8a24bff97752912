// The stroke eraser: a drag removes every whole stroke it touches, as one history step (`POST
// …/strokes/erase`, "erase N strokes"); the pixel eraser (freehand.js) stays for rubbing out part
// of a stroke. While the pointer moves, each new stretch of its path is asked of the server
// (which strokes lie within reach of it, by the renderer's outlines); the path shows as a thin
// trail. Erasers' own strokes draw nothing and are never taken.

import { Tool } from './tool.js';

/** How far (screen pixels) from the pointer's path a stroke is touched. */
const REACH_CSS = 8;
/** The most points one question carries (the server takes up to 2000). */
const CHUNK = 500;

export function strokeEraserTool(editor) {
  return new Tool('stroke-eraser', editor, {
    idle: {
      onPointerDown(e, tool) { tool.transition('erasing', e); },
    },
    erasing: {
      onEnter(e, tool) {
        const d = tool.data = { pointer: e.id, path: [], asked: 0, ids: new Set(), queries: [] };
        d.trail = { tool: 'pencil', color: 'rgba(120,120,120,0.6)', width: 2 / (editor.view.k || 1), points: [] };
        extend(d, e.samples);
        ask(editor, d);
      },
      onPointerMove(e, tool) {
        const d = tool.data;
        if (e.id !== d.pointer) return;
        extend(d, e.samples);
        ask(editor, d);
      },
      onPointerUp(e, tool) {
        const d = tool.data;
        if (e.id !== d.pointer) return;
        extend(d, e.samples);
        ask(editor, d);
        tool.transition('idle');
        Promise.all(d.queries).then(() => {
          editor.view.frame.dataset.techoErasing = '';
          if (d.ids.size === 0) { editor.view.clearOverlay(); return; }
          editor.strokes.erase([...d.ids]);
        });
      },
      onCancel(e, tool) {
        editor.view.clearOverlay();
        editor.view.frame.dataset.techoErasing = '';
        tool.transition('idle');
      },
    },
  });
}

function extend(d, samples) {
  for (const s of samples) {
    const p = [Math.round(s.x * 100) / 100, Math.round(s.y * 100) / 100];
    const l = d.path[d.path.length - 1];
    if (l && l[0] === p[0] && l[1] === p[1]) continue;
    d.path.push(p);
    d.trail.points.push(p);
  }
}

/** Asks which strokes the path's new stretch touches (from the last point asked, so no gap). */
function ask(editor, d) {
  const from = Math.max(0, d.asked - 1);
  if (d.path.length <= d.asked) return;
  editor.view.drawStroke(d.trail);
  for (let i = from; i < d.path.length; i += CHUNK - 1) {
    const points = d.path.slice(i, i + CHUNK);
    d.queries.push(editor.strokes.hits(points, REACH_CSS).then((hits) => {
      for (const h of hits) d.ids.add(h.id);
      editor.view.frame.dataset.techoErasing = [...d.ids].join(' ');
    }, (err) => editor.view.say(err.message || String(err), { error: true })));
    if (i + CHUNK >= d.path.length) break;
  }
  d.asked = d.path.length;
}
