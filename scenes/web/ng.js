/* normgeo widgets: the small shared helper (no framework, no build step, nothing fetched).
 *
 * Every widget is a function NormGeo.widgets[name](root, options) that builds its DOM inside
 * `root` (which carries data-widget="name"), keeps its state in one object and redraws
 * everything from that state on every input. Numbers follow normgeo's numpy core operation
 * for operation (float64), so the browser tests can compare them at 1e-12.
 */
(function () {
  'use strict';
  var NG = (window.NormGeo = window.NormGeo || {});
  NG.widgets = NG.widgets || {};
  var SVGNS = 'http://www.w3.org/2000/svg';
  var LANGS = ['en', 'zh', 'ru'];

  /** UI text: NORMGEO_TEXT[key][lang], with {name} placeholders filled from vars. */
  NG.t = function (lang, key, vars) {
    var table = window.NORMGEO_TEXT || {};
    var entry = table[key];
    var text = entry ? (entry[lang] || entry.en) : key;
    if (vars) {
      text = text.replace(/\{(\w+)\}/g, function (m, name) {
        return Object.prototype.hasOwnProperty.call(vars, name) ? String(vars[name]) : m;
      });
    }
    return text;
  };

  /** ?lang= and ?theme= of the page (falling back to <html lang> and the colour scheme). */
  NG.params = function () {
    var query = new URLSearchParams(window.location.search);
    var lang = query.get('lang');
    if (LANGS.indexOf(lang) < 0) lang = document.documentElement.lang || 'en';
    if (LANGS.indexOf(lang) < 0) lang = 'en';
    var theme = query.get('theme');
    if (theme !== 'dark' && theme !== 'light') theme = null;
    return { lang: lang, theme: theme };
  };

  NG.applyTheme = function (theme) {
    var root = document.documentElement;
    if (theme) root.setAttribute('data-theme', theme); else root.removeAttribute('data-theme');
  };

  NG.effectiveTheme = function () {
    var set = document.documentElement.getAttribute('data-theme');
    if (set) return set;
    return window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  };

  /** document.createElement with attributes, text and children. */
  NG.el = function (tag, attrs, children) {
    var node = document.createElement(tag);
    NG.setAttrs(node, attrs);
    (children || []).forEach(function (child) {
      node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
    });
    return node;
  };

  NG.svg = function (tag, attrs, parent) {
    var node = document.createElementNS(SVGNS, tag);
    NG.setAttrs(node, attrs);
    if (parent) parent.appendChild(node);
    return node;
  };

  NG.setAttrs = function (node, attrs) {
    if (!attrs) return node;
    Object.keys(attrs).forEach(function (name) {
      var value = attrs[name];
      if (value === null || value === undefined || value === false) node.removeAttribute(name);
      else if (name === 'text') node.textContent = value;
      else node.setAttribute(name, value === true ? '' : String(value));
    });
    return node;
  };

  /** Full precision for data-value: the shortest text that parses back to the same float64. */
  NG.exact = function (x) { return String(x); };

  /** The language numbers are written in (set by mountAll): the videos' conventions, from CLDR —
   *  English and Chinese 0.6, Russian 0,6; the minus sign is U+2212 everywhere. */
  NG.lang = 'en';
  NG.decimalSign = function () { return NG.lang === 'ru' ? ',' : '.'; };
  /** Between a vector's entries: ", ", or "; " where the decimal sign is a comma. */
  NG.listSep = function () { return NG.lang === 'ru' ? '; ' : ', '; };

  /** Rounded text for people: fixed decimals in the language's conventions, never "−0.000". */
  NG.fmt = function (x, digits) {
    if (!isFinite(x)) return '—';
    var d = digits === undefined ? 3 : digits;
    var abs = Math.abs(x);
    if (abs !== 0 && (abs >= 1e6 || abs < Math.pow(10, -d))) return NG.sci(x, 3);
    var text = x.toFixed(d);
    if (/^-0\.?0*$/.test(text)) { text = text.slice(1); x = 0; }
    try {
      text = new Intl.NumberFormat(NG.lang, { minimumFractionDigits: d, maximumFractionDigits: d }).format(Number(text));
    } catch (e) { text = text.replace('.', NG.decimalSign()); }
    return text.replace(/^[-\u2212]/, '−');
  };

  /** Scientific notation with a superscript exponent: 1.23·10⁸. */
  NG.sci = function (x, digits) {
    if (x === 0) return '0';
    var exponent = Math.floor(Math.log10(Math.abs(x)));
    var mantissa = x / Math.pow(10, exponent);
    if (Math.abs(mantissa) >= 9.9995) { mantissa /= 10; exponent += 1; }
    var sup = String(exponent).replace(/[-0-9]/g, function (c) { return '⁻⁰¹²³⁴⁵⁶⁷⁸⁹'.charAt('-0123456789'.indexOf(c)); });
    var m = mantissa.toFixed(digits === undefined ? 3 : digits).replace(/\.?0+$/, '').replace('.', NG.decimalSign());
    if (exponent === 0) return m.replace('-', '−');
    return (m === '1' ? '' : m.replace('-', '−') + '·') + '10' + sup;
  };

  /** Largest magnitude accepted in a number field: beyond it, squares overflow float64. */
  NG.LIMIT = 1e150;

  /**
   * Parse what a person typed. Returns {ok: true, value} or {ok: false, reason} with reason one of
   * "empty", "not-number", "too-large", "negative" (when opts.nonnegative).
   * Accepts a decimal comma and the typographic minus sign.
   */
  NG.parse = function (text, opts) {
    var s = String(text).trim().replace(/\u2212/g, '-');
    if (s === '') return { ok: false, reason: 'empty' };
    if (s.indexOf('.') < 0 && /^[+-]?\d*,\d*([eE][+-]?\d+)?$/.test(s)) s = s.replace(',', '.');
    if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) return { ok: false, reason: 'not-number' };
    var value = parseFloat(s);
    if (!isFinite(value) || Math.abs(value) > NG.LIMIT) return { ok: false, reason: 'too-large' };
    if (opts && opts.nonnegative && value < 0) return { ok: false, reason: 'negative' };
    return { ok: true, value: value };
  };

  /** Sum in order, as numpy does for fewer than eight numbers. */
  NG.sum = function (values) {
    var total = 0;
    for (var i = 0; i < values.length; i++) total += values[i];
    return total;
  };

  NG.mean = function (values) { return NG.sum(values) / values.length; };

  /**
   * normgeo.normalize on one group: (x − μ)/√(σ² + ε), or x/√(mean(x²) + ε) without centring.
   * Mirrors the core: computed on x/s with s = max(max|xᵢ|, √ε). Returns null when the group is
   * constant (σ = 0) or zero (RMS = 0) at ε = 0, where the core raises.
   */
  NG.normalizeGroup = function (values, centre, eps) {
    var largest = 0;
    for (var i = 0; i < values.length; i++) largest = Math.max(largest, Math.abs(values[i]));
    var scale = Math.max(largest, Math.sqrt(eps));
    var safe = scale > 0 ? scale : 1.0;
    var scaled = values.map(function (v) { return v / safe; });
    if (centre) {
      var mu = NG.mean(scaled);
      scaled = scaled.map(function (v) { return v - mu; });
    }
    var relativeEps = Math.sqrt(eps) / safe;
    var second = NG.mean(scaled.map(function (v) { return v * v; })) + relativeEps * relativeEps;
    if (second === 0) return null;
    var root = Math.sqrt(second);
    return scaled.map(function (v) { return v / root; });
  };

  /** Eigenvalues of the symmetric 2×2 [[a, b], [b, c]] as LAPACK's dlae2 computes them:
   *  {rt1 (larger in magnitude), rt2}. Accurate smaller eigenvalue even when κ is 10⁸. */
  NG.dlae2 = function (a, b, c) {
    var sm = a + c, df = a - c, adf = Math.abs(df), tb = b + b, ab = Math.abs(tb);
    var acmx, acmn, rt, rt1, rt2;
    if (Math.abs(a) > Math.abs(c)) { acmx = a; acmn = c; } else { acmx = c; acmn = a; }
    if (adf > ab) rt = adf * Math.sqrt(1 + (ab / adf) * (ab / adf));
    else if (adf < ab) rt = ab * Math.sqrt(1 + (adf / ab) * (adf / ab));
    else rt = ab * Math.sqrt(2);
    var sgn1;
    if (sm < 0) { rt1 = 0.5 * (sm - rt); sgn1 = -1; rt2 = (acmx / rt1) * acmn - (b / rt1) * b; }
    else if (sm > 0) { rt1 = 0.5 * (sm + rt); sgn1 = 1; rt2 = (acmx / rt1) * acmn - (b / rt1) * b; }
    else { rt1 = 0.5 * rt; rt2 = -0.5 * rt; sgn1 = 1; }
    return { rt1: rt1, rt2: rt2, sm: sm, df: df, rt: rt, tb: tb, ab: ab, sgn1: sgn1 };
  };

  /** LAPACK's dlaev2: eigenvalues and the unit eigenvector (cs1, sn1) of rt1. */
  NG.dlaev2 = function (a, b, c) {
    var r = NG.dlae2(a, b, c);
    var cs, sgn2;
    if (r.df >= 0) { cs = r.df + r.rt; sgn2 = 1; } else { cs = r.df - r.rt; sgn2 = -1; }
    var acs = Math.abs(cs), cs1, sn1, ct, tn;
    if (acs > r.ab) { ct = -r.tb / cs; sn1 = 1 / Math.sqrt(1 + ct * ct); cs1 = ct * sn1; }
    else if (r.ab === 0) { cs1 = 1; sn1 = 0; }
    else { tn = -cs / r.tb; cs1 = 1 / Math.sqrt(1 + tn * tn); sn1 = tn * cs1; }
    if (r.sgn1 === sgn2) { tn = cs1; cs1 = -sn1; sn1 = tn; }
    return { rt1: r.rt1, rt2: r.rt2, cs1: cs1, sn1: sn1 };
  };

  /** Ascending eigenvalues of [[a, b], [b, c]] as numpy.linalg.eigvalsh (LAPACK dsterf) finds them. */
  NG.eigvalsh2 = function (a, b, c) {
    var eps = Math.pow(2, -53);
    if (Math.abs(b) <= Math.sqrt(Math.abs(a)) * Math.sqrt(Math.abs(c)) * eps) b = 0;
    var e2 = b * b;
    var values;
    if (b === 0 || Math.abs(e2) <= eps * eps * Math.abs(a * c)) values = [a, c];
    else { var r = NG.dlae2(a, Math.sqrt(e2), c); values = [r.rt1, r.rt2]; }
    return values.sort(function (p, q) { return p - q; });
  };

  /** Performance: wrap a redraw so that each one leaves a measure named "normgeo:<widget>". */
  NG.timed = function (name, fn) {
    return function () {
      var start = performance.now();
      var result = fn.apply(this, arguments);
      var end = performance.now();
      try { performance.measure('normgeo:' + name, { start: start, end: end }); } catch (e) { /* old browsers */ }
      return result;
    };
  };

  /** Mount every [data-widget] element of the document (or under `scope`). */
  NG.mountAll = function (scope, options) {
    var nodes = (scope || document).querySelectorAll('[data-widget]');
    Array.prototype.forEach.call(nodes, function (node) {
      var name = node.getAttribute('data-widget');
      if (node.ngMounted || !NG.widgets[name]) return;
      NG.lang = (options || NG.params()).lang || 'en';
      node.ngMounted = true;
      node.ngWidget = NG.widgets[name](node, options || NG.params());
    });
  };

  /** Pointer position in an SVG's user coordinates. */
  NG.svgPoint = function (svg, event) {
    var pt = svg.createSVGPoint();
    pt.x = event.clientX; pt.y = event.clientY;
    return pt.matrixTransform(svg.getScreenCTM().inverse());
  };

  /** A labelled field: <label>text <input></label> plus a message slot. */
  NG.field = function (labelText, input, extraClass) {
    var label = NG.el('label', { class: 'ng-field' + (extraClass ? ' ' + extraClass : '') }, [NG.el('span', { class: 'ng-field-label', text: labelText }), input]);
    return label;
  };

  NG.markInvalid = function (input, message, messageNode) {
    if (message) {
      input.setAttribute('aria-invalid', 'true');
      input.classList.add('ng-invalid');
      input.title = message;
    } else {
      input.removeAttribute('aria-invalid');
      input.classList.remove('ng-invalid');
      input.removeAttribute('title');
    }
    if (messageNode !== undefined) messageNode.textContent = message || '';
  };

  NG.reasonText = function (lang, reason) { return NG.t(lang, 'error.' + reason, { limit: '10¹⁵⁰' }); };
})();
