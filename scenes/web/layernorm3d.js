/* layernorm-3d: n = 3. x = μ·1 + (x − μ·1); the centred part lies in the zero-mean plane, LayerNorm
 * scales it onto the sphere of radius √3: x̂ is on the circle where plane and sphere meet.
 *
 * Contract:
 *   root      data-widget="layernorm-3d", data-eps, data-azimuth, data-elevation (degrees), and
 *             data-view-x/-y/-z: the unit vector from the origin towards the viewer
 *   vectors   [data-vec="x|mean-part|centred|hat|ones"] with data-x1, data-x2, data-x3 (full precision);
 *             "hat" (x̂ = LayerNorm(x)) has none when σ = 0 at ε = 0
 *   readouts  [data-out="mu|sigma|norm-hat"] with data-value; [data-out="message"]
 *   geometry  the svg's data-pixels-per-unit (K), data-origin ("x,y") and data-drawn-scale (f, a power of ten, 1
 *             unless x is long): x, μ·1 and x − μ·1 are drawn as f·p, and a point p at origin + K·(p·r, −p·u),
 *             r and u the screen's right and up, orthonormal to the view direction (r = e₃ × view normalized)
 *   controls  [data-control="x1|x2|x3|eps"] (text); buttons [data-view="edge|face"]; the figure turns by
 *             dragging, or with the arrow keys when focused
 */
(function () {
  'use strict';
  var NG = window.NormGeo;
  var SIZE = 440;
  var MAX_REACH = 8;   // beyond this the drawn vectors are shortened by a power of ten
  var SQ3 = Math.sqrt(3);
  var BASIS = NG.math.hyperplane_basis(3), E1 = BASIS[0], E2 = BASIS[1];  // normgeo.hyperplane_basis(3)
  var CIRCLE = NG.math.circle_in_plane(E1, E2, SQ3, 96);                 // the plane ∩ the sphere of radius √3
  var VIEWS = {
    face: { azimuth: 45, elevation: Math.asin(1 / SQ3) * 180 / Math.PI },  // looking along 1
    edge: { azimuth: -45, elevation: 0 },                                  // looking perpendicular to 1
  };

  function dot(a, b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
  function scale(a, k) { return [a[0] * k, a[1] * k, a[2] * k]; }

  NG.widgets['layernorm-3d'] = function (root, options) {
    var lang = options.lang;
    var t = function (key, vars) { return NG.t(lang, key, vars); };
    var state = { x: [0.5, 1.5, 2.5], azimuth: 20, elevation: 18 };
    root.classList.add('ng-widget', 'ng-ln3d');
    root.setAttribute('role', 'group');
    root.setAttribute('aria-label', t('ln3.label'));
    root.innerHTML = '';

    var svg = NG.svg('svg', { viewBox: '0 0 ' + SIZE + ' ' + SIZE, width: SIZE, height: SIZE, role: 'img', tabindex: 0, 'aria-label': t('ln3.figure') });
    var figure = NG.el('div', { class: 'ng-figure' });
    figure.appendChild(svg);
    var scene = NG.svg('g', {}, svg);

    function textInput(name, value, label) { return NG.numberField(name, value, label, function () { redraw(); }, 6); }
    var controls = NG.el('div', { class: 'ng-controls' }, [
      textInput('x1', String(state.x[0]), 'x₁'), textInput('x2', String(state.x[1]), 'x₂'), textInput('x3', String(state.x[2]), 'x₃'),
      textInput('eps', '0', 'ε'),
    ]);
    var views = NG.el('div', { class: 'ng-controls', role: 'group', 'aria-label': t('ln3.views') });
    ['edge', 'face'].forEach(function (name) {
      var button = NG.el('button', { type: 'button', 'data-view': name, text: t('ln3.view.' + name) });
      button.addEventListener('click', function () { state.azimuth = VIEWS[name].azimuth; state.elevation = VIEWS[name].elevation; redraw(); });
      views.appendChild(button);
    });
    var dl = NG.el('dl');
    [['mu', 'μ'], ['sigma', 'σ'], ['norm-hat', '‖x̂‖₂']].forEach(function (row) {
      dl.appendChild(NG.el('dt', { text: row[1] }));
      dl.appendChild(NG.el('dd', { 'data-out': row[0] }));
    });
    var vectorsList = NG.el('dl', { class: 'ng-vectors' });
    [['x', 'x'], ['mean-part', 'μ·𝟏'], ['centred', 'x − μ·𝟏'], ['hat', 'x̂']].forEach(function (row) {
      vectorsList.appendChild(NG.el('dt', { text: row[1] }));
      vectorsList.appendChild(NG.el('dd', { 'data-vec-text': row[0] }));
    });
    var legend = NG.legend([['x', 'x'], ['mean-part', 'μ·𝟏'], ['centred-part', 'x − μ·𝟏'], ['hyperplane', t('ln3.legend.plane')],
                            ['sphere', t('ln3.legend.sphere')], ['ln', t('ln3.legend.circle')]]);
    var message = NG.el('p', { class: 'ng-message', role: 'status', 'aria-live': 'polite', 'data-out': 'message' });
    var scaledNote = NG.el('p', { class: 'ng-note', 'data-out': 'scaled', 'aria-live': 'polite' });
    var readout = NG.el('div', { class: 'ng-readout' }, [dl, vectorsList]);
    root.appendChild(NG.el('div', { class: 'ng-side' }, [figure, NG.el('div', { class: 'ng-side-text' }, [controls, views, readout, legend, scaledNote])]));
    root.appendChild(message);

    // turning: drag, or arrow keys on the focused figure
    var drag = null;
    NG.drag(svg, {
      start: function (event) { drag = { x: event.clientX, y: event.clientY, a: state.azimuth, e: state.elevation }; },
      move: function (event) {
        state.azimuth = drag.a - (event.clientX - drag.x) * 0.5;
        state.elevation = Math.max(-89, Math.min(89, drag.e + (event.clientY - drag.y) * 0.5));
        redraw();
      },
      end: function () { drag = null; },
    });
    svg.addEventListener('keydown', function (event) {
      var d = { ArrowLeft: [-5, 0], ArrowRight: [5, 0], ArrowUp: [0, 5], ArrowDown: [0, -5] }[event.key];
      if (!d) return;
      event.preventDefault();
      state.azimuth += d[0];
      state.elevation = Math.max(-89, Math.min(89, state.elevation + d[1]));
      redraw();
    });

    var field = function (name) { return root.querySelector('[data-control="' + name + '"]'); };

    function setVec(name, v) {
      var nodes = root.querySelectorAll('[data-vec="' + name + '"]');
      Array.prototype.forEach.call(nodes, function (node) {
        if (!v) { node.removeAttribute('data-x1'); node.removeAttribute('data-x2'); node.removeAttribute('data-x3'); return; }
        node.setAttribute('data-x1', NG.exact(v[0])); node.setAttribute('data-x2', NG.exact(v[1])); node.setAttribute('data-x3', NG.exact(v[2]));
      });
      var text = root.querySelector('[data-vec-text="' + name + '"]');
      if (text) text.textContent = v ? NG.fmtVector(v) : '—';
    }
    function out(name, value) { NG.showValue(root.querySelector('[data-out="' + name + '"]'), value); }

    var redraw = NG.timed('layernorm-3d', function () {
      var messages = [];
      var values = ['x1', 'x2', 'x3', 'eps'].map(function (name) {
        return NG.readNumber(lang, field(name), name === 'eps' ? { nonnegative: true } : undefined, messages);
      });
      if (values[0] !== null && values[1] !== null && values[2] !== null) state.x = values.slice(0, 3);
      var eps = values[3];
      var x = state.x;
      // normgeo.decompose, mean_and_spread and layer_norm
      var parts = NG.math.decompose(x), mu = parts.mean;
      var meanPart = parts.mean_part, centred = parts.centred_part;
      var hat = eps === null ? null : NG.math.layer_norm(x, eps);
      if (eps !== null && !hat) messages.push(t('ln3.error.sigma'));
      setVec('x', x); setVec('mean-part', meanPart); setVec('centred', centred); setVec('hat', hat); setVec('ones', [1, 1, 1]);
      out('mu', mu); out('sigma', NG.math.mean_and_spread(x).spread); out('norm-hat', hat ? NG.math.euclidean_norm(hat) : null);
      root.setAttribute('data-eps', eps === null ? '' : NG.exact(eps));
      message.textContent = messages.join(' ');
      draw(x, meanPart, centred, hat);
    });

    function draw(x, meanPart, centred, hat) {
      var az = state.azimuth * Math.PI / 180, el = state.elevation * Math.PI / 180;
      var view = [Math.cos(el) * Math.cos(az), Math.cos(el) * Math.sin(az), Math.sin(el)];
      var right = [-Math.sin(az), Math.cos(az), 0];
      var up = [-Math.sin(el) * Math.cos(az), -Math.sin(el) * Math.sin(az), Math.cos(el)];
      root.setAttribute('data-azimuth', NG.exact(state.azimuth));
      root.setAttribute('data-elevation', NG.exact(state.elevation));
      root.setAttribute('data-view-x', NG.exact(view[0])); root.setAttribute('data-view-y', NG.exact(view[1])); root.setAttribute('data-view-z', NG.exact(view[2]));
      // a long x is drawn shortened by a power of ten f (stated below the figure), so that the sphere,
      // the circle and x̂ stay visible: LayerNorm(f·x) = LayerNorm(x) at ε = 0 (norms without overflow)
      var length = NG.math.euclidean_norm(x);
      var f = length * 1.12 > MAX_REACH ? Math.pow(10, -Math.ceil(Math.log10(length * 1.12 / MAX_REACH))) : 1;
      var full = { x: x, meanPart: meanPart, centred: centred };
      x = scale(x, f); meanPart = scale(meanPart, f); centred = scale(centred, f);
      svg.setAttribute('data-drawn-scale', NG.exact(f));
      scaledNote.textContent = f === 1 ? '' : t('ln3.scaled', { factor: NG.sci(f) });
      var reach = Math.max(2.6, 1.12 * NG.math.euclidean_norm(x), 1.12 * NG.math.euclidean_norm(meanPart));
      var K = SIZE / 2 / reach;
      svg.setAttribute('data-pixels-per-unit', NG.exact(K));
      svg.setAttribute('data-origin', SIZE / 2 + ',' + SIZE / 2);
      var P = function (p) { return [SIZE / 2 + dot(p, right) * K, SIZE / 2 - dot(p, up) * K]; };
      var depth = function (p) { return dot(p, view); };
      scene.innerHTML = '';
      var g = function (tag, attrs) { return NG.svg(tag, attrs, scene); };
      var pts = function (list) { return list.map(function (p) { var q = P(p); return q[0].toFixed(3) + ',' + q[1].toFixed(3); }).join(' '); };
      // axes
      [[1, 0, 0], [0, 1, 0], [0, 0, 1]].forEach(function (axis, i) {
        var end = scale(axis, reach * 0.92);
        var a = P(scale(axis, -reach * 0.5)), b = P(end);
        g('line', { x1: a[0], y1: a[1], x2: b[0], y2: b[1], stroke: 'var(--line)', 'stroke-width': 1 });
        g('text', { x: b[0] + 3, y: b[1] - 3, text: 'x' + '₁₂₃'.charAt(i), 'font-size': 12 }).style.fill = 'var(--muted)';
      });
      // sphere of radius √3: its outline, and the plane patch
      var c0 = P([0, 0, 0]);
      g('circle', { cx: c0[0], cy: c0[1], r: SQ3 * K, fill: 'none', stroke: 'var(--rms)', 'stroke-opacity': 0.6, 'stroke-width': 1 });
      var h = Math.min(reach * 0.9, 2.6);
      var corners = [[1, 1], [1, -1], [-1, -1], [-1, 1]].map(function (s) { return [0, 1, 2].map(function (k) { return h * (s[0] * E1[k] + s[1] * E2[k]); }); });
      g('polygon', { points: pts(corners), fill: 'var(--hyperplane)', 'fill-opacity': 0.16, stroke: 'var(--hyperplane)', 'stroke-opacity': 0.6, 'stroke-width': 1 });
      // the circle where plane and sphere meet: front solid, back dashed
      var front = [], back = [];
      for (var i = 0; i <= CIRCLE.length; i++) {
        var p = CIRCLE[i % CIRCLE.length];
        var seen = depth(p) >= -1e-9;  // face-on every point has depth 0: draw them all in front
        (seen ? front : back).push(p);
        (seen ? back : front).push(null);
      }
      [[back, '5 4', 0.6], [front, null, 1]].forEach(function (spec) {
        var run = [];
        spec[0].concat([null]).forEach(function (p) {
          if (p) { run.push(p); return; }
          if (run.length > 1) g('polyline', { 'data-set': 'circle', points: pts(run), fill: 'none', stroke: 'var(--ln)', 'stroke-width': 2.5, 'stroke-opacity': spec[2], 'stroke-dasharray': spec[1] });
          run = [];
        });
      });
      // the line along 1 and the vector 1
      var ones = [1, 1, 1], unit = scale(ones, 1 / SQ3);
      var la = P(scale(unit, -reach)), lb = P(scale(unit, reach));
      g('line', { x1: la[0], y1: la[1], x2: lb[0], y2: lb[1], stroke: 'var(--ones)', 'stroke-dasharray': '2 4' });
      arrow([0, 0, 0], ones, 'var(--ones)', 'ones', '𝟏', 1.5);
      // the decomposition
      arrow([0, 0, 0], meanPart, 'var(--ones)', 'mean-part', 'μ·𝟏', 2.5);
      arrow([0, 0, 0], centred, 'var(--hyperplane)', 'centred', 'x − μ·𝟏', 2.5);
      var m = P(meanPart), xe = P(x);
      g('line', { x1: m[0], y1: m[1], x2: xe[0], y2: xe[1], stroke: 'var(--hyperplane)', 'stroke-dasharray': '4 3', 'stroke-width': 1.5 });
      var ce = P(centred);
      g('line', { x1: ce[0], y1: ce[1], x2: xe[0], y2: xe[1], stroke: 'var(--muted)', 'stroke-dasharray': '4 3', 'stroke-width': 1 });
      arrow([0, 0, 0], x, 'var(--x)', 'x', 'x', 2.5);
      if (hat) arrow([0, 0, 0], hat, 'var(--ln)', 'hat', 'x̂', 3);
      else g('line', { 'data-vec': 'hat', visibility: 'hidden' });
      function arrow(from, to, colour, name, label, width) {
        var a = P(from), b = P(to);
        var line = g('line', { x1: a[0], y1: a[1], x2: b[0], y2: b[1], stroke: colour, 'stroke-width': width, 'data-vec': name });
        g('circle', { cx: b[0], cy: b[1], r: width + 1.5, fill: colour });
        // labels beside the tip, pushed away from the origin; the centred part is labelled at its middle
        var at = name === 'centred' ? [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2] : b;
        var dx = b[0] - a[0], dy = b[1] - a[1], len = Math.sqrt(dx * dx + dy * dy) || 1;
        var ox = dx / len * 12, oy = dy / len * 12;                        // along the arrow, past its tip
        if (name === 'centred') { ox = dy / len * 10; oy = -dx / len * 10; }  // to one side of its middle
        if (name === 'ones') { ox = -dy / len * 10; oy = dx / len * 10; }     // to the other side of its tip
        var anchor = Math.abs(ox) < 4 ? 'middle' : ox < 0 ? 'end' : 'start';
        var text = g('text', { x: at[0] + ox, y: at[1] + oy + 4, 'text-anchor': anchor, 'font-size': 13, 'font-weight': 'bold', text: label });
        text.style.fill = colour.replace(/\)$/, '-text)');  // the same colour, readable as text
        return line;
      }
      setVec('x', full.x); setVec('mean-part', full.meanPart); setVec('centred', full.centred); setVec('hat', hat); setVec('ones', ones);
    }

    redraw();
    return { redraw: redraw, state: state };
  };
})();
