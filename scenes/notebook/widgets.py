"""The site's four widgets as Jupyter widgets (anywidget): the same scripts, mounted in a cell's
output, their inputs set from Python and the numbers they draw read back as traits.

Inputs are ordinary traits (``widget.x = np.array([3.0, 4.0])``); what the widget shows
(``widget.norm_layernorm``) arrives from the browser once it has redrawn, so it is None until the
widget is displayed, and reading it in the cell that changed an input gives the previous value: read
it in a later cell. ``lang`` (en, zh, ru) and ``theme`` (auto: JupyterLab's own, dark, light) are
traits too.

>>> Vector2D(x=[3.0, 4.0]).x, Vector2D().norm_x is None
([3.0, 4.0], True)
"""

from __future__ import annotations

from pathlib import Path

import anywidget
import traitlets

from scenes.kit.languages import DEFAULT_LANGUAGE, LANGUAGES
from scenes.kit.site_data import SOURCE_GRID
from scenes.notebook.traits import FieldNumber, FloatArray, Shown, SliderValue, SliderValues
from scenes.notebook.widget_module import widget_module

__all__ = ["THEMES", "Conditioning", "Grid", "LayerNorm3D", "SiteWidget", "Vector2D"]

#: auto follows JupyterLab's theme (light or dark), else the reader's system setting
THEMES = ("auto", "dark", "light")
GRID_LAYERS = ("none", "batchnorm", "layernorm", "rmsnorm", "groupnorm")


class SiteWidget(anywidget.AnyWidget):
    """A widget of the site in a notebook: ``_widget`` names its script in ``scenes/web``, ``_inputs``
    its input traits (those the bridge applies and reads back)."""

    _widget: str = ""
    _inputs: tuple[str, ...] = ()
    _esm = traitlets.Unicode().tag(sync=True)
    lang = traitlets.Enum(LANGUAGES, DEFAULT_LANGUAGE).tag(sync=True)
    theme = traitlets.Enum(THEMES, "auto").tag(sync=True)

    @traitlets.default("_esm")
    def _module(self) -> str:
        return widget_module(self._widget, self._inputs)


class Vector2D(SiteWidget):
    """vector-2d: a vector x in the plane, its images under L2, RMSNorm and LayerNorm (before and
    after γ, β), the unit circle, the circle of radius √2 and the line x₁ + x₂ = 0."""

    _widget = "vector-2d"
    _inputs = ("x", "eps", "gamma", "beta")
    x = FloatArray([1.2, 2.1], (2,)).tag(sync=True)
    eps = FieldNumber(0.0, nonnegative=True).tag(sync=True)
    gamma = SliderValues([1.0, 1.0], -2.0, 2.0, 0.05).tag(sync=True)
    beta = SliderValues([0.0, 0.0], -1.5, 1.5, 0.05).tag(sync=True)
    norm_x, mu, sigma, norm_rms, norm_layernorm = Shown(), Shown(), Shown(), Shown(), Shown()
    l2, rms, layernorm, rms_affine, layernorm_affine = Shown(), Shown(), Shown(), Shown(), Shown()
    message = Shown()


class LayerNorm3D(SiteWidget):
    """layernorm-3d: x in ℝ³ split as μ·1 + (x − μ·1), the zero-mean plane, the sphere of radius √3 and
    x̂ = LayerNorm(x) on their circle; ``azimuth`` and ``elevation`` (degrees) turn the view."""

    _widget = "layernorm-3d"
    _inputs = ("x", "eps", "azimuth", "elevation")
    x = FloatArray([0.5, 1.5, 2.5], (3,)).tag(sync=True)
    eps = FieldNumber(0.0, nonnegative=True).tag(sync=True)
    azimuth = traitlets.Float(20.0).tag(sync=True)
    elevation = traitlets.Float(18.0).tag(sync=True)
    mu, sigma, norm_hat = Shown(), Shown(), Shown()
    mean_part, centred_part, hat = Shown(), Shown(), Shown()
    message = Shown()

    @traitlets.validate("elevation")
    def _elevation_in_view(self, proposal) -> float:
        if not -89 <= proposal["value"] <= 89:
            raise traitlets.TraitError(f"elevation: the view turns from −89° to 89°, got {proposal['value']!r}")
        return proposal["value"]


class Conditioning(SiteWidget):
    """conditioning: least squares with feature scales 1 and s = 10^log10_scale and correlation ρ;
    κ, 2/L, the step, the step counts and the gradient-descent paths, raw and standardized."""

    _widget = "conditioning"
    _inputs = ("log10_scale", "rho")
    log10_scale = SliderValue(4.0, 0.0, 4.0, 0.05).tag(sync=True)
    rho = SliderValue(0.9, -0.9, 0.99, 0.01).tag(sync=True)
    scale = Shown()
    kappa_raw, kappa_standardized = Shown(), Shown()
    step_limit_raw, step_limit_standardized = Shown(), Shown()
    step_raw, step_standardized = Shown(), Shown()
    steps_raw, steps_standardized = Shown(), Shown()
    path_raw, path_standardized = Shown(), Shown()


class Grid(SiteWidget):
    """grid: the Russian lesson's 4×4 grid (rows: examples of the batch, columns: features) under
    BatchNorm, LayerNorm, RMSNorm or GroupNorm; ``outputs`` is None where a cell cannot be computed."""

    _widget = "grid"
    _inputs = ("values", "layer", "groups", "eps")
    values = FloatArray(SOURCE_GRID, (4, 4)).tag(sync=True)
    layer = traitlets.Enum(GRID_LAYERS, "none").tag(sync=True)
    groups = traitlets.Int(2).tag(sync=True)
    eps = FieldNumber(1e-5, nonnegative=True).tag(sync=True)
    outputs, group_labels, row_rms, row_mean = Shown(), Shown(), Shown(), Shown()
    averaged_over, message = Shown(), Shown()

    @traitlets.validate("groups")
    def _two_values_per_group(self, proposal) -> int:
        groups, columns = proposal["value"], len(SOURCE_GRID[0])
        if groups < 1 or columns % groups or columns // groups < 2:
            raise traitlets.TraitError(f"groups: a count that divides the {columns} features into groups of at least "
                                       f"two (1 or 2), got {groups!r}")
        return groups


class States(SiteWidget):
    """states: a normgeo states file (safetensors, as ``normgeo states`` writes it) read in the browser
    as the site reads a dropped file, and its per-layer statistics. ``layers``: one dict per
    normalization layer of the numbers shown (median_norm, max_norm, max_norm_token, min_radius, …;
    None for "—"); ``state`` is empty, reading, shown or refused (then ``error`` says why)."""

    _widget = "states"
    _inputs = ("file", "file_name")
    file = traitlets.Bytes(b"").tag(sync=True)
    file_name = traitlets.Unicode("").tag(sync=True)
    state, error, summary, layers = Shown(), Shown(), Shown(), Shown()

    @classmethod
    def of_file(cls, path, **traits) -> States:
        """The widget showing the states file at ``path``."""
        path = Path(path)
        return cls(file=path.read_bytes(), file_name=path.name, **traits)

    def load(self, path) -> None:
        """Show the states file at ``path`` instead (one update: its bytes and its name together)."""
        path = Path(path)
        with self.hold_sync():
            self.file, self.file_name = path.read_bytes(), path.name
