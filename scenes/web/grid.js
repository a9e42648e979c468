/* grid: the Russian lesson's 4×4 grid (rows = batch, columns = features) under every layer.
 *
 * Contract (tests and bloggers script against it):
 *   root                      data-widget="grid", data-layer (current tab), data-groups, data-eps
 *   inputs                    input[data-row][data-col]
 *   tabs                      button[data-layer="none|batchnorm|layernorm|rmsnorm|groupnorm"] (aria-pressed)
 *   controls                  [data-control="groups"] (select), [data-control="eps"] (text)
 *   outputs                   [data-out-row][data-out-col] with data-value (full precision; absent when
 *                             the cell cannot be computed) and data-group (cells with equal labels share μ, σ)
 *   RMSNorm row statistics    [data-stat="rms"|"mean"][data-row] with data-value (RMS and mean of each output row)
 *   averaged over             [data-out="averaged-over"]; messages [data-out="message"]
 *   formula parts             [data-part="centre|scale|affine"] (buttons light the formula's parts)
 */
(function () {
  'use strict';
  var NG = window.NormGeo;
  var DATA = window.NORMGEO_DATA;                 // from the kit (scenes/kit/site_data.py)
  var DEFAULT = DATA.sourceGrid;                  // the lesson's grid, written once, in the kit
  var SHADES = DATA.shades;                       // the videos' group opacities cycle through this many
  var LAYERS = ['none', 'batchnorm', 'layernorm', 'rmsnorm', 'groupnorm'];
  var PARTS = ['centre', 'scale', 'affine'];
  var ROWS = DEFAULT.length, COLS = DEFAULT[0].length;

  NG.widgets.grid = function (root, options) {
    var lang = options.lang;
    var t = function (key, vars) { return NG.t(lang, key, vars); };
    var state = {
      texts: DEFAULT.map(function (row) { return row.map(String); }),
      layer: 'none',
      groups: 2,
      epsText: '1e-5',
      lit: null,
      askedGroups: null,   // a count asked for by script (set), checked like the list's
    };
    root.classList.add('ng-widget', 'ng-grid');
    root.setAttribute('role', 'group');
    root.setAttribute('aria-label', t('grid.label', { rows: ROWS, cols: COLS }));
    root.innerHTML = '';

    // ---- formula with lit parts
    var formula = NG.el('div', { class: 'ng-formula', 'data-lit': '' });
    var svgText = (window.NORMGEO_FORMULAS || {}).unified;
    if (svgText) {
      NG.formulaCount = (NG.formulaCount || 0) + 1;  // ids unique when a page holds several grids
      formula.innerHTML = svgText.replace(/ngf-/g, 'ngf' + NG.formulaCount + '-');
      var svg = formula.querySelector('svg');
      svg.setAttribute('role', 'img');
      svg.setAttribute('aria-label', t('grid.formula-aria'));
    } else {
      formula.textContent = 'x̂ = (x − μ)/√(σ² + ε),  y = γx̂ + β';
    }
    var partButtons = NG.el('div', { class: 'ng-parts', role: 'group', 'aria-label': t('grid.parts-label') });
    var partNote = NG.el('p', { class: 'ng-part-note', 'data-out': 'part-note', 'aria-live': 'polite' });
    PARTS.forEach(function (part) {
      var button = NG.el('button', { type: 'button', class: 'ng-part ng-part-' + part, 'data-part': part, 'aria-pressed': 'false', text: t('grid.part.' + part) });
      var light = function () { setLit(part); };
      button.addEventListener('pointerenter', light);
      button.addEventListener('focus', light);
      button.addEventListener('click', light);
      button.addEventListener('pointerleave', function () { if (button.getRootNode().activeElement !== button) setLit(null); });  // the page's focus, or the shadow root's in a notebook
      button.addEventListener('blur', function () { setLit(null); });
      partButtons.appendChild(button);
    });
    Array.prototype.forEach.call(formula.querySelectorAll('[data-part]'), function (node) {
      node.addEventListener('pointerenter', function () { setLit(node.getAttribute('data-part')); });
      node.addEventListener('pointerleave', function () { setLit(null); });
    });

    // ---- tabs and controls
    var tabs = NG.el('div', { class: 'ng-tabs', role: 'group', 'aria-label': t('grid.tabs-label') });
    LAYERS.forEach(function (layer) {
      var button = NG.el('button', { type: 'button', 'data-layer': layer, 'aria-pressed': 'false', text: t('layer.' + layer) });
      button.addEventListener('click', function () { state.layer = layer; redraw(); });
      tabs.appendChild(button);
    });
    var groupsSelect = NG.el('select', { 'data-control': 'groups' });
    NG.math.group_counts(COLS).forEach(function (d) {  // only counts that leave two values per group
      groupsSelect.appendChild(NG.el('option', { value: d, text: String(d) }));
    });
    groupsSelect.value = String(state.groups);
    var epsInput = NG.el('input', { type: 'text', inputmode: 'decimal', 'data-control': 'eps', value: state.epsText, size: 8, spellcheck: 'false', autocomplete: 'off' });
    var controls = NG.el('div', { class: 'ng-controls' }, [
      NG.field(t('grid.groups'), groupsSelect),
      NG.field('ε', epsInput),
    ]);

    // ---- the two grids
    function table(caption, makeCell, extraHead) {
      var tableNode = NG.el('table', { class: 'ng-table' });
      tableNode.appendChild(NG.el('caption', { text: caption }));
      var head = NG.el('tr', {}, [NG.el('th', { scope: 'col', class: 'ng-axis', text: t('grid.batch') })]);
      for (var c = 0; c < COLS; c++) head.appendChild(NG.el('th', { scope: 'col', text: t('grid.feature', { n: c + 1 }) }));
      (extraHead || []).forEach(function (text) { head.appendChild(NG.el('th', { scope: 'col', class: 'ng-stat-head', text: text })); });
      tableNode.appendChild(NG.el('thead', {}, [head]));
      var body = NG.el('tbody');
      for (var r = 0; r < ROWS; r++) {
        var tr = NG.el('tr', {}, [NG.el('th', { scope: 'row', text: t('grid.example', { n: r + 1 }) })]);
        for (c = 0; c < COLS; c++) tr.appendChild(makeCell(r, c));
        body.appendChild(tr);
      }
      tableNode.appendChild(body);
      return tableNode;
    }
    var inputs = [];
    var inputTable = table(t('grid.inputs'), function (r, c) {
      var input = NG.el('input', {
        type: 'text', inputmode: 'decimal', 'data-row': r, 'data-col': c, value: state.texts[r][c], size: 6,
        spellcheck: 'false', autocomplete: 'off', 'aria-label': t('grid.cell-aria', { row: r + 1, col: c + 1 }),
      });
      input.addEventListener('input', function () { state.texts[r][c] = input.value; redraw(); });
      (inputs[r] = inputs[r] || [])[c] = input;
      return NG.el('td', {}, [input]);
    });
    var outputs = [];
    var statCells = { rms: [], mean: [] };
    var outputTable = table(t('grid.outputs'), function (r, c) {
      var cell = NG.el('td', { class: 'ng-out', 'data-out-row': r, 'data-out-col': c });
      (outputs[r] = outputs[r] || [])[c] = cell;
      return cell;
    }, [t('grid.row-rms'), t('grid.row-mean')]);
    Array.prototype.forEach.call(outputTable.querySelectorAll('tbody tr'), function (tr, r) {
      ['rms', 'mean'].forEach(function (stat) {
        var cell = NG.el('td', { class: 'ng-stat', 'data-stat': stat, 'data-row': r });
        statCells[stat][r] = cell;
        tr.appendChild(cell);
      });
    });
    var averaged = NG.el('p', { class: 'ng-averaged' }, [
      NG.el('span', { class: 'ng-averaged-label', text: t('grid.averaged-over') + ' ' }),
      NG.el('strong', { 'data-out': 'averaged-over' }),
    ]);
    var message = NG.el('p', { class: 'ng-message', role: 'status', 'aria-live': 'polite', 'data-out': 'message' });
    var tables = NG.el('div', { class: 'ng-tables' }, [inputTable, outputTable]);

    root.appendChild(formula);
    root.appendChild(partButtons);
    root.appendChild(partNote);
    root.appendChild(tabs);
    root.appendChild(controls);
    root.appendChild(tables);
    root.appendChild(averaged);
    root.appendChild(message);

    groupsSelect.addEventListener('change', function () { redraw(); });
    epsInput.addEventListener('input', function () { state.epsText = epsInput.value; redraw(); });

    function setLit(part) {
      state.lit = part;
      formula.setAttribute('data-lit', part || '');
      Array.prototype.forEach.call(partButtons.children, function (b) {
        b.setAttribute('aria-pressed', String(b.getAttribute('data-part') === part));
      });
      var key = part ? 'grid.part-note.' + part + (part === 'centre' && state.layer === 'rmsnorm' ? '-rms' : '') : '';
      partNote.textContent = part ? t(key) : t('grid.part-hint');
    }

    var redraw = NG.timed('grid', function () {
      var messages = [];
      // groups: one value per group is refused, the last good count stays
      var wanted = state.askedGroups !== null ? state.askedGroups : parseInt(groupsSelect.value, 10);
      state.askedGroups = null;
      if (NG.math.group_counts(COLS).indexOf(wanted) < 0) {  // only by script: the list offers valid counts
        messages.push(t('grid.error.one-per-group', { groups: wanted }));
        NG.markInvalid(groupsSelect, t('grid.error.one-per-group', { groups: wanted }));
        groupsSelect.value = String(state.groups);
      } else {
        state.groups = wanted;
        NG.markInvalid(groupsSelect, null);
      }
      // ε
      var epsParsed = NG.parse(epsInput.value, { nonnegative: true });
      var eps = epsParsed.ok ? epsParsed.value : null;
      if (!epsParsed.ok) {
        var epsMessage = t('grid.error.eps', { reason: NG.reasonText(lang, epsParsed.reason) });
        NG.markInvalid(epsInput, epsMessage);
        messages.push(epsMessage);
      } else NG.markInvalid(epsInput, null);
      // values
      var values = [], r, c;
      for (r = 0; r < ROWS; r++) {
        values.push([]);
        for (c = 0; c < COLS; c++) {
          var parsed = NG.parse(state.texts[r][c]);
          values[r].push(parsed.ok ? parsed.value : null);
          if (!parsed.ok) {
            var cellMessage = t('grid.error.cell', { row: r + 1, col: c + 1, reason: NG.reasonText(lang, parsed.reason) });
            NG.markInvalid(inputs[r][c], cellMessage);
            messages.push(cellMessage);
          } else NG.markInvalid(inputs[r][c], null);
        }
      }
      var layer = state.layer;
      var labels = NG.math.statistic_groups(layer, ROWS, COLS, state.groups);
      var count = 0;
      labels.forEach(function (row) { row.forEach(function (k) { count = Math.max(count, k + 1); }); });
      var out = values.map(function (row) { return row.map(function () { return null; }); });
      var reasons = values.map(function (row) { return row.map(function () { return null; }); });
      for (var k = 0; k < count; k++) {
        var cells = [];
        for (r = 0; r < ROWS; r++) for (c = 0; c < COLS; c++) if (labels[r][c] === k) cells.push([r, c]);
        var group = cells.map(function (rc) { return values[rc[0]][rc[1]]; });
        var missing = group.some(function (v) { return v === null; });
        if (missing) { cells.forEach(function (rc) { reasons[rc[0]][rc[1]] = 'input'; }); continue; }
        if (layer === 'none') { out[cells[0][0]][cells[0][1]] = group[0]; continue; }
        if (eps === null) { cells.forEach(function (rc) { reasons[rc[0]][rc[1]] = 'eps'; }); continue; }
        var normalized = NG.math.normalize(group, layer !== 'rmsnorm', eps);
        if (normalized === null) {
          cells.forEach(function (rc) { reasons[rc[0]][rc[1]] = 'degenerate'; });
          messages.push(t(layer === 'rmsnorm' ? 'grid.error.zero-group' : 'grid.error.constant-group', { cells: describe(layer, cells) }));
          continue;
        }
        cells.forEach(function (rc, i) { out[rc[0]][rc[1]] = normalized[i]; });
      }
      // draw
      root.setAttribute('data-layer', layer);
      root.setAttribute('data-groups', String(state.groups));
      root.setAttribute('data-eps', eps === null ? '' : NG.exact(eps));
      Array.prototype.forEach.call(tabs.children, function (b) { b.setAttribute('aria-pressed', String(b.getAttribute('data-layer') === layer)); });
      var shade = layer !== 'none';
      for (r = 0; r < ROWS; r++) {
        for (c = 0; c < COLS; c++) {
          var cell = outputs[r][c];
          var value = out[r][c];
          var shadeClass = shade ? 'ng-shade ng-g' + (labels[r][c] % SHADES) : '';
          cell.className = 'ng-out ' + shadeClass + (value === null ? ' ng-missing' : '');
          inputs[r][c].parentNode.className = shadeClass;
          cell.setAttribute('data-group', String(labels[r][c]));
          NG.showValue(cell, value, function (v) { return NG.fmt(v, layer === 'none' ? 2 : 3); });
          if (value === null) cell.title = t('grid.missing.' + reasons[r][c]);
          else cell.removeAttribute('title');
        }
      }
      // RMSNorm: each output row's RMS and mean (normgeo.statistics_by_group over the rows)
      var showStats = layer === 'rmsnorm';
      root.classList.toggle('ng-show-stats', showStats);
      for (r = 0; r < ROWS; r++) {
        var row = out[r];
        var complete = showStats && row.every(function (v) { return v !== null; });
        var stats = complete ? NG.math.statistics_by_group([row], [row.map(function () { return 0; })]) : null;
        [['rms', stats && stats.rms[0]], ['mean', stats && stats.mean[0]]].forEach(function (pair) {
          var node = statCells[pair[0]][r];
          NG.showValue(node, complete ? pair[1] : null);
          if (!complete) node.textContent = showStats ? '—' : '';
        });
      }
      root.querySelector('[data-out="averaged-over"]').textContent = t('grid.axes.' + layer, { groups: state.groups, size: COLS / state.groups });
      message.textContent = messages.join(' ');
      root.classList.toggle('ng-has-error', messages.length > 0);
      formula.setAttribute('data-layer', layer);
      setLit(state.lit);
    });

    function describe(layer, cells) {
      if (layer === 'batchnorm') return t('grid.where.column', { col: cells[0][1] + 1 });
      if (layer === 'groupnorm') return t('grid.where.group', { row: cells[0][0] + 1, first: cells[0][1] + 1, last: cells[cells.length - 1][1] + 1 });
      return t('grid.where.row', { row: cells[0][0] + 1 });
    }

    redraw();
    return {
      redraw: redraw,
      state: state,
      /** For scripting: set every input at once, then redraw once. */
      set: function (values) {
        if (values.texts) { state.texts = values.texts.map(function (row) { return row.map(String); }); inputs.forEach(function (row, r) { row.forEach(function (input, c) { input.value = state.texts[r][c]; }); }); }
        if (values.eps !== undefined) { epsInput.value = String(values.eps); state.epsText = epsInput.value; }
        if (values.groups !== undefined) state.askedGroups = Number(values.groups);
        if (values.layer) state.layer = values.layer;
        redraw();
      },
    };
  };
})();
