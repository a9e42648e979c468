"""Producing a job on a worker (in a scratch folder, files back as bytes) and installing what it
produced into the output folder on the client.

A file appears in the output folder only when complete; an interrupted or failed render leaves the
earlier good file (if any) untouched and no scratch files behind. Each artefact is recorded in the
folder's manifest with a hash of its inputs the moment it lands, so an unchanged render is skipped
and an interrupted batch keeps what it finished.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path

from scenes.render.errors import InputError
from scenes.render.files import install_file
from scenes.render.manifest import Manifest
from scenes.render.manim_door import run_manim
from scenes.render.media.animation import make_animation
from scenes.render.names import spec_tag
from scenes.render.running.narrated import render_narrated
from scenes.render.running.job import JobPayload, Produced, RenderJob, RenderResult, job_from_payload, job_payload
from scenes.render.running.worker import JobFailed, failure_reason, worker_name, worker_scratch
from scenes.render.subtitles import write_vtt_beside

__all__ = ["produce", "install", "install_or_fail", "render_job"]


def produce(payload: JobPayload) -> Produced:
    """Render one job (given by :func:`job_payload`) in a scratch folder and return its files as
    bytes plus metadata. Runs on a worker; writes nothing outside its scratch folder. A failure raises
    :class:`JobFailed` with a one-line reason (so that Dask may try it again elsewhere); a setting
    the job cannot meet (an :class:`InputError`, e.g. a GIF budget) comes back as ``refused`` at once,
    since trying again elsewhere would only fail again."""
    started = time.monotonic()
    with worker_scratch("normgeo-") as scratch:
        job = job_from_payload(payload)
        try:
            produced, video_seconds, extra = _render_with_manim(job, scratch, payload.verbose)
        except InputError as error:
            return Produced({}, 0.0, seconds=time.monotonic() - started, worker=worker_name(), refused=str(error))
        files = {relative: Path(source).read_bytes() for source, relative in produced}
        return Produced(files, video_seconds, extra, time.monotonic() - started, worker_name())


def install(job: RenderJob, digest: str, produced: Produced) -> RenderResult:
    """Install what a worker produced into ``job.out_dir`` (each file under a hidden name, then
    renamed) and record it in the manifest. Runs on the client."""
    if produced.refused is not None:
        raise InputError(produced.refused)
    started = time.monotonic()
    scratch = Path(tempfile.mkdtemp(prefix="normgeo-install-"))
    try:
        installed = []
        for number, (relative, data) in enumerate(produced.files.items()):
            source = scratch / f"{number}{Path(relative).suffix}"
            source.write_bytes(data)
            install_file(source, job.out_dir / relative)
            installed.append(relative)
        seconds = produced.seconds + time.monotonic() - started
        record = _record(job, digest, installed, produced.duration, seconds) | produced.extra
        Manifest(job.out_dir).put(job.relative_path, record)
        return RenderResult(job, "made", seconds, tuple(installed), record, worker=produced.worker)
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
    settings = job.settings_for_output
    if job.gif is not None:
        output = run_manim(job.scene_id, job.spec, settings, scratch, frames=True,
                           frame_rate=30 if job.gif.fps > 15 else 15, verbose=verbose, shown_width=job.animation_width)
        produced, extra = make_animation(job, output, scratch)
        return produced, output.duration, extra | {"steps": output.steps}
    extra: dict = {}
    vtt = None  # a narrated render's WebVTT has word timestamps; a silent one's is its SRT's cues
    if settings.narrated and not job.still:
        output, video, vtt, extra = render_narrated(job, scratch, verbose)
    else:
        output = run_manim(job.scene_id, job.spec, settings, scratch, still=job.still, verbose=verbose)
        video = output.artifact
    produced = [(video, job.relative_path)]
    if output.subtitles is not None:
        srt_name = str(Path(job.relative_path).with_suffix(".srt"))
        produced.append((output.subtitles, srt_name))
        produced.append((vtt or write_vtt_beside(output.subtitles), str(Path(srt_name).with_suffix(".vtt"))))
    return produced, output.duration, extra | ({"steps": output.steps} if not job.still else {})


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


def install_or_fail(job: RenderJob, digest: str, produced: Produced) -> RenderResult:
    try:
        return install(job, digest, produced)
    except KeyboardInterrupt:
        raise
    except Exception as error:
        return RenderResult(job, "failed", error=failure_reason(error))
