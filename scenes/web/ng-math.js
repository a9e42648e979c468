/* normgeo's core in the browser: the one copy of the math the widgets show.
 *
 * Each function is named after the normgeo function it mirrors and follows it operation for
 * operation in float64 (scaling by the largest magnitude first, LAPACK's 2×2 eigenvalue formulas),
 * so that tests/site/test_math.py can compare them with the Python core at 1e-12 on many inputs.
 * Where the core raises (a zero vector, a constant group at ε = 0), the function returns null.
 * Vectors are arrays, matrices arrays of rows; nothing here touches the page.
 */
(function () {
  'use strict';
  var NG = (window.NormGeo = window.NormGeo || {});
  var M = (NG.math = {});
  var EPS64 = Math.pow(2, -53);      // LAPACK's dlamch('E')
  var SAFE_MIN = 2.2250738585072014e-308;

  /** Σ in order (numpy's order for fewer than eight numbers). */
  M.sum = function (values) {
    var total = 0;
    for (var i = 0; i < values.length; i++) total += values[i];
    return total;
  };
  M.mean = function (values) { return M.sum(values) / values.length; };

  /** normgeo.largest_magnitude: max |xᵢ|. */
  M.largest_magnitude = function (x) {
    var largest = 0;
    for (var i = 0; i < x.length; i++) largest = Math.max(largest, Math.abs(x[i]));
    return largest;
  };

  /** normgeo.euclidean_norm: m·‖x/m‖₂ with m = max|xᵢ|, exact from 1e-300 to 1e300. */
  M.euclidean_norm = function (x) {
    var scale = M.largest_magnitude(x);
    var safe = scale > 0 ? scale : 1;
    return safe * Math.sqrt(M.sum(x.map(function (v) { var u = v / safe; return u * u; })));
  };

  /** normgeo.root_mean_square: ‖x‖₂/√n. */
  M.root_mean_square = function (x) { return M.euclidean_norm(x) / Math.sqrt(x.length); };

  /** normgeo.unit_direction: u/‖u‖₂ with u = x/max|xᵢ|; null for the zero vector. */
  M.unit_direction = function (x) {
    var scale = M.largest_magnitude(x);
    if (scale === 0) return null;
    var unit = x.map(function (v) { return v / scale; });
    var length = Math.sqrt(M.sum(unit.map(function (u) { return u * u; })));
    return unit.map(function (u) { return u / length; });
  };

  /** normgeo.l2_normalize at ε = 0. */
  M.l2_normalize = function (x) { return M.unit_direction(x); };

  /** normgeo.normalize over one group: (x − μ)/√(σ² + ε), or x/√(mean(x²) + ε) without centring,
   *  computed on x/s with s = max(max|xᵢ|, √ε); null where the core raises (second moment 0). */
  M.normalize = function (x, centre, eps) {
    var scale = Math.max(M.largest_magnitude(x), Math.sqrt(eps));
    var safe = scale > 0 ? scale : 1;
    var scaled = x.map(function (v) { return v / safe; });
    if (centre) {
      var mu = M.mean(scaled);
      scaled = scaled.map(function (v) { return v - mu; });
    }
    var relative = Math.sqrt(eps) / safe;
    var second = M.mean(scaled.map(function (v) { return v * v; })) + relative * relative;
    if (second === 0) return null;
    var root = Math.sqrt(second);
    return scaled.map(function (v) { return v / root; });
  };

  function affine(y, weight, bias) {
    if (!y) return null;
    return y.map(function (v, i) {
      var out = weight ? v * weight[i] : v;
      return bias ? out + bias[i] : out;
    });
  }
  /** normgeo.rms_norm(x, eps, weight). */
  M.rms_norm = function (x, eps, weight) { return affine(M.normalize(x, false, eps), weight, null); };
  /** normgeo.layer_norm(x, eps, weight, bias). */
  M.layer_norm = function (x, eps, weight, bias) { return affine(M.normalize(x, true, eps), weight, bias); };

  /** normgeo.decompose: x = μ·1 + (x − μ·1). */
  M.decompose = function (x) {
    var mu = M.mean(x);
    return { mean: mu, mean_part: x.map(function () { return mu; }), centred_part: x.map(function (v) { return v - mu; }) };
  };

  /** normgeo.mean_and_spread: μ and σ = RMS(x − μ·1) (biased, without underflow); ratio μ/σ,
   *  null for a constant x (where the core raises). */
  M.mean_and_spread = function (x) {
    var parts = M.decompose(x);
    var spread = M.root_mean_square(parts.centred_part);
    return { mean: parts.mean, spread: spread, ratio: spread === 0 ? null : parts.mean / spread };
  };

  /** normgeo.statistic_groups for a (rows, cols) grid: labels 0, 1, … in order of first appearance. */
  M.statistic_groups = function (kind, rows, cols, numGroups) {
    var seen = {}, next = 0, labels = [];
    for (var r = 0; r < rows; r++) {
      labels.push([]);
      for (var c = 0; c < cols; c++) {
        var key;
        if (kind === 'none') key = r * cols + c;
        else if (kind === 'batchnorm') key = c;
        else if (kind === 'groupnorm') key = r * numGroups + Math.floor(c / (cols / numGroups));
        else key = r;  // l2, rmsnorm, layernorm: along the last axis
        if (!(key in seen)) seen[key] = next++;
        labels[r].push(seen[key]);
      }
    }
    return labels;
  };

  /** The group counts GroupNorm accepts for ``channels`` features that leave at least two values
   *  in each group (one value normalizes to 0 at ε > 0 and is undefined at ε = 0). */
  M.group_counts = function (channels) {
    var out = [];
    for (var g = 1; g <= channels; g++) if (channels % g === 0 && channels / g >= 2) out.push(g);
    return out;
  };

  /** normgeo.statistics_by_group: mean, RMS and σ of each group's cells, by label. */
  M.statistics_by_group = function (values, labels) {
    var cells = [];
    values.forEach(function (row, r) { row.forEach(function (v, c) { (cells[labels[r][c]] = cells[labels[r][c]] || []).push(v); }); });
    return {
      mean: cells.map(M.mean),
      rms: cells.map(function (g) { return Math.sqrt(M.mean(g.map(function (v) { return v * v; }))); }),
      std: cells.map(function (g) { var mu = M.mean(g); return Math.sqrt(M.mean(g.map(function (v) { return (v - mu) * (v - mu); }))); }),
    };
  };

  /** normgeo.hyperplane_basis: the Helmert basis of {Σvᵢ = 0}, n − 1 rows of length n. */
  M.hyperplane_basis = function (n) {
    var basis = [];
    for (var k = 1; k < n; k++) {
      var row = [], norm = Math.sqrt(k * (k + 1));
      for (var i = 0; i < n; i++) row.push((i < k ? 1 : i === k ? -k : 0) / norm);
      basis.push(row);
    }
    return basis;
  };

  /** normgeo.unit_angles: ``samples`` angles evenly spaced over [0, 2π) (numpy.linspace). */
  M.unit_angles = function (samples) {
    var step = 2 * Math.PI / samples, out = [];
    for (var i = 0; i < samples; i++) out.push(i * step);
    return out;
  };

  /** normgeo.circle_in_plane: center + r(cos t·u + sin t·w). */
  M.circle_in_plane = function (u, w, radius, samples, center) {
    return M.unit_angles(samples).map(function (t) {
      var c = Math.cos(t), s = Math.sin(t);
      return u.map(function (ui, k) { var p = radius * (c * ui + s * w[k]); return center ? p + center[k] : p; });
    });
  };

  // ---------------------------------------------------------------- 2×2 symmetric eigenproblems (LAPACK)

  /** LAPACK dlae2: the eigenvalues of [[a, b], [b, c]], rt1 the larger in magnitude. */
  function dlae2(a, b, c) {
    var sm = a + c, df = a - c, adf = Math.abs(df), tb = b + b, ab = Math.abs(tb);
    var acmx, acmn, rt, rt1, rt2, sgn1;
    if (Math.abs(a) > Math.abs(c)) { acmx = a; acmn = c; } else { acmx = c; acmn = a; }
    if (adf > ab) rt = adf * Math.sqrt(1 + (ab / adf) * (ab / adf));
    else if (adf < ab) rt = ab * Math.sqrt(1 + (adf / ab) * (adf / ab));
    else rt = ab * Math.sqrt(2);
    if (sm < 0) { rt1 = 0.5 * (sm - rt); sgn1 = -1; rt2 = (acmx / rt1) * acmn - (b / rt1) * b; }
    else if (sm > 0) { rt1 = 0.5 * (sm + rt); sgn1 = 1; rt2 = (acmx / rt1) * acmn - (b / rt1) * b; }
    else { rt1 = 0.5 * rt; rt2 = -0.5 * rt; sgn1 = 1; }
    return { rt1: rt1, rt2: rt2, df: df, rt: rt, tb: tb, ab: ab, sgn1: sgn1 };
  }

  /** LAPACK dlaev2: dlae2 and the unit eigenvector (cs1, sn1) of rt1. */
  function dlaev2(a, b, c) {
    var r = dlae2(a, b, c);
    var cs, sgn2, cs1, sn1, ct, tn;
    if (r.df >= 0) { cs = r.df + r.rt; sgn2 = 1; } else { cs = r.df - r.rt; sgn2 = -1; }
    if (Math.abs(cs) > r.ab) { ct = -r.tb / cs; sn1 = 1 / Math.sqrt(1 + ct * ct); cs1 = ct * sn1; }
    else if (r.ab === 0) { cs1 = 1; sn1 = 0; }
    else { tn = -cs / r.tb; cs1 = 1 / Math.sqrt(1 + tn * tn); sn1 = tn * cs1; }
    if (r.sgn1 === sgn2) { tn = cs1; cs1 = -sn1; sn1 = tn; }
    return { rt1: r.rt1, rt2: r.rt2, cs1: cs1, sn1: sn1 };
  }

  /** LAPACK's test for an off-diagonal small enough to be dropped (dsterf and dsteqr alike). */
  function negligible(a, b, c) {
    return Math.abs(b) <= Math.sqrt(Math.abs(a)) * Math.sqrt(Math.abs(c)) * EPS64 ||
      b * b <= EPS64 * EPS64 * Math.abs(a) * Math.abs(c) + SAFE_MIN;
  }

  /** numpy.linalg.eigvalsh of [[a, b], [b, c]]: ascending. */
  M.eigvalsh = function (h) {
    var a = h[0][0], b = h[0][1], c = h[1][1];
    if (negligible(a, b, c)) return [a, c].sort(function (p, q) { return p - q; });
    var r = dlae2(a, b, c);
    return [r.rt1, r.rt2].sort(function (p, q) { return p - q; });
  };

  /** numpy.linalg.eigh of [[a, b], [b, c]]: ascending values and their unit vectors (as rows). */
  M.eigh = function (h) {
    var a = h[0][0], b = h[0][1], c = h[1][1];
    var values, vectors;
    if (negligible(a, b, c)) { values = [a, c]; vectors = [[1, 0], [0, 1]]; }
    else {
      var r = dlaev2(a, b, c);
      values = [r.rt1, r.rt2];
      vectors = [[r.cs1, r.sn1], [-r.sn1, r.cs1]];
    }
    if (values[1] < values[0]) { values.reverse(); vectors.reverse(); }
    return { values: values, vectors: vectors };
  };

  function times(h, w) { return [h[0][0] * w[0] + h[0][1] * w[1], h[1][0] * w[0] + h[1][1] * w[1]]; }

  /** normgeo.condition_number: λ_max/λ_min. */
  M.condition_number = function (h) { var ev = M.eigvalsh(h); return ev[1] / ev[0]; };

  /** normgeo.largest_stable_step: 2/λ_max. */
  M.largest_stable_step = function (h) { return 2.0 / M.eigvalsh(h)[1]; };

  /** normgeo.gradient_descent_path: w ← w − η·H·w from ``start``, n steps (n + 1 points). */
  M.gradient_descent_path = function (h, start, step, n) {
    var w = start.slice(), out = [w.slice()];
    for (var k = 0; k < n; k++) {
      var g = times(h, w);
      w = [w[0] - step * g[0], w[1] - step * g[1]];
      out.push(w.slice());
    }
    return out;
  };

  /** normgeo.steps_to_tolerance: the exact count, in the eigenbasis, until ‖w‖ ≤ tol·‖w₀‖. */
  M.steps_to_tolerance = function (h, start, step, tol) {
    var e = M.eigh(h);
    var error = e.vectors.map(function (v) { return v[0] * start[0] + v[1] * start[1]; });
    var initial = Math.sqrt(error[0] * error[0] + error[1] * error[1]);
    if (initial === 0) return 0;
    var share = tol * initial / Math.sqrt(2), steps = 0;
    for (var i = 0; i < 2; i++) {
      var component = Math.abs(error[i]);
      if (component <= share) continue;
      var factor = Math.abs(1.0 - step * e.values[i]);
      if (factor >= 1.0) return Infinity;
      if (factor === 0) { steps = Math.max(steps, 1); continue; }
      steps = Math.max(steps, Math.ceil(Math.log(share / component) / Math.log(factor)));
    }
    return steps;
  };

  /** normgeo.quadratic_value: ½wᵀHw. */
  M.quadratic_value = function (h, w) {
    var hw = times(h, w);
    return 0.5 * (w[0] * hw[0] + w[1] * hw[1]);
  };

  /** normgeo.contour_levels: f(start)·ratioᵏ, k = 0 … count − 1. */
  M.contour_levels = function (h, start, count, ratio) {
    var top = M.quadratic_value(h, start), out = [];
    for (var k = 0; k < count; k++) out.push(top * Math.pow(ratio, k));
    return out;
  };

  /* ---- real hidden states, token by token (normgeo.hidden_states, effective_dimension) ----
   * ``states`` is an array of rows (tokens × n); every function measures along each row. */

  /** numpy.median: the middle value, or the mean of the two middle ones. */
  M.median = function (values) {
    var sorted = values.slice().sort(function (a, b) { return a - b; });
    var half = sorted.length >> 1;
    return sorted.length % 2 ? sorted[half] : (sorted[half - 1] + sorted[half]) / 2;
  };

  /** normgeo.token_norms: ‖x‖₂ of every token. */
  M.token_norms = function (states) { return states.map(M.euclidean_norm); };

  /** normgeo.token_mean_and_spread: [μ, σ] per token (biased σ), computed on x/max|xᵢ|. */
  M.token_mean_and_spread = function (states) {
    var means = [], spreads = [];
    states.forEach(function (x) {
      var scale = M.largest_magnitude(x), safe = scale > 0 ? scale : 1;
      var unit = x.map(function (v) { return v / safe; });
      var mu = M.mean(unit);
      var sigma = Math.sqrt(M.mean(unit.map(function (u) { return (u - mu) * (u - mu); })));
      means.push(mu * safe); spreads.push(sigma * safe);
    });
    return [means, spreads];
  };

  /** normgeo.mean_share: |μ|·√n/‖x‖₂ per token, at most 1; null if a token is the zero vector. */
  M.mean_share = function (states) {
    var norms = M.token_norms(states);
    if (norms.some(function (v) { return v === 0; })) return null;
    var means = M.token_mean_and_spread(states)[0];
    return means.map(function (mu, i) { return Math.min(Math.abs(mu) * Math.sqrt(states[i].length) / norms[i], 1); });
  };

  /** normgeo.token_centring_angles: arctan(|μ|/σ) per token (radians); null if a token has σ = 0. */
  M.token_centring_angles = function (states) {
    var ms = M.token_mean_and_spread(states);
    if (ms[1].some(function (v) { return v === 0; })) return null;
    return ms[0].map(function (mu, i) { return Math.atan(Math.abs(mu / ms[1][i])); });
  };

  /** normgeo.normalized_radius: √n·r/√(r² + ε) per token, r = σ (``centre``) or RMS(x); null where
   *  the core raises (r = 0 at ε = 0). */
  M.normalized_radius = function (states, eps, centre) {
    var n = states.length ? states[0].length : 0;
    var r = centre ? M.token_mean_and_spread(states)[1] : states.map(M.root_mean_square);
    if (eps === 0 && r.some(function (v) { return v === 0; })) return null;
    return r.map(function (v) {  // normgeo.layer_norm_output_radius and the RMSNorm branch alike
      var ratio = v > 0 ? Math.sqrt(eps) / v : Infinity;
      return Math.sqrt(n) / Math.hypot(1, ratio);
    });
  };

  /** layer_profile's measured radii: ‖(y − β)/γ‖₂ of each captured output token; null if a γᵢ = 0. */
  M.captured_radii = function (outputs, weight, bias) {
    if (weight && weight.some(function (g) { return g === 0; })) return null;
    return outputs.map(function (y) {
      return M.euclidean_norm(y.map(function (v, i) { return (v - (bias ? bias[i] : 0)) / (weight ? weight[i] : 1); }));
    });
  };

  /** normgeo.massive_tokens: the tokens whose norm is ≥ factor × the median norm; null if the median is 0. */
  M.massive_tokens = function (norms, factor) {
    var median = M.median(norms);
    if (median === 0) return null;
    var ratios = norms.map(function (v) { return v / median; });
    var indices = [];
    ratios.forEach(function (r, i) { if (r >= factor) indices.push(i); });
    return { factor: factor, median: median, indices: indices, ratios: ratios,
             largest_ratio: Math.max.apply(null, ratios) };
  };

  /** normgeo.participation_ratio: (Σλ)²/Σλ² of the tokens' covariance, from the centred rows C
   *  scaled by their largest entry: Σλ ∝ ‖C‖²_F and Σλ² ∝ ‖CCᵀ‖²_F (the same eigenvalues, no SVD).
   *  null where the core raises (fewer than 2 tokens, all tokens equal). */
  M.participation_ratio = function (states) {
    var tokens = states.length;
    if (tokens < 2) return null;
    var n = states[0].length, j, i, k;
    var mean = new Float64Array(n);
    for (j = 0; j < n; j++) { var column = []; for (i = 0; i < tokens; i++) column.push(states[i][j]); mean[j] = M.mean(column); }
    var centred = states.map(function (x) { return x.map(function (v, col) { return v - mean[col]; }); });
    var scale = 0;
    centred.forEach(function (c) { scale = Math.max(scale, M.largest_magnitude(c)); });
    if (scale === 0) return null;
    centred = centred.map(function (c) { return c.map(function (v) { return v / scale; }); });
    var trace = 0, frobenius = 0;
    for (i = 0; i < tokens; i++) {
      for (k = 0; k < tokens; k++) {
        var dot = 0;
        for (j = 0; j < n; j++) dot += centred[i][j] * centred[k][j];
        if (i === k) trace += dot;
        frobenius += dot * dot;
      }
    }
    return { ratio: trace * trace / frobenius, rank_bound: Math.min(tokens - 1, n), tokens: tokens, n: n };
  };

  /** normgeo.quadratic_contours: each level set ½wᵀHw = c as ``samples`` points of its ellipse,
   *  semi-axes √(2c/λᵢ) along the eigenvectors vᵢ. */
  M.quadratic_contours = function (h, levels, samples) {
    var e = M.eigh(h), angles = M.unit_angles(samples);
    var v0 = [e.vectors[0][0], e.vectors[0][1]], v1 = [e.vectors[1][0], e.vectors[1][1]];
    return levels.map(function (level) {
      var a0 = Math.sqrt(2 * level / e.values[0]), a1 = Math.sqrt(2 * level / e.values[1]);
      return angles.map(function (t) {
        var c = Math.cos(t) * a0, s = Math.sin(t) * a1;
        return [c * v0[0] + s * v1[0], c * v0[1] + s * v1[1]];
      });
    });
  };
})();
