// Every tool of the editor, by the name its button carries (data-techo-tool).

import { freehandTool } from './freehand.js';
import { lassoTool } from './lasso.js';
import { selectTool } from './select.js';
import { shapeTool } from './shape.js';
import { textTool } from './text.js';
import { strokeEraserTool } from './stroke-eraser.js';

export function makeTools(editor) {
  return {
    select: selectTool(editor),
    lasso: lassoTool(editor),
    pencil: freehandTool('pencil', editor),
    highlighter: freehandTool('highlighter', editor),
    eraser: freehandTool('eraser', editor),
    'stroke-eraser': strokeEraserTool(editor),
    line: shapeTool('line', editor),
    dash: shapeTool('dash', editor),
    rect: shapeTool('rect', editor),
    ellipse: shapeTool('ellipse', editor),
    washi: shapeTool('washi', editor),
    text: textTool(editor),
  };
}
