"""conditioning: κ, 2/L, the paths and the step counts equal normgeo's for the Hessian S·R·S; the
drawn contours lie on their level sets and the drawn paths are the core's, read back from the SVG."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

import normgeo
from tests.site.conftest import PageProblems, assert_close, axe_violations

READ = """
() => {
  const root = document.querySelector('[data-widget="conditioning"]');
  const outs = {};
  root.querySelectorAll('[data-out][data-value]').forEach((o) => { outs[o.getAttribute('data-out')] = o.getAttribute('data-value'); });
  const paths = {};
  root.querySelectorAll('[data-path]').forEach((p) => { paths[p.getAttribute('data-path')] = {start: p.getAttribute('data-start'), points: p.getAttribute('data-points')}; });
  return {outs, paths, scale: root.getAttribute('data-scale'), rho: root.getAttribute('data-rho'), text: root.textContent};
}
"""

DRIVE = """
(cases) => {
  const root = document.querySelector('[data-widget="conditioning"]');
  const read = """ + READ + """;
  const set = (name, value) => { const n = root.querySelector(`[data-control="${name}"]`); n.value = value; n.dispatchEvent(new Event('input', {bubbles: true})); };
  return cases.map((c) => { set('scale', c.scale); set('rho', c.rho); return read(); });
}
"""


def check(result):
    s = float(result["scale"])
    rho = float(result["rho"])
    o = {k: float(v) for k, v in result["outs"].items()}
    for name, h in (("raw", np.array([[1.0, rho * s], [rho * s, s * s]])), ("standardized", np.array([[1.0, rho], [rho, 1.0]]))):
        assert_close(o[f"kappa-{name}"], normgeo.condition_number(h), f"κ {name}")
        limit = normgeo.largest_stable_step(h)
        assert_close(o[f"step-limit-{name}"], limit, f"2/L {name}")
        step = 0.9 * limit
        assert_close(o[f"step-{name}"], step, f"step {name}")
        start = np.array(json.loads(result["paths"][name]["start"]), dtype=float)
        expected_start = np.array([-2.6, 0.5 / s]) if name == "raw" else np.array([-2.6, 0.5])
        assert start.tolist() == expected_start.tolist()
        shown_path = np.array(json.loads(result["paths"][name]["points"]), dtype=float)
        assert_close(shown_path, normgeo.gradient_descent_path(h, start, step, 30), f"path {name}")
        assert o[f"steps-{name}"] == normgeo.steps_to_tolerance(h, start, step, tol=1e-6), f"steps {name} at s={s}, ρ={rho}"
    assert "NaN" not in result["text"] and "Infinity" not in result["text"]


@pytest.fixture(scope="module")
def cond(browser, site):
    context = browser.new_context(viewport={"width": 900, "height": 800})
    page = context.new_page()
    problems = PageProblems(page)  # console errors, page errors, any request but file:/data:/blob:
    page.goto((site / "widgets" / "conditioning.html").as_uri() + "?lang=en")
    yield page
    context.close()
    problems.check()


def test_the_lessons_numbers(cond):
    """Scales 1 and 10⁴ at ρ = 0.9: κ ≈ 5·10⁸ raw, (1 + ρ)/(1 − ρ) = 19 standardized."""
    cond.reload()
    result = cond.evaluate(READ)
    check(result)
    assert float(result["scale"]) == 1e4 and float(result["rho"]) == 0.9
    kappa_raw = float(result["outs"]["kappa-raw"])
    assert 1e8 < kappa_raw < 1e9
    assert_close(float(result["outs"]["kappa-standardized"]), 19.0)
    demo = normgeo.conditioning_demo(scales=(1.0, 1e4), correlation=0.9)
    # the core's data pipeline (random data whitened to covariance S·R·S) agrees; κ ≈ 10⁸ amplifies
    # the data's rounding, so that comparison holds to 1e-6 only, the standardized one to 1e-12
    assert abs(kappa_raw - demo.kappa_raw) <= 1e-6 * demo.kappa_raw
    assert_close(float(result["outs"]["kappa-standardized"]), demo.kappa_standardized)


def test_random_slider_settings_match_the_core(cond):
    """220 seeded slider positions through the sliders' own input handlers."""
    cond.reload()
    rng = np.random.default_rng(11)
    cases = [{"scale": f"{rng.integers(0, 81) * 0.05:.2f}", "rho": f"{rng.integers(-90, 100) * 0.01:.2f}"} for _ in range(220)]
    for result in cond.evaluate(DRIVE, cases):
        check(result)


def test_sliders_by_keyboard_and_mouse(cond):
    cond.reload()
    scale = cond.locator('[data-control="scale"]')
    scale.focus()
    for _ in range(20):
        cond.keyboard.press("ArrowLeft")
    result = cond.evaluate(READ)
    assert_close(float(result["scale"]), 10.0**3)
    check(result)
    box = cond.locator('[data-control="rho"]').bounding_box()
    cond.mouse.click(box["x"] + 2, box["y"] + box["height"] / 2)  # the left end: ρ = −0.9
    result = cond.evaluate(READ)
    assert float(result["rho"]) < -0.8
    check(result)


GEOMETRY = """
() => {
  const root = document.querySelector('[data-widget="conditioning"]');
  const svg = root.querySelector('svg');
  const user = svg.getScreenCTM().inverse();
  const matrix = (node) => { const m = user.multiply(node.getScreenCTM()); return [m.a, m.b, m.c, m.d, m.e, m.f]; };
  return {
    k: Number(svg.getAttribute('data-pixels-per-unit')),
    origin: svg.getAttribute('data-origin').split(',').map(Number),
    contours: [...root.querySelectorAll('path[data-level]')].map((p) => ({level: Number(p.getAttribute('data-level')), d: p.getAttribute('d'), m: matrix(p)})),
    paths: Object.fromEntries([...root.querySelectorAll('[data-path]')].map((p) => [p.getAttribute('data-path'), {points: p.getAttribute('points'), m: matrix(p)}])),
  };
}
"""
ROUNDING = 0.0005  # the drawn coordinates have three decimals: each is off by at most half a thousandth of a pixel


def drawn_points(text: str, m) -> np.ndarray:
    """The numbers of an SVG path or points list as (x, y) pairs, through the element's own transform."""
    xy = np.array([float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", text)]).reshape(-1, 2)
    a, b, c, d, e, f = m
    return np.column_stack([a * xy[:, 0] + c * xy[:, 1] + e, b * xy[:, 0] + d * xy[:, 1] + f])


def to_data(points: np.ndarray, geometry) -> np.ndarray:
    """The inverse of the drawing transform u ↦ (x₀ + K·u₁, y₀ − K·u₂)."""
    (x0, y0), k = geometry["origin"], geometry["k"]
    return np.column_stack([(points[:, 0] - x0) / k, (y0 - points[:, 1]) / k])


def check_geometry(page):
    """Each contour point on its level set ½uᵀRu = c to within what three decimals allow (|Δf| ≤
    ‖Ru‖·‖Δu‖ + ½λ_max‖Δu‖², ‖Δu‖ ≤ √2·0.0005/K), the levels the core's, and each drawn path
    point the core's iterate u = S·w to within the same rounding, inside the picture (none cut off)."""
    geometry = page.evaluate(GEOMETRY)
    rho = float(page.evaluate("document.querySelector('[data-widget=conditioning]').dataset.rho"))
    s = float(page.evaluate("document.querySelector('[data-widget=conditioning]').dataset.scale"))
    correlation = np.array([[1.0, rho], [rho, 1.0]])
    levels = [c["level"] for c in geometry["contours"]]
    np.testing.assert_allclose(levels, normgeo.contour_levels(correlation, [-2.6, 0.5], 5, 0.3), rtol=1e-12)
    du = np.sqrt(2) * ROUNDING / geometry["k"]
    lam = np.linalg.eigvalsh(correlation)[-1]
    for contour in geometry["contours"]:
        u = to_data(drawn_points(contour["d"], contour["m"]), geometry)
        assert len(u) == 120
        f = 0.5 * np.einsum("ij,jk,ik->i", u, correlation, u)
        bound = np.linalg.norm(u @ correlation, axis=1) * du + 0.5 * lam * du**2 + 1e-12
        worst = np.max(np.abs(f - contour["level"]) / bound)
        assert worst <= 1.0, f"ρ={rho}: a contour point is off its level {contour['level']} by {worst:.3g}× the rounding bound"
    for name, h in (("raw", np.array([[1.0, rho * s], [rho * s, s * s]])), ("standardized", correlation)):
        start = np.array([-2.6, 0.5 / s]) if name == "raw" else np.array([-2.6, 0.5])
        w = normgeo.gradient_descent_path(h, start, 0.9 * normgeo.largest_stable_step(h), 30)
        u = w * ([1.0, s] if name == "raw" else [1.0, 1.0])
        drawn = to_data(drawn_points(geometry["paths"][name]["points"], geometry["paths"][name]["m"]), geometry)
        assert drawn.shape == u.shape
        assert np.max(np.abs(drawn - u)) <= ROUNDING / geometry["k"] * 1.0001, name
        pixels = drawn_points(geometry["paths"][name]["points"], geometry["paths"][name]["m"])
        assert pixels.min() >= 0 and (pixels[:, 0] <= 460).all() and (pixels[:, 1] <= 300).all(), (name, "cut off")


@pytest.mark.parametrize(("scale", "rho"), [("4", "0.9"), ("0", "-0.5"), ("2.5", "-0.9"), ("1", "0.99"), ("0", "0")])
def test_drawn_contours_lie_on_their_level_sets_and_paths_are_the_cores(cond, scale, rho):
    cond.reload()
    cond.evaluate(DRIVE, [{"scale": scale, "rho": rho}])
    check_geometry(cond)


def test_negative_correlation_uses_its_magnitude(cond):
    """At ρ = −0.5 standardized κ = (1 + |ρ|)/(1 − |ρ|) = 3 (the formula without |·| gives 1/3)."""
    cond.reload()
    result = cond.evaluate(DRIVE, [{"scale": "0", "rho": "-0.5"}])[0]
    check(result)
    assert_close(float(result["outs"]["kappa-standardized"]), 3.0)
    note = cond.locator('[data-out="note"]').inner_text()
    assert "(1 + |ρ|)/(1 − |ρ|) = 3.00" in note and "ρ = −0.50" in note


@pytest.mark.parametrize(("lang", "note", "legend", "kappa"), [
    ("ru", "при ρ = 0,90 κ = (1 + |ρ|)/(1 − |ρ|) = 19,00", "исходные признаки: 30 шагов", "5,263·10⁸"),
    ("zh", "ρ = 0.90 时 κ = (1 + |ρ|)/(1 − |ρ|) = 19.00", "原始特征：30 步", "5.263·10⁸"),
    ("en", "κ = (1 + |ρ|)/(1 − |ρ|) = 19.00 at ρ = 0.90", "raw features: 30 steps", "5.263·10⁸"),
])
def test_the_shown_text_in_each_language(cond, site, lang, note, legend, kappa):
    """Decimal comma in Russian, the ·10ⁿ form, the plural of the step count."""
    cond.goto((site / "widgets" / "conditioning.html").as_uri() + f"?lang={lang}")
    assert note in cond.locator('[data-out="note"]').inner_text()
    assert legend in cond.locator(".ng-legend").inner_text()
    assert cond.locator('[data-out="kappa-raw"]').inner_text() == kappa
    rows = cond.locator(".ng-cond-table tbody th").all_inner_texts()
    assert rows[2] == {"en": "step used, 0.9·2/L", "zh": "所用步长 0.9·2/L", "ru": "используемый шаг 0,9·2/L"}[lang]
    assert rows[3] == {"en": "steps until the error is 10⁻⁶ of its start", "zh": "误差降到初始误差的 10⁻⁶ 所需步数",
                       "ru": "число шагов, пока ошибка не упадёт до 10⁻⁶ от начальной"}[lang]
    assert "30" in cond.locator('[data-widget="conditioning"] svg').first.get_attribute("aria-label")


@pytest.mark.parametrize("theme", ["dark", "light"])
@pytest.mark.parametrize("lang", ["en", "zh", "ru"])
def test_no_serious_accessibility_violation(cond, site, lang, theme):
    cond.goto((site / "widgets" / "conditioning.html").as_uri() + f"?lang={lang}&theme={theme}")
    assert axe_violations(cond) == []
