"""The widgets' one copy of the core's math (scenes/web/ng-math.js), called directly in Chromium on
many inputs (seeded and hypothesis-drawn, 1e-200 to 1e150) and compared with normgeo itself.

Each JavaScript function is named after the normgeo function it mirrors; where the core raises
(a zero vector, a constant group at ε = 0), the JavaScript returns null. Values agree to 1e-12
relative to the largest expected magnitude: both follow the same float64 operations, and the
only freedom left is the order of a few additions (numpy sums eight or more numbers pairwise).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import normgeo
from tests.site.conftest import PageProblems

CALL = "([name, calls]) => calls.map((args) => { const r = NormGeo.math[name](...args); return r === Infinity ? 'inf' : r; })"


@pytest.fixture(scope="module")
def math_page(browser, site):
    context = browser.new_context()
    page = context.new_page()
    problems = PageProblems(page)
    page.goto((site / "widgets" / "vector-2d.html").as_uri())
    yield page
    context.close()
    problems.check()


def js(page, name: str, calls: list[list]) -> list:
    """NormGeo.math[name](*args) for each args of ``calls``, in one evaluation."""
    return page.evaluate(CALL, [name, calls])


def close(shown, expected, what: str, rel: float = 1e-12) -> None:
    """|shown − expected| ≤ rel·max|expected| (elementwise, one scale per array)."""
    shown = np.asarray(shown, dtype=float)
    expected = np.asarray(expected, dtype=float)
    assert shown.shape == expected.shape, f"{what}: shape {shown.shape} != {expected.shape}"
    scale = np.max(np.abs(expected)) if expected.size else 0.0
    bound = rel * scale if scale > 0 else 0.0
    worst = np.max(np.abs(shown - expected)) if expected.size else 0.0
    assert worst <= bound, f"{what}: JS {shown} but the core says {expected} (off by {worst:.3g} > {bound:.3g})"


def core_or_none(function, *args, **kwargs):
    try:
        return function(*args, **kwargs)
    except (normgeo.ZeroVectorError, normgeo.ZeroVarianceError):
        return None


magnitudes = st.integers(-200, 150).map(lambda k: 10.0 ** k)


@st.composite
def vectors(draw, min_size=1, max_size=8):
    """Vectors of one scale (1e-200 … 1e150) with entries of mixed signs, sometimes repeated or 0."""
    scale = draw(magnitudes)
    values = draw(st.lists(st.one_of(st.floats(-10, 10, allow_nan=False, allow_subnormal=False), st.just(0.0), st.just(1.0)),
                           min_size=min_size, max_size=max_size))
    return [v * scale for v in values]


def seeded_vectors(seed: int, count: int = 300) -> list[list[float]]:
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        n = int(rng.integers(1, 9))
        x = rng.standard_normal(n) * 10.0 ** rng.uniform(-200, 150)
        if rng.random() < 0.1:
            x[:] = x[0]  # constant
        if rng.random() < 0.05:
            x[:] = 0.0
        out.append([float(v) for v in x])
    return out


def check_norms(page, xs):
    for name in ("euclidean_norm", "root_mean_square", "largest_magnitude"):
        for x, shown in zip(xs, js(page, name, [[x] for x in xs])):
            close(shown, getattr(normgeo, name)(np.array(x)) if name != "largest_magnitude" else np.max(np.abs(x)), f"{name}({x})")
    calls = [[x] for x in xs]
    for x, shown, l2 in zip(xs, js(page, "unit_direction", calls), js(page, "l2_normalize", calls)):
        expected = core_or_none(normgeo.unit_direction, x)
        assert (shown is None) == (expected is None) == (l2 is None), (x, shown)
        if expected is not None:
            close(shown, expected, f"unit_direction({x})")
            close(l2, normgeo.l2_normalize(x), f"l2_normalize({x})")


def check_normalize(page, xs, epsilons):
    calls = [[x, centre, eps] for x in xs for centre in (True, False) for eps in epsilons]
    for (x, centre, eps), shown in zip(calls, js(page, "normalize", calls)):
        expected = core_or_none(normgeo.normalize, x, centre=centre, eps=eps)
        assert (shown is None) == (expected is None), (x, centre, eps, shown)
        if expected is not None:
            close(shown, expected, f"normalize({x}, centre={centre}, eps={eps})")


def check_decompose(page, xs):
    for x, shown in zip(xs, js(page, "decompose", [[x] for x in xs])):
        parts = normgeo.decompose(x)
        close(shown["mean"], parts.mean, "μ")
        close(shown["mean_part"], parts.mean_part, "μ·1")
        close(shown["centred_part"], parts.centred_part, "x − μ·1")
    for x, shown in zip(xs, js(page, "mean_and_spread", [[x] for x in xs])):
        expected = core_or_none(normgeo.mean_and_spread, x)
        if expected is None:  # constant x: σ = 0 and no ratio
            assert shown["spread"] == 0 and shown["ratio"] is None, (x, shown)
            continue
        close(shown["mean"], expected.mean, "μ")
        close(shown["spread"], expected.spread, f"σ of {x}")
        close(shown["ratio"], expected.ratio, "μ/σ", rel=1e-11)


def test_norms_normalize_and_decompose_on_seeded_vectors(math_page):
    """2 400 seeded vectors from 1e-200 to 1e150 (constant and zero ones among them)."""
    xs = seeded_vectors(1)
    check_norms(math_page, xs)
    check_normalize(math_page, xs, [0.0, 1e-5, 0.25, 1e3, 1e-300])
    check_decompose(math_page, xs)


@given(st.lists(vectors(), min_size=1, max_size=30), st.sampled_from([0.0, 1e-12, 1e-5, 1.0, 1e3]))
def test_norms_normalize_and_decompose_on_drawn_vectors(math_page, xs, eps):
    check_norms(math_page, xs)
    check_normalize(math_page, xs, [eps])
    check_decompose(math_page, xs)


@given(st.lists(st.tuples(vectors(2, 6), st.floats(0, 10)), min_size=1, max_size=20))
def test_rms_norm_and_layer_norm_with_gamma_and_beta(math_page, cases):
    rng = np.random.default_rng(len(cases))
    calls = []
    for x, eps in cases:
        gamma = [float(v) for v in rng.uniform(-2, 2, len(x))]
        beta = [float(v) for v in rng.uniform(-1.5, 1.5, len(x))]
        calls.append((x, eps, gamma, beta))
    shown_rms = js(math_page, "rms_norm", [[x, eps, gamma] for x, eps, gamma, _ in calls])
    shown_ln = js(math_page, "layer_norm", [[x, eps, gamma, beta] for x, eps, gamma, beta in calls])
    for (x, eps, gamma, beta), rms, ln in zip(calls, shown_rms, shown_ln):
        for shown, expected in ((rms, core_or_none(normgeo.rms_norm, x, eps=eps, weight=gamma)),
                                (ln, core_or_none(normgeo.layer_norm, x, eps=eps, weight=gamma, bias=beta))):
            assert (shown is None) == (expected is None), (x, eps)
            if expected is not None:
                close(shown, expected, f"affine at x={x}, ε={eps}", rel=1e-12 * 4)


def test_statistic_groups_group_counts_and_statistics(math_page):
    """Every layer on every grid shape from 1×1 to 5×6, every group count GroupNorm accepts."""
    calls, expected = [], []
    for rows in range(1, 6):
        for cols in range(1, 7):
            for kind in ("none", "layernorm", "rmsnorm", "l2"):
                calls.append([kind, rows, cols, None])
                expected.append(normgeo.statistic_groups(kind, (rows, cols)))
            if rows >= 1 and cols >= 1:
                calls.append(["batchnorm", rows, cols, None])
                expected.append(normgeo.statistic_groups("batchnorm", (rows, cols)))
            for groups in range(1, cols + 1):
                if cols % groups == 0:
                    calls.append(["groupnorm", rows, cols, groups])
                    expected.append(normgeo.statistic_groups("groupnorm", (rows, cols), num_groups=groups))
    for call, shown, labels in zip(calls, js(math_page, "statistic_groups", calls), expected):
        assert np.array(shown).tolist() == labels.tolist(), call
    # the counts offered: GroupNorm accepts them (it raises for the others) and each group keeps two values
    shown = js(math_page, "group_counts", [[n] for n in range(1, 9)])
    for n, counts in zip(range(1, 9), shown):
        accepted = []
        for g in range(1, n + 1):
            try:
                normgeo.group_norm(np.arange(2.0 * n).reshape(2, n), g, eps=1e-5)
            except normgeo.ShapeError:
                continue
            accepted.append(g)
        assert counts == [g for g in accepted if n // g >= 2], n
    rng = np.random.default_rng(5)
    for kind, groups in (("layernorm", None), ("batchnorm", None), ("groupnorm", 2)):
        values = rng.standard_normal((4, 4)) * 7
        labels = normgeo.statistic_groups(kind, (4, 4), num_groups=groups)
        stats = js(math_page, "statistics_by_group", [[values.tolist(), labels.tolist()]])[0]
        core = normgeo.statistics_by_group(values, labels)
        close(stats["mean"], core.mean, f"{kind} means")
        close(stats["rms"], core.rms, f"{kind} RMS")
        close(stats["std"], core.std, f"{kind} σ")


def test_hyperplane_basis_and_circles(math_page):
    shown = js(math_page, "hyperplane_basis", [[n] for n in range(2, 9)])
    for n, basis in zip(range(2, 9), shown):
        close(basis, normgeo.hyperplane_basis(n), f"hyperplane_basis({n})")
    for samples in (3, 7, 96):
        close(js(math_page, "unit_angles", [[samples]])[0], normgeo.unit_angles(samples), f"unit_angles({samples})")
    basis = normgeo.hyperplane_basis(3)
    calls = [[basis[0].tolist(), basis[1].tolist(), r, m, c] for r, m, c in
             ((np.sqrt(3), 96, None), (0.5, 12, [1.0, -2.0, 0.5]), (1e120, 5, None))]
    for (u, w, r, m, c), points in zip(calls, js(math_page, "circle_in_plane", calls)):
        close(points, normgeo.circle_in_plane(u, w, r, m, center=c), f"circle_in_plane r={r}")


def spd(scale: float, rho: float) -> np.ndarray:
    return np.array([[1.0, rho * scale], [rho * scale, scale * scale]])


def conditioning_cases():
    rng = np.random.default_rng(9)
    cases = [spd(s, r) for s in (1.0, 10.0, 1e4) for r in (-0.9, -0.5, 0.0, 0.5, 0.9, 0.99)]
    for _ in range(200):
        cases.append(spd(10 ** rng.uniform(0, 4), rng.uniform(-0.95, 0.99)))
    for _ in range(60):  # general symmetric positive definite matrices
        a = rng.standard_normal((2, 2)) * 10 ** rng.uniform(-3, 3)
        cases.append(a @ a.T + 1e-3 * np.eye(2))
    return cases


def test_eigenvalues_condition_number_and_step_limit(math_page):
    hs = conditioning_cases()
    calls = [[h.tolist()] for h in hs]
    for h, values in zip(hs, js(math_page, "eigvalsh", calls)):
        close(values, np.linalg.eigvalsh(h), f"eigvalsh({h.tolist()})")
    for h, kappa in zip(hs, js(math_page, "condition_number", calls)):
        close(kappa, normgeo.condition_number(h), f"κ of {h.tolist()}")
    for h, limit in zip(hs, js(math_page, "largest_stable_step", calls)):
        close(limit, normgeo.largest_stable_step(h), f"2/L of {h.tolist()}")
    for h, eig in zip(hs, js(math_page, "eigh", calls)):
        values, vectors = np.linalg.eigh(h)
        close(eig["values"], values, "eigh values")
        for k in range(2):  # each vector up to its sign
            v = np.array(eig["vectors"][k])
            assert min(np.max(np.abs(v - vectors[:, k])), np.max(np.abs(v + vectors[:, k]))) <= 1e-12, (h, k)


def test_gradient_descent_paths_step_counts_and_contours(math_page):
    hs = conditioning_cases()
    rng = np.random.default_rng(10)
    calls = []
    for h in hs:
        start = (rng.standard_normal(2) * 3).tolist()
        calls.append((h, start, 0.9 * normgeo.largest_stable_step(h)))
    paths = js(math_page, "gradient_descent_path", [[h.tolist(), w, step, 30] for h, w, step in calls])
    counts = js(math_page, "steps_to_tolerance", [[h.tolist(), w, step, 1e-6] for h, w, step in calls])
    for (h, w, step), path, count in zip(calls, paths, counts):
        close(path, normgeo.gradient_descent_path(h, w, step, 30), f"path of {h.tolist()}", rel=1e-11)
        assert count == normgeo.steps_to_tolerance(h, w, step, tol=1e-6), (h, w)
    assert js(math_page, "steps_to_tolerance", [[[[1, 0], [0, 4]], [1, 1], 0.5, 1e-6]])[0] == "inf"  # at 2/L
    values = js(math_page, "quadratic_value", [[h.tolist(), w] for h, w, _ in calls])
    levels = js(math_page, "contour_levels", [[h.tolist(), w, 5, 0.3] for h, w, _ in calls])
    contours = js(math_page, "quadratic_contours", [[h.tolist(), lv, 24] for (h, _, _), lv in zip(calls, levels)])
    for (h, w, _), value, level, curves in zip(calls, values, levels, contours):
        close(value, normgeo.quadratic_value(h, w), "½wᵀHw")
        close(level, normgeo.contour_levels(h, w, 5, 0.3), "levels")
        core = normgeo.quadratic_contours(h, level, 24)
        for c, drawn, expected in zip(level, curves, core):
            drawn = np.array(drawn)
            close(normgeo.quadratic_value(h, drawn), np.full(24, c), f"level set {c}", rel=1e-9)
            # the same ellipse point for point, up to the sign of each eigenvector (t ↦ −t or t + π)
            k = np.arange(24)
            candidates = [expected[(sign * k + shift) % 24] for sign in (1, -1) for shift in (0, 12)]
            assert min(np.max(np.abs(drawn - e)) for e in candidates) <= 1e-9 * np.max(np.abs(expected)), (h, c)
