"""conditioning: κ, 2/L, the paths and the step counts equal normgeo's for the Hessian S·R·S."""

from __future__ import annotations

import json

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


@pytest.mark.parametrize("lang", ["en", "zh", "ru"])
def test_no_serious_accessibility_violation(cond, site, lang):
    cond.goto((site / "widgets" / "conditioning.html").as_uri() + f"?lang={lang}&theme=dark")
    assert axe_violations(cond) == []
