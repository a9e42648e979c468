"""Settings a user can see and set, names that keep custom renders apart, and a manifest that
several processes can write at once and that records each file as it lands."""

import json
import os
import signal
import subprocess
import sys
import time
from multiprocessing import get_context
from pathlib import Path

import pytest

from scenes.render.manifest import Manifest
from tests.helpers import default_sigint

NORMGEO = [sys.executable, "-c", "from scenes.cli.main import main; main()"]
TINY = ("--resolution", "192x108")
ROOT = Path(__file__).resolve().parents[2]


def test_spec_lists_every_setting_with_type_default_range_and_meaning(run):
    result = run("spec", "layernorm-2d")
    assert result.exit_code == 0, result.output
    for expected in ("count = 24", "a whole number; allowed 2 … 200", "how many random 2-D inputs", "high_dim = 896"):
        assert expected in result.output
    russian = run("spec", "layernorm-2d", "--lang", "ru")
    assert "сколько случайных двумерных входов" in russian.output
    rows = json.loads(run("spec", "normalization-axes", "--json").output)
    assert [row["name"] for row in rows] == ["values", "eps", "groups"]
    assert rows[2]["default"] == "2,1"


def test_spec_of_an_unknown_scene_suggests_one(run):
    result = run("spec", "layernorm-2")
    assert result.exit_code == 2 and "did you mean 'layernorm-2d'" in result.output


@pytest.mark.parametrize(("content", "expected"), [
    ("[layernorm-hyperplane]\nx = [5.0, -1.0, 2.0]\n", "x: not a setting of layernorm-hyperplane"),
    ("[layernorm-hyperplne]\nvector = [5.0, -1.0, 2.0]\n", "did you mean 'layernorm-hyperplane'"),
])
def test_a_spec_file_with_an_unknown_section_or_key_renders_nothing(run, tmp_path, content, expected):
    spec_file = tmp_path / "mine.toml"
    spec_file.write_text(content)
    result = run("render", "layernorm-hyperplane", "--spec", spec_file, "--out", tmp_path / "out")
    assert result.exit_code == 2
    errors = [line for line in result.output.splitlines() if line.startswith("normgeo: error:")]
    assert len(errors) == 1 and expected in errors[0]
    assert not list((tmp_path / "out").rglob("*.mp4"))


def test_lecture_takes_set_and_spec_like_the_other_commands(run, tmp_path):
    for command in ("render", "still", "gif", "lecture"):
        help_text = run(command, "--help").output
        assert "--set" in help_text and "--spec" in help_text, command
    result = run("lecture", "--set", "radious=2", "--out", tmp_path)
    assert result.exit_code == 2 and "did you mean 'radius'" in result.output


@pytest.mark.render
def test_a_custom_spec_gets_its_own_file_beside_the_default(run, tmp_path):
    """radius=2 is not the default: its still is named with a spec tag and both files stay."""
    assert run("still", "radial-projection", *TINY, "--out", tmp_path).exit_code == 0
    assert run("still", "radial-projection", *TINY, "--set", "radius=2", "--out", tmp_path).exit_code == 0
    names = sorted(p.name for p in (tmp_path / "radial-projection").iterdir())
    assert len(names) == 2 and "radial-projection.en.dark.192x108p15.png" in names
    tagged = next(name for name in names if name != "radial-projection.en.dark.192x108p15.png")
    tag = tagged.split(".")[3]
    records = Manifest(tmp_path).artifacts
    assert records[f"radial-projection/{tagged}"]["spec_tag"] == tag
    assert records[f"radial-projection/{tagged}"]["spec"]["radius"] == 2.0
    assert records["radial-projection/radial-projection.en.dark.192x108p15.png"]["spec_tag"] is None


def _put_many(folder: str, prefix: str, count: int) -> None:
    manifest = Manifest(Path(folder))
    for index in range(count):
        manifest.put(f"{prefix}/{index}", {"index": index})


def test_processes_writing_one_manifest_at_once_lose_nothing(tmp_path):
    """Four processes each record 40 entries concurrently: all 160 are there, the JSON is whole."""
    context = get_context("spawn")
    workers = [context.Process(target=_put_many, args=(str(tmp_path), f"p{i}", 40)) for i in range(4)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
        assert worker.exitcode == 0
    artifacts = Manifest(tmp_path).artifacts
    assert len(artifacts) == 160
    assert not [p for p in tmp_path.iterdir() if p.name != "manifest.json"]


@pytest.mark.render
def test_two_normgeo_runs_into_one_folder_both_recorded(tmp_path):
    """Two `normgeo still` processes of different scenes, started together, into one folder."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    runs = [subprocess.Popen([*NORMGEO, "still", scene, *TINY, "--out", str(tmp_path), "--quiet"], cwd=ROOT, env=env,
                             stderr=subprocess.PIPE, text=True) for scene in ("scale-invariance", "layernorm-2d")]
    for process in runs:
        assert process.wait(timeout=240) == 0, process.stderr.read()
    artifacts = Manifest(tmp_path).artifacts
    assert {record["scene"] for record in artifacts.values()} == {"scale-invariance", "layernorm-2d"}
    for name in artifacts:
        assert (tmp_path / name).is_file()


@pytest.mark.render
def test_ctrl_c_keeps_finished_files_and_records_each_of_them(tmp_path):
    """SIGINT to a --jobs 2 batch (the whole process group, as a terminal sends it) once a first
    file has landed: exit 130, every file on disk is in the manifest, no partial files remain."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    scenes = ["scale-invariance", "layernorm-2d", "sphere-radii", "radial-projection", "direction-not-length"]
    process = subprocess.Popen([*NORMGEO, "still", *scenes, *TINY, "--jobs", "2", "--out", str(tmp_path)], cwd=ROOT,
                               env=env, stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True, start_new_session=True,
                               preexec_fn=default_sigint)  # as from a terminal, even in a background job
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and not list(tmp_path.rglob("*.png")):
        time.sleep(0.2)
    assert list(tmp_path.rglob("*.png")), "no file landed in time"
    os.killpg(process.pid, signal.SIGINT)
    _, stderr = process.communicate(timeout=120)
    assert process.returncode == 130, stderr
    on_disk = {p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*.png")}
    assert on_disk and on_disk <= set(Manifest(tmp_path).artifacts)
    assert len(on_disk) < len(scenes)
    assert not [p for p in tmp_path.rglob("*") if p.name.startswith(".")]
    assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr, stderr
    assert stderr.strip().splitlines()[-1].startswith("normgeo: interrupted")


@pytest.mark.render
def test_sigint_to_the_main_process_alone_stops_the_batch_within_seconds(tmp_path):
    """`kill -INT <pid>` (not the group): the running renders are interrupted too, so the batch
    ends within seconds (not when they finish), with the one clean line and no traceback."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    scenes = ["scale-invariance", "layernorm-2d", "sphere-radii", "radial-projection", "direction-not-length"]
    process = subprocess.Popen([*NORMGEO, "render", *scenes, "-q", "m", "--jobs", "2", "--out", str(tmp_path)], cwd=ROOT,
                               env=env, stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True, start_new_session=True,
                               preexec_fn=default_sigint)
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and not list(tmp_path.rglob("*.mp4")):
        time.sleep(0.2)
    assert list(tmp_path.rglob("*.mp4")), "no file landed in time"
    time.sleep(2)  # the next renders are under way
    process.send_signal(signal.SIGINT)
    interrupted = time.monotonic()
    _, stderr = process.communicate(timeout=120)
    assert process.returncode == 130, stderr
    assert time.monotonic() - interrupted < 5  # measured: 0.7 s; before, the running renders went on (10.6 s)
    assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr, stderr
    assert not [p for p in tmp_path.rglob("*") if p.name.startswith(".")]


def _children(pid: int) -> set[int]:
    try:
        return {int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()}
    except FileNotFoundError:
        return set()


@pytest.mark.render
def test_ctrl_c_on_a_video_batch_is_one_line_from_the_parent_and_none_from_the_workers(tmp_path):
    """`normgeo render` of three scenes with two real worker processes rendering, and SIGINT to the
    whole process group as a terminal's Ctrl-C sends it: no traceback or KeyboardInterrupt from
    any process on stderr, exactly one "interrupted" line and it is the last, exit 130 within
    seconds (measured: 0.6–1.9 s), and every worker process gone."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    scenes = ["scale-invariance", "layernorm-2d", "sphere-radii"]
    process = subprocess.Popen([*NORMGEO, "render", *scenes, *TINY, "--jobs", "2", "--out", str(tmp_path)], cwd=ROOT,
                               env=env, stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True, start_new_session=True,
                               preexec_fn=default_sigint)
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and len(_children(process.pid)) < 2 and process.poll() is None:
        time.sleep(0.1)
    workers = _children(process.pid)
    assert len(workers) >= 2, "the pool's processes did not start"
    time.sleep(1.5)  # both are rendering
    os.killpg(process.pid, signal.SIGINT)
    interrupted = time.monotonic()
    _, stderr = process.communicate(timeout=120)
    took = time.monotonic() - interrupted
    assert process.returncode == 130, stderr
    assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr and "Aborted" not in stderr, stderr
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert [line for line in lines if "interrupted" in line] == [lines[-1]] and lines[-1].startswith("normgeo: interrupted")
    assert took < 30, took
    time.sleep(0.5)
    assert not [pid for pid in workers if Path(f"/proc/{pid}").exists()
                and "zombie" not in Path(f"/proc/{pid}/status").read_text()], "a worker outlived the batch"


def test_ctrl_c_before_a_batch_starts_is_one_line_and_exit_130(run, tmp_path, monkeypatch):
    """Ctrl-C while the jobs are being checked (before any worker starts): `normgeo: interrupted`
    and exit 130, not click's "Aborted!" and exit 1."""
    from scenes.render import matrix

    def interrupt(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(matrix, "batch_jobs", interrupt)
    result = run("still", "scale-invariance", "--out", tmp_path)
    assert result.exit_code == 130
    assert result.output.strip().splitlines() == ["normgeo: interrupted"]


@pytest.mark.parametrize("changed", ["normgeo/projection.py", "scenes/kit/base.py", "scenes/kit/common.toml",
                                     "scenes/render/media/gif.py", "scenes/render/subtitles.py", "scenes/render/manim_door/renderer.py",
                                     "scenes/radial_projection.py", "scenes/radial_projection.toml"])
def test_the_cache_key_changes_when_any_source_of_the_output_changes(changed, tmp_path, monkeypatch):
    """Editing the core, the kit, the pipeline that writes the file (GIF and subtitle encoding
    included), or the scene's module or text must invalidate a cached render."""
    from scenes.render import GifOptions, RenderJob, RenderSettings, build_specs, input_hash

    spec = build_specs(["radial-projection"], "en", "dark")["radial-projection"]
    job = RenderJob("radial-projection", spec, RenderSettings("l", "gif"), tmp_path, gif=GifOptions())
    before = input_hash(job)
    target = (ROOT / changed).resolve()
    real_read = Path.read_bytes

    def edited(path):
        data = real_read(path)
        return data + b"\n# edited" if Path(path).resolve() == target else data

    monkeypatch.setattr(Path, "read_bytes", edited)
    assert input_hash(job) != before


def test_a_top_level_key_no_selected_scene_has_is_refused(run, tmp_path):
    """`spread` is a setting of layernorm-2d only: rendering radial-projection with it would change
    nothing, so it is one line, exit 2, and nothing is rendered."""
    spec_file = tmp_path / "mine.toml"
    spec_file.write_text("spread = 2.0\n")
    result = run("still", "radial-projection", "--spec", spec_file, "--out", tmp_path / "out")
    lines = result.output.strip().splitlines()
    assert result.exit_code == 2 and len(lines) == 1, result.output
    assert "spread: a setting of layernorm-2d, none of which is selected (radial-projection)" in lines[0]
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").rglob("*.png"))


def test_all_with_scene_ids_is_refused(run, tmp_path):
    for command in ("render", "still", "gif"):
        result = run(command, "--all", "radial-projection", "--out", tmp_path)
        assert result.exit_code == 2 and result.output.strip().splitlines() == [
            "normgeo: error: --all and scene ids (radial-projection) given together: give the ids, or --all alone"]
    assert "refused with them" in " ".join(run("render", "--help").output.split())


def test_set_wins_over_the_spec_file_and_the_summary_says_so(tmp_path):
    """--set and the file on one key: --set's value is rendered (its spec tag is --set's alone), and
    the summary line says that --set won; --help says so too."""
    from click.testing import CliRunner

    from scenes.cli.main import cli
    from scenes.render.names import spec_tag
    from scenes.render.specs import build_specs, set_over_file

    spec_file = tmp_path / "mine.toml"
    spec_file.write_text("[radial-projection]\nradius = 1.5\n")
    specs = build_specs(["radial-projection"], "en", "dark", {"radius": "2"}, spec_file)
    assert specs["radial-projection"].radius == 2.0
    alone = build_specs(["radial-projection"], "en", "dark", {"radius": "2"})["radial-projection"]
    assert spec_tag(specs["radial-projection"]) == spec_tag(alone)
    assert set_over_file(["radial-projection"], {"radius": "2"}, spec_file) == ["radius"]
    assert set_over_file(["radial-projection"], {"vectors": "3,4"}, spec_file) == []
    assert set_over_file(["sphere-radii"], {"vectors": "3,4"}, spec_file) == []  # the table of a scene not selected
    help_text = " ".join(CliRunner().invoke(cli, ["render", "--help"]).output.split())
    assert "it wins over the same key in --spec (the summary says so)" in help_text


@pytest.mark.render
def test_the_summary_says_set_won_and_quotes_the_folder_for_the_shell(run, tmp_path):
    spec_file = tmp_path / "mine.toml"
    spec_file.write_text("[radial-projection]\nradius = 1.5\n")
    out = tmp_path / "my renders"
    result = run("still", "radial-projection", "--spec", spec_file, "--set", "radius=2", *TINY, "--out", out,
                 "--jobs", 1)
    assert result.exit_code == 0, result.output
    assert "--set radius won over the spec file's value" in " ".join(result.output.split())
    assert f"`normgeo site --out '{out}'` puts them on the site" in " ".join(result.output.split())


@pytest.mark.parametrize(("scene", "shown", "args", "refused"), [
    ("radial-projection", "each vector non-zero, of length 0.001 … 1000", ("--set", "vectors=2000,0"),
     "keep lengths between 0.001 and 1000"),
    ("layernorm-gradient", "each vector non-zero, of length 0.001 … 5", ("--set", "gradient=9,0,0"),
     "keep lengths between 0.001 and 5"),
    ("covariate-shift", "with the other settings at their defaults: 1 … 100", ("--set", "window=150"),
     "must be between 1 and 100"),
    ("conditioning", "also refused: must be at most 10⁶ times small_scale (1)", ("--set", "large_scale=1e7"),
     "must be at most 10⁶ times small_scale (1)"),
    ("conditioning", "also refused: must be at least 10 times small_scale (1)", ("--set", "large_scale=5"),
     "must be at least 10 times small_scale (1)"),
])
def test_spec_shows_every_limit_with_the_numbers_its_error_prints(run, tmp_path, scene, shown, args, refused):
    assert shown in run("spec", scene).output
    result = run("still", scene, *args, "--out", tmp_path)
    assert result.exit_code == 2 and refused in result.output, result.output
