"""A notebook as one HTML file whose widgets work with no network: nbconvert's ``lab`` export with
the widget manager and RequireJS written into the page instead of fetched from a CDN.

What nbconvert's export needs for a widget to come alive: the widgets' state saved in the notebook's
metadata (nbclient saves it when it executes a notebook; JupyterLab only with its "save widget
state" setting on), and ``@jupyter-widgets/html-manager``'s ``embed-amd.js`` with RequireJS, which
nbconvert loads from jsdelivr and cdnjs. Here they come from the npm packages installed at set-up
(``@jupyter-widgets/html-manager`` and ``requirejs``, into ``<venv>/node_modules``), and anywidget's
own front end from its Python package (the notebook extension's AMD module, named "anywidget" so
that the manager finds it instead of asking jsdelivr). The widget's code is in its saved state.

Not included: MathJax (LaTeX in Markdown cells stays as typed; this project's notebooks write
math in Unicode) and Mermaid (fetched only if the notebook has a diagram).
"""

from __future__ import annotations

import base64
import sys
from pathlib import Path

import anywidget
import nbformat
from nbconvert import HTMLExporter

from scenes.render.files import atomic_write_text

__all__ = ["NODE_MODULES", "REQUIRE_JS", "WIDGET_MANAGER", "export_html", "offline_exporter"]

#: npm packages installed at set-up, beside the Python that runs (as the site tests' axe-core)
NODE_MODULES = Path(sys.prefix) / "node_modules"
WIDGET_MANAGER = NODE_MODULES / "@jupyter-widgets" / "html-manager" / "dist" / "embed-amd.js"
REQUIRE_JS = NODE_MODULES / "requirejs" / "require.js"
ANYWIDGET_AMD = Path(anywidget.__file__).parent / "nbextension" / "index.js"
#: nbconvert's lab template with the widget manager loaded from the page itself, once
TEMPLATES = Path(__file__).with_name("html_template")
TEMPLATE = "normgeo-offline"
_ANONYMOUS_DEFINE = 'define(["@jupyter-widgets/base"], widget_default);'
_EMPTY_SCRIPT = "data:text/javascript,"


def _data_url(text: str) -> str:
    return "data:text/javascript;base64," + base64.b64encode(text.encode("utf-8")).decode("ascii")


def _read(path: Path, what: str) -> str:
    if not path.is_file():
        raise FileNotFoundError(
            f"{path} is missing: the offline HTML export needs {what} from npm, installed at set-up with "
            f"`npm install --prefix {sys.prefix} --no-save requirejs@2.3.8 @jupyter-widgets/html-manager@1.0.15`")
    return path.read_text(encoding="utf-8")


def _anywidget_module() -> str:
    """anywidget's notebook front end, as the AMD module named "anywidget"."""
    source = _read(ANYWIDGET_AMD, "anywidget's front end")
    if source.count(_ANONYMOUS_DEFINE) != 1:
        raise ValueError(f"{ANYWIDGET_AMD}: its define() call changed; cannot name the module")
    return source.replace(_ANONYMOUS_DEFINE, 'define("anywidget", ["@jupyter-widgets/base"], widget_default);')


def offline_exporter() -> HTMLExporter:
    """nbconvert's ``lab`` HTML exporter with RequireJS, anywidget and the widget manager inside the page."""
    exporter = HTMLExporter(template_name=TEMPLATE, extra_template_basedirs=[str(TEMPLATES)])
    exporter.require_js_url = _data_url(_read(REQUIRE_JS, "RequireJS") + "\n" + _anywidget_module())
    exporter.widget_renderer_url = _data_url(_read(WIDGET_MANAGER, "the widget manager"))
    exporter.mathjax_url = _EMPTY_SCRIPT
    return exporter


def export_html(notebook, html_path) -> Path:
    """Write ``notebook`` (a path or a NotebookNode, executed so that its widget state is saved) as one
    HTML file at ``html_path``; its widgets redraw from their saved inputs, with no kernel and no network."""
    node = nbformat.read(notebook, as_version=4) if isinstance(notebook, (str, Path)) else notebook
    body, _ = offline_exporter().from_notebook_node(node)
    html_path = Path(html_path)
    atomic_write_text(html_path, body)  # a failed export leaves an earlier file as it was
    return html_path
