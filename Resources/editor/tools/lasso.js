// The lasso (L): draw a loop round elements and strokes to select them, with mouse, pen or
// finger alike. On release it selects the elements whose centre the loop encloses and the
// strokes whose box's centre it encloses (group-geometry.js: not ink layers, not hidden, not
// locked, no stroke of a hidden or locked layer; with Shift added to the selection), and hands
// over to the select tool with them selected, so the group's frame, handles and drag are there
// at once (as a design tool goes back to the move tool after use). A loop that picks nothing
// stays in the lasso. The strokes' boxes (`GET …/strokes`) are asked for when the loop begins.

import { lassoPick, lassoStrokes } from '../group-geometry.js';
import { pageHasStrokes } from '../stroke-selection.js';
import { Tool } from './tool.js';

const SVG = 'http://www.w3.org/2000/svg';

export function lassoTool(editor) {
  let path = null;

  function show(points) {
    const view = editor.view;
    if (!path) {
      const svg = view.doc.createElementNS(SVG, 'svg');
      svg.setAttribute('class', 'lasso-loop');
      svg.dataset.techoLasso = '';
      path = view.doc.createElementNS(SVG, 'path');
      svg.append(path);
      view.frame.append(svg);
    }
    const k = view.k;
    path.setAttribute('d', points.map(([x, y], i) => `${i ? 'L' : 'M'}${(x * k).toFixed(1)} ${(y * k).toFixed(1)}`).join('') + 'Z');
  }

  function hide() {
    if (path) path.parentNode.remove();
    path = null;
  }

  return new Tool('lasso', editor, {
    idle: {
      onPointerDown(e, tool) { tool.transition('drawing', e); },
    },
    drawing: {
      onEnter(e, tool) {
        const list = pageHasStrokes(editor.state.pageData) ? editor.state.strokeList() : null;
        if (list) list.catch(() => {});
        tool.data = { id: e.id, points: [[e.x, e.y]], additive: !!e.shiftKey, list };
        show(tool.data.points);
      },
      onPointerMove(e, tool) {
        const d = tool.data;
        if (e.id !== d.id) return;
        d.points.push([e.x, e.y]);
        show(d.points);
      },
      onPointerUp(e, tool) {
        const d = tool.data;
        if (e.id !== d.id) return;
        hide();
        tool.transition('idle');
        editor.state.beginGesture();
        Promise.resolve(d.list).catch(() => null).then((strokes) => {
          const data = editor.state.pageData;
          const elements = data ? data.elements : [];
          const picked = lassoPick(elements, d.points);
          const pickedStrokes = strokes ? lassoStrokes(strokes, elements, d.points) : [];
          if (picked.length + pickedStrokes.length === 0) { if (!d.additive) { editor.select(null); editor.strokes.select(null); } return; }
          const base = d.additive ? editor.group.current() : { ids: [], strokes: [] };
          const ids = [...base.ids, ...picked.filter((id) => !base.ids.includes(id))];
          const sids = [...base.strokes, ...pickedStrokes.filter((id) => !base.strokes.includes(id))];
          editor.setTool('select');
          return editor.group.set(ids, { strokes: sids });
        }).finally(() => editor.state.endGesture());
      },
      onCancel(e, tool) { hide(); tool.transition('idle'); },
    },
  });
}
