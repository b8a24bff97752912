// The tool rail (one button per tool, `data-techo-tool`) and the options bar: nine preset
// colours, a picker for any other, the width (per tool, widths.js) and "fill". What they choose
// is `editor.style` ({color, highlighterColor, textColor, width, fill}), which the tools read.
// The highlighter and the text tool keep colours of their own, as a pen case holds a yellow
// highlighter beside the black pens: the highlighter starts in `techo draw`'s highlighter yellow
// (#ffe45c), text in ink black; a colour chosen while one of them is in hand is that tool's.

// Nine preset colours, taken from the demo journal's inks and papers.
export const PALETTE = [
  ['#2b2b2b', 'ink black'], ['#5b3a29', 'walnut'], ['#e07a5f', 'terracotta'], ['#f2cc8f', 'honey'],
  ['#81b29a', 'sage'], ['#3d85c6', 'blue'], ['#9b6bb0', 'plum'], ['#e8a0a0', 'sakura'], ['#ffffff', 'white'],
];

/** `techo draw`'s highlighter colour, the highlighter's until another is chosen with it in hand. */
export const HIGHLIGHTER_COLOR = '#ffe45c';

/** Which of `editor.style`'s colours the tool `name` draws with. */
export function colorKeyFor(name) {
  if (name === 'text') return 'textColor';
  if (name === 'highlighter') return 'highlighterColor';
  return 'color';
}

export function toolsPanel(doc, editor) {
  const toolButtons = [...doc.querySelectorAll('[data-techo-tool]')];
  for (const b of toolButtons) b.addEventListener('click', () => editor.setTool(b.dataset.techoTool));

  const style = editor.style;
  if (!style.highlighterColor) style.highlighterColor = HIGHLIGHTER_COLOR;
  const picker = doc.getElementById('color-picker');
  const colorKey = () => colorKeyFor(editor.tool && editor.tool.name);
  const showColor = (color) => {
    picker.value = color;
    for (const b of doc.querySelectorAll('.swatch')) b.setAttribute('aria-checked', String(b.dataset.color === color));
  };
  const setColor = (color) => {
    const key = colorKey();
    style[key] = color;
    if (key === 'textColor') editor.tools.text.recolor(color);
    showColor(color);
    doc.dispatchEvent(new CustomEvent('techo-colour'));
  };
  const palette = doc.getElementById('palette');
  for (const [color, name] of PALETTE) {
    const b = doc.createElement('button');
    b.type = 'button';
    b.className = 'swatch';
    b.setAttribute('role', 'radio');
    b.setAttribute('aria-label', name);
    b.title = name;
    b.dataset.color = color;
    b.innerHTML = `<span style="background:${color}"></span>`;
    b.addEventListener('click', () => { setColor(color); restyleStroke({ color }); });
    palette.append(b);
  }
  picker.addEventListener('input', (e) => setColor(e.target.value));
  picker.addEventListener('change', (e) => restyleStroke({ color: e.target.value }));
  // Widths are per tool, in mm (widths.js); a selected stroke takes the width when the slider is let go.
  const width = doc.getElementById('width');
  width.addEventListener('input', (e) => editor.widths.set(Number(e.target.value)));
  width.addEventListener('change', () => restyleStroke({ width: editor.style.width }));
  editor.widths.showFor('pencil');
  doc.getElementById('fill').addEventListener('change', (e) => { style.fill = e.target.checked; });
  setColor(style.color);

  /** A colour or width chosen while a stroke is selected recolours or re-widths it (one step). */
  function restyleStroke(fields) { if (editor.strokes.id) editor.strokes.restyle(fields); }

  return {
    /** Marks the current tool's button pressed. */
    showTool(name) {
      for (const b of toolButtons) b.setAttribute('aria-pressed', String(b.dataset.techoTool === name));
      showColor(style[colorKey()] || style.color);
      doc.dispatchEvent(new CustomEvent('techo-colour'));
    },
    setColor,
  };
}
