"""normgeo in Jupyter: ``show`` and ``still`` render a scene through the pipeline the CLI uses
(cached) and display it inline; ``Grid``, ``Vector2D``, ``LayerNorm3D``, ``Conditioning`` and ``States`` are the
site's widgets, driven from Python; ``export_html`` writes a notebook as one HTML file whose widgets
work offline. Beside the CLI: it imports the pipeline and the kit, nothing imports it.

In a notebook: ``still("radial-projection", vectors=[[3, 4]])`` shows the scene's last frame;
``w = Vector2D(x=np.array([3.0, 4.0]))`` then ``w`` shows the widget, and once it has drawn,
``w.norm_layernorm`` is the length it shows (√2).
"""

from scenes.notebook.html_export import export_html
from scenes.notebook.rendering import RenderError, SceneStill, SceneVideo, show, still
from scenes.notebook.widgets import Conditioning, Grid, LayerNorm3D, SiteWidget, States, Vector2D
from scenes.render.errors import InputError

__all__ = ["Conditioning", "Grid", "InputError", "LayerNorm3D", "RenderError", "SceneStill", "SceneVideo", "SiteWidget",
           "States", "Vector2D", "export_html", "show", "still"]
