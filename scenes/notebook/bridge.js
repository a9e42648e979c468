/* The notebook's side of a normgeo widget: the site's widget (its script from scenes/web, loaded above
 * this in the same module) mounted inside a shadow root, its inputs set from the model's traits and the
 * numbers it draws sent back as traits. Nothing here computes: every number is read from the DOM the
 * site's script drew (data-value, data-x, data-points…), the same attributes the site's tests read.
 *
 * Python writes the site's scripts before this text, and NAME (the widget's name), INPUTS (the traits
 * that are its inputs) and STYLE (palette.css and site.css, scoped to the shadow root).
 */
const NG = window.NormGeo;

function num(text) {
  if (text === null || text === undefined || text === '') return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}
function attr(node, name) { return node ? num(node.getAttribute(name)) : null; }
function hasNull(value) { return value === null || (Array.isArray(value) && value.some(hasNull)); }
function field(root, name) { return root.querySelector('[data-control="' + name + '"]'); }
function outValue(root, name) { return attr(root.querySelector('[data-out="' + name + '"]'), 'data-value'); }
function outText(root, name) { const node = root.querySelector('[data-out="' + name + '"]'); return node ? node.textContent : ''; }
/** A number as the field shows it: the shortest text that parses back to it, small ones as 1e-5 (as the
 *  site's grid writes its ε) rather than 0.00001. */
function fieldText(value) { return value !== 0 && Math.abs(value) < 1e-3 ? value.toExponential() : String(value); }
function setText(root, name, value) { field(root, name).value = fieldText(value); }
function setRange(root, name, value) { field(root, name).value = String(value); }
function point(root, name) {
  const node = root.querySelector('[data-point="' + name + '"]');
  const x = attr(node, 'data-x'), y = attr(node, 'data-y');
  return x === null || y === null ? null : [x, y];
}
function vec3(root, name) {
  const node = root.querySelector('[data-vec="' + name + '"]');
  const v = [attr(node, 'data-x1'), attr(node, 'data-x2'), attr(node, 'data-x3')];
  return v.some(function (c) { return c === null; }) ? null : v;
}

/** Per widget: apply(root, widget, model) sets its inputs from the traits and redraws once;
 *  read(root, widget) → {trait: value} for its inputs as the widget took them and every number shown. */
const ADAPTERS = {
  'vector-2d': {
    apply(root, w, model) {
      const x = model.get('x'), gamma = model.get('gamma'), beta = model.get('beta');
      setText(root, 'x1', x[0]); setText(root, 'x2', x[1]); setText(root, 'eps', model.get('eps'));
      setRange(root, 'gamma1', gamma[0]); setRange(root, 'gamma2', gamma[1]);
      setRange(root, 'beta1', beta[0]); setRange(root, 'beta2', beta[1]);
      w.redraw();
    },
    read(root, w) {
      const eps = attr(root, 'data-eps');
      return {
        x: w.state.x.slice(), eps: eps,
        gamma: [attr(root, 'data-gamma1'), attr(root, 'data-gamma2')],
        beta: [attr(root, 'data-beta1'), attr(root, 'data-beta2')],
        norm_x: outValue(root, 'norm-x'), mu: outValue(root, 'mu'), sigma: outValue(root, 'sigma'),
        norm_rms: outValue(root, 'norm-rms'), norm_layernorm: outValue(root, 'norm-layernorm'),
        l2: point(root, 'l2'), rms: point(root, 'rms'), layernorm: point(root, 'layernorm'),
        rms_affine: point(root, 'rms-affine'), layernorm_affine: point(root, 'layernorm-affine'),
        message: outText(root, 'message'),
      };
    },
  },
  'layernorm-3d': {
    apply(root, w, model) {
      const x = model.get('x');
      setText(root, 'x1', x[0]); setText(root, 'x2', x[1]); setText(root, 'x3', x[2]); setText(root, 'eps', model.get('eps'));
      w.state.azimuth = model.get('azimuth');
      w.state.elevation = model.get('elevation');
      w.redraw();
    },
    read(root, w) {
      return {
        x: w.state.x.slice(), eps: attr(root, 'data-eps'),
        azimuth: attr(root, 'data-azimuth'), elevation: attr(root, 'data-elevation'),
        mu: outValue(root, 'mu'), sigma: outValue(root, 'sigma'), norm_hat: outValue(root, 'norm-hat'),
        mean_part: vec3(root, 'mean-part'), centred_part: vec3(root, 'centred'), hat: vec3(root, 'hat'),
        message: outText(root, 'message'),
      };
    },
  },
  conditioning: {
    apply(root, w, model) {
      setRange(root, 'scale', model.get('log10_scale'));
      setRange(root, 'rho', model.get('rho'));
      w.redraw();
    },
    read(root) {
      const path = function (name) {
        const node = root.querySelector('[data-path="' + name + '"]');
        return node ? JSON.parse(node.getAttribute('data-points')) : null;
      };
      const values = { log10_scale: num(field(root, 'scale').value), rho: attr(root, 'data-rho'), scale: attr(root, 'data-scale') };
      ['kappa', 'step-limit', 'step', 'steps'].forEach(function (row) {
        ['raw', 'standardized'].forEach(function (kind) {
          values[row.replace('-', '_') + '_' + kind] = outValue(root, row + '-' + kind);
        });
      });
      values.path_raw = path('raw');
      values.path_standardized = path('standardized');
      return values;
    },
  },
  grid: {
    apply(root, w, model) {
      w.set({ texts: model.get('values').map(function (row) { return row.map(fieldText); }), eps: fieldText(model.get('eps')),
             groups: model.get('groups'), layer: model.get('layer') });
    },
    read(root, w) {
      const rows = w.state.texts.length, cols = w.state.texts[0].length;
      const table = function (make) {
        const out = [];
        for (let r = 0; r < rows; r++) { out.push([]); for (let c = 0; c < cols; c++) out[r].push(make(r, c)); }
        return out;
      };
      const cell = function (r, c) { return root.querySelector('[data-out-row="' + r + '"][data-out-col="' + c + '"]'); };
      const stat = function (name) {
        const list = [];
        for (let r = 0; r < rows; r++) list.push(attr(root.querySelector('[data-stat="' + name + '"][data-row="' + r + '"]'), 'data-value'));
        return list;
      };
      const shown = w.state.layer === 'rmsnorm';
      return {
        values: table(function (r, c) { return num(String(w.state.texts[r][c]).trim().replace(/\u2212/g, '-').replace(',', '.')); }),
        layer: w.state.layer, groups: w.state.groups, eps: attr(root, 'data-eps'),
        outputs: table(function (r, c) { return attr(cell(r, c), 'data-value'); }),
        group_labels: table(function (r, c) { return num(cell(r, c).getAttribute('data-group')); }),
        row_rms: shown ? stat('rms') : null, row_mean: shown ? stat('mean') : null,
        averaged_over: outText(root, 'averaged-over'), message: outText(root, 'message'),
      };
    },
  },
  states: {
    apply(root, w, model) {  // the file's bytes, read by the site's own reader as a dropped file is
      const data = model.get('file');
      if (!data || !data.byteLength) return;
      const file = new File([data], model.get('file_name') || 'states.safetensors');
      const chosen = new DataTransfer();  // the file field names it, as if chosen there (no change event)
      chosen.items.add(file);
      field(root, 'file').files = chosen.files;
      w.read(file);
    },
    read(root) {
      const layers = [];
      root.querySelectorAll('tr[data-layer]').forEach(function (tr) {
        const row = {};
        tr.querySelectorAll('td[data-stat]').forEach(function (td) {
          row[td.getAttribute('data-stat').replace(/-/g, '_')] = attr(td, 'data-value');
          if (td.hasAttribute('data-token')) row.max_norm_token = attr(td, 'data-token');
        });
        layers.push(row);
      });
      return { state: root.getAttribute('data-state'), error: outText(root, 'error'), summary: outText(root, 'summary'),
               layers: layers };
    },
  },
};

/** The theme the widget is drawn in: the trait's, or for "auto" JupyterLab's own (light or dark),
 *  else the reader's system setting (no data-theme: the palette's prefers-color-scheme rule). */
function resolvedTheme(theme) {
  if (theme === 'dark' || theme === 'light') return theme;
  const light = document.body && document.body.getAttribute('data-jp-theme-light');
  if (light === 'true') return 'light';
  if (light === 'false') return 'dark';
  return null;
}

function render({ model, el }) {
  const adapter = ADAPTERS[NAME];
  const shadow = el.shadowRoot || el.attachShadow({ mode: 'open' });
  let frame = null, root = null, widget = null, lang = 'en', sent = '', sending = false;

  function send() {  // what the widget shows now, to Python (only what changed)
    const values = adapter.read(root, widget);
    const text = JSON.stringify(values);
    if (text === sent) return;
    sent = text;
    sending = true;  // not an input from Python: the fields keep what the person is typing
    try {
      Object.keys(values).forEach(function (name) {
        // an input the person left unreadable (a field being typed) keeps its last good value in Python
        if (INPUTS.indexOf(name) >= 0 && hasNull(values[name])) return;
        model.set(name, values[name]);
      });
    } finally { sending = false; }
    try { model.save_changes(); } catch (e) { /* a static HTML export has no kernel to send to */ }
  }
  function applyTheme() {
    const theme = resolvedTheme(model.get('theme'));
    if (theme) frame.setAttribute('data-theme', theme); else frame.removeAttribute('data-theme');
  }
  function fromModel() { NG.lang = lang; adapter.apply(root, widget, model); send(); }
  function mount() {
    shadow.innerHTML = '';
    const style = document.createElement('style');
    style.textContent = STYLE;
    frame = document.createElement('div');
    frame.className = 'ng-root';
    root = document.createElement('div');
    root.setAttribute('data-widget', NAME);
    frame.appendChild(root);
    shadow.appendChild(style);
    shadow.appendChild(frame);
    lang = model.get('lang');
    frame.setAttribute('lang', lang);
    applyTheme();
    NG.lang = lang;  // the site keeps one language per page: set it before anything of this widget runs
    widget = NG.widgets[NAME](root, { lang: lang, theme: null });
    fromModel();
  }
  // before a person's input (typing, a slider, dragging, keys, a tab) reaches the widget's own handlers:
  // its numbers are written in its language, whatever the other widgets of the page speak
  ['input', 'pointerdown', 'pointermove', 'keydown', 'click', 'focusin'].forEach(function (type) {
    shadow.addEventListener(type, function () { NG.lang = lang; }, true);
  });
  // whatever redrew the widget (a person's input, or Python's), what it now shows goes to Python
  const observer = new MutationObserver(function () { if (root) send(); });
  observer.observe(shadow, { subtree: true, attributes: true, childList: true, characterData: true });
  const themeWatch = new MutationObserver(function () { if (frame) applyTheme(); });
  if (document.body) themeWatch.observe(document.body, { attributes: true, attributeFilter: ['data-jp-theme-light'] });

  mount();
  const fromPython = function (then) { return function () { if (!sending) then(); }; };
  const handlers = [['change:lang', fromPython(mount)], ['change:theme', fromPython(applyTheme)]]
    .concat(INPUTS.map(function (name) { return ['change:' + name, fromPython(fromModel)]; }));
  handlers.forEach(function (pair) { model.on(pair[0], pair[1]); });
  return function () {
    observer.disconnect(); themeWatch.disconnect();
    handlers.forEach(function (pair) { model.off(pair[0], pair[1]); });
  };
}

export default { render };
