// The phone's arrangement (a narrow window, styled in style.css under `max-width: 600px`): the
// colours and width open from the tool rail as a popover, and the journal panel (pages, adding,
// the page's settings) opens from the header as a sheet over the page. A tap on the page closes
// both, so the page keeps the screen.

import { colorKeyFor } from './panels/tools.js';

export function compactLayout(doc, editor) {
  const body = doc.body;
  const colours = doc.querySelector('[data-techo-action=colours]');
  const panel = doc.querySelector('[data-techo-action=panel]');
  const swatch = colours.querySelector('.current-colour');
  const set = (cls, button, on) => {
    body.classList.toggle(cls, on);
    button.setAttribute('aria-expanded', String(on));
  };
  colours.addEventListener('click', () => {
    set('panel-open', panel, false);
    set('colours-open', colours, !body.classList.contains('colours-open'));
  });
  panel.addEventListener('click', () => {
    set('colours-open', colours, false);
    set('panel-open', panel, !body.classList.contains('panel-open'));
  });
  editor.view.stage.addEventListener('pointerdown', () => { set('colours-open', colours, false); set('panel-open', panel, false); }, true);
  // The rail's colour button wears the colour of the tool in hand.
  const show = () => {
    const s = editor.style;
    swatch.style.background = s[colorKeyFor(editor.tool && editor.tool.name)] || s.color;
  };
  doc.addEventListener('techo-colour', show);
  show();
}
