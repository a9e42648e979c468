/* states: a reader's own states file, read in this browser (nothing is uploaded), and the per-layer
 * statistics the real-states scenes show, computed by ng-math.js as normgeo.layer_profile and
 * normgeo.depth_summary compute them.
 *
 * The file is a normgeo states file in safetensors (normgeo_models/states_file.py): an 8-byte
 * little-endian header length, a JSON header, then F16/F32/F64 little-endian tensors
 * ``layers/{k:03d}/input|output|weight|bias`` and the JSON metadata under __metadata__.normgeo.
 * Anything else is refused with one message (NG.statesFile.parse throws {key, vars}).
 *
 * Contract:
 *   root      data-widget="states", data-state="empty|reading|shown|refused"
 *   controls  [data-control="file"] (an <input type=file>, inside the drop zone .ng-drop)
 *   outputs   [data-out="error"] (role=alert: the one message), [data-out="summary"];
 *             per row tr[data-layer=k]: td[data-stat=<name>][data-value] for median-norm, max-norm
 *             (data-token: its token's index), largest-ratio, massive-count, median-share, max-share,
 *             median-angle, max-angle (radians), min-radius, max-radius, min-measured, max-measured,
 *             ratio (participation ratio, data-bound: min(T − 1, n) for RMSNorm, min(T − 1, n − 1) for
 *             LayerNorm, whose outputs lie in the zero-mean hyperplane: normgeo.output_span)
 *   numbering calls and tokens are shown counted from 1, as the scenes say them (data-layer and
 *             data-token stay the 0-based indices)
 *   plot      circle[data-series="median|max"][data-layer][data-value]; the svg's data-plot
 *             (JSON {x0, dx, y0, y1, lo, hi}): layer k at x0 + k·dx, value v at y0 − (log₁₀v − lo)/(hi − lo)·(y0 − y1)
 */
(function () {
  'use strict';
  var NG = window.NormGeo;
  var SIZES = { F16: 2, F32: 4, F64: 8 };
  var MAX_BYTES = Math.pow(2, 30);  // normgeo_models.states_file.MAX_STATE_BYTES
  var FACTOR = 10;                  // the scenes' default factor for massive tokens
  var KINDS = ['rmsnorm', 'layernorm', 'batchnorm', 'groupnorm', 'unknown'];
  var W = 460, H = 240, LEFT = 52, RIGHT = 12, TOP = 14, BOTTOM = 34;

  function refuse(key, vars) { var error = new Error(key); error.ngKey = key; error.ngVars = vars || {}; throw error; }

  /** IEEE half → float64, exactly. */
  function half(bits) {
    var sign = bits & 0x8000 ? -1 : 1, exponent = (bits >> 10) & 0x1f, fraction = bits & 0x3ff;
    if (exponent === 0) return sign * fraction * Math.pow(2, -24);
    if (exponent === 31) return fraction ? NaN : sign * Infinity;
    return sign * (1 + fraction / 1024) * Math.pow(2, exponent - 15);
  }

  function decode(view, start, count, dtype) {
    var out = new Float64Array(count), i;
    if (dtype === 'F16') for (i = 0; i < count; i++) out[i] = half(view.getUint16(start + 2 * i, true));
    else if (dtype === 'F32') for (i = 0; i < count; i++) out[i] = view.getFloat32(start + 4 * i, true);
    else for (i = 0; i < count; i++) out[i] = view.getFloat64(start + 8 * i, true);
    return out;
  }

  /** The header: {tensors: {key: {dtype, shape, begin, end}}, metadata}, every offset checked. */
  function header(buffer, file) {
    if (buffer.byteLength < 8) refuse('states.error.truncated', { file: file });
    var view = new DataView(buffer);
    var length = view.getUint32(0, true) + view.getUint32(4, true) * 4294967296;
    if (length < 2 || 8 + length > buffer.byteLength) refuse(8 + length > buffer.byteLength && length < 1e8 ? 'states.error.truncated' : 'states.error.not-safetensors', { file: file });
    var parsed;
    try { parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(new Uint8Array(buffer, 8, length))); } catch (e) { refuse('states.error.not-safetensors', { file: file }); }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) refuse('states.error.not-safetensors', { file: file });
    var base = 8 + length, tensors = {}, total = 0;
    Object.keys(parsed).forEach(function (key) {
      if (key === '__metadata__') return;
      var entry = parsed[key];
      if (!entry || !Array.isArray(entry.shape) || !Array.isArray(entry.data_offsets)) refuse('states.error.not-safetensors', { file: file });
      if (!SIZES[entry.dtype]) refuse('states.error.dtype', { file: file, key: key, dtype: String(entry.dtype) });
      var count = entry.shape.reduce(function (a, b) { return a * b; }, 1);
      var begin = entry.data_offsets[0], end = entry.data_offsets[1];
      if (end - begin !== count * SIZES[entry.dtype]) refuse('states.error.not-safetensors', { file: file });
      if (base + end > buffer.byteLength) refuse('states.error.truncated', { file: file });
      total += end - begin;
      tensors[key] = { dtype: entry.dtype, shape: entry.shape, begin: base + begin, count: count };
    });
    if (total > MAX_BYTES) refuse('states.error.too-big', { file: file });
    return { tensors: tensors, metadata: (parsed.__metadata__ || {}).normgeo, view: view };
  }

  /** A states file's bytes → {model, text, tokens, layers: [{name, kind, eps, input, output, weight, bias}]},
   *  arrays as rows of float64 (tokens × n); refuses what normgeo_models.read_states refuses. */
  function parse(buffer, file) {
    var head = header(buffer, file), described;
    if (typeof head.metadata !== 'string') refuse('states.error.not-states', { file: file });
    try { described = JSON.parse(head.metadata); } catch (e) { refuse('states.error.not-states', { file: file }); }
    if (!described || described.format !== 'normgeo-states' || !Array.isArray(described.layers) || !described.layers.length) refuse('states.error.not-states', { file: file });
    var layers = described.layers.map(function (entry, index) {
      var name = String(entry && entry.name !== undefined ? entry.name : 'layer ' + index);
      if (!entry || KINDS.indexOf(entry.kind) < 0) refuse('states.error.kind', { file: file, layer: name });
      var eps = entry.eps === undefined ? 0 : entry.eps;
      if (typeof eps !== 'number' || !isFinite(eps) || eps < 0) refuse('states.error.eps', { file: file, layer: name });
      var parts = {};
      ['input', 'output', 'weight', 'bias'].forEach(function (part) {
        var key = 'layers/' + ('00' + index).slice(-3) + '/' + part, tensor = head.tensors[key];
        if (!tensor) {
          if (part === 'input' || (entry.parts || []).indexOf(part) >= 0) refuse('states.error.missing', { file: file, layer: name, part: part });
          return;
        }
        var values = decode(head.view, tensor.begin, tensor.count, tensor.dtype);
        for (var i = 0; i < values.length; i++) {
          if (!isFinite(values[i])) refuse('states.error.not-finite', { file: file, layer: name, part: part, value: String(values[i]), index: i });
        }
        parts[part] = { values: values, shape: tensor.shape };
      });
      var shape = parts.input.shape, n = shape[shape.length - 1];
      if (shape.length < 1 || !(n >= 2)) refuse('states.error.shape', { file: file, layer: name });
      if (Array.isArray(entry.shape) && entry.shape.join(',') !== shape.join(',')) refuse('states.error.shape', { file: file, layer: name });
      if (parts.output && parts.output.values.length !== parts.input.values.length) refuse('states.error.shape', { file: file, layer: name });
      ['weight', 'bias'].forEach(function (part) {
        if (parts[part] && parts[part].values.length !== n && (entry.kind === 'rmsnorm' || entry.kind === 'layernorm')) refuse('states.error.shape', { file: file, layer: name });
      });
      return { name: name, kind: entry.kind, eps: eps, n: n, input: rows(parts.input.values, n),
               output: parts.output ? rows(parts.output.values, n) : null,
               weight: parts.weight ? Array.from(parts.weight.values) : null, bias: parts.bias ? Array.from(parts.bias.values) : null };
    });
    return { model: String(described.model || ''), text: String(described.text || ''), tokens: (described.tokens || []).map(String), layers: layers };
  }

  function rows(values, n) {
    var out = [];
    for (var i = 0; i < values.length; i += n) out.push(Array.from(values.subarray(i, i + n)));
    return out;
  }

  /** scenes.kit.real_states.token_label: the GPT-2 space marker Ġ, SentencePiece's ▁ and WordPiece's ## removed. */
  function tokenLabel(token) {
    var plain = token.replace(/Ġ/g, '').replace(/▁/g, '');
    if (plain.slice(0, 2) === '##') plain = plain.slice(2);
    return plain || token;
  }

  function max(values) { return values.reduce(function (a, b) { return Math.max(a, b); }, -Infinity); }
  function min(values) { return values.reduce(function (a, b) { return Math.min(a, b); }, Infinity); }

  /** normgeo.layer_profile of one layer, reduced to depth_summary's row; null if the core refuses it. */
  function profile(layer) {
    var m = NG.math, centred = layer.kind === 'layernorm', x = layer.input;
    var norms = m.token_norms(x), shares = m.mean_share(x), angles = m.token_centring_angles(x);
    var radii = m.normalized_radius(x, layer.eps, centred), massive = m.massive_tokens(norms, FACTOR);
    if (!shares || !radii || !massive) return null;
    var normalized = x.map(function (row) { return m.normalize(row, centred, layer.eps); });
    var dimension = normalized.some(function (r) { return r === null; }) ? null : m.participation_ratio(normalized);
    var measured = layer.output ? m.captured_radii(layer.output, layer.weight, layer.bias) : null;
    var largest = max(norms);
    return { 'median-norm': m.median(norms), 'max-norm': largest, token: norms.indexOf(largest),
             'largest-ratio': massive.largest_ratio, 'massive-count': massive.indices.length,
             'median-share': m.median(shares), 'max-share': max(shares),
             'median-angle': angles ? m.median(angles) : null, 'max-angle': angles ? max(angles) : null,
             'min-radius': min(radii), 'max-radius': max(radii),
             'min-measured': measured ? min(measured) : null, 'max-measured': measured ? max(measured) : null,
             ratio: dimension ? dimension.ratio : null,
             bound: dimension ? Math.min(dimension.tokens - 1, centred ? layer.n - 1 : layer.n) : null,
             tokens: x.length, n: layer.n };
  }

  NG.statesFile = { parse: parse, profile: profile, tokenLabel: tokenLabel };

  NG.widgets.states = function (root, options) {
    var lang = options.lang;
    var t = function (key, vars) { return NG.t(lang, key, vars); };
    root.classList.add('ng-widget', 'ng-states');
    root.setAttribute('role', 'group');
    root.setAttribute('aria-label', t('states.label'));
    root.setAttribute('data-state', 'empty');
    root.innerHTML = '';

    var input = NG.el('input', { type: 'file', accept: '.safetensors', 'data-control': 'file', class: 'ng-drop-input' });
    var zone = NG.el('label', { class: 'ng-drop' }, [NG.el('span', { class: 'ng-drop-text', text: t('states.drop') }), input]);
    var privacy = NG.el('p', { class: 'ng-note', text: t('states.private') });
    var error = NG.el('p', { class: 'ng-error', role: 'alert', 'data-out': 'error' });
    var summary = NG.el('p', { class: 'ng-note', 'data-out': 'summary', 'aria-live': 'polite' });
    var result = NG.el('div', { class: 'ng-states-result' });
    [zone, privacy, error, summary, result].forEach(function (node) { root.appendChild(node); });

    ['dragenter', 'dragover'].forEach(function (type) {
      zone.addEventListener(type, function (event) { event.preventDefault(); zone.classList.add('ng-drop-over'); });
    });
    ['dragleave', 'drop'].forEach(function (type) {
      zone.addEventListener(type, function () { zone.classList.remove('ng-drop-over'); });
    });
    zone.addEventListener('drop', function (event) {
      event.preventDefault();
      var files = event.dataTransfer && event.dataTransfer.files;
      if (files && files.length) read(files[0]);
    });
    input.addEventListener('change', function () { if (input.files.length) read(input.files[0]); });

    function read(file) {
      root.setAttribute('data-state', 'reading');
      error.textContent = ''; summary.textContent = t('states.reading', { file: file.name }); result.innerHTML = '';
      var lower = file.name.toLowerCase();
      if (/\.(npz|npy)$/.test(lower)) return refused('states.error.numpy', { file: file.name });
      if (/\.(pt|pth|bin|pkl|pickle|ckpt)$/.test(lower)) return refused('states.error.pickle', { file: file.name });
      if (file.size > MAX_BYTES + (1 << 24)) return refused('states.error.too-big', { file: file.name });
      file.arrayBuffer().then(function (buffer) { show(buffer, file.name); }, function () { refused('states.error.unreadable', { file: file.name }); });
    }

    function refused(key, vars) {
      root.setAttribute('data-state', 'refused');
      summary.textContent = ''; result.innerHTML = '';
      error.textContent = t(key, vars);
    }

    var show = NG.timed('states', function (buffer, file) {
      var states;
      try { states = parse(buffer, file); } catch (e) {
        if (e.ngKey) return refused(e.ngKey, e.ngVars);
        throw e;
      }
      var shown = states.layers.filter(function (l) { return l.kind === 'rmsnorm' || l.kind === 'layernorm'; });
      if (shown.length === 0) return refused('states.error.no-layers', { file: file });
      var profiles = shown.map(profile);
      var bad = profiles.indexOf(null);
      if (bad >= 0) return refused('states.error.degenerate', { file: file, layer: shown[bad].name });
      var kinds = shown.map(function (l) { return l.kind; }).filter(function (k, i, all) { return all.indexOf(k) === i; });
      summary.textContent = t('states.summary', { model: states.model || file, n: shown.length, kinds: kinds.map(function (k) { return t('layer.' + k); }).join(', '),
                                                  tokens: profiles[0].tokens, width: profiles[0].n, root: Number.isInteger(Math.sqrt(profiles[0].n)) ? '= ' + Math.sqrt(profiles[0].n) : '≈ ' + NG.fmt(Math.sqrt(profiles[0].n), 3), factor: FACTOR })
        + (shown.length < states.layers.length ? ' ' + t('states.skipped', { n: states.layers.length - shown.length }) : '');
      result.appendChild(plot(profiles, kinds));
      result.appendChild(table(shown, profiles, states.tokens, kinds.length > 1));
      if (profiles.some(function (p) { return p['min-measured'] === null || p['median-angle'] === null; })) {
        result.appendChild(NG.el('p', { class: 'ng-note', 'data-out': 'dash-note', text: t('states.dash') }));
      }
      root.setAttribute('data-state', 'shown');
    });

    // as in the video: the median token in its layer's colour (the text colour for a file of both kinds),
    // the largest in the neutral emphasis
    function plot(profiles, kinds) {
      var medianColour = kinds.length > 1 ? 'fg' : kinds[0] === 'rmsnorm' ? 'rms' : 'ln';
      var values = [];
      profiles.forEach(function (p) { values.push(p['median-norm'], p['max-norm']); });
      var lo = Math.floor(Math.log10(min(values))), hi = Math.ceil(Math.log10(max(values)));
      if (hi === lo) hi = lo + 1;
      var x0 = LEFT + 6, dx = profiles.length > 1 ? (W - RIGHT - 6 - x0) / (profiles.length - 1) : 0, y0 = H - BOTTOM, y1 = TOP;
      var geometry = { x0: x0, dx: dx, y0: y0, y1: y1, lo: lo, hi: hi };
      var px = function (k) { return x0 + k * dx; };
      var py = function (v) { return y0 - (Math.log10(v) - lo) / (hi - lo) * (y0 - y1); };
      var svg = NG.svg('svg', { viewBox: '0 0 ' + W + ' ' + H, width: W, height: H, role: 'img', class: 'ng-states-plot',
                                'aria-label': t('states.figure', { n: profiles.length }), 'data-plot': JSON.stringify(geometry) });
      var axes = NG.svg('g', { stroke: 'var(--line)', fill: 'none' }, svg);
      NG.svg('line', { x1: LEFT, y1: y0, x2: W - RIGHT, y2: y0 }, axes);
      NG.svg('line', { x1: LEFT, y1: y0, x2: LEFT, y2: y1 }, axes);
      for (var e = lo; e <= hi; e++) {
        NG.svg('line', { x1: LEFT - 4, y1: py(Math.pow(10, e)), x2: W - RIGHT, y2: py(Math.pow(10, e)), 'stroke-opacity': e === lo ? 1 : 0.3 }, axes);
        NG.svg('text', { x: LEFT - 7, y: py(Math.pow(10, e)) + 4, 'text-anchor': 'end', class: 'ng-axis-label', text: NG.sci(Math.pow(10, e)) }, svg);
      }
      NG.svg('text', { x: px(0), y: H - 18, 'text-anchor': 'middle', class: 'ng-axis-label', text: '1' }, svg);
      NG.svg('text', { x: px(profiles.length - 1), y: H - 18, 'text-anchor': 'middle', class: 'ng-axis-label', text: String(profiles.length) }, svg);
      NG.svg('text', { x: (LEFT + W) / 2, y: H - 4, 'text-anchor': 'middle', class: 'ng-axis-label', text: t('states.axis') }, svg);
      [['max', 'var(--emphasis)'], ['median', 'var(--' + medianColour + ')']].forEach(function (pair) {
        var key = pair[0] + '-norm';
        NG.svg('polyline', { fill: 'none', stroke: pair[1], 'stroke-width': 2, 'data-line': pair[0],
                             points: profiles.map(function (p, k) { return px(k).toFixed(3) + ',' + py(p[key]).toFixed(3); }).join(' ') }, svg);
        profiles.forEach(function (p, k) {
          NG.svg('circle', { cx: px(k), cy: py(p[key]), r: 3, fill: pair[1], 'data-series': pair[0], 'data-layer': k, 'data-value': NG.exact(p[key]) }, svg);
        });
      });
      var figure = NG.el('div', { class: 'ng-figure' }, []);
      figure.appendChild(svg);
      figure.appendChild(NG.legend([[medianColour, t('states.legend.median')], ['emphasis', t('states.legend.max')]]));
      return figure;
    }

    function number(value) {
      if (value === null) return '—';
      return Math.abs(value) >= 1e5 || (value !== 0 && Math.abs(value) < 1e-3) ? NG.sci(value, 2) : NG.fmt(value, value >= 100 ? 1 : 3);
    }

    function table(layers, profiles, tokens, mixed) {
      var columns = [
        ['median-norm', t('states.col.median-norm')], ['max-norm', t('states.col.max-norm')], ['largest-ratio', t('states.col.largest-ratio')],
        ['massive-count', t('states.col.massive-count', { factor: FACTOR })], ['median-share', t('states.col.median-share')], ['max-share', t('states.col.max-share')],
        ['median-angle', t('states.col.median-angle')], ['max-angle', t('states.col.max-angle')],
        ['min-radius', t('states.col.min-radius')], ['max-radius', t('states.col.max-radius')],
        ['min-measured', t('states.col.min-measured')], ['max-measured', t('states.col.max-measured')], ['ratio', t('states.col.ratio')],
      ];
      var head = NG.el('tr', {}, [NG.el('th', { scope: 'col', text: t('states.col.layer') })].concat(columns.map(function (c) { return NG.el('th', { scope: 'col', text: c[1] }); })));
      var body = NG.el('tbody');
      profiles.forEach(function (p, k) {
        var row = NG.el('tr', { 'data-layer': k }, [NG.el('th', { scope: 'row' }, [NG.el('span', { class: 'ng-call', text: String(k + 1) }), ' ' + layers[k].name + (mixed ? ' (' + t('layer.' + layers[k].kind) + ')' : '')])]);
        columns.forEach(function (c) {
          var name = c[0], cell = NG.el('td', { 'data-stat': name });
          var value = p[name];
          if (name === 'massive-count') { cell.setAttribute('data-value', String(value)); cell.textContent = String(value); }
          else {
            var degrees = /angle/.test(name);
            NG.showValue(cell, value, function (v) { return degrees ? NG.fmt(v * 180 / Math.PI, 2) + '°' : number(v); });
            if (name === 'ratio' && p.bound !== null) { cell.setAttribute('data-bound', String(p.bound)); cell.textContent += ' / ' + p.bound; }
            if (name === 'max-norm') { cell.setAttribute('data-token', String(p.token)); cell.textContent += ' (' + (tokens[p.token] !== undefined ? tokenLabel(tokens[p.token]) + ', ' : '') + '#' + (p.token + 1) + ')'; }
          }
          row.appendChild(cell);
        });
        body.appendChild(row);
      });
      var wrap = NG.el('div', { class: 'ng-states-table', tabindex: '0', role: 'region', 'aria-label': t('states.table') });
      wrap.appendChild(NG.el('table', {}, [NG.el('thead', {}, [head]), body]));
      return wrap;
    }

    return { read: read };
  };
})();
