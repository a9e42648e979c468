"""Render one scene to a finished file: in a scratch folder first, then moved into place.

A file appears in the output folder only when complete; an interrupted or failed render
leaves the earlier good file (if any) untouched and no scratch files behind. Each artefact
is recorded in ``manifest.json`` with a hash of its inputs, so an unchanged render is skipped.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import normgeo
from scenes.render.settings import GifOptions, RenderSettings, artifact_name
from scenes.kit.registry import PACKAGE_DIR, SCENES, entry
from scenes.render.subtitles import write_vtt_beside
from scenes.kit.spec import SceneSpec

__all__ = ["RenderJob", "RenderResult", "render_job", "input_hash", "Manifest"]

CORE_DIR = Path(normgeo.__file__).resolve().parent
SCENE_MODULE_FILES = {scene.source_file.name for scene in SCENES}


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
            return f"{self.scene_id}/{self.scene_id}.{self.spec.lang}.{self.spec.theme}.{self.gif.width}px.gif"
        return artifact_name(self.scene_id, self.spec.lang, self.spec.theme, self.settings_for_output)

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


def _source_files(scene_file: str) -> list[Path]:
    core = sorted(CORE_DIR.glob("*.py"))
    toolkit = sorted(p for p in PACKAGE_DIR.glob("*.py") if p.name not in SCENE_MODULE_FILES)
    return [*core, *toolkit, PACKAGE_DIR / scene_file]


def input_hash(job: RenderJob) -> str:
    """SHA-256 of everything the output depends on: the core, the toolkit, the scene's own
    source, its spec, the settings and the versions of manim and normgeo."""
    import manim

    digest = hashlib.sha256()
    for path in _source_files(entry(job.scene_id).source_file.name):
        digest.update(path.name.encode())
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


class Manifest:
    """``manifest.json`` in the output folder: artefact path → record. Written atomically."""

    def __init__(self, out_dir: Path):
        self.path = out_dir / "manifest.json"
        try:
            self.data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            self.data = {"artifacts": {}}
        self.data.setdefault("artifacts", {})

    def get(self, relative_path: str) -> dict | None:
        return self.data["artifacts"].get(relative_path)

    def put(self, relative_path: str, record: dict) -> None:
        self.data["artifacts"][relative_path] = record

    def save(self) -> None:
        self.data["artifacts"] = dict(sorted(self.data["artifacts"].items()))
        atomic_write_text(self.path, json.dumps(self.data, indent=2, ensure_ascii=False) + "\n")


def atomic_write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same folder and a rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".partial", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def install_file(source: Path, target: Path) -> None:
    """Copy ``source`` next to ``target`` under a hidden name, then rename it into place."""
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.partial")
    try:
        shutil.copyfile(source, partial)
        os.replace(partial, target)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise


def is_cached(job: RenderJob, manifest: Manifest, digest: str) -> bool:
    """True when the manifest says this exact input already produced the file, and it is there."""
    record = manifest.get(job.relative_path)
    if job.force or record is None or record.get("input_hash") != digest:
        return False
    return all((job.out_dir / name).is_file() for name in record.get("files", [job.relative_path]))


def render_job(job: RenderJob, digest: str, verbose: bool = False) -> RenderResult:
    """Render ``job`` with manim in a scratch folder, then install its files. Never raises for
    a failing scene: the result says ``failed`` and why."""
    started = time.monotonic()
    scratch = Path(tempfile.mkdtemp(prefix="normgeo-"))
    try:
        produced, video_seconds, extra = _render_with_manim(job, scratch, verbose)
        installed = []
        for source, relative in produced:
            install_file(source, job.out_dir / relative)
            installed.append(relative)
        record = _record(job, digest, installed, video_seconds, time.monotonic() - started) | extra
        return RenderResult(job, "made", time.monotonic() - started, tuple(installed), record)
    except KeyboardInterrupt:
        raise
    except Exception as error:  # a failing scene must not stop the others
        reason = f"{type(error).__name__}: {error}".splitlines()[0]
        return RenderResult(job, "failed", time.monotonic() - started, error=reason)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _render_with_manim(job: RenderJob, scratch: Path, verbose: bool) -> tuple[list[tuple[Path, str]], float]:
    """Run manim on the job inside ``scratch``; return (file, name in the output folder) pairs and
    the scene's duration in seconds."""
    from manim import config, logger, tempconfig

    settings = job.settings_for_output
    options = {
        "media_dir": str(scratch),
        "quality": settings.manim_quality,
        "format": "png-sequence" if job.gif else settings.format,
        "transparent": settings.transparent,
        "output_file": job.scene_id,
        "disable_caching": True,
        "progress_bar": "display" if verbose else "none",
        "verbosity": "INFO" if verbose else "ERROR",
        "notify_outdated_version": False,
        "write_to_movie": not job.still and job.gif is None,
        "save_last_frame": job.still,
    }
    if settings.resolution is not None:
        options["pixel_width"], options["pixel_height"] = settings.resolution
    if job.gif is not None:
        options["frame_rate"] = 30 if job.gif.fps > 15 else 15
    scene_class = entry(job.scene_id).load()
    with tempconfig(options):
        logger.setLevel(config.verbosity)
        scene = scene_class(spec=job.spec, skip_animations=job.still)
        repeats = record_frame_repeats(scene) if job.gif is not None else None
        scene.render()
        plan = scene.renderer.file_writer.output_plan
        if job.gif is not None:
            produced, extra = _make_gif(job, plan.image_sequence_dir, repeats, config.frame_rate, scratch)
            return produced, float(scene.time), extra
        artifact = plan.primary_artifact
        if job.still:
            artifact = scene.renderer.file_writer.image_file_path
        if artifact is None or not Path(artifact).is_file():
            raise RuntimeError(f"manim wrote no {settings.format} file")
        produced = [(Path(artifact), job.relative_path)]
        subtitles = plan.subcaption_file
        if not job.still and subtitles is not None and Path(subtitles).is_file():
            srt_name = Path(job.relative_path).with_suffix(".srt")
            produced.append((Path(subtitles), str(srt_name)))
            produced.append((write_vtt_beside(Path(subtitles)), str(srt_name.with_suffix(".vtt"))))
        return produced, float(scene.time), {}


def record_frame_repeats(scene) -> list[int]:
    """Count how often each written frame is shown. Manim 0.22 writes a held frame (a ``wait``)
    once into a PNG sequence and drops its repeat count, so a GIF made from the PNGs alone would
    play every pause too fast; the counts recorded here put the pauses back."""
    writer = scene.renderer.file_writer
    original = writer.write_frame
    repeats: list[int] = []

    def recording(pixels, *, repeat: int = 1):
        repeats.append(int(repeat))
        return original(pixels, repeat=repeat)

    writer.write_frame = recording
    return repeats


def expand_repeats(frames: list, repeats: list[int] | None) -> list:
    """Each frame as many times as it was shown."""
    if not repeats:
        return frames
    if len(repeats) != len(frames):
        raise RuntimeError(f"manim wrote {len(frames)} frames but showed {len(repeats)}")
    return [frame for frame, count in zip(frames, repeats) for _ in range(count)]


def _make_gif(job: RenderJob, frames_dir, repeats, frame_rate: float, scratch: Path):
    """The GIF from Manim's lossless PNG frames; its size and SSIM go into the manifest."""
    from scenes.render.gif import GifSettings, best_gif, load_png_frames

    if frames_dir is None or not Path(frames_dir).is_dir():
        raise RuntimeError("manim wrote no frames for the GIF")
    frames = expand_repeats(load_png_frames(Path(frames_dir)), repeats)
    options = job.gif
    base = GifSettings(width=min(options.width, frames[0].shape[1]), fps=options.fps, loop=options.loop)
    result = best_gif(frames, int(round(frame_rate)), base, scratch / "out.gif", max_size=options.max_size)
    extra = {"gif": {"settings": result.settings.describe(), "ssim": round(result.ssim, 4),
                     "fits_budget": options.max_size is None or result.size_bytes <= options.max_size}}
    return ([(result.path, job.relative_path)], extra)


def _record(job: RenderJob, digest: str, files: list[str], video_seconds: float, seconds: float) -> dict:
    return {
        "scene": job.scene_id,
        "class": entry(job.scene_id).class_name,
        "spec": job.spec.as_dict(),
        "settings": job.settings_for_output.as_dict(),
        "quality": job.settings_for_output.quality_label,
        "duration_s": round(video_seconds, 3),
        "size_bytes": sum((job.out_dir / name).stat().st_size for name in files),
        "files": files,
        "input_hash": digest,
        "render_seconds": round(seconds, 2),
        "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }


def capture_lossless_frames(scene_id: str, spec: SceneSpec | None = None, quality: str = "low_quality") -> tuple[list, float]:
    """Every frame of a scene exactly as rendered (held frames repeated), and the frame rate:
    the reference against which GIFs are measured (used by the benchmark)."""
    from manim import config, tempconfig

    from scenes.render.gif import load_png_frames

    scene_class = entry(scene_id).load()
    scratch = Path(tempfile.mkdtemp(prefix="normgeo-frames-"))
    try:
        options = {"media_dir": str(scratch), "quality": quality, "format": "png-sequence", "disable_caching": True,
                   "progress_bar": "none", "verbosity": "ERROR", "notify_outdated_version": False}
        with tempconfig(options):
            scene = scene_class(spec=spec or scene_class.spec_class())
            repeats = record_frame_repeats(scene)
            scene.render()
            frames = expand_repeats(load_png_frames(Path(scene.renderer.file_writer.output_plan.image_sequence_dir)), repeats)
            return frames, float(config.frame_rate)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
