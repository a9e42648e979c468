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
 *   contours  path[data-level] (c): the level set ½uᵀRu = c, drawn in u
 *   geometry  the svg's data-pixels-per-unit (K) and data-origin ("x,y" in pixels): u ↦ (x₀ + K·u₁, y₀ − K·u₂)
 */
(function () {
  'use strict';
  var NG = window.NormGeo;
  var W = 460, Hh = 300, R = 3.4;     // view: u₁ ∈ [−R, R], u₂ proportionally
  var K = W / (2 * R);
  var START = [-2.6, 0.5], FRACTION = 0.9, N_STEPS = 30, TOL = 1e-6;
  function px(u) { return W / 2 + u * K; }
  function py(v) { return Hh / 2 - v * K; }

  /** normgeo.gradient_descent_run at FRACTION·2/L: κ, 2/L, the step, the path and the exact step count. */
  function problem(h, w0) {
    var limit = NG.math.largest_stable_step(h);
    var step = FRACTION * limit;
    return { kappa: NG.math.condition_number(h), limit: limit, step: step, start: w0,
             path: NG.math.gradient_descent_path(h, w0, step, N_STEPS), steps: NG.math.steps_to_tolerance(h, w0, step, TOL) };
  }

  NG.widgets.conditioning = function (root, options) {
    var lang = options.lang;
    var t = function (key, vars) { return NG.t(lang, key, vars); };
    root.classList.add('ng-widget', 'ng-conditioning');
    root.setAttribute('role', 'group');
    root.setAttribute('aria-label', t('cond.label'));
    root.innerHTML = '';

    function range(name, min, max, step, value, label) { return NG.rangeField(name, min, max, step, value, label, function () { redraw(); }); }
    var controls = NG.el('div', { class: 'ng-controls' }, [
      range('scale', 0, 4, 0.05, 4, t('cond.scale')),
      range('rho', -0.9, 0.99, 0.01, 0.9, t('cond.rho')),
    ]);
    var svg = NG.svg('svg', { viewBox: '0 0 ' + W + ' ' + Hh, width: W, height: Hh, role: 'img', 'aria-label': t('cond.figure', { n: N_STEPS }),
                              'data-pixels-per-unit': K, 'data-origin': px(0) + ',' + py(0) });
    var figure = NG.el('div', { class: 'ng-figure' }, []);
    figure.appendChild(svg);
    var axes = NG.svg('g', { stroke: 'var(--line)' }, svg);
    NG.svg('line', { x1: 0, y1: py(0), x2: W, y2: py(0) }, axes);
    NG.svg('line', { x1: px(0), y1: 0, x2: px(0), y2: Hh }, axes);
    var contours = NG.svg('g', { fill: 'none', stroke: 'var(--muted)', 'stroke-opacity': 0.55 }, svg);
    var lines = {};
    // before/after standardizing is no layer: neutral, as in the video (scenes/conditioning.py), raw muted, standardized emphasis
    [['raw', 'var(--muted)'], ['standardized', 'var(--emphasis)']].forEach(function (pair) {
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
    [['kappa', 'κ'], ['step-limit', t('cond.step-limit')], ['step', t('cond.step', { fraction: NG.fixed(FRACTION, 1) })],
     ['steps', t('cond.steps', { tol: NG.sci(TOL) })]].forEach(function (row) {
      body.appendChild(NG.el('tr', {}, [
        NG.el('th', { scope: 'row', text: row[1] }),
        NG.el('td', { 'data-out': row[0] + '-raw' }),
        NG.el('td', { 'data-out': row[0] + '-standardized' }),
      ]));
    });
    table.appendChild(body);
    var legend = NG.legend([['rms', t('cond.legend.raw', { n: N_STEPS })], ['ln', t('cond.legend.standardized', { n: N_STEPS })]]);
    var note = NG.el('p', { class: 'ng-note', 'data-out': 'note' });
    root.appendChild(controls);
    root.appendChild(NG.el('div', { class: 'ng-side' }, [figure, NG.el('div', { class: 'ng-side-text' }, [table, legend, note])]));

    function out(name, value, digits) {
      NG.showValue(root.querySelector('[data-out="' + name + '"]'), value, function (v) {
        return digits === 'int' ? formatCount(v) : (Math.abs(v) >= 1e4 || Math.abs(v) < 1e-3 ? NG.sci(v, 3) : NG.fmt(v, digits));
      });
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
      var raw = problem([[1, rho * s], [rho * s, s * s]], [START[0], START[1] / s]);
      var std = problem([[1, rho], [rho, 1]], START.slice());
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
          return px(Math.max(-2 * R, Math.min(2 * R, u[0]))).toFixed(3) + ',' + py(Math.max(-2 * R, Math.min(2 * R, u[1]))).toFixed(3);
        }).join(' '));
      });
      // level sets of ½uᵀRu through u₀ and below it (normgeo.contour_levels, ratio 0.3; quadratic_contours),
      // the same ellipses for both problems in u = S·w; drawn point by point through px, py (y up)
      contours.innerHTML = '';
      var correlation = [[1, rho], [rho, 1]];
      var levels = NG.math.contour_levels(correlation, START, 5, 0.3);
      NG.math.quadratic_contours(correlation, levels, 120).forEach(function (curve, k) {
        var d = curve.map(function (u, i) { return (i ? 'L' : 'M') + px(u[0]).toFixed(3) + ',' + py(u[1]).toFixed(3); }).join('') + 'Z';
        NG.svg('path', { d: d, 'data-level': NG.exact(levels[k]) }, contours);
      });
      note.textContent = t('cond.note', { kappa: NG.fmt(std.kappa, 2), rho: NG.fmt(rho, 2) });
    });

    redraw();
    return { redraw: redraw };
  };
})();
