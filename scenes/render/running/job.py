"""Render jobs: one scene, one spec, one set of settings, to one output folder.

A file appears in the output folder only when complete; an interrupted or failed render leaves the
earlier good file (if any) untouched and no scratch files behind. Each artefact is recorded in the
folder's manifest with a hash of its inputs the moment it lands, so an unchanged render is skipped
and an interrupted batch keeps what it finished.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import normgeo
from scenes.kit.registry import entry
from scenes.kit.spec import SceneSpec
from scenes.kit.text import COMMON_TEXT, SCENES_DIR
from scenes.render.executors import Executor, JobFailed, LocalExecutor, failure_reason, worker_name, worker_scratch
from scenes.render.files import install_file
from scenes.render.handoff import Handoff
from scenes.render.manifest import Manifest
from scenes.render.names import artifact_name, gif_name, spec_tag
from scenes.render.settings import GifOptions, RenderSettings
from scenes.render.subtitles import write_vtt_beside

__all__ = ["RenderJob", "RenderResult", "Reporter", "render_job", "input_hash", "is_cached", "run_jobs", "job_payload",
           "job_from_payload", "produce", "install", "source_files", "is_splittable"]

CORE_DIR = Path(normgeo.__file__).resolve().parent
KIT_DIR = COMMON_TEXT.parent
RENDER_DIR = Path(__file__).resolve().parent


@dataclass(frozen=True)
class RenderJob:
    """One scene with one spec and one set of settings, to one output folder."""

    scene_id: str
    spec: SceneSpec
    settings: RenderSettings
    out_dir: Path
    force: bool = False
    still: bool = False
    gif: GifOptions | None = None

    @property
    def settings_for_output(self) -> RenderSettings:
        if self.still:
            return RenderSettings(self.settings.quality, "png", self.settings.transparent, self.settings.resolution)
        if self.gif is not None:
            return RenderSettings(self.settings.quality, self.gif.format, False, self.settings.resolution)
        return self.settings

    @property
    def animation_width(self) -> int:
        """The real pixel width of a web animation: the asked width, never wider than the frames."""
        from scenes.render.quality import scaled_size

        return scaled_size(*self.settings.pixel_size, self.gif.width)[0]

    @property
    def relative_path(self) -> str:
        if self.gif is not None:
            return gif_name(self.scene_id, self.spec, self.animation_width, self.gif.format, self.gif.lossless)
        return artifact_name(self.scene_id, self.spec, self.settings_for_output)

    @property
    def target(self) -> Path:
        return self.out_dir / self.relative_path


@dataclass(frozen=True)
class RenderResult:
    """What happened to a job: ``made``, ``cached`` or ``failed`` (with a one-line reason)."""

    job: RenderJob
    status: str
    seconds: float = 0.0
    files: tuple[str, ...] = ()
    record: dict | None = None
    error: str = ""
    worker: str = ""


def source_files(scene_id: str) -> list[Path]:
    """Everything a render's output depends on: the core, the kit (code and shared text), the
    pipeline that writes the files, and the scene's own module and text file."""
    scene = entry(scene_id)
    return [*sorted(CORE_DIR.glob("*.py")), *sorted(KIT_DIR.glob("*.py")), *sorted(KIT_DIR.glob("*.toml")),
            *sorted(RENDER_DIR.glob("*.py")), scene.source_file, scene.text_file]


def input_hash(job: RenderJob) -> str:
    """SHA-256 of everything the output depends on: the sources above, the spec, the settings and
    the versions of manim and normgeo."""
    import manim

    digest = hashlib.sha256()
    for path in source_files(job.scene_id):
        digest.update(str(path.relative_to(SCENES_DIR.parent)).encode())
        digest.update(path.read_bytes())
    meta = {
        "scene": job.scene_id,
        "spec": job.spec.as_dict(),
        "settings": job.settings_for_output.as_dict(),
        "gif": job.gif.as_dict() if job.gif else None,
        "manim": manim.__version__,
        "normgeo": normgeo.__version__,
    }
    digest.update(json.dumps(meta, sort_keys=True).encode())
    return digest.hexdigest()


def is_cached(job: RenderJob, manifest: Manifest, digest: str) -> bool:
    """True when the manifest says this exact input already produced the file, and it is there."""
    record = manifest.get(job.relative_path)
    if job.force or record is None or record.get("input_hash") != digest:
        return False
    return all((job.out_dir / name).is_file() for name in record.get("files", [job.relative_path]))


def job_payload(job: RenderJob, digest: str, verbose: bool = False) -> dict:
    """``job`` as plain data for a worker (another process or another machine): scene id, spec and
    settings as dicts, the name of the artefact and the input hash it is recorded under."""
    import manim

    return {
        "versions": {"normgeo": normgeo.__version__, "manim": manim.__version__},
        "scene_id": job.scene_id,
        "spec": job.spec.as_dict(),
        "settings": job.settings.as_dict(),
        "still": job.still,
        "gif": job.gif.as_dict() if job.gif else None,
        "relative_path": job.relative_path,
        "digest": digest,
        "verbose": verbose,
    }


def job_from_payload(payload: dict) -> RenderJob:
    """The :class:`RenderJob` a worker renders (its output folder is the client's business)."""
    import manim

    from scenes.render.specs import spec_class

    wanted = payload.get("versions", {})
    here = {"normgeo": normgeo.__version__, "manim": manim.__version__}
    if wanted and wanted != here:
        raise JobFailed(f"worker {worker_name()} has normgeo {here['normgeo']} and manim {here['manim']}, the client "
                        f"normgeo {wanted['normgeo']} and manim {wanted['manim']}")
    spec = spec_class(payload["scene_id"])().with_overrides(
        {key: value for key, value in payload["spec"].items()})
    settings = dict(payload["settings"])
    if settings.get("resolution") is not None:
        settings["resolution"] = tuple(settings["resolution"])
    gif = GifOptions(**payload["gif"]) if payload.get("gif") else None
    job = RenderJob(payload["scene_id"], spec, RenderSettings(**settings), Path("."), still=payload["still"], gif=gif)
    if job.relative_path != payload["relative_path"]:
        raise JobFailed(f"this worker names the artefact {job.relative_path}, the client {payload['relative_path']}")
    return job


def produce(payload: dict) -> dict:
    """Render one job (given by :func:`job_payload`) in a scratch folder and return its files as
    bytes plus metadata: ``{"files": {name: bytes}, "duration", "extra", "seconds", "worker"}``.
    Runs on a worker; writes nothing outside its scratch folder. A failure raises
    :class:`JobFailed` with a one-line reason (so that Dask may try it again elsewhere)."""
    started = time.monotonic()
    with worker_scratch("normgeo-") as scratch:
        job = job_from_payload(payload)
        produced, video_seconds, extra = _render_with_manim(job, scratch, payload.get("verbose", False))
        files = {relative: Path(source).read_bytes() for source, relative in produced}
        return {"files": files, "duration": video_seconds, "extra": extra, "seconds": time.monotonic() - started,
                "worker": worker_name()}


def install(job: RenderJob, digest: str, produced: dict) -> RenderResult:
    """Install what a worker produced into ``job.out_dir`` (each file under a hidden name, then
    renamed) and record it in the manifest. Runs on the client."""
    started = time.monotonic()
    scratch = Path(tempfile.mkdtemp(prefix="normgeo-install-"))
    try:
        installed = []
        for number, (relative, data) in enumerate(produced["files"].items()):
            source = scratch / f"{number}{Path(relative).suffix}"
            source.write_bytes(data)
            install_file(source, job.out_dir / relative)
            installed.append(relative)
        seconds = produced.get("seconds", 0.0) + time.monotonic() - started
        record = _record(job, digest, installed, produced["duration"], seconds) | produced.get("extra", {})
        Manifest(job.out_dir).put(job.relative_path, record)
        return RenderResult(job, "made", seconds, tuple(installed), record, worker=produced.get("worker", ""))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def render_job(job: RenderJob, digest: str, verbose: bool = False) -> RenderResult:
    """Render ``job`` here and now: :func:`produce`, then :func:`install`. Never raises for a failing
    scene: the result says ``failed`` and why."""
    started = time.monotonic()
    try:
        return install(job, digest, produce(job_payload(job, digest, verbose)))
    except KeyboardInterrupt:
        raise
    except Exception as error:
        reason = error.reason if isinstance(error, JobFailed) else failure_reason(error)
        return RenderResult(job, "failed", time.monotonic() - started, error=reason)


def _render_with_manim(job: RenderJob, scratch: Path, verbose: bool) -> tuple[list[tuple[Path, str]], float, dict]:
    """Run manim on the job inside ``scratch``; return (file, name in the output folder) pairs, the
    scene's duration in seconds and extra manifest fields."""
    from scenes.render.manim_run import run_manim

    settings = job.settings_for_output
    if job.gif is not None:
        output = run_manim(job.scene_id, job.spec, settings, scratch, frames=True,
                           frame_rate=30 if job.gif.fps > 15 else 15, verbose=verbose)
        produced, extra = _make_animation(job, output, scratch)
        return produced, output.duration, extra | {"steps": output.steps}
    output = run_manim(job.scene_id, job.spec, settings, scratch, still=job.still, verbose=verbose)
    produced = [(output.artifact, job.relative_path)]
    if output.subtitles is not None:
        srt_name = str(Path(job.relative_path).with_suffix(".srt"))
        produced.append((output.subtitles, srt_name))
        produced.append((write_vtt_beside(output.subtitles), str(Path(srt_name).with_suffix(".vtt"))))
    return produced, output.duration, {"steps": output.steps} if not job.still else {}


class BudgetNotMet(RuntimeError):
    """--max-size is below the smallest GIF these frames make; the message says how small that is."""


def _make_animation(job: RenderJob, output, scratch: Path):
    """The GIF, WebP or looping MP4 from Manim's lossless PNG frames, streamed (a frame or two in
    memory); its size and its SSIM against the lossless frames (matched by time) go into the
    manifest. A --max-size that even the smallest GIF cannot meet is refused before any search."""
    from scenes.render.gif_encoder import encode_gif, fit_gif_to_size, smallest_reachable_size
    from scenes.render.loop_video import encode_loop_video
    from scenes.render.manim_run import png_frames
    from scenes.render.quality import method_name, ssim_of_animation
    from scenes.render.webp import encode_webp

    if output.frames_dir is None or not output.frames_dir.is_dir():
        raise RuntimeError("manim wrote no frames for the animation")
    options, width = job.gif, job.animation_width

    def frames():
        return png_frames(output.frames_dir, output.repeats, output.frame_rate)

    target = scratch / Path(job.relative_path).name
    details: dict = {"format": options.format}
    if options.format == "gif" and options.max_size is not None:
        estimate = smallest_reachable_size(frames(), width, options.fps, options.loop)
        if not estimate.reachable(options.max_size):
            raise BudgetNotMet(f"--max-size {options.max_size:,} bytes cannot be met: the smallest GIF of these "
                               f"frames at {width} px and {options.fps} fps is {estimate.smallest_bytes:,} bytes "
                               f"(try a smaller --width or --fps)")
        search = fit_gif_to_size(frames, target, width, options.max_size, options.fps, options.loop, estimate=estimate)
        stats = search.result
        details |= {"quality": stats.quality, "fits_budget": search.met, "max_size": options.max_size}
    elif options.format == "gif":
        stats = encode_gif(frames(), target, width, options.fps, options.loop)
        details |= {"quality": stats.quality}
    elif options.format == "webp":
        stats = encode_webp(frames(), target, width, options.fps, options.loop, lossless=options.lossless)
        details |= {"lossless": options.lossless}
    else:
        stats = encode_loop_video(frames(), target, width, options.fps)
    details |= {"width": stats.width, "height": stats.height,
                "ssim": round(ssim_of_animation(target, frames()), 4), "ssim_method": method_name()}
    return [(target, job.relative_path)], {"gif": details}


def _record(job: RenderJob, digest: str, files: list[str], video_seconds: float, seconds: float) -> dict:
    return {
        "scene": job.scene_id,
        "spec": job.spec.as_dict(),
        "spec_tag": spec_tag(job.spec),
        "settings": job.settings_for_output.as_dict(),
        "quality": job.settings_for_output.quality_label,
        "duration_s": round(video_seconds, 3),
        "size_bytes": sum((job.out_dir / name).stat().st_size for name in files),
        "files": files,
        "input_hash": digest,
        "render_seconds": round(seconds, 2),
        "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }


class Reporter:
    """What a batch tells its caller as it goes; the CLI shows it, the benchmark ignores it."""

    def cached(self, job: RenderJob) -> None:
        """``job``'s inputs are unchanged and its files are there."""

    def started(self, job: RenderJob) -> None:
        """``job`` (or its first part) was handed to a worker."""

    def finished(self, result: RenderResult) -> None:
        """``result.job`` was made or failed."""

    def ran(self, worker: str, label: str, ok: bool) -> None:
        """A worker finished one task (a job, a part of a split job, or its plan)."""

    def busy(self, running: dict[str, int]) -> None:
        """Tasks running now per worker (only when the executor can tell)."""


def is_splittable(job: RenderJob) -> bool:
    """Videos can be split into ranges of animations; stills and GIFs render whole."""
    return not job.still and job.gif is None


def run_jobs(render_jobs: list[RenderJob], workers: int = 1, verbose: bool = False,
             reporter: Reporter | None = None, executor: Executor | None = None, split: int = 1) -> list[RenderResult]:
    """Render every job whose inputs changed and return one result per job, in the order given. A
    failing job does not stop the others.

    Jobs run on ``executor`` (kept open; a Dask cluster, say) or else in up to ``workers`` local
    processes. Cached jobs are never sent. With ``split`` > 1 each video is rendered as up to
    ``split`` ranges of its animations on as many workers, and the parts are joined here without
    re-encoding; the artefact and its input hash are the same as an unsplit render's.
    """
    from scenes.render import split as splitting

    reporter = reporter or Reporter()
    results: dict[int, RenderResult] = {}
    pending: list[tuple[int, RenderJob, str]] = []
    for index, job in enumerate(render_jobs):
        digest = input_hash(job)
        manifest = Manifest(job.out_dir)
        if is_cached(job, manifest, digest):
            record = manifest.get(job.relative_path)
            results[index] = RenderResult(job, "cached", files=tuple(record["files"]), record=record)
            reporter.cached(job)
        else:
            pending.append((index, job, digest))
    if not pending:
        return [results[index] for index in range(len(render_jobs))]

    tasks = sum(split if split > 1 and is_splittable(job) else 1 for _, job, _ in pending)
    own = executor is None
    if own:
        executor = LocalExecutor(min(workers, tasks))
    jobs = {index: (job, digest) for index, job, digest in pending}
    announced: set[int] = set()
    parts: dict[int, dict[int, dict]] = {}
    failed: set[int] = set()

    def on_start(key) -> None:
        index = key[1]
        if index not in announced:
            announced.add(index)
            reporter.started(jobs[index][0])

    executor.on_start = on_start

    def finish(index: int, result: RenderResult) -> None:
        if index in results:
            return
        results[index] = result
        reporter.finished(result)

    def fail(index: int, reason: str) -> None:
        failed.add(index)
        finish(index, RenderResult(jobs[index][0], "failed", error=reason))

    # A split job's parts all start at once: the last measures the scene and chooses the ranges
    # (split.render_tail), the first renders meanwhile and learns where to stop, the others wait for
    # their range; they pass these through the job's hand-off.
    handoffs: dict[int, Handoff] = {}
    for index, job, digest in pending:
        payload = job_payload(job, digest, verbose)
        if split > 1 and is_splittable(job):
            handoff = handoffs[index] = executor.handoff(f"job{index}")
            parts[index] = {}
            # the tail first: the others wait on what it measures, so it must never queue behind them
            executor.submit(("part", index, split - 1), splitting.render_tail, payload, handoff, split)
            executor.submit(("part", index, 0), splitting.render_lead, payload, handoff, split)
            for number in range(1, split - 1):
                executor.submit(("part", index, number), splitting.render_middle, payload, handoff, number)
        else:
            executor.submit(("whole", index), produce, payload)

    def stop_parts(index: int) -> None:
        if index in handoffs:
            handoffs[index].put(splitting.STOP, True)

    def join_when_complete(index: int) -> None:
        job, digest = jobs[index]
        if len(parts[index]) < split:
            return
        ordered = [parts[index][number] for number in range(split)]
        try:
            joined = splitting.join_parts(job, [part for part in ordered if not part.get("empty")])
        except Exception as error:
            fail(index, failure_reason(error))
            return
        handoffs[index].discard(splitting.HANDOFF_NAMES)
        finish(index, _install_or_fail(job, digest, joined))

    def tick() -> None:
        reporter.busy(executor.running())

    try:
        for outcome in executor.outcomes(tick):
            kind, index = outcome.key[0], outcome.key[1]
            job, digest = jobs[index]
            label = job.scene_id if kind == "whole" else f"{job.scene_id} {kind}"
            reporter.ran(outcome.worker, label, outcome.error is None)
            if index in failed:
                continue
            if outcome.error is not None:
                fail(index, outcome.error)
                stop_parts(index)
            elif kind == "whole":
                finish(index, _install_or_fail(job, digest, outcome.value))
            else:
                parts[index][outcome.key[2]] = outcome.value
                join_when_complete(index)
    except KeyboardInterrupt:
        for index in handoffs:
            try:
                stop_parts(index)
            except Exception:  # the scheduler may be gone; its tasks with it
                pass
        executor.cancel()
        raise
    finally:
        if own:
            executor.close()
    return [results[index] for index in range(len(render_jobs))]


def _install_or_fail(job: RenderJob, digest: str, produced: dict) -> RenderResult:
    try:
        return install(job, digest, produced)
    except KeyboardInterrupt:
        raise
    except Exception as error:
        return RenderResult(job, "failed", error=failure_reason(error))
