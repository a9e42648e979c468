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
 *   geometry  the svg's data-pixels-per-unit (K) and data-origin ("x,y" in pixels): u ↦ (x₀ + K·u₁, y₀ − K·u₂);
 *             both change with the settings: the view holds both whole paths, the start and w*
 */
(function () {
  'use strict';
  var NG = window.NormGeo;
  var W = 460, Hh = 300, MARGIN = 0.06;  // the view: both paths, the start and w* whole, with a margin
  var PLOT = Hh - 24;                      // the plot's height: the caption below it, never over it
  var START = [-2.6, 0.5], FRACTION = 0.9, N_STEPS = 30, TOL = 1e-6;
  var plots = 0;                          // widgets on the page (each svg's clip path has its own id)
  var view = { k: 1, cx: 0, cy: 0 };     // pixels per unit and the centre of the view, in u
  function px(u) { return W / 2 + (u - view.cx) * view.k; }
  function py(v) { return PLOT / 2 - (v - view.cy) * view.k; }
  /** The view holding every point of ``points`` (u coordinates), one scale on both axes. */
  function fit(points) {
    var xs = points.map(function (u) { return u[0]; }), ys = points.map(function (u) { return u[1]; });
    var x0 = Math.min.apply(null, xs), x1 = Math.max.apply(null, xs), y0 = Math.min.apply(null, ys), y1 = Math.max.apply(null, ys);
    var k = (1 - 2 * MARGIN) * Math.min(W / Math.max(x1 - x0, 1e-9), PLOT / Math.max(y1 - y0, 1e-9));
    return { k: k, cx: (x0 + x1) / 2, cy: (y0 + y1) / 2 };
  }

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
    var svg = NG.svg('svg', { viewBox: '0 0 ' + W + ' ' + Hh, width: W, height: Hh, role: 'img', 'aria-label': t('cond.figure', { n: N_STEPS }) });
    var figure = NG.el('div', { class: 'ng-figure' }, []);
    figure.appendChild(svg);
    var clipId = 'ng-cond-plot-' + (++plots);  // contours and axes stop at the plot's edge, above the caption
    NG.svg('rect', { x: 0, y: 0, width: W, height: PLOT }, NG.svg('clipPath', { id: clipId }, svg));
    var plot = NG.svg('g', { 'clip-path': 'url(#' + clipId + ')' }, svg);
    var axes = NG.svg('g', { stroke: 'var(--line)' }, plot);
    var axisU1 = NG.svg('line', { x1: 0, x2: W }, axes);
    var axisU2 = NG.svg('line', { y1: 0, y2: PLOT }, axes);
    var contours = NG.svg('g', { fill: 'none', stroke: 'var(--muted)', 'stroke-opacity': 0.55 }, plot);
    var lines = {};
    // before/after standardizing is no layer: neutral, as in the video (scenes/conditioning.py), raw muted, standardized emphasis
    [['raw', 'var(--muted)'], ['standardized', 'var(--emphasis)']].forEach(function (pair) {
      lines[pair[0]] = NG.svg('polyline', { 'data-path': pair[0], fill: 'none', stroke: pair[1], 'stroke-width': 2, 'stroke-linejoin': 'round' }, svg);
    });
    var startDot = NG.svg('circle', { r: 4, fill: 'var(--fg)' }, svg);
    var optimumDot = NG.svg('circle', { r: 3, fill: 'var(--fg)' }, svg);
    var optimumLabel = NG.svg('text', { text: 'w*' }, svg);
    NG.svg('text', { x: 8, y: Hh - 7, text: t('cond.coords') }, svg);

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
      var drawn = { raw: raw.path.map(function (w) { return [w[0], w[1] * s]; }), standardized: std.path };  // u = S·w
      view = fit(drawn.raw.concat(drawn.standardized, [START, [0, 0]]));
      svg.setAttribute('data-pixels-per-unit', NG.exact(view.k));
      svg.setAttribute('data-origin', NG.exact(px(0)) + ',' + NG.exact(py(0)));
      [[axisU1, { y1: py(0), y2: py(0) }], [axisU2, { x1: px(0), x2: px(0) }], [startDot, { cx: px(START[0]), cy: py(START[1]) }],
       [optimumDot, { cx: px(0), cy: py(0) }], [optimumLabel, { x: px(0) + 6, y: py(0) - 6 }]].forEach(function (pair) {
        Object.keys(pair[1]).forEach(function (name) { pair[0].setAttribute(name, pair[1][name]); });
      });
      [['raw', raw], ['standardized', std]].forEach(function (pair) {
        var p = pair[1], name = pair[0];
        out('kappa-' + name, p.kappa, 2);
        out('step-limit-' + name, p.limit, 3);
        out('step-' + name, p.step, 3);
        out('steps-' + name, p.steps, 'int');
        var line = lines[name];
        line.setAttribute('data-start', JSON.stringify(p.start));
        line.setAttribute('data-points', JSON.stringify(p.path));
        line.setAttribute('points', drawn[name].map(function (u) { return px(u[0]).toFixed(3) + ',' + py(u[1]).toFixed(3); }).join(' '));
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
