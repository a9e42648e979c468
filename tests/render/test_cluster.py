"""The render pipeline on a real Dask cluster: a `dask scheduler` and `dask worker` processes on
127.0.0.1 (free ports, one thread each), driven through the `normgeo` command. No mocks: a killed
worker is a killed process group, a wrong version is a worker whose normgeo says another one."""

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import av
import distributed  # in the test extra (normgeo[cluster]): a missing one fails, never skips
import pytest
import srt
from click.testing import CliRunner

from scenes.cli.main import cli
from scenes.render import Manifest
from tests.helpers import assert_split_equals_unsplit, default_sigint

pytestmark = pytest.mark.render
ROOT = Path(__file__).resolve().parents[2]
DASK = [sys.executable, "-m", "dask", "scheduler"]
WORKER = [sys.executable, "-m", "dask", "worker"]
NORMGEO = [sys.executable, "-c", "from scenes.cli.main import main; main()"]
TINY = ("--resolution", "192x108")
SCENES = ("scale-invariance", "layernorm-2d", "sphere-radii")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Cluster:
    """A scheduler and ``workers`` single-threaded workers, each in its own process group."""

    def __init__(self, workers: int, preload: Path | None = None, env: dict | None = None):
        self.env = dict(os.environ, PYTHONPATH=str(ROOT), **(env or {}))
        self.address = f"tcp://127.0.0.1:{free_port()}"
        port = self.address.rsplit(":", 1)[1]
        self.scheduler = self._start([*DASK, "--host", "127.0.0.1", "--port", port, "--no-dashboard"])
        self.workers = [self._start([*WORKER, self.address, "--nthreads", "1", "--no-dashboard", "--name", f"w{i}",
                                     *(["--preload", str(preload)] if preload else [])]) for i in range(workers)]
        if workers:
            with distributed.Client(self.address, timeout="60s") as client:
                client.wait_for_workers(workers, timeout=120)

    def _start(self, command):
        return subprocess.Popen(command, env=self.env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                start_new_session=True)

    @staticmethod
    def kill(process, sig=signal.SIGTERM) -> None:
        if process.poll() is None:
            os.killpg(process.pid, sig)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=20)

    def close(self) -> None:
        for process in [*self.workers, self.scheduler]:
            self.kill(process)


# Loaded by every worker of the `cluster` fixture: sphere-radii in the light theme fails on every
# try (and counts its tries), so that a failing job can be watched on real workers.
PLANTED_FAILURE = """
import os
from scenes.render.running import produce as jobs

real = getattr(jobs, "_unplanted", jobs._render_with_manim)  # Dask may run a preload twice
jobs._unplanted = real


def failing(job, scratch, verbose):
    if job.scene_id == "sphere-radii" and job.spec.theme == "light":
        with open(os.environ["NORMGEO_TEST_TRIES"], "a") as tries:
            tries.write("try\\n")
        raise RuntimeError("planted failure")
    if job.scene_id == "sphere-radii" and job.spec.lang == "ru":  # a setting no worker can meet
        from scenes.render.errors import InputError
        with open(os.environ["NORMGEO_TEST_TRIES"] + ".refused", "a") as tries:
            tries.write("try\\n")
        raise InputError("planted refusal: --max-size cannot be met")
    return real(job, scratch, verbose)


jobs._render_with_manim = failing
"""


@pytest.fixture
def cluster(tmp_path_factory):
    folder = tmp_path_factory.mktemp("cluster")
    preload = folder / "planted_failure.py"
    preload.write_text(PLANTED_FAILURE)
    started = Cluster(2, preload=preload, env={"NORMGEO_TEST_TRIES": str(folder / "tries")})
    started.tries = folder / "tries"
    yield started
    started.close()


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


def tasks_seen(dask_scheduler) -> int:
    return dask_scheduler.transition_counter


def tasks_held(dask_scheduler) -> int:
    return len(dask_scheduler.tasks)


def check_video(video: Path, record: dict) -> None:
    with av.open(str(video)) as container:
        stream = container.streams.video[0]
        frames = sum(1 for _ in container.decode(stream))
        assert (stream.width, stream.height) == (192, 108)
    assert frames == pytest.approx(record["duration_s"] * 15, abs=2)


def test_three_scenes_on_two_workers_then_the_cache_sends_nothing(cluster, tmp_path):
    """Three scenes through two workers: every video, .srt and .vtt lands in the client's folder
    (the workers share no file system with it: they send bytes), the manifest records each with the
    input hash a local render would have, and a second run is all cached."""
    result = run("render", *SCENES, *TINY, "--scheduler", cluster.address, "--out", tmp_path)
    assert result.exit_code == 0, result.output
    assert "3 made, 0 cached, 0 failed" in result.output
    artifacts = Manifest(tmp_path).artifacts
    for scene in SCENES:
        name = f"{scene}/{scene}.en.dark.192x108p15.mp4"
        video = tmp_path / name
        check_video(video, artifacts[name])
        assert artifacts[name]["files"] == [name, name[:-4] + ".srt", name[:-4] + ".vtt"]
        cues = list(srt.parse(video.with_suffix(".srt").read_text(encoding="utf-8")))
        assert [step["text"] for step in artifacts[name]["steps"]]
        assert " ".join(" ".join(c.content.split()) for c in cues) == \
            " ".join(" ".join(step["text"].split()) for step in artifacts[name]["steps"])
        assert video.with_suffix(".vtt").read_text(encoding="utf-8").startswith("WEBVTT")
    assert not [p for p in tmp_path.rglob("*") if p.name.startswith(".")]

    with distributed.Client(cluster.address) as client:
        before = client.run_on_scheduler(tasks_seen)
        again = run("render", *SCENES, *TINY, "--scheduler", cluster.address, "--out", tmp_path)
        after = client.run_on_scheduler(tasks_seen)
    assert again.exit_code == 0 and "0 made, 3 cached" in again.output
    assert after == before  # nothing was submitted


def test_a_job_failing_on_every_try_is_reported_and_the_others_finish(cluster, tmp_path):
    """A job that raises on every worker is tried 1 + retries times, then reported in the summary
    with its reason; the other job is made; the exit status is 1."""
    result = run("still", "sphere-radii", "scale-invariance", "--theme", "light", *TINY, "--scheduler",
                 cluster.address, "--out", tmp_path)
    assert result.exit_code == 1
    assert "1 made, 0 cached, 1 failed" in result.output and "planted failure" in result.output
    assert (tmp_path / "scale-invariance" / "scale-invariance.en.light.192x108p15.png").is_file()
    assert not (tmp_path / "sphere-radii").exists()
    assert len(cluster.tries.read_text().splitlines()) == 3  # Dask's retries=2


def test_a_setting_no_worker_can_meet_is_refused_after_one_try_with_its_own_message(cluster, tmp_path):
    """An InputError on a worker (e.g. a GIF budget below the smallest GIF) is not retried: trying
    again elsewhere would fail the same way, three times as slowly; the summary shows its message
    without a class name."""
    result = run("still", "sphere-radii", "--lang", "ru", *TINY, "--scheduler", cluster.address, "--out", tmp_path)
    assert result.exit_code == 1
    assert "planted refusal: --max-size cannot be met" in result.output and "InputError" not in result.output
    assert len(cluster.tries.with_name("tries.refused").read_text().splitlines()) == 1


def test_a_worker_killed_mid_job_has_its_job_rerun_elsewhere(cluster, tmp_path):
    """SIGKILL to the process group of a worker (nanny and all) while it renders: Dask re-runs its
    job on the other worker and the batch ends with every video valid, exit 0."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    process = subprocess.Popen([*NORMGEO, "render", *SCENES[:2], *TINY, "--scheduler", cluster.address,
                                "--out", str(tmp_path), "--quiet"], cwd=ROOT, env=env, stderr=subprocess.PIPE,
                               text=True)
    with distributed.Client(cluster.address) as client:
        names = {info["name"]: address for address, info in client.scheduler_info(n_workers=-1)["workers"].items()}
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not client.processing().get(names["w0"]):
            time.sleep(0.2)
        assert client.processing().get(names["w0"]), "no job reached worker w0"
    time.sleep(1.0)  # mid-render
    Cluster.kill(cluster.workers[0], signal.SIGKILL)
    _, stderr = process.communicate(timeout=400)
    assert process.returncode == 0, stderr
    artifacts = Manifest(tmp_path).artifacts
    for scene in SCENES[:2]:
        name = f"{scene}/{scene}.en.dark.192x108p15.mp4"
        check_video(tmp_path / name, artifacts[name])


def test_ctrl_c_cancels_the_cluster_jobs_and_keeps_the_folder_clean(cluster, tmp_path):
    """SIGINT to the client while the workers render: exit 130, the scheduler forgets every job
    within seconds, and the output folder holds no partial or unrecorded file."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    # as from a terminal: SIGINT handled even when this suite runs as a background job of a
    # non-interactive shell (SIGINT ignored there, and the child would inherit that)
    process = subprocess.Popen([*NORMGEO, "render", *SCENES, *TINY, "--scheduler", cluster.address,
                                "--out", str(tmp_path)], cwd=ROOT, env=env, stderr=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True, preexec_fn=default_sigint)
    with distributed.Client(cluster.address) as client:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not any(client.processing().values()):
            time.sleep(0.2)
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=60)
        assert process.returncode == 130, stderr
        assert "cancelled" in stderr
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and client.run_on_scheduler(tasks_held) > 0:
            time.sleep(0.2)
        assert client.run_on_scheduler(tasks_held) == 0
    on_disk = {p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if p.is_file()}
    assert on_disk <= {"manifest.json"} | {name for record in Manifest(tmp_path).artifacts.values()
                                           for name in record["files"]}


def test_a_worker_with_another_version_is_refused(tmp_path):
    """A worker whose normgeo reports another version: one line naming it, exit 2, nothing rendered."""
    preload = tmp_path / "other_version.py"
    preload.write_text("import normgeo\nnormgeo.__version__ = '0.0.0-other'\n")
    other = Cluster(1, preload=preload)
    try:
        result = run("still", "scale-invariance", *TINY, "--scheduler", other.address, "--out", tmp_path / "out")
    finally:
        other.close()
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("normgeo: error: worker tcp://127.0.0.1:")
    assert "normgeo 0.0.0-other" in lines[0] and "install the same versions" in lines[0]
    assert not list((tmp_path / "out").rglob("*.png"))


def test_an_unreachable_scheduler_is_one_line_within_seconds(tmp_path, monkeypatch):
    """Nobody listens on the port: one line, exit 2, in a few seconds; NORMGEO_SCHEDULER works too."""
    monkeypatch.setenv("NORMGEO_SCHEDULER", f"tcp://127.0.0.1:{free_port()}")
    started = time.monotonic()
    result = run("still", "scale-invariance", *TINY, "--out", tmp_path)
    assert time.monotonic() - started < 20
    assert result.exit_code == 2
    assert result.output.strip().startswith("normgeo: error: cannot reach the Dask scheduler at tcp://127.0.0.1:")
    assert len(result.output.strip().splitlines()) == 1


def test_without_dask_the_scheduler_option_says_how_to_install_it(tmp_path, monkeypatch):
    """With distributed not importable, --scheduler is one line with the pip command."""
    monkeypatch.setitem(sys.modules, "distributed", None)
    result = run("still", "scale-invariance", "--scheduler", "tcp://127.0.0.1:8786", "--out", tmp_path)
    assert result.exit_code == 2
    assert "pip install 'normgeo[cluster]'" in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_manifest_records_are_plain_json(tmp_path):
    """The job payload a worker receives is plain data (JSON round-trips it) and rebuilds the same job."""
    from scenes.render import RenderJob, RenderSettings, build_specs, input_hash
    from dataclasses import asdict

    from scenes.render.running.job import JobPayload, job_from_payload, job_payload

    specs = build_specs(["radial-projection"], "ru", "light", {"radius": "2"})
    job = RenderJob("radial-projection", specs["radial-projection"], RenderSettings("l", "webm", True, (320, 180)),
                    tmp_path)
    payload = JobPayload(**json.loads(json.dumps(asdict(job_payload(job, input_hash(job))))))
    rebuilt = job_from_payload(payload)
    assert rebuilt.spec == job.spec and rebuilt.settings == job.settings and rebuilt.relative_path == job.relative_path


def test_a_split_render_on_the_cluster_equals_the_unsplit_one(cluster, tmp_path):
    """scale-invariance in two parts on two workers (the first part renders while the last one
    measures the scene; they agree on the ranges through Dask Variables; the last part renders from
    a forked copy of its worker's measuring run): decoded frames, .srt and steps equal a local
    unsplit render's, and the job leaves no Variable behind on the scheduler."""
    whole, parts = tmp_path / "whole", tmp_path / "split"
    assert run("render", "scale-invariance", *TINY, "--jobs", 1, "--out", whole).exit_code == 0
    result = run("render", "scale-invariance", *TINY, "--scheduler", cluster.address, "--split", 2, "--out", parts)
    assert result.exit_code == 0, result.output
    records = assert_split_equals_unsplit(whole, parts, "scale-invariance/scale-invariance.en.dark.192x108p15.mp4")
    assert records[1]["split_parts"] == 2
    with distributed.Client(cluster.address) as client:
        variables = client.run_on_scheduler(lambda dask_scheduler: list(dask_scheduler.extensions["variables"].variables))
    assert not [variable for variable in variables if variable.startswith("normgeo-")]


def _worker_settings() -> dict:
    import os

    import dask

    return {"profile": dask.config.get("distributed.worker.profile.enabled"),
            "mmap": os.environ.get("MALLOC_MMAP_THRESHOLD_"), "trim": os.environ.get("MALLOC_TRIM_THRESHOLD_")}


def test_normgeo_worker_starts_a_dask_worker_configured_for_rendering():
    """`normgeo worker` (the real command, a real scheduler): the worker it starts has one thread,
    Dask's statistical profiler off, and glibc's large mmap and trim thresholds from the nanny."""
    cluster = Cluster(0)
    worker = cluster._start([*NORMGEO, "worker", cluster.address, "--nworkers", "1", "--no-dashboard"])
    cluster.workers.append(worker)
    try:
        with distributed.Client(cluster.address, timeout="60s") as client:
            client.wait_for_workers(1, timeout=120)
            settings = list(client.run(_worker_settings).values())
            threads = [info["nthreads"] for info in client.scheduler_info(n_workers=-1)["workers"].values()]
        assert settings == [{"profile": False, "mmap": str(32 * 1024 * 1024), "trim": str(256 * 1024 * 1024)}]
        assert threads == [1]
    finally:
        cluster.close()


def test_normgeo_worker_refuses_an_address_without_a_scheme():
    result = CliRunner().invoke(cli, ["worker", "localhost:8786"])
    assert result.exit_code == 2 and "tcp://HOST:8786" in result.output
