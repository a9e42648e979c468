"""The example notebook (docs/notebook.ipynb), stored without outputs, executed top to bottom by
nbclient with a real kernel; then exported to one HTML file and opened by Chromium with no network:
its widgets redraw from their saved inputs and show the numbers of closed forms and of the core."""

from __future__ import annotations

import base64
import math

import nbformat
import numpy as np
import pytest
from nbclient import NotebookClient

import normgeo
from scenes.kit.site_data import SOURCE_GRID
from scenes.notebook import export_html
from tests.notebook.conftest import KERNEL, ROOT
from tests.site.conftest import PageProblems, assert_close

NOTEBOOK = ROOT / "docs" / "notebook.ipynb"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"


@pytest.fixture(scope="module")
def executed(jupyter_path, tmp_path_factory):
    """The notebook executed in a folder of its own (its renders land there), and that folder."""
    folder = tmp_path_factory.mktemp("executed")
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    client = NotebookClient(notebook, kernel_name=KERNEL, timeout=600, resources={"metadata": {"path": str(folder)}})
    client.execute()  # a cell that raises fails here (CellExecutionError)
    nbformat.write(notebook, folder / "notebook.ipynb")
    return notebook, folder


def models(notebook, widget_class: str) -> list[dict]:
    state = notebook.metadata["widgets"][WIDGET_STATE]["state"]
    name = f"scenes.notebook.widgets.{widget_class}"
    return [m["state"] for m in state.values() if m["state"].get("_anywidget_id") == name]


def test_the_notebook_is_stored_without_outputs():
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert len(code) >= 10
    assert all(cell.outputs == [] and cell.execution_count is None for cell in code)
    assert "widgets" not in notebook.metadata


def test_run_from_docs_it_renders_into_the_projects_renders_folder_not_docs(tmp_path):
    """Jupyter runs a notebook in its own folder: from docs/, the first cell's RENDERS is the
    project's renders/ (not docs/renders/), and the cell that renders writes there."""
    import os
    import subprocess
    import sys

    notebook = nbformat.read(NOTEBOOK, as_version=4)
    code = [cell.source for cell in notebook.cells if cell.cell_type == "code"]
    setup = code[0].replace("import normgeo\n", "").replace(
        "from scenes.notebook import Conditioning, Grid, LayerNorm3D, States, Vector2D, still\n", "")
    for cwd, expected in ((ROOT / "docs", ROOT / "renders"), (tmp_path, tmp_path / "renders")):
        done = subprocess.run([sys.executable, "-c", setup + "\nprint(RENDERS.resolve())"], cwd=cwd,
                              capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)}, check=True)
        assert done.stdout.strip() == str(expected)
    assert all("out_dir=RENDERS" in source for source in code if "still(" in source or "show(" in source)


def test_the_notebook_runs_top_to_bottom_and_saves_its_widgets(executed):
    notebook, folder = executed
    outputs = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs]
    errors = [o for o in outputs if o.output_type == "error"]
    assert errors == []
    pictures = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs
                if "image/png" in o.get("data", {})]
    assert len(pictures) == 1
    (png,) = (folder / "renders").rglob("radial-projection*.png")
    assert base64.b64decode(pictures[0]["data"]["image/png"]) == png.read_bytes()
    assert [m["x"] for m in models(notebook, "Vector2D")] == [[3.0, 4.0]]
    assert [m["x"] for m in models(notebook, "LayerNorm3D")] == [[1.0, 2.0, 6.0]]
    assert [(m["log10_scale"], m["rho"]) for m in models(notebook, "Conditioning")] == [(2.0, 0.5)]
    assert [m["layer"] for m in models(notebook, "Grid")] == ["layernorm"]
    assert [m["file_name"] for m in models(notebook, "States")] == ["minilm.safetensors"]
    texts = "\n".join(o["data"]["text/plain"] for cell in notebook.cells if cell.cell_type == "code"
                      for o in cell.outputs if "text/plain" in o.get("data", {}))
    assert "{'none': 896, 'l2': 895, 'rmsnorm': 895, 'layernorm': 894}" in texts


@pytest.fixture(scope="module")
def exported_page(executed, browser, tmp_path_factory):
    notebook, _ = executed
    html = export_html(notebook, tmp_path_factory.mktemp("export") / "notebook.html")
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    problems = PageProblems(page)
    page.goto(html.as_uri())
    page.locator('[data-widget="grid"] [data-out-row="3"][data-out-col="3"][data-value]').wait_for(timeout=120_000)
    yield page
    context.close()
    problems.check()  # no console error, no request but file:, data:, blob:


def number(page, selector: str, attribute: str = "data-value") -> float:
    return float(page.locator(selector).first.get_attribute(attribute))


def test_the_exported_widgets_redraw_offline_from_their_saved_inputs(exported_page):
    """x = (3, 4): ‖LayerNorm(x)‖ = √2; x = (1, 2, 6): ‖x̂‖ = √3; ρ = 0.5: κ = 3; the grid as the core;
    MiniLM's states: every LayerNorm output radius √384."""
    page = exported_page
    assert_close(number(page, '[data-widget="vector-2d"] [data-out="norm-x"]'), 5.0, "‖x‖")
    assert_close(number(page, '[data-widget="vector-2d"] [data-out="norm-layernorm"]'), math.sqrt(2), "‖LayerNorm(x)‖")
    assert_close(number(page, '[data-widget="layernorm-3d"] [data-out="norm-hat"]'), math.sqrt(3), "‖x̂‖")
    assert_close(number(page, '[data-widget="conditioning"] [data-out="kappa-standardized"]'), 3.0, "κ standardized")
    shown = [[number(page, f'[data-widget="grid"] [data-out-row="{r}"][data-out-col="{c}"]') for c in range(4)]
             for r in range(4)]
    assert_close(shown, normgeo.layer_norm(np.array(SOURCE_GRID), eps=1e-5), "the grid under LayerNorm")
    states = page.locator('[data-widget="states"]')  # the file's bytes were saved with the widget's state
    states.locator("tr[data-layer]").first.wait_for(timeout=60_000)
    assert states.get_attribute("data-state") == "shown" and states.locator("tr[data-layer]").count() == 13
    radii = [number(page, f'[data-widget="states"] tr[data-layer="{k}"] td[data-stat="max-radius"]') for k in range(13)]
    assert np.allclose(radii, math.sqrt(384), rtol=1e-9, atol=0)


def test_the_exported_file_stands_alone(executed, tmp_path):
    """Nothing in it names the CDNs nbconvert's page loads from: the widget manager, RequireJS and
    anywidget are inside (as base64, whose alphabet has no "."), MathJax is left out. (Mermaid's URL
    stays: it is fetched only for a diagram.)"""
    notebook, _ = executed
    text = export_html(notebook, tmp_path / "alone.html").read_text(encoding="utf-8")
    for address in ("cdn.jsdelivr.net", "unpkg.com", "cdnjs.cloudflare.com/ajax/libs/require.js",
                    "cdnjs.cloudflare.com/ajax/libs/mathjax"):
        assert address not in text, address
    assert text.count("data:text/javascript;base64,") == 2  # RequireJS with anywidget; the widget manager, once
    assert len(text.encode("utf-8")) < 8_000_000
