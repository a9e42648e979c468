"""A notebook opened in JupyterLab by Chromium: run one cell, read what it printed, read a widget's DOM."""

from __future__ import annotations

import json
import time
from pathlib import Path

from tests.notebook.conftest import Lab, write_notebook

OPEN_SECONDS = 180  # the page, the extensions and a kernel on a loaded 2-core machine
CELL_SECONDS = 120

_KERNEL_READY = """(name) => {
  const app = window.jupyterapp, nb = app && app.shell.currentWidget;
  if (!nb || !nb.context || nb.context.path !== name) return false;
  const kernel = nb && nb.sessionContext && nb.sessionContext.session && nb.sessionContext.session.kernel;
  return !!(kernel && kernel.connectionStatus === 'connected' && nb.sessionContext.kernelDisplayStatus === 'idle'
            && nb.content && nb.content.widgets.length);
}"""


class NotebookPage:
    """JupyterLab showing one notebook; problems (page errors) are collected."""

    def __init__(self, page, lab: Lab, name: str):
        self.page, self.lab, self.errors = page, lab, []
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.set_default_timeout(CELL_SECONDS * 1000)
        # a workspace of its own, reset: no notebook opened by an earlier page comes back beside it
        page.goto(f"{lab.url}/lab/workspaces/{Path(name).stem}/tree/{name}?reset&token={lab.token}")
        page.wait_for_function(_KERNEL_READY, arg=name, timeout=OPEN_SECONDS * 1000, polling=500)

    def run(self, index: int) -> list[dict]:
        """Run cell ``index`` (waiting for it to finish) and return its outputs as nbformat JSON."""
        outputs = self.page.evaluate(
            """async (i) => {
                 const nb = window.jupyterapp.shell.currentWidget;
                 nb.content.activeCellIndex = i;
                 await window.jupyterapp.commands.execute('notebook:run-cell');
                 return nb.content.widgets[i].model.outputs.toJSON();
               }""", index)
        errors = [o for o in outputs if o.get("output_type") == "error"]
        assert not errors, f"cell {index} raised: {errors[0].get('ename')}: {errors[0].get('evalue')}"
        return outputs

    def printed_json(self, index: int, until=None, seconds: float = 60):
        """Run cell ``index``, which prints one JSON value, and return it; with ``until``, run it again
        until ``until(value)`` holds or ``seconds`` pass (then return the last value). A widget's numbers
        reach Python asynchronously: the widget manager sends one update at a time, the next once the
        kernel has handled the last, so a cell run at once may still see the numbers of an earlier input."""
        deadline = time.monotonic() + seconds
        while True:
            text = "".join(o.get("text", "") for o in self.run(index) if o.get("output_type") == "stream")
            value = json.loads(text)
            if until is None or until(value) or time.monotonic() > deadline:
                return value
            time.sleep(0.5)

    def widget(self, name: str, nth: int = 0):
        """The site widget ``name`` in the nth output that shows one (inside its shadow root)."""
        return self.page.locator(f'[data-widget="{name}"]').nth(nth)


def write_and_open(browser, lab: Lab, name: str, cells: list[str], viewport=(1300, 1000),
                   color_scheme: str = "light") -> NotebookPage:
    write_notebook(Path(lab.folder) / name, cells)
    context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]}, color_scheme=color_scheme)
    return NotebookPage(context.new_page(), lab, name)
