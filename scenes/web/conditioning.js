/* conditioning: least squares with two features of standard deviations 1 and s and correlation ρ.
 *
 * The Hessian of ‖Xw − y‖²/(2m) is H = S·R·S (S = diag(1, s), R the correlation matrix): exactly what
 * normgeo.scaled_features builds its data to have. Standardizing the features turns H into R.
 * κ, 2/L, the gradient-descent paths (30 steps at 0.9·2/L from u₀ = (−2.6, 0.5)) and the step counts to
 * tolerance 1e-6 mirror normgeo.condition_number, largest_stable_step, gradient_descent_path and
 * steps_to_tolerance, with the 2×2 eigenvalue formulas LAPACK uses (so κ ≈ 10⁸ keeps its digits).
 *
 * Contract:
 *   root      data-widget="conditioning", data-scale (s), data-rho (ρ)
 *   controls  [data-control="scale"] (range: log₁₀ s from 0 to 4), [data-control="rho"] (range)
 *   outputs   [data-out="kappa-raw|kappa-standardized|step-limit-raw|step-limit-standardized|step-raw|
 *             step-standardized|steps-raw|steps-standardized"] with data-value (steps: "Infinity" never
 *             happens below 2/L, so always finite)
 *   paths     [data-path="raw|standardized"] with data-start (JSON [w₁, w₂]) and data-points (JSON list of
 *             [w₁, w₂], full precision, in each problem's own coordinates; the raw path is drawn as u = S·w)
 */
(function () {
  'use strict';
  var NG = window.NormGeo;
  var W = 460, Hh = 300, R = 3.4;     // view: u₁ ∈ [−R, R], u₂ proportionally
  var K = W / (2 * R);
  var START = [-2.6, 0.5], FRACTION = 0.9, N_STEPS = 30, TOL = 1e-6;
  function px(u) { return W / 2 + u * K; }
  function py(v) { return Hh / 2 - v * K; }

  /** numpy.linalg.eigh of [[a, b], [b, c]] (LAPACK dsteqr → dlaev2): ascending values, their unit vectors. */
  function eigh2(a, b, c) {
    var eps = Math.pow(2, -53);
    var values, vectors;
    if (Math.abs(b) <= Math.sqrt(Math.abs(a)) * Math.sqrt(Math.abs(c)) * eps ||
        b * b <= eps * eps * Math.abs(a) * Math.abs(c) + 2.2250738585072014e-308) {
      values = [a, c]; vectors = [[1, 0], [0, 1]];
    } else {
      var r = NG.dlaev2(a, b, c);
      values = [r.rt1, r.rt2];
      vectors = [[r.cs1, r.sn1], [-r.sn1, r.cs1]];
    }
    if (values[1] < values[0]) { values.reverse(); vectors.reverse(); }
    return { values: values, vectors: vectors };
  }

  function stepsToTolerance(h, w0, step, tol) {
    var e = eigh2(h[0], h[1], h[2]);
    var error = e.vectors.map(function (v) { return v[0] * w0[0] + v[1] * w0[1]; });
    var initial = Math.sqrt(error[0] * error[0] + error[1] * error[1]);
    if (initial === 0) return 0;
    var share = tol * initial / Math.sqrt(2);
    var steps = 0;
    for (var i = 0; i < 2; i++) {
      var component = Math.abs(error[i]);
      if (component <= share) continue;
      var factor = Math.abs(1.0 - step * e.values[i]);
      if (factor >= 1.0) return Infinity;
      if (factor === 0) { steps = Math.max(steps, 1); continue; }
      steps = Math.max(steps, Math.ceil(Math.log(share / component) / Math.log(factor)));
    }
    return steps;
  }

  function path(h, w0, step, n) {
    var w = w0.slice(), out = [w.slice()];
    for (var k = 0; k < n; k++) {
      var g = [h[0] * w[0] + h[1] * w[1], h[1] * w[0] + h[2] * w[1]];
      w = [w[0] - step * g[0], w[1] - step * g[1]];
      out.push(w.slice());
    }
    return out;
  }

  function problem(h, w0) {
    var ev = NG.eigvalsh2(h[0], h[1], h[2]);
    var limit = 2.0 / ev[1];
    var step = FRACTION * limit;
    return { kappa: ev[1] / ev[0], limit: limit, step: step, path: path(h, w0, step, N_STEPS), steps: stepsToTolerance(h, w0, step, TOL), start: w0 };
  }

  NG.widgets.conditioning = function (root, options) {
    var lang = options.lang;
    var t = function (key, vars) { return NG.t(lang, key, vars); };
    root.classList.add('ng-widget', 'ng-conditioning');
    root.setAttribute('role', 'group');
    root.setAttribute('aria-label', t('cond.label'));
    root.innerHTML = '';

    function range(name, min, max, step, value, label) {
      var input = NG.el('input', { type: 'range', min: min, max: max, step: step, value: value, 'data-control': name });
      var out = NG.el('output', { class: 'ng-value', 'data-out': name + '-shown' });
      input.addEventListener('input', function () { redraw(); });
      var field = NG.field(label, input);
      field.appendChild(out);
      return field;
    }
    var controls = NG.el('div', { class: 'ng-controls' }, [
      range('scale', 0, 4, 0.05, 4, t('cond.scale')),
      range('rho', -0.9, 0.99, 0.01, 0.9, t('cond.rho')),
    ]);
    var svg = NG.svg('svg', { viewBox: '0 0 ' + W + ' ' + Hh, width: W, height: Hh, role: 'img', 'aria-label': t('cond.figure') });
    var figure = NG.el('div', { class: 'ng-figure' }, []);
    figure.appendChild(svg);
    var axes = NG.svg('g', { stroke: 'var(--line)' }, svg);
    NG.svg('line', { x1: 0, y1: py(0), x2: W, y2: py(0) }, axes);
    NG.svg('line', { x1: px(0), y1: 0, x2: px(0), y2: Hh }, axes);
    var contours = NG.svg('g', { fill: 'none', stroke: 'var(--muted)', 'stroke-opacity': 0.55 }, svg);
    var lines = {};
    [['raw', 'var(--ln)'], ['standardized', 'var(--rms)']].forEach(function (pair) {
      lines[pair[0]] = NG.svg('polyline', { 'data-path': pair[0], fill: 'none', stroke: pair[1], 'stroke-width': 2, 'stroke-linejoin': 'round' }, svg);
    });
    NG.svg('circle', { cx: px(START[0]), cy: py(START[1]), r: 4, fill: 'var(--fg)' }, svg);
    NG.svg('circle', { cx: px(0), cy: py(0), r: 3, fill: 'var(--fg)' }, svg);
    NG.svg('text', { x: px(0) + 6, y: py(0) - 6, text: 'w*' }, svg);
    NG.svg('text', { x: 8, y: Hh - 8, text: t('cond.coords') }, svg);

    var table = NG.el('table', { class: 'ng-cond-table' });
    var head = NG.el('tr', {}, [NG.el('td'), NG.el('th', { scope: 'col', text: t('cond.raw') }), NG.el('th', { scope: 'col', text: t('cond.standardized') })]);
    table.appendChild(NG.el('thead', {}, [head]));
    var body = NG.el('tbody');
    [['kappa', 'κ'], ['step-limit', t('cond.step-limit')], ['step', t('cond.step')], ['steps', t('cond.steps')]].forEach(function (row) {
      body.appendChild(NG.el('tr', {}, [
        NG.el('th', { scope: 'row', text: row[1] }),
        NG.el('td', { 'data-out': row[0] + '-raw' }),
        NG.el('td', { 'data-out': row[0] + '-standardized' }),
      ]));
    });
    table.appendChild(body);
    var legend = NG.el('p', { class: 'ng-legend' });
    [['ln', t('cond.legend.raw')], ['rms', t('cond.legend.standardized')]].forEach(function (item) {
      var swatch = NG.el('span', { class: 'ng-swatch', 'aria-hidden': 'true' });
      swatch.style.background = 'var(--' + item[0] + ')';
      legend.appendChild(NG.el('span', { class: 'ng-legend-item' }, [swatch, item[1]]));
    });
    var note = NG.el('p', { class: 'ng-note', 'data-out': 'note' });
    root.appendChild(controls);
    root.appendChild(NG.el('div', { class: 'ng-side' }, [figure, NG.el('div', { class: 'ng-side-text' }, [table, legend, note])]));

    function out(name, value, digits) {
      var node = root.querySelector('[data-out="' + name + '"]');
      node.setAttribute('data-value', NG.exact(value));
      node.textContent = digits === 'int' ? formatCount(value) : (Math.abs(value) >= 1e4 || Math.abs(value) < 1e-3 ? NG.sci(value, 3) : NG.fmt(value, digits));
    }
    function formatCount(n) {
      if (!isFinite(n)) return '∞';
      if (n >= 1e6) return NG.sci(n, 2);
      try { return new Intl.NumberFormat(lang).format(n); } catch (e) { return String(n); }
    }

    var redraw = NG.timed('conditioning', function () {
      var exponent = parseFloat(root.querySelector('[data-control="scale"]').value);
      var rho = parseFloat(root.querySelector('[data-control="rho"]').value);
      var s = Math.pow(10, exponent);
      root.setAttribute('data-scale', NG.exact(s));
      root.setAttribute('data-rho', NG.exact(rho));
      root.querySelector('[data-out="scale-shown"]').textContent = exponent === 0 ? '1' : NG.sci(s, 2);
      root.querySelector('[data-out="rho-shown"]').textContent = NG.fmt(rho, 2);
      var raw = problem([1, rho * s, s * s], [START[0], START[1] / s]);
      var std = problem([1, rho, 1], START.slice());
      [['raw', raw], ['standardized', std]].forEach(function (pair) {
        var p = pair[1], name = pair[0];
        out('kappa-' + name, p.kappa, 2);
        out('step-limit-' + name, p.limit, 3);
        out('step-' + name, p.step, 3);
        out('steps-' + name, p.steps, 'int');
        var line = lines[name];
        line.setAttribute('data-start', JSON.stringify(p.start));
        line.setAttribute('data-points', JSON.stringify(p.path));
        var scaleU2 = name === 'raw' ? s : 1;
        line.setAttribute('points', p.path.map(function (w) {
          var u = [w[0], w[1] * scaleU2];
          return px(Math.max(-2 * R, Math.min(2 * R, u[0]))).toFixed(2) + ',' + py(Math.max(-2 * R, Math.min(2 * R, u[1]))).toFixed(2);
        }).join(' '));
      });
      // level sets of ½uᵀRu through u₀ (normgeo.contour_levels, ratio 0.3): the same ellipses for both
      contours.innerHTML = '';
      var top = 0.5 * (START[0] * START[0] + 2 * rho * START[0] * START[1] + START[1] * START[1]);
      for (var k = 0; k < 5; k++) {
        var level = top * Math.pow(0.3, k);
        var a = Math.sqrt(2 * level / (1 + rho)), b = Math.sqrt(2 * level / (1 - rho));
        NG.svg('ellipse', { cx: px(0), cy: py(0), rx: a * K, ry: b * K, transform: 'rotate(45 ' + px(0) + ' ' + py(0) + ')' }, contours);
      }
      note.textContent = t('cond.note', { kappa: NG.fmt(std.kappa, 2), rho: NG.fmt(rho, 2) });
    });

    redraw();
    return { redraw: redraw };
  };
})();
