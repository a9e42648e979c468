/* normgeo widgets: the shared UI pieces (no framework, no build step, nothing fetched): text and
 * numbers in the page's language, fields, outputs, legends, dragging. The math is in ng-math.js.
 *
 * Every widget is a function NormGeo.widgets[name](root, options) that builds its DOM inside
 * `root` (which carries data-widget="name"), keeps its state in one object and redraws
 * everything from that state on every input.
 */
(function () {
  'use strict';
  var NG = (window.NormGeo = window.NormGeo || {});
  NG.widgets = NG.widgets || {};
  var SVGNS = 'http://www.w3.org/2000/svg';
  var LANGS = ['en', 'zh', 'ru'];

  /** UI text: NORMGEO_TEXT[key][lang] filled as the kit fills the scenes' text (scenes/kit/text.py):
   *  {name} is vars[name]; {n, plural, one {# step} few {…} many {…} other {…}} is the branch of the
   *  CLDR plural category of vars.n in ``lang`` (Intl.PluralRules), # standing for vars.n as given;
   *  {{ and }} are literal braces. */
  NG.t = function (lang, key, vars) {
    var table = window.NORMGEO_TEXT || {};
    var entry = table[key];
    var text = entry ? (entry[lang] || entry.en) : key;
    return NG.fill(text, vars || {}, lang);
  };

  NG.fill = function (template, vars, lang) {
    var out = sequence(template, 0, true, vars, lang, null);
    return out.text;
  };

  function sequence(template, position, top, vars, lang, hash) {
    var text = '';
    while (position < template.length) {
      var char = template.charAt(position);
      if (template.substr(position, 2) === '{{') { text += '{'; position += 2; }
      else if (top && template.substr(position, 2) === '}}') { text += '}'; position += 2; }
      else if (char === '{') { var p = placeholder(template, position + 1, vars, lang); text += p.text; position = p.position; }
      else if (char === '}') break;
      else if (char === '#' && hash !== null) { text += hash; position += 1; }
      else { text += char; position += 1; }
    }
    return { text: text, position: position };
  }

  function placeholder(template, position, vars, lang) {
    var name = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*/.exec(template.slice(position));
    if (!name) return { text: '{', position: position };
    position += name[0].length;
    var key = name[1];
    var has = Object.prototype.hasOwnProperty.call(vars, key);
    if (template.charAt(position) === '}') return { text: has ? String(vars[key]) : '{' + key + '}', position: position + 1 };
    var plural = /^,\s*plural\s*,/.exec(template.slice(position));
    if (!plural) return { text: '{' + key, position: position };
    position += plural[0].length;
    var category = 'other';
    try { category = new Intl.PluralRules(lang).select(Number(String(vars[key]).replace(',', '.').replace(/\s/g, ''))); } catch (e) { /* other */ }
    var branches = {};
    for (;;) {
      var branch = /^\s*(zero|one|two|few|many|other)\s*\{/.exec(template.slice(position));
      if (!branch) break;
      var body = sequence(template, position + branch[0].length, false, vars, lang, has ? String(vars[key]) : '#');
      branches[branch[1]] = body.text;
      position = body.position + 1;
    }
    var closing = /^\s*\}/.exec(template.slice(position));
    position += closing ? closing[0].length : 0;
    var chosen = branches[category] !== undefined ? branches[category] : branches.other;
    return { text: chosen === undefined ? '' : chosen, position: position };
  }

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
    return NG.fixed(x, d);
  };

  /** A vector's entries with one precision for all: 3 significant digits of its largest entry,
   *  so rounding noise far below them (6.9·10⁻¹⁸ beside 0.04) reads 0, as the row above does. */
  NG.fmtVector = function (values, significant) {
    var largest = 0;
    values.forEach(function (v) { largest = Math.max(largest, Math.abs(v)); });
    var digits = significant === undefined ? 3 : significant;
    var text;
    if (largest !== 0 && (largest >= 1e6 || largest < 1e-3)) {
      text = values.map(function (v) { return Math.abs(v) < largest * 1e-12 ? '0' : NG.sci(v, digits - 1); });
    } else {
      var decimals = largest === 0 ? digits : Math.max(0, digits - 1 - Math.floor(Math.log10(largest)));
      text = values.map(function (v) { return NG.fixed(v, decimals); });
    }
    return '(' + text.join(NG.listSep()) + ')';
  };

  /** Fixed decimals in the language's conventions (never "−0.000"), without switching to 10ⁿ. */
  NG.fixed = function (x, decimals) {
    var text = x.toFixed(decimals);
    if (/^-0\.?0*$/.test(text)) text = text.slice(1);
    try {
      text = new Intl.NumberFormat(NG.lang, { minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(Number(text));
    } catch (e) { text = text.replace('.', NG.decimalSign()); }
    return text.replace(/^[-\u2212]/, '−');
  };

  /** A dragged coordinate rounded to what one pixel can tell apart: ``unitsPerPixel`` → decimals. */
  NG.roundToPixel = function (value, unitsPerPixel) {
    var decimals = Math.max(0, Math.ceil(-Math.log10(unitsPerPixel)));
    var rounded = Number(value.toFixed(decimals));
    return rounded === 0 ? 0 : rounded;  // never −0
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

  /** A text field for a number: <label>label <input data-control=name></label>; calls onInput. */
  NG.numberField = function (name, value, label, onInput, size) {
    var input = NG.el('input', { type: 'text', inputmode: 'decimal', size: size || 7, 'data-control': name, value: value, spellcheck: 'false', autocomplete: 'off' });
    input.addEventListener('input', onInput);
    return NG.field(label, input);
  };

  /** A slider with its value shown beside it in an <output data-out="<name>-shown">. */
  NG.rangeField = function (name, min, max, step, value, label, onInput) {
    var input = NG.el('input', { type: 'range', min: min, max: max, step: step, value: value, 'data-control': name });
    var shown = NG.el('output', { class: 'ng-value', 'data-out': name + '-shown' });
    input.addEventListener('input', onInput);
    var field = NG.field(label, input);
    field.appendChild(shown);
    return field;
  };

  /** Read a number field: the value, or null with the field marked and the reason pushed on ``messages``. */
  NG.readNumber = function (lang, input, opts, messages) {
    var parsed = NG.parse(input.value, opts);
    if (!parsed.ok) {
      var name = input.closest('label').querySelector('.ng-field-label').textContent;
      var text = NG.t(lang, 'v2.error.field', { name: name, reason: NG.reasonText(lang, parsed.reason) });
      NG.markInvalid(input, text);
      messages.push(text);
      return null;
    }
    NG.markInvalid(input, null);
    return parsed.value;
  };

  /** Show a number: data-value at full precision, the text rounded (``format`` or NG.fmt(·, 3)); null → "—". */
  NG.showValue = function (node, value, format) {
    if (value === null || value === undefined) { node.removeAttribute('data-value'); node.textContent = '—'; return; }
    node.setAttribute('data-value', NG.exact(value));
    node.textContent = format ? format(value) : NG.fmt(value, 3);
  };

  /** A legend: [[custom property, text], …] as colour swatches with their words. */
  NG.legend = function (items) {
    var legend = NG.el('p', { class: 'ng-legend' });
    items.forEach(function (item) {
      var swatch = NG.el('span', { class: 'ng-swatch', 'aria-hidden': 'true' });
      swatch.style.background = 'var(--' + item[0] + ')';
      legend.appendChild(NG.el('span', { class: 'ng-legend-item', 'data-legend': item[0] }, [swatch, item[1]]));
    });
    return legend;
  };

  /** Dragging on an SVG with mouse, pen or touch: handlers.start(event) (return false to ignore),
   *  handlers.move(event) while the pointer is held (captured), handlers.end(). */
  NG.drag = function (svg, handlers) {
    var active = false;
    svg.addEventListener('pointerdown', function (event) {
      if (handlers.start && handlers.start(event) === false) return;
      active = true;
      svg.setPointerCapture(event.pointerId);
      if (handlers.move) handlers.move(event);
      event.preventDefault();
    });
    svg.addEventListener('pointermove', function (event) { if (active && handlers.move) handlers.move(event); });
    var stop = function () { if (!active) return; active = false; if (handlers.end) handlers.end(); };
    svg.addEventListener('pointerup', stop);
    svg.addEventListener('pointercancel', stop);
  };

  NG.reasonText = function (lang, reason) { return NG.t(lang, 'error.' + reason, { limit: '10¹⁵⁰' }); };
})();
