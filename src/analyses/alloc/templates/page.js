// dragnet allocation report: the page's script (src/analyses/alloc/templates/page.js), after the
// shared helpers of report.js. Reads the embedded profile data (docs/REPORTS.md), writes the
// totals and tables, and draws the flame graph on a canvas. Profile strings only ever reach
// the page through textContent or the canvas, never as markup. State (metric, search, zoom,
// the stack filters) is kept in the URL hash: #metric=objects&search=Point&zoom=12&include=app.*.
// The filters (stack_filter.js) recompute the flame graph and the tables from the embedded
// tree.
'use strict';
(function () {
  const data = JSON.parse(document.getElementById('profile-data').textContent);
  const $ = (id) => document.getElementById(id);
  const sampled = data.sampled;
  const approx = sampled ? '\u2248 ' : '';

  const { el, fmt, pct, count, card, writeHeading, writeHiddenClasses, loadHash,
    saveHash: replaceHash } = dragnetReport;

  // ---- header, warnings, totals --------------------------------------------------------

  function writeHeader() {
    const t = data.totals;
    writeHeading(data, 'Allocation profile');
    const badges = $('badges');
    if (sampled) badges.appendChild(el('span', 'badge est', 'sampled: estimates'));
    else badges.appendChild(el('span', 'badge', 'exact'));
    if (sampled) {
      $('warnings').appendChild(el('p', 'warning', 'Sampled profile (sample=' +
        data.sampleInterval + '): about one allocation per ' + fmt(data.sampleInterval) +
        ' bytes was recorded and weighted, so every number here is an estimate.'));
    }
    $('warnings').appendChild(el('p', 'note', 'Counted: ' + data.countingMeans + '.')).id =
      'counting';
    if (data.attached) {
      $('warnings').appendChild(el('p', 'note', 'Attached: ' + data.attached + '.')).id =
        'attached';
    }
    writeHiddenClasses(data.hiddenClasses);
    if (data.filter) {
      const f = data.filter;
      const said = [['include', f.include], ['exclude', f.exclude], ['focus', f.focus]]
        .filter(([, list]) => list.length > 0).map(([k, list]) => k + ' ' + list.join(', '));
      $('warnings').appendChild(el('p', 'note', 'Filtered by dragnet report (' + said.join('; ') +
        '): kept ' + approx + fmt(f.kept.bytes) + ' of ' + fmt(f.total.bytes) + ' bytes (' +
        pct(f.keptShare, 1) + '), ' + fmt(f.kept.objects) + ' of ' + fmt(f.total.objects) +
        ' objects and arrays.')).id = 'cli-filter';
    }
    if (data.appExclude.length > 0) {
      $('app-exclude').textContent = ' nor under ' + data.appExclude.join(', ');
    }
    const cards = [
      ['bytes', 'Bytes', t.bytes, t.unsizedObjects ? '+ ' + fmt(t.unsizedObjects) +
        ' objects of unmeasured size' : 'allocated'],
      ['objects', 'Objects', t.objects, 'instances (not arrays)'],
      ['arrays', 'Arrays', t.arrays, fmt(t.elements) + ' elements'],
      ['calls', 'Calls', t.calls, fmt(t.contexts) + ' calling contexts' +
        (t.calls === null ? ' (sampling records allocations only)' : '')],
    ];
    if (t.bytecodes > 0) cards.push(['bytecodes', 'Bytecodes', t.bytecodes, 'executed']);
    cards.push(['threads', 'Threads', t.threads, t.collapsed ? fmt(t.collapsed) +
      (t.threads === null ? ' samples' : ' calls') + ' beyond the depth limit' : '']);
    const agent = data.agent || {};
    if (agent.nativePeak !== null && agent.nativePeak !== undefined) {
      cards.push(['agent', 'Agent memory', agent.nativePeak, 'native, at peak; ' +
        fmt(agent.nativeAtExit) + ' at exit, max-memory ' + fmt(agent.nativeLimit) +
        (t.dropped ? '; ' + fmt(t.dropped) + ' events dropped' : '')]);
    }
    if (data.classesInstrumented !== null) {
      cards.push(['classes', 'Classes instrumented', Number(data.classesInstrumented),
        count(data.notRewritten.length, 'class or method', 'classes or methods') +
        ' not rewritten']);
    }
    const box = $('totals');
    for (const [id, label, value, sub] of cards) {
      // null: not recorded (a sampled profile has no calls and no threads)
      card(box, id, label, value === null ? 'n/a' : (id === 'threads' || id === 'classes' ||
        id === 'agent' ? '' : approx) + fmt(value), sub);
    }
  }

  // ---- tables ------------------------------------------------------------------------------

  // columns: [title, kind] with kind 'num' (null: unknown), 'elements' (0: not an array),
  // 'pct', 'code' or ''; rows: arrays of cells.
  function table(id, columns, rows, onClick) {
    const t = $(id);
    t.replaceChildren();
    const head = el('tr');
    for (const [title, kind] of columns) {
      head.appendChild(el('th', kind === 'code' || kind === '' ? '' : 'num', title));
    }
    t.appendChild(el('thead')).appendChild(head);
    const body = t.appendChild(el('tbody'));
    if (rows.length === 0) {
      const td = body.appendChild(el('tr')).appendChild(el('td', 'empty', 'none'));
      td.colSpan = columns.length;
    }
    rows.forEach((row, r) => {
      const tr = body.appendChild(el('tr'));
      columns.forEach(([, kind], c) => {
        const cell = row[c];
        if (kind === 'pct') {
          const td = tr.appendChild(el('td', 'num bar'));
          const bar = td.appendChild(el('span'));
          bar.style.width = Math.min(100, cell) + '%';
          td.appendChild(document.createTextNode(cell.toFixed(1) + '%'));
        } else if (kind === 'num') {
          tr.appendChild(el('td', 'num', cell === null ? '?' : approx + fmt(cell)));
        } else if (kind === 'elements') {
          // null: not in the page's tree (a table the filters recomputed)
          tr.appendChild(el('td', 'num', cell === 0 ? '\u2013' : cell === null ? 'n/a'
            : approx + fmt(cell)));
        } else {
          tr.appendChild(el('td', kind, cell));
        }
      });
      if (onClick) {
        tr.className = 'clickable';
        tr.title = 'Search the flame graph for this';
        tr.addEventListener('click', () => onClick(r));
      }
    });
  }

  // The tables of sums: `t` holds sitesByBytes, sitesByObjects, types and byFirstAppFrame
  // (the data's, or those the filters recomputed) and the total their shares are of.
  function writeSumTables(t) {
    const share = (bytes) => (bytes === null || !(t.bytes > 0) ? 0 : (100 * bytes) / t.bytes);
    const siteColumns = [['Bytes', 'num'], ['%', 'pct'], ['Count', 'num'], ['Elements', 'elements'],
      ['Type', 'code'], ['Site', 'code'], ['First application frame', 'code']];
    const siteRows = (rows) => rows.map(([site, type, count, elements, bytes, app, others]) =>
      [bytes, share(bytes), count, elements, type, site, app + (others ? ' (+' + others +
        ' more)' : '')]);
    // A site "pkg.Cls.m(File.java:1)": search the method's frames.
    const searchSite = (rows) => (r) => search(rows[r][0].replace(/\(.*$/, ''));
    table('sites-bytes', siteColumns, siteRows(t.sitesByBytes), searchSite(t.sitesByBytes));
    table('sites-objects', siteColumns, siteRows(t.sitesByObjects),
      searchSite(t.sitesByObjects));
    const sumColumns = (what) => [['Bytes', 'num'], ['%', 'pct'], ['Count', 'num'],
      ['Elements', 'elements'], [what, 'code']];
    const sumRows = (rows) => rows.map(([key, count, elements, bytes]) =>
      [bytes, share(bytes), count, elements, key]);
    table('types', sumColumns('Type'), sumRows(t.types), (r) => search(t.types[r][0]));
    table('by-first-app', sumColumns('First application frame'), sumRows(t.byFirstAppFrame),
      (r) => search(t.byFirstAppFrame[r][0].replace(/\(.*$/, '')));
  }

  function writeTables() {
    writeSumTables({ sitesByBytes: data.sitesByBytes, sitesByObjects: data.sitesByObjects,
      types: data.types, byFirstAppFrame: data.byFirstAppFrame, bytes: data.totals.bytes });
    const nr = data.notRewritten;
    const none = data.complete ? 'Every class was rewritten.'
      : 'No class was reported as not rewritten before the profile ended.';
    $('nr-summary').textContent = nr.length === 0
      ? none
      : count(nr.length, 'class or method', 'classes or methods') +
        ' ran unchanged, so their allocations are not counted:';
    table('not-rewritten', [['Class', 'code'], ['Method', 'code'], ['Reason', '']], nr);
    const meta = Object.keys(data.meta).sort().map((k) => [k, data.meta[k]]);
    table('meta', [['Key', ''], ['Value', 'code']], meta);
  }

  // ---- the flame graph --------------------------------------------------------------------

  // The tree merged over threads, or (#view=threads) rooted by thread, one node per thread.
  const byThread = !!data.threadTree && loadHash().get('view') === 'threads';
  const T = byThread ? data.threadTree : data.tree;  // the frame table and the whole tree
  // A tree as the graph draws it: per node its parent's index (parents before children),
  // its frame (into T.frames), its own values and calls.
  function wholeTree() {
    const size = T.frame.length;
    const up = new Int32Array(size);
    up[0] = -1;
    for (let i = 1; i < size; i++) up[i] = i - T.parent[i];
    return { n: size, parent: up, frame: T.frame, bytes: T.bytes, objects: T.objects,
      insns: T.insns || null, calls: T.calls };
  }
  const whole = wholeTree();
  let V = whole;  // the tree shown: the whole one, or what the stack filters keep of it
  let n = 0;
  let parent = null;
  let depth = null;
  let kids = null;
  const frameName = (f) => T.strings[T.frames[3 * f]];
  const nameOf = (i) => frameName(V.frame[i]);
  const detailOf = (i) => T.strings[T.frames[3 * V.frame[i] + 1]];
  const kindOf = (i) => T.frames[3 * V.frame[i] + 2];

  // Own values (pruned callees folded in) -> inclusive values; parents precede children.
  function inclusive(own) {
    const v = Float64Array.from(own);
    for (let i = n - 1; i > 0; i--) v[parent[i]] += v[i];
    return v;
  }
  const metrics = [
    { id: 'bytes', label: 'Bytes', unit: 'bytes', own: null },
    { id: 'objects', label: 'Objects', unit: 'objects and arrays', own: null },
    { id: 'bytecodes', label: 'Bytecodes', unit: 'bytecodes', own: null },
  ];
  // Shows tree `t`: its depths, children and inclusive values.
  function useTree(t) {
    V = t;
    n = t.n;
    parent = t.parent;
    depth = new Int32Array(n);
    kids = [];
    for (let i = 0; i < n; i++) kids.push([]);
    for (let i = 1; i < n; i++) {
      depth[i] = depth[parent[i]] + 1;
      kids[parent[i]].push(i);
    }
    [metrics[0].own, metrics[1].own, metrics[2].own] = [t.bytes, t.objects, t.insns];
    for (const m of metrics) {
      m.inc = m.own ? inclusive(m.own) : null;
      m.sorted = null;
    }
  }
  useTree(whole);
  const wholeTotals = { bytes: metrics[0].inc[0], objects: metrics[1].inc[0] };
  for (const m of metrics) m.enabled = m.inc !== null && m.inc[0] > 0;

  const ROW = 18;
  const MIN_WIDTH = 0.5;  // narrower frames (and their callees) are not drawn
  const state = { metric: metrics[0], zoom: 0, query: '', match: null,
    filter: { include: [], exclude: [], focus: [] } };
  let drawn = [];  // per row: [node, x, width]

  // Children by the current metric, largest first (cached per metric).
  function sortedKids(i) {
    const m = state.metric;
    if (!m.sorted) m.sorted = new Array(n);
    if (!m.sorted[i]) {
      m.sorted[i] = kids[i].slice().sort((a, b) => m.inc[b] - m.inc[a] ||
        (nameOf(a) < nameOf(b) ? -1 : nameOf(a) > nameOf(b) ? 1 : a - b));
    }
    return m.sorted[i];
  }

  const JDK = /^(java|javax|jdk|sun|com\.sun)\./;
  function hash(s) {
    let h = 0;
    for (let k = 0; k < s.length; k++) h = (h * 31 + s.charCodeAt(k)) | 0;
    return (h >>> 0) / 4294967296;
  }
  function color(i) {
    if (state.match && state.match[V.frame[i]]) return 'hsl(326, 65%, 50%)';
    const kind = kindOf(i);
    const name = nameOf(i);
    const v = hash(name);
    const dim = state.match ? 0.45 : 1;  // during a search, non-matches step back
    const s = (x) => Math.round(x * dim);
    if (kind === 0) return 'hsl(210, 12%, 70%)';
    if (kind === 4) return 'hsl(270,' + s(35) + '%,' + Math.round(68 + 8 * v) + '%)';
    if (kind === 2) return 'hsl(' + Math.round(180 + 20 * v) + ',' + s(55) + '%,' +
      Math.round(58 + 10 * v) + '%)';
    if (kind === 3) return 'hsl(' + Math.round(212 + 18 * v) + ',' + s(60) + '%,' +
      Math.round(64 + 10 * v) + '%)';
    if (JDK.test(name)) return 'hsl(' + Math.round(40 + 14 * v) + ',' + s(80) + '%,' +
      Math.round(55 + 10 * v) + '%)';
    return 'hsl(' + Math.round(8 + 24 * v) + ',' + s(85) + '%,' + Math.round(58 + 10 * v) + '%)';
  }

  // Frames to draw: the zoomed node's ancestors at full width, then its subtree scaled to
  // the canvas, skipping frames narrower than MIN_WIDTH.
  function layout(width) {
    const inc = state.metric.inc;
    const rows = [];
    const put = (i, x, w) => (rows[depth[i]] = rows[depth[i]] || []).push([i, x, w]);
    for (let a = parent[state.zoom]; a >= 0; a = parent[a]) put(a, 0, width);
    if (inc[state.zoom] <= 0) return rows;
    const scale = width / inc[state.zoom];
    const stack = [[state.zoom, 0]];
    while (stack.length) {
      const [i, x] = stack.pop();
      const w = inc[i] * scale;
      if (w < MIN_WIDTH) continue;
      put(i, x, w);
      let cx = x;
      for (const k of sortedKids(i)) {
        if (inc[k] * scale >= MIN_WIDTH) stack.push([k, cx]);
        cx += inc[k] * scale;
      }
    }
    return rows;
  }

  // Without the package: "Attr.attribTree" for com.sun.tools.javac.comp.Attr.attribTree,
  // "String[]" for java.lang.String[].
  function shortName(i) {
    const s = nameOf(i);
    if (kindOf(i) === 4) return s;  // a thread's name as it is
    if (kindOf(i) === 1) {
      const method = s.lastIndexOf('.');
      return s.slice(s.lastIndexOf('.', method - 1) + 1);
    }
    const dims = s.indexOf('[');
    return s.slice(s.lastIndexOf('.', dims < 0 ? s.length : dims) + 1);
  }

  // The full name if it fits, else the short one, cut to fit.
  function label(ctx, i, x, w, y) {
    const room = Math.floor((w - 6) / 6.6);  // about 6.6 px per character at 11 px
    if (room < 3) return;
    let text = nameOf(i);
    if (text.length > room) text = shortName(i);
    if (text.length > room) text = text.slice(0, room - 1) + '\u2026';
    ctx.fillText(text, x + 3, y + 12.5);
  }

  // Lays the frames out for the wrapper's width and sizes the canvas; again if that made a
  // vertical scrollbar appear (or go) and so changed the width.
  function fit(canvas) {
    const wrap = $('fg-wrap');
    let width = 0;
    for (let pass = 0; pass < 2 && width !== Math.max(200, wrap.clientWidth); pass++) {
      width = Math.max(200, wrap.clientWidth);
      drawn = layout(width);
      const height = Math.max(1, drawn.length) * ROW;
      canvas.style.width = width + 'px';
      canvas.style.height = height + 'px';
    }
    return width;
  }

  function render() {
    const canvas = $('flame');
    const width = fit(canvas);
    const dpr = window.devicePixelRatio || 1;
    canvas.width = Math.round(width * dpr);
    canvas.height = Math.round(Math.max(1, drawn.length) * ROW * dpr);
    const ctx = canvas.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.font = '11px ui-monospace, "DejaVu Sans Mono", Menlo, monospace';
    let count = 0;
    drawn.forEach((row, d) => {
      for (const [i, x, w] of row || []) {
        const y = d * ROW;
        ctx.globalAlpha = depth[i] < depth[state.zoom] ? 0.55 : 1;
        ctx.fillStyle = color(i);
        ctx.fillRect(x, y, Math.max(w - 1, 0.5), ROW - 1);
        ctx.fillStyle = state.match && state.match[V.frame[i]] ? '#fff' : '#1f2933';
        label(ctx, i, x, w, y);
        count++;
      }
    });
    ctx.globalAlpha = 1;
    $('fg-drawn').textContent = fmt(count);
    writeCrumbs();
    showDetails(state.zoom);
    writeSearchResult();
    saveHash();
  }

  function valuesOf(i) {
    const out = [];
    for (const m of metrics) {
      if (!m.enabled) continue;
      out.push([m.label, m.inc[i], pct(m.inc[i], m.inc[0]), m.own[i]]);
    }
    if (kindOf(i) === 1 && V.calls[i] > 0) out.push(['Calls', V.calls[i], '', null]);
    return out;
  }

  function showDetails(i) {
    const m = state.metric;
    const where = detailOf(i) ? ' (' + detailOf(i) + ')' : '';
    $('details').textContent = nameOf(i) + where + ' \u2014 ' + approx + fmt(m.inc[i]) + ' ' +
      m.unit + ', ' + pct(m.inc[i], m.inc[0]) + ' of all';
  }

  function showTooltip(i, px, py) {
    const tip = $('tooltip');
    tip.replaceChildren();
    tip.appendChild(el('div', 'name', nameOf(i)));
    const kind = kindOf(i);
    const where = kind >= 2 ? 'allocated at ' + detailOf(i) : detailOf(i);
    if (where) tip.appendChild(el('div', 'where', where));
    const t = tip.appendChild(el('table'));
    for (const [name, value, share, own] of valuesOf(i)) {
      const tr = t.appendChild(el('tr'));
      tr.appendChild(el('td', '', name));
      tr.appendChild(el('td', 'num', approx + fmt(value)));
      tr.appendChild(el('td', 'num', share));
      tr.appendChild(el('td', '', own === null || own === value || kind !== 1 ? ''
        : 'self ' + fmt(own)));
    }
    tip.hidden = false;
    const wrap = $('fg-wrap');
    const left = Math.min(px + 14, wrap.clientWidth - tip.offsetWidth - 4);
    tip.style.left = Math.max(0, left) + 'px';
    // Below the pointer, or above it near the bottom (the wrapper would grow a scrollbar).
    const below = py + 16 + tip.offsetHeight <= $('flame').clientHeight;
    tip.style.top = Math.max(0, below ? py + 16 : py - tip.offsetHeight - 8) + 'px';
  }

  function frameAt(ev) {
    const rect = $('flame').getBoundingClientRect();
    const x = ev.clientX - rect.left;
    const y = ev.clientY - rect.top;
    const row = drawn[Math.floor(y / ROW)];
    if (!row) return null;
    for (const [i, fx, w] of row) if (x >= fx && x < fx + w) return { i, x, y };
    return null;
  }

  function writeCrumbs() {
    const box = $('crumbs');
    box.replaceChildren();
    const path = [];
    for (let a = state.zoom; a >= 0; a = parent[a]) path.unshift(a);
    path.forEach((a, k) => {
      if (k > 0) box.appendChild(el('span', 'sep', '\u203a'));
      const b = box.appendChild(el('button', '', nameOf(a)));
      b.type = 'button';
      b.addEventListener('click', () => zoomTo(a));
    });
  }

  function zoomTo(i) {
    state.zoom = i;
    render();
  }

  // ---- search -------------------------------------------------------------------------

  // Marks the frames (by frame-table entry) whose name matches: a substring, case-insensitive,
  // or a /regular expression/.
  function matcher(query) {
    if (query.length > 2 && query.startsWith('/') && query.endsWith('/')) {
      const re = new RegExp(query.slice(1, -1), 'i');
      return (s) => re.test(s);
    }
    const q = query.toLowerCase();
    return (s) => s.toLowerCase().includes(q);
  }

  function search(query) {
    state.query = query;
    $('search').value = query;
    state.match = null;
    state.error = null;
    if (query) {
      try {
        const test = matcher(query);
        const frames = T.frames.length / 3;
        state.match = new Uint8Array(frames);
        for (let f = 0; f < frames; f++) state.match[f] = test(T.strings[T.frames[3 * f]]) ? 1 : 0;
      } catch (e) {
        state.error = 'invalid regular expression';
      }
    }
    render();
  }

  // The matched share of the whole profile: a match inside another match counts once.
  function writeSearchResult() {
    const out = $('search-result');
    if (!state.query) {
      out.textContent = '';
      return;
    }
    if (state.error) {
      out.textContent = state.error;
      return;
    }
    const m = state.metric;
    const inside = new Uint8Array(n);
    let frames = 0;
    let total = 0;
    for (let i = 0; i < n; i++) {
      const hit = state.match[V.frame[i]] === 1;
      const above = i > 0 && inside[parent[i]] === 1;
      if (hit) frames++;
      if (hit && !above) total += m.inc[i];
      inside[i] = hit || above ? 1 : 0;
    }
    out.textContent = fmt(frames) + ' matching frames: ' + approx + fmt(total) + ' ' + m.unit +
      ', ' + pct(total, m.inc[0]) + ' of all';
  }

  // ---- stack filters (stack_filter.js) ----------------------------------------------------

  const isWholeMethod = (i) => T.frames[3 * whole.frame[i] + 2] === 1;

  // The whole tree's shown nodes (dragnetStacks.filter's result `r`), those with the same
  // view parent and frame merged (contexts through a focus frame), as a tree of its own.
  function filteredTree(r) {
    const t = { n: 0, parent: [], frame: [], bytes: [], objects: [], insns: whole.insns ? [] : null,
      calls: [] };
    const add = (up, frame) => {
      t.parent.push(up);
      t.frame.push(frame);
      t.bytes.push(0);
      t.objects.push(0);
      if (t.insns) t.insns.push(0);
      t.calls.push(0);
      return t.n++;
    };
    const ids = new Int32Array(whole.n).fill(-1);
    const index = new Map();
    ids[0] = add(-1, whole.frame[0]);
    for (let i = 1; i < whole.n; i++) {
      if (!r.shown[i]) continue;
      const up = ids[r.viewParent[i]];
      const key = up + ':' + whole.frame[i];
      let id = index.get(key);
      if (id === undefined) {
        id = add(up, whole.frame[i]);
        index.set(key, id);
      }
      ids[i] = id;
      if (r.kept[i]) {
        t.bytes[id] += whole.bytes[i];
        t.objects[id] += whole.objects[i];
        if (t.insns) t.insns[id] += whole.insns[i];
        t.calls[id] += whole.calls[i];
      } else if (isWholeMethod(i)) {
        t.calls[id] += whole.calls[i];  // a caller on the way to kept stacks: its calls
      }
    }
    t.parent = Int32Array.from(t.parent);
    return t;
  }

  // The tables of sums from the allocation frames of the tree shown (as the report computes
  // them from every context; elements are not in the page's tree).
  function recomputedTables() {
    const firstApp = new Int32Array(n).fill(-1);
    for (let i = 1; i < n; i++) {
      const app = kindOf(i) === 1 && dragnetStacks.isApp(nameOf(i), data.appExclude);
      firstApp[i] = app ? i : firstApp[parent[i]];
    }
    const sites = new Map(), types = new Map(), apps = new Map();
    const sum = (map, key, count, bytes) => {
      let s = map.get(key);
      if (!s) map.set(key, s = { key, count: 0, bytes: 0, apps: new Map() });
      s.count += count;
      s.bytes += bytes;
      return s;
    };
    for (let i = 1; i < n; i++) {
      if (kindOf(i) < 2 || (V.bytes[i] === 0 && V.objects[i] === 0)) continue;
      const up = parent[i];
      const detail = detailOf(i);  // "Main.java:10 (new)"
      const origin = (/ \((\w+)\)$/.exec(detail) || ['', ''])[1];
      const where = detail.replace(/ \(\w+\)$/, '');
      const site = (up > 0 ? nameOf(up) + '(' + where + ')' : '<thread root>') +
        (origin === 'jvm' || origin === 'jni' ? ' [' + origin + ']' : '');
      const a = firstApp[up];
      // The column at the site's line when the first application frame allocates; the
      // grouping by the method alone (as the report's).
      const app = a <= 0 ? '(no application frame)'
        : nameOf(a) + '(' + (a === up ? where : detailOf(a)) + ')';
      const appKey = a <= 0 ? app : nameOf(a) + '(' + detailOf(a) + ')';
      const s = sum(sites, site + '\u0000' + nameOf(i), V.objects[i], V.bytes[i]);
      s.site = site;
      s.type = nameOf(i);
      s.apps.set(app, (s.apps.get(app) || 0) + V.bytes[i]);
      sum(types, nameOf(i), V.objects[i], V.bytes[i]);
      sum(apps, appKey, V.objects[i], V.bytes[i]);
    }
    const byBytes = (a, b) => b.bytes - a.bytes || b.count - a.count;
    const byCount = (a, b) => b.count - a.count || b.bytes - a.bytes;
    const top = (map, order) => [...map.values()].sort(order).slice(0, data.top);
    const siteRow = (s) => {
      let best = null;
      for (const [app, bytes] of s.apps) if (best === null || bytes > s.apps.get(best)) best = app;
      return [s.site, s.type, s.count, null, s.bytes, best, s.apps.size - 1];
    };
    const sumRow = (s) => [s.key, s.count, null, s.bytes];
    return { sitesByBytes: top(sites, byBytes).map(siteRow),
      sitesByObjects: top(sites, byCount).map(siteRow), types: top(types, byBytes).map(sumRow),
      byFirstAppFrame: top(apps, byBytes).map(sumRow), bytes: metrics[0].inc[0] };
  }

  // Applies the filter inputs: the flame graph and the tables show what they keep.
  function applyFilter(keepZoom) {
    const f = {};
    for (const k of FILTERS) f[k] = dragnetStacks.patterns($('f-' + k).value);
    state.filter = f;
    const r = dragnetStacks.filter(whole.n, whole.parent, isWholeMethod,
      (i) => frameName(whole.frame[i]), f);
    useTree(r ? filteredTree(r) : whole);
    if (state.thread) {
      const t = threadNode(state.thread);
      if (t) state.zoom = t;
      state.thread = 0;
    }
    if (!keepZoom || state.zoom >= n || state.metric.inc[state.zoom] <= 0) state.zoom = 0;
    const note = $('tables-note');
    if (r) {
      writeSumTables(recomputedTables());
      const kept = { bytes: metrics[0].inc[0], objects: metrics[1].inc[0] };
      $('filter-result').textContent = 'kept ' + approx + fmt(kept.bytes) + ' of ' +
        fmt(wholeTotals.bytes) + ' bytes (' + pct(kept.bytes, wholeTotals.bytes) + '), ' +
        fmt(kept.objects) + ' of ' + fmt(wholeTotals.objects) + ' objects and arrays';
      note.textContent = 'The tables above show what the filters keep, computed from the ' +
        fmt(T.shown) + ' contexts in this page (pruned contexts count only in the totals).';
      note.hidden = false;
    } else {
      writeTables();
      $('filter-result').textContent = '';
      note.hidden = true;
    }
    search(state.query);  // draws
  }

  // ---- metric switch, events, URL hash ----------------------------------------------------

  function setMetric(m) {
    state.metric = m;
    if (m.inc[state.zoom] <= 0) state.zoom = 0;  // nothing of this metric there
    for (const b of $('metrics').children) b.setAttribute('aria-pressed', b.dataset.id === m.id);
    render();
  }

  function writeMetricButtons() {
    for (const m of metrics) {
      const b = $('metrics').appendChild(el('button', '', m.label));
      b.type = 'button';
      b.dataset.id = m.id;
      b.id = 'metric-' + m.id;
      b.disabled = !m.enabled;
      if (!m.enabled && m.id === 'bytecodes') {
        b.title = 'Not recorded: run with dragnet run --bytecodes';
      }
      b.setAttribute('aria-pressed', m === state.metric);
      b.addEventListener('click', () => setMetric(m));
    }
  }

  const FILTERS = ['include', 'exclude', 'focus'];

  function saveHash() {
    const p = new URLSearchParams();
    if (state.metric !== metrics[0]) p.set('metric', state.metric.id);
    if (state.query) p.set('search', state.query);
    if (state.zoom) p.set('zoom', String(state.zoom));
    if (byThread) p.set('view', 'threads');
    for (const k of FILTERS) if (state.filter[k].length) p.set(k, state.filter[k].join(','));
    replaceHash(p);
  }

  // ---- threads: the table, the view switch, a thread's node -------------------------------

  // The node of thread `id` in the tree rooted by thread (0 if none).
  function threadNode(id) {
    if (!byThread) return 0;
    const want = 'thread #' + id;
    for (const k of kids[0]) if (kindOf(k) === 4 && detailOf(k) === want) return k;
    return 0;
  }

  // Switches the flame graph between merged and by-thread (the page reads it at load),
  // zoomed into thread `id` if given.
  function showView(threads, id) {
    const p = new URLSearchParams();
    if (threads) p.set('view', 'threads');
    if (id) p.set('thread', String(id));
    replaceHash(p);
    location.reload();
  }

  function writeThreads() {
    const rows = data.threads;
    if (!rows) {
      $('threads-summary').textContent = 'Not recorded: this sampled profile has one tree for ' +
        'all threads (written by an older agent).';
      return;
    }
    const all = rows.reduce((a, r) => a + r.bytes, 0);
    $('threads-summary').textContent = count(rows.length, 'thread', 'threads') +
      (data.threadFilter ? ' matching \u201c' + data.threadFilter + '\u201d' : '') +
      ', ' + approx + fmt(all) + ' bytes. Click a thread for its own flame graph.';
    table('threads', [['Bytes', 'num'], ['%', 'pct'], ['Objects', 'num'], ['Thread', 'code'],
      ['Top site', 'code']], rows.map((r) => [r.bytes, 100 * r.share, r.objects,
      r.name + ' (#' + r.id + ')' + (r.ended ? '' : ' \u2022 alive'), r.topSite || '']),
    data.threadTree ? (r) => {
      const k = threadNode(rows[r].id);
      if (k) zoomTo(k);
      else showView(true, rows[r].id);
    } : null);
    if (!data.threadTree) return;
    const box = $('view');
    box.hidden = false;
    for (const [label, on] of [['Merged', false], ['By thread', true]]) {
      const b = box.appendChild(el('button', '', label));
      b.type = 'button';
      b.id = on ? 'view-threads' : 'view-merged';
      b.setAttribute('aria-pressed', on === byThread);
      b.addEventListener('click', () => { if (on !== byThread) showView(on); });
    }
  }

  // ---- allocation rate: an SVG chart of bytes per interval, stacked by top thread ----------

  // The chart is the page's own <svg> element (its namespace as the HTML parser gave it).
  function svg(tag, attrs, parentNode) {
    const e = document.createElementNS($('rate-svg').namespaceURI, tag);
    for (const k of Object.keys(attrs)) e.setAttribute(k, attrs[k]);
    if (parentNode) parentNode.appendChild(e);
    return e;
  }

  function rateText(bytesPerSecond) {
    const units = ['B/s', 'KB/s', 'MB/s', 'GB/s'];
    let v = bytesPerSecond;
    let u = 0;
    while (v >= 1000 && u + 1 < units.length) { v /= 1000; u++; }
    return v.toFixed(1) + ' ' + units[u];
  }

  function writeRate() {
    const r = data.rate;
    if (!r) {
      $('rate-summary').textContent = 'Not recorded: a profile without Rate chunks (an older ' +
        'agent), or nothing was allocated.';
      $('rate-svg').remove();
      return;
    }
    const n = r.series.bytes.length;
    const sec = r.intervalMs / 1000;
    let peak = 0;
    for (let i = 1; i < n; i++) if (r.series.bytes[i] > r.series.bytes[peak]) peak = i;
    const span = n * sec;
    $('rate-summary').textContent = 'Bytes allocated per ' + sec + ' s (the profile\'s flush ' +
      'interval). Average ' + approx + rateText(r.bytes / span) + ', peak ' + approx +
      rateText(r.series.bytes[peak] / sec) + ' in ' + (peak * sec).toFixed(1) + '\u2013' +
      ((peak + 1) * sec).toFixed(1) + ' s; ' + approx + fmt(r.bytes) + ' bytes in all.';
    const W = 900, H = 220, L = 70, B = 24, top = 8;
    const chart = $('rate-svg');
    chart.setAttribute('viewBox', '0 0 ' + W + ' ' + H);
    const max = Math.max(1, r.series.bytes[peak]) / sec;
    const y = (v) => H - B - (H - B - top) * (v / max);
    const bw = (W - L - 4) / n;
    const colors = (k) => 'hsl(' + ((k * 67 + 200) % 360) + ', 55%, 58%)';
    const legend = $('rate-chart').appendChild(el('div', 'rate-legend'));
    r.threads.forEach((t, k) => {
      const item = legend.appendChild(el('span'));
      item.appendChild(el('i')).style.background = colors(k);
      item.appendChild(document.createTextNode(t.name + ' (' + approx + fmt(t.bytes) + ' bytes)'));
    });
    const other = legend.appendChild(el('span'));
    other.appendChild(el('i')).style.background = '#c3cad3';
    other.appendChild(document.createTextNode('other threads'));
    for (let i = 0; i < n; i++) {
      const x = L + i * bw;
      let base = 0;
      const parts = r.threads.map((t, k) => [t.series.bytes[i], colors(k), t.name]);
      const known = parts.reduce((a, p) => a + p[0], 0);
      parts.push([r.series.bytes[i] - known, '#c3cad3', 'other threads']);
      for (const [bytes, fill, name] of parts) {
        if (bytes <= 0) continue;
        const v = bytes / sec;
        const rect = svg('rect', { x: x + 0.5, y: y(base + v), width: Math.max(0.5, bw - 1),
          height: y(base) - y(base + v), fill: fill, class: 'rate-bar' }, chart);
        svg('title', {}, rect).textContent = (i * sec).toFixed(1) + '\u2013' +
          ((i + 1) * sec).toFixed(1) + ' s, ' + name + ': ' + approx + fmt(bytes) + ' bytes (' +
          rateText(v) + ')';
        base += v;
      }
    }
    svg('line', { x1: L, y1: H - B, x2: W, y2: H - B, class: 'axis' }, chart);
    svg('line', { x1: L, y1: top, x2: L, y2: H - B, class: 'axis' }, chart);
    for (const f of [0, 0.5, 1]) {
      svg('text', { x: L - 6, y: y(max * f) + 4, 'text-anchor': 'end' }, chart).textContent =
        rateText(max * f);
    }
    const ticks = Math.min(n, 10);
    for (let k = 0; k <= ticks; k++) {
      const i = Math.round((k * n) / ticks);
      svg('text', { x: L + i * bw, y: H - 6, 'text-anchor': 'middle' }, chart).textContent =
        (i * sec).toFixed(sec < 1 ? 1 : 0) + ' s';
    }
  }

  function loadState() {
    const p = loadHash();
    const m = metrics.find((x) => x.id === p.get('metric') && x.enabled);
    if (m) state.metric = m;
    for (const k of FILTERS) $('f-' + k).value = p.get(k) || '';
    const z = Number(p.get('zoom'));
    if (Number.isInteger(z) && z > 0) state.zoom = z;  // checked once the filters apply
    state.thread = Number(p.get('thread')) || 0;  // its node is found once the tree is built
    return p.get('search') || '';
  }

  function writePruned() {
    const pruned = T.contexts - T.shown;
    $('fg-pruned').textContent = fmt(T.shown) + ' of ' + fmt(T.contexts) + ' contexts shown' +
      (pruned > 0 ? '; ' + fmt(pruned) + ' below ' + Number((T.minFraction * 100).toPrecision(6)) +
        '% of every metric left out (their values are counted in their callers)' : '');
  }

  function wireEvents() {
    const canvas = $('flame');
    canvas.addEventListener('mousemove', (ev) => {
      const hit = frameAt(ev);
      if (!hit) {
        $('tooltip').hidden = true;
        return;
      }
      showTooltip(hit.i, hit.x, hit.y);
      showDetails(hit.i);
    });
    canvas.addEventListener('mouseleave', () => {
      $('tooltip').hidden = true;
      showDetails(state.zoom);
    });
    canvas.addEventListener('click', (ev) => {
      const hit = frameAt(ev);
      if (hit) zoomTo(hit.i);
    });
    $('reset-zoom').addEventListener('click', () => zoomTo(0));
    let pending = 0;
    $('search').addEventListener('input', (ev) => {
      clearTimeout(pending);
      pending = setTimeout(() => search(ev.target.value), 150);
    });
    let filtering = 0;
    for (const k of FILTERS) {
      $('f-' + k).addEventListener('input', () => {
        clearTimeout(filtering);
        filtering = setTimeout(() => applyFilter(false), 250);
      });
    }
    let resize = 0;
    window.addEventListener('resize', () => {
      clearTimeout(resize);
      resize = setTimeout(render, 100);
    });
    document.addEventListener('keydown', (ev) => {
      if (ev.key === '/' && document.activeElement !== $('search')) {
        ev.preventDefault();
        $('search').focus();
      } else if (ev.key === 'Escape') {
        zoomTo(0);
      }
    });
  }

  writeHeader();
  writeThreads();
  writeRate();
  writeTables();
  writeMetricButtons();
  writePruned();
  const query = loadState();
  for (const b of $('metrics').children) {
    b.setAttribute('aria-pressed', b.dataset.id === state.metric.id);
  }
  wireEvents();
  state.query = query;
  applyFilter(true);  // draws
})();
