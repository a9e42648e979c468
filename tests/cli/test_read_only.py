"""Read-only places: `normgeo states --out` and `normgeo site --site` answer one line and exit 2,
and leave nothing half-written; states files and renders get one mode (rw-r--r-- less the umask).

The tests run as root, whom permissions do not stop: a real read-only bind mount is made in a
private mount namespace (``unshare --mount``) that ends with the command, and ``chattr +i`` makes
a folder immutable in-process."""

import contextlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from normgeo import rms_norm
from normgeo_models.states_file import LayerStates, States, write_states
from tests.cli.test_site_folder import renders, tree  # noqa: F401  (the fixture of a renders folder)

ROOT = Path(__file__).resolve().parents[2]
NORMGEO = [sys.executable, "-c", "from scenes.cli.main import main; main()"]


def read_only_run(folder: Path, *args, cwd: Path) -> subprocess.CompletedProcess:
    """``normgeo ARGS`` with ``folder`` mounted read-only for that command alone."""
    assert shutil.which("unshare"), "unshare (util-linux) is needed to mount a folder read-only"
    script = 'mount --bind -o ro "$1" "$1" && shift && exec "$@"'
    return subprocess.run(["unshare", "--mount", "--propagation", "private", "sh", "-c", script, "sh", str(folder),
                           *NORMGEO, *map(str, args)], capture_output=True, text=True, cwd=cwd,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})


def one_line(done: subprocess.CompletedProcess, *words: str) -> str:
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1 and lines[0].startswith("normgeo: error:"), done.stderr
    assert "Traceback" not in done.stderr and all(word in lines[0] for word in words), lines[0]
    return lines[0]


@contextlib.contextmanager
def immutable(folder: Path):
    subprocess.run(["chattr", "+i", str(folder)], check=True)
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(folder)], check=True)


def tiny_states() -> States:
    x = np.arange(12.0).reshape(3, 4)
    return States("tiny", "a b c", (LayerStates("norm", "rmsnorm", 1e-6, x, rms_norm(x, 1e-6), None),), ("a", "b", "c"))


def test_states_into_a_read_only_folder_is_one_line_and_writes_nothing(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    done = read_only_run(folder, "states", "--model", "minilm", "--text", "Hello.", "--out",
                         folder / "mine.safetensors", cwd=tmp_path)
    one_line(done, "mine.safetensors", "Read-only file system")
    assert list(folder.iterdir()) == []


def test_a_states_file_that_cannot_be_written_leaves_nothing_behind(tmp_path):
    folder = tmp_path / "locked"
    folder.mkdir()
    with immutable(folder), pytest.raises(PermissionError):
        write_states(folder / "mine.safetensors", tiny_states())
    assert list(folder.iterdir()) == []


def test_site_into_a_read_only_folder_is_one_line_and_changes_nothing(renders, tmp_path):  # noqa: F811
    mount = tmp_path / "ro"
    (mount / "old").mkdir(parents=True)
    done = read_only_run(mount, "site", "--out", renders, "--site", mount / "site", cwd=tmp_path)
    one_line(done, "Read-only file system", "nothing was changed")
    built = subprocess.run([*NORMGEO, "site", "--out", renders, "--site", mount / "site"], capture_output=True,
                           text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert built.returncode == 0, built.stderr
    before = tree(mount)
    done = read_only_run(mount, "site", "--out", renders, "--site", mount / "site", cwd=tmp_path)
    one_line(done, "Read-only file system")
    done = read_only_run(mount / "site", "site", "--out", renders, "--site", mount / "site", cwd=tmp_path)
    one_line(done, "mount point")
    assert tree(mount) == before and sorted(p.name for p in mount.iterdir()) == ["old", "site"]


def test_site_reads_a_read_only_renders_folder(renders, tmp_path):  # noqa: F811
    done = read_only_run(renders, "site", "--out", renders, "--site", tmp_path / "public", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "public" / "index.html").is_file()


def test_states_files_and_renders_have_one_mode_less_the_umask(tmp_path):
    code = ("import sys; from pathlib import Path; from scenes.render.files import atomic_write_text;"
            "from tests.cli.test_read_only import tiny_states; from normgeo_models.states_file import write_states;"
            "folder = Path(sys.argv[1]); atomic_write_text(folder / 'render.txt', 'x');"
            "write_states(folder / 'a.safetensors', tiny_states()); write_states(folder / 'a.npz', tiny_states())")
    for umask, mode in (("022", 0o644), ("027", 0o640)):
        folder = tmp_path / umask
        folder.mkdir()
        subprocess.run(["sh", "-c", f'umask {umask} && exec "$@"', "sh", sys.executable, "-c", code, str(folder)],
                       check=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
        modes = {path.name: path.stat().st_mode & 0o777 for path in folder.iterdir()}
        assert modes == {"render.txt": mode, "a.safetensors": mode, "a.npz": mode}, (umask, modes)
