// Small DOM helpers the panels share.

/** A plain button with a visible text and a label for screen readers. */
export function button(text, label, onClick) {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = text;
  b.setAttribute('aria-label', label);
  b.addEventListener('click', onClick);
  return b;
}

/** Replaces a select's options only when they changed, keeping the chosen value if it is still there. */
export function fillSelect(select, options) {
  const value = select.value;
  const same = select.options.length === options.length && options.every(([v], i) => select.options[i].value === v);
  if (!same) select.replaceChildren(...options.map(([v, t]) => new Option(t, v)));
  if (options.some(([v]) => v === value)) select.value = value;
}

/** Does not overwrite a field the person is typing in. */
export function setIfIdle(el, value) {
  if (document.activeElement !== el) el.value = value;
}
