// The pages list (docs/editor.md, "Pages"): one row per page, `[data-techo-page-row="ID"]`, with
// the page's thumbnail (a picture the server draws small and keeps by the page's render key,
// `GET /api/pages/ID/thumbnail`), its number and ↑ ↓ ✕ for the keyboard; removing says how to
// get the page back instead of asking first. A click or tap on a row opens the page.
//
// Thumbnails are asked for only for the rows on screen (an IntersectionObserver), a few at a
// time, and asked again after each change of the journal: the browser revalidates its copy with
// the ETag, so an unchanged page costs a 304 and an edited one shows its new picture.
//
// Reordering: drag a row to its new place, with a mouse or a pen at once, with a finger after a
// short hold (as iPadOS lifts an item), so a swipe over the list still scrolls it. One drop is
// one `move page` (one history step).
//
// A new page: "＋ Add page" (blank), or "▦ Templates", a chooser showing each template as
// the page it would add (`GET /api/templates/NAME/thumbnail`, drawn by the server as a page's
// thumbnail is, asked for when the chooser first opens), one tap or click adding a page from it.

import { button } from './controls.js';

const THUMB_H = 160;        // px the server draws (shown at most 64 px tall: sharp on 2x screens)
const THUMB_BOX = 64;       // px: the square a thumbnail is shown in
const AT_ONCE = 3;          // thumbnails asked for at once
const SETTLE_MS = 250;      // after a change, the page's own render goes first
const HOLD_MS = 250;        // a finger held this long lifts the row
const SLOP = 6;             // px a mouse moves before a drag starts, or a held finger may wander

export function pagesPanel(doc, editor) {
  const { api, state, view } = editor;
  const list = doc.getElementById('pages');
  const body = doc.body;
  const rows = new Map();   // page id -> row
  let order = [];           // page ids as shown
  /**
   * Figures and counts the browser tests read: `shown` the ms from the list's first show to
   * every row on screen having its thumbnail, `fetched` thumbnails answered with a new picture,
   * `revalidated` answered 304 (the browser's copy kept).
   */
  const timings = { firstShow: null, shown: null, fetched: 0, revalidated: 0 };

  const addPage = (chosen) => editor.change(async () => {
    const r = await api.addPage(chosen ? { template: chosen } : {});
    if (r.id) state.pageId = r.id;
    state.selection = null;
    await editor.refresh();
    if (r.id) scrollToRow(r.id);
    view.say(chosen ? `added a page from ${chosen}` : 'added a blank page');
  });
  doc.getElementById('page-add').addEventListener('click', () => addPage());

  // The template chooser: one button per template with its picture, filled when it opens.
  const chooser = doc.getElementById('template-chooser');
  const chooserButton = doc.getElementById('template-open');
  let templates = [];
  const fillChooser = () => {
    const have = [...chooser.children].map((b) => b.dataset.techoTemplate);
    if (have.length === templates.length && have.every((n, i) => n === templates[i])) return;
    chooser.replaceChildren(...templates.map((name) => {
      const label = name.replace(/-/g, ' ');
      const b = button('', `Add a page from the ${label} template`, () => { setChooser(false); addPage(name); });
      b.dataset.techoTemplate = name;
      const pic = doc.createElement('span');
      pic.className = 'template-pic';
      const img = new Image();
      img.alt = '';
      img.draggable = false;
      img.decoding = 'async';
      img.src = api.url(`/api/templates/${encodeURIComponent(name)}/thumbnail`, { h: THUMB_H });
      pic.append(img);
      const caption = doc.createElement('span');
      caption.className = 'template-name';
      caption.textContent = label;
      b.append(pic, caption);
      return b;
    }));
  };
  const setChooser = (open) => {
    chooser.hidden = !open;
    chooserButton.setAttribute('aria-expanded', String(open));
    if (open) fillChooser();
  };
  chooserButton.addEventListener('click', () => setChooser(chooser.hidden));
  chooser.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') { e.stopPropagation(); setChooser(false); chooserButton.focus(); }
  });

  // Thumbnails: the rows on screen, a few at a time.
  const queue = [];
  let running = 0;
  let settleTimer = 0;
  let shownOnce = false;
  const observer = new IntersectionObserver((entries) => {
    for (const e of entries) {
      const row = rows.get(e.target.dataset.techoPageRow);
      if (!row) continue;
      row.visible = e.isIntersecting;
      if (row.visible && row.stale) want(row);
    }
  }, { root: null, rootMargin: '160px 0px' });

  const want = (row) => {
    if (row.queued || row.loading) { row.again = row.loading; return; }
    row.queued = true;
    queue.push(row);
    pump();
  };
  const pump = () => {
    while (running < AT_ONCE && queue.length) {
      const row = queue.shift();
      row.queued = false;
      if (!rows.has(row.id) || !row.visible) continue;
      running += 1;
      load(row).finally(() => { running -= 1; pump(); });
    }
  };
  const load = async (row) => {
    row.loading = true;
    row.stale = false;
    try {
      const res = await fetch(api.url(`/api/pages/${encodeURIComponent(row.id)}/thumbnail`, { h: THUMB_H }), {
        headers: { 'X-Techo-Token': api.token }, credentials: 'same-origin', cache: 'no-cache',
      });
      if (!res.ok) throw new Error(`thumbnail of ${row.id}: HTTP ${res.status}`);
      const etag = res.headers.get('ETag') || '';
      if (etag && etag === row.etag) {
        timings.revalidated += 1;
      } else {
        const url = URL.createObjectURL(await res.blob());
        const img = new Image();
        img.alt = '';
        img.draggable = false;
        img.src = url;
        await img.decode();  // off the main thread; swapped in whole, so nothing flickers
        const old = row.img;
        row.pic.replaceChildren(img);
        if (old) URL.revokeObjectURL(old.src);
        row.img = img;
        row.etag = etag;
        row.li.dataset.techoThumbnail = etag;
        timings.fetched += 1;
      }
    } catch {
      row.stale = true;  // asked again after the next change
    } finally {
      row.loading = false;
      if (row.again) { row.again = false; row.stale = true; if (row.visible) want(row); }
      noteShown();
    }
  };
  /** Every row on screen has a picture: the first time, the figure. */
  const noteShown = () => {
    if (timings.shown !== null || timings.firstShow === null) return;
    const onScreen = [...rows.values()].filter((r) => r.visible);
    if (onScreen.length && onScreen.every((r) => r.img)) {
      requestAnimationFrame(() => { if (timings.shown === null) timings.shown = performance.now() - timings.firstShow; });
    }
  };
  /** After a change: every row's picture is asked again (a 304 when the page did not change). */
  const revalidate = () => {
    clearTimeout(settleTimer);
    settleTimer = setTimeout(() => {
      for (const row of rows.values()) {
        row.stale = true;
        if (row.visible) want(row);
      }
    }, SETTLE_MS);
  };

  const scrollToRow = (id) => {
    const row = rows.get(id);
    if (row) requestAnimationFrame(() => row.li.scrollIntoView({ block: 'nearest' }));
  };

  // Reordering by drag (pointer events for mouse, pen and touch alike).
  let drag = null;
  /** Where a drop at client y would put the page: the gap before row `k` of `order`. */
  const slotAt = (y) => {
    let k = 0;
    for (const id of order) {
      const b = rows.get(id).li.getBoundingClientRect();
      if (y > b.top + b.height / 2) k += 1;
    }
    return k;
  };
  const showSlot = (k) => {
    for (const [i, id] of order.entries()) {
      const li = rows.get(id).li;
      li.classList.toggle('drop-before', i === k);
      li.classList.toggle('drop-after', k === order.length && i === order.length - 1);
    }
  };
  const endDrag = () => {
    if (!drag) return;
    clearTimeout(drag.timer);
    drag.row.li.classList.remove('lifted', 'dragging');
    body.classList.remove('pages-dragging');
    showSlot(-1);
    doc.removeEventListener('pointermove', onMove, true);
    doc.removeEventListener('pointerup', onUp, true);
    doc.removeEventListener('pointercancel', onCancel, true);
    drag = null;
  };
  const onMove = (e) => {
    if (!drag || e.pointerId !== drag.pointerId) return;
    const d = Math.hypot(e.clientX - drag.x, e.clientY - drag.y);
    if (!drag.dragging) {
      if (drag.touch && !drag.lifted) { if (d > SLOP) endDrag(); return; }  // a swipe: the list scrolls
      if (d < SLOP && !drag.touch) return;
      drag.dragging = true;
      drag.row.li.classList.add('dragging');
      body.classList.add('pages-dragging');
    }
    drag.slot = slotAt(e.clientY);
    showSlot(drag.slot);
    // Near the list's top or bottom edge the panel scrolls, so a long journal can be crossed.
    const scroller = list.closest('.panel');
    if (scroller) {
      const b = scroller.getBoundingClientRect();
      if (e.clientY < b.top + 32) scroller.scrollTop -= 12;
      else if (e.clientY > b.bottom - 32) scroller.scrollTop += 12;
    }
  };
  const onUp = (e) => {
    if (!drag || e.pointerId !== drag.pointerId) return;
    const { row, dragging, slot } = drag;
    endDrag();
    suppressClick = dragging;
    setTimeout(() => { suppressClick = false; }, 0);
    if (!dragging || slot === null) return;
    const from = order.indexOf(row.id);
    const to = slot > from ? slot - 1 : slot;
    if (from < 0 || to === from) return;
    editor.simple(() => api.movePage(row.id, to), `moved page ${row.id} to place ${to + 1}`);
  };
  const onCancel = (e) => { if (drag && e.pointerId === drag.pointerId) endDrag(); };
  let suppressClick = false;
  list.addEventListener('pointerdown', (e) => {
    const open = e.target.closest('[data-techo-page-link]');
    if (!open || e.button > 0 || drag) return;
    const row = rows.get(open.dataset.techoPageLink);
    if (!row || order.length < 2) return;
    const touch = e.pointerType === 'touch';
    drag = { row, pointerId: e.pointerId, x: e.clientX, y: e.clientY, touch, lifted: !touch, dragging: false, slot: null, timer: 0 };
    if (touch) {
      drag.timer = setTimeout(() => {
        if (!drag || drag.row !== row) return;
        drag.lifted = true;
        row.li.classList.add('lifted');
      }, HOLD_MS);
    } else {
      e.preventDefault();  // no text selection while the mouse drags
    }
    doc.addEventListener('pointermove', onMove, true);
    doc.addEventListener('pointerup', onUp, true);
    doc.addEventListener('pointercancel', onCancel, true);
  });
  // While a finger holds a row the list does not scroll under it; a long press opens no menu.
  list.addEventListener('touchmove', (e) => { if (drag && drag.lifted) e.preventDefault(); }, { passive: false });
  list.addEventListener('contextmenu', (e) => { if (e.target.closest('[data-techo-page-link]')) e.preventDefault(); });
  list.addEventListener('click', (e) => {
    if (suppressClick && e.target.closest('[data-techo-page-link]')) { e.stopPropagation(); e.preventDefault(); }
  }, true);

  /** A row for page `id`, made once and kept, so a redraw never replaces a node under a pointer. */
  const makeRow = (id) => {
    const li = doc.createElement('li');
    li.dataset.techoPageRow = id;
    const open = button('', '', () => { if (!suppressClick) editor.openPage(li.dataset.techoPageRow); });
    open.className = 'page-open';
    open.dataset.techoPageLink = id;
    const pic = doc.createElement('span');
    pic.className = 'page-thumb';
    const label = doc.createElement('span');
    label.className = 'page-name';
    const number = doc.createElement('span');
    number.className = 'page-number';
    const pageId = doc.createElement('span');
    pageId.className = 'page-id';
    label.append(number, pageId);
    open.append(pic, label);
    const moves = doc.createElement('span');
    moves.className = 'page-moves';
    const row = { id, li, open, pic, number, pageId, img: null, etag: '', stale: true, visible: false, queued: false, loading: false, again: false };
    const up = button('↑', '', () => editor.simple(() => api.movePage(row.id, order.indexOf(row.id) - 1)));
    const down = button('↓', '', () => editor.simple(() => api.movePage(row.id, order.indexOf(row.id) + 1)));
    const rm = button('✕', '', () => editor.simple(() => api.removePage(row.id), `removed page ${row.id} (undo brings it back)`));
    up.dataset.techoAction = 'page-up';
    down.dataset.techoAction = 'page-down';
    rm.dataset.techoAction = 'page-remove';
    moves.append(up, down, rm);
    li.append(open, moves);
    Object.assign(row, { up, down, rm });
    rows.set(id, row);
    observer.observe(li);
    return row;
  };

  return {
    timings,
    /** Shows the journal `j`'s pages, `pageId` the open one, and its templates. */
    show(j, pageId) {
      if (timings.firstShow === null) timings.firstShow = performance.now();
      const ids = j.pages.map((p) => p.id);
      for (const [id, row] of rows) {
        if (!ids.includes(id)) {
          observer.unobserve(row.li);
          if (row.img) URL.revokeObjectURL(row.img.src);
          rows.delete(id);
        }
      }
      const lis = j.pages.map((p, i) => {
        const row = rows.get(p.id) || makeRow(p.id);
        const n = i + 1;
        row.number.textContent = String(n);
        row.pageId.textContent = `${p.id}${p.endless ? ' · endless' : ''}`;
        row.open.setAttribute('aria-label', `Open page ${n}, ${p.id}; drag to move it`);
        row.open.title = `Page ${n} (${p.id}): drag to move it`;
        // The frame has the page's shape, inside a THUMB_BOX square (a wide spread is as wide as a
        // tall page is tall, so the numbers line up), before its picture comes: nothing jumps.
        const k = THUMB_BOX / Math.max(1, p.width, p.height);
        const w = Math.max(8, Math.round(p.width * k)), h = Math.max(8, Math.round(p.height * k));
        row.pic.style.width = `${w}px`;
        row.pic.style.height = `${h}px`;
        row.pic.style.margin = `${(THUMB_BOX - h) / 2}px ${(THUMB_BOX - w) / 2}px`;
        if (p.id === pageId) row.li.setAttribute('aria-current', 'page');
        else row.li.removeAttribute('aria-current');
        row.up.setAttribute('aria-label', `Move page ${p.id} up`);
        row.down.setAttribute('aria-label', `Move page ${p.id} down`);
        row.rm.setAttribute('aria-label', `Remove page ${p.id}`);
        row.up.disabled = i === 0;
        row.down.disabled = i === j.pages.length - 1;
        row.rm.disabled = j.pages.length === 1;
        return row.li;
      });
      // Moved into order only where it differs, so a row under a pointer is not pulled out.
      const same = lis.length === list.children.length && lis.every((li, i) => list.children[i] === li);
      if (!same) list.replaceChildren(...lis);
      order = ids;
      templates = j.templates || [];
      if (!chooser.hidden) fillChooser();
      // The first show's rows are asked for as they come on screen; later ones after the change settles.
      if (shownOnce) revalidate();
      shownOnce = true;
    },
  };
}
