// The lasso (L): draw a loop round elements to select them, with mouse, pen or finger alike. On
// release it selects the elements whose centre the loop encloses (group-geometry.js: not ink,
// not hidden, not locked; with Shift added to the selection), and hands over to the select tool
// with them selected, so the group's frame, handles and drag are there at once (as a design
// tool goes back to the move tool after use). A loop that picks nothing stays in the lasso.

import { lassoPick } from '../group-geometry.js';
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
        tool.data = { id: e.id, points: [[e.x, e.y]], additive: !!e.shiftKey };
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
        const data = editor.state.pageData;
        const picked = lassoPick(data ? data.elements : [], d.points);
        const ids = d.additive ? [...editor.state.selected, ...picked.filter((id) => !editor.state.selected.includes(id))] : picked;
        if (picked.length === 0) { if (!d.additive) editor.select(null); return; }
        editor.setTool('select');
        editor.group.set(ids);
      },
      onCancel(e, tool) { hide(); tool.transition('idle'); },
    },
  });
}
