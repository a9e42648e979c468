"""Render jobs: one scene, one spec, one set of settings, to one output folder.

A file appears in the output folder only when complete; an interrupted or failed render leaves the
earlier good file (if any) untouched and no scratch files behind. Each artefact is recorded in the
folder's manifest with a hash of its inputs the moment it lands, so an unchanged render is skipped
and an interrupted batch keeps what it finished.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import shutil
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

import normgeo
from scenes.kit.registry import entry
from scenes.kit.spec import SceneSpec
from scenes.kit.text import COMMON_TEXT, SCENES_DIR
from scenes.render.files import install_file
from scenes.render.manifest import Manifest
from scenes.render.names import artifact_name, gif_name, spec_tag
from scenes.render.settings import GifOptions, RenderSettings
from scenes.render.subtitles import write_vtt_beside

__all__ = ["RenderJob", "RenderResult", "Reporter", "render_job", "input_hash", "is_cached", "run_jobs"]

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
            return RenderSettings(self.settings.quality, "gif", False, self.settings.resolution)
        return self.settings

    @property
    def relative_path(self) -> str:
        if self.gif is not None:
            return gif_name(self.scene_id, self.spec, self.gif.width)
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


def _source_files(scene_id: str) -> list[Path]:
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
    for path in _source_files(job.scene_id):
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


def render_job(job: RenderJob, digest: str, verbose: bool = False) -> RenderResult:
    """Render ``job`` with manim in a scratch folder, install its files, record them in the
    manifest. Never raises for a failing scene: the result says ``failed`` and why."""
    started = time.monotonic()
    scratch = Path(tempfile.mkdtemp(prefix="normgeo-"))
    try:
        produced, video_seconds, extra = _render_with_manim(job, scratch, verbose)
        installed = []
        for source, relative in produced:
            install_file(source, job.out_dir / relative)
            installed.append(relative)
        record = _record(job, digest, installed, video_seconds, time.monotonic() - started) | extra
        Manifest(job.out_dir).put(job.relative_path, record)
        return RenderResult(job, "made", time.monotonic() - started, tuple(installed), record)
    except KeyboardInterrupt:
        raise
    except Exception as error:  # a failing scene must not stop the others
        reason = f"{type(error).__name__}: {error}".splitlines()[0]
        return RenderResult(job, "failed", time.monotonic() - started, error=reason)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _render_with_manim(job: RenderJob, scratch: Path, verbose: bool) -> tuple[list[tuple[Path, str]], float, dict]:
    """Run manim on the job inside ``scratch``; return (file, name in the output folder) pairs, the
    scene's duration in seconds and extra manifest fields."""
    from scenes.render.manim_run import run_manim

    settings = job.settings_for_output
    if job.gif is not None:
        output = run_manim(job.scene_id, job.spec, settings, scratch, frames=True,
                           frame_rate=30 if job.gif.fps > 15 else 15, verbose=verbose)
        produced, extra = _make_gif(job, output, scratch)
        return produced, output.duration, extra | {"steps": output.steps}
    output = run_manim(job.scene_id, job.spec, settings, scratch, still=job.still, verbose=verbose)
    produced = [(output.artifact, job.relative_path)]
    if output.subtitles is not None:
        srt_name = str(Path(job.relative_path).with_suffix(".srt"))
        produced.append((output.subtitles, srt_name))
        produced.append((write_vtt_beside(output.subtitles), str(Path(srt_name).with_suffix(".vtt"))))
    return produced, output.duration, {"steps": output.steps} if not job.still else {}


def _make_gif(job: RenderJob, output, scratch: Path):
    """The GIF from Manim's lossless PNG frames; its size and SSIM go into the manifest."""
    from scenes.render.gif import GifSettings, best_gif
    from scenes.render.manim_run import expand_repeats, load_png_frames

    if output.frames_dir is None or not output.frames_dir.is_dir():
        raise RuntimeError("manim wrote no frames for the GIF")
    frames = expand_repeats(load_png_frames(output.frames_dir), output.repeats)
    options = job.gif
    base = GifSettings(width=min(options.width, frames[0].shape[1]), fps=options.fps, loop=options.loop)
    result = best_gif(frames, int(round(output.frame_rate)), base, scratch / "out.gif", max_size=options.max_size)
    extra = {"gif": {"settings": result.settings.describe(), "ssim": round(result.ssim, 4),
                     "fits_budget": options.max_size is None or result.size_bytes <= options.max_size}}
    return [(result.path, job.relative_path)], extra


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
        """``job`` was handed to a worker."""

    def finished(self, result: RenderResult) -> None:
        """``result.job`` was made or failed."""


def run_jobs(render_jobs: list[RenderJob], workers: int = 1, verbose: bool = False,
             reporter: Reporter | None = None) -> list[RenderResult]:
    """Render every job whose inputs changed, in up to ``workers`` processes, in the order given;
    return one result per job, in that order. A failing job does not stop the others."""
    reporter = reporter or Reporter()
    results: dict[int, RenderResult] = {}
    pending = []
    for index, job in enumerate(render_jobs):
        digest = input_hash(job)
        record = Manifest(job.out_dir).get(job.relative_path)
        if is_cached(job, Manifest(job.out_dir), digest):
            results[index] = RenderResult(job, "cached", files=tuple(record["files"]), record=record)
            reporter.cached(job)
        else:
            pending.append((index, job, digest))

    def finish(index: int, result: RenderResult) -> None:
        results[index] = result
        reporter.finished(result)

    if workers == 1 or len(pending) <= 1:
        for index, job, digest in pending:
            reporter.started(job)
            finish(index, render_job(job, digest, verbose))
    else:
        context = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(max_workers=min(workers, len(pending)), mp_context=context) as pool:
            futures = {}
            for index, job, digest in pending:
                futures[pool.submit(render_job, job, digest, verbose)] = index
                reporter.started(job)
            try:
                for future in as_completed(futures):
                    finish(futures[future], future.result())
            except KeyboardInterrupt:
                for future in futures:
                    future.cancel()
                raise
    return [results[index] for index in range(len(render_jobs))]

