// dragnet reports: the stack filters and the first application frame in the page
// (src/report/templates/stack_filter.js, after report.js), as `dragnet report --include,
// --exclude, --focus, --app-exclude` apply them (src/report/stack_filter.h): a frame is
// "pkg.Class.method", '*' matches any characters.
'use strict';
const dragnetStacks = (function () {
  // "app.*, *.toString lib.Util.make" -> ["app.*", "*.toString", "lib.Util.make"].
  function patterns(text) {
    return (text || '').split(/[\s,]+/).filter((p) => p.length > 0);
  }

  // A test for any of `list` (glob patterns, matched against the whole name).
  function matcher(list) {
    if (list.length === 0) return null;
    const res = list.map((p) => new RegExp('^' + p.split('*').map((part) =>
      part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*') + '$'));
    return (name) => res.some((re) => re.test(name));
  }

  const JDK = ['java.', 'javax.', 'jdk.', 'sun.', 'com.sun.'];
  // Whether the method "pkg.Class.method" is the application's: its class is neither the
  // JDK's (the agent's helpers are java.lang.Dragnet*) nor under one of `prefixes`.
  function isApp(methodName, prefixes) {
    const cls = methodName.slice(0, Math.max(0, methodName.lastIndexOf('.')));
    return !JDK.some((p) => cls.startsWith(p)) && !prefixes.some((p) => cls.startsWith(p));
  }

  // Filters a tree of `n` nodes whose parents precede them (parent[0] = -1; isMethod(i),
  // name(i): "pkg.Class.method"). Returns per node whether its own values are kept, whether
  // it is shown (kept, or on the way to a kept node), and its parent in the view (a focus
  // frame's is the root: its callers are cut off). null when the filter is empty.
  function filter(n, parent, isMethod, name, f) {
    const inc = matcher(f.include), exc = matcher(f.exclude), foc = matcher(f.focus);
    if (!inc && !exc && !foc) return null;
    const included = new Uint8Array(n), excluded = new Uint8Array(n);
    const focusAt = new Int32Array(n).fill(-1);
    const kept = new Uint8Array(n), shown = new Uint8Array(n);
    const viewParent = new Int32Array(n);
    viewParent[0] = -1;
    for (let i = 1; i < n; i++) {
      const p = parent[i];
      const method = isMethod(i);
      const s = method ? name(i) : '';
      included[i] = included[p] || (method && inc !== null && inc(s)) ? 1 : 0;
      excluded[i] = excluded[p] || (method && exc !== null && exc(s)) ? 1 : 0;
      focusAt[i] = focusAt[p] >= 0 ? focusAt[p] : (method && foc !== null && foc(s) ? i : -1);
      viewParent[i] = focusAt[i] === i ? 0 : p;
      kept[i] = (!inc || included[i]) && !excluded[i] && (!foc || focusAt[i] >= 0) ? 1 : 0;
    }
    shown[0] = 1;
    for (let i = n - 1; i > 0; i--) {
      if (kept[i]) shown[i] = 1;
      if (shown[i]) shown[viewParent[i]] = 1;
    }
    return { kept, shown, viewParent };
  }

  return { patterns, matcher, isApp, filter };
})();
