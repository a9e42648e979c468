"""Fixtures for the notebook tests: a kernelspec of this Python, JupyterLab started on a free port,
Chromium (Debian's, as the site tests launch it) opening notebooks in it.

The kernelspec is written by ipykernel's own installer into a temporary prefix whose
``share/jupyter`` is put first on JUPYTER_PATH, so nbclient and JupyterLab start kernels with the
interpreter running the tests, whatever kernels the machine has. JupyterLab runs with its own
config, settings, runtime and workspace folders, a token, no browser, and the app exposed to the
page (``window.jupyterapp``) so that the test can run one cell at a time.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import nbformat
import pytest
from ipykernel.kernelspec import install as install_kernelspec

from tests.site.conftest import browser  # noqa: F401  (the site tests' Chromium, one per module)

KERNEL = "normgeo-tests"
ROOT = Path(__file__).resolve().parents[2]
LAB_START_SECONDS = 240  # a loaded 2-core machine: JupyterLab's first start takes a while


@pytest.fixture(scope="session")
def jupyter_path(tmp_path_factory) -> Path:
    """``share/jupyter`` holding the kernelspec ``normgeo-tests`` (this interpreter), first on JUPYTER_PATH."""
    prefix = tmp_path_factory.mktemp("kernel-prefix")
    install_kernelspec(kernel_name=KERNEL, display_name="Python (normgeo tests)", prefix=str(prefix))
    spec = json.loads((prefix / "share/jupyter/kernels" / KERNEL / "kernel.json").read_text())
    assert spec["argv"][0] == sys.executable, spec
    share = prefix / "share" / "jupyter"
    previous = os.environ.get("JUPYTER_PATH")
    os.environ["JUPYTER_PATH"] = os.pathsep.join([str(share), *([previous] if previous else [])])
    yield share
    if previous is None:
        os.environ.pop("JUPYTER_PATH", None)
    else:
        os.environ["JUPYTER_PATH"] = previous


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def write_notebook(path: Path, cells: list[str]) -> Path:
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source) for source in cells])
    notebook.metadata["kernelspec"] = {"name": KERNEL, "display_name": "Python (normgeo tests)", "language": "python"}
    nbformat.write(notebook, path)
    return path


class Lab:
    """A running JupyterLab: its URL, token and folder."""

    def __init__(self, url: str, token: str, folder: Path):
        self.url, self.token, self.folder = url, token, folder

    def api(self, path: str) -> dict:
        request = urllib.request.Request(f"{self.url}{path}", headers={"Authorization": f"token {self.token}"})
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read())


@pytest.fixture(scope="module")
def lab(tmp_path_factory, jupyter_path):
    base = tmp_path_factory.mktemp("lab")
    folder, settings = base / "notebooks", base / "settings" / "@jupyterlab" / "apputils-extension"
    folder.mkdir()
    settings.mkdir(parents=True)
    (settings / "notification.jupyterlab-settings").write_text('{"fetchNews": "false", "checkForUpdates": false}')
    token, port = secrets.token_hex(16), free_port()
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(base / "config"), JUPYTER_RUNTIME_DIR=str(base / "runtime"),
               JUPYTERLAB_SETTINGS_DIR=str(base / "settings"), JUPYTERLAB_WORKSPACES_DIR=str(base / "workspaces"),
               PYTHONPATH=os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]))
    log = (base / "lab.log").open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "jupyterlab", "--no-browser", f"--port={port}", "--ip=127.0.0.1",
         f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={folder}", "--LabApp.expose_app_in_browser=True",
         *(["--allow-root"] if os.geteuid() == 0 else [])],
        stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
    running = Lab(f"http://127.0.0.1:{port}", token, folder)
    deadline = time.monotonic() + LAB_START_SECONDS
    while True:
        try:
            running.api("/api/status")
            break
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                log_text = (base / "lab.log").read_text(errors="replace")[-3000:]
                raise AssertionError(f"JupyterLab did not start:\n{log_text}") from None
            time.sleep(0.5)
    yield running
    os.killpg(process.pid, signal.SIGTERM)  # the server and the kernels it started (its own session)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
    log.close()


