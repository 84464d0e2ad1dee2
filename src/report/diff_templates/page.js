// dragnet diff: the page's own script (src/report/diff_templates/page.js), after report.js.
// Reads the embedded data (docs/REPORTS.md, "diff html"), writes the totals, the
// differential flame graph (SVG: a frame's colour is its change, red for growth, blue for
// shrinkage; its width is B's value or the larger of A's and B's) and a table per keyed
// table. Profile strings reach the page only as text.
(function () {
  'use strict';
  const { el, fmt, card, kvTable, loadHash, saveHash } = dragnetReport;
  const data = JSON.parse(document.getElementById('profile-data').textContent);
  const $ = (id) => document.getElementById(id);
  const SVG = 'http://www.w3.org/2000/svg';
  const ROW = 17;

  function signed(v) {
    return (v > 0 ? '+' : '') + num(v);
  }
  // Integers grouped; ratios with two decimals.
  function num(v) {
    return Math.abs(v - Math.round(v)) > 1e-9 && Math.abs(v) < 1e6 ? v.toFixed(2) : (v < 0 ? '-' : '') + fmt(Math.abs(v));
  }
  // A card's value: short ("-733.9 T") when the digits would not fit.
  function short(v) {
    const units = [[1e15, ' P'], [1e12, ' T'], [1e9, ' G'], [1e6, ' M']];
    for (const [u, name] of units) {
      if (Math.abs(v) >= 10 * u) return (v > 0 ? '+' : '') + (v / u).toFixed(1) + name;
    }
    return signed(v);
  }
  function pct(a, b) {
    if (a === 0) return b === 0 ? '0%' : 'new';
    if (b === 0) return 'gone';
    const p = (100 * (b - a)) / Math.abs(a);
    return (p > 0 ? '+' : '') + p.toFixed(1) + '%';
  }

  function writeHeader() {
    const title = 'Diff of two ' + data.mode + ' profiles (' + data.variant + ')';
    $('title').textContent = title;
    document.title = 'dragnet: ' + title;
    kvTable($('profiles'), [
      ['A', data.a.path + (data.a.pid ? ' (pid ' + data.a.pid + ')' : '')],
      ['B', data.b.path + (data.b.pid ? ' (pid ' + data.b.pid + ')' : '')],
    ]);
    const box = $('totals');
    data.totals.forEach((t, i) => {
      card(box, String(i), t.measure, short(t.delta),
        signed(t.delta) + ' (' + pct(t.a, t.b) + '): A ' + num(t.a) + ' \u2192 B ' + num(t.b));
    });
  }

  // ---- the differential flame graph --------------------------------------------------------
  const nodes = data.flame.nodes.map(([name, parent, a, b]) => ({ name, parent, a, b, kids: [] }));
  nodes.forEach((n, i) => { if (i > 0) nodes[n.parent].kids.push(i); });
  // The frames' width: 'max' (the larger of A and B) or 'b'; kept in the URL hash (#width=b).
  let widthBy = loadHash().get('width') === 'b' ? 'b' : 'max';

  function weight(n) {
    return widthBy === 'b' ? Math.max(n.b, 0) : Math.max(n.a, n.b, 0);
  }

  // Red for growth, blue for shrinkage, saturation by the change against the largest one.
  let maxChange = 0;
  nodes.forEach((n, i) => { if (i > 0) maxChange = Math.max(maxChange, Math.abs(n.b - n.a)); });
  function colour(n) {
    const d = n.b - n.a;
    if (d === 0 || maxChange === 0) return 'hsl(0, 0%, 86%)';
    const s = Math.round(25 + 65 * Math.min(1, Math.sqrt(Math.abs(d) / maxChange)));
    return d > 0 ? 'hsl(0, ' + s + '%, 62%)' : 'hsl(215, ' + s + '%, 62%)';
  }
  function changeClass(n) {
    return n.b > n.a ? 'grew' : n.b < n.a ? 'shrank' : 'same';
  }

  function drawFlame() {
    const svg = $('dflame');
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    if (nodes.length === 0) {
      $('flame-note').textContent = 'These profiles have no calling contexts to draw.';
      $('flame-panel').hidden = true;
      return;
    }
    const width = svg.clientWidth || 1100;
    let drawn = 0;
    let depthMax = 0;
    // Each frame inside its parent's span; children scaled down if their widths add up to
    // more (width by max(A, B): a parent's max is at most the sum of its children's).
    const place = (i, x, w, depth) => {
      const n = nodes[i];
      if (w < 0.5) return;
      depthMax = Math.max(depthMax, depth);
      const g = svg.appendChild(document.createElementNS(SVG, 'g'));
      g.setAttribute('class', 'frame ' + changeClass(n));
      g.setAttribute('data-node', String(i));
      const r = g.appendChild(document.createElementNS(SVG, 'rect'));
      r.setAttribute('x', x.toFixed(2));
      r.setAttribute('y', String(depth * ROW));
      r.setAttribute('width', w.toFixed(2));
      r.setAttribute('height', String(ROW - 1));
      r.setAttribute('fill', colour(n));
      const tip = g.appendChild(document.createElementNS(SVG, 'title'));
      tip.textContent = n.name + '\nA ' + num(n.a) + ', B ' + num(n.b) + ', delta ' + signed(n.b - n.a);
      if (w > 40) {
        const t = g.appendChild(document.createElementNS(SVG, 'text'));
        t.setAttribute('x', (x + 3).toFixed(2));
        t.setAttribute('y', String(depth * ROW + 12));
        const chars = Math.floor((w - 6) / 6.6);
        t.textContent = n.name.length <= chars ? n.name : n.name.slice(0, Math.max(0, chars - 1)) + '\u2026';
      }
      ++drawn;
      const total = n.kids.reduce((s, k) => s + weight(nodes[k]), 0);
      const own = weight(n);
      const scale = total > own && total > 0 ? own / total : 1;
      const unit = own > 0 ? w / own : 0;
      let at = x;
      for (const k of n.kids) {
        const kw = weight(nodes[k]) * scale * unit;
        place(k, at, kw, depth + 1);
        at += kw;
      }
    };
    place(0, 0, width, 0);
    svg.setAttribute('height', String((depthMax + 1) * ROW));
    svg.setAttribute('viewBox', '0 0 ' + width + ' ' + (depthMax + 1) * ROW);
    $('dfg-drawn').textContent = fmt(drawn);
    $('flame-title').textContent = 'Calling contexts by ' + data.flame.measure;
    $('flame-note').textContent = 'Width: ' + (widthBy === 'b' ? 'B' : 'the larger of A and B') +
      '. Colour: red grew, blue shrank (deeper for a larger change). Hover a frame for A, B ' +
      'and the change.';
    for (const b of $('widths').querySelectorAll('button')) {
      b.setAttribute('aria-pressed', String(b.dataset.width === widthBy));
    }
  }

  function showTip(ev) {
    const g = ev.target.closest('g.frame');
    const tip = $('dtooltip');
    if (!g) {
      tip.hidden = true;
      return;
    }
    const n = nodes[Number(g.dataset.node)];
    while (tip.firstChild) tip.removeChild(tip.firstChild);
    tip.appendChild(el('div', 'name', n.name));
    const t = tip.appendChild(el('table'));
    for (const [k, v] of [['A', num(n.a)], ['B', num(n.b)], ['delta', signed(n.b - n.a) + ' (' + pct(n.a, n.b) + ')']]) {
      const tr = t.appendChild(el('tr'));
      tr.appendChild(el('td', '', k));
      tr.appendChild(el('td', 'num', v));
    }
    tip.hidden = false;
    const wrap = $('dfg-wrap').getBoundingClientRect();
    tip.style.left = Math.min(ev.clientX - wrap.left + 12, wrap.width - tip.offsetWidth - 4) + 'px';
    tip.style.top = (ev.clientY - wrap.top + $('dfg-wrap').scrollTop + 14) + 'px';
  }

  // ---- the tables ---------------------------------------------------------------------------
  function writeTable(t) {
    const panel = $('tables').appendChild(el('section', 'panel'));
    const head = panel.appendChild(el('div', 'table-head'));
    head.appendChild(el('h2', '', t.title + ' by change of ' + t.rankedBy));
    const c = t.counts;
    head.appendChild(el('span', 'note', fmt(c.grew) + ' grew, ' + fmt(c.shrank) + ' shrank, ' +
      fmt(c.appeared) + ' appeared, ' + fmt(c.vanished) + ' vanished'));
    const table = panel.appendChild(el('div', 'scroll')).appendChild(el('table', 'data'));
    table.id = 'table-' + t.id;
    const rank = t.measures.indexOf(t.rankedBy);
    const others = t.measures.map((m, i) => i).filter((i) => i !== rank);
    const hr = table.appendChild(el('thead')).appendChild(el('tr'));
    const cols = ['change', t.keyName + (t.contexts ? ' (innermost frame first)' : ''), 'A ' + t.rankedBy,
      'B ' + t.rankedBy, '\u0394 ' + t.rankedBy, '%'].concat(others.map((i) => '\u0394 ' + t.measures[i]));
    cols.forEach((name, i) => hr.appendChild(el('th', i >= 2 ? 'num' : '', name)));
    const body = table.appendChild(el('tbody'));
    const rows = (limit) => {
      while (body.firstChild) body.removeChild(body.firstChild);
      for (const r of t.rows.slice(0, limit)) {
        const tr = body.appendChild(el('tr'));
        tr.appendChild(el('td', r.change, r.change));
        const key = t.contexts ? r.key.split(';').reverse().join(' < ') : r.key;
        tr.appendChild(el('td', 'code', key));
        tr.appendChild(el('td', 'num', num(r.a[rank])));
        tr.appendChild(el('td', 'num', num(r.b[rank])));
        tr.appendChild(el('td', 'num ' + r.change, signed(r.delta[rank])));
        tr.appendChild(el('td', 'num', pct(r.a[rank], r.b[rank])));
        for (const i of others) tr.appendChild(el('td', 'num', signed(r.delta[i])));
      }
    };
    rows(data.top);
    if (t.rows.length === 0) panel.appendChild(el('p', 'empty', 'No change.'));
    if (t.rows.length > data.top) {
      const more = panel.appendChild(el('button', 'button', 'Show all ' + fmt(t.rows.length)));
      more.type = 'button';
      more.addEventListener('click', () => { rows(t.rows.length); more.remove(); });
    }
  }

  writeHeader();
  data.tables.forEach(writeTable);
  drawFlame();
  $('widths').addEventListener('click', (ev) => {
    const b = ev.target.closest('button');
    if (!b) return;
    widthBy = b.dataset.width;
    const params = loadHash();
    params.set('width', widthBy);
    saveHash(params);
    drawFlame();
  });
  $('dflame').addEventListener('mousemove', showTip);
  $('dflame').addEventListener('mouseleave', () => { $('dtooltip').hidden = true; });
  document.body.dataset.ready = 'diff';
})();
