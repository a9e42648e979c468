"""layernorm-3d: the decomposition and x̂ equal the core's; the two camera views look where they say."""

from __future__ import annotations

import numpy as np
import pytest

import normgeo
from tests.site.conftest import PageProblems, assert_close, axe_violations, number_text

READ = """
() => {
  const root = document.querySelector('[data-widget="layernorm-3d"]');
  const vecs = {};
  root.querySelectorAll('line[data-vec]').forEach((v) => {
    vecs[v.getAttribute('data-vec')] = v.hasAttribute('data-x1') ? ['x1', 'x2', 'x3'].map((k) => v.getAttribute('data-' + k)) : null;
  });
  const outs = {};
  root.querySelectorAll('[data-out][data-value]').forEach((o) => { outs[o.getAttribute('data-out')] = o.getAttribute('data-value'); });
  const view = ['x', 'y', 'z'].map((k) => Number(root.getAttribute('data-view-' + k)));
  return {vecs, outs, view, eps: root.getAttribute('data-eps'), azimuth: Number(root.getAttribute('data-azimuth')),
          message: root.querySelector('[data-out="message"]').textContent, text: root.textContent};
}
"""

DRIVE = """
(cases) => {
  const root = document.querySelector('[data-widget="layernorm-3d"]');
  const read = """ + READ + """;
  const set = (name, value) => { const n = root.querySelector(`[data-control="${name}"]`); n.value = value; n.dispatchEvent(new Event('input', {bubbles: true})); };
  return cases.map((c) => { for (const [k, v] of Object.entries(c)) set(k, v); return read(); });
}
"""


def check(result):
    x = np.array([float(v) for v in result["vecs"]["x"]])
    eps = float(result["eps"])
    parts = normgeo.decompose(x)
    assert_close([float(v) for v in result["vecs"]["mean-part"]], parts.mean_part, "μ·1")
    assert_close([float(v) for v in result["vecs"]["centred"]], parts.centred_part, "x − μ·1")
    hat = normgeo.layer_norm(x, eps=eps)
    assert_close([float(v) for v in result["vecs"]["hat"]], hat, "x̂")
    assert [float(v) for v in result["vecs"]["ones"]] == [1.0, 1.0, 1.0]
    assert_close(float(result["outs"]["mu"]), parts.mean, "μ")
    spread = 0.0 if np.all(x == x[0]) else float(normgeo.mean_and_spread(x).spread)
    assert_close(float(result["outs"]["sigma"]), spread, "σ")
    if spread:
        assert abs(float(result["outs"]["sigma"]) - spread) <= 1e-12 * spread, "σ keeps its significant digits"
    assert_close(float(result["outs"]["norm-hat"]), np.linalg.norm(hat), "‖x̂‖")
    assert "NaN" not in result["text"] and "Infinity" not in result["text"]


@pytest.fixture(scope="module")
def ln3(browser, site):
    context = browser.new_context(viewport={"width": 900, "height": 900})
    page = context.new_page()
    problems = PageProblems(page)  # console errors, page errors, any request but file:/data:/blob:
    page.goto((site / "widgets" / "layernorm-3d.html").as_uri() + "?lang=en")
    yield page
    context.close()
    problems.check()


def test_default_lies_on_the_circle(ln3):
    ln3.reload()
    result = ln3.evaluate(READ)
    check(result)
    hat = np.array([float(v) for v in result["vecs"]["hat"]])
    assert abs(hat.sum()) < 1e-12 and abs(np.linalg.norm(hat) - np.sqrt(3)) < 1e-12


def test_typing_x_and_random_inputs(ln3):
    ln3.reload()
    box = ln3.locator('[data-control="x2"]')
    box.fill("-4.5")
    check(ln3.evaluate(READ))
    rng = np.random.default_rng(3)
    cases = []
    for _ in range(220):
        x = rng.standard_normal(3) * 10.0 ** rng.uniform(-3, 3)
        eps = float(rng.choice([0.0, 1e-5, 0.5, 10.0 ** rng.uniform(-9, 1)]))
        cases.append({"x1": number_text(x[0]), "x2": number_text(x[1]), "x3": number_text(x[2]), "eps": number_text(eps)})
    for case, result in zip(cases, ln3.evaluate(DRIVE, cases)):
        assert result["message"] == ""
        assert [float(v) for v in result["vecs"]["x"]] == [float(case[k]) for k in ("x1", "x2", "x3")]
        check(result)


def test_camera_buttons(ln3):
    ln3.reload()
    ones = np.ones(3) / np.sqrt(3)
    ln3.locator('button[data-view="face"]').click()
    view = np.array(ln3.evaluate(READ)["view"])
    assert np.allclose(view, ones, atol=1e-12), view  # looking along 1: the plane face-on
    ln3.locator('button[data-view="edge"]').click()
    view = np.array(ln3.evaluate(READ)["view"])
    assert abs(view @ ones) < 1e-12 and abs(np.linalg.norm(view) - 1) < 1e-12  # perpendicular to 1: edge-on


def test_drag_and_keys_turn_the_picture(ln3):
    ln3.reload()
    before = ln3.evaluate(READ)["azimuth"]
    box = ln3.locator('[data-widget="layernorm-3d"] svg').first.bounding_box()
    ln3.mouse.move(box["x"] + 200, box["y"] + 200)
    ln3.mouse.down()
    ln3.mouse.move(box["x"] + 260, box["y"] + 220, steps=5)
    ln3.mouse.up()
    after = ln3.evaluate(READ)["azimuth"]
    assert after != before
    ln3.locator('[data-widget="layernorm-3d"] svg').first.focus()
    ln3.keyboard.press("ArrowRight")
    assert ln3.evaluate(READ)["azimuth"] == after + 5
    check(ln3.evaluate(READ))


def test_bad_and_degenerate_input(ln3):
    ln3.reload()
    result = ln3.evaluate(DRIVE, [{"x1": "1e300"}])[0]
    assert "too large" in result["message"]
    assert ln3.locator('[data-control="x1"]').get_attribute("aria-invalid") == "true"
    assert [float(v) for v in result["vecs"]["x"]] == [0.5, 1.5, 2.5]
    result = ln3.evaluate(DRIVE, [{"x1": "2", "x2": "2", "x3": "2", "eps": "0"}])[0]
    assert result["vecs"]["hat"] is None and "σ = 0" in result["message"]
    assert "NaN" not in result["text"]
    result = ln3.evaluate(DRIVE, [{"eps": "0.1"}])[0]
    check(result)


DRAWN = """
() => {
  const root = document.querySelector('[data-widget="layernorm-3d"]');
  const svg = root.querySelector('svg');
  const numbers = (text) => text.trim().split(/[ ,]+/).map(Number);
  const circle = [...root.querySelectorAll('polyline[data-set="circle"]')].map((p) => numbers(p.getAttribute('points')));
  const tip = (name) => { const l = root.querySelector(`line[data-vec="${name}"]`); return l && l.getAttribute('visibility') !== 'hidden' ? [Number(l.getAttribute('x2')), Number(l.getAttribute('y2'))] : null; };
  const attrs = [...svg.querySelectorAll('*')].flatMap((n) => [...n.attributes].map((a) => a.value));
  return {circle, tips: {x: tip('x'), hat: tip('hat'), centred: tip('centred')}, k: Number(svg.getAttribute('data-pixels-per-unit')),
          origin: svg.getAttribute('data-origin').split(',').map(Number), view: ['x', 'y', 'z'].map((c) => Number(root.getAttribute('data-view-' + c))),
          size: Number(svg.getAttribute('width')), nan: attrs.some((v) => /NaN|Infinity/.test(v))};
}
"""


def projector(drawn):
    """Orthographic projection of the stated view: right = e₃ × view (normalized), up = view × right."""
    view = np.array(drawn["view"])
    right = np.cross([0.0, 0.0, 1.0], view)
    right /= np.linalg.norm(right)
    up = np.cross(view, right)
    (x0, y0), k = drawn["origin"], drawn["k"]
    return lambda p: np.column_stack([x0 + k * (np.atleast_2d(p) @ right), y0 - k * (np.atleast_2d(p) @ up)])


@pytest.mark.parametrize("keys", [[], ["ArrowRight"] * 5 + ["ArrowUp"] * 4, ["ArrowLeft"] * 11 + ["ArrowDown"] * 7])
def test_the_drawn_circle_and_vectors_are_the_cores_projected(ln3, keys):
    """The polylines of the circle are normgeo.circle_in_plane(hyperplane_basis(3), √3) projected (to
    the three decimals they are written with); the drawn tips of x, x − μ·1 and x̂ are the core's."""
    ln3.reload()
    svg = ln3.locator('[data-widget="layernorm-3d"] svg').first
    svg.focus()
    for key in keys:
        ln3.keyboard.press(key)
    check(ln3.evaluate(READ))
    drawn = ln3.evaluate(DRAWN)
    project = projector(drawn)
    basis = normgeo.hyperplane_basis(3)
    expected = project(normgeo.circle_in_plane(basis[0], basis[1], np.sqrt(3), 96))
    points = np.concatenate([np.array(run).reshape(-1, 2) for run in drawn["circle"]])
    nearest = np.min(np.linalg.norm(points[:, None, :] - expected[None, :, :], axis=2), axis=1)
    assert np.max(nearest) <= np.sqrt(2) * 0.0005 * 1.001, np.max(nearest)  # every drawn point is a circle point
    covered = np.min(np.linalg.norm(expected[:, None, :] - points[None, :, :], axis=2), axis=1)
    assert np.max(covered) <= np.sqrt(2) * 0.0005 * 1.001  # and every circle point is drawn
    x = np.array([0.5, 1.5, 2.5])
    for name, v in (("x", x), ("centred", normgeo.decompose(x).centred_part), ("hat", normgeo.layer_norm(x, eps=0.0))):
        assert np.allclose(drawn["tips"][name], project(v)[0], rtol=0, atol=1e-9), name


@pytest.mark.parametrize(("lang", "said"), [("en", "drawn at 10⁻¹⁵⁰ of their length"), ("ru", "укороченными до 10⁻¹⁵⁰"), ("zh", "按其长度的 10⁻¹⁵⁰ 画出")])
def test_a_huge_vector_is_drawn_shortened_and_says_so(ln3, site, lang, said):
    """At 1e150 the picture keeps the sphere, the circle and x̂ in view (they had collapsed onto the
    origin): x and its parts are drawn shortened by 10⁻¹⁵⁰, which the note under the figure says."""
    ln3.goto((site / "widgets" / "layernorm-3d.html").as_uri() + f"?lang={lang}")
    result = ln3.evaluate(DRIVE, [{"x1": "1e150", "x2": "5e149", "x3": "-8e149"}])[0]
    assert result["message"] == "" and [float(v) for v in result["vecs"]["x"]] == [1e150, 5e149, -8e149]
    check(result)
    drawn = ln3.evaluate(DRAWN)
    assert not drawn["nan"]
    f = float(ln3.locator('[data-widget="layernorm-3d"] svg').first.get_attribute("data-drawn-scale"))
    assert f == 1e-150
    project = projector(drawn)
    x = np.array([1e150, 5e149, -8e149])
    assert np.allclose(drawn["tips"]["x"], project(f * x)[0], rtol=0, atol=1e-6)
    assert np.allclose(drawn["tips"]["hat"], project(normgeo.layer_norm(x, eps=0.0))[0], rtol=0, atol=1e-6)
    assert drawn["k"] * np.sqrt(3) > 40  # the sphere is drawn at least 40 px across its radius
    tip = np.array(drawn["tips"]["x"])
    assert 0 <= tip.min() and tip.max() <= drawn["size"]
    assert said in ln3.locator('[data-out="scaled"]').inner_text()
    ln3.evaluate(DRIVE, [{"x1": "0.5", "x2": "1.5", "x3": "2.5"}])
    assert ln3.locator('[data-out="scaled"]').inner_text() == ""


@pytest.mark.parametrize(("lang", "hat", "centred"), [
    ("en", "(−0.0316, 0.0000, 0.0316)", "(−1.00, 0.00, 1.00)"),
    ("zh", "(−0.0316, 0.0000, 0.0316)", "(−1.00, 0.00, 1.00)"),
    ("ru", "(−0,0316; 0,0000; 0,0316)", "(−1,00; 0,00; 1,00)"),
])
def test_a_vectors_entries_share_one_precision(ln3, site, lang, hat, centred):
    """At ε = 1000, x̂₂ = 6.9·10⁻¹⁸ (rounding, the core gives it too) beside ±0.0316 reads 0, as x − μ·1's does."""
    ln3.goto((site / "widgets" / "layernorm-3d.html").as_uri() + f"?lang={lang}")
    ln3.evaluate(DRIVE, [{"eps": "1000"}])
    assert ln3.locator('[data-vec-text="hat"]').inner_text() == hat
    assert ln3.locator('[data-vec-text="centred"]').inner_text() == centred
    assert "10⁻" not in ln3.locator(".ng-vectors").inner_text()


@pytest.mark.parametrize("theme", ["dark", "light"])
@pytest.mark.parametrize("lang", ["en", "zh", "ru"])
def test_no_serious_accessibility_violation(ln3, site, lang, theme):
    ln3.goto((site / "widgets" / "layernorm-3d.html").as_uri() + f"?lang={lang}&theme={theme}")
    assert axe_violations(ln3) == []
