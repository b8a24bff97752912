// Widths per tool, in millimetres of paper (what a pen is sold by), turned into page pixels at the
// page's dpi. Each tool keeps its own width, as a pen case holds a fine liner, a highlighter and an
// eraser side by side. The ranges, and why:
//
// - pencil and the shapes: 0.1–3 mm (a 0.1 mm fine liner to a broad brush pen); 0.5 mm at first
//   (6 px at 300 dpi, the editor's width before);
// - highlighter: 1–10 mm; at first techo draw's 24 px (2.03 mm at 300 dpi). A line of 5 mm ruled
//   handwriting is covered by 4–5 mm; the old widest (20 px = 1.7 mm) covered a quarter of it;
// - eraser: 0.5–15 mm; at first techo draw's 30 px (2.54 mm at 300 dpi), up to a block eraser.

export const WIDTHS_MM = {
  pencil: { min: 0.1, max: 3, step: 0.05, value: (6 / 300) * 25.4 },
  highlighter: { min: 1, max: 10, step: 0.1, value: (24 / 300) * 25.4 },
  eraser: { min: 0.5, max: 15, step: 0.1, value: (30 / 300) * 25.4 },
  shape: { min: 0.1, max: 3, step: 0.05, value: (6 / 300) * 25.4 },
};

/** Which width a tool uses (line, dash, rect, ellipse share the shapes' one). */
export function widthKind(tool) { return WIDTHS_MM[tool] ? tool : 'shape'; }

/** Page pixels of `mm` at `dpi`, to 0.01 px. */
export function mmToPx(mm, dpi) { return Math.round((mm / 25.4) * dpi * 100) / 100; }

export class Widths {
  /** `dpi()`: the current page's; `slider`, `output`: the options bar's width controls. */
  constructor(dpi, slider, output) {
    this.dpi = dpi;
    this.slider = slider;
    this.output = output;
    this.mm = Object.fromEntries(Object.entries(WIDTHS_MM).map(([k, v]) => [k, v.value]));
    this.kind = 'pencil';
  }

  /** The width in hand, in page pixels, for the tool last shown. */
  get px() { return mmToPx(this.mm[this.kind], this.dpi()); }

  /** The slider moved: the tool in hand takes its value (mm). */
  set(mm) {
    const r = WIDTHS_MM[this.kind];
    if (Number.isFinite(mm)) this.mm[this.kind] = Math.min(r.max, Math.max(r.min, mm));
    this.label();
  }

  /** A tool was taken: the slider shows its range and width. */
  showFor(tool) {
    if (tool === 'select' || tool === 'stroke-eraser' || tool === 'washi' || tool === 'text') return;
    this.kind = widthKind(tool);
    const r = WIDTHS_MM[this.kind];
    Object.assign(this.slider, { min: String(r.min), max: String(r.max), step: String(r.step) });
    this.slider.value = String(this.mm[this.kind]);
    this.label();
  }

  /** A stroke was selected: the slider shows its tool's range and its width (kept for that tool). */
  showStroke(tool, px) {
    if (!WIDTHS_MM[widthKind(tool)] || !Number.isFinite(px)) return;
    this.showFor(tool);
    this.set((px / this.dpi()) * 25.4);
    this.slider.value = String(this.mm[this.kind]);
  }

  label() {
    const mm = this.mm[this.kind];
    this.output.value = `${mm < 1 ? mm.toFixed(2) : mm.toFixed(1)} mm`;
    this.slider.setAttribute('aria-valuetext', `${this.output.value} (${this.px} px)`);
  }
}
