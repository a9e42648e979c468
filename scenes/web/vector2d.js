/* vector-2d: one vector x in the plane and where each layer sends it.
 *
 * Contract:
 *   root       data-widget="vector-2d", data-eps, data-gamma1, data-gamma2, data-beta1, data-beta2 (the values used)
 *   points     [data-point="x|l2|rms|layernorm|rms-affine|layernorm-affine"] with data-x, data-y in data coordinates
 *              (full precision); a point that does not exist for this x (x = 0, σ = 0 at ε = 0) is hidden and has
 *              no data-x/data-y
 *   controls   [data-control="x1|x2|eps"] (text), [data-control="gamma1|gamma2|beta1|beta2"] (range)
 *   readouts   [data-out="norm-x|mu|sigma|norm-rms|norm-layernorm"] with data-value; [data-out="message"]
 *   geometry   the svg's data-pixels-per-unit (K), data-origin ("x,y"), data-view-limit (L): a point v is drawn at
 *              (x₀ + K·c(v₁), y₀ − K·c(v₂)) with c clamping to [−L, L]
 *   the tip of x is a focusable slider: arrow keys move it by 0.1 (Shift: 0.5, Alt: 0.01); drag with mouse or touch
 */
(function () {
  'use strict';
  var NG = window.NormGeo;
  var SIZE = 460, R = 3.2;              // the view shows [-R, R]² in data coordinates
  var K = SIZE / (2 * R);                // pixels per data unit (data-pixels-per-unit on the svg)
  function px(x) { return SIZE / 2 + x * K; }
  function py(y) { return SIZE / 2 - y * K; }

  NG.widgets['vector-2d'] = function (root, options) {
    var lang = options.lang;
    var t = function (key, vars) { return NG.t(lang, key, vars); };
    var state = { x: [1.2, 2.1] };
    root.classList.add('ng-widget', 'ng-vector2d');
    root.setAttribute('role', 'group');
    root.setAttribute('aria-label', t('v2.label'));
    root.innerHTML = '';

    var svg = NG.svg('svg', { viewBox: '0 0 ' + SIZE + ' ' + SIZE, width: SIZE, height: SIZE, role: 'group', 'aria-label': t('v2.figure'),
                              'data-pixels-per-unit': K, 'data-origin': px(0) + ',' + py(0), 'data-view-limit': R * 1.05 });
    var figure = NG.el('div', { class: 'ng-figure' });
    figure.appendChild(svg);

    // static layers: grid, axes, circles, the zero-mean line
    var grid = NG.svg('g', { stroke: 'var(--line)', 'stroke-width': 1 }, svg);
    for (var i = -3; i <= 3; i++) {
      NG.svg('line', { x1: px(i), y1: py(-R), x2: px(i), y2: py(R), 'stroke-opacity': i === 0 ? 1 : 0.45 }, grid);
      NG.svg('line', { x1: px(-R), y1: py(i), x2: px(R), y2: py(i), 'stroke-opacity': i === 0 ? 1 : 0.45 }, grid);
    }
    // the sets, with the videos' colours: the unit circle (L2), the circle of radius √2 (RMSNorm),
    // the zero-mean line (LayerNorm's outputs lie on it, at distance √2 from the origin)
    NG.svg('circle', { 'data-set': 'l2', cx: px(0), cy: py(0), r: K, fill: 'none', stroke: 'var(--l2)', 'stroke-width': 2 }, svg);
    NG.svg('circle', { 'data-set': 'rms', cx: px(0), cy: py(0), r: Math.SQRT2 * K, fill: 'none', stroke: 'var(--rms)', 'stroke-width': 2, 'stroke-dasharray': '7 4' }, svg);
    NG.svg('line', { 'data-set': 'zero-mean', x1: px(-R), y1: py(R), x2: px(R), y2: py(-R), stroke: 'var(--hyperplane)', 'stroke-width': 2 }, svg);
    var labels = NG.svg('g', { 'font-size': 13 }, svg);
    NG.svg('text', { x: px(-0.62), y: py(-0.62), 'text-anchor': 'middle', text: '1' }, labels).style.fill = 'var(--l2-text)';
    NG.svg('text', { x: px(-1.18), y: py(-1.18), 'text-anchor': 'middle', text: '√2' }, labels).style.fill = 'var(--rms-text)';
    NG.svg('text', { x: px(2.05), y: py(-2.45), text: 'x + y = 0' }, labels).style.fill = 'var(--hyperplane-text)';

    // dynamic layers
    var affineLayer = NG.svg('g', {}, svg);
    var ellipse = NG.svg('ellipse', { fill: 'none', stroke: 'var(--rms)', 'stroke-width': 1.5, 'stroke-opacity': 0.7, 'stroke-dasharray': '2 3' }, affineLayer);
    var lnSegment = NG.svg('line', { stroke: 'var(--ln)', 'stroke-width': 1.5, 'stroke-opacity': 0.7, 'stroke-dasharray': '2 3' }, affineLayer);
    var ray = NG.svg('line', { stroke: 'var(--muted)', 'stroke-width': 1.5, 'stroke-dasharray': '4 4' }, svg);
    var meanGuide = NG.svg('line', { stroke: 'var(--ones)', 'stroke-width': 1, 'stroke-dasharray': '3 3' }, svg);
    var arrow = NG.svg('line', { stroke: 'var(--x)', 'stroke-width': 2.5, 'marker-end': '' }, svg);
    var points = {};
    function point(name, fill, r, hollow) {
      var node = NG.svg('circle', { 'data-point': name, r: r, fill: hollow ? 'var(--bg)' : fill, stroke: fill, 'stroke-width': 2 }, svg);
      points[name] = node;
      return node;
    }
    point('rms-affine', 'var(--rms)', 5, true);
    point('layernorm-affine', 'var(--ln)', 5, true);
    point('l2', 'var(--l2)', 6);
    point('rms', 'var(--rms)', 6);
    point('layernorm', 'var(--ln)', 6);
    var handle = point('x', 'var(--x)', 9);
    var xLabel = NG.svg('text', { 'font-weight': 'bold', text: 'x' }, svg);
    handle.setAttribute('tabindex', '0');
    handle.setAttribute('role', 'slider');
    handle.setAttribute('aria-label', t('v2.handle'));
    handle.setAttribute('aria-valuemin', String(-R));
    handle.setAttribute('aria-valuemax', String(R));
    handle.style.cursor = 'grab';

    // controls
    var controls = NG.el('div', { class: 'ng-controls' }, [
      NG.numberField('x1', String(state.x[0]), 'x₁', function () { redraw(); }),
      NG.numberField('x2', String(state.x[1]), 'x₂', function () { redraw(); }),
      NG.numberField('eps', '0', 'ε', function () { redraw(); }),
    ]);
    var slider = function (name, min, max, label) { return NG.rangeField(name, min, max, 0.05, name.indexOf('gamma') === 0 ? 1 : 0, label, function () { redraw(); }); };
    var affine = NG.el('div', { class: 'ng-controls' }, [
      slider('gamma1', -2, 2, 'γ₁'), slider('gamma2', -2, 2, 'γ₂'), slider('beta1', -1.5, 1.5, 'β₁'), slider('beta2', -1.5, 1.5, 'β₂'),
    ]);
    var readout = NG.el('div', { class: 'ng-readout' });
    var dl = NG.el('dl');
    var rows = [['norm-x', '‖x‖₂'], ['mu', 'μ'], ['sigma', 'σ'], ['norm-rms', t('v2.norm-rms')], ['norm-layernorm', t('v2.norm-ln')]];
    rows.forEach(function (row) {
      dl.appendChild(NG.el('dt', { text: row[1] }));
      dl.appendChild(NG.el('dd', { 'data-out': row[0] }));
    });
    readout.appendChild(dl);
    var legend = NG.legend([['l2', t('v2.legend.l2')], ['rms', t('v2.legend.rms')], ['ln', t('v2.legend.ln')],
                            ['hyperplane', t('v2.legend.line')], ['muted', t('v2.legend.affine')]]);
    var message = NG.el('p', { class: 'ng-message', role: 'status', 'aria-live': 'polite', 'data-out': 'message' });
    var layout = NG.el('div', { class: 'ng-side' }, [figure, NG.el('div', { class: 'ng-side-text' }, [controls, affine, readout, legend])]);
    root.appendChild(layout);
    root.appendChild(message);

    var field = function (name) { return root.querySelector('[data-control="' + name + '"]'); };

    function setX(x, y) {
      field('x1').value = String(x);
      field('x2').value = String(y);
      redraw();
    }

    // dragging: anywhere on the figure moves the tip, rounded to what a pixel tells apart
    NG.drag(svg, {
      start: function () { handle.style.cursor = 'grabbing'; },
      move: function (event) {
        var p = NG.svgPoint(svg, event);
        var x = Math.max(-R, Math.min(R, (p.x - SIZE / 2) / K));
        var y = Math.max(-R, Math.min(R, (SIZE / 2 - p.y) / K));
        setX(NG.roundToPixel(x, 1 / K), NG.roundToPixel(y, 1 / K));
      },
      end: function () { handle.style.cursor = 'grab'; },
    });
    handle.addEventListener('keydown', function (event) {
      var step = event.shiftKey ? 0.5 : event.altKey ? 0.01 : 0.1;
      var d = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] }[event.key];
      if (!d) return;
      event.preventDefault();
      var base = state.x;
      var round = function (v) { return Math.round(v * 1000) / 1000; };
      setX(round(Math.max(-R, Math.min(R, base[0] + d[0]))), round(Math.max(-R, Math.min(R, base[1] + d[1]))));
    });

    function place(name, p) {
      var node = points[name];
      if (!p) { node.setAttribute('visibility', 'hidden'); node.removeAttribute('data-x'); node.removeAttribute('data-y'); return; }
      node.removeAttribute('visibility');
      node.setAttribute('cx', px(clampView(p[0])));
      node.setAttribute('cy', py(clampView(p[1])));
      node.setAttribute('data-x', NG.exact(p[0]));
      node.setAttribute('data-y', NG.exact(p[1]));
    }
    function clampView(v) { return Math.max(-R * 1.05, Math.min(R * 1.05, v)); }
    function out(name, value) { NG.showValue(root.querySelector('[data-out="' + name + '"]'), value); }

    var redraw = NG.timed('vector-2d', function () {
      var messages = [];
      var read = function (name, opts) { return NG.readNumber(lang, field(name), opts, messages); };
      var x1 = read('x1'), x2 = read('x2'), eps = read('eps', { nonnegative: true });
      var gamma = [parseFloat(field('gamma1').value), parseFloat(field('gamma2').value)];
      var beta = [parseFloat(field('beta1').value), parseFloat(field('beta2').value)];
      ['gamma1', 'gamma2', 'beta1', 'beta2'].forEach(function (name, i) {
        var v = i < 2 ? gamma[i] : beta[i - 2];
        field(name).parentNode.querySelector('output').textContent = NG.fmt(v, 2);
        root.setAttribute('data-' + name, NG.exact(v));
      });
      if (x1 !== null && x2 !== null) state.x = [x1, x2];
      root.setAttribute('data-eps', eps === null ? '' : NG.exact(eps));
      var x = state.x;           // a bad field keeps the last good x, and everything drawn from it
      var l2 = NG.math.l2_normalize(x), rms = null, ln = null;
      if (!l2) messages.push(t('v2.error.zero'));
      if (eps !== null) {
        rms = NG.math.rms_norm(x, eps);
        ln = NG.math.layer_norm(x, eps);
        if (!ln && l2) messages.push(t('v2.error.sigma'));
      }
      place('x', x);
      place('l2', l2);
      place('rms', rms);
      place('layernorm', ln);
      place('rms-affine', rms ? [rms[0] * gamma[0], rms[1] * gamma[1]] : null);
      place('layernorm-affine', ln ? [ln[0] * gamma[0] + beta[0], ln[1] * gamma[1] + beta[1]] : null);
      // the arrow, its ray, the foot of the mean on the line
      arrow.setAttribute('x1', px(0)); arrow.setAttribute('y1', py(0));
      arrow.setAttribute('x2', px(clampView(x[0]))); arrow.setAttribute('y2', py(clampView(x[1])));
      xLabel.setAttribute('x', px(clampView(x[0])) + 10); xLabel.setAttribute('y', py(clampView(x[1])) - 10);
      if (l2) {
        ray.removeAttribute('visibility');
        ray.setAttribute('x1', px(0)); ray.setAttribute('y1', py(0));
        ray.setAttribute('x2', px(l2[0] * 2 * R)); ray.setAttribute('y2', py(l2[1] * 2 * R));
      } else ray.setAttribute('visibility', 'hidden');
      var spread = NG.math.mean_and_spread(x), mu = spread.mean;
      meanGuide.setAttribute('x1', px(clampView(x[0]))); meanGuide.setAttribute('y1', py(clampView(x[1])));
      meanGuide.setAttribute('x2', px(clampView(x[0] - mu))); meanGuide.setAttribute('y2', py(clampView(x[1] - mu)));
      ellipse.setAttribute('cx', px(0)); ellipse.setAttribute('cy', py(0));
      ellipse.setAttribute('rx', Math.abs(gamma[0]) * Math.SQRT2 * K); ellipse.setAttribute('ry', Math.abs(gamma[1]) * Math.SQRT2 * K);
      lnSegment.setAttribute('x1', px(clampView(gamma[0] + beta[0]))); lnSegment.setAttribute('y1', py(clampView(-gamma[1] + beta[1])));
      lnSegment.setAttribute('x2', px(clampView(-gamma[0] + beta[0]))); lnSegment.setAttribute('y2', py(clampView(gamma[1] + beta[1])));
      handle.setAttribute('aria-valuenow', String(x[0]));
      handle.setAttribute('aria-valuetext', 'x = (' + NG.fmt(x[0], 2) + NG.listSep() + NG.fmt(x[1], 2) + ')');
      // readouts: normgeo.euclidean_norm, mean_and_spread (biased σ, without underflow), the outputs' lengths
      out('norm-x', NG.math.euclidean_norm(x));
      out('mu', mu);
      out('sigma', spread.spread);
      out('norm-rms', rms ? NG.math.euclidean_norm(rms) : null);
      out('norm-layernorm', ln ? NG.math.euclidean_norm(ln) : null);
      message.textContent = messages.join(' ');
    });

    redraw();
    return { redraw: redraw, state: state, setX: setX };
  };
})();
