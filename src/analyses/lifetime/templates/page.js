// dragnet lifetime report: the page's script (src/analyses/lifetime/templates/page.js), after the
// shared helpers of report.js. Reads the embedded data (docs/REPORTS.md, "lifetime html"),
// whose numbers the report writer took from the same model as the text report; this script
// only formats, sorts and draws them: the totals, the reachable heap over time as stacked
// areas (HUP Fig. 5), the sortable tables and the selected group's nested sites or lifetime
// patterns, and the flame graphs of drag, void and lag by allocation context. State is kept
// in the URL hash: #rank=void&sel=nested:3&gcs=0&flame=void&zoom=4.
'use strict';
(function () {
  const data = JSON.parse(document.getElementById('profile-data').textContent);
  const $ = (id) => document.getElementById(id);
  const { el, fmt, pct, count, card, kvTable, writeHeading, writeHiddenClasses, loadHash,
    saveHash } = dragnetReport;
  const T = data.totals;
  const SAMPLE = data.settings.sample;  // 0: every object tracked; else data.sampled says so
  const PHASES = ['lag', 'use', 'drag', 'void'];
  const NAMES = { lag: 'lag', use: 'in use', drag: 'drag', void: 'void', total: 'total' };
  const SVG = 'http://www.w3.org/2000/svg';
  const KB = 1024;
  const MB = 1024 * 1024;
  const state = { rank: 'drag', sel: null, gcs: true, sort: {}, all: {}, flame: 'drag', zoom: 0 };

  const frames = (ids) => ids.map((i) => data.strings[i]);
  // Innermost first, "a < b < c", cut after 4 frames as in the text report.
  function joined(ids) {
    if (ids.length === 0) return '(not recorded)';
    const f = frames(ids);
    return f.length > 4 ? f.slice(0, 4).join(' < ') + ' < ...' : f.join(' < ');
  }
  const siteName = (s) => s.type + ' at ' + joined(s.frames);
  // Spaces of real runs have 16 to 20 digits, too wide for tables and cards: from 10^7 on
  // they show 3 significant digits ("1.52e18"), the exact value on hover (title).
  const spaceText = (v) => (v < 1e7 ? fmt(v) : v.toExponential(2).replace('e+', 'e'));
  function setSpace(e, v) {
    e.textContent = spaceText(v);
    if (v >= 1e7) e.title = fmt(v);
    return e;
  }
  const share = (part, whole) => pct(part, whole, 2);
  // Exact bytes when small, else KB or MB (1 MB = 2^20 bytes) with the exact value.
  function bytes(v) {
    if (v >= 2 * MB) return (v / MB).toFixed(2) + ' MB (' + fmt(v) + ' bytes)';
    if (v >= 2 * KB) return (v / KB).toFixed(2) + ' KB (' + fmt(v) + ' bytes)';
    return fmt(v) + ' bytes';
  }

  // Average bytes held over the run (a space / the run length), as the text report writes it.
  function held(v) {
    if (v < KB) return fmt(v) + ' bytes';
    const units = ['KB', 'MB', 'GB', 'TB'];
    let u = 0;
    for (v /= KB; v >= KB && u + 1 < units.length; u++) v /= KB;
    return v.toFixed(2) + ' ' + units[u];
  }
  // A space as the bytes it held on average over the run (the totals carry it computed).
  const average = (space) => (data.endTime > 0 ? space / data.endTime : 0);
  const DRAG_PARTS = [['actionable', 'actionable'], ['belowPrecision', 'below the death precision'],
    ['untilExit', 'until exit']];

  // ---- header, totals, settings ----------------------------------------------------------

  function writeHeader() {
    writeHeading(data, 'Lifetime profile');
    if (SAMPLE) {
      $('badges').appendChild(el('span', 'badge est', 'sampled: estimates')).id = 'sampled-badge';
      $('warnings').appendChild(el('p', 'warning', 'Sampled profile (sample=' + fmt(SAMPLE) +
        '): ' + data.sampled + '.')).id = 'sampled-warning';
    }
    if (data.stacks === 'off') {
      $('warnings').appendChild(el('p', 'warning', 'Recorded with use-contexts=off: the places of ' +
        'uses are not known, so every nested site has one lifetime pattern.'));
    }
    writeHiddenClasses(data.hiddenClasses);
    if (data.filter) {  // dragnet report --include, --exclude, --focus (docs/REPORTS.md)
      const f = data.filter;
      const said = [['include', f.include], ['exclude', f.exclude], ['focus', f.focus]]
        .filter(([, list]) => list.length > 0).map(([k, list]) => k + ' ' + list.join(', '));
      $('warnings').appendChild(el('p', 'note', 'Filtered by dragnet report (' + said.join('; ') +
        '): kept ' + fmt(f.kept.bytes) + ' of ' + fmt(f.total.bytes) + ' bytes (' +
        pct(f.keptShare, 1) + '), ' + fmt(f.kept.objects) + ' of ' + fmt(f.total.objects) +
        ' objects.')).id = 'cli-filter';
    }
    if (data.appExclude.length > 0) {
      $('app-exclude').textContent = ' nor under ' + data.appExclude.join(', ');
    }
  }

  function writeTotals() {
    const box = $('totals');
    card(box, 'space', 'Total space', '', count(T.objects, 'object', 'objects') + ', ' +
      fmt(T.bytes) + ' bytes');
    setSpace($('total-space'), T.space.total);
    $('total-space').parentNode.querySelector('.sub').appendChild(el('span', '', '; ' +
      held(T.averageBytes.total) + ' reachable on average')).id = 'avg-total';
    for (const p of ['drag', 'void', 'lag', 'use']) {
      const sub = card(box, p, NAMES[p], share(T.space[p], T.space.total), '')
        .querySelector('.sub');
      setSpace(sub.appendChild(el('span')), T.space[p]);
      sub.appendChild(document.createTextNode(' ' + NAMES[p] + ' space; '));
      sub.appendChild(el('span', '', held(T.averageBytes[p]))).id = 'avg-' + p;
      sub.appendChild(document.createTextNode(' held on average'));
    }
    card(box, 'objects', 'Objects', fmt(T.objects), fmt(T.lagged) + ' lagged (unused through a ' +
      'forced GC), ' + fmt(T.dragged) + ' dragged, ' + fmt(T.void) + ' void');
    // HUP's sentence, with the same percentages as the text report (computed by dragnet).
    const s = $('summary');
    const part = (p, text) => {
      s.appendChild(el('b', '', T.percent[p].toFixed(2) + '%')).id = 'pct-' + p;
      s.appendChild(document.createTextNode(text));
    };
    part('drag', ' of the total space is drag (');
    DRAG_PARTS.forEach(([key, name], i) => {
      s.appendChild(el('b', '', T.dragPercent[key].toFixed(2) + '%')).id = 'pct-drag-' + key;
      s.appendChild(document.createTextNode(' ' + name + (i < 2 ? ', ' : '), ')));
    });
    part('lag', ' is lag, ');
    part('void', ' is void and ');
    part('use', ' is in use.');
  }

  function writeSettings() {
    const st = data.settings;
    const pr = data.precision;
    const rows = [
      ['time', fmt(data.endTime) + ' bytes allocated (time is bytes allocated' +
        (SAMPLE ? ', estimated from the samples)' : ')')],
      ['gc interval', (st.gcInterval ? fmt(st.gcInterval) + ' bytes' : 'not recorded') + '; ' +
        count(pr.gcs, 'GC', 'GCs') + ', ' + fmt(pr.forcedGcs) + ' forced' +
        (st.gcBudget < 100 ? '; budget ' + st.gcBudget + '% of the run: ' +
          fmt(st.gcDeferred) + ' thresholds passed over' : '')],
      ['use epoch', fmt(st.useEpoch) + ' bytes (a last use counts until the end of its epoch)'],
      ['stack', (st.stack ? count(st.stack, 'frame', 'frames') : 'unlimited') +
        ' per nested allocation site'],
      ['precision', 'deaths known to within ' + fmt(pr.maxGap) + ' bytes (largest gap), ' +
        fmt(pr.meanGap) + ' on average, over ' + count(pr.freed, 'freed object',
        'freed objects') + '; ' + count(pr.aliveAtEnd, 'object', 'objects') +
        ' alive at the end (they die at the end time)'],
      ['drag split', 'actionable: reachable at a forced GC after its last use; below the death ' +
        'precision: between the last forced GC that saw it and the GC that freed it; until ' +
        'exit: alive at the end, after the last forced GC that saw it'],
      ['lagged', 'objects that sat unused through a forced GC (every lag is at least the ' +
        'object\u2019s own size)'],
    ];
    if (data.javaHeap) {
      rows.push(['java heap', 'the agent keeps a phantom reference per tracked object, ' +
        data.javaHeap.bytesPerObject + ' bytes: ' + fmt(data.javaHeap.peakObjects) +
        ' objects tracked at the peak, ' + fmt(data.javaHeap.peakBytes) + ' bytes']);
    }
    if (SAMPLE) rows.splice(1, 0, ['sampled', data.sampled]);
    kvTable($('settings'), rows);
    kvTable($('meta'), Object.keys(data.meta).sort().map((k) => [k, data.meta[k]]));
  }

  // ---- the heap over time (HUP Fig. 5) --------------------------------------------------

  const H = data.heap;
  const STACKED = ['use', 'lag', 'drag', 'void'];  // bottom to top
  const column = (p) => 1 + H.phases.indexOf(p);    // in a point [time, lag, use, drag, void]

  function svg(parent, tag, attrs, text) {
    const e = document.createElementNS(SVG, tag);
    for (const k of Object.keys(attrs)) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return parent.appendChild(e);
  }

  // The unit of an axis: MB (2^20 bytes) as HUP's chart, or KB or bytes for small runs.
  function unitOf(max) {
    if (max >= 2 * MB) return { div: MB, name: 'MB' };
    if (max >= 2 * KB) return { div: KB, name: 'KB' };
    return { div: 1, name: 'bytes' };
  }

  // Round tick values from 0 up to max (in the unit), about n of them.
  function ticks(max, n) {
    if (!(max > 0)) return [0];
    const raw = max / n;
    const mag = Math.pow(10, Math.floor(Math.log10(raw)));
    const step = [1, 2, 5, 10].map((k) => k * mag).find((s) => s >= raw);
    const out = [];
    for (let v = 0; v <= max + 1e-9 * max; v += step) out.push(Number(v.toPrecision(12)));
    return out;
  }

  // The stacked step areas: a point's values hold until the next point.
  function areaPath(xs, lower, upper) {
    const r = (v) => Math.round(v * 10) / 10;
    const n = xs.length;
    let d = 'M' + r(xs[0]) + ' ' + r(upper[0]);
    for (let i = 1; i < n; i++) d += 'H' + r(xs[i]) + 'V' + r(upper[i]);
    d += 'V' + r(lower[n - 1]);
    for (let i = n - 2; i >= 0; i--) d += 'V' + r(lower[i]) + 'H' + r(xs[i]);
    return d + 'Z';
  }

  function drawAxes(g, box, xu, yu) {
    for (const v of ticks(box.yMax / yu.div, 5)) {
      const y = box.y(v * yu.div);
      svg(g, 'line', { class: 'grid', x1: box.left, x2: box.right, y1: y, y2: y });
      svg(g, 'text', { x: box.left - 6, y: y + 4, 'text-anchor': 'end' }, fmtTick(v));
    }
    for (const v of ticks(box.xMax / xu.div, 8)) {
      const x = box.x(v * xu.div);
      svg(g, 'line', { class: 'axis', x1: x, x2: x, y1: box.bottom, y2: box.bottom + 4 });
      svg(g, 'text', { x: x, y: box.bottom + 16, 'text-anchor': 'middle' }, fmtTick(v));
    }
    svg(g, 'line', { class: 'axis', x1: box.left, x2: box.right, y1: box.bottom, y2: box.bottom });
    svg(g, 'line', { class: 'axis', x1: box.left, x2: box.left, y1: box.top, y2: box.bottom });
    svg(g, 'text', { class: 'axis-title', x: (box.left + box.right) / 2, y: box.bottom + 34,
      'text-anchor': 'middle', id: 'chart-x-title' }, 'Allocation time (' + xu.name + ')');
    const my = (box.top + box.bottom) / 2;
    svg(g, 'text', { class: 'axis-title', x: 14, y: my, 'text-anchor': 'middle',
      transform: 'rotate(-90 14 ' + my + ')', id: 'chart-y-title' }, 'Heap (' + yu.name + ')');
  }

  function fmtTick(v) {
    return Number.isInteger(v) ? fmt(v) : String(v);
  }

  function drawSeries(g, box) {
    const pts = H.points;
    const xs = pts.map((p) => box.x(p[0]));
    let lower = pts.map(() => 0);
    for (const phase of STACKED) {
      const c = column(phase);
      const upper = pts.map((p, i) => lower[i] + p[c]);
      svg(g, 'path', { class: 'series ' + phase, 'data-phase': phase,
        d: areaPath(xs, lower.map(box.y), upper.map(box.y)) });
      lower = upper;
    }
  }

  function drawMarks(g, box) {
    const marks = svg(g, 'g', { id: 'chart-gcs' });
    marks.style.display = state.gcs ? '' : 'none';
    for (const [time, forced] of H.gcs) {
      if (!forced) continue;
      const x = box.x(time);
      svg(marks, 'line', { class: 'gc-mark', x1: x, x2: x, y1: box.bottom - 8, y2: box.bottom });
    }
    const y = box.y(H.peak);
    svg(g, 'line', { class: 'peak', x1: box.left, x2: box.right, y1: y, y2: y });
    const px = box.x(H.peakTime);
    const right = px > (box.left + box.right) / 2;
    svg(g, 'text', { class: 'peak-label', id: 'chart-peak', x: px + (right ? -6 : 6), y: y - 4,
      'text-anchor': right ? 'end' : 'start' }, 'peak ' + bytes(H.peak));
  }

  // The readout of point i: its time and each phase's reachable bytes.
  function readout(i, prefix) {
    const p = H.points[i];
    let total = 0;
    const parts = STACKED.map((phase) => {
      total += p[column(phase)];
      return NAMES[phase] + ' ' + fmt(p[column(phase)]);
    });
    $('chart-readout').textContent = prefix + 'at ' + fmt(p[0]) + ' bytes allocated: ' +
      bytes(total) + ' reachable (' + parts.join(', ') + ')';
  }

  // The point whose values hold at time t: the last one at or before it.
  function pointAt(t) {
    let lo = 0;
    let hi = H.points.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (H.points[mid][0] <= t) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  function wireHover(g, box) {
    const guide = svg(g, 'line', { class: 'guide', y1: box.top, y2: box.bottom,
      visibility: 'hidden' });
    const overlay = svg(g, 'rect', { class: 'overlay', x: box.left, y: box.top,
      width: box.right - box.left, height: box.bottom - box.top });
    const peakIndex = H.points.findIndex((p) => p[0] === H.peakTime);
    const rest = () => readout(peakIndex, 'Peak ');
    overlay.addEventListener('mousemove', (ev) => {
      const rect = overlay.getBoundingClientRect();
      const t = ((ev.clientX - rect.left) / rect.width) * box.xMax;
      const i = pointAt(t);
      const x = box.x(Math.max(t, H.points[i][0]));
      guide.setAttribute('x1', x);
      guide.setAttribute('x2', x);
      guide.setAttribute('visibility', 'visible');
      readout(i, '');
    });
    overlay.addEventListener('mouseleave', () => {
      guide.setAttribute('visibility', 'hidden');
      rest();
    });
    rest();
  }

  function drawChart() {
    const wrap = $('chart-wrap');
    wrap.replaceChildren();
    if (H.points.length === 0) {
      wrap.appendChild(el('p', 'empty', 'No time has passed: there is nothing to draw.'));
      return;
    }
    const width = Math.max(360, wrap.clientWidth);
    const height = 340;
    const box = { left: 78, right: width - 16, top: 18, bottom: height - 46,
      xMax: Math.max(1, data.endTime), yMax: Math.max(1, H.peak) };
    box.x = (t) => box.left + (t / box.xMax) * (box.right - box.left);
    box.y = (b) => box.bottom - (b / box.yMax) * (box.bottom - box.top);
    const root = svg(wrap, 'svg', { id: 'chart', width: width, height: height,
      viewBox: '0 0 ' + width + ' ' + height, role: 'img', 'aria-label': 'Reachable heap over time',
      'data-ymax': H.peak, 'data-xmax': data.endTime, 'data-series': STACKED.length,
      'data-points': H.points.length });
    drawAxes(root, box, unitOf(box.xMax), unitOf(box.yMax));
    drawSeries(root, box);
    drawMarks(root, box);
    wireHover(root, box);
  }

  function writeChartFrame() {
    const legend = $('chart-legend');
    for (const phase of STACKED.slice().reverse()) {
      legend.appendChild(el('i', 'sw ' + phase));
      legend.appendChild(document.createTextNode(NAMES[phase]));
    }
    legend.appendChild(el('i', 'sw gc'));
    legend.appendChild(document.createTextNode('forced GC'));
    const forced = H.gcs.filter((g) => g[1]).length;
    $('chart-note').textContent = 'Reachable bytes by phase, stacked (in use at the bottom, ' +
      'then lag, drag and void). ' + count(H.points.length, 'point', 'points') + ': the ' +
      'start, highest and lowest instant of each of ' + fmt(H.buckets) + ' equal intervals ' +
      '(fewer for a short run), so the peak is exact; ' +
      count(forced, 'forced GC', 'forced GCs') + '.';
    const box = $('show-gcs');
    box.checked = state.gcs;
    box.addEventListener('change', () => {
      state.gcs = box.checked;
      $('chart-gcs').style.display = state.gcs ? '' : 'none';
      save();
    });
  }

  // ---- tables ---------------------------------------------------------------------------

  const SPACES = ['lag', 'use', 'drag', 'void', 'total'];
  // [id, title, value of a group]; spaces also show their share of `whole`.
  function columns(nameTitle, nameOf) {
    return [
      ['id', 'Id', (g) => g.id],
      ['name', nameTitle, nameOf],
      ['objects', 'Objects', (g) => g.objects],
      ['lagged', 'Lagged', (g) => g.lagged],  // unused through a forced GC
      ['dragged', 'Dragged', (g) => g.dragged],
      ['voids', 'Void objects', (g) => g.void],
    ].concat(SPACES.map((p) => [p, (p === 'use' ? 'In use' : NAMES[p][0].toUpperCase() +
      NAMES[p].slice(1)) + ' space', (g) => g.space[p]]));
  }

  function sorted(rows, cols, sort) {
    const get = cols.find((c) => c[0] === sort.key)[2];
    const dir = sort.desc ? -1 : 1;
    return rows.slice().sort((a, b) => {
      const x = get(a);
      const y = get(b);
      if (x !== y) return (x < y ? -1 : 1) * dir;
      return a.id - b.id;
    });
  }

  // A sortable table of groups: `whole` is the stats the percentages are shares of, `pick`
  // the kind and id a row click selects (null: rows are not clickable).
  function groupTable(id, rows, cols, whole, pick) {
    const t = $(id);
    t.replaceChildren();
    const sort = state.sort[id] || { key: state.rank, desc: true };
    const head = t.appendChild(el('thead')).appendChild(el('tr'));
    for (const [key, title] of cols) {
      const text = key === 'name' || key === 'app';
      const th = head.appendChild(el('th', text ? 'sortable' : 'num sortable', title));
      th.dataset.key = key;
      if (key === sort.key) th.classList.add('sorted', sort.desc ? 'desc' : 'asc');
      th.addEventListener('click', () => {
        const same = sort.key === key;
        state.sort[id] = { key, desc: same ? !sort.desc : !text && key !== 'id' };
        groupTable(id, rows, cols, whole, pick);
      });
    }
    const body = t.appendChild(el('tbody'));
    const all = sorted(rows, cols, sort);
    const shown = state.all[id] ? all : all.slice(0, data.top);
    if (all.length === 0) {
      body.appendChild(el('tr')).appendChild(el('td', 'empty', 'none')).colSpan = cols.length;
    }
    for (const g of shown) body.appendChild(groupRow(g, cols, whole, pick));
    moreButton(t, id, all.length, shown.length, () => groupTable(id, rows, cols, whole, pick));
  }

  function groupRow(g, cols, whole, pick) {
    const tr = el('tr');
    for (const [key, , get] of cols) {
      if (key === 'name' || key === 'app') {
        tr.appendChild(el('td', 'code', get(g)));
      } else if (SPACES.includes(key)) {
        const td = tr.appendChild(el('td', 'num'));
        setSpace(td.appendChild(el('span')), get(g));
        td.appendChild(el('span', 'pct', ' ' + share(get(g), whole.space[key])));
        td.appendChild(el('span', 'avg', ' ' + held(average(get(g)))));
      } else {
        tr.appendChild(el('td', 'num', fmt(get(g))));
      }
    }
    if (pick) {
      const [kind, id] = pick(g);
      tr.className = 'clickable';
      if (state.sel && state.sel.kind === kind && state.sel.id === id) tr.classList.add('selected');
      tr.addEventListener('click', () => select(kind, id));
    }
    return tr;
  }

  // "Show all" in the caption of a table cut to the first `top` rows.
  function moreButton(t, id, total, shown, redraw) {
    if (total <= data.top) return;
    const cap = t.insertBefore(el('caption', 'note', 'Showing ' + fmt(shown) + ' of ' +
      fmt(total) + ' rows. '), t.firstChild);
    const label = state.all[id] ? 'Show fewer' : 'Show all';
    const b = cap.appendChild(el('button', 'button small', label));
    b.type = 'button';
    b.addEventListener('click', () => {
      state.all[id] = !state.all[id];
      redraw();
    });
  }

  const byId = (list) => new Map(list.map((g) => [g.id, g]));
  const classes = byId(data.classes);
  const methods = byId(data.methods);
  const nested = byId(data.nested);
  const CLASS_COLS = columns('Class', (g) => g.name);
  const METHOD_COLS = columns('Method', (g) => g.name);
  // The nested sites' columns with their first application frame after the name.
  const NESTED_COLS = columns('Type at stack', siteName);
  NESTED_COLS.splice(2, 0, ['app', 'First application frame', (g) => g.firstAppFrame]);
  const APP_COLS = columns('First application frame', (g) => g.name);
  const PATTERN_COLS = columns('First get / last get', (p) => joined(p.firstGet) + '  \u2192  ' +
    joined(p.lastGet));

  function writeTables() {
    groupTable('classes', data.classes, CLASS_COLS, T, (g) => ['class', g.id]);
    groupTable('methods', data.methods, METHOD_COLS, T, (g) => ['method', g.id]);
    groupTable('nested', data.nested, NESTED_COLS, T, (g) => ['nested', g.id]);
    groupTable('by-first-app', data.byFirstAppFrame, APP_COLS, T, null);
    const c = data.counts;
    const note = (id, n, total, what) => {
      $(id).textContent = n === total ? count(total, what[0], what[1]) + '.'
        : fmt(n) + ' of ' + count(total, what[0], what[1]) + ' embedded: the top ' +
          fmt(data.groupLimit) + ' by total space and by each phase\u2019s space.';
    };
    note('classes-note', data.classes.length, c.classes, ['class', 'classes']);
    note('methods-note', data.methods.length, c.methods, ['allocation site', 'allocation sites']);
    note('nested-note', data.nested.length, c.nested, ['nested allocation site',
      'nested allocation sites']);
  }

  // ---- the selected group ---------------------------------------------------------------

  function select(kind, id) {
    state.sel = { kind, id };
    render();
    $('detail').scrollIntoView({ block: 'nearest' });
  }

  function statsLine(g, whole, of) {
    const parts = PHASES.filter((p) => g.space[p] > 0).map((p) => spaceText(g.space[p]) + ' ' +
      NAMES[p] + ' (' + share(g.space[p], whole.space[p]) + ' of ' + of + ')');
    return count(g.objects, 'object', 'objects') + ' (' + fmt(g.bytes) + ' bytes): ' +
      fmt(g.lagged) + ' lagged, ' + fmt(g.dragged) + ' dragged, ' + fmt(g.void) + ' void; ' +
      (parts.length ? parts.join(', ') + '; ' : '') + 'total space ' + spaceText(g.space.total);
  }

  // A stack as a list, innermost frame first.
  function fillStack(ol, ids) {
    ol.replaceChildren();
    ol.className = ids.length ? 'stack' : 'stack none';
    if (ids.length === 0) ol.appendChild(el('li', '', 'not recorded'));
    for (const f of frames(ids)) ol.appendChild(el('li', '', f));
    return ol;
  }

  function showDetail() {
    const sel = state.sel;
    const maps = { class: classes, method: methods, nested: nested };
    const g = sel && maps[sel.kind] ? maps[sel.kind].get(sel.id) : undefined;
    $('detail').hidden = !g;
    if (!g) return;
    const isSite = sel.kind === 'nested';
    const titles = { class: 'Class ', method: 'Allocation site ',
      nested: 'Nested allocation site ' };
    $('detail-title').textContent = titles[sel.kind] + g.id + ': ' + (isSite ? g.type : g.name);
    $('detail-summary').textContent = statsLine(g, T, 'all');
    fillStack($('detail-frames'), isSite ? g.frames : []).hidden = !isSite;
    $('detail-nested-title').hidden = isSite;
    $('detail-nested').hidden = isSite;
    $('detail-patterns-title').hidden = !isSite;
    $('detail-patterns').hidden = !isSite;
    if (isSite) {
      showPatterns(g);
    } else {
      const rows = g.nested.map((id) => nested.get(id));
      $('detail-nested-title').textContent = 'Nested allocation sites (' + fmt(g.nestedCount) +
        (rows.length < g.nestedCount ? ', ' + fmt(rows.length) + ' embedded' : '') + ')';
      groupTable('detail-nested', rows, NESTED_COLS, T, (s) => ['nested', s.id]);
    }
  }

  function showPatterns(site) {
    const box = $('detail-patterns');
    box.replaceChildren();
    if (!data.useContexts) {
      $('detail-patterns-title').textContent = 'Lifetime patterns (first get, last get)';
      box.appendChild(el('p', 'note', 'Not recorded in this profile: dragnet run --mode lifetime ' +
        '--use-contexts records where first and last gets happen (exact variant only).')).id =
        'patterns-not-recorded';
      return;
    }
    $('detail-patterns-title').textContent = 'Lifetime patterns (first get, last get): ' +
      fmt(site.patternCount) + (site.patterns.length < site.patternCount ? ', ' +
        fmt(site.patterns.length) + ' embedded' : '') + '; percentages of the site\u2019s';
    const t = box.appendChild(el('table', 'data'));
    t.id = 'detail-pattern-table';
    groupTable('detail-pattern-table', site.patterns, PATTERN_COLS, site, null);
    const rank = { key: state.rank, desc: true };
    for (const p of sorted(site.patterns, PATTERN_COLS, rank)) {
      box.appendChild(patternBlock(p, site));
    }
  }

  const when = (t) => (t === null ? '\u2013' : fmt(t));

  function patternBlock(p, site) {
    const div = el('div', 'pattern');
    div.id = 'pattern-' + p.id;
    div.appendChild(el('h4', '', 'Pattern ' + p.id + ': ' + statsLine(p, site, 'the site\u2019s')));
    let cols = div.appendChild(el('div', 'cols'));
    const part = (label, ids) => {
      const d = cols.appendChild(el('div'));
      d.appendChild(el('div', 'label', label));
      fillStack(d.appendChild(el('ol')), ids);
    };
    part('First get', p.firstGet);
    part('Last get', p.lastGet);
    const r = p.representative;
    if (!r) return div;
    // In a sampled profile the representative is one tracked record: say how many it is.
    const weight = SAMPLE ? '; a tracked record that stands for ' +
      count(r.weight, 'object', 'objects') : '';
    div.appendChild(el('div', 'label', 'For example object ' + r.id + ' (' + fmt(r.size) +
      ' bytes' + weight + '): allocated at ' + fmt(r.alloc) + ', first get ' + when(r.firstGet) +
      ', last get ' + when(r.lastGet) + ', first put ' + when(r.firstPut) + ', last put ' +
      when(r.lastPut) + ', dead at ' + fmt(r.death) + (r.deathGc ? ' (GC ' + r.deathGc + ')'
        : ' (alive at the end)')));
    if (r.firstPut !== null) {
      cols = div.appendChild(el('div', 'cols'));
      part('Its first put', r.firstPutAt);
      part('Its last put', r.lastPutAt);
    }
    return div;
  }

  // ---- flame graphs by allocation context ------------------------------------------------

  // data.flame: a tree of frames (root "all", then the thread's root method ... the
  // allocating method, then the allocated type), each node's own space per measure (only
  // type nodes and "(small contexts)" have any). Drawn as an icicle on a canvas, widths by
  // the chosen measure's inclusive space; a click zooms into a frame.
  const F = data.flame;
  const FN = F.parent.length;
  const fKids = Array.from({ length: FN }, () => []);
  const fDepth = new Int32Array(FN);
  for (let i = 1; i < FN; i++) {  // parents precede their children
    fKids[F.parent[i]].push(i);
    fDepth[i] = fDepth[F.parent[i]] + 1;
  }
  const fName = (i) => data.strings[F.name[i]];
  const fInc = {};
  for (const m of F.measures) {
    const v = Float64Array.from(F.own[m]);
    for (let i = FN - 1; i > 0; i--) v[F.parent[i]] += v[i];
    fInc[m] = v;
  }
  const FROW = 17;

  // [node, x, width, depth] of the frames at least half a pixel wide, the zoomed frame's
  // ancestors at full width.
  function flameLayout(width) {
    const inc = fInc[state.flame];
    const out = [];
    for (let a = F.parent[state.zoom]; a >= 0; a = F.parent[a]) out.push([a, 0, width]);
    if (!(inc[state.zoom] > 0)) return out;
    const scale = width / inc[state.zoom];
    const todo = [[state.zoom, 0]];
    while (todo.length) {
      const [i, x] = todo.pop();
      out.push([i, x, inc[i] * scale]);
      let cx = x;
      const kids = fKids[i].slice().sort((a, b) => inc[b] - inc[a] || a - b);
      for (const k of kids) {
        if (inc[k] * scale >= 0.5) todo.push([k, cx]);
        cx += inc[k] * scale;
      }
    }
    return out;
  }

  function flameColor(i) {
    if (i === 0) return 'hsl(210, 12%, 72%)';
    const name = fName(i);
    let h = 0;
    for (let k = 0; k < name.length; k++) h = (h * 31 + name.charCodeAt(k)) | 0;
    const v = (h >>> 0) / 4294967296;
    if (fKids[i].length === 0) return 'hsl(' + Math.round(200 + 25 * v) + ', 55%, 66%)';  // a type
    const jdk = /^(java|javax|jdk|sun|com\.sun)\./.test(name);
    return 'hsl(' + Math.round((jdk ? 40 : 8) + 20 * v) + ', 80%, ' + Math.round(58 + 10 * v) + '%)';
  }

  let flameBoxes = [];
  function drawFlame() {
    const canvas = $('flame');
    const width = Math.max(200, $('flame-wrap').clientWidth);
    flameBoxes = flameLayout(width);
    const rows = 1 + flameBoxes.reduce((d, b) => Math.max(d, fDepth[b[0]]), 0);
    const dpr = window.devicePixelRatio || 1;
    canvas.style.width = width + 'px';
    canvas.style.height = rows * FROW + 'px';
    canvas.width = Math.round(width * dpr);
    canvas.height = Math.round(rows * FROW * dpr);
    const ctx = canvas.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.font = '11px ui-monospace, "DejaVu Sans Mono", Menlo, monospace';
    for (const [i, x, w] of flameBoxes) {
      const y = fDepth[i] * FROW;
      ctx.globalAlpha = fDepth[i] < fDepth[state.zoom] ? 0.55 : 1;
      ctx.fillStyle = flameColor(i);
      ctx.fillRect(x, y, Math.max(w - 1, 0.5), FROW - 1);
      const room = Math.floor((w - 6) / 6.6);
      if (room >= 3) {
        const text = fName(i);
        ctx.fillStyle = '#1f2933';
        ctx.fillText(text.length > room ? text.slice(0, room - 1) + '\u2026' : text, x + 3, y + 12);
      }
    }
    ctx.globalAlpha = 1;
    canvas.dataset.drawn = flameBoxes.length;
    canvas.dataset.measure = state.flame;
    flameDetails(state.zoom);
  }

  // "name — 6.88 MB of drag held on average (99.12% of all drag)".
  function flameDetails(i) {
    const v = fInc[state.flame][i];
    $('flame-details').textContent = fName(i) + ' \u2014 ' + held(average(v)) + ' of ' + NAMES[state.flame] + ' held on average (' +
      share(v, fInc[state.flame][0]) + ' of all ' + NAMES[state.flame] + ')';
  }

  function flameAt(ev) {
    const r = $('flame').getBoundingClientRect();
    const x = ev.clientX - r.left;
    const d = Math.floor((ev.clientY - r.top) / FROW);
    const hit = flameBoxes.find(([i, bx, w]) => fDepth[i] === d && x >= bx && x < bx + w);
    return hit ? hit[0] : -1;
  }

  function setFlame(measure, zoom) {
    state.flame = measure;
    state.zoom = fInc[measure][zoom] > 0 ? zoom : 0;
    for (const b of $('flame-measures').children) {
      b.setAttribute('aria-pressed', b.id === 'flame-' + measure);
    }
    drawFlame();
    save();
  }

  function writeFlameFrame() {
    for (const m of F.measures) {
      const b = $('flame-measures').appendChild(el('button', '', NAMES[m]));
      b.type = 'button';
      b.id = 'flame-' + m;
      b.disabled = !(fInc[m][0] > 0);
      b.addEventListener('click', () => setFlame(m, state.zoom));
    }
    const canvas = $('flame');
    canvas.addEventListener('mousemove', (ev) => {
      const i = flameAt(ev);
      flameDetails(i >= 0 ? i : state.zoom);
    });
    canvas.addEventListener('click', (ev) => {
      const i = flameAt(ev);
      if (i >= 0) setFlame(state.flame, i);
    });
    $('flame-reset').addEventListener('click', () => setFlame(state.flame, 0));
    const left = F.rows - F.shown;
    $('flame-note').textContent = 'Drag, void and lag space by the allocation\u2019s whole ' +
      'calling context (outermost frame at the top, the allocated type last); widths are ' +
      'spaces, the line above says the bytes held on average. ' +
      count(F.shown, 'context', 'contexts') + ' shown' + (left > 0 ? '; ' + fmt(left) +
        ' below ' + Number((F.minShare * 100).toPrecision(6)) + '% of every measure are ' +
        'summed in \u201c(small contexts)\u201d' : '') + '.';
  }

  // ---- ranking, state -------------------------------------------------------------------

  function writeRankButtons() {
    for (const p of ['drag', 'void', 'lag', 'use', 'total']) {
      const b = $('rank').appendChild(el('button', '', NAMES[p]));
      b.type = 'button';
      b.id = 'rank-' + p;
      b.addEventListener('click', () => {
        state.rank = p;
        state.sort = {};
        render();
      });
    }
  }

  function save() {
    const p = new URLSearchParams();
    if (state.rank !== 'drag') p.set('rank', state.rank);
    if (state.sel) p.set('sel', state.sel.kind + ':' + state.sel.id);
    if (!state.gcs) p.set('gcs', '0');
    if (state.flame !== 'drag') p.set('flame', state.flame);
    if (state.zoom) p.set('zoom', String(state.zoom));
    saveHash(p);
  }

  function load() {
    const p = loadHash();
    if (SPACES.includes(p.get('rank'))) state.rank = p.get('rank');
    const sel = /^(class|method|nested):(\d+)$/.exec(p.get('sel') || '');
    if (sel) state.sel = { kind: sel[1], id: Number(sel[2]) };
    state.gcs = p.get('gcs') !== '0';
    if (F.measures.includes(p.get('flame'))) state.flame = p.get('flame');
    const zoom = Number(p.get('zoom'));
    if (Number.isInteger(zoom) && zoom > 0 && zoom < FN) state.zoom = zoom;
  }

  function render() {
    for (const b of $('rank').children) {
      b.setAttribute('aria-pressed', b.id === 'rank-' + state.rank);
    }
    writeTables();
    showDetail();
    save();
  }

  load();
  writeHeader();
  writeTotals();
  writeSettings();
  writeChartFrame();
  drawChart();
  writeRankButtons();
  writeFlameFrame();
  setFlame(state.flame, state.zoom);
  render();
  let resize = 0;
  window.addEventListener('resize', () => {
    clearTimeout(resize);
    resize = setTimeout(() => {
      drawChart();
      drawFlame();
    }, 100);
  });
})();
