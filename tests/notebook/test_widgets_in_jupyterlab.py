"""The widgets in JupyterLab: a notebook the test writes, opened by Chromium, its cells run one at a
time; inputs set from Python (numpy vectors and arrays, a states file), the numbers read back from the
widget's DOM and from Python (a cell prints the traits), both equal to closed forms and to the core;
what a person types reaches Python; language and theme follow their traits.

Closed forms, independent of the code under test: at ε = 0 LayerNorm's output in ℝⁿ has length √n
(σ ≠ 0), and in ℝ² it is (1, −1) or (−1, 1); the standardized problem's Hessian is the correlation
matrix [[1, ρ], [ρ, 1]], whose condition number is (1 + |ρ|)/(1 − |ρ|) and whose 2/L is 2/(1 + |ρ|).
"""

from __future__ import annotations

import math
import os
from pathlib import Path

import numpy as np
import pytest

import normgeo
from normgeo_models.states_file import read_states
from scenes.kit.theme import THEMES
from tests.notebook.lab_page import write_and_open
from tests.site.conftest import assert_close

MINILM = Path(__file__).resolve().parents[2] / "scenes" / "states" / "minilm.safetensors"
#: NORMGEO_SCREENSHOTS=DIR keeps a picture of each widget (to look at); without it they go to tmp
SHOTS = os.environ.get("NORMGEO_SCREENSHOTS")


def shot(page, locator, tmp_path: Path, name: str) -> Path:
    folder = Path(SHOTS) if SHOTS else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.png"
    locator.scroll_into_view_if_needed()
    locator.screenshot(path=str(path))
    page.screenshot(path=str(folder / f"{name}.page.png"))  # the widget where JupyterLab puts it
    return path


def wait_for_value(notebook, widget, selector: str, attribute: str, expected: float):
    """Until the widget's ``selector`` carries ``attribute`` within 1e-12 of ``expected``."""
    notebook.page.wait_for_function(
        """([root, selector, attribute, expected]) => {
             const node = root.querySelector(selector);
             const value = node && Number(node.getAttribute(attribute));
             return node !== null && Math.abs(value - expected) <= 1e-12 * Math.max(1, Math.abs(expected));
           }""", arg=[widget.element_handle(), selector, attribute, expected])


def dom_number(widget, selector: str, attribute: str = "data-value") -> float:
    return float(widget.locator(selector).first.get_attribute(attribute))


@pytest.fixture(scope="module")
def vector_page(browser, lab):
    notebook = write_and_open(browser, lab, "vector.ipynb", [
        "import json\nimport numpy as np\nfrom scenes.notebook import Vector2D\nw = Vector2D(theme='light')\nw",
        "w.x = np.array([3.0, 4.0])",
        "print(json.dumps({'x': w.x, 'norm_x': w.norm_x, 'mu': w.mu, 'sigma': w.sigma, 'layernorm': w.layernorm,\n"
        "                  'norm_layernorm': w.norm_layernorm, 'norm_rms': w.norm_rms, 'l2': w.l2}))",
        "w.lang = 'ru'\nw.theme = 'dark'",
        "english = Vector2D(lang='en', theme='light')\nenglish",
        "print(json.dumps({'ru': [w.x, w.norm_x], 'en': [english.x, english.norm_x]}))",
    ])
    notebook.run(0)
    notebook.widget("vector-2d").locator('[data-out="norm-x"][data-value]').wait_for()
    yield notebook
    assert not notebook.errors, notebook.errors
    notebook.page.context.close()


def test_vector_2d_set_from_numpy_answers_in_the_page_and_in_python(vector_page, tmp_path):
    """x = (3, 4) from numpy: the page and Python both say ‖x‖ = 5 and LayerNorm(x) = (−1, 1), of length √2."""
    notebook = vector_page
    widget = notebook.widget("vector-2d")
    notebook.run(1)
    wait_for_value(notebook, widget, '[data-out="norm-x"]', "data-value", 5.0)
    x = np.array([3.0, 4.0])
    spread = normgeo.mean_and_spread(x)
    names = ("norm-x", "mu", "sigma", "norm-layernorm", "norm-rms")
    shown = {name: dom_number(widget, f'[data-out="{name}"]') for name in names}
    point = [dom_number(widget, '[data-point="layernorm"]', a) for a in ("data-x", "data-y")]
    assert_close(point, [-1.0, 1.0], "LayerNorm(x) drawn")  # the closed form: ±(1, −1)
    assert_close(shown["norm-layernorm"], math.sqrt(2), "‖LayerNorm(x)‖ shown")
    assert_close(shown["norm-rms"], math.sqrt(2), "‖RMSNorm(x)‖ shown")
    assert_close(shown["norm-x"], 5.0, "‖x‖ shown")
    assert_close(point, normgeo.layer_norm(x, eps=0.0), "LayerNorm(x) against the core")
    assert_close([shown["mu"], shown["sigma"]], [spread.mean, spread.spread], "μ, σ against the core")

    traits = notebook.printed_json(2, until=lambda t: t["norm_x"] == 5.0)
    assert traits["x"] == [3.0, 4.0]
    assert_close(traits["layernorm"], point, "the trait layernorm")
    assert_close(traits["norm_layernorm"], math.sqrt(2), "the trait norm_layernorm")
    assert_close([traits["norm_x"], traits["mu"], traits["sigma"], traits["norm_rms"]],
                 [5.0, spread.mean, spread.spread, math.sqrt(2)], "the traits against the closed forms")
    assert_close(traits["l2"], [0.6, 0.8], "the trait l2")
    shot(notebook.page, widget, tmp_path, "vector-2d.en.light")


def test_vector_2d_follows_language_and_theme_from_python(vector_page, tmp_path):
    """lang = ru: Russian words and decimal commas; theme = dark: the palette's dark background."""
    notebook = vector_page
    widget = notebook.widget("vector-2d")
    notebook.run(1)
    wait_for_value(notebook, widget, '[data-out="norm-x"]', "data-value", 5.0)
    notebook.run(3)
    notebook.page.wait_for_function("(root) => root.closest('.ng-root').getAttribute('data-theme') === 'dark'",
                                    arg=widget.element_handle())
    assert widget.locator('[data-out="norm-x"]').text_content() == "5,000"
    assert widget.locator('[data-out="mu"]').text_content() == "3,500"
    background = widget.evaluate("root => getComputedStyle(root.closest('.ng-root')).backgroundColor")
    dark = THEMES["dark"].background  # the videos' dark background, #rrggbb
    assert background == "rgb({}, {}, {})".format(*(int(dark[i:i + 2], 16) for i in (1, 3, 5)))
    shot(notebook.page, widget, tmp_path, "vector-2d.ru.dark")


@pytest.fixture(scope="module")
def others_page(browser, lab):
    notebook = write_and_open(browser, lab, "others.ipynb", [
        "import json\nimport numpy as np\nfrom scenes.notebook import Conditioning, Grid, LayerNorm3D",
        "ln3 = LayerNorm3D(theme='light')\nln3",
        "ln3.x = np.array([1.0, 2.0, 6.0])",
        "print(json.dumps({'mu': ln3.mu, 'sigma': ln3.sigma, 'norm_hat': ln3.norm_hat, 'hat': ln3.hat,\n"
        "                  'mean_part': ln3.mean_part, 'centred_part': ln3.centred_part}))",
        "cond = Conditioning(theme='light', lang='zh')\ncond",
        "cond.log10_scale, cond.rho = 2.0, np.float64(0.5)",
        "print(json.dumps({k: getattr(cond, k) for k in ('scale', 'rho', 'kappa_raw', 'kappa_standardized',\n"
        "                  'step_limit_standardized', 'steps_raw', 'steps_standardized', 'path_standardized')}))",
        "grid = Grid(theme='light')\ngrid",
        "grid.values = np.arange(16.0).reshape(4, 4) ** 1.5\ngrid.layer = 'layernorm'\ngrid.eps = 0.0",
        "print(json.dumps({'outputs': grid.outputs, 'eps': grid.eps, 'layer': grid.layer,\n"
        "                  'labels': grid.group_labels}))",
        f"from scenes.notebook import States\n"
        f"states = States.of_file({str(MINILM)!r}, theme='light', lang='ru')\nstates",
        "print(json.dumps({'state': states.state, 'layers': states.layers}))",
    ], viewport=(1300, 1400))
    notebook.run(0)
    yield notebook
    assert not notebook.errors, notebook.errors
    notebook.page.context.close()


def test_layernorm_3d_set_from_numpy_lands_on_the_sphere_of_radius_root_3(others_page, tmp_path):
    """x = (1, 2, 6): μ = 3, x − μ·1 = (−2, −1, 3), ‖x̂‖ = √3, in the page and in Python."""
    notebook = others_page
    notebook.run(1)
    widget = notebook.widget("layernorm-3d")
    widget.locator('[data-out="mu"][data-value]').wait_for()
    notebook.run(2)
    wait_for_value(notebook, widget, '[data-out="mu"]', "data-value", 3.0)
    assert_close(dom_number(widget, '[data-out="norm-hat"]'), math.sqrt(3), "‖x̂‖ shown")
    hat = [dom_number(widget, '[data-vec="hat"]', f"data-x{i}") for i in (1, 2, 3)]
    centred = [dom_number(widget, '[data-vec="centred"]', f"data-x{i}") for i in (1, 2, 3)]
    assert_close(centred, [-2.0, -1.0, 3.0], "x − μ·1 drawn")
    assert_close(hat, np.array([-2.0, -1.0, 3.0]) / math.sqrt(14 / 3), "x̂ drawn: (x − μ·1)/σ, σ² = 14/3")
    assert_close(hat, normgeo.layer_norm(np.array([1.0, 2.0, 6.0]), eps=0.0), "x̂ against the core")
    traits = notebook.printed_json(3, until=lambda t: t["mu"] == 3.0)
    assert_close([traits["mu"], traits["sigma"], traits["norm_hat"]], [3.0, math.sqrt(14 / 3), math.sqrt(3)], "traits")
    assert_close(traits["hat"], hat, "the trait hat")
    assert_close(traits["mean_part"], [3.0, 3.0, 3.0], "the trait mean_part")
    assert_close(traits["centred_part"], centred, "the trait centred_part")
    shot(notebook.page, widget, tmp_path, "layernorm-3d.en.light")


def test_conditioning_set_from_python_shows_the_correlation_matrix_condition_number(others_page, tmp_path):
    """s = 10², ρ = 0.5: standardized κ = (1 + ρ)/(1 − ρ) = 3 and 2/L = 2/(1 + ρ); raw κ as the core says."""
    notebook = others_page
    notebook.run(4)
    widget = notebook.widget("conditioning")
    widget.locator('[data-out="kappa-raw"][data-value]').wait_for()
    notebook.run(5)
    wait_for_value(notebook, widget, '[data-out="kappa-standardized"]', "data-value", 3.0)
    s, rho = 100.0, 0.5
    raw = np.array([[1.0, rho * s], [rho * s, s * s]])
    assert_close(dom_number(widget, '[data-out="step-limit-standardized"]'), 2 / 1.5, "2/L standardized")
    assert_close(dom_number(widget, '[data-out="kappa-raw"]'), normgeo.condition_number(raw), "κ raw against the core")
    start = np.array([-2.6, 0.5 / s])
    step = 0.9 * normgeo.largest_stable_step(raw)
    expected_steps = normgeo.steps_to_tolerance(raw, start, step, 1e-6)
    assert dom_number(widget, '[data-out="steps-raw"]') == expected_steps
    traits = notebook.printed_json(6, until=lambda t: abs(t["kappa_standardized"] - 3.0) < 1e-9)
    assert traits["scale"] == s and traits["rho"] == rho
    assert_close([traits["kappa_standardized"], traits["step_limit_standardized"]], [3.0, 2 / 1.5], "traits")
    assert_close(traits["kappa_raw"], normgeo.condition_number(raw), "the trait kappa_raw")
    assert traits["steps_raw"] == expected_steps
    standardized = np.array([[1.0, rho], [rho, 1.0]])
    path = normgeo.gradient_descent_path(standardized, [-2.6, 0.5], 0.9 * 2 / 1.5, 30)
    assert_close(traits["path_standardized"], path, "the standardized path")
    assert "条件数" in widget.text_content() or "κ" in widget.text_content()
    shot(notebook.page, widget, tmp_path, "conditioning.zh.light")


def test_grid_layernorm_rows_have_mean_zero_and_length_two(others_page, tmp_path):
    """A 4×4 numpy grid under LayerNorm at ε = 0: each row of outputs has mean 0 and length √4 = 2."""
    notebook = others_page
    notebook.run(7)
    widget = notebook.widget("grid")
    widget.locator('[data-out-row="0"][data-out-col="0"][data-value]').wait_for()
    assert widget.locator('[data-control="eps"]').input_value() == "1e-5"  # as the site writes its default
    notebook.run(8)
    notebook.page.wait_for_function("(root) => root.getAttribute('data-layer') === 'layernorm' && "
                                    "root.getAttribute('data-eps') === '0'", arg=widget.element_handle())
    values = np.arange(16.0).reshape(4, 4) ** 1.5
    shown = np.array([[dom_number(widget, f'[data-out-row="{r}"][data-out-col="{c}"]') for c in range(4)]
                      for r in range(4)])
    assert_close(np.linalg.norm(shown, axis=1), [2.0] * 4, "each row's length")
    assert_close(shown.mean(axis=1) + 1.0, [1.0] * 4, "each row's mean (+1)")
    assert_close(shown, normgeo.layer_norm(values, eps=0.0), "the grid against the core")
    traits = notebook.printed_json(9, until=lambda t: t["eps"] == 0.0 and t["outputs"][0][0] is not None
                                   and abs(sum(t["outputs"][0])) < 1e-9)
    assert traits["layer"] == "layernorm" and traits["eps"] == 0.0
    assert_close(traits["outputs"], shown, "the trait outputs")
    assert traits["labels"] == [[r] * 4 for r in range(4)]  # LayerNorm: one group per example (row)
    shot(notebook.page, widget, tmp_path, "grid.en.light")


def test_grid_formula_part_stays_lit_while_its_button_has_focus(others_page):
    """As on the site: a focused part button keeps its part lit when the pointer leaves it (inside the
    widget's shadow root, focus is the root's, not the document's)."""
    notebook = others_page
    notebook.run(7)
    widget = notebook.widget("grid")
    widget.locator('button[data-part="scale"]').click()
    widget.locator('button[data-layer="none"]').hover()
    assert widget.locator(".ng-formula").get_attribute("data-lit") == "scale"
    widget.locator('button[data-part="affine"]').hover()
    assert widget.locator(".ng-formula").get_attribute("data-lit") == "affine"


def test_what_a_person_types_reaches_python_each_widget_in_its_own_language(vector_page):
    """Two widgets on one page, ru and en: typing x₂ = 0,5 into the Russian one and x₁ = 1.5 into the
    English one, each shows its numbers in its language and Python gets the new x and ‖x‖."""
    notebook = vector_page
    notebook.run(1)
    notebook.run(3)
    notebook.run(4)
    russian, english = notebook.widget("vector-2d", 0), notebook.widget("vector-2d", 1)
    english.locator('[data-out="norm-x"][data-value]').wait_for()
    russian.locator('[data-control="x2"]').fill("0,5")
    english.locator('[data-control="x1"]').fill("1.5")
    wait_for_value(notebook, russian, '[data-out="norm-x"]', "data-value", math.hypot(3.0, 0.5))
    wait_for_value(notebook, english, '[data-out="norm-x"]', "data-value", math.hypot(1.5, 2.1))
    assert russian.locator('[data-control="x2"]').input_value() == "0,5"  # what was typed stays as typed
    assert russian.locator('[data-out="mu"]').text_content() == "1,750"
    assert english.locator('[data-out="mu"]').text_content() == "1.800"
    traits = notebook.printed_json(5, until=lambda t: t["ru"][0] == [3.0, 0.5] and t["en"][0] == [1.5, 2.1])
    assert traits["ru"][0] == [3.0, 0.5] and traits["en"][0] == [1.5, 2.1]
    assert_close([traits["ru"][1], traits["en"][1]], [math.hypot(3.0, 0.5), math.hypot(1.5, 2.1)], "‖x‖ in Python")



def test_states_file_from_python_shows_layernorm_radius_root_n(others_page, tmp_path):
    """MiniLM's states file given from Python: one row per LayerNorm call, each output radius √384 (ε = 10⁻¹²
    moves it by about 10⁻¹² relative), the median norms the core's; the same numbers in Python."""
    notebook = others_page
    notebook.run(10)
    widget = notebook.widget("states")
    notebook.page.wait_for_function("(root) => root.getAttribute('data-state') === 'shown'",
                                    arg=widget.element_handle())
    states = read_states(MINILM)
    layers = [layer for layer in states.layers if layer.kind == "layernorm"]
    assert len(layers) == len(states.layers) == widget.locator("tr[data-layer]").count() == 13
    assert widget.locator('[data-control="file"]').evaluate("input => input.files[0].name") == MINILM.name
    profiles = [normgeo.layer_profile(layer.tokens(), layer.eps, True, layer.weight, layer.bias,
                                      None if layer.output is None else layer.tokens("output")) for layer in layers]
    summary = normgeo.depth_summary(profiles)
    column = {stat: [float(widget.locator(f'tr[data-layer="{k}"] td[data-stat="{stat}"]').get_attribute("data-value"))
                     for k in range(len(layers))] for stat in ("min-radius", "max-radius", "median-norm")}
    n = layers[0].input.shape[-1]
    assert n == 384
    assert np.allclose(column["min-radius"] + column["max-radius"], math.sqrt(n), rtol=1e-9, atol=0)
    assert_close(column["median-norm"], summary.median_norms, "median ‖x‖ against the core")
    traits = notebook.printed_json(11, until=lambda t: t["state"] == "shown")
    assert traits["state"] == "shown" and len(traits["layers"]) == 13
    assert_close([row["median_norm"] for row in traits["layers"]], summary.median_norms, "the trait layers")
    assert_close([row["max_norm_token"] for row in traits["layers"]], summary.max_tokens, "the max-norm tokens")
    shot(notebook.page, widget, tmp_path, "states.ru.light")
