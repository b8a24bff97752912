// The sticker tray (docs/stickers.md): every pack as thumbnails, one `[data-techo-sticker="PACK/NAME"]`
// item per sticker, searchable by name, the recently used first (kept in localStorage). A click or
// tap adds the sticker at the centre of the page's visible part; a drag puts it where it is
// dropped, through the camera (view.toPage). A mouse or pen drags at once; a finger presses and
// holds briefly first (as iPadOS lifts an item), so a swipe still scrolls the tray. On a phone
// the tray is a sheet from the header's sticker button, and steps aside while a sticker is dragged.
// The packs and thumbnails are fetched once, when the browser is first idle after the page shows;
// the thumbnails are one picture, the server's atlas (`GET /api/stickers/atlas.png`).

const RECENT_KEY = 'techo.stickers.recent';
const RECENT_MAX = 12;
const HOLD_MS = 220;     // a finger held this long lifts the sticker
const SLOP = 8;          // px a finger may wander while held, or a mouse before a drag starts
const DESIGN_SIDE = 1748; // the built-in stickers are drawn for an A5 page at 300 dpi
const REF = /^[a-z0-9][a-z0-9-]{0,39}\/[a-z0-9][a-z0-9-]{0,39}$/;

export function stickersPanel(doc, editor) {
  const { api, state, view } = editor;
  const tray = doc.getElementById('sticker-tray');
  const packsBox = doc.getElementById('sticker-packs');
  const search = doc.querySelector('input[data-techo-sticker-search]');
  const empty = doc.getElementById('sticker-empty');
  const body = doc.body;
  const items = new Map();          // 'PACK/NAME' -> its button
  const groups = [];                // { box, grid, name }
  let recentGroup = null;
  let loading = null;
  let openedAt = 0;
  /**
   * Figures the browser tests read: ms from opening the tray to every thumbnail on screen
   * (`open`), from asking for the packs to every thumbnail decoded (`load`, what a first
   * open costs when the prefetch has not run), and per search.
   */
  const timings = { open: null, load: null, search: [] };

  const storage = () => { try { return doc.defaultView.localStorage; } catch { return null; } };
  const recent = () => {
    try {
      const list = JSON.parse((storage() && storage().getItem(RECENT_KEY)) || '[]');
      return Array.isArray(list) ? list.filter((s) => typeof s === 'string' && REF.test(s)).slice(0, RECENT_MAX) : [];
    } catch { return []; }
  };
  const remember = (ref) => {
    const list = [ref, ...recent().filter((s) => s !== ref)].slice(0, RECENT_MAX);
    try { storage() && storage().setItem(RECENT_KEY, JSON.stringify(list)); } catch { /* private mode: not kept */ }
    placeRecent(list);
  };

  const group = (name, label) => {
    const box = doc.createElement('section');
    box.className = 'sticker-group';
    box.dataset.pack = name;
    const h = doc.createElement('h3');
    h.textContent = label;
    const grid = doc.createElement('div');
    grid.className = 'sticker-grid';
    grid.setAttribute('role', 'list');
    grid.setAttribute('aria-label', label);
    box.append(h, grid);
    packsBox.append(box);
    const g = { box, grid, name };
    groups.push(g);
    return g;
  };

  /** The recently used stickers move (not copy: one item each) into the first group, newest first. */
  const placeRecent = (list) => {
    if (!recentGroup) return;
    for (const [ref, item] of items) {
      if (item.parentElement === recentGroup.grid && !list.includes(ref)) home(item);
    }
    for (const ref of [...list].reverse()) {
      const item = items.get(ref);
      if (item) recentGroup.grid.prepend(item);
    }
    filter();
  };
  const home = (item) => {
    const g = groups.find((x) => x !== recentGroup && x.name === item.dataset.pack);
    const siblings = [...g.grid.children];
    const after = siblings.find((s) => s.dataset.name > item.dataset.name);
    g.grid.insertBefore(item, after || null);
  };

  /** What each item shows: its tile of the atlas, or (a picture that is not SVG) its own image. */
  const sizes = new Map();          // 'PACK/NAME' -> [w, h], its natural size
  const build = (packs, atlas) => {
    const columns = atlas ? atlas.columns : 1;
    // Built without reading a layout in between: the browser lays the tray out once.
    packsBox.textContent = '';
    recentGroup = group('recent', 'Recent');
    for (const pack of packs) {
      const g = group(pack.name, pack.builtin ? pack.name : `${pack.name} · yours`);
      for (const s of pack.stickers) {
        const b = doc.createElement('button');
        b.type = 'button';
        b.className = 'sticker';
        b.dataset.techoSticker = s.sticker;
        b.dataset.pack = pack.name;
        b.dataset.name = s.name;
        b.setAttribute('role', 'listitem');
        b.setAttribute('aria-label', `${s.name.replace(/-/g, ' ')} (${pack.name}): add to the page`);
        b.title = s.sticker;
        if (atlas && Number.isInteger(s.tile)) {
          const pic = doc.createElement('span');
          pic.className = 'sticker-pic';
          pic.style.setProperty('--x', String(s.tile % columns));
          pic.style.setProperty('--y', String(Math.floor(s.tile / columns)));
          b.append(pic);
        } else {
          const img = doc.createElement('img');
          img.alt = '';
          img.draggable = false;
          img.decoding = 'async';
          img.src = api.url(`/api/stickers/${s.sticker}`);
          b.append(img);
        }
        if (Array.isArray(s.size)) sizes.set(s.sticker, s.size);
        g.grid.append(b);
        items.set(s.sticker, b);
      }
    }
    placeRecent(recent());
  };

  /**
   * Loads the packs and their thumbnails once: when the browser is first idle after the page is
   * shown (so the tray opens at once), or when the tray is opened before that. The thumbnails
   * are one picture (the server's atlas), decoded off the main thread before the tray is built;
   * a sticker that is not SVG brings its own. Resolves when every thumbnail is decoded.
   */
  const load = () => {
    if (!loading) {
      const t0 = performance.now();
      loading = api.stickers().then(async (j) => {
        const atlas = j.atlas && j.atlas.src ? j.atlas : null;
        if (atlas) {
          const img = new Image();
          img.src = api.url(atlas.src.split('?')[0], Object.fromEntries(new URL(atlas.src, doc.baseURI).searchParams));
          await img.decode();
          const rows = Math.max(1, Math.ceil(img.naturalHeight / atlas.tile));
          packsBox.style.setProperty('--atlas', `url("${img.src}")`);
          packsBox.style.setProperty('--atlas-columns', String(Math.max(1, Math.round(img.naturalWidth / atlas.tile))));
          packsBox.style.setProperty('--atlas-rows', String(rows));
        }
        build(j.packs || [], atlas);
        const own = [...items.values()].map((b) => b.firstChild).filter((c) => c.tagName === 'IMG');
        return Promise.all(own.map((i) => i.decode().catch(() => {})));
      }).then(() => { timings.load = performance.now() - t0; })
        .catch((e) => { loading = null; view.say(e.message || String(e), { error: true }); });
    }
    return loading;
  };
  let prefetch = true;
  state.on('page', () => {
    if (!prefetch) return;
    prefetch = false;
    const idle = doc.defaultView.requestIdleCallback || ((fn) => setTimeout(fn, 500));
    idle(() => load(), { timeout: 3000 });
  });

  const opened = () => {
    openedAt = performance.now();
    requestAnimationFrame(() => tray.scrollIntoView({ block: 'nearest' }));
    load().then(() => requestAnimationFrame(() => {
      if (timings.open === null && items.size) timings.open = performance.now() - openedAt;
      if (tray.open) tray.scrollIntoView({ block: 'nearest' });
    }));
  };
  tray.addEventListener('toggle', () => { if (tray.open) opened(); });
  if (tray.open) opened();

  // The phone's sheet: the header's sticker button shows the panel with the tray alone.
  const sheetButton = doc.querySelector('[data-techo-action=stickers]');
  const setSheet = (on) => {
    body.classList.toggle('stickers-open', on);
    body.classList.toggle('panel-open', on);
    if (sheetButton) sheetButton.setAttribute('aria-expanded', String(on));
  };
  if (sheetButton) {
    sheetButton.addEventListener('click', () => {
      const on = !(body.classList.contains('stickers-open') && body.classList.contains('panel-open'));
      setSheet(on);
      if (on) { tray.open = true; opened(); }
    });
  }
  const panelButton = doc.querySelector('[data-techo-action=panel]');
  // ☰ over the sticker sheet shows the whole panel (compact.js then opens it).
  if (panelButton) {
    panelButton.addEventListener('click', () => {
      if (body.classList.contains('stickers-open')) { body.classList.remove('stickers-open', 'panel-open'); }
      if (sheetButton) sheetButton.setAttribute('aria-expanded', 'false');
    }, true);
  }
  const compact = () => doc.defaultView.matchMedia('(max-width: 600px)').matches;

  // Search: by name (and pack), at once on each key.
  const filter = () => {
    const q = search.value.trim().toLowerCase().replace(/\s+/g, '-');
    let shown = 0;
    for (const [ref, item] of items) {
      const hit = !q || ref.includes(q);
      item.hidden = !hit;
      if (hit) shown += 1;
    }
    for (const g of groups) g.box.hidden = ![...g.grid.children].some((c) => !c.hidden);
    empty.hidden = shown > 0 || !items.size;
  };
  search.addEventListener('input', () => {
    const t0 = performance.now();
    filter();
    requestAnimationFrame(() => timings.search.push(performance.now() - t0));
  });

  // Adding.
  const pageRect = () => {
    const f = view.frame.getBoundingClientRect(), s = view.stage.getBoundingClientRect();
    const l = Math.max(f.left, s.left), t = Math.max(f.top, s.top), r = Math.min(f.right, s.right), b = Math.min(f.bottom, s.bottom);
    return r > l && b > t ? { l, t, r, b } : null;
  };
  /** How wide to place a sticker: its drawn size, scaled to this page, kept under 40 % of the page. */
  /** A sticker's natural size: from the list, or from its own picture once decoded. */
  const naturalSize = (item) => {
    const known = sizes.get(item.dataset.techoSticker);
    if (known) return known;
    const img = item.firstChild;
    return img && img.naturalWidth ? [img.naturalWidth, img.naturalHeight] : null;
  };
  const widthFor = (item) => {
    const meta = state.pageMeta();
    const size = naturalSize(item);
    if (!meta || !size) return undefined;
    const side = Math.min(meta.width, meta.height);
    let k = side / DESIGN_SIDE;
    const longest = Math.max(size[0], size[1]) * k;
    if (longest > side * 0.4) k *= side * 0.4 / longest;
    return Math.max(1, Math.round(size[0] * k));
  };
  const add = (item, clientPoint) => {
    if (!state.pageId) return;
    const ref = item.dataset.techoSticker;
    let at = null;
    if (clientPoint) {
      at = view.toPage(clientPoint[0], clientPoint[1]).map(Math.round);
    } else {
      const r = pageRect();
      if (r) at = view.toPage((r.l + r.r) / 2, (r.t + r.b) / 2).map(Math.round);
    }
    const width = widthFor(item);
    editor.change(async () => {
      const r = await api.addSticker(state.pageId, ref, at, width);
      remember(ref);
      await editor.refresh();
      if (r.id) { editor.setTool('select'); editor.select(r.id); }
      view.say(`added ${ref}`);
    });
  };

  // Dragging (pointer events for mouse, pen and touch alike).
  let drag = null;
  const overPage = (x, y) => {
    const r = pageRect();
    if (!r || x < r.l || x > r.r || y < r.t || y > r.b) return false;
    const hit = doc.elementFromPoint(x, y);
    return !!hit && view.stage.contains(hit) && !hit.closest('.zoom, .selection-bar');
  };
  const lift = () => {
    drag.lifted = true;
    drag.item.classList.add('lifted');
  };
  const startDrag = (e) => {
    drag.dragging = true;
    // The ghost is the sticker's own picture (sharp at the size it will have on the page).
    const ghost = doc.createElement('img');
    ghost.className = 'sticker-ghost';
    ghost.src = api.url(`/api/stickers/${drag.item.dataset.techoSticker}`);
    ghost.alt = '';
    const size = naturalSize(drag.item) || [1, 1];
    const k = view.frame.getBoundingClientRect().width / (state.pageMeta() ? state.pageMeta().width : 1);
    const w = Math.max(32, Math.min(240, (widthFor(drag.item) || 80) * k));
    ghost.style.width = `${w}px`;
    body.append(ghost);
    drag.ghost = ghost;
    drag.ghostSize = [w, w * (size[1] || 1) / (size[0] || 1)];
    // On a phone the sheet steps aside so the page is there to drop on.
    if (compact()) setSheet(false);
    moveGhost(e.clientX, e.clientY);
  };
  const moveGhost = (x, y) => {
    drag.ghost.style.transform = `translate(${x - drag.ghostSize[0] / 2}px, ${y - drag.ghostSize[1] / 2}px)`;
    view.frame.classList.toggle('drop', overPage(x, y));
  };
  const end = () => {
    if (!drag) return;
    clearTimeout(drag.timer);
    drag.item.classList.remove('lifted');
    if (drag.ghost) drag.ghost.remove();
    view.frame.classList.remove('drop');
    doc.removeEventListener('pointermove', onMove, true);
    doc.removeEventListener('pointerup', onUp, true);
    doc.removeEventListener('pointercancel', onCancel, true);
    drag = null;
  };
  const onMove = (e) => {
    if (!drag || e.pointerId !== drag.pointerId) return;
    const d = Math.hypot(e.clientX - drag.x, e.clientY - drag.y);
    if (!drag.dragging) {
      if (drag.touch && !drag.lifted) { if (d > SLOP) { drag.swiped = true; end(); } return; }
      if (d < SLOP && !drag.touch) return;
      startDrag(e);
    }
    moveGhost(e.clientX, e.clientY);
  };
  const onUp = (e) => {
    if (!drag || e.pointerId !== drag.pointerId) return;
    const { item, dragging } = drag;
    const dropped = dragging && overPage(e.clientX, e.clientY);
    end();
    suppressClick = true;
    setTimeout(() => { suppressClick = false; }, 0);
    if (dragging) { if (dropped) add(item, [e.clientX, e.clientY]); return; }
    add(item, null);
    if (compact()) setSheet(false);
  };
  const onCancel = (e) => { if (drag && e.pointerId === drag.pointerId) end(); };
  let suppressClick = false;
  packsBox.addEventListener('pointerdown', (e) => {
    const item = e.target.closest('[data-techo-sticker]');
    if (!item || e.button > 0 || drag) return;
    const touch = e.pointerType === 'touch';
    drag = { item, pointerId: e.pointerId, x: e.clientX, y: e.clientY, touch, lifted: !touch, dragging: false, ghost: null, timer: 0 };
    if (touch) drag.timer = setTimeout(() => { if (drag && drag.item === item) lift(); }, HOLD_MS);
    else e.preventDefault();  // no text selection or native image drag while the mouse drags
    doc.addEventListener('pointermove', onMove, true);
    doc.addEventListener('pointerup', onUp, true);
    doc.addEventListener('pointercancel', onCancel, true);
  });
  // While a finger holds or drags a sticker, the tray does not scroll under it.
  packsBox.addEventListener('touchmove', (e) => { if (drag && drag.lifted) e.preventDefault(); }, { passive: false });
  packsBox.addEventListener('contextmenu', (e) => { if (e.target.closest('[data-techo-sticker]')) e.preventDefault(); });
  // The keyboard (Enter or Space on a focused sticker) adds it at the centre.
  packsBox.addEventListener('click', (e) => {
    const item = e.target.closest('[data-techo-sticker]');
    if (!item || suppressClick || e.detail !== 0) return;
    add(item, null);
  });

  return { timings, load, get count() { return items.size; } };
}
