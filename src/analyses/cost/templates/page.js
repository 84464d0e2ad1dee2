// dragnet cost report: the page's script (src/analyses/cost/templates/page.js), after the
// shared helpers of report.js. Reads the embedded data (docs/REPORTS.md, "cost html"), whose
// numbers the report writer took from the same model as the text report; this script only
// formats, filters and expands them: the settings and measures, the data structures ranked
// by cost-benefit rate (a row opens to the fields behind the structure and the code that
// writes and reads them), the allocation sites, and the heap locations by RAC and by RAB.
// State is kept in the URL hash: #filter=ArrayList&open=1,3.
'use strict';
(function () {
  const data = JSON.parse(document.getElementById('profile-data').textContent);
  const $ = (id) => document.getElementById(id);
  const { el, pct, count, card, kvTable, writeHeading, writeHiddenClasses, loadHash,
    saveHash } = dragnetReport;
  const fmt = dragnetReport.fmt;
  const S = data.settings;
  const T = data.totals;
  const B = data.bloat;
  const state = { filter: '', open: new Set(), all: {} };

  // A cost or benefit: grouped, two decimals.
  const real = (v) => {
    const s = v.toFixed(2);
    const dot = s.indexOf('.');
    return fmt(Number(s.slice(0, dot))) + s.slice(dot);
  };
  const yesNo = (b) => (b ? 'yes' : 'no');
  const matches = (...names) => state.filter === '' ||
    names.some((n) => n.toLowerCase().includes(state.filter.toLowerCase()));

  // ---- header, totals, settings ----------------------------------------------------------

  function writeHeader() {
    writeHeading(data, 'Cost-benefit profile');
    writeHiddenClasses(data.hiddenClasses);
    const box = $('totals');
    card(box, 'instances', 'Instances', fmt(data.graph.instances), 'of ' +
      fmt(data.graph.nodesRan) + ' program nodes that ran');
    card(box, 'ipd', 'IPD', pct(B.ipd, 1, 2), 'instructions producing dead values');
    card(box, 'ipp', 'IPP', pct(B.ipp, 1, 2), 'producing predicate-only values');
    card(box, 'nld', 'NLD', pct(B.nld, 1, 2), 'dead instances');
    card(box, 'top-rate', 'Top rate', data.structures.length ? real(data.structures[0].rate)
      : '-', 'cost-benefit rate of the top structure');
  }

  function writeSettings() {
    kvTable($('settings'), [
      ['graph', S.slots + ' context slots (s); array shadows per ' + S.arrayShadow + '; ' +
        fmt(data.graph.instances) + ' instances of ' + fmt(data.graph.nodesRan) +
        ' program nodes that ran, ' + fmt(data.graph.edges) + ' dependence edges'],
      ['benefit', 'consumer rule ' + (S.consumerRule ? 'on: a location whose value reaches a ' +
        'predicate or native has RAB \u2265 ' + fmt(S.consumerRab) : 'off') +
        ' (consumer-rab); structures of height ' + S.height + ' (height)'],
      ['bloat', 'I = ' + fmt(B.instructions) + ' instructions; IPD ' + pct(B.ipd, 1, 2) +
        ' (dead values), IPP ' + pct(B.ipp, 1, 2) + ' (predicate-only), NLD ' +
        pct(B.nld, 1, 2) + ' (dead instances); CR ' + data.conflictRatio.toFixed(3)],
      ['recording', fmt(T.cuts) + ' flows cut at a method\u2019s entry; ' + fmt(T.unknownTags) +
        ' accesses to objects without a name; record tables ' + fmt(T.tableBytes) +
        ' B, heap shadows ' + fmt(T.shadowBytes) + ' B; ' + fmt(T.dropped) + ' records dropped' +
        (T.droppedInstances ? '; ' + fmt(T.droppedInstances) + ' naming no program node' : '')],
    ]);
    kvTable($('meta'), Object.keys(data.meta).sort().map((k) => [k, data.meta[k]]));
  }

  // ---- tables ---------------------------------------------------------------------------

  function head(t, cols) {
    const tr = t.appendChild(el('thead')).appendChild(el('tr'));
    for (const [title, , num] of cols) tr.appendChild(el('th', num ? 'num' : '', title));
  }

  function cells(tr, cols, r, i) {
    for (const [, get, num] of cols) tr.appendChild(el('td', num ? 'num' : 'code', get(r, i)));
  }

  // The first data.top of `rows` (all after "Show all"), with a caption when some are left out.
  function shownRows(t, id, rows, total) {
    const shown = state.all[id] ? rows : rows.slice(0, data.top);
    if (rows.length > shown.length || total > rows.length) {
      const cap = t.insertBefore(el('caption', 'note', 'Showing ' + fmt(shown.length) + ' of ' +
        fmt(state.filter ? rows.length : total) + ' rows. '), t.firstChild);
      if (rows.length > data.top) {
        const b = cap.appendChild(el('button', 'button small', state.all[id] ? 'Show fewer'
          : 'Show all'));
        b.type = 'button';
        b.addEventListener('click', () => {
          state.all[id] = !state.all[id];
          render();
        });
      }
    }
    return shown;
  }

  function table(id, cols, rows, total) {
    const t = $(id);
    t.replaceChildren();
    head(t, cols);
    const body = t.appendChild(el('tbody'));
    const shown = shownRows(t, id, rows, total);
    if (shown.length === 0) {
      body.appendChild(el('tr')).appendChild(el('td', 'empty', 'none')).colSpan = cols.length;
    }
    shown.forEach((r, i) => cells(body.appendChild(el('tr')), cols, r, i));
  }

  const codeCols = [
    ['Freq', (c) => fmt(c.freq), true],
    ['Instances', (c) => fmt(c.instances), true],
    ['Code', (c) => c.code],
    ['Instruction', (c) => c.what + ' (node ' + c.node + ')'],
  ];
  const fieldCols = [
    ['Field', (l) => l.name],
    ['RAC', (l) => real(l.rac), true],
    ['RAB', (l) => real(l.rab), true],
    ['Consumed', (l) => yesNo(l.consumed)],
  ];

  function subTable(box, title, cols, rows) {
    box.appendChild(el('h3', '', title));
    const t = box.appendChild(el('table', 'data'));
    head(t, cols);
    const body = t.appendChild(el('tbody'));
    if (rows.length === 0) {
      body.appendChild(el('tr')).appendChild(el('td', 'empty', 'none')).colSpan = cols.length;
    }
    rows.forEach((r, i) => cells(body.appendChild(el('tr')), cols, r, i));
    return t;
  }

  // A structure's row opens to the fields behind it and the code that writes and reads them.
  function detail(s, span) {
    const tr = el('tr', 'detail');
    tr.id = 'detail-' + s.rank;
    const td = tr.appendChild(el('td'));
    td.colSpan = span;
    if (s.objects.length > 1) {
      td.appendChild(el('p', 'note', 'Its objects within height ' + S.height + ': ' +
        s.objects.map((o) => o.name).join(', ') + '.'));
    }
    subTable(td, 'Fields', fieldCols, s.fields).id = 'fields-' + s.rank;
    subTable(td, 'Written by', codeCols, s.writers).id = 'writers-' + s.rank;
    subTable(td, 'Read by', codeCols, s.readers).id = 'readers-' + s.rank;
    return tr;
  }

  function writeStructures() {
    $('structures-note').textContent = count(data.structureCount, 'object name',
      'object names') + ' (allocation site @ context slot) with what they reference within ' +
      'height ' + S.height + '. Rate = (n-RAC + 1) / (n-RAB + 1): high when the structure ' +
      'costs much to build and its values are little used. Click a row for its fields and ' +
      'code.';
    const cols = [
      ['#', (s) => s.rank, true],
      ['Rate', (s) => real(s.rate), true],
      ['n-RAC', (s) => real(s.nRac), true],
      ['n-RAB', (s) => real(s.nRab), true],
      ['Births', (s) => fmt(s.births), true],
      ['Consumed', (s) => yesNo(s.consumed)],
      ['Object', (s) => s.object.name],
    ];
    const rows = data.structures.filter((s) => matches(s.object.name,
      ...s.objects.map((o) => o.name), ...s.fields.map((f) => f.field)));
    const t = $('structures');
    t.replaceChildren();
    head(t, cols);
    const body = t.appendChild(el('tbody'));
    const shown = shownRows(t, 'structures', rows, data.structureCount);
    if (shown.length === 0) {
      body.appendChild(el('tr')).appendChild(el('td', 'empty', 'none')).colSpan = cols.length;
    }
    for (const s of shown) {
      const tr = body.appendChild(el('tr', 'clickable' + (state.open.has(s.rank) ? ' open' : '')));
      tr.id = 'structure-' + s.rank;
      tr.setAttribute('aria-expanded', state.open.has(s.rank));
      cells(tr, cols, s);
      tr.addEventListener('click', () => {
        if (state.open.has(s.rank)) {
          state.open.delete(s.rank);
        } else {
          state.open.add(s.rank);
        }
        render();
      });
      if (state.open.has(s.rank)) body.appendChild(detail(s, cols.length));
    }
  }

  function writeSites() {
    $('sites-note').textContent = count(data.siteCount, 'allocation site', 'allocation sites') +
      '; a site sums n-RAC and n-RAB over its objects (one per context slot).';
    table('sites', [
      ['#', (s) => s.rank, true],
      ['Rate', (s) => real(s.rate), true],
      ['n-RAC', (s) => real(s.nRac), true],
      ['n-RAB', (s) => real(s.nRab), true],
      ['Births', (s) => fmt(s.births), true],
      ['Consumed', (s) => yesNo(s.consumed)],
      ['Site', (s) => s.name],
    ], data.sites.filter((s) => matches(s.name)), data.siteCount);
  }

  function writeLocations() {
    const cols = [
      ['RAC', (l) => real(l.rac), true],
      ['RAB', (l) => real(l.rab), true],
      ['Consumed', (l) => yesNo(l.consumed)],
      ['Writers', (l) => l.writers.map((c) => c.code).join(', ')],
      ['Readers', (l) => l.readers.map((c) => c.code).join(', ')],
      ['Location', (l) => l.name],
    ];
    const L = (ids) => ids.map((id) => data.locations[id]).filter((l) => matches(l.name));
    $('by-rac-note').textContent = 'RAC: the mean cost of computing the values its writers ' +
      'store, counted back to the heap reads they start from.';
    $('by-rab-note').textContent = 'RAB: the mean use of the values its readers load, ' +
      'counted forward to the heap writes they end in' + (S.consumerRule ? '; a location ' +
      'whose value reaches a predicate or native counts ' + fmt(S.consumerRab) : '') + '.';
    table('by-rac', cols, L(data.byRac), data.locationCount);
    table('by-rab', cols, L(data.byRab), data.locationCount);
  }

  // ---- state ----------------------------------------------------------------------------

  function save() {
    const p = new URLSearchParams();
    if (state.filter) p.set('filter', state.filter);
    if (state.open.size) p.set('open', [...state.open].sort((a, b) => a - b).join(','));
    saveHash(p);
  }

  function load() {
    const p = loadHash();
    state.filter = p.get('filter') || '';
    for (const x of (p.get('open') || '').split(',')) {
      const rank = Number(x);
      if (x && Number.isInteger(rank) && rank >= 1 && rank <= data.structures.length) {
        state.open.add(rank);
      }
    }
  }

  function render() {
    writeStructures();
    writeSites();
    writeLocations();
    save();
  }

  load();
  writeHeader();
  writeSettings();
  const filter = $('filter');
  filter.defaultValue = state.filter;  // the value attribute: the view's state, as the hash gives it
  filter.addEventListener('input', () => {
    state.filter = filter.value.trim();
    render();
  });
  render();
  document.body.dataset.ready = 'cost';
})();
