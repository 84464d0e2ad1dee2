// dragnet reports: the script helpers every HTML page shares (src/report/templates/report.js).
// The writer puts it before the page's own script (an analysis's templates/page.js), which
// takes them from `dragnetReport`. Profile strings reach the page only as text
// (textContent), never as markup.
'use strict';
const dragnetReport = (function () {
  function el(tag, className, text) {
    const e = document.createElement(tag);
    if (className) e.className = className;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  // 1234567 -> "1,234,567", independent of the browser's locale. From 1e21 on String()
  // would write an exponent (spaces in byte x bytes-allocated get there); BigInt writes every digit.
  function fmt(v) {
    const r = Math.round(v);
    const digits = Math.abs(r) < 1e21 ? String(r) : BigInt(r).toString();
    return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  }

  function pct(part, whole, digits) {
    return (whole > 0 ? (100 * part) / whole : 0).toFixed(digits === undefined ? 1 : digits) + '%';
  }

  // "1 class", "2 classes".
  function count(v, one, many) {
    return fmt(v) + ' ' + (v === 1 ? one : many);
  }

  // A card of the totals row: label, value (its element gets the id 'total-' + id), note.
  function card(box, id, label, value, sub) {
    const c = box.appendChild(el('div', 'card'));
    c.appendChild(el('div', 'label', label));
    c.appendChild(el('div', 'value', value)).id = 'total-' + id;
    c.appendChild(el('div', 'sub', sub));
    return c;
  }

  // The run the profile records (data.run: command line, main class, JVM, host, start and
  // duration, dragnet's version), one term each, those the profile has.
  function writeRun(run, complete) {
    if (!run) return;
    const jvm = [run.jvm.name, run.jvm.version].filter(Boolean).join(' ') +
      (run.jvm.vendor ? ' (' + run.jvm.vendor + ')' : '') +
      (run.javaVersion ? ', Java ' + run.javaVersion : '');
    const ran = run.durationMs === null ? '' : ', ran ' + (run.durationMs / 1000).toFixed(3) +
      ' s' + (complete ? '' : ' up to its last flush');
    const rows = [['command', run.commandLine || run.command], ['main', run.mainClass],
      ['jvm', jvm.replace(/^, /, '')], ['host', run.host],
      ['started', (run.start || '') + ran], ['dragnet', run.dragnetVersion]];
    const dl = document.getElementById('run');
    for (const [k, v] of rows) {
      if (!v) continue;
      dl.appendChild(el('dt', '', k));
      dl.appendChild(el('dd', '', v)).id = 'run-' + k;
    }
  }

  // The page's title ("Allocation profile of pid 4711"), the complete/incomplete badge, the
  // run (writeRun) and the warnings for a corrupt or incomplete profile, from the data's pid,
  // run, corrupt, complete and truncation.
  function writeHeading(data, what) {
    const title = what + (data.pid ? ' of pid ' + data.pid : '');
    document.getElementById('title').textContent = title;
    document.title = 'dragnet: ' + title;
    const badges = document.getElementById('badges');
    badges.appendChild(el('span', 'badge', data.complete ? 'complete' : 'incomplete'));
    writeRun(data.run, data.complete);
    if (data.corrupt) {
      badges.appendChild(el('span', 'badge', 'corrupt'));
      document.getElementById('warnings').appendChild(el('p', 'warning', 'Corrupt profile: ' +
        data.corrupt + '. The numbers cover the parts that could be read.'));
    }
    if (!data.complete) {
      const why = data.truncation ? ' (' + data.truncation + ')' : '';
      document.getElementById('warnings').appendChild(el('p', 'warning', 'Incomplete ' +
        'profile: the JVM did not finish writing it' + why + '. The numbers cover what was ' +
        'written before.'));
    }
  }

  // The hidden classes the agent could not instrument (data.hiddenClasses: count, note,
  // groups of [name, count]), as a warning after the others; nothing if there are none.
  function writeHiddenClasses(hidden) {
    if (!hidden || hidden.count === 0) return;
    const names = hidden.groups.slice(0, 10).map(([name, n]) => name + ' \u00d7' + fmt(n));
    const p = document.getElementById('warnings').appendChild(el('p', 'warning',
      count(hidden.count, 'hidden class', 'hidden classes') + ' not instrumented: ' +
      hidden.note + '. ' + names.join(', ') + (hidden.groups.length > 10 ? ', \u2026' : '') +
      '.'));
    p.id = 'hidden-classes';
  }

  // The view's state lives in the URL hash (key=value&...), so a view can be bookmarked.
  function loadHash() {
    return new URLSearchParams(location.hash.replace(/^#/, ''));
  }

  function saveHash(params) {
    const hash = params.toString();
    if (hash === location.hash.replace(/^#/, '')) return;
    try {
      history.replaceState(null, '', hash ? '#' + hash : location.pathname + location.search);
    } catch (e) {
      // Some file:// contexts refuse; the view still works.
    }
  }

  // A two-column table of [key, value] rows (the settings, the meta data) into table `t`.
  function kvTable(t, rows) {
    const body = t.appendChild(el('tbody'));
    for (const [k, v] of rows) {
      const tr = body.appendChild(el('tr'));
      tr.appendChild(el('td', '', k));
      tr.appendChild(el('td', '', v));
    }
  }

  return { el, fmt, pct, count, card, kvTable, writeHeading, writeHiddenClasses, loadHash, saveHash };
})();
