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
    assert_close(float(result["outs"]["sigma"]), np.std(x), "σ")
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


@pytest.mark.parametrize("lang", ["en", "zh", "ru"])
def test_no_serious_accessibility_violation(ln3, site, lang):
    ln3.goto((site / "widgets" / "layernorm-3d.html").as_uri() + f"?lang={lang}")
    assert axe_violations(ln3) == []
