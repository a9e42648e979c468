"""The widgets without a browser: their inputs as traits (a numpy array accepted, bad values refused
with the reason), their module built from the site's own files, their styles kept inside them."""

from __future__ import annotations

import numpy as np
import pytest
import traitlets

from scenes.notebook import Conditioning, Grid, LayerNorm3D, States, Vector2D
from scenes.notebook.widget_module import BRIDGE, widget_style
from scenes.render.site.model import WEB_DIR, WIDGETS

CLASSES = {"vector-2d": Vector2D, "layernorm-3d": LayerNorm3D, "conditioning": Conditioning, "grid": Grid,
           "states": States}


def test_a_numpy_vector_becomes_plain_floats():
    widget = Vector2D(x=np.array([3, 4], dtype=np.int64))
    assert widget.x == [3.0, 4.0] and all(type(v) is float for v in widget.x)
    widget.x = np.array([-1.5, 2.25])
    assert widget.x == [-1.5, 2.25]
    grid = Grid(values=np.arange(16.0).reshape(4, 4))
    assert grid.values[3] == [12.0, 13.0, 14.0, 15.0]
    assert LayerNorm3D(x=(1, 2, 6)).x == [1.0, 2.0, 6.0]


@pytest.mark.parametrize(("widget", "name", "value", "reason"), [
    (Vector2D, "x", [1.0, 2.0, 3.0], "expected shape (2,)"),
    (Vector2D, "x", [1.0, np.nan], "finite"),
    (Vector2D, "x", [1e151, 0.0], "up to 1e+150"),
    (Vector2D, "x", ["a", "b"], "expected numbers"),
    (Vector2D, "eps", -1e-5, "≥ 0"),
    (Vector2D, "gamma", [1.0, 1.03], "steps of 0.05"),
    (Vector2D, "beta", [0.0, 1.55], "-1.5 to 1.5"),
    (LayerNorm3D, "elevation", 90.0, "−89° to 89°"),
    (Conditioning, "rho", 0.995, "-0.9 to 0.99"),
    (Conditioning, "log10_scale", 1.02, "steps of 0.05"),
    (Grid, "groups", 4, "at least two"),
    (Grid, "layer", "instancenorm", "instancenorm"),
    (Grid, "values", np.zeros((4, 3)), "expected shape (4, 4)"),
    (Vector2D, "lang", "fr", "fr"),
    (Vector2D, "theme", "sepia", "sepia"),
])
def test_a_value_the_widget_cannot_take_is_refused(widget, name, value, reason):
    instance = widget()
    before = getattr(instance, name)
    with pytest.raises(traitlets.TraitError, match=reason.replace("+", r"\+").replace("(", r"\(").replace(")", r"\)")):
        setattr(instance, name, value)
    assert getattr(instance, name) == before


def test_values_on_a_slider_step_are_taken():
    widget = Conditioning(log10_scale=np.float64(2.35), rho=-0.9)
    assert (widget.log10_scale, widget.rho) == (2.35, -0.9)
    assert Vector2D(gamma=[-2.0, 0.35], beta=[1.5, -0.05]).gamma == [-2.0, 0.35]


def test_what_the_widget_shows_is_read_only_and_none_until_drawn():
    widget = Vector2D()
    assert widget.norm_layernorm is None and widget.layernorm is None
    with pytest.raises(traitlets.TraitError):
        widget.norm_layernorm = 1.0


@pytest.mark.parametrize("name", sorted(CLASSES))
def test_the_module_is_the_sites_scripts_and_the_bridge(name):
    """The widget's ES module holds ng-math.js, ng.js and its script from scenes/web as they are (no copy)."""
    module = CLASSES[name]()._esm
    for script in ("ng-math.js", "ng.js", WIDGETS[name]):
        assert (WEB_DIR / script).read_text(encoding="utf-8") in module, script
    assert module.endswith(BRIDGE.read_text(encoding="utf-8"))
    assert module.count("export default") == 1
    assert ("window.NORMGEO_FORMULAS" in module) == (name == "grid")


def test_the_sites_styles_apply_to_the_widget_frame_only():
    """No rule of palette.css or site.css reaches JupyterLab's page: :root, html and body become .ng-root."""
    style = widget_style()
    assert ":root" not in style
    assert not any(line.startswith(("html ", "body ")) for line in style.splitlines())
    assert '.ng-root[data-theme="dark"]' in style and ".ng-root {" in style
