"""vector-2d: the dragged x and its L2, RMSNorm and LayerNorm points, exactly as the core computes them."""

from __future__ import annotations

import re

import numpy as np
import pytest

import normgeo
from tests.site.conftest import PageProblems, assert_close, axe_violations, number_text

NAMES = ("x", "l2", "rms", "layernorm", "rms-affine", "layernorm-affine")

READ = """
() => {
  const root = document.querySelector('[data-widget="vector-2d"]');
  const points = {};
  root.querySelectorAll('[data-point]').forEach((p) => {
    points[p.getAttribute('data-point')] = p.hasAttribute('data-x') ? [p.getAttribute('data-x'), p.getAttribute('data-y')] : null;
  });
  const outs = {};
  root.querySelectorAll('[data-out][data-value]').forEach((o) => { outs[o.getAttribute('data-out')] = o.getAttribute('data-value'); });
  const params = {};
  ['eps', 'gamma1', 'gamma2', 'beta1', 'beta2'].forEach((n) => { params[n] = root.getAttribute('data-' + n); });
  return {points, outs, params, message: root.querySelector('[data-out="message"]').textContent, text: root.textContent};
}
"""

DRIVE = """
(cases) => {
  const root = document.querySelector('[data-widget="vector-2d"]');
  const read = """ + READ + """;
  const set = (name, value) => { const n = root.querySelector(`[data-control="${name}"]`); n.value = value; n.dispatchEvent(new Event('input', {bubbles: true})); };
  return cases.map((c) => { for (const [k, v] of Object.entries(c)) set(k, v); return read(); });
}
"""


def check(result):
    """Every point and readout the widget shows equals the core's."""
    p = result["points"]
    x = np.array([float(v) for v in p["x"]])
    eps = float(result["params"]["eps"])
    gamma = np.array([float(result["params"]["gamma1"]), float(result["params"]["gamma2"])])
    beta = np.array([float(result["params"]["beta1"]), float(result["params"]["beta2"])])
    assert_close([float(v) for v in p["l2"]], normgeo.l2_normalize(x), "l2")
    assert_close([float(v) for v in p["rms"]], normgeo.rms_norm(x, eps=eps), "rms")
    assert_close([float(v) for v in p["layernorm"]], normgeo.layer_norm(x, eps=eps), "layernorm")
    assert_close([float(v) for v in p["rms-affine"]], normgeo.rms_norm(x, eps=eps, weight=gamma), "rms affine")
    assert_close([float(v) for v in p["layernorm-affine"]], normgeo.layer_norm(x, eps=eps, weight=gamma, bias=beta), "layernorm affine")
    o = result["outs"]
    assert_close(float(o["norm-x"]), normgeo.euclidean_norm(x), "‖x‖")
    parts = normgeo.decompose(x)
    assert_close(float(o["mu"]), parts.mean, "μ")
    spread = 0.0 if x[0] == x[1] else float(normgeo.mean_and_spread(x).spread)  # without underflow at 1e-200
    assert_close(float(o["sigma"]), spread, "σ")
    if spread:
        assert abs(float(o["sigma"]) - spread) <= 1e-12 * spread, "σ keeps its significant digits"
    assert_close(float(o["norm-rms"]), np.linalg.norm(normgeo.rms_norm(x, eps=eps)), "‖rms‖")
    assert_close(float(o["norm-layernorm"]), np.linalg.norm(normgeo.layer_norm(x, eps=eps)), "‖ln‖")
    assert "NaN" not in result["text"] and "Infinity" not in result["text"]


@pytest.fixture(scope="module")
def v2(browser, site):
    context = browser.new_context(viewport={"width": 900, "height": 900}, has_touch=True)
    page = context.new_page()
    problems = PageProblems(page)  # console errors, page errors, any request but file:/data:/blob:
    page.goto((site / "widgets" / "vector-2d.html").as_uri() + "?lang=en")
    yield page
    context.close()
    problems.check()


def test_dragging_the_tip_with_the_mouse(v2):
    v2.reload()
    svg = v2.locator('[data-widget="vector-2d"] svg').first
    box = svg.bounding_box()
    scale = box["width"] / 460
    handle = v2.locator('[data-point="x"]').bounding_box()
    v2.mouse.move(handle["x"] + handle["width"] / 2, handle["y"] + handle["height"] / 2)
    v2.mouse.down()
    # to the data point (-2, 0.5): pixel = 230 + x·(460/6.4), 230 − y·(460/6.4)
    target = (box["x"] + (230 - 2 * 460 / 6.4) * scale, box["y"] + (230 - 0.5 * 460 / 6.4) * scale)
    v2.mouse.move(*target, steps=8)
    v2.mouse.up()
    result = v2.evaluate(READ)
    x = [float(v) for v in result["points"]["x"]]
    assert abs(x[0] + 2) < 0.02 and abs(x[1] - 0.5) < 0.02
    for name, value in (("x1", x[0]), ("x2", x[1])):  # rounded to what a pixel tells apart (6.4/460 ≈ 0.014)
        typed = v2.locator(f'[data-control="{name}"]').input_value()
        assert re.fullmatch(r"-?\d+(\.\d{1,2})?", typed), typed
        assert float(typed) == value
    check(result)


def test_touch_moves_the_tip(v2):
    v2.reload()
    box = v2.locator('[data-widget="vector-2d"] svg').first.bounding_box()
    v2.touchscreen.tap(box["x"] + box["width"] * 0.75, box["y"] + box["height"] * 0.3)
    result = v2.evaluate(READ)
    x = [float(v) for v in result["points"]["x"]]
    assert abs(x[0] - 1.6) < 0.03 and abs(x[1] - 1.28) < 0.03
    check(result)


def test_arrow_keys_move_the_tip(v2):
    v2.reload()
    v2.locator('[data-point="x"]').focus()
    for key in ("ArrowRight", "ArrowRight", "ArrowDown", "Shift+ArrowLeft"):
        v2.keyboard.press(key)
    result = v2.evaluate(READ)
    assert [float(v) for v in result["points"]["x"]] == [0.9, 2.0]
    check(result)
    assert v2.locator('[data-point="x"]').get_attribute("aria-valuetext") == "x = (0.90, 2.00)"


def test_the_points_lie_where_the_lesson_says_at_eps_zero(v2):
    v2.reload()
    result = v2.evaluate(DRIVE, [{"x1": "3", "x2": "4", "eps": "0"}])[0]
    p = {k: np.array([float(a) for a in v]) for k, v in result["points"].items()}
    assert_close(p["l2"], [0.6, 0.8])
    assert_close(np.linalg.norm(p["rms"]), np.sqrt(2))
    assert_close(p["layernorm"], [-1.0, 1.0])
    check(result)


def test_random_inputs_match_the_core(v2):
    """240 seeded random x, ε, γ, β through the widget's own handlers."""
    v2.reload()
    rng = np.random.default_rng(7)
    cases = []
    for _ in range(240):
        x = rng.standard_normal(2) * 10.0 ** rng.uniform(-4, 4)
        eps = float(rng.choice([0.0, 1e-5, 0.25, 10.0 ** rng.uniform(-8, 1)]))
        slider = lambda lo, hi: number_text(round(rng.uniform(lo, hi) / 0.05) * 0.05)  # noqa: E731
        cases.append({"x1": number_text(x[0]), "x2": number_text(x[1]), "eps": number_text(eps),
                      "gamma1": slider(-2, 2), "gamma2": slider(-2, 2), "beta1": slider(-1.5, 1.5), "beta2": slider(-1.5, 1.5)})
    results = v2.evaluate(DRIVE, cases)
    for case, result in zip(cases, results):
        assert result["message"] == ""
        assert [float(v) for v in result["points"]["x"]] == [float(case["x1"]), float(case["x2"])]
        check(result)


@pytest.mark.parametrize(("field", "text", "reason"), [("x1", "abc", "not a number"), ("x2", "", "empty"), ("x1", "1e300", "too large"), ("eps", "-1", "negative")])
def test_bad_input_is_marked(v2, field, text, reason):
    v2.reload()
    result = v2.evaluate(DRIVE, [{field: text}])[0]
    box = v2.locator(f'[data-control="{field}"]')
    assert box.get_attribute("aria-invalid") == "true"
    assert reason in result["message"]
    assert "NaN" not in result["text"] and "Infinity" not in result["text"]
    if field != "eps":  # the last good x stays, with its points
        assert [float(v) for v in result["points"]["x"]] == [1.2, 2.1]


def test_zero_vector_and_equal_coordinates(v2):
    v2.reload()
    zero = v2.evaluate(DRIVE, [{"x1": "0", "x2": "0", "eps": "0"}])[0]
    assert zero["points"]["l2"] is None and zero["points"]["rms"] is None and zero["points"]["layernorm"] is None
    assert "no direction" in zero["message"]
    equal = v2.evaluate(DRIVE, [{"x1": "1.5", "x2": "1.5", "eps": "0"}])[0]
    assert equal["points"]["layernorm"] is None and "σ = 0" in equal["message"]
    assert_close([float(v) for v in equal["points"]["rms"]], normgeo.rms_norm([1.5, 1.5], eps=0.0))
    with pytest.raises(normgeo.ZeroVarianceError):
        normgeo.layer_norm([1.5, 1.5], eps=0.0)
    pulled = v2.evaluate(DRIVE, [{"eps": "0.01"}])[0]
    assert_close([float(v) for v in pulled["points"]["layernorm"]], normgeo.layer_norm([1.5, 1.5], eps=0.01))


DRAWN = """
() => {
  const root = document.querySelector('[data-widget="vector-2d"]');
  const svg = root.querySelector('svg');
  const user = svg.getScreenCTM().inverse();
  const at = (node, x, y) => { const p = svg.createSVGPoint(); p.x = x; p.y = y; const q = p.matrixTransform(user.multiply(node.getScreenCTM())); return [q.x, q.y]; };
  const num = (node, name) => Number(node.getAttribute(name));
  const points = {};
  root.querySelectorAll('circle[data-point]').forEach((c) => {
    points[c.getAttribute('data-point')] = c.getAttribute('visibility') === 'hidden' ? null : at(c, num(c, 'cx'), num(c, 'cy'));
  });
  const sets = {};
  root.querySelectorAll('circle[data-set]').forEach((c) => { sets[c.getAttribute('data-set')] = {centre: at(c, num(c, 'cx'), num(c, 'cy')), r: num(c, 'r')}; });
  const line = root.querySelector('line[data-set="zero-mean"]');
  sets.line = [at(line, num(line, 'x1'), num(line, 'y1')), at(line, num(line, 'x2'), num(line, 'y2'))];
  return {points, sets, k: num(svg, 'data-pixels-per-unit'), origin: svg.getAttribute('data-origin').split(',').map(Number),
          limit: num(svg, 'data-view-limit')};
}
"""


@pytest.mark.parametrize("case", [{"x1": "3", "x2": "4", "eps": "0"}, {"x1": "-1.7", "x2": "0.4", "eps": "0"},
                                  {"x1": "0.2", "x2": "-2.9", "eps": "0.3", "gamma1": "1.5", "beta2": "-0.5"}])
def test_the_drawn_points_are_the_cores_and_lie_on_the_drawn_sets(v2, case):
    """Read back from the SVG (through each element's own transform): every point is the core's
    image of x mapped by (x₀ + K·v₁, y₀ − K·v₂); at ε = 0 L2 lies on the drawn unit circle,
    RMSNorm on the drawn circle of radius √2 and LayerNorm on the drawn zero-mean line. The SVG
    maps points in float32 (ulp ≈ 3·10⁻⁵ at 460 px): 10⁻⁴ px, i.e. 1.4·10⁻⁶ data units."""
    tol = 1e-4
    v2.reload()
    result = v2.evaluate(DRIVE, [case])[0]
    check(result)
    drawn = v2.evaluate(DRAWN)
    x = np.array([float(case["x1"]), float(case["x2"])])
    eps = float(case["eps"])
    gamma = np.array([float(case.get("gamma1", 1)), float(case.get("gamma2", 1))])
    beta = np.array([float(case.get("beta1", 0)), float(case.get("beta2", 0))])
    (x0, y0), k = drawn["origin"], drawn["k"]
    expected = {"x": x, "l2": normgeo.l2_normalize(x), "rms": normgeo.rms_norm(x, eps=eps), "layernorm": normgeo.layer_norm(x, eps=eps),
                "rms-affine": normgeo.rms_norm(x, eps=eps, weight=gamma),
                "layernorm-affine": normgeo.layer_norm(x, eps=eps, weight=gamma, bias=beta)}
    for name, v in expected.items():
        v = np.clip(v, -drawn["limit"], drawn["limit"])  # beyond the view a point waits at its edge
        assert np.allclose(drawn["points"][name], [x0 + k * v[0], y0 - k * v[1]], rtol=0, atol=tol), name
    def on_circle(point, circle):
        return abs(np.hypot(point[0] - circle["centre"][0], point[1] - circle["centre"][1]) - circle["r"])
    assert on_circle(drawn["points"]["l2"], drawn["sets"]["l2"]) < tol
    (ax, ay), (bx, by) = drawn["sets"]["line"]
    px_, py_ = drawn["points"]["layernorm"]
    distance_to_line = abs((bx - ax) * (ay - py_) - (ax - px_) * (by - ay)) / np.hypot(bx - ax, by - ay)
    if eps == 0:
        assert on_circle(drawn["points"]["rms"], drawn["sets"]["rms"]) < tol
        assert distance_to_line < tol
    else:  # ε pulls both inside: RMSNorm within the circle, LayerNorm still on the line
        assert on_circle(drawn["points"]["rms"], drawn["sets"]["rms"]) > 1
        assert distance_to_line < tol


@pytest.mark.parametrize(("lang", "mu", "sigma", "aria"), [
    ("en", "1.5·10⁻²⁰⁰", "5·10⁻²⁰¹", "x = (0.90, 2.00)"),
    ("zh", "1.5·10⁻²⁰⁰", "5·10⁻²⁰¹", "x = (0.90, 2.00)"),
    ("ru", "1,5·10⁻²⁰⁰", "5·10⁻²⁰¹", "x = (0,90; 2,00)"),
])
def test_tiny_vectors_keep_their_digits_in_each_language(v2, site, lang, mu, sigma, aria):
    """At (1e−200, 2e−200), ε = 0: σ = 5·10⁻²⁰¹ beside μ = 1.5·10⁻²⁰⁰ (squaring underflowed to σ = 0.000)."""
    v2.goto((site / "widgets" / "vector-2d.html").as_uri() + f"?lang={lang}")
    result = v2.evaluate(DRIVE, [{"x1": "1e-200", "x2": "2e-200", "eps": "0"}])[0]
    check(result)
    assert v2.locator('[data-out="mu"]').inner_text() == mu
    assert v2.locator('[data-out="sigma"]').inner_text() == sigma
    assert v2.locator('[data-out="norm-layernorm"]').inner_text() == ("1,414" if lang == "ru" else "1.414")
    v2.evaluate(DRIVE, [{"x1": "0.9", "x2": "2"}])
    assert v2.locator('[data-point="x"]').get_attribute("aria-valuetext") == aria


@pytest.mark.parametrize("theme", ["dark", "light"])
@pytest.mark.parametrize("lang", ["en", "zh", "ru"])
def test_no_serious_accessibility_violation(v2, site, lang, theme):
    v2.goto((site / "widgets" / "vector-2d.html").as_uri() + f"?lang={lang}&theme={theme}")
    assert axe_violations(v2) == []
