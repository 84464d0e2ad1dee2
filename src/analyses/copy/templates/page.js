// dragnet copy report: the page's script (src/analyses/copy/templates/page.js), after the
// shared helpers of report.js. Reads the embedded data (docs/REPORTS.md, "copy html"), whose
// numbers the report writer took from the same model as the text report; this script only
// formats and draws them: the settings, the hot copy chains as a graph (allocation sites,
// field nodes and C; edges with frequency and bytes; drawn in layers from producer to
// consumer), the tables of chains, clone pairs, NATH, copies per method and context, conflict
// ratios and cut flows. State is kept in the URL hash: #naming=insensitive&graph=3&chain=2.
'use strict';
(function () {
  const data = JSON.parse(document.getElementById('profile-data').textContent);
  const $ = (id) => document.getElementById(id);
  const { el, fmt, pct, count, card, kvTable, writeHeading, writeHiddenClasses, loadHash,
    saveHash } = dragnetReport;
  const SVG = 'http://www.w3.org/2000/svg';
  const NAMINGS = { sensitive: '1-object-sensitive', insensitive: 'context-insensitive' };
  const GRAPH_COUNTS = [1, 3, 5, 10, 20];
  const state = { naming: data.settings.slots === 1 ? 'insensitive' : 'sensitive',
    graph: data.graphChains, chain: 0, all: {} };
  const T = data.totals;

  const view = () => data.namings[state.naming];
  const nodeMap = (v) => new Map(v.nodes.map((n) => [n.id, n]));
  let NODES = nodeMap(view());
  const nameOf = (id) => (id === null ? 'no allocation' : NODES.get(id).name);

  // ---- header, totals, settings ----------------------------------------------------------

  function writeHeader() {
    writeHeading(data, 'Copy profile');
    writeHiddenClasses(data.hiddenClasses);
    const box = $('totals');
    card(box, 'copies', 'Copies', fmt(T.copies), 'heap-to-heap, ' + fmt(T.heapCopies) +
      ' in the graph');
    card(box, 'births', 'Objects', fmt(T.births), 'allocated while recording');
    card(box, 'edges', 'Edges', fmt(T.edges), 'recorded (src, dst) pairs');
    card(box, 'top-method', 'Top method', pct(share(1), 1, 2), 'of the copies');
    card(box, 'cuts', 'Cut flows', fmt(T.cuts), 'at callee entries');
  }

  const share = (k) => {
    const c = data.profiles.concentration;
    return c.length === 0 ? 0 : c[Math.min(k, c.length) - 1];
  };

  function writeSettings() {
    const s = data.settings;
    const naming = s.slots === 0 ? '1-object-sensitive with exact contexts (slots=0), and ' +
      'context-insensitive' : s.slots === 1 ? 'context-insensitive (slots=1)'
      : '1-object-sensitive with ' + s.slots + ' context slots, and context-insensitive';
    const rows = [['naming', naming],
      ['copies', fmt(T.copies) + ' heap-to-heap copies' + (T.lostCopies ? ' (' +
        fmt(T.lostCopies) + ' in contexts missing from the tree)' : '') + '; ' +
        fmt(T.births) + ' objects allocated; references of ' + s.refBytes + ' bytes']];
    for (const n of ['insensitive', 'sensitive']) {
      if (n === 'sensitive' && s.slots === 1) break;
      const v = data.namings[n];
      rows.push(['graph', NAMINGS[n] + ': ' + fmt(v.nodeCount) + ' nodes, ' +
        fmt(v.edgeCount) + ' edges, average fan-out ' + v.fanOut.average.toFixed(2)]);
    }
    if (T.droppedEdges || T.unknownEdges) {
      rows.push(['edges', fmt(T.droppedEdges) + ' recorded edges dropped (no copy-graph ' +
        'edge), ' + fmt(T.unknownEdges) + ' with an end in an unknown object']);
    }
    rows.push(['conflicts', data.conflictRatios.map(([k, r]) => 'CCR-' + k + ' ' +
      r.toFixed(3)).join(' ') + ' (average over ' + fmt(data.conflictSites) +
      ' allocation sites)']);
    rows.push(['cut flows', fmt(T.cuts) + ' at callee entries (an uninstrumented frame ' +
      'between caller and callee); ' + fmt(T.unknownTags) + ' accesses to objects without a tag']);
    rows.push(['chains', 'of at most ' + s.chainMax + ' copies; clone pairs within ' +
      s.cloneDepth + ' references']);
    kvTable($('settings'), rows);
    kvTable($('meta'), Object.keys(data.meta).sort().map((k) => [k, data.meta[k]]));
  }

  // ---- tables ---------------------------------------------------------------------------

  // A table of `rows` with `cols` ([title, value of a row, numeric?]); the first data.top
  // rows, "Show all" the rest; `click(row, index)` makes rows clickable.
  function table(id, cols, rows, click, selected) {
    const t = $(id);
    t.replaceChildren();
    const head = t.appendChild(el('thead')).appendChild(el('tr'));
    for (const [title, , num] of cols) head.appendChild(el('th', num ? 'num' : '', title));
    const body = t.appendChild(el('tbody'));
    if (rows.length === 0) {
      body.appendChild(el('tr')).appendChild(el('td', 'empty', 'none')).colSpan = cols.length;
    }
    const shown = state.all[id] ? rows : rows.slice(0, data.top);
    shown.forEach((r, i) => {
      const tr = body.appendChild(el('tr'));
      for (const [, get, num] of cols) tr.appendChild(el('td', num ? 'num' : 'code', get(r, i)));
      if (click) {
        tr.className = 'clickable' + (selected === i ? ' selected' : '');
        tr.addEventListener('click', () => click(r, i));
      }
    });
    if (rows.length > data.top) {
      const cap = t.insertBefore(el('caption', 'note', 'Showing ' + fmt(shown.length) + ' of ' +
        fmt(rows.length) + ' rows. '), t.firstChild);
      const b = cap.appendChild(el('button', 'button small', state.all[id] ? 'Show fewer'
        : 'Show all'));
      b.type = 'button';
      b.addEventListener('click', () => {
        state.all[id] = !state.all[id];
        render();
      });
    }
  }

  const chainText = (c) => c.nodes.map(nameOf).join(' \u2192 ');

  function writeChains() {
    const v = view();
    const ch = v.chains;
    $('chains-note').textContent = fmt(ch.total) + ' chains of at most ' +
      data.settings.chainMax + ' copies in the ' + NAMINGS[state.naming] + ' graph (mean ' +
      'length ' + ch.meanLength.toFixed(2) + ')' + (ch.cut ? '; ' + fmt(ch.cut) +
      ' extensions not followed (limit)' : '') + '. WF = length \u00d7 frequency \u00d7 bytes. ' +
      'Click a chain to follow it in the graph.';
    table('chains', [
      ['#', (c, i) => i + 1, true],
      ['WF', (c) => fmt(c.wf), true],
      ['Freq', (c) => fmt(c.freq), true],
      ['Bytes', (c) => c.bytes, true],
      ['Length', (c) => c.length, true],
      ['Chain', chainText],
      ['Produced by', (c) => nameOf(c.producer) + (c.producers > 1 ? ' (and ' +
        fmt(c.producers - 1) + ' more)' : '')],
      ['Consumed', (c) => (c.consumed ? fmt(c.consumed) + ' times' : 'never'), true],
    ], ch.top, (c, i) => {
      state.chain = state.chain === i + 1 ? 0 : i + 1;
      if (state.chain > state.graph) state.graph = GRAPH_COUNTS.find((k) => k >= state.chain) ||
        GRAPH_COUNTS[GRAPH_COUNTS.length - 1];
      render();
    }, state.chain - 1);
  }

  function writeClones() {
    const c = view().clones;
    $('clones-note').textContent = fmt(c.pairs) + ' pairs: bytes copied from the first\u2019s ' +
      'structure to the second\u2019s, within ' + data.settings.cloneDepth + ' references' +
      (c.cut ? '; ' + fmt(c.cut) + ' smallest flows left out (limit)' : '') +
      (c.truncated ? '; ' + fmt(c.truncated) + ' searches cut short' : '') + '.';
    table('clones', [
      ['Volume', (p) => fmt(p.volume), true],
      ['Direct', (p) => fmt(p.direct), true],
      ['From', (p) => nameOf(p.from)],
      ['To', (p) => nameOf(p.to)],
      ['Same type', (p) => (p.sameType ? 'yes' : 'no')],
    ], c.top);
  }

  function writeNath() {
    const v = view();
    $('nath-note').textContent = count(v.nathCount, 'allocation node', 'allocation nodes') +
      ' whose objects\u2019 references no field or element received.';
    table('nath', [
      ['Objects', (r) => fmt(r.births), true],
      ['Consumed', (r) => fmt(r.consumed), true],
      ['Allocation', (r) => nameOf(r.node)],
    ], v.nath);
  }

  function writeProfiles() {
    const p = data.profiles;
    $('concentration').textContent = p.concentration.length === 0 ? 'No copies.'
      : 'Concentration: the top method does ' + pct(share(1), 1, 2) + ' of the copies, the ' +
        'top 5 ' + pct(share(5), 1, 2) + ', the top 10 ' + pct(share(10), 1, 2) + '.';
    table('methods', [
      ['Self', (m) => fmt(m.self), true],
      ['%', (m) => pct(m.self, T.copies, 2), true],
      ['Cumulative', (m) => fmt(m.total), true],
      ['Method', (m) => m.method + (m.descriptor ? ' ' + m.descriptor : '')],
    ], p.methods);
    table('contexts', [
      ['Cumulative', (c) => fmt(c.total), true],
      ['Self', (c) => fmt(c.self), true],
      ['Context (innermost first)', (c) => c.frames.map((i) => data.strings[i]).join(' < ')],
    ], p.contexts);
  }

  function writeConflicts() {
    const f = view().fanOut;
    $('fanout').textContent = 'Fan-out in the ' + NAMINGS[state.naming] + ' graph: ' +
      f.average.toFixed(2) + ' edges per node on average, at most ' + fmt(f.max) +
      (f.maxNode !== null ? ' (' + nameOf(f.maxNode) + ')' : '') + '.';
    table('ccr', [
      ['Slots', (r) => r[0], true],
      ['CCR', (r) => r[1].toFixed(3), true],
    ], data.conflictRatios);
    $('cuts-note').textContent = count(data.cutCount, 'callee', 'callees') + ' whose ' +
      'caller\u2019s arguments did not reach them (an uninstrumented frame in between).';
    table('cuts', [
      ['Count', (r) => fmt(r[1]), true],
      ['Callee', (r) => r[0]],
    ], data.cuts);
  }

  // ---- the chain graph ------------------------------------------------------------------

  function svg(parent, tag, attrs, text) {
    const e = document.createElementNS(SVG, tag);
    for (const k of Object.keys(attrs)) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return parent.appendChild(e);
  }

  // The drawn chains' nodes and edges. Layers: producers 0, a chain's i-th node i + 1 (the
  // deepest place a node takes in any drawn chain), C after the last.
  function chainGraph(chains) {
    const nodes = new Map();
    const edges = new Map();
    const node = (id, layer) => {
      const n = nodes.get(id) || { id, layer: 0, order: nodes.size, chains: new Set() };
      n.layer = Math.max(n.layer, layer);
      nodes.set(id, n);
      return n;
    };
    const edge = (src, dst, fb, kind, chain) => {
      const key = src + '>' + dst;
      const e = edges.get(key) || { src, dst, freq: fb ? fb[0] : 0, bytes: fb ? fb[1] : 0, kind,
        chains: new Set() };
      e.chains.add(chain);
      edges.set(key, e);
    };
    chains.forEach((c, k) => {
      c.nodes.forEach((id, i) => node(id, i + 1).chains.add(k));
      c.nodes.forEach((id, i) => {
        if (i > 0) edge(c.nodes[i - 1], id, c.edges[i - 1], 'copy', k);
      });
      if (c.producer !== null) {
        node(c.producer, 0).chains.add(k);
        edge(c.producer, c.nodes[0], c.producerEdge, 'produce', k);
      }
    });
    let last = 0;
    for (const n of nodes.values()) last = Math.max(last, n.layer);
    chains.forEach((c, k) => {
      if (!c.consumed) return;
      node(0, last + 1).chains.add(k);
      edge(c.nodes[c.nodes.length - 1], 0, c.consumerEdge || [c.consumed, c.bytes], 'consume', k);
    });
    return { nodes, edges };
  }

  const BOX_W = 250;
  const BOX_H = 46;
  const COL = 340;
  const ROW = 78;
  const cut = (s, n) => (s.length > n ? s.slice(0, n - 1) + '\u2026' : s);

  // Two lines for a node box: what it is, then where (the full name is its tooltip).
  function labels(n) {
    if (n.kind === 'consumer') return ['C', 'consumer: computations, natives'];
    if (n.kind === 'static') return [n.name, 'static field'];
    const name = n.name;
    if (n.kind === 'alloc') {
      const sp = name.startsWith('<') ? -1 : name.indexOf(' ');
      return ['new ' + (sp < 0 ? name : name.slice(0, sp)), sp < 0 ? '' : name.slice(sp + 1)];
    }
    const dot = name.lastIndexOf('>.');
    const object = name.slice(1, dot);
    // "<unknown object>" and "<site #N>" are one word.
    const sp = object.startsWith('<') ? -1 : object.indexOf(' ');
    return [(sp < 0 ? object : object.slice(0, sp)) + '.' + name.slice(dot + 2),
      sp < 0 ? '' : object.slice(sp + 1)];
  }

  function drawGraph() {
    const wrap = $('graph-wrap');
    wrap.replaceChildren();
    const v = view();
    const chains = v.chains.top.slice(0, state.graph);
    if (chains.length === 0) {
      wrap.appendChild(el('p', 'empty', 'No copy chains in this graph.'));
      $('graph-readout').textContent = '';
      return;
    }
    const g = chainGraph(chains);
    const layers = [];
    for (const n of [...g.nodes.values()].sort((a, b) => a.order - b.order)) {
      (layers[n.layer] = layers[n.layer] || []).push(n);
    }
    let rows = 0;
    layers.forEach((l, i) => {
      if (!l) return;
      l.forEach((n, k) => { n.x = 20 + i * COL; n.y = 30 + k * ROW; });
      rows = Math.max(rows, l.length);
    });
    const width = 40 + (layers.length - 1) * COL + BOX_W;
    const height = 60 + rows * ROW;
    const root = svg(wrap, 'svg', { id: 'graph', width, height, viewBox: '0 0 ' + width + ' ' +
      height, role: 'img', 'aria-label': 'Hot copy chains', 'data-nodes': g.nodes.size,
      'data-edges': g.edges.size, 'data-chains': chains.length });
    const defs = svg(root, 'defs', {});
    const marker = svg(defs, 'marker', { id: 'arrow', viewBox: '0 0 10 10', refX: 10, refY: 5,
      markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' });
    svg(marker, 'path', { d: 'M0 0L10 5L0 10z' });
    const hot = state.chain ? state.chain - 1 : -1;
    for (const e of g.edges.values()) drawEdge(root, g, e, hot);
    for (const n of g.nodes.values()) drawNode(root, n, hot);
    const c = hot >= 0 ? chains[hot] : null;
    $('graph-readout').textContent = c ? 'Chain ' + state.chain + ': ' + chainText(c) +
      ' (WF ' + fmt(c.wf) + ')' : 'Click a chain below to follow it.';
  }

  function drawNode(root, n, hot) {
    const info = NODES.get(n.id);
    const role = n.layer === 0 ? ' producer' : '';
    const dim = hot >= 0 && !n.chains.has(hot) ? ' dim' : '';
    const g = svg(root, 'g', { class: 'gnode ' + info.kind + role + dim, id: 'gnode-' + n.id,
      'data-node': n.id, transform: 'translate(' + n.x + ' ' + n.y + ')' });
    svg(g, 'title', {}, info.name + (info.kind === 'alloc' ? '\n' + fmt(info.births) +
      ' objects' : ''));
    svg(g, 'rect', { width: BOX_W, height: BOX_H, rx: 6 });
    const [first, second] = labels(info);
    svg(g, 'text', { x: 8, y: 18, class: 'name' }, cut(first, 34));
    svg(g, 'text', { x: 8, y: 36, class: 'role' }, cut((info.kind === 'alloc' ? 'producer: '
      : info.kind === 'consumer' ? '' : '') + second, 46));
  }

  function drawEdge(root, g, e, hot) {
    const a = g.nodes.get(e.src);
    const b = g.nodes.get(e.dst);
    const dim = hot >= 0 && !e.chains.has(hot) ? ' dim' : hot >= 0 ? ' hot' : '';
    const grp = svg(root, 'g', { class: 'gedge ' + e.kind + dim, id: 'gedge-' + e.src + '-' +
      e.dst, 'data-freq': e.freq, 'data-bytes': e.bytes });
    let d;
    let lx;
    let ly;
    if (e.src === e.dst) {  // a self edge: a loop over the box
      const x = a.x + BOX_W / 2;
      d = 'M' + (x - 30) + ' ' + a.y + 'C' + (x - 40) + ' ' + (a.y - 34) + ' ' + (x + 40) + ' ' +
        (a.y - 34) + ' ' + (x + 30) + ' ' + a.y;
      lx = x + 44;
      ly = a.y - 14;
    } else if (b.layer > a.layer) {
      const x1 = a.x + BOX_W;
      const y1 = a.y + BOX_H / 2;
      const x2 = b.x;
      const y2 = b.y + BOX_H / 2;
      const mx = (x1 + x2) / 2;
      d = 'M' + x1 + ' ' + y1 + 'C' + mx + ' ' + y1 + ' ' + mx + ' ' + y2 + ' ' + x2 + ' ' + y2;
      lx = mx;
      ly = (y1 + y2) / 2 - 4;
    } else {  // backwards: under the boxes
      const x1 = a.x + BOX_W / 2;
      const y1 = a.y + BOX_H;
      const x2 = b.x + BOX_W / 2;
      const y2 = b.y + BOX_H;
      const low = Math.max(y1, y2) + 30;
      d = 'M' + x1 + ' ' + y1 + 'C' + x1 + ' ' + low + ' ' + x2 + ' ' + low + ' ' + x2 + ' ' + y2;
      lx = (x1 + x2) / 2;
      ly = low;
    }
    svg(grp, 'path', { d, 'marker-end': 'url(#arrow)' });
    svg(grp, 'text', { x: lx, y: ly, 'text-anchor': e.src === e.dst ? 'start' : 'middle' },
      fmt(e.freq) + '\u00d7 \u00b7 ' +
      e.bytes + ' B');
    svg(grp, 'title', {}, nameOf(e.src) + ' \u2192 ' + nameOf(e.dst) + ': ' + fmt(e.freq) +
      ' copies of ' + e.bytes + ' bytes');
  }

  function writeGraphFrame() {
    const sel = $('graph-count');
    for (const k of GRAPH_COUNTS) sel.appendChild(el('option', '', k)).value = k;
    sel.addEventListener('change', () => {
      state.graph = Number(sel.value);
      if (state.chain > state.graph) state.chain = 0;
      render();
    });
    const legend = $('graph-legend');
    for (const [k, t] of [['alloc', 'allocation (producer)'], ['field', 'field / element'],
      ['static', 'static field'], ['consumer', 'C (consumer)']]) {
      legend.appendChild(el('i', 'sw ' + k));
      legend.appendChild(document.createTextNode(t));
    }
  }

  // ---- naming, state --------------------------------------------------------------------

  function writeNamingButtons() {
    for (const n of ['sensitive', 'insensitive']) {
      const b = $('naming').appendChild(el('button', '', NAMINGS[n]));
      b.type = 'button';
      b.id = 'naming-' + n;
      b.disabled = n === 'sensitive' && data.settings.slots === 1;
      b.addEventListener('click', () => {
        state.naming = n;
        state.chain = 0;
        render();
      });
    }
  }

  function save() {
    const p = new URLSearchParams();
    if (state.naming !== (data.settings.slots === 1 ? 'insensitive' : 'sensitive')) {
      p.set('naming', state.naming);
    }
    if (state.graph !== data.graphChains) p.set('graph', state.graph);
    if (state.chain) p.set('chain', state.chain);
    saveHash(p);
  }

  function load() {
    const p = loadHash();
    if (p.get('naming') === 'insensitive' || (p.get('naming') === 'sensitive' &&
      data.settings.slots !== 1)) state.naming = p.get('naming');
    const g = Number(p.get('graph'));
    if (GRAPH_COUNTS.includes(g)) state.graph = g;
    const c = Number(p.get('chain'));
    if (Number.isInteger(c) && c >= 1 && c <= Math.min(state.graph, view().chains.top.length)) {
      state.chain = c;
    }
  }

  function render() {
    NODES = nodeMap(view());
    for (const b of $('naming').children) {
      b.setAttribute('aria-pressed', b.id === 'naming-' + state.naming);
    }
    $('graph-count').value = state.graph;
    $('graph-title').textContent = 'The top ' + Math.min(state.graph, view().chains.top.length) +
      ' hot copy chains, ' + NAMINGS[state.naming];
    $('graph-note').textContent = 'Producers (allocation sites) on the left, then each ' +
      'chain\u2019s heap locations in order, then C where a chain\u2019s last value was ' +
      'consumed. Edges: copies \u00d7 bytes per copy. Hover a node or edge for its full name.';
    drawGraph();
    writeChains();
    writeClones();
    writeNath();
    writeConflicts();
    save();
  }

  load();
  writeHeader();
  writeSettings();
  writeProfiles();
  writeGraphFrame();
  writeNamingButtons();
  render();
  document.body.dataset.ready = 'copy';
})();
