/* vector-2d: one vector x in the plane and where each layer sends it.
 *
 * Contract:
 *   root       data-widget="vector-2d", data-eps, data-gamma1, data-gamma2, data-beta1, data-beta2 (the values used)
 *   points     [data-point="x|l2|rms|layernorm|rms-affine|layernorm-affine"] with data-x, data-y in data coordinates
 *              (full precision); a point that does not exist for this x (x = 0, σ = 0 at ε = 0) is hidden and has
 *              no data-x/data-y
 *   controls   [data-control="x1|x2|eps"] (text), [data-control="gamma1|gamma2|beta1|beta2"] (range)
 *   readouts   [data-out="norm-x|mu|sigma|norm-rms|norm-layernorm"] with data-value; [data-out="message"]
 *   the tip of x is a focusable slider: arrow keys move it by 0.1 (Shift: 0.5, Alt: 0.01); drag with mouse or touch
 */
(function () {
  'use strict';
  var NG = window.NormGeo;
  var SIZE = 460, R = 3.2;              // the view shows [-R, R]² in data coordinates
  var K = SIZE / (2 * R);
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

    var svg = NG.svg('svg', { viewBox: '0 0 ' + SIZE + ' ' + SIZE, width: SIZE, height: SIZE, role: 'group', 'aria-label': t('v2.figure') });
    var figure = NG.el('div', { class: 'ng-figure' });
    figure.appendChild(svg);

    // static layers: grid, axes, circles, the zero-mean line
    var grid = NG.svg('g', { stroke: 'var(--line)', 'stroke-width': 1 }, svg);
    for (var i = -3; i <= 3; i++) {
      NG.svg('line', { x1: px(i), y1: py(-R), x2: px(i), y2: py(R), 'stroke-opacity': i === 0 ? 1 : 0.45 }, grid);
      NG.svg('line', { x1: px(-R), y1: py(i), x2: px(R), y2: py(i), 'stroke-opacity': i === 0 ? 1 : 0.45 }, grid);
    }
    NG.svg('circle', { cx: px(0), cy: py(0), r: K, fill: 'none', stroke: 'var(--l2)', 'stroke-width': 2 }, svg);
    NG.svg('circle', { cx: px(0), cy: py(0), r: Math.SQRT2 * K, fill: 'none', stroke: 'var(--rms)', 'stroke-width': 2, 'stroke-dasharray': '7 4' }, svg);
    NG.svg('line', { x1: px(-R), y1: py(R), x2: px(R), y2: py(-R), stroke: 'var(--ln)', 'stroke-width': 2 }, svg);
    var labels = NG.svg('g', { 'font-size': 13 }, svg);
    NG.svg('text', { x: px(-0.62), y: py(-0.62), 'text-anchor': 'middle', text: '1' }, labels).style.fill = 'var(--l2)';
    NG.svg('text', { x: px(-1.18), y: py(-1.18), 'text-anchor': 'middle', text: '√2' }, labels).style.fill = 'var(--rms)';
    NG.svg('text', { x: px(2.05), y: py(-2.45), text: 'x + y = 0' }, labels).style.fill = 'var(--ln)';

    // dynamic layers
    var affineLayer = NG.svg('g', {}, svg);
    var ellipse = NG.svg('ellipse', { fill: 'none', stroke: 'var(--rms)', 'stroke-width': 1.5, 'stroke-opacity': 0.7, 'stroke-dasharray': '2 3' }, affineLayer);
    var lnSegment = NG.svg('line', { stroke: 'var(--ln)', 'stroke-width': 1.5, 'stroke-opacity': 0.7, 'stroke-dasharray': '2 3' }, affineLayer);
    var ray = NG.svg('line', { stroke: 'var(--muted)', 'stroke-width': 1.5, 'stroke-dasharray': '4 4' }, svg);
    var meanGuide = NG.svg('line', { stroke: 'var(--ln)', 'stroke-width': 1, 'stroke-dasharray': '3 3' }, svg);
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
    function textInput(name, value, label) {
      var input = NG.el('input', { type: 'text', inputmode: 'decimal', size: 7, 'data-control': name, value: value, spellcheck: 'false', autocomplete: 'off' });
      input.addEventListener('input', function () { redraw(); });
      return NG.field(label, input);
    }
    function range(name, min, max, step, value, label) {
      var input = NG.el('input', { type: 'range', min: min, max: max, step: step, value: value, 'data-control': name });
      var out = NG.el('output', { class: 'ng-value' });
      input.addEventListener('input', function () { redraw(); });
      var field = NG.field(label, input);
      field.appendChild(out);
      return field;
    }
    var controls = NG.el('div', { class: 'ng-controls' }, [
      textInput('x1', String(state.x[0]), 'x₁'),
      textInput('x2', String(state.x[1]), 'x₂'),
      textInput('eps', '0', 'ε'),
    ]);
    var affine = NG.el('div', { class: 'ng-controls' }, [
      range('gamma1', -2, 2, 0.05, 1, 'γ₁'), range('gamma2', -2, 2, 0.05, 1, 'γ₂'),
      range('beta1', -1.5, 1.5, 0.05, 0, 'β₁'), range('beta2', -1.5, 1.5, 0.05, 0, 'β₂'),
    ]);
    var readout = NG.el('div', { class: 'ng-readout' });
    var dl = NG.el('dl');
    var rows = [['norm-x', '‖x‖₂'], ['mu', 'μ'], ['sigma', 'σ'], ['norm-rms', t('v2.norm-rms')], ['norm-layernorm', t('v2.norm-ln')]];
    rows.forEach(function (row) {
      dl.appendChild(NG.el('dt', { text: row[1] }));
      dl.appendChild(NG.el('dd', { 'data-out': row[0] }));
    });
    readout.appendChild(dl);
    var legend = NG.el('p', { class: 'ng-legend' });
    legend.innerHTML = '';
    [['l2', t('v2.legend.l2')], ['rms', t('v2.legend.rms')], ['ln', t('v2.legend.ln')], ['muted', t('v2.legend.affine')]].forEach(function (item) {
      var swatch = NG.el('span', { class: 'ng-swatch', 'aria-hidden': 'true' });
      swatch.style.background = 'var(--' + item[0] + ')';
      legend.appendChild(NG.el('span', { class: 'ng-legend-item' }, [swatch, item[1]]));
    });
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

    // dragging: anywhere on the figure moves the tip; pointer capture keeps it through the drag
    var dragging = false;
    svg.addEventListener('pointerdown', function (event) {
      dragging = true;
      svg.setPointerCapture(event.pointerId);
      handle.style.cursor = 'grabbing';
      move(event);
      event.preventDefault();
    });
    svg.addEventListener('pointermove', function (event) { if (dragging) move(event); });
    svg.addEventListener('pointerup', function () { dragging = false; handle.style.cursor = 'grab'; });
    svg.addEventListener('pointercancel', function () { dragging = false; });
    function move(event) {
      var p = NG.svgPoint(svg, event);
      var x = Math.max(-R, Math.min(R, (p.x - SIZE / 2) / K));
      var y = Math.max(-R, Math.min(R, (SIZE / 2 - p.y) / K));
      setX(x, y);
    }
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
    function out(name, value) {
      var node = root.querySelector('[data-out="' + name + '"]');
      if (value === null) { node.removeAttribute('data-value'); node.textContent = '—'; }
      else { node.setAttribute('data-value', NG.exact(value)); node.textContent = NG.fmt(value, 3); }
    }

    var redraw = NG.timed('vector-2d', function () {
      var messages = [];
      var read = function (name, opts) {
        var input = field(name);
        var parsed = NG.parse(input.value, opts);
        if (!parsed.ok) {
          var text = t('v2.error.field', { name: input.closest('label').querySelector('.ng-field-label').textContent, reason: NG.reasonText(lang, parsed.reason) });
          NG.markInvalid(input, text);
          messages.push(text);
          return null;
        }
        NG.markInvalid(input, null);
        return parsed.value;
      };
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
      var ok = true;          // a bad field keeps the last good x, and everything drawn from it
      var x = state.x;
      // L2: x/‖x‖₂ computed as u/‖u‖₂, u = x/max|xᵢ| (normgeo.l2_normalize at ε = 0)
      var l2 = null, rms = null, ln = null;
      if (ok) {
        var s = Math.max(Math.abs(x[0]), Math.abs(x[1]));
        if (s > 0) {
          var u = [x[0] / s, x[1] / s];
          var n = Math.sqrt(u[0] * u[0] + u[1] * u[1]);
          l2 = [u[0] / n, u[1] / n];
        } else messages.push(t('v2.error.zero'));
        if (eps !== null) {
          rms = NG.normalizeGroup(x, false, eps);
          ln = NG.normalizeGroup(x, true, eps);
          if (!rms && s > 0) rms = null;
          if (!ln && s > 0) messages.push(t('v2.error.sigma'));
        }
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
      var mu = ok ? NG.mean(x) : null;
      if (ok) {
        meanGuide.setAttribute('x1', px(clampView(x[0]))); meanGuide.setAttribute('y1', py(clampView(x[1])));
        meanGuide.setAttribute('x2', px(clampView(x[0] - mu))); meanGuide.setAttribute('y2', py(clampView(x[1] - mu)));
      }
      ellipse.setAttribute('cx', px(0)); ellipse.setAttribute('cy', py(0));
      ellipse.setAttribute('rx', Math.abs(gamma[0]) * Math.SQRT2 * K); ellipse.setAttribute('ry', Math.abs(gamma[1]) * Math.SQRT2 * K);
      lnSegment.setAttribute('x1', px(clampView(gamma[0] + beta[0]))); lnSegment.setAttribute('y1', py(clampView(-gamma[1] + beta[1])));
      lnSegment.setAttribute('x2', px(clampView(-gamma[0] + beta[0]))); lnSegment.setAttribute('y2', py(clampView(gamma[1] + beta[1])));
      handle.setAttribute('aria-valuenow', String(x[0]));
      handle.setAttribute('aria-valuetext', 'x = (' + NG.fmt(x[0], 2) + NG.listSep() + NG.fmt(x[1], 2) + ')');
      // readouts (normgeo.euclidean_norm; μ, σ biased; the lengths of the outputs)
      var s2 = Math.max(Math.abs(x[0]), Math.abs(x[1]));
      var safe = s2 > 0 ? s2 : 1;
      out('norm-x', ok ? safe * Math.sqrt(NG.sum([(x[0] / safe) * (x[0] / safe), (x[1] / safe) * (x[1] / safe)])) : null);
      out('mu', mu);
      out('sigma', ok ? Math.sqrt(NG.mean([(x[0] - mu) * (x[0] - mu), (x[1] - mu) * (x[1] - mu)])) : null);
      out('norm-rms', rms ? Math.sqrt(rms[0] * rms[0] + rms[1] * rms[1]) : null);
      out('norm-layernorm', ln ? Math.sqrt(ln[0] * ln[0] + ln[1] * ln[1]) : null);
      message.textContent = messages.join(' ');
    });

    redraw();
    return { redraw: redraw, state: state, setX: setX };
  };
})();
